/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Segments tracked in 2 MiB dirty pages: write faults on 2 MiB granules,
 * mapped a PMD each where the kernel can (segment.c has the rest).  Built
 * only where the kernel maps PFNs with PMDs: every caller asks
 * dxgpmo_segment_tracks_by_faults() first, which is constant false
 * elsewhere, so the calls are compiled out.
 */
#ifndef _DXGPMO_SEGMENT_GRANULE_H
#define _DXGPMO_SEGMENT_GRANULE_H

#include <linux/types.h>

struct dxgpmo_segment;
struct page;

int dxgpmo_granule_init(struct dxgpmo_segment *segment);
void dxgpmo_granule_destroy(struct dxgpmo_segment *segment);
struct page *dxgpmo_granule_populate(struct dxgpmo_segment *segment,
				     unsigned long index);
/* The caller holds the segment's collect_lock. */
int dxgpmo_granule_collect(struct dxgpmo_segment *segment, u64 offset,
			   u64 length);
extern const struct vm_operations_struct dxgpmo_granule_vm_ops;

#endif /* _DXGPMO_SEGMENT_GRANULE_H */
