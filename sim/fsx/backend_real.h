/* SPDX-License-Identifier: GPL-2.0 */
/* A real file as the fsx op execution backend (lbs-fsx). */
#ifndef LBS_FSX_BACKEND_REAL_H
#define LBS_FSX_BACKEND_REAL_H

#include "fsx_backend.h"

/* a crash op: not possible, or an XFS shutdown with or without a log
 * flush, or the two by turns (mixed: without first), then unmount and
 * mount */
enum { FSX_CRASH_NONE, FSX_CRASH_LOGFLUSH, FSX_CRASH_NOLOGFLUSH,
       FSX_CRASH_MIXED };

struct fsx_real_opts {
	bool global_drop;	/* also write 3 to /proc/sys/vm/drop_caches */
	int crash_mode;		/* FSX_CRASH_* */
	const char *stale_pattern;	/* the device's fill, for reports */
};

struct fsx_real_info {
	uint32_t st_blksize, fs_bsize, page_size;
	uint32_t dio_align;	/* STATX_DIOALIGN offset alignment, or 512 */
	bool dio_strict;	/* the fs reported an alignment rule */
	int dio_errno;		/* open(O_DIRECT) failed with this */
	unsigned unsupported;	/* LBS_FSX_F(): ops the fs lacks (probed) */
};

/* create/truncate @path; 0 or -1 (message printed) */
int fsx_real_open(struct fsx_backend *b, const char *path,
		  const struct fsx_real_opts *ro, uint64_t max,
		  struct fsx_real_info *info);
void fsx_real_close(struct fsx_backend *b);

#endif
