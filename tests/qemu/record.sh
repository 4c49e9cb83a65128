#!/bin/sh
# Copy a verification suite report into the tree (`make qemu-record`):
#
#   record.sh NAME
#
# $LBS_BUILD/qemu/NAME/report.txt (tests/qemu/verify.sh's, whose first
# line says which kernel source and project commit ran, and when) becomes
# tests/qemu/records/NAME-BS[-BS...].txt, named by its block sizes; an
# older record of the same name is replaced (git keeps its history).
# Refused: a report without verify.sh's header line, of a prebuilt
# kernel image (a negative control's knob kernel: not a record of NAME),
# or of a project tree with uncommitted changes.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
die() { echo "record.sh: error: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: record.sh NAME (a directory of $BUILD/qemu/)"
case $1 in '' | *[!A-Za-z0-9._-]*) die "bad name '$1'" ;; esac
report=$BUILD/qemu/$1/report.txt
[ -f "$report" ] || die "no report $report (make qemu-verify first)"
head=$(head -n 1 "$report")
case $head in "# verify.sh "*) ;; *) die "$report has no verify.sh header line" ;; esac
case $head in *"source prebuilt:"*) die "$report is of a prebuilt kernel image, not of $1" ;; esac
# a record names the commit that made it; "+" is a tree with changes that
# no commit holds, so no one could run the same again
case $head in *"+, block sizes "*) die "$report was made with uncommitted changes (project ...+): commit, then verify again" ;; esac
sizes=$(echo "$head" | sed -n 's/.*, block sizes \([0-9 ]*\), [0-9]* ops.*/\1/p' | tr ' ' '-')
[ -n "$sizes" ] || die "no block sizes in the header of $report"
mkdir -p "$ROOT/tests/qemu/records"
out=$ROOT/tests/qemu/records/$1-$sizes.txt
cp "$report" "$out"
echo "$out"
