// SPDX-License-Identifier: GPL-2.0
/*
 * Readahead: where large folios come from in 6.1 (the write path makes
 * order 0 only).  page_cache_ra_order() with do_page_cache_ra() as its
 * fallback, for a buffered read miss or an mmap fault.
 */
#define _GNU_SOURCE
#include "sim_int.h"

static uint32_t lowest_bit(uint64_t v)	/* __ffs() */
{
	return (uint32_t)__builtin_ctzll(v);
}

static void add_and_read(struct lbs_sim *s, uint64_t index, uint32_t order)
{
	if (order)
		s->c.ra_large_folios++;
	sim_read_folio(s, sim_folio_add(s, index, order));
}

/*
 * A read or fault missed at page @index and wants pages up to @last.
 * The window (ra->size) is that request or 2^max_order pages, whichever
 * is larger.  Large folios need a window of at least 4 pages; each takes
 * the largest order that is naturally aligned at its index and ends by
 * the EOF page, order 1 being skipped; the first cached page met stops
 * them (filemap_add_folio() -EEXIST) and the rest of the window is read
 * in order-0 folios around what is cached.  Nothing past the EOF page.
 */
void sim_readahead(struct lbs_sim *s, uint64_t index, uint64_t last)
{
	uint64_t ra_size = last - index + 1, limit, i = index;
	uint32_t new_order = s->max_order;

	if (s->lf) {
		sim_lf_readahead(s, index, last);
		return;
	}
	if (!s->isize || index > (s->isize - 1) >> s->pshift || last < index)
		return;
	if (ra_size < (uint64_t)1 << new_order)
		ra_size = (uint64_t)1 << new_order;
	limit = (s->isize - 1) >> s->pshift;
	if (limit > index + ra_size - 1)
		limit = index + ra_size - 1;
	if (ra_size >= 4 && new_order >= 2) {
		while (i <= limit) {
			uint32_t order = new_order;

			if (i & (((uint64_t)1 << order) - 1)) {
				order = lowest_bit(i);
				if (order == 1)
					order = 0;
			}
			while (i + ((uint64_t)1 << order) - 1 > limit)
				if (--order == 1)
					order = 0;
			if (sim_range_cached(s, i, order))
				break;
			add_and_read(s, i, order);
			i += (uint64_t)1 << order;
		}
		if (i > limit)
			return;
	}
	for (; i <= limit; i++)
		if (!sim_folio_lookup(s, i))
			add_and_read(s, i, 0);
}
