// SPDX-License-Identifier: GPL-2.0
/*
 * oracle_call(): the flat calling convention of lbs_vec_call() over the
 * brute-force oracles.  The arity table here is the oracles' own, written
 * from tests/vec/README.md, so a dispatcher that disagrees is caught.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "oracle_int.h"
#include "oracle_walk.h"

static const struct {
	const char *fn;
	uint32_t nin;
	uint32_t nout;
	int (*call)(const uint64_t *in, uint64_t *out);
} oracle_fns[] = {
	{ "block_start",		2, 1, o_block_start },
	{ "block_end",			2, 1, o_block_end },
	{ "block_offset",		2, 1, o_block_offset },
	{ "block_round_up",		2, 1, o_block_round_up },
	{ "pages_per_block",		2, 1, o_pages_per_block },
	{ "pageblock_bits",		2, 1, o_pageblock_bits },
	{ "pageblock_size",		2, 1, o_pageblock_size },
	{ "units_per_folio",		2, 1, o_units_per_folio },
	{ "pageblock_index",		3, 1, o_pageblock_index },
	{ "pageblock_range",		4, 2, o_pageblock_range },
	{ "adjust_read_range",		8, 3, o_adjust_read_range },
	{ "truncate_page_len",		3, 1, o_truncate_page_len },
	{ "zero_may_mark_uptodate",	4, 1, o_zero_may_mark_uptodate },
	{ "need_zero_around",		4, 1, o_need_zero_around },
	{ "zero_around",		5, 7, o_zero_around },
	{ "post_eof_range",		3, 3, o_post_eof_range },
	{ "short_copy_range",		5, 3, o_short_copy_range },
	{ "settle_edges",		4, 3, o_settle_edges },
	{ "settle_range",		5, 3, o_settle_range },
	{ "need_copy_around",		3, 1, o_need_copy_around },
	{ "fill_from_source",		4, 1, o_fill_from_source },
	{ "unshare_range",		5, 3, o_unshare_range },
	{ "dio_zero_pads",		5, 4, o_dio_zero_pads },
	{ "dio_zero_nr_segs",		2, 1, o_dio_zero_nr_segs },
	{ "dio_zero_seg_len",		3, 1, o_dio_zero_seg_len },
	{ "round_range",		4, 3, o_round_range },
	{ "flush_unmap_range",		4, 3, o_flush_unmap_range },
	{ "wb_round",			6, 4, o_wb_round },
	{ "wb_round_index",		3, 1, o_wb_round_index },
	{ "wb_may_stop",		3, 1, o_wb_may_stop },
	{ "falloc_aligned",		3, 1, o_falloc_aligned },
	{ "ag_block_count",		4, 1, o_ag_block_count },
	{ "ag_log_blocks",		4, 1, o_ag_log_blocks },
	{ "btree_calc_size",		3, 1, o_btree_calc_size },
	{ "inobt_max_size",		5, 1, o_inobt_max_size },
	{ "stat_blksize",		6, 1, o_stat_blksize },
	{ "mount_blocksize",		4, 1, o_mount_blocksize },
	{ "large_folios_ok",		2, 1, o_large_folios_ok },
	{ "fsb_count_ok",		4, 1, o_fsb_count_ok },
	{ "cowextsz_hint",		3, 1, o_cowextsz_hint },
	{ "folio_min_order",		2, 1, o_folio_min_order },
	{ "folio_order_ok",		3, 1, o_folio_order_ok },
	{ "folio_covers_block",		5, 1, o_folio_covers_block },
	{ "ra_start_order",		5, 1, o_ra_start_order },
	{ "ra_folio_order",		5, 1, o_ra_folio_order },
	{ "write_folio",		5, 2, o_write_folio },
	{ "folio_order_fallback",	3, 2, o_folio_order_fallback },
};

#define ORACLE_NFNS (sizeof(oracle_fns) / sizeof(oracle_fns[0]))

static int oracle_find(const char *fn)
{
	uint32_t i;

	for (i = 0; i < ORACLE_NFNS; i++)
		if (!strcmp(fn, oracle_fns[i].fn))
			return (int)i;
	return -1;
}

int oracle_arity(const char *fn, uint32_t *nin, uint32_t *nout)
{
	int i = oracle_find(fn);

	if (i < 0)
		return -1;
	*nin = oracle_fns[i].nin;
	*nout = oracle_fns[i].nout;
	return 0;
}

const char *oracle_fn_name(uint32_t i)
{
	return i < ORACLE_NFNS ? oracle_fns[i].fn : NULL;
}

int oracle_call(const char *fn, uint32_t nin, const uint64_t *in,
		uint64_t *out)
{
	uint64_t cin[8] = { 0 };
	int i = oracle_find(fn), n;
	uint32_t j;

	if (i < 0 || nin != oracle_fns[i].nin)
		return ORACLE_UNKNOWN;
	for (j = 0; j < nin; j++)
		cin[j] = in[j];
	n = oracle_fns[i].call(cin, out);
	if (n >= 0 && (uint32_t)n != oracle_fns[i].nout)
		oracle_bug("%s wrote %d outputs", fn, n);
	return n;
}

uint64_t oracle_selftest(void)
{
	static const uint64_t steps[] = { 1, 2, 3, 7, 512, 4096, 65536,
					  1000003, (uint64_t)1 << 33 };
	uint64_t bad = 0, x, n1, n2, f1, f2;
	uint32_t i, s;

	for (s = 0; s < 40; s++)
		if (ow_pow2(s) != (uint64_t)1 << s)
			bad++;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		/* the strided walk against the plain walk */
		for (x = 0; x < 70000; x += (x < 5000 ? 1 : 97)) {
			f1 = ow_floor(x, steps[i], &n1);
			f2 = ow_floor_slow(x, steps[i], &n2);
			if (f1 != f2 || n1 != n2 || ow_steps(n1, steps[i]) != f1)
				bad++;
		}
		/* far away, against division */
		for (x = UINT64_MAX; x > 1000; x = x / 3 * 2) {
			f1 = ow_floor(x, steps[i], &n1);
			if (n1 != x / steps[i] || f1 != n1 * steps[i] ||
			    ow_steps(n1, steps[i]) != f1)
				bad++;
		}
	}
	return bad;
}
