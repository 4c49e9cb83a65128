/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit of page cache state when blocks may be larger than folios.
 *
 * A folio tracks its contents in "pageblocks": the fs block when blocks are
 * smaller than the folio, otherwise the whole folio.  A folio therefore
 * holds at least one unit, which keeps the unit count safe as a divisor
 * and as a loop bound.
 *
 * These run for every page a buffered write or writeback touches, so they
 * are inline: out of line, the calls alone cost a 4k-block write more
 * instructions than the arithmetic they do.
 */
#ifndef LBS_PAGEBLOCK_H
#define LBS_PAGEBLOCK_H

#include <stdint.h>
#include <stdbool.h>
#include "lbs_util.h"

/**
 * lbs_pageblock_bits() - log2 of the page cache tracking unit
 * @blkbits: log2 of the filesystem block size
 * @fshift: log2 of the folio (or page) size
 *
 * Return: min(@blkbits, @fshift).
 */
static inline uint32_t lbs_pageblock_bits(uint32_t blkbits, uint32_t fshift)
{
	return LBS_MIN(blkbits, fshift);
}

/**
 * lbs_pageblock_size() - bytes in the page cache tracking unit
 * @blkbits: log2 of the filesystem block size
 * @fshift: log2 of the folio (or page) size
 *
 * Return: min(block size, folio size).
 */
static inline uint32_t lbs_pageblock_size(uint32_t blkbits, uint32_t fshift)
{
	return 1U << lbs_pageblock_bits(blkbits, fshift);
}

/**
 * lbs_units_per_folio() - tracking units in one folio
 * @blkbits: log2 of the filesystem block size
 * @fshift: log2 of the folio (or page) size
 *
 * Unlike i_blocks_per_folio(), which is 0 when a block is larger than the
 * folio, this is never less than one.  A folio needs per-unit state only
 * when it holds more than one unit.
 *
 * Return: folio size / min(block size, folio size).
 */
static inline uint32_t lbs_units_per_folio(uint32_t blkbits, uint32_t fshift)
{
	return 1U << (fshift - lbs_pageblock_bits(blkbits, fshift));
}

/**
 * lbs_pageblock_index() - the tracking unit that holds a byte of a folio
 * @blkbits: log2 of the filesystem block size
 * @fshift: log2 of the folio size
 * @off: offset of the byte in the folio, less than the folio size
 *
 * A folio's per-unit uptodate bitmap has lbs_units_per_folio() bits, one
 * per unit of lbs_pageblock_size(), and this is the bit for byte @off: the
 * one iomap_set_range_uptodate() sets and iomap_adjust_read_range() tests.
 * 6.1 computes it as off >> i_blkbits when blocks are smaller than the
 * folio; when a block covers the folio there is no bitmap and the folio is
 * its one unit, 0.  Shifting by the unit gives both, and because @off lies
 * in the folio it always equals off >> @blkbits, so the bits stay where
 * 6.1 puts them.  Callers ask here instead of shifting by hand, so that
 * the unit is defined once, with the bitmap it indexes.  The units of an
 * in-folio range [off, off + len), len >= 1, run from the unit of @off to
 * the unit of off + len - 1.
 *
 * Return: the index of the unit holding @off, below lbs_units_per_folio().
 */
static inline uint32_t lbs_pageblock_index(uint32_t blkbits,
					   uint32_t fshift, uint64_t off)
{
	return (uint32_t)(off >> lbs_pageblock_bits(blkbits, fshift));
}

/**
 * lbs_pageblock_range() - round a byte range out to tracking units
 * @blkbits: log2 of the filesystem block size
 * @fshift: log2 of the folio (or page) size
 * @pos: start of the range
 * @len: length of the range
 * @start: returns the start rounded down to a unit
 * @end: returns the end (exclusive) rounded up to a unit
 *
 * This is the range __iomap_write_begin() must read or zero: whole units
 * of the folio it works on, never bytes outside that folio.
 */
static inline void lbs_pageblock_range(uint32_t blkbits, uint32_t fshift,
				       uint64_t pos, uint64_t len,
				       uint64_t *start, uint64_t *end)
{
	uint64_t unit = lbs_pageblock_size(blkbits, fshift);

	*start = LBS_ROUND_DOWN(pos, unit);
	*end = LBS_ROUND_UP(pos + len, unit);
}

/**
 * lbs_adjust_read_range() - clip a folio read to the units that need it
 * @blkbits: log2 of the filesystem block size
 * @fshift: log2 of the folio size
 * @folio_pos: file offset of the folio
 * @isize: file size
 * @uptodate: per-unit uptodate bitmap, or NULL if the folio has none
 * @pos: in: file offset of the read, inside the folio and aligned to a
 *	unit, as every caller's block_start is; out: advanced past leading
 *	units that are already uptodate
 * @length: bytes wanted from @pos; 0 reads nothing
 * @offp: returns the offset in the folio to read from
 * @lenp: returns the bytes to read (0: nothing to read)
 *
 * This is iomap_adjust_read_range() in pageblock units.  Leading and
 * trailing uptodate units are skipped.  When the range spans EOF, the
 * units wholly past EOF are cut off so the caller zeroes them instead of
 * reading them.  When a block is larger than the folio the folio is one
 * unit and is read whole.
 */
static inline void lbs_adjust_read_range(uint32_t blkbits, uint32_t fshift,
					 uint64_t folio_pos, uint64_t isize,
					 const unsigned long *uptodate,
					 uint64_t *pos, uint64_t length,
					 uint32_t *offp, uint32_t *lenp)
{
	uint32_t bits = lbs_pageblock_bits(blkbits, fshift);
	uint32_t unit = 1U << bits;
	uint64_t fsize = (uint64_t)1 << fshift;
	uint64_t orig_pos = *pos;
	uint32_t poff = (uint32_t)(*pos - folio_pos);
	uint32_t plen = (uint32_t)LBS_MIN(fsize - poff, length);
	uint32_t first = poff >> bits;
	uint32_t last = (poff + plen - 1) >> bits;
	uint32_t i;

	if (!plen) {
		*offp = poff;
		*lenp = 0;
		return;
	}

	if (uptodate) {
		/* move forward for each leading unit marked uptodate */
		for (i = first; i <= last; i++) {
			if (!LBS_TEST_BIT(i, uptodate))
				break;
			*pos += unit;
			poff += unit;
			plen -= unit;
			first++;
		}

		/* truncate len at the first trailing uptodate unit */
		for ( ; i <= last; i++) {
			if (LBS_TEST_BIT(i, uptodate)) {
				plen -= (last - i + 1) * unit;
				last = i - 1;
				break;
			}
		}
	}

	/*
	 * If the range spans the unit that holds EOF, leave the units wholly
	 * past EOF to the caller, which zeroes them.  Like offset_in_folio(),
	 * the EOF offset is taken modulo the folio size.
	 */
	if (orig_pos <= isize && orig_pos + length > isize &&
	    isize < folio_pos + fsize) {
		uint32_t end = (uint32_t)((isize - 1) & (fsize - 1)) >> bits;

		if (first <= end && last > end)
			plen -= (last - end) * unit;
	}

	*offp = poff;
	*lenp = plen;
}

#endif /* LBS_PAGEBLOCK_H */
