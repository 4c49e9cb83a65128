#!/bin/sh
# Build the static guest binaries of the verification suite on the host:
#
#   build.sh OUTDIR
#
# OUTDIR/lbs-verify from tests/guest/lbs-verify.c (gcc -static, glibc only),
# and OUTDIR/lbs-fsx, a copy of $LBS_BUILD/meson/sim/lbs-fsx-static when that
# exists (made by the meson build of sim/; without it the suite reports the
# fsx campaigns as "skip: lbs-fsx not built"). Prints one mkinitramfs.sh spec
# (SRC:/bin/NAME) per binary on stdout.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
[ $# -eq 1 ] || { echo "usage: build.sh OUTDIR" >&2; exit 2; }
out=$1
mkdir -p "$out"
CC=${CC:-gcc}

bin=$out/lbs-verify
$CC -static -O2 -g -Wall -Wextra -Werror -o "$bin.tmp" "$HERE/lbs-verify.c"
mv "$bin.tmp" "$bin"
file -L "$bin" | grep -q 'statically linked' || { echo "build.sh: $bin is not static" >&2; exit 1; }
echo "$bin:/bin/lbs-verify"

fsx=$BUILD/meson/sim/lbs-fsx-static
rm -f "$out/lbs-fsx"
if [ -x "$fsx" ] && file -L "$fsx" | grep -q 'statically linked'; then
	cp "$fsx" "$out/lbs-fsx"
	echo "$out/lbs-fsx:/bin/lbs-fsx"
else
	echo "build.sh: $fsx not built: the fsx campaigns will be skipped" >&2
fi
