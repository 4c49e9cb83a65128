// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's crash rules for a real XFS (lbs-fsx --crash-shutdown, the
 * power-cut journal): the strict contract of oracle.h and its named
 * exceptions.  Each case builds a post-crash file and checks who accepts
 * it: the strict rule, a shutdown with the log flushed (tails tracked)
 * with the case's rule denied and allowed, and an unflushed log
 * (lazy_meta).  An exception must be needed (denied: rejected, and the
 * mismatch names the rule), sufficient (allowed: accepted, counted) and
 * no wider than its case (stale bytes are rejected under every rule).
 */
#include "oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 65536
enum mode { STRICT, LOGFLUSH, LAZY_META };
static const char *const mname[] = { "strict", "logflush", "lazy-meta" };
static int failures;

static struct lbs_oracle *mk(enum mode m, unsigned allow)
{
	struct lbs_oracle *o = lbs_oracle_new(MAX, 1);

	if (m == LOGFLUSH)
		lbs_oracle_track_tails(o);
	else if (m == LAZY_META)
		lbs_oracle_lazy_meta(o);
	lbs_oracle_allow(o, allow);
	return o;
}

static void fail(const char *what, enum mode m, unsigned allow,
		 const char *why)
{
	printf("FAIL %s (%s, allowed 0x%x): %s\n", what, mname[m], allow, why);
	failures++;
}

/*
 * The crash check's verdict: @want_ok, else a mismatch that names
 * @want_rule (-1: none), and when accepted, @want_rule counted once
 * with @want_bytes bytes (-1: no rule used)
 */
static void expect(const char *what, enum mode m, unsigned allow,
		   struct lbs_oracle *o, uint64_t size, const uint8_t *disk,
		   bool want_ok, int want_rule, uint64_t lo, uint64_t hi)
{
	uint64_t want_bytes = 0;
	struct lbs_oracle_mismatch mm;
	struct lbs_crash_rule_count before[LBS_CRASH_NR_RULES];
	bool ok;

	for (uint64_t i = lo; i < hi; i++)
		want_bytes += disk[i] != 0;
	memcpy(before, lbs_oracle_rule_counts(o), sizeof(before));
	ok = lbs_oracle_crash(o, size, disk, &mm);
	if (ok != want_ok) {
		fail(what, m, allow, ok ? "accepted, expected a mismatch" :
		     "rejected, expected it accepted");
		return;
	}
	if (!ok) {
		if (mm.denied_rules != (want_rule < 0 ? 0u :
					LBS_CRASH_F((unsigned)want_rule))) {
			char why[96];

			snprintf(why, sizeof(why), "mismatch names rules 0x%x, "
				 "expected %d", (int)mm.denied_rules, want_rule);
			fail(what, m, allow, why);
		}
		return;
	}
	for (unsigned k = 0; k < LBS_CRASH_NR_RULES; k++) {
		const struct lbs_crash_rule_count *c =
			&lbs_oracle_rule_counts(o)[k];
		bool used = (int)k == want_rule;

		if (c->crashes != before[k].crashes + used ||
		    c->bytes != before[k].bytes + (used ? want_bytes : 0)) {
			char why[96];

			snprintf(why, sizeof(why), "rule %u counts %llu/%llu, "
				 "expected %s", k,
				 (unsigned long long)(c->crashes - before[k].crashes),
				 (unsigned long long)(c->bytes - before[k].bytes),
				 used ? "the case's bytes" : "none");
			fail(what, m, allow, why);
		}
	}
}

/* tc 1's bytes over [0, 8192), fsynced, as the disk holds them */
static void durable_a(struct lbs_oracle *o, uint8_t *disk)
{
	lbs_oracle_write(o, 0, 8192, 1);
	lbs_oracle_fsync(o);
	memcpy(disk, lbs_oracle_bytes(o), 8192);
}

/*
 * Truncate to 100, write past the old EOF, crash: the size is the
 * write's end (written back), but the zeroes of the truncate never
 * reached the disk, so [100, 8192) still holds tc 1's bytes.
 */
static void trunc_tail(enum mode m, unsigned allow, bool fsync_between,
		       bool stale)
{
	struct lbs_oracle *o = mk(m, allow);
	uint8_t *disk = calloc(MAX, 1);
	bool allowed = allow & LBS_CRASH_F(LBS_CRASH_TRUNCATE_TAIL);
	/* lazy_meta: the truncate may be lost, so the bytes are durable */
	bool durable = m == LAZY_META && !fsync_between;
	char what[96];

	durable_a(o, disk);
	lbs_oracle_set_size(o, 100);
	if (fsync_between)
		lbs_oracle_fsync(o);
	lbs_oracle_write(o, 9000, 1000, 2);
	lbs_oracle_gen(o, 2, 9000, 1000, disk + 9000);
	memset(disk + 8192, 0, 9000 - 8192);
	if (stale)
		memcpy(disk + 4000, "STALEDA\n", 8);
	snprintf(what, sizeof(what), "truncate-tail%s%s",
		 fsync_between ? ", fsync between" : "",
		 stale ? ", stale bytes" : "");
	if (stale)
		expect(what, m, allow, o, 10000, disk, false, -1, 0, 0);
	else if (m == STRICT)
		expect(what, m, allow, o, 10000, disk, false, -1, 0, 0);
	else if (durable)
		expect(what, m, allow, o, 10000, disk, true, -1, 0, 0);
	else
		expect(what, m, allow, o, 10000, disk, allowed,
		       LBS_CRASH_TRUNCATE_TAIL, 100, 8192);
	lbs_oracle_free(o);
	free(disk);
}

/*
 * truncate-tail with the block size known (4096): a truncate whose log
 * was flushed leaves the cut-off bytes of its EOF block [100, 4096) at
 * most; the next block [4096, 8192) was unmapped in the same truncate,
 * so its old bytes are no rule's, while an unflushed log may have lost
 * the truncate's later rolls and keeps them.
 */
static void trunc_tail_block(enum mode m, bool past_eof_block)
{
	const unsigned t = LBS_CRASH_F(LBS_CRASH_TRUNCATE_TAIL);
	struct lbs_oracle *o = mk(m, t);
	uint8_t *disk = calloc(MAX, 1);
	char what[96];

	lbs_oracle_tail_block(o, 4096);
	durable_a(o, disk);
	lbs_oracle_set_size(o, 100);
	lbs_oracle_fsync(o);
	lbs_oracle_write(o, 9000, 1000, 2);
	lbs_oracle_gen(o, 2, 9000, 1000, disk + 9000);
	memset(disk + (past_eof_block ? 8192 : 4096), 0,
	       9000 - (past_eof_block ? 8192 : 4096));
	snprintf(what, sizeof(what), "truncate-tail, 4096 blocks, old bytes "
		 "%s", past_eof_block ? "past the EOF block" : "in it only");
	if (!past_eof_block)
		expect(what, m, t, o, 10000, disk, true,
		       LBS_CRASH_TRUNCATE_TAIL, 100, 4096);
	else if (m == LOGFLUSH)
		expect(what, m, t, o, 10000, disk, false, -1, 0, 0);
	else
		expect(what, m, t, o, 10000, disk, true,
		       LBS_CRASH_TRUNCATE_TAIL, 100, 8192);
	lbs_oracle_free(o);
	free(disk);
}

/* a truncate down lost whole: the fsynced size and bytes come back */
static void trunc_lost(enum mode m)
{
	struct lbs_oracle *o = mk(m, 0);
	uint8_t *disk = calloc(MAX, 1);

	durable_a(o, disk);
	lbs_oracle_set_size(o, 100);
	expect("truncate lost", m, 0, o, 8192, disk, m == LAZY_META, -1, 0, 0);
	lbs_oracle_free(o);
	free(disk);
}

/* a range fsync over unwritten blocks: the conversion is in the log only */
static void range_fsync_lost(enum mode m)
{
	struct lbs_oracle *o = mk(m, 0);
	uint8_t *disk = calloc(MAX, 1);

	lbs_oracle_set_size(o, 8192);
	lbs_oracle_fsync(o);
	lbs_oracle_write(o, 0, 4096, 3);
	lbs_oracle_fsync_range(o, 0, 4095);
	expect("range fsync's conversion lost", m, 0, o, 8192, disk,
	       m == LAZY_META, -1, 0, 0);
	lbs_oracle_free(o);
	free(disk);
}

/*
 * A crash cut the file short (the size update of data written back was
 * not logged); the file grows back over those bytes and crashes again
 * before its extension's zeroes reach the disk.
 */
static void crash_tail(enum mode m, unsigned allow, bool stale)
{
	struct lbs_oracle *o = mk(m, allow);
	uint8_t *disk = calloc(MAX, 1);
	bool allowed = allow & LBS_CRASH_F(LBS_CRASH_CRASH_TAIL);

	lbs_oracle_set_size(o, 100);
	lbs_oracle_fsync(o);
	lbs_oracle_write(o, 100, 8092, 4);	/* written back, size not logged */
	memcpy(disk, lbs_oracle_bytes(o), 8192);
	expect("size falls back to the fsynced one", m, allow, o, 100, disk,
	       true, -1, 0, 0);
	lbs_oracle_fsync(o);
	lbs_oracle_write(o, 9000, 1000, 5);
	lbs_oracle_gen(o, 5, 9000, 1000, disk + 9000);
	memset(disk + 8192, 0, 9000 - 8192);
	if (stale)
		memcpy(disk + 4000, "STALEDA\n", 8);
	if (stale || m == STRICT)
		expect(stale ? "crash-tail, stale bytes" : "crash-tail", m,
		       allow, o, 10000, disk, false, -1, 0, 0);
	else
		expect("crash-tail", m, allow, o, 10000, disk, allowed,
		       LBS_CRASH_CRASH_TAIL, 100, 8192);
	lbs_oracle_free(o);
	free(disk);
}

/*
 * tests/guest reflink-shutdown-eof in bytes: a clone lands past the
 * on-disk size, a crash rolls the size back below it, the file grows
 * past it and crashes again with the clone source's bytes there.
 */
static void remap_tail(enum mode m, unsigned allow)
{
	struct lbs_oracle *o = mk(m, allow);
	uint8_t *disk = calloc(MAX, 1);
	bool allowed = allow & LBS_CRASH_F(LBS_CRASH_REMAP_TAIL);

	durable_a(o, disk);
	lbs_oracle_write(o, 60000, 100, 2);	/* in-core size 60100 */
	lbs_oracle_copy(o, 0, 32768, 4096);	/* the clone: on disk at once */
	memcpy(disk + 32768, disk, 4096);
	expect("size falls back below the clone", m, allow, o, 8192, disk,
	       true, -1, 0, 0);
	lbs_oracle_write(o, 40000, 1000, 3);
	lbs_oracle_gen(o, 3, 40000, 1000, disk + 40000);
	if (m == STRICT)
		expect("remap-tail", m, allow, o, 41000, disk, false, -1, 0, 0);
	else
		expect("remap-tail", m, allow, o, 41000, disk, allowed,
		       LBS_CRASH_REMAP_TAIL, 32768, 36864);
	lbs_oracle_free(o);
	free(disk);
}

/* fsynced data must survive every rule */
static void fsynced_data_lost(enum mode m, unsigned allow)
{
	struct lbs_oracle *o = mk(m, allow);
	uint8_t *disk = calloc(MAX, 1);

	durable_a(o, disk);
	memset(disk + 4096, 0, 512);
	expect("fsynced bytes zero", m, allow, o, 8192, disk, false, -1, 0, 0);
	lbs_oracle_free(o);
	free(disk);
}

static void parse_names(void)
{
	unsigned mask = 99;

	if (lbs_crash_rules_parse("truncate-tail,remap-tail", &mask) ||
	    mask != (LBS_CRASH_F(LBS_CRASH_TRUNCATE_TAIL) |
		     LBS_CRASH_F(LBS_CRASH_REMAP_TAIL)))
		fail("parse truncate-tail,remap-tail", STRICT, mask, "bad");
	if (lbs_crash_rules_parse("none", &mask) || mask)
		fail("parse none", STRICT, mask, "bad");
	if (!lbs_crash_rules_parse("crash-tail,bogus", &mask) ||
	    !lbs_crash_rules_parse("crash", &mask))
		fail("parse bad names", STRICT, mask, "accepted");
	for (unsigned k = 0; k < LBS_CRASH_NR_RULES; k++)
		if (lbs_crash_rules_parse(lbs_crash_rule_name(k), &mask) ||
		    mask != LBS_CRASH_F(k))
			fail("parse each name", STRICT, k, "bad");
}

int main(void)
{
	const unsigned all = LBS_CRASH_F(LBS_CRASH_NR_RULES) - 1;

	/* strict: nothing allowed (the simulator's oracle) */
	for (int f = 0; f < 2; f++) {
		trunc_tail(STRICT, 0, f, false);
		trunc_tail(STRICT, 0, f, true);
	}
	crash_tail(STRICT, 0, false);
	remap_tail(STRICT, 0);
	for (int m = LOGFLUSH; m <= LAZY_META; m++) {
		/* each case with its rule denied (all others allowed), then
		 * allowed (all others denied) */
		for (int s = 0; s < 2; s++) {
			unsigned t = LBS_CRASH_F(LBS_CRASH_TRUNCATE_TAIL);
			unsigned c = LBS_CRASH_F(LBS_CRASH_CRASH_TAIL);
			unsigned r = LBS_CRASH_F(LBS_CRASH_REMAP_TAIL);

			for (int f = 0; f < 2; f++) {
				trunc_tail(m, s ? t : all & ~t, f, false);
				trunc_tail(m, s ? all : t, f, true);
			}
			crash_tail(m, s ? c : all & ~c, false);
			crash_tail(m, all, true);
			remap_tail(m, s ? r : all & ~r);
		}
	}
	for (int m = LOGFLUSH; m <= LAZY_META; m++) {
		trunc_tail_block(m, false);
		trunc_tail_block(m, true);
	}
	for (int m = STRICT; m <= LAZY_META; m++) {
		trunc_lost(m);
		range_fsync_lost(m);
		fsynced_data_lost(m, m == STRICT ? 0 : all);
	}
	parse_names();
	printf("oracle crash rules: %d failures\n", failures);
	return failures != 0;
}
