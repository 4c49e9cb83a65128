#!/bin/sh
# Prove the series bisectable: build the kernel after every patch.
#
#   build-each.sh [--from NNNN] [SERIES_DIR]   (default $LBS_BUILD/kernel-patch)
#
# --from NNNN: apply the patches before NNNN without building (the
# patches a series change did not touch) and build after NNNN and each
# one after it; the report says where it started.
#
# Applies the patches one at a time with git am to a worktree
# ($LBS_BUILD/linux/build-each) and runs an incremental `make bzImage`
# with kernel-glue/config/lbs-6.1.config (tinyconfig base) after each, in
# one object directory.  Writes $LBS_BUILD/build-each/report.txt, one
# "NNNN subject: pass|fail (Ns)" line per patch, and exits non-zero if any
# patch fails to build.  Build logs: $LBS_BUILD/build-each/NNNN.log.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${LBS_BUILD:-$TOP/build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
export LBS_BUILD="$BUILD"
from=0001
if [ "${1:-}" = --from ]; then
	case ${2:-} in [0-9][0-9][0-9][0-9]) from=$2 ;; *) echo "build-each: error: --from takes a patch number, NNNN" >&2; exit 2 ;; esac
	shift 2
fi
SERIES=${1:-$BUILD/kernel-patch}
OUT=$BUILD/build-each
die() { echo "build-each: error: $*" >&2; exit 1; }
ls "$SERIES"/0[0-9][0-9][0-9]-*.patch >/dev/null 2>&1 || die "no patches in $SERIES (make kernel-patch)"
ls "$SERIES/$from"-*.patch >/dev/null 2>&1 || die "no patch $from in $SERIES"
mkdir -p "$OUT/empty"
tree=$("$TOP/scripts/linux-tree.sh" worktree build-each "$OUT/empty")
obj=$OUT/obj
mkdir -p "$obj"
export GIT_COMMITTER_NAME=lbs GIT_COMMITTER_EMAIL=lbs@localhost
echo "# built after each patch from $from on ($(ls "$SERIES"/0[0-9][0-9][0-9]-*.patch | grep -vc /0000-) patches)" >"$OUT/report.txt"
fail=0
for p in "$SERIES"/0[0-9][0-9][0-9]-*.patch; do
	n=$(basename "$p" | cut -c1-4)
	[ "$n" = 0000 ] && continue
	git -C "$tree" am -q "$p" || die "patch $n does not apply"
	subj=$(git -C "$tree" log -1 --format=%s)
	[ "$n" -ge "$from" ] || continue
	t0=$(date +%s)
	# build-kernel.sh configures (tinyconfig + fragment) and builds
	# incrementally in the same object directory
	if "$TOP/tests/qemu/build-kernel.sh" "$tree" "$obj" \
		"$TOP/kernel-glue/config/lbs-6.1.config" >"$OUT/$n.log" 2>&1; then
		r=pass
	else
		r=fail fail=1
	fi
	line="$n $subj: $r ($(($(date +%s) - t0))s)"
	echo "$line" | tee -a "$OUT/report.txt"
done
exit $fail
