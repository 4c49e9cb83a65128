// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-sim: fsx campaigns, .fsxops replay and block/page pictures on the
 * simulator.
 *   lbs-sim fsx [common options] [--inject X]...
 *   lbs-sim replay [common options] [--final F] FILE.fsxops
 *   lbs-sim map ...: see map_cmd.c
 * The common options (fsx_cli.h) are lbs-fsx's too.  --unsupported:
 * treat the listed features as a fewer-feature filesystem lacks them
 * (their ops are skipped and counted, as lbs-fsx does on such a
 * filesystem; the op stream stays the same).  replay follows the
 * recording's "# lbs-sim" notes (fsxops.h), crashes included unless
 * --no-crash.
 * Exit: 0 clean, 1 mismatch, 2 usage or input error.
 */
#define _GNU_SOURCE
#include "fsx.h"
#include "fsx_cli.h"
#include "lbs_sim.h"
#include "map_cmd.h"

#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { T_FINAL = FSX_CLI_TOOL };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbs-sim fsx [options]\n"
		"       lbs-sim replay [options] [--final OUT] F.fsxops\n"
		"       lbs-sim map --help: a picture of the block/page state\n");
	fsx_cli_usage(f, true);
	fprintf(f, "inject: %s\n", lbs_sim_inject_names());
}

static int tool_opt(void *arg, int val, const char *optarg)
{
	if (val != T_FINAL)
		return -1;
	*(const char **)arg = optarg;
	return 0;
}

static int replay(struct fsx_cli *cli, const char *path, const char *final)
{
	struct lbs_fsx_result r;
	int rc = lbs_fsx_replay(&cli->o, path, final, &r);
	char what[4200];

	if (rc == 2)
		return 2;
	snprintf(what, sizeof(what), "replay %s", path);
	lbs_fsx_print_replay(stdout, what, &r, rc, cli->final_sum);
	return rc;
}

/* the large-folio counters: a campaign shows which regimes ran */
static void print_lf(const struct lbs_fsx_result *r)
{
	if (!r->large_folios)
		return;
	printf("large folios: made");
	for (unsigned k = 0; k < 12; k++)
		if (r->lf_made[k])
			printf(" order%u %" PRIu64, k, r->lf_made[k]);
	printf(", %" PRIu64 " fallbacks (%" PRIu64 " allocations failed), %"
	       PRIu64 " rechecks failed; mm events applied/refused:",
	       r->lf_fallbacks, r->lf_alloc_failed, r->lf_retries);
	for (unsigned k = 0; k < 4; k++)
		printf(" %s %" PRIu64 "/%" PRIu64, lbs_sim_mm_name(k),
		       r->mm_applied[k], r->mm_refused[k]);
	printf("\n");
}

static int campaign(struct fsx_cli *cli)
{
	struct lbs_fsx_opts *o = &cli->o;
	struct lbs_fsx_result r;
	int rc;

	if (fsx_cli_open_record(cli))
		return 2;
	o->progress = !o->quiet && isatty(2);
	rc = lbs_fsx_run(o, &r);
	if (o->record)
		fclose(o->record);
	if (rc == 2)
		return 2;
	printf("lbs-sim fsx bs=%u ps=%u seed=%" PRIu64 ": %" PRIu64
	       " ops in %.2fs (%.0f ops/s), %s; zero-around %" PRIu64
	       "/%" PRIu64 " bytes (zeroed/independent minimum), dio zero %"
	       PRIu64
	       " bios %" PRIu64 " segs, writeback %" PRIu64 " folios in %"
	       PRIu64 " passes (max %" PRIu64 "), %" PRIu64 " crashes, %"
	       PRIu64 " EINVAL",
	       o->block_size, o->page_size, o->seed, r.ops_run, r.seconds,
	       r.seconds > 0 ? r.ops_run / r.seconds : 0.0,
	       rc ? "1 MISMATCH" : "0 mismatches", r.za_zeroed, r.za_need,
	       r.dio_zero_bios, r.dio_zero_segs, r.wb_folios, r.wb_calls,
	       r.wb_max_folios, r.crashes, r.einval);
	lbs_fsx_print_tail(stdout, &r, cli->final_sum);
	print_lf(&r);
	return rc;
}

/*
 * The page cache model allocates and frees a folio per page all the
 * time; glibc would hand the top of the heap back at each free and fault
 * it in again at the next allocation (30% of a campaign's time).
 */
static void keep_heap(void)
{
#ifdef __GLIBC__
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
#endif
}

int main(int argc, char **argv)
{
	static const struct option tool[] = {
		{ "final", 1, NULL, T_FINAL }, { NULL, 0, NULL, 0 }
	};
	const char *final = NULL;
	struct fsx_cli cli = {
		.o = { .block_size = 4096, .page_size = 4096, .ops = 10000,
		       .seed = 1 },
		.prog = "lbs-sim", .inject_parse = lbs_sim_inject_parse,
		.inject_names = lbs_sim_inject_names(),
		.tool_opts = tool, .tool_opt = tool_opt, .tool_arg = &final,
		.usage = usage,
	};
	struct lbs_sim_config cfg;
	struct lbs_sim_lf_config lf;
	char err[256];
	const char *mode;
	int rc;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	mode = argv[1];
	keep_heap();
	if (!strcmp(mode, "map"))
		return lbs_sim_map_cmd(argc - 1, argv + 1);
	if (strcmp(mode, "fsx") && strcmp(mode, "replay")) {
		fprintf(stderr, "lbs-sim: unknown command \"%s\"\n", mode);
		usage(stderr);
		return 2;
	}
	rc = fsx_cli_parse(&cli, argc - 1, argv + 1);
	if (rc >= 0)
		return rc;
	argc--, argv++;
	lbs_fsx_sim_config(&cli.o, &cfg, &lf);
	cfg.max_file_size = cli.o.file_size;
	if (lbs_sim_lf_config_check(&cfg, &lf, err, sizeof(err))) {
		fprintf(stderr, "lbs-sim: %s\n", err);
		return 2;
	}
	if (!strcmp(mode, "replay")) {
		if (optind != argc - 1) {
			fprintf(stderr, "lbs-sim: replay needs one .fsxops file\n");
			return 2;
		}
		return replay(&cli, argv[optind], final);
	}
	if (optind != argc) {
		fprintf(stderr, "lbs-sim: unexpected argument \"%s\"\n",
			argv[optind]);
		return 2;
	}
	return campaign(&cli);
}
