/* SPDX-License-Identifier: GPL-2.0 */
/* The oracle's journal on a raw device, and its check (journal.c). */
#ifndef LBS_JOURNAL_H
#define LBS_JOURNAL_H

#include <stdint.h>
#include <stdio.h>

struct lbs_oracle_rec;

struct lbs_journal {
	int fd;
	uint64_t n;		/* records written */
};

/* open @dev (O_DSYNC) and write the header; 0 or -1 (printed) */
int lbs_journal_open(struct lbs_journal *j, const char *dev, uint64_t seed,
		     uint64_t max, uint32_t block_size);
/* lbs_oracle_set_journal()'s callback: one record, on the device */
void lbs_journal_rec(void *arg, const struct lbs_oracle_rec *r);
void lbs_journal_close(struct lbs_journal *j);
/*
 * Rebuild the oracle from the journal @jpath and check the file @fpath
 * (the bytes log recovery left) against it, as after a crash with lazy
 * metadata; one line to @out.  0: good, 1: mismatch, 2: bad input.
 */
int lbs_journal_check(const char *jpath, const char *fpath, unsigned allow,
		      FILE *out);

#endif
