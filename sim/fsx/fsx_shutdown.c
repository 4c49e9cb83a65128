// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-fsx's crash on a real XFS: shut the filesystem down the way fstests'
 * shutdown tests do (XFS_IOC_GOINGDOWN), unmount, mount again (log
 * recovery runs) and reopen the file.  What survives is what a power cut
 * at that moment would have left, less what the flag says:
 * XFS_FSOP_GOING_FLAGS_LOGFLUSH writes every committed transaction first
 * (metadata durable at once, data only where written back), NOLOGFLUSH
 * keeps only what was already in the log on disk.
 */
#define _GNU_SOURCE
#include "fsx_shutdown.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* xfs_fs.h, which a plain libc system does not install */
#ifndef XFS_IOC_GOINGDOWN
#define XFS_IOC_GOINGDOWN _IOR('X', 125, uint32_t)
#endif
#define XFS_FSOP_GOING_FLAGS_LOGFLUSH	0x1
#define XFS_FSOP_GOING_FLAGS_NOLOGFLUSH	0x2

/* /proc/self/mountinfo escapes space, tab, newline and backslash */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

int fsx_mount_of(const char *path, struct fsx_mount *m)
{
	char line[4096];
	struct stat st;
	FILE *f;
	int found = 0;

	memset(m, 0, sizeof(*m));
	if (stat(path, &st)) {
		fprintf(stderr, "lbs-fsx: %s: %s\n", path, strerror(errno));
		return -1;
	}
	f = fopen("/proc/self/mountinfo", "r");
	if (!f) {
		fprintf(stderr, "lbs-fsx: /proc/self/mountinfo: %s\n",
			strerror(errno));
		return -1;
	}
	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS...] - FSTYPE SOURCE
	 * SUPEROPTS; the last match wins (the mount on top) */
	while (fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char root[1024], mp[1024], fstype[64], src[1024];
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*d %*d %u:%u %1023s %1023s", &maj,
				   &min, root, mp) != 4 ||
		    sscanf(sep + 3, "%63s %1023s", fstype, src) != 2)
			continue;
		if (makedev(maj, min) != st.st_dev)
			continue;
		unescape(root);
		unescape(mp);
		unescape(src);
		if (strcmp(root, "/")) {	/* a bind mount of a subtree */
			found = -1;
			continue;
		}
		snprintf(m->mnt, sizeof(m->mnt), "%s", mp);
		snprintf(m->dev, sizeof(m->dev), "%s", src);
		snprintf(m->fstype, sizeof(m->fstype), "%s", fstype);
		found = 1;
	}
	fclose(f);
	if (found <= 0) {
		fprintf(stderr, "lbs-fsx: %s: %s\n", path, found ?
			"on a bind mount of a subtree: cannot remount it" :
			"no mount in /proc/self/mountinfo");
		return -1;
	}
	if (strcmp(m->fstype, "xfs")) {
		fprintf(stderr, "lbs-fsx: %s: on %s, not xfs: no "
			"XFS_IOC_GOINGDOWN\n", path, m->fstype);
		return -1;
	}
	return 0;
}

int fsx_shutdown(int fd, bool logflush)
{
	uint32_t flags = logflush ? XFS_FSOP_GOING_FLAGS_LOGFLUSH :
				    XFS_FSOP_GOING_FLAGS_NOLOGFLUSH;

	if (ioctl(fd, XFS_IOC_GOINGDOWN, &flags)) {
		fprintf(stderr, "lbs-fsx: XFS_IOC_GOINGDOWN: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

int fsx_remount(const struct fsx_mount *m)
{
	/* a shut down XFS may still be finishing its I/O: EBUSY for a while */
	for (int i = 0; umount(m->mnt); i++) {
		if (errno != EBUSY || i == 100) {
			fprintf(stderr, "lbs-fsx: umount %s: %s\n", m->mnt,
				strerror(errno));
			return -1;
		}
		usleep(100000);
	}
	/* the filesystem's defaults, as the suite mounts it */
	if (mount(m->dev, m->mnt, m->fstype, 0, NULL)) {
		fprintf(stderr, "lbs-fsx: mount %s on %s after the shutdown "
			"(log recovery): %s\n", m->dev, m->mnt,
			strerror(errno));
		return -1;
	}
	return 0;
}
