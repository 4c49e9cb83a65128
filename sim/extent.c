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

/* a free device block with one owner */
static uint32_t pop_pblk(struct lbs_sim *s)
{
	uint32_t pblk;

	if (!s->nfree)
		abort();	/* device sized for every file block twice */
	pblk = s->free_stack[--s->nfree];
	s->refcnt[pblk] = 1;
	return pblk;
}

/* the state of block @b in the data fork or the COW fork */
static uint8_t fork_state(const struct lbs_sim *s, uint64_t b, bool cow)
{
	return cow ? s->ext[b].cow : s->ext[b].state;
}

/*
 * xfs_bmapi_convert_delalloc(): the whole delalloc extent around block
 * @b of the data fork (-> unwritten) or the COW fork (-> allocated)
 */
static void convert_delalloc(struct lbs_sim *s, uint64_t b, bool cow)
{
	uint64_t lo = b, hi = b;

	while (lo > 0 && fork_state(s, lo - 1, cow) == EXT_DELALLOC)
		lo--;
	while (hi + 1 < s->nblocks && fork_state(s, hi + 1, cow) == EXT_DELALLOC)
		hi++;
	for (b = lo; b <= hi; b++) {
		struct extent *e = &s->ext[b];

		if (cow) {
			e->cow_pblk = pop_pblk(s);
			e->cow = EXT_UNWRITTEN;
		} else {
			sim_alloc_block(s, e, EXT_UNWRITTEN);
		}
	}
}

int sim_alloc_block(struct lbs_sim *s, struct extent *e, uint8_t state)
{
	e->pblk = pop_pblk(s);
	e->state = state;
	return 0;
}

/* drop one owner of device block @pblk; the last one frees it */
static void put_pblk(struct lbs_sim *s, uint32_t pblk)
{
	if (!s->refcnt[pblk])
		abort();	/* freed twice: model bug */
	if (--s->refcnt[pblk])
		return;
	sim_dev_fill_stale(s, pblk);	/* whatever was there before */
	s->free_stack[s->nfree++] = pblk;
}

void sim_free_block(struct lbs_sim *s, struct extent *e)
{
	if (e->state == EXT_UNWRITTEN || e->state == EXT_WRITTEN)
		put_pblk(s, e->pblk);
	e->state = EXT_HOLE;
	e->pblk = 0;
}

/*
 * xfs_buffered_write_iomap_begin() on a reflink file: a block goes to the
 * COW fork if the COW fork already covers it, or if its data fork block is
 * shared; then the COW fork gets a delalloc reservation over the COW
 * extent size hint window around it (xfs_bmapi_reserve_delalloc() aligns
 * to the hint), shared or not, never over existing COW fork blocks.  The
 * window is core's lbs_cowextsz_hint().
 */
bool sim_cow_begin(struct lbs_sim *s, uint64_t b)
{
	uint64_t hint, lo, hi;

	if (s->ext[b].cow != EXT_HOLE)
		return true;
	if (!ext_shared(s, &s->ext[b]))
		return false;
	hint = lbs_cowextsz_hint(s->blkbits, s->pshift, SIM_COWEXTSZ_HINT);
	lo = b - b % hint;
	hi = lo + hint < s->nblocks ? lo + hint : s->nblocks;
	for (uint64_t i = lo; i < hi; i++)
		if (s->ext[i].cow == EXT_HOLE)
			s->ext[i].cow = EXT_DELALLOC;
	return true;
}

/* xfs_bmapi_convert_delalloc(XFS_COW_FORK): the whole delalloc extent */
void sim_cow_convert_delalloc(struct lbs_sim *s, uint64_t b)
{
	convert_delalloc(s, b, true);
}

/*
 * xfs_reflink_end_cow() for block @b: the written COW block replaces the
 * data fork block whole (its old owner count drops, a delalloc
 * reservation there is released).
 */
void sim_cow_remap(struct lbs_sim *s, uint64_t b)
{
	struct extent *e = &s->ext[b];

	if (e->cow != EXT_WRITTEN)
		return;		/* not written by this ioend: stays */
	sim_free_block(s, e);
	e->state = EXT_WRITTEN;
	e->pblk = e->cow_pblk;
	e->cow = EXT_HOLE;
	e->cow_pblk = 0;
	s->c.cow_blocks++;
}

/* xfs_reflink_cancel_cow_blocks() over blocks [from_b, to_b) */
void sim_cow_cancel(struct lbs_sim *s, uint64_t from_b, uint64_t to_b)
{
	for (uint64_t b = from_b; b < to_b && b < s->nblocks; b++) {
		struct extent *e = &s->ext[b];

		if (e->cow == EXT_UNWRITTEN || e->cow == EXT_WRITTEN)
			put_pblk(s, e->cow_pblk);
		e->cow = EXT_HOLE;
		e->cow_pblk = 0;
	}
}

/* xfs_bmapi_convert_delalloc(): the whole delalloc extent -> unwritten */
void sim_convert_delalloc(struct lbs_sim *s, uint64_t b)
{
	convert_delalloc(s, b, false);
}

void sim_shift_extents(struct lbs_sim *s, uint64_t from_b, int64_t nb)
{
	uint64_t n = s->nblocks;

	if (nb < 0) {		/* collapse: blocks move down */
		uint64_t d = (uint64_t)-nb;

		for (uint64_t b = from_b; b + d < n; b++)
			s->ext[b] = s->ext[b + d];
		for (uint64_t b = n - d; b < n; b++)
			s->ext[b] = (struct extent){ 0 };
	} else {
		uint64_t d = (uint64_t)nb;

		for (uint64_t b = n; b-- > from_b + d;)
			s->ext[b] = s->ext[b - d];
		for (uint64_t b = from_b; b < from_b + d; b++)
			s->ext[b] = (struct extent){ 0 };
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
		 "block %llu [%s pblk %u%s%s] page %llu [%s%s%s%s%s] i_size %llu i_disk_size %llu",
		 (unsigned long long)bno_of(s, pos),
		 e ? sim_ext_names[e->state] : "?", e ? e->pblk : 0,
		 e && ext_shared(s, e) ? " shared" : "",
		 e && e->cow ? (e->cow == EXT_DELALLOC ? " cow-delalloc" :
				" cow-allocated") : "",
		 (unsigned long long)(pos >> s->pshift),
		 f ? "cached" : "not cached", order,
		 (fl & F_UPTODATE) ? " uptodate" : "",
		 (fl & F_DIRTY) ? " dirty" : "",
		 (fl & F_ZEROED) ? " zeroed-around" : "",
		 (unsigned long long)s->isize,
		 (unsigned long long)s->disk_size);
}
