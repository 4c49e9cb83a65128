#!/bin/sh
# Kernel negative controls (`make check-controls`, `make check-controls-all`):
#
#   controls.sh [--kernel patched-6.1|ref-6.12] [--tier ci|all]
#               [--knobs "KNOB..."] [--survey] [--ops N] [--block-sizes "..."]
#
# Each kernel-glue/selftest-6.1/KNOB.patch puts one bug back into the
# series (--kernel ref-6.12: each kernel-glue/selftest/KNOB.patch into
# upstream 6.12, table tests/qemu/controls-ref-6.12.txt, its own tree and
# object directory the same way).  Its expectation is one block of
# tests/qemu/controls.txt: the
# block sizes it boots at, and the tests that must fail with a named
# symptom.  A control is caught only if each of those tests fails at its
# block size with a reason matching its symptom, each "may" test passes or
# fails with its own symptom, and every other test of the suite passes
# (tests/qemu/controls-judge.py).  --tier ci (default) runs the knobs the
# table puts in CI; --tier all every knob (the others take too long for
# CI; the table says why).  --knobs picks knobs by name.
#
# Kernels: built incrementally in the kernel's own tree and object
# directory ($LBS_BUILD/linux/KERNEL, $LBS_BUILD/kernel/KERNEL, the ones
# make check and check-ref build): under that tree's lock the knob is
# applied with git apply, the kernel rebuilt (only what the knob
# touches), the image copied out and the knob reverted; the kernel itself
# is rebuilt once the last knob is reverted (the reverted files only).
# When every knob kernel is built, each boots the verification suite
# (tests/qemu/verify.sh, LBS_KERNEL_IMAGE) at its block sizes with the
# suite's expectations for KERNEL, LBS_CONTROLS_JOBS (default 2) guests at
# a time; reports in $LBS_BUILD/qemu/controls-KNOB/report.txt, the
# verdicts in $LBS_BUILD/qemu/controls-KERNEL/summary.txt.
#
# --survey: no judging; print each knob's failing tests (to write the
# table).  --block-sizes overrides the table's sizes (survey).
# Exit 0 only if every control run was caught (1 otherwise, 2 on bad use).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"

die() { echo "controls.sh: error: $*" >&2; exit 2; }
say() { echo "controls.sh: $*" >&2; }

tier=ci knobs="" survey=0 ops="" sizes_override="" kernel=patched-6.1
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:-}; shift 2 ;;
	--tier) tier=${2:-}; shift 2 ;;
	--knobs) knobs=${2:-}; shift 2 ;;
	--survey) survey=1; shift ;;
	--ops) ops=${2:-}; shift 2 ;;
	--block-sizes) sizes_override=${2:-}; shift 2 ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
case $tier in ci | all) ;; *) die "--tier must be ci or all" ;; esac
case $kernel in
patched-6.1) TABLE=$HERE/controls.txt knobdir=$ROOT/kernel-glue/selftest-6.1
	frag=lbs-6.1.config series=$BUILD/kernel-patch ;;
ref-6.12) TABLE=$HERE/controls-ref-6.12.txt knobdir=$ROOT/kernel-glue/selftest
	frag=ref-6.12.config series=$BUILD/qemu/empty-series
	mkdir -p "$series" ;;
*) die "--kernel must be patched-6.1 or ref-6.12" ;;
esac
case $ops in '' | *[!0-9]*) [ -z "$ops" ] || die "--ops must be a number" ;; esac
judge() { python3 "$HERE/controls-judge.py" --table "$TABLE" "$@"; }
judge --check >/dev/null || die "bad table $TABLE"

# the knobs to run: named ones, or the tier's
if [ -n "$knobs" ]; then
	for k in $knobs; do
		judge --knob "$k" --sizes >/dev/null 2>&1 || [ "$survey" = 1 ] ||
			die "knob '$k' has no block in $TABLE"
	done
else
	knobs=$(judge --list "$tier")
fi
# a run that judges nothing must not pass as one that caught everything
[ -n "$(echo $knobs)" ] || die "no knob of tier $tier in $TABLE: nothing to run (--tier all, or --knobs)"
for k in $knobs; do
	[ -f "$knobdir/$k.patch" ] || die "no $knobdir/$k.patch"
done

[ "$kernel" != patched-6.1 ] || ls "$series"/0[0-9][0-9][0-9]-*.patch >/dev/null 2>&1 ||
	die "no series in $series (make kernel-patch)"
# the kernel itself, as make check (check-ref) builds it (a no-op when it has)
"$HERE/kernel-image.sh" "$kernel" "$kernel" "$series" >/dev/null ||
	die "the $kernel kernel does not build"
tree=$BUILD/linux/$kernel obj=$BUILD/kernel/$kernel
out=$BUILD/qemu/controls-$kernel
mkdir -p "$out"
summary=$out/summary.txt
: >"$summary.tmp"

# build KNOB: the knob kernel's image into $out/KNOB.bzImage
build() {
	patch=$knobdir/$1.patch
	(
		exec 8>"$BUILD/linux/$kernel.lock"
		flock 8
		[ -z "$(git -C "$tree" status --porcelain)" ] ||
			{ echo "controls.sh: $tree has changes; make check rebuilds it" >&2; exit 1; }
		git -C "$tree" apply --check "$patch" 2>/dev/null ||
			{ echo "controls.sh: $1.patch no longer applies to the series: refresh it" >&2; exit 1; }
		git -C "$tree" apply "$patch"
		rc=0
		img=$("$HERE/build-kernel.sh" "$tree" "$obj" "$ROOT/kernel-glue/config/$frag") || rc=$?
		[ "$rc" -ne 0 ] || cp "$img" "$out/$1.bzImage"
		git -C "$tree" apply -R "$patch"
		exit "$rc"
	)
}

# phase 1: every knob kernel, one after the other (one tree)
fail=0 built=""
for k in $knobs; do
	t0=$(date +%s)
	if build "$k" >"$out/$k.build.log" 2>&1; then
		built="$built $k"
		echo "$(($(date +%s) - t0))" >"$out/$k.build-s"
	else
		echo "control $k: NOT CAUGHT: the knob kernel did not build ($out/$k.build.log)" | tee -a "$summary.tmp"
		tail -n 5 "$out/$k.build.log" >&2
		fail=1
	fi
done

# the object directory back to the patched kernel itself (the reverted
# files only), so no one finds a knob's image there
"$HERE/kernel-image.sh" "$kernel" "$kernel" "$series" >/dev/null ||
	die "the $kernel kernel does not build again after the knobs"

# phase 2: their suites, LBS_CONTROLS_JOBS at a time (default 2: a TCG
# guest keeps one host CPU busy); the guest programs are built first, so
# the runs share nothing but the read-only build tree
"$ROOT/tests/guest/build.sh" "$out/guest" >/dev/null
suite() { # suite KNOB: verify.sh on its kernel, then the verdict file
	k=$1
	sizes=${sizes_override:-$(judge --knob "$k" --sizes 2>/dev/null || echo "16384 65536")}
	kops=${ops:-$(judge --knob "$k" --ops 2>/dev/null || echo 2000)}
	t0=$(date +%s)
	report=$BUILD/qemu/controls-$k/report.txt
	# an earlier run's report must not be judged as this one's
	rm -f "$report"
	vrc=0
	LBS_KERNEL_IMAGE=$out/$k.bzImage "$HERE/verify.sh" --kernel "$kernel" --name "controls-$k" \
		--expect "$kernel" --series "$series" --block-sizes "$sizes" --ops "$kops" \
		>"$out/$k.suite.log" 2>&1 || vrc=$?
	head="control $k ($sizes, $kops ops; build $(cat "$out/$k.build-s")s, suite $(($(date +%s) - t0))s)"
	if [ "$vrc" -gt 1 ]; then
		# verify.sh's 2 is "could not run" (a bad image, mkfs failed):
		# whatever report there is was not made by this knob's suite
		echo "$head: NOT CAUGHT: verify.sh could not run (exit $vrc, $out/$k.suite.log)" >"$out/$k.verdict"
	elif [ ! -f "$report" ]; then
		echo "$head: NOT CAUGHT: no report ($out/$k.suite.log)" >"$out/$k.verdict"
	elif [ "$survey" = 1 ]; then
		{ echo "$head: survey"; grep -E ': (fail|xfail)' "$report" | sed 's/^/  /'; } >"$out/$k.verdict"
	elif v=$(judge --knob "$k" --report "$report" --image "$out/$k.bzImage"); then
		{ echo "$head: CAUGHT"; echo "$v" | sed 's/^/  /'; } >"$out/$k.verdict"
	else
		{ echo "$head: NOT CAUGHT"; echo "$v" | sed 's/^/  /'; } >"$out/$k.verdict"
	fi
}
jobs=${LBS_CONTROLS_JOBS:-2} running=""
case $jobs in '' | *[!0-9]* | 0) die "LBS_CONTROLS_JOBS must be a positive number" ;; esac
for k in $built; do
	rm -f "$out/$k.verdict"
	while [ "$(echo "$running" | wc -w)" -ge "$jobs" ]; do
		sleep 2
		still=""
		for p in $running; do kill -0 "$p" 2>/dev/null && still="$still $p"; done
		running=$still
	done
	suite "$k" &
	running="$running $!"
done
wait
for k in $built; do
	if [ -f "$out/$k.verdict" ]; then
		cat "$out/$k.verdict"
	else
		echo "control $k: NOT CAUGHT: its suite left no verdict"
	fi | tee -a "$summary.tmp"
	grep -q ': CAUGHT$\|: survey$' "$out/$k.verdict" 2>/dev/null || fail=1
done
mv "$summary.tmp" "$summary"
say "summary: $summary"
# the controls that failed, last, so that a log's tail names them (CI
# shows only the tail, and the summary runs to hundreds of lines)
if [ "$fail" -ne 0 ]; then
	grep -E '^control .*: NOT CAUGHT' "$summary" | sed 's/^/controls.sh: /'
	grep -E '^  BAD ' "$summary" | head -n 20 | sed 's/^/controls.sh: /'
fi
exit "$fail"
