// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for the races and lock scopes of issue 13:
 *
 * - mmap(2) of an object window racing the object's DESTROY.
 *
 * Every loop is bounded in iterations; the clock is only a safety net that
 * fails the test loudly.  Each test fails on any kernel log line that
 * check.sh counts as bad (KASAN reports of use-after-free races included).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

#define PAGE 4096ULL

/* The clock is only a safety net: a loop that runs this long fails. */
#define SAFETY_NET_NS (240ULL * 1000 * 1000 * 1000)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static double secs_since(uint64_t start)
{
	return (now_ns() - start) / 1e9;
}

FIXTURE(race) {
	int fd;
	int kmsg;
	struct dxgpmo_adapter_info adapters[DXGPMO_MAX_ADAPTERS];
	uint32_t nr;
	const struct dxgpmo_adapter_info *edu;	/* engine, behind an IOMMU */
	const struct dxgpmo_adapter_info *any;
};

FIXTURE_SETUP(race)
{
	unsigned int i;

	self->kmsg = kmsg_open_new();
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, dxgpmo_query_adapters(self->fd, self->adapters,
					   DXGPMO_MAX_ADAPTERS, &self->nr));
	ASSERT_LT(0, self->nr);
	self->any = &self->adapters[self->nr - 1];
	self->edu = NULL;
	for (i = 0; i < self->nr; i++) {
		uint32_t caps = self->adapters[i].caps;

		if ((caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE) &&
		    (caps & DXGPMO_ADAPTER_CAP_IOMMU) && !self->edu)
			self->edu = &self->adapters[i];
	}
}

FIXTURE_TEARDOWN(race)
{
	char line[512];

	teardown_dxgpmo(_metadata, self->fd);
	EXPECT_EQ(0, kmsg_find_bad(self->kmsg, line, sizeof(line))) {
		TH_LOG("kernel log: %s", line);
	}
	if (self->kmsg >= 0)
		close(self->kmsg);
	self->kmsg = -1;
}

/*
 * Handshakes between two threads go through step counters: the waiter
 * spins (keeping both sides close in time while both vCPUs run), then
 * sleeps on the futex, so that on an overcommitted host the vCPU it waits
 * for gets to run.  The futex is only woken when a waiter sleeps.
 */
#define HANDSHAKE_SPINS (1U << 16)

struct step {
	unsigned int n;		/* atomic: the last step published */
	int sleeping;		/* atomic: the waiter is in FUTEX_WAIT */
};

static void step_publish(struct step *s, unsigned int n)
{
	__atomic_store_n(&s->n, n, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&s->sleeping, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &s->n, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
			NULL, 0);
}

/* Wait for step want; 0 when told to stop or on the safety net. */
static int step_wait(struct step *s, unsigned int want, const int *stop,
		     uint64_t start)
{
	struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };
	unsigned int spins = 0, cur;

	while ((cur = __atomic_load_n(&s->n, __ATOMIC_SEQ_CST)) != want) {
		if (__atomic_load_n(stop, __ATOMIC_ACQUIRE))
			return 0;
		if (++spins < HANDSHAKE_SPINS)
			continue;
		if (now_ns() - start > SAFETY_NET_NS)
			return 0;
		__atomic_store_n(&s->sleeping, 1, __ATOMIC_SEQ_CST);
		syscall(SYS_futex, &s->n, FUTEX_WAIT_PRIVATE, cur, &ts, NULL,
			0);
		__atomic_store_n(&s->sleeping, 0, __ATOMIC_SEQ_CST);
	}
	return 1;
}

/*
 * mmap(2) of an object window racing the object's DESTROY.  The window
 * lookup must not touch a window DESTROY is freeing (a KASAN report on a
 * debug kernel; on other kernels the use-after-free may pass unseen).  A
 * successful mmap reads zeroes, or SIGBUS once the window is revoked; a
 * failed one is -EINVAL.  The creator delays each DESTROY so that it meets
 * the mapper's mmap of the new window: shorter when the mmap was done
 * before it, longer when the mmap came too late to find the window.
 */
#define WINDOW_RACE_CREATES 20000

enum { WINDOW_EARLY, WINDOW_REVOKED, WINDOW_LATE };

struct window_race {
	int fd;
	uint64_t offset;		/* the new object's window */
	struct step published;		/* offset is that iteration's */
	struct step consumed;		/* the mmap of it is done */
	int outcome;			/* WINDOW_* of that mmap */
	int stop;			/* atomic */
	int timed_out;
	int create_err, destroy_err;
	unsigned long creates, mmaps, mmap_failed, bad_errno, last_errno;
	unsigned long read_zero, read_nonzero, read_sigbus;
};

static __thread sigjmp_buf window_jmp;
static __thread volatile int window_reading;

static void window_sigbus(int sig)
{
	if (window_reading)
		siglongjmp(window_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void *window_creator(void *arg)
{
	struct window_race *r = arg;
	uint64_t start = now_ns();
	unsigned long i, delay = 0, d;
	volatile unsigned long sink = 0;
	int ret;

	for (i = 1; i <= WINDOW_RACE_CREATES; i++) {
		struct dxgpmo_create_pmo c = { .length = PAGE };

		if (now_ns() - start > SAFETY_NET_NS) {
			r->timed_out = 1;
			break;
		}
		ret = dxgpmo_create_pmo(r->fd, &c);
		if (ret) {
			r->create_err = ret;
			break;
		}
		r->offset = c.mmap_offset;
		step_publish(&r->published, i);
		for (d = 0; d < delay; d++)
			sink += d;
		ret = dxgpmo_destroy_pmo(r->fd, c.pmo_id, 0);
		if (ret) {
			r->destroy_err = ret;
			break;
		}
		r->creates++;
		if (!step_wait(&r->consumed, i, &r->stop, start)) {
			r->timed_out = 1;
			break;
		}
		if (r->outcome == WINDOW_EARLY && delay)
			delay -= delay / 8 + 1 > delay ? delay : delay / 8 + 1;
		else if (r->outcome == WINDOW_LATE)
			delay += delay / 8 + 1;
	}
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Read the page; 0 zeroes, 1 not zeroes, 2 SIGBUS (revoked window). */
static int window_read(const volatile uint64_t *p)
{
	unsigned int i;
	uint64_t acc = 0;

	if (sigsetjmp(window_jmp, 1)) {
		window_reading = 0;
		return 2;
	}
	window_reading = 1;
	for (i = 0; i < PAGE / sizeof(*p); i += 64)
		acc |= p[i];
	window_reading = 0;
	return acc ? 1 : 0;
}

static void *window_mapper(void *arg)
{
	struct window_race *r = arg;
	uint64_t start = now_ns();
	unsigned long i;

	for (i = 1; i <= WINDOW_RACE_CREATES; i++) {
		void *p;

		if (!step_wait(&r->published, i, &r->stop, start))
			break;
		p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, r->fd, r->offset);
		if (p == MAP_FAILED) {
			r->outcome = WINDOW_LATE;
			r->mmap_failed++;
			if (errno != EINVAL) {
				r->bad_errno++;
				r->last_errno = errno;
			}
		} else {
			r->mmaps++;
			switch (window_read(p)) {
			case 0:
				r->outcome = WINDOW_EARLY;
				r->read_zero++;
				break;
			case 1:
				r->outcome = WINDOW_EARLY;
				r->read_nonzero++;
				break;
			default:
				r->outcome = WINDOW_REVOKED;
				r->read_sigbus++;
			}
			munmap(p, PAGE);
		}
		step_publish(&r->consumed, i);
	}
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	return NULL;
}

TEST_F_TIMEOUT(race, mmap_window_vs_destroy, 300)
{
	struct window_race *r = calloc(1, sizeof(*r));
	struct sigaction sa = { .sa_handler = window_sigbus };
	uint64_t start = now_ns();
	pthread_t creator, mapper;

	ASSERT_NE(NULL, r);
	r->fd = self->fd;
	ASSERT_EQ(0, sigaction(SIGBUS, &sa, NULL));
	ASSERT_EQ(0, pthread_create(&mapper, NULL, window_mapper, r));
	ASSERT_EQ(0, pthread_create(&creator, NULL, window_creator, r));
	ASSERT_EQ(0, pthread_join(creator, NULL));
	ASSERT_EQ(0, pthread_join(mapper, NULL));
	TH_LOG("%lu creates in %.1f s; mmaps of the new window: %lu before its DESTROY (read zeroes), %lu across it (SIGBUS after the revoke), %lu after it (refused)",
	       r->creates, secs_since(start), r->read_zero + r->read_nonzero,
	       r->read_sigbus, r->mmap_failed);
	EXPECT_EQ(0, r->timed_out);
	EXPECT_EQ(0, r->create_err);
	EXPECT_EQ(0, r->destroy_err);
	EXPECT_EQ(WINDOW_RACE_CREATES, r->creates);
	/* The race was run: some mmaps found the window alive. */
	EXPECT_LT(0, r->mmaps);
	EXPECT_EQ(0, r->read_nonzero);
	EXPECT_EQ(0, r->bad_errno) {
		TH_LOG("mmap failed with errno %lu", r->last_errno);
	}
	free(r);
}

TEST_HARNESS_MAIN
