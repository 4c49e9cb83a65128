// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's journal on a raw device, for a campaign the machine may
 * lose power in (lbs-fsx --journal, tests/qemu/powercut.sh), and the check
 * of the file that log recovery left against it (lbs-fsx --check-journal).
 *
 * Slot 0 is a header (seed and size limit, which make the oracle's data);
 * slot N >= 1 is the Nth record, written with O_DSYNC before the campaign
 * goes on, so that what the device holds after a power cut is a prefix.
 * Each record carries its sequence number and a checksum: the first slot
 * that fails either ends the journal (a torn or never-written slot).
 */
#define _GNU_SOURCE
#include "journal.h"
#include "oracle.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SLOT 64
static const char hmagic[8] = "LBSJRNL1";
#define RMAGIC 0x3152414cu	/* "LAR1" */

struct hdr {
	char magic[8];
	uint64_t seed, max;
	uint32_t block_size, pad;
};

struct rec {
	uint32_t magic, seq, type, pad;
	uint64_t a, b, c, sum;
};

_Static_assert(sizeof(struct hdr) <= SLOT && sizeof(struct rec) <= SLOT,
	       "journal slots");

/* FNV-1a over the record without its checksum */
static uint64_t rec_sum(const struct rec *r)
{
	const uint8_t *p = (const uint8_t *)r;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < offsetof(struct rec, sum); i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

int lbs_journal_open(struct lbs_journal *j, const char *dev, uint64_t seed,
		     uint64_t max, uint32_t block_size)
{
	uint8_t slot[SLOT] = { 0 };
	struct hdr h = { .seed = seed, .max = max, .block_size = block_size };

	memcpy(h.magic, hmagic, sizeof(h.magic));
	memcpy(slot, &h, sizeof(h));
	j->n = 0;
	j->fd = open(dev, O_WRONLY | O_DSYNC);
	if (j->fd < 0 || pwrite(j->fd, slot, SLOT, 0) != SLOT) {
		fprintf(stderr, "lbs-fsx: journal %s: %s\n", dev, strerror(errno));
		if (j->fd >= 0)
			close(j->fd);
		return -1;
	}
	return 0;
}

void lbs_journal_rec(void *arg, const struct lbs_oracle_rec *or)
{
	struct lbs_journal *j = arg;
	uint8_t slot[SLOT] = { 0 };
	struct rec r = {
		.magic = RMAGIC, .seq = (uint32_t)(j->n + 1), .type = or->type,
		.a = or->a, .b = or->b, .c = or->c,
	};

	r.sum = rec_sum(&r);
	memcpy(slot, &r, sizeof(r));
	if (pwrite(j->fd, slot, SLOT, (off_t)((j->n + 1) * SLOT)) != SLOT) {
		/* a journal with a hole checks nothing after it: stop */
		fprintf(stderr, "lbs-fsx: journal write %" PRIu64 ": %s\n",
			j->n + 1, strerror(errno));
		exit(2);
	}
	j->n++;
}

void lbs_journal_close(struct lbs_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
}

static uint8_t *slurp(const char *path, uint64_t *n)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "lbs-fsx: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		abort();
	*n = 0;
	while (*n < (uint64_t)st.st_size) {
		ssize_t k = read(fd, buf + *n, (size_t)st.st_size - *n);

		if (k <= 0) {
			fprintf(stderr, "lbs-fsx: %s: %s\n", path,
				k ? strerror(errno) : "short read");
			free(buf);
			close(fd);
			return NULL;
		}
		*n += (uint64_t)k;
	}
	close(fd);
	return buf;
}

static const char *const tname[LBS_OREC_NR] = {
	[LBS_OREC_WRITE] = "write", [LBS_OREC_ZERO] = "zero",
	[LBS_OREC_COPY] = "copy", [LBS_OREC_SIZE] = "size",
	[LBS_OREC_COLLAPSE] = "collapse", [LBS_OREC_INSERT] = "insert",
	[LBS_OREC_FSYNC] = "fsync", [LBS_OREC_FSYNC_RANGE] = "fsync_range",
	[LBS_OREC_INTENT_WRITE] = "intent write",
	[LBS_OREC_INTENT_ZERO] = "intent zero",
	[LBS_OREC_INTENT_COPY] = "intent copy",
	[LBS_OREC_INTENT_SIZE] = "intent size",
};

int lbs_journal_check(const char *jpath, const char *fpath, unsigned allow,
		      FILE *out)
{
	struct lbs_oracle_mismatch mm;
	struct lbs_oracle_rec last = { 0 };
	uint64_t jn, fn, nrec = 0, nsync = 0;
	uint8_t *jb = slurp(jpath, &jn), *fb;
	struct lbs_oracle *o;
	struct hdr h;
	bool ok;

	if (!jb)
		return 2;
	memcpy(&h, jb, jn < sizeof(h) ? jn : sizeof(h));
	if (jn < SLOT || memcmp(h.magic, hmagic, sizeof(h.magic)) ||
	    !h.max || h.max > (1ull << 32)) {
		fprintf(stderr, "lbs-fsx: %s: not a journal (no header)\n",
			jpath);
		free(jb);
		return 2;
	}
	fb = slurp(fpath, &fn);
	if (!fb) {
		free(jb);
		return 2;
	}
	o = lbs_oracle_new(h.max, (uint32_t)h.seed);
	lbs_oracle_lazy_meta(o);	/* a power cut flushes nothing */
	lbs_oracle_tail_block(o, h.block_size);
	lbs_oracle_allow(o, allow);
	for (uint64_t i = 1; (i + 1) * SLOT <= jn; i++) {
		struct rec r;
		struct lbs_oracle_rec or;

		memcpy(&r, jb + i * SLOT, sizeof(r));
		if (r.magic != RMAGIC || r.seq != (uint32_t)i ||
		    r.sum != rec_sum(&r))
			break;
		or = (struct lbs_oracle_rec){ r.type, r.a, r.b, r.c };
		if (r.type >= LBS_OREC_INTENT_WRITE && r.type < LBS_OREC_NR) {
			last = or;
		} else if (!lbs_oracle_apply(o, &or)) {
			fprintf(stderr, "lbs-fsx: %s: record %" PRIu64 " (%s "
				"0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 ") "
				"cannot be replayed\n", jpath, i,
				r.type < LBS_OREC_NR && tname[r.type] ?
				tname[r.type] : "?", r.a, r.b, r.c);
			free(jb);
			free(fb);
			lbs_oracle_free(o);
			return 2;
		}
		nsync += r.type == LBS_OREC_FSYNC;
		nrec++;
	}
	/* the op the power cut may have stopped: the most it could do */
	if (last.type)
		lbs_oracle_apply(o, &last);
	ok = fn <= h.max && lbs_oracle_crash(o, fn, fb, &mm);
	fprintf(out, "journal %s: %" PRIu64 " records (%" PRIu64 " fsyncs), "
		"last intent %s 0x%" PRIx64 " 0x%" PRIx64 "; file %s: %" PRIu64
		" bytes: ", jpath, nrec, nsync,
		last.type ? tname[last.type] : "none", last.a, last.b, fpath,
		fn);
	if (ok) {
		const struct lbs_crash_rule_count *k = lbs_oracle_rule_counts(o);

		fprintf(out, "every byte is fsynced data or a later change");
		for (unsigned r = 0; r < LBS_CRASH_NR_RULES; r++)
			if (k[r].bytes)
				fprintf(out, "%s %s %" PRIu64 " bytes",
					r ? "," : "; crash rules used:",
					lbs_crash_rule_name(r), k[r].bytes);
		fprintf(out, "\n");
	} else if (fn > h.max || mm.size_bad) {
		fprintf(out, "MISMATCH: size %" PRIu64 ", expected %" PRIu64
			"..%" PRIu64 "\n", fn, mm.size_expected_lo,
			mm.size_expected_hi);
	} else {
		uint64_t a8 = mm.off & ~7ull;
		bool stale = a8 + 8 <= fn && !memcmp(fb + a8, "STALEDA\n", 8);
		char rules[96];

		lbs_crash_rules_format(mm.denied_rules, rules, sizeof(rules));
		fprintf(out, "MISMATCH at offset 0x%" PRIx64 " (%" PRIu64
			" bad bytes from there): durable 0x%02x, actual "
			"0x%02x%s%s%s\n", mm.off, mm.len, mm.expected,
			mm.actual, stale ? " (the device's STALEDA fill: stale "
			"data)" : "", *rules ? "; only crash rules not allowed "
			"here explain it: " : "", rules);
	}
	free(jb);
	free(fb);
	lbs_oracle_free(o);
	return ok ? 0 : 1;
}
