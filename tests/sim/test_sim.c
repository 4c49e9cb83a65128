// SPDX-License-Identifier: GPL-2.0
/*
 * Simulator tests: directed seed scenarios at every bs x ps, large folios
 * (bs <= ps), seeded fsx campaigns, negative controls for each fault
 * knob, and a multithreaded RCU lookup stress test.
 * Usage: test_sim directed|short-copy|large-folios|fsx [N]|fsx-reflink [N]|
 *        fsx-large-folios [N]|negative|rcu
 */
#define _GNU_SOURCE
#include "fsx.h"
#include "lbs_sim.h"
#include "oracle.h"

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t bss[] = { 512, 4096, 8192, 16384, 65536 };
static const uint32_t pss[] = { 4096, 16384, 65536 };
static int failures;

struct t {
	struct lbs_sim *s;
	struct lbs_oracle *o;
	uint64_t op;
	uint8_t *buf;
	const char *name;
	uint32_t bs, ps;
};

#define MAXSZ (1u << 20)

static void t_init_order(struct t *t, const char *name, uint32_t bs,
			 uint32_t ps, unsigned inject, uint32_t order)
{
	struct lbs_sim_config c = { bs, ps, MAXSZ, inject, order };
	char err[256];

	t->s = lbs_sim_create(&c, err, sizeof(err));
	if (!t->s) {
		fprintf(stderr, "create: %s\n", err);
		exit(1);
	}
	t->o = lbs_oracle_new(MAXSZ, 1);
	t->buf = aligned_alloc(4096, MAXSZ);
	t->op = 0;
	t->name = name;
	t->bs = bs;
	t->ps = ps;
}

static void t_init(struct t *t, const char *name, uint32_t bs, uint32_t ps,
		   unsigned inject)
{
	t_init_order(t, name, bs, ps, inject, 0);
}

static void t_fini(struct t *t)
{
	lbs_sim_destroy(t->s);
	lbs_oracle_free(t->o);
	free(t->buf);
}

static void fail(struct t *t, const char *what, uint64_t off)
{
	char d[256];

	lbs_sim_describe(t->s, off, d, sizeof(d));
	fprintf(stderr, "FAIL %s bs=%u ps=%u: %s at 0x%" PRIx64 ": %s\n",
		t->name, t->bs, t->ps, what, off, d);
	failures++;
}

static void gen(struct t *t, uint64_t pos, uint64_t len)
{
	lbs_oracle_gen(t->o, t->op, pos, len, t->buf);
}

enum wpath { W_BUFFERED, W_DIO, W_MMAP };

/*
 * Write the next generation over [pos, pos + len) through @path: all of
 * it must be written; the oracle takes the same write.
 */
static void write_via(struct t *t, enum wpath path, uint64_t pos,
		      uint64_t len)
{
	static const char *const what[] = {
		[W_BUFFERED] = "write", [W_DIO] = "dio write",
		[W_MMAP] = "mmap write",
	};
	int64_t n;

	t->op++;
	gen(t, pos, len);
	switch (path) {
	case W_BUFFERED:
		n = lbs_sim_write(t->s, pos, len, t->buf, SIZE_MAX);
		break;
	case W_DIO:
		n = lbs_sim_dio_write(t->s, pos, len, t->buf);
		break;
	default:
		n = lbs_sim_mmap_write(t->s, pos, len, t->buf);
		break;
	}
	if (n != (int64_t)len)
		fail(t, what[path], pos);
	lbs_oracle_write(t->o, pos, len, t->op);
}

static void w(struct t *t, uint64_t pos, uint64_t len)
{
	write_via(t, W_BUFFERED, pos, len);
}

static void dw(struct t *t, uint64_t pos, uint64_t len)
{
	write_via(t, W_DIO, pos, len);
}

static void mw(struct t *t, uint64_t pos, uint64_t len)
{
	write_via(t, W_MMAP, pos, len);
}

static void tr(struct t *t, uint64_t size)
{
	if (lbs_sim_truncate(t->s, size))
		fail(t, "truncate", size);
	lbs_oracle_set_size(t->o, size);
}

static void verify(struct t *t, const char *when)
{
	struct lbs_oracle_mismatch mm;
	uint64_t sz = lbs_sim_size(t->s);
	int64_t n = lbs_sim_read(t->s, 0, sz, t->buf);

	if (sz != lbs_oracle_size(t->o) ||
	    !lbs_oracle_check_read(t->o, 0, sz, t->buf, n, &mm))
		fail(t, when, sz != lbs_oracle_size(t->o) ? sz : mm.off);
}

static void crash(struct t *t)
{
	struct lbs_oracle_mismatch mm;
	uint64_t sz;

	lbs_sim_crash(t->s);
	sz = lbs_sim_size(t->s);
	if (lbs_sim_read(t->s, 0, sz, t->buf) != (int64_t)sz ||
	    !lbs_oracle_crash(t->o, sz, t->buf, &mm))
		fail(t, "after crash", mm.size_bad ? sz : mm.off);
}

static void fsync_drop_verify(struct t *t)
{
	lbs_sim_fsync(t->s);
	lbs_oracle_fsync(t->o);
	lbs_sim_drop_caches(t->s);
	verify(t, "read after drop caches");
}

/* the seed scenarios; every one also ends with a crash check */
static void scenario(int k, uint32_t bs, uint32_t ps, unsigned inject)
{
	static const char *const names[] = {
		"subpage-write-new-block", "write-into-unwritten",
		"truncate-down-then-extend", "dio-subblock-writes",
		"mmap-write-over-hole", "writeback-one-folio-then-crash",
	};
	struct t t;
	uint64_t B = bs, P = ps;

	t_init(&t, names[k], bs, ps, inject);
	switch (k) {
	case 0:
		w(&t, 1000, 100);
		verify(&t, "read");
		fsync_drop_verify(&t);
		w(&t, 3 * B + P + 5, 17);	/* new block past EOF */
		lbs_sim_writeback_folio(t.s, 3 * B + P);
		crash(&t);
		fsync_drop_verify(&t);
		break;
	case 1:
		lbs_sim_fallocate(t.s, 0, 0, 4 * B);
		lbs_oracle_set_size(t.o, 4 * B);
		w(&t, B + 7, 10);
		lbs_sim_writeback_folio(t.s, B + 7);
		crash(&t);
		w(&t, 2 * B + P + 3, 100);
		fsync_drop_verify(&t);
		crash(&t);
		break;
	case 2:
		w(&t, 0, 2 * B + 2 * P);
		lbs_sim_fsync(t.s);
		lbs_oracle_fsync(t.o);
		tr(&t, B + 100);
		tr(&t, 2 * B + P);
		verify(&t, "read after extend");
		w(&t, 2 * B + 3 * P, 10);	/* write past EOF */
		lbs_sim_dio_write(t.s, 3 * B, 512, t.buf);
		gen(&t, 3 * B, 512);
		t.op++;
		gen(&t, 3 * B, 512);
		lbs_sim_dio_write(t.s, 3 * B, 512, t.buf);
		lbs_oracle_write(t.o, 3 * B, 512, t.op);
		crash(&t);
		fsync_drop_verify(&t);
		break;
	case 3:
		dw(&t, B + 512, 512);
		fsync_drop_verify(&t);
		lbs_sim_fallocate(t.s, LBS_FL_KEEP_SIZE, 0, 6 * B);
		dw(&t, 4 * B + 1024, 1536);
		dw(&t, 512, 512);
		verify(&t, "read");
		if (lbs_sim_dio_write(t.s, 100, 512, t.buf) != -22)
			fail(&t, "misaligned dio write not EINVAL", 100);
		crash(&t);
		fsync_drop_verify(&t);
		break;
	case 4:
		tr(&t, 2 * B + P);
		mw(&t, 3, 10);
		mw(&t, B + P + 1, 20);
		lbs_sim_writeback_folio(t.s, 0);
		crash(&t);
		mw(&t, 2 * B + 5, 7);
		fsync_drop_verify(&t);
		break;
	case 5:
		w(&t, P + 3, 3);		/* page 1 of block 0, new */
		lbs_sim_writeback_folio(t.s, P);
		crash(&t);
		w(&t, 5 * B - 10, 30);		/* across a block boundary */
		lbs_sim_writeback_folio(t.s, 5 * B - 10);
		crash(&t);
		fsync_drop_verify(&t);
		break;
	}
	t_fini(&t);
}

static void dread_expect(struct t *t, uint64_t pos, uint64_t len,
			 int64_t want, bool zeros)
{
	int64_t n;

	memset(t->buf, 0xa5, len);
	n = lbs_sim_dio_read(t->s, pos, len, t->buf);
	if (n != want) {
		fprintf(stderr, "FAIL unaligned-dio-read bs=%u ps=%u: dread "
			"0x%" PRIx64 " 0x%" PRIx64 " gave %" PRId64 ", XFS 6.1 "
			"gives %" PRId64 "\n", t->bs, t->ps, pos, len, n, want);
		failures++;
		return;
	}
	for (int64_t i = 0; zeros && i < n; i++)
		if (t->buf[i]) {
			fail(t, "unaligned dio read of a hole not zeros",
			     pos + (uint64_t)i);
			return;
		}
}

/*
 * XFS 6.1 (iomap_dio_rw()) rejects a misaligned O_DIRECT read only where
 * it maps a written extent; holes, unwritten extents and reads at or past
 * EOF are done.  Blocks: 0 written, 1 hole, 2 unwritten, 3 written up to
 * EOF at 4B - 100.
 */
static void dio_read_rules(uint32_t bs, uint32_t ps)
{
	struct lbs_oracle_mismatch mm;
	struct t t;
	uint64_t B = bs, eof = 4 * B - 100;
	int64_t n;

	t_init(&t, "unaligned-dio-read", bs, ps, 0);
	w(&t, 0, B);
	tr(&t, eof);
	if (lbs_sim_fallocate(t.s, 0, 2 * B, B))
		fail(&t, "fallocate", 2 * B);
	w(&t, 3 * B, eof - 3 * B);
	lbs_sim_fsync(t.s);
	lbs_oracle_fsync(t.o);
	dread_expect(&t, 100, 512, -22, false);		/* written */
	dread_expect(&t, 0, 700, -22, false);		/* written, length */
	dread_expect(&t, B + 100, 300, 300, true);	/* hole */
	dread_expect(&t, B, 700, 700, true);		/* hole (+ unwritten) */
	dread_expect(&t, 2 * B + 1, 200, 200, true);	/* unwritten */
	dread_expect(&t, B + 100, 2 * B, -22, false);	/* ... into written */
	dread_expect(&t, eof, 13, 0, false);		/* at EOF */
	dread_expect(&t, eof + 7, 13, 0, false);	/* past EOF */
	dread_expect(&t, 5 * B + 3, 512, 0, false);
	/* aligned: the bytes up to EOF */
	n = lbs_sim_dio_read(t.s, 0, 4 * B, t.buf);
	if (!lbs_oracle_check_read(t.o, 0, 4 * B, t.buf, n, &mm))
		fail(&t, "aligned dio read", mm.off);
	t_fini(&t);
}

static int run_directed(void)
{
	for (size_t i = 0; i < sizeof(bss) / sizeof(bss[0]); i++)
		for (size_t j = 0; j < sizeof(pss) / sizeof(pss[0]); j++) {
			for (int k = 0; k < 6; k++)
				scenario(k, bss[i], pss[j], 0);
			dio_read_rules(bss[i], pss[j]);
		}
	printf("directed: %d failures\n", failures);
	return failures != 0;
}

/*
 * A directed negative control ran after @before failures: it must have
 * added some.  Its failures are not the suite's; they are dropped.
 */
static bool neg_caught(const char *knob, int before)
{
	bool caught = failures > before;

	printf("negative %s: %s (%d failures)\n", knob,
	       caught ? "caught" : "NOT CAUGHT", failures - before);
	failures = before;
	return caught;
}

/* ---- large folios (bs <= ps) ---------------------------------------- */

static const uint32_t lf_bss[] = { 512, 1024, 4096 };
static uint64_t lf_made, lf_split;	/* summed over the scenarios */

/* MAX_PAGECACHE_ORDER of 6.1 with THP for the page size */
static uint32_t lf_max_order(uint32_t ps)
{
	return ps == 4096 ? 9 : 11;
}

/*
 * Every cached folio over pages [0, EOF page + 4): naturally aligned,
 * order 0 or 2..@k, and a large one never reaches past the EOF page
 * (readahead does not make one there, truncation splits one).  Returns
 * the large folios seen.
 */
static unsigned check_folios(struct t *t, uint32_t k)
{
	uint64_t sz = lbs_sim_size(t->s);
	uint64_t pages = sz ? (sz - 1) / t->ps + 1 : 0;
	struct lbs_sim_folio_info fi;
	unsigned large = 0;

	for (uint64_t i = 0; i < pages + 4; i++) {
		uint64_t n;

		if (!lbs_sim_peek(t->s, i, &fi))
			continue;
		if (fi.magic != LBS_SIM_FOLIO_MAGIC || fi.order > k ||
		    fi.order == 1) {
			fail(t, "folio magic or order", i * t->ps);
			return large;
		}
		n = (uint64_t)1 << fi.order;
		if (fi.index > i || i >= fi.index + n || fi.index % n ||
		    (fi.order && fi.index + n > pages)) {
			fail(t, "folio not aligned, not holding the page, or "
			     "large past the EOF page", i * t->ps);
			return large;
		}
		large += fi.order && fi.index == i;
	}
	return large;
}

/* the first large folio's first page, or -1 */
static int64_t first_large(struct t *t)
{
	struct lbs_sim_folio_info fi;
	uint64_t pages = lbs_sim_size(t->s) / t->ps + 1;

	for (uint64_t i = 0; i < pages; i++)
		if (lbs_sim_peek(t->s, i, &fi) && fi.order)
			return (int64_t)fi.index;
	return -1;
}

static void falloc(struct t *t, int mode, uint64_t pos, uint64_t len)
{
	if (lbs_sim_fallocate(t->s, mode, pos, len))
		fail(t, "fallocate", pos);
	if (mode & (LBS_FL_PUNCH_HOLE | LBS_FL_ZERO_RANGE))
		lbs_oracle_zero(t->o, pos, len);
}

/* reread after drop caches: readahead makes large folios again */
static unsigned reread(struct t *t, uint32_t k, const char *when)
{
	unsigned large;

	lbs_sim_fsync(t->s);
	lbs_oracle_fsync(t->o);
	lbs_sim_drop_caches(t->s);
	verify(t, when);
	large = check_folios(t, k);
	if (k >= 2 && !large)
		fail(t, "readahead made no large folio", 0);
	return large;
}

/*
 * A file of written blocks, a hole and an unwritten extent, read into
 * large folios; sub-block writes, an mmap write, one-folio writeback and
 * crash on them; truncation, hole punch and O_DIRECT on them (split or
 * drop); every read checked by the oracle.
 */
static void large_folio_scenario(uint32_t bs, uint32_t ps, uint32_t k,
				 unsigned inject)
{
	struct t t;
	uint64_t P = ps, B = bs, npages = MAXSZ / ps < 24 ? MAXSZ / ps : 24;
	uint64_t S = npages * P - 100, eof;
	int64_t lf;

	t_init_order(&t, "large-folios", bs, ps, inject, k);
	w(&t, 0, S);
	lbs_sim_fsync(t.s);
	lbs_oracle_fsync(t.o);
	falloc(&t, LBS_FL_PUNCH_HOLE | LBS_FL_KEEP_SIZE, P + B, 2 * B);
	falloc(&t, LBS_FL_ZERO_RANGE | LBS_FL_KEEP_SIZE, 3 * P + B, B);
	reread(&t, k, "read into large folios");
	/* sub-block writes and an mmap store into large folios */
	w(&t, 2 * P + 3, 100);
	w(&t, 5 * P - 7, 20);
	mw(&t, 6 * P + 11, 30);
	lbs_sim_writeback_folio(t.s, 2 * P);
	crash(&t);
	verify(&t, "read after crash");
	check_folios(&t, k);
	/* truncate into a large folio: split, nothing past EOF kept */
	reread(&t, k, "reread before truncate");
	lf = first_large(&t);
	if (lf >= 0) {
		struct lbs_sim_folio_info fi;

		eof = ((uint64_t)lf + 1) * P + 5;
		tr(&t, eof);
		if (!lbs_sim_peek(t.s, eof / P, &fi) || fi.order)
			fail(&t, "EOF folio not split to order 0", eof);
		if (lbs_sim_peek(t.s, eof / P + 1, &fi))
			fail(&t, "page past EOF still cached", eof + P);
		verify(&t, "read after truncate into a large folio");
		check_folios(&t, k);
		tr(&t, S);
		verify(&t, "read after extend");
	}
	/* punch a page out of the middle of a large folio */
	reread(&t, k, "reread before punch");
	lf = first_large(&t);
	if (lf >= 0) {
		struct lbs_sim_folio_info fi;

		falloc(&t, LBS_FL_PUNCH_HOLE | LBS_FL_KEEP_SIZE,
		       ((uint64_t)lf + 1) * P, P);
		if (lbs_sim_peek(t.s, (uint64_t)lf + 1, &fi))
			fail(&t, "punched page still cached", (lf + 1) * P);
		if (!lbs_sim_peek(t.s, (uint64_t)lf, &fi) || fi.order)
			fail(&t, "page before the punch not split", lf * P);
		verify(&t, "read after punch into a large folio");
		check_folios(&t, k);
	}
	/* O_DIRECT write inside a large folio, then writes and crash */
	reread(&t, k, "reread before O_DIRECT");
	dw(&t, 4 * P + 512, 512);
	verify(&t, "read after O_DIRECT write");
	w(&t, 7 * P + B / 2, B);
	lbs_sim_writeback_folio(t.s, 7 * P);
	crash(&t);
	fsync_drop_verify(&t);
	if (k >= 2 && !lbs_sim_counters(t.s)->folio_splits)
		fail(&t, "no large folio was split", 0);
	lf_made += lbs_sim_counters(t.s)->ra_large_folios;
	lf_split += lbs_sim_counters(t.s)->folio_splits;
	t_fini(&t);
}

/*
 * D1(a): large folios refused when blocks are larger than pages, and
 * orders above MAX_PAGECACHE_ORDER refused; the control configurations
 * beside them must be accepted.
 */
static void folio_config_checks(void)
{
	static const struct {
		struct lbs_sim_config c;
		const char *want;	/* NULL: must be accepted */
	} v[] = {
		{ { 8192, 4096, MAXSZ, 0, 2 }, "design decision D1(a)" },
		{ { 65536, 16384, MAXSZ, 0, 1 }, "design decision D1(a)" },
		{ { 4096, 4096, MAXSZ, 0, 10 }, "MAX_PAGECACHE_ORDER" },
		{ { 4096, 65536, MAXSZ, 0, 12 }, "MAX_PAGECACHE_ORDER" },
		{ { 8192, 4096, MAXSZ, 0, 0 }, NULL },
		{ { 4096, 4096, MAXSZ, 0, 9 }, NULL },
		{ { 16384, 16384, MAXSZ, 0, 11 }, NULL },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char err[256] = "";
		int rc = lbs_sim_config_check(&v[i].c, err, sizeof(err));

		if (v[i].want ? rc == 0 || !strstr(err, v[i].want) : rc != 0) {
			fprintf(stderr, "FAIL folio config bs=%u ps=%u order=%u: "
				"rc %d \"%s\", want %s\n", v[i].c.block_size,
				v[i].c.page_size, v[i].c.max_folio_order, rc,
				err, v[i].want ? v[i].want : "accepted");
			failures++;
		}
	}
}

static int run_large_folios(void)
{
	static const uint32_t orders[] = { 0, 2, 3, 4, 99 };	/* 99: max */
	int before;

	folio_config_checks();
	for (size_t i = 0; i < sizeof(lf_bss) / sizeof(lf_bss[0]); i++)
		for (size_t j = 0; j < sizeof(pss) / sizeof(pss[0]); j++)
			for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]);
			     o++) {
				uint32_t k = orders[o] == 99 ?
					     lf_max_order(pss[j]) : orders[o];

				large_folio_scenario(lf_bss[i], pss[j], k, 0);
			}
	printf("large folios: %" PRIu64 " made by readahead, %" PRIu64
	       " split, %d failures\n", lf_made, lf_split, failures);
	/* negative control: whole large folio uptodate on a partial read */
	before = failures;
	large_folio_scenario(4096, 4096, 4, LBS_SIM_INJ_RA_WHOLE_UPTODATE);
	return !neg_caught("ra-whole-uptodate", before) || failures != 0;
}

/* ---- short copies in zero-around blocks (bs > ps) ------------------ */

static const uint32_t sc_geo[][2] = {
	{ 65536, 4096 }, { 16384, 4096 }, { 65536, 16384 }, { 8192, 4096 },
};

/* a buffered write whose user buffer faults after @fault_at bytes */
static void w_short(struct t *t, uint64_t pos, uint64_t len, size_t fault_at)
{
	int64_t n;

	t->op++;
	gen(t, pos, len);
	n = lbs_sim_write(t->s, pos, len, t->buf, fault_at);
	if (n != (fault_at ? (int64_t)fault_at : -14))
		fail(t, "short write result", pos);
	if (n > 0)
		lbs_oracle_write(t->o, pos, (uint64_t)n, t->op);
}

/*
 * The pages of the block at @bstart: inside EOF each must be cached,
 * uptodate and dirty (the block converts whole at writeback); past EOF
 * none may stay cached.  Returns the pages that break either rule.
 */
static unsigned short_copy_block_check(struct t *t, uint64_t bstart)
{
	uint64_t eof = lbs_sim_size(t->s);
	struct lbs_sim_folio_info fi;
	unsigned bad = 0;

	for (uint64_t p = bstart; p < bstart + t->bs; p += t->ps) {
		bool cached = lbs_sim_peek(t->s, p / t->ps, &fi);

		if (p < eof && !(cached && fi.uptodate && fi.dirty)) {
			fail(t, "page inside EOF of a zero-around block "
			     "not uptodate and dirty", p);
			bad++;
		}
		if (p >= eof && cached) {
			fail(t, "page past EOF kept after a short copy", p);
			bad++;
		}
	}
	return bad;
}

static void za_equal(struct t *t, const char *when)
{
	const struct lbs_sim_counters *k = lbs_sim_counters(t->s);

	if (k->za_zeroed != k->za_need) {
		fprintf(stderr, "FAIL %s bs=%u ps=%u: %s: zeroed %" PRIu64
			", independent minimum %" PRIu64 "\n", t->name, t->bs,
			t->ps, when, k->za_zeroed, k->za_need);
		failures++;
	}
}

/*
 * Short copies in block 1: (a) inside EOF over unwritten space, (b) one
 * that extends the file, (c) one that copies nothing into a new block
 * past EOF (reservation punched, nothing cached), (d) one that copies
 * nothing into a new block holding EOF (reservation kept for the dirty
 * pages inside EOF).  Each then goes through writeback of one folio and
 * a crash, and the whole file is read back.
 */
static void short_copy_scenario(int k, uint32_t bs, uint32_t ps,
				unsigned inject)
{
	static const char *const names[] = {
		"short-copy-inside-eof", "short-copy-extending",
		"short-copy-nothing-past-eof", "short-copy-nothing-at-eof",
	};
	struct t t;
	uint64_t B = bs, P = ps;
	char d[256];

	t_init(&t, names[k], bs, ps, inject);
	switch (k) {
	case 0:
		falloc(&t, 0, 0, 4 * B);
		lbs_oracle_set_size(t.o, 4 * B);
		w_short(&t, B + P + 100, B / 2, (size_t)(B / 4 + 50));
		break;
	case 1:
		tr(&t, B + P + 10);
		w_short(&t, B + P / 2, B / 2, (size_t)(B / 8 + 3));
		break;
	case 2:
		tr(&t, B / 2 + 100);
		w_short(&t, B + B / 2 + 7, P, 0);
		lbs_sim_describe(t.s, B, d, sizeof(d));
		if (!strstr(d, "[hole"))
			fail(&t, "new block with nothing copied not punched", B);
		break;
	case 3:
		tr(&t, B + P + 10);
		w_short(&t, B + B / 2 + 7, P, 0);
		lbs_sim_describe(t.s, B, d, sizeof(d));
		if (!strstr(d, "[delalloc"))
			fail(&t, "reservation under dirty pages punched", B);
		break;
	}
	short_copy_block_check(&t, B);
	za_equal(&t, "after the short copy");
	verify(&t, "read after short copy");
	lbs_sim_writeback_folio(t.s, B);
	crash(&t);
	fsync_drop_verify(&t);
	t_fini(&t);
}

static int run_short_copy(void)
{
	int before, bad;

	for (size_t g = 0; g < sizeof(sc_geo) / sizeof(sc_geo[0]); g++)
		for (int k = 0; k < 4; k++)
			short_copy_scenario(k, sc_geo[g][0], sc_geo[g][1], 0);
	printf("short copy: %d failures\n", failures);
	/* negative controls: 6.1 alone leaves the rest of the range as is;
	 * pages past the new EOF kept */
	before = failures;
	short_copy_scenario(0, 65536, 4096, LBS_SIM_INJ_SHORT_COPY_NO_FILL);
	bad = !neg_caught("short-copy-no-fill", before);
	short_copy_scenario(1, 65536, 4096, LBS_SIM_INJ_SHORT_COPY_KEEP);
	bad |= !neg_caught("short-copy-keep", before);
	return bad || failures != 0;
}

/* @mix: an --ops-mix string, or NULL for the default mix */
static int run_fsx(uint64_t ops, const char *mix)
{
	struct lbs_fsx_result r;
	int bad = 0;

	for (size_t i = 0; i < sizeof(bss) / sizeof(bss[0]); i++) {
		for (size_t j = 0; j < sizeof(pss) / sizeof(pss[0]); j++) {
			struct lbs_fsx_opts o = { .block_size = bss[i],
				.page_size = pss[j], .ops = ops,
				.seed = 100 + i * 10 + j, .quiet = true };
			char err[128];
			int rc;

			if (mix && lbs_fsx_mix_parse(mix, o.mix, err,
						     sizeof(err))) {
				fprintf(stderr, "%s\n", err);
				return 1;
			}
			rc = lbs_fsx_run(&o, &r);
			printf("fsx%s bs=%u ps=%u seed=%" PRIu64 ": %" PRIu64
			       " ops, rc %d, zero-around %" PRIu64 "/%" PRIu64
			       " (independent)\n",
			       mix ? " reflink" : "", o.block_size,
			       o.page_size, o.seed, r.ops_run,
			       rc, r.za_zeroed, r.za_need);
			bad |= rc != 0 || r.za_zeroed != r.za_need;
		}
	}
	return bad;
}

/* campaigns with large folios: clean, and large folios made and split */
static int run_fsx_large_folios(uint64_t ops)
{
	struct lbs_fsx_result r;
	int bad = 0;

	for (size_t i = 0; i < sizeof(lf_bss) / sizeof(lf_bss[0]); i++)
		for (size_t j = 0; j < sizeof(pss) / sizeof(pss[0]); j++)
			for (uint32_t k = 2; k; k = k == 2 ? lf_max_order(pss[j]) : 0) {
				struct lbs_fsx_opts o = { .block_size = lf_bss[i],
					.page_size = pss[j], .ops = ops,
					.seed = 300 + i * 10 + j + k,
					.folio_order = k, .quiet = true };
				int rc = lbs_fsx_run(&o, &r);

				printf("fsx bs=%u ps=%u order<=%u seed=%" PRIu64
				       ": %" PRIu64 " ops, rc %d, large folios "
				       "%" PRIu64 " made, %" PRIu64 " split\n",
				       o.block_size, o.page_size, k, o.seed,
				       r.ops_run, rc, r.ra_large_folios,
				       r.folio_splits);
				bad |= rc != 0 || !r.ra_large_folios ||
				       !r.folio_splits;
			}
	return bad;
}

/* a negative control passes when the oracle catches the injected bug */
static int run_negative(void)
{
	static const struct {
		const char *knob;
		uint32_t bs, order;
		bool by_counter;	/* zeroed != independent minimum */
		const char *mix;	/* --ops-mix, or NULL */
	} knobs[] = {
		{ "no-zero-around", 65536, 0, false, NULL },
		{ "no-dio-zero", 65536, 0, false, NULL },
		{ "no-wb-round", 65536, 0, false, NULL },
		{ "mark-partial-uptodate", 65536, 0, false, NULL },
		{ "ra-whole-uptodate", 4096, 4, false, NULL },	/* large folios */
		{ "short-copy-no-fill", 65536, 0, false, NULL },
		{ "short-copy-keep", 65536, 0, true, NULL },
		{ "no-copy-around", 65536, 0, false, "reflink" },
		{ "no-copy-around", 16384, 0, false, "reflink" },
		/* a writeback op splits its block between two ioends */
		{ "ioend-early", 65536, 0, false, NULL },
		{ "ioend-early", 16384, 0, false, "reflink" },
		/*
		 * a short copy of nothing into a new block that holds EOF
		 * (truncate) keeps zero-around pages dirty inside EOF; the
		 * punch takes their reservation and writeback finds them
		 * over a hole (they hold zeroes: caught by the writeback
		 * invariant, not by the bytes).  The default mix makes such
		 * a write a few times in 10^5 ops.
		 */
		{ "punch-outward", 65536, 0, false,
		  "write_short=1,truncate=1,writeback=1" },
		{ "punch-outward", 16384, 0, false,
		  "write_short=1,truncate=1,writeback=1" },
	};
	int bad = 0;

	for (size_t k = 0; k < sizeof(knobs) / sizeof(knobs[0]); k++) {
		struct lbs_fsx_result r;
		struct lbs_fsx_opts o = { .block_size = knobs[k].bs,
			.page_size = 4096, .ops = 20000, .seed = 1,
			.inject = lbs_sim_inject_parse(knobs[k].knob),
			.folio_order = knobs[k].order, .quiet = true };
		FILE *log = tmpfile();
		char line[256] = "";
		int rc;

		if (knobs[k].mix && lbs_fsx_mix_parse(knobs[k].mix, o.mix,
						      line, sizeof(line))) {
			fprintf(stderr, "%s\n", line);
			return 1;
		}
		o.log = log;
		rc = lbs_fsx_run(&o, &r);
		rewind(log);
		if (!fgets(line, sizeof(line), log))
			line[0] = 0;
		fclose(log);
		if (knobs[k].by_counter) {
			bool caught = rc == 0 && r.za_zeroed != r.za_need;

			printf("negative %s: %s by the zero-around count after "
			       "%" PRIu64 " ops: zeroed %" PRIu64 ", independent "
			       "minimum %" PRIu64 "\n", knobs[k].knob,
			       caught ? "caught" : "NOT CAUGHT", r.ops_run,
			       r.za_zeroed, r.za_need);
			bad |= !caught;
			continue;
		}
		printf("negative %s: %s after %" PRIu64 " ops: %s",
		       knobs[k].knob, rc == 1 ? "caught" : "NOT CAUGHT",
		       r.ops_run, line);
		bad |= rc != 1;
	}
	return bad;
}

/*
 * RCU index stress: readers peek pages while one writer inserts, splits
 * and removes folios.  Every folio found must be live (magic), hold the
 * page, be naturally aligned and of a possible order.  The writer also
 * publishes, under a sequence count, a page range it keeps cached during
 * its next operation; a reader that misses a page there while the count
 * did not move saw a split expose a gap (filemap_get_folio() returning
 * NULL for a cached page).  The writer's work is counted in operations
 * and goes on past its minimum until the readers, however slowly they
 * are scheduled, have made their own minimum of lookups alongside it:
 * nothing here depends on the machine's speed.
 */
#define RCU_MIN_LOOKUPS 100000	/* by all readers, while the writer runs */
#define RCU_MIN_STABLE 1000	/* of them in a published stable range */
#define RCU_MAX_ITERS 1000000	/* the negative control's bound */
struct rcu_arg {
	struct lbs_sim *s;
	uint32_t max_order;
	int stop;
	unsigned seq;		/* odd: no stable range */
	uint64_t lo, hi;	/* stable pages [lo, hi) */
	uint64_t lookups, hits, bad, stable_lookups, misses;
	uint64_t live_lookups, live_hits, live_stable;	/* while writing */
};

/* the readers have done their part alongside the writer */
static bool rcu_enough(struct rcu_arg *a, bool split)
{
	return __atomic_load_n(&a->live_lookups, __ATOMIC_RELAXED) >=
		       RCU_MIN_LOOKUPS &&
	       __atomic_load_n(&a->live_hits, __ATOMIC_RELAXED) &&
	       (!split || __atomic_load_n(&a->live_stable, __ATOMIC_RELAXED) >=
				  RCU_MIN_STABLE);
}

/*
 * Add what this reader did since it last reported to the live counts, and
 * yield: three spinning readers on a busy 2-core host would otherwise
 * starve the writer whose operations they are there to race with.
 */
static void rcu_progress(struct rcu_arg *a, uint64_t n, uint64_t h,
			 uint64_t sn, uint64_t live[3])
{
	sched_yield();
	__atomic_fetch_add(&a->live_lookups, n - live[0], __ATOMIC_RELAXED);
	__atomic_fetch_add(&a->live_hits, h - live[1], __ATOMIC_RELAXED);
	__atomic_fetch_add(&a->live_stable, sn - live[2], __ATOMIC_RELAXED);
	live[0] = n, live[1] = h, live[2] = sn;
}

static void *reader(void *p)
{
	struct rcu_arg *a = p;
	struct lbs_sim_folio_info fi;
	uint64_t i = 0, n = 0, h = 0, bad = 0, sn = 0, live[3] = { 0 };

	while (!__atomic_load_n(&a->stop, __ATOMIC_ACQUIRE)) {
		unsigned g = __atomic_load_n(&a->seq, __ATOMIC_SEQ_CST);
		uint64_t lo = __atomic_load_n(&a->lo, __ATOMIC_RELAXED);
		uint64_t hi = __atomic_load_n(&a->hi, __ATOMIC_RELAXED);
		bool stable = !(g & 1) && hi > lo && (i & 1);
		uint64_t idx = stable ? lo + (i / 2) % (hi - lo) : (i * 7) % 300;
		bool found = lbs_sim_peek(a->s, idx, &fi);

		i++;
		n++;
		if (found) {
			uint64_t np;

			h++;
			if (fi.magic != LBS_SIM_FOLIO_MAGIC ||
			    fi.order > a->max_order || fi.order == 1) {
				bad++;
				continue;
			}
			np = (uint64_t)1 << fi.order;
			if (fi.index > idx || idx >= fi.index + np ||
			    fi.index % np)
				bad++;
		}
		if (stable) {
			sn++;
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			if (!found &&
			    __atomic_load_n(&a->seq, __ATOMIC_SEQ_CST) == g)
				__atomic_fetch_add(&a->misses, 1,
						   __ATOMIC_RELAXED);
		}
		if (n % 256 == 0)
			rcu_progress(a, n, h, sn, live);
	}
	__atomic_fetch_add(&a->lookups, n, __ATOMIC_RELAXED);
	__atomic_fetch_add(&a->hits, h, __ATOMIC_RELAXED);
	__atomic_fetch_add(&a->bad, bad, __ATOMIC_RELAXED);
	__atomic_fetch_add(&a->stable_lookups, sn, __ATOMIC_RELAXED);
	return NULL;
}

/* the writer only: from odd (nothing stable) to even with [lo, hi) */
static void publish(struct rcu_arg *a, uint64_t lo, uint64_t hi)
{
	__atomic_store_n(&a->lo, lo, __ATOMIC_RELAXED);
	__atomic_store_n(&a->hi, hi, __ATOMIC_RELAXED);
	__atomic_fetch_add(&a->seq, 1, __ATOMIC_SEQ_CST);
}

static void unpublish(struct rcu_arg *a)
{
	if (!(a->seq & 1))
		__atomic_fetch_add(&a->seq, 1, __ATOMIC_SEQ_CST);
}

/* order-0 folios at bs > ps: writes, fsync, drop, truncate, crash */
static void writer_pages(struct rcu_arg *a, uint8_t *buf, uint64_t iters)
{
	for (uint64_t it = 0; it < iters || !rcu_enough(a, false); it++) {
		uint64_t pos = (uint64_t)(it * 40503u) % (1u << 20);

		memset(buf, (int)(it & 0xff), 65536);
		lbs_sim_write(a->s, pos % (1200u * 1024), 9000, buf, SIZE_MAX);
		if (it % 7 == 0)
			lbs_sim_fsync(a->s);
		if (it % 11 == 0)
			lbs_sim_drop_caches(a->s);
		if (it % 53 == 0)
			lbs_sim_truncate(a->s, pos % 4096);
		if (it % 97 == 0)
			lbs_sim_crash(a->s);
	}
}

/*
 * Large folios: empty the cache by truncating to 0 (drop_caches would
 * wait for a grace period each time), read a file into large folios,
 * dirty some, then truncate into the first one (a split) with its pages
 * below the new EOF published as stable.  @until_miss (the negative
 * control): go on until a reader saw a gap, at most RCU_MAX_ITERS.
 */
static void writer_split(struct rcu_arg *a, uint8_t *buf, uint64_t iters,
			 bool until_miss)
{
	uint32_t ps = lbs_sim_page_size(a->s);
	uint64_t full = 64ull * ps < MAXSZ ? 64ull * ps : MAXSZ;

	memset(buf, 0x5a, 65536);
	for (uint64_t it = 0; until_miss ? it < RCU_MAX_ITERS :
			      it < iters || !rcu_enough(a, true); it++) {
		struct lbs_sim_folio_info fi;
		uint64_t np, eof;

		if (until_miss && __atomic_load_n(&a->misses, __ATOMIC_RELAXED))
			break;
		unpublish(a);
		lbs_sim_truncate(a->s, 0);
		lbs_sim_truncate(a->s, full);
		lbs_sim_read(a->s, 0, full, buf + 65536);
		if (!lbs_sim_peek(a->s, 0, &fi) || !fi.order)
			continue;
		np = (uint64_t)1 << fi.order;
		if (it % 2)	/* a dirty large folio */
			lbs_sim_write(a->s, (it % np) * ps + 17, 100, buf,
				      SIZE_MAX);
		eof = (1 + it % (np - 1)) * ps + 5;
		publish(a, 0, eof / ps + 1);
		lbs_sim_truncate(a->s, eof);
	}
	unpublish(a);
}

struct rcu_case {
	const char *name;
	struct lbs_sim_config c;
	bool split;		/* writer_split, else writer_pages */
	bool want_miss;		/* negative control */
};

static int rcu_run(const struct rcu_case *rc)
{
	struct rcu_arg a = { .max_order = rc->c.max_folio_order, .seq = 1 };
	pthread_t th[3];
	char err[256];
	uint8_t *buf = calloc(1, 65536 + MAXSZ);
	int bad;

	a.s = lbs_sim_create(&rc->c, err, sizeof(err));
	if (!a.s || !buf) {
		fprintf(stderr, "rcu %s: %s\n", rc->name, a.s ? "oom" : err);
		return 1;
	}
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, reader, &a);
	if (rc->split)
		writer_split(&a, buf, 3000, rc->want_miss);
	else
		writer_pages(&a, buf, 3000);
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	printf("rcu %s: %" PRIu64 " lookups, %" PRIu64 " hits, %" PRIu64
	       " bad, %" PRIu64 " of %" PRIu64 " stable lookups missed, %"
	       PRIu64 " splits%s\n", rc->name, a.lookups, a.hits, a.bad,
	       a.misses, a.stable_lookups,
	       lbs_sim_counters(a.s)->folio_splits,
	       rc->want_miss ? (a.misses ? " (negative control: caught)" :
				" (negative control: NOT CAUGHT)") : "");
	bad = a.bad != 0 || a.hits == 0 ||
	      (rc->want_miss ? a.misses == 0 :
	       a.misses != 0 || (rc->split && !a.stable_lookups));
	lbs_sim_destroy(a.s);
	free(buf);
	return bad;
}

static int run_rcu(void)
{
	static const struct rcu_case cases[] = {
		{ "bs16k-ps4k", { 16384, 4096, MAXSZ, 0, 0 }, false, false },
		{ "bs1k-ps4k-order4", { 1024, 4096, MAXSZ, 0, 4 }, true, false },
		{ "bs4k-ps16k-order11", { 4096, 16384, MAXSZ, 0, 11 }, true,
		  false },
		{ "bs1k-ps4k-order4-split-gap",
		  { 1024, 4096, MAXSZ, LBS_SIM_INJ_SPLIT_GAP, 4 }, true, true },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		bad |= rcu_run(&cases[i]);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "directed"))
		return run_directed();
	if (!strcmp(argv[1], "short-copy"))
		return run_short_copy();
	if (!strcmp(argv[1], "large-folios"))
		return run_large_folios();
	if (!strcmp(argv[1], "fsx"))
		return run_fsx(argc > 2 ? strtoull(argv[2], NULL, 0) : 3000,
			       NULL);
	if (!strcmp(argv[1], "fsx-reflink"))
		return run_fsx(argc > 2 ? strtoull(argv[2], NULL, 0) : 3000,
			       "reflink");
	if (!strcmp(argv[1], "fsx-large-folios"))
		return run_fsx_large_folios(argc > 2 ?
					    strtoull(argv[2], NULL, 0) : 3000);
	if (!strcmp(argv[1], "negative"))
		return run_negative();
	if (!strcmp(argv[1], "rcu"))
		return run_rcu();
	return 2;
}
