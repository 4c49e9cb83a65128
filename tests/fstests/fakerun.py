"""Synthetic fstests runs for the tests of summarize.py and compare.py.

No guest: a run directory with a result.xml (or check.out) as fstests
writes it, and the two scripts run as make fstests runs them.
"""

import os
import subprocess
import sys
from xml.sax.saxutils import quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))
SERIES = "0123456789ab"
COMMIT = "abcdef012345"


def result_xml(cases):
    """fstests' xunit report of cases: (test, result, seconds, message)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuite name="xfstests">']
    for name, result, secs, msg in cases:
        out.append('\t<testcase classname="xfstests.global" name="%s" time="%s">' % (name, secs))
        if result == "fail":
            out.append('\t\t<failure message=%s type="TestFail" />' % quoteattr(msg))
        elif result == "notrun":
            out.append('\t\t<skipped message=%s />' % quoteattr(msg))
        out.append("\t</testcase>")
    return "\n".join(out + ["</testsuite>", ""])


def make_run(rundir, cases=None, check_out=None):
    """A run directory: result.xml of cases, or only check.out, or nothing."""
    os.makedirs(rundir, exist_ok=True)
    for f in os.listdir(rundir):
        os.unlink(os.path.join(rundir, f))
    if cases is not None:
        with open(os.path.join(rundir, "result.xml"), "w") as f:
            f.write(result_xml(cases))
    if check_out is not None:
        with open(os.path.join(rundir, "check.out"), "w") as f:
            f.write(check_out)


def env():
    e = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    e.pop("LBS_FSTESTS_RECORDS", None)
    return e


def summarize(tmp, label, started, cases=None, tests=None, group=None,
              expunge="", series=SERIES, commit=COMMIT, check_out=None):
    """Run summarize.py on a fresh synthetic run; (rc, stdout, stderr)."""
    rundir = os.path.join(tmp, "run-" + label)
    make_run(rundir, cases, check_out)
    exp = os.path.join(tmp, "expunge-" + label + ".txt")
    with open(exp, "w") as f:
        f.write(expunge)
    args = [sys.executable, os.path.join(HERE, "summarize.py"), "--run", rundir,
            "--expunge", exp, "--label", label, "--records", os.path.join(tmp, "records"),
            "--started", started, "--series", series, "--commit", commit]
    if tests is not None:
        args += ["--tests", " ".join(tests)]
    if group is not None:
        args += ["--group-tests", " ".join(group)]
    p = subprocess.run(args, capture_output=True, text=True, env=env())
    return p.returncode, p.stdout, p.stderr


def compare(tmp, *args, expunges=None):
    """Run compare.py on tmp/records; (rc, stdout, stderr)."""
    edir = expunges or os.path.join(tmp, "expunges")
    os.makedirs(edir, exist_ok=True)
    p = subprocess.run([sys.executable, os.path.join(HERE, "compare.py"),
                        "--records", os.path.join(tmp, "records"), "--expunges", edir]
                       + list(args), capture_output=True, text=True, env=env())
    return p.returncode, p.stdout, p.stderr


def row(out, test):
    """The words of test's row in a table printed by summarize or compare."""
    for line in out.splitlines():
        if line.split()[:1] == [test]:
            return line.split()
    raise AssertionError("no row for %s in:\n%s" % (test, out))
