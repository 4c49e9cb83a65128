# SPDX-License-Identifier: GPL-2.0
"""Mount lbs-fuse for a test, and always unmount.

Every wait has a timeout.  A watchdog lazily unmounts and kills the daemon
if the test overruns, so blocked I/O on the mount fails (ENOTCONN) instead
of hanging; SIGTERM (meson's timeout) unwinds through the same cleanup.
Exit 77 (skip) only when /dev/fuse is absent.
"""
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77
# Every wait in the FUSE tests ends at HANG_S: past it the daemon or the
# kernel is stuck, however busy the host.  It is no speed limit (see
# hang_timeout in tests/meson.build, which is above it).
HANG_S = 1200


def err_of(fn, *a):
    """fn(*a)'s errno, or 0 if it succeeds"""
    try:
        fn(*a)
        return 0
    except OSError as e:
        return e.errno


def need_fuse():
    if not os.path.exists("/dev/fuse"):
        print("/dev/fuse is absent: skipped")
        sys.exit(SKIP)


def _term(signum, frame):
    raise SystemExit("killed by signal %d" % signum)


signal.signal(signal.SIGTERM, _term)


class Mount:
    """with Mount(exe, bs, ...) as m: m.path(...), m.ctl(...), m.text(...)"""

    def __init__(self, exe, bs, ps=4096, size="16m", inject=None,
                 extra=(), watchdog=HANG_S):
        self.cmd = [exe, "--block-size", str(bs), "--page-size", str(ps),
                    "--size", str(size), "-f"]
        if inject:
            self.cmd += ["--inject", inject]
        self.cmd += list(extra)
        self.watchdog_s = watchdog
        self.proc = None

    def __enter__(self):
        self.mnt = tempfile.mkdtemp(prefix="lbs-fuse-")
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(self.cmd + [self.mnt], stdout=self.log,
                                     stderr=subprocess.STDOUT)
        self.dog = threading.Timer(self.watchdog_s, self._overrun)
        self.dog.daemon = True
        self.dog.start()
        deadline = time.monotonic() + HANG_S
        while not os.path.exists(self.path(".lbs/ctl")):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self._cleanup()
                raise RuntimeError("lbs-fuse did not mount:\n" +
                                   self.daemon_log())
            time.sleep(0.05)
        return self

    def _overrun(self):
        print("watchdog: %d s passed, unmounting" % self.watchdog_s,
              flush=True)
        subprocess.run(["umount", "-l", self.mnt], timeout=HANG_S)
        self.proc.kill()

    def path(self, *parts):
        return os.path.join(self.mnt, *parts)

    def ctl(self, cmd):
        with open(self.path(".lbs/ctl"), "w") as f:
            f.write(cmd + "\n")

    def text(self, rel):
        with open(self.path(rel)) as f:
            return f.read()

    def daemon_log(self):
        self.log.seek(0)
        return self.log.read()

    def unmount(self):
        """fusermount3 -u, lazy umount as the fallback; the daemon's status"""
        r = subprocess.run(["fusermount3", "-u", self.mnt],
                           capture_output=True, text=True, timeout=HANG_S)
        if r.returncode:
            print("fusermount3 -u: %s; lazy umount" % r.stderr.strip())
            subprocess.run(["umount", "-l", self.mnt], timeout=HANG_S)
        try:
            return self.proc.wait(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=HANG_S)
            return "killed (no exit after unmount)"

    def _cleanup(self):
        self.dog.cancel()
        status = self.unmount() if self.proc.poll() is None \
            else self.proc.returncode
        try:
            os.rmdir(self.mnt)
        except OSError:
            subprocess.run(["umount", "-l", self.mnt], timeout=HANG_S)
            os.rmdir(self.mnt)
        return status

    def __exit__(self, et, ev, tb):
        status = self._cleanup()
        log = self.daemon_log()
        if log.strip():
            print("--- lbs-fuse log ---\n" + log + "--- end ---")
        if et is None and status != 0:
            raise RuntimeError("lbs-fuse exited %s after unmount" % status)
        return False


class Checks:
    """Named checks; fail() at the end exits 1 if any failed."""

    def __init__(self):
        self.bad = 0
        self.n = 0

    def ok(self, cond, what):
        self.n += 1
        if not cond:
            self.bad += 1
        print("%s: %s" % ("ok" if cond else "FAIL", what), flush=True)
        return cond

    def eq(self, got, want, what):
        return self.ok(got == want, "%s (got %r, want %r)" % (what, got, want))

    def done(self):
        print("%d passed, %d failed" % (self.n - self.bad, self.bad))
        sys.exit(1 if self.bad else 0)
