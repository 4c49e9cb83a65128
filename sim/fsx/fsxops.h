/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line of fstests fsx's .fsxops format (ltp/fsx.c logdump() and
 * read_op()):
 *
 *   [skip ]OP ARG0 ARG1 ARG2[ ARG3][ keep_size][ close_open][ unshare][ *]
 *
 * Numbers are C literals (strtoul base 0; fsx writes 0x%x).  Three
 * numbers for every op but clone_range, dedupe_range, copy_range and
 * exchange_range, which take four (offset, length, destination, file
 * size).  The last number is the file size when fsx logged the op.
 * truncate and allocsp are "0 newsize size", fsync is "0 0 size".  Lines
 * whose first word starts with '#' and blank lines are ignored.
 *
 * lbs-sim's notes are such comments, so fsx ignores them:
 *
 *   # lbs-sim NAME[ ARG...][ free text]
 *
 * They say what fsx's format cannot, for lbs-sim's and lbs-fsx's replay:
 * a crash, writeback and drop_caches between two op lines, and how the
 * op on the next line was done (fsync_range: the fsync line; dread,
 * dwrite: the read or write line, through O_DIRECT; write_short: the
 * write of what a faulting copy copied; punch_hole: the punch_hole line,
 * which fsx trims to EOF or skips).
 */
#ifndef LBS_FSXOPS_H
#define LBS_FSXOPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

enum lbs_fsxops_note {
	LBS_FSXOPS_NOTE_NONE,
	LBS_FSXOPS_CRASH,	/* "crash": a crash here (text after it free) */
	LBS_FSXOPS_WRITEBACK,	/* "writeback POS": the dirty page POS picks */
	LBS_FSXOPS_DROP,	/* "drop_caches" */
	/* the next line's op, as done: "fsync_range OFF LEN", "dread OFF
	 * LEN", "dwrite OFF LEN", "write_short OFF LEN FAULT_AT" */
	LBS_FSXOPS_FSYNC_RANGE, LBS_FSXOPS_DREAD, LBS_FSXOPS_DWRITE,
	LBS_FSXOPS_WRITE_SHORT,
	LBS_FSXOPS_PUNCH,	/* "punch_hole OFF LEN": fsx trims or skips */
};

struct lbs_fsxops_line {
	char op[20];		/* fsx's op name, or the note's name */
	uint32_t nargs;		/* op: 3 or 4; note: 0 to 3 */
	uint64_t a[4];
	bool skip, keep_size, close_open, unshare, overlap;
	enum lbs_fsxops_note note;	/* a comment that is a note */
};

/*
 * Parse one line (NUL-terminated, with or without its newline).  Returns
 * 1 for an op, 0 for a blank or comment line (@out->note set for a note),
 * -1 with a reason in @err (a note with bad numbers too).
 */
int lbs_fsxops_parse(const char *line, struct lbs_fsxops_line *out,
		     char *err, size_t errlen);

#endif
