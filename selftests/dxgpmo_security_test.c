// SPDX-License-Identifier: GPL-2.0
/*
 * What an opener without capabilities can reach.  The node is made 0666
 * for the duration of a test, as a udev rule giving it to a group would,
 * and a child process drops to nobody with no capabilities left before it
 * opens the node; the parent checks what the child reports.  Also the
 * rules that bind root too: the registers the module drives are never
 * written and never an ADL.  Needs debug_ioctls=1 for the test-ioctl case.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "dxgpmo_test.h"

/*
 * In the unprivileged child: on a false condition say where and give the
 * line back as the exit status (non-zero, < 256 by construction below).
 */
#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "unprivileged: %s:%d: %s\n",       \
				__func__, __LINE__, #cond);                \
			return __LINE__ % 255 + 1;                         \
		}                                                          \
	} while (0)

/*
 * fn(fd, arg) in a child that is nobody without capabilities, with fd the
 * node opened by that child (the node 0666 meanwhile) and inherited an fd
 * the caller opened (or -1).  Returns the child's exit status: 0 is pass.
 */
static int run_unprivileged(int (*fn)(int fd, int inherited, void *arg),
			    int inherited, void *arg)
{
	struct stat st;
	int status = -1;
	pid_t pid;

	if (stat(DXGPMO_DEV_PATH, &st) ||
	    chmod(DXGPMO_DEV_PATH, 0666))
		return -1;
	pid = fork();
	if (pid == 0) {
		int fd;

		if (drop_to_nobody())
			_exit(250);
		if (!no_effective_caps())
			_exit(251);
		fd = dxgpmo_open();
		if (fd < 0)
			_exit(252);
		_exit(fn(fd, inherited, arg));
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid)
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 253;
	chmod(DXGPMO_DEV_PATH, st.st_mode & 07777);
	return status;
}

FIXTURE_DXGPMO(security, 1)

/* The ordinary contract works without privilege. */
static int unpriv_ordinary_use(int fd, int inherited, void *arg)
{
	struct adapters ad;
	struct dxgpmo_create_pmo c = { .length = 4 * PAGE };
	struct dxgpmo_map m = { .access_mode = DXGPMO_ACCESS_USER };
	struct dxgpmo_allocate_adl a = { .length = 4 * PAGE };

	CHECK(load_adapters(fd, &ad) == 0);
	CHECK(ad.nr > 0);
	c.adapter_id = ad.all[0].adapter_id;
	CHECK(dxgpmo_create_pmo(fd, &c) == 0);
	m.pmo_id = c.pmo_id;
	m.length = c.length;
	CHECK(dxgpmo_map(fd, &m) == 0);
	((volatile uint8_t *)(uintptr_t)m.address)[0] = 1;
	a.amo_id = c.amo_id;
	CHECK(dxgpmo_allocate_adl(fd, &a) == 0);
	CHECK(dxgpmo_free_adl(fd, a.adl_id) == 0);
	CHECK(dxgpmo_unmap(fd, c.pmo_id, m.address, m.length) == 0);
	CHECK(dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id) == 0);
	return 0;
}

TEST_F(security, unprivileged_ordinary_use)
{
	EXPECT_EQ(0, run_unprivileged(unpriv_ordinary_use, -1, NULL));
}

struct io_space_args {
	uint64_t bar;
	struct dxgpmo_create_pmo root_object;	/* made by root in its file */
};

/* I/O space is /dev/mem territory: CAP_SYS_RAWIO, for any part of a BAR. */
static int unpriv_io_space(int fd, int inherited, void *arg)
{
	const struct io_space_args *io = arg;
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_IO_SPACE, .length = PAGE,
		.cache_type = DXGPMO_CACHE_NON_CACHED,
	};
	struct dxgpmo_map m = {
		.pmo_id = io->root_object.pmo_id, .length = PAGE,
		.access_mode = DXGPMO_ACCESS_KERNEL,
		.flags = DXGPMO_MAP_IN_PROCESS,
	};

	c.io_base = io->bar;
	CHECK(dxgpmo_create_pmo(fd, &c) == -EPERM);
	c.io_base = io->bar + PAGE;
	CHECK(dxgpmo_create_pmo(fd, &c) == -EPERM);
	/* decided first: an unknown adapter is not learnt either */
	c.adapter_id = 0xfffe;
	CHECK(dxgpmo_create_pmo(fd, &c) == -EPERM);
	c.adapter_id = 0;
	/* and on a file root opened */
	c.io_base = io->bar + PAGE;
	CHECK(dxgpmo_create_pmo(inherited, &c) == -EPERM);
	/* nor a view of the registers of an object root made there */
	CHECK(dxgpmo_map(inherited, &m) == -EPERM);
	CHECK(mmap(NULL, PAGE, PROT_READ, MAP_SHARED, inherited,
		   io->root_object.mmap_offset) == MAP_FAILED);
	CHECK(errno == EPERM);
	return 0;
}

TEST_F(security, unprivileged_io_space_refused)
{
	const struct dxgpmo_adapter_info *edu =
		find_adapter(&self->ad, DXGPMO_ADAPTER_CAP_DMA_ENGINE, 0);
	struct io_space_args io = {
		.root_object = {
			.type = DXGPMO_PMO_TYPE_IO_SPACE, .length = PAGE,
			.cache_type = DXGPMO_CACHE_NON_CACHED,
		},
	};

	if (!edu)
		SKIP(return, "needs an edu adapter (its BAR0)");
	io.bar = edu_bar0(edu);
	ASSERT_NE(0, io.bar);
	io.root_object.io_base = io.bar + PAGE;
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &io.root_object));
	EXPECT_EQ(0, run_unprivileged(unpriv_io_space, self->fd, &io));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, io.root_object.pmo_id, 0));
}

/*
 * The page of edu's BAR0 that holds its DMA engine: even with
 * CAP_SYS_RAWIO an IO_SPACE object over it only reads, and a device never
 * gets an ADL of it (with one, ADAPTER_DMA into the BAR programs the
 * engine).  The engine's registers keep the values the module wrote.
 */
TEST_F(security, driven_registers_never_written)
{
	const struct dxgpmo_adapter_info *edu =
		find_adapter(&self->ad, DXGPMO_ADAPTER_CAP_DMA_ENGINE, 0);
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_IO_SPACE, .length = 2 * PAGE,
		.cache_type = DXGPMO_CACHE_NON_CACHED,
	};
	struct dxgpmo_map m = { .access_mode = DXGPMO_ACCESS_KERNEL };
	struct dxgpmo_allocate_adl a = { .length = PAGE };
	uint32_t before[8], after[8], evil[8];

	if (!edu)
		SKIP(return, "needs an edu adapter (its BAR0)");
	c.io_base = edu_bar0(edu);
	ASSERT_NE(0, c.io_base);
	c.adapter_id = edu->adapter_id;
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	m.pmo_id = c.pmo_id;
	m.length = c.length;
	ASSERT_EQ(0, dxgpmo_map(self->fd, &m));
	/* source, destination, count, command */
	ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, m.map_id, 0, 0x80, before,
				    sizeof(before)));
	memset(evil, 0x41, sizeof(evil));
	EXPECT_EQ(-EACCES, dxgpmo_kmap_rw(self->fd, m.map_id, DXGPMO_KMAP_WRITE,
					  0x80, evil, sizeof(evil)));
	/* the second page shares the object, so the rule */
	EXPECT_EQ(-EACCES, dxgpmo_kmap_rw(self->fd, m.map_id, DXGPMO_KMAP_WRITE,
					  PAGE, evil, 4));
	ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, m.map_id, 0, 0x80, after,
				    sizeof(after)));
	EXPECT_EQ(0, memcmp(before, after, sizeof(before)));
	a.amo_id = c.amo_id;
	EXPECT_EQ(-EPERM, dxgpmo_allocate_adl(self->fd, &a)) {
		dxgpmo_free_adl(self->fd, a.adl_id);
		a.adl_id = 0;
	}
	a.offset = PAGE;
	EXPECT_EQ(-EPERM, dxgpmo_allocate_adl(self->fd, &a)) {
		dxgpmo_free_adl(self->fd, a.adl_id);
		a.adl_id = 0;
	}
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, m.address, m.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

/*
 * An ADL on an adapter without an IOMMU lists physical frames: seen only
 * with CAP_SYS_ADMIN, by caller and opener, as in /proc/pid/pagemap.
 * Returns 1 when the pages read hidden, 0 when shown, < 0 on error.
 */
static int adl_addresses_hidden(int fd, uint32_t adapter_id)
{
	struct dxgpmo_create_pmo c = {
		.length = 4 * PAGE, .adapter_id = adapter_id,
	};
	struct dxgpmo_allocate_adl a = { .length = 4 * PAGE };
	uint64_t pages[4];
	int hidden, i, nonzero = 0;

	memset(pages, 0xff, sizeof(pages));
	if (dxgpmo_create_pmo(fd, &c))
		return -1;
	a.amo_id = c.amo_id;
	a.pages = (uintptr_t)pages;
	a.pages_capacity = 4;
	if (dxgpmo_allocate_adl(fd, &a)) {
		dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id);
		return -2;
	}
	for (i = 0; i < 4; i++)
		nonzero += pages[i] != 0;
	hidden = !!(a.adl_flags & DXGPMO_ADL_ADDRESSES_HIDDEN);
	dxgpmo_free_adl(fd, a.adl_id);
	dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id);
	/* the flag and the numbers must agree */
	if (hidden && (nonzero || a.base_page))
		return -3;
	if (!hidden && nonzero != 4)
		return -4;
	return hidden;
}

static int unpriv_physical(int fd, int inherited, void *arg)
{
	const struct dxgpmo_adapter_info *a = arg;

	CHECK(adl_addresses_hidden(fd, a->adapter_id) == 1);
	/* a file root opened, used by nobody: still hidden */
	CHECK(adl_addresses_hidden(inherited, a->adapter_id) == 1);
	return 0;
}

TEST_F(security, physical_addresses_need_cap_sys_admin)
{
	const struct dxgpmo_adapter_info *phys =
		find_adapter(&self->ad, 0, DXGPMO_ADAPTER_CAP_IOMMU);

	if (!phys)
		SKIP(return, "no adapter without an IOMMU");
	EXPECT_EQ(0, adl_addresses_hidden(self->fd, phys->adapter_id));
	EXPECT_EQ(0, run_unprivileged(unpriv_physical, self->fd,
				      (void *)phys));
}

static int unpriv_iova(int fd, int inherited, void *arg)
{
	const struct dxgpmo_adapter_info *a = arg;

	CHECK(adl_addresses_hidden(fd, a->adapter_id) == 0);
	return 0;
}

TEST_F(security, iovas_shown_to_anyone)
{
	const struct dxgpmo_adapter_info *iommu =
		find_adapter(&self->ad, DXGPMO_ADAPTER_CAP_IOMMU, 0);

	if (!iommu)
		SKIP(return, "no adapter behind an IOMMU");
	EXPECT_EQ(0, run_unprivileged(unpriv_iova, -1, (void *)iommu));
}

/*
 * Allocation windows bisect physical memory: without CAP_SYS_ADMIN a
 * window is 0 up to a power-of-two limit, with a power-of-two boundary.
 */
static int unpriv_windows(int fd, int inherited, void *arg)
{
	/* no RAM below 16 MiB (arm64 virt's starts at 1 GiB): no ISA page */
	int isa_err = *(uint64_t *)arg > 0xffffff ? -ENOMEM : 0;
	static const struct {
		uint32_t type;
		uint64_t low, high, boundary;
		int err;
	} win[] = {
		{ DXGPMO_PMO_TYPE_MDL, 1 << 20, 0, 0, -EPERM },
		{ DXGPMO_PMO_TYPE_MDL, 0, 0x12345fff, 0, -EPERM },
		{ DXGPMO_PMO_TYPE_CONTIGUOUS, 0, 0, 3 * PAGE, -EPERM },
		{ DXGPMO_PMO_TYPE_CONTIGUOUS, 1 << 24, 0xffffffff, 0, -EPERM },
		{ DXGPMO_PMO_TYPE_MDL, 0, 0xffffff, 0, 0 },	/* ISA */
		{ DXGPMO_PMO_TYPE_MDL, 0, 0xffffffff, 0, 0 },
		{ DXGPMO_PMO_TYPE_CONTIGUOUS, 0, 0xffffffff, 1 << 16, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(win); i++) {
		struct dxgpmo_create_pmo c = {
			.type = win[i].type, .length = PAGE,
			.low_address = win[i].low,
			.high_address = win[i].high,
			.boundary = win[i].boundary,
		};
		int err = win[i].high == 0xffffff ? isa_err : win[i].err;
		int ret = dxgpmo_create_pmo(fd, &c);

		if (ret != err)
			fprintf(stderr, "window case %u: %d\n", i, ret);
		CHECK(ret == err);
		if (!ret)
			CHECK(dxgpmo_destroy_pmo(fd, c.pmo_id, 0) == 0);
	}
	return 0;
}

TEST_F(security, unprivileged_windows_are_dma_masks)
{
	/* where RAM starts: read as root, the unprivileged child reads 0 */
	uint64_t ram = system_ram_start();
	struct dxgpmo_create_pmo c = {
		.length = PAGE, .low_address = ram + (1 << 20),
		.high_address = ram + 0x12345fff,
	};

	/* root bisects as it likes */
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, run_unprivileged(unpriv_windows, -1, &ram));
}

/*
 * A file nobody opened gives root's calls through it nothing more: no
 * I/O space, no physical page numbers, no test ioctl.
 */
TEST_F(security, unprivileged_opener_privileged_caller)
{
	const struct dxgpmo_adapter_info *edu =
		find_adapter(&self->ad, DXGPMO_ADAPTER_CAP_DMA_ENGINE, 0);
	const struct dxgpmo_adapter_info *phys =
		find_adapter(&self->ad, 0, DXGPMO_ADAPTER_CAP_IOMMU);
	struct dxgpmo_test_cmd t = {
		.size = sizeof(t), .op = DXGPMO_TEST_OP_FAIL_NTH,
	};
	int fd = open_as_nobody();

	ASSERT_LE(0, fd);
	if (edu) {
		struct dxgpmo_create_pmo c = {
			.type = DXGPMO_PMO_TYPE_IO_SPACE, .length = PAGE,
			.cache_type = DXGPMO_CACHE_NON_CACHED,
			.io_base = edu_bar0(edu) + PAGE,
		};

		struct dxgpmo_create_pmo same = c;

		EXPECT_EQ(-EPERM, dxgpmo_create_pmo(fd, &c));
		/* the same call on root's own file works */
		c = same;
		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	} else {
		TH_LOG("no edu adapter: I/O space not tried");
	}
	if (phys) {
		EXPECT_EQ(1, adl_addresses_hidden(fd, phys->adapter_id));
	} else {
		TH_LOG("no adapter without an IOMMU: page numbers not tried");
	}
	EXPECT_EQ(debug_ioctls_enabled() ? -EPERM : -ENOTTY,
		  dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, &t));
	close(fd);
}

/* Raw DMA and the test ioctl need their capabilities. */
static int unpriv_privileged_calls(int fd, int inherited, void *arg)
{
	const struct dxgpmo_adapter_info *iommu = arg;
	struct dxgpmo_test_cmd t = {
		.size = sizeof(t), .op = DXGPMO_TEST_OP_FAIL_NTH,
	};
	char buf[64];

	if (iommu)
		CHECK(dxgpmo_adapter_dma(fd, iommu->adapter_id,
					 DXGPMO_DMA_RAW, 0x1000, buf,
					 sizeof(buf)) == -EPERM);
	CHECK(dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, &t) ==
	      (debug_ioctls_enabled() ? -EPERM : -ENOTTY));
	return 0;
}

TEST_F(security, unprivileged_privileged_calls_refused)
{
	const struct dxgpmo_adapter_info *iommu =
		find_adapter(&self->ad, DXGPMO_ADAPTER_CAP_IOMMU |
				DXGPMO_ADAPTER_CAP_DMA_ENGINE, 0);

	if (!iommu)
		TH_LOG("no DMA engine behind an IOMMU: raw DMA not tried");
	EXPECT_EQ(0, run_unprivileged(unpriv_privileged_calls, -1,
				      (void *)iommu));
}

/*
 * The ADL-leak rule as any opener meets it with the module's defaults:
 * DESTROY_PMO of an object with a live ADL fails with -EBUSY and changes
 * nothing.  No BUG() kills the caller, no WARN() taints the kernel, and
 * repeating it cannot flood the log.
 */
#define LEAK_TRIES 50

static int unpriv_adl_leak(int fd, int inherited, void *arg)
{
	struct dxgpmo_create_pmo c = { .length = 4 * PAGE };
	struct dxgpmo_allocate_adl a = { .length = 4 * PAGE };
	struct adapters ad;
	unsigned int i;

	CHECK(load_adapters(fd, &ad) == 0);
	CHECK(ad.nr > 0);
	c.adapter_id = ad.all[0].adapter_id;
	CHECK(dxgpmo_create_pmo(fd, &c) == 0);
	a.amo_id = c.amo_id;
	CHECK(dxgpmo_allocate_adl(fd, &a) == 0);
	for (i = 0; i < LEAK_TRIES; i++)
		CHECK(dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id) == -EBUSY);
	CHECK(dxgpmo_free_adl(fd, a.adl_id) == 0);
	CHECK(dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id) == 0);
	return 0;
}

static unsigned int kmsg_count(int fd, const char *needle)
{
	unsigned int nr = 0;
	char rec[2048];

	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			return nr;
		rec[n] = 0;
		nr += !!strstr(rec, needle);
	}
}

TEST_F(security, unprivileged_adl_leak_is_ebusy)
{
	unsigned long taint = read_sysfs_ulong("/proc/sys/kernel/tainted");
	char bad[256], mode[16];
	int kmsg = kmsg_open_new(), kmsg2 = kmsg_open_new(), status;
	unsigned int logged;

	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, kmsg2);
	/* The suite loads the module without options: the default. */
	ASSERT_EQ(0, dxgpmo_read_line(ADL_LEAK_PARAM, mode, sizeof(mode)));
	ASSERT_STREQ("warn", mode);
	status = run_unprivileged(unpriv_adl_leak, -1, NULL);
	EXPECT_EQ(0, status) {
		TH_LOG("the unprivileged leaker %s",
		       status == 253 ? "was killed" : "saw other results");
	}
	EXPECT_EQ(taint, read_sysfs_ulong("/proc/sys/kernel/tainted"));
	EXPECT_EQ(0, kmsg_find_bad(kmsg, bad, sizeof(bad))) {
		TH_LOG("kernel log: %s", bad);
	}
	logged = kmsg_count(kmsg2, "live ADL");
	EXPECT_GT(LEAK_TRIES / 2, logged);
	close(kmsg);
	close(kmsg2);
}

TEST_HARNESS_MAIN
