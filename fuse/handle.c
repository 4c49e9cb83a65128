// SPDX-License-Identifier: GPL-2.0
/* The list of fi->fh handles (handle.h). */
#include "lbsfs.h"

void handle_init(struct lbsfs *fs)
{
	pthread_mutex_init(&fs->handle_lock, NULL);
	fs->handles.next = fs->handles.prev = &fs->handles;
}

void handle_track(struct lbsfs *fs, struct handle *h,
		  void (*free)(struct handle *h))
{
	h->free = free;
	pthread_mutex_lock(&fs->handle_lock);
	h->next = fs->handles.next;
	h->prev = &fs->handles;
	h->next->prev = h;
	fs->handles.next = h;
	pthread_mutex_unlock(&fs->handle_lock);
}

static void unlink_handle(struct handle *h)
{
	h->prev->next = h->next;
	h->next->prev = h->prev;
}

void handle_release(struct lbsfs *fs, struct handle *h)
{
	pthread_mutex_lock(&fs->handle_lock);
	unlink_handle(h);
	pthread_mutex_unlock(&fs->handle_lock);
	h->free(h);
}

unsigned long handle_release_all(struct lbsfs *fs)
{
	unsigned long n = 0;

	pthread_mutex_lock(&fs->handle_lock);
	while (fs->handles.next != &fs->handles) {
		struct handle *h = fs->handles.next;

		unlink_handle(h);
		h->free(h);
		n++;
	}
	pthread_mutex_unlock(&fs->handle_lock);
	pthread_mutex_destroy(&fs->handle_lock);
	return n;
}
