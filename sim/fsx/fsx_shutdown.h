/* SPDX-License-Identifier: GPL-2.0 */
/* lbs-fsx's crash on a real XFS: shutdown, unmount, mount (fsx_shutdown.c). */
#ifndef LBS_FSX_SHUTDOWN_H
#define LBS_FSX_SHUTDOWN_H

#include <stdbool.h>

struct fsx_mount {
	char mnt[1024], dev[1024], fstype[64];
};

/* the mount holding @path, which must be a whole XFS; 0 or -1 (printed) */
int fsx_mount_of(const char *path, struct fsx_mount *m);
/* XFS_IOC_GOINGDOWN on @fd's filesystem, the log flushed first or not */
int fsx_shutdown(int fd, bool logflush);
/* unmount (every descriptor on it closed) and mount again: log recovery */
int fsx_remount(const struct fsx_mount *m);

#endif
