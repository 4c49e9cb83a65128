#!/usr/bin/env python3
"""compare.py on synthetic records: its failures, cells and results.md."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakerun import summarize, compare, row  # noqa: E402

T1, T2, T3 = "2026-12-06T03:00:00Z", "2026-12-06T04:00:00Z", "2026-12-06T05:00:00Z"
OTHER = "ba9876543210"


class Compare(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def run_(self, label, started, cases, **kw):
        rc, out, err = summarize(self.tmp, label, started, group=[c[0] for c in cases],
                                 cases=cases, **kw)
        self.assertIn(rc, (0, 1), out + err)

    def test_nothing_ran_fails(self):
        rc, out, err = compare(self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("no records", err)
        os.makedirs(os.path.join(self.tmp, "records"))
        rc, out, err = compare(self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("no records", err)

    def test_a_latest_run_that_ran_nothing_fails(self):
        self.run_("patched-6.1-65536", T1, [("generic/138", "pass", 20, "")])
        self.run_("ref-6.12-65536", T1, [("generic/138", "pass", 20, "")])
        rc, out, err = compare(self.tmp)
        self.assertEqual(rc, 0, out + err)
        self.run_("patched-6.1-65536", T2, [("generic/138", "notrun", "", "no reflink")])
        rc, out, err = compare(self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("patched-6.1-65536: the latest run (%s) ran nothing" % T2, err)
        rc, out, err = summarize(self.tmp, "patched-6.1-65536", T3, tests=["generic/138"])
        self.assertEqual(rc, 1, out + err)
        rc, out, err = compare(self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("(%s) ran nothing" % T3, err)
        self.assertEqual(row(out, "generic/138")[1], "missing")

    def test_a_label_asked_about_without_records_fails(self):
        self.run_("patched-6.1-65536", T1, [("generic/138", "pass", 20, "")])
        rc, out, err = compare(self.tmp, "patched-6.1-65536")
        self.assertEqual(rc, 0, out + err)
        rc, out, err = compare(self.tmp, "patched-6.1-65536", "ref-6.12-65536")
        self.assertEqual(rc, 1, out + err)
        self.assertIn("ref-6.12-65536: no records", err)
        rc, out, err = compare(self.tmp, "patched-6.1")
        self.assertEqual(rc, 2, out + err)
        self.assertIn("bad label", err)

    def test_latest_record_in_file_order(self):
        self.run_("patched-6.1-65536", T2, [("generic/091", "pass", 40, ""),
                                            ("generic/263", "pass", 50, "")])
        self.run_("patched-6.1-65536", T1, [("generic/091", "fail", 41, "bad data")])
        rc, out, err = compare(self.tmp)
        self.assertEqual(row(out, "generic/091")[1:3], ["FAIL", "41"])
        self.assertEqual(row(out, "generic/263")[1:3], ["pass", "50"])

    def test_regressions(self):
        self.run_("patched-6.1-65536", T1, [("generic/091", "fail", 41, "bad data"),
                                            ("generic/263", "fail", 41, "bad data")])
        self.run_("ref-6.12-65536", T1, [("generic/091", "pass", 40, ""),
                                         ("generic/263", "fail", 41, "bad data")])
        self.run_("patched-6.1-4096", T1, [("generic/075", "fail", 41, "bad data")])
        self.run_("stock-6.1-4096", T1, [("generic/075", "pass", 30, "")])
        rc, out, err = compare(self.tmp)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("REGRESSION: fails patched 65536, passes ref-6.12", out)
        self.assertIn("REGRESSION: fails patched 4096, passes stock-6.1", out)
        self.assertNotIn("REGRESSION", " ".join(row(out, "generic/263")))
        self.assertIn("2 regressions", err)

    def test_listed_failure_is_an_xfail_cell(self):
        edir = os.path.join(self.tmp, "expunges")
        os.makedirs(edir)
        with open(os.path.join(edir, "ref-6.12-16384.txt"), "w") as f:
            f.write("xfs/030 the AGFL is empty at this geometry\n")
        self.run_("ref-6.12-16384", T1, [("xfs/030", "fail", 73, "output mismatch")])
        self.run_("patched-6.1-16384", T1, [("xfs/030", "fail", 86, "output mismatch")])
        rc, out, err = compare(self.tmp)
        self.assertEqual(row(out, "xfs/030")[1:], ["FAIL", "86", "xfail", "73"])

    def test_fragmented_run_is_judged_by_its_kernels_list(self):
        edir = os.path.join(self.tmp, "expunges")
        os.makedirs(edir)
        with open(os.path.join(edir, "patched-6.1-65536.txt"), "w") as f:
            f.write("generic/091 a listed failure\n")
        self.run_("patched-6.1.frag-65536", T1, [("generic/091", "fail", 70, "bad data"),
                                                 ("generic/263", "fail", 40, "bad data")])
        rc, out, err = compare(self.tmp)
        self.assertEqual(row(out, "generic/091")[1:3], ["xfail", "70"])
        self.assertEqual(row(out, "generic/263")[1:3], ["FAIL", "40"])

    def test_cells_name_their_series(self):
        self.run_("patched-6.1-65536", T1, [("generic/127", "pass", 660, ""),
                                            ("generic/091", "pass", 60, "")], series=OTHER)
        self.run_("patched-6.1-65536", T2, [("generic/091", "pass", 67, "")])
        rc, out, err = compare(self.tmp)
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(row(out, "series")[1:], ["0123456789ab"])
        self.assertEqual(row(out, "generic/127")[1:], ["pass", "660", "@" + OTHER])
        self.assertEqual(row(out, "generic/091")[1:], ["pass", "67"])

    def test_lockdep_pair(self):
        self.run_("patched-6.1-8192", T1, [("generic/029", "pass", 44, "")])
        self.run_("patched-6.1.nolockdep-8192", T1, [("generic/029", "pass", 22, "")])
        rc, out, err = compare(self.tmp)
        self.assertIn("generic/029      44     22  2.00x", out)

    def test_markdown_is_the_report_and_deterministic(self):
        md1, md2 = os.path.join(self.tmp, "a.md"), os.path.join(self.tmp, "b.md")
        rc, out, err = compare(self.tmp, "--markdown", md1)
        with open(md1) as f:
            empty = f.read()
        self.assertTrue(empty.endswith("\nNo records yet.\n"), empty)
        self.run_("patched-6.1-65536", T1, [("generic/091", "pass", 60, "")])
        self.run_("ref-6.12-65536", T1, [("generic/091", "pass", 50, "")])
        rc, out, err = compare(self.tmp, "--markdown", md1)
        os.environ["TZ"], old = "Asia/Tokyo", os.environ.get("TZ")
        try:
            compare(self.tmp, "--markdown", md2)
        finally:
            os.environ.pop("TZ") if old is None else os.environ.update(TZ=old)
        with open(md1, "rb") as f1, open(md2, "rb") as f2:
            a, b = f1.read(), f2.read()
        self.assertEqual(a, b)
        text = a.decode()
        self.assertTrue(text.endswith("".join(("    " + line).rstrip() + "\n"
                                              for line in out.splitlines())), text)
        self.assertNotIn(self.tmp, text)
        for line in text.splitlines():
            self.assertEqual(line, line.rstrip())

    def test_bad_records_are_a_clear_error(self):
        rdir = os.path.join(self.tmp, "records")
        os.makedirs(rdir)
        with open(os.path.join(rdir, "patched-6.1-65536.tsv"), "w") as f:
            f.write("generic/091\tpass\t12\n")
        rc, out, err = compare(self.tmp)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("the first line is not the header", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
