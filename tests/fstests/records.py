"""The fstests records: tests/fstests/records/LABEL.tsv, append-only.

One line per test per `make fstests` run, written by summarize.py (never by
hand), read by summarize.py (has this test run before?) and compare.py
(latest result of each test, results.md). Tab-separated, first line a '#'
header naming the columns:

    run      UTC start of the run, 2026-12-06T03:00:00Z: it names the run
    kernel   the label's kernel part (patched-6.1, ref-6.12.nolockdep, ...)
    bs       the block size, the label's last part
    test     generic/091, xfs/030, ...
    result   pass, fail, notrun or missing: raw, not judged
    seconds  fstests' time for the test, '-' when it has none
    series   the kernel tree's HEAD, 12 hex (the same series, the same HEAD)
    commit   the project's HEAD, 12 hex, '+' when tracked files had changes
    reason   the notrun or failure message, one line, at most 200
             characters, '-' when there is none

'-' rather than an empty field: no line ends in whitespace. LBS_FSTESTS_RECORDS
overrides the directory (tests write elsewhere).
"""

import fcntl
import os
import re

COLUMNS = ("run", "kernel", "bs", "test", "result", "seconds", "series",
           "commit", "reason")
HEADER = "# " + "\t".join(COLUMNS) + "\n"
RESULTS = ("pass", "fail", "notrun", "missing")
REASON_MAX = 200

RUN_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
LABEL_RE = re.compile(r"^([a-z0-9][a-z0-9.-]*)-(4096|8192|16384|32768|65536)$")
TEST_RE = re.compile(r"^[a-z][a-z0-9]*/\d{3}[-A-Za-z0-9]*$")
CHECKS = {
    "run": RUN_RE,
    "kernel": re.compile(r"^[a-z0-9][a-z0-9.-]*$"),
    "bs": re.compile(r"^(4096|8192|16384|32768|65536)$"),
    "test": TEST_RE,
    "result": re.compile("^(%s)$" % "|".join(RESULTS)),
    "seconds": re.compile(r"^(\d+|-)$"),
    "series": re.compile(r"^[0-9a-f]{12}$"),
    "commit": re.compile(r"^[0-9a-f]{12}\+?$"),
    "reason": re.compile(r"^[^\t\n]{1,%d}$" % REASON_MAX),
}


class RecordError(Exception):
    """A records file or a record that is not in the format above."""


def default_dir():
    return os.environ.get("LBS_FSTESTS_RECORDS") or \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "records")


def split_label(label):
    """("patched-6.1.nolockdep", "8192") from "patched-6.1.nolockdep-8192"."""
    m = LABEL_RE.match(label)
    if not m:
        raise RecordError("bad label '%s' (KERNEL-BS, e.g. patched-6.1-65536)" % label)
    return m.group(1), m.group(2)


def one_line(text):
    """A message as a reason field: one line, no tabs, at most 200 characters."""
    text = "".join(c if c.isprintable() else " " for c in str(text))
    return " ".join(text.split())[:REASON_MAX].rstrip() or "-"


def check(rec, label, where):
    """Raise RecordError unless rec (a dict of COLUMNS) is a valid record of label."""
    for col in COLUMNS:
        if not CHECKS[col].match(rec.get(col, "")):
            raise RecordError("%s: bad %s '%s'" % (where, col, rec.get(col, "")))
    kernel, bs = split_label(label)
    if (rec["kernel"], rec["bs"]) != (kernel, bs):
        raise RecordError("%s: kernel %s bs %s in the records of %s"
                          % (where, rec["kernel"], rec["bs"], label))


def path(rdir, label):
    split_label(label)
    return os.path.join(rdir, label + ".tsv")


def parse(text, label, name):
    """The records of one file's text, in file order; RecordError if malformed."""
    if not text:
        return []
    if not text.startswith(HEADER):
        raise RecordError("%s: the first line is not the header %r" % (name, HEADER))
    if not text.endswith("\n"):
        raise RecordError("%s: the last line has no newline (edited by hand?)" % name)
    recs = []
    for n, line in enumerate(text.split("\n")[1:-1], 2):
        fields = line.split("\t")
        if len(fields) != len(COLUMNS):
            raise RecordError("%s:%d: %d fields, not %d" % (name, n, len(fields), len(COLUMNS)))
        rec = dict(zip(COLUMNS, fields))
        check(rec, label, "%s:%d" % (name, n))
        recs.append(rec)
    return recs


def read(rdir, label):
    """The records of label in file order ([] when it has none)."""
    p = path(rdir, label)
    if not os.path.exists(p):
        return []
    with open(p, encoding="utf-8") as f:
        return parse(f.read(), label, p)


def read_all(rdir):
    """{label: records} for every LABEL.tsv in rdir (none: {})."""
    if not os.path.isdir(rdir):
        return {}
    out = {}
    for name in sorted(os.listdir(rdir)):
        if name.endswith(".tsv"):
            out[name[:-4]] = read(rdir, name[:-4])
    return out


def append(rdir, label, recs):
    """Append one run's records to rdir/LABEL.tsv (made with its header).

    Under an exclusive lock, so that two runs of one label (two build
    directories) cannot interleave; refuses a run that is already there: a
    run is named by its start time, and summarize.py run twice on one run
    directory would otherwise record it twice.
    """
    for rec in recs:
        check(rec, label, "new record of %s" % label)
    runs = {rec["run"] for rec in recs}
    if len(runs) > 1:
        raise RecordError("records of more than one run at once: %s" % sorted(runs))
    os.makedirs(rdir, exist_ok=True)
    p = path(rdir, label)
    with open(p, "a+", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        old = parse(f.read(), label, p)
        if runs & {rec["run"] for rec in old}:
            raise RecordError("%s: run %s is already recorded" % (p, min(runs)))
        text = "" if f.tell() else HEADER
        text += "".join("\t".join(rec[c] for c in COLUMNS) + "\n" for rec in recs)
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
