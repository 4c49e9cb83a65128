# SPDX-License-Identifier: GPL-2.0
"""The verification suite's records: tests/qemu/records/NAME-BS[-BS...].txt,
verify.sh reports copied into the tree by tests/qemu/record.sh.

The first line says what ran,

    # verify.sh 2026-12-06T19:52:56Z: kernel patched-6.1 (patched-6.1), source
      79ef65679e1d, project 720f38d87267, block sizes 4096 16384 65536,
      2000 ops, seed 1[, fragment 90]

(one line), then one "LBS-VERIFY BS TEST: RESULT [REASON]" line per test
and block size ("all" for the host's checks) and the crash campaigns'
"LBS-CRASHRULES BS CAMPAIGN RULE C/B allowed|denied ..." lines.  Read by
crash-table.py and scripts/status.py.
"""

import os
import re

HEAD_RE = re.compile(r"^# verify\.sh (\S+): kernel (\S+) \((\S+)\), source (\S+), project (\S+), "
                     r"block sizes ([0-9 ]+), (\d+) ops, seed (\d+)(?:, fragment (\d+))?$")
RULE_RE = re.compile(r"^LBS-CRASHRULES (\d+) (\S+) (.*)$")
VERIFY_RE = re.compile(r"^LBS-VERIFY (\d+|all) (\S+): (pass|fail|xfail|skip)(?: (.*))?$")
RULES = ("truncate-tail", "crash-tail", "remap-tail")


class RecordError(Exception):
    pass


def read_record(path):
    """A record as a dict: file, date, kernel, source, project, sizes, ops,
    frag (None or the percentage), results {(bs, test): (result, reason)}
    and rules {(bs, campaign): {rule: (crashes, bytes, verdict)}}."""
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


def read_dir(rdir):
    """Every record of @rdir, by file name."""
    names = sorted(n for n in os.listdir(rdir) if n.endswith(".txt")) if os.path.isdir(rdir) else []
    return [read_record(os.path.join(rdir, n)) for n in names]
