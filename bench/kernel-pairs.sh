# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by bench/kernel-fio.sh and bench/kernel-repeat.sh: the
# KERNEL:BS pairs both take, the benchmark kernels they boot, and one boot
# on a fresh XFS image. The caller defines die() and say() and sets Q (the
# tests/qemu directory), HERE (bench/) and BUILD.

# check_pairs PAIRS: die on a bad pair; set $kernels to the kernels named
check_pairs() {
	kernels=""
	for p in $1; do
		k=${p%%:*} bs=${p#*:}
		case $k in patched-6.1 | stock-6.1 | ref-6.12) ;; *) die "unknown kernel in '$p' (patched-6.1, stock-6.1, ref-6.12)" ;; esac
		case $bs in 4096 | 8192 | 16384 | 32768 | 65536) ;; *) die "bad block size in '$p' (4096 ... 65536)" ;; esac
		[ "$k" != stock-6.1 ] || [ "$bs" = 4096 ] || die "stock-6.1 mounts XFS blocks of 4096 only ('$p')"
		case " $kernels " in *" $k "*) ;; *) kernels="$kernels $k" ;; esac
	done
	[ -n "$kernels" ] || die "no pairs"
}

# build_bench_kernels SERIES_DIR: the benchmark kernel (test fragment plus
# kernel-glue/config/bench.config) of each of $kernels, patched-6.1 with
# SERIES_DIR, the others with no patches; sets $images to KERNEL=bzImage ...
build_bench_kernels() {
	empty=$BUILD/qemu/empty-series
	mkdir -p "$empty"
	images=""
	for k in $kernels; do
		series=$empty
		if [ "$k" = patched-6.1 ]; then
			series=$1
			[ -d "$series" ] || die "$series not found: run 'make kernel-patch' first"
		fi
		t0=$(date +%s)
		img=$(nice -n "${BUILD_NICE:-10}" "$Q/kernel-image.sh" --bench "$k" "$k" "$series") ||
			die "kernel build $k failed (log: $BUILD/kernel/$k-bench/build.log)"
		say "kernel $k: $img ($(($(date +%s) - t0))s)"
		images="$images $k=$img"
	done
}

# kernel_image KERNEL: its bzImage from $images
kernel_image() {
	for e in $images; do
		[ "${e%%=*}" = "$1" ] && { echo "${e#*=}"; return 0; }
	done
	die "no image for kernel $1"
}

# pin_guest_tsc: give every guest of this run the host's TSC rate
# (bench/tsc-khz.c) on its command line, so that no boot falls back to the
# jiffies clocksource when its own calibration fails on a busy host, and
# clock_gettime() stays in the vDSO on every boot
pin_guest_tsc() {
	mkdir -p "$BUILD/bench"
	${CC:-gcc} -std=c11 -O2 -Wall -Wextra -Werror -o "$BUILD/bench/tsc-khz" "$HERE/tsc-khz.c" ||
		die "cannot build bench/tsc-khz.c"
	khz=$("$BUILD/bench/tsc-khz") || die "cannot measure the host's TSC rate"
	LBS_KERNEL_APPEND="${LBS_KERNEL_APPEND:+$LBS_KERNEL_APPEND }tsc_early_khz=$khz tsc=reliable"
	export LBS_KERNEL_APPEND
	say "guest kernel command line: $LBS_KERNEL_APPEND"
}

# build_insn_tools DIR: the instruction-count plugin (bench/qemu-insn.c) and
# the guest's mark program (bench/insn-mark.c) into DIR
build_insn_tools() {
	mkdir -p "$1"
	${CC:-gcc} -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
		-o "$1/qemu-insn.so" "$HERE/qemu-insn.c"
	${CC:-gcc} -static -nostdlib -Wall -Wextra -Werror -o "$1/lbs-mark" "$HERE/insn-mark.c"
}

# insn_profile OUT KERNEL:BS:PLUGIN_OUT...: bench/insn-profile.py over the
# plugin outputs, with the System.map of each of $kernels, into OUT
insn_profile() {
	iout=$1
	shift
	maps=""
	for k in $kernels; do
		img=$(kernel_image "$k")
		maps="$maps --map $k=${img%/arch/x86/boot/bzImage}/System.map"
	done
	# shellcheck disable=SC2086
	python3 "$HERE/insn-profile.py" $maps "$@" >"$iout"
}

# boot_fresh_xfs KERNEL BS INITRD DISK LOG [QEMU ARGS...]: a fresh 4 GiB
# sparse image with mkfs.xfs -b size=BS (mkfs defaults otherwise: reflink
# on), attached with virtio serial "bench", one QEMU boot under boot.sh's
# timeout; the image is removed afterwards and the console stripped of CRs.
# Returns QEMU's rc.
boot_fresh_xfs() {
	bk=$1 bbs=$2 binitrd=$3 bdisk=$4 blog=$5
	shift 5
	rm -f "$bdisk"
	truncate -s 4G "$bdisk"
	mkfs.xfs -q -f -b size="$bbs" "$bdisk" || die "mkfs.xfs -b size=$bbs failed"
	brc=0
	"$Q/boot.sh" "$(kernel_image "$bk")" "$binitrd" "$blog" \
		-drive "file=$bdisk,if=none,format=raw,id=bench" \
		-device virtio-blk-pci,drive=bench,serial=bench "$@" || brc=$?
	rm -f "$bdisk"
	tr -d '\r' <"$blog" >"$blog.txt" && mv "$blog.txt" "$blog"
	return "$brc"
}
