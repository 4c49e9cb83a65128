/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference model of one file's bytes.  Deliberately simple and
 * independent of core/ and of the simulator: a byte array for the current
 * contents, a byte array for the last durable contents, and the list of
 * changes made since, which bounds what a crash may leave behind.
 *
 * Costs are kept to what each call touches (reads compare only the bytes
 * read; durable-copy updates stop at the highest durable byte), so that
 * the campaign's time is the execution's, not the oracle's.
 *
 * What a crash may leave (lbs_oracle_crash()), exactly:
 *
 *  1. Durable points.  fsync makes the size and every byte durable.  A
 *     range fsync makes the range's bytes durable.  A truncate or
 *     fallocate size change is durable at once, and so is every byte at
 *     and after the offset of a collapse or insert (each is a logged
 *     transaction; XFS forces the log for them or the shutdown flushes
 *     it).
 *  2. The size after a crash lies between the size at the last durable
 *     size change and the largest size since (XFS logs i_disk_size at
 *     I/O completion, so any size the writes since reached may be the
 *     one on disk).
 *  3. Every byte below that size is its durable value or a value some
 *     change since (a write, zeroing, a copy, an extension's zeroes) put
 *     there.
 *  4. Every byte at and past that size is gone: the file continues as if
 *     it had been truncated there.  A later extension over those bytes
 *     must read zeroes, and after a later crash each of them must be zero
 *     or a value written after the first crash, never one the file held
 *     before it.
 *
 * lbs_oracle_lazy_meta() is the crash of a log that was not flushed
 * (XFS_FSOP_GOING_FLAGS_NOLOGFLUSH, a power cut): the log on disk holds
 * some prefix of the committed transactions, so points 1 and 2 weaken to
 * "since the last fsync" (a truncate, fallocate or range fsync may be
 * lost).  This is a bound, not the set of prefix states: the oracle does
 * not order the changes since the last fsync, it accepts any size in the
 * range and, per byte, any of the values above.
 *
 * Point 4 has named exceptions: behaviours of upstream XFS that a later
 * crash can show.  Each is off unless lbs_oracle_allow() names it; a
 * byte that only a denied rule explains is a mismatch naming the rule
 * (lbs_oracle_mismatch.rule), and every use of an allowed rule is
 * counted (lbs_oracle_rule_counts()).  They are tracked for a real
 * XFS (lbs_oracle_track_tails(), lbs_oracle_lazy_meta()) and wherever a
 * rule is allowed.
 *
 *  truncate-tail  a truncate down leaves the cut-off bytes of its new EOF
 *                 block, [size, roundup(size, block)), on disk (with
 *                 lbs_oracle_tail_block(); lazy_meta: any size change
 *                 down, and every cut-off byte, since the unflushed log
 *                 may keep the size and lose the later rolls of
 *                 xfs_itruncate_extents(), leaving blocks past the EOF
 *                 block mapped): 6.1's
 *                 xfs_setattr_size() zeroes them in the page cache and
 *                 writes back only [i_disk_size, newsize), an empty range
 *                 for a truncate down, so a later extension's writeback
 *                 can move the on-disk size past them before the zeroed
 *                 EOF page is written (the series writes it, patch 16).
 *  crash-tail     a crash that rolls the size back leaves what was written
 *                 past the recovered size on disk (data written back whose
 *                 size update was not logged): 6.1's xfs_file_write_checks()
 *                 zeroes [i_size, pos) in the page cache only, so a later
 *                 extension's writeback can move the on-disk size past the
 *                 old bytes before their zeroes reach the disk (the series
 *                 writes them first, patch 16).
 *  remap-tail     the same for bytes a clone or copy_file_range put past
 *                 the recovered size: xfs_reflink_remap_extent() moves
 *                 i_disk_size only when the remap extends i_size, so a
 *                 clone into [i_disk_size, i_size) is durable while the
 *                 size is not; after a crash the shared block stays
 *                 mapped past EOF, and a later write over it that is not
 *                 written back before a later block moves the on-disk size
 *                 leaves the clone source's bytes there (upstream XFS, 6.1
 *                 and 6.12; tests/guest reflink-shutdown-eof).
 */
#ifndef LBS_ORACLE_H
#define LBS_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct lbs_oracle;

/* the named exceptions to point 4 above */
enum lbs_crash_rule {
	LBS_CRASH_TRUNCATE_TAIL,
	LBS_CRASH_CRASH_TAIL,
	LBS_CRASH_REMAP_TAIL,
	LBS_CRASH_NR_RULES
};
#define LBS_CRASH_F(r)	(1u << (r))

struct lbs_crash_rule_count {
	uint64_t crashes;	/* crash checks that needed the rule */
	uint64_t bytes;		/* bytes it explained, over all of them */
};

/* "truncate-tail" ...; NULL past the last */
const char *lbs_crash_rule_name(unsigned rule);
/* the names in @rules (LBS_CRASH_F() mask), ", " between, into @buf */
void lbs_crash_rules_format(unsigned rules, char *buf, size_t n);
/* "truncate-tail, crash-tail, remap-tail" */
const char *lbs_crash_rule_names(void);
/* "truncate-tail,crash-tail" or "none": the mask; -1 on a bad name */
int lbs_crash_rules_parse(const char *list, unsigned *mask);

struct lbs_oracle_mismatch {
	uint64_t off;		/* first bad byte */
	uint64_t len;		/* bad bytes from @off (contiguous run) */
	uint8_t expected, actual;
	bool size_bad;
	uint64_t size_expected_lo, size_expected_hi, size_actual;
	/* after a crash: the denied rules (LBS_CRASH_F() mask) that would
	 * explain the bytes; 0: none would, or not a crash check */
	unsigned denied_rules;
};

/*
 * The data are fstests fsx's (gendata()): test call @tc writes byte
 * tc % 256 at even offsets and tc % 256 + original_buf[off] at odd ones,
 * original_buf being fsx's random() % 256 per byte after srandom(@seed).
 */
struct lbs_oracle *lbs_oracle_new(uint64_t max_size, uint32_t seed);
/* no crash will be checked: keep no durable copy and no change list
 * (lbs_oracle_crash() may not be called then) */
void lbs_oracle_no_crash(struct lbs_oracle *o);
/*
 * Metadata is durable only at fsync (a filesystem shut down without
 * flushing its log, XFS_FSOP_GOING_FLAGS_NOLOGFLUSH): a truncate or
 * fallocate may be lost at a crash, and a range fsync makes nothing
 * durable.  Collapse and insert cannot be checked (they abort): once a
 * shift is lost, data written after it sits at the offset the shift had
 * moved its block from, which no byte-wise rule bounds.  Call before the
 * first op.
 */
void lbs_oracle_lazy_meta(struct lbs_oracle *o);
/*
 * Keep, for the named rules, the values that may remain on disk past
 * EOF, so that a mismatch names the rule that would explain it (a real
 * XFS: lbs-fsx --crash-shutdown).  Implied by lbs_oracle_lazy_meta() and
 * by allowing a rule.  Call before the first op.
 */
void lbs_oracle_track_tails(struct lbs_oracle *o);
/*
 * The filesystem block size, for truncate-tail: a truncate whose log is
 * kept leaves no more than its EOF block's cut-off bytes.  Without it
 * (0) every cut-off byte.  Call before the first op.
 */
void lbs_oracle_tail_block(struct lbs_oracle *o, uint32_t block_size);
/* the named rules a crash check may use (LBS_CRASH_F() mask; default
 * none).  Call before the first op. */
void lbs_oracle_allow(struct lbs_oracle *o, unsigned rules);
/* per rule (enum lbs_crash_rule), the crashes and bytes it explained */
const struct lbs_crash_rule_count *
lbs_oracle_rule_counts(const struct lbs_oracle *o);
/* test only: odd bytes without the original_buf term (a wrong rule) */
void lbs_oracle_perturb_gendata(struct lbs_oracle *o);
/* the bytes test call @tc writes at [pos, pos+len), into @out */
void lbs_oracle_gen(const struct lbs_oracle *o, uint64_t tc, uint64_t pos,
		    uint64_t len, uint8_t *out);
void lbs_oracle_free(struct lbs_oracle *o);
uint64_t lbs_oracle_size(const struct lbs_oracle *o);
const uint8_t *lbs_oracle_bytes(const struct lbs_oracle *o);

/* data written by test call @tc (lbs_oracle_gen), extending with zeroes */
void lbs_oracle_write(struct lbs_oracle *o, uint64_t pos, uint64_t len,
		      uint64_t tc);
/* the same, with @data the bytes lbs_oracle_gen() made for it (copied:
 * the campaign generates them once for the write and the oracle) */
void lbs_oracle_write_copy(struct lbs_oracle *o, uint64_t pos, uint64_t len,
			   uint64_t tc, const uint8_t *data);
void lbs_oracle_zero(struct lbs_oracle *o, uint64_t pos, uint64_t len);
/* clone or copy within the file: [src, src+len) to @dst as memmove(),
 * zeroes from EOF to a @dst past it; a crash may leave the destination's
 * old or new bytes (and a size up to the new one) */
void lbs_oracle_copy(struct lbs_oracle *o, uint64_t src, uint64_t dst,
		     uint64_t len);
void lbs_oracle_set_size(struct lbs_oracle *o, uint64_t size);
void lbs_oracle_collapse(struct lbs_oracle *o, uint64_t pos, uint64_t len);
void lbs_oracle_insert(struct lbs_oracle *o, uint64_t pos, uint64_t len);
void lbs_oracle_fsync(struct lbs_oracle *o);
void lbs_oracle_fsync_range(struct lbs_oracle *o, uint64_t start,
			    uint64_t end);

/*
 * A journal of every change, for a run the machine may lose power in
 * (lbs-fsx --journal): each mutator above reports itself to @fn first,
 * and the campaign reports the intent of each op before running it.
 * lbs_oracle_apply() replays the records into an oracle (made with the
 * same max size and seed, lazy metadata); an intent is applied as the
 * most its op could have done, which bounds the op a power cut stopped.
 */
enum lbs_oracle_rec_type {
	LBS_OREC_WRITE = 1,	/* a=pos b=len c=tc */
	LBS_OREC_ZERO,		/* a=pos b=len */
	LBS_OREC_COPY,		/* a=src b=dst c=len */
	LBS_OREC_SIZE,		/* a=size */
	LBS_OREC_COLLAPSE,	/* a=pos b=len */
	LBS_OREC_INSERT,	/* a=pos b=len */
	LBS_OREC_FSYNC,
	LBS_OREC_FSYNC_RANGE,	/* a=start b=end */
	LBS_OREC_INTENT_WRITE,	/* a=pos b=len c=tc (extends the file) */
	LBS_OREC_INTENT_ZERO,	/* a=pos b=len c=1: extends the file */
	LBS_OREC_INTENT_COPY,	/* a=src b=dst c=len */
	LBS_OREC_INTENT_SIZE,	/* a=size */
	LBS_OREC_NR
};

struct lbs_oracle_rec {
	uint32_t type;
	uint64_t a, b, c;
};

void lbs_oracle_set_journal(struct lbs_oracle *o,
			    void (*fn)(void *arg,
				       const struct lbs_oracle_rec *r),
			    void *arg);
/* report an intent record (LBS_OREC_INTENT_*) to the journal */
void lbs_oracle_intent(struct lbs_oracle *o, uint32_t type, uint64_t a,
		       uint64_t b, uint64_t c);
/* replay one record; false if it is not a record this oracle can take */
bool lbs_oracle_apply(struct lbs_oracle *o, const struct lbs_oracle_rec *r);

/* compare a read of [pos, pos+len) that returned @n bytes: true if good */
bool lbs_oracle_check_read(const struct lbs_oracle *o, uint64_t pos,
			   uint64_t len, const uint8_t *buf, int64_t n,
			   struct lbs_oracle_mismatch *mm);
/* after a crash: check the file (@size bytes in @buf) and adopt it */
bool lbs_oracle_crash(struct lbs_oracle *o, uint64_t size,
		      const uint8_t *buf, struct lbs_oracle_mismatch *mm);

#endif
