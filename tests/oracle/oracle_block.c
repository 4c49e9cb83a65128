// SPDX-License-Identifier: GPL-2.0
/*
 * Oracles for core/block.c (the block around an offset, pages per block)
 * and for lbs_large_folios_ok() of core/xfs_geom.c.  As in
 * oracle_iomap.c, each one states the rule in words and reads the answer
 * off blocks and pages built by walking from 0: no masks, no shifts of
 * offsets.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oracle.h"
#include "oracle_int.h"
#include "oracle_walk.h"

/* the block size, built by doubling */
static uint64_t o_bsize(const uint64_t *in)
{
	return ow_pow2((uint32_t)in[0]);
}

/* where the walk in steps of a block stops at or before byte pos */
int o_block_start(const uint64_t *in, uint64_t *out)
{
	if (!o_blkbits_ok(in[0]) || in[1] > O_LOFF_END)
		return ORACLE_DOMAIN;
	out[0] = ow_floor(in[1], o_bsize(in), NULL);
	return 1;
}

/*
 * The block holding byte pos is the walk's last step at or before pos;
 * its end is one more step.  The block must end by 2^63.
 */
int o_block_end(const uint64_t *in, uint64_t *out)
{
	uint64_t bsize, start;

	if (!o_blkbits_ok(in[0]) || in[1] >= O_LOFF_END)
		return ORACLE_DOMAIN;
	bsize = o_bsize(in);
	start = ow_floor(in[1], bsize, NULL);
	out[0] = start + bsize;
	if (out[0] <= in[1] || out[0] > O_LOFF_END)
		oracle_bug("block_end model: %llu does not end the block "
			   "of %llu", (unsigned long long)out[0],
			   (unsigned long long)in[1]);
	return 1;
}

/* the bytes of pos's block that come before pos */
int o_block_offset(const uint64_t *in, uint64_t *out)
{
	if (!o_blkbits_ok(in[0]) || in[1] > O_LOFF_END)
		return ORACLE_DOMAIN;
	out[0] = in[1] - ow_floor(in[1], o_bsize(in), NULL);
	return 1;
}

/* the first step edge at or after an exclusive end */
int o_block_round_up(const uint64_t *in, uint64_t *out)
{
	if (!o_blkbits_ok(in[0]) || in[1] > O_LOFF_END)
		return ORACLE_DOMAIN;
	out[0] = ow_ceil(in[1], o_bsize(in));
	return 1;
}

/*
 * Count the pages that hold some byte of block 0: walk pages from 0 while
 * the page starts inside the block.  A block no larger than a page is in
 * one page.
 */
int o_pages_per_block(const uint64_t *in, uint64_t *out)
{
	uint64_t bsize, psize, p, n = 0;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]))
		return ORACLE_DOMAIN;
	bsize = o_bsize(in);
	psize = ow_pow2((uint32_t)in[1]);
	for (p = 0; p < bsize; p += psize)
		n++;
	out[0] = n;
	return 1;
}

/*
 * Large folios stay on while a block fits in a page (6.1 as it was);
 * with blocks larger than a page every folio is one page.
 */
int o_large_folios_ok(const uint64_t *in, uint64_t *out)
{
	if (in[0] < 9 || in[0] > 31 || in[1] < 12 || in[1] > 21)
		return ORACLE_DOMAIN;
	out[0] = ow_pow2((uint32_t)in[0]) <= ow_pow2((uint32_t)in[1]);
	return 1;
}
