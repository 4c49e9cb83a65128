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

/*
 * generic_remap_checks(): both starts block-aligned, the source inside
 * EOF; a range that ends at the source's EOF shares the EOF block whole
 * (for dedupe only if the destination ends at EOF too), any other length
 * must be whole blocks (shortened if the caller allows); no overlap.
 * Sets *len to the bytes remapped and *blen to the blocks' extent.
 */
static int remap_checks(const struct lbs_sim *s, uint64_t src, uint64_t dst,
			uint64_t *len, uint64_t *blen, unsigned flags)
{
	uint64_t count = *len, bmask = s->bs - 1, bcount;

	if ((src | dst) & bmask)
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
		bcount = ((s->isize + bmask) & ~bmask) - src;
	} else {
		count &= ~bmask;
		bcount = count;
	}
	if (dst + bcount > src && dst < src + bcount)
		return -EINVAL;
	if (count != *len && !(flags & REMAP_CAN_SHORTEN))
		return -EINVAL;
	*len = count;
	*blen = bcount;
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
 * The remap after the checks: flush both ranges, compare for dedupe,
 * zero from EOF to a destination past it, flush and drop the
 * destination's page cache, then move each block: the destination's old
 * block loses an owner (a delalloc reservation is dropped), a written
 * source block gains one, anything else leaves a hole.  The size grows
 * block by block, logged with the remap (i_disk_size too).
 */
static int remap(struct lbs_sim *s, uint64_t src, uint64_t dst, uint64_t len,
		 unsigned flags)
{
	uint64_t blen, sb, db, nb, newsize;
	int err = remap_checks(s, src, dst, &len, &blen, flags);

	if (err || !len)
		return err;
	sim_write_and_wait(s, src, src + len - 1);
	sim_write_and_wait(s, dst, dst + len - 1);
	if ((flags & REMAP_DEDUP) && !same_bytes(s, src, dst, len))
		return LBS_SIM_DEDUPE_DIFFERS;
	if (dst > s->isize) {		/* xfs_reflink_zero_posteof() */
		uint64_t old = s->isize;

		sim_zero_range(s, old, dst - old);
		sim_flush_unmap(s, old, len + dst - old);
	} else {
		sim_flush_unmap(s, dst, len);
	}
	s->reflink_inode = true;
	sb = bno_of(s, src);
	db = bno_of(s, dst);
	nb = blen >> s->blkbits;
	newsize = dst + len;
	for (uint64_t i = 0; i < nb; i++) {
		struct extent *se = &s->ext[sb + i], *de = &s->ext[db + i];
		uint64_t end = (db + i + 1) << s->blkbits;

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
	return 0;
}

int lbs_sim_clone_range(struct lbs_sim *s, uint64_t src, uint64_t dst,
			uint64_t len)
{
	if (!len) {	/* generic_remap_file_range_prep(): to EOF */
		if (src >= s->isize)
			return -EINVAL;
		len = s->isize - src;
	}
	return remap(s, src, dst, len, 0);
}

int lbs_sim_dedupe_range(struct lbs_sim *s, uint64_t src, uint64_t dst,
			 uint64_t len)
{
	if (!len)
		return 0;
	return remap(s, src, dst, len, REMAP_DEDUP);
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
		uint64_t n = count - done, blen;

		if (remap_checks(s, src + done, dst + done, &n, &blen,
				 REMAP_CAN_SHORTEN) || !n)
			break;
		remap(s, src + done, dst + done, n, REMAP_CAN_SHORTEN);
		done += n;
	}
	if (done == count)
		return (int64_t)done;
	buf = malloc(count - done);
	if (!buf)
		abort();
	if (lbs_sim_read(s, src + done, count - done, buf) !=
	    (int64_t)(count - done) ||
	    lbs_sim_write(s, dst + done, count - done, buf, SIZE_MAX) !=
	    (int64_t)(count - done))
		abort();	/* inside EOF and the size limit: cannot fail */
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
