// SPDX-License-Identifier: GPL-2.0
/*
 * The flusher's background writeback, which stops when its page budget runs
 * out.  No other test of the suite drives it: fsync, sync_file_range and
 * fadvise write with no budget, and the crash campaigns cannot time a crash
 * into the gap between two background passes.  This test makes one budgeted
 * pass happen, stop, and stay stopped, then looks at the blocks it left.
 *
 * The arithmetic is 6.1's (and 6.12's) fs-writeback.c: a background pass
 * writes at most writeback_chunk_size() pages of an inode, which is
 * min(avg_write_bandwidth / 2, dirty_limit / 8) rounded down to a multiple
 * of MIN_WRITEBACK_PAGES (1024 pages) after adding 1024.  Setting
 * vm.dirty_bytes sets dirty_limit (writeback_set_ratelimit()); with 24 MiB,
 * dirty_limit / 8 is 768 pages and the budget is exactly 1024.  The flusher
 * starts a pass when dirty pages exceed the background threshold and stops
 * when they are back under it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vlib.h"

#define KIB(pages)	((pages) * (PG / 1024))
#define BUDGET		1024L		/* pages: one background pass */
#define NEW_PAGES	1408L		/* the new blocks, in pages */
#define TRIG_PAGES	64L		/* a second writer's pages: the kick */
#define THRESH_BYTES	(24L << 20)	/* vm.dirty_bytes: budget 1024 */
#define BG_HOLD_BYTES	(11L << 20)	/* above every dirty count here */
#define BG_KICK_BYTES	(1152L * PG)	/* under 1 + NEW + TRIG pages, over
					 * what one pass leaves */
#define WAIT_SECONDS	600

/* ---- vm sysctls, restored on every exit --------------------------------*/
static const char *const vm_knobs[] = {
	"dirty_bytes", "dirty_ratio", "dirty_background_bytes",
	"dirty_background_ratio", "dirty_writeback_centisecs",
};
#define NR_VM_KNOBS (sizeof(vm_knobs) / sizeof(vm_knobs[0]))
static char vm_saved[NR_VM_KNOBS][32];

static int vm_io(const char *knob, char *buf, size_t len, int wr)
{
	char path[96];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", knob);
	fd = open(path, wr ? O_WRONLY : O_RDONLY);
	SYS(fd);
	n = wr ? write(fd, buf, strlen(buf)) : read(fd, buf, len - 1);
	close(fd);
	CHK(n >= 0, "%s %s: %s", wr ? "write" : "read", path, strerror(errno));
	if (!wr)
		buf[n] = '\0';
	return 0;
}

static int vm_set(const char *knob, long val)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld\n", val);
	return vm_io(knob, b, sizeof(b), 1);
}

static int vm_save(void)
{
	for (unsigned int i = 0; i < NR_VM_KNOBS; i++)
		if (vm_io(vm_knobs[i], vm_saved[i], sizeof(vm_saved[i]), 0))
			return -1;
	return 0;
}

/* The kernel keeps either the bytes or the ratio of each limit: write
 * back whichever was set. */
static void vm_restore(void)
{
	for (unsigned int i = 0; i < NR_VM_KNOBS; i += 2) {
		unsigned int k = i;

		if (i + 1 < NR_VM_KNOBS && atol(vm_saved[i]) == 0)
			k = i + 1;
		if (vm_saved[k][0] && vm_io(vm_knobs[k], vm_saved[k], 0, 1))
			fprintf(stderr, "wb-budget-stop: could not restore vm.%s\n",
				vm_knobs[k]);
	}
}

/* a /proc/meminfo field in kB, -1 if missing */
static long meminfo_kb(const char *key)
{
	char line[128];
	size_t kl = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = atol(line + kl + 1);
			break;
		}
	fclose(f);
	return v;
}

/* Data no other test writes: every 8 bytes hold the file offset and a
 * per-run tag, so a page found on disk is ours and in its place. */
static uint64_t tag;

static void fill(unsigned char *b, long off, long len)
{
	for (long i = 0; i < len; i += 8) {
		uint64_t w = tag ^ (uint64_t)(off + i) << 16;

		memcpy(b + i, &w, 8);
	}
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* a second process dirties the pages: its balance_dirty_pages() call
 * (after 32 newly dirtied pages, for a new task) starts the flusher */
static int kick_writer(const char *name, long off, long len)
{
	pid_t pid = fork();
	int st;

	SYS(pid);
	if (!pid) {
		unsigned char *b = abuf(len);
		int fd = open(fpath(name), O_WRONLY);

		fill(b, off, len);
		_exit(fd < 0 || pwrite(fd, b, len, off) != len);
	}
	SYS(waitpid(pid, &st, 0));
	CHK(WIFEXITED(st) && !WEXITSTATUS(st), "the second writer failed (status 0x%x)", st);
	return 0;
}

/* The flusher's pass has cleaned at least `pages` of the dirty pages and
 * nothing is under writeback.  meminfo's counters lag by a few pages per
 * CPU, hence the slack; a pass in progress holds ~1000 pages under
 * writeback until its ioend completes. */
static int wait_pass(long dirty_before, long pages)
{
	long d = -1, w = -1;

	for (int i = 0; i < WAIT_SECONDS * 10; i++) {
		d = meminfo_kb("Dirty");
		w = meminfo_kb("Writeback");
		CHK(d >= 0 && w >= 0, "/proc/meminfo has no Dirty or Writeback");
		if (d <= KIB(dirty_before - pages + 32) && w <= KIB(32))
			return 0;
		sleep_ms(100);
	}
	fail("no background writeback pass within %d s (Dirty %ld kB, Writeback %ld kB, %ld kB dirty before)",
	     WAIT_SECONDS, d, w, KIB(dirty_before));
	return -1;
}

/* a block's extent state and, if it is allocated, its disk contents */
enum bstate { B_HOLE, B_DELALLOC, B_UNWRITTEN, B_WRITTEN };

static int block_state(int fd, long blk, unsigned char *raw, enum bstate *st)
{
	unsigned int flags;
	int r = block_on_disk(fd, blk, raw, &flags);

	if (r < 0)
		return -1;
	if (!r)
		*st = B_HOLE;
	else if (flags & (FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN))
		*st = B_DELALLOC;
	else if (flags & FIEMAP_EXTENT_UNWRITTEN)
		*st = B_UNWRITTEN;
	else
		*st = B_WRITTEN;
	return 0;
}

/*
 * Check the blocks one background pass left: written blocks form a prefix
 * and hold on disk exactly what was written; no page of an unwritten block
 * is on disk yet (that would be a pass that stopped inside a block, whose
 * completion either converts it with its other pages stale or leaves the
 * written pages unconverted).  Returns the last written block.
 */
static int check_pass(int fd, const struct model *m, long nblk, long *last,
		      const char *mode)
{
	unsigned char *raw = abuf(bs);
	enum bstate st;
	long unwritten = 0;

	*last = -1;
	for (long b = 0; b < nblk; b++) {
		if (block_state(fd, b, raw, &st))
			return -1;
		if (st == B_WRITTEN) {
			CHK(*last == b - 1, "block %ld written after block %ld was not: the pass skipped blocks",
			    b, *last + 1);
			*last = b;
			if (cmp_model(m, raw, b * bs, bs, "written block on disk after the pass"))
				return -1;
			continue;
		}
		CHK(st != B_HOLE, "block %ld is a hole", b);
		unwritten += st == B_UNWRITTEN;
		if (st != B_UNWRITTEN)
			continue;
		for (long p = 0; p < bs; p += PG)
			CHK(memcmp(raw + p, m->d + b * bs + p, PG),
			    "block %ld is unwritten but its page %ld is on disk: background writeback stopped inside the block (last written block %ld)",
			    b, p / PG, *last);
	}
	free(raw);
	fprintf(stderr, "wb-budget-stop (%s): blocks 0-%ld written, %ld unwritten, of %ld\n",
		mode, *last, unwritten, nblk);
	CHK(*last >= 1 && *last < nblk - 1,
	    "the pass wrote blocks 0-%ld of %ld (%s): no budgeted stop to check (chunk or thresholds not as this test sets them)",
	    *last, nblk, mode);
	/* a folio is charged its pages: the pass ends within a folio (one
	 * block) and the odd page past its budget */
	CHK((*last + 1) * (bs / PG) <= BUDGET + 1 + bs / PG,
	    "(%s): the pass wrote %ld pages, past the budget of %ld and one block: a folio not charged its pages",
	    mode, (*last + 1) * (bs / PG), BUDGET);
	return 0;
}

/*
 * After a shutdown with the log flushed: the blocks the pass wrote read back
 * in full (their conversion and size update were logged), everything after
 * reads zeroes, never old disk contents.
 */
static int check_crash(const char *name, const struct model *m, long last)
{
	long keep = (last + 1) * bs;
	unsigned char *b;
	struct stat sb;
	struct model cut;
	int fd;

	SYS(fd = open(fpath(name), O_RDONLY));
	SYS(fstat(fd, &sb));
	CHK(sb.st_size >= keep && sb.st_size <= m->size,
	    "size %ld after shutdown; the pass wrote %ld bytes of %ld", (long)sb.st_size, keep, m->size);
	m_init(&cut, m->cap);
	m_write(&cut, 0, m->d, keep);
	cut.size = sb.st_size;
	b = abuf(sb.st_size);
	CHK(pread(fd, b, sb.st_size, 0) == sb.st_size, "read after shutdown: %s", strerror(errno));
	close(fd);
	if (cmp_model(&cut, b, 0, sb.st_size, "after shutdown and log recovery"))
		return -1;
	free(b);
	free(cut.d);
	return 0;
}

/*
 * One budgeted pass over a file of @pages (order-0 pages: the budget ends
 * inside a block, where the pass must go on to the block's end) or of
 * large folios (the write path's, patches 36-37: the budget is charged
 * per page, patch 35, and runs out at a folio's end).  Pages are had
 * deterministically by caching the whole file first: fadvise's readahead
 * (page_cache_ra_unbounded()) makes order-0 folios, and a write keeps a
 * block that has a page cached in pages.
 */
static int wb_budget_stop(int pages)
{
	const char *name = pages ? "wb-budget" : "wb-budget-lf";
	const char *mode = pages ? "pages" : "large folios";
	long ppb = bs / PG, nblk = 1 + NEW_PAGES / ppb + TRIG_PAGES / ppb;
	long dirty_before = 1 + NEW_PAGES + TRIG_PAGES, last, base, dirty;
	unsigned char *b = abuf(16L << 20);
	struct model m;
	int fd, dfd, c;

	if (vm_set("dirty_writeback_centisecs", 0) ||
	    vm_set("dirty_bytes", THRESH_BYTES) ||
	    vm_set("dirty_background_bytes", BG_HOLD_BYTES))
		return -1;
	/* the flusher's share of the threshold follows recent completions:
	 * make them this device's.  The file's blocks, freed, hold the
	 * stale pattern for the blocks allocated next. */
	for (long i = 0; i < 16L << 20; i += 8)
		memcpy(b + i, STALE, 8);
	SYS(fd = newfile("wb-warm", 0));
	if (pwrite_all(fd, b, 16L << 20, 0))
		return -1;
	SYS(fsync(fd));
	close(fd);
	unlink(fpath("wb-warm"));

	/* block 0 written by O_DIRECT, then one page of it dirty: the odd
	 * page that puts the budget's end inside a block.  O_DIRECT leaves
	 * the writeback index at 0, so the pass starts at page 0. */
	m_init(&m, nblk * bs);
	SYS(dfd = newfile(name, O_DIRECT));
	tag = (uint64_t)time(NULL) << 32 ^ (uint64_t)getpid() << 8 ^ 0x5a;
	fill(b, 0, bs);
	b[0] ^= 1;	/* page 0 is rewritten below */
	if (pwrite_all(dfd, b, bs, 0))
		return -1;
	m_write(&m, 0, b, bs);
	close(dfd);
	SYS(fd = open(fpath(name), O_RDWR));
	if (pages) {
		SYS(ftruncate(fd, nblk * bs));
		m.size = nblk * bs;
		c = cache_pages(fd, nblk * bs);
		if (c < 0)
			return -1;
		if (!c) {
			fprintf(stderr, "wb-budget-stop (pages): not every page cached, again\n");
			goto again;
		}
	}
	base = meminfo_kb("Dirty");	/* before any of this file's pages */
	fill(b, 0, PG);
	if (pwrite_all(fd, b, PG, 0))
		return -1;
	m_write(&m, 0, b, PG);
	fill(b, bs, NEW_PAGES * PG);
	if (pwrite_all(fd, b, NEW_PAGES * PG, bs))
		return -1;
	m_write(&m, bs, b, NEW_PAGES * PG);

	dirty = meminfo_kb("Dirty");
	CHK(base >= 0 && dirty >= 0, "/proc/meminfo has no Dirty");
	if (dirty < base + KIB(1 + NEW_PAGES - 32)) {
		/* reclaim woke the flusher (memory fragmented: kswapd works
		 * for large folios) */
		fprintf(stderr, "wb-budget-stop (%s): Dirty %ld kB after writing %ld kB (%ld kB before): writeback ran before the kick, again\n",
			mode, dirty, KIB(NEW_PAGES + 1), base);
		goto again;
	}

	if (vm_set("dirty_background_bytes", BG_KICK_BYTES))
		return -1;
	if (kick_writer(name, bs + NEW_PAGES * PG, TRIG_PAGES * PG))
		return -1;
	fill(b, bs + NEW_PAGES * PG, TRIG_PAGES * PG);
	m_write(&m, bs + NEW_PAGES * PG, b, TRIG_PAGES * PG);
	if (wait_pass(base / KIB(1) + dirty_before, BUDGET - 24))
		return -1;
	SYS(sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE));
	if (check_pass(fd, &m, nblk, &last, mode))
		return -1;

	free(b);
	if (shutdown_remount(fd) || check_crash(name, &m, last))
		return -1;
	free(m.d);
	return 0;
again:	/* no pass to time: the caller starts over */
	close(fd);
	free(b);
	free(m.d);
	return 1;
}

static int t_wb_budget_stop(void)
{
	int ret;

	if (vm_save())
		return -1;
	for (int pages = 1; pages >= 0; pages--) {
		int tries = 0;

		while ((ret = wb_budget_stop(pages)) == 1 && ++tries < 3)
			;
		if (ret == 1) {
			fail("writeback ran before the kick %d times (%s): no budgeted pass to time",
			     tries, pages ? "pages" : "large folios");
			ret = -1;
		}
		if (ret)
			break;
	}
	vm_restore();
	return ret;
}

/* sectors written to the test device so far (/sys/block/NAME/stat) */
static long long dev_sectors_written(void)
{
	char path[128], line[512];
	const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	long long v[7] = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", name);
	f = fopen(path, "r");
	if (!f) {
		fail("open %s: %s", path, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "%lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6]) != 7) {
		fclose(f);
		fail("%s: no write sector count", path);
		return -1;
	}
	fclose(f);
	return v[6];
}

/*
 * Write back and retire everything the filesystem holds (freeze pushes the
 * AIL), so that no metadata writeback of earlier tests lands in a window
 * that small_write_cost() measures: at 64k blocks one inode cluster or
 * directory block is a whole 64k.
 */
static int quiesce(void)
{
	int fd = open(mnt, O_RDONLY | O_DIRECTORY), ret = 0;

	if (fd < 0) {
		fail("open %s: %s", mnt, strerror(errno));
		return -1;
	}
	if (ioctl(fd, FIFREEZE, 0) || ioctl(fd, FITHAW, 0)) {
		fail("freeze and thaw %s: %s", mnt, strerror(errno));
		ret = -1;
	}
	close(fd);
	return ret;
}

/*
 * Bytes the device took for a 100-byte write at @off of @fd and its fsync,
 * or with @off < 0 for a timestamp update and its fsync: the log's share
 * of the write alone, since the write logs the same inode change.
 */
static long long small_write_cost(int fd, long off)
{
	static const unsigned char b[100] = { 0xd1 };
	long long s0, s1;

	if (quiesce() || (s0 = dev_sectors_written()) < 0)
		return -1;
	if (off < 0 ? futimens(fd, NULL) != 0 :
		      pwrite(fd, b, sizeof(b), off) != (ssize_t)sizeof(b)) {
		fail("%s at %ld: %s", off < 0 ? "futimens" : "write", off,
		     strerror(errno));
		return -1;
	}
	if (fsync(fd)) {
		fail("fsync: %s", strerror(errno));
		return -1;
	}
	s1 = dev_sectors_written();
	return s1 < 0 ? -1 : (s1 - s0) * 512;
}

/*
 * The least of a few such costs: anything else the device took in a
 * window (the log worker covering the log, say) only adds, while writing
 * clean blocks back adds the same every time, since each write dirties
 * the block again.
 */
#define COST_TRIES 3
static long long least_write_cost(int fd, long off, long long costs[])
{
	long long least = -1;

	for (int i = 0; i < COST_TRIES; i++) {
		costs[i] = small_write_cost(fd, off);
		if (costs[i] < 0)
			return -1;
		if (least < 0 || costs[i] < least)
			least = costs[i];
	}
	return least;
}

/*
 * A folio of several blocks writes back only the blocks a write dirtied
 * (series patch 40, a dirty bit per block): read a file cold, so readahead
 * caches it in folios of several blocks, write 100 bytes into one block
 * and fsync.  The device must take no more than that block and the log's
 * share, not the folio's other blocks, clean and possibly shared by
 * reflink.  The log's share is measured on its own, by a timestamp update
 * and fsync.  Where memory gives no large folio the block is in pages, the
 * write sends one page or the block, and the test holds trivially; the
 * census shows which regime ran.  At 4k blocks this is 6.1's own readahead
 * folios: stock 6.1 writes them back whole.
 */
static int t_dirty_blocks(void)
{
	long size = 64 * bs < (2L << 20) ? 2L << 20 : 64 * bs;
	long off = size / 2 + bs + 100, pos;
	unsigned char *buf = abuf(size);
	long long logc, cost, lc[COST_TRIES], c[COST_TRIES];
	int fd;

	CHK(buf, "out of memory");
	fillpat(buf, 0, size, 41);
	SYS(fd = open(fpath("dirty-blocks"), O_CREAT | O_TRUNC | O_RDWR, 0644));
	if (pwrite_all(fd, buf, size, 0))
		return -1;
	SYS(fsync(fd));
	if (drop_caches())
		return -1;
	for (pos = 0; pos < size; pos += 1L << 20)
		CHK(pread(fd, buf, 1L << 20, pos) == 1L << 20,
		    "cold read at %ld: %s", pos, strerror(errno));
	logc = least_write_cost(fd, -1, lc);
	cost = least_write_cost(fd, off, c);
	if (logc < 0 || cost < 0)
		return -1;
	/* the block, the log's share twice, and two pages of slack: from 16k
	 * blocks up, a folio of two blocks written whole is still more */
	CHK(cost <= bs + 2 * logc + 2 * PG,
	    "a 100-byte write into a cached file, then fsync, wrote %lld bytes to the device (least of %lld %lld %lld): more than its block (%ld), twice the log's share (%lld; least of %lld %lld %lld) and 8k: clean blocks of its folio written back",
	    cost, c[0], c[1], c[2], bs, logc, lc[0], lc[1], lc[2]);
	close(fd);
	return 0;
}

const struct vtest writeback_tests[] = {
	{ "wb-budget-stop", t_wb_budget_stop },
	{ "dirty-blocks", t_dirty_blocks },
};
const unsigned int nr_writeback_tests = sizeof(writeback_tests) /
					sizeof(writeback_tests[0]);
