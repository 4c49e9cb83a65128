// SPDX-License-Identifier: GPL-2.0
/*
 * mm events (large_folios, seeded by mm_seed): at the interleaving points
 * where a write, a fault or an ioend lets go of a folio, the folio there
 * may be split, evicted, migrated or invalidated, as memory pressure,
 * compaction or memory_failure() would do, with 6.1's refusal rules:
 *  - split (split_huge_page_to_list()): to order 0 only; refused under
 *    writeback, when dirty with per-block state, when locked or
 *    referenced (sim_folio_split_refused());
 *  - eviction (reclaim's __remove_mapping()): clean, unlocked,
 *    unreferenced, not under writeback;
 *  - migration (migrate_folio()): unlocked, unreferenced, not under
 *    writeback; keeps order and state in a new folio;
 *  - invalidation (memory_failure() -> truncate_error_folio(),
 *    invalidate_inode_page()): takes the folio lock itself, so refused
 *    when locked, dirty or under writeback, but a reference does not
 *    stop it: the holder must recheck folio->mapping after locking.
 */
#define _GNU_SOURCE
#include "sim_int.h"

const char *lbs_sim_mm_name(unsigned k)
{
	static const char *const names[LBS_SIM_NR_MM] = {
		"split", "evict", "migrate", "invalidate",
	};

	return k < LBS_SIM_NR_MM ? names[k] : NULL;
}

static bool mm_refused(const struct lbs_sim *s, const struct folio *f,
		       unsigned k)
{
	unsigned fl = fl_get(f);

	switch (k) {
	case LBS_SIM_MM_SPLIT:
		return sim_folio_split_refused(s, f);
	case LBS_SIM_MM_EVICT:
		return (fl & (F_DIRTY | F_WRITEBACK)) || f->locks || f->refs;
	case LBS_SIM_MM_MIGRATE:
		return (fl & F_WRITEBACK) || f->locks || f->refs;
	default:
		return (fl & (F_DIRTY | F_WRITEBACK)) || f->locks;
	}
}

/*
 * Maybe an event on the folio holding page @index.  @at names the point
 * (the callers say which of sim_mm_at's windows they are); the stream
 * draws the same way at each, so a seed replays.
 */
void sim_mm_point(struct lbs_sim *s, enum sim_mm_at at, uint64_t index)
{
	struct folio *f;
	unsigned k;

	(void)at;
	if (!s->mm_pct || sim_rand(s) % 100 >= s->mm_pct)
		return;
	k = (unsigned)(sim_rand(s) % LBS_SIM_NR_MM);
	f = sim_folio_lookup(s, index);
	if (!f || (k == LBS_SIM_MM_SPLIT && !f->order))
		return;		/* nothing there to act on */
	if (mm_refused(s, f, k)) {
		s->c.lf.mm_refused[k]++;
		return;
	}
	s->c.lf.mm_applied[k]++;
	switch (k) {
	case LBS_SIM_MM_SPLIT:
		sim_folio_split(s, f);
		break;
	case LBS_SIM_MM_MIGRATE:
		sim_folio_replace(s, f, sim_folio_copy(s, f));
		break;
	default:
		sim_folio_remove(s, f);
		break;
	}
}
