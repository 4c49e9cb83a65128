#!/bin/sh
# Walking-skeleton boot test of the lbs kernel (called by `make qemu-skeleton`).
#
#   skeleton.sh [--series DIR] [--suite NAME]... [--extra-config FRAG]...
#               [--name NAME] [--expect-64k refused|mounted]
#
#   --series DIR        patch series (git format-patch files, 0000-* cover letter
#                       skipped); default $LBS_BUILD/kernel-patch (made by
#                       `make kernel-patch`). An empty dir tests the pristine tree.
#   --suite NAME        KUnit suite that must pass (repeatable; default lbs_core)
#   --extra-config F    extra config fragment after kernel-glue/config/lbs-6.1.config
#   --name NAME         worktree build/linux/NAME and output build/qemu/NAME
#                       (default skeleton)
#   --expect-64k X      what the 64 KiB-block image must do (default mounted:
#                       the series enables block size > PAGE_SIZE; refused is
#                       for a tree without it)
#
# Steps: worktree from the series -> kernel build (skipped when up to date) ->
# fresh 512 MiB sparse XFS images (64 KiB and 4 KiB blocks) -> initramfs with
# tests/qemu/guest-skeleton.sh as /test.sh -> QEMU TCG boot -> checks.
# Writes build/qemu/NAME/report.txt (one "name: pass|fail" line per
# expectation) and keeps build/qemu/NAME/console.log. Exit 0 only if all pass.
# shellcheck disable=SC2317 # the check functions are called indirectly, by check()
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"

die() { echo "skeleton.sh: error: $*" >&2; exit 2; }
say() { echo "skeleton.sh: $*" >&2; }

series=$BUILD/kernel-patch suites="" extras="" name=skeleton expect64=mounted
while [ $# -gt 0 ]; do
	case $1 in
	--series) series=$2; shift 2 ;;
	--suite) suites="$suites $2"; shift 2 ;;
	--extra-config) extras="$extras $(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
	--name) name=$2; shift 2 ;;
	--expect-64k) expect64=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '/^[^#]/d; /shellcheck/d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$suites" ] || suites=lbs_core
case $expect64 in refused | mounted) ;; *) die "--expect-64k must be refused or mounted" ;; esac
[ -d "$series" ] || die "series dir '$series' not found: run 'make kernel-patch' first
  (or pass --series DIR; an empty directory builds the pristine tree)"

out=$BUILD/qemu/$name
mkdir -p "$out"
report=$out/report.txt
console=$out/console.log
: >"$report.tmp"
result() { echo "$1: $2" >>"$report.tmp"; }
check() { # check NAME COMMAND...
	n=$1
	shift
	if "$@"; then result "$n" pass; else result "$n" fail; fi
}
finish() {
	mv "$report.tmp" "$report"
	echo "---- $report ----"
	cat "$report"
	if grep -q ': fail$' "$report"; then
		say "FAIL ($(grep -c ': fail$' "$report") failed expectations; console: $console)"
		exit 1
	fi
	say "PASS"
	exit 0
}

# ---- kernel ---------------------------------------------------------------
tree=$("$ROOT/scripts/linux-tree.sh" worktree "$name" "$series")
t0=$(date +%s)
# shellcheck disable=SC2086
if image=$("$HERE/build-kernel.sh" "$tree" "$out/obj" "$ROOT/kernel-glue/config/lbs-6.1.config" $extras); then
	result kernel-build pass
else
	result kernel-build fail
	for n in boot-complete $(for s in $suites; do echo "ktap-$s"; done) kernel-clean \
		$([ "$expect64" = refused ] && echo mount64k-refused mount64k-message || echo mount64k-mounted mount64k-experimental) \
		mount4k; do
		result "$n" fail  # not run
	done
	finish
fi
build_s=$(($(date +%s) - t0))
say "kernel build: ${build_s}s wall"

# ---- disk images (fresh every run; never committed) ----------------------
img64=$out/xfs-64k.img img4=$out/xfs-4k.img
for spec in "$img64:65536" "$img4:4096"; do
	img=${spec%:*} bs=${spec##*:}
	rm -f "$img"
	truncate -s 512M "$img"
	mkfs.xfs -q -f -b size="$bs" -m crc=1 "$img" || die "mkfs.xfs -b size=$bs failed"
done

# ---- initramfs + boot -----------------------------------------------------
initrd=$("$HERE/mkinitramfs.sh" "$out/initramfs.cpio.gz" "$HERE/guest-skeleton.sh:/test.sh")
t0=$(date +%s)
boot_rc=0
"$HERE/boot.sh" "$image" "$initrd" "$console" \
	-drive "file=$img64,if=virtio,format=raw" \
	-drive "file=$img4,if=virtio,format=raw" || boot_rc=$?
boot_s=$(($(date +%s) - t0))
case $boot_rc in
0) say "boot: ${boot_s}s wall (until reboot)" ;;
124) say "boot: guest timed out after ${boot_s}s" ;;
*) say "boot: qemu failed (exit $boot_rc) after ${boot_s}s" ;;
esac

# ---- checks ---------------------------------------------------------------
clean=$out/console.txt
tr -d '\r' <"$console" >"$clean"
MSG64="XFS (vda): File system with blocksize 65536 bytes. Only pagesize (4096) or less will currently work."
MSG64OK="XFS (vda): EXPERIMENTAL: V5 filesystem with block size 65536 bytes > page size (4096) enabled."
has() { grep -qF -- "$1" "$clean"; }
booted() { [ "$boot_rc" -eq 0 ] && has "LBS-TEST: end skeleton" && has "LBS-INIT: reboot"; }
ktap() { # ktap-check.py, output to stderr and ktap-check.txt; keeps its exit status
	krc=0
	python3 "$HERE/ktap-check.py" "$console" "$@" >"$out/ktap-check.last" 2>&1 || krc=$?
	cat "$out/ktap-check.last" >&2
	cat "$out/ktap-check.last" >>"$out/ktap-check.txt"
	rm -f "$out/ktap-check.last"
	return "$krc"
}
refused64() { grep -qE '^LBS-RESULT mount64k: refused rc=[1-9][0-9]*$' "$clean"; }
message64() { grep '^LBS-DMESG ' "$clean" | grep -qF -- "$MSG64"; }
experimental64() { grep -qF -- "$MSG64OK" "$clean"; }

: >"$out/ktap-check.txt"
check boot-complete booted
for s in $suites; do
	check "ktap-$s" ktap --no-oops --suite "$s"
done
check kernel-clean ktap --no-ktap
if [ "$expect64" = refused ]; then
	check mount64k-refused refused64
	check mount64k-message message64
else
	check mount64k-mounted has "LBS-RESULT mount64k: mounted"
	check mount64k-experimental experimental64
fi
check mount4k has "LBS-RESULT mount4k: ok"
grep -E '^(LBS-RESULT|LBS-DMESG)' "$clean" >&2 || true
say "times: kernel build ${build_s}s, boot ${boot_s}s"
finish
