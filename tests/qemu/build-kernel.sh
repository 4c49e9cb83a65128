#!/bin/sh
# Build an x86_64 bzImage out of tree:
#
#   build-kernel.sh TREE OUTDIR CONFIG_FRAGMENT...
#
# Config = `make tinyconfig` + the fragments (merge_config.sh -m, in order)
# + `make olddefconfig`; then every CONFIG_X=VALUE / "# CONFIG_X is not set"
# line of the fragments is checked against .config. A later fragment may
# override an earlier one's symbol (as merge_config.sh does): the last
# value is the one checked. Symbols that do not exist in TREE's Kconfig
# files are reported as "not in this tree" and tolerated.
#
# The build is skipped when OUTDIR/.lbs-stamp matches and bzImage exists.
# The stamp hashes TREE's HEAD, `git status --porcelain`, the exact content
# of the working tree (a git tree object), the fragments and this script.
#
# Output: the bzImage path on stdout; progress on stderr; full log in
# OUTDIR/build.log. Environment: LBS_JOBS (default: nproc).
set -eu

die() { echo "build-kernel.sh: error: $*" >&2; exit 1; }
note() { echo "build-kernel.sh: $*" >&2; }

[ $# -ge 3 ] || die "usage: build-kernel.sh TREE OUTDIR CONFIG_FRAGMENT..."
tree=$(cd "$1" && pwd) || die "no tree $1"
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
frags=""
for f in "$@"; do
	[ -f "$f" ] || die "config fragment $f not found"
	frags="$frags $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
{ [ -f "$tree/Makefile" ] && [ -d "$tree/scripts/kconfig" ]; } || die "$tree is not a kernel tree"

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
log=$out/build.log
image=$out/arch/x86/boot/bzImage
jobs=${LBS_JOBS:-$(nproc)}
# Reproducible version banner.
export KBUILD_BUILD_USER=lbs KBUILD_BUILD_HOST=lbs KBUILD_BUILD_TIMESTAMP="2000-01-01 00:00:00 UTC"
kmake() { make -C "$tree" O="$out" ARCH=x86_64 "$@"; }

# ---- stamp ---------------------------------------------------------------
tree_state() {
	if git -C "$tree" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		echo "HEAD $(git -C "$tree" rev-parse HEAD)"
		git -C "$tree" status --porcelain --ignored --untracked-files=all
		# Exact content of the working tree, via a throw-away index.
		idx=$(mktemp)
		cp "$(git -C "$tree" rev-parse --path-format=absolute --git-path index)" "$idx"
		echo "TREE $(GIT_INDEX_FILE=$idx git -C "$tree" -c core.autocrlf=false add -f -A . &&
			GIT_INDEX_FILE=$idx git -C "$tree" write-tree)"
		rm -f "$idx"
	else
		echo "NOGIT $tree"  # not a git tree: always rebuild
		date +%s%N
	fi
}
stamp=$({
	tree_state
	for f in $frags; do echo "FRAGMENT $(basename "$f")"; cat "$f"; done
	echo "SCRIPT"; cat "$self"
	echo "CC $(${CC:-gcc} --version | head -1)"
} | sha256sum | cut -d' ' -f1)

if [ -f "$image" ] && [ "$(cat "$out/.lbs-stamp" 2>/dev/null)" = "$stamp" ]; then
	note "up to date ($image, stamp ${stamp%"${stamp#????????????}"})"
	echo "$image"
	exit 0
fi
rm -f "$out/.lbs-stamp"

# ---- configure -----------------------------------------------------------
start=$(date +%s)
: >"$log"
note "configuring in $out (tinyconfig +$(for f in $frags; do printf ' %s' "$(basename "$f")"; done))"
logstart=1
fail() { # print the errors and a short tail of the current step, then die
	if sed -n "$logstart,\$p" "$log" | grep -q -E 'error:|Error [0-9]'; then
		echo "---- errors ----" >&2
		sed -n "$logstart,\$p" "$log" | grep -E 'error:' | head -n 10 >&2
	fi
	echo "---- last lines of $log ----" >&2
	sed -n "$logstart,\$p" "$log" | tail -n 12 >&2
	die "$1 (full log: $log)"
}
kmake tinyconfig >>"$log" 2>&1 || fail "make tinyconfig failed"
# shellcheck disable=SC2086
(cd "$out" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags) \
	>>"$log" 2>&1 || fail "merge_config.sh failed"
kmake olddefconfig >>"$log" 2>&1 || fail "make olddefconfig failed"

# ---- verify the fragments survived ---------------------------------------
in_tree() { grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config[[:space:]]+$1[[:space:]]*\$" "$tree"; }
missing="" absent=""
# shellcheck disable=SC2086
for line in $(sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
	-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set.*/\1=n/p' $frags | tr -d ' ' |
	awk -F= '{ v[$1] = $0 } END { for (s in v) print v[s] }' | sort); do
	sym=${line%%=*} want=${line#*=}
	have=$(sed -n "s/^$sym=//p" "$out/.config")
	[ -n "$have" ] || have=n
	[ "$have" = "$want" ] && continue
	if in_tree "${sym#CONFIG_}"; then
		missing="$missing $sym"
		echo "build-kernel.sh:   $sym: fragment wants '$want', .config has '$have'" >&2
	else
		absent="$absent $sym"
	fi
done
[ -z "$absent" ] || note "not in this tree (ignored):$absent"
[ -z "$missing" ] || die "config symbols lost after olddefconfig (unmet dependencies?):$missing"
note "config verified ($(grep -c '^CONFIG_.*=y' "$out/.config") symbols =y)"

# ---- build ---------------------------------------------------------------
note "building bzImage with -j$jobs (log: $log)"
logstart=$(($(wc -l <"$log") + 1))
kmake -j"$jobs" bzImage >>"$log" 2>&1 || fail "kernel build failed"
[ -f "$image" ] || fail "build finished but $image is missing"
echo "$stamp" >"$out/.lbs-stamp"
note "built $(cat "$out/include/config/kernel.release" 2>/dev/null) in $(($(date +%s) - start))s wall"
echo "$image"
