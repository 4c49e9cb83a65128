// SPDX-License-Identifier: GPL-2.0
/*
 * The tree: nodes, directory entries, reference counts and the mapping
 * between nodes and FUSE inode numbers (the node's address, as libfuse's
 * passthrough_ll does; the kernel forgets an inode before it is freed).
 */
#define _GNU_SOURCE
#include "lbsfs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct node *node_new(struct lbsfs *fs, enum node_kind kind, mode_t mode)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->kind = kind;
	n->mode = mode;
	n->next = &fs->all;
	n->prev = fs->all.prev;
	fs->all.prev->next = n;
	fs->all.prev = n;
	if (kind == N_REG)
		fs->nfiles++;
	n->nlink = 1;
	n->serial = ++fs->next_serial;
	pthread_mutex_init(&n->lock, NULL);
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	n->atime = n->ctime = n->mtime;
	return n;
}

struct node *dir_find(const struct node *dir, const char *name)
{
	for (size_t i = 0; i < dir->nents; i++)
		if (!strcmp(dir->ents[i].name, name))
			return dir->ents[i].n;
	return NULL;
}

int dir_add(struct node *dir, const char *name, struct node *n)
{
	char *copy = strdup(name), *own = strdup(name);

	if (!copy || !own) {
		free(copy);
		free(own);
		return -ENOMEM;
	}
	if (dir->nents == dir->cap) {
		size_t cap = dir->cap ? 2 * dir->cap : 8;
		struct dent *e = realloc(dir->ents, cap * sizeof(*e));

		if (!e) {
			free(copy);
			free(own);
			return -ENOMEM;
		}
		dir->ents = e;
		dir->cap = cap;
	}
	dir->ents[dir->nents++] = (struct dent){ copy, n };
	free(n->name);
	n->name = own;
	n->parent = dir;
	if (n->kind == N_DIR)
		__atomic_add_fetch(&dir->nsub, 1, __ATOMIC_RELAXED);
	return 0;
}

void dir_remove(struct node *dir, struct node *n)
{
	for (size_t i = 0; i < dir->nents; i++) {
		if (dir->ents[i].n != n)
			continue;
		free(dir->ents[i].name);
		dir->ents[i] = dir->ents[--dir->nents];
		break;
	}
	if (n->kind == N_DIR)
		__atomic_sub_fetch(&dir->nsub, 1, __ATOMIC_RELAXED);
	n->parent = NULL;
}

void node_ref(struct node *n)
{
	n->refs++;
}

void node_destroy(struct lbsfs *fs, struct node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	if (n->kind == N_REG)
		fs->nfiles--;
	lbs_sim_destroy(n->sim);
	for (size_t i = 0; i < n->nents; i++)
		free(n->ents[i].name);
	free(n->ents);
	free(n->name);
	pthread_mutex_destroy(&n->lock);
	free(n);
}

void node_unref(struct lbsfs *fs, struct node *n, uint64_t count)
{
	n->refs = count < n->refs ? n->refs - count : 0;
	/* linked nodes live in their directory; views live while looked up */
	if (n->refs || (n->nlink && !n->target))
		return;
	if (n->target) {	/* a .lbs/map view: drop its pin */
		n->target->view = NULL;
		node_unref(fs, n->target, 1);
	}
	node_destroy(fs, n);
}

void tree_init(struct lbsfs *fs)
{
	fs->all.next = fs->all.prev = &fs->all;
	fs->root = node_new(fs, N_DIR, S_IFDIR | 0755);
	if (!fs->root)
		abort();
	fs->root->refs = 1;	/* never freed while mounted */
	fs->root->uid = getuid();
	fs->root->gid = getgid();
}

void tree_destroy(struct lbsfs *fs)
{
	while (fs->all.next != &fs->all)
		node_destroy(fs, fs->all.next);
}

struct node *node_of(struct lbsfs *fs, fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? fs->root : (struct node *)(uintptr_t)ino;
}

fuse_ino_t ino_of(struct lbsfs *fs, const struct node *n)
{
	return n == fs->root ? FUSE_ROOT_ID : (fuse_ino_t)(uintptr_t)n;
}

struct node *view_of(struct lbsfs *fs, struct node *t)
{
	struct node *v;

	if (t->view)
		return t->view;
	v = node_new(fs, t->kind == N_DIR ? N_MAP_DIR : N_MAP_FILE,
		     t->kind == N_DIR ? S_IFDIR | 0555 : S_IFREG | 0444);
	if (!v)
		return NULL;
	v->target = t;
	node_ref(t);
	t->view = v;
	return v;
}

struct node *node_resolve(struct lbsfs *fs, const char *path)
{
	char *copy = strdup(path), *save = NULL, *c;
	struct node *n = fs->root;

	if (!copy)
		return NULL;
	for (c = strtok_r(copy, "/", &save); c && n;
	     c = strtok_r(NULL, "/", &save))
		n = n->kind == N_DIR ? dir_find(n, c) : NULL;
	free(copy);
	return n;
}

void node_path(const struct node *n, char *buf, size_t len)
{
	const struct node *p;
	size_t need = 0, at;

	for (p = n; p->parent; p = p->parent)
		need += strlen(p->name) + 1;
	if (!n->parent || need + 1 > len) {
		snprintf(buf, len, "%s", n->parent ? "(path too long)" :
			 n->nlink ? "/" : "(unlinked)");
		return;
	}
	at = need;
	buf[at] = 0;
	for (p = n; p->parent; p = p->parent) {
		size_t l = strlen(p->name);

		at -= l;
		memcpy(buf + at, p->name, l);
		buf[--at] = '/';
	}
}

void node_touch(struct node *n, bool mtime)
{
	clock_gettime(CLOCK_REALTIME, &n->ctime);
	if (mtime)
		n->mtime = n->ctime;
}
