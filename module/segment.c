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
 * Collecting them (basis.c: a query, a START) walks every PTE that maps
 * the range, in every process, through the segment's address_space,
 * records and cleans the dirty ones with one ranged TLB flush per mapping
 * - the helper vmwgfx uses for the same job.  A write costs nothing while
 * tracking is on; a write-fault scheme costs a fault per page per query
 * period plus a zap per page to re-arm, which made tracked writes 20x
 * slower than soft-dirty.
 *
 * The adapter reaches its segment with ADAPTER_DMA at device addresses from
 * DXGPMO_SEGMENT_DEVICE_BASE: each page is mapped for the device with the
 * DMA API for the transfer, and a device write marks the page dirty.
 */
#include <linux/dma-mapping.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>

#include "adapter.h"
#include "basis.h"
#include "compat.h"
#include "dxgpmo.h"
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

struct dxgpmo_segment *dxgpmo_segment_create(u32 adapter_id)
{
	struct dxgpmo_segment *segment;

	segment = kzalloc(sizeof(*segment), GFP_KERNEL);
	if (!segment)
		return ERR_PTR(-ENOMEM);
	mutex_init(&segment->lock);
	mutex_init(&segment->collect_lock);
	mutex_init(&segment->dma_lock);
	xa_init(&segment->pages);
	INIT_LIST_HEAD(&segment->bases);
	segment->size = (u64)dxgpmo_segment_mb << 20;
	segment->mmap_base = (u64)adapter_id << DXGPMO_SEGMENT_SHIFT;
	if (dxgpmo_segment_tracks_by_faults() && dxgpmo_granule_init(segment)) {
		mutex_destroy(&segment->dma_lock);
		mutex_destroy(&segment->collect_lock);
		mutex_destroy(&segment->lock);
		kfree(segment);
		return ERR_PTR(-ENOMEM);
	}
	return segment;
}

/* The adapter is gone: no mapping, basis or DMA refers to it any more. */
void dxgpmo_segment_destroy(struct dxgpmo_segment *segment)
{
	struct page *page;
	unsigned long index;

	WARN_ON(!list_empty(&segment->bases));
	xa_for_each(&segment->pages, index, page) {
		__free_page(page);
		dxgpmo_count_global(DXGPMO_CNT_SEGMENT_PAGES, -1);
	}
	xa_destroy(&segment->pages);
	if (dxgpmo_segment_tracks_by_faults())
		dxgpmo_granule_destroy(segment);
	mutex_destroy(&segment->dma_lock);
	mutex_destroy(&segment->collect_lock);
	mutex_destroy(&segment->lock);
	kfree(segment);
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

static struct dxgpmo_adapter *dxgpmo_segment_adapter(struct vm_area_struct *vma)
{
	return vma->vm_private_data;
}

void dxgpmo_segment_vm_open(struct vm_area_struct *vma)
{
	kref_get(&dxgpmo_segment_adapter(vma)->kref);
}

void dxgpmo_segment_vm_close(struct vm_area_struct *vma)
{
	dxgpmo_adapter_put(dxgpmo_segment_adapter(vma));
}

struct dxgpmo_segment *dxgpmo_segment_of_vma(struct vm_area_struct *vma)
{
	return dxgpmo_segment_adapter(vma)->segment;
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

/* mmap(2) of a segment window: offset adapter_id << DXGPMO_SEGMENT_SHIFT. */
int dxgpmo_segment_mmap(struct file *filp, struct vm_area_struct *vma)
{
	u64 offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u32 id = offset >> DXGPMO_SEGMENT_SHIFT;
	struct dxgpmo_adapter *adapter;
	u64 start, len = vma->vm_end - vma->vm_start;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	adapter = dxgpmo_adapter_get(filp->private_data, id);
	if (IS_ERR(adapter))
		return -EINVAL;
	start = offset - adapter->segment->mmap_base;
	if (start + len < start || start + len > adapter->segment->size) {
		dxgpmo_adapter_put(adapter);
		return -EINVAL;
	}
	/*
	 * A view that can never be written stays out of the shared mapping:
	 * the kernel's walk for dirty PTEs (walk_page_mapping()) stops at the
	 * first VMA it may not clean, which would hide the PTEs of every
	 * writer behind it from dirty tracking.  Nothing needs to find this
	 * view later: segment pages live as long as the adapter it holds.
	 */
	if (!(vma->vm_flags & VM_MAYWRITE)) {
		struct file *readonly = dxgpmo_readonly_view_file();

		if (IS_ERR(readonly)) {
			dxgpmo_adapter_put(adapter);
			return PTR_ERR(readonly);
		}
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
	vma->vm_private_data = adapter;
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

/*
 * One piece of a segment page for one transfer, for the engine to read
 * (DMA_TO_DEVICE) or write (DMA_FROM_DEVICE).  Only the bytes moved are
 * mapped: if they were bounced, the copy-back of a whole page would
 * revert what the CPU and other transfers wrote to the rest of it
 * meanwhile.  Bounced they are not: without an IOMMU a page out of the
 * engine's reach is refused, as ADLs refuse theirs.  Segment pages are in
 * no ADL, and the segment's dma_lock keeps this the only mapping of them:
 * the DMA API's own syncs are right.
 */
static int dxgpmo_segment_dma_map(struct dxgpmo_adapter *adapter,
				  struct page *page, unsigned int offset,
				  size_t len, enum dma_data_direction dir,
				  dma_addr_t *dma)
{
	bool direct = !(adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU);
	phys_addr_t phys = page_to_phys(page) + offset;

	/* A forced bounce slot is not picked within the device's mask. */
	if (direct && (phys + len - 1 > dma_get_mask(adapter->dev) ||
		       is_swiotlb_force_bounce(adapter->dev)))
		return -EOPNOTSUPP;
	*dma = dma_map_page(adapter->dev, page, offset, len, dir);
	if (dma_mapping_error(adapter->dev, *dma))
		return -ENOMEM;
	if (direct && *dma != phys) {
		dma_unmap_page_attrs(adapter->dev, *dma, len, dir,
				     DMA_ATTR_SKIP_CPU_SYNC);
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * ADAPTER_DMA into the segment: each piece of a page is mapped for the
 * adapter for the transfer and unmapped after it; device writes mark the
 * pages dirty.
 */
int dxgpmo_segment_dma(struct dxgpmo_adapter *adapter, bool to_memory,
		       u64 offset, void *buf, size_t len)
{
	enum dma_data_direction dir = to_memory ? DMA_FROM_DEVICE :
						  DMA_TO_DEVICE;
	struct dxgpmo_segment *segment = adapter->segment;
	size_t done = 0;
	int ret = 0;

	if (offset + len < offset || offset + len > segment->size)
		return -EINVAL;
	while (done < len) {
		u64 off = offset + done;
		size_t n = min_t(size_t, len - done,
				 PAGE_SIZE - (off & ~PAGE_MASK));
		struct page *page;
		dma_addr_t dma;

		page = dxgpmo_segment_page(segment, off >> PAGE_SHIFT);
		if (IS_ERR(page))
			return PTR_ERR(page);
		if (mutex_lock_killable(&segment->dma_lock))
			return -EINTR;
		ret = dxgpmo_segment_dma_map(adapter, page, off & ~PAGE_MASK, n,
					     dir, &dma);
		if (ret) {
			mutex_unlock(&segment->dma_lock);
			return ret;
		}
		ret = dxgpmo_adapter_transfer(adapter, to_memory, dma,
					      buf + done, n);
		dma_unmap_page(adapter->dev, dma, n, dir);
		mutex_unlock(&segment->dma_lock);
		/*
		 * A transfer that failed or was interrupted may have written
		 * part of the piece: over-reporting is allowed, a lost write
		 * is not.
		 */
		if (to_memory)
			dxgpmo_basis_mark_dirty(segment, off, n);
		if (ret)
			return ret;
		done += n;
	}
	return 0;
}
