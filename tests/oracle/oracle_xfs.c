// SPDX-License-Identifier: GPL-2.0
/*
 * Oracles for core/xfs_geom.c.  AGs are laid out by walking the data
 * device from block 0, btrees are built level by level by packing entries
 * into blocks, and device sizes are counted in 128-bit bytes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oracle.h"
#include "oracle_int.h"
#include "oracle_walk.h"

typedef unsigned __int128 o_u128;

/*
 * AG @agno of a device of @dblocks blocks cut into @agcount AGs of
 * @agblocks: walk the AGs from block 0; every AG but the last has
 * @agblocks, the last has what is left of the device, however small.
 * Domain: a consistent geometry, (agcount - 1) * agblocks < dblocks <=
 * agcount * agblocks; any @agno >= @agcount is no AG (0).
 */
int o_ag_block_count(const uint64_t *in, uint64_t *out)
{
	uint64_t agno = in[0], agcount = in[1], agblocks = in[2];
	uint64_t dblocks = in[3], start;

	if (agno > UINT32_MAX || agcount > UINT32_MAX || agblocks > UINT32_MAX)
		return ORACLE_DOMAIN;
	if (agno >= agcount) {
		out[0] = 0;
		return 1;
	}
	if (agblocks == 0 ||
	    (o_u128)(agcount - 1) * agblocks >= dblocks ||
	    (o_u128)agcount * agblocks < dblocks)
		return ORACLE_DOMAIN;
	/* where AG agno starts: agno whole AGs from block 0 */
	start = ow_steps(agno, agblocks);
	out[0] = agno + 1 < agcount ? agblocks : dblocks - start;
	return 1;
}

/*
 * The internal log lies in the AG whose range of fs block numbers holds
 * @logstart; AG a numbers its blocks from a * 2^agblklog.  @logstart 0
 * means an external log.
 */
int o_ag_log_blocks(const uint64_t *in, uint64_t *out)
{
	uint64_t agno = in[0], agblklog = in[1], logstart = in[2], n;

	if (agno > UINT32_MAX || agblklog > 40 || in[3] > UINT32_MAX)
		return ORACLE_DOMAIN;
	out[0] = 0;
	if (logstart == 0)
		return 1;
	ow_floor(logstart, ow_pow2((uint32_t)agblklog), &n);
	if (n == agno)
		out[0] = in[3];
	return 1;
}

/* fewest blocks holding @n entries, @per to a block */
static uint64_t o_blocks_for(uint64_t n, uint64_t per)
{
	uint64_t full;

	ow_floor(n, per, &full);
	return ow_steps(full, per) == n ? full : full + 1;
}

/*
 * Pack the records into leaves of @leaf_recs, then the leaves' pointers
 * into nodes of @node_recs, level after level until one block (the root)
 * is left; sum the blocks of all levels.  No records, no blocks.  Limits
 * that cannot build a tree (no records per leaf, fewer than two pointers
 * per node) give 0.  Domain: records <= 2^62, so that neither the count
 * nor a rounding-up division can pass 2^64 (core, like the kernel's
 * howmany_64(), adds the divisor before dividing).
 */
int o_btree_calc_size(const uint64_t *in, uint64_t *out)
{
	uint64_t leaf = in[0], node = in[1], level, total;

	if (leaf > UINT32_MAX || node > UINT32_MAX ||
	    in[2] > (uint64_t)1 << 62)
		return ORACLE_DOMAIN;
	out[0] = 0;
	if (leaf == 0 || node < 2)
		return 1;
	level = o_blocks_for(in[2], leaf);
	total = level;
	while (level > 1) {
		level = o_blocks_for(level, node);
		total += level;
	}
	out[0] = total;
	return 1;
}

/*
 * The inobt/finobt reservation: a tree of minimally full blocks indexing
 * one record per 64-inode chunk that the AG's own blocks, less the
 * internal log's, could hold.  0 while the geometry is unset (mnr_leaf 0).
 */
int o_inobt_max_size(const uint64_t *in, uint64_t *out)
{
	uint64_t ag = in[0], logb = in[1], inopblock = in[2];
	uint64_t free_blocks, chunks, bt_in[3], bt_out[1];
	int i;

	for (i = 0; i < 5; i++)
		if (in[i] > UINT32_MAX)
			return ORACLE_DOMAIN;
	out[0] = 0;
	if (in[3] == 0)
		return 1;
	free_blocks = logb < ag ? ag - logb : 0;
	ow_floor((uint64_t)((o_u128)free_blocks * inopblock), 64, &chunks);
	bt_in[0] = in[3];
	bt_in[1] = in[4];
	bt_in[2] = chunks;
	o_btree_calc_size(bt_in, bt_out);
	if (bt_out[0] > UINT32_MAX)
		return ORACLE_DOMAIN;
	out[0] = bt_out[0];
	return 1;
}

/*
 * st_blksize: the realtime extent size for realtime files; with largeio
 * the stripe width, else allocsize, if set; otherwise the larger of page
 * and block, so that it is never below the block size.
 */
int o_stat_blksize(const uint64_t *in, uint64_t *out)
{
	uint64_t bsize, psize;
	int i;

	if (in[0] < 9 || in[0] > 31 || in[1] < 12 || in[1] > 21 || in[3] > 1)
		return ORACLE_DOMAIN;
	for (i = 2; i < 6; i++)
		if (in[i] > UINT32_MAX)
			return ORACLE_DOMAIN;
	bsize = ow_pow2((uint32_t)in[0]);
	psize = ow_pow2((uint32_t)in[1]);
	if (in[2])
		out[0] = in[2];
	else if (in[3] && in[4])
		out[0] = in[4];
	else if (in[3] && in[5])
		out[0] = in[5];
	else
		out[0] = bsize > psize ? bsize : psize;
	return 1;
}

/*
 * Mount verdict: blocks up to a page mount as always; larger blocks need
 * to be within the supported maximum (checked first) and a V5 filesystem.
 */
int o_mount_blocksize(const uint64_t *in, uint64_t *out)
{
	uint64_t bsize, psize, maxsize;

	if (in[0] < 9 || in[0] > 31 || in[1] < 12 || in[1] > 21 ||
	    in[2] > 1 || in[3] > 31)
		return ORACLE_DOMAIN;
	bsize = ow_pow2((uint32_t)in[0]);
	psize = ow_pow2((uint32_t)in[1]);
	maxsize = ow_pow2((uint32_t)in[3]);
	if (bsize <= psize)
		out[0] = 0;	/* LBS_BS_OK */
	else if (bsize > maxsize)
		out[0] = 3;	/* LBS_BS_TOO_LARGE */
	else if (!in[2])
		out[0] = 2;	/* LBS_BS_NEED_V5 */
	else
		out[0] = 1;	/* LBS_BS_LARGE */
	return 1;
}

/*
 * The device holds nblocks * block size bytes (counted in 128 bits).  It
 * can be cached if that byte count fits in 64 bits and its number of whole
 * pages does not exceed the largest page index, as the kernel's check has
 * always counted (xfs_sb_validate_fsb_count(), 6.12's byte form).
 */
int o_fsb_count_ok(const uint64_t *in, uint64_t *out)
{
	o_u128 bytes;
	uint64_t pages;

	if (in[1] < 9 || in[1] > 31 || in[2] < 12 || in[2] > 21)
		return ORACLE_DOMAIN;
	bytes = (o_u128)in[0] * ow_pow2((uint32_t)in[1]);
	if (bytes > UINT64_MAX) {
		out[0] = 0;
		return 1;
	}
	ow_floor((uint64_t)bytes, ow_pow2((uint32_t)in[2]), &pages);
	out[0] = pages <= in[3];
	return 1;
}

/*
 * A COW reservation around a write reaches hint blocks, unless that could
 * cover a block none of whose bytes the write copies around: with blocks
 * larger than pages, every block a reservation covers beyond the written,
 * shared one may hold dirty pages that were written in place, so only the
 * one block is reserved.  (Hint 0 never reaches here: XFS defaults to 32.)
 */
int o_cowextsz_hint(const uint64_t *in, uint64_t *out)
{
	if (in[0] < 9 || in[0] > 31 || in[1] < 12 || in[1] > 21 ||
	    in[2] < 1 || in[2] > (1ULL << 21))
		return ORACLE_DOMAIN;
	out[0] = ow_pow2((uint32_t)in[0]) > ow_pow2((uint32_t)in[1]) ? 1 : in[2];
	return 1;
}
