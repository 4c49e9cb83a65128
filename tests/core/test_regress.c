// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests for the mistakes of the 2018 seed patches and of Linux
 * 6.1 that core replaces.  Each test re-implements the old formula locally
 * (functions named seedNNN_* or v61_*, transcribed from the seed patch or
 * the 6.1 tree), asserts core's answer on an input where the two differ,
 * and asserts that the old formula gets that input wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "lbs_iomap.h"
#include "lbs_xfs.h"

#define LLONG_MAX_	((uint64_t)INT64_MAX)
#define PAGE_SHIFT_4K	12

/* plain rounding for the transcriptions (kernel round_up/round_down) */
static uint64_t rup(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

static uint64_t rdown(uint64_t x, uint64_t a)
{
	return x / a * a;
}

/* ==================================================================== */
/*
 * (i) seed 010 "xfs: align writepages to large block sizes":
 *
 *	if (wbc->range_start)
 *		wbc->range_start = round_down(wbc->range_start, bsize);
 *	if (wbc->range_end != LLONG_MAX)
 *		wbc->range_end = round_up(wbc->range_end, bsize);
 *	if (wbc->nr_to_write < wbc->range_end - wbc->range_start)
 *		wbc->nr_to_write = round_up(wbc->nr_to_write, bsize);
 */
struct seed010_wbc {
	uint64_t range_start;
	uint64_t range_end;
	int64_t nr_to_write;
};

static void seed010_writepages_round(struct seed010_wbc *wbc, uint64_t bsize)
{
	if (wbc->range_start)
		wbc->range_start = rdown(wbc->range_start, bsize);
	if (wbc->range_end != LLONG_MAX_)
		wbc->range_end = rup(wbc->range_end, bsize);
	if ((uint64_t)wbc->nr_to_write < wbc->range_end - wbc->range_start)
		wbc->nr_to_write = (int64_t)rup((uint64_t)wbc->nr_to_write,
						bsize);
}

/* the block holding the last page write_cache_pages() visits */
static uint64_t last_block_written(uint64_t range_end, uint32_t pshift,
				   uint32_t blkbits)
{
	uint64_t end_index = range_end >> pshift;	/* inclusive */

	return (end_index << pshift) >> blkbits;
}

static void seed010_inclusive_end_round_up(void **state)
{
	const uint32_t bb = 16, pb = PAGE_SHIFT_4K;
	struct seed010_wbc w = { 0, 65535, 1024 };
	struct lbs_wb_range r;

	(void)state;
	/* fsync of block 0 at bs 64k: bytes [0, 65535] */
	lbs_wb_round(bb, pb, 0, 65535, 1024, INT64_MAX, &r);
	assert_int_equal(r.start, 0);
	assert_int_equal(r.end, 65535);
	assert_int_equal(last_block_written(r.end, pb, bb), 0);

	seed010_writepages_round(&w, 65536);
	assert_int_equal(w.range_end, 65536);
	/* the seed writes page 16, the first page of block 1 */
	assert_int_equal(last_block_written(w.range_end, pb, bb), 1);
	assert_int_not_equal(w.range_end, r.end);

	/* a range ending inside block 1 reaches into block 2 */
	lbs_wb_round(bb, pb, 65536, 65636, 1024, INT64_MAX, &r);
	w = (struct seed010_wbc){ 65536, 65636, 1024 };
	seed010_writepages_round(&w, 65536);
	assert_int_equal(r.end, 131071);
	assert_int_equal(w.range_end, 131072);
	assert_int_equal(last_block_written(r.end, pb, bb), 1);
	assert_int_equal(last_block_written(w.range_end, pb, bb), 2);
	printf("seed 010: range_end 65535 -> seed %llu (block 1 touched), "
	       "core %llu\n", 65536ULL, (unsigned long long)65535);
}

static void seed010_nr_to_write_bytes_vs_pages(void **state)
{
	struct seed010_wbc w = { 0, LLONG_MAX_, 1 };
	struct lbs_wb_range r;

	(void)state;
	/* background writeback asks for one page at bs 64k, ps 4k */
	lbs_wb_round(16, PAGE_SHIFT_4K, 0, LLONG_MAX_, 1, INT64_MAX, &r);
	assert_int_equal(r.nr_to_write, 16);	/* one block of pages */
	assert_int_equal(r.nr_added, 15);

	seed010_writepages_round(&w, 65536);
	/* compared with a byte span and rounded to bsize: 65536 pages */
	assert_int_equal(w.nr_to_write, 65536);
	assert_int_not_equal(w.nr_to_write, r.nr_to_write);

	/* LONG_MAX, "no limit", stays as it is */
	lbs_wb_round(16, PAGE_SHIFT_4K, 0, LLONG_MAX_, INT64_MAX, INT64_MAX, &r);
	assert_int_equal(r.nr_to_write, INT64_MAX);
	assert_int_equal(r.nr_added, 0);
	printf("seed 010: nr_to_write 1 -> seed %lld pages, core %lld pages\n",
	       (long long)w.nr_to_write, 16LL);
}

/* ==================================================================== */
/*
 * (ii) seed 007 "iomap: introduce zero-around functionality":
 *
 *	pos = round_down(data_start, i_blocksize(inode));
 *	if (end < i_size_read(inode))
 *		end = round_up(end, i_blocksize(inode));
 *	if (end >= i_size_read(inode))
 *		end = max(data_end, i_size_read(inode));
 *
 * and the tail [data_end, end) is zeroed.
 */
static uint64_t seed007_tail_end(uint64_t data_start, uint64_t len,
				 uint64_t isize, uint64_t bsize)
{
	uint64_t data_end = data_start + len, end = data_end;

	if (end < isize)
		end = rup(end, bsize);
	if (end >= isize)
		end = data_end > isize ? data_end : isize;
	return end;
}

/* bytes of the EOF page (the page written back whole) left unzeroed */
static uint64_t eof_page_unzeroed(uint64_t tail_end, uint64_t neweof,
				  uint64_t psize)
{
	uint64_t page_end = rup(neweof, psize);

	return tail_end < page_end ? page_end - tail_end : 0;
}

static void seed007_zero_around_end_clamp(void **state)
{
	const uint64_t bs = 65536, ps = 4096;
	struct lbs_zero_around za;
	uint64_t seed_end;

	(void)state;
	/* write [0, 100) into a new 64k block, i_size 10000 */
	assert_true(lbs_zero_around(16, PAGE_SHIFT_4K, 0, 100, 10000, &za));
	assert_int_equal(za.tail_pos, 100);
	assert_int_equal(za.tail_pos + za.tail_len, 12288);
	assert_int_equal(za.post_eof_pos, 12288);
	assert_int_equal(za.post_eof_len, bs - 12288);
	assert_int_equal(eof_page_unzeroed(za.tail_pos + za.tail_len, 10000, ps), 0);

	seed_end = seed007_tail_end(0, 100, 10000, bs);
	assert_int_equal(seed_end, 10000);	/* stops at i_size */
	/* [10000, 12288) of the EOF page keeps what the disk held */
	assert_int_equal(eof_page_unzeroed(seed_end, 10000, ps), 2288);

	/* an extending write [0, 100) at i_size 0: the seed zeroes no tail */
	assert_true(lbs_zero_around(16, PAGE_SHIFT_4K, 0, 100, 0, &za));
	assert_int_equal(za.tail_pos + za.tail_len, 4096);
	seed_end = seed007_tail_end(0, 100, 0, bs);
	assert_int_equal(seed_end, 100);
	assert_int_equal(eof_page_unzeroed(seed_end, 100, ps), 3996);
	printf("seed 007: tail end seed 10000, core 12288 (EOF page end)\n");
}

/* ==================================================================== */
/*
 * (iii) 6.1 iomap_dio_zero(): one ZERO_PAGE in a one-vector bio,
 *
 *	bio = iomap_dio_alloc_bio(iter, dio, 1, ...);
 *	__bio_add_page(bio, page, len, 0);
 *
 * so the pad is one segment of len bytes, however long.  Seed 004 split it
 * with howmany(len, PAGE_SIZE) pages of min(PAGE_SIZE, len) each, which is
 * right (its WARN_ON_ONCE(npages > 16) holds for pads < 64k).
 */
static uint32_t v61_dio_zero_nr_segs(uint32_t len)
{
	return len ? 1 : 0;
}

static uint32_t v61_dio_zero_seg_len(uint32_t len, uint32_t idx)
{
	return idx == 0 ? len : 0;
}

static uint32_t seed004_howmany(uint32_t x, uint32_t y)
{
	return (x + (y - 1)) / y;
}

static void v61_dio_zero_single_segment(void **state)
{
	struct lbs_dio_pads p;
	uint32_t i, n, sum = 0, left;

	(void)state;
	/* a 512-byte direct write at 512 into a new 64k block */
	lbs_dio_zero_pads(16, 512, 512, 0, true, &p);
	assert_int_equal(p.head_pos, 0);
	assert_int_equal(p.head_len, 512);
	assert_int_equal(p.tail_pos, 1024);
	assert_int_equal(p.tail_len, 65536 - 1024);

	n = lbs_dio_zero_nr_segs(PAGE_SHIFT_4K, p.tail_len);
	assert_int_equal(n, 16);
	for (i = 0; i < n; i++) {
		uint32_t l = lbs_dio_zero_seg_len(PAGE_SHIFT_4K, p.tail_len, i);

		assert_true(l > 0 && l <= 4096);
		sum += l;
	}
	assert_int_equal(sum, p.tail_len);
	assert_int_equal(lbs_dio_zero_seg_len(PAGE_SHIFT_4K, p.tail_len, n), 0);

	/* 6.1: one segment longer than the zero page */
	assert_int_equal(v61_dio_zero_nr_segs(p.tail_len), 1);
	assert_true(v61_dio_zero_seg_len(p.tail_len, 0) > 4096);

	/* seed 004's split agrees with core */
	assert_int_equal(seed004_howmany(p.tail_len, 4096), n);
	for (i = 0, left = p.tail_len; i < n; i++) {
		uint32_t l = left < 4096 ? left : 4096;

		assert_int_equal(l, lbs_dio_zero_seg_len(PAGE_SHIFT_4K,
							 p.tail_len, i));
		left -= l;
	}
	printf("6.1 iomap_dio_zero: 1 segment of %u bytes; core: %u segments "
	       "of <= 4096\n", p.tail_len, n);
}

/* ==================================================================== */
/*
 * (iv) 6.1 __xfs_ag_block_count():
 *
 *	return dblocks - (agno * mp->m_sb.sb_agblocks);
 *
 * with xfs_agnumber_t agno and xfs_agblock_t sb_agblocks both 32-bit, and
 * an xfs_agblock_t (32-bit) return.
 */
static uint64_t v61_ag_block_count_intermediate(uint32_t agno,
						uint32_t agblocks,
						uint64_t dblocks)
{
	return dblocks - (agno * agblocks);	/* 32-bit product */
}

static uint32_t v61_ag_block_count(uint32_t agno, uint32_t agblocks,
				   uint64_t dblocks)
{
	return (uint32_t)v61_ag_block_count_intermediate(agno, agblocks,
							 dblocks);
}

static void v61_ag_block_count_32bit_overflow(void **state)
{
	/* 4k blocks, 20 AGs of 2^28 - 1 blocks (1 TiB), a 1000-block runt */
	const uint32_t agcount = 20, agblocks = 268435455, agno = 19;
	const uint64_t dblocks = 19ULL * agblocks + 1000;

	(void)state;
	assert_true((uint64_t)agno * agblocks > UINT32_MAX);
	assert_int_equal(lbs_ag_block_count(agno, agcount, agblocks, dblocks),
			 1000);
	/* the 32-bit product wraps: the 64-bit difference is wrong */
	assert_int_not_equal(v61_ag_block_count_intermediate(agno, agblocks,
							     dblocks), 1000);
	assert_true(v61_ag_block_count_intermediate(agno, agblocks, dblocks) >
		    UINT32_MAX);
	/*
	 * ... but 6.1 returns it as a 32-bit xfs_agblock_t, and the wrap
	 * cancels modulo 2^32: the count 6.1 returns is right.  Pinned here
	 * so that nobody "fixes" the test into claiming otherwise, and so
	 * that a port widening the return type is caught.
	 */
	assert_int_equal(v61_ag_block_count(agno, agblocks, dblocks), 1000);
	printf("6.1 __xfs_ag_block_count: 64-bit intermediate %llu, 32-bit "
	       "result %u (right), core %u\n",
	       (unsigned long long)v61_ag_block_count_intermediate(agno,
							agblocks, dblocks),
	       v61_ag_block_count(agno, agblocks, dblocks),
	       lbs_ag_block_count(agno, agcount, agblocks, dblocks));
}

/* ==================================================================== */
/*
 * (v) 6.1 xfs_sb_validate_fsb_count():
 *
 *	ASSERT(PAGE_SHIFT >= sbp->sb_blocklog);
 *	if (nblocks >> (PAGE_SHIFT - sbp->sb_blocklog) > ULONG_MAX)
 *		return -EFBIG;
 *
 * For blocklog > PAGE_SHIFT the shift count is negative: undefined in C
 * (and the ASSERT BUG()s with XFS_ASSERT_FATAL).  x86 masks the count to
 * its low 6 bits, which is what v61_shr() does, to show the answer it
 * would give.
 */
static int v61_fsb_shift(uint32_t blocklog, uint32_t page_shift)
{
	return (int)page_shift - (int)blocklog;
}

static uint64_t v61_shr(uint64_t x, int count)
{
	return x >> ((unsigned int)count & 63);
}

static bool v61_fsb_count_ok(uint64_t nblocks, uint32_t blocklog,
			     uint32_t page_shift, uint64_t ulong_max)
{
	return !(v61_shr(nblocks, v61_fsb_shift(blocklog, page_shift)) >
		 ulong_max);
}

static void v61_validate_fsb_count_negative_shift(void **state)
{
	const uint64_t ulong_max32 = 0xffffffffULL;

	(void)state;
	assert_true(v61_fsb_shift(16, PAGE_SHIFT_4K) < 0);
	/*
	 * 32-bit page index: 2^28 - 1 64k blocks pass; at 2^28 blocks (16 TiB)
	 * the page count, 2^32, passes the largest index, refused as the
	 * kernel's check has always counted.  6.1 takes 2^29 and more.
	 */
	assert_true(lbs_fsb_count_ok((1ULL << 28) - 1, 16, PAGE_SHIFT_4K, ulong_max32));
	assert_false(lbs_fsb_count_ok(1ULL << 28, 16, PAGE_SHIFT_4K, ulong_max32));
	assert_false(lbs_fsb_count_ok(1ULL << 29, 16, PAGE_SHIFT_4K, ulong_max32));
	assert_true(v61_fsb_count_ok(1ULL << 28, 16, PAGE_SHIFT_4K, ulong_max32));
	assert_true(v61_fsb_count_ok(1ULL << 29, 16, PAGE_SHIFT_4K, ulong_max32));
	/* 64-bit: a byte count past 2^64 is refused; 6.1 lets it through */
	assert_false(lbs_fsb_count_ok((1ULL << 48) + 1, 16, PAGE_SHIFT_4K,
				      UINT64_MAX));
	assert_true(v61_fsb_count_ok((1ULL << 48) + 1, 16, PAGE_SHIFT_4K,
				     UINT64_MAX));
	/* where 6.1 is defined (blocks <= pages) both agree */
	assert_int_equal(lbs_fsb_count_ok(0x800000000ULL, 9, PAGE_SHIFT_4K, ulong_max32),
			 v61_fsb_count_ok(0x800000000ULL, 9, PAGE_SHIFT_4K, ulong_max32));
	printf("6.1 xfs_sb_validate_fsb_count: shift count %d at bs 64k\n",
	       v61_fsb_shift(16, PAGE_SHIFT_4K));
}

/* ==================================================================== */
/*
 * (vi) 6.1 i_blocks_per_folio(): folio_size(folio) >> inode->i_blkbits,
 * 0 when the block is larger than the folio, and used as the loop bound
 * of iomap_writepage_map():
 *
 *	for (i = 0; i < nblocks && pos < end_pos; i++, pos += len)
 */
static uint32_t v61_i_blocks_per_folio(uint32_t fshift, uint32_t blkbits)
{
	return (uint32_t)((1ULL << fshift) >> blkbits);
}

/* bytes of the folio iomap_writepage_map()'s loop hands to the ioend */
static uint64_t writepage_bytes(uint32_t nunits, uint64_t unit_len,
				uint64_t folio_len)
{
	uint64_t pos = 0, bytes = 0;
	uint32_t i;

	for (i = 0; i < nunits && pos < folio_len; i++, pos += unit_len)
		bytes += unit_len;
	return bytes;
}

static void v61_i_blocks_per_folio_zero(void **state)
{
	(void)state;
	/* 64k blocks in 4k and 16k folios */
	assert_int_equal(lbs_units_per_folio(16, 12), 1);
	assert_int_equal(lbs_units_per_folio(16, 14), 1);
	assert_int_equal(lbs_pageblock_size(16, 12), 4096);
	assert_int_equal(writepage_bytes(lbs_units_per_folio(16, 12),
					 lbs_pageblock_size(16, 12), 4096), 4096);

	assert_int_equal(v61_i_blocks_per_folio(12, 16), 0);
	assert_int_equal(v61_i_blocks_per_folio(14, 16), 0);
	/* the dirty folio is ended with nothing written */
	assert_int_equal(writepage_bytes(v61_i_blocks_per_folio(12, 16),
					 65536, 4096), 0);
	/* where blocks fit in folios both agree */
	assert_int_equal(lbs_units_per_folio(12, 14), v61_i_blocks_per_folio(14, 12));
	printf("6.1 i_blocks_per_folio(4k folio, 64k block) = 0; "
	       "lbs_units_per_folio = 1\n");
}

/* ==================================================================== */
/*
 * (vii) seed 008 "iomap: Don't mark partial pages zeroing uptodate for
 * zero-around" and 6.1 __iomap_write_begin():
 *
 *	6.1:	folio_zero_segments(folio, poff, from, to, poff + plen);
 *		... iomap_set_range_uptodate(folio, poff, plen);   (always)
 *	seed:	if (!(iomap->flags & IOMAP_F_ZERO_AROUND))
 *			iomap_set_range_uptodate(page, poff, plen);
 *
 * Either way an ordinary write marks [poff, poff + plen) uptodate before
 * the caller has copied [from, to) into it.
 */
static bool v61_zero_marks_uptodate(void)
{
	return true;
}

static bool seed008_zero_marks_uptodate(bool zero_around)
{
	return !zero_around;
}

enum byte_state { B_STALE, B_ZERO, B_DATA };

/* bytes of an uptodate folio that neither zeroing nor the copy wrote */
static uint32_t stale_in_uptodate(uint32_t plen, uint32_t from, uint32_t to,
				  uint32_t copied, bool marked)
{
	static unsigned char folio[65536];
	uint32_t i, stale = 0;

	memset(folio, B_STALE, plen);
	for (i = 0; i < plen; i++)
		if (i < from || i >= to)
			folio[i] = B_ZERO;	/* write_begin's zeroing */
	for (i = from; i < from + copied; i++)
		folio[i] = B_DATA;		/* a short copy */
	/*
	 * __iomap_write_end() accepts a short copy into an uptodate folio
	 * and leaves it uptodate; otherwise the copy is retried.
	 */
	if (!marked)
		return 0;
	for (i = 0; i < plen; i++)
		stale += folio[i] == B_STALE;
	return stale;
}

static void seed008_partial_zeroing_marked_uptodate(void **state)
{
	const uint32_t poff = 0, plen = 4096, from = 1024, to = 3072;
	const uint32_t copied = 1000;
	bool core;

	(void)state;
	core = lbs_zero_may_mark_uptodate(poff, plen, from, to);
	assert_false(core);
	assert_int_equal(stale_in_uptodate(plen, from, to, copied, core), 0);

	assert_true(v61_zero_marks_uptodate());
	assert_true(seed008_zero_marks_uptodate(false));
	assert_int_equal(stale_in_uptodate(plen, from, to, copied,
					   seed008_zero_marks_uptodate(false)),
			 to - from - copied);
	/* a range with no caller data in it may be marked */
	assert_true(lbs_zero_may_mark_uptodate(4096, 4096, 1024, 3072));
	printf("seed 008: short copy leaves %u stale bytes in an uptodate "
	       "folio; core does not mark it\n", to - from - copied);
}

/* ==================================================================== */
/*
 * (viii) seed 002 "xfs: finobt AG reserves don't consider last AG can be
 * a runt":
 *
 *	if (agno == mp->m_sb.sb_agcount - 1)
 *		div_u64_rem(mp->m_sb.sb_dblocks, mp->m_sb.sb_agblocks,
 *			    &agblocks);
 *
 * which is 0 when the device is a whole number of AGs.
 */
static uint32_t seed002_last_ag_blocks(uint32_t agno, uint32_t agcount,
				       uint32_t agblocks, uint64_t dblocks)
{
	if (agno == agcount - 1)
		return (uint32_t)(dblocks % agblocks);
	return agblocks;
}

static void seed002_runt_last_ag_div_rem(void **state)
{
	(void)state;
	assert_int_equal(lbs_ag_block_count(3, 4, 65536, 262144), 65536);
	assert_int_equal(seed002_last_ag_blocks(3, 4, 65536, 262144), 0);
	/* no reservation at all for the last AG's finobt */
	assert_int_equal(lbs_inobt_max_size(0, 0, 8, 126, 252), 0);
	assert_int_not_equal(lbs_inobt_max_size(65536, 0, 8, 126, 252), 0);
	/* where there is a runt they agree */
	assert_int_equal(lbs_ag_block_count(3, 4, 65536, 196708),
			 seed002_last_ag_blocks(3, 4, 65536, 196708));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed010_inclusive_end_round_up),
		cmocka_unit_test(seed010_nr_to_write_bytes_vs_pages),
		cmocka_unit_test(seed007_zero_around_end_clamp),
		cmocka_unit_test(v61_dio_zero_single_segment),
		cmocka_unit_test(v61_ag_block_count_32bit_overflow),
		cmocka_unit_test(v61_validate_fsb_count_negative_shift),
		cmocka_unit_test(v61_i_blocks_per_folio_zero),
		cmocka_unit_test(seed008_partial_zeroing_marked_uptodate),
		cmocka_unit_test(seed002_runt_last_ag_div_rem),
	};

	return cmocka_run_group_tests_name("seed and 6.1 regressions", tests,
					   NULL, NULL);
}
