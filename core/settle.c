// SPDX-License-Identifier: GPL-2.0
/*
 * When a block's mapping may change: the whole-block rule for I/O
 * completion and for punching delalloc reservations.
 *
 * With blocks larger than pages, a block's pages are written, failed or
 * abandoned one page at a time, but its mapping changes a block at a
 * time: unwritten conversion and COW remapping mark the whole block
 * written, a delalloc punch drops the whole block's reservation.  A block
 * whose pages are only partly covered by the range being completed or
 * punched may still have pages outside it whose data is not on disk yet:
 * dirty, or under writeback in another ioend (a flusher and an fsync can
 * each take half of a block).  Converting such a block on the first
 * completion exposes the disk's stale contents under the second half if
 * the machine crashes before that half lands; punching it drops the
 * reservation under dirty pages.  So an edge block is included only when
 * nothing outside the range is pending; whoever completes or punches the
 * last pending part includes it.  Blocks no larger than a page lie in one
 * page and are never split, so for them this is plain outward rounding.
 */
#include "lbs_iomap.h"
#include "lbs_util.h"

/**
 * lbs_settle_edges() - the pages of a range's edge blocks outside it
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @pos: start of the range (an ioend, a discarded folio, a punch)
 * @end: end of the range, exclusive, greater than @pos, at most 2^63
 * @head: returns the start of the block that holds @pos
 * @tail: returns the end of the block that holds @end - 1
 *
 * The caller checks the pages that hold no byte of [@pos, @end) in the
 * first and the last block, [@head, page start of @pos) and [page end of
 * @end, @tail), for data that has not reached the disk, and passes what
 * it finds to lbs_settle_range().  The pages are whole: a page that holds
 * a byte of the range is the range's own (an ioend ends in the EOF page,
 * past EOF).
 *
 * Return: %LBS_SETTLE_HEAD if the first block has such pages before the
 * range, %LBS_SETTLE_TAIL if the last block has such pages after it; 0
 * when blocks are no larger than pages or the range is page-aligned to
 * its blocks.
 */
uint32_t lbs_settle_edges(uint32_t blkbits, uint32_t pshift, uint64_t pos,
			  uint64_t end, uint64_t *head, uint64_t *tail)
{
	uint64_t page = (uint64_t)1 << pshift;
	uint32_t edges = 0;

	*head = lbs_block_start(blkbits, pos);
	*tail = lbs_block_end(blkbits, end - 1);
	if (*head < LBS_ROUND_DOWN(pos, page))
		edges |= LBS_SETTLE_HEAD;
	if (LBS_ROUND_UP(end, page) < *tail)
		edges |= LBS_SETTLE_TAIL;
	return edges;
}

/**
 * lbs_settle_range() - the blocks of a range whose mapping may change now
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @pos: start of the range
 * @end: end of the range, exclusive, at most 2^63
 * @busy: the edges (%LBS_SETTLE_HEAD, %LBS_SETTLE_TAIL, as returned by
 *	lbs_settle_edges()) whose pages outside the range hold data that is
 *	not on disk: dirty, locked or under writeback
 * @start: returns the first byte of the first block to convert or punch
 * @stop: returns the end of the last one, exclusive
 *
 * The range is rounded out to blocks, except that a busy edge block is
 * left out: the completion or the punch that covers its pending pages
 * includes it, once nothing else of it is pending.  Busy bits for edges
 * that lbs_settle_edges() did not report are ignored.
 *
 * Return: true if at least one block is left, with [*@start, *@stop)
 * block-aligned; false (and *@start == *@stop) if none is.
 */
bool lbs_settle_range(uint32_t blkbits, uint32_t pshift, uint64_t pos,
		      uint64_t end, uint32_t busy, uint64_t *start,
		      uint64_t *stop)
{
	uint64_t head, tail;
	uint32_t edges;

	if (end <= pos) {
		*start = pos;
		*stop = pos;
		return false;
	}
	edges = lbs_settle_edges(blkbits, pshift, pos, end, &head, &tail);
	busy &= edges;
	*start = head;
	*stop = tail;
	if (busy & LBS_SETTLE_HEAD)
		*start = lbs_block_end(blkbits, pos);
	if (busy & LBS_SETTLE_TAIL)
		*stop = lbs_block_start(blkbits, end - 1);
	if (*stop <= *start) {
		*stop = *start;
		return false;
	}
	return true;
}
