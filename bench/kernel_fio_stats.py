# SPDX-License-Identifier: GPL-2.0
"""The jobs of bench/kernel-fio.sh and the rules that turn rounds into
figures, shared by its report (kernel-fio-report.py) and the summary
generated from the records (kernel-summary.py), so both decide alike.

A cell is the rounds of one job on one pair: its median (of an even
number of rounds, the mean of the middle two), minimum and maximum, and
spread (max - min) / median. A ratio a / b comes with the interval the
rounds allow: lowest a over highest b, highest a over lowest b. A
verdict against a goal is "meets" when the whole interval is at or above
it, "misses" when the whole interval is below it, "noise" otherwise.
"""
import statistics

JOBS = [  # name, fio direction, label
    ("seqwrite", "write", "buffered seq write 1M + fsync"),
    ("seqread", "read", "buffered seq read 1M (cold)"),
    ("randwrite", "write", "buffered 4k rand write + fsync"),
    ("dio-randwrite", "write", "O_DIRECT 4k rand write"),
    ("reflink-randwrite", "write", "4k rand write into a reflink copy + fsync"),
]
GOAL_4K = 0.98      # patched 4k against stock 4k: no regression
GOAL_LBS = 1.0      # the LBS efficiency


class Cell:
    """The rounds of one job on one pair."""

    def __init__(self, values):
        self.v = values

    def ok(self):
        return bool(self.v)

    def med(self):
        return statistics.median(self.v)

    def lo(self):
        return min(self.v)

    def hi(self):
        return max(self.v)

    def spread(self):
        """(max - min) / median, in percent."""
        return (self.hi() - self.lo()) / self.med() * 100


def ratio(a, b):
    """(median ratio, lowest, highest) of a / b, or None."""
    if not (a.ok() and b.ok()):
        return None
    return a.med() / b.med(), a.lo() / b.hi(), a.hi() / b.lo()


def quotient(x, y):
    """The same for x / y of two ratios."""
    if x is None or y is None:
        return None
    return x[0] / y[0], x[1] / y[2], x[2] / y[1]


def verdict(r, goal):
    if r is None:
        return "-"
    return "meets" if r[1] >= goal else "misses" if r[2] < goal else "noise"
