// SPDX-License-Identifier: GPL-2.0
/*
 * Oracles for core/settle.c: which blocks of a completed or punched range
 * may change their mapping now.  The edge blocks' pages are walked one by
 * one and each is asked whether it holds a byte of the range; the range's
 * blocks are then walked and a busy edge block is left out.  As in
 * oracle_block.c: no masks, no shifts of offsets, sizes built by doubling.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oracle.h"
#include "oracle_int.h"
#include "oracle_walk.h"

/* the edge values of tests/vec/README.md */
#define O_HEAD		1
#define O_TAIL		2
#define O_BOTH		3

/* blocks walked one at a time at each end of a long range */
#define O_SETTLE_WALK	64

/* does the busy value (0..3) name edge @which; no bit tests */
static bool o_busy_has(uint64_t busy, uint64_t which)
{
	return busy == which || busy == O_BOTH;
}

/* does the block at @blk hold byte @x */
static bool o_holds(uint64_t blk, uint64_t bsize, uint64_t x)
{
	return blk <= x && x - blk < bsize;
}

/*
 * Walk the pages that hold a byte of the block at @blk, from the page
 * holding its first byte: is there one wholly before @pos (@before) or
 * wholly at or after @end (@after)?  A page with a byte of [@pos, @end)
 * is the range's own, even if the range ends inside it (the EOF page).
 */
static void o_outside_pages(uint64_t blk, uint64_t bsize, uint64_t psize,
			    uint64_t pos, uint64_t end, bool *before,
			    bool *after)
{
	uint64_t p;

	*before = false;
	*after = false;
	for (p = ow_floor(blk, psize, NULL); p < blk + bsize; p += psize) {
		if (p + psize <= pos)
			*before = true;
		else if (p >= end)
			*after = true;
	}
}

/* the edges of [pos, end), end > pos; @head, @tail as in the kernel-doc */
static uint64_t o_edges(uint32_t blkbits, uint32_t pshift, uint64_t pos,
			uint64_t end, uint64_t *head, uint64_t *tail)
{
	uint64_t bsize = ow_pow2(blkbits), psize = ow_pow2(pshift);
	uint64_t last;
	bool before, after, unused;

	*head = ow_floor(pos, bsize, NULL);
	last = ow_floor(end - 1, bsize, NULL);
	*tail = last + bsize;
	if (*tail > O_LOFF_END || *tail < end)
		oracle_bug("settle model: tail %llu for end %llu",
			   (unsigned long long)*tail, (unsigned long long)end);
	/* pages before the range live in the first block, after it in the last */
	o_outside_pages(*head, bsize, psize, pos, end, &before, &unused);
	o_outside_pages(last, bsize, psize, pos, end, &unused, &after);
	return (before ? O_HEAD : 0) + (after ? O_TAIL : 0);
}

int o_settle_edges(const uint64_t *in, uint64_t *out)
{
	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) || in[3] <= in[2] ||
	    in[3] > O_LOFF_END)
		return ORACLE_DOMAIN;
	out[0] = o_edges((uint32_t)in[0], (uint32_t)in[1], in[2], in[3],
			 &out[1], &out[2]);
	return 3;
}

/* append [a, b) to the range [*s, *e), which it must continue */
static void o_settle_add(uint64_t *s, uint64_t *e, bool *have, uint64_t a,
			 uint64_t b)
{
	if (*have && *e != a)
		oracle_bug("settle_range model: blocks not contiguous at %llu",
			   (unsigned long long)a);
	if (!*have)
		*s = a;
	*e = b;
	*have = true;
}

/*
 * Walk the blocks holding a byte of [pos, end) in file order; the one
 * holding pos is left out if the head edge is reported and busy, the one
 * holding end - 1 if the tail edge is.  The blocks in between hold
 * neither, are never left out, and past O_SETTLE_WALK of them are taken
 * in one piece (a range may span 2^54 blocks).  With no block left, the
 * empty range sits where the kept blocks would have started: after a
 * left-out head block, else at the head.
 */
int o_settle_range(const uint64_t *in, uint64_t *out)
{
	uint64_t pos = in[2], end = in[3], busy = in[4];
	uint64_t bsize, head, tail, last, blk, lead, s = 0, e = 0, n;
	uint64_t edges;
	bool skip_head, skip_tail, have = false;

	if (!o_blkbits_ok(in[0]) || !o_pshift_ok(in[1]) || pos > O_LOFF_END ||
	    end > O_LOFF_END || busy > O_BOTH)
		return ORACLE_DOMAIN;
	out[0] = 0;
	out[1] = pos;
	out[2] = pos;
	if (end <= pos)
		return 3;
	bsize = ow_pow2((uint32_t)in[0]);
	edges = o_edges((uint32_t)in[0], (uint32_t)in[1], pos, end, &head,
			&tail);
	skip_head = o_busy_has(edges, O_HEAD) && o_busy_has(busy, O_HEAD);
	skip_tail = o_busy_has(edges, O_TAIL) && o_busy_has(busy, O_TAIL);
	last = tail - bsize;
	for (blk = head, n = 0; blk < end; blk += bsize, n++) {
		if (n == O_SETTLE_WALK && last - blk > O_SETTLE_WALK * bsize) {
			/* the middle: holds neither pos nor end - 1 */
			uint64_t to = last - O_SETTLE_WALK * bsize;

			o_settle_add(&s, &e, &have, blk, to);
			blk = to;
		}
		if (o_holds(blk, bsize, pos) && skip_head)
			continue;
		if (o_holds(blk, bsize, end - 1) && skip_tail)
			continue;
		o_settle_add(&s, &e, &have, blk, blk + bsize);
	}
	lead = skip_head ? head + bsize : head;
	if (!have) {
		out[1] = lead;
		out[2] = lead;
		return 3;
	}
	if (s != lead || e > tail || (e != tail) != skip_tail)
		oracle_bug("settle_range model: [%llu, %llu) in [%llu, %llu)",
			   (unsigned long long)s, (unsigned long long)e,
			   (unsigned long long)head, (unsigned long long)tail);
	out[0] = 1;
	out[1] = s;
	out[2] = e;
	return 3;
}
