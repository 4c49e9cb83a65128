#!/bin/sh
# Run real fstests on XFS in a QEMU TCG guest (called by `make fstests`).
#
#   run-fstests.sh --kernel patched-6.1|stock-6.1|ref-6.12 --block-size N
#                  [--tests "generic/091 ..." | --group NAME] [--no-lockdep]
#
#   --kernel K      patched-6.1: linux-source-6.1 + the series
#                     ($LBS_BUILD/kernel-patch, from `make kernel-patch`)
#                   stock-6.1: pristine linux-source-6.1 (bs 4096 only: it
#                     refuses larger blocks at mount)
#                   ref-6.12: pristine linux-source-6.12
#                   each with its own fragment plus kernel-glue/config/fstests.config
#   --block-size N  mkfs.xfs -b size=N (4096 8192 16384 32768 65536)
#   --tests L       these tests (default: the LBS group)
#   --group NAME    `lbs` (tests/fstests/lbs.group) or any fstests group
#                   (quick, auto, clone, ...)
#   --twin KNOB     patched-6.1 only: add kernel-glue/selftest-6.1/KNOB.patch
#                   (a deliberately broken kernel, the negative control);
#                   label patched-6.1.KNOB, its own worktree and kernel
#   --no-lockdep    the same kernel with CONFIG_PROVE_LOCKING off (its own
#                   kernel directory; label KERNEL.nolockdep, judged by
#                   KERNEL's expected failures): what lockdep costs per test
#   --fsx-ops N     instead of check: fstests' fsx campaigns of N ops
#                   (tests/fstests/guest-fsx.sh: buffered+mmap, O_DIRECT,
#                   -e 1, wide ops), each on a fresh mkfs; results in
#                   $LBS_BUILD/fstests/fsx-K-N/ (fsx.tsv, failing
#                   campaigns' .fsxlog/.fsxops/.fsxgood)
#   --fsx-seed S    fsx -S (default 1); --fsx-campaigns "LIST" a subset
#   --fragment PCT  the guest holds PCT% of its free memory fragmented
#                   (tests/guest/frag.c) while check or fsx runs, so large
#                   folio allocations fail and fall back: label KERNEL.frag,
#                   judged by KERNEL's expected failures
#
# Every run takes a folio census of the block-device filesystems
# (tests/guest/folios.sh: folios by order, failed large allocations),
# printed at the end and kept in folio-census.txt; a census that shows a
# folio holding part of a block, a patched kernel at bs > ps that never
# made a large folio or never a block of pages (a group run: tests named
# with --tests are too few to promise both), or a fragmented run in which
# no large allocation failed, fails the run.
#
# Steps: fstests build (tests/fstests/build-fstests.sh), kernel build
# (tests/qemu/kernel-image.sh --fstests, skipped by stamp) into
# $LBS_BUILD/kernel/K-fstests, three
# sparse 4 GiB disks (TEST_DEV made by mkfs.xfs -b size=N on the host,
# SCRATCH_DEV, LOGWRITES_DEV), an
# initramfs whose stage 1 is tests/fstests/guest-init.sh, one QEMU boot
# (tests/qemu/boot.sh; 2 vCPUs, 4 GiB, the host's / over 9p). fstests
# writes check.log, result.xml, check.out (its stdout) and each test's
# .out.bad, .full and .dmesg into $LBS_BUILD/fstests/K-N/ (emptied first).
# Then tests/fstests/summarize.py prints the table, judges the run against
# tests/fstests/expunges/K-N.txt and appends one record per test to
# tests/fstests/records/K-N.tsv (tests/fstests/records.py): the run's UTC
# start, the kernel tree's HEAD (the series), the project's commit ('+'
# when tracked files other than the records had changes), each test's raw
# result, seconds and reason. A test asked for without a result (the
# guest broke) is recorded as missing (a group's tests: from fstests'
# group.list files); fsx runs record nothing. Those files are only ever
# appended to, and results.md is made of them again at once (compare.py):
# commit both.
# A notrun fails the run when the test was named (--tests) or the records
# show it ran (pass or fail) on this label before, unless the expunge list
# has it as an expected notrun (summarize.py).
#
# Exit: 0 no unexpected failure, 1 unexpected failure or the run broke,
# 2 bad arguments. Environment: LBS_BUILD, LBS_JOBS, LBS_FSTESTS_TIMEOUT
# (seconds for the whole boot; default 600 + 1200 per test, or 12 h for a
# group), LBS_QEMU_VERBOSE=1 (console to stderr as it runs),
# LBS_FSTESTS_RECORDS (the records directory, default tests/fstests/records).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"

usage() { echo "run-fstests.sh: error: $*" >&2; echo "see: $0 --help" >&2; exit 2; }
die() { echo "run-fstests.sh: error: $*" >&2; exit 1; }
say() { echo "run-fstests.sh: $*" >&2; }

kernel="" bs="" tests="" group="" twin="" fsx_ops="" fsx_seed=1 fsx_campaigns="" nolockdep="" frag=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage "--kernel needs a value"; kernel=$2; shift 2 ;;
	--block-size) [ $# -ge 2 ] || usage "--block-size needs a value"; bs=$2; shift 2 ;;
	--tests) [ $# -ge 2 ] || usage "--tests needs a value"; tests=$2; shift 2 ;;
	--group) [ $# -ge 2 ] || usage "--group needs a value"; group=$2; shift 2 ;;
	--twin) [ $# -ge 2 ] || usage "--twin needs a value"; twin=$2; shift 2 ;;
	--no-lockdep) nolockdep=--no-lockdep; shift ;;
	--fragment) [ $# -ge 2 ] || usage "--fragment needs a value"; frag=$2; shift 2 ;;
	--fsx-ops) [ $# -ge 2 ] || usage "--fsx-ops needs a value"; fsx_ops=$2; shift 2 ;;
	--fsx-seed) [ $# -ge 2 ] || usage "--fsx-seed needs a value"; fsx_seed=$2; shift 2 ;;
	--fsx-campaigns) [ $# -ge 2 ] || usage "--fsx-campaigns needs a value"; fsx_campaigns=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
	*) usage "unknown argument '$1'" ;;
	esac
done
case $kernel in
patched-6.1) series=$BUILD/kernel-patch
	[ -d "$series" ] || usage "no series in $series: run 'make kernel-patch' first" ;;
stock-6.1 | ref-6.12) series=$BUILD/qemu/empty-series ;;
'') usage "KERNEL is not set (patched-6.1, stock-6.1 or ref-6.12)" ;;
*) usage "unknown KERNEL '$kernel' (patched-6.1, stock-6.1 or ref-6.12)" ;;
esac
case $bs in
4096 | 8192 | 16384 | 32768 | 65536) ;;
'') usage "BLOCK_SIZE is not set (4096 8192 16384 32768 65536)" ;;
*) usage "bad BLOCK_SIZE '$bs' (4096 8192 16384 32768 65536)" ;;
esac
name=$kernel
if [ -n "$twin" ]; then
	[ "$kernel" = patched-6.1 ] || usage "--twin needs --kernel patched-6.1"
	knob=$ROOT/kernel-glue/selftest-6.1/$twin.patch
	[ -f "$knob" ] || usage "no twin '$twin' ($(cd "$ROOT/kernel-glue/selftest-6.1" && ls | sed 's/\.patch$//' | xargs))"
	name=$kernel.$twin
	"$ROOT/tests/qemu/twin-series.sh" "$series" "$knob" "$BUILD/fstests/series-$name"
	series=$BUILD/fstests/series-$name
fi
[ "$kernel" != stock-6.1 ] || [ "$bs" = 4096 ] ||
	usage "stock-6.1 refuses XFS blocks larger than 4096 at mount: BLOCK_SIZE=4096 only"
case $fsx_ops$fsx_seed in *[!0-9]*) usage "--fsx-ops and --fsx-seed take numbers" ;; esac
case $frag in
'' | [1-9] | [1-9][0-9]) ;;
*) usage "--fragment takes a percentage of free memory, 1 to 99 (got '$frag')" ;;
esac
for c in $fsx_campaigns; do
	case $c in buffered-mmap | dio | eof-pollute | wide) ;; *) usage "unknown fsx campaign '$c' (buffered-mmap dio eof-pollute wide)" ;; esac
done
[ -z "$fsx_ops" ] || [ -z "$tests$group" ] || usage "--fsx-ops runs fsx campaigns, not TESTS or GROUP"
[ -z "$fsx_ops" ] || group=none
[ -z "$tests" ] || [ -z "$group" ] || usage "give TESTS or GROUP, not both"
[ -n "$tests" ] || [ -n "$group" ] || group=lbs
named=$tests	# asked for by name: a notrun fails the run
for t in $tests; do
	case $t in */[0-9]*) ;; *) usage "bad test name '$t' (e.g. generic/091)" ;; esac
done
if [ "$group" = lbs ]; then
	tests=$(sed 's/#.*//' "$HERE/lbs.group" | xargs)
	[ -n "$tests" ] || die "no tests in $HERE/lbs.group"
	group=""
fi
case $group in *[!a-z0-9_-]*) usage "bad group name '$group'" ;; esac
if [ -n "$group" ]; then
	check_args="-g $group" ntests=""
else
	check_args=$(echo "$tests" | xargs) ntests=$(echo "$tests" | wc -w)
fi
label=$name-$bs
expunge=$ROOT/tests/fstests/expunges/$label.txt
[ -z "$nolockdep" ] || label=$name.nolockdep-$bs
[ -z "$frag" ] || label=${label%-"$bs"}.frag-$bs
[ -z "$fsx_ops" ] || label=fsx-$label
run=$BUILD/fstests/$label

# ---- the records' fields of this run (tests/fstests/records.py) ---------------
records=${LBS_FSTESTS_RECORDS:-$HERE/records}
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
if [ -z "$fsx_ops" ]; then
	proj_head=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null) ||
		die "$ROOT is not a git checkout: the records name the project's commit"
	commit=$(printf %.12s "$proj_head")
	# tracked changes make the commit a lie; appended records are not changes
	[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no -- . ':(exclude)tests/fstests/records')" ] ||
		commit=$commit+
fi

# ---- fstests, kernel ----------------------------------------------------------
t_all=$(date +%s)
fstests=$("$HERE/build-fstests.sh")
if [ -n "$group" ] && [ -z "$fsx_ops" ]; then
	# the group's tests as check -g picks them (generic/ and xfs/ for FSTYP=xfs):
	# a run that breaks records each of them as missing
	for d in generic xfs; do
		[ -f "$fstests/tests/$d/group.list" ] || die "no $fstests/tests/$d/group.list (fstests build?)"
	done
	group_tests=$(for d in generic xfs; do
		sed 's/#.*//' "$fstests/tests/$d/group.list" | awk -v d="$d" -v g="$group" \
			'{ for (i = 2; i <= NF; i++) if ($i == g || g == "all") { print d "/" $1; next } }'
	done | xargs)
	[ -n "$group_tests" ] || die "fstests group '$group' is empty or not defined"
elif [ -z "$fsx_ops" ]; then
	group_tests=$tests	# GROUP=lbs, expanded above
fi
mkdir -p "$BUILD/qemu/empty-series"
frag_bin=""
if [ -n "$frag" ]; then	# run by the guest from the host's root
	frag_bin=$BUILD/fstests/lbs-frag
	mkdir -p "$BUILD/fstests"
	${CC:-cc} -O2 -Wall -Wextra -Werror -o "$frag_bin.tmp" "$ROOT/tests/guest/frag.c" ||
		die "cannot build lbs-frag (tests/guest/frag.c)"
	mv "$frag_bin.tmp" "$frag_bin"
fi
t0=$(date +%s)
image=$("$ROOT/tests/qemu/kernel-image.sh" --fstests $nolockdep "$kernel" "$name" "$series")
build_s=$(($(date +%s) - t0))
say "kernel: ${build_s}s ($image)"
# written by kernel-image.sh under its lock (a run beside may reset the tree)
tree_head=$(cat "${image%/arch/x86/boot/bzImage}/.lbs-tree-head") || die "no .lbs-tree-head beside $image"
series_head=$(printf %.12s "$tree_head")

# ---- run directory, disks, initramfs ----------------------------------------------
mkdir -p "$run"
find "$run" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
disks=$BUILD/fstests/disks-$label
rm -rf "$disks"
mkdir -p "$disks"
drives=""
for d in test scratch logwrites; do
	truncate -s 4G "$disks/$d.img"
	drives="$drives -drive file=$disks/$d.img,if=none,format=raw,cache=unsafe,id=$d"
	drives="$drives -device virtio-blk-pci,drive=$d,serial=lbs-$d"
done
mkfs.xfs -q -f -b size="$bs" "$disks/test.img" || die "mkfs.xfs -b size=$bs on TEST_DEV failed"
cat >"$run/run.conf" <<EOF
LBS_STAGE2=$HERE/guest-run.sh
FSTESTS_DIR=$fstests
BLOCK_SIZE=$bs
HOST_EPOCH=$(date +%s)
CHECK_ARGS="$check_args"
FSX_OPS=$fsx_ops
FSX_SEED=$fsx_seed
FSX_CAMPAIGNS="$fsx_campaigns"
KERNEL=$kernel
FRAG=$frag
LBS_FRAG_BIN=$frag_bin
FOLIOS_SH=$ROOT/tests/guest/folios.sh
CENSUS_FEW=${named:+few}
TEST_SERIAL=lbs-test
SCRATCH_SERIAL=lbs-scratch
LOGWRITES_SERIAL=lbs-logwrites
EOF
initrd=$("$ROOT/tests/qemu/mkinitramfs.sh" "$BUILD/fstests/initramfs.cpio.gz" "$HERE/guest-init.sh:/test.sh")

# ---- boot ---------------------------------------------------------------------------
# the host's TSC rate: without it the TCG guest may fall back to jiffies and lose time
khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
export LBS_KERNEL_APPEND="${khz:+tsc_early_khz=$khz} tsc=reliable ${LBS_KERNEL_APPEND:-}"
# one vCPU: the kernel is SMP, but without ACPI it finds no second CPU in
# QEMU's tables; the cpus check below fails a run on another number
export LBS_QEMU_MEM="${LBS_QEMU_MEM:-4G}" LBS_QEMU_SMP="${LBS_QEMU_SMP:-1}"
if [ -n "$fsx_ops" ]; then	# about 2 ms an op under TCG, x10 and 3 campaigns
	export LBS_QEMU_TIMEOUT="${LBS_FSTESTS_TIMEOUT:-$((600 + fsx_ops * 3 / 50))}"
elif [ -n "$ntests" ]; then
	export LBS_QEMU_TIMEOUT="${LBS_FSTESTS_TIMEOUT:-$((600 + 1200 * ntests))}"
else
	export LBS_QEMU_TIMEOUT="${LBS_FSTESTS_TIMEOUT:-43200}"
fi
what="check $check_args"
[ -z "$fsx_ops" ] || what="fsx campaigns of $fsx_ops ops"
say "booting $label (timeout ${LBS_QEMU_TIMEOUT}s): $what"
t0=$(date +%s)
boot_rc=0
# shellcheck disable=SC2086
"$ROOT/tests/qemu/boot.sh" "$image" "$initrd" "$run/console.log" \
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
	-virtfs "local,path=$run,mount_tag=results,security_model=none,multidevs=remap" \
	$drives || boot_rc=$?
boot_s=$(($(date +%s) - t0))
rm -rf "$disks"

# ---- results --------------------------------------------------------------------------
first=$(tr -d '\r' <"$run/console.log" | sed -n 's/^LBS-FSTESTS: check start uptime \([0-9.]*\)$/\1/p' | head -n 1)
[ -z "$first" ] || say "boot to check start: ${first}s (guest uptime)"
say "times: kernel ${build_s}s, guest ${boot_s}s (qemu rc $boot_rc), total $(($(date +%s) - t_all))s"
rc=0
# every vCPU asked for must have run the tests
v=$(sh "$ROOT/tests/qemu/cpus-check.sh" "$run/console.log" "$LBS_QEMU_SMP") || true
say "cpus, $label: ${v#* }"
case $v in
pass\ *) ;;
*) say "FAIL: cpus: ${v#* }"; rc=1 ;;
esac
# the guest's folio census (guest-run.sh): "pass|fail WHY"
census=$(cat "$run/folio-census.txt" 2>/dev/null) || census="fail no folio census (the guest did not finish)"
say "folio census, $label: ${census#* }"
case $census in
pass\ *) ;;
*) say "FAIL: folio census: ${census#* }"; rc=1 ;;
esac
if [ -n "$fsx_ops" ]; then
	echo "fsx campaigns, $label (campaign, fsx rc, seconds, xfs_repair -n rc, ops, seed, args):"
	cat "$run/fsx.tsv" 2>/dev/null
	crc=$(cat "$run/check.rc" 2>/dev/null || echo 1)
	[ "$crc" = 0 ] || { say "FAIL: an fsx campaign failed or did not finish ($run)"; rc=1; }
	python3 "$ROOT/tests/qemu/ktap-check.py" "$run/console.log" --no-ktap >"$run/kernel-check.txt" 2>&1 || {
		say "kernel warnings/oops on the console: $run/kernel-check.txt"
		rc=1
	}
	[ "$rc" = 0 ] || exit 1
	exit 0
fi
if [ -n "$named" ]; then set -- --tests "$tests"; else set -- --group-tests "$group_tests"; fi
python3 "$HERE/summarize.py" --run "$run" --expunge "$expunge" --label "$label" \
	--records "$records" --started "$started" --series "$series_head" --commit "$commit" \
	"$@" || rc=$?
# the tree's records changed: results.md follows them at once, so the
# two are committed together (meson test checks they agree)
if [ -z "${LBS_FSTESTS_RECORDS:-}" ]; then
	# compare's 1 is its verdict on the runs (a regression, a run of
	# nothing), which the summary above gives; 2 is records it cannot read
	crc=0
	python3 "$HERE/compare.py" --markdown "$HERE/results.md" >/dev/null 2>&1 || crc=$?
	[ "$crc" -le 1 ] || { say "FAIL: compare.py cannot read the records (exit $crc)"; rc=1; }
fi
if [ ! -f "$run/check.rc" ]; then
	say "FAIL: check did not finish (qemu rc $boot_rc; console: $run/console.log)"
	grep -E 'LBS-FSTESTS|WARNING|BUG|Oops|panic' "$run/console.log" | tail -n 5 >&2 || true
	exit 1
fi
python3 "$ROOT/tests/qemu/ktap-check.py" "$run/console.log" --no-ktap >"$run/kernel-check.txt" 2>&1 || {
	say "kernel warnings/oops on the console: $run/kernel-check.txt"
	head -n 5 "$run/kernel-check.txt" >&2
	rc=1
}
exit "$rc"
