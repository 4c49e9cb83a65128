#!/usr/bin/env python3
"""Judge a kernel negative control against tests/qemu/controls.txt.

    controls-judge.py --table FILE --check
    controls-judge.py --table FILE --list ci|all
    controls-judge.py --table FILE --knob KNOB --sizes | --ops
    controls-judge.py --table FILE --knob KNOB --report REPORT [--image BZIMAGE]

The table (see its header) gives per knob its tier, block sizes and ops,
the tests that must fail there with a symptom ("fail" rows), and the tests
the same bug may also break ("may" rows, each with its own symptom).
--report judges one verification report (tests/qemu/verify.sh's
report.txt, "LBS-VERIFY <bs> <test>: <result> <reason>" lines): caught
only if every fail row's test failed at its block size with a reason
matching its symptom, every may row's test passed, failed matching its
symptom or failed as expected of the kernel without the knob (xfail),
every other line passed (or was an expected failure of the
patched kernel with its own symptom), and the kernel built and booted
(both lines present and passing; with --image, the report's kernel-build
line must name that prebuilt image: a report of another kernel, such as a
stale one left by an earlier run, proves nothing).  A result given twice
in the report, or a (knob, bs, test) row given twice in the table, is an
error.
Prints one line per finding; exit 0 caught, 1 not caught, 2 bad table.
"""

import argparse
import re
import sys

LINE_RE = re.compile(r"^LBS-VERIFY (\S+) (\S+): (pass|fail|xfail|skip)(?: (.*))?$")


def read_table(path):
    """{knob: {"tier", "sizes", "ops", "why", "rows": [(kind, bs, test, re)]}}."""
    knobs = {}
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            word = line.split(None, 1)[0]
            if word == "knob":
                parts = line.split(None, 5)
                if len(parts) < 5 or parts[2] not in ("ci", "all"):
                    raise ValueError("%s:%d: knob KNOB ci|all SIZES OPS [WHY]" % (path, n))
                sizes = parts[3].split(",")
                if not all(s.isdigit() for s in sizes) or not parts[4].isdigit():
                    raise ValueError("%s:%d: sizes a,b and ops are numbers" % (path, n))
                if parts[1] in knobs:
                    raise ValueError("%s:%d: knob %s twice" % (path, n, parts[1]))
                if parts[2] == "all" and len(parts) < 6:
                    raise ValueError("%s:%d: a knob left out of CI says why" % (path, n))
                knobs[parts[1]] = {"tier": parts[2], "sizes": sizes, "ops": parts[4],
                                   "why": parts[5] if len(parts) > 5 else "", "rows": []}
            elif word in ("fail", "may"):
                parts = line.split(None, 4)
                if len(parts) < 5:
                    raise ValueError("%s:%d: %s KNOB BS TEST SYMPTOM" % (path, n, word))
                _, knob, bs, test, sym = parts
                if knob not in knobs:
                    raise ValueError("%s:%d: knob %s has no knob line above" % (path, n, knob))
                if any(r[1] == bs and r[2] == test for r in knobs[knob]["rows"]):
                    raise ValueError("%s:%d: %s %s %s given twice" % (path, n, knob, bs, test))
                if bs != "all" and bs not in knobs[knob]["sizes"]:
                    raise ValueError("%s:%d: %s does not boot at %s" % (path, n, knob, bs))
                try:
                    rx = re.compile(sym)
                except re.error as e:
                    raise ValueError("%s:%d: bad symptom /%s/: %s" % (path, n, sym, e))
                knobs[knob]["rows"].append((word, bs, test, rx))
            else:
                raise ValueError("%s:%d: unknown line '%s'" % (path, n, word))
    for k, v in knobs.items():
        if not any(r[0] == "fail" for r in v["rows"]):
            raise ValueError("%s: knob %s names no test that must fail" % (path, k))
    return knobs


def judge(knob, report, image=None):
    """(caught, findings) for one report."""
    rows = {(bs, test): (kind, rx) for kind, bs, test, rx in knob["rows"]}
    # the host lines every judged report must have passed
    needed = {("all", "kernel-build"), ("all", "boot-complete")}
    seen, findings, caught = set(), [], True
    with open(report, errors="replace") as f:
        lines = [l.rstrip("\n") for l in f if l.startswith("LBS-VERIFY ")]
    for line in lines:
        m = LINE_RE.match(line)
        if not m:
            findings.append("BAD malformed report line: " + line[:160])
            caught = False
            continue
        bs, test, result, why = m.group(1), m.group(2), m.group(3), m.group(4) or ""
        if (bs, test) in seen:
            findings.append("BAD %s %s: more than one result in the report" % (bs, test))
            caught = False
            continue
        seen.add((bs, test))
        if bs == "all":
            # the build and boot must have worked, and the kernel stayed
            # clean unless the knob's bug is what the kernel complains of
            if test in ("kernel-build", "boot-complete") and result != "pass":
                findings.append("BAD %s %s: %s %s: the control proves nothing" % (bs, test, result, why))
                caught = False
                continue
            if test == "kernel-build" and image and why != "prebuilt " + image:
                findings.append("BAD all kernel-build: the report is of %r, not the knob's image %s"
                                % (why, image))
                caught = False
                continue
        row = rows.get((bs, test))
        if row is None:
            if result in ("pass", "xfail"):
                continue
            findings.append("BAD %s %s: %s %s: not a test this bug may break" % (bs, test, result, why[:200]))
            caught = False
            continue
        kind, rx = row
        if result == "fail" and rx.search(why):
            findings.append("ok %s %s %s: failed with /%s/: %s" % (kind, bs, test, rx.pattern, why[:200]))
        elif result == "pass" and kind == "may":
            findings.append("ok may %s %s: passed" % (bs, test))
        elif result == "xfail" and kind == "may":
            # the bug left it alone: it failed as on the kernel without
            # the knob (the suite matched tests/guest/expect.txt)
            findings.append("ok may %s %s: its expected failure (xfail)" % (bs, test))
        elif result == "fail":
            findings.append("BAD %s %s %s: failed, but not with /%s/: %s" % (kind, bs, test, rx.pattern, why[:200]))
            caught = False
        else:
            findings.append("BAD %s %s %s: %s %s (must fail with /%s/)" % (kind, bs, test, result, why[:120], rx.pattern))
            caught = False
    for (bs, test), (kind, rx) in sorted(rows.items()):
        if (bs, test) not in seen:
            findings.append("BAD %s %s %s: no result in the report" % (kind, bs, test))
            caught = False
    for bs, test in sorted(needed - seen):
        findings.append("BAD %s %s: no result in the report: the control proves nothing" % (bs, test))
        caught = False
    return caught, findings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--list")
    ap.add_argument("--knob")
    ap.add_argument("--sizes", action="store_true")
    ap.add_argument("--ops", action="store_true")
    ap.add_argument("--report")
    ap.add_argument("--image")
    a = ap.parse_args()
    try:
        knobs = read_table(a.table)
    except (OSError, ValueError) as e:
        print("controls-judge: %s" % e, file=sys.stderr)
        return 2
    if a.check:
        print("%d knobs" % len(knobs))
        return 0
    if a.list:
        if a.list not in ("ci", "all"):
            print("controls-judge: --list ci|all", file=sys.stderr)
            return 2
        print(" ".join(k for k, v in knobs.items() if a.list == "all" or v["tier"] == "ci"))
        return 0
    if not a.knob or a.knob not in knobs:
        print("controls-judge: no knob %r in %s" % (a.knob, a.table), file=sys.stderr)
        return 2
    k = knobs[a.knob]
    if a.sizes:
        print(" ".join(k["sizes"]))
        return 0
    if a.ops:
        print(k["ops"])
        return 0
    if not a.report:
        print("controls-judge: --sizes, --ops or --report", file=sys.stderr)
        return 2
    try:
        caught, findings = judge(k, a.report, a.image)
    except OSError as e:
        print("controls-judge: %s" % e, file=sys.stderr)
        return 2
    print("\n".join(findings))
    return 0 if caught else 1


if __name__ == "__main__":
    sys.exit(main())
