#!/bin/sh
# Negative control of verify.sh's xfs_repair check (tests/qemu/repair-check.sh):
#
#   repair-check-selftest.sh DIR
#
# At 4k and 64k blocks (mkfs.xfs defaults otherwise, reflink on), a fresh
# image must pass; the same image with AG 1's AGI magic overwritten
# (xfs_db -x), and with its primary superblock's inode count off by 64,
# must fail.  Host only, no root: mkfs.xfs and xfs_db on files.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: repair-check-selftest.sh DIR" >&2; exit 2; }
dir=$1
mkdir -p "$dir"
fail=0
expect() {	# expect pass|fail LABEL IMG
	got=$(sh "$HERE/repair-check.sh" "$3" "$dir/repair.txt") && v=pass || v=fail
	if [ "$v" = "$1" ]; then
		echo "repair-check-selftest: ok: $2: $got"
	else
		echo "repair-check-selftest: FAIL: $2: expected $1, got: $got" >&2
		fail=1
	fi
}
for bs in 4096 65536; do
	img=$dir/img-$bs.img
	rm -f "$img"
	truncate -s 320M "$img"
	mkfs.xfs -q -f -b size=$bs "$img"
	expect pass "fresh $bs" "$img"
	cp "$img" "$img.agi"
	xfs_db -x -c "agi 1" -c "write -d magicnum 0" "$img.agi" >/dev/null 2>&1
	expect fail "AGI 1 magic zeroed $bs" "$img.agi"
	cp "$img" "$img.sb"
	n=$(xfs_db -c "sb 0" -c "print icount" "$img" | sed 's/.*= //')
	xfs_db -x -c "sb 0" -c "write -d icount $((n + 64))" "$img.sb" >/dev/null 2>&1
	expect fail "superblock icount off $bs" "$img.sb"
	rm -f "$img" "$img.agi" "$img.sb"
done
exit $fail
