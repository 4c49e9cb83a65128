/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XFS geometry rules for block size > page size: AG sizes for per-AG
 * reservations, stat's preferred I/O size, the mount-time block size
 * and block count checks, the large folio policy, and the reach of COW
 * fork reservations.
 */
#ifndef LBS_XFS_H
#define LBS_XFS_H

#include <stdint.h>
#include <stdbool.h>

/**
 * enum lbs_bs_verdict - may a filesystem with this block size be mounted
 * @LBS_BS_OK: block size <= page size, supported as before
 * @LBS_BS_LARGE: block size > page size, supported but experimental
 * @LBS_BS_NEED_V5: block size > page size on a V4 filesystem
 * @LBS_BS_TOO_LARGE: block size above the supported maximum
 */
enum lbs_bs_verdict {
	LBS_BS_OK,
	LBS_BS_LARGE,
	LBS_BS_NEED_V5,
	LBS_BS_TOO_LARGE,
};

uint32_t lbs_ag_block_count(uint32_t agno, uint32_t agcount,
			    uint32_t agblocks, uint64_t dblocks);
uint32_t lbs_ag_log_blocks(uint32_t agno, uint32_t agblklog,
			   uint64_t logstart, uint32_t logblocks);
uint64_t lbs_btree_calc_size(uint32_t leaf_recs, uint32_t node_recs,
			     uint64_t records);
uint32_t lbs_inobt_max_size(uint32_t ag_blocks, uint32_t log_blocks,
			    uint32_t inopblock, uint32_t mnr_leaf,
			    uint32_t mnr_node);
uint32_t lbs_stat_blksize(uint32_t blkbits, uint32_t pshift,
			  uint32_t rt_extsize, bool largeio,
			  uint32_t swidth, uint32_t allocsize);
enum lbs_bs_verdict lbs_mount_blocksize(uint32_t blkbits, uint32_t pshift,
					bool v5, uint32_t max_blkbits);
bool lbs_large_folios_ok(uint32_t blkbits, uint32_t pshift);
bool lbs_fsb_count_ok(uint64_t nblocks, uint32_t blkbits, uint32_t pshift,
		      uint64_t max_index);
uint32_t lbs_cowextsz_hint(uint32_t blkbits, uint32_t pshift, uint32_t hint);

#endif /* LBS_XFS_H */
