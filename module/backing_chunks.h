/* SPDX-License-Identifier: GPL-2.0 */
/* MDL and CONTIGUOUS objects: pages from the page allocator or the pool. */
#ifndef _DXGPMO_BACKING_CHUNKS_H
#define _DXGPMO_BACKING_CHUNKS_H

#include <linux/types.h>

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
