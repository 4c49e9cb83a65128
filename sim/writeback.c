// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback: ->writepages with core's block rounding, per-folio
 * writepage, ioend completion (unwritten conversion, i_disk_size), the
 * on-disk zeroing of the EOF block past the EOF page, flushes,
 * invalidation and fsync.
 */
#define _GNU_SOURCE
#include "sim_int.h"

/*
 * Model decision (D4 iii): the part of the EOF block past the EOF page
 * (core's post_eof range) is never instantiated by zero-around, so once
 * that block is written its on-disk bytes there must be zeroes, not
 * stale or truncated data: a later write into those pages stays in the
 * page cache while i_disk_size may move past them (ioend of a later
 * block, extending O_DIRECT write), and a crash would expose the disk.
 * Zero them on disk with a zero-page bio, like iomap_dio_zero().
 */
void sim_zero_post_eof_on_disk(struct lbs_sim *s, uint64_t eof)
{
	uint64_t ppos, plen, p;
	struct extent *e;
	bool cow;

	if (s->inject & LBS_SIM_INJ_NO_ZERO_AROUND)
		return;
	if (!lbs_post_eof_range(s->blkbits, s->pshift, eof, &ppos, &plen))
		return;
	e = ext_at(s, ppos);
	if (!e)
		return;
	/*
	 * A COW block about to replace the EOF block is zeroed first; a
	 * shared block is never written in place: its bytes past this
	 * file's EOF are other owners' data.
	 */
	cow = e->cow == EXT_WRITTEN;
	if (!cow && ((e->state != EXT_WRITTEN && e->state != EXT_UNWRITTEN) ||
		     ext_shared(s, e)))
		return;
	s->c.eof_zero_bios++;
	p = ppos;
	for (uint32_t i = 0; i < lbs_dio_zero_nr_segs(s->pshift,
						     (uint32_t)plen); i++) {
		uint32_t sl = lbs_dio_zero_seg_len(s->pshift, (uint32_t)plen,
						   i);

		memset(s->dev + (cow ? cow_addr(s, e, p) : dev_addr(s, e, p)),
		       0, sl);
		p += sl;
	}
}

struct ioend {
	uint64_t end;		/* end of the last byte range written */
	uint64_t *conv;		/* blocks written over unwritten extents
				   or to the COW fork */
	size_t nconv, cap;
};

static void ioend_add_conv(struct ioend *io, uint64_t b)
{
	if (io->nconv == io->cap) {
		io->cap = io->cap ? 2 * io->cap : 64;
		io->conv = realloc(io->conv, io->cap * sizeof(uint64_t));
		if (!io->conv)
			abort();
	}
	io->conv[io->nconv++] = b;
}

/*
 * iomap_do_writepage() + iomap_writepage_map() for one dirty folio: one
 * dirty bit, so every uptodate unit inside EOF is written, clean or not.
 */
static void writepage(struct lbs_sim *s, struct folio *f, struct ioend *io)
{
	uint64_t fpos = fpos_of(s, f), end_pos = fend_of(s, f);
	uint32_t unit = lbs_pageblock_size(s->blkbits, fshift_of(s, f));
	uint32_t u;

	fl_clear(f, F_DIRTY);		/* folio_clear_dirty_for_io() */
	if (fpos >= s->isize)
		return;			/* wholly past EOF: dropped */
	if (end_pos > s->isize) {	/* folio_zero_segment() past EOF */
		memset(f->data + (s->isize - fpos), 0, end_pos - s->isize);
		end_pos = s->isize;
	}
	fl_set(f, F_WRITEBACK);
	for (u = 0; u < f->nunits; u++) {
		uint64_t upos = fpos + (uint64_t)u * unit;
		struct extent *e;

		if (upos >= end_pos)
			break;
		if (f->ubits && !unit_uptodate(f, u))
			continue;
		e = ext_at(s, upos);
		if (e && e->cow != EXT_HOLE) {
			/* xfs_map_blocks(): the COW fork first; submission
			 * marks the COW block written (xfs_reflink_convert_cow) */
			if (e->cow == EXT_DELALLOC)
				sim_cow_convert_delalloc(s, bno_of(s, upos));
			memcpy(s->dev + cow_addr(s, e, upos),
			       f->data + u * unit, unit);
			s->c.dev_writes++;
			if (e->cow != EXT_WRITTEN) {
				e->cow = EXT_WRITTEN;
				ioend_add_conv(io, bno_of(s, upos));
			}
			if (upos + unit > io->end)
				io->end = upos + unit;
			continue;
		}
		if (!e || e->state == EXT_HOLE)
			continue;
		if (e->state == EXT_DELALLOC)
			sim_convert_delalloc(s, bno_of(s, upos));
		memcpy(s->dev + dev_addr(s, e, upos), f->data + u * unit,
		       unit);
		s->c.dev_writes++;
		if (e->state == EXT_UNWRITTEN)
			ioend_add_conv(io, bno_of(s, upos));
		if (upos + unit > io->end)
			io->end = upos + unit;
	}
	fl_clear(f, F_WRITEBACK);
}

/*
 * xfs_end_ioend(): remap written COW blocks whole (xfs_reflink_end_cow()
 * rounds the ioend out to blocks) or convert touched unwritten blocks
 * whole, each after the EOF block's post-EOF zeroing, then
 * xfs_setfilesize().
 */
static void ioend_complete(struct lbs_sim *s, struct ioend *io)
{
	if (io->nconv)
		sim_zero_post_eof_on_disk(s, s->isize);
	for (size_t i = 0; i < io->nconv; i++) {
		struct extent *e = &s->ext[io->conv[i]];

		if (e->cow == EXT_WRITTEN)
			sim_cow_remap(s, io->conv[i]);
		else if (e->state == EXT_UNWRITTEN)
			e->state = EXT_WRITTEN;
	}
	if (io->end) {
		uint64_t ns = io->end < s->isize ? io->end : s->isize;

		if (ns > s->disk_size)
			s->disk_size = ns;
	}
	free(io->conv);
	*io = (struct ioend){ 0 };
}

/*
 * xfs_vm_writepages() with the block rounding (lbs_wb_round) and
 * write_cache_pages().  @end is inclusive; INT64_MAX means to EOF.
 * WB_SYNC_NONE (@sync false) stops when nr_to_write runs out, but only
 * at the start of a block (lbs_wb_may_stop).  6.1's write_cache_pages()
 * counts nr_to_write down by one per folio, whatever its size.
 */
static int writepages(struct lbs_sim *s, uint64_t start, uint64_t end,
		      int64_t nr, bool sync)
{
	struct lbs_wb_range r = { start, end, nr, 0 };
	struct ioend io = { 0 };
	uint64_t idx, last, mi = max_index(s);
	int written = 0;
	bool round = !(s->inject & LBS_SIM_INJ_NO_WB_ROUND);

	if (end < start)
		return 0;
	if (round)
		lbs_wb_round(s->blkbits, s->pshift, start, end, nr, INT64_MAX,
			     &r);
	last = r.end >> s->pshift;
	if (last > mi)
		last = mi;
	s->c.wb_calls++;
	for (idx = r.start >> s->pshift; idx <= last; idx++) {
		struct folio *f = sim_folio_lookup(s, idx);

		if (!sync && r.nr_to_write <= 0 &&
		    (!round || lbs_wb_may_stop(s->blkbits, s->pshift, idx)))
			break;
		if (!f)
			continue;
		idx = flast_of(f);
		if (!(fl_get(f) & F_DIRTY))
			continue;
		writepage(s, f, &io);
		written++;
		r.nr_to_write--;
	}
	ioend_complete(s, &io);
	s->c.wb_folios += (uint64_t)written;
	s->c.wb_last_folios = (uint64_t)written;
	if ((uint64_t)written > s->c.wb_max_folios)
		s->c.wb_max_folios = (uint64_t)written;
	return written;
}

/* filemap_write_and_wait_range(), through ->writepages */
void sim_write_and_wait(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	writepages(s, start, end, INT64_MAX, true);
}

/*
 * invalidate_inode_pages2_range() over the pages of [start, end]: whole
 * folios, even those reaching outside it (clean after the flush).
 */
static void invalidate_range(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	uint64_t idx, last = end >> s->pshift, mi = max_index(s);

	if (last > mi)
		last = mi;
	for (idx = start >> s->pshift; idx <= last; idx++) {
		struct folio *f = sim_folio_lookup(s, idx);

		if (!f)
			continue;
		idx = flast_of(f);
		sim_folio_remove(s, f);
	}
}

/* xfs_flush_unmap_range(): flush, then truncate_pagecache_range() */
void sim_flush_unmap(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t a, b;

	if (!lbs_flush_unmap_range(s->blkbits, s->pshift, pos, len, &a, &b))
		return;
	sim_write_and_wait(s, a, b);
	sim_truncate_pages(s, a, b);
}

/*
 * __iomap_dio_rw() before a write: flush and invalidate, over the range
 * rounded as xfs_flush_unmap_range() does (model decision D7).
 */
void sim_dio_invalidate(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t a, b;

	if (!lbs_flush_unmap_range(s->blkbits, s->pshift, pos, len, &a, &b))
		return;
	sim_write_and_wait(s, a, b);
	invalidate_range(s, a, b);
}

int lbs_sim_fsync_range(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	uint64_t a = start, b = end;

	/* xfs_file_fsync(): the wait range is rounded too */
	if (!(s->inject & LBS_SIM_INJ_NO_WB_ROUND) &&
	    !lbs_round_range(s->blkbits, s->pshift, start, end, &a, &b))
		return 0;
	sim_write_and_wait(s, a, b);
	return 0;
}

int lbs_sim_fsync(struct lbs_sim *s)
{
	return lbs_sim_fsync_range(s, 0, INT64_MAX);
}

int lbs_sim_writeback_folio(struct lbs_sim *s, uint64_t pos)
{
	uint64_t idx = pos >> s->pshift;

	/* range_cyclic from writeback_index, rounded to its block */
	if (!(s->inject & LBS_SIM_INJ_NO_WB_ROUND))
		idx = lbs_wb_round_index(s->blkbits, s->pshift, idx);
	return writepages(s, idx << s->pshift, INT64_MAX, 1, false);
}
