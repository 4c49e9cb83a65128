// SPDX-License-Identifier: GPL-2.0
/*
 * The fsx campaign's op generator: the op names and the default mix, the
 * --ops-mix parser, and the random ops as fstests fsx's test() draws and
 * trims them, with its -R/-W/-Z conversions and -r/-w/-t rounding.  It
 * only draws offsets and lengths: collapse, insert, clone and dedupe
 * ranges are aligned to st_blksize as fsx does, and st_blksize comes from
 * the backend (from core through the simulator, or fstat()).  What the
 * execution then refuses is the executor's (fsx.c) to expect.
 */
#define _GNU_SOURCE
#include "fsx_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(OP_NR == LBS_FSX_NOPS, "LBS_FSX_NOPS is the op count");

const char *const fsx_op_names[OP_NR] = {
	"read", "write", "mapread", "mapwrite", "truncate", "fallocate",
	"punch_hole", "zero_range", "collapse_range", "insert_range", "fsync",
	"dread", "dwrite", "fsync_range", "writeback", "drop_caches", "crash",
	"write_short", "clone_range", "dedupe_range", "copy_range",
	"unshare_range",
};

/*
 * The default mix: fsx draws its ops evenly, this leans on what tests the
 * page cache.  Clone, dedupe, copy and unshare only with --ops-mix: the
 * first remap makes the file a reflink inode for good, and from there
 * XFS (and the simulator) takes every sub-block O_DIRECT write as a
 * buffered one, which would hide the O_DIRECT zeroing from the rest of
 * every default campaign (no-dio-zero was no longer caught).
 */
const unsigned fsx_op_weight[OP_NR] = {
	[OP_READ] = 120, [OP_WRITE] = 170, [OP_MAPREAD] = 50,
	[OP_MAPWRITE] = 80, [OP_TRUNCATE] = 60, [OP_FALLOCATE] = 40,
	[OP_PUNCH] = 40, [OP_ZERO] = 40, [OP_COLLAPSE] = 25,
	[OP_INSERT] = 25, [OP_FSYNC] = 25, [OP_DREAD] = 50, [OP_DWRITE] = 70,
	[OP_FSYNC_RANGE] = 30, [OP_WRITEBACK] = 90, [OP_DROP] = 30,
	[OP_CRASH] = 15, [OP_WRITE_SHORT] = 40,
};

/* added by --ops-mix reflink: one op in about 16 shares or copies */
static const unsigned fsx_reflink_weight[OP_NR] = {
	[OP_CLONE] = 25, [OP_DEDUPE] = 15, [OP_COPY] = 25, [OP_UNSHARE] = 15,
};

static uint64_t rnd(struct ctx *c)
{
	/* splitmix64 */
	uint64_t z = (c->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fsx_rnd_below(struct ctx *c, uint64_t n)
{
	return n ? rnd(c) % n : 0;
}

/*
 * fsx's -R, -W and -Z conversions of a drawn op, and its -r, -w and -t
 * rounding (doread(), dowrite(), domapread(), domapwrite(),
 * dotruncate()): offsets down to the boundary, O_DIRECT lengths too.  A
 * length rounded to 0 makes the op a no-op, logged "skip" as fsx does.
 */
static void fsx_rules(const struct ctx *c, struct op_rec *r, uint64_t size)
{
	const struct lbs_fsx_opts *o = c->o;

	if (r->op == OP_MAPREAD && o->no_mapread)
		r->op = OP_READ;
	if (r->op == OP_MAPWRITE && o->no_mapwrite)
		r->op = OP_WRITE;
	if (o->direct && r->op == OP_READ)
		r->op = OP_DREAD;
	if (o->direct && (r->op == OP_WRITE || r->op == OP_WRITE_SHORT))
		r->op = OP_DWRITE;	/* no short copy into O_DIRECT */
	switch (r->op) {
	case OP_READ: case OP_MAPREAD:
		r->off -= r->off % c->rbdy;
		break;
	case OP_DREAD:
		if (c->rbdy > 1) {	/* test(): TRIM_OFF_LEN to the size */
			fsx_trim_off(&r->off, size);
			fsx_trim_len(r->off, &r->len, size);
			r->off -= r->off % c->rbdy;
			r->len -= r->len % c->rbdy;
		}
		break;
	case OP_WRITE: case OP_MAPWRITE: case OP_WRITE_SHORT:
		r->off -= r->off % c->wbdy;
		break;
	case OP_DWRITE:
		if (c->wbdy > 1) {
			r->off -= r->off % c->wbdy;
			r->len -= r->len % c->wbdy;
		}
		break;
	case OP_TRUNCATE:
		r->off -= r->off % c->tbdy;
		break;
	default:
		break;
	}
}

void fsx_gen_op(struct ctx *c, struct op_rec *r)
{
	uint64_t size = c->b->size(c->b->p);
	uint64_t w = fsx_rnd_below(c, c->mix_total), acc = 0;
	unsigned k;

	memset(r, 0, sizeof(*r));
	for (k = 0; k < OP_NR; k++) {
		acc += c->mix[k];
		if (w < acc)
			break;
	}
	r->op = (enum op)k;
	r->off = fsx_rnd_below(c, c->max);
	r->len = 1 + fsx_rnd_below(c, c->opsize);
	if (r->off + r->len > c->max)
		r->len = c->max - r->off;
	if (!r->len) {
		r->off = 0;
		r->len = 1;
	}
	switch (r->op) {
	case OP_READ: case OP_MAPREAD: case OP_MAPWRITE:
		if (!size && r->op != OP_MAPWRITE) {
			r->op = OP_WRITE;
			break;
		}
		if (r->op != OP_MAPWRITE) {
			r->off = fsx_rnd_below(c, size);
			if (r->len > size - r->off)
				r->len = size - r->off;
		}
		break;
	case OP_DREAD: case OP_DWRITE:
		if ((r->op == OP_DREAD ? c->rbdy : c->wbdy) > 1)
			break;			/* fsx_rules() aligns */
		if (fsx_rnd_below(c, 16)) {		/* sector aligned */
			r->off &= ~(uint64_t)511;
			r->len = (r->len + 511) & ~(uint64_t)511;
			if (r->off + r->len > c->max)
				r->len = (c->max - r->off) & ~(uint64_t)511;
			if (!r->len) {
				r->off = 0;
				r->len = 512;
			}
		}
		break;
	case OP_TRUNCATE:
		r->off = fsx_rnd_below(c, c->max + 1);
		r->len = 0;
		break;
	case OP_FALLOCATE: case OP_ZERO:
		r->keep = fsx_rnd_below(c, 2);
		break;
	case OP_PUNCH:
		r->keep = true;
		break;
	case OP_COLLAPSE: case OP_INSERT:
		if (fsx_rnd_below(c, 8)) {		/* fsx aligns to st_blksize */
			r->off -= r->off % c->stat_bs;
			r->len -= r->len % c->stat_bs;
			if (!r->len)
				r->len = c->stat_bs;
			if (r->op == OP_COLLAPSE && size > c->stat_bs &&
			    r->off + r->len >= size) {
				r->off = 0;
				if (r->len >= size)
					r->len = c->stat_bs;
			}
			if (r->op == OP_INSERT && size &&
			    size + r->len > c->max)
				r->len = c->stat_bs;
			if (r->op == OP_INSERT && r->off >= size)
				r->off = 0;
		}
		if (r->op == OP_INSERT && size + r->len > c->max)
			r->op = OP_FSYNC;
		break;
	case OP_FSYNC_RANGE: case OP_WRITEBACK:
		break;
	case OP_CLONE: case OP_DEDUPE: case OP_COPY: case OP_UNSHARE:
		fsx_remap_gen(c, r, size);
		break;
	case OP_WRITE_SHORT: {
		uint64_t ps = c->b->page_size, e;

		if (r->off > size)	/* keep EOF zeroing out of it */
			r->off = size;
		if (r->off + r->len > c->max)
			r->len = c->max - r->off;
		if (!r->len) {
			r->op = OP_FSYNC;
			break;
		}
		r->arg = fsx_rnd_below(c, r->len);
		e = r->off + r->arg;
		if (fsx_rnd_below(c, 2) && e - e % ps >= r->off)
			r->arg = e - e % ps - r->off;	/* at a page start */
		break;
	}
	default:
		break;
	}
	fsx_rules(c, r, size);
}

/* ---- op mix --------------------------------------------------------------- */

const char *lbs_fsx_op_name(unsigned k)
{
	return k < OP_NR ? fsx_op_names[k] : NULL;
}

int lbs_fsx_mix_parse(const char *s, unsigned mix[LBS_FSX_NOPS], char *err,
		      size_t errlen)
{
	const char *p = s;
	uint64_t total = 0;

	memset(mix, 0, LBS_FSX_NOPS * sizeof(mix[0]));
	/*
	 * "reflink": the default mix plus the remap ops, what fsx does on a
	 * filesystem that shares blocks (mkfs.xfs's default); "default": the
	 * default mix.  OP=W after either changes single weights.
	 */
	if (!strncmp(p, "reflink", 7) && (!p[7] || p[7] == ',')) {
		for (unsigned k = 0; k < OP_NR; k++)
			mix[k] = fsx_op_weight[k] ? fsx_op_weight[k] :
				 fsx_reflink_weight[k];
		total = 1;
		p += p[7] ? 8 : 7;
	} else if (!strncmp(p, "default", 7) && (!p[7] || p[7] == ',')) {
		memcpy(mix, fsx_op_weight, sizeof(fsx_op_weight));
		total = 1;
		p += p[7] ? 8 : 7;
	}
	while (*p) {
		size_t n = strcspn(p, "=,");
		unsigned long long v;
		unsigned k;
		char *end;

		for (k = 0; k < OP_NR; k++)
			if (strlen(fsx_op_names[k]) == n &&
			    !strncmp(p, fsx_op_names[k], n))
				break;
		if (k == OP_NR) {
			snprintf(err, errlen, "unknown op \"%.*s\" in --ops-mix",
				 (int)(n > 40 ? 40 : n), p);
			return -1;
		}
		if (p[n] != '=') {
			snprintf(err, errlen, "--ops-mix: %s needs =WEIGHT",
				 fsx_op_names[k]);
			return -1;
		}
		p += n + 1;
		errno = 0;
		v = isdigit((unsigned char)*p) ? strtoull(p, &end, 10) : 0;
		if (!isdigit((unsigned char)*p) || errno || v > 1000000 ||
		    (*end && *end != ',')) {
			snprintf(err, errlen, "--ops-mix: %s: bad weight \"%.*s\""
				 " (a whole number 0..1000000)", fsx_op_names[k],
				 (int)strcspn(p, ","), p);
			return -1;
		}
		mix[k] = (unsigned)v;
		total += v;
		p = *end ? end + 1 : end;
	}
	if (!total) {
		snprintf(err, errlen, "--ops-mix: no op has a weight above 0");
		return -1;
	}
	return 0;
}
