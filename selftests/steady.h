/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resource-steady runs, shared by the libdxgk and the raw-ioctl selftests:
 * a pair of calls a driver makes for its whole life (map/unmap, ADL
 * allocate/free, create/destroy, ...) run many times from one thread or
 * several, after which the process's VMAs and open files and the module's
 * live counters must be where they started.  vm.max_map_count is lowered
 * to a little above the process's VMAs meanwhile, so a range left behind
 * per cycle fails the run within a few hundred cycles.  Include after
 * kselftest_harness.h.
 */
#ifndef DXGPMO_STEADY_H
#define DXGPMO_STEADY_H

#include <dirent.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEADY_STATS		"/sys/kernel/debug/dxgpmo/stats"
#define STEADY_MAX_MAP_COUNT	"/proc/sys/vm/max_map_count"
#define STEADY_MAX_THREADS	4

/* The pairs, each through the library or the raw ioctls. */
enum steady_pair {
	STEADY_MAP_USER,	/* MAP/UNMAP of a user view */
	STEADY_MAP_KERNEL,	/* MAP/UNMAP of a kernel view */
	STEADY_ADL,		/* ALLOCATE_ADL/FREE_ADL */
	STEADY_CREATE_WITH_AMO,	/* CREATE_PMO with an adapter/DESTROY_PMO */
	STEADY_OPEN_CLOSE,	/* open/close of the device (a session) */
	STEADY_BASIS,		/* CREATE_MEMORY_BASIS/START/STOP/DESTROY */
};

/* Every pair from one thread and from four, as variants of a fixture. */
#define STEADY_VARIANTS(f)						\
	FIXTURE_VARIANT(f) {						\
		enum steady_pair pair;					\
		unsigned int threads;					\
	};								\
	FIXTURE_VARIANT_ADD(f, map_user) { STEADY_MAP_USER, 1 };	\
	FIXTURE_VARIANT_ADD(f, map_user_4_threads) { STEADY_MAP_USER, 4 }; \
	FIXTURE_VARIANT_ADD(f, map_kernel) { STEADY_MAP_KERNEL, 1 };	\
	FIXTURE_VARIANT_ADD(f, map_kernel_4_threads) {			\
		STEADY_MAP_KERNEL, 4					\
	};								\
	FIXTURE_VARIANT_ADD(f, adl) { STEADY_ADL, 1 };			\
	FIXTURE_VARIANT_ADD(f, adl_4_threads) { STEADY_ADL, 4 };	\
	FIXTURE_VARIANT_ADD(f, create_with_amo) {			\
		STEADY_CREATE_WITH_AMO, 1				\
	};								\
	FIXTURE_VARIANT_ADD(f, create_with_amo_4_threads) {		\
		STEADY_CREATE_WITH_AMO, 4				\
	};								\
	FIXTURE_VARIANT_ADD(f, open_close) { STEADY_OPEN_CLOSE, 1 };	\
	FIXTURE_VARIANT_ADD(f, open_close_4_threads) {			\
		STEADY_OPEN_CLOSE, 4					\
	};								\
	FIXTURE_VARIANT_ADD(f, basis) { STEADY_BASIS, 1 };		\
	FIXTURE_VARIANT_ADD(f, basis_4_threads) { STEADY_BASIS, 4 }

/* Lines of a file: the VMAs of /proc/self/maps. */
static inline int steady_count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int c, n = 0;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* The process's open files, the directory's own descriptor not counted. */
static inline int steady_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = -1;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static inline long steady_read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static inline int steady_write_long(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%ld\n", v) < 0;
	return fclose(f) || ret ? -1 : 0;
}

struct steady_state {
	int vmas, fds;
	char counters[512];	/* the module's live counters, one line */
};

static inline void steady_state(struct steady_state *s)
{
	FILE *f = fopen(STEADY_STATS, "r");
	unsigned long long v;
	size_t used = 0;
	char key[64];

	s->vmas = steady_count_lines("/proc/self/maps");
	s->fds = steady_open_fds();
	s->counters[0] = 0;
	if (!f)
		return;
	while (fscanf(f, "%63s %llu", key, &v) == 2 &&
	       used < sizeof(s->counters))
		if (strncmp(key, "leaked_", 7))
			used += snprintf(s->counters + used,
					 sizeof(s->counters) - used,
					 "%s=%llu ", key, v);
	fclose(f);
}

/*
 * One thread of a run: setup (optional) makes what its cycles use, each
 * cycle is one pair of calls, teardown (optional) undoes setup.  Each
 * returns 0 or a failure code of the test's (an errno or an NTSTATUS).
 */
struct steady_thread {
	long (*setup)(struct steady_thread *t);
	long (*cycle)(struct steady_thread *t, unsigned int i);
	void (*teardown)(struct steady_thread *t);
	void *arg;		/* the test's */
	unsigned long long state[2];	/* what setup made */
	unsigned int slot, cycles, done;
	long failed;
};

static inline void *steady_thread_main(void *p)
{
	struct steady_thread *t = p;
	unsigned int i;

	t->done = 0;
	t->failed = t->setup ? t->setup(t) : 0;
	if (t->failed)
		return NULL;
	for (i = 0; i < t->cycles && !t->failed; i++) {
		t->failed = t->cycle(t, i);
		t->done += !t->failed;
	}
	if (t->teardown)
		t->teardown(t);
	return NULL;
}

/* n copies of proto with cycles each, at once; 0 or the first failure. */
static inline long steady_threads(const struct steady_thread *proto,
				  unsigned int n, unsigned int cycles,
				  struct steady_thread *t)
{
	pthread_t tid[STEADY_MAX_THREADS];
	unsigned int i, started;
	long failed = 0;

	for (started = 0; started < n; started++) {
		t[started] = *proto;
		t[started].slot = started;
		t[started].cycles = cycles;
		if (pthread_create(&tid[started], NULL, steady_thread_main,
				   &t[started])) {
			failed = -1;
			break;
		}
	}
	for (i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		if (t[i].failed && !failed)
			failed = t[i].failed;
	}
	return failed;
}

/* Cycles in all: 100,000, or what env names (a quicker run). */
static inline unsigned int steady_cycles(const char *env)
{
	const char *v = getenv(env);

	return v && *v ? (unsigned int)strtoul(v, NULL, 0) : 100000;
}

/*
 * The whole check: a first short run leaves what the C library keeps of
 * threads (cached stacks; one malloc arena for all of them), then the
 * state, the run with vm.max_map_count lowered, and the state again.
 */
static inline void steady_check(struct __test_metadata *_metadata,
				const struct steady_thread *proto,
				unsigned int n, unsigned int cycles)
{
	struct steady_thread t[STEADY_MAX_THREADS];
	struct steady_state before, after;
	long max_map_count, failed;
	unsigned int i;

	ASSERT_GE(STEADY_MAX_THREADS, n);
	ASSERT_EQ(1, mallopt(M_ARENA_MAX, 1));
	max_map_count = steady_read_long(STEADY_MAX_MAP_COUNT);
	ASSERT_LT(0, max_map_count);
	ASSERT_EQ(0, steady_threads(proto, n, 100, t));
	steady_state(&before);
	ASSERT_LT(0, before.vmas);
	ASSERT_STRNE("", before.counters);
	ASSERT_EQ(0, steady_write_long(STEADY_MAX_MAP_COUNT,
				       before.vmas + 200));
	failed = steady_threads(proto, n, cycles / n, t);
	steady_write_long(STEADY_MAX_MAP_COUNT, max_map_count);
	for (i = 0; i < n; i++)
		if (t[i].failed)
			TH_LOG("thread %u: failed (%ld, 0x%lx) after %u cycles",
			       i, t[i].failed, (unsigned long)t[i].failed,
			       t[i].done);
	EXPECT_EQ(0, failed);
	steady_state(&after);
	TH_LOG("%u cycles from %u thread(s): VMAs %d before, %d after; files %d, %d",
	       cycles / n * n, n, before.vmas, after.vmas, before.fds,
	       after.fds);
	EXPECT_EQ(before.vmas, after.vmas);
	EXPECT_EQ(before.fds, after.fds);
	EXPECT_STREQ(before.counters, after.counters);
}

#endif /* DXGPMO_STEADY_H */
