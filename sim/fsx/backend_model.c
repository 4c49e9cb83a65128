// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator as fsx's op execution backend: lbs_fsx_run(),
 * lbs_fsx_replay() and lbs_fsx_sim_run() for lbs-sim, its map command and
 * the tests.
 */
#define _GNU_SOURCE
#include "fsx_backend.h"
#include "lbs_sim.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

_Static_assert(LBS_SIM_NR_ORDERS == 12 && LBS_SIM_NR_MM == 4,
	       "lbs_fsx_result's large folio counters are the sim's");
_Static_assert(LBS_SIM_DEDUPE_DIFFERS == FSX_DEDUPE_DIFFERS &&
	       LBS_FL_UNSHARE_RANGE == FSX_FL_UNSHARE_RANGE,
	       "the simulator's answers are the backend's");

static uint64_t s_size(void *p) { return lbs_sim_size(p); }

static int64_t s_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	return lbs_sim_read(p, pos, len, buf);
}

static int64_t s_dio_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	return lbs_sim_dio_read(p, pos, len, buf);
}

static int64_t s_write(void *p, uint64_t pos, uint64_t len, const void *buf,
		       size_t fault_at)
{
	return lbs_sim_write(p, pos, len, buf, fault_at);
}

static int64_t s_dio_write(void *p, uint64_t pos, uint64_t len,
			   const void *buf)
{
	return lbs_sim_dio_write(p, pos, len, buf);
}

static int64_t s_dio_write_lax(void *p, uint64_t pos, uint64_t len,
			       const void *buf)
{
	if ((pos | len) % 512)
		return lbs_sim_write(p, pos, len, buf, SIZE_MAX);
	return lbs_sim_dio_write(p, pos, len, buf);
}

static int64_t s_mmap_write(void *p, uint64_t pos, uint64_t len,
			    const void *buf)
{
	return lbs_sim_mmap_write(p, pos, len, buf);
}

static int s_truncate(void *p, uint64_t size)
{
	return lbs_sim_truncate(p, size);
}

static int s_fallocate(void *p, int mode, uint64_t pos, uint64_t len)
{
	/* FSX_FL_* and LBS_FL_* are both Linux's FALLOC_FL_* values */
	return lbs_sim_fallocate(p, mode, pos, len);
}

static int s_clone(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	return lbs_sim_clone_range(p, src, dst, len);
}

static int s_dedupe(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	return lbs_sim_dedupe_range(p, src, dst, len);
}

static int64_t s_copy(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	return lbs_sim_copy_range(p, src, dst, len);
}

static void s_fsync(void *p, uint64_t opno)
{
	(void)opno;
	lbs_sim_fsync(p);
}

static void s_fsync_range(void *p, uint64_t start, uint64_t end)
{
	lbs_sim_fsync_range(p, start, end);
}

static void s_writeback(void *p, uint64_t pos)
{
	int64_t idx = lbs_sim_pick_dirty(p, pos);

	/* split at the dirty page picked: the rest of its block goes to a
	 * second ioend, in flight until the next op or lost by a crash */
	if (idx >= 0)
		lbs_sim_writeback_split(p, (uint64_t)idx *
					lbs_sim_page_size(p));
}

static void s_settle(void *p) { lbs_sim_settle(p); }

static void s_drop(void *p) { lbs_sim_drop_caches(p); }
static void s_crash(void *p) { lbs_sim_crash(p); }

static void s_describe(void *p, uint64_t off, char *buf, size_t n)
{
	lbs_sim_describe(p, off, buf, n);
}

static bool s_stale(void *p, uint64_t off, uint8_t v)
{
	return lbs_sim_is_stale_byte(p, off, v);
}

/*
 * At bs > ps a page is dirtied only over a reservation or an allocation
 * (the write and fault paths reserve the whole block first), so
 * writeback finding one over a hole means a delalloc punch took the
 * reservation from under it (fault knob punch-outward, 6.1's rounding):
 * 6.1's iomap_writepage_map() skips the page and its bytes never reach
 * the disk.  The pages the simulator's sequential ops can leave there
 * hold zero-around's zeroes, so the file reads the same and the oracle
 * cannot see it: the campaign fails on the invariant instead.
 */
static bool s_model_broken(void *p, char *buf, size_t n)
{
	const struct lbs_sim_counters *k = lbs_sim_counters(p);
	char desc[192];

	if (k->wb_shared_inplace) {
		lbs_sim_describe(p, k->wb_shared_first, desc, sizeof(desc));
		snprintf(buf, n, "writeback wrote %" PRIu64 " shared blocks in "
			 "place from 0x%" PRIx64 " (their other owners' "
			 "data): a folio's clean block written back with its "
			 "dirty one\n  state: %s", k->wb_shared_inplace,
			 k->wb_shared_first, desc);
		return true;
	}
	if (!k->wb_hole_bytes)
		return lbs_sim_folio_check(p, buf, n);
	lbs_sim_describe(p, k->wb_hole_first, desc, sizeof(desc));
	snprintf(buf, n, "writeback skipped %" PRIu64 " dirty bytes over a "
		 "hole from 0x%" PRIx64 " (%" PRIu64 " not zero): a delalloc "
		 "reservation lost under dirty pages\n  state: %s",
		 k->wb_hole_bytes, k->wb_hole_first, k->wb_hole_data, desc);
	return true;
}

static void s_counters(void *p, struct lbs_fsx_result *r)
{
	const struct lbs_sim_counters *k = lbs_sim_counters(p);

	r->za_zeroed = k->za_zeroed;
	r->dio_zero_bios = k->dio_zero_bios;
	r->dio_zero_segs = k->dio_zero_segs;
	r->wb_folios = k->wb_folios;
	r->wb_calls = k->wb_calls;
	r->wb_max_folios = k->wb_max_folios;
	r->crashes = k->crashes;
	r->za_need = k->za_need;
	r->ra_large_folios = k->ra_large_folios;
	r->folio_splits = k->folio_splits;
	r->large_folios = k->lf.checks != 0;
	memcpy(r->lf_made, k->lf.made, sizeof(r->lf_made));
	r->lf_fallbacks = k->lf.fallbacks;
	r->lf_alloc_failed = k->lf.alloc_failed;
	r->lf_retries = k->lf.retries;
	memcpy(r->mm_applied, k->lf.mm_applied, sizeof(r->mm_applied));
	memcpy(r->mm_refused, k->lf.mm_refused, sizeof(r->mm_refused));
}

static void sim_backend(struct lbs_sim *sim, const struct lbs_fsx_opts *o,
			struct fsx_backend *b)
{
	*b = (struct fsx_backend){
		.p = sim, .name = "lbs-sim",
		.stat_bs = lbs_sim_stat_blksize(sim),
		.page_size = lbs_sim_page_size(sim),
		.shift_align = o->block_size,
		.remap_align = lbs_sim_block_size(sim),
		.dio_align = 512, .dio_strict = true,
		/* XFS 6.1 reads unaligned holes, unwritten extents, EOF */
		.dio_read_lax = true, .can_crash = true,
		.size = s_size, .read = s_read, .map_read = s_read,
		.dio_read = s_dio_read, .write = s_write,
		.dio_write = s_dio_write, .mmap_write = s_mmap_write,
		.truncate = s_truncate, .fallocate = s_fallocate,
		.clone_range = s_clone, .dedupe_range = s_dedupe,
		.copy_range = s_copy, .fsync = s_fsync,
		.fsync_range = s_fsync_range,
		.writeback = s_writeback, .settle = s_settle,
		.drop_caches = s_drop,
		.crash = s_crash, .describe = s_describe,
		.is_stale_byte = s_stale, .counters = s_counters,
		.model_broken = s_model_broken,
	};
	if (o->perturb_dio_align)
		b->dio_write = s_dio_write_lax;
}

int lbs_fsx_sim_run(struct lbs_sim *sim, const struct lbs_fsx_opts *o,
		    const char *replay, const char *final_out,
		    struct lbs_fsx_result *r)
{
	struct fsx_backend b;

	sim_backend(sim, o, &b);
	return replay ? lbs_fsx_replay_on(o, &b, replay, final_out, r) :
			lbs_fsx_run_on(o, &b, r);
}

void lbs_fsx_sim_config(const struct lbs_fsx_opts *o,
			struct lbs_sim_config *cfg,
			struct lbs_sim_lf_config *lf)
{
	*cfg = (struct lbs_sim_config){
		.block_size = o->block_size, .page_size = o->page_size,
		.max_file_size = lbs_fsx_max_size(o), .inject = o->inject,
		.max_folio_order = o->large_folios ? 0 : o->folio_order,
	};
	*lf = (struct lbs_sim_lf_config){
		.large_folios = o->large_folios,
		.max_order = o->large_folios ? o->folio_order : 0,
		.alloc_fail_pct = o->alloc_fail_pct,
		.mm_event_pct = o->mm_event_pct, .seed = o->seed,
		.write_pages = o->write_pages,
	};
}

static int with_sim(const struct lbs_fsx_opts *o, const char *replay,
		    const char *final_out, struct lbs_fsx_result *r)
{
	struct lbs_sim_config cfg;
	struct lbs_sim_lf_config lf;
	char err[256];
	struct lbs_sim *sim;
	int rc;

	lbs_fsx_sim_config(o, &cfg, &lf);
	sim = lbs_sim_create_lf(&cfg, &lf, err, sizeof(err));
	memset(r, 0, sizeof(*r));
	if (!sim) {
		fprintf(stderr, "lbs-sim: %s\n", err);
		return 2;
	}
	rc = lbs_fsx_sim_run(sim, o, replay, final_out, r);
	lbs_sim_destroy(sim);
	return rc;
}

int lbs_fsx_run(const struct lbs_fsx_opts *o, struct lbs_fsx_result *r)
{
	return with_sim(o, NULL, NULL, r);
}

int lbs_fsx_replay(const struct lbs_fsx_opts *o, const char *path,
		   const char *final_out, struct lbs_fsx_result *r)
{
	return with_sim(o, path, final_out, r);
}
