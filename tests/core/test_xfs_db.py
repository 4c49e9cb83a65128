#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check core's XFS geometry rules against real filesystems.

mkfs.xfs makes sparse image files (4k and 64k blocks, default layouts,
runt last AGs, a device that is a whole number of AGs, and a 1k-block
filesystem of more than 2^32 blocks whose last AGs start past block 2^32).
xfs_db reads back the superblock and every AG header, and

  lbs_ag_block_count(agno, agcount, agblocks, dblocks)  == agf N length
                                                        == agi N length
  lbs_ag_log_blocks(agno, agblklog, logstart, logblocks) == logblocks in
        the AG that 'convert fsb LOGSTART agno' names, 0 elsewhere
  lbs_inobt_max_size(...) and lbs_btree_calc_size(...)  == the total of
        'btheight -w min -n RECORDS inobt|finobt' (xfsprogs' own btree
        geometry, minimally full blocks)

Core is called through vec_cli (the flat vector convention).  Exit status
77 (skipped) when mkfs.xfs or xfs_db is missing; 1 on any difference.
Images live in --workdir and are deleted afterwards.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

SKIP = 77

# name, block size, image size, extra mkfs options, what it shows
CASES = [
    ("4k-default", 4096, "1g", [], "default 4-AG layout"),
    ("4k-runt", 4096, "401m", ["-d", "agsize=128m"],
     "last AG 4352 of 32768 blocks"),
    ("4k-whole-ags", 4096, "384m", ["-d", "agsize=128m"],
     "device a whole number of AGs (seed 002's dblocks % agblocks == 0)"),
    ("64k-default", 65536, "2g", [], "default layout at bs 64k"),
    ("64k-runt", 65536, "4116m", ["-d", "agsize=1g"],
     "last AG 320 of 16384 blocks"),
    ("1k-over-2^32", 1024, str(4096 + 600) + "g",
     ["-d", "agsize=536870912b", "-l", "size=64m", "-K"],
     "AG 8 starts at block 2^32, agno * agblocks wraps in 32 bits"),
]


class Failure(Exception):
    pass


def find_tool(name):
    path = os.environ.get("PATH", "") + ":/sbin:/usr/sbin:/usr/local/sbin"
    return shutil.which(name, path=path)


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode:
        raise Failure("%s: exit %d\n%s%s" % (" ".join(cmd), r.returncode,
                                            r.stdout, r.stderr))
    return r.stdout


class Checker:
    def __init__(self, cli, mkfs, xfs_db):
        self.cli = cli
        self.mkfs = mkfs
        self.xfs_db = xfs_db
        self.checks = 0
        self.errors = []

    def core(self, queries):
        """Answer 'fn in...' queries with core, through vec_cli."""
        out = run([self.cli], "".join(q + "\n" for q in queries))
        ans = []
        for q, ln in zip(queries, out.splitlines()):
            lhs, rhs = ln.split("=")
            if lhs.split() != q.split():
                raise Failure("vec_cli answered %r to %r" % (ln, q))
            ans.append([int(x) for x in rhs.split()])
        if len(ans) != len(queries):
            raise Failure("vec_cli gave %d answers to %d queries"
                          % (len(ans), len(queries)))
        return ans

    def db(self, img, cmds):
        args = [self.xfs_db, "-r"]
        for c in cmds:
            args += ["-c", c]
        return run(args + [img])

    def expect(self, what, got, want):
        self.checks += 1
        if got != want:
            self.errors.append("%s: core %s, xfs_db %s" % (what, got, want))

    def image(self, workdir, name, bsize, size, opts, why):
        img = os.path.join(workdir, "lbs-%s.img" % name)
        try:
            with open(img, "wb") as f:
                f.truncate(parse_size(size))
        except OSError as e:
            print("%s: cannot make a %s sparse file here (%s): skipped"
                  % (name, size, e))
            return
        try:
            self.check_image(img, name, bsize, opts, why)
        finally:
            os.unlink(img)

    def check_image(self, img, name, bsize, opts, why):
        run([self.mkfs, "-q", "-f", "-b", "size=%d" % bsize] + opts + [img])
        fields = ("dblocks agblocks agcount agblklog logstart logblocks "
                  "inopblock blocksize")
        sb = dict(re.findall(r"^(\w+) = (\d+)$",
                             self.db(img, ["sb 0", "p " + fields]), re.M))
        sb = {k: int(v) for k, v in sb.items()}
        if sorted(sb) != sorted(fields.split()):
            raise Failure("%s: superblock fields %s" % (name, sb))
        if sb["blocksize"] != bsize:
            raise Failure("%s: block size %d" % (name, sb["blocksize"]))
        agc = sb["agcount"]
        print("%s (%s): dblocks %d, %d AGs of %d, agblklog %d, log %d "
              "blocks at %d, %d inodes/block"
              % (name, why, sb["dblocks"], agc, sb["agblocks"],
                 sb["agblklog"], sb["logblocks"], sb["logstart"],
                 sb["inopblock"]))

        # every AG's length, from its AGF and its AGI
        cmds = []
        for n in range(agc):
            cmds += ["agf %d" % n, "p length", "agi %d" % n, "p length"]
        cmds.append("convert fsb %d agno" % sb["logstart"])
        out = self.db(img, cmds)
        lens = [int(x) for x in re.findall(r"^length = (\d+)$", out, re.M)]
        m = re.search(r"^0x[0-9a-f]+ \((\d+)\)$", out, re.M)
        if len(lens) != 2 * agc or not m:
            raise Failure("%s: cannot read AG headers:\n%s" % (name, out))
        agf = lens[0::2]
        agi = lens[1::2]
        log_ag = int(m.group(1))
        if sum(agf) != sb["dblocks"]:
            raise Failure("%s: AG lengths sum to %d, not dblocks %d"
                          % (name, sum(agf), sb["dblocks"]))

        q = []
        for n in range(agc):
            q.append("ag_block_count %d %d %d %d"
                     % (n, agc, sb["agblocks"], sb["dblocks"]))
            q.append("ag_log_blocks %d %d %d %d"
                     % (n, sb["agblklog"], sb["logstart"], sb["logblocks"]))
        ans = self.core(q)
        for n in range(agc):
            where = "%s AG %d" % (name, n)
            self.expect(where + " ag_block_count vs agf length",
                        ans[2 * n][0], agf[n])
            self.expect(where + " ag_block_count vs agi length",
                        ans[2 * n][0], agi[n])
            self.expect(where + " ag_log_blocks",
                        ans[2 * n + 1][0],
                        sb["logblocks"] if n == log_ag else 0)
        self.check_btrees(img, name, sb, agf, log_ag)

    def check_btrees(self, img, name, sb, agf, log_ag):
        out = self.db(img, ["btheight -w min -n 1 inobt"])
        m = re.search(r"worst case per (\d+)-byte block: (\d+) records "
                      r"\(leaf\) / (\d+) keyptrs \(node\)", out)
        if not m or int(m.group(1)) != sb["blocksize"]:
            raise Failure("%s: btheight output:\n%s" % (name, out))
        leaf, node = int(m.group(2)), int(m.group(3))

        # the reservation of every AG, and record counts around each
        # level boundary
        per_ag = []
        for n, length in enumerate(agf):
            logb = sb["logblocks"] if n == log_ag else 0
            recs = max(length - logb, 0) * sb["inopblock"] // 64
            per_ag.append((n, length, logb, recs))
        extra = sorted({1, 2, leaf - 1, leaf, leaf + 1, leaf * node,
                        leaf * node + 1, leaf * node * node + 1, 10 ** 6,
                        2 ** 32 + 1})
        cmds, keys = [], []
        for n, length, logb, recs in per_ag:
            for tree in ("inobt", "finobt"):
                if recs > 0:
                    cmds.append("btheight -w min -n %d %s" % (recs, tree))
                    keys.append(("ag", n, length, logb, recs, tree))
        for r in extra:
            cmds.append("btheight -w min -n %d inobt" % r)
            keys.append(("recs", r))
        out = self.db(img, cmds)
        totals = [int(t) for t in
                  re.findall(r"^\d+ levels?, (\d+) blocks? total$", out, re.M)]
        if len(totals) != len(cmds):
            raise Failure("%s: %d btheight totals for %d commands:\n%s"
                          % (name, len(totals), len(cmds), out))

        q = []
        for k in keys:
            if k[0] == "ag":
                _, n, length, logb, recs, tree = k
                q.append("inobt_max_size %d %d %d %d %d"
                         % (length, logb, sb["inopblock"], leaf, node))
            else:
                q.append("btree_calc_size %d %d %d" % (leaf, node, k[1]))
        ans = self.core(q)
        for k, a, t in zip(keys, ans, totals):
            if k[0] == "ag":
                self.expect("%s AG %d %s inobt_max_size (%d records)"
                            % (name, k[1], k[5], k[4]), a[0], t)
            else:
                self.expect("%s btree_calc_size %d %d %d"
                            % (name, leaf, node, k[1]), a[0], t)
        # AGs too small to hold a chunk reserve nothing
        for n, length, logb, recs in per_ag:
            if recs == 0:
                a = self.core(["inobt_max_size %d %d %d %d %d"
                               % (length, logb, sb["inopblock"], leaf,
                                  node)])
                self.expect("%s AG %d inobt_max_size (no records)"
                            % (name, n), a[0][0], 0)
        print("  btheight: %d-record leaves, %d-pointer nodes; %d AG "
              "reservations and %d record counts compared"
              % (leaf, node, sum(1 for k in keys if k[0] == "ag"),
                 len(extra)))


def parse_size(s):
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    if s[-1] in units:
        return int(s[:-1]) * units[s[-1]]
    return int(s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True, help="vec_cli executable")
    ap.add_argument("--workdir", required=True,
                    help="where the images go (the build directory)")
    args = ap.parse_args()

    mkfs, xfs_db = find_tool("mkfs.xfs"), find_tool("xfs_db")
    if not mkfs or not xfs_db:
        print("mkfs.xfs or xfs_db not found: skipped")
        return SKIP
    workdir = os.path.join(args.workdir, "xfs-db-images")
    os.makedirs(workdir, exist_ok=True)
    c = Checker(args.cli, mkfs, xfs_db)
    try:
        for case in CASES:
            c.image(workdir, *case)
    except Failure as e:
        print("ERROR: %s" % e)
        return 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for e in c.errors:
        print("MISMATCH %s" % e)
    print("%d geometry values compared with xfs_db, %d differ"
          % (c.checks, len(c.errors)))
    return 1 if c.errors or c.checks == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
