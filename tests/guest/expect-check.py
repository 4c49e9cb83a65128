#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check tests/guest/expect.txt's form before a guest reads it.

    expect-check.py EXPECT RUN_SUITE LBS_VERIFY

run-suite.sh reads each line as "KERNEL BS TEST xfail SYMPTOM REASON"
with grep -E on SYMPTOM; a line it cannot use would turn an expected
failure into an unexplained one, or worse, a symptom that matches any
reason.  Each line must name a kernel the suite boots (or *), a block
size (4096..65536, >N or *), a test of `run-suite.sh --list` (or *),
the word xfail, a symptom that grep -E accepts and that does not match
an empty reason, and a reason; no two lines may name the same kernel,
block size and test (run-suite.sh takes the first).  Exit 0 good, 1 bad.
"""
import os
import re
import subprocess
import sys

KERNELS = ("patched-6.1", "ref-6.12", "stock-6.1", "*")
SIZES = ("4096", "8192", "16384", "32768", "65536")


def main():
    path, suite, verify = sys.argv[1:4]
    env = dict(os.environ, LBS_VERIFY_BIN=verify)
    r = subprocess.run(["sh", suite, "--list"], capture_output=True, text=True, env=env)
    tests = r.stdout.split()
    if r.returncode or "mount" not in tests or len(tests) < 10:
        print("expect-check: run-suite.sh --list failed (%d): %s" % (r.returncode, r.stderr.strip()))
        return 1
    bad, seen = [], {}
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 5)
            where = "%s:%d" % (path, n)
            if len(parts) < 6:
                bad.append("%s: KERNEL BS TEST xfail SYMPTOM REASON: %r" % (where, line))
                continue
            k, bs, t, word, sym, _ = parts
            if k not in KERNELS:
                bad.append("%s: kernel %r is none of %s" % (where, k, ", ".join(KERNELS)))
            if not (bs == "*" or bs in SIZES or (bs.startswith(">") and bs[1:] in SIZES)):
                bad.append("%s: block size %r (a size, >SIZE or *)" % (where, bs))
            if t != "*" and t not in tests:
                bad.append("%s: test %r is not in run-suite.sh --list" % (where, t))
            if word != "xfail":
                bad.append("%s: %r where xfail goes" % (where, word))
            g = subprocess.run(["grep", "-qE", sym], input="", capture_output=True, text=True)
            if g.returncode == 2:
                bad.append("%s: grep -E refuses the symptom %r: %s" % (where, sym, g.stderr.strip()))
            elif g.returncode == 0 or re.fullmatch(r"[.*]*", sym):
                bad.append("%s: the symptom %r matches any reason" % (where, sym))
            key = (k, bs, t)
            if key in seen:
                bad.append("%s: %s %s %s again (line %d is the one used)" % (where, k, bs, t, seen[key]))
            seen.setdefault(key, n)
    for b in bad:
        print("expect-check: " + b)
    print("expect-check: %d lines, %d problems" % (len(seen), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
