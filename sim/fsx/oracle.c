// SPDX-License-Identifier: GPL-2.0
/*
 * The reference model; see oracle.h, which writes down the crash
 * contract (what a crash may leave: the size, the bytes below it, the
 * bytes past it) and its named exceptions (truncate-tail, crash-tail,
 * remap-tail) that lbs_oracle_crash() below checks.  Knows nothing about
 * blocks.
 */
#include "oracle.h"
#include "glibc_random.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GCC's and clang's vector extension: bytewise arithmetic, mod 256 */
typedef uint8_t v16 __attribute__((vector_size(16)));

struct change {
	uint64_t pos, len, tc;
	bool zero;
	bool copy;		/* clone/copy: the bytes are at data[tc] */
};

struct lbs_oracle {
	uint64_t max, size;
	uint8_t *cur, *dur;	/* cur is zero at and past size */
	uint64_t dur_end;	/* dur is zero at and past dur_end */
	uint64_t dlo, dhi;	/* cur may differ from dur only in here */
	uint64_t size_lo, size_hi;	/* crash size bounds */
	uint8_t *odd;		/* fsx's original_buf at odd offsets, else 0 */
	struct change *log;
	size_t nlog, cap;
	uint8_t *data;		/* copy changes' bytes, until the log empties */
	size_t ndata, dcap;
	uint8_t *ok;			/* scratch for crash checks */
	bool untracked;		/* lbs_oracle_no_crash(): dur, log unused */
	bool lazy;		/* lbs_oracle_lazy_meta() */
	bool track;		/* lbs_oracle_track_tails(): ghosts kept */
	uint64_t tail_bs;	/* lbs_oracle_tail_block(); 0: unknown */
	/* per named rule (oracle.h), per offset, a bit for each value the
	 * disk may still hold there past EOF; NULL until the rule is used */
	uint8_t (*ghost[LBS_CRASH_NR_RULES])[32];
	unsigned allow;		/* LBS_CRASH_F() of the rules a crash may use */
	struct lbs_crash_rule_count counts[LBS_CRASH_NR_RULES];
	void (*jfn)(void *arg, const struct lbs_oracle_rec *r);
	void *jarg;
};

static void note(struct lbs_oracle *o, uint32_t type, uint64_t a,
		 uint64_t b, uint64_t c)
{
	struct lbs_oracle_rec r = { type, a, b, c };

	if (o->jfn)
		o->jfn(o->jarg, &r);
}

void lbs_oracle_set_journal(struct lbs_oracle *o,
			    void (*fn)(void *arg,
				       const struct lbs_oracle_rec *r),
			    void *arg)
{
	o->jfn = fn;
	o->jarg = arg;
}

void lbs_oracle_intent(struct lbs_oracle *o, uint32_t type, uint64_t a,
		       uint64_t b, uint64_t c)
{
	if (type >= LBS_OREC_INTENT_WRITE && type < LBS_OREC_NR)
		note(o, type, a, b, c);
}

struct lbs_oracle *lbs_oracle_new(uint64_t max, uint32_t seed)
{
	struct lbs_oracle *o = calloc(1, sizeof(*o));
	struct lbs_glibc_random g;

	if (!o)
		abort();
	o->max = max;
	o->cur = calloc(max + 1, 1);
	o->dur = calloc(max + 1, 1);
	o->ok = calloc(max + 1, 1);
	o->odd = malloc(max + 1);
	if (!o->cur || !o->dur || !o->ok || !o->odd)
		abort();
	/* fsx init_buffers(): original_buf[i] = random() % 256, in order */
	lbs_glibc_srandom(&g, seed);
	for (uint64_t i = 0; i <= max; i++) {
		uint8_t v = (uint8_t)(lbs_glibc_random(&g) % 256);

		o->odd[i] = i % 2 ? v : 0;
	}
	return o;
}

void lbs_oracle_no_crash(struct lbs_oracle *o)
{
	o->untracked = true;
}

void lbs_oracle_track_tails(struct lbs_oracle *o)
{
	o->track = true;
}

void lbs_oracle_tail_block(struct lbs_oracle *o, uint32_t block_size)
{
	o->tail_bs = block_size;
}

void lbs_oracle_lazy_meta(struct lbs_oracle *o)
{
	o->lazy = true;
	lbs_oracle_track_tails(o);
}

static const char *const rule_names[LBS_CRASH_NR_RULES] = {
	[LBS_CRASH_TRUNCATE_TAIL] = "truncate-tail",
	[LBS_CRASH_CRASH_TAIL] = "crash-tail",
	[LBS_CRASH_REMAP_TAIL] = "remap-tail",
};

const char *lbs_crash_rule_name(unsigned rule)
{
	return rule < LBS_CRASH_NR_RULES ? rule_names[rule] : NULL;
}

void lbs_crash_rules_format(unsigned rules, char *buf, size_t n)
{
	size_t at = 0;

	if (n)
		buf[0] = 0;
	for (unsigned k = 0; k < LBS_CRASH_NR_RULES && at < n; k++)
		if (rules & LBS_CRASH_F(k))
			at += (size_t)snprintf(buf + at, n - at, "%s%s",
					       at ? ", " : "", rule_names[k]);
}

const char *lbs_crash_rule_names(void)
{
	return "truncate-tail, crash-tail, remap-tail";
}

int lbs_crash_rules_parse(const char *list, unsigned *mask)
{
	const char *p = list;

	*mask = 0;
	if (!strcmp(list, "none"))
		return 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		unsigned k;

		for (k = 0; k < LBS_CRASH_NR_RULES; k++)
			if (strlen(rule_names[k]) == n &&
			    !strncmp(p, rule_names[k], n))
				break;
		if (k == LBS_CRASH_NR_RULES)
			return -1;
		*mask |= LBS_CRASH_F(k);
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

void lbs_oracle_allow(struct lbs_oracle *o, unsigned rules)
{
	o->allow = rules;
}

const struct lbs_crash_rule_count *
lbs_oracle_rule_counts(const struct lbs_oracle *o)
{
	return o->counts;
}

static void ghost_add(struct lbs_oracle *o, unsigned rule, uint64_t i,
		      uint8_t v)
{
	if (!o->ghost[rule]) {
		o->ghost[rule] = calloc(o->max + 1, sizeof(*o->ghost[rule]));
		if (!o->ghost[rule])
			abort();
	}
	o->ghost[rule][i][v >> 3] |= (uint8_t)(1u << (v & 7));
}

static bool ghost_has(const struct lbs_oracle *o, unsigned rule, uint64_t i,
		      uint8_t v)
{
	return o->ghost[rule] && (o->ghost[rule][i][v >> 3] >> (v & 7) & 1);
}

static uint8_t change_value(const struct lbs_oracle *o,
			    const struct change *c, uint64_t i);

/*
 * [from, to) goes past EOF while the disk may keep what it held there:
 * each value the bytes could have on disk (the durable one, or one a
 * change since put there) is kept under @rule, a remap's bytes under
 * remap-tail, for a later crash to show once the file has grown back
 * over them (lbs_oracle_crash() accepts them only if @rule is allowed)
 */
static void to_ghost(struct lbs_oracle *o, unsigned rule, uint64_t from,
		     uint64_t to)
{
	if (o->untracked || (!o->track && !o->allow) || from >= to)
		return;
	for (uint64_t i = from; i < to; i++)
		ghost_add(o, rule, i, o->dur[i]);
	for (size_t k = 0; k < o->nlog; k++) {
		const struct change *c = &o->log[k];
		uint64_t s = c->pos > from ? c->pos : from;
		uint64_t e = c->pos + c->len < to ? c->pos + c->len : to;
		unsigned r = c->copy && rule == LBS_CRASH_CRASH_TAIL ?
			     LBS_CRASH_REMAP_TAIL : rule;

		for (uint64_t i = s; i < e; i++)
			ghost_add(o, r, i, change_value(o, c, i));
	}
}

/* bytes below a known size: whatever was past EOF there is gone */
static void ghost_clear_below(struct lbs_oracle *o, uint64_t size)
{
	for (unsigned k = 0; k < LBS_CRASH_NR_RULES; k++)
		if (o->ghost[k])
			memset(o->ghost[k], 0, size * sizeof(*o->ghost[k]));
}

/* lazy metadata: a size change may be lost, so the size may fall back
 * anywhere down to the smallest since the last fsync */
static void lazy_size(struct lbs_oracle *o, uint64_t size)
{
	if (size < o->size_lo)
		o->size_lo = size;
	if (size > o->size_hi)
		o->size_hi = size;
}

void lbs_oracle_perturb_gendata(struct lbs_oracle *o)
{
	for (uint64_t i = 1; i <= o->max; i += 2)
		o->odd[i] = 0;
}

void lbs_oracle_free(struct lbs_oracle *o)
{
	if (!o)
		return;
	free(o->cur);
	free(o->dur);
	free(o->ok);
	free(o->odd);
	free(o->log);
	free(o->data);
	for (unsigned k = 0; k < LBS_CRASH_NR_RULES; k++)
		free(o->ghost[k]);
	free(o);
}

uint64_t lbs_oracle_size(const struct lbs_oracle *o) { return o->size; }
const uint8_t *lbs_oracle_bytes(const struct lbs_oracle *o) { return o->cur; }

void lbs_oracle_gen(const struct lbs_oracle *o, uint64_t tc, uint64_t pos,
		    uint64_t len, uint8_t *out)
{
	const uint8_t *odd = o->odd + pos;
	uint8_t t = (uint8_t)(tc % 256);
	v16 tt;
	uint64_t i = 0;

	for (unsigned k = 0; k < 16; k++)
		tt[k] = t;
	/* sixteen bytewise additions (mod 256) at a time */
	for (; i + 16 <= len; i += 16) {
		v16 a;

		memcpy(&a, odd + i, 16);
		a += tt;
		memcpy(out + i, &a, 16);
	}
	for (; i < len; i++)
		out[i] = (uint8_t)(t + odd[i]);
}

/* [pos, end) of cur changed */
static void touch(struct lbs_oracle *o, uint64_t pos, uint64_t end)
{
	if (pos >= end)
		return;
	if (o->dlo >= o->dhi || pos < o->dlo)
		o->dlo = pos;
	if (end > o->dhi)
		o->dhi = end;
}

static void log_add(struct lbs_oracle *o, uint64_t pos, uint64_t len,
		    uint64_t tc, bool zero)
{
	if (o->untracked)
		return;
	touch(o, pos, pos + len);
	if (!len)
		return;
	if (o->nlog == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->log = realloc(o->log, o->cap * sizeof(*o->log));
		if (!o->log)
			abort();
	}
	o->log[o->nlog++] = (struct change){ pos, len, tc, zero, false };
}

/* a change to bytes copied from elsewhere: keep the bytes themselves */
static void log_add_copy(struct lbs_oracle *o, uint64_t pos, uint64_t len)
{
	if (o->untracked || !len)
		return;
	if (o->ndata + len > o->dcap) {
		while (o->ndata + len > o->dcap)
			o->dcap = o->dcap ? 2 * o->dcap : 65536;
		o->data = realloc(o->data, o->dcap);
		if (!o->data)
			abort();
	}
	memcpy(o->data + o->ndata, o->cur + pos, len);
	log_add(o, pos, len, o->ndata, false);
	o->log[o->nlog - 1].copy = true;
	o->ndata += len;
}

/* the byte change @c put at @i */
static uint8_t change_value(const struct lbs_oracle *o,
			    const struct change *c, uint64_t i)
{
	if (c->copy)
		return o->data[c->tc + i - c->pos];
	return c->zero ? 0 : (uint8_t)((uint8_t)(c->tc % 256) + o->odd[i]);
}

/* the log emptied: the copied bytes are no longer needed */
static void log_reset(struct lbs_oracle *o)
{
	o->nlog = 0;
	o->ndata = 0;
}

/* forget changes at or above @pos: those bytes are durable or gone */
static void log_clip(struct lbs_oracle *o, uint64_t pos)
{
	size_t j = 0;

	for (size_t i = 0; i < o->nlog; i++) {
		struct change c = o->log[i];

		if (c.pos >= pos)
			continue;
		if (c.pos + c.len > pos)
			c.len = pos - c.pos;
		o->log[j++] = c;
	}
	o->nlog = j;
}

/* durable bytes from @from on are zero */
static void dur_zero_from(struct lbs_oracle *o, uint64_t from)
{
	if (o->untracked)
		return;
	if (from < o->dur_end)
		memset(o->dur + from, 0, o->dur_end - from);
	if (from < o->dur_end)
		o->dur_end = from;
}

static void grow(struct lbs_oracle *o, uint64_t end)
{
	if (end > o->size) {
		log_add(o, o->size, end - o->size, 0, true);
		o->size = end;
		if (o->size > o->size_hi)
			o->size_hi = o->size;
	}
}

static void write_data(struct lbs_oracle *o, uint64_t pos, uint64_t len,
		       uint64_t tc, const uint8_t *data)
{
	if (pos > o->size)
		grow(o, pos);
	if (data)
		memcpy(o->cur + pos, data, len);
	else
		lbs_oracle_gen(o, tc, pos, len, o->cur + pos);
	log_add(o, pos, len, tc, false);
	grow(o, pos + len);
}

void lbs_oracle_write(struct lbs_oracle *o, uint64_t pos, uint64_t len,
		      uint64_t tc)
{
	note(o, LBS_OREC_WRITE, pos, len, tc);
	write_data(o, pos, len, tc, NULL);
}

void lbs_oracle_write_copy(struct lbs_oracle *o, uint64_t pos, uint64_t len,
			   uint64_t tc, const uint8_t *data)
{
	note(o, LBS_OREC_WRITE, pos, len, tc);	/* @data is tc's bytes */
	write_data(o, pos, len, tc, data);
}

void lbs_oracle_zero(struct lbs_oracle *o, uint64_t pos, uint64_t len)
{
	note(o, LBS_OREC_ZERO, pos, len, 0);
	memset(o->cur + pos, 0, len);
	log_add(o, pos, len, 0, true);
}

void lbs_oracle_copy(struct lbs_oracle *o, uint64_t src, uint64_t dst,
		     uint64_t len)
{
	note(o, LBS_OREC_COPY, src, dst, len);
	if (dst > o->size)
		grow(o, dst);
	memmove(o->cur + dst, o->cur + src, len);
	log_add_copy(o, dst, len);
	grow(o, dst + len);
}

/* a durable size change (truncate, fallocate) */
void lbs_oracle_set_size(struct lbs_oracle *o, uint64_t size)
{
	note(o, LBS_OREC_SIZE, size, 0, 0);
	if (o->lazy && !o->untracked) {
		uint64_t lo = size < o->size ? size : o->size;
		uint64_t hi = size < o->size ? o->size : size;

		to_ghost(o, LBS_CRASH_TRUNCATE_TAIL, size, o->size);
		memset(o->cur + lo, 0, hi - lo);
		log_add(o, lo, hi - lo, 0, true);
		o->size = size;
		lazy_size(o, size);
		return;
	}
	if (size < o->size) {
		/*
		 * durable: the cut-off bytes are gone, unless truncate-tail,
		 * which keeps those of the new EOF block only: the whole
		 * truncate (every roll of xfs_itruncate_extents()) is in
		 * the log, so the blocks past it are unmapped
		 */
		uint64_t bs = o->tail_bs, end = o->size;

		if (bs && (size + bs - 1) / bs * bs < end)
			end = (size + bs - 1) / bs * bs;
		to_ghost(o, LBS_CRASH_TRUNCATE_TAIL, size, end);
		memset(o->cur + size, 0, o->size - size);
		touch(o, size, o->size);
		dur_zero_from(o, size);
		log_clip(o, size);
	} else if (size > o->size) {
		log_add(o, o->size, size - o->size, 0, true);
	}
	o->size = size;
	o->size_lo = o->size_hi = size;
}

void lbs_oracle_collapse(struct lbs_oracle *o, uint64_t pos, uint64_t len)
{
	uint64_t ns = o->size - len;

	note(o, LBS_OREC_COLLAPSE, pos, len, 0);
	if (o->lazy && !o->untracked)
		abort();	/* see lbs_oracle_lazy_meta() */

	memmove(o->cur + pos, o->cur + pos + len, o->size - pos - len);
	memset(o->cur + ns, 0, len);
	touch(o, pos, o->size);
	if (!o->untracked)
		memcpy(o->dur + pos, o->cur + pos, ns - pos);
	if (o->dur_end < ns)
		o->dur_end = ns;
	dur_zero_from(o, ns);
	log_clip(o, pos);
	o->size = ns;
	o->size_lo = o->size_hi = ns;
}

void lbs_oracle_insert(struct lbs_oracle *o, uint64_t pos, uint64_t len)
{
	uint64_t ns = o->size + len;

	note(o, LBS_OREC_INSERT, pos, len, 0);
	if (o->lazy && !o->untracked)
		abort();	/* see lbs_oracle_lazy_meta() */

	memmove(o->cur + pos + len, o->cur + pos, o->size - pos);
	memset(o->cur + pos, 0, len);
	touch(o, pos, ns);
	if (!o->untracked)
		memcpy(o->dur + pos, o->cur + pos, ns - pos);
	if (o->dur_end < ns)
		o->dur_end = ns;
	log_clip(o, pos);
	o->size = ns;
	o->size_lo = o->size_hi = ns;
}

void lbs_oracle_fsync(struct lbs_oracle *o)
{
	note(o, LBS_OREC_FSYNC, 0, 0, 0);
	/* only the bytes changed since can differ */
	if (o->untracked)
		return;
	if (o->dlo < o->dhi)
		memcpy(o->dur + o->dlo, o->cur + o->dlo, o->dhi - o->dlo);
	o->dlo = o->dhi = 0;
	o->dur_end = o->size;
	log_reset(o);
	o->size_lo = o->size_hi = o->size;
	ghost_clear_below(o, o->size);
}

void lbs_oracle_fsync_range(struct lbs_oracle *o, uint64_t start,
			    uint64_t end)
{
	note(o, LBS_OREC_FSYNC_RANGE, start, end, 0);
	/* lazy: the written-back range's extent conversions and size are
	 * in the log only, which nothing forced */
	if (start >= o->size || o->untracked || o->lazy)
		return;
	if (end >= o->size)
		end = o->size - 1;
	memcpy(o->dur + start, o->cur + start, end - start + 1);
	if (o->dur_end < end + 1)
		o->dur_end = end + 1;
}

static void bad_run(const uint8_t *exp, const uint8_t *act, uint64_t i,
		    uint64_t n, struct lbs_oracle_mismatch *mm)
{
	uint64_t j = i;

	while (j < n && exp[j] != act[j])
		j++;
	mm->off = i;
	mm->len = j - i;
	mm->expected = exp[i];
	mm->actual = act[i];
}

bool lbs_oracle_check_read(const struct lbs_oracle *o, uint64_t pos,
			   uint64_t len, const uint8_t *buf, int64_t n,
			   struct lbs_oracle_mismatch *mm)
{
	uint64_t want = pos >= o->size ? 0 :
			(len < o->size - pos ? len : o->size - pos);

	if (n < 0 || (uint64_t)n != want) {
		memset(mm, 0, sizeof(*mm));
		mm->size_bad = true;
		mm->size_expected_lo = mm->size_expected_hi = want;
		mm->size_actual = n < 0 ? 0 : (uint64_t)n;
		mm->off = pos;
		return false;
	}
	if (!memcmp(buf, o->cur + pos, want))
		return true;
	memset(mm, 0, sizeof(*mm));
	for (uint64_t i = 0; i < want; i++) {
		if (buf[i] != o->cur[pos + i]) {
			bad_run(o->cur + pos, buf, i, want, mm);
			mm->off += pos;
			break;
		}
	}
	return false;
}

/*
 * A byte that is neither durable nor a value written since: the first
 * allowed named rule whose ghost values hold it (returned, to be counted),
 * or -1 with *@denied the mask of the denied rules that hold it (0: none)
 */
static int crash_rule(struct lbs_oracle *o, uint64_t i, uint8_t v,
		      unsigned *denied)
{
	*denied = 0;
	for (unsigned k = 0; k < LBS_CRASH_NR_RULES; k++) {
		if (!ghost_has(o, k, i, v))
			continue;
		if (o->allow & LBS_CRASH_F(k))
			return (int)k;
		*denied |= LBS_CRASH_F(k);
	}
	return -1;
}

bool lbs_oracle_crash(struct lbs_oracle *o, uint64_t size,
		      const uint8_t *buf, struct lbs_oracle_mismatch *mm)
{
	uint64_t old = o->size > o->dur_end ? o->size : o->dur_end;
	uint64_t used[LBS_CRASH_NR_RULES] = { 0 };

	if (o->untracked)
		abort();	/* lbs_oracle_no_crash() said there would be none */
	memset(mm, 0, sizeof(*mm));
	if (size < o->size_lo || size > o->size_hi) {
		mm->size_bad = true;
		mm->size_expected_lo = o->size_lo;
		mm->size_expected_hi = o->size_hi;
		mm->size_actual = size;
		return false;
	}
	for (uint64_t i = 0; i < size; i++)
		o->ok[i] = buf[i] == o->dur[i];
	for (size_t k = 0; k < o->nlog; k++) {
		const struct change *c = &o->log[k];
		uint64_t e = c->pos + c->len < size ? c->pos + c->len : size;

		for (uint64_t i = c->pos; i < e; i++)
			if (buf[i] == change_value(o, c, i))
				o->ok[i] = 1;
	}
	for (uint64_t i = 0; i < size; i++) {
		unsigned denied, d;
		int rule;
		uint64_t j;

		if (o->ok[i])
			continue;
		rule = crash_rule(o, i, buf[i], &denied);
		if (rule >= 0) {
			used[rule]++;
			continue;
		}
		for (j = i; j < size && !o->ok[j] &&
		     crash_rule(o, j, buf[j], &d) < 0 && d == denied;)
			j++;
		mm->off = i;
		mm->len = j - i;
		mm->expected = o->dur[i];
		mm->actual = buf[i];
		mm->denied_rules = denied;
		return false;
	}
	for (unsigned k = 0; k < LBS_CRASH_NR_RULES; k++) {
		if (!used[k])
			continue;
		o->counts[k].crashes++;
		o->counts[k].bytes += used[k];
	}
	if (old > size)
		to_ghost(o, LBS_CRASH_CRASH_TAIL, size, old);
	ghost_clear_below(o, size);
	memcpy(o->cur, buf, size);
	if (old > size)
		memset(o->cur + size, 0, old - size);
	memcpy(o->dur, o->cur, old > size ? old : size);
	o->dlo = o->dhi = 0;
	o->dur_end = size;
	o->size = size;
	o->size_lo = o->size_hi = size;
	log_reset(o);
	return true;
}

/* [pos, pos+len) cut at the size, for an intent that ran into EOF */
static uint64_t in_size(const struct lbs_oracle *o, uint64_t pos,
			uint64_t len)
{
	return pos >= o->size ? 0 : (len < o->size - pos ? len : o->size - pos);
}

bool lbs_oracle_apply(struct lbs_oracle *o, const struct lbs_oracle_rec *r)
{
	uint64_t a = r->a, b = r->b, c = r->c;

	switch (r->type) {
	case LBS_OREC_WRITE:
	case LBS_OREC_INTENT_WRITE:
		if (a + b > o->max || !b)
			return false;
		lbs_oracle_write(o, a, b, c);
		return true;
	case LBS_OREC_ZERO:
		if (a + b > o->size)
			return false;
		lbs_oracle_zero(o, a, b);
		return true;
	case LBS_OREC_INTENT_ZERO:
		if (a + b > o->max)
			return false;
		lbs_oracle_zero(o, a, in_size(o, a, b));
		if (c && a + b > o->size)
			lbs_oracle_set_size(o, a + b);
		return true;
	case LBS_OREC_COPY:
		if (a + c > o->size || b + c > o->max)
			return false;
		lbs_oracle_copy(o, a, b, c);
		return true;
	case LBS_OREC_INTENT_COPY:
		if (b + c > o->max)
			return false;
		if (in_size(o, a, c))
			lbs_oracle_copy(o, a, b, in_size(o, a, c));
		return true;
	case LBS_OREC_SIZE:
	case LBS_OREC_INTENT_SIZE:
		if (a > o->max)
			return false;
		lbs_oracle_set_size(o, a);
		return true;
	case LBS_OREC_COLLAPSE:
	case LBS_OREC_INSERT:
		/* a lazy oracle cannot bound a lost shift */
		if (o->lazy || a + b > (r->type == LBS_OREC_COLLAPSE ?
					o->size : o->max - o->size + a))
			return false;
		if (r->type == LBS_OREC_COLLAPSE)
			lbs_oracle_collapse(o, a, b);
		else
			lbs_oracle_insert(o, a, b);
		return true;
	case LBS_OREC_FSYNC:
		lbs_oracle_fsync(o);
		return true;
	case LBS_OREC_FSYNC_RANGE:
		if (b < a)
			return false;
		lbs_oracle_fsync_range(o, a, b);
		return true;
	default:
		return false;
	}
}
