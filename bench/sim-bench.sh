#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On-demand benchmark of the simulator (not a test); see bench/README.md.
#   bench/sim-bench.sh            (BUILD=build/meson SEED=1 OPS=20000 RUNS=3)
# (a) lbs-sim fsx ops/s vs lbs-fsx on a tmpfs file: same seed, op count,
#     --no-crash (a real file cannot crash) and the --unsupported list
#     lbs-fsx detected on tmpfs, so both run the same op stream (checked:
#     same --final-sum); best of RUNS each, interleaved.
# (b) the sim's read/write data rate as a fraction of memcpy bandwidth for
#     the same chunks (bench/memcpy_rate.c on the run's recording).
# (c) zero-around bytes zeroed / minimum at bs > ps, both minimums.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/record.sh"
bench_record sim-bench "$0" "$@"
BUILD=${BUILD:-$top/build/meson}
SEED=${SEED:-1}
OPS=${OPS:-20000}
RUNS=${RUNS:-3}
TMPFS=${TMPFS:-/dev/shm}
sim=$BUILD/sim/lbs-sim
fsx=$BUILD/sim/lbs-fsx
[ -x "$sim" ] || { echo "no $sim: build first (meson setup build/meson && ninja -C build/meson)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -f "$TMPFS/lbs-bench.$$"' EXIT
${CC:-cc} -O2 -o "$work/memcpy_rate" "$top/bench/memcpy_rate.c"

opsps() { sed -n 's/.*(\([0-9.]*\) ops\/s).*/\1/p'; }
fsum() { awk '/^final-sum fnv1a64/ { print $3 "/size=" $5; exit }'; }
best() { sort -g | tail -1; }

echo "== sim-bench: seed $SEED, $OPS ops, best of $RUNS; $(uname -r)"
echo "== (a) lbs-sim fsx vs lbs-fsx on tmpfs ($TMPFS), bs 4096 ps 4096"
unsup=
if [ ! -x "$fsx" ]; then
	echo "lbs-fsx not built at $fsx: (a) skipped"
elif [ "$(stat -f -c %T "$TMPFS")" != tmpfs ]; then
	echo "$TMPFS is not tmpfs: (a) skipped (set TMPFS=)"
	fsx=
else
	f=$TMPFS/lbs-bench.$$
	rm -f "$f"
	"$fsx" --seed "$SEED" --ops "$OPS" --no-crash --quiet --final-sum "$f" \
		>"$work/fsx0" 2>&1 || { cat "$work/fsx0"; exit 1; }
	unsup=$(sed -n 's/.*unsupported skipped: //p' "$work/fsx0" | head -1 |
		sed 's/ [0-9]*//g; s/, */,/g')
	# tmpfs O_DIRECT (6.6+) has no alignment rule: unaligned O_DIRECT
	# works there and gets EINVAL in the sim, so the streams would part
	if grep -q '(not enforced)' "$work/fsx0"; then
		unsup=${unsup:+$unsup,}dio
	fi
	echo "lbs-fsx on tmpfs skips: ${unsup:-nothing} (both tools are told the same)"
fi
simargs="--block-size 4096 --page-size 4096 --seed $SEED --ops $OPS --no-crash --quiet --final-sum"
[ -n "$unsup" ] && simargs="$simargs --unsupported $unsup"
: >"$work/sim.r"; : >"$work/fsx.r"
i=0
while [ $i -lt "$RUNS" ]; do
	# shellcheck disable=SC2086
	"$sim" fsx $simargs >"$work/sim.out" 2>&1 || { cat "$work/sim.out"; exit 1; }
	opsps <"$work/sim.out" >>"$work/sim.r"
	if [ -x "$fsx" ]; then
		rm -f "$f"
		# shellcheck disable=SC2086
		"$fsx" --seed "$SEED" --ops "$OPS" --no-crash --quiet --final-sum \
			${unsup:+--unsupported $unsup} "$f" >"$work/fsx.out" 2>&1 ||
			{ cat "$work/fsx.out"; exit 1; }
		opsps <"$work/fsx.out" >>"$work/fsx.r"
	fi
	i=$((i + 1))
done
sim_ops=$(best <"$work/sim.r")
head -1 "$work/sim.out"
if [ -x "$fsx" ]; then
	head -1 "$work/fsx.out"
	fsx_ops=$(best <"$work/fsx.r")
	s1=$(fsum <"$work/sim.out"); s2=$(fsum <"$work/fsx.out")
	same="final sums differ ($s1 vs $s2): NOT the same op stream"
	[ -n "$s1" ] && [ "$s1" = "$s2" ] && same="same final sum $s1"
	awk -v a="$sim_ops" -v b="$fsx_ops" -v s="$same" 'BEGIN {
		printf "RESULT ops/s: lbs-sim %.0f, lbs-fsx on tmpfs %.0f, ratio %.2fx (target >= 3x); %s\n", a, b, a / b, s }'
fi

echo "== (b) sim data rate vs memcpy (same chunks)"
for g in "4096 4096" "65536 4096"; do
	# shellcheck disable=SC2086
	set -- $g
	"$sim" fsx --block-size "$1" --page-size "$2" --seed "$SEED" \
		--ops "$OPS" --no-crash --quiet --record-ops "$work/rec" \
		>/dev/null 2>&1
	: >"$work/r"
	i=0
	while [ $i -lt "$RUNS" ]; do
		"$sim" fsx --block-size "$1" --page-size "$2" --seed "$SEED" \
			--ops "$OPS" --no-crash --quiet >"$work/o" 2>&1
		sed -n 's/.* ops in \([0-9.]*\)s .*/\1/p' "$work/o" >>"$work/r"
		i=$((i + 1))
	done
	secs=$(sort -g "$work/r" | head -1)
	"$work/memcpy_rate" "$work/rec" >"$work/m"
	read -r bytes _ _ mrate <"$work/m"
	awk -v b="$bytes" -v s="$secs" -v m="$mrate" -v bs="$1" -v ps="$2" 'BEGIN {
		r = b / s
		printf "RESULT bs %s ps %s: %.0f bytes moved by read/write ops in %.3fs: %.1f MB/s; memcpy %.0f MB/s; fraction %.4f\n", bs, ps, b, s, r / 1e6, m / 1e6, r / m }'
done

echo "== (c) zero-around bytes zeroed / minimum (with crashes in the mix)"
for g in "65536 4096" "16384 4096" "65536 16384"; do
	# shellcheck disable=SC2086
	set -- $g
	"$sim" map --block-size "$1" --page-size "$2" --seed "$SEED" \
		--ops "$OPS" --no-picture >"$work/z" 2>&1 ||
		{ cat "$work/z"; exit 1; }
	sed -n 's/^zero-around: \([0-9]*\) bytes zeroed in \([0-9]*\) writes; minimum \([0-9]*\) (independent count)/\1 \2 \3/p' "$work/z" >"$work/zz"
	read -r z w m <"$work/zz"
	awk -v z="$z" -v w="$w" -v b="$m" -v bs="$1" -v ps="$2" 'BEGIN {
		printf "RESULT bs %s ps %s: %d writes zeroed %d bytes; zeroed/min(independent) %.4f (target 1.00)\n", bs, ps, w, z, b ? z / b : 0 }'
done
