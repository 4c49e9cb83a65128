// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-fuse: the simulator as a mountable filesystem.  Every regular file
 * is one lbs_sim instance; core/ makes every block-size decision.
 *
 *   lbs-fuse --block-size B [--page-size P] [--size S] [--files N]
 *            [--inject NAME[,NAME]] [--large-folios [--write-pages]
 *            [--alloc-fail P] [--mm-events P]] [-f] [-d] [-s] [-o OPTS]
 *            MOUNTPOINT
 *
 * Unmount with fusermount3 -u MOUNTPOINT, or SIGINT/SIGTERM to the
 * daemon (libfuse's handlers end the loop, then we unmount).
 * Exit: 0 after a clean unmount, 1 if mounting or the loop failed, 2 for
 * bad options.
 */
#define _GNU_SOURCE
#include "lbsfs.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_SIZE (16ull << 20)
#define DEFAULT_FILES 64
#define MT_THREADS 8

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbs-fuse --block-size B [--page-size P] [--size S] [--files N]\n"
		"                [--inject NAME[,NAME...]] [--large-folios [--write-pages]\n"
		"                [--alloc-fail P] [--mm-events P]] [-f] [-d] [-s] [-o OPTS] MOUNTPOINT\n"
		"  --block-size B  simulated XFS block size, 512..65536, a power of two\n"
		"  --page-size P   simulated page size: 4096 (default), 16384, 65536\n"
		"  --size S        largest file, also its simulated device (k/m/g; default 16m,\n"
		"                  at most 4g); larger files get EFBIG\n"
		"  --files N       most regular files at once (default %d; each costs about\n"
		"                  2 x S of memory); more get ENOSPC\n"
		"  --inject NAME   fault knob: %s\n"
		"  --large-folios  bs > ps: folios of order 0 or of whole blocks (readahead and\n"
		"                  writes; --write-pages: writes make pages); P%% of large\n"
		"                  allocations fail (--alloc-fail), P%% chance of an mm event\n"
		"                  (split, eviction, migration) at each point (--mm-events)\n"
		"  -f              stay in the foreground; -d also prints FUSE requests\n"
		"  -s              single-threaded session loop\n"
		"  -o OPTS         FUSE mount options (see fuse(8))\n"
		"Control: MOUNTPOINT/.lbs/ctl, .lbs/stats, .lbs/map/<file>.\n",
		DEFAULT_FILES, lbs_sim_inject_names());
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "lbs-fuse: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage(stderr);
	return 2;
}

static int parse_size(const char *s, uint64_t *v)
{
	char *end;
	uint64_t m = 1;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': m = 1ull << 10, end++; break;
	case 'm': case 'M': m = 1ull << 20, end++; break;
	case 'g': case 'G': m = 1ull << 30, end++; break;
	default: break;
	}
	if (*end || *v > UINT64_MAX / m)
		return -1;
	*v *= m;
	return 0;
}

static int parse_inject(const char *list, unsigned *mask)
{
	char *copy = strdup(list), *save = NULL, *t;
	int rc = 0;

	if (!copy)
		return -1;
	for (t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		unsigned bit = lbs_sim_inject_parse(t);

		if (!bit) {
			rc = -1;
			break;
		}
		*mask |= bit;
	}
	free(copy);
	return rc;
}

struct opts {
	struct lbs_sim_config cfg;
	struct lbs_sim_lf_config lf;
	uint64_t files;
	bool foreground, debug, single;
	char *fuse_opts;	/* -o, joined with ',' */
	const char *mnt;
};

static int append_opts(struct opts *o, const char *s)
{
	size_t had = o->fuse_opts ? strlen(o->fuse_opts) : 0;
	char *p = realloc(o->fuse_opts, had + strlen(s) + 2);

	if (!p)
		return -1;
	if (had)
		p[had++] = ',';
	strcpy(p + had, s);
	o->fuse_opts = p;
	return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "block-size", 1, NULL, 'b' }, { "page-size", 1, NULL, 'p' },
		{ "size", 1, NULL, 'S' }, { "files", 1, NULL, 'F' },
		{ "inject", 1, NULL, 'i' }, { "help", 0, NULL, 'h' },
		{ "large-folios", 0, NULL, 'L' },
		{ "write-pages", 0, NULL, 'W' },
		{ "alloc-fail", 1, NULL, 'A' }, { "mm-events", 1, NULL, 'M' },
		{ NULL, 0, NULL, 0 }
	};
	char err[256];
	uint64_t v;
	int c;

	o->cfg.page_size = 4096;
	o->cfg.max_file_size = DEFAULT_SIZE;
	o->files = DEFAULT_FILES;
	while ((c = getopt_long(argc, argv, "+fdso:h", lo, NULL)) != -1) {
		switch (c) {
		case 'L': o->lf.large_folios = true; break;
		case 'W': o->lf.write_pages = true; break;
		case 'A': case 'M':
			if (parse_size(optarg, &v) || v > 100)
				return bad("--alloc-fail and --mm-events take a "
					   "percentage, not \"%s\"", optarg);
			if (c == 'A')
				o->lf.alloc_fail_pct = (uint32_t)v;
			else
				o->lf.mm_event_pct = (uint32_t)v;
			break;
		case 'b': case 'p': case 'S': case 'F':
			if (parse_size(optarg, &v) ||
			    (c != 'S' && c != 'F' && v > UINT32_MAX))
				return bad("bad number \"%s\"", optarg);
			if (c == 'b')
				o->cfg.block_size = (uint32_t)v;
			else if (c == 'p')
				o->cfg.page_size = (uint32_t)v;
			else if (c == 'S')
				o->cfg.max_file_size = v;
			else if (!v)
				return bad("--files %s: at least 1", optarg);
			else
				o->files = v;
			break;
		case 'i':
			if (parse_inject(optarg, &o->cfg.inject))
				return bad("--inject \"%s\": unknown fault knob",
					   optarg);
			break;
		case 'f': o->foreground = true; break;
		case 'd': o->debug = o->foreground = true; break;
		case 's': o->single = true; break;
		case 'o':
			if (append_opts(o, optarg))
				return bad("%s", strerror(ENOMEM));
			break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return 2;
		}
	}
	if (!o->cfg.block_size)
		return bad("%s", "--block-size is required");
	if (optind != argc - 1)
		return bad("%s", optind >= argc ? "need a MOUNTPOINT" :
			   "exactly one MOUNTPOINT");
	o->mnt = argv[optind];
	if (lbs_sim_lf_config_check(&o->cfg, &o->lf, err, sizeof(err)))
		return bad("%s", err);
	return 0;
}

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* O_TRUNC in open, so "echo crash > .lbs/ctl" needs no setattr */
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
}

/* the loop returns 0, -errno, or the signal that ended it: a signal is
 * the asked-for way out, then we unmount as fusermount3 -u would */
static int loop_status(int r)
{
	return r == 0 || r == SIGINT || r == SIGTERM || r == SIGHUP ? 0 : 1;
}

static int run(struct opts *o, struct lbsfs *fs)
{
	char *argv[4] = { "lbs-fuse", "-o", NULL, NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, argv);
	struct fuse_lowlevel_ops ops = { .init = op_init };
	struct fuse_loop_config *lc = NULL;
	char *mopts = NULL;
	int rc = 1;

	lbsfs_ns_ops(&ops);
	lbsfs_io_ops(&ops);
	lbsfs_copy_ops(&ops);
	/* the kernel checks permissions from our modes */
	if (asprintf(&mopts, "default_permissions,fsname=lbs-fuse,subtype=lbs%s%s",
		     o->fuse_opts ? "," : "", o->fuse_opts ? o->fuse_opts : "") < 0)
		return 1;
	argv[2] = mopts;
	if (o->debug) {
		argv[3] = "-d";
		args.argc = 4;
	}
	fs->se = fuse_session_new(&args, &ops, sizeof(ops), fs);
	if (!fs->se) {
		free(mopts);
		return 2;	/* libfuse said which option */
	}
	if (fuse_set_signal_handlers(fs->se))
		goto out_session;
	if (fuse_session_mount(fs->se, o->mnt))
		goto out_signals;
	if (fuse_daemonize(o->foreground))
		goto out_unmount;
	if (o->single) {
		rc = loop_status(fuse_session_loop(fs->se));
	} else {
		lc = fuse_loop_cfg_create();
		/* keep idle workers: making a thread per request costs more
		 * than most simulator operations */
		if (lc)
			fuse_loop_cfg_set_idle_threads(lc, MT_THREADS);
		if (lc)
			fuse_loop_cfg_set_max_threads(lc, MT_THREADS);
		if (lc)
			rc = loop_status(fuse_session_loop_mt(fs->se, lc));
		fuse_loop_cfg_destroy(lc);
	}
out_unmount:
	fuse_session_unmount(fs->se);
out_signals:
	fuse_remove_signal_handlers(fs->se);
out_session:
	fuse_session_destroy(fs->se);
	fuse_opt_free_args(&args);
	free(mopts);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct lbsfs fs = { 0 };
	struct lbs_sim_config ref;
	struct stat st;
	char err[256];
	unsigned long unreleased;
	int rc = parse(argc, argv, &o);

	if (rc)
		return rc;
	rc = stat(o.mnt, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (rc) {
		fprintf(stderr, "lbs-fuse: mountpoint %s: %s\n", o.mnt,
			rc == ENOTDIR ? "not a directory" : strerror(rc));
		free(o.fuse_opts);
		return 2;
	}
	fs.cfg = o.cfg;
	fs.lf = o.lf;
	fs.max_files = o.files;
	/* the filesystem's own st_blksize/f_bsize: a smallest instance */
	ref = o.cfg;
	ref.max_file_size = ref.block_size > ref.page_size ? ref.block_size :
			    ref.page_size;
	fs.ref = lbs_sim_create(&ref, err, sizeof(err));
	if (!fs.ref) {
		fprintf(stderr, "lbs-fuse: %s\n", err);
		free(o.fuse_opts);
		return 1;
	}
	pthread_mutex_init(&fs.ns_lock, NULL);
	handle_init(&fs);
	tree_init(&fs);
	ctl_init(&fs);
	rc = run(&o, &fs);
	unreleased = handle_release_all(&fs);
	if (unreleased)
		fprintf(stderr, "lbs-fuse: freed %lu handles the kernel never released\n",
			unreleased);
	tree_destroy(&fs);
	lbs_sim_destroy(fs.ref);
	pthread_mutex_destroy(&fs.ns_lock);
	free(o.fuse_opts);
	return rc;
}
