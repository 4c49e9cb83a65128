// SPDX-License-Identifier: GPL-2.0
/*
 * Decisions in units of the page cache tracking unit (core/lbs_pageblock.h)
 * that are not on every page's path.
 */
#include "lbs_iomap.h"
#include "lbs_util.h"

/**
 * lbs_truncate_page_len() - bytes iomap_truncate_page() zeroes at @pos
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @pos: the new EOF
 *
 * Zeroing stops at the end of the unit that holds @pos, i.e. at the end of
 * the EOF page when blocks are larger than pages.  Pages of the EOF block
 * past the EOF page are about to be dropped by truncate_setsize(), so
 * zeroing them would be lost; they lie wholly past EOF and are zeroed when
 * the file is extended again.
 *
 * Return: bytes to zero from @pos, 0 when @pos is unit aligned.
 */
uint32_t lbs_truncate_page_len(uint32_t blkbits, uint32_t pshift,
			       uint64_t pos)
{
	uint32_t unit = lbs_pageblock_size(blkbits, pshift);
	uint32_t off = (uint32_t)(pos & (unit - 1));

	return off ? unit - off : 0;
}

/**
 * lbs_zero_may_mark_uptodate() - may write_begin mark a zeroed unit uptodate
 * @poff: offset in the folio of the unit range being prepared
 * @plen: length of that range
 * @from: offset in the folio where the caller's data starts
 * @to: offset in the folio where the caller's data ends
 *
 * __iomap_write_begin() zeroes [@poff, @from) and [@to, @poff + @plen) of a
 * new or unwritten range and leaves [@from, @to) for the caller to fill.
 * Until that copy is done the range is only partly initialised: marking it
 * uptodate would let a short copy leave uninitialised bytes in an uptodate
 * folio, and would make zero-around, which skips uptodate folios, skip a
 * folio it still has to zero.  The range may be marked uptodate only when
 * no caller data falls inside it; otherwise ->write_end marks it once the
 * copy has completed.
 *
 * Return: true if [@poff, @poff + @plen) is fully initialised by zeroing.
 */
bool lbs_zero_may_mark_uptodate(uint32_t poff, uint32_t plen,
				uint32_t from, uint32_t to)
{
	return from >= to || to <= poff || from >= poff + plen;
}
