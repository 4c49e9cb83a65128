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

/*
 * An ioend: a contiguous run of units written to one place, as
 * iomap_can_add_to_ioend() allows.  One that is in flight (the second
 * half of a split block, see lbs_sim_writeback_split()) keeps its data
 * off the device and its folios under writeback until it completes.
 */
struct sim_ioend {
	uint64_t start, end;	/* units written: [start, end) */
	uint64_t *conv;		/* blocks written over unwritten extents
				   or to the COW fork */
	size_t nconv, cap;
	bool inflight;
	struct pend {
		uint64_t dev;	/* device offset */
		uint64_t idx;	/* page index, under writeback */
		uint8_t *data;
		uint32_t len;
	} *pend;
	size_t npend, pcap;
};

static void *grow(void *p, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	p = realloc(p, *cap * sz);
	if (!p)
		abort();
	return p;
}

static void ioend_add_conv(struct sim_ioend *io, uint64_t b)
{
	if (io->nconv && io->conv[io->nconv - 1] == b)
		return;
	io->conv = grow(io->conv, &io->cap, io->nconv, sizeof(uint64_t));
	io->conv[io->nconv++] = b;
}

static void ioend_complete(struct lbs_sim *s, struct sim_ioend *io);

/* a unit joins the ioend, or ends it and starts the next one */
static void ioend_add(struct lbs_sim *s, struct sim_ioend *io, uint64_t upos,
		      uint32_t unit)
{
	if (io->end && upos != io->end && !io->inflight)
		ioend_complete(s, io);
	if (!io->end)
		io->start = upos;
	io->end = upos + unit;
}

/* the unit's bytes reach the device now, or at completion */
static void ioend_write(struct lbs_sim *s, struct sim_ioend *io,
			uint64_t dev, const struct folio *f, const uint8_t *src,
			uint32_t len)
{
	s->c.dev_writes++;
	if (!io->inflight) {
		memcpy(s->dev + dev, src, len);
		return;
	}
	io->pend = grow(io->pend, &io->pcap, io->npend, sizeof(*io->pend));
	io->pend[io->npend] = (struct pend){ dev, f->index, malloc(len), len };
	if (!io->pend[io->npend].data)
		abort();
	memcpy(io->pend[io->npend++].data, src, len);
}

/* writeback skips @len bytes at @off of dirty folio @f: over a hole */
static void hole_dirty(struct lbs_sim *s, const struct folio *f, uint32_t off,
		       uint32_t len)
{
	if (!s->c.wb_hole_bytes)
		s->c.wb_hole_first = fpos_of(s, f) + off;
	s->c.wb_hole_bytes += len;
	for (uint32_t i = off; i < off + len; i++)
		s->c.wb_hole_data += f->data[i] != 0;
}

/*
 * A block of a large folio that holds several (large_folios) may be
 * clean under the folio's one dirty bit, over a hole it read as zeroes:
 * skipping it loses nothing unless it holds other bytes.
 */
static bool unit_holds_data(const struct folio *f, uint32_t u, uint32_t unit)
{
	for (uint32_t i = u * unit; i < (u + 1) * unit; i++)
		if (f->data[i])
			return true;
	return false;
}

/*
 * iomap_do_writepage() + iomap_writepage_map() for one dirty folio: every
 * dirty unit inside EOF is written (series patch 40; a folio of one unit
 * has its folio's bit), then every unit's dirty bit is cleared.
 */
static void writepage(struct lbs_sim *s, struct folio *f, struct sim_ioend *io)
{
	uint64_t fpos = fpos_of(s, f), end_pos = fend_of(s, f);
	uint32_t unit = lbs_pageblock_size(s->blkbits, fshift_of(s, f));
	uint32_t u;

	fl_clear(f, F_DIRTY);		/* folio_clear_dirty_for_io() */
	if (fpos >= s->isize) {		/* wholly past EOF: dropped */
		sim_clear_units_dirty(f);
		return;
	}
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
		if (f->ubits && (!unit_uptodate(f, u) ||
				 (!unit_dirty(f, u) &&
				  !(s->inject & LBS_SIM_INJ_FOLIO_DIRTY_WHOLE))))
			continue;
		e = ext_at(s, upos);
		if (e && e->cow != EXT_HOLE) {
			/* xfs_map_blocks(): the COW fork first; submission
			 * marks the COW block written (xfs_reflink_convert_cow) */
			if (e->cow == EXT_DELALLOC)
				sim_cow_convert_delalloc(s, bno_of(s, upos));
			ioend_add(s, io, upos, unit);
			ioend_write(s, io, cow_addr(s, e, upos), f,
				    f->data + u * unit, unit);
			/* every ioend over a COW block remaps it
			 * (xfs_reflink_end_cow() over the ioend's range) */
			e->cow = EXT_WRITTEN;
			ioend_add_conv(io, bno_of(s, upos));
			continue;
		}
		if (!e || e->state == EXT_HOLE) {
			/*
			 * iomap_writepage_map() skips IOMAP_HOLE.  At bs > ps
			 * a folio is one page of one block and is dirtied for
			 * that block alone, which had a reservation then: a
			 * hole here means the block lost it under dirty pages
			 * (fault knob punch-outward), and the page's bytes
			 * never reach the disk.  (At bs <= ps one dirty bit
			 * also covers clean blocks of the folio, or of the
			 * large folio it was split from, which may lie over
			 * holes.)
			 */
			if (s->bs > s->ps && (f->nunits == 1 ||
					     unit_holds_data(f, u, unit)))
				hole_dirty(s, f, u * unit,
					   end_pos - upos < unit ?
					   (uint32_t)(end_pos - upos) : unit);
			continue;
		}
		if (e->state == EXT_DELALLOC)
			sim_convert_delalloc(s, bno_of(s, upos));
		if (ext_shared(s, e)) {	/* no COW block: in place */
			if (!s->c.wb_shared_inplace)
				s->c.wb_shared_first = upos;
			s->c.wb_shared_inplace++;
		}
		ioend_add(s, io, upos, unit);
		ioend_write(s, io, dev_addr(s, e, upos), f, f->data + u * unit,
			    unit);
		if (e->state == EXT_UNWRITTEN)
			ioend_add_conv(io, bno_of(s, upos));
	}
	sim_clear_units_dirty(f);
	if (!io->inflight)
		fl_clear(f, F_WRITEBACK);
}

/* a page of [start, end) holds data not on disk: dirty or under writeback */
static bool range_pending(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	for (uint64_t idx = start >> s->pshift; idx < end >> s->pshift; idx++) {
		struct folio *f = sim_folio_lookup(s, idx);

		if (f && (fl_get(f) & (F_DIRTY | F_WRITEBACK)))
			return true;
	}
	return false;
}

/*
 * Which edge blocks of [pos, end) have pages outside it still pending,
 * as filemap_range_has_writeback() tells the kernel.  Fault knob
 * ioend-early reports none: the first ioend to complete converts or
 * remaps a split block whole, as 6.1 does.
 */
uint32_t sim_busy_edges(struct lbs_sim *s, uint64_t pos, uint64_t end)
{
	uint64_t head, tail;
	uint32_t edges, busy = 0;

	if (end <= pos)
		return 0;
	edges = lbs_settle_edges(s->blkbits, s->pshift, pos, end, &head,
				 &tail);
	if ((edges & LBS_SETTLE_HEAD) && range_pending(s, head, pos))
		busy |= LBS_SETTLE_HEAD;
	if ((edges & LBS_SETTLE_TAIL) && range_pending(s, end, tail))
		busy |= LBS_SETTLE_TAIL;
	return busy;
}

/*
 * xfs_end_ioend(): the in-flight data lands, then the written COW blocks
 * are remapped and the unwritten ones converted, whole, each after the
 * EOF block's post-EOF zeroing, then xfs_setfilesize().  Only the blocks
 * core's lbs_settle_range() gives are remapped or converted: an edge
 * block with pages pending in another ioend waits for that ioend.
 */
static void ioend_complete(struct lbs_sim *s, struct sim_ioend *io)
{
	uint64_t a = 0, b = 0;
	uint32_t busy = 0;

	for (size_t i = 0; i < io->npend; i++) {
		struct folio *f = sim_folio_lookup(s, io->pend[i].idx);

		memcpy(s->dev + io->pend[i].dev, io->pend[i].data,
		       io->pend[i].len);
		free(io->pend[i].data);
		if (f)
			fl_clear(f, F_WRITEBACK);
	}
	if (!(s->inject & LBS_SIM_INJ_IOEND_EARLY))
		busy = sim_busy_edges(s, io->start, io->end);
	lbs_settle_range(s->blkbits, s->pshift, io->start, io->end, busy, &a,
			 &b);
	if (io->nconv)
		sim_zero_post_eof_on_disk(s, s->isize);
	for (size_t i = 0; i < io->nconv; i++) {
		struct extent *e = &s->ext[io->conv[i]];
		uint64_t bpos = bpos_of(s, io->conv[i]);

		if (bpos < a || bpos >= b) {
			s->c.ioend_waits++;
			continue;	/* the other ioend's completion */
		}
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
	free(io->pend);
	*io = (struct sim_ioend){ 0 };
}

/* an in-flight ioend completes (before the next operation) */
void lbs_sim_settle(struct lbs_sim *s)
{
	if (!s->inflight)
		return;
	/* between submission and completion: its folios are under
	 * writeback, which every mm event must respect */
	if (s->inflight->npend)
		sim_mm_point(s, SIM_MM_IOEND, s->inflight->pend[0].idx);
	ioend_complete(s, s->inflight);
	free(s->inflight);
	s->inflight = NULL;
}

/* a power cut: the in-flight data never reaches the device */
void sim_ioend_drop(struct lbs_sim *s)
{
	struct sim_ioend *io = s->inflight;

	if (!io)
		return;
	for (size_t i = 0; i < io->npend; i++)
		free(io->pend[i].data);
	free(io->pend);
	free(io->conv);
	free(io);
	s->inflight = NULL;
}

/*
 * xfs_vm_writepages() with the block rounding (lbs_wb_round) and
 * write_cache_pages().  @end is inclusive; INT64_MAX means to EOF.
 * WB_SYNC_NONE (@sync false) stops when nr_to_write runs out, but only
 * at the start of a block (lbs_wb_may_stop).  write_cache_pages()
 * charges every page of a folio to nr_to_write (patch 35, as 6.3 does;
 * 6.1 charged one per folio, whatever its size).
 */
static int writepages(struct lbs_sim *s, uint64_t start, uint64_t end,
		      int64_t nr, bool sync, uint64_t split)
{
	struct lbs_wb_range r = { start, end, nr, 0 };
	struct sim_ioend io = { 0 }, *cur = &io;
	uint64_t idx, last, mi = max_index(s);
	int written = 0;
	bool round = !(s->inject & LBS_SIM_INJ_NO_WB_ROUND);

	if (end < start)
		return 0;
	lbs_sim_settle(s);
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
		if (idx == split && cur == &io) {
			/* another writeback context takes the rest */
			cur = calloc(1, sizeof(*cur));
			if (!cur)
				abort();
			cur->inflight = true;
			s->c.ioend_splits++;
		}
		if (!f)
			continue;
		idx = flast_of(f);
		if (!(fl_get(f) & F_DIRTY))
			continue;
		writepage(s, f, cur);
		written++;
		r.nr_to_write -= (int64_t)1 << f->order;
	}
	ioend_complete(s, &io);
	if (cur != &io)
		s->inflight = cur;
	s->c.wb_folios += (uint64_t)written;
	s->c.wb_last_folios = (uint64_t)written;
	if ((uint64_t)written > s->c.wb_max_folios)
		s->c.wb_max_folios = (uint64_t)written;
	return written;
}

/* filemap_write_and_wait_range(), through ->writepages */
void sim_write_and_wait(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	writepages(s, start, end, INT64_MAX, true, UINT64_MAX);
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
 * __iomap_dio_rw() before a read: write back and wait for whole blocks
 * (series patch 28), so the read never finds a block between the
 * completions of two ioends that write it.
 */
void sim_dio_flush_read(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t a, b;

	if (lbs_flush_unmap_range(s->blkbits, s->pshift, pos, len, &a, &b))
		sim_write_and_wait(s, a, b);
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
	return writepages(s, idx << s->pshift, INT64_MAX, 1, false,
			  UINT64_MAX);
}

/*
 * Background writeback of the block that holds @pos, while a second
 * writeback context (an fsync racing the flusher) takes the block's pages
 * from the one holding @pos on: two ioends over one block.  The first
 * completes now; the second stays in flight, its data off the device,
 * until lbs_sim_settle() (before the next operation) or a crash.
 */
int lbs_sim_writeback_split(struct lbs_sim *s, uint64_t pos)
{
	uint64_t idx = pos >> s->pshift, first = idx;

	if (s->inject & LBS_SIM_INJ_NO_WB_ROUND)
		return lbs_sim_writeback_folio(s, pos);
	first = lbs_wb_round_index(s->blkbits, s->pshift, idx);
	return writepages(s, first << s->pshift, INT64_MAX, 1, false,
			  idx == first ? UINT64_MAX : idx);
}
