/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fsx.c takes from fstests' global.h (and its config.h): the
 * headers it relies on and rounddown_64()/roundup_64().  Written for this
 * project; not fstests' file.  AIO and URING stay undefined (no libaio,
 * no liburing): fsx uses preadv2/pwritev2 only.
 */
#ifndef LBS_FSTESTS_GLOBAL_H
#define LBS_FSTESTS_GLOBAL_H

#define _GNU_SOURCE
#include <assert.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define HAVE_LINUX_FALLOC_H 1
#define HAVE_COPY_FILE_RANGE 1

/* Linux 6.17's fallocate mode; fsx probes it (EOPNOTSUPP: disabled) */
#ifndef FALLOC_FL_WRITE_ZEROES
#define FALLOC_FL_WRITE_ZEROES 0x80
#endif

static inline unsigned long long rounddown_64(unsigned long long x,
					      unsigned int y)
{
	x /= y;
	return x * y;
}

static inline unsigned long long roundup_64(unsigned long long x,
					    unsigned int y)
{
	return rounddown_64(x + y - 1, y);
}

#endif
