#!/bin/sh
# Copy the hand-written part of a kernel development branch back into the
# series steps (a developer tool; mkseries.sh does not use it).
#
#   export-glue.sh TREE BASE [FIRST]
#
# TREE is a git worktree of the kernel (e.g. build/linux/dev) whose commits
# BASE..HEAD are the glue steps FIRST, FIRST+1, ... (FIRST defaults to the
# first step with no generated files after BASE's own steps).  Each commit's
# diff becomes kernel-glue/series/NNNN-*/glue.diff of the step with that
# number, which must already exist with its message.  Generated files may
# not appear in these commits: they come from kpatch-gen.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
SERIES=$TOP/kernel-glue/series
die() { echo "export-glue: error: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: export-glue.sh TREE BASE [FIRST]"
tree=$1 base=$2 first=${3:-}
commits=$(git -C "$tree" rev-list --reverse "$base..HEAD") || die "bad range $base..HEAD in $tree"
[ -n "$commits" ] || die "no commits in $base..HEAD"
if [ -z "$first" ]; then
	first=$(git -C "$tree" rev-list --count "$(git -C "$tree" rev-list --max-parents=0 "$base")..$base")
	first=$((first + 1))
fi
gen=$(cat "$SERIES"/*/generated 2>/dev/null | sort -u)
n=$first
for c in $commits; do
	num=$(printf %04d "$n")
	set -- "$SERIES/$num"-*/
	[ -d "$1" ] || die "no step $num-* for $(git -C "$tree" log -1 --format=%s "$c")"
	step=${1%/}
	[ -f "$step/message" ] || die "$step has no message"
	for f in $(git -C "$tree" diff-tree --no-commit-id --name-only -r "$c"); do
		if printf '%s\n' "$gen" | grep -qx "$f"; then
			die "$c touches generated file $f"
		fi
	done
	git -C "$tree" diff --no-color "$c^" "$c" >"$step/glue.diff"
	echo "$(basename "$step"): $(git -C "$tree" log -1 --format=%s "$c")"
	n=$((n + 1))
done
