// SPDX-License-Identifier: GPL-2.0
/*
 * lbs_sim_map_render(): a terminal picture of the block/page state of a
 * file region, one line per file block, one character per pageblock unit
 * (a page at bs > ps, a block inside its page at bs <= ps).  It only
 * observes: no folio is instantiated, no state changes.
 */
#define _GNU_SOURCE
#include "sim_int.h"

#include <inttypes.h>

#define C_OFF	"\033[0m"
#define C_DIM	"\033[2m"
#define C_DATA	"\033[1;33m"	/* dirty data */
#define C_CLEAN	"\033[32m"
#define C_ZERO	"\033[1;36m"	/* zeroed-around, dirty */
#define C_ZCLN	"\033[36m"	/* zeroed-around, clean */
#define C_WB	"\033[1;35m"
#define C_EOF	"\033[1;31m"

static const struct {
	char ch;
	const char *color, *what;
} legend[] = {
	{ '.', C_DIM, "not cached" },
	{ '-', C_DIM, "cached, not uptodate" },
	{ 'u', C_CLEAN, "uptodate, clean" },
	{ 'D', C_DATA, "dirty" },
	{ 'W', C_WB, "under writeback" },
	{ 'Z', C_ZERO, "zeroed by zero-around, dirty" },
	{ 'z', C_ZCLN, "zeroed by zero-around, clean (written back)" },
};

static char unit_char(struct lbs_sim *s, uint64_t pos)
{
	struct folio *f = sim_folio_lookup(s, pos >> s->pshift);
	unsigned fl;

	if (!f)
		return '.';
	fl = fl_get(f);
	if (fl & F_WRITEBACK)
		return 'W';
	if (!unit_uptodate(f, lbs_pageblock_index(s->blkbits, fshift_of(s, f),
						  pos - fpos_of(s, f))))
		return '-';
	if (fl & F_ZEROED)
		return (fl & F_DIRTY) ? 'Z' : 'z';
	return (fl & F_DIRTY) ? 'D' : 'u';
}

static const char *char_color(char ch)
{
	for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]); i++)
		if (legend[i].ch == ch)
			return legend[i].color;
	return "";
}

/* the end of the interesting part of the file: EOF, extents, cache */
static uint64_t default_end(struct lbs_sim *s)
{
	uint64_t end = s->isize, mi = max_index(s);

	for (uint64_t b = 0; b < s->nblocks; b++)
		if (s->ext[b].state != EXT_HOLE && bpos_of(s, b + 1) > end)
			end = bpos_of(s, b + 1);
	for (uint64_t i = 0; i <= mi; i++)
		if (sim_folio_lookup(s, i) && (i + 1) << s->pshift > end)
			end = (i + 1) << s->pshift;
	return end ? end : 1;
}

void lbs_sim_map_render(struct lbs_sim *s, FILE *out, uint64_t off,
			uint64_t len, unsigned flags)
{
	bool color = flags & LBS_SIM_MAP_COLOR;
	uint32_t unit = lbs_pageblock_size(s->blkbits, s->pshift);
	uint64_t end = len ? off + len : default_end(s);
	uint64_t b0 = bno_of(s, off), b1 = bno_of(s, end - 1) + 1;
	const struct lbs_sim_counters *k = &s->c;
	bool eof_drawn = false;

	if (end <= off)
		b1 = b0 + 1;
	if (b1 > s->nblocks)
		b1 = s->nblocks;
	fprintf(out, "bs %u  ps %u  unit %u  i_size %" PRIu64 " (0x%" PRIx64
		")  i_disk_size %" PRIu64 "  folios %" PRIu64 "\n", s->bs,
		s->ps, unit, s->isize, s->isize, s->disk_size, s->nr_folios);
	fprintf(out, "%7s  %-10s  %-16s %-7s %s\n", "block", "offset",
		"extent", "page", "units (one per pageblock)");
	for (uint64_t b = b0; b < b1; b++) {
		uint64_t bstart = bpos_of(s, b);
		uint64_t bend = lbs_block_end(s->blkbits, bstart);
		const struct extent *e = &s->ext[b];
		char ext[32];
		bool eof_here = false;

		if (e->state == EXT_UNWRITTEN || e->state == EXT_WRITTEN)
			snprintf(ext, sizeof(ext), "%s@%u",
				 sim_ext_names[e->state], e->pblk);
		else
			snprintf(ext, sizeof(ext), "%s",
				 sim_ext_names[e->state]);
		if (lbs_units_per_folio(s->blkbits, s->pshift) == 1)
			fprintf(out, "%7" PRIu64 "  0x%08" PRIx64 "  %-16s p%-6"
				PRIu64 " ", b, bstart, ext, bstart >> s->pshift);
		else
			fprintf(out, "%7" PRIu64 "  0x%08" PRIx64 "  %-16s p%"
				PRIu64 ".%-4" PRIu32 " ", b, bstart, ext,
				bstart >> s->pshift,
				lbs_pageblock_index(s->blkbits, s->pshift,
						    bstart & (s->ps - 1)));
		/* '|' follows the unit holding the last byte before EOF */
		if (!eof_drawn && s->isize == bstart) {
			fprintf(out, "%s|%s", color ? C_EOF : "",
				color ? C_OFF : "");
			eof_here = eof_drawn = true;
		}
		for (uint64_t p = bstart; p < bend; p += unit) {
			char ch = unit_char(s, p);

			if (color)
				fprintf(out, "%s%c%s", char_color(ch), ch, C_OFF);
			else
				fputc(ch, out);
			if (!eof_drawn && s->isize > p && s->isize <= p + unit) {
				fprintf(out, "%s|%s", color ? C_EOF : "",
					color ? C_OFF : "");
				eof_here = eof_drawn = true;
			}
		}
		if (eof_here)
			fprintf(out, "  <- EOF %" PRIu64, s->isize);
		/* shared extents: owners of the block, its COW fork block */
		if (e->state == EXT_WRITTEN && s->refcnt[e->pblk] > 1)
			fprintf(out, "  shared x%u", s->refcnt[e->pblk]);
		if (e->cow == EXT_DELALLOC)
			fprintf(out, "  cow delalloc");
		else if (e->cow != EXT_HOLE)
			fprintf(out, "  cow@%u", e->cow_pblk);
		fputc('\n', out);
	}
	if (!eof_drawn)
		fprintf(out, "%7s  EOF %" PRIu64 " outside the region drawn\n",
			"", s->isize);
	fprintf(out, "legend:");
	for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]); i++) {
		if (i == 4)
			fprintf(out, "\n       ");
		if (color)
			fprintf(out, "  %s%c%s %s", legend[i].color, legend[i].ch,
				C_OFF, legend[i].what);
		else
			fprintf(out, "  %c %s", legend[i].ch, legend[i].what);
	}
	fprintf(out, "  | EOF\n");
	fprintf(out, "zero-around: %" PRIu64 " bytes zeroed in %" PRIu64
		" writes; minimum %" PRIu64 " (independent count)\n",
		k->za_zeroed, k->za_calls, k->za_need);
}
