#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On-demand benchmark (not a test; see bench/README.md): fio inside QEMU TCG
# on an XFS image, the same jobs on several kernel/block-size pairs in one run.
#
#   bench/kernel-fio.sh [--pairs "KERNEL:BS ..."] [--series DIR] [--profile] [--insns]
#       (env: LBS_BUILD=build ROUNDS=3 SIZE_MB=128 LBS_QEMU_MEM=2G
#        LBS_QEMU_TIMEOUT=1200 BUILD_NICE=10 LBS_JOBS=nproc INSN_PROFILE=
#        DIRTY_MB= MOUNT_OPTS= LBS_BENCH_RECORDS=bench/records)
#
#   KERNEL: patched-6.1 (6.1 + the series in DIR, default
#   $LBS_BUILD/kernel-patch from make kernel-patch), stock-6.1 (pristine
#   6.1, BS 4096 only) or ref-6.12 (pristine 6.12). Default pairs:
#   patched-6.1 and ref-6.12 at 65536, 16384 and 4096, stock-6.1 at 4096.
#
# Kernels: the benchmark kernels, the test kernel's fragment plus
# kernel-glue/config/bench.config (no XFS_DEBUG, lockdep or KUnit; THP),
# built by tests/qemu/kernel-image.sh --bench into $LBS_BUILD/kernel/K-bench
# (skipped when its stamp matches). Guest: one busybox initramfs for all
# kernels with bench/kernel-fio-guest.sh as /test.sh, Debian's /usr/bin/fio
# with the shared libraries ldd lists and the dynamic loader,
# bench/kernel-fio-shm.c (LD_PRELOAD: no SysV IPC or timerfd in these
# kernels, which fio needs) and bench/kernel-fio-clone.c (/bin/lbs-clone,
# for the reflink job). Per pair and round: a fresh 4 GiB sparse image,
# mkfs.xfs -b size=BS (mkfs defaults otherwise: reflink on), one QEMU TCG
# boot under a timeout. Rounds are interleaved, and each round starts one
# pair later than the one before, so a drift in the host's load spreads
# over the pairs; the report gives the median and the spread of each cell.
#
# --profile: every job runs under `perf record -a -g -e cpu-clock` (a
# software clock: TCG has no PMU) and the console carries perf report's top
# symbols, self and with callees, per job (Debian's perf and its libraries
# join the initramfs). perf costs time of its own: a profiled run's MB/s
# are not the benchmark's figures. Every run records each job's XFS and VM
# event counters; bench/kernel-fio-profile.py sets counters (and profiles)
# of the pairs side by side in $LBS_BUILD/bench/kernel-fio-work.txt.
#
# --insns: QEMU counts the instructions the guest's kernel executes in each
# job and its final sync (bench/qemu-insn.c, a TCG plugin, one vCPU; the
# guest marks each job with bench/insn-mark.c). Unlike MB/s under TCG the
# count moves neither with code layout nor from boot to boot (0.1-0.3 %
# over the rounds), so it settles a few-percent question; the report adds
# its tables. The plugin slows the guest: MB/s of such a run are its
# companions, not the benchmark's figures. The host appends
# "LBS-BENCH-INSN JOB kernel=K total=T" lines to each console. With
# INSN_PROFILE=JOB (seqwrite, seqread, randwrite, dio-randwrite,
# reflink-randwrite) that job's instructions are also profiled per kernel
# symbol (bench/insn-profile.py) into $LBS_BUILD/bench/kernel-fio-insn-prof.txt.
# DIRTY_MB=N: the guest's background writeback starts only past N MiB of
# dirty pages (dirty limit 2N), so jobs smaller than N write back at their
# fsync alone: their work then does not depend on the flusher's timing,
# which follows the guest's speed. Not what a default system does.
# MOUNT_OPTS=OPTS: mount the bench filesystem with -o OPTS (e.g. lazytime:
# no transaction per clock tick for the timestamps a write updates, whose
# number follows the job's duration under TCG). Not a default system either.
# FRAG=PCT: before the jobs the guest pins every other page of PCT% of its
# free memory and takes the rest in huge pages (tests/guest/frag.c), so
# large folio allocations fail: what each kernel does when memory is
# fragmented (errors, throughput).  The record's run name ends in -frag.
#
# Output: the tables on stdout and in $LBS_BUILD/bench/kernel-fio.txt;
# consoles in $LBS_BUILD/bench/kernel-fio/KERNEL-BS-rN.log; and the run's
# record, bench/records/RUN.tsv (LBS_BENCH_RECORDS: another directory,
# relative to the project's top), RUN being the UTC start time and the
# mode (insns or mbs, knobs or default, profile): the parameters, the
# project's and each kernel's commit, and per pair, round and job the
# values the tables are computed from (format: bench/kernel_records.py).
# The summary in README.md and bench/README.md is generated from the
# records (make bench-summary). Exit 0 when
# every boot completed, every fio job succeeded and no console shows a
# kernel warning (tests/qemu/ktap-check.py); 1 otherwise (the tables are
# still written, failed cells are "-"); 2 on bad arguments.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"
Q=$ROOT/tests/qemu

die() { echo "kernel-fio.sh: error: $*" >&2; exit 2; }
say() { echo "kernel-fio.sh: $*" >&2; }
# shellcheck source=bench/kernel-pairs.sh
. "$HERE/kernel-pairs.sh"

pairs="patched-6.1:65536 ref-6.12:65536 patched-6.1:16384 ref-6.12:16384 patched-6.1:4096 ref-6.12:4096 stock-6.1:4096"
pseries=$BUILD/kernel-patch
profile=0
insns=0
while [ $# -gt 0 ]; do
	case $1 in
	--pairs) [ $# -ge 2 ] || die "--pairs needs a value"; pairs=$2; shift 2 ;;
	--series) [ $# -ge 2 ] || die "--series needs a value"; pseries=$2; shift 2 ;;
	--profile) profile=1; shift ;;
	--insns) insns=1; shift ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
ROUNDS=${ROUNDS:-3} SIZE_MB=${SIZE_MB:-128}
case $ROUNDS$SIZE_MB in *[!0-9]* | '') die "ROUNDS and SIZE_MB must be numbers" ;; esac
case ${DIRTY_MB:-0} in *[!0-9]* | '') die "DIRTY_MB must be a number of MiB" ;; esac
case ${MOUNT_OPTS:-} in *[!a-z0-9_,=]*) die "MOUNT_OPTS must be mount options (a-z, 0-9, _ , =)" ;; esac
case ${FRAG:-} in '') ;; *[!0-9]*) die "FRAG must be a percentage" ;; esac
{ [ "$ROUNDS" -ge 1 ] && [ "$SIZE_MB" -ge 1 ]; } || die "ROUNDS and SIZE_MB must be at least 1"
check_pairs "$pairs"
[ "$insns" = 0 ] || [ "${LBS_QEMU_SMP:-1}" = 1 ] ||
	die "--insns counts exactly with one vCPU only (LBS_QEMU_SMP=1)"
INSN_PROFILE=${INSN_PROFILE:-}
case $INSN_PROFILE in
'' | seqwrite | seqread | randwrite | dio-randwrite | reflink-randwrite) ;;
*) die "INSN_PROFILE must name a job (seqwrite, seqread, randwrite, dio-randwrite, reflink-randwrite)" ;;
esac
[ -z "$INSN_PROFILE" ] || [ "$insns" = 1 ] || die "INSN_PROFILE needs --insns"
export LBS_QEMU_MEM="${LBS_QEMU_MEM:-2G}"
export LBS_QEMU_TIMEOUT="${LBS_QEMU_TIMEOUT:-1200}"

# ---- the run's record: its name and the project's commit, taken at the start ----
records=${LBS_BENCH_RECORDS:-bench/records}
case $records in /*) ;; *) records=$ROOT/$records ;; esac
project=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null | cut -c1-12)
[ ${#project} = 12 ] || die "$ROOT is not a git checkout: a run's record names the project's commit"
# "+": tracked files differ from that commit (new records are untracked)
[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ] || project=$project+
tag=$([ "$insns" = 1 ] && echo insns || echo mbs)-$([ -n "${DIRTY_MB:-}${MOUNT_OPTS:-}" ] && echo knobs || echo default)
[ -z "${FRAG:-}" ] || tag=$tag-frag
[ "$profile" = 0 ] || tag=$tag-profile
run=$(date -u +%Y%m%dT%H%M%SZ)-$tag
mkdir -p "$records" || die "cannot make the records directory $records"
[ ! -e "$records/$run.tsv" ] || die "$records/$run.tsv exists already"

t_all=$(date +%s)
sh "$ROOT/scripts/install-deps.sh"
command -v fio >/dev/null || die "no fio after scripts/install-deps.sh"
pin_guest_tsc

out=$BUILD/bench/kernel-fio
mkdir -p "$out"

# ---- kernels: the test kernels' fragments plus bench.config -------------------
build_bench_kernels "$pseries"
# each kernel's source commit, for the record (kernel-image.sh --bench
# builds kernel K from the worktree $BUILD/linux/K)
kcommits=""
for k in $kernels; do
	c=$(git -C "$BUILD/linux/$k" rev-parse HEAD 2>/dev/null | cut -c1-12)
	[ ${#c} = 12 ] || die "no source commit for $k in $BUILD/linux/$k"
	kcommits="$kcommits --kernel-commit $k=$c"
done

# ---- initramfs: fio, its libraries, the loader, the shm shim -----------------
g=$out/guest
mkdir -p "$g"
${CC:-gcc} -O2 -Wall -Wextra -Werror -shared -fPIC -o "$g/lbs-fio-shm.so" "$HERE/kernel-fio-shm.c"
${CC:-gcc} -std=c11 -O2 -Wall -Wextra -Werror -o "$g/lbs-clone" "$HERE/kernel-fio-clone.c"
fio=$(command -v fio)
bins=$fio
specs="$fio:/bin/fio $g/lbs-fio-shm.so:/lib/lbs-fio-shm.so $g/lbs-clone:/bin/lbs-clone"
if [ -n "${FRAG:-}" ]; then
	${CC:-gcc} -static -O2 -Wall -Wextra -Werror -o "$g/lbs-frag" "$ROOT/tests/guest/frag.c"
	specs="$specs $g/lbs-frag:/bin/lbs-frag"
fi
if [ "$insns" = 1 ]; then
	build_insn_tools "$g"
	specs="$specs $g/lbs-mark:/bin/lbs-mark"
fi
if [ "$profile" = 1 ]; then
	perf=$(command -v perf) || die "no perf after scripts/install-deps.sh"
	bins="$bins $perf"
	specs="$specs $perf:/bin/perf"
fi
# shellcheck disable=SC2086
libs=$(for b in $bins; do ldd "$b"; done |
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' | sort -u)
[ -n "$libs" ] || die "ldd listed no libraries for $bins"
for l in $libs; do specs="$specs $l:$l"; done
printf 'SIZE_MB=%s\nPROFILE=%s\nINSNS=%s\nINSN_PROFILE=%s\nDIRTY_MB=%s\nMOUNT_OPTS=%s\nFRAG=%s\n' \
	"$SIZE_MB" "$profile" "$insns" "$INSN_PROFILE" "${DIRTY_MB:-}" "${MOUNT_OPTS:-}" "${FRAG:-}" >"$g/bench.conf"
# shellcheck disable=SC2086
initrd=$("$Q/mkinitramfs.sh" "$g/initramfs.cpio.gz" \
	"$HERE/kernel-fio-guest.sh:/test.sh" "$g/bench.conf:/lbs/bench.conf" \
	"$ROOT/tests/guest/folios.sh:/lbs/folios.sh" $specs)
say "initramfs: fio $(fio --version), $(echo "$libs" | wc -l) libraries, $(du -h "$initrd" | cut -f1) compressed"

# insn_lines CONSOLE PLUGIN_OUT: an "LBS-BENCH-INSN JOB kernel=K total=T" line
# per job, the guest's "LBS-BENCH-MARKED JOB" lines taken in order with the
# plugin's marks, two a job; fails if the numbers do not match
insn_lines() {
	grep -q '^LBS-INSN end ' "$2" 2>/dev/null || return 1
	awk 'FNR == NR { if ($1 == "LBS-BENCH-MARKED") job[++nj] = $2; next }
		$1 == "LBS-INSN" && $2 ~ /^mark=/ {
			sub(/^total=/, "", $4); sub(/^kernel=/, "", $5); t[++nm] = $4; kn[nm] = $5 }
		END {
			if (nj == 0 || nm != 2 * nj) exit 1
			for (i = 1; i <= nj; i++)
				printf "LBS-BENCH-INSN %s kernel=%d total=%d\n", job[i],
					kn[2 * i] - kn[2 * i - 1], t[2 * i] - t[2 * i - 1]
		}' "$1" "$2"
}

# ---- boots, interleaved; round r starts at pair r ----------------------------
bad=0
consoles=""
npairs=$(echo "$pairs" | wc -w)
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# shellcheck disable=SC2086
	order=$(echo $pairs | tr ' ' '\n' | awk -v n="$npairs" -v s="$(((r - 1) % npairs))" \
		'{ p[NR - 1] = $0 } END { for (i = 0; i < n; i++) print p[(i + s) % n] }')
	for p in $order; do
		k=${p%%:*} bs=${p#*:}
		log=$out/$k-$bs-r$r.log
		say "round $r/$ROUNDS: $k, XFS bs $bs (timeout ${LBS_QEMU_TIMEOUT}s)"
		t0=$(date +%s)
		rc=0
		set --
		if [ "$insns" = 1 ]; then
			rm -f "$log.insn"
			set -- -plugin "$g/qemu-insn.so,out=$log.insn,prof=$([ -n "$INSN_PROFILE" ] && echo 1 || echo 0)"
		fi
		boot_fresh_xfs "$k" "$bs" "$initrd" "$out/$k-$bs.img" "$log" "$@" || rc=$?
		if [ "$insns" = 1 ]; then
			if insn_lines "$log" "$log.insn" >"$log.lines"; then
				cat "$log.lines" >>"$log"
			else
				say "$k $bs round $r: instruction counts incomplete ($log.insn)"
				bad=1
			fi
			rm -f "$log.lines"
		fi
		end=$(grep '^LBS-BENCH: end' "$log" || true)
		say "round $r: $k $bs: qemu rc $rc, $(($(date +%s) - t0))s, ${end:-no end marker}"
		if [ "$rc" -ne 0 ] || [ "$end" != "LBS-BENCH: end rc=0" ]; then
			bad=1
			tail -n 20 "$log" >&2
		fi
		if ! python3 "$Q/ktap-check.py" "$log" --no-ktap >"$log.kcheck" 2>&1; then
			say "kernel warnings on $k $bs round $r: $(head -n 3 "$log.kcheck" | tr '\n' ' ')"
			bad=1
		fi
		consoles="$consoles $k:$bs:$log"
	done
	r=$((r + 1))
done

# ---- report --------------------------------------------------------------------
txt=$BUILD/bench/kernel-fio.txt
failed=""
[ "$bad" = 0 ] || failed=--failed
# shellcheck disable=SC2086
python3 "$HERE/kernel-fio-report.py" --size-mb "$SIZE_MB" --mem "$LBS_QEMU_MEM" \
	--wall "$(($(date +%s) - t_all))" --record "$records/$run.tsv" --param run="$run" \
	--param dirty_mb="${DIRTY_MB:-}" --param mount_opts="${MOUNT_OPTS:-}" --param frag="${FRAG:-}" \
	--param insns="$insns" --param profile="$profile" --param insn_profile="$INSN_PROFILE" \
	--param project="$project" $kcommits $failed $consoles >"$txt.tmp" || bad=1
mv "$txt.tmp" "$txt"
cat "$txt"
# shellcheck disable=SC2086
python3 "$HERE/kernel-fio-profile.py" $consoles >"$txt.work.tmp" || bad=1
mv "$txt.work.tmp" "$BUILD/bench/kernel-fio-work.txt"
say "counters$([ "$profile" = 0 ] || echo " and profiles"): $BUILD/bench/kernel-fio-work.txt"
if [ -n "$INSN_PROFILE" ]; then
	profs=""
	for c in $consoles; do profs="$profs $c.insn"; done
	# shellcheck disable=SC2086
	insn_profile "$BUILD/bench/kernel-fio-insn-prof.txt" $profs || bad=1
	say "instruction profile of $INSN_PROFILE: $BUILD/bench/kernel-fio-insn-prof.txt"
fi
say "table: $txt; consoles: $out/*.log; total $(($(date +%s) - t_all))s"
if [ -e "$records/$run.tsv" ]; then
	say "record: $records/$run.tsv ($(awk -F '\t' '$1 == "# status" { print $2 }' "$records/$run.tsv")); make bench-summary regenerates the summary from the records"
else
	say "no record written (see the ERROR lines above)"
fi
exit "$bad"
