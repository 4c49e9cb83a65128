// SPDX-License-Identifier: GPL-2.0
/* glibc's random(), TYPE_3; see glibc_random.h. */
#include "glibc_random.h"

void lbs_glibc_srandom(struct lbs_glibc_random *g, uint32_t seed)
{
	int64_t word;

	if (seed == 0)		/* glibc: a zero seed would stay zero */
		seed = 1;
	g->r[0] = (int32_t)seed;
	word = seed;
	for (int i = 1; i < 31; i++) {
		/* 16807 * word % 2147483647 without overflow (Schrage) */
		int64_t hi = word / 127773, lo = word % 127773;

		word = 16807 * lo - 2836 * hi;
		if (word < 0)
			word += 2147483647;
		g->r[i] = (int32_t)word;
	}
	g->f = 3;		/* rand_sep */
	g->b = 0;
	for (int i = 0; i < 310; i++)	/* srandom_r() discards 10 * 31 */
		(void)lbs_glibc_random(g);
}

uint32_t lbs_glibc_random(struct lbs_glibc_random *g)
{
	uint32_t v = (uint32_t)g->r[g->f] + (uint32_t)g->r[g->b];

	g->r[g->f] = (int32_t)v;
	g->f = g->f + 1 == 31 ? 0 : g->f + 1;
	g->b = g->b + 1 == 31 ? 0 : g->b + 1;
	return v >> 1;		/* the least random bit is dropped */
}
