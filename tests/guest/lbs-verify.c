// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-verify: directed tests of an XFS filesystem with block size BS, run in
 * the QEMU guest by tests/guest/run-suite.sh (static binary, no libc beyond
 * static glibc).
 *
 *   lbs-verify TEST MNT BS DEV
 *
 * MNT is where DEV (XFS, block size BS) is mounted; tests that remount use
 * DEV. The device was filled with the stale pattern "STALEDA\n" before mkfs
 * on the host, so a read of stale disk contents shows up as that pattern.
 * Prints one line: "pass", "fail REASON" or "skip REASON"; exit 0 pass,
 * 1 fail, 3 skip, 2 usage. Progress goes to stderr.
 *
 * Every check compares the whole file (or whole blocks) with an in-memory
 * model; bytes never written must read zero.
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

/* ---- 1. geometry -----------------------------------------------------------*/
static int t_geometry(void)
{
	struct stat st;
	struct statfs sf;
	int fd = newfile("geom", 0);

	SYS(fd);
	SYS(fstat(fd, &st));
	close(fd);
	SYS(statfs(mnt, &sf));
	CHK(st.st_blksize == bs, "st_blksize %ld != bs %ld", (long)st.st_blksize, bs);
	CHK(sf.f_bsize == bs, "statfs f_bsize %ld != bs %ld", (long)sf.f_bsize, bs);
	return 0;
}

/* ---- 2. stale data ---------------------------------------------------------*/
/*
 * Sub-page and sub-block writes into new blocks of file `name`; with
 * @pages each into a block made of pages (block_in_pages(): the file is
 * first extended over the blocks, which stay holes until written), else
 * into blocks with no folio, where the write path makes a large folio.
 */
static int stale_writes_in(int fd, struct model *m, int seed, long base, int pages)
{
	static const long spots[][2] = {
		/* block index, offset in block (in units: -1 = end), length */
		{ 1, 100 }, { 3, PG - 10 }, { 5, -300 }, { 7, PG }, { 9, 1 },
	};
	static const long lens[] = { 200, 20, 300, PG, 1 };
	unsigned char b[PG];

	for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		long o = spots[i][1] < 0 ? bs + spots[i][1] : spots[i][1] % bs;
		long off = base + spots[i][0] * bs + o, len = lens[i];

		if (o + len > bs)
			len = bs - o;
		if (pages && block_in_pages(fd, off))
			return -1;
		fillpat(b, off, len, seed);
		if (pwrite_all(fd, b, len, off))
			return -1;
		m_write(m, off, b, len);
	}
	/* an interior tail so every written block is followed by more file */
	fillpat(b, base + 11 * bs, 16, seed);
	if (pwrite_all(fd, b, 16, base + 11 * bs))
		return -1;
	m_write(m, base + 11 * bs, b, 16);
	return 0;
}

static int stale_writes(int fd, struct model *m, int seed, long base)
{
	return stale_writes_in(fd, m, seed, base, 0);
}

/* the same writes into blocks made of pages, in a file extended first */
static int stale_writes_pages(int fd, struct model *m, int seed)
{
	struct stat st;

	SYS(fstat(fd, &st));
	if (st.st_size < 12 * bs) {
		SYS(ftruncate(fd, 12 * bs));
		m->size = 12 * bs;
	}
	return stale_writes_in(fd, m, seed, 0, 1);
}

static int t_stale_buffered(void)
{
	struct model m;
	int fd;

	m_init(&m, 16 * bs);
	SYS(fd = newfile("stale-b", 0));
	if (stale_writes(fd, &m, 1, 0))
		return -1;
	close(fd);
	if (verify_both("stale-b", &m, "sub-block writes into new blocks"))
		return -1;
	m_init(&m, 16 * bs);
	SYS(fd = newfile("stale-bp", 0));
	if (stale_writes_pages(fd, &m, 5))
		return -1;
	close(fd);
	return verify_both("stale-bp", &m, "sub-block writes into new blocks made of pages");
}

static int t_stale_remount(void)
{
	struct model m, mp;
	int fd;

	m_init(&m, 16 * bs);
	SYS(fd = newfile("stale-r", 0));
	if (stale_writes(fd, &m, 2, 0))
		return -1;
	close(fd);
	m_init(&mp, 16 * bs);
	SYS(fd = newfile("stale-rp", 0));
	if (stale_writes_pages(fd, &mp, 6))
		return -1;
	close(fd);
	if (remount())
		return -1;
	return verify_both("stale-r", &m, "sub-block writes, after umount+mount") ||
	       verify_both("stale-rp", &mp, "sub-block writes into blocks made of pages, after umount+mount");
}

static int t_stale_unwritten(void)
{
	struct model m;
	int fd;

	/* (a) fallocate that sets the size: all writes land in unwritten blocks */
	m_init(&m, 16 * bs);
	SYS(fd = newfile("stale-u", 0));
	SYS(fallocate(fd, 0, 0, 12 * bs));
	m.size = 12 * bs;
	if (stale_writes(fd, &m, 3, 0))
		return -1;
	close(fd);
	if (verify_both("stale-u", &m, "writes into fallocated unwritten extents"))
		return -1;
	if (remount() || verify_buffered("stale-u", &m, "unwritten, after umount+mount"))
		return -1;

	/* (a') the same into unwritten blocks made of pages */
	m_init(&m, 16 * bs);
	SYS(fd = newfile("stale-up", 0));
	SYS(fallocate(fd, 0, 0, 12 * bs));
	m.size = 12 * bs;
	if (stale_writes_pages(fd, &m, 7))
		return -1;
	close(fd);
	if (verify_both("stale-up", &m, "writes into unwritten extents made of pages"))
		return -1;

	/* (b) KEEP_SIZE preallocation: writes extend the file inside it */
	m_init(&m, 16 * bs);
	SYS(fd = newfile("stale-k", 0));
	SYS(fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 12 * bs));
	if (stale_writes(fd, &m, 4, 0))
		return -1;
	close(fd);
	return verify_both("stale-k", &m, "writes into KEEP_SIZE preallocation");
}

/* ---- 3. O_DIRECT -----------------------------------------------------------*/
static int dio_pieces(int dfd, struct model *m, int seed)
{
	static const long spots[][3] = {
		/* block, offset in block (-N = from the end), length */
		{ 1, 512, 512 }, { 3, PG, PG }, { 5, -512, 512 }, { 7, 0, 512 }, { 9, 1024, 2048 },
	};
	unsigned char *b = abuf(2 * PG);

	for (unsigned i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
		long o = spots[i][1] < 0 ? bs + spots[i][1] : spots[i][1] % bs;
		long len = spots[i][2], off = spots[i][0] * bs + o;

		if (o + len > bs)
			len = bs - o;
		fillpat(b, off, len, seed);
		if (pwrite_all(dfd, b, len, off))
			return -1;
		m_write(m, off, b, len);
	}
	free(b);
	return 0;
}

static int dio_check(const char *name, struct model *m, const char *ctx)
{
	char c[160];

	snprintf(c, sizeof(c), "%s, right after", ctx);
	if (verify_dio(name, m, c) || verify_buffered(name, m, c))
		return -1;
	if (drop_caches())
		return -1;
	snprintf(c, sizeof(c), "%s, after drop_caches", ctx);
	if (verify_dio(name, m, c) || verify_buffered(name, m, c))
		return -1;
	return 0;
}

static int t_dio_hole(void)
{
	struct model m;
	unsigned char *b = abuf(PG);
	int dfd;

	/* holes inside EOF */
	m_init(&m, 16 * bs);
	SYS(dfd = newfile("dio-h", O_DIRECT));
	SYS(ftruncate(dfd, 12 * bs));
	m.size = 12 * bs;
	if (dio_pieces(dfd, &m, 5))
		return -1;
	close(dfd);
	if (dio_check("dio-h", &m, "sub-block O_DIRECT writes into holes"))
		return -1;

	/* extending DIO write into a new block past EOF, then extend by truncate */
	m_init(&m, 16 * bs);
	SYS(dfd = newfile("dio-e", O_DIRECT));
	fillpat(b, 2 * bs + 512, 512, 6);
	if (pwrite_all(dfd, b, 512, 2 * bs + 512))
		return -1;
	m_write(&m, 2 * bs + 512, b, 512);
	SYS(ftruncate(dfd, 4 * bs));
	m.size = 4 * bs;
	close(dfd);
	free(b);
	return dio_check("dio-e", &m, "extending O_DIRECT write, then truncate up");
}

static int t_dio_unwritten(void)
{
	struct model m;
	int dfd;

	m_init(&m, 16 * bs);
	SYS(dfd = newfile("dio-u", O_DIRECT));
	SYS(fallocate(dfd, 0, 0, 12 * bs));
	m.size = 12 * bs;
	if (dio_pieces(dfd, &m, 7))
		return -1;
	close(dfd);
	if (dio_check("dio-u", &m, "sub-block O_DIRECT writes into unwritten extents"))
		return -1;
	m_init(&m, 16 * bs);
	SYS(dfd = newfile("dio-k", O_DIRECT));
	SYS(fallocate(dfd, FALLOC_FL_KEEP_SIZE, 0, 12 * bs));
	if (dio_pieces(dfd, &m, 8))
		return -1;
	close(dfd);
	return dio_check("dio-k", &m, "O_DIRECT writes into KEEP_SIZE preallocation");
}

static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* generic/091 style: buffered and O_DIRECT I/O on one file, checked on every read. */
static int t_dio_mixed(void)
{
	long maxlen = 8 * bs, nops = 1500;
	struct model m;
	unsigned char *b = abuf(maxlen + bs), *r = abuf(maxlen + bs);
	int fd, dfd;
	char ctx[160];
	const char *env = getenv("LBS_MIXED_OPS");

	if (env)
		nops = atol(env);
	rng_state = 0x9e3779b97f4a7c15ULL ^ (uint64_t)bs;
	m_init(&m, maxlen + bs);
	SYS(fd = newfile("dio-m", 0));
	SYS(dfd = open(fpath("dio-m"), O_RDWR | O_DIRECT));
	for (long op = 0; op < nops; op++) {
		int kind = rnd() % 6;
		long off, len;
		ssize_t n;

		if (kind <= 1) { /* buffered write, any alignment */
			off = rnd() % maxlen;
			len = 1 + rnd() % (bs + PG);
			if (off + len > maxlen)
				len = maxlen - off;
			fillpat(b, off, len, (int)op);
			if (pwrite_all(fd, b, len, off))
				goto out;
			m_write(&m, off, b, len);
		} else if (kind == 2) { /* DIO write, 512-aligned */
			off = (long)(rnd() % (maxlen / 512)) * 512;
			len = (1 + (long)(rnd() % ((bs + PG) / 512))) * 512;
			if (off + len > maxlen)
				len = maxlen - off;
			fillpat(b, off, len, (int)op);
			if (pwrite_all(dfd, b, len, off))
				goto out;
			m_write(&m, off, b, len);
		} else if (kind == 3) { /* buffered read */
			off = m.size ? rnd() % m.size : 0;
			len = 1 + rnd() % (2 * bs);
			n = pread(fd, r, len, off);
			if (n != (off + len > m.size ? m.size - off : len)) {
				fail("op %ld: buffered read(%ld,%ld) = %zd, size %ld", op, off, len, n, m.size);
				goto out;
			}
			snprintf(ctx, sizeof(ctx), "op %ld buffered read", op);
			if (cmp_model(&m, r, off, n, ctx))
				goto out;
		} else if (kind == 4) { /* DIO read, 512-aligned */
			off = m.size ? (long)(rnd() % (m.size / 512 + 1)) * 512 : 0;
			len = (1 + (long)(rnd() % (2 * bs / 512))) * 512;
			n = pread(dfd, r, len, off);
			if (n < 0 || n != (off >= m.size ? 0 : (off + len > m.size ? m.size - off : len))) {
				fail("op %ld: O_DIRECT read(%ld,%ld) = %zd (%s), size %ld", op, off, len, n,
				     n < 0 ? strerror(errno) : "", m.size);
				goto out;
			}
			snprintf(ctx, sizeof(ctx), "op %ld O_DIRECT read", op);
			if (cmp_model(&m, r, off, n, ctx))
				goto out;
		} else { /* truncate */
			off = rnd() % maxlen;
			if (ftruncate(fd, off)) {
				fail("op %ld: ftruncate(%ld): %s", op, off, strerror(errno));
				goto out;
			}
			m_trunc(&m, off);
		}
	}
	close(fd);
	close(dfd);
	return verify_both("dio-m", &m, "after mixed buffered/O_DIRECT ops");
out:
	return -1;
}

/* ---- 4. mmap ---------------------------------------------------------------*/

/* an mmap store, into a block made of pages first with @pages */
static int mmap_store(int fd, struct model *m, long off, long len, int seed, int pages)
{
	if (pages && block_in_pages(fd, off))
		return -1;
	return mmap_write(fd, m, off, len, seed);
}

static int mmap_hole(int pages)
{
	const char *name = pages ? "mmap-hp" : "mmap-h";
	struct model m;
	int fd;

	m_init(&m, 16 * bs);
	SYS(fd = newfile(name, 0));
	SYS(ftruncate(fd, 12 * bs));
	m.size = 12 * bs;
	if (mmap_store(fd, &m, bs + 100, 50, 9, pages) ||
	    mmap_store(fd, &m, 3 * bs + PG + 7, 100, 9, pages) ||
	    mmap_store(fd, &m, 6 * bs - 10, 20, 9, pages) || mmap_store(fd, &m, 9 * bs, PG, 9, pages))
		return -1;
	close(fd);
	return verify_both(name, &m, pages ? "mmap writes over holes, blocks made of pages" :
			   "mmap writes over holes");
}

static int t_mmap_hole(void)
{
	return both_regimes(mmap_hole);
}

static int mmap_eof(int pages)
{
	const char *name = pages ? "mmap-ep" : "mmap-e";
	struct model m;
	unsigned char *b = abuf(2 * bs);
	int fd;

	m_init(&m, 16 * bs);
	SYS(fd = newfile(name, 0));
	fillpat(b, 0, bs + 1000, 10);
	if (pwrite_all(fd, b, bs + 1000, 0))
		return -1;
	m_write(&m, 0, b, bs + 1000);
	SYS(fsync(fd));
	SYS(ftruncate(fd, 4 * bs + 500));
	m.size = 4 * bs + 500;
	if (mmap_store(fd, &m, bs + 2000, 100, 11, pages) ||
	    mmap_store(fd, &m, 2 * bs + 10, 10, 11, pages) ||
	    mmap_store(fd, &m, 4 * bs + 100, 50, 11, pages))
		return -1;
	close(fd);
	free(b);
	return verify_both(name, &m, pages ? "mmap writes past the old EOF after ftruncate up, blocks made of pages" :
			   "mmap writes past the old EOF after ftruncate up");
}

static int t_mmap_eof(void)
{
	return both_regimes(mmap_eof);
}

/* ---- 5. truncate and EOF ---------------------------------------------------*/
static int t_trunc_eof(void)
{
	const long cuts[] = { bs + 1234, bs + 100, 2 * bs - 100, bs + PG + 1 };
	unsigned char *b = abuf(4 * bs);
	char ctx[160];

	for (unsigned i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		for (int synced = 0; synced < 2; synced++) {
			long cut = cuts[i];
			struct model m;
			int fd;

			m_init(&m, 8 * bs);
			SYS(fd = newfile("trunc", 0));
			fillpat(b, 0, 3 * bs, 20 + i);
			if (pwrite_all(fd, b, 3 * bs, 0))
				return -1;
			m_write(&m, 0, b, 3 * bs);
			SYS(fsync(fd));
			SYS(ftruncate(fd, cut));
			m_trunc(&m, cut);
			if (synced && drop_caches())
				return -1;
			/* extend by write */
			fillpat(b, 2 * bs + 100, 10, 30);
			if (pwrite_all(fd, b, 10, 2 * bs + 100))
				return -1;
			m_write(&m, 2 * bs + 100, b, 10);
			snprintf(ctx, sizeof(ctx), "truncate to %ld%s, extend by write", cut,
				 synced ? " (+drop_caches)" : "");
			if (verify_both("trunc", &m, ctx))
				return -1;
			/* truncate down again, extend by truncate */
			SYS(ftruncate(fd, cut - 1));
			m_trunc(&m, cut - 1);
			if (synced && drop_caches())
				return -1;
			SYS(ftruncate(fd, 3 * bs + 7));
			m_trunc(&m, 3 * bs + 7);
			snprintf(ctx, sizeof(ctx), "truncate to %ld%s, extend by truncate", cut - 1,
				 synced ? " (+drop_caches)" : "");
			close(fd);
			if (verify_both("trunc", &m, ctx))
				return -1;
		}
	}
	free(b);
	return 0;
}

/*
 * generic/363 pattern: mmap the EOF page, write bytes past EOF inside that
 * page through the mapping, munmap, extend the file; the gap reads zero.
 * setup: 0 = EOF block just written (delalloc), 1 = written and fsynced,
 *        2 = EOF inside a KEEP_SIZE preallocation, fsynced.
 */
static int pollute_extend(int how)
{
	const long eofs[] = { bs + 1000, 2 * bs - 1000, bs + bs / 2 + 5 };
	static const char *const hown[] = { "write", "truncate", "fallocate" };
	static const char *const setn[] = { "delalloc", "fsynced", "prealloc" };
	unsigned char *b = abuf(4 * bs);
	char ctx[200];

	for (int setup = 0; setup < 3; setup++) {
		for (unsigned e = 0; e < sizeof(eofs) / sizeof(eofs[0]); e++) {
			long eof = eofs[e], pg = (eof - 1) / PG * PG, newsize;
			struct model m;
			unsigned char *p;
			int fd;

			if (eof % PG == 0)
				continue;
			m_init(&m, 8 * bs);
			SYS(fd = newfile("pollute", 0));
			if (setup == 2)
				SYS(fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 4 * bs));
			fillpat(b, 0, eof, 40);
			if (pwrite_all(fd, b, eof, 0))
				return -1;
			m_write(&m, 0, b, eof);
			if (setup)
				SYS(fsync(fd));
			p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, pg);
			if (p == MAP_FAILED) {
				fail("mmap EOF page: %s", strerror(errno));
				return -1;
			}
			memset(p + (eof - pg), 0xEE, PG - (eof - pg)); /* past EOF */
			munmap(p, PG);
			switch (how) {
			case 0:
				newsize = 3 * bs + 10;
				fillpat(b, 3 * bs, 10, 41);
				if (pwrite_all(fd, b, 10, 3 * bs))
					return -1;
				m_write(&m, 3 * bs, b, 10);
				break;
			case 1:
				newsize = 3 * bs + 10;
				SYS(ftruncate(fd, newsize));
				break;
			default:
				newsize = 3 * bs;
				SYS(fallocate(fd, 0, eof, newsize - eof));
				break;
			}
			m.size = newsize;
			close(fd);
			snprintf(ctx, sizeof(ctx), "EOF %ld (%s), post-EOF bytes polluted by mmap, extended by %s",
				 eof, setn[setup], hown[how]);
			if (verify_both("pollute", &m, ctx))
				return -1;
		}
	}
	free(b);
	return 0;
}
static int t_pollute_write(void) { return pollute_extend(0); }
static int t_pollute_trunc(void) { return pollute_extend(1); }
static int t_pollute_falloc(void) { return pollute_extend(2); }

/* ---- 6. fsync of a sub-block range -----------------------------------------*/

/*
 * Over @pages (the file cached page by page first: writeback and fsync must
 * round a sub-block range to its blocks, patch 12) or over the large folios
 * the write path makes (a folio holds the whole block).
 */
static int fsync_range(int pages)
{
	const char *name = pages ? "fsync-pages" : "fsync";
	unsigned char *b = abuf(4 * bs), *raw = abuf(bs);
	struct model m;
	char ctx[160];
	int fd, sfd;

	/* (a) O_DSYNC sub-block write into a hole (vfs_fsync_range on a sub-block range) */
	m_init(&m, 8 * bs);
	SYS(fd = newfile(name, 0));
	SYS(ftruncate(fd, 4 * bs));
	m.size = 4 * bs;
	CHK(!pages || cache_pages(fd, 4 * bs) == 1, "could not cache the file's pages first");
	SYS(sfd = open(fpath(name), O_RDWR | O_DSYNC));
	{
		long off = 2 * bs + (bs > PG ? PG : 0) + 50; /* second page of block 2 */

		fillpat(b, off, 300, 50);
		if (pwrite_all(sfd, b, 300, off))
			return -1;
		m_write(&m, off, b, 300);
	}
	close(sfd);
	if (raw_block(fd, 2, raw) || cmp_model(&m, raw, 2 * bs, bs, "O_DSYNC write into hole, raw device"))
		return -1;

	/* (b) sync_file_range of a sub-block range over a written block */
	fillpat(b, 0, 4 * bs, 51);
	if (pwrite_all(fd, b, bs, 0) || pwrite_all(fd, b + 3 * bs, bs, 3 * bs))
		return -1;
	m_write(&m, 0, b, bs);
	m_write(&m, 3 * bs, b + 3 * bs, bs);
	SYS(fsync(fd));
	fillpat(b, 0, 200, 52);
	if (pwrite_all(fd, b, 200, 3 * bs + bs / 2 + 10))
		return -1;
	m_write(&m, 3 * bs + bs / 2 + 10, b, 200);
	SYS(sync_file_range(fd, 3 * bs + bs / 2 + 10, 200,
			    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER));
	if (raw_block(fd, 3, raw) || cmp_model(&m, raw, 3 * bs, bs, "sync_file_range sub-block, raw device"))
		return -1;

	/* (c) fdatasync after a sub-block write into a hole; then drop_caches + O_DIRECT read */
	fillpat(b, 0, 100, 53);
	if (pwrite_all(fd, b, 100, bs + 7))
		return -1;
	m_write(&m, bs + 7, b, 100);
	SYS(fdatasync(fd));
	if (raw_block(fd, 1, raw) || cmp_model(&m, raw, bs, bs, "fdatasync sub-block into hole, raw device"))
		return -1;
	close(fd);
	if (drop_caches())
		return -1;
	snprintf(ctx, sizeof(ctx), "after sub-block syncs (%s)", pages ? "pages" : "large folios");
	return verify_dio(name, &m, ctx);
}

static int t_fsync_range(void)
{
	return both_regimes(fsync_range);
}

/* ---- 7. fallocate ----------------------------------------------------------*/
static int t_falloc_ops(void)
{
	long n = 16;
	unsigned char *b = abuf(n * bs);
	struct model m;
	int fd;

	m_init(&m, (n + 4) * bs);
	SYS(fd = newfile("falloc", 0));
	fillpat(b, 0, n * bs, 60);
	if (pwrite_all(fd, b, n * bs, 0))
		return -1;
	m_write(&m, 0, b, n * bs);
	SYS(fsync(fd));

	SYS(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 2 * bs, bs));
	m_zero(&m, 2 * bs, bs);
	if (verify_both("falloc", &m, "punch hole block 2"))
		return -1;
	SYS(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 6 * bs + 100, 300));
	m_zero(&m, 6 * bs + 100, 300);
	if (verify_both("falloc", &m, "punch hole, sub-block range"))
		return -1;
	SYS(fallocate(fd, FALLOC_FL_ZERO_RANGE, 4 * bs, 2 * bs));
	m_zero(&m, 4 * bs, 2 * bs);
	if (verify_both("falloc", &m, "zero range blocks 4-5"))
		return -1;
	SYS(fallocate(fd, FALLOC_FL_ZERO_RANGE, 7 * bs + PG + 3, 1000));
	m_zero(&m, 7 * bs + PG + 3, 1000);
	if (verify_both("falloc", &m, "zero range, sub-block"))
		return -1;
	/* collapse block 8 */
	SYS(fallocate(fd, FALLOC_FL_COLLAPSE_RANGE, 8 * bs, bs));
	memmove(m.d + 8 * bs, m.d + 9 * bs, m.size - 9 * bs);
	m_trunc(&m, m.size - bs);
	if (verify_both("falloc", &m, "collapse range block 8"))
		return -1;
	/* insert at block 3 */
	SYS(fallocate(fd, FALLOC_FL_INSERT_RANGE, 3 * bs, bs));
	memmove(m.d + 4 * bs, m.d + 3 * bs, m.size - 3 * bs);
	memset(m.d + 3 * bs, 0, bs);
	m.size += bs;
	close(fd);
	if (verify_both("falloc", &m, "insert range at block 3"))
		return -1;
	return verify_dio("falloc", &m, "after fallocate ops");
}

static int t_falloc_einval(void)
{
	const long offs[] = { bs / 2, PG, 512 };
	int fd;
	unsigned char *b = abuf(8 * bs);

	SYS(fd = newfile("einval", 0));
	fillpat(b, 0, 8 * bs, 70);
	if (pwrite_all(fd, b, 8 * bs, 0))
		return -1;
	for (unsigned i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		long o = offs[i];

		if (o % bs == 0)
			continue;
		for (int mode = 0; mode < 2; mode++) {
			int fl = mode ? FALLOC_FL_INSERT_RANGE : FALLOC_FL_COLLAPSE_RANGE;
			const char *nm = mode ? "insert" : "collapse";

			errno = 0;
			CHK(fallocate(fd, fl, o, bs) < 0 && errno == EINVAL,
			    "%s at unaligned offset %ld: %s (want EINVAL)", nm, o, errno ? strerror(errno) : "succeeded");
			errno = 0;
			CHK(fallocate(fd, fl, bs, o) < 0 && errno == EINVAL,
			    "%s with unaligned length %ld: %s (want EINVAL)", nm, o, errno ? strerror(errno) : "succeeded");
		}
	}
	close(fd);
	return 0;
}

/* ---- 8. runt last AG: fill to ENOSPC (MNT is the runt image) ---------------*/
/* ---- short copies -------------------------------------------------------- */
/*
 * A write whose user buffer runs into an unmapped page copies only part of
 * its data.  The bytes the copy did not reach must read as before (zeroes,
 * over a hole): a folio marked uptodate before the copy (partial zeroing
 * marked uptodate) keeps whatever memory the page allocator handed out.
 * Pages filled with 0xa5 and freed just before are handed out first, so
 * such bytes tend to read back as 0xa5; any non-zero byte fails.
 */
/* with @pages, each write lands in a block made of pages (block_in_pages()) */
static int short_copy(int pages)
{
	const char *name = pages ? "short-p" : "short";
	unsigned char *a5 = abuf(64 * PG), *map;
	struct model m;
	int fd, tfd;

	m_init(&m, 8 * bs);
	SYS(fd = newfile(name, 0));
	SYS(ftruncate(fd, 4 * bs));
	m.size = 4 * bs;
	memset(a5, 0xa5, 64 * PG);
	for (int round = 0; round < 8; round++) {
		long off = (long)round * (bs / 2) + 100;
		unsigned char *src;
		ssize_t n;

		SYS(tfd = open("/tmp/lbs-a5", O_RDWR | O_CREAT | O_TRUNC, 0600));
		if (pwrite_all(tfd, a5, 64 * PG, 0))
			return -1;
		close(tfd);
		SYS(unlink("/tmp/lbs-a5"));
		map = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHK(map != MAP_FAILED, "mmap: %s", strerror(errno));
		memset(map, 0x11 + round, PG);
		SYS(mprotect(map + PG, PG, PROT_NONE));
		src = map + PG - 1000;	/* 1000 bytes, then a fault */
		if (pages && block_in_pages(fd, off))
			return -1;
		n = pwrite(fd, src, 3000, off);
		CHK(n > 0 && n < 3000, "round %d: pwrite of 3000 bytes with a fault "
		    "after 1000 returned %zd (%s), want a short write", round, n,
		    n < 0 ? strerror(errno) : "no error");
		m_write(&m, off, src, n);
		munmap(map, 2 * PG);
	}
	close(fd);
	return verify_both(name, &m, pages ? "short-copy writes into a hole, blocks made of pages" :
			   "short-copy writes into a hole");
}

static int t_short_copy(void)
{
	return both_regimes(short_copy);
}

static int t_runt_ag(void)
{
	char name[64];
	long nfiles = 0, nbig = 0;
	int fd, enospc = 0;
	unsigned char *b = abuf(bs);

	memset(b, 0x5a, bs);
	if (mkdir(fpath("d"), 0755) < 0)
		CHK(errno == EEXIST, "mkdir: %s", strerror(errno));
	/* inodes and small files first, in dirs spread over the AGs */
	for (int i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "p%d", i % 10);
		mkdir(fpath(name), 0755);
		snprintf(name, sizeof(name), "p%d/f%d", i % 10, i);
		SYS(fd = open(fpath(name), O_RDWR | O_CREAT, 0644));
		if (pwrite_all(fd, b, bs, 0))
			return -1;
		close(fd);
	}
	/* big preallocations until ENOSPC, then smaller ones to take the rest */
	for (long sz = 64L << 20; sz >= bs; sz /= 2) {
		for (;;) {
			int r;

			snprintf(name, sizeof(name), "big%ld", nbig);
			fd = newfile(name, 0);
			if (fd < 0) {
				CHK(errno == ENOSPC, "create %s: %s", name, strerror(errno));
				enospc = 1;
				break;
			}
			r = fallocate(fd, 0, 0, sz);
			close(fd);
			if (r < 0) {
				CHK(errno == ENOSPC, "fallocate %s (%ld bytes): %s", name, sz, strerror(errno));
				unlink(fpath(name));
				enospc = 1;
				break;
			}
			nbig++;
		}
	}
	CHK(enospc, "no ENOSPC after %ld preallocations", nbig);
	/* small files (inodes in every AG, the runt one too) until ENOSPC */
	for (nfiles = 0; nfiles < 4000; nfiles++) {
		snprintf(name, sizeof(name), "d/f%ld", nfiles);
		fd = open(fpath(name), O_RDWR | O_CREAT, 0644);
		if (fd < 0) {
			CHK(errno == ENOSPC, "create %s: %s", name, strerror(errno));
			break;
		}
		if (write(fd, b, bs) != bs) {
			CHK(errno == ENOSPC, "write %s: %s", name, strerror(errno));
			close(fd);
			break;
		}
		close(fd);
	}
	sync();
	fprintf(stderr, "runt-ag: 200 files, %ld preallocated files, %ld small files at ENOSPC\n", nbig, nfiles);
	SYS(umount(mnt));
	SYS(mount(dev, mnt, "xfs", 0, NULL));
	/* free some space and write again */
	for (long i = 0; i < nbig; i++) {
		snprintf(name, sizeof(name), "big%ld", i);
		unlink(fpath(name));
	}
	SYS(fd = newfile("after", 0));
	if (pwrite_all(fd, b, bs, 0))
		return -1;
	close(fd);
	return 0;
}

/* ---------------------------------------------------------------------------*/
static const struct vtest tests[] = {
	{ "geometry", t_geometry },
	{ "stale-buffered", t_stale_buffered },
	{ "stale-remount", t_stale_remount },
	{ "stale-unwritten", t_stale_unwritten },
	{ "dio-hole", t_dio_hole },
	{ "dio-unwritten", t_dio_unwritten },
	{ "dio-mixed", t_dio_mixed },
	{ "mmap-hole", t_mmap_hole },
	{ "mmap-eof", t_mmap_eof },
	{ "trunc-eof", t_trunc_eof },
	{ "eof-pollute-write", t_pollute_write },
	{ "eof-pollute-trunc", t_pollute_trunc },
	{ "eof-pollute-falloc", t_pollute_falloc },
	{ "fsync-range", t_fsync_range },
	{ "falloc-ops", t_falloc_ops },
	{ "falloc-einval", t_falloc_einval },
	{ "short-copy", t_short_copy },
	{ "runt-ag", t_runt_ag },
};

static const unsigned int nr_tests = sizeof(tests) / sizeof(tests[0]);

/* every test table, in the order the tests run */
static const struct {
	const struct vtest *t;
	const unsigned int *n;
} groups[] = {
	{ tests, &nr_tests },
	{ reflink_tests, &nr_reflink_tests },
	{ writeback_tests, &nr_writeback_tests },
	{ crash_tests, &nr_crash_tests },
};
#define NR_GROUPS (sizeof(groups) / sizeof(groups[0]))

static const struct vtest *find(const char *name)
{
	for (unsigned int g = 0; g < NR_GROUPS; g++)
		for (unsigned int i = 0; i < *groups[g].n; i++)
			if (!strcmp(name, groups[g].t[i].name))
				return &groups[g].t[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct vtest *t;
	int r;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (unsigned int g = 0; g < NR_GROUPS; g++)
			for (unsigned int i = 0; i < *groups[g].n; i++)
				printf("%s\n", groups[g].t[i].name);
		return 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: lbs-verify TEST MNT BS DEV | --list\n");
		return 2;
	}
	mnt = argv[2];
	bs = atol(argv[3]);
	dev = argv[4];
	if (bs < 512 || (bs & (bs - 1))) {
		fprintf(stderr, "lbs-verify: bad block size %s\n", argv[3]);
		return 2;
	}
	t = find(argv[1]);
	if (!t) {
		fprintf(stderr, "lbs-verify: unknown test '%s' (see --list)\n", argv[1]);
		return 2;
	}
	r = t->fn();
	if (r < 0 || failed) {
		printf("fail %s\n", failed ? reason : "(no reason)");
		return 1;
	}
	if (r > 0) {
		printf("skip %s\n", skip_reason[0] ? skip_reason : "(no reason)");
		return 3;
	}
	printf("pass\n");
	return 0;
}
