// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's crash rules for a real XFS (lbs-fsx --crash-shutdown):
 * lbs_oracle_lazy_truncate() (log flushed at shutdown) and
 * lbs_oracle_lazy_meta() (not flushed).  Each case builds a post-crash
 * file that XFS may leave behind and checks that the weakened rule
 * accepts it while the simulator's strict rule rejects it (the negative
 * control of the weakening: it is needed, and no wider than the case),
 * and that a stale byte is rejected under every rule.
 */
#include "oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 65536
enum mode { STRICT, LAZY_TRUNC, LAZY_META };
static const char *const mname[] = { "strict", "lazy-truncate", "lazy-meta" };
static int failures;

static struct lbs_oracle *mk(enum mode m)
{
	struct lbs_oracle *o = lbs_oracle_new(MAX, 1);

	if (m == LAZY_TRUNC)
		lbs_oracle_lazy_truncate(o);
	else if (m == LAZY_META)
		lbs_oracle_lazy_meta(o);
	return o;
}

static void expect(const char *what, enum mode m, bool got, bool want)
{
	if (got == want)
		return;
	printf("FAIL %s (%s): crash check %s, expected %s\n", what, mname[m],
	       got ? "accepted" : "rejected", want ? "accept" : "reject");
	failures++;
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
static void trunc_zeroes_lost(enum mode m, bool fsync_between, bool stale)
{
	struct lbs_oracle *o = mk(m);
	struct lbs_oracle_mismatch mm;
	uint8_t *disk = calloc(MAX, 1);
	char what[96];

	durable_a(o, disk);
	lbs_oracle_set_size(o, 100);
	if (fsync_between)	/* the EOF block's tail is past EOF: not written */
		lbs_oracle_fsync(o);
	lbs_oracle_write(o, 9000, 1000, 2);
	lbs_oracle_gen(o, 2, 9000, 1000, disk + 9000);
	memset(disk + 8192, 0, 9000 - 8192);
	if (stale)
		memcpy(disk + 4000, "STALEDA\n", 8);
	snprintf(what, sizeof(what), "truncate's zeroes lost%s%s",
		 fsync_between ? ", fsync between" : "",
		 stale ? ", stale bytes" : "");
	expect(what, m, lbs_oracle_crash(o, 10000, disk, &mm),
	       m != STRICT && !stale);
	lbs_oracle_free(o);
	free(disk);
}

/* a truncate down lost whole: the fsynced size and bytes come back */
static void trunc_lost(enum mode m)
{
	struct lbs_oracle *o = mk(m);
	struct lbs_oracle_mismatch mm;
	uint8_t *disk = calloc(MAX, 1);

	durable_a(o, disk);
	lbs_oracle_set_size(o, 100);
	expect("truncate lost", m, lbs_oracle_crash(o, 8192, disk, &mm),
	       m == LAZY_META);
	lbs_oracle_free(o);
	free(disk);
}

/* a range fsync over unwritten blocks: the conversion is in the log only */
static void range_fsync_lost(enum mode m)
{
	struct lbs_oracle *o = mk(m);
	struct lbs_oracle_mismatch mm;
	uint8_t *disk = calloc(MAX, 1);

	lbs_oracle_set_size(o, 8192);
	lbs_oracle_fsync(o);
	lbs_oracle_write(o, 0, 4096, 3);
	lbs_oracle_fsync_range(o, 0, 4095);
	expect("range fsync's conversion lost", m,
	       lbs_oracle_crash(o, 8192, disk, &mm), m == LAZY_META);
	lbs_oracle_free(o);
	free(disk);
}

/* a crash that cut the file short leaves its tail on disk past EOF */
static void tail_after_crash(enum mode m)
{
	struct lbs_oracle *o = mk(m);
	struct lbs_oracle_mismatch mm;
	uint8_t *disk = calloc(MAX, 1);
	bool ok;

	lbs_oracle_set_size(o, 100);
	lbs_oracle_fsync(o);
	lbs_oracle_write(o, 100, 8092, 4);	/* written back, size not logged */
	memcpy(disk, lbs_oracle_bytes(o), 8192);
	ok = lbs_oracle_crash(o, 100, disk, &mm);
	expect("size falls back to the fsynced one", m, ok, true);
	lbs_oracle_fsync(o);
	lbs_oracle_write(o, 9000, 1000, 5);
	lbs_oracle_gen(o, 5, 9000, 1000, disk + 9000);
	memset(disk + 8192, 0, 9000 - 8192);
	expect("tail past EOF shows after the next extension", m,
	       lbs_oracle_crash(o, 10000, disk, &mm), m != STRICT);
	lbs_oracle_free(o);
	free(disk);
}

/* fsynced data must survive every rule */
static void fsynced_data_lost(enum mode m)
{
	struct lbs_oracle *o = mk(m);
	struct lbs_oracle_mismatch mm;
	uint8_t *disk = calloc(MAX, 1);

	durable_a(o, disk);
	memset(disk + 4096, 0, 512);
	expect("fsynced bytes zero", m, lbs_oracle_crash(o, 8192, disk, &mm),
	       false);
	lbs_oracle_free(o);
	free(disk);
}

int main(void)
{
	for (int m = STRICT; m <= LAZY_META; m++) {
		trunc_zeroes_lost(m, false, false);
		trunc_zeroes_lost(m, true, false);
		trunc_zeroes_lost(m, false, true);
		trunc_zeroes_lost(m, true, true);
		trunc_lost(m);
		range_fsync_lost(m);
		tail_after_crash(m);
		fsynced_data_lost(m);
	}
	printf("oracle crash rules: %d failures\n", failures);
	return failures != 0;
}
