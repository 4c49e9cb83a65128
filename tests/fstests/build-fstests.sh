#!/bin/sh
# Build fstests (xfstests) on the host from the shared snapshot:
#
#   build-fstests.sh [OUTDIR]
#
# Unpacks $LBS_FSTESTS_TARBALL (default ../shared/fstests/fstests-63a29724.tar.xz
# next to the repository) into OUTDIR (default $LBS_BUILD/fstests-src) and runs
# `make` there (fstests runs its own configure). The guest runs `check` from
# this directory over 9p, so it is built against the host's libraries.
# Skipped when OUTDIR/.lbs-stamp names the same tarball. The build fails if
# ltp/fsx, src/dbtest or src/aio-dio-regress helpers are missing afterwards
# (dbtest is silently skipped without gawk and libgdbm-compat-dev).
# Serialised by flock on OUTDIR.lock. Prints OUTDIR on stdout; the log is
# OUTDIR.log.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
TARBALL=${LBS_FSTESTS_TARBALL:-$(cd "$ROOT/.." && pwd)/shared/fstests/fstests-63a29724.tar.xz}
out=${1:-$BUILD/fstests-src}

die() { echo "build-fstests.sh: error: $*" >&2; exit 1; }
note() { echo "build-fstests.sh: $*" >&2; }

[ -f "$TARBALL" ] || die "$TARBALL not found (see ../shared/fstests/README.md)"
# two `make fstests` started together must not unpack over each other
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
stamp="$(basename "$TARBALL") $(stat -c '%s %Y' "$TARBALL") $(sha256sum "$0" | cut -c1-16)"
if [ -x "$out/check" ] && [ "$(cat "$out/.lbs-stamp" 2>/dev/null)" = "$stamp" ]; then
	note "up to date ($out)"
	echo "$out"
	exit 0
fi

# the build silently drops helpers when these are missing: refuse instead
for p in gawk libgdbm-compat-dev xfslibs-dev libaio-dev liburing-dev autoconf libtool; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		die "package $p is missing (run scripts/install-deps.sh)"
done

start=$(date +%s)
rm -rf "$out"
mkdir -p "$out"
tar -C "$out" --strip-components=1 -xJf "$TARBALL"
log=$out.log
note "building in $out (log: $log)"
make -C "$out" -j"${LBS_JOBS:-$(nproc)}" >"$log" 2>&1 || {
	tail -n 20 "$log" >&2
	die "make failed (full log: $log)"
}
for f in ltp/fsx ltp/fsstress src/dbtest src/aio-dio-regress/aio-dio-invalidate-failure src/xfsctl; do
	[ -x "$out/$f" ] || die "$f was not built (see $log)"
done
echo "$stamp" >"$out/.lbs-stamp"
note "built in $(($(date +%s) - start))s"
echo "$out"
