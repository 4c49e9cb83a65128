// SPDX-License-Identifier: GPL-2.0
/*
 * Shared extents within the file: FICLONERANGE and FIDEDUPERANGE
 * (generic_remap_file_range_prep(), xfs_reflink_remap_prep(),
 * xfs_reflink_remap_extent()), copy_file_range() (vfs_copy_file_range():
 * a remap that may shorten, then a copy through the page cache) and
 * FALLOC_FL_UNSHARE_RANGE (xfs_reflink_unshare()).  The COW fork itself,
 * its reservation window and the remap at I/O completion are in
 * extent.c and writeback.c.
 */
#define _GNU_SOURCE
#include "sim_int.h"

#define REMAP_DEDUP		1u
#define REMAP_CAN_SHORTEN	2u
#define SPLICE_CHUNK		(1u << 20)

/*
 * generic_remap_checks(): both starts block-aligned, the source inside
 * EOF; a range that ends at the source's EOF shares the EOF block whole
 * (for dedupe only if the destination ends at EOF too), any other length
 * must be whole blocks (shortened if the caller allows); no overlap.
 * Sets *len to the bytes to remap.
 */
static int remap_checks(const struct lbs_sim *s, uint64_t src, uint64_t dst,
			uint64_t *len, unsigned flags)
{
	uint64_t count = *len, bcount;

	if (lbs_block_offset(s->blkbits, src) ||
	    lbs_block_offset(s->blkbits, dst))
		return -EINVAL;
	if (src + count < src || dst + count < dst)
		return -EINVAL;
	if ((flags & REMAP_DEDUP) &&
	    (src >= s->isize || src + count > s->isize ||
	     dst >= s->isize || dst + count > s->isize))
		return -EINVAL;
	if (src >= s->isize)
		return -EINVAL;
	if (count > s->isize - src)
		count = s->isize - src;
	if (dst > s->max_size || count > s->max_size - dst)
		return -EFBIG;	/* generic_write_check_limits(): s_maxbytes */
	if (src + count == s->isize &&
	    (!(flags & REMAP_DEDUP) || dst + count == s->isize)) {
		bcount = lbs_block_round_up(s->blkbits, s->isize) - src;
	} else {
		count = lbs_block_start(s->blkbits, count);
		bcount = count;
	}
	if (dst + bcount > src && dst < src + bcount)
		return -EINVAL;
	if (count != *len && !(flags & REMAP_CAN_SHORTEN))
		return -EINVAL;
	*len = count;
	return 0;
}

/* do the bytes of two ranges agree (vfs_dedupe_file_range_compare())? */
static bool same_bytes(struct lbs_sim *s, uint64_t a, uint64_t b,
		       uint64_t len)
{
	uint8_t x[4096], y[4096];

	while (len) {
		uint64_t n = len < sizeof(x) ? len : sizeof(x);

		if (lbs_sim_read(s, a, n, x) != (int64_t)n ||
		    lbs_sim_read(s, b, n, y) != (int64_t)n ||
		    memcmp(x, y, n))
			return false;
		a += n;
		b += n;
		len -= n;
	}
	return true;
}

/*
 * generic_remap_file_range_prep() after the checks: flush both ranges,
 * compare for dedupe, then generic_remap_check_len(): a partial EOF block
 * may not land before the destination's EOF (cut to whole blocks if the
 * caller may shorten).  Then xfs_reflink_remap_prep() zeroes from EOF to
 * a destination past it, flushes and drops the destination's page cache,
 * and xfs_reflink_remap_blocks() moves each block: the destination's old
 * block loses an owner (a delalloc reservation is dropped), a written
 * source block gains one, anything else leaves a hole.  The size grows
 * block by block, logged with the remap (i_disk_size too).
 * Returns 0 and the bytes remapped in *@len, LBS_SIM_DEDUPE_DIFFERS, or
 * -errno.
 */
static int remap(struct lbs_sim *s, uint64_t src, uint64_t dst,
		 uint64_t *len, unsigned flags)
{
	uint64_t sb, db, nb, newsize, n = *len;
	int err = remap_checks(s, src, dst, &n, flags);

	*len = 0;
	if (err || !n)
		return err;
	sim_write_and_wait(s, src, src + n - 1);
	sim_write_and_wait(s, dst, dst + n - 1);
	if ((flags & REMAP_DEDUP) && !same_bytes(s, src, dst, n))
		return LBS_SIM_DEDUPE_DIFFERS;
	if (lbs_block_offset(s->blkbits, n) && dst + n < s->isize) {
		if (!(flags & REMAP_CAN_SHORTEN))
			return (flags & REMAP_DEDUP) ?
			       LBS_SIM_DEDUPE_DIFFERS : -EINVAL;
		n = lbs_block_start(s->blkbits, n);
		if (!n)
			return 0;
	}
	if (dst > s->isize) {		/* xfs_reflink_zero_posteof() */
		uint64_t old = s->isize;

		sim_zero_range(s, old, dst - old);
		sim_flush_unmap(s, old, n + dst - old);
	} else {
		sim_flush_unmap(s, dst, n);
	}
	s->reflink_inode = true;
	sb = bno_of(s, src);
	db = bno_of(s, dst);
	nb = bno_of(s, lbs_block_round_up(s->blkbits, n)); /* XFS_B_TO_FSB() */
	newsize = dst + n;
	for (uint64_t i = 0; i < nb; i++) {
		struct extent *se = &s->ext[sb + i], *de = &s->ext[db + i];
		uint64_t end = bpos_of(s, db + i + 1);

		sim_free_block(s, de);
		if (se->state == EXT_WRITTEN) {
			de->state = EXT_WRITTEN;
			de->pblk = se->pblk;
			s->refcnt[se->pblk]++;
		}
		s->c.remaps++;
		if (end > newsize)
			end = newsize;
		if (end > s->isize) {
			s->isize = end;
			if (end > s->disk_size)
				s->disk_size = end;
		}
	}
	*len = n;
	return 0;
}

int lbs_sim_clone_range(struct lbs_sim *s, uint64_t src, uint64_t dst,
			uint64_t len)
{
	if (!len) {	/* generic_remap_file_range_prep(): to EOF */
		if (src == s->isize)
			return 0;
		if (src > s->isize)
			return -EINVAL;
		len = s->isize - src;
	}
	return remap(s, src, dst, &len, 0);
}

int lbs_sim_dedupe_range(struct lbs_sim *s, uint64_t src, uint64_t dst,
			 uint64_t len)
{
	if (!len)
		return 0;
	/* vfs_dedupe_file_range() lets the length be shortened */
	return remap(s, src, dst, &len, REMAP_DEDUP | REMAP_CAN_SHORTEN);
}

/*
 * vfs_copy_file_range() on one file: generic_copy_file_checks() (stop at
 * the source's EOF, no overlap), then ->remap_file_range() with
 * REMAP_FILE_CAN_SHORTEN, which shares whole blocks (and the EOF block)
 * if both offsets are block-aligned; whatever it did not share is copied
 * by do_splice_direct(), a buffered read and write.  One call here is
 * the loop fsx makes over short copies.
 */
int64_t lbs_sim_copy_range(struct lbs_sim *s, uint64_t src, uint64_t dst,
			   uint64_t len)
{
	uint64_t done = 0, count = len;
	uint8_t *buf;

	if (src >= s->isize)
		return 0;
	if (count > s->isize - src)
		count = s->isize - src;
	if (dst + count > src && dst < src + count)
		return -EINVAL;
	if (dst > s->max_size || count > s->max_size - dst)
		return -EFBIG;
	while (done < count) {
		uint64_t n = count - done;

		if (remap(s, src + done, dst + done, &n, REMAP_CAN_SHORTEN) ||
		    !n)
			break;
		done += n;
	}
	if (done == count)
		return (int64_t)done;
	/* do_splice_direct() goes through a pipe a few pages at a time */
	buf = malloc(SPLICE_CHUNK);
	if (!buf)
		return done ? (int64_t)done : -ENOMEM;
	while (done < count) {
		uint64_t n = count - done < SPLICE_CHUNK ? count - done :
			     SPLICE_CHUNK;

		if (lbs_sim_read(s, src + done, n, buf) != (int64_t)n ||
		    lbs_sim_write(s, dst + done, n, buf, SIZE_MAX) !=
		    (int64_t)n)
			abort();	/* inside EOF and the limit: cannot fail */
		done += n;
	}
	free(buf);
	return (int64_t)count;
}

/*
 * xfs_reflink_unshare(): on a file that has shared blocks, dirty the
 * shared blocks of the range (whole blocks, core's lbs_unshare_range())
 * and write them back.
 */
void sim_reflink_unshare(struct lbs_sim *s, uint64_t pos, uint64_t len)
{
	uint64_t a, b;

	if (!s->reflink_inode)
		return;
	if (lbs_unshare_range(s->blkbits, s->pshift, pos, len, s->isize, &a,
			      &b)) {
		pos = a;
		len = b - a;
	}
	sim_unshare_pages(s, pos, pos + len < s->isize ? pos + len : s->isize);
	sim_write_and_wait(s, pos, pos + len - 1);
}
