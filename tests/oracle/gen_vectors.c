// SPDX-License-Identifier: GPL-2.0
/*
 * Write tests/vec/core.vec: boundary vectors for every core function, with
 * the expected outputs computed by the brute-force oracles (oracle_call()),
 * never by core.  Inputs sit on and beside block, page and folio edges,
 * around i_size and at the ends of the offset range; regression vectors
 * for the mistakes of the seed patches and of Linux 6.1 are marked with
 * "# regression" comments.
 *
 * Usage: gen_vectors FILE   (meson: meson compile -C builddir vectors)
 *
 * The output is deterministic.  Vectors whose inputs the oracle calls out
 * of domain are not written; duplicates are written once.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_vectors.h"
#include "grid.h"
#include "oracle.h"

#define LONG_MAX_	((uint64_t)INT64_MAX)

static FILE *out;
static unsigned long nvec, nskip, ndup;

/* ------------------------------------------------------------------ */
/* the lines written so far, to drop duplicates */

#define SEEN_SLOTS	(1u << 15)
static char *seen[SEEN_SLOTS];

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* true if @s was already seen; remembers it otherwise */
static int seen_before(const char *s)
{
	uint32_t i = hash(s) & (SEEN_SLOTS - 1);

	while (seen[i]) {
		if (!strcmp(seen[i], s))
			return 1;
		i = (i + 1) & (SEEN_SLOTS - 1);
	}
	seen[i] = strdup(s);
	if (!seen[i])
		abort();
	return 0;
}

void comment(const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(out, *text ? "# %s\n" : "#%s\n", text);
}

void blank(void)
{
	fprintf(out, "\n");
}

/*
 * kpatch-gen writes each vector's inputs and outputs as kernel table rows,
 * "\t  { 0x..., 0x... },", and refuses lines over 100 columns.
 */
#define KUNIT_ROW_MAX	100

static int kunit_row_too_wide(const uint64_t *v, uint32_t n)
{
	char hex[32];
	size_t w = 8 + 2 + 2 + 2;	/* tab, "  ", "{ ", " }," less one */
	uint32_t i;

	for (i = 0; i < n; i++)
		w += (size_t)snprintf(hex, sizeof(hex), "0x%" PRIx64, v[i]) +
		     (i ? 2 : 0);
	return w + 1 > KUNIT_ROW_MAX;
}

/*
 * Write one vector.  @must: a regression vector, which must be in domain
 * and is written even if it already appeared.
 */
void emit(const char *fn, uint32_t nin, const uint64_t *in, int must)
{
	uint64_t o[8] = { 0 };
	char line[512];
	size_t len = 0;
	uint32_t i;
	int n;

	n = oracle_call(fn, nin, in, o);
	if (n == ORACLE_DOMAIN && !must) {
		nskip++;
		return;
	}
	if (n < 0) {
		fprintf(stderr, "gen_vectors: %s/%u: oracle returned %d\n", fn,
			nin, n);
		exit(1);
	}
	len += (size_t)snprintf(line + len, sizeof(line) - len, "%s", fn);
	for (i = 0; i < nin; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					" %" PRIu64, in[i]);
	len += (size_t)snprintf(line + len, sizeof(line) - len, " =");
	for (i = 0; i < (uint32_t)n; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					" %" PRIu64, o[i]);
	if (kunit_row_too_wide(in, nin) || kunit_row_too_wide(o, (uint32_t)n)) {
		fprintf(stderr, "gen_vectors: %s: the kernel table row of this "
			"vector passes %d columns; choose smaller inputs\n",
			line, KUNIT_ROW_MAX);
		exit(1);
	}
	if (seen_before(line) && !must) {
		ndup++;
		return;
	}
	fprintf(out, "%s\n", line);
	nvec++;
}

/* ------------------------------------------------------------------ */

static void gen_pageblock(void)
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

static void gen_read_range(void)
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

static void gen_truncate(void)
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

static void gen_zero_uptodate(void)
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

static void gen_need_zero_around(void)
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

static void gen_zero_around(void)
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

static void gen_copy_around(void)
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

static void gen_dio(void)
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

static void gen_writeback(void)
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

static void gen_xfs(void)
{
	uint32_t i;

	blank();
	comment("ag_block_count: agno agcount agblocks dblocks = blocks (last AG: a runt)");
	{
		static const uint64_t g[][3] = {
			/* agcount agblocks dblocks */
			{ 1, 16384, 16384 }, { 1, 16384, 1 }, { 4, 65536, 262144 },
			{ 4, 65536, 196609 }, { 4, 65536, 262143 },
			{ 5, 16384, 65536 + 100 }, { 17, 0x7fffffff, 16ULL * 0x7fffffff + 1 },
			{ 3, 0xffffffff, 2ULL * 0xffffffff + 7 },
			{ 4097, 4096, 4096ULL * 4096 + 1 },
		};

		for (i = 0; i < NELEM(g); i++) {
			const uint64_t an[] = { 0, 1, g[i][0] - 2, g[i][0] - 1,
						g[i][0], g[i][0] + 1 };
			uint32_t a;

			for (a = 0; a < NELEM(an); a++)
				V("ag_block_count", an[a], g[i][0], g[i][1], g[i][2]);
		}
	}
	blank();
	comment("regression (6.1 __xfs_ag_block_count): dblocks - agno * sb_agblocks");
	comment("multiplies two 32-bit values, which wraps once the last AG starts");
	comment("past 2^32 blocks: 4k blocks, 20 AGs of 2^28 - 1 blocks (1 TiB),");
	comment("agno 19 starts at block 5100273645; 1k blocks, 2^29-block AGs, agno 8");
	comment("starts at exactly 2^32.  NOTE: 6.1 still returns the right count, as");
	comment("the wrap cancels in its 32-bit result; only the 64-bit intermediate");
	comment("is wrong (see test_regress.c)");
	R("ag_block_count", 19, 20, 268435455, 19ULL * 268435455 + 1000);
	R("ag_block_count", 18, 20, 268435455, 19ULL * 268435455 + 1000);
	R("ag_block_count", 8, 9, 536870912, 4294967296ULL + 12345);
	R("ag_block_count", 8, 9, 536870912, 4294967296ULL + 536870912);
	comment("regression (seed 002): the runt was dblocks %% agblocks, which is 0");
	comment("when dblocks is a multiple of agblocks: the last AG is then full");
	R("ag_block_count", 3, 4, 65536, 262144);
	R("ag_block_count", 0, 1, 65536, 65536);

	blank();
	comment("ag_log_blocks: agno agblklog logstart logblocks = blocks");
	{
		static const uint64_t l[][3] = {
			/* agblklog logstart logblocks; from mkfs.xfs images */
			{ 16, 131078, 16384 }, { 16, 65536, 2560 },
			{ 16, 65535, 2560 }, { 16, 131072, 2560 },
			{ 13, 8196, 1024 }, { 30, 2147483655ULL, 1048576 },
			{ 16, 0, 16384 }, { 31, 0xffffffffULL, 100 },
			{ 32, 0x100000000ULL, 100 },
		};

		for (i = 0; i < NELEM(l); i++) {
			uint32_t a;

			for (a = 0; a < 4; a++)
				V("ag_log_blocks", a, l[i][0], l[i][1], l[i][2]);
		}
	}

	blank();
	comment("btree_calc_size: leaf_recs node_recs records = blocks");
	comment("  (the inobt values agree with xfs_db btheight -w min)");
	{
		static const uint64_t bt[][3] = {
			{ 126, 252, 1000000 }, { 126, 252, 0 }, { 126, 252, 1 },
			{ 126, 252, 126 }, { 126, 252, 127 }, { 126, 252, 126 * 252 },
			{ 126, 252, 126 * 252 + 1 }, { 2044, 4088, 1ULL << 32 },
			{ 2044, 4088, 2044 }, { 2044, 4088, 2045 },
			{ 1, 2, 1 }, { 1, 2, 2 }, { 1, 2, 3 }, { 1, 2, 1024 },
			{ 1, 2, 1025 }, { 3, 2, 17 }, { 0, 2, 10 }, { 5, 1, 10 },
			{ 5, 0, 10 }, { 1, 2, 1ULL << 62 },
			{ 0xffffffff, 0xffffffff, 1ULL << 62 },
		};

		for (i = 0; i < NELEM(bt); i++)
			V("btree_calc_size", bt[i][0], bt[i][1], bt[i][2]);
	}

	blank();
	comment("inobt_max_size: ag_blocks log_blocks inopblock mnr_leaf mnr_node = blocks");
	{
		static const uint64_t ib[][5] = {
			{ 65536, 0, 8, 126, 252 }, { 65536, 16384, 8, 126, 252 },
			{ 16, 0, 8, 126, 252 }, { 100, 200, 8, 126, 252 },
			{ 100, 100, 8, 126, 252 }, { 0, 0, 8, 126, 252 },
			{ 1048576, 0, 128, 2044, 4088 }, { 17, 0, 128, 2044, 4088 },
			{ 65536, 0, 8, 0, 0 }, { 0xffffffff, 0, 256, 1, 2 },
			{ 0xffffffff, 0xfffffffe, 256, 1, 2 },
		};

		for (i = 0; i < NELEM(ib); i++)
			V("inobt_max_size", ib[i][0], ib[i][1], ib[i][2], ib[i][3], ib[i][4]);
		comment("regression (seed 002): a runt last AG sized like the others asks");
		comment("for more than it has; the reservation uses the AG's own length");
		R("inobt_max_size", 100, 0, 8, 126, 252);
		R("inobt_max_size", 65536, 0, 8, 126, 252);
	}

	blank();
	comment("stat_blksize: blkbits pshift rt_extsize largeio swidth allocsize = bytes");
	{
		uint32_t b, p;

		for (b = 9; b <= 16; b++)
			for (p = 12; p <= 16; p += 2)
				V("stat_blksize", b, p, 0, 0, 0, 0);
		V("stat_blksize", 16, 12, 1048576, 0, 0, 0);
		V("stat_blksize", 16, 12, 0, 1, 262144, 0);
		V("stat_blksize", 16, 12, 0, 1, 0, 131072);
		V("stat_blksize", 16, 12, 0, 1, 262144, 131072);
		V("stat_blksize", 16, 12, 0, 1, 0, 0);
		V("stat_blksize", 16, 12, 0, 0, 262144, 131072);
		V("stat_blksize", 12, 12, 0, 1, 4096 * 4, 0);
		comment("regression (6.1 xfs_stat_blksize): PAGE_SIZE even at bs 64k;");
		comment("st_blksize is never below the block size");
		R("stat_blksize", 16, 12, 0, 0, 0, 0);
		R("stat_blksize", 13, 12, 0, 0, 0, 0);
	}

	blank();
	comment("mount_blocksize: blkbits pshift v5 max_blkbits = 0 ok, 1 large, 2 need v5, 3 too large");
	{
		static const uint32_t bv[] = { 9, 12, 13, 16, 17 };
		static const uint32_t pv[] = { 12, 14, 16 };
		uint32_t a, p, v;

		for (a = 0; a < NELEM(bv); a++)
			for (p = 0; p < NELEM(pv); p++)
				for (v = 0; v < 2; v++) {
					V("mount_blocksize", bv[a], pv[p], v, 16);
					if (bv[a] > pv[p])
						V("mount_blocksize", bv[a], pv[p], v, bv[a] - 1);
				}
	}

	blank();
	comment("fsb_count_ok: nblocks blkbits pshift max_index = bool");
	{
		const uint64_t m32 = 0xffffffffULL;

		V("fsb_count_ok", 0, 12, 12, m32);
		V("fsb_count_ok", m32, 12, 12, m32);
		V("fsb_count_ok", m32 + 1, 12, 12, m32);
		V("fsb_count_ok", (m32 + 1) * 8 - 1, 9, 12, m32);
		V("fsb_count_ok", (m32 + 1) * 8, 9, 12, m32);
		V("fsb_count_ok", (m32 + 1) / 16 - 1, 16, 12, m32);
		V("fsb_count_ok", (m32 + 1) / 16, 16, 12, m32);
		V("fsb_count_ok", (m32 + 1) / 16 + 1, 16, 12, m32);
		V("fsb_count_ok", (m32 + 1) / 4, 16, 14, m32);
		V("fsb_count_ok", (m32 + 1) / 4 - 1, 16, 14, m32);
		V("fsb_count_ok", UINT64_MAX >> 16, 16, 12, UINT64_MAX);
		V("fsb_count_ok", (UINT64_MAX >> 16) + 1, 16, 12, UINT64_MAX);
		V("fsb_count_ok", UINT64_MAX >> 12, 12, 12, UINT64_MAX);
		V("fsb_count_ok", (UINT64_MAX >> 12) + 1, 12, 12, UINT64_MAX);
		V("fsb_count_ok", UINT64_MAX, 9, 12, UINT64_MAX);
		V("fsb_count_ok", 1ULL << 40, 16, 12, UINT64_MAX);
		comment("regression (6.1 xfs_sb_validate_fsb_count): nblocks >> (PAGE_SHIFT");
		comment("- blocklog) is a negative shift when blocks are larger than pages");
		comment("(and the ASSERT before it BUG()s).  With a 32-bit index (max_index");
		comment("2^32 - 1) 2^28 - 1 64k blocks pass and 2^28 do not: the page");
		comment("count may not pass the largest index, as the old check counted");
		R("fsb_count_ok", (1ULL << 28) - 1, 16, 12, m32);
		R("fsb_count_ok", 1ULL << 28, 16, 12, m32);
		R("fsb_count_ok", 1ULL << 29, 16, 12, m32);
		R("fsb_count_ok", 1ULL << 32, 16, 12, UINT64_MAX);
	}

	blank();
	comment("cowextsz_hint: blkbits pshift hint = blocks");
	{
		static const uint32_t hints[] = { 1, 32, 33, 1u << 21 };
		uint32_t b, h;

		/* on, below and above the page size of 4k and of 16k */
		for (b = 11; b <= 16; b++)
			for (h = 0; h < 4; h++) {
				V("cowextsz_hint", b, 12, hints[h]);
				V("cowextsz_hint", b, 14, hints[h]);
			}
		comment("regression: generic/263 and 091 at 64k on the series");
		comment("before patch 25: writeback put the in-place dirty pages of");
		comment("a block next to a COWed one into a COW block of the default");
		comment("32-block window, and completion remapped the block whole");
		R("cowextsz_hint", 16, 12, 32);
		R("cowextsz_hint", 13, 12, 32);
	}
}

int main(int argc, char **argv)
{
	char tmp[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	out = fopen(tmp, "w");
	if (!out) {
		perror(tmp);
		return 1;
	}
	comment("Boundary vectors for core/ (format: tests/vec/README.md).");
	comment("%s", "");
	comment("GENERATED by tests/oracle/gen_vectors.c; do not edit by hand.");
	comment("Regenerate: meson compile -C builddir vectors");
	comment("        (or builddir/tests/core/gen_vectors tests/vec/core.vec)");
	comment("Expected outputs are computed by the brute-force oracles of");
	comment("tests/oracle/ (oracle_call()), never by core/; the generator is");
	comment("deterministic.  Lines after a \"regression\" comment pin a mistake");
	comment("of the 2018 seed patches or of Linux 6.1, named in the comment.");
	gen_block();
	gen_pageblock();
	gen_read_range();
	gen_truncate();
	gen_zero_uptodate();
	gen_need_zero_around();
	gen_zero_around();
	gen_short_copy();
	gen_copy_around();
	gen_dio();
	gen_writeback();
	gen_settle();
	gen_xfs();
	gen_large_folios();
	if (fclose(out)) {
		perror(tmp);
		return 1;
	}
	if (rename(tmp, argv[1])) {
		perror(argv[1]);
		return 1;
	}
	fprintf(stderr, "gen_vectors: %s: %lu vectors (%lu out of domain and "
		"%lu duplicates left out)\n", argv[1], nvec, nskip, ndup);
	return 0;
}
