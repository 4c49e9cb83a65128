#!/bin/sh
# Judge boot 1 of a power-cut round (tests/qemu/powercut.sh) from its
# console log:
#
#   powercut-judge.sh CONSOLE N
#
# Boot 1 runs lbs-fsx --journal --cut-after N with its output on the
# console (tests/guest/run-suite.sh, powercut-run), and the host kills
# QEMU once the marker is there. It passes only if the campaign began,
# the marker names op N exactly once, and nowhere is there
#   - a lbs-fsx mismatch report ("MISMATCH ..."): lbs-fsx checks every
#     read against its oracle, so the kernel lost or mixed up data;
#   - an "LBS-PC: end" line: lbs-fsx exited before the cut (a mismatch,
#     an error, or a campaign that ended before op N);
#   - an "LBS-PC: fail" line (the guest could not start the campaign).
# A mismatch before the marker cannot be missed: lbs-fsx stops at the
# first one (no marker follows), and the console is one FIFO, so what
# lbs-fsx printed before the marker is in the log when the marker is.
#
# Pass: prints the journal records the marker names, exit 0. Fail: prints
# why, lbs-fsx's own lines in it, exit 1. Bad arguments: exit 2.
set -eu
die() { echo "powercut-judge.sh: error: $*" >&2; exit 2; }
[ $# -eq 2 ] || die "usage: powercut-judge.sh CONSOLE N"
log=$1 n=$2
[ -f "$log" ] || die "console log '$log' not found"
case $n in '' | *[!0-9]* | 0*) die "N must be an op number from 1 (got '$n')" ;; esac

tr -d '\r' <"$log" | awk -v n="$n" '
	want { sub(/^ +/, ""); mm = mm "; " $0; want = 0 }
	!mm && /^MISMATCH/ { mm = $0; want = 1 }
	/^LBS-PC: begin/ { begun = 1 }
	!end && /^LBS-PC: end/ { end = $0; before = prev }
	!fl && /^LBS-PC: fail/ { fl = $0 }
	/^lbs-fsx: cut after op / { marks++; mark = $0 }
	/^(LBS-|lbs-fsx)/ { last = $0 }
	{ prev = $0 }
	END {
		re = "^lbs-fsx: cut after op " n ": [0-9]+ journal records on the device$"
		if (mm)
			why = "lbs-fsx: " mm (end ? " (" end ")" : marks ? " (after the cut marker)" : "")
		else if (end)
			why = "lbs-fsx exited before the cut (" end "): " before
		else if (fl)
			why = fl
		else if (!begun)
			why = "the campaign did not begin: " last
		else if (!marks)
			why = "no cut marker for op " n " (a hang?), last: " last
		else if (marks > 1 || mark !~ re)
			why = "cut marker \"" mark "\" (" marks " in all), want one for op " n
		if (why) {
			print why
			exit 1
		}
		sub(/^lbs-fsx: cut after op [0-9]+: /, "", mark)
		sub(/ .*/, "", mark)
		print mark
	}'
