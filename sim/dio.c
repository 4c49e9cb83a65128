// SPDX-License-Identifier: GPL-2.0
/*
 * O_DIRECT: logical-sector alignment (EINVAL), iomap_dio_zero() around
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

int64_t lbs_sim_dio_read(struct lbs_sim *s, uint64_t pos, uint64_t len,
			 void *vbuf)
{
	uint8_t *buf = vbuf;
	uint64_t done = 0;

	if (sector_misaligned(pos, len, buf))
		return -EINVAL;
	if (pos >= s->isize || !len)
		return 0;
	sim_write_and_wait(s, pos, pos + len - 1);	/* kiocb_write_and_wait() */
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
	sim_write_checks(s, pos);
	sim_flush_unmap(s, pos, len);
	while (done < len) {
		uint64_t p = pos + done;
		struct extent *e = ext_at(s, p);
		uint64_t bend = (bno_of(s, p) + 1) << s->blkbits;
		uint64_t n = len - done < bend - p ? len - done : bend - p;
		bool is_new = false;
		struct lbs_dio_pads pads;

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
