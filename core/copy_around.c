// SPDX-License-Identifier: GPL-2.0
/*
 * Copy-around: a write into part of a shared block goes to a new block in
 * the COW fork, and I/O completion remaps the whole new block over the old
 * one.  When a block is larger than a page, the pages of the block around
 * the write are therefore filled too, from the old (source) block where it
 * holds data and with zeroes where it does not, and written with the data,
 * so the new block reaches disk whole.  The pages to fill are the ones
 * zero-around reports (lbs_zero_around()); this file says when to fill
 * them, what each page is filled from, and how far unsharing reaches.
 */
#include "lbs_iomap.h"
#include "lbs_util.h"

/**
 * lbs_fill_from_source() - fill a page around a write from the source block
 * @src: what the source mapping holds there (the data fork under a COW
 *	write, the mapping itself otherwise)
 * @src_new: the filesystem has just allocated the source (IOMAP_F_NEW)
 * @pos: file offset of the page (or block) to fill
 * @isize: file size before the write
 *
 * Only written data is read: holes, delalloc and unwritten space read as
 * zeroes, and so does everything at or past EOF, whatever the disk holds
 * there.  This is iomap_block_needs_zeroing() inverted; the write path
 * and copy-around share it so a page is filled the same way whichever of
 * them reaches it first.
 *
 * Return: true to read the page from the source, false to zero it.
 */
bool lbs_fill_from_source(enum lbs_map_type src, bool src_new, uint64_t pos,
			  uint64_t isize)
{
	return src == LBS_MAP_MAPPED && !src_new && pos < isize;
}

/**
 * lbs_unshare_range() - the range FALLOC_FL_UNSHARE_RANGE must copy
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page (folio) size
 * @pos: start of the caller's range
 * @len: length of the caller's range
 * @isize: file size
 * @start: returns the start of the range to unshare
 * @end: returns its end (exclusive)
 *
 * Unsharing copies into a COW block that replaces the shared block whole,
 * so with blocks larger than a page the range grows to whole blocks.  It
 * stops at EOF, as iomap_file_unshare() does: pages past the EOF page are
 * not written back, and the part of the new block past the EOF page is
 * zeroed on disk before the block is remapped (lbs_post_eof_range()).
 * With blocks no larger than a page the range is only cut at EOF.
 *
 * Return: true if [*start, *end) is not empty.
 */
bool lbs_unshare_range(uint32_t blkbits, uint32_t pshift, uint64_t pos,
		       uint64_t len, uint64_t isize, uint64_t *start,
		       uint64_t *end)
{
	uint64_t bsize = (uint64_t)1 << blkbits;
	uint64_t last = pos + LBS_MIN(len, isize - LBS_MIN(pos, isize));

	*start = pos;
	*end = last;
	if (pos >= isize || len == 0)
		return false;
	if (blkbits > pshift) {
		*start = LBS_ROUND_DOWN(pos, bsize);
		*end = LBS_MIN(LBS_ROUND_UP(last, bsize), isize);
	}
	return true;
}
