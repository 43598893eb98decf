/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adapters' local-memory segments: sparse pages shared by every file,
 * mapped by mmap(2) of the device file and reached by the adapter's engine.
 */
#ifndef _DXGPMO_SEGMENT_H
#define _DXGPMO_SEGMENT_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/pgtable.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "dirty.h"

struct file;
struct page;
struct vm_area_struct;

/*
 * mmap(2) offset space of /dev/dxgpmo: each adapter's segment window sits at
 * adapter_id << DXGPMO_SEGMENT_SHIFT; object windows are handed out above
 * DXGPMO_OBJECT_MMAP_BASE (window.c).
 */
#define DXGPMO_SEGMENT_SHIFT		36
#define DXGPMO_OBJECT_MMAP_BASE		(1ULL << 44)

#define DXGPMO_GRANULE_MAP_LOCKS	16

/*
 * An adapter's emulated local-memory segment ("VRAM"): sparse pages
 * allocated on first touch, shared by every file.  The adapter holds one
 * reference and each view (VMA) one, so a view outlives a removed adapter
 * without the segment knowing its adapter.
 */
struct dxgpmo_segment {
	struct kref kref;
	struct xarray pages;		/* page index -> struct page */
	u64 size;
	u64 mmap_base;			/* adapter_id << DXGPMO_SEGMENT_SHIFT */
	/* Frees the id, hence the offset range, once no view is left. */
	void (*release_id)(u32 id);
	/* The dirty logs of the bases on the segment. */
	struct dxgpmo_dirty_set dirty;
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
#ifdef DXGPMO_GRANULES
	/*
	 * With 2 MiB dirty pages (segment_granule.c): the granules written
	 * since their last collection, and those backed by one 2 MiB block.
	 * A fault sets a written bit and maps the granule writable under
	 * granule_sem for reading; a collection clears bits and unmaps their
	 * granules under it for writing, so no granule is ever writable with
	 * its bit clear.
	 */
	unsigned long *written;
	unsigned long *blocks;
	struct rw_semaphore granule_sem;
	/* One granule's allocation at a time. */
	struct mutex populate_lock;
	/*
	 * A granule's mapping changes one at a time, by hash: a huge fault's
	 * look at its PMD and insert, a 4 KiB fault's inserts.
	 */
	struct mutex map_locks[DXGPMO_GRANULE_MAP_LOCKS];
#endif
};

extern unsigned int dxgpmo_dirty_page_size;

/*
 * 2 MiB dirty pages are tracked by write faults on 2 MiB granules where the
 * kernel maps PFNs with PMDs; smaller ones, and 2 MiB ones elsewhere, by
 * the dirty bits of the PTEs (basis.c): with 4 KiB PTEs only, a write
 * fault per granule means mapping and unmapping its 512 PTEs per period,
 * which costs more than the walk.
 */
static inline bool dxgpmo_segment_tracks_by_faults(void)
{
#ifdef DXGPMO_GRANULES
	return dxgpmo_dirty_page_size == PMD_SIZE;
#else
	return false;
#endif
}

int dxgpmo_segment_check_params(void);
struct dxgpmo_segment *dxgpmo_segment_create(u32 adapter_id,
					     void (*release_id)(u32 id));
void dxgpmo_segment_put(struct dxgpmo_segment *segment);
int dxgpmo_segment_mmap(struct dxgpmo_segment *segment,
			struct vm_area_struct *vma);
unsigned long dxgpmo_segment_get_unmapped_area(struct file *filp,
					       unsigned long addr,
					       unsigned long len,
					       unsigned long pgoff,
					       unsigned long flags);
struct page *dxgpmo_segment_page(struct dxgpmo_segment *segment,
				 unsigned long index);
struct page *dxgpmo_segment_alloc_page(struct dxgpmo_segment *segment,
				       unsigned long index);
/* The caller holds the segment's collect_lock. */
int dxgpmo_segment_collect(struct dxgpmo_segment *segment, u64 offset,
			   u64 length);
/* A segment VMA holds its segment, whichever way it is tracked. */
void dxgpmo_segment_vm_open(struct vm_area_struct *vma);
void dxgpmo_segment_vm_close(struct vm_area_struct *vma);
struct dxgpmo_segment *dxgpmo_segment_of_vma(struct vm_area_struct *vma);

#endif /* _DXGPMO_SEGMENT_H */
