// SPDX-License-Identifier: GPL-2.0
/*
 * The extent map of the file, one entry per file block (XFS extent-map
 * block indexing): hole, delalloc, unwritten, written, and XFS's
 * transitions between them.
 */
#define _GNU_SOURCE
#include "sim_int.h"

const char *const sim_ext_names[] = { "hole", "delalloc", "unwritten",
					   "written" };

int sim_alloc_block(struct lbs_sim *s, struct extent *e, uint8_t state)
{
	if (!s->nfree)
		abort();	/* device sized for every file block twice */
	e->pblk = s->free_stack[--s->nfree];
	e->state = state;
	return 0;
}

void sim_free_block(struct lbs_sim *s, struct extent *e)
{
	if (e->state == EXT_UNWRITTEN || e->state == EXT_WRITTEN) {
		sim_dev_fill_stale(s, e->pblk);	/* whatever was there before */
		s->free_stack[s->nfree++] = e->pblk;
	}
	e->state = EXT_HOLE;
	e->pblk = 0;
}

/* xfs_bmapi_convert_delalloc(): the whole delalloc extent -> unwritten */
void sim_convert_delalloc(struct lbs_sim *s, uint64_t b)
{
	uint64_t lo = b, hi = b;

	while (lo > 0 && s->ext[lo - 1].state == EXT_DELALLOC)
		lo--;
	while (hi + 1 < s->nblocks && s->ext[hi + 1].state == EXT_DELALLOC)
		hi++;
	for (b = lo; b <= hi; b++)
		sim_alloc_block(s, &s->ext[b], EXT_UNWRITTEN);
}

void sim_shift_extents(struct lbs_sim *s, uint64_t from_b, int64_t nb)
{
	uint64_t n = s->nblocks;

	if (nb < 0) {		/* collapse: blocks move down */
		uint64_t d = (uint64_t)-nb;

		for (uint64_t b = from_b; b + d < n; b++)
			s->ext[b] = s->ext[b + d];
		for (uint64_t b = n - d; b < n; b++)
			s->ext[b] = (struct extent){ EXT_HOLE, 0 };
	} else {
		uint64_t d = (uint64_t)nb;

		for (uint64_t b = n; b-- > from_b + d;)
			s->ext[b] = s->ext[b - d];
		for (uint64_t b = from_b; b < from_b + d; b++)
			s->ext[b] = (struct extent){ EXT_HOLE, 0 };
	}
}

void lbs_sim_describe(struct lbs_sim *s, uint64_t pos, char *buf, size_t len)
{
	struct extent *e = ext_at(s, pos);
	struct folio *f = sim_folio_lookup(s, pos >> s->pshift);
	unsigned fl = f ? fl_get(f) : 0;
	char order[48] = "";

	if (f && f->order)
		snprintf(order, sizeof(order), " in order-%u folio at page %llu",
			 f->order, (unsigned long long)f->index);
	snprintf(buf, len,
		 "block %llu [%s pblk %u] page %llu [%s%s%s%s%s] i_size %llu i_disk_size %llu",
		 (unsigned long long)bno_of(s, pos),
		 e ? sim_ext_names[e->state] : "?", e ? e->pblk : 0,
		 (unsigned long long)(pos >> s->pshift),
		 f ? "cached" : "not cached", order,
		 (fl & F_UPTODATE) ? " uptodate" : "",
		 (fl & F_DIRTY) ? " dirty" : "",
		 (fl & F_ZEROED) ? " zeroed-around" : "",
		 (unsigned long long)s->isize,
		 (unsigned long long)s->disk_size);
}
