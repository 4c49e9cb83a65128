#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The userspace benchmarks' figures, generated from their records alone.

    user-summary.py [--root DIR] [--records DIR] [--check]

bench/sim-bench.sh and bench/fuse-bench.sh keep each run that ended well as
a record, bench/records/STAMP-sim-bench.txt and STAMP-fuse-bench.txt
(bench/record.sh): "# run", "# project" and "# load" lines, then the
script's output, whose "RESULT" lines are its figures. This rewrites the
blocks bench-sim and bench-fuse of bench/README.md under --root (default:
this project) with the latest record of each: where it is, its project
commit and the machine's load, and its RESULT lines as they were printed.
Records: --records (default $LBS_BENCH_RECORDS, else bench/records).

Exit 0 when written (or already current), 2 on bad input (a record with
no header or no RESULT line, a missing marker); nothing is written then.
--check writes nothing: exit 1, with a diff, when the file differs from
what the records give.
"""
import argparse
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TOP, "scripts"))
import mdblock  # noqa: E402

GENERATOR, SOURCE = "bench/user-summary.py", "bench/records"
KINDS = (("bench-sim", "sim-bench"), ("bench-fuse", "fuse-bench"))
README = os.path.join("bench", "README.md")
HEADER = (("run", re.compile(r"^# run (\d{8}T\d{6}Z) (\S+)$")),
          ("project", re.compile(r"^# project ([0-9a-f]{7,40}\+?|unknown)$")),
          ("load", re.compile(r"^# load (.+)$")))


class InputError(Exception):
    pass


def read_record(path):
    """(header {run, name, project, load}, RESULT lines) of one record"""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError("%s: %s" % (path, e)) from None
    head = {}
    for i, (key, rx) in enumerate(HEADER):
        m = rx.match(lines[i]) if i < len(lines) else None
        if not m:
            raise InputError("%s: line %d is not '# %s ...'" % (path, i + 1, key))
        if key == "run":
            head["run"], head["name"] = m.group(1), m.group(2)
        else:
            head[key] = m.group(1)
    results = [ln for ln in lines[len(HEADER):] if ln.startswith("RESULT ")]
    if not results:
        raise InputError("%s: no RESULT line: not a finished run" % path)
    return head, results


def body(rdir, kind):
    paths = sorted(glob.glob(os.path.join(rdir, "*-%s.txt" % kind)))
    if not paths:
        return ["No recorded run: `bench/%s.sh` makes one." % kind]
    path = paths[-1]
    head, results = read_record(path)
    if head["name"] != kind:
        raise InputError("%s: '# run' names %s, not %s" % (path, head["name"], kind))
    rel = "bench/records/" + os.path.basename(path)
    return ["The latest run, `%s` (project %s; load average %s):" % (rel, head["project"], head["load"]),
            ""] + ["    " + r for r in results]


def bodies(rdir):
    if not os.path.isdir(rdir):
        raise InputError("%s: no records directory" % rdir)
    return {block: body(rdir, kind) for block, kind in KINDS}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=TOP, help="the tree whose bench/README.md to rewrite")
    ap.add_argument("--records", default=os.environ.get("LBS_BENCH_RECORDS")
                    or os.path.join(TOP, "bench", "records"))
    ap.add_argument("--check", action="store_true",
                    help="compare only: exit 1 with a diff when the file is stale")
    a = ap.parse_args()
    return mdblock.update_files([(os.path.join(a.root, README), tuple(b for b, _ in KINDS))],
                                GENERATOR, SOURCE, lambda: bodies(a.records), a.check,
                                "make bench-summary", errors=(InputError,))


if __name__ == "__main__":
    sys.exit(main())
