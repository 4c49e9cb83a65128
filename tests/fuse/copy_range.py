#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""copy_file_range(2) through lbs-fuse:
  same file    block-aligned offsets share the whole blocks (.lbs/stats
               remaps) and copy the partial tail; unaligned offsets copy
               through the page cache (no remaps); both read back right,
               also from the device after writeback + drop_caches; stops
               at the source's EOF; overlap EINVAL, flags EINVAL, EFBIG
               past --size
  two files    copied through both page caches (more than the daemon's
               1 MiB chunk, to and past the destination's EOF, both
               directions); the daemon served every request (-d log)
  cow          a sub-block write into a block the aligned copy shared,
               writeback, drop_caches: the rest of the block still holds
               the source's bytes (copy-around), the source is untouched
               (negative: --inject no-copy-around leaves it wrong)
Usage: copy_range.py LBS_FUSE BLOCK_SIZE [--negative]"""
import ctypes
import errno
import os
import random
import re
import sys

from lbsmount import Checks, Mount, err_of, need_fuse

SIZE = 16 << 20                         # the mount's --size
PAGE = 4096
libc = ctypes.CDLL(None, use_errno=True)
libc.copy_file_range.argtypes = [
    ctypes.c_int, ctypes.POINTER(ctypes.c_int64), ctypes.c_int,
    ctypes.POINTER(ctypes.c_int64), ctypes.c_size_t, ctypes.c_uint]
libc.copy_file_range.restype = ctypes.c_ssize_t


def cfr(fd_in, off_in, fd_out, off_out, n):
    """one copy_file_range call: bytes copied"""
    return os.copy_file_range(fd_in, fd_out, n, off_in, off_out)


def cfr_flags(fd, off_in, off_out, n, flags):
    """copy_file_range with @flags (os.copy_file_range has none): errno"""
    a, b = ctypes.c_int64(off_in), ctypes.c_int64(off_out)
    r = libc.copy_file_range(fd, ctypes.byref(a), fd, ctypes.byref(b), n,
                             flags)
    return 0 if r >= 0 else ctypes.get_errno()


def pwrite_all(fd, data, off):
    done = 0
    while done < len(data):
        done += os.pwrite(fd, data[done:], off + done)


def pread_all(fd, n, off):
    out = bytearray()
    while len(out) < n:
        b = os.pread(fd, n - len(out), off + len(out))
        if not b:
            break
        out += b
    return bytes(out)


def counters(m, name):
    """the .lbs/stats counters of /name"""
    for line in m.text(".lbs/stats").splitlines():
        t = line.split()
        if t[:2] == ["file", "/" + name]:
            return {t[i]: int(t[i + 1]) for i in range(2, len(t) - 1, 2)}
    raise RuntimeError("/%s not in .lbs/stats" % name)


def same_as(c, fd, want, what):
    got = pread_all(fd, len(want) + 1, 0)
    diff = [i for i in range(min(len(got), len(want))) if got[i] != want[i]]
    c.ok(len(got) == len(want) and not diff,
         "%s: %d bytes read back, want %d, %d differ%s" %
         (what, len(got), len(want), len(diff),
          " (first at %d)" % diff[0] if diff else ""))


def copied(c, data, fd_in, off_in, fd_out, off_out, n, want, what,
           src=None):
    """one call that must copy @want bytes; applies it to @data (the
    destination's expected bytes, @src the source's if another file)"""
    got = cfr(fd_in, off_in, fd_out, off_out, n)
    c.eq(got, want, what)
    src = data if src is None else src
    chunk = bytes(src[off_in:off_in + got])
    if off_out > len(data):
        data += bytes(off_out - len(data))
    data[off_out:off_out + got] = chunk


def same_file(m, bs, c):
    rnd = random.Random(1)
    data = bytearray(rnd.randbytes(8 * bs))
    fd = os.open(m.path("f"), os.O_RDWR | os.O_CREAT)
    pwrite_all(fd, data, 0)

    r0 = counters(m, "f")["remaps"]
    n = 2 * bs + 1000
    copied(c, data, fd, 0, fd, 4 * bs, n, n,
           "aligned copy of 2 blocks + 1000 bytes")
    r1 = counters(m, "f")["remaps"]
    c.eq(r1 - r0, n // bs, "aligned copy shared its whole blocks (remaps)")
    same_as(c, fd, data, "after the aligned copy")

    n = bs + 5000
    copied(c, data, fd, 100, fd, 6 * bs + PAGE + 7, n, n,
           "unaligned copy of a block + 5000 bytes")
    c.eq(counters(m, "f")["remaps"], r1,
         "unaligned copy shared nothing (remaps unchanged)")
    same_as(c, fd, data, "after the unaligned copy")

    # the EOF block, aligned: the copy stops at the source's EOF
    copied(c, data, fd, 7 * bs, fd, 0, 4 * bs, bs,
           "aligned copy from the last block stops at EOF")
    c.eq(cfr(fd, 8 * bs, fd, 0, bs), 0, "copy from EOF: 0 bytes")
    m.ctl("writeback")
    m.ctl("drop_caches")
    same_as(c, fd, data, "after writeback + drop_caches (the device)")

    c.eq(err_of(cfr, fd, 0, fd, bs, 2 * bs), errno.EINVAL,
         "overlapping aligned ranges: EINVAL")
    c.eq(err_of(cfr, fd, 100, fd, 3000, bs), errno.EINVAL,
         "overlapping unaligned ranges: EINVAL")
    c.eq(cfr_flags(fd, 0, 4 * bs, 100, 1), errno.EINVAL, "flags 1: EINVAL")
    c.eq(err_of(cfr, fd, 0, fd, SIZE - 100, bs), errno.EFBIG,
         "copy past --size: EFBIG")
    c.eq(os.fstat(fd).st_size, len(data), "size after the copies")
    same_as(c, fd, data, "after the refused copies")
    os.close(fd)


def two_files(m, bs, c):
    rnd = random.Random(2)
    a = bytearray(rnd.randbytes(3 * (1 << 19) + 123))  # > 1 MiB chunk
    b = bytearray(rnd.randbytes(2 * bs))
    fa = os.open(m.path("a"), os.O_RDWR | os.O_CREAT)
    fb = os.open(m.path("b"), os.O_RDWR | os.O_CREAT)
    pwrite_all(fa, a, 0)
    pwrite_all(fb, b, 0)
    copied(c, b, fa, 0, fb, 0, 4 << 20, len(a),
           "aligned copy a -> b of all of a (past b's EOF)", src=a)
    copied(c, b, fa, 5000, fb, len(b) + 77, bs, bs,
           "unaligned copy a -> b past b's EOF (a gap)", src=a)
    copied(c, a, fb, 3 * bs + 1, fa, 100, 2 * bs, 2 * bs,
           "unaligned copy b -> a", src=b)
    c.eq(cfr(fa, len(a), fb, 0, bs), 0, "copy from a's EOF: 0 bytes")
    c.eq(err_of(cfr, fa, 0, fb, SIZE - 100, bs), errno.EFBIG,
         "copy past --size: EFBIG")
    c.eq(counters(m, "a")["remaps"] + counters(m, "b")["remaps"], 0,
         "nothing shared between two files")
    same_as(c, fa, a, "a")
    same_as(c, fb, b, "b")
    m.ctl("writeback")
    m.ctl("drop_caches")
    same_as(c, fa, a, "a after writeback + drop_caches")
    same_as(c, fb, b, "b after writeback + drop_caches")
    os.close(fa)
    os.close(fb)


def served(m, c):
    """every COPY_FILE_RANGE reached the daemon and none was refused
    with ENOSYS/EOPNOTSUPP (the kernel's splice fallback would hide it)"""
    log = m.daemon_log()
    ids = set(re.findall(r"unique: (\d+), opcode: COPY_FILE_RANGE ", log))
    refused = [u for u, e in re.findall(r"unique: (\d+), error: (-\d+)", log)
               if u in ids and int(e) in (-errno.ENOSYS, -errno.EOPNOTSUPP)]
    c.ok(len(ids) >= 4, "the daemon got %d COPY_FILE_RANGE requests" %
         len(ids))
    c.eq(refused, [], "none refused with ENOSYS/EOPNOTSUPP")


def cow(m, bs, c, negative):
    rnd = random.Random(3)
    data = bytearray(rnd.randbytes(4 * bs))
    fd = os.open(m.path("g"), os.O_RDWR | os.O_CREAT)
    pwrite_all(fd, data, 0)
    copied(c, data, fd, 0, fd, 2 * bs, 2 * bs, 2 * bs,
           "aligned copy of blocks 0-1 to 2-3")
    c.eq(counters(m, "g")["remaps"], 2, "blocks 2-3 shared")
    # none of block 2 cached: the write must copy the rest around
    m.ctl("drop_caches")
    pos = 2 * bs + 3 * PAGE + 10
    pwrite_all(fd, b"c" * 100, pos)
    data[pos:pos + 100] = b"c" * 100
    m.ctl("writeback")
    m.ctl("drop_caches")
    got = pread_all(fd, bs, 2 * bs)
    bad = sum(1 for x, y in zip(got, data[2 * bs:3 * bs]) if x != y)
    k = counters(m, "g")
    if negative:
        c.ok(bad > 0, "no-copy-around: %d bytes of the shared block wrong "
             "after a 100-byte write, writeback, drop_caches" % bad)
    else:
        c.eq(bad, 0, "shared block after a 100-byte write, writeback, "
             "drop_caches: the source's bytes around the write")
        c.ok(k["ca_filled"] > 0 and k["cow_blocks"] > 0,
             "copy-around filled %d bytes, %d COW blocks remapped" %
             (k["ca_filled"], k["cow_blocks"]))
    c.ok(pread_all(fd, bs, 0) == bytes(data[:bs]),
         "the source block is untouched")
    os.close(fd)


def main():
    need_fuse()
    exe, bs = sys.argv[1], int(sys.argv[2])
    negative = "--negative" in sys.argv
    c = Checks()
    if negative:
        with Mount(exe, bs, inject="no-copy-around") as m:
            cow(m, bs, c, True)
        c.done()
    with Mount(exe, bs) as m:
        same_file(m, bs, c)
        cow(m, bs, c, False)
    # -d: the log shows which requests the daemon served
    with Mount(exe, bs, extra=["-d"]) as m:
        two_files(m, bs, c)
    served(m, c)
    c.done()


if __name__ == "__main__":
    main()
