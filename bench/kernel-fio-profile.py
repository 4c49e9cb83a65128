#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where bench/kernel-fio.sh's jobs did their work, pairs side by side.

    kernel-fio-profile.py [--top N] KERNEL:BS:CONSOLE...

Counters: each job's LBS-BENCH-COUNT line holds the XFS and VM event
counters that moved during it (/proc/fs/xfs/stat as name.N for its Nth
value, /proc/vmstat); the table shows, per job, the counters that differ
most between the pairs (mean of the rounds).  Counts are the work done, so
they compare without the timing noise of a TCG guest.

Profiles (--profile runs): per job, perf report's top kernel symbols twice
(self time, then time with callees) between LBS-BENCH-PROF-BEGIN/END
lines, with the event count of the software clock (nanoseconds of CPU).
A cell is the symbol's CPU milliseconds (percentage x event count),
averaged over the rounds of its pair; rows are the symbols with the most
milliseconds in any pair.  Milliseconds, not percentages, because the
pairs do the same work: a symbol that costs more on one kernel shows as
more milliseconds even when the total grew too.

Exit 1 when a console has no counters at all, or lacks a job's profile
that another console has.
"""
import argparse
import collections
import re
import sys

ROW = re.compile(r'^\s*([\d.]+)%\s+(?:([\d.]+)%\s+)?\[k\]\s+(\S.*?)\s*$')
# perf names a user address it cannot resolve by its value: not a symbol
UNRESOLVED = re.compile(r'^0x[0-9a-f]+$')
COUNT = re.compile(r'^# Event count \(approx\.\): (\d+)')


def parse(path):
    """{job: {mode: (event_count, {symbol: percent})}}, {job: {counter: delta}}"""
    out, counts = {}, {}
    job = mode = None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('LBS-BENCH-COUNT '):
            f = line.split()
            counts[f[1]] = {k: int(v) for k, v in (x.split('=', 1) for x in f[2:])}
        elif line.startswith('LBS-BENCH-PROF-BEGIN '):
            job = line.split()[1]
            out[job] = {}
        elif line.startswith('LBS-BENCH-PROF-END '):
            job = mode = None
        elif job is None:
            continue
        elif line.startswith('LBS-BENCH-PROF-MODE '):
            mode = line.split()[1].lstrip('-')
            out[job][mode] = [0, {}]
        elif mode:
            m = COUNT.match(line)
            if m:
                out[job][mode][0] = int(m.group(1))
                continue
            m = ROW.match(line)
            if m and not UNRESOLVED.match(m.group(3)):
                # --children rows carry two percentages: with callees, self
                out[job][mode][1][m.group(3)] = float(m.group(1))
    return out, counts


def counter_rows(per_pair, top):
    """The counters that differ most between the pairs: by the ratio of the
    largest mean to the smallest (a missing counter is 0), then by size."""
    names = set().union(*(c.keys() for c in per_pair.values()))
    def key(n):
        vals = [abs(c.get(n, 0)) for c in per_pair.values()]
        return (-(max(vals) + 1) / (min(vals) + 1), -max(vals))
    return [n for n in sorted(names, key=key)
            if max(abs(c.get(n, 0)) for c in per_pair.values()) >= 100][:top]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--top', type=int, default=40)
    ap.add_argument('consoles', nargs='+', metavar='KERNEL:BS:CONSOLE')
    args = ap.parse_args()

    # pair -> job -> mode -> list of {symbol: ms}, totals
    ms = collections.defaultdict(lambda: collections.defaultdict(
        lambda: collections.defaultdict(list)))
    total = collections.defaultdict(lambda: collections.defaultdict(list))
    cnt = collections.defaultdict(lambda: collections.defaultdict(list))
    pairs, jobs, bad = [], [], 0
    for spec in args.consoles:
        k, bs, path = spec.split(':', 2)
        pair = f'{k} {bs}'
        if pair not in pairs:
            pairs.append(pair)
        prof, counts = parse(path)
        if not counts:
            print(f'ERROR: no counters in {path}', file=sys.stderr)
            bad = 1
        for job, c in counts.items():
            if job not in jobs:
                jobs.append(job)
            cnt[pair][job].append(c)
        for job, modes in prof.items():
            if job not in jobs:
                jobs.append(job)
            for mode, (count, syms) in modes.items():
                ms[pair][job][mode].append(
                    {s: p * count / 100 / 1e6 for s, p in syms.items()})
                if mode == 'no-children':
                    total[pair][job].append(count / 1e6)

    def mean(vals):
        return sum(vals) / len(vals) if vals else None

    w = max(12, *(len(p) for p in pairs))
    print('Counters that differ most between the pairs (mean of rounds; '
          'XFS name.N is the Nth value of /proc/fs/xfs/stat\'s line name)')
    for job in jobs:
        per_pair = {}
        for pair in pairs:
            runs = cnt[pair][job]
            names = set().union(*runs) if runs else set()
            per_pair[pair] = {n: sum(r.get(n, 0) for r in runs) / len(runs)
                              for n in names}
        print(f'\n== {job}')
        print(f'{"counter":<40}' + ''.join(f'{p:>{w + 2}}' for p in pairs))
        for n in counter_rows(per_pair, args.top):
            print(f'{n[:40]:<40}' + ''.join(
                f'{per_pair[p].get(n, 0):>{w + 2}.0f}' for p in pairs))

    profiled = [j for j in jobs if any(total[p][j] for p in pairs)]
    if profiled:
        print('\nCPU milliseconds per kernel symbol (perf cpu-clock, whole guest), '
              'mean of rounds')
    for job in profiled:
        for pair in pairs:
            if not total[pair][job]:
                print(f'ERROR: {pair} has no profile of {job}', file=sys.stderr)
                bad = 1
        print(f'\n== {job}: total CPU ms ' +
              '  '.join(f'{p} {mean(total[p][job]) or 0:.0f}' for p in pairs))
        for mode, title in (('no-children', 'self'), ('children', 'with callees')):
            cells = {}
            for pair in pairs:
                runs = ms[pair][job][mode]
                syms = set().union(*runs) if runs else set()
                # a symbol under the report's cut-off in a round counts 0 there
                cells[pair] = {s: sum(r.get(s, 0) for r in runs) / len(runs)
                               for s in syms}
            rows = set().union(*(c.keys() for c in cells.values()))
            rows = sorted(rows, key=lambda s: -max(c.get(s, 0) for c in cells.values()))
            print(f'-- {title}')
            print(f'{"symbol":<40}' + ''.join(f'{p:>{w + 2}}' for p in pairs))
            for s in rows[:args.top]:
                print(f'{s[:40]:<40}' + ''.join(
                    f'{cells[p][s]:>{w + 2}.0f}' if s in cells[p] else f'{"-":>{w + 2}}'
                    for p in pairs))
    return bad


if __name__ == '__main__':
    sys.exit(main())
