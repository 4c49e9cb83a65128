// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive comparison of core (through lbs_vec_call()) with the oracles
 * over bs 512..64k x page (folio) 4k, 16k, 64k, on grids that hit x - 1,
 * x and x + 1 for every block and page edge x within several blocks, with
 * i_size before, inside and after the blocks, near offset 0, 2^40 and
 * close to 2^63.
 *
 * Usage: test_exhaustive GROUP, one of pageblock, read_range, zero_around,
 * copy_around, dio, writeback, xfs; meson runs the groups in parallel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "exhaustive.h"

int main(int argc, char **argv)
{
	static const struct exh_group *const files[] = {
		exh_pagecache, exh_io, exh_xfs,
	};
	const struct exh_group *g;
	int rc = 0, found = 0;
	size_t i;

	for (i = 0; i < NELEM(files); i++)
		for (g = files[i]; g->name; g++) {
			if (argc > 1 && strcmp(argv[1], g->name))
				continue;
			found = 1;
			rc |= _cmocka_run_group_tests(g->name, g->tests, g->n,
						      NULL, NULL);
		}
	if (!found) {
		fprintf(stderr, "usage: %s [pageblock|read_range|zero_around|"
			"copy_around|dio|writeback|xfs]\n", argv[0]);
		return 2;
	}
	return rc ? 1 : 0;
}
