/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lbs_sim: a userspace model of the Linux 6.1 page cache, iomap and XFS
 * paths for one file, at any block size / page size combination, with
 * the zero-around design for block size > page size.
 *
 * Every block-size decision (zero-around ranges, pageblock units, read
 * range clipping, EOF truncate zeroing, DIO pads and segments, writeback
 * and flush rounding, st_blksize) is made by core/ (lbs_iomap.h,
 * lbs_xfs.h).  The simulator only models state: folios, the extent map,
 * the block device and i_size/i_disk_size.
 *
 * No globals: several instances may live in one process.  Mutating
 * operations on one instance must not run concurrently with each other;
 * lbs_sim_peek() may run from any thread at any time (RCU lookup).
 *
 * Model decisions (issue 5 implements the same in the kernel):
 *  - bs > ps: no large folios, every folio is one page, pageblock = page
 *    (PORTING-6.1.md D1(a): XFS does not call mapping_set_large_folios()
 *    when sb_blocksize > PAGE_SIZE).  The config check refuses
 *    max_folio_order > 0 there rather than model D1(b), under which
 *    zero-around's page-granular ranges and whole-folio uptodate state of
 *    sub-block folios would have to become per-folio.
 *    lbs_sim_create_lf() with large_folios lifts that (issue 29, off by
 *    default): core's bimodal orders, the zero-around decision on the
 *    locked data folio, allocation failures and mm events; see
 *    struct lbs_sim_lf_config and sim/folio_order.c.
 *  - bs <= ps: folios of order 0 .. max_folio_order (6.1 XFS with THP).
 *    Readahead (buffered read misses and mmap faults) makes large folios
 *    as page_cache_ra_order() does: largest order first, naturally
 *    aligned, order 1 never, never past the EOF page, order 0 around
 *    cached pages; its window is the request or 2^max_folio_order pages,
 *    whichever is larger (the ra->order ramp-up is not modelled).  The
 *    write path allocates order 0.  A folio holding more than one block
 *    has per-block uptodate and dirty state (iomap_page, series patch
 *    40); writeback writes its dirty blocks inside EOF.  Truncation of
 *    part of a large folio zeroes that part and splits it to order 0
 *    (split always succeeds); O_DIRECT invalidation drops whole folios.
 *  - a short copy (iomap_write_iter()) into a zero-around block zeroes the
 *    rest of its range inside EOF, which 6.1 leaves uninitialised (the
 *    port must add this); iomap_write_failed() then truncates everything
 *    the write and its zero-around instantiated past the new EOF; a block
 *    this write reserved and copied nothing into loses its reservation
 *    unless a dirty folio inside EOF overlaps it (D6, rounded inward).
 *    So at bs > ps a page is dirty only over a reservation or an
 *    allocation; writeback finding one over a hole (6.1 skips it) counts
 *    wb_hole_bytes, and an fsx campaign fails on it.
 *  - metadata transactions (extent changes, size changes) are durable as
 *    soon as they are made; data is durable once it is on the device.
 *  - delalloc converts to unwritten at writeback allocation; unwritten
 *    converts to written in whole blocks at I/O completion; i_disk_size
 *    advances at ioend completion to min(ioend end, i_size).
 *  - shared extents (reflink.c): device blocks have owner counts; every
 *    file block has a COW fork entry.  A write or fault into a shared
 *    written block reserves COW blocks over core's lbs_cowextsz_hint()
 *    window (mkfs's hint of 32 blocks; one block at bs > ps); any block
 *    the COW fork covers is written to it, copied around from the data
 *    fork at bs > ps, and remapped whole at I/O completion
 *    (xfs_reflink_end_cow()), after its post-EOF part is zeroed; a
 *    shared block is never zeroed in place.  Sub-block O_DIRECT writes
 *    to a file that has shared blocks fall back to buffered writes.
 *    Truncate and collapse/insert cancel the COW fork past the cut; a
 *    crash frees all of it (log recovery).
 */
#ifndef LBS_SIM_H
#define LBS_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

/* fault knobs */
#define LBS_SIM_INJ_NO_ZERO_AROUND	(1u << 0)
#define LBS_SIM_INJ_NO_DIO_ZERO		(1u << 1)
#define LBS_SIM_INJ_NO_WB_ROUND		(1u << 2)
#define LBS_SIM_INJ_MARK_PARTIAL_UPTODATE (1u << 3)
/* the first block read into a large folio marks the whole folio uptodate */
#define LBS_SIM_INJ_RA_WHOLE_UPTODATE	(1u << 4)
/* folio split unhashes the large folio before its pieces are in */
#define LBS_SIM_INJ_SPLIT_GAP		(1u << 5)
/* a short copy leaves the rest of its range inside EOF as it is */
#define LBS_SIM_INJ_SHORT_COPY_NO_FILL	(1u << 6)
/* a short copy keeps what it instantiated past the new EOF */
#define LBS_SIM_INJ_SHORT_COPY_KEEP	(1u << 7)
/* a write into part of a COW block leaves the rest of the block to the
 * COW block's old contents (no copy-around): completion remaps it whole */
#define LBS_SIM_INJ_NO_COPY_AROUND	(1u << 8)
/* the first of two ioends over one block converts or remaps it whole */
#define LBS_SIM_INJ_IOEND_EARLY		(1u << 9)
/* a delalloc punch rounds out to whole blocks, dropping the reservation
 * under dirty pages of its edge blocks outside the range (6.1) */
#define LBS_SIM_INJ_PUNCH_OUTWARD	(1u << 10)
/*
 * Large folios at bs > ps (config large_folios), each a bug the design
 * rules out: the zero-around decision made on an unlocked folio before
 * write_begin; no recheck of the data folio after the relock that
 * follows zero-around; the copy loop stepping by page through a large
 * folio (locking it again); readahead making orders between 1 and m - 1
 */
#define LBS_SIM_INJ_DECIDE_BEFORE_LOCK	(1u << 11)
#define LBS_SIM_INJ_NO_RECHECK		(1u << 12)
#define LBS_SIM_INJ_STEP_BY_PAGE	(1u << 13)
#define LBS_SIM_INJ_SUB_BLOCK_ORDER	(1u << 14)
/* writeback ignores the per-block dirty bits (6.1 before patch 40): every
 * uptodate block of a dirty folio is written */
#define LBS_SIM_INJ_FOLIO_DIRTY_WHOLE	(1u << 15)
#define LBS_SIM_INJ_ALL			0xffffu

/* parse "no-zero-around" etc.; returns the bit or 0 if unknown */
unsigned lbs_sim_inject_parse(const char *name);
const char *lbs_sim_inject_names(void);

struct lbs_sim_config {
	uint32_t block_size;	/* 512 .. 65536, power of two */
	uint32_t page_size;	/* 4096, 16384 or 65536 */
	uint64_t max_file_size;	/* 0: 1 MiB */
	unsigned inject;	/* LBS_SIM_INJ_* */
	uint32_t max_folio_order; /* readahead's largest folio; bs <= ps only */
};

/*
 * bs > ps only: bimodal large folios (core/folio_order.c): every folio of
 * order 0 or at least m = lbs_folio_min_order(), made by readahead and by
 * buffered writes into blocks with no folio.  Off (the default), the sim
 * is the order-0 model of D1(a).  A separate structure so that every
 * lbs_sim_config initialiser stays as it is.
 */
struct lbs_sim_lf_config {
	bool large_folios;
	uint32_t max_order;	  /* largest order; 0: MAX_PAGECACHE_ORDER */
	uint32_t alloc_fail_pct;  /* large allocations failing, 0..100 */
	uint32_t mm_event_pct;	  /* chance of an mm event at each point */
	uint64_t seed;		  /* seeds both */
	/* buffered writes into an uncached block make order-0 pages, as the
	 * series did before its write path made large folios (patch 37) */
	bool write_pages;
};

/* fallocate modes (Linux values) */
#define LBS_FL_KEEP_SIZE	0x01
#define LBS_FL_PUNCH_HOLE	0x02
#define LBS_FL_COLLAPSE_RANGE	0x08
#define LBS_FL_ZERO_RANGE	0x10
#define LBS_FL_INSERT_RANGE	0x20
#define LBS_FL_UNSHARE_RANGE	0x40

/* MAX_PAGECACHE_ORDER is at most 11 */
#define LBS_SIM_NR_ORDERS 12
/* mm events: split to order 0, eviction, migration, and removal that
 * references do not stop (memory_failure()'s truncate_error_folio()) */
enum { LBS_SIM_MM_SPLIT, LBS_SIM_MM_EVICT, LBS_SIM_MM_MIGRATE,
       LBS_SIM_MM_INVALIDATE, LBS_SIM_NR_MM };
const char *lbs_sim_mm_name(unsigned k);

struct lbs_sim_counters {
	uint64_t za_calls;		/* writes that needed zero-around */
	uint64_t za_zeroed;		/* bytes zeroed by zero-around (and
					   to complete a short copy in
					   its block) in pages the file
					   kept */
	uint64_t za_truncated;		/* bytes it zeroed in pages that a
					   short copy's truncation past
					   the new EOF dropped */
	uint64_t za_dirtied_uptodate;	/* uptodate pages only dirtied */
	uint64_t za_need;		/* the minimum counted independently
					   of core: bytes of pages inside EOF
					   of new/delalloc/unwritten blocks
					   (bs > ps), not uptodate before the
					   write, not copied by it */
	uint64_t dio_zero_bios;
	uint64_t dio_zero_segs;
	uint64_t wb_calls;
	uint64_t wb_folios;		/* folios written, all passes */
	uint64_t wb_last_folios;	/* folios written by the last pass */
	uint64_t wb_max_folios;		/* most folios in one pass */
	uint64_t dev_writes;		/* units written to the device */
	uint64_t eof_zero_bios;		/* post-EOF-page zeroing of EOF blocks */
	uint64_t ioend_splits;		/* blocks split between two ioends */
	uint64_t ioend_waits;		/* blocks left for the other ioend */
	uint64_t crashes;
	uint64_t ra_large_folios;	/* folios of order > 0 readahead made */
	uint64_t folio_splits;		/* large folios split by truncation */
	uint64_t remaps;		/* blocks shared by clone/dedupe/copy */
	uint64_t cow_blocks;		/* COW blocks remapped at completion */
	uint64_t ca_filled;		/* bytes copy-around read from the
					   source block (shared data) */
	uint64_t ca_zeroed;		/* bytes copy-around zeroed (source
					   hole, unwritten or past EOF) */
	uint64_t wb_hole_bytes;		/* bytes of dirty pages (bs > ps)
					   that writeback found over a
					   hole and skipped: the block had
					   lost its reservation under them
					   (0 but with a fault knob) */
	uint64_t wb_hole_data;		/* ... of them not zero: data lost */
	uint64_t wb_hole_first;		/* file offset of the first */
	uint64_t wb_shared_inplace;	/* blocks writeback wrote in place
					   though shared: another file's
					   data overwritten (0 but with a
					   fault knob) */
	uint64_t wb_shared_first;	/* file offset of the first */
	struct lbs_sim_lf_counters {	/* large_folios only */
		uint64_t made[LBS_SIM_NR_ORDERS]; /* folios allocated by
					   readahead and writes, per order */
		uint64_t fallbacks;	/* large allocations that failed
					   (knob) or met cached pages and
					   went one step down */
		uint64_t alloc_failed;	/* ... of them by the knob */
		uint64_t mm_applied[LBS_SIM_NR_MM];
		uint64_t mm_refused[LBS_SIM_NR_MM];
		uint64_t retries;	/* write_begin / mkwrite rechecks
					   that found the folio gone */
		uint64_t checks;	/* invariant checks run */
		uint64_t double_locks;	/* a folio locked by its holder */
		uint64_t double_lock_pos;	/* offset of the first */
		uint64_t orphan_writes;	/* writes into a folio the page
					   cache no longer holds */
		uint64_t orphan_pos;	/* offset of the first */
	} lf;
};

struct lbs_sim;

/* returns 0, or -1 with a message in err */
int lbs_sim_config_check(const struct lbs_sim_config *cfg, char *err,
			 size_t errlen);
struct lbs_sim *lbs_sim_create(const struct lbs_sim_config *cfg, char *err,
			       size_t errlen);
/* the same with large folios (@lf NULL: off) */
int lbs_sim_lf_config_check(const struct lbs_sim_config *cfg,
			    const struct lbs_sim_lf_config *lf, char *err,
			    size_t errlen);
struct lbs_sim *lbs_sim_create_lf(const struct lbs_sim_config *cfg,
				  const struct lbs_sim_lf_config *lf,
				  char *err, size_t errlen);
void lbs_sim_destroy(struct lbs_sim *sim);

uint64_t lbs_sim_size(const struct lbs_sim *sim);
uint64_t lbs_sim_disk_size(const struct lbs_sim *sim);
uint64_t lbs_sim_max_size(const struct lbs_sim *sim);
uint32_t lbs_sim_block_size(const struct lbs_sim *sim);
uint32_t lbs_sim_page_size(const struct lbs_sim *sim);
/* st_blksize, from core's lbs_stat_blksize() */
uint32_t lbs_sim_stat_blksize(const struct lbs_sim *sim);
const struct lbs_sim_counters *lbs_sim_counters(const struct lbs_sim *sim);

/*
 * I/O.  Results are bytes transferred or -errno.  Reads stop at EOF.
 * lbs_sim_write(): @fault_at < @len makes the user buffer fault after
 * @fault_at bytes (short copy); pass SIZE_MAX for none.
 * lbs_sim_mmap_write(): store through a shared mapping; the range must
 * lie inside i_size (-EINVAL otherwise, callers extend first like fsx).
 * O_DIRECT: offset, length and buffer must be 512-byte aligned (-EINVAL).
 */
int64_t lbs_sim_read(struct lbs_sim *sim, uint64_t pos, uint64_t len,
		     void *buf);
int64_t lbs_sim_write(struct lbs_sim *sim, uint64_t pos, uint64_t len,
		      const void *buf, size_t fault_at);
int64_t lbs_sim_mmap_write(struct lbs_sim *sim, uint64_t pos, uint64_t len,
			   const void *buf);
int64_t lbs_sim_dio_read(struct lbs_sim *sim, uint64_t pos, uint64_t len,
			 void *buf);
int64_t lbs_sim_dio_write(struct lbs_sim *sim, uint64_t pos, uint64_t len,
			  const void *buf);
int lbs_sim_truncate(struct lbs_sim *sim, uint64_t size);
int lbs_sim_fallocate(struct lbs_sim *sim, int mode, uint64_t pos,
		      uint64_t len);
int lbs_sim_fsync(struct lbs_sim *sim);
/* [start, end] inclusive, like sync_file_range/fsync ranges */
int lbs_sim_fsync_range(struct lbs_sim *sim, uint64_t start, uint64_t end);
/*
 * Shared extents (reflink, on as mkfs.xfs makes it).  The file is shared
 * with itself, as fstests' fsx does: the VFS rules (generic_remap_checks())
 * are the same for two files.
 * lbs_sim_clone_range(): FICLONERANGE of [@src, @src+@len) to @dst; @len 0
 *   means to the source's EOF.  @src and @dst must be block-aligned, and
 *   @len too unless the range ends at EOF (then the EOF block is shared
 *   whole, but only if the destination range ends at or past EOF: no
 *   partial block lands inside the file); the ranges may not overlap; the
 *   source range must start inside EOF.  0 or -EINVAL.  The destination
 *   may lie past EOF: the gap is zeroed and the file grows to @dst+@len.
 * lbs_sim_dedupe_range(): FIDEDUPERANGE, one destination: both ranges
 *   inside EOF, block-aligned starts; the length is cut to whole blocks
 *   (REMAP_FILE_CAN_SHORTEN); shares the blocks only if the bytes are
 *   equal.  Returns 0 (deduped or nothing to do), LBS_SIM_DEDUPE_DIFFERS,
 *   or -EINVAL.
 * lbs_sim_copy_range(): copy_file_range(): any offsets.  As the VFS does
 *   with REMAP_FILE_CAN_SHORTEN, a block-aligned start clones the whole
 *   blocks (and the EOF block) and copies the rest through the page
 *   cache.  Stops at the source's EOF; returns bytes copied or -EINVAL
 *   (overlap).
 * fallocate(LBS_FL_UNSHARE_RANGE): xfs_reflink_unshare(): copy the shared
 *   blocks of the range (rounded by core's lbs_unshare_range()) to COW
 *   blocks through the page cache and write them back.
 */
#define LBS_SIM_DEDUPE_DIFFERS	1
int lbs_sim_clone_range(struct lbs_sim *sim, uint64_t src, uint64_t dst,
			uint64_t len);
int lbs_sim_dedupe_range(struct lbs_sim *sim, uint64_t src, uint64_t dst,
			 uint64_t len);
int64_t lbs_sim_copy_range(struct lbs_sim *sim, uint64_t src, uint64_t dst,
			   uint64_t len);

/* background (WB_SYNC_NONE, nr_to_write = 1) writeback starting at the
 * folio holding @pos, range_cyclic from there; returns folios written */
int lbs_sim_writeback_folio(struct lbs_sim *sim, uint64_t pos);
/* the same, with the block split between two ioends at the page holding
 * @pos: the second stays in flight until lbs_sim_settle() or a crash */
int lbs_sim_writeback_split(struct lbs_sim *sim, uint64_t pos);
/* complete the ioend left in flight, if any */
void lbs_sim_settle(struct lbs_sim *sim);
/* index of some dirty folio (pseudo-random pick by @hint), or -1 */
int64_t lbs_sim_pick_dirty(struct lbs_sim *sim, uint64_t hint);
/* echo 3 > drop_caches: drop clean folios */
void lbs_sim_drop_caches(struct lbs_sim *sim);
/* power cut: page cache and delalloc are lost, i_size = i_disk_size */
void lbs_sim_crash(struct lbs_sim *sim);

/*
 * For a filesystem front end (extent_query.c): lseek(SEEK_DATA) (@data)
 * or SEEK_HOLE from @pos as XFS answers it, or -ENXIO; the bytes of
 * allocated and delalloc blocks (st_blocks).
 */
int64_t lbs_sim_seek(struct lbs_sim *sim, uint64_t pos, bool data);
uint64_t lbs_sim_alloc_bytes(const struct lbs_sim *sim);

/*
 * large_folios: the bimodal invariants (every folio order 0 or >= m and
 * naturally aligned, no block under a mix, no dirty page of the
 * sub-block regime over a hole or beside a page of its unwritten or
 * delalloc block that zero-around left out, no folio left locked or
 * referenced, no folio locked twice).  True with the first violation
 * in @buf; false (nothing said) when large folios are off.
 */
bool lbs_sim_folio_check(struct lbs_sim *sim, char *buf, size_t len);

/* diagnostics */
bool lbs_sim_is_stale_byte(const struct lbs_sim *sim, uint64_t pos,
			   uint8_t byte);
/* one line describing the block and page holding @pos */
void lbs_sim_describe(struct lbs_sim *sim, uint64_t pos, char *buf,
		      size_t len);

/*
 * RCU lookup, safe from any thread concurrently with the mutating
 * operations (filemap_get_folio()).  Returns true and fills @info if a
 * folio for page @index is cached.
 */
struct lbs_sim_folio_info {
	uint64_t index;		/* first page of the folio holding the page */
	uint32_t order;
	bool uptodate, dirty, writeback;
	uint32_t magic;
};
#define LBS_SIM_FOLIO_MAGIC 0xf011a6e5u
bool lbs_sim_peek(struct lbs_sim *sim, uint64_t index,
		  struct lbs_sim_folio_info *info);
uint64_t lbs_sim_nr_folios(const struct lbs_sim *sim);

/*
 * A terminal picture of [off, off+len) (len 0: from @off up to the last
 * block with an extent, a cached page or EOF): one line per file block
 * with its extent state, then one character per pageblock unit for the
 * page cache state, the EOF marker, a legend and the zero-around
 * counters.  Observes only.  LBS_SIM_MAP_COLOR adds ANSI colours.
 */
#define LBS_SIM_MAP_COLOR	1u
void lbs_sim_map_render(struct lbs_sim *sim, FILE *out, uint64_t off,
			uint64_t len, unsigned flags);

#endif /* LBS_SIM_H */
