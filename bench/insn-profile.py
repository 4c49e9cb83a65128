#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-symbol instruction profile of bench/kernel-repeat.sh --insns.

insn-profile.py --map KERNEL=System.map ... KERNEL:BS:PLUGIN_OUT ...

Each PLUGIN_OUT (bench/qemu-insn.c with prof=1) holds, per translation
block start address, the instructions executed inside the guest's profile
windows (the writes, or the reads, of repeats 2 and later). Addresses are resolved to the
kernel text symbol that contains them (user space is one line, [user]);
the counts are summed per pair and divided by the number of windows, so a
line reads as instructions per job. Printed: per pair the total and top
symbols, then, if there are two or more pairs, the symbols whose count
differs most between the second pair and the first.
"""
import bisect
import collections
import sys

TOP = 30


def load_map(path):
    syms = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in 'tTwW':
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def profile(path, smap):
    addrs, names = smap
    counts = collections.Counter()
    windows = None
    with open(path) as f:
        for line in f:
            if line.startswith('LBS-INSN-PC '):
                _, a, n = line.split()
                a = int(a, 16)
                if a < 0xffff800000000000:
                    sym = '[user]'
                else:
                    i = bisect.bisect_right(addrs, a) - 1
                    sym = names[i] if i >= 0 else '[unknown kernel]'
                counts[sym] += int(n)
            elif line.startswith('LBS-INSN mark=2 '):
                windows = (windows or 0) + 1
    if not windows or windows % 2:
        sys.exit(f'{path}: {windows or 0} profile marks, need an even number > 0')
    return counts, windows // 2


def main():
    args = sys.argv[1:]
    maps = {}
    while len(args) >= 2 and args[0] == '--map':
        k, _, m = args[1].partition('=')
        maps[k] = load_map(m)
        args = args[2:]
    if not args:
        sys.exit('usage: insn-profile.py --map KERNEL=System.map ... KERNEL:BS:FILE ...')
    per_pair = collections.OrderedDict()
    for spec in args:
        k, bs, path = spec.split(':', 2)
        if k not in maps:
            sys.exit(f'no --map for kernel {k}')
        counts, windows = profile(path, maps[k])
        c, w = per_pair.get((k, bs), (collections.Counter(), 0))
        c.update(counts)
        per_pair[(k, bs)] = (c, w + windows)
    avg = {p: {s: n / w for s, n in c.items()} for p, (c, w) in per_pair.items()}
    for (k, bs), (c, w) in per_pair.items():
        a = avg[(k, bs)]
        tot = sum(a.values())
        print(f'== {k} {bs}: {tot / 1e6:.2f} M instructions per job ({w} jobs)')
        for s, n in sorted(a.items(), key=lambda x: -x[1])[:TOP]:
            print(f'{n / 1e6:10.3f} M {n / tot * 100:5.1f} %  {s}')
    pairs = list(per_pair)
    if len(pairs) >= 2:
        a, b = avg[pairs[0]], avg[pairs[1]]
        ta, tb = sum(a.values()), sum(b.values())
        print(f'== {" ".join(pairs[1])} minus {" ".join(pairs[0])}: '
              f'{(tb - ta) / 1e6:+.3f} M instructions per job ({(tb / ta - 1) * 100:+.2f} %)')
        diff = {s: b.get(s, 0) - a.get(s, 0) for s in set(a) | set(b)}
        for s, d in sorted(diff.items(), key=lambda x: -abs(x[1]))[:TOP]:
            print(f'{d / 1e6:+10.3f} M  {a.get(s, 0) / 1e6:9.3f} -> {b.get(s, 0) / 1e6:9.3f}  {s}')


if __name__ == '__main__':
    main()
