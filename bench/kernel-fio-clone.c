// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-clone SRC DST: DST becomes a reflink copy of SRC (FICLONE), as
 * `cp --reflink` makes it. For the bench guest (bench/kernel-fio.sh), whose
 * busybox cp cannot share blocks: the reflink job then writes 4 KiB into
 * the shared file, so every first write into a block is a copy on write.
 */
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int src, dst;

	if (argc != 3) {
		fprintf(stderr, "usage: lbs-clone SRC DST\n");
		return 2;
	}
	src = open(argv[1], O_RDONLY);
	if (src < 0) {
		fprintf(stderr, "lbs-clone: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	dst = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (dst < 0) {
		fprintf(stderr, "lbs-clone: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (ioctl(dst, FICLONE, src) < 0) {
		fprintf(stderr, "lbs-clone: FICLONE %s -> %s: %s\n", argv[1], argv[2],
			strerror(errno));
		return 1;
	}
	if (fsync(dst) < 0 || close(dst) < 0 || close(src) < 0) {
		fprintf(stderr, "lbs-clone: fsync/close: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
