// SPDX-License-Identifier: GPL-2.0
/*
 * XFS geometry rules that depend on block size, AG size or page size.
 */
#include "lbs_xfs.h"
#include "lbs_util.h"

/* inodes per inode chunk, XFS_INODES_PER_CHUNK */
#define LBS_INODES_PER_CHUNK	64

/**
 * lbs_ag_block_count() - blocks in allocation group @agno
 * @agno: the AG
 * @agcount: number of AGs
 * @agblocks: blocks in every AG but the last
 * @dblocks: blocks in the data device
 *
 * The last AG holds what is left of @dblocks and may be a runt, much
 * smaller than the others.  The product is taken in 64 bits so that the
 * intermediate is exact; __xfs_ag_block_count() computes it in 32 bits,
 * where it wraps past 2^32 blocks, and is saved only by truncating the
 * result to 32 bits as well.
 *
 * Return: the AG's length in blocks, 0 if @agno is not an AG.
 */
uint32_t lbs_ag_block_count(uint32_t agno, uint32_t agcount,
			    uint32_t agblocks, uint64_t dblocks)
{
	if (agno >= agcount)
		return 0;
	if (agno < agcount - 1)
		return agblocks;
	return (uint32_t)(dblocks - (uint64_t)agno * agblocks);
}

/**
 * lbs_ag_log_blocks() - blocks of the internal log inside AG @agno
 * @agno: the AG
 * @agblklog: log2 of the AG size rounded up (sb_agblklog)
 * @logstart: first block of the internal log, 0 for an external log
 * @logblocks: log length in blocks
 *
 * The internal log is permanently allocated, so the AG that holds it has
 * that much less space for btree growth.
 *
 * Return: @logblocks if the log lives in @agno, otherwise 0.
 */
uint32_t lbs_ag_log_blocks(uint32_t agno, uint32_t agblklog,
			   uint64_t logstart, uint32_t logblocks)
{
	if (logstart == 0 || (logstart >> agblklog) != agno)
		return 0;
	return logblocks;
}

/**
 * lbs_btree_calc_size() - blocks of a short btree holding @records
 * @leaf_recs: records per leaf block
 * @node_recs: pointers per node block
 * @records: records to store
 *
 * As xfs_btree_calc_size(): with minimum fill (minrecs) this is the most
 * blocks the tree can need, which is what per-AG reservations ask for.
 *
 * Return: total blocks over all levels, 0 for impossible limits
 * (@leaf_recs == 0 or @node_recs < 2, which would never converge).
 */
uint64_t lbs_btree_calc_size(uint32_t leaf_recs, uint32_t node_recs,
			     uint64_t records)
{
	uint64_t level_blocks, blocks;

	if (leaf_recs == 0 || node_recs < 2)
		return 0;
	level_blocks = LBS_DIV_ROUND_UP_ULL(records, leaf_recs);
	blocks = level_blocks;
	while (level_blocks > 1) {
		level_blocks = LBS_DIV_ROUND_UP_ULL(level_blocks, node_recs);
		blocks += level_blocks;
	}
	return blocks;
}

/**
 * lbs_inobt_max_size() - blocks to reserve for an AG's inobt or finobt
 * @ag_blocks: length of the AG, from lbs_ag_block_count()
 * @log_blocks: internal log blocks in the AG, from lbs_ag_log_blocks()
 * @inopblock: inodes per block
 * @mnr_leaf: minimum records per leaf block (inobt_mnr[0])
 * @mnr_node: minimum pointers per node block (inobt_mnr[1])
 *
 * The reservation covers a tree indexing every inode the AG could hold,
 * built from minimally full blocks.  It must use the AG's own length: a
 * runt last AG sized like the others asks for more than it has.
 *
 * Return: blocks, 0 while the geometry is not set up (@mnr_leaf == 0).
 */
uint32_t lbs_inobt_max_size(uint32_t ag_blocks, uint32_t log_blocks,
			    uint32_t inopblock, uint32_t mnr_leaf,
			    uint32_t mnr_node)
{
	uint64_t blocks;

	if (mnr_leaf == 0)
		return 0;
	blocks = log_blocks < ag_blocks ? ag_blocks - log_blocks : 0;
	return (uint32_t)lbs_btree_calc_size(mnr_leaf, mnr_node,
			blocks * inopblock / LBS_INODES_PER_CHUNK);
}

/**
 * lbs_stat_blksize() - st_blksize for a file
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @rt_extsize: realtime extent size in bytes for realtime files, else 0
 * @largeio: the "largeio" mount option is set
 * @swidth: stripe width in bytes, 0 if none
 * @allocsize: "allocsize" mount option in bytes, 0 if not set
 *
 * Programs align I/O and fallocate ranges to st_blksize, and collapse or
 * insert range must be block aligned, so the default is never less than
 * the block size: max(page size, block size).
 *
 * Return: the preferred I/O size in bytes.
 */
uint32_t lbs_stat_blksize(uint32_t blkbits, uint32_t pshift,
			  uint32_t rt_extsize, bool largeio,
			  uint32_t swidth, uint32_t allocsize)
{
	if (rt_extsize)
		return rt_extsize;
	if (largeio) {
		if (swidth)
			return swidth;
		if (allocsize)
			return allocsize;
	}
	return 1U << LBS_MAX(blkbits, pshift);
}

/**
 * lbs_mount_blocksize() - may a filesystem with this block size mount
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @v5: the filesystem is V5 (CRC enabled)
 * @max_blkbits: log2 of the largest block size supported
 *
 * Block sizes above the page size are supported on V5 filesystems only,
 * up to @max_blkbits.
 *
 * Return: the verdict; see enum lbs_bs_verdict.
 */
enum lbs_bs_verdict lbs_mount_blocksize(uint32_t blkbits, uint32_t pshift,
					bool v5, uint32_t max_blkbits)
{
	if (blkbits <= pshift)
		return LBS_BS_OK;
	if (blkbits > max_blkbits)
		return LBS_BS_TOO_LARGE;
	if (!v5)
		return LBS_BS_NEED_V5;
	return LBS_BS_LARGE;
}

/**
 * lbs_large_folios_ok() - may the page cache use large folios of any order
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 *
 * Blocks no larger than a page keep large folios as before.  A block
 * larger than a page must be held whole by one large folio or be made of
 * order-0 pages that zero-around keeps whole (lbs_folio_order_ok()), so
 * such a file asks for large folios of whole blocks instead.
 *
 * Return: true if mapping_set_large_folios() will do; false if the file
 * needs mapping_set_large_folio_blocks().
 */
bool lbs_large_folios_ok(uint32_t blkbits, uint32_t pshift)
{
	return blkbits <= pshift;
}

/**
 * lbs_fsb_count_ok() - can the page cache index @nblocks blocks
 * @nblocks: blocks in the device
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page size
 * @max_index: largest page cache index (ULONG_MAX)
 *
 * The old check shifted @nblocks right by PAGE_SHIFT - blkbits, which is
 * negative when blocks are larger than pages.  Count bytes instead.
 *
 * Return: true if the device's bytes fit in @max_index pages (the kernel
 * refuses exactly @max_index + 1 pages, and so does this).
 */
bool lbs_fsb_count_ok(uint64_t nblocks, uint32_t blkbits, uint32_t pshift,
		      uint64_t max_index)
{
	if (nblocks > (UINT64_MAX >> blkbits))
		return false;
	return ((nblocks << blkbits) >> pshift) <= max_index;
}

/**
 * lbs_cowextsz_hint() - how far a COW fork reservation may reach
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page (folio) size
 * @hint: the inode's COW extent size hint in blocks (its cowextsize or
 *	extsize hint, or the default of 32 blocks)
 *
 * XFS rounds COW fork reservations out to the hint, so blocks that are not
 * shared but lie next to a shared one get COW blocks too, and writeback
 * sends any dirty page over them to the COW fork.  When a block is larger
 * than a page, pages dirtied before that reservation existed were
 * overwrites in place, not copied around: writeback would put only those
 * pages in the new block, and I/O completion would remap all of it over
 * the file's data.  So the reservation covers only the shared blocks the
 * write touches, each of which the write copies around whole.
 *
 * Return: the hint to use, in blocks: @hint, or 1 when blocks are larger
 * than pages.
 */
uint32_t lbs_cowextsz_hint(uint32_t blkbits, uint32_t pshift, uint32_t hint)
{
	return blkbits > pshift ? 1 : hint;
}
