/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Write-combined and non-cached pages kept switched for reuse, and the
 * switch of pages' memory type itself, which objects that do not use the
 * pool (SECTION, memory-cgroup callers) share.
 */
#ifndef _DXGPMO_POOL_H
#define _DXGPMO_POOL_H

#include <linux/list.h>
#include <linux/types.h>

struct dxgpmo_alloc_request;
struct page;

/*
 * Switch the linear-map alias of pages to cache_type (a DXGPMO_CACHE_*;
 * CACHED: back to write-back), or clean them where it stays write-back.
 */
int dxgpmo_set_pages_cache(struct page **pages, unsigned long n,
			   u32 cache_type);

/* The orders MDL objects are made of, largest first. */
#define DXGPMO_NR_CHUNK_ORDERS	4
extern const unsigned int dxgpmo_chunk_orders[DXGPMO_NR_CHUNK_ORDERS];

struct dxgpmo_pool_stats {
	u64 pages;		/* pooled now */
	u64 hit_pages;		/* handed out from the pool */
	u64 miss_pages;		/* allocated and switched for a caller */
	u64 shrunk_pages;	/* switched back and freed */
	unsigned long cap_pages; /* pool_max_mb now; 0: no pool here */
};

bool dxgpmo_pool_serves(const struct dxgpmo_alloc_request *req);
bool dxgpmo_caller_is_charged(void);
unsigned long dxgpmo_pool_take(u32 cache_type, unsigned int oi,
			       unsigned long nr, struct list_head *list);
unsigned long dxgpmo_pool_refill(u32 cache_type, unsigned int oi,
				 unsigned long nr, gfp_t gfp,
				 struct list_head *list);
bool dxgpmo_pool_give(u32 cache_type, struct page *page, unsigned int order);
void dxgpmo_pool_put_back(u32 cache_type, struct page *page,
			  unsigned int order);
void dxgpmo_pool_read_stats(struct dxgpmo_pool_stats *stats);
int dxgpmo_pool_init(void);
void dxgpmo_pool_exit(void);

#endif /* _DXGPMO_POOL_H */
