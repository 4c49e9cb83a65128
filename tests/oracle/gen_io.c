// SPDX-License-Identifier: GPL-2.0
/*
 * Boundary vectors for the I/O helpers of core/: the sub-block zeroing of
 * direct I/O and the writeback ranges.  Expected outputs come from the
 * oracles (emit() calls oracle_call()).
 */
#include <stdint.h>

#include "gen_vectors.h"
#include "grid.h"

void gen_dio(void)
{
	static const uint32_t bv[] = { 9, 12, 14, 16 };
	static const uint32_t pv[] = { 12, 14, 16 };
	uint32_t i, a, l, q, z;

	blank();
	comment("dio_zero_pads: blkbits pos len isize need_zeroout = head_pos head_len");
	comment("  tail_pos tail_len.  Head only over new/unwritten blocks, tail also");
	comment("  when the write ends at or past the old EOF; none on block edges");
	for (i = 0; i < NELEM(bv); i++) {
		uint64_t bs = sz(bv[i]);
		const uint64_t posv[] = { 0, 512, bs - 512, bs, 1 };
		const uint64_t lenv[] = { 512, bs - 512, bs, bs + 512, 3 * bs - 512 };

		for (a = 0; a < NELEM(posv); a++)
			for (l = 0; l < NELEM(lenv); l++) {
				uint64_t end = posv[a] + lenv[l];
				const uint64_t iszv[] = { 0, end - 1, end, end + 1,
							  LOFF_END };

				if (lenv[l] == 0)
					continue;
				for (q = 0; q < NELEM(iszv); q++)
					for (z = 0; z < 2; z++)
						if ((a + l + q + z) % 3 == 0 || (q == 2 && z == 0))
							V("dio_zero_pads", bv[i], posv[a], lenv[l], iszv[q], z);
			}
		V("dio_zero_pads", bv[i], ((uint64_t)1 << 40) + 512, 512, 0, 1);
		V("dio_zero_pads", bv[i], LOFF_END - 2 * bs + 512, 512, 0, 1);
	}

	blank();
	comment("dio_zero_nr_segs: pshift len; dio_zero_seg_len: pshift len idx");
	for (i = 0; i < NELEM(pv); i++) {
		uint64_t ps = sz(pv[i]);
		const uint64_t lenv[] = { 0, 1, 511, 512, ps - 1, ps, ps + 1,
					  2 * ps, 65024, 65535, 65536,
					  UINT32_MAX };

		for (l = 0; l < NELEM(lenv); l++) {
			uint64_t segs = lenv[l] / ps + (lenv[l] % ps != 0);

			V("dio_zero_nr_segs", pv[i], lenv[l]);
			V("dio_zero_seg_len", pv[i], lenv[l], 0);
			if (segs > 1) {
				V("dio_zero_seg_len", pv[i], lenv[l], 1);
				V("dio_zero_seg_len", pv[i], lenv[l], segs - 2);
			}
			if (segs)
				V("dio_zero_seg_len", pv[i], lenv[l], segs - 1);
			V("dio_zero_seg_len", pv[i], lenv[l], segs);
			V("dio_zero_seg_len", pv[i], lenv[l], UINT32_MAX);
		}
	}

	blank();
	comment("regression (6.1 iomap_dio_zero): the pad went into a one-vector bio");
	comment("as a single ZERO_PAGE segment of the pad's length; at bs 64k a pad");
	comment("reaches 65024 bytes and the bio writes whatever follows the zero");
	comment("page.  The pad must be 16 segments of at most 4096 (seed 004's");
	comment("howmany() split, which is right)");
	R("dio_zero_pads", 16, 512, 512, 0, 1);
	R("dio_zero_nr_segs", 12, 65024);
	R("dio_zero_seg_len", 12, 65024, 0);
	R("dio_zero_seg_len", 12, 65024, 15);
	R("dio_zero_seg_len", 12, 65024, 16);
	R("dio_zero_nr_segs", 14, 65024);
	R("dio_zero_seg_len", 14, 65024, 3);
}

static const uint32_t wb_pairs[][2] = {
	{ 9, 12 }, { 12, 12 }, { 13, 12 }, { 16, 12 }, { 12, 14 },
	{ 14, 14 }, { 16, 14 }, { 9, 16 }, { 12, 16 }, { 16, 16 },
};

void gen_writeback(void)
{
	uint32_t i, a, e;

	blank();
	comment("round_range: blkbits pshift start end(incl) = ret start end; unit");
	comment("  max(bs, ps); INT64_MAX kept; an empty range (end < start) as is");
	for (i = 0; i < NELEM(wb_pairs); i++) {
		uint32_t b = wb_pairs[i][0], p = wb_pairs[i][1];
		uint64_t u = umax(sz(b), sz(p));
		const uint64_t sv[] = { 0, 1, u - 1, u, u + 1 };
		const uint64_t ev[] = { 0, u - 2, u - 1, u, 2 * u - 1, 2 * u,
					O_INT64_MAX - 1, O_INT64_MAX };

		for (a = 0; a < NELEM(sv); a++)
			for (e = 0; e < NELEM(ev); e++)
				if ((a + e) % 2 == 0 || e >= 6 || sv[a] == ev[e])
					V("round_range", b, p, sv[a], ev[e]);
		V("round_range", b, p, O_INT64_MAX - u, O_INT64_MAX - u + 1);
		V("round_range", b, p, O_INT64_MAX - u + 1, O_INT64_MAX - 1);
		V("round_range", b, p, O_INT64_MAX, O_INT64_MAX);
	}

	blank();
	comment("flush_unmap_range: blkbits pshift pos len = ret start end(incl)");
	for (i = 0; i < NELEM(wb_pairs); i++) {
		uint32_t b = wb_pairs[i][0], p = wb_pairs[i][1];
		uint64_t u = umax(sz(b), sz(p));
		const uint64_t pv[] = { 0, 512, u - 1, u, u + 512 };
		const uint64_t lv[] = { 0, 1, 512, u - 1, u, u + 1 };

		for (a = 0; a < NELEM(pv); a++)
			for (e = 0; e < NELEM(lv); e++)
				if ((a + e) % 2 == 0 || lv[e] == 0)
					V("flush_unmap_range", b, p, pv[a], lv[e]);
		V("flush_unmap_range", b, p, O_INT64_MAX - u, u);
		V("flush_unmap_range", b, p, O_INT64_MAX - u, u + 1);
		V("flush_unmap_range", b, p, 4096, LOFF_END - 4096);
	}

	blank();
	comment("wb_round: blkbits pshift start end nr_to_write nr_max = start end");
	comment("  nr_to_write nr_added.  nr_to_write in pages, rounded up to whole");
	comment("  units of max(bs, ps), never past nr_max; unchanged if <= 0 or");
	comment("  >= nr_max (LONG_MAX: no limit)");
	for (i = 0; i < NELEM(wb_pairs); i++) {
		uint32_t b = wb_pairs[i][0], p = wb_pairs[i][1];
		uint64_t u = umax(sz(b), sz(p)), pg = u / sz(p);
		const uint64_t rv[][2] = { { 0, O_INT64_MAX }, { 0, u - 1 },
					   { u + 1, 2 * u - 1 }, { 1, u },
					   { 2 * u, u } };
		const uint64_t nv[] = { 0, (uint64_t)-1, 1, pg - 1, pg, pg + 1,
					2 * pg + 1, 1024, LONG_MAX_ - pg,
					LONG_MAX_ - 1, LONG_MAX_ };

		for (a = 0; a < NELEM(rv); a++)
			for (e = 0; e < NELEM(nv); e++)
				if ((a + e) % 3 == 0 || a == 0)
					V("wb_round", b, p, rv[a][0], rv[a][1], nv[e], LONG_MAX_);
		/* a small "no limit" value */
		V("wb_round", b, p, 0, O_INT64_MAX, 5, 6);
		V("wb_round", b, p, 0, O_INT64_MAX, pg + 1, pg + 2);
		V("wb_round", b, p, 0, O_INT64_MAX, 100, 100);
		V("wb_round", b, p, 0, O_INT64_MAX, (uint64_t)INT64_MIN, LONG_MAX_);
	}

	blank();
	comment("wb_round_index: blkbits pshift index = first page of its unit");
	for (i = 0; i < NELEM(wb_pairs); i++) {
		uint32_t b = wb_pairs[i][0], p = wb_pairs[i][1];
		uint64_t pg = umax(sz(b), sz(p)) / sz(p);
		const uint64_t iv[] = { 0, 1, pg - 1, pg, pg + 1,
					((uint64_t)1 << 40) + pg - 1, UINT64_MAX };

		for (a = 0; a < NELEM(iv); a++)
			V("wb_round_index", b, p, iv[a]);
	}

	blank();
	comment("wb_may_stop: blkbits pshift index = 1 if index starts its unit");
	for (i = 0; i < NELEM(wb_pairs); i++) {
		uint32_t b = wb_pairs[i][0], p = wb_pairs[i][1];
		uint64_t pg = umax(sz(b), sz(p)) / sz(p);
		const uint64_t iv[] = { 0, 1, pg - 1, pg, pg + 1,
					((uint64_t)1 << 40) + pg, UINT64_MAX };

		for (a = 0; a < NELEM(iv); a++)
			V("wb_may_stop", b, p, iv[a]);
	}

	blank();
	comment("falloc_aligned: blkbits pos len = 1 if both are whole blocks");
	comment("(xfs_is_falloc_aligned(), data device: the block, not the page)");
	for (i = 0; i < NELEM(wb_pairs); i++) {
		uint32_t b = wb_pairs[i][0];
		uint64_t bs = sz(b);
		const uint64_t pv[][2] = { { 0, 0 }, { 0, bs }, { bs, bs },
					   { 1, bs }, { bs, bs - 1 },
					   { bs, bs + 512 }, { 4096, 4096 },
					   { (uint64_t)1 << 62, bs },
					   { (uint64_t)1 << 63, (uint64_t)1 << 63 } };

		if (i && wb_pairs[i - 1][0] == b)
			continue;
		for (a = 0; a < NELEM(pv); a++)
			V("falloc_aligned", b, pv[a][0], pv[a][1]);
	}

	blank();
	comment("regression (seed 010): xfs_vm_writepages() rounded the inclusive");
	comment("range_end with round_up(range_end, bsize): 65535 (last byte of block");
	comment("0 at bs 64k) became 65536, and write_cache_pages() took page 16, the");
	comment("first page of block 1; 65636 became 131072, one page of block 2.");
	comment("The inclusive end rounds to round_up(end + 1) - 1");
	R("round_range", 16, 12, 0, 65535);
	R("round_range", 16, 12, 65536, 65636);
	R("wb_round", 16, 12, 0, 65535, 1024, LONG_MAX_);
	R("flush_unmap_range", 16, 12, 0, 65536);
	comment("regression (seed 010): nr_to_write (pages) was compared with the byte");
	comment("span and rounded up to a multiple of bsize, 65536 pages (256MiB) at");
	comment("bs 64k for a budget of 1; it rounds to 16 pages");
	R("wb_round", 16, 12, 0, O_INT64_MAX, 1, LONG_MAX_);
	R("wb_round", 16, 12, 0, O_INT64_MAX, 17, LONG_MAX_);
	R("wb_round", 16, 14, 0, O_INT64_MAX, 1, LONG_MAX_);
	comment("regression (seed 010): LONG_MAX (no limit) and values whose rounding");
	comment("passes it stay within LONG_MAX");
	R("wb_round", 16, 12, 0, O_INT64_MAX, LONG_MAX_, LONG_MAX_);
	R("wb_round", 16, 12, 0, O_INT64_MAX, LONG_MAX_ - 1, LONG_MAX_);
}
