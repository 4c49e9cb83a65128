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
 * Durability contract it checks (see lbs_sim.h):
 *  - fsync: everything durable; range fsync: the range's bytes durable;
 *  - size changes by truncate / fallocate are durable at once, and so are
 *    all bytes at and after the offset of a collapse or insert;
 *  - after a crash the size lies between the size at the last durable
 *    size change and the largest size since; every byte below it is its
 *    durable value or a value some change since has put there.
 * lbs_oracle_lazy_meta() weakens the first two for a log that was not
 * flushed.
 */
#ifndef LBS_ORACLE_H
#define LBS_ORACLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct lbs_oracle;

struct lbs_oracle_mismatch {
	uint64_t off;		/* first bad byte */
	uint64_t len;		/* bad bytes from @off (contiguous run) */
	uint8_t expected, actual;
	bool size_bad;
	uint64_t size_expected_lo, size_expected_hi, size_actual;
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
 * A truncate's size is durable at once, but not the zeroes it leaves in
 * the page cache: a later extension may show the bytes that were cut
 * off, as XFS does after a shutdown with the log flushed (the zeroed
 * tail of the EOF block is written back only up to the new size).
 * Implied by lbs_oracle_lazy_meta().  Call before the first op.
 */
void lbs_oracle_lazy_truncate(struct lbs_oracle *o);
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
