#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lbs-fuse-fsx campaigns on a mount: each seed must end clean; with
--negative (mounted with --inject no-zero-around) every seed must stop at
a mismatch.
Usage: fsx_campaign.py LBS_FUSE LBS_FUSE_FSX BLOCK_SIZE MODE OPS SEED...
  MODE mixed     the whole mix: buffered, O_DIRECT (15 in 16 aligned),
                 mmap, fallocate, drop_caches and crash through .lbs/ctl
       buffered  no O_DIRECT, no crash"""
import subprocess
import sys

from lbsmount import HANG_S, Checks, Mount, need_fuse

MODES = {"mixed": [], "buffered": ["--unsupported", "dio", "--no-crash"]}


def main():
    need_fuse()
    args = [a for a in sys.argv[1:] if a != "--negative"]
    negative = len(args) < len(sys.argv) - 1
    exe, fsx, bs, mode, ops = args[:5]
    c = Checks()
    with Mount(exe, bs, inject="no-zero-around" if negative else None,
               watchdog=HANG_S) as m:
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
    c.done()


if __name__ == "__main__":
    main()
