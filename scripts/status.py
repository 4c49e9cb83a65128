#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The README's "what works" table, from the recorded runs alone.

    status.py [--root DIR] [--check]

Per capability (ROWS): the verification suite's results on the patched
kernel at each block size above 4096, from the latest record of
tests/qemu/records/ (tests/qemu/suite_records.py) run without and with
memory fragmented, and the latest fstests result of the capability's
fstests tests per block size (tests/fstests/records/, patched-6.1-BS).
Rewrites the README's status block (scripts/mdblock.py); --check exits 1
with a diff when the README differs (meson test: a hand edit, or a record
added without `make status`).  Exit 2 on a bad record.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, "tests", "qemu"))
sys.path.insert(0, os.path.join(TOP, "tests", "fstests"))
import mdblock  # noqa: E402
import records as fst  # noqa: E402
import summarize as fst_summarize  # noqa: E402
import suite_records  # noqa: E402

GENERATOR, BLOCK = "scripts/status.py", "status"
SOURCE = "tests/qemu/records and tests/fstests/records"
KERNEL = "patched-6.1"

# (capability, the suite's tests, fstests' tests): the tests that exist
# for it, not every test it touches
ROWS = (
    ("Mount and geometry with blocks larger than pages, runt last AG, fallocate modes",
     "mount geometry runt-ag falloc-ops falloc-einval",
     "xfs/001 xfs/004 xfs/030 xfs/033 xfs/070 xfs/206 xfs/216 xfs/250 xfs/306"),
    ("Buffered writes into holes, unwritten extents and past EOF: no stale data (zero-around)",
     "stale-buffered stale-remount stale-unwritten short-copy trunc-eof eof-pollute-write "
     "eof-pollute-trunc eof-pollute-falloc fsync-range wb-budget-stop",
     "generic/029 generic/030 generic/248 generic/363 generic/446 generic/567"),
    ("O_DIRECT, and O_DIRECT mixed with buffered I/O and mmap",
     "dio-hole dio-unwritten dio-mixed fsx-dio fsx-mixed",
     "generic/091 generic/263"),
    ("mmap stores over holes and past EOF",
     "mmap-hole mmap-eof fsx-buffered-mmap",
     "generic/075 generic/112 generic/469 generic/749"),
    ("Shared extents: reflink, dedupe, copy_file_range, sub-block COW (copy-around)",
     "reflink-cow reflink-zero reflink-range reflink-window reflink-unshare-dirty fsx-reflink",
     "generic/138 generic/139 generic/140 generic/179 generic/180 generic/578"),
    ("Crash consistency: shutdowns mid-campaign, EOF tails after a crash",
     "crash-logflush crash-nologflush crash-mixed crash-reflink tail-after-crash "
     "tail-after-truncate reflink-shutdown-eof",
     "generic/042 generic/052 generic/468"),
    ("Large folios of whole blocks, and blocks of pages where memory gives no large folio",
     "folio-orders dirty-blocks", ""),
    ("The simulator and the kernel agree byte for byte (the same trace replayed)",
     "differential differential-sim", ""),
)


def short(bs):
    return "%dk" % (int(bs) // 1024)


def tally(results, order):
    """"2 pass, 1 FAIL": the count of each result in @order that occurs,
    failures in capitals."""
    return ", ".join("%d %s" % (results.count(r), r.upper() if r in ("fail", "missing") else r)
                     for r in order if r in results)


def latest_suite(recs, frag):
    """The latest record of KERNEL run without (@frag False) or with memory
    fragmented, or None."""
    mine = [r for r in recs if r["kernel"] == KERNEL and bool(r["frag"]) == frag]
    return max(mine, key=lambda r: r["date"]) if mine else None


def suite_cell(rec, tests):
    if rec is None:
        return "no record"
    parts = []
    for bs in rec["sizes"]:
        if int(bs) <= 4096:
            continue
        got = [rec["results"].get((bs, t), ("missing", ""))[0] for t in tests]
        parts.append("%s: %s" % (short(bs), tally(got, ("pass", "xfail", "skip", "fail", "missing"))))
    return "; ".join(parts) or "no block size above 4k"


def fstests_cell(labels, tests, kernel):
    if not tests:
        return "-"
    parts = []
    for bs in ("8192", "16384", "32768", "65536"):
        lab = labels.get("%s-%s" % (kernel, bs))
        if not lab:
            continue
        got = [lab[t]["result"] if t in lab else "not run" for t in tests]
        parts.append("%s: %s" % (short(bs), tally(got, ("pass", "xfail", "notrun", "not run", "fail",
                                                        "missing"))))
    return "; ".join(parts) or "no record"


def fstests_labels(rdir):
    """{KERNEL-BS or KERNEL.frag-BS: {test: its latest record}}: a kernel
    without lockdep (label KERNEL.nolockdep..., the same series and
    XFS_DEBUG) counts as KERNEL, and of a test's records in both files the
    latest run wins.  Each record gains "label", the file it is from."""
    out = {}
    for label, recs in fst.read_all(rdir).items():
        kernel, bs = fst.split_label(label)
        kernel = kernel.replace(".nolockdep", "", 1)
        if kernel not in (KERNEL, KERNEL + ".frag"):
            continue
        latest = out.setdefault("%s-%s" % (kernel, bs), {})
        for rec in recs:  # file order: the last one wins within a file
            prev = latest.get(rec["test"])
            if prev is None or rec["run"] >= prev["run"]:
                latest[rec["test"]] = dict(rec, label=label)
    # a failure tests/fstests/expunges lists for that kernel and block
    # size, with its reason, is an xfail, as run-fstests.sh judges it
    for key, latest in out.items():
        exp = fst_summarize.read_expunge(os.path.join(os.path.dirname(rdir), "expunges", key + ".txt"))
        for test, rec in latest.items():
            if rec["result"] == "fail" and exp.get(test, ("",))[0] == "fail":
                latest[test] = dict(rec, result="xfail")
    return out


def describe(rec, what):
    if rec is None:
        return "- %s: no record" % what
    # the records before cpus-check.sh have no cpus row: their guests ran
    # on one CPU (uniprocessor kernels, or no ACPI to find the second)
    cpus = rec["results"].get(("all", "cpus"), ("pass", "1"))
    ncpu = (cpus[1] or "?").split(" ")[0] if cpus[0] == "pass" else "?"
    return ("- %s: `tests/qemu/records/%s` (series %s, project %s, %s, %s ops a campaign, %s CPU%s)"
            % (what, rec["file"], rec["source"], rec["project"], rec["date"][:10], rec["ops"],
               ncpu, "" if ncpu == "1" else "s"))


def body(root):
    recs = suite_records.read_dir(os.path.join(root, "tests", "qemu", "records"))
    plain, frag = latest_suite(recs, False), latest_suite(recs, True)
    labels = fstests_labels(os.path.join(root, "tests", "fstests", "records"))
    out = ["",
           "| what | verification suite | the suite, memory fragmented | fstests | fstests, memory fragmented |",
           "|---|---|---|---|---|"]
    for what, suite, fstests in ROWS:
        out.append("| %s | %s | %s | %s | %s |" % (
            what, suite_cell(plain, suite.split()), suite_cell(frag, suite.split()),
            fstests_cell(labels, fstests.split(), KERNEL),
            fstests_cell(labels, fstests.split(), KERNEL + ".frag")))
    out += ["",
            "Every cell is of the patched 6.1 kernel; counts are tests per block size; an xfail is a failure listed in "
            "`tests/guest/expect.txt` as upstream XFS's own behaviour, with the symptom it must show, or for "
            "fstests in `tests/fstests/expunges/KERNEL-BS.txt` with its reason. "
            "The records:",
            "",
            describe(plain, "verification suite"),
            describe(frag, "verification suite, memory %s%% fragmented" % frag["frag"] if frag
                     else "verification suite, memory fragmented")]
    for key in sorted(labels, key=lambda lab: (int(fst.split_label(lab)[1]), lab)):
        for label in sorted({r["label"] for r in labels[key].values()}):
            used = [r for r in labels[key].values() if r["label"] == label]
            runs = sorted({r["run"] for r in used})
            series = sorted({r["series"] for r in used})
            out.append("- fstests %s: `tests/fstests/records/%s.tsv` (the latest result of %d test%s: "
                       "runs of %s, series %s)" % (key, label, len(used), "" if len(used) == 1 else "s",
                                                   ", ".join(runs), ", ".join(series)))
    return out + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=TOP)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    return mdblock.update(os.path.join(a.root, "README.md"), BLOCK, GENERATOR, SOURCE,
                          lambda: body(a.root), a.check, "make status",
                          (suite_records.RecordError, fst.RecordError))

if __name__ == "__main__":
    sys.exit(main())
