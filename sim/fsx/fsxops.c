// SPDX-License-Identifier: GPL-2.0
/* The .fsxops line parser; see fsxops.h for the format. */
#include "fsxops.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	uint32_t nargs;
} fsx_ops[] = {
	{ "read", 3 }, { "write", 3 }, { "mapread", 3 }, { "mapwrite", 3 },
	{ "truncate", 3 }, { "fallocate", 3 }, { "punch_hole", 3 },
	{ "zero_range", 3 }, { "collapse_range", 3 }, { "insert_range", 3 },
	{ "clone_range", 4 }, { "dedupe_range", 4 }, { "copy_range", 4 },
	{ "exchange_range", 4 }, { "fsync", 3 }, { "allocsp", 3 },
	/* fstests 2025: RWF_DONTCACHE and RWF_ATOMIC I/O, WRITE_ZEROES */
	{ "read_dontcache", 3 }, { "write_dontcache", 3 },
	{ "write_atomic", 3 }, { "write_zeroes", 3 },
};

static int parse_num(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || *end) ? -1 : 0;
}

static bool is_sep(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* next whitespace-separated word of *@p into @w (at most @wl - 1 chars) */
static int next_word(const char **p, char *w, size_t wl)
{
	const char *s = *p;
	size_t n = 0;

	while (*s && is_sep(*s))
		s++;
	if (!*s)
		return 0;
	while (s[n] && !is_sep(s[n]))
		n++;
	if (n >= wl)
		return -1;
	memcpy(w, s, n);
	w[n] = 0;
	*p = s + n;
	return 1;
}

static const struct {
	const char *name;
	enum lbs_fsxops_note note;
	uint32_t nargs;
} notes[] = {
	{ "crash", LBS_FSXOPS_CRASH, 0 },
	{ "writeback", LBS_FSXOPS_WRITEBACK, 1 },
	{ "drop_caches", LBS_FSXOPS_DROP, 0 },
	{ "fsync_range", LBS_FSXOPS_FSYNC_RANGE, 2 },
	{ "dread", LBS_FSXOPS_DREAD, 2 }, { "dwrite", LBS_FSXOPS_DWRITE, 2 },
	{ "write_short", LBS_FSXOPS_WRITE_SHORT, 3 },
	{ "punch_hole", LBS_FSXOPS_PUNCH, 2 },
};

/* the rest of a "#" line: "lbs-sim NAME ARGS..." is a note, else nothing */
static int parse_note(const char *p, struct lbs_fsxops_line *out, char *err,
		      size_t errlen)
{
	char w[32];
	size_t k;

	if (next_word(&p, w, sizeof(w)) <= 0 || strcmp(w, "lbs-sim") ||
	    next_word(&p, w, sizeof(w)) <= 0)
		return 0;
	for (k = 0; k < sizeof(notes) / sizeof(notes[0]); k++)
		if (!strcmp(w, notes[k].name))
			break;
	if (k == sizeof(notes) / sizeof(notes[0]))
		return 0;	/* another comment of ours ("skip crash") */
	for (uint32_t i = 0; i < notes[k].nargs; i++) {
		int r = next_word(&p, w, sizeof(w));

		if (r <= 0 || parse_num(w, &out->a[i])) {
			snprintf(err, errlen, "lbs-sim %s: bad or missing "
				 "number", notes[k].name);
			return -1;
		}
	}
	strcpy(out->op, notes[k].name);
	out->nargs = notes[k].nargs;
	out->note = notes[k].note;
	return 0;
}

int lbs_fsxops_parse(const char *line, struct lbs_fsxops_line *out,
		     char *err, size_t errlen)
{
	const char *p = line;
	char w[32];
	size_t k;
	int r;

	memset(out, 0, sizeof(*out));
	r = next_word(&p, w, sizeof(w));
	if (r > 0 && !strcmp(w, "#"))
		return parse_note(p, out, err, errlen);
	if (r == 0 || (r > 0 && w[0] == '#'))
		return 0;
	if (r > 0 && !strcmp(w, "skip")) {
		out->skip = true;
		r = next_word(&p, w, sizeof(w));
		if (r == 0) {
			snprintf(err, errlen, "truncated line: \"skip\" without an op");
			return -1;
		}
	}
	if (r < 0) {
		snprintf(err, errlen, "unknown op (word too long)");
		return -1;
	}
	for (k = 0; k < sizeof(fsx_ops) / sizeof(fsx_ops[0]); k++)
		if (!strcmp(w, fsx_ops[k].name))
			break;
	if (k == sizeof(fsx_ops) / sizeof(fsx_ops[0])) {
		snprintf(err, errlen, "unknown op \"%s\"", w);
		return -1;
	}
	strcpy(out->op, fsx_ops[k].name);
	out->nargs = fsx_ops[k].nargs;
	for (uint32_t i = 0; i < out->nargs; i++) {
		r = next_word(&p, w, sizeof(w));
		if (r == 0) {
			snprintf(err, errlen, "truncated line: %s wants %u numbers, "
				 "got %u", out->op, out->nargs, i);
			return -1;
		}
		if (r < 0 || parse_num(w, &out->a[i])) {
			snprintf(err, errlen, "bad number \"%.31s\"",
				 r < 0 ? "(too long)" : w);
			return -1;
		}
	}
	while ((r = next_word(&p, w, sizeof(w))) != 0) {
		if (r > 0 && !strcmp(w, "keep_size"))
			out->keep_size = true;
		else if (r > 0 && !strcmp(w, "unshare"))
			out->unshare = true;
		else if (r > 0 && !strcmp(w, "close_open"))
			out->close_open = true;
		else if (r > 0 && !strcmp(w, "*"))
			out->overlap = true;
		else {
			snprintf(err, errlen, "unknown flag \"%.31s\"",
				 r < 0 ? "(too long)" : w);
			return -1;
		}
	}
	return 1;
}
