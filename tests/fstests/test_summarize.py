#!/usr/bin/env python3
"""summarize.py on synthetic runs: its rules and the records it appends."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import records  # noqa: E402
from fakerun import summarize, row  # noqa: E402

L = "patched-6.1-65536"
T1, T2, T3 = "2026-12-06T03:00:00Z", "2026-12-06T04:00:00Z", "2026-12-06T05:00:00Z"
NOFMT = "Failed to format with small blocksize"


class Summarize(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name
        self.rdir = os.path.join(self.tmp, "records")

    def tearDown(self):
        self._tmp.cleanup()

    def recs(self, label=L):
        return records.read(self.rdir, label)

    def test_notrun_after_an_earlier_pass_fails(self):
        rc, out, err = summarize(self.tmp, L, T1, group=["generic/091"],
                                 cases=[("generic/091", "pass", 12, "")])
        self.assertEqual(rc, 0, out + err)
        rc, out, err = summarize(self.tmp, L, T2, group=["generic/091"],
                                 cases=[("generic/091", "notrun", "", "no reflink")])
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(row(out, "generic/091")[1], "notrun-fail")
        self.assertIn("ran before (pass in run %s)" % T1, out)
        self.assertEqual([r["result"] for r in self.recs()], ["pass", "notrun"])

    def test_notrun_after_an_earlier_fail_fails(self):
        summarize(self.tmp, L, T1, group=["generic/091"],
                  cases=[("generic/091", "fail", 12, "- output mismatch")])
        rc, out, err = summarize(self.tmp, L, T2, group=["generic/091"],
                                 cases=[("generic/091", "notrun", "", "no reflink")])
        self.assertEqual(rc, 1, out + err)

    def test_notrun_of_another_label_is_not_history(self):
        summarize(self.tmp, "ref-6.12-65536", T1, group=["generic/091"],
                  cases=[("generic/091", "pass", 12, "")])
        rc, out, err = summarize(self.tmp, L, T2, group=["generic/091"],
                                 cases=[("generic/091", "notrun", "", "no reflink")])
        self.assertEqual(rc, 0, out + err)

    def test_explicit_tests_notrun_fails(self):
        tests = ["generic/138", "generic/139", "generic/140", "generic/263"]
        rc, out, err = summarize(self.tmp, L, T1, tests=tests,
                                 cases=[(t, "notrun", "", "Reflink not supported") for t in tests])
        self.assertEqual(rc, 1, out + err)
        for t in tests:
            self.assertEqual(row(out, t)[1], "notrun-fail")
        self.assertIn("4 unexpected", out)

    def test_notrun_otherwise_is_counted_per_reason_not_failed(self):
        rc, out, err = summarize(self.tmp, L, T1, group=["generic/031", "generic/651", "xfs/001"],
                                 cases=[("generic/031", "notrun", "", "alloc unit 65536"),
                                        ("generic/651", "notrun", "", NOFMT),
                                        ("xfs/001", "pass", 30, "")])
        self.assertEqual(rc, 0, out + err)
        self.assertIn("2 notrun (1: %s; 1: alloc unit 65536)" % NOFMT, out)

    def test_listed_notrun_is_not_a_failure_even_by_name(self):
        rc, out, err = summarize(self.tmp, L, T1, tests=["generic/651"],
                                 expunge="generic/651 notrun: formats with 1k blocks itself\n",
                                 cases=[("generic/651", "notrun", "", NOFMT)])
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(row(out, "generic/651")[1], "notrun")

    def test_listed_failure_is_xfail(self):
        exp = "generic/091 the host's xfsprogs\n"
        rc, out, err = summarize(self.tmp, L, T1, tests=["generic/091"], expunge=exp,
                                 cases=[("generic/091", "fail", 12, "- output mismatch")])
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(row(out, "generic/091")[1], "xfail")
        self.assertEqual(self.recs()[0]["result"], "fail")
        rc, out, err = summarize(self.tmp, L, T2, tests=["generic/091"],
                                 cases=[("generic/091", "fail", 12, "- output mismatch")])
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(row(out, "generic/091")[1], "fail")

    def test_listed_failure_that_passes_is_xpass(self):
        rc, out, err = summarize(self.tmp, L, T1, tests=["generic/091"], expunge="generic/091 why\n",
                                 cases=[("generic/091", "pass", 12, "")])
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(row(out, "generic/091")[1], "xpass")

    def test_missing_fails(self):
        rc, out, err = summarize(self.tmp, L, T1, tests=["generic/091", "generic/263"],
                                 cases=[("generic/091", "pass", 12, "")])
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(row(out, "generic/263")[1], "missing")
        self.assertEqual([(r["test"], r["result"]) for r in self.recs()],
                         [("generic/091", "pass"), ("generic/263", "missing")])

    def test_no_result_at_all_records_missing(self):
        rc, out, err = summarize(self.tmp, L, T1, group=["generic/091", "xfs/001"])
        self.assertEqual(rc, 1, out + err)
        self.assertEqual([(r["test"], r["result"], r["seconds"]) for r in self.recs()],
                         [("generic/091", "missing", "-"), ("xfs/001", "missing", "-")])

    def test_check_out_when_no_result_xml(self):
        out_text = ("generic/091 12s ...  11s\n"
                    "generic/263       [not run] " + NOFMT + "\n"
                    "generic/138 - output mismatch (see generic/138.out.bad)\n")
        rc, out, err = summarize(self.tmp, L, T1, group=["generic/091", "generic/138", "generic/263"],
                                 check_out=out_text)
        self.assertEqual(rc, 1, out + err)
        self.assertEqual([r["result"] for r in self.recs()], ["pass", "fail", "notrun"])
        self.assertEqual(self.recs()[0]["seconds"], "11")

    def test_record_format(self):
        reason = "line one\nline\ttwo " + "x" * 300
        summarize(self.tmp, L, T1, tests=["generic/091", "xfs/001"], commit="abcdef012345+",
                  cases=[("generic/091", "notrun", "", reason), ("xfs/001", "pass", "17", "")])
        with open(os.path.join(self.rdir, L + ".tsv")) as f:
            lines = f.read().split("\n")
        self.assertEqual(lines[0], "# run\tkernel\tbs\ttest\tresult\tseconds\tseries\tcommit\treason")
        first = lines[1].split("\t")
        self.assertEqual(first[:8], [T1, "patched-6.1", "65536", "generic/091", "notrun", "-",
                                     "0123456789ab", "abcdef012345+"])
        self.assertEqual(first[8], ("line one line two " + "x" * 300)[:200])
        self.assertEqual(lines[2].split("\t"), [T1, "patched-6.1", "65536", "xfs/001", "pass", "17",
                                                "0123456789ab", "abcdef012345+", "-"])
        self.assertEqual(lines[3:], [""])

    def test_records_are_only_appended(self):
        summarize(self.tmp, L, T1, group=["generic/091"], cases=[("generic/091", "pass", 12, "")])
        with open(os.path.join(self.rdir, L + ".tsv"), "rb") as f:
            before = f.read()
        summarize(self.tmp, L, T2, group=["generic/091"], cases=[("generic/091", "pass", 9, "")])
        with open(os.path.join(self.rdir, L + ".tsv"), "rb") as f:
            after = f.read()
        self.assertTrue(after.startswith(before) and len(after) > len(before))

    def test_a_run_is_recorded_once(self):
        summarize(self.tmp, L, T1, group=["generic/091"], cases=[("generic/091", "pass", 12, "")])
        rc, out, err = summarize(self.tmp, L, T1, group=["generic/091"],
                                 cases=[("generic/091", "pass", 12, "")])
        self.assertEqual(rc, 2)
        self.assertIn("already recorded", err)
        self.assertEqual(len(self.recs()), 1)

    def test_bad_input_is_a_clear_error(self):
        os.makedirs(self.rdir)
        path = os.path.join(self.rdir, L + ".tsv")
        with open(path, "w") as f:
            f.write(records.HEADER + "2026-12-06T03:00:00Z\tpatched-6.1\t65536\tgeneric/091\tpass\n")
        rc, out, err = summarize(self.tmp, L, T2, group=["generic/091"],
                                 cases=[("generic/091", "pass", 12, "")])
        self.assertEqual(rc, 2)
        self.assertIn(path + ":2: 5 fields, not 9", err)
        rc, out, err = summarize(self.tmp, "ref-6.12-65536", T2, expunge="generic/091\n",
                                 group=["generic/091"], cases=[("generic/091", "pass", 12, "")])
        self.assertEqual(rc, 2)
        self.assertIn("not \"TEST REASON\"", err)
        for bad in (dict(series="0123"), dict(commit="HEAD")):
            rc, out, err = summarize(self.tmp, "ref-6.12-16384", T3, group=["generic/091"],
                                     cases=[("generic/091", "pass", 12, "")], **bad)
            self.assertEqual(rc, 2, out + err)
            self.assertIn("bad %s" % list(bad)[0], err)
        self.assertFalse(os.path.exists(os.path.join(self.rdir, "ref-6.12-16384.tsv")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
