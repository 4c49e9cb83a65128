// SPDX-License-Identifier: GPL-2.0
/*
 * Boundary vectors for lbs_short_copy_range(): copy points on, one before
 * and one after the page edges of a block, data ends from "nothing left"
 * to the end of the block, and file sizes around the page of the copy
 * point, the page of the data end and the block, near 0, 2^40 and the
 * end of the loff_t range.  Expected outputs come from the oracle
 * (emit() calls oracle_call()).
 */
#include <stdint.h>

#include "gen_vectors.h"
#include "grid.h"

/*
 * A block of 2^@b bytes starting at @blk, pages of 2^@p bytes: one in
 * @every of the combinations, chosen by the sum of their indexes.
 */
static void gen_short_copy_block(uint32_t b, uint32_t p, uint64_t blk,
				 uint32_t every)
{
	uint64_t bs = sz(b), ps = sz(p), bend = blk + bs;
	const uint64_t posv[] = { blk, blk + 1, blk + ps - 1, blk + ps,
				  blk + ps + 1, bend - ps, bend - 1 };
	uint32_t a, d, i;

	for (a = 0; a < NELEM(posv); a++) {
		uint64_t pos = posv[a];
		uint64_t pstart = pos - (pos - blk) % ps;
		const uint64_t endv[] = { pos, pos + 1, pstart + ps,
					  pstart + ps + 1, bend - ps + 1,
					  bend - 1, bend };

		for (d = 0; d < NELEM(endv); d++) {
			uint64_t dend = endv[d];
			const uint64_t iszv[] = { 0, pstart, pstart + 1, pos,
						  pos + 1, dend - 1, dend,
						  dend + 1, bend - ps, bend,
						  bend + 3 * bs };

			if (dend < pos || dend > bend)
				continue;
			for (i = 0; i < NELEM(iszv); i++)
				if ((a + d + i) % every == 0)
					V("short_copy_range", b, p, pos, dend,
					  iszv[i]);
		}
	}
}

void gen_short_copy(void)
{
	static const uint32_t big[][2] = {
		{ 13, 12 }, { 14, 12 }, { 16, 12 }, { 16, 14 }, { 20, 12 },
	};
	static const uint32_t small[][2] = {
		{ 9, 12 }, { 12, 12 }, { 14, 16 },
	};
	uint32_t i;

	blank();
	comment("short_copy_range: blkbits pshift pos data_end isize = ret pos len,");
	comment("the pages to fill after a short copy stopped at pos in a block");
	comment("zero-around prepared: from pos to the end of the page holding");
	comment("data_end - 1, cut at the end of the page holding isize - 1");
	for (i = 0; i < NELEM(big); i++) {
		uint32_t b = big[i][0], p = big[i][1];
		uint64_t bs = sz(b);

		gen_short_copy_block(b, p, bs, i == 0 || i == 2 ? 3 : 9);
		gen_short_copy_block(b, p, ((uint64_t)1 << 40) + bs, 13);
		gen_short_copy_block(b, p, LOFF_END - bs, 13);
	}
	comment("short_copy_range with blocks no larger than a page: no zero-around,");
	comment("nothing to fill");
	for (i = 0; i < NELEM(small); i++) {
		uint32_t b = small[i][0], p = small[i][1];
		uint64_t bs = sz(b);

		V("short_copy_range", b, p, bs + 1, 2 * bs, 3 * bs);
		V("short_copy_range", b, p, 0, bs, bs);
	}

	blank();
	comment("short_copy_range: the tests/sim short-copy scenarios at bs 64k, ps 4k:");
	comment("inside EOF over unwritten space (write [69732, 102500) copies 16434");
	comment("bytes, i_size 262144: fill to the end of the data's last page), and a");
	comment("write that extends the file (write [67584, 100352) copies 8195 bytes,");
	comment("i_size 75779: fill only the rest of the EOF page; the pages up to");
	comment("the data's last page lie past EOF and are dropped)");
	V("short_copy_range", 16, 12, 86166, 102500, 262144);
	V("short_copy_range", 16, 12, 75779, 100352, 75779);
}
