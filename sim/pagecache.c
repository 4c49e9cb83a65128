// SPDX-License-Identifier: GPL-2.0
/*
 * The page cache index: a liburcu lock-free hash table of folios keyed
 * by their first page index.  One writer inserts, splits and removes;
 * lbs_sim_peek() looks folios up from any thread under rcu_read_lock(),
 * as filemap_get_folio() does, and removed folios are freed only after a
 * grace period.
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

/*
 * The folio holding page @index: a folio of order k starts at @index
 * rounded down to 2^k pages (natural alignment, __filemap_add_folio()),
 * so one lookup per possible order finds it.  Order 1 never exists.
 * Largest order first: a split publishes the pieces behind the head
 * before the head piece replaces the large folio, so a reader that finds
 * the head piece finds the others too; smallest first could miss a piece
 * not yet in, then find the head already replaced (the RCU stress test
 * caught that).  Caller holds the RCU read lock.
 */
static struct folio *lookup_rcu(struct lbs_sim *s, uint64_t index)
{
	uint64_t prev = UINT64_MAX;

	for (uint32_t o = s->max_order + 1; o-- > 0;) {
		uint64_t base = index & ~(((uint64_t)1 << o) - 1);
		struct cds_lfht_iter it;
		struct cds_lfht_node *n;
		struct folio *f;

		if (o == 1 || base == prev)
			continue;
		prev = base;
		cds_lfht_lookup(s->ht, fhash(base), fmatch, &base, &it);
		n = cds_lfht_iter_get_node(&it);
		if (!n)
			continue;
		f = caa_container_of(n, struct folio, node);
		if (index <= flast_of(f))
			return f;
	}
	return NULL;
}

struct folio *sim_folio_lookup(struct lbs_sim *s, uint64_t index)
{
	struct folio *f;

	urcu_bp_read_lock();
	f = lookup_rcu(s, index);
	urcu_bp_read_unlock();
	/* the single writer owns @f: only it removes folios */
	return f;
}

static struct folio *folio_new(struct lbs_sim *s, uint64_t index,
			       uint32_t order)
{
	struct folio *f = calloc(1, sizeof(*f));
	uint64_t size = (uint64_t)s->ps << order;

	if (!f || !(f->data = malloc(size)))
		abort();
	memset(f->data, UNINIT_BYTE, size);
	f->index = index;
	f->order = order;
	f->magic = LBS_SIM_FOLIO_MAGIC;
	f->nunits = lbs_units_per_folio(s->blkbits, s->pshift + order);
	if (f->nunits > 1) {	/* iomap_page_create(): nr_blocks > 1 */
		f->ubits = calloc(ubits_longs(f->nunits), sizeof(long));
		if (!f->ubits)
			abort();
	}
	cds_lfht_node_init(&f->node);
	return f;
}

/* caller holds the RCU read lock; the page range must be free */
static void insert_rcu(struct lbs_sim *s, struct folio *f)
{
	if (cds_lfht_add_unique(s->ht, fhash(f->index), fmatch, &f->index,
				&f->node) != &f->node)
		abort();
	s->nr_folios++;
}

struct folio *sim_folio_add(struct lbs_sim *s, uint64_t index,
			    uint32_t order)
{
	struct folio *f = folio_new(s, index, order);

	if (index & (((uint64_t)1 << order) - 1))
		abort();	/* not naturally aligned: caller bug */
	urcu_bp_read_lock();
	insert_rcu(s, f);
	urcu_bp_read_unlock();
	return f;
}

/*
 * Whether any of the 2^@order pages at @index is cached: a folio of that
 * order cannot be added there (filemap_add_folio() -EEXIST).
 */
bool sim_range_cached(struct lbs_sim *s, uint64_t index, uint32_t order)
{
	for (uint64_t i = index; i < index + ((uint64_t)1 << order); i++)
		if (sim_folio_lookup(s, i))
			return true;
	return false;
}

/* __filemap_get_folio(FGP_CREAT): the write path makes order 0 only */
struct folio *sim_folio_get(struct lbs_sim *s, uint64_t index)
{
	struct folio *f = sim_folio_lookup(s, index);

	if (f)
		return f;
	return s->lf ? sim_lf_alloc(s, index, 0) : sim_folio_add(s, index, 0);
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

/* free @f once current readers are done with it */
static void retire(struct lbs_sim *s, struct folio *f)
{
	f->retire_next = s->retired;
	s->retired = f;
	if (++s->nretired >= RETIRE_BATCH)
		sim_retire_flush(s);
}

static void unhash(struct lbs_sim *s, struct folio *f)
{
	urcu_bp_read_lock();
	if (cds_lfht_del(s->ht, &f->node))
		abort();
	urcu_bp_read_unlock();
	s->nr_folios--;
}

/* a folio an operation still references is freed at its last put */
void sim_folio_remove(struct lbs_sim *s, struct folio *f)
{
	unhash(s, f);
	if (f->refs)
		f->orphan = true;
	else
		retire(s, f);
}

/*
 * folio_lock() by the one task the sim runs: a folio it already holds
 * locked would deadlock in the kernel; here it is counted (the
 * step-by-page negative control) and the check reports it.
 */
void sim_folio_lock(struct lbs_sim *s, struct folio *f)
{
	if (f->locks && !s->c.lf.double_locks++)
		s->c.lf.double_lock_pos = fpos_of(s, f);
	f->locks++;
}

void sim_folio_unlock(struct folio *f)
{
	if (!f->locks)
		abort();	/* unbalanced: a sim bug */
	f->locks--;
}

/* folio_put() of a reference the operation took with the lookup */
void sim_folio_put(struct lbs_sim *s, struct folio *f)
{
	if (!f->refs)
		abort();
	if (!--f->refs && f->orphan)
		retire(s, f);
}

/* folio->mapping still the file's: the page cache holds @f at its index */
bool sim_folio_mapped(struct lbs_sim *s, const struct folio *f)
{
	return !f->orphan && sim_folio_lookup(s, f->index) == f;
}

/* migrate_folio(): a new folio with the same order, state and data */
struct folio *sim_folio_copy(struct lbs_sim *s, const struct folio *f)
{
	struct folio *nf = folio_new(s, f->index, f->order);

	memcpy(nf->data, f->data, fsize_of(s, f));
	if (f->ubits)
		memcpy(nf->ubits, f->ubits,
		       ubits_longs(f->nunits) * sizeof(long));
	nf->flags = fl_get(f);
	nf->za_bytes = f->za_bytes;
	return nf;
}

/* @nf takes @f's place in one step (folio_migrate_mapping()) */
void sim_folio_replace(struct lbs_sim *s, struct folio *f, struct folio *nf)
{
	struct cds_lfht_iter it;

	urcu_bp_read_lock();
	cds_lfht_lookup(s->ht, fhash(f->index), fmatch, &f->index, &it);
	if (cds_lfht_replace(s->ht, &it, fhash(f->index), fmatch, &f->index,
			     &nf->node))
		abort();
	urcu_bp_read_unlock();
	retire(s, f);
}

/*
 * split_huge_page_to_list() refuses a folio under writeback, one whose
 * per-block state filemap_release_folio() cannot drop (iomap refuses a
 * dirty folio with an iomap_page) and one with references beyond the
 * page cache's (an operation holding it, or its lock: the splitter
 * needs it).  A folio of one block has no iomap_page, so a dirty one
 * splits into dirty, uptodate pages.
 */
bool sim_folio_split_refused(const struct lbs_sim *s, const struct folio *f)
{
	unsigned fl = fl_get(f);

	(void)s;
	return (fl & F_WRITEBACK) || f->locks || f->refs ||
	       ((fl & F_DIRTY) && f->ubits);
}

/*
 * split_folio() to order 0, false when refused (above).  The
 * iomap_page is gone (released, or invalidated by truncation), so each
 * order-0 piece is uptodate only if the whole folio was (6.1 warns when
 * a dirty folio was not); dirty is inherited.  Readers never miss a page
 * that stays cached: the pieces behind the head go in first, then the
 * head piece replaces the large folio in one step, the way xas_split()
 * rewrites the entries in place.  The fault knob split-gap removes the
 * folio first (the negative control).
 */
bool sim_folio_split(struct lbs_sim *s, struct folio *f)
{
	uint64_t n = (uint64_t)1 << f->order;
	unsigned keep = fl_get(f) & (F_UPTODATE | F_DIRTY);
	bool gap = s->inject & LBS_SIM_INJ_SPLIT_GAP;
	struct folio **p;
	struct cds_lfht_iter it;

	if (!f->order || sim_folio_split_refused(s, f))
		return false;
	s->c.folio_splits++;
	if (gap)
		unhash(s, f);	/* readers miss from here on */
	p = calloc(n, sizeof(*p));
	if (!p)
		abort();
	for (uint64_t i = 0; i < n; i++) {
		p[i] = folio_new(s, f->index + i, 0);
		memcpy(p[i]->data, f->data + (i << s->pshift), s->ps);
		p[i]->flags = keep;
		if (p[i]->ubits && (keep & F_UPTODATE))
			sim_set_range_uptodate(s, p[i], 0, s->ps);
	}
	urcu_bp_read_lock();
	for (uint64_t i = gap ? 0 : 1; i < n; i++)
		insert_rcu(s, p[i]);
	if (!gap) {
		cds_lfht_lookup(s->ht, fhash(f->index), fmatch, &f->index, &it);
		if (cds_lfht_replace(s->ht, &it, fhash(f->index), fmatch,
				     &f->index, &p[0]->node))
			abort();
	}
	urcu_bp_read_unlock();
	free(p);
	retire(s, f);
	return true;
}

/*
 * Set the bits from @base + unit of @off to @base + unit of @off+len-1:
 * @base is 0 for the uptodate bits and ->nunits for the dirty ones, the
 * layout of 6.6's iomap_folio_state.
 */
static void set_unit_bits(struct lbs_sim *s, struct folio *f, uint32_t base,
			  uint32_t off, uint32_t len)
{
	const unsigned long w = 8 * sizeof(long);
	uint32_t fshift = fshift_of(s, f);
	uint32_t u, last;

	last = lbs_pageblock_index(s->blkbits, fshift, off + len - 1);
	for (u = lbs_pageblock_index(s->blkbits, fshift, off); u <= last; u++)
		f->ubits[(base + u) / w] |= 1ul << ((base + u) % w);
}

/* iomap_set_range_dirty(): units touched by [off, off+len) */
void sim_set_range_dirty(struct lbs_sim *s, struct folio *f, uint32_t off,
			 uint32_t len)
{
	if (len && f->ubits)
		set_unit_bits(s, f, f->nunits, off, len);
}

/* iomap_dirty_folio(): every unit, then the folio */
void sim_folio_mark_dirty(struct lbs_sim *s, struct folio *f)
{
	sim_set_range_dirty(s, f, 0, (uint32_t)fsize_of(s, f));
	fl_set(f, F_DIRTY);
}

/* iomap_writepage_map(): every unit's dirty bit, once it is written */
void sim_clear_units_dirty(struct folio *f)
{
	const unsigned long w = 8 * sizeof(long);

	if (!f->ubits)
		return;
	for (uint32_t u = 0; u < f->nunits; u++)
		f->ubits[(f->nunits + u) / w] &= ~(1ul << ((f->nunits + u) % w));
}

/* iomap_set_range_uptodate(): units touched by [off, off+len) */
void sim_set_range_uptodate(struct lbs_sim *s, struct folio *f,
			    uint32_t off, uint32_t len)
{
	uint32_t u, all = 1;

	if (!len)
		return;
	if (!f->ubits) {
		fl_set(f, F_UPTODATE);
		return;
	}
	set_unit_bits(s, f, 0, off, len);
	for (u = 0; u < f->nunits; u++)
		all &= unit_uptodate(f, u);
	if (all)
		fl_set(f, F_UPTODATE);
}

bool lbs_sim_peek(struct lbs_sim *s, uint64_t index,
		  struct lbs_sim_folio_info *info)
{
	struct folio *f;
	bool found = false;

	urcu_bp_read_lock();
	f = lookup_rcu(s, index);
	if (f) {
		unsigned fl = fl_get(f);

		info->index = f->index;
		info->order = f->order;
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
			return (int64_t)f->index;
	}
	return -1;
}

void lbs_sim_drop_caches(struct lbs_sim *s)
{
	uint64_t mi = max_index(s);

	for (uint64_t idx = 0; idx <= mi; idx++) {
		struct folio *f = sim_folio_lookup(s, idx);

		if (!f)
			continue;
		idx = flast_of(f);
		if (!(fl_get(f) & F_DIRTY))
			sim_folio_remove(s, f);
	}
	sim_retire_flush(s);
}
