# shellcheck shell=sh disable=SC2034
# The folio census and the memory fragmenter, sourced (POSIX sh) by the
# three guests that run workloads on the test kernels: the verification
# suite (tests/guest/run-suite.sh, busybox), real fstests
# (tests/fstests/guest-run.sh, the host's bash) and the benchmark
# (bench/kernel-fio-guest.sh, busybox).
#
# The census: page cache folios added by order
# (filemap:mm_filemap_add_to_page_cache) on the filesystems a filter on
# s_dev picks, and page allocations above order 1 that failed
# (kmem:mm_page_alloc without a page), counted by hist triggers between
# census_start and census_verdict.

TRACE=/sys/kernel/tracing
CEV=$TRACE/events/filemap/mm_filemap_add_to_page_cache
CAL=$TRACE/events/kmem/mm_page_alloc
CTRIG="" ATRIG="hist:keys=order:vals=hitcount if order > 1 && pfn == 18446744073709551615"

# census_start FILTER: count the folios of the filesystems whose s_dev
# FILTER (a hist filter, "s_dev == 265289728") admits; 1 without tracefs
census_start() {
	[ -d $TRACE/events ] || mount -t tracefs nodev $TRACE 2>/dev/null
	census_stop
	CTRIG="hist:keys=order:vals=hitcount if $1"
	echo "$CTRIG" >$CEV/trigger 2>/dev/null && echo "$ATRIG" >$CAL/trigger 2>/dev/null && return 0
	census_stop
	return 1
}

# census_start_dev DEV: the census of the filesystem on block device DEV
census_start_dev() {
	# shellcheck disable=SC2046
	set -- $(stat -L -c '%t %T' "$1")
	census_start "s_dev == $(( (0x$1 << 20) | 0x$2 ))"
}

census_stop() {
	[ -z "$CTRIG" ] || echo "!$CTRIG" >$CEV/trigger 2>/dev/null
	echo "!$ATRIG" >$CAL/trigger 2>/dev/null
	CTRIG=""
}

# "order:count ..." from a hist file
census_counts() {
	sed -n 's/^{ order: *\([0-9]*\) } hitcount: *\([0-9]*\)$/\1:\2/p' "$1" | sort -n | tr '\n' ' ' | sed 's/ $//'
}

# census_verdict BS KERNEL FRAG [few]: stop the census and judge it into
# CENSUS_ST (pass or fail) and CENSUS_WHY.  With blocks larger than pages
# a large folio must hold whole blocks: order 0 or at least
# max(block order, 2).  The patched kernel must have run both regimes,
# large folios of whole blocks and blocks of pages (not with "few": a
# handful of named tests is no campaign); every kernel must have made no
# folio of an order between 1 and the block's; with memory fragmented
# (FRAG not empty) some large allocation must have failed.
census_verdict() {
	if [ -z "$CTRIG" ]; then
		CENSUS_ST=fail CENSUS_WHY="no folio census: tracefs hist triggers unavailable"
		return
	fi
	f=$(census_counts $CEV/hist) a=$(census_counts $CAL/hist)
	census_stop
	bo=0 b=$1
	while [ "$b" -gt 4096 ]; do b=$((b / 2)) bo=$((bo + 1)); done
	# m counted here, not asked of core: the census checks core's rule
	m=$bo
	[ "$m" -ge 2 ] || m=2
	CENSUS_WHY="folios by order: ${f:-none}; failed allocations above order 1: ${a:-none}"
	large=0 small=0 bad="" fell=0
	# readahead's failed large allocations: orders m to 8 (huge pages,
	# order 9 and up, are lbs-frag's and khugepaged's)
	for oc in $a; do
		o=${oc%%:*} c=${oc#*:}
		[ "$o" -lt "$m" ] || [ "$o" -gt 8 ] || fell=$((fell + c))
	done
	for oc in $f; do
		o=${oc%%:*} c=${oc#*:}
		if [ "$o" = 0 ]; then small=$((small + c))
		elif [ "$o" -ge "$m" ]; then large=$((large + c))
		elif [ "$bo" -gt 0 ]; then bad="$bad $o"
		fi
	done
	CENSUS_ST=fail
	if [ -n "$bad" ]; then
		CENSUS_WHY="folios of orders$bad hold part of a block: $CENSUS_WHY"
	elif [ "$bo" -gt 0 ] && [ "$large" = 0 ] && [ "${4:-}" != few ]; then
		CENSUS_WHY="no large folio of whole blocks: $CENSUS_WHY"
	elif [ "$bo" -gt 0 ] && [ "$2" = patched-6.1 ] && [ "$small" = 0 ] && [ "${4:-}" != few ]; then
		CENSUS_WHY="no block made of pages: $CENSUS_WHY"
	elif [ -n "$3" ] && [ "$fell" = 0 ]; then
		CENSUS_WHY="memory fragmented, yet no allocation of orders $m to 8 failed: $CENSUS_WHY"
	else
		CENSUS_ST=pass
	fi
}

# frag_start PERCENT: hold that share of free memory fragmented
# (tests/guest/frag.c, $LBS_FRAG_BIN or lbs-frag on PATH) until
# frag_stop; FRAG_READY is its "LBS-FRAG: ready ..." line.  1 when it
# exited before it was ready.
FRAGPID=""
frag_start() {
	"${LBS_FRAG_BIN:-lbs-frag}" "$1" >/tmp/frag.out 2>&1 &
	FRAGPID=$!
	while kill -0 "$FRAGPID" 2>/dev/null && ! grep -q '^LBS-FRAG: ready' /tmp/frag.out; do
		sleep 1
	done
	FRAG_READY=$(tail -n 1 /tmp/frag.out)
	grep -q '^LBS-FRAG: ready' /tmp/frag.out
}
frag_stop() {
	[ -n "$FRAGPID" ] || return 0
	kill "$FRAGPID" 2>/dev/null
	wait "$FRAGPID" 2>/dev/null
	FRAGPID=""
}
