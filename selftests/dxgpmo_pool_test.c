// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for the pool of write-combined and non-cached pages: a reused
 * page reads as zeros through the next object's mapping, a page never
 * changes cache type inside the pool, drop_caches and the size cap empty
 * it, and a memory cgroup's limit and charges hold with a warm pool.
 * Needs debug_ioctls=1 (the pool's counters); the cgroup test needs root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "dxgpmo_test.h"

#define MIB (1ULL << 20)
#define POOL_MAX_PARAM "/sys/module/dxgpmo/parameters/pool_max_mb"
#define CGROUP_TEST CGROUP_ROOT "/dxgpmo-pool-test"

static int pool_stats(int fd, struct dxgpmo_test_cmd *t)
{
	*t = (struct dxgpmo_test_cmd){
		.size = sizeof(*t), .op = DXGPMO_TEST_OP_POOL,
	};
	return dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, t);
}

static int create(int fd, uint32_t cache, uint64_t length,
		  struct dxgpmo_create_pmo *c)
{
	*c = (struct dxgpmo_create_pmo){
		.type = DXGPMO_PMO_TYPE_MDL, .cache_type = cache,
		.length = length,
	};
	return dxgpmo_create_pmo(fd, c);
}

/* The memory type of the linear-map alias of page index of PMO id. */
static uint32_t linear_memtype(int fd, uint32_t id, uint64_t index)
{
	struct dxgpmo_test_cmd t = {
		.size = sizeof(t), .op = DXGPMO_TEST_OP_MEMTYPE,
		.of = DXGPMO_TEST_MEMTYPE_OF_LINEAR, .id = id, .index = index,
	};

	if (dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, &t))
		return 0;
	if (!t.pat_enabled)
		return DXGPMO_TEST_MEMTYPE_OTHER;
	return t.memtype;
}

static uint32_t memtype_of_cache(uint32_t cache)
{
	return cache == DXGPMO_CACHE_WRITE_COMBINED ?
	       DXGPMO_TEST_MEMTYPE_WC : DXGPMO_TEST_MEMTYPE_UC_MINUS;
}

/* Create and destroy an object, so its pages go to the pool. */
static int warm(int fd, uint32_t cache, uint64_t length)
{
	struct dxgpmo_create_pmo c;
	int ret = create(fd, cache, length, &c);

	return ret ? ret : dxgpmo_destroy_pmo(fd, c.pmo_id, 0);
}

static long read_long(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

#define NO_POOL_REASON "no pool: the linear map stays write-back here (arm64), so switched pages save nothing"

/* An open file, or a reason to skip. */
static const char *pool_open(int *fd)
{
	struct dxgpmo_test_cmd t;

	*fd = dxgpmo_open();
	if (*fd < 0)
		return NULL;
	if (pool_stats(*fd, &t))
		return "needs debug_ioctls=1 and a module with the pool";
	if (read_long(POOL_MAX_PARAM) != -1)
		return "the pool is not at its default size";
	/* The module's cap at the default size is 0 only without a pool. */
	if (!pool_cap_pages())
		return NO_POOL_REASON;
	return NULL;
}

/* A fixture of one open file, skipped where the pool cannot be tested. */
#define FIXTURE_POOL(fixture_name)                                         \
	FIXTURE(fixture_name) {                                            \
		int fd;                                                    \
	};                                                                 \
	FIXTURE_SETUP(fixture_name)                                        \
	{                                                                  \
		const char *skip = pool_open(&self->fd);                   \
									   \
		ASSERT_LE(0, self->fd);                                    \
		if (skip)                                                  \
			SKIP(return, "%s", skip);                          \
	}                                                                  \
	FIXTURE_TEARDOWN(fixture_name)                                     \
	{                                                                  \
		teardown_dxgpmo(self->fd);                                 \
	}

FIXTURE_POOL(pool)

FIXTURE_VARIANT(pool) {
	uint32_t cache;
	uint64_t length;
};

/* 16 KiB: 4 KiB blocks; 256 KiB: 64 KiB blocks; 4 MiB: 2 MiB blocks */
FIXTURE_VARIANT_ADD(pool, wc_16k) {
	.cache = DXGPMO_CACHE_WRITE_COMBINED, .length = 16 << 10,
};

FIXTURE_VARIANT_ADD(pool, wc_256k) {
	.cache = DXGPMO_CACHE_WRITE_COMBINED, .length = 256 << 10,
};

FIXTURE_VARIANT_ADD(pool, wc_4m) {
	.cache = DXGPMO_CACHE_WRITE_COMBINED, .length = 4 << 20,
};

FIXTURE_VARIANT_ADD(pool, uc_256k) {
	.cache = DXGPMO_CACHE_NON_CACHED, .length = 256 << 10,
};

FIXTURE_VARIANT_ADD(pool, uc_4m) {
	.cache = DXGPMO_CACHE_NON_CACHED, .length = 4 << 20,
};

/*
 * Object A writes a pattern through its mapping and is destroyed; object B
 * of the same type and size comes from the pool (the counters say so), with
 * the pages A had (the pool is last in, first out), and reads zeros
 * through its own mapping: objects are zeroed, whoever had the page.
 */
TEST_F(pool, reused_pages_read_zero)
{
	uint64_t len = variant->length, i, nonzero = 0;
	struct dxgpmo_test_cmd before, after;
	struct dxgpmo_create_pmo a, b;
	unsigned char *p;

	ASSERT_EQ(0, create(self->fd, variant->cache, len, &a));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		 a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0xa5, len);
	ASSERT_EQ(0, munmap(p, len));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, a.pmo_id, 0));

	ASSERT_EQ(0, pool_stats(self->fd, &before));
	ASSERT_LE(len / PAGE, before.pool_pages);
	ASSERT_EQ(0, create(self->fd, variant->cache, len, &b));
	ASSERT_EQ(0, pool_stats(self->fd, &after));
	EXPECT_EQ(len / PAGE, after.pool_hit_pages - before.pool_hit_pages);
	EXPECT_EQ(before.pool_miss_pages, after.pool_miss_pages);
	EXPECT_EQ(memtype_of_cache(variant->cache),
		  linear_memtype(self->fd, b.pmo_id, 0));

	p = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, b.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < len; i++)
		nonzero += p[i] != 0;
	EXPECT_EQ(0, nonzero);
	ASSERT_EQ(0, munmap(p, len));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, b.pmo_id, 0));
}

/*
 * Pages of the other cache type sitting in the pool are never handed out:
 * after a warm pool of the other type, the object's linear map still has
 * its own type on every page.
 */
TEST_F(pool, cache_types_never_mix)
{
	uint32_t other = variant->cache == DXGPMO_CACHE_WRITE_COMBINED ?
			 DXGPMO_CACHE_NON_CACHED : DXGPMO_CACHE_WRITE_COMBINED;
	uint64_t len = variant->length, i;
	struct dxgpmo_create_pmo c;

	ASSERT_EQ(0, warm(self->fd, other, len));
	ASSERT_EQ(0, create(self->fd, variant->cache, len, &c));
	for (i = 0; i < len / PAGE; i++)
		ASSERT_EQ(memtype_of_cache(variant->cache),
			  linear_memtype(self->fd, c.pmo_id, i));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * The shrinker: drop_caches empties the pool, switching the pages back
 * and freeing them; the next object is a miss, zeroed and switched.
 */
TEST_F(pool, drop_caches_empties_it)
{
	uint64_t len = variant->length;
	struct dxgpmo_test_cmd warmed, dropped, next;
	struct dxgpmo_create_pmo c;

	ASSERT_EQ(0, warm(self->fd, variant->cache, len));
	ASSERT_EQ(0, pool_stats(self->fd, &warmed));
	ASSERT_LE(len / PAGE, warmed.pool_pages);
	ASSERT_EQ(0, write_file("/proc/sys/vm/drop_caches", "2"));
	ASSERT_EQ(0, pool_stats(self->fd, &dropped));
	EXPECT_EQ(0, dropped.pool_pages);
	EXPECT_LE(warmed.pool_pages,
		  dropped.pool_shrunk_pages - warmed.pool_shrunk_pages);

	ASSERT_EQ(0, create(self->fd, variant->cache, len, &c));
	ASSERT_EQ(0, pool_stats(self->fd, &next));
	EXPECT_EQ(len / PAGE, next.pool_miss_pages - dropped.pool_miss_pages);
	EXPECT_EQ(dropped.pool_hit_pages, next.pool_hit_pages);
	EXPECT_EQ(memtype_of_cache(variant->cache),
		  linear_memtype(self->fd, c.pmo_id, len / PAGE - 1));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * pool_max_mb bounds the pool: lowering it frees the excess at once, a
 * destroyed object keeps no more, and 0 turns the pool off (objects are
 * switched one by one as without it).
 */
TEST_F(pool, cap_bounds_it)
{
	uint64_t len = variant->length;
	struct dxgpmo_test_cmd t, u;
	struct dxgpmo_create_pmo c;

	ASSERT_EQ(0, warm(self->fd, variant->cache, 4 * MIB));
	ASSERT_EQ(0, write_file(POOL_MAX_PARAM, "1"));
	EXPECT_EQ(0, pool_stats(self->fd, &t));
	EXPECT_GE(MIB / PAGE, t.pool_pages);
	EXPECT_EQ(0, warm(self->fd, variant->cache, 4 * MIB));
	EXPECT_EQ(0, pool_stats(self->fd, &t));
	EXPECT_GE(MIB / PAGE, t.pool_pages);

	EXPECT_EQ(0, write_file(POOL_MAX_PARAM, "0"));
	EXPECT_EQ(0, pool_stats(self->fd, &t));
	EXPECT_EQ(0, t.pool_pages);
	EXPECT_EQ(0, create(self->fd, variant->cache, len, &c));
	EXPECT_EQ(0, pool_stats(self->fd, &u));
	EXPECT_EQ(t.pool_hit_pages, u.pool_hit_pages);
	EXPECT_EQ(t.pool_miss_pages, u.pool_miss_pages);
	EXPECT_EQ(memtype_of_cache(variant->cache),
		  linear_memtype(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, pool_stats(self->fd, &u));
	EXPECT_EQ(0, u.pool_pages);
	ASSERT_EQ(0, write_file(POOL_MAX_PARAM, "-1"));
}

/* Tests that need one cache type and size. */
FIXTURE_POOL(pool_once)

/*
 * A warm pool does not lift a memory cgroup's limit, and objects made in
 * a cgroup are charged to it while they live and uncharged when destroyed:
 * an object larger than memory.max still fails with ENOMEM although the
 * pool holds enough pages, a smaller one raises memory.current by its
 * size, and neither takes nor leaves pooled pages (which would carry no
 * charge, or a charge to a cgroup that no longer uses them).
 */
TEST_F(pool_once, memcg_limit_and_charge_hold)
{
	const uint32_t cache = DXGPMO_CACHE_WRITE_COMBINED;
	struct dxgpmo_test_cmd warmed, t;
	struct dxgpmo_create_pmo c;
	long base, charged, after;
	int ret;

	ASSERT_EQ(0, warm(self->fd, cache, 32 * MIB));
	ASSERT_EQ(0, pool_stats(self->fd, &warmed));
	ASSERT_LE(32 * MIB / PAGE, warmed.pool_pages);

	ret = join_memcg(CGROUP_TEST, "16M");
	if (ret) {
		leave_memcg(CGROUP_TEST);
		SKIP(return, "no memory cgroup (%s)", strerror(-ret));
	}
	EXPECT_EQ(-ENOMEM, create(self->fd, cache, 32 * MIB, &c));
	base = read_long(CGROUP_TEST "/memory.current");
	EXPECT_EQ(0, create(self->fd, cache, 4 * MIB, &c));
	charged = read_long(CGROUP_TEST "/memory.current");
	EXPECT_LE(base + (long)(4 * MIB), charged);
	EXPECT_EQ(memtype_of_cache(cache),
		  linear_memtype(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	after = read_long(CGROUP_TEST "/memory.current");
	EXPECT_GT(base + (long)MIB, after);
	EXPECT_EQ(0, pool_stats(self->fd, &t));
	EXPECT_EQ(warmed.pool_hit_pages, t.pool_hit_pages);
	EXPECT_EQ(warmed.pool_pages, t.pool_pages);
	leave_memcg(CGROUP_TEST);
	EXPECT_NE(0, access(CGROUP_TEST, F_OK));
}

/* Arms DXGPMO_TEST_OP_FAIL_ALIAS_SWITCH; what was left in *left. */
static int fail_alias_switch(int fd, uint64_t nth, uint64_t *left)
{
	return test_countdown(fd, DXGPMO_TEST_OP_FAIL_ALIAS_SWITCH, nth, left);
}

/*
 * A linear-map switch that fails half way leaves nothing switched: an
 * object whose second batch of pages reports failure after it was switched
 * (as a CPA step failing late leaves it) is not made, and every page it
 * had goes back to the page allocator write-back, so the cached objects
 * made next, from the same freed pages, have write-back aliases only.  In
 * a memory cgroup, where objects bypass the pool.
 */
TEST_F(pool_once, failed_switch_leaves_write_back)
{
	const uint64_t length = 8 * MIB, pages = length / PAGE;
	struct dxgpmo_create_pmo c;
	uint64_t left, i, not_wb;
	unsigned int round, nth;
	int ret;

	ASSERT_EQ(0, create(self->fd, DXGPMO_CACHE_CACHED, PAGE, &c));
	ret = linear_memtype(self->fd, c.pmo_id, 0) == DXGPMO_TEST_MEMTYPE_OTHER;
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	if (ret)
		SKIP(return, "PAT is off: no memory type to check");
	ret = join_memcg(CGROUP_TEST, "max");
	if (ret) {
		leave_memcg(CGROUP_TEST);
		SKIP(return, "no memory cgroup (%s)", strerror(-ret));
	}
	/* The first batch fails; then one after another was switched. */
	for (nth = 1; nth <= 2; nth++) {
		ASSERT_EQ(0, fail_alias_switch(self->fd, nth, NULL));
		EXPECT_EQ(-ENOMEM, create(self->fd,
					  DXGPMO_CACHE_WRITE_COMBINED, length,
					  &c));
		ASSERT_EQ(0, fail_alias_switch(self->fd, 0, &left));
		EXPECT_EQ(0, left) {
			TH_LOG("switch %u never came: one switch for %llu pages",
			       nth, (unsigned long long)pages);
		}
		not_wb = 0;
		for (round = 0; round < 4; round++) {
			ASSERT_EQ(0, create(self->fd, DXGPMO_CACHE_CACHED,
					    length, &c));
			for (i = 0; i < pages; i++)
				if (linear_memtype(self->fd, c.pmo_id, i) !=
				    DXGPMO_TEST_MEMTYPE_WB)
					not_wb++;
			ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
		}
		EXPECT_EQ(0, not_wb) {
			TH_LOG("switch %u failing: %llu pages of cached objects had a switched alias",
			       nth, (unsigned long long)not_wb);
		}
	}
	leave_memcg(CGROUP_TEST);
}

/*
 * A large create that misses the pool stays killable: its misses are
 * allocated and switched in bounded batches, with a fatal-signal check
 * between them.  The child is killed as soon as the first miss is counted
 * (counted when its batch is switched), so only a few batches may have
 * been allocated by then, not the whole object.
 */
TEST_F(pool_once, large_cold_create_is_killable)
{
	const uint64_t length = 512 * MIB;
	struct dxgpmo_test_cmd before, now;
	unsigned int polls;
	int status;
	pid_t pid;

	ASSERT_EQ(0, write_file("/proc/sys/vm/drop_caches", "2"));
	ASSERT_EQ(0, pool_stats(self->fd, &before));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct dxgpmo_create_pmo c;
		int fd = dxgpmo_open();

		if (fd < 0)
			_exit(1);
		create(fd, DXGPMO_CACHE_WRITE_COMBINED, length, &c);
		_exit(2);
	}
	for (polls = 0; polls < 300000; polls++) {
		ASSERT_EQ(0, pool_stats(self->fd, &now));
		if (now.pool_miss_pages != before.pool_miss_pages)
			break;
	}
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, pool_stats(self->fd, &now));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_GT(length / PAGE / 2, now.pool_miss_pages - before.pool_miss_pages) {
		TH_LOG("%llu of %llu pages allocated before the kill took",
		       (unsigned long long)(now.pool_miss_pages -
					    before.pool_miss_pages),
		       (unsigned long long)(length / PAGE));
	}
	ASSERT_EQ(0, write_file("/proc/sys/vm/drop_caches", "2"));
}

/*
 * Leaves 64 MiB in the pool for the unload check of the test run (the
 * memory comes back at rmmod).
 */
TEST_F(pool_once, holds_64_mib)
{
	struct dxgpmo_test_cmd t;

	ASSERT_EQ(0, warm(self->fd, DXGPMO_CACHE_WRITE_COMBINED, 64 * MIB));
	ASSERT_EQ(0, pool_stats(self->fd, &t));
	ASSERT_LE(64 * MIB / PAGE, t.pool_pages);
}

TEST_HARNESS_MAIN
