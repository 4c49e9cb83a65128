#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fsx's O_DIRECT campaign mode (-Z -r -w -t -R -W) in lbs-sim and lbs-fsx.

  fsx_modes.py rules LBS_SIM BS PS R T W [--negative]
      lbs-sim fsx -Z -R -W -r R -t T -w W --record-ops F (generic/091's
      pattern): 0 mismatches, writes happened, and every recorded read,
      write and truncate follows fsx's rounding (offsets, and O_DIRECT
      lengths, multiples of R / W; sizes of T); no mapread/mapwrite.
      --negative: the same campaign without -r/-w/-t must break the rules
      (the checker sees misalignment).
  fsx_modes.py samestream LBS_SIM LBS_FSX DIR BS ARGS... [--negative]
      the same seed and options in lbs-sim (at BS, ps = page size) and in
      lbs-fsx on a file under DIR: identical recordings, same final-sum.
      --negative: lbs-fsx with the next seed must differ.
  fsx_modes.py mix LBS_SIM MIX NAME... [--negative]
      lbs-sim fsx --ops-mix MIX --record-ops F: the recording has exactly
      the fsx op names NAME... (O_DIRECT ops are logged as read/write).
      --negative: the default mix must fail that check.
  fsx_modes.py einval LBS_SIM BS [--negative]
      -Z -R -W without alignment: the oracle expects XFS's EINVAL for
      unaligned O_DIRECT; 0 mismatches and EINVAL counted.  --negative:
      --test-dio-accept-unaligned (the simulator takes them) must be
      caught as an unexpected result (exit 1).
  fsx_modes.py remapreplay LBS_SIM BS PS SEED [--negative]
      lbs-sim fsx with clone_range, dedupe_range, copy_range and
      unshare_range in the mix, --record-ops F --final-sum: each of them
      recorded as run (not "skip") at least 20 times, and lbs-sim replay F
      ends with the campaign's final-sum.  Skipped (77) while the
      simulator lacks them (EOPNOTSUPP).  --negative: the replay with the
      four ops --unsupported (skipped) must end with another sum.
"""
import os
import re
import subprocess
import sys
import tempfile

SUM = re.compile(r"^final-sum fnv1a64 ([0-9a-f]{16}) size (\d+)$", re.M)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    print("$ " + " ".join(cmd))
    sys.stdout.write(r.stdout[-2000:])
    sys.stdout.write(r.stderr[-2000:])
    return r


def fail(msg):
    print("FAIL: " + msg)
    return 1


def violations(path, rbdy, tbdy, wbdy):
    bad, writes = [], 0
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#") or w[0] == "skip":
                continue
            op, a = w[0], [int(x, 0) for x in w[1:4]]
            if op in ("mapread", "mapwrite"):
                bad.append(line)
            elif op == "read" and (a[0] % rbdy or a[1] % rbdy):
                bad.append(line)
            elif op == "write":
                writes += 1
                if a[0] % wbdy or a[1] % wbdy:
                    bad.append(line)
            elif op == "truncate" and a[1] % tbdy:
                bad.append(line)
    return bad, writes


def rules(sim, bs, ps, rbdy, tbdy, wbdy, negative):
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "r.fsxops")
        align = [] if negative else ["-r", rbdy, "-t", tbdy, "-w", wbdy]
        r = run([sim, "fsx", "--block-size", bs, "--page-size", ps,
                 "--ops", "4000", "--seed", "7", "--quiet",
                 "--op-size", str(4 * int(wbdy)), "-Z", "-R", "-W"] + align +
                ["--record-ops", rec])
        if r.returncode != 0 or ", 0 mismatches;" not in r.stdout:
            return fail("exit %d" % r.returncode)
        bad, writes = violations(rec, int(rbdy), int(tbdy), int(wbdy))
    print("%d writes, %d lines off fsx's rounding" % (writes, len(bad)))
    if negative:
        if not bad:
            return fail("unaligned campaign passed the rule check")
        print("negative control: the checker sees unaligned ops")
        return 0
    if writes < 100:
        return fail("only %d writes: the mode does not write" % writes)
    if bad:
        return fail("not rounded as fsx does: " + bad[0].strip())
    return 0


def samestream(sim, fsx, base, bs, args, negative):
    with tempfile.TemporaryDirectory(prefix="lbs-fsx.", dir=base) as d:
        r1, r2 = os.path.join(d, "sim.fsxops"), os.path.join(d, "fsx.fsxops")
        common = ["--ops", "3000", "--no-crash", "--quiet", "--final-sum"]
        a = run([sim, "fsx", "--block-size", bs, "--page-size",
                 str(os.sysconf("SC_PAGESIZE")), "--seed", "5"] + common +
                args + ["--record-ops", r1])
        seed = "6" if negative else "5"
        b = run([fsx, "--seed", seed] + common + args +
                ["--record-ops", r2, os.path.join(d, "f")])
        if a.returncode or b.returncode:
            return fail("exit %d / %d" % (a.returncode, b.returncode))
        same = open(r1).read() == open(r2).read()
        s1, s2 = SUM.search(a.stdout), SUM.search(b.stdout)
        sums = s1 and s2 and s1.group(0) == s2.group(0)
    if negative:
        if same or sums:
            return fail("another seed gave the same stream")
        print("negative control: a different stream is seen")
        return 0
    if not same:
        return fail("the recordings differ")
    if not sums:
        return fail("the final sums differ")
    print("same op stream and final bytes in both tools")
    return 0


def einval(sim, bs, negative):
    cmd = [sim, "fsx", "--block-size", bs, "--page-size", "4096",
           "--ops", "3000", "--seed", "3", "--quiet", "-Z", "-R", "-W"]
    if negative:
        r = run(cmd + ["--test-dio-accept-unaligned"])
        if r.returncode != 1 or "unexpected result" not in r.stderr:
            return fail("unaligned O_DIRECT taken, not caught")
        print("negative control: caught")
        return 0
    r = run(cmd)
    m = re.search(r"0 mismatches;.* (\d+) EINVAL", r.stdout)
    if r.returncode or not m or int(m.group(1)) < 10:
        return fail("expected a clean run with EINVAL results")
    return 0


def mix(sim, spec, names, negative):
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "r.fsxops")
        r = run([sim, "fsx", "--block-size", "65536", "--page-size", "4096",
                 "--ops", "2000", "--seed", "2", "--quiet",
                 "--record-ops", rec] + ([] if negative else
                                         ["--ops-mix", spec]))
        if r.returncode != 0:
            return fail("exit %d" % r.returncode)
        seen = set()
        with open(rec) as f:
            for line in f:
                w = line.split()
                if w and not w[0].startswith("#"):
                    seen.add(w[1] if w[0] == "skip" else w[0])
    print("ops recorded: %s" % sorted(seen))
    ok = seen == set(names)
    if negative:
        if ok:
            return fail("the default mix passed the check")
        print("negative control: other ops are seen")
        return 0
    return 0 if ok else fail("expected exactly %s" % sorted(names))


REMAP_MIX = ("write=4,mapwrite=1,read=1,truncate=1,punch_hole=1,"
             "fsync=1,writeback=1,clone_range=2,dedupe_range=2,"
             "copy_range=2,unshare_range=1")
REMAP_OPS = ("clone_range", "dedupe_range", "copy_range", "unshare_range")


def remapreplay(sim, bs, ps, seed, negative):
    geo = ["--block-size", bs, "--page-size", ps, "--seed", seed]
    size = str(max(256 * 1024, 16 * int(bs)))	# lbs_fsx_max_size()
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "r.fsxops")
        r = run([sim, "fsx"] + geo + ["--ops", "3000", "--no-crash",
                                      "--quiet", "--ops-mix", REMAP_MIX,
                                      "--record-ops", rec, "--final-sum"])
        m = SUM.search(r.stdout)
        if r.returncode or not m or ", 0 mismatches;" not in r.stdout:
            return fail("lbs-sim fsx: exit %d" % r.returncode)
        lacking = [k for k in REMAP_OPS
                   if re.search(r"unsupported skipped:.* %s \d" % k,
                                r.stdout)]
        if lacking:
            print("the simulator lacks %s (EOPNOTSUPP): skipped" % lacking)
            return 77
        counts = dict.fromkeys(REMAP_OPS, 0)
        with open(rec) as f:
            for line in f:
                w = line.split()
                if not w or w[0] == "skip" or w[0].startswith("#"):
                    continue
                op = "unshare_range" if w[0] == "fallocate" and \
                    "unshare" in w else w[0]
                if op in counts:
                    counts[op] += 1
        print("recorded as run: %s" % counts)
        if min(counts.values()) < 20:
            return fail("too few of an op ran")
        r2 = run([sim, "replay"] + geo + ["--file-size", size,
                                          "--final-sum", rec] +
                 (["--unsupported", ",".join(REMAP_OPS)] if negative
                  else []))
        m2 = SUM.search(r2.stdout)
        if r2.returncode or not m2:
            return fail("lbs-sim replay: exit %d" % r2.returncode)
    print("campaign %s, replay %s" % (m.group(0), m2.group(0)))
    if negative:
        if m.groups() == m2.groups():
            return fail("a replay without them gave the same final-sum")
        print("negative control: the replay sees the ops' bytes")
        return 0
    if m.groups() != m2.groups():
        return fail("the replay ends with other bytes")
    print("the replay ends with the campaign's bytes")
    return 0


def main(a):
    neg = "--negative" in a
    a = [x for x in a if x != "--negative"]
    if a[0] == "rules":
        return rules(*a[1:7], negative=neg)
    if a[0] == "samestream":
        return samestream(a[1], a[2], a[3], a[4], a[5:], neg)
    if a[0] == "mix":
        return mix(a[1], a[2], a[3:], neg)
    if a[0] == "einval":
        return einval(a[1], a[2], neg)
    if a[0] == "remapreplay":
        return remapreplay(*a[1:5], negative=neg)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
