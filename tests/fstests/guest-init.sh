#!/bin/sh
# Stage 1 of the fstests guest (busybox sh, run as /test.sh by the /init of
# tests/qemu/mkinitramfs.sh, which has mounted proc, sysfs and devtmpfs and
# does `sync; reboot -f` when this returns).
#
# Root = the host's / over virtio-9p (tag hostroot, read-only) under a tmpfs
# overlay; the run directory (tag results, writable) at /lbs-results holds
# run.conf and receives fstests' results. Stage 2 is the host's
# tests/fstests/guest-run.sh, whose path run.conf gives (LBS_STAGE2).
# Console markers: LBS-FSTESTS: <step>.
export PATH=/bin
say() { echo "LBS-FSTESTS: $*"; }

opts=trans=virtio,version=9p2000.L,msize=512000
mkdir -p /mnt/lower /mnt/rw /mnt/root
mount -t 9p -o "$opts,cache=loose,ro" hostroot /mnt/lower || { say "fail mount hostroot"; exit 1; }
mount -t tmpfs -o mode=755 tmpfs /mnt/rw
mkdir -p /mnt/rw/upper /mnt/rw/work
mount -t overlay overlay -o lowerdir=/mnt/lower,upperdir=/mnt/rw/upper,workdir=/mnt/rw/work /mnt/root ||
	{ say "fail mount overlay"; exit 1; }
for d in proc sys dev; do
	mount --move /$d /mnt/root/$d
done
mount -t tmpfs tmpfs /mnt/root/run
# /tmp stays the overlay's (writable, in the tmpfs upper): a tmpfs of its
# own would hide a clone or build directory under the host's /tmp
mkdir -p /mnt/root/lbs-results
mount -t 9p -o "$opts,cache=none" results /mnt/root/lbs-results || { say "fail mount results"; exit 1; }
stage2=$(sed -n 's/^LBS_STAGE2=//p' /mnt/root/lbs-results/run.conf)
[ -n "$stage2" ] || { say "fail no LBS_STAGE2 in run.conf"; exit 1; }
say "root ready, stage 2 $stage2"
chroot /mnt/root /bin/bash "$stage2" /lbs-results/run.conf
rc=$?
say "stage 2 exit rc=$rc"
sync
exit "$rc"
