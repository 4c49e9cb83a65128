#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lbs-fsx --cut-after N, the power cut's marker, and the judge of boot 1
(tests/qemu/powercut-judge.sh) on consoles made of lbs-fsx's own output.

  cut_after_check.py LBS_FSX JUDGE DIR

lbs-fsx (stdout and stderr in one pipe, so in the order written):
- the marker comes after exactly op N: it names as many journal records
  as a campaign of N ops writes, and N is picked so that N - 1 and N + 1
  ops write fewer and more;
- the campaign goes on after it: the summary line, after the marker,
  counts every op, and the journal is that of the whole campaign;
- a mismatch (--test-corrupt-after: a byte flipped behind the oracle) is
  exit 1: before the cut with no marker, after it with the marker first
  (stdout flushed at once, though a pipe);
- bad input is exit 2.
The judge: a console cut after the marker passes and gives the marker's
record count; a mismatch before or after the marker, a campaign that
ended, no marker (a hang) and a marker for another op fail, the
mismatch with lbs-fsx's own line in the reason."""
import atexit
import os
import shutil
import re
import subprocess
import sys
import tempfile

fsx, judge, base = sys.argv[1], sys.argv[2], sys.argv[3]
# a directory of its own under BASE's directory (removed at exit): two
# builds' test runs on one machine must not share files
d = tempfile.mkdtemp(prefix=os.path.basename(base) + '.', dir=os.path.dirname(base) or '.')
atexit.register(shutil.rmtree, d, True)
j, f = os.path.join(d, 'j'), os.path.join(d, 'f')
SEED = '5'


def die(msg):
    sys.exit('FAIL: ' + msg)


def run(*args):
    """lbs-fsx with a fresh journal; (exit status, output lines)"""
    open(j, 'wb').close()
    r = subprocess.run([fsx, '--seed', SEED, *args, f],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return r.returncode, r.stdout.splitlines()


def records():
    """the records in the journal j, as --check-journal counts them"""
    r = subprocess.run([fsx, '--check-journal', j, f], capture_output=True,
                       text=True)
    m = re.match(r'journal \S+: (\d+) records', r.stdout)
    if r.returncode or not m:
        die(f'--check-journal: rc {r.returncode}: {r.stdout}{r.stderr}')
    return int(m.group(1))


def records_after(n):
    rc, out = run('--ops', str(n), '--journal', j)
    if rc:
        die(f'campaign of {n} ops: rc {rc}: {out}')
    return records()


def index(lines, pat, what):
    hits = [i for i, s in enumerate(lines) if re.search(pat, s)]
    if not hits:
        die(f'no {what} in {lines}')
    return hits[0]


def marker_re(n):
    return rf'^lbs-fsx: cut after op {n}: (\d+) journal records on the device$'


# N where op N and op N + 1 each write journal records
n = 1000
rec = {k: records_after(k) for k in (n - 1, n, n + 1)}
while not rec[n - 1] < rec[n] < rec[n + 1]:
    n += 1
    rec[n + 1] = records_after(n + 1)
total = 3000
rec_total = records_after(total)

rc, clean = run('--ops', str(total), '--journal', j, '--cut-after', str(n))
if rc:
    die(f'--cut-after {n}: rc {rc}: {clean}')
marks = [s for s in clean if s.startswith('lbs-fsx: cut after')]
if len(marks) != 1 or not re.match(marker_re(n), marks[0]):
    die(f'want one marker for op {n}, got {marks}')
got = int(re.match(marker_re(n), marks[0]).group(1))
if got != rec[n]:
    die(f'the marker names {got} records; {n - 1}, {n} and {n + 1} ops '
        f'write {rec[n - 1]}, {rec[n]} and {rec[n + 1]}: not after op {n}')
im = clean.index(marks[0])
isum = index(clean, rf': {total} ops in ', 'summary of all ops')
if isum < im:
    die(f'the summary comes before the marker: {clean}')
if records() != rec_total:
    die(f'the journal after the cut run has {records()} records, a plain '
        f'{total}-op campaign {rec_total}: the ops did not go on')
print(f'marker after exactly op {n} ({got} records), '
      f'then ops to {total} ({rec_total} records)')

# a mismatch after the marker: exit 1, the marker before the report
rc, late = run('--ops', str(total), '--journal', j, '--cut-after', '500',
               '--test-corrupt-after', '600')
if rc != 1:
    die(f'a byte flipped after op 600: rc {rc} (want 1): {late}')
im = index(late, marker_re(500), 'marker for op 500')
imm = index(late, r'^MISMATCH at op ', 'mismatch report')
if imm < im:
    die(f'the mismatch report comes before the marker (stdout not '
        f'flushed at the marker?): {late}')
print(f'mismatch after the cut: rc 1, marker first: {late[imm]}')

# a mismatch before the marker: exit 1, no marker
rc, early = run('--ops', str(total), '--journal', j, '--cut-after', '2000',
                '--test-corrupt-after', '200')
if rc != 1 or any(s.startswith('lbs-fsx: cut after') for s in early):
    die(f'a byte flipped after op 200, cut after 2000: rc {rc} (want 1, '
        f'no marker): {early}')
imm = index(early, r'^MISMATCH at op ', 'mismatch report')
print(f'mismatch before the cut: rc 1, no marker: {early[imm]}')

# bad input
for args, msg in (
        (['--ops', '100', '--cut-after', '10'], '--cut-after needs --journal'),
        (['--ops', '100', '--journal', j, '--cut-after', '0'],
         '--cut-after 0: ops count from 1'),
        (['--ops', '100', '--journal', j, '--cut-after', '100'],
         'must be below --ops 100'),
        (['--ops', '100', '--journal', j, '--cut-after', '1x'],
         'bad number'),
        (['--replay', j, '--cut-after', '10'], 'not one for --replay')):
    r = subprocess.run([fsx, *args, f], capture_output=True, text=True)
    if r.returncode != 2 or msg not in r.stderr:
        die(f'{args}: rc {r.returncode} (want 2), stderr {r.stderr!r} '
            f'(want {msg!r})')
print('bad input: exit 2')

# the judge, on consoles as the guest writes them: CR LF, kernel lines,
# lbs-fsx's output, "LBS-PC: end rc=N" once lbs-fsx exits
con = os.path.join(d, 'console.log')
begin = ['[    5.1] XFS (vda): Mounting V5 Filesystem',
         f'LBS-PC: begin bs=4096 seed={SEED} ops={total} cut-after={n}']


def judge_of(lines, cut, want, text):
    with open(con, 'w', newline='') as c:
        c.write(''.join(s + '\r\n' for s in begin + lines))
    r = subprocess.run([judge, con, str(cut)], capture_output=True,
                       text=True)
    out = (r.stdout + r.stderr).strip()
    if r.returncode != want or text not in out:
        die(f'judge, {lines[-3:]}, N {cut}: rc {r.returncode} (want '
            f'{want}), {out!r} (want {text!r})')
    return out


def upto(lines, pat):
    return lines[:index(lines, pat, pat) + 1]


cut = upto(clean, marker_re(n))
print('judge: cut at the marker:',
      judge_of(cut, n, 0, str(rec[n])))
mm_early = early[index(early, r'^MISMATCH', 'mismatch')]
mm_late = late[index(late, r'^MISMATCH', 'mismatch')]
print('judge: mismatch before the marker:',
      judge_of(early + ['LBS-PC: end rc=1'], 2000, 1, mm_early))
print('judge: mismatch after the marker:',
      judge_of(late + ['LBS-PC: end rc=1'], 500, 1, mm_late))
print('judge: mismatch after the marker, cut before lbs-fsx exits:',
      judge_of(upto(late, r'^MISMATCH'), 500, 1, mm_late))
print('judge: campaign ended:',
      judge_of(clean + ['LBS-PC: end rc=0'], n, 1, 'exited before the cut'))
print('judge: no marker:',
      judge_of(clean[:clean.index(cut[-1])], n, 1, 'no cut marker'))
print('judge: marker for another op:',
      judge_of(cut, n + 1, 1, f'want one for op {n + 1}'))
print('judge: guest failure:',
      judge_of(['LBS-PC: fail mount: bad'], n, 1, 'LBS-PC: fail mount'))
for args in ([con], [con, '0'], [con, 'x'], [con + '.none', '5']):
    r = subprocess.run([judge, *args], capture_output=True, text=True)
    if r.returncode != 2:
        die(f'judge {args}: rc {r.returncode}, want 2')
print('cut-after check: marker, ops after it, mismatches and the judge: ok')
