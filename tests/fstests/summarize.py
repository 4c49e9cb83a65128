#!/usr/bin/env python3
"""Summarise one fstests run and judge it against its expected-failure list.

    summarize.py --run DIR --expunge FILE --label KERNEL-BS [--tests "a b"]

DIR is a run directory of run-fstests.sh: fstests' result.xml (xunit), or
when the run broke before check wrote it, check.out (check's stdout). FILE
lists expected failures, one per line: "generic/091 reason..." ('#'
comments; a missing file lists none). --tests names the tests the run was
asked for: one without a result is "missing".

Prints one row per test: test, result, seconds, note. Results: pass, notrun,
fail (unexpected), xfail (failed, listed), xpass (listed, passed: reported,
not an error), missing. Updates DIR/summary.tsv (test, result, seconds),
which keeps each test's latest result over runs for fstests-compare.
Exit 1 if any test is fail or missing, else 0.
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

TEST_RE = re.compile(r"^((?:generic|xfs|shared)/\d+)\s+(.*)$")


def parse_xml(path):
    """{test: (result, seconds, message)} from fstests' xunit report."""
    res = {}
    for tc in ET.parse(path).getroot().iter("testcase"):
        name, secs = tc.get("name"), tc.get("time") or ""
        fail, skip = tc.find("failure"), tc.find("skipped")
        if fail is not None:
            res[name] = ("fail", secs, fail.get("message") or "")
        elif skip is not None:
            res[name] = ("notrun", secs, skip.get("message") or "")
        else:
            res[name] = ("pass", secs, "")
    return res


def parse_out(path):
    """The same from check's stdout (a run that broke before result.xml)."""
    res = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = TEST_RE.match(line.rstrip())
            if not m:
                continue
            name, rest = m.groups()
            if "[not run]" in rest:
                res[name] = ("notrun", "", rest.split("[not run]", 1)[1].strip())
            elif re.search(r"output mismatch|\[failed|_check_|- no qualified output", rest):
                res[name] = ("fail", "", rest.strip())
            elif re.search(r"(\d+)s$", rest):
                res[name] = ("pass", re.search(r"(\d+)s$", rest).group(1), "")
    return res


def fsx_note(run, test):
    """The first fsx/data complaint of a failing test (its .out.bad or .full)."""
    for ext in (".out.bad", ".full"):
        p = os.path.join(run, test + ext)
        if not os.path.exists(p):
            continue
        with open(p, errors="replace") as f:
            for line in f:
                if re.search(r"READ BAD DATA|BAD DATA|data mismatch|miscompare|bad data", line):
                    return line.strip()[:100]
    return ""


def read_expunge(path):
    exp = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    name, _, why = line.partition(" ")
                    exp[name] = why.strip()
    return exp


def update_summary(run, res):
    path = os.path.join(run, "summary.tsv")
    old = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    old[parts[0]] = parts[1:3]
    for name, (result, secs, _) in res.items():
        old[name] = [result, secs]
    with open(path + ".tmp", "w") as f:
        for name in sorted(old):
            f.write("%s\t%s\t%s\n" % (name, old[name][0], old[name][1]))
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--expunge", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--tests", default="")
    a = ap.parse_args()

    xml = os.path.join(a.run, "result.xml")
    out = os.path.join(a.run, "check.out")
    if os.path.exists(xml):
        res = parse_xml(xml)
    elif os.path.exists(out):
        print("summarize: no result.xml; results from check.out", file=sys.stderr)
        res = parse_out(out)
    else:
        res = {}
    exp = read_expunge(a.expunge)
    wanted = a.tests.split() or sorted(res)

    bad, counts = 0, {}
    print("fstests %s (expected failures: %s)" % (a.label, os.path.relpath(a.expunge)))
    print("%-12s %-8s %7s  %s" % ("test", "result", "seconds", "note"))
    for name in sorted(set(wanted) | set(res)):
        result, secs, msg = res.get(name, ("missing", "", "no result (crash or timeout?)"))
        note = msg
        if result == "fail":
            note = fsx_note(a.run, name) or msg
            if name in exp:
                result, note = "xfail", note + " [listed: " + exp[name] + "]"
        elif result == "pass" and name in exp:
            result, note = "xpass", "listed as expected failure: " + exp[name]
        if result in ("fail", "missing"):
            bad += 1
        counts[result] = counts.get(result, 0) + 1
        print("%-12s %-8s %7s  %s" % (name, result, secs, note[:140]))
    print("%s: %s; %d unexpected" % (a.label, ", ".join(
        "%d %s" % (n, r) for r, n in sorted(counts.items())) or "no results", bad))
    update_summary(a.run, res)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
