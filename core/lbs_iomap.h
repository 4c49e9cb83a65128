/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block size > page size arithmetic for the page cache and iomap.
 *
 * Every function here is a pure function of block, page or folio geometry
 * and file offsets.  Sizes are passed as shifts (i_blkbits, PAGE_SHIFT,
 * folio_shift()), so every size is a power of two and no division is
 * needed.  Byte ranges use inclusive ends only where the kernel interface
 * they feed does (writeback_control, filemap_write_and_wait_range()).
 */
#ifndef LBS_IOMAP_H
#define LBS_IOMAP_H

#include <stdint.h>
#include <stdbool.h>
#include "lbs_pageblock.h"

/**
 * enum lbs_map_type - what the filesystem mapped under a write
 * @LBS_MAP_HOLE: no blocks (IOMAP_HOLE)
 * @LBS_MAP_DELALLOC: reserved, not yet allocated (IOMAP_DELALLOC)
 * @LBS_MAP_MAPPED: allocated and written (IOMAP_MAPPED)
 * @LBS_MAP_UNWRITTEN: allocated, reads as zeroes (IOMAP_UNWRITTEN)
 */
enum lbs_map_type {
	LBS_MAP_HOLE,
	LBS_MAP_DELALLOC,
	LBS_MAP_MAPPED,
	LBS_MAP_UNWRITTEN,
};

/**
 * struct lbs_zero_around - page cache ranges to zero around a sub-block write
 * @head_pos: start of the leading range, the start of the first block
 * @head_len: bytes from @head_pos up to the write
 * @tail_pos: start of the trailing range, the end of the write
 * @tail_len: bytes from @tail_pos to the end of the last block, cut at the
 *	end of the page that holds the (new) EOF
 * @post_eof_pos: start of the part of the last block past that EOF page
 * @post_eof_len: its length; these pages are not instantiated
 *
 * The bytes described by @post_eof_pos/@post_eof_len lie wholly past EOF.
 * Writeback skips such pages and truncate drops them, so zeroing them in
 * the page cache would be lost work.  They stay as they are on disk and
 * never become visible: reads zero pages wholly past EOF, writeback zeroes
 * the EOF page past EOF, and extending the file zeroes from the old EOF
 * through the page cache.
 */
struct lbs_zero_around {
	uint64_t head_pos;
	uint64_t head_len;
	uint64_t tail_pos;
	uint64_t tail_len;
	uint64_t post_eof_pos;
	uint64_t post_eof_len;
};

/**
 * struct lbs_dio_pads - zeroing around a sub-block direct write
 * @head_pos: start of the block the write starts in
 * @head_len: bytes to zero from @head_pos up to the write (0: none)
 * @tail_pos: end of the write
 * @tail_len: bytes to zero from @tail_pos to the end of its block (0: none)
 */
struct lbs_dio_pads {
	uint64_t head_pos;
	uint32_t head_len;
	uint64_t tail_pos;
	uint32_t tail_len;
};

/**
 * struct lbs_wb_range - a writeback_control range rounded to whole blocks
 * @start: range_start, rounded down
 * @end: range_end (inclusive; INT64_MAX means to EOF), rounded up
 * @nr_to_write: nr_to_write (pages), rounded up to whole blocks
 * @nr_added: pages added to nr_to_write; subtract them from the
 *	remaining count after ->writepages so callers see true progress
 */
struct lbs_wb_range {
	uint64_t start;
	uint64_t end;
	int64_t nr_to_write;
	int64_t nr_added;
};

uint64_t lbs_block_start(uint32_t blkbits, uint64_t pos);
uint64_t lbs_block_end(uint32_t blkbits, uint64_t pos);
bool lbs_folio_covers_block(uint32_t blkbits, uint32_t pshift,
			    uint64_t index, uint32_t order, uint64_t pos);
uint32_t lbs_block_offset(uint32_t blkbits, uint64_t pos);
uint64_t lbs_block_round_up(uint32_t blkbits, uint64_t end);
uint32_t lbs_pages_per_block(uint32_t blkbits, uint32_t pshift);

/*
 * lbs_pageblock_*(), lbs_units_per_folio() and lbs_adjust_read_range() are
 * inline (lbs_pageblock.h): they are on every page's path.
 */
uint32_t lbs_truncate_page_len(uint32_t blkbits, uint32_t pshift,
			       uint64_t pos);
bool lbs_zero_may_mark_uptodate(uint32_t poff, uint32_t plen,
				uint32_t from, uint32_t to);

/*
 * lbs_need_zero_around() and lbs_need_copy_around() are inline: the
 * filesystem asks them for every write mapping at every block size, and
 * inline the answer at bs <= ps folds to a compare before the mapping
 * type is even worked out.
 */
/**
 * lbs_need_zero_around() - does a write into this mapping need zero-around
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page (folio) size
 * @type: the mapping under the write
 * @is_new: the filesystem allocated or reserved the mapping for this write
 *
 * Delalloc ranges need it even when they were not reserved by this write:
 * speculative preallocation past EOF reserves blocks that no write has
 * touched yet, and a later write into them gets an existing delalloc
 * mapping.  Zero-around skips uptodate pages, so asking for it again on a
 * block that was already zeroed costs a lookup and no I/O.
 *
 * Return: true if the block is larger than a page and its contents outside
 * the write are not yet initialised on disk.
 */
static inline bool lbs_need_zero_around(uint32_t blkbits, uint32_t pshift,
					enum lbs_map_type type, bool is_new)
{
	if (blkbits <= pshift)
		return false;
	return is_new || type == LBS_MAP_DELALLOC || type == LBS_MAP_UNWRITTEN;
}

bool lbs_zero_around(uint32_t blkbits, uint32_t pshift, uint64_t pos,
		     uint64_t len, uint64_t isize,
		     struct lbs_zero_around *za);
bool lbs_post_eof_range(uint32_t blkbits, uint32_t pshift, uint64_t eof,
			uint64_t *pos, uint64_t *len);
bool lbs_short_copy_range(uint32_t blkbits, uint32_t pshift, uint64_t pos,
			  uint64_t data_end, uint64_t isize,
			  uint64_t *fill_pos, uint64_t *fill_len);

/**
 * lbs_need_copy_around() - does a write into this mapping need copy-around
 * @blkbits: log2 of the filesystem block size
 * @pshift: log2 of the page (folio) size
 * @cow: the write goes to a COW fork block that will replace the data fork
 *	block as a whole (IOMAP_F_SHARED), shared or not: blocks inside the
 *	COW extent size hint window are copied on write too
 *
 * Return: true if the block is larger than a page and is written out of
 * place, so every byte of it must be in the page cache before writeback.
 */
static inline bool lbs_need_copy_around(uint32_t blkbits, uint32_t pshift,
					bool cow)
{
	return blkbits > pshift && cow;
}

bool lbs_fill_from_source(enum lbs_map_type src, bool src_new, uint64_t pos,
			  uint64_t isize);
bool lbs_unshare_range(uint32_t blkbits, uint32_t pshift, uint64_t pos,
		       uint64_t len, uint64_t isize, uint64_t *start,
		       uint64_t *end);

void lbs_dio_zero_pads(uint32_t blkbits, uint64_t pos, uint64_t len,
		       uint64_t isize, bool need_zeroout,
		       struct lbs_dio_pads *pads);
uint32_t lbs_dio_zero_nr_segs(uint32_t pshift, uint32_t len);
uint32_t lbs_dio_zero_seg_len(uint32_t pshift, uint32_t len, uint32_t idx);

bool lbs_round_range(uint32_t blkbits, uint32_t pshift, uint64_t start,
		     uint64_t end, uint64_t *ostart, uint64_t *oend);
bool lbs_flush_unmap_range(uint32_t blkbits, uint32_t pshift, uint64_t pos,
			   uint64_t len, uint64_t *start, uint64_t *end);
void lbs_wb_round(uint32_t blkbits, uint32_t pshift, uint64_t start,
		  uint64_t end, int64_t nr_to_write, int64_t nr_max,
		  struct lbs_wb_range *out);
uint64_t lbs_wb_round_index(uint32_t blkbits, uint32_t pshift,
			    uint64_t index);
bool lbs_wb_may_stop(uint32_t blkbits, uint32_t pshift, uint64_t index);
bool lbs_falloc_aligned(uint32_t blkbits, uint64_t pos, uint64_t len);

/* edges of a range for lbs_settle_edges() and lbs_settle_range() */
#define LBS_SETTLE_HEAD	1U	/* the first block has pages before it */
#define LBS_SETTLE_TAIL	2U	/* the last block has pages after it */

uint32_t lbs_settle_edges(uint32_t blkbits, uint32_t pshift, uint64_t pos,
			  uint64_t end, uint64_t *head, uint64_t *tail);
bool lbs_settle_range(uint32_t blkbits, uint32_t pshift, uint64_t pos,
		      uint64_t end, uint32_t busy, uint64_t *start,
		      uint64_t *stop);

#endif /* LBS_IOMAP_H */
