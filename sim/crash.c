// SPDX-License-Identifier: GPL-2.0
/*
 * Power cut: the page cache, in-core delalloc reservations and the data
 * of an ioend still in flight are lost;
 * the extent map and i_disk_size that reached the log stay, and i_size
 * falls back to i_disk_size.  Log recovery frees every COW fork block
 * (xfs_reflink_recover_cow()): only remapped blocks survive.
 */
#define _GNU_SOURCE
#include "sim_int.h"

void lbs_sim_crash(struct lbs_sim *s)
{
	uint64_t mi = max_index(s);

	sim_ioend_drop(s);
	for (uint64_t idx = 0; idx <= mi; idx++) {
		struct folio *f = sim_folio_lookup(s, idx);

		if (!f)
			continue;
		idx = flast_of(f);
		sim_folio_remove(s, f);
	}
	sim_retire_flush(s);
	for (uint64_t b = 0; b < s->nblocks; b++)
		if (s->ext[b].state == EXT_DELALLOC)
			s->ext[b].state = EXT_HOLE;	/* in-core only */
	sim_cow_cancel(s, 0, s->nblocks);
	s->isize = s->disk_size;
	s->c.crashes++;
}
