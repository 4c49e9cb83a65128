#!/usr/bin/env python3
"""Judge one fstests run against its expected-failure list and record it.

    summarize.py --run DIR --expunge FILE --label KERNEL-BS
                 --started T --series S --commit C [--records RDIR]
                 [--tests "a b" | --group-tests "a b"]

DIR is a run directory of run-fstests.sh: fstests' result.xml (xunit), or
when the run broke before check wrote it, check.out (check's stdout).

FILE lists what this kernel and block size are expected to do, one test a
line ('#' comments; a missing file lists none), each with its reason:

    generic/091 REASON            an expected failure
    generic/651 notrun: REASON    an expected notrun: a test that cannot
                                  run in this guest (keep these rare)

--tests names the tests the run was asked for by name (TESTS=, as `make
check-fstests` does); --group-tests the tests of the group it was asked
for (GROUP=). Either way a test without a result is "missing".

Results: pass, fail (unexpected), xfail (failed, listed), xpass (listed as
a failure, passed: reported, not an error), notrun, notrun-fail, missing.
A notrun is a failure (notrun-fail) when
  (a) the test was asked for by name (--tests), or
  (b) RDIR/KERNEL-BS.tsv shows that it ran (pass or fail) before,
unless FILE lists it as an expected notrun. Any other notrun is reported
with its reason and counted per reason, and is not a failure.

Then appends one record per test (records.py: T, S and C are the run's
start time, the kernel tree's and the project's commit) to
RDIR/KERNEL-BS.tsv (default: $LBS_FSTESTS_RECORDS or tests/fstests/records);
the judgement is not recorded, only the raw result.
Exit 1 if any test is fail, notrun-fail or missing, 2 on bad input, else 0.
"""

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

import records

OUT_RE = re.compile(r"^((?:generic|xfs|shared)/\d+)\s+(.*)$")


def seconds(text):
    """fstests' time as whole seconds, '-' when there is none."""
    try:
        return str(int(float(text)))
    except (TypeError, ValueError):
        return "-"


def parse_xml(path):
    """{test: (result, seconds, message)} from fstests' xunit report."""
    res = {}
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise records.RecordError("%s: %s" % (path, e))
    for tc in root.iter("testcase"):
        name, secs = tc.get("name"), seconds(tc.get("time"))
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
            m = OUT_RE.match(line.rstrip())
            if not m:
                continue
            name, rest = m.groups()
            if "[not run]" in rest:
                res[name] = ("notrun", "-", rest.split("[not run]", 1)[1].strip())
            elif re.search(r"output mismatch|\[failed|_check_|- no qualified output", rest):
                res[name] = ("fail", "-", rest.strip())
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
    """{test: (kind, reason)}, kind "fail" or "notrun"; a missing file: {}."""
    exp = {}
    if not os.path.exists(path):
        return exp
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, why = line.partition(" ")
            why = why.strip()
            kind = "fail"
            if why.startswith("notrun:"):
                kind, why = "notrun", why[len("notrun:"):].strip()
            if not records.TEST_RE.match(name) or not why:
                raise records.RecordError(
                    "%s:%d: not \"TEST REASON\" or \"TEST notrun: REASON\": %s" % (path, n, line))
            if name in exp:
                raise records.RecordError("%s:%d: %s is listed twice" % (path, n, name))
            exp[name] = (kind, why)
    return exp


def judge(name, raw, msg, exp, named, ran_before):
    """(result, note, bad) of one test; raw is pass, fail, notrun or missing."""
    kind, why = exp.get(name, ("", ""))
    if raw == "fail" and kind == "fail":
        return "xfail", msg + " [listed: " + why + "]", False
    if raw == "pass" and kind:
        return ("xpass" if kind == "fail" else "pass"), "listed as expected %s: %s" % (kind, why), False
    if raw == "notrun":
        if kind == "notrun":
            return "notrun", msg + " [listed: " + why + "]", False
        if named:
            return "notrun-fail", "asked for by name, not run: " + msg, True
        if ran_before:
            r = ran_before
            return "notrun-fail", "ran before (%s in run %s), not run now: %s" % (
                r["result"], r["run"], msg), True
        return "notrun", msg, False
    return raw, msg, raw in ("fail", "missing")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--expunge", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--started", required=True, help="the run's UTC start, 2026-12-06T03:00:00Z")
    ap.add_argument("--series", required=True, help="the kernel tree's HEAD, 12 hex")
    ap.add_argument("--commit", required=True, help="the project's HEAD, 12 hex [+]")
    ap.add_argument("--records", default=records.default_dir())
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--tests", default="", help="asked for by name: a notrun fails")
    g.add_argument("--group-tests", default="", help="the tests of the group asked for")
    a = ap.parse_args()
    try:
        return summarize(a)
    except (records.RecordError, OSError) as e:
        print("summarize: error: %s" % e, file=sys.stderr)
        return 2


def summarize(a):
    kernel, bs = records.split_label(a.label)
    for col, val in (("run", a.started), ("series", a.series), ("commit", a.commit)):
        if not records.CHECKS[col].match(val):  # before the table, not after it
            raise records.RecordError("bad %s '%s'" % (col, val))
    history = records.read(a.records, a.label)
    ran_before = {r["test"]: r for r in history if r["result"] in ("pass", "fail")}
    exp = read_expunge(a.expunge)
    xml = os.path.join(a.run, "result.xml")
    out = os.path.join(a.run, "check.out")
    if os.path.exists(xml):
        res = parse_xml(xml)
    elif os.path.exists(out):
        print("summarize: no result.xml; results from check.out", file=sys.stderr)
        res = parse_out(out)
    else:
        res = {}
    named = a.tests.split()
    wanted = set(named) | set(a.group_tests.split())
    if not wanted and not res:
        raise records.RecordError("no results and no tests asked for: nothing to record")

    bad, counts, reasons, recs = 0, {}, {}, []
    print("fstests %s (expected failures: %s)" % (a.label, os.path.relpath(a.expunge)))
    print("%-12s %-11s %7s  %s" % ("test", "result", "seconds", "note"))
    for name in sorted(wanted | set(res)):
        raw, secs, msg = res.get(name, ("missing", "-", "no result (crash or timeout?)"))
        if raw == "fail":
            msg = fsx_note(a.run, name) or msg
        msg = records.one_line(msg) if msg else ""
        result, note, is_bad = judge(name, raw, msg, exp, name in named, ran_before.get(name))
        bad += is_bad
        counts[result] = counts.get(result, 0) + 1
        if result == "notrun":
            reasons[msg or "no reason given"] = reasons.get(msg or "no reason given", 0) + 1
        print(("%-12s %-11s %7s  %s" % (name, result, secs, note[:140])).rstrip())
        recs.append({"run": a.started, "kernel": kernel, "bs": bs, "test": name,
                     "result": raw, "seconds": secs, "series": a.series,
                     "commit": a.commit, "reason": msg or "-"})
    words = []
    for r, n in sorted(counts.items()):
        words.append("%d %s" % (n, r))
        if r == "notrun":
            words[-1] += " (%s)" % "; ".join("%d: %s" % (k, why) for why, k in sorted(reasons.items()))
    print("%s: %s; %d unexpected" % (a.label, ", ".join(words) or "no results", bad))
    records.append(a.records, a.label, recs)
    print("summarize: %d records appended to %s" % (len(recs), records.path(a.records, a.label)),
          file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
