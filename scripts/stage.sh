#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run one stage of make check and say how long it took, pass or fail:
#   stage.sh NAME COMMAND...
# so every make check log (CI's too) shows where the time goes.
[ $# -ge 2 ] || { echo "stage.sh: usage: stage.sh NAME COMMAND..." >&2; exit 2; }
name=$1
shift
t0=$(date +%s)
"$@"
rc=$?
t=$(($(date +%s) - t0))
if [ $rc -eq 0 ]; then
	echo "stage $name: done in ${t}s wall"
else
	echo "stage $name: FAILED (exit $rc) after ${t}s wall"
fi
exit $rc
