// SPDX-License-Identifier: GPL-2.0
/*
 * fsx-style random campaigns and .fsxops replay, on an op execution
 * backend (fsx_backend.h): the simulator for lbs-sim, a real file for
 * lbs-fsx.  The generator (fsx_gen.c), the oracle and the recorder are
 * the same for both, so the same seed and options give the same op
 * stream.  Here: the executor with the oracle's expected results, the
 * .fsxops recorder and the random run; the replayer is in fsx_replay.c,
 * the result printing in fsx_report.c, and the ops that share or copy
 * within the file are in fsx_remap.c.
 */
#define _GNU_SOURCE
#include "fsx_int.h"
#include "fsxops.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void fill(struct ctx *c, uint64_t pos, uint64_t len)
{
	lbs_oracle_gen(c->orc, c->tc + 1, pos, len, c->buf);
}

static void report(struct ctx *c, const struct op_rec *r, const char *what,
		   const struct lbs_oracle_mismatch *mm)
{
	char desc[256];

	fprintf(c->log, "MISMATCH at op %" PRIu64 " (%s 0x%" PRIx64
		" 0x%" PRIx64, c->opno, fsx_op_names[r->op], r->off, r->len);
	if (fsx_remap_op(r->op))
		fprintf(c->log, " to 0x%" PRIx64, r->dst);
	fprintf(c->log, "): %s\n", what);
	if (mm->size_bad) {
		fprintf(c->log, "  size: expected %" PRIu64 "..%" PRIu64
			", actual %" PRIu64 "\n", mm->size_expected_lo,
			mm->size_expected_hi, mm->size_actual);
		return;
	}
	c->b->describe(c->b->p, mm->off, desc, sizeof(desc));
	fprintf(c->log, "  offset 0x%" PRIx64 " (%" PRIu64 " bad bytes from "
		"there): expected 0x%02x, actual 0x%02x%s\n  state: %s\n",
		mm->off, mm->len, mm->expected, mm->actual,
		c->b->is_stale_byte(c->b->p, mm->off, mm->actual) ?
		" = STALE device pattern" :
		(mm->actual == 0xdb ? " (uninitialised folio memory?)" : ""),
		desc);
	if (mm->denied_rules) {
		char rules[96];

		lbs_crash_rules_format(mm->denied_rules, rules, sizeof(rules));
		fprintf(c->log, "  only crash rules not allowed here explain "
			"these bytes (--crash-allow): %s\n", rules);
	}
}

static uint64_t fnv1a64(const uint8_t *p, uint64_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (uint64_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* the whole file against the oracle; @sum: record its checksum (end) */
bool fsx_check_whole(struct ctx *c, const struct op_rec *r, bool sum)
{
	struct lbs_oracle_mismatch mm;
	uint64_t size = c->b->size(c->b->p), a = c->b->dio_align;
	int64_t n;

	/* fsx -Z reads the file back through O_DIRECT too; an aligned
	 * length past EOF returns the bytes up to EOF */
	n = c->o->direct ? c->b->dio_read(c->b->p, 0, (size + a - 1) / a * a,
					  c->rbuf) : -EOPNOTSUPP;
	if (n == -EOPNOTSUPP)
		n = c->b->read(c->b->p, 0, size, c->rbuf);

	/* the checksum of the bytes the backend holds, not the oracle's */
	if (sum) {
		c->final_sum = fnv1a64(c->rbuf, n > 0 ? (uint64_t)n : 0);
		c->final_sum_valid = n == (int64_t)size;
	}
	if (!lbs_oracle_check_read(c->orc, 0, size, c->rbuf, n, &mm) ||
	    size != lbs_oracle_size(c->orc)) {
		if (size != lbs_oracle_size(c->orc)) {
			mm.size_bad = true;
			mm.size_expected_lo = mm.size_expected_hi =
				lbs_oracle_size(c->orc);
			mm.size_actual = size;
		}
		report(c, r, "whole-file verify", &mm);
		return false;
	}
	return true;
}

bool fsx_bad_result(struct ctx *c, const struct op_rec *r, int64_t err)
{
	fprintf(c->log, "MISMATCH at op %" PRIu64 " (%s 0x%" PRIx64 " 0x%"
		PRIx64, c->opno, fsx_op_names[r->op], r->off, r->len);
	if (fsx_remap_op(r->op))
		fprintf(c->log, " to 0x%" PRIx64, r->dst);
	fprintf(c->log, "): unexpected result %" PRId64 "\n", err);
	return false;
}

static bool aligned_for_shift(struct ctx *c, uint64_t off, uint64_t len)
{
	/* the oracle's own statement of XFS's rule: whole fs blocks */
	return off % c->b->shift_align == 0 && len % c->b->shift_align == 0;
}

/* punch and zero change only the bytes below the old size */
static void oracle_zero_below(struct ctx *c, uint64_t off, uint64_t len,
			      uint64_t size)
{
	if (off < size)
		lbs_oracle_zero(c->orc, off,
				(off + len < size ? off + len : size) - off);
}

static int op_feature(enum op op)
{
	switch (op) {
	case OP_DREAD: case OP_DWRITE: return LBS_FSX_DIO;
	case OP_FALLOCATE: return LBS_FSX_FALLOCATE;
	case OP_PUNCH: return LBS_FSX_PUNCH;
	case OP_ZERO: return LBS_FSX_ZERO;
	case OP_COLLAPSE: return LBS_FSX_COLLAPSE;
	case OP_INSERT: return LBS_FSX_INSERT;
	case OP_CLONE: return LBS_FSX_CLONE;
	case OP_DEDUPE: return LBS_FSX_DEDUPE;
	case OP_COPY: return LBS_FSX_COPY;
	case OP_UNSHARE: return LBS_FSX_UNSHARE;
	default: return -1;
	}
}

bool fsx_unsupported(struct ctx *c, struct op_rec *r, int64_t res)
{
	int f = op_feature(r->op);

	if (f < 0 || (!(c->unsup_mask & LBS_FSX_F(f)) && res != -EOPNOTSUPP))
		return false;
	c->unsup_mask |= LBS_FSX_F(f);
	c->unsup[f]++;
	r->noop = true;
	return true;
}

/* O_DIRECT: unaligned gives EINVAL (strict backends: must) */
static bool dio_einval(struct ctx *c, struct op_rec *r, int64_t n,
		       uint64_t size, bool *bad)
{
	bool unaligned = (r->off | r->len) % c->b->dio_align != 0;

	*bad = false;
	if (!unaligned)
		return false;
	if (c->b->dio_read_lax && r->op == OP_DREAD && n >= 0) {
		/* iomap checks alignment only where it maps blocks: a read
		 * at EOF, of a hole or of unwritten extents is done */
		c->dio_unaligned_ok++;
		if (n == 0 && r->off >= size)
			r->noop = true;	/* read nothing: recorded as skip */
		return false;
	}
	if (n == -EINVAL) {
		c->einval++;
		r->noop = true;
		return true;
	}
	if (c->b->dio_strict)
		*bad = true;
	else
		c->dio_unaligned_ok++;	/* the fs has no alignment rule */
	return false;
}

static bool op_moves_data(enum op op)
{
	switch (op) {
	case OP_READ: case OP_MAPREAD: case OP_DREAD: case OP_WRITE:
	case OP_MAPWRITE: case OP_DWRITE: case OP_WRITE_SHORT:
		return true;
	default:
		return false;
	}
}

/* the most @r could change, for the journal (lbs_oracle_intent()) */
static void journal_intent(struct ctx *c, const struct op_rec *r,
			   uint64_t size)
{
	struct lbs_oracle *o = c->orc;

	switch (r->op) {
	case OP_WRITE: case OP_WRITE_SHORT: case OP_DWRITE: case OP_MAPWRITE:
		lbs_oracle_intent(o, LBS_OREC_INTENT_WRITE, r->off, r->len,
				  c->tc + 1);
		break;
	case OP_TRUNCATE:
		lbs_oracle_intent(o, LBS_OREC_INTENT_SIZE, r->off, 0, 0);
		break;
	case OP_FALLOCATE:
		if (!r->keep && r->off + r->len > size)
			lbs_oracle_intent(o, LBS_OREC_INTENT_SIZE,
					  r->off + r->len, 0, 0);
		break;
	case OP_PUNCH: case OP_ZERO:
		lbs_oracle_intent(o, LBS_OREC_INTENT_ZERO, r->off, r->len,
				  r->op == OP_ZERO && !r->keep);
		break;
	case OP_CLONE: case OP_COPY:
		lbs_oracle_intent(o, LBS_OREC_INTENT_COPY, r->off, r->dst,
				  r->len);
		break;
	default:
		break;
	}
}

/* run one op; returns false on mismatch */
static bool exec_op(struct ctx *c, struct op_rec *r)
{
	struct lbs_oracle_mismatch mm;
	struct fsx_backend *b = c->b;
	uint64_t size;
	int64_t n;
	int err;
	bool bad;

	if (r->op != OP_CRASH && b->settle)
		b->settle(b->p);
	size = b->size(b->p);
	r->noop = false;
	r->done = r->len;
	if (c->trace)
		fprintf(c->log, "op %" PRIu64 ": %s 0x%" PRIx64 " 0x%" PRIx64
			" arg 0x%" PRIx64 " dst 0x%" PRIx64 "%s size 0x%" PRIx64
			"\n", c->opno, fsx_op_names[r->op], r->off, r->len,
			r->arg, r->dst, r->keep ? " keep" : "", size);
	if (fsx_unsupported(c, r, 0))
		return true;
	if (!r->len && op_moves_data(r->op)) {
		r->noop = true;		/* fsx: "skipping zero size ..." */
		return true;
	}
	if (c->o->journal)
		journal_intent(c, r, size);
	switch (r->op) {
	case OP_READ:
	case OP_MAPREAD:
		n = r->op == OP_READ ?
			b->read(b->p, r->off, r->len, c->rbuf) :
			b->map_read(b->p, r->off, r->len, c->rbuf);
		if (!lbs_oracle_check_read(c->orc, r->off, r->len, c->rbuf, n,
					   &mm)) {
			report(c, r, "read", &mm);
			return false;
		}
		break;
	case OP_DREAD:
		n = b->dio_read(b->p, r->off, r->len, c->rbuf);
		if (fsx_unsupported(c, r, n))
			break;
		if (dio_einval(c, r, n, size, &bad))
			break;
		if (bad)
			goto bad_errno;
		if (!lbs_oracle_check_read(c->orc, r->off, r->len, c->rbuf, n,
					   &mm)) {
			report(c, r, "O_DIRECT read", &mm);
			return false;
		}
		break;
	case OP_WRITE:
		/*
		 * A full write must succeed (anything else stops the run):
		 * the oracle takes the data first, and the write copies it
		 * from there (one pass over the bytes, not three).
		 */
		lbs_oracle_write(c->orc, r->off, r->len, c->tc + 1);
		n = b->write(b->p, r->off, r->len,
			     lbs_oracle_bytes(c->orc) + r->off, SIZE_MAX);
		if (n != (int64_t)r->len)
			goto bad_errno;
		break;
	case OP_WRITE_SHORT:
		fill(c, r->off, r->len);
		n = b->write(b->p, r->off, r->len, c->buf, r->arg);
		if (n == -EFAULT) {	/* nothing copied */
			r->done = 0;
			break;
		}
		if (n < 0 || (uint64_t)n > r->len)
			goto bad_errno;
		r->done = (uint64_t)n;
		lbs_oracle_write_copy(c->orc, r->off, (uint64_t)n, c->tc + 1,
				      c->buf);
		break;
	case OP_DWRITE:
		fill(c, r->off, r->len);
		n = b->dio_write(b->p, r->off, r->len, c->buf);
		if (fsx_unsupported(c, r, n))
			break;
		if (dio_einval(c, r, n, size, &bad))
			break;
		if (bad)
			goto bad_errno;
		if (n != (int64_t)r->len)
			goto bad_errno;
		lbs_oracle_write_copy(c->orc, r->off, r->len, c->tc + 1, c->buf);
		break;
	case OP_MAPWRITE:
		if (r->off + r->len > size) {	/* fsx extends first */
			err = b->truncate(b->p, r->off + r->len);
			if (err)
				goto bad_err;
			lbs_oracle_set_size(c->orc, r->off + r->len);
		}
		/* as a full write: the oracle's bytes are the source */
		lbs_oracle_write(c->orc, r->off, r->len, c->tc + 1);
		n = b->mmap_write(b->p, r->off, r->len,
				  lbs_oracle_bytes(c->orc) + r->off);
		if (n != (int64_t)r->len)
			goto bad_errno;
		break;
	case OP_TRUNCATE:
		err = b->truncate(b->p, r->off);
		if (err)
			goto bad_err;
		lbs_oracle_set_size(c->orc, r->off);
		break;
	case OP_FALLOCATE:
		err = b->fallocate(b->p, r->keep ? FSX_FL_KEEP_SIZE : 0,
				   r->off, r->len);
		if (fsx_unsupported(c, r, err))
			break;
		if (err)
			goto bad_err;
		if (!r->keep && r->off + r->len > size)
			lbs_oracle_set_size(c->orc, r->off + r->len);
		break;
	case OP_PUNCH:
		err = b->fallocate(b->p, FSX_FL_PUNCH_HOLE | FSX_FL_KEEP_SIZE,
				   r->off, r->len);
		if (fsx_unsupported(c, r, err))
			break;
		if (err)
			goto bad_err;
		oracle_zero_below(c, r->off, r->len, size);
		break;
	case OP_ZERO:
		err = b->fallocate(b->p, FSX_FL_ZERO_RANGE |
				   (r->keep ? FSX_FL_KEEP_SIZE : 0),
				   r->off, r->len);
		if (fsx_unsupported(c, r, err))
			break;
		if (err)
			goto bad_err;
		oracle_zero_below(c, r->off, r->len, size);
		if (!r->keep && r->off + r->len > size)
			lbs_oracle_set_size(c->orc, r->off + r->len);
		break;
	case OP_COLLAPSE:
	case OP_INSERT: {
		bool ok = aligned_for_shift(c, r->off, r->len) &&
			  (r->op == OP_COLLAPSE ? r->off + r->len < size :
			   r->off < size);

		err = b->fallocate(b->p, r->op == OP_COLLAPSE ?
				   FSX_FL_COLLAPSE_RANGE : FSX_FL_INSERT_RANGE,
				   r->off, r->len);
		if (fsx_unsupported(c, r, err))
			break;
		if (!ok) {
			if (err != -EINVAL)
				goto bad_err;
			c->einval++;
			r->noop = true;
			break;
		}
		if (err)
			goto bad_err;
		if (r->op == OP_COLLAPSE)
			lbs_oracle_collapse(c->orc, r->off, r->len);
		else
			lbs_oracle_insert(c->orc, r->off, r->len);
		break;
	}
	case OP_CLONE: case OP_DEDUPE: case OP_COPY: case OP_UNSHARE:
		return fsx_remap_exec(c, r, size);
	case OP_FSYNC:
		b->fsync(b->p, c->opno);
		lbs_oracle_fsync(c->orc);
		break;
	case OP_FSYNC_RANGE:
		b->fsync_range(b->p, r->off, r->off + r->len - 1);
		lbs_oracle_fsync_range(c->orc, r->off, r->off + r->len - 1);
		break;
	case OP_WRITEBACK:
		b->writeback(b->p, r->off);
		break;
	case OP_DROP:
		b->drop_caches(b->p);
		return fsx_check_whole(c, r, false);
	case OP_CRASH: {
		uint64_t ns;

		if (!b->can_crash) {	/* not possible: skipped, counted */
			c->crash_skipped++;
			r->noop = true;
			break;
		}
		b->crash(b->p);
		ns = b->size(b->p);
		n = b->read(b->p, 0, ns, c->rbuf);
		if (n != (int64_t)ns) {
			mm = (struct lbs_oracle_mismatch){ .size_bad = true,
				.size_actual = (uint64_t)n };
			report(c, r, "read after crash", &mm);
			return false;
		}
		if (!lbs_oracle_crash(c->orc, ns, c->rbuf, &mm)) {
			report(c, r, "after crash", &mm);
			return false;
		}
		/* what a run and its replay must agree on */
		if (c->trace)
			fprintf(c->log, "  after crash: size 0x%" PRIx64
				" fnv1a64 %016" PRIx64 "\n", ns,
				fnv1a64(c->rbuf, ns));
		break;
	}
	default:
		break;
	}
	return true;
bad_errno:
	return fsx_bad_result(c, r, n);
bad_err:
	return fsx_bad_result(c, r, err);
}

/* run one op and check the backend's model invariant after it */
bool fsx_exec_op(struct ctx *c, struct op_rec *r)
{
	char why[256];

	if (!exec_op(c, r))
		return false;
	if (!c->b->model_broken ||
	    !c->b->model_broken(c->b->p, why, sizeof(why)))
		return true;
	fprintf(c->log, "MISMATCH at op %" PRIu64 " (%s 0x%" PRIx64 " 0x%"
		PRIx64 "): %s\n", c->opno, fsx_op_names[r->op], r->off,
		r->len, why);
	return false;
}

double fsx_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

uint64_t lbs_fsx_max_size(const struct lbs_fsx_opts *o)
{
	uint64_t max = o->file_size ? o->file_size : 256 * 1024;

	if (max < 16ull * o->block_size)
		max = 16ull * o->block_size;
	return max;
}

int fsx_ctx_init(struct ctx *c, const struct lbs_fsx_opts *o,
		 struct fsx_backend *b, bool replay, bool crashes)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->b = b;
	c->log = o->log ? o->log : stderr;
	c->max = lbs_fsx_max_size(o);
	c->opsize = o->op_size ? o->op_size : 64 * 1024;
	c->bs = o->block_size;
	c->stat_bs = b->stat_bs;
	c->unsup_mask = o->unsupported | b->unsupported;
	c->orc = lbs_oracle_new(c->max, (uint32_t)o->seed);
	if (o->perturb_gendata)
		lbs_oracle_perturb_gendata(c->orc);
	c->rbdy = o->read_bdy > 1 ? o->read_bdy : 1;
	c->wbdy = o->write_bdy > 1 ? o->write_bdy : 1;
	c->tbdy = o->trunc_bdy > 1 ? o->trunc_bdy : 1;
	for (unsigned k = 0; k < OP_NR; k++)
		c->mix_total += o->mix[k];
	memcpy(c->mix, c->mix_total ? o->mix : fsx_op_weight, sizeof(c->mix));
	if (o->no_crash)
		c->mix[OP_CRASH] = 0;
	c->mix_total = 0;
	for (unsigned k = 0; k < OP_NR; k++)
		c->mix_total += c->mix[k];
	/* the same crash rules for a run and its replay: a replay crashes
	 * at the file's crash notes (fsx has no crash op) */
	if (!replay)
		crashes = c->mix[OP_CRASH] != 0;
	if (!b->can_crash || !crashes || o->no_crash)
		lbs_oracle_no_crash(c->orc);
	else if (b->crash_lazy_meta)
		lbs_oracle_lazy_meta(c->orc);
	else if (b->crash_track_tails)
		lbs_oracle_track_tails(c->orc);
	lbs_oracle_tail_block(c->orc, b->remap_align);
	lbs_oracle_allow(c->orc, o->crash_allow);
	if (o->journal && !replay)
		lbs_oracle_set_journal(c->orc, o->journal, o->journal_arg);
	if (!c->mix_total) {
		fprintf(stderr, "%s: the op mix has no op left\n", b->name);
		lbs_oracle_free(c->orc);
		return -1;
	}
	/* room for an O_DIRECT read of the last block past EOF too */
	c->buf = aligned_alloc(4096, (c->max + 2 * 65536) & ~4095ull);
	c->rbuf = aligned_alloc(4096, (c->max + 2 * 65536) & ~4095ull);
	if (!c->buf || !c->rbuf)
		abort();
	c->rng = o->seed;
	c->trace = getenv("LBS_SIM_TRACE") != NULL;
	return 0;
}

void fsx_ctx_fini(struct ctx *c, struct lbs_fsx_result *r, int rc)
{
	r->final_size = c->b->size(c->b->p);
	c->b->counters(c->b->p, r);
	r->einval = c->einval;
	r->fsx_skipped = c->fsx_skipped;
	r->unfaithful = c->unfaithful;
	memcpy(r->unsupported, c->unsup, sizeof(c->unsup));
	r->unsupported_mask = c->unsup_mask;
	r->crash_skipped = c->crash_skipped;
	memcpy(r->crash_rules, lbs_oracle_rule_counts(c->orc),
	       sizeof(r->crash_rules));
	r->crash_allow = c->o->crash_allow;
	r->dio_unaligned_ok = c->dio_unaligned_ok;
	r->final_sum = c->final_sum;
	r->final_sum_valid = c->final_sum_valid && !rc;
	lbs_oracle_free(c->orc);
	free(c->buf);
	free(c->rbuf);
}

int lbs_fsx_run_on(const struct lbs_fsx_opts *o, struct fsx_backend *b,
		   struct lbs_fsx_result *res)
{
	struct ctx c;
	struct op_rec r;
	double t0 = fsx_now(), tl = t0;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (fsx_ctx_init(&c, o, b, false, false))
		return 2;
	for (c.opno = 1; c.opno <= o->ops; c.opno++) {
		uint64_t size = b->size(b->p);
		bool ok;

		fsx_gen_op(&c, &r);
		ok = fsx_exec_op(&c, &r);
		if (fsx_record(&c, &r, size))
			c.tc++;
		if (ok && o->check_every && !(c.opno % o->check_every))
			ok = fsx_check_whole(&c, &r, false);
		if (!ok) {
			res->mismatches = 1;
			rc = 1;
			break;
		}
		res->ops_run++;
		if (o->after_op)
			o->after_op(o->after_op_arg, c.opno);
		if (o->progress && !(c.opno & 0x3fff)) {
			double t = fsx_now();

			if (t - tl > 0.25) {
				fprintf(stderr, "\r%" PRIu64 "/%" PRIu64
					" ops  %.0f ops/s  0 mismatches ",
					c.opno, o->ops, c.opno / (t - t0));
				tl = t;
			}
		}
	}
	if (!rc) {
		r.op = OP_DROP;
		r.off = r.len = 0;
		if (o->before_final_check)
			o->before_final_check(o->hook_arg);
		if (!fsx_check_whole(&c, &r, true)) {
			res->mismatches = 1;
			rc = 1;
		}
	}
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	res->seconds = fsx_now() - t0;
	fsx_ctx_fini(&c, res, rc);
	return rc;
}
