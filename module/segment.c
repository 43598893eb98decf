// SPDX-License-Identifier: GPL-2.0
/*
 * Adapter segments: each adapter's emulated local memory ("VRAM"), segment
 * id 1, segment_mb MiB, backed by pages allocated zeroed on first touch and
 * shared by every file (it is the adapter's memory, not a file's).
 *
 * The CPU reaches a segment by mmap(2) of /dev/dxgpmo at adapter_id << 36.
 * Those mappings are page-backed and writable from the first fault: CPU
 * writes are tracked by the MMU's own dirty bit in the PTEs, not by write
 * faults.  Collecting them (a query, a START) walks every PTE that maps the
 * range, in every process, through the segment's address_space, records and
 * cleans the dirty ones with one ranged TLB flush per mapping - the helper
 * vmwgfx uses for the same job.  A write costs nothing while tracking is on;
 * a write-fault scheme costs a fault per page per query period plus a zap
 * per page to re-arm, which made tracked writes 20x slower than soft-dirty.
 *
 * The adapter reaches its segment with ADAPTER_DMA at device addresses from
 * DXGPMO_SEGMENT_DEVICE_BASE: each page is mapped for the device with the
 * DMA API for the transfer, and a device write marks the page dirty.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/slab.h>

#include "internal.h"

struct address_space *dxgpmo_shared_mapping;

int dxgpmo_segment_create(struct dxgpmo_adapter *adapter)
{
	struct dxgpmo_segment *segment;

	segment = kzalloc(sizeof(*segment), GFP_KERNEL);
	if (!segment)
		return -ENOMEM;
	mutex_init(&segment->lock);
	xa_init(&segment->pages);
	INIT_LIST_HEAD(&segment->bases);
	segment->size = (u64)dxgpmo_segment_mb << 20;
	segment->mmap_base = (u64)adapter->id << DXGPMO_SEGMENT_SHIFT;
	adapter->segment = segment;
	return 0;
}

/* The adapter is gone: no mapping, basis or DMA refers to it any more. */
void dxgpmo_segment_destroy(struct dxgpmo_adapter *adapter)
{
	struct dxgpmo_segment *segment = adapter->segment;
	struct page *page;
	unsigned long index;

	if (!segment)
		return;
	WARN_ON(!list_empty(&segment->bases));
	xa_for_each(&segment->pages, index, page) {
		__free_page(page);
		dxgpmo_count_global(DXGPMO_CNT_SEGMENT_PAGES, -1);
	}
	xa_destroy(&segment->pages);
	mutex_destroy(&segment->lock);
	kfree(segment);
}

/* The page at index, allocated zeroed on first touch. */
struct page *dxgpmo_segment_page(struct dxgpmo_segment *segment,
				 unsigned long index)
{
	struct page *page, *old;

	page = xa_load(&segment->pages, index);
	if (page)
		return page;
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

/*
 * Set the bits of every tracked basis for [offset, offset + length) of the
 * segment.  Called with the segment lock held.
 */
static void dxgpmo_segment_mark_locked(struct dxgpmo_segment *segment,
				       u64 offset, u64 length)
{
	u64 ps = dxgpmo_dirty_page_size, last = offset + length - 1;
	struct dxgpmo_basis *basis;
	u32 i;

	lockdep_assert_held(&segment->lock);
	list_for_each_entry(basis, &segment->bases, segment_node) {
		if (!basis->track_count)
			continue;
		for (i = 0; i < basis->nr_ranges; i++) {
			const struct dxgpmo_basis_range *r = &basis->ranges[i];
			u64 from = max(offset, r->offset);
			u64 to = min(last, r->offset + r->length - 1);
			u64 t;

			if (from > to)
				continue;
			for (t = div64_u64(from - r->offset, ps);
			     t <= div64_u64(to - r->offset, ps); t++)
				set_bit(r->first_bit + t, basis->bitmap);
		}
	}
}

void dxgpmo_segment_mark_dirty(struct dxgpmo_segment *segment, u64 offset,
			       u64 length)
{
	mutex_lock(&segment->lock);
	dxgpmo_segment_mark_locked(segment, offset, length);
	mutex_unlock(&segment->lock);
}

/*
 * Move the CPU writes to [offset, offset + length) of the segment from the
 * PTEs (and from pages whose PTEs are gone) into the bits of every tracked
 * basis.  The helper guarantees that a PTE dirty when it starts is recorded
 * and that one dirtied meanwhile is recorded or stays dirty, so no write is
 * ever lost, only possibly reported by the next collection too.  Offset and
 * length are page aligned.
 */
int dxgpmo_segment_collect(struct dxgpmo_segment *segment, u64 offset,
			   u64 length)
{
	pgoff_t first = (segment->mmap_base + offset) >> PAGE_SHIFT;
	pgoff_t nr = length >> PAGE_SHIFT;
	pgoff_t start = 0, end = 0;	/* the helper's range of set bits */
	XA_STATE(xas, &segment->pages, offset >> PAGE_SHIFT);
	unsigned long *dirty;
	unsigned long b, e;
	struct page *page;

	dirty = bitmap_zalloc(nr, GFP_KERNEL);
	if (!dirty)
		return -ENOMEM;
	clean_record_shared_mapping_range(dxgpmo_shared_mapping, first, nr,
					  first, dirty, &start, &end);
	/*
	 * A dirty PTE zapped since (munmap, exit) left its bit on the page
	 * instead: the core marks the page dirty when it drops the PTE.
	 * Segment pages live as long as the adapter, so RCU is enough.
	 */
	rcu_read_lock();
	xas_for_each(&xas, page, (offset >> PAGE_SHIFT) + nr - 1) {
		if (xas_retry(&xas, page))
			continue;
		if (PageDirty(page) && TestClearPageDirty(page))
			__set_bit(xas.xa_index - (offset >> PAGE_SHIFT), dirty);
	}
	rcu_read_unlock();
	if (!bitmap_empty(dirty, nr)) {
		mutex_lock(&segment->lock);
		for_each_set_bitrange(b, e, dirty, nr)
			dxgpmo_segment_mark_locked(segment,
						   offset + ((u64)b << PAGE_SHIFT),
						   (u64)(e - b) << PAGE_SHIFT);
		mutex_unlock(&segment->lock);
	}
	bitmap_free(dirty);
	return 0;
}

static struct dxgpmo_adapter *dxgpmo_segment_adapter(struct vm_area_struct *vma)
{
	return vma->vm_private_data;
}

static void dxgpmo_seg_vm_open(struct vm_area_struct *vma)
{
	kref_get(&dxgpmo_segment_adapter(vma)->kref);
}

static void dxgpmo_seg_vm_close(struct vm_area_struct *vma)
{
	dxgpmo_adapter_put(dxgpmo_segment_adapter(vma));
}

static vm_fault_t dxgpmo_seg_vm_fault(struct vm_fault *vmf)
{
	struct dxgpmo_segment *segment =
		dxgpmo_segment_adapter(vmf->vma)->segment;
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
	.open = dxgpmo_seg_vm_open,
	.close = dxgpmo_seg_vm_close,
	.fault = dxgpmo_seg_vm_fault,
};

/* mmap(2) of a segment window: offset adapter_id << DXGPMO_SEGMENT_SHIFT. */
int dxgpmo_segment_mmap(struct file *filp, struct vm_area_struct *vma)
{
	u64 offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u32 id = offset >> DXGPMO_SEGMENT_SHIFT;
	struct dxgpmo_adapter *adapter;
	u64 start, len = vma->vm_end - vma->vm_start;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	adapter = dxgpmo_adapter_get(id);
	if (!adapter)
		return -EINVAL;
	start = offset - adapter->segment->mmap_base;
	if (start + len < start || start + len > adapter->segment->size) {
		dxgpmo_adapter_put(adapter);
		return -EINVAL;
	}
	dxgpmo_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_private_data = adapter;
	vma->vm_ops = &dxgpmo_seg_vm_ops;
	return 0;
}

/*
 * ADAPTER_DMA into the segment: each page is mapped for the adapter for the
 * transfer and unmapped after it; device writes mark the pages dirty.
 */
int dxgpmo_segment_dma(struct dxgpmo_adapter *adapter, bool to_memory,
		       u64 offset, void *buf, size_t len)
{
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
		dma = dma_map_page(adapter->dev, page, 0, PAGE_SIZE,
				   DMA_BIDIRECTIONAL);
		if (dma_mapping_error(adapter->dev, dma))
			return -ENOMEM;
		ret = dxgpmo_edu_transfer(adapter->edu, to_memory,
					  dma + (off & ~PAGE_MASK), buf + done,
					  n);
		dma_unmap_page(adapter->dev, dma, PAGE_SIZE, DMA_BIDIRECTIONAL);
		if (ret)
			return ret;
		if (to_memory)
			dxgpmo_segment_mark_dirty(segment, off, n);
		done += n;
	}
	return 0;
}
