#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On-demand benchmark of lbs-fuse (not a test); see bench/README.md.
#   bench/fuse-bench.sh     (BUILD=build/meson BS=65536 RUNTIME=5 OPS=5000 SEED=1)
# (a) fio throughput, the same jobs on an lbs-fuse mount and on tmpfs, one
#     run: seq write/read 1 MiB, rand write/read 4 KiB, psync, buffered.
# (b) fsx ops/s: lbs-fuse-fsx on the mount vs lbs-sim fsx, same seed and
#     ops, the mount's unsupported ops (collapse/insert) skipped in both.
# (c) where the time goes: perf record of the daemon (and the kernel)
#     during the 4 KiB random write job, top symbols.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/record.sh"
bench_record fuse-bench "$0" "$@"
BUILD=${BUILD:-$top/build/meson}
BS=${BS:-65536}
RUNTIME=${RUNTIME:-5}
OPS=${OPS:-5000}
SEED=${SEED:-1}
fuse=$BUILD/fuse/lbs-fuse
ffsx=$BUILD/fuse/lbs-fuse-fsx
sim=$BUILD/sim/lbs-sim
for x in "$fuse" "$ffsx" "$sim"; do
	[ -x "$x" ] || { echo "no $x: build first (meson setup build/meson && ninja -C build/meson)"; exit 2; }
done
command -v fio >/dev/null || { echo "no fio: scripts/install-deps.sh"; exit 2; }
work=$(mktemp -d)
mkdir "$work/fuse" "$work/tmpfs"
pid=
cleanup() {
	fusermount3 -u "$work/fuse" 2>/dev/null || umount -l "$work/fuse" 2>/dev/null || :
	[ -n "$pid" ] && { kill "$pid" 2>/dev/null || :; }
	umount "$work/tmpfs" 2>/dev/null || :
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
mount -t tmpfs -o size=512m lbs-bench "$work/tmpfs"
"$fuse" --block-size "$BS" --size 64m -f "$work/fuse" 2>"$work/fuse.log" &
pid=$!
n=0
until [ -e "$work/fuse/.lbs/ctl" ]; do
	n=$((n + 1)); [ $n -lt 200 ] || { cat "$work/fuse.log"; exit 1; }
	sleep 0.05
done

# fio JOB DIR: MiB/s of the job
fio_mbs() {
	case $1 in
	seqwrite) a="--rw=write --bs=1m" ;; seqread) a="--rw=read --bs=1m" ;;
	randwrite) a="--rw=randwrite --bs=4k" ;; randread) a="--rw=randread --bs=4k" ;;
	esac
	# shellcheck disable=SC2086
	timeout $((RUNTIME * 4 + 60)) fio --name=b --directory="$2" --filename=bench.$1 \
		--size=32m --ioengine=psync --time_based --runtime="$RUNTIME" \
		--output-format=json $a --randrepeat=1 > "$work/fio.json"
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
print("%.1f" % ((j["read"]["bw"] + j["write"]["bw"]) / 1024))' "$work/fio.json"
}

echo "== fuse-bench: bs $BS ps 4096, fio ${RUNTIME}s jobs, fsx seed $SEED $OPS ops; $(uname -r), $(nproc) cpus"
echo "== (a) fio MiB/s (psync, buffered; lbs-fuse is direct_io: every request reaches the simulator)"
printf '%-10s %10s %10s %10s\n' job lbs-fuse tmpfs tmpfs/lbs-fuse
for j in seqwrite seqread randwrite randread; do
	f=$(fio_mbs $j "$work/fuse")
	t=$(fio_mbs $j "$work/tmpfs")
	r=$(python3 -c "print('%.1f' % ($t / $f))")
	printf '%-10s %10s %10s %9sx\n' $j "$f" "$t" "$r"
	echo "RESULT fio $j lbs-fuse ${f} MiB/s tmpfs ${t} MiB/s ratio ${r}x"
done
rm -f "$work/fuse/bench."* "$work/tmpfs/bench."*

echo "== (b) fsx ops/s, lbs-fuse-fsx on the mount vs lbs-sim fsx (same seed, ops)"
opsps() { sed -n 's/.*(\([0-9.]*\) ops\/s).*/\1/p'; }
o_fuse=$("$ffsx" --ops "$OPS" --seed "$SEED" --quiet "$work/fuse/fsx" | tee "$work/ffsx.out" | opsps)
o_sim=$("$sim" fsx --block-size "$BS" --page-size 4096 --ops "$OPS" --seed "$SEED" \
	--unsupported collapse_range,insert_range | tee "$work/sim.out" | opsps)
cat "$work/ffsx.out" "$work/sim.out"
r=$(python3 -c "print('%.1f' % ($o_sim / $o_fuse))")
echo "RESULT fsx lbs-fuse-fsx ${o_fuse} ops/s lbs-sim ${o_sim} ops/s ratio ${r}x"
rm -f "$work/fuse/fsx"

echo "== (c) perf: the whole machine during randwrite (self time)"
if perf record -q -a -o "$work/perf.data" -- sleep 0.1 >/dev/null 2>&1; then
	perf record -q -a -o "$work/perf.data" -- sleep "$RUNTIME" >/dev/null 2>&1 &
	ppid=$!
	fio_mbs randwrite "$work/fuse" >/dev/null
	wait "$ppid" || :
	rep() {
		perf report -i "$work/perf.data" --no-children --stdio "$@" \
			2>/dev/null | grep '%' | head -15
	}
	echo "-- the machine by command (other work on it shows here too)"
	rep --sort comm
	echo "-- lbs-fuse (the daemon: FUSE request handling and the simulator)"
	rep --pid "$pid" --sort dso,symbol
	echo "-- fio (the client: syscalls into FUSE)"
	rep --comms fio --sort dso,symbol
else
	echo "perf cannot record here: (c) skipped"
fi
