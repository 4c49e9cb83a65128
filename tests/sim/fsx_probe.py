# SPDX-License-Identifier: GPL-2.0
"""The fsx ops a directory's filesystem lacks, probed as fstests fsx does
at start (test_fallocate(), test_clone_range(), test_dedupe_range(),
test_copy_range()), by lbs-sim's feature names (--unsupported)."""
import ctypes
import ctypes.util
import errno
import fcntl
import os
import struct

# fallocate modes (linux/falloc.h) by lbs-sim's feature names
MODES = {"punch_hole": 0x02 | 0x01, "zero_range": 0x10,
         "collapse_range": 0x08, "insert_range": 0x20,
         "unshare_range": 0x40}
FICLONERANGE = 0x4020940d	# _IOW(0x94, 13, struct file_clone_range)
FIDEDUPERANGE = 0xc0189436	# _IOWR(0x94, 54, struct file_dedupe_range)
NO_OP = (errno.EOPNOTSUPP, errno.ENOTTY, errno.ENOSYS, errno.EXDEV)


def _fallocate(fd, mode, off, length):
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                               ctypes.c_int64]
    if libc.fallocate(fd, mode, off, length):
        return ctypes.get_errno()
    return 0


def _errno_of(fn):
    try:
        fn()
    except OSError as e:
        return e.errno
    return 0


def dedupe(fd, src, length, dst):
    """FIDEDUPERANGE with one destination: (call errno, status)"""
    buf = bytearray(struct.pack("QQHHI", src, length, 1, 0, 0) +
                    struct.pack("qQQiI", fd, dst, 0, 0, 0))
    e = _errno_of(lambda: fcntl.ioctl(fd, FIDEDUPERANGE, buf, True))
    return e, struct.unpack_from("i", buf, 24 + 24)[0]


def missing(d, bs):
    """lbs-sim feature names of the ops DIR's filesystem lacks"""
    path = os.path.join(d, "probe")
    miss = []
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
    try:
        for name, mode in MODES.items():
            os.ftruncate(fd, 4 * bs)
            if _fallocate(fd, mode, bs, bs) in (errno.EOPNOTSUPP,
                                                errno.ENOSYS):
                miss.append(name)
        os.ftruncate(fd, 0)
        if _errno_of(lambda: fcntl.ioctl(
                fd, FICLONERANGE, struct.pack("qQQQ", fd, 0, 0, 0))) in NO_OP:
            miss.append("clone_range")
        os.ftruncate(fd, 2 * bs)
        e, status = dedupe(fd, 0, bs, bs)
        if e in NO_OP + (errno.EINVAL,) or -status in NO_OP + (errno.EINVAL,):
            miss.append("dedupe_range")
        os.ftruncate(fd, 0)
        if _errno_of(lambda: os.copy_file_range(fd, fd, 1, 0, 1)) in NO_OP:
            miss.append("copy_range")
    finally:
        os.close(fd)
        os.unlink(path)
    return miss
