// SPDX-License-Identifier: GPL-2.0
/*
 * Folio orders when blocks may be larger than pages: bimodal folios.
 *
 * Zero-around makes a block correct over order-0 pages; a folio of at
 * least a block holds the block whole and needs none of it.  Both may
 * serve one mapping, but never one block: every folio of a mapping whose
 * blocks are larger than pages is of order 0 or of order m or more,
 * m = max(block order, 2), where the block order is log2 of the pages in
 * a block.  Page cache folios are naturally aligned (__filemap_add_folio()
 * refuses an index that is not a multiple of the folio's pages), so a
 * folio of order m or more holds whole blocks and one of order 0 lies in
 * one block: a block is covered by one large folio or by pages only.
 *
 * The 2 is 6.1's: a large folio keeps its deferred split list in its third
 * page, so __folio_alloc() prepares folios above order 1 only and
 * page_cache_ra_order() turns order 1 into order 0.  6.1 splits a file
 * folio to order 0 only, which keeps the rule.  With blocks no larger
 * than pages m is 0 and every function here gives 6.1's own answer.
 */
#include "lbs_folio.h"
#include "lbs_util.h"

/*
 * The smallest order a large folio may have: the block's pages, and never
 * below 2 (6.1 has no order-1 file folios, whatever the block size).
 */
static uint32_t lbs_folio_large_min(uint32_t blkbits, uint32_t pshift)
{
	uint32_t border = blkbits > pshift ? blkbits - pshift : 0;

	return LBS_MAX(border, 2U);
}

/**
 * lbs_folio_min_order() - the smallest order of a large folio for a mapping
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 *
 * A folio of this order, naturally aligned, holds whole blocks.  Order 1
 * would be enough for a block of two pages, but 6.1 cannot make order-1
 * file folios, so an 8k block on 4k pages gets order 2 (two blocks).
 *
 * Return: 0 if a block fits in a page (no minimum beyond 6.1's own),
 * otherwise max(@blkbits - @pshift, 2).
 */
uint32_t lbs_folio_min_order(uint32_t blkbits, uint32_t pshift)
{
	if (blkbits <= pshift)
		return 0;
	return lbs_folio_large_min(blkbits, pshift);
}

/**
 * lbs_folio_order_ok() - may a folio of this order be in the mapping
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @order: the folio's order
 *
 * The bimodal rule: order 0, or an order that holds a whole block and is
 * not 1.  Orders between 1 and the block order would put part of a block
 * in one folio and the rest elsewhere: the block would be neither whole
 * in one folio nor made of pages that zero-around handles.
 *
 * Return: true if @order is 0 or at least max(block order, 2).
 */
bool lbs_folio_order_ok(uint32_t blkbits, uint32_t pshift, uint32_t order)
{
	return order == 0 || order >= lbs_folio_large_min(blkbits, pshift);
}

/**
 * lbs_ra_start_order() - the order page_cache_ra_order() aims for
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @new_order: the order it was called with (the readahead folio's order,
 *	or HPAGE_PMD_ORDER for a huge page fault); at most @max_order
 * @ra_size: the readahead window in pages (ra->size)
 * @max_order: MAX_PAGECACHE_ORDER, at most 31
 *
 * 6.1 ramps the order up by 2 on each readahead round, to at most
 * @max_order and the largest power of two of pages in the window; it
 * falls back to order-0 pages when the window has fewer than 4 pages.
 * The ramp starts from the order of the folio that carried the readahead
 * mark, so a mapping whose large folios must hold a block would never get
 * there if orders below m simply became 0: the next round would start
 * from order 0 again and ramp to 2.  So an order below m is raised to m
 * when the window holds m's pages (and m is allowed at all), otherwise
 * the round falls back to order 0.
 *
 * Return: the order to start the window with, 0 or at least
 * lbs_folio_min_order(); 0 means 6.1's order-0 fallback,
 * do_page_cache_ra().
 */
uint32_t lbs_ra_start_order(uint32_t blkbits, uint32_t pshift,
			    uint32_t new_order, uint32_t ra_size,
			    uint32_t max_order)
{
	uint32_t m = lbs_folio_min_order(blkbits, pshift);
	uint32_t order = new_order;

	if (ra_size < 4)
		return 0;
	if (order < max_order) {
		order = LBS_MIN(order + 2, max_order);
		while (((uint64_t)1 << order) > ra_size)
			order--;
	}
	if (lbs_folio_order_ok(blkbits, pshift, order))
		return order;
	if (m && m <= max_order && ((uint64_t)1 << m) <= ra_size)
		return m;
	return 0;
}

/**
 * lbs_ra_folio_order() - the order of the next folio in a readahead window
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @index: the folio's first page index
 * @limit: the last page index the window may read (the window's end or
 *	the EOF page, whichever comes first); @index <= @limit < 2^(63 -
 *	@pshift)
 * @new_order: the window's order, from lbs_ra_start_order(), at most 31
 *
 * 6.1's loop in page_cache_ra_order() takes @new_order, lowers it to the
 * alignment of @index (__ffs()) and then while the folio would pass
 * @limit, turning order 1 into 0 each time.  The rule adds one step: an
 * order below m becomes 0, so the window's first and last partial blocks
 * are read as pages.  The index of a large folio is therefore aligned to
 * its order, at least 2^m pages.
 *
 * Return: the largest order at most @new_order whose folio at @index is
 * aligned and ends by @limit, or 0 if that order is 1 or below m.
 */
uint32_t lbs_ra_folio_order(uint32_t blkbits, uint32_t pshift,
			    uint64_t index, uint64_t limit, uint32_t new_order)
{
	uint32_t order = new_order;

	while (order && ((index & (((uint64_t)1 << order) - 1)) ||
			 index + ((uint64_t)1 << order) - 1 > limit))
		order--;
	if (!lbs_folio_order_ok(blkbits, pshift, order))
		return 0;
	return order;
}

/**
 * lbs_write_folio() - the folio a buffered write into an empty block makes
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @pos: the write's position
 * @len: its length, at least 1; @pos + @len at most 2^63
 * @max_order: the largest order the mapping may use (MAX_PAGECACHE_ORDER;
 *	0 without large folios), at most 31
 * @index: returns the folio's first page index
 * @order: returns the folio's order
 *
 * For a write into a block that has no folio.  With blocks larger than
 * pages the folio holds the write's first block: its index is the block's
 * first page rounded down to 2^m pages, its order at least m.  A write
 * over several blocks gets the largest naturally aligned folio that holds
 * @pos and no block the write does not touch, up to @max_order; the rest
 * of the write makes its own folios in later steps.  The order is rounded
 * down, as 6.6's iomap does (fgf_set_order() takes ilog2() of the length
 * and __filemap_get_folio() only lowers the order to align the index):
 * a folio rounded up would hold blocks the write does not touch, each one
 * read from disk (or zeroed) under the folio lock first, written back
 * whole with the folio (6.1 has no per-block dirty state), and more
 * likely to meet pages already cached for them (-EEXIST).  Unlike 6.6 and
 * 6.12, which take ilog2() of the length alone, the write's blocks
 * decide: a write from mid-block to the end of an aligned 64k run gets one
 * 64k folio, not 32k and then 32k.
 *
 * Blocks no larger than pages, or m above @max_order: 6.1's order-0 page
 * at @pos.  A folio of any other order the caller falls back to (see
 * lbs_folio_order_fallback()) is at @pos's page index rounded down to
 * 2^order.
 */
void lbs_write_folio(uint32_t blkbits, uint32_t pshift, uint64_t pos,
		     uint64_t len, uint32_t max_order, uint64_t *index,
		     uint32_t *order)
{
	uint32_t m = lbs_folio_min_order(blkbits, pshift);
	uint64_t unit, first, end, next;

	*index = pos >> pshift;
	*order = 0;
	if (!m || m > max_order)
		return;
	/* the write's blocks, in units of the smallest large folio */
	unit = (uint64_t)1 << (m + pshift);
	first = LBS_ROUND_DOWN(pos, unit);
	end = LBS_ROUND_UP(pos + len, unit);
	*order = m;
	/* double while the larger folio starts there and ends by the write */
	for (next = unit << 1; *order < max_order; next <<= 1) {
		if ((first & (next - 1)) || first + next > end)
			break;
		(*order)++;
	}
	*index = first >> pshift;
}

/**
 * lbs_folio_order_fallback() - the order to try after an allocation failed
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @order: the order that could not be allocated or inserted
 * @next: returns the order to try next
 *
 * Large folios are allocated with __GFP_NORETRY | __GFP_NOWARN: when
 * memory is fragmented the allocation fails fast, and the write goes on
 * one order lower, as 6.6's __filemap_get_folio() does, down to m; below
 * m it goes straight to order 0, pages with zero-around, never to an
 * order between 1 and m - 1.  The folio of the new order is at the
 * write's page index rounded down to 2^order (order 0: the write's page).
 *
 * Return: false if @order is 0 (nothing smaller; the error stands), else
 * true with *@next the next order, 0 or at least max(block order, 2).
 */
bool lbs_folio_order_fallback(uint32_t blkbits, uint32_t pshift,
			      uint32_t order, uint32_t *next)
{
	*next = 0;
	if (!order)
		return false;
	if (lbs_folio_order_ok(blkbits, pshift, order - 1))
		*next = order - 1;
	return true;
}
