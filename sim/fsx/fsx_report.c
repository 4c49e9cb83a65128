// SPDX-License-Identifier: GPL-2.0
/*
 * The result lines lbs-sim and lbs-fsx print alike, and the names of the
 * features a filesystem may lack (--unsupported).
 */
#define _GNU_SOURCE
#include "fsx.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const feat_names[LBS_FSX_NFEAT] = {
	[LBS_FSX_DIO] = "dio", [LBS_FSX_FALLOCATE] = "fallocate",
	[LBS_FSX_PUNCH] = "punch_hole", [LBS_FSX_ZERO] = "zero_range",
	[LBS_FSX_COLLAPSE] = "collapse_range", [LBS_FSX_INSERT] = "insert_range",
	[LBS_FSX_CLONE] = "clone_range", [LBS_FSX_DEDUPE] = "dedupe_range",
	[LBS_FSX_COPY] = "copy_range", [LBS_FSX_UNSHARE] = "unshare_range",
};

const char *lbs_fsx_feature_names(void)
{
	return "dio, fallocate, punch_hole, zero_range, collapse_range, "
	       "insert_range, clone_range, dedupe_range, copy_range, "
	       "unshare_range";
}

int lbs_fsx_features_parse(const char *list, unsigned *mask)
{
	char *dup = strdup(list), *save = NULL, *t;
	int rc = 0;

	if (!dup)
		abort();
	for (t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		unsigned k;

		for (k = 0; k < LBS_FSX_NFEAT; k++)
			if (!strcmp(t, feat_names[k]))
				break;
		if (k == LBS_FSX_NFEAT) {
			fprintf(stderr, "unknown feature \"%s\" (known: %s)\n",
				t, lbs_fsx_feature_names());
			rc = -1;
			break;
		}
		*mask |= LBS_FSX_F(k);
	}
	free(dup);
	return rc;
}

void lbs_fsx_print_unsupported(FILE *f, const struct lbs_fsx_result *r)
{
	const char *sep = ", unsupported skipped:";

	for (unsigned k = 0; k < LBS_FSX_NFEAT; k++) {
		if (!(r->unsupported_mask & LBS_FSX_F(k)))
			continue;
		fprintf(f, "%s %s %" PRIu64, sep, feat_names[k],
			r->unsupported[k]);
		sep = ",";
	}
}

void lbs_fsx_print_tail(FILE *f, const struct lbs_fsx_result *r,
			bool final_sum)
{
	lbs_fsx_print_unsupported(f, r);
	fprintf(f, "\n");
	lbs_fsx_print_crash_rules(f, r);
	if (final_sum)
		lbs_fsx_print_final_sum(f, r);
}

void lbs_fsx_print_crash_rules(FILE *f, const struct lbs_fsx_result *r)
{
	if (!r->crashes)
		return;
	fprintf(f, "crash rules (crashes/bytes):");
	for (unsigned k = 0; k < LBS_CRASH_NR_RULES; k++)
		fprintf(f, " %s %" PRIu64 "/%" PRIu64 " %s",
			lbs_crash_rule_name(k), r->crash_rules[k].crashes,
			r->crash_rules[k].bytes,
			r->crash_allow & LBS_CRASH_F(k) ? "allowed" : "denied");
	fprintf(f, "\n");
}

void lbs_fsx_print_replay(FILE *f, const char *what,
			  const struct lbs_fsx_result *r, int rc,
			  bool final_sum)
{
	fprintf(f, "%s: %" PRIu64 " ops, %" PRIu64 " skip lines, %" PRIu64
		" skipped by fsx's rules, %" PRIu64 " not modelled (skipped)"
		", %s, size %" PRIu64, what, r->ops_run, r->skipped,
		r->fsx_skipped, r->unmodelled, rc ? "MISMATCH" : "clean",
		r->final_size);
	if (r->crashes)
		fprintf(f, ", %" PRIu64 " crashes", r->crashes);
	if (r->crash_skipped)
		fprintf(f, ", %" PRIu64 " crash skipped (the backend cannot)",
			r->crash_skipped);
	lbs_fsx_print_tail(f, r, final_sum);
}

void lbs_fsx_print_final_sum(FILE *f, const struct lbs_fsx_result *r)
{
	if (r->final_sum_valid)
		fprintf(f, "final-sum fnv1a64 %016" PRIx64 " size %" PRIu64
			"\n", r->final_sum, r->final_size);
	else
		fprintf(f, "final-sum unavailable (no clean final verify)\n");
}
