#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Golden-output test of an `lbs-sim map` picture.

Usage: map_golden.py GOLDEN same|differ -- CMD ARGS...
same:   CMD must exit 0 and print exactly GOLDEN.
differ: CMD must exit 0 or 1 (1: the oracle caught the fault) and print
        something else (a negative control: the same scenario with a
        fault knob must change the picture).
LBS_UPDATE_GOLDEN=1 rewrites GOLDEN from CMD's output (same mode only)."""
import difflib
import os
import subprocess
import sys


def main():
    golden, mode = sys.argv[1], sys.argv[2]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    r = subprocess.run(cmd, capture_output=True, text=True)
    sys.stderr.write(r.stderr)
    if r.returncode not in ((0, 1) if mode == "differ" else (0,)):
        sys.stdout.write(r.stdout)
        print("exit %d" % r.returncode)
        return 1
    if mode == "same" and os.environ.get("LBS_UPDATE_GOLDEN"):
        with open(golden, "w") as f:
            f.write(r.stdout)
    with open(golden) as f:
        want = f.read()
    if mode == "same" and r.stdout != want:
        sys.stdout.writelines(difflib.unified_diff(
            want.splitlines(True), r.stdout.splitlines(True),
            golden, "actual"))
        return 1
    if mode == "differ" and r.stdout == want:
        sys.stdout.write(r.stdout)
        print("picture unchanged by the fault knob: the test sees nothing")
        return 1
    sys.stdout.write(r.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
