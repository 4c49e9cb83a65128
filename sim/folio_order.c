// SPDX-License-Identifier: GPL-2.0
/*
 * Large folios at bs > ps (config large_folios): core's bimodal policy
 * (core/folio_order.c) applied to the sim's page cache.  Readahead takes
 * its orders from lbs_ra_start_order() / lbs_ra_folio_order(); a
 * buffered write into a block with no folio makes the folio
 * lbs_write_folio() gives, one lbs_folio_order_fallback() step at a time
 * when the allocation fails; the invariant check after each operation.
 * Nothing here derives an order or an alignment itself.
 */
#define _GNU_SOURCE
#include "sim_int.h"
#include "lbs_folio.h"

#include <inttypes.h>

int sim_lf_config_check(const struct lbs_sim_config *cfg,
			const struct lbs_sim_lf_config *lf, uint32_t maxo,
			char *err, size_t errlen)
{
	uint32_t blkbits = (uint32_t)sim_ilog2u(cfg->block_size);
	uint32_t pshift = (uint32_t)sim_ilog2u(cfg->page_size);
	uint32_t m = lbs_folio_min_order(blkbits, pshift);

	if (!lf->large_folios) {
		if (!lf->alloc_fail_pct && !lf->mm_event_pct && !lf->max_order &&
		    !lf->write_pages)
			return 0;
		snprintf(err, errlen, "allocation failures, mm events and "
			 "--write-pages need large folios at block "
			 "size > page size");
		return -1;
	}
	if (!m) {
		snprintf(err, errlen, "large folios with block size %u <= page "
			 "size %u: use the max folio order alone",
			 cfg->block_size, cfg->page_size);
		return -1;
	}
	if (lf->alloc_fail_pct > 100 || lf->mm_event_pct > 100) {
		snprintf(err, errlen, "allocation failure and mm event "
			 "chances are percentages (0 to 100)");
		return -1;
	}
	if ((lf->max_order && lf->max_order < m) || lf->max_order > maxo ||
	    m + 1 > maxo) {
		snprintf(err, errlen, "large folio order %u with block size "
			 "%u and page size %u: from %u to %u (MAX_PAGECACHE_ORDER)",
			 lf->max_order, cfg->block_size, cfg->page_size, m,
			 maxo);
		return -1;
	}
	return 0;
}

void sim_lf_setup(struct lbs_sim *s, const struct lbs_sim_lf_config *lf)
{
	if (!lf->large_folios)
		return;
	s->lf = true;
	s->lf_write_pages = lf->write_pages;
	/*
	 * MAX_PAGECACHE_ORDER, as the kernel since series patch 41: with a
	 * dirty bit per block, a folio of several blocks writes back only
	 * the blocks written.  A smaller max_order bounds the folios.
	 */
	s->max_order = lf->max_order ? lf->max_order :
		       sim_max_pagecache_order(s->pshift);
	s->alloc_fail_pct = lf->alloc_fail_pct;
	s->mm_pct = lf->mm_event_pct;
	s->rng = lf->seed;
}

/* splitmix64: the seeded stream of allocation failures and mm events */
uint64_t sim_rand(struct lbs_sim *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* __GFP_NORETRY | __GFP_NOWARN fails fast when memory is fragmented */
static bool alloc_fails(struct lbs_sim *s)
{
	if (s->alloc_fail_pct >= 100)
		return true;
	return s->alloc_fail_pct && sim_rand(s) % 100 < s->alloc_fail_pct;
}

/*
 * filemap_alloc_folio() + filemap_add_folio(): NULL when a large
 * allocation fails (the knob) or meets a cached page (-EEXIST); order 0
 * always succeeds.
 */
struct folio *sim_lf_alloc(struct lbs_sim *s, uint64_t index, uint32_t order)
{
	if (order && sim_range_cached(s, index, order)) {
		s->c.lf.fallbacks++;
		return NULL;
	}
	if (order && alloc_fails(s)) {
		s->c.lf.fallbacks++;
		s->c.lf.alloc_failed++;
		return NULL;
	}
	s->c.lf.made[order]++;
	return sim_folio_add(s, index, order);
}

bool sim_lf_covers(const struct lbs_sim *s, const struct folio *f,
		   uint64_t pos)
{
	return lbs_folio_covers_block(s->blkbits, s->pshift, f->index,
				      f->order, pos);
}

/*
 * page_cache_ra_order() with the bimodal clamp, over the request (the
 * window is the request, as in the order-0 model, so that with every
 * large allocation failing the same pages are read).  A failed large
 * folio, or a cached page met, ends the large folios: the rest of the
 * window is read in order-0 pages (do_page_cache_ra()).  The knob
 * sub-block-order asks core for 6.1's orders without the block minimum
 * (a mapping whose blocks are pages): orders below m appear.
 */
void sim_lf_readahead(struct lbs_sim *s, uint64_t index, uint64_t last)
{
	uint32_t bits = s->inject & LBS_SIM_INJ_SUB_BLOCK_ORDER ? s->pshift :
			s->blkbits;
	uint64_t eofp, limit;
	uint32_t start;
	bool large = true;

	if (!s->isize || last < index)
		return;
	eofp = (s->isize - 1) >> s->pshift;
	if (index > eofp)
		return;
	limit = last < eofp ? last : eofp;
	start = lbs_ra_start_order(bits, s->pshift, s->max_order,
				   limit - index + 1 > UINT32_MAX ? UINT32_MAX :
				   (uint32_t)(limit - index + 1), s->max_order);
	for (uint64_t i = index; i <= limit; i++) {
		struct folio *f = sim_folio_lookup(s, i);
		uint32_t order = 0;

		if (f) {
			large = false;
			i = flast_of(f);
			continue;
		}
		if (large && start)
			order = lbs_ra_folio_order(bits, s->pshift, i, limit,
						   start);
		if (order && !(f = sim_lf_alloc(s, i, order)))
			large = false;
		if (!f)
			f = sim_lf_alloc(s, i, 0);
		if (f->order)
			s->c.ra_large_folios++;
		sim_read_folio(s, f);
		i = flast_of(f);
	}
}

/*
 * iomap_get_folio() for a write of [pos, pos+len) whose first byte's
 * page has no folio (patches 36-37): the folio lbs_write_folio() gives,
 * stepping down (lbs_folio_order_fallback()) past orders whose range
 * holds a cached page or whose allocation fails, to order 0 in the end.
 * With write_pages, order 0 at once, as 6.1's write path.
 */
struct folio *sim_lf_write_folio(struct lbs_sim *s, uint64_t pos,
				 uint64_t len)
{
	struct folio *f = sim_folio_lookup(s, pos >> s->pshift);
	uint64_t index;
	uint32_t order;

	if (f)
		return f;
	if (s->lf_write_pages)
		return sim_lf_alloc(s, pos >> s->pshift, 0);
	lbs_write_folio(s->blkbits, s->pshift, pos, len, s->max_order, &index,
			&order);
	while (order) {
		f = sim_lf_alloc(s, index, order);
		if (f)
			return f;
		lbs_folio_order_fallback(s->blkbits, s->pshift, order, &order);
		index = (pos >> s->pshift) & ~(((uint64_t)1 << order) - 1);
	}
	return sim_lf_alloc(s, pos >> s->pshift, 0);
}

/*
 * A dirty page of the sub-block regime: its block holds a reservation
 * or an allocation, and when that is not yet written data, zero-around
 * dirtied every page of the block inside EOF (conversion is whole
 * blocks).  COW blocks are copy-around's and are left out.
 */
static bool page_check(struct lbs_sim *s, const struct folio *f, char *buf,
		       size_t n)
{
	uint64_t fpos = fpos_of(s, f), bstart, bend;
	struct extent *e = ext_at(s, fpos);

	if (fpos >= s->isize || !e || e->cow != EXT_HOLE ||
	    e->state == EXT_WRITTEN)
		return false;
	if (e->state == EXT_HOLE) {
		snprintf(buf, n, "dirty page at 0x%" PRIx64 " over a hole", fpos);
		return true;
	}
	bstart = lbs_block_start(s->blkbits, fpos);
	bend = lbs_block_end(s->blkbits, fpos);
	for (uint64_t q = bstart; q < bend && q < s->isize; q += s->ps) {
		struct folio *g = sim_folio_lookup(s, q >> s->pshift);

		if (g && (fl_get(g) & (F_DIRTY | F_WRITEBACK)))
			continue;
		snprintf(buf, n, "dirty page at 0x%" PRIx64 " over a%s block "
			 "whose page at 0x%" PRIx64 " is %s: zero-around left "
			 "it out (stale data at conversion)", fpos,
			 e->state == EXT_DELALLOC ? " delalloc" : "n unwritten",
			 q, g ? "clean" : "not cached");
		return true;
	}
	return false;
}

static bool folio_check(struct lbs_sim *s, const struct folio *f, char *buf,
			size_t n)
{
	uint64_t fpos = fpos_of(s, f);

	if (f->locks || f->refs) {
		snprintf(buf, n, "folio at 0x%" PRIx64 " left %s after the "
			 "operation", fpos, f->locks ? "locked" : "referenced");
		return true;
	}
	if (!lbs_folio_order_ok(s->blkbits, s->pshift, f->order)) {
		snprintf(buf, n, "folio of order %u at 0x%" PRIx64 ": below "
			 "the block's order %u and not 0 (bimodal rule)",
			 f->order, fpos,
			 lbs_folio_min_order(s->blkbits, s->pshift));
		return true;
	}
	if (f->index & (((uint64_t)1 << f->order) - 1)) {
		snprintf(buf, n, "folio of order %u at 0x%" PRIx64 " not "
			 "naturally aligned", f->order, fpos);
		return true;
	}
	if (f->order && (!sim_lf_covers(s, f, fpos) ||
			 !sim_lf_covers(s, f, fend_of(s, f) - 1))) {
		snprintf(buf, n, "block at 0x%" PRIx64 " under a large folio "
			 "and pages", fpos);
		return true;
	}
	if (f->order && f->ubits && (fl_get(f) & F_DIRTY)) {
		uint32_t unit = lbs_pageblock_size(s->blkbits, fshift_of(s, f));

		/* a dirty block of a large folio has its reservation */
		for (uint32_t u = 0; u < f->nunits; u++) {
			uint64_t upos = fpos + (uint64_t)u * unit;
			struct extent *e = ext_at(s, upos);

			if (upos >= s->isize || !unit_dirty(f, u) ||
			    (e && (e->state != EXT_HOLE || e->cow != EXT_HOLE)))
				continue;
			snprintf(buf, n, "dirty block at 0x%" PRIx64 " of the "
				 "order-%u folio at 0x%" PRIx64 " over a hole",
				 upos, f->order, fpos);
			return true;
		}
	}
	return !f->order && (fl_get(f) & F_DIRTY) && page_check(s, f, buf, n);
}

bool lbs_sim_folio_check(struct lbs_sim *s, char *buf, size_t n)
{
	uint64_t mi = max_index(s);

	if (!s->lf)
		return false;
	s->c.lf.checks++;
	if (s->c.lf.double_locks) {
		snprintf(buf, n, "folio at 0x%" PRIx64 " locked twice by one "
			 "task (%" PRIu64 " times): a loop stepped by page "
			 "through a large folio", s->c.lf.double_lock_pos,
			 s->c.lf.double_locks);
		return true;
	}
	if (s->c.lf.orphan_writes) {
		snprintf(buf, n, "write copied into the folio at 0x%" PRIx64
			 " after it left the page cache (%" PRIu64 " times): "
			 "no recheck after the relock", s->c.lf.orphan_pos,
			 s->c.lf.orphan_writes);
		return true;
	}
	for (uint64_t idx = 0; idx <= mi; idx++) {
		struct folio *f = sim_folio_lookup(s, idx);

		if (!f)
			continue;
		idx = flast_of(f);
		if (folio_check(s, f, buf, n))
			return true;
	}
	return false;
}
