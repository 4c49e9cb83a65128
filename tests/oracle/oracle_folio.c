// SPDX-License-Identifier: GPL-2.0
/*
 * Oracles for core/folio_order.c, the bimodal folio orders.  Each states
 * the rule in words and answers by trying orders one by one: a folio's
 * size is built by doubling, "holds a block" compares sizes, "aligned"
 * and "fits" walk page indices from 0.  No masks, no shifts of offsets.
 *
 * The rule: a folio is legal if it is order 0, or it is not order 1 (6.1
 * has no order-1 file folios) and it is at least a block.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oracle.h"
#include "oracle_int.h"
#include "oracle_walk.h"

/* orders the oracles try; MAX_PAGECACHE_ORDER is at most 11 in 6.1 */
#define O_MAX_ORDER	31

static bool o_geom_ok(const uint64_t *in)
{
	return o_blkbits_ok(in[0]) && o_pshift_ok(in[1]);
}

/* bytes in a folio of @order with pages of 2^@pshift */
static uint64_t o_fsize(uint64_t pshift, uint32_t order)
{
	return ow_pow2((uint32_t)pshift + order);
}

/* the rule itself, from sizes */
static bool o_legal(const uint64_t *in, uint32_t order)
{
	if (order == 0)
		return true;
	return order != 1 && o_fsize(in[1], order) >= ow_pow2((uint32_t)in[0]);
}

/* the smallest legal order above 0 that a block larger than a page needs;
 * 0 when a block fits in a page */
static uint32_t o_min_order(const uint64_t *in)
{
	uint32_t o;

	if (ow_pow2((uint32_t)in[0]) <= ow_pow2((uint32_t)in[1]))
		return 0;
	for (o = 1; !o_legal(in, o); o++)
		;
	return o;
}

/* pages in the loff_t range: page indices run below this */
static uint64_t o_max_pages(const uint64_t *in)
{
	uint64_t n;

	ow_floor(O_LOFF_END, ow_pow2((uint32_t)in[1]), &n);
	return n;
}

int o_folio_min_order(const uint64_t *in, uint64_t *out)
{
	if (!o_geom_ok(in))
		return ORACLE_DOMAIN;
	out[0] = o_min_order(in);
	return 1;
}

int o_folio_order_ok(const uint64_t *in, uint64_t *out)
{
	if (!o_geom_ok(in) || in[2] > O_MAX_ORDER)
		return ORACLE_DOMAIN;
	out[0] = o_legal(in, (uint32_t)in[2]);
	return 1;
}

/* in: blkbits pshift index order pos; the first and the last byte of
 * pos's block both lie in the folio */
int o_folio_covers_block(const uint64_t *in, uint64_t *out)
{
	uint64_t psize, bsize, fstart, fend, bstart, npages;

	if (!o_geom_ok(in) || in[3] > O_MAX_ORDER || in[4] >= O_LOFF_END)
		return ORACLE_DOMAIN;
	npages = ow_pow2((uint32_t)in[3]);
	if (in[2] > o_max_pages(in) || npages > o_max_pages(in) - in[2])
		return ORACLE_DOMAIN;
	psize = ow_pow2((uint32_t)in[1]);
	bsize = ow_pow2((uint32_t)in[0]);
	fstart = ow_steps(in[2], psize);
	fend = fstart + o_fsize(in[1], (uint32_t)in[3]);
	bstart = ow_floor(in[4], bsize, NULL);
	out[0] = fstart <= bstart && bstart + bsize - 1 < fend;
	return 1;
}

/*
 * in: blkbits pshift new_order ra_size max_order.  Fewer than 4 pages: 0
 * (6.1's order-0 fallback).  The ramp: 2 orders up from new_order, unless
 * it is already the maximum, then down until the folio fits the window.
 * A legal result stands; otherwise the smallest legal large order, if the
 * maximum and the window allow it; otherwise 0.
 */
int o_ra_start_order(const uint64_t *in, uint64_t *out)
{
	uint64_t want = in[2], size = in[3], max = in[4];
	uint32_t o, m;

	if (!o_geom_ok(in) || max > O_MAX_ORDER || want > max ||
	    size > UINT32_MAX)
		return ORACLE_DOMAIN;
	out[0] = 0;
	if (size < 4)
		return 1;
	o = (uint32_t)want;
	if (want < max) {
		o = (uint32_t)(want + 2 > max ? max : want + 2);
		while (ow_pow2(o) > size)
			o--;
	}
	m = o_min_order(in);
	if (o_legal(in, o))
		out[0] = o;
	else if (m && m <= max && ow_pow2(m) <= size)
		out[0] = m;
	return 1;
}

/*
 * in: blkbits pshift index limit new_order.  The largest legal order, at
 * most new_order, whose folio at index starts on a multiple of its pages
 * and ends by limit; order 0 always does.
 */
int o_ra_folio_order(const uint64_t *in, uint64_t *out)
{
	uint64_t index = in[2], limit = in[3];
	uint32_t o;

	if (!o_geom_ok(in) || in[4] > O_MAX_ORDER || index > limit ||
	    limit >= o_max_pages(in))
		return ORACLE_DOMAIN;
	out[0] = 0;
	for (o = (uint32_t)in[4]; o > 0; o--) {
		if (o_legal(in, o) && ow_on_edge(index, ow_pow2(o)) &&
		    ow_pow2(o) <= limit - index + 1) {
			out[0] = o;
			break;
		}
	}
	return 1;
}

/*
 * in: blkbits pshift pos len max_order; out: index order.  Blocks no
 * larger than pages, or no legal large order within max_order: the page
 * holding pos.  Otherwise the write's bytes rounded out to the smallest
 * legal large folio; of the folios holding pos, from max_order down, the
 * first that lies inside that range.
 */
int o_write_folio(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[2], len = in[3], psize, usize, ustart, uend;
	uint64_t fsize, fstart = 0;
	uint32_t m, o;

	if (!o_geom_ok(in) || in[4] > O_MAX_ORDER || len == 0 ||
	    pos > O_LOFF_END || len > O_LOFF_END - pos)
		return ORACLE_DOMAIN;
	psize = ow_pow2((uint32_t)in[1]);
	m = o_min_order(in);
	if (m == 0 || m > in[4]) {
		ow_floor(pos, psize, &out[0]);
		out[1] = 0;
		return 2;
	}
	usize = o_fsize(in[1], m);
	ustart = ow_floor(pos, usize, NULL);
	uend = ow_ceil(pos + len, usize);
	for (o = (uint32_t)in[4]; o >= m; o--) {
		fsize = o_fsize(in[1], o);
		fstart = ow_floor(pos, fsize, NULL);
		if (fstart >= ustart && fstart + fsize <= uend)
			break;
	}
	if (o < m)
		oracle_bug("write_folio model: no folio of order %u holds %llu",
			   m, (unsigned long long)pos);
	ow_floor(fstart, psize, &out[0]);
	out[1] = o;
	return 2;
}

/* in: blkbits pshift order; out: ret next.  The next legal order below
 * the one that failed; none below order 0 */
int o_folio_order_fallback(const uint64_t *in, uint64_t *out)
{
	uint32_t o;

	if (!o_geom_ok(in) || in[2] > O_MAX_ORDER)
		return ORACLE_DOMAIN;
	out[0] = in[2] > 0;
	out[1] = 0;
	for (o = (uint32_t)in[2]; o > 1; o--) {
		if (o_legal(in, o - 1)) {
			out[1] = o - 1;
			break;
		}
	}
	return 2;
}
