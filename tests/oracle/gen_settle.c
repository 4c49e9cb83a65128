// SPDX-License-Identifier: GPL-2.0
/*
 * Boundary vectors for lbs_settle_edges() and lbs_settle_range(): ranges
 * that start and end on, one before and one after the page edges of a
 * block, inside one block, across a block edge and over many blocks,
 * near 0, 2^40 and with the last block ending at 2^63, each with its
 * edges and, for a rotating share, with all four busy values.  Expected
 * outputs come from the oracle (emit() calls oracle_call()).
 */
#include <stdint.h>

#include "gen_vectors.h"
#include "grid.h"

/* the edges of [pos, end), and what settles with each busy value */
static void gen_settle_busy(uint32_t b, uint32_t p, uint64_t pos,
			    uint64_t end)
{
	uint32_t busy;

	V("settle_edges", b, p, pos, end);
	for (busy = 0; busy < 4; busy++)
		V("settle_range", b, p, pos, end, busy);
}

/*
 * Ranges shaped around the block at @blk; every one has its edges, and
 * one in @every (from @salt on) also the four busy values.
 */
static void gen_settle_block(uint32_t b, uint32_t p, uint64_t blk,
			     uint32_t every, uint32_t salt)
{
	uint64_t bs = sz(b), ps = sz(p), bend = blk + bs;
	const uint64_t r[][2] = {
		{ blk, bend },			/* the whole block */
		{ blk, blk + ps },		/* its first page */
		{ bend - ps, bend },		/* its last page */
		{ blk + ps, bend - ps },	/* the pages between */
		{ blk + 1, blk + ps - 1 },	/* inside the first page */
		{ blk + ps - 1, blk + ps + 1 },	/* across a page edge */
		{ blk, bend - 1 },		/* EOF page inside */
		{ bend - 1, bend + 1 },		/* across the block edge */
		{ bend - ps, bend + ps },	/* a page either side */
		{ blk + ps + 1, bend + ps + 1 },	/* to mid-page, next block */
		{ bend - ps + 1, bend + bs },	/* to a block edge */
		{ blk + ps, bend + bs - ps },	/* two blocks, both edges */
		{ blk + ps - 1, bend + bs + ps + 1 },	/* three blocks */
		{ blk + 1, bend + 7 * bs - 1 },	/* eight blocks */
	};
	uint32_t i;

	for (i = 0; i < NELEM(r); i++) {
		if (r[i][1] <= r[i][0])
			continue;
		if ((i + salt) % every)
			V("settle_edges", b, p, r[i][0], r[i][1]);
		else
			gen_settle_busy(b, p, r[i][0], r[i][1]);
	}
}

void gen_settle(void)
{
	static const uint32_t big[][2] = {
		{ 13, 12 }, { 14, 12 }, { 16, 12 }, { 16, 14 }, { 20, 12 },
	};
	static const uint32_t small[][2] = {
		{ 9, 12 }, { 12, 12 }, { 14, 16 }, { 16, 16 },
	};
	const uint64_t far = (uint64_t)1 << 40;
	uint32_t i;

	blank();
	comment("settle_edges: blkbits pshift pos end = edges head tail, the edge");
	comment("blocks of [pos, end) that have pages holding no byte of it: 1 the");
	comment("first block has pages before pos, 2 the last has pages after the");
	comment("page holding end - 1, 3 both; head, tail: the block-rounded range");
	comment("settle_range: blkbits pshift pos end busy = ret start stop, the");
	comment("blocks whose mapping may change now: [pos, end) rounded out to");
	comment("blocks, less an edge block reported and busy (its outside pages");
	comment("are dirty, locked or under writeback)");
	for (i = 0; i < NELEM(big); i++) {
		uint32_t b = big[i][0], p = big[i][1];
		uint64_t bs = sz(b);

		gen_settle_block(b, p, bs, 3, i);
		gen_settle_block(b, p, far + bs, 5, i + 1);
		gen_settle_block(b, p, LOFF_END - 8 * bs, 5, i + 2);
		/* many blocks, to the end of loff_t and past 2^40 */
		gen_settle_busy(b, p, sz(p) + 1, LOFF_END);
		gen_settle_busy(b, p, bs - 1, far + sz(p));
	}
	comment("settle_range with blocks no larger than a page: a block lies in one");
	comment("page, which the range holds a byte of; plain outward rounding,");
	comment("busy or not");
	for (i = 0; i < NELEM(small); i++) {
		uint32_t b = small[i][0], p = small[i][1];
		uint64_t bs = sz(b);

		V("settle_edges", b, p, bs + 1, 3 * bs - 1);
		V("settle_range", b, p, bs + 1, 3 * bs - 1, 0);
		V("settle_range", b, p, bs + 1, 3 * bs - 1, 3);
		V("settle_range", b, p, 1, sz(p) + 1, 3);
		V("settle_range", b, p, LOFF_END - 1, LOFF_END, 3);
	}
	comment("settle_range: an empty range settles nothing, at pos; busy bits of");
	comment("edges that settle_edges does not report are ignored");
	V("settle_range", 16, 12, 65536, 65536, 3);
	V("settle_range", 16, 12, 98304, 65536, 0);
	V("settle_range", 16, 12, LOFF_END, LOFF_END, 3);
	V("settle_range", 16, 12, 65536, 131072, 3);
	V("settle_range", 16, 12, 69632, 131072, 2);
	V("settle_range", 16, 12, 65536, 126976, 1);

	blank();
	comment("settle_range: at bs 64k, ps 4k, a flusher's ioend [65536, 98304)");
	comment("(pages 0-7 of block 1) completes while an fsync's ioend holds pages");
	comment("8-15: block 1 stays unwritten; it converts whole when the second");
	comment("completes with nothing else pending.  A delalloc punch of one dirty");
	comment("page's failed write [73728, 77824) keeps the block's reservation");
	comment("while its other pages are dirty.  An ioend [65536, 70000) ending in");
	comment("the EOF page: pages 16-17 are its own, pages 18-31 past EOF are");
	comment("clean, so the block converts whole");
	V("settle_range", 16, 12, 65536, 98304, 2);
	V("settle_range", 16, 12, 98304, 131072, 0);
	V("settle_range", 16, 12, 73728, 77824, 3);
	V("settle_range", 16, 12, 65536, 70000, 0);
}
