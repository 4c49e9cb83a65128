// SPDX-License-Identifier: GPL-2.0
/*
 * copy_file_range(2).  Within one file the simulator does what
 * vfs_copy_file_range() does on XFS (lbs_sim_copy_range(): clone the
 * block-aligned whole blocks, copy the rest through the page cache).
 * Each file is its own simulator, with its own device, so no block can
 * be shared between two files: that copy goes through both page caches,
 * as the VFS's splice fallback would.
 */
#include "lbsfs.h"
#include "ofile.h"

#include <errno.h>
#include <stdlib.h>

/* the bounce buffer of a copy between two files */
#define COPY_CHUNK (1u << 20)
/* FUSE's reply carries a 32-bit count (newer kernels clamp the same) */
#define COPY_MAX (UINT32_MAX & ~4095u)

/*
 * Chunk by chunk, never holding both files' locks (two copies in
 * opposite directions would deadlock); like a splice copy, it is not
 * atomic against other writers.  Bytes copied, or -errno if none.
 */
static int64_t copy_between(struct node *in, uint64_t off_in,
			    struct node *out, uint64_t off_out, uint64_t len)
{
	uint64_t done = 0, isize;
	uint8_t *buf;
	int64_t r = 0;

	pthread_mutex_lock(&in->lock);
	isize = lbs_sim_size(in->sim);
	pthread_mutex_unlock(&in->lock);
	if (off_in >= isize || !len)
		return 0;
	if (len > isize - off_in)
		len = isize - off_in;
	/* all or nothing past the size limit, as lbs_sim_copy_range()
	 * (the limit is the configuration's: no lock needed) */
	if (off_out > lbs_sim_max_size(out->sim) ||
	    len > lbs_sim_max_size(out->sim) - off_out)
		return -EFBIG;
	buf = malloc(len < COPY_CHUNK ? len : COPY_CHUNK);
	if (!buf)
		return -ENOMEM;
	while (done < len) {
		uint64_t n = len - done < COPY_CHUNK ? len - done : COPY_CHUNK;

		pthread_mutex_lock(&in->lock);
		r = lbs_sim_read(in->sim, off_in + done, n, buf);
		pthread_mutex_unlock(&in->lock);
		if (r <= 0)
			break;		/* source EOF moved (truncate) */
		n = (uint64_t)r;
		pthread_mutex_lock(&out->lock);
		r = lbs_sim_write(out->sim, off_out + done, n, buf, SIZE_MAX);
		if (r > 0)
			node_touch(out, true);
		pthread_mutex_unlock(&out->lock);
		if (r <= 0)
			break;
		done += (uint64_t)r;
		if ((uint64_t)r < n)
			break;
	}
	free(buf);
	return done ? (int64_t)done : r;
}

static void op_copy_file_range(fuse_req_t req, fuse_ino_t ino_in,
			       off_t off_in, struct fuse_file_info *fi_in,
			       fuse_ino_t ino_out, off_t off_out,
			       struct fuse_file_info *fi_out, size_t len,
			       int flags)
{
	struct node *in = of_of(fi_in)->n, *out = of_of(fi_out)->n;
	int64_t r;

	(void)ino_in, (void)ino_out;
	/* the VFS refuses these first; a daemon must not trust that */
	if (flags || off_in < 0 || off_out < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	/* .lbs/ files: the kernel falls back to a splice copy through
	 * read and write, which serve them */
	if (in->kind != N_REG || out->kind != N_REG) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	if (len > COPY_MAX)
		len = COPY_MAX;
	if (in == out) {
		pthread_mutex_lock(&in->lock);
		r = lbs_sim_copy_range(in->sim, (uint64_t)off_in,
				       (uint64_t)off_out, len);
		if (r > 0)
			node_touch(in, true);
		pthread_mutex_unlock(&in->lock);
	} else {
		r = copy_between(in, (uint64_t)off_in, out, (uint64_t)off_out,
				 len);
	}
	if (r < 0)
		fuse_reply_err(req, (int)-r);
	else
		fuse_reply_write(req, (size_t)r);
}

void lbsfs_copy_ops(struct fuse_lowlevel_ops *ops)
{
	ops->copy_file_range = op_copy_file_range;
}
