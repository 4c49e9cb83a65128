// SPDX-License-Identifier: GPL-2.0
/*
 * Oracles for core/pageblock.c, zero_around.c, dio_zero.c, writeback.c.
 *
 * Each one states the rule of the kernel-doc in words, builds the pages,
 * units or blocks it talks about by walking from 0, classifies them, and
 * reads the answer off the classification.  Inputs outside the documented
 * domain return ORACLE_DOMAIN.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oracle.h"
#include "oracle_int.h"
#include "oracle_walk.h"

static uint64_t o_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * A range built from pieces added in file order; the pieces of one class
 * must be contiguous, or the model itself is wrong.
 */
struct o_range {
	uint64_t start;
	uint64_t len;
	bool have;
};

static void o_range_add(struct o_range *r, uint64_t a, uint64_t b,
			const char *what)
{
	if (b <= a)
		return;
	if (!r->have) {
		r->start = a;
		r->len = b - a;
		r->have = true;
		return;
	}
	if (r->start + r->len != a)
		oracle_bug("%s range is not contiguous at %llu", what,
			   (unsigned long long)a);
	r->len += b - a;
}

/* -------------------------------------------------------------------- */
/* pageblock.c */

/* the tracking unit: the smaller of block and folio, found by doubling */
static uint64_t o_unit(uint32_t blkbits, uint32_t fshift, uint32_t *bits)
{
	uint64_t bsize = ow_pow2(blkbits), fsize = ow_pow2(fshift);
	uint64_t unit = bsize < fsize ? bsize : fsize, v = 1;
	uint32_t n = 0;

	while (v < unit) {
		v += v;
		n++;
	}
	if (bits)
		*bits = n;
	return unit;
}

static bool o_pb_shifts_ok(const uint64_t *in)
{
	return in[0] >= 9 && in[0] <= 31 && in[1] >= 12 && in[1] <= 31;
}

int o_pageblock_bits(const uint64_t *in, uint64_t *out)
{
	uint32_t bits;

	if (!o_pb_shifts_ok(in))
		return ORACLE_DOMAIN;
	o_unit((uint32_t)in[0], (uint32_t)in[1], &bits);
	out[0] = bits;
	return 1;
}

int o_pageblock_size(const uint64_t *in, uint64_t *out)
{
	if (!o_pb_shifts_ok(in))
		return ORACLE_DOMAIN;
	out[0] = o_unit((uint32_t)in[0], (uint32_t)in[1], NULL);
	return 1;
}

int o_units_per_folio(const uint64_t *in, uint64_t *out)
{
	uint64_t unit, fsize, at, n = 0;

	if (!o_pb_shifts_ok(in))
		return ORACLE_DOMAIN;
	unit = o_unit((uint32_t)in[0], (uint32_t)in[1], NULL);
	fsize = ow_pow2((uint32_t)in[1]);
	/* count the units of one folio */
	for (at = 0; at < fsize; at += unit)
		n++;
	out[0] = n;
	return 1;
}

/*
 * The unit holding byte @off of a folio: walk the folio's units from its
 * first byte by repeated addition of the unit (ow_floor(): one unit at a
 * time, then the same walk in doubling strides), counting the units passed
 * before the one that holds @off.  Domain: the shifts of the other
 * pageblock oracles, and @off inside the folio.
 */
int o_pageblock_index(const uint64_t *in, uint64_t *out)
{
	uint64_t off = in[2], unit, fsize, n, nunits;

	if (!o_pb_shifts_ok(in))
		return ORACLE_DOMAIN;
	fsize = ow_pow2((uint32_t)in[1]);
	if (off >= fsize)
		return ORACLE_DOMAIN;
	unit = o_unit((uint32_t)in[0], (uint32_t)in[1], NULL);
	ow_floor(off, unit, &n);
	ow_floor(fsize, unit, &nunits);
	if (n >= nunits)
		oracle_bug("pageblock_index model: unit %llu of %llu",
			   (unsigned long long)n, (unsigned long long)nunits);
	out[0] = n;
	return 1;
}

/* start of the first unit and end of the last unit the range touches */
int o_pageblock_range(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[2], len = in[3], unit;

	if (!o_pb_shifts_ok(in) || pos > O_LOFF_END || len > O_LOFF_END - pos)
		return ORACLE_DOMAIN;
	unit = o_unit((uint32_t)in[0], (uint32_t)in[1], NULL);
	out[0] = ow_floor(pos, unit, NULL);
	/* the exclusive end: the first unit edge at or after pos + len */
	out[1] = ow_ceil(pos + len, unit);
	return 2;
}

/*
 * iomap_adjust_read_range() in units.  Domain, as the kernel callers use
 * it (iomap_readpage_iter(), __iomap_write_begin()): the folio is aligned,
 * @pos lies in it on a unit edge, @length >= 1 and the wanted range ends on
 * a unit edge or at or past the end of the folio; a bitmap needs at most
 * 64 units.
 *
 * Model: the window is the wanted range clipped to the folio.  Walk its
 * units in order: skip the leading uptodate ones, read from the first one
 * that is not, up to the next one that is.  Then, if the read covers the
 * unit holding the last byte before EOF and goes past it, stop at the end
 * of that unit: what follows is wholly past EOF and the caller zeroes it.
 */
int o_adjust_read_range(const uint64_t *in, uint64_t *out)
{
	uint64_t folio_pos = in[2], isize = in[3], has_map = in[4];
	uint64_t map = in[5], pos = in[6], length = in[7];
	uint64_t unit, fsize, nunits, poff, wend, us, r0 = 0, r1 = 0;
	bool up[64] = { false };
	int state = 0;	/* 0: skipping uptodate units, 1: reading, 2: done */
	uint32_t u;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) || has_map > 1)
		return ORACLE_DOMAIN;
	fsize = ow_pow2((uint32_t)in[1]);
	unit = o_unit((uint32_t)in[0], (uint32_t)in[1], NULL);
	ow_floor(fsize, unit, &nunits);
	if (folio_pos > O_LOFF_END - fsize || !ow_on_edge(folio_pos, fsize) ||
	    pos < folio_pos || pos - folio_pos >= fsize ||
	    !ow_on_edge(pos, unit) || length == 0 ||
	    length > O_LOFF_END - pos || isize > O_LOFF_END ||
	    (has_map && nunits > 64))
		return ORACLE_DOMAIN;
	if (pos + length < folio_pos + fsize && !ow_on_edge(pos + length, unit))
		return ORACLE_DOMAIN;

	for (u = 0; has_map && u < 64; u++) {
		up[u] = map % 2;
		map /= 2;
	}
	poff = pos - folio_pos;
	wend = poff + o_min(length, fsize - poff);

	for (u = 0, us = 0; us < fsize && state < 2; u++, us += unit) {
		/* no bitmap: no unit is uptodate (has_map means nunits <= 64) */
		bool uptodate = has_map && up[u];

		if (us + unit <= poff || us >= wend)
			continue;	/* outside the window */
		if (state == 0) {
			if (uptodate)
				continue;
			r0 = us;
			state = 1;
		} else if (uptodate) {
			r1 = us;
			state = 2;
		}
	}
	if (state == 0)
		r0 = r1 = wend;	/* all uptodate: nothing to read */
	else if (state == 1)
		r1 = wend;

	/* the unit that holds the last byte before EOF, if in this folio */
	if (isize >= 1 && isize - 1 >= folio_pos &&
	    isize - 1 - folio_pos < fsize) {
		uint64_t eus = ow_floor(isize - 1 - folio_pos, unit, NULL);

		if (r0 < r1 && r0 <= eus && r1 > eus + unit)
			r1 = eus + unit;
	}
	out[0] = folio_pos + r0;
	out[1] = r0;
	out[2] = r1 - r0;
	return 3;
}

/* bytes from pos to the end of its unit, none if pos starts a unit */
int o_truncate_page_len(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[2], unit, us;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) || pos > O_LOFF_END)
		return ORACLE_DOMAIN;
	unit = o_unit((uint32_t)in[0], (uint32_t)in[1], NULL);
	us = ow_floor(pos, unit, NULL);
	out[0] = us == pos ? 0 : us + unit - pos;
	return 1;
}

/*
 * May [poff, poff + plen) be marked uptodate once zeroed: only if none of
 * its bytes is caller data, [from, to).  Checked byte by byte, walking the
 * shorter of the two ranges.  Domain: @plen >= 1, as __iomap_write_begin()
 * stops before zeroing when adjust_read_range() leaves nothing; for an
 * empty range the kernel-doc's "fully initialised" would be vacuously true
 * while core answers false when [from, to) straddles @poff.
 */
int o_zero_may_mark_uptodate(const uint64_t *in, uint64_t *out)
{
	uint64_t poff = in[0], plen = in[1], from = in[2], to = in[3], b;
	const uint64_t lim = (uint64_t)1 << 22;	/* 4 MiB: folio offsets */
	bool clean = true;

	if (poff > lim || plen == 0 || plen > lim - poff || from > lim ||
	    to > lim)
		return ORACLE_DOMAIN;
	if (from < to && to - from < plen) {
		for (b = from; b < to && clean; b++)
			if (b >= poff && b - poff < plen)
				clean = false;
	} else {
		for (b = poff; b - poff < plen && clean; b++)
			if (b >= from && b < to)
				clean = false;
	}
	out[0] = clean;
	return 1;
}

/* -------------------------------------------------------------------- */
/* zero_around.c */

/*
 * Zero-around is needed when a block spans several pages and its bytes
 * outside the write are not yet initialised on disk: the write allocated
 * or reserved it, or it is delalloc (possibly speculative) or unwritten.
 */
int o_need_zero_around(const uint64_t *in, uint64_t *out)
{
	static const bool uninit[4] = {
		[0] = false,	/* hole: only if this write allocates it */
		[1] = true,	/* delalloc, maybe speculative preallocation */
		[2] = false,	/* mapped: written data, only if just allocated */
		[3] = true,	/* unwritten: reads as zeroes, disk is stale */
	};
	uint64_t pages;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) || in[2] > 3 ||
	    in[3] > 1)
		return ORACLE_DOMAIN;
	/* pages in one block */
	for (pages = 0; ow_steps(pages, ow_pow2((uint32_t)in[1])) <
			ow_pow2((uint32_t)in[0]); pages++)
		;
	out[0] = pages > 1 && (in[3] || uninit[in[2]]);
	return 1;
}

enum o_za_class { ZA_HEAD, ZA_DATA, ZA_TAIL, ZA_POST };

/*
 * Model: walk the pages of the first and the last block of the write and
 * cut each at the start and end of the write.  Each piece is
 *	before the write				head
 *	inside the write				data
 *	after it, in a page that starts before the new EOF
 *		max(isize, pos + len) (so it is written back whole)	tail
 *	after it, in a page wholly past the new EOF		post-EOF
 * Nothing at all when a block fits in a page or the write is empty.
 * Positions follow the kernel-doc: the head starts at the first block, the
 * tail at the end of the write, post-EOF where the tail ends, also when
 * they are empty.
 */
int o_zero_around(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[2], len = in[3], isize = in[4];
	uint64_t bsize, psize, end, neweof, blk[2], p, a;
	struct o_range r[4] = { { 0, 0, false } };
	static const char *const names[4] = { "head", "data", "tail", "post" };
	int nblk, i, j;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) ||
	    pos > O_LOFF_END || len > O_LOFF_END - pos || isize > O_LOFF_END)
		return ORACLE_DOMAIN;
	bsize = ow_pow2((uint32_t)in[0]);
	psize = ow_pow2((uint32_t)in[1]);
	for (i = 0; i < 7; i++)
		out[i] = 0;
	if (bsize <= psize || len == 0)
		return 7;
	end = pos + len;
	if (end > O_LOFF_END - bsize)
		return ORACLE_DOMAIN;	/* the last block must end by 2^63 */
	neweof = isize > end ? isize : end;

	blk[0] = ow_floor(pos, bsize, NULL);
	blk[1] = ow_floor(end - 1, bsize, NULL);
	nblk = blk[1] == blk[0] ? 1 : 2;
	for (i = 0; i < nblk; i++) {
		/* the blocks between are all data: only their ends matter */
		for (p = blk[i]; p - blk[i] < bsize; p += psize) {
			for (a = p; a < p + psize; ) {
				uint64_t b = p + psize;
				enum o_za_class c;

				if (pos > a && pos < b)
					b = pos;
				if (end > a && end < b)
					b = end;
				if (b <= pos)
					c = ZA_HEAD;
				else if (a >= end)
					c = p < neweof ? ZA_TAIL : ZA_POST;
				else
					c = ZA_DATA;
				/* data pieces are not contiguous across skipped blocks */
				if (c != ZA_DATA)
					o_range_add(&r[c], a, b, names[c]);
				a = b;
			}
		}
	}
	if ((r[ZA_HEAD].have && r[ZA_HEAD].start != blk[0]) ||
	    (r[ZA_TAIL].have && r[ZA_TAIL].start != end))
		oracle_bug("zero_around model: head or tail misplaced");
	for (j = 0; j < 4; j++)
		if (!r[j].have)
			r[j].len = 0;
	if (r[ZA_POST].have && r[ZA_POST].start != end + r[ZA_TAIL].len)
		oracle_bug("zero_around model: post-EOF misplaced");

	out[0] = r[ZA_HEAD].len || r[ZA_TAIL].len;
	out[1] = blk[0];
	out[2] = r[ZA_HEAD].len;
	out[3] = end;
	out[4] = r[ZA_TAIL].len;
	out[5] = end + r[ZA_TAIL].len;
	out[6] = r[ZA_POST].len;
	return 7;
}

/* -------------------------------------------------------------------- */
/* dio_zero.c */

/*
 * The head pad is the part of the first block before the write, zeroed
 * only over new or unwritten blocks; the tail pad is the part of the last
 * block after the write, zeroed over new or unwritten blocks and also when
 * the write ends at or past the old EOF.  A write that starts or ends on a
 * block edge has no pad there.
 */
int o_dio_zero_pads(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[1], len = in[2], isize = in[3], nz = in[4];
	uint64_t bsize, b, end;

	if (!o_blkbits_ok(in[0]) || pos > O_LOFF_END ||
	    len > O_LOFF_END - pos || isize > O_LOFF_END || nz > 1)
		return ORACLE_DOMAIN;
	bsize = ow_pow2((uint32_t)in[0]);
	end = pos + len;
	if (end > O_LOFF_END - bsize)
		return ORACLE_DOMAIN;
	out[0] = out[1] = out[2] = out[3] = 0;
	b = ow_floor(pos, bsize, NULL);
	if (nz && b != pos) {
		out[0] = b;
		out[1] = pos - b;
	}
	b = ow_floor(end, bsize, NULL);
	if ((nz || end >= isize) && b != end) {
		out[2] = end;
		out[3] = b + bsize - end;
	}
	return 4;
}

/* cut len bytes into zero-page segments of at most a page, count them */
int o_dio_zero_nr_segs(const uint64_t *in, uint64_t *out)
{
	uint64_t psize, left = in[1], n = 0;

	if (!o_pshift_ok(in[0]) || in[1] > UINT32_MAX)
		return ORACLE_DOMAIN;
	psize = ow_pow2((uint32_t)in[0]);
	while (left) {
		left -= o_min(left, psize);
		n++;
	}
	out[0] = n;
	return 1;
}

int o_dio_zero_seg_len(const uint64_t *in, uint64_t *out)
{
	uint64_t psize, left = in[1], idx = in[2], i = 0;

	if (!o_pshift_ok(in[0]) || in[1] > UINT32_MAX || in[2] > UINT32_MAX)
		return ORACLE_DOMAIN;
	psize = ow_pow2((uint32_t)in[0]);
	out[0] = 0;
	while (left) {
		uint64_t take = o_min(left, psize);

		if (i == idx) {
			out[0] = take;
			break;
		}
		left -= take;
		i++;
	}
	return 1;
}

/* -------------------------------------------------------------------- */
/* writeback.c */

/* the writeback unit: a block, or a page if blocks are smaller */
static uint64_t o_wb_unit(uint32_t blkbits, uint32_t pshift)
{
	uint64_t bsize = ow_pow2(blkbits), psize = ow_pow2(pshift);

	return bsize > psize ? bsize : psize;
}

/* pages in one writeback unit: the steps of a page that walk across it */
static uint64_t o_wb_unit_pages(uint32_t blkbits, uint32_t pshift)
{
	uint64_t pages;

	ow_floor(o_wb_unit(blkbits, pshift), ow_pow2(pshift), &pages);
	return pages;
}

/*
 * The inclusive byte range [start, end] grows to the whole units holding
 * its first and its last byte.  end >= INT64_MAX means "to EOF" and stays
 * INT64_MAX.  An empty range (end < start) is returned as it is, with 0.
 */
static bool o_round(uint32_t blkbits, uint32_t pshift, uint64_t start,
		    uint64_t end, uint64_t *os, uint64_t *oe)
{
	uint64_t unit = o_wb_unit(blkbits, pshift);

	*os = start;
	*oe = end;
	if (end < start)
		return false;
	*os = ow_floor(start, unit, NULL);
	if (end >= O_INT64_MAX)
		*oe = O_INT64_MAX;
	else	/* the last byte of the unit holding byte end */
		*oe = ow_floor(end, unit, NULL) + unit - 1;
	return true;
}

int o_round_range(const uint64_t *in, uint64_t *out)
{
	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) ||
	    in[2] > O_INT64_MAX || in[3] > O_INT64_MAX)
		return ORACLE_DOMAIN;
	out[0] = o_round((uint32_t)in[0], (uint32_t)in[1], in[2], in[3],
			 &out[1], &out[2]);
	return 3;
}

/* the I/O's bytes [pos, pos + len) rounded out; nothing for len 0 */
int o_flush_unmap_range(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[2], len = in[3];

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) ||
	    pos > O_INT64_MAX || len > O_LOFF_END - pos)
		return ORACLE_DOMAIN;
	if (len == 0) {
		out[0] = 0;
		out[1] = out[2] = pos;
		return 3;
	}
	out[0] = o_round((uint32_t)in[0], (uint32_t)in[1], pos, pos + len - 1,
			 &out[1], &out[2]);
	return 3;
}

/*
 * The range as o_round().  The page budget: unless it is <= 0 or already
 * "no limit" (>= nr_max), it grows to the first whole number of units'
 * worth of pages, but never past nr_max; nr_added is the growth.
 */
int o_wb_round(const uint64_t *in, uint64_t *out)
{
	int64_t nr = (int64_t)in[4], nr_max = (int64_t)in[5];
	uint64_t pages, want;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) ||
	    in[2] > O_INT64_MAX || in[3] > O_INT64_MAX || nr_max < 1)
		return ORACLE_DOMAIN;
	o_round((uint32_t)in[0], (uint32_t)in[1], in[2], in[3],
		&out[0], &out[1]);
	out[2] = in[4];
	out[3] = 0;
	if (nr <= 0 || nr >= nr_max)
		return 4;
	pages = o_wb_unit_pages((uint32_t)in[0], (uint32_t)in[1]);
	want = ow_ceil((uint64_t)nr, pages);
	if (want > (uint64_t)nr_max)
		want = (uint64_t)nr_max;
	out[2] = want;
	out[3] = want - (uint64_t)nr;
	return 4;
}

/* the first page of the unit holding page index */
int o_wb_round_index(const uint64_t *in, uint64_t *out)
{
	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]))
		return ORACLE_DOMAIN;
	out[0] = ow_floor(in[2],
			  o_wb_unit_pages((uint32_t)in[0], (uint32_t)in[1]),
			  NULL);
	return 1;
}

/*
 * Background writeback may stop before page index only where a unit
 * begins: index is an edge of the walk in steps of a unit's pages.
 */
int o_wb_may_stop(const uint64_t *in, uint64_t *out)
{
	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]))
		return ORACLE_DOMAIN;
	out[0] = ow_on_edge(in[2],
			    o_wb_unit_pages((uint32_t)in[0], (uint32_t)in[1]));
	return 1;
}

/* collapse/insert: both the start and the length are whole blocks */
int o_falloc_aligned(const uint64_t *in, uint64_t *out)
{
	uint64_t bsize;

	if (!o_blkbits_ok(in[0]) || in[1] > O_LOFF_END || in[2] > O_LOFF_END)
		return ORACLE_DOMAIN;
	bsize = ow_pow2((uint32_t)in[0]);
	out[0] = ow_on_edge(in[1], bsize) && ow_on_edge(in[2], bsize);
	return 1;
}

/*
 * Walk the pages of the block holding byte eof - 1.  The EOF page is the
 * one holding that byte; the pages of the block that start at or past
 * eof lie after it, and together they are the range.  When there are
 * none, the range is empty and starts where the EOF page ends.
 */
int o_post_eof_range(const uint64_t *in, uint64_t *out)
{
	uint64_t eof = in[2], bsize, psize, blk, p;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) || eof > O_LOFF_END)
		return ORACLE_DOMAIN;
	bsize = ow_pow2((uint32_t)in[0]);
	psize = ow_pow2((uint32_t)in[1]);
	out[0] = 0;
	out[1] = ow_ceil(eof, psize);
	out[2] = 0;
	if (eof == 0 || bsize <= psize)
		return 3;
	blk = ow_floor(eof - 1, bsize, NULL);
	for (p = blk; p - blk < bsize; p += psize) {
		if (p < eof)
			continue;
		if (!out[2])
			out[1] = p;
		else if (out[1] + out[2] != p)
			oracle_bug("post_eof_range model: pages not contiguous");
		out[2] += psize;
	}
	out[0] = out[2] != 0;
	return 3;
}

/*
 * Walk the pages of the block that holds the copy point pos.  A page is
 * filled when it holds a byte of [pos, data_end) that the copy did not
 * reach, and starts before EOF, so holds a byte of the file (the pages
 * past it would be dropped).  The range starts at pos and ends with the
 * last page filled; it is empty, starting at pos, when no page is.  The
 * data must end inside pos's block; blocks no larger than a page are
 * never zeroed around, so there is nothing to fill.
 */
int o_short_copy_range(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[2], dend = in[3], isize = in[4];
	uint64_t bsize, psize, blk, p, first = 0, last = 0;
	bool any = false;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) || pos >= O_LOFF_END ||
	    dend > O_LOFF_END || isize > O_LOFF_END)
		return ORACLE_DOMAIN;
	bsize = ow_pow2((uint32_t)in[0]);
	psize = ow_pow2((uint32_t)in[1]);
	blk = ow_floor(pos, bsize, NULL);
	if (dend > blk + bsize)
		return ORACLE_DOMAIN;
	out[0] = 0;
	out[1] = pos;
	out[2] = 0;
	if (bsize <= psize)
		return 3;
	for (p = blk; p - blk < bsize; p += psize) {
		/* the bytes of [pos, dend) in this page */
		uint64_t lo = p > pos ? p : pos;
		uint64_t hi = p + psize < dend ? p + psize : dend;

		if (lo >= hi || p >= isize)
			continue;
		if (any && last != p)
			oracle_bug("short_copy_range model: pages not "
				   "contiguous");
		if (!any)
			first = p;
		any = true;
		last = p + psize;
	}
	if (any && (first > pos || last <= pos))
		oracle_bug("short_copy_range model: range misses pos");
	if (any) {
		out[0] = 1;
		out[2] = last - pos;
	}
	return 3;
}
