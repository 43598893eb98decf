/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adapters' local-memory segments: sparse pages shared by every file,
 * mapped by mmap(2) of the device file and reached by the adapter's engine.
 */
#ifndef _DXGPMO_SEGMENT_H
#define _DXGPMO_SEGMENT_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct dxgpmo_adapter;
struct file;
struct vm_area_struct;

/*
 * An adapter's emulated local-memory segment ("VRAM"): sparse pages
 * allocated on first touch, shared by every file, freed with the adapter.
 */
struct dxgpmo_segment {
	struct xarray pages;		/* page index -> struct page */
	u64 size;
	u64 mmap_base;			/* adapter_id << DXGPMO_SEGMENT_SHIFT */
	/* The bases on the segment, their bitmaps and tracking counts. */
	struct mutex lock;
	struct list_head bases;
	/*
	 * One dirty collection at a time: cleaning PTEs and merging what
	 * they said into every basis is one step, or a concurrent query of
	 * another basis would see a page clean before its bit arrived.
	 */
	struct mutex collect_lock;
	/*
	 * One transfer's mapping at a time: the engine runs one anyway, and
	 * mappings of the same bytes waiting for it would pile up (DMA-API
	 * debugging warns beyond 7 of one cacheline).
	 */
	struct mutex dma_lock;
};

extern unsigned int dxgpmo_dirty_page_size;
int dxgpmo_segment_check_params(void);
struct dxgpmo_segment *dxgpmo_segment_create(u32 adapter_id);
void dxgpmo_segment_destroy(struct dxgpmo_segment *segment);
int dxgpmo_segment_mmap(struct file *filp, struct vm_area_struct *vma);
int dxgpmo_segment_dma(struct dxgpmo_adapter *adapter, bool to_memory,
		       u64 offset, void *buf, size_t len);

#endif /* _DXGPMO_SEGMENT_H */
