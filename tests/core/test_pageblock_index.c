// SPDX-License-Identifier: GPL-2.0
/*
 * lbs_pageblock_index(), the uptodate bit of a byte of a folio.
 *
 * "cases": hand-written cases, each saying why.  "exhaustive": comparison
 * with the oracle (through lbs_vec_call()) at every offset of the folio
 * for every blkbits 9..20 x fshift 12..21, and at the unit edges at both
 * ends of the folio for the rest of the pageblock domain (shifts up to 31)
 * and just outside it.  The same grid then runs three mutants: 6.1's own
 * off >> blkbits, which must agree everywhere (the kernel-doc says it
 * does: the helper moves no bit), and two negative controls the grid must
 * catch: the page shift passed for the folio shift (what the simulator's
 * hand-written shifts did, harmless there only because large folios need
 * blocks no larger than pages) and max() for min() (every folio one unit).
 *
 * Usage: test_pageblock_index cases|exhaustive
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmp.h"
#include "grid.h"
#include "lbs_iomap.h"

/* the unit of byte @off must be @want */
static void expect_index(uint32_t b, uint32_t f, uint64_t off, uint32_t want)
{
	assert_int_equal(lbs_pageblock_index(b, f, off), want);
}

/*
 * The units of [@off, @off + @len) must be @first..@last, as
 * sim_set_range_uptodate() and iomap_set_range_uptodate() take them.
 */
static void expect_span(uint32_t b, uint32_t f, uint64_t off, uint64_t len,
			uint32_t first, uint32_t last)
{
	expect_index(b, f, off, first);
	expect_index(b, f, off + len - 1, last);
}

/*
 * 4k blocks in a 16k folio: one bit per block, as 6.1's bitmap has it.
 * The first and last byte of each block map to that block's bit.
 */
static void t_blocks_in_folio(void **state)
{
	uint32_t u;

	(void)state;
	for (u = 0; u < 4; u++) {
		expect_index(12, 14, u * 4 * KiB, u);
		expect_index(12, 14, u * 4 * KiB + 4 * KiB - 1, u);
	}
	/* 512-byte blocks in a 4k page: eight bits */
	expect_index(9, 12, 511, 0);
	expect_index(9, 12, 512, 1);
	expect_index(9, 12, 4095, 7);
}

/*
 * A block covering the folio (64k blocks on 4k and 16k pages, 16k on
 * 16k): the folio has no bitmap and is its one unit, whatever byte.
 */
static void t_block_covers_folio(void **state)
{
	(void)state;
	expect_index(16, 12, 0, 0);
	expect_index(16, 12, 4095, 0);
	expect_index(16, 14, 8 * KiB, 0);
	expect_index(16, 14, 16 * KiB - 1, 0);
	expect_index(14, 14, 16 * KiB - 1, 0);
	expect_index(20, 21, 1024 * KiB - 1, 0);
}

/*
 * A large folio with blocks smaller than it: 64k blocks in a 2M folio
 * (64k pages with THP) have 32 bits; the index follows the block, not the
 * page.  Asking with the 4k page shift instead would give byte 64k bit 16.
 */
static void t_large_folio(void **state)
{
	(void)state;
	expect_index(16, 21, 64 * KiB - 1, 0);
	expect_index(16, 21, 64 * KiB, 1);
	expect_index(16, 21, 2048 * KiB - 1, 31);
	expect_index(9, 21, 2048 * KiB - 1, 4095);
	/* the largest folio of the domain: 2^22 units, still fits */
	expect_index(9, 31, sz(31) - 1, (1U << 22) - 1);
	expect_index(31, 31, sz(31) - 1, 0);
}

/*
 * The uptodate-range setter takes the units of the first and the last
 * byte.  A range ending on a unit edge stops in the unit before it (an
 * end taken as off + len would mark one unit too many, one not read);
 * a one-byte range is one unit; a range over the whole folio is all.
 */
static void t_range_units(void **state)
{
	(void)state;
	expect_span(12, 14, 4 * KiB, 4 * KiB, 1, 1);
	expect_span(12, 14, 1000, 5000, 0, 1);
	expect_span(12, 14, 8 * KiB - 1, 2, 1, 2);
	expect_span(12, 14, 12 * KiB, 1, 3, 3);
	expect_span(12, 14, 0, 16 * KiB, 0, 3);
	/* a block covering the folio: any range is unit 0 */
	expect_span(16, 12, 100, 3000, 0, 0);
}

/* ==================================================================== */
/* exhaustive */

/* the unit edges at both ends of a folio (+-1), and just past it */
static void edge_offsets(struct cmp *c, cmp_call_fn call, uint32_t b,
			 uint32_t f)
{
	uint64_t unit = umin(sz(b), sz(f)), fs = sz(f);
	struct pts pt = { 0 };
	size_t i;

	pts_edges(&pt, 0, unit, 2);
	pts_edges(&pt, fs - umin(2 * unit, fs), unit, 2);
	pts_add(&pt, UINT64_MAX);
	pts_done(&pt);
	for (i = 0; i < pt.n; i++)
		cmp_one_via(c, call, 3, (uint64_t[]){ b, f, pt.v[i] });
	pts_free(&pt);
}

/*
 * Every offset of the folio at blkbits 9..20 x fshift 12..21, and one past
 * it (refused); the unit edges for every other shift pair 0..33 (refused
 * outside 9..31 x 12..31).
 */
static void index_sweep(struct cmp *c, cmp_call_fn call)
{
	uint32_t b, f;
	uint64_t off;

	for (b = 9; b <= 20; b++)
		for (f = 12; f <= 21; f++)
			for (off = 0; off <= sz(f); off++)
				cmp_one_via(c, call, 3,
					    (uint64_t[]){ b, f, off });
	for (b = 0; b <= 33; b++)
		for (f = 0; f <= 33; f++)
			if (b < 9 || b > 20 || f < 12 || f > 21)
				edge_offsets(c, call, b, f);
}

static void t_pageblock_index(void **state)
{
	struct cmp c = { "pageblock_index", 0, 0, 0 };

	(void)state;
	index_sweep(&c, lbs_vec_call);
	cmp_report(&c);
}

/* 6.1: off >> i_blkbits */
static int m_blkbits(const char *fn, uint32_t nin, const uint64_t *in,
		     uint64_t *out)
{
	(void)fn;
	(void)nin;
	out[0] = (uint32_t)(in[2] >> in[0]);
	return 1;
}

/* core asked with the 4k page shift for the folio shift */
static int m_page_shift(const char *fn, uint32_t nin, const uint64_t *in,
			uint64_t *out)
{
	uint64_t in8[LBS_VEC_MAX];

	memcpy(in8, in, sizeof(in8));
	in8[1] = 12;
	return lbs_vec_call(fn, nin, in8, out);
}

/* the unit taken as max(block, folio): every folio one unit */
static int m_max(const char *fn, uint32_t nin, const uint64_t *in,
		 uint64_t *out)
{
	(void)fn;
	(void)nin;
	out[0] = (uint32_t)(in[2] >> (in[0] > in[1] ? in[0] : in[1]));
	return 1;
}

/*
 * 6.1's formula: the kernel-doc says it gives the same bit for every byte
 * of the folio, so the helper moves no bit of the bitmap.  Not a negative
 * control: it must agree.
 */
static void t_6_1_formula(void **state)
{
	struct cmp c = { "pageblock_index", 0, 0, 0 };

	(void)state;
	printf("6.1's off >> blkbits over the same grid: must agree\n");
	index_sweep(&c, m_blkbits);
	printf("%-24s %10" PRIu64 " comparisons, %" PRIu64
	       " mismatches (6.1 off >> blkbits, must be 0)\n", c.fn, c.n,
	       c.bad);
	if (c.bad)
		fail_msg("pageblock_index moves a bit 6.1 sets with "
			 "off >> i_blkbits");
}

/* negative control: the grid must tell the mutant from core */
static void caught(const char *what, cmp_call_fn call)
{
	struct cmp c = { "pageblock_index", 0, 0, 0 };

	printf("negative control: pageblock_index with %s; the mismatches "
	       "below are expected\n", what);
	index_sweep(&c, call);
	printf("%-24s %10" PRIu64 " comparisons, %" PRIu64
	       " mismatches (mutant %s, must not be 0)\n", c.fn, c.n, c.bad,
	       what);
	if (!c.bad)
		fail_msg("the pageblock_index grid does not catch %s", what);
}

static void t_mutant_page_shift(void **state)
{
	(void)state;
	caught("page-shift-for-folio-shift", m_page_shift);
}

static void t_mutant_max(void **state)
{
	(void)state;
	caught("max-for-min", m_max);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest cases[] = {
		cmocka_unit_test(t_blocks_in_folio),
		cmocka_unit_test(t_block_covers_folio),
		cmocka_unit_test(t_large_folio),
		cmocka_unit_test(t_range_units),
	};
	static const struct CMUnitTest exhaustive[] = {
		cmocka_unit_test(t_pageblock_index),
		cmocka_unit_test(t_6_1_formula),
		cmocka_unit_test(t_mutant_page_shift),
		cmocka_unit_test(t_mutant_max),
	};

	if (argc == 2 && !strcmp(argv[1], "cases"))
		return cmocka_run_group_tests_name("pageblock_index cases",
						   cases, NULL, NULL);
	if (argc == 2 && !strcmp(argv[1], "exhaustive"))
		return cmocka_run_group_tests_name("pageblock_index exhaustive",
						   exhaustive, NULL, NULL);
	fprintf(stderr, "usage: %s cases|exhaustive\n", argv[0]);
	return 2;
}
