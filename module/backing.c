// SPDX-License-Identifier: GPL-2.0
/*
 * What every kind of object memory shares: choosing the type's ops,
 * reference counting and accounting, and the parts the RAM types (MDL,
 * CONTIGUOUS, SECTION) do alike: DMA mapping an sg_table as an ADL, kernel
 * vmaps with the object's cache type, user copies through such a vmap.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "account.h"
#include "arch.h"
#include "backing.h"
#include "backing_chunks.h"
#include "backing_io.h"
#include "backing_section.h"
#include "compat.h"
#include "dxgpmo.h"
#include "inject.h"
#include "object.h"
#include "stats.h"
#include "uncached.h"

static const struct dxgpmo_backing_ops *const dxgpmo_backing_types[] = {
	[DXGPMO_PMO_TYPE_MDL] = &dxgpmo_mdl_backing_ops,
	[DXGPMO_PMO_TYPE_CONTIGUOUS] = &dxgpmo_contiguous_backing_ops,
	[DXGPMO_PMO_TYPE_SECTION] = &dxgpmo_section_backing_ops,
	[DXGPMO_PMO_TYPE_IO_SPACE] = &dxgpmo_io_backing_ops,
};

struct dxgpmo_backing *dxgpmo_backing_new(size_t nr_chunks,
					  const struct dxgpmo_alloc_request *req,
					  const struct dxgpmo_backing_ops *ops)
{
	struct dxgpmo_backing *backing;

	backing = kvzalloc(struct_size(backing, chunks, nr_chunks),
			   GFP_KERNEL_ACCOUNT);
	if (!backing)
		return NULL;
	kref_init(&backing->kref);
	backing->ops = ops;
	backing->nr_pages = req->nr_pages;
	backing->nr_chunks = nr_chunks;
	backing->type = req->type;
	backing->cache_type = req->cache_type;
	return backing;
}

static const struct dxgpmo_backing_ops *dxgpmo_backing_ops_of(u32 type)
{
	if (type >= ARRAY_SIZE(dxgpmo_backing_types))
		return NULL;
	return dxgpmo_backing_types[type];
}

/* RAM the request would hold once allocated: IO_SPACE holds none. */
unsigned long dxgpmo_request_ram(const struct dxgpmo_alloc_request *req)
{
	const struct dxgpmo_backing_ops *ops = dxgpmo_backing_ops_of(req->type);

	return ops && ops->holds_ram ? req->nr_pages : 0;
}

struct dxgpmo_backing *dxgpmo_backing_alloc(struct dxgpmo_file *file,
					    const struct dxgpmo_alloc_request *req)
{
	const struct dxgpmo_backing_ops *ops = dxgpmo_backing_ops_of(req->type);
	struct dxgpmo_account *account = file->account;
	unsigned long ram = dxgpmo_request_ram(req);
	struct dxgpmo_backing *backing;
	int ret;

	if (!ops)
		return ERR_PTR(-EINVAL);
	ret = dxgpmo_account_charge(account, ram);
	if (ret)
		return ERR_PTR(ret);
	backing = ERR_PTR(-ENOMEM);
	if (!dxgpmo_should_fail(file))
		backing = ops->alloc(req);
	if (IS_ERR(backing)) {
		dxgpmo_account_cancel(account, ram);
		return backing;
	}
	dxgpmo_account_commit(account, ram);
	backing->account = account;
	dxgpmo_count_global(DXGPMO_CNT_PAGES, dxgpmo_backing_ram(backing));
	return backing;
}

void dxgpmo_backing_get(struct dxgpmo_backing *backing)
{
	kref_get(&backing->kref);
}

static void dxgpmo_backing_release(struct kref *kref)
{
	struct dxgpmo_backing *backing =
		container_of(kref, struct dxgpmo_backing, kref);
	struct dxgpmo_account *account = backing->account;
	unsigned long ram = dxgpmo_backing_ram(backing);

	backing->ops->release(backing);
	kvfree(backing);
	/* Only now is the memory free: the charge goes back with it. */
	dxgpmo_count_global(DXGPMO_CNT_PAGES, -(s64)ram);
	dxgpmo_account_uncharge(account, ram);
}

void dxgpmo_backing_put(struct dxgpmo_backing *backing)
{
	kref_put(&backing->kref, dxgpmo_backing_release);
}

/*
 * A holder (ADL, kernel view, dma-buf attachment) lets go of its pages.
 * Writes through it bypass the page tables, so nothing else told the page
 * it is dirty: a pageable page left clean is dropped by reclaim (or
 * drop_caches) as soon as it is unheld, and reads back as zeros - as DRM's
 * shmem helpers dirty their pages on put.  A read-only section's holders
 * never write.
 */
void dxgpmo_backing_unpin(struct dxgpmo_backing *backing,
			  struct page **pages, unsigned long nr)
{
	bool dirty = backing->ops->pageable && !backing->readonly;
	unsigned long i;

	for (i = 0; i < nr; i++) {
		if (dirty)
			set_page_dirty_lock(pages[i]);
		put_page(pages[i]);
	}
}

void dxgpmo_backing_view_open(struct dxgpmo_backing *backing)
{
	if (backing->ops->view_open)
		backing->ops->view_open(backing);
}

void dxgpmo_backing_view_close(struct dxgpmo_backing *backing)
{
	if (backing->ops->view_close)
		backing->ops->view_close(backing);
}

/*
 * A non-cached object is RAM: it gets the type the DMA API gives memory
 * the CPU shares uncached with a device, pgprot_dmacoherent() (x86: UC-;
 * arm64: Normal Non-cacheable).  pgprot_noncached() is a device type on
 * arm64 (Device-nGnRnE), on which every unaligned access faults, the
 * kernel's copy routines' included; and a device-type alias of memory
 * the linear map maps cacheable has the weakest of the architecture's
 * guarantees for mismatched attributes.
 */
static pgprot_t dxgpmo_cache_pgprot(u32 cache_type, pgprot_t prot)
{
	switch (cache_type) {
	case DXGPMO_CACHE_WRITE_COMBINED:
		return pgprot_writecombine(prot);
	case DXGPMO_CACHE_NON_CACHED:
		return dxgpmo_arch_pgprot_uncached(prot);
	default:
		return prot;
	}
}

/*
 * Flags and protection of a VMA mapping an object (a window or a
 * dma-buf): never a writable view of a read-only section, the object's
 * cache type, the rest as the type wants it.
 */
int dxgpmo_backing_vma_setup(struct dxgpmo_backing *backing,
			     struct vm_area_struct *vma)
{
	if (!backing->ops->vma_setup)
		return -EINVAL;
	if (backing->readonly) {
		if (vma->vm_flags & VM_WRITE)
			return -EACCES;
		dxgpmo_vm_flags_clear(vma, VM_MAYWRITE);
	}
	/* The type may refine it: faults map with the VMA's protection. */
	vma->vm_page_prot = dxgpmo_cache_pgprot(backing->cache_type,
						vm_get_page_prot(vma->vm_flags));
	return backing->ops->vma_setup(backing, vma);
}

vm_fault_t dxgpmo_backing_fault(struct dxgpmo_backing *backing,
				struct vm_fault *vmf, unsigned long index)
{
	if (index >= backing->nr_pages || !backing->ops->fault)
		return VM_FAULT_SIGBUS;
	return backing->ops->fault(backing, vmf, index);
}

/* An sg_table of m's pages, for a dma-buf attachment or an ADL. */
int dxgpmo_backing_sgt(struct dxgpmo_backing *backing,
		       struct dxgpmo_dma_map *m, gfp_t gfp)
{
	if (!backing->ops->sgt)
		return -EOPNOTSUPP;
	return backing->ops->sgt(backing, m, gfp);
}

/* m->sgt as a table of one entry, m->single, left for the caller to set. */
void dxgpmo_dma_map_single_entry(struct dxgpmo_dma_map *m)
{
	sg_init_table(&m->single, 1);
	m->sgt.sgl = &m->single;
	m->sgt.orig_nents = 1;
	m->sgt.nents = 1;
}

void dxgpmo_backing_sgt_free(struct dxgpmo_backing *backing,
			     struct dxgpmo_dma_map *m)
{
	if (m->sgt.sgl == &m->single)
		m->sgt.sgl = NULL;
	else
		sg_free_table(&m->sgt);
	if (m->pinned) {
		dxgpmo_backing_unpin(backing, m->pinned, m->nr_pages);
		kvfree(m->pinned);
		m->pinned = NULL;
	}
}

/* dma-direct must hand out the pages themselves, never bounce buffers. */
static int dxgpmo_ram_check_direct(struct dxgpmo_dma_map *m, bool mapped)
{
	u64 mask = dma_get_mask(m->dev);
	struct scatterlist *sg;
	unsigned int i;

	if (!mapped) {
		/* A forced bounce slot is not picked within the mask. */
		if (is_swiotlb_force_bounce(m->dev))
			return -EOPNOTSUPP;
		for_each_sgtable_sg(&m->sgt, sg, i)
			if (page_to_phys(sg_page(sg)) + sg->length - 1 > mask)
				return -EOPNOTSUPP;
		return 0;
	}
	for_each_sgtable_dma_sg(&m->sgt, sg, i)
		if (sg_dma_address(sg) != page_to_phys(sg_page(sg)))
			return -EOPNOTSUPP;
	return 0;
}

/*
 * The cache maintenance of an ADL's pages, at map (at_unmap false) or at
 * unmap, in steps[], as many as it returns.
 *
 * The DMA API lends the pages to the device between map and unmap, and
 * the CPU is not to touch them meanwhile: at unmap it only invalidates
 * the CPU's caches, so that the CPU reads what the device wrote.  The
 * WDDM contract keeps the CPU's views of an object live across its ADLs,
 * so on a device that does not snoop the caches (arm64's non-coherent
 * ones) a line the CPU wrote through a cacheable view while the ADL lived
 * would be dropped unwritten.  So the unmap first cleans (a sync for the
 * device, to it), then invalidates.  What is left is a CPU write that
 * races the unmap itself, which the contract leaves to the driver as it
 * does a CPU write that races the device's.  The clean cannot undo what
 * the device wrote: an ADL is never bounced (the checks above without an
 * IOMMU; with one, whole pages are never bounced).
 *
 * A read-only object's device only reads, and its CPU never writes:
 * nothing to do at unmap.  A virtual adapter's mapping has no device
 * behind it at all (cpu_only): no steps, which also spares the
 * coherent-by-default case a walk of the table.
 */
VISIBLE_IF_KUNIT unsigned int
dxgpmo_dma_map_syncs(const struct dxgpmo_dma_map *m, bool at_unmap,
		     struct dxgpmo_dma_sync steps[DXGPMO_DMA_SYNC_STEPS])
{
	if (m->cpu_only)
		return 0;
	if (!at_unmap) {
		steps[0] = (struct dxgpmo_dma_sync){ .dir = m->dir };
		return 1;
	}
	if (m->dir == DMA_TO_DEVICE)
		return 0;
	/* ADLs are mapped both ways or to the device only. */
	WARN_ON_ONCE(m->dir != DMA_BIDIRECTIONAL);
	steps[0] = (struct dxgpmo_dma_sync){ .dir = DMA_TO_DEVICE };
	steps[1] = (struct dxgpmo_dma_sync){ .for_cpu = true, .dir = m->dir };
	return 2;
}

static void dxgpmo_dma_map_sync(struct dxgpmo_dma_map *m, bool at_unmap)
{
	struct dxgpmo_dma_sync steps[DXGPMO_DMA_SYNC_STEPS];
	unsigned int i, n;

	n = dxgpmo_dma_map_syncs(m, at_unmap, steps);
	for (i = 0; i < n; i++) {
		if (steps[i].for_cpu)
			dma_sync_sgtable_for_cpu(m->dev, &m->sgt, steps[i].dir);
		else
			dma_sync_sgtable_for_device(m->dev, &m->sgt,
						    steps[i].dir);
	}
}

/*
 * ADLs of one object may overlap (the contract allows it), and the DMA API
 * cannot do cache maintenance for overlapping mappings of a cacheline
 * (DMA-API debugging says so).  The ADL owns the sync instead
 * (dxgpmo_dma_map_syncs()): once for the device here, once at unmap.
 */
int dxgpmo_ram_dma_map(struct dxgpmo_backing *backing,
		       struct dxgpmo_dma_map *m, bool behind_iommu)
{
	int ret;

	if (!behind_iommu) {
		ret = dxgpmo_ram_check_direct(m, false);
		if (ret)
			return ret;
	}
	/* A read-only section is for the device to read, never to write. */
	m->dir = backing->readonly ? DMA_TO_DEVICE : DMA_BIDIRECTIONAL;
	ret = dma_map_sgtable(m->dev, &m->sgt, m->dir, DMA_ATTR_SKIP_CPU_SYNC);
	if (ret)
		return ret;
	dxgpmo_dma_map_sync(m, false);
	if (!behind_iommu) {
		ret = dxgpmo_ram_check_direct(m, true);
		if (ret) {
			dma_unmap_sgtable(m->dev, &m->sgt, m->dir,
					  DMA_ATTR_SKIP_CPU_SYNC);
			return ret;
		}
	}
	m->mapped = true;
	return 0;
}

void dxgpmo_ram_dma_unmap(struct dxgpmo_backing *backing,
			  struct dxgpmo_dma_map *m)
{
	dxgpmo_dma_map_sync(m, true);
	dma_unmap_sgtable(m->dev, &m->sgt, m->dir, DMA_ATTR_SKIP_CPU_SYNC);
	m->mapped = false;
}

/*
 * Where the linear alias stays write-back (arm64), a pageable object's
 * pages may have been written through it since they became the object's
 * (shmem zeroes them, reads them in from swap): a non-cacheable kernel
 * view of them needs them cleaned first, or a dirty line could later be
 * written back over what the view stored, and a line fetched meanwhile
 * must not be what shmem reads once the view is gone.  Other objects'
 * pages were cleaned when they became the object's and are written only
 * through its views.  x86 keeps a WB alias under such a view, as DRM's
 * shmem helpers' write-combined vmaps do; its user views switch it.
 */
static bool dxgpmo_kview_needs_cleaning(struct dxgpmo_backing *backing)
{
	return !dxgpmo_arch_switches_alias && backing->ops->pageable &&
	       backing->cache_type != DXGPMO_CACHE_CACHED;
}

static int dxgpmo_kview_clean(struct dxgpmo_backing *backing,
			      struct page **pages, unsigned long n)
{
	int ret;

	if (!dxgpmo_kview_needs_cleaning(backing))
		return 0;
	ret = dxgpmo_arch_clean_pages(pages, n);
	if (!ret)
		dxgpmo_count_global(DXGPMO_CNT_CLEANED_KVIEW_PAGES, n);
	return ret;
}

/*
 * The view is gone; its pages go back to the object unless they cannot
 * be cleaned: stale lines under pages shmem reads cacheable would be
 * corrupted data, so such pages stay held (leaked), as a section's user
 * views leave them.  True when the pages may be unpinned.
 */
static bool dxgpmo_kview_clean_back(struct dxgpmo_backing *backing,
				    struct page **pages, unsigned long n)
{
	bool cleaned;

	if (!dxgpmo_kview_needs_cleaning(backing))
		return true;
	cleaned = !WARN_ON_ONCE(dxgpmo_arch_clean_pages(pages, n));
	dxgpmo_count_global(DXGPMO_CNT_CLEANED_KVIEW_PAGES, -(s64)n);
	return cleaned;
}

/* A vmap of the view's pages with the object's cache type; pins them. */
int dxgpmo_ram_kmap(struct dxgpmo_backing *backing, struct dxgpmo_kview *view)
{
	struct page **pages;
	void *vaddr;
	int ret;

	pages = kvmalloc_array(view->nr_pages, sizeof(*pages),
			       GFP_KERNEL_ACCOUNT);
	if (!pages)
		return -ENOMEM;
	ret = backing->ops->pin(backing, view->first, view->nr_pages, pages);
	if (ret) {
		kvfree(pages);
		return ret;
	}
	ret = dxgpmo_kview_clean(backing, pages, view->nr_pages);
	if (ret) {
		dxgpmo_backing_unpin(backing, pages, view->nr_pages);
		kvfree(pages);
		return ret;
	}
	/* A read-only section's view is read-only for its importers too. */
	vaddr = vmap(pages, view->nr_pages, VM_MAP,
		     dxgpmo_cache_pgprot(backing->cache_type,
					 backing->readonly ? PAGE_KERNEL_RO :
							     PAGE_KERNEL));
	if (!vaddr) {
		if (dxgpmo_kview_clean_back(backing, pages, view->nr_pages))
			dxgpmo_backing_unpin(backing, pages, view->nr_pages);
		kvfree(pages);
		return -ENOMEM;
	}
	view->pinned = pages;
	view->vaddr = vaddr;
	return 0;
}

void dxgpmo_ram_kunmap(struct dxgpmo_backing *backing,
		       struct dxgpmo_kview *view)
{
	vunmap(view->vaddr);
	if (dxgpmo_kview_clean_back(backing, view->pinned, view->nr_pages))
		dxgpmo_backing_unpin(backing, view->pinned, view->nr_pages);
	kvfree(view->pinned);
	view->vaddr = NULL;
	view->pinned = NULL;
}

int dxgpmo_ram_kview_rw(struct dxgpmo_backing *backing,
			struct dxgpmo_kview *view, bool write, u64 offset,
			u64 length, void __user *ubuf)
{
	if (backing->cache_type == DXGPMO_CACHE_NON_CACHED)
		return dxgpmo_uc_copy_user(view->vaddr + offset, ubuf, length,
					   write);
	if (!write)
		return copy_to_user(ubuf, view->vaddr + offset, length) ?
		       -EFAULT : 0;
	/*
	 * copy_from_user() zero-fills what it could not copy: here that
	 * would be zeros in the object that the caller never gave.  A write
	 * that faults stores a prefix and leaves the rest as it was.
	 */
	if (!access_ok(ubuf, length))
		return -EFAULT;
	/* What copy_from_user() does after access_ok(): no speculation past. */
	barrier_nospec();
	return __copy_from_user(view->vaddr + offset, ubuf, length) ?
	       -EFAULT : 0;
}
