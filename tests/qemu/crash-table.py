#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the named crash exceptions explained, per kernel and block size,
from the recorded verification reports (tests/qemu/records/*.txt, copied
there by tests/qemu/record.sh from verify.sh's reports).

    crash-table.py [--records DIR] [--readme FILE] [--check]

Writes the table into doc/crash.md's crash-rules block (scripts/mdblock.py),
or with --check compares and exits 1 with a diff when that file differs
(meson test: a hand edit, or a record added without `make crash-table`).
Per record and block size: the crash campaigns' results, each rule's
crashes and bytes summed over the campaigns with whether the kernel was
allowed it (tests/guest/crash-rules.txt), and the results of the tests
that make each rule's case step by step (tail-after-truncate,
tail-after-crash, reflink-shutdown-eof).  Exit 2 on a bad record.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
import mdblock  # noqa: E402
from suite_records import RULES, RecordError, read_dir  # noqa: E402  (this directory)

GENERATOR, SOURCE, BLOCK = "tests/qemu/crash-table.py", "tests/qemu/records", "crash-rules"
CAMPAIGNS = ("crash-logflush", "crash-nologflush", "crash-mixed", "crash-reflink")
# the step-by-step case of each rule (tests/guest)
CASES = ("tail-after-truncate", "tail-after-crash", "reflink-shutdown-eof")


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
    recs = read_dir(rdir)
    if not recs:
        return ["", "No recorded report yet.", ""]
    return ["",
            "| kernel | bs | ops | crash campaigns | truncate-tail | crash-tail | remap-tail | "
            + " | ".join(CASES) + " | record |",
            "|---" * (8 + len(CASES)) + "|"] + rows(recs) + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", default=os.path.join(HERE, "records"))
    ap.add_argument("--readme", default=os.path.join(TOP, "doc", "crash.md"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    return mdblock.update(a.readme, BLOCK, GENERATOR, SOURCE, lambda: body(a.records),
                          a.check, "make crash-table", (RecordError,))

if __name__ == "__main__":
    sys.exit(main())
