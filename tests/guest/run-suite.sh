#!/bin/sh
# Guest side of `make qemu-verify` (tests/qemu/verify.sh): runs as /test.sh in
# the busybox initramfs.
#
#   run-suite.sh            run the suite per block size (guest)
#   run-suite.sh --list     print the test names, one a line (host and guest)
#
# Reads /lbs/config (shell assignments): KERNEL (expectation key, e.g.
# ref-6.12), BLOCK_SIZES, LBS_OPS (ops per lbs-fsx campaign), LBS_SEED,
# LBS_DIFF_FILE_SIZE (the differential's file limit, the one lbs-sim used),
# LBS_FRAG (fragment that percentage of free memory for each block
# size's tests: tests/guest/frag.c), LBS_MODE (suite, or powercut-run /
# powercut-check with LBS_BS and, for the run, LBS_CUT_AFTER: the two
# boots of tests/qemu/powercut.sh, see powercut() below).
# Disks are found by their virtio serial (/sys/block/vdX/serial):
#   m<BS>  main image, block size BS, pre-filled with "STALEDA\n" before mkfs
#   r<BS>  runt-last-AG image, block size BS
# Prints exactly one line per test and block size:
#   LBS-VERIFY <bs> <name>: pass|fail|xfail|skip <reason>
# with /lbs/expect.txt applied (tests/guest/expect.txt): a failure listed
# there for KERNEL/bs whose reason matches the listed symptom is reported
# as xfail, one with another reason as a failure, and a pass of a listed
# test as "fail XPASS". Also: "LBS-TEST: begin verify", "LBS-TEST: end
# verify". The crash campaigns run with the named crash exceptions
# /lbs/crash-rules.txt allows KERNEL (tests/guest/crash-rules.txt,
# sim/fsx/oracle.h) and print what each used:
#   LBS-CRASHRULES <bs> <test> <rule> <crashes>/<bytes> allowed|denied ...
# Binaries: /bin/lbs-verify (tests/guest/lbs-verify.c), /bin/lbs-fsx
# (sim/ lbs-fsx-static).  crash-logflush and crash-nologflush are lbs-fsx
# campaigns whose crash ops shut the filesystem down (--crash-shutdown);
# crash-mixed's crashes do it without the log flush and with it by turns
# (a size update lost with its data on disk, then a later one kept);
# crash-reflink is crash-logflush with clone, dedupe, copy_range and
# unshare in the mix (--ops-mix reflink).
# Differential: /lbs/diff-<bs>.fsxops (recorded by
# lbs-sim on the host) is replayed with lbs-fsx, and after drop_caches the
# file's md5 is printed as "LBS-DIFF <bs> md5 <sum>" for the host to compare
# with lbs-sim's replay of the same trace.
VERIFY=${LBS_VERIFY_BIN:-/bin/lbs-verify}
FSX=${LBS_FSX_BIN:-/bin/lbs-fsx}
FSX_TESTS="fsx-buffered-mmap fsx-dio fsx-mixed fsx-reflink crash-logflush crash-nologflush crash-mixed crash-reflink differential"

list() {
	echo mount
	"$VERIFY" --list || return 1
	for t in $FSX_TESTS; do echo "$t"; done
	echo folio-orders
}
if [ "${1:-}" = --list ]; then
	list
	exit $?
fi

KERNEL=unknown BLOCK_SIZES="" LBS_OPS=10000 LBS_SEED=1 LBS_DIFF_FILE_SIZE="" LBS_MODE=suite LBS_FRAG=""
# shellcheck disable=SC1091
[ -f /lbs/config ] && . /lbs/config
EXPECT=/lbs/expect.txt
RULES=/lbs/crash-rules.txt
CARGS=/lbs/campaign-args.txt
WARN_RE='WARNING:|BUG:|kernel BUG at|Oops|Kernel panic|Assertion failed|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage|Bad page|general protection fault|Call Trace:|UBSAN:'

echo "LBS-TEST: begin verify kernel=$KERNEL block_sizes=\"$BLOCK_SIZES\" ops=$LBS_OPS seed=$LBS_SEED"
mkdir -p /mnt/m /mnt/r /tmp
TESTS=$(list | tr '\n' ' ')

# expect BS TEST -> prints "xfail SYMPTOM REASON" if the table lists it,
# else nothing
expect() {
	[ -f "$EXPECT" ] || return 0
	while read -r k b t r sym reason; do
		case $k in '' | \#*) continue ;; esac
		[ "$k" = "$KERNEL" ] || [ "$k" = "*" ] || continue
		case $b in
		\*) ;;
		\>*) [ "$1" -gt "${b#>}" ] || continue ;;
		*) [ "$b" = "$1" ] || continue ;;
		esac
		[ "$t" = "$2" ] || [ "$t" = "*" ] || continue
		echo "$r $sym $reason"
		return 0
	done <"$EXPECT"
}

# campaign_args BS TEST -> the lbs-fsx options tests/guest/campaign-args.txt
# gives KERNEL's campaign TEST at BS (TEST there may be a glob)
campaign_args() {
	[ -f "$CARGS" ] || return 0
	while read -r k b t opt _; do
		case $k in '' | \#*) continue ;; esac
		[ "$k" = "$KERNEL" ] || [ "$k" = "*" ] || continue
		[ "$b" = "$1" ] || [ "$b" = "*" ] || continue
		# shellcheck disable=SC2254
		case $2 in $t) printf ' %s' "$opt" ;; esac
	done <"$CARGS"
}

# the named crash exceptions KERNEL's crash campaigns may use: "a,b" or none
crash_allow() {
	[ -f "$RULES" ] || { echo none; return 0; }
	while read -r k rules _; do
		case $k in '' | \#*) continue ;; esac
		[ "$k" = "$KERNEL" ] || continue
		echo "$rules"
		return 0
	done <"$RULES"
	echo none
}

# report BS TEST RAW_STATUS RAW_REASON: apply expectations, print the line
report() {
	bs=$1 t=$2 st=$3 why=$4
	exp=$(expect "$bs" "$t")
	sym=${exp#xfail } sym=${sym%% *}
	exp=${exp#xfail "$sym" }
	case $exp:$st in
	?*:fail)
		if printf '%s\n' "$why" | grep -qE -- "$sym"; then
			st=xfail why="$exp [observed: $why]"
		else
			why="expected failure with another symptom (want /$sym/): $why"
		fi ;;
	?*:pass) st=fail why="XPASS: expected failure did not happen ($exp)" ;;
	esac
	echo "LBS-VERIFY $bs $t: $st${why:+ $why}"
}

# kernel messages since the last call that match WARN_RE
new_warnings() {
	dmesg -c 2>/dev/null | grep -E "$WARN_RE" | head -n 3 | tr '\n' ' '
}

# run BS TEST CMD...: run a test program, raw result from its last output line
run() {
	bs=$1 t=$2
	shift 2
	out=$("$@" 2>/tmp/err)
	rc=$?
	sed "s/^/LBS-LOG $bs $t: /" /tmp/err | tail -n 20
	last=$(echo "$out" | tail -n 1)
	w=$(new_warnings)
	if [ -n "$w" ]; then
		report "$bs" "$t" fail "kernel: $w"
		return
	fi
	case $rc:$last in
	0:pass*) report "$bs" "$t" pass "" ;;
	3:skip*) report "$bs" "$t" skip "${last#skip }" ;;
	*:fail*) report "$bs" "$t" fail "${last#fail }" ;;
	*) report "$bs" "$t" fail "exit $rc, output: $(echo "$out" | tail -n 2 | tr '\n' ' ')" ;;
	esac
}

# The folio census of one block size, counted on the test disk from the
# mount to the end of the tests, and LBS_FRAG's fragmenter:
# tests/guest/folios.sh (/lbs/folios.sh here)
# shellcheck disable=SC1091
. "${LBS_FOLIOS_SH:-/lbs/folios.sh}"
census() { # census BS: report folio-orders
	census_verdict "$1" "$KERNEL" "$LBS_FRAG"
	report "$1" folio-orders "$CENSUS_ST" "$CENSUS_WHY"
}
frag_hold() { # LBS_FRAG: hold that share of free memory fragmented
	[ -n "$LBS_FRAG" ] || return 0
	frag_start "$LBS_FRAG" || echo "LBS-LOG $bs frag: lbs-frag exited before it was ready"
	echo "LBS-LOG $bs frag: $FRAG_READY"
}

devof() { # devof SERIAL -> /dev/vdX
	for s in /sys/block/vd*/serial; do
		[ -f "$s" ] || continue
		if [ "$(cat "$s")" = "$1" ]; then
			d=${s%/serial}
			echo "/dev/${d##*/}"
			return 0
		fi
	done
	return 1
}

differential() { # differential BS
	bs=$1 tr=/lbs/diff-$1.fsxops f=/mnt/m/differential
	if [ ! -f "$tr" ]; then
		report "$bs" differential skip "no trace $tr"
		return
	fi
	rm -f "$f"
	out=$("$FSX" --replay "$tr" --file-size "$LBS_DIFF_FILE_SIZE" "$f" 2>&1)
	rc=$?
	echo "$out" | tail -n 5 | sed "s/^/LBS-LOG $bs differential: /"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sum=$(md5sum "$f" | cut -d' ' -f1)
	echo "LBS-DIFF $bs md5 $sum"
	w=$(new_warnings)
	if [ -n "$w" ]; then
		report "$bs" differential fail "kernel: $w"
	elif [ "$rc" -eq 0 ]; then
		report "$bs" differential pass ""
	else
		report "$bs" differential fail "lbs-fsx replay exit $rc: $(echo "$out" | tail -n 1)"
	fi
	rm -f "$f"
}

fsx() { # fsx BS TEST
	bs=$1 t=$2
	if [ ! -x "$FSX" ]; then
		report "$bs" "$t" skip "lbs-fsx not built (build/meson/sim/lbs-fsx-static missing on the host)"
		return
	fi
	if [ "$t" = differential ]; then
		differential "$bs"
		return
	fi
	case $t in
	fsx-buffered-mmap) args="--unsupported dio" ;;
	fsx-mixed) args="" ;;
	# clone, dedupe, copy_range and unshare too, as fsx on a reflink fs
	fsx-reflink) args="--ops-mix reflink" ;;
	# the default mix, each crash op an XFS shutdown (log flushed or
	# not), unmount, mount and a check of every byte of the file
	crash-logflush | crash-nologflush)
		args="--crash-shutdown ${t#crash-} --stale-pattern STALEDA\\n --crash-allow $(crash_allow)" ;;
	# both shutdown kinds by turns, with the ops that grow a file and
	# write it back by pieces weighted up: a size rolled back below
	# written data, then an extension (sim/fsx/oracle.h, crash-tail)
	crash-mixed)
		args="--crash-shutdown mixed --ops-mix write=200,writeback=100,fsync=15,crash=25,read=60,fsync_range=20,truncate=10 --stale-pattern STALEDA\\n --crash-allow $(crash_allow)" ;;
	# the same on a reflink fs's own ops: clones past the on-disk size
	crash-reflink)
		args="--ops-mix reflink --crash-shutdown logflush --stale-pattern STALEDA\\n --crash-allow $(crash_allow)" ;;
	fsx-dio)	# generic/091: -r PSIZE -t BSIZE -w BSIZE -Z -R -W
		args="-Z -r 4096 -t $bs -w $bs -R -W" ;;
	esac
	args="$args$(campaign_args "$bs" "$t")"
	seed=$((LBS_SEED + bs))
	f=/mnt/m/$t.fsx
	rm -f "$f"
	cmd="lbs-fsx --ops $LBS_OPS --seed $seed --block-size $bs --drop-caches-global --record-ops /tmp/$t.fsxops $args $f"
	echo "LBS-LOG $bs $t: $cmd"
	# shellcheck disable=SC2086
	out=$("$FSX" --ops "$LBS_OPS" --seed "$seed" --block-size "$bs" --drop-caches-global \
		--record-ops "/tmp/$t.fsxops" $args "$f" 2>&1)
	rc=$?
	echo "$out" | tail -n 25 | sed "s/^/LBS-LOG $bs $t: /"
	echo "$out" | sed -n "s/^crash rules (crashes\/bytes): /LBS-CRASHRULES $bs $t /p"
	w=$(new_warnings)
	if [ -n "$w" ]; then
		report "$bs" "$t" fail "kernel: $w (seed $seed)"
	elif [ "$rc" -eq 0 ]; then
		report "$bs" "$t" pass ""
	else
		tail -n 20 "/tmp/$t.fsxops" 2>/dev/null | sed "s/^/LBS-LOG $bs $t: last ops: /"
		# the first mismatch and its bytes (what a symptom names), then
		# the summary line
		mm=$(echo "$out" | grep -m 1 -A 3 '^MISMATCH' | grep -v '^  state:' | tr -s ' \n' ' ')
		report "$bs" "$t" fail "lbs-fsx exit $rc, seed $seed, $LBS_OPS ops: ${mm:+$mm| }$(echo "$out" | grep -v '^$' | tail -n 1)"
	fi
	rm -f "$f"
}

# tests/qemu/powercut.sh's two boots on one image (serial pc), with the
# journal (pj) and the file's bytes out (po):
# powercut-run: an lbs-fsx campaign journaling every change to pj, its
# output straight on the console (no pipe or file to lose it in): the
# marker of --cut-after LBS_CUT_AFTER, on which the host kills QEMU while
# later ops run, or a mismatch report. "LBS-PC: end rc=N" means lbs-fsx
# exited before the cut, which fails the round (powercut-judge.sh);
# powercut-check: mount (log recovery), the file's size on the console
# and its bytes on po, unmount.
powercut() { # powercut run|check
	pc=$(devof pc) pj=$(devof pj) po=$(devof po)
	if [ -z "$pc" ] || [ -z "$pj" ] || [ -z "$po" ]; then
		echo "LBS-PC: fail no disks with serials pc, pj and po"
		return 1
	fi
	if ! mount -t xfs "$pc" /mnt/m 2>/tmp/err; then
		echo "LBS-PC: fail mount: $(dmesg | grep XFS | tail -n 2 | tr '\n' ' ')$(cat /tmp/err)"
		return 1
	fi
	f=/mnt/m/powercut.fsx
	if [ "$1" = run ]; then
		echo "LBS-PC: begin bs=$LBS_BS seed=$LBS_SEED ops=$LBS_OPS cut-after=${LBS_CUT_AFTER:-}"
		# --quiet: no progress lines on the console (stderr is a tty)
		"$FSX" --quiet --ops "$LBS_OPS" --seed "$LBS_SEED" --block-size "$LBS_BS" \
			--journal "$pj" --cut-after "${LBS_CUT_AFTER:-}" \
			--stale-pattern 'STALEDA\n' "$f" 2>&1
		echo "LBS-PC: end rc=$?"
		return 1
	fi
	size=$(stat -c %s "$f") || { echo "LBS-PC: fail no $f after log recovery"; return 1; }
	dd if="$f" of="$po" bs=65536 conv=fsync 2>/dev/null || { echo "LBS-PC: fail copy to $po"; return 1; }
	echo "LBS-PC: size $size"
	umount /mnt/m || { echo "LBS-PC: fail umount"; return 1; }
	echo "LBS-PC: checked"
}

dmesg -c >/dev/null 2>&1
# A kernel notice printed on the console in the middle of a result line
# ("random: crng init done" once broke "LBS-VERIFY ... pass") makes the
# line malformed: keep only warnings and worse on the console (the checks
# of new warnings read dmesg, which still has everything)
echo 5 >/proc/sys/kernel/printk 2>/dev/null || dmesg -n 5 2>/dev/null
case $LBS_MODE in
powercut-run) powercut run; exit $? ;;
powercut-check) powercut check; exit $? ;;
esac
for bs in $BLOCK_SIZES; do
	echo "LBS-TEST: begin bs=$bs"
	m=$(devof "m$bs") r=$(devof "r$bs")
	mounted=0 why=""
	if [ -z "$m" ]; then
		report "$bs" mount fail "no disk with serial m$bs"
	else
		if mount -t xfs "$m" /mnt/m 2>/tmp/err; then
			mounted=1
			report "$bs" mount pass ""
			frag_hold
			census_start_dev "$m"
		else
			msg=$(dmesg | grep -F "XFS (${m#/dev/})" | tail -n 1 | sed 's/^\[[^]]*\] *//')
			why="mount refused: ${msg:-$(cat /tmp/err)}"
			report "$bs" mount fail "$why"
		fi
		new_warnings >/dev/null
	fi
	skipwhy="not mounted"
	case $(expect "$bs" mount) in xfail*) skipwhy="not mounted (expected: the mount refusal is this kernel's expected result)" ;; esac
	for t in $TESTS; do
		case $t in
		mount) continue ;;
		folio-orders)
			if [ "$mounted" = 0 ]; then report "$bs" "$t" skip "$skipwhy"; continue; fi
			census "$bs" ;;
		runt-ag)
			if [ "$mounted" = 0 ]; then report "$bs" "$t" skip "$skipwhy"; continue; fi
			if [ -z "$r" ]; then report "$bs" "$t" fail "no disk with serial r$bs"; continue; fi
			if ! mount -t xfs "$r" /mnt/r 2>/tmp/err; then
				report "$bs" "$t" fail "runt-AG image does not mount: $(dmesg | grep XFS | tail -n 1)"
				continue
			fi
			run "$bs" "$t" "$VERIFY" runt-ag /mnt/r "$bs" "$r"
			umount /mnt/r 2>/dev/null || report "$bs" "$t-umount" fail "umount failed"
			;;
		fsx-* | crash-* | differential)
			if [ "$mounted" = 0 ]; then report "$bs" "$t" skip "$skipwhy"; continue; fi
			fsx "$bs" "$t" ;;
		*)
			if [ "$mounted" = 0 ]; then report "$bs" "$t" skip "$skipwhy"; continue; fi
			run "$bs" "$t" "$VERIFY" "$t" /mnt/m "$bs" "$m" ;;
		esac
	done
	frag_stop
	if [ "$mounted" = 1 ]; then
		umount /mnt/m || echo "LBS-LOG $bs: umount /mnt/m failed"
	fi
	w=$(new_warnings)
	[ -z "$w" ] || echo "LBS-LOG $bs: kernel warning at umount: $w"
	echo "LBS-TEST: end bs=$bs"
done
echo "LBS-TEST: end verify"
