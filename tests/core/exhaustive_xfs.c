// SPDX-License-Identifier: GPL-2.0
/*
 * The exhaustive comparison (test_exhaustive.c) of the XFS geometry
 * rules (xfs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exhaustive.h"

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

const struct exh_group exh_xfs[] = {
	EXH_GROUP(xfs),
	{ NULL, NULL, 0 },
};
