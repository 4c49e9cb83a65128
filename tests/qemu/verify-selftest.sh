#!/bin/sh
# The positive controls of the verification suite (make qemu-verify-stress):
#
#   verify-selftest.sh --kernel patched-6.1 --stress [--block-sizes "..."] [--ops N]
#
# Each kernel-glue/stress-6.1/PATCH.patch widens a window that the series
# closes (ioend-split: every large block written by two ioends, the second
# held back a second) and must pass the whole suite, crash campaigns
# included.  The negative controls, the patched kernel's and the
# reference's, are tests/qemu/controls.sh (make check-controls[-all], make
# qemu-verify-selftest), each judged by the tests and symptoms of its table.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
sizes="4096 16384 65536" ops=${LBS_OPS:-2000} kernel="" stress=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--block-sizes) sizes=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	--stress) stress=1; shift ;;
	*) echo "verify-selftest.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

case $kernel:$stress in
patched-6.1:1) ;;
*) echo "verify-selftest.sh: only --kernel patched-6.1 --stress (the negative controls are tests/qemu/controls.sh)" >&2; exit 2 ;;
esac

series=$BUILD/kernel-patch
ls "$series"/0[0-9][0-9][0-9]-*.patch >/dev/null 2>&1 ||
	{ echo "verify-selftest.sh: no series in $series (make kernel-patch)" >&2; exit 2; }
name=patched-6.1-selftest
fail=0
for p in "$ROOT"/kernel-glue/stress-6.1/*.patch; do
	k=$(basename "$p" .patch)
	dir=$BUILD/qemu/$name-series
	"$HERE/twin-series.sh" "$series" "$p" "$dir"
	rc=0
	LBS_BUILD=$BUILD "$HERE/verify.sh" --kernel patched-6.1 --name "$name" \
		--expect patched-6.1 --series "$dir" --block-sizes "$sizes" \
		--ops "$ops" >/dev/null || rc=$?
	cp "$BUILD/qemu/$name/report.txt" "$BUILD/qemu/$name/$k.report.txt" 2>/dev/null || true
	if [ "$rc" -eq 0 ]; then
		echo "verify-selftest.sh: PASS: patched-6.1 + $k: the suite passes"
	else
		echo "verify-selftest.sh: FAIL: patched-6.1 + $k: verify.sh exit $rc" >&2
		grep -E '^LBS-VERIFY .*: fail' "$BUILD/qemu/$name/report.txt" >&2 || true
		fail=1
	fi
done
exit $fail
