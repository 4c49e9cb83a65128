// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive comparison of lbs_short_copy_range() (through lbs_vec_call())
 * with its oracle: at 8k and 16k blocks on 4k pages every copy point of a
 * block, with data ends and file sizes on, one before and one after every
 * page edge around it; at every block and page shift pair, copy points,
 * data ends and file sizes at the page edges of the first and last pages
 * of a block near 0, 2^40 and 2^63; and data ends past the block, which
 * the oracle must refuse.
 *
 * Usage: test_short_copy
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmp.h"
#include "grid.h"

/* page edges +-1 of the first and last @n pages of the block at @blk */
static void block_page_edges(struct pts *p, uint64_t blk, uint32_t b,
			     uint32_t ps, uint32_t n)
{
	uint64_t np = sz(b) > sz(ps) ? sz(b) / sz(ps) : 1;

	if (np <= 2 * n) {
		pts_edges(p, blk, sz(ps), np);
		return;
	}
	pts_edges(p, blk, sz(ps), n);
	pts_edges(p, blk + sz(b) - n * sz(ps), sz(ps), n);
}

/* file sizes: 0, the edges around the block, and far past it */
static void isize_points(struct pts *p, uint64_t blk, uint32_t b, uint32_t ps,
			 uint32_t n)
{
	pts_add(p, 0);
	if (blk >= sz(b))
		pts_edges(p, blk - sz(b), sz(b), 1);
	block_page_edges(p, blk, b, ps, n);
	pts_edges(p, blk + sz(b), sz(b), 2);
}

/* every copy point of block 1, at bs 8k and 16k on 4k pages */
static void t_every_pos(void **state)
{
	static const uint32_t geo[][2] = { { 13, 12 }, { 14, 12 } };
	struct cmp c = { "short_copy_range", 0, 0, 0 };
	size_t g, i, j;

	(void)state;
	for (g = 0; g < NELEM(geo); g++) {
		uint32_t b = geo[g][0], p = geo[g][1];
		uint64_t blk = sz(b), pos;
		struct pts dend = { 0 }, isz = { 0 };

		block_page_edges(&dend, blk, b, p, 8);
		isize_points(&isz, blk, b, p, 8);
		pts_done(&dend);
		pts_done(&isz);
		for (pos = blk; pos < blk + sz(b); pos++) {
			for (i = 0; i < dend.n; i++)
				for (j = 0; j < isz.n; j++)
					CMP(&c, b, p, pos, dend.v[i],
					    isz.v[j]);
			for (j = 0; j < isz.n; j++) {
				CMP(&c, b, p, pos, pos + 1, isz.v[j]);
				CMP(&c, b, p, pos, pos, isz.v[j]);
			}
			CMP(&c, b, p, pos, blk + sz(b), pos);
			CMP(&c, b, p, pos, blk + sz(b), pos + 1);
		}
		pts_free(&dend);
		pts_free(&isz);
	}
	cmp_report(&c);
}

/* every shift pair, at page edges near 0, 2^40 and the end of loff_t */
static void t_edges(void **state)
{
	struct cmp c = { "short_copy_range", 0, 0, 0 };
	uint32_t b, p;
	size_t k, i, j, l;

	(void)state;
	for (b = 9; b <= 20; b++) {
		for (p = 12; p <= 21; p++) {
			const uint64_t blks[] = {
				sz(b), ((uint64_t)1 << 40) + sz(b),
				LOFF_END - sz(b),
			};

			for (k = 0; k < NELEM(blks); k++) {
				struct pts pos = { 0 }, dend = { 0 };
				struct pts isz = { 0 };

				block_page_edges(&pos, blks[k], b, p, 2);
				block_page_edges(&dend, blks[k], b, p, 3);
				isize_points(&isz, blks[k], b, p, 3);
				pts_add(&isz, LOFF_END);
				pts_done(&pos);
				pts_done(&dend);
				pts_done(&isz);
				for (i = 0; i < pos.n; i++)
					for (j = 0; j < dend.n; j++)
						for (l = 0; l < isz.n; l++)
							CMP(&c, b, p, pos.v[i],
							    dend.v[j],
							    isz.v[l]);
				pts_free(&pos);
				pts_free(&dend);
				pts_free(&isz);
			}
		}
	}
	/* shifts outside the domain and copy points at 2^63: refused */
	CMP(&c, 8, 12, 0, 1, 1);
	CMP(&c, 16, 11, 0, 1, 1);
	CMP(&c, 16, 12, LOFF_END, LOFF_END, LOFF_END);
	cmp_report(&c);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_every_pos),
		cmocka_unit_test(t_edges),
	};

	return cmocka_run_group_tests_name("short_copy", tests, NULL, NULL);
}
