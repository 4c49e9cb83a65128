#!/bin/sh
# Make a busybox-static initramfs:
#
#   mkinitramfs.sh OUT.cpio.gz [SRC[:/DEST]...]
#
# Each extra file SRC is copied to /DEST (default /basename(SRC)), e.g.
# `guest-skeleton.sh:/test.sh`. The /init mounts proc, sysfs and devtmpfs,
# runs /test.sh if present and then does `reboot -f` (no shell, ever).
# Guest markers on the console:
#   LBS-INIT: start
#   LBS-INIT: test.sh exit rc=N        (or "LBS-INIT: no /test.sh")
#   LBS-INIT: reboot
# The archive is deterministic: sorted entries, uid/gid 0, mtime 0, gzip -n.
set -eu

die() { echo "mkinitramfs.sh: error: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: mkinitramfs.sh OUT.cpio.gz [SRC[:/DEST]...]"
out=$1
shift
BUSYBOX=${BUSYBOX:-/bin/busybox}
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found (apt-get install busybox-static)"
file -L "$BUSYBOX" 2>/dev/null | grep -q 'dynamically linked' &&
	die "$BUSYBOX is dynamically linked; need busybox-static"

mkdir -p "$(dirname "$out")"
stage=$(mktemp -d "${out%/*}/.initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM

mkdir -p "$stage/bin" "$stage/dev" "$stage/proc" "$stage/sys" "$stage/tmp" "$stage/mnt" \
	"$stage/root" "$stage/etc"
cp "$BUSYBOX" "$stage/bin/busybox"
for a in $("$BUSYBOX" --list); do
	[ "$a" = busybox ] || ln -s busybox "$stage/bin/$a"
done
ln -s bin "$stage/sbin"
# Initial console for the kernel's open("/dev/console") before /init runs.
# Needs root; without it, /init reopens /dev/console from devtmpfs instead.
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

cat >"$stage/init" <<'EOF'
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
[ -c /dev/console ] && exec </dev/console >/dev/console 2>&1
echo "LBS-INIT: start"
if [ -f /test.sh ]; then
	sh /test.sh
	echo "LBS-INIT: test.sh exit rc=$?"
else
	echo "LBS-INIT: no /test.sh"
fi
sync
echo "LBS-INIT: reboot"
reboot -f
# reboot -f does not return; if it does, exiting init panics (panic=-1 reboots).
EOF
chmod 755 "$stage/init"

for spec in "$@"; do
	src=${spec%%:*}
	case $spec in *:*) dest=${spec#*:} ;; *) dest=/$(basename "$src") ;; esac
	[ -f "$src" ] || die "extra file $src not found"
	case $dest in /*) ;; *) dest=/$dest ;; esac
	mkdir -p "$stage$(dirname "$dest")"
	cp "$src" "$stage$dest"
	chmod 755 "$stage$dest"
done

find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -n -9 >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
