// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for fio in the bench guest (bench/kernel-fio.sh).
 *
 * The test kernels are tinyconfig-based and have no CONFIG_SYSVIPC, so
 * shmget() fails with ENOSYS, and fio (3.33) keeps its job table in a
 * System V shared memory segment: without one it refuses to start. The
 * benchmark reuses the kernels that the verification suite builds, so the
 * config stays as it is and this shim gives fio the few calls it needs:
 * shmget() maps anonymous shared memory (MAP_SHARED, so a forked job still
 * shares it with the parent), shmat() returns that mapping, shmdt() and
 * shmctl() succeed. No data path of the benchmark goes through it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>

#define NSEG 64

static struct {
	void *addr;
	size_t size;
} seg[NSEG];

int shmget(key_t key, size_t size, int flags)
{
	int i;

	(void)key;
	(void)flags;
	for (i = 0; i < NSEG; i++) {
		if (seg[i].addr)
			continue;
		seg[i].addr = mmap(NULL, size, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (seg[i].addr == MAP_FAILED) {
			seg[i].addr = NULL;
			errno = ENOMEM;
			return -1;
		}
		seg[i].size = size;
		return i;
	}
	errno = ENOSPC;
	return -1;
}

void *shmat(int id, const void *addr, int flags)
{
	(void)addr;
	(void)flags;
	if (id < 0 || id >= NSEG || !seg[id].addr) {
		errno = EINVAL;
		return (void *)-1;
	}
	return seg[id].addr;
}

int shmdt(const void *addr)
{
	(void)addr;
	return 0;
}

int shmctl(int id, int cmd, struct shmid_ds *buf)
{
	(void)cmd;
	if (id < 0 || id >= NSEG || !seg[id].addr) {
		errno = EINVAL;
		return -1;
	}
	if (buf && cmd == IPC_STAT) {
		*buf = (struct shmid_ds){ 0 };
		buf->shm_segsz = seg[id].size;
	}
	return 0;
}
