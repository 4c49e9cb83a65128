// SPDX-License-Identifier: GPL-2.0
/*
 * Zero-around: when a block is larger than a page, a write into part of a
 * new, delalloc or unwritten block leaves the rest of the block with
 * whatever the disk holds once the block is converted, and conversion at
 * I/O completion is done in whole blocks.  The pages of the block around
 * the write are therefore instantiated and zeroed in the page cache so the
 * whole block is written together.
 */
#include "lbs_iomap.h"
#include "lbs_util.h"

/**
 * lbs_zero_around() - page cache ranges to zero around a write
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page (folio) size
 * @pos: start of the write
 * @len: length of the write
 * @isize: file size before the write
 * @za: returns the ranges
 *
 * The head runs from the start of the first block up to @pos.  It always
 * lies inside the new EOF, and covers bytes between the old EOF and @pos
 * when the write starts beyond EOF.  The tail runs from the end of the
 * write to the end of the last block, but stops at the end of the page
 * that holds the new EOF, max(@isize, @pos + @len): that page is written
 * whole (writeback zeroes it past EOF), while pages wholly past EOF are
 * neither written back nor kept by truncate.  The rest of the block is
 * reported in @za->post_eof_pos/@za->post_eof_len; see
 * struct lbs_zero_around for why those bytes cannot become visible.
 *
 * Return: true if any range needs zeroing.
 */
bool lbs_zero_around(uint32_t blkbits, uint32_t pshift, uint64_t pos,
		     uint64_t len, uint64_t isize,
		     struct lbs_zero_around *za)
{
	uint64_t bsize = (uint64_t)1 << blkbits;
	uint64_t psize = (uint64_t)1 << pshift;
	uint64_t end = pos + len;
	uint64_t block_start = LBS_ROUND_DOWN(pos, bsize);
	uint64_t block_end = LBS_ROUND_UP(end, bsize);
	uint64_t eof_page_end = LBS_ROUND_UP(LBS_MAX(isize, end), psize);
	uint64_t tail_end = LBS_MIN(block_end, eof_page_end);

	*za = (struct lbs_zero_around){ 0 };
	if (blkbits <= pshift || len == 0)
		return false;

	za->head_pos = block_start;
	za->head_len = pos - block_start;
	za->tail_pos = end;
	za->tail_len = tail_end - end;
	za->post_eof_pos = tail_end;
	za->post_eof_len = block_end - tail_end;
	return za->head_len || za->tail_len;
}

/**
 * lbs_post_eof_range() - the part of the EOF block past the EOF page
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page (folio) size
 * @eof: the file size
 * @pos: returns the end of the page that holds the last byte before @eof
 * @len: returns the bytes from @pos to the end of that byte's block
 *
 * This is lbs_zero_around()'s post_eof range for a write that ends at
 * @eof: zero-around never instantiates these pages, so when the EOF block
 * is allocated they keep what the disk holds.  A filesystem that converts
 * or truncates into the block zeroes this range on disk before a later
 * size change can expose it.  With blocks no larger than a page the EOF
 * block ends inside the EOF page and the range is empty; so it is for
 * @eof 0.
 *
 * Return: true if @len is not 0.
 */
bool lbs_post_eof_range(uint32_t blkbits, uint32_t pshift, uint64_t eof,
			uint64_t *pos, uint64_t *len)
{
	uint64_t bsize = (uint64_t)1 << blkbits;
	uint64_t psize = (uint64_t)1 << pshift;
	uint64_t page_end = LBS_ROUND_UP(eof, psize);
	uint64_t block_end = LBS_ROUND_UP(eof, bsize);

	*pos = page_end;
	*len = 0;
	if (blkbits <= pshift)
		return false;
	*len = block_end - page_end;
	return *len != 0;
}

/**
 * lbs_short_copy_range() - pages to fill after a short copy into a block
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page (folio) size
 * @pos: the copy point, where the short copy stopped
 * @data_end: end of the write's data in the block that holds @pos
 * @isize: the file size after the short write
 * @fill_pos: returns @pos, the start of the range to fill
 * @fill_len: returns its length, 0 if there is nothing to fill
 *
 * Zero-around leaves the pages that the write's data covers to the data.
 * When the copy from the user buffer stops short (the buffer faults), the
 * pages of [@pos, @data_end) that no copy reached are neither initialised
 * nor dirty while the rest of the block is dirty, and the block converts
 * (or a COW block is remapped) whole at writeback: those pages would
 * expose what the disk holds.  They are filled like the pages around the
 * write, a whole page at a time, from the page that holds @pos to the end
 * of the page that holds @data_end - 1.  The range stops at the end of the
 * page that holds the last byte before @isize: a page wholly past EOF is
 * skipped by writeback and dropped by truncate, so filling it would be
 * lost work, and lbs_post_eof_range() covers the part of the block past
 * that page on disk.
 *
 * The range starts at @pos, not at the start of its page: bytes of that
 * page below @pos were copied (the page is uptodate then, and is only
 * dirtied) or lie before the write.  With blocks no larger than a page
 * there is no zero-around and nothing to fill; nor is there when the
 * copy reached @data_end, or when @isize is at or before the start of
 * the page that holds @pos.
 *
 * Return: true if @fill_len is not 0.
 */
bool lbs_short_copy_range(uint32_t blkbits, uint32_t pshift, uint64_t pos,
			  uint64_t data_end, uint64_t isize,
			  uint64_t *fill_pos, uint64_t *fill_len)
{
	uint64_t psize = (uint64_t)1 << pshift;
	uint64_t end = LBS_MIN(LBS_ROUND_UP(data_end, psize),
			       LBS_ROUND_UP(isize, psize));

	*fill_pos = pos;
	*fill_len = 0;
	if (blkbits <= pshift || data_end <= pos || end <= pos)
		return false;
	*fill_len = end - pos;
	return true;
}
