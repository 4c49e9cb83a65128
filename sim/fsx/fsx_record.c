// SPDX-License-Identifier: GPL-2.0
/*
 * The .fsxops recorder: an op of the campaign as fstests' fsx logs it,
 * and fsx's own rules for an op, which the replayer (fsx_replay.c) applies
 * too.
 */
#include "fsx_int.h"

#include <inttypes.h>

/*
 * What fstests' fsx test() does with a replayed op before it runs it: the
 * same trimming to the file size or the size limit, collapse and insert
 * ranges rounded down to st_blksize, and the conditions under which fsx
 * skips the op (logs it as "skip").  @size is the file size before the
 * op.  Returns false if fsx would skip it.
 */
bool fsx_normalize(const struct ctx *c, struct op_rec *r, uint64_t size)
{
	uint64_t bsz = c->stat_bs;

	switch (r->op) {
	case OP_READ: case OP_MAPREAD:
		fsx_trim_off(&r->off, size);
		fsx_trim_len(r->off, &r->len, size);
		return r->len && r->off + r->len <= size;
	case OP_WRITE: case OP_MAPWRITE: case OP_FALLOCATE: case OP_ZERO:
	case OP_UNSHARE:
		fsx_trim_off(&r->off, c->max);
		fsx_trim_len(r->off, &r->len, c->max);
		return r->len != 0;
	case OP_PUNCH:
		fsx_trim_off(&r->off, size);
		fsx_trim_len(r->off, &r->len, size);
		return r->len && r->off < size;
	case OP_COLLAPSE:
		if (!size)
			return false;
		fsx_trim_off(&r->off, size - 1);
		fsx_trim_len(r->off, &r->len, size - 1);
		r->off -= r->off % bsz;
		r->len -= r->len % bsz;
		return r->len && r->off + r->len < size;
	case OP_INSERT:
		fsx_trim_off(&r->off, size);
		fsx_trim_len(size, &r->len, c->max);
		r->off -= r->off % bsz;
		r->len -= r->len % bsz;
		return r->len && size + r->len <= c->max && r->off < size;
	case OP_CLONE: case OP_DEDUPE: case OP_COPY:
		return fsx_remap_normalize(c, r, size);
	default:
		return true;
	}
}

/*
 * The note of how the op of line @n (@skip: a "skip" line) was done where
 * fsx would do otherwise: the range of an fsync_range, O_DIRECT, a short
 * write's length and fault point, a punch fsx trims to EOF or skips.  A
 * skip line has one if the run did the op: a short write that copied
 * nothing, a punch past EOF, a failed O_DIRECT read (the last two write
 * back their range first, which a later crash shows).
 */
static void record_note(FILE *f, const struct op_rec *r,
			const struct op_rec *n, bool skip)
{
	switch (r->op) {
	case OP_WRITE_SHORT:
		fprintf(f, "# lbs-sim write_short 0x%" PRIx64 " 0x%" PRIx64
			" 0x%" PRIx64 "\n", r->off, r->len, r->arg);
		return;
	case OP_DREAD:		/* even EINVAL flushed the range first */
		break;
	case OP_DWRITE:
		if (skip)
			return;
		break;
	case OP_PUNCH:
		if (r->noop || (!skip && n->off == r->off && n->len == r->len))
			return;
		break;
	case OP_FSYNC_RANGE:
		break;
	default:
		return;
	}
	fprintf(f, "# lbs-sim %s 0x%" PRIx64 " 0x%" PRIx64 "\n",
		fsx_op_names[r->op], r->off, r->len);
}

/*
 * Write the op as fstests' fsx logs it (logdump()): "op arg0 arg1
 * file_size" with the file size before the op, truncate as "truncate 0
 * newsize", fsync as "fsync 0 0", then " keep_size" (fallocate and
 * zero_range only).  Ops that left the bytes alone where fsx would have
 * done something (EINVAL, a fully faulted write) are logged with "skip";
 * an O_DIRECT op is logged as the read or write fsx -Z would do, a short
 * write as the write of what was copied.  What fsx's format cannot say
 * is a "# lbs-sim" note, a comment to fsx (fsxops.h): how the op of the
 * next line was done (record_note()), and crash, writeback and
 * drop_caches as notes alone (what a crash loses depends on the last
 * two), so that our replay repeats the run, crashes included.  Returns
 * true for an op line (fsx counts those as test calls, and the data of
 * each write follows that count), false for "skip", a note or nothing.
 */
bool fsx_record(struct ctx *c, const struct op_rec *r, uint64_t fsize)
{
	FILE *f = c->o->record;
	struct op_rec n = *r;
	const char *name;
	bool skip = r->noop;

	switch (r->op) {
	case OP_DREAD: n.op = OP_READ; break;
	case OP_DWRITE: n.op = OP_WRITE; break;
	case OP_WRITE_SHORT:
		n.op = OP_WRITE;
		n.len = r->done;
		skip = !r->done;
		break;
	case OP_FSYNC_RANGE: n.op = OP_FSYNC; break;
	case OP_WRITEBACK:
		if (f)
			fprintf(f, "# lbs-sim writeback 0x%" PRIx64 "\n",
				r->off);
		return false;
	case OP_DROP:
		if (f)
			fprintf(f, "# lbs-sim drop_caches\n");
		return false;
	case OP_CRASH:
		/* a backend that cannot crash did not: not a note */
		if (f)
			fprintf(f, "# lbs-sim %scrash (file size 0x%" PRIx64
				" before)\n", r->noop ? "skip " : "", fsize);
		return false;
	default: break;
	}
	if (!skip && n.op != OP_TRUNCATE && n.op != OP_FSYNC) {
		struct op_rec m = n;

		/* record what fsx would do byte for byte on replay; a read
		 * or punch at or past EOF did nothing: fsx would read or
		 * punch elsewhere */
		if (!fsx_normalize(c, &m, fsize) ||
		    ((n.op == OP_READ || n.op == OP_MAPREAD ||
		      n.op == OP_PUNCH) && n.off >= fsize))
			skip = n.op == OP_READ || n.op == OP_MAPREAD ||
			       n.op == OP_PUNCH || fsx_remap_op(n.op);
		else if (n.op == OP_READ || n.op == OP_MAPREAD ||
			 n.op == OP_PUNCH)
			n = m;
		if (!skip && (m.off != n.off || m.len != n.len)) {
			if (f)
				fprintf(f, "# lbs-sim: fsx replays the next op "
					"as 0x%" PRIx64 " 0x%" PRIx64 "\n",
					m.off, m.len);
			c->unfaithful++;
		}
	}
	if (fsx_remap_op(n.op) || n.op == OP_UNSHARE) {
		if (f)
			fsx_remap_record(f, &n, fsize, skip);
		return !skip;
	}
	if (f)
		record_note(f, r, &n, skip);
	name = fsx_op_names[n.op];
	if (n.op == OP_TRUNCATE) {
		n.len = n.off;
		n.off = 0;
	} else if (n.op == OP_FSYNC) {
		n.off = n.len = 0;
	}
	if (f)
		fprintf(f, "%s%s 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "%s\n",
			skip ? "skip " : "", name, n.off, n.len, fsize,
			n.keep && (n.op == OP_FALLOCATE || n.op == OP_ZERO) ?
			" keep_size" : "");
	return !skip;	/* fsx counts it as a test call */
}
