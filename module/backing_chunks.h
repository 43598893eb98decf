/* SPDX-License-Identifier: GPL-2.0 */
/* MDL and CONTIGUOUS objects: pages from the page allocator or the pool. */
#ifndef _DXGPMO_BACKING_CHUNKS_H
#define _DXGPMO_BACKING_CHUNKS_H

#include <linux/gfp.h>
#include <linux/types.h>

/*
 * How an object's pages are allocated: zeroed and charged to the caller's
 * memory cgroup; a high order is only tried, never reclaimed or compacted
 * for (lower orders follow), order 0 may fail rather than wake the OOM
 * killer.  The bench's zeroing floor allocates with the same flags.
 */
#define DXGPMO_GFP_BASE		(GFP_USER | __GFP_ZERO | __GFP_ACCOUNT | \
				 __GFP_NOWARN)
#define DXGPMO_GFP_HIGH_ORDER	((DXGPMO_GFP_BASE | __GFP_NORETRY | \
				  __GFP_COMP) & ~__GFP_RECLAIM)
#define DXGPMO_GFP_LOW_ORDER	(DXGPMO_GFP_BASE | __GFP_RETRY_MAYFAIL)

struct dxgpmo_alloc_request;
struct dxgpmo_backing;
struct dxgpmo_backing_ops;

extern const struct dxgpmo_backing_ops dxgpmo_mdl_backing_ops;
extern const struct dxgpmo_backing_ops dxgpmo_contiguous_backing_ops;

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
bool dxgpmo_phys_fits(u64 start, unsigned long nr_pages,
		      const struct dxgpmo_alloc_request *req);
unsigned int dxgpmo_chunk_of(struct dxgpmo_backing *backing,
			     unsigned long index);
#endif

#endif /* _DXGPMO_BACKING_CHUNKS_H */
