#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Byte-for-byte agreement with fstests fsx on a replayed op list.

  fsx_agree.py LBS_SIM LBS_FSX FSX DIR BS PS SEED OPS [--negative]

lbs-sim fsx --record-ops F (at BS/PS, --no-crash, and --unsupported for
the ops DIR's filesystem lacks: fallocate modes, clone, dedupe, copy,
unshare), then the same F replayed by the vendored fstests fsx
(--replay-ops, -S SEED) on a file under DIR, by lbs-fsx --replay on
another file there and by lbs-sim replay: the three final files must have
the same sha256.  --negative: lbs-sim replays with --test-perturb-gendata
(odd bytes without fsx's random term) and must differ from fsx.

  fsx_agree.py fixture LBS_SIM LBS_FSX FSX DIR FIXTURE

A hand-written .fsxops (fsx's own lines) replayed by the three, with the
same sha256.  Where DIR's filesystem lacks an op, fsx disables it and logs
its lines as skipped (unshare lines it cannot: they become "skip" lines,
as a recording made there has them); lbs-sim replay --unsupported and
lbs-fsx must skip the same lines, count them, and fsx must say it
disabled the op: a skip is checked, never a silent pass.

  fsx_agree.py xfs LBS_SIM LBS_FSX FSX FIXTURE SEED OPS

Both of the above on a fresh XFS (reflink on: every op runs) in a loop
device: root, mkfs.xfs and loop devices needed, else skipped (77).
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fsx_probe  # noqa: E402

# what fsx prints when its probe at start disables an op
FSX_DISABLED = {"clone_range": "does not support clone range",
                "dedupe_range": "does not support dedupe range",
                "copy_range": "does not support copy range",
                "unshare_range": "fallocate mode FALLOC_FL_UNSHARE_RANGE,"}
UNSUP = re.compile(r", unsupported skipped: ([^\n]*)$", re.M)


def run(cmd):
    print("$ " + " ".join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(r.stdout[-1500:])
    sys.stdout.write(r.stderr[-1500:])
    return r


def unsupported_counts(out):
    """{feature: ops skipped} from a tool's ", unsupported skipped:" """
    m = UNSUP.search(out)
    if not m:
        return {}
    return {k: int(v) for k, v in (x.rsplit(" ", 1)
                                   for x in m.group(1).split(", "))}


def same_skips(miss, fsx_err, lfsx_out):
    """fsx disabled, and lbs-fsx found missing, what the probe found"""
    want = {k for k in miss if k in FSX_DISABLED}
    got_fsx = {k for k, v in FSX_DISABLED.items() if v in fsx_err}
    got_lfsx = set(unsupported_counts(lfsx_out)) & set(FSX_DISABLED)
    if got_fsx != want or got_lfsx != want:
        print("FAIL: missing here %s; fstests fsx disabled %s, lbs-fsx "
              "found %s" % (sorted(want), sorted(got_fsx), sorted(got_lfsx)))
        return False
    print("skipped the same way (missing here: %s)" % (sorted(want) or
                                                       "none"))
    return True


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main(a):
    neg = "--negative" in a
    sim, lfsx, fsx, base, bs, ps, seed, ops = [x for x in a
                                               if x != "--negative"]
    size = str(max(256 * 1024, 16 * int(bs)))	# lbs_fsx_max_size()
    with tempfile.TemporaryDirectory(prefix="lbs-agree.", dir=base) as d:
        rec = os.path.join(d, "ops.fsxops")
        miss = fsx_probe.missing(d, int(bs))
        r = run([sim, "fsx", "--block-size", bs, "--page-size", ps,
                 "--seed", seed, "--ops", ops, "--no-crash", "--quiet",
                 "--record-ops", rec] +
                (["--unsupported", ",".join(miss)] if miss else []))
        if r.returncode:
            print("FAIL: lbs-sim fsx exit %d" % r.returncode)
            return 1
        simbin = os.path.join(d, "sim.bin")
        r1 = run([sim, "replay", "--block-size", bs, "--page-size", ps,
                  "--seed", seed, "--file-size", size, "--final", simbin,
                  rec] + (["--test-perturb-gendata"] if neg else []))
        # not -q: its messages say what it disabled
        r2 = run([fsx, "-S", seed, "-l", size, "--replay-ops", rec,
                  os.path.join(d, "fsx.f")])
        r3 = run([lfsx, "--replay", rec, "--seed", seed, "--file-size", size,
                  "--quiet", os.path.join(d, "lbs-fsx.f")])
        if r1.returncode or r2.returncode or r3.returncode:
            print("FAIL: replay exit %d / %d / %d" % (r1.returncode,
                                                      r2.returncode,
                                                      r3.returncode))
            return 1
        if not neg and not same_skips(miss, r2.stderr + r2.stdout,
                                      r3.stdout):
            return 1
        sums = {"lbs-sim replay": sha(simbin),
                "fstests fsx": sha(os.path.join(d, "fsx.f")),
                "lbs-fsx --replay": sha(os.path.join(d, "lbs-fsx.f"))}
        lines = sum(1 for x in open(rec) if x.split()[:1] not in
                    ([], ["skip"]) and not x.startswith("#"))
    for k, v in sums.items():
        print("%-17s sha256 %s" % (k, v))
    print("%d op lines replayed; unsupported here: %s" % (lines,
                                                          miss or "none"))
    if neg:
        if sums["lbs-sim replay"] == sums["fstests fsx"]:
            print("FAIL: a wrong byte rule gave fsx's bytes")
            return 1
        print("negative control: the wrong byte rule is seen")
        return 0
    if len(set(sums.values())) != 1:
        print("FAIL: final bytes differ")
        return 1
    print("identical final bytes")
    return 0


def fixture(sim, lfsx, fsx, base, fix):
    with tempfile.TemporaryDirectory(prefix="lbs-agree.", dir=base) as d:
        miss = fsx_probe.missing(d, 4096)
        ops = os.path.join(d, "ops.fsxops")
        lines, skipped = [], {}
        for line in open(fix):
            w = line.split()
            op = w[0] if w else ""
            if op == "fallocate" and "unshare" in w:
                op = "unshare_range"
            if op in miss and op in FSX_DISABLED:
                # fsx fails on an unshare it lacks; a recording made
                # here has "skip" there
                if op == "unshare_range":
                    line = "skip " + line
                else:
                    skipped[op] = skipped.get(op, 0) + 1
            lines.append(line)
        with open(ops, "w") as f:
            f.writelines(lines)
        simbin = os.path.join(d, "sim.bin")
        unsup = [k for k in miss if k in FSX_DISABLED]
        r1 = run([sim, "replay", "--final", simbin, ops] +
                 (["--unsupported", ",".join(unsup)] if unsup else []))
        r2 = run([fsx, "--replay-ops", ops, os.path.join(d, "fsx.f")])
        r3 = run([lfsx, "--replay", ops, os.path.join(d, "lbs-fsx.f")])
        if r1.returncode or r2.returncode or r3.returncode:
            print("FAIL: replay exit %d / %d / %d" % (
                r1.returncode, r2.returncode, r3.returncode))
            return 1
        if "0 not modelled" not in r1.stdout:
            return fail("lbs-sim replay left ops unmodelled")
        if not same_skips(miss, r2.stderr + r2.stdout, r3.stdout):
            return 1
        for who, out in (("lbs-sim replay", r1.stdout),
                         ("lbs-fsx --replay", r3.stdout)):
            got = {k: v for k, v in unsupported_counts(out).items()
                   if k in FSX_DISABLED and v}
            if got != skipped:
                return fail("%s skipped %s, expected %s" % (who, got,
                                                            skipped))
        sums = {"lbs-sim replay": sha(simbin),
                "fstests fsx": sha(os.path.join(d, "fsx.f")),
                "lbs-fsx --replay": sha(os.path.join(d, "lbs-fsx.f"))}
    for k, v in sums.items():
        print("%-17s sha256 %s" % (k, v))
    if len(set(sums.values())) != 1:
        return fail("final bytes differ")
    print("identical final bytes; lines skipped for the filesystem: %s" %
          (skipped or "none"))
    return 0


def fail(msg):
    print("FAIL: " + msg)
    return 1


def xfs(sim, lfsx, fsx, fix, seed, ops):
    if os.geteuid() or not shutil.which("mkfs.xfs") or \
            not os.path.exists("/dev/loop-control"):
        print("needs root, mkfs.xfs and loop devices: skipped")
        return 77
    with tempfile.TemporaryDirectory(prefix="lbs-xfs.") as d:
        img, mnt = os.path.join(d, "img"), os.path.join(d, "mnt")
        os.mkdir(mnt)
        with open(img, "wb") as f:
            f.truncate(300 << 20)
        if run(["mkfs.xfs", "-q", "-f", "-b", "size=4096", "-m",
                "reflink=1", img]).returncode or \
                run(["mount", "-o", "loop", img, mnt]).returncode:
            print("cannot make or mount an XFS image: skipped")
            return 77
        try:
            miss = fsx_probe.missing(mnt, 4096)
            if miss:
                return fail("XFS with reflink lacks %s" % miss)
            rc = fixture(sim, lfsx, fsx, mnt, fix)
            rc |= main([sim, lfsx, fsx, mnt, "4096", "4096", seed, ops])
        finally:
            run(["umount", mnt])
    return rc


if __name__ == "__main__":
    if sys.argv[1:2] == ["fixture"]:
        sys.exit(fixture(*sys.argv[2:7]))
    if sys.argv[1:2] == ["xfs"]:
        sys.exit(xfs(*sys.argv[2:8]))
    sys.exit(main(sys.argv[1:]))
