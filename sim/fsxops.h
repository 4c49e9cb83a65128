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
 */
#ifndef LBS_FSXOPS_H
#define LBS_FSXOPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct lbs_fsxops_line {
	char op[20];		/* fsx's op name */
	uint32_t nargs;		/* 3 or 4 */
	uint64_t a[4];
	bool skip, keep_size, close_open, unshare, overlap;
};

/*
 * Parse one line (NUL-terminated, with or without its newline).  Returns
 * 1 for an op, 0 for a blank or comment line, -1 with a reason in @err.
 */
int lbs_fsxops_parse(const char *line, struct lbs_fsxops_line *out,
		     char *err, size_t errlen);

#endif
