// SPDX-License-Identifier: GPL-2.0
/*
 * Boundary vectors for core/block.c and for lbs_large_folios_ok(): each
 * offset sits on, one before and one after a block edge, near 0, 2^40
 * and the end of the loff_t range.  Expected outputs come from the
 * oracles (emit() calls oracle_call()).
 */
#include <stdint.h>

#include "gen_vectors.h"
#include "grid.h"

static const uint32_t blk_shifts[] = { 9, 10, 12, 13, 14, 16, 20 };

static void gen_block_fn(const char *fn, uint32_t b)
{
	uint64_t bs = sz(b), far = (uint64_t)1 << 40;
	const uint64_t posv[] = { 0, 1, bs - 1, bs, bs + 1, 2 * bs - 1,
				  2 * bs, 3 * bs + 512, far - 1, far, far + 1,
				  LOFF_END - bs - 1, LOFF_END - bs,
				  LOFF_END - 1, LOFF_END };
	uint32_t i;

	for (i = 0; i < NELEM(posv); i++)
		V(fn, b, posv[i]);
}

void gen_block(void)
{
	static const char *const fns[] = { "block_start", "block_end",
					   "block_offset", "block_round_up" };
	static const char *const what[] = {
		"start of the block holding pos",
		"end (excl) of the block holding pos, round_up(pos + 1)",
		"offset of pos in its block",
		"an exclusive end rounded up to a block edge",
	};
	uint32_t f, i, p;

	for (f = 0; f < NELEM(fns); f++) {
		blank();
		comment("%s: blkbits pos = %s", fns[f], what[f]);
		for (i = 0; i < NELEM(blk_shifts); i++)
			gen_block_fn(fns[f], blk_shifts[i]);
	}

	blank();
	comment("pages_per_block: blkbits pshift = pages a block spans, at least 1");
	for (i = 9; i <= 20; i++)
		for (p = 12; p <= 21; p += 2)
			V("pages_per_block", i, p);
	V("pages_per_block", 20, 21);
	V("pages_per_block", 13, 12);
}

void gen_large_folios(void)
{
	static const uint32_t pv[] = { 12, 14, 16, 21 };
	uint32_t b, p;

	blank();
	comment("large_folios_ok: blkbits pshift = 1 if mapping_set_large_folios()");
	for (b = 9; b <= 17; b++)
		for (p = 0; p < NELEM(pv); p++)
			V("large_folios_ok", b, pv[p]);
	V("large_folios_ok", 21, 21);
	V("large_folios_ok", 22, 21);
	comment("regression (6.1 xfs_inode_alloc()): mapping_set_large_folios() for");
	comment("every inode; with blocks larger than a page (patch 11) folios are");
	comment("one page, sb_blocklog <= PAGE_SHIFT");
	R("large_folios_ok", 16, 12);
	R("large_folios_ok", 13, 12);
	R("large_folios_ok", 12, 12);
}
