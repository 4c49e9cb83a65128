#!/bin/sh
# xfs_repair -n of one image the guest used, for tests/qemu/verify.sh:
#
#   repair-check.sh IMG OUT.txt
#
# Writes xfs_repair's output to OUT.txt and prints one verdict, "pass
# xfs_repair -n clean" or "fail xfs_repair -n: <its first two complaints>
# (all: OUT.txt)"; exits 0 or 1.  A dirty log counts as a complaint: the
# guest unmounts every filesystem it used.  The negative control is
# tests/qemu/repair-check-selftest.sh.
set -u
[ $# -eq 2 ] || { echo "usage: repair-check.sh IMG OUT.txt" >&2; exit 2; }
[ -f "$1" ] || { echo "repair-check.sh: no image $1" >&2; exit 2; }
if xfs_repair -n -f "$1" >"$2" 2>&1; then
	echo "pass xfs_repair -n clean"
	exit 0
fi
# the host-geometry warning of -f on a file is not a complaint
echo "fail xfs_repair -n: $(grep -v '^ *$' "$2" |
	grep -ivE '^(phase|        - |Phase|Cannot get host filesystem geometry|Repair may fail if there is a sector size mismatch|the image and the host filesystem)' |
	head -n 2 | tr '\n' ' ')(all: $2)"
exit 1
