// SPDX-License-Identifier: GPL-2.0
/*
 * core/folio_order.c, the bimodal folio orders (issue 29).
 *
 * "cases": worked cases, each saying why.  "exhaustive": every function
 * against its oracle (through lbs_vec_call()) at blkbits 9..16 on 4k
 * pages, orders 0..MAX_PAGECACHE_ORDER (and past it), over index and
 * offset ranges near 0 and near 2^63, plus every shift pair where the
 * answer depends on shifts only.  6.1's page_cache_ra_order() itself is
 * compared in test_folio_ra61.c.
 *
 * Usage: test_folio_order cases|exhaustive
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmp.h"
#include "grid.h"
#include "lbs_folio.h"
#include "lbs_iomap.h"

#define P4K	12
#define B64K	16
/* MAX_PAGECACHE_ORDER of x86_64 6.1 with THP (HPAGE_PMD_ORDER) */
#define MAXO	9

/* the folio a write makes must be (index, order) */
static void expect_write(uint32_t b, uint64_t pos, uint64_t len,
			 uint32_t max, uint64_t index, uint32_t order)
{
	uint64_t i = 1;
	uint32_t o = 99;

	lbs_write_folio(b, P4K, pos, len, max, &i, &o);
	assert_int_equal(i, index);
	assert_int_equal(o, order);
}

/* the orders a fallback chain from @order visits, ending with 0 */
static void expect_chain(uint32_t b, uint32_t order, const uint32_t *want,
			 size_t n)
{
	uint32_t next = 99;
	size_t i;

	for (i = 0; i < n; i++) {
		assert_true(lbs_folio_order_fallback(b, P4K, order, &next));
		assert_int_equal(next, want[i]);
		order = next;
	}
	assert_int_equal(order, 0);
	assert_false(lbs_folio_order_fallback(b, P4K, 0, &next));
}

/* ==================================================================== */
/* cases */

/*
 * m holds a block and is never 1: 8k blocks on 4k pages need two pages,
 * but 6.1 cannot make an order-1 file folio, so their folios hold two
 * blocks.  A block that fits in a page needs nothing (m = 0).
 */
static void t_min_order(void **state)
{
	(void)state;
	assert_int_equal(lbs_folio_min_order(9, P4K), 0);
	assert_int_equal(lbs_folio_min_order(12, P4K), 0);
	assert_int_equal(lbs_folio_min_order(13, P4K), 2);
	assert_int_equal(lbs_folio_min_order(14, P4K), 2);
	assert_int_equal(lbs_folio_min_order(15, P4K), 3);
	assert_int_equal(lbs_folio_min_order(B64K, P4K), 4);
	assert_int_equal(lbs_folio_min_order(B64K, 16), 0);
	assert_int_equal(lbs_folio_min_order(17, 16), 2);
}

/* bimodal at 64k/4k: pages, or 64k and up; at 4k 6.1's own rule (no 1) */
static void t_order_ok(void **state)
{
	uint32_t o;

	(void)state;
	for (o = 0; o <= 11; o++)
		assert_int_equal(lbs_folio_order_ok(B64K, P4K, o),
				 o == 0 || o >= 4);
	assert_true(lbs_folio_order_ok(12, P4K, 0));
	assert_false(lbs_folio_order_ok(12, P4K, 1));
	assert_true(lbs_folio_order_ok(12, P4K, 2));
	assert_false(lbs_folio_order_ok(13, P4K, 1));
	assert_true(lbs_folio_order_ok(13, P4K, 2));
}

/*
 * A 64k folio at page 16 holds block 1 whole; a page never holds a 64k
 * block; an order-2 folio inside a block (6.1's readahead makes them)
 * does not either.  A 16k folio holds both of its 8k blocks.
 */
static void t_covers(void **state)
{
	(void)state;
	assert_true(lbs_folio_covers_block(B64K, P4K, 16, 4, 64 * KiB));
	assert_true(lbs_folio_covers_block(B64K, P4K, 16, 4, 128 * KiB - 1));
	assert_false(lbs_folio_covers_block(B64K, P4K, 16, 4, 64 * KiB - 1));
	assert_false(lbs_folio_covers_block(B64K, P4K, 16, 4, 128 * KiB));
	assert_false(lbs_folio_covers_block(B64K, P4K, 17, 0, 68 * KiB));
	assert_false(lbs_folio_covers_block(B64K, P4K, 20, 2, 80 * KiB));
	assert_true(lbs_folio_covers_block(B64K, P4K, 0, 5, 100 * KiB));
	assert_true(lbs_folio_covers_block(13, P4K, 0, 2, 8 * KiB));
	assert_true(lbs_folio_covers_block(13, P4K, 0, 2, 0));
	/* bs <= ps: a page holds its blocks, not the next page's */
	assert_true(lbs_folio_covers_block(12, P4K, 1, 0, 4 * KiB));
	assert_false(lbs_folio_covers_block(12, P4K, 1, 0, 8 * KiB));
	assert_true(lbs_folio_covers_block(9, P4K, 1, 0, 5000));
	/* the last 64k block of loff_t */
	assert_true(lbs_folio_covers_block(B64K, P4K, (LOFF_END >> P4K) - 16,
					   4, LOFF_END - 1));
}

/*
 * The ramp at 64k/4k.  6.1 starts a window from the order of the folio
 * that carried the mark plus 2: from a page that is 2, below the block,
 * so the window is raised to m = 4 if it holds 16 pages, else it is read
 * as pages.  From an order-4 folio it goes on to 6, cut to the window.
 */
static void t_ra_start(void **state)
{
	(void)state;
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 0, 32, MAXO), 4);
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 0, 15, MAXO), 0);
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 0, 16, MAXO), 4);
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 4, 128, MAXO), 6);
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 4, 32, MAXO), 5);
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 8, 512, MAXO), 9);
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 9, 4, MAXO), 9);
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 0, 3, MAXO), 0);
	/* m above the maximum: pages only */
	assert_int_equal(lbs_ra_start_order(B64K, P4K, 0, 64, 3), 0);
	/* 4k: 6.1's ramp, 0 -> 2 -> 4, and its fallback under 4 pages */
	assert_int_equal(lbs_ra_start_order(12, P4K, 0, 32, MAXO), 2);
	assert_int_equal(lbs_ra_start_order(12, P4K, 2, 32, MAXO), 4);
	assert_int_equal(lbs_ra_start_order(12, P4K, 0, 3, MAXO), 0);
	/* 8k: 6.1's 2 is already m */
	assert_int_equal(lbs_ra_start_order(13, P4K, 0, 4, MAXO), 2);
}

/*
 * One window at 64k/4k, from page 3 to page 40, order 5: pages 3-15 (the
 * rest of block 0) as pages, block 1 as one order-4 folio (page 16 is
 * not 32-aligned), and pages 32-40 as pages: block 2 passes the window's
 * end, and 6.1's orders 3 and 2 there would hold part of it.
 */
static void t_ra_window(void **state)
{
	uint64_t i;

	(void)state;
	for (i = 3; i < 16; i++)
		assert_int_equal(lbs_ra_folio_order(B64K, P4K, i, 40, 5), 0);
	assert_int_equal(lbs_ra_folio_order(B64K, P4K, 16, 40, 5), 4);
	for (i = 32; i <= 40; i++)
		assert_int_equal(lbs_ra_folio_order(B64K, P4K, i, 40, 5), 0);
	/* the window holding block 2 whole: one folio, order 4 */
	assert_int_equal(lbs_ra_folio_order(B64K, P4K, 32, 47, 5), 4);
	assert_int_equal(lbs_ra_folio_order(B64K, P4K, 0, 63, 5), 5);
	/* 4k: 6.1's order 1 at page 2 becomes 0 */
	assert_int_equal(lbs_ra_folio_order(12, P4K, 2, 40, 4), 0);
	assert_int_equal(lbs_ra_folio_order(12, P4K, 4, 40, 4), 2);
}

/*
 * Rounds of readahead feed the order of the marked folio back into the
 * next window.  At 64k/4k the rule reaches 4 in the first round and
 * ramps by 2 from there, to the maximum; a clamp that only turned orders
 * below m into 0 would start every round again from 0 + 2 = 2 and never
 * make a large folio at all.
 */
static void t_ra_rounds(void **state)
{
	static const uint32_t want[] = { 4, 6, 8, 9, 9 };
	uint32_t order = 0, r;

	(void)state;
	for (r = 0; r < NELEM(want); r++) {
		order = lbs_ra_start_order(B64K, P4K, order, 512, MAXO);
		assert_int_equal(order, want[r]);
		/* the aligned first folio of the window has that order */
		assert_int_equal(lbs_ra_folio_order(B64K, P4K, 512, 1023,
						    order), order);
	}
}

/*
 * The write path at 64k/4k: a byte makes a block-sized folio at its
 * block; a multi-block write takes the largest aligned folio of its own
 * blocks (rounded down: never a block it does not write).
 */
static void t_write(void **state)
{
	(void)state;
	expect_write(B64K, 100, 10, MAXO, 0, 4);
	expect_write(B64K, 70000, 1, MAXO, 16, 4);
	expect_write(B64K, 0, 256 * KiB, MAXO, 0, 6);
	expect_write(B64K, 0, 256 * KiB - 1, MAXO, 0, 6);
	expect_write(B64K, 0, 192 * KiB, MAXO, 0, 5);
	/* block 1 is not 128k-aligned: it goes alone, then 128k, 256k */
	expect_write(B64K, 64 * KiB, 448 * KiB, MAXO, 16, 4);
	expect_write(B64K, 128 * KiB, 384 * KiB, MAXO, 32, 5);
	expect_write(B64K, 256 * KiB, 256 * KiB, MAXO, 64, 6);
	/* from mid-block: the block's start, not the write's page */
	expect_write(B64K, 4 * KiB, 60 * KiB, MAXO, 0, 4);
	expect_write(14, 4 * KiB, 60 * KiB, MAXO, 0, 4);
	expect_write(14, 40 * KiB, 20 * KiB, MAXO, 8, 3);
	/* 8k: order 2, holding the block before or after too */
	expect_write(13, 8 * KiB, 1, MAXO, 0, 2);
	/* capped at the maximum; m above it: 6.1's page */
	expect_write(B64K, 0, (uint64_t)1 << 30, MAXO, 0, MAXO);
	expect_write(B64K, 70000, 1, 3, 17, 0);
	/* bs <= ps: 6.1's order-0 page, whatever the length */
	expect_write(12, 5000, 100000, MAXO, 1, 0);
	expect_write(9, 5000, 1, MAXO, 1, 0);
}

/* from m straight to 0; above m one order at a time, as 6.6 does */
static void t_fallback(void **state)
{
	(void)state;
	expect_chain(B64K, 6, (const uint32_t[]){ 5, 4, 0 }, 3);
	expect_chain(B64K, 4, (const uint32_t[]){ 0 }, 1);
	expect_chain(13, 3, (const uint32_t[]){ 2, 0 }, 2);
	expect_chain(12, 3, (const uint32_t[]){ 2, 0 }, 2);
	expect_chain(12, 2, (const uint32_t[]){ 0 }, 1);
}

/* ==================================================================== */
/* exhaustive: core against the oracles */

static void t_x_shifts(void **state)
{
	struct cmp mo = { "folio_min_order", 0, 0, 0 };
	struct cmp ok = { "folio_order_ok", 0, 0, 0 };
	struct cmp fb = { "folio_order_fallback", 0, 0, 0 };
	uint32_t b, p, o;

	(void)state;
	for (b = 8; b <= 21; b++) {
		for (p = 11; p <= 22; p++) {
			CMP(&mo, b, p);
			for (o = 0; o <= 32; o++) {
				CMP(&ok, b, p, o);
				CMP(&fb, b, p, o);
			}
		}
	}
	cmp_report(&mo);
	cmp_report(&ok);
	cmp_report(&fb);
}

/*
 * pos at every page and block edge (+-1) within two blocks (or pages) of
 * either end of a folio
 */
static void covers_at(struct cmp *c, uint32_t b, uint64_t index, uint32_t o)
{
	uint64_t step = sz(umin(b, P4K)), span = 2 * sz(umax(b, P4K));
	uint64_t fs = index << P4K, fe = fs + sz(o + P4K);
	struct pts pt = { 0 };
	size_t i;

	pts_edges(&pt, fs > span ? fs - span : 0, step, 2 * span / step);
	pts_edges(&pt, fe - span, step, umin(2 * span, LOFF_END - fe + span) / step);
	pts_done(&pt);
	for (i = 0; i < pt.n; i++)
		CMP(c, b, P4K, index, o, pt.v[i]);
	pts_free(&pt);
}

/* every folio of orders 0..11 at indices 0..80 and near the end of loff_t */
static void t_x_covers(void **state)
{
	const uint64_t endpg = LOFF_END >> P4K;
	struct cmp c = { "folio_covers_block", 0, 0, 0 };
	uint64_t idx;
	uint32_t b, o;

	(void)state;
	for (b = 9; b <= 16; b++)
		for (o = 0; o <= 11; o++)
			for (idx = 0; idx <= 80; idx++) {
				covers_at(&c, b, idx, o);
				covers_at(&c, b, endpg - sz(o) - idx, o);
			}
	CMP(&c, 16, P4K, endpg, 0, 0);		/* past loff_t: domain */
	cmp_report(&c);
}

static void t_x_ra_start(void **state)
{
	struct cmp c = { "ra_start_order", 0, 0, 0 };
	uint32_t b, max, w, size;

	(void)state;
	for (b = 9; b <= 16; b++)
		for (max = 0; max <= 11; max++)
			for (w = 0; w <= max; w++) {
				for (size = 0; size <= 1100; size++)
					CMP(&c, b, P4K, w, size, max);
				CMP(&c, b, P4K, w, UINT32_MAX, max);
			}
	CMP(&c, 16, P4K, 10, 64, 9);		/* above the max: domain */
	cmp_report(&c);
}

static void t_x_ra_folio(void **state)
{
	const uint64_t endpg = LOFF_END >> P4K;
	struct cmp c = { "ra_folio_order", 0, 0, 0 };
	uint64_t idx, span;
	uint32_t b, o;

	(void)state;
	for (b = 9; b <= 16; b++)
		for (o = 0; o <= 11; o++)
			for (idx = 0; idx <= 300; idx++)
				for (span = 0; span <= 70; span++) {
					CMP(&c, b, P4K, idx, idx + span, o);
					if (idx <= 40)
						CMP(&c, b, P4K,
						    endpg - 1 - idx - span,
						    endpg - 1 - span, o);
				}
	CMP(&c, 16, P4K, 5, 4, 4);		/* index past limit: domain */
	cmp_report(&c);
}

/* pos at every page edge (+-1) of the first 384k and the last 128k of
 * loff_t, lengths from a byte to 1M around page and 64k multiples */
static void t_x_write(void **state)
{
	static const uint32_t maxv[] = { 0, 3, 4, 9, 11 };
	struct cmp c = { "write_folio", 0, 0, 0 };
	struct pts pos = { 0 }, len = { 0 };
	uint32_t b;
	size_t i, j, k;

	(void)state;
	pts_edges(&pos, 0, 4 * KiB, 96);
	pts_edges(&pos, LOFF_END - 128 * KiB, 4 * KiB, 32);
	pts_edges(&len, 0, 4 * KiB, 40);
	pts_edges(&len, 0, 64 * KiB, 16);
	pts_done(&pos);
	pts_done(&len);
	for (b = 9; b <= 16; b++)
		for (k = 0; k < NELEM(maxv); k++)
			for (i = 0; i < pos.n; i++)
				for (j = 0; j < len.n; j++)
					CMP(&c, b, P4K, pos.v[i], len.v[j],
					    maxv[k]);
	pts_free(&pos);
	pts_free(&len);
	cmp_report(&c);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest cases[] = {
		cmocka_unit_test(t_min_order),
		cmocka_unit_test(t_order_ok),
		cmocka_unit_test(t_covers),
		cmocka_unit_test(t_ra_start),
		cmocka_unit_test(t_ra_window),
		cmocka_unit_test(t_ra_rounds),
		cmocka_unit_test(t_write),
		cmocka_unit_test(t_fallback),
	};
	static const struct CMUnitTest exhaustive[] = {
		cmocka_unit_test(t_x_shifts),
		cmocka_unit_test(t_x_covers),
		cmocka_unit_test(t_x_ra_start),
		cmocka_unit_test(t_x_ra_folio),
		cmocka_unit_test(t_x_write),
	};

	if (argc == 2 && !strcmp(argv[1], "cases"))
		return cmocka_run_group_tests_name("folio order cases", cases,
						   NULL, NULL);
	if (argc == 2 && !strcmp(argv[1], "exhaustive"))
		return cmocka_run_group_tests_name("folio order exhaustive",
						   exhaustive, NULL, NULL);
	fprintf(stderr, "usage: %s cases|exhaustive\n", argv[0]);
	return 2;
}
