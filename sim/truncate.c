// SPDX-License-Identifier: GPL-2.0
/*
 * Size changes and fallocate: truncate_inode_pages_range() (with large
 * folio splitting), xfs_setattr_size() with EOF block zeroing,
 * xfs_free_file_space(), xfs_alloc_file_space(), and collapse/insert
 * range with core's block alignment check.
 */
#define _GNU_SOURCE
#include "sim_int.h"

/*
 * truncate_inode_pages_range() over bytes [lstart, lend]: folios wholly
 * inside go, a folio reaching outside has its part zeroed
 * (truncate_inode_partial_folio()) and, if large, is split so that its
 * pages inside go too.
 */
void sim_truncate_pages(struct lbs_sim *s, uint64_t lstart, uint64_t lend)
{
	uint64_t idx = lstart >> s->pshift, last = lend >> s->pshift;
	uint64_t mi = max_index(s);

	if (last > mi)
		last = mi;
	while (idx <= last) {
		struct folio *f = sim_folio_lookup(s, idx);
		uint64_t fpos, fend, a, b;

		if (!f) {
			idx++;
			continue;
		}
		fpos = fpos_of(s, f);
		fend = fend_of(s, f);
		idx = flast_of(f) + 1;
		if (fpos >= lstart && fend - 1 <= lend) {
			sim_folio_remove(s, f);
			continue;
		}
		a = lstart > fpos ? lstart : fpos;
		b = lend < fend - 1 ? lend + 1 : fend;
		zero_segment(f, (uint32_t)(a - fpos), (uint32_t)(b - fpos));
		/* truncate_inode_partial_folio(): a folio that cannot be
		 * split stays if dirty and goes whole if clean */
		if (f->order && sim_folio_split(s, f))
			idx = a >> s->pshift;	/* now order-0 pages */
		else if (f->order && !(fl_get(f) & F_DIRTY))
			sim_folio_remove(s, f);
	}
}

/* truncate_setsize(): the EOF folio is zeroed past @size, the rest go */
static void truncate_setsize(struct lbs_sim *s, uint64_t size)
{
	s->isize = size;
	sim_truncate_pages(s, size, UINT64_MAX);
}

/* xfs_setattr_size() */
int sim_setattr_size(struct lbs_sim *s, uint64_t newsize)
{
	uint64_t oldsize = s->isize;
	bool did = false;

	if (newsize > oldsize) {
		did = sim_zero_range(s, oldsize, newsize - oldsize);
	} else if (newsize < oldsize) {
		uint32_t zl;

		sim_write_and_wait(s, newsize, newsize);
		zl = lbs_truncate_page_len(s->blkbits, s->pshift, newsize);
		if (zl)
			did = sim_zero_range(s, newsize, zl);
		/*
		 * Model decision (D4): write the zeroed EOF page now, so the
		 * disk holds zeroes past the new EOF in it.  Otherwise a write
		 * into that page followed by anything that moves i_disk_size
		 * past it (an extending O_DIRECT write far away) exposes the
		 * truncated bytes after a crash.  6.1 only flushes before
		 * zeroing.
		 */
		if (did)
			sim_write_and_wait(s, newsize, newsize);
	}
	if ((did || (newsize > s->disk_size && oldsize != s->disk_size)) &&
	    newsize > s->disk_size)
		sim_write_and_wait(s, s->disk_size, newsize - 1);
	truncate_setsize(s, newsize);
	/* xfs_itruncate_extents(): free blocks that start at or past EOF,
	 * and when shrinking, their COW fork blocks too */
	for (uint64_t b = s->nblocks; b-- > 0;) {
		if (bpos_of(s, b) < newsize)
			break;
		sim_free_block(s, &s->ext[b]);
		if (newsize <= oldsize)
			sim_cow_cancel(s, b, b + 1);
	}
	if (newsize < oldsize)
		sim_zero_post_eof_on_disk(s, newsize);
	s->disk_size = newsize;	/* logged in the same transaction */
	return 0;
}

int lbs_sim_truncate(struct lbs_sim *s, uint64_t size)
{
	if (size > s->max_size)
		return -EFBIG;
	return sim_setattr_size(s, size);
}

/* xfs_free_file_space() */
static void free_file_space(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t end = pos + len;

	sim_flush_unmap(s, pos, len);
	for (uint64_t b = bno_of(s, pos); b < s->nblocks; b++) {
		uint64_t bs = bpos_of(s, b), be = lbs_block_end(s->blkbits, bs);

		if (bs >= end)
			break;
		if (bs >= pos && be <= end)
			sim_free_block(s, &s->ext[b]);
	}
	/* zero partial blocks, never past EOF (that would grow i_size) */
	if (pos >= s->isize)
		return;
	sim_zero_range(s, pos, (end < s->isize ? end : s->isize) - pos);
	if (end >= s->isize)
		sim_write_and_wait(s, end, INT64_MAX);
}

/* xfs_alloc_file_space(): unwritten extents over every block touched */
static void alloc_file_space(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	for (uint64_t p = pos; p < pos + len;) {
		struct extent *e = ext_at(s, p);

		if (e->state == EXT_HOLE || e->state == EXT_DELALLOC)
			sim_alloc_block(s, e, EXT_UNWRITTEN);
		p = lbs_block_end(s->blkbits, p);
	}
}

/*
 * xfs_prepare_shift(): write back and drop the cache from @pos to EOF,
 * then cancel the COW fork there, which would sit at the wrong offsets
 * after the shift.
 */
static void prepare_shift(struct lbs_sim *s, uint64_t pos)
{
	sim_flush_unmap(s, pos, s->isize - pos);
	sim_cow_cancel(s, bno_of(s, pos), s->nblocks);
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
			sim_setattr_size(s, end);
		return 0;
	case LBS_FL_PUNCH_HOLE:
		if (!keep)
			return -EOPNOTSUPP;
		free_file_space(s, pos, len);
		return 0;
	case LBS_FL_ZERO_RANGE:
		sim_flush_unmap(s, pos, len);
		free_file_space(s, pos, len);
		alloc_file_space(s, pos, len);
		if (!keep && end > s->isize)
			sim_setattr_size(s, end);
		return 0;
	case LBS_FL_COLLAPSE_RANGE: {
		uint64_t nsize;

		if (keep || !lbs_falloc_aligned(s->blkbits, pos, len) ||
		    end >= s->isize)
			return -EINVAL;
		nsize = s->isize - len;
		free_file_space(s, pos, len);
		prepare_shift(s, pos);
		sim_shift_extents(s, bno_of(s, pos), -(int64_t)bno_of(s, len));
		sim_setattr_size(s, nsize);
		return 0;
	}
	case LBS_FL_INSERT_RANGE:
		if (keep || !lbs_falloc_aligned(s->blkbits, pos, len) ||
		    pos >= s->isize)
			return -EINVAL;
		if (s->isize + len > s->max_size)
			return -EFBIG;
		sim_setattr_size(s, s->isize + len);
		prepare_shift(s, pos);
		/* the blocks shifted out past max are beyond the new EOF
		 * and hold nothing after sim_setattr_size() */
		for (uint64_t b = s->nblocks - bno_of(s, len); b < s->nblocks;
		     b++)
			sim_free_block(s, &s->ext[b]);
		sim_shift_extents(s, bno_of(s, pos), (int64_t)bno_of(s, len));
		return 0;
	case LBS_FL_UNSHARE_RANGE:
		/* xfs_file_fallocate(): unshare, then preallocate */
		sim_reflink_unshare(s, pos, len);
		alloc_file_space(s, pos, len);
		if (!keep && end > s->isize)
			sim_setattr_size(s, end);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}
