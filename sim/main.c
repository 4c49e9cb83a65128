// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-sim: fsx campaigns and .fsxops replay on the simulator.
 *   lbs-sim fsx --block-size B --page-size P --ops N --seed S
 *               [--file-size L] [--op-size O] [--inject X]... [--no-crash]
 *               [--record-ops F] [--quiet] [--unsupported LIST]
 *               [--final-sum]
 *   lbs-sim replay [--block-size B] [--page-size P] [--file-size L]
 *                  [--final F] [--final-sum] FILE.fsxops
 *   lbs-sim map ...: see map_cmd.c (lbs-sim-map)
 * --unsupported: treat the listed features as a fewer-feature filesystem
 * lacks them (their ops are skipped and counted, as lbs-fsx does on such
 * a filesystem; the op stream stays the same).
 * Exit: 0 clean, 1 mismatch, 2 usage or input error.
 */
#define _GNU_SOURCE
#include "fsx.h"
#include "lbs_sim.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbs-sim fsx --block-size B --page-size P --ops N --seed S\n"
		"                   [--file-size L] [--op-size O] [--inject X]...\n"
		"                   [--no-crash] [--record-ops F] [--quiet]\n"
		"                   [--unsupported LIST] [--final-sum]\n"
		"                   [--max-folio-order K]  (bs <= ps only)\n"
		"       lbs-sim replay [--block-size B] [--page-size P]\n"
		"                   [--file-size L] [--final OUT] [--final-sum]\n"
		"                   F.fsxops\n"
		"       lbs-sim map --help: a picture of the block/page state\n"
		"inject: %s\nunsupported: %s\n", lbs_sim_inject_names(),
		lbs_fsx_feature_names());
}

static int num(const char *opt, const char *s, uint64_t *v)
{
	char *end;
	uint64_t m = 1;

	errno = 0;
	if (!*s || *s == '-')
		goto bad;
	*v = strtoull(s, &end, 0);
	if (errno)
		goto bad;
	if (*end == 'k' || *end == 'K')
		m = 1024, end++;
	else if (*end == 'm' || *end == 'M')
		m = 1024 * 1024, end++;
	if (*end)
		goto bad;
	*v *= m;
	return 0;
bad:
	fprintf(stderr, "lbs-sim: %s: bad number \"%s\"\n", opt, s);
	return -1;
}

/*
 * "lbs-sim map ...": the picture lives in lbs-sim-map (map_cmd.c, map.c),
 * built next to lbs-sim; run it with the same arguments.
 */
static int exec_map(char **argv)
{
	char self[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 16);

	if (n <= 0) {
		perror("lbs-sim: /proc/self/exe");
		return 2;
	}
	self[n] = 0;
	slash = strrchr(self, '/');
	strcpy(slash ? slash + 1 : self, "lbs-sim-map");
	argv[0] = self;
	execv(self, argv);
	fprintf(stderr, "lbs-sim: %s: %s\n", self, strerror(errno));
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "block-size", 1, NULL, 'b' }, { "page-size", 1, NULL, 'p' },
		{ "ops", 1, NULL, 'N' }, { "seed", 1, NULL, 'S' },
		{ "file-size", 1, NULL, 'l' }, { "op-size", 1, NULL, 'o' },
		{ "inject", 1, NULL, 'i' }, { "record-ops", 1, NULL, 'r' },
		{ "no-crash", 0, NULL, 'C' }, { "quiet", 0, NULL, 'q' },
		{ "final", 1, NULL, 'F' }, { "help", 0, NULL, 'h' },
		{ "unsupported", 1, NULL, 'U' }, { "final-sum", 0, NULL, 's' },
		{ "max-folio-order", 1, NULL, 'M' },
		{ NULL, 0, NULL, 0 }
	};
	struct lbs_fsx_opts o = { .block_size = 4096, .page_size = 4096,
				  .ops = 10000, .seed = 1 };
	struct lbs_fsx_result r;
	struct lbs_sim_config cfg;
	const char *mode, *record = NULL, *final = NULL;
	char err[256];
	uint64_t v;
	int c, rc;
	bool final_sum = false;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	mode = argv[1];
	if (!strcmp(mode, "map"))
		return exec_map(argv);
	if (strcmp(mode, "fsx") && strcmp(mode, "replay")) {
		fprintf(stderr, "lbs-sim: unknown command \"%s\"\n", mode);
		usage(stderr);
		return 2;
	}
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'b': case 'p': case 'N': case 'S': case 'l': case 'o':
		case 'M':
			if (num(lo[0].name, optarg, &v))
				return 2;
			if (c == 'b' || c == 'p') {
				if (v > UINT32_MAX) {
					fprintf(stderr, "lbs-sim: size %s out of range\n",
						optarg);
					return 2;
				}
				if (c == 'b')
					o.block_size = (uint32_t)v;
				else
					o.page_size = (uint32_t)v;
			}
			if (c == 'N') o.ops = v;
			if (c == 'S') o.seed = v;
			if (c == 'l') o.file_size = v;
			if (c == 'o') o.op_size = v;
			if (c == 'M')	/* range checked by the config check */
				o.folio_order = v > 64 ? 64 : (uint32_t)v;
			break;
		case 'i': {
			unsigned bit = lbs_sim_inject_parse(optarg);

			if (!bit) {
				fprintf(stderr, "lbs-sim: unknown --inject \"%s\" (known: %s)\n",
					optarg, lbs_sim_inject_names());
				return 2;
			}
			o.inject |= bit;
			break;
		}
		case 'r': record = optarg; break;
		case 'F': final = optarg; break;
		case 'C': o.no_crash = true; break;
		case 'U':
			if (lbs_fsx_features_parse(optarg, &o.unsupported)) {
				fprintf(stderr, "lbs-sim: bad --unsupported\n");
				return 2;
			}
			break;
		case 's': final_sum = true; break;
		case 'q': o.quiet = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	cfg = (struct lbs_sim_config){ o.block_size, o.page_size,
				       o.file_size, o.inject, o.folio_order };
	if (lbs_sim_config_check(&cfg, err, sizeof(err))) {
		fprintf(stderr, "lbs-sim: %s\n", err);
		return 2;
	}
	if (o.file_size && o.file_size > ((uint64_t)1 << 30)) {
		fprintf(stderr, "lbs-sim: --file-size at most 1 GiB\n");
		return 2;
	}
	if (!strcmp(mode, "replay")) {
		if (optind != argc - 1) {
			fprintf(stderr, "lbs-sim: replay needs one .fsxops file\n");
			return 2;
		}
		rc = lbs_fsx_replay(&o, argv[optind], final, &r);
		if (rc != 2) {
			printf("replay %s: %" PRIu64 " ops, %" PRIu64
			       " skip lines, %" PRIu64 " skipped by fsx's rules, %"
			       PRIu64 " not modelled (skipped), %s, size %" PRIu64,
			       argv[optind], r.ops_run, r.skipped,
			       r.fsx_skipped, r.unmodelled,
			       rc ? "MISMATCH" : "clean", r.final_size);
			lbs_fsx_print_unsupported(stdout, &r);
			printf("\n");
			if (final_sum)
				lbs_fsx_print_final_sum(stdout, &r);
		}
		return rc;
	}
	if (optind != argc) {
		fprintf(stderr, "lbs-sim: unexpected argument \"%s\"\n",
			argv[optind]);
		return 2;
	}
	if (record) {
		o.record = fopen(record, "w");
		if (!o.record) {
			fprintf(stderr, "lbs-sim: %s: %s\n", record,
				strerror(errno));
			return 2;
		}
	}
	o.progress = !o.quiet && isatty(2);
	rc = lbs_fsx_run(&o, &r);
	if (o.record)
		fclose(o.record);
	if (rc == 2)
		return 2;
	printf("lbs-sim fsx bs=%u ps=%u seed=%" PRIu64 ": %" PRIu64
	       " ops in %.2fs (%.0f ops/s), %s; zero-around %" PRIu64
	       "/%" PRIu64 " bytes (zeroed/min), dio zero %" PRIu64
	       " bios %" PRIu64 " segs, writeback %" PRIu64 " folios in %"
	       PRIu64 " passes (max %" PRIu64 "), %" PRIu64 " crashes, %"
	       PRIu64 " EINVAL",
	       o.block_size, o.page_size, o.seed, r.ops_run, r.seconds,
	       r.seconds > 0 ? r.ops_run / r.seconds : 0.0,
	       rc ? "1 MISMATCH" : "0 mismatches", r.za_zeroed, r.za_min,
	       r.dio_zero_bios, r.dio_zero_segs, r.wb_folios, r.wb_calls,
	       r.wb_max_folios, r.crashes, r.einval);
	lbs_fsx_print_unsupported(stdout, &r);
	printf("\n");
	if (final_sum)
		lbs_fsx_print_final_sum(stdout, &r);
	return rc;
}
