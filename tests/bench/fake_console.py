# SPDX-License-Identifier: GPL-2.0
"""Synthetic guest consoles shaped as bench/kernel-fio-guest.sh prints them
(and as kernel-fio.sh appends its LBS-BENCH-INSN lines), for the tests of
bench/kernel-fio-report.py's record: no kernel, no QEMU.

    console(bs, jobs, insns=False) -> str
        jobs: {job: Job(...)}; a job absent from jobs is not printed
"""
import json
from dataclasses import dataclass

JOB_DIR = {"seqwrite": "write", "seqread": "read", "randwrite": "write",
           "dio-randwrite": "write", "reflink-randwrite": "write"}


@dataclass
class Job:
    io_bytes: int
    runtime_ms: int
    sect: int = 0       # device sectors of 512 bytes, read or written
    ios: int = 1
    kinsn: int = 0      # kernel instructions (insns runs); None: no count line
    rc: int = 0
    splice: bool = False  # a kernel message spliced into the JSON
    stalls: int = 0     # split over allocstall_dma32 and compact_stall


def _json(name, j):
    d = {"io_bytes": j.io_bytes, "runtime": j.runtime_ms, "bw": 1, "iops": 1.0}
    idle = {"io_bytes": 0, "runtime": 0, "bw": 0, "iops": 0.0}
    job = {"jobname": name, "error": 0, "read": idle, "write": idle,
           "sys_cpu": 12.5, "usr_cpu": 3.25}
    job[JOB_DIR[name]] = d
    return json.dumps({"fio version": "fio-3.33", "jobs": [job]}, indent=2)


def console(bs, jobs, insns=False, vmevents=True):
    out = ["[    0.000000] Linux version 6.1.0 (lbs@localhost)",
           "LBS-BENCH: begin",
           "LBS-BENCH-INFO uname 6.1.0 bs %d mem_kb 2013452 dev vda" % bs,
           "LBS-BENCH-MOUNT /dev/vda /mnt xfs rw,relatime 0 0",
           "LBS-BENCH-VMEVENTS %d" % vmevents]
    for name, j in jobs.items():
        if insns:
            out.append("LBS-BENCH-MARKED " + name)
        r, w = (j.sect, 0) if JOB_DIR[name] == "read" else (0, j.sect)
        ri, wi = (j.ios, 0) if JOB_DIR[name] == "read" else (0, j.ios)
        out.append("LBS-BENCH-JOB %s rc=%d rsect=%d wsect=%d rios=%d wios=%d wall_cs=%d"
                   % (name, j.rc, r, w, ri, wi, j.runtime_ms // 10 + 5))
        out.append("LBS-BENCH-COUNT %s  xs_write_calls.1=1024 nr_dirtied=131072%s" % (
            name, " allocstall_dma32=%d compact_stall=%d compact_fail=7"
            % (j.stalls // 2, j.stalls - j.stalls // 2) if j.stalls else ""))
        out.append("LBS-BENCH-JSON-BEGIN " + name)
        body = _json(name, j).splitlines()
        if j.splice:  # as seen on a real console: a printk inside a number
            k = next(i for i, ln in enumerate(body) if '"runtime"' in ln)
            ln = body[k]
            cut = len(ln) - 3
            body[k:k + 1] = [ln[:cut] + "[   12.345678] random: crng init done",
                             ln[cut:]]
        out.extend(body)
        out.append("LBS-BENCH-JSON-END " + name)
    out.append("LBS-BENCH-DF: /dev/vda 4190208 540000 3650208 13% /mnt")
    out.append("LBS-BENCH: end rc=0")
    if insns:
        for name, j in jobs.items():
            if j.kinsn is not None:
                out.append("LBS-BENCH-INSN %s kernel=%d total=%d" % (name, j.kinsn, 3 * j.kinsn))
    return "\n".join(out) + "\n"
