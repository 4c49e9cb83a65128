#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fuzz the .fsxops parser with libFuzzer for N inputs (default 300000),
# from a fixed seed, with address randomisation off (setarch -R: compared
# pointers feed the fuzzer's features) and no corpus reloads (-reload=0:
# timed): the same inputs however busy the host; a slow host only takes
# longer.  The inputs depend on the binary, so on where it was built.
#
# Usage: tests/sim/run-fuzz.sh [--plant-bug] [RUNS] [BUILDDIR]
# Builds BUILDDIR/fuzz_fsxops (default build/fuzz) with clang
# -fsanitize=fuzzer,address,undefined, runs it on tests/sim/corpus (read
# only; new inputs go to a temporary directory) and exits non-zero if it
# finds a crash.  --plant-bug builds the harness's planted bug (an
# accepted "allocsp ... keep_size" line aborts), the negative control:
# it exits 0 only if the fuzzer crashed, and on an input that holds such
# a line, 1 otherwise.  The planted run may take ten times RUNS inputs
# (it stops at the first crash): over 108 runs (seeds 1-90, with and
# without a dictionary) the crash came after a median of 25k inputs but
# after 250k-299k in four, so a budget of RUNS alone missed it once, in
# a fresh clone.
# From make check:  sh tests/sim/run-fuzz.sh 300000, then the same with
# --plant-bug
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
plant=
if [ "${1:-}" = --plant-bug ]; then
	plant=-DLBS_FUZZ_PLANT_BUG
	shift
fi
runs=${1:-300000}
out=${2:-$top/build/fuzz}
case $runs in *[!0-9]*|'') echo "run-fuzz.sh: bad RUNS '$runs'" >&2; exit 2;; esac
cc=${CLANG:-clang}
command -v "$cc" >/dev/null || { echo "run-fuzz.sh: $cc not found (apt-get install clang)" >&2; exit 2; }
mkdir -p "$out"
exe=$out/fuzz_fsxops${plant:+_planted}
"$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	$plant -I"$top/sim/fsx" -o "$exe" \
	"$top/tests/sim/fuzz_fsxops.c" "$top/sim/fsx/fsxops.c"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
budget=$runs
[ -z "$plant" ] || budget=$((runs * 10))
# not exec: the trap removes $work when the fuzzer is done
fuzz() {
	setarch "$(uname -m)" -R "$exe" -runs="$budget" -seed=1 -reload=0 -max_len=4096 \
		-artifact_prefix="$work/" "$work" "$top/tests/sim/corpus"
}
echo "run-fuzz.sh: fuzzing the .fsxops parser, $budget inputs${plant:+ at most (planted bug)}"
rc=0
if [ -z "$plant" ]; then
	fuzz || rc=$?
	exit "$rc"
fi
fuzz >"$work/log" 2>&1 || rc=$?
found=""
for a in "$work"/crash-*; do
	[ -f "$a" ] && grep -aqE '^[[:space:]]*allocsp[[:space:]].*keep_size' "$a" && found=$a
done
if [ "$rc" -ne 0 ] && [ -n "$found" ] && grep -q 'deadly signal' "$work/log"; then
	echo "run-fuzz.sh: planted bug caught (exit $rc): $(head -c 80 "$found" | tr '\n' ' ')"
	exit 0
fi
tail -n 5 "$work/log"
echo "run-fuzz.sh: planted bug NOT caught (exit $rc, crash input: ${found:-none})" >&2
exit 1
