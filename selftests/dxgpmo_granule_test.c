// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for segments tracked in 2 MiB dirty pages (the module loaded
 * with dirty_page_size=2097152): a granule's bit comes from its first
 * write fault, a query re-arms the written granules in every process, and
 * no write is lost to a read, a fork, an munmap, an mprotect, a view at an
 * offset no PMD can map, or a concurrent read-and-clear.  Where the kernel
 * maps PFNs with PMDs (6.12 on), a granule is one PMD; before, the module
 * tracks 2 MiB pages by the PTEs' dirty bits, held to the same rules.
 * Segment contents are shared by all files and survive tests: no test
 * assumes what a segment holds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

#define GRANULE (2ULL << 20)

static int query(int fd, uint32_t id, uint32_t flags, uint8_t *bits)
{
	return dxgpmo_query_dirty_bits(fd, id, flags, 0, 0, 0, bits, 1);
}

/* The bits of a basis over granules [0, 8), read and cleared. */
static int take(int fd, uint32_t id)
{
	uint8_t bits = 0xff;
	int ret = query(fd, id, DXGPMO_DIRTY_CLEAR_DATA, &bits);

	return ret ? ret : bits;
}

/*
 * Whether the module tracks 2 MiB pages by write faults, mapping granules
 * with PMDs: where the kernel maps PFNs with PMDs (Debian's 6.12 and
 * later, with THP built in, whatever its sysfs setting).  Before, it
 * tracks them by the PTEs' dirty bits, with the same bits.
 */
static int kernel_maps_pfn_pmds(struct __test_metadata *_metadata)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;
	int matched;

	if (uname(&u))
		return -1;
	matched = sscanf(u.release, "%u.%u", &major, &minor);
	if (matched != 2)
		return -1;
	TH_LOG("kernel %s", u.release);
	return (major > 6 || (major == 6 && minor >= 12)) &&
	       !access("/sys/kernel/mm/transparent_hugepage", F_OK);
}

/*
 * 1 if the VmFlags of the VMA at addr in /proc/self/smaps have flag, 0 if
 * not, -1 if there is no such VMA.
 */
static int vma_flags_have(const void *addr, const char *flag)
{
	char line[512], want[32];
	FILE *f = fopen("/proc/self/smaps", "r");
	int found = -1, in = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), " %s", flag);
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) {
			in = (uintptr_t)addr >= start && (uintptr_t)addr < end;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			line[strcspn(line, "\n")] = ' ';
			found = !!strstr(line, want);
			break;
		}
	}
	fclose(f);
	return found;
}

FIXTURE(granule) {
	int fd;
	struct adapters ad;
	const struct dxgpmo_adapter_info *a;
	volatile uint8_t *cpu;
	uint32_t basis;		/* granules [0, 8), tracked */
};

FIXTURE_SETUP(granule)
{
	struct dxgpmo_memory_range r = { .length = 8 * GRANULE };
	void *p;

	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, load_adapters(self->fd, &self->ad));
	ASSERT_LT(0, self->ad.nr);
	self->a = &self->ad.all[self->ad.nr - 1];
	if (self->a->dirty_page_size != GRANULE)
		SKIP(return, "dirty pages of %u bytes: these tests need the module loaded with dirty_page_size=2097152",
		     self->a->dirty_page_size);
	ASSERT_LE(16 * GRANULE, self->a->segment_size);
	p = mmap(NULL, 16 * GRANULE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, self->a->segment_mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	self->cpu = p;
	ASSERT_EQ(0, dxgpmo_create_memory_basis(self->fd, self->a->adapter_id,
						1, &r, 1, &self->basis));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, self->basis));
	/* The writes of earlier tests are gone. */
	ASSERT_LE(0, take(self->fd, self->basis));
}

FIXTURE_TEARDOWN(granule)
{
	if (self->cpu)
		munmap((void *)self->cpu, 16 * GRANULE);
	teardown_dxgpmo(self->fd);
}

/* mmap() places a segment view 2 MiB aligned, as its offset is. */
TEST_F(granule, view_is_2mib_aligned)
{
	EXPECT_EQ(0, (uintptr_t)self->cpu % GRANULE);
}

/* The first write sets its granule's bit; a query re-arms it. */
TEST_F(granule, write_sets_its_granule)
{
	self->cpu[GRANULE + 12345] = 1;
	EXPECT_EQ(0x02, take(self->fd, self->basis));
	EXPECT_EQ(0x00, take(self->fd, self->basis));
	/* Re-armed: the next write faults again. */
	self->cpu[2 * GRANULE - 1] = 2;
	self->cpu[3 * GRANULE] = 3;
	EXPECT_EQ(0x0a, take(self->fd, self->basis));
	/* Without CLEAR_DATA the bits stay. */
	self->cpu[7 * GRANULE + 4096] = 4;
	{
		uint8_t bits = 0;

		ASSERT_EQ(0, query(self->fd, self->basis, 0, &bits));
		EXPECT_EQ(0x80, bits);
	}
	EXPECT_EQ(0x80, take(self->fd, self->basis));
}

/* A read maps a granule read-only: reads are not writes. */
TEST_F(granule, read_then_write)
{
	volatile uint8_t sum = 0;
	unsigned int i;

	for (i = 0; i < 8; i++)
		sum += self->cpu[i * GRANULE + 64];
	(void)sum;
	EXPECT_EQ(0x00, take(self->fd, self->basis));
	self->cpu[4 * GRANULE + 64] = 5;
	EXPECT_EQ(0x10, take(self->fd, self->basis));
}

/* Where the kernel can, a granule's fault maps it whole. */
TEST_F(granule, one_pmd_per_granule_where_the_kernel_can)
{
	long long before = debugfs_counter("segment_pmd_maps");
	int expect = kernel_maps_pfn_pmds(_metadata);

	ASSERT_LE(0, before);
	ASSERT_LE(0, expect);
	self->cpu[5 * GRANULE] = 6;
	EXPECT_EQ(0x20, take(self->fd, self->basis));
	self->cpu[5 * GRANULE + 8192] = 7;
	TH_LOG("%s: %lld PMD maps", expect ? "PMDs" : "PTEs",
	       debugfs_counter("segment_pmd_maps") - before);
	if (expect) {
		EXPECT_LT(before, debugfs_counter("segment_pmd_maps"));
	} else {
		EXPECT_EQ(before, debugfs_counter("segment_pmd_maps"));
	}
	EXPECT_EQ(0x20, take(self->fd, self->basis));
}

/* A write whose mapping is gone before the query is still reported. */
TEST_F(granule, write_then_munmap)
{
	volatile uint8_t *v = mmap(NULL, 4 * GRANULE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd,
				   self->a->segment_mmap_offset);

	ASSERT_NE(MAP_FAILED, v);
	v[2 * GRANULE + 7] = 8;
	ASSERT_EQ(0, munmap((void *)v, 4 * GRANULE));
	EXPECT_EQ(0x04, take(self->fd, self->basis));
}

/*
 * A child inherits the parent's writable granule; the parent's query
 * re-arms it in the child's address space too.  Where granules are
 * tracked by faults, the child has the view without its page tables (a
 * writable granule copied from a PMD read without its lock could escape a
 * collection).
 */
TEST_F(granule, fork_child_write_after_query)
{
	int wipe = kernel_maps_pfn_pmds(_metadata);
	int go[2], done[2], status;
	char c = 0;
	pid_t pid;

	ASSERT_LE(0, wipe);

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	/*
	 * MADV_KEEPONFORK clears VM_WIPEONFORK on any VMA, this view's too,
	 * without asking the driver: the child must still get no page tables.
	 */
	madvise((void *)self->cpu, 16 * GRANULE, MADV_KEEPONFORK);
	self->cpu[6 * GRANULE] = 9;	/* writable now */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* Nothing of the view is mapped here yet, if by faults. */
		if (vma_flags_have((void *)self->cpu, "wf") != wipe)
			_exit(2);
		/* The parent's write is reported already; now ours. */
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		self->cpu[6 * GRANULE + 100] = 10;
		if (write(done[1], &c, 1) != 1)
			_exit(1);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		self->cpu[6 * GRANULE + 200] = 11;
		_exit(0);
	}
	EXPECT_EQ(0x40, take(self->fd, self->basis));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(1, read(done[0], &c, 1));
	EXPECT_EQ(0x40, take(self->fd, self->basis));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0x40, take(self->fd, self->basis));
	EXPECT_EQ(0x00, take(self->fd, self->basis));
}

/*
 * A view at an offset no PMD can map (4 KiB into the segment) is tracked
 * by its PTEs, and so is the aligned view beside it.
 */
TEST_F(granule, unaligned_view)
{
	volatile uint8_t *v = mmap(NULL, 4 * GRANULE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd,
				   self->a->segment_mmap_offset + PAGE);

	ASSERT_NE(MAP_FAILED, v);
	v[GRANULE - PAGE] = 12;	/* segment offset GRANULE */
	EXPECT_EQ(0x02, take(self->fd, self->basis));
	EXPECT_EQ(12, self->cpu[GRANULE]);
	v[GRANULE - PAGE + 4096] = 13;
	self->cpu[3 * GRANULE] = 14;
	EXPECT_EQ(0x0a, take(self->fd, self->basis));
	EXPECT_EQ(13, self->cpu[GRANULE + 4096]);
	EXPECT_EQ(0, munmap((void *)v, 4 * GRANULE));
}

/* Made writable by mprotect(), a granule still faults on its first write. */
TEST_F(granule, mprotect_then_write)
{
	volatile uint8_t *v = mmap(NULL, 2 * GRANULE, PROT_READ, MAP_SHARED,
				   self->fd, self->a->segment_mmap_offset);
	volatile uint8_t sum;

	ASSERT_NE(MAP_FAILED, v);
	sum = v[GRANULE];
	(void)sum;
	ASSERT_EQ(0, mprotect((void *)v, 2 * GRANULE,
			      PROT_READ | PROT_WRITE));
	EXPECT_EQ(0x00, take(self->fd, self->basis));
	v[GRANULE + 1] = 15;
	EXPECT_EQ(0x02, take(self->fd, self->basis));
	/* Down and up again after a write: still re-armed by the query. */
	ASSERT_EQ(0, mprotect((void *)v, 2 * GRANULE, PROT_READ));
	ASSERT_EQ(0, mprotect((void *)v, 2 * GRANULE,
			      PROT_READ | PROT_WRITE));
	v[GRANULE + 2] = 16;
	EXPECT_EQ(0x02, take(self->fd, self->basis));
	EXPECT_EQ(0, munmap((void *)v, 2 * GRANULE));
}

/* The engine's writes set the bits of the granules they land in. */
TEST_F_TIMEOUT(granule, dma_sets_its_granule, 60)
{
	const struct dxgpmo_adapter_info *edu = self->ad.edu;
	struct dxgpmo_memory_range r = { .length = 8 * GRANULE };
	uint8_t data[16];
	uint32_t id;
	int ret;

	if (!edu)
		SKIP(return, "needs an adapter with a DMA engine");
	ASSERT_EQ(0, dxgpmo_create_memory_basis(self->fd, edu->adapter_id, 1,
						&r, 1, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	memset(data, 0x5a, sizeof(data));
	ret = dxgpmo_adapter_dma(self->fd, edu->adapter_id,
				 DXGPMO_DMA_TO_MEMORY,
				 edu->segment_device_address + 3 * GRANULE +
				 GRANULE - 8, data, sizeof(data));
	if (ret == -EOPNOTSUPP && !(edu->caps & DXGPMO_ADAPTER_CAP_IOMMU))
		SKIP(goto out, "segment pages out of the engine's reach without an IOMMU");
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0x18, take(self->fd, id));
out:
	EXPECT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
}

/*
 * A read-only view (a file opened O_RDONLY) reads what the writable view
 * wrote and hides none of its writes.
 */
TEST_F(granule, read_only_view)
{
	int fd = open(DXGPMO_DEV_PATH, O_RDONLY | O_CLOEXEC);
	volatile uint8_t *ro;

	ASSERT_LE(0, fd);
	ro = mmap(NULL, 4 * GRANULE, PROT_READ, MAP_SHARED, fd,
		  self->a->segment_mmap_offset);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(0x00, (ro[2 * GRANULE], take(self->fd, self->basis)));
	self->cpu[2 * GRANULE] = 17;
	EXPECT_EQ(17, ro[2 * GRANULE]);
	EXPECT_EQ(0x04, take(self->fd, self->basis));
	self->cpu[2 * GRANULE] = 18;
	EXPECT_EQ(0x04, take(self->fd, self->basis));
	EXPECT_EQ(0, munmap((void *)ro, 4 * GRANULE));
	close(fd);
}

/* Two tracked bases over the same granules each see the write. */
TEST_F(granule, overlapping_bases)
{
	struct dxgpmo_memory_range r = { .segment_offset = 2 * GRANULE,
					 .length = 2 * GRANULE };
	uint8_t bits = 0;
	uint32_t id;

	ASSERT_EQ(0, dxgpmo_create_memory_basis(self->fd, self->a->adapter_id,
						1, &r, 1, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, &bits));
	self->cpu[3 * GRANULE + 5] = 19;
	EXPECT_EQ(0x08, take(self->fd, self->basis));
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, &bits));
	EXPECT_EQ(0x02, bits);
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
}

/* Ranges are whole 2 MiB pages. */
TEST_F(granule, ranges_are_whole_granules)
{
	struct dxgpmo_memory_range r = { .segment_offset = PAGE,
					 .length = GRANULE };
	uint32_t id;

	EXPECT_EQ(-EINVAL, dxgpmo_create_memory_basis(self->fd,
						      self->a->adapter_id, 1,
						      &r, 1, &id));
	r.segment_offset = 0;
	r.length = GRANULE / 2;
	EXPECT_EQ(-EINVAL, dxgpmo_create_memory_basis(self->fd,
						      self->a->adapter_id, 1,
						      &r, 1, &id));
}

/*
 * Writers and a read-and-clear querier race, as in the 4 KiB test: each
 * granule's last write must be reported by a query that finished after
 * the write began.  The state is shared memory, so that forked writers
 * can use it too.
 */
#define RACE_ROUNDS 200

struct race {
	int fd;
	uint32_t id;
	volatile uint8_t *cpu;		/* a view of the segment */
	uint64_t view_offset;		/* its segment offset */
	volatile unsigned int round;	/* the writer's */
	volatile int done;
	volatile unsigned long finished;	/* queries completed */
	unsigned long last_write_after[8];
	unsigned long last_report[8];
	int written[8];
	unsigned long writes;
};

static struct race *race_new(int fd, uint32_t id, volatile uint8_t *cpu,
			     uint64_t view_offset)
{
	struct race *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (r == MAP_FAILED)
		return NULL;
	r->fd = fd;
	r->id = id;
	r->cpu = cpu;
	r->view_offset = view_offset;
	return r;
}

/* A page of granule g, never the first or the last. */
static uint64_t race_offset(unsigned int g, unsigned int round)
{
	return g * GRANULE + PAGE + (round * PAGE) % (GRANULE - 2 * PAGE);
}

static void race_write(struct race *r, unsigned int g, unsigned int round)
{
	r->last_write_after[g] = __atomic_load_n(&r->finished,
						 __ATOMIC_ACQUIRE);
	r->cpu[race_offset(g, round) - r->view_offset] = (uint8_t)round;
	r->written[g] = 1;
	r->writes++;
}

static void *race_writer(void *arg)
{
	struct race *r = arg;
	unsigned int round, g;

	for (round = 0; round < RACE_ROUNDS; round++) {
		r->round = round;
		for (g = round % 3; g < 8; g += 1 + round % 4)
			race_write(r, g, round);
		usleep(100);
	}
	r->done = 1;
	return NULL;
}

/*
 * Reads the pages the writer writes next: a read maps a page read-only
 * again, between a collection and the write's fault.
 */
static void *race_reader(void *arg)
{
	struct race *r = arg;
	volatile uint8_t sum = 0;
	unsigned int g;

	while (!r->done)
		for (g = 0; g < 8; g++)
			sum += r->cpu[race_offset(g, r->round + 1) -
				      r->view_offset];
	(void)sum;
	return NULL;
}

static int race_query(struct race *r)
{
	unsigned long k;
	unsigned int g;
	int bits = take(r->fd, r->id);

	if (bits < 0)
		return bits;
	k = __atomic_add_fetch(&r->finished, 1, __ATOMIC_RELEASE);
	for (g = 0; g < 8; g++)
		if (bits & (1 << g))
			r->last_report[g] = k;
	return 0;
}

static void *race_querier(void *arg)
{
	struct race *r = arg;

	while (!r->done)
		if (race_query(r))
			break;
	return NULL;
}

/* After the last write: every granule's last write was reported. */
static int race_check(struct __test_metadata *_metadata, struct race *r)
{
	unsigned int g;
	int lost = 0;

	if (race_query(r))
		return -1;
	TH_LOG("%lu writes, %lu queries", r->writes, r->finished);
	for (g = 0; g < 8; g++) {
		if (r->written[g] &&
		    r->last_write_after[g] >= r->last_report[g]) {
			TH_LOG("granule %u: last write after query %lu, last report by query %lu",
			       g, r->last_write_after[g], r->last_report[g]);
			lost++;
		}
	}
	return lost;
}

/* One writer on the PMD-mapped view. */
TEST_F(granule, no_write_lost_to_clear)
{
	struct race *r = race_new(self->fd, self->basis, self->cpu, 0);
	pthread_t writer;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, pthread_create(&writer, NULL, race_writer, r));
	while (!r->done)
		ASSERT_EQ(0, race_query(r));
	ASSERT_EQ(0, pthread_join(writer, NULL));
	EXPECT_EQ(0, race_check(_metadata, r));
	EXPECT_LT(2, r->finished);
	munmap(r, sizeof(*r));
}

/*
 * A writer and a reader on a view only PTEs can map (4 KiB into the
 * segment): a read maps a page read-only between a collection and the
 * first write's upgrade of the PTE.
 */
TEST_F(granule, no_write_lost_on_ptes_with_readers)
{
	volatile uint8_t *v = mmap(NULL, 8 * GRANULE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, self->fd,
				   self->a->segment_mmap_offset + PAGE);
	pthread_t writer, reader;
	struct race *r;

	ASSERT_NE(MAP_FAILED, v);
	r = race_new(self->fd, self->basis, v, PAGE);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, pthread_create(&reader, NULL, race_reader, r));
	ASSERT_EQ(0, pthread_create(&writer, NULL, race_writer, r));
	while (!r->done)
		ASSERT_EQ(0, race_query(r));
	ASSERT_EQ(0, pthread_join(writer, NULL));
	ASSERT_EQ(0, pthread_join(reader, NULL));
	EXPECT_EQ(0, race_check(_metadata, r));
	EXPECT_LT(2, r->finished);
	munmap(r, sizeof(*r));
	EXPECT_EQ(0, munmap((void *)v, 8 * GRANULE));
}

/*
 * Forked writers while a querier reads and clears: a child must not be
 * left a writable granule whose writes nobody reports.
 */
TEST_F_TIMEOUT(granule, no_write_lost_to_fork, 120)
{
	struct race *r = race_new(self->fd, self->basis, self->cpu, 0);
	unsigned int round;
	pthread_t querier;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, pthread_create(&querier, NULL, race_querier, r));
	for (round = 0; round < 100; round++) {
		unsigned int g = round % 8;
		int status;
		pid_t pid;

		self->cpu[g * GRANULE] = 1;	/* writable in the parent */
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			race_write(r, g, round);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_EQ(0, status);
	}
	r->done = 1;
	ASSERT_EQ(0, pthread_join(querier, NULL));
	EXPECT_EQ(0, race_check(_metadata, r));
	munmap(r, sizeof(*r));
}

TEST_HARNESS_MAIN
