// SPDX-License-Identifier: GPL-2.0
/*
 * The crash contract's point 4 (sim/fsx/oracle.h), one case each, step by step:
 * the bytes at and past a size a crash or a truncate left behind are gone,
 * so once the file grows over them and crashes again they read zero, not
 * what the file held there before.  The crash campaigns reach these cases
 * only by chance; here each step that sets a case up is checked, so that a
 * failure to reach it is not taken for the bug, and the failure names the
 * first old byte.  6.1 and 6.12 leave the zeroes of the extension (and of
 * the truncate) in the page cache while writeback of a later block moves
 * the on-disk size past them; the series writes them first (patch 16).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vlib.h"

#define SFR_ALL	(SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | \
		 SYNC_FILE_RANGE_WAIT_AFTER)

/*
 * After the case is set up: @old bytes at [@from, @to) of block 1 must
 * now read zero, the file's size must reach past block 3's write
 */
static int zero_after_growth(int fd, long from, long to, unsigned char old,
			     const char *rule)
{
	unsigned char *b = abuf(bs);
	struct stat st;

	SYS(fstat(fd, &st));
	CHK(st.st_size == 3 * bs + 100,
	    "setup: size %ld after the second shutdown, want %ld (block 3's size update)",
	    (long)st.st_size, 3 * bs + 100);
	SYS(pread(fd, b, bs, bs));
	for (long i = from; i < to; i++) {
		if (!b[i])
			continue;
		fail("block 1 byte %ld reads 0x%02x%s after the file grew past it and crashed (%s)",
		     i, b[i], b[i] == old ? ", what the file held there before" : "", rule);
		free(b);
		return -1;
	}
	free(b);
	return 0;
}

/*
 * The file extends into block 1 past its fsynced size and block 1 is
 * written back; a shutdown without the log flush loses the size update, so
 * those bytes are on disk past the recovered EOF.  A write at block 3
 * zeroes [EOF, block 3) in the page cache, block 3 alone is written back
 * (its conversion moves the on-disk size), and a shutdown with the log
 * flushed keeps that size: block 1 past the old EOF must read zero.
 *
 * The first shutdown loses the size update only if nothing forced the
 * log in between (the log worker does every 30 s): then the case is not
 * set up, which is no fault of the kernel's, and it is tried again, at
 * most CT_TRIES times, before the test is skipped.
 */
#define CT_TRIES 3
static int crash_tail_case(unsigned char *b, unsigned char *d, long eof);

static int t_crash_tail(void)
{
	unsigned char *b = abuf(2 * bs), *d = abuf(bs);
	long eof = bs + 100;
	int r = 1;

	for (int i = 0; i < CT_TRIES && r > 0; i++)
		r = crash_tail_case(b, d, eof);
	free(b);
	free(d);
	if (r > 0)
		return skip("setup: the size update past the fsynced size was on disk after "
			    "each of %d shutdowns without the log flush (the log was pushed "
			    "before them)", CT_TRIES);
	return r;
}

/* 0 checked, -1 failed, 1 not set up (the log was pushed: try again) */
static int crash_tail_case(unsigned char *b, unsigned char *d, long eof)
{
	unsigned int flags;
	struct stat st;
	int fd, r;

	unlink(fpath("ct"));
	SYS(fd = newfile("ct", 0));
	memset(b, 0x11, eof);
	if (pwrite_all(fd, b, eof, 0))
		return -1;
	SYS(fsync(fd));
	memset(b, 0x22, 900);
	if (pwrite_all(fd, b, 900, eof))
		return -1;
	SYS(sync_file_range(fd, bs, bs, SFR_ALL));
	if (shutdown_remount_flush(fd, 0))
		return -1;
	fd = open(fpath("ct"), O_RDWR);
	CHK(fd >= 0, "setup: the fsynced file is gone after the shutdown without the log flush: %s",
	    strerror(errno));
	SYS(fstat(fd, &st));
	if (st.st_size == eof + 900) {
		/* block 1's size update reached the disk: not set up */
		close(fd);
		return 1;
	}
	CHK(st.st_size == eof, "setup: size %ld after the shutdown without the log flush, want the fsynced %ld",
	    (long)st.st_size, eof);
	r = block_on_disk(fd, 1, d, &flags);
	if (r < 0)
		return -1;
	CHK(r > 0 && d[100] == 0x22 && d[999] == 0x22,
	    "setup: block 1 does not hold the bytes written past the recovered size on disk");
	memset(b, 0x33, 100);
	if (pwrite_all(fd, b, 100, 3 * bs))
		return -1;
	SYS(sync_file_range(fd, 3 * bs, 100, SFR_ALL));
	if (shutdown_remount_flush(fd, 1))
		return -1;
	SYS(fd = open(fpath("ct"), O_RDONLY));
	r = zero_after_growth(fd, 100, bs, 0x22, "crash-tail");
	close(fd);
	return r;
}

/*
 * A truncate down into block 1, whose size is durable at once, then the
 * same growth: block 1 past the truncated size must read zero, not the
 * bytes the truncate cut off.
 */
static int t_truncate_tail(void)
{
	unsigned char *b = abuf(2 * bs);
	struct stat st;
	int fd, r;

	SYS(fd = newfile("tt", 0));
	memset(b, 0x44, 2 * bs);
	if (pwrite_all(fd, b, 2 * bs, 0))
		return -1;
	SYS(fsync(fd));
	SYS(ftruncate(fd, bs + 100));
	memset(b, 0x55, 100);
	if (pwrite_all(fd, b, 100, 3 * bs))
		return -1;
	SYS(sync_file_range(fd, 3 * bs, 100, SFR_ALL));
	SYS(fstat(fd, &st));
	CHK(st.st_size == 3 * bs + 100, "setup: size %ld after the write, want %ld",
	    (long)st.st_size, 3 * bs + 100);
	if (shutdown_remount_flush(fd, 1))
		return -1;
	SYS(fd = open(fpath("tt"), O_RDONLY));
	r = zero_after_growth(fd, 100, bs, 0x44, "truncate-tail");
	close(fd);
	free(b);
	return r;
}

const struct vtest crash_tests[] = {
	{ "tail-after-crash", t_crash_tail },
	{ "tail-after-truncate", t_truncate_tail },
};
const unsigned int nr_crash_tests = sizeof(crash_tests) / sizeof(crash_tests[0]);
