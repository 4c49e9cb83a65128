// SPDX-License-Identifier: GPL-2.0
/*
 * The block device: every block starts with a stale pattern derived from
 * its address, which no operation ever writes, so reading it through the
 * file is a stale-data exposure.
 */
#define _GNU_SOURCE
#include "sim_int.h"

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

void sim_dev_fill_stale(struct lbs_sim *s, uint64_t pblk)
{
	uint64_t a = pblk << s->blkbits;

	for (uint32_t i = 0; i < s->bs; i++)
		s->dev[a + i] = stale_byte(a + i);
}

/* fill folio bytes [off, off+len) from the file's mapping at @pos */
void sim_fill_from_disk(struct lbs_sim *s, struct folio *f, uint32_t off,
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

bool lbs_sim_is_stale_byte(const struct lbs_sim *s, uint64_t pos,
			   uint8_t byte)
{
	struct lbs_sim *m = (struct lbs_sim *)s;
	struct extent *e = ext_at(m, pos);

	if (!e || (e->state != EXT_WRITTEN && e->state != EXT_UNWRITTEN))
		return false;
	return stale_byte(dev_addr(s, e, pos)) == byte;
}
