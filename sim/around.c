// SPDX-License-Identifier: GPL-2.0
/*
 * Around a buffered write or a page fault into a block larger than a
 * page: zero-around (blocks not initialised on disk) and copy-around (COW
 * blocks, filled from the data fork), the fill after a short copy, and
 * the independent count of the zero-around minimum.  The ranges are
 * core's (lbs_zero_around(), lbs_short_copy_range()), the fill rule is
 * core's lbs_fill_from_source().
 */
#define _GNU_SOURCE
#include "sim_int.h"

enum lbs_map_type sim_map_type(uint8_t st)
{
	switch (st) {
	case EXT_DELALLOC: return LBS_MAP_DELALLOC;
	case EXT_UNWRITTEN: return LBS_MAP_UNWRITTEN;
	case EXT_WRITTEN: return LBS_MAP_MAPPED;
	default: return LBS_MAP_HOLE;
	}
}

/*
 * Fill [pos, end) of a folio that is not uptodate, as
 * iomap_zero_around_folio() does: from the source where it holds written
 * data inside EOF (lbs_fill_from_source()), zeroes elsewhere.
 */
static void around_fill(struct lbs_sim *s, struct folio *f, uint64_t pos,
			uint64_t end, const struct around_src *src)
{
	uint64_t fpos = fpos_of(s, f);

	if (lbs_fill_from_source(src->type, src->is_new, pos, s->isize)) {
		sim_fill_from_disk(s, f, (uint32_t)(pos - fpos),
				   (uint32_t)(end - pos));
		s->c.ca_filled += end - pos;
		return;
	}
	zero_segment(f, (uint32_t)(pos - fpos), (uint32_t)(end - fpos));
	if (src->cow) {
		s->c.ca_zeroed += end - pos;
		return;
	}
	s->c.za_zeroed += end - pos;
	f->za_bytes += (uint32_t)(end - pos);
}

/*
 * The folio at @pos that zero-around fills, as iomap_zero_around_folio()
 * gets it, or NULL for a large folio: that holds its blocks whole, so
 * there is nothing around the data to fill in it.  *@fend: its end.
 */
static struct folio *around_folio(struct lbs_sim *s, uint64_t pos,
				  uint64_t *fend)
{
	struct folio *f = sim_folio_get(s, pos >> s->pshift);

	*fend = fend_of(s, f);
	return s->lf && f->order ? NULL : f;
}

/*
 * Zero-around (or copy-around) one range from core (head or tail):
 * instantiate each page; uptodate pages are only dirtied, others are
 * filled over the range and marked uptodate when no caller data falls in
 * them.  [dfrom, dto) is the caller's data range.
 */
static void zero_around_range(struct lbs_sim *s, uint64_t pos, uint64_t len,
			      uint64_t dfrom, uint64_t dto,
			      const struct around_src *src)
{
	uint64_t end = pos + len;

	while (pos < end) {
		uint64_t fpos, fend, zend;
		struct folio *f = around_folio(s, pos, &fend);
		uint32_t from = 0, to = 0;

		zend = end < fend ? end : fend;
		if (!f) {
			pos = zend;
			continue;
		}
		fpos = fpos_of(s, f);
		if (dfrom < fend && dto > fpos) {
			from = (uint32_t)((dfrom > fpos ? dfrom : fpos) - fpos);
			to = (uint32_t)((dto < fend ? dto : fend) - fpos);
		}
		if (folio_uptodate(f)) {
			s->c.za_dirtied_uptodate++;
		} else {
			around_fill(s, f, pos, zend, src);
			if (lbs_zero_may_mark_uptodate(0, (uint32_t)(fend - fpos),
						       from, to) &&
			    pos == fpos && zend == fend)
				sim_set_range_uptodate(s, f, 0,
						       (uint32_t)(fend - fpos));
			fl_set(f, F_ZEROED);	/* cleared when data lands */
		}
		sim_folio_mark_dirty(s, f);
		pos = zend;
	}
}

/*
 * The independent zero-around minimum (counter za_need), from the sim's
 * own state and not from core's ranges: when a write meets a block whose
 * disk contents are not initialised (new, delalloc or unwritten) and the
 * block is larger than a page, every page of the block that lies inside
 * EOF after the write goes to disk with the block (conversion is whole
 * blocks), so each such page that was not uptodate before the write must
 * be initialised, except for the bytes the write itself copied.  Pages
 * are the unit because at bs > ps a page is uptodate whole or not at all.
 * uninit_pages() takes the "before" picture, count_need() adds the rest.
 */
static bool block_uninit(const struct lbs_sim *s, const struct extent *e)
{
	return lbs_pages_per_block(s->blkbits, s->pshift) > 1 &&
	       e->state != EXT_WRITTEN;
}

static uint32_t uninit_pages(struct lbs_sim *s, uint64_t bstart)
{
	uint32_t n = lbs_pages_per_block(s->blkbits, s->pshift), mask = 0;

	for (uint32_t i = 0; i < n; i++) {
		struct folio *f = sim_folio_lookup(s,
				(bstart >> s->pshift) + i);

		if (!f || !folio_uptodate(f))
			mask |= 1u << i;
	}
	return mask;
}

void sim_count_need(struct lbs_sim *s, uint64_t bstart, uint32_t mask,
		       uint64_t dfrom, uint64_t dto)
{
	uint32_t n;

	if (!mask)	/* also every bs <= ps write: nothing to count */
		return;
	n = lbs_pages_per_block(s->blkbits, s->pshift);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = bstart + ((uint64_t)i << s->pshift);
		uint64_t b = a + s->ps;
		uint64_t lo = dfrom > a ? dfrom : a, hi = dto < b ? dto : b;

		if (a >= s->isize)
			break;
		if (mask & (1u << i))
			s->c.za_need += s->ps - (hi > lo ? hi - lo : 0);
	}
}

/* bytes zero-around had to zero after all: counted like its ranges */
void sim_za_count(struct lbs_sim *s, struct folio *f, uint64_t n)
{
	s->c.za_zeroed += n;
	f->za_bytes += (uint32_t)n;
}

/*
 * Model decision: zero-around counted [pos, pos+len) as data, so after a
 * short copy the pages of that range past the copy point that lie inside
 * EOF would be neither uptodate nor dirty, and the block converts (or a
 * COW block is remapped) whole at writeback: stale data.  6.1 has nothing
 * that initialises them (iomap_write_failed() only truncates past EOF):
 * the port fills them like the pages around the write (zeroes, or the
 * source's data in a COW block), whole pages over core's
 * lbs_short_copy_range(), the same call iomap_write_iter() makes.  The
 * kernel skips the pages that hold data when it zeroes around, and fills
 * the page holding pos+len whole here; this model's zero_around_range()
 * already filled that page past pos+len (the part __iomap_write_begin()
 * would have zeroed), so only the bytes up to pos+len are filled now, and
 * each byte is counted once.
 */
void sim_short_copy_fill(struct lbs_sim *s, uint64_t from, uint64_t to,
			 const struct around_src *src)
{
	uint64_t pos, len, end;

	if (!lbs_short_copy_range(s->blkbits, s->pshift, from, to, s->isize,
				  &pos, &len))
		return;
	for (end = pos + len; pos < end;) {
		uint64_t fpos, fend;
		struct folio *f = around_folio(s, pos, &fend);

		/* a large folio: the write's retry found the block whole */
		if (!f) {
			pos = fend;
			continue;
		}
		fpos = fpos_of(s, f);
		if (folio_uptodate(f)) {
			s->c.za_dirtied_uptodate++;
		} else {
			around_fill(s, f, pos, to < fend ? to : fend, src);
			/* [fpos, pos): head fill or data; [to, fend): tail
			 * fill */
			sim_set_range_uptodate(s, f, 0, (uint32_t)(fend - fpos));
			fl_set(f, F_ZEROED);
		}
		sim_folio_mark_dirty(s, f);
		pos = fend;
	}
}

/* the pages of @dfrom's block the independent count wants, as of now */
void sim_write_need(struct lbs_sim *s, uint64_t dfrom, struct around_src *src)
{
	struct extent *e = ext_at(s, dfrom);

	src->need_mask = 0;
	if (!src->cow && block_uninit(s, e))
		src->need_mask = uninit_pages(s, lbs_block_start(s->blkbits,
								 dfrom));
}

/*
 * xfs_buffered_write_iomap_begin() for the block holding @dfrom: a COW
 * block (the COW fork covers it, or its data fork block is shared) is
 * to be filled around from the data fork, any other block that is new,
 * delalloc or unwritten zeroed around; a hole gets a delalloc
 * reservation.  Fills @src; returns true if around applies.
 */
bool sim_write_reserve(struct lbs_sim *s, uint64_t dfrom,
		       struct around_src *src)
{
	struct extent *e = ext_at(s, dfrom);

	*src = (struct around_src){ .cow = sim_cow_begin(s, bno_of(s, dfrom)) };
	if (!src->cow && e->state == EXT_HOLE) {
		e->state = EXT_DELALLOC;	/* xfs_bmapi_reserve_delalloc() */
		src->is_new = true;
	}
	/* a COW block's source is the data fork, which stays as it is */
	src->type = sim_map_type(e->state);
	sim_write_need(s, dfrom, src);
	if (src->cow)
		return !(s->inject & LBS_SIM_INJ_NO_COPY_AROUND) &&
		       lbs_need_copy_around(s->blkbits, s->pshift, true);
	return !(s->inject & LBS_SIM_INJ_NO_ZERO_AROUND) &&
	       lbs_need_zero_around(s->blkbits, s->pshift, src->type,
				    src->is_new);
}

/*
 * The zero-around (or copy-around) that iomap_write_iter() and
 * iomap_page_mkwrite() do for the data range [dfrom, dto) in its block,
 * with the range it instantiated in [*istart, *iend).
 */
void sim_write_around(struct lbs_sim *s, uint64_t dfrom, uint64_t dto,
		      const struct around_src *src, uint64_t *istart,
		      uint64_t *iend)
{
	struct lbs_zero_around za;

	if (lbs_zero_around(s->blkbits, s->pshift, dfrom, dto - dfrom,
			    s->isize, &za)) {
		s->c.za_calls++;
		zero_around_range(s, za.head_pos, za.head_len, dfrom, dto, src);
		zero_around_range(s, za.tail_pos, za.tail_len, dfrom, dto, src);
		*istart = za.head_pos;
		*iend = za.tail_pos + za.tail_len;
	}
}

/* both, as the order-0 model does them: true if around ran */
bool sim_write_map(struct lbs_sim *s, uint64_t dfrom, uint64_t dto,
		   struct around_src *src, uint64_t *istart, uint64_t *iend)
{
	if (!sim_write_reserve(s, dfrom, src))
		return false;
	sim_write_around(s, dfrom, dto, src, istart, iend);
	return true;
}
