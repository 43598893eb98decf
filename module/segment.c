// SPDX-License-Identifier: GPL-2.0
/*
 * Adapter segments: each adapter's emulated local memory ("VRAM"), segment
 * id 1, segment_mb MiB, backed by pages allocated zeroed on first touch and
 * shared by every file (it is the adapter's memory, not a file's).
 *
 * The CPU reaches a segment by mmap(2) of /dev/dxgpmo at adapter_id << 36.
 * With 2 MiB dirty pages, where the kernel maps PFNs with PMDs,
 * segment_granule.c maps and tracks it instead.  Otherwise those mappings
 * are page-backed and writable from the first fault: CPU writes are
 * tracked by the MMU's own dirty bit in the PTEs, not by write faults.
 * Collecting them (dxgpmo_segment_collect(), for a basis's query or START)
 * walks every PTE that maps the range, in every process, through the
 * segment's address_space, records the dirty ones in the dirty logs on the
 * segment (dirty.c) and cleans them with one ranged TLB flush per mapping
 * - the helper vmwgfx uses for the same job.  A write costs nothing while
 * tracking is on; a write-fault scheme costs a fault per page per query
 * period plus a zap per page to re-arm, which made tracked writes 20x
 * slower than soft-dirty.
 *
 * The adapter's engine reaches its segment through adapter_dma.c, which
 * records its writes in the same logs.
 */
#include <linux/bitmap.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/pagemap.h>
#include <linux/slab.h>

#include "compat.h"
#include "dirty.h"
#include "fs.h"
#include "segment.h"
#include "segment_granule.h"
#include "stats.h"

static unsigned int dxgpmo_segment_mb = 64;
module_param_named(segment_mb, dxgpmo_segment_mb, uint, 0444);
MODULE_PARM_DESC(segment_mb,
		 "Size in MiB of each adapter's emulated local-memory segment, default 64");

/*
 * The bases on a segment (basis.c) track it by pages of this size;
 * QUERY_ADAPTERS reports it with the segment.
 */
unsigned int dxgpmo_dirty_page_size = 4096;
module_param_named(dirty_page_size, dxgpmo_dirty_page_size, uint, 0444);
MODULE_PARM_DESC(dirty_page_size,
		 "Dirty-tracking page size in bytes: 4096 to 65536, a power of two, or 2 MiB; default 4096");

/* At module load, before anything is set up. */
int dxgpmo_segment_check_params(void)
{
	if (dxgpmo_dirty_page_size != PMD_SIZE &&
	    (dxgpmo_dirty_page_size < PAGE_SIZE ||
	     dxgpmo_dirty_page_size > 16 * PAGE_SIZE ||
	     !is_power_of_2(dxgpmo_dirty_page_size))) {
		pr_err("dxgpmo: dirty_page_size must be a power of two from %lu to %lu, or %lu\n",
		       PAGE_SIZE, 16 * PAGE_SIZE, PMD_SIZE);
		return -EINVAL;
	}
	if (!dxgpmo_segment_mb ||
	    (u64)dxgpmo_segment_mb << 20 > 1ULL << DXGPMO_SEGMENT_SHIFT) {
		pr_err("dxgpmo: segment_mb must be 1..%llu\n",
		       1ULL << (DXGPMO_SEGMENT_SHIFT - 20));
		return -EINVAL;
	}
	return 0;
}

struct dxgpmo_segment *dxgpmo_segment_create(u32 adapter_id,
					     void (*release_id)(u32 id))
{
	struct dxgpmo_segment *segment;

	segment = kzalloc(sizeof(*segment), GFP_KERNEL);
	if (!segment)
		return ERR_PTR(-ENOMEM);
	kref_init(&segment->kref);
	dxgpmo_dirty_set_init(&segment->dirty, ilog2(dxgpmo_dirty_page_size));
	mutex_init(&segment->collect_lock);
	mutex_init(&segment->dma_lock);
	xa_init(&segment->pages);
	segment->size = (u64)dxgpmo_segment_mb << 20;
	segment->mmap_base = (u64)adapter_id << DXGPMO_SEGMENT_SHIFT;
	segment->release_id = release_id;
	if (dxgpmo_segment_tracks_by_faults() && dxgpmo_granule_init(segment)) {
		mutex_destroy(&segment->dma_lock);
		mutex_destroy(&segment->collect_lock);
		dxgpmo_dirty_set_destroy(&segment->dirty);
		kfree(segment);
		return ERR_PTR(-ENOMEM);
	}
	return segment;
}

/* The adapter and the last view are gone: no basis or DMA can remain. */
static void dxgpmo_segment_release(struct kref *kref)
{
	struct dxgpmo_segment *segment =
		container_of(kref, struct dxgpmo_segment, kref);
	struct page *page;
	unsigned long index;

	/* Up to segment_mb of pages, often from the last view's munmap. */
	xa_for_each(&segment->pages, index, page) {
		__free_page(page);
		dxgpmo_count_global(DXGPMO_CNT_SEGMENT_PAGES, -1);
		if (!(index % 1024))
			cond_resched();
	}
	xa_destroy(&segment->pages);
	if (dxgpmo_segment_tracks_by_faults())
		dxgpmo_granule_destroy(segment);
	mutex_destroy(&segment->dma_lock);
	mutex_destroy(&segment->collect_lock);
	dxgpmo_dirty_set_destroy(&segment->dirty);
	segment->release_id(segment->mmap_base >> DXGPMO_SEGMENT_SHIFT);
	kfree(segment);
}

void dxgpmo_segment_put(struct dxgpmo_segment *segment)
{
	kref_put(&segment->kref, dxgpmo_segment_release);
}

/* The page at index, allocated zeroed on first touch. */
struct page *dxgpmo_segment_page(struct dxgpmo_segment *segment,
				 unsigned long index)
{
	struct page *page = xa_load(&segment->pages, index);

	if (page)
		return page;
	if (dxgpmo_segment_tracks_by_faults())
		return dxgpmo_granule_populate(segment, index);
	return dxgpmo_segment_alloc_page(segment, index);
}

/* One zeroed page at index, unless someone else was first. */
struct page *dxgpmo_segment_alloc_page(struct dxgpmo_segment *segment,
				       unsigned long index)
{
	struct page *page, *old;

	page = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
	if (!page)
		return ERR_PTR(-ENOMEM);
	old = xa_cmpxchg(&segment->pages, index, NULL, page, GFP_KERNEL);
	if (xa_is_err(old)) {
		__free_page(page);
		return ERR_PTR(xa_err(old));
	}
	if (old) {
		__free_page(page);	/* someone else was first */
		return old;
	}
	dxgpmo_count_global(DXGPMO_CNT_SEGMENT_PAGES, 1);
	return page;
}

struct dxgpmo_segment *dxgpmo_segment_of_vma(struct vm_area_struct *vma)
{
	return vma->vm_private_data;
}

void dxgpmo_segment_vm_open(struct vm_area_struct *vma)
{
	kref_get(&dxgpmo_segment_of_vma(vma)->kref);
}

void dxgpmo_segment_vm_close(struct vm_area_struct *vma)
{
	dxgpmo_segment_put(dxgpmo_segment_of_vma(vma));
}

static vm_fault_t dxgpmo_seg_vm_fault(struct vm_fault *vmf)
{
	struct dxgpmo_segment *segment = dxgpmo_segment_of_vma(vmf->vma);
	unsigned long index = vmf->pgoff -
			      (segment->mmap_base >> PAGE_SHIFT);
	struct page *page;

	if (index >= segment->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	page = dxgpmo_segment_page(segment, index);
	if (IS_ERR(page))
		return vmf_error(PTR_ERR(page));
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct dxgpmo_seg_vm_ops = {
	.open = dxgpmo_segment_vm_open,
	.close = dxgpmo_segment_vm_close,
	.fault = dxgpmo_seg_vm_fault,
};

/*
 * mmap(2) of a segment window, at offset adapter_id << DXGPMO_SEGMENT_SHIFT
 * (window.c finds the adapter); the view holds the segment.
 */
int dxgpmo_segment_mmap(struct dxgpmo_segment *segment,
			struct vm_area_struct *vma)
{
	u64 start = ((u64)vma->vm_pgoff << PAGE_SHIFT) - segment->mmap_base;
	u64 len = vma->vm_end - vma->vm_start;

	if (start + len < start || start + len > segment->size)
		return -EINVAL;
	/*
	 * A view that can never be written stays out of the shared mapping:
	 * the kernel's walk for dirty PTEs (walk_page_mapping()) stops at the
	 * first VMA it may not clean, which would hide the PTEs of every
	 * writer behind it from dirty tracking.  Nothing needs to find this
	 * view later: segment pages live as long as the segment it holds.
	 */
	if (!(vma->vm_flags & VM_MAYWRITE)) {
		struct file *readonly = dxgpmo_readonly_view_file();

		if (IS_ERR(readonly))
			return PTR_ERR(readonly);
		vma_set_file(vma, readonly);
		fput(readonly);		/* the VMA took its own reference */
	}
	/*
	 * VM_IO: the segment is the adapter's local memory, and like a
	 * GPU's VRAM mapping it cannot be pinned through get_user_pages().
	 * A long-term pin (io_uring fixed buffers, RDMA) would write through
	 * the kernel's mapping or the device, never setting a PTE dirty bit
	 * that tracking could find.
	 */
	dxgpmo_vm_flags_set(vma, VM_IO | VM_DONTEXPAND | VM_DONTDUMP);
	kref_get(&segment->kref);
	vma->vm_private_data = segment;
	vma->vm_ops = &dxgpmo_seg_vm_ops;
	if (dxgpmo_segment_tracks_by_faults()) {
		/*
		 * PFNs: the granules are mapped 2 MiB at a time where
		 * possible.  A child of fork() gets the view without its page
		 * tables, as for any shared file mapping, and faults: fork()
		 * copies a huge PMD it read without the PMD lock, and a
		 * collection in between would leave the child a writable
		 * granule with its bit clear.
		 */
		dxgpmo_vm_flags_set(vma, VM_PFNMAP | VM_WIPEONFORK);
		vma->vm_ops = &dxgpmo_granule_vm_ops;
	}
	return 0;
}

/*
 * Move the CPU writes to [offset, offset + length) of the segment from the
 * PTEs (and from pages whose PTEs are gone) into the dirty logs on the
 * segment.  The helper guarantees that a PTE dirty when it starts is recorded
 * and that one dirtied meanwhile is recorded or stays dirty, so no write is
 * ever lost, only possibly reported by the next collection too.  Offset and
 * length are page aligned.  The caller holds the segment's collect_lock.
 */
int dxgpmo_segment_collect(struct dxgpmo_segment *segment, u64 offset,
			   u64 length)
{
	pgoff_t first = (segment->mmap_base + offset) >> PAGE_SHIFT;
	pgoff_t nr = length >> PAGE_SHIFT;
	pgoff_t start = 0, end = 0;	/* the helper's range of set bits */
	XA_STATE(xas, &segment->pages, offset >> PAGE_SHIFT);
	unsigned long *dirty;
	struct page *page;

	lockdep_assert_held(&segment->collect_lock);
	if (dxgpmo_segment_tracks_by_faults())
		return dxgpmo_granule_collect(segment, offset, length);
	dirty = bitmap_zalloc(nr, GFP_KERNEL);
	if (!dirty)
		return -ENOMEM;
	clean_record_shared_mapping_range(dxgpmo_shared_mapping, first, nr,
					  first, dirty, &start, &end);
	/*
	 * A dirty PTE zapped since (munmap, exit) left its bit on the page
	 * instead: the core marks the page dirty when it drops the PTE.
	 * Segment pages live as long as the segment, so RCU is enough.
	 */
	rcu_read_lock();
	xas_for_each(&xas, page, (offset >> PAGE_SHIFT) + nr - 1) {
		if (xas_retry(&xas, page))
			continue;
		if (PageDirty(page) && TestClearPageDirty(page))
			__set_bit(xas.xa_index - (offset >> PAGE_SHIFT), dirty);
	}
	rcu_read_unlock();
	if (!bitmap_empty(dirty, nr))
		dxgpmo_dirty_record(&segment->dirty, offset,
				    (u64)nr << PAGE_SHIFT, dirty);
	bitmap_free(dirty);
	return 0;
}

/*
 * With 2 MiB dirty pages, a segment view's address is congruent to its
 * offset modulo 2 MiB, as filesystems with huge pages place theirs: its
 * granules can then be mapped a PMD each (segment_granule.c).  Every other
 * mapping of the device goes where mmap(2) would put it anyway.
 */
unsigned long dxgpmo_segment_get_unmapped_area(struct file *filp,
					       unsigned long addr,
					       unsigned long len,
					       unsigned long pgoff,
					       unsigned long flags)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	if (dxgpmo_dirty_page_size == PMD_SIZE &&
	    pgoff < DXGPMO_OBJECT_MMAP_BASE >> PAGE_SHIFT)
		return thp_get_unmapped_area(filp, addr, len, pgoff, flags);
#endif
	return dxgpmo_mm_get_unmapped_area(filp, addr, len, pgoff, flags);
}
