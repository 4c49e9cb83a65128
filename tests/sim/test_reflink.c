// SPDX-License-Identifier: GPL-2.0
/*
 * Shared extents in the simulator: directed scenarios at every geometry.
 * A file is cloned into itself (FICLONERANGE, to EOF, dedupe, aligned and
 * unaligned copy_file_range), then each of the operations that copy-around
 * must handle is applied to a shared block, in the copy and in the
 * original: sub-block buffered writes at the start, middle and end of a
 * block, an mmap store, sub-block and whole-block O_DIRECT writes, punch
 * and zero range across a block boundary, truncate into a shared block,
 * extension past a shared EOF block and a sub-block unshare.  Every byte
 * is compared with an independent model cached, after drop_caches and
 * after fsync and a crash.  The negative control (no-copy-around) must
 * lose data wherever blocks are larger than pages.
 * Usage: test_reflink [negative]
 */
#define _GNU_SOURCE
#include "lbs_sim.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSZ (1u << 21)

struct rt {
	struct lbs_sim *s;
	uint8_t *exp, *buf;
	uint64_t size;
	uint32_t bs, ps;
	const char *scen;
	int bad;		/* mismatches in this scenario */
};

static void pattern(uint8_t *b, uint64_t n, unsigned seed)
{
	for (uint64_t i = 0; i < n; i++)
		b[i] = (uint8_t)(1 + (i * 7 + seed * 131 + (i >> 9)) % 251);
}

static void t_new(struct rt *t, uint32_t bs, uint32_t ps, unsigned inject,
		  const char *scen)
{
	struct lbs_sim_config c = { bs, ps, MAXSZ, inject, 0 };
	char err[256];

	t->s = lbs_sim_create(&c, err, sizeof(err));
	if (!t->s) {
		fprintf(stderr, "create: %s\n", err);
		exit(2);
	}
	memset(t->exp, 0, MAXSZ);
	t->size = 0;
	t->bs = bs;
	t->ps = ps;
	t->scen = scen;
	t->bad = 0;
}

static void must(struct rt *t, int64_t rc, const char *what)
{
	if (rc >= 0)
		return;
	fprintf(stderr, "%s bs=%u ps=%u: %s failed: %s\n", t->scen, t->bs,
		t->ps, what, strerror((int)-rc));
	exit(2);
}

static void grow(struct rt *t, uint64_t end)
{
	if (end > t->size)
		t->size = end;
}

static void t_write(struct rt *t, uint64_t pos, uint64_t len, unsigned seed)
{
	pattern(t->buf, len, seed);
	must(t, lbs_sim_write(t->s, pos, len, t->buf, SIZE_MAX), "write");
	memcpy(t->exp + pos, t->buf, len);
	grow(t, pos + len);
}

static void t_mmap(struct rt *t, uint64_t pos, uint64_t len, unsigned seed)
{
	pattern(t->buf, len, seed);
	must(t, lbs_sim_mmap_write(t->s, pos, len, t->buf), "mmap write");
	memcpy(t->exp + pos, t->buf, len);
}

static void t_dio(struct rt *t, uint64_t pos, uint64_t len, unsigned seed)
{
	pattern(t->buf, len, seed);
	must(t, lbs_sim_dio_write(t->s, pos, len, t->buf), "O_DIRECT write");
	memcpy(t->exp + pos, t->buf, len);
	grow(t, pos + len);
}

static void t_clone(struct rt *t, uint64_t src, uint64_t dst, uint64_t len)
{
	uint64_t n = len ? len : t->size - src;

	must(t, lbs_sim_clone_range(t->s, src, dst, len), "clone");
	memmove(t->exp + dst, t->exp + src, n);
	grow(t, dst + n);
}

static void t_copy(struct rt *t, uint64_t src, uint64_t dst, uint64_t len)
{
	int64_t n = lbs_sim_copy_range(t->s, src, dst, len);

	must(t, n, "copy_file_range");
	if ((uint64_t)n != len) {
		fprintf(stderr, "copy_file_range: %" PRId64 " of %" PRIu64 "\n",
			n, len);
		exit(2);
	}
	memmove(t->exp + dst, t->exp + src, len);
	grow(t, dst + len);
}

static void t_falloc(struct rt *t, int mode, uint64_t pos, uint64_t len)
{
	must(t, lbs_sim_fallocate(t->s, mode, pos, len), "fallocate");
	if (mode & (LBS_FL_PUNCH_HOLE | LBS_FL_ZERO_RANGE))
		memset(t->exp + pos, 0, len);
	if (!(mode & LBS_FL_KEEP_SIZE))
		grow(t, pos + len);
}

static void t_truncate(struct rt *t, uint64_t size)
{
	must(t, lbs_sim_truncate(t->s, size), "truncate");
	if (size < t->size)
		memset(t->exp + size, 0, t->size - size);
	t->size = size;
}

/* compare every byte with the model; report the first bad one */
static void compare(struct rt *t, const char *when)
{
	int64_t n = lbs_sim_read(t->s, 0, MAXSZ, t->buf);
	char d[256];

	if (n != (int64_t)t->size || lbs_sim_size(t->s) != t->size) {
		fprintf(stderr, "%s bs=%u ps=%u %s: size %" PRId64 ", expected %"
			PRIu64 "\n", t->scen, t->bs, t->ps, when, n, t->size);
		t->bad++;
		return;
	}
	for (uint64_t i = 0; i < t->size; i++) {
		if (t->buf[i] == t->exp[i])
			continue;
		lbs_sim_describe(t->s, i, d, sizeof(d));
		fprintf(stderr, "%s bs=%u ps=%u %s: byte 0x%" PRIx64
			" is 0x%02x, expected 0x%02x%s\n  %s\n", t->scen, t->bs,
			t->ps, when, i, t->buf[i], t->exp[i],
			lbs_sim_is_stale_byte(t->s, i, t->buf[i]) ?
			" (the device's stale pattern)" : "", d);
		t->bad++;
		return;
	}
}

/* cached, after drop_caches, after fsync + power cut; then end it */
static int t_check(struct rt *t)
{
	compare(t, "cached");
	lbs_sim_drop_caches(t->s);
	compare(t, "after drop_caches");
	lbs_sim_fsync(t->s);
	lbs_sim_crash(t->s);
	compare(t, "after fsync and crash");
	lbs_sim_destroy(t->s);
	return t->bad;
}

/*
 * Blocks 0-3 of data, fsynced, shared with blocks 4-7 by one of the
 * sharing operations.  The file ends 1000 bytes into block 7 for
 * "clone-eof" (the EOF block shared whole).
 */
enum share { SH_CLONE, SH_CLONE_EOF, SH_DEDUPE, SH_COPY };
static const char *const share_names[] = { "clone", "clone-eof", "dedupe",
					   "copy" };

static void t_share(struct rt *t, enum share how)
{
	uint64_t B = t->bs;

	t_write(t, 0, 4 * B, 1);
	switch (how) {
	case SH_CLONE:
		lbs_sim_fsync(t->s);
		t_clone(t, 0, 4 * B, 4 * B);
		break;
	case SH_CLONE_EOF:
		t_truncate(t, 3 * B + 1000);
		lbs_sim_fsync(t->s);
		t_clone(t, 0, 4 * B, 0);
		break;
	case SH_DEDUPE:
		memcpy(t->buf, t->exp, 4 * B);
		must(t, lbs_sim_write(t->s, 4 * B, 4 * B, t->buf, SIZE_MAX),
		     "write");
		memcpy(t->exp + 4 * B, t->exp, 4 * B);
		grow(t, 8 * B);
		lbs_sim_fsync(t->s);
		must(t, lbs_sim_dedupe_range(t->s, 0, 4 * B, 4 * B), "dedupe");
		break;
	case SH_COPY:
		lbs_sim_fsync(t->s);
		t_copy(t, 0, 4 * B, 4 * B);
		break;
	}
}

/* the operations on a shared block; @o: 0 the copy, 1 the original */
#define NMUT 14
static const char *const mut_names[NMUT] = {
	"write-start", "write-middle", "write-end", "mmap", "dio-sub-block",
	"dio-block", "punch", "zero-range", "truncate-in", "extend",
	"unshare", "copy-unaligned", "write-across", "clone-over",
};

static void t_mutate(struct rt *t, int m, int o)
{
	uint64_t B = t->bs, b = (o ? 1 : 5) * B;

	switch (m) {
	case 0: t_write(t, b, 100, 2); break;
	case 1: t_write(t, b + B / 2 - 50, 100, 3); break;
	case 2: t_write(t, b + B - 100, 100, 4); break;
	case 3: t_mmap(t, b + B / 2 + 4, 100, 5); break;
	case 4: t_dio(t, b + (B > 1024 ? B / 2 : 512), 512, 6); break;
	case 5: t_dio(t, b + B, B, 7); break;
	case 6: t_falloc(t, LBS_FL_PUNCH_HOLE | LBS_FL_KEEP_SIZE,
			 b + B / 2, B); break;
	case 7: t_falloc(t, LBS_FL_ZERO_RANGE | LBS_FL_KEEP_SIZE,
			 b + B / 2 + 1, B); break;
	case 8:
		t_truncate(t, b + B / 3 + 1);
		t_truncate(t, 9 * B);
		break;
	case 9: t_write(t, t->size + B + 10, 100, 8); break;
	case 10:
		t_falloc(t, LBS_FL_UNSHARE_RANGE | LBS_FL_KEEP_SIZE,
			 b + 100, 200);
		t_write(t, b + 1000 % B, 10, 9);
		break;
	case 11: t_copy(t, 100, b + 300, B + 17); break;
	case 12: t_write(t, b + B - 7, B + 14, 10); break;
	case 13: t_clone(t, 2 * B, b, B); t_write(t, b + 64, 64, 11); break;
	}
}

static const uint32_t geo[][2] = {
	{ 1024, 4096 }, { 4096, 4096 }, { 8192, 4096 }, { 16384, 4096 },
	{ 32768, 4096 }, { 65536, 4096 }, { 4096, 16384 }, { 65536, 16384 },
	{ 16384, 65536 },
};

/*
 * Every geometry x sharing x mutation x side; returns the failed
 * scenarios.  *@where_bs_gt_ps: data was lost at every geometry with
 * blocks larger than pages and at no other.
 */
static int run(unsigned inject, bool *where_bs_gt_ps)
{
	struct rt t = { .exp = malloc(MAXSZ), .buf = aligned_alloc(4096, MAXSZ) };
	int failed = 0, total = 0;

	*where_bs_gt_ps = true;

	if (!t.exp || !t.buf)
		exit(2);
	for (size_t g = 0; g < sizeof(geo) / sizeof(geo[0]); g++) {
		int gfail = 0;

		for (int sh = 0; sh < 4; sh++)
			for (int m = 0; m < NMUT; m++)
				for (int o = 0; o < 2; o++) {
					char scen[96];

					snprintf(scen, sizeof(scen), "%s/%s/%s",
						 share_names[sh], mut_names[m],
						 o ? "original" : "copy");
					t_new(&t, geo[g][0], geo[g][1], inject,
					      scen);
					t_share(&t, (enum share)sh);
					t_mutate(&t, m, o);
					if (t_check(&t))
						gfail++;
					total++;
				}
		printf("bs=%u ps=%u: %d of %d scenarios lost data\n",
		       geo[g][0], geo[g][1], gfail, 4 * NMUT * 2);
		if ((gfail > 0) != (geo[g][0] > geo[g][1]))
			*where_bs_gt_ps = false;
		failed += gfail;
	}
	printf("%d of %d scenarios lost data\n", failed, total);
	free(t.exp);
	free(t.buf);
	return failed;
}

int main(int argc, char **argv)
{
	bool where;

	if (argc > 1 && !strcmp(argv[1], "negative")) {
		/* copy-around off: data must be lost at bs > ps, and only
		 * there (at bs <= ps a block is never written in part) */
		if (!freopen("/dev/null", "w", stderr))
			return 2;
		run(LBS_SIM_INJ_NO_COPY_AROUND, &where);
		printf("negative no-copy-around: %s\n", where ?
		       "caught at every bs > ps, nowhere else" : "NOT CAUGHT as expected");
		return where ? 0 : 1;
	}
	return run(0, &where) ? 1 : 0;
}
