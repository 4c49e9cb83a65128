// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-fuse-fsx: lbs-fsx's campaign (generator, oracle) on a file in an
 * lbs-fuse mount, using the mount's controls for what syscalls cannot
 * reach through FUSE:
 *   crash, drop_caches       .lbs/ctl "crash", "drop_caches"
 *   background writeback     .lbs/ctl "writeback PATH POS"
 *   range fsync              .lbs/ctl "fsync_range PATH START END" (FUSE
 *                            carries no range: sync_file_range stays in
 *                            the kernel)
 *   mmap store               the LBS_FUSE_IOC_MMAP_WRITE ioctl (FUSE
 *                            refuses MAP_SHARED on direct_io files)
 *   mmap read                a MAP_PRIVATE mapping (read through FUSE)
 * Everything else is lbs-fsx's real-file backend (backend_real.c).  The
 * generator sees the simulated block and page size, so a seed gives the
 * op stream lbs-sim fsx gives for the mount's geometry.
 *   lbs-fuse-fsx [--ops N] [--seed S] [--file-size L] [--op-size O]
 *                [--no-crash] [--unsupported LIST] [--quiet] PATH
 * Exit: 0 clean, 1 mismatch, 2 usage or not an lbs-fuse mount.
 */
#define _GNU_SOURCE
#include "fsx.h"
#include "backend_real.h"
#include "lbs_fuse_ioctl.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct ffsx {
	struct fsx_backend in;	/* backend_real.c's */
	int fd, ctl;
	char root[PATH_MAX], rel[PATH_MAX];
	uint64_t pg;
	uint32_t bs, ps;	/* simulated, from .lbs/stats */
	uint64_t max_size;
};

static int ctl_say(struct ffsx *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int ctl_say(struct ffsx *f, const char *fmt, ...)
{
	char line[PATH_MAX + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	if (pwrite(f->ctl, line, (size_t)n, 0) != n) {
		fprintf(stderr, "lbs-fuse-fsx: .lbs/ctl \"%s\": %s\n", line,
			strerror(errno));
		return -errno;
	}
	return 0;
}

static uint64_t f_size(void *p)
{
	struct ffsx *f = p;

	return f->in.size(f->in.p);
}

static int64_t f_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	struct ffsx *f = p;

	return f->in.read(f->in.p, pos, len, buf);
}

static int64_t f_dio_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	struct ffsx *f = p;

	return f->in.dio_read(f->in.p, pos, len, buf);
}

static int64_t f_write(void *p, uint64_t pos, uint64_t len, const void *buf,
		       size_t fault_at)
{
	struct ffsx *f = p;

	return f->in.write(f->in.p, pos, len, buf, fault_at);
}

static int64_t f_dio_write(void *p, uint64_t pos, uint64_t len,
			   const void *buf)
{
	struct ffsx *f = p;

	return f->in.dio_write(f->in.p, pos, len, buf);
}

static int f_truncate(void *p, uint64_t size)
{
	struct ffsx *f = p;

	return f->in.truncate(f->in.p, size);
}

static int f_fallocate(void *p, int mode, uint64_t pos, uint64_t len)
{
	struct ffsx *f = p;

	return f->in.fallocate(f->in.p, mode, pos, len);
}

/* FICLONERANGE, FIDEDUPERANGE, copy_file_range(): as the kernel's FUSE
 * does them (no remap: EOPNOTSUPP, found at open and skipped) */
static int f_clone(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	struct ffsx *f = p;

	return f->in.clone_range(f->in.p, src, dst, len);
}

static int f_dedupe(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	struct ffsx *f = p;

	return f->in.dedupe_range(f->in.p, src, dst, len);
}

static int64_t f_copy(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	struct ffsx *f = p;

	return f->in.copy_range(f->in.p, src, dst, len);
}

static void f_fsync(void *p, uint64_t opno)
{
	struct ffsx *f = p;

	f->in.fsync(f->in.p, opno);
}

static void f_describe(void *p, uint64_t off, char *buf, size_t n)
{
	struct ffsx *f = p;

	f->in.describe(f->in.p, off, buf, n);
}

static bool f_stale(void *p, uint64_t off, uint8_t v)
{
	struct ffsx *f = p;

	return f->in.is_stale_byte(f->in.p, off, v);
}

static int64_t f_map_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	struct ffsx *f = p;
	uint64_t size = f_size(p), start, delta;
	void *m;

	if (pos >= size || !len)
		return 0;
	if (len > size - pos)
		len = size - pos;
	start = pos - pos % f->pg;
	delta = pos - start;
	/* private: FUSE direct_io allows it, and it faults in through FUSE
	 * reads (the kernel drops its cached pages at each mmap) */
	m = mmap(NULL, len + delta, PROT_READ, MAP_PRIVATE, f->fd,
		 (off_t)start);
	if (m == MAP_FAILED)
		return -errno;
	memcpy(buf, (uint8_t *)m + delta, len);
	munmap(m, len + delta);
	return (int64_t)len;
}

static int64_t f_mmap_write(void *p, uint64_t pos, uint64_t len,
			    const void *buf)
{
	struct ffsx *f = p;
	struct lbs_fuse_mmap_write *w = malloc(sizeof(*w));
	uint64_t done = 0;

	if (!w)
		abort();
	if (pos + len > f_size(p)) {
		free(w);
		return -EINVAL;		/* the campaign extends first */
	}
	while (done < len) {
		uint64_t at = pos + done, n = f->pg - at % f->pg;

		/* whole faults: pieces end at page boundaries */
		if (n > len - done)
			n = len - done;
		if (n > LBS_FUSE_MMAP_CHUNK)
			n = LBS_FUSE_MMAP_CHUNK;
		*w = (struct lbs_fuse_mmap_write){ .pos = at,
						   .len = (uint32_t)n };
		memcpy(w->data, (const uint8_t *)buf + done, n);
		if (ioctl(f->fd, LBS_FUSE_IOC_MMAP_WRITE, w) < 0) {
			int e = errno;

			free(w);
			return -e;
		}
		done += n;
	}
	free(w);
	return (int64_t)len;
}

static void f_fsync_range(void *p, uint64_t start, uint64_t end)
{
	struct ffsx *f = p;

	ctl_say(f, "fsync_range %s %" PRIu64 " %" PRIu64 "\n", f->rel, start,
		end);
}

static void f_writeback(void *p, uint64_t pos)
{
	struct ffsx *f = p;

	ctl_say(f, "writeback %s %" PRIu64 "\n", f->rel, pos);
}

static void f_drop(void *p)
{
	ctl_say(p, "drop_caches\n");
}

static void f_crash(void *p)
{
	ctl_say(p, "crash\n");
}

/* .lbs/stats: the header's geometry, or this file's counters */
static int read_stats(struct ffsx *f, struct lbs_fsx_result *r)
{
	char path[PATH_MAX + 16], line[8192], want[PATH_MAX + 8];
	FILE *s;
	int found = 0;

	snprintf(path, sizeof(path), "%s/.lbs/stats", f->root);
	snprintf(want, sizeof(want), "file %s ", f->rel);
	s = fopen(path, "r");
	if (!s)
		return -1;
	while (fgets(line, sizeof(line), s)) {
		char *save = NULL, *k, *v;

		if (!r && sscanf(line, "# lbs-fuse block_size %" SCNu32
				 " page_size %" SCNu32 " st_blksize %*u "
				 "max_file_size %" SCNu64, &f->bs, &f->ps,
				 &f->max_size) == 3)
			found = 1;
		if (!r || strncmp(line, want, strlen(want)))
			continue;
		for (k = strtok_r(line + strlen(want), " \n", &save);
		     k && (v = strtok_r(NULL, " \n", &save));
		     k = strtok_r(NULL, " \n", &save)) {
			uint64_t x = strtoull(v, NULL, 10);

			if (!strcmp(k, "za_zeroed")) r->za_zeroed = x;
			if (!strcmp(k, "za_need")) r->za_need = x;
			if (!strcmp(k, "dio_zero_bios")) r->dio_zero_bios = x;
			if (!strcmp(k, "dio_zero_segs")) r->dio_zero_segs = x;
			if (!strcmp(k, "wb_folios")) r->wb_folios = x;
			if (!strcmp(k, "wb_calls")) r->wb_calls = x;
			if (!strcmp(k, "wb_max_folios")) r->wb_max_folios = x;
			if (!strcmp(k, "crashes")) r->crashes = x;
		}
		found = 1;
	}
	fclose(s);
	return found ? 0 : -1;
}

static void f_counters(void *p, struct lbs_fsx_result *r)
{
	read_stats(p, r);
}

/* the mount's root: the highest directory on PATH's device */
static int find_root(struct ffsx *f, const char *path)
{
	char dir[PATH_MAX], up[PATH_MAX + 4], *slash;
	const char *base = strrchr(path, '/');
	struct stat st, pst;

	snprintf(dir, sizeof(dir), "%.*s", base ? (int)(base - path) : 1,
		 base ? (base == path ? "/" : path) : ".");
	base = base ? base + 1 : path;
	if (!realpath(dir, f->root) || stat(f->root, &st))
		return -1;
	snprintf(dir, sizeof(dir), "%s", f->root);	/* the file's dir */
	while (strcmp(f->root, "/")) {
		snprintf(up, sizeof(up), "%s/..", f->root);
		if (stat(up, &pst) || pst.st_dev != st.st_dev)
			break;
		slash = strrchr(f->root, '/');
		slash[slash == f->root] = 0;
	}
	snprintf(f->rel, sizeof(f->rel), "%s/%s", dir + strlen(f->root), base);
	return 0;
}

static int attach(struct ffsx *f, const char *path)
{
	char ctl[PATH_MAX + 16];

	f->pg = (uint64_t)sysconf(_SC_PAGESIZE);
	if (find_root(f, path)) {
		fprintf(stderr, "lbs-fuse-fsx: %s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(ctl, sizeof(ctl), "%s/.lbs/ctl", f->root);
	f->ctl = open(ctl, O_WRONLY);
	if (f->ctl < 0 || read_stats(f, NULL)) {
		fprintf(stderr, "lbs-fuse-fsx: %s: not on an lbs-fuse mount "
			"(no %s)\n", path, ctl);
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbs-fuse-fsx [--ops N] [--seed S] [--file-size L] [--op-size O]\n"
		"                    [--no-crash] [--unsupported LIST] [--ops-mix MIX]\n"
		"                    [--quiet] PATH\n"
		"PATH: a file in an lbs-fuse mount (created or truncated)\n"
		"unsupported: %s\n", lbs_fsx_feature_names());
}

static int num(const char *opt, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (!*s || *s == '-' || errno || *end) {
		fprintf(stderr, "lbs-fuse-fsx: --%s: bad number \"%s\"\n", opt,
			s);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "ops", 1, NULL, 'N' }, { "seed", 1, NULL, 'S' },
		{ "file-size", 1, NULL, 'l' }, { "op-size", 1, NULL, 'o' },
		{ "no-crash", 0, NULL, 'C' }, { "unsupported", 1, NULL, 'U' },
		{ "quiet", 0, NULL, 'q' }, { "help", 0, NULL, 'h' },
		{ "ops-mix", 1, NULL, 'M' }, { NULL, 0, NULL, 0 }
	};
	struct lbs_fsx_opts o = { .ops = 10000, .seed = 1 };
	struct fsx_real_opts ro = { 0 };
	struct fsx_real_info info;
	struct ffsx f = { .fd = -1, .ctl = -1 };
	struct fsx_backend b;
	struct lbs_fsx_result r;
	uint64_t v;
	int c, idx, rc;

	while ((c = getopt_long(argc, argv, "", lo, &idx)) != -1) {
		switch (c) {
		case 'N': case 'S': case 'l': case 'o':
			if (num(lo[idx].name, optarg, &v))
				return 2;
			if (c == 'N') o.ops = v;
			if (c == 'S') o.seed = v;
			if (c == 'l') o.file_size = v;
			if (c == 'o') o.op_size = v;
			break;
		case 'U':
			if (lbs_fsx_features_parse(optarg, &o.unsupported)) {
				fprintf(stderr, "lbs-fuse-fsx: bad --unsupported\n");
				return 2;
			}
			break;
		case 'M': {
			char err[160];

			if (lbs_fsx_mix_parse(optarg, o.mix, err, sizeof(err))) {
				fprintf(stderr, "lbs-fuse-fsx: %s\n", err);
				return 2;
			}
			break;
		}
		case 'C': o.no_crash = true; break;
		case 'q': o.quiet = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "lbs-fuse-fsx: need exactly one PATH\n");
		usage(stderr);
		return 2;
	}
	if (attach(&f, argv[optind]))
		return 2;
	o.block_size = f.bs;
	o.page_size = f.ps;
	if (lbs_fsx_max_size(&o) > f.max_size) {
		fprintf(stderr, "lbs-fuse-fsx: the campaign's file size %" PRIu64
			" is over the mount's --size %" PRIu64 "\n",
			lbs_fsx_max_size(&o), f.max_size);
		return 2;
	}
	/* a new file: a new simulator instance, its counters from zero */
	if (unlink(argv[optind]) && errno != ENOENT) {
		fprintf(stderr, "lbs-fuse-fsx: %s: %s\n", argv[optind],
			strerror(errno));
		return 2;
	}
	if (fsx_real_open(&f.in, argv[optind], &ro, lbs_fsx_max_size(&o),
			  &info))
		return 2;
	f.fd = open(argv[optind], O_RDWR);
	if (f.fd < 0) {
		fprintf(stderr, "lbs-fuse-fsx: %s: %s\n", argv[optind],
			strerror(errno));
		return 2;
	}
	b = f.in;
	b.p = &f;
	b.name = "lbs-fuse-fsx";
	b.page_size = f.ps;
	/* lbs-fuse gives the simulator's EINVAL for unaligned O_DIRECT */
	b.dio_align = 512;
	b.dio_strict = true;
	b.can_crash = true;
	b.size = f_size; b.read = f_read; b.map_read = f_map_read;
	b.dio_read = f_dio_read; b.write = f_write; b.dio_write = f_dio_write;
	b.mmap_write = f_mmap_write; b.truncate = f_truncate;
	b.fallocate = f_fallocate; b.fsync = f_fsync;
	b.clone_range = f_clone; b.dedupe_range = f_dedupe;
	b.copy_range = f_copy;
	b.fsync_range = f_fsync_range; b.writeback = f_writeback;
	b.drop_caches = f_drop; b.crash = f_crash; b.describe = f_describe;
	b.is_stale_byte = f_stale; b.counters = f_counters;
	o.progress = !o.quiet && isatty(2);
	rc = lbs_fsx_run_on(&o, &b, &r);
	if (rc != 2) {
		printf("lbs-fuse-fsx %s bs=%u ps=%u seed=%" PRIu64 ": %" PRIu64
		       " ops in %.2fs (%.0f ops/s), %s; st_blksize %u, %" PRIu64
		       " EINVAL, %" PRIu64 " crashes, zeroed %" PRIu64
		       " (independent minimum %" PRIu64 ")", argv[optind],
		       o.block_size,
		       o.page_size, o.seed, r.ops_run, r.seconds,
		       r.seconds > 0 ? r.ops_run / r.seconds : 0.0,
		       rc ? "1 MISMATCH" : "0 mismatches", info.st_blksize,
		       r.einval, r.crashes, r.za_zeroed, r.za_need);
		lbs_fsx_print_unsupported(stdout, &r);
		printf("\n");
	}
	close(f.fd);
	close(f.ctl);
	fsx_real_close(&f.in);
	return rc;
}
