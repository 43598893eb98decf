// SPDX-License-Identifier: GPL-2.0
/*
 * Pages for physical memory objects.
 *
 * MDL objects (MmAllocatePagesForMdlEx): any pages inside [low, high].  The
 * largest orders are tried first without reclaim, like the dma-buf system
 * heap, so big objects become few large chunks (one scatterlist entry and
 * one IOVA run each) while order 0 remains the reliable fallback.  An
 * order that failed once is not retried for the same object.
 *
 * CONTIGUOUS objects (MmAllocateContiguousMemorySpecifyCache): one buddy
 * block of the smallest order that holds the object, the tail beyond the
 * object given back.  Without CMA (off in Debian's kernels) that limits an
 * object to 1 << DXGPMO_MAX_ORDER pages.
 *
 * The page allocator cannot be asked for "pages between low and high", so
 * the zone is chosen from high (ZONE_DMA, ZONE_DMA32, any) and every block is
 * checked; blocks outside the window are held until the allocation ends so
 * they are not handed back to us, up to a bound, then -ENOMEM.
 *
 * Always zeroed, charged to the caller's memory cgroup, and never reclaiming
 * so hard that the OOM killer runs on behalf of a user request.
 */
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "internal.h"

#define DXGPMO_GFP_BASE		(GFP_USER | __GFP_ZERO | __GFP_ACCOUNT | \
				 __GFP_NOWARN)
#define DXGPMO_GFP_HIGH_ORDER	((DXGPMO_GFP_BASE | __GFP_NORETRY | \
				  __GFP_COMP) & ~__GFP_RECLAIM)
#define DXGPMO_GFP_LOW_ORDER	(DXGPMO_GFP_BASE | __GFP_RETRY_MAYFAIL)

/* 2 MiB (a PMD), 64 KiB, 4 KiB: sizes IOMMUs and page tables map whole. */
static const unsigned int dxgpmo_orders[] = { 9, 4, 0 };

/* Blocks outside the window held back at most, in pages (64 MiB). */
#define DXGPMO_MAX_REJECTED_PAGES	(64UL << (20 - PAGE_SHIFT))

static gfp_t dxgpmo_window_zone(u64 high)
{
	if (IS_ENABLED(CONFIG_ZONE_DMA) && high < DMA_BIT_MASK(24))
		return GFP_DMA;
	if (IS_ENABLED(CONFIG_ZONE_DMA32) && high <= DMA_BIT_MASK(32))
		return GFP_DMA32;
	return 0;
}

static bool dxgpmo_block_fits(struct page *page, unsigned long nr_pages,
			      const struct dxgpmo_alloc_request *req)
{
	u64 start = page_to_phys(page);
	u64 last = start + ((u64)nr_pages << PAGE_SHIFT) - 1;

	if (start < req->low || last > req->high)
		return false;
	if (req->boundary && div64_u64(start, req->boundary) !=
			     div64_u64(last, req->boundary))
		return false;
	return true;
}

static void dxgpmo_free_block_list(struct list_head *list)
{
	struct page *page, *tmp;

	list_for_each_entry_safe(page, tmp, list, lru) {
		list_del(&page->lru);
		__free_pages(page, compound_order(page));
	}
}

static void dxgpmo_chunk_free(struct dxgpmo_chunk *chunk)
{
	unsigned int i;

	if (chunk->compound) {
		__free_pages(chunk->page, compound_order(chunk->page));
		return;
	}
	for (i = 0; i < chunk->nr_pages; i++)
		__free_page(chunk->page + i);
}

static struct dxgpmo_backing *dxgpmo_backing_new(unsigned int nr_chunks,
						 const struct dxgpmo_alloc_request *req)
{
	struct dxgpmo_backing *backing;

	backing = kvzalloc(struct_size(backing, chunks, nr_chunks),
			   GFP_KERNEL_ACCOUNT);
	if (!backing)
		return NULL;
	kref_init(&backing->kref);
	backing->nr_pages = req->nr_pages;
	backing->nr_chunks = nr_chunks;
	backing->type = req->type;
	backing->cache_type = req->cache_type;
	return backing;
}

static struct dxgpmo_backing *
dxgpmo_alloc_mdl(struct dxgpmo_file *file,
		 const struct dxgpmo_alloc_request *req)
{
	gfp_t zone = dxgpmo_window_zone(req->high);
	unsigned long remaining = req->nr_pages;
	unsigned long rejected_pages = 0;
	struct dxgpmo_backing *backing;
	unsigned int nr_chunks = 0;
	unsigned int first_order = 0;
	LIST_HEAD(rejected);
	LIST_HEAD(blocks);
	struct page *page;
	unsigned int i;
	int ret = -ENOMEM;

	while (remaining) {
		unsigned int order = 0;

		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto err_free;
		}
		page = NULL;
		for (i = first_order; i < ARRAY_SIZE(dxgpmo_orders); i++) {
			order = dxgpmo_orders[i];
			if (remaining < (1UL << order))
				continue;
			page = alloc_pages(zone | (order ? DXGPMO_GFP_HIGH_ORDER :
						   DXGPMO_GFP_LOW_ORDER),
					   order);
			if (page)
				break;
			first_order = i + 1;
		}
		if (!page)
			goto err_free;
		if (!dxgpmo_block_fits(page, 1UL << order, req)) {
			list_add(&page->lru, &rejected);
			rejected_pages += 1UL << order;
			if (rejected_pages > DXGPMO_MAX_REJECTED_PAGES)
				goto err_free;
			continue;
		}
		list_add_tail(&page->lru, &blocks);
		remaining -= 1UL << order;
		nr_chunks++;
		cond_resched();
	}
	dxgpmo_free_block_list(&rejected);

	backing = dxgpmo_backing_new(nr_chunks, req);
	if (!backing)
		goto err_free;
	i = 0;
	list_for_each_entry(page, &blocks, lru) {
		backing->chunks[i].page = page;
		backing->chunks[i].nr_pages = 1U << compound_order(page);
		backing->chunks[i].compound = compound_order(page) > 0;
		i++;
	}
	return backing;

err_free:
	dxgpmo_free_block_list(&rejected);
	dxgpmo_free_block_list(&blocks);
	return ERR_PTR(ret);
}

static void dxgpmo_free_blocks_of_order(struct list_head *list,
					unsigned int order)
{
	struct page *page, *tmp;

	list_for_each_entry_safe(page, tmp, list, lru) {
		list_del(&page->lru);
		__free_pages(page, order);
	}
}

static struct dxgpmo_backing *
dxgpmo_alloc_contiguous(struct dxgpmo_file *file,
			const struct dxgpmo_alloc_request *req)
{
	unsigned int order = get_order(req->nr_pages << PAGE_SHIFT);
	gfp_t gfp = dxgpmo_window_zone(req->high) | DXGPMO_GFP_LOW_ORDER;
	unsigned long rejected_pages = 0;
	struct dxgpmo_backing *backing;
	struct page *page = NULL;
	LIST_HEAD(rejected);
	unsigned long i;

	if (order > DXGPMO_MAX_ORDER)
		return ERR_PTR(-ENOMEM);
	backing = dxgpmo_backing_new(1, req);
	if (!backing)
		return ERR_PTR(-ENOMEM);

	while (rejected_pages <= DXGPMO_MAX_REJECTED_PAGES &&
	       !fatal_signal_pending(current)) {
		page = alloc_pages(gfp, order);
		if (!page || dxgpmo_block_fits(page, req->nr_pages, req))
			break;
		list_add(&page->lru, &rejected);
		rejected_pages += 1UL << order;
		page = NULL;
	}
	dxgpmo_free_blocks_of_order(&rejected, order);
	if (!page) {
		kvfree(backing);
		return ERR_PTR(-ENOMEM);
	}

	/* Keep exactly the object's pages, as order-0 pages. */
	split_page(page, order);
	for (i = req->nr_pages; i < (1UL << order); i++)
		__free_page(page + i);
	backing->chunks[0].page = page;
	backing->chunks[0].nr_pages = req->nr_pages;
	backing->chunks[0].compound = false;
	return backing;
}

struct dxgpmo_backing *dxgpmo_backing_alloc(struct dxgpmo_file *file,
					    const struct dxgpmo_alloc_request *req)
{
	struct dxgpmo_backing *backing;

	if (dxgpmo_should_fail(file))
		return ERR_PTR(-ENOMEM);
	switch (req->type) {
	case DXGPMO_PMO_TYPE_MDL:
		backing = dxgpmo_alloc_mdl(file, req);
		break;
	case DXGPMO_PMO_TYPE_CONTIGUOUS:
		backing = dxgpmo_alloc_contiguous(file, req);
		break;
	default:
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (!IS_ERR(backing))
		dxgpmo_count_global(DXGPMO_CNT_PAGES, backing->nr_pages);
	return backing;
}

static void dxgpmo_backing_release(struct kref *kref)
{
	struct dxgpmo_backing *backing =
		container_of(kref, struct dxgpmo_backing, kref);
	unsigned int i;

	for (i = 0; i < backing->nr_chunks; i++)
		dxgpmo_chunk_free(&backing->chunks[i]);
	dxgpmo_count_global(DXGPMO_CNT_PAGES, -(s64)backing->nr_pages);
	kvfree(backing);
}

void dxgpmo_backing_put(struct dxgpmo_backing *backing)
{
	kref_put(&backing->kref, dxgpmo_backing_release);
}
