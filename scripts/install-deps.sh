#!/bin/sh
# Install every Debian 12 package the project needs. Idempotent: it only
# calls apt-get when something is missing, so repeated runs are cheap.
# The last three lines are fstests' (tests/fstests/): its build (gawk and
# libgdbm-compat-dev before it, or src/dbtest is silently not built) and
# what its tests run in the guest, which uses the host's userspace.
set -eu

PKGS="build-essential git python3 meson ninja-build pkg-config
libcmocka-dev liburcu-dev libfuse3-dev fuse3
linux-source-6.1 linux-source-6.12 flex bison bc libelf-dev libssl-dev cpio kmod dwarves rsync
qemu-system-x86 busybox-static xfsprogs stress-ng
clang llvm lld xz-utils python3-ply
fio linux-perf
autoconf automake libtool gawk xfslibs-dev uuid-dev libaio-dev libattr1-dev
libacl1-dev liburing-dev libgdbm-dev libgdbm-compat-dev libcap-dev
uuid-runtime attr acl psmisc xfsdump quota dbench duperemove dmsetup e2fsprogs"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing:$missing" >&2
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
