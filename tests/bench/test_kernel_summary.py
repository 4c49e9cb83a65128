#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the kernel benchmark's records and generated summary, on
synthetic consoles and records (no kernel, no QEMU): the rules of
bench/kernel_fio_stats.py, the record bench/kernel-fio-report.py writes and
bench/kernel_records.py reads, and bench/kernel-summary.py's choice of
records, figures, notes and markers."""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

SRC = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BENCH = os.path.join(SRC, "bench")
sys.path[:0] = [BENCH, os.path.dirname(os.path.abspath(__file__))]
import kernel_fio_stats as st  # noqa: E402
import kernel_records as kr  # noqa: E402
from fake_console import Job, console  # noqa: E402

_spec = importlib.util.spec_from_file_location("kernel_summary", os.path.join(BENCH, "kernel-summary.py"))
ks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ks)

JOBS = [j for j, _, _ in st.JOBS]
FIVE = [("patched-6.1", 65536), ("ref-6.12", 65536), ("patched-6.1", 4096),
        ("ref-6.12", 4096), ("stock-6.1", 4096)]
KNOBS = {"dirty_mb": "768", "mount_opts": "lazytime"}
COMMITS = {"patched-6.1": "aaaaaaaaaaaa", "ref-6.12": "bbbbbbbbbbbb", "stock-6.1": "cccccccccccc"}


def params(run, **over):
    p = {"run": run, "status": "ok", "rounds": "2", "size_mb": "512", "dirty_mb": "",
         "mount_opts": "", "qemu_mem": "2G", "insns": "1", "profile": "0",
         "insn_profile": "", "project": "0123456789ab", "wall_s": "600"}
    p.update(over)
    return p


def write_record(rdir, run, kinsn=None, pairs=FIVE, **over):
    """A record whose kinsn per (pair, job) are kinsn.get((pair, job)), else
    [1000, 1000] (one value per round); every other metric constant."""
    p = params(run, **over)
    p["pairs"] = " ".join("%s:%d" % x for x in pairs)
    rows = []
    for pair in pairs:
        for job in JOBS:
            vals = (kinsn or {}).get((pair, job), [1000] * int(p["rounds"]))
            for r, v in enumerate(vals, 1):
                rows += [(pair[0], pair[1], r, job, "mbs", 100.0),
                         (pair[0], pair[1], r, job, "user_bytes", 1 << 20),
                         (pair[0], pair[1], r, job, "dev_bytes", 1 << 20)]
                if p["insns"] == "1":
                    rows.append((pair[0], pair[1], r, job, "kinsn", v))
    kernels = {k: COMMITS[k] for k in {x[0] for x in pairs}}
    return kr.write(os.path.join(rdir, run + ".tsv"), p, kernels, rows)


class TempDir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.rdir = os.path.join(self.tmp, "records")
        os.mkdir(self.rdir)

    def tearDown(self):
        shutil.rmtree(self.tmp)


class Stats(unittest.TestCase):
    def test_median_odd_even(self):
        self.assertEqual(st.Cell([3, 1, 2]).med(), 2)
        self.assertEqual(st.Cell([10, 1, 3, 2]).med(), 2.5)

    def test_spread(self):
        self.assertAlmostEqual(st.Cell([110, 90, 100]).spread(), 20.0)

    def test_ratio_interval(self):
        # lowest numerator over highest denominator, and the reverse
        self.assertEqual(st.ratio(st.Cell([2, 4]), st.Cell([1, 2])), (2.0, 1.0, 4.0))
        self.assertIsNone(st.ratio(st.Cell([]), st.Cell([1])))

    def test_quotient(self):
        self.assertEqual(st.quotient((2.0, 1.0, 4.0), (4.0, 2.0, 8.0)), (0.5, 0.125, 2.0))

    def test_verdict_thresholds(self):
        g = 0.98
        self.assertEqual(st.verdict((1.0, 0.98, 1.1), g), "meets")   # lowest at the goal
        self.assertEqual(st.verdict((0.98, 0.97, 0.99), g), "noise")  # straddles
        self.assertEqual(st.verdict((0.97, 0.96, 0.98), g), "noise")  # highest at the goal
        self.assertEqual(st.verdict((0.97, 0.96, 0.979), g), "misses")
        self.assertEqual(st.verdict(None, g), "-")


class ReportRecord(TempDir):
    """kernel-fio-report.py --record on consoles shaped as the guest prints them."""

    def run_report(self, run, jobs_of, extra=(), vmevents=True):
        boots = []
        for r in (1, 2):
            for k, bs in FIVE:
                path = os.path.join(self.tmp, "%s-%d-r%d.log" % (k, bs, r))
                with open(path, "w") as f:
                    f.write(console(bs, jobs_of(k, bs, r), insns=True, vmevents=vmevents))
                boots.append("%s:%d:%s" % (k, bs, path))
        args = [sys.executable, os.path.join(BENCH, "kernel-fio-report.py"), "--size-mb", "1",
                "--mem", "2G", "--wall", "77", "--record", os.path.join(self.rdir, run + ".tsv"),
                "--param", "run=" + run, "--param", "dirty_mb=768", "--param", "mount_opts=lazytime",
                "--param", "insns=1", "--param", "profile=0", "--param", "insn_profile=",
                "--param", "project=0123456789ab+"]
        args += ["--kernel-commit=%s=%s" % kv for kv in COMMITS.items()]
        p = subprocess.run(args + list(extra) + boots, capture_output=True, text=True)
        return p

    @staticmethod
    def job(k, bs, r, name):
        n = JOBS.index(name)
        return Job(1 << 20, 100 + 10 * n + r, sect=2048 + n, ios=3, kinsn=10**6 * (n + 1) + bs + r,
                   splice=(r == 2 and n == 0))

    def test_values_round_trip(self):
        p = self.run_report("20260101T000000Z-insns-knobs",
                            lambda k, bs, r: {j: self.job(k, bs, r, j) for j in JOBS})
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        rec = kr.read(os.path.join(self.rdir, "20260101T000000Z-insns-knobs.tsv"))
        self.assertEqual(rec.params["status"], "ok")
        self.assertEqual(rec.params["rounds"], "2")
        self.assertEqual(rec.params["project"], "0123456789ab+")
        self.assertEqual(rec.params["dirty_mb"], "768")
        self.assertEqual(rec.pairs, FIVE)
        self.assertEqual(rec.kernels, COMMITS)
        for k, bs in FIVE:
            for j in JOBS:
                want = [self.job(k, bs, r, j) for r in (1, 2)]
                self.assertEqual(rec.cell((k, bs), j, "kinsn").v, [w.kinsn for w in want])
                self.assertEqual(rec.cell((k, bs), j, "dev_bytes").v, [w.sect * 512 for w in want])
                self.assertEqual(rec.cell((k, bs), j, "user_bytes").v, [1 << 20] * 2)
                self.assertEqual(rec.cell((k, bs), j, "stalls").v, [0, 0])
                self.assertEqual(rec.cell((k, bs), j, "mbs").v,
                                 [round((1 << 20) / (w.runtime_ms / 1000) / 1e6, 3) for w in want])

    def test_failed_job_gives_failed_record(self):
        def jobs(k, bs, r):
            return {j: self.job(k, bs, r, j) for j in JOBS if (k, bs, r, j) != ("stock-6.1", 4096, 2, "seqread")}
        p = self.run_report("20260101T000000Z-insns-knobs", jobs)
        self.assertEqual(p.returncode, 1)
        rec = kr.read(os.path.join(self.rdir, "20260101T000000Z-insns-knobs.tsv"))
        self.assertEqual(rec.params["status"], "failed")
        self.assertEqual(rec.cell(("stock-6.1", 4096), "seqread", "kinsn").v, [10**6 * 2 + 4096 + 1])
        self.assertIsNone(ks.choose([rec])["knobs"])

    def test_stalls_and_fio_failures_recorded(self):
        def jobs(k, bs, r):
            js = {j: self.job(k, bs, r, j) for j in JOBS}
            if (k, bs) == ("ref-6.12", 65536):
                js["seqwrite"].stalls = 5 + r
                if r == 2:
                    js["randwrite"].rc = 1
            return js
        p = self.run_report("20260101T000000Z-insns-knobs", jobs)
        self.assertEqual(p.returncode, 1)
        self.assertIn("randwrite: fio rc=1", p.stdout)
        rec = kr.read(os.path.join(self.rdir, "20260101T000000Z-insns-knobs.tsv"))
        self.assertEqual(rec.params["status"], "failed")
        self.assertEqual(rec.cell(("ref-6.12", 65536), "seqwrite", "stalls").v, [6, 7])
        self.assertEqual(rec.cell(("ref-6.12", 65536), "randwrite", "failed").v, [1])
        self.assertEqual(rec.cell(("ref-6.12", 65536), "randwrite", "kinsn").v,
                         [self.job("ref-6.12", 65536, 1, "randwrite").kinsn])
        self.assertEqual(rec.cell(("patched-6.1", 65536), "randwrite", "failed").v, [])

    def test_no_vm_event_counters_no_stalls(self):
        # a kernel without CONFIG_VM_EVENT_COUNTERS lists no allocstall_*:
        # its stalls are unknown, never a count of 0
        def jobs(k, bs, r):
            return {j: self.job(k, bs, r, j) for j in JOBS}
        p = self.run_report("20260101T000000Z-insns-knobs", jobs, vmevents=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        rec = kr.read(os.path.join(self.rdir, "20260101T000000Z-insns-knobs.tsv"))
        for k, bs in FIVE:
            self.assertEqual(rec.cell((k, bs), "seqwrite", "stalls").v, [])

    def test_missing_count_gives_failed_record(self):
        def jobs(k, bs, r):
            js = {j: self.job(k, bs, r, j) for j in JOBS}
            if (k, bs, r) == ("ref-6.12", 65536, 1):
                js["dio-randwrite"].kinsn = None
            return js
        p = self.run_report("20260101T000000Z-insns-knobs", jobs)
        self.assertEqual(p.returncode, 1)
        self.assertIn("dio-randwrite: no instruction count", p.stdout)
        rec = kr.read(os.path.join(self.rdir, "20260101T000000Z-insns-knobs.tsv"))
        self.assertEqual(rec.params["status"], "failed")
        self.assertEqual(len(rec.cell(("ref-6.12", 65536), "dio-randwrite", "kinsn").v), 1)

    def test_failed_flag_gives_failed_record(self):
        p = self.run_report("20260101T000000Z-insns-knobs",
                            lambda k, bs, r: {j: self.job(k, bs, r, j) for j in JOBS}, ["--failed"])
        self.assertEqual(p.returncode, 0, p.stdout)
        rec = kr.read(os.path.join(self.rdir, "20260101T000000Z-insns-knobs.tsv"))
        self.assertEqual(rec.params["status"], "failed")

    def test_missing_param_writes_nothing(self):
        log = os.path.join(self.tmp, "stock.log")
        with open(log, "w") as f:
            f.write(console(4096, {j: self.job("stock-6.1", 4096, 1, j) for j in JOBS}))
        p = subprocess.run([sys.executable, os.path.join(BENCH, "kernel-fio-report.py"), "--size-mb", "1",
                            "--record", os.path.join(self.rdir, "20260101T000000Z-x.tsv"),
                            "--param", "run=20260101T000000Z-x", "stock-6.1:4096:" + log],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn("no --param for", p.stdout)
        self.assertEqual(os.listdir(self.rdir), [])


class ReadRecord(TempDir):
    def good_text(self):
        write_record(self.rdir, "20260101T000000Z-insns-default", pairs=[("stock-6.1", 4096)])
        with open(os.path.join(self.rdir, "20260101T000000Z-insns-default.tsv")) as f:
            return f.read()

    def bad(self, text, pattern, name="20260101T000000Z-insns-default"):
        path = os.path.join(self.rdir, name + ".tsv")
        with open(path, "w") as f:
            f.write(text)
        with self.assertRaisesRegex(kr.RecordError, pattern):
            kr.read(path)

    def test_good(self):
        text = self.good_text()
        rec = kr.parse(text, "x")
        self.assertEqual(rec.cell(("stock-6.1", 4096), "seqwrite", "kinsn").v, [1000, 1000])

    def test_errors(self):
        t = self.good_text()
        last = t.splitlines(True)[-1]
        cases = [
            (t.replace(kr.MAGIC, "# something else"), r":1: not a kernel-fio record"),
            (t[:-1], r"does not end with a newline"),
            (t.replace("# size_mb\t512\n", ""), r"parameters missing from the header: size_mb"),
            (t.replace("# rounds\t2\n", "# rounds\t2\n# rounds\t2\n"), r"parameter rounds twice"),
            (t.replace("# insns\t1", "# insns\tyes"), r"bad value 'yes' for insns"),
            (t.replace("# project\t0123456789ab", "# project\t0123"), r"bad value '0123' for project"),
            (t.replace("# kernel\tstock-6.1\tcccccccccccc\n", ""), r"kernel lines name none"),
            (t.replace(kr.COLUMNS, "k\tb"), r"expected the column line"),
            (t + last, r"given twice"),
            (t + last.replace("\t2\t", "\t3\t", 1), r"round '3' outside 1..2"),
            (t + "stock-6.1\t65536\t1\tseqwrite\tmbs\t1.000\n", r"not in the record's pairs"),
            (t + "stock-6.1\t4096\t1\tnojob\tmbs\t1.000\n", r"unknown job 'nojob'"),
            (t + "stock-6.1\t4096\t1\tseqwrite\tcycles\t1\n", r"unknown metric 'cycles'"),
            (t + "stock-6.1\t4096\t1\tseqwrite\tmbs\n", r"expected 6 tab-separated fields, got 5"),
            (t.replace("\tkinsn\t1000\n", "\tkinsn\t1e3\n", 1), r"bad value '1e3' for kinsn"),
            (t.replace("\tkinsn\t1000\n", "\tkinsn\t0\n", 1), r"bad value '0' for kinsn"),
            (t.replace("\tkinsn\t1000\n", "\tkinsn\t-1000\n", 1), r"bad value '-1000' for kinsn"),
            (t.replace("# insns\t1", "# insns\t0"), r"unknown metric 'kinsn' \(insns is 0\)"),
            ("".join(ln for ln in t.splitlines(True) if "\t2\tseqread\tkinsn" not in ln),
             r"status ok, but stock-6.1:4096 seqread kinsn has 1 of 2 rounds"),
        ]
        for text, pattern in cases:
            with self.subTest(pattern=pattern):
                self.bad(text, pattern)
        self.bad(t, r"its run is '20260101T000000Z-insns-default', its name says", name="20260102T000000Z-x")

    def test_failed_may_be_partial(self):
        t = self.good_text().replace("# status\tok", "# status\tfailed")
        t = "".join(ln for ln in t.splitlines(True) if "\t2\tseqread\t" not in ln)
        rec = kr.parse(t, "x")
        self.assertEqual(rec.cell(("stock-6.1", 4096), "seqread", "kinsn").v, [1000])

    def test_write_refuses_existing(self):
        self.good_text()
        with self.assertRaisesRegex(kr.RecordError, "exists already"):
            self.good_text()


class Choose(TempDir):
    def test_latest_of_each_kind(self):
        w = write_record
        w(self.rdir, "20260101T000000Z-insns-default")
        w(self.rdir, "20260102T000000Z-insns-default")              # the default run
        w(self.rdir, "20260101T000000Z-insns-knobs", **KNOBS)
        w(self.rdir, "20260102T000000Z-insns-knobs", **KNOBS)       # the knobs run
        # later, but each fails one condition of the rule
        w(self.rdir, "20260103T000000Z-insns-default", status="failed")
        w(self.rdir, "20260104T000000Z-insns-default-profile", profile="1")
        w(self.rdir, "20260105T000000Z-insns-default", rounds="1")
        w(self.rdir, "20260106T000000Z-mbs-default", insns="0")
        w(self.rdir, "20260107T000000Z-insns-default", pairs=[("stock-6.1", 4096)])
        w(self.rdir, "20260108T000000Z-insns-knobs", pairs=[("patched-6.1", 4096), ("stock-6.1", 4096)],
          **KNOBS)
        w(self.rdir, "20260109T000000Z-insns-knobs", dirty_mb="768")   # no lazytime: neither kind
        w(self.rdir, "20260110T000000Z-insns-knobs", mount_opts="lazytime")
        w(self.rdir, "20260111T000000Z-insns-knobs", dirty_mb="768", mount_opts="noatime")
        got = ks.choose(ks.load_records(self.rdir))
        self.assertEqual(got["default"].run, "20260102T000000Z-insns-default")
        self.assertEqual(got["knobs"].run, "20260102T000000Z-insns-knobs")

    def test_default_needs_only_the_4k_pairs(self):
        write_record(self.rdir, "20260101T000000Z-insns-default",
                     pairs=[("patched-6.1", 4096), ("stock-6.1", 4096)])
        got = ks.choose(ks.load_records(self.rdir))
        self.assertEqual(got["default"].run, "20260101T000000Z-insns-default")
        self.assertIsNone(got["knobs"])

    def test_bad_record_is_an_error(self):
        with open(os.path.join(self.rdir, "20260101T000000Z-x.tsv"), "w") as f:
            f.write("nonsense\n")
        with self.assertRaisesRegex(ks.InputError, "not a kernel-fio record"):
            ks.load_records(self.rdir)


README = """# top

text before

<!-- bench-summary: generated by bench/kernel-summary.py from bench/records; do not edit -->
old figures 0.990 meets
<!-- bench-summary: end -->

text after
"""
BENCH_README = README + """
<!-- bench-counts: generated by bench/kernel-summary.py from bench/records; do not edit -->
<!-- bench-counts: end -->
<!-- bench-frag: generated by bench/kernel-summary.py from bench/records; do not edit -->
<!-- bench-frag: end -->
tail without a newline"""


class Generate(TempDir):
    def setUp(self):
        super().setUp()
        self.root = os.path.join(self.tmp, "root")
        os.makedirs(os.path.join(self.root, "bench"))
        self.put("README.md", README)
        self.put("bench/README.md", BENCH_README)
        self.notes = os.path.join(BENCH, "kernel-summary-notes.tsv")

    def put(self, rel, text):
        with open(os.path.join(self.root, rel), "w", newline="") as f:
            f.write(text)

    def gen(self, notes=None):
        files, _ = ks.generate(self.root, self.rdir, notes or self.notes)
        return {rel: new for rel, (_, new) in files.items()}

    def block(self, text, name="bench-summary"):
        lines = text.split("\n")
        return "\n".join(lines[lines.index(ks.begin_marker(name)) + 1:lines.index(ks.end_marker(name))])

    def row(self, text, job):
        label = dict((j, lbl) for j, _, lbl in st.JOBS)[job]
        return [c.strip() for c in next(ln for ln in self.block(text).split("\n")
                                         if ln.startswith("| " + label + " |")).split("|")[1:-1]]

    def test_fragmented_run_side_by_side(self):
        p64, r64 = ("patched-6.1", 65536), ("ref-6.12", 65536)
        write_record(self.rdir, "20261201T000000Z-insns-knobs", pairs=[p64, r64], **KNOBS)
        write_record(self.rdir, "20261202T000000Z-insns-default", pairs=[p64, r64],
                     kinsn={(p64, "seqread"): [9, 9]})           # other knobs: not the base
        p = params("20261203T000000Z-insns-knobs-frag", status="failed", frag="90", **KNOBS)
        p["pairs"] = "patched-6.1:65536 ref-6.12:65536"
        rows = []
        for (k, bs) in (p64, r64):
            for job in JOBS:
                for r in (1, 2):
                    if k == "ref-6.12" and job == "seqwrite":
                        rows.append((k, bs, r, job, "failed", 1))   # fio failed it: its only line
                        continue
                    mbs = 50.0 if k == "patched-6.1" else 100.0
                    kinsn = 1500 if (k, job) == ("patched-6.1", "seqread") else 1000
                    rows += [(k, bs, r, job, "mbs", mbs), (k, bs, r, job, "user_bytes", 1),
                             (k, bs, r, job, "dev_bytes", 1), (k, bs, r, job, "kinsn", kinsn),
                             (k, bs, r, job, "stalls", 3 * r)]
        kr.write(os.path.join(self.rdir, p["run"] + ".tsv"), p,
                 {"patched-6.1": COMMITS["patched-6.1"], "ref-6.12": COMMITS["ref-6.12"]}, rows)
        blk = self.block(self.gen()["bench/README.md"], "bench-frag")
        self.assertIn("`bench/records/20261203T000000Z-insns-knobs-frag.tsv`", blk)
        self.assertIn("unfragmented from `bench/records/20261201T000000Z-insns-knobs.tsv`", blk)
        label = dict((j, lbl) for j, _, lbl in st.JOBS)
        cells = lambda job: [c.strip() for c in next(
            ln for ln in blk.split("\n") if ln.startswith("| " + label[job] + " |")).split("|")[1:-1]]
        self.assertEqual(cells("seqwrite")[1:8], ["0", "2", "4.5", "-", "50.0", "-", "-"])
        self.assertEqual(cells("seqread")[1:], ["0", "0", "4.5", "4.5", "50.0", "100.0",
                                                "0.50 [0.50-0.50]", "1.50 [1.50-1.50]",
                                                "1.00 [1.00-1.00]"])

    def test_no_fragmented_run(self):
        blk = self.block(self.gen()["bench/README.md"], "bench-frag")
        self.assertIn("No recorded run with memory fragmented.", blk)

    def test_no_recorded_run(self):
        out = self.gen()
        for job in JOBS:
            self.assertEqual(self.row(out["README.md"], job)[1:4], [ks.NONE] * 3)
        blk = self.block(out["README.md"])
        self.assertIn("- default mount and writeback: no recorded run", blk)
        self.assertIn("- analysis knobs, DIRTY_MB and lazytime: no recorded run", blk)
        self.assertNotRegex(blk.split("| job |")[0], r"\d\.\d")   # no figure anywhere before the table
        counts = self.block(out["bench/README.md"], "bench-counts")
        self.assertIn("Default mount and writeback, no recorded run.", counts)
        self.assertNotIn("| job |", counts)

    def test_figures(self):
        k = {}
        for job in JOBS:
            k[(("stock-6.1", 4096), job)] = [980, 990]
            k[(("patched-6.1", 4096), job)] = [1000, 1000]
        # stock 4k / patched 4k: 0.985 [0.980-0.990] meets
        write_record(self.rdir, "20260101T000000Z-insns-default", kinsn=k)
        # knobs: stock 4k [990, 1010] / patched 4k [1000, 1020]: 0.990 [0.971-1.010] noise;
        # efficiency (stock 4k / patched 64k) / (ref 4k / ref 64k), interval lowest over
        # highest: (1000 / 2000) / (1000 / 1000) = 0.500, [(990 / 2000) / (1100 / 1000)
        # - (1010 / 2000) / (900 / 1000)] = [0.450-0.561], misses
        kk = {}
        for job in JOBS:
            kk[(("stock-6.1", 4096), job)] = [990, 1010]
            kk[(("patched-6.1", 4096), job)] = [1000, 1020]
            kk[(("patched-6.1", 65536), job)] = [2000, 2000]
            kk[(("ref-6.12", 4096), job)] = [900, 1100]
            kk[(("ref-6.12", 65536), job)] = [1000, 1000]
        kk[(("patched-6.1", 65536), "seqread")] = [500, 500]   # 2.000 [1.800-2.244] meets
        write_record(self.rdir, "20260101T000000Z-insns-knobs", kinsn=kk, **KNOBS)
        out = self.gen()
        for rel in ("README.md", "bench/README.md"):
            r = self.row(out[rel], "seqwrite")
            self.assertEqual(r[1], "0.985 [0.980-0.990] meets")
            self.assertEqual(r[2], "0.990 [0.971-1.010] noise")
            self.assertEqual(r[3], "0.500 [0.450-0.561] misses")
            self.assertEqual(self.row(out[rel], "seqread")[3], "2.000 [1.800-2.244] meets")
        head = self.block(out["README.md"])
        self.assertIn("no regression at 4k, default mount and writeback: stock 4k / patched 4k (goal >= 0.98), "
                      "`20260101T000000Z-insns-default`", head)
        self.assertIn("no regression at 4k, analysis knobs, DIRTY_MB and lazytime: stock 4k / patched 4k "
                      "(goal >= 0.98), `20260101T000000Z-insns-knobs`", head)
        self.assertIn("LBS efficiency at 64k (goal >= 1.0), `20260101T000000Z-insns-knobs`", head)
        self.assertIn("`bench/records/20260101T000000Z-insns-knobs.tsv` (DIRTY_MB=768 MOUNT_OPTS=lazytime, "
                      "2 rounds, 512 MiB per job, project 0123456789ab; kernels patched-6.1 aaaaaaaaaaaa, "
                      "ref-6.12 bbbbbbbbbbbb, stock-6.1 cccccccccccc)", head)
        # the notes are merged in, by job
        notes = ks.load_notes(self.notes)
        self.assertEqual(self.row(out["README.md"], "reflink-randwrite")[4:], list(notes["reflink-randwrite"]))

    def test_counts_median_and_spread(self):
        k = {(p, j): [10**9, 2 * 10**9] for p in [("patched-6.1", 4096), ("stock-6.1", 4096)] for j in JOBS}
        k[(("stock-6.1", 4096), "seqwrite")] = [900 * 10**6, 1000 * 10**6, 1100 * 10**6]
        write_record(self.rdir, "20260101T000000Z-insns-default", rounds="3",
                     pairs=[("patched-6.1", 4096), ("stock-6.1", 4096)],
                     kinsn={key: v + [v[-1]] * (3 - len(v)) for key, v in k.items()})
        counts = self.block(self.gen()["bench/README.md"], "bench-counts")
        # patched: [1e9, 2e9, 2e9]: median 2000.0 M, spread 50 %; stock: 1000.0 M, 20 %
        self.assertIn("| buffered seq write 1M + fsync | 2000.0 (50.00 %) | 1000.0 (20.00 %) |", counts)
        self.assertIn("| job | patched 4k | stock 4k |", counts)

    def test_outside_the_markers_unchanged_and_idempotent(self):
        write_record(self.rdir, "20260101T000000Z-insns-default")
        out = self.gen()
        for rel, orig in (("README.md", README), ("bench/README.md", BENCH_README)):
            new = out[rel]
            self.assertNotIn("old figures", new)
            cut = re.compile(r"<!-- (bench-\w+): generated.*?<!-- \1: end -->", re.S)
            self.assertEqual(cut.sub("", new), cut.sub("", orig))
            self.put(rel, new)
        self.assertEqual(self.gen(), out)

    def test_hand_edit_is_overwritten(self):
        write_record(self.rdir, "20260101T000000Z-insns-default")
        out = self.gen()
        self.put("README.md", out["README.md"].replace("1.000 [1.000-1.000] meets", "0.990 [0.990-0.990] meets", 1))
        self.assertEqual(self.gen()["README.md"], out["README.md"])

    def test_markers(self):
        for text, pattern in [
                (README.replace(ks.end_marker("bench-summary"), ""), "has 1 and 0"),
                (README + ks.begin_marker("bench-summary") + "\n", "has 2 and 1"),
                (README.replace(ks.begin_marker("bench-summary"), "X").replace(
                    "text after", ks.begin_marker("bench-summary")), "comes before")]:
            with self.subTest(pattern=pattern):
                self.put("README.md", text)
                with self.assertRaisesRegex(ks.InputError, pattern):
                    self.gen()
        self.put("README.md", README)
        self.put("bench/README.md", README)   # no bench-counts block
        with self.assertRaisesRegex(ks.InputError, "bench-counts"):
            self.gen()

    def test_notes(self):
        path = os.path.join(self.tmp, "notes.tsv")

        def notes(override):
            lines = ["%s\tbest\twhy" % j for j in JOBS if j not in override]
            lines += ["%s\t%s" % kv for kv in override.items()]
            with open(path, "w") as f:
                f.write("# comment 0.98\n" + "\n".join(lines) + "\n")
            return ks.load_notes(path)

        ok = ("6.12's gain at 64k: order-0 folios, patch 31's pass, patches 1-3, `crc32_body` "
              "and `iomap_writepages()` on 6.1")
        self.assertEqual(notes({"seqwrite": "ok\t" + ok})["seqwrite"], ("ok", ok))
        for text in ("best 0.98", "6.12 gains 1.7 %", "about 3x", "1.61 at 64k", "`0.98`", "64kb"):
            with self.subTest(text=text):
                with self.assertRaisesRegex(ks.InputError, "is a figure"):
                    notes({"seqwrite": "best\t" + text})
        with self.assertRaisesRegex(ks.InputError, "unknown job 'nojob'"):
            notes({"nojob": "a\tb"})
        with self.assertRaisesRegex(ks.InputError, "expected JOB"):
            notes({"seqwrite": "only one column"})
        with self.assertRaisesRegex(ks.InputError, "split the table"):
            notes({"seqwrite": "a | b\tc"})
        with open(path, "w") as f:
            f.write("seqwrite\ta\tb\n")
        with self.assertRaisesRegex(ks.InputError, "no note for seqread"):
            ks.load_notes(path)
        with open(path, "w") as f:
            f.write("".join("%s\ta\tb\n" % j for j in JOBS) + "seqwrite\ta\tb\n")
        with self.assertRaisesRegex(ks.InputError, "job seqwrite twice"):
            ks.load_notes(path)

    def test_check_script_catches_a_hand_edit(self):
        src = os.path.join(self.tmp, "src")
        os.makedirs(os.path.join(src, "bench", "records"))
        for f in ("kernel-summary.py", "kernel_records.py", "kernel_fio_stats.py", "kernel-summary-notes.tsv"):
            shutil.copy(os.path.join(BENCH, f), os.path.join(src, "bench", f))
        os.makedirs(os.path.join(src, "scripts"))
        shutil.copy(os.path.join(BENCH, "..", "scripts", "mdblock.py"), os.path.join(src, "scripts"))
        write_record(os.path.join(src, "bench", "records"), "20260101T000000Z-insns-default")
        out = self.gen()   # the same notes, no records: "no recorded run"
        for rel, text in out.items():
            with open(os.path.join(src, rel), "w") as f:
                f.write(text)
        env = {k: v for k, v in os.environ.items() if k != "LBS_BENCH_RECORDS"}
        gen = os.path.join(src, "bench", "kernel-summary.py")

        def run():
            return subprocess.run([sys.executable, gen, "--check"], capture_output=True, text=True,
                                  env=dict(env, PYTHONDONTWRITEBYTECODE="1"))
        p = run()   # a record the READMEs do not show yet
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("run `make bench-summary`", p.stdout)
        subprocess.run([sys.executable, gen, "--root", src],
                       check=True, capture_output=True, env=dict(env, PYTHONDONTWRITEBYTECODE="1"))
        p = run()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(os.path.join(src, "bench", "README.md")) as f:
            text = f.read()
        with open(os.path.join(src, "bench", "README.md"), "w") as f:
            f.write(text.replace("1.000 [1.000-1.000] meets", "0.990 [0.990-0.990] meets", 1))
        p = run()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("-| buffered seq write 1M + fsync | 0.990 [0.990-0.990] meets", p.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
