/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the exhaustive comparison's files (test_exhaustive.c and
 * exhaustive_*.c): the shift and offset grids, the sweep over them, and
 * the named test groups each file contributes.
 */
#ifndef LBS_TEST_EXHAUSTIVE_H
#define LBS_TEST_EXHAUSTIVE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmp.h"
#include "grid.h"

static const uint32_t bs_shifts[] = { 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint32_t ps_shifts[] = { 12, 14, 16 };
/* folio shifts for the page cache unit: the page sizes and a 2M folio */
static const uint32_t fs_shifts[] = { 12, 14, 16, 21 };

/* far file offsets, multiples of every block, page and folio size */
static const uint64_t bases[] = {
	0,
	(uint64_t)1 << 40,
	((uint64_t)1 << 63) - ((uint64_t)1 << 23),
};

/*
 * Compare @fn at every block shift x every one of the @nsec shifts in
 * @sec (page shifts, or folio shifts), in that order: @at makes the
 * comparisons for one (block shift, other shift) pair.  Then report.
 */
static inline void cmp_sweep(const char *fn, const uint32_t *sec,
			     size_t nsec,
			     void (*at)(struct cmp *c, uint32_t b, uint32_t s))
{
	struct cmp c = { fn, 0, 0, 0 };
	size_t bi, si;

	for (bi = 0; bi < NELEM(bs_shifts); bi++)
		for (si = 0; si < nsec; si++)
			at(&c, bs_shifts[bi], sec[si]);
	cmp_report(&c);
}

#define SWEEP(fn, sec, at)	cmp_sweep((fn), (sec), NELEM(sec), (at))

/* a test group, run by name: test_exhaustive GROUP */
struct exh_group {
	const char *name;
	const struct CMUnitTest *tests;
	size_t n;
};

#define EXH_GROUP(g) { #g, g_##g, NELEM(g_##g) }

/* each file's groups, in the order they run; ended by a NULL name */
extern const struct exh_group exh_pagecache[];	/* exhaustive_pagecache.c */
extern const struct exh_group exh_io[];		/* exhaustive_io.c */
extern const struct exh_group exh_xfs[];	/* exhaustive_xfs.c */

#endif /* LBS_TEST_EXHAUSTIVE_H */
