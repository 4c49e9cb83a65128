// SPDX-License-Identifier: GPL-2.0
/*
 * Boundary vectors for the page cache helpers of core/: pageblock,
 * read_range, truncate_page_len, zero_may_mark_uptodate, zero_around and
 * copy_around.  Expected outputs come from the oracles (emit() calls
 * oracle_call()).
 */
#include <stdint.h>

#include "gen_vectors.h"
#include "grid.h"

void gen_pageblock(void)
{
	static const uint32_t fsv[] = { 12, 14, 16, 21 };
	static const uint32_t pairs[][2] = {
		{ 9, 12 }, { 12, 12 }, { 13, 12 }, { 16, 12 }, { 12, 14 },
		{ 14, 14 }, { 16, 14 }, { 9, 16 }, { 12, 16 }, { 16, 16 },
		{ 16, 21 }, { 12, 21 },
	};
	uint32_t b, i, j;

	blank();
	comment("pageblock_bits, pageblock_size, units_per_folio: blkbits fshift");
	for (b = 9; b <= 16; b++)
		for (i = 0; i < NELEM(fsv); i++) {
			V("pageblock_bits", b, fsv[i]);
			V("pageblock_size", b, fsv[i]);
			V("units_per_folio", b, fsv[i]);
		}
	blank();
	comment("regression (6.1 i_blocks_per_folio): folio_size >> blkbits is 0");
	comment("when the block is larger than the folio (64k block, 4k and 16k");
	comment("folios), a zero loop bound in iomap_writepage_map() that drops");
	comment("dirty data; the unit count is at least 1");
	R("units_per_folio", 16, 12);
	R("units_per_folio", 16, 14);
	R("units_per_folio", 13, 12);
	R("units_per_folio", 16, 16);

	blank();
	comment("pageblock_index: blkbits fshift off = the unit of the folio that");
	comment("holds byte off (off < folio size), its uptodate bit; 0 when the");
	comment("block covers the folio.  The first and last byte of the folio and");
	comment("of its first units, and the largest folio (2^31, 2^22 units)");
	for (i = 0; i < NELEM(pairs); i++) {
		uint32_t bb = pairs[i][0], f = pairs[i][1];
		uint64_t u = umin(sz(bb), sz(f)), fs = sz(f);
		const uint64_t offv[] = { 0, 1, u - 1, u, u + 1, 3 * u - 1,
					  fs - u - 1, fs - u, fs - 1, fs };

		for (j = 0; j < NELEM(offv); j++)
			V("pageblock_index", bb, f, offv[j]);
	}
	V("pageblock_index", 9, 31, sz(31) - 1);
	V("pageblock_index", 20, 31, sz(31) - sz(20));
	V("pageblock_index", 31, 31, sz(31) - 1);
	V("pageblock_index", 31, 12, sz(12) - 1);

	blank();
	comment("pageblock_range: blkbits fshift pos len = start end(excl)");
	for (i = 0; i < NELEM(pairs); i++) {
		uint32_t bb = pairs[i][0], f = pairs[i][1];
		uint64_t u = umin(sz(bb), sz(f));
		const uint64_t posv[] = { 0, 1, u - 1, u, u + 1, 3 * u - 1 };
		const uint64_t lenv[] = { 0, 1, u - 1, u, u + 1 };

		for (j = 0; j < NELEM(posv); j++) {
			uint32_t k;

			for (k = 0; k < NELEM(lenv); k++)
				if ((j + k) % 2 == 0 || posv[j] == 0 || lenv[k] == 0)
					V("pageblock_range", bb, f, posv[j], lenv[k]);
		}
		V("pageblock_range", bb, f, ((uint64_t)1 << 62) + u - 1, 2);
		V("pageblock_range", bb, f, LOFF_END - u, u);
		V("pageblock_range", bb, f, LOFF_END - u + 1, u - 1);
	}
}

void gen_read_range(void)
{
	static const uint32_t pairs[][2] = {
		{ 9, 12 }, { 12, 12 }, { 10, 14 }, { 12, 14 }, { 12, 16 },
		{ 14, 16 }, { 16, 12 }, { 16, 14 }, { 16, 16 }, { 12, 21 },
		{ 15, 21 },
	};
	uint32_t i;

	blank();
	comment("adjust_read_range: blkbits fshift folio_pos isize has_map map pos length");
	comment("  = pos off len.  Domain (as the kernel callers use it): pos on a");
	comment("  unit edge inside the folio, length >= 1, the range ends on a unit");
	comment("  edge or at/after the folio end.  Unit = min(block, folio).");
	for (i = 0; i < NELEM(pairs); i++) {
		uint32_t b = pairs[i][0], f = pairs[i][1];
		uint64_t fs = sz(f), u = umin(sz(b), fs), n = fs / u;
		uint64_t all = n >= 64 ? UINT64_MAX : sz((uint32_t)n) - 1;
		const uint64_t fposv[] = { 0, 5 * fs };
		uint32_t k;

		for (k = 0; k < NELEM(fposv); k++) {
			uint64_t fp = fposv[k];
			const uint64_t iszv[] = {
				0, fp, fp + 1, fp + u - 1, fp + u, fp + u + 1,
				fp + fs / 2, fp + fs / 2 + 1, fp + fs - u,
				fp + fs - 1, fp + fs, fp + fs + 1, fp + fs + u,
				fp + 3 * fs + 7, LOFF_END,
			};
			uint32_t j;

			/* whole folio, no bitmap, i_size everywhere */
			for (j = 0; j < NELEM(iszv); j++) {
				if (k && j % 3)
					continue;
				V("adjust_read_range", b, f, fp, iszv[j], 0, 0, fp, fs);
				/* a mapping longer than the folio */
				if (j % 2 == 0 || j >= 11)
					V("adjust_read_range", b, f, fp, iszv[j], 0, 0, fp, 4 * fs);
				/* from the second unit to the end */
				if (j % 2 == 1 && n > 1)
					V("adjust_read_range", b, f, fp, iszv[j], 0, 0, fp + u, fs - u);
			}
			if (k)
				continue;
			if (n > 64 || n == 1) {
				/* no bitmap possible, or a one-unit folio */
				V("adjust_read_range", b, f, fp, fp + fs - 1, 1, 1, fp, fs);
				V("adjust_read_range", b, f, fp, fp + 1, 1, 0, fp, fs);
				continue;
			}
			/* bitmaps: leading, trailing, middle, all uptodate */
			{
				const uint64_t maps[] = {
					1, 3, all ^ 1, sz((uint32_t)n - 1),
					all ^ sz((uint32_t)n - 1), all, 2,
					all & 0x5555555555555555ULL,
					sz((uint32_t)n / 2),
					all & ~(sz((uint32_t)n / 2) - 1),
				};
				const uint64_t isz2[] = {
					LOFF_END, fp + u + 1, fp + fs - u + 1,
					fp + fs / 2 + 1, fp + 2 * fs,
				};
				uint32_t m, q;

				for (m = 0; m < NELEM(maps); m++)
					for (q = 0; q < NELEM(isz2); q++) {
						if ((m + q) % 2 == 0)
							V("adjust_read_range", b, f, fp, isz2[q], 1, maps[m], fp, fs);
						if (m % 5 == q)
							V("adjust_read_range", b, f, fp, isz2[q], 1, maps[m], fp + u, 2 * fs);
						if ((m + 2) % 5 == q && n > 2)
							V("adjust_read_range", b, f, fp, isz2[q], 1, maps[m], fp, 2 * u);
					}
			}
		}
	}
	/* a folio near the end of the offset range, and at 2^40 */
	V("adjust_read_range", 12, 14, LOFF_END - 16 * KiB, 0, 0, 0,
	  LOFF_END - 16 * KiB, 16 * KiB);
	V("adjust_read_range", 12, 14, LOFF_END - 16 * KiB, 7, 1, 1,
	  LOFF_END - 16 * KiB, 16 * KiB);
	V("adjust_read_range", 12, 14, ((uint64_t)1 << 40), ((uint64_t)1 << 40) + 4097, 1, 1,
	  ((uint64_t)1 << 40), 16 * KiB);

	blank();
	comment("regression (core, fixed in 0b2a2b3): the EOF cut used the whole");
	comment("wanted length, not the part inside the folio, so an i_size in a");
	comment("later folio, taken modulo the folio size, cut off units that are");
	comment("inside EOF (4k blocks, 16k folio at 0, i_size 20480, 64k mapping:");
	comment("read 4096, not 16384) and the caller zeroed file data");
	R("adjust_read_range", 12, 14, 0, 20480, 0, 0, 0, 65536);
	R("adjust_read_range", 9, 12, 0, 4097, 0, 0, 0, 4608);
	R("adjust_read_range", 12, 16, 65536, 2 * 65536 + 4096, 1, 1, 65536, 3 * 65536);
	R("adjust_read_range", 12, 21, 0, 2 * sz(21) + 1, 0, 0, 0, 4 * sz(21));
}

void gen_truncate(void)
{
	uint32_t b, p, i;

	blank();
	comment("truncate_page_len: blkbits pshift pos = bytes iomap_truncate_page() zeroes");
	comment("  (to the end of the unit: of the EOF page when bs > ps)");
	for (b = 9; b <= 16; b++)
		for (p = 12; p <= 16; p += 2) {
			uint64_t u = umin(sz(b), sz(p));
			const uint64_t posv[] = { 0, 1, u - 1, u, u + 1,
						  ((uint64_t)1 << 40) + u - 1 };

			for (i = 0; i < NELEM(posv); i++)
				V("truncate_page_len", b, p, posv[i]);
		}
	blank();
	comment("regression (6.1 iomap_truncate_page): at bs 64k, ps 4k it zeroes to the");
	comment("block end, 61440 - 1 bytes past the EOF page that truncate drops; the");
	comment("unit rule stops at the end of the EOF page");
	R("truncate_page_len", 16, 12, 4097);
	R("truncate_page_len", 16, 12, 65535);
}

void gen_zero_uptodate(void)
{
	static const uint64_t v[][4] = {
		{ 0, 4096, 0, 0 }, { 0, 4096, 100, 100 }, { 0, 4096, 200, 100 },
		{ 0, 4096, 0, 4096 }, { 0, 4096, 0, 1 }, { 0, 4096, 4095, 4096 },
		{ 0, 4096, 4096, 8192 }, { 4096, 4096, 0, 4096 },
		{ 4096, 4096, 0, 4097 }, { 4096, 4096, 8191, 8192 },
		{ 4096, 4096, 8192, 9000 }, { 512, 512, 0, 512 },
		{ 512, 512, 0, 513 }, { 512, 512, 1023, 1024 },
		{ 512, 512, 1024, 2048 }, { 512, 512, 100, 2000 },
		{ 0, 65536, 65535, 65536 }, { 0, 65536, 65536, 65537 },
		{ 0, 1, 0, 1 }, { 0, 1, 1, 2 }, { 1, 1, 0, 1 }, { 1, 1, 0, 2 },
		{ 0, 2097152, 2097151, 2097152 }, { 0, 2097152, 2097152, 2097153 },
	};
	uint32_t i;

	blank();
	comment("zero_may_mark_uptodate: poff plen from to = may the zeroed range be");
	comment("  marked uptodate (no caller data [from, to) inside it); plen >= 1");
	for (i = 0; i < NELEM(v); i++)
		V("zero_may_mark_uptodate", v[i][0], v[i][1], v[i][2], v[i][3]);
	blank();
	comment("regression (6.1 __iomap_write_begin, seed 008): zeroing [poff, from)");
	comment("and [to, poff + plen) of a new block marked the whole range uptodate");
	comment("before the copy; seed 008 skipped that only for zero-around, so a");
	comment("short copy still left [from + copied, to) uninitialised in an");
	comment("uptodate folio, which zero-around then skips");
	R("zero_may_mark_uptodate", 0, 4096, 1024, 3072);
	R("zero_may_mark_uptodate", 0, 4096, 0, 100);
	R("zero_may_mark_uptodate", 0, 65536, 4096, 8192);
}

void gen_need_zero_around(void)
{
	static const uint32_t bv[] = { 9, 12, 13, 16 };
	static const uint32_t pv[] = { 12, 14, 16 };
	uint32_t i, j, t, n;

	blank();
	comment("need_zero_around: blkbits pshift type(0 hole,1 delalloc,2 mapped,3 unwritten) is_new");
	for (i = 0; i < NELEM(bv); i++)
		for (j = 0; j < NELEM(pv); j++)
			for (t = 0; t < 4; t++)
				for (n = 0; n < 2; n++)
					V("need_zero_around", bv[i], pv[j], t, n);
}

void gen_zero_around(void)
{
	static const uint32_t big[][2] = {
		{ 13, 12 }, { 14, 12 }, { 16, 12 }, { 15, 14 }, { 16, 14 },
	};
	static const uint32_t small[][2] = {
		{ 9, 12 }, { 12, 12 }, { 12, 16 }, { 16, 16 },
	};
	uint32_t i, a, l, s;

	blank();
	comment("zero_around: blkbits pshift pos len isize = ret head_pos head_len");
	comment("  tail_pos tail_len post_eof_pos post_eof_len.  Head [block start,");
	comment("  pos); tail [pos+len, min(block end, end of the page holding the");
	comment("  new EOF max(isize, pos+len))); post-EOF the rest of the block");
	comment("  (pages wholly past EOF, not instantiated)");
	for (i = 0; i < NELEM(big); i++) {
		uint32_t b = big[i][0], p = big[i][1];
		uint64_t bs = sz(b), ps = sz(p);
		const uint64_t bases[] = { 0, bs };

		/* the second block only for the 64k-block cases */
		for (s = 0; s < (b == 16 ? NELEM(bases) : 1); s++) {
			uint64_t B = bases[s];
			const uint64_t posv[] = { B, B + 1, B + ps - 1,
						  B + ps + 1, B + bs - 1 };

			for (a = 0; a < NELEM(posv); a++) {
				uint64_t pos = posv[a];
				uint64_t bend = B + bs;
				const uint64_t endv[] = { pos + 1, B + ps,
							  B + 2 * ps - 1, bend - 1,
							  bend, bend + 1,
							  bend + bs + ps };

				for (l = 0; l < NELEM(endv); l++) {
					uint64_t end = endv[l], len, eb;
					uint32_t q;

					if (end <= pos)
						continue;
					len = end - pos;
					eb = (end - 1) - (end - 1) % bs;
					{
						const uint64_t iszv[] = {
							0, pos, end - 1, end,
							end + 1, eb + ps,
							eb + ps + 1, eb + bs - 1,
							eb + bs, eb + 3 * bs,
						};

						for (q = 0; q < NELEM(iszv); q++)
							if ((a + l + q) % 2 == s || (s == 0 && q == 0))
								V("zero_around", b, p, pos, len, iszv[q]);
					}
				}
			}
		}
		/* empty write, whole blocks, far offsets */
		V("zero_around", b, p, ps + 1, 0, 0);
		V("zero_around", b, p, bs, bs, 0);
		V("zero_around", b, p, bs, 2 * bs, 5 * bs);
		V("zero_around", b, p, ((uint64_t)1 << 40) + ps + 1, ps, ((uint64_t)1 << 40) + ps + 2);
		V("zero_around", b, p, LOFF_END - 2 * bs + 1, 1, LOFF_END - bs - 1);
		V("zero_around", b, p, 1, LOFF_END - 2 * bs, 0);
	}
	comment("zero_around with blocks no larger than a page: nothing to do");
	for (i = 0; i < NELEM(small); i++) {
		uint32_t b = small[i][0], p = small[i][1];
		uint64_t bs = sz(b);

		V("zero_around", b, p, 1, 1, 0);
		V("zero_around", b, p, bs - 1, 2, bs * 3);
		V("zero_around", b, p, bs + 1, bs, 0);
		V("zero_around", b, p, 0, 0, 0);
	}

	blank();
	comment("regression (seed 007): iomap_zero_around() clamps the tail end to");
	comment("max(pos + len, i_size).  Inside EOF it stops at i_size, short of the");
	comment("end of the EOF page (bs 64k, ps 4k, i_size 10000, write [0, 100):");
	comment("seed zeroes [100, 10000), the page runs to 12288); a write that");
	comment("extends the file gets no tail at all (write [0, 100), i_size 0: seed");
	comment("zeroes nothing, the EOF page runs to 4096)");
	R("zero_around", 16, 12, 0, 100, 10000);
	R("zero_around", 16, 12, 0, 100, 0);
	R("zero_around", 16, 12, 5000, 100, 5000);
	R("zero_around", 16, 14, 100, 100, 20000);
	R("zero_around", 16, 12, 65536 + 4096, 1, 65536 + 8193);

	blank();
	comment("post_eof_range: blkbits pshift eof = ret pos len, the part of the");
	comment("EOF block past the EOF page (zero_around's post_eof for a write");
	comment("ending at eof)");
	for (s = 0; s < NELEM(big) + NELEM(small); s++) {
		uint32_t b = s < NELEM(big) ? big[s][0] : small[s - NELEM(big)][0];
		uint32_t p = s < NELEM(big) ? big[s][1] : small[s - NELEM(big)][1];
		uint64_t bs = sz(b), ps = sz(p);
		const uint64_t ev[] = { 0, 1, ps - 1, ps, ps + 1, bs - ps,
					bs - ps + 1, bs - 1, bs, bs + 1,
					((uint64_t)1 << 40) + ps + 1,
					((uint64_t)1 << 63) - bs + 1,
					(uint64_t)1 << 63 };

		for (a = 0; a < NELEM(ev); a++)
			V("post_eof_range", b, p, ev[a]);
	}
}

void gen_copy_around(void)
{
	static const uint32_t geo[][2] = {
		{ 13, 12 }, { 16, 12 }, { 16, 14 }, { 12, 12 }, { 9, 12 },
		{ 16, 16 },
	};
	uint32_t g, t, n, a, l, q;

	blank();
	comment("need_copy_around: blkbits pshift cow");
	for (g = 0; g < NELEM(geo); g++)
		for (n = 0; n < 2; n++)
			V("need_copy_around", geo[g][0], geo[g][1], n);

	blank();
	comment("fill_from_source: type(0 hole,1 delalloc,2 mapped,3 unwritten)");
	comment("  is_new pos isize = 1 read the page from the source, 0 zero it");
	for (t = 0; t < 4; t++)
		for (n = 0; n < 2; n++) {
			const uint64_t pv[][2] = {
				{ 0, 0 }, { 0, 1 }, { 4096, 4096 },
				{ 4096, 4097 }, { 61440, 65535 },
				{ 65536, 65536 }, { LONG_MAX_, (uint64_t)1 << 63 },
			};

			for (a = 0; a < NELEM(pv); a++)
				V("fill_from_source", t, n, pv[a][0], pv[a][1]);
		}

	blank();
	comment("unshare_range: blkbits pshift pos len isize = ret start end:");
	comment("  whole blocks when bs > ps, cut at EOF");
	for (g = 0; g < NELEM(geo); g++) {
		uint64_t bs = sz(geo[g][0]), ps = sz(geo[g][1]);
		const uint64_t posv[] = { 0, 1, ps - 1, ps, bs - 1, bs, bs + ps + 1 };
		const uint64_t lenv[] = { 0, 1, ps, bs - 1, bs, 2 * bs + 1 };
		const uint64_t iszv[] = { 0, 1, ps + 1, bs - 1, bs, bs + 1,
					  2 * bs - ps, 4 * bs, 4 * bs + 17 };

		for (a = 0; a < NELEM(posv); a++)
			for (l = 0; l < NELEM(lenv); l++)
				for (q = 0; q < NELEM(iszv); q++)
					V("unshare_range", geo[g][0], geo[g][1],
					  posv[a], lenv[l], iszv[q]);
		V("unshare_range", geo[g][0], geo[g][1],
		  ((uint64_t)1 << 40) + ps + 1, ps, ((uint64_t)1 << 41));
		V("unshare_range", geo[g][0], geo[g][1],
		  LOFF_END - bs - 1, bs, LOFF_END - 1);
		V("unshare_range", geo[g][0], geo[g][1], 1, LOFF_END - 1,
		  LOFF_END);
	}

	blank();
	comment("regression (6.1 xfs_reflink_unshare): a sub-block range is passed");
	comment("  to iomap_file_unshare() unrounded, so the COW block is remapped");
	comment("  over a block whose other pages were never copied");
	R("unshare_range", 16, 12, 4096 + 100, 100, 1 << 20);
	R("unshare_range", 16, 12, 65536 - 1, 2, 65536 + 4096);
}
