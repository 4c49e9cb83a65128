// SPDX-License-Identifier: GPL-2.0
/*
 * Shared helpers of the guest suite; see vlib.h.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <unistd.h>

#include "vlib.h"
const char STALE[8] = "STALEDA\n";

const char *mnt, *dev;
long bs;
char reason[512];
int failed;
char skip_reason[512];

void fail(const char *fmt, ...)
{
	va_list ap;

	if (failed++)
		return; /* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
}

int skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(skip_reason, sizeof(skip_reason), fmt, ap);
	va_end(ap);
	return 1;
}

static char path_buf[4096];
const char *fpath(const char *name)
{
	snprintf(path_buf, sizeof(path_buf), "%s/%s", mnt, name);
	return path_buf;
}

/* ---- model ---------------------------------------------------------------*/

void m_init(struct model *m, long cap)
{
	m->d = calloc(1, cap);
	m->size = 0;
	m->cap = cap;
	if (!m->d) { perror("calloc"); exit(2); }
}

unsigned char pat(long off, int seed)
{
	return (unsigned char)((off * 7 + seed * 13) % 251 + 1); /* never 0 */
}

void fillpat(unsigned char *b, long off, long len, int seed)
{
	for (long i = 0; i < len; i++)
		b[i] = pat(off + i, seed);
}

void m_write(struct model *m, long off, const unsigned char *b, long len)
{
	memcpy(m->d + off, b, len);
	if (off + len > m->size)
		m->size = off + len;
}

void m_trunc(struct model *m, long size)
{
	if (size < m->size)
		memset(m->d + size, 0, m->cap - size);
	m->size = size;
}

void m_zero(struct model *m, long off, long len)
{
	memset(m->d + off, 0, len);
}

int is_stale(const unsigned char *b, long off, long len)
{
	/* 8 or more bytes of the stale pattern in place? */
	long n = 0;

	for (long i = 0; i < len && n < 8; i++)
		n = (b[i] == (unsigned char)STALE[(off + i) % 8]) ? n + 1 : 0;
	return n >= 8;
}

/* Compare got[0..len) (file offset off) with the model. */
int cmp_model(const struct model *m, const unsigned char *got, long off, long len,
		     const char *ctx)
{
	for (long i = 0; i < len; i++) {
		unsigned char want = off + i < m->size ? m->d[off + i] : 0;

		if (got[i] != want) {
			long j = i;

			while (j < len && got[j] != (off + j < m->size ? m->d[off + j] : 0))
				j++;
			fail("%s: offset %ld (block %ld +%ld): got 0x%02x want 0x%02x, %ld bad bytes%s",
			     ctx, off + i, (off + i) / bs, (off + i) % bs, got[i], want, j - i,
			     is_stale(got + i, off + i, j - i) ? ", STALE DATA pattern" :
			     (want == 0 ? ", expected zeros" : ""));
			return -1;
		}
	}
	return 0;
}

int drop_caches(void)
{
	int fd;

	sync();
	if (getenv("LBS_FADVISE_ONLY")) { /* host smoke tests: do not drop the host's caches */
		DIR *d = opendir(mnt);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			fd = open(fpath(e->d_name), O_RDONLY);
			if (fd >= 0) {
				posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
				close(fd);
			}
		}
		if (d)
			closedir(d);
		return 0;
	}
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	SYS(fd);
	SYS(write(fd, "3\n", 2));
	close(fd);
	return 0;
}

void *abuf(long len)
{
	void *p;

	if (posix_memalign(&p, 65536, len ? len : 1)) {
		perror("posix_memalign");
		exit(2);
	}
	memset(p, 0, len);
	return p;
}

int pwrite_all(int fd, const void *b, long len, long off)
{
	ssize_t n = pwrite(fd, b, len, off);

	if (n != len) {
		fail("pwrite(%ld, %ld) = %zd: %s", off, len, n, n < 0 ? strerror(errno) : "short");
		return -1;
	}
	return 0;
}

/* Read the whole file buffered (and check st_size) and compare. */
int verify_buffered(const char *name, const struct model *m, const char *ctx)
{
	struct stat st;
	unsigned char *b;
	ssize_t n;
	int fd, r;
	char c[160];

	fd = open(fpath(name), O_RDONLY);
	SYS(fd);
	SYS(fstat(fd, &st));
	if (st.st_size != m->size) {
		close(fd);
		fail("%s: st_size %ld, want %ld", ctx, (long)st.st_size, m->size);
		return -1;
	}
	b = abuf(m->size + bs);
	n = pread(fd, b, m->size + bs, 0);
	close(fd);
	if (n != m->size) {
		free(b);
		fail("%s: buffered read returned %zd, want %ld", ctx, n, m->size);
		return -1;
	}
	snprintf(c, sizeof(c), "%s (buffered read)", ctx);
	r = cmp_model(m, b, 0, m->size, c);
	free(b);
	return r;
}

/* O_DIRECT read of whole blocks covering the file. */
int verify_dio(const char *name, const struct model *m, const char *ctx)
{
	long len = (m->size + bs - 1) / bs * bs;
	unsigned char *b = abuf(len + bs);
	ssize_t n;
	int fd, r;
	char c[160];

	fd = open(fpath(name), O_RDONLY | O_DIRECT);
	SYS(fd);
	n = pread(fd, b, len, 0);
	close(fd);
	if (n != m->size) {
		free(b);
		fail("%s: O_DIRECT read returned %zd (%s), want %ld", ctx, n,
		     n < 0 ? strerror(errno) : "short", m->size);
		return -1;
	}
	snprintf(c, sizeof(c), "%s (O_DIRECT read)", ctx);
	r = cmp_model(m, b, 0, m->size, c);
	free(b);
	return r;
}

/* Check now (page cache), then after sync + drop_caches. */
int verify_both(const char *name, const struct model *m, const char *ctx)
{
	char c[160];

	snprintf(c, sizeof(c), "%s, cached", ctx);
	if (verify_buffered(name, m, c))
		return -1;
	if (drop_caches())
		return -1;
	snprintf(c, sizeof(c), "%s, after drop_caches", ctx);
	return verify_buffered(name, m, c);
}

int remount(void)
{
	sync();
	SYS(umount(mnt));
	SYS(mount(dev, mnt, "xfs", 0, NULL));
	return 0;
}

#ifndef XFS_IOC_GOINGDOWN
#define XFS_IOC_GOINGDOWN _IOR('X', 125, uint32_t)
#endif

/* shut down with the log flushed (committed transactions survive, dirty
 * data does not), unmount, mount again: log recovery */
int shutdown_remount(int fd)
{
	return shutdown_remount_flush(fd, 1);
}

/* the same, with the log flushed (1) or not (0: only what the log on disk
 * already holds survives) */
int shutdown_remount_flush(int fd, int logflush)
{
	/* XFS_FSOP_GOING_FLAGS_LOGFLUSH, XFS_FSOP_GOING_FLAGS_NOLOGFLUSH */
	uint32_t flags = logflush ? 1 : 2;

	SYS(ioctl(fd, XFS_IOC_GOINGDOWN, &flags));
	close(fd);
	SYS(umount(mnt));
	SYS(mount(dev, mnt, "xfs", 0, NULL));
	return 0;
}

int newfile(const char *name, int flags)
{
	unlink(fpath(name));
	return open(fpath(name), O_RDWR | O_CREAT | O_TRUNC | flags, 0644);
}

int mmap_write(int fd, struct model *m, long off, long len, int seed)
{
	long start = off / PG * PG, delta = off - start;
	unsigned char *p = mmap(NULL, len + delta, PROT_READ | PROT_WRITE, MAP_SHARED, fd, start);

	if (p == MAP_FAILED) {
		fail("mmap(%ld, %ld): %s", start, len + delta, strerror(errno));
		return -1;
	}
	for (long i = 0; i < len; i++)
		p[delta + i] = pat(off + i, seed);
	if (msync(p, len + delta, MS_SYNC)) {
		fail("msync: %s", strerror(errno));
		return -1;
	}
	munmap(p, len + delta);
	for (long i = 0; i < len; i++)
		m->d[off + i] = pat(off + i, seed);
	return 0;
}

/* Read block `blk` of file fd from the raw device via FIEMAP. */
/*
 * The FIEMAP extent of @fd that holds block @blk, asked with @flags.
 * Returns 1 and fills @out, 0 if the block is not mapped, -1 on error.
 */
int fiemap_block(int fd, long blk, unsigned int flags,
		 struct fiemap_extent *out)
{
	struct {
		struct fiemap f;
		struct fiemap_extent e[8];
	} fm;
	int found = 0;

	memset(&fm, 0, sizeof(fm));
	fm.f.fm_start = blk * bs;
	fm.f.fm_length = bs;
	fm.f.fm_flags = flags;
	fm.f.fm_extent_count = 8;
	if (ioctl(fd, FS_IOC_FIEMAP, &fm.f) < 0)
		return -1;
	for (unsigned i = 0; i < fm.f.fm_mapped_extents; i++) {
		struct fiemap_extent *x = &fm.e[i];

		if (x->fe_logical <= (uint64_t)blk * bs && x->fe_logical + x->fe_length > (uint64_t)blk * bs) {
			*out = *x;
			found = 1;
		}
	}
	return found;
}

int block_on_disk(int fd, long blk, unsigned char *out, unsigned int *flags)
{
	struct fiemap_extent x;
	int dfd, r;
	long phys;

	/* no FIEMAP_FLAG_SYNC: that would flush the whole file */
	r = fiemap_block(fd, blk, 0, &x);
	SYS(r);
	if (!r)
		return 0;
	*flags = x.fe_flags;
	if (x.fe_flags & (FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN))
		return 1;
	phys = x.fe_physical + (blk * bs - x.fe_logical);
	SYS(dfd = open(dev, O_RDONLY | O_DIRECT));
	if (pread(dfd, out, bs, phys) != bs) {
		fail("raw read of %s at %ld: %s", dev, phys, strerror(errno));
		close(dfd);
		return -1;
	}
	close(dfd);
	return 1;
}

int raw_block(int fd, long blk, unsigned char *out)
{
	unsigned int flags;
	int r = block_on_disk(fd, blk, out, &flags);

	if (r < 0)
		return -1;
	CHK(r > 0, "block %ld not mapped after fsync (FIEMAP)", blk);
	if (flags & (FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_DELALLOC |
		     FIEMAP_EXTENT_UNKNOWN)) {
		fail("block %ld: extent flags 0x%x after fsync (not written)", blk, flags);
		return -1;
	}
	return 0;
}

/*
 * Cache every page of [0, len) of @fd as an order-0 folio: fadvise's
 * readahead (page_cache_ra_unbounded()) makes pages, but reads at most the
 * device's readahead size a call, hence one call per 64 KiB.  A write then
 * keeps each block in pages (the series' sub-block regime, with
 * zero-around), where into an uncached block it makes a large folio.
 * 1 when mincore() then finds every page resident, 0 when some were
 * reclaimed already (memory fragmented: start over), -1 on an error.
 */
int cache_pages(int fd, long len)
{
	unsigned char *vec = malloc(len / PG);
	void *map;
	long n = 0;

	CHK(vec, "out of memory");
	for (long off = 0; off < len; off += 65536) {
		errno = posix_fadvise(fd, off, 65536, POSIX_FADV_WILLNEED);
		CHK(!errno, "fadvise WILLNEED at %ld: %s", off, strerror(errno));
	}
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	CHK(map != MAP_FAILED, "mmap: %s", strerror(errno));
	for (int i = 0; i < 100 && n < len / PG; i++) {
		if (i)
			usleep(100000);	/* the reads are asynchronous */
		CHK(!mincore(map, len, vec), "mincore: %s", strerror(errno));
		n = 0;
		for (long p = 0; p < len / PG; p++)
			n += vec[p] & 1;
	}
	munmap(map, len);
	free(vec);
	if (n < len / PG)
		fprintf(stderr, "cache_pages: %ld of %ld pages cached after fadvise\n", n, len / PG);
	return n == len / PG;
}

/*
 * The block of a write made of pages: its clean folios dropped, then one
 * other page of it cached (fadvise reads pages, not large folios), so the
 * write's folio is a page too and zero-around fills the rest of the block,
 * as when the allocator gives no large folio.  The range must lie inside
 * EOF; a block with dirty data keeps its folio.
 */
int block_in_pages(int fd, long off)
{
	long blk = off - off % bs, other = off % bs < PG ? bs - PG : 0;

	if (bs <= PG)
		return 0;
	/* a clean large folio already over the block goes first */
	errno = posix_fadvise(fd, blk, bs, POSIX_FADV_DONTNEED);
	CHK(!errno, "fadvise DONTNEED at %ld: %s", blk, strerror(errno));
	errno = posix_fadvise(fd, blk + other, PG, POSIX_FADV_WILLNEED);
	CHK(!errno, "fadvise WILLNEED at %ld: %s", blk + other, strerror(errno));
	return 0;
}

/*
 * A test of the sub-block regime, run twice: into blocks with no folio,
 * where writes make large folios, then (@pages 1) into blocks made of
 * pages first.  The second pass runs only if the first passed.
 */
int both_regimes(int (*fn)(int pages))
{
	return fn(0) || fn(1) ? -1 : 0;
}
