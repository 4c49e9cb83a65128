// SPDX-License-Identifier: GPL-2.0
/*
 * Buffered I/O: iomap_read_folio(), iomap_write_iter() with
 * __iomap_write_begin()/__iomap_write_end() (zero-around and copy-around
 * are around.c's), iomap_zero_range(), iomap_file_unshare(),
 * xfs_file_write_checks() and the mmap write path (iomap_page_mkwrite()).
 */
#define _GNU_SOURCE
#include "sim_int.h"

/*
 * iomap_read_folio() / iomap_readpage_iter(): read the units of @f that
 * are not uptodate, zeroing units over holes, unwritten and delalloc
 * space and units wholly past EOF.  Each block is one mapping, so a
 * large folio is filled in pieces; fault knob ra-whole-uptodate marks
 * the whole large folio uptodate after the first piece.
 */
void sim_read_folio(struct lbs_sim *s, struct folio *f)
{
	uint64_t fpos = fpos_of(s, f), fend = fend_of(s, f), p = fpos;
	uint32_t fshift = fshift_of(s, f);

	while (p < fend) {
		struct extent *e = ext_at(s, p);
		uint64_t bend = lbs_block_end(s->blkbits, p);
		uint64_t mend = bend < fend ? bend : fend;
		uint64_t q = p;
		uint32_t poff, plen;

		lbs_adjust_read_range(s->blkbits, fshift, fpos, s->isize,
				      f->ubits, &q, mend - p, &poff, &plen);
		if (plen) {
			if (!lbs_fill_from_source(e ? sim_map_type(e->state) :
						  LBS_MAP_HOLE, false, q,
						  s->isize))
				memset(f->data + poff, 0, plen);
			else
				sim_fill_from_disk(s, f, poff, plen);
			sim_set_range_uptodate(s, f, poff, plen);
			if (f->order &&
			    (s->inject & LBS_SIM_INJ_RA_WHOLE_UPTODATE))
				sim_set_range_uptodate(s, f, 0,
						       (uint32_t)fsize_of(s, f));
		}
		if (q + plen <= p)
			abort();	/* no progress: core contract broken */
		p = q + plen;
	}
}

/*
 * __iomap_write_begin() for [pos, pos+len) inside one folio and one
 * mapping of type @type (@is_new: just reserved by this write).
 * @unshare (IOMAP_UNSHARE): read even the units the range covers whole,
 * as nothing is copied over them.
 */
static void write_begin(struct lbs_sim *s, struct folio *f, uint64_t pos,
			uint64_t len, enum lbs_map_type type, bool is_new,
			bool unshare)
{
	uint64_t fpos = fpos_of(s, f), bstart, bend;
	uint32_t from = (uint32_t)(pos - fpos), to = from + (uint32_t)len;
	uint32_t fshift = fshift_of(s, f), poff, plen;

	if (folio_uptodate(f))
		return;
	lbs_pageblock_range(s->blkbits, fshift, pos, len, &bstart, &bend);
	do {
		lbs_adjust_read_range(s->blkbits, fshift, fpos, s->isize,
				      f->ubits, &bstart, bend - bstart, &poff,
				      &plen);
		if (plen == 0)
			break;
		if (!unshare && (from <= poff || from >= poff + plen) &&
		    (to <= poff || to >= poff + plen))
			continue;
		/* iomap_block_needs_zeroing() */
		if (!lbs_fill_from_source(type, is_new, bstart, s->isize)) {
			zero_segment(f, poff, from);
			zero_segment(f, to, poff + plen);
			if ((s->inject & LBS_SIM_INJ_MARK_PARTIAL_UPTODATE) ||
			    lbs_zero_may_mark_uptodate(poff, plen, from, to))
				sim_set_range_uptodate(s, f, poff, plen);
		} else {
			sim_fill_from_disk(s, f, poff, plen);
			sim_set_range_uptodate(s, f, poff, plen);
		}
	} while ((bstart += plen) < bend);
}

/* __iomap_write_end(): false if a short copy was rejected */
static bool write_end(struct lbs_sim *s, struct folio *f, uint64_t pos,
		      uint64_t len, uint64_t copied)
{
	if (copied < len && !folio_uptodate(f))
		return false;
	sim_set_range_uptodate(s, f, (uint32_t)(pos - fpos_of(s, f)),
			   (uint32_t)copied);
	if (copied) {
		fl_clear(f, F_ZEROED);	/* holds data now (for pictures) */
		f->za_bytes = 0;
	}
	sim_set_range_dirty(s, f, (uint32_t)(pos - fpos_of(s, f)),
			    (uint32_t)copied);
	fl_set(f, F_DIRTY);
	if (pos + copied > s->isize)
		s->isize = pos + copied;	/* i_size_write() */
	return true;
}

/*
 * iomap_write_failed() after a short copy, over everything this write
 * instantiated: truncate_pagecache_range() from max(i_size, start) to
 * the end, where start is the zero-around head (or the write) and the
 * end is the zero-around tail (or the write).  Zeroing lost with the
 * dropped pages leaves za_zeroed for za_truncated.  Fault knob
 * short-copy-keep skips this (the sim before: zeroed > minimum).
 */
static void write_failed(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	uint64_t lstart = s->isize > start ? s->isize : start;

	if (lstart >= end || (s->inject & LBS_SIM_INJ_SHORT_COPY_KEEP))
		return;
	/* pages wholly past the new EOF go; the EOF page stays, zeroed */
	for (uint64_t i = (lstart + s->ps - 1) >> s->pshift;
	     i < (end + s->ps - 1) >> s->pshift; i++) {
		struct folio *f = sim_folio_lookup(s, i);

		if (!f || f->index != i)
			continue;
		s->c.za_zeroed -= f->za_bytes;
		s->c.za_truncated += f->za_bytes;
	}
	sim_truncate_pages(s, lstart, end - 1);
}

/*
 * xfs_buffered_write_delalloc_punch() over [a, b): the blocks core's
 * lbs_settle_range() leaves once edge blocks with dirty pages outside
 * the range are taken out (6.1 rounded out and dropped the reservation
 * under them).  Fault knob punch-outward takes none out: 6.1's
 * xfs_buffered_write_delalloc_punch() rounding.
 */
static void punch_settled(struct lbs_sim *s, uint64_t a, uint64_t b)
{
	uint32_t busy = 0;
	uint64_t start, stop;

	if (!(s->inject & LBS_SIM_INJ_PUNCH_OUTWARD))
		busy = sim_busy_edges(s, a, b);
	if (!lbs_settle_range(s->blkbits, s->pshift, a, b, busy, &start,
			      &stop))
		return;
	for (uint64_t p = start; p < stop; p = lbs_block_end(s->blkbits, p))
		if (ext_at(s, p)->state == EXT_DELALLOC)
			sim_free_block(s, ext_at(s, p));
}

/*
 * xfs_buffered_write_iomap_end() -> iomap_file_buffered_write_punch_delalloc()
 * when a write reserved this block and copied nothing into it: punch
 * the ranges between the dirty folios inside EOF
 * (iomap_write_delalloc_release()), each through punch_settled().
 */
static void punch_new_delalloc(struct lbs_sim *s, uint64_t bstart)
{
	uint64_t bend = lbs_block_end(s->blkbits, bstart);
	uint64_t end = bend < s->isize ? bend : s->isize;
	uint64_t punch = bstart;

	for (uint64_t p = bstart; p < end;) {
		struct folio *f = sim_folio_lookup(s, p >> s->pshift);

		/* a dirty folio's clean units are punched too (patch 40) */
		if (f && (fl_get(f) & F_DIRTY) &&
		    unit_dirty(f, lbs_pageblock_index(s->blkbits, fshift_of(s, f),
						      (uint32_t)(p - fpos_of(s, f))))) {
			if (fpos_of(s, f) > punch)
				punch_settled(s, punch, fpos_of(s, f));
			punch = fend_of(s, f) < bend ? fend_of(s, f) : bend;
		}
		p = f ? fend_of(s, f) : ((p >> s->pshift) + 1) << s->pshift;
	}
	if (punch < bend)
		punch_settled(s, punch, bend);
}

/*
 * large_folios: iomap_write_begin() with the zero-around decision under
 * the folio lock.  The data folio for @pos is got (made as core says
 * when the block has none), locked and referenced; if it holds the
 * whole block nothing is zeroed around.  Otherwise it is unlocked, its
 * reference keeping the block in pages (no split, reclaim or
 * migration), zero-around runs, and after the relock the folio must
 * still be the mapping's (an invalidation ignores references), else the
 * folio is got again; the zero-around done stays (its pages are dirty).
 * Knob decide-before-lock decides on an unlocked look before
 * write_begin; knob no-recheck-after-relock writes into whatever it
 * relocked.  Returns the folio locked and referenced.
 */
static struct folio *lf_write_begin(struct lbs_sim *s, uint64_t pos,
				    uint64_t len, uint64_t wlen, bool want,
				    struct around_src *src,
				    uint64_t *istart, uint64_t *iend,
				    bool *za_ran)
{
	uint64_t idx = pos >> s->pshift;
	struct folio *f;

	*za_ran = false;
	if (s->inject & LBS_SIM_INJ_DECIDE_BEFORE_LOCK) {
		f = sim_folio_lookup(s, idx);
		*za_ran = want && !(f && sim_lf_covers(s, f, pos));
		sim_mm_point(s, SIM_MM_DECIDE, idx);
		sim_write_need(s, pos, src);	/* the mm event's state */
		if (*za_ran)
			sim_write_around(s, pos, pos + len, src, istart, iend);
	}
	for (;;) {
		f = sim_lf_write_folio(s, pos, wlen);
		sim_folio_lock(s, f);
		f->refs++;
		if ((s->inject & LBS_SIM_INJ_DECIDE_BEFORE_LOCK) || !want ||
		    sim_lf_covers(s, f, pos))
			return f;
		sim_folio_unlock(f);
		sim_mm_point(s, SIM_MM_DECIDE, idx);
		if (!*za_ran) {
			sim_write_need(s, pos, src);
			sim_write_around(s, pos, pos + len, src, istart, iend);
		}
		*za_ran = true;
		sim_folio_lock(s, f);
		if ((s->inject & LBS_SIM_INJ_NO_RECHECK) ||
		    sim_folio_mapped(s, f))
			return f;
		s->c.lf.retries++;
		sim_folio_unlock(f);
		sim_folio_put(s, f);
	}
}

static void lf_release(struct lbs_sim *s, struct folio **held)
{
	uint64_t last;

	if (!*held)
		return;
	last = flast_of(*held);
	/* the no-recheck-after-relock symptom: data the file never sees */
	if ((fl_get(*held) & F_DIRTY) && !sim_folio_mapped(s, *held) &&
	    !s->c.lf.orphan_writes++)
		s->c.lf.orphan_pos = fpos_of(s, *held);
	sim_folio_unlock(*held);
	sim_folio_put(s, *held);
	*held = NULL;
	/* the folio is the mm's again: between copies, between blocks */
	sim_mm_point(s, SIM_MM_COPY, last);
}

/*
 * The folio to copy page @p of the write into (large_folios): the one
 * held if it holds @p, else the next one got and locked.  Knob
 * step-by-page locks the held large folio again at each page, as a
 * loop stepping by PAGE_SIZE with the folios it met still locked does.
 */
static struct folio *lf_next(struct lbs_sim *s, struct folio **held,
			     uint64_t p, uint64_t wlen, bool first)
{
	struct folio *f = *held;

	if (f && p >> s->pshift <= flast_of(f)) {
		if (!first && (s->inject & LBS_SIM_INJ_STEP_BY_PAGE)) {
			sim_folio_lock(s, f);
			sim_folio_unlock(f);
		}
		return f;
	}
	lf_release(s, held);
	f = sim_lf_write_folio(s, p, wlen);
	sim_folio_lock(s, f);
	f->refs++;
	return *held = f;
}

/*
 * iomap_write_iter() over one mapping (one block): xfs iomap_begin,
 * zero-around, then per-page write_begin/copy/write_end (per folio with
 * large_folios: 6.6's chunked copies).  @wlen is what is left of the
 * whole write (the folio a write makes may hold its next blocks).  @buf
 * NULL writes zeroes (iomap_zero_iter).  Returns bytes written; *fault
 * set when the user copy faulted.
 */
static uint64_t write_block(struct lbs_sim *s, uint64_t pos, uint64_t len,
			    uint64_t wlen, const uint8_t *buf,
			    size_t *fault_left, bool *fault)
{
	uint64_t done = 0, bstart = lbs_block_start(s->blkbits, pos);
	uint64_t istart = pos, iend = pos + len;	/* instantiated */
	struct around_src src;
	struct folio *held = NULL;
	bool za_ran;

	if (!s->lf) {
		za_ran = sim_write_map(s, pos, pos + len, &src, &istart, &iend);
	} else {
		bool want = sim_write_reserve(s, pos, &src);

		held = lf_write_begin(s, pos, len, wlen, want, &src, &istart,
				      &iend, &za_ran);
		/* a block one large folio holds needs no zero-around at all:
		 * write_begin initialises it */
		if (held->order)
			src.need_mask = 0;
	}
	while (done < len) {
		uint64_t p = pos + done;
		struct folio *f = s->lf ? lf_next(s, &held, p, wlen - done,
						  !done) :
					  sim_folio_get(s, p >> s->pshift);
		/* iomap_write_iter() copies a page at a time, even into a
		 * large folio, but for 6.6's chunks with large_folios */
		uint64_t pend = ((p >> s->pshift) + 1) << s->pshift;
		uint64_t n, copied;

		if (s->lf && !(s->inject & LBS_SIM_INJ_STEP_BY_PAGE))
			pend = fend_of(s, f);
		n = len - done < pend - p ? len - done : pend - p;
		copied = n;
		if (*fault_left < n)
			copied = *fault_left;
retry:
		write_begin(s, f, p, n, src.type, src.is_new, false);
		if (buf)
			memcpy(f->data + (p - fpos_of(s, f)), buf + done,
			       copied);
		else
			memset(f->data + (p - fpos_of(s, f)), 0, copied);
		if (!write_end(s, f, p, n, copied)) {
			/* iomap_write_iter(): retry with what was copied;
			 * fault_in_iov_iter_readable() fails for 0 bytes */
			if (copied == 0) {
				*fault = true;
				break;
			}
			/* the retry's write_begin zeroes the uncopied rest
			 * of the unit, which zero-around left to the data */
			if (za_ran && !src.cow)
				sim_za_count(s, f, n - copied);
			n = copied;
			goto retry;
		}
		done += copied;
		*fault_left -= copied;
		if (copied < n) {
			*fault = true;
			break;
		}
	}
	lf_release(s, &held);
	sim_count_need(s, bstart, src.need_mask, pos, pos + done);
	if (!*fault)
		return done;
	if (za_ran && !(s->inject & LBS_SIM_INJ_SHORT_COPY_NO_FILL))
		sim_short_copy_fill(s, pos + done, pos + len, &src);
	write_failed(s, istart, iend);
	if (src.is_new && !done)
		punch_new_delalloc(s, bstart);
	return done;
}

/*
 * iomap_file_unshare() over [pos, end): each written block that the COW
 * fork covers or that is shared (xfs_buffered_write_iomap_begin() with
 * IOMAP_UNSHARE reserves its COW block) has its pages read from the data
 * fork and dirtied, so that writeback copies them to the COW block.
 * Holes and unwritten blocks are skipped.
 */
void sim_unshare_pages(struct lbs_sim *s, uint64_t pos, uint64_t end)
{
	while (pos < end) {
		uint64_t b = bno_of(s, pos);
		uint64_t bend = lbs_block_end(s->blkbits, pos);
		uint64_t n = (end < bend ? end : bend) - pos;

		if (s->ext[b].state == EXT_WRITTEN && sim_cow_begin(s, b)) {
			for (uint64_t p = pos; p < pos + n;) {
				struct folio *f = sim_folio_get(s,
							p >> s->pshift);
				uint64_t fe = fend_of(s, f) < pos + n ?
					      fend_of(s, f) : pos + n;

				write_begin(s, f, p, fe - p, LBS_MAP_MAPPED,
					    false, true);
				write_end(s, f, p, fe - p, fe - p);
				p = fe;
			}
		}
		pos += n;
	}
}

/* iomap_write_iter() over [pos, pos+len), one mapping (block) at a time */
static uint64_t buffered_write(struct lbs_sim *s, uint64_t pos, uint64_t len,
			       const uint8_t *buf, size_t fault_at)
{
	uint64_t done = 0;
	size_t left = fault_at;
	bool fault = false;

	while (done < len && !fault) {
		uint64_t p = pos + done;
		uint64_t bend = lbs_block_end(s->blkbits, p);
		uint64_t n = len - done < bend - p ? len - done : bend - p;

		done += write_block(s, p, n, len - done,
				    buf ? buf + done : NULL, &left, &fault);
	}
	return done;
}

/*
 * iomap_zero_range() for [pos, pos+len), with 6.12's handling of dirty
 * cache over unwritten/delalloc space (D5): such blocks are written back
 * first (converting them), then zeroed through the page cache.  Holes and
 * clean unwritten/delalloc space read as zeroes and are skipped.
 */
bool sim_zero_range(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t end = pos + len, p = pos;
	size_t nofault = SIZE_MAX;
	bool fault = false, did = false;

	while (p < end) {
		struct extent *e = ext_at(s, p);
		uint64_t bend = lbs_block_end(s->blkbits, p);
		uint64_t n = (end < bend ? end : bend) - p;
		uint64_t a, b;

		if (e->state == EXT_UNWRITTEN || e->state == EXT_DELALLOC) {
			lbs_flush_unmap_range(s->blkbits, s->pshift, p, n,
					      &a, &b);
			sim_write_and_wait(s, a, b);
		}
		if (e->state == EXT_WRITTEN) {
			write_block(s, p, n, n, NULL, &nofault, &fault);
			did = true;
		} else {
			/* zero clean cached pages of zero-reading space */
			uint64_t q = p;

			while (q < p + n) {
				struct folio *f = sim_folio_lookup(s, q >> s->pshift);
				uint64_t fpos, fe;

				if (!f) {	/* on to the next page */
					q = ((q >> s->pshift) + 1) << s->pshift;
					continue;
				}
				fpos = fpos_of(s, f);
				fe = fend_of(s, f) < p + n ? fend_of(s, f) : p + n;
				zero_segment(f, (uint32_t)(q - fpos),
					     (uint32_t)(fe - fpos));
				did = true;
				q = fe;
			}
		}
		p += n;
	}
	return did;
}

int64_t lbs_sim_read(struct lbs_sim *s, uint64_t pos, uint64_t len,
		     void *vbuf)
{
	uint8_t *buf = vbuf;
	uint64_t done = 0;

	if (pos >= s->isize)
		return 0;
	if (len > s->isize - pos)
		len = s->isize - pos;
	while (done < len) {
		uint64_t p = pos + done;
		struct folio *f = sim_folio_lookup(s, p >> s->pshift);
		uint64_t fpos, n;

		if (!f) {	/* page_cache_sync_readahead() */
			sim_readahead(s, p >> s->pshift,
				      (pos + len - 1) >> s->pshift);
			f = sim_folio_get(s, p >> s->pshift);
		}
		fpos = fpos_of(s, f);
		n = len - done < fend_of(s, f) - p ? len - done : fend_of(s, f) - p;
		if (!folio_uptodate(f))
			sim_read_folio(s, f);
		memcpy(buf + done, f->data + (p - fpos), n);
		done += n;
	}
	return (int64_t)done;
}

/*
 * xfs_file_write_checks(): zero from the old EOF up to the write.  Model
 * decision (D4): when that zeroed page cache, write it back before the
 * write can move i_disk_size past it (6.1 does not; xfs_setattr_size()
 * does the same with did_zeroing).  Otherwise writeback of the new data
 * alone, or an extending O_DIRECT write, exposes what the disk holds past
 * the old EOF, which at bs > ps includes never-written pages.
 */
void sim_write_checks(struct lbs_sim *s, uint64_t pos)
{
	uint64_t old = s->isize;

	if (pos > old && sim_zero_range(s, old, pos - old))
		sim_write_and_wait(s, old, pos - 1);
}

int64_t lbs_sim_write(struct lbs_sim *s, uint64_t pos, uint64_t len,
		      const void *buf, size_t fault_at)
{
	int err = check_range(s, pos, len);

	if (err)
		return err;
	if (!len)
		return 0;
	sim_write_checks(s, pos);
	len = buffered_write(s, pos, len, buf, fault_at);
	return len ? (int64_t)len : -EFAULT;
}

/*
 * large_folios: the fault holds a reference on its folio (no split,
 * reclaim or migration) until iomap_page_mkwrite() locks it and checks
 * that it is still the mapping's.
 */
static bool lf_mkwrite_lock(struct lbs_sim *s, struct folio *f)
{
	f->refs++;
	sim_mm_point(s, SIM_MM_MKWRITE, f->index);
	sim_folio_lock(s, f);
	if (sim_folio_mapped(s, f))
		return true;
	s->c.lf.retries++;
	sim_folio_unlock(f);
	sim_folio_put(s, f);
	return false;
}

/*
 * filemap_fault() + iomap_page_mkwrite() per page, then the user's
 * stores into the mapped page.
 */
int64_t lbs_sim_mmap_write(struct lbs_sim *s, uint64_t pos, uint64_t len,
			   const void *vbuf)
{
	const uint8_t *buf = vbuf;
	uint64_t done = 0;

	if (pos + len > s->isize || pos + len < pos)
		return -EINVAL;
	while (done < len) {
		uint64_t p = pos + done;
		struct folio *f = sim_folio_lookup(s, p >> s->pshift);
		uint64_t fpos, fend, mlen, n;
		uint64_t is, ie;
		uint32_t unit;
		struct around_src src;

		if (!f) {	/* filemap_fault(): do_sync_mmap_readahead() */
			sim_readahead(s, p >> s->pshift, p >> s->pshift);
			f = sim_folio_get(s, p >> s->pshift);
		}
		if (s->lf && !lf_mkwrite_lock(s, f))
			continue;	/* gone: fault again */
		fpos = fpos_of(s, f);
		fend = fend_of(s, f);
		mlen = (fend < s->isize ? fend : s->isize) - fpos;
		n = len - done < fend - p ? len - done : fend - p;
		unit = lbs_pageblock_size(s->blkbits, fshift_of(s, f));
		if (!folio_uptodate(f))
			sim_read_folio(s, f);		/* the fault */
		/* folio_mkwrite_check_truncate() -> @mlen; the iomap ops
		 * reserve delalloc over holes for the whole block, or COW
		 * fork space over a shared one */
		if (s->lf && f->order) {
			/* the folio holds its blocks whole: no zero-around */
			sim_write_reserve(s, fpos, &src);
			src.need_mask = 0;
		} else {
			sim_write_map(s, fpos, fpos + mlen, &src, &is, &ie);
		}
		sim_count_need(s, lbs_block_start(s->blkbits, fpos),
			       src.need_mask, fpos, fpos + mlen);
		/* bs < ps: every block under the folio gets a reservation */
		for (uint64_t q = fpos + unit; q < fpos + mlen; q += unit) {
			struct extent *e2 = ext_at(s, q);

			if (!sim_cow_begin(s, bno_of(s, q)) &&
			    e2->state == EXT_HOLE)
				e2->state = EXT_DELALLOC;
		}
		fl_clear(f, F_ZEROED);
		sim_folio_mark_dirty(s, f);	/* page_mkwrite */
		memcpy(f->data + (p - fpos), buf + done, n);
		done += n;
		if (s->lf) {
			sim_folio_unlock(f);
			sim_folio_put(s, f);
		}
	}
	return (int64_t)done;
}
