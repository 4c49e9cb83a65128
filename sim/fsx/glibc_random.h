/* SPDX-License-Identifier: GPL-2.0 */
/*
 * glibc's random() (TYPE_3: the additive feedback generator x[i] =
 * x[i-3] + x[i-31] with srandom()'s seeding), written out so that the
 * data fsx derives from random() does not depend on the C library the
 * tools run on.
 */
#ifndef LBS_GLIBC_RANDOM_H
#define LBS_GLIBC_RANDOM_H

#include <stdint.h>

struct lbs_glibc_random {
	int32_t r[31];
	unsigned f, b;		/* glibc's fptr and rptr, as indices */
};

void lbs_glibc_srandom(struct lbs_glibc_random *g, uint32_t seed);
/* the next value, 0 .. 2^31 - 1, as glibc's random() after srandom() */
uint32_t lbs_glibc_random(struct lbs_glibc_random *g);

#endif
