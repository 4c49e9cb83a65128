// SPDX-License-Identifier: GPL-2.0
/*
 * Oracles for core/copy_around.c: when a write into a shared block needs
 * the rest of the block filled, what each page is filled from, and how far
 * an unshare reaches.  As in oracle_iomap.c, each one states the rule in
 * words and reads the answer off pages and blocks built by walking.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oracle.h"
#include "oracle_int.h"
#include "oracle_walk.h"

/* pages in one block, counted */
static uint64_t o_cow_block_pages(uint32_t blkbits, uint32_t pshift)
{
	uint64_t pages;

	for (pages = 0; ow_steps(pages, ow_pow2(pshift)) < ow_pow2(blkbits);
	     pages++)
		;
	return pages;
}

/*
 * A COW write replaces the whole block at I/O completion; only when the
 * block spans more than one page does the page cache miss some of it.
 */
int o_need_copy_around(const uint64_t *in, uint64_t *out)
{
	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) || in[2] > 1)
		return ORACLE_DOMAIN;
	out[0] = o_cow_block_pages((uint32_t)in[0], (uint32_t)in[1]) > 1 &&
		 in[2];
	return 1;
}

/*
 * Model: the source holds data only where it is written space that was
 * there before this write (not just allocated), and only inside the file:
 * whatever the disk has at or past EOF is not file data.
 */
int o_fill_from_source(const uint64_t *in, uint64_t *out)
{
	static const bool holds_data[4] = {
		[0] = false,	/* hole */
		[1] = false,	/* delalloc: no disk block yet */
		[2] = true,	/* mapped: written data */
		[3] = false,	/* unwritten: reads as zeroes */
	};
	uint64_t type = in[0], is_new = in[1], pos = in[2], isize = in[3];

	if (type > 3 || is_new > 1 || pos > O_LOFF_END || isize > O_LOFF_END)
		return ORACLE_DOMAIN;
	out[0] = holds_data[type] && !is_new && pos < isize;
	return 1;
}

/*
 * Model: the bytes to unshare are the caller's range inside the file.
 * With blocks larger than a page, every block holding one of them is
 * copied whole, but never past EOF.  Empty: start = end = pos.
 */
int o_unshare_range(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[2], len = in[3], isize = in[4];
	uint64_t bsize, last, first_blk, last_blk;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) ||
	    pos > O_LOFF_END || len > O_LOFF_END - pos || isize > O_LOFF_END)
		return ORACLE_DOMAIN;
	out[0] = 0;
	out[1] = pos;
	out[2] = pos;
	if (len == 0 || pos >= isize)
		return 3;
	/* the last byte of the file inside the range */
	last = pos + len - 1;
	if (last >= isize)
		last = isize - 1;
	out[0] = 1;
	out[2] = last + 1;
	if (o_cow_block_pages((uint32_t)in[0], (uint32_t)in[1]) <= 1)
		return 3;
	bsize = ow_pow2((uint32_t)in[0]);
	first_blk = ow_floor(pos, bsize, NULL);
	last_blk = ow_floor(last, bsize, NULL);
	out[1] = first_blk;
	out[2] = last_blk + bsize < isize ? last_blk + bsize : isize;
	return 3;
}
