#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Several writers and readers at once through lbs-fuse's multithreaded
loop, on different files and on one shared file, with drop_caches and
writeback through .lbs/ctl meanwhile.  Records are 3000 bytes (not block
or page aligned, so zero-around runs) and each one a writer owns; a
reader must always see a whole record of one generation, never a torn
or stale one, and in the end every record holds its last generation.
Each writer does WRITES writes and each reader READS reads, however long
that takes (the files hold generation 0 of every record first, so every
read checks a record); only a hang is bounded, by the mount's watchdog.
The negative control feeds the record check a torn record first.
Usage: concurrency.py LBS_FUSE BLOCK_SIZE"""
import os
import random
import struct
import sys
import threading

from lbsmount import Checks, Mount, need_fuse

REC = 3000
NREC = 96
WRITERS, READERS = 4, 3
WRITES, READS = 100, 60


def record(owner, gen, idx):
    head = struct.pack("<III", owner, gen, idx)
    fill = (owner * 31 + gen * 7 + idx) & 0xff
    return head + bytes([fill]) * (REC - len(head))


def check_record(data, idx):
    """None if @data is a whole record of index @idx (or never written)"""
    if data == b"\0" * REC:
        return None
    owner, gen, i = struct.unpack("<III", data[:12])
    if i != idx or data != record(owner, gen, idx):
        return "record %d torn or stale: head %r, bytes %r" % (
            idx, (owner, gen, i), data[12:20])
    return None


class Run:
    def __init__(self, m, shared):
        self.m, self.shared = m, shared
        self.stop = threading.Event()     # the workers are done: ctl stops
        self.errors = []
        self.last = {}          # (file, idx) -> gen, written by its owner
        self.reads = [0] * READERS      # one count per thread: no lost
        self.writes = [0] * WRITERS     # updates between threads

    def file_of(self, w):
        return self.m.path("shared" if self.shared else "w%d" % w)

    def owns(self, w):
        return [i for i in range(NREC) if not self.shared or i % WRITERS == w]

    def populate(self):
        """generation 0 of every record, owned as the writers own them"""
        for w in range(WRITERS):
            fd = os.open(self.file_of(w), os.O_RDWR | os.O_CREAT)
            for i in self.owns(w):
                os.pwrite(fd, record(w, 0, i), i * REC)
                self.last[(self.file_of(w), i)] = record(w, 0, i)
            os.close(fd)

    def writer(self, w):
        fd = os.open(self.file_of(w), os.O_RDWR)
        rnd, gen = random.Random(w), 0
        mine = self.owns(w)
        try:
            for _ in range(WRITES):
                gen += 1
                i = rnd.choice(mine)
                os.pwrite(fd, record(w, gen, i), i * REC)
                self.last[(self.file_of(w), i)] = record(w, gen, i)
                self.writes[w] += 1
        except OSError as e:
            self.errors.append("writer %d: %s" % (w, e))
        os.close(fd)

    def reader(self, r):
        rnd = random.Random(100 + r)
        try:
            for _ in range(READS):
                path = self.file_of(rnd.randrange(WRITERS))
                fd = os.open(path, os.O_RDONLY)
                i = rnd.randrange(NREC)
                data = os.pread(fd, REC, i * REC)
                os.close(fd)
                bad = check_record(data, i)
                if bad:
                    self.errors.append("reader %d: %s" % (r, bad))
                self.reads[r] += 1
        except OSError as e:
            self.errors.append("reader %d: %s" % (r, e))

    def ctl(self):
        # paced, so the workers get the file locks between rounds; how
        # many rounds fall inside the run does not matter
        while not self.stop.wait(0.1):
            self.m.ctl("writeback")
            self.m.ctl("drop_caches")

    def go(self):
        self.populate()
        ws = [threading.Thread(target=self.writer, args=(w,))
              for w in range(WRITERS)]
        ws += [threading.Thread(target=self.reader, args=(r,))
               for r in range(READERS)]
        c = threading.Thread(target=self.ctl)
        for t in ws + [c]:
            t.start()
        for t in ws:
            t.join()            # a hang is the mount watchdog's to end
        self.stop.set()
        c.join()
        self.m.ctl("drop_caches")
        for (path, i), want in self.last.items():
            with open(path, "rb") as f:
                f.seek(i * REC)
                if f.read(REC) != want:
                    self.errors.append("%s record %d: not the last write"
                                       % (path, i))


def main():
    need_fuse()
    exe, bs = sys.argv[1], sys.argv[2]
    c = Checks()
    torn = record(1, 2, 5)[:1500] + record(1, 3, 5)[1500:]
    c.ok(check_record(torn, 5) is not None,
         "negative control: the record check rejects a torn record")
    c.ok(check_record(record(2, 9, 5), 5) is None,
         "the record check accepts a whole one")
    with Mount(exe, bs) as m:
        for shared in (False, True):
            run = Run(m, shared)
            run.go()
            what = "one shared file" if shared else "a file per writer"
            for e in run.errors[:10]:
                print(e)
            writes, reads = sum(run.writes), sum(run.reads)
            c.ok(not run.errors and reads == READERS * READS and
                 writes == WRITERS * WRITES,
                 "%s: %d writes, %d reads, %d errors" %
                 (what, writes, reads, len(run.errors)))
    c.done()


if __name__ == "__main__":
    main()
