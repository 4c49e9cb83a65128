// SPDX-License-Identifier: GPL-2.0
/*
 * lbs_settle_edges() and lbs_settle_range(), the whole-block rule of I/O
 * completion and delalloc punching.
 *
 * "cases": hand-written cases, each saying why.  "exhaustive": comparison
 * with the oracles (through lbs_vec_call()), every busy value, at bs
 * 512..1M x ps 4k, 16k, 64k over the page and block edges (+-1) of the
 * first three blocks (or pages), and from the first block to near 2^40
 * and 2^63; at every shift pair over two blocks near 2^40 and 2^63.  Its
 * negative control is a mutant that ignores busy (plain outward
 * rounding), which the same grid must catch.
 *
 * Usage: test_settle cases|exhaustive
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmp.h"
#include "grid.h"
#include "lbs_iomap.h"

#define HEAD	LBS_SETTLE_HEAD
#define TAIL	LBS_SETTLE_TAIL
#define B64K	16	/* 64k blocks */
#define P4K	12	/* on 4k pages */

/* settle_range must give @ret and [@start, @stop) */
static void expect_range(uint32_t b, uint32_t p, uint64_t pos, uint64_t end,
			 uint32_t busy, bool ret, uint64_t start, uint64_t stop)
{
	uint64_t s = 1, e = 1;

	assert_int_equal(lbs_settle_range(b, p, pos, end, busy, &s, &e), ret);
	assert_int_equal(s, start);
	assert_int_equal(e, stop);
}

/* settle_edges must give @edges and the block-rounded [@head, @tail) */
static void expect_edges(uint32_t b, uint32_t p, uint64_t pos, uint64_t end,
			 uint32_t edges, uint64_t head, uint64_t tail)
{
	uint64_t h = 1, t = 1;

	assert_int_equal(lbs_settle_edges(b, p, pos, end, &h, &t), edges);
	assert_int_equal(h, head);
	assert_int_equal(t, tail);
}

/*
 * 64k/4k: an ioend covers pages 0-7 of block 1 while another ioend holds
 * pages 8-15.  Converting the block now would expose stale disk under
 * pages 8-15 if the machine crashed before they land: left out.  When the
 * second ioend completes with nothing else pending, the block goes whole.
 */
static void t_half_block(void **state)
{
	(void)state;
	expect_edges(B64K, P4K, 64 * KiB, 96 * KiB, TAIL, 64 * KiB, 128 * KiB);
	expect_range(B64K, P4K, 64 * KiB, 96 * KiB, TAIL, false, 64 * KiB,
		     64 * KiB);
	/* nothing else pending (the other half already landed): whole */
	expect_range(B64K, P4K, 64 * KiB, 96 * KiB, 0, true, 64 * KiB,
		     128 * KiB);
	/* the second half completes after the first: whole block */
	expect_edges(B64K, P4K, 96 * KiB, 128 * KiB, HEAD, 64 * KiB, 128 * KiB);
	expect_range(B64K, P4K, 96 * KiB, 128 * KiB, 0, true, 64 * KiB,
		     128 * KiB);
	/* ... or before it: it waits for the first */
	expect_range(B64K, P4K, 96 * KiB, 128 * KiB, HEAD, false, 128 * KiB,
		     128 * KiB);
}

/*
 * A range over blocks 1-4 starting and ending mid-block: the inner blocks
 * are wholly its own and always settle; each busy edge block waits.
 */
static void t_many_blocks(void **state)
{
	const uint64_t pos = 68 * KiB, end = 260 * KiB;

	(void)state;
	expect_edges(B64K, P4K, pos, end, HEAD | TAIL, 64 * KiB, 320 * KiB);
	expect_range(B64K, P4K, pos, end, 0, true, 64 * KiB, 320 * KiB);
	expect_range(B64K, P4K, pos, end, HEAD, true, 128 * KiB, 320 * KiB);
	expect_range(B64K, P4K, pos, end, TAIL, true, 64 * KiB, 256 * KiB);
	expect_range(B64K, P4K, pos, end, HEAD | TAIL, true, 128 * KiB,
		     256 * KiB);
	/* two blocks, both edges busy: nothing settles, at the block edge */
	expect_range(B64K, P4K, 124 * KiB, 132 * KiB, HEAD | TAIL, false,
		     128 * KiB, 128 * KiB);
}

/*
 * A punch of one dirty page in the middle of a block (a failed buffered
 * write) keeps the block's reservation while its other pages are dirty,
 * whichever side they are on.
 */
static void t_punch_one_page(void **state)
{
	(void)state;
	expect_range(B64K, P4K, 72 * KiB, 76 * KiB, HEAD, false, 128 * KiB,
		     128 * KiB);
	expect_range(B64K, P4K, 72 * KiB, 76 * KiB, TAIL, false, 64 * KiB,
		     64 * KiB);
	expect_range(B64K, P4K, 72 * KiB, 76 * KiB, 0, true, 64 * KiB,
		     128 * KiB);
}

/*
 * An ioend ending mid-page at EOF: the EOF page holds a byte of the range
 * and is its own, not an outside page.  Here the range's last byte is in
 * the block's last page, so there is no tail edge and busy is ignored.
 */
static void t_eof_page_inside(void **state)
{
	(void)state;
	expect_edges(B64K, P4K, 64 * KiB, 128 * KiB - 100, 0, 64 * KiB,
		     128 * KiB);
	expect_range(B64K, P4K, 64 * KiB, 128 * KiB - 100, TAIL, true,
		     64 * KiB, 128 * KiB);
	/* EOF at 70000, in page 17: pages 18-31 are outside it */
	expect_edges(B64K, P4K, 64 * KiB, 70000, TAIL, 64 * KiB, 128 * KiB);
	/* ending one page earlier, on a page edge: page 31 is outside */
	expect_edges(B64K, P4K, 64 * KiB, 124 * KiB, TAIL, 64 * KiB,
		     128 * KiB);
}

/*
 * Blocks no larger than a page lie in one page, which the range holds a
 * byte of; nothing is split, so this is plain outward rounding, busy or
 * not.
 */
static void t_block_fits_page(void **state)
{
	static const uint32_t geo[][2] = { { 12, 12 }, { 9, 12 }, { 14, 16 } };
	size_t g;
	uint32_t busy;

	(void)state;
	for (g = 0; g < NELEM(geo); g++) {
		uint32_t b = geo[g][0], p = geo[g][1];
		uint64_t bs = sz(b);

		expect_edges(b, p, bs + 1, 3 * bs - 1, 0, bs, 3 * bs);
		for (busy = 0; busy <= (HEAD | TAIL); busy++)
			expect_range(b, p, bs + 1, 3 * bs - 1, busy, true, bs,
				     3 * bs);
	}
}

/* no range, no block; and busy bits of unreported edges are ignored */
static void t_empty_and_ignored(void **state)
{
	(void)state;
	expect_range(B64K, P4K, 96 * KiB, 96 * KiB, HEAD | TAIL, false,
		     96 * KiB, 96 * KiB);
	expect_range(B64K, P4K, 96 * KiB, 64 * KiB, 0, false, 96 * KiB,
		     96 * KiB);
	expect_range(B64K, P4K, 64 * KiB, 128 * KiB, HEAD | TAIL, true,
		     64 * KiB, 128 * KiB);
}

/* the last block of loff_t: its end is 2^63, which must not wrap */
static void t_end_of_loff(void **state)
{
	const uint64_t blk = LOFF_END - 64 * KiB;

	(void)state;
	expect_edges(B64K, P4K, blk + 4 * KiB, LOFF_END, HEAD, blk, LOFF_END);
	expect_range(B64K, P4K, blk + 4 * KiB, LOFF_END, 0, true, blk,
		     LOFF_END);
	expect_range(B64K, P4K, blk + 4 * KiB, LOFF_END, HEAD, false,
		     LOFF_END, LOFF_END);
	/* 64k blocks on 16k pages: the edge pages are 16k */
	expect_edges(B64K, 14, blk + 16 * KiB, LOFF_END - 1, HEAD, blk,
		     LOFF_END);
}

/* ==================================================================== */
/* exhaustive */

/*
 * x - 1, x, x + 1 for the edges of the first and last @k pages of every
 * block in [@base, @base + @n units), or of the first and last @k blocks
 * of every page when blocks are smaller (a unit is the larger of the
 * two): every page edge of blocks of up to 2k pages.
 */
static void edge_points(struct pts *pt, uint32_t b, uint32_t p,
			uint64_t base, uint64_t n, uint64_t k)
{
	uint64_t unit = umax(sz(b), sz(p)), step = umin(sz(b), sz(p));
	uint64_t per = unit / step, u;

	for (u = 0; u < n; u++) {
		uint64_t at = base + u * unit;

		if (per <= 2 * k) {
			pts_edges(pt, at, step, per);
			continue;
		}
		pts_edges(pt, at, step, k);
		pts_edges(pt, at + unit - k * step, step, k);
	}
}

/* one range, with every busy value for settle_range */
static void cmp_range(struct cmp *c, cmp_call_fn call, uint32_t b,
		      uint32_t p, uint64_t pos, uint64_t end)
{
	uint64_t busy;

	if (!strcmp(c->fn, "settle_edges")) {
		cmp_one_via(c, call, 4, (uint64_t[]){ b, p, pos, end });
		return;
	}
	for (busy = 0; busy <= (HEAD | TAIL); busy++)
		cmp_one_via(c, call, 5, (uint64_t[]){ b, p, pos, end, busy });
}

/* every pos in @ps with every end in @es past it */
static void cmp_pairs(struct cmp *c, cmp_call_fn call, uint32_t b,
		      uint32_t p, const struct pts *ps, const struct pts *es)
{
	size_t i, j;

	for (i = 0; i < ps->n; i++)
		for (j = 0; j < es->n; j++)
			if (es->v[j] > ps->v[i])
				cmp_range(c, call, b, p, ps->v[i], es->v[j]);
}

/* empty ranges settle nothing, at pos; settle_edges does not take them */
static void cmp_empty(struct cmp *c, cmp_call_fn call, uint32_t b,
		      uint32_t p, const struct pts *pt)
{
	size_t i;

	if (!strcmp(c->fn, "settle_edges"))
		return;
	for (i = 0; i < pt->n; i++) {
		cmp_range(c, call, b, p, pt->v[i], pt->v[i]);
		cmp_range(c, call, b, p, pt->v[i], pt->v[i] / 2);
	}
}

/*
 * The grid: the first three units at bs 512..1M x ps 4k, 16k, 64k, every
 * page edge of blocks up to 64k at 4k pages; from there to points near
 * 2^40 and 2^63 (ranges of up to 2^54 blocks); then every shift pair in
 * two units near 2^40 and at the end of loff_t.
 */
static void settle_sweep(struct cmp *c, cmp_call_fn call)
{
	static const uint32_t pshifts[] = { 12, 14, 16 };
	uint32_t b, p;
	size_t k;

	for (b = 9; b <= 20; b++) {
		for (k = 0; k < NELEM(pshifts); k++) {
			uint64_t unit = umax(sz(b), sz(pshifts[k]));
			struct pts near = { 0 }, head = { 0 }, far = { 0 };

			p = pshifts[k];
			edge_points(&near, b, p, 0, 3, 8);
			edge_points(&head, b, p, 0, 1, 2);
			edge_points(&far, b, p, ((uint64_t)1 << 40) - unit, 1,
				    1);
			edge_points(&far, b, p, LOFF_END - unit, 1, 1);
			pts_done(&near);
			pts_done(&head);
			pts_done(&far);
			cmp_pairs(c, call, b, p, &near, &near);
			cmp_pairs(c, call, b, p, &head, &far);
			cmp_empty(c, call, b, p, &near);
			pts_free(&near);
			pts_free(&head);
			pts_free(&far);
		}
	}
	for (b = 9; b <= 20; b++) {
		for (p = 12; p <= 21; p++) {
			uint64_t unit = umax(sz(b), sz(p));
			const uint64_t bases[] = { ((uint64_t)1 << 40) - unit,
						   LOFF_END - 2 * unit };
			struct pts pt = { 0 };

			for (k = 0; k < NELEM(bases); k++)
				edge_points(&pt, b, p, bases[k], 2, 2);
			pts_done(&pt);
			cmp_pairs(c, call, b, p, &pt, &pt);
			pts_free(&pt);
		}
	}
	/* outside the domain: refused, not compared */
	cmp_range(c, call, 8, 12, 0, 1);
	cmp_range(c, call, 16, 11, 0, 1);
	cmp_range(c, call, 16, 12, 0, LOFF_END + 1);
	if (!strcmp(c->fn, "settle_edges"))
		cmp_range(c, call, 16, 12, 5, 5);	/* no range */
	else
		cmp_one_via(c, call, 5, (uint64_t[]){ 16, 12, 0, 1, 4 });
}

static void t_settle_edges(void **state)
{
	struct cmp c = { "settle_edges", 0, 0, 0 };

	(void)state;
	settle_sweep(&c, lbs_vec_call);
	cmp_report(&c);
}

static void t_settle_range(void **state)
{
	struct cmp c = { "settle_range", 0, 0, 0 };

	(void)state;
	settle_sweep(&c, lbs_vec_call);
	cmp_report(&c);
}

/* the mutant: core with busy forced to 0, plain outward rounding */
static int ignore_busy(const char *fn, uint32_t nin, const uint64_t *in,
		       uint64_t *out)
{
	uint64_t in8[LBS_VEC_MAX];

	memcpy(in8, in, sizeof(in8));
	if (!strcmp(fn, "settle_range"))
		in8[4] = 0;
	return lbs_vec_call(fn, nin, in8, out);
}

/* negative control: the grid above must tell the mutant from core */
static void t_mutant_ignore_busy(void **state)
{
	struct cmp c = { "settle_range", 0, 0, 0 };

	(void)state;
	printf("negative control: settle_range ignoring busy; the mismatches "
	       "below are expected\n");
	settle_sweep(&c, ignore_busy);
	printf("%-24s %10" PRIu64 " comparisons, %" PRIu64
	       " mismatches (mutant ignore-busy, must not be 0)\n", c.fn, c.n,
	       c.bad);
	if (!c.bad)
		fail_msg("the settle grid does not catch a mutant that "
			 "ignores busy");
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest cases[] = {
		cmocka_unit_test(t_half_block),
		cmocka_unit_test(t_many_blocks),
		cmocka_unit_test(t_punch_one_page),
		cmocka_unit_test(t_eof_page_inside),
		cmocka_unit_test(t_block_fits_page),
		cmocka_unit_test(t_empty_and_ignored),
		cmocka_unit_test(t_end_of_loff),
	};
	static const struct CMUnitTest exhaustive[] = {
		cmocka_unit_test(t_settle_edges),
		cmocka_unit_test(t_settle_range),
		cmocka_unit_test(t_mutant_ignore_busy),
	};

	if (argc == 2 && !strcmp(argv[1], "cases"))
		return cmocka_run_group_tests_name("settle cases", cases, NULL,
						   NULL);
	if (argc == 2 && !strcmp(argv[1], "exhaustive"))
		return cmocka_run_group_tests_name("settle exhaustive",
						   exhaustive, NULL, NULL);
	fprintf(stderr, "usage: %s cases|exhaustive\n", argv[0]);
	return 2;
}
