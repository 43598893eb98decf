// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo ioctl fuzzer: seeded random sequences over every ioctl and mmap
 * from several processes, some killed at random moments.  Random struct
 * sizes (short, long, huge), ids (valid, stale, of another type or file),
 * flags and reserved bits, offsets and lengths near overflow, user
 * pointers that are bad.  Pass: every counter of live things is back to
 * zero once all processes are gone, and the kernel log shows nothing but
 * the ADL-leak WARN of adl_leak=warn (checked here and by the host).
 *
 * DXGPMO_FUZZ_SEED=n replays a run; DXGPMO_FUZZ_SECONDS and
 * DXGPMO_FUZZ_OPS bound it (defaults: 120 s, 200000 operations).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "dxgpmo_test.h"

#define WORKERS		4
#define POOL		32

struct shared {
	unsigned long ops[WORKERS];
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: reproducible from the seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t pick(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* Sizes and offsets that matter: small, page-ish, near the edges, huge. */
static uint64_t rnd_len(void)
{
	static const uint64_t edge[] = {
		0, 1, 4095, 4096, 4097, 8192, 65536, 1 << 20, (2 << 20) + 4096,
		1ULL << 32, 1ULL << 40, UINT64_MAX, UINT64_MAX - 4095,
		UINT64_MAX / 2, (1ULL << 63) + 4096,
	};

	switch (pick(4)) {
	case 0:
		return edge[pick(sizeof(edge) / sizeof(edge[0]))];
	case 1:
		return pick(16) * 4096;
	case 2:
		return pick(70000);
	default:
		return (pick(8) + 1) * 4096;
	}
}

struct worker {
	int fd[2];
	uint32_t ids[POOL];		/* every id seen, of any type */
	uint32_t pmos[POOL], amos[POOL];
	uint64_t offsets[POOL];		/* mmap offsets of objects */
	struct { uint32_t pmo; uint64_t addr, len; } views[POOL];
	void *mmaps[POOL];
	size_t mmap_len[POOL];
	uint8_t buf[8192];
	uint32_t adapters[8];
	uint32_t nr_adapters;
	uint64_t seg_offset[8];
};

static void remember(uint32_t *pool, uint32_t id)
{
	if (id)
		pool[pick(POOL)] = id;
}

static uint32_t rnd_id(struct worker *w, const uint32_t *pool)
{
	switch (pick(6)) {
	case 0:
		return (uint32_t)rnd();
	case 1:
		return 0;
	case 2:
		return w->ids[pick(POOL)];
	default:
		return pool[pick(POOL)];
	}
}

static void *rnd_ptr(struct worker *w)
{
	switch (pick(16)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)0x1000;	/* unmapped */
	case 2:
		return (void *)(uintptr_t)0xffff800000001000ULL;
	default:
		return w->buf;
	}
}

static int rnd_fd(struct worker *w)
{
	return w->fd[pick(8) == 0];
}

/* One random operation. */
static void fuzz_one(struct worker *w)
{
	int fd = rnd_fd(w);
	union {
		struct dxgpmo_create_pmo c;
		struct dxgpmo_destroy_pmo d;
		struct dxgpmo_open_pmo o;
		struct dxgpmo_close_pmo cl;
		struct dxgpmo_allocate_adl a;
		struct dxgpmo_free_adl f;
		struct dxgpmo_map m;
		struct dxgpmo_unmap u;
		struct dxgpmo_kmap_rw k;
		struct dxgpmo_adapter_dma dma;
		struct dxgpmo_create_memory_basis b;
		struct dxgpmo_destroy_memory_basis db;
		struct dxgpmo_dirty_tracking t;
		struct dxgpmo_query_dirty_bits q;
		struct dxgpmo_export_dmabuf x;
		struct dxgpmo_stats st;
		uint8_t raw[512];
	} a;
	struct dxgpmo_memory_range ranges[4];
	unsigned long cmd;
	unsigned int i;
	int ret;

	memset(&a, 0, sizeof(a));
	switch (pick(20)) {
	case 0: case 1: case 2:
		a.c.type = pick(10) ? pick(3) : (uint32_t)rnd();
		a.c.cache_type = pick(10) ? pick(3) : 7;
		a.c.length = pick(3) ? (pick(16) + 1) * 4096 + pick(2) :
				       rnd_len();
		a.c.adapter_id = pick(2) ? w->adapters[pick(w->nr_adapters)] :
					   0;
		a.c.page_protection = a.c.type == DXGPMO_PMO_TYPE_SECTION ?
				      (pick(2) ? 4 : 2) : 0;
		if (!pick(8))
			a.c.high_address = rnd();
		if (!pick(16))
			a.c.flags = 1U << pick(32);
		if (!pick(20))
			a.c.io_base = rnd() & ~4095ULL;
		if (!dxgpmo_create_pmo(fd, &a.c) && fd == w->fd[0]) {
			/* pmos[i] and amos[i] are a pair */
			i = pick(POOL);
			w->pmos[i] = a.c.pmo_id;
			w->amos[i] = a.c.amo_id;
			remember(w->ids, a.c.pmo_id);
			w->offsets[pick(POOL)] = a.c.mmap_offset;
		}
		break;
	case 3:
		/*
		 * DESTROY of an object with live ADLs is the ADL leak (a WARN
		 * in adl_leak=warn): free an object's ADLs first, except
		 * rarely; stale and wrong ids are fine.
		 */
		i = pick(POOL);
		if (pick(100) && w->pmos[i] && fd == w->fd[0]) {
			if (w->amos[i] &&
			    dxgpmo_close_pmo(fd, w->amos[i]) == -EBUSY)
				break;
			if (!dxgpmo_destroy_pmo(fd, w->pmos[i], 0))
				w->pmos[i] = w->amos[i] = 0;
		} else {
			dxgpmo_destroy_pmo(fd, rnd_id(w, w->pmos),
					   pick(2) ? rnd_id(w, w->amos) : 0);
		}
		break;
	case 4:
		i = pick(POOL);
		if (!dxgpmo_open_pmo(fd, pick(4) ? w->pmos[i] : rnd_id(w, w->pmos),
				     pick(6) ? w->adapters[pick(w->nr_adapters)] :
					       (uint32_t)rnd(), &a.o.amo_id)) {
			unsigned int j;

			for (j = 0; j < POOL; j++)
				if (w->pmos[j] == a.o.pmo_id)
					w->amos[j] = a.o.amo_id;
			remember(w->ids, a.o.amo_id);
		}
		break;
	case 5:
		dxgpmo_close_pmo(fd, rnd_id(w, w->amos));
		break;
	case 6: case 7:
		a.a.amo_id = rnd_id(w, w->amos);
		a.a.offset = pick(3) ? pick(4) * 4096 : rnd_len();
		a.a.length = pick(3) ? (pick(4) + 1) * 4096 : rnd_len();
		a.a.flags = pick(4) ? 0 : (uint32_t)pick(8);
		if (pick(2)) {
			a.a.pages = (uintptr_t)rnd_ptr(w);
			a.a.pages_capacity = pick(4) ? sizeof(w->buf) / 8 :
						       rnd_len();
		}
		if (!dxgpmo_allocate_adl(fd, &a.a)) {
			remember(w->ids, a.a.adl_id);
			if (pick(4))
				dxgpmo_free_adl(fd, a.a.adl_id);
		}
		break;
	case 8:
		dxgpmo_free_adl(fd, rnd_id(w, w->ids));
		break;
	case 9: {
		uint32_t pmo = rnd_id(w, w->pmos);

		a.m.pmo_id = pmo;
		a.m.access_mode = pick(5) ? pick(2) : (uint32_t)rnd();
		a.m.offset = pick(3) ? pick(20000) : rnd_len();
		a.m.length = pick(3) ? pick(20000) + 1 : rnd_len();
		if (!dxgpmo_map(fd, &a.m)) {
			i = pick(POOL);
			if (w->views[i].addr)	/* forget, or unmap, the old */
				dxgpmo_unmap(fd, w->views[i].pmo,
					     w->views[i].addr, w->views[i].len);
			w->views[i].pmo = pmo;
			w->views[i].addr = a.m.address;
			w->views[i].len = a.m.length;
			remember(w->ids, a.m.map_id);
			if (a.m.access_mode == DXGPMO_ACCESS_USER && pick(2))
				((volatile uint8_t *)(uintptr_t)a.m.address)
					[pick(a.m.length)] = 1;
		}
		break;
	}
	case 10:
		i = pick(POOL);
		if (pick(3)) {
			dxgpmo_unmap(fd, w->views[i].pmo, w->views[i].addr,
				     w->views[i].len);
			memset(&w->views[i], 0, sizeof(w->views[i]));
		} else {
			dxgpmo_unmap(fd, rnd_id(w, w->pmos), rnd(), rnd_len());
		}
		break;
	case 11:
		dxgpmo_kmap_rw(fd, rnd_id(w, w->ids), pick(4) ? pick(2) : 0xff,
			       pick(3) ? pick(5000) : rnd_len(), rnd_ptr(w),
			       pick(3) ? pick(64) : rnd_len());
		break;
	case 12:
		for (i = 0; i < 4; i++) {
			ranges[i].segment_offset = pick(3) ? pick(64) * 4096 :
							     rnd_len();
			ranges[i].length = pick(3) ? (pick(8) + 1) * 4096 :
						     rnd_len();
		}
		if (!dxgpmo_create_memory_basis(fd,
						w->adapters[pick(w->nr_adapters)],
						pick(8) ? 1 : (uint32_t)rnd(),
						pick(8) ? ranges : rnd_ptr(w),
						pick(5), &a.b.basis_id))
			remember(w->ids, a.b.basis_id);
		break;
	case 13:
		switch (pick(4)) {
		case 0:
			dxgpmo_start_dirty_tracking(fd, rnd_id(w, w->ids));
			break;
		case 1:
			dxgpmo_stop_dirty_tracking(fd, rnd_id(w, w->ids));
			break;
		case 2:
			dxgpmo_destroy_memory_basis(fd, rnd_id(w, w->ids));
			break;
		default:
			dxgpmo_query_dirty_bits(fd, rnd_id(w, w->ids),
						pick(3), pick(3),
						pick(2) ? pick(4) * 4096 : rnd(),
						pick(2) ? pick(4) * 4096 : rnd(),
						rnd_ptr(w),
						pick(4) ? pick(64) : rnd_len());
		}
		break;
	case 14:
		a.x.size = sizeof(a.x);
		a.x.pmo_id = rnd_id(w, w->pmos);
		a.x.fd_flags = pick(3) ? O_CLOEXEC | (pick(2) ? O_RDWR : 0) :
					 (uint32_t)rnd();
		if (!dxgpmo_ioctl(fd, DXGPMO_IOC_EXPORT_DMABUF, &a.x)) {
			if (pick(2)) {
				void *p = mmap(NULL, 4096, PROT_READ,
					       MAP_SHARED, a.x.fd, 0);

				if (p != MAP_FAILED)
					munmap(p, 4096);
			}
			close(a.x.fd);
		}
		break;
	case 15:
		/* The engine is slow: mostly calls that fail before using it. */
		a.dma.size = sizeof(a.dma);
		a.dma.adapter_id = w->adapters[pick(w->nr_adapters)];
		a.dma.flags = pick(4) ? pick(2) : (uint32_t)rnd();
		a.dma.device_address = rnd();
		a.dma.length = pick(64) ? rnd_len() | (1ULL << 20) : 16;
		a.dma.buffer = (uintptr_t)rnd_ptr(w);
		dxgpmo_ioctl(fd, DXGPMO_IOC_ADAPTER_DMA, &a.dma);
		break;
	case 16: {
		/* mmap of random windows: objects', segments', garbage. */
		uint64_t off;
		size_t len = (pick(8) + 1) * 4096;
		void *p;

		switch (pick(3)) {
		case 0:
			off = w->offsets[pick(POOL)] + pick(4) * 4096;
			break;
		case 1:
			off = w->seg_offset[pick(w->nr_adapters)] +
			      pick(64) * 4096;
			break;
		default:
			off = rnd() & ~4095ULL;
		}
		p = mmap(NULL, len, PROT_READ | (pick(2) ? PROT_WRITE : 0),
			 pick(8) ? MAP_SHARED : MAP_PRIVATE, fd, off);
		if (p != MAP_FAILED) {
			i = pick(POOL);
			if (w->mmaps[i])
				munmap(w->mmaps[i], w->mmap_len[i]);
			w->mmaps[i] = p;
			w->mmap_len[i] = len;
		}
		break;
	}
	case 17:
		i = pick(POOL);
		if (w->mmaps[i]) {
			/* touching a revoked window may SIGBUS: read only */
			munmap(w->mmaps[i], w->mmap_len[i]);
			w->mmaps[i] = NULL;
		}
		break;
	case 18:
		/* Any command with a random size and random bytes. */
		for (i = 0; i < sizeof(a.raw); i++)
			a.raw[i] = pick(4) ? 0 : (uint8_t)rnd();
		switch (pick(4)) {
		case 0:
			*(uint32_t *)a.raw = pick(8);
			break;
		case 1:
			*(uint32_t *)a.raw = pick(sizeof(a.raw));
			break;
		case 2:
			*(uint32_t *)a.raw = (uint32_t)rnd();
			break;
		default:
			*(uint32_t *)a.raw = 4096 * 1024;
		}
		cmd = pick(8) ? _IO(DXGPMO_TYPE, pick(0x42)) : (unsigned long)rnd();
		if (cmd != DXGPMO_IOC_TEST)
			ioctl(fd, cmd, pick(16) ? (void *)a.raw : rnd_ptr(w));
		break;
	default:
		a.st.size = sizeof(a.st);
		ret = dxgpmo_ioctl(fd, DXGPMO_IOC_STATS, &a.st);
		(void)ret;
	}
}

static int run_worker(uint64_t seed, unsigned long budget, time_t end,
		      unsigned long *ops)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	struct worker *w = calloc(1, sizeof(*w));
	uint32_t i, total;

	if (!w)
		return 1;
	rng_state = seed ? seed : 1;
	w->fd[0] = dxgpmo_open();
	w->fd[1] = dxgpmo_open();
	if (w->fd[0] < 0 || w->fd[1] < 0 ||
	    dxgpmo_query_adapters(w->fd[0], info, DXGPMO_MAX_ADAPTERS, &total))
		return 1;
	for (i = 0; i < total && i < 8; i++) {
		w->adapters[i] = info[i].adapter_id;
		w->seg_offset[i] = info[i].segment_mmap_offset;
	}
	w->nr_adapters = i;
	/* A SIGBUS from a revoked window is expected; end quietly. */
	signal(SIGBUS, SIG_DFL);
	while (*ops < budget && time(NULL) < end) {
		fuzz_one(w);
		(*ops)++;
	}
	return 0;
}

static int log_is_clean(int kmsg, unsigned int *warns)
{
	char rec[4096];
	int clean = 1;

	*warns = 0;
	for (;;) {
		ssize_t n = read(kmsg, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		if (strstr(rec, "WARNING:")) {
			if (strstr(rec, "dxgpmo_ioctl_destroy_pmo"))
				(*warns)++;
			else
				clean = 0;
		}
		if (strstr(rec, "BUG:") || strstr(rec, "Oops") ||
		    strstr(rec, "KASAN") || strstr(rec, "general protection") ||
		    strstr(rec, "kernel BUG")) {
			printf("# bad log line: %s", rec);
			clean = 0;
		}
	}
	return clean;
}

FIXTURE(fuzz) {
	int unused;
};

FIXTURE_SETUP(fuzz)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(fuzz)
{
}

TEST_F_TIMEOUT(fuzz, random_sequences, 600)
{
	const char *s = getenv("DXGPMO_FUZZ_SEED");
	uint64_t seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);
	unsigned long budget = getenv("DXGPMO_FUZZ_OPS") ?
			       strtoul(getenv("DXGPMO_FUZZ_OPS"), NULL, 0) :
			       200000;
	time_t seconds = getenv("DXGPMO_FUZZ_SECONDS") ?
			 strtol(getenv("DXGPMO_FUZZ_SECONDS"), NULL, 0) : 120;
	time_t end = time(NULL) + seconds;
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned long total = 0, kills = 0, per = budget / WORKERS + 1;
	pid_t pid[WORKERS];
	struct dxgpmo_stats st;
	unsigned int i, warns;
	int fd, kmsg, round = 0;

	ASSERT_NE(MAP_FAILED, sh);
	printf("# fuzz seed %llu (replay: DXGPMO_FUZZ_SEED=%llu)\n",
	       (unsigned long long)seed, (unsigned long long)seed);
	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "warn"));
	kmsg = kmsg_open_new();
	ASSERT_LE(0, kmsg);
	kmsg_write("dxgpmo-expect: begin fuzz\n");
	rng_state = seed;

	/* Rounds of workers; some are killed at a random moment. */
	while (total < budget && time(NULL) < end) {
		for (i = 0; i < WORKERS; i++) {
			uint64_t wseed = seed * 1000003 + round * WORKERS + i;

			sh->ops[i] = 0;
			pid[i] = fork();
			ASSERT_LE(0, pid[i]);
			if (!pid[i])
				_exit(run_worker(wseed, per, end, &sh->ops[i]));
		}
		if (pick(2)) {
			usleep(pick(2000000));
			i = pick(WORKERS);
			kill(pid[i], SIGKILL);
			kills++;
		}
		for (i = 0; i < WORKERS; i++) {
			int status;

			ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
			if (WIFEXITED(status))
				EXPECT_EQ(0, WEXITSTATUS(status)) {
					printf("# worker seed %llu failed\n",
					       (unsigned long long)(seed * 1000003 +
						round * WORKERS + i));
				}
			total += sh->ops[i];
		}
		round++;
	}
	kmsg_write("dxgpmo-expect: end fuzz\n");
	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "bug"));
	printf("# %lu operations in %d rounds, %lu workers killed\n", total,
	       round, kills);
	EXPECT_TRUE(log_is_clean(kmsg, &warns)) {
		printf("# seed %llu\n", (unsigned long long)seed);
	}
	printf("# %u ADL-leak WARNs (adl_leak=warn)\n", warns);
	close(kmsg);
	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &st));
	EXPECT_EQ(0, dxgpmo_counters_live(&st.global)) {
		printf("# leak after seed %llu\n", (unsigned long long)seed);
	}
	close(fd);
	EXPECT_LE(budget, total);
}

TEST_HARNESS_MAIN
