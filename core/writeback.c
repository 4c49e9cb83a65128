// SPDX-License-Identifier: GPL-2.0
/*
 * Block-granular flush, wait and writeback ranges, and the block
 * alignment that collapse and insert range require.
 *
 * I/O completion converts unwritten extents in whole blocks, so a block
 * whose pages are written in more than one piece can be marked written
 * while some of its pages still hold stale data on disk.  Integrity
 * operations and cache invalidation therefore work on whole blocks.  The
 * rounding unit is max(block size, page size): with small blocks the page
 * is already the unit of writeback.
 */
#include "lbs_iomap.h"
#include "lbs_util.h"

static uint64_t lbs_round_unit(uint32_t blkbits, uint32_t pshift)
{
	return (uint64_t)1 << LBS_MAX(blkbits, pshift);
}

/**
 * lbs_round_range() - round an inclusive byte range out to whole blocks
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @start: first byte
 * @end: last byte (inclusive); INT64_MAX means "to EOF" and is kept
 * @ostart: returns @start rounded down
 * @oend: returns @end rounded up to the last byte of its block
 *
 * The end is inclusive, as in writeback_control and
 * filemap_write_and_wait_range(), so it rounds to round_up(@end + 1) - 1:
 * rounding @end itself would take in the whole next block when @end is
 * the last byte of a block.  Results past INT64_MAX saturate to it.
 *
 * Return: false, with the range unchanged, if it is empty (@end < @start).
 */
bool lbs_round_range(uint32_t blkbits, uint32_t pshift, uint64_t start,
		     uint64_t end, uint64_t *ostart, uint64_t *oend)
{
	uint64_t unit = lbs_round_unit(blkbits, pshift);
	uint64_t limit = INT64_MAX;

	*ostart = start;
	*oend = end;
	if (end < start)
		return false;
	*ostart = LBS_ROUND_DOWN(start, unit);
	if (end >= limit)
		*oend = limit;
	else
		*oend = LBS_MIN(LBS_ROUND_UP(end + 1, unit) - 1, limit);
	return true;
}

/**
 * lbs_flush_unmap_range() - range to flush and invalidate around direct I/O
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @pos: start of the I/O
 * @len: length of the I/O
 * @start: returns the first byte to flush
 * @end: returns the last byte (inclusive)
 *
 * A sub-block direct write zeroes the rest of its block on disk, so cached
 * pages of that block outside the I/O must be written back first and
 * dropped afterwards, as xfs_flush_unmap_range() does for fallocate.
 *
 * Return: false if @len is 0 and there is nothing to flush; @start and
 * @end are then both set to @pos.
 */
bool lbs_flush_unmap_range(uint32_t blkbits, uint32_t pshift, uint64_t pos,
			   uint64_t len, uint64_t *start, uint64_t *end)
{
	if (!len) {
		*start = pos;
		*end = pos;
		return false;
	}
	return lbs_round_range(blkbits, pshift, pos, pos + len - 1, start, end);
}

/**
 * lbs_wb_round() - round a writeback_control range to whole blocks
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @start: wbc->range_start
 * @end: wbc->range_end (inclusive; INT64_MAX means to EOF)
 * @nr_to_write: wbc->nr_to_write, in pages
 * @nr_max: the "no limit" value of nr_to_write (LONG_MAX), kept as is
 * @out: returns the rounded range and page budget
 *
 * The byte range is rounded as lbs_round_range() does.  The page budget,
 * which bounds WB_SYNC_NONE writeback, is rounded up to whole blocks so
 * that background writeback stops at a block boundary rather than in the
 * middle of a block.  @out->nr_added is what the rounding added; callers
 * of ->writepages read nr_to_write back to account for progress, so the
 * filesystem subtracts @out->nr_added again before it returns.
 */
void lbs_wb_round(uint32_t blkbits, uint32_t pshift, uint64_t start,
		  uint64_t end, int64_t nr_to_write, int64_t nr_max,
		  struct lbs_wb_range *out)
{
	uint64_t pages = lbs_round_unit(blkbits, pshift) >> pshift;
	uint64_t want = (uint64_t)nr_to_write, limit = (uint64_t)nr_max;
	uint64_t nr;

	lbs_round_range(blkbits, pshift, start, end, &out->start, &out->end);
	out->nr_to_write = nr_to_write;
	out->nr_added = 0;
	if (nr_to_write <= 0 || nr_to_write >= nr_max)
		return;
	nr = LBS_MIN(LBS_ROUND_UP(want, pages), limit);
	out->nr_to_write = (int64_t)nr;
	out->nr_added = (int64_t)nr - nr_to_write;
}

/**
 * lbs_wb_round_index() - round a page index down to the start of its block
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @index: page index, e.g. mapping->writeback_index for range_cyclic
 *
 * Return: the index of the first page of the block holding @index.
 */
uint64_t lbs_wb_round_index(uint32_t blkbits, uint32_t pshift,
			    uint64_t index)
{
	uint64_t pages = lbs_round_unit(blkbits, pshift) >> pshift;

	return LBS_ROUND_DOWN(index, pages);
}

/**
 * lbs_wb_may_stop() - may WB_SYNC_NONE writeback stop before this page
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @index: page index writeback would write next
 *
 * Background writeback that has used up nr_to_write stops only at the
 * start of a block (of a page with small blocks), so that it never leaves
 * part of a block dirty in the page cache while the rest of the block is
 * converted at I/O completion.  lbs_wb_round() rounds the budget so that
 * a pass started at a block start ends at one.
 *
 * Return: true if @index is the first page of its block.
 */
bool lbs_wb_may_stop(uint32_t blkbits, uint32_t pshift, uint64_t index)
{
	return lbs_wb_round_index(blkbits, pshift, index) == index;
}

/**
 * lbs_falloc_aligned() - is a collapse or insert range block aligned
 * @blkbits: log2 of the filesystem block size
 * @pos: start of the range
 * @len: length of the range
 *
 * FALLOC_FL_COLLAPSE_RANGE and FALLOC_FL_INSERT_RANGE shift extents by
 * whole blocks, so both ends must lie on block boundaries, as
 * xfs_is_falloc_aligned() checks for an inode on the data device.  The
 * unit is the block, not max(block, page): the page cache around the
 * range is flushed and invalidated in whole blocks first.
 *
 * Return: true if @pos and @len are both multiples of the block size.
 */
bool lbs_falloc_aligned(uint32_t blkbits, uint64_t pos, uint64_t len)
{
	uint64_t bsize = (uint64_t)1 << blkbits;

	return LBS_ROUND_DOWN(pos, bsize) == pos &&
	       LBS_ROUND_DOWN(len, bsize) == len;
}
