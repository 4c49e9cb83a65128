// SPDX-License-Identifier: GPL-2.0
/*
 * The fsx ops that share or copy data within the file: clone_range
 * (FICLONERANGE), dedupe_range (FIDEDUPERANGE), copy_range
 * (copy_file_range()) and unshare_range (fallocate's
 * FALLOC_FL_UNSHARE_RANGE).  As fstests fsx does them: its
 * generate_dest_range() for the ranges, its replay rules, its .fsxops
 * lines; the expected results are Linux 6.1's (generic_remap_checks(),
 * generic_remap_check_len(), generic_copy_file_checks()), so that ranges
 * fsx would not make (a replayed foreign file, the unaligned clones
 * drawn here) are checked too.
 */
#define _GNU_SOURCE
#include "fsx_int.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

bool fsx_remap_op(enum op op)
{
	return op == OP_CLONE || op == OP_DEDUPE || op == OP_COPY;
}

static uint64_t rounddown(uint64_t v, uint64_t a)
{
	return a > 1 ? v - v % a : v;
}

/* fsx's range_overlaps(): llabs(off1 - off0) < size */
static bool overlaps(uint64_t a, uint64_t b, uint64_t len)
{
	return (a > b ? a - b : b - a) < len;
}

/*
 * generate_dest_range(): the source trimmed into the file, then block
 * (st_blksize) aligned, or for copy_range to fsx's -r boundary; the
 * destination drawn below the file size limit (dedupe: the file size),
 * aligned likewise (copy_range: -w), not overlapping the source; after 30
 * draws the length becomes 0 and the op a logged "skip".  Unlike fsx, a
 * length rounded to 0 becomes one block if the file has it.  One clone in 16
 * keeps its length unaligned and one in 32 its offsets too, which fsx
 * never does: the oracle's expected EINVAL (and the EOF block rules)
 * against the execution's.
 */
void fsx_remap_gen(struct ctx *c, struct op_rec *r, uint64_t size)
{
	uint64_t end = r->op == OP_DEDUPE ? size : c->max;
	uint64_t salign = c->stat_bs, dalign = c->stat_bs;
	bool lalign = true;
	unsigned k = r->op == OP_CLONE ? (unsigned)fsx_rnd_below(c, 32) : 31;

	if (r->op == OP_UNSHARE) {	/* fsx: a fallocate, keep_size or not */
		r->keep = fsx_rnd_below(c, 2);
		return;
	}
	if (r->op == OP_COPY) {
		salign = c->rbdy;
		dalign = c->wbdy;
		lalign = c->o->direct;
	}
	if (k == 0)
		salign = dalign = 1;
	if (k <= 1)
		lalign = false;
	fsx_trim_off(&r->off, size);
	fsx_trim_len(r->off, &r->len, size);
	r->off = rounddown(r->off, salign);
	if (lalign)
		r->len = rounddown(r->len, salign);
	/* as for collapse and insert: fsx's lengths (below -o) would all
	 * round to 0 where the block is as large, a whole block instead */
	if (!r->len && r->off + salign <= size)
		r->len = salign;
	for (unsigned tries = 0;; tries++) {
		if (tries >= 30) {
			r->len = 0;
			break;
		}
		r->dst = rounddown(fsx_rnd_below(c, end), dalign);
		if (!overlaps(r->off, r->dst, r->len) && r->dst + r->len <= end)
			break;
	}
}

/* fsx test() and do_*_range() on a replayed op: skipped if empty, past
 * the size limit, or starting at or past EOF */
bool fsx_remap_normalize(const struct ctx *c, const struct op_rec *r,
			 uint64_t size)
{
	return r->len && r->dst + r->len <= c->max && r->off < size;
}

/*
 * generic_remap_checks() and generic_remap_check_len() of Linux 6.1 on
 * one file of size @size: -EINVAL, or 0 and the bytes remapped in @count.
 * Dedupe comes with REMAP_FILE_CAN_SHORTEN (vfs_dedupe_file_range()): a
 * length that does not end at EOF is cut to whole blocks, not refused.
 */
static int remap_expect(const struct ctx *c, const struct op_rec *r,
			uint64_t size, bool dedupe, uint64_t *count)
{
	uint64_t bs = c->b->remap_align, n = r->len, bcount;

	if (r->off % bs || r->dst % bs)
		return -EINVAL;
	if (dedupe && (r->off >= size || n > size - r->off ||
		       r->dst >= size || n > size - r->dst))
		return -EINVAL;
	if (r->off >= size)
		return -EINVAL;
	if (n > size - r->off)
		n = size - r->off;
	if (r->off + n == size && (!dedupe || r->dst + n == size)) {
		bcount = (size + bs - 1) / bs * bs - r->off;	/* EOF block */
	} else {
		n -= n % bs;
		bcount = n;
	}
	if (r->dst + bcount > r->off && r->dst < r->off + bcount)
		return -EINVAL;
	if (n != r->len && !dedupe)
		return -EINVAL;
	/* a partial EOF block may not land inside the destination */
	if (n % bs && r->dst + n < size) {
		if (!dedupe)
			return -EINVAL;
		n -= n % bs;
	}
	*count = n;
	return 0;
}

/* an expected EINVAL: the op must have failed with it, and did nothing */
static bool expected_einval(struct ctx *c, struct op_rec *r, int64_t res)
{
	if (res != -EINVAL)
		return fsx_bad_result(c, r, res);
	c->einval++;
	r->noop = true;
	return true;
}

bool fsx_remap_exec(struct ctx *c, struct op_rec *r, uint64_t size)
{
	struct fsx_backend *b = c->b;
	const uint8_t *cur = lbs_oracle_bytes(c->orc);
	uint64_t n = 0;
	int64_t res;
	int want;

	if (r->op == OP_UNSHARE) {
		/* no byte changes; the size as fallocate's */
		res = b->fallocate(b->p, FSX_FL_UNSHARE_RANGE |
				   (r->keep ? FSX_FL_KEEP_SIZE : 0),
				   r->off, r->len);
		if (fsx_unsupported(c, r, res))
			return true;
		if (res)
			return fsx_bad_result(c, r, res);
		if (!r->keep && r->off + r->len > size)
			lbs_oracle_set_size(c->orc, r->off + r->len);
		return true;
	}
	if (!fsx_remap_normalize(c, r, size)) {
		r->noop = true;		/* fsx: "skipping ... range" */
		return true;
	}
	switch (r->op) {
	case OP_CLONE:
		want = remap_expect(c, r, size, false, &n);
		res = b->clone_range(b->p, r->off, r->dst, r->len);
		if (fsx_unsupported(c, r, res))
			return true;
		if (want)
			return expected_einval(c, r, res);
		if (res)
			return fsx_bad_result(c, r, res);
		lbs_oracle_copy(c->orc, r->off, r->dst, n);
		return true;
	case OP_DEDUPE: {
		bool same;

		want = remap_expect(c, r, size, true, &n);
		res = b->dedupe_range(b->p, r->off, r->dst, r->len);
		if (fsx_unsupported(c, r, res))
			return true;
		if (want)
			return expected_einval(c, r, res);
		/* no byte changes either way, but the answer must be right */
		same = !memcmp(cur + r->off, cur + r->dst, n);
		if (res != (same ? 0 : FSX_DEDUPE_DIFFERS)) {
			fprintf(c->log, "dedupe_range: the oracle has the %"
				PRIu64 " bytes %s\n", n,
				same ? "equal" : "different");
			return fsx_bad_result(c, r, res);
		}
		return true;
	}
	case OP_COPY: {
		/* generic_copy_file_checks(): to the source's EOF, and no
		 * overlap of the bytes copied */
		uint64_t count = r->len < size - r->off ? r->len :
				 size - r->off;

		res = b->copy_range(b->p, r->off, r->dst, r->len);
		if (fsx_unsupported(c, r, res))
			return true;
		if (r->dst + count > r->off && r->dst < r->off + count)
			return expected_einval(c, r, res);
		if (res != (int64_t)count)
			return fsx_bad_result(c, r, res);
		lbs_oracle_copy(c->orc, r->off, r->dst, count);
		return true;
	}
	default:
		return true;
	}
}

/* log5() and logdump(): "op offset length dest file_size"; unshare is
 * fsx's fallocate with the unshare flag after keep_size */
void fsx_remap_record(FILE *f, const struct op_rec *r, uint64_t fsize,
		      bool skip)
{
	if (r->op == OP_UNSHARE) {
		fprintf(f, "%sfallocate 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
			"%s unshare\n", skip ? "skip " : "", r->off, r->len,
			fsize, r->keep ? " keep_size" : "");
		return;
	}
	fprintf(f, "%s%s 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
		"\n", skip ? "skip " : "", fsx_op_names[r->op], r->off, r->len,
		r->dst, fsize);
}
