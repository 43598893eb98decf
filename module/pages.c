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
#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <asm/set_memory.h>

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
	remaining = 0;
	list_for_each_entry(page, &blocks, lru) {
		backing->chunks[i].page = page;
		backing->chunks[i].first = remaining;
		backing->chunks[i].nr_pages = 1U << compound_order(page);
		backing->chunks[i].compound = compound_order(page) > 0;
		remaining += backing->chunks[i].nr_pages;
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
	backing->chunks[0].first = 0;
	backing->chunks[0].nr_pages = req->nr_pages;
	backing->chunks[0].compound = false;
	return backing;
}

/*
 * SECTION (ZwCreateSection, SEC_COMMIT): a shmem file of the object's size,
 * its memory committed (accounted) now, its pages allocated zeroed on first
 * use and pageable except while an ADL or kernel map holds them.
 */
static struct dxgpmo_backing *
dxgpmo_alloc_section(struct dxgpmo_file *file,
		     const struct dxgpmo_alloc_request *req)
{
	struct dxgpmo_backing *backing = dxgpmo_backing_new(0, req);
	struct file *shmem;

	if (!backing)
		return ERR_PTR(-ENOMEM);
	shmem = shmem_file_setup("dxgpmo-section",
				 (loff_t)req->nr_pages << PAGE_SHIFT, 0);
	if (IS_ERR(shmem)) {
		kvfree(backing);
		return ERR_CAST(shmem);
	}
	backing->shmem = shmem;
	backing->readonly = req->readonly;
	return backing;
}

/* IO_SPACE: nothing is allocated; the range of a BAR is described. */
static struct dxgpmo_backing *
dxgpmo_alloc_io_space(struct dxgpmo_file *file,
		      const struct dxgpmo_alloc_request *req)
{
	struct dxgpmo_backing *backing = dxgpmo_backing_new(0, req);

	if (!backing)
		return ERR_PTR(-ENOMEM);
	backing->io_base = req->io_base;
	backing->io_adapter = req->io_adapter;
	return backing;
}

/* The page at index of an MDL or CONTIGUOUS object. */
struct page *dxgpmo_backing_page(struct dxgpmo_backing *backing,
				 unsigned long index)
{
	unsigned int lo = 0, hi = backing->nr_chunks;

	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (backing->chunks[mid].first <= index)
			lo = mid;
		else
			hi = mid;
	}
	return nth_page(backing->chunks[lo].page,
			index - backing->chunks[lo].first);
}

/*
 * An sg_table for pages [first, first + nr) of an MDL or CONTIGUOUS object,
 * one entry per physically contiguous chunk.
 */
int dxgpmo_backing_build_sgt(struct dxgpmo_backing *backing,
			     unsigned long first, unsigned long nr,
			     struct sg_table *sgt)
{
	unsigned long start = 0, end = first + nr;
	struct scatterlist *sg;
	unsigned int i, nents = 0;
	int ret;

	for (i = 0; i < backing->nr_chunks; i++) {
		unsigned long cend = start + backing->chunks[i].nr_pages;

		if (cend > first && start < end)
			nents++;
		start = cend;
	}
	ret = sg_alloc_table(sgt, nents, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;

	sg = sgt->sgl;
	start = 0;
	for (i = 0; i < backing->nr_chunks; i++) {
		const struct dxgpmo_chunk *chunk = &backing->chunks[i];
		unsigned long cend = start + chunk->nr_pages;
		unsigned long from = max(start, first), to = min(cend, end);

		if (from < to) {
			sg_set_page(sg, nth_page(chunk->page, from - start),
				    (to - from) << PAGE_SHIFT, 0);
			sg = sg_next(sg);
		}
		start = cend;
	}
	return 0;
}

/*
 * An sg_table for pages [first, first + nr) of a RAM object.  SECTION pages
 * are referenced for as long as the table lives (that is what keeps them
 * resident); *pinned returns them, NULL for MDL and CONTIGUOUS objects.
 * Undone by dxgpmo_backing_free_sgt().
 */
int dxgpmo_backing_sgt(struct dxgpmo_backing *backing, unsigned long first,
		       unsigned long nr, struct sg_table *sgt,
		       struct page ***pinned, gfp_t gfp)
{
	struct page **pages;
	int ret;

	*pinned = NULL;
	if (!backing->shmem)
		return dxgpmo_backing_build_sgt(backing, first, nr, sgt);
	pages = kvmalloc_array(nr, sizeof(*pages), gfp);
	if (!pages)
		return -ENOMEM;
	ret = dxgpmo_backing_get_pages(backing, first, nr, pages);
	if (ret)
		goto err_free;
	ret = sg_alloc_table_from_pages(sgt, pages, nr, 0,
					(unsigned long)nr << PAGE_SHIFT, gfp);
	if (ret)
		goto err_put;
	*pinned = pages;
	return 0;

err_put:
	dxgpmo_backing_put_pages(backing, pages, nr);
err_free:
	kvfree(pages);
	return ret;
}

void dxgpmo_backing_free_sgt(struct dxgpmo_backing *backing,
			     struct sg_table *sgt, struct page **pinned,
			     unsigned long nr)
{
	sg_free_table(sgt);
	if (pinned) {
		dxgpmo_backing_put_pages(backing, pinned, nr);
		kvfree(pinned);
	}
}

/* Page index of a SECTION object, read in (zeroed) if new, referenced. */
struct page *dxgpmo_section_page(struct dxgpmo_backing *backing,
				 unsigned long index)
{
	struct address_space *mapping = backing->shmem->f_mapping;

	return shmem_read_mapping_page_gfp(mapping, index,
					   mapping_gfp_mask(mapping));
}

/*
 * Pages [first, first + nr) of a RAM object, each with a reference the
 * caller drops with dxgpmo_backing_put_pages(); for SECTION objects this is
 * what keeps them resident.
 */
int dxgpmo_backing_get_pages(struct dxgpmo_backing *backing,
			     unsigned long first, unsigned long nr,
			     struct page **pages)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		struct page *page;

		if (backing->shmem) {
			page = dxgpmo_section_page(backing, first + i);
			if (IS_ERR(page)) {
				dxgpmo_backing_put_pages(backing, pages, i);
				return PTR_ERR(page);
			}
		} else {
			page = dxgpmo_backing_page(backing, first + i);
			get_page(page);
		}
		pages[i] = page;
	}
	return 0;
}

void dxgpmo_backing_put_pages(struct dxgpmo_backing *backing,
			      struct page **pages, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++)
		put_page(pages[i]);
}

/*
 * A non-cached or write-combined object's pages must not stay write-back
 * in the kernel's linear map: two mappings with different memory types are
 * undefined on x86 (PAT).  Switched after allocation, restored before free.
 */
static int dxgpmo_backing_set_alias(struct dxgpmo_backing *backing, bool set)
{
	struct page **pages;
	unsigned long i;
	int ret;

	if (backing->type != DXGPMO_PMO_TYPE_MDL &&
	    backing->type != DXGPMO_PMO_TYPE_CONTIGUOUS)
		return 0;
	if (backing->cache_type == DXGPMO_CACHE_CACHED)
		return 0;
	if (!set && !backing->alias_changed)
		return 0;
	pages = kvmalloc_array(backing->nr_pages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < backing->nr_pages; i++)
		pages[i] = dxgpmo_backing_page(backing, i);
	if (!set)
		ret = set_pages_array_wb(pages, backing->nr_pages);
	else if (backing->cache_type == DXGPMO_CACHE_WRITE_COMBINED)
		ret = set_pages_array_wc(pages, backing->nr_pages);
	else
		ret = set_pages_array_uc(pages, backing->nr_pages);
	kvfree(pages);
	if (!ret)
		backing->alias_changed = set;
	return ret;
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
	case DXGPMO_PMO_TYPE_SECTION:
		backing = dxgpmo_alloc_section(file, req);
		break;
	default:
		backing = dxgpmo_alloc_io_space(file, req);
		break;
	}
	if (IS_ERR(backing))
		return backing;
	dxgpmo_count_global(DXGPMO_CNT_PAGES,
			    dxgpmo_ram_pages(backing->type, backing->nr_pages));
	if (dxgpmo_should_fail(file) || dxgpmo_backing_set_alias(backing, true)) {
		dxgpmo_backing_put(backing);
		return ERR_PTR(-ENOMEM);
	}
	return backing;
}

static void dxgpmo_backing_release(struct kref *kref)
{
	struct dxgpmo_backing *backing =
		container_of(kref, struct dxgpmo_backing, kref);
	unsigned int i;

	/* Pages go back to the allocator write-back, or not at all. */
	if (dxgpmo_backing_set_alias(backing, false)) {
		pr_err("dxgpmo: cannot restore the linear map of %lu pages; leaking them\n",
		       backing->nr_pages);
		backing->nr_chunks = 0;
	}
	for (i = 0; i < backing->nr_chunks; i++)
		dxgpmo_chunk_free(&backing->chunks[i]);
	if (backing->shmem)
		fput(backing->shmem);
	if (backing->io_adapter)
		dxgpmo_adapter_put(backing->io_adapter);
	dxgpmo_count_global(DXGPMO_CNT_PAGES,
			    -(s64)dxgpmo_ram_pages(backing->type,
						   backing->nr_pages));
	kvfree(backing);
}

void dxgpmo_backing_put(struct dxgpmo_backing *backing)
{
	kref_put(&backing->kref, dxgpmo_backing_release);
}
