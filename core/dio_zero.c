// SPDX-License-Identifier: GPL-2.0
/*
 * Sub-block direct I/O zeroing.  A direct write that does not cover whole
 * new or unwritten blocks must write zeroes around itself, and at block
 * sizes above PAGE_SIZE those pads reach 64KiB - 512.  They are built from
 * the zero page, at most one page per bio segment.
 */
#include "lbs_iomap.h"
#include "lbs_util.h"

/**
 * lbs_dio_zero_pads() - head and tail zeroing of a direct write
 * @blkbits: log2 of the filesystem block size
 * @pos: start of the write (of this mapping's part of it)
 * @len: length of the write
 * @isize: file size before the write
 * @need_zeroout: the mapping is new or unwritten
 * @pads: returns the ranges
 *
 * As in iomap_dio_bio_iter(): the head is zeroed only over new or
 * unwritten blocks; the tail also when the write ends at or beyond EOF,
 * or mmap reads of the EOF block would see what the disk held there.
 */
void lbs_dio_zero_pads(uint32_t blkbits, uint64_t pos, uint64_t len,
		       uint64_t isize, bool need_zeroout,
		       struct lbs_dio_pads *pads)
{
	uint64_t mask = ((uint64_t)1 << blkbits) - 1;
	uint64_t end = pos + len;

	*pads = (struct lbs_dio_pads){ 0 };
	if (need_zeroout && (pos & mask)) {
		pads->head_pos = pos & ~mask;
		pads->head_len = (uint32_t)(pos & mask);
	}
	if ((need_zeroout || end >= isize) && (end & mask)) {
		pads->tail_pos = end;
		pads->tail_len = (uint32_t)(mask + 1 - (end & mask));
	}
}

/**
 * lbs_dio_zero_nr_segs() - bio segments needed to zero @len bytes
 * @pshift: log2 of the page size (the size of the zero page)
 * @len: bytes to zero
 *
 * Return: the number of zero-page segments, each at most one page.
 */
uint32_t lbs_dio_zero_nr_segs(uint32_t pshift, uint32_t len)
{
	return (uint32_t)(((uint64_t)len + (1U << pshift) - 1) >> pshift);
}

/**
 * lbs_dio_zero_seg_len() - length of one zero-page segment
 * @pshift: log2 of the page size
 * @len: bytes to zero in all
 * @idx: segment index, from 0
 *
 * Return: bytes in segment @idx, 0 past the last segment.  Only the last
 * segment may be shorter than a page.
 */
uint32_t lbs_dio_zero_seg_len(uint32_t pshift, uint32_t len, uint32_t idx)
{
	uint64_t done = (uint64_t)idx << pshift;
	uint64_t psize = (uint64_t)1 << pshift;

	if (done >= len)
		return 0;
	return (uint32_t)LBS_MIN(psize, len - done);
}
