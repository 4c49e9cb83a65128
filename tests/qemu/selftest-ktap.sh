#!/bin/sh
# Self-test of tests/qemu/ktap-check.py against the console-log fixtures in
# tests/qemu/fixtures/: good logs must pass, every kind of bad log must fail.
# Run by `make ktap-selftest`. No kernel or QEMU needed.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
F=$HERE/fixtures
CHECK="python3 $HERE/ktap-check.py"
pass=0 fail=0

# expect EXIT_CODE DESCRIPTION GREP_FOR_IN_OUTPUT -- ktap-check args...
expect() {
	want=$1 desc=$2 needle=$3
	shift 4
	rc=0
	out=$($CHECK "$@" 2>&1) || rc=$?
	if [ "$rc" -eq "$want" ] && printf '%s\n' "$out" | grep -qF -- "$needle"; then
		pass=$((pass + 1))
		echo "ok   $desc"
	else
		fail=$((fail + 1))
		echo "FAIL $desc (exit $rc, want $want; expected output containing '$needle')"
		printf '%s\n' "$out" | sed 's/^/     | /'
	fi
}

S="--suite lbs_core --suite list-kunit-test"
# shellcheck disable=SC2086
{
expect 0 "good log passes, counts per suite" "suite lbs_core: 3 passed, 0 failed, 1 skipped" -- "$F/good.log" $S
expect 0 "good log: second suite counted" "suite list-kunit-test: 2 passed, 0 failed" -- "$F/good.log" $S
expect 0 "no timestamps, CRLF, 'ok N - name'" "ktap-check: PASS" -- "$F/good-notime.log" $S
expect 1 "required suite missing" "required suite 'lbs_other' is missing" -- "$F/good.log" --suite lbs_core --suite lbs_other
expect 1 "not ok test case" "not ok 2 lbs_zero_around" -- "$F/notok.log" $S
expect 1 "not ok case is counted" "suite lbs_core: 2 passed, 1 failed, 1 skipped" -- "$F/notok.log" $S
expect 1 "not ok parameter under an ok case" "not ok 2 bs-16384" -- "$F/notok-param.log" $S
expect 1 "not ok in a suite that is not required" "not ok 2 lbs_zero_around" -- "$F/notok.log" --suite list-kunit-test
expect 1 "kernel died mid-suite" "suite 'lbs_core' started but has no result line" -- "$F/truncated.log" --suite lbs_core
expect 1 "fewer suites than the top-level plan" "only 2 of 3 planned suites" -- "$F/short-plan.log" $S
expect 1 "fewer cases than the suite plan" "4 results for a plan of 5" -- "$F/short-suite.log" $S
expect 1 "no KTAP at all" "no KTAP output" -- "$F/noktap.log" --suite lbs_core
expect 1 "kernel WARNING" "kernel warning/oops: WARNING: CPU: 0" -- "$F/warning.log" $S
expect 1 "lockdep report" "possible recursive locking" -- "$F/lockdep.log" $S
expect 1 "XFS assertion" "Assertion failed" -- "$F/assert.log" $S
expect 0 "--allow whitelists a known warning" "ktap-check: PASS" -- "$F/warning.log" $S --allow 'xfs_mount\.c:133'
expect 0 "--no-oops ignores warnings" "ktap-check: PASS" -- "$F/warning.log" $S --no-oops
expect 1 "--no-ktap still sees warnings" "kernel warning/oops" -- "$F/warning.log" --no-ktap
expect 0 "--no-ktap on a clean log" "ktap-check: PASS" -- "$F/good.log" --no-ktap
expect 1 "missing console log" "cannot read console log" -- "$F/does-not-exist.log" --suite lbs_core
expect 2 "no --suite is a usage error" "at least one --suite" -- "$F/good.log"
}

# Real 6.1 console captured from tests/qemu/skeleton.sh on the pristine tree
# with tests/qemu/config/list-kunit.config (list-kunit-test, hlist, example,
# rational), BIOS chatter removed (the terminal escapes are kept on purpose).
if [ -f "$F/real-6.1-pristine-kunit.log" ]; then
	R=$F/real-6.1-pristine-kunit.log
	expect 0 "real 6.1 console passes" "ktap-check: PASS" -- "$R" --suite list-kunit-test --suite hlist --suite example --suite rational
	expect 0 "real 6.1: skipped cases counted" "suite example: 2 passed, 0 failed, 2 skipped" -- "$R" --suite example
	expect 1 "real 6.1: lbs_core missing" "required suite 'lbs_core' is missing" -- "$R" --suite lbs_core
	expect 0 "real 6.1: parameterised results counted" "suite rational: 1 passed, 0 failed (8 parameterised results)" -- "$R" --suite rational
	tmp=$(mktemp)
	sed 's/^\(.*\)ok 5 Use convergent/\1not ok 5 Use convergent/' "$R" >"$tmp"
	expect 1 "real 6.1 with one parameter not ok" "not ok 5 Use convergent" -- "$tmp" --suite rational
	sed '/Subtest: list-kunit-test/,$d' "$R" >"$tmp"
	expect 1 "real 6.1 cut off before the last suites" "only 2 of 4 planned suites" -- "$tmp" --suite example
	rm -f "$tmp"
fi

echo "selftest-ktap: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
