/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest suite's shared helpers (vlib.c): the in-memory model of a file,
 * checks of a file against it (buffered, O_DIRECT, after drop_caches), the
 * raw device view of a block, and the first-failure reason every test
 * reports.  Used by lbs-verify.c, reflink.c, writeback.c and crash.c.
 */
#ifndef LBS_GUEST_VLIB_H
#define LBS_GUEST_VLIB_H

#include <stdint.h>

#define PG 4096L

/* the device's fill before mkfs: a read of never-written disk shows it */
extern const char STALE[8];

/* the filesystem under test: mount point, device, block size */
extern const char *mnt, *dev;
extern long bs;

/* the first failure's reason; set by fail(), CHK() and SYS() */
extern char reason[512];
extern int failed;

void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* the test could not set its case up, for a reason that is not the
 * kernel's fault: reported as "skip REASON"; the test returns 1 */
extern char skip_reason[512];
int skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define CHK(cond, ...) do { if (!(cond)) { fail(__VA_ARGS__); return -1; } } while (0)
#define SYS(expr) do { if ((expr) < 0) { fail("%s:%d: %s: %s", __func__, __LINE__, #expr, strerror(errno)); return -1; } } while (0)

struct model {
	unsigned char *d;
	long size;	/* file size */
	long cap;
};

const char *fpath(const char *name);
void m_init(struct model *m, long cap);
unsigned char pat(long off, int seed);
void fillpat(unsigned char *b, long off, long len, int seed);
void m_write(struct model *m, long off, const unsigned char *b, long len);
void m_trunc(struct model *m, long size);
void m_zero(struct model *m, long off, long len);
int is_stale(const unsigned char *b, long off, long len);
int cmp_model(const struct model *m, const unsigned char *got, long off,
	      long len, const char *ctx);
int drop_caches(void);
int cache_pages(int fd, long len);
int block_in_pages(int fd, long off);
int both_regimes(int (*fn)(int pages));
void *abuf(long len);
int pwrite_all(int fd, const void *b, long len, long off);
int verify_buffered(const char *name, const struct model *m, const char *ctx);
int verify_dio(const char *name, const struct model *m, const char *ctx);
int verify_both(const char *name, const struct model *m, const char *ctx);
int remount(void);
int shutdown_remount(int fd);
int shutdown_remount_flush(int fd, int logflush);
int newfile(const char *name, int flags);
int mmap_write(int fd, struct model *m, long off, long len, int seed);
struct fiemap_extent;
int fiemap_block(int fd, long blk, unsigned int flags,
		 struct fiemap_extent *out);
/* block blk's extent flags, and its disk contents unless it is delalloc:
 * 1 mapped, 0 a hole, -1 error */
int block_on_disk(int fd, long blk, unsigned char *out, unsigned int *flags);
int raw_block(int fd, long blk, unsigned char *out);

/* the tests of reflink.c, in the order they run */
struct vtest {
	const char *name;
	int (*fn)(void);
};
extern const struct vtest reflink_tests[];
extern const unsigned int nr_reflink_tests;
/* and of writeback.c */
extern const struct vtest writeback_tests[];
extern const unsigned int nr_writeback_tests;
extern const struct vtest crash_tests[];
extern const unsigned int nr_crash_tests;

#endif /* LBS_GUEST_VLIB_H */
