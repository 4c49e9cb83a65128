// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive comparison of core (through lbs_vec_call()) with the oracles
 * over bs 512..64k x page (folio) 4k, 16k, 64k, on grids that hit x - 1,
 * x and x + 1 for every block and page edge x within several blocks, with
 * i_size before, inside and after the blocks, near offset 0, 2^40 and
 * close to 2^63.
 *
 * Usage: test_exhaustive GROUP, one of pageblock, read_range, zero_around,
 * copy_around, dio, writeback, xfs; meson runs the groups in parallel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmp.h"
#include "grid.h"

static const uint32_t bs_shifts[] = { 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint32_t ps_shifts[] = { 12, 14, 16 };
/* folio shifts for the page cache unit: the page sizes and a 2M folio */
static const uint32_t fs_shifts[] = { 12, 14, 16, 21 };

/* far file offsets, multiples of every block, page and folio size */
static const uint64_t bases[] = {
	0,
	(uint64_t)1 << 40,
	((uint64_t)1 << 63) - ((uint64_t)1 << 23),
};

/*
 * Compare @fn at every block shift x every one of the @nsec shifts in
 * @sec (page shifts, or folio shifts), in that order: @at makes the
 * comparisons for one (block shift, other shift) pair.  Then report.
 */
static void cmp_sweep(const char *fn, const uint32_t *sec, size_t nsec,
		      void (*at)(struct cmp *c, uint32_t b, uint32_t s))
{
	struct cmp c = { fn, 0, 0, 0 };
	size_t bi, si;

	for (bi = 0; bi < NELEM(bs_shifts); bi++)
		for (si = 0; si < nsec; si++)
			at(&c, bs_shifts[bi], sec[si]);
	cmp_report(&c);
}

#define SWEEP(fn, sec, at)	cmp_sweep((fn), (sec), NELEM(sec), (at))

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
/* xfs */

static void t_ag_block_count(void **state)
{
	static const uint64_t agbv[] = { 1, 2, 3, 7, 16, 4096, 65536, 1000003,
					 (uint64_t)1 << 24, 0x7fffffff,
					 0xfffffffe, 0xffffffff };
	static const uint64_t agcv[] = { 1, 2, 3, 4, 5, 17, 257, 4097,
					 65537, 0xffffffff };
	struct cmp c = { "ag_block_count", 0, 0, 0 };
	size_t i, j;

	(void)state;
	for (i = 0; i < NELEM(agbv); i++)
		for (j = 0; j < NELEM(agcv); j++) {
			uint64_t agb = agbv[i], agc = agcv[j];
			uint64_t full = (agc - 1) * agb;
			const uint64_t runt[] = { 1, 2, agb / 2, agb - 1, agb };
			const uint64_t agnos[] = { 0, 1, agc / 2, agc - 2,
						   agc - 1, agc, agc + 1,
						   UINT32_MAX };
			size_t r, a;

			for (r = 0; r < NELEM(runt); r++)
				for (a = 0; a < NELEM(agnos); a++) {
					if (runt[r] == 0 || runt[r] > agb)
						continue;
					CMP(&c, agnos[a], agc, agb, full + runt[r]);
				}
			/* inconsistent geometry: out of domain, skipped */
			CMP(&c, agc - 1, agc, agb, full);
		}
	cmp_report(&c);
}

static void t_ag_log_blocks(void **state)
{
	struct cmp c = { "ag_log_blocks", 0, 0, 0 };
	uint32_t lg, a;

	(void)state;
	for (lg = 1; lg <= 32; lg++) {
		struct pts ls = { 0 };
		size_t i;

		pts_edges(&ls, 0, (uint64_t)1 << lg, 4);
		pts_edges(&ls, ((uint64_t)0xfffffffe) << lg, (uint64_t)1 << lg, 1);
		pts_done(&ls);
		for (i = 0; i < ls.n; i++) {
			for (a = 0; a <= 5; a++) {
				CMP(&c, a, lg, ls.v[i], 2560);
				CMP(&c, a, lg, ls.v[i], 0);
			}
			CMP(&c, 0xfffffffe, lg, ls.v[i], 7);
			CMP(&c, 0xffffffff, lg, ls.v[i], 7);
		}
		pts_free(&ls);
	}
	cmp_report(&c);
}

static void t_btree_calc_size(void **state)
{
	struct cmp c = { "btree_calc_size", 0, 0, 0 };
	static const uint64_t big[] = { 1ULL << 32, (1ULL << 40) + 1,
					UINT64_MAX / 2, UINT64_MAX - 1,
					UINT64_MAX };
	uint64_t leaf, node, r;
	size_t i;

	(void)state;
	for (leaf = 0; leaf <= 9; leaf++)
		for (node = 0; node <= 9; node++) {
			for (r = 0; r <= 1200; r++)
				CMP(&c, leaf, node, r);
			for (i = 0; i < NELEM(big); i++)
				CMP(&c, leaf, node, big[i]);
		}
	/* real inobt geometries: 4k..64k blocks, crc and not */
	for (leaf = 28; leaf <= 2044; leaf = leaf * 2 + 1)
		for (r = 0; r < 40; r++) {
			CMP(&c, leaf, 2 * leaf, r * 1000003);
			CMP(&c, leaf, 2 * leaf, (uint64_t)1 << r);
			CMP(&c, UINT32_MAX, UINT32_MAX, (uint64_t)1 << r);
		}
	cmp_report(&c);
}

static void t_inobt_max_size(void **state)
{
	static const uint64_t agv[] = { 0, 1, 2, 16, 17, 100, 4096, 65536,
					1000000, 0x7fffffff, 0xffffffff };
	static const uint64_t inopb[] = { 0, 1, 2, 8, 16, 64, 128, 256 };
	static const uint64_t mnr[][2] = { { 0, 0 }, { 1, 1 }, { 1, 2 },
					   { 2, 2 }, { 28, 56 }, { 126, 252 },
					   { 2044, 4088 }, { 0xffffffff, 2 } };
	struct cmp c = { "inobt_max_size", 0, 0, 0 };
	size_t a, l, i, m;

	(void)state;
	for (a = 0; a < NELEM(agv); a++)
		for (l = 0; l < NELEM(agv); l++)
			for (i = 0; i < NELEM(inopb); i++)
				for (m = 0; m < NELEM(mnr); m++)
					CMP(&c, agv[a], agv[l], inopb[i],
					    mnr[m][0], mnr[m][1]);
	cmp_report(&c);
}

static void t_stat_blksize(void **state)
{
	static const uint64_t v[] = { 0, 512, 65536, 1u << 20, 0xffffffff };
	struct cmp c = { "stat_blksize", 0, 0, 0 };
	uint32_t b, p;
	size_t r, l, s, a;

	(void)state;
	for (b = 9; b <= 17; b++)
		for (p = 12; p <= 16; p++)
			for (r = 0; r < NELEM(v); r++)
				for (l = 0; l < 2; l++)
					for (s = 0; s < NELEM(v); s++)
						for (a = 0; a < NELEM(v); a++)
							CMP(&c, b, p, v[r], l, v[s], v[a]);
	cmp_report(&c);
}

static void t_mount_blocksize(void **state)
{
	struct cmp c = { "mount_blocksize", 0, 0, 0 };
	uint32_t b, p, v, m;

	(void)state;
	for (b = 9; b <= 20; b++)
		for (p = 12; p <= 16; p++)
			for (v = 0; v < 2; v++)
				for (m = 9; m <= 20; m++)
					CMP(&c, b, p, v, m);
	cmp_report(&c);
}

static void t_cowextsz_hint(void **state)
{
	struct cmp c = { "cowextsz_hint", 0, 0, 0 };
	uint32_t b, p, h;

	(void)state;
	for (b = 9; b <= 20; b++)
		for (p = 12; p <= 16; p++)
			for (h = 1; h <= 4096; h++)
				CMP(&c, b, p, h);
	cmp_report(&c);
}

static void t_fsb_count_ok(void **state)
{
	static const uint64_t maxv[] = { 0, 1, 0xffffffffULL, UINT64_MAX,
					 (1ULL << 40) - 1 };
	struct cmp c = { "fsb_count_ok", 0, 0, 0 };
	uint32_t b, p;
	size_t m, i;

	(void)state;
	for (b = 9; b <= 16; b++)
		for (p = 12; p <= 16; p += 2)
			for (m = 0; m < NELEM(maxv); m++) {
				struct pts nb = { 0 };
				uint64_t per_page = sz(p) > sz(b) ? sz(p) / sz(b) : 1;
				uint64_t per_blk = sz(b) > sz(p) ? sz(b) / sz(p) : 1;
				uint64_t lim;

				/* block counts around the largest that fits */
				if (maxv[m] < UINT64_MAX / 2) {
					lim = (maxv[m] + 1) * per_page / per_blk;
					pts_edges(&nb, lim, per_page, 1);
					if (lim > per_page)
						pts_edges(&nb, lim - 2 * per_page, per_page, 1);
				}
				/* and around 64-bit byte overflow */
				pts_edges(&nb, UINT64_MAX >> b, 0, 0);
				pts_add(&nb, 0);
				pts_add(&nb, UINT64_MAX);
				pts_done(&nb);
				for (i = 0; i < nb.n; i++)
					CMP(&c, nb.v[i], b, p, maxv[m]);
				pts_free(&nb);
			}
	cmp_report(&c);
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
static const struct CMUnitTest g_xfs[] = {
	cmocka_unit_test(t_ag_block_count),
	cmocka_unit_test(t_ag_log_blocks),
	cmocka_unit_test(t_btree_calc_size),
	cmocka_unit_test(t_inobt_max_size),
	cmocka_unit_test(t_stat_blksize),
	cmocka_unit_test(t_mount_blocksize),
	cmocka_unit_test(t_fsb_count_ok),
	cmocka_unit_test(t_cowextsz_hint),
};

#define GROUP(g) { #g, g_##g, NELEM(g_##g) }

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		const struct CMUnitTest *tests;
		size_t n;
	} groups[] = {
		GROUP(pageblock), GROUP(read_range), GROUP(zero_around),
		GROUP(copy_around), GROUP(dio), GROUP(writeback), GROUP(xfs),
	};
	int rc = 0, found = 0;
	size_t i;

	for (i = 0; i < NELEM(groups); i++) {
		if (argc > 1 && strcmp(argv[1], groups[i].name))
			continue;
		found = 1;
		rc |= _cmocka_run_group_tests(groups[i].name, groups[i].tests,
					      groups[i].n, NULL, NULL);
	}
	if (!found) {
		fprintf(stderr, "usage: %s [pageblock|read_range|zero_around|"
			"copy_around|dio|writeback|xfs]\n", argv[0]);
		return 2;
	}
	return rc ? 1 : 0;
}
