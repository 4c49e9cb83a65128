#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A recorded campaign with crashes replays to the campaign, crash by crash.

  replay_crash.py LBS_SIM BS PS SEED OPS [MIX] [--negative no-crash|old-notes]
      lbs-sim fsx (crashes in the default mix; --ops-mix MIX if given)
      --record-ops F --final-sum, then lbs-sim replay F: the same final-sum,
      the same number of crashes (at least 10), and the same file after
      every crash (size and FNV-1a 64 of the bytes: the "after crash" lines
      of LBS_SIM_TRACE).  The crashes are "# lbs-sim crash" comments to
      fstests' fsx, and so are the notes of what a crash loses (writeback,
      drop_caches, fsync_range, O_DIRECT, short writes, punches past EOF).
      --negative no-crash: the replay with --no-crash (the crash lines left
      as comments) must end with another final-sum.  --negative old-notes:
      F with only its crash notes (what the recorder wrote before the other
      notes) must fail the check.
"""
import os
import re
import subprocess
import sys
import tempfile

SUM = re.compile(r"^final-sum fnv1a64 ([0-9a-f]{16}) size (\d+)$", re.M)
AFTER = re.compile(r"^  after crash: .*$", re.M)
CRASHES = re.compile(r", (\d+) crashes")
# every note but the crash: the recorder's notes of what a crash loses
LOSS_NOTES = re.compile(r"^# lbs-sim (writeback|drop_caches|fsync_range|"
                        r"dread|dwrite|write_short|punch_hole) ")


def run(cmd):
    env = dict(os.environ, LBS_SIM_TRACE="1")
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    print("$ " + " ".join(cmd))
    sys.stdout.write(r.stdout[-1500:])
    bad = [x for x in r.stderr.splitlines()
           if not x.startswith("op ") and not x.startswith("  after crash")]
    sys.stdout.write("\n".join(bad[-20:]) + ("\n" if bad else ""))
    return r


def fail(msg):
    print("FAIL: " + msg)
    return 1


def outcome(r, who):
    """(final-sum, crash count, after-crash states) of a clean run"""
    m, c = SUM.search(r.stdout), CRASHES.search(r.stdout)
    if r.returncode or not m or " MISMATCH" in r.stdout:
        print("%s: exit %d, %s" % (who, r.returncode,
                                   m.group(0) if m else "no final-sum"))
        return None
    return m.groups(), int(c.group(1)) if c else 0, AFTER.findall(r.stderr)


def same(a, b):
    """None if the replay @b is the run @a, else what differs"""
    if a[1] != b[1]:
        return "%d crashes in the run, %d in the replay" % (a[1], b[1])
    for k, (x, y) in enumerate(zip(a[2], b[2])):
        if x != y:
            return "the file after crash %d: run %s, replay %s" % (
                k + 1, x.split(": ", 1)[1], y.split(": ", 1)[1])
    if a[0] != b[0]:
        return "final-sum %s size %s, replay %s size %s" % (a[0] + b[0])
    return None


def main(argv):
    neg = None
    if "--negative" in argv:
        k = argv.index("--negative")
        neg = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    if len(argv) not in (5, 6) or neg not in (None, "no-crash", "old-notes"):
        print(__doc__)
        return 2
    sim, bs, ps, seed, ops = argv[:5]
    geo = ["--block-size", bs, "--page-size", ps, "--seed", seed]
    mix = ["--ops-mix", argv[5]] if len(argv) == 6 else []
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "r.fsxops")
        a = outcome(run([sim, "fsx"] + geo + mix +
                        ["--ops", ops, "--quiet", "--record-ops", rec,
                         "--final-sum"]), "lbs-sim fsx")
        if not a:
            return fail("the campaign did not end clean")
        if a[1] < 10 or len(a[2]) != a[1]:
            return fail("%d crashes (%d states traced): too few to check"
                        % (a[1], len(a[2])))
        args = []
        if neg == "no-crash":
            args = ["--no-crash"]
        elif neg == "old-notes":
            with open(rec) as f:
                lines = [x for x in f if not LOSS_NOTES.match(x)]
            rec = os.path.join(d, "old.fsxops")
            with open(rec, "w") as f:
                f.writelines(lines)
        b = outcome(run([sim, "replay"] + geo + args + ["--final-sum", rec]),
                    "lbs-sim replay")
    if not b:
        return fail("the replay did not end clean")
    diff = same(a, b)
    print("campaign: %d crashes, final-sum %s size %s" % ((a[1],) + a[0]))
    print("replay:   %d crashes, final-sum %s size %s" % ((b[1],) + b[0]))
    if neg == "no-crash":
        if a[0] == b[0]:
            return fail("the replay without its crashes ended with the "
                        "campaign's bytes: this seed cannot tell")
        print("negative control: without the crashes the bytes differ")
        return 0
    if neg == "old-notes":
        if not diff:
            return fail("the replay with crash notes alone matched: the "
                        "check cannot see what a crash loses")
        print("negative control: with crash notes alone, %s" % diff)
        return 0
    if diff:
        return fail("the replay is not the campaign: " + diff)
    print("the replay is the campaign: every crash, and the final bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
