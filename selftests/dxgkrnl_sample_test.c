// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for a kernel driver's own memory-basis DDIs
 * (<linux/dxgkrnl.h>), through the sample KMD on edu
 * (samples/dxgkrnl-edu): user space plays Dxgkrnl's live-migration loop
 * with the basis ioctls on the driver's adapter, the driver's engine
 * writes its VRAM between passes (debugfs "vram"), and the driver's
 * answers must name exactly the pages written inside the basis, converge,
 * and leave a copy equal to the VRAM byte for byte.  What Dxgkrnl checks
 * before a DDI is called is checked here too.  Needs the sample bound
 * (dxgkrnl_sample.sh does that) and CAP_SYS_ADMIN.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

#define PG		4096u
#define VRAM_PAGES	64u
#define SAMPLE_DIR	"/sys/kernel/debug/dxgkrnl_sample_edu-*"

/* The sample's segment 1: two ranges, a gap between them not tracked. */
static const struct dxgpmo_memory_range ranges[] = {
	{ .segment_offset = 0, .length = 16 * PG },
	{ .segment_offset = 32 * PG, .length = 32 * PG },
};

#define BASIS_PAGES	48u

FIXTURE(sample) {
	int fd;
	int vram;
	uint32_t adapter_id;
	uint32_t basis_id;
};

static int sample_file(const char *name, int flags)
{
	char path[256];
	glob_t g;
	int fd = -1;

	if (glob(SAMPLE_DIR, 0, NULL, &g))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", g.gl_pathv[0], name);
	globfree(&g);
	fd = open(path, flags);
	return fd;
}

static int create_basis(int fd, uint32_t adapter, uint32_t segment,
			const struct dxgpmo_memory_range *r, uint32_t n,
			uint32_t *id)
{
	struct dxgpmo_create_memory_basis c = {
		.size = sizeof(c), .adapter_id = adapter,
		.segment_id = segment, .range_count = n,
		.ranges = (uintptr_t)r,
	};
	int ret = ioctl(fd, DXGPMO_IOC_CREATE_MEMORY_BASIS, &c);

	*id = c.basis_id;
	return ret ? -errno : 0;
}

static int tracking(int fd, unsigned long cmd, uint32_t id)
{
	struct dxgpmo_dirty_tracking t = { .size = sizeof(t), .basis_id = id };

	return ioctl(fd, cmd, &t) ? -errno : 0;
}

static int query(int fd, uint32_t id, uint64_t index, uint64_t offset,
		 uint64_t length, uint8_t *bits, size_t size, int clear)
{
	struct dxgpmo_query_dirty_bits q = {
		.size = sizeof(q), .basis_id = id,
		.flags = clear ? DXGPMO_DIRTY_CLEAR_DATA : 0,
		.subrange_index = index, .subrange_offset = offset,
		.subrange_length = length,
		.buffer = (uintptr_t)bits, .buffer_size = size,
	};

	memset(bits, 0, size);
	return ioctl(fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q) ? -errno : 0;
}

/* The engine writes one VRAM page with a pattern of seed. */
static int engine_write(int vram, uint32_t page, uint8_t seed)
{
	uint8_t data[PG];
	uint32_t i;

	for (i = 0; i < PG; i++)
		data[i] = (uint8_t)(seed + i * 13 + page);
	return pwrite(vram, data, PG, (off_t)page * PG) == PG ? 0 : -errno;
}

/* The basis's bit of a VRAM page, or -1 outside its ranges. */
static int bit_of(uint32_t page)
{
	if (page < 16)
		return page;
	if (page >= 32 && page < 64)
		return 16 + page - 32;
	return -1;
}

static uint32_t page_of(int bit)
{
	return bit < 16 ? bit : 32 + bit - 16;
}

FIXTURE_SETUP(sample)
{
	char line[32] = "";
	int afd;

	self->fd = -1;
	self->vram = sample_file("vram", O_RDWR);
	afd = sample_file("adapter", O_RDONLY);
	if (self->vram < 0 || afd < 0)
		SKIP(return, "the sample KMD is not bound (dxgkrnl_sample.sh)");
	ASSERT_LT(0, read(afd, line, sizeof(line) - 1));
	close(afd);
	self->adapter_id = strtoul(line, NULL, 10);
	ASSERT_NE(0, self->adapter_id);
	self->fd = open("/dev/dxgpmo", O_RDWR);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, create_basis(self->fd, self->adapter_id, 1, ranges, 2,
				  &self->basis_id));
}

FIXTURE_TEARDOWN(sample)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->vram >= 0)
		close(self->vram);
}

/*
 * Brownout passes until one finds nothing, each writing fewer pages, one
 * of them outside the basis; then the blackout.  Each pass's bits are
 * exactly the pages written inside the basis since the last one.
 */
TEST_F(sample, migration_converges)
{
	static uint8_t copy[VRAM_PAGES * PG], now[VRAM_PAGES * PG];
	uint8_t bits[BASIS_PAGES / 8], again[BASIS_PAGES / 8];
	uint8_t want[BASIS_PAGES / 8];
	unsigned int pass, k, b, copied;

	ASSERT_EQ(0, tracking(self->fd, DXGPMO_IOC_START_DIRTY_TRACKING,
			      self->basis_id));
	/* After START the bits read 0; the first pass copies everything. */
	ASSERT_EQ(0, query(self->fd, self->basis_id, 0, 0, 0, bits,
			   sizeof(bits), 1));
	for (b = 0; b < sizeof(bits); b++)
		ASSERT_EQ(0, bits[b]);
	ASSERT_EQ(sizeof(copy), pread(self->vram, copy, sizeof(copy), 0));

	for (pass = 0; pass < 8; pass++) {
		unsigned int pages = 8 >> pass;

		memset(want, 0, sizeof(want));
		for (k = 0; k < pages; k++) {
			uint32_t page = (pass * 11 + k * 7) % VRAM_PAGES;

			ASSERT_EQ(0, engine_write(self->vram, page, pass));
			if (bit_of(page) >= 0)
				want[bit_of(page) / 8] |= 1 << bit_of(page) % 8;
		}
		/* The gap between the ranges is the driver's, untracked. */
		if (pages)
			ASSERT_EQ(0, engine_write(self->vram, 20, pass));
		ASSERT_EQ(0, query(self->fd, self->basis_id, 0, 0, 0, bits,
				   sizeof(bits), 1));
		ASSERT_EQ(0, memcmp(bits, want, sizeof(bits)))
			TH_LOG("pass %u: the driver's bits differ", pass);
		copied = 0;
		for (b = 0; b < BASIS_PAGES; b++) {
			off_t at = (off_t)page_of(b) * PG;

			if (!(bits[b / 8] & 1 << b % 8))
				continue;
			ASSERT_EQ(PG, pread(self->vram, copy + at, PG, at));
			copied++;
		}
		TH_LOG("pass %u: %u pages copied", pass, copied);
		if (!copied)
			break;
	}
	ASSERT_GT(8, pass) TH_LOG("no convergence");

	/* Blackout: a query without CLEARDATA, twice the same. */
	ASSERT_EQ(0, query(self->fd, self->basis_id, 0, 0, 0, bits,
			   sizeof(bits), 0));
	ASSERT_EQ(0, query(self->fd, self->basis_id, 0, 0, 0, again,
			   sizeof(again), 0));
	ASSERT_EQ(0, memcmp(bits, again, sizeof(bits)));
	ASSERT_EQ(sizeof(now), pread(self->vram, now, sizeof(now), 0));
	for (b = 0; b < BASIS_PAGES; b++) {
		off_t at = (off_t)page_of(b) * PG;

		ASSERT_EQ(0, memcmp(copy + at, now + at, PG))
			TH_LOG("page %u differs from the copy", page_of(b));
	}
	ASSERT_EQ(0, tracking(self->fd, DXGPMO_IOC_STOP_DIRTY_TRACKING,
			      self->basis_id));
}

/* A subrange is one range's span, its bit 0 the span's first page. */
TEST_F(sample, subrange_query)
{
	uint8_t bits[2], all[BASIS_PAGES / 8];

	ASSERT_EQ(0, tracking(self->fd, DXGPMO_IOC_START_DIRTY_TRACKING,
			      self->basis_id));
	ASSERT_EQ(0, query(self->fd, self->basis_id, 0, 0, 0, all,
			   sizeof(all), 1));
	ASSERT_EQ(0, engine_write(self->vram, 32 + 5, 1));
	ASSERT_EQ(0, engine_write(self->vram, 3, 1));
	ASSERT_EQ(0, query(self->fd, self->basis_id, 1, 4 * PG, 8 * PG, bits,
			   sizeof(bits), 1));
	EXPECT_EQ(1 << 1, bits[0]);
	/* The first range's page was not cleared by the other's query. */
	ASSERT_EQ(0, query(self->fd, self->basis_id, 0, 0, 16 * PG, bits,
			   sizeof(bits), 1));
	EXPECT_EQ(1 << 3, bits[0]);
	EXPECT_EQ(0, bits[1]);
}

/* What Dxgkrnl refuses before any DDI is called. */
TEST_F(sample, dxgkrnl_checks)
{
	struct dxgpmo_memory_range past = { 60 * PG, 8 * PG };
	struct dxgpmo_memory_range half = { 0, PG / 2 };
	uint8_t bits[6];
	uint32_t id;

	EXPECT_EQ(-EINVAL, tracking(self->fd, DXGPMO_IOC_STOP_DIRTY_TRACKING,
				    self->basis_id));
	EXPECT_EQ(-EINVAL, query(self->fd, self->basis_id, 0, 0, 0, bits,
				 sizeof(bits), 1));
	EXPECT_EQ(-EINVAL, create_basis(self->fd, self->adapter_id, 2, ranges,
					2, &id));
	EXPECT_EQ(-ERANGE, create_basis(self->fd, self->adapter_id, 1, &past,
					1, &id));
	EXPECT_EQ(-EINVAL, create_basis(self->fd, self->adapter_id, 1, &half,
					1, &id));
	ASSERT_EQ(0, tracking(self->fd, DXGPMO_IOC_START_DIRTY_TRACKING,
			      self->basis_id));
	/* Room for 48 bits is 6 bytes. */
	EXPECT_EQ(-ENOSPC, query(self->fd, self->basis_id, 0, 0, 0, bits, 5,
				 1));
}

TEST_HARNESS_MAIN
