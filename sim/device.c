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

/* GCC's and clang's vector extension: bytewise arithmetic */
typedef uint8_t v16 __attribute__((vector_size(16)));

void sim_dev_fill_stale(struct lbs_sim *s, uint64_t pblk)
{
	const v16 inc = { 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0 };
	uint64_t a = bpos_of(s, pblk);

	/*
	 * stale_byte() two words at a time (blocks start 256-byte aligned):
	 * in a run of 32 words only byte 2, the low 7 bits of the word
	 * index, changes, by one a word and without a carry.
	 */
	for (uint32_t i = 0; i < s->bs; i += 256) {
		uint8_t b[16];
		v16 v;

		for (unsigned k = 0; k < 16; k++)
			b[k] = stale_byte(a + i + k);
		memcpy(&v, b, 16);
		for (unsigned j = 0; j < 256; j += 16, v += inc)
			memcpy(s->dev + a + i + j, &v, 16);
	}
}

/* fill folio bytes [off, off+len) from the file's mapping at @pos */
void sim_fill_from_disk(struct lbs_sim *s, struct folio *f, uint32_t off,
			uint32_t len)
{
	uint64_t pos = fpos_of(s, f) + off;

	while (len) {
		struct extent *e = ext_at(s, pos);
		uint64_t bend = lbs_block_end(s->blkbits, pos);
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
