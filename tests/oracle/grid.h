/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sizes and offsets the test grids are built from, shared by the vector
 * generator (gen_vectors.c, gen_*.c) and the exhaustive comparison
 * (tests/core/exhaustive_*.c).  They pick the inputs only: the oracles
 * compute nothing with them (they walk, see oracle_walk.h).
 */
#ifndef LBS_TEST_GRID_H
#define LBS_TEST_GRID_H

#include <stdint.h>

#define KiB		((uint64_t)1024)
#define O_INT64_MAX	((uint64_t)INT64_MAX)
#define LOFF_END	((uint64_t)1 << 63)
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* the size of a block, page or folio of 2^@shift bytes */
static inline uint64_t sz(uint32_t shift)
{
	return (uint64_t)1 << shift;
}

static inline uint64_t umin(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

#endif /* LBS_TEST_GRID_H */
