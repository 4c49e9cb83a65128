// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-fsx: lbs-sim's fsx campaign (the same op generator and oracle) on a
 * real file, through syscalls.
 *   lbs-fsx [--ops N] [--seed S] [--block-size B] [--page-size P]
 *           [--file-size L] [--op-size O] [--no-crash] [--record-ops F]
 *           [--unsupported LIST] [--final-sum] [--drop-caches-global]
 *           [--quiet] PATH
 *   lbs-fsx --replay F.fsxops [--file-size L] [--final-sum]
 *           [--test-perturb-write N] PATH
 * The same seed and options give lbs-sim fsx's op stream (B and P default
 * to the file's filesystem block size and the system page size; the
 * generator's st_blksize is the file's).  A crash is not possible on a
 * real file: crash ops are skipped and counted.  Features the filesystem
 * lacks (EOPNOTSUPP) are skipped and counted, as lbs-sim --unsupported.
 * Exit: 0 clean, 1 mismatch, 2 usage or input error.
 */
#define _GNU_SOURCE
#include "fsx.h"
#include "fsx_real.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbs-fsx [--ops N] [--seed S] [--block-size B] [--page-size P]\n"
		"               [--file-size L] [--op-size O] [--no-crash]\n"
		"               [--record-ops F] [--unsupported LIST] [--final-sum]\n"
		"               [--drop-caches-global] [--quiet] PATH\n"
		"       lbs-fsx --replay F.fsxops [--file-size L] [--final-sum]\n"
		"               [--test-perturb-write N] PATH\n"
		"--test-perturb-write N: replay the Nth write one byte short (a\n"
		"negative control for final-sum cross-checks)\n"
		"unsupported: %s\n", lbs_fsx_feature_names());
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
	fprintf(stderr, "lbs-fsx: --%s: bad number \"%s\"\n", opt, s);
	return -1;
}

static bool pow2_in(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v >= lo && v <= hi && !(v & (v - 1));
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "block-size", 1, NULL, 'b' }, { "page-size", 1, NULL, 'p' },
		{ "ops", 1, NULL, 'N' }, { "seed", 1, NULL, 'S' },
		{ "file-size", 1, NULL, 'l' }, { "op-size", 1, NULL, 'o' },
		{ "record-ops", 1, NULL, 'r' }, { "no-crash", 0, NULL, 'C' },
		{ "quiet", 0, NULL, 'q' }, { "replay", 1, NULL, 'R' },
		{ "unsupported", 1, NULL, 'U' }, { "final-sum", 0, NULL, 's' },
		{ "drop-caches-global", 0, NULL, 'G' },
		{ "test-perturb-write", 1, NULL, 'P' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	struct lbs_fsx_opts o = { .ops = 10000, .seed = 1 };
	struct fsx_real_opts ro = { 0 };
	struct fsx_real_info info;
	struct fsx_backend b;
	struct lbs_fsx_result r;
	const char *record = NULL, *replay = NULL, *path;
	uint64_t v, bs = 0, ps = 0;
	bool final_sum = false;
	int c, idx, rc;

	while ((c = getopt_long(argc, argv, "", lo, &idx)) != -1) {
		switch (c) {
		case 'b': case 'p': case 'N': case 'S': case 'l': case 'o':
		case 'P':
			if (num(lo[idx].name, optarg, &v))
				return 2;
			if (c == 'b') bs = v;
			if (c == 'p') ps = v;
			if (c == 'N') o.ops = v;
			if (c == 'S') o.seed = v;
			if (c == 'l') o.file_size = v;
			if (c == 'o') o.op_size = v;
			if (c == 'P') o.perturb_write = v;
			break;
		case 'U':
			if (lbs_fsx_features_parse(optarg, &o.unsupported)) {
				fprintf(stderr, "lbs-fsx: bad --unsupported\n");
				return 2;
			}
			break;
		case 'r': record = optarg; break;
		case 'R': replay = optarg; break;
		case 'C': o.no_crash = true; break;
		case 'q': o.quiet = true; break;
		case 's': final_sum = true; break;
		case 'G': ro.global_drop = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "lbs-fsx: %s\n", optind >= argc ?
			"need the PATH of the file to test" :
			"exactly one PATH");
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	if (bs && !pow2_in(bs, 512, 65536)) {
		fprintf(stderr, "lbs-fsx: --block-size %" PRIu64 ": a power of "
			"two from 512 to 65536\n", bs);
		return 2;
	}
	if (ps && ps != 4096 && ps != 16384 && ps != 65536) {
		fprintf(stderr, "lbs-fsx: --page-size %" PRIu64 ": 4096, 16384 "
			"or 65536\n", ps);
		return 2;
	}
	if (o.file_size > ((uint64_t)1 << 30)) {
		fprintf(stderr, "lbs-fsx: --file-size at most 1 GiB\n");
		return 2;
	}
	if (replay && access(replay, R_OK)) {
		fprintf(stderr, "lbs-fsx: %s: %s\n", replay, strerror(errno));
		return 2;
	}
	/* the buffers are sized from block size, which needs the file's fs */
	o.block_size = bs ? (uint32_t)bs : 65536;
	if (fsx_real_open(&b, path, &ro, lbs_fsx_max_size(&o), &info))
		return 2;
	o.block_size = bs ? (uint32_t)bs : info.fs_bsize;
	o.page_size = ps ? (uint32_t)ps : info.page_size;
	if (o.block_size != info.fs_bsize)
		fprintf(stderr, "lbs-fsx: note: --block-size %u, but the "
			"filesystem's block size is %u (collapse/insert follow "
			"the filesystem)\n", o.block_size, info.fs_bsize);
	b.page_size = o.page_size;
	if (info.dio_errno)
		fprintf(stderr, "lbs-fsx: %s: O_DIRECT: %s: O_DIRECT ops "
			"unsupported, skipped\n", path, strerror(info.dio_errno));
	o.progress = !o.quiet && isatty(2);
	if (replay) {
		rc = lbs_fsx_replay_on(&o, &b, replay, NULL, &r);
		if (rc != 2) {
			printf("lbs-fsx replay %s on %s: %" PRIu64 " ops, %"
			       PRIu64 " skip lines, %" PRIu64 " skipped by "
			       "fsx's rules, %" PRIu64 " not modelled (skipped)"
			       ", %s, size %" PRIu64, replay, path, r.ops_run,
			       r.skipped, r.fsx_skipped, r.unmodelled,
			       rc ? "MISMATCH" : "clean", r.final_size);
			lbs_fsx_print_unsupported(stdout, &r);
			printf("\n");
			if (final_sum)
				lbs_fsx_print_final_sum(stdout, &r);
		}
		fsx_real_close(&b);
		return rc;
	}
	if (record) {
		o.record = fopen(record, "w");
		if (!o.record) {
			fprintf(stderr, "lbs-fsx: %s: %s\n", record,
				strerror(errno));
			fsx_real_close(&b);
			return 2;
		}
	}
	rc = lbs_fsx_run_on(&o, &b, &r);
	if (o.record)
		fclose(o.record);
	fsx_real_close(&b);
	if (rc == 2)
		return 2;
	printf("lbs-fsx %s bs=%u ps=%u seed=%" PRIu64 ": %" PRIu64
	       " ops in %.2fs (%.0f ops/s), %s; st_blksize %u, O_DIRECT "
	       "align %u%s, %" PRIu64 " EINVAL, %" PRIu64 " crash skipped (not "
	       "possible on a real file), %" PRIu64 " unaligned O_DIRECT "
	       "accepted by the fs",
	       path, o.block_size, o.page_size, o.seed, r.ops_run, r.seconds,
	       r.seconds > 0 ? r.ops_run / r.seconds : 0.0,
	       rc ? "1 MISMATCH" : "0 mismatches", info.st_blksize,
	       info.dio_align, info.dio_strict ? "" : " (not enforced)",
	       r.einval, r.crash_skipped, r.dio_unaligned_ok);
	lbs_fsx_print_unsupported(stdout, &r);
	printf("\n");
	if (final_sum)
		lbs_fsx_print_final_sum(stdout, &r);
	return rc;
}
