#!/bin/sh
# Build the kernel patch series for Debian's linux-source-6.1.
#
#   mkseries.sh [OUTDIR]      (default: build/kernel-patch)
#
# For every step in kernel-glue/series/NNNN-*/ in order: copy in the kernel
# form of core/ that the step lists in "generated" (from kpatch-gen), apply
# the step's hand-written glue.diff, and commit it with the step's message
# on top of the pristine tree.  Then write the series with git format-patch
# plus a cover letter (a step's optional "author" file names the author of
# a backported upstream fix), and check it: checkpatch.pl --strict must report no
# errors, warnings or checks, kernel-doc must be clean on the generated
# files, and the series must apply with git am to a fresh pristine tree.
# Everything is deterministic: fixed identities and dates.
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${LBS_BUILD:-$TOP/build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
OUT=${1:-$BUILD/kernel-patch}
SERIES=$TOP/kernel-glue/series
GEN=$BUILD/kgen
WT=$BUILD/linux/series
AM=$BUILD/linux/am-check

die() { echo "mkseries: error: $*" >&2; exit 1; }
note() { echo "mkseries: $*" >&2; }

export GIT_AUTHOR_NAME="lbs developers" GIT_AUTHOR_EMAIL="lbs@localhost"
export GIT_COMMITTER_NAME="lbs developers" GIT_COMMITTER_EMAIL="lbs@localhost"
g() {
	git -c core.autocrlf=false -c gc.auto=0 -c advice.detachedHead=false \
		-c format.signature= -c format.numbered=auto "$@"
}

# A clean worktree at the pristine tag.  An existing one is reset in place,
# which touches only the files the last series changed.
fresh_worktree() {
	if [ -f "$1/.git" ] && g -C "$1" rev-parse -q --verify HEAD >/dev/null; then
		g -C "$1" am --abort >/dev/null 2>&1 || true
		g -C "$1" checkout -q -f --detach pristine
		g -C "$1" clean -q -f -d -x
		return 0
	fi
	rm -rf "$1"
	g -C "$PRISTINE" worktree prune
	g -C "$PRISTINE" worktree add -q --detach "$1" pristine
}

# checkpatch runs scripts/spdxcheck.py with "python3", which needs
# Debian's python3-ply: prefer the system interpreter.
PATH=/usr/bin:/bin:$PATH
export PATH

PRISTINE=$("$TOP/scripts/linux-tree.sh" pristine)

rm -rf "$GEN"
python3 "$TOP/kpatch-gen/kgen.py" --src "$TOP" --out "$GEN" \
	${LBS_VECTORS:+--vectors "$LBS_VECTORS"} ||
	die "kpatch-gen failed"

fresh_worktree "$WT"
n=0
for step in "$SERIES"/[0-9][0-9][0-9][0-9]-*/; do
	step=${step%/}
	name=$(basename "$step")
	[ -f "$step/message" ] || die "$name: no message"
	if [ -f "$step/generated" ]; then
		while read -r f; do
			[ -n "$f" ] || continue
			[ -f "$GEN/$f" ] || die "$name: kpatch-gen did not make $f"
			mkdir -p "$WT/$(dirname "$f")"
			cp "$GEN/$f" "$WT/$f"
			# -f: Debian's top-level .gitignore ignores everything
			g -C "$WT" add -f -- "$f"
		done <"$step/generated"
	fi
	for d in "$step"/*.diff; do
		[ -e "$d" ] || continue
		g -C "$WT" apply --index --whitespace=error-all "$d" ||
			die "$name: $(basename "$d") does not apply"
	done
	n=$((n + 1))
	date="2026-01-01T00:$(printf %02d $n):00+0000"
	# a backported upstream fix keeps its author (step/author: "Name <email>")
	author="$GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
	[ ! -f "$step/author" ] || author=$(head -n 1 "$step/author")
	case $author in *" <"*@*">") ;; *) die "$name: bad author '$author'" ;; esac
	GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		g -C "$WT" commit -q --author="$author" -F "$step/message" ||
		die "$name: nothing to commit"
done
[ "$n" -gt 0 ] || die "no steps in $SERIES"

rm -rf "$OUT"
mkdir -p "$OUT"
g -C "$WT" format-patch -q --cover-letter --subject-prefix="RFC PATCH" \
	--no-signature --base=pristine -o "$OUT" pristine..HEAD

# Fill the cover letter: first line of cover-letter is the subject.
cover=$(ls "$OUT"/0000-*.patch)
python3 - "$cover" "$SERIES/cover-letter" "$(g -C "$WT" log -1 --format=%aD)" <<'PY'
import re, sys
path, src, date = sys.argv[1], sys.argv[2], sys.argv[3]
with open(src, encoding="utf-8") as f:
    subject, _, blurb = f.read().partition("\n")
with open(path, encoding="utf-8") as f:
    text = f.read()
for marker, repl in (("*** SUBJECT HERE ***", subject.strip()),
                     ("*** BLURB HERE ***", blurb.strip("\n"))):
    if marker not in text:
        sys.exit("cover letter template has no %r" % marker)
    text = text.replace(marker, repl)
# format-patch dates the cover letter "now"; use the last patch's date so
# the series is byte-for-byte reproducible
text = re.sub(r"(?m)^Date: .*$", "Date: " + date, text, count=1)
with open(path, "w", encoding="utf-8") as f:
    f.write(text)
PY

# checkpatch --strict: nothing at all may be reported.  The tree is
# Debian's tarball in one commit, without Linux's history, so the upstream
# ids of backports ("commit X upstream", Fixes:) cannot be looked up there:
# UNKNOWN_COMMIT_ID is the one check left out.
fail=0
for p in "$OUT"/0*.patch; do
	case $(basename "$p") in 0000-*) continue ;; esac
	res=$(cd "$WT" && ./scripts/checkpatch.pl --strict --ignore UNKNOWN_COMMIT_ID "$p" 2>&1) || true
	case $res in
	*"total: 0 errors, 0 warnings, 0 checks,"*) ;;
	*) echo "$res"; echo "checkpatch: $(basename "$p") is not clean" >&2; fail=1 ;;
	esac
done
[ "$fail" -eq 0 ] || die "checkpatch --strict is not clean"

# kernel-doc on the generated files
kd=$(cd "$WT" && while read -r f; do
	case $f in *.c|*.h) ./scripts/kernel-doc -none "$f" 2>&1 ;; esac
done <<EOF2
$(cat "$SERIES"/*/generated)
EOF2
)
[ -z "$kd" ] || { echo "$kd"; die "kernel-doc warnings"; }

# the series must apply with git am on a fresh pristine tree
fresh_worktree "$AM"
set --
for p in "$OUT"/0*.patch; do
	case $(basename "$p") in 0000-*) ;; *) set -- "$@" "$p" ;; esac
done
g -C "$AM" am -q "$@" || die "series does not apply with git am to pristine"
[ -z "$(g -C "$AM" diff HEAD "$(g -C "$WT" rev-parse HEAD)" --stat)" ] ||
	die "git am result differs from the series tree"

# the negative controls and stress knobs apply to the series, so a change
# to it that moves their context fails here, not an hour into CI's
# check-controls
for k in "$TOP"/kernel-glue/selftest-6.1/*.patch "$TOP"/kernel-glue/stress-6.1/*.patch; do
	[ -f "$k" ] || continue
	g -C "$AM" apply --check "$k" 2>/dev/null ||
		die "${k#"$TOP"/} no longer applies to the series: refresh it against $AM"
done

note "$n patches + cover letter, checkpatch --strict clean, git am OK"
echo "$OUT"
