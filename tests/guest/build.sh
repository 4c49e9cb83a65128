#!/bin/sh
# Build the static guest binaries of the verification suite on the host:
#
#   build.sh OUTDIR
#
# OUTDIR/lbs-verify from tests/guest/lbs-verify.c, vlib.c, reflink.c,
# writeback.c and crash.c
# (gcc -static, glibc only),
# and OUTDIR/lbs-fsx, a copy of $LBS_BUILD/meson/sim/lbs-fsx-static, which is
# built here (meson setup $LBS_BUILD/meson if needed; ninja) together with the
# host's lbs-sim, which verify.sh uses for the differential traces. Prints one
# mkinitramfs.sh spec (SRC:/bin/NAME) per binary on stdout.
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
$CC -static -O2 -g -Wall -Wextra -Werror -o "$bin.tmp" "$HERE/lbs-verify.c" \
	"$HERE/vlib.c" "$HERE/reflink.c" "$HERE/writeback.c" "$HERE/crash.c"
mv "$bin.tmp" "$bin"
file -L "$bin" | grep -q 'statically linked' || { echo "build.sh: $bin is not static" >&2; exit 1; }
echo "$bin:/bin/lbs-verify"

frag=$out/lbs-frag
$CC -static -O2 -g -Wall -Wextra -Werror -o "$frag.tmp" "$HERE/frag.c"
mv "$frag.tmp" "$frag"
echo "$frag:/bin/lbs-frag"

fsx=$BUILD/meson/sim/lbs-fsx-static
[ -f "$BUILD/meson/build.ninja" ] || meson setup "$BUILD/meson" "$ROOT" >&2
ninja -C "$BUILD/meson" sim/lbs-fsx-static sim/lbs-sim >&2
rm -f "$out/lbs-fsx"
file -L "$fsx" | grep -q 'statically linked' || { echo "build.sh: $fsx is not static" >&2; exit 1; }
cp "$fsx" "$out/lbs-fsx"
echo "$out/lbs-fsx:/bin/lbs-fsx"
