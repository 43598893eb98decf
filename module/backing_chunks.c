// SPDX-License-Identifier: GPL-2.0
/*
 * MDL and CONTIGUOUS objects: pages from the buddy allocator held in
 * chunks, mapped to user space as PFNs with the object's cache type.
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
 * they are not handed back to us, up to a bound.  A CONTIGUOUS object whose
 * window the buddy allocator did not reach that way (one that starts above
 * zero, say) is then looked for inside the window, range by range, as
 * Windows searches it: each candidate is taken with alloc_contig_range(),
 * which migrates movable pages out of the way as gigantic pages and CMA
 * do; at most DXGPMO_CONTIG_TRIES of them.  Only for a caller with
 * CAP_SYS_ADMIN outside any memory cgroup (req->search_window): the pages
 * cannot be charged, alloc_contig_range() ignores the zones' watermarks,
 * and every attempt drains the per-CPU lists of every CPU.
 *
 * Always zeroed, charged to the caller's memory cgroup, and never reclaiming
 * so hard that the OOM killer runs on behalf of a user request.  A
 * non-cached or write-combined object's pages do not stay write-back in the
 * kernel's linear map where the architecture allows it (arch.h).
 */
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "arch.h"
#include "backing.h"
#include "backing_chunks.h"
#include "compat.h"
#include "dxgpmo.h"
#include "pool.h"

static void dxgpmo_chunks_release(struct dxgpmo_backing *backing);

/* Blocks outside the window held back at most, in pages (64 MiB). */
#define DXGPMO_MAX_REJECTED_PAGES	(64UL << (20 - PAGE_SHIFT))

static gfp_t dxgpmo_window_zone(u64 high)
{
	if (IS_ENABLED(CONFIG_ZONE_DMA) && high <= DMA_BIT_MASK(24))
		return GFP_DMA;
	if (IS_ENABLED(CONFIG_ZONE_DMA32) && high <= DMA_BIT_MASK(32))
		return GFP_DMA32;
	return 0;
}

VISIBLE_IF_KUNIT bool dxgpmo_phys_fits(u64 start, unsigned long nr_pages,
				       const struct dxgpmo_alloc_request *req)
{
	u64 last = start + ((u64)nr_pages << PAGE_SHIFT) - 1;

	if (start < req->low || last > req->high)
		return false;
	if (req->boundary && div64_u64(start, req->boundary) !=
			     div64_u64(last, req->boundary))
		return false;
	return true;
}

static bool dxgpmo_block_fits(struct page *page, unsigned long nr_pages,
			      const struct dxgpmo_alloc_request *req)
{
	return dxgpmo_phys_fits(page_to_phys(page), nr_pages, req);
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

/* The chunks of an object, in the order of the blocks on the list. */
static struct dxgpmo_backing *
dxgpmo_chunks_from_list(const struct dxgpmo_alloc_request *req,
			struct list_head *blocks, unsigned int nr_chunks)
{
	struct dxgpmo_backing *backing;
	unsigned long first = 0;
	struct page *page;
	unsigned int i = 0;

	backing = dxgpmo_backing_new(nr_chunks, req, &dxgpmo_mdl_backing_ops);
	if (!backing)
		return NULL;
	list_for_each_entry(page, blocks, lru) {
		backing->chunks[i].page = page;
		backing->chunks[i].first = first;
		backing->chunks[i].nr_pages = 1U << compound_order(page);
		backing->chunks[i].compound = compound_order(page) > 0;
		first += backing->chunks[i].nr_pages;
		i++;
	}
	return backing;
}

static struct dxgpmo_backing *
dxgpmo_alloc_mdl(const struct dxgpmo_alloc_request *req)
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
		for (i = first_order; i < DXGPMO_NR_CHUNK_ORDERS; i++) {
			order = dxgpmo_chunk_orders[i];
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

	backing = dxgpmo_chunks_from_list(req, &blocks, nr_chunks);
	if (!backing)
		goto err_free;
	return backing;

err_free:
	dxgpmo_free_block_list(&rejected);
	dxgpmo_free_block_list(&blocks);
	return ERR_PTR(ret);
}

/*
 * An MDL object from the pool (pool.c): at each order, largest first,
 * blocks already switched to the object's cache type and zeroed, then
 * fresh ones switched in a batch; the next order when that one ran out.
 * Its pages are allocated uncharged: the pool serves only callers who
 * would not be charged.
 */
static struct dxgpmo_backing *
dxgpmo_alloc_mdl_pooled(const struct dxgpmo_alloc_request *req)
{
	unsigned long remaining = req->nr_pages, got;
	struct dxgpmo_backing *backing;
	unsigned int nr_chunks = 0, oi;
	struct page *page, *tmp;
	LIST_HEAD(blocks);
	int ret = -ENOMEM;

	for (oi = 0; oi < DXGPMO_NR_CHUNK_ORDERS && remaining; oi++) {
		unsigned int order = dxgpmo_chunk_orders[oi];
		gfp_t gfp = (order ? DXGPMO_GFP_HIGH_ORDER :
				     DXGPMO_GFP_LOW_ORDER) & ~__GFP_ACCOUNT;

		while (remaining >> order) {
			if (fatal_signal_pending(current)) {
				ret = -EINTR;
				goto err_free;
			}
			got = dxgpmo_pool_take(req->cache_type, oi,
					       remaining >> order, &blocks);
			if (!got)
				got = dxgpmo_pool_refill(req->cache_type, oi,
							 remaining >> order,
							 gfp, &blocks);
			if (!got)
				break;
			remaining -= got << order;
			nr_chunks += got;
			cond_resched();
		}
	}
	if (remaining)
		goto err_free;
	backing = dxgpmo_chunks_from_list(req, &blocks, nr_chunks);
	if (!backing)
		goto err_free;
	backing->alias_changed = true;
	backing->pooled = true;
	return backing;

err_free:
	list_for_each_entry_safe(page, tmp, &blocks, lru) {
		list_del(&page->lru);
		dxgpmo_pool_put_back(req->cache_type, page,
				     compound_order(page));
	}
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

/* Candidate ranges looked at, and asked of alloc_contig_range(), at most. */
#define DXGPMO_CONTIG_CANDIDATES	4096
#define DXGPMO_CONTIG_TRIES		32

#ifdef CONFIG_CONTIG_ALLOC
/*
 * [pfn, pfn + nr) is online memory of one zone, none of it reserved, and
 * the zone is one the buddy path could have used: never ZONE_MOVABLE
 * (pages held for long there block memory offlining), ZONE_DMA only for a
 * window that ends inside it.  ZONE_DMA is x86's first 16 MiB, but on
 * arm64 whatever its DMA limits say: all RAM below 4 GiB on QEMU's virt.
 */
static bool dxgpmo_contig_range_usable(const struct dxgpmo_alloc_request *req,
				       unsigned long pfn, unsigned long nr)
{
	struct page *first = pfn_to_online_page(pfn);
	struct zone *zone;
	unsigned long i;

	if (!first)
		return false;
	zone = page_zone(first);
	if (zone_idx(zone) > ZONE_NORMAL)
		return false;
#ifdef CONFIG_ZONE_DMA
	if (zone_idx(zone) == ZONE_DMA &&
	    req->high >= PFN_PHYS(zone_end_pfn(zone)))
		return false;
#endif
	for (i = pfn; i < pfn + nr; i++) {
		struct page *page = pfn_to_online_page(i);

		if (!page || page_zone(page) != zone || PageReserved(page) ||
		    PageHuge(page))
			return false;
	}
	return true;
}

/* One past the last page frame of memory. */
static unsigned long dxgpmo_end_pfn(void)
{
	unsigned long end = 0;
	int nid;

	for_each_online_node(nid)
		end = max(end, pgdat_end_pfn(NODE_DATA(nid)));
	return end;
}

/*
 * req->nr_pages pages inside the window and its boundary, zeroed, each an
 * order-0 page with its own reference; NULL when none was found.
 *
 * Whole pageblocks are asked for, one candidate a pageblock at most, and
 * what is beyond the object goes straight back: alloc_contig_range() then
 * checks the whole block for unmovable pages, and never relabels a
 * pageblock holding someone else's unmovable pages as movable (which it
 * does to every block it isolated, on 6.x).  Only -EBUSY (something
 * unmovable in the way) moves on to the next candidate.
 */
static struct page *dxgpmo_contig_search(const struct dxgpmo_alloc_request *req)
{
	unsigned long nr = req->nr_pages;
	unsigned long span = round_up(nr, pageblock_nr_pages);
	unsigned long step = max_t(unsigned long, roundup_pow_of_two(nr),
				   pageblock_nr_pages);
	unsigned long pfn = ALIGN(PFN_UP(req->low), step);
	unsigned long mem_end = dxgpmo_end_pfn();
	unsigned long end = min_t(u64, PHYS_PFN(req->high) + 1, mem_end);
	unsigned int looked = 0, tries = 0;
	unsigned long i;
	int ret;

	if (!req->search_window)
		return NULL;
	for (; pfn + nr <= end && pfn + span <= mem_end; pfn += step) {
		if (++looked > DXGPMO_CONTIG_CANDIDATES ||
		    tries == DXGPMO_CONTIG_TRIES || fatal_signal_pending(current))
			return NULL;
		cond_resched();
		if (!dxgpmo_phys_fits(PFN_PHYS(pfn), nr, req) ||
		    !dxgpmo_contig_range_usable(req, pfn, span))
			continue;
		tries++;
		ret = dxgpmo_alloc_contig_range(pfn, pfn + span,
						GFP_KERNEL | __GFP_NOWARN);
		if (ret == -EBUSY)
			continue;
		if (ret)
			return NULL;
		for (i = nr; i < span; i++)
			__free_page(pfn_to_page(pfn + i));
		for (i = 0; i < nr; i++)
			clear_highpage(pfn_to_page(pfn + i));
		return pfn_to_page(pfn);
	}
	return NULL;
}
#else
static struct page *dxgpmo_contig_search(const struct dxgpmo_alloc_request *req)
{
	return NULL;
}
#endif

static struct dxgpmo_backing *
dxgpmo_alloc_contiguous(const struct dxgpmo_alloc_request *req)
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
	backing = dxgpmo_backing_new(1, req, &dxgpmo_contiguous_backing_ops);
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
	if (page) {
		/* Keep exactly the object's pages, as order-0 pages. */
		split_page(page, order);
		for (i = req->nr_pages; i < (1UL << order); i++)
			__free_page(page + i);
	} else {
		page = dxgpmo_contig_search(req);
	}
	if (!page) {
		kvfree(backing);
		return ERR_PTR(fatal_signal_pending(current) ? -EINTR : -ENOMEM);
	}
	backing->chunks[0].page = page;
	backing->chunks[0].first = 0;
	backing->chunks[0].nr_pages = req->nr_pages;
	backing->chunks[0].compound = false;
	return backing;
}

/* The chunk holding page index of an MDL or CONTIGUOUS object. */
VISIBLE_IF_KUNIT unsigned int dxgpmo_chunk_of(struct dxgpmo_backing *backing,
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
	return lo;
}

static struct page *dxgpmo_chunks_page(struct dxgpmo_backing *backing,
				       unsigned long index)
{
	const struct dxgpmo_chunk *chunk =
		&backing->chunks[dxgpmo_chunk_of(backing, index)];

	return dxgpmo_nth_page(chunk->page, index - chunk->first);
}

/*
 * An sg_table for pages [first, first + nr) of an MDL or CONTIGUOUS object,
 * one entry per physically contiguous chunk it touches, found by search: a
 * small ADL of a large object costs what one of a small object does.  A
 * range inside one chunk gets the map's own entry instead of an allocated
 * table.
 */
static int dxgpmo_chunks_sgt(struct dxgpmo_backing *backing,
			     struct dxgpmo_dma_map *m, gfp_t gfp)
{
	unsigned long first = m->first, end = first + m->nr_pages;
	unsigned int head = dxgpmo_chunk_of(backing, first), i;
	const struct dxgpmo_chunk *chunk;
	struct sg_table *sgt = &m->sgt;
	struct scatterlist *sg;
	int ret;

	for (i = head; i < backing->nr_chunks; i++)
		if (backing->chunks[i].first >= end)
			break;
	if (i - head == 1) {
		dxgpmo_dma_map_single_entry(m);
	} else {
		ret = sg_alloc_table(sgt, i - head, gfp);
		if (ret)
			return ret;
	}

	sg = sgt->sgl;
	for (i = head; i < backing->nr_chunks; i++) {
		unsigned long from, to;

		chunk = &backing->chunks[i];
		if (chunk->first >= end)
			break;
		from = max(chunk->first, first);
		to = min(chunk->first + chunk->nr_pages, end);
		sg_set_page(sg, dxgpmo_nth_page(chunk->page, from - chunk->first),
			    (to - from) << PAGE_SHIFT, 0);
		sg = sg_next(sg);
	}
	return 0;
}

/*
 * Pages per linear-map switch: each switch flushes the TLB of every CPU,
 * and none reschedules, so a large object goes in batches of this many.
 */
#define DXGPMO_ALIAS_BATCH	512

/*
 * Switch the linear map of the object's first limit pages (those still in
 * it) to cache_type; *tried says how many pages a switch was attempted on,
 * the failed batch included.  Allocates nothing it cannot do without: the
 * release path restores write-back with it, and must not fail for lack
 * of a page array.
 */
static int dxgpmo_backing_switch_alias(struct dxgpmo_backing *backing,
				       u32 cache_type, unsigned long limit,
				       unsigned long *tried)
{
	struct page *on_stack[16], **pages;
	unsigned long room, n = 0, j;
	unsigned int i;
	int ret = 0;

	*tried = 0;
	room = DXGPMO_ALIAS_BATCH;
	pages = kmalloc_array(room, sizeof(*pages), GFP_KERNEL | __GFP_NOWARN);
	if (!pages) {
		pages = on_stack;
		room = ARRAY_SIZE(on_stack);
	}
	for (i = 0; i < backing->nr_chunks && !ret; i++) {
		struct dxgpmo_chunk *chunk = &backing->chunks[i];

		for (j = 0; chunk->page && j < chunk->nr_pages; j++) {
			if (*tried + n == limit)
				break;
			pages[n++] = dxgpmo_nth_page(chunk->page, j);
			if (n < room)
				continue;
			*tried += n;
			ret = dxgpmo_set_pages_cache(pages, n, cache_type);
			n = 0;
			if (ret)
				break;
			cond_resched();
		}
	}
	if (n && !ret) {
		*tried += n;
		ret = dxgpmo_set_pages_cache(pages, n, cache_type);
	}
	if (pages != on_stack)
		kfree(pages);
	return ret;
}

/*
 * A non-cached or write-combined object's pages must not stay write-back
 * in the kernel's linear map where two mappings with different memory
 * types are undefined (x86 PAT); where the alias stays (arm64), its lines
 * are cleaned and invalidated instead (arch.h).  Switched after
 * allocation; on x86 restored before free.
 */
static int dxgpmo_backing_set_alias(struct dxgpmo_backing *backing, bool set)
{
	unsigned long tried, restored;
	int ret;

	if (backing->cache_type == DXGPMO_CACHE_CACHED)
		return 0;
	if (!set) {
		if (!backing->alias_changed)
			return 0;
		/*
		 * Where the alias stayed write-back, pages on their way back
		 * to the page allocator need no maintenance, as
		 * dma_free_coherent()'s do not: a stale line of the alias
		 * can only be read by a next owner that reads before it
		 * writes, which gets no defined contents anyway, and one
		 * that hands the page to a device maintains it for that.
		 * Pages that live on (a section's, under its user and kernel
		 * views) are maintained where their views end, not here.
		 * Only pages the pool never had: its cacheable zeroing would
		 * leave dirty lines under the next object's views, which is
		 * why there is no pool where the alias stays (pool.c).
		 */
		if (!dxgpmo_arch_switches_alias) {
			WARN_ON_ONCE(backing->pooled);
			backing->alias_changed = false;
			return 0;
		}
		ret = dxgpmo_backing_switch_alias(backing, DXGPMO_CACHE_CACHED,
						  ULONG_MAX, &tried);
		if (!ret)
			backing->alias_changed = false;
		return ret;
	}
	ret = dxgpmo_backing_switch_alias(backing, backing->cache_type,
					  ULONG_MAX, &tried);
	if (!ret) {
		backing->alias_changed = true;
		return 0;
	}
	/*
	 * A failed switch gives back the memtype reservations but may leave
	 * part of the linear map switched: whatever was tried goes back to
	 * write-back before the pages reach the page allocator.
	 */
	if (dxgpmo_backing_switch_alias(backing, DXGPMO_CACHE_CACHED, tried,
					&restored))
		backing->alias_changed = true;	/* release tries, or leaks */
	return ret;
}

/*
 * Pages mapped by one fault of a RAM object's PFN map, as TTM prefaults
 * buffer objects: objects are mostly touched whole, and one fault costs
 * more than the PTEs it saves filling in.  64 KiB, aligned.
 */
#define DXGPMO_FAULT_AROUND_PAGES	16

static vm_fault_t dxgpmo_insert_page(struct dxgpmo_backing *backing,
				     struct vm_area_struct *vma,
				     unsigned long addr, unsigned long index)
{
	return vmf_insert_pfn_prot(vma, addr,
				   page_to_pfn(dxgpmo_chunks_page(backing, index)),
				   vma->vm_page_prot);
}

/* The faulting page is mapped: fill its aligned block around it. */
static void dxgpmo_fault_around(struct dxgpmo_backing *backing,
				struct vm_fault *vmf, unsigned long index)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long block = DXGPMO_FAULT_AROUND_PAGES << PAGE_SHIFT;
	unsigned long start = max(ALIGN_DOWN(vmf->address, block),
				  vma->vm_start);
	unsigned long end = min(ALIGN_DOWN(vmf->address, block) + block,
				vma->vm_end);
	unsigned long addr, i;

	for (addr = start; addr < end; addr += PAGE_SIZE) {
		if (addr == vmf->address)
			continue;
		/* The VMA starts inside the window: i never underflows. */
		i = index + ((long)(addr - vmf->address) >> PAGE_SHIFT);
		if (i >= backing->nr_pages)
			break;
		if (dxgpmo_insert_page(backing, vma, addr, i) !=
		    VM_FAULT_NOPAGE)
			break;
	}
}

/* Faults map PFNs with the VMA's (the object's) cache type. */
static vm_fault_t dxgpmo_chunks_fault(struct dxgpmo_backing *backing,
				      struct vm_fault *vmf, unsigned long index)
{
	vm_fault_t ret;

	ret = dxgpmo_insert_page(backing, vmf->vma, vmf->address, index);
	if (ret != VM_FAULT_NOPAGE)
		return ret;
	dxgpmo_fault_around(backing, vmf, index);
	return VM_FAULT_NOPAGE;
}

/* The pages are the object's, never the VMA's. */
static int dxgpmo_chunks_vma_setup(struct dxgpmo_backing *backing,
				   struct vm_area_struct *vma)
{
	dxgpmo_vm_flags_set(vma, VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	return 0;
}

static int dxgpmo_chunks_pin(struct dxgpmo_backing *backing,
			     unsigned long first, unsigned long nr,
			     struct page **pages)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		pages[i] = dxgpmo_chunks_page(backing, first + i);
		get_page(pages[i]);
	}
	return 0;
}

static struct dxgpmo_backing *
dxgpmo_chunks_finish(struct dxgpmo_backing *backing)
{
	if (IS_ERR(backing))
		return backing;
	if (dxgpmo_backing_set_alias(backing, true)) {
		dxgpmo_chunks_release(backing);
		kvfree(backing);
		return ERR_PTR(-ENOMEM);
	}
	return backing;
}

static struct dxgpmo_backing *
dxgpmo_mdl_alloc(const struct dxgpmo_alloc_request *req)
{
	if (dxgpmo_pool_serves(req))
		return dxgpmo_alloc_mdl_pooled(req);
	return dxgpmo_chunks_finish(dxgpmo_alloc_mdl(req));
}

static struct dxgpmo_backing *
dxgpmo_contiguous_alloc(const struct dxgpmo_alloc_request *req)
{
	return dxgpmo_chunks_finish(dxgpmo_alloc_contiguous(req));
}

/*
 * Pages go back to the pool as they are, or to the allocator (write-back
 * again where the linear map was switched), or not at all.
 */
static void dxgpmo_chunks_release(struct dxgpmo_backing *backing)
{
	struct dxgpmo_chunk *chunk;
	unsigned int i;

	for (i = 0; backing->pooled && i < backing->nr_chunks; i++) {
		chunk = &backing->chunks[i];
		if (dxgpmo_pool_give(backing->cache_type, chunk->page,
				     compound_order(chunk->page)))
			chunk->page = NULL;
		cond_resched();
	}
	if (dxgpmo_backing_set_alias(backing, false)) {
		pr_err("dxgpmo: cannot restore the linear map of %lu pages; leaking them\n",
		       backing->nr_pages);
		return;
	}
	for (i = 0; i < backing->nr_chunks; i++)
		if (backing->chunks[i].page)
			dxgpmo_chunk_free(&backing->chunks[i]);
}

#define DXGPMO_CHUNKS_OPS(_alloc, _contiguous)			\
	{							\
		.alloc = _alloc,				\
		.release = dxgpmo_chunks_release,		\
		.page = dxgpmo_chunks_page,			\
		.pin = dxgpmo_chunks_pin,			\
		.sgt = dxgpmo_chunks_sgt,			\
		.dma_map = dxgpmo_ram_dma_map,			\
		.dma_unmap = dxgpmo_ram_dma_unmap,		\
		.vma_setup = dxgpmo_chunks_vma_setup,		\
		.fault = dxgpmo_chunks_fault,			\
		.map_kernel = dxgpmo_ram_kmap,			\
		.unmap_kernel = dxgpmo_ram_kunmap,		\
		.kview_rw = dxgpmo_ram_kview_rw,		\
		.holds_ram = true,				\
		.contiguous = _contiguous,			\
	}

const struct dxgpmo_backing_ops dxgpmo_mdl_backing_ops =
	DXGPMO_CHUNKS_OPS(dxgpmo_mdl_alloc, false);
const struct dxgpmo_backing_ops dxgpmo_contiguous_backing_ops =
	DXGPMO_CHUNKS_OPS(dxgpmo_contiguous_alloc, true);
