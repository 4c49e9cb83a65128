#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Directed bs > PAGE_SIZE checks through the mount, each with its negative
control (--negative mounts with the fault knob that must break it):
  zero-around  a small write into a new block, writeback, drop_caches:
               the rest of the block inside EOF reads zero
               (negative: --inject no-zero-around shows the device's
               stale pattern through the mount)
  dio-zero     a sub-block O_DIRECT write into a new block: the block's
               other bytes read zero (negative: --inject no-dio-zero)
  dio-align    O_DIRECT EINVAL where XFS gives it (sector alignment),
               unaligned reads of holes allowed (no negative: exact errnos)
  map          .lbs/map/<file> is lbs-sim map's picture for the same op
               (negative: --inject no-zero-around on the mount only)
Usage: stale_data.py LBS_FUSE LBS_SIM TEST BLOCK_SIZE [--negative]"""
import errno
import mmap
import os
import subprocess
import sys

from lbsmount import HANG_S, Checks, Mount, need_fuse

KNOB = {"zero-around": "no-zero-around", "dio-zero": "no-dio-zero",
        "map": "no-zero-around"}


def stale_bytes(data, skip):
    """offsets of non-zero bytes outside the written range @skip"""
    return [i for i, b in enumerate(data) if b and i not in skip]


def zero_around(m, bs, c, negative):
    pos = bs + 4464                     # block 1, not at a page start
    fd = os.open(m.path("f"), os.O_RDWR | os.O_CREAT)
    os.pwrite(fd, b"w" * 100, pos)
    m.ctl("writeback")
    m.ctl("drop_caches")
    data = os.pread(fd, pos + 100 - bs, bs)
    os.close(fd)
    bad = stale_bytes(data, range(pos - bs, pos - bs + 100))
    if negative:
        # the simulated device's never-written pattern: "ST" every 8 bytes
        st = [i for i in bad if i % 8 == 0 and data[i:i + 2] == b"ST"]
        c.ok(len(st) > 0, "no-zero-around: %d stale bytes visible through "
             "the mount, %d \"ST\" words of the device's pattern (first %r)"
             % (len(bad), len(st), data[st[0]:st[0] + 8] if st else b""))
    else:
        c.eq(len(bad), 0, "block around a small write reads zero after "
             "writeback + drop_caches")


def dio_buf(n):
    return mmap.mmap(-1, max(n, 4096))   # page-aligned, for O_DIRECT


def dio_zero(m, bs, c, negative):
    fd = os.open(m.path("f"), os.O_RDWR | os.O_CREAT | os.O_DIRECT)
    buf = dio_buf(512)
    buf[:512] = b"d" * 512
    pos = bs + 4096
    c.eq(os.pwrite(fd, memoryview(buf)[:512], pos), 512,
         "aligned sub-block O_DIRECT write")
    rd = dio_buf(bs)
    n = os.preadv(fd, [memoryview(rd)[:bs]], bs)
    os.close(fd)
    data = bytes(rd[:n])
    bad = stale_bytes(data, range(4096, 4096 + 512))
    if negative:
        c.ok(len(bad) > 0, "no-dio-zero: %d stale bytes in the block" %
             len(bad))
    else:
        c.eq(len(bad), 0, "the rest of the new block reads zero")


def dio_align(m, bs, c):
    fd = os.open(m.path("f"), os.O_RDWR | os.O_CREAT | os.O_DIRECT)
    buf = dio_buf(2 * bs)
    buf[:bs] = b"a" * bs

    def e(fn):
        try:
            fn()
            return 0
        except OSError as x:
            return x.errno
    c.eq(e(lambda: os.pwrite(fd, memoryview(buf)[:512], 100)),
         errno.EINVAL, "O_DIRECT write at offset 100: EINVAL")
    c.eq(e(lambda: os.pwrite(fd, memoryview(buf)[:700], 0)),
         errno.EINVAL, "O_DIRECT write of 700 bytes: EINVAL")
    c.eq(os.preadv(fd, [memoryview(buf)[:100]], 3 * bs + 7), 0,
         "unaligned O_DIRECT read at EOF: 0 bytes, no error")
    c.eq(os.pwrite(fd, memoryview(buf)[:bs], 0), bs,
         "aligned whole-block O_DIRECT write")
    os.ftruncate(fd, 4 * bs)
    c.eq(os.preadv(fd, [memoryview(buf)[:100]], 2 * bs + 3), 100,
         "unaligned O_DIRECT read of a hole succeeds (iomap checks only "
         "where it maps a written extent)")
    c.eq(e(lambda: os.preadv(fd, [memoryview(buf)[:100]], 3)),
         errno.EINVAL, "unaligned O_DIRECT read of written data: EINVAL")
    c.eq(os.preadv(fd, [memoryview(buf)[:512]], 0), 512,
         "aligned O_DIRECT read")
    c.eq(bytes(buf[:512]), b"a" * 512, "... returns the data")
    os.close(fd)


def same_map(m, bs, sim, c, negative):
    pos, n = bs + 4464, 100
    fd = os.open(m.path("f"), os.O_RDWR | os.O_CREAT)
    os.pwrite(fd, b"w" * n, pos)
    os.close(fd)
    got = m.text(".lbs/map/f")
    r = subprocess.run([sim, "map", "--block-size", str(bs), "--page-size",
                        "4096", "--op", "write %d %d" % (pos, n)],
                       capture_output=True, text=True, timeout=HANG_S)
    want = "\n".join(l for l in r.stdout.split("\n")
                     if not l.startswith("--op:"))
    if negative:
        c.ok(got != want, "no-zero-around on the mount: the picture differs"
             " from lbs-sim map's")
    else:
        c.ok(got == want, ".lbs/map/f is lbs-sim map's picture")
        if got != want:
            print("mount:\n%s\nlbs-sim map:\n%s" % (got, want))


def main():
    need_fuse()
    exe, sim, test, bs = sys.argv[1:5]
    bs = int(bs)
    negative = "--negative" in sys.argv
    c = Checks()
    with Mount(exe, bs, inject=KNOB[test] if negative else None) as m:
        if test == "zero-around":
            zero_around(m, bs, c, negative)
        elif test == "dio-zero":
            dio_zero(m, bs, c, negative)
        elif test == "dio-align":
            dio_align(m, bs, c)
        elif test == "map":
            same_map(m, bs, sim, c, negative)
        else:
            sys.exit("unknown test %s" % test)
    c.done()


if __name__ == "__main__":
    main()
