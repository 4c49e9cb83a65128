#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""controls-judge.py's rules on synthetic reports (no kernel, no guest)."""
import os
import subprocess
import sys
import tempfile
import unittest

JUDGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "controls-judge.py")
TABLE = """# test table
knob k1 ci 65536 2000
fail k1 65536 stale-buffered STALE.DATA.pattern
may k1 65536 fsx-mixed STALE.device.pattern
knob k2 all 16384,65536 2000 too long for CI: ten minutes a boot
fail k2 16384 crash-logflush only.crash.rule.crash-tail
"""
GOOD = """# verify.sh header
LBS-VERIFY all kernel-build: pass prebuilt x
LBS-VERIFY all boot-complete: pass 50s
LBS-VERIFY all kernel-clean: pass
LBS-VERIFY 65536 mount: pass
LBS-VERIFY 65536 stale-buffered: fail offset 4096: got 0x53 want 0x00, STALE DATA pattern
LBS-VERIFY 65536 fsx-mixed: pass
LBS-VERIFY 65536 reflink-shutdown-eof: xfail upstream [observed: block 8 byte 0 reads 0xaa]
"""


def judge(table, *args):
    with tempfile.TemporaryDirectory() as d:
        t = os.path.join(d, "t.txt")
        with open(t, "w") as f:
            f.write(table)
        files = []
        for i, a in enumerate(args):
            if a.startswith("REPORT:"):
                r = os.path.join(d, "r%d.txt" % i)
                with open(r, "w") as f:
                    f.write(a[len("REPORT:"):])
                files.append(r)
            else:
                files.append(a)
        p = subprocess.run([sys.executable, JUDGE, "--table", t] + files,
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


class Judge(unittest.TestCase):
    def caught(self, report, want, knob="k1"):
        rc, out = judge(TABLE, "--knob", knob, "--report", "REPORT:" + report)
        self.assertEqual(rc, 0 if want else 1, out)
        return out

    def test_caught(self):
        self.caught(GOOD, True)

    def test_named_test_passes(self):
        self.caught(GOOD.replace("stale-buffered: fail offset 4096: got 0x53 want 0x00, STALE DATA pattern",
                                 "stale-buffered: pass"), False)

    def test_named_test_fails_another_way(self):
        out = self.caught(GOOD.replace("STALE DATA pattern", "Input/output error"), False)
        self.assertIn("not with /STALE.DATA.pattern/", out)

    def test_other_test_fails(self):
        self.caught(GOOD.replace("65536 mount: pass", "65536 mount: fail EIO"), False)

    def test_other_test_skipped(self):
        self.caught(GOOD.replace("65536 mount: pass", "65536 mount: skip not mounted"), False)

    def test_may_fails_its_way_or_passes(self):
        self.caught(GOOD.replace("fsx-mixed: pass", "fsx-mixed: fail x = STALE device pattern"), True)
        self.caught(GOOD.replace("fsx-mixed: pass", "fsx-mixed: fail x EIO"), False)

    def test_may_expected_failure(self):
        table = TABLE + "may k1 65536 reflink-shutdown-eof setup:.size\n"
        rc, out = judge(table, "--knob", "k1", "--report", "REPORT:" + GOOD)
        self.assertEqual(rc, 0, out)
        self.assertIn("ok may 65536 reflink-shutdown-eof: its expected failure", out)

    def test_named_test_missing(self):
        self.caught("\n".join(l for l in GOOD.split("\n") if "stale-buffered" not in l), False)

    def test_no_boot(self):
        self.caught(GOOD.replace("boot-complete: pass 50s", "boot-complete: fail timeout"), False)

    def test_no_build_or_boot_line(self):
        # a report cut short before the host lines proves nothing
        for t in ("kernel-build", "boot-complete"):
            out = self.caught("\n".join(l for l in GOOD.split("\n") if t not in l), False)
            self.assertIn("all %s: no result in the report" % t, out)

    def test_report_of_another_kernel(self):
        # a stale report (another image) must not be judged as the knob's
        rc, out = judge(TABLE, "--knob", "k1", "--report", "REPORT:" + GOOD, "--image", "x")
        self.assertEqual(rc, 0, out)
        rc, out = judge(TABLE, "--knob", "k1", "--report", "REPORT:" + GOOD, "--image", "y")
        self.assertEqual(rc, 1, out)
        self.assertIn("not the knob's image y", out)
        out = self.caught(GOOD.replace("pass prebuilt x", "pass"), True)
        rc, out = judge(TABLE, "--knob", "k1", "--report",
                        "REPORT:" + GOOD.replace("pass prebuilt x", "pass"), "--image", "x")
        self.assertEqual(rc, 1, out)

    def test_result_twice(self):
        out = self.caught(GOOD + "LBS-VERIFY 65536 fsx-mixed: pass\n", False)
        self.assertIn("more than one result", out)

    def test_kernel_warning(self):
        self.caught(GOOD.replace("kernel-clean: pass", "kernel-clean: fail WARNING"), False)

    def test_table(self):
        rc, out = judge(TABLE, "--list", "ci")
        self.assertEqual((rc, out.split()), (0, ["k1"]))
        rc, out = judge(TABLE, "--knob", "k2", "--sizes")
        self.assertEqual((rc, out.split()), (0, ["16384", "65536"]))
        for bad in ("knob k3 all 65536 2000\nfail k3 65536 t x\n",      # no why
                    "knob k3 ci 65536 2000\n",                          # nothing must fail
                    "knob k3 ci 65536 2000\nfail k3 4096 t x\n",        # a size it does not boot
                    "fail k3 65536 t x\n",                              # no knob line
                    "knob k3 ci 65536 2000\nfail k3 65536 t (\n",       # bad regex
                    "knob k3 ci 65536 2000\nfail k3 65536 t x\nmay k3 65536 t y\n"):  # twice
            rc, out = judge(TABLE + bad, "--check")
            self.assertEqual(rc, 2, bad + out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
