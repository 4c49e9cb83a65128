#!/bin/sh
# Make the series of a negative-control kernel: the project's series plus
# one deliberately broken patch (a twin of a simulator fault knob).
#
#   twin-series.sh SERIES_DIR KNOB_PATCH OUT_DIR
#
# OUT_DIR (emptied first) gets SERIES_DIR's patches without the cover
# letter, then KNOB_PATCH as 0999-selftest-KNOB.patch, ready for
# scripts/linux-tree.sh worktree.  Used by tests/qemu/verify-selftest.sh
# (--stress) and tests/fstests/run-fstests.sh --twin.
set -eu
die() { echo "twin-series.sh: error: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: twin-series.sh SERIES_DIR KNOB_PATCH OUT_DIR"
series=$1 knob=$2 out=$3
ls "$series"/0[0-9][0-9][0-9]-*.patch >/dev/null 2>&1 || die "no series in $series (make kernel-patch)"
[ -f "$knob" ] || die "no twin patch $knob"
rm -rf "$out"
mkdir -p "$out"
cp "$series"/0[0-9][0-9][0-9]-*.patch "$out"/
rm -f "$out"/0000-*.patch
cp "$knob" "$out/0999-selftest-$(basename "$knob" .patch).patch"
