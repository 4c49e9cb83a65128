#!/usr/bin/env python3
"""One table, test by test, over the fstests runs that have results.

    compare.py BUILD/fstests [RECORDED_DIR]

Reads BUILD/fstests/KERNEL-BS/summary.tsv (written by summarize.py) for
stock-6.1-4096, patched-6.1-4096, -16384, -65536, ref-6.12-16384, -65536
(and any other KERNEL-BS present). A cell is the result and seconds
("pass 12", "FAIL 45", "xfail 45" for a failure listed in
tests/fstests/expunges/KERNEL-BS.txt, "skip", "-" not run). A regression is a test that
fails on patched-6.1 at a block size where ref-6.12 passes it, or fails on
patched-6.1 at 4096 where stock-6.1 passes it.
RECORDED_DIR (tests/fstests/recorded) holds results of earlier runs,
KERNEL-BS.tsv in summary.tsv's format ('#' lines say when and how they
were made); a test's result from this build's run takes precedence, and
a cell taken from a recorded run ends in "*".
Where KERNEL.nolockdep-BS (make fstests LOCKDEP=0) has results beside
KERNEL-BS, a second table gives each test's seconds with and without
lockdep and their ratio (a pair means something only when both ran side
by side, under the same load).
Exit 1 if there is a regression, 0 otherwise (also when nothing ran).
"""

import os
import sys

from summarize import read_expunge  # this directory: the list's one reader

ORDER = ["stock-6.1-4096", "patched-6.1-4096", "patched-6.1-16384",
         "patched-6.1-65536", "ref-6.12-16384", "ref-6.12-65536"]
SHORT = {"stock-6.1": "stock", "patched-6.1": "patched", "ref-6.12": "ref"}


def load(path, mark=""):
    res = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                res[parts[0]] = (parts[1], parts[2] + mark)
    return res


def head(label):
    """Column head: "patched 16384", "patched.nolockdep 8192"."""
    kernel, bs = label.rsplit("-", 1)
    for base, short in SHORT.items():
        if kernel.startswith(base):
            kernel = short + kernel[len(base):]
    return "%s %s" % (kernel, bs)


def kernel_label(label):
    """The run a LOCKDEP=0 run stands beside: its kernel's label."""
    return label.replace(".nolockdep-", "-")


def expected(label):
    """Tests on the expected-failure list of a run (a LOCKDEP=0 run: its kernel's)."""
    return set(read_expunge(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "expunges", kernel_label(label) + ".txt")))


def cell(r, listed=False):
    if r is None:
        return "-"
    result, secs = r
    word = {"pass": "pass", "fail": "xfail" if listed else "FAIL",
            "notrun": "skip"}.get(result, result)
    return word if result == "notrun" or not secs else "%s %s" % (word, secs)


def regressions(test, runs):
    why = []
    for label, res in runs.items():
        if not label.startswith("patched-6.1-") or res.get(test, ("",))[0] != "fail":
            continue
        bs = label.rsplit("-", 1)[1]
        ref = runs.get("ref-6.12-" + bs, {}).get(test, ("",))[0]
        if ref == "pass":
            why.append("fails patched %s, passes ref-6.12" % bs)
        stock = runs.get("stock-6.1-4096", {}).get(test, ("",))[0]
        if bs == "4096" and stock == "pass":
            why.append("fails patched 4096, passes stock-6.1")
    return why


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "build/fstests"
    rec = sys.argv[2] if len(sys.argv) > 2 else None
    runs = {}
    names = [n for n in os.listdir(base) if not n.startswith("fsx-")] \
        if os.path.isdir(base) else []
    if rec and os.path.isdir(rec):
        names += [n[:-4] for n in os.listdir(rec) if n.endswith(".tsv")]
    for label in ORDER + sorted(set(names) - set(ORDER)):
        res = {}
        if rec and os.path.exists(os.path.join(rec, label + ".tsv")):
            res.update(load(os.path.join(rec, label + ".tsv"), "*"))
        p = os.path.join(base, label, "summary.tsv")
        if os.path.exists(p):
            res.update(load(p))
        if res:
            runs[label] = res
    if not runs:
        print("fstests-compare: no results under %s (run make fstests first)" % base)
        return 0
    labels = list(runs)
    xfail = {label: expected(label) for label in labels}
    heads = [head(label) for label in labels]
    w = max(12, max(len(h) for h in heads) + 1)
    print("%-12s " % "test" + "".join("%-*s" % (w, h) for h in heads) + "regression")
    tests = sorted(set().union(*[set(r) for r in runs.values()]))
    nreg = 0
    for t in tests:
        why = regressions(t, runs)
        nreg += bool(why)
        print("%-12s " % t + "".join("%-*s" % (w, cell(runs[label].get(t), t in xfail[label]))
                                     for label in labels)
              + ("REGRESSION: " + "; ".join(why) if why else ""))
    print("%d tests, %d regressions (cells: result and seconds; - not run; "
          "xfail: listed in tests/fstests/expunges; * from tests/fstests/recorded)" % (len(tests), nreg))
    for label in labels:
        if ".nolockdep-" in label:
            lockdep_table(runs, label)
    return 1 if nreg else 0


def lockdep_table(runs, nolabel):
    """Seconds with and without lockdep, test by test, for one pair."""
    label = kernel_label(nolabel)
    if label not in runs:
        return
    on, off = runs[label], runs[nolabel]
    rows = []
    for t in sorted(set(on) & set(off)):
        a, b = on[t][1].rstrip("*"), off[t][1].rstrip("*")
        if on[t][0] == off[t][0] == "pass" and a.isdigit() and b.isdigit() and int(b):
            rows.append((t, int(a), int(b)))
    if not rows:
        return
    print("\nlockdep's cost, %s (seconds with / without PROVE_LOCKING):" % label)
    for t, a, b in rows:
        print("%-12s %6d %6d  %.2fx" % (t, a, b, a / b))
    ta, tb = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print("%-12s %6d %6d  %.2fx (%d tests passed on both)" % ("all", ta, tb, ta / tb, len(rows)))


if __name__ == "__main__":
    sys.exit(main())
