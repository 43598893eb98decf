// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for CPU mappings: MAP/UNMAP rounding, user and kernel views,
 * coherence with the devices' view, cache types read from the page tables,
 * mmap(2) of object windows, lifetimes across munmap/UNMAP/destroy/close
 * and fork, SECTION and IO_SPACE objects.  Needs debug_ioctls=1 for the
 * page-table checks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "dxgpmo_test.h"

static int create(int fd, uint32_t type, uint32_t cache, uint64_t length,
		  uint32_t adapter, struct dxgpmo_create_pmo *c)
{
	*c = (struct dxgpmo_create_pmo){
		.type = type,
		.cache_type = cache,
		.length = length,
		.adapter_id = adapter,
		.page_protection = rw_protection(type),
	};
	return dxgpmo_create_pmo(fd, c);
}

static int map(int fd, uint32_t pmo, uint32_t mode, uint64_t offset,
	       uint64_t length, struct dxgpmo_map *m)
{
	*m = (struct dxgpmo_map){
		.pmo_id = pmo, .access_mode = mode, .offset = offset,
		.length = length,
	};
	return dxgpmo_map(fd, m);
}

static int memtype(int fd, uint32_t of, uint32_t id, uint64_t address,
		   uint64_t index, struct dxgpmo_test_cmd *t)
{
	*t = (struct dxgpmo_test_cmd){
		.size = sizeof(*t), .op = DXGPMO_TEST_OP_MEMTYPE, .of = of,
		.id = id, .address = address, .index = index,
	};
	return dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, t);
}

static void fill(uint8_t *buf, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed ^ (i * 13) ^ (i >> 9));
}

/* Unmap a user view u and a kernel view k of PMO pmo, then destroy it. */
static void destroy_with_views(struct __test_metadata *_metadata, int fd,
			       uint32_t pmo, const struct dxgpmo_map *u,
			       const struct dxgpmo_map *k)
{
	EXPECT_EQ(0, dxgpmo_unmap(fd, pmo, u->address, u->length));
	EXPECT_EQ(0, dxgpmo_unmap(fd, pmo, k->address, k->length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(fd, pmo, 0));
}

FIXTURE_DXGPMO(map, 0)

/*
 * Rounding: the view starts at the page below the wanted offset and covers
 * whole pages; out offset locates the wanted byte, out length is the view.
 */
TEST_F(map, rounding_table)
{
	static const struct {
		uint64_t offset, length;
		int err;
		uint64_t out_offset, out_length;
	} cases[] = {
		{ 0, 1, 0, 0, PAGE },
		{ 0, PAGE, 0, 0, PAGE },
		{ 100, PAGE - 100, 0, 100, PAGE },
		{ 100, PAGE - 99, 0, 100, 2 * PAGE },	/* one byte over */
		{ 100, PAGE, 0, 100, 2 * PAGE },
		{ PAGE - 1, 2, 0, PAGE - 1, 2 * PAGE },
		{ PAGE, PAGE, 0, 0, PAGE },
		{ 3 * PAGE + 99, 1, 0, 99, PAGE },	/* the last byte */
		{ 0, 3 * PAGE + 100, 0, 0, 4 * PAGE },	/* everything */
		{ 2 * PAGE + 5, PAGE + 95, 0, 5, 2 * PAGE },
		{ 0, 0, EINVAL },
		{ 3 * PAGE + 100, 1, EINVAL },		/* past the end */
		{ 3 * PAGE, 101, EINVAL },
		{ 1, 3 * PAGE + 100, EINVAL },
		{ UINT64_MAX, 2, EINVAL },
	};
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map kmap;
	unsigned int i, mode;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    3 * PAGE + 100, 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0,
			 3 * PAGE + 100, &kmap));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		for (mode = DXGPMO_ACCESS_KERNEL; mode <= DXGPMO_ACCESS_USER;
		     mode++) {
			uint8_t marker = 0x40 + i, seen = 0;
			struct dxgpmo_map m;
			int ret;

			ret = map(self->fd, c.pmo_id, mode, cases[i].offset,
				  cases[i].length, &m);
			if (cases[i].err) {
				EXPECT_EQ(-cases[i].err, ret) {
					TH_LOG("case %u mode %u", i, mode);
				}
				continue;
			}
			ASSERT_EQ(0, ret) {
				TH_LOG("case %u mode %u", i, mode);
			}
			EXPECT_EQ(cases[i].out_offset, m.offset);
			EXPECT_EQ(cases[i].out_length, m.length);
			/* The wanted byte is at address + out offset. */
			ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, kmap.map_id,
						    DXGPMO_KMAP_WRITE,
						    cases[i].offset, &marker,
						    1));
			if (mode == DXGPMO_ACCESS_USER) {
				seen = ((volatile uint8_t *)(uintptr_t)
					m.address)[m.offset];
				EXPECT_EQ(0, m.address % PAGE);
			} else {
				ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, m.map_id,
							    0, m.offset,
							    &seen, 1));
				/* A token, not a kernel pointer. */
				EXPECT_NE(0, m.address);
			}
			EXPECT_EQ(marker, seen);
			EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id,
						  m.address, m.length));
		}
	}
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, kmap.address,
				  kmap.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * Read-only shared mappings through read-only fds: mmap(2) clears
 * VM_SHARED (keeping VM_MAYSHARE) when the file is not open for writing,
 * for an object window of a node opened O_RDONLY and for a dma-buf
 * exported O_RDONLY alike.  Private mappings stay refused.
 */
TEST_F(map, read_only_shared_mappings)
{
	struct dxgpmo_create_pmo c = { .length = PAGE };
	struct dxgpmo_export_dmabuf x = { .size = sizeof(x),
					  .fd_flags = O_RDONLY | O_CLOEXEC };
	int fd = open(DXGPMO_DEV_PATH, O_RDONLY | O_CLOEXEC);
	void *p;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_create_pmo(fd, &c));
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, c.mmap_offset);
	EXPECT_NE(MAP_FAILED, p) {
		TH_LOG("read-only shared window mmap: %s", strerror(errno));
	}
	if (p != MAP_FAILED) {
		EXPECT_EQ(0, ((volatile uint8_t *)p)[0]);
		munmap(p, PAGE);
	}
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd,
				   c.mmap_offset));
	x.pmo_id = c.pmo_id;
	ASSERT_EQ(0, dxgpmo_ioctl(fd, DXGPMO_IOC_EXPORT_DMABUF, &x));
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, x.fd, 0);
	EXPECT_NE(MAP_FAILED, p) {
		TH_LOG("read-only shared dma-buf mmap: %s", strerror(errno));
	}
	if (p != MAP_FAILED) {
		EXPECT_EQ(0, ((volatile uint8_t *)p)[0]);
		munmap(p, PAGE);
	}
	close(x.fd);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(fd, c.pmo_id, 0));
	close(fd);
}

TEST_F(map, bad_args)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map m, k;
	uint8_t b;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    2 * PAGE, 0, &c));
	EXPECT_EQ(-ENOENT, map(self->fd, 0, DXGPMO_ACCESS_USER, 0, 1, &m));
	EXPECT_EQ(-ENOENT, map(self->fd, c.pmo_id + 1000, DXGPMO_ACCESS_USER,
			       0, 1, &m));
	EXPECT_EQ(-EINVAL, map(self->fd, c.pmo_id, 2, 0, 1, &m));
	m = (struct dxgpmo_map){ .pmo_id = c.pmo_id, .length = 1, .flags = 2 };
	EXPECT_EQ(-EINVAL, dxgpmo_map(self->fd, &m));
	/* A user view is in the process already. */
	m = (struct dxgpmo_map){ .pmo_id = c.pmo_id, .length = 1,
				 .access_mode = DXGPMO_ACCESS_USER,
				 .flags = DXGPMO_MAP_IN_PROCESS };
	EXPECT_EQ(-EINVAL, dxgpmo_map(self->fd, &m));
	m = (struct dxgpmo_map){ .pmo_id = c.pmo_id, .length = 1,
				 .__reserved = 1 };
	EXPECT_EQ(-EINVAL, dxgpmo_map(self->fd, &m));

	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 10, 20, &m));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0, 1, &k));
	/* UNMAP must name the object, the returned base and size. */
	EXPECT_EQ(-ENOENT, dxgpmo_unmap(self->fd, 0, m.address, m.length));
	EXPECT_EQ(-EINVAL, dxgpmo_unmap(self->fd, c.pmo_id, m.address + 10,
					m.length));
	EXPECT_EQ(-EINVAL, dxgpmo_unmap(self->fd, c.pmo_id, m.address, 20));
	EXPECT_EQ(-EINVAL, dxgpmo_unmap(self->fd, c.pmo_id, m.address,
					2 * PAGE));
	/* KMAP_RW only on kernel maps, inside the view. */
	EXPECT_EQ(-EINVAL, dxgpmo_kmap_rw(self->fd, m.map_id, 0, 0, &b, 1));
	EXPECT_EQ(-EINVAL, dxgpmo_kmap_rw(self->fd, k.map_id, 0, PAGE, &b, 1));
	EXPECT_EQ(-EINVAL, dxgpmo_kmap_rw(self->fd, k.map_id, 0, 0, &b, 0));
	EXPECT_EQ(-EINVAL, dxgpmo_kmap_rw(self->fd, k.map_id, 1U << 3, 0, &b,
					  1));
	EXPECT_EQ(-ENOENT, dxgpmo_kmap_rw(self->fd, c.pmo_id, 0, 0, &b, 1));
	EXPECT_EQ(-EFAULT, dxgpmo_kmap_rw(self->fd, k.map_id, 0, 0, NULL, 1));
	/* With views alive the object cannot be destroyed. */
	EXPECT_EQ(-EBUSY, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, m.address, m.length));
	EXPECT_EQ(-EINVAL, dxgpmo_unmap(self->fd, c.pmo_id, m.address,
					m.length));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

static int64_t monotonic_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A real-time thread on the CPU of a long KMAP_RW, waking every
 * millisecond: it counts its wake-ups that came later than late_ns.
 */
struct wakeup_probe {
	int64_t late_ns;
	int late, wakeups, stop, error;
};

static void *wakeup_probe_run(void *arg)
{
	struct sched_param param = { .sched_priority = 50 };
	struct wakeup_probe *p = arg;
	struct timespec at;
	int64_t due;

	if (pin_to_cpu0() ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &param)) {
		__atomic_store_n(&p->error, errno ? errno : EPERM,
				 __ATOMIC_RELEASE);
		return NULL;
	}
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		due = monotonic_ns() + 1000000;
		at.tv_sec = due / 1000000000;
		at.tv_nsec = due % 1000000000;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		p->late += monotonic_ns() - due > p->late_ns;
		p->wakeups++;
	}
	return NULL;
}

/*
 * A copy of a large kernel view lets the CPU go between its pieces: a
 * real-time thread on the same CPU is not held up for the length of a
 * whole copy, which on a kernel that does not preempt in kernel mode is
 * what an unbroken copy does (a non-cached view there is a lockup).
 * Measured against the copy's own time on this machine: a thread held
 * for a whole copy wakes about a copy late once a copy, so more than a
 * third late at least once every two copies is an unbroken copy (fewer
 * is the host's own scheduling noise).
 */
TEST_F(map, kmap_rw_of_a_large_view_yields_the_cpu)
{
	const uint64_t len = 256ULL << 20;
	struct wakeup_probe probe = { 0 };
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map k;
	int64_t t, copy_ns = INT64_MAX;
	const int copies = 8;
	pthread_t thread;
	uint8_t *buf;
	int i;

	ASSERT_EQ(0, pin_to_cpu0());
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    len, 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0, len, &k));
	for (i = 0; i < 2; i++) {
		t = monotonic_ns();
		ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, 0, k.offset,
					    buf, len));
		t = monotonic_ns() - t;
		if (t < copy_ns)
			copy_ns = t;
	}
	probe.late_ns = copy_ns / 3;
	ASSERT_EQ(0, pthread_create(&thread, NULL, wakeup_probe_run, &probe));
	usleep(20000);
	for (i = 0; i < copies; i++)
		ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, 0, k.offset,
					    buf, len));
	__atomic_store_n(&probe.stop, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	if (probe.error)
		SKIP(goto out, "no real-time thread on CPU 0: %s",
		     strerror(probe.error));
	TH_LOG("a copy of %llu MiB: %lld ms; %d of %d wake-ups later than %lld ms",
	       (unsigned long long)(len >> 20), (long long)(copy_ns / 1000000),
	       probe.late, probe.wakeups, (long long)(probe.late_ns / 1000000));
	EXPECT_LT(probe.late, copies / 2);
out:
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	munmap(buf, len);
}

/*
 * The same bytes through every view: user map, kernel map (KMAP_RW) and the
 * device through an ADL, in both directions.
 */
TEST_F_TIMEOUT(map, coherence_across_views, 60)
{
	uint8_t a[256], b[256], got[256];
	struct dxgpmo_allocate_adl adl = { 0 };
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map u, k;
	volatile uint8_t *user;
	uint32_t cache;

	if (!self->ad.edu)
		SKIP(return, "needs an adapter with a DMA engine");
	for (cache = 0; cache <= DXGPMO_CACHE_WRITE_COMBINED; cache++) {
		ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, cache,
				    2 * PAGE, self->ad.edu->adapter_id, &c));
		ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0,
				 2 * PAGE, &u));
		ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL,
				 PAGE, PAGE, &k));
		user = (volatile uint8_t *)(uintptr_t)u.address;
		adl = (struct dxgpmo_allocate_adl){
			.amo_id = c.amo_id, .length = 2 * PAGE,
		};
		ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));

		/* user -> kernel view and device */
		fill(a, sizeof(a), 0x10 + cache);
		for (unsigned int i = 0; i < sizeof(a); i++)
			user[PAGE + 300 + i] = a[i];
		ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, 0, 300, got,
					    sizeof(got)));
		EXPECT_EQ(0, memcmp(a, got, sizeof(a)));
		ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, self->ad.edu->adapter_id,
						0, (adl.base_page + 1) * PAGE + 300,
						got, sizeof(got)));
		EXPECT_EQ(0, memcmp(a, got, sizeof(a)));

		/* device -> user view and kernel view */
		fill(b, sizeof(b), 0x90 + cache);
		ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, self->ad.edu->adapter_id,
						DXGPMO_DMA_TO_MEMORY,
						(adl.base_page + 1) * PAGE + 600,
						b, sizeof(b)));
		for (unsigned int i = 0; i < sizeof(b); i++)
			got[i] = user[PAGE + 600 + i];
		EXPECT_EQ(0, memcmp(b, got, sizeof(b)));
		ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, 0, 600, got,
					    sizeof(got)));
		EXPECT_EQ(0, memcmp(b, got, sizeof(b)));

		/* kernel view -> user view */
		ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id,
					    DXGPMO_KMAP_WRITE, 1000, a,
					    sizeof(a)));
		for (unsigned int i = 0; i < sizeof(a); i++)
			got[i] = user[PAGE + 1000 + i];
		EXPECT_EQ(0, memcmp(a, got, sizeof(a)));

		EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
		EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address,
					  u.length));
		EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address,
					  k.length));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
	}
}

/*
 * Cache types from the page tables: the user PTE, the kernel vmap PTE and
 * (where the architecture switches it, x86) the linear-map PTE of every
 * object page carry the object's memory type; on arm64 the linear map's
 * stays write-back.
 */
TEST_F(map, cache_types_in_page_tables)
{
	struct dxgpmo_test_cmd t;
	uint32_t type, cache;

	if (memtype(self->fd, DXGPMO_TEST_MEMTYPE_OF_LINEAR, 0, 0, 0, &t) ==
	    -ENOTTY)
		SKIP(return, "module loaded without debug_ioctls=1");
	for (type = DXGPMO_PMO_TYPE_MDL; type <= DXGPMO_PMO_TYPE_CONTIGUOUS;
	     type++) {
		for (cache = 0; cache <= DXGPMO_CACHE_WRITE_COMBINED; cache++) {
			uint64_t pages = 3, i;
			struct dxgpmo_create_pmo c;
			struct dxgpmo_map u, k;
			uint32_t want;

			ASSERT_EQ(0, create(self->fd, type, cache,
					    pages * PAGE, 0, &c));
			ASSERT_EQ(0, map(self->fd, c.pmo_id,
					 DXGPMO_ACCESS_USER, 0, pages * PAGE,
					 &u));
			ASSERT_EQ(0, map(self->fd, c.pmo_id,
					 DXGPMO_ACCESS_KERNEL, 0,
					 pages * PAGE, &k));
			for (i = 0; i < pages; i++) {
				/* fault the page in */
				((volatile uint8_t *)(uintptr_t)u.address)
					[i * PAGE] = 1;
				ASSERT_EQ(0, memtype(self->fd,
						     DXGPMO_TEST_MEMTYPE_OF_USER_VA,
						     0, u.address + i * PAGE,
						     0, &t));
				want = ram_view_memtype(cache, t.pat_enabled);
				EXPECT_EQ(want, t.memtype) {
					TH_LOG("user: type %u cache %u bits 0x%llx",
					       type, cache,
					       (unsigned long long)t.pte_bits);
				}
				ASSERT_EQ(0, memtype(self->fd,
						     DXGPMO_TEST_MEMTYPE_OF_KMAP,
						     k.map_id, 0, i, &t));
				EXPECT_EQ(want, t.memtype) {
					TH_LOG("kernel: type %u cache %u", type,
					       cache);
				}
				ASSERT_EQ(0, memtype(self->fd,
						     DXGPMO_TEST_MEMTYPE_OF_LINEAR,
						     c.pmo_id, 0, i, &t));
				/* arm64 keeps the alias write-back */
				EXPECT_EQ(t.linear_alias ? want :
					  DXGPMO_TEST_MEMTYPE_WB, t.memtype) {
					TH_LOG("linear: type %u cache %u", type,
					       cache);
				}
			}
			destroy_with_views(_metadata, self->fd, c.pmo_id, &u,
					   &k);
		}
	}
}

/*
 * Non-cached and write-combined RAM is still memory: unaligned loads and
 * stores, and copies of any length at any offset, through the user view
 * and through a kernel view (KMAP_RW), as on x86.  A
 * device memory type (arm64's pgprot_noncached(), Device-nGnRnE) faults
 * on every unaligned access on real machines; QEMU's TCG does not fault,
 * so there the memory types (cache_types_in_page_tables) tell.
 */
TEST_F(map, uncached_views_take_unaligned_access)
{
	uint32_t type, cache;

	for (type = DXGPMO_PMO_TYPE_MDL; type <= DXGPMO_PMO_TYPE_CONTIGUOUS;
	     type++) {
		for (cache = 0; cache <= DXGPMO_CACHE_WRITE_COMBINED; cache++) {
			uint8_t a[77], b[77], got[77];
			struct dxgpmo_create_pmo c;
			struct dxgpmo_map u, k;
			volatile uint8_t *p;
			uint64_t word;

			if (cache == DXGPMO_CACHE_CACHED)
				continue;
			ASSERT_EQ(0, create(self->fd, type, cache, 2 * PAGE, 0,
					    &c));
			ASSERT_EQ(0, map(self->fd, c.pmo_id,
					 DXGPMO_ACCESS_USER, 0, 2 * PAGE, &u));
			ASSERT_EQ(0, map(self->fd, c.pmo_id,
					 DXGPMO_ACCESS_KERNEL, 0, 2 * PAGE,
					 &k));
			p = (volatile uint8_t *)(uintptr_t)u.address;
			fill(a, sizeof(a), 0x3c + cache);
			fill(b, sizeof(b), 0xa5 + type);
			/* across the page boundary, from an odd address */
			memcpy((void *)(p + PAGE - 33), a, sizeof(a));
			word = 0x0123456789abcdefULL;
			memcpy((void *)(p + 5), &word, sizeof(word));
			ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, 0,
						    PAGE - 33, got,
						    sizeof(got)));
			EXPECT_EQ(0, memcmp(a, got, sizeof(a))) {
				TH_LOG("type %u cache %u: kernel read", type,
				       cache);
			}
			ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id,
						    DXGPMO_KMAP_WRITE, 301, b,
						    sizeof(b)));
			memcpy(got, (const void *)(p + 301), sizeof(got));
			EXPECT_EQ(0, memcmp(b, got, sizeof(b))) {
				TH_LOG("type %u cache %u: user read", type,
				       cache);
			}
			word = 0;
			memcpy(&word, (const void *)(p + 5), sizeof(word));
			EXPECT_EQ(0x0123456789abcdefULL, word);
			destroy_with_views(_metadata, self->fd, c.pmo_id, &u,
					   &k);
		}
	}
}

/*
 * KMAP_RW of a non-cached view goes in 8-byte words through a bounce page
 * (driver-api, "Non-cached memory is accessed in words"): every alignment
 * of both ends, short and across the bounce's page pieces and KMAP_RW's
 * 1 MiB ones, stores exactly the bytes it was given, leaves its
 * neighbours, and reads back the same.
 */
TEST_F(map, uncached_kmap_rw_stores_only_what_it_was_given)
{
	static const uint64_t lengths[] = { 1, 7, 8, 9, 15, 17, PAGE + 3 };
	static const uint64_t edges[] = { PAGE, 1 << 20 };
	const uint64_t size = (1 << 20) + 2 * PAGE, margin = 16;
	static uint8_t pattern[PAGE + 3], got[PAGE + 3 + 2 * 16];
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map u, k;
	volatile uint8_t *p;
	uint64_t start, i;
	unsigned int n, l;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL,
			    DXGPMO_CACHE_NON_CACHED, size, 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0, size, &u));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0, size,
			 &k));
	p = (volatile uint8_t *)(uintptr_t)u.address;
	fill(pattern, sizeof(pattern), 0x5a);
	/* at each edge, starts from 9 bytes below it to 8 above */
	for (n = 0; n < ARRAY_SIZE(edges) * 18; n++) {
		start = edges[n / 18] - 9 + n % 18;
		for (l = 0; l < ARRAY_SIZE(lengths); l++) {
			uint64_t len = lengths[l], bad = 0;

			for (i = start - margin; i < start + len + margin; i++)
				p[i] = 0xee;
			ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id,
						    DXGPMO_KMAP_WRITE, start,
						    pattern, len));
			for (i = start - margin; i < start + len + margin; i++)
				bad += p[i] != (i < start || i >= start + len ?
						0xee : pattern[i - start]);
			EXPECT_EQ(0, bad) {
				TH_LOG("write at %llu, %llu bytes",
				       (unsigned long long)start,
				       (unsigned long long)len);
			}
			ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, 0,
						    start - margin, got,
						    len + 2 * margin));
			bad = 0;
			for (i = 0; i < len + 2 * margin; i++)
				bad += got[i] != p[start - margin + i];
			EXPECT_EQ(0, bad) {
				TH_LOG("read at %llu, %llu bytes",
				       (unsigned long long)(start - margin),
				       (unsigned long long)(len + 2 * margin));
			}
		}
	}
	destroy_with_views(_metadata, self->fd, c.pmo_id, &u, &k);
}

/*
 * A KMAP_RW write whose user buffer ends in an unmapped page fails with
 * EFAULT and stores a prefix of what it was given, leaving the rest of
 * the range as it was: copy_from_user() zero-fills what it could not
 * copy, which must not reach the view as zeros the caller never gave.
 */
TEST_F(map, kmap_rw_write_that_faults_stores_only_a_prefix)
{
	uint32_t cache;

	for (cache = 0; cache <= DXGPMO_CACHE_WRITE_COMBINED; cache++) {
		struct dxgpmo_create_pmo c;
		struct dxgpmo_map u, k;
		uint64_t i, stored = 0, bad = 0;
		volatile uint8_t *p;
		uint8_t *buf;

		buf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, buf);
		memset(buf, 0x11, PAGE);
		ASSERT_EQ(0, munmap(buf + PAGE, PAGE));
		ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, cache,
				    4 * PAGE, 0, &c));
		ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0,
				 4 * PAGE, &u));
		ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0,
				 4 * PAGE, &k));
		p = (volatile uint8_t *)(uintptr_t)u.address;
		for (i = 0; i < 4 * PAGE; i++)
			p[i] = 0xee;
		EXPECT_EQ(-EFAULT, dxgpmo_kmap_rw(self->fd, k.map_id,
						  DXGPMO_KMAP_WRITE, 16, buf,
						  2 * PAGE));
		while (stored < PAGE && p[16 + stored] == 0x11)
			stored++;
		for (i = 0; i < 4 * PAGE; i++)
			bad += p[i] != (i >= 16 && i < 16 + stored ? 0x11 :
					0xee);
		EXPECT_EQ(0, bad) {
			TH_LOG("cache %u: %llu bytes stored, then %llu bytes not as they were",
			       cache, (unsigned long long)stored,
			       (unsigned long long)bad);
		}
		destroy_with_views(_metadata, self->fd, c.pmo_id, &u, &k);
		munmap(buf, PAGE);
	}
}

/*
 * Where the linear alias of a write-combined object stays write-back
 * (arm64), a kernel view of a section's pages, which shmem wrote through
 * that alias, cleans their cache lines first and again when it goes (x86
 * keeps the alias write-back under such a vmap, as DRM's shmem helpers
 * do).
 */
TEST_F(map, section_kernel_views_clean_caches)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_test_cmd t;
	struct dxgpmo_map k;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_WRITE_COMBINED, 3 * PAGE, 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0,
			 3 * PAGE, &k));
	if (memtype(self->fd, DXGPMO_TEST_MEMTYPE_OF_KMAP, k.map_id, 0, 0,
		    &t) == -ENOTTY) {
		EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address,
					  k.length));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
		SKIP(return, "module loaded without debug_ioctls=1");
	}
	/* This test's view is the only kernel view now. */
	EXPECT_EQ(t.linear_alias ? 0 : 3,
		  debugfs_counter("cleaned_kview_pages"));
	EXPECT_EQ(ram_view_memtype(DXGPMO_CACHE_WRITE_COMBINED,
				   t.pat_enabled), t.memtype);
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));
	EXPECT_EQ(0, debugfs_counter("cleaned_kview_pages"));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/* mmap(2) of the window: shared data, bounds, private maps, other files. */
TEST_F(map, direct_mmap)
{
	struct dxgpmo_create_pmo c, c2;
	struct dxgpmo_map u;
	uint8_t *p;
	int other;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL,
			    DXGPMO_CACHE_WRITE_COMBINED, 3 * PAGE, 0, &c));
	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    PAGE, 0, &c2));
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, PAGE, PAGE,
			 &u));
	p[PAGE + 7] = 0x5c;
	EXPECT_EQ(0x5c, ((volatile uint8_t *)(uintptr_t)u.address)[7]);
	EXPECT_EQ(0, munmap(p, 3 * PAGE));
	/* A sub-window is fine; beyond the window or outside any is not. */
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd,
		 c.mmap_offset + 2 * PAGE);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, munmap(p, PAGE));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * PAGE, PROT_READ, MAP_SHARED,
				   self->fd, c.mmap_offset));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED,
				   self->fd, 0));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED,
				   self->fd, c2.mmap_offset));
	/* Private maps are refused. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE, self->fd, c.mmap_offset));
	EXPECT_EQ(EINVAL, errno);
	/* Another file cannot map this file's window. */
	other = dxgpmo_open();
	ASSERT_LE(0, other);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_SHARED, other,
				   c.mmap_offset));
	close(other);
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c2.pmo_id, 0));
}

/*
 * A fault maps its aligned 64 KiB block at once: views starting and ending
 * anywhere, faulted from the middle or the end first, still show each page
 * of the object at its own place.
 */
TEST_F(map, views_at_every_offset)
{
	static const struct { unsigned int first, nr, touch_first; } views[] = {
		{ 0, 40, 39 }, { 1, 9, 8 }, { 15, 2, 1 }, { 17, 15, 7 },
		{ 31, 9, 0 }, { 39, 1, 0 }, { 5, 30, 20 },
	};
	struct dxgpmo_create_pmo c;
	volatile uint8_t *p;
	unsigned int i, v;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    40 * PAGE, 0, &c));
	p = mmap(NULL, 40 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < 40; i++) {
		p[i * PAGE] = i;
		p[i * PAGE + PAGE - 1] = ~i;
	}
	ASSERT_EQ(0, munmap((void *)p, 40 * PAGE));
	for (v = 0; v < ARRAY_SIZE(views); v++) {
		p = mmap(NULL, views[v].nr * PAGE, PROT_READ, MAP_SHARED,
			 self->fd, c.mmap_offset + views[v].first * PAGE);
		ASSERT_NE(MAP_FAILED, p);
		EXPECT_EQ((uint8_t)(views[v].first + views[v].touch_first),
			  p[views[v].touch_first * PAGE]);
		for (i = 0; i < views[v].nr; i++) {
			EXPECT_EQ((uint8_t)(views[v].first + i), p[i * PAGE]);
			EXPECT_EQ((uint8_t)~(views[v].first + i),
				  p[i * PAGE + PAGE - 1]);
		}
		ASSERT_EQ(0, munmap((void *)p, views[v].nr * PAGE));
	}
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/* The process unmapped the view itself: UNMAP is an error, not a crash. */
TEST_F(map, unmap_after_munmap)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map u;
	struct dxgpmo_stats st;
	void *other;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    2 * PAGE, 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0, 2 * PAGE,
			 &u));
	EXPECT_EQ(0, munmap((void *)(uintptr_t)u.address, u.length));
	/* Something else now lives at that address. */
	other = mmap((void *)(uintptr_t)u.address, u.length,
		     PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ASSERT_EQ((void *)(uintptr_t)u.address, other);
	EXPECT_EQ(-ENOENT, dxgpmo_unmap(self->fd, c.pmo_id, u.address,
					u.length));
	/* The anonymous mapping was not touched. */
	((volatile uint8_t *)other)[0] = 1;
	EXPECT_EQ(0, munmap(other, u.length));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, st.file.maps);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

static long minor_faults(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_minflt;
}

/* A read of p in a child of fork(), which copies a PFN map's entries. */
static int read_in_child(volatile uint8_t *p)
{
	int status;
	pid_t pid = fork();

	if (!pid)
		_exit(p[0] == 0xff ? 2 : 0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

/*
 * UNMAP takes down the one view it names, at once, while the object
 * lives on (SIGBUS, not the pages: a SECTION's go back to shmem when its
 * last view does); another view of the same pages keeps its page table
 * entries (a view's entries were once zapped through the window's whole
 * file range, which made the other views fault again and walked every
 * view still attached to those offsets, detached ones included).
 */
TEST_F(map, unmap_leaves_other_views_mapped)
{
	static const uint32_t types[] = {
		DXGPMO_PMO_TYPE_MDL, DXGPMO_PMO_TYPE_SECTION,
	};
	const unsigned int pages = 8;
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map a, b;
	volatile uint8_t *other;
	long before, after;
	unsigned int i, t;
	int sum;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		ASSERT_EQ(0, create(self->fd, types[t], DXGPMO_CACHE_CACHED,
				    pages * PAGE, 0, &c));
		ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0,
				 pages * PAGE, &a));
		ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0,
				 pages * PAGE, &b));
		other = (volatile uint8_t *)(uintptr_t)b.address;
		sum = 0;
		for (i = 0; i < pages; i++) {
			((volatile uint8_t *)(uintptr_t)a.address)[i * PAGE] = i;
			sum += other[i * PAGE];
		}
		before = minor_faults();
		ASSERT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, a.address,
					  a.length));
		for (i = 0; i < pages; i++)
			sum += other[i * PAGE];
		after = minor_faults();
		ASSERT_LE(0, before);
		EXPECT_EQ(2 * (pages - 1) * pages / 2, sum);
		EXPECT_EQ(before, after) {
			TH_LOG("type %u: the other view faulted %ld times after the UNMAP of one",
			       types[t], after - before);
		}
		EXPECT_EQ(SIGBUS, read_in_child((volatile uint8_t *)(uintptr_t)
						a.address)) {
			TH_LOG("type %u: the view UNMAP detached still maps",
			       types[t]);
		}
		EXPECT_EQ(0, munmap((void *)(uintptr_t)a.address, a.length));
		EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, b.address,
					  b.length));
		EXPECT_EQ(SIGBUS, read_in_child(other));
		EXPECT_EQ(0, munmap((void *)(uintptr_t)b.address, b.length));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	}
}

/*
 * A MAP that cannot answer (its block is read-only: copied in, never
 * back) leaves no map and no kernel view behind, and the PMO goes: the
 * map's abort undid it, a user view's too (detached, so the object is
 * free; the range stays the process's until it unmaps it).
 */
TEST_F(map, unanswerable_map_leaves_nothing)
{
	static const struct {
		uint32_t access_mode, flags;
	} kinds[] = {
		{ DXGPMO_ACCESS_USER, 0 },
		{ DXGPMO_ACCESS_KERNEL, 0 },
		{ DXGPMO_ACCESS_KERNEL, DXGPMO_MAP_IN_PROCESS },
	};
	long long kmap_pages = debugfs_counter("kmap_pages");
	struct dxgpmo_create_pmo c;
	struct dxgpmo_stats st;
	struct dxgpmo_map *m;
	unsigned int i;
	void *block;

	block = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, block);
	m = block;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL,
				    DXGPMO_CACHE_CACHED, 2 * PAGE, 0, &c));
		ASSERT_EQ(0, mprotect(block, PAGE, PROT_READ | PROT_WRITE));
		memset(m, 0, sizeof(*m));
		m->size = sizeof(*m);
		m->pmo_id = c.pmo_id;
		m->access_mode = kinds[i].access_mode;
		m->flags = kinds[i].flags;
		m->length = 2 * PAGE;
		ASSERT_EQ(0, mprotect(block, PAGE, PROT_READ));
		EXPECT_EQ(-1, ioctl(self->fd, DXGPMO_IOC_MAP, m));
		EXPECT_EQ(EFAULT, errno);
		ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
		EXPECT_EQ(0, st.file.maps) {
			TH_LOG("kind %u: a map the caller never learnt of", i);
		}
		EXPECT_EQ(kmap_pages, debugfs_counter("kmap_pages"));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	}
	munmap(block, PAGE);
}

/* fork: the child sees the inherited view but cannot UNMAP it. */
TEST_F(map, fork_with_live_mapping)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map u;
	volatile uint8_t *p;
	int status;
	pid_t pid;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    PAGE, 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0, PAGE, &u));
	p = (volatile uint8_t *)(uintptr_t)u.address;
	p[5] = 0x77;
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (p[5] != 0x77)
			_exit(1);
		p[6] = 0x78;
		_exit(dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length) ==
		      -EPERM ? 0 : 2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0x78, p[6]);	/* shared, not copied */
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * A view made by a process that has exited went with its process: another
 * process sharing the file may UNMAP what is left, the record, and then
 * destroy the object, where it would otherwise stay busy until the file
 * is closed.
 */
TEST_F(map, unmap_of_an_exited_process_view)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map u;
	int status, pipefd[2];
	pid_t pid;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    PAGE, 0, &c));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pipefd[0]);
		if (map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0, PAGE, &u))
			_exit(1);
		((volatile uint8_t *)(uintptr_t)u.address)[0] = 0x5a;
		_exit(write(pipefd[1], &u, sizeof(u)) == sizeof(u) ? 0 : 2);
	}
	close(pipefd[1]);
	ASSERT_EQ(sizeof(u), read(pipefd[0], &u, sizeof(u)));
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(-EBUSY, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(-EINVAL, dxgpmo_unmap(self->fd, c.pmo_id, u.address,
					u.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/* After DESTROY a direct mmap of the window is revoked: SIGBUS, no UAF. */
TEST_F(map, destroy_revokes_mmap)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_stats st;
	int status;
	pid_t pid;
	uint8_t *p;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    2 * PAGE, 0, &c));
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	p[0] = 1;
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	/* The handle is gone; the VMA still holds the pages until munmap. */
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, st.file.pmos);
	EXPECT_EQ(2, st.global.pages);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		((volatile uint8_t *)p)[PAGE] = 2;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGBUS, WTERMSIG(status));
	EXPECT_EQ(0, munmap(p, 2 * PAGE));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, st.global.pages);
}

/*
 * Window offsets are given back: once an object is destroyed and the last
 * view of its window is gone, a new object may get the same offsets, so
 * create/destroy loops never use the offset space up.  Until then they stay
 * taken.
 */
TEST_F(map, window_offsets_reused_after_last_view)
{
	const uint64_t len = 64 * PAGE;
	struct dxgpmo_create_pmo a, b, c;
	uint8_t *view, *pc;
	unsigned int i;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_CACHED, len, 0, &a));
	view = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		    a.mmap_offset);
	ASSERT_NE(MAP_FAILED, view);
	view[0] = 1;
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, a.pmo_id, 0));
	/* A's view still holds its window: B must not overlap it. */
	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_CACHED, len, 0, &b));
	EXPECT_TRUE(b.mmap_offset >= a.mmap_offset + len ||
		    b.mmap_offset + len <= a.mmap_offset);
	EXPECT_EQ(0, munmap(view, len));
	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_CACHED, len, 0, &c));
	EXPECT_LE(c.mmap_offset, a.mmap_offset);
	EXPECT_TRUE(c.mmap_offset >= b.mmap_offset + len ||
		    c.mmap_offset + len <= b.mmap_offset);
	pc = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		  c.mmap_offset);
	ASSERT_NE(MAP_FAILED, pc);
	EXPECT_EQ(0, pc[0]);	/* C's own zeroed page, not A's */
	pc[len - 1] = 3;
	EXPECT_EQ(0, munmap(pc, len));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	/* A create/destroy loop never climbs past where it started. */
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
				    DXGPMO_CACHE_CACHED, 64ULL << 20, 0, &c));
		ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
		if (i == 0)
			a.mmap_offset = c.mmap_offset;
		ASSERT_LE(c.mmap_offset, a.mmap_offset) {
			TH_LOG("cycle %u", i);
		}
	}
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, b.pmo_id, 0));
}

/* A fork child that holds its copies of our mappings until released. */
static pid_t fork_holder(int *release)
{
	int pipefd[2];
	char byte;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (!pid) {
		close(pipefd[1]);
		_exit(read(pipefd[0], &byte, 1) == 1 ? 0 : 1);
	}
	close(pipefd[0]);
	*release = pipefd[1];
	return pid;
}

/* Let the holder go: 0 when it exited as it should. */
static int release_holder(pid_t pid, int release)
{
	int status = -1;

	if (write(release, "x", 1) != 1)
		kill(pid, SIGKILL);
	close(release);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/*
 * Whether a new object of len bytes gets a window clear of
 * [off, off + len), which something still holds: 1, 0, or -1 when it
 * could not be made.  The object goes again.
 */
static int window_clear_of(int fd, uint64_t off, uint64_t len)
{
	struct dxgpmo_create_pmo c;
	int clear;

	if (create(fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED, len, 0, &c))
		return -1;
	clear = c.mmap_offset >= off + len || c.mmap_offset + len <= off;
	return dxgpmo_destroy_pmo(fd, c.pmo_id, 0) ? -1 : clear;
}

/*
 * What is left of a view keeps the window's offsets taken: the half a
 * partial munmap left, and a fork child's copy.
 */
TEST_F(map, window_offsets_held_by_split_and_forked_views)
{
	const uint64_t len = 8 * PAGE;
	struct dxgpmo_create_pmo a, c;
	uint8_t *view;
	int release;
	pid_t pid;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    len, 0, &a));
	view = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		    a.mmap_offset);
	ASSERT_NE(MAP_FAILED, view);
	pid = fork_holder(&release);
	ASSERT_LE(0, pid);
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, a.pmo_id, 0));
	EXPECT_EQ(0, munmap(view, len / 2));
	EXPECT_EQ(1, window_clear_of(self->fd, a.mmap_offset, len));
	EXPECT_EQ(0, munmap(view + len / 2, len / 2));
	/* Only the child's copy is left. */
	EXPECT_EQ(1, window_clear_of(self->fd, a.mmap_offset, len));
	EXPECT_EQ(0, release_holder(pid, release));
	/* Now nothing holds it: the same size may land there again. */
	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    len, 0, &c));
	EXPECT_LE(c.mmap_offset, a.mmap_offset);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * Windows of many sizes made and destroyed in a random order, some
 * destroyed while a view still maps them (their offsets come back only at
 * munmap): every live window stays disjoint from the others, and each
 * object's pages are its own (a tag written through every view is read
 * back through every view).
 */
TEST_F_TIMEOUT(map, window_offsets_random_churn, 120)
{
	enum { SLOTS = 96, ROUNDS = 1500 };
	struct dxgpmo_create_pmo c[SLOTS] = {};
	uint8_t *views[SLOTS] = {}, *kept[SLOTS] = {};
	uint64_t kept_len[SLOTS] = {}, kept_off[SLOTS] = {};
	unsigned int i, j, round;
	uint64_t len_i, len_j;

	srand(7);
	for (round = 0; round < ROUNDS; round++) {
		i = rand() % SLOTS;
		if (kept[i] && rand() % 2) {
			EXPECT_EQ(0, munmap(kept[i], kept_len[i]));
			kept[i] = NULL;
		}
		if (c[i].pmo_id) {
			if (!kept[i] && rand() % 4 == 0) {
				kept_len[i] = c[i].length;
				kept_off[i] = c[i].mmap_offset;
				kept[i] = mmap(NULL, kept_len[i], PROT_READ,
					       MAP_SHARED, self->fd,
					       c[i].mmap_offset);
				ASSERT_NE(MAP_FAILED, kept[i]);
			}
			ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c[i].pmo_id,
							0));
			c[i].pmo_id = 0;
			continue;
		}
		ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
				    DXGPMO_CACHE_CACHED,
				    (1 + rand() % 300) * PAGE, 0, &c[i]));
	}
	for (i = 0; i < SLOTS; i++) {
		if (!c[i].pmo_id)
			continue;
		len_i = c[i].length;
		for (j = i + 1; j < SLOTS; j++) {
			if (!c[j].pmo_id)
				continue;
			len_j = c[j].length;
			ASSERT_TRUE(c[i].mmap_offset + len_i <= c[j].mmap_offset ||
				    c[j].mmap_offset + len_j <= c[i].mmap_offset);
		}
		/* Nor with what views of destroyed objects still hold. */
		for (j = 0; j < SLOTS; j++) {
			if (!kept[j])
				continue;
			ASSERT_TRUE(c[i].mmap_offset + len_i <= kept_off[j] ||
				    kept_off[j] + kept_len[j] <= c[i].mmap_offset);
		}
		views[i] = mmap(NULL, len_i, PROT_READ | PROT_WRITE,
				MAP_SHARED, self->fd, c[i].mmap_offset);
		ASSERT_NE(MAP_FAILED, views[i]);
		EXPECT_EQ(0, views[i][len_i - 1]);
		views[i][0] = (uint8_t)(i + 1);
		views[i][len_i - 1] = (uint8_t)(i + 1);
	}
	for (i = 0; i < SLOTS; i++) {
		if (!views[i])
			continue;
		len_i = c[i].length;
		EXPECT_EQ((uint8_t)(i + 1), views[i][0]);
		EXPECT_EQ((uint8_t)(i + 1), views[i][len_i - 1]);
		EXPECT_EQ(0, munmap(views[i], len_i));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c[i].pmo_id, 0));
	}
	for (i = 0; i < SLOTS; i++)
		if (kept[i])
			EXPECT_EQ(0, munmap(kept[i], kept_len[i]));
}

/*
 * A view that UNMAP detached keeps its address range and its offsets but
 * no window: it maps nothing (SIGBUS), and no later window is given its
 * offsets until it is unmapped.  Every view, detached or not, is linked
 * into the one address_space all windows share, and every DESTROY zaps
 * its window's range there: were a detached view's offsets handed out
 * again, each DESTROY of an object at them, by any process, would walk
 * every such view a process left behind.
 */
TEST_F(map, detached_view_keeps_its_offsets_until_unmapped)
{
	const uint64_t len = 4 * PAGE;
	struct dxgpmo_create_pmo a, b, c;
	void *dest, *moved;
	int status, release;
	struct dxgpmo_map u;
	uint8_t *pb;
	pid_t pid;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    len, 0, &a));
	ASSERT_EQ(0, map(self->fd, a.pmo_id, DXGPMO_ACCESS_USER, 0, len, &u));
	((volatile uint8_t *)(uintptr_t)u.address)[0] = 0x11;
	ASSERT_EQ(0, dxgpmo_unmap(self->fd, a.pmo_id, u.address, u.length));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, a.pmo_id, 0));
	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    len, 0, &b));
	EXPECT_TRUE(b.mmap_offset >= a.mmap_offset + len ||
		    b.mmap_offset + len <= a.mmap_offset) {
		TH_LOG("a new window at 0x%llx, inside the detached view's 0x%llx",
		       (unsigned long long)b.mmap_offset,
		       (unsigned long long)a.mmap_offset);
	}
	pb = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		  b.mmap_offset);
	ASSERT_NE(MAP_FAILED, pb);
	pb[0] = 0x22;
	/* The detached view and a fork's copy of it map nothing. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		(void)((volatile uint8_t *)(uintptr_t)u.address)[0];
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGBUS, WTERMSIG(status));
	/*
	 * A fork's copy holds them while the parent unmaps half of its own
	 * and moves the other half (mremap copies the VMA) and unmaps that.
	 */
	pid = fork_holder(&release);
	ASSERT_LE(0, pid);
	EXPECT_EQ(0, munmap((void *)(uintptr_t)u.address, len / 2));
	dest = mmap(NULL, len / 2, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0);
	ASSERT_NE(MAP_FAILED, dest);
	moved = mremap((void *)(uintptr_t)(u.address + len / 2), len / 2,
		       len / 2, MREMAP_MAYMOVE | MREMAP_FIXED, dest);
	ASSERT_EQ(dest, moved);
	EXPECT_EQ(1, window_clear_of(self->fd, a.mmap_offset, len));
	EXPECT_EQ(0, munmap(moved, len / 2));
	/* Only the child's copy is left. */
	EXPECT_EQ(1, window_clear_of(self->fd, a.mmap_offset, len));
	EXPECT_EQ(0, release_holder(pid, release));
	EXPECT_EQ(0x22, ((volatile uint8_t *)pb)[0]);
	/*
	 * Now nothing holds them: the same size lands there again (the
	 * lowest free range is given first, and this test is alone on the
	 * device).
	 */
	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_MDL, DXGPMO_CACHE_CACHED,
			    len, 0, &c));
	EXPECT_LE(c.mmap_offset, a.mmap_offset);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, munmap(pb, len));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, b.pmo_id, 0));
}

/* A mapping keeps the file: close(fd) first, munmap later, nothing leaks. */
TEST_F(map, close_file_then_munmap)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_stats st;
	int fd2 = dxgpmo_open();
	uint8_t *p;

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, create(fd2, DXGPMO_PMO_TYPE_CONTIGUOUS,
			    DXGPMO_CACHE_WRITE_COMBINED, 4 * PAGE, 0, &c));
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd2,
		 c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, close(fd2));
	p[3 * PAGE] = 9;
	EXPECT_EQ(9, ((volatile uint8_t *)p)[3 * PAGE]);
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(1, st.global.pmos);
	EXPECT_EQ(0, munmap(p, 4 * PAGE));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, dxgpmo_counters_live(&st.global));
}

static sigjmp_buf segv_jmp;

static void on_segv(int sig)
{
	siglongjmp(segv_jmp, 1);
}

TEST_F_TIMEOUT(map, section_objects, 60)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_allocate_adl adl;
	struct dxgpmo_map u, k;
	uint8_t a[128], got[128];
	volatile uint8_t *p;

	/* cached or write-combined only, READONLY or READWRITE only */
	c = (struct dxgpmo_create_pmo){
		.type = DXGPMO_PMO_TYPE_SECTION, .length = PAGE,
		.cache_type = DXGPMO_CACHE_NON_CACHED,
		.page_protection = DXGPMO_PAGE_READWRITE,
	};
	EXPECT_EQ(-EINVAL, dxgpmo_create_pmo(self->fd, &c));
	c = (struct dxgpmo_create_pmo){
		.type = DXGPMO_PMO_TYPE_SECTION, .length = PAGE,
		.cache_type = DXGPMO_CACHE_CACHED, .page_protection = 0x40,
	};
	EXPECT_EQ(-EINVAL, dxgpmo_create_pmo(self->fd, &c));

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_WRITE_COMBINED, 3 * PAGE,
			    self->ad.edu ? self->ad.edu->adapter_id : 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0, 3 * PAGE,
			 &u));
	p = (volatile uint8_t *)(uintptr_t)u.address;
	EXPECT_EQ(0, p[2 * PAGE + 10]);		/* zeroed */
	fill(a, sizeof(a), 0x21);
	for (unsigned int i = 0; i < sizeof(a); i++)
		p[2 * PAGE + 10 + i] = a[i];
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL,
			 2 * PAGE + 10, sizeof(a), &k));
	ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, 0, k.offset, got,
				    sizeof(got)));
	EXPECT_EQ(0, memcmp(a, got, sizeof(a)));
	if (self->ad.edu) {
		/* The ADL pins the pages; the device sees the same bytes. */
		adl = (struct dxgpmo_allocate_adl){
			.amo_id = c.amo_id, .offset = 2 * PAGE, .length = PAGE,
		};
		ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
		ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd,
						self->ad.edu->adapter_id, 0,
						adl.base_page * PAGE + 10, got,
						sizeof(got)));
		EXPECT_EQ(0, memcmp(a, got, sizeof(got)));
		EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
		adl = (struct dxgpmo_allocate_adl){
			.amo_id = c.amo_id, .length = PAGE,
			.flags = DXGPMO_ADL_REQUIRE_CONTIGUOUS,
		};
		EXPECT_EQ(-EINVAL, dxgpmo_allocate_adl(self->fd, &adl));
	}
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));

	/* A read-only section: no writable view of any kind. */
	c = (struct dxgpmo_create_pmo){
		.type = DXGPMO_PMO_TYPE_SECTION, .length = PAGE,
		.cache_type = DXGPMO_CACHE_CACHED,
		.page_protection = DXGPMO_PAGE_READONLY,
	};
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd, c.mmap_offset));
	EXPECT_EQ(EACCES, errno);
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0, PAGE, &u));
	p = (volatile uint8_t *)(uintptr_t)u.address;
	EXPECT_EQ(0, p[0]);
	EXPECT_EQ(-1, mprotect((void *)(uintptr_t)u.address, PAGE,
			       PROT_READ | PROT_WRITE));
	signal(SIGSEGV, on_segv);
	if (!sigsetjmp(segv_jmp, 1)) {
		p[0] = 1;
		EXPECT_TRUE(0) {
			TH_LOG("wrote to a read-only section");
		}
	}
	signal(SIGSEGV, SIG_DFL);
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0, 1, &k));
	EXPECT_EQ(-EACCES, dxgpmo_kmap_rw(self->fd, k.map_id,
					  DXGPMO_KMAP_WRITE, 0, a, 1));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * SECTION pages are shmem pages: drop_caches drops the clean ones nobody
 * holds, so whatever wrote to a page must have left it dirty by the time
 * its last holder let go, or the write is lost.  A page still in a per-CPU
 * LRU batch is referenced by it and survives drop_caches by luck;
 * compaction drains the batches first.
 */
static void compact_and_drop_caches(struct __test_metadata *_metadata)
{
	int fd = open("/proc/sys/vm/compact_memory", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		EXPECT_EQ(1, write(fd, "1", 1));
		close(fd);
	}
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(fd, "3", 1));
	close(fd);
}

/* Bytes of an object through a fresh kernel view, gone again after. */
static int kread(int fd, uint32_t pmo, uint64_t offset, void *buf,
		 uint64_t len)
{
	struct dxgpmo_map k;
	int ret;

	ret = map(fd, pmo, DXGPMO_ACCESS_KERNEL, offset, len, &k);
	if (ret)
		return ret;
	ret = dxgpmo_kmap_rw(fd, k.map_id, 0, k.offset, buf, len);
	dxgpmo_unmap(fd, pmo, k.address, k.length);
	return ret;
}

/* The VmFlags line of the smaps entry of the VMA that starts at addr. */
static int vma_flags(const void *addr, char *flags, size_t len)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
			in = start == (uintptr_t)addr;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(flags, len, "%s", line + 8);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

static int has_vm_flag(const char *flags, const char *flag)
{
	char buf[512], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", flags);
	for (tok = strtok_r(buf, "\n ", &save); tok;
	     tok = strtok_r(NULL, "\n ", &save))
		if (!strcmp(tok, flag))
			return 1;
	return 0;
}

/*
 * Writes by every holder that does not go through a user PTE - the device
 * through an ADL, a kernel view, a dma-buf - survive the holder letting go
 * and drop_caches.
 */
TEST_F_TIMEOUT(map, section_writes_survive_drop_caches, 60)
{
	uint8_t a[256], b[256], d[256], got[256];
	struct dxgpmo_allocate_adl adl;
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map k;
	uint8_t *p;
	int dmabuf;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_CACHED, 4 * PAGE,
			    self->ad.edu ? self->ad.edu->adapter_id : 0, &c));

	/* A kernel view (MAP kernel + KMAP_RW). */
	fill(a, sizeof(a), 0x31);
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0, PAGE,
			 &k));
	ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, DXGPMO_KMAP_WRITE, 100,
				    a, sizeof(a)));
	ASSERT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));

	/* A dma-buf, through its own mmap; every reference dropped. */
	fill(b, sizeof(b), 0x52);
	ASSERT_EQ(0, export_rw(self->fd, c.pmo_id, &dmabuf));
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	ASSERT_NE(MAP_FAILED, p);
	memcpy(p + PAGE + 200, b, sizeof(b));
	EXPECT_EQ(0, munmap(p, 4 * PAGE));
	EXPECT_EQ(0, close(dmabuf));

	/* The device, through an ADL. */
	if (self->ad.edu) {
		fill(d, sizeof(d), 0x73);
		adl = (struct dxgpmo_allocate_adl){
			.amo_id = c.amo_id, .offset = 2 * PAGE, .length = PAGE,
		};
		ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
		ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, self->ad.edu->adapter_id,
						DXGPMO_DMA_TO_MEMORY,
						adl.base_page * PAGE + 300, d,
						sizeof(d)));
		ASSERT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	}

	compact_and_drop_caches(_metadata);
	ASSERT_EQ(0, kread(self->fd, c.pmo_id, 100, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(a, got, sizeof(a))) {
		TH_LOG("kernel-view write lost (read %02x %02x %02x)",
		       got[0], got[1], got[2]);
	}
	ASSERT_EQ(0, kread(self->fd, c.pmo_id, PAGE + 200, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(b, got, sizeof(b))) {
		TH_LOG("dma-buf write lost (read %02x %02x %02x)",
		       got[0], got[1], got[2]);
	}
	if (self->ad.edu) {
		ASSERT_EQ(0, kread(self->fd, c.pmo_id, 2 * PAGE + 300, got,
				   sizeof(got)));
		EXPECT_EQ(0, memcmp(d, got, sizeof(d))) {
			TH_LOG("device write lost (read %02x %02x %02x)",
			       got[0], got[1], got[2]);
		}
	}
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

/*
 * User views of a section are PFN maps (rmap cannot reach PTEs of a VMA
 * whose file is the device, so they must not look like page-cache
 * mappings): "pf" in smaps, the object's cache type in the PTE, and every
 * page they reach held by the object while some user view exists.
 */
TEST_F_TIMEOUT(map, section_user_views_are_pfn_maps, 60)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_test_cmd t;
	struct dxgpmo_map u;
	char flags[512];
	uint8_t *p, *q;
	int dmabuf;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_WRITE_COMBINED, 4 * PAGE, 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0, 4 * PAGE,
			 &u));
	p = (uint8_t *)(uintptr_t)u.address;
	p[0] = 1;
	p[2 * PAGE] = 2;
	ASSERT_EQ(0, vma_flags(p, flags, sizeof(flags)));
	EXPECT_TRUE(has_vm_flag(flags, "pf") && has_vm_flag(flags, "dd")) {
		TH_LOG("MAP view VmFlags:%s", flags);
	}
	EXPECT_EQ(2, debugfs_counter("section_view_pages"));
	if (!memtype(self->fd, DXGPMO_TEST_MEMTYPE_OF_USER_VA, 0, u.address,
		     0, &t)) {
		EXPECT_EQ(ram_view_memtype(DXGPMO_CACHE_WRITE_COMBINED,
					   t.pat_enabled), t.memtype) {
			TH_LOG("user PTE bits 0x%llx",
			       (unsigned long long)t.pte_bits);
		}
	}

	/* A dma-buf's mmap is a user view of the same pages. */
	ASSERT_EQ(0, export_rw(self->fd, c.pmo_id, &dmabuf));
	q = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	ASSERT_NE(MAP_FAILED, q);
	EXPECT_EQ(2, q[2 * PAGE]);
	q[3 * PAGE] = 3;
	ASSERT_EQ(0, vma_flags(q, flags, sizeof(flags)));
	EXPECT_TRUE(has_vm_flag(flags, "pf")) {
		TH_LOG("dma-buf view VmFlags:%s", flags);
	}
	EXPECT_EQ(3, debugfs_counter("section_view_pages"));
	EXPECT_EQ(0, close(dmabuf));

	/* UNMAP detaches the MAP view; the dma-buf's still holds them. */
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(3, debugfs_counter("section_view_pages"));
	EXPECT_EQ(0, munmap(q, 4 * PAGE));
	EXPECT_EQ(0, debugfs_counter("section_view_pages"));
	EXPECT_EQ(0, munmap(p, 4 * PAGE));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * What user views wrote outlives them: through fork (the child's copy of
 * the view keeps the pages after the parent's is gone), mremap (moved, not
 * grown), DESTROY (revoked, still mapped), and drop_caches at every step.
 */
TEST_F_TIMEOUT(map, section_user_view_writes_survive, 60)
{
	uint8_t a[128], b[128], e[128], got[128];
	struct dxgpmo_create_pmo c;
	uint8_t *p, *moved;
	int status;
	pid_t pid;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_CACHED, 4 * PAGE, 0, &c));
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	fill(a, sizeof(a), 0x44);
	memcpy(p + 10, a, sizeof(a));
	compact_and_drop_caches(_metadata);
	EXPECT_EQ(0, memcmp(a, p + 10, sizeof(a)));

	/* The child writes after the parent's view is gone. */
	fill(b, sizeof(b), 0x66);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		usleep(200000);
		memcpy(p + PAGE + 20, b, sizeof(b));
		_exit(memcmp(a, p + 10, sizeof(a)) ? 1 : 0);
	}
	EXPECT_EQ(0, munmap(p, 4 * PAGE));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, debugfs_counter("section_view_pages"));
	compact_and_drop_caches(_metadata);
	ASSERT_EQ(0, kread(self->fd, c.pmo_id, 10, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(a, got, sizeof(a)));
	ASSERT_EQ(0, kread(self->fd, c.pmo_id, PAGE + 20, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(b, got, sizeof(b))) {
		TH_LOG("the child's write was lost");
	}

	/* mremap moves a view but never grows it. */
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 c.mmap_offset + 2 * PAGE);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(MAP_FAILED, mremap(p, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE));
	/*
	 * MREMAP_FIXED replaces whatever lives at the target: move into a
	 * range reserved for it, never onto a guess next to the view.
	 */
	moved = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	ASSERT_NE(MAP_FAILED, moved);
	moved = mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
		       moved);
	ASSERT_NE(MAP_FAILED, moved);
	fill(e, sizeof(e), 0x88);
	memcpy(moved + PAGE + 30, e, sizeof(e));
	EXPECT_EQ(0, munmap(moved, 2 * PAGE));
	EXPECT_EQ(0, debugfs_counter("section_view_pages"));
	compact_and_drop_caches(_metadata);
	ASSERT_EQ(0, kread(self->fd, c.pmo_id, 3 * PAGE + 30, got,
			   sizeof(got)));
	EXPECT_EQ(0, memcmp(e, got, sizeof(e))) {
		TH_LOG("the write through the moved view was lost");
	}

	/* DESTROY revokes a view; its pages go when the VMA does. */
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	p[PAGE] = 1;
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, munmap(p, 4 * PAGE));
	EXPECT_EQ(0, debugfs_counter("section_view_pages"));
}

/* A counter of /proc/vmstat, or -1. */
static long vmstat_counter(const char *name)
{
	return keyed_counter("/proc/vmstat", name);
}

#define ZRAM "/sys/block/zram0"
#define SWAP_CGROUP CGROUP_ROOT "/dxgpmo-swap-test"

/* Swap on zram0; 0, or why not. */
static const char *swap_on(void)
{
	if (access(ZRAM, F_OK))
		return "no zram device to swap to (zram is not loaded)";
	if (write_file(ZRAM "/disksize", "256M"))
		return "zram0 cannot be sized";
	if (system("mkswap /dev/zram0 > /dev/null 2>&1") ||
	    system("swapon /dev/zram0 2>/dev/null"))
		return "swap on zram0 cannot be turned on";
	return NULL;
}

static void swap_off(void)
{
	if (system("swapoff /dev/zram0 2>/dev/null"))
		return;
	write_file(ZRAM "/reset", "1");
}

/* Reclaim in the test cgroup: what memory.reclaim gets, never an error. */
static void cgroup_reclaim(uint64_t bytes)
{
	char val[32];

	snprintf(val, sizeof(val), "%llu", (unsigned long long)bytes);
	write_file(SWAP_CGROUP "/memory.reclaim", val);
}

/*
 * Swap on zram and a memory cgroup of the test's own, undone however the
 * test ends.
 */
FIXTURE(swap) {
	int fd;
	bool swap_on, in_memcg;
};

FIXTURE_SETUP(swap)
{
	const char *why;
	int ret;

	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	/* A skip here is never followed by the teardown: undo first. */
	why = swap_on();
	if (why) {
		swap_off();
		SKIP(return, "%s", why);
	}
	self->swap_on = true;
	ret = join_memcg(SWAP_CGROUP, "max");
	self->in_memcg = !ret;
	if (ret) {
		leave_memcg(SWAP_CGROUP);
		swap_off();
		SKIP(return, "no memory cgroup (%s)", strerror(-ret));
	}
}

FIXTURE_TEARDOWN(swap)
{
	if (self->in_memcg)
		leave_memcg(SWAP_CGROUP);
	if (self->swap_on)
		swap_off();
	teardown_dxgpmo(self->fd);
}

/*
 * Held section pages stay out of swap: while a kernel view holds them,
 * reclaiming the cgroup they are charged to writes (almost) none of them
 * out, as they could not be freed anyway; once let go, the same reclaim
 * swaps them, which shows the measurement can see it, and they read back
 * intact.  The kernel does this (pageout() keeps a page cache page with
 * references beyond the cache's); the documentation says so, and this is
 * what tells when a kernel stops doing it.
 */
TEST_F_TIMEOUT(swap, section_held_pages_stay_out_of_swap, 120)
{
	const uint64_t len = 64ULL << 20, pages = len / PAGE;
	struct dxgpmo_create_pmo c;
	long before, held_out, unheld_out;
	uint8_t got[64], want[64];
	struct dxgpmo_map k;
	uint8_t *p;

	ASSERT_EQ(0, create(self->fd, DXGPMO_PMO_TYPE_SECTION,
			    DXGPMO_CACHE_CACHED, len, 0, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0, len, &k));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0x5a, len);
	/* Dirty from here on, and held by the kernel view only. */
	EXPECT_EQ(0, munmap(p, len));

	before = vmstat_counter("pswpout");
	ASSERT_LE(0, before);
	cgroup_reclaim(len);
	held_out = vmstat_counter("pswpout") - before;
	TH_LOG("reclaim of %llu held dirty pages swapped %ld",
	       (unsigned long long)pages, held_out);
	EXPECT_GT(pages / 16, held_out);

	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));
	before = vmstat_counter("pswpout");
	cgroup_reclaim(len);
	unheld_out = vmstat_counter("pswpout") - before;
	TH_LOG("once let go, %ld", unheld_out);
	EXPECT_LE(pages / 2, unheld_out);
	memset(want, 0x5a, sizeof(want));
	ASSERT_EQ(0, kread(self->fd, c.pmo_id, len - sizeof(got), got,
			   sizeof(got)));
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

TEST_F(map, io_space_objects)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_allocate_adl adl;
	struct dxgpmo_test_cmd t;
	struct dxgpmo_map m;
	uint32_t val;
	uint64_t bar;
	uint8_t *p;

	if (!self->ad.edu)
		SKIP(return, "needs an edu adapter (its BAR0)");
	bar = edu_bar0(self->ad.edu);
	ASSERT_NE(0, bar);

#define IO(_base, _len, _cache) ((struct dxgpmo_create_pmo){ \
	.type = DXGPMO_PMO_TYPE_IO_SPACE, .io_base = (_base), \
	.length = (_len), .cache_type = (_cache) })
	/* Only inside a BAR of a dxgpmo adapter, page aligned, never WB. */
	c = IO(1 << 20, PAGE, DXGPMO_CACHE_NON_CACHED);
	EXPECT_EQ(-EPERM, dxgpmo_create_pmo(self->fd, &c));
	c = IO(bar + (1 << 20) - PAGE, 2 * PAGE, DXGPMO_CACHE_NON_CACHED);
	EXPECT_EQ(-EPERM, dxgpmo_create_pmo(self->fd, &c));
	c = IO(bar + 4, PAGE, DXGPMO_CACHE_NON_CACHED);
	EXPECT_EQ(-EINVAL, dxgpmo_create_pmo(self->fd, &c));
	c = IO(bar, PAGE, DXGPMO_CACHE_CACHED);
	EXPECT_EQ(-EINVAL, dxgpmo_create_pmo(self->fd, &c));

	c = IO(bar, PAGE, DXGPMO_CACHE_NON_CACHED);
	c.adapter_id = self->ad.edu->adapter_id;
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	/* Kernel mode only. */
	EXPECT_EQ(-EINVAL, map(self->fd, c.pmo_id, DXGPMO_ACCESS_USER, 0, 4,
			       &m));
	m = (struct dxgpmo_map){
		.pmo_id = c.pmo_id, .access_mode = DXGPMO_ACCESS_USER,
		.flags = DXGPMO_MAP_IN_PROCESS, .length = 4,
	};
	EXPECT_EQ(-EINVAL, dxgpmo_map(self->fd, &m));
	/* A kernel-mode view in this process: the registers, read-only. */
	m = (struct dxgpmo_map){
		.pmo_id = c.pmo_id, .access_mode = DXGPMO_ACCESS_KERNEL,
		.flags = DXGPMO_MAP_IN_PROCESS, .length = 8,
	};
	ASSERT_EQ(0, dxgpmo_map(self->fd, &m));
	EXPECT_EQ(0x010000ed, *(volatile uint32_t *)(uintptr_t)m.address);
	EXPECT_EQ(-1, mprotect((void *)(uintptr_t)m.address, PAGE,
			       PROT_READ | PROT_WRITE));
	EXPECT_EQ(-EINVAL, dxgpmo_kmap_rw(self->fd, m.map_id, 0, 0, &val, 4));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, m.address, m.length));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd, c.mmap_offset));
	EXPECT_EQ(EACCES, errno);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd, c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0x010000ed, *(volatile uint32_t *)p);
	EXPECT_EQ(0, munmap(p, PAGE));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0, 8, &m));
	ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, m.map_id, 0, 0, &val, 4));
	EXPECT_EQ(0x010000ed, val);
	/*
	 * The page holds the DMA engine the module drives: read-only, even
	 * for root (edu's liveness register would answer with the inverse).
	 */
	val = 0x12345678;
	EXPECT_EQ(-EACCES, dxgpmo_kmap_rw(self->fd, m.map_id, DXGPMO_KMAP_WRITE,
					  4, &val, 4));
	EXPECT_EQ(-EINVAL, dxgpmo_kmap_rw(self->fd, m.map_id, 0, 1, &val, 2));
	adl = (struct dxgpmo_allocate_adl){ .amo_id = c.amo_id, .length = PAGE };
	EXPECT_EQ(-EPERM, dxgpmo_allocate_adl(self->fd, &adl));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, m.address, m.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));

	/* The rest of the BAR is plain I/O space: written, and an ADL. */
	c = IO(bar + PAGE, PAGE, DXGPMO_CACHE_WRITE_COMBINED);
	c.adapter_id = self->ad.edu->adapter_id;
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, map(self->fd, c.pmo_id, DXGPMO_ACCESS_KERNEL, 0, 8, &m));
	EXPECT_EQ(0, dxgpmo_kmap_rw(self->fd, m.map_id, DXGPMO_KMAP_WRITE, 4,
				    &val, 4));
	/* Written through a view in this process, as registers are. */
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 c.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	*(volatile uint32_t *)(p + 8) = 0x5a5a5a5a;
	/*
	 * edu's BAR is not prefetchable: asked write-combined, both views
	 * are uncached (no speculative reads of registers).
	 */
	if (!memtype(self->fd, DXGPMO_TEST_MEMTYPE_OF_USER_VA, 0,
		     (uintptr_t)p, 0, &t)) {
		EXPECT_EQ(IO_VIEW_MEMTYPE, t.memtype);
		ASSERT_EQ(0, memtype(self->fd, DXGPMO_TEST_MEMTYPE_OF_KMAP,
				     m.map_id, 0, 0, &t));
		EXPECT_EQ(IO_VIEW_MEMTYPE, t.memtype);
	}
	EXPECT_EQ(0, munmap(p, PAGE));
	/* An ADL of I/O space is one contiguous run. */
	adl = (struct dxgpmo_allocate_adl){
		.amo_id = c.amo_id, .length = PAGE,
		.flags = DXGPMO_ADL_REQUIRE_CONTIGUOUS,
	};
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
	EXPECT_EQ(DXGPMO_ADL_CONTIGUOUS, adl.adl_flags);
	EXPECT_EQ(1, adl.page_count);
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, m.address, m.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

TEST_HARNESS_MAIN
