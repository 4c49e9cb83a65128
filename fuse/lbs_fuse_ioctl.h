/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lbs-fuse's one ioctl: a store through a shared mapping, done by the
 * simulator's mmap path (lbs_sim_mmap_write(): page_mkwrite, then the
 * copy).  FUSE refuses MAP_SHARED on direct_io files unless the daemon
 * can ask for FUSE_DIRECT_IO_ALLOW_MMAP, which libfuse 3.14 cannot; this
 * keeps the simulator's mmap path reachable from a test through the
 * mount.  A restricted FUSE ioctl carries at most 16 KiB: callers split
 * longer stores (lbs-fuse-fsx splits at page boundaries, as faults do).
 */
#ifndef LBS_FUSE_IOCTL_H
#define LBS_FUSE_IOCTL_H

#include <linux/ioctl.h>
#include <stdint.h>

#define LBS_FUSE_MMAP_CHUNK 8192

struct lbs_fuse_mmap_write {
	uint64_t pos;
	uint32_t len;		/* at most LBS_FUSE_MMAP_CHUNK */
	uint32_t pad;
	uint8_t data[LBS_FUSE_MMAP_CHUNK];
};

#define LBS_FUSE_IOC_MMAP_WRITE _IOW('L', 0x61, struct lbs_fuse_mmap_write)

#endif
