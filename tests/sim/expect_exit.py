#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run a command and require an exact exit status and a stderr message.

meson's should_fail accepts any non-zero exit, a crash included; a usage
or input error must instead exit 2 and say what was wrong.
Usage: expect_exit.py STATUS REGEX -- CMD ARGS..."""
import re
import subprocess
import sys


def main():
    status, pattern = int(sys.argv[1]), sys.argv[2]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    r = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    if r.returncode != status:
        print("expected exit %d, got %d" % (status, r.returncode))
        return 1
    if not re.search(pattern, r.stderr):
        print("stderr does not match %r" % pattern)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
