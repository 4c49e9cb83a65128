/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal state of the simulator shared by the sim/ sources.  See lbs_sim.h for
 * the model.  Kernel function names in comments say which 6.1 path each
 * piece models.
 */
#ifndef LBS_SIM_INT_H
#define LBS_SIM_INT_H

#include "lbs_sim.h"
#include "lbs_iomap.h"
#include "lbs_xfs.h"
#include "lbs_util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <urcu-bp.h>
#include <urcu/rculfhash.h>

#define UNINIT_BYTE 0xdb	/* contents of a freshly allocated folio */
#define NR_BUCKETS 4096
#define RETIRE_BATCH 1024

enum ext_state { EXT_HOLE, EXT_DELALLOC, EXT_UNWRITTEN, EXT_WRITTEN };
extern const char *const sim_ext_names[];

#define F_UPTODATE 1u
#define F_DIRTY 2u
#define F_WRITEBACK 4u
#define F_ZEROED 8u	/* zero-around touched it (for pictures) */

/*
 * A folio of 2^order pages at a naturally aligned page index, keyed in
 * the index by its first page.  Without large_folios, large folios exist
 * only at bs <= ps (model decision D1(a)), so every unit is a block and a
 * large folio always has per-unit (iomap_page) state.  With it, at bs >
 * ps, a large folio holds whole blocks (order >= m) and has per-unit
 * state only when it holds more than one.  That state is a bit per unit
 * uptodate, then a bit per unit dirty (iomap_page's state, series patch
 * 40): only the dirty units of a dirty folio are written back.  @locks and @refs model the folio
 * lock and the references an operation in flight holds (large_folios
 * only): mm events honour them as 6.1 does.
 */
struct folio {
	struct cds_lfht_node node;
	uint64_t index;
	uint32_t magic;
	uint32_t order;		/* written before insertion, then fixed */
	unsigned flags;		/* atomic: peeked by readers */
	uint32_t nunits;	/* lbs_units_per_folio() of this folio */
	uint32_t za_bytes;	/* zeroed by zero-around, no data since */
	uint16_t locks, refs;
	bool orphan;		/* removed while referenced: freed at the
				   last put */
	unsigned long *ubits;	/* per-unit uptodate, then per-unit dirty;
				   NULL if one unit */
	struct folio *retire_next;
	uint8_t *data;
};

/*
 * One file block in both forks.  The COW fork (@cow, @cow_pblk) holds
 * EXT_HOLE (nothing), EXT_DELALLOC (reserved), EXT_UNWRITTEN (allocated,
 * not yet written) or EXT_WRITTEN (written by the ioend in flight, to be
 * remapped over the data fork at its completion).
 */
struct extent {
	uint8_t state;
	uint8_t cow;
	uint32_t pblk;
	uint32_t cow_pblk;
};

/* XFS_DEFAULT_COWEXTSZ_HINT: the COW extent size hint mkfs leaves */
#define SIM_COWEXTSZ_HINT 32u

struct lbs_sim {
	uint32_t blkbits, pshift, bs, ps;
	uint32_t max_order;		/* largest folio order readahead makes */
	unsigned inject;
	uint64_t max_size, isize, disk_size;
	uint64_t nblocks;		/* file blocks tracked */
	struct extent *ext;
	uint64_t dev_nblocks;
	uint8_t *dev;
	uint32_t *free_stack;
	uint64_t nfree;
	uint32_t *refcnt;		/* per device block: owners */
	bool reflink_inode;		/* XFS_DIFLAG2_REFLINK: set by the
					   first remap, kept */
	struct cds_lfht *ht;
	uint64_t nr_folios;
	struct folio *retired;
	unsigned nretired;
	struct lbs_sim_counters c;
	struct sim_ioend *inflight;	/* lbs_sim_writeback_split() */
	bool lf;			/* large_folios (bs > ps) */
	bool lf_write_pages;		/* ... but not on the write path */
	uint32_t alloc_fail_pct, mm_pct;
	uint64_t rng;			/* mm_seed's stream */
};

/* ---- small helpers ------------------------------------------------ */

static inline unsigned fl_get(const struct folio *f)
{
	return __atomic_load_n(&f->flags, __ATOMIC_ACQUIRE);
}

static inline void fl_set(struct folio *f, unsigned b)
{
	__atomic_fetch_or(&f->flags, b, __ATOMIC_RELEASE);
}

static inline void fl_clear(struct folio *f, unsigned b)
{
	__atomic_fetch_and(&f->flags, ~b, __ATOMIC_RELEASE);
}

/*
 * The two unit conversions between bytes and block numbers,
 * XFS_B_TO_FSBT() and XFS_FSB_TO_B(): extent map and device block
 * indices, never a rounding.  Every block boundary comes from core
 * (lbs_block_start(), lbs_block_end(), lbs_block_offset(), ...).
 */
static inline uint64_t bno_of(const struct lbs_sim *s, uint64_t pos)
{
	return pos >> s->blkbits;
}

static inline uint64_t bpos_of(const struct lbs_sim *s, uint64_t b)
{
	return b << s->blkbits;
}

static inline struct extent *ext_at(struct lbs_sim *s, uint64_t pos)
{
	uint64_t b = bno_of(s, pos);

	return b < s->nblocks ? &s->ext[b] : NULL;
}

static inline uint64_t dev_addr(const struct lbs_sim *s, const struct extent *e,
				uint64_t pos)
{
	/* xfs_fsb_to_db() plus the offset of @pos in its block */
	return bpos_of(s, e->pblk) + lbs_block_offset(s->blkbits, pos);
}

/* the same for the block's COW fork block */
static inline uint64_t cow_addr(const struct lbs_sim *s, const struct extent *e,
				uint64_t pos)
{
	return bpos_of(s, e->cow_pblk) + lbs_block_offset(s->blkbits, pos);
}

/* a written data fork block with another owner (xfs_bmap_trim_cow()) */
static inline bool ext_shared(const struct lbs_sim *s, const struct extent *e)
{
	return e->state == EXT_WRITTEN && s->refcnt[e->pblk] > 1;
}

static inline uint64_t fpos_of(const struct lbs_sim *s, const struct folio *f)
{
	return f->index << s->pshift;
}

static inline uint32_t fshift_of(const struct lbs_sim *s,
				 const struct folio *f)
{
	return s->pshift + f->order;	/* folio_shift() */
}

static inline uint64_t fsize_of(const struct lbs_sim *s, const struct folio *f)
{
	return (uint64_t)1 << fshift_of(s, f);
}

static inline uint64_t fend_of(const struct lbs_sim *s, const struct folio *f)
{
	return fpos_of(s, f) + fsize_of(s, f);
}

/* the last page index of @f: loops over page indices resume after it */
static inline uint64_t flast_of(const struct folio *f)
{
	return f->index + ((uint64_t)1 << f->order) - 1;
}

static inline uint64_t max_index(const struct lbs_sim *s)
{
	return (s->max_size >> s->pshift) + 1;
}

/* ifs_block_is_uptodate(): the bitmap test is core's, as in core */
static inline bool unit_uptodate(const struct folio *f, uint32_t u)
{
	if (!f->ubits)
		return fl_get(f) & F_UPTODATE;
	return LBS_TEST_BIT(u, f->ubits);
}

static inline bool unit_dirty(const struct folio *f, uint32_t u)
{
	if (!f->ubits)
		return fl_get(f) & F_DIRTY;
	return LBS_TEST_BIT(f->nunits + u, f->ubits);
}

/* longs in ->ubits: an uptodate bit and a dirty bit per unit */
static inline size_t ubits_longs(uint32_t nunits)
{
	const size_t w = 8 * sizeof(long);

	return (2 * (size_t)nunits + w - 1) / w;
}

static inline bool folio_uptodate(const struct folio *f)
{
	return fl_get(f) & F_UPTODATE;
}

static inline void zero_segment(struct folio *f, uint32_t a, uint32_t b)
{
	if (b > a)
		memset(f->data + a, 0, b - a);
}

static inline int check_range(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	if (pos > s->max_size || len > s->max_size - pos)
		return -EFBIG;
	return 0;
}

/* ---- shared between the files --------------------------------------- */

/*
 * What the pages around a write are filled from: the source mapping (the
 * data fork under a COW block, the mapping itself otherwise), whether
 * this is copy-around (a COW block, counted apart from zero-around), and
 * the pages of a block not initialised on disk that were not uptodate
 * before the write (for the independent zero-around count).
 */
struct around_src {
	enum lbs_map_type type;
	bool is_new, cow;
	uint32_t need_mask;
};

struct ioend;
struct folio *sim_folio_lookup(struct lbs_sim *s, uint64_t index);
struct folio *sim_folio_get(struct lbs_sim *s, uint64_t index);
bool sim_range_cached(struct lbs_sim *s, uint64_t index, uint32_t order);
struct folio *sim_folio_add(struct lbs_sim *s, uint64_t index,
			    uint32_t order);
bool sim_folio_split(struct lbs_sim *s, struct folio *f);
bool sim_folio_split_refused(const struct lbs_sim *s, const struct folio *f);
void sim_folio_replace(struct lbs_sim *s, struct folio *f,
		       struct folio *nf);
struct folio *sim_folio_copy(struct lbs_sim *s, const struct folio *f);
void sim_folio_lock(struct lbs_sim *s, struct folio *f);
void sim_folio_unlock(struct folio *f);
void sim_folio_put(struct lbs_sim *s, struct folio *f);
bool sim_folio_mapped(struct lbs_sim *s, const struct folio *f);
void sim_retire_flush(struct lbs_sim *s);
void sim_folio_remove(struct lbs_sim *s, struct folio *f);
void sim_truncate_pages(struct lbs_sim *s, uint64_t lstart, uint64_t lend);
void sim_readahead(struct lbs_sim *s, uint64_t index, uint64_t last);
void sim_read_folio(struct lbs_sim *s, struct folio *f);
void sim_dio_flush_read(struct lbs_sim *s, uint64_t pos, uint64_t len);
void sim_dio_invalidate(struct lbs_sim *s, uint64_t pos, uint64_t len);
uint32_t sim_max_pagecache_order(uint32_t pshift);
void sim_set_range_dirty(struct lbs_sim *s, struct folio *f, uint32_t off,
			 uint32_t len);
void sim_folio_mark_dirty(struct lbs_sim *s, struct folio *f);
void sim_clear_units_dirty(struct folio *f);
void sim_set_range_uptodate(struct lbs_sim *s, struct folio *f,
			    uint32_t off, uint32_t len);
void sim_dev_fill_stale(struct lbs_sim *s, uint64_t pblk);
void sim_fill_from_disk(struct lbs_sim *s, struct folio *f, uint32_t off,
			uint32_t len);
int sim_alloc_block(struct lbs_sim *s, struct extent *e, uint8_t state);
void sim_free_block(struct lbs_sim *s, struct extent *e);
void sim_convert_delalloc(struct lbs_sim *s, uint64_t b);
bool sim_cow_begin(struct lbs_sim *s, uint64_t b);
void sim_cow_convert_delalloc(struct lbs_sim *s, uint64_t b);
void sim_cow_remap(struct lbs_sim *s, uint64_t b);
void sim_cow_cancel(struct lbs_sim *s, uint64_t from_b, uint64_t to_b);
enum lbs_map_type sim_map_type(uint8_t st);
bool sim_write_map(struct lbs_sim *s, uint64_t dfrom, uint64_t dto,
		   struct around_src *src, uint64_t *istart, uint64_t *iend);
void sim_count_need(struct lbs_sim *s, uint64_t bstart, uint32_t mask,
		    uint64_t dfrom, uint64_t dto);
void sim_za_count(struct lbs_sim *s, struct folio *f, uint64_t n);
void sim_short_copy_fill(struct lbs_sim *s, uint64_t from, uint64_t to,
			 const struct around_src *src);
void sim_unshare_pages(struct lbs_sim *s, uint64_t pos, uint64_t end);
void sim_reflink_unshare(struct lbs_sim *s, uint64_t pos, uint64_t len);
void sim_shift_extents(struct lbs_sim *s, uint64_t from_b, int64_t nb);
void sim_zero_post_eof_on_disk(struct lbs_sim *s, uint64_t eof);
uint32_t sim_busy_edges(struct lbs_sim *s, uint64_t pos, uint64_t end);
void sim_ioend_drop(struct lbs_sim *s);
void sim_write_and_wait(struct lbs_sim *s, uint64_t start, uint64_t end);
void sim_flush_unmap(struct lbs_sim *s, uint64_t pos, uint64_t len);
bool sim_zero_range(struct lbs_sim *s, uint64_t pos, uint64_t len);
void sim_write_checks(struct lbs_sim *s, uint64_t pos);
int sim_ilog2u(uint32_t v);
int sim_setattr_size(struct lbs_sim *s, uint64_t newsize);
bool sim_write_reserve(struct lbs_sim *s, uint64_t dfrom,
		       struct around_src *src);
void sim_write_need(struct lbs_sim *s, uint64_t dfrom, struct around_src *src);
void sim_write_around(struct lbs_sim *s, uint64_t dfrom, uint64_t dto,
		      const struct around_src *src, uint64_t *istart,
		      uint64_t *iend);

/* ---- large folios at bs > ps (folio_order.c, mm_events.c) ----------- */

/* the interleaving points where an mm event may strike */
enum sim_mm_at { SIM_MM_DECIDE, SIM_MM_COPY, SIM_MM_MKWRITE, SIM_MM_IOEND };
void sim_lf_setup(struct lbs_sim *s, const struct lbs_sim_lf_config *lf);
int sim_lf_config_check(const struct lbs_sim_config *cfg,
			const struct lbs_sim_lf_config *lf, uint32_t maxo,
			char *err, size_t errlen);
uint64_t sim_rand(struct lbs_sim *s);
struct folio *sim_lf_alloc(struct lbs_sim *s, uint64_t index,
			   uint32_t order);
void sim_lf_readahead(struct lbs_sim *s, uint64_t index, uint64_t last);
struct folio *sim_lf_write_folio(struct lbs_sim *s, uint64_t pos,
				 uint64_t len);
bool sim_lf_covers(const struct lbs_sim *s, const struct folio *f,
		   uint64_t pos);
void sim_mm_point(struct lbs_sim *s, enum sim_mm_at at, uint64_t index);

#endif /* LBS_SIM_INT_H */
