// SPDX-License-Identifier: GPL-2.0
/*
 * The exhaustive comparison (test_exhaustive.c) of the page cache
 * helpers: pageblock, read_range, zero_around and copy_around.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exhaustive.h"

/* ==================================================================== */
/* pageblock */

static void t_oracle_selftest(void **state)
{
	(void)state;
	assert_int_equal(oracle_selftest(), 0);
	printf("oracle walking helpers agree with the plain walk and with "
	       "division\n");
}

static void t_pageblock_scalars(void **state)
{
	static const char *const fns[] = { "pageblock_bits", "pageblock_size",
					   "units_per_folio" };
	uint32_t f, b, i;

	(void)state;
	for (i = 0; i < NELEM(fns); i++) {
		struct cmp c = { fns[i], 0, 0, 0 };

		for (b = 0; b <= 33; b++)
			for (f = 0; f <= 33; f++)
				CMP(&c, b, f);
		cmp_report(&c);
	}
}

static void pageblock_range_at(struct cmp *c, uint32_t b, uint32_t f)
{
	uint64_t unit = umin(sz(b), sz(f));
	uint32_t ki;

	for (ki = 0; ki < NELEM(bases); ki++) {
		struct pts pos = { 0 }, end = { 0 };
		size_t i, j;

		pts_edges(&pos, bases[ki], unit, 3);
		pts_edges(&end, bases[ki], unit, 5);
		pts_done(&pos);
		pts_done(&end);
		for (i = 0; i < pos.n; i++) {
			CMP(c, b, f, pos.v[i], 0);
			for (j = 0; j < end.n; j++)
				if (end.v[j] > pos.v[i])
					CMP(c, b, f, pos.v[i],
					    end.v[j] - pos.v[i]);
		}
		pts_free(&pos);
		pts_free(&end);
	}
}

static void t_pageblock_range(void **state)
{
	(void)state;
	SWEEP("pageblock_range", fs_shifts, pageblock_range_at);
}

static void truncate_page_len_at(struct cmp *c, uint32_t b, uint32_t p)
{
	uint64_t unit = umin(sz(b), sz(p));
	uint32_t ki;
	uint64_t x;

	/* every byte of the first units */
	for (x = 0; x <= 2 * unit + 1; x++)
		CMP(c, b, p, x);
	/* and every block and page edge further out */
	for (ki = 0; ki < NELEM(bases); ki++) {
		struct pts pos = { 0 };
		size_t i;

		pts_edges(&pos, bases[ki], sz(b), 4 * umax(sz(p) / sz(b), 1));
		pts_edges(&pos, bases[ki], sz(p), 4 * umax(sz(b) / sz(p), 1));
		pts_done(&pos);
		for (i = 0; i < pos.n; i++)
			CMP(c, b, p, pos.v[i]);
		pts_free(&pos);
	}
}

static void t_truncate_page_len(void **state)
{
	(void)state;
	SWEEP("truncate_page_len", ps_shifts, truncate_page_len_at);
}

static void t_zero_may_mark_uptodate(void **state)
{
	/* the rule is scale free: offsets in 16-byte "units", and pages */
	static const uint64_t v[] = { 0, 1, 2, 15, 16, 17, 31, 32, 33, 47,
				      48, 49, 64 };
	static const uint64_t big[] = { 0, 1, 4095, 4096, 4097, 8191, 8192,
					65535, 65536, 65537, 131072 };
	struct cmp c = { "zero_may_mark_uptodate", 0, 0, 0 };
	size_t a, b, d, e;

	(void)state;
	for (a = 0; a < NELEM(v); a++)
		for (b = 0; b < NELEM(v); b++)
			for (d = 0; d < NELEM(v); d++)
				for (e = 0; e < NELEM(v); e++)
					CMP(&c, v[a], v[b], v[d], v[e]);
	for (a = 0; a < NELEM(big); a++)
		for (b = 0; b < NELEM(big); b++)
			for (d = 0; d < NELEM(big); d++)
				for (e = 0; e < NELEM(big); e++)
					CMP(&c, big[a], big[b], big[d], big[e]);
	cmp_report(&c);
}

/* ==================================================================== */
/* read_range */

/* unit indices worth trying in a folio of n units */
static void unit_idx(struct pts *p, uint64_t n)
{
	uint64_t k;

	if (n <= 16) {
		for (k = 0; k < n; k++)
			pts_add(p, k);
	} else {
		static const uint64_t lo[] = { 0, 1, 2, 3 };

		for (k = 0; k < NELEM(lo); k++) {
			pts_add(p, lo[k]);
			pts_add(p, n - 1 - lo[k]);
		}
		pts_add(p, n / 2 - 1);
		pts_add(p, n / 2);
		pts_add(p, n / 2 + 1);
	}
	pts_done(p);
}

/* uptodate bitmaps of n <= 64 units: all of them for small n */
static void unit_maps(struct pts *p, uint64_t n)
{
	uint64_t all = n == 64 ? UINT64_MAX : ((uint64_t)1 << n) - 1, m, k;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	struct pts idx = { 0 };
	size_t i;

	if (n <= 8) {
		for (m = 0; m <= all; m++)
			pts_add(p, m);
		pts_done(p);
		return;
	}
	unit_idx(&idx, n);
	pts_add(p, 0);
	pts_add(p, all);
	for (i = 0; i < idx.n; i++) {
		k = idx.v[i];
		pts_add(p, (uint64_t)1 << k);			/* one uptodate */
		pts_add(p, all & ~((uint64_t)1 << k));		/* one missing */
		pts_add(p, ((uint64_t)1 << k) - 1);		/* prefix */
		pts_add(p, all & ~(((uint64_t)1 << k) - 1));	/* suffix */
		/* uptodate at both ends, a hole from k */
		pts_add(p, all & ~(((uint64_t)1 << k) | ((uint64_t)1 << (k + 1 < n ? k + 1 : k))));
	}
	pts_add(p, all & 0x5555555555555555ULL);
	pts_add(p, all & 0xaaaaaaaaaaaaaaaaULL);
	pts_add(p, all & 0x3333333333333333ULL);
	for (i = 0; i < 8; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		pts_add(p, all & (seed >> 7));
	}
	pts_free(&idx);
	pts_done(p);
}

static void adjust_read_range_at(struct cmp *c, uint32_t b, uint32_t f)
{
	uint64_t fsize = sz(f), unit = umin(sz(b), fsize);
	uint64_t n = fsize / unit;
	const uint64_t fposv[] = { 0, 3 * fsize,
				   ((uint64_t)1 << 63) - 2 * fsize };
	struct pts idx = { 0 }, maps = { 0 };
	size_t fp, i, j, k, m;

	unit_idx(&idx, n);
	if (n <= 64)
		unit_maps(&maps, n);
	for (fp = 0; fp < NELEM(fposv); fp++) {
		uint64_t fpos = fposv[fp];
		struct pts isz = { 0 };

		/* i_size around every unit edge tried */
		pts_edges(&isz, fpos, 0, 0);
		for (k = 0; k < idx.n; k++)
			pts_edges(&isz, fpos + idx.v[k] * unit,
				  0, 0);
		pts_edges(&isz, fpos + fsize, 0, 0);
		pts_edges(&isz, fpos + fsize + unit, 0, 0);
		pts_edges(&isz, fpos + 2 * fsize, 0, 0);
		pts_add(&isz, 0);
		pts_add(&isz, fpos + 5 * fsize + 7);
		pts_add(&isz, LOFF_END);
		pts_done(&isz);

		for (i = 0; i < idx.n; i++) {
			uint64_t poff = idx.v[i] * unit;
			uint64_t pos = fpos + poff;
			struct pts len = { 0 };

			/* ends on later unit edges */
			for (j = 0; j < idx.n; j++)
				if (idx.v[j] > idx.v[i])
					pts_add(&len, (idx.v[j] - idx.v[i]) * unit);
			pts_add(&len, fsize - poff);
			/* and past the folio */
			pts_add(&len, fsize - poff + 1);
			pts_add(&len, fsize - poff + unit);
			pts_add(&len, 7 * fsize);
			pts_add(&len, LOFF_END - pos);
			pts_done(&len);

			for (j = 0; j < len.n; j++) {
				if (len.v[j] > LOFF_END - pos)
					continue;
				for (k = 0; k < isz.n; k++) {
					CMP(c, b, f, fpos, isz.v[k], 0, 0, pos, len.v[j]);
					/* every bitmap at folio 0, some further out */
					for (m = 0; m < maps.n; m += fp ? 1 + maps.n / 12 : 1)
						CMP(c, b, f, fpos, isz.v[k], 1, maps.v[m], pos, len.v[j]);
				}
			}
			pts_free(&len);
		}
		pts_free(&isz);
	}
	pts_free(&idx);
	pts_free(&maps);
}

static void t_adjust_read_range(void **state)
{
	(void)state;
	SWEEP("adjust_read_range", fs_shifts, adjust_read_range_at);
}

/* ==================================================================== */
/* zero_around */

static void t_need_zero_around(void **state)
{
	struct cmp c = { "need_zero_around", 0, 0, 0 };
	uint32_t b, p, t, n;

	(void)state;
	for (b = 9; b <= 20; b++)
		for (p = 12; p <= 21; p++)
			for (t = 0; t < 4; t++)
				for (n = 0; n < 2; n++)
					CMP(&c, b, p, t, n);
	cmp_report(&c);
}

static void zero_around_at(struct cmp *c, uint32_t b, uint32_t p)
{
	uint64_t bsize = sz(b), psize = sz(p);
	uint32_t ki;

	for (ki = 0; ki < NELEM(bases); ki++) {
		uint64_t base = bases[ki];
		struct pts pos = { 0 }, end = { 0 };
		size_t i, j, k;

		if (bsize > psize) {
			/* writes starting in the first two blocks */
			pts_edges(&pos, base, psize, 2 * bsize / psize);
			/* and ending anywhere up to the third */
			pts_edges(&end, base, psize, 3 * bsize / psize);
		} else {
			/* nothing to zero: a coarser grid */
			pts_edges(&pos, base, bsize, 2);
			pts_edges(&pos, base, psize, 2);
			pts_edges(&end, base, bsize, 3);
			pts_edges(&end, base, psize, 3);
		}
		pts_done(&pos);
		pts_done(&end);
		for (i = 0; i < pos.n; i++) {
			uint64_t s = pos.v[i];

			for (j = 0; j < end.n; j++) {
				uint64_t e = end.v[j];
				/* the last block of the write */
				uint64_t lb = e > s ? (e - 1) - (e - 1) % bsize : s - s % bsize;
				struct pts isz = { 0 };

				if (e < s)
					continue;
				/*
				 * i_size: on and beside every page
				 * edge of the last block, the write's
				 * ends, the blocks around it
				 */
				pts_edges(&isz, lb, umin(psize, bsize), umax(bsize / psize, 1));
				pts_edges(&isz, s, 0, 0);
				pts_edges(&isz, e, 0, 0);
				pts_edges(&isz, base, 0, 0);
				pts_edges(&isz, lb + bsize, bsize, 1);
				pts_add(&isz, 0);
				pts_add(&isz, LOFF_END - 1);
				pts_done(&isz);
				for (k = 0; k < isz.n; k++)
					CMP(c, b, p, s, e - s, isz.v[k]);
				pts_free(&isz);
			}
		}
		pts_free(&pos);
		pts_free(&end);
	}
}

static void t_zero_around(void **state)
{
	(void)state;
	SWEEP("zero_around", ps_shifts, zero_around_at);
}

static void post_eof_range_at(struct cmp *c, uint32_t b, uint32_t p)
{
	uint64_t unit = umin(sz(b), sz(p));
	struct pts ev = { 0 };
	size_t i, k;

	for (k = 0; k < NELEM(bases); k++)
		pts_edges(&ev, bases[k], unit,
			  3 * (uint32_t)(umax(sz(b), sz(p)) / unit) + 2);
	pts_add(&ev, LOFF_END);
	pts_done(&ev);
	for (i = 0; i < ev.n; i++)
		CMP(c, b, p, ev.v[i]);
	pts_free(&ev);
}

static void t_post_eof_range(void **state)
{
	(void)state;
	SWEEP("post_eof_range", ps_shifts, post_eof_range_at);
}

/* ==================================================================== */
/* copy_around */

static void t_need_copy_around(void **state)
{
	struct cmp c = { "need_copy_around", 0, 0, 0 };
	uint32_t b, p, w;

	(void)state;
	for (b = 9; b <= 20; b++)
		for (p = 12; p <= 21; p++)
			for (w = 0; w < 2; w++)
				CMP(&c, b, p, w);
	cmp_report(&c);
}

static void t_fill_from_source(void **state)
{
	struct cmp c = { "fill_from_source", 0, 0, 0 };
	struct pts pv = { 0 };
	uint32_t t, n;
	size_t i, j, k;

	(void)state;
	for (k = 0; k < NELEM(bases); k++)
		pts_edges(&pv, bases[k], 4096, 3);
	pts_add(&pv, LOFF_END);
	pts_done(&pv);
	for (t = 0; t < 4; t++)
		for (n = 0; n < 2; n++)
			for (i = 0; i < pv.n; i++)
				for (j = 0; j < pv.n; j++)
					CMP(&c, t, n, pv.v[i], pv.v[j]);
	pts_free(&pv);
	cmp_report(&c);
}

static void unshare_range_at(struct cmp *c, uint32_t b, uint32_t p)
{
	/* page edges over three blocks (three pages when bs <= ps) */
	uint64_t unit = sz(p);
	uint32_t n = 3 * (uint32_t)umax(sz(b) / unit, 1);
	size_t ki, i, j, k;

	for (ki = 0; ki < NELEM(bases); ki++) {
		struct pts pos = { 0 }, end = { 0 }, isz = { 0 };

		pts_edges(&pos, bases[ki], unit, n);
		pts_edges(&end, bases[ki], unit, n + 2);
		pts_edges(&isz, bases[ki], unit, n + 2);
		pts_add(&isz, LOFF_END);
		pts_done(&pos);
		pts_done(&end);
		pts_done(&isz);
		for (i = 0; i < pos.n; i++)
			for (j = 0; j < end.n; j++) {
				if (end.v[j] < pos.v[i])
					continue;
				for (k = 0; k < isz.n; k++)
					CMP(c, b, p, pos.v[i],
					    end.v[j] - pos.v[i], isz.v[k]);
			}
		pts_free(&pos);
		pts_free(&end);
		pts_free(&isz);
	}
}

static void t_unshare_range(void **state)
{
	(void)state;
	SWEEP("unshare_range", ps_shifts, unshare_range_at);
}

/* ==================================================================== */

static const struct CMUnitTest g_pageblock[] = {
	cmocka_unit_test(t_oracle_selftest),
	cmocka_unit_test(t_pageblock_scalars),
	cmocka_unit_test(t_pageblock_range),
	cmocka_unit_test(t_truncate_page_len),
	cmocka_unit_test(t_zero_may_mark_uptodate),
};
static const struct CMUnitTest g_read_range[] = {
	cmocka_unit_test(t_adjust_read_range),
};
static const struct CMUnitTest g_zero_around[] = {
	cmocka_unit_test(t_need_zero_around),
	cmocka_unit_test(t_zero_around),
	cmocka_unit_test(t_post_eof_range),
};
static const struct CMUnitTest g_copy_around[] = {
	cmocka_unit_test(t_need_copy_around),
	cmocka_unit_test(t_fill_from_source),
	cmocka_unit_test(t_unshare_range),
};

const struct exh_group exh_pagecache[] = {
	EXH_GROUP(pageblock), EXH_GROUP(read_range), EXH_GROUP(zero_around),
	EXH_GROUP(copy_around),
	{ NULL, NULL, 0 },
};
