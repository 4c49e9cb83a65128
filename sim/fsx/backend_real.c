// SPDX-License-Identifier: GPL-2.0
/*
 * A real file as fsx's op execution backend (lbs-fsx): the same ops as the
 * simulator, through syscalls.  Buffered I/O with pread/pwrite; mmap
 * reads, and mmap writes with msync(MS_SYNC); O_DIRECT on a second
 * descriptor with posix_memalign buffers; a short-copy write by placing
 * the user buffer against a PROT_NONE page; fallocate modes; ftruncate;
 * fsync/fdatasync, and sync_file_range for range sync and single-page
 * background writeback; drop caches by fsync + POSIX_FADV_DONTNEED (or
 * /proc/sys/vm/drop_caches when asked and root); FICLONERANGE,
 * FIDEDUPERANGE and copy_file_range() within the file.  A crash is an
 * XFS shutdown, unmount and mount when asked (fsx_shutdown.c), else not
 * possible: the campaign skips and counts it.  Every error
 * is the file system's answer: nothing is retried (but a short
 * copy_file_range(), which goes on as fstests fsx does).
 */
#define _GNU_SOURCE
#include "backend_real.h"
#include "fsx_shutdown.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#endif

struct real {
	int fd, dfd;
	uint64_t pg;
	uint8_t *dbuf;		/* O_DIRECT bounce buffer */
	uint8_t *fault;		/* readable area, then a PROT_NONE page */
	size_t fault_len;	/* readable bytes */
	bool global_drop;
	uint64_t drops;
	int crash_mode;		/* FSX_CRASH_* */
	uint64_t crashes;
	struct fsx_mount mount;
	char path[4096];
	char stale[64];		/* the device's fill pattern, or "" */
	size_t stale_len;
};

static uint64_t r_size(void *p)
{
	struct real *r = p;
	struct stat st;

	if (fstat(r->fd, &st))
		return 0;
	return (uint64_t)st.st_size;
}

static int64_t full_pread(int fd, void *buf, uint64_t len, uint64_t pos)
{
	uint64_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (uint8_t *)buf + done, len - done,
				  (off_t)(pos + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (int64_t)done : -errno;
		if (n == 0)
			break;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

static int64_t r_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	return full_pread(((struct real *)p)->fd, buf, len, pos);
}

static int64_t r_map_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	struct real *r = p;
	uint64_t size = r_size(p), start, delta;
	void *m;

	if (pos >= size || !len)
		return 0;
	if (len > size - pos)
		len = size - pos;
	start = pos - pos % r->pg;
	delta = pos - start;
	m = mmap(NULL, len + delta, PROT_READ, MAP_SHARED, r->fd, (off_t)start);
	if (m == MAP_FAILED)
		return -errno;
	memcpy(buf, (uint8_t *)m + delta, len);
	munmap(m, len + delta);
	return (int64_t)len;
}

static int64_t r_dio_read(void *p, uint64_t pos, uint64_t len, void *buf)
{
	struct real *r = p;
	ssize_t n;

	if (r->dfd < 0)
		return -EOPNOTSUPP;
	n = pread(r->dfd, r->dbuf, len, (off_t)pos);
	if (n < 0)
		return -errno;
	memcpy(buf, r->dbuf, (size_t)n);
	return n;
}

static int64_t r_write(void *p, uint64_t pos, uint64_t len, const void *buf,
		       size_t fault_at)
{
	struct real *r = p;
	const uint8_t *src = buf;
	ssize_t n;

	if (fault_at < len) {
		/* the copy from user space faults after @fault_at bytes */
		uint8_t *dst = r->fault + r->fault_len - fault_at;
		uint64_t size;
		int err;

		memcpy(dst, buf, fault_at);
		n = pwrite(r->fd, dst, len, (off_t)pos);
		err = n < 0 ? errno : 0;
		/*
		 * XFS cleans up after a short copy past EOF: iomap_write_failed()
		 * truncates the page cache beyond EOF and xfs_buffered_write_
		 * iomap_end() punches the delalloc blocks the write reserved
		 * but did not write.  ext4 (with large folios, 6.16+) keeps
		 * that reservation past the new EOF, and a later O_DIRECT read
		 * over it fails with EIO ("Direct I/O collision with buffered
		 * writes!": iomap_dio_iter() on IOMAP_DELALLOC).  Do the
		 * cleanup from user space: ftruncate() to the same size drops
		 * blocks past EOF (on ext4 also KEEP_SIZE preallocation there;
		 * no byte changes).
		 */
		size = r_size(p);
		if (pos + len > size && ftruncate(r->fd, (off_t)size))
			return -errno;
		return err ? -err : n;
	}
	for (uint64_t done = 0; done < len;) {
		n = pwrite(r->fd, src + done, len - done, (off_t)(pos + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return done ? (int64_t)done : (n ? -errno : -EIO);
		done += (uint64_t)n;
	}
	return (int64_t)len;
}

static int64_t r_dio_write(void *p, uint64_t pos, uint64_t len,
			   const void *buf)
{
	struct real *r = p;
	ssize_t n;

	if (r->dfd < 0)
		return -EOPNOTSUPP;
	memcpy(r->dbuf, buf, len);
	n = pwrite(r->dfd, r->dbuf, len, (off_t)pos);
	return n < 0 ? -errno : n;
}

static int64_t r_mmap_write(void *p, uint64_t pos, uint64_t len,
			    const void *buf)
{
	struct real *r = p;
	uint64_t start = pos - pos % r->pg, delta = pos - start;
	void *m;

	if (pos + len > r_size(p))
		return -EINVAL;		/* the campaign extends first */
	m = mmap(NULL, len + delta, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		 (off_t)start);
	if (m == MAP_FAILED)
		return -errno;
	memcpy((uint8_t *)m + delta, buf, len);
	if (msync(m, len + delta, MS_SYNC)) {
		int e = errno;

		munmap(m, len + delta);
		return -e;
	}
	munmap(m, len + delta);
	return (int64_t)len;
}

static int r_truncate(void *p, uint64_t size)
{
	return ftruncate(((struct real *)p)->fd, (off_t)size) ? -errno : 0;
}

static int r_fallocate(void *p, int mode, uint64_t pos, uint64_t len)
{
	/* FSX_FL_* are FALLOC_FL_* */
	return fallocate(((struct real *)p)->fd, mode, (off_t)pos, (off_t)len) ?
	       -errno : 0;
}

/* fstests fsx's test_*_range(): these say the fs has no such op */
static bool no_such_op(int e)
{
	return e == EOPNOTSUPP || e == ENOTTY || e == ENOSYS || e == EXDEV;
}

static int r_clone(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	int fd = ((struct real *)p)->fd;
	struct file_clone_range fcr = {
		.src_fd = fd, .src_offset = src, .src_length = len,
		.dest_offset = dst,
	};

	if (!ioctl(fd, FICLONERANGE, &fcr))
		return 0;
	return no_such_op(errno) ? -EOPNOTSUPP : -errno;
}

static int r_dedupe(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	int fd = ((struct real *)p)->fd, rc;
	struct file_dedupe_range *fdr = calloc(1, sizeof(*fdr) +
					       sizeof(fdr->info[0]));

	if (!fdr)
		abort();
	fdr->src_offset = src;
	fdr->src_length = len;
	fdr->dest_count = 1;
	fdr->info[0].dest_fd = fd;
	fdr->info[0].dest_offset = dst;
	/* errors of the whole call, or of this destination in its status */
	if (ioctl(fd, FIDEDUPERANGE, fdr))
		rc = no_such_op(errno) ? -EOPNOTSUPP : -errno;
	else if (fdr->info[0].status < 0)
		rc = no_such_op(-fdr->info[0].status) ? -EOPNOTSUPP :
		     fdr->info[0].status;
	else if (fdr->info[0].status == FILE_DEDUPE_RANGE_DIFFERS)
		rc = FSX_DEDUPE_DIFFERS;
	else
		rc = 0;
	free(fdr);
	return rc;
}

/* do_copy_range(): again after a short copy, up to 300 EAGAINs; stops
 * where nothing more is copied (fsx would spin there: past the EOF) */
static int64_t r_copy(void *p, uint64_t src, uint64_t dst, uint64_t len)
{
	int fd = ((struct real *)p)->fd, tries = 0;
	loff_t o1 = (loff_t)src, o2 = (loff_t)dst;
	uint64_t done = 0;

	while (done < len) {
		ssize_t n = copy_file_range(fd, &o1, fd, &o2, len - done, 0);

		if (n < 0 && (errno == EINTR ||
			      (errno == EAGAIN && tries++ < 300)))
			continue;
		if (n < 0 && !done)
			return no_such_op(errno) ? -EOPNOTSUPP : -errno;
		if (n <= 0)
			break;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/*
 * fstests fsx's probes at start (test_clone_range(), test_dedupe_range(),
 * test_copy_range(), test_fallocate(UNSHARE)) on the new, empty file:
 * the ops the file system lacks.  A dedupe of two zero blocks must work:
 * EINVAL there is an old kernel's "no dedupe".
 */
static unsigned probe(struct real *r, uint32_t bs)
{
	struct file_clone_range fcr = { .src_fd = r->fd };
	loff_t o1 = 0, o2 = 1;
	unsigned miss = 0;
	int rc;

	if (ioctl(r->fd, FICLONERANGE, &fcr) && no_such_op(errno))
		miss |= LBS_FSX_F(LBS_FSX_CLONE);
	if (ftruncate(r->fd, 2 * (off_t)bs))
		return miss;
	rc = r_dedupe(r, 0, bs, bs);
	if (rc == -EOPNOTSUPP || rc == -EINVAL)
		miss |= LBS_FSX_F(LBS_FSX_DEDUPE);
	if (ftruncate(r->fd, 0))
		return miss;
	if (copy_file_range(r->fd, &o1, r->fd, &o2, 1, 0) < 0 &&
	    no_such_op(errno))
		miss |= LBS_FSX_F(LBS_FSX_COPY);
	if (fallocate(r->fd, FSX_FL_UNSHARE_RANGE, 0, 1) &&
	    (errno == EOPNOTSUPP || errno == ENOSYS))
		miss |= LBS_FSX_F(LBS_FSX_UNSHARE);
	if (ftruncate(r->fd, 0))
		return miss;
	return miss;
}

static void r_fsync(void *p, uint64_t opno)
{
	struct real *r = p;

	/* both make every byte durable; take turns to run both paths */
	if (opno & 1)
		fdatasync(r->fd);
	else
		fsync(r->fd);
}

static void r_fsync_range(void *p, uint64_t start, uint64_t end)
{
	sync_file_range(((struct real *)p)->fd, (off_t)start,
			(off_t)(end - start + 1),
			SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			SYNC_FILE_RANGE_WAIT_AFTER);
}

static void r_writeback(void *p, uint64_t pos)
{
	struct real *r = p;

	/* start writeback of one page, as background writeback would */
	sync_file_range(r->fd, (off_t)(pos - pos % r->pg), (off_t)r->pg,
			SYNC_FILE_RANGE_WRITE);
}

static void r_drop(void *p)
{
	struct real *r = p;

	fsync(r->fd);
	posix_fadvise(r->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (r->global_drop) {
		int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

		if (fd >= 0) {
			if (write(fd, "3\n", 2) != 2)
				r->global_drop = false;
			close(fd);
		}
	}
	r->drops++;
}

static void r_describe(void *p, uint64_t off, char *buf, size_t n)
{
	struct real *r = p;
	off_t d = lseek(r->fd, (off_t)off, SEEK_DATA);

	snprintf(buf, n, "real file, offset 0x%" PRIx64 " is %s (SEEK_DATA), "
		 "size %" PRIu64, off,
		 d == (off_t)off ? "data" : d < 0 && errno == ENXIO ?
		 "a hole up to EOF" : "a hole", r_size(p));
}

/* the pattern repeats with a period that divides the block size, so a
 * file offset and the device offset it maps to agree modulo it */
static bool r_stale(void *p, uint64_t off, uint8_t v)
{
	struct real *r = p;

	return r->stale_len && r->stale[off % r->stale_len] == (char)v;
}

static int open_dio(struct real *r)
{
	r->dfd = open(r->path, O_RDWR | O_DIRECT);
	return r->dfd < 0 ? errno : 0;
}

/* shut down, unmount, mount, reopen: a failure here is the filesystem's */
static void r_crash(void *p)
{
	struct real *r = p;

	/*
	 * mixed: a crash without the log flush (a size update lost while
	 * its data is on disk), then one with it (a later size update kept
	 * while the page cache is lost), by turns
	 */
	if (fsx_shutdown(r->fd, r->crash_mode == FSX_CRASH_LOGFLUSH ||
			 (r->crash_mode == FSX_CRASH_MIXED && r->crashes % 2)))
		exit(1);
	if (r->dfd >= 0)
		close(r->dfd);
	close(r->fd);
	if (fsx_remount(&r->mount))
		exit(1);
	r->fd = open(r->path, O_RDWR);
	if (r->fd < 0) {
		fprintf(stderr, "lbs-fsx: %s after the shutdown and log "
			"recovery: %s\n", r->path, strerror(errno));
		exit(1);
	}
	open_dio(r);
	r->crashes++;
}

static void r_counters(void *p, struct lbs_fsx_result *res)
{
	res->crashes = ((struct real *)p)->crashes;
}

/* the file (and its name) must survive the first crash */
static int crash_setup(struct real *r, const char *path)
{
	char dir[4096], *slash;
	int dfd;

	if (fsx_mount_of(path, &r->mount))
		return -1;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fsync(r->fd) || dfd < 0 || fsync(dfd)) {
		fprintf(stderr, "lbs-fsx: fsync of %s and its directory: %s\n",
			path, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	close(dfd);
	return 0;
}

int fsx_real_open(struct fsx_backend *b, const char *path,
		  const struct fsx_real_opts *ro, uint64_t max,
		  struct fsx_real_info *info)
{
	struct real *r = calloc(1, sizeof(*r));
	struct statx sx;
	struct statfs sf;
	struct stat st;
	size_t area;

	if (!r)
		abort();
	memset(info, 0, sizeof(*info));
	r->dfd = -1;
	r->pg = (uint64_t)sysconf(_SC_PAGESIZE);
	r->global_drop = ro->global_drop;
	r->crash_mode = ro->crash_mode;
	snprintf(r->path, sizeof(r->path), "%s", path);
	if (ro->stale_pattern) {
		snprintf(r->stale, sizeof(r->stale), "%s", ro->stale_pattern);
		r->stale_len = strlen(r->stale);
	}
	r->fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (r->fd < 0 || fstat(r->fd, &st) || fstatfs(r->fd, &sf)) {
		fprintf(stderr, "lbs-fsx: %s: %s\n", path, strerror(errno));
		if (r->fd >= 0)
			close(r->fd);
		free(r);
		return -1;
	}
	info->st_blksize = (uint32_t)st.st_blksize;
	info->fs_bsize = (uint32_t)sf.f_bsize;
	/* fsx's probe uses st_blksize; a multiple of the block too */
	info->unsupported = probe(r, info->st_blksize > info->fs_bsize ?
				  info->st_blksize : info->fs_bsize);
	/* the oracle cannot bound a lost extent shift (lbs_oracle_lazy_meta) */
	if (r->crash_mode == FSX_CRASH_NOLOGFLUSH ||
	    r->crash_mode == FSX_CRASH_MIXED)
		info->unsupported |= LBS_FSX_F(LBS_FSX_COLLAPSE) |
				     LBS_FSX_F(LBS_FSX_INSERT);
	info->page_size = (uint32_t)r->pg;
	if (r->crash_mode && crash_setup(r, path)) {
		close(r->fd);
		free(r);
		return -1;
	}
	info->dio_errno = open_dio(r);	/* EINVAL: no O_DIRECT */
	info->dio_align = 512;
	if (r->dfd >= 0 && !statx(r->dfd, "", AT_EMPTY_PATH, STATX_DIOALIGN,
				  &sx) && (sx.stx_mask & STATX_DIOALIGN) &&
	    sx.stx_dio_offset_align) {
		info->dio_align = sx.stx_dio_offset_align;
		info->dio_strict = true;
	}
	area = (size_t)((max + r->pg - 1) / r->pg * r->pg);
	r->fault_len = area;
	r->fault = mmap(NULL, area + r->pg, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r->fault == MAP_FAILED ||
	    mprotect(r->fault + area, r->pg, PROT_NONE) ||
	    posix_memalign((void **)&r->dbuf, 4096, area ? area : 4096))
		abort();
	*b = (struct fsx_backend){
		.p = r, .name = "lbs-fsx",
		.stat_bs = info->st_blksize, .page_size = info->page_size,
		.shift_align = info->fs_bsize,
		/* the fs block (s_blocksize): f_bsize, which st_blksize need
		 * not be */
		.remap_align = info->fs_bsize,
		.unsupported = info->unsupported,
		.dio_align = info->dio_align, .dio_strict = info->dio_strict,
		.dio_read_lax = true,	/* iomap: holes, unwritten, EOF */
		.can_crash = r->crash_mode != FSX_CRASH_NONE,
		.crash_lazy_meta = r->crash_mode == FSX_CRASH_NOLOGFLUSH ||
				   r->crash_mode == FSX_CRASH_MIXED,
		.crash_track_tails = r->crash_mode == FSX_CRASH_LOGFLUSH,
		.size = r_size, .read = r_read, .map_read = r_map_read,
		.dio_read = r_dio_read, .write = r_write,
		.dio_write = r_dio_write, .mmap_write = r_mmap_write,
		.truncate = r_truncate, .fallocate = r_fallocate,
		.clone_range = r_clone, .dedupe_range = r_dedupe,
		.copy_range = r_copy, .fsync = r_fsync,
		.fsync_range = r_fsync_range,
		.writeback = r_writeback, .drop_caches = r_drop,
		.describe = r_describe, .is_stale_byte = r_stale,
		.crash = r_crash, .counters = r_counters,
	};
	return 0;
}

void fsx_real_close(struct fsx_backend *b)
{
	struct real *r = b->p;

	if (r->dfd >= 0)
		close(r->dfd);
	close(r->fd);
	munmap(r->fault, r->fault_len + r->pg);
	free(r->dbuf);
	free(r);
}
