// SPDX-License-Identifier: GPL-2.0
/*
 * Dispatch a test vector to the core function it names.  The layout of
 * inputs and outputs per function is documented in tests/vec/README.md.
 */
#include <string.h>

#include "lbs_vec.h"
#include "lbs_iomap.h"
#include "lbs_xfs.h"
#include "lbs_folio.h"

/* inputs each function takes; a vector with another count is malformed */
static const struct {
	const char *fn;
	uint32_t nin;
} lbs_vec_arity[] = {
	{ "block_start", 2 },		{ "block_end", 2 },
	{ "block_offset", 2 },		{ "block_round_up", 2 },
	{ "pages_per_block", 2 },
	{ "pageblock_bits", 2 },	{ "pageblock_size", 2 },
	{ "units_per_folio", 2 },	{ "pageblock_index", 3 },
	{ "pageblock_range", 4 },
	{ "adjust_read_range", 8 },	{ "truncate_page_len", 3 },
	{ "zero_may_mark_uptodate", 4 }, { "need_zero_around", 4 },
	{ "zero_around", 5 },		{ "dio_zero_pads", 5 },
	{ "dio_zero_nr_segs", 2 },	{ "dio_zero_seg_len", 3 },
	{ "post_eof_range", 3 },	{ "need_copy_around", 3 },
	{ "fill_from_source", 4 },	{ "unshare_range", 5 },
	{ "round_range", 4 },		{ "flush_unmap_range", 4 },
	{ "wb_round", 6 },		{ "wb_round_index", 3 },
	{ "wb_may_stop", 3 },		{ "falloc_aligned", 3 },
	{ "ag_block_count", 4 },	{ "ag_log_blocks", 4 },
	{ "btree_calc_size", 3 },	{ "inobt_max_size", 5 },
	{ "stat_blksize", 6 },		{ "mount_blocksize", 4 },
	{ "fsb_count_ok", 4 },		{ "cowextsz_hint", 3 },
	{ "large_folios_ok", 2 },	{ "short_copy_range", 5 },
	{ "settle_edges", 4 },		{ "settle_range", 5 },
	{ "folio_min_order", 2 },	{ "folio_order_ok", 3 },
	{ "folio_covers_block", 5 },	{ "ra_start_order", 5 },
	{ "ra_folio_order", 5 },	{ "write_folio", 5 },
	{ "folio_order_fallback", 3 },
};

static uint64_t lbs_vec_bool(bool b)
{
	return b ? 1 : 0;
}

static int lbs_vec_iomap(const char *fn, const uint64_t *in, uint64_t *out)
{
	uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];

	if (!strcmp(fn, "block_start")) {
		out[0] = lbs_block_start(a, in[1]);
		return 1;
	}
	if (!strcmp(fn, "block_end")) {
		out[0] = lbs_block_end(a, in[1]);
		return 1;
	}
	if (!strcmp(fn, "block_offset")) {
		out[0] = lbs_block_offset(a, in[1]);
		return 1;
	}
	if (!strcmp(fn, "block_round_up")) {
		out[0] = lbs_block_round_up(a, in[1]);
		return 1;
	}
	if (!strcmp(fn, "pages_per_block")) {
		out[0] = lbs_pages_per_block(a, b);
		return 1;
	}
	if (!strcmp(fn, "pageblock_bits")) {
		out[0] = lbs_pageblock_bits(a, b);
		return 1;
	}
	if (!strcmp(fn, "pageblock_size")) {
		out[0] = lbs_pageblock_size(a, b);
		return 1;
	}
	if (!strcmp(fn, "units_per_folio")) {
		out[0] = lbs_units_per_folio(a, b);
		return 1;
	}
	if (!strcmp(fn, "pageblock_index")) {
		out[0] = lbs_pageblock_index(a, b, in[2]);
		return 1;
	}
	if (!strcmp(fn, "pageblock_range")) {
		lbs_pageblock_range(a, b, in[2], in[3], &out[0], &out[1]);
		return 2;
	}
	if (!strcmp(fn, "adjust_read_range")) {
		unsigned long map[64 / (8 * sizeof(unsigned long))] = { 0 };
		uint32_t bpl = 8 * sizeof(unsigned long);
		uint64_t pos = in[6];
		uint32_t off, len, i;

		for (i = 0; i < 64; i++)
			if (in[5] & ((uint64_t)1 << i))
				map[i / bpl] |= 1UL << (i % bpl);
		lbs_adjust_read_range(a, b, in[2], in[3], in[4] ? map : NULL,
				      &pos, in[7], &off, &len);
		out[0] = pos;
		out[1] = off;
		out[2] = len;
		return 3;
	}
	if (!strcmp(fn, "truncate_page_len")) {
		out[0] = lbs_truncate_page_len(a, b, in[2]);
		return 1;
	}
	if (!strcmp(fn, "zero_may_mark_uptodate")) {
		out[0] = lbs_vec_bool(lbs_zero_may_mark_uptodate(a, b,
				(uint32_t)in[2], (uint32_t)in[3]));
		return 1;
	}
	if (!strcmp(fn, "need_zero_around")) {
		out[0] = lbs_vec_bool(lbs_need_zero_around(a, b,
				(enum lbs_map_type)in[2], in[3] != 0));
		return 1;
	}
	if (!strcmp(fn, "zero_around")) {
		struct lbs_zero_around za;

		out[0] = lbs_vec_bool(lbs_zero_around(a, b, in[2], in[3],
						      in[4], &za));
		out[1] = za.head_pos;
		out[2] = za.head_len;
		out[3] = za.tail_pos;
		out[4] = za.tail_len;
		out[5] = za.post_eof_pos;
		out[6] = za.post_eof_len;
		return 7;
	}
	if (!strcmp(fn, "post_eof_range")) {
		out[0] = lbs_vec_bool(lbs_post_eof_range(a, b, in[2], &out[1],
							 &out[2]));
		return 3;
	}
	if (!strcmp(fn, "short_copy_range")) {
		out[0] = lbs_vec_bool(lbs_short_copy_range(a, b, in[2], in[3],
							   in[4], &out[1],
							   &out[2]));
		return 3;
	}
	if (!strcmp(fn, "settle_edges")) {
		out[0] = lbs_settle_edges(a, b, in[2], in[3], &out[1], &out[2]);
		return 3;
	}
	if (!strcmp(fn, "settle_range")) {
		out[0] = lbs_vec_bool(lbs_settle_range(a, b, in[2], in[3],
						       (uint32_t)in[4], &out[1],
						       &out[2]));
		return 3;
	}
	if (!strcmp(fn, "need_copy_around")) {
		out[0] = lbs_vec_bool(lbs_need_copy_around(a, b, in[2] != 0));
		return 1;
	}
	if (!strcmp(fn, "fill_from_source")) {
		out[0] = lbs_vec_bool(lbs_fill_from_source((enum lbs_map_type)a,
							   in[1] != 0, in[2],
							   in[3]));
		return 1;
	}
	if (!strcmp(fn, "unshare_range")) {
		out[0] = lbs_vec_bool(lbs_unshare_range(a, b, in[2], in[3],
							in[4], &out[1],
							&out[2]));
		return 3;
	}
	if (!strcmp(fn, "dio_zero_pads")) {
		struct lbs_dio_pads p;

		lbs_dio_zero_pads(a, in[1], in[2], in[3], in[4] != 0, &p);
		out[0] = p.head_pos;
		out[1] = p.head_len;
		out[2] = p.tail_pos;
		out[3] = p.tail_len;
		return 4;
	}
	if (!strcmp(fn, "dio_zero_nr_segs")) {
		out[0] = lbs_dio_zero_nr_segs(a, b);
		return 1;
	}
	if (!strcmp(fn, "dio_zero_seg_len")) {
		out[0] = lbs_dio_zero_seg_len(a, b, (uint32_t)in[2]);
		return 1;
	}
	if (!strcmp(fn, "round_range")) {
		out[0] = lbs_vec_bool(lbs_round_range(a, b, in[2], in[3],
						      &out[1], &out[2]));
		return 3;
	}
	if (!strcmp(fn, "flush_unmap_range")) {
		out[0] = lbs_vec_bool(lbs_flush_unmap_range(a, b, in[2], in[3],
							    &out[1], &out[2]));
		return 3;
	}
	if (!strcmp(fn, "wb_round")) {
		struct lbs_wb_range r;

		lbs_wb_round(a, b, in[2], in[3], (int64_t)in[4],
			     (int64_t)in[5], &r);
		out[0] = r.start;
		out[1] = r.end;
		out[2] = (uint64_t)r.nr_to_write;
		out[3] = (uint64_t)r.nr_added;
		return 4;
	}
	if (!strcmp(fn, "wb_round_index")) {
		out[0] = lbs_wb_round_index(a, b, in[2]);
		return 1;
	}
	if (!strcmp(fn, "wb_may_stop")) {
		out[0] = lbs_vec_bool(lbs_wb_may_stop(a, b, in[2]));
		return 1;
	}
	if (!strcmp(fn, "falloc_aligned")) {
		out[0] = lbs_vec_bool(lbs_falloc_aligned(a, in[1], in[2]));
		return 1;
	}
	return -1;
}

static int lbs_vec_xfs(const char *fn, const uint64_t *in, uint64_t *out)
{
	uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];

	if (!strcmp(fn, "ag_block_count")) {
		out[0] = lbs_ag_block_count(a, b, (uint32_t)in[2], in[3]);
		return 1;
	}
	if (!strcmp(fn, "ag_log_blocks")) {
		out[0] = lbs_ag_log_blocks(a, b, in[2], (uint32_t)in[3]);
		return 1;
	}
	if (!strcmp(fn, "btree_calc_size")) {
		out[0] = lbs_btree_calc_size(a, b, in[2]);
		return 1;
	}
	if (!strcmp(fn, "inobt_max_size")) {
		out[0] = lbs_inobt_max_size(a, b, (uint32_t)in[2],
					    (uint32_t)in[3], (uint32_t)in[4]);
		return 1;
	}
	if (!strcmp(fn, "stat_blksize")) {
		out[0] = lbs_stat_blksize(a, b, (uint32_t)in[2], in[3] != 0,
					  (uint32_t)in[4], (uint32_t)in[5]);
		return 1;
	}
	if (!strcmp(fn, "mount_blocksize")) {
		out[0] = lbs_mount_blocksize(a, b, in[2] != 0,
					     (uint32_t)in[3]);
		return 1;
	}
	if (!strcmp(fn, "fsb_count_ok")) {
		out[0] = lbs_vec_bool(lbs_fsb_count_ok(in[0], b,
						       (uint32_t)in[2], in[3]));
		return 1;
	}
	if (!strcmp(fn, "large_folios_ok")) {
		out[0] = lbs_vec_bool(lbs_large_folios_ok(a, b));
		return 1;
	}
	if (!strcmp(fn, "cowextsz_hint")) {
		out[0] = lbs_cowextsz_hint(a, b, (uint32_t)in[2]);
		return 1;
	}
	return -1;
}

static int lbs_vec_folio(const char *fn, const uint64_t *in, uint64_t *out)
{
	uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1], o;

	if (!strcmp(fn, "folio_min_order")) {
		out[0] = lbs_folio_min_order(a, b);
		return 1;
	}
	if (!strcmp(fn, "folio_order_ok")) {
		out[0] = lbs_vec_bool(lbs_folio_order_ok(a, b, (uint32_t)in[2]));
		return 1;
	}
	if (!strcmp(fn, "folio_covers_block")) {
		out[0] = lbs_vec_bool(lbs_folio_covers_block(a, b, in[2],
							     (uint32_t)in[3],
							     in[4]));
		return 1;
	}
	if (!strcmp(fn, "ra_start_order")) {
		out[0] = lbs_ra_start_order(a, b, (uint32_t)in[2],
					    (uint32_t)in[3], (uint32_t)in[4]);
		return 1;
	}
	if (!strcmp(fn, "ra_folio_order")) {
		out[0] = lbs_ra_folio_order(a, b, in[2], in[3],
					    (uint32_t)in[4]);
		return 1;
	}
	if (!strcmp(fn, "write_folio")) {
		lbs_write_folio(a, b, in[2], in[3], (uint32_t)in[4], &out[0],
				&o);
		out[1] = o;
		return 2;
	}
	if (!strcmp(fn, "folio_order_fallback")) {
		out[0] = lbs_vec_bool(lbs_folio_order_fallback(a, b,
							       (uint32_t)in[2],
							       &o));
		out[1] = o;
		return 2;
	}
	return -1;
}

/**
 * lbs_vec_call() - call the core function a vector names
 * @fn: function name without the lbs_ prefix
 * @nin: number of inputs supplied; all LBS_VEC_MAX slots must be readable
 * @in: inputs
 * @out: outputs, LBS_VEC_MAX slots
 *
 * Return: number of outputs written, or -1 if @fn is unknown or takes
 * another number of inputs.
 */
int lbs_vec_call(const char *fn, uint32_t nin, const uint64_t *in,
		 uint64_t *out)
{
	uint32_t i;
	int n;

	for (i = 0; i < sizeof(lbs_vec_arity) / sizeof(lbs_vec_arity[0]); i++)
		if (!strcmp(fn, lbs_vec_arity[i].fn))
			break;
	if (i == sizeof(lbs_vec_arity) / sizeof(lbs_vec_arity[0]) ||
	    nin != lbs_vec_arity[i].nin)
		return -1;
	n = lbs_vec_iomap(fn, in, out);
	if (n < 0)
		n = lbs_vec_xfs(fn, in, out);
	if (n < 0)
		n = lbs_vec_folio(fn, in, out);
	return n;
}
