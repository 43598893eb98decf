// SPDX-License-Identifier: GPL-2.0
/*
 * Segments whose dirty pages are 2 MiB (dirty_page_size=2097152): tracked by
 * write faults on 2 MiB granules instead of the PTEs' dirty bits.
 *
 * Collecting PTE dirty bits costs a walk of every PTE of the range, 262,144
 * of them per GiB, and the kernel offers a module no walk that cleans huge
 * PMDs.  A granule costs one fault per tracking period instead: it is
 * mapped read-only until its first write, whose fault sets its bit and maps
 * it writable; a collection unmaps only the granules written since the last
 * one, and their next write faults again.  A granule backed by one 2 MiB
 * block is mapped with one PMD (this file is built only where the kernel
 * maps PFNs with PMDs and fork opens a VMA before copying its page tables,
 * module/Kbuild: Debian's 6.12 and later); one without a block, or
 * in a mapping not 2 MiB aligned in both address and offset, with PTEs,
 * read-only until a write maps the granule's writable.
 *
 * The mappings are PFN mappings: the pages belong to the segment, which
 * every segment VMA holds.
 */
#include <linux/bitmap.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "compat.h"
#include "dirty.h"
#include "fs.h"
#include "segment.h"
#include "segment_granule.h"
#include "stats.h"

#define DXGPMO_GRANULE_ORDER	(PMD_SHIFT - PAGE_SHIFT)
#define DXGPMO_GRANULE_PAGES	(1UL << DXGPMO_GRANULE_ORDER)

static unsigned long dxgpmo_granules(const struct dxgpmo_segment *segment)
{
	return DIV_ROUND_UP(segment->size, PMD_SIZE);
}

int dxgpmo_granule_init(struct dxgpmo_segment *segment)
{
	unsigned int i;

	init_rwsem(&segment->granule_sem);
	mutex_init(&segment->populate_lock);
	for (i = 0; i < DXGPMO_GRANULE_MAP_LOCKS; i++)
		mutex_init(&segment->map_locks[i]);
	segment->written = bitmap_zalloc(dxgpmo_granules(segment), GFP_KERNEL);
	segment->blocks = bitmap_zalloc(dxgpmo_granules(segment), GFP_KERNEL);
	if (!segment->written || !segment->blocks) {
		dxgpmo_granule_destroy(segment);
		return -ENOMEM;
	}
	return 0;
}

/* The pages themselves are freed with the segment's, one at a time. */
void dxgpmo_granule_destroy(struct dxgpmo_segment *segment)
{
	unsigned int i;

	for (i = 0; i < DXGPMO_GRANULE_MAP_LOCKS; i++)
		mutex_destroy(&segment->map_locks[i]);
	bitmap_free(segment->written);
	bitmap_free(segment->blocks);
	segment->written = NULL;
	segment->blocks = NULL;
	mutex_destroy(&segment->populate_lock);
}

/*
 * Store block as the granule of first, one page at a time: split, its
 * pages are freed like any other segment page.  The slots are reserved
 * first, so that the stores cannot fail halfway with pages already
 * visible to faults and DMA.  Called with populate_lock held.
 */
static int dxgpmo_granule_store_block(struct dxgpmo_segment *segment,
				      unsigned long first, struct page *block)
{
	unsigned long i;
	int ret;

	lockdep_assert_held(&segment->populate_lock);
	for (i = 0; i < DXGPMO_GRANULE_PAGES; i++) {
		ret = xa_reserve(&segment->pages, first + i, GFP_KERNEL);
		if (ret) {
			while (i--)
				xa_release(&segment->pages, first + i);
			return ret;
		}
	}
	/*
	 * Before its pages: a fault that finds one may map the block
	 * (smp_rmb() in dxgpmo_granule_huge_fault() pairs with the store's
	 * release).
	 */
	set_bit(first / DXGPMO_GRANULE_PAGES, segment->blocks);
	split_page(block, DXGPMO_GRANULE_ORDER);
	for (i = 0; i < DXGPMO_GRANULE_PAGES; i++)
		WARN_ON(xa_is_err(xa_store(&segment->pages, first + i,
					   dxgpmo_nth_page(block, i),
					   GFP_KERNEL)));
	dxgpmo_count_global(DXGPMO_CNT_SEGMENT_PAGES, DXGPMO_GRANULE_PAGES);
	return 0;
}

/*
 * The page at index, allocated on first touch with the rest of its
 * granule as one block when it can be: a granule without one, or the
 * segment's partial last one, gets pages one at a time and is mapped by
 * PTEs for good.  The block is allocated outside populate_lock, so that
 * one fault's reclaim does not hold up every other first touch (the loser
 * of a race frees its own), and without retrying hard, as THP's faults do.
 */
struct page *dxgpmo_granule_populate(struct dxgpmo_segment *segment,
				     unsigned long index)
{
	unsigned long first = round_down(index, DXGPMO_GRANULE_PAGES);
	unsigned long last = first + DXGPMO_GRANULE_PAGES - 1;
	struct page *block = NULL, *page;
	unsigned long at = first;

	/*
	 * A granule with a page already got no block (or is being given one):
	 * no allocation for its other pages.  Checked again under the lock.
	 */
	if ((u64)(last + 1) << PAGE_SHIFT <= segment->size &&
	    !xa_find(&segment->pages, &at, last, XA_PRESENT))
		block = alloc_pages(GFP_HIGHUSER | __GFP_ZERO | __GFP_NORETRY |
				    __GFP_NOWARN, DXGPMO_GRANULE_ORDER);
	at = first;
	mutex_lock(&segment->populate_lock);
	page = xa_load(&segment->pages, index);
	if (page)
		goto out;
	if (block && !xa_find(&segment->pages, &at, last, XA_PRESENT) &&
	    !dxgpmo_granule_store_block(segment, first, block)) {
		block = NULL;
		page = xa_load(&segment->pages, index);
		goto out;
	}
	page = dxgpmo_segment_alloc_page(segment, index);
out:
	mutex_unlock(&segment->populate_lock);
	if (block)
		__free_pages(block, DXGPMO_GRANULE_ORDER);
	return page;
}

/* The granule of a segment VMA's faulting address, by segment offset. */
static u64 dxgpmo_granule_offset(struct vm_area_struct *vma,
				 struct dxgpmo_segment *segment,
				 unsigned long address)
{
	pgoff_t pgoff = vma->vm_pgoff + ((address - vma->vm_start) >> PAGE_SHIFT);

	return ((u64)pgoff << PAGE_SHIFT) - segment->mmap_base;
}

static struct mutex *dxgpmo_granule_map_lock(struct dxgpmo_segment *segment,
					     u64 offset)
{
	return &segment->map_locks[(offset >> PMD_SHIFT) %
				   DXGPMO_GRANULE_MAP_LOCKS];
}

/*
 * A PTE insert that found no PTE table: a huge fault mapped the granule
 * with a PMD, which a collection may have unmapped since.  Either way the
 * access retries; only a table there means the insert really had no
 * memory.
 */
static vm_fault_t dxgpmo_granule_pte_retry(struct vm_fault *vmf,
					   vm_fault_t ret)
{
	pmd_t pmd = READ_ONCE(*vmf->pmd);

	if (ret == VM_FAULT_OOM && (pmd_none(pmd) || pmd_leaf(pmd)))
		return VM_FAULT_NOPAGE;
	return ret;
}

/*
 * The VMA's own open, and on fork() the child's VMA's, called before the
 * copy of the page tables: a view must stay VM_WIPEONFORK (see
 * dxgpmo_segment_mmap()), which MADV_KEEPONFORK would clear.  The mm is
 * locked for writing in every caller.
 */
static void dxgpmo_granule_vm_open(struct vm_area_struct *vma)
{
	dxgpmo_segment_vm_open(vma);
	if (!(vma->vm_flags & VM_WIPEONFORK))
		dxgpmo_vm_flags_set(vma, VM_WIPEONFORK);
}

/*
 * A write to the granule at offset through the 4 KiB PTEs of vma: set its
 * bit and map every page of it the VMA holds writable, so that the granule
 * costs one fault, not one per page; with unmap, the pages a read mapped
 * read-only too, which are unmapped first.  Under granule_sem for reading,
 * so that a collection sees the bit and the mappings both or neither, and
 * the granule's map lock.
 */
static vm_fault_t dxgpmo_granule_write_ptes(struct vm_fault *vmf,
					    struct dxgpmo_segment *segment,
					    u64 offset, bool unmap)
{
	struct mutex *lock = dxgpmo_granule_map_lock(segment, offset);
	struct vm_area_struct *vma = vmf->vma;
	unsigned long addr = vmf->address & PAGE_MASK;
	unsigned long back = offset & ~PMD_MASK;
	pgprot_t writable = vm_get_page_prot(vma->vm_flags);
	unsigned long start, end;
	vm_fault_t ret = VM_FAULT_NOPAGE;

	down_read(&segment->granule_sem);
	mutex_lock(lock);
	set_bit(offset >> PMD_SHIFT, segment->written);
	start = addr - vma->vm_start > back ? addr - back : vma->vm_start;
	end = vma->vm_end - addr > PMD_SIZE - back ? addr + PMD_SIZE - back :
						     vma->vm_end;
	if (unmap)
		dxgpmo_zap_pfn_range(vma, start, end - start);
	for (addr = start; addr < end; addr += PAGE_SIZE) {
		u64 at = dxgpmo_granule_offset(vma, segment, addr);
		struct page *page;
		vm_fault_t one;

		if (at >= segment->size)
			break;
		page = xa_load(&segment->pages, at >> PAGE_SHIFT);
		if (!page)
			continue;
		one = vmf_insert_pfn_prot(vma, addr, page_to_pfn(page),
					  writable);
		if (addr == (vmf->address & PAGE_MASK))
			ret = one;
	}
	mutex_unlock(lock);
	up_read(&segment->granule_sem);
	return dxgpmo_granule_pte_retry(vmf, ret);
}

/*
 * A 4 KiB fault.  A read maps the page read-only (the VMA's protection
 * has no write: pfn_mkwrite makes it want write notification); a write
 * maps the granule writable with its bit set.
 */
static vm_fault_t dxgpmo_granule_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct dxgpmo_segment *segment = dxgpmo_segment_of_vma(vma);
	u64 offset = dxgpmo_granule_offset(vma, segment, vmf->address);
	struct page *page;
	vm_fault_t ret;

	if (offset >= segment->size)
		return VM_FAULT_SIGBUS;
	page = dxgpmo_segment_page(segment, offset >> PAGE_SHIFT);
	if (IS_ERR(page))
		return vmf_error(PTR_ERR(page));
	if (!(vmf->flags & FAULT_FLAG_WRITE)) {
		struct mutex *lock = dxgpmo_granule_map_lock(segment, offset);

		mutex_lock(lock);
		ret = vmf_insert_pfn(vma, vmf->address, page_to_pfn(page));
		mutex_unlock(lock);
		return dxgpmo_granule_pte_retry(vmf, ret);
	}
	return dxgpmo_granule_write_ptes(vmf, segment, offset, false);
}

/*
 * The first write to a read-only 4 KiB PTE.  Letting the core make it
 * writable (returning 0) would race with a collection: one that unmaps the
 * PTE and clears the bit after this, and a read that maps the page
 * read-only again before the core looks, leave the core the same PTE to
 * make writable, with the bit clear.  The granule is mapped writable here
 * instead, under granule_sem, and the core told that it is done.  Legal
 * here: the core dropped the PTE lock, and a fault under the VMA lock was
 * retried under mmap_lock (there is no map_pages).
 */
static vm_fault_t dxgpmo_granule_pfn_mkwrite(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct dxgpmo_segment *segment = dxgpmo_segment_of_vma(vma);

	return dxgpmo_granule_write_ptes(vmf, segment,
					 dxgpmo_granule_offset(vma, segment,
							       vmf->address),
					 true);
}

/*
 * Map the granule at offset (pfn) with the fault's PMD, writable for a
 * write.  A writable insert over anything but a leaf warns, and another
 * thread may have put a PTE table there (its fault fell back: THP was
 * turned off for the process meanwhile): such a PMD is left to 4 KiB
 * faults.  The look and the insert are one step under the granule's map
 * lock, which every fault that maps the granule takes: no table can come
 * in between.  A collection may unmap a leaf meanwhile: the insert then
 * finds none, which it handles.
 */
static vm_fault_t dxgpmo_granule_map_pmd(struct vm_fault *vmf,
					 struct dxgpmo_segment *segment,
					 u64 offset, unsigned long pfn,
					 bool write)
{
	struct mutex *lock = dxgpmo_granule_map_lock(segment, offset);
	vm_fault_t ret = VM_FAULT_FALLBACK;
	pmd_t pmd;

	mutex_lock(lock);
	pmd = pmdp_get(vmf->pmd);
	if (pmd_none(pmd) || pmd_leaf(pmd)) {
		ret = dxgpmo_vmf_insert_pfn_pmd(vmf, pfn, write);
		if (ret == VM_FAULT_NOPAGE && pmd_none(pmd))
			dxgpmo_count_global(DXGPMO_CNT_SEGMENT_PMD_MAPS, 1);
	}
	mutex_unlock(lock);
	return ret;
}

/*
 * A whole granule, when it is one block and the VMA holds it at a 2 MiB
 * aligned address: read-only on a read, writable with its bit on a write
 * (also the first write to a read-only one, which the core brings here).
 * Anything else falls back to 4 KiB faults.
 */
static vm_fault_t dxgpmo_granule_huge_fault(struct vm_fault *vmf,
					    unsigned int order)
{
	struct vm_area_struct *vma = vmf->vma;
	struct dxgpmo_segment *segment = dxgpmo_segment_of_vma(vma);
	unsigned long start = vmf->address & PMD_MASK;
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	struct page *page;
	vm_fault_t ret;
	u64 offset;

	if (order != PMD_ORDER || start < vma->vm_start ||
	    start + PMD_SIZE > vma->vm_end)
		return VM_FAULT_FALLBACK;
	offset = dxgpmo_granule_offset(vma, segment, start);
	if (!IS_ALIGNED(offset, PMD_SIZE) || offset + PMD_SIZE > segment->size)
		return VM_FAULT_FALLBACK;
	page = dxgpmo_segment_page(segment, offset >> PAGE_SHIFT);
	if (IS_ERR(page))
		return vmf_error(PTR_ERR(page));
	smp_rmb();	/* the page before its granule's block bit */
	if (!test_bit(offset >> PMD_SHIFT, segment->blocks))
		return VM_FAULT_FALLBACK;
	if (!write)
		return dxgpmo_granule_map_pmd(vmf, segment, offset,
					      page_to_pfn(page), false);
	down_read(&segment->granule_sem);
	set_bit(offset >> PMD_SHIFT, segment->written);
	ret = dxgpmo_granule_map_pmd(vmf, segment, offset, page_to_pfn(page),
				     true);
	up_read(&segment->granule_sem);
	return ret;
}

const struct vm_operations_struct dxgpmo_granule_vm_ops = {
	.open = dxgpmo_granule_vm_open,
	.close = dxgpmo_segment_vm_close,
	.fault = dxgpmo_granule_fault,
	.pfn_mkwrite = dxgpmo_granule_pfn_mkwrite,
	.huge_fault = dxgpmo_granule_huge_fault,
};

/*
 * Move the writes to the granules of [offset, offset + length) since their
 * last collection into the dirty logs on the segment, and re-arm those
 * granules: unmapped, in every process, their next access faults again.
 * Offset and length are granule aligned.  The caller holds collect_lock.
 */
int dxgpmo_granule_collect(struct dxgpmo_segment *segment, u64 offset,
			   u64 length)
{
	unsigned long end = (offset + length) >> PMD_SHIFT;
	unsigned long from = offset >> PMD_SHIFT, to;

	lockdep_assert_held(&segment->collect_lock);
	down_write(&segment->granule_sem);
	for (;;) {
		from = find_next_bit(segment->written, end, from);
		if (from >= end)
			break;
		to = find_next_zero_bit(segment->written, end, from);
		unmap_mapping_range(dxgpmo_shared_mapping,
				    segment->mmap_base + ((u64)from << PMD_SHIFT),
				    (u64)(to - from) << PMD_SHIFT, 1);
		bitmap_clear(segment->written, from, to - from);
		dxgpmo_dirty_record(&segment->dirty, (u64)from << PMD_SHIFT,
				    (u64)(to - from) << PMD_SHIFT, NULL);
		from = to;
	}
	up_write(&segment->granule_sem);
	return 0;
}
