// SPDX-License-Identifier: GPL-2.0
/*
 * Geometry and setup: configuration checks, instance lifetime, fault
 * knob names, accessors and st_blksize (core's lbs_stat_blksize()).
 */
#define _GNU_SOURCE
#include "sim_int.h"

int sim_ilog2u(uint32_t v)
{
	int n = -1;

	while (v) {
		v >>= 1;
		n++;
	}
	return n;
}

static const struct {
	const char *name;
	unsigned bit;
} inj_tab[] = {
	{ "no-zero-around", LBS_SIM_INJ_NO_ZERO_AROUND },
	{ "no-dio-zero", LBS_SIM_INJ_NO_DIO_ZERO },
	{ "no-wb-round", LBS_SIM_INJ_NO_WB_ROUND },
	{ "mark-partial-uptodate", LBS_SIM_INJ_MARK_PARTIAL_UPTODATE },
	{ "ra-whole-uptodate", LBS_SIM_INJ_RA_WHOLE_UPTODATE },
	{ "split-gap", LBS_SIM_INJ_SPLIT_GAP },
	{ "short-copy-no-fill", LBS_SIM_INJ_SHORT_COPY_NO_FILL },
	{ "short-copy-keep", LBS_SIM_INJ_SHORT_COPY_KEEP },
	{ "no-copy-around", LBS_SIM_INJ_NO_COPY_AROUND },
	{ "ioend-early", LBS_SIM_INJ_IOEND_EARLY },
	{ "punch-outward", LBS_SIM_INJ_PUNCH_OUTWARD },
	{ "decide-before-lock", LBS_SIM_INJ_DECIDE_BEFORE_LOCK },
	{ "no-recheck-after-relock", LBS_SIM_INJ_NO_RECHECK },
	{ "step-by-page", LBS_SIM_INJ_STEP_BY_PAGE },
	{ "sub-block-order", LBS_SIM_INJ_SUB_BLOCK_ORDER },
	{ "folio-dirty-whole", LBS_SIM_INJ_FOLIO_DIRTY_WHOLE },
};

unsigned lbs_sim_inject_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(inj_tab) / sizeof(inj_tab[0]); i++)
		if (!strcmp(name, inj_tab[i].name))
			return inj_tab[i].bit;
	return 0;
}

const char *lbs_sim_inject_names(void)
{
	return "no-zero-around, no-dio-zero, no-wb-round, "
	       "mark-partial-uptodate, ra-whole-uptodate, split-gap, "
	       "short-copy-no-fill, short-copy-keep, no-copy-around, "
	       "ioend-early, punch-outward, decide-before-lock, "
	       "no-recheck-after-relock, step-by-page, sub-block-order, "
	       "folio-dirty-whole";
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/*
 * MAX_PAGECACHE_ORDER in 6.1.192 (include/linux/pagemap.h:336-346) with
 * THP: min(MAX_XAS_ORDER, HPAGE_PMD_ORDER), 11 and PAGE_SHIFT - 3.
 */
uint32_t sim_max_pagecache_order(uint32_t pshift)
{
	uint32_t pmd_order = pshift - 3;

	return pmd_order < 11 ? pmd_order : 11;
}

int lbs_sim_config_check(const struct lbs_sim_config *cfg, char *err,
			 size_t errlen)
{
	uint64_t ms = cfg->max_file_size ? cfg->max_file_size : 1u << 20;

	if (!pow2(cfg->block_size) || cfg->block_size < 512 ||
	    cfg->block_size > 65536) {
		snprintf(err, errlen,
			 "block size %u: must be a power of two from 512 to 65536",
			 cfg->block_size);
		return -1;
	}
	if (cfg->page_size != 4096 && cfg->page_size != 16384 &&
	    cfg->page_size != 65536) {
		snprintf(err, errlen,
			 "page size %u: must be 4096, 16384 or 65536",
			 cfg->page_size);
		return -1;
	}
	if (lbs_mount_blocksize((uint32_t)sim_ilog2u(cfg->block_size),
				(uint32_t)sim_ilog2u(cfg->page_size), true, 16) ==
	    LBS_BS_TOO_LARGE) {
		snprintf(err, errlen, "block size %u refused at mount",
			 cfg->block_size);
		return -1;
	}
	if (ms < cfg->block_size || ms < cfg->page_size ||
	    ms > ((uint64_t)1 << 32)) {
		snprintf(err, errlen,
			 "max file size %llu: must be at least one block and one page, at most 4 GiB",
			 (unsigned long long)ms);
		return -1;
	}
	if (cfg->max_folio_order &&
	    !lbs_large_folios_ok((uint32_t)sim_ilog2u(cfg->block_size),
				 (uint32_t)sim_ilog2u(cfg->page_size))) {
		snprintf(err, errlen,
			 "max folio order %u with block size %u > page size %u: "
			 "large folios are off when blocks are larger than pages "
			 "(design decision D1(a))", cfg->max_folio_order,
			 cfg->block_size, cfg->page_size);
		return -1;
	}
	if (cfg->max_folio_order >
	    sim_max_pagecache_order((uint32_t)sim_ilog2u(cfg->page_size))) {
		snprintf(err, errlen,
			 "max folio order %u: page size %u allows at most %u "
			 "(MAX_PAGECACHE_ORDER)", cfg->max_folio_order,
			 cfg->page_size,
			 sim_max_pagecache_order((uint32_t)sim_ilog2u(cfg->page_size)));
		return -1;
	}
	if (cfg->inject & ~LBS_SIM_INJ_ALL) {
		snprintf(err, errlen, "unknown inject bits 0x%x", cfg->inject);
		return -1;
	}
	return 0;
}

int lbs_sim_lf_config_check(const struct lbs_sim_config *cfg,
			    const struct lbs_sim_lf_config *lf, char *err,
			    size_t errlen)
{
	if (lbs_sim_config_check(cfg, err, errlen))
		return -1;
	return lf ? sim_lf_config_check(cfg, lf, sim_max_pagecache_order(
			(uint32_t)sim_ilog2u(cfg->page_size)), err, errlen) : 0;
}

struct lbs_sim *lbs_sim_create(const struct lbs_sim_config *cfg, char *err,
			       size_t errlen)
{
	return lbs_sim_create_lf(cfg, NULL, err, errlen);
}

struct lbs_sim *lbs_sim_create_lf(const struct lbs_sim_config *cfg,
				  const struct lbs_sim_lf_config *lf,
				  char *err, size_t errlen)
{
	struct lbs_sim *s;

	if (lbs_sim_lf_config_check(cfg, lf, err, errlen))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto oom;
	s->bs = cfg->block_size;
	s->ps = cfg->page_size;
	s->blkbits = (uint32_t)sim_ilog2u(s->bs);
	s->pshift = (uint32_t)sim_ilog2u(s->ps);
	s->max_order = cfg->max_folio_order;
	s->inject = cfg->inject;
	if (lf)
		sim_lf_setup(s, lf);
	s->max_size = cfg->max_file_size ? cfg->max_file_size : 1u << 20;
	/* every block a file of max_size can touch, plus the EOF page's */
	s->nblocks = bno_of(s, s->max_size) + bno_of(s, s->ps) + 2;
	s->ext = calloc(s->nblocks, sizeof(*s->ext));
	s->dev_nblocks = 2 * s->nblocks + 8;
	s->dev = malloc(bpos_of(s, s->dev_nblocks));
	s->free_stack = malloc(s->dev_nblocks * sizeof(uint32_t));
	s->refcnt = calloc(s->dev_nblocks, sizeof(uint32_t));
	if (!s->ext || !s->dev || !s->free_stack || !s->refcnt)
		goto oom;
	for (uint64_t b = 0; b < s->dev_nblocks; b++) {
		sim_dev_fill_stale(s, b);
		s->free_stack[s->nfree++] = (uint32_t)(s->dev_nblocks - 1 - b);
	}
	s->ht = cds_lfht_new(NR_BUCKETS, NR_BUCKETS, NR_BUCKETS, 0, NULL);
	if (!s->ht)
		goto oom;
	return s;
oom:
	snprintf(err, errlen, "out of memory");
	if (s) {
		free(s->ext);
		free(s->dev);
		free(s->free_stack);
		free(s->refcnt);
		free(s);
	}
	return NULL;
}

void lbs_sim_destroy(struct lbs_sim *s)
{
	if (!s)
		return;
	lbs_sim_crash(s);	/* removes every folio */
	sim_retire_flush(s);
	cds_lfht_destroy(s->ht, NULL);
	free(s->ext);
	free(s->dev);
	free(s->free_stack);
	free(s->refcnt);
	free(s);
}

uint64_t lbs_sim_size(const struct lbs_sim *s) { return s->isize; }

uint64_t lbs_sim_disk_size(const struct lbs_sim *s) { return s->disk_size; }

uint64_t lbs_sim_max_size(const struct lbs_sim *s) { return s->max_size; }

uint32_t lbs_sim_block_size(const struct lbs_sim *s) { return s->bs; }

uint32_t lbs_sim_page_size(const struct lbs_sim *s) { return s->ps; }

uint64_t lbs_sim_nr_folios(const struct lbs_sim *s) { return s->nr_folios; }

uint32_t lbs_sim_stat_blksize(const struct lbs_sim *s)
{
	return lbs_stat_blksize(s->blkbits, s->pshift, 0, false, 0, 0);
}

const struct lbs_sim_counters *lbs_sim_counters(const struct lbs_sim *s)
{
	return &s->c;
}
