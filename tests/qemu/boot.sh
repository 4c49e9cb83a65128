#!/bin/sh
# Boot a kernel + initramfs in QEMU (TCG only: KVM guests hang on this host).
#
#   boot.sh KERNEL INITRAMFS CONSOLE_LOG [qemu extra args...]
#
# The serial console (ttyS0) goes to CONSOLE_LOG. The guest is expected to
# end with `reboot -f` (or a panic: panic=-1 reboots at once); -no-reboot
# turns that into a QEMU exit. Exit status 0 only means QEMU exited on its
# own: the caller must check the console for its markers.
#
# Environment:
#   LBS_QEMU_TIMEOUT  seconds before the guest is killed (default 300)
#   LBS_QEMU_MEM      guest memory (default 1G)
#   LBS_QEMU_SMP      vCPUs (default 1; the kernel needs CONFIG_SMP for more)
#   LBS_KERNEL_APPEND extra kernel command line
#   LBS_QEMU_VERBOSE  1: also copy the console to stderr while it runs
set -eu

die() { echo "boot.sh: error: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: boot.sh KERNEL INITRAMFS CONSOLE_LOG [qemu extra args...]"
kernel=$1 initrd=$2 log=$3
shift 3
[ -f "$kernel" ] || die "kernel $kernel not found"
[ -f "$initrd" ] || die "initramfs $initrd not found"
timeout_s=${LBS_QEMU_TIMEOUT:-300}
case $timeout_s in '' | *[!0-9]*) die "LBS_QEMU_TIMEOUT must be a number of seconds" ;; esac
mkdir -p "$(dirname "$log")"
: >"$log"

tailpid=""
if [ "${LBS_QEMU_VERBOSE:-0}" = 1 ]; then
	tail -n +1 -f "$log" >&2 &
	tailpid=$!
fi

start=$(date +%s)
rc=0
timeout -k 10 "$timeout_s" qemu-system-x86_64 \
	-accel tcg -m "${LBS_QEMU_MEM:-1G}" -smp "${LBS_QEMU_SMP:-1}" \
	-nographic -monitor none -serial "file:$log" -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 ${LBS_KERNEL_APPEND:-}" \
	"$@" </dev/null || rc=$?
elapsed=$(($(date +%s) - start))
[ -z "$tailpid" ] || { sleep 1; kill "$tailpid" 2>/dev/null || true; }

case $rc in
0) echo "boot.sh: guest ran ${elapsed}s (until reboot); console log: $log" >&2 ;;
124 | 137) echo "boot.sh: error: guest timed out after ${timeout_s}s; console log: $log" >&2
	echo "---- last console lines ----" >&2
	tail -n 15 "$log" >&2
	exit 124 ;;
*) echo "boot.sh: error: qemu failed (exit $rc) after ${elapsed}s; console log: $log" >&2
	exit "$rc" ;;
esac
