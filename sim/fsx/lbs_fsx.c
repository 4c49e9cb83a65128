// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-fsx: lbs-sim's fsx campaign (the same op generator and oracle) on a
 * real file, through syscalls.
 *   lbs-fsx [common options] [--drop-caches-global] PATH
 *   lbs-fsx --replay F.fsxops [common options] PATH
 * The common options (fsx_cli.h) are lbs-sim's.  The same seed and
 * options give lbs-sim fsx's op stream (B and P default to the file's
 * filesystem block size and the system page size; the generator's
 * st_blksize is the file's).  A crash is not possible on a real file:
 * crash ops are skipped and counted, unless --crash-shutdown makes it an
 * XFS shutdown (log flushed or not, or the two by turns: mixed), unmount
 * and mount, as root, the file alone on that filesystem's open
 * descriptors.  --stale-pattern
 * names the device's fill before mkfs, so that a report says which
 * bad bytes are stale.  --journal DEV writes every change and op intent
 * to a raw device as it happens (journal.c), for a campaign the machine
 * loses power in; --check-journal JOURNAL FILE then checks the file log
 * recovery left (exit 0 good, 1 mismatch, 2 bad input).  --cut-after N
 * (with --journal) prints one line on stdout, flushed, once op N is done
 * and its records are on the journal device, and goes on: the host that
 * waits for the line cuts the power among later ops, at a point the op
 * count places, not the clock.  Features the filesystem lacks
 * (EOPNOTSUPP) are skipped and counted, as lbs-sim --unsupported.
 * Exit: 0 clean, 1 mismatch, 2 usage or input error.
 */
#define _GNU_SOURCE
#include "fsx.h"
#include "fsx_cli.h"
#include "backend_real.h"
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { T_REPLAY = FSX_CLI_TOOL, T_GLOBAL_DROP, T_CRASH, T_STALE, T_JOURNAL,
       T_CHECK_JOURNAL, T_CUT_AFTER, T_CORRUPT };

struct tool {
	const char *replay;
	const char *journal, *check_journal;
	const char *path;
	uint64_t cut_after;	/* --cut-after: the marker's op; 0: none */
	uint64_t corrupt_after;	/* --test-corrupt-after; 0: none */
	bool corrupted;
	struct lbs_journal *j;
	struct fsx_real_opts ro;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbs-fsx [options] [--drop-caches-global]\n"
		"               [--crash-shutdown logflush|nologflush|mixed]\n"
		"               [--stale-pattern STR] [--journal DEV [--cut-after N]]\n"
		"               PATH\n"
		"       lbs-fsx --replay F.fsxops [options] PATH\n"
		"       lbs-fsx --check-journal JOURNAL FILE\n"
		"  --cut-after N        after op N (N below --ops), its journal\n"
		"                       records on DEV, print \"lbs-fsx: cut after op\n"
		"                       N: R journal records on the device\" and go on\n"
		"  --test-corrupt-after K  test only: flip byte 0 of the file behind\n"
		"                       the oracle after op K (or the first later op\n"
		"                       that leaves the file non-empty)\n");
	fsx_cli_usage(f, false);
}

/* "\\n" in a pattern given on the command line is a newline */
static const char *unescape_nl(const char *s)
{
	static char buf[64];
	size_t n = 0;

	for (; *s && n + 1 < sizeof(buf); s++)
		buf[n++] = s[0] == '\\' && s[1] == 'n' ? (s++, '\n') : *s;
	buf[n] = 0;
	return buf;
}

static int tool_opt(void *arg, int val, const char *optarg)
{
	struct tool *t = arg;

	if (val == T_CUT_AFTER || val == T_CORRUPT) {
		const char *name = val == T_CUT_AFTER ? "cut-after" :
				   "test-corrupt-after";
		uint64_t v;

		if (fsx_cli_num("lbs-fsx", name, optarg, &v))
			return 2;
		if (!v) {
			fprintf(stderr, "lbs-fsx: --%s 0: ops count from 1\n",
				name);
			return 2;
		}
		*(val == T_CUT_AFTER ? &t->cut_after : &t->corrupt_after) = v;
	} else if (val == T_REPLAY)
		t->replay = optarg;
	else if (val == T_GLOBAL_DROP)
		t->ro.global_drop = true;
	else if (val == T_CRASH && !strcmp(optarg, "logflush"))
		t->ro.crash_mode = FSX_CRASH_LOGFLUSH;
	else if (val == T_CRASH && !strcmp(optarg, "nologflush"))
		t->ro.crash_mode = FSX_CRASH_NOLOGFLUSH;
	else if (val == T_CRASH && !strcmp(optarg, "mixed"))
		t->ro.crash_mode = FSX_CRASH_MIXED;
	else if (val == T_JOURNAL)
		t->journal = optarg;
	else if (val == T_CHECK_JOURNAL)
		t->check_journal = optarg;
	else if (val == T_STALE && *optarg)
		t->ro.stale_pattern = unescape_nl(optarg);
	else if (val == T_CRASH || val == T_STALE) {
		fprintf(stderr, "lbs-fsx: --%s %s: %s\n", val == T_CRASH ?
			"crash-shutdown" : "stale-pattern", optarg,
			val == T_CRASH ? "logflush, nologflush or mixed" :
			"an empty pattern");
		return 2;
	} else {
		return -1;
	}
	return 0;
}

/*
 * --test-corrupt-after: change one byte of the file behind the oracle, as
 * a kernel that loses data would; lbs-fsx's own checks must see it.  False
 * while the file is empty (try after the next op).
 */
static bool corrupt(const char *path, uint64_t opno)
{
	int fd = open(path, O_RDWR);
	struct stat st;
	uint8_t byte;

	if (fd < 0 || fstat(fd, &st))
		goto fail;
	if (!st.st_size) {
		close(fd);
		return false;
	}
	/* byte 0: few ops overwrite or truncate it away before a check */
	if (pread(fd, &byte, 1, 0) != 1)
		goto fail;
	byte = (uint8_t)~byte;
	if (pwrite(fd, &byte, 1, 0) != 1)
		goto fail;
	close(fd);
	fprintf(stderr, "lbs-fsx: test: byte 0 flipped to 0x%02x after op %"
		PRIu64 ", behind the oracle\n", byte, opno);
	return true;
fail:
	fprintf(stderr, "lbs-fsx: --test-corrupt-after: %s: %s\n", path,
		strerror(errno));
	exit(2);
}

/*
 * After each op that ran clean.  --cut-after: op N is done and, the
 * journal being O_DSYNC, its records are on the device; say so at once
 * (stdout may be a pipe: flush it), then go on, so that the host's cut
 * lands among later ops, never at a pause the marker made.
 */
static void after_op(void *arg, uint64_t opno)
{
	struct tool *t = arg;

	if (opno == t->cut_after) {
		printf("lbs-fsx: cut after op %" PRIu64 ": %" PRIu64
		       " journal records on the device\n", opno, t->j->n);
		fflush(stdout);
	}
	if (t->corrupt_after && opno >= t->corrupt_after && !t->corrupted)
		t->corrupted = corrupt(t->path, opno);
}

static bool pow2_in(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v >= lo && v <= hi && !(v & (v - 1));
}

static int replay(struct fsx_cli *cli, struct fsx_backend *b,
		  const char *ops, const char *path)
{
	struct lbs_fsx_result r;
	int rc = lbs_fsx_replay_on(&cli->o, b, ops, NULL, &r);
	char what[8300];

	if (rc == 2)
		return 2;
	snprintf(what, sizeof(what), "lbs-fsx replay %s on %s", ops, path);
	lbs_fsx_print_replay(stdout, what, &r, rc, cli->final_sum);
	return rc;
}

static int campaign(struct fsx_cli *cli, struct fsx_backend *b,
		    const struct fsx_real_info *info, const struct tool *t,
		    const char *path)
{
	struct lbs_fsx_opts *o = &cli->o;
	struct lbs_fsx_result r;
	int rc;

	if (fsx_cli_open_record(cli))
		return 2;
	rc = lbs_fsx_run_on(o, b, &r);
	if (o->record)
		fclose(o->record);
	if (rc == 2)
		return 2;
	printf("lbs-fsx %s bs=%u ps=%u seed=%" PRIu64 ": %" PRIu64
	       " ops in %.2fs (%.0f ops/s), %s; st_blksize %u, O_DIRECT "
	       "align %u%s, %" PRIu64 " EINVAL, ",
	       path, o->block_size, o->page_size, o->seed, r.ops_run,
	       r.seconds, r.seconds > 0 ? r.ops_run / r.seconds : 0.0,
	       rc ? "1 MISMATCH" : "0 mismatches", info->st_blksize,
	       info->dio_align, info->dio_strict ? "" : " (not enforced)",
	       r.einval);
	if (t->ro.crash_mode)
		printf("%" PRIu64 " crashes (XFS shutdown, log %s, remount)",
		       r.crashes, t->ro.crash_mode == FSX_CRASH_LOGFLUSH ?
		       "flushed" : t->ro.crash_mode == FSX_CRASH_MIXED ?
		       "not flushed and flushed by turns" : "not flushed");
	else
		printf("%" PRIu64 " crash skipped (not possible on a real "
		       "file)", r.crash_skipped);
	printf(", %" PRIu64 " unaligned O_DIRECT accepted by the fs",
	       r.dio_unaligned_ok);
	lbs_fsx_print_tail(stdout, &r, cli->final_sum);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option topts[] = {
		{ "replay", 1, NULL, T_REPLAY },
		{ "drop-caches-global", 0, NULL, T_GLOBAL_DROP },
		{ "crash-shutdown", 1, NULL, T_CRASH },
		{ "stale-pattern", 1, NULL, T_STALE },
		{ "journal", 1, NULL, T_JOURNAL },
		{ "check-journal", 1, NULL, T_CHECK_JOURNAL },
		{ "cut-after", 1, NULL, T_CUT_AFTER },
		{ "test-corrupt-after", 1, NULL, T_CORRUPT },
		{ NULL, 0, NULL, 0 }
	};
	struct tool t = { 0 };
	struct fsx_cli cli = {
		.o = { .ops = 10000, .seed = 1 }, .prog = "lbs-fsx",
		.tool_opts = topts, .tool_opt = tool_opt, .tool_arg = &t,
		.usage = usage,
	};
	struct lbs_fsx_opts *o = &cli.o;
	struct fsx_real_info info;
	struct fsx_backend b;
	struct lbs_journal j;
	const char *path;
	int rc = fsx_cli_parse(&cli, argc, argv);

	if (rc >= 0)
		return rc;
	if (optind != argc - 1) {
		fprintf(stderr, "lbs-fsx: %s\n", optind >= argc ?
			"need the PATH of the file to test" :
			"exactly one PATH");
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	if ((t.cut_after || t.corrupt_after) && (t.check_journal || t.replay)) {
		fprintf(stderr, "lbs-fsx: --%s: a campaign's option, not one "
			"for --%s\n", t.cut_after ? "cut-after" :
			"test-corrupt-after", t.replay ? "replay" :
			"check-journal");
		return 2;
	}
	if (t.check_journal)	/* no campaign: the file is the one to check */
		return lbs_journal_check(t.check_journal, path,
					 o->crash_allow, stdout);
	/* the marker says the journal holds op N: without one it says
	 * nothing; and the ops after it are what the cut lands among */
	if (t.cut_after && !t.journal) {
		fprintf(stderr, "lbs-fsx: --cut-after needs --journal DEV\n");
		return 2;
	}
	if (t.cut_after && t.cut_after >= o->ops) {
		fprintf(stderr, "lbs-fsx: --cut-after %" PRIu64 ": must be "
			"below --ops %" PRIu64 " (the campaign goes on after "
			"the cut)\n", t.cut_after, o->ops);
		return 2;
	}
	if (cli.have_bs && !pow2_in(o->block_size, 512, 65536)) {
		fprintf(stderr, "lbs-fsx: --block-size %u: a power of two "
			"from 512 to 65536\n", o->block_size);
		return 2;
	}
	if (cli.have_ps && o->page_size != 4096 && o->page_size != 16384 &&
	    o->page_size != 65536) {
		fprintf(stderr, "lbs-fsx: --page-size %u: 4096, 16384 or "
			"65536\n", o->page_size);
		return 2;
	}
	if (t.replay && access(t.replay, R_OK)) {
		fprintf(stderr, "lbs-fsx: %s: %s\n", t.replay, strerror(errno));
		return 2;
	}
	/* the buffers are sized from block size, which needs the file's fs */
	if (!cli.have_bs)
		o->block_size = 65536;
	if (fsx_real_open(&b, path, &t.ro, lbs_fsx_max_size(o), &info))
		return 2;
	if (!cli.have_bs)
		o->block_size = info.fs_bsize;
	if (!cli.have_ps)
		o->page_size = info.page_size;
	if (o->block_size != info.fs_bsize)
		fprintf(stderr, "lbs-fsx: note: --block-size %u, but the "
			"filesystem's block size is %u (collapse/insert follow "
			"the filesystem)\n", o->block_size, info.fs_bsize);
	b.page_size = o->page_size;
	if (info.dio_errno)
		fprintf(stderr, "lbs-fsx: %s: O_DIRECT: %s: O_DIRECT ops "
			"unsupported, skipped\n", path, strerror(info.dio_errno));
	o->progress = !o->quiet && isatty(2);
	if (t.journal && !t.replay) {
		if (lbs_journal_open(&j, t.journal, o->seed,
				     lbs_fsx_max_size(o), o->block_size)) {
			fsx_real_close(&b);
			return 2;
		}
		o->journal = lbs_journal_rec;
		o->journal_arg = &j;
		t.j = &j;
		/* the check's oracle cannot bound a lost extent shift */
		o->unsupported |= LBS_FSX_F(LBS_FSX_COLLAPSE) |
				  LBS_FSX_F(LBS_FSX_INSERT);
	}
	if (t.cut_after || t.corrupt_after) {
		t.path = path;
		o->after_op = after_op;
		o->after_op_arg = &t;
	}
	rc = t.replay ? replay(&cli, &b, t.replay, path) :
			campaign(&cli, &b, &info, &t, path);
	if (o->journal)
		lbs_journal_close(&j);
	fsx_real_close(&b);
	return rc;
}
