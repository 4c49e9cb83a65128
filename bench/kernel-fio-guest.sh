#!/bin/sh
# Guest side of bench/kernel-fio.sh: runs as /test.sh in the busybox
# initramfs (tests/qemu/mkinitramfs.sh). Reads /lbs/bench.conf (SIZE_MB),
# mounts the virtio disk with serial "bench" (an XFS image made on the host)
# and runs the fio jobs one after the other, each on its own file (mount
# options from MOUNT_OPTS, if set):
#
#   seqwrite      buffered sequential write, 1 MiB requests, end_fsync=1
#   seqread       buffered sequential read of seqwrite's file, 1 MiB requests
#   randwrite     buffered 4 KiB random write, end_fsync=1
#   dio-randwrite O_DIRECT 4 KiB random write (4 KiB-aligned)
#   reflink-randwrite  seqwrite's file cloned (/bin/lbs-clone, FICLONE, as
#                 `cp --reflink` does), then buffered 4 KiB random writes
#                 into the clone, end_fsync=1: each first write into a
#                 shared block is a copy on write
#
# Before each job: sync and drop_caches (so seqread reads from the device),
# then the device's /sys/block/vdX/stat; after it: sync and the stat again.
# Console lines (parsed by bench/kernel-fio-report.py):
#   LBS-BENCH: begin
#   LBS-BENCH-INFO uname R bs B mem_kb M dev vdX
#   LBS-BENCH-VMEVENTS 0|1  (whether /proc/vmstat counts events: without
#       CONFIG_VM_EVENT_COUNTERS a job's stalls are unknown, not none)
#   LBS-BENCH-JOB NAME rc=N rsect=R wsect=W rios=I wios=J wall_cs=T
#       (device sectors of 512 bytes and requests, guest wall time in 1/100 s)
#   LBS-BENCH-COUNT NAME counter=delta ... (XFS and VM counters that moved)
#   LBS-BENCH-JSON-BEGIN NAME / fio's JSON / LBS-BENCH-JSON-END NAME
#   LBS-BENCH-PROF-BEGIN NAME / perf report lines / LBS-BENCH-PROF-END NAME
#       (only with PROFILE=1 in bench.conf: each job under perf record -a)
#   LBS-BENCH-MARKED NAME  (only with INSNS=1: the job and its sync ran
#       between two /bin/lbs-mark marks for the host's instruction count)
#   LBS-BENCH: end rc=N (failed jobs + failed umount)
set -u
# shellcheck disable=SC1091
. /lbs/bench.conf
export PATH=/bin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu/ceph
echo "LBS-BENCH: begin"

dev=""
for d in /sys/block/vd*; do
	[ "$(cat "$d/serial" 2>/dev/null)" = bench ] && dev=${d##*/}
done
if [ -z "$dev" ] || ! mount -t xfs ${MOUNT_OPTS:+-o "$MOUNT_OPTS"} "/dev/$dev" /mnt; then
	echo "LBS-BENCH: end rc=2 (no bench disk or mount failed: '$dev')"
	exit 2
fi
# FRAG (bench.conf, optional): that share of free memory pinned page by
# page first (tests/guest/frag.c), so large folio allocations fail
# (frag_start: tests/guest/folios.sh)
if [ -n "${FRAG:-}" ]; then
	# shellcheck disable=SC1091
	. /lbs/folios.sh
	frag_start "$FRAG" || true
	echo "LBS-BENCH-FRAG $FRAG_READY"
fi
echo "LBS-BENCH-INFO uname $(uname -r) bs $(stat -f -c %S /mnt) mem_kb $(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo) dev $dev"
grep " /mnt " /proc/mounts | sed 's/^/LBS-BENCH-MOUNT /'
if grep -q '^allocstall_' /proc/vmstat; then echo "LBS-BENCH-VMEVENTS 1"; else echo "LBS-BENCH-VMEVENTS 0"; fi

# fields 1, 3: reads completed, sectors read; 5, 7: writes completed, sectors written
sect() { awk -v f="$1" '{ print $f }' "/sys/block/$dev/stat"; }
uptime_cs() { awk '{ sub(/\./, "", $1); print $1 + 0 }' /proc/uptime; }

# XFS's and the VM's event counters, one "name value" a line (XFS's
# multi-value lines as name.1, name.2, ...): the work a job did, counted
# rather than timed.
counters() {
	awk '{ for (i = 2; i <= NF; i++) print $1 "." (i - 1), $i }' /proc/fs/xfs/stat
	cat /proc/vmstat
}

# a profile mark ("p") for the job INSN_PROFILE names
mark() {
	[ "${INSNS:-0}" = 1 ] || return 0
	if [ "$1" = "${INSN_PROFILE:-}" ]; then /bin/lbs-mark p; else /bin/lbs-mark; fi
}

# DIRTY_MB (bench.conf, optional): background writeback starts only past
# DIRTY_MB MiB of dirty pages, so that a job smaller than that writes back
# at its fsync alone and its work does not depend on the flusher's timing
if [ -n "${DIRTY_MB:-}" ]; then
	echo $((DIRTY_MB * 1048576)) >/proc/sys/vm/dirty_background_bytes
	echo $((DIRTY_MB * 2 * 1048576)) >/proc/sys/vm/dirty_bytes
fi

fails=0
job() {
	name=$1
	shift
	sync
	echo 3 >/proc/sys/vm/drop_caches
	counters >/tmp/c0
	r0=$(sect 3) w0=$(sect 7) ri0=$(sect 1) wi0=$(sect 5) t0=$(uptime_cs)
	mark "$name"
	set -- --output-format=json --output="/tmp/$name.json" \
		--name="$name" --ioengine=psync --thread --size="${SIZE_MB}m" \
		--invalidate=0 --fadvise_hint=0 --fallocate=none --randrepeat=1 \
		--clocksource=clock_gettime --disk_util=0 "$@"
	if [ "${PROFILE:-0}" = 1 ]; then
		# the job and its final sync, writeback included (-a)
		# shellcheck disable=SC2016 # expanded by the inner shell
		/bin/perf record -q -a -g -e cpu-clock -F 1000 -o "/tmp/$name.perf" -- \
			/bin/sh -c 'LD_PRELOAD=/lib/lbs-fio-shm.so /bin/fio "$@"; rc=$?; sync; exit $rc' \
			fio "$@" >"/tmp/$name.out" 2>&1
	else
		LD_PRELOAD=/lib/lbs-fio-shm.so /bin/fio "$@" >"/tmp/$name.out" 2>&1
	fi
	rc=$?
	sync
	mark "$name"
	[ "${INSNS:-0}" != 1 ] || echo "LBS-BENCH-MARKED $name"
	r1=$(sect 3) w1=$(sect 7) ri1=$(sect 1) wi1=$(sect 5) t1=$(uptime_cs)
	echo "LBS-BENCH-JOB $name rc=$rc rsect=$((r1 - r0)) wsect=$((w1 - w0)) rios=$((ri1 - ri0)) wios=$((wi1 - wi0)) wall_cs=$((t1 - t0))"
	counters >/tmp/c1
	echo "LBS-BENCH-COUNT $name $(awk 'NR == FNR { a[$1] = $2; next }
		$2 != a[$1] { printf " %s=%d", $1, $2 - a[$1] }' /tmp/c0 /tmp/c1)"
	[ "$rc" -eq 0 ] || { fails=$((fails + 1)); sed 's/^/LBS-BENCH-FIO: /' "/tmp/$name.out"; }
	echo "LBS-BENCH-JSON-BEGIN $name"
	cat "/tmp/$name.json" 2>/dev/null
	echo "LBS-BENCH-JSON-END $name"
	[ "${PROFILE:-0}" = 1 ] && profile "$name"
}

# Where the kernel's CPU went, from kallsyms (no vmlinux in the guest): self
# time per kernel symbol, then time including callees, the top of each
# (user space is fio and the shell, not what this benchmark compares).
profile() {
	echo "LBS-BENCH-PROF-BEGIN $1"
	for mode in --no-children --children; do
		echo "LBS-BENCH-PROF-MODE $mode"
		/bin/perf report -i "/tmp/$1.perf" --stdio -g none $mode --sort sym \
			--percent-limit 0.3 2>/dev/null |
			awk '/^# Event count/ || /\[k\]/' | head -n 81
	done
	echo "LBS-BENCH-PROF-END $1"
	rm -f "/tmp/$1.perf"
}

job seqwrite --filename=/mnt/seq --rw=write --bs=1m --end_fsync=1
job seqread --filename=/mnt/seq --rw=read --bs=1m
job randwrite --filename=/mnt/rand --rw=randwrite --bs=4k --end_fsync=1
job dio-randwrite --filename=/mnt/dio --rw=randwrite --bs=4k --direct=1
if /bin/lbs-clone /mnt/seq /mnt/shared; then
	job reflink-randwrite --filename=/mnt/shared --rw=randwrite --bs=4k --end_fsync=1
else
	echo "LBS-BENCH-JOB reflink-randwrite rc=1 rsect=0 wsect=0 rios=0 wios=0 wall_cs=0"
	fails=$((fails + 1))
fi

df -k /mnt | sed 's/^/LBS-BENCH-DF: /'
umount /mnt || fails=$((fails + 1))
echo "LBS-BENCH: end rc=$fails"
