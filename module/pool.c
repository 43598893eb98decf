// SPDX-License-Identifier: GPL-2.0
/*
 * Pages already switched to write-combined or non-cached, kept for the next
 * MDL object of that cache type, in the manner of TTM's page pool.
 *
 * Switching a page's linear-map alias (set_pages_array_wc()/_uc(), and
 * set_pages_wb() on the way back) reserves a memory type per page, splits
 * large linear-map pages, flushes the pages from the caches and the TLB of
 * every CPU: more than allocating and zeroing them.  Pages of a destroyed
 * object therefore stay switched, zeroed, on a list per cache type and per
 * order the MDL allocator uses (2 MiB, 1 MiB, 64 KiB, 4 KiB, so a pooled
 * object is as physically contiguous as a fresh one); a miss allocates a
 * batch and switches it with one call.
 *
 * Only where the linear map is switched (x86); on arm64 it stays
 * write-back, there is nothing to save, and there is no pool (cap 0).
 *
 * Bounds: at most pool_max_mb of pages (a quarter of RAM by default), and a
 * shrinker that switches pages back to write-back and frees them under
 * memory pressure or drop_caches; module unload frees everything.
 *
 * Memory cgroups: objects are charged with __GFP_ACCOUNT, and no kernel
 * exports to modules a way to move a page's charge to another cgroup.  A
 * pooled page must never carry a charge (it would stay on a cgroup that
 * no longer uses it, or escape the limit of the next owner's), so only
 * callers in the root cgroup, whose allocations are never charged, use
 * the pool: their pages are allocated uncharged and go back to it.  A
 * caller in any other cgroup allocates and switches its own charged pages
 * as before, and frees them at destroy.
 */
#include <linux/list.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "arch.h"
#include "backing.h"
#include "compat.h"
#include "dxgpmo.h"
#include "inject.h"
#include "pool.h"
#include "trace.h"
#include "uncached.h"

/*
 * The orders MDL objects are built from, largest first (backing_chunks.c):
 * 2 MiB, 1 MiB, 64 KiB, 4 KiB.  2 MiB (a PMD), 64 KiB and 4 KiB are sizes
 * IOMMUs and page tables map whole; 1 MiB keeps an object of 1 to 2 MiB
 * from being sixteen or more 64 KiB allocations where the dma-buf system
 * heap makes one (its orders are 8, 4 and 0).
 */
const unsigned int dxgpmo_chunk_orders[DXGPMO_NR_CHUNK_ORDERS] = {
	9, 8, 4, 0
};

/* A miss of a small order switches at least this many pages (256 KiB). */
#define DXGPMO_POOL_BATCH_PAGES	64
/*
 * The most one miss allocates and switches for its caller: a large create
 * goes back to its loop, which stops on a fatal signal and reschedules,
 * after each such batch instead of once per order.
 */
#define DXGPMO_POOL_REFILL_MAX_PAGES	(SZ_16M >> PAGE_SHIFT)

struct dxgpmo_pool {
	spinlock_t lock;		/* blocks */
	struct list_head blocks[DXGPMO_NR_CHUNK_ORDERS];
};

/* Usable before module init: pool_max_mb may be set at load. */
static struct dxgpmo_pool dxgpmo_pool_wc = {
	.lock = __SPIN_LOCK_UNLOCKED(dxgpmo_pool_wc.lock),
	.blocks = { LIST_HEAD_INIT(dxgpmo_pool_wc.blocks[0]),
		    LIST_HEAD_INIT(dxgpmo_pool_wc.blocks[1]),
		    LIST_HEAD_INIT(dxgpmo_pool_wc.blocks[2]),
		    LIST_HEAD_INIT(dxgpmo_pool_wc.blocks[3]) },
};

static struct dxgpmo_pool dxgpmo_pool_uc = {
	.lock = __SPIN_LOCK_UNLOCKED(dxgpmo_pool_uc.lock),
	.blocks = { LIST_HEAD_INIT(dxgpmo_pool_uc.blocks[0]),
		    LIST_HEAD_INIT(dxgpmo_pool_uc.blocks[1]),
		    LIST_HEAD_INIT(dxgpmo_pool_uc.blocks[2]),
		    LIST_HEAD_INIT(dxgpmo_pool_uc.blocks[3]) },
};

static_assert(DXGPMO_NR_CHUNK_ORDERS == 4);

/* Pages pooled or about to be: the cap and the shrinker's count read it. */
static atomic_long_t dxgpmo_pool_pages = ATOMIC_LONG_INIT(0);
static atomic64_t dxgpmo_pool_hit_pages, dxgpmo_pool_miss_pages,
		  dxgpmo_pool_shrunk_pages;
static struct shrinker *dxgpmo_pool_shrinker;

static int dxgpmo_pool_max_mb = -1;

static unsigned long dxgpmo_pool_cap(void)
{
	int max_mb = READ_ONCE(dxgpmo_pool_max_mb);

	/*
	 * Where the linear map stays write-back (arm64), a fresh page costs
	 * an allocation and a cache clean; a pooled one would cost the
	 * zeroing through that cacheable alias and the same clean again.
	 * Nothing to save: no pool.
	 */
	if (!dxgpmo_arch_switches_alias)
		return 0;
	if (max_mb < 0)
		return totalram_pages() / 4;
	return (unsigned long)max_mb << (20 - PAGE_SHIFT);
}

static unsigned long dxgpmo_pool_shrink(unsigned long nr_pages);

/* A lowered cap takes effect at once. */
static int dxgpmo_pool_max_set(const char *val, const struct kernel_param *kp)
{
	unsigned long cap, pooled;
	int ret;

	ret = param_set_int(val, kp);
	if (ret)
		return ret;
	cap = dxgpmo_pool_cap();
	pooled = atomic_long_read(&dxgpmo_pool_pages);
	if (pooled > cap)
		dxgpmo_pool_shrink(pooled - cap);
	return 0;
}

static const struct kernel_param_ops dxgpmo_pool_max_ops = {
	.set = dxgpmo_pool_max_set,
	.get = param_get_int,
};

module_param_cb(pool_max_mb, &dxgpmo_pool_max_ops, &dxgpmo_pool_max_mb, 0644);
MODULE_PARM_DESC(pool_max_mb,
		 "Write-combined and non-cached pages kept switched for reuse, MiB (-1: a quarter of RAM, 0: no pool), default -1");

static struct dxgpmo_pool *dxgpmo_pool_of(u32 cache_type)
{
	return cache_type == DXGPMO_CACHE_WRITE_COMBINED ? &dxgpmo_pool_wc :
							   &dxgpmo_pool_uc;
}

static int dxgpmo_order_index(unsigned int order)
{
	int i;

	for (i = 0; i < DXGPMO_NR_CHUNK_ORDERS; i++)
		if (dxgpmo_chunk_orders[i] == order)
			return i;
	return -1;
}

/*
 * Would a __GFP_ACCOUNT allocation now be charged to a memory cgroup?  The
 * root cgroup is recognised by having no parent: root_mem_cgroup is not
 * exported on every kernel.
 */
bool dxgpmo_caller_is_charged(void)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg;
	bool charged;

	if (current->active_memcg)
		return true;
	rcu_read_lock();
	memcg = mem_cgroup_from_task(current);
	charged = memcg && memcg->css.parent;
	rcu_read_unlock();
	return charged;
#else
	return false;
#endif
}

/*
 * Whether an object of req comes from the pool: write-combined or
 * non-cached MDL objects anywhere in memory, for an uncharged caller.
 */
bool dxgpmo_pool_serves(const struct dxgpmo_alloc_request *req)
{
	if (req->type != DXGPMO_PMO_TYPE_MDL ||
	    req->cache_type == DXGPMO_CACHE_CACHED)
		return false;
	if (req->low || req->high != U64_MAX || req->boundary)
		return false;
	if (!dxgpmo_pool_cap())
		return false;
	return !dxgpmo_caller_is_charged();
}

/* Up to nr blocks of order index oi from the pool onto list; how many. */
unsigned long dxgpmo_pool_take(u32 cache_type, unsigned int oi,
			       unsigned long nr, struct list_head *list)
{
	struct dxgpmo_pool *pool = dxgpmo_pool_of(cache_type);
	unsigned int order = dxgpmo_chunk_orders[oi];
	unsigned long got = 0;

	spin_lock(&pool->lock);
	while (got < nr && !list_empty(&pool->blocks[oi])) {
		list_move_tail(pool->blocks[oi].next, list);
		got++;
	}
	spin_unlock(&pool->lock);
	if (got) {
		atomic_long_sub(got << order, &dxgpmo_pool_pages);
		atomic64_add(got << order, &dxgpmo_pool_hit_pages);
	}
	return got;
}

/* Reserve room for nr_pages under the cap. */
static bool dxgpmo_pool_reserve(unsigned long nr_pages)
{
	if (atomic_long_add_return(nr_pages, &dxgpmo_pool_pages) <=
	    dxgpmo_pool_cap())
		return true;
	atomic_long_sub(nr_pages, &dxgpmo_pool_pages);
	return false;
}

/*
 * Switch the linear-map alias of pages to cache_type (CACHED: back to
 * write-back), with one TLB flush on every CPU for all of them; where the
 * alias stays write-back (arch.h), clean and invalidate them instead.
 */
int dxgpmo_set_pages_cache(struct page **pages, unsigned long n,
			   u32 cache_type)
{
	int ret = dxgpmo_arch_set_pages_cache(pages, n, cache_type);

	trace_dxgpmo_linear_map(cache_type, n, ret);
	if (cache_type == DXGPMO_CACHE_CACHED)
		return ret;
	/*
	 * Every failure of a switch away from write-back is CPA's -EINVAL,
	 * the injected one too, so that both take the same paths (a section
	 * fault then gets SIGBUS, as TTM's faults do when the caching switch
	 * fails, not an OOM retry loop).
	 */
	if (ret || dxgpmo_test_alias_switch_fails())
		return -EINVAL;
	return 0;
}

/* A zeroed, switched block whose room was reserved joins the pool. */
static void dxgpmo_pool_add(u32 cache_type, unsigned int oi,
			    struct page *page)
{
	struct dxgpmo_pool *pool = dxgpmo_pool_of(cache_type);

	spin_lock(&pool->lock);
	list_add(&page->lru, &pool->blocks[oi]);
	spin_unlock(&pool->lock);
}

static int dxgpmo_pool_switch(u32 cache_type, struct list_head *blocks,
			      unsigned int order, unsigned long nr)
{
	struct page **pages, *page;
	unsigned long n = 0, i;
	int ret;

	pages = kvmalloc_array(nr << order, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	list_for_each_entry(page, blocks, lru)
		for (i = 0; i < (1UL << order); i++)
			pages[n++] = dxgpmo_nth_page(page, i);
	ret = dxgpmo_set_pages_cache(pages, n, cache_type);
	/*
	 * A failure gives back the memtype reservations but may leave part of
	 * the linear map switched; the caller frees these pages, which must
	 * reach the page allocator write-back, or never (-EIO).
	 */
	if (ret && dxgpmo_set_pages_cache(pages, n, DXGPMO_CACHE_CACHED))
		ret = -EIO;
	kvfree(pages);
	return ret;
}

/*
 * A miss: nr fresh blocks (at most a bounded batch) of order index oi for
 * the caller, allocated with gfp (zeroing, not accounting), plus for the
 * small orders as many more as make a batch while the pool has room, all
 * switched with one call (one TLB flush on every CPU); the caller's go
 * onto list, the rest into the pool.  Returns how many the caller got,
 * fewer when memory ran out.
 */
unsigned long dxgpmo_pool_refill(u32 cache_type, unsigned int oi,
				 unsigned long nr, gfp_t gfp,
				 struct list_head *list)
{
	unsigned int order = dxgpmo_chunk_orders[oi];
	unsigned long extra = 0, got, kept, i;
	struct page *page, *tmp;
	LIST_HEAD(fresh);
	int ret;

	nr = min(nr, DXGPMO_POOL_REFILL_MAX_PAGES >> order);
	if ((nr << order) < DXGPMO_POOL_BATCH_PAGES) {
		extra = (DXGPMO_POOL_BATCH_PAGES >> order) - nr;
		if (!dxgpmo_pool_reserve(extra << order))
			extra = 0;
	}
	for (got = 0; got < nr + extra; got++) {
		/* The batch is opportunistic: it never reclaims. */
		page = alloc_pages(got < nr ? gfp :
				   gfp & ~(__GFP_RECLAIM | __GFP_RETRY_MAYFAIL),
				   order);
		if (!page)
			break;
		list_add_tail(&page->lru, &fresh);
	}
	ret = got ? dxgpmo_pool_switch(cache_type, &fresh, order, got) : 0;
	if (ret) {
		/* Not switched, or switched back: write-back; else leaked. */
		if (ret == -EIO)
			pr_err("dxgpmo: cannot restore the linear map of %lu pages; leaking them\n",
			       got << order);
		list_for_each_entry_safe(page, tmp, &fresh, lru) {
			list_del(&page->lru);
			if (ret != -EIO)
				__free_pages(page, order);
		}
		got = 0;
	}
	kept = got > nr ? got - nr : 0;
	atomic_long_sub((extra - kept) << order, &dxgpmo_pool_pages);
	for (i = 0; i < got; i++) {
		page = list_first_entry(&fresh, struct page, lru);
		if (i < nr) {
			list_move_tail(&page->lru, list);
		} else {
			list_del(&page->lru);
			dxgpmo_pool_add(cache_type, oi, page);
		}
	}
	got -= kept;
	atomic64_add(got << order, &dxgpmo_pool_miss_pages);
	trace_dxgpmo_pool_miss(cache_type, order, nr, got, kept);
	return got;
}

/*
 * A block of a destroyed object joins the pool if it has room, zeroed
 * first: the next object must read zeros, as from a fresh allocation, and
 * no object's data lingers in freed memory.  The stores go through the
 * linear map, which has the block's cache type.  A block someone else
 * still references is never reused.  False: the caller switches the block
 * back and frees it.
 */
bool dxgpmo_pool_give(u32 cache_type, struct page *page, unsigned int order)
{
	int oi = dxgpmo_order_index(order);
	unsigned long i;

	if (oi < 0 || page_count(page) != 1 ||
	    !dxgpmo_pool_reserve(1UL << order))
		return false;
	for (i = 0; i < (1UL << order); i++) {
		if (cache_type == DXGPMO_CACHE_NON_CACHED)
			dxgpmo_uc_zero_page(dxgpmo_nth_page(page, i));
		else
			clear_highpage(dxgpmo_nth_page(page, i));
	}
	dxgpmo_pool_add(cache_type, oi, page);
	return true;
}

/*
 * A switched block back to the page allocator, write-back: pages go back
 * that way or not at all.  False if it had to be leaked.
 */
static bool dxgpmo_block_free_wb(struct page *page, unsigned int order)
{
	if (dxgpmo_arch_set_block_wb(page, 1UL << order)) {
		pr_err("dxgpmo: cannot restore the linear map of %lu pages; leaking them\n",
		       1UL << order);
		return false;
	}
	__free_pages(page, order);
	return true;
}

/* An unused block of an object that could not be made: pooled or freed. */
void dxgpmo_pool_put_back(u32 cache_type, struct page *page,
			  unsigned int order)
{
	if (!dxgpmo_pool_give(cache_type, page, order))
		dxgpmo_block_free_wb(page, order);
}

/* The largest pooled block, of either cache type, off its list. */
static struct page *dxgpmo_pool_pop(unsigned int *order)
{
	struct dxgpmo_pool *pools[] = { &dxgpmo_pool_wc, &dxgpmo_pool_uc };
	struct page *page = NULL;
	unsigned int oi, p;

	for (oi = 0; oi < DXGPMO_NR_CHUNK_ORDERS && !page; oi++) {
		for (p = 0; p < ARRAY_SIZE(pools) && !page; p++) {
			spin_lock(&pools[p]->lock);
			page = list_first_entry_or_null(&pools[p]->blocks[oi],
							struct page, lru);
			if (page)
				list_del(&page->lru);
			spin_unlock(&pools[p]->lock);
		}
		*order = dxgpmo_chunk_orders[oi];
	}
	return page;
}

/*
 * Free about nr_pages pooled pages, largest blocks first (what the rest of
 * the system lacks most under pressure).
 */
static unsigned long dxgpmo_pool_shrink(unsigned long nr_pages)
{
	unsigned long freed = 0;
	unsigned int order;
	struct page *page;

	while (freed < nr_pages && (page = dxgpmo_pool_pop(&order))) {
		atomic_long_sub(1UL << order, &dxgpmo_pool_pages);
		if (!dxgpmo_block_free_wb(page, order))
			continue;
		freed += 1UL << order;
		cond_resched();
	}
	atomic64_add(freed, &dxgpmo_pool_shrunk_pages);
	return freed;
}

static unsigned long dxgpmo_pool_count(struct shrinker *shrinker,
				       struct shrink_control *sc)
{
	long pooled = atomic_long_read(&dxgpmo_pool_pages);

	return pooled > 0 ? pooled : SHRINK_EMPTY;
}

static unsigned long dxgpmo_pool_scan(struct shrinker *shrinker,
				      struct shrink_control *sc)
{
	unsigned long freed = dxgpmo_pool_shrink(sc->nr_to_scan);

	return freed ? freed : SHRINK_STOP;
}

void dxgpmo_pool_read_stats(struct dxgpmo_pool_stats *stats)
{
	stats->pages = max(atomic_long_read(&dxgpmo_pool_pages), 0L);
	stats->hit_pages = atomic64_read(&dxgpmo_pool_hit_pages);
	stats->miss_pages = atomic64_read(&dxgpmo_pool_miss_pages);
	stats->shrunk_pages = atomic64_read(&dxgpmo_pool_shrunk_pages);
	stats->cap_pages = dxgpmo_pool_cap();
}

int dxgpmo_pool_init(void)
{
	int ret;

	dxgpmo_pool_shrinker = dxgpmo_shrinker_alloc("dxgpmo-pool");
	if (!dxgpmo_pool_shrinker)
		return -ENOMEM;
	dxgpmo_pool_shrinker->count_objects = dxgpmo_pool_count;
	dxgpmo_pool_shrinker->scan_objects = dxgpmo_pool_scan;
	/* Cheap to rebuild next to what reclaim would otherwise evict. */
	dxgpmo_pool_shrinker->seeks = 1;
	ret = dxgpmo_shrinker_register(dxgpmo_pool_shrinker, "dxgpmo-pool");
	if (ret) {
		dxgpmo_shrinker_free(dxgpmo_pool_shrinker);
		dxgpmo_pool_shrinker = NULL;
	}
	return ret;
}

/* No object is left, so nothing gives to the pool any more: empty it. */
void dxgpmo_pool_exit(void)
{
	dxgpmo_shrinker_free(dxgpmo_pool_shrinker);
	dxgpmo_pool_shrink(ULONG_MAX);
}
