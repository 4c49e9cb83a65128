#!/bin/sh
# The guest kernel of the QEMU suites:
#
#   kernel-image.sh [--fstests] [--no-lockdep] [--bench] KERNEL NAME SERIES_DIR
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
# tests/fstests/run-fstests.sh. --no-lockdep adds
# kernel-glue/config/no-lockdep.config (the same kernel, PROVE_LOCKING off:
# what lockdep costs), suffix -nolockdep; --bench adds
# kernel-glue/config/bench.config (no XFS_DEBUG, lockdep or KUnit; THP and
# perf: make bench-kernel), suffix -bench. Those two fragments come last
# and override the test fragment. build-kernel.sh rebuilds only when tree,
# patches or config change. The tree's HEAD is written to .lbs-tree-head
# in the kernel directory.
# Prints the bzImage path; exit 1 on a failed build (log: build.log in the
# kernel directory), 2 on bad arguments.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
export LBS_BUILD="$BUILD"
extra="" suffix=""
while :; do
	case ${1:-} in
	--fstests) extra="$extra $ROOT/kernel-glue/config/fstests.config" suffix=$suffix-fstests ;;
	--no-lockdep) extra="$extra $ROOT/kernel-glue/config/no-lockdep.config" suffix=$suffix-nolockdep ;;
	--bench) extra="$extra $ROOT/kernel-glue/config/bench.config" suffix=$suffix-bench ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 3 ] || { echo "usage: kernel-image.sh [--fstests] [--no-lockdep] [--bench] KERNEL NAME SERIES_DIR" >&2; exit 2; }
kernel=$1 name=$2 series=$3
case $kernel in
patched-6.1 | stock-6.1) version=6.1 frag=lbs-6.1.config ;;
ref-6.12) version=6.12 frag=ref-6.12.config ;;
*) echo "kernel-image.sh: unknown kernel '$kernel' (patched-6.1, stock-6.1, ref-6.12)" >&2; exit 2 ;;
esac
[ -d "$series" ] || { echo "kernel-image.sh: no series directory $series" >&2; exit 2; }
# linux-tree.sh resets the worktree and applies the series again: two runs
# on one worktree (a LOCKDEP=0 run beside its twin) take turns, and the
# lock stays held (fd 8, through exec) until the build is done
mkdir -p "$BUILD/linux"
exec 8>"$BUILD/linux/$name.lock"
flock 8
tree=$("$ROOT/scripts/linux-tree.sh" --version "$version" worktree "$name" "$series") || exit 1
# the tree's HEAD names the series built (the fstests records' series):
# read here, under the lock, because a run beside this one resets the tree
mkdir -p "$BUILD/kernel/$name$suffix"
git -C "$tree" rev-parse HEAD >"$BUILD/kernel/$name$suffix/.lbs-tree-head"
# shellcheck disable=SC2086
exec "$HERE/build-kernel.sh" "$tree" "$BUILD/kernel/$name$suffix" \
	"$ROOT/kernel-glue/config/$frag" $extra
