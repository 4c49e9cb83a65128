/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fsx.c takes from fstests' src/statx.h: xfstests_statx() and a
 * struct statx with the atomic-write fields (newer than glibc 2.36's).
 * Written for this project; the layout is the kernel's uapi one.
 */
#ifndef LBS_FSTESTS_STATX_H
#define LBS_FSTESTS_STATX_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef STATX_WRITE_ATOMIC
#define STATX_WRITE_ATOMIC 0x00010000U
#endif
#ifndef STATX_ATTR_WRITE_ATOMIC
#define STATX_ATTR_WRITE_ATOMIC 0x00400000
#endif

/* the kernel's struct statx under its own name (glibc has an older one) */
#define statx lbs_kernel_statx
struct statx_ts_compat { int64_t tv_sec; uint32_t tv_nsec; int32_t pad; };
struct statx {
	uint32_t stx_mask, stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink, stx_uid, stx_gid;
	uint16_t stx_mode, spare0;
	uint64_t stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_ts_compat stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	uint64_t stx_mnt_id;
	uint32_t stx_dio_mem_align, stx_dio_offset_align;
	uint64_t stx_subvol;
	uint32_t stx_atomic_write_unit_min, stx_atomic_write_unit_max;
	uint32_t stx_atomic_write_segments_max, stx_dio_read_offset_align;
	uint32_t stx_atomic_write_unit_max_opt, spare2;
	uint64_t spare3[8];
};

static inline int xfstests_statx(int dfd, const char *filename,
				 unsigned flags, unsigned int mask,
				 struct statx *buffer)
{
	return (int)syscall(__NR_statx, dfd, filename, flags, mask, buffer);
}

#endif
