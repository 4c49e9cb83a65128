#!/bin/sh
# Guest side of bench/kernel-repeat.sh: runs as /test.sh in the busybox
# initramfs. Reads /lbs/repeat.conf (SIZE_MB, REPEATS), mounts the virtio
# disk with serial "bench" and times, REPEATS times in this one boot, a
# buffered sequential write of SIZE_MB MiB into a new file (dd bs=1M
# conv=fsync, from /dev/zero) and a cold read of it back, each after sync
# and drop_caches. With INSNS=1 in repeat.conf each dd runs between two
# /bin/lbs-mark marks (bench/insn-mark.c) for the host's instruction-count
# plugin: per repeat write then read; from the second repeat on, the marks
# of the job named by INSN_PROFILE (write or read) are profile marks.
# Console lines:
#   LBS-REPEAT r=N write_cs=T read_cs=T   (guest wall time in 1/100 s)
#   LBS-REPEAT: end rc=N
set -u
# shellcheck disable=SC1091
. /lbs/repeat.conf
export PATH=/bin
dev=""
for d in /sys/block/vd*; do
	[ "$(cat "$d/serial" 2>/dev/null)" = bench ] && dev=${d##*/}
done
if [ -z "$dev" ] || ! mount -t xfs "/dev/$dev" /mnt; then
	echo "LBS-REPEAT: end rc=2 (no bench disk or mount failed: '$dev')"
	exit 2
fi
cs() { awk '{ sub(/\./, "", $1); print $1 + 0 }' /proc/uptime; }
mark() { [ "${INSNS:-0}" != 1 ] || lbs-mark "$@"; }
fails=0
r=1
while [ "$r" -le "$REPEATS" ]; do
	rm -f /mnt/f
	sync
	echo 3 >/proc/sys/vm/drop_caches
	pw="" pr=""
	if [ "$r" -gt 1 ]; then
		[ "${INSN_PROFILE:-write}" = read ] && pr=p || pw=p
	fi
	a=$(cs)
	# shellcheck disable=SC2086 # $pw is "p" or nothing
	mark $pw
	dd if=/dev/zero of=/mnt/f bs=1M count="$SIZE_MB" conv=fsync 2>/dev/null || fails=$((fails + 1))
	# shellcheck disable=SC2086
	mark $pw
	b=$(cs)
	echo 3 >/proc/sys/vm/drop_caches
	c=$(cs)
	# shellcheck disable=SC2086
	mark $pr
	dd if=/mnt/f of=/dev/null bs=1M 2>/dev/null || fails=$((fails + 1))
	# shellcheck disable=SC2086
	mark $pr
	d=$(cs)
	echo "LBS-REPEAT r=$r write_cs=$((b - a)) read_cs=$((d - c))"
	r=$((r + 1))
done
umount /mnt || fails=$((fails + 1))
echo "LBS-REPEAT: end rc=$fails"
