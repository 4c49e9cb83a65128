// SPDX-License-Identifier: GPL-2.0
/*
 * Extent queries for a filesystem front end (lbs-fuse): lseek SEEK_DATA /
 * SEEK_HOLE as xfs_seek_iomap_begin() + iomap_seek_data()/hole() answer
 * them, and the allocated bytes behind st_blocks.  Observes only.
 */
#define _GNU_SOURCE
#include "sim_int.h"

/*
 * mapping_seek_hole_data() for an unwritten extent: a cached folio is data
 * where it is uptodate (per pageblock unit when it has several).
 */
static bool cached_data(struct lbs_sim *s, uint64_t pos)
{
	struct folio *f = sim_folio_lookup(s, pos >> s->pshift);

	if (!f)
		return false;
	return folio_uptodate(f) ||
	       unit_uptodate(f, lbs_pageblock_index(s->blkbits,
						    fshift_of(s, f),
						    pos - fpos_of(s, f)));
}

/* data at @pos, and the end of the piece that answer holds for */
static bool is_data(struct lbs_sim *s, uint64_t pos, uint64_t *end)
{
	struct extent *e = ext_at(s, pos);
	uint64_t bend = lbs_block_end(s->blkbits, pos);
	uint64_t ustart, uend;

	/* the page cache unit holding pos */
	lbs_pageblock_range(s->blkbits, s->pshift, pos, 1, &ustart, &uend);

	*end = bend;
	if (!e || e->state == EXT_HOLE)
		return false;
	if (e->state != EXT_UNWRITTEN)
		return true;	/* written, delalloc: iomap reports data */
	if (uend < bend)
		*end = uend;
	return cached_data(s, pos);
}

int64_t lbs_sim_seek(struct lbs_sim *s, uint64_t pos, bool data)
{
	uint64_t end;

	if (pos >= s->isize)
		return -ENXIO;
	for (uint64_t p = pos; p < s->isize; p = end) {
		if (is_data(s, p, &end) == data)
			return (int64_t)p;
	}
	/* iomap_seek_hole(): EOF is a hole; nothing for SEEK_DATA */
	return data ? -ENXIO : (int64_t)s->isize;
}

uint64_t lbs_sim_alloc_bytes(const struct lbs_sim *s)
{
	uint64_t n = 0;

	/* xfs_vn_getattr(): real extents plus delalloc reservations */
	for (uint64_t b = 0; b < s->nblocks; b++)
		n += s->ext[b].state != EXT_HOLE;
	return bpos_of(s, n);
}
