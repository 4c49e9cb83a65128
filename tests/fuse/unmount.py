#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lbs-fuse unmounts cleanly on fusermount3 -u, SIGINT and SIGTERM (exit
0, mount gone), and a killed daemon leaves nothing hanging: I/O fails
with ENOTCONN and the harness still unmounts.  A SIGTERM while a file
and a directory are still open (so no RELEASE or RELEASEDIR can ever
arrive, the worst case of the asynchronous-release race) must still
free both: the daemon says so, and under ASan LeakSanitizer would fail
its exit status.
Usage: unmount.py LBS_FUSE"""
import errno
import os
import signal
import sys
import time

from lbsmount import HANG_S, Checks, Mount, need_fuse


def mounted(path):
    with open("/proc/mounts") as f:
        return any(l.split()[1] == path for l in f)


def wait_exit(proc, seconds=HANG_S):
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
    with Mount(exe, 16384) as m:
        with open(m.path("f"), "wb") as f:
            f.write(b"x" * 5000)
        os.mkdir(m.path("d"))
        held = [os.open(m.path("f"), os.O_RDWR),
                os.open(m.path("d"), os.O_RDONLY | os.O_DIRECTORY),
                os.open(m.mnt, os.O_RDONLY | os.O_DIRECTORY)]
        m.proc.send_signal(signal.SIGTERM)
        status = wait_exit(m.proc)
        for fd in held:
            try:
                os.close(fd)
            except OSError:
                pass            # ENOTCONN: the connection is gone
        c.eq(status, 0, "SIGTERM with handles open: the daemon exits 0")
        c.ok("freed 3 handles the kernel never released" in m.daemon_log(),
             "SIGTERM with a file and two directories open: all 3 freed")
        c.ok(not mounted(m.mnt), "SIGTERM with handles open: mount gone")
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
