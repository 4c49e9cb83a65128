#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summary of bench/kernel-repeat.sh.

kernel-repeat-report.py RESULTS INSN_RESULTS KERNEL:BS...

RESULTS lines: KERNEL BS BOOT REPEAT WRITE_CS READ_CS (guest wall time in
1/100 s); INSN_RESULTS lines (empty without --insns): KERNEL BS BOOT
REPEAT WRITE_INSNS READ_INSNS. Repeat 1 of each boot is left out. Per
pair: the median and best time, the median instruction count with its
spread over the repeats ((max - min) / median), then each pair over the
first pair.
"""
import statistics
import sys


def rows(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip()]


def values(table, k, bs, col, scale):
    return [int(r[col]) / scale for r in table
            if r[0] == k and r[1] == bs and int(r[3]) > 1]


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: kernel-repeat-report.py RESULTS INSN_RESULTS KERNEL:BS...')
    times, insns = rows(sys.argv[1]), rows(sys.argv[2])
    pairs = [p.split(':') for p in sys.argv[3:]]
    meds = {}
    for k, bs in pairs:
        for col, name in ((4, 'write'), (5, 'read')):
            v = values(times, k, bs, col, 100)
            if not v:
                print(f'{k} {bs} {name}: no repeats')
                continue
            meds[(k, bs, name)] = statistics.median(v)
            print(f'{k} {bs} {name}: median {statistics.median(v):.3f} s, '
                  f'best {min(v):.3f} s, n={len(v)}')
            n = values(insns, k, bs, col, 1)
            if n:
                m = statistics.median(n)
                meds[(k, bs, name + ' insns')] = m
                print(f'{k} {bs} {name}: median {m / 1e6:.2f} M instructions, '
                      f'spread {(max(n) - min(n)) / m * 100:.2f} % '
                      f'[{min(n) / 1e6:.2f}-{max(n) / 1e6:.2f}], n={len(n)}')
    k0, bs0 = pairs[0]
    for k, bs in pairs[1:]:
        for name, what in (('write', 'time'), ('read', 'time'),
                           ('write insns', 'instructions'), ('read insns', 'instructions')):
            a, b = meds.get((k0, bs0, name)), meds.get((k, bs, name))
            if a and b:
                print(f'{name.split()[0]}: {k} {bs} {what} / {k0} {bs0} {what} = {b / a:.3f}')


if __name__ == '__main__':
    main()
