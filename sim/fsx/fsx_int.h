/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to the fsx campaign (fsx.c, fsx_gen.c, fsx_remap.c,
 * fsx_record.c, fsx_replay.c): the op record and the run's context shared
 * by the generator, the executor with its oracle, and the .fsxops
 * recorder and replayer.
 */
#ifndef LBS_FSX_INT_H
#define LBS_FSX_INT_H

#include "fsx.h"
#include "fsx_backend.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* the order of lbs_fsx_op_name() and --ops-mix: new ops go at the end */
enum op {
	OP_READ, OP_WRITE, OP_MAPREAD, OP_MAPWRITE, OP_TRUNCATE,
	OP_FALLOCATE, OP_PUNCH, OP_ZERO, OP_COLLAPSE, OP_INSERT, OP_FSYNC,
	OP_DREAD, OP_DWRITE, OP_FSYNC_RANGE, OP_WRITEBACK, OP_DROP,
	OP_CRASH, OP_WRITE_SHORT, OP_CLONE, OP_DEDUPE, OP_COPY, OP_UNSHARE,
	OP_NR
};

extern const char *const fsx_op_names[OP_NR];

struct op_rec {
	enum op op;
	uint64_t off, len, arg;	/* arg: fault point */
	uint64_t dst;		/* clone, dedupe, copy: destination */
	bool keep;		/* FALLOC_FL_KEEP_SIZE */
	bool noop;		/* set by fsx_exec_op(): no effect on the bytes */
	uint64_t done;		/* set by fsx_exec_op(): bytes a write wrote */
};

struct ctx {
	const struct lbs_fsx_opts *o;
	struct fsx_backend *b;
	struct lbs_oracle *orc;
	uint64_t max, opsize, opno, rng;
	/* fsx's testcalls: the op lines (not "skip") logged so far; the
	 * data of a write is that of test call tc + 1, as fsx replays it */
	uint64_t tc;
	unsigned mix[OP_NR];
	uint64_t mix_total;
	uint32_t rbdy, wbdy, tbdy;
	uint8_t *buf, *rbuf;
	uint32_t bs, stat_bs;
	FILE *log;
	uint64_t einval;
	uint64_t unfaithful;	/* recorded ops fsx would replay otherwise */
	uint64_t fsx_skipped;	/* replay: ops fsx's own rules skip */
	uint64_t unsup[LBS_FSX_NFEAT];	/* ops skipped: fs lacks the feature */
	unsigned unsup_mask;	/* given (--unsupported) or detected */
	uint64_t crash_skipped;	/* crash on a backend that cannot */
	uint64_t dio_unaligned_ok;	/* non-strict: fs took unaligned DIO */
	uint64_t final_sum;
	bool final_sum_valid;
	bool trace;
};

/* fsx's TRIM_OFF() and TRIM_LEN() */
static inline void fsx_trim_off(uint64_t *off, uint64_t size)
{
	*off = size ? *off % size : 0;
}

static inline void fsx_trim_len(uint64_t off, uint64_t *len, uint64_t size)
{
	if (off + *len > size)
		*len = size > off ? size - off : 0;
}

/* fsx.c */
/* the op's feature is missing (given, or -EOPNOTSUPP in @res): skip it,
 * count it; true if so */
bool fsx_unsupported(struct ctx *c, struct op_rec *r, int64_t res);
/* report an unexpected result @err of @r; returns false (mismatch) */
bool fsx_bad_result(struct ctx *c, const struct op_rec *r, int64_t err);
/* run one op; returns false on mismatch */
bool fsx_exec_op(struct ctx *c, struct op_rec *r);
/* the whole file against the oracle; @sum: record its checksum (end) */
bool fsx_check_whole(struct ctx *c, const struct op_rec *r, bool sum);
/* set up a run (@replay: no journal, and crashes only if @crashes: the
 * file has crash notes); -1 on a bad op mix */
int fsx_ctx_init(struct ctx *c, const struct lbs_fsx_opts *o,
		 struct fsx_backend *b, bool replay, bool crashes);
/* the run's counters into @r; frees the context */
void fsx_ctx_fini(struct ctx *c, struct lbs_fsx_result *r, int rc);
/* CLOCK_MONOTONIC, in seconds */
double fsx_now(void);

/* fsx_record.c */
/* what fsx test() does with a replayed op (@size: the file size before
 * it); false if fsx would skip it */
bool fsx_normalize(const struct ctx *c, struct op_rec *r, uint64_t size);
/* log @r to --record as fsx would; true for an op line (a test call) */
bool fsx_record(struct ctx *c, const struct op_rec *r, uint64_t fsize);

/* fsx_gen.c: the next random op, as fsx's test() draws and trims it */
void fsx_gen_op(struct ctx *c, struct op_rec *r);
/* a draw from the campaign's generator (seeded by the run's seed) */
uint64_t fsx_rnd_below(struct ctx *c, uint64_t n);
/* the default mix: weights per op, without --ops-mix */
extern const unsigned fsx_op_weight[OP_NR];

/* fsx_remap.c: clone_range, dedupe_range, copy_range, unshare_range */
bool fsx_remap_op(enum op op);
/* fsx's generate_dest_range() for the drawn @r (file size @size) */
void fsx_remap_gen(struct ctx *c, struct op_rec *r, uint64_t size);
/* what fsx test() checks before a replayed op; false: fsx skips it */
bool fsx_remap_normalize(const struct ctx *c, const struct op_rec *r,
			 uint64_t size);
/* run @r on the backend against the oracle; false on mismatch */
bool fsx_remap_exec(struct ctx *c, struct op_rec *r, uint64_t size);
/* the .fsxops line of an op that ran (or "skip" with @skip) */
void fsx_remap_record(FILE *f, const struct op_rec *r, uint64_t fsize,
		      bool skip);

#endif
