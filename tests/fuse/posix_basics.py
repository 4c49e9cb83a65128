#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""POSIX basics through lbs-fuse: create, rename, unlink while open,
readdir, truncate, fallocate, SEEK_HOLE/SEEK_DATA, st_blksize/f_bsize,
EFBIG past --size, the .lbs/ nodes, and the shared-mmap limit.
Usage: posix_basics.py LBS_FUSE BLOCK_SIZE"""
import ctypes
import errno
import mmap
import os
import sys
import time

from lbsmount import HANG_S, Checks, Mount, err_of, need_fuse

libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long,
                           ctypes.c_long]
KEEP_SIZE, PUNCH_HOLE, COLLAPSE_RANGE, ZERO_RANGE = 0x01, 0x02, 0x08, 0x10


def fallocate(fd, mode, off, length):
    """0 or the errno"""
    return 0 if libc.fallocate(fd, mode, off, length) == 0 \
        else ctypes.get_errno()


def wait_for(cond, seconds=HANG_S):
    deadline = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def main():
    need_fuse()
    exe, bs = sys.argv[1], int(sys.argv[2])
    c = Checks()
    with Mount(exe, bs, size="1m", extra=["--files", "160"]) as m:
        p = m.path
        # create, write, stat
        with open(p("a"), "wb") as f:
            f.write(b"x" * 100)
        st = os.stat(p("a"))
        c.eq(st.st_size, 100, "size after a 100-byte write")
        c.eq(st.st_blksize, bs if bs > 4096 else 4096,
             "st_blksize (the simulator's: lbs_stat_blksize)")
        c.eq(os.statvfs(m.mnt).f_bsize, bs, "statfs f_bsize")
        c.ok(st.st_blocks * 512 >= bs, "st_blocks covers the delalloc block")
        # rename, readdir
        os.mkdir(p("d"))
        os.rename(p("a"), p("d/b"))
        c.eq(sorted(os.listdir(m.mnt)), [".lbs", "d"], "readdir of the root")
        c.eq(os.listdir(p("d")), ["b"], "readdir after rename")
        c.eq(err_of(os.stat, p("a")), errno.ENOENT, "old name is gone")
        c.eq(err_of(os.rmdir, p("d")), errno.ENOTEMPTY, "rmdir non-empty")
        c.eq(err_of(os.rename, p("d"), p("d/e")), errno.EINVAL,
             "rename a directory below itself")
        with open(p("c"), "wb") as f:
            f.write(b"c")
        os.rename(p("c"), p("d/b"))     # over an existing file
        with open(p("d/b"), "rb") as f:
            c.eq(f.read(), b"c", "rename over a file replaces it")
        many = ["f%03d" % i for i in range(150)]
        for n in many:
            open(p("d", n), "w").close()
        c.eq(sorted(os.listdir(p("d"))), sorted(many + ["b"]),
             "readdir of 151 entries (several readdir calls)")
        made = []
        for i in range(20):     # 152 or 153 files exist (a replaced b
            e = err_of(lambda n: open(n, "w").close(), p("d/g%d" % i))
            if e:               # may wait for the kernel's forget)
                break
            made.append(p("d/g%d" % i))
        c.eq(e, errno.ENOSPC, "--files 160: ENOSPC past 160 files")
        os.unlink(made.pop())
        # the slot is free once the kernel's FORGET for the unlinked inode
        # arrives, which is asynchronous: wait for it (the deadline only
        # catches a FORGET that never comes)
        e = [errno.ENOSPC]

        def made_again():
            e[0] = err_of(lambda n: open(n, "w").close(), p("d/again"))
            return e[0] != errno.ENOSPC
        wait_for(made_again)
        c.eq(e[0], 0, "a file can be made again after an unlink")
        made.append(p("d/again"))
        for n in made:
            os.unlink(n)
        for n in many:
            os.unlink(p("d", n))
        # unlink while open: the data stays until the last close
        fd = os.open(p("d/b"), os.O_RDWR)
        os.unlink(p("d/b"))
        os.pwrite(fd, b"still here", 0)
        c.eq(os.pread(fd, 10, 0), b"still here", "I/O after unlink")
        c.ok("(unlinked)" in m.text(".lbs/stats"),
             ".lbs/stats shows the unlinked open file")
        os.close(fd)
        c.ok(wait_for(lambda: "(unlinked)" not in m.text(".lbs/stats")),
             "freed after the last close (and the kernel's forget)")
        os.rmdir(p("d"))
        # truncate
        fd = os.open(p("t"), os.O_RDWR | os.O_CREAT)
        os.pwrite(fd, b"\xaa" * 5000, 0)
        os.ftruncate(fd, 1000)
        os.ftruncate(fd, 9000)
        data = os.pread(fd, 9000, 0)
        c.ok(data == b"\xaa" * 1000 + b"\0" * 8000,
             "truncate down then up: zeroes past the old EOF")
        c.eq(err_of(os.ftruncate, fd, (1 << 20) + 1), errno.EFBIG,
             "truncate past --size")
        c.eq(err_of(os.pwrite, fd, b"z", 1 << 20), errno.EFBIG,
             "write past --size")
        # fallocate and SEEK_DATA/SEEK_HOLE on a bs-granular layout
        os.ftruncate(fd, 0)
        os.pwrite(fd, b"d" * 10, 2 * bs + 5)          # data in block 2
        os.ftruncate(fd, 6 * bs)
        c.eq(os.lseek(fd, 0, os.SEEK_DATA), 2 * bs, "SEEK_DATA finds block 2")
        c.eq(os.lseek(fd, 2 * bs, os.SEEK_HOLE), 3 * bs,
             "SEEK_HOLE after block 2")
        c.eq(err_of(os.lseek, fd, 3 * bs, os.SEEK_DATA), errno.ENXIO,
             "SEEK_DATA in the trailing hole: ENXIO")
        c.eq(fallocate(fd, 0, 4 * bs, bs), 0, "fallocate (unwritten)")
        c.eq(err_of(os.lseek, fd, 3 * bs, os.SEEK_DATA), errno.ENXIO,
             "an unwritten extent without cached data is a hole")
        c.eq(os.fstat(fd).st_blocks * 512, 2 * bs,
             "st_blocks: the written and the unwritten block")
        c.eq(fallocate(fd, PUNCH_HOLE | KEEP_SIZE, 2 * bs, bs), 0,
             "punch hole")
        c.eq(os.pread(fd, 10, 2 * bs + 5), b"\0" * 10, "punched bytes read 0")
        c.eq(fallocate(fd, ZERO_RANGE, 5 * bs, 2 * bs), 0,
             "zero range past EOF")
        c.eq(os.fstat(fd).st_size, 7 * bs, "zero range extended the size")
        c.eq(fallocate(fd, COLLAPSE_RANGE, 0, bs), errno.EOPNOTSUPP,
             "collapse range: EOPNOTSUPP (FUSE forwards no collapse)")
        c.eq(fallocate(fd, PUNCH_HOLE, 0, bs), errno.EOPNOTSUPP,
             "punch without KEEP_SIZE: EOPNOTSUPP")
        # mmap: private mappings read through FUSE; shared ones refused
        os.pwrite(fd, b"mapped", 0)
        mp = mmap.mmap(fd, 4096, mmap.MAP_PRIVATE, mmap.PROT_READ)
        c.eq(mp[:6], b"mapped", "MAP_PRIVATE read")
        mp.close()
        c.eq(err_of(mmap.mmap, fd, 4096, mmap.MAP_SHARED), errno.ENODEV,
             "MAP_SHARED: ENODEV (direct_io, documented limit)")
        os.close(fd)
        # .lbs: read-only, the map lists the file
        c.ok("i_size" in m.text(".lbs/map/t"), ".lbs/map/t is a picture")
        c.eq(err_of(os.unlink, p(".lbs/ctl")), errno.EPERM,
             ".lbs/ctl cannot be removed")
        c.eq(err_of(os.mkdir, p(".lbs")), errno.EEXIST, "mkdir .lbs")
        c.eq(err_of(open, p(".lbs/stats"), "w"), errno.EACCES,
             ".lbs/stats is read-only")
        c.eq(err_of(m.ctl, "frobnicate"), errno.EINVAL,
             "unknown ctl command: EINVAL")
        c.ok("ctl" in os.listdir(p(".lbs")), "readdir .lbs")
        c.eq(os.listdir(p(".lbs/map")), ["t"], "readdir .lbs/map mirrors /")
    c.done()


if __name__ == "__main__":
    main()
