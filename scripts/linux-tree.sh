#!/bin/sh
# Manage the Linux source trees used by the kernel side of the project
# (the 6.1 target tree, and other versions such as the 6.12 reference).
#
#   linux-tree.sh [--version V] pristine | worktree NAME SERIES_DIR
#       --version V (or LBS_LINUX_VERSION=V; default 6.1) picks the tarball
#       /usr/src/linux-source-V.tar.xz. Version 6.1 uses the repo
#       $LBS_BUILD/linux/pristine; any other version $LBS_BUILD/linux/pristine-V.
#       Worktrees always live at $LBS_BUILD/linux/NAME; a worktree NAME that
#       belongs to another version's repo is an error.
#
#   linux-tree.sh pristine
#       Ensure a git repo of Debian's /usr/src/linux-source-6.1.tar.xz at
#       $LBS_BUILD/linux/pristine, one commit with a fixed author/date
#       (deterministic hash), tagged "pristine". Fast no-op when the tag exists.
#       Prints the path.
#
#   linux-tree.sh worktree NAME SERIES_DIR
#       Make (or reset) $LBS_BUILD/linux/NAME as a worktree of the pristine
#       repo at tag "pristine", then "git am" SERIES_DIR/0*.patch in order,
#       skipping the cover letter 0000-*. An empty SERIES_DIR gives a pristine
#       worktree. Commits get a fixed committer and committer date = author
#       date, so the same series always yields the same HEAD. Prints the path.
#
# Environment: LBS_BUILD (default <repo>/build; relative paths are taken
# relative to the repo root), LBS_LINUX_TARBALL (default
# /usr/src/linux-source-V.tar.xz), LBS_LINUX_VERSION (default 6.1).
set -eu

VERSION=${LBS_LINUX_VERSION:-6.1}
if [ "${1:-}" = --version ]; then
	[ $# -ge 2 ] || { echo "linux-tree.sh: error: --version needs a value" >&2; exit 1; }
	VERSION=$2
	shift 2
fi
case $VERSION in
'' | *[!0-9.]* | .*) echo "linux-tree.sh: error: bad version '$VERSION'" >&2; exit 1 ;;
esac

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${LBS_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
TARBALL=${LBS_LINUX_TARBALL:-/usr/src/linux-source-$VERSION.tar.xz}
LINUX=$BUILD/linux
if [ "$VERSION" = 6.1 ]; then PRISTINE=$LINUX/pristine; else PRISTINE=$LINUX/pristine-$VERSION; fi

# Fixed identity so that commits (and hence hashes) are reproducible.
export GIT_AUTHOR_NAME="lbs pristine" GIT_AUTHOR_EMAIL="lbs@localhost"
export GIT_COMMITTER_NAME="lbs" GIT_COMMITTER_EMAIL="lbs@localhost"
FIXED_DATE="2000-01-01T00:00:00+0000"

die() { echo "linux-tree.sh: error: $*" >&2; exit 1; }
note() { echo "linux-tree.sh: $*" >&2; }

# git with settings that must not depend on the user's configuration.
g() {
	git -c core.autocrlf=false -c core.safecrlf=false -c core.excludesFile=/dev/null \
		-c gc.auto=0 -c advice.detachedHead=false "$@"
}

tarball_id() {
	# size and mtime are enough to notice a Debian update of linux-source-V
	stat -c '%s %Y' "$TARBALL"
}

cmd_pristine() {
	[ -f "$TARBALL" ] || die "$TARBALL not found (apt-get install linux-source-$VERSION)"
	if g -C "$PRISTINE" rev-parse -q --verify refs/tags/pristine >/dev/null 2>&1; then
		if [ "$(cat "$PRISTINE/.git/lbs-tarball-id" 2>/dev/null)" != "$(tarball_id)" ]; then
			note "warning: $TARBALL changed since $PRISTINE was made;" \
				"remove $LINUX to recreate it"
		fi
		echo "$PRISTINE"
		return 0
	fi
	[ ! -e "$PRISTINE" ] || die "$PRISTINE exists but has no 'pristine' tag (interrupted run?); remove it and retry"

	start=$(date +%s)
	mkdir -p "$LINUX"
	tmp=$LINUX/.pristine.tmp.$$
	rm -rf "$tmp"
	mkdir "$tmp"
	trap 'rm -rf "$tmp"' EXIT INT TERM
	note "unpacking $TARBALL"
	tar -C "$tmp" --strip-components=1 -xJf "$TARBALL"
	nfiles=$(cd "$tmp" && find . \( -type f -o -type l \) | wc -l)
	g -C "$tmp" init -q -b master
	# Keep settings in the repo too, so later plain "git" calls behave the same.
	g -C "$tmp" config core.autocrlf false
	g -C "$tmp" config gc.auto 0
	note "committing $nfiles files"
	g -C "$tmp" add -f -A .
	GIT_AUTHOR_DATE=$FIXED_DATE GIT_COMMITTER_DATE=$FIXED_DATE \
		g -C "$tmp" commit -q --no-verify -m "linux-source-$VERSION (pristine, from $(basename "$TARBALL"))"
	g -C "$tmp" tag pristine

	# The commit must hold exactly the unpacked tarball.
	dirty=$(g -C "$tmp" status --porcelain --ignored --untracked-files=all)
	[ -z "$dirty" ] || die "pristine commit does not match the tarball:
$(echo "$dirty" | head -20)"
	ntracked=$(g -C "$tmp" ls-files | wc -l)
	[ "$ntracked" -eq "$nfiles" ] || die "tracked $ntracked files but tarball has $nfiles"
	nempty=$(cd "$tmp" && find . -path ./.git -prune -o -type d -empty -print | wc -l)
	[ "$nempty" -eq 0 ] || note "note: $nempty empty directories in the tarball are not tracked by git"

	tarball_id >"$tmp/.git/lbs-tarball-id"
	mv "$tmp" "$PRISTINE"
	trap - EXIT INT TERM
	note "pristine $(g -C "$PRISTINE" rev-parse --short pristine) created in $(($(date +%s) - start))s"
	echo "$PRISTINE"
}

cmd_worktree() {
	[ $# -eq 2 ] || die "usage: linux-tree.sh worktree NAME SERIES_DIR"
	name=$1 series=$2
	case $name in
	'' | pristine | pristine-* | *[!A-Za-z0-9._-]* | .*) die "bad worktree name '$name'" ;;
	esac
	[ -d "$series" ] || die "series dir '$series' does not exist"
	series=$(cd "$series" && pwd)
	cmd_pristine >/dev/null
	wt=$LINUX/$name

	set --
	for p in "$series"/0*.patch; do
		[ -e "$p" ] || continue
		case ${p##*/} in 0000-*) continue ;; esac
		set -- "$@" "$p"
	done
	# what the worktree must hold: these patches on the pristine commit
	want="$(g -C "$PRISTINE" rev-parse pristine) $(cat /dev/null "$@" | sha256sum | cut -d' ' -f1)"
	if [ -e "$wt/.git" ] && g -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		common=$(cd "$(g -C "$wt" rev-parse --path-format=absolute --git-common-dir)" && pwd -P)
		[ "$common" = "$(cd "$PRISTINE/.git" && pwd -P)" ] ||
			die "worktree $wt belongs to $common, not to $PRISTINE (version $VERSION); remove it"
		# Already the series, clean: leave every file (and mtime) as it
		# is, so a kernel built from it needs no rebuild at all
		idfile=$(g -C "$wt" rev-parse --path-format=absolute --git-path lbs-series-id)
		if [ "$(cat "$idfile" 2>/dev/null)" = "$want $(g -C "$wt" rev-parse HEAD)" ] &&
			[ -z "$(g -C "$wt" status --porcelain --ignored --untracked-files=all)" ]; then
			note "worktree $name: $# patches already applied, HEAD $(g -C "$wt" rev-parse --short HEAD)"
			echo "$wt"
			return 0
		fi
		rm -f "$idfile"
		# Reset in place: keeps mtimes of untouched files, so O= builds stay incremental.
		g -C "$wt" am --abort >/dev/null 2>&1 || true
		g -C "$wt" checkout -q -f --detach pristine
		g -C "$wt" clean -q -ffdx
	else
		[ ! -e "$wt" ] || die "$wt exists and is not a worktree; remove it"
		g -C "$PRISTINE" worktree prune
		g -C "$PRISTINE" worktree add -q --detach "$wt" pristine
	fi

	n=$#
	if [ "$n" -gt 0 ] && ! g -C "$wt" am -q --committer-date-is-author-date "$@" >&2; then
		k=$(cat "$(g -C "$wt" rev-parse --path-format=absolute --git-path rebase-apply/next)" 2>/dev/null || echo 0)
		eval "cur=\${$k:-?}" 2>/dev/null || cur="?"
		die "git am failed on patch $k of $n: ${cur##*/} (series $series);
  worktree $wt is left in the failed 'git am' state for inspection (a rerun resets it)"
	fi
	[ "$n" -gt 0 ] || note "note: no patches in $series; worktree '$name' is pristine"
	echo "$want $(g -C "$wt" rev-parse HEAD)" >"$(g -C "$wt" rev-parse --path-format=absolute --git-path lbs-series-id)"
	note "worktree $name: $n patches applied, HEAD $(g -C "$wt" rev-parse --short HEAD)"
	echo "$wt"
}

[ $# -ge 1 ] || die "usage: linux-tree.sh [--version V] pristine | worktree NAME SERIES_DIR"
cmd=$1
shift
case $cmd in
pristine) [ $# -eq 0 ] || die "usage: linux-tree.sh pristine"; cmd_pristine ;;
worktree) cmd_worktree "$@" ;;
*) die "unknown subcommand '$cmd'" ;;
esac
