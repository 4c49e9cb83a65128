#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cpus-check.sh on consoles of each kind: the check must fail the one
CPU a kernel without ACPI brings up under -smp 2."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [
    # console, wanted, exit, output starts with
    ("[    0.51] smp: Brought up 1 node, 2 CPUs\r\n", "2", 0, "pass 2"),
    ("[    0.51] smp: Brought up 1 node, 1 CPU\n", "2", 1,
     "fail the guest brought up 1 CPUs"),
    ("[    0.51] smp: Brought up 1 node, 2 CPUs\n", "1", 1,
     "fail the guest brought up 2 CPUs"),
    ("Linux version 6.1\nno smp line\n", "1", 0,
     "pass 1 (uniprocessor kernel)"),
    ("Linux version 6.1\nno smp line\n", "2", 1,
     "fail the guest brought up an unreported number"),
]


def main():
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        con = os.path.join(d, "console")
        for text, want, rc, out in CASES:
            with open(con, "w") as f:
                f.write(text)
            p = subprocess.run(["sh", os.path.join(HERE, "cpus-check.sh"), con, want],
                               capture_output=True, text=True)
            if p.returncode != rc or not p.stdout.startswith(out):
                print("FAIL: %r want %s: exit %d %r, expected %d %r"
                      % (text, want, p.returncode, p.stdout, rc, out))
                bad = 1
        p = subprocess.run(["sh", os.path.join(HERE, "cpus-check.sh"),
                            os.path.join(d, "missing"), "2"], capture_output=True, text=True)
        if p.returncode != 1 or not p.stdout.startswith("fail no console"):
            print("FAIL: a missing console: exit %d %r" % (p.returncode, p.stdout))
            bad = 1
    print("cpus-check: %s" % ("FAILED" if bad else "%d cases pass" % (len(CASES) + 1)))
    return bad


if __name__ == "__main__":
    sys.exit(main())
