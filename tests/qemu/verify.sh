#!/bin/sh
# Verification suite for XFS block size > PAGE_SIZE (called by `make qemu-verify`).
#
#   verify.sh --kernel ref-6.12|stock-6.1|patched-6.1 [--block-sizes "4096 16384"]
#             [--series DIR] [--name NAME] [--expect KERNEL] [--ops N]
#
#   --kernel K        ref-6.12: pristine linux-source-6.12, kernel-glue/config/ref-6.12.config
#                     stock-6.1: pristine linux-source-6.1, kernel-glue/config/lbs-6.1.config
#                     patched-6.1: 6.1 + the series (default $LBS_BUILD/kernel-patch),
#                       lbs-6.1.config
#                     built by tests/qemu/kernel-image.sh into
#                     $LBS_BUILD/kernel/NAME (powercut.sh boots it too)
#   --block-sizes L   default "4096 8192 16384 32768 65536"
#   --series DIR      patches applied to the tree (default: none, or
#                     $LBS_BUILD/kernel-patch for patched-6.1)
#   --name NAME       worktree build/linux/NAME, output build/qemu/NAME (default K)
#   --expect KEY      expectation key in tests/guest/expect.txt (default K)
#   --ops N           ops per lbs-fsx campaign (default $LBS_OPS or 10000)
#   --fragment PCT    before each block size's tests the guest fragments
#                     PCT% of its free memory (tests/guest/frag.c) and holds
#                     it so: large folio allocations fail and fall back,
#                     which folio-orders then requires to have happened
#   LBS_KERNEL_IMAGE  use this bzImage instead of building (it must be the
#                     kernel named by --kernel; the report says "prebuilt",
#                     unless it is the image qemu-verify built for that
#                     kernel, whose tree HEAD is beside it)
#
# Steps: worktree -> kernel build (skipped when tree, patches and config are
# unchanged: build-kernel.sh stamps) -> static guest binaries
# (tests/guest/build.sh) -> per block size two XFS images made on the host
# (main: 512 MiB pre-filled with "STALEDA\n" before mkfs.xfs -b size=BS -m
# crc=1; runt: 529 MiB with -d agsize=128m, last AG 17 MiB) -> initramfs with
# tests/guest/run-suite.sh as /test.sh -> one QEMU TCG boot for all block sizes
# -> xfs_repair -n of every image ("repair-m<BS>", "repair-r<BS>").
# Differential: per block size lbs-sim records an op trace (LBS_DIFF_OPS ops,
# default --ops, no crashes) and replays it on the host; the guest replays it
# with lbs-fsx on the XFS image, and the file's md5 after drop_caches must be
# lbs-sim's ("differential-sim"): the same trace run on another kernel must
# then end with the same bytes too.
# Writes build/qemu/NAME/report.txt (every LBS-VERIFY line, plus host checks
# with bs "all": kernel-build, boot-complete, kernel-clean; then each crash
# campaign's LBS-CRASHRULES line: what every named crash exception of
# sim/fsx/oracle.h explained, and whether tests/guest/crash-rules.txt allows
# it the kernel) and keeps the full
# console in build/qemu/NAME/console.log. Exit 0 only if no line is "fail":
# a missing result, a timeout, or a kernel warning/oops (ktap-check.py scan)
# is a failure.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"

die() { echo "verify.sh: error: $*" >&2; exit 2; }
say() { echo "verify.sh: $*" >&2; }

kernel="" sizes="4096 8192 16384 32768 65536" series="" name="" expectkey="" ops=${LBS_OPS:-10000} frag=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--block-sizes) sizes=$2; shift 2 ;;
	--series) series=$2; shift 2 ;;
	--name) name=$2; shift 2 ;;
	--expect) expectkey=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	--fragment) frag=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
case $kernel in
ref-6.12 | stock-6.1) ;;
patched-6.1) [ -n "$series" ] || series=$BUILD/kernel-patch ;;
*) die "--kernel must be ref-6.12, stock-6.1 or patched-6.1 (got '$kernel')" ;;
esac
[ -n "$sizes" ] || die "no block sizes"
for bs in $sizes; do
	case $bs in 4096 | 8192 | 16384 | 32768 | 65536) ;; *) die "bad block size '$bs'" ;; esac
done
case $ops in '' | *[!0-9]*) die "--ops must be a number" ;; esac
[ -n "$name" ] || name=$kernel
[ -n "$expectkey" ] || expectkey=$kernel
if [ -z "$series" ]; then
	series=$BUILD/qemu/empty-series
	mkdir -p "$series"
fi
[ -d "$series" ] || die "series dir '$series' not found (patched-6.1: run 'make kernel-patch' first)"

out=$BUILD/qemu/$name
mkdir -p "$out"
report=$out/report.txt console=$out/console.log
: >"$report.tmp"
host() { echo "LBS-VERIFY all $1: $2${3:+ $3}" >>"$report.tmp"; }
finish() {
	# what ran: a report copied into the tree (tests/qemu/record.sh) says
	{
		echo "# verify.sh $(date -u +%Y-%m-%dT%H:%M:%SZ): kernel $kernel ($name), source $(kernel_commit)," \
			"project $(project_commit), block sizes $sizes, $ops ops, seed ${LBS_SEED:-1}${frag:+, fragment $frag}"
		cat "$report.tmp"
	} >"$report"
	rm -f "$report.tmp"
	echo "---- $report ----"
	cat "$report"
	nf=$(grep -c ': fail' "$report" || true)
	say "kernel $kernel ($name), block sizes: $sizes; $(grep -c ': pass' "$report" || true) pass," \
		"$(grep -c ': xfail' "$report" || true) xfail, $(grep -c ': skip' "$report" || true) skip, $nf fail"
	say "times: kernel ${build_s:-?}s, images ${img_s:-?}s, boot ${boot_s:-?}s, total $(($(date +%s) - t_all))s"
	if [ "$nf" -gt 0 ]; then
		say "FAIL (console: $console)"
		exit 1
	fi
	say "PASS"
	exit 0
}
t_all=$(date +%s)
# the kernel's source commit (deterministic for a series: linux-tree.sh),
# and the project's, "+" when tracked files differ from it
kernel_commit() {
	# the image `make qemu-verify` built for KERNEL (make qemu-verify-frag)
	# is of the tree whose HEAD kernel-image.sh wrote beside it; any other
	# image (a negative control's knob kernel) is only "prebuilt"
	if [ "${LBS_KERNEL_IMAGE:-}" = "$BUILD/kernel/$kernel/arch/x86/boot/bzImage" ] &&
		[ -f "$BUILD/kernel/$kernel/.lbs-tree-head" ]; then
		cut -c1-12 "$BUILD/kernel/$kernel/.lbs-tree-head"
	elif [ -n "${LBS_KERNEL_IMAGE:-}" ]; then
		echo "prebuilt:$LBS_KERNEL_IMAGE"
	else
		git -C "$BUILD/linux/$name" rev-parse --short=12 HEAD 2>/dev/null || echo unknown
	fi
}
project_commit() {
	c=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
	[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] || c=$c+
	echo "$c"
}

# ---- kernel ---------------------------------------------------------------
t0=$(date +%s)
if [ -n "${LBS_KERNEL_IMAGE:-}" ]; then
	# a kernel another run built (e.g. to split one matrix over two QEMUs)
	[ -f "$LBS_KERNEL_IMAGE" ] || die "LBS_KERNEL_IMAGE $LBS_KERNEL_IMAGE not found"
	image=$LBS_KERNEL_IMAGE
	host kernel-build pass "prebuilt $image"
elif image=$("$HERE/kernel-image.sh" "$kernel" "$name" "$series"); then
	host kernel-build pass
else
	host kernel-build fail "see $BUILD/kernel/$name/build.log"
	finish
fi
build_s=$(($(date +%s) - t0))
say "kernel build: ${build_s}s wall ($image)"

# ---- guest binaries, images, initramfs -------------------------------------
bins=$("$ROOT/tests/guest/build.sh" "$out/guest")
verify_bin=$out/guest/lbs-verify
# the status of the list itself, not of a pipe's last command; a list
# cut short after "mount" (lbs-verify --list failed) would leave every
# program test unjudged
tests=$(LBS_VERIFY_BIN=$verify_bin sh "$ROOT/tests/guest/run-suite.sh" --list) ||
	die "run-suite.sh --list failed"
tests=$(echo "$tests" | tr '\n' ' ')
case " $tests" in
*" mount "*" stale-buffered "*" differential folio-orders ") ;;
*) die "run-suite.sh --list gave an incomplete list: $tests" ;;
esac

t0=$(date +%s)
drives=""
for bs in $sizes; do
	m=$out/img-m$bs.img r=$out/img-r$bs.img
	rm -f "$m" "$r"
	# stale pattern over the whole device, then mkfs: stale exposure shows as "STALEDA\n"
	yes STALEDA | head -c 512M >"$m"
	mkfs.xfs -q -f -b size="$bs" -m crc=1 "$m" || die "mkfs.xfs -b size=$bs failed"
	truncate -s 529M "$r"
	mkfs.xfs -q -f -b size="$bs" -m crc=1 -d agsize=128m "$r" || die "mkfs.xfs runt AG -b size=$bs failed"
	# serial= on -device (this QEMU refuses it on -drive); the guest finds disks by serial
	drives="$drives -drive file=$m,if=none,format=raw,id=m$bs -device virtio-blk-pci,drive=m$bs,serial=m$bs"
	drives="$drives -drive file=$r,if=none,format=raw,id=r$bs -device virtio-blk-pci,drive=r$bs,serial=r$bs"
done
img_s=$(($(date +%s) - t0))

# differential traces: lbs-sim records one op list per block size and
# replays it to get the final bytes the guest's replay must end with
sim=$BUILD/meson/sim/lbs-sim
diff_ops=${LBS_DIFF_OPS:-$ops} diff_fsize=1048576
diffspecs=""
for bs in $sizes; do
	tr=$out/guest/diff-$bs.fsxops
	"$sim" fsx --block-size "$bs" --page-size 4096 --ops "$diff_ops" \
		--seed $((${LBS_SEED:-1} + 7 * bs)) --no-crash --quiet --record-ops "$tr" >&2 ||
		die "lbs-sim fsx (differential trace, bs $bs) failed"
	# fsx's own lines only, as fstests' fsx would replay them: the
	# "# lbs-sim" notes make a short write fault where the sim did, and
	# how many bytes the kernel copies then is the kernel's choice
	sed -i '/^# lbs-sim /d' "$tr"
	"$sim" replay --block-size "$bs" --page-size 4096 --file-size "$diff_fsize" \
		--final "$out/guest/diff-$bs.final" "$tr" >/dev/null ||
		die "lbs-sim replay of $tr failed"
	md5sum "$out/guest/diff-$bs.final" | cut -d' ' -f1 >"$out/guest/diff-$bs.md5"
	diffspecs="$diffspecs $tr:/lbs/diff-$bs.fsxops"
done

cfg=$out/guest/config
{
	echo "KERNEL=$expectkey"
	echo "BLOCK_SIZES=\"$sizes\""
	echo "LBS_OPS=$ops"
	echo "LBS_SEED=${LBS_SEED:-1}"
	echo "LBS_DIFF_FILE_SIZE=$diff_fsize"
	echo "LBS_FRAG=$frag"
} >"$cfg"
# shellcheck disable=SC2086
initrd=$("$HERE/mkinitramfs.sh" "$out/initramfs.cpio.gz" "$ROOT/tests/guest/run-suite.sh:/test.sh" "$ROOT/tests/guest/folios.sh:/lbs/folios.sh" \
	"$cfg:/lbs/config" "$ROOT/tests/guest/expect.txt:/lbs/expect.txt" \
	"$ROOT/tests/guest/crash-rules.txt:/lbs/crash-rules.txt" \
	"$ROOT/tests/guest/campaign-args.txt:/lbs/campaign-args.txt" $bins $diffspecs)

# ---- boot -------------------------------------------------------------------
nbs=$(echo "$sizes" | wc -w)
export LBS_QEMU_TIMEOUT="${LBS_QEMU_TIMEOUT:-$((240 + nbs * (300 + ops / 15)))}"
export LBS_QEMU_MEM="${LBS_QEMU_MEM:-1G}"
# one vCPU: the suite's kernel is uniprocessor (lbs-6.1.config). On two,
# tests/guest/frag.c's fragmented memory has left no order-2 block for a
# new task's stack and the OOM killer ran; that comes first
export LBS_QEMU_SMP="${LBS_QEMU_SMP:-1}"
say "booting (timeout ${LBS_QEMU_TIMEOUT}s, $nbs block sizes, $ops fsx ops per campaign)"
t0=$(date +%s)
boot_rc=0
# shellcheck disable=SC2086
"$HERE/boot.sh" "$image" "$initrd" "$console" $drives || boot_rc=$?
boot_s=$(($(date +%s) - t0))

# ---- collect ------------------------------------------------------------------
clean=$out/console.txt
tr -d '\r' <"$console" >"$clean"
if [ "$boot_rc" -eq 0 ] && grep -q '^LBS-TEST: end verify' "$clean" && grep -q '^LBS-INIT: reboot' "$clean"; then
	host boot-complete pass "${boot_s}s"
elif [ "$boot_rc" -eq 124 ]; then
	host boot-complete fail "timeout after ${LBS_QEMU_TIMEOUT}s: $(grep -E '^LBS-(TEST|VERIFY)' "$clean" | tail -n 1)"
else
	host boot-complete fail "qemu exit $boot_rc or the suite did not finish: $(grep -E '^LBS-(TEST|VERIFY)' "$clean" | tail -n 1)"
fi
# the guest must have run on every vCPU asked for
v=$(sh "$HERE/cpus-check.sh" "$clean" "$LBS_QEMU_SMP") || true
host cpus "${v%% *}" "${v#* }"
krc=0
python3 "$HERE/ktap-check.py" "$clean" --no-ktap >"$out/kernel-check.txt" 2>&1 || krc=$?
if [ "$krc" -eq 0 ]; then
	host kernel-clean pass
else
	host kernel-clean fail "$(head -n 3 "$out/kernel-check.txt" | tr '\n' ' ')"
fi
# the series' KUnit suite runs at boot of the patched kernel
if [ "$kernel" = patched-6.1 ]; then
	krc=0
	python3 "$HERE/ktap-check.py" "$clean" --no-oops --suite lbs_core >"$out/kunit-check.txt" 2>&1 || krc=$?
	if [ "$krc" -eq 0 ]; then
		host kunit-lbs_core pass
	else
		host kunit-lbs_core fail "$(head -n 3 "$out/kunit-check.txt" | tr '\n' ' ')"
	fi
fi
for bs in $sizes; do
	for t in $tests; do
		l=$(grep -E "^LBS-VERIFY $bs $t: " "$clean" || true)
		case $(printf '%s\n' "$l" | grep -c .) in
		0) echo "LBS-VERIFY $bs $t: fail missing result" >>"$report.tmp" ;;
		1) printf '%s\n' "$l" >>"$report.tmp" ;;
		*) printf '%s\n' "$l" | head -n 1 >>"$report.tmp"
			echo "LBS-VERIFY $bs $t-duplicate: fail more than one result line" >>"$report.tmp" ;;
		esac
	done
	# anything else the guest reported for this block size (e.g. umount failures)
	grep -E "^LBS-VERIFY $bs [^ ]+: " "$clean" | while read -r _ _ t _; do
		case " $tests " in *" ${t%:} "*) ;; *) grep -E "^LBS-VERIFY $bs ${t%:}: " "$clean" ;; esac
	done >>"$report.tmp" || true
done
# differential: the guest's final bytes must be lbs-sim's
for bs in $sizes; do
	want=$(cat "$out/guest/diff-$bs.md5")
	got=$(sed -n "s/^LBS-DIFF $bs md5 \([0-9a-f]*\)\$/\1/p" "$clean" | head -n 1)
	gst=$(sed -n "s/^LBS-VERIFY $bs differential: \([a-z]*\).*/\1/p" "$clean" | head -n 1)
	if { [ -z "$got" ] && [ "$gst" = skip ]; } || [ "$gst" = xfail ]; then
		echo "LBS-VERIFY $bs differential-sim: skip the guest's differential was $gst" >>"$report.tmp"
	elif [ -z "$got" ]; then
		echo "LBS-VERIFY $bs differential-sim: fail no LBS-DIFF line from the guest" >>"$report.tmp"
	elif [ "$got" = "$want" ]; then
		echo "LBS-VERIFY $bs differential-sim: pass md5 $got = lbs-sim" >>"$report.tmp"
	else
		echo "LBS-VERIFY $bs differential-sim: fail md5 $got, lbs-sim $want (trace $out/guest/diff-$bs.fsxops)" >>"$report.tmp"
	fi
done
# what the named crash exceptions explained, per campaign (sim/fsx/oracle.h)
grep -E '^LBS-CRASHRULES [0-9]+ [a-z-]+ ' "$clean" >>"$report.tmp" || true
# malformed result lines (e.g. interleaved with kernel output) must not hide
if grep -E 'LBS-VERIFY' "$clean" | grep -vqE '^LBS-VERIFY [0-9]+ [a-z0-9-]+: (pass|fail|xfail|skip)( |$)'; then
	host result-lines fail "malformed LBS-VERIFY lines: $(grep -E 'LBS-VERIFY' "$clean" |
		grep -vE '^LBS-VERIFY [0-9]+ [a-z0-9-]+: (pass|fail|xfail|skip)( |$)' | head -n 2 | tr '\n' ' ')"
fi
# every image the guest used must be clean to xfs_repair -n (the log too:
# the guest unmounts, so a dirty log is a failure)
for bs in $sizes; do
	for k in m r; do
		img=$out/img-$k$bs.img
		v=$(sh "$HERE/repair-check.sh" "$img" "$out/repair-$k$bs.txt") || true
		[ -n "$v" ] || v="fail repair-check.sh gave no verdict on $img"
		host "repair-$k$bs" "${v%% *}" "${v#* }"
	done
done
rm -f "$out"/img-*.img
finish
