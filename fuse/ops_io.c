// SPDX-License-Identifier: GPL-2.0
/*
 * File operations.  Every open is direct_io, so each read and write
 * reaches the simulator (its page cache, not the kernel's FUSE one); an
 * O_DIRECT open is served by lbs_sim_dio_*(), whose alignment rules give
 * EINVAL where XFS does.  The per-file lock serialises the simulator's
 * mutating operations (reads fill its page cache, so they mutate too).
 */
#define _GNU_SOURCE
#include "lbsfs.h"
#include "ofile.h"
#include "lbs_fuse_ioctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* O_DIRECT buffers: the application's alignment is not visible through
 * FUSE, so the simulator always sees an aligned one */
#define BUF_ALIGN 4096

static struct lbsfs *fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static void ofile_free(struct handle *h)
{
	struct ofile *of = handle_entry(h, struct ofile, h);

	free(of->text);
	free(of);
}

int ofile_open(struct lbsfs *fs, struct node *n, struct fuse_file_info *fi)
{
	struct ofile *of = calloc(1, sizeof(*of));
	int acc = fi->flags & O_ACCMODE, err = 0;

	if (!of)
		return ENOMEM;
	of->n = n;
	of->dio = fi->flags & O_DIRECT;
	switch (n->kind) {
	case N_REG:
		if (fi->flags & O_TRUNC) {
			pthread_mutex_lock(&n->lock);
			err = -lbs_sim_truncate(n->sim, 0);
			node_touch(n, true);
			pthread_mutex_unlock(&n->lock);
		}
		break;
	case N_CTL:
		break;		/* reads show the commands */
	case N_STATS:
	case N_MAP_FILE:
		if (acc != O_RDONLY)
			err = EACCES;
		break;
	default:
		err = EISDIR;
	}
	if (!err && n->kind != N_REG) {
		of->text = ctl_render(fs, n, &of->tlen);
		if (!of->text)
			err = ENOMEM;
	}
	if (err) {
		free(of);
		return err;
	}
	handle_track(fs, &of->h, ofile_free);
	fi->fh = (uintptr_t)&of->h;
	fi->direct_io = 1;	/* bypass the kernel's page cache */
	fi->keep_cache = 0;
	return 0;
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct lbsfs *fs = fs_of(req);
	int err = ofile_open(fs, node_of(fs, ino), fi);

	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_open(req, fi);
}

static void op_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct lbsfs *fs = fs_of(req);

	(void)ino;
	handle_release(fs, handle_of(fi->fh));
	fuse_reply_err(req, 0);
}

static void op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	/* close() on XFS writes nothing back: nothing to do */
	(void)ino, (void)fi;
	fuse_reply_err(req, 0);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct ofile *of = of_of(fi);
	struct node *n = of->n;
	void *buf = NULL;
	int64_t r;

	(void)ino;
	if (posix_memalign(&buf, BUF_ALIGN, size ? size : 1)) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (of->text) {
		/*
		 * Reply from a copy: the kernel may finish the read while
		 * fuse_reply_buf() is still in writev(), and the RELEASE
		 * that follows frees of->text on another thread.
		 */
		size_t o = (size_t)off < of->tlen ? (size_t)off : of->tlen;
		size_t len = size < of->tlen - o ? size : of->tlen - o;

		memcpy(buf, of->text + o, len);
		fuse_reply_buf(req, buf, len);
		free(buf);
		return;
	}
	pthread_mutex_lock(&n->lock);
	r = of->dio ? lbs_sim_dio_read(n->sim, (uint64_t)off, size, buf) :
		      lbs_sim_read(n->sim, (uint64_t)off, size, buf);
	pthread_mutex_unlock(&n->lock);
	if (r < 0)
		fuse_reply_err(req, (int)-r);
	else
		fuse_reply_buf(req, buf, (size_t)r);
	free(buf);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *data,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	struct lbsfs *fs = fs_of(req);
	struct ofile *of = of_of(fi);
	struct node *n = of->n;
	const void *src = data;
	void *bounce = NULL;
	int64_t r;

	(void)ino;
	if (n->kind == N_CTL) {
		int err = ctl_command(fs, data, size);

		if (err)
			fuse_reply_err(req, -err);
		else
			fuse_reply_write(req, size);
		return;
	}
	if (n->kind != N_REG) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (of->dio) {
		/* libfuse's buffer sits after the request header */
		if (posix_memalign(&bounce, BUF_ALIGN, size ? size : 1)) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		memcpy(bounce, data, size);
		src = bounce;
	}
	pthread_mutex_lock(&n->lock);
	r = of->dio ? lbs_sim_dio_write(n->sim, (uint64_t)off, size, src) :
		      lbs_sim_write(n->sim, (uint64_t)off, size, src, SIZE_MAX);
	if (r > 0)
		node_touch(n, true);
	pthread_mutex_unlock(&n->lock);
	free(bounce);
	if (r < 0)
		fuse_reply_err(req, (int)-r);
	else
		fuse_reply_write(req, (size_t)r);
}

static void op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		     struct fuse_file_info *fi)
{
	struct node *n = of_of(fi)->n;
	int err = 0;

	/* fdatasync too: the model's metadata is durable at once */
	(void)ino, (void)datasync;
	if (n->kind == N_REG) {
		pthread_mutex_lock(&n->lock);
		err = -lbs_sim_fsync(n->sim);
		pthread_mutex_unlock(&n->lock);
	}
	fuse_reply_err(req, err);
}

static void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
			 off_t len, struct fuse_file_info *fi)
{
	struct node *n = of_of(fi)->n;
	int err = EOPNOTSUPP;

	(void)ino;
	if (n->kind == N_REG) {
		/* FALLOC_FL_* are LBS_FL_*; the rest is EOPNOTSUPP there */
		pthread_mutex_lock(&n->lock);
		err = -lbs_sim_fallocate(n->sim, mode, (uint64_t)off,
					 (uint64_t)len);
		if (!err)
			node_touch(n, true);
		pthread_mutex_unlock(&n->lock);
	}
	fuse_reply_err(req, err);
}

static void op_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
		     struct fuse_file_info *fi)
{
	struct node *n = of_of(fi)->n;
	int64_t r;

	(void)ino;
	/* the kernel does SEEK_SET/CUR/END itself */
	if (n->kind != N_REG || (whence != SEEK_DATA && whence != SEEK_HOLE)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	pthread_mutex_lock(&n->lock);
	r = lbs_sim_seek(n->sim, (uint64_t)off, whence == SEEK_DATA);
	pthread_mutex_unlock(&n->lock);
	if (r < 0)
		fuse_reply_err(req, (int)-r);
	else
		fuse_reply_lseek(req, (off_t)r);
}

static void op_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd,
		     void *arg, struct fuse_file_info *fi, unsigned flags,
		     const void *in, size_t in_size, size_t out_size)
{
	struct node *n = of_of(fi)->n;
	struct lbs_fuse_mmap_write w;
	int64_t r;

	(void)ino, (void)arg, (void)out_size;
	if (cmd != LBS_FUSE_IOC_MMAP_WRITE || n->kind != N_REG ||
	    (flags & FUSE_IOCTL_COMPAT)) {
		fuse_reply_err(req, ENOTTY);
		return;
	}
	if (in_size != sizeof(w)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	memcpy(&w, in, sizeof(w));
	if (w.len > LBS_FUSE_MMAP_CHUNK) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	pthread_mutex_lock(&n->lock);
	r = lbs_sim_mmap_write(n->sim, w.pos, w.len, w.data);
	if (r > 0)
		node_touch(n, true);
	pthread_mutex_unlock(&n->lock);
	if (r < 0)
		fuse_reply_err(req, (int)-r);
	else
		fuse_reply_ioctl(req, (int)r, NULL, 0);
}

void lbsfs_io_ops(struct fuse_lowlevel_ops *ops)
{
	ops->open = op_open;
	ops->release = op_release;
	ops->flush = op_flush;
	ops->read = op_read;
	ops->write = op_write;
	ops->fsync = op_fsync;
	ops->fallocate = op_fallocate;
	ops->lseek = op_lseek;
	ops->ioctl = op_ioctl;
}
