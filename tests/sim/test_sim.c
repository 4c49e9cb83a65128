// SPDX-License-Identifier: GPL-2.0
/*
 * Simulator tests: directed seed scenarios at every bs x ps, seeded fsx
 * campaigns, negative controls for each fault knob, and a multithreaded
 * RCU lookup stress test.  Usage: test_sim directed|fsx|negative|rcu
 */
#define _GNU_SOURCE
#include "fsx.h"
#include "lbs_sim.h"
#include "oracle.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t bss[] = { 512, 4096, 8192, 16384, 65536 };
static const uint32_t pss[] = { 4096, 16384, 65536 };
static int failures;

struct t {
	struct lbs_sim *s;
	struct lbs_oracle *o;
	uint64_t op;
	uint8_t *buf;
	const char *name;
	uint32_t bs, ps;
};

#define MAXSZ (1u << 20)

static void t_init(struct t *t, const char *name, uint32_t bs, uint32_t ps,
		   unsigned inject)
{
	struct lbs_sim_config c = { bs, ps, MAXSZ, inject };
	char err[256];

	t->s = lbs_sim_create(&c, err, sizeof(err));
	if (!t->s) {
		fprintf(stderr, "create: %s\n", err);
		exit(1);
	}
	t->o = lbs_oracle_new(MAXSZ, 1);
	t->buf = aligned_alloc(4096, MAXSZ);
	t->op = 0;
	t->name = name;
	t->bs = bs;
	t->ps = ps;
}

static void t_fini(struct t *t)
{
	lbs_sim_destroy(t->s);
	lbs_oracle_free(t->o);
	free(t->buf);
}

static void fail(struct t *t, const char *what, uint64_t off)
{
	char d[256];

	lbs_sim_describe(t->s, off, d, sizeof(d));
	fprintf(stderr, "FAIL %s bs=%u ps=%u: %s at 0x%" PRIx64 ": %s\n",
		t->name, t->bs, t->ps, what, off, d);
	failures++;
}

static void gen(struct t *t, uint64_t pos, uint64_t len)
{
	lbs_oracle_gen(t->o, t->op, pos, len, t->buf);
}

enum wpath { W_BUFFERED, W_DIO, W_MMAP };

/*
 * Write the next generation over [pos, pos + len) through @path: all of
 * it must be written; the oracle takes the same write.
 */
static void write_via(struct t *t, enum wpath path, uint64_t pos,
		      uint64_t len)
{
	static const char *const what[] = {
		[W_BUFFERED] = "write", [W_DIO] = "dio write",
		[W_MMAP] = "mmap write",
	};
	int64_t n;

	t->op++;
	gen(t, pos, len);
	switch (path) {
	case W_BUFFERED:
		n = lbs_sim_write(t->s, pos, len, t->buf, SIZE_MAX);
		break;
	case W_DIO:
		n = lbs_sim_dio_write(t->s, pos, len, t->buf);
		break;
	default:
		n = lbs_sim_mmap_write(t->s, pos, len, t->buf);
		break;
	}
	if (n != (int64_t)len)
		fail(t, what[path], pos);
	lbs_oracle_write(t->o, pos, len, t->op);
}

static void w(struct t *t, uint64_t pos, uint64_t len)
{
	write_via(t, W_BUFFERED, pos, len);
}

static void dw(struct t *t, uint64_t pos, uint64_t len)
{
	write_via(t, W_DIO, pos, len);
}

static void mw(struct t *t, uint64_t pos, uint64_t len)
{
	write_via(t, W_MMAP, pos, len);
}

static void tr(struct t *t, uint64_t size)
{
	if (lbs_sim_truncate(t->s, size))
		fail(t, "truncate", size);
	lbs_oracle_set_size(t->o, size);
}

static void verify(struct t *t, const char *when)
{
	struct lbs_oracle_mismatch mm;
	uint64_t sz = lbs_sim_size(t->s);
	int64_t n = lbs_sim_read(t->s, 0, sz, t->buf);

	if (sz != lbs_oracle_size(t->o) ||
	    !lbs_oracle_check_read(t->o, 0, sz, t->buf, n, &mm))
		fail(t, when, sz != lbs_oracle_size(t->o) ? sz : mm.off);
}

static void crash(struct t *t)
{
	struct lbs_oracle_mismatch mm;
	uint64_t sz;

	lbs_sim_crash(t->s);
	sz = lbs_sim_size(t->s);
	if (lbs_sim_read(t->s, 0, sz, t->buf) != (int64_t)sz ||
	    !lbs_oracle_crash(t->o, sz, t->buf, &mm))
		fail(t, "after crash", mm.size_bad ? sz : mm.off);
}

static void fsync_drop_verify(struct t *t)
{
	lbs_sim_fsync(t->s);
	lbs_oracle_fsync(t->o);
	lbs_sim_drop_caches(t->s);
	verify(t, "read after drop caches");
}

/* the seed scenarios; every one also ends with a crash check */
static void scenario(int k, uint32_t bs, uint32_t ps, unsigned inject)
{
	static const char *const names[] = {
		"subpage-write-new-block", "write-into-unwritten",
		"truncate-down-then-extend", "dio-subblock-writes",
		"mmap-write-over-hole", "writeback-one-folio-then-crash",
	};
	struct t t;
	uint64_t B = bs, P = ps;

	t_init(&t, names[k], bs, ps, inject);
	switch (k) {
	case 0:
		w(&t, 1000, 100);
		verify(&t, "read");
		fsync_drop_verify(&t);
		w(&t, 3 * B + P + 5, 17);	/* new block past EOF */
		lbs_sim_writeback_folio(t.s, 3 * B + P);
		crash(&t);
		fsync_drop_verify(&t);
		break;
	case 1:
		lbs_sim_fallocate(t.s, 0, 0, 4 * B);
		lbs_oracle_set_size(t.o, 4 * B);
		w(&t, B + 7, 10);
		lbs_sim_writeback_folio(t.s, B + 7);
		crash(&t);
		w(&t, 2 * B + P + 3, 100);
		fsync_drop_verify(&t);
		crash(&t);
		break;
	case 2:
		w(&t, 0, 2 * B + 2 * P);
		lbs_sim_fsync(t.s);
		lbs_oracle_fsync(t.o);
		tr(&t, B + 100);
		tr(&t, 2 * B + P);
		verify(&t, "read after extend");
		w(&t, 2 * B + 3 * P, 10);	/* write past EOF */
		lbs_sim_dio_write(t.s, 3 * B, 512, t.buf);
		gen(&t, 3 * B, 512);
		t.op++;
		gen(&t, 3 * B, 512);
		lbs_sim_dio_write(t.s, 3 * B, 512, t.buf);
		lbs_oracle_write(t.o, 3 * B, 512, t.op);
		crash(&t);
		fsync_drop_verify(&t);
		break;
	case 3:
		dw(&t, B + 512, 512);
		fsync_drop_verify(&t);
		lbs_sim_fallocate(t.s, LBS_FL_KEEP_SIZE, 0, 6 * B);
		dw(&t, 4 * B + 1024, 1536);
		dw(&t, 512, 512);
		verify(&t, "read");
		if (lbs_sim_dio_write(t.s, 100, 512, t.buf) != -22)
			fail(&t, "misaligned dio write not EINVAL", 100);
		crash(&t);
		fsync_drop_verify(&t);
		break;
	case 4:
		tr(&t, 2 * B + P);
		mw(&t, 3, 10);
		mw(&t, B + P + 1, 20);
		lbs_sim_writeback_folio(t.s, 0);
		crash(&t);
		mw(&t, 2 * B + 5, 7);
		fsync_drop_verify(&t);
		break;
	case 5:
		w(&t, P + 3, 3);		/* page 1 of block 0, new */
		lbs_sim_writeback_folio(t.s, P);
		crash(&t);
		w(&t, 5 * B - 10, 30);		/* across a block boundary */
		lbs_sim_writeback_folio(t.s, 5 * B - 10);
		crash(&t);
		fsync_drop_verify(&t);
		break;
	}
	t_fini(&t);
}

static void dread_expect(struct t *t, uint64_t pos, uint64_t len,
			 int64_t want, bool zeros)
{
	int64_t n;

	memset(t->buf, 0xa5, len);
	n = lbs_sim_dio_read(t->s, pos, len, t->buf);
	if (n != want) {
		fprintf(stderr, "FAIL unaligned-dio-read bs=%u ps=%u: dread "
			"0x%" PRIx64 " 0x%" PRIx64 " gave %" PRId64 ", XFS 6.1 "
			"gives %" PRId64 "\n", t->bs, t->ps, pos, len, n, want);
		failures++;
		return;
	}
	for (int64_t i = 0; zeros && i < n; i++)
		if (t->buf[i]) {
			fail(t, "unaligned dio read of a hole not zeros",
			     pos + (uint64_t)i);
			return;
		}
}

/*
 * XFS 6.1 (iomap_dio_rw()) rejects a misaligned O_DIRECT read only where
 * it maps a written extent; holes, unwritten extents and reads at or past
 * EOF are done.  Blocks: 0 written, 1 hole, 2 unwritten, 3 written up to
 * EOF at 4B - 100.
 */
static void dio_read_rules(uint32_t bs, uint32_t ps)
{
	struct lbs_oracle_mismatch mm;
	struct t t;
	uint64_t B = bs, eof = 4 * B - 100;
	int64_t n;

	t_init(&t, "unaligned-dio-read", bs, ps, 0);
	w(&t, 0, B);
	tr(&t, eof);
	if (lbs_sim_fallocate(t.s, 0, 2 * B, B))
		fail(&t, "fallocate", 2 * B);
	w(&t, 3 * B, eof - 3 * B);
	lbs_sim_fsync(t.s);
	lbs_oracle_fsync(t.o);
	dread_expect(&t, 100, 512, -22, false);		/* written */
	dread_expect(&t, 0, 700, -22, false);		/* written, length */
	dread_expect(&t, B + 100, 300, 300, true);	/* hole */
	dread_expect(&t, B, 700, 700, true);		/* hole (+ unwritten) */
	dread_expect(&t, 2 * B + 1, 200, 200, true);	/* unwritten */
	dread_expect(&t, B + 100, 2 * B, -22, false);	/* ... into written */
	dread_expect(&t, eof, 13, 0, false);		/* at EOF */
	dread_expect(&t, eof + 7, 13, 0, false);	/* past EOF */
	dread_expect(&t, 5 * B + 3, 512, 0, false);
	/* aligned: the bytes up to EOF */
	n = lbs_sim_dio_read(t.s, 0, 4 * B, t.buf);
	if (!lbs_oracle_check_read(t.o, 0, 4 * B, t.buf, n, &mm))
		fail(&t, "aligned dio read", mm.off);
	t_fini(&t);
}

static int run_directed(void)
{
	for (size_t i = 0; i < sizeof(bss) / sizeof(bss[0]); i++)
		for (size_t j = 0; j < sizeof(pss) / sizeof(pss[0]); j++) {
			for (int k = 0; k < 6; k++)
				scenario(k, bss[i], pss[j], 0);
			dio_read_rules(bss[i], pss[j]);
		}
	printf("directed: %d failures\n", failures);
	return failures != 0;
}

static int run_fsx(uint64_t ops)
{
	struct lbs_fsx_result r;
	int bad = 0;

	for (size_t i = 0; i < sizeof(bss) / sizeof(bss[0]); i++) {
		for (size_t j = 0; j < sizeof(pss) / sizeof(pss[0]); j++) {
			struct lbs_fsx_opts o = { .block_size = bss[i],
				.page_size = pss[j], .ops = ops,
				.seed = 100 + i * 10 + j, .quiet = true };
			int rc = lbs_fsx_run(&o, &r);

			printf("fsx bs=%u ps=%u seed=%" PRIu64 ": %" PRIu64
			       " ops, rc %d, zero-around %" PRIu64 "/%" PRIu64
			       "\n", o.block_size, o.page_size, o.seed,
			       r.ops_run, rc, r.za_zeroed, r.za_min);
			bad |= rc != 0 || r.za_zeroed != r.za_min;
		}
	}
	return bad;
}

/* a negative control passes when the oracle catches the injected bug */
static int run_negative(void)
{
	static const char *const knobs[] = { "no-zero-around", "no-dio-zero",
		"no-wb-round", "mark-partial-uptodate" };
	int bad = 0;

	for (size_t k = 0; k < 4; k++) {
		struct lbs_fsx_result r;
		struct lbs_fsx_opts o = { .block_size = 65536,
			.page_size = 4096, .ops = 20000, .seed = 1,
			.inject = lbs_sim_inject_parse(knobs[k]),
			.quiet = true };
		FILE *log = tmpfile();
		char line[256] = "";
		int rc;

		o.log = log;
		rc = lbs_fsx_run(&o, &r);
		rewind(log);
		if (!fgets(line, sizeof(line), log))
			line[0] = 0;
		fclose(log);
		printf("negative %s: %s after %" PRIu64 " ops: %s",
		       knobs[k], rc == 1 ? "caught" : "NOT CAUGHT",
		       r.ops_run, line);
		bad |= rc != 1;
	}
	return bad;
}

struct rcu_arg {
	struct lbs_sim *s;
	volatile int stop;
	uint64_t lookups, hits, bad;
};

static void *reader(void *p)
{
	struct rcu_arg *a = p;
	struct lbs_sim_folio_info fi;
	uint64_t i = 0, n = 0, h = 0, bad = 0;

	while (!__atomic_load_n(&a->stop, __ATOMIC_ACQUIRE)) {
		uint64_t idx = (i++ * 7) % 300;

		if (lbs_sim_peek(a->s, idx, &fi)) {
			h++;
			if (fi.index != idx || fi.magic != LBS_SIM_FOLIO_MAGIC)
				bad++;
		}
		n++;
	}
	__atomic_fetch_add(&a->lookups, n, __ATOMIC_RELAXED);
	__atomic_fetch_add(&a->hits, h, __ATOMIC_RELAXED);
	__atomic_fetch_add(&a->bad, bad, __ATOMIC_RELAXED);
	return NULL;
}

static int run_rcu(void)
{
	struct lbs_sim_config c = { 16384, 4096, MAXSZ, 0 };
	struct rcu_arg a = { 0 };
	pthread_t th[3];
	char err[128];
	uint8_t *buf = calloc(1, 65536);

	a.s = lbs_sim_create(&c, err, sizeof(err));
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, reader, &a);
	for (int it = 0; it < 3000; it++) {
		uint64_t pos = (uint64_t)(it * 40503u) % (1u << 20);

		memset(buf, it & 0xff, 65536);
		lbs_sim_write(a.s, pos % (1200u * 1024), 9000, buf, SIZE_MAX);
		if (it % 7 == 0)
			lbs_sim_fsync(a.s);
		if (it % 11 == 0)
			lbs_sim_drop_caches(a.s);
		if (it % 53 == 0)
			lbs_sim_truncate(a.s, pos % 4096);
		if (it % 97 == 0)
			lbs_sim_crash(a.s);
	}
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	printf("rcu: %" PRIu64 " lookups, %" PRIu64 " hits, %" PRIu64
	       " bad\n", a.lookups, a.hits, a.bad);
	lbs_sim_destroy(a.s);
	free(buf);
	return a.bad != 0 || a.hits == 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "directed"))
		return run_directed();
	if (!strcmp(argv[1], "fsx"))
		return run_fsx(argc > 2 ? strtoull(argv[2], NULL, 0) : 3000);
	if (!strcmp(argv[1], "negative"))
		return run_negative();
	if (!strcmp(argv[1], "rcu"))
		return run_rcu();
	return 2;
}
