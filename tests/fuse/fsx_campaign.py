#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lbs-fuse-fsx campaigns on a mount: each seed must end clean; with
--negative (mounted with --inject no-zero-around) every seed must stop at
a mismatch.
Usage: fsx_campaign.py LBS_FUSE LBS_FUSE_FSX BLOCK_SIZE MODE OPS SEED...
         [--fuse-arg=ARG...]  (passed to lbs-fuse, e.g. --large-folios)
  MODE mixed     the whole mix: buffered, O_DIRECT (15 in 16 aligned),
                 mmap, fallocate, drop_caches and crash through .lbs/ctl
       buffered  no O_DIRECT, no crash"""
import subprocess
import sys

from lbsmount import HANG_S, Checks, Mount, need_fuse

MODES = {"mixed": [], "buffered": ["--unsupported", "dio", "--no-crash"]}


def main():
    need_fuse()
    extra = [a[len("--fuse-arg="):] for a in sys.argv[1:]
             if a.startswith("--fuse-arg=")]
    args = [a for a in sys.argv[1:]
            if a != "--negative" and not a.startswith("--fuse-arg=")]
    negative = "--negative" in sys.argv[1:]
    exe, fsx, bs, mode, ops = args[:5]
    c = Checks()
    with Mount(exe, bs, inject="no-zero-around" if negative else None,
               extra=extra, watchdog=HANG_S) as m:
        for seed in args[5:]:
            cmd = [fsx, "--ops", ops, "--seed", seed, "--quiet"] + \
                MODES[mode] + [m.path("fsx.%s" % seed)]
            r = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=HANG_S)
            out = (r.stdout + r.stderr).strip()
            print(out[-3000:])
            if negative:
                c.ok(r.returncode == 1 and "MISMATCH" in out,
                     "seed %s, no-zero-around: a mismatch (exit %d)" %
                     (seed, r.returncode))
            else:
                c.ok(r.returncode == 0 and "0 mismatches" in out,
                     "seed %s: clean (exit %d)" % (seed, r.returncode))
        if "--large-folios" in extra:
            # the files the campaigns leave: both regimes ran behind the mount
            total = [ln for ln in m.text(".lbs/stats").splitlines()
                     if ln.startswith("total ")][0].split()
            k = dict(zip(total[1::2], total[2::2]))
            c.ok(int(k["lf_large"]) > 0 and int(k["lf_order0"]) > 0,
                 "large folios and pages both made: %s large, %s order 0" %
                 (k["lf_large"], k["lf_order0"]))
            if "--alloc-fail" in extra:
                c.ok(int(k["lf_fallbacks"]) > 0,
                     "large allocations fell back: %s" % k["lf_fallbacks"])
    c.done()


if __name__ == "__main__":
    main()
