#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The userspace part of make check (plain, ASan/UBSan, fuzz) RUNS times in
# a row while stress-ng keeps every core busy: the proof that no test
# depends on the machine's speed.  Prints each run's result and wall time;
# exits non-zero if any run failed.
#
# Usage: scripts/check-busy.sh [RUNS]     (make check-busy [RUNS=3])
set -u
runs=${1:-3}
case $runs in '' | *[!0-9]* | 0) echo "check-busy.sh: bad RUNS '$runs'" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
command -v stress-ng >/dev/null || { echo "check-busy.sh: stress-ng missing (scripts/install-deps.sh)" >&2; exit 2; }
ncpu=$(nproc)
stress-ng --cpu "$ncpu" --timeout 0 --quiet &
load=$!
trap 'kill $load 2>/dev/null; wait $load 2>/dev/null' EXIT INT TERM
failed=0
for i in $(seq 1 "$runs"); do
	t0=$(date +%s)
	make check-user >"${BUILD:-build}/check-busy.$i.log" 2>&1
	rc=$?
	t=$(($(date +%s) - t0))
	[ $rc -eq 0 ] || failed=$((failed + 1))
	echo "check-busy: run $i/$runs: $([ $rc -eq 0 ] && echo PASS || echo "FAIL (rc $rc)") in ${t}s wall, load $(cut -d' ' -f1-3 /proc/loadavg) (log ${BUILD:-build}/check-busy.$i.log)"
done
echo "check-busy: $((runs - failed)) passed, $failed failed"
[ $failed -eq 0 ]
