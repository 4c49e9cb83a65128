// SPDX-License-Identifier: GPL-2.0
/*
 * O_DIRECT: logical-sector alignment (EINVAL: always for writes, for reads
 * only where a written extent is mapped), iomap_dio_zero() around
 * sub-block writes with core's pads and bio segments, and unwritten
 * conversion in whole blocks at completion.
 */
#define _GNU_SOURCE
#include "sim_int.h"

static bool sector_misaligned(uint64_t pos, uint64_t len, const void *buf)
{
	/* bt_logical_sectormask: 512-byte logical sectors */
	return ((pos | len | (uintptr_t)buf) & 511) != 0;
}

/*
 * 6.1's xfs_file_dio_read() has no alignment check of its own: it is
 * iomap_dio_rw(), which returns 0 for a read at or past EOF, flushes the
 * range, then walks the mapping over the whole request (past EOF too).
 * Holes and unwritten extents are zero-filled by iomap_dio_hole_iter()
 * without a check; only a written extent goes to iomap_dio_bio_iter(),
 * whose check of the position, the remaining count and the user address
 * fails with EINVAL when the request is misaligned (with the piece's
 * start at @pos or at an aligned extent start, a misaligned @pos, @len
 * or buffer always shows in one of them).  The error wins over the bytes
 * done (iomap_dio_complete()).
 */
static bool dio_read_maps_written(struct lbs_sim *s, uint64_t pos,
				  uint64_t len)
{
	for (uint64_t p = pos; p < pos + len;
	     p = lbs_block_end(s->blkbits, p)) {
		struct extent *e = ext_at(s, p);

		if (e && e->state == EXT_WRITTEN)
			return true;
	}
	return false;
}

int64_t lbs_sim_dio_read(struct lbs_sim *s, uint64_t pos, uint64_t len,
			 void *vbuf)
{
	uint8_t *buf = vbuf;
	uint64_t done = 0;

	if (pos >= s->isize || !len)
		return 0;
	sim_dio_flush_read(s, pos, len);
	if (sector_misaligned(pos, len, buf) &&
	    dio_read_maps_written(s, pos, len))
		return -EINVAL;
	if (len > s->isize - pos)
		len = s->isize - pos;		/* iomap_dio_complete() */
	while (done < len) {
		uint64_t p = pos + done;
		struct extent *e = ext_at(s, p);
		uint64_t bend = lbs_block_end(s->blkbits, p);
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
	/*
	 * xfs_file_dio_write_unaligned(): a sub-block write to a file with
	 * shared blocks cannot unshare part of a block: -ENOTBLK, and
	 * xfs_file_write_iter() falls back to a buffered write.
	 */
	if (s->reflink_inode && (lbs_block_offset(s->blkbits, pos) ||
				 lbs_block_offset(s->blkbits, len)))
		return lbs_sim_write(s, pos, len, buf, SIZE_MAX);
	sim_write_checks(s, pos);
	sim_dio_invalidate(s, pos, len);
	while (done < len) {
		uint64_t p = pos + done;
		struct extent *e = ext_at(s, p);
		uint64_t bend = lbs_block_end(s->blkbits, p);
		uint64_t n = len - done < bend - p ? len - done : bend - p;
		bool is_new = false;
		struct lbs_dio_pads pads;

		/* xfs_reflink_allocate_cow(): a whole block to a new COW
		 * block, remapped at completion (no pads: aligned) */
		if (s->reflink_inode && sim_cow_begin(s, bno_of(s, p))) {
			if (e->cow == EXT_DELALLOC)
				sim_cow_convert_delalloc(s, bno_of(s, p));
			memcpy(s->dev + cow_addr(s, e, p), buf + done, n);
			e->cow = EXT_WRITTEN;
			done += n;
			continue;
		}
		if (e->state == EXT_HOLE || e->state == EXT_DELALLOC) {
			sim_alloc_block(s, e, EXT_UNWRITTEN);
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
	/* xfs_dio_write_end_io(): remap COW blocks or convert whole
	 * blocks, update sizes */
	for (uint64_t p = pos; p < pos + len;) {
		struct extent *e = ext_at(s, p);

		if (e->cow == EXT_WRITTEN)
			sim_cow_remap(s, bno_of(s, p));
		else if (e->state == EXT_UNWRITTEN)
			e->state = EXT_WRITTEN;
		p = lbs_block_end(s->blkbits, p);
	}
	if (pos + len > s->isize)
		s->isize = pos + len;
	if (pos + len > s->disk_size)
		s->disk_size = pos + len;
	return (int64_t)len;
}
