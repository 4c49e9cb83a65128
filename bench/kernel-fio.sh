#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On-demand benchmark (not a test; see bench/README.md): fio inside QEMU TCG
# on an XFS image, the same jobs on three kernels in one run.
#
#   bench/kernel-fio.sh [--kernels "patched-6.1 ref-6.12 stock-6.1"] [--series DIR]
#       (env: LBS_BUILD=build ROUNDS=2 SIZE_MB=256 LBS_QEMU_MEM=2G
#        LBS_QEMU_TIMEOUT=1200 BUILD_NICE=10 LBS_JOBS=nproc)
#
#   patched-6.1  6.1 + the series in DIR (default $LBS_BUILD/kernel-patch, made
#                by make kernel-patch), lbs-6.1.config,                     XFS bs 65536
#   ref-6.12     pristine linux-source-6.12, ref-6.12.config,               XFS bs 65536
#   stock-6.1    pristine linux-source-6.1, lbs-6.1.config,                 XFS bs 4096
#
# Kernels: the worktrees and object directories of tests/qemu/verify.sh
# (build/linux/KERNEL, build/qemu/KERNEL/obj), so a kernel that verify.sh
# (or an earlier run) built is reused: build-kernel.sh skips it when its
# stamp matches. Guest: one busybox initramfs for all kernels with
# bench/kernel-fio-guest.sh as /test.sh, Debian's /usr/bin/fio with the
# shared libraries ldd lists and the dynamic loader, and
# bench/kernel-fio-shm.c (LD_PRELOAD: the kernels have no SysV IPC, which
# fio needs for its job table). Per kernel and round: a fresh 4 GiB sparse
# image, mkfs.xfs -b size=BS -m crc=1, one QEMU TCG boot under a timeout.
# Rounds are interleaved (round 1: every kernel, then round 2, ...); MB/s
# is the best of the rounds, device bytes / user bytes the mean.
#
# Output: the table on stdout and in $LBS_BUILD/bench/kernel-fio.txt;
# consoles in $LBS_BUILD/bench/kernel-fio/KERNEL-rN.log. Exit 0 when every
# boot completed, every fio job succeeded and no console shows a kernel
# warning (tests/qemu/ktap-check.py); 1 otherwise (the table is still
# written, failed cells are "-").
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"
Q=$ROOT/tests/qemu

die() { echo "kernel-fio.sh: error: $*" >&2; exit 2; }
say() { echo "kernel-fio.sh: $*" >&2; }

kernels="patched-6.1 ref-6.12 stock-6.1" pseries=$BUILD/kernel-patch
while [ $# -gt 0 ]; do
	case $1 in
	--kernels) kernels=$2; shift 2 ;;
	--series) pseries=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
ROUNDS=${ROUNDS:-2} SIZE_MB=${SIZE_MB:-256}
case $ROUNDS$SIZE_MB in *[!0-9]*) die "ROUNDS and SIZE_MB must be numbers" ;; esac
export LBS_QEMU_MEM="${LBS_QEMU_MEM:-2G}"
export LBS_QEMU_TIMEOUT="${LBS_QEMU_TIMEOUT:-1200}"
nice=${BUILD_NICE:-10}

t_all=$(date +%s)
sh "$ROOT/scripts/install-deps.sh"
command -v fio >/dev/null || die "no fio after scripts/install-deps.sh"

out=$BUILD/bench/kernel-fio
mkdir -p "$out"
empty=$BUILD/qemu/empty-series
mkdir -p "$empty"

# ---- kernels (verify.sh's names, so builds are shared) ----------------------
images=""
for k in $kernels; do
	case $k in
	patched-6.1) v=6.1 frag=lbs-6.1.config series=$pseries
		[ -d "$series" ] || die "$series not found: run 'make kernel-patch' first" ;;
	ref-6.12) v=6.12 frag=ref-6.12.config series=$empty ;;
	stock-6.1) v=6.1 frag=lbs-6.1.config series=$empty ;;
	*) die "unknown kernel '$k' (patched-6.1, ref-6.12, stock-6.1)" ;;
	esac
	t0=$(date +%s)
	tree=$(nice -n "$nice" "$ROOT/scripts/linux-tree.sh" --version "$v" worktree "$k" "$series") ||
		die "worktree $k failed"
	img=$(nice -n "$nice" "$Q/build-kernel.sh" "$tree" "$BUILD/qemu/$k/obj" "$ROOT/kernel-glue/config/$frag") ||
		die "kernel build $k failed (log: $BUILD/qemu/$k/obj/build.log)"
	say "kernel $k: $img ($(($(date +%s) - t0))s)"
	images="$images $k=$img"
done

# ---- initramfs: fio, its libraries, the loader, the shm shim -----------------
g=$out/guest
mkdir -p "$g"
${CC:-gcc} -O2 -Wall -Wextra -Werror -shared -fPIC -o "$g/lbs-fio-shm.so" "$HERE/kernel-fio-shm.c"
fio=$(command -v fio)
libs=$(ldd "$fio" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' | sort -u)
[ -n "$libs" ] || die "ldd $fio listed no libraries"
specs="$fio:/bin/fio $g/lbs-fio-shm.so:/lib/lbs-fio-shm.so"
for l in $libs; do specs="$specs $l:$l"; done
printf 'SIZE_MB=%s\n' "$SIZE_MB" >"$g/bench.conf"
# shellcheck disable=SC2086
initrd=$("$Q/mkinitramfs.sh" "$g/initramfs.cpio.gz" \
	"$HERE/kernel-fio-guest.sh:/test.sh" "$g/bench.conf:/lbs/bench.conf" $specs)
say "initramfs: fio $(fio --version), $(echo "$libs" | wc -l) libraries, $(du -h "$initrd" | cut -f1) compressed"

# ---- boots, interleaved -------------------------------------------------------
bad=0
consoles=""
r=1
while [ "$r" -le "$ROUNDS" ]; do
	for k in $kernels; do
		case $k in stock-6.1) bs=4096 ;; *) bs=65536 ;; esac
		kimg=""
		for e in $images; do [ "${e%%=*}" = "$k" ] && kimg=${e#*=}; done
		disk=$out/$k.img log=$out/$k-r$r.log
		rm -f "$disk"
		truncate -s 4G "$disk"
		mkfs.xfs -q -f -b size="$bs" -m crc=1 "$disk" || die "mkfs.xfs -b size=$bs failed"
		say "round $r/$ROUNDS: $k, XFS bs $bs (timeout ${LBS_QEMU_TIMEOUT}s)"
		t0=$(date +%s)
		rc=0
		"$Q/boot.sh" "$kimg" "$initrd" "$log" \
			-drive "file=$disk,if=none,format=raw,id=bench" \
			-device virtio-blk-pci,drive=bench,serial=bench || rc=$?
		rm -f "$disk"
		tr -d '\r' <"$log" >"$log.txt" && mv "$log.txt" "$log"
		end=$(grep '^LBS-BENCH: end' "$log" || true)
		say "round $r: $k: qemu rc $rc, $(($(date +%s) - t0))s, ${end:-no end marker}"
		if [ "$rc" -ne 0 ] || [ "$end" != "LBS-BENCH: end rc=0" ]; then
			bad=1
			tail -n 20 "$log" >&2
		fi
		if ! python3 "$Q/ktap-check.py" "$log" --no-ktap >"$log.kcheck" 2>&1; then
			say "kernel warnings on $k round $r: $(head -n 3 "$log.kcheck" | tr '\n' ' ')"
			bad=1
		fi
		consoles="$consoles $k:$bs:$log"
	done
	r=$((r + 1))
done

# ---- report --------------------------------------------------------------------
txt=$BUILD/bench/kernel-fio.txt
# shellcheck disable=SC2086
python3 "$HERE/kernel-fio-report.py" --size-mb "$SIZE_MB" --mem "$LBS_QEMU_MEM" \
	--wall "$(($(date +%s) - t_all))" $consoles >"$txt.tmp" || bad=1
mv "$txt.tmp" "$txt"
cat "$txt"
say "table: $txt; consoles: $out/*.log; total $(($(date +%s) - t_all))s"
exit "$bad"
