// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for dxgpmo: adapters, physical and adapter memory objects, the
 * ioctl ABI rules.  Every fixture's teardown closes its file and checks, on a
 * fresh open, that the module's global counters are back to zero.
 *
 * The expected adapters are discovered independently of the module: edu
 * devices from sysfs PCI ids, devices bound to the generic driver from
 * their driver link, IOMMU groups from sysfs, virtual adapters from the
 * module parameter.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

FIXTURE_DXGPMO(dxgpmo, 0)

/*
 * QUERY_ADAPTERS lists exactly the edu devices, the devices bound to the
 * generic driver and the virtual adapters, each PCI one with the ids and
 * IOMMU group sysfs shows.
 */
TEST_F(dxgpmo, adapters_match_system)
{
	unsigned int edu = 0, generic = 0, virt = 0, i;
	struct expected_adapters exp;

	ASSERT_EQ(0, discover_expected_adapters(&exp));
	EXPECT_EQ(exp.nr_edu + exp.nr_generic + exp.nr_virtual,
		  self->ad.nr);
	for (i = 0; i < self->ad.nr; i++) {
		const struct dxgpmo_adapter_info *a = &self->ad.all[i];

		EXPECT_NE(0, a->adapter_id);
		EXPECT_EQ(DEFAULT_SEGMENT_SIZE, a->segment_size);
		EXPECT_EQ((uint64_t)a->adapter_id << 36,
			  a->segment_mmap_offset);
		EXPECT_EQ(4096, a->dirty_page_size);
		if (a->caps & DXGPMO_ADAPTER_CAP_VIRTUAL) {
			EXPECT_EQ(0, a->caps & (DXGPMO_ADAPTER_CAP_IOMMU |
						DXGPMO_ADAPTER_CAP_DMA_ENGINE));
			EXPECT_EQ(UINT64_MAX, a->dma_mask);
			EXPECT_EQ(0, strncmp(a->name, "virtual", 7));
			EXPECT_EQ(0, a->pci_vendor);
			EXPECT_EQ(-1, a->iommu_group);
			virt++;
			continue;
		}
		EXPECT_NE(NULL, expected_pci_for(&exp, a)) {
			TH_LOG("%s: %04x:%04x group %d caps %#x", a->name,
			       a->pci_vendor, a->pci_device, a->iommu_group,
			       a->caps);
		}
		if (a->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE) {
			EXPECT_EQ(0, strncmp(a->name, "edu", 3));
			EXPECT_EQ((1ULL << 28) - 1, a->dma_mask);
			edu++;
		} else {
			EXPECT_EQ(0, strncmp(a->name, "pci", 3));
			EXPECT_EQ(pci_dma_mask(), a->dma_mask);
			generic++;
		}
	}
	EXPECT_EQ(exp.nr_edu, edu);
	EXPECT_EQ(exp.nr_generic, generic);
	EXPECT_EQ(exp.nr_virtual, virt);
}

/*
 * The test VM: two edu behind the IOMMU, one spare PCI device bound to the
 * generic driver (behind the IOMMU too) and one virtual adapter.
 */
TEST_F(dxgpmo, adapters_of_test_vm)
{
	unsigned int iommu_edu = 0, iommu_generic = 0, virt = 0, i;

	if (!getenv("DXGPMO_TEST_VM"))
		SKIP(return, "not the test VM (DXGPMO_TEST_VM unset)");
	for (i = 0; i < self->ad.nr; i++) {
		uint32_t caps = self->ad.all[i].caps;

		if (caps == (DXGPMO_ADAPTER_CAP_IOMMU |
			     DXGPMO_ADAPTER_CAP_DMA_ENGINE))
			iommu_edu++;
		else if (caps == DXGPMO_ADAPTER_CAP_IOMMU)
			iommu_generic++;
		else if (caps == DXGPMO_ADAPTER_CAP_VIRTUAL)
			virt++;
	}
	EXPECT_EQ(4, self->ad.nr);
	EXPECT_EQ(2, iommu_edu);
	EXPECT_EQ(1, iommu_generic);
	EXPECT_EQ(1, virt);
}

TEST_F(dxgpmo, adapters_count_only)
{
	struct dxgpmo_query_adapters q = {
		.size = sizeof(q), .count = 0, .entry_size = 0, .entries = 0,
	};

	ASSERT_EQ(0, ioctl(self->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q));
	EXPECT_EQ(self->ad.nr, q.count);
}

TEST_F(dxgpmo, adapters_entry_size)
{
	struct {
		struct dxgpmo_adapter_info info;
		uint8_t tail[24];
	} big[DXGPMO_MAX_ADAPTERS];
	const size_t v1 = offsetofend(struct dxgpmo_adapter_info, name);
	struct dxgpmo_query_adapters q = {
		.size = sizeof(q),
		.count = DXGPMO_MAX_ADAPTERS,
		.entry_size = v1 - 1,
		.entries = (uintptr_t)big,
	};
	unsigned int i, j;
	uint8_t *huge;

	EXPECT_ERRNO(EINVAL, ioctl(self->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q));

	/*
	 * An entry is at most a page: a layout that much larger than today's
	 * is not a layout, and each entry's tail is zeroed in one call.
	 */
	huge = calloc(2, 4096);
	ASSERT_NE(NULL, huge);
	q.entries = (uintptr_t)huge;
	q.count = 1;
	q.entry_size = 4096;
	EXPECT_EQ(0, ioctl(self->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q));
	q.count = 1;
	q.entry_size = 4097;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q));
	free(huge);
	q.entries = (uintptr_t)big;
	q.count = DXGPMO_MAX_ADAPTERS;

	/* A caller built with the first layout gets packed v1 entries. */
	memset(big, 0xa5, sizeof(big));
	q.entry_size = v1;
	ASSERT_EQ(0, ioctl(self->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q));
	ASSERT_EQ(self->ad.nr, q.count);
	for (i = 0; i < q.count; i++)
		EXPECT_EQ(0, memcmp((uint8_t *)big + i * v1,
				    &self->ad.all[i], v1));
	EXPECT_EQ(0xa5, ((uint8_t *)big)[q.count * v1]);
	q.count = DXGPMO_MAX_ADAPTERS;

	memset(big, 0xa5, sizeof(big));
	q.entry_size = sizeof(big[0]);
	ASSERT_EQ(0, ioctl(self->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q));
	ASSERT_EQ(self->ad.nr, q.count);
	for (i = 0; i < q.count; i++) {
		EXPECT_EQ(0, memcmp(&big[i].info, &self->ad.all[i],
				    sizeof(big[i].info)));
		for (j = 0; j < sizeof(big[i].tail); j++)
			EXPECT_EQ(0, big[i].tail[j]);
	}
	/* Entries beyond the count are not touched. */
	if (q.count < DXGPMO_MAX_ADAPTERS)
		EXPECT_EQ(0xa5, ((uint8_t *)&big[q.count])[0]);

	/* A capacity of one writes one entry and still reports the total. */
	memset(big, 0xa5, sizeof(big));
	q.count = 1;
	ASSERT_EQ(0, ioctl(self->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q));
	EXPECT_EQ(self->ad.nr, q.count);
	EXPECT_EQ(0xa5, ((uint8_t *)&big[1])[0]);

	q.flags = 1;
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q));
}

/*
 * Struct length rules, one variant per row of DXGPMO_IOCTL_TABLE: shorter
 * than the first version -> EINVAL, longer with a non-zero tail -> E2BIG,
 * longer with a zero tail behaves exactly like the exact size, up to a
 * page; longer than a page -> E2BIG whatever the tail holds (the kernel
 * would otherwise scan up to 4 GiB of the caller's memory for zeros).
 */
FIXTURE_DXGPMO(cmd_length, 0)

FIXTURE_VARIANT(cmd_length) {
	unsigned long ioctl;
	size_t size;
	size_t min_size;
};

#define CMD_LENGTH_VARIANT(_name, _struct, _last)                          \
	FIXTURE_VARIANT_ADD(cmd_length, _name) {                           \
		.ioctl = DXGPMO_IOC_##_name,                               \
		.size = sizeof(struct _struct),                            \
		.min_size = offsetofend(struct _struct, _last),            \
	};
DXGPMO_IOCTL_TABLE(CMD_LENGTH_VARIANT)
#undef CMD_LENGTH_VARIANT

/* A zeroed struct of the variant's ioctl that says it is size bytes. */
static void *cmd_sized(uint64_t *buf, uint32_t size)
{
	memset(buf, 0, DXGPMO_CMD_BUF_WORDS * sizeof(*buf));
	memcpy(buf, &size, sizeof(size));
	return buf;
}

TEST_F(cmd_length, size_rules)
{
	static const size_t longer[] = { 1, 8 };
	uint64_t buf[DXGPMO_CMD_BUF_WORDS];
	int rc_exact, errno_exact;
	unsigned int i;

	ASSERT_GT(sizeof(buf), variant->size + 8);
	ASSERT_LE(8, variant->min_size);
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, variant->ioctl,
				   cmd_sized(buf, variant->min_size - 1)));
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, variant->ioctl,
				   cmd_sized(buf, 0)));
	for (i = 0; i < ARRAY_SIZE(longer); i++) {
		cmd_sized(buf, variant->size + longer[i]);
		((uint8_t *)buf)[variant->size + longer[i] - 1] = 0xff;
		EXPECT_ERRNO(E2BIG, ioctl(self->fd, variant->ioctl, buf));
	}
	rc_exact = ioctl(self->fd, variant->ioctl,
			 cmd_sized(buf, variant->size));
	errno_exact = errno;
	for (i = 0; i < ARRAY_SIZE(longer); i++) {
		errno = 0;
		EXPECT_EQ(rc_exact, ioctl(self->fd, variant->ioctl,
					  cmd_sized(buf, variant->size +
							 longer[i])));
		if (rc_exact)
			EXPECT_EQ(errno_exact, errno);
	}
	{
		long page = sysconf(_SC_PAGESIZE);
		uint8_t *big = calloc(1, page + 8);
		uint32_t big_size = page + 8;

		ASSERT_NE(NULL, big);
		memcpy(big, &big_size, sizeof(big_size));
		EXPECT_ERRNO(E2BIG, ioctl(self->fd, variant->ioctl, big));
		big_size = page;
		memcpy(big, &big_size, sizeof(big_size));
		errno = 0;
		EXPECT_EQ(rc_exact, ioctl(self->fd, variant->ioctl, big));
		if (rc_exact)
			EXPECT_EQ(errno_exact, errno);
		free(big);
	}
}

/*
 * The table has every command the module answers: a struct of size 0 is
 * -EINVAL for a command and -ENOTTY for a number that is none.
 */
TEST_F(dxgpmo, cmd_length_table_complete)
{
#define CMD_NR(_name, ...) DXGPMO_CMD_##_name,
	static const unsigned int in_table[] = {
		DXGPMO_IOCTL_TABLE(CMD_NR)
	};
#undef CMD_NR
	uint32_t size = 0;
	unsigned int nr, i;

	for (nr = 0; nr < 256; nr++) {
		int known = 0, rc;

		for (i = 0; i < ARRAY_SIZE(in_table); i++)
			known |= in_table[i] == nr;
		errno = 0;
		rc = ioctl(self->fd, _IO(DXGPMO_TYPE, nr), &size);
		EXPECT_EQ(-1, rc);
		EXPECT_EQ(known ? EINVAL : ENOTTY, errno) {
			TH_LOG("command %#x: %s", nr,
			       known ? "in the table" : "not in the table");
		}
	}
}

/*
 * Calls that fail on a field check fail the same way through a longer
 * struct with a zero tail: ids that name nothing, a DMA of length 0.
 */
TEST_F(dxgpmo, cmd_longer_struct_same_errno)
{
	static const struct dxgpmo_allocate_adl adl = {
		.size = sizeof(adl), .length = PAGE,
	};
	static const struct dxgpmo_free_adl free_adl = {
		.size = sizeof(free_adl),
	};
	static const struct dxgpmo_adapter_dma dma = { .size = sizeof(dma) };
	static const struct dxgpmo_map map = {
		.size = sizeof(map), .length = 1,
	};
	static const struct dxgpmo_unmap unmap = { .size = sizeof(unmap) };
	static const struct dxgpmo_kmap_rw kmap = {
		.size = sizeof(kmap), .length = 1,
	};
	static const struct dxgpmo_query_dirty_bits query = {
		.size = sizeof(query),
	};
	static const struct dxgpmo_dirty_tracking stop = {
		.size = sizeof(stop),
	};
	static const struct dxgpmo_export_dmabuf export = {
		.size = sizeof(export),
	};
	static const struct {
		unsigned long ioctl;
		const void *arg;
		int err;
	} calls[] = {
		{ DXGPMO_IOC_ALLOCATE_ADL, &adl, ENOENT },
		{ DXGPMO_IOC_FREE_ADL, &free_adl, ENOENT },
		{ DXGPMO_IOC_ADAPTER_DMA, &dma, EINVAL },
		{ DXGPMO_IOC_MAP, &map, ENOENT },
		{ DXGPMO_IOC_UNMAP, &unmap, ENOENT },
		{ DXGPMO_IOC_KMAP_RW, &kmap, ENOENT },
		{ DXGPMO_IOC_QUERY_DIRTY_BITS, &query, ENOENT },
		{ DXGPMO_IOC_STOP_DIRTY_TRACKING, &stop, ENOENT },
		{ DXGPMO_IOC_EXPORT_DMABUF, &export, ENOENT },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		uint64_t buf[DXGPMO_CMD_BUF_WORDS];
		uint32_t size;

		memcpy(&size, calls[i].arg, sizeof(size));
		memcpy(buf, calls[i].arg, size);
		ASSERT_EQ(-1, ioctl(self->fd, calls[i].ioctl, buf));
		EXPECT_EQ(calls[i].err, errno) {
			TH_LOG("ioctl %#lx, exact size", calls[i].ioctl);
		}
		ASSERT_EQ(-1, ioctl_zero_tail(self->fd, calls[i].ioctl,
					      calls[i].arg));
		EXPECT_EQ(calls[i].err, errno) {
			TH_LOG("ioctl %#lx, zero tail", calls[i].ioctl);
		}
	}
}

/* A longer struct whose extra bytes are zero really works (not an error). */
TEST_F(dxgpmo, cmd_longer_struct_works)
{
	struct {
		struct dxgpmo_create_pmo cmd;
		uint64_t future[4];
	} buf;

	memset(&buf, 0, sizeof(buf));
	buf.cmd.size = sizeof(buf);
	buf.cmd.length = 4096;
	ASSERT_EQ(0, ioctl(self->fd, DXGPMO_IOC_CREATE_PMO, &buf));
	EXPECT_NE(0, buf.cmd.pmo_id);
	EXPECT_EQ(0, buf.future[0]);
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, buf.cmd.pmo_id, 0));
}

TEST_F(dxgpmo, cmd_unknown)
{
	struct dxgpmo_stats st = { .size = sizeof(st) };

	EXPECT_ERRNO(ENOTTY, ioctl(self->fd, _IO(DXGPMO_TYPE, 0x7f), &st));
	EXPECT_ERRNO(ENOTTY, ioctl(self->fd, _IO(DXGPMO_TYPE + 1,
						 DXGPMO_CMD_STATS), &st));
	EXPECT_ERRNO(ENOTTY, ioctl(self->fd, _IOW(DXGPMO_TYPE, DXGPMO_CMD_STATS,
						  int), &st));
}

TEST_F(dxgpmo, create_bad_args)
{
	struct dxgpmo_create_pmo c;
	uint32_t pmo_in;

#define EXPECT_CREATE_ERR(_errno, ...)                                     \
	do {                                                               \
		c = (struct dxgpmo_create_pmo){ .length = 4096, __VA_ARGS__ }; \
		pmo_in = c.pmo_id;                                         \
		EXPECT_EQ(-(_errno), dxgpmo_create_pmo(self->fd, &c));     \
		/* a failed call writes nothing back */                    \
		EXPECT_EQ(pmo_in, c.pmo_id);                               \
	} while (0)

	EXPECT_CREATE_ERR(EINVAL, .length = 0);
	EXPECT_CREATE_ERR(EINVAL, .length = UINT64_MAX);
	EXPECT_CREATE_ERR(EINVAL, .length = UINT64_MAX - 4094);
	EXPECT_CREATE_ERR(ENOMEM, .length = 1ULL << 50);
	EXPECT_CREATE_ERR(EINVAL, .flags = 1);
	EXPECT_CREATE_ERR(EINVAL, .flags = 1U << 31);
	EXPECT_CREATE_ERR(EINVAL, .type = 4);
	EXPECT_CREATE_ERR(EINVAL, .type = UINT32_MAX);
	EXPECT_CREATE_ERR(EINVAL, .cache_type = 3);
	EXPECT_CREATE_ERR(ENOENT, .adapter_id = 200);
	EXPECT_CREATE_ERR(ENOENT, .adapter_id = UINT32_MAX);
	/* Output fields are outputs: non-zero input is a caller bug. */
	EXPECT_CREATE_ERR(EINVAL, .pmo_id = 1);
	EXPECT_CREATE_ERR(EINVAL, .amo_id = 1);
	EXPECT_CREATE_ERR(EINVAL, .mmap_offset = 1);
	/* Fields of another type's union member must be zero. */
	EXPECT_CREATE_ERR(EINVAL, .page_protection = DXGPMO_PAGE_READWRITE);
	EXPECT_CREATE_ERR(EINVAL, .io_base = 0x1000);
	EXPECT_CREATE_ERR(EINVAL, .type = DXGPMO_PMO_TYPE_CONTIGUOUS,
			  .skip_bytes = 4096);
	EXPECT_CREATE_ERR(EINVAL, .type = DXGPMO_PMO_TYPE_MDL,
			  .boundary = 1 << 20);
	/* Windows that can never hold the object. */
	EXPECT_CREATE_ERR(EINVAL, .low_address = 1 << 20,
			  .high_address = (1 << 20) - 1);
	EXPECT_CREATE_ERR(EINVAL, .length = 3 * 4096, .low_address = 0,
			  .high_address = 2 * 4096 - 1);
	EXPECT_CREATE_ERR(EINVAL, .skip_bytes = 100);
	EXPECT_CREATE_ERR(EINVAL, .type = DXGPMO_PMO_TYPE_CONTIGUOUS,
			  .length = 8 * 4096, .boundary = 4 * 4096);
	EXPECT_CREATE_ERR(EINVAL, .type = DXGPMO_PMO_TYPE_CONTIGUOUS,
			  .boundary = 4096 + 1);
	/* SECTION: cached or write-combined, read-only or read-write. */
	EXPECT_CREATE_ERR(EINVAL, .type = DXGPMO_PMO_TYPE_SECTION,
			  .cache_type = DXGPMO_CACHE_NON_CACHED,
			  .page_protection = DXGPMO_PAGE_READWRITE);
	EXPECT_CREATE_ERR(EINVAL, .type = DXGPMO_PMO_TYPE_SECTION,
			  .cache_type = DXGPMO_CACHE_CACHED);
	EXPECT_CREATE_ERR(EINVAL, .type = DXGPMO_PMO_TYPE_SECTION,
			  .cache_type = DXGPMO_CACHE_CACHED,
			  .page_protection = DXGPMO_PAGE_READWRITE,
			  .low_address = 4096);
	/* IO_SPACE: only BARs of dxgpmo adapters (RAM is not one). */
	EXPECT_CREATE_ERR(EPERM, .type = DXGPMO_PMO_TYPE_IO_SPACE,
			  .io_base = 0x100000);
	EXPECT_CREATE_ERR(EINVAL, .type = DXGPMO_PMO_TYPE_IO_SPACE,
			  .io_base = 0x100010);
#undef EXPECT_CREATE_ERR
	expect_no_live_objects(self->fd);
}

/* Pages no window could give: rejected blocks are bounded, then ENOMEM. */
TEST_F(dxgpmo, create_window_unsatisfiable)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_MDL,
		.length = 16 * 4096,
		.low_address = 1ULL << 46,
		.high_address = (1ULL << 46) + (1ULL << 30) - 1,
	};

	EXPECT_EQ(-ENOMEM, dxgpmo_create_pmo(self->fd, &c));
	c = (struct dxgpmo_create_pmo){
		.type = DXGPMO_PMO_TYPE_CONTIGUOUS,
		.length = 4 * 4096,
		.low_address = 1ULL << 46,
		.high_address = (1ULL << 46) + (1ULL << 30) - 1,
	};
	EXPECT_EQ(-ENOMEM, dxgpmo_create_pmo(self->fd, &c));
}

TEST_F(dxgpmo, create_window_below_4g)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_MDL,
		.length = 4 << 20,
		.high_address = (1ULL << 32) - 1,
	};

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));

	c = (struct dxgpmo_create_pmo){
		.type = DXGPMO_PMO_TYPE_CONTIGUOUS,
		.length = 64 << 10,
		.low_address = 1 << 20,
		.high_address = (1ULL << 32) - 1,
		.boundary = 64 << 10,
	};
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * high_address is inclusive: a window that ends at the ISA limit
 * (0xFFFFFF) is ZONE_DMA's, and the page lies below 16 MiB (seen through
 * a virtual adapter, where logical pages are physical).
 */
TEST_F(dxgpmo, create_window_isa_limit)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_MDL,
		.length = 4096,
		.high_address = 0xFFFFFF,
	};
	struct dxgpmo_allocate_adl adl = { .length = 4096 };
	uint32_t i;

	for (i = 0; i < self->ad.nr; i++)
		if (self->ad.all[i].caps & DXGPMO_ADAPTER_CAP_VIRTUAL)
			c.adapter_id = self->ad.all[i].adapter_id;
	if (!c.adapter_id)
		SKIP(return, "needs a virtual adapter (logical == physical)");
	if (system_ram_start() > 0xFFFFFF)
		SKIP(return, "no RAM below 16 MiB (it starts at %#llx)",
		     (unsigned long long)system_ram_start());
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	adl.amo_id = c.amo_id;
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
	EXPECT_GE(0xFFFFFFULL, (adl.base_page << 12) + 4095);
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

/*
 * A CONTIGUOUS window that starts above zero is searched, as
 * MmAllocateContiguousMemorySpecifyCache does: 32 KiB between 256 MiB and
 * 512 MiB, and 2 MiB between 1 GiB and 1.5 GiB, on an idle VM whose buddy
 * allocator hands its blocks out from elsewhere.  The pages lie in the
 * window and on its boundary (seen through a virtual adapter, where
 * logical pages are physical), and read zero.  The search migrates pages
 * and cannot charge them: a caller in a memory cgroup does not get it.
 */
/*
 * Whether the kernel has a function of that name (or its _noprof one):
 * /proc/kallsyms lists names whatever kptr_restrict hides.  1 when there
 * is no kallsyms to tell.
 */
static int kernel_has_function(const char *name)
{
	char line[256], sym[128];
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t len = strlen(name);
	int found = 0;

	if (!f)
		return 1;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %127s", sym) == 1 &&
		    !strncmp(sym, name, len) &&
		    (!sym[len] || !strcmp(sym + len, "_noprof")))
			found = 1;
	fclose(f);
	return found;
}

TEST_F(dxgpmo, create_contiguous_window_above_zero)
{
	static const struct {
		uint64_t length, low, high, boundary;
	} w[] = {
		{ 32 << 10, 256ULL << 20, (512ULL << 20) - 1, 0 },
		{ 2 << 20, 1ULL << 30, (3ULL << 29) - 1, 4 << 20 },
	};
	/* the windows are above where RAM starts (1 GiB on arm64 virt) */
	uint64_t ram = system_ram_start();
	struct dxgpmo_allocate_adl adl = { 0 };
	struct dxgpmo_create_pmo c;
	uint8_t buf[64], zero[64] = { 0 };
	struct dxgpmo_map m;
	unsigned int i;
	uint64_t first;

	if (!self->ad.virt)
		SKIP(return, "needs a virtual adapter (logical == physical)");
	if (!kernel_has_function("alloc_contig_range"))
		SKIP(return, "kernel without CONFIG_CONTIG_ALLOC: no window search");
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		c = (struct dxgpmo_create_pmo){
			.type = DXGPMO_PMO_TYPE_CONTIGUOUS,
			.length = w[i].length,
			.low_address = ram + w[i].low,
			.high_address = ram + w[i].high,
			.boundary = w[i].boundary,
			.adapter_id = self->ad.virt->adapter_id,
		};
		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c)) {
			TH_LOG("window %u", i);
		}
		adl = (struct dxgpmo_allocate_adl){
			.amo_id = c.amo_id, .length = w[i].length,
			.flags = DXGPMO_ADL_REQUIRE_CONTIGUOUS,
		};
		ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
		first = adl.base_page << 12;
		EXPECT_LE(ram + w[i].low, first);
		EXPECT_GE(ram + w[i].high, first + w[i].length - 1);
		if (w[i].boundary)
			EXPECT_EQ(first / w[i].boundary,
				  (first + w[i].length - 1) / w[i].boundary);
		EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
		m = (struct dxgpmo_map){
			.pmo_id = c.pmo_id, .access_mode = DXGPMO_ACCESS_KERNEL,
			.offset = w[i].length - sizeof(buf),
			.length = sizeof(buf),
		};
		ASSERT_EQ(0, dxgpmo_map(self->fd, &m));
		ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, m.map_id, 0, m.offset,
					    buf, sizeof(buf)));
		EXPECT_EQ(0, memcmp(buf, zero, sizeof(buf)));
		EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, m.address,
					  m.length));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
	}
	if (join_memcg(CGROUP_ROOT "/dxgpmo-contig-test", "max")) {
		leave_memcg(CGROUP_ROOT "/dxgpmo-contig-test");
		TH_LOG("no memory cgroup: the charged caller's case not run");
		return;
	}
	c = (struct dxgpmo_create_pmo){
		.type = DXGPMO_PMO_TYPE_CONTIGUOUS, .length = w[0].length,
		.low_address = ram + w[0].low, .high_address = ram + w[0].high,
	};
	EXPECT_EQ(-ENOMEM, dxgpmo_create_pmo(self->fd, &c));
	if (c.pmo_id)
		dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0);
	leave_memcg(CGROUP_ROOT "/dxgpmo-contig-test");
}

/* Contiguous objects are limited to one buddy block (no CMA). */
TEST_F(dxgpmo, create_contiguous_limit)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_CONTIGUOUS,
		.length = 4 << 20,
	};

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	c = (struct dxgpmo_create_pmo){
		.type = DXGPMO_PMO_TYPE_CONTIGUOUS,
		.length = (4 << 20) + 1,
	};
	EXPECT_EQ(-ENOMEM, dxgpmo_create_pmo(self->fd, &c));
}

TEST_F(dxgpmo, ids_per_file)
{
	struct dxgpmo_create_pmo c = { .length = 4096 };
	int other = dxgpmo_open();
	uint32_t old;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	/* Another file does not see this file's ids. */
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(other, c.pmo_id, 0));
	EXPECT_EQ(0, close(other));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	/* Ids are not reused right away. */
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	old = c.pmo_id;
	c = (struct dxgpmo_create_pmo){ .length = 4096 };
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	EXPECT_NE(old, c.pmo_id);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * Ids keep growing over many creates and destroys (past the file's id
 * table leaves, which the module keeps with a reserved id of its own): no
 * id comes back, and an id skipped over names nothing.
 */
TEST_F(dxgpmo, ids_grow_over_many_creates)
{
	uint32_t adapter = self->ad.all[0].adapter_id;
	uint32_t prev = 0, id, amo;
	unsigned int i, skipped = 0;

	for (i = 0; i < 200; i++) {
		struct dxgpmo_create_pmo c = { .length = 4096 };

		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
		EXPECT_LT(prev, c.pmo_id);
		for (id = prev + 1; prev && id < c.pmo_id; id++) {
			skipped++;
			EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(self->fd, id, 0));
			EXPECT_EQ(-ENOENT,
				  dxgpmo_open_pmo(self->fd, id, adapter, &amo));
		}
		prev = c.pmo_id;
		ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	}
	/*
	 * One id per xarray leaf at most is kept back: a leaf holds 64 ids
	 * (16 with CONFIG_BASE_SMALL).
	 */
	EXPECT_GE(200 / 15 + 1, skipped);
}

TEST_F(dxgpmo, wrong_handles)
{
	struct dxgpmo_create_pmo c = { .length = 4096 };
	uint32_t amo;

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, dxgpmo_open_pmo(self->fd, c.pmo_id,
				     self->ad.all[0].adapter_id, &amo));
	/* Unknown ids and id 0. */
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(self->fd, 0, 0));
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(self->fd, 999999, 0));
	EXPECT_EQ(-ENOENT, dxgpmo_close_pmo(self->fd, 0));
	EXPECT_EQ(-ENOENT, dxgpmo_close_pmo(self->fd, 999999));
	EXPECT_EQ(-ENOENT, dxgpmo_open_pmo(self->fd, 999999,
					   self->ad.all[0].adapter_id, NULL));
	EXPECT_EQ(-ENOENT, dxgpmo_open_pmo(self->fd, c.pmo_id, 0, NULL));
	EXPECT_EQ(-ENOENT, dxgpmo_open_pmo(self->fd, c.pmo_id, 250, NULL));
	/* Ids of the wrong type. */
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(self->fd, amo, 0));
	EXPECT_EQ(-ENOENT, dxgpmo_close_pmo(self->fd, c.pmo_id));
	EXPECT_EQ(-ENOENT, dxgpmo_open_pmo(self->fd, amo,
					   self->ad.all[0].adapter_id, NULL));
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.pmo_id));
	/* Nothing was changed by the failures. */
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, amo));
}

/* A __u32 member of an ioctl's struct, and a value it refuses. */
struct bad_member {
	size_t offset;
	uint32_t value;
};

#define BAD_MEMBER(type, member, bad) \
	{ offsetof(struct type, member), bad }

/*
 * The ioctl on arg with each member of bad set in turn to its bad value:
 * -EINVAL each time, and the member zero again after.
 */
static void expect_each_refused(struct __test_metadata *_metadata, int fd,
				unsigned long cmd, void *arg,
				const struct bad_member *bad, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t *member = (uint32_t *)((char *)arg + bad[i].offset);

		*member = bad[i].value;
		EXPECT_ERRNO(EINVAL, ioctl(fd, cmd, arg));
		*member = 0;
	}
}

TEST_F(dxgpmo, reserved_and_flags)
{
	static const struct bad_member open_bad[] = {
		BAD_MEMBER(dxgpmo_open_pmo, __reserved, 1),
		BAD_MEMBER(dxgpmo_open_pmo, flags, 1),
		BAD_MEMBER(dxgpmo_open_pmo, amo_id, 5),
	}, close_bad[] = {
		BAD_MEMBER(dxgpmo_close_pmo, __reserved, 1),
		BAD_MEMBER(dxgpmo_close_pmo, flags, 2),
	}, destroy_bad[] = {
		BAD_MEMBER(dxgpmo_destroy_pmo, flags, 1),
	};
	struct dxgpmo_create_pmo c = { .length = 4096 };
	struct dxgpmo_open_pmo o = { .size = sizeof(o) };
	struct dxgpmo_close_pmo cl = { .size = sizeof(cl) };
	struct dxgpmo_destroy_pmo d = { .size = sizeof(d) };
	struct dxgpmo_stats st = { .size = sizeof(st), .flags = 1 };

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	o.pmo_id = c.pmo_id;
	o.adapter_id = self->ad.all[0].adapter_id;
	expect_each_refused(_metadata, self->fd, DXGPMO_IOC_OPEN_PMO, &o,
			    open_bad, ARRAY_SIZE(open_bad));
	ASSERT_EQ(0, ioctl(self->fd, DXGPMO_IOC_OPEN_PMO, &o));

	cl.amo_id = o.amo_id;
	expect_each_refused(_metadata, self->fd, DXGPMO_IOC_CLOSE_PMO, &cl,
			    close_bad, ARRAY_SIZE(close_bad));
	ASSERT_EQ(0, ioctl(self->fd, DXGPMO_IOC_CLOSE_PMO, &cl));

	d.pmo_id = c.pmo_id;
	expect_each_refused(_metadata, self->fd, DXGPMO_IOC_DESTROY_PMO, &d,
			    destroy_bad, ARRAY_SIZE(destroy_bad));
	EXPECT_ERRNO(EINVAL, ioctl(self->fd, DXGPMO_IOC_STATS, &st));
	ASSERT_EQ(0, ioctl(self->fd, DXGPMO_IOC_DESTROY_PMO, &d));
}

/* Open -> close on every adapter in turn; reopen after close is allowed. */
TEST_F(dxgpmo, open_close_every_adapter)
{
	struct dxgpmo_create_pmo c = { .length = 3 * 4096 };
	struct dxgpmo_stats st;
	unsigned int i;
	uint32_t amo;

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	EXPECT_EQ(0, c.amo_id);
	for (i = 0; i < self->ad.nr; i++) {
		ASSERT_EQ(0, dxgpmo_open_pmo(self->fd, c.pmo_id,
					     self->ad.all[i].adapter_id,
					     &amo));
		EXPECT_NE(0, amo);
		EXPECT_NE(c.pmo_id, amo);
		ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
		EXPECT_EQ(1, st.file.amos);
		EXPECT_EQ(0, dxgpmo_close_pmo(self->fd, amo));
		EXPECT_EQ(-ENOENT, dxgpmo_close_pmo(self->fd, amo));
	}
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, st.file.amos);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * A second OPEN while associated fails on every adapter: an object has at
 * most one adapter memory object at a time.
 */
TEST_F(dxgpmo, second_open_busy)
{
	unsigned int i, j;

	for (i = 0; i < self->ad.nr; i++) {
		struct dxgpmo_create_pmo c = {
			.length = 4096,
			.adapter_id = self->ad.all[i].adapter_id,
		};
		struct dxgpmo_create_pmo plain = { .length = 4096 };
		uint32_t amo;

		/* Associated by CREATE with an adapter. */
		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
		ASSERT_NE(0, c.amo_id);
		for (j = 0; j < self->ad.nr; j++)
			EXPECT_EQ(-EBUSY,
				  dxgpmo_open_pmo(self->fd, c.pmo_id,
						  self->ad.all[j].adapter_id,
						  NULL));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));

		/* Associated by an earlier OPEN. */
		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &plain));
		ASSERT_EQ(0, dxgpmo_open_pmo(self->fd, plain.pmo_id,
					     self->ad.all[i].adapter_id,
					     &amo));
		for (j = 0; j < self->ad.nr; j++)
			EXPECT_EQ(-EBUSY,
				  dxgpmo_open_pmo(self->fd, plain.pmo_id,
						  self->ad.all[j].adapter_id,
						  NULL));
		EXPECT_EQ(0, dxgpmo_close_pmo(self->fd, amo));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, plain.pmo_id, 0));
	}
}

TEST_F(dxgpmo, destroy_with_amo_then_close)
{
	struct dxgpmo_create_pmo c = {
		.length = 4096, .adapter_id = self->ad.all[0].adapter_id,
	};
	struct dxgpmo_create_pmo other = { .length = 4096 };
	uint32_t other_amo;

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &other));
	ASSERT_EQ(0, dxgpmo_open_pmo(self->fd, other.pmo_id,
				     self->ad.all[0].adapter_id, &other_amo));

	/* The AMO is open: destroy must name it. */
	EXPECT_EQ(-EBUSY, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	/* Another object's AMO is not this object's. */
	EXPECT_EQ(-EINVAL, dxgpmo_destroy_pmo(self->fd, c.pmo_id, other_amo));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
	/* Destroy closed it: closing again is an error, not a crash. */
	EXPECT_EQ(-ENOENT, dxgpmo_close_pmo(self->fd, c.amo_id));
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));

	EXPECT_EQ(0, dxgpmo_close_pmo(self->fd, other_amo));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, other.pmo_id, 0));
}

/* Closing the file with objects alive releases everything and counts it. */
TEST_F(dxgpmo, close_file_releases)
{
	struct dxgpmo_stats before, after;
	int fd2 = open_second_file(_metadata, self->fd, &before);
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct dxgpmo_create_pmo c = {
			.length = (i + 1) << 20,
			.adapter_id = i % 2 ? self->ad.all[0].adapter_id : 0,
		};

		ASSERT_EQ(0, dxgpmo_create_pmo(fd2, &c));
	}
	ASSERT_EQ(0, dxgpmo_get_stats(fd2, &after));
	EXPECT_EQ(4, after.file.pmos);
	EXPECT_EQ(2, after.file.amos);
	EXPECT_EQ(10 << 8, after.file.pages);
	close_second_file(_metadata, self->fd, fd2, &after);
	EXPECT_EQ(before.global.leaked_objects + 6,
		  after.global.leaked_objects);
}

/* A process killed with objects alive leaks nothing. */
TEST_F(dxgpmo, killed_child_leaks_nothing)
{
	struct dxgpmo_stats st;
	int pipefd[2];
	char byte;
	pid_t pid;
	int status;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = dxgpmo_open();
		unsigned int i;

		if (fd < 0)
			_exit(1);
		for (i = 0; i < 8; i++) {
			struct dxgpmo_create_pmo c = {
				.length = 256 << 10,
				.type = i % 2,
				.adapter_id = i % 3 ? 0 :
					self->ad.all[i % self->ad.nr]
						.adapter_id,
			};

			if (dxgpmo_create_pmo(fd, &c))
				_exit(2);
		}
		if (write(pipefd[1], "x", 1) != 1)
			_exit(3);
		pause();
		_exit(4);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &byte, 1));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(8, st.global.pmos);
	EXPECT_EQ(8 * 64, st.global.pages);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	close(pipefd[0]);
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, dxgpmo_counters_live(&st.global));
}

/*
 * Create/destroy for every type x cache type x size.  Variants are the
 * sizes; each test walks the types and cache types.
 */
FIXTURE_DXGPMO(pmo_sizes, 0)

FIXTURE_VARIANT(pmo_sizes) {
	uint64_t length;
};

FIXTURE_VARIANT_ADD(pmo_sizes, one_byte) { .length = 1 };
FIXTURE_VARIANT_ADD(pmo_sizes, one_page) { .length = 4096 };
FIXTURE_VARIANT_ADD(pmo_sizes, three_pages) { .length = 3 * 4096 };
FIXTURE_VARIANT_ADD(pmo_sizes, seventeen_pages_minus_one) {
	.length = 17 * 4096 - 1
};

FIXTURE_VARIANT_ADD(pmo_sizes, one_mib_plus_one) { .length = (1 << 20) + 1 };
FIXTURE_VARIANT_ADD(pmo_sizes, two_mib_plus_page) {
	.length = (2 << 20) + 4096
};

FIXTURE_VARIANT_ADD(pmo_sizes, sixty_four_mib) { .length = 64 << 20 };

static int contiguous_fits(uint64_t length)
{
	return length <= (4 << 20);
}

TEST_F(pmo_sizes, create_destroy)
{
	uint64_t pages = (variant->length + 4095) / 4096;
	uint32_t type, cache;

	for (type = DXGPMO_PMO_TYPE_MDL; type <= DXGPMO_PMO_TYPE_SECTION;
	     type++) {
		for (cache = 0; cache <= DXGPMO_CACHE_WRITE_COMBINED; cache++) {
			struct dxgpmo_create_pmo c = {
				.type = type,
				.cache_type = cache,
				.length = variant->length,
				.context = 0xc0ffee00 + cache,
				.page_protection = rw_protection(type),
			};
			struct dxgpmo_stats st;
			int ret = dxgpmo_create_pmo(self->fd, &c);

			if (type == DXGPMO_PMO_TYPE_CONTIGUOUS &&
			    !contiguous_fits(variant->length)) {
				EXPECT_EQ(-ENOMEM, ret);
				continue;
			}
			if (type == DXGPMO_PMO_TYPE_SECTION &&
			    cache == DXGPMO_CACHE_NON_CACHED) {
				EXPECT_EQ(-EINVAL, ret);
				continue;
			}
			ASSERT_EQ(0, ret) {
				TH_LOG("type %u cache %u", type, cache);
			}
			EXPECT_NE(0, c.pmo_id);
			EXPECT_EQ(0, c.amo_id);
			EXPECT_LE(1ULL << 44, c.mmap_offset);
			EXPECT_EQ(0, c.mmap_offset % 4096);
			ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
			EXPECT_EQ(1, st.file.pmos);
			EXPECT_EQ(pages, st.file.pages);
			EXPECT_EQ(pages, st.global.pages);
			ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
			ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
			EXPECT_EQ(0, st.file.pages);
		}
	}
}

TEST_F(pmo_sizes, create_with_each_adapter)
{
	uint32_t type;
	unsigned int i;

	for (type = DXGPMO_PMO_TYPE_MDL; type <= DXGPMO_PMO_TYPE_CONTIGUOUS;
	     type++) {
		if (type == DXGPMO_PMO_TYPE_CONTIGUOUS &&
		    !contiguous_fits(variant->length))
			continue;
		for (i = 0; i < self->ad.nr; i++) {
			struct dxgpmo_create_pmo c = {
				.type = type,
				.cache_type = DXGPMO_CACHE_WRITE_COMBINED,
				.length = variant->length,
				.adapter_id = self->ad.all[i].adapter_id,
			};
			struct dxgpmo_stats st;

			ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
			EXPECT_NE(0, c.amo_id);
			ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
			EXPECT_EQ(1, st.file.amos);
			ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id,
							c.amo_id));
		}
	}
}

/* Two objects never share an mmap window. */
TEST_F(pmo_sizes, mmap_windows_disjoint)
{
	struct dxgpmo_create_pmo a = { .length = variant->length };
	struct dxgpmo_create_pmo b = { .length = variant->length };
	uint64_t span = (variant->length + 4095) & ~4095ULL;

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &a));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &b));
	EXPECT_TRUE(a.mmap_offset + span <= b.mmap_offset ||
		    b.mmap_offset + span <= a.mmap_offset);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, a.pmo_id, 0));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, b.pmo_id, 0));
}

TEST_HARNESS_MAIN
