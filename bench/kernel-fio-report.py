#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Table of bench/kernel-fio.sh: parse the guest consoles and print the figures.

    kernel-fio-report.py [--size-mb N] [--mem M] [--wall S] KERNEL:BS:CONSOLE...

One KERNEL:BS:CONSOLE per boot (several per kernel: the rounds). Per job and
kernel: MB/s (10^6 bytes/s, fio's io_bytes / runtime; the end_fsync of the
write jobs is inside fio's runtime) as the best of the rounds, and device
bytes / user bytes (sectors written, or read for seqread, from
/sys/block/vdX/stat around the job plus a sync, x 512, over fio's io_bytes)
as the mean of the rounds. Exit 1 if a job is missing or failed in any
console.
"""
import argparse
import json
import os
import re
import sys
import time

JOBS = [  # name, fio direction, label
    ("seqwrite", "write", "buffered seq write 1M + fsync"),
    ("seqread", "read", "buffered seq read 1M (cold)"),
    ("randwrite", "write", "buffered 4k rand write + end_fsync"),
    ("dio-randwrite", "write", "O_DIRECT 4k rand write"),
]
KERNELS = ["patched-6.1", "ref-6.12", "stock-6.1"]
PRINTK = re.compile(r"^\[\s*\d+\.\d+\]")


def parse(path):
    """{job: {mbs, user, dev, wall, runtime, rc}}, info line, errors."""
    lines = open(path, errors="replace").read().splitlines()
    res, info, errs = {}, "", []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("LBS-BENCH-INFO "):
            info = ln[len("LBS-BENCH-INFO "):]
        m = re.match(r"^LBS-BENCH-JOB (\S+) rc=(\d+) rsect=(\d+) wsect=(\d+) rios=(\d+) wios=(\d+) wall_cs=(\d+)", ln)
        if m:
            name = m.group(1)
            res[name] = {"rc": int(m.group(2)), "rsect": int(m.group(3)),
                         "wsect": int(m.group(4)), "rios": int(m.group(5)),
                         "wios": int(m.group(6)), "wall": int(m.group(7)) / 100.0}
        if ln.startswith("LBS-BENCH-JSON-BEGIN "):
            name = ln.split()[1]
            body = []
            i += 1
            while i < len(lines) and lines[i] != "LBS-BENCH-JSON-END " + name:
                if not PRINTK.match(lines[i]):  # kernel messages between the JSON lines
                    body.append(lines[i])
                i += 1
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
            errs.append("%s: %s: fio rc=%d%s" % (path, name, r["rc"],
                                                 "" if "json" in r else ", no JSON"))
            continue
        d = r["json"][ddir]
        user = d["io_bytes"]
        rt = d["runtime"] / 1000.0  # ms
        if user == 0 or rt <= 0:
            errs.append("%s: %s: no I/O in fio's JSON" % (path, name))
            continue
        sect, ios = (r["rsect"], r["rios"]) if ddir == "read" else (r["wsect"], r["wios"])
        out[name] = {"mbs": user / rt / 1e6, "user": user, "dev": sect * 512,
                     "ios": ios, "wall": r["wall"], "runtime": rt,
                     "sys": r["json"].get("sys_cpu", 0.0), "usr": r["json"].get("usr_cpu", 0.0)}
    return out, info, errs


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=int, default=256)
    ap.add_argument("--mem", default="?")
    ap.add_argument("--wall", type=int)
    ap.add_argument("boots", nargs="+")
    a = ap.parse_args()

    runs = {}   # kernel -> list of per-boot results
    infos = {}
    bss = {}
    errs = []
    for b in a.boots:
        k, bs, path = b.split(":", 2)
        res, info, e = parse(path)
        runs.setdefault(k, []).append((os.path.basename(path), res))
        infos[k] = info
        bss[k] = int(bs)
        errs += e

    def best(k, job):
        v = [r[job]["mbs"] for _, r in runs.get(k, []) if job in r]
        return max(v) if v else None

    def amp(k, job):
        v = [r[job]["dev"] / r[job]["user"] for _, r in runs.get(k, []) if job in r]
        return sum(v) / len(v) if v else None

    def ratio(x, y):
        return x / y if x is not None and y else None

    nrounds = max((len(v) for v in runs.values()), default=0)
    try:
        load = open("/proc/loadavg").read().split()[:3]
    except OSError:
        load = ["?"]
    print("kernel-fio: fio in QEMU TCG (-smp 1, -m %s), XFS on virtio-blk, %d MiB per job, "
          "psync, one file per job; %s; host %d cpus, load %s at the end%s"
          % (a.mem, a.size_mb, time.strftime("%Y-%m-%d %H:%M"), os.cpu_count(),
             " ".join(load), "" if a.wall is None else ", run %ds wall" % a.wall))
    for k in KERNELS:
        if k in runs:
            print("  %-11s XFS bs %-5d %s; %d round(s)" % (k, bss[k], infos[k] or "(no info line)",
                                                         len(runs[k])))
    print("MB/s = 10^6 bytes/s, best of %d round(s); dev/user = device bytes written (read for "
          "seqread) / bytes fio moved, mean of the rounds" % nrounds)
    print()
    hdr = ("| job | patched-6.1 64k MB/s | ref-6.12 64k MB/s | stock-6.1 4k MB/s "
           "| patched/ref (goal >= 1.0) | patched 64k / stock 4k "
           "| dev/user patched | dev/user ref | dev/user stock |")
    print(hdr)
    print("|" + "---|" * 9)
    for job, _, label in JOBS:
        p, r, s = best("patched-6.1", job), best("ref-6.12", job), best("stock-6.1", job)
        pr, ps = ratio(p, r), ratio(p, s)
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, fmt(p, ".1f"), fmt(r, ".1f"), fmt(s, ".1f"),
            fmt(pr, ".2f") + ("x" if pr is not None else ""),
            fmt(ps, ".2f") + ("x" if ps is not None else ""),
            fmt(amp("patched-6.1", job), ".3f"), fmt(amp("ref-6.12", job), ".3f"),
            fmt(amp("stock-6.1", job), ".3f")))
    print()
    print("per boot: job MB/s (fio runtime s / guest wall s incl. sync and fio start) dev/user,"
          " device requests and mean KiB per request, fio sys/usr CPU %")
    for k in KERNELS:
        for name, res in runs.get(k, []):
            cells = []
            for job, _, _ in JOBS:
                if job in res:
                    x = res[job]
                    cells.append("%s %.1f (%.1f/%.1f) %.3f, %d req %.0f KiB, cpu %.0f/%.0f" % (
                        job, x["mbs"], x["runtime"], x["wall"], x["dev"] / x["user"], x["ios"],
                        x["dev"] / 1024.0 / max(x["ios"], 1), x["sys"], x["usr"]))
                else:
                    cells.append("%s -" % job)
            print("  %s %s:\n    %s" % (k, name, "\n    ".join(cells)))
    for k in KERNELS:
        for _, res in runs.get(k, []):
            for job, _, _ in JOBS:
                if job in res and res[job]["user"] != a.size_mb << 20:
                    errs.append("%s %s: fio moved %d bytes, not %d MiB"
                                % (k, job, res[job]["user"], a.size_mb))
    for e in errs:
        print("ERROR " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
