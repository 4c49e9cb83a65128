#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lbs-fsx --journal / --check-journal on a file that was not cut short:
the check passes, and it fails on the bugs it exists to see.

  journal_check.py LBS_FSX DIR

A 3,000-op campaign journals to DIR/j; the finished file checks good.
Negative controls: the device's STALEDA fill planted in the file (rc 1,
reported as stale data), a journal cut to its header (rc 1: without the
records the file's bytes are not accounted for), a file that is no
journal (rc 2)."""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

fsx, base = sys.argv[1], sys.argv[2]
# a directory of its own under BASE's directory (removed at exit): two
# builds' test runs on one machine must not share files
d = tempfile.mkdtemp(prefix=os.path.basename(base) + '.', dir=os.path.dirname(base) or '.')
atexit.register(shutil.rmtree, d, True)
j, f = os.path.join(d, 'j'), os.path.join(d, 'f')
for p in (j, f):
    if os.path.exists(p):
        os.unlink(p)
open(j, 'wb').close()
r = subprocess.run([fsx, '--ops', '3000', '--seed', '5', '--journal', j, f],
                   capture_output=True, text=True)
if r.returncode:
    sys.exit(f'campaign failed ({r.returncode}): {r.stdout}{r.stderr}')


def check(jpath, fpath, want, text):
    r = subprocess.run([fsx, '--check-journal', jpath, fpath],
                       capture_output=True, text=True)
    out = r.stdout + r.stderr
    if r.returncode != want or text not in out:
        sys.exit(f'check {jpath} {fpath}: rc {r.returncode} (want {want}), '
                 f'output {out!r} (want {text!r})')
    print(out.strip())


check(j, f, 0, 'every byte is fsynced data or a later change')
data = bytearray(open(f, 'rb').read())
off = (len(data) // 2) & ~7
data[off:off + 8] = b'STALEDA\n'
bad = os.path.join(d, 'f.stale')
open(bad, 'wb').write(data)
check(j, bad, 1, 'stale data')
head = os.path.join(d, 'j.head')
open(head, 'wb').write(open(j, 'rb').read()[:64])
check(head, f, 1, 'MISMATCH')
check(f, f, 2, 'not a journal')
print('journal check: good file passes, 3 negative controls caught')
