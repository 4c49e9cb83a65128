// SPDX-License-Identifier: GPL-2.0
/*
 * The page cache index: a liburcu lock-free hash table of folios keyed
 * by page index.  One writer inserts and removes; lbs_sim_peek() looks
 * folios up from any thread under rcu_read_lock(), as filemap_get_folio()
 * does, and removed folios are freed only after a grace period.
 */
#define _GNU_SOURCE
#include "sim_int.h"

static int fmatch(struct cds_lfht_node *node, const void *key)
{
	const struct folio *f = caa_container_of(node, struct folio, node);

	return f->index == *(const uint64_t *)key;
}

static unsigned long fhash(uint64_t index)
{
	uint64_t h = index * 0x9e3779b97f4a7c15ull;

	return (unsigned long)(h ^ (h >> 29));
}

struct folio *sim_folio_lookup(struct lbs_sim *s, uint64_t index)
{
	struct cds_lfht_iter it;
	struct cds_lfht_node *n;
	struct folio *f = NULL;

	urcu_bp_read_lock();
	cds_lfht_lookup(s->ht, fhash(index), fmatch, &index, &it);
	n = cds_lfht_iter_get_node(&it);
	if (n)
		f = caa_container_of(n, struct folio, node);
	urcu_bp_read_unlock();
	/* the single writer owns @f: only it removes folios */
	return f;
}

struct folio *sim_folio_get(struct lbs_sim *s, uint64_t index)
{
	struct folio *f = sim_folio_lookup(s, index);
	struct cds_lfht_node *n;
	size_t nwords;

	if (f)
		return f;
	f = calloc(1, sizeof(*f));
	f->data = malloc(s->ps);
	if (!f || !f->data)
		abort();
	memset(f->data, UNINIT_BYTE, s->ps);
	f->index = index;
	f->magic = LBS_SIM_FOLIO_MAGIC;
	if (s->upf > 1) {
		nwords = (s->upf + 8 * sizeof(long) - 1) / (8 * sizeof(long));
		f->ubits = calloc(nwords, sizeof(long));
		if (!f->ubits)
			abort();
	}
	cds_lfht_node_init(&f->node);
	urcu_bp_read_lock();
	n = cds_lfht_add_unique(s->ht, fhash(index), fmatch, &f->index,
				&f->node);
	urcu_bp_read_unlock();
	if (n != &f->node)
		abort();
	s->nr_folios++;
	return f;
}

static void folio_free(struct folio *f)
{
	free(f->ubits);
	free(f->data);
	free(f);
}

void sim_retire_flush(struct lbs_sim *s)
{
	struct folio *f, *next;

	if (!s->retired)
		return;
	urcu_bp_synchronize_rcu();
	for (f = s->retired; f; f = next) {
		next = f->retire_next;
		folio_free(f);
	}
	s->retired = NULL;
	s->nretired = 0;
}

void sim_folio_remove(struct lbs_sim *s, struct folio *f)
{
	urcu_bp_read_lock();
	if (cds_lfht_del(s->ht, &f->node))
		abort();
	urcu_bp_read_unlock();
	s->nr_folios--;
	f->retire_next = s->retired;
	s->retired = f;
	if (++s->nretired >= RETIRE_BATCH)
		sim_retire_flush(s);
}

/* iomap_set_range_uptodate(): units touched by [off, off+len) */
void sim_set_range_uptodate(struct lbs_sim *s, struct folio *f,
			    uint32_t off, uint32_t len)
{
	const unsigned long w = 8 * sizeof(long);
	uint32_t bits = lbs_pageblock_bits(s->blkbits, s->pshift);
	uint32_t u, all = 1;

	if (!len)
		return;
	if (!f->ubits) {
		fl_set(f, F_UPTODATE);
		return;
	}
	for (u = off >> bits; u <= (off + len - 1) >> bits; u++)
		f->ubits[u / w] |= 1ul << (u % w);
	for (u = 0; u < s->upf; u++)
		all &= unit_uptodate(f, u);
	if (all)
		fl_set(f, F_UPTODATE);
}

bool lbs_sim_peek(struct lbs_sim *s, uint64_t index,
		  struct lbs_sim_folio_info *info)
{
	struct cds_lfht_iter it;
	struct cds_lfht_node *n;
	bool found = false;

	urcu_bp_read_lock();
	cds_lfht_lookup(s->ht, fhash(index), fmatch, &index, &it);
	n = cds_lfht_iter_get_node(&it);
	if (n) {
		struct folio *f = caa_container_of(n, struct folio, node);
		unsigned fl = fl_get(f);

		info->index = f->index;
		info->magic = f->magic;
		info->uptodate = fl & F_UPTODATE;
		info->dirty = fl & F_DIRTY;
		info->writeback = fl & F_WRITEBACK;
		found = true;
	}
	urcu_bp_read_unlock();
	return found;
}

int64_t lbs_sim_pick_dirty(struct lbs_sim *s, uint64_t hint)
{
	uint64_t mi = max_index(s), n = mi + 1;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t idx = (hint + i) % n;
		struct folio *f = sim_folio_lookup(s, idx);

		if (f && (fl_get(f) & F_DIRTY))
			return (int64_t)idx;
	}
	return -1;
}

void lbs_sim_drop_caches(struct lbs_sim *s)
{
	uint64_t mi = max_index(s);

	for (uint64_t idx = 0; idx <= mi; idx++) {
		struct folio *f = sim_folio_lookup(s, idx);

		if (f && !(fl_get(f) & F_DIRTY))
			sim_folio_remove(s, f);
	}
	sim_retire_flush(s);
}
