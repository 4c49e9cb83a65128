// SPDX-License-Identifier: GPL-2.0
/*
 * .fsxops replay: the ops of a recording (ours or fstests' fsx's), run
 * through fsx's rules (fsx_normalize()) by the executor of fsx.c against
 * the oracle.  Our notes (fsxops.h) make it the run again: crashes,
 * writeback and drop_caches where the run had them, and each noted line's
 * op as the run did it.
 */
#define _GNU_SOURCE
#include "fsx_int.h"
#include "fsxops.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static const struct {
	const char *name;
	enum op op;
} fsx_ops[] = {
	{ "read", OP_READ }, { "write", OP_WRITE }, { "mapread", OP_MAPREAD },
	{ "mapwrite", OP_MAPWRITE }, { "truncate", OP_TRUNCATE },
	{ "fallocate", OP_FALLOCATE }, { "punch_hole", OP_PUNCH },
	{ "zero_range", OP_ZERO }, { "collapse_range", OP_COLLAPSE },
	{ "insert_range", OP_INSERT }, { "fsync", OP_FSYNC },
	{ "clone_range", OP_CLONE }, { "dedupe_range", OP_DEDUPE },
	{ "copy_range", OP_COPY },
	/* XFS_IOC_ALLOCSP: fsx models it as a truncate to arg1 */
	{ "allocsp", OP_TRUNCATE },
	/* the same bytes as their plain forms: the logged range is the one
	 * done; write_zeroes zeroes and extends like zero_range */
	{ "read_dontcache", OP_READ }, { "write_dontcache", OP_WRITE },
	{ "write_atomic", OP_WRITE }, { "write_zeroes", OP_ZERO },
};

/* an op note: the op it stands for, and the line it comes before */
static const struct {
	enum op op;
	const char *line;
} op_notes[] = {
	[LBS_FSXOPS_FSYNC_RANGE] = { OP_FSYNC_RANGE, "fsync" },
	[LBS_FSXOPS_DREAD] = { OP_DREAD, "read" },
	[LBS_FSXOPS_DWRITE] = { OP_DWRITE, "write" },
	[LBS_FSXOPS_WRITE_SHORT] = { OP_WRITE_SHORT, "write" },
	[LBS_FSXOPS_PUNCH] = { OP_PUNCH, "punch_hole" },
};

struct replay {
	struct ctx c;
	const char *path;
	unsigned long lineno;
	struct lbs_fsxops_line pend;	/* an op note waiting for its line */
	unsigned long pend_line;
	uint64_t writes;		/* for --test-perturb-write */
	struct lbs_fsx_result *res;
};

/* the oracle's crash rules are chosen before the first op: any crash? */
static bool has_crash(FILE *f)
{
	struct lbs_fsxops_line fl;
	char *line = NULL, why[128];
	size_t cap = 0;
	bool found = false;

	while (!found && getline(&line, &cap, f) >= 0)
		found = lbs_fsxops_parse(line, &fl, why, sizeof(why)) == 0 &&
			fl.note == LBS_FSXOPS_CRASH;
	free(line);
	rewind(f);
	return found;
}

/* the run settled in-flight I/O before each op but a crash, a skipped
 * one too: a crash after it must not lose that I/O here */
static void settle(struct ctx *c)
{
	if (c->b->settle)
		c->b->settle(c->b->p);
}

/* a note alone: 1 with its op in @r, 0 for nothing to run now */
static int note_alone(struct replay *p, const struct lbs_fsxops_line *fl,
		      struct op_rec *r)
{
	switch (fl->note) {
	case LBS_FSXOPS_CRASH:
		if (p->c.o->no_crash)	/* --no-crash: a comment, as to fsx */
			return 0;
		r->op = OP_CRASH;
		return 1;
	case LBS_FSXOPS_WRITEBACK:
		r->op = OP_WRITEBACK;
		r->off = fl->a[0];
		return 1;
	case LBS_FSXOPS_DROP:
		r->op = OP_DROP;
		return 1;
	default:
		p->pend = *fl;
		p->pend_line = p->lineno;
		return 0;
	}
}

static void note_op(const struct lbs_fsxops_line *n, struct op_rec *r)
{
	r->op = op_notes[n->note].op;
	r->off = n->a[0];
	r->len = n->a[1];
	r->keep = n->note == LBS_FSXOPS_PUNCH;
	r->arg = n->note == LBS_FSXOPS_WRITE_SHORT ? n->a[2] : 0;
}

/*
 * The noted op @r cannot be done here as the run did it: O_DIRECT this
 * backend would refuse, or a short write past EOF (the generator keeps
 * them at or below it; a replay that went its own way, with ops this
 * filesystem lacks, may not).  The line's plain op (what fsx replays)
 * writes the same bytes.
 */
static bool note_unfit(const struct ctx *c, const struct op_rec *r)
{
	const struct fsx_backend *b = c->b;

	if (r->op == OP_WRITE_SHORT)
		return r->off > b->size(b->p);
	if (r->op != OP_DREAD && r->op != OP_DWRITE)
		return false;
	if (c->unsup_mask & LBS_FSX_F(LBS_FSX_DIO))
		return true;
	return (r->off | r->len) % b->dio_align &&
	       !(r->op == OP_DREAD && b->dio_read_lax);
}

/* an op line as fsx replays it into @r; 2 on bad input */
static int line_op(struct replay *p, const struct lbs_fsxops_line *fl,
		   enum op op, struct op_rec *r)
{
	r->op = op;
	r->off = fl->a[0];
	r->len = fl->a[1];
	/* fsx's fallocate with FALLOC_FL_UNSHARE_RANGE */
	if (r->op == OP_FALLOCATE && fl->unshare)
		r->op = OP_UNSHARE;
	if (fsx_remap_op(r->op))
		r->dst = fl->a[2];
	r->keep = fl->keep_size && (r->op == OP_FALLOCATE ||
				    r->op == OP_ZERO || r->op == OP_UNSHARE);
	if (r->op == OP_TRUNCATE) {
		r->off = fl->a[1];
		r->len = 0;
	}
	if (r->op == OP_PUNCH)
		r->keep = true;
	if (r->op == OP_TRUNCATE && r->off > p->c.max) {
		fprintf(stderr, "%s:%lu: size 0x%" PRIx64 " beyond the file "
			"limit 0x%" PRIx64 " (--file-size)\n", p->path,
			p->lineno, r->off, p->c.max);
		return 2;
	}
	return 0;
}

/*
 * The op of a parsed line (@pr from lbs_fsxops_parse()) into @r: 1 to run
 * it, 0 for nothing to run, 2 on bad input (said on stderr).
 */
static int next_op(struct replay *p, const struct lbs_fsxops_line *fl,
		   int pr, struct op_rec *r)
{
	struct ctx *c = &p->c;
	struct op_rec plain = { 0 }, noted = { 0 };
	bool have_note = p->pend.note != LBS_FSXOPS_NOTE_NONE, ok_plain;
	int found = -1;

	memset(r, 0, sizeof(*r));
	if (pr == 0 && !fl->note)
		return 0;
	if (have_note &&
	    (pr == 0 || strcmp(fl->op, op_notes[p->pend.note].line))) {
		fprintf(stderr, "%s:%lu: lbs-sim %s: the next line is not "
			"\"%s\"\n", p->path, p->pend_line, p->pend.op,
			op_notes[p->pend.note].line);
		return 2;
	}
	if (pr == 0)
		return note_alone(p, fl, r);
	if (have_note) {
		note_op(&p->pend, &noted);
		p->pend.note = LBS_FSXOPS_NOTE_NONE;
	}
	if (fl->skip) {			/* fsx logged it as not done */
		p->res->skipped++;
		if (!have_note || note_unfit(c, &noted)) {
			settle(c);
			return 0;
		}
		/* the run did it (a short write that copied nothing, a
		 * punch past EOF, a failed O_DIRECT read); not a test call:
		 * the next one's data */
		c->tc = c->opno;
		*r = noted;
		return 1;
	}
	for (size_t k = 0; k < sizeof(fsx_ops) / sizeof(fsx_ops[0]); k++)
		if (!strcmp(fl->op, fsx_ops[k].name))
			found = (int)k;
	c->opno++;			/* fsx's testcalls */
	c->tc = c->opno - 1;		/* this line's writes: test call opno */
	if (found < 0) {		/* exchange_range */
		p->res->unmodelled++;
		settle(c);
		return 0;
	}
	if (line_op(p, fl, fsx_ops[found].op, &plain))
		return 2;
	ok_plain = fsx_normalize(c, &plain, c->b->size(c->b->p));
	if (have_note && !note_unfit(c, &noted)) {
		*r = noted;
	} else if (ok_plain) {
		*r = plain;
	} else {
		c->fsx_skipped++;
		settle(c);
		return 0;
	}
	if (ok_plain && plain.op == OP_WRITE &&
	    ++p->writes == c->o->perturb_write && plain.len > 1) {
		fprintf(stderr, "%s:%lu: test: write 0x%" PRIx64 " 0x%" PRIx64
			" replayed one byte short\n", p->path, p->lineno,
			plain.off, plain.len);
		*r = plain;
		r->len--;
	}
	return 1;
}

int lbs_fsx_replay_on(const struct lbs_fsx_opts *o, struct fsx_backend *b,
		      const char *path, const char *final_out,
		      struct lbs_fsx_result *res)
{
	FILE *f = fopen(path, "r");
	struct replay p = { .path = path, .res = res };
	struct ctx *c = &p.c;
	char *line = NULL;
	size_t cap = 0;
	ssize_t nread;
	int rc = 0;
	double t0 = fsx_now();

	memset(res, 0, sizeof(*res));
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 2;
	}
	if (fsx_ctx_init(c, o, b, true, has_crash(f))) {
		fclose(f);
		return 2;
	}
	c->opno = 0;
	while ((nread = getline(&line, &cap, f)) >= 0) {
		struct lbs_fsxops_line fl;
		struct op_rec r;
		char why[128];
		bool ok;
		int pr;

		p.lineno++;
		if (memchr(line, 0, (size_t)nread)) {
			fprintf(stderr, "%s:%lu: NUL byte in line\n", path,
				p.lineno);
			rc = 2;
			break;
		}
		if (nread > 512) {
			fprintf(stderr, "%s:%lu: line too long\n", path,
				p.lineno);
			rc = 2;
			break;
		}
		pr = lbs_fsxops_parse(line, &fl, why, sizeof(why));
		if (pr < 0) {
			fprintf(stderr, "%s:%lu: %s\n", path, p.lineno, why);
			rc = 2;
			break;
		}
		pr = next_op(&p, &fl, pr, &r);
		if (pr == 2) {
			rc = 2;
			break;
		}
		if (!pr)
			continue;
		ok = fsx_exec_op(c, &r);
		/* close_open: fsx closes, drops caches, reopens; check the
		 * file there, as after lbs-sim's drop_caches */
		if (ok && fl.close_open && !fl.skip) {
			r.op = OP_DROP;
			ok = fsx_exec_op(c, &r);
		}
		if (!fl.note && !fl.skip) {	/* a test call */
			if (ok && o->check_every && !(c->opno % o->check_every))
				ok = fsx_check_whole(c, &r, false);
			res->ops_run += ok;
		}
		if (!ok) {
			res->mismatches = 1;
			rc = 1;
			break;
		}
	}
	if (!rc && p.pend.note) {
		fprintf(stderr, "%s:%lu: lbs-sim %s: no line after it\n", path,
			p.pend_line, p.pend.op);
		rc = 2;
	}
	if (!rc) {
		struct op_rec r = { .op = OP_DROP };

		if (o->before_final_check)
			o->before_final_check(o->hook_arg);
		if (!fsx_check_whole(c, &r, true)) {
			res->mismatches = 1;
			rc = 1;
		}
	}
	if (!rc && final_out) {
		FILE *out = fopen(final_out, "wb");
		uint64_t sz = lbs_oracle_size(c->orc);

		if (!out ||
		    fwrite(lbs_oracle_bytes(c->orc), 1, sz, out) != sz) {
			fprintf(stderr, "%s: cannot write\n", final_out);
			rc = 2;
		}
		if (out)
			fclose(out);
	}
	free(line);
	fclose(f);
	res->seconds = fsx_now() - t0;
	fsx_ctx_fini(c, res, rc);
	return rc;
}
