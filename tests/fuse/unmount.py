#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lbs-fuse unmounts cleanly on fusermount3 -u, SIGINT and SIGTERM (exit
0, mount gone), and a killed daemon leaves nothing hanging: I/O fails
with ENOTCONN and the harness still unmounts.
Usage: unmount.py LBS_FUSE"""
import errno
import os
import signal
import sys
import time

from lbsmount import Checks, Mount, need_fuse


def mounted(path):
    with open("/proc/mounts") as f:
        return any(l.split()[1] == path for l in f)


def wait_exit(proc, seconds=20):
    deadline = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return proc.poll()


def main():
    need_fuse()
    exe = sys.argv[1]
    c = Checks()
    for how in ("fusermount3", "SIGINT", "SIGTERM"):
        with Mount(exe, 16384) as m:
            with open(m.path("f"), "wb") as f:
                f.write(b"x" * 5000)
            if how == "fusermount3":
                status = m.unmount()
            else:
                m.proc.send_signal(getattr(signal, how))
                status = wait_exit(m.proc)
            c.eq(status, 0, "%s: the daemon exits 0" % how)
            c.ok(not mounted(m.mnt), "%s: the mount is gone" % how)
    try:
        with Mount(exe, 16384) as m:
            m.proc.kill()
            wait_exit(m.proc)
            try:
                os.stat(m.path("f"))
                e = 0
            except OSError as x:
                e = x.errno
            c.eq(e, errno.ENOTCONN, "killed daemon: I/O fails at once")
    except RuntimeError as x:
        c.ok("exited -9" in str(x), "killed daemon: reported (%s)" % x)
    c.ok(not mounted(m.mnt), "killed daemon: the harness unmounted")
    c.done()


if __name__ == "__main__":
    main()
