#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lbs-fsx on real files, with exact checks of what it prints.

  lbs_fsx_check.py campaign LBS_FSX DIR OPS SEED...
      a campaign per seed on a file in a new directory under DIR, at the
      file system's own block size, --no-crash: exit 0, "0 mismatches",
      bs= the file system's block size, a final checksum
  lbs_fsx_check.py shm LBS_FSX OPS SEED
      the same on /dev/shm (exit 77 if missing); the unsupported ops
      reported must be exactly tmpfs's: zero_range, collapse_range,
      insert_range, and the clone_range, dedupe_range, copy_range,
      unshare_range fstests fsx's probes find missing (and dio where tmpfs
      refuses O_DIRECT), each with a count (at least 1 but for the probed
      ones, which the default mix does not draw)
  lbs_fsx_check.py crosscheck LBS_SIM LBS_FSX DIR BS PS SEED OPS [--negative]
      lbs-sim fsx --record-ops F at BS/PS (--unsupported: what DIR's
      filesystem lacks), then lbs-sim replay F (at BS/PS)
      and lbs-fsx --replay F on a real file under DIR: the same
      final-sum.  --negative: lbs-fsx replays F's last write one byte
      short (--test-perturb-write) and the sums must differ.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fsx_probe  # noqa: E402

SUM = re.compile(r"^final-sum fnv1a64 ([0-9a-f]{16}) size (\d+)$", re.M)
TMPFS_UNSUPPORTED = {"zero_range", "collapse_range", "insert_range"}
# lbs-fsx probes these at start as fstests fsx does
PROBED = {"clone_range", "dedupe_range", "copy_range", "unshare_range"}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    print("$ " + " ".join(cmd))
    sys.stdout.write(r.stdout)
    sys.stdout.write(r.stderr)
    return r


def fail(msg):
    print("FAIL: " + msg)
    return 1


def campaign_one(fsx, d, ops, seed, want_bs):
    r = run([fsx, "--ops", str(ops), "--seed", str(seed), "--no-crash",
             "--quiet", "--final-sum", os.path.join(d, "f")])
    if r.returncode != 0:
        return fail("seed %s: exit %d" % (seed, r.returncode)), r.stdout
    want = "bs=%d ps=%d seed=%s: %d ops in " % (
        want_bs, os.sysconf("SC_PAGESIZE"), seed, ops)
    if want not in r.stdout or ", 0 mismatches;" not in r.stdout:
        return fail("seed %s: no %r ... 0 mismatches" % (seed, want)), ""
    if not SUM.search(r.stdout):
        return fail("seed %s: no final-sum" % seed), ""
    return 0, r.stdout


def campaign(fsx, base, ops, seeds):
    rc = 0
    with tempfile.TemporaryDirectory(prefix="lbs-fsx.", dir=base) as d:
        bs = os.statvfs(d).f_bsize
        for s in seeds:
            rc |= campaign_one(fsx, d, int(ops), s, bs)[0]
    return rc


def dio_works(d):
    try:
        fd = os.open(os.path.join(d, "dio"), os.O_RDWR | os.O_CREAT |
                     os.O_DIRECT)
    except OSError:
        return False
    os.close(fd)
    return True


def shm(fsx, ops, seed):
    if not os.path.isdir("/dev/shm"):
        print("no /dev/shm: skipped")
        return 77
    with tempfile.TemporaryDirectory(prefix="lbs-fsx.", dir="/dev/shm") as d:
        want = set(TMPFS_UNSUPPORTED) | \
            (set(fsx_probe.missing(d, os.statvfs(d).f_bsize)) & PROBED)
        if not dio_works(d):
            want.add("dio")
        rc, out = campaign_one(fsx, d, int(ops), seed, os.statvfs(d).f_bsize)
        if rc:
            return rc
    m = re.search(r", unsupported skipped: ([^\n]*)$", out, re.M)
    if not m:
        return fail("no unsupported ops reported")
    got = {}
    for item in m.group(1).split(", "):
        name, count = item.rsplit(" ", 1)
        got[name] = int(count)
    if set(got) != want:
        return fail("unsupported %s, expected %s" % (sorted(got), sorted(want)))
    # found by an op failing: counted; probed at start: maybe not in the mix
    if min(v for k, v in got.items() if k not in PROBED) < 1:
        return fail("a reported feature with no op skipped: %s" % got)
    print("unsupported on tmpfs as expected: %s" % got)
    return 0


def final_sum(r, who):
    m = SUM.search(r.stdout)
    if r.returncode != 0 or not m:
        print("FAIL: %s: exit %d, final-sum %s" % (who, r.returncode,
                                                   m and m.group(0)))
        return None
    return m.group(1), m.group(2)


def crosscheck(sim, fsx, base, bs, ps, seed, ops, negative):
    bs, ps = int(bs), int(ps)
    size = str(max(256 * 1024, 16 * bs))	# lbs_fsx_max_size()
    with tempfile.TemporaryDirectory(prefix="lbs-fsx.", dir=base) as d:
        rec = os.path.join(d, "ops.fsxops")
        miss = fsx_probe.missing(d, bs)
        r = run([sim, "fsx", "--block-size", str(bs), "--page-size", str(ps),
                 "--seed", seed, "--ops", ops, "--no-crash", "--quiet",
                 "--record-ops", rec] +
                (["--unsupported", ",".join(miss)] if miss else []))
        if r.returncode != 0 or ", 0 mismatches;" not in r.stdout:
            return fail("lbs-sim fsx: exit %d" % r.returncode)
        with open(rec) as f:
            writes = sum(1 for line in f if line.startswith("write "))
        s = final_sum(run([sim, "replay", "--block-size", str(bs),
                           "--page-size", str(ps), "--file-size", size,
                           "--final-sum", rec]), "lbs-sim replay")
        cmd = [fsx, "--replay", rec, "--file-size", size, "--final-sum"]
        if negative:
            cmd += ["--test-perturb-write", str(writes)]
        r = run(cmd + [os.path.join(d, "f")])
        f = final_sum(r, "lbs-fsx --replay")
        if not s or not f:
            return 1
    print("lbs-sim replay bs=%d ps=%d: %s size %s" % (bs, ps, s[0], s[1]))
    print("lbs-fsx replay (real file): %s size %s" % f)
    if negative:
        if "replayed one byte short" not in r.stderr:
            return fail("the perturbation did not happen")
        if s == f:
            return fail("perturbed replay gave the same final-sum: the "
                        "cross-check cannot see a changed write")
        print("negative control: the cross-check sees the perturbed write")
        return 0
    if s != f:
        return fail("final-sum differs")
    print("same final bytes")
    return 0


def main(a):
    if a[0] == "campaign":
        return campaign(a[1], a[2], a[3], a[4:])
    if a[0] == "shm":
        return shm(a[1], a[2], a[3])
    if a[0] == "crosscheck":
        return crosscheck(*a[1:8], negative="--negative" in a[8:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
