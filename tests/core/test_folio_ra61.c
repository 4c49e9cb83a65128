// SPDX-License-Identifier: GPL-2.0
/*
 * core/folio_order.c against Linux 6.1's page_cache_ra_order(), and the
 * bimodal rule checked on every folio core makes.
 *
 * t_ra61: every readahead window of a grid (blkbits 9..16 on 4k pages,
 * MAX_PAGECACHE_ORDER 8, 9 and 11, every start order, windows of 0..72
 * pages, start and EOF pages near 0) through lbs_ra_start_order() and
 * lbs_ra_folio_order(), against a transcription of 6.1's order logic.
 * t_write_walk: buffered writes walked folio by folio through
 * lbs_write_folio(), and every fallback chain from each folio's order.
 *
 * Usage: test_folio_ra61
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmp.h"
#include "grid.h"
#include "lbs_folio.h"
#include "lbs_iomap.h"

#define P4K	12
/* MAX_PAGECACHE_ORDER: x86_64 6.1 with THP (HPAGE_PMD_ORDER), without
 * THP (8), and MAX_XAS_ORDER (11), the largest any 6.1 config has */
static const uint32_t max_orders[] = { 8, 9, 11 };

#define RA_MAX_FOLIOS	4096

struct ra_seq {
	uint64_t index[RA_MAX_FOLIOS];
	uint32_t order[RA_MAX_FOLIOS];
	size_t n;
};

/*
 * Transcribed from linux-source-6.1 (6.1.192) mm/readahead.c,
 * page_cache_ra_order(), lines 498-532, with ra_alloc_folio() always
 * succeeding and mapping_large_folio_support() true: @eof_limit is
 * (i_size_read() - 1) >> PAGE_SHIFT, MAX_PAGECACHE_ORDER is @max.  The
 * fallback (do_page_cache_ra()) reads the same span as pages.
 * @start_order, if not NULL, returns new_order after the ramp (-1 on
 * the fallback); @fix_order, if >= 0, replaces the ramp's new_order.
 */
static void v61_ra_order(uint64_t index, uint64_t eof_limit,
			 unsigned int ra_size, unsigned int new_order,
			 unsigned int max, int fix_order, int *start_order,
			 struct ra_seq *s)
{
	uint64_t limit = eof_limit;

	s->n = 0;
	if (ra_size < 4) {				/* 498-499 */
		if (start_order)
			*start_order = -1;
		limit = umin(limit, index + ra_size - 1);
		for (; ra_size && index <= limit; index++) {
			s->index[s->n] = index;
			s->order[s->n++] = 0;
		}
		return;
	}
	limit = umin(limit, index + ra_size - 1);	/* 501 */
	if (new_order < max) {				/* 503-509 */
		new_order += 2;
		if (new_order > max)
			new_order = max;
		while ((1U << new_order) > ra_size)
			new_order--;
	}
	if (start_order)
		*start_order = (int)new_order;
	if (fix_order >= 0)
		new_order = (unsigned int)fix_order;
	while (index <= limit) {			/* 514-532 */
		unsigned int order = new_order;

		if (index & ((1UL << order) - 1)) {
			order = (unsigned int)__builtin_ctzll(index); /* __ffs */
			if (order == 1)
				order = 0;
		}
		while (index + (1UL << order) - 1 > limit) {
			if (--order == 1)
				order = 0;
		}
		s->index[s->n] = index;
		s->order[s->n++] = order;
		index += 1UL << order;
	}
}

/* the same window through core */
static void core_ra_order(uint32_t b, uint64_t index, uint64_t eof_limit,
			  uint32_t ra_size, uint32_t new_order, uint32_t max,
			  struct ra_seq *s)
{
	uint32_t start = lbs_ra_start_order(b, P4K, new_order, ra_size, max);
	uint64_t limit;

	s->n = 0;
	if (!ra_size)
		return;
	limit = umin(eof_limit, index + ra_size - 1);
	while (index <= limit) {
		uint32_t o = start ? lbs_ra_folio_order(b, P4K, index, limit,
							start) : 0;

		s->index[s->n] = index;
		s->order[s->n++] = o;
		index += sz(o);
	}
}

/* the rule on every folio of a window: bimodal, aligned, whole blocks */
static int check_rule(uint32_t b, const struct ra_seq *s)
{
	uint32_t m = lbs_folio_min_order(b, P4K);
	size_t i;

	for (i = 0; i < s->n; i++) {
		uint64_t idx = s->index[i];
		uint32_t o = s->order[i];

		if (o == 1 || (o && o < m) || idx % sz(o))
			return 1;
		if (o && !lbs_folio_covers_block(b, P4K, idx, o, idx << P4K))
			return 1;
	}
	return 0;
}

/* @s with every folio of order below @m read as its pages instead */
static void clamp_below(uint32_t m, const struct ra_seq *s, struct ra_seq *c)
{
	size_t i;
	uint64_t j;

	c->n = 0;
	for (i = 0; i < s->n; i++) {
		if (s->order[i] >= m) {
			c->index[c->n] = s->index[i];
			c->order[c->n++] = s->order[i];
			continue;
		}
		for (j = 0; j < sz(s->order[i]); j++) {
			c->index[c->n] = s->index[i] + j;
			c->order[c->n++] = 0;
		}
	}
}

static int seq_differ(const struct ra_seq *x, const struct ra_seq *y)
{
	return x->n != y->n ||
	       memcmp(x->index, y->index, x->n * sizeof(x->index[0])) ||
	       memcmp(x->order, y->order, x->n * sizeof(x->order[0]));
}

/*
 * Every window: bs <= ps must give 6.1's folios exactly.  bs > ps must
 * give 6.1's loop, run from the order the rule started the window with,
 * with every folio of an order below m read as pages instead, and that
 * start must be 6.1's ramp when the ramp reaches m, else m or 0.
 */
static void t_ra61(void **state)
{
	static struct ra_seq v, k, v61m, clamp;
	uint64_t n = 0, exact = 0, bad = 0, idx, eof;
	uint32_t b, mi, w, size;

	(void)state;
	for (b = 9; b <= 16; b++)
	for (mi = 0; mi < NELEM(max_orders); mi++)
	for (w = 0; w <= max_orders[mi]; w++)
	for (size = 0; size <= 72; size += size < 40 ? 1 : 8)
	for (idx = 0; idx <= 40; idx++)
	for (eof = idx; eof <= idx + 80; eof += eof < idx + 40 ? 1 : 40) {
		uint32_t max = max_orders[mi], m = lbs_folio_min_order(b, P4K);
		uint32_t st = lbs_ra_start_order(b, P4K, w, size, max);
		uint32_t up;
		int s61, differ;

		v61_ra_order(idx, eof, size, w, max, -1, &s61, &v);
		core_ra_order(b, idx, eof, size, w, max, &k);
		if (!m) {
			exact++;
			differ = seq_differ(&v, &k) ||
				 (uint32_t)(s61 < 0 ? 0 : s61) != st;
		} else {
			v61_ra_order(idx, eof, size, w, max, (int)st, NULL,
				     &v61m);
			clamp_below(m, &v61m, &clamp);
			/* a ramp below m starts at m if the window and
			 * the maximum allow it, else reads pages */
			up = s61 >= 0 && m <= max && sz(m) <= size ? m : 0;
			differ = seq_differ(&clamp, &k) ||
				 (s61 >= (int)m && (uint32_t)s61 != st) ||
				 (s61 < (int)m && st != up);
		}
		differ |= check_rule(b, &k);
		n++;
		if (differ && bad++ < CMP_SHOW)
			printf("MISMATCH ra61: blkbits %u max %u new_order %u "
			       "ra_size %u index %" PRIu64 " eof %" PRIu64
			       ": 6.1 start %d, core start %u, %zu/%zu folios\n",
			       b, max, w, size, idx, eof, s61, st, v.n, k.n);
	}
	printf("ra61 windows            %10" PRIu64 " compared with 6.1 (%"
	       PRIu64 " at bs <= ps, folio for folio), %" PRIu64 " differ\n",
	       n, exact, bad);
	if (bad)
		fail_msg("%" PRIu64 " of %" PRIu64 " readahead windows differ "
			 "from 6.1's page_cache_ra_order() or break the rule",
			 bad, n);
}

/*
 * A buffered write of every (pos, len) walked as iomap_write_iter()
 * would, a folio per step: each folio legal, aligned, holding the
 * step's position and only blocks the write touches; and every
 * fallback chain legal and ending at 0.
 */
static void t_write_walk(void **state)
{
	uint64_t n = 0, bad = 0, pos, len;
	uint32_t b, mi;

	(void)state;
	for (b = 9; b <= 16; b++)
	for (mi = 0; mi < NELEM(max_orders); mi++)
	for (pos = 0; pos <= 320 * KiB; pos += 2 * KiB - 1)
	for (len = 1; len <= 600 * KiB; len += len < 8 * KiB ? 511 : 12 * KiB - 3) {
		uint32_t max = max_orders[mi], m = lbs_folio_min_order(b, P4K);
		uint64_t end = pos + len, p = pos, unit = sz(m + P4K);
		uint64_t lo = pos / unit * unit, hi = (end + unit - 1) / unit * unit;

		while (p < end) {
			uint64_t idx, fs, fe;
			uint32_t o, next;

			lbs_write_folio(b, P4K, p, end - p, max, &idx, &o);
			fs = idx << P4K;
			fe = fs + sz(o + P4K);
			n++;
			if (!lbs_folio_order_ok(b, P4K, o) || idx % sz(o) ||
			    p < fs || p >= fe || (m && (fs < lo || fe > hi)) ||
			    (!m && o)) {
				if (bad++ < CMP_SHOW)
					printf("MISMATCH write: blkbits %u max "
					       "%u pos %" PRIu64 " len %" PRIu64
					       " step %" PRIu64 ": index %"
					       PRIu64 " order %u\n", b, max,
					       pos, len, p, idx, o);
				break;
			}
			while (lbs_folio_order_fallback(b, P4K, o, &next)) {
				if ((next >= o ||
				     !lbs_folio_order_ok(b, P4K, next)) &&
				    bad++ < CMP_SHOW)
					printf("MISMATCH fallback: blkbits %u "
					       "order %u -> %u\n", b, o, next);
				o = next;
			}
			p = fe;
		}
	}
	printf("write steps             %10" PRIu64 " checked, %" PRIu64
	       " break the rule\n", n, bad);
	if (bad)
		fail_msg("%" PRIu64 " of %" PRIu64 " write folios break the "
			 "rule", bad, n);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ra61),
		cmocka_unit_test(t_write_walk),
	};

	return cmocka_run_group_tests_name("folio order ra61", tests, NULL,
					   NULL);
}
