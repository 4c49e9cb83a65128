#!/bin/sh
# Guest side of tests/qemu/skeleton.sh, run as /test.sh by the initramfs /init.
# /dev/vda: XFS with 64 KiB blocks (6.1 must refuse it)
# /dev/vdb: XFS with 4 KiB blocks  (positive control: must mount, take a write, unmount)
# Machine-readable lines (parsed by skeleton.sh):
#   LBS-TEST: begin skeleton
#   LBS-RESULT mount64k: refused rc=N | mounted
#   LBS-RESULT mount4k: ok | fail stage=mount|write|umount rc=N
#   LBS-DMESG <kernel log line mentioning XFS / vda / vdb>
#   LBS-TEST: end skeleton
echo "LBS-TEST: begin skeleton"
mkdir -p /mnt

rc=0
mount -t xfs /dev/vda /mnt || rc=$?
if [ "$rc" -eq 0 ]; then
	echo "LBS-RESULT mount64k: mounted"
	umount /mnt
else
	echo "LBS-RESULT mount64k: refused rc=$rc"
fi

stage=mount rc=0
mount -t xfs /dev/vdb /mnt || rc=$?
if [ "$rc" -eq 0 ]; then
	stage="write"
	{ echo lbs >/mnt/probe && [ "$(cat /mnt/probe)" = lbs ] && sync; } || rc=$?
	urc=0
	umount /mnt || urc=$?
	if [ "$rc" -eq 0 ]; then
		stage=umount rc=$urc
	fi
fi
if [ "$rc" -eq 0 ]; then
	echo "LBS-RESULT mount4k: ok"
else
	echo "LBS-RESULT mount4k: fail stage=$stage rc=$rc"
fi

dmesg | grep -E 'XFS|vd[ab]' | sed 's/^/LBS-DMESG /'
echo "LBS-TEST: end skeleton"
