// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator proper.  See lbs_sim.h for the model.  Kernel function
 * names in comments say which 6.1 path each piece models.
 */
#define _GNU_SOURCE
#include "lbs_sim.h"
#include "lbs_iomap.h"
#include "lbs_xfs.h"

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
static const char *const ext_names[] = { "hole", "delalloc", "unwritten",
					 "written" };

#define F_UPTODATE 1u
#define F_DIRTY 2u
#define F_WRITEBACK 4u
#define F_ZEROED 8u	/* zero-around touched it (for pictures) */

struct folio {
	struct cds_lfht_node node;
	uint64_t index;
	uint32_t magic;
	unsigned flags;		/* atomic: peeked by readers */
	unsigned long *ubits;	/* per-unit uptodate, NULL if one unit */
	struct folio *retire_next;
	uint8_t *data;
};

struct extent {
	uint8_t state;
	uint32_t pblk;
};

struct lbs_sim {
	uint32_t blkbits, pshift, bs, ps, ubits_shift, upf;
	unsigned inject;
	uint64_t max_size, isize, disk_size;
	uint64_t nblocks;		/* file blocks tracked */
	struct extent *ext;
	uint64_t dev_nblocks;
	uint8_t *dev;
	uint32_t *free_stack;
	uint64_t nfree;
	struct cds_lfht *ht;
	uint64_t nr_folios;
	struct folio *retired;
	unsigned nretired;
	struct lbs_sim_counters c;
};

/* ---- small helpers ---------------------------------------------------- */

static unsigned fl_get(const struct folio *f)
{
	return __atomic_load_n(&f->flags, __ATOMIC_ACQUIRE);
}

static void fl_set(struct folio *f, unsigned b)
{
	__atomic_fetch_or(&f->flags, b, __ATOMIC_RELEASE);
}

static void fl_clear(struct folio *f, unsigned b)
{
	__atomic_fetch_and(&f->flags, ~b, __ATOMIC_RELEASE);
}

static int ilog2u(uint32_t v)
{
	int n = -1;

	while (v) {
		v >>= 1;
		n++;
	}
	return n;
}

static uint8_t stale_byte(uint64_t daddr)
{
	/* "ST" then six bytes 0x80|7 bits of the 8-byte word index */
	uint64_t w = daddr >> 3;
	unsigned k = (unsigned)(daddr & 7);

	if (k == 0)
		return 'S';
	if (k == 1)
		return 'T';
	return (uint8_t)(0x80 | ((w >> (5 * (k - 2))) & 0x7f));
}

static void dev_fill_stale(struct lbs_sim *s, uint64_t pblk)
{
	uint64_t a = pblk << s->blkbits;

	for (uint32_t i = 0; i < s->bs; i++)
		s->dev[a + i] = stale_byte(a + i);
}

static uint64_t bno_of(const struct lbs_sim *s, uint64_t pos)
{
	return pos >> s->blkbits;	/* extent map index, not a rounding */
}

static struct extent *ext_at(struct lbs_sim *s, uint64_t pos)
{
	uint64_t b = bno_of(s, pos);

	return b < s->nblocks ? &s->ext[b] : NULL;
}

static uint64_t dev_addr(const struct lbs_sim *s, const struct extent *e,
			 uint64_t pos)
{
	/* xfs_fsb_to_db() plus the offset of @pos in its block */
	return ((uint64_t)e->pblk << s->blkbits) +
	       (pos - (bno_of(s, pos) << s->blkbits));
}

static int alloc_block(struct lbs_sim *s, struct extent *e, uint8_t state)
{
	if (!s->nfree)
		abort();	/* device sized for every file block twice */
	e->pblk = s->free_stack[--s->nfree];
	e->state = state;
	return 0;
}

static void free_block(struct lbs_sim *s, struct extent *e)
{
	if (e->state == EXT_UNWRITTEN || e->state == EXT_WRITTEN) {
		dev_fill_stale(s, e->pblk);	/* whatever was there before */
		s->free_stack[s->nfree++] = e->pblk;
	}
	e->state = EXT_HOLE;
	e->pblk = 0;
}

static enum lbs_map_type map_type(uint8_t st)
{
	switch (st) {
	case EXT_DELALLOC: return LBS_MAP_DELALLOC;
	case EXT_UNWRITTEN: return LBS_MAP_UNWRITTEN;
	case EXT_WRITTEN: return LBS_MAP_MAPPED;
	default: return LBS_MAP_HOLE;
	}
}

/* ---- page cache (RCU hash on page index) ----------------------------- */

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

static struct folio *folio_lookup(struct lbs_sim *s, uint64_t index)
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

static struct folio *folio_get(struct lbs_sim *s, uint64_t index)
{
	struct folio *f = folio_lookup(s, index);
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

static void retire_flush(struct lbs_sim *s)
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

static void folio_remove(struct lbs_sim *s, struct folio *f)
{
	urcu_bp_read_lock();
	if (cds_lfht_del(s->ht, &f->node))
		abort();
	urcu_bp_read_unlock();
	s->nr_folios--;
	f->retire_next = s->retired;
	s->retired = f;
	if (++s->nretired >= RETIRE_BATCH)
		retire_flush(s);
}

static uint64_t fpos_of(const struct lbs_sim *s, const struct folio *f)
{
	return f->index << s->pshift;
}

static uint64_t max_index(const struct lbs_sim *s)
{
	return (s->max_size >> s->pshift) + 1;
}

static bool unit_uptodate(const struct folio *f, uint32_t u)
{
	const unsigned long w = 8 * sizeof(long);

	if (!f->ubits)
		return fl_get(f) & F_UPTODATE;
	return (f->ubits[u / w] >> (u % w)) & 1;
}

/* iomap_set_range_uptodate(): units touched by [off, off+len) */
static void set_range_uptodate(struct lbs_sim *s, struct folio *f,
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

static bool folio_uptodate(const struct folio *f)
{
	return fl_get(f) & F_UPTODATE;
}

/* ---- device access for one tracking unit ------------------------------ */

/* fill folio bytes [off, off+len) from the file's mapping at @pos */
static void fill_from_disk(struct lbs_sim *s, struct folio *f, uint32_t off,
			   uint32_t len)
{
	uint64_t pos = fpos_of(s, f) + off;

	while (len) {
		struct extent *e = ext_at(s, pos);
		uint64_t bend = (bno_of(s, pos) + 1) << s->blkbits;
		uint32_t n = (uint32_t)(bend - pos < len ? bend - pos : len);

		if (e && e->state == EXT_WRITTEN)
			memcpy(f->data + off, s->dev + dev_addr(s, e, pos), n);
		else
			memset(f->data + off, 0, n);
		pos += n;
		off += n;
		len -= n;
	}
}

/*
 * iomap_read_folio() / iomap_readpage_iter(): read the units of @f that
 * are not uptodate, zeroing units over holes, unwritten and delalloc
 * space and units wholly past EOF.
 */
static void read_folio(struct lbs_sim *s, struct folio *f)
{
	uint64_t fpos = fpos_of(s, f), fend = fpos + s->ps, p = fpos;

	while (p < fend) {
		struct extent *e = ext_at(s, p);
		uint64_t bend = (bno_of(s, p) + 1) << s->blkbits;
		uint64_t mend = bend < fend ? bend : fend;
		uint64_t q = p;
		uint32_t poff, plen;

		lbs_adjust_read_range(s->blkbits, s->pshift, fpos, s->isize,
				      f->ubits, &q, mend - p, &poff, &plen);
		if (plen) {
			if (!e || e->state != EXT_WRITTEN || q >= s->isize)
				memset(f->data + poff, 0, plen);
			else
				fill_from_disk(s, f, poff, plen);
			set_range_uptodate(s, f, poff, plen);
		}
		if (q + plen <= p)
			abort();	/* no progress: core contract broken */
		p = q + plen;
	}
}

/* ---- writeback ---------------------------------------------------------- */

/*
 * Model decision (D4 iii): the part of the EOF block past the EOF page
 * (core's post_eof range) is never instantiated by zero-around, so once
 * that block is written its on-disk bytes there must be zeroes, not
 * stale or truncated data: a later write into those pages stays in the
 * page cache while i_disk_size may move past them (ioend of a later
 * block, extending O_DIRECT write), and a crash would expose the disk.
 * Zero them on disk with a zero-page bio, like iomap_dio_zero().
 */
static void zero_post_eof_on_disk(struct lbs_sim *s, uint64_t eof)
{
	uint64_t ppos, plen, p;
	struct extent *e;

	if (s->inject & LBS_SIM_INJ_NO_ZERO_AROUND)
		return;
	if (!lbs_post_eof_range(s->blkbits, s->pshift, eof, &ppos, &plen))
		return;
	e = ext_at(s, ppos);
	if (!e || (e->state != EXT_WRITTEN && e->state != EXT_UNWRITTEN))
		return;
	s->c.eof_zero_bios++;
	p = ppos;
	for (uint32_t i = 0; i < lbs_dio_zero_nr_segs(s->pshift,
						     (uint32_t)plen); i++) {
		uint32_t sl = lbs_dio_zero_seg_len(s->pshift, (uint32_t)plen,
						   i);

		memset(s->dev + dev_addr(s, e, p), 0, sl);
		p += sl;
	}
}

struct ioend {
	uint64_t end;		/* end of the last byte range written */
	uint64_t *conv;		/* blocks written over unwritten extents */
	size_t nconv, cap;
};

/* xfs_bmapi_convert_delalloc(): the whole delalloc extent -> unwritten */
static void convert_delalloc(struct lbs_sim *s, uint64_t b)
{
	uint64_t lo = b, hi = b;

	while (lo > 0 && s->ext[lo - 1].state == EXT_DELALLOC)
		lo--;
	while (hi + 1 < s->nblocks && s->ext[hi + 1].state == EXT_DELALLOC)
		hi++;
	for (b = lo; b <= hi; b++)
		alloc_block(s, &s->ext[b], EXT_UNWRITTEN);
}

/* iomap_do_writepage() + iomap_writepage_map() for one dirty folio */
static void writepage(struct lbs_sim *s, struct folio *f, struct ioend *io)
{
	uint64_t fpos = fpos_of(s, f), end_pos = fpos + s->ps;
	uint32_t unit = lbs_pageblock_size(s->blkbits, s->pshift);
	uint32_t u;

	fl_clear(f, F_DIRTY);		/* folio_clear_dirty_for_io() */
	if (fpos >= s->isize)
		return;			/* wholly past EOF: dropped */
	if (end_pos > s->isize) {	/* folio_zero_segment() past EOF */
		memset(f->data + (s->isize - fpos), 0, end_pos - s->isize);
		end_pos = s->isize;
	}
	fl_set(f, F_WRITEBACK);
	for (u = 0; u < s->upf; u++) {
		uint64_t upos = fpos + (uint64_t)u * unit;
		struct extent *e;

		if (upos >= end_pos)
			break;
		if (f->ubits && !unit_uptodate(f, u))
			continue;
		e = ext_at(s, upos);
		if (!e || e->state == EXT_HOLE)
			continue;
		if (e->state == EXT_DELALLOC)
			convert_delalloc(s, bno_of(s, upos));
		memcpy(s->dev + dev_addr(s, e, upos), f->data + u * unit,
		       unit);
		s->c.dev_writes++;
		if (e->state == EXT_UNWRITTEN) {
			if (io->nconv == io->cap) {
				io->cap = io->cap ? 2 * io->cap : 64;
				io->conv = realloc(io->conv,
						   io->cap * sizeof(uint64_t));
				if (!io->conv)
					abort();
			}
			io->conv[io->nconv++] = bno_of(s, upos);
		}
		if (upos + unit > io->end)
			io->end = upos + unit;
	}
	fl_clear(f, F_WRITEBACK);
}

/* xfs_end_ioend(): convert touched blocks whole, then xfs_setfilesize() */
static void ioend_complete(struct lbs_sim *s, struct ioend *io)
{
	if (io->nconv)
		zero_post_eof_on_disk(s, s->isize);
	for (size_t i = 0; i < io->nconv; i++)
		if (s->ext[io->conv[i]].state == EXT_UNWRITTEN)
			s->ext[io->conv[i]].state = EXT_WRITTEN;
	if (io->end) {
		uint64_t ns = io->end < s->isize ? io->end : s->isize;

		if (ns > s->disk_size)
			s->disk_size = ns;
	}
	free(io->conv);
	*io = (struct ioend){ 0 };
}

/*
 * xfs_vm_writepages() with the block rounding (lbs_wb_round) and
 * write_cache_pages().  @end is inclusive; INT64_MAX means to EOF.
 * WB_SYNC_NONE (@sync false) stops when nr_to_write runs out, but only
 * at the start of a block (lbs_wb_may_stop).
 */
static int writepages(struct lbs_sim *s, uint64_t start, uint64_t end,
		      int64_t nr, bool sync)
{
	struct lbs_wb_range r = { start, end, nr, 0 };
	struct ioend io = { 0 };
	uint64_t idx, last, mi = max_index(s);
	int written = 0;
	bool round = !(s->inject & LBS_SIM_INJ_NO_WB_ROUND);

	if (end < start)
		return 0;
	if (round)
		lbs_wb_round(s->blkbits, s->pshift, start, end, nr, INT64_MAX,
			     &r);
	last = r.end >> s->pshift;
	if (last > mi)
		last = mi;
	s->c.wb_calls++;
	for (idx = r.start >> s->pshift; idx <= last; idx++) {
		struct folio *f = folio_lookup(s, idx);

		if (!sync && r.nr_to_write <= 0 &&
		    (!round || lbs_wb_may_stop(s->blkbits, s->pshift, idx)))
			break;
		if (!f || !(fl_get(f) & F_DIRTY))
			continue;
		writepage(s, f, &io);
		written++;
		r.nr_to_write--;
	}
	ioend_complete(s, &io);
	s->c.wb_folios += (uint64_t)written;
	s->c.wb_last_folios = (uint64_t)written;
	if ((uint64_t)written > s->c.wb_max_folios)
		s->c.wb_max_folios = (uint64_t)written;
	return written;
}

/* filemap_write_and_wait_range(), through ->writepages */
static void write_and_wait(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	writepages(s, start, end, INT64_MAX, true);
}

/* truncate_inode_pages_range() over whole folios in [start, end] */
static void invalidate_range(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	uint64_t idx, last = end >> s->pshift, mi = max_index(s);

	if (last > mi)
		last = mi;
	for (idx = start >> s->pshift; idx <= last; idx++) {
		struct folio *f = folio_lookup(s, idx);

		if (f)
			folio_remove(s, f);
	}
}

/* xfs_flush_unmap_range() */
static void flush_unmap(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t a, b;

	if (!lbs_flush_unmap_range(s->blkbits, s->pshift, pos, len, &a, &b))
		return;
	write_and_wait(s, a, b);
	invalidate_range(s, a, b);
}

/* ---- buffered write path -------------------------------------------- */

static void zero_segment(struct folio *f, uint32_t a, uint32_t b)
{
	if (b > a)
		memset(f->data + a, 0, b - a);
}

/*
 * __iomap_write_begin() for [pos, pos+len) inside one folio and one
 * mapping.  @need_zero: iomap_block_needs_zeroing() for the mapping.
 */
static void write_begin(struct lbs_sim *s, struct folio *f, uint64_t pos,
			uint64_t len, bool need_zero)
{
	uint64_t fpos = fpos_of(s, f), bstart, bend;
	uint32_t from = (uint32_t)(pos - fpos), to = from + (uint32_t)len;
	uint32_t poff, plen;

	if (folio_uptodate(f))
		return;
	lbs_pageblock_range(s->blkbits, s->pshift, pos, len, &bstart, &bend);
	do {
		lbs_adjust_read_range(s->blkbits, s->pshift, fpos, s->isize,
				      f->ubits, &bstart, bend - bstart, &poff,
				      &plen);
		if (plen == 0)
			break;
		if ((from <= poff || from >= poff + plen) &&
		    (to <= poff || to >= poff + plen))
			continue;
		if (need_zero || bstart >= s->isize) {
			zero_segment(f, poff, from);
			zero_segment(f, to, poff + plen);
			if ((s->inject & LBS_SIM_INJ_MARK_PARTIAL_UPTODATE) ||
			    lbs_zero_may_mark_uptodate(poff, plen, from, to))
				set_range_uptodate(s, f, poff, plen);
		} else {
			fill_from_disk(s, f, poff, plen);
			set_range_uptodate(s, f, poff, plen);
		}
	} while ((bstart += plen) < bend);
}

/* __iomap_write_end(): false if a short copy was rejected */
static bool write_end(struct lbs_sim *s, struct folio *f, uint64_t pos,
		      uint64_t len, uint64_t copied)
{
	if (copied < len && !folio_uptodate(f))
		return false;
	set_range_uptodate(s, f, (uint32_t)(pos - fpos_of(s, f)),
			   (uint32_t)copied);
	fl_set(f, F_DIRTY);
	if (pos + copied > s->isize)
		s->isize = pos + copied;	/* i_size_write() */
	return true;
}

/*
 * Zero-around one range from core (head or tail): instantiate each
 * page; uptodate pages are only dirtied, others are zeroed over the
 * range and marked uptodate when no caller data falls in them.
 * [dfrom, dto) is the caller's data range.
 */
static void zero_around_range(struct lbs_sim *s, uint64_t pos, uint64_t len,
			      uint64_t dfrom, uint64_t dto)
{
	uint64_t end = pos + len;

	while (pos < end) {
		struct folio *f = folio_get(s, pos >> s->pshift);
		uint64_t fpos = fpos_of(s, f), fend = fpos + s->ps;
		uint64_t zend = end < fend ? end : fend;
		uint32_t from = 0, to = 0;

		if (dfrom < fend && dto > fpos) {
			from = (uint32_t)((dfrom > fpos ? dfrom : fpos) - fpos);
			to = (uint32_t)((dto < fend ? dto : fend) - fpos);
		}
		if (folio_uptodate(f)) {
			s->c.za_dirtied_uptodate++;
		} else {
			s->c.za_min += zend - pos;
			zero_segment(f, (uint32_t)(pos - fpos),
				     (uint32_t)(zend - fpos));
			s->c.za_zeroed += zend - pos;
			if (lbs_zero_may_mark_uptodate(0, s->ps, from, to) &&
			    pos == fpos && zend == fend)
				set_range_uptodate(s, f, 0, s->ps);
		}
		fl_set(f, F_DIRTY | F_ZEROED);
		pos = zend;
	}
}

/*
 * iomap_write_iter() over one mapping (one block): xfs iomap_begin,
 * zero-around, then per-page write_begin/copy/write_end.  @buf NULL
 * writes zeroes (iomap_zero_iter).  Returns bytes written; *fault set
 * when the user copy faulted.
 */
static uint64_t write_block(struct lbs_sim *s, uint64_t pos, uint64_t len,
			    const uint8_t *buf, size_t *fault_left,
			    bool *fault)
{
	struct extent *e = ext_at(s, pos);
	bool is_new = false, need_zero, za_ran = false;
	uint64_t done = 0;

	if (e->state == EXT_HOLE) {	/* xfs_bmapi_reserve_delalloc() */
		e->state = EXT_DELALLOC;
		is_new = true;
	}
	need_zero = e->state != EXT_WRITTEN || is_new;
	if (!(s->inject & LBS_SIM_INJ_NO_ZERO_AROUND) &&
	    lbs_need_zero_around(s->blkbits, s->pshift, map_type(e->state),
				 is_new)) {
		struct lbs_zero_around za;

		za_ran = true;
		if (lbs_zero_around(s->blkbits, s->pshift, pos, len, s->isize,
				    &za)) {
			s->c.za_calls++;
			zero_around_range(s, za.head_pos, za.head_len, pos,
					  pos + len);
			zero_around_range(s, za.tail_pos, za.tail_len, pos,
					  pos + len);
		}
	}
	while (done < len) {
		uint64_t p = pos + done;
		struct folio *f = folio_get(s, p >> s->pshift);
		uint64_t fend = fpos_of(s, f) + s->ps;
		uint64_t n = len - done < fend - p ? len - done : fend - p;
		uint64_t copied = n;

		if (*fault_left < n)
			copied = *fault_left;
retry:
		write_begin(s, f, p, n, need_zero);
		if (buf)
			memcpy(f->data + (p - fpos_of(s, f)), buf + done,
			       copied);
		else
			memset(f->data + (p - fpos_of(s, f)), 0, copied);
		if (!write_end(s, f, p, n, copied)) {
			/* iomap_write_iter(): retry with what was copied;
			 * fault_in_iov_iter_readable() fails for 0 bytes */
			if (copied == 0) {
				*fault = true;
				goto short_write;
			}
			n = copied;
			goto retry;
		}
		done += copied;
		*fault_left -= copied;
		if (copied < n) {
			*fault = true;
			goto short_write;
		}
	}
	return done;
short_write:
	/*
	 * Model decision: zero-around treated [pos, pos+len) as covered by
	 * data.  After a short copy the pages of that range past what was
	 * copied are neither zeroed nor dirty, yet the block converts whole
	 * at writeback, so zero them now, up to the end of the folio
	 * holding the last byte of the range (uptodate folios are only
	 * dirtied, as in zero-around).
	 */
	if (za_ran) {
		uint64_t last = pos + len - 1;
		uint64_t fend = ((last >> s->pshift) + 1) << s->pshift;

		zero_around_range(s, pos + done, fend - (pos + done), 0, 0);
	}
	return done;
}

/* iomap_write_iter() over [pos, pos+len), one mapping (block) at a time */
static uint64_t buffered_write(struct lbs_sim *s, uint64_t pos, uint64_t len,
			       const uint8_t *buf, size_t fault_at)
{
	uint64_t done = 0;
	size_t left = fault_at;
	bool fault = false;

	while (done < len && !fault) {
		uint64_t p = pos + done;
		uint64_t bend = (bno_of(s, p) + 1) << s->blkbits;
		uint64_t n = len - done < bend - p ? len - done : bend - p;

		done += write_block(s, p, n, buf ? buf + done : NULL, &left,
				    &fault);
	}
	return done;
}

/*
 * iomap_zero_range() for [pos, pos+len), with 6.12's handling of dirty
 * cache over unwritten/delalloc space (D5): such blocks are written back
 * first (converting them), then zeroed through the page cache.  Holes and
 * clean unwritten/delalloc space read as zeroes and are skipped.
 */
static bool zero_range(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t end = pos + len, p = pos;
	size_t nofault = SIZE_MAX;
	bool fault = false, did = false;

	while (p < end) {
		struct extent *e = ext_at(s, p);
		uint64_t bend = (bno_of(s, p) + 1) << s->blkbits;
		uint64_t n = (end < bend ? end : bend) - p;
		uint64_t a, b;

		if (e->state == EXT_UNWRITTEN || e->state == EXT_DELALLOC) {
			lbs_round_range(s->blkbits, s->pshift, p, p + n - 1,
					&a, &b);
			write_and_wait(s, a, b);
		}
		if (e->state == EXT_WRITTEN) {
			write_block(s, p, n, NULL, &nofault, &fault);
			did = true;
		} else {
			/* zero clean cached pages of zero-reading space */
			uint64_t q = p;

			while (q < p + n) {
				struct folio *f = folio_lookup(s, q >> s->pshift);
				uint64_t fpos = q >> s->pshift << s->pshift;
				uint64_t fe = fpos + s->ps < p + n ?
					      fpos + s->ps : p + n;

				if (f) {
					zero_segment(f, (uint32_t)(q - fpos),
						     (uint32_t)(fe - fpos));
					did = true;
				}
				q = fe;
			}
		}
		p += n;
	}
	return did;
}

/* ---- public operations ---------------------------------------------- */

static int check_range(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	if (pos > s->max_size || len > s->max_size - pos)
		return -EFBIG;
	return 0;
}

int64_t lbs_sim_read(struct lbs_sim *s, uint64_t pos, uint64_t len,
		     void *vbuf)
{
	uint8_t *buf = vbuf;
	uint64_t done = 0;

	if (pos >= s->isize)
		return 0;
	if (len > s->isize - pos)
		len = s->isize - pos;
	while (done < len) {
		uint64_t p = pos + done;
		struct folio *f = folio_get(s, p >> s->pshift);
		uint64_t fpos = fpos_of(s, f);
		uint64_t n = len - done < fpos + s->ps - p ?
			     len - done : fpos + s->ps - p;

		if (!folio_uptodate(f))
			read_folio(s, f);
		memcpy(buf + done, f->data + (p - fpos), n);
		done += n;
	}
	return (int64_t)done;
}

/*
 * xfs_file_write_checks(): zero from the old EOF up to the write.  Model
 * decision (D4): when that zeroed page cache, write it back before the
 * write can move i_disk_size past it (6.1 does not; xfs_setattr_size()
 * does the same with did_zeroing).  Otherwise writeback of the new data
 * alone, or an extending O_DIRECT write, exposes what the disk holds past
 * the old EOF, which at bs > ps includes never-written pages.
 */
static void write_checks(struct lbs_sim *s, uint64_t pos)
{
	uint64_t old = s->isize;

	if (pos > old && zero_range(s, old, pos - old))
		write_and_wait(s, old, pos - 1);
}

int64_t lbs_sim_write(struct lbs_sim *s, uint64_t pos, uint64_t len,
		      const void *buf, size_t fault_at)
{
	int err = check_range(s, pos, len);

	if (err)
		return err;
	if (!len)
		return 0;
	write_checks(s, pos);
	len = buffered_write(s, pos, len, buf, fault_at);
	return len ? (int64_t)len : -EFAULT;
}

/*
 * filemap_fault() + iomap_page_mkwrite() per page, then the user's
 * stores into the mapped page.
 */
int64_t lbs_sim_mmap_write(struct lbs_sim *s, uint64_t pos, uint64_t len,
			   const void *vbuf)
{
	const uint8_t *buf = vbuf;
	uint64_t done = 0;

	if (pos + len > s->isize || pos + len < pos)
		return -EINVAL;
	while (done < len) {
		uint64_t p = pos + done;
		struct folio *f = folio_get(s, p >> s->pshift);
		uint64_t fpos = fpos_of(s, f), fend = fpos + s->ps;
		uint64_t mlen = (fend < s->isize ? fend : s->isize) - fpos;
		uint64_t n = len - done < fend - p ? len - done : fend - p;
		struct extent *e = ext_at(s, fpos);
		bool is_new = false;

		if (!folio_uptodate(f))
			read_folio(s, f);		/* the fault */
		/* folio_mkwrite_check_truncate() -> @mlen; the iomap ops
		 * reserve delalloc over holes for the whole block */
		if (e->state == EXT_HOLE) {
			e->state = EXT_DELALLOC;
			is_new = true;
		}
		if (!(s->inject & LBS_SIM_INJ_NO_ZERO_AROUND) &&
		    lbs_need_zero_around(s->blkbits, s->pshift,
					 map_type(e->state), is_new)) {
			struct lbs_zero_around za;

			if (lbs_zero_around(s->blkbits, s->pshift, fpos, mlen,
					    s->isize, &za)) {
				s->c.za_calls++;
				zero_around_range(s, za.head_pos, za.head_len,
						  fpos, fpos + mlen);
				zero_around_range(s, za.tail_pos, za.tail_len,
						  fpos, fpos + mlen);
			}
		}
		/* bs < ps: every block under the page gets a reservation */
		for (uint64_t q = fpos + lbs_pageblock_size(s->blkbits,
							    s->pshift);
		     q < fpos + mlen;
		     q += lbs_pageblock_size(s->blkbits, s->pshift)) {
			struct extent *e2 = ext_at(s, q);

			if (e2->state == EXT_HOLE)
				e2->state = EXT_DELALLOC;
		}
		fl_set(f, F_DIRTY);
		memcpy(f->data + (p - fpos), buf + done, n);
		done += n;
	}
	return (int64_t)done;
}

static bool sector_misaligned(uint64_t pos, uint64_t len, const void *buf)
{
	/* bt_logical_sectormask: 512-byte logical sectors */
	return ((pos | len | (uintptr_t)buf) & 511) != 0;
}

int64_t lbs_sim_dio_read(struct lbs_sim *s, uint64_t pos, uint64_t len,
			 void *vbuf)
{
	uint8_t *buf = vbuf;
	uint64_t done = 0;

	if (sector_misaligned(pos, len, buf))
		return -EINVAL;
	if (pos >= s->isize || !len)
		return 0;
	write_and_wait(s, pos, pos + len - 1);	/* kiocb_write_and_wait() */
	if (len > s->isize - pos)
		len = s->isize - pos;		/* iomap_dio_complete() */
	while (done < len) {
		uint64_t p = pos + done;
		struct extent *e = ext_at(s, p);
		uint64_t bend = (bno_of(s, p) + 1) << s->blkbits;
		uint64_t n = len - done < bend - p ? len - done : bend - p;

		if (e && e->state == EXT_WRITTEN)
			memcpy(buf + done, s->dev + dev_addr(s, e, p), n);
		else
			memset(buf + done, 0, n);
		done += n;
	}
	return (int64_t)done;
}

static void dio_zero(struct lbs_sim *s, struct extent *e, uint64_t pos,
		     uint32_t len)
{
	/* iomap_dio_zero(): zero-page segments, one bio */
	uint32_t nsegs = lbs_dio_zero_nr_segs(s->pshift, len);

	s->c.dio_zero_bios++;
	for (uint32_t i = 0; i < nsegs; i++) {
		uint32_t sl = lbs_dio_zero_seg_len(s->pshift, len, i);

		memset(s->dev + dev_addr(s, e, pos), 0, sl);
		pos += sl;
		s->c.dio_zero_segs++;
	}
}

int64_t lbs_sim_dio_write(struct lbs_sim *s, uint64_t pos, uint64_t len,
			  const void *vbuf)
{
	const uint8_t *buf = vbuf;
	uint64_t done = 0;
	int err;

	if (sector_misaligned(pos, len, buf))
		return -EINVAL;
	err = check_range(s, pos, len);
	if (err)
		return err;
	if (!len)
		return 0;
	write_checks(s, pos);
	flush_unmap(s, pos, len);
	while (done < len) {
		uint64_t p = pos + done;
		struct extent *e = ext_at(s, p);
		uint64_t bend = (bno_of(s, p) + 1) << s->blkbits;
		uint64_t n = len - done < bend - p ? len - done : bend - p;
		bool is_new = false;
		struct lbs_dio_pads pads;

		if (e->state == EXT_HOLE || e->state == EXT_DELALLOC) {
			alloc_block(s, e, EXT_UNWRITTEN);
			is_new = true;
		}
		lbs_dio_zero_pads(s->blkbits, p, n, s->isize,
				  is_new || e->state == EXT_UNWRITTEN, &pads);
		if (!(s->inject & LBS_SIM_INJ_NO_DIO_ZERO)) {
			if (pads.head_len)
				dio_zero(s, e, pads.head_pos, pads.head_len);
		}
		memcpy(s->dev + dev_addr(s, e, p), buf + done, n);
		if (!(s->inject & LBS_SIM_INJ_NO_DIO_ZERO)) {
			if (pads.tail_len)
				dio_zero(s, e, pads.tail_pos, pads.tail_len);
		}
		done += n;
	}
	/* xfs_dio_write_end_io(): convert whole blocks, update sizes */
	for (uint64_t p = pos; p < pos + len;) {
		struct extent *e = ext_at(s, p);

		if (e->state == EXT_UNWRITTEN)
			e->state = EXT_WRITTEN;
		p = (bno_of(s, p) + 1) << s->blkbits;
	}
	if (pos + len > s->isize)
		s->isize = pos + len;
	if (pos + len > s->disk_size)
		s->disk_size = pos + len;
	return (int64_t)len;
}

/* drop folios wholly past @size, zero the EOF folio past it */
static void truncate_setsize(struct lbs_sim *s, uint64_t size)
{
	uint64_t idx, mi = max_index(s);

	s->isize = size;
	for (idx = size >> s->pshift; idx <= mi; idx++) {
		struct folio *f = folio_lookup(s, idx);
		uint64_t fpos;

		if (!f)
			continue;
		fpos = fpos_of(s, f);
		if (fpos >= size)
			folio_remove(s, f);
		else
			zero_segment(f, (uint32_t)(size - fpos), s->ps);
	}
}

/* xfs_setattr_size() */
static int setattr_size(struct lbs_sim *s, uint64_t newsize)
{
	uint64_t oldsize = s->isize;
	bool did = false;

	if (newsize > oldsize) {
		did = zero_range(s, oldsize, newsize - oldsize);
	} else if (newsize < oldsize) {
		uint32_t zl;

		write_and_wait(s, newsize, newsize);
		zl = lbs_truncate_page_len(s->blkbits, s->pshift, newsize);
		if (zl)
			did = zero_range(s, newsize, zl);
		/*
		 * Model decision (D4): write the zeroed EOF page now, so the
		 * disk holds zeroes past the new EOF in it.  Otherwise a write
		 * into that page followed by anything that moves i_disk_size
		 * past it (an extending O_DIRECT write far away) exposes the
		 * truncated bytes after a crash.  6.1 only flushes before
		 * zeroing.
		 */
		if (did)
			write_and_wait(s, newsize, newsize);
	}
	if ((did || (newsize > s->disk_size && oldsize != s->disk_size)) &&
	    newsize > s->disk_size)
		write_and_wait(s, s->disk_size, newsize - 1);
	truncate_setsize(s, newsize);
	/* xfs_itruncate_extents(): free blocks that start at or past EOF */
	for (uint64_t b = s->nblocks; b-- > 0;) {
		if ((b << s->blkbits) < newsize)
			break;
		free_block(s, &s->ext[b]);
	}
	if (newsize < oldsize)
		zero_post_eof_on_disk(s, newsize);
	s->disk_size = newsize;	/* logged in the same transaction */
	return 0;
}

int lbs_sim_truncate(struct lbs_sim *s, uint64_t size)
{
	if (size > s->max_size)
		return -EFBIG;
	return setattr_size(s, size);
}

/* xfs_free_file_space() */
static void free_file_space(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t end = pos + len;

	flush_unmap(s, pos, len);
	for (uint64_t b = bno_of(s, pos); b < s->nblocks; b++) {
		uint64_t bs = b << s->blkbits, be = bs + s->bs;

		if (bs >= end)
			break;
		if (bs >= pos && be <= end)
			free_block(s, &s->ext[b]);
	}
	/* zero partial blocks, never past EOF (that would grow i_size) */
	if (pos >= s->isize)
		return;
	zero_range(s, pos, (end < s->isize ? end : s->isize) - pos);
	if (end >= s->isize)
		write_and_wait(s, end, INT64_MAX);
}

/* xfs_alloc_file_space(): unwritten extents over every block touched */
static void alloc_file_space(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	for (uint64_t p = pos; p < pos + len;) {
		struct extent *e = ext_at(s, p);

		if (e->state == EXT_HOLE || e->state == EXT_DELALLOC)
			alloc_block(s, e, EXT_UNWRITTEN);
		p = (bno_of(s, p) + 1) << s->blkbits;
	}
}

static void shift_extents(struct lbs_sim *s, uint64_t from_b, int64_t nb)
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

int lbs_sim_fallocate(struct lbs_sim *s, int mode, uint64_t pos,
		      uint64_t len)
{
	int err = check_range(s, pos, len);
	bool keep = mode & LBS_FL_KEEP_SIZE;
	uint64_t end = pos + len;

	if (err)
		return err;
	if (!len)
		return -EINVAL;
	switch (mode & ~LBS_FL_KEEP_SIZE) {
	case 0:
		alloc_file_space(s, pos, len);
		if (!keep && end > s->isize)
			setattr_size(s, end);
		return 0;
	case LBS_FL_PUNCH_HOLE:
		if (!keep)
			return -EOPNOTSUPP;
		free_file_space(s, pos, len);
		return 0;
	case LBS_FL_ZERO_RANGE:
		flush_unmap(s, pos, len);
		free_file_space(s, pos, len);
		alloc_file_space(s, pos, len);
		if (!keep && end > s->isize)
			setattr_size(s, end);
		return 0;
	case LBS_FL_COLLAPSE_RANGE: {
		uint64_t nsize;

		if (keep || !lbs_falloc_aligned(s->blkbits, pos, len) ||
		    end >= s->isize)
			return -EINVAL;
		nsize = s->isize - len;
		free_file_space(s, pos, len);
		flush_unmap(s, pos, s->isize - pos);	/* xfs_prepare_shift */
		shift_extents(s, bno_of(s, pos), -(int64_t)bno_of(s, len));
		setattr_size(s, nsize);
		return 0;
	}
	case LBS_FL_INSERT_RANGE:
		if (keep || !lbs_falloc_aligned(s->blkbits, pos, len) ||
		    pos >= s->isize)
			return -EINVAL;
		if (s->isize + len > s->max_size)
			return -EFBIG;
		setattr_size(s, s->isize + len);
		flush_unmap(s, pos, s->isize - pos);	/* xfs_prepare_shift */
		/* the blocks shifted out past max are beyond the new EOF
		 * and hold nothing after setattr_size() */
		for (uint64_t b = s->nblocks - bno_of(s, len); b < s->nblocks;
		     b++)
			free_block(s, &s->ext[b]);
		shift_extents(s, bno_of(s, pos), (int64_t)bno_of(s, len));
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

int lbs_sim_fsync_range(struct lbs_sim *s, uint64_t start, uint64_t end)
{
	uint64_t a = start, b = end;

	/* xfs_file_fsync(): the wait range is rounded too */
	if (!(s->inject & LBS_SIM_INJ_NO_WB_ROUND) &&
	    !lbs_round_range(s->blkbits, s->pshift, start, end, &a, &b))
		return 0;
	write_and_wait(s, a, b);
	return 0;
}

int lbs_sim_fsync(struct lbs_sim *s)
{
	return lbs_sim_fsync_range(s, 0, INT64_MAX);
}

int lbs_sim_writeback_folio(struct lbs_sim *s, uint64_t pos)
{
	uint64_t idx = pos >> s->pshift;

	/* range_cyclic from writeback_index, rounded to its block */
	if (!(s->inject & LBS_SIM_INJ_NO_WB_ROUND))
		idx = lbs_wb_round_index(s->blkbits, s->pshift, idx);
	return writepages(s, idx << s->pshift, INT64_MAX, 1, false);
}

int64_t lbs_sim_pick_dirty(struct lbs_sim *s, uint64_t hint)
{
	uint64_t mi = max_index(s), n = mi + 1;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t idx = (hint + i) % n;
		struct folio *f = folio_lookup(s, idx);

		if (f && (fl_get(f) & F_DIRTY))
			return (int64_t)idx;
	}
	return -1;
}

void lbs_sim_drop_caches(struct lbs_sim *s)
{
	uint64_t mi = max_index(s);

	for (uint64_t idx = 0; idx <= mi; idx++) {
		struct folio *f = folio_lookup(s, idx);

		if (f && !(fl_get(f) & F_DIRTY))
			folio_remove(s, f);
	}
	retire_flush(s);
}

void lbs_sim_crash(struct lbs_sim *s)
{
	uint64_t mi = max_index(s);

	for (uint64_t idx = 0; idx <= mi; idx++) {
		struct folio *f = folio_lookup(s, idx);

		if (f)
			folio_remove(s, f);
	}
	retire_flush(s);
	for (uint64_t b = 0; b < s->nblocks; b++)
		if (s->ext[b].state == EXT_DELALLOC)
			s->ext[b].state = EXT_HOLE;	/* in-core only */
	s->isize = s->disk_size;
	s->c.crashes++;
}

/* ---- setup, accessors, diagnostics ---------------------------------- */

static const struct {
	const char *name;
	unsigned bit;
} inj_tab[] = {
	{ "no-zero-around", LBS_SIM_INJ_NO_ZERO_AROUND },
	{ "no-dio-zero", LBS_SIM_INJ_NO_DIO_ZERO },
	{ "no-wb-round", LBS_SIM_INJ_NO_WB_ROUND },
	{ "mark-partial-uptodate", LBS_SIM_INJ_MARK_PARTIAL_UPTODATE },
};

unsigned lbs_sim_inject_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(inj_tab) / sizeof(inj_tab[0]); i++)
		if (!strcmp(name, inj_tab[i].name))
			return inj_tab[i].bit;
	return 0;
}

const char *lbs_sim_inject_names(void)
{
	return "no-zero-around, no-dio-zero, no-wb-round, "
	       "mark-partial-uptodate";
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int lbs_sim_config_check(const struct lbs_sim_config *cfg, char *err,
			 size_t errlen)
{
	uint64_t ms = cfg->max_file_size ? cfg->max_file_size : 1u << 20;

	if (!pow2(cfg->block_size) || cfg->block_size < 512 ||
	    cfg->block_size > 65536) {
		snprintf(err, errlen,
			 "block size %u: must be a power of two from 512 to 65536",
			 cfg->block_size);
		return -1;
	}
	if (cfg->page_size != 4096 && cfg->page_size != 16384 &&
	    cfg->page_size != 65536) {
		snprintf(err, errlen,
			 "page size %u: must be 4096, 16384 or 65536",
			 cfg->page_size);
		return -1;
	}
	if (lbs_mount_blocksize((uint32_t)ilog2u(cfg->block_size),
				(uint32_t)ilog2u(cfg->page_size), true, 16) ==
	    LBS_BS_TOO_LARGE) {
		snprintf(err, errlen, "block size %u refused at mount",
			 cfg->block_size);
		return -1;
	}
	if (ms < cfg->block_size || ms < cfg->page_size ||
	    ms > ((uint64_t)1 << 32)) {
		snprintf(err, errlen,
			 "max file size %llu: must be at least one block and one page, at most 4 GiB",
			 (unsigned long long)ms);
		return -1;
	}
	if (cfg->inject & ~0xfu) {
		snprintf(err, errlen, "unknown inject bits 0x%x", cfg->inject);
		return -1;
	}
	return 0;
}

struct lbs_sim *lbs_sim_create(const struct lbs_sim_config *cfg, char *err,
			       size_t errlen)
{
	struct lbs_sim *s;

	if (lbs_sim_config_check(cfg, err, errlen))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto oom;
	s->bs = cfg->block_size;
	s->ps = cfg->page_size;
	s->blkbits = (uint32_t)ilog2u(s->bs);
	s->pshift = (uint32_t)ilog2u(s->ps);
	s->upf = lbs_units_per_folio(s->blkbits, s->pshift);
	s->inject = cfg->inject;
	s->max_size = cfg->max_file_size ? cfg->max_file_size : 1u << 20;
	/* every block a file of max_size can touch, plus the EOF page's */
	s->nblocks = (s->max_size >> s->blkbits) + (s->ps >> s->blkbits) + 2;
	s->ext = calloc(s->nblocks, sizeof(*s->ext));
	s->dev_nblocks = 2 * s->nblocks + 8;
	s->dev = malloc(s->dev_nblocks << s->blkbits);
	s->free_stack = malloc(s->dev_nblocks * sizeof(uint32_t));
	if (!s->ext || !s->dev || !s->free_stack)
		goto oom;
	for (uint64_t b = 0; b < s->dev_nblocks; b++) {
		dev_fill_stale(s, b);
		s->free_stack[s->nfree++] = (uint32_t)(s->dev_nblocks - 1 - b);
	}
	s->ht = cds_lfht_new(NR_BUCKETS, NR_BUCKETS, NR_BUCKETS, 0, NULL);
	if (!s->ht)
		goto oom;
	return s;
oom:
	snprintf(err, errlen, "out of memory");
	if (s) {
		free(s->ext);
		free(s->dev);
		free(s->free_stack);
		free(s);
	}
	return NULL;
}

void lbs_sim_destroy(struct lbs_sim *s)
{
	if (!s)
		return;
	lbs_sim_crash(s);	/* removes every folio */
	retire_flush(s);
	cds_lfht_destroy(s->ht, NULL);
	free(s->ext);
	free(s->dev);
	free(s->free_stack);
	free(s);
}

uint64_t lbs_sim_size(const struct lbs_sim *s) { return s->isize; }
uint64_t lbs_sim_disk_size(const struct lbs_sim *s) { return s->disk_size; }
uint64_t lbs_sim_max_size(const struct lbs_sim *s) { return s->max_size; }
uint32_t lbs_sim_block_size(const struct lbs_sim *s) { return s->bs; }
uint32_t lbs_sim_page_size(const struct lbs_sim *s) { return s->ps; }
uint64_t lbs_sim_nr_folios(const struct lbs_sim *s) { return s->nr_folios; }

uint32_t lbs_sim_stat_blksize(const struct lbs_sim *s)
{
	return lbs_stat_blksize(s->blkbits, s->pshift, 0, false, 0, 0);
}

const struct lbs_sim_counters *lbs_sim_counters(const struct lbs_sim *s)
{
	return &s->c;
}

bool lbs_sim_is_stale_byte(const struct lbs_sim *s, uint64_t pos,
			   uint8_t byte)
{
	struct lbs_sim *m = (struct lbs_sim *)s;
	struct extent *e = ext_at(m, pos);

	if (!e || (e->state != EXT_WRITTEN && e->state != EXT_UNWRITTEN))
		return false;
	return stale_byte(dev_addr(s, e, pos)) == byte;
}

void lbs_sim_describe(struct lbs_sim *s, uint64_t pos, char *buf, size_t len)
{
	struct extent *e = ext_at(s, pos);
	struct folio *f = folio_lookup(s, pos >> s->pshift);
	unsigned fl = f ? fl_get(f) : 0;

	snprintf(buf, len,
		 "block %llu [%s pblk %u] page %llu [%s%s%s%s] i_size %llu i_disk_size %llu",
		 (unsigned long long)bno_of(s, pos),
		 e ? ext_names[e->state] : "?", e ? e->pblk : 0,
		 (unsigned long long)(pos >> s->pshift),
		 f ? "cached" : "not cached",
		 (fl & F_UPTODATE) ? " uptodate" : "",
		 (fl & F_DIRTY) ? " dirty" : "",
		 (fl & F_ZEROED) ? " zeroed-around" : "",
		 (unsigned long long)s->isize,
		 (unsigned long long)s->disk_size);
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
