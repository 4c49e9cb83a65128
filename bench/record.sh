# SPDX-License-Identifier: GPL-2.0
# Sourced by bench/sim-bench.sh and bench/fuse-bench.sh: run the script
# again with its output shown and kept, and keep a run that ended well as
# a record, bench/records/STAMP-NAME.txt (or $LBS_BENCH_RECORDS/...), for
# bench/user-summary.py.  The record starts with "# run", "# project" and
# "# load" lines (the machine's load average at start and end: these
# benchmarks time wall clock, so a busy machine shows in them).
#   bench_record NAME SCRIPT ARGS...   returns only in the inner run
# RECORD=0: run without keeping a record.
bench_record() {
	if [ -n "${LBS_BENCH_INNER:-}" ] || [ "${RECORD:-1}" = 0 ]; then
		return 0
	fi
	_name=$1 _script=$2
	shift 2
	_top=$(cd "$(dirname "$_script")/.." && pwd)
	_dir=${LBS_BENCH_RECORDS:-$_top/bench/records}
	_stamp=$(date -u +%Y%m%dT%H%M%SZ)
	_rec=$_dir/$_stamp-$_name.txt
	_tmp=$(mktemp)
	_st=$(mktemp)
	_commit=$(git -C "$_top" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
	[ -z "$(git -C "$_top" status --porcelain --untracked-files=no 2>/dev/null)" ] || _commit=$_commit+
	_load0=$(cut -d' ' -f1-3 /proc/loadavg)
	{
		_rc=0
		LBS_BENCH_INNER=1 sh "$_script" "$@" || _rc=$?
		echo "$_rc" >"$_st"
	} 2>&1 | tee "$_tmp"
	_rc=$(cat "$_st")
	if [ "$_rc" = 0 ]; then
		mkdir -p "$_dir"
		{
			echo "# run $_stamp $_name"
			echo "# project $_commit"
			echo "# load $_load0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end, $(nproc) cpus"
			cat "$_tmp"
		} >"$_rec"
		echo "record: $_rec (then: make bench-summary)"
	else
		echo "exit $_rc: no record kept" >&2
	fi
	rm -f "$_tmp" "$_st"
	exit "$_rc"
}
