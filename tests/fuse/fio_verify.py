#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fio with verify=crc32c through lbs-fuse: a short random write job, then
its verify pass, buffered and O_DIRECT, with drop_caches between them so
verify reads the simulated device.  Negative control: one byte changed
through the mount must make fio's verify-only pass fail.
Usage: fio_verify.py LBS_FUSE BLOCK_SIZE"""
import os
import subprocess
import sys

from lbsmount import HANG_S, Checks, Mount, need_fuse


def fio(path, direct, *extra):
    cmd = ["fio", "--name=lbs", "--filename=" + path, "--size=4m",
           "--rw=randwrite", "--bs=4k", "--ioengine=psync",
           "--direct=%d" % direct, "--verify=crc32c", "--verify_fatal=1",
           "--randrepeat=1", "--randseed=7", "--norandommap",
           "--verify_state_save=0"] + list(extra)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=HANG_S)
    return r.returncode, r.stdout + r.stderr


def main():
    need_fuse()
    exe, bs = sys.argv[1], sys.argv[2]
    c = Checks()
    with Mount(exe, bs, size="8m") as m:
        for direct in (0, 1):
            path = m.path("fio.%d" % direct)
            rc, out = fio(path, direct, "--do_verify=0")
            c.eq(rc, 0, "fio randwrite, direct=%d" % direct)
            m.ctl("writeback")
            m.ctl("drop_caches")
            rc, out = fio(path, direct, "--verify_only")
            if not c.eq(rc, 0, "fio verify crc32c, direct=%d" % direct):
                print(out[-3000:])
        # negative control: a changed byte must be found
        path = m.path("fio.0")
        fd = os.open(path, os.O_RDWR)
        at = (1 << 20) + 2000       # past fio's block header: the crc
        b = os.pread(fd, 1, at)
        os.pwrite(fd, bytes([b[0] ^ 0xff]), at)
        os.close(fd)
        rc, out = fio(path, 0, "--verify_only")
        c.ok(rc != 0 and "crc32c: verify failed" in out,
             "one changed byte: fio verify fails (exit %d)" % rc)
    c.done()


if __name__ == "__main__":
    main()
