// SPDX-License-Identifier: GPL-2.0
/*
 * The block around a file offset.  Code that walks a file a block at a
 * time, or addresses a byte inside its block, needs where the block that
 * holds an offset starts and ends.  These are the only places that turn a
 * block size into such a boundary, so the page cache model and the
 * kernel cannot round the same offset two ways.
 */
#include "lbs_iomap.h"
#include "lbs_util.h"

/**
 * lbs_block_start() - start of the block that holds a byte
 * @blkbits: log2 of the filesystem block size
 * @pos: file (or device) offset of the byte
 *
 * Return: @pos rounded down to a block boundary.
 */
uint64_t lbs_block_start(uint32_t blkbits, uint64_t pos)
{
	return LBS_ROUND_DOWN(pos, (uint64_t)1 << blkbits);
}

/**
 * lbs_block_end() - end of the block that holds a byte
 * @blkbits: log2 of the filesystem block size
 * @pos: offset of the byte; its block must end by 2^63 (loff_t)
 *
 * This is round_up(@pos + 1, block size), the exclusive end of the block
 * @pos lies in.  It differs from rounding @pos up when @pos is a block
 * boundary: a walk that steps from one block to the next needs the end
 * of the block it is in, which is never @pos itself, or it would not
 * advance.
 *
 * Return: the first byte after the block that holds @pos.
 */
uint64_t lbs_block_end(uint32_t blkbits, uint64_t pos)
{
	return lbs_block_start(blkbits, pos) + ((uint64_t)1 << blkbits);
}

/**
 * lbs_folio_covers_block() - does a folio hold all of a byte's block
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @index: the folio's first page index (folio->index)
 * @order: the folio's order; the folio must end by 2^63
 * @pos: file offset of a byte, below 2^63
 *
 * A write into a block that one folio holds whole needs no zero-around
 * and no copy-around: the folio's own per-block state covers the block.
 * The answer is only stable while the folio is locked (unlocked, it may
 * be split to pages), so callers decide on the locked folio.
 *
 * Return: true if every byte of the block holding @pos is in the folio.
 */
bool lbs_folio_covers_block(uint32_t blkbits, uint32_t pshift,
			    uint64_t index, uint32_t order, uint64_t pos)
{
	uint64_t start = index << pshift;
	uint64_t end = start + ((uint64_t)1 << (order + pshift));

	return start <= lbs_block_start(blkbits, pos) &&
	       lbs_block_end(blkbits, pos) <= end;
}

/**
 * lbs_block_offset() - offset of a byte inside its block
 * @blkbits: log2 of the filesystem block size
 * @pos: offset of the byte
 *
 * Used to address a byte in the disk block that maps its file block, and,
 * being 0 exactly on block boundaries, to check that an offset or a
 * length is a whole number of blocks.
 *
 * Return: @pos minus the start of its block, less than the block size.
 */
uint32_t lbs_block_offset(uint32_t blkbits, uint64_t pos)
{
	return (uint32_t)(pos - lbs_block_start(blkbits, pos));
}

/**
 * lbs_block_round_up() - round an exclusive end up to a block boundary
 * @blkbits: log2 of the filesystem block size
 * @end: the end of a range (exclusive), at most 2^63
 *
 * The end of the last block that a range ending at @end touches, as
 * XFS_B_TO_FSB() counts blocks: a range that ends on a boundary takes
 * no byte of the next block, so @end is kept.
 *
 * Return: @end rounded up to a multiple of the block size.
 */
uint64_t lbs_block_round_up(uint32_t blkbits, uint64_t end)
{
	return LBS_ROUND_UP(end, (uint64_t)1 << blkbits);
}

/**
 * lbs_pages_per_block() - pages a block spans
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 *
 * Code that visits the pages of a block, or keeps a bit per page of it,
 * needs their count.  A block no larger than a page lies inside one page,
 * so the count is never 0 and is safe as a loop bound; more than one page
 * per block is what makes a block need zero-around.
 *
 * Return: block size / page size, at least 1.
 */
uint32_t lbs_pages_per_block(uint32_t blkbits, uint32_t pshift)
{
	return 1U << (LBS_MAX(blkbits, pshift) - pshift);
}
