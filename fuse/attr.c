// SPDX-License-Identifier: GPL-2.0
/*
 * struct stat of a node.  st_blksize comes from the simulator (core's
 * lbs_stat_blksize() through lbs_sim_stat_blksize()), st_blocks from its
 * extent map; nothing here knows a block-size rule.
 */
#define _GNU_SOURCE
#include "lbsfs.h"

#include <string.h>

void node_stat(struct lbsfs *fs, struct node *n, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&n->lock);
	st->st_ino = n->serial;
	st->st_mode = n->mode;
	st->st_uid = n->uid;
	st->st_gid = n->gid;
	st->st_atim = n->atime;
	st->st_mtim = n->mtime;
	st->st_ctim = n->ctime;
	st->st_blksize = lbs_sim_stat_blksize(n->sim ? n->sim : fs->ref);
	if (n->kind == N_REG) {
		st->st_nlink = __atomic_load_n(&n->nlink, __ATOMIC_RELAXED);
		st->st_size = (off_t)lbs_sim_size(n->sim);
		st->st_blocks = (blkcnt_t)(lbs_sim_alloc_bytes(n->sim) / 512);
	} else if (S_ISDIR(n->mode)) {
		st->st_nlink = 2 + __atomic_load_n(&n->nsub, __ATOMIC_RELAXED);
	} else {
		st->st_nlink = 1;	/* generated text: size 0, read to EOF */
	}
	pthread_mutex_unlock(&n->lock);
}
