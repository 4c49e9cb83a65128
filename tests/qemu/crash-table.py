#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the named crash exceptions explained, per kernel and block size,
from the recorded verification reports (tests/qemu/records/*.txt, copied
there by tests/qemu/record.sh from verify.sh's reports).

    crash-table.py [--records DIR] [--readme FILE] [--check]

Writes the table into the README's crash-rules block (scripts/mdblock.py),
or with --check compares and exits 1 with a diff when the README differs
(meson test: a hand edit, or a record added without `make crash-table`).
Per record and block size: the crash campaigns' results, each rule's
crashes and bytes summed over the campaigns with whether the kernel was
allowed it (tests/guest/crash-rules.txt), and the results of the tests
that make each rule's case step by step (tail-after-truncate,
tail-after-crash, reflink-shutdown-eof).  Exit 2 on a bad record.
"""

import argparse
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
import mdblock  # noqa: E402

GENERATOR, SOURCE, BLOCK = "tests/qemu/crash-table.py", "tests/qemu/records", "crash-rules"
RULES = ("truncate-tail", "crash-tail", "remap-tail")
CAMPAIGNS = ("crash-logflush", "crash-nologflush", "crash-mixed", "crash-reflink")
# the step-by-step case of each rule (tests/guest)
CASES = ("tail-after-truncate", "tail-after-crash", "reflink-shutdown-eof")
HEAD_RE = re.compile(r"^# verify\.sh (\S+): kernel (\S+) \((\S+)\), source (\S+), project (\S+), "
                     r"block sizes ([0-9 ]+), (\d+) ops, seed (\d+)(?:, fragment (\d+))?$")
RULE_RE = re.compile(r"^LBS-CRASHRULES (\d+) (\S+) (.*)$")
VERIFY_RE = re.compile(r"^LBS-VERIFY (\d+) (\S+): (pass|fail|xfail|skip)(?: (.*))?$")


class RecordError(Exception):
    pass


def read_record(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    m = HEAD_RE.match(lines[0])
    if not m:
        raise RecordError("%s:1: not a verify.sh report header" % path)
    rec = {"file": os.path.basename(path), "date": m.group(1), "kernel": m.group(2),
           "source": m.group(4), "project": m.group(5), "sizes": m.group(6).split(),
           "ops": m.group(7), "frag": m.group(9), "rules": {}, "results": {}}
    for n, line in enumerate(lines[1:], 2):
        r = RULE_RE.match(line)
        if r:
            words = r.group(3).split()
            if len(words) != 3 * len(RULES) or tuple(words[0::3]) != RULES:
                raise RecordError("%s:%d: bad LBS-CRASHRULES line" % (path, n))
            counts = {}
            for name, cb, verdict in zip(words[0::3], words[1::3], words[2::3]):
                c, _, b = cb.partition("/")
                if not (c.isdigit() and b.isdigit()) or verdict not in ("allowed", "denied"):
                    raise RecordError("%s:%d: bad count '%s %s'" % (path, n, cb, verdict))
                counts[name] = (int(c), int(b), verdict)
            rec["rules"][(r.group(1), r.group(2))] = counts
            continue
        v = VERIFY_RE.match(line)
        if v:
            rec["results"][(v.group(1), v.group(2))] = (v.group(3), v.group(4) or "")
    return rec


def rows(recs):
    out = []
    for rec in recs:
        for bs in rec["sizes"]:
            camps = []
            for c in CAMPAIGNS:
                res = rec["results"].get((bs, c))
                camps.append("%s %s" % (c[len("crash-"):], res[0] if res else "-"))
                # a campaign that ran to its end prints its counts: without
                # them a "0/0" or "-" cell would claim what no run showed
                if res and res[0] == "pass" and (bs, c) not in rec["rules"]:
                    raise RecordError("%s: %s at %s passed but has no LBS-CRASHRULES line"
                                      % (rec["file"], c, bs))
            cells = []
            for rule in RULES:
                got = [rec["rules"][(bs, c)][rule] for c in CAMPAIGNS if (bs, c) in rec["rules"]]
                if not got:
                    cells.append("-")
                    continue
                verdicts = sorted({g[2] for g in got})
                crashes, nbytes = sum(g[0] for g in got), sum(g[1] for g in got)
                cells.append("%d/%d %s" % (crashes, nbytes, "/".join(verdicts)))
            for case in CASES:
                res, why = rec["results"].get((bs, case), ("-", ""))
                m = re.search(r"(block \d+ byte \d+ reads 0x[0-9a-f]{2})", why)
                cells.append(res + (": " + m.group(1) if m else ""))
            out.append("| %s | %s | %s | %s | %s | %s |" % (
                rec["kernel"] + (", memory %s%% fragmented" % rec["frag"] if rec["frag"] else ""),
                bs, rec["ops"], ", ".join(camps), " | ".join(cells),
                "%s (source %s, project %s, %s)" % (rec["file"], rec["source"], rec["project"],
                                                    rec["date"][:10])))
    return out


def body(rdir):
    names = sorted(n for n in os.listdir(rdir) if n.endswith(".txt")) if os.path.isdir(rdir) else []
    recs = [read_record(os.path.join(rdir, n)) for n in names]
    if not recs:
        return ["", "No recorded report yet.", ""]
    return ["",
            "| kernel | bs | ops | crash campaigns | truncate-tail | crash-tail | remap-tail | "
            + " | ".join(CASES) + " | record |",
            "|---" * (8 + len(CASES)) + "|"] + rows(recs) + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", default=os.path.join(HERE, "records"))
    ap.add_argument("--readme", default=os.path.join(TOP, "README.md"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        with open(a.readme, encoding="utf-8", newline="") as f:
            old = f.read()
        new = mdblock.splice(old, BLOCK, GENERATOR, SOURCE, body(a.records), a.readme)
    except (OSError, RecordError, mdblock.BlockError) as e:
        print("crash-table.py: error: %s" % e, file=sys.stderr)
        return 2
    if a.check:
        if new == old:
            return 0
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                   a.readme, "generated"))
        print("FAIL: %s's %s block is not what %s give: run `make crash-table`"
              % (a.readme, BLOCK, SOURCE))
        return 1
    if new != old:
        with open(a.readme + ".tmp", "w", encoding="utf-8", newline="") as f:
            f.write(new)
        os.replace(a.readme + ".tmp", a.readme)
    print("crash-table.py: %s %s" % (a.readme, "rewritten" if new != old else "unchanged"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
