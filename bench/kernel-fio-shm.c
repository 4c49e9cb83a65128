// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for fio in the bench guest (bench/kernel-fio.sh).
 *
 * The test kernels are tinyconfig-based: no CONFIG_SYSVIPC and no
 * CONFIG_TIMERFD, so shmget() and timerfd_create() fail with ENOSYS. fio
 * (3.33) keeps its job table in a System V shared memory segment and its
 * helper thread asserts that timerfd_create() works: without them it does
 * not start. The benchmark reuses the kernels that the verification suite
 * builds, so the configs stay as they are and this shim gives fio the few
 * calls it needs:
 *
 * - shmget() maps anonymous shared memory (MAP_SHARED, so a forked job
 *   still shares it with the parent), shmat() returns that mapping, shmdt()
 *   and shmctl() succeed;
 * - timerfd_create() returns the read end of a non-blocking pipe, and a
 *   thread writes an 8-byte expiry count into it when the one-shot timer
 *   set by timerfd_settime() expires (fio's helper thread select()s on it
 *   to wake up for its periodic statistics; no interval timers).
 *
 * No data path of the benchmark goes through the shim.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

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

/* ---- timerfd -------------------------------------------------------------- */

#define NTIMER 8

static struct tfd {
	int rfd, wfd;		/* pipe: fio sees rfd */
	int armed;
	struct timespec when;	/* CLOCK_MONOTONIC */
} tfd[NTIMER];
static int ntfd;
static pthread_mutex_t tlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tcond;
static pthread_once_t tonce = PTHREAD_ONCE_INIT;

static int ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *timer_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&tlock);
	for (;;) {
		struct timespec now, next = { 0, 0 };
		int i, any = 0;

		clock_gettime(CLOCK_MONOTONIC, &now);
		for (i = 0; i < ntfd; i++) {
			if (!tfd[i].armed)
				continue;
			if (!ts_before(&now, &tfd[i].when)) {
				uint64_t one = 1;

				tfd[i].armed = 0;
				/* EPIPE once fio closed it: SIGPIPE is blocked here */
				if (write(tfd[i].wfd, &one, sizeof(one)) < 0)
					continue;
			} else if (!any || ts_before(&tfd[i].when, &next)) {
				next = tfd[i].when;
				any = 1;
			}
		}
		if (any)
			pthread_cond_timedwait(&tcond, &tlock, &next);
		else
			pthread_cond_wait(&tcond, &tlock);
	}
	return NULL;
}

static void timer_init(void)
{
	pthread_condattr_t ca;
	pthread_attr_t ta;
	pthread_t t;
	sigset_t all, old;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&tcond, &ca);
	pthread_attr_init(&ta);
	pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);	/* inherited by the thread */
	pthread_create(&t, &ta, timer_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int timerfd_create(int clockid, int flags)
{
	int p[2], i;

	if (clockid != CLOCK_MONOTONIC) {
		errno = EINVAL;
		return -1;
	}
	pthread_once(&tonce, timer_init);
	if (pipe2(p, O_NONBLOCK | ((flags & TFD_CLOEXEC) ? O_CLOEXEC : 0)) < 0)
		return -1;
	if (!(flags & TFD_NONBLOCK))
		fcntl(p[0], F_SETFL, 0);
	pthread_mutex_lock(&tlock);
	if (ntfd == NTIMER) {
		pthread_mutex_unlock(&tlock);
		close(p[0]);
		close(p[1]);
		errno = EMFILE;
		return -1;
	}
	i = ntfd++;
	tfd[i].rfd = p[0];
	tfd[i].wfd = p[1];
	tfd[i].armed = 0;
	pthread_mutex_unlock(&tlock);
	return p[0];
}

int timerfd_settime(int fd, int flags, const struct itimerspec *new, struct itimerspec *old)
{
	uint64_t junk;
	int i, fl;

	pthread_mutex_lock(&tlock);
	for (i = 0; i < ntfd && tfd[i].rfd != fd; i++)
		;
	if (i == ntfd) {
		pthread_mutex_unlock(&tlock);
		errno = EINVAL;
		return -1;
	}
	if (old)
		memset(old, 0, sizeof(*old));
	/* a new setting discards expiries not read yet */
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	while (read(fd, &junk, sizeof(junk)) > 0)
		;
	fcntl(fd, F_SETFL, fl);
	tfd[i].armed = new->it_value.tv_sec || new->it_value.tv_nsec;
	if (flags & TFD_TIMER_ABSTIME) {
		tfd[i].when = new->it_value;
	} else {
		clock_gettime(CLOCK_MONOTONIC, &tfd[i].when);
		tfd[i].when.tv_sec += new->it_value.tv_sec;
		tfd[i].when.tv_nsec += new->it_value.tv_nsec;
		if (tfd[i].when.tv_nsec >= 1000000000L) {
			tfd[i].when.tv_sec++;
			tfd[i].when.tv_nsec -= 1000000000L;
		}
	}
	pthread_cond_signal(&tcond);
	pthread_mutex_unlock(&tlock);
	return 0;
}
