/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparing core (through lbs_vec_call()) with the oracles, and the point
 * grids the comparisons walk.  Header-only: each test program includes it
 * once.
 */
#ifndef LBS_TEST_CMP_H
#define LBS_TEST_CMP_H

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbs_vec.h"
#include "oracle.h"

/* mismatches printed per function before going quiet */
#define CMP_SHOW	8

struct cmp {
	const char *fn;
	uint64_t n;		/* comparisons made */
	uint64_t domain;	/* inputs the oracle calls out of domain */
	uint64_t bad;		/* mismatches */
};

static inline void cmp_print_vec(FILE *f, const char *fn, uint32_t nin,
			  const uint64_t *in, int nout, const uint64_t *out)
{
	uint32_t i;

	fprintf(f, "%s", fn);
	for (i = 0; i < nin; i++)
		fprintf(f, " %" PRIu64, in[i]);
	fprintf(f, " =");
	for (i = 0; nout > 0 && i < (uint32_t)nout; i++)
		fprintf(f, " %" PRIu64, out[i]);
	fprintf(f, "\n");
}

/* the flat call compared with the oracle: lbs_vec_call(), or a mutant */
typedef int (*cmp_call_fn)(const char *fn, uint32_t nin, const uint64_t *in,
			   uint64_t *out);

/* compare @call and the oracle on one input; returns 1 if they differ */
static inline int cmp_one_via(struct cmp *c, cmp_call_fn call, uint32_t nin,
			      const uint64_t *in)
{
	uint64_t in8[LBS_VEC_MAX] = { 0 }, co[LBS_VEC_MAX] = { 0 };
	uint64_t oo[LBS_VEC_MAX] = { 0 };
	int no, nc;

	memcpy(in8, in, nin * sizeof(*in));
	no = oracle_call(c->fn, nin, in8, oo);
	if (no == ORACLE_DOMAIN) {
		c->domain++;
		return 0;
	}
	if (no < 0) {
		fprintf(stderr, "oracle does not know %s/%u\n", c->fn, nin);
		abort();
	}
	nc = call(c->fn, nin, in8, co);
	c->n++;
	if (nc == no && !memcmp(co, oo, (size_t)no * sizeof(*co)))
		return 0;
	if (c->bad++ < CMP_SHOW) {
		printf("MISMATCH core:   ");
		cmp_print_vec(stdout, c->fn, nin, in8, nc, co);
		printf("         oracle: ");
		cmp_print_vec(stdout, c->fn, nin, in8, no, oo);
	}
	return 1;
}

/* compare core and oracle on one input; returns 1 if they differ */
static inline int cmp_one(struct cmp *c, uint32_t nin, const uint64_t *in)
{
	return cmp_one_via(c, lbs_vec_call, nin, in);
}

/* one line of totals for a function; a mismatch, or no comparison at
 * all, fails the cmocka test (cmocka.h must be included before this) */
static inline void cmp_report(struct cmp *c)
{
	printf("%-24s %10" PRIu64 " comparisons, %" PRIu64
	       " inputs out of domain skipped, %" PRIu64 " mismatches\n",
	       c->fn, c->n, c->domain, c->bad);
	fflush(stdout);
	if (c->bad)
		fail_msg("%s: %" PRIu64 " of %" PRIu64
			 " comparisons differ from the oracle", c->fn, c->bad,
			 c->n);
	assert_true(c->n > 0);
}

/* CMP(c, in0, in1, ...): compare on these inputs */
#define CMP(c, ...) cmp_one((c),					\
	(uint32_t)(sizeof((uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t)), \
	(uint64_t[]){ __VA_ARGS__ })

/* -------------------------------------------------------------------- */
/* point sets: sorted, without duplicates */

struct pts {
	uint64_t *v;
	size_t n;
	size_t cap;
};

static inline void pts_add(struct pts *p, uint64_t x)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->v = realloc(p->v, p->cap * sizeof(*p->v));
		if (!p->v)
			abort();
	}
	p->v[p->n++] = x;
}

/* x - 1, x, x + 1 for every edge x = base + k * step, k = 0..count */
static inline void pts_edges(struct pts *p, uint64_t base, uint64_t step,
		      uint64_t count)
{
	uint64_t k, x;

	for (k = 0; k <= count; k++) {
		x = base + k * step;
		if (x > 0)
			pts_add(p, x - 1);
		pts_add(p, x);
		if (x < UINT64_MAX)
			pts_add(p, x + 1);
	}
}

static inline int pts_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static inline void pts_done(struct pts *p)
{
	size_t i, j = 0;

	qsort(p->v, p->n, sizeof(*p->v), pts_cmp);
	for (i = 0; i < p->n; i++)
		if (j == 0 || p->v[j - 1] != p->v[i])
			p->v[j++] = p->v[i];
	p->n = j;
}

static inline void pts_free(struct pts *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}

#endif /* LBS_TEST_CMP_H */
