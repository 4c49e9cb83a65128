/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lbs-fuse internals: the namespace (directories and regular files, each
 * regular file one lbs_sim instance) and the .lbs/ control nodes.
 *
 * Locking: fs->ns_lock guards the tree (entries, parent/name, nlink,
 * refs, the node list); node->lock guards a node's attributes and its
 * simulator, whose mutating ops must not run concurrently.  Order:
 * ns_lock, then node->lock; never the reverse.
 */
#ifndef LBS_FUSE_LBSFS_H
#define LBS_FUSE_LBSFS_H

#define FUSE_USE_VERSION 35
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "lbs_sim.h"
#include "handle.h"

enum node_kind {
	N_DIR, N_REG,
	N_LBS_DIR,	/* .lbs */
	N_CTL,		/* .lbs/ctl */
	N_STATS,	/* .lbs/stats */
	N_MAP_DIR,	/* .lbs/map and its subdirectories: mirror N_DIR */
	N_MAP_FILE,	/* .lbs/map/<file>: the picture of an N_REG */
};

struct dent {
	char *name;
	struct node *n;
};

struct node {
	enum node_kind kind;
	uint64_t serial;		/* st_ino */
	/* under ns_lock */
	uint64_t refs;			/* kernel lookups + internal pins */
	unsigned nlink;
	struct node *parent;		/* N_DIR, N_REG: NULL once unlinked */
	char *name;
	struct dent *ents;		/* N_DIR */
	size_t nents, cap;
	unsigned nsub;			/* subdirectories (atomic: stat reads it) */
	struct node *view;		/* its .lbs/map companion, if looked up */
	struct node *target;		/* N_MAP_*: the node it shows (pinned) */
	struct node *next, *prev;	/* fs->all */
	/* under lock */
	pthread_mutex_t lock;
	mode_t mode;
	uid_t uid;
	gid_t gid;
	struct timespec atime, mtime, ctime;
	struct lbs_sim *sim;		/* N_REG */
};

struct lbsfs {
	struct lbs_sim_config cfg;	/* every file's simulator */
	struct lbs_sim_lf_config lf;	/* ... and its large folios */
	struct lbs_sim *ref;		/* a 1-block instance: st_blksize and
					   f_bsize of the filesystem */
	uint64_t max_files;
	struct fuse_session *se;
	pthread_mutex_t ns_lock;
	struct node *root, *lbs_dir, *ctl, *stats, *map_root;
	struct node all;		/* list head: every node */
	pthread_mutex_t handle_lock;
	struct handle handles;		/* list head: every fi->fh (handle.h) */
	uint64_t nfiles, next_serial;
};

/* node.c: the tree (callers hold ns_lock unless noted) */
struct node *node_new(struct lbsfs *fs, enum node_kind kind, mode_t mode);
/* free now (also its simulator): unmount, or a node never linked */
void node_destroy(struct lbsfs *fs, struct node *n);
void tree_init(struct lbsfs *fs);
void tree_destroy(struct lbsfs *fs);	/* unmounted: free every node */
struct node *dir_find(const struct node *dir, const char *name);
int dir_add(struct node *dir, const char *name, struct node *n);
void dir_remove(struct node *dir, struct node *n);
void node_ref(struct node *n);
void node_unref(struct lbsfs *fs, struct node *n, uint64_t count);
struct node *node_of(struct lbsfs *fs, fuse_ino_t ino);
fuse_ino_t ino_of(struct lbsfs *fs, const struct node *n);
struct node *view_of(struct lbsfs *fs, struct node *target);
struct node *node_resolve(struct lbsfs *fs, const char *path);
/* "/a/b" or "(unlinked)" into @buf */
void node_path(const struct node *n, char *buf, size_t len);
void node_touch(struct node *n, bool mtime);	/* holds n->lock */

/* attr.c: struct stat of a node (takes n->lock) */
void node_stat(struct lbsfs *fs, struct node *n, struct stat *st);

/* ops_ns.c, ops_io.c, ops_copy.c: the lowlevel operations */
void lbsfs_ns_ops(struct fuse_lowlevel_ops *ops);
void lbsfs_io_ops(struct fuse_lowlevel_ops *ops);
void lbsfs_copy_ops(struct fuse_lowlevel_ops *ops);

/* ctl.c: the .lbs/ nodes */
void ctl_init(struct lbsfs *fs);
/* open of ctl, stats, a map file: the text a read returns, malloc'd */
char *ctl_render(struct lbsfs *fs, struct node *n, size_t *len);
/* a write to .lbs/ctl: 0 or -errno */
int ctl_command(struct lbsfs *fs, const char *buf, size_t len);

#endif
