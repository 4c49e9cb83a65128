/* SPDX-License-Identifier: GPL-2.0 */
/* Random op campaigns and .fsxops replay on the simulator, with the oracle. */
#ifndef LBS_FSX_H
#define LBS_FSX_H

#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>

#include "oracle.h"

/* the op kinds of the campaign, for --ops-mix */
#define LBS_FSX_NOPS 22
const char *lbs_fsx_op_name(unsigned k);	/* NULL past the last */
/* "read=2,write=4": weights into @mix (unnamed ops 0); -1 and a message
 * in @err on an unknown name, a bad number or an all-zero mix */
int lbs_fsx_mix_parse(const char *s, unsigned mix[LBS_FSX_NOPS], char *err,
		      size_t errlen);

struct lbs_oracle_rec;

struct lbs_fsx_opts {
	uint32_t block_size, page_size;
	uint64_t ops, seed;
	uint64_t file_size;	/* max file length; 0: default */
	uint64_t op_size;	/* max op length; 0: default */
	unsigned inject;
	uint32_t folio_order;	/* simulator: max_folio_order (bs <= ps) */
	/* simulator: large folios at bs > ps, their allocation failure and
	 * mm event chances (percent); the mm seed is @seed's */
	bool large_folios, write_pages;
	uint32_t alloc_fail_pct, mm_event_pct;
	bool no_crash;		/* leave crash out of the mix */
	/* named exceptions a crash check may use (LBS_CRASH_F(), oracle.h;
	 * lbs_oracle_allow()) */
	unsigned crash_allow;
	FILE *record;		/* .fsxops output, or NULL */
	FILE *log;		/* mismatch reports, or NULL (stderr) */
	bool progress;
	bool quiet;
	unsigned unsupported;	/* LBS_FSX_F_* the filesystem lacks: skipped */
	/* test only (negative control of the replay cross-check): replay
	 * the Nth write one byte short, oracle included; 0: off */
	uint64_t perturb_write;
	/* test only (negative control of the fsx byte agreement): odd
	 * bytes without fsx's original_buf term */
	bool perturb_gendata;
	/* test only (negative control of the EINVAL check): the simulator
	 * takes an unaligned O_DIRECT write as a buffered one */
	bool perturb_dio_align;

	/* fsx -Z: reads and writes through O_DIRECT (mapped ones too with
	 * no_mapread / no_mapwrite, fsx -R / -W, which turn them into
	 * reads / writes) */
	bool direct, no_mapread, no_mapwrite;
	/* fsx -r / -w / -t: offsets (and O_DIRECT lengths) rounded down to
	 * these; 0 or 1: none */
	uint32_t read_bdy, write_bdy, trunc_bdy;
	/* --ops-mix: weights per op (lbs_fsx_op_name() order); all zero:
	 * the default mix */
	unsigned mix[LBS_FSX_NOPS];
	/* whole-file check every this many ops (fsx -X: 1); 0: only at
	 * fsx's points: the end, drop caches (fsx's close/open) and crash */
	uint64_t check_every;
	/* called once after the last op, before the final whole-file check
	 * (whose read caches every page): lbs-sim map draws there */
	void (*before_final_check)(void *arg);
	void *hook_arg;
	/* every oracle change and op intent, as it happens (lbs-fsx
	 * --journal; see lbs_oracle_set_journal()) */
	void (*journal)(void *arg, const struct lbs_oracle_rec *r);
	void *journal_arg;
	/* called after each op of a campaign that ran clean, with its
	 * number (lbs-fsx: the --cut-after marker) */
	void (*after_op)(void *arg, uint64_t opno);
	void *after_op_arg;
};

/* features a filesystem may lack; their ops are skipped and counted */
enum {
	LBS_FSX_DIO, LBS_FSX_FALLOCATE, LBS_FSX_PUNCH, LBS_FSX_ZERO,
	LBS_FSX_COLLAPSE, LBS_FSX_INSERT, LBS_FSX_CLONE, LBS_FSX_DEDUPE,
	LBS_FSX_COPY, LBS_FSX_UNSHARE, LBS_FSX_NFEAT
};
#define LBS_FSX_F(x)	(1u << (x))

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
	uint64_t za_zeroed, dio_zero_bios, dio_zero_segs;
	uint64_t wb_folios, wb_calls, wb_max_folios, crashes;
	uint64_t za_need, ra_large_folios, folio_splits;	/* simulator */
	/* simulator, large folios: folios made per order, fallbacks, mm
	 * events applied and refused (split, evict, migrate, invalidate) */
	bool large_folios;
	uint64_t lf_made[12], lf_fallbacks, lf_alloc_failed, lf_retries;
	uint64_t mm_applied[4], mm_refused[4];
	uint64_t unsupported[LBS_FSX_NFEAT];	/* ops skipped, per feature */
	unsigned unsupported_mask;	/* given or detected */
	uint64_t crash_skipped;		/* crash ops a real file cannot do */
	/* per named exception (enum lbs_crash_rule): the crashes and bytes
	 * it explained, and whether it was allowed */
	struct lbs_crash_rule_count crash_rules[LBS_CRASH_NR_RULES];
	unsigned crash_allow;
	uint64_t dio_unaligned_ok;	/* unaligned O_DIRECT the fs accepted */
	uint64_t final_sum;		/* FNV-1a 64 of the final file bytes */
	bool final_sum_valid;
};

/* "dio,zero_range,...": the mask, or 0 and a message on a bad name */
int lbs_fsx_features_parse(const char *list, unsigned *mask);
const char *lbs_fsx_feature_names(void);
/* ", unsupported skipped: ..." when any (same text in both tools) */
void lbs_fsx_print_unsupported(FILE *f, const struct lbs_fsx_result *r);
void lbs_fsx_print_final_sum(FILE *f, const struct lbs_fsx_result *r);
/* the unsupported list, a newline and (@final_sum) the final sum */
void lbs_fsx_print_tail(FILE *f, const struct lbs_fsx_result *r,
			bool final_sum);
/* "crash rules (crashes/bytes): truncate-tail 0/0 denied, ..." and a
 * newline, when the run crashed */
void lbs_fsx_print_crash_rules(FILE *f, const struct lbs_fsx_result *r);
/* a replay's summary line (@what: "replay F.fsxops"), then the tail */
void lbs_fsx_print_replay(FILE *f, const char *what,
			  const struct lbs_fsx_result *r, int rc,
			  bool final_sum);

/* 0 clean, 1 mismatch, 2 usage (message printed) */
int lbs_fsx_run(const struct lbs_fsx_opts *o, struct lbs_fsx_result *r);
/* replay a .fsxops file; same exit codes; final bytes to @final_out if
 * non-NULL (file of the final contents) */
int lbs_fsx_replay(const struct lbs_fsx_opts *o, const char *path,
		   const char *final_out, struct lbs_fsx_result *r);
/* either of them (@replay NULL: a campaign) on a simulator instance the
 * caller made for these options and keeps (lbs-sim map draws it) */
struct lbs_sim;
int lbs_fsx_sim_run(struct lbs_sim *sim, const struct lbs_fsx_opts *o,
		    const char *replay, const char *final_out,
		    struct lbs_fsx_result *r);
/* the simulator configuration these options ask for */
struct lbs_sim_config;
struct lbs_sim_lf_config;
void lbs_fsx_sim_config(const struct lbs_fsx_opts *o,
			struct lbs_sim_config *cfg,
			struct lbs_sim_lf_config *lf);

#endif
