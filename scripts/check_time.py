#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""How long `make check` takes, measured and recorded, never typed in.

    check_time.py run [--root DIR]        (make check-time)
    check_time.py summary [--root DIR] [--check]

run: clones the committed HEAD into build/check-time/clone (a fresh clone,
as CI makes; the packages scripts/install-deps.sh installs are taken as
installed), runs `make check` there, and appends one line to RECORDS: the
wall time, each stage's time (scripts/stage.sh's lines), and how busy the
machine was with other work meanwhile: the CPU seconds the whole machine
spent (/proc/stat) minus those make check and its children spent
(wait4), per second of wall time.  A run with other work under
IDLE_OTHER cores counts as idle.  The README's figure is then
regenerated.  The tree must be clean: the record names its commit.

summary: rewrites the README's check-time block from RECORDS: the latest
passing idle run, and the latest run of any kind when that is newer.
--check exits 1 with a diff when the README differs.  Exit 2 on bad input.
"""

import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mdblock  # noqa: E402

GENERATOR, BLOCK = "scripts/check_time.py", "check-time"
RECORDS = "tests/records/make-check.tsv"
FIELDS = ("date", "commit", "result", "wall_s", "cpus", "other_cores", "stages")
HEADER = "# " + "\t".join(FIELDS)
IDLE_OTHER = 0.10
STAGE = re.compile(r"^stage (\S+): (?:done in|FAILED \(exit \d+\) after) (\d+)s wall$")


class RecordError(Exception):
    pass


def busy_seconds():
    """CPU seconds the machine has spent busy since boot (/proc/stat)."""
    with open("/proc/stat") as f:
        cpu = f.readline().split()
    # user nice system idle iowait irq softirq steal: all but idle, iowait
    ticks = sum(int(cpu[i]) for i in (1, 2, 3, 6, 7, 8))
    return ticks / os.sysconf("SC_CLK_TCK")


def stages(log):
    """'name:s name:s ...' of the stage lines in @log, in order."""
    out = []
    for line in log.splitlines():
        m = STAGE.match(line.strip())
        if m:
            out.append("%s:%s" % m.groups())
    return " ".join(out) or "-"


def run(root):
    git = ["git", "-C", root]
    if subprocess.run(git + ["status", "--porcelain"], capture_output=True,
                      text=True, check=True).stdout.strip():
        raise RecordError("the tree has changes: commit them first (the record names the commit)")
    commit = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    work = os.path.join(root, os.environ.get("BUILD", "build"), "check-time")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    clone = os.path.join(work, "clone")
    subprocess.run(["git", "clone", "-q", root, clone], check=True)
    logpath = os.path.join(work, "check.log")
    print("check_time.py: make check in %s (log %s)" % (clone, logpath), flush=True)
    b0, t0 = busy_seconds(), time.monotonic()
    with open(logpath, "w") as log:
        proc = subprocess.Popen(["make", "check"], cwd=clone, stdout=log,
                                stderr=subprocess.STDOUT)
        _, status, ru = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = max(time.monotonic() - t0, 1e-3)
    other = (busy_seconds() - b0 - ru.ru_utime - ru.ru_stime) / wall
    rc = proc.returncode
    with open(logpath) as f:
        st = stages(f.read())
    row = (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           commit[:12], "pass" if rc == 0 else "fail(%d)" % rc, "%d" % round(wall),
           "%d" % os.cpu_count(), "%.2f" % max(other, 0.0), st)
    path = os.path.join(root, RECORDS)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    new = not os.path.exists(path)
    with open(path, "a") as f:
        if new:
            f.write(HEADER + "\n")
        f.write("\t".join(row) + "\n")
    print("check_time.py: make check %s in %s, other work %s cores; recorded in %s"
          % (row[2], minsec(int(row[3])), row[5], RECORDS))
    return rc


def minsec(s):
    return "%d min %02d s" % (s // 60, s % 60)


def load(root):
    path = os.path.join(root, RECORDS)
    rows = []
    try:
        f = open(path)
    except FileNotFoundError:
        return rows
    with f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != len(FIELDS):
                raise RecordError("%s:%d: %d fields, want %d" % (RECORDS, n, len(cells), len(FIELDS)))
            r = dict(zip(FIELDS, cells))
            try:
                r["wall_s"], r["cpus"] = int(r["wall_s"]), int(r["cpus"])
                r["other_cores"] = float(r["other_cores"])
            except ValueError as e:
                raise RecordError("%s:%d: %s" % (RECORDS, n, e))
            rows.append(r)
    return rows


def idle(r):
    return r["other_cores"] < IDLE_OTHER


def describe(r):
    kind = ("idle" if idle(r) else "busy: other work took %.2f of its %d cores"
            % (r["other_cores"], r["cpus"]))
    st = ", ".join("%s %s" % (s.split(":")[0], minsec(int(s.split(":")[1])))
                   for s in r["stages"].split() if ":" in s)
    return ("**%s**, %s, on a %d-core machine (%s), commit %s, %s; stages: %s"
            % (minsec(r["wall_s"]), r["result"], r["cpus"], kind, r["commit"], r["date"][:10],
               st or "none recorded"))


def body(root):
    rows = load(root)
    out = ["`make check` on a fresh clone, timed by `make check-time` (`%s`):" % RECORDS, ""]
    best = [r for r in rows if r["result"] == "pass" and idle(r)]
    if best:
        out.append("- the latest idle run: " + describe(best[-1]))
    else:
        out.append("- no idle run recorded yet")
    if rows and (not best or rows[-1] is not best[-1]):
        out.append("- the latest run: " + describe(rows[-1]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("run", "summary"))
    ap.add_argument("--root", default=os.path.dirname(HERE))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    rc = 0
    if a.what == "run":
        try:
            rc = run(a.root)
        except RecordError as e:
            print("check_time.py: error: %s" % e, file=sys.stderr)
            return 2
    s = mdblock.update(os.path.join(a.root, "README.md"), BLOCK, GENERATOR, RECORDS,
                       lambda: body(a.root), a.check, "make check-time-summary",
                       (RecordError,))
    return rc or s


if __name__ == "__main__":
    sys.exit(main())
