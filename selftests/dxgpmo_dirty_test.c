// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for adapter segments, memory bases and dirty-bit tracking, in
 * the style of iommufd's dirty tests: exact bit patterns for CPU and device
 * writes, bitmap shapes around byte and word boundaries, subranges, user
 * buffers at unaligned addresses, the START/STOP count, and no write lost
 * to a concurrent read-and-clear.  Segment contents are shared by all files
 * and survive tests, so no test assumes what a segment holds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

struct seg {
	const struct dxgpmo_adapter_info *a;
	volatile uint8_t *cpu;
	uint64_t size;
};

static int seg_map(int fd, const struct dxgpmo_adapter_info *a,
		   struct seg *s)
{
	void *p = mmap(NULL, a->segment_size, PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, a->segment_mmap_offset);

	/* -1 and errno, as mmap: a failure can never read as 0. */
	if (p == MAP_FAILED)
		return -1;
	s->a = a;
	s->cpu = p;
	s->size = a->segment_size;
	return 0;
}

static int basis_of(int fd, const struct dxgpmo_adapter_info *a,
		    uint64_t offset, uint64_t length, uint32_t *id)
{
	struct dxgpmo_memory_range r = {
		.segment_offset = offset, .length = length,
	};

	return dxgpmo_create_memory_basis(fd, a->adapter_id, 1, &r, 1, id);
}

static int query(int fd, uint32_t id, uint32_t flags, void *buf, size_t len)
{
	return dxgpmo_query_dirty_bits(fd, id, flags, 0, 0, 0, buf, len);
}

/* The basis's first eight bits, by a query with flags, are want. */
static void expect_first_bits(struct __test_metadata *_metadata, int fd,
			      uint32_t id, uint32_t flags, uint8_t want)
{
	uint8_t a[1];

	ASSERT_EQ(0, query(fd, id, flags, a, 1));
	EXPECT_EQ(want, a[0]);
}

static int bit(const uint8_t *buf, unsigned long i)
{
	return (buf[i / 8] >> (i % 8)) & 1;
}

FIXTURE(dirty) {
	int fd;
	struct adapters ad;
	const struct dxgpmo_adapter_info *cpu_adapter;	/* any */
	const struct dxgpmo_adapter_info *edu;		/* with an engine */
	struct seg seg;
};

FIXTURE_SETUP(dirty)
{
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, load_adapters(self->fd, &self->ad));
	ASSERT_LT(0, self->ad.nr);
	self->cpu_adapter = &self->ad.all[self->ad.nr - 1];
	self->edu = self->ad.edu;
	ASSERT_EQ(0, seg_map(self->fd, self->cpu_adapter, &self->seg));
}

FIXTURE_TEARDOWN(dirty)
{
	munmap((void *)self->seg.cpu, self->seg.size);
	teardown_dxgpmo(self->fd);
}

/* CPU writes to every other page: exact bits; NO_CLEAR keeps them. */
TEST_F(dirty, every_other_page_cpu)
{
	uint8_t a[8], b[8];
	uint32_t id;
	unsigned int i;

	ASSERT_EQ(0, basis_of(self->fd, self->cpu_adapter, 0, 64 * PAGE, &id));
	/* A query before START is refused. */
	EXPECT_EQ(-EINVAL, query(self->fd, id, 0, a, sizeof(a)));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	ASSERT_EQ(0, query(self->fd, id, 0, a, sizeof(a)));
	for (i = 0; i < sizeof(a); i++)
		EXPECT_EQ(0, a[i]);
	for (i = 0; i < 64; i += 2)
		self->seg.cpu[i * PAGE + 17] = i;
	/* Reads never mark pages. */
	for (i = 1; i < 64; i += 2)
		(void)self->seg.cpu[i * PAGE + 5];
	ASSERT_EQ(0, query(self->fd, id, 0, a, sizeof(a)));
	ASSERT_EQ(0, query(self->fd, id, 0, b, sizeof(b)));
	for (i = 0; i < sizeof(a); i++) {
		EXPECT_EQ(0x55, a[i]);
		EXPECT_EQ(0x55, b[i]);
	}
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, a,
			   sizeof(a)));
	for (i = 0; i < sizeof(a); i++)
		EXPECT_EQ(0x55, a[i]);
	ASSERT_EQ(0, query(self->fd, id, 0, a, sizeof(a)));
	for (i = 0; i < sizeof(a); i++)
		EXPECT_EQ(0, a[i]);
	/* Re-armed: the same pages are caught again. */
	self->seg.cpu[3 * PAGE] = 1;
	self->seg.cpu[4 * PAGE] = 1;
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, a,
			   sizeof(a)));
	EXPECT_EQ(0x18, a[0]);
	for (i = 1; i < sizeof(a); i++)
		EXPECT_EQ(0, a[i]);
	EXPECT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
}

/*
 * CPU writes are found in the PTEs' dirty bits at query time; writes whose
 * PTEs are gone by then (munmap, MADV_DONTNEED, the writer exited) must be
 * reported all the same, exactly once.
 */
TEST_F(dirty, writes_through_vanished_mappings)
{
	struct seg other = { 0 };
	uint8_t a[2];
	uint32_t id;
	pid_t pid;
	int status;

	ASSERT_EQ(0, basis_of(self->fd, self->cpu_adapter, 0, 16 * PAGE, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	/* Another mapping, written then unmapped: page 1. */
	ASSERT_EQ(0, seg_map(self->fd, self->cpu_adapter, &other));
	other.cpu[1 * PAGE] = 1;
	ASSERT_EQ(0, munmap((void *)other.cpu, other.size));
	/* Written then dropped with MADV_DONTNEED: page 3. */
	self->seg.cpu[3 * PAGE + 9] = 3;
	ASSERT_EQ(0, madvise((void *)(self->seg.cpu + 3 * PAGE), PAGE,
			     MADV_DONTNEED));
	/* A child that writes page 10 and exits. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		self->seg.cpu[10 * PAGE] = 10;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, a,
			   sizeof(a)));
	EXPECT_EQ(0x0a, a[0]);
	EXPECT_EQ(0x04, a[1]);
	/* Reported once: the next query reads zero. */
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, a,
			   sizeof(a)));
	EXPECT_EQ(0, a[0]);
	EXPECT_EQ(0, a[1]);
	EXPECT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
}

/* Device writes through the adapter's engine mark pages; reads do not. */
TEST_F_TIMEOUT(dirty, every_other_page_dma, 60)
{
	uint8_t bits[2], data[16], back[16];
	struct seg s = { 0 };
	uint32_t id;
	unsigned int i;

	if (!self->edu)
		SKIP(return, "needs an adapter with a DMA engine");
	ASSERT_EQ(0, seg_map(self->fd, self->edu, &s));
	ASSERT_EQ(0, basis_of(self->fd, self->edu, 32 * PAGE, 16 * PAGE, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	for (i = 0; i < 16; i += 2) {
		int ret;

		memset(data, 0xd0 + i, sizeof(data));
		ret = dxgpmo_adapter_dma(self->fd, self->edu->adapter_id,
					 DXGPMO_DMA_TO_MEMORY,
					 self->edu->segment_device_address +
					 (32 + i) * PAGE + 40, data,
					 sizeof(data));
		if (ret == -EOPNOTSUPP &&
		    !(self->edu->caps & DXGPMO_ADAPTER_CAP_IOMMU))
			SKIP(goto out, "segment pages out of the engine's reach without an IOMMU");
		ASSERT_EQ(0, ret);
	}
	ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, self->edu->adapter_id, 0,
					self->edu->segment_device_address +
					33 * PAGE, back, sizeof(back)));
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, bits,
			   sizeof(bits)));
	EXPECT_EQ(0x55, bits[0]);
	EXPECT_EQ(0x55, bits[1]);
	/* The CPU sees what the device wrote. */
	for (i = 0; i < 16; i += 2)
		EXPECT_EQ(0xd0 + i, s.cpu[(32 + i) * PAGE + 40 + 15]);
	/* Bad segment accesses. */
	EXPECT_EQ(-EINVAL, dxgpmo_adapter_dma(self->fd, self->edu->adapter_id,
					      0, self->edu->segment_device_address +
					      s.size - 8, back, 16));
	EXPECT_EQ(-EINVAL, dxgpmo_adapter_dma(self->fd, self->edu->adapter_id,
					      DXGPMO_DMA_RAW,
					      self->edu->segment_device_address,
					      back, 16));
out:
	EXPECT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
	munmap((void *)s.cpu, s.size);
}

/*
 * A device write is never lost to the call's end: a transfer into the
 * segment killed half way (the page is two engine chunks; SIGKILL lands
 * while they run) has written part of the page, and the page is dirty.
 */
TEST_F_TIMEOUT(dirty, killed_dma_marks_pages, 60)
{
	const uint64_t page = 50;
	uint8_t bits[1], data[PAGE];
	struct seg s = { 0 };
	unsigned int i, landed;
	int status;
	uint32_t id;
	pid_t pid;

	if (!self->edu)
		SKIP(return, "needs an adapter with a DMA engine");
	ASSERT_EQ(0, seg_map(self->fd, self->edu, &s));
	memset((void *)(s.cpu + page * PAGE), 0, PAGE);
	ASSERT_EQ(0, basis_of(self->fd, self->edu, page * PAGE, PAGE, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, bits,
			   sizeof(bits)));
	memset(data, 0x5a, sizeof(data));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(-dxgpmo_adapter_dma(self->fd, self->edu->adapter_id,
					  DXGPMO_DMA_TO_MEMORY,
					  self->edu->segment_device_address +
					  page * PAGE, data, sizeof(data)));
	/* Until the first bytes land, then kill: the rest is still coming. */
	for (i = 0; i < 10000 && s.cpu[page * PAGE] != 0x5a; i++)
		usleep(1000);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	for (landed = 0; landed < PAGE; landed++)
		if (s.cpu[page * PAGE + landed] != 0x5a)
			break;
	TH_LOG("%u bytes landed; the child %s", landed,
	       WIFSIGNALED(status) ? "was killed" : "finished first");
	if (!landed && WIFEXITED(status) &&
	    WEXITSTATUS(status) == EOPNOTSUPP &&
	    !(self->edu->caps & DXGPMO_ADAPTER_CAP_IOMMU))
		SKIP(goto out, "the segment page is out of the engine's reach without an IOMMU");
	ASSERT_LT(0, landed);
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, bits,
			   sizeof(bits)));
	EXPECT_EQ(1, bit(bits, 0));
out:
	EXPECT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
	munmap((void *)s.cpu, s.size);
}

struct seg_reader {
	int fd;
	uint32_t adapter_id;
	uint64_t device_address;
	int ret;
};

static void *seg_read_dma(void *arg)
{
	struct seg_reader *r = arg;
	uint8_t buf[64];

	r->ret = dxgpmo_adapter_dma(r->fd, r->adapter_id, 0, r->device_address,
				    buf, sizeof(buf));
	return NULL;
}

/*
 * The device reading 64 bytes of a segment page leaves the rest of the
 * page alone: a CPU write elsewhere in the page while the transfer runs
 * stays.  Without an IOMMU the page may be out of the engine's reach
 * (edu: 28 bits); then the call is refused with -EOPNOTSUPP before
 * anything is mapped - not bounced through swiotlb, whose buffer is out
 * of reach too (-ENOMEM and a warning) or whose whole-page copy-back
 * would revert the write.
 */
TEST_F_TIMEOUT(dirty, dma_keeps_concurrent_cpu_writes, 60)
{
	const uint64_t page = 52;
	struct seg_reader r = { .fd = self->fd };
	struct seg s = { 0 };
	pthread_t t;
	char bad[256];
	int kmsg;

	if (!self->edu)
		SKIP(return, "needs an adapter with a DMA engine");
	ASSERT_EQ(0, seg_map(self->fd, self->edu, &s));
	s.cpu[page * PAGE + 3000] = 0;
	kmsg = kmsg_open_new();
	r.adapter_id = self->edu->adapter_id;
	r.device_address = self->edu->segment_device_address + page * PAGE;
	ASSERT_EQ(0, pthread_create(&t, NULL, seg_read_dma, &r));
	/* The transfer takes 200 ms of the engine; write in the middle. */
	usleep(50000);
	s.cpu[page * PAGE + 3000] = 0xab;
	ASSERT_EQ(0, pthread_join(t, NULL));
	if (self->edu->caps & DXGPMO_ADAPTER_CAP_IOMMU) {
		EXPECT_EQ(0, r.ret);
	} else if (r.ret) {
		EXPECT_EQ(-EOPNOTSUPP, r.ret);
	}
	EXPECT_EQ(0xab, s.cpu[page * PAGE + 3000]);
	EXPECT_EQ(0, kmsg_find_bad(kmsg, bad, sizeof(bad))) {
		TH_LOG("kernel log: %s", bad);
	}
	close(kmsg);
	munmap((void *)s.cpu, s.size);
}

/*
 * A segment mapping cannot be pinned: writes through a long-term pin (an
 * io_uring fixed buffer, an RDMA region) go through the kernel's mapping
 * or the device and never set the PTE dirty bit tracking reads.
 */
TEST_F(dirty, segment_refuses_long_term_pins)
{
	struct io_uring_params p = { 0 };
	struct iovec iov = {
		.iov_base = (void *)self->seg.cpu, .iov_len = 4 * PAGE,
	};
	int ring, ret;

	ring = syscall(__NR_io_uring_setup, 4, &p);
	if (ring < 0)
		SKIP(return, "no io_uring to pin with: %s", strerror(errno));
	ret = syscall(__NR_io_uring_register, ring, IORING_REGISTER_BUFFERS,
		      &iov, 1);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EFAULT, errno);
	close(ring);
}

/* STARTs are counted: two STARTs need two STOPs. */
TEST_F(dirty, start_stop_counting)
{
	uint8_t a[1];
	uint32_t id;

	ASSERT_EQ(0, basis_of(self->fd, self->cpu_adapter, 0, 8 * PAGE, &id));
	EXPECT_EQ(-EINVAL, dxgpmo_stop_dirty_tracking(self->fd, id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	ASSERT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	self->seg.cpu[PAGE] = 1;
	expect_first_bits(_metadata, self->fd, id, DXGPMO_DIRTY_CLEAR_DATA,
			  0x02);
	ASSERT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	EXPECT_EQ(-EINVAL, query(self->fd, id, 0, a, 1));
	EXPECT_EQ(-EINVAL, dxgpmo_stop_dirty_tracking(self->fd, id));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
}

/* Writes before START and after STOP are not reported. */
TEST_F(dirty, writes_outside_tracking)
{
	uint32_t id;

	ASSERT_EQ(0, basis_of(self->fd, self->cpu_adapter, 8 * PAGE, 8 * PAGE,
			      &id));
	self->seg.cpu[9 * PAGE] = 1;	/* before START */
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	self->seg.cpu[10 * PAGE] = 1;
	expect_first_bits(_metadata, self->fd, id, 0, 0x04);
	ASSERT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	self->seg.cpu[11 * PAGE] = 1;	/* after STOP */
	self->seg.cpu[9 * PAGE] = 2;
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	expect_first_bits(_metadata, self->fd, id, 0, 0);
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
}

/*
 * A CLEAR query whose buffer cannot be written gets -EFAULT and loses
 * nothing: the next query still reports the write.
 */
TEST_F(dirty, clear_query_with_bad_buffer_keeps_bits)
{
	uint32_t id;

	ASSERT_EQ(0, basis_of(self->fd, self->cpu_adapter, 16 * PAGE, 8 * PAGE,
			      &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	self->seg.cpu[17 * PAGE] = 1;
	EXPECT_EQ(-EFAULT, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA,
				 (void *)8, 1));
	expect_first_bits(_metadata, self->fd, id, DXGPMO_DIRTY_CLEAR_DATA,
			  0x02);
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
}

/*
 * The segment maps read-only, shared, through a node opened read-only:
 * mmap(2) then clears VM_SHARED and keeps VM_MAYSHARE.
 */
TEST_F(dirty, read_only_shared_segment_mapping)
{
	int fd = open(DXGPMO_DEV_PATH, O_RDONLY | O_CLOEXEC);
	void *p;

	ASSERT_LE(0, fd);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd,
		 self->cpu_adapter->segment_mmap_offset);
	EXPECT_NE(MAP_FAILED, p) {
		TH_LOG("read-only shared segment mmap: %s", strerror(errno));
	}
	if (p != MAP_FAILED) {
		self->seg.cpu[0] = 0x5a;
		EXPECT_EQ(0x5a, ((volatile uint8_t *)p)[0]);
		munmap(p, PAGE);
	}
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd,
				   self->cpu_adapter->segment_mmap_offset));
	close(fd);
}

/*
 * A read-only mapping of the segment (any file's: the address_space is
 * shared) must not hide writes through other mappings from dirty
 * tracking.  The kernel's walk of a mapping stops at the first VMA it may
 * not clean; the read-only one is made first so that the walk meets it
 * first.
 */
TEST_F(dirty, read_only_mapping_hides_no_write)
{
	int fd = open(DXGPMO_DEV_PATH, O_RDONLY | O_CLOEXEC);
	uint8_t bits[8];
	uint32_t id;
	void *ro;

	ASSERT_LE(0, fd);
	munmap((void *)self->seg.cpu, self->seg.size);
	ro = mmap(NULL, self->seg.size, PROT_READ, MAP_SHARED, fd,
		  self->cpu_adapter->segment_mmap_offset);
	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_EQ(0, seg_map(self->fd, self->cpu_adapter, &self->seg));
	ASSERT_EQ(0, basis_of(self->fd, self->cpu_adapter, 0, 64 * PAGE, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, bits,
			   sizeof(bits)));
	/*
	 * The first write faults the page in, and the fault marks the page
	 * itself dirty; the second, after the query re-armed the PTEs, is
	 * seen only in a PTE.
	 */
	self->seg.cpu[3 * PAGE] = 7;
	EXPECT_EQ(7, ((volatile uint8_t *)ro)[3 * PAGE]);
	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, bits,
			   sizeof(bits)));
	EXPECT_EQ(1, bit(bits, 3));
	self->seg.cpu[3 * PAGE] = 8;
	ASSERT_EQ(0, query(self->fd, id, 0, bits, sizeof(bits)));
	EXPECT_EQ(1, bit(bits, 3));
	EXPECT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, id));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
	munmap(ro, self->seg.size);
	close(fd);
}

FIXTURE(dirty_shapes) {
	int fd;
	struct adapters ad;
	struct seg seg;
};

FIXTURE_VARIANT(dirty_shapes) {
	uint64_t pages;
};

FIXTURE_VARIANT_ADD(dirty_shapes, p1) { .pages = 1 };
FIXTURE_VARIANT_ADD(dirty_shapes, p7) { .pages = 7 };
FIXTURE_VARIANT_ADD(dirty_shapes, p8) { .pages = 8 };
FIXTURE_VARIANT_ADD(dirty_shapes, p9) { .pages = 9 };
FIXTURE_VARIANT_ADD(dirty_shapes, p31) { .pages = 31 };
FIXTURE_VARIANT_ADD(dirty_shapes, p32) { .pages = 32 };
FIXTURE_VARIANT_ADD(dirty_shapes, p33) { .pages = 33 };
FIXTURE_VARIANT_ADD(dirty_shapes, p63) { .pages = 63 };
FIXTURE_VARIANT_ADD(dirty_shapes, p64) { .pages = 64 };
FIXTURE_VARIANT_ADD(dirty_shapes, p65) { .pages = 65 };
FIXTURE_VARIANT_ADD(dirty_shapes, p4097) { .pages = 4097 };

FIXTURE_SETUP(dirty_shapes)
{
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, load_adapters(self->fd, &self->ad));
	ASSERT_EQ(0, seg_map(self->fd, &self->ad.all[self->ad.nr - 1],
			     &self->seg));
}

FIXTURE_TEARDOWN(dirty_shapes)
{
	munmap((void *)self->seg.cpu, self->seg.size);
	teardown_dxgpmo(self->fd);
}

/*
 * Exact-size user buffers at an unaligned address with guard bytes around:
 * the bits are right, unused trailing bits are zero, nothing is written
 * outside, and one byte short is refused without writing anything.
 */
TEST_F(dirty_shapes, bitmap_exact)
{
	uint64_t n = variant->pages, base = 3 * PAGE, i;
	size_t bytes = (n + 7) / 8;
	uint8_t *mem = malloc(bytes + 16), *buf = mem + 5;
	uint32_t id;

	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, basis_of(self->fd, self->seg.a, base, n * PAGE, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	for (i = 0; i < n; i += 3)
		self->seg.cpu[base + i * PAGE + 1] = (uint8_t)i;

	memset(mem, 0xaa, bytes + 16);
	EXPECT_EQ(-ENOSPC, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, buf,
				 bytes - 1));
	for (i = 0; i < bytes + 16; i++)
		ASSERT_EQ(0xaa, mem[i]);

	ASSERT_EQ(0, query(self->fd, id, DXGPMO_DIRTY_CLEAR_DATA, buf, bytes));
	for (i = 0; i < n; i++)
		ASSERT_EQ(i % 3 == 0, bit(buf, i)) {
			TH_LOG("page %llu", (unsigned long long)i);
		}
	for (i = n; i < bytes * 8; i++)
		EXPECT_EQ(0, bit(buf, i));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(0xaa, mem[i]);
	for (i = 5 + bytes; i < bytes + 16; i++)
		EXPECT_EQ(0xaa, mem[i]);
	/* Cleared: a second query reads zeros. */
	ASSERT_EQ(0, query(self->fd, id, 0, buf, bytes));
	for (i = 0; i < bytes; i++)
		EXPECT_EQ(0, buf[i]);
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
	free(mem);
}

/*
 * A buffer too small for the span: -ENOSPC, nothing written to it, no bit
 * cleared, and buffer_size comes back as the bytes the span needs, so a
 * caller can ask with an empty buffer first and then query for real.
 */
TEST_F(dirty_shapes, bitmap_too_small_says_size)
{
	uint64_t n = variant->pages, base = 3 * PAGE;
	size_t bytes = (n + 7) / 8;
	uint8_t *buf = malloc(bytes);
	struct dxgpmo_query_dirty_bits q;
	uint32_t id;
	size_t i;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, basis_of(self->fd, self->seg.a, base, n * PAGE, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	self->seg.cpu[base + (n - 1) * PAGE] = 1;

	/* No buffer at all: only the size. */
	q = (struct dxgpmo_query_dirty_bits){
		.size = sizeof(q), .flags = DXGPMO_DIRTY_CLEAR_DATA,
		.basis_id = id,
	};
	EXPECT_ERRNO(ENOSPC, ioctl(self->fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q));
	EXPECT_EQ(bytes, q.buffer_size);

	/* One byte short: the buffer is left alone. */
	memset(buf, 0xaa, bytes);
	q.buffer = (uintptr_t)buf;
	q.buffer_size = bytes - 1;
	EXPECT_ERRNO(ENOSPC, ioctl(self->fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q));
	EXPECT_EQ(bytes, q.buffer_size);
	for (i = 0; i < bytes; i++)
		EXPECT_EQ(0xaa, buf[i]);

	/* The size it said is enough, and the refused queries cleared nothing. */
	EXPECT_EQ(0, ioctl(self->fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q));
	EXPECT_EQ(bytes, q.buffer_size);
	EXPECT_EQ(1, bit(buf, n - 1));

	/* A subrange: the size of that span, not of the whole basis. */
	q.subrange_length = PAGE;
	q.buffer_size = 0;
	EXPECT_ERRNO(ENOSPC, ioctl(self->fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q));
	EXPECT_EQ(1, q.buffer_size);

	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
	free(buf);
}

/* Several ranges, in basis order, and subrange queries at offsets. */
TEST_F(dirty, multi_range_and_subranges)
{
	struct dxgpmo_memory_range r[3] = {
		{ .segment_offset = 100 * PAGE, .length = 3 * PAGE },
		{ .segment_offset = 10 * PAGE, .length = 9 * PAGE },
		{ .segment_offset = 50 * PAGE, .length = PAGE },
	};
	uint8_t b[2];
	uint32_t id;

	ASSERT_EQ(0, dxgpmo_create_memory_basis(self->fd,
						self->cpu_adapter->adapter_id,
						1, r, 3, &id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, id));
	self->seg.cpu[101 * PAGE] = 1;	/* range 0, page 1 -> bit 1 */
	self->seg.cpu[10 * PAGE] = 1;	/* range 1, page 0 -> bit 3 */
	self->seg.cpu[17 * PAGE] = 1;	/* range 1, page 7 -> bit 10 */
	self->seg.cpu[50 * PAGE] = 1;	/* range 2, page 0 -> bit 12 */
	self->seg.cpu[60 * PAGE] = 1;	/* in no range */
	ASSERT_EQ(0, query(self->fd, id, 0, b, 2));
	EXPECT_EQ(0x0a, b[0]);
	EXPECT_EQ(0x14, b[1]);
	/* Range 1 from its page 5 for 3 pages: pages 5, 6, 7 -> 0b100. */
	ASSERT_EQ(0, dxgpmo_query_dirty_bits(self->fd, id,
					     DXGPMO_DIRTY_CLEAR_DATA, 1,
					     5 * PAGE, 3 * PAGE, b, 1));
	EXPECT_EQ(0x04, b[0]);
	/* Only that subrange was cleared. */
	ASSERT_EQ(0, query(self->fd, id, 0, b, 2));
	EXPECT_EQ(0x0a, b[0]);
	EXPECT_EQ(0x10, b[1]);
	/* Bad subranges. */
	EXPECT_EQ(-EINVAL, dxgpmo_query_dirty_bits(self->fd, id, 0, 3, 0, PAGE,
						   b, 2));
	EXPECT_EQ(-EINVAL, dxgpmo_query_dirty_bits(self->fd, id, 0, 1, 100,
						   PAGE, b, 2));
	EXPECT_EQ(-EINVAL, dxgpmo_query_dirty_bits(self->fd, id, 0, 1,
						   8 * PAGE, 2 * PAGE, b, 2));
	EXPECT_EQ(-EINVAL, dxgpmo_query_dirty_bits(self->fd, id, 0, 1, 9 * PAGE,
						   PAGE, b, 2));
	EXPECT_EQ(-EINVAL, dxgpmo_query_dirty_bits(self->fd, id, 0, 1, 0, 0,
						   b, 2));
	EXPECT_EQ(-EINVAL, dxgpmo_query_dirty_bits(self->fd, id, 1U << 4, 0, 0,
						   0, b, 2));
	EXPECT_EQ(-EFAULT, query(self->fd, id, 0, NULL, 2));
	/* Destroying a tracked basis stops tracking first. */
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_memory_basis(self->fd, id));
}

/* Overlapping bases each see the writes in their ranges. */
TEST_F(dirty, overlapping_bases)
{
	int fd2 = dxgpmo_open();
	uint32_t a, b;
	uint8_t x[1], y[1];
	struct dxgpmo_stats st;

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, basis_of(self->fd, self->cpu_adapter, 200 * PAGE,
			      8 * PAGE, &a));
	ASSERT_EQ(0, basis_of(fd2, self->cpu_adapter, 204 * PAGE, 8 * PAGE,
			      &b));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, a));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(fd2, b));
	self->seg.cpu[205 * PAGE] = 1;	/* a: bit 5, b: bit 1 */
	self->seg.cpu[201 * PAGE] = 1;	/* a only: bit 1 */
	ASSERT_EQ(0, query(self->fd, a, DXGPMO_DIRTY_CLEAR_DATA, x, 1));
	EXPECT_EQ(0x22, x[0]);
	/* Clearing a did not clear b. */
	ASSERT_EQ(0, query(fd2, b, DXGPMO_DIRTY_CLEAR_DATA, y, 1));
	EXPECT_EQ(0x02, y[0]);
	/* Closing a file destroys its bases. */
	EXPECT_EQ(0, close(fd2));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(1, st.global.bases);
	EXPECT_LT(0, st.global.segment_pages);
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, a));
}

TEST_F(dirty, invalid_ranges_and_handles)
{
	uint64_t size = self->cpu_adapter->segment_size;
	uint32_t aid = self->cpu_adapter->adapter_id, id;
	struct dxgpmo_create_pmo c = { .length = PAGE };
	struct dxgpmo_memory_range r[2];
	uint8_t b[1];

#define R(_i, _o, _l) (r[_i] = (struct dxgpmo_memory_range){ \
	.segment_offset = (_o), .length = (_l) })
	R(0, 0, 2 * PAGE);
	R(1, PAGE, 2 * PAGE);
	EXPECT_EQ(-EEXIST, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 2,
						      &id));
	R(1, 2 * PAGE, PAGE);	/* adjacent is fine */
	ASSERT_EQ(0, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 2, &id));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id));
	R(0, size - PAGE, 2 * PAGE);
	EXPECT_EQ(-ERANGE, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 1,
						      &id));
	R(0, size, PAGE);
	EXPECT_EQ(-ERANGE, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 1,
						      &id));
	R(0, UINT64_MAX & ~(PAGE - 1), 2 * PAGE);
	EXPECT_EQ(-ERANGE, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 1,
						      &id));
	R(0, 100, PAGE);
	EXPECT_EQ(-EINVAL, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 1,
						      &id));
	R(0, 0, PAGE + 1);
	EXPECT_EQ(-EINVAL, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 1,
						      &id));
	R(0, 0, 0);
	EXPECT_EQ(-EINVAL, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 1,
						      &id));
	R(0, 0, PAGE);
	EXPECT_EQ(-EINVAL, dxgpmo_create_memory_basis(self->fd, aid, 1, r, 0,
						      &id));
	EXPECT_EQ(-EINVAL, dxgpmo_create_memory_basis(self->fd, aid, 2, r, 1,
						      &id));
	EXPECT_EQ(-EINVAL, dxgpmo_create_memory_basis(self->fd, aid, 0, r, 1,
						      &id));
	EXPECT_EQ(-ENOENT, dxgpmo_create_memory_basis(self->fd, 250, 1, r, 1,
						      &id));
	EXPECT_EQ(-E2BIG, dxgpmo_create_memory_basis(self->fd, aid, 1, r,
						     1 << 20, &id));
	EXPECT_EQ(-EFAULT, dxgpmo_create_memory_basis(self->fd, aid, 1, NULL,
						      1, &id));
#undef R
	/* Bad handles: never a crash, always ENOENT. */
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_memory_basis(self->fd, 0));
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_memory_basis(self->fd, 123456));
	EXPECT_EQ(-ENOENT, dxgpmo_start_dirty_tracking(self->fd, 123456));
	EXPECT_EQ(-ENOENT, dxgpmo_stop_dirty_tracking(self->fd, 123456));
	EXPECT_EQ(-ENOENT, query(self->fd, 123456, 0, b, 1));
	/* An id of another type is not a basis. */
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_memory_basis(self->fd, c.pmo_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * A writer and a read-and-clear querier race.  Every query that finished
 * before a write began cannot have seen it, so each page's last write must
 * be reported by a query that finished later: nothing is lost.
 */
#define RACE_PAGES 64
#define RACE_ROUNDS 40
/*
 * The writer goes on past RACE_ROUNDS until this many queries overlapped
 * its writes: under an emulator one query can outlast forty rounds, and a
 * race that never happened proves nothing.
 */
#define RACE_MIN_QUERIES 8
#define RACE_MAX_ROUNDS 100000

struct race {
	int fd;
	uint32_t id;
	volatile uint8_t *cpu;
	volatile int done;
	volatile unsigned long finished;	/* queries completed */
	unsigned long last_write_after[RACE_PAGES];
	unsigned long last_report[RACE_PAGES];
	int written[RACE_PAGES];
	unsigned long writes;
};

static void *race_writer(void *arg)
{
	struct race *r = arg;
	unsigned int round, p;

	for (round = 0; round < RACE_MAX_ROUNDS; round++) {
		if (round >= RACE_ROUNDS &&
		    __atomic_load_n(&r->finished, __ATOMIC_ACQUIRE) >=
		    RACE_MIN_QUERIES)
			break;
		for (p = round % 3; p < RACE_PAGES; p += 1 + round % 4) {
			r->last_write_after[p] =
				__atomic_load_n(&r->finished, __ATOMIC_ACQUIRE);
			r->cpu[p * PAGE + round % PAGE] = (uint8_t)round;
			r->written[p] = 1;
			r->writes++;
		}
		usleep(200);
	}
	r->done = 1;
	return NULL;
}

static int race_query(struct race *r)
{
	uint8_t b[RACE_PAGES / 8];
	unsigned long k;
	unsigned int p;
	int ret = query(r->fd, r->id, DXGPMO_DIRTY_CLEAR_DATA, b, sizeof(b));

	if (ret)
		return ret;
	k = __atomic_add_fetch(&r->finished, 1, __ATOMIC_RELEASE);
	for (p = 0; p < RACE_PAGES; p++)
		if (bit(b, p))
			r->last_report[p] = k;
	return 0;
}

TEST_F(dirty, no_write_lost_to_clear)
{
	struct race *r = calloc(1, sizeof(*r));
	pthread_t writer;
	unsigned int p;

	ASSERT_NE(NULL, r);
	r->fd = self->fd;
	r->cpu = self->seg.cpu + 512 * PAGE;
	ASSERT_EQ(0, basis_of(self->fd, self->cpu_adapter, 512 * PAGE,
			      RACE_PAGES * PAGE, &r->id));
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, r->id));
	ASSERT_EQ(0, pthread_create(&writer, NULL, race_writer, r));
	while (!r->done)
		ASSERT_EQ(0, race_query(r));
	ASSERT_EQ(0, pthread_join(writer, NULL));
	ASSERT_EQ(0, race_query(r));	/* after the last write */
	TH_LOG("%lu writes, %lu queries", r->writes, r->finished);
	EXPECT_LE(RACE_MIN_QUERIES, r->finished);
	for (p = 0; p < RACE_PAGES; p++) {
		if (!r->written[p])
			continue;
		EXPECT_LT(r->last_write_after[p], r->last_report[p]) {
			TH_LOG("page %u: last write after query %lu, last report by query %lu",
			       p, r->last_write_after[p], r->last_report[p]);
		}
	}
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, r->id));
	free(r);
}

TEST_HARNESS_MAIN
