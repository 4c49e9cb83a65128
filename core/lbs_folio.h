/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The folio orders of a mapping whose blocks may be larger than pages:
 * order 0, or at least a block and never order 1 (core/folio_order.c).
 * Orders are log2 of a folio's pages; indices are page cache indices.
 */
#ifndef LBS_FOLIO_H
#define LBS_FOLIO_H

#include <stdint.h>
#include <stdbool.h>

uint32_t lbs_folio_min_order(uint32_t blkbits, uint32_t pshift);
bool lbs_folio_order_ok(uint32_t blkbits, uint32_t pshift, uint32_t order);
uint32_t lbs_ra_start_order(uint32_t blkbits, uint32_t pshift,
			    uint32_t new_order, uint32_t ra_size,
			    uint32_t max_order);
uint32_t lbs_ra_folio_order(uint32_t blkbits, uint32_t pshift,
			    uint64_t index, uint64_t limit, uint32_t new_order);
void lbs_write_folio(uint32_t blkbits, uint32_t pshift, uint64_t pos,
		     uint64_t len, uint32_t max_order, uint64_t *index,
		     uint32_t *order);
bool lbs_folio_order_fallback(uint32_t blkbits, uint32_t pshift,
			      uint32_t order, uint32_t *next);

#endif /* LBS_FOLIO_H */
