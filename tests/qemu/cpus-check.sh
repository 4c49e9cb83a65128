#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cpus-check.sh CONSOLE WANT: did the guest bring up WANT CPUs?
# Prints "pass N" or "fail WHY" and exits 0 or 1. A kernel without SMP,
# or without ACPI (QEMU lists its other CPUs only in the MADT), brings up
# one CPU under -smp 2 and a suite would pass without ever racing two.
set -eu
[ $# -eq 2 ] || { echo "usage: cpus-check.sh CONSOLE WANT" >&2; exit 2; }
con=$1 want=$2
[ -f "$con" ] || { echo "fail no console $con"; exit 1; }
got=$(tr -d '\r' <"$con" | sed -n 's/.*smp: Brought up [0-9]* nodes*, \([0-9]*\) CPUs*$/\1/p' | head -n 1)
if [ -z "$got" ] && [ "$want" = 1 ] && ! grep -q 'smp: ' "$con"; then
	echo "pass 1 (uniprocessor kernel)"
elif [ "${got:-none}" = "$want" ]; then
	echo "pass $got"
else
	echo "fail the guest brought up ${got:-an unreported number of} CPUs, -smp asked for $want"
	exit 1
fi
