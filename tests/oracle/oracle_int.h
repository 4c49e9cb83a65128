/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interface between oracle.c and the per-area oracle files. */
#ifndef LBS_ORACLE_INT_H
#define LBS_ORACLE_INT_H

#include <stdint.h>
#include <stdbool.h>

/* the model contradicted itself: a bug in the oracle, not in core */
#define oracle_bug(...) do {						\
	fprintf(stderr, "oracle bug: " __VA_ARGS__);			\
	fprintf(stderr, "\n");						\
	abort();							\
} while (0)

#define O_INT64_MAX	((uint64_t)INT64_MAX)
/* file offsets are loff_t: at most 2^63 bytes */
#define O_LOFF_END	((uint64_t)1 + O_INT64_MAX)

static inline bool o_blkbits_ok(uint64_t b)
{
	return b >= 9 && b <= 20;
}

static inline bool o_pshift_ok(uint64_t s)
{
	return s >= 12 && s <= 21;
}

int o_block_start(const uint64_t *in, uint64_t *out);
int o_block_end(const uint64_t *in, uint64_t *out);
int o_block_offset(const uint64_t *in, uint64_t *out);
int o_block_round_up(const uint64_t *in, uint64_t *out);
int o_pages_per_block(const uint64_t *in, uint64_t *out);
int o_pageblock_bits(const uint64_t *in, uint64_t *out);
int o_pageblock_size(const uint64_t *in, uint64_t *out);
int o_units_per_folio(const uint64_t *in, uint64_t *out);
int o_pageblock_index(const uint64_t *in, uint64_t *out);
int o_pageblock_range(const uint64_t *in, uint64_t *out);
int o_adjust_read_range(const uint64_t *in, uint64_t *out);
int o_truncate_page_len(const uint64_t *in, uint64_t *out);
int o_zero_may_mark_uptodate(const uint64_t *in, uint64_t *out);
int o_need_zero_around(const uint64_t *in, uint64_t *out);
int o_zero_around(const uint64_t *in, uint64_t *out);
int o_dio_zero_pads(const uint64_t *in, uint64_t *out);
int o_dio_zero_nr_segs(const uint64_t *in, uint64_t *out);
int o_dio_zero_seg_len(const uint64_t *in, uint64_t *out);
int o_round_range(const uint64_t *in, uint64_t *out);
int o_flush_unmap_range(const uint64_t *in, uint64_t *out);
int o_wb_round(const uint64_t *in, uint64_t *out);
int o_wb_round_index(const uint64_t *in, uint64_t *out);
int o_wb_may_stop(const uint64_t *in, uint64_t *out);
int o_falloc_aligned(const uint64_t *in, uint64_t *out);
int o_post_eof_range(const uint64_t *in, uint64_t *out);
int o_short_copy_range(const uint64_t *in, uint64_t *out);
int o_settle_edges(const uint64_t *in, uint64_t *out);
int o_settle_range(const uint64_t *in, uint64_t *out);
int o_need_copy_around(const uint64_t *in, uint64_t *out);
int o_fill_from_source(const uint64_t *in, uint64_t *out);
int o_unshare_range(const uint64_t *in, uint64_t *out);
int o_folio_min_order(const uint64_t *in, uint64_t *out);
int o_folio_order_ok(const uint64_t *in, uint64_t *out);
int o_folio_covers_block(const uint64_t *in, uint64_t *out);
int o_ra_start_order(const uint64_t *in, uint64_t *out);
int o_ra_folio_order(const uint64_t *in, uint64_t *out);
int o_write_folio(const uint64_t *in, uint64_t *out);
int o_folio_order_fallback(const uint64_t *in, uint64_t *out);

int o_ag_block_count(const uint64_t *in, uint64_t *out);
int o_ag_log_blocks(const uint64_t *in, uint64_t *out);
int o_btree_calc_size(const uint64_t *in, uint64_t *out);
int o_inobt_max_size(const uint64_t *in, uint64_t *out);
int o_stat_blksize(const uint64_t *in, uint64_t *out);
int o_mount_blocksize(const uint64_t *in, uint64_t *out);
int o_large_folios_ok(const uint64_t *in, uint64_t *out);
int o_fsb_count_ok(const uint64_t *in, uint64_t *out);
int o_cowextsz_hint(const uint64_t *in, uint64_t *out);

#endif /* LBS_ORACLE_INT_H */
