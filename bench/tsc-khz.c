// SPDX-License-Identifier: GPL-2.0
/*
 * Print this host's TSC rate in kHz, for the benchmark guests' kernel
 * command line (tsc_early_khz=, see bench/kernel-pairs.sh).
 *
 * A TCG guest reads the host's TSC, and its kernel calibrates it against
 * the emulated PIT; on a busy host that calibration fails now and then
 * ("Marking TSC unstable"), the boot falls back to the jiffies clocksource,
 * and clock_gettime() becomes a system call: a different kernel workload
 * from boot to boot. Telling every guest the rate removes that.
 *
 * The rate is the median of five 100 ms samples of the TSC against
 * CLOCK_MONOTONIC_RAW. x86_64 only.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	const struct timespec nap = { 0, 100 * 1000 * 1000 };
	double khz[5];

	for (int i = 0; i < 5; i++) {
		double t0 = now();
		uint64_t c0 = __rdtsc();

		nanosleep(&nap, NULL);
		double t1 = now();
		uint64_t c1 = __rdtsc();

		khz[i] = (double)(c1 - c0) / (t1 - t0) / 1000.0;
	}
	qsort(khz, 5, sizeof(khz[0]), cmp);
	if (khz[2] < 1000.0) {
		fprintf(stderr, "tsc-khz: implausible TSC rate %.0f kHz\n", khz[2]);
		return 1;
	}
	printf("%.0f\n", khz[2]);
	return 0;
}
