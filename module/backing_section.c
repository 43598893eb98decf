// SPDX-License-Identifier: GPL-2.0
/*
 * SECTION objects (ZwCreateSection, SEC_COMMIT): a shmem file of the
 * object's size, its memory committed (accounted) at creation, its pages
 * allocated zeroed on first use and pageable except while something holds
 * them: an ADL, a kernel view, a dma-buf attachment or vmap, or user views.
 *
 * User views are PFN maps, as DRM's shmem helpers make them: their VMAs
 * belong to the device (or the dma-buf), not to the shmem file, so rmap
 * could never find page-backed PTEs in them and reclaim, migration and
 * memory-failure would act on pages still mapped.  Instead the object holds
 * every page a user view faulted in, from that fault until the last user
 * view of the object is gone; then the pages go back to shmem, dirty if a
 * view could write them (the PTEs of a PFN map tell nobody).
 *
 * Every holder marks pages dirty as it lets go of them (unless the section
 * is read-only): writes by the device, a kernel view or an importer never
 * reach the page flags otherwise, and a clean unheld shmem page is dropped
 * rather than written to swap.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/scatterlist.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>

#include "backing.h"
#include "backing_section.h"
#include "compat.h"
#include "dxgpmo.h"
#include "pool.h"
#include "stats.h"

/* A page some view that could write it has mapped. */
#define DXGPMO_VIEW_MAY_WRITE	XA_MARK_0

/* Page index, read in (zeroed) if new, referenced. */
static struct page *dxgpmo_section_page(struct dxgpmo_backing *backing,
					unsigned long index)
{
	struct address_space *mapping = backing->shmem->f_mapping;

	return shmem_read_mapping_page_gfp(mapping, index,
					   mapping_gfp_mask(mapping));
}

/* Error paths: nothing was written through these. */
static void dxgpmo_section_put_pages(struct page **pages, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++)
		put_page(pages[i]);
}

static int dxgpmo_section_pin(struct dxgpmo_backing *backing,
			      unsigned long first, unsigned long nr,
			      struct page **pages)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		struct page *page = dxgpmo_section_page(backing, first + i);

		if (IS_ERR(page)) {
			dxgpmo_section_put_pages(pages, i);
			return PTR_ERR(page);
		}
		pages[i] = page;
	}
	return 0;
}

/* The table's pages are referenced for as long as it lives. */
static int dxgpmo_section_sgt(struct dxgpmo_backing *backing,
			      struct dxgpmo_dma_map *m, gfp_t gfp)
{
	unsigned long nr = m->nr_pages;
	struct page **pages;
	int ret;

	pages = kvmalloc_array(nr, sizeof(*pages), gfp);
	if (!pages)
		return -ENOMEM;
	ret = dxgpmo_section_pin(backing, m->first, nr, pages);
	if (ret)
		goto err_free;
	ret = sg_alloc_table_from_pages(&m->sgt, pages, nr, 0,
					(unsigned long)nr << PAGE_SHIFT, gfp);
	if (ret)
		goto err_unpin;
	m->pinned = pages;
	return 0;

err_unpin:
	dxgpmo_section_put_pages(pages, nr);
err_free:
	kvfree(pages);
	return ret;
}

/* The pages are held by the object for its views, never by the VMA. */
static int dxgpmo_section_vma_setup(struct dxgpmo_backing *backing,
				    struct vm_area_struct *vma)
{
	dxgpmo_vm_flags_set(vma, VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	return 0;
}

/*
 * x86 PAT gives a PFN map of RAM the memory type recorded for the page,
 * i.e. that of its linear map: a write-combined section's pages are
 * switched to WC while views hold them (as TTM does for its WC pages),
 * and back to WB before shmem gets them back.  On arm64 the alias stays
 * write-back and the page's lines are cleaned and invalidated at both
 * steps instead (arch.h).
 */
static int dxgpmo_section_set_alias(struct dxgpmo_backing *backing,
				    struct page *page, bool wc)
{
	if (backing->cache_type != DXGPMO_CACHE_WRITE_COMBINED)
		return 0;
	return dxgpmo_set_pages_cache(&page, 1, wc ? DXGPMO_CACHE_WRITE_COMBINED :
				      DXGPMO_CACHE_CACHED);
}

/* The page at index for a user view, held until the last view goes. */
static struct page *dxgpmo_section_view_page(struct dxgpmo_backing *backing,
					     unsigned long index,
					     bool may_write)
{
	struct page *page;
	int ret;

	mutex_lock(&backing->views_lock);
	page = xa_load(&backing->view_pages, index);
	if (page)
		goto out;
	page = dxgpmo_section_page(backing, index);
	if (IS_ERR(page))
		goto out;
	ret = dxgpmo_section_set_alias(backing, page, true);
	if (ret) {
		/*
		 * A failed switch may leave the linear map switched: the page
		 * goes back to shmem write-back, or not at all.
		 */
		if (!dxgpmo_section_set_alias(backing, page, false))
			put_page(page);
		page = ERR_PTR(ret);
		goto out;
	}
	ret = xa_err(xa_store(&backing->view_pages, index, page,
			      GFP_KERNEL_ACCOUNT));
	if (ret) {
		if (!dxgpmo_section_set_alias(backing, page, false))
			put_page(page);
		page = ERR_PTR(ret);
		goto out;
	}
	dxgpmo_count_global(DXGPMO_CNT_SECTION_VIEW_PAGES, 1);
out:
	if (!IS_ERR(page) && may_write)
		xa_set_mark(&backing->view_pages, index, DXGPMO_VIEW_MAY_WRITE);
	mutex_unlock(&backing->views_lock);
	return page;
}

/*
 * The PTE goes in under the window's lock (the caller's), so a revoke
 * that zaps after it cannot miss it; the page stays held by the object for
 * as long as this VMA exists.
 */
static vm_fault_t dxgpmo_section_fault(struct dxgpmo_backing *backing,
				       struct vm_fault *vmf,
				       unsigned long index)
{
	struct vm_area_struct *vma = vmf->vma;
	struct page *page;

	page = dxgpmo_section_view_page(backing, index,
					vma->vm_flags & VM_MAYWRITE);
	if (IS_ERR(page))
		return vmf_error(PTR_ERR(page));
	return vmf_insert_pfn_prot(vma, vmf->address, page_to_pfn(page),
				   vma->vm_page_prot);
}

static void dxgpmo_section_view_open(struct dxgpmo_backing *backing)
{
	mutex_lock(&backing->views_lock);
	backing->views++;
	mutex_unlock(&backing->views_lock);
}

/*
 * The last user view is gone, and with it every PTE of the pages: they go
 * back to shmem, pageable again.  A page whose linear map cannot be made
 * WB again is never handed back (leaked, like MDL pages in that case).
 */
static void dxgpmo_section_view_close(struct dxgpmo_backing *backing)
{
	unsigned long index;
	struct page *page;

	mutex_lock(&backing->views_lock);
	if (WARN_ON_ONCE(!backing->views) || --backing->views)
		goto out;
	xa_for_each(&backing->view_pages, index, page) {
		if (xa_get_mark(&backing->view_pages, index,
				DXGPMO_VIEW_MAY_WRITE))
			set_page_dirty_lock(page);
		if (dxgpmo_section_set_alias(backing, page, false))
			pr_err("dxgpmo: cannot restore the linear map of a section page; leaking it\n");
		else
			put_page(page);
		dxgpmo_count_global(DXGPMO_CNT_SECTION_VIEW_PAGES, -1);
		cond_resched();
	}
	xa_destroy(&backing->view_pages);
out:
	mutex_unlock(&backing->views_lock);
}

static struct dxgpmo_backing *
dxgpmo_section_alloc(const struct dxgpmo_alloc_request *req)
{
	struct dxgpmo_backing *backing;
	struct file *shmem;

	backing = dxgpmo_backing_new(0, req, &dxgpmo_section_backing_ops);
	if (!backing)
		return ERR_PTR(-ENOMEM);
	shmem = dxgpmo_shmem_file_setup("dxgpmo-section",
					(loff_t)req->nr_pages << PAGE_SHIFT);
	if (IS_ERR(shmem)) {
		kvfree(backing);
		return ERR_CAST(shmem);
	}
	/*
	 * Pages are held for long (ADLs, views): not from the movable zone,
	 * where they would block compaction; and no OOM kill for them.
	 */
	mapping_set_gfp_mask(shmem->f_mapping, GFP_HIGHUSER |
			     __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	backing->shmem = shmem;
	backing->readonly = req->readonly;
	mutex_init(&backing->views_lock);
	xa_init(&backing->view_pages);
	return backing;
}

/* Views hold the object: the last one went before its last reference. */
static void dxgpmo_section_release(struct dxgpmo_backing *backing)
{
	WARN_ON_ONCE(backing->views || !xa_empty(&backing->view_pages));
	mutex_destroy(&backing->views_lock);
	fput(backing->shmem);
}

const struct dxgpmo_backing_ops dxgpmo_section_backing_ops = {
	.alloc = dxgpmo_section_alloc,
	.release = dxgpmo_section_release,
	.pin = dxgpmo_section_pin,
	.sgt = dxgpmo_section_sgt,
	.dma_map = dxgpmo_ram_dma_map,
	.dma_unmap = dxgpmo_ram_dma_unmap,
	.vma_setup = dxgpmo_section_vma_setup,
	.fault = dxgpmo_section_fault,
	.view_open = dxgpmo_section_view_open,
	.view_close = dxgpmo_section_view_close,
	.map_kernel = dxgpmo_ram_kmap,
	.unmap_kernel = dxgpmo_ram_kunmap,
	.kview_rw = dxgpmo_ram_kview_rw,
	.holds_ram = true,
	.pageable = true,
};
