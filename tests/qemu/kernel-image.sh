#!/bin/sh
# The guest kernel of the QEMU suites:
#
#   kernel-image.sh [--fstests] [--no-lockdep] KERNEL NAME SERIES_DIR
#
# KERNEL: patched-6.1 or stock-6.1 (linux-source-6.1, lbs-6.1.config) or
# ref-6.12 (linux-source-6.12, ref-6.12.config); SERIES_DIR: the patches on
# top (the series, a twin series, or an empty directory). The worktree is
# $LBS_BUILD/linux/NAME (scripts/linux-tree.sh), the kernel
# $LBS_BUILD/kernel/NAME: the test kernel's fragment, which the
# verification suite (verify.sh) and the power-cut test (powercut.sh)
# boot. --fstests adds kernel-glue/config/fstests.config (9p, overlayfs,
# the network stack, device-mapper, quota: a third more objects and about
# twice the build time) in $LBS_BUILD/kernel/NAME-fstests, for
# tests/fstests/run-fstests.sh. --no-lockdep: the same kernel with
# CONFIG_PROVE_LOCKING off (the fragment copied with that one line
# changed), in $LBS_BUILD/kernel/NAME[-fstests]-nolockdep, to measure what
# lockdep costs. build-kernel.sh rebuilds only when tree,
# patches or config change.
# Prints the bzImage path; exit 1 on a failed build (log: build.log in the
# kernel directory), 2 on bad arguments.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"
extra="" suffix=""
if [ "${1:-}" = --fstests ]; then
	extra=$ROOT/kernel-glue/config/fstests.config suffix=-fstests
	shift
fi
nolockdep=""
if [ "${1:-}" = --no-lockdep ]; then
	nolockdep=1 suffix=$suffix-nolockdep
	shift
fi
[ $# -eq 3 ] || { echo "usage: kernel-image.sh [--fstests] [--no-lockdep] KERNEL NAME SERIES_DIR" >&2; exit 2; }
kernel=$1 name=$2 series=$3
case $kernel in
patched-6.1 | stock-6.1) version=6.1 frag=lbs-6.1.config ;;
ref-6.12) version=6.12 frag=ref-6.12.config ;;
*) echo "kernel-image.sh: unknown kernel '$kernel' (patched-6.1, stock-6.1, ref-6.12)" >&2; exit 2 ;;
esac
[ -d "$series" ] || { echo "kernel-image.sh: no series directory $series" >&2; exit 2; }
fragment=$ROOT/kernel-glue/config/$frag
if [ -n "$nolockdep" ]; then
	mkdir -p "$BUILD/kernel"
	fragment=$BUILD/kernel/nolockdep-$frag
	sed 's/^CONFIG_PROVE_LOCKING=y$/# CONFIG_PROVE_LOCKING is not set/' \
		"$ROOT/kernel-glue/config/$frag" >"$fragment.tmp"
	grep -q '^# CONFIG_PROVE_LOCKING is not set$' "$fragment.tmp" ||
		{ echo "kernel-image.sh: $frag has no CONFIG_PROVE_LOCKING=y line to turn off" >&2; exit 1; }
	mv "$fragment.tmp" "$fragment"
fi
# linux-tree.sh resets the worktree and applies the series again: two runs
# on one worktree (a LOCKDEP=0 run beside its twin) take turns, and the
# lock stays held (fd 8, through exec) until the build has read the tree
mkdir -p "$BUILD/linux"
exec 8>"$BUILD/linux/$name.lock"
flock 8
tree=$("$ROOT/scripts/linux-tree.sh" --version "$version" worktree "$name" "$series") || exit 1
# shellcheck disable=SC2086
exec "$HERE/build-kernel.sh" "$tree" "$BUILD/kernel/$name$suffix" "$fragment" $extra
