// SPDX-License-Identifier: GPL-2.0
/*
 * Boundary vectors for the XFS geometry rules of core/xfs_geom.c.
 * Expected outputs come from the oracles (emit() calls oracle_call()).
 */
#include <stdint.h>

#include "gen_vectors.h"
#include "grid.h"

void gen_xfs(void)
{
	uint32_t i;

	blank();
	comment("ag_block_count: agno agcount agblocks dblocks = blocks (last AG: a runt)");
	{
		static const uint64_t g[][3] = {
			/* agcount agblocks dblocks */
			{ 1, 16384, 16384 }, { 1, 16384, 1 }, { 4, 65536, 262144 },
			{ 4, 65536, 196609 }, { 4, 65536, 262143 },
			{ 5, 16384, 65536 + 100 }, { 17, 0x7fffffff, 16ULL * 0x7fffffff + 1 },
			{ 3, 0xffffffff, 2ULL * 0xffffffff + 7 },
			{ 4097, 4096, 4096ULL * 4096 + 1 },
		};

		for (i = 0; i < NELEM(g); i++) {
			const uint64_t an[] = { 0, 1, g[i][0] - 2, g[i][0] - 1,
						g[i][0], g[i][0] + 1 };
			uint32_t a;

			for (a = 0; a < NELEM(an); a++)
				V("ag_block_count", an[a], g[i][0], g[i][1], g[i][2]);
		}
	}
	blank();
	comment("regression (6.1 __xfs_ag_block_count): dblocks - agno * sb_agblocks");
	comment("multiplies two 32-bit values, which wraps once the last AG starts");
	comment("past 2^32 blocks: 4k blocks, 20 AGs of 2^28 - 1 blocks (1 TiB),");
	comment("agno 19 starts at block 5100273645; 1k blocks, 2^29-block AGs, agno 8");
	comment("starts at exactly 2^32.  NOTE: 6.1 still returns the right count, as");
	comment("the wrap cancels in its 32-bit result; only the 64-bit intermediate");
	comment("is wrong (see test_regress.c)");
	R("ag_block_count", 19, 20, 268435455, 19ULL * 268435455 + 1000);
	R("ag_block_count", 18, 20, 268435455, 19ULL * 268435455 + 1000);
	R("ag_block_count", 8, 9, 536870912, 4294967296ULL + 12345);
	R("ag_block_count", 8, 9, 536870912, 4294967296ULL + 536870912);
	comment("regression (seed 002): the runt was dblocks %% agblocks, which is 0");
	comment("when dblocks is a multiple of agblocks: the last AG is then full");
	R("ag_block_count", 3, 4, 65536, 262144);
	R("ag_block_count", 0, 1, 65536, 65536);

	blank();
	comment("ag_log_blocks: agno agblklog logstart logblocks = blocks");
	{
		static const uint64_t l[][3] = {
			/* agblklog logstart logblocks; from mkfs.xfs images */
			{ 16, 131078, 16384 }, { 16, 65536, 2560 },
			{ 16, 65535, 2560 }, { 16, 131072, 2560 },
			{ 13, 8196, 1024 }, { 30, 2147483655ULL, 1048576 },
			{ 16, 0, 16384 }, { 31, 0xffffffffULL, 100 },
			{ 32, 0x100000000ULL, 100 },
		};

		for (i = 0; i < NELEM(l); i++) {
			uint32_t a;

			for (a = 0; a < 4; a++)
				V("ag_log_blocks", a, l[i][0], l[i][1], l[i][2]);
		}
	}

	blank();
	comment("btree_calc_size: leaf_recs node_recs records = blocks");
	comment("  (the inobt values agree with xfs_db btheight -w min)");
	{
		static const uint64_t bt[][3] = {
			{ 126, 252, 1000000 }, { 126, 252, 0 }, { 126, 252, 1 },
			{ 126, 252, 126 }, { 126, 252, 127 }, { 126, 252, 126 * 252 },
			{ 126, 252, 126 * 252 + 1 }, { 2044, 4088, 1ULL << 32 },
			{ 2044, 4088, 2044 }, { 2044, 4088, 2045 },
			{ 1, 2, 1 }, { 1, 2, 2 }, { 1, 2, 3 }, { 1, 2, 1024 },
			{ 1, 2, 1025 }, { 3, 2, 17 }, { 0, 2, 10 }, { 5, 1, 10 },
			{ 5, 0, 10 }, { 1, 2, 1ULL << 62 },
			{ 0xffffffff, 0xffffffff, 1ULL << 62 },
		};

		for (i = 0; i < NELEM(bt); i++)
			V("btree_calc_size", bt[i][0], bt[i][1], bt[i][2]);
	}

	blank();
	comment("inobt_max_size: ag_blocks log_blocks inopblock mnr_leaf mnr_node = blocks");
	{
		static const uint64_t ib[][5] = {
			{ 65536, 0, 8, 126, 252 }, { 65536, 16384, 8, 126, 252 },
			{ 16, 0, 8, 126, 252 }, { 100, 200, 8, 126, 252 },
			{ 100, 100, 8, 126, 252 }, { 0, 0, 8, 126, 252 },
			{ 1048576, 0, 128, 2044, 4088 }, { 17, 0, 128, 2044, 4088 },
			{ 65536, 0, 8, 0, 0 }, { 0xffffffff, 0, 256, 1, 2 },
			{ 0xffffffff, 0xfffffffe, 256, 1, 2 },
		};

		for (i = 0; i < NELEM(ib); i++)
			V("inobt_max_size", ib[i][0], ib[i][1], ib[i][2], ib[i][3], ib[i][4]);
		comment("regression (seed 002): a runt last AG sized like the others asks");
		comment("for more than it has; the reservation uses the AG's own length");
		R("inobt_max_size", 100, 0, 8, 126, 252);
		R("inobt_max_size", 65536, 0, 8, 126, 252);
	}

	blank();
	comment("stat_blksize: blkbits pshift rt_extsize largeio swidth allocsize = bytes");
	{
		uint32_t b, p;

		for (b = 9; b <= 16; b++)
			for (p = 12; p <= 16; p += 2)
				V("stat_blksize", b, p, 0, 0, 0, 0);
		V("stat_blksize", 16, 12, 1048576, 0, 0, 0);
		V("stat_blksize", 16, 12, 0, 1, 262144, 0);
		V("stat_blksize", 16, 12, 0, 1, 0, 131072);
		V("stat_blksize", 16, 12, 0, 1, 262144, 131072);
		V("stat_blksize", 16, 12, 0, 1, 0, 0);
		V("stat_blksize", 16, 12, 0, 0, 262144, 131072);
		V("stat_blksize", 12, 12, 0, 1, 4096 * 4, 0);
		comment("regression (6.1 xfs_stat_blksize): PAGE_SIZE even at bs 64k;");
		comment("st_blksize is never below the block size");
		R("stat_blksize", 16, 12, 0, 0, 0, 0);
		R("stat_blksize", 13, 12, 0, 0, 0, 0);
	}

	blank();
	comment("mount_blocksize: blkbits pshift v5 max_blkbits = 0 ok, 1 large, 2 need v5, 3 too large");
	{
		static const uint32_t bv[] = { 9, 12, 13, 16, 17 };
		static const uint32_t pv[] = { 12, 14, 16 };
		uint32_t a, p, v;

		for (a = 0; a < NELEM(bv); a++)
			for (p = 0; p < NELEM(pv); p++)
				for (v = 0; v < 2; v++) {
					V("mount_blocksize", bv[a], pv[p], v, 16);
					if (bv[a] > pv[p])
						V("mount_blocksize", bv[a], pv[p], v, bv[a] - 1);
				}
	}

	blank();
	comment("fsb_count_ok: nblocks blkbits pshift max_index = bool");
	{
		const uint64_t m32 = 0xffffffffULL;

		V("fsb_count_ok", 0, 12, 12, m32);
		V("fsb_count_ok", m32, 12, 12, m32);
		V("fsb_count_ok", m32 + 1, 12, 12, m32);
		V("fsb_count_ok", (m32 + 1) * 8 - 1, 9, 12, m32);
		V("fsb_count_ok", (m32 + 1) * 8, 9, 12, m32);
		V("fsb_count_ok", (m32 + 1) / 16 - 1, 16, 12, m32);
		V("fsb_count_ok", (m32 + 1) / 16, 16, 12, m32);
		V("fsb_count_ok", (m32 + 1) / 16 + 1, 16, 12, m32);
		V("fsb_count_ok", (m32 + 1) / 4, 16, 14, m32);
		V("fsb_count_ok", (m32 + 1) / 4 - 1, 16, 14, m32);
		V("fsb_count_ok", UINT64_MAX >> 16, 16, 12, UINT64_MAX);
		V("fsb_count_ok", (UINT64_MAX >> 16) + 1, 16, 12, UINT64_MAX);
		V("fsb_count_ok", UINT64_MAX >> 12, 12, 12, UINT64_MAX);
		V("fsb_count_ok", (UINT64_MAX >> 12) + 1, 12, 12, UINT64_MAX);
		V("fsb_count_ok", UINT64_MAX, 9, 12, UINT64_MAX);
		V("fsb_count_ok", 1ULL << 40, 16, 12, UINT64_MAX);
		comment("regression (6.1 xfs_sb_validate_fsb_count): nblocks >> (PAGE_SHIFT");
		comment("- blocklog) is a negative shift when blocks are larger than pages");
		comment("(and the ASSERT before it BUG()s).  With a 32-bit index (max_index");
		comment("2^32 - 1) 2^28 - 1 64k blocks pass and 2^28 do not: the page");
		comment("count may not pass the largest index, as the old check counted");
		R("fsb_count_ok", (1ULL << 28) - 1, 16, 12, m32);
		R("fsb_count_ok", 1ULL << 28, 16, 12, m32);
		R("fsb_count_ok", 1ULL << 29, 16, 12, m32);
		R("fsb_count_ok", 1ULL << 32, 16, 12, UINT64_MAX);
	}

	blank();
	comment("cowextsz_hint: blkbits pshift hint = blocks");
	{
		static const uint32_t hints[] = { 1, 32, 33, 1u << 21 };
		uint32_t b, h;

		/* on, below and above the page size of 4k and of 16k */
		for (b = 11; b <= 16; b++)
			for (h = 0; h < 4; h++) {
				V("cowextsz_hint", b, 12, hints[h]);
				V("cowextsz_hint", b, 14, hints[h]);
			}
		comment("regression: generic/263 and 091 at 64k on the series");
		comment("before patch 25: writeback put the in-place dirty pages of");
		comment("a block next to a COWed one into a COW block of the default");
		comment("32-block window, and completion remapped the block whole");
		R("cowextsz_hint", 16, 12, 32);
		R("cowextsz_hint", 13, 12, 32);
	}
}
