// SPDX-License-Identifier: GPL-2.0
/*
 * A block written by two ioends (issue 13's hole 1), directed: a
 * sub-block write into an unwritten block, a fresh delalloc block and a
 * shared block, whose writeback is split between two ioends at every
 * page of the block; a power cut lands between the two completions.
 * After it, no byte of the file may read as the device's stale pattern,
 * and the data fsynced before must be there.  Without the crash, the
 * second completion must leave every byte written.  The negative control
 * (ioend-early: the first completion converts or remaps the block whole)
 * must show stale bytes wherever blocks are larger than pages.
 * Usage: test_ioend [negative]
 */
#define _GNU_SOURCE
#include "lbs_sim.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXSZ (1u << 20)

enum kind { UNWRITTEN, DELALLOC, SHARED, NKINDS };
static const char *const kind_name[] = { "unwritten", "delalloc", "shared" };

static struct lbs_sim *mk(uint32_t bs, uint32_t ps, unsigned inject)
{
	struct lbs_sim_config c = { bs, ps, MAXSZ, inject, 0 };
	char err[256];
	struct lbs_sim *s = lbs_sim_create(&c, err, sizeof(err));

	if (!s) {
		fprintf(stderr, "create: %s\n", err);
		exit(2);
	}
	return s;
}

/*
 * File of 4 blocks, fsynced: block 0 data, block 1 the block under test
 * (by @k), blocks 2-3 data.  Then one byte written into block 1's page
 * @wpage, its writeback split at page @split, and a crash (@crash) or
 * the second completion.  Returns the wrong bytes, adds to *@stale_out
 * those of them that are the device's stale pattern.
 */
static uint64_t run(uint32_t bs, uint32_t ps, unsigned inject, enum kind k,
		    uint32_t wpage, uint32_t split, bool crash,
		    uint64_t *stale_out)
{
	struct lbs_sim *s = mk(bs, ps, inject);
	uint64_t size = 4 * (uint64_t)bs, bad = 0, stale = 0;
	uint8_t *exp = malloc(size), *got = malloc(size), v = 0x5a;

	if (!exp || !got)
		abort();
	for (uint64_t i = 0; i < size; i++)
		exp[i] = (uint8_t)(1 + i % 251);
	if (lbs_sim_write(s, 0, size, exp, SIZE_MAX) != (int64_t)size)
		abort();
	if (k == UNWRITTEN) {	/* punch, then preallocate: unwritten */
		memset(exp + bs, 0, bs);
		lbs_sim_fallocate(s, LBS_FL_PUNCH_HOLE | LBS_FL_KEEP_SIZE, bs, bs);
		lbs_sim_fallocate(s, LBS_FL_KEEP_SIZE, bs, bs);
	} else if (k == DELALLOC) {
		memset(exp + bs, 0, bs);
		lbs_sim_fallocate(s, LBS_FL_PUNCH_HOLE | LBS_FL_KEEP_SIZE, bs, bs);
	} else {		/* block 1 shares block 3's disk block */
		memcpy(exp + bs, exp + 3 * (uint64_t)bs, bs);
		if (lbs_sim_clone_range(s, 3 * (uint64_t)bs, bs, bs))
			abort();
	}
	lbs_sim_fsync(s);
	/* the durable file; the write is not fsynced */
	if (lbs_sim_write(s, bs + (uint64_t)wpage * ps + 7, 1, &v,
			  SIZE_MAX) != 1)
		abort();
	lbs_sim_writeback_split(s, bs + (uint64_t)split * ps);
	if (crash) {
		lbs_sim_crash(s);
	} else {
		lbs_sim_settle(s);
		exp[bs + (uint64_t)wpage * ps + 7] = v;
		lbs_sim_drop_caches(s);
	}
	if (lbs_sim_read(s, 0, size, got) != (int64_t)size)
		abort();
	for (uint64_t i = 0; i < size; i++) {
		/* after the crash the unsynced byte may or may not be there;
		 * the rest must read as it was durably */
		if (got[i] == exp[i] ||
		    (crash && i == bs + (uint64_t)wpage * ps + 7 && got[i] == v))
			continue;
		bad++;
		if (lbs_sim_is_stale_byte(s, i, got[i]))
			stale++;
	}
	*stale_out += stale;
	free(exp);
	free(got);
	lbs_sim_destroy(s);
	return bad;
}

/* every write page and split page of the block, each kind, both ends */
static uint64_t sweep(uint32_t bs, uint32_t ps, unsigned inject,
		      uint64_t *runs)
{
	uint32_t ppb = bs > ps ? bs / ps : 1;
	uint64_t bad = 0;

	for (int k = 0; k < NKINDS; k++) {
		uint64_t kbad = 0, kstale = 0;

		for (uint32_t w = 0; w < ppb; w++)
			for (uint32_t sp = 0; sp < ppb; sp++)
				for (int c = 0; c < 2; c++) {
					kbad += run(bs, ps, inject, k, w, sp,
						    c, &kstale);
					++*runs;
				}
		printf("  bs %u ps %u %s: %" PRIu64 " bad bytes (%" PRIu64
		       " stale)\n", bs, ps, kind_name[k], kbad, kstale);
		bad += kbad;
	}
	return bad;
}

int main(int argc, char **argv)
{
	static const uint32_t geo[][2] = {
		{ 4096, 4096 }, { 8192, 4096 }, { 16384, 4096 },
		{ 65536, 4096 }, { 65536, 16384 },
	};
	bool neg = argc > 1 && !strcmp(argv[1], "negative");
	unsigned inject = neg ? lbs_sim_inject_parse("ioend-early") : 0;
	uint64_t runs = 0, total = 0;
	int fail = 0;

	for (size_t g = 0; g < sizeof(geo) / sizeof(geo[0]); g++) {
		uint64_t bad = sweep(geo[g][0], geo[g][1], inject, &runs);
		bool large = geo[g][0] > geo[g][1];

		total += bad;
		/* the negative control must fail exactly where a block
		 * spans pages; bs <= ps has nothing to split */
		if (neg ? (large && !bad) || (!large && bad) : bad != 0)
			fail = 1;
	}
	printf("%s: %" PRIu64 " runs, %" PRIu64 " bad bytes: %s\n",
	       neg ? "ioend-early (negative control)" : "split ioends",
	       runs, total, fail ? "FAIL" : "ok");
	return fail;
}
