#!/bin/sh
# Power-cut test: kill QEMU (SIGKILL) at a random moment of an lbs-fsx
# campaign, boot again on the same image and let log recovery run, then
# check every byte of the file (`make qemu-powercut`).
#
#   powercut.sh --kernel patched-6.1|stock-6.1|ref-6.12 [--series DIR]
#               [--block-sizes "4096 65536"] [--rounds N] [--seed S]
#
# Per block size and round (seed S + round, printed, so a failure replays):
# a 512 MiB image filled with "STALEDA\n" and made by mkfs.xfs -b size=BS
# (defaults otherwise: reflink on); boot 1 (tests/guest/run-suite.sh,
# LBS_MODE=powercut-run) runs lbs-fsx --journal, which writes every change
# and the intent of every op to a raw journal disk (O_DSYNC) before going
# on; after a delay drawn from the seed the host kills QEMU. Boot 2
# (powercut-check) mounts the image, so log recovery runs, and copies the
# file out. On the host: xfs_repair -n on the image, then lbs-fsx
# --check-journal: fsynced bytes must be there, every other byte a value
# some journaled change since put there, none the device's stale fill.
# Both consoles must be free of kernel warnings (ktap-check.py).
#
# The disks are cache=unsafe: what QEMU received survives the kill in the
# host's page cache, so a cut loses the guest's memory and what the guest
# had not yet handed to the device, never a completed write. It is a crash
# at an arbitrary instruction, not a model of a drive that loses or
# reorders acknowledged writes.
#
# LBS_KERNEL_IMAGE: boot this bzImage instead of building (it must be the
# kernel --kernel names, e.g. a twin of it for a negative control).
#
# Report: $LBS_BUILD/qemu/powercut-KERNEL/report.txt, one line a round:
#   LBS-POWERCUT <bs> round <r> seed <s> cut <ms>ms: pass|fail <reason>
# Exit 0 if every round passed, 1 if one failed, 2 on bad arguments.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"

die() { echo "powercut.sh: error: $*" >&2; exit 2; }
say() { echo "powercut.sh: $*" >&2; }

kernel="" series="" sizes="4096 65536" rounds=3 seed=1
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:-}; shift 2 ;;
	--series) series=${2:-}; shift 2 ;;
	--block-sizes) sizes=${2:-}; shift 2 ;;
	--rounds) rounds=${2:-}; shift 2 ;;
	--seed) seed=${2:-}; shift 2 ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
case $kernel in
patched-6.1) [ -n "$series" ] || series=$BUILD/kernel-patch ;;
stock-6.1 | ref-6.12) [ -n "$series" ] || { series=$BUILD/qemu/empty-series; mkdir -p "$series"; } ;;
*) die "--kernel must be patched-6.1, stock-6.1 or ref-6.12 (got '$kernel')" ;;
esac
[ -d "$series" ] || die "series dir '$series' not found (patched-6.1: run 'make kernel-patch' first)"
for bs in $sizes; do
	case $bs in 4096 | 8192 | 16384 | 32768 | 65536) ;; *) die "bad block size '$bs'" ;; esac
	[ "$kernel" != stock-6.1 ] || [ "$bs" = 4096 ] || die "stock-6.1 mounts block size 4096 only"
done
case $rounds in '' | *[!0-9]* | 0) die "--rounds must be a positive number" ;; esac
case $seed in '' | *[!0-9]*) die "--seed must be a number" ;; esac
# the guest waits this long at most for the cut: the campaign must outlast it
ops=200000 maxcut_ms=20000

out=$BUILD/qemu/powercut-$kernel
mkdir -p "$out"
report=$out/report.txt
: >"$report"
if [ -n "${LBS_KERNEL_IMAGE:-}" ]; then	# a kernel another run built (a twin)
	[ -f "$LBS_KERNEL_IMAGE" ] || die "LBS_KERNEL_IMAGE $LBS_KERNEL_IMAGE not found"
	image=$LBS_KERNEL_IMAGE
	say "prebuilt kernel $image"
else
	image=$("$HERE/kernel-image.sh" "$kernel" "$kernel" "$series") || { echo "powercut.sh: kernel build failed" >&2; exit 1; }
fi
bins=$("$ROOT/tests/guest/build.sh" "$out/guest")
fsx_host=$out/guest/lbs-fsx	# static: runs on the host too
export LBS_QEMU_MEM=1G

# boot CONFIG CONSOLE [TIMEOUT]: one guest on the three disks
boot() {
	# shellcheck disable=SC2086
	initrd=$("$HERE/mkinitramfs.sh" "$out/initramfs.cpio.gz" \
		"$ROOT/tests/guest/run-suite.sh:/test.sh" "$1:/lbs/config" $bins)
	LBS_QEMU_TIMEOUT=${3:-600} "$HERE/boot.sh" "$image" "$initrd" "$2" \
		-drive "file=$img,if=none,format=raw,cache=unsafe,id=pc" -device virtio-blk-pci,drive=pc,serial=pc \
		-drive "file=$jrn,if=none,format=raw,cache=unsafe,id=pj" -device virtio-blk-pci,drive=pj,serial=pj \
		-drive "file=$fout,if=none,format=raw,cache=unsafe,id=po" -device virtio-blk-pci,drive=po,serial=po
}
result() { echo "LBS-POWERCUT $bs round $r seed $s cut ${cut}ms: $1${2:+ $2}" | tee -a "$report"; }
clean_console() { # clean_console LOG: kernel warnings, or nothing
	python3 "$HERE/ktap-check.py" "$1" --no-ktap >"$1.check" 2>&1 || head -n 2 "$1.check" | tr '\n' ' '
}

for bs in $sizes; do
	r=0
	while [ "$r" -lt "$rounds" ]; do
		r=$((r + 1))
		s=$((seed + r - 1))
		cut=$(awk -v s="$s" -v bs="$bs" -v m="$maxcut_ms" 'BEGIN { srand(s * 65537 + bs); printf "%d", 200 + rand() * (m - 200) }')
		img=$out/pc.img jrn=$out/pj.img fout=$out/po.img
		rm -f "$img" "$jrn" "$fout"
		yes STALEDA | head -c 512M >"$img"
		mkfs.xfs -q -f -b size="$bs" "$img" || die "mkfs.xfs -b size=$bs failed"
		truncate -s 64M "$jrn"
		truncate -s 8M "$fout"
		cfg=$out/config
		printf 'LBS_MODE=powercut-run\nLBS_BS=%s\nLBS_SEED=%s\nLBS_OPS=%s\n' "$bs" "$s" "$ops" >"$cfg"
		c1=$out/console-$bs-$r-run.log c2=$out/console-$bs-$r-check.log
		rm -f "$c1" "$c2"	# an old run's "begin" would start the clock
		# boot 1, killed: wait for the campaign's start, then the delay
		boot "$cfg" "$c1" "$((maxcut_ms / 1000 + 600))" >/dev/null 2>&1 &
		bpid=$!
		waited=0
		while ! grep -q '^LBS-PC: begin' "$c1" 2>/dev/null; do
			if ! kill -0 "$bpid" 2>/dev/null || [ "$waited" -ge 6000 ]; then
				break
			fi
			sleep 0.1
			waited=$((waited + 1))
		done
		if ! grep -q '^LBS-PC: begin' "$c1" 2>/dev/null; then
			kill "$bpid" 2>/dev/null || true
			wait "$bpid" 2>/dev/null || true
			result fail "boot 1 did not start the campaign: $(grep -a 'LBS-PC\|LBS-INIT' "$c1" | tail -n 1)"
			continue
		fi
		sleep "$(awk -v c="$cut" 'BEGIN { printf "%.3f", c / 1000 }')"
		pkill -KILL -f "serial file:$c1" || true
		wait "$bpid" 2>/dev/null || true
		done_line=$(tr -d '\r' <"$c1" | grep -a '^LBS-PC: end' || true)
		[ -z "$done_line" ] || say "bs $bs round $r: the campaign ended before the cut ($done_line)"
		w1=$(clean_console "$c1")
		# boot 2: log recovery, the file out
		printf 'LBS_MODE=powercut-check\nLBS_BS=%s\nLBS_SEED=%s\nLBS_OPS=%s\n' "$bs" "$s" "$ops" >"$cfg"
		brc=0
		boot "$cfg" "$c2" >/dev/null 2>&1 || brc=$?
		size=$(tr -d '\r' <"$c2" | sed -n 's/^LBS-PC: size \([0-9]*\)$/\1/p' | head -n 1)
		w2=$(clean_console "$c2")
		rep=$out/repair-$bs-$r.txt
		if [ -z "$size" ] || ! tr -d '\r' <"$c2" | grep -q '^LBS-PC: checked'; then
			result fail "boot 2 (qemu rc $brc): $(tr -d '\r' <"$c2" | grep -a '^LBS-PC' | tail -n 1)"
		elif ! xfs_repair -n -f "$img" >"$rep" 2>&1; then
			result fail "xfs_repair -n after log recovery: $(grep -v '^ *$' "$rep" | grep -ivE '^(phase|        - )' | head -n 2 | tr '\n' ' ') ($rep)"
		elif [ -n "$w1$w2" ]; then
			result fail "kernel warnings: $w1 $w2"
		else
			head -c "$size" "$fout" >"$out/file.bin"
			if chk=$("$fsx_host" --check-journal "$jrn" "$out/file.bin" 2>&1); then
				result pass "$(echo "$chk" | sed 's/.*: \([0-9]* records ([0-9]* fsyncs)\).*/\1/'), $size bytes"
			else
				cp "$jrn" "$out/journal-$bs-$r.img"
				cp "$out/file.bin" "$out/file-$bs-$r.bin"
				result fail "$chk (kept: journal-$bs-$r.img, file-$bs-$r.bin)"
			fi
		fi
		rm -f "$img" "$jrn" "$fout"
	done
done
n=$(grep -c ': pass' "$report" || true) f=$(grep -c ': fail' "$report" || true)
say "kernel $kernel, block sizes $sizes, $rounds rounds each: $n pass, $f fail ($report)"
[ "$f" -eq 0 ]
