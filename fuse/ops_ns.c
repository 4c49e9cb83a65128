// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace operations: lookup/forget, attributes, create, mkdir, unlink,
 * rmdir, rename, directory listing and statfs.  .lbs/ is read-only
 * except .lbs/ctl; .lbs/map/ mirrors the tree with one view node per
 * directory or file looked up there.
 */
#define _GNU_SOURCE
#include "lbsfs.h"
#include "ofile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

/* the tree changes only through the kernel, except under .lbs/map/, where
 * renames of the real files change what a name shows */
#define ENTRY_TIMEOUT 1.0
/* sizes change behind the kernel's back (crash through .lbs/ctl) */
#define ATTR_TIMEOUT 0.0

static struct lbsfs *fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

/* ns_lock held: take a kernel reference and describe @n */
static void fill_entry(struct lbsfs *fs, struct node *n,
		       struct fuse_entry_param *e)
{
	memset(e, 0, sizeof(*e));
	node_ref(n);
	e->ino = ino_of(fs, n);
	e->attr_timeout = ATTR_TIMEOUT;
	e->entry_timeout = n->kind == N_DIR || n->kind == N_REG ?
			   ENTRY_TIMEOUT : 0.0;
	node_stat(fs, n, &e->attr);
}

static struct node *lookup_child(struct lbsfs *fs, struct node *p,
				 const char *name, int *err)
{
	struct node *t;

	*err = ENOENT;
	switch (p->kind) {
	case N_DIR:
		if (p == fs->root && !strcmp(name, ".lbs"))
			return fs->lbs_dir;
		return dir_find(p, name);
	case N_LBS_DIR:
		return !strcmp(name, "ctl") ? fs->ctl :
		       !strcmp(name, "stats") ? fs->stats :
		       !strcmp(name, "map") ? fs->map_root : NULL;
	case N_MAP_DIR:
		t = dir_find(p->target, name);
		if (!t)
			return NULL;
		*err = ENOMEM;
		return view_of(fs, t);
	default:
		*err = ENOTDIR;
		return NULL;
	}
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct lbsfs *fs = fs_of(req);
	struct fuse_entry_param e;
	struct node *n;
	int err;

	pthread_mutex_lock(&fs->ns_lock);
	n = lookup_child(fs, node_of(fs, parent), name, &err);
	if (n)
		fill_entry(fs, n, &e);
	pthread_mutex_unlock(&fs->ns_lock);
	if (n)
		fuse_reply_entry(req, &e);
	else
		fuse_reply_err(req, err);
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	struct lbsfs *fs = fs_of(req);

	pthread_mutex_lock(&fs->ns_lock);
	node_unref(fs, node_of(fs, ino), nlookup);
	pthread_mutex_unlock(&fs->ns_lock);
	fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *forgets)
{
	struct lbsfs *fs = fs_of(req);

	pthread_mutex_lock(&fs->ns_lock);
	for (size_t i = 0; i < count; i++)
		node_unref(fs, node_of(fs, forgets[i].ino),
			   forgets[i].nlookup);
	pthread_mutex_unlock(&fs->ns_lock);
	fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct lbsfs *fs = fs_of(req);
	struct stat st;

	(void)fi;
	node_stat(fs, node_of(fs, ino), &st);
	fuse_reply_attr(req, &st, ATTR_TIMEOUT);
}

static void set_time(struct timespec *t, const struct timespec *v, bool now)
{
	if (now)
		clock_gettime(CLOCK_REALTIME, t);
	else
		*t = *v;
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	struct lbsfs *fs = fs_of(req);
	struct node *n = node_of(fs, ino);
	struct stat st;
	int err = 0;

	(void)fi;
	if (n->kind != N_DIR && n->kind != N_REG) {
		fuse_reply_err(req, EPERM);
		return;
	}
	pthread_mutex_lock(&n->lock);
	if (to_set & FUSE_SET_ATTR_SIZE) {
		err = n->kind == N_REG ?
		      -lbs_sim_truncate(n->sim, (uint64_t)attr->st_size) :
		      EISDIR;
		if (!err)
			node_touch(n, true);
	}
	if (!err) {
		if (to_set & FUSE_SET_ATTR_MODE)
			n->mode = (n->mode & S_IFMT) | (attr->st_mode & 07777);
		if (to_set & FUSE_SET_ATTR_UID)
			n->uid = attr->st_uid;
		if (to_set & FUSE_SET_ATTR_GID)
			n->gid = attr->st_gid;
		if (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_ATIME_NOW))
			set_time(&n->atime, &attr->st_atim,
				 to_set & FUSE_SET_ATTR_ATIME_NOW);
		if (to_set & (FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_MTIME_NOW))
			set_time(&n->mtime, &attr->st_mtim,
				 to_set & FUSE_SET_ATTR_MTIME_NOW);
		clock_gettime(CLOCK_REALTIME, &n->ctime);
	}
	pthread_mutex_unlock(&n->lock);
	if (err) {
		fuse_reply_err(req, err);
		return;
	}
	node_stat(fs, n, &st);
	fuse_reply_attr(req, &st, ATTR_TIMEOUT);
}

/* ns_lock held: may @name be made in @p?  0 or an errno */
static int may_create(struct lbsfs *fs, struct node *p, const char *name)
{
	if (p->kind != N_DIR)
		return p->kind == N_REG ? ENOTDIR : EPERM;
	if (!p->nlink)
		return ENOENT;		/* a removed directory */
	if (strlen(name) > 255)
		return ENAMETOOLONG;
	if (dir_find(p, name) || (p == fs->root && !strcmp(name, ".lbs")))
		return EEXIST;
	return 0;
}

static void owner_of(fuse_req_t req, struct node *n)
{
	const struct fuse_ctx *c = fuse_req_ctx(req);

	n->uid = c->uid;
	n->gid = c->gid;
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	struct lbsfs *fs = fs_of(req);
	struct node *p = node_of(fs, parent), *n = NULL;
	struct fuse_entry_param e;
	int err;

	pthread_mutex_lock(&fs->ns_lock);
	err = may_create(fs, p, name);
	if (!err) {
		n = node_new(fs, N_DIR, S_IFDIR | (mode & 07777));
		err = n ? -dir_add(p, name, n) : ENOMEM;
	}
	if (!err) {
		owner_of(req, n);
		node_touch(p, true);
		fill_entry(fs, n, &e);
	} else if (n) {
		node_destroy(fs, n);
	}
	pthread_mutex_unlock(&fs->ns_lock);
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

/* a new regular file with its simulator instance (made before ns_lock:
 * allocating the simulated device takes a while) */
static struct node *new_file(struct lbsfs *fs, mode_t mode, int *err)
{
	char msg[256];
	struct node *n;
	struct lbs_sim *sim = lbs_sim_create_lf(&fs->cfg, &fs->lf, msg,
						sizeof(msg));

	if (!sim) {
		fprintf(stderr, "lbs-fuse: create: %s\n", msg);
		*err = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&fs->ns_lock);
	/* --files: the memory budget */
	n = fs->nfiles < fs->max_files ?
	    node_new(fs, N_REG, S_IFREG | (mode & 07777)) : NULL;
	*err = fs->nfiles < fs->max_files ? ENOMEM : ENOSPC;
	if (n)
		n->sim = sim;
	pthread_mutex_unlock(&fs->ns_lock);
	if (!n)
		lbs_sim_destroy(sim);
	return n;
}

static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	struct lbsfs *fs = fs_of(req);
	struct node *p = node_of(fs, parent), *n;
	struct fuse_entry_param e;
	int err = 0;

	n = new_file(fs, mode, &err);
	if (!n) {
		fuse_reply_err(req, err);
		return;
	}
	pthread_mutex_lock(&fs->ns_lock);
	err = may_create(fs, p, name);
	if (!err)
		err = -dir_add(p, name, n);
	if (!err) {
		owner_of(req, n);
		node_touch(p, true);
		err = ofile_open(fs, n, fi);
		if (!err)
			fill_entry(fs, n, &e);
	}
	if (err && !n->parent)		/* never linked */
		node_destroy(fs, n);
	pthread_mutex_unlock(&fs->ns_lock);
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_create(req, &e, fi);
}

/* ns_lock held: take @n out of @p for good (unlink, rmdir, rename over) */
static void drop_name(struct lbsfs *fs, struct node *p, struct node *n)
{
	dir_remove(p, n);
	__atomic_store_n(&n->nlink, 0, __ATOMIC_RELAXED);
	pthread_mutex_lock(&n->lock);
	node_touch(n, false);
	pthread_mutex_unlock(&n->lock);
	node_ref(n);
	node_unref(fs, n, 1);	/* frees it if the kernel holds none */
}

static void remove_entry(fuse_req_t req, fuse_ino_t parent, const char *name,
			 bool dir)
{
	struct lbsfs *fs = fs_of(req);
	struct node *p = node_of(fs, parent), *n;
	int err = 0;

	pthread_mutex_lock(&fs->ns_lock);
	n = p->kind == N_DIR ? dir_find(p, name) : NULL;
	if (p->kind != N_DIR || (p == fs->root && !strcmp(name, ".lbs")))
		err = p->kind == N_REG ? ENOTDIR : EPERM;
	else if (!n)
		err = ENOENT;
	else if (dir && n->kind != N_DIR)
		err = ENOTDIR;
	else if (!dir && n->kind == N_DIR)
		err = EISDIR;
	else if (dir && n->nents)
		err = ENOTEMPTY;
	if (!err) {
		drop_name(fs, p, n);
		node_touch(p, true);
	}
	pthread_mutex_unlock(&fs->ns_lock);
	fuse_reply_err(req, err);
}

static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	remove_entry(req, parent, name, false);
}

static void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	remove_entry(req, parent, name, true);
}

/* ns_lock held: is @d @n or below it? */
static bool below(const struct node *d, const struct node *n)
{
	for (; d; d = d->parent)
		if (d == n)
			return true;
	return false;
}

static int do_rename(struct lbsfs *fs, struct node *p, const char *name,
		     struct node *np, const char *newname, unsigned flags)
{
	struct node *n, *old;

	if (flags & ~RENAME_NOREPLACE)
		return EINVAL;		/* RENAME_EXCHANGE, WHITEOUT */
	if (p->kind != N_DIR || np->kind != N_DIR)
		return EPERM;		/* nothing moves in or out of .lbs */
	if ((p == fs->root && !strcmp(name, ".lbs")) ||
	    (np == fs->root && !strcmp(newname, ".lbs")))
		return EPERM;
	if (strlen(newname) > 255)
		return ENAMETOOLONG;
	n = dir_find(p, name);
	if (!n)
		return ENOENT;
	old = dir_find(np, newname);
	if (old == n)
		return 0;
	if (old && (flags & RENAME_NOREPLACE))
		return EEXIST;
	if (n->kind == N_DIR && below(np, n))
		return EINVAL;
	if (old && old->kind == N_DIR && n->kind != N_DIR)
		return EISDIR;
	if (old && old->kind != N_DIR && n->kind == N_DIR)
		return ENOTDIR;
	if (old && old->nents)
		return ENOTEMPTY;
	if (old)
		drop_name(fs, np, old);
	dir_remove(p, n);
	if (dir_add(np, newname, n)) {
		dir_add(p, name, n);	/* same slot count: cannot fail */
		return ENOMEM;
	}
	node_touch(p, true);
	node_touch(np, true);
	return 0;
}

static void op_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	struct lbsfs *fs = fs_of(req);
	int err;

	pthread_mutex_lock(&fs->ns_lock);
	err = do_rename(fs, node_of(fs, parent), name, node_of(fs, newparent),
			newname, flags);
	pthread_mutex_unlock(&fs->ns_lock);
	fuse_reply_err(req, err);
}

/* a listing taken at opendir: offsets stay valid while the tree changes */
struct listing {
	struct handle h;	/* fi->fh */
	size_t n;
	struct {
		char *name;
		uint64_t serial;
		mode_t mode;
	} e[];
};

static struct listing *listing_new(size_t cap)
{
	return calloc(1, sizeof(struct listing) + cap * sizeof(((struct listing *)0)->e[0]));
}

static void listing_free(struct handle *h)
{
	struct listing *l = handle_entry(h, struct listing, h);

	for (size_t i = 0; i < l->n; i++)
		free(l->e[i].name);
	free(l);
}

static struct listing *listing_of(struct fuse_file_info *fi)
{
	return handle_entry(handle_of(fi->fh), struct listing, h);
}

static void listing_add(struct listing *l, const char *name,
			const struct node *n)
{
	l->e[l->n].name = strdup(name);
	l->e[l->n].serial = n->serial;
	l->e[l->n].mode = n->mode;
	if (l->e[l->n].name)
		l->n++;
}

static void op_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct lbsfs *fs = fs_of(req);
	struct node *d = node_of(fs, ino), *src;
	struct listing *l;

	pthread_mutex_lock(&fs->ns_lock);
	src = d->kind == N_MAP_DIR ? d->target : d;
	l = listing_new(src->nents + 6);
	if (l) {
		listing_add(l, ".", d);
		listing_add(l, "..", d->parent ? d->parent : d);
		if (d == fs->root)
			listing_add(l, ".lbs", fs->lbs_dir);
		if (d->kind == N_LBS_DIR) {
			listing_add(l, "ctl", fs->ctl);
			listing_add(l, "stats", fs->stats);
			listing_add(l, "map", fs->map_root);
		} else {
			for (size_t i = 0; i < src->nents; i++)
				listing_add(l, src->ents[i].name,
					    src->ents[i].n);
		}
	}
	pthread_mutex_unlock(&fs->ns_lock);
	if (!l) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	handle_track(fs, &l->h, listing_free);
	fi->fh = (uintptr_t)&l->h;
	fuse_reply_open(req, fi);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t off, struct fuse_file_info *fi)
{
	struct listing *l = listing_of(fi);
	char *buf = malloc(size);
	size_t used = 0;

	(void)ino;
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (size_t i = (size_t)off; i < l->n; i++) {
		struct stat st = { .st_ino = l->e[i].serial,
				   .st_mode = l->e[i].mode };
		size_t need = fuse_add_direntry(req, buf + used, size - used,
						l->e[i].name, &st,
						(off_t)(i + 1));

		if (need > size - used)
			break;
		used += need;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void op_releasedir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	(void)ino;
	handle_release(fs_of(req), handle_of(fi->fh));
	fuse_reply_err(req, 0);
}

static void op_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
			struct fuse_file_info *fi)
{
	/* namespace changes are durable at once (the model's metadata) */
	(void)ino, (void)datasync, (void)fi;
	fuse_reply_err(req, 0);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct lbsfs *fs = fs_of(req);
	uint64_t bs = lbs_sim_block_size(fs->ref), used = 0;
	struct statvfs sv = { 0 };
	struct node *n;

	(void)ino;
	pthread_mutex_lock(&fs->ns_lock);
	for (n = fs->all.next; n != &fs->all; n = n->next) {
		if (n->kind != N_REG)
			continue;
		pthread_mutex_lock(&n->lock);
		used += lbs_sim_alloc_bytes(n->sim) / bs;
		pthread_mutex_unlock(&n->lock);
	}
	sv.f_files = fs->max_files;
	sv.f_ffree = sv.f_favail = fs->max_files - fs->nfiles;
	pthread_mutex_unlock(&fs->ns_lock);
	/* capacity: --files files of --size bytes each */
	sv.f_bsize = sv.f_frsize = bs;
	sv.f_blocks = fs->max_files * (fs->cfg.max_file_size / bs);
	sv.f_bfree = sv.f_bavail = sv.f_blocks > used ? sv.f_blocks - used : 0;
	sv.f_namemax = 255;
	fuse_reply_statfs(req, &sv);
}

void lbsfs_ns_ops(struct fuse_lowlevel_ops *ops)
{
	ops->lookup = op_lookup;
	ops->forget = op_forget;
	ops->forget_multi = op_forget_multi;
	ops->getattr = op_getattr;
	ops->setattr = op_setattr;
	ops->mkdir = op_mkdir;
	ops->create = op_create;
	ops->unlink = op_unlink;
	ops->rmdir = op_rmdir;
	ops->rename = op_rename;
	ops->opendir = op_opendir;
	ops->readdir = op_readdir;
	ops->releasedir = op_releasedir;
	ops->fsyncdir = op_fsyncdir;
	ops->statfs = op_statfs;
}
