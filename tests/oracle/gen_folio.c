// SPDX-License-Identifier: GPL-2.0
/*
 * Boundary vectors for core/folio_order.c: orders on and beside the
 * minimum order m = max(block order, 2), indices on and beside 2^m page
 * edges, windows and writes that end on, before and after a block, at
 * blocks of 4k (m = 0) to 64k on 4k pages, and near the end of loff_t.
 * Expected outputs come from the oracles (emit() calls oracle_call()).
 */
#include <stdint.h>

#include "gen_vectors.h"
#include "grid.h"

/* MAX_PAGECACHE_ORDER of x86_64 6.1 with THP (HPAGE_PMD_ORDER) */
#define MAXO	9
#define P4K	12

/* 4k (m 0), 8k (m 2, order 1 is not allowed), 16k (m 2), 64k (m 4) */
static const uint32_t blks[] = { 12, 13, 14, 16 };

static void gen_min_order_ok(void)
{
	static const uint32_t pv[] = { 12, 14, 16, 21 };
	uint32_t b, p, o;

	blank();
	comment("folio_min_order: blkbits pshift = m, 0 if bs <= ps");
	for (b = 9; b <= 20; b++)
		for (p = 0; p < NELEM(pv); p++)
			V("folio_min_order", b, pv[p]);
	comment("regression: m = max(block order, 2); 6.1 has no order-1");
	comment("file folios (__folio_alloc() preps order > 1 only)");
	R("folio_min_order", 13, 12);

	blank();
	comment("folio_order_ok: blkbits pshift order = 0 or >= max(border, 2)");
	for (b = 9; b <= 17; b++)
		for (o = 0; o <= 6; o++)
			V("folio_order_ok", b, P4K, o);
	V("folio_order_ok", 16, P4K, MAXO);
	V("folio_order_ok", 16, P4K, 31);
	V("folio_order_ok", 16, 16, 1);
	V("folio_order_ok", 17, 16, 1);
	V("folio_order_ok", 18, 16, 2);
	comment("regression: order 1 at any block size (6.1 readahead and");
	comment("__folio_alloc()); orders 1..m-1 split a 64k block");
	R("folio_order_ok", 12, P4K, 1);
	R("folio_order_ok", 13, P4K, 1);
	R("folio_order_ok", 16, P4K, 3);
}

static void gen_covers(void)
{
	const uint64_t endpg = LOFF_END / sz(P4K);	/* pages below 2^63 */
	static const uint32_t ords[] = { 0, 2, 4, 5 };
	uint32_t i, j;

	blank();
	comment("folio_covers_block: blkbits pshift index order pos = bool");
	for (i = 0; i < NELEM(blks); i++) {
		uint32_t b = blks[i];
		uint64_t bs = sz(b);
		const uint64_t posv[] = { 0, bs - 1, bs, 2 * bs - 1, 2 * bs,
					  4 * bs, LOFF_END - 1 };

		for (j = 0; j < NELEM(ords); j++) {
			uint32_t o = ords[j];
			uint64_t idx, k;

			for (k = 0; k < NELEM(posv); k++) {
				idx = posv[k] / sz(P4K + o) * sz(o);
				V("folio_covers_block", b, P4K, idx, o,
				  posv[k]);
			}
		}
	}
	/* pos outside the folio, misaligned folios, the end of loff_t */
	V("folio_covers_block", 16, P4K, 16, 4, 65535);
	V("folio_covers_block", 16, P4K, 16, 4, 131072);
	V("folio_covers_block", 16, P4K, 8, 4, 65536);
	V("folio_covers_block", 16, P4K, 8, 4, 32768);
	V("folio_covers_block", 16, P4K, endpg - 16, 4, LOFF_END - 1);
	V("folio_covers_block", 16, P4K, endpg - 1, 0, LOFF_END - 1);
	V("folio_covers_block", 16, 16, 3, 0, 3 * 65536 + 100);
	V("folio_covers_block", 17, 16, 2, 1, 3 * 65536 + 100);
	comment("regression: an order-2 folio at index 4 inside a 64k block");
	R("folio_covers_block", 16, P4K, 4, 2, 20480);
}

static void gen_ra(void)
{
	static const uint32_t want[] = { 0, 2, 4, MAXO };
	static const uint32_t sizes[] = { 3, 4, 8, 15, 16, 32, 512 };
	static const uint64_t idxv[] = { 0, 1, 3, 4, 15, 16, 24, 32, 512 };
	static const uint64_t spanv[] = { 0, 3, 15, 16, 31 };
	uint32_t i, j, k, w;

	blank();
	comment("ra_start_order: blkbits pshift new_order ra_size max_order = order");
	for (i = 0; i < NELEM(blks); i++)
		for (w = 0; w < NELEM(want); w++)
			for (j = 0; j < NELEM(sizes); j++)
				V("ra_start_order", blks[i], P4K, want[w],
				  sizes[j], MAXO);
	V("ra_start_order", 16, P4K, 8, 16, 8);
	V("ra_start_order", 16, P4K, 3, 64, 3);
	V("ra_start_order", 16, P4K, 0, 64, 3);
	V("ra_start_order", 12, P4K, 0, 64, 1);
	V("ra_start_order", 16, 16, 0, 4, 11);
	V("ra_start_order", 18, 16, 0, 4, 11);
	V("ra_start_order", 16, P4K, 0, UINT32_MAX, 31);
	comment("regression: a 64k-block window ramping from an order-0 folio");
	comment("starts at m, or it never leaves order 0");
	R("ra_start_order", 16, P4K, 0, 32, MAXO);

	blank();
	comment("ra_folio_order: blkbits pshift index limit new_order = order");
	for (i = 0; i < NELEM(blks); i++)
		for (j = 0; j < NELEM(idxv); j++)
			for (k = 0; k < NELEM(spanv); k++)
				V("ra_folio_order", blks[i], P4K, idxv[j],
				  idxv[j] + spanv[k], blks[i] == 12 ? 4 : 5);
	V("ra_folio_order", 12, P4K, 2, 100, 4);
	V("ra_folio_order", 13, P4K, 2, 100, 4);
	V("ra_folio_order", 16, P4K, 512, 1023, MAXO);
	V("ra_folio_order", 16, P4K, 512, 1022, MAXO);
	V("ra_folio_order", 16, P4K, 0, 0, 0);
	V("ra_folio_order", 12, P4K, 0, 1, 1);
	V("ra_folio_order", 16, P4K, LOFF_END / sz(P4K) - 16,
	  LOFF_END / sz(P4K) - 1, MAXO);
	comment("regression (6.1 page_cache_ra_order()): orders 2..m-1 at");
	comment("aligned indices and at the window's end become 0");
	R("ra_folio_order", 16, P4K, 4, 100, 4);
	R("ra_folio_order", 16, P4K, 16, 27, 4);
}

static void gen_write(void)
{
	uint32_t i;

	blank();
	comment("write_folio: blkbits pshift pos len max_order = index order");
	for (i = 0; i < NELEM(blks); i++) {
		uint64_t bs = sz(blks[i]);
		const uint64_t posv[] = { 0, 100, bs - 1, bs, bs + 4096,
					  3 * bs - 1, 4 * bs };
		const uint64_t lenv[] = { 1, bs, 2 * bs, 4 * bs - 100, 8 * bs };
		uint32_t j, k;

		for (j = 0; j < NELEM(posv); j++)
			for (k = 0; k < NELEM(lenv); k++)
				V("write_folio", blks[i], P4K, posv[j],
				  lenv[k], MAXO);
		V("write_folio", blks[i], P4K, 0, 1024 * bs, MAXO);
		V("write_folio", blks[i], P4K, bs, 1024 * bs, 0);
		V("write_folio", blks[i], P4K, 5 * bs + 7, 3, 3);
	}
	V("write_folio", 16, P4K, LOFF_END - 1, 1, MAXO);
	V("write_folio", 16, P4K, LOFF_END - 65536, 65536, MAXO);
	V("write_folio", 16, P4K, 0, LOFF_END, 31);
	V("write_folio", 16, 16, 70000, 200000, 11);
	V("write_folio", 18, 16, 70000, 200000, 11);
	comment("a write at page 10 into 16k blocks: its folio starts at its");
	comment("block's page 8, not at page 10, and takes both its blocks");
	V("write_folio", 14, P4K, 40960, 20480, MAXO);

	blank();
	comment("folio_order_fallback: blkbits pshift order = ret next");
	for (i = 0; i < NELEM(blks); i++) {
		uint32_t o;

		for (o = 0; o <= 6; o++)
			V("folio_order_fallback", blks[i], P4K, o);
		V("folio_order_fallback", blks[i], P4K, MAXO);
	}
	V("folio_order_fallback", 17, 16, 2);
	V("folio_order_fallback", 18, 16, 2);
	comment("regression: from m straight to 0, never 1..m-1");
	R("folio_order_fallback", 16, P4K, 4);
}

void gen_folio(void)
{
	gen_min_order_ok();
	gen_covers();
	gen_ra();
	gen_write();
}
