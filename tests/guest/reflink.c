// SPDX-License-Identifier: GPL-2.0
/*
 * Shared extents: sub-block writes, zeroing and unsharing in files that
 * share blocks (FICLONE, FICLONERANGE, FIDEDUPERANGE), as a user's plain
 * `cp` on a default mkfs.xfs filesystem makes them.  A write into part of
 * a shared block is copied on write; the rest of the block must keep the
 * file's data in the copy and in the original alike.  Every step checks
 * both files through the page cache, after drop_caches and after a
 * remount, against their models.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vlib.h"

#define NBLK 8

/* write_at() makes each buffered write's block of pages first (vlib's
 * both_regimes() second pass) */
static int pages_pass;

static long file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? -1 : st.st_size;
}

/* both files, cached, after drop_caches and after a remount */
static int check2(const char *a, const struct model *ma, const char *b,
		  const struct model *mb, const char *step)
{
	char ctx[160];

	snprintf(ctx, sizeof(ctx), "%s%s: %s", step, pages_pass ? " (blocks of pages)" : "", a);
	if (verify_both(a, ma, ctx))
		return -1;
	snprintf(ctx, sizeof(ctx), "%s: %s", step, b);
	if (verify_both(b, mb, ctx))
		return -1;
	if (remount())
		return -1;
	snprintf(ctx, sizeof(ctx), "%s, after remount: %s", step, a);
	if (verify_buffered(a, ma, ctx))
		return -1;
	snprintf(ctx, sizeof(ctx), "%s, after remount: %s", step, b);
	return verify_buffered(b, mb, ctx);
}

/*
 * "orig" with NBLK blocks of data and a partial EOF block, fsynced, and
 * "copy" sharing all of it; both models hold the data.
 */
static int make_pair(struct model *mo, struct model *mc, int seed)
{
	long size = NBLK * bs + bs / 2 + 123;
	unsigned char *b = abuf(size);
	int fo, fc;

	m_init(mo, (NBLK + 4) * bs);
	m_init(mc, (NBLK + 4) * bs);
	fillpat(b, 0, size, seed);
	SYS(fo = newfile("orig", 0));
	if (pwrite_all(fo, b, size, 0))
		return -1;
	SYS(fsync(fo));
	SYS(fc = newfile("copy", 0));
	if (ioctl(fc, FICLONE, fo) < 0) {
		fail("FICLONE: %s (mkfs.xfs defaults have reflink=1)",
		     strerror(errno));
		return -1;
	}
	m_write(mo, 0, b, size);
	m_write(mc, 0, b, size);
	free(b);
	close(fo);
	close(fc);
	return 0;
}

static int write_at(const char *name, struct model *m, long off, long len,
		    int seed, int flags)
{
	unsigned char *b = abuf(len);
	int fd, r;

	fillpat(b, off, len, seed);
	SYS(fd = open(fpath(name), O_RDWR | flags));
	if (pages_pass && !(flags & O_DIRECT) && off < file_size(fd) &&
	    block_in_pages(fd, off)) {
		close(fd);
		return -1;
	}
	r = pwrite_all(fd, b, len, off);
	close(fd);
	if (!r)
		m_write(m, off, b, len);
	free(b);
	return r;
}

/* buffered, mmap and O_DIRECT sub-block writes into shared blocks */
static int reflink_cow(int pages)
{
	struct model mo, mc;
	int fd;

	pages_pass = pages;

	if (make_pair(&mo, &mc, 21))
		return -1;
	/* start, middle and end of blocks of the copy, then the original */
	if (write_at("copy", &mc, bs, 17, 22, 0) ||
	    write_at("copy", &mc, 2 * bs + bs / 2 - 50, 100, 23, 0) ||
	    write_at("copy", &mc, 4 * bs - 17, 17, 24, 0) ||
	    write_at("orig", &mo, 5 * bs + 100, 200, 25, 0))
		return -1;
	if (check2("orig", &mo, "copy", &mc, "sub-block buffered writes"))
		return -1;
	/* a store into one page of a shared block (page 1 of block 6) */
	SYS(fd = open(fpath("copy"), O_RDWR));
	if (mmap_write(fd, &mc, 6 * bs + (bs > PG ? PG : 0) + 10, 40, 26))
		return -1;
	close(fd);
	if (check2("orig", &mo, "copy", &mc, "mmap store"))
		return -1;
	/* sub-block O_DIRECT: falls back to a buffered write on a COW inode */
	if (write_at("orig", &mo, 7 * bs + 512, 512, 27, O_DIRECT))
		return -1;
	if (check2("orig", &mo, "copy", &mc, "sub-block O_DIRECT write"))
		return -1;
	/*
	 * The shared, partial EOF block: a write inside EOF, then an append
	 * inside the block.  Its COW block has a part past the EOF page,
	 * which is zeroed on disk before the remap.
	 */
	if (write_at("copy", &mc, mc.size - 50, 20, 28, 0) ||
	    write_at("copy", &mc, mc.size + 10, 30, 29, 0))
		return -1;
	return check2("orig", &mo, "copy", &mc, "writes into the shared EOF block");
}

static int t_reflink_cow(void)
{
	int r = both_regimes(reflink_cow);

	pages_pass = 0;
	return r;
}

static int falloc(const char *name, int mode, long off, long len)
{
	int fd;

	SYS(fd = open(fpath(name), O_RDWR));
	if (fallocate(fd, mode, off, len) < 0) {
		fail("fallocate(0x%x, %ld, %ld): %s", mode, off, len,
		     strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* punch, zero range, truncate into and extension past shared blocks */
static int t_reflink_zero(void)
{
	struct model mo, mc;
	long cut = 5 * bs + 1000;

	if (make_pair(&mo, &mc, 31))
		return -1;
	if (falloc("copy", FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		   2 * bs - 1000, 2000) ||
	    falloc("orig", FALLOC_FL_ZERO_RANGE, 4 * bs - 300, 600))
		return -1;
	m_zero(&mc, 2 * bs - 1000, 2000);
	m_zero(&mo, 4 * bs - 300, 600);
	if (check2("orig", &mo, "copy", &mc, "punch and zero across blocks"))
		return -1;
	/* truncate into a shared block, then extend the file past it */
	SYS(truncate(fpath("copy"), cut));
	m_trunc(&mc, cut);
	if (check2("orig", &mo, "copy", &mc, "truncate into a shared block"))
		return -1;
	SYS(truncate(fpath("copy"), 7 * bs + 5));
	mc.size = 7 * bs + 5;
	/* append past the partial, shared EOF block of the original */
	if (write_at("orig", &mo, mo.size + 100, 300, 32, 0))
		return -1;
	return check2("orig", &mo, "copy", &mc, "extension past shared EOF");
}

/* is block @blk of @name still shared (FIEMAP_EXTENT_SHARED)? */
static int block_shared(const char *name, long blk)
{
	struct fiemap_extent x;
	int fd, r;

	fd = open(fpath(name), O_RDONLY);
	r = fd < 0 ? -1 : fiemap_block(fd, blk, FIEMAP_FLAG_SYNC, &x);
	if (r < 0) {
		fail("FIEMAP %s: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (!r) {
		fail("FIEMAP %s: block %ld not mapped", name, blk);
		return -1;
	}
	return !!(x.fe_flags & FIEMAP_EXTENT_SHARED);
}

/* FICLONERANGE and FIDEDUPERANGE, then sub-block writes and unshare */
static int t_reflink_range(void)
{
	struct model mo, mc;
	struct file_clone_range cr;
	struct {
		struct file_dedupe_range d;
		struct file_dedupe_range_info i;
	} dr;
	int fo, fc, sh;

	if (make_pair(&mo, &mc, 41))
		return -1;
	/* clone blocks 1..3 of the original over blocks 4..6 of the copy */
	SYS(fo = open(fpath("orig"), O_RDWR));
	SYS(fc = open(fpath("copy"), O_RDWR));
	cr = (struct file_clone_range){ .src_fd = fo, .src_offset = bs,
					.src_length = 3 * bs,
					.dest_offset = 4 * bs };
	SYS(ioctl(fc, FICLONERANGE, &cr));
	m_write(&mc, 4 * bs, mo.d + bs, 3 * bs);
	/* unshare block 0 of the copy by a write, then dedupe it back */
	close(fc);
	if (write_at("copy", &mc, 100, 10, 42, 0) ||
	    write_at("copy", &mc, 100, 10, 41, 0))
		return -1;
	SYS(fc = open(fpath("copy"), O_RDWR));
	SYS(fsync(fc));
	memset(&dr, 0, sizeof(dr));
	dr.d.src_offset = 0;
	dr.d.src_length = bs;
	dr.d.dest_count = 1;
	dr.i.dest_fd = fc;
	dr.i.dest_offset = 0;
	SYS(ioctl(fo, FIDEDUPERANGE, &dr.d));
	CHK(dr.i.status == FILE_DEDUPE_RANGE_SAME && dr.i.bytes_deduped == (uint64_t)bs,
	    "FIDEDUPERANGE of identical blocks: status %d, %llu bytes",
	    dr.i.status, (unsigned long long)dr.i.bytes_deduped);
	close(fo);
	close(fc);
	if (write_at("copy", &mc, bs / 2 + 3, 20, 43, 0) ||
	    write_at("copy", &mc, 5 * bs + bs / 2, 33, 44, 0))
		return -1;
	if (check2("orig", &mo, "copy", &mc, "FICLONERANGE, FIDEDUPERANGE, writes"))
		return -1;
	/* unshare a sub-block range: the whole block is copied */
	if (falloc("copy", FALLOC_FL_UNSHARE_RANGE, 2 * bs + 100, 200))
		return -1;
	if (check2("orig", &mo, "copy", &mc, "sub-block unshare"))
		return -1;
	sh = block_shared("copy", 2);
	CHK(sh == 0, "block 2 of the copy is %s after unsharing part of it",
	    sh < 0 ? "unmapped" : "still shared");
	return 0;
}

/*
 * A COW next to a block written in place.  XFS rounds COW reservations out
 * to the COW extent size hint (32 blocks), and writeback sends the dirty
 * pages over any COW fork extent to the COW block, which completion remaps
 * whole.  The page written in place into a block that is not shared was
 * not copied around: in a COW block of its own it would be all that is
 * left of the block (fstests generic/263 and 091 at 64k, before patch 25).
 */
static int reflink_window(int pages)
{
	struct model mw, mc;
	struct file_clone_range cr;
	long size = NBLK * bs;
	unsigned char *b = abuf(size);
	int fw, fc;

	pages_pass = pages;

	m_init(&mw, (NBLK + 4) * bs);
	m_init(&mc, (NBLK + 4) * bs);
	fillpat(b, 0, size, 51);
	SYS(fw = newfile("win", 0));
	if (pwrite_all(fw, b, size, 0))
		return -1;
	SYS(fsync(fw));
	m_write(&mw, 0, b, size);
	free(b);
	/* share block 3 of "win" with a new file */
	SYS(fc = newfile("copy", 0));
	cr = (struct file_clone_range){ .src_fd = fw, .src_offset = 3 * bs,
					.src_length = bs };
	SYS(ioctl(fc, FICLONERANGE, &cr));
	m_write(&mc, 0, mw.d + 3 * bs, bs);
	close(fw);
	close(fc);
	/* in place into page 1 of block 1, then a COW write into block 3 */
	if (write_at("win", &mw, bs + (bs > PG ? PG : 0) + 100, 200, 52, 0) ||
	    write_at("win", &mw, 3 * bs + 10, 20, 53, 0))
		return -1;
	return check2("win", &mw, "copy", &mc,
		      "write in place, then COW in the same hint window");
}

static int t_reflink_window(void)
{
	int r = both_regimes(reflink_window);

	pages_pass = 0;
	return r;
}

/*
 * Unshare must not cancel COW reservations under dirty pages.  A write
 * over a shared block and holes past it reserves COW blocks for all of it
 * (the hint window at 4k); unsharing part of the block removes the last
 * shared extent, and 6.1 then cancelled the whole COW fork while the
 * pages over the holes were still dirty: writeback skipped them as holes
 * (upstream 4390f019ad78, patch 26; stock 6.1 fails fsx this way at 4k).
 */
static int t_reflink_unshare_dirty(void)
{
	struct model m;
	struct file_clone_range cr;
	int fd;

	m_init(&m, 72 * bs);
	SYS(fd = newfile("ud", 0));
	close(fd);
	if (write_at("ud", &m, 0, bs / 4, 61, 0))
		return -1;
	/* share block 0 with block 64 of the same file */
	SYS(fd = open(fpath("ud"), O_RDWR));
	cr = (struct file_clone_range){ .src_fd = fd, .src_length = bs / 4,
					.dest_offset = 64 * bs };
	SYS(ioctl(fd, FICLONERANGE, &cr));
	close(fd);
	m_write(&m, 64 * bs, m.d, bs / 4);
	if (write_at("ud", &m, 0, 8 * bs, 62, 0) ||
	    falloc("ud", FALLOC_FL_UNSHARE_RANGE, 0, bs / 4))
		return -1;
	if (verify_both("ud", &m, "unshare with dirty pages over COW blocks"))
		return -1;
	if (remount())
		return -1;
	return verify_buffered("ud", &m, "unshare with dirty pages, after remount");
}

/*
 * A clone into [i_disk_size, i_size) does not move i_disk_size; a crash
 * then leaves the shared block mapped past EOF.  A later write over it
 * (to the COW fork, in the page cache) and writeback of a block beyond it
 * move i_disk_size past it; after a second crash every byte of it must
 * read zero or the write, not the clone source's data (oracle.h point 4;
 * remap-tail is this case).  Each step the case needs is checked on the
 * way, so that a failure to set it up is not taken for the bug: the size
 * after the first shutdown is the fsynced one, the block is still mapped
 * and shared past EOF then, the size after the second shutdown reaches
 * past it.  The failure then names the first bad byte and its value.
 */
static int t_reflink_shutdown_eof(void)
{
	struct file_clone_range cr;
	struct fiemap_extent x;
	unsigned char *b = abuf(2 * bs);
	struct stat st;
	int fd, r;

	SYS(fd = newfile("se", 0));
	memset(b, 0xaa, 2 * bs);
	if (pwrite_all(fd, b, 2 * bs, 0))
		return -1;
	SYS(fsync(fd));
	memset(b, 0xbb, bs);
	if (pwrite_all(fd, b, bs, 15 * bs))
		return -1;
	cr = (struct file_clone_range){ .src_fd = fd, .src_length = bs,
					.dest_offset = 8 * bs };
	SYS(ioctl(fd, FICLONERANGE, &cr));
	if (shutdown_remount(fd))
		return -1;
	SYS(fd = open(fpath("se"), O_RDWR));
	SYS(fstat(fd, &st));
	if (st.st_size != 2 * bs) {
		fail("setup: size %ld after the first shutdown, want the fsynced %ld",
		     (long)st.st_size, 2 * bs);
		return -1;
	}
	r = fiemap_block(fd, 8, FIEMAP_FLAG_SYNC, &x);
	if (r <= 0 || !(x.fe_flags & FIEMAP_EXTENT_SHARED)) {
		fail("setup: block 8 %s past EOF after the first shutdown",
		     r < 0 ? "cannot be mapped (FIEMAP)" : r ? "is not shared" : "is not mapped");
		return -1;
	}
	memset(b, 0xcc, 2 * bs);
	if (pwrite_all(fd, b, 2 * bs, 7 * bs))
		return -1;
	memset(b, 0xdd, 100);
	if (pwrite_all(fd, b, 100, 10 * bs))
		return -1;
	SYS(sync_file_range(fd, 10 * bs, 100, SYNC_FILE_RANGE_WAIT_BEFORE |
			    SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER));
	if (shutdown_remount(fd))
		return -1;
	SYS(fd = open(fpath("se"), O_RDONLY));
	SYS(fstat(fd, &st));
	if (st.st_size <= 9 * bs) {
		fail("setup: size %ld after the second shutdown does not reach past block 8",
		     (long)st.st_size);
		close(fd);
		return -1;
	}
	SYS(pread(fd, b, bs, 8 * bs));
	close(fd);
	for (long i = 0; i < bs; i++) {
		if (b[i] == 0 || b[i] == 0xcc)
			continue;
		if (b[i] == 0xaa)
			fail("block 8 byte %ld reads 0xaa, the clone source's data, after two shutdowns (size %ld)",
			     i, (long)st.st_size);
		else
			fail("block 8 byte %ld reads 0x%02x after two shutdowns (size %ld): neither zero, the write's 0xcc nor the clone's 0xaa",
			     i, b[i], (long)st.st_size);
		return -1;
	}
	free(b);
	return 0;
}

const struct vtest reflink_tests[] = {
	{ "reflink-cow", t_reflink_cow },
	{ "reflink-zero", t_reflink_zero },
	{ "reflink-range", t_reflink_range },
	{ "reflink-window", t_reflink_window },
	{ "reflink-unshare-dirty", t_reflink_unshare_dirty },
	{ "reflink-shutdown-eof", t_reflink_shutdown_eof },
};
const unsigned int nr_reflink_tests = sizeof(reflink_tests) /
				      sizeof(reflink_tests[0]);
