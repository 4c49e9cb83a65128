#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Byte-for-byte agreement with fstests fsx on a replayed op list.

  fsx_agree.py LBS_SIM LBS_FSX FSX DIR BS PS SEED OPS [--negative]

lbs-sim fsx --record-ops F (at BS/PS, --no-crash, and --unsupported for
the fallocate modes DIR's filesystem lacks), then the same F replayed by
the vendored fstests fsx (--replay-ops, -S SEED) on a file under DIR, by
lbs-fsx --replay on another file there and by lbs-sim replay: the three
final files must have the same sha256.  --negative: lbs-sim replays with
--test-perturb-gendata (odd bytes without fsx's random term) and must
differ from fsx.
"""
import ctypes
import ctypes.util
import hashlib
import os
import subprocess
import sys
import tempfile

# fallocate modes (linux/falloc.h) and lbs-sim's feature names
MODES = {"punch_hole": 0x02 | 0x01, "zero_range": 0x10,
         "collapse_range": 0x08, "insert_range": 0x20}


def run(cmd):
    print("$ " + " ".join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(r.stdout[-1500:])
    sys.stdout.write(r.stderr[-1500:])
    return r


def unsupported(d, bs):
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                               ctypes.c_int64]
    missing = []
    path = os.path.join(d, "probe")
    for name, mode in MODES.items():
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
        os.ftruncate(fd, 4 * bs)
        if libc.fallocate(fd, mode, bs, bs) and \
                ctypes.get_errno() in (95, 38):	# EOPNOTSUPP, ENOSYS
            missing.append(name)
        os.close(fd)
    os.unlink(path)
    return missing


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
        miss = unsupported(d, int(bs))
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
        r2 = run([fsx, "-q", "-S", seed, "-l", size, "--replay-ops", rec,
                  os.path.join(d, "fsx.f")])
        r3 = run([lfsx, "--replay", rec, "--seed", seed, "--file-size", size,
                  "--quiet", os.path.join(d, "lbs-fsx.f")])
        if r1.returncode or r2.returncode or r3.returncode:
            print("FAIL: replay exit %d / %d / %d" % (r1.returncode,
                                                      r2.returncode,
                                                      r3.returncode))
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
