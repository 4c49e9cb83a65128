#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On-demand benchmark (not a test; see bench/README.md): a few-percent
# question about buffered sequential I/O, answered with repeats inside each
# boot, which take out the boot-to-boot spread of a TCG guest (up to 30 %).
#
#   bench/kernel-repeat.sh [--pairs "KERNEL:BS ..."] [--series DIR] [--insns]
#       (env: LBS_BUILD=build BOOTS=4 REPEATS=6 SIZE_MB=512 LBS_QEMU_MEM=2G
#        LBS_QEMU_TIMEOUT=1200 BUILD_NICE=10 INSN_PROFILE=write)
#
# Kernels and pairs as in bench/kernel-fio.sh (the benchmark kernels;
# default pairs patched-6.1:4096 stock-6.1:4096). BOOTS boots per pair,
# the pairs alternated boot by boot; in each boot bench/kernel-repeat-guest.sh
# writes SIZE_MB MiB with dd bs=1M conv=fsync into a new file and reads it
# back cold, REPEATS times. The first repeat of a boot is left out of the
# summary (a cold boot's page cache and allocator).
#
# --insns: also count the guest instructions each dd makes the guest
# execute (bench/qemu-insn.c, a TCG plugin; one vCPU), which neither code
# layout nor TCG's slow boots move, and profile them per kernel symbol
# over the writes (INSN_PROFILE=read: the reads) of repeats 2 and later
# (bench/insn-profile.py). The plugin slows the guest: read the times of
# such a run as the counts' companions only.
#
# Output: per boot the times, then per pair the median and best of the
# repeats and each pair's median time over the first pair's (< 1: that
# pair is faster), with --insns the same for the instruction counts and
# their spread; stdout and $LBS_BUILD/bench/kernel-repeat.txt, the
# profile in $LBS_BUILD/bench/kernel-repeat-insn-prof.txt; consoles in
# $LBS_BUILD/bench/kernel-repeat/. Exit 0 when every boot
# completed with rc=0 and no kernel warning; 1 otherwise; 2 on bad arguments.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"
Q=$ROOT/tests/qemu

die() { echo "kernel-repeat.sh: error: $*" >&2; exit 2; }
say() { echo "kernel-repeat.sh: $*" >&2; }
# shellcheck source=bench/kernel-pairs.sh
. "$HERE/kernel-pairs.sh"

pairs="patched-6.1:4096 stock-6.1:4096"
pseries=$BUILD/kernel-patch
insns=0
while [ $# -gt 0 ]; do
	case $1 in
	--pairs) [ $# -ge 2 ] || die "--pairs needs a value"; pairs=$2; shift 2 ;;
	--series) [ $# -ge 2 ] || die "--series needs a value"; pseries=$2; shift 2 ;;
	--insns) insns=1; shift ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
BOOTS=${BOOTS:-4} REPEATS=${REPEATS:-6} SIZE_MB=${SIZE_MB:-512}
INSN_PROFILE=${INSN_PROFILE:-write}
case $INSN_PROFILE in write | read) ;; *) die "INSN_PROFILE must be write or read" ;; esac
case $BOOTS$REPEATS$SIZE_MB in *[!0-9]* | '') die "BOOTS, REPEATS and SIZE_MB must be numbers" ;; esac
{ [ "$BOOTS" -ge 1 ] && [ "$REPEATS" -ge 2 ] && [ "$SIZE_MB" -ge 1 ]; } ||
	die "need BOOTS >= 1, REPEATS >= 2 (the first is left out), SIZE_MB >= 1"
check_pairs "$pairs"
[ "$insns" = 0 ] || [ "${LBS_QEMU_SMP:-1}" = 1 ] ||
	die "--insns counts exactly with one vCPU only (LBS_QEMU_SMP=1)"
export LBS_QEMU_MEM="${LBS_QEMU_MEM:-2G}"
export LBS_QEMU_TIMEOUT="${LBS_QEMU_TIMEOUT:-1200}"

sh "$ROOT/scripts/install-deps.sh"
pin_guest_tsc
out=$BUILD/bench/kernel-repeat
mkdir -p "$out"
build_bench_kernels "$pseries"
printf 'SIZE_MB=%s\nREPEATS=%s\nINSNS=%s\nINSN_PROFILE=%s\n' "$SIZE_MB" "$REPEATS" "$insns" \
	"$INSN_PROFILE" >"$out/repeat.conf"
extra=""
if [ "$insns" = 1 ]; then
	g=$out/guest
	build_insn_tools "$g"
	extra="$g/lbs-mark:/bin/lbs-mark"
fi
# shellcheck disable=SC2086
initrd=$("$Q/mkinitramfs.sh" "$out/initramfs.cpio.gz" \
	"$HERE/kernel-repeat-guest.sh:/test.sh" "$out/repeat.conf:/lbs/repeat.conf" $extra)

bad=0
results=$out/results.txt
iresults=$out/results-insn.txt
: >"$results"
: >"$iresults"
profs=""
b=1
while [ "$b" -le "$BOOTS" ]; do
	for p in $pairs; do
		k=${p%%:*} bs=${p#*:}
		log=$out/$k-$bs-b$b.log
		rc=0
		set --
		if [ "$insns" = 1 ]; then
			rm -f "$log.insn"
			set -- -plugin "$g/qemu-insn.so,out=$log.insn,prof=1"
		fi
		boot_fresh_xfs "$k" "$bs" "$initrd" "$out/disk.img" "$log" "$@" >/dev/null || rc=$?
		end=$(grep '^LBS-REPEAT: end' "$log" || true)
		if [ "$rc" -ne 0 ] || [ "$end" != "LBS-REPEAT: end rc=0" ] ||
			! python3 "$Q/ktap-check.py" "$log" --no-ktap >"$log.kcheck" 2>&1; then
			say "boot $b $k $bs failed: qemu rc $rc, ${end:-no end marker} (console: $log)"
			bad=1
		fi
		if [ "$insns" = 1 ]; then
			# four marks a repeat: before and after the write, then the read
			if ! grep -q "^LBS-INSN end marks=$((4 * REPEATS)) " "$log.insn" 2>/dev/null; then
				say "boot $b $k $bs: instruction counts incomplete ($log.insn)"
				bad=1
			else
				awk -v k="$k" -v s="$bs" -v b="$b" '
					/^LBS-INSN mark=/ { sub(/.*total=/, ""); t[++n] = $1 }
					END { for (i = 1; i + 3 <= n; i += 4)
						print k, s, b, (i + 3) / 4, t[i + 1] - t[i], t[i + 3] - t[i + 2] }' \
					"$log.insn" >>"$iresults"
				profs="$profs $k:$bs:$log.insn"
			fi
		fi
		sed -n "s/^LBS-REPEAT r=\([0-9]*\) write_cs=\([0-9]*\) read_cs=\([0-9]*\)$/$k $bs $b \1 \2 \3/p" \
			"$log" >>"$results"
		say "boot $b: $k $bs: $(awk -v k="$k" -v s="$bs" -v b="$b" \
			'$1 == k && $2 == s && $3 == b { w = w " " $5 } END { print "write_cs" w }' "$results")"
	done
	b=$((b + 1))
done

txt=$BUILD/bench/kernel-repeat.txt
{
	echo "kernel-repeat: $SIZE_MB MiB dd bs=1M conv=fsync write and cold read, $REPEATS repeats a boot (first left out), $BOOTS boots a pair, alternated; $(date -u '+%Y-%m-%d %H:%M')"
	# shellcheck disable=SC2086
	# shellcheck disable=SC2086
	python3 "$HERE/kernel-repeat-report.py" "$results" "$iresults" $pairs
} >"$txt"
cat "$txt"
if [ "$insns" = 1 ] && [ -n "$profs" ]; then
	# shellcheck disable=SC2086
	insn_profile "$BUILD/bench/kernel-repeat-insn-prof.txt" $profs ||
		{ say "insn-profile.py failed"; bad=1; }
	say "profile: $BUILD/bench/kernel-repeat-insn-prof.txt"
fi
exit "$bad"
