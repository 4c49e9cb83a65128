#!/bin/sh
# Power-cut test: kill QEMU (SIGKILL) in the middle of an lbs-fsx campaign,
# after a point its op count places, boot again on the same image and let log
# recovery run, then check every byte of the file (`make qemu-powercut`).
#
#   powercut.sh --kernel patched-6.1|stock-6.1|ref-6.12 [--series DIR]
#               [--block-sizes "4096 65536"] [--rounds N] [--seed S]
#
# Per block size and round (seed S + round, printed, so a failure replays):
# a 512 MiB image filled with "STALEDA\n" and made by mkfs.xfs -b size=BS
# (defaults otherwise: reflink on); boot 1 (tests/guest/run-suite.sh,
# LBS_MODE=powercut-run) runs lbs-fsx --journal --cut-after N, which
# writes every change and the intent of every op to a raw journal disk
# (O_DSYNC) before going on, and prints a marker once op N is done; N is
# drawn from the seed and block size, so how far the campaign gets before
# the cut does not depend on the machine's speed. The host kills QEMU when
# it sees the marker on the console (it polls every 0.1 s), while lbs-fsx
# runs the ops after N: how many of those start before the kill does
# depend on speed, and the journal says which. Its only clock is boot.sh's timeout,
# which catches a hang. Boot 1 must show the marker and no
# lbs-fsx mismatch (every read is checked against its oracle) nor an end
# of the campaign (powercut-judge.sh); any of those fails the round. Boot 2
# (powercut-check) mounts the image, so log recovery runs, and copies the
# file out. On the host: xfs_repair -n on the image, then lbs-fsx
# --check-journal: the journal holds at least the records the marker
# counted, fsynced bytes must be there, every other byte a value some
# journaled change since put there, none the device's stale fill (the
# strict crash contract of sim/fsx/oracle.h, with the named exceptions
# tests/guest/crash-rules.txt allows the kernel; what each explained is
# in the report line).
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
#   LBS-POWERCUT <bs> round <r> seed <s> cut after op <N>: pass|fail <reason>
# A boot-1 failure reads "fail boot 1: <why>", e.g. "fail boot 1: lbs-fsx:
# MISMATCH at op K (...): ...; offset ...".
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
nsizes=$(echo "$sizes" | wc -w)
[ "$nsizes" -gt 0 ] || die "--block-sizes is empty: no round would run"
for bs in $sizes; do
	case $bs in 4096 | 8192 | 16384 | 32768 | 65536) ;; *) die "bad block size '$bs'" ;; esac
	[ "$kernel" != stock-6.1 ] || [ "$bs" = 4096 ] || die "stock-6.1 mounts block size 4096 only"
done
case $rounds in '' | *[!0-9]* | 0) die "--rounds must be a positive number" ;; esac
case $seed in '' | *[!0-9]* | 0?* | ??????????*) die "--seed must be a number below 10^9, no leading zero" ;; esac
# The cut: after op N, N from CUT_LO to CUT_HI. By op 500 the default op
# mix has done about 15 fsyncs, 15 drop_caches, 50 one-page writebacks, 35
# truncates and 80 mmap or O_DIRECT writes, and the file (1 MiB at 64k)
# is near its size limit, so the journal holds durable data and changes
# made since; by op 3000 (10 to 20 s of campaign under TCG) more ops only
# repeat that state, and a longer boot 1 would buy nothing a seed does not.
# OPS is far beyond the cut (about 1 journal record an op: 200000 fill a
# fifth of the 64 MiB journal), so the campaign cannot end before the
# host has seen the marker; if it does, the round fails.
CUT_LO=500 CUT_HI=3000 ops=200000
# boot 1's hang bound, not a speed limit: an idle host boots to the marker
# at op 3000 in about 12 s (boot 4 s, about 360 ops/s with the journal)
BOOT1_TIMEOUT=300

out=$BUILD/qemu/powercut-$kernel
# the named crash exceptions this kernel may need (sim/fsx/oracle.h)
allow=$(awk -v k="$kernel" '$1 == k { print $2; exit }' "$ROOT/tests/guest/crash-rules.txt")
[ -n "$allow" ] || allow=none
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
		"$ROOT/tests/guest/run-suite.sh:/test.sh" "$ROOT/tests/guest/folios.sh:/lbs/folios.sh" \
		"$1:/lbs/config" $bins)
	LBS_QEMU_TIMEOUT=${3:-600} "$HERE/boot.sh" "$image" "$initrd" "$2" \
		-drive "file=$img,if=none,format=raw,cache=unsafe,id=pc" -device virtio-blk-pci,drive=pc,serial=pc \
		-drive "file=$jrn,if=none,format=raw,cache=unsafe,id=pj" -device virtio-blk-pci,drive=pj,serial=pj \
		-drive "file=$fout,if=none,format=raw,cache=unsafe,id=po" -device virtio-blk-pci,drive=po,serial=po
}
result() { echo "LBS-POWERCUT $bs round $r seed $s cut after op $cut: $1${2:+ $2}" | tee -a "$report"; }
clean_console() { # clean_console LOG: kernel warnings, or nothing
	python3 "$HERE/ktap-check.py" "$1" --no-ktap >"$1.check" 2>&1 || head -n 2 "$1.check" | tr '\n' ' '
}

for bs in $sizes; do
	r=0
	while [ "$r" -lt "$rounds" ]; do
		r=$((r + 1))
		s=$((seed + r - 1))
		# N from the seed and block size, in shell arithmetic (the same
		# on every host, unlike awk's rand()); the high bits of an LCG step
		x=$((((s % 65521) * 7919 + bs * 2053) % 2147483648))
		x=$(((x * 1103515245 + 12345) % 2147483648))
		cut=$((CUT_LO + x / 65536 % (CUT_HI - CUT_LO + 1)))
		img=$out/pc.img jrn=$out/pj.img fout=$out/po.img
		rm -f "$img" "$jrn" "$fout"
		yes STALEDA | head -c 512M >"$img"
		mkfs.xfs -q -f -b size="$bs" "$img" || die "mkfs.xfs -b size=$bs failed"
		truncate -s 64M "$jrn"
		truncate -s 8M "$fout"
		cfg=$out/config
		printf 'LBS_MODE=powercut-run\nLBS_BS=%s\nLBS_SEED=%s\nLBS_OPS=%s\nLBS_CUT_AFTER=%s\n' \
			"$bs" "$s" "$ops" "$cut" >"$cfg"
		c1=$out/console-$bs-$r-run.log c2=$out/console-$bs-$r-check.log
		rm -f "$c1" "$c2"	# an old run's marker would cut at once
		# boot 1: wait for the marker (or lbs-fsx's end, or QEMU's), then
		# cut; boot.sh's timeout is the only clock, and only for a hang
		boot "$cfg" "$c1" "$BOOT1_TIMEOUT" >/dev/null 2>&1 &
		bpid=$!
		while kill -0 "$bpid" 2>/dev/null &&
			! grep -aq '^lbs-fsx: cut after op \|^LBS-PC: end\|^LBS-PC: fail' "$c1" 2>/dev/null; do
			sleep 0.1
		done
		pkill -KILL -f "serial file:$c1" || true
		wait "$bpid" 2>/dev/null || true
		w1=$(clean_console "$c1")
		if ! marked=$("$HERE/powercut-judge.sh" "$c1" "$cut"); then
			result fail "boot 1: $marked${w1:+; kernel warnings: $w1}"
			rm -f "$img" "$jrn" "$fout"
			continue
		fi
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
			chk=$("$fsx_host" --check-journal "$jrn" "$out/file.bin" \
				--crash-allow "$allow" 2>&1) && crc=0 || crc=$?
			nrec=$(echo "$chk" | sed -n 's/^journal [^ ]*: \([0-9]*\) records .*/\1/p')
			if [ "$crc" -eq 0 ] && [ "${nrec:-0}" -lt "$marked" ]; then
				result fail "the journal lost records: $marked at the cut marker, ${nrec:-none} after the cut"
			elif [ "$crc" -eq 0 ]; then
				result pass "$(echo "$chk" | sed 's/.*: \([0-9]* records ([0-9]* fsyncs)\).*/\1/'), $marked at the marker, $size bytes$(echo "$chk" | sed -n 's/.*; \(crash rules used: .*\)/, \1/p')"
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
# every round must have passed, not merely none failed: a round that left
# no line proves nothing
[ "$f" -eq 0 ] && [ "$n" -eq $((nsizes * rounds)) ] ||
	{ [ "$f" -ne 0 ] || say "FAIL: $n rounds passed, $((nsizes * rounds)) ran"; exit 1; }
