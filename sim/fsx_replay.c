// SPDX-License-Identifier: GPL-2.0
/*
 * .fsxops replay: the ops of a recording (ours or fstests' fsx's), run
 * through fsx's rules (fsx_normalize()) by the executor of fsx.c against
 * the oracle.
 */
#define _GNU_SOURCE
#include "fsx_int.h"
#include "fsxops.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static const struct {
	const char *name;
	enum op op;
} fsx_ops[] = {
	{ "read", OP_READ }, { "write", OP_WRITE }, { "mapread", OP_MAPREAD },
	{ "mapwrite", OP_MAPWRITE }, { "truncate", OP_TRUNCATE },
	{ "fallocate", OP_FALLOCATE }, { "punch_hole", OP_PUNCH },
	{ "zero_range", OP_ZERO }, { "collapse_range", OP_COLLAPSE },
	{ "insert_range", OP_INSERT }, { "fsync", OP_FSYNC },
	{ "clone_range", OP_CLONE }, { "dedupe_range", OP_DEDUPE },
	{ "copy_range", OP_COPY },
	/* XFS_IOC_ALLOCSP: fsx models it as a truncate to arg1 */
	{ "allocsp", OP_TRUNCATE },
	/* the same bytes as their plain forms: the logged range is the one
	 * done; write_zeroes zeroes and extends like zero_range */
	{ "read_dontcache", OP_READ }, { "write_dontcache", OP_WRITE },
	{ "write_atomic", OP_WRITE }, { "write_zeroes", OP_ZERO },
};

int lbs_fsx_replay_on(const struct lbs_fsx_opts *o, struct fsx_backend *b,
		      const char *path, const char *final_out,
		      struct lbs_fsx_result *res)
{
	FILE *f = fopen(path, "r");
	struct ctx c;
	char *line = NULL;
	size_t cap = 0;
	ssize_t nread;
	unsigned long lineno = 0;
	uint64_t writes = 0;
	int rc = 0;
	double t0 = fsx_now();

	memset(res, 0, sizeof(*res));
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 2;
	}
	if (fsx_ctx_init(&c, o, b, true)) {
		fclose(f);
		return 2;
	}
	c.opno = 0;
	while ((nread = getline(&line, &cap, f)) >= 0) {
		struct lbs_fsxops_line fl;
		struct op_rec r = { 0 };
		char why[128];
		size_t k;
		bool found = false, ok;
		int pr;

		lineno++;
		if (memchr(line, 0, (size_t)nread)) {
			fprintf(stderr, "%s:%lu: NUL byte in line\n", path, lineno);
			rc = 2;
			break;
		}
		if (nread > 512) {
			fprintf(stderr, "%s:%lu: line too long\n", path, lineno);
			rc = 2;
			break;
		}
		pr = lbs_fsxops_parse(line, &fl, why, sizeof(why));
		if (pr < 0) {
			fprintf(stderr, "%s:%lu: %s\n", path, lineno, why);
			rc = 2;
			break;
		}
		if (pr == 0)
			continue;
		if (fl.skip) {		/* fsx logged it as not done */
			res->skipped++;
			continue;
		}
		for (k = 0; k < sizeof(fsx_ops) / sizeof(fsx_ops[0]); k++)
			if (!strcmp(fl.op, fsx_ops[k].name)) {
				r.op = fsx_ops[k].op;
				found = true;
			}
		c.opno++;		/* fsx's testcalls */
		c.tc = c.opno - 1;	/* this line's writes: test call opno */
		if (!found) {		/* exchange_range */
			res->unmodelled++;
			continue;
		}
		r.off = fl.a[0];
		r.len = fl.a[1];
		/* fsx's fallocate with FALLOC_FL_UNSHARE_RANGE */
		if (r.op == OP_FALLOCATE && fl.unshare)
			r.op = OP_UNSHARE;
		if (fsx_remap_op(r.op))
			r.dst = fl.a[2];
		r.keep = fl.keep_size && (r.op == OP_FALLOCATE ||
					  r.op == OP_ZERO ||
					  r.op == OP_UNSHARE);
		if (r.op == OP_TRUNCATE) {
			r.off = fl.a[1];
			r.len = 0;
		}
		if (r.op == OP_PUNCH)
			r.keep = true;
		if (r.op == OP_TRUNCATE && r.off > c.max) {
			fprintf(stderr, "%s:%lu: size 0x%" PRIx64 " beyond the "
				"file limit 0x%" PRIx64 " (--file-size)\n", path,
				lineno, r.off, c.max);
			rc = 2;
			break;
		}
		if (!fsx_normalize(&c, &r, b->size(b->p))) {
			c.fsx_skipped++;
			continue;
		}
		if (r.op == OP_WRITE && ++writes == o->perturb_write &&
		    r.len > 1) {
			fprintf(stderr, "%s:%lu: test: write 0x%" PRIx64 " 0x%"
				PRIx64 " replayed one byte short\n", path,
				lineno, r.off, r.len);
			r.len--;
		}
		ok = fsx_exec_op(&c, &r);
		/* close_open: fsx closes, drops caches, reopens; check the
		 * file there, as after lbs-sim's drop_caches */
		if (ok && fl.close_open) {
			r.op = OP_DROP;
			ok = fsx_exec_op(&c, &r);
		}
		if (ok && o->check_every && !(c.opno % o->check_every))
			ok = fsx_check_whole(&c, &r, false);
		if (!ok) {
			res->mismatches = 1;
			rc = 1;
			break;
		}
		res->ops_run++;
	}
	if (!rc) {
		struct op_rec r = { .op = OP_DROP };

		if (o->before_final_check)
			o->before_final_check(o->hook_arg);
		if (!fsx_check_whole(&c, &r, true)) {
			res->mismatches = 1;
			rc = 1;
		}
	}
	if (!rc && final_out) {
		FILE *out = fopen(final_out, "wb");
		uint64_t sz = lbs_oracle_size(c.orc);

		if (!out || fwrite(lbs_oracle_bytes(c.orc), 1, sz, out) != sz) {
			fprintf(stderr, "%s: cannot write\n", final_out);
			rc = 2;
		}
		if (out)
			fclose(out);
	}
	free(line);
	fclose(f);
	res->seconds = fsx_now() - t0;
	fsx_ctx_fini(&c, res, rc);
	return rc;
}
