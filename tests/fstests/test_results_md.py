#!/usr/bin/env python3
"""results.md is what compare.py makes of the committed records.

    test_results_md.py SOURCE_ROOT

Generates tests/fstests/results.md again from tests/fstests/records/ (and
the expected-failure lists) into a temporary file, as `make
fstests-compare` does, and fails when the committed file differs: a hand
edit, or records appended without `make fstests-compare` after them.
"""

import difflib
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 2:
        print("usage: test_results_md.py SOURCE_ROOT", file=sys.stderr)
        return 2
    here = os.path.join(sys.argv[1], "tests", "fstests")
    committed = os.path.join(here, "results.md")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("LBS_FSTESTS_RECORDS", None)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = os.path.join(tmp, "results.md")
        p = subprocess.run([sys.executable, os.path.join(here, "compare.py"),
                            "--records", os.path.join(here, "records"),
                            "--expunges", os.path.join(here, "expunges"),
                            "--markdown", fresh], capture_output=True, text=True, env=env)
        # 1 is compare's verdict on the runs (none yet, a regression), not ours
        if p.returncode not in (0, 1) or not os.path.exists(fresh):
            print(p.stdout + p.stderr, end="")
            print("FAIL: compare.py could not make results.md (rc %d)" % p.returncode)
            return 1
        with open(fresh, "rb") as f:
            want = f.read()
    with open(committed, "rb") as f:
        have = f.read()
    if have == want:
        print("PASS: %s is what compare.py makes of the records" % committed)
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        have.decode(errors="replace").splitlines(True), want.decode(errors="replace").splitlines(True),
        "results.md (committed)", "results.md (from the records)"))
    print("FAIL: %s is not what the records give: run make fstests-compare and commit it "
          "(results are written by the tools, never by hand)" % committed)
    return 1


if __name__ == "__main__":
    sys.exit(main())
