# SPDX-License-Identifier: GPL-2.0
"""The record of one bench/kernel-fio.sh run: bench/records/RUN.tsv.

kernel-fio-report.py writes it (write()); kernel-summary.py reads it
(read()) and computes every figure of the summary from records alone.
Format, version 1: UTF-8 text, fields separated by one tab.

    # lbs kernel-fio record 1
    # KEY<TAB>VALUE                one line per parameter, in PARAMS order;
                                   an empty value is written "-"
    # kernel<TAB>NAME<TAB>COMMIT   per kernel of the pairs: the first 12 hex
                                   digits of its source tree's HEAD
    kernel<TAB>bs<TAB>round<TAB>job<TAB>metric<TAB>value     (column line)
    KERNEL<TAB>BS<TAB>ROUND<TAB>JOB<TAB>METRIC<TAB>VALUE     (one per value)

Parameters: run (the file's name: UTC start time and the mode's tag),
status (ok: every boot, job, count and kernel-warning scan passed; else
failed), pairs, rounds, size_mb, dirty_mb, mount_opts, frag (FRAG: the
share of free memory the guest fragmented; "" in records before it),
qemu_mem, insns
and profile (0 or 1: --insns, --profile), insn_profile (INSN_PROFILE),
project (git rev-parse --short=12 HEAD of this project, "+" when tracked
files differed from it), wall_s (the run's wall time).
Metrics per job and boot: mbs (fio's MB/s, 10^6 bytes/s), user_bytes
(fio's io_bytes), dev_bytes (device bytes read or written around the job),
kinsn (kernel instructions; insns runs only), and two that records from
before them lack: stalls (the guest's allocation and compaction stalls
around the job, vmstat allocstall_* + compact_stall; may be 0) and failed
(1: fio failed the job in that boot, whose only line it is then). A job
that failed in a boot has no other lines for that boot; a record with
status ok has every value of METRICS.
"""
import math
import os
import re

from kernel_fio_stats import JOBS, Cell

MAGIC = "# lbs kernel-fio record 1"
PARAMS = ("run", "status", "pairs", "rounds", "size_mb", "dirty_mb", "mount_opts",
          "qemu_mem", "insns", "profile", "insn_profile", "project", "wall_s", "frag")
# parameters later runs added: a record from before them reads as ""
LATER = ("frag",)
COLUMNS = "kernel\tbs\tround\tjob\tmetric\tvalue"
METRICS = ("mbs", "user_bytes", "dev_bytes", "kinsn")
OPTIONAL = ("stalls", "failed")
KERNELS = ("patched-6.1", "stock-6.1", "ref-6.12")
BLOCK_SIZES = (4096, 8192, 16384, 32768, 65536)
JOB_NAMES = [j[0] for j in JOBS]
RUN_RE = re.compile(r"^\d{8}T\d{6}Z-[a-z0-9-]+$")
CHECKS = {  # what a parameter's value must match ("" is allowed where it may)
    "run": RUN_RE,
    "status": re.compile(r"^(ok|failed)$"),
    "pairs": re.compile(r"^\S+( \S+)*$"),
    "rounds": re.compile(r"^[1-9][0-9]*$"),
    "size_mb": re.compile(r"^[1-9][0-9]*$"),
    "dirty_mb": re.compile(r"^[0-9]*$"),
    "mount_opts": re.compile(r"^[a-z0-9_,=]*$"),
    "qemu_mem": re.compile(r"^[0-9]+[KMGT]?$"),
    "insns": re.compile(r"^[01]$"),
    "profile": re.compile(r"^[01]$"),
    "insn_profile": re.compile(r"^(|%s)$" % "|".join(JOB_NAMES)),
    "project": re.compile(r"^[0-9a-f]{12}\+?$"),
    "wall_s": re.compile(r"^[0-9]+$"),
    "frag": re.compile(r"^[0-9]*$"),
}
COMMIT_RE = re.compile(r"^[0-9a-f]{12}$")


class RecordError(Exception):
    pass


class Record:
    """params {key: str}, kernels {name: commit}, pairs [(kernel, bs)],
    values {(kernel, bs, job, metric): {round: value}}."""

    def __init__(self, params, kernels, pairs, values):
        self.params, self.kernels, self.pairs, self.values = params, kernels, pairs, values
        self.run = params["run"]

    def flag(self, key):
        return self.params[key] == "1"

    def cell(self, pair, job, metric):
        """The rounds of one job on one pair, in round order."""
        by_round = self.values.get((pair[0], pair[1], job, metric), {})
        return Cell([by_round[r] for r in sorted(by_round)])


def parse_pairs(text):
    pairs = []
    for p in text.split():
        k, _, bs = p.partition(":")
        if k not in KERNELS or not bs.isdigit() or int(bs) not in BLOCK_SIZES:
            raise ValueError("bad pair '%s'" % p)
        if (k, int(bs)) in pairs:
            raise ValueError("pair '%s' twice" % p)
        pairs.append((k, int(bs)))
    return pairs


def _number(metric, text):
    """The value; only device bytes may be 0 (a job moves data and runs code)."""
    if metric == "mbs":
        if not re.match(r"^[0-9]+\.[0-9]+$", text):
            raise ValueError
        v = float(text)
    elif text.isdigit():
        v = int(text)
    else:
        raise ValueError
    if not math.isfinite(v) or (v == 0 and metric not in ("dev_bytes", "stalls")):
        raise ValueError
    if metric == "failed" and v != 1:
        raise ValueError
    return v


def parse(text, where):
    """The Record in text; RecordError naming where:line on anything amiss."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        raise RecordError("%s: does not end with a newline (truncated?)" % where)

    def bad(n, msg):
        raise RecordError("%s:%d: %s" % (where, n, msg))

    if not lines or lines[0] != MAGIC:
        bad(1, "not a kernel-fio record (first line must be '%s')" % MAGIC)
    params, kernels, n = {}, {}, 1
    while n < len(lines) and lines[n].startswith("#"):
        f = lines[n][2:].split("\t") if lines[n].startswith("# ") else []
        n += 1
        if len(f) == 3 and f[0] == "kernel":
            if f[1] not in KERNELS or not COMMIT_RE.match(f[2]):
                bad(n, "kernel line needs a kernel (%s) and 12 hex digits" % ", ".join(KERNELS))
            if f[1] in kernels:
                bad(n, "kernel %s twice" % f[1])
            kernels[f[1]] = f[2]
            continue
        if len(f) != 2 or f[0] not in PARAMS:
            bad(n, "expected '# KEY<TAB>VALUE' with KEY one of %s, or '# kernel<TAB>NAME<TAB>COMMIT'"
                % ", ".join(PARAMS))
        if f[0] in params:
            bad(n, "parameter %s twice" % f[0])
        value = "" if f[1] == "-" else f[1]
        if not CHECKS[f[0]].match(value):
            bad(n, "bad value '%s' for %s" % (f[1], f[0]))
        params[f[0]] = value
    for k in LATER:
        params.setdefault(k, "")
    missing = [k for k in PARAMS if k not in params]
    if missing:
        bad(n, "parameters missing from the header: %s" % ", ".join(missing))
    try:
        pairs = parse_pairs(params["pairs"])
    except ValueError as e:
        raise RecordError("%s: pairs: %s" % (where, e)) from None
    named = sorted({k for k, _ in pairs})
    if sorted(kernels) != named:
        raise RecordError("%s: kernel lines name %s; the pairs name %s"
                          % (where, ", ".join(sorted(kernels)) or "none", ", ".join(named)))
    if n >= len(lines) or lines[n] != COLUMNS:
        bad(n + 1, "expected the column line '%s'" % COLUMNS.replace("\t", "<TAB>"))
    rounds, insns = int(params["rounds"]), params["insns"] == "1"
    values = {}
    for n in range(n + 2, len(lines) + 1):
        f = lines[n - 1].split("\t")
        if len(f) != 6:
            bad(n, "expected 6 tab-separated fields, got %d" % len(f))
        k, bs, r, job, metric, v = f
        if not (bs.isdigit() and (k, int(bs)) in pairs):
            bad(n, "pair %s:%s is not in the record's pairs" % (k, bs))
        if not (r.isdigit() and 1 <= int(r) <= rounds):
            bad(n, "round '%s' outside 1..%d" % (r, rounds))
        if job not in JOB_NAMES:
            bad(n, "unknown job '%s'" % job)
        if metric not in METRICS + OPTIONAL or (metric == "kinsn" and not insns):
            bad(n, "unknown metric '%s'%s" % (metric, " (insns is 0)" if metric == "kinsn" else ""))
        try:
            val = _number(metric, v)
        except ValueError:
            bad(n, "bad value '%s' for %s" % (v, metric))
        cell = values.setdefault((k, int(bs), job, metric), {})
        if int(r) in cell:
            bad(n, "%s %s round %s %s %s given twice" % (k, bs, r, job, metric))
        cell[int(r)] = val
    if params["status"] == "ok":
        want = [m for m in METRICS if m != "kinsn" or insns]
        for k, bs in pairs:
            for job in JOB_NAMES:
                for m in want:
                    got = values.get((k, bs, job, m), {})
                    if len(got) != rounds:
                        raise RecordError("%s: status ok, but %s:%d %s %s has %d of %d rounds"
                                          % (where, k, bs, job, m, len(got), rounds))
    return Record(params, kernels, pairs, values)


def read(path):
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError("%s: %s" % (path, e)) from None
    rec = parse(text, path)
    stem = os.path.basename(path)[:-len(".tsv")]
    if rec.run != stem:
        raise RecordError("%s: its run is '%s', its name says '%s'" % (path, rec.run, stem))
    return rec


def render(params, kernels, rows):
    """The record's text. rows: (kernel, bs, round, job, metric, value)."""
    params = dict(params)
    for k in LATER:
        params.setdefault(k, "")
    out = [MAGIC]
    out += ["# %s\t%s" % (k, params[k] if params[k] != "" else "-") for k in PARAMS]
    out += ["# kernel\t%s\t%s" % (k, kernels[k]) for k in sorted(kernels)]
    out.append(COLUMNS)
    for k, bs, r, job, metric, v in rows:
        out.append("%s\t%d\t%d\t%s\t%s\t%s" % (k, bs, r, job, metric,
                                               "%.3f" % v if metric == "mbs" else "%d" % v))
    return "\n".join(out) + "\n"


def write(path, params, kernels, rows):
    """Write the record to path (new file, written whole or not at all);
    the text must read back as a record: a writer's bug is no record."""
    text = render(params, kernels, rows)
    rec = parse(text, path)
    if rec.run != os.path.basename(path)[:-len(".tsv")]:
        raise RecordError("%s: its run is '%s'" % (path, rec.run))
    if os.path.exists(path):
        raise RecordError("%s: exists already" % path)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.rename(tmp, path)
    return rec
