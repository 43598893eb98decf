// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: address descriptor lists without a device.  What ALLOCATE_ADL
 * accepts, which chunk of an object a page is in (the ADL's scatterlist
 * has one entry a chunk), the logical page list made from the DMA side of
 * a mapped table, the runs in it, when an ADL is reported as one run, and
 * the cache maintenance its mapping asks for.
 */
#include <kunit/test.h>
#include <linux/dma-direction.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/scatterlist.h>

#include "../adl.h"
#include "../backing.h"
#include "../backing_chunks.h"
#include "dxgpmo.h"
#include "kunit.h"

void dxgpmo_address_runs_test(struct kunit *test)
{
	static const u64 one_run[] = { 5, 6, 7, 8 };
	static const u64 gaps[] = { 5, 6, 8, 9, 11 };
	static const u64 backwards[] = { 7, 6 };
	static const u64 same[] = { 3, 3 };
	static const u64 pages[] = { 0x1000, 0x2000, 0x4000, 0x5000 };
	static const u64 top[] = { U64_MAX - 2, U64_MAX - 1, U64_MAX };

	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(one_run, 0, 1), 0U);
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(one_run, 1, 1), 1U);
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(one_run, 4, 1), 1U);
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(gaps, 5, 1), 3U);
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(gaps, 2, 1), 1U);
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(backwards, 2, 1), 2U);
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(same, 2, 1), 2U);
	/* Physical addresses, a page apart. */
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(pages, 4, PAGE_SIZE), 2U);
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(pages, 4, 1), 4U);
	KUNIT_EXPECT_EQ(test, dxgpmo_address_runs(top, 3, 1), 1U);
}

static void dxgpmo_adl_cmd(struct dxgpmo_allocate_adl *cmd, u64 offset,
			   u64 length)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->offset = offset;
	cmd->length = length;
}

void dxgpmo_adl_check_test(struct kunit *test)
{
	struct dxgpmo_allocate_adl cmd;

	dxgpmo_adl_cmd(&cmd, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), 0);
	cmd.flags = DXGPMO_ADL_REQUIRE_CONTIGUOUS | DXGPMO_ADL_PREFER_CONTIGUOUS;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), 0);
	cmd.flags = 1U << 2;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);

	/* Whole pages, at least one. */
	dxgpmo_adl_cmd(&cmd, 0, 0);
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);
	dxgpmo_adl_cmd(&cmd, 0, PAGE_SIZE - 1);
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);
	dxgpmo_adl_cmd(&cmd, 1, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);
	dxgpmo_adl_cmd(&cmd, PAGE_SIZE, 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), 0);

	/* The range must not wrap past 2^64; it may end just below. */
	dxgpmo_adl_cmd(&cmd, U64_MAX - 2 * PAGE_SIZE + 1, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), 0);
	dxgpmo_adl_cmd(&cmd, U64_MAX - PAGE_SIZE + 1, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);
	dxgpmo_adl_cmd(&cmd, PAGE_SIZE, U64_MAX - PAGE_SIZE + 1);
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);

	/* Output fields are zero on the way in. */
	dxgpmo_adl_cmd(&cmd, 0, PAGE_SIZE);
	cmd.page_count = 1;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);
	dxgpmo_adl_cmd(&cmd, 0, PAGE_SIZE);
	cmd.base_page = 1;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);
	dxgpmo_adl_cmd(&cmd, 0, PAGE_SIZE);
	cmd.adl_flags = DXGPMO_ADL_CONTIGUOUS;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);

	/* A page list and its capacity come together. */
	dxgpmo_adl_cmd(&cmd, 0, PAGE_SIZE);
	cmd.pages = 0x1000;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);
	cmd.pages_capacity = 1;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), 0);
	cmd.pages = 0;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_check(&cmd), -EINVAL);
}

void dxgpmo_chunk_of_test(struct kunit *test)
{
	static const unsigned int sizes[] = { 4, 1, 8, 3 };
	struct dxgpmo_backing *backing;
	unsigned long first = 0;
	unsigned int i;

	backing = kunit_kzalloc(test, struct_size(backing, chunks, 4),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, backing);
	backing->nr_chunks = 1;
	backing->chunks[0].nr_pages = 16;
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 0), 0U);
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 15), 0U);

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		backing->chunks[i].first = first;
		backing->chunks[i].nr_pages = sizes[i];
		first += sizes[i];
	}
	backing->nr_chunks = ARRAY_SIZE(sizes);
	backing->nr_pages = first;
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 0), 0U);
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 3), 0U);
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 4), 1U);
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 5), 2U);
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 12), 2U);
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 13), 3U);
	KUNIT_EXPECT_EQ(test, dxgpmo_chunk_of(backing, 15), 3U);
}

/* A mapped table's DMA side as the IOMMU or dma-direct left it. */
static struct sg_table *dxgpmo_dma_table(struct kunit *test,
					 const u64 *addr, const u32 *len,
					 unsigned int nents,
					 unsigned int orig_nents)
{
	struct sg_table *sgt;
	struct scatterlist *sg;
	unsigned int i;

	sgt = kunit_kzalloc(test, sizeof(*sgt), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sgt);
	sgt->sgl = kunit_kcalloc(test, orig_nents, sizeof(*sgt->sgl),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sgt->sgl);
	sg_init_table(sgt->sgl, orig_nents);
	sgt->orig_nents = orig_nents;
	sgt->nents = nents;
	for_each_sg(sgt->sgl, sg, nents, i) {
		sg_dma_address(sg) = addr[i];
		sg_dma_len(sg) = len[i];
	}
	return sgt;
}

void dxgpmo_adl_fill_test(struct kunit *test)
{
	static const u64 addr[] = { 0x10000, 0x50000, 0x90000 };
	static const u32 len[] = { 2 * PAGE_SIZE, PAGE_SIZE + 1, PAGE_SIZE };
	u64 want[] = { 0x10000 >> PAGE_SHIFT, (0x10000 >> PAGE_SHIFT) + 1,
		       0x50000 >> PAGE_SHIFT, (0x50000 >> PAGE_SHIFT) + 1,
		       0x90000 >> PAGE_SHIFT };
	struct sg_table *sgt;
	u64 logical[6];
	unsigned int i;

	/* A segment's partial last page is a page of the list. */
	sgt = dxgpmo_dma_table(test, addr, len, 3, 3);
	memset(logical, 0xff, sizeof(logical));
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_fill(sgt, 5, logical), 5UL);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_EQ(test, logical[i], want[i]);
	KUNIT_EXPECT_EQ(test, logical[5], U64_MAX);

	/* Only the segments the mapping made (an IOMMU merges entries). */
	sgt = dxgpmo_dma_table(test, addr, len, 2, 3);
	memset(logical, 0xff, sizeof(logical));
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_fill(sgt, 5, logical), 4UL);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, logical[i], want[i]);
	KUNIT_EXPECT_EQ(test, logical[4], U64_MAX);
}

void dxgpmo_adl_contiguity_test(struct kunit *test)
{
	static const u64 run[] = { 10, 11, 12 };
	static const u64 split[] = { 10, 12 };
	static const u64 single[] = { 42 };
	struct dxgpmo_allocate_adl cmd;

	memset(&cmd, 0, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_contiguity(&cmd, run, 3), 0);
	KUNIT_EXPECT_EQ(test, cmd.adl_flags, DXGPMO_ADL_CONTIGUOUS);
	KUNIT_EXPECT_EQ(test, cmd.base_page, 10ULL);

	memset(&cmd, 0, sizeof(cmd));
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_contiguity(&cmd, single, 1), 0);
	KUNIT_EXPECT_EQ(test, cmd.adl_flags, DXGPMO_ADL_CONTIGUOUS);
	KUNIT_EXPECT_EQ(test, cmd.base_page, 42ULL);

	/* Two runs: not reported as one, and no base page. */
	memset(&cmd, 0, sizeof(cmd));
	cmd.flags = DXGPMO_ADL_PREFER_CONTIGUOUS;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_contiguity(&cmd, split, 2), 0);
	KUNIT_EXPECT_EQ(test, cmd.adl_flags, 0U);
	KUNIT_EXPECT_EQ(test, cmd.base_page, 0ULL);
	cmd.flags = DXGPMO_ADL_REQUIRE_CONTIGUOUS;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_contiguity(&cmd, split, 2), -ENOMEM);
	cmd.flags = DXGPMO_ADL_REQUIRE_CONTIGUOUS;
	KUNIT_EXPECT_EQ(test, dxgpmo_adl_contiguity(&cmd, run, 3), 0);
}

/*
 * The cache maintenance an ADL asks of the DMA API on a device that does
 * not snoop the CPU's caches (the steps are the same on a coherent one,
 * where the DMA API makes them no-ops).  At unmap a CPU write made through
 * a cacheable view while the ADL lived is cleaned before the invalidate
 * that lets the CPU read what the device wrote; a read-only object has
 * nothing to give back; a virtual adapter, no device, asks for nothing.
 */
void dxgpmo_adl_cache_maintenance_test(struct kunit *test)
{
	struct dxgpmo_dma_sync steps[DXGPMO_DMA_SYNC_STEPS];
	struct dxgpmo_dma_map m = { .dir = DMA_BIDIRECTIONAL };

	KUNIT_ASSERT_EQ(test, dxgpmo_dma_map_syncs(&m, false, steps), 1U);
	KUNIT_EXPECT_FALSE(test, steps[0].for_cpu);
	KUNIT_EXPECT_EQ(test, steps[0].dir, DMA_BIDIRECTIONAL);

	KUNIT_ASSERT_EQ(test, dxgpmo_dma_map_syncs(&m, true, steps), 2U);
	KUNIT_EXPECT_FALSE(test, steps[0].for_cpu);
	KUNIT_EXPECT_EQ(test, steps[0].dir, DMA_TO_DEVICE);
	KUNIT_EXPECT_TRUE(test, steps[1].for_cpu);
	KUNIT_EXPECT_EQ(test, steps[1].dir, DMA_BIDIRECTIONAL);

	m.dir = DMA_TO_DEVICE;
	KUNIT_ASSERT_EQ(test, dxgpmo_dma_map_syncs(&m, false, steps), 1U);
	KUNIT_EXPECT_FALSE(test, steps[0].for_cpu);
	KUNIT_EXPECT_EQ(test, steps[0].dir, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, dxgpmo_dma_map_syncs(&m, true, steps), 0U);

	m.cpu_only = true;
	m.dir = DMA_BIDIRECTIONAL;
	KUNIT_EXPECT_EQ(test, dxgpmo_dma_map_syncs(&m, false, steps), 0U);
	KUNIT_EXPECT_EQ(test, dxgpmo_dma_map_syncs(&m, true, steps), 0U);
}
