#!/bin/sh
# Negative control of the verification suite (`make qemu-verify-selftest`):
#
#   verify-selftest.sh [--block-sizes "4096 16384 65536"] [--ops N]
#
# Runs tests/qemu/verify.sh on ref-6.12 plus kernel-glue/selftest/*.patch (a
# deliberately broken kernel) in its own worktree and output,
# build/linux/ref-6.12-selftest and build/qemu/ref-6.12-selftest, with the
# ref-6.12 expectations (none). Succeeds only if the kernel built and booted
# and the suite reported at least one failed test ("LBS-VERIFY <bs> <test>:
# fail", not a host-side build or boot failure). Prints the failures.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
sizes="4096 16384 65536" ops=${LBS_OPS:-2000}
while [ $# -gt 0 ]; do
	case $1 in
	--block-sizes) sizes=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	*) echo "verify-selftest.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
name=ref-6.12-selftest
rc=0
LBS_BUILD=$BUILD "$HERE/verify.sh" --kernel ref-6.12 --name "$name" --expect ref-6.12 \
	--series "$ROOT/kernel-glue/selftest" --block-sizes "$sizes" --ops "$ops" >/dev/null || rc=$?
report=$BUILD/qemu/$name/report.txt
[ -f "$report" ] || { echo "verify-selftest.sh: FAIL: no report ($report)" >&2; exit 1; }
for h in kernel-build boot-complete; do
	grep -q "^LBS-VERIFY all $h: pass" "$report" ||
		{ echo "verify-selftest.sh: FAIL: $h did not pass; the control proves nothing" >&2; grep "all $h" "$report" >&2; exit 1; }
done
caught=$(grep -E '^LBS-VERIFY [0-9]+ [^ ]+: fail' "$report" || true)
if [ "$rc" -ne 0 ] && [ -n "$caught" ]; then
	echo "verify-selftest.sh: PASS: the suite caught the broken kernel ($(echo "$caught" | wc -l) failures):"
	echo "$caught"
	exit 0
fi
echo "verify-selftest.sh: FAIL: the suite did not catch the broken kernel (verify.sh exit $rc)" >&2
cat "$report" >&2
exit 1
