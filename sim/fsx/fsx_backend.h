/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The op execution backend of the fsx campaign (fsx.c): the generator, the
 * oracle and the .fsxops recorder/replayer are shared; only the execution
 * differs.  Two backends: the simulator (backend_model.c, lbs-sim) and a real
 * file driven through syscalls (backend_real.c, lbs-fsx).
 *
 * Results follow the kernel's conventions: bytes done, or -errno.
 * -EOPNOTSUPP from an op marks its feature as unsupported by the
 * filesystem: the op is skipped and counted, never silently.
 */
#ifndef LBS_FSX_BACKEND_H
#define LBS_FSX_BACKEND_H

#include "fsx.h"

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* fallocate modes: the values of Linux's FALLOC_FL_* */
#define FSX_FL_KEEP_SIZE	0x01
#define FSX_FL_PUNCH_HOLE	0x02
#define FSX_FL_COLLAPSE_RANGE	0x08
#define FSX_FL_ZERO_RANGE	0x10
#define FSX_FL_INSERT_RANGE	0x20
#define FSX_FL_UNSHARE_RANGE	0x40

/* dedupe_range(): the bytes differ, nothing shared (FILE_DEDUPE_RANGE_
 * DIFFERS, LBS_SIM_DEDUPE_DIFFERS) */
#define FSX_DEDUPE_DIFFERS	1

struct fsx_backend {
	void *p;
	const char *name;	/* "lbs-sim", "lbs-fsx": message prefix */
	/* what the generator sees: the same values give the same ops */
	uint32_t stat_bs;	/* st_blksize: fsx's collapse/insert rounding */
	uint32_t page_size;	/* short-copy fault points at page starts */
	/* the execution's rules, for the oracle's expected-EINVAL cases */
	uint32_t shift_align;	/* collapse/insert: whole fs blocks */
	uint32_t remap_align;	/* clone/dedupe: the fs block size */
	uint32_t dio_align;	/* O_DIRECT offset/length alignment */
	bool dio_strict;	/* unaligned O_DIRECT must fail with EINVAL */
	bool dio_read_lax;	/* ... but an unaligned read may succeed */
	bool can_crash;		/* false: crash ops are skipped, counted */
	/* a crash may lose metadata changes not yet fsynced (a log that
	 * was not flushed): lbs_oracle_lazy_meta() */
	bool crash_lazy_meta;
	/* ... or kept (log flushed), the named exceptions tracked for the
	 * report: lbs_oracle_track_tails() */
	bool crash_track_tails;
	unsigned unsupported;	/* LBS_FSX_F(): found missing at setup */

	uint64_t (*size)(void *p);
	int64_t (*read)(void *p, uint64_t pos, uint64_t len, void *buf);
	int64_t (*map_read)(void *p, uint64_t pos, uint64_t len, void *buf);
	int64_t (*dio_read)(void *p, uint64_t pos, uint64_t len, void *buf);
	/* @fault_at < @len: the user buffer faults after @fault_at bytes */
	int64_t (*write)(void *p, uint64_t pos, uint64_t len, const void *buf,
			 size_t fault_at);
	int64_t (*dio_write)(void *p, uint64_t pos, uint64_t len,
			     const void *buf);
	int64_t (*mmap_write)(void *p, uint64_t pos, uint64_t len,
			      const void *buf);
	int (*truncate)(void *p, uint64_t size);
	int (*fallocate)(void *p, int mode, uint64_t pos, uint64_t len);
	/* within the file, like fstests fsx: FICLONERANGE (0), FIDEDUPERANGE
	 * (0 or FSX_DEDUPE_DIFFERS), copy_file_range() until done or
	 * nothing more is copied (bytes copied) */
	int (*clone_range)(void *p, uint64_t src, uint64_t dst, uint64_t len);
	int (*dedupe_range)(void *p, uint64_t src, uint64_t dst,
			    uint64_t len);
	int64_t (*copy_range)(void *p, uint64_t src, uint64_t dst,
			      uint64_t len);
	void (*fsync)(void *p, uint64_t opno);
	void (*fsync_range)(void *p, uint64_t start, uint64_t end);
	void (*writeback)(void *p, uint64_t pos);
	/* optional: I/O left in flight by writeback completes (not before
	 * a crash, which loses it) */
	void (*settle)(void *p);
	void (*drop_caches)(void *p);
	void (*crash)(void *p);				/* if can_crash */
	/* state of the block at @off, for mismatch reports */
	void (*describe)(void *p, uint64_t off, char *buf, size_t n);
	bool (*is_stale_byte)(void *p, uint64_t off, uint8_t v);
	/* optional: an invariant of the model that an op broke without
	 * changing a byte the oracle sees (the simulator: writeback found
	 * dirty pages over a hole); true with the reason in @buf */
	bool (*model_broken)(void *p, char *buf, size_t n);
	/* counters into @r at the end of a run */
	void (*counters)(void *p, struct lbs_fsx_result *r);
};

/* 0 clean, 1 mismatch, 2 usage */
int lbs_fsx_run_on(const struct lbs_fsx_opts *o, struct fsx_backend *b,
		   struct lbs_fsx_result *r);
int lbs_fsx_replay_on(const struct lbs_fsx_opts *o, struct fsx_backend *b,
		      const char *path, const char *final_out,
		      struct lbs_fsx_result *r);
/* the largest file the campaign makes for these options */
uint64_t lbs_fsx_max_size(const struct lbs_fsx_opts *o);

#endif
