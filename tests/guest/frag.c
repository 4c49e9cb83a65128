// SPDX-License-Identifier: GPL-2.0
/*
 * lbs-frag: fragment the guest's free memory so that large page cache
 * folios cannot always be had, and hold it that way until killed.
 *
 *   lbs-frag PERCENT
 *
 * Maps PERCENT% of MemFree as anonymous order-0 pages, frees every other
 * one (MADV_DONTNEED), and mlocks the rest.  With
 * vm.compact_unevictable_allowed at 0 compaction cannot move a locked
 * page, so the freed pages stay single holes between pinned ones.  The
 * memory left unmapped (the rest of MemFree, which mapping all of it would
 * leave the kernel without) is then taken in transparent huge pages, one
 * 2 MiB chunk at a time, until a chunk gets no huge page: order-0 faults
 * would eat the holes instead.  A few huge pages are then given back, so
 * that the kernel's own small multi-page allocations find memory.  The
 * page cache's large allocations (__GFP_NORETRY) then mostly fail and
 * fall back to order 0, while reclaim of the page cache's own large
 * folios still frees large blocks.  Prints
 * "LBS-FRAG: ready ..." with /proc/buddyinfo's free blocks by order once
 * it holds, then waits for a signal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 0x01
#endif

static long meminfo_kb(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) && line[strlen(key)] == ':')
			v = strtol(line + strlen(key) + 1, NULL, 10);
	fclose(f);
	return v;
}

/* free blocks by order in each zone but DMA, as one line */
static void buddyinfo(char *buf, size_t len)
{
	char line[512];
	size_t used = 0;
	FILE *f = fopen("/proc/buddyinfo", "r");

	snprintf(buf, len, "no /proc/buddyinfo");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && used < len) {
		char *z = strstr(line, "zone");

		if (!z || !strncmp(z, "zone      DMA ", 14))
			continue;
		line[strcspn(line, "\n")] = 0;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? "; " : "", z);
	}
	fclose(f);
}

static int write_sysctl(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(val, f) >= 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/*
 * Huge pages given back at the end: the kernel's own allocations of a few
 * pages (a new task's stack is order 2) would otherwise find none, with
 * no page cache yet to reclaim, and call the OOM killer on lbs-frag (seen
 * at 16k, 2026-12-07).  The page cache soon fills them with large folios;
 * reclaiming those frees whole blocks again.  One: with eight, the page
 * cache at 16k blocks found order-2 folios enough and never fell back.
 */
#define RESERVE_HUGE 1

/*
 * Take free memory in huge pages until the allocator has none to give:
 * one byte a 2 MiB chunk, kept while AnonHugePages grows by the chunk;
 * then give the last RESERVE_HUGE back.  Returns the huge pages kept.
 */
static long take_huge_pages(void)
{
	const size_t huge = 2 << 20;
	/* more than there can be: MemTotal (overcommit refuses more) */
	size_t max = (size_t)meminfo_kb("MemTotal") << 10;
	long before, taken = 0;
	char *r = mmap(NULL, max, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *p;

	if (r == MAP_FAILED)
		return -1;
	/* align to a huge page, so each chunk can be one */
	p = (char *)(((uintptr_t)r + huge - 1) & ~(uintptr_t)(huge - 1));
	if (madvise(p, max - huge, MADV_HUGEPAGE))
		return -1;
	for (; p + huge <= r + max; p += huge) {
		before = meminfo_kb("AnonHugePages");
		p[0] = 1;
		if (meminfo_kb("AnonHugePages") < before + (long)(huge >> 10)) {
			munmap(p, huge);	/* a small page: give it back */
			break;
		}
		if (mlock(p, huge))
			return -1;
		taken++;
	}
	/* the chunks taken are the ones just below p */
	for (int k = 0; k < RESERVE_HUGE && taken; k++, taken--) {
		p -= huge;
		munmap(p, huge);
	}
	return taken;
}

static void on_signal(int sig)
{
	(void)sig;
	_exit(0);
}

int main(int argc, char **argv)
{
	long percent, free_kb, huge, psz = sysconf(_SC_PAGESIZE);
	size_t len, i, pages;
	char bi[1024];
	char *p;

	if (argc != 2 || (percent = strtol(argv[1], NULL, 10)) < 1 ||
	    percent > 99) {
		fprintf(stderr, "usage: lbs-frag PERCENT (1..99)\n");
		return 2;
	}
	free_kb = meminfo_kb("MemFree");
	if (free_kb <= 0) {
		fprintf(stderr, "lbs-frag: no MemFree in /proc/meminfo\n");
		return 1;
	}
	if (write_sysctl("/proc/sys/vm/compact_unevictable_allowed", "0")) {
		fprintf(stderr, "lbs-frag: vm.compact_unevictable_allowed: %s\n",
			strerror(errno));
		return 1;
	}
	len = (size_t)free_kb * 1024 / 100 * (size_t)percent;
	len -= len % (size_t)psz;
	pages = len / (size_t)psz;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("lbs-frag: mmap");
		return 1;
	}
	/* order-0 pages: a huge page would be freed or kept whole */
	if (madvise(p, len, MADV_NOHUGEPAGE)) {
		perror("lbs-frag: MADV_NOHUGEPAGE");
		return 1;
	}
	for (i = 0; i < pages; i++)
		p[i * (size_t)psz] = 1;
	for (i = 1; i < pages; i += 2)
		if (madvise(p + i * (size_t)psz, (size_t)psz, MADV_DONTNEED)) {
			perror("lbs-frag: MADV_DONTNEED");
			return 1;
		}
	/* lock what is present without faulting the holes back in */
	if (syscall(SYS_mlock2, p, len, MLOCK_ONFAULT)) {
		perror("lbs-frag: mlock2");
		return 1;
	}
	huge = take_huge_pages();
	if (huge < 0) {
		perror("lbs-frag: huge pages");
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	buddyinfo(bi, sizeof(bi));
	printf("LBS-FRAG: ready: %zu pages pinned, %zu freed between them, %ld huge pages taken, MemFree %ld kB; %s\n",
	       (pages + 1) / 2, pages / 2, huge, meminfo_kb("MemFree"), bi);
	fflush(stdout);
	for (;;)
		pause();
}
