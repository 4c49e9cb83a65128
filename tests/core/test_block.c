// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive comparison of core/block.c and lbs_large_folios_ok() (through
 * lbs_vec_call()) with the oracles: every byte offset of the first four
 * blocks at bs 512..64k, every block edge +-1 near 2^40 and near 2^63 at
 * bs 512..1M, and every block and page shift pair.
 *
 * Usage: test_block
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmp.h"
#include "grid.h"

static const char *const block_fns[] = {
	"block_start", "block_end", "block_offset", "block_round_up",
};

/* blkbits pos: all of the first blocks, then the edges far away */
static void block_fn(const char *fn)
{
	static const uint64_t far[] = {
		(uint64_t)1 << 40,
		((uint64_t)1 << 62) + ((uint64_t)1 << 40),
	};
	struct cmp c = { fn, 0, 0, 0 };
	uint32_t b;

	for (b = 9; b <= 20; b++) {
		struct pts p = { 0 };
		uint64_t x;
		size_t i;

		if (b <= 16)
			for (x = 0; x <= 4 * sz(b); x++)
				CMP(&c, b, x);
		for (i = 0; i < NELEM(far); i++)
			pts_edges(&p, far[i] - 2 * sz(b), sz(b), 4);
		pts_edges(&p, LOFF_END - 3 * sz(b), sz(b), 3);
		pts_edges(&p, 0, sz(b), 8);
		pts_add(&p, UINT64_MAX);
		pts_done(&p);
		for (i = 0; i < p.n; i++)
			CMP(&c, b, p.v[i]);
		pts_free(&p);
	}
	/* shifts outside the domain must be refused, not compared */
	CMP(&c, 8, 0);
	CMP(&c, 21, 0);
	cmp_report(&c);
}

static void t_block_start(void **state)
{
	(void)state;
	block_fn(block_fns[0]);
}

static void t_block_end(void **state)
{
	(void)state;
	block_fn(block_fns[1]);
}

static void t_block_offset(void **state)
{
	(void)state;
	block_fn(block_fns[2]);
}

static void t_block_round_up(void **state)
{
	(void)state;
	block_fn(block_fns[3]);
}

static void t_pages_per_block(void **state)
{
	struct cmp c = { "pages_per_block", 0, 0, 0 };
	uint32_t b, p;

	(void)state;
	for (b = 9; b <= 20; b++)
		for (p = 12; p <= 21; p++)
			CMP(&c, b, p);
	cmp_report(&c);
}

static void t_large_folios_ok(void **state)
{
	struct cmp c = { "large_folios_ok", 0, 0, 0 };
	uint32_t b, p;

	(void)state;
	for (b = 9; b <= 31; b++)
		for (p = 12; p <= 21; p++)
			CMP(&c, b, p);
	cmp_report(&c);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_block_start),
		cmocka_unit_test(t_block_end),
		cmocka_unit_test(t_block_offset),
		cmocka_unit_test(t_block_round_up),
		cmocka_unit_test(t_pages_per_block),
		cmocka_unit_test(t_large_folios_ok),
	};

	return cmocka_run_group_tests_name("block", tests, NULL, NULL);
}
