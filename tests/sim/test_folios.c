// SPDX-License-Identifier: GPL-2.0
/*
 * Large folios at bs > ps (lbs_sim_lf_config): the configuration rules,
 * 6.1's split refusals, the write path's folios, the 100% allocation
 * failure run against the order-0 model, fsx campaigns at 8k, 16k and
 * 64k with allocation failures and mm events, and the four negative
 * controls, each caught with its own symptom.
 * Usage: test_folios [campaigns|negative] (no argument: the quick tests)
 */
#define _GNU_SOURCE
#include "fsx.h"
#include "lbs_sim.h"
#include "sim_int.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#define MAXSZ (1u << 20)

static struct lbs_sim *mk(uint32_t bs, uint32_t afail, uint32_t mm)
{
	struct lbs_sim_config c = { .block_size = bs, .page_size = 4096,
				    .max_file_size = MAXSZ };
	struct lbs_sim_lf_config lf = { .large_folios = true,
					.alloc_fail_pct = afail,
					.mm_event_pct = mm, .seed = 1 };
	char err[256];
	struct lbs_sim *s = lbs_sim_create_lf(&c, &lf, err, sizeof(err));

	if (!s)
		fail_msg("create: %s", err);
	return s;
}

static void t_config(void **state)
{
	static const struct {
		uint32_t bs, ps;
		struct lbs_sim_lf_config lf;
		const char *want;	/* NULL: accepted */
	} v[] = {
		{ 4096, 4096, { true, 0, 0, 0, 0, false }, "use the max folio order" },
		{ 65536, 4096, { true, 3, 0, 0, 0, false }, "from 4 to 9" },
		{ 65536, 4096, { true, 10, 0, 0, 0, false }, "from 4 to 9" },
		{ 65536, 4096, { true, 0, 101, 0, 0, false }, "percentages" },
		{ 8192, 4096, { false, 0, 50, 0, 0, false }, "need large folios" },
		{ 8192, 4096, { false, 0, 0, 10, 0, false }, "need large folios" },
		{ 8192, 4096, { false, 0, 0, 0, 0, true }, "need large folios" },
		{ 8192, 4096, { true, 2, 100, 100, 0, false }, NULL },
		{ 65536, 16384, { true, 0, 0, 0, 0, false }, NULL },
		{ 65536, 4096, { true, 9, 0, 0, 0, false }, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct lbs_sim_config c = { .block_size = v[i].bs,
					    .page_size = v[i].ps };
		char err[256] = "";
		int rc = lbs_sim_lf_config_check(&c, &v[i].lf, err,
						 sizeof(err));

		if (v[i].want ? rc == 0 || !strstr(err, v[i].want) : rc != 0)
			fail_msg("case %zu: rc %d \"%s\", want %s", i, rc, err,
				 v[i].want ? v[i].want : "accepted");
	}
}

/* 6.1's split_huge_page_to_list() refusals, and what a split leaves */
static void t_split_rules(void **state)
{
	struct lbs_sim *s = mk(16384, 0, 0);	/* m = 2 */
	struct folio *one, *two;

	(void)state;
	one = sim_folio_add(s, 0, 2);		/* one block: no iop */
	two = sim_folio_add(s, 8, 3);		/* two blocks: iop */
	assert_null(one->ubits);
	assert_non_null(two->ubits);
	fl_set(two, F_DIRTY | F_UPTODATE);
	assert_false(sim_folio_split(s, two));	/* dirty with iop */
	fl_clear(two, F_DIRTY);
	fl_set(two, F_WRITEBACK);
	assert_false(sim_folio_split(s, two));	/* under writeback */
	fl_clear(two, F_WRITEBACK);
	two->refs++;
	assert_false(sim_folio_split(s, two));	/* pinned */
	two->refs--;
	sim_folio_lock(s, two);
	assert_false(sim_folio_split(s, two));	/* locked */
	sim_folio_unlock(two);
	assert_true(sim_folio_split(s, two));	/* clean: to order 0 */
	assert_int_equal(sim_folio_lookup(s, 9)->order, 0);
	assert_true(fl_get(sim_folio_lookup(s, 15)) & F_UPTODATE);
	fl_set(one, F_DIRTY | F_UPTODATE);
	assert_true(sim_folio_split(s, one));	/* dirty, no iop */
	for (uint64_t i = 0; i < 4; i++)
		assert_int_equal(fl_get(sim_folio_lookup(s, i)) &
				 (F_DIRTY | F_UPTODATE), F_DIRTY | F_UPTODATE);
	assert_int_equal(lbs_sim_counters(s)->folio_splits, 2);
	lbs_sim_destroy(s);
}

static uint32_t order_at(struct lbs_sim *s, uint64_t pos)
{
	struct lbs_sim_folio_info fi;

	assert_true(lbs_sim_peek(s, pos >> 12, &fi));
	return fi.order;
}

static void check_clean(struct lbs_sim *s)
{
	char why[256];

	if (lbs_sim_folio_check(s, why, sizeof(why)))
		fail_msg("invariant: %s", why);
}

/*
 * A 100-byte write into an uncached 64k block that gets pages: zero-around
 * makes the rest of the block's pages (@failed: the allocations that
 * failed so far)
 */
static void write_in_pages(struct lbs_sim *s, uint64_t failed)
{
	static const uint8_t buf[100] = { 0x5a };

	assert_int_equal(lbs_sim_write(s, 200000, 100, buf, SIZE_MAX), 100);
	assert_int_equal(order_at(s, 200000), 0);
	assert_int_equal(order_at(s, 196608), 0);	/* zeroed around */
	assert_int_equal(lbs_sim_counters(s)->za_calls, 1);
	assert_int_equal(lbs_sim_counters(s)->lf.alloc_failed, failed);
	check_clean(s);
}

/*
 * The write path's folios: lbs_write_folio()'s at 0%, order 0 at 100%;
 * a write into a block of pages stays in pages (zero-around), and a
 * read over a whole aligned block makes a large folio.
 */
static void t_write_folios(void **state)
{
	static uint8_t buf[1 << 17];
	struct lbs_sim *s = mk(65536, 0, 0), *z = mk(65536, 100, 0);

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(lbs_sim_write(s, 0, 131072, buf, SIZE_MAX), 131072);
	/* both blocks in one folio (patch 41: no one-block cap) */
	assert_int_equal(order_at(s, 0), 5);
	assert_int_equal(order_at(s, 65536), 5);
	assert_int_equal(lbs_sim_write(s, 200000, 100, buf, SIZE_MAX), 100);
	assert_int_equal(order_at(s, 200000), 4);
	assert_int_equal(lbs_sim_counters(s)->za_calls, 0);
	check_clean(s);
	write_in_pages(z, 1);
	lbs_sim_fsync(s);
	lbs_sim_drop_caches(s);
	assert_int_equal(lbs_sim_read(s, 0, 131072, buf), 131072);
	assert_int_equal(order_at(s, 65536), 5);
	assert_true(lbs_sim_counters(s)->ra_large_folios >= 1);
	check_clean(s);
	lbs_sim_destroy(s);
	lbs_sim_destroy(z);
}

/*
 * Per-block dirty state (patch 40): a write into one block of a folio
 * of two dirties that block alone, and writeback writes it alone; a
 * clean block the folio shares with a clone stays untouched on disk.
 */
static void t_dirty_blocks(void **state)
{
	static uint8_t buf[1 << 17];
	struct lbs_sim *s = mk(65536, 0, 0);
	uint64_t before;

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(lbs_sim_write(s, 0, 131072, buf, SIZE_MAX), 131072);
	assert_int_equal(lbs_sim_fsync(s), 0);
	assert_int_equal(order_at(s, 0), 5);
	/* block 1 shared with [256k, 320k) */
	assert_int_equal(lbs_sim_clone_range(s, 65536, 262144, 65536), 0);
	before = lbs_sim_counters(s)->dev_writes;
	assert_int_equal(lbs_sim_write(s, 100, 100, buf, SIZE_MAX), 100);
	assert_int_equal(order_at(s, 0), 5);
	assert_int_equal(lbs_sim_fsync(s), 0);
	/* one 64k unit, block 0: not block 1, shared and clean */
	assert_int_equal(lbs_sim_counters(s)->dev_writes - before, 1);
	assert_int_equal(lbs_sim_counters(s)->wb_shared_inplace, 0);
	check_clean(s);
	lbs_sim_destroy(s);
}

/*
 * write_pages, 6.1's write path (the series before patch 37): writes into
 * uncached blocks make order-0 folios and zero around them; readahead
 * makes the large folios.
 */
static void t_write_pages(void **state)
{
	static uint8_t buf[1 << 17];
	struct lbs_sim_config c = { .block_size = 65536, .page_size = 4096,
				    .max_file_size = MAXSZ };
	struct lbs_sim_lf_config lf = { .large_folios = true,
					.write_pages = true, .seed = 1 };
	char err[256];
	struct lbs_sim *s = lbs_sim_create_lf(&c, &lf, err, sizeof(err));

	(void)state;
	if (!s)
		fail_msg("create: %s", err);
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(lbs_sim_write(s, 0, 131072, buf, SIZE_MAX), 131072);
	assert_int_equal(order_at(s, 0), 0);
	write_in_pages(s, 0);
	lbs_sim_fsync(s);
	lbs_sim_drop_caches(s);
	assert_int_equal(lbs_sim_read(s, 0, 131072, buf), 131072);
	assert_true(order_at(s, 65536) >= 4);
	check_clean(s);
	lbs_sim_destroy(s);
}

/* a campaign on an instance made here, so every counter is seen */
static int run(const struct lbs_fsx_opts *o, struct lbs_sim_counters *k,
	       struct lbs_fsx_result *r, FILE *log)
{
	struct lbs_fsx_opts oo = *o;
	struct lbs_sim_config c;
	struct lbs_sim_lf_config lf;
	char err[256];
	struct lbs_sim *s;
	int rc;

	oo.log = log;
	lbs_fsx_sim_config(&oo, &c, &lf);
	s = lbs_sim_create_lf(&c, &lf, err, sizeof(err));
	if (!s)
		fail_msg("create: %s", err);
	rc = lbs_fsx_sim_run(s, &oo, NULL, NULL, r);
	*k = *lbs_sim_counters(s);
	lbs_sim_destroy(s);
	return rc;
}

/*
 * Every large allocation failing is the order-0 model, byte for byte:
 * the same final file, and every counter of the order-0 model equal.
 */
static void t_all_fail_is_order0(void **state)
{
	static const uint32_t bss[] = { 8192, 16384, 65536 };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		for (uint64_t seed = 1; seed <= 2; seed++) {
			struct lbs_fsx_opts o = { .block_size = bss[i],
				.page_size = 4096, .ops = 3000, .seed = seed,
				.quiet = true, .check_every = 50 };
			struct lbs_sim_counters k0, k1;
			struct lbs_fsx_result r0, r1;

			assert_int_equal(run(&o, &k0, &r0, NULL), 0);
			o.large_folios = true;
			o.alloc_fail_pct = 100;
			assert_int_equal(run(&o, &k1, &r1, NULL), 0);
			assert_true(r0.final_sum_valid && r1.final_sum_valid);
			assert_int_equal(r0.final_sum, r1.final_sum);
			assert_int_equal(r0.final_size, r1.final_size);
			assert_memory_equal(&k0, &k1,
				offsetof(struct lbs_sim_counters, lf));
			assert_true(k1.lf.alloc_failed > 0);
			for (unsigned j = 1; j < LBS_SIM_NR_ORDERS; j++)
				assert_int_equal(k1.lf.made[j], 0);
		}
	}
}

static uint64_t made_large(const struct lbs_sim_counters *k)
{
	uint64_t n = 0;

	for (unsigned j = 1; j < LBS_SIM_NR_ORDERS; j++)
		n += k->lf.made[j];
	return n;
}

static uint64_t sum4(const uint64_t *v)
{
	return v[0] + v[1] + v[2] + v[3];
}

/* campaigns with mm events: clean, and the regimes each should run */
static void t_campaigns(void **state)
{
	static const uint32_t bss[] = { 8192, 16384, 65536 };
	static const uint32_t fails[] = { 0, 50, 100 };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		for (size_t j = 0; j < 3; j++) {
			struct lbs_fsx_opts o = { .block_size = bss[i],
				.page_size = 4096, .ops = 6000,
				.seed = 40 + i * 3 + j, .quiet = true,
				.large_folios = true,
				.alloc_fail_pct = fails[j], .mm_event_pct = 30 };
			struct lbs_sim_counters k;
			struct lbs_fsx_result r;
			int rc = run(&o, &k, &r, NULL);

			printf("bs %u alloc-fail %u%%: rc %d, large %" PRIu64
			       " order0 %" PRIu64 " fallbacks %" PRIu64
			       " (failed %" PRIu64 "), splits %" PRIu64
			       ", mm applied %" PRIu64 " refused %" PRIu64
			       ", rechecks failed %" PRIu64 "\n", bss[i],
			       fails[j], rc, made_large(&k), k.lf.made[0],
			       k.lf.fallbacks, k.lf.alloc_failed,
			       k.folio_splits, sum4(k.lf.mm_applied),
			       sum4(k.lf.mm_refused), k.lf.retries);
			assert_int_equal(rc, 0);
			assert_int_equal(k.wb_hole_bytes, 0);
			assert_true(k.lf.checks >= o.ops);
			assert_true(k.lf.made[0] > 0 && k.lf.fallbacks > 0);
			if (fails[j] < 100)
				assert_true(made_large(&k) > 0);
			else
				assert_int_equal(made_large(&k), 0);
			if (fails[j] == 50)
				assert_true(k.lf.alloc_failed > 0);
			assert_true(sum4(k.lf.mm_applied) > 0 &&
				    sum4(k.lf.mm_refused) > 0);
		}
	}
}

/* write_pages (large folios from readahead only): both regimes as well */
static void t_write_pages_campaigns(void **state)
{
	static const uint32_t bss[] = { 16384, 65536 };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct lbs_fsx_opts o = { .block_size = bss[i],
			.page_size = 4096, .ops = 6000, .seed = 60 + i,
			.quiet = true, .large_folios = true, .write_pages = true,
			.alloc_fail_pct = 50, .mm_event_pct = 30 };
		struct lbs_sim_counters k;
		struct lbs_fsx_result r;

		assert_int_equal(run(&o, &k, &r, NULL), 0);
		assert_int_equal(k.wb_hole_bytes, 0);
		assert_true(made_large(&k) > 0 && k.lf.made[0] > 0);
		assert_true(k.lf.alloc_failed > 0);
		assert_true(k.za_calls > 0);
	}
}

/*
 * A negative control is caught when the campaign stops with its own
 * symptom: the first line of the mismatch log names it.
 */
static void negative_mix(const char *knob, uint32_t bs, uint32_t afail,
			 uint32_t mm, const char *mix, const char *symptom)
{
	struct lbs_fsx_opts o = { .block_size = bs, .page_size = 4096,
		.ops = 20000, .seed = 1, .quiet = true, .large_folios = true,
		.alloc_fail_pct = afail, .mm_event_pct = mm,
		.inject = lbs_sim_inject_parse(knob) };
	struct lbs_sim_counters k;
	struct lbs_fsx_result r;
	FILE *log = tmpfile();
	char line[512] = "";
	int rc;

	assert_non_null(log);
	assert_true(o.inject != 0);
	if (mix && lbs_fsx_mix_parse(mix, o.mix, line, sizeof(line)))
		fail_msg("mix %s: %s", mix, line);
	rc = run(&o, &k, &r, log);
	rewind(log);
	if (!fgets(line, sizeof(line), log))
		line[0] = 0;
	fclose(log);
	printf("negative %s bs %u: %s after %" PRIu64 " ops: %s", knob, bs,
	       rc == 1 && strstr(line, symptom) ? "caught" : "NOT CAUGHT",
	       r.ops_run, line);
	assert_int_equal(rc, 1);
	if (!strstr(line, symptom))
		fail_msg("%s: want \"%s\"", knob, symptom);
}

static void negative(const char *knob, uint32_t bs, uint32_t afail,
		     uint32_t mm, const char *symptom)
{
	negative_mix(knob, bs, afail, mm, NULL, symptom);
}

static void t_negative(void **state)
{
	(void)state;
	negative("decide-before-lock", 16384, 50, 100,
		 "zero-around left it out");
	negative("decide-before-lock", 65536, 0, 50,
		 "zero-around left it out");
	negative("no-recheck-after-relock", 16384, 50, 100,
		 "after it left the page cache");
	negative("no-recheck-after-relock", 65536, 0, 50,
		 "after it left the page cache");
	negative("step-by-page", 16384, 0, 0, "locked twice by one task");
	negative("step-by-page", 65536, 50, 30, "locked twice by one task");
	negative("sub-block-order", 65536, 0, 0,
		 "below the block's order 4 and not 0 (bimodal rule)");
	/* with clones, so that a folio holds a shared block */
	negative_mix("folio-dirty-whole", 16384, 0, 0, "reflink",
		     "shared blocks in place");
	negative_mix("folio-dirty-whole", 65536, 30, 30, "reflink",
		     "shared blocks in place");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest quick[] = {
		cmocka_unit_test(t_config),
		cmocka_unit_test(t_split_rules),
		cmocka_unit_test(t_write_folios),
		cmocka_unit_test(t_dirty_blocks),
		cmocka_unit_test(t_all_fail_is_order0),
		cmocka_unit_test(t_write_pages),
	};
	const struct CMUnitTest camp[] = {
		cmocka_unit_test(t_campaigns),
		cmocka_unit_test(t_write_pages_campaigns),
	};
	const struct CMUnitTest neg[] = {
		cmocka_unit_test(t_negative),
	};

	if (argc > 1 && !strcmp(argv[1], "campaigns"))
		return cmocka_run_group_tests(camp, NULL, NULL);
	if (argc > 1 && !strcmp(argv[1], "negative"))
		return cmocka_run_group_tests(neg, NULL, NULL);
	return cmocka_run_group_tests(quick, NULL, NULL);
}
