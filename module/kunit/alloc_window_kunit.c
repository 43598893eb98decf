// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: allocation windows and boundaries of MDL and CONTIGUOUS objects
 * (MmAllocatePagesForMdlEx's and MmAllocateContiguousMemorySpecifyCache's
 * LowAddress, HighAddress and BoundaryAddressMultiple): what CREATE_PMO
 * accepts, what an adapter without an IOMMU reaches, which windows an
 * opener who may not see physical addresses may ask for, and whether a
 * block of pages fits.
 */
#include <kunit/test.h>
#include <linux/dma-mapping.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/sizes.h>

#include "../adapter.h"
#include "../backing.h"
#include "../backing_chunks.h"
#include "dxgpmo.h"
#include "../pmo.h"
#include "../privilege.h"
#include "kunit.h"

/* The largest length CREATE_PMO takes: its pages end at 2^64. */
#define LARGEST		(U64_MAX - PAGE_SIZE + 1)
#define LARGEST_PAGES	(LARGEST >> PAGE_SHIFT)

void dxgpmo_window_holds_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_holds(0, PAGE_SIZE - 1, 1));
	KUNIT_EXPECT_FALSE(test, dxgpmo_window_holds(0, PAGE_SIZE - 2, 1));
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_holds(1, PAGE_SIZE, 1));
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_holds(0, 2 * PAGE_SIZE - 1, 2));
	KUNIT_EXPECT_FALSE(test, dxgpmo_window_holds(1, 2 * PAGE_SIZE - 1, 2));
	/* An empty window, however small the object. */
	KUNIT_EXPECT_FALSE(test, dxgpmo_window_holds(PAGE_SIZE, 0, 1));
	/* The whole address space, and the largest object in it. */
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_holds(0, U64_MAX, 1));
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_holds(0, U64_MAX, LARGEST_PAGES));
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_holds(PAGE_SIZE, U64_MAX,
						    LARGEST_PAGES));
	KUNIT_EXPECT_FALSE(test, dxgpmo_window_holds(PAGE_SIZE + 1, U64_MAX,
						     LARGEST_PAGES));
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_holds(U64_MAX - PAGE_SIZE + 1,
						    U64_MAX, 1));
}

static void dxgpmo_create_mdl(struct dxgpmo_create_pmo *cmd, u64 length)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->type = DXGPMO_PMO_TYPE_MDL;
	cmd->cache_type = DXGPMO_CACHE_CACHED;
	cmd->length = length;
}

static int dxgpmo_request(struct dxgpmo_create_pmo *cmd,
			  struct dxgpmo_alloc_request *req)
{
	memset(req, 0, sizeof(*req));
	return dxgpmo_create_request(cmd, req);
}

void dxgpmo_create_length_test(struct kunit *test)
{
	struct dxgpmo_alloc_request req;
	struct dxgpmo_create_pmo cmd;

	dxgpmo_create_mdl(&cmd, 0);
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);

	/* A partial page is a whole one. */
	dxgpmo_create_mdl(&cmd, 1);
	KUNIT_ASSERT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	KUNIT_EXPECT_EQ(test, req.nr_pages, 1UL);
	dxgpmo_create_mdl(&cmd, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	KUNIT_EXPECT_EQ(test, req.nr_pages, 1UL);
	dxgpmo_create_mdl(&cmd, PAGE_SIZE + 1);
	KUNIT_ASSERT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	KUNIT_EXPECT_EQ(test, req.nr_pages, 2UL);

	/* Rounded up, the length must not wrap past 2^64. */
	dxgpmo_create_mdl(&cmd, LARGEST);
	KUNIT_ASSERT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	KUNIT_EXPECT_EQ(test, (u64)req.nr_pages, LARGEST_PAGES);
	dxgpmo_create_mdl(&cmd, LARGEST + 1);
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
	dxgpmo_create_mdl(&cmd, U64_MAX);
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
}

void dxgpmo_create_window_test(struct kunit *test)
{
	struct dxgpmo_alloc_request req;
	struct dxgpmo_create_pmo cmd;

	/* No HighAddress: no limit. */
	dxgpmo_create_mdl(&cmd, PAGE_SIZE);
	cmd.low_address = PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	KUNIT_EXPECT_EQ(test, req.low, (u64)PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, req.high, U64_MAX);

	/* High is inclusive: two pages need 2 * PAGE_SIZE - 1 above low. */
	dxgpmo_create_mdl(&cmd, PAGE_SIZE + 1);
	cmd.high_address = 2 * PAGE_SIZE - 1;
	KUNIT_ASSERT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	KUNIT_EXPECT_EQ(test, req.high, (u64)(2 * PAGE_SIZE - 1));
	cmd.high_address = 2 * PAGE_SIZE - 2;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
	cmd.low_address = 1;
	cmd.high_address = 2 * PAGE_SIZE - 1;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);

	/* Low above high. */
	dxgpmo_create_mdl(&cmd, PAGE_SIZE);
	cmd.low_address = 2 * PAGE_SIZE;
	cmd.high_address = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);

	/* The window that ends at 2^64 holds the largest object, just. */
	dxgpmo_create_mdl(&cmd, LARGEST);
	cmd.high_address = U64_MAX;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	cmd.low_address = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	cmd.low_address = PAGE_SIZE + 1;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);

	/* Only MDL and CONTIGUOUS objects have a window. */
	dxgpmo_create_mdl(&cmd, PAGE_SIZE);
	cmd.type = DXGPMO_PMO_TYPE_SECTION;
	cmd.page_protection = DXGPMO_PAGE_READWRITE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	cmd.high_address = U64_MAX;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
	cmd.high_address = 0;
	cmd.low_address = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
}

void dxgpmo_create_boundary_test(struct kunit *test)
{
	struct dxgpmo_alloc_request req;
	struct dxgpmo_create_pmo cmd;

	dxgpmo_create_mdl(&cmd, 2 * PAGE_SIZE);
	cmd.type = DXGPMO_PMO_TYPE_CONTIGUOUS;
	cmd.boundary = 2 * PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	KUNIT_EXPECT_EQ(test, req.boundary, (u64)(2 * PAGE_SIZE));
	/* No room between two boundaries for the object. */
	cmd.boundary = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
	cmd.length = 2 * PAGE_SIZE + 1;
	cmd.boundary = 2 * PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
	/* A boundary is whole pages; it need not be a power of two. */
	cmd.length = PAGE_SIZE;
	cmd.boundary = PAGE_SIZE + 1;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
	cmd.boundary = 3 * PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), 0);

	/* Only CONTIGUOUS objects have one; only MDL ones skip bytes. */
	cmd.type = DXGPMO_PMO_TYPE_MDL;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
	cmd.boundary = 0;
	cmd.skip_bytes = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), 0);
	cmd.skip_bytes = PAGE_SIZE / 2;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
	cmd.type = DXGPMO_PMO_TYPE_CONTIGUOUS;
	cmd.skip_bytes = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, dxgpmo_request(&cmd, &req), -EINVAL);
}

void dxgpmo_window_reach_test(struct kunit *test)
{
	struct dxgpmo_alloc_request req = {
		.type = DXGPMO_PMO_TYPE_MDL,
		.nr_pages = 2,
		.high = U64_MAX,
	};
	struct dxgpmo_adapter *adapter;

	adapter = kunit_kzalloc(test, sizeof(*adapter), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, adapter);
	adapter->dma_mask = DMA_BIT_MASK(32);

	/* A device without an IOMMU reaches what its mask covers. */
	KUNIT_EXPECT_EQ(test, dxgpmo_window_within_reach(&req, adapter), 0);
	KUNIT_EXPECT_EQ(test, req.high, DMA_BIT_MASK(32));
	req.low = DMA_BIT_MASK(32) + 1 - 2 * PAGE_SIZE;
	req.high = U64_MAX;
	KUNIT_EXPECT_EQ(test, dxgpmo_window_within_reach(&req, adapter), 0);
	req.nr_pages = 3;
	req.high = U64_MAX;
	KUNIT_EXPECT_EQ(test, dxgpmo_window_within_reach(&req, adapter),
			-ENOMEM);
	/* A window wholly above the mask. */
	req.nr_pages = 1;
	req.low = DMA_BIT_MASK(32) + 1;
	req.high = U64_MAX;
	KUNIT_EXPECT_EQ(test, dxgpmo_window_within_reach(&req, adapter),
			-ENOMEM);
	/* A narrower window stays as it was. */
	req.low = 0;
	req.high = DMA_BIT_MASK(24);
	KUNIT_EXPECT_EQ(test, dxgpmo_window_within_reach(&req, adapter), 0);
	KUNIT_EXPECT_EQ(test, req.high, DMA_BIT_MASK(24));

	/* Behind an IOMMU any page is reachable. */
	adapter->caps = DXGPMO_ADAPTER_CAP_IOMMU;
	req.low = DMA_BIT_MASK(32) + 1;
	req.high = U64_MAX;
	KUNIT_EXPECT_EQ(test, dxgpmo_window_within_reach(&req, adapter), 0);
	KUNIT_EXPECT_EQ(test, req.high, U64_MAX);

	/* Sections are refused at ADL time instead. */
	adapter->caps = 0;
	req.type = DXGPMO_PMO_TYPE_SECTION;
	KUNIT_EXPECT_EQ(test, dxgpmo_window_within_reach(&req, adapter), 0);
	KUNIT_EXPECT_EQ(test, req.high, U64_MAX);
}

void dxgpmo_window_device_like_test(struct kunit *test)
{
	/* What devices ask for: no window, a DMA mask, a 2^n boundary. */
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_is_device_like(0, 0, 0));
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_is_device_like(0, U64_MAX, 0));
	KUNIT_EXPECT_TRUE(test,
			  dxgpmo_window_is_device_like(0, DMA_BIT_MASK(24), 0));
	KUNIT_EXPECT_TRUE(test,
			  dxgpmo_window_is_device_like(0, DMA_BIT_MASK(32), 0));
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_is_device_like(0, 0, SZ_64K));
	KUNIT_EXPECT_TRUE(test, dxgpmo_window_is_device_like(0, U64_MAX,
							     1ULL << 63));
	/* What bisects physical memory. */
	KUNIT_EXPECT_FALSE(test, dxgpmo_window_is_device_like(PAGE_SIZE, 0, 0));
	KUNIT_EXPECT_FALSE(test, dxgpmo_window_is_device_like(1, U64_MAX, 0));
	KUNIT_EXPECT_FALSE(test,
			   dxgpmo_window_is_device_like(0, DMA_BIT_MASK(32) - 1,
							0));
	KUNIT_EXPECT_FALSE(test,
			   dxgpmo_window_is_device_like(0, DMA_BIT_MASK(32) + 1,
							0));
	KUNIT_EXPECT_FALSE(test, dxgpmo_window_is_device_like(0, U64_MAX - 1,
							      0));
	KUNIT_EXPECT_FALSE(test, dxgpmo_window_is_device_like(0, 0,
							      3 * PAGE_SIZE));
}

void dxgpmo_phys_fits_test(struct kunit *test)
{
	struct dxgpmo_alloc_request req = {
		.low = PAGE_SIZE,
		.high = 4 * PAGE_SIZE - 1,
	};

	KUNIT_EXPECT_TRUE(test, dxgpmo_phys_fits(PAGE_SIZE, 3, &req));
	KUNIT_EXPECT_FALSE(test, dxgpmo_phys_fits(PAGE_SIZE, 4, &req));
	KUNIT_EXPECT_FALSE(test, dxgpmo_phys_fits(0, 1, &req));
	KUNIT_EXPECT_TRUE(test, dxgpmo_phys_fits(3 * PAGE_SIZE, 1, &req));
	KUNIT_EXPECT_FALSE(test, dxgpmo_phys_fits(4 * PAGE_SIZE, 1, &req));

	/* A block may end on a boundary, not cross it. */
	req.low = 0;
	req.high = U64_MAX;
	req.boundary = 4 * PAGE_SIZE;
	KUNIT_EXPECT_TRUE(test, dxgpmo_phys_fits(2 * PAGE_SIZE, 2, &req));
	KUNIT_EXPECT_FALSE(test, dxgpmo_phys_fits(3 * PAGE_SIZE, 2, &req));
	KUNIT_EXPECT_TRUE(test, dxgpmo_phys_fits(4 * PAGE_SIZE, 4, &req));
	KUNIT_EXPECT_FALSE(test, dxgpmo_phys_fits(4 * PAGE_SIZE, 5, &req));
	/* Multiples of a boundary that is not a power of two. */
	req.boundary = 3 * PAGE_SIZE;
	KUNIT_EXPECT_FALSE(test, dxgpmo_phys_fits(2 * PAGE_SIZE, 2, &req));
	KUNIT_EXPECT_TRUE(test, dxgpmo_phys_fits(3 * PAGE_SIZE, 3, &req));
	KUNIT_EXPECT_FALSE(test, dxgpmo_phys_fits(4 * PAGE_SIZE, 3, &req));

	/* The last page below 2^64. */
	req.boundary = 0;
	KUNIT_EXPECT_TRUE(test, dxgpmo_phys_fits(U64_MAX - PAGE_SIZE + 1, 1,
						 &req));
}
