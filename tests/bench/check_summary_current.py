#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fail when the generated kernel summary in README.md or bench/README.md is
not what bench/records give: a hand edit, or records added without
`make bench-summary`.

    check_summary_current.py [--src DIR]

Copies the two files into a temporary tree, regenerates their blocks there
with bench/kernel-summary.py from DIR's bench/records and notes, and
compares byte for byte. Exit 0 when equal, 1 with a diff when not, 2 when
the generator refuses its input.
"""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

FILES = ("README.md", os.path.join("bench", "README.md"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", ".."))
    src = os.path.abspath(ap.parse_args().src)
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "bench"))
        for f in FILES:
            shutil.copyfile(os.path.join(src, f), os.path.join(tmp, f))
        p = subprocess.run([sys.executable, os.path.join(src, "bench", "kernel-summary.py"),
                            "--root", tmp, "--records", os.path.join(src, "bench", "records"),
                            "--notes", os.path.join(src, "bench", "kernel-summary-notes.tsv")],
                           capture_output=True, text=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        sys.stdout.write(p.stdout)
        if p.returncode != 0:
            sys.stderr.write(p.stderr)
            print("FAIL: the generator refused the committed input (rc %d)" % p.returncode)
            return 2
        stale = []
        for f in FILES:
            with open(os.path.join(src, f), encoding="utf-8", newline="") as a, \
                    open(os.path.join(tmp, f), encoding="utf-8", newline="") as b:
                have, want = a.read(), b.read()
            if have != want:
                stale.append(f)
                sys.stdout.writelines(difflib.unified_diff(
                    have.splitlines(True), want.splitlines(True),
                    "%s (in the tree)" % f, "%s (generated from bench/records)" % f))
    if stale:
        print("FAIL: %s %s from what bench/records give; run `make bench-summary` and "
              "commit (never edit the generated blocks by hand)"
              % (" and ".join(stale), "differs" if len(stale) == 1 else "differ"))
        return 1
    print("ok: README.md and bench/README.md hold the summary bench/records give")
    return 0


if __name__ == "__main__":
    sys.exit(main())
