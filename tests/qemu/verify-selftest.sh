#!/bin/sh
# Negative controls of the verification suite (`make qemu-verify-selftest`):
#
#   verify-selftest.sh [--kernel ref-6.12|patched-6.1] [--block-sizes "..."] [--ops N]
#                      [--knobs "KNOB..."]   (patched-6.1: only these controls)
#                      [--stress]  (patched-6.1: the positive controls instead)
#
# ref-6.12 (default): runs tests/qemu/verify.sh on ref-6.12 plus
# kernel-glue/selftest/*.patch (a broken iomap_dio_zero) in its own worktree
# and output, build/linux/ref-6.12-selftest and build/qemu/ref-6.12-selftest,
# with the ref-6.12 expectations (none).
#
# patched-6.1: one run per kernel-glue/selftest-6.1/KNOB.patch, each applied
# alone on top of the series ($LBS_BUILD/kernel-patch): the kernel twins of
# the simulator's --inject knobs (no-zero-around, no-dio-zero, no-wb-round,
# mark-partial-uptodate, no-copy-around), copy-around-wrong-source
# (copy-around's batched read from the COW block instead of the source:
# patch 30's bio pointed at the wrong mapping), zero-around-skip-clean
# (patch 31's walk skipping uptodate pages that are clean, which the locked
# path would have dirtied with their block), cow-window (COW reservations
# over the whole extent size hint at bs > ps), unshare-cancels-dirty
# (6.1 without the upstream fix of patch 26), delalloc-written (delalloc
# converted to written extents: stale data after a crash, which only the
# crash campaigns can see), fsync-no-log (fsync without its log force:
# fsynced data lost by a shutdown without the log flush or a power cut,
# tests/qemu/powercut.sh), wb-no-block-stop (the flusher's pass may end
# inside a block: patch 9's stop rule off, which wb-budget-stop sees as an
# unwritten block with pages on disk) and wb-split-convert (that, and I/O
# completion rounding out as 6.1 does, patch 27 off: stale pages in a
# written block).  The runs share the worktree and object directory
# build/linux/patched-6.1-selftest (incremental builds); each report is kept
# as build/qemu/patched-6.1-selftest/KNOB.report.txt.
#
# --stress runs the positive controls instead: each kernel-glue/stress-6.1/
# PATCH.patch widens a window that the series closes (ioend-split: every
# large block written by two ioends, the second held back a second) and
# must pass the whole suite, crash campaigns included.
#
# A control passes only if its kernel built and booted and the suite
# reported at least one failed test ("LBS-VERIFY <bs> <test>: fail", not a
# host-side build or boot failure); the script prints the failures and
# succeeds only if every control was caught.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
sizes="4096 16384 65536" ops=${LBS_OPS:-2000} kernel=ref-6.12 knobs="" stress=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--block-sizes) sizes=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	--knobs) knobs=$2; shift 2 ;;
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
name=patched-6.1-selftest
fail=0
if [ "$stress" = 1 ]; then
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
fi
for knob in "$ROOT"/kernel-glue/selftest-6.1/*.patch; do
	k=$(basename "$knob" .patch)
	case " ${knobs:-$k} " in *" $k "*) ;; *) continue ;; esac
	dir=$BUILD/qemu/$name-series
	"$HERE/twin-series.sh" "$series" "$knob" "$dir"
	if run_control "$name" "$dir" "patched-6.1 + $k"; then :; else fail=1; fi
	cp "$BUILD/qemu/$name/report.txt" "$BUILD/qemu/$name/$k.report.txt" 2>/dev/null || true
done
exit $fail
