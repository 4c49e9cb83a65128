/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking helpers shared by the oracles.  Offsets are located by walking
 * from 0 in steps of a page, unit, block or AG: one step at a time for
 * short walks, and for long ones (offsets near 2^63) in strides of 2^k
 * steps, longest first, which is the same walk with fewer footsteps.  No
 * masks, no shifts of offsets, no division.
 */
#ifndef LBS_ORACLE_WALK_H
#define LBS_ORACLE_WALK_H

#include <stdint.h>
#include <stdbool.h>

/* 2^@shift built by doubling, @shift < 64 */
uint64_t ow_pow2(uint32_t shift);

/*
 * Walk from 0 in steps of @step (>= 1) while the next step does not pass
 * @x.  Return where the walk stops (the last step edge <= @x) and, through
 * @nsteps if not NULL, how many steps it took.
 */
uint64_t ow_floor(uint64_t x, uint64_t step, uint64_t *nsteps);

/* the first step edge >= @x; the caller ensures it does not pass 2^64 */
uint64_t ow_ceil(uint64_t x, uint64_t step);

/* where @n steps of @step from 0 end; the caller ensures no overflow */
uint64_t ow_steps(uint64_t n, uint64_t step);

/* is @x a step edge */
bool ow_on_edge(uint64_t x, uint64_t step);

/* the plain one-step-at-a-time walk, for the self-test only */
uint64_t ow_floor_slow(uint64_t x, uint64_t step, uint64_t *nsteps);

#endif /* LBS_ORACLE_WALK_H */
