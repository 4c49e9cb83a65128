/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Everything the daemon hands the kernel as fi->fh (open files, directory
 * listings) is on one list.  RELEASE and RELEASEDIR are asynchronous: a
 * close(2) returns before they arrive, and an unmount (or a signal that
 * ends the loop) can beat them, so whatever is still on the list after the
 * loop has ended is freed there.
 */
#ifndef LBS_FUSE_HANDLE_H
#define LBS_FUSE_HANDLE_H

#include <stddef.h>
#include <stdint.h>

struct lbsfs;

struct handle {
	struct handle *next, *prev;	/* fs->handles, under handle_lock */
	void (*free)(struct handle *h);	/* frees the object holding @h */
};

#define handle_entry(h, type, member) \
	((type *)(void *)((char *)(h) - offsetof(type, member)))

static inline struct handle *handle_of(uint64_t fh)
{
	return (struct handle *)(uintptr_t)fh;
}

/* an empty list and its lock */
void handle_init(struct lbsfs *fs);
/* put @h on the list; @free is what RELEASE or the unmount calls */
void handle_track(struct lbsfs *fs, struct handle *h,
		  void (*free)(struct handle *h));
/* RELEASE/RELEASEDIR: take @h off the list and free it */
void handle_release(struct lbsfs *fs, struct handle *h);
/* the loop has ended: free what the kernel never released (how many),
 * and the lock */
unsigned long handle_release_all(struct lbsfs *fs);

#endif
