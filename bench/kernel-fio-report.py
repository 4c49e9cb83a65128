#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables of bench/kernel-fio.sh: parse the guest consoles and print the figures.

    kernel-fio-report.py [--size-mb N] [--mem M] [--wall S]
        [--record PATH --param KEY=VALUE... --kernel-commit KERNEL=COMMIT... [--failed]]
        KERNEL:BS:CONSOLE...

One KERNEL:BS:CONSOLE per boot (several per pair: the rounds). Per job and
pair: MB/s (10^6 bytes/s, fio's io_bytes / runtime; the end_fsync of the
write jobs is inside fio's runtime) as the median of the rounds with their
minimum and maximum, and device bytes / user bytes (sectors written, or
read for seqread, from /sys/block/vdX/stat around the job plus a sync,
x 512, over fio's io_bytes) as the mean of the rounds.

Ratios per job, each with the interval the rounds allow (the lowest
numerator over the highest denominator, and the other way round):
patched BS / stock 4k, ref BS / ref 4k, their quotient (the LBS efficiency:
what moving from 4k to BS blocks gains or costs on 6.1 with the series,
relative to what it gains or costs on 6.12; goal >= 1.0) and patched 4k /
stock 4k (goal >= 0.98). A verdict says "meets" when the whole interval is
at or above the goal, "misses" when it is below, and "noise" when it
straddles it. Exit 1 if a job is missing or failed in any console.

With kernel-fio.sh --insns the consoles carry each job's kernel
instruction count (LBS-BENCH-INSN), and the same ratios are printed for
it, inverted (fewer instructions is faster): stock 4k count / patched 4k
count is the speed ratio the counts predict.

--record PATH also writes the run's record (bench/kernel_records.py): the
values these tables are computed from, per pair, round (a pair's Nth
console), job and metric, under a header of the run's parameters: pairs,
rounds, size_mb, qemu_mem and wall_s from the arguments, the others
(run, dirty_mb, mount_opts, insns, profile, insn_profile, project) from
--param, the kernels' source commits from --kernel-commit. Its status is
"failed" with --failed (the caller saw a boot fail) or when this report
finds an error. A record that cannot be written is an error.
"""
import argparse
import json
import os
import re
import sys
import time

import kernel_records
from kernel_fio_stats import GOAL_4K, GOAL_LBS, JOBS, Cell, quotient, ratio, verdict

PRINTK = re.compile(r"^\[\s*\d+\.\d+\]")
# a kernel message the console spliced into the middle of a JSON line
PRINTK_TAIL = re.compile(r"\[\s*\d+\.\d+\] .*$")
JOB_RE = re.compile(r"^LBS-BENCH-JOB (\S+) rc=(\d+) rsect=(\d+) wsect=(\d+) "
                    r"rios=(\d+) wios=(\d+) wall_cs=(\d+)")
INSN_RE = re.compile(r"^LBS-BENCH-INSN (\S+) kernel=(\d+) total=(\d+)$")
# vmstat counters whose sum is a job's stalls: direct reclaim and compaction;
# only where the guest says its kernel counts VM events (LBS-BENCH-VMEVENTS 1),
# since the COUNT lines list the counters that moved and a kernel without
# them would read as no stall
STALL_RE = re.compile(r"^(allocstall_\w+|compact_stall)=(\d+)$")


def parse(path):
    """{job: {mbs, user, dev, ios, wall, runtime, sys, usr[, kinsn, stalls]}},
    info line, errors, the jobs fio failed."""
    lines = open(path, errors="replace").read().splitlines()
    res, info, errs, kinsn, stalls, failed = {}, "", [], {}, {}, []
    vmevents = False
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("LBS-BENCH-INFO "):
            info = ln[len("LBS-BENCH-INFO "):]
        m = JOB_RE.match(ln)
        if m:
            res[m.group(1)] = dict(zip(("rc", "rsect", "wsect", "rios", "wios"),
                                       map(int, m.groups()[1:6])))
            res[m.group(1)]["wall"] = int(m.group(7)) / 100.0
        m = INSN_RE.match(ln)
        if m:
            kinsn[m.group(1)] = int(m.group(2))
        if ln == "LBS-BENCH-VMEVENTS 1":
            vmevents = True
        if ln.startswith("LBS-BENCH-COUNT ") and vmevents:
            f = ln.split()
            stalls[f[1]] = sum(int(m.group(2)) for m in map(STALL_RE.match, f[2:]) if m)
        if ln.startswith("LBS-BENCH-JSON-BEGIN "):
            name, body, cut = ln.split()[1], [], ""
            i += 1
            while i < len(lines) and lines[i] != "LBS-BENCH-JSON-END " + name:
                # kernel messages between the JSON lines, or spliced into
                # one (even inside a number): drop them, join the halves
                text = lines[i]
                i += 1
                if PRINTK.match(text):
                    continue
                m = PRINTK_TAIL.search(text)
                if m:
                    cut += text[:m.start()]
                    continue
                if cut and not text.strip():
                    continue
                body.append(cut + text)
                cut = ""
            body.append(cut)
            text = "\n".join(body)
            try:
                j = json.loads(text[text.index("{"):]) if "{" in text else None
            except ValueError as e:
                j = None
                errs.append("%s: %s: fio JSON unreadable (%s)" % (path, name, e))
            if j and name in res:
                res[name]["json"] = j["jobs"][0]
        i += 1
    out = {}
    for name, ddir, _ in JOBS:
        r = res.get(name)
        if r is None:
            errs.append("%s: %s: no result line" % (path, name))
            continue
        if r["rc"] != 0 or "json" not in r:
            failed.append(name)
            errs.append("%s: %s: fio rc=%d%s" % (path, name, r["rc"],
                                                 "" if "json" in r else ", no JSON"))
            continue
        d = r["json"][ddir]
        user, rt = d["io_bytes"], d["runtime"] / 1000.0
        if user == 0 or rt <= 0:
            errs.append("%s: %s: no I/O in fio's JSON" % (path, name))
            continue
        sect, ios = (r["rsect"], r["rios"]) if ddir == "read" else (r["wsect"], r["wios"])
        out[name] = {"mbs": user / rt / 1e6, "user": user, "dev": sect * 512, "ios": ios,
                     "wall": r["wall"], "runtime": rt,
                     "sys": r["json"].get("sys_cpu", 0.0), "usr": r["json"].get("usr_cpu", 0.0)}
        if name in kinsn:
            out[name]["kinsn"] = kinsn[name]
        if name in stalls:
            out[name]["stalls"] = stalls[name]
    return out, info, errs, failed


def fr(r):
    return "-" if r is None else "%.2f [%.2f-%.2f]" % r


def ratio_tables(pairs, cell, speed, fmt, text):
    """The LBS-efficiency table per block size and the 4k regression table.

    speed(cell_a, cell_b) is the ratio that reads as a's speed over b's
    (MB/s: a / b; instruction counts: b / a); fmt formats a ratio; text
    holds the titles and column heads, %-formatted with the block size in
    KiB where they take one.
    """
    stock, ref4, p4 = ("stock-6.1", 4096), ("ref-6.12", 4096), ("patched-6.1", 4096)
    for bs in sorted({p[1] for p in pairs if p[1] != 4096}, reverse=True):
        pb, rb, k = ("patched-6.1", bs), ("ref-6.12", bs), bs // 1024
        print(text["title"] % ((k,) * text["title"].count("%d")))
        print("| job | %s | %s | LBS efficiency (goal >= 1.0) | verdict |"
              % (text["patched"] % k, text["ref"] % k))
        print("|---|---|---|---|---|")
        for job, _, label in JOBS:
            x = speed(cell(pb, job), cell(stock, job))
            y = speed(cell(rb, job), cell(ref4, job))
            e = quotient(x, y)
            print("| %s | %s | %s | %s | %s |" % (label, fmt(x), fmt(y), fmt(e), verdict(e, GOAL_LBS)))
    print(text["regression"])
    print("| job | %s | verdict |" % text["regression_col"])
    print("|---|---|---|")
    for job, _, label in JOBS:
        x = speed(cell(p4, job), cell(stock, job))
        print("| %s | %s | %s |" % (label, fmt(x), verdict(x, GOAL_4K)))


def insn_tables(pairs, boots, name):
    """The --insns tables: counts, then the ratios as speed (inverted)."""
    def cell(pair, job):
        return Cell([r[job]["kinsn"] for _, r in boots.get(pair, [])
                     if job in r and "kinsn" in r[job]])

    def fr(r):  # counts spread by tenths of a percent: one more digit
        return "-" if r is None else "%.3f [%.3f-%.3f]" % r

    print("\nKernel instructions per job (M), median [min-max] and spread of the rounds:\n")
    print("| job | " + " | ".join(name(p) for p in pairs) + " |")
    print("|---|" + "---|" * len(pairs))
    for job, _, label in JOBS:
        cells = [cell(p, job) for p in pairs]
        print("| %s | %s |" % (label, " | ".join(
            "%.1f [%.1f-%.1f] %.2f %%" % (c.med() / 1e6, c.lo() / 1e6, c.hi() / 1e6, c.spread())
            if c.ok() else "-" for c in cells)))
    ratio_tables(pairs, cell, lambda a, b: ratio(b, a), fr, {
        "title": "\nInstruction ratios at %dk as speed (count of the 4k pair / count at %dk):\n",
        "patched": "stock 4k / patched %dk", "ref": "ref 4k / ref %dk",
        "regression": "\nNo regression at 4k in instructions: stock 4k count / patched 4k "
                      "count (goal >= 0.98):\n",
        "regression_col": "stock 4k / patched 4k"})


def write_record(a, pairs, boots, fails, failed):
    """The run's record at a.record; a list of errors (none when written)."""
    errs = []
    params = dict(p.split("=", 1) for p in a.param if "=" in p)
    if len(params) != len(a.param):
        return ["--param needs KEY=VALUE"]
    params.update(pairs=" ".join("%s:%d" % p for p in pairs),
                  rounds=str(max(len(v) for v in boots.values())),
                  size_mb=str(a.size_mb), qemu_mem=a.mem,
                  wall_s="" if a.wall is None else str(a.wall))
    kernels = dict(c.split("=", 1) for c in a.kernel_commit if "=" in c)
    rows = []
    for pair in pairs:
        for rnd, (bname, res) in enumerate(boots[pair], 1):
            for job, _, _ in JOBS:
                x = res.get(job)
                if job in fails.get(bname, ()):
                    rows.append((pair[0], pair[1], rnd, job, "failed", 1))
                if x is None:
                    continue
                if params.get("insns") == "1" and "kinsn" not in x:
                    errs.append("%s %s: no instruction count" % (bname, job))
                rows += [(pair[0], pair[1], rnd, job, m, v) for m, v in
                         (("mbs", x["mbs"]), ("user_bytes", x["user"]), ("dev_bytes", x["dev"]),
                          ("kinsn", x.get("kinsn")), ("stalls", x.get("stalls")))
                         if v is not None]
    params["status"] = "failed" if failed or errs else "ok"
    for k in kernel_records.LATER:
        params.setdefault(k, "")
    missing = [k for k in kernel_records.PARAMS if k not in params]
    unknown = [k for k in params if k not in kernel_records.PARAMS]
    if missing or unknown:
        return errs + ["record: %s" % "; ".join(
            (["no --param for " + ", ".join(missing)] if missing else []) +
            (["unknown --param " + ", ".join(unknown)] if unknown else []))]
    try:
        kernel_records.write(a.record, params, kernels, rows)
    except (kernel_records.RecordError, OSError) as e:
        errs.append("record not written: %s" % e)
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=int, default=128)
    ap.add_argument("--mem", default="?")
    ap.add_argument("--wall", type=int)
    ap.add_argument("--record", metavar="PATH")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--kernel-commit", action="append", default=[], metavar="KERNEL=COMMIT")
    ap.add_argument("--failed", action="store_true")
    ap.add_argument("boots", nargs="+")
    a = ap.parse_args()

    boots, infos, errs, pairs, fails = {}, {}, [], [], {}
    for b in a.boots:
        k, bs, path = b.split(":", 2)
        pair = (k, int(bs))
        res, info, e, fails[os.path.basename(path)] = parse(path)
        if pair not in boots:
            pairs.append(pair)
        boots.setdefault(pair, []).append((os.path.basename(path), res))
        infos[pair] = info
        errs += e

    def cell(pair, job):
        return Cell([r[job]["mbs"] for _, r in boots.get(pair, []) if job in r])

    def amp(pair, job):
        v = [r[job]["dev"] / r[job]["user"] for _, r in boots.get(pair, []) if job in r]
        return "%.3f" % (sum(v) / len(v)) if v else "-"

    def name(pair):
        return "%s %dk" % (pair[0].split("-")[0], pair[1] // 1024)

    nrounds = max((len(v) for v in boots.values()), default=0)
    try:
        load = " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        load = "?"
    print("kernel-fio: fio in QEMU TCG (-smp 1, -m %s), XFS (mkfs defaults, -b size=BS) on "
          "virtio-blk, %d MiB per job, psync, benchmark kernels (bench.config); %s; host %d "
          "cpus, load %s at the end%s" % (a.mem, a.size_mb, time.strftime("%Y-%m-%d %H:%M"),
                                          os.cpu_count(), load,
                                          "" if a.wall is None else ", run %ds wall" % a.wall))
    for p in pairs:
        print("  %-14s %s; %d round(s)" % (name(p), infos[p] or "(no info line)", len(boots[p])))
    print("\nMB/s, median [min-max] of %d round(s):\n" % nrounds)
    print("| job | " + " | ".join(name(p) for p in pairs) + " |")
    print("|---|" + "---|" * len(pairs))
    for job, _, label in JOBS:
        cells = [cell(p, job) for p in pairs]
        print("| %s | %s |" % (label, " | ".join(
            "%.1f [%.1f-%.1f]" % (c.med(), c.lo(), c.hi()) if c.ok() else "-" for c in cells)))

    ratio_tables(pairs, cell, ratio, fr, {
        "title": "\nRatios at %dk, median [interval the rounds allow], verdict against the goal:\n",
        "patched": "patched %dk / stock 4k", "ref": "ref %dk / ref 4k",
        "regression": "\nNo regression at 4k: patched 4k / stock 4k (goal >= 0.98):\n",
        "regression_col": "patched 4k / stock 4k"})
    if any("kinsn" in x for v in boots.values() for _, r in v for x in r.values()):
        insn_tables(pairs, boots, name)
    print("\nDevice bytes per user byte (mean of the rounds):\n")
    print("| job | " + " | ".join(name(p) for p in pairs) + " |")
    print("|---|" + "---|" * len(pairs))
    for job, _, label in JOBS:
        print("| %s | %s |" % (label, " | ".join(amp(p, job) for p in pairs)))

    print("\nper boot: job MB/s (fio runtime s / guest wall s incl. sync and fio start) "
          "dev/user, device requests and mean KiB per request, fio sys/usr CPU %")
    for p in pairs:
        for bname, res in boots[p]:
            cells = []
            for job, _, _ in JOBS:
                x = res.get(job)
                cells.append("%s -" % job if x is None else
                             "%s %.1f (%.1f/%.1f) %.3f, %d req %.0f KiB, cpu %.0f/%.0f" % (
                                 job, x["mbs"], x["runtime"], x["wall"], x["dev"] / x["user"],
                                 x["ios"], x["dev"] / 1024.0 / max(x["ios"], 1),
                                 x["sys"], x["usr"]))
            print("  %s %s:\n    %s" % (name(p), bname, "\n    ".join(cells)))
            for job, x in res.items():
                if x["user"] != a.size_mb << 20:
                    errs.append("%s %s: fio moved %d bytes, not %d MiB"
                                % (bname, job, x["user"], a.size_mb))
    if a.record:
        errs += write_record(a, pairs, boots, fails, a.failed or bool(errs))
    for e in errs:
        print("ERROR " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
