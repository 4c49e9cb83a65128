#!/bin/bash
# Stage 2 of the fstests guest: runs chrooted in the overlay root (the host's
# Debian) that tests/fstests/guest-init.sh set up.
#
#   guest-run.sh RUN_CONF
#
# RUN_CONF (written by run-fstests.sh) sets FSTESTS_DIR, BLOCK_SIZE, HOST_EPOCH,
# CHECK_ARGS (the tests or -g GROUP) and the disk serials TEST_SERIAL,
# SCRATCH_SERIAL, LOGWRITES_SERIAL. Makes what udev and a normal boot would
# (/dev/fd, /dev/std*, devpts, /dev/shm, /dev/mapper symlinks), the fstests
# users, local.config, then runs `./check -R xunit` with RESULT_BASE in the
# run directory (/lbs-results, the host's build/fstests/KERNEL-BS), or,
# when RUN_CONF sets FSX_OPS, fsx campaigns (guest-fsx.sh) instead.
# Writes /lbs-results/check.rc, and folio-census.txt ("pass|fail WHY": the
# folio census of the block-device filesystems from before the first test
# to after the last, tests/guest/folios.sh, judged for KERNEL at
# BLOCK_SIZE); with FRAG set, lbs-frag (LBS_FRAG_BIN) holds that share of
# free memory fragmented meanwhile. Console markers: LBS-FSTESTS: <step>.
set -u
conf=$1
# shellcheck disable=SC1090
. "$conf"
say() { echo "LBS-FSTESTS: $*"; }
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
results=$(dirname "$conf")

# --- what udev and systemd would have made -----------------------------------
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
ln -sf /proc/kcore /dev/core 2>/dev/null
mkdir -p /dev/pts /dev/shm /dev/mapper
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
ln -sf pts/ptmx /dev/ptmx
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
# no udevd: libdevmapper makes /dev/mapper nodes itself; the wrapper turns
# them into udev's ../dm-N symlinks, which tests that look a target up in
# sysfs by name expect
export DM_DISABLE_UDEV=1
cat >/usr/local/sbin/dmsetup <<'EOF'
#!/bin/sh
/usr/sbin/dmsetup "$@"
rc=$?
for n in /sys/block/dm-*/dm/name; do
	[ -r "$n" ] || continue
	name=$(cat "$n") dm=${n#/sys/block/}
	dm=${dm%%/*}
	[ -L "/dev/mapper/$name" ] || { rm -f "/dev/mapper/$name"; ln -s "../$dm" "/dev/mapper/$name"; }
done
exit $rc
EOF
chmod 755 /usr/local/sbin/dmsetup
hostname lbs-fstests
# no RTC in the test kernels: take the host's time of the boot
[ -z "${HOST_EPOCH:-}" ] || date -s "@$HOST_EPOCH" >/dev/null

# --- users fstests wants (in the overlay: the host's /etc is untouched) ------
for u in fsgqa fsgqa2; do
	id "$u" >/dev/null 2>&1 || useradd -m "$u"
done
id 123456-fsgqa >/dev/null 2>&1 || useradd --badname -m 123456-fsgqa
groupadd -f fsgqa

# --- disks by serial -----------------------------------------------------------
by_serial() {
	local s
	for s in /sys/block/vd*/serial; do
		[ "$(cat "$s")" = "$1" ] && { echo "/dev/$(basename "$(dirname "$s")")"; return 0; }
	done
	say "fail no disk with serial $1"
	return 1
}
test_dev=$(by_serial "$TEST_SERIAL") || exit 1
scratch_dev=$(by_serial "$SCRATCH_SERIAL") || exit 1
logwrites_dev=$(by_serial "$LOGWRITES_SERIAL") || exit 1
mkdir -p /mnt/test /mnt/scratch

# --- the folio census, and the fragmenter ------------------------------------
# shellcheck disable=SC1090
. "$FOLIOS_SH"
census_file=$results/folio-census.txt
rm -f "$census_file"
# block devices only (major > 0): not the 9p root, its overlay or tmpfs
census_start "s_dev >= 1048576" || say "no folio census: tracefs hist triggers unavailable"
if [ -n "${FRAG:-}" ]; then
	export LBS_FRAG_BIN
	if ! frag_start "$FRAG"; then
		echo "fail lbs-frag exited before it was ready: $FRAG_READY" >"$census_file"
		say "fail lbs-frag: $FRAG_READY"
		exit 1
	fi
	say "frag: $FRAG_READY"
fi
census_end() {
	census_verdict "$BLOCK_SIZE" "$KERNEL" "${FRAG:-}" "${CENSUS_FEW:-}"
	echo "$CENSUS_ST $CENSUS_WHY" >"$census_file"
	say "folio census: $CENSUS_ST $CENSUS_WHY"
	frag_stop
}

cd "$FSTESTS_DIR" || exit 1
# FSX_AVOID=-0: fsx runs XFS_IOC_EXCHANGE_RANGE wherever the kernel has it
# (6.10 and later), from op 13 on in generic/091 and 263, so 6.12 would run
# other op streams than 6.1; every kernel gets the same streams without it.
cat >local.config <<EOF
export FSTYP=xfs
export TEST_DEV=$test_dev
export TEST_DIR=/mnt/test
export SCRATCH_DEV=$scratch_dev
export SCRATCH_MNT=/mnt/scratch
export LOGWRITES_DEV=$logwrites_dev
export MKFS_OPTIONS="-b size=$BLOCK_SIZE"
export RESULT_BASE=$results
export KEEP_DMESG=yes
export FSX_AVOID="-0"
EOF
say "clock $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
	"test $test_dev scratch $scratch_dev logwrites $logwrites_dev, bs $BLOCK_SIZE"
if [ -n "${FSX_OPS:-}" ]; then	# make fstests-fsx: fsx campaigns, not check
	say "fsx campaigns start uptime $(cut -d' ' -f1 /proc/uptime)"
	FSTESTS_DIR=$FSTESTS_DIR BLOCK_SIZE=$BLOCK_SIZE FSX_OPS=$FSX_OPS \
		FSX_SEED=${FSX_SEED:-1} FSX_CAMPAIGNS=${FSX_CAMPAIGNS:-} \
		bash "$(dirname "$0")/guest-fsx.sh" "$results" "$scratch_dev"
	rc=$?
	census_end
	echo "$rc" >"$results/check.rc"
	say "fsx campaigns end rc=$rc"
	sync
	exit "$rc"
fi
say "check start uptime $(cut -d' ' -f1 /proc/uptime)"
# check's stdout also goes to check.out, free of kernel console messages
# shellcheck disable=SC2086
./check -R xunit $CHECK_ARGS 2>&1 | tee "$results/check.out"
rc=${PIPESTATUS[0]}
census_end
echo "$rc" >"$results/check.rc"
say "check end rc=$rc"
sync
exit "$rc"
