// SPDX-License-Identifier: GPL-2.0
/*
 * Walking helpers for the oracles; see oracle_walk.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oracle_walk.h"

/* steps taken one at a time before the walk lengthens its stride */
#define OW_SHORT_WALK	64

uint64_t ow_pow2(uint32_t shift)
{
	uint64_t v = 1;
	uint32_t i;

	if (shift >= 64) {
		fprintf(stderr, "oracle: ow_pow2(%u)\n", shift);
		abort();
	}
	for (i = 0; i < shift; i++)
		v += v;
	return v;
}

uint64_t ow_floor_slow(uint64_t x, uint64_t step, uint64_t *nsteps)
{
	uint64_t at = 0, n = 0;

	while (x - at >= step) {
		at += step;
		n++;
	}
	if (nsteps)
		*nsteps = n;
	return at;
}

uint64_t ow_floor(uint64_t x, uint64_t step, uint64_t *nsteps)
{
	uint64_t stride[64], count[64];
	uint64_t at = 0, n = 0, left;
	int k, i;

	if (step == 0) {
		fprintf(stderr, "oracle: ow_floor with step 0\n");
		abort();
	}
	/* a short walk, one step at a time */
	for (i = 0; i < OW_SHORT_WALK && x - at >= step; i++) {
		at += step;
		n++;
	}
	/* the rest in strides of 1, 2, 4, ... steps, longest first */
	left = x - at;
	if (left >= step) {
		stride[0] = step;
		count[0] = 1;
		for (k = 0; k < 63 && stride[k] <= left - stride[k]; k++) {
			stride[k + 1] = stride[k] + stride[k];
			count[k + 1] = count[k] + count[k];
		}
		for (i = k; i >= 0; i--) {
			if (x - at >= stride[i]) {
				at += stride[i];
				n += count[i];
			}
		}
	}
	if (x - at >= step) {
		fprintf(stderr, "oracle: ow_floor(%llu, %llu) stopped short\n",
			(unsigned long long)x, (unsigned long long)step);
		abort();
	}
	if (nsteps)
		*nsteps = n;
	return at;
}

uint64_t ow_ceil(uint64_t x, uint64_t step)
{
	uint64_t at = ow_floor(x, step, NULL);

	return at == x ? at : at + step;
}

uint64_t ow_steps(uint64_t n, uint64_t step)
{
	uint64_t stride = step, at = 0, left = n;

	/* walk n steps: one stride of 2^k steps for every 2^k in n */
	while (left) {
		if (left % 2)
			at += stride;
		left /= 2;
		if (left)
			stride += stride;
	}
	return at;
}

bool ow_on_edge(uint64_t x, uint64_t step)
{
	return ow_floor(x, step, NULL) == x;
}
