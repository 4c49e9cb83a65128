// SPDX-License-Identifier: GPL-2.0
/*
 * The exhaustive comparison (test_exhaustive.c) of the I/O helpers: dio
 * (sub-block zeroing of direct I/O) and writeback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exhaustive.h"

/* ==================================================================== */
/* dio */

static void t_dio_zero_pads(void **state)
{
	struct cmp c = { "dio_zero_pads", 0, 0, 0 };
	uint32_t bi, ki;

	(void)state;
	for (bi = 0; bi < NELEM(bs_shifts); bi++) {
		uint32_t b = bs_shifts[bi];
		uint64_t bsize = sz(b), g = umin(bsize, 4 * KiB);

		for (ki = 0; ki < NELEM(bases); ki++) {
			uint64_t base = bases[ki];
			struct pts pos = { 0 }, end = { 0 };
			size_t i, j, k;

			/* sectors or pages of the first two blocks */
			pts_edges(&pos, base, g, 2 * bsize / g);
			pts_edges(&pos, base, 512, 3);
			pts_edges(&end, base, g, 3 * bsize / g);
			pts_done(&pos);
			pts_done(&end);
			for (i = 0; i < pos.n; i++) {
				for (j = 0; j < end.n; j++) {
					uint64_t s = pos.v[i], e = end.v[j];
					uint64_t eb = e - e % bsize;
					struct pts isz = { 0 };

					if (e < s)
						continue;
					/* i_size around the write and its blocks */
					pts_edges(&isz, s, 0, 0);
					pts_edges(&isz, e, 0, 0);
					pts_edges(&isz, eb, bsize, 1);
					pts_add(&isz, 0);
					pts_add(&isz, LOFF_END);
					pts_done(&isz);
					for (k = 0; k < isz.n; k++) {
						CMP(&c, b, s, e - s, isz.v[k], 0);
						CMP(&c, b, s, e - s, isz.v[k], 1);
					}
					pts_free(&isz);
				}
			}
			pts_free(&pos);
			pts_free(&end);
		}
	}
	cmp_report(&c);
}

static void t_dio_zero_segs(void **state)
{
	struct cmp n = { "dio_zero_nr_segs", 0, 0, 0 };
	struct cmp l = { "dio_zero_seg_len", 0, 0, 0 };
	uint32_t pi, p;
	uint64_t x;

	(void)state;
	for (pi = 0; pi < NELEM(ps_shifts) + 2; pi++) {
		struct pts len = { 0 };
		size_t i;

		p = pi < NELEM(ps_shifts) ? ps_shifts[pi] : 9 + 12 * (pi - 2);
		/* pads are < 64k; every 512-byte multiple and page edge */
		pts_edges(&len, 0, 512, 2 * 64 * KiB / 512);
		pts_edges(&len, 0, sz(p < 21 ? p : 20), 4);
		pts_add(&len, UINT32_MAX);
		pts_add(&len, UINT32_MAX - 1);
		pts_add(&len, (uint64_t)UINT32_MAX + 1);	/* out of domain */
		pts_done(&len);
		for (i = 0; i < len.n; i++) {
			uint64_t segs = len.v[i] / sz(p < 21 ? p : 20) + 2;

			CMP(&n, p, len.v[i]);
			for (x = 0; x <= segs && x < 40; x++)
				CMP(&l, p, len.v[i], x);
			CMP(&l, p, len.v[i], segs + 1000);
			CMP(&l, p, len.v[i], UINT32_MAX);
		}
		pts_free(&len);
	}
	cmp_report(&n);
	cmp_report(&l);
}

/* ==================================================================== */
/* writeback */

/*
 * Range starts: every block and page edge of the first units; ends: every
 * unit edge, INT64_MAX and its neighbours.  Then the other way round.
 */
static void wb_points(uint32_t b, uint32_t p, uint64_t base, struct pts *fine,
		      struct pts *coarse)
{
	uint64_t unit = umax(sz(b), sz(p));

	pts_edges(fine, base, sz(b), umin(3 * unit / sz(b), 256));
	pts_edges(fine, base, sz(p), 3 * unit / sz(p));
	pts_edges(coarse, base, unit, 4);
	pts_add(coarse, O_INT64_MAX);
	pts_add(coarse, O_INT64_MAX - 1);
	pts_add(coarse, O_INT64_MAX - unit);
	pts_add(coarse, O_INT64_MAX - unit + 1);
	pts_add(fine, O_INT64_MAX);
	pts_add(fine, O_INT64_MAX - 1);
	pts_done(fine);
	pts_done(coarse);
}

static void round_range_at(struct cmp *c, uint32_t b, uint32_t p)
{
	uint32_t ki;

	for (ki = 0; ki < NELEM(bases); ki++) {
		struct pts f = { 0 }, k = { 0 };
		size_t i, j;

		wb_points(b, p, bases[ki], &f, &k);
		for (i = 0; i < f.n; i++)
			for (j = 0; j < k.n; j++) {
				CMP(c, b, p, f.v[i], k.v[j]);
				CMP(c, b, p, k.v[j], f.v[i]);
			}
		pts_free(&f);
		pts_free(&k);
	}
}

static void t_round_range(void **state)
{
	(void)state;
	SWEEP("round_range", ps_shifts, round_range_at);
}

static void flush_unmap_range_at(struct cmp *c, uint32_t b, uint32_t p)
{
	uint32_t ki;

	for (ki = 0; ki < NELEM(bases); ki++) {
		struct pts f = { 0 }, k = { 0 };
		size_t i, j;

		wb_points(b, p, bases[ki], &f, &k);
		for (i = 0; i < f.n; i++) {
			CMP(c, b, p, f.v[i], 0);
			CMP(c, b, p, f.v[i], 1);
			CMP(c, b, p, f.v[i], LOFF_END - f.v[i]);
			for (j = 0; j < k.n; j++) {
				/* ends (exclusive) on the coarse points */
				if (k.v[j] > f.v[i])
					CMP(c, b, p, f.v[i], k.v[j] - f.v[i]);
				if (f.v[i] > k.v[j])
					CMP(c, b, p, k.v[j], f.v[i] - k.v[j]);
			}
		}
		pts_free(&f);
		pts_free(&k);
	}
}

static void t_flush_unmap_range(void **state)
{
	(void)state;
	SWEEP("flush_unmap_range", ps_shifts, flush_unmap_range_at);
}

static void wb_round_at(struct cmp *c, uint32_t b, uint32_t p)
{
	uint64_t unit = umax(sz(b), sz(p)), pg = unit / sz(p);
	const uint64_t lmax = (uint64_t)INT64_MAX;
	struct pts f = { 0 }, k = { 0 }, nr = { 0 }, mx = { 0 };
	size_t i, j, m, x;

	wb_points(b, p, 0, &f, &k);
	/* page budgets: whole blocks +-1, none, no limit */
	pts_edges(&nr, 0, pg, 3);
	pts_edges(&nr, lmax - 2 * pg, pg, 2);
	pts_add(&nr, (uint64_t)-1);
	pts_add(&nr, (uint64_t)INT64_MIN);
	pts_add(&nr, 1024);
	pts_done(&nr);
	/* no-limit values: LONG_MAX and small ones */
	pts_add(&mx, lmax);
	pts_add(&mx, lmax - 1);
	pts_edges(&mx, 0, pg, 2);
	pts_add(&mx, 100);
	pts_done(&mx);
	for (i = 0; i < f.n; i += 1 + f.n / 24)
		for (j = 0; j < k.n; j++)
			for (m = 0; m < nr.n; m++)
				for (x = 0; x < mx.n; x++) {
					CMP(c, b, p, f.v[i], k.v[j], nr.v[m], mx.v[x]);
					CMP(c, b, p, k.v[j], f.v[i], nr.v[m], mx.v[x]);
				}
	pts_free(&f);
	pts_free(&k);
	pts_free(&nr);
	pts_free(&mx);
}

static void t_wb_round(void **state)
{
	(void)state;
	SWEEP("wb_round", ps_shifts, wb_round_at);
}

/*
 * wb_round_index, wb_may_stop (blkbits pshift index): page indices on and
 * beside the unit edges near 0, 2^40 and the top of the index range.
 */
static void wb_index_at(struct cmp *c, uint32_t b, uint32_t p)
{
	uint64_t pg = umax(sz(b), sz(p)) / sz(p);
	struct pts ix = { 0 };
	size_t i;

	pts_edges(&ix, 0, pg, 5);
	pts_edges(&ix, (uint64_t)1 << 40, pg, 2);
	pts_edges(&ix, UINT64_MAX - 2 * pg + 1, pg, 1);
	pts_add(&ix, UINT64_MAX);
	pts_done(&ix);
	for (i = 0; i < ix.n; i++)
		CMP(c, b, p, ix.v[i]);
	pts_free(&ix);
}

static void t_wb_round_index(void **state)
{
	(void)state;
	SWEEP("wb_round_index", ps_shifts, wb_index_at);
}

static void t_wb_may_stop(void **state)
{
	(void)state;
	SWEEP("wb_may_stop", ps_shifts, wb_index_at);
}

static void t_falloc_aligned(void **state)
{
	struct cmp c = { "falloc_aligned", 0, 0, 0 };
	uint32_t bi;

	(void)state;
	for (bi = 0; bi < NELEM(bs_shifts); bi++) {
		uint32_t b = bs_shifts[bi];
		uint64_t bs = sz(b);
		struct pts pv = { 0 };
		size_t i, j, k;

		for (k = 0; k < NELEM(bases); k++)
			pts_edges(&pv, bases[k], 512, 2 * (uint32_t)(bs / 512) + 2);
		pts_add(&pv, LOFF_END);
		pts_done(&pv);
		for (i = 0; i < pv.n; i++)
			for (j = 0; j < pv.n; j += 7)
				CMP(&c, b, pv.v[i], pv.v[j]);
		pts_free(&pv);
	}
	cmp_report(&c);
}

/* ==================================================================== */

static const struct CMUnitTest g_dio[] = {
	cmocka_unit_test(t_dio_zero_pads),
	cmocka_unit_test(t_dio_zero_segs),
};
static const struct CMUnitTest g_writeback[] = {
	cmocka_unit_test(t_round_range),
	cmocka_unit_test(t_flush_unmap_range),
	cmocka_unit_test(t_wb_round),
	cmocka_unit_test(t_wb_round_index),
	cmocka_unit_test(t_wb_may_stop),
	cmocka_unit_test(t_falloc_aligned),
};

const struct exh_group exh_io[] = {
	EXH_GROUP(dio), EXH_GROUP(writeback),
	{ NULL, NULL, 0 },
};
