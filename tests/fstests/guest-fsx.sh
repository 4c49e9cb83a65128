#!/bin/bash
# fstests' own fsx, run directly in the fstests guest (make fstests-fsx):
# long campaigns that check's fsx tests do not make.  Called by
# guest-run.sh, chrooted in the overlay root, after the harness set up
# what a normal system has.
#
#   guest-fsx.sh RESULTS_DIR SCRATCH_DEV
#
# Environment (from run.conf): FSTESTS_DIR, BLOCK_SIZE, FSX_OPS, FSX_SEED,
# FSX_CAMPAIGNS (names below; default all).  Each campaign gets a fresh
# `mkfs.xfs -b size=BLOCK_SIZE` (mkfs defaults otherwise: reflink on, so
# fsx turns clone, dedupe and copy_range on by itself), one mount, one fsx
# run, an unmount and `xfs_repair -n`.  Writes RESULTS_DIR/fsx.tsv (name,
# fsx rc, seconds, repair rc, ops, seed, args) and, for a failing
# campaign, fsx's .fsxlog, .fsxops and .fsxgood there.
set -u
results=$1 scratch=$2
say() { echo "LBS-FSTESTS: $*"; }
fsx=$FSTESTS_DIR/ltp/fsx
ops=${FSX_OPS:-100000} seed=${FSX_SEED:-1}
mnt=/mnt/scratch

# name and fsx arguments; -0: no exchange range (6.1 has none), so every
# kernel runs the same op streams (as FSX_AVOID in the check runs)
campaigns="buffered-mmap dio eof-pollute wide"
args_of() {
	case $1 in
	buffered-mmap) echo "" ;;
	dio) echo "-Z -R -W -r 4096 -w 4096 -t 4096" ;;
	eof-pollute) echo "-e 1" ;;
	# fsx's defaults (-o 64k, -l 256k) round most clone, dedupe and
	# copy lengths to nothing at 64k blocks: ops of up to 4 such blocks
	# in a file of up to 2 MiB share blocks at every block size
	wide) echo "-o 262144 -l 2097152" ;;
	*) return 1 ;;
	esac
}
want=${FSX_CAMPAIGNS:-$campaigns}
for c in $want; do
	args_of "$c" >/dev/null || { say "fsx fail unknown campaign $c"; exit 2; }
done

: >"$results/fsx.tsv"
rc_all=0
for c in $want; do
	args=$(args_of "$c")
	mkfs.xfs -q -f -b size="$BLOCK_SIZE" "$scratch" || { say "fsx fail mkfs"; exit 1; }
	mount "$scratch" "$mnt" || { say "fsx fail mount"; exit 1; }
	say "fsx start $c: -N $ops -S $seed $args"
	t0=$(date +%s)
	# shellcheck disable=SC2086
	"$fsx" -q -0 -N "$ops" -S "$seed" -P "$mnt" $args "$mnt/fsx.$c" \
		>"$results/fsx-$c.out" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	[ "$rc" -eq 0 ] || cp "$mnt/fsx.$c".fsx* "$results/" 2>/dev/null
	umount "$mnt" || { say "fsx fail umount"; exit 1; }
	xfs_repair -n "$scratch" >"$results/repair-$c.out" 2>&1
	repair=$?
	say "fsx end $c rc=$rc ${secs}s repair=$repair"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$rc" "$secs" "$repair" \
		"$ops" "$seed" "$args" >>"$results/fsx.tsv"
	[ "$rc" -eq 0 ] && [ "$repair" -eq 0 ] || rc_all=1
done
exit "$rc_all"
