/* SPDX-License-Identifier: GPL-2.0 */
/* An open file (fi->fh): its node, O_DIRECT, and generated text. */
#ifndef LBS_FUSE_OFILE_H
#define LBS_FUSE_OFILE_H

#include "lbsfs.h"

struct ofile {
	struct node *n;
	bool dio;		/* opened O_DIRECT: the simulator's DIO path */
	char *text;		/* .lbs/stats, .lbs/map/<file>: rendered at open */
	size_t tlen;
	struct handle h;	/* fi->fh */
};

/* fi->fh of an open file */
static inline struct ofile *of_of(struct fuse_file_info *fi)
{
	return handle_entry(handle_of(fi->fh), struct ofile, h);
}

/* fill fi for @n (O_TRUNC done here: atomic_o_trunc); 0 or an errno */
int ofile_open(struct lbsfs *fs, struct node *n, struct fuse_file_info *fi);

#endif
