/* SPDX-License-Identifier: GPL-2.0 */
/* Random op campaigns and .fsxops replay on the simulator, with the oracle. */
#ifndef LBS_FSX_H
#define LBS_FSX_H

#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

struct lbs_fsx_opts {
	uint32_t block_size, page_size;
	uint64_t ops, seed;
	uint64_t file_size;	/* max file length; 0: default */
	uint64_t op_size;	/* max op length; 0: default */
	unsigned inject;
	bool no_crash;		/* leave crash out of the mix */
	FILE *record;		/* .fsxops output, or NULL */
	FILE *log;		/* mismatch reports, or NULL (stderr) */
	bool progress;
	bool quiet;
};

struct lbs_fsx_result {
	uint64_t ops_run;
	uint64_t mismatches;	/* 0 or 1: the run stops at the first */
	uint64_t skipped;	/* replay: "skip" lines (fsx did not run them) */
	uint64_t unmodelled;	/* replay: fsx ops not modelled, skipped */
	uint64_t fsx_skipped;	/* replay: ops fsx's own rules skip */
	uint64_t unfaithful;	/* record: ops fsx would replay otherwise */
	uint64_t einval;	/* expected EINVAL results seen */
	double seconds;
	uint64_t final_size;
	uint64_t za_zeroed, za_min, dio_zero_bios, dio_zero_segs;
	uint64_t wb_folios, wb_calls, wb_max_folios, crashes;
};

/* 0 clean, 1 mismatch, 2 usage (message printed) */
int lbs_fsx_run(const struct lbs_fsx_opts *o, struct lbs_fsx_result *r);
/* replay a .fsxops file; same exit codes; final bytes to @final_out if
 * non-NULL (file of the final contents) */
int lbs_fsx_replay(const struct lbs_fsx_opts *o, const char *path,
		   const char *final_out, struct lbs_fsx_result *r);

#endif
