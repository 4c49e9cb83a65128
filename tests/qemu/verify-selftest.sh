#!/bin/sh
# The ref-6.12 negative control and the positive controls of the
# verification suite:
#
#   verify-selftest.sh [--kernel ref-6.12] [--block-sizes "..."] [--ops N]
#   verify-selftest.sh --kernel patched-6.1 --stress [--block-sizes ...]
#
# ref-6.12 (default): runs tests/qemu/verify.sh on ref-6.12 plus
# kernel-glue/selftest/*.patch (a broken iomap_dio_zero) in its own worktree
# and output, build/linux/ref-6.12-selftest and build/qemu/ref-6.12-selftest,
# with the ref-6.12 expectations; caught when the suite reports a failed
# test.  The patched kernel's negative controls (kernel-glue/selftest-6.1)
# are make check-controls[-all] (tests/qemu/controls.sh), each judged by
# the tests and symptoms of tests/qemu/controls.txt.
#
# --stress runs the positive controls instead: each kernel-glue/stress-6.1/
# PATCH.patch widens a window that the series closes (ioend-split: every
# large block written by two ioends, the second held back a second) and
# must pass the whole suite, crash campaigns included.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
sizes="4096 16384 65536" ops=${LBS_OPS:-2000} kernel=ref-6.12 stress=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--block-sizes) sizes=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	--stress) stress=1; shift ;;
	*) echo "verify-selftest.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

# run_control NAME SERIES_DIR LABEL: verify.sh, then judge its report
run_control() {
	rc=0
	LBS_BUILD=$BUILD "$HERE/verify.sh" --kernel "$kernel" --name "$1" --expect "$kernel" \
		--series "$2" --block-sizes "$sizes" --ops "$ops" >/dev/null || rc=$?
	report=$BUILD/qemu/$1/report.txt
	[ -f "$report" ] || { echo "verify-selftest.sh: FAIL: $3: no report ($report)" >&2; return 1; }
	for h in kernel-build boot-complete; do
		grep -q "^LBS-VERIFY all $h: pass" "$report" || {
			echo "verify-selftest.sh: FAIL: $3: $h did not pass; the control proves nothing" >&2
			grep "all $h" "$report" >&2
			return 1
		}
	done
	caught=$(grep -E '^LBS-VERIFY [0-9]+ [^ ]+: fail' "$report" || true)
	if [ "$rc" -ne 0 ] && [ -n "$caught" ]; then
		echo "verify-selftest.sh: PASS: $3: the suite caught the broken kernel ($(echo "$caught" | wc -l) failures):"
		echo "$caught"
		return 0
	fi
	echo "verify-selftest.sh: FAIL: $3: the suite did not catch the broken kernel (verify.sh exit $rc)" >&2
	cat "$report" >&2
	return 1
}

case $kernel in
ref-6.12)
	run_control ref-6.12-selftest "$ROOT/kernel-glue/selftest" "ref-6.12 + broken iomap_dio_zero"
	exit $? ;;
patched-6.1) ;;
*) echo "verify-selftest.sh: --kernel must be ref-6.12 or patched-6.1" >&2; exit 2 ;;
esac

series=$BUILD/kernel-patch
ls "$series"/0[0-9][0-9][0-9]-*.patch >/dev/null 2>&1 ||
	{ echo "verify-selftest.sh: no series in $series (make kernel-patch)" >&2; exit 2; }
[ "$stress" = 1 ] || {
	echo "verify-selftest.sh: the patched kernel's negative controls are make check-controls-all (tests/qemu/controls.sh)" >&2
	exit 2
}
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
