// SPDX-License-Identifier: GPL-2.0
/*
 * SECTION objects (ZwCreateSection, SEC_COMMIT): a shmem file of the
 * object's size, its memory committed (accounted) at creation, its pages
 * allocated zeroed on first use and pageable except while an ADL, a kernel
 * view or a dma-buf attachment holds them.  User mappings are page-backed
 * (not PFN maps) so that reclaim can find their PTEs.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/scatterlist.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>

#include "internal.h"

/* Page index, read in (zeroed) if new, referenced. */
static struct page *dxgpmo_section_page(struct dxgpmo_backing *backing,
					unsigned long index)
{
	struct address_space *mapping = backing->shmem->f_mapping;

	return shmem_read_mapping_page_gfp(mapping, index,
					   mapping_gfp_mask(mapping));
}

static int dxgpmo_section_pin(struct dxgpmo_backing *backing,
			      unsigned long first, unsigned long nr,
			      struct page **pages)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		struct page *page = dxgpmo_section_page(backing, first + i);

		if (IS_ERR(page)) {
			dxgpmo_backing_unpin(pages, i);
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
	dxgpmo_backing_unpin(pages, nr);
err_free:
	kvfree(pages);
	return ret;
}

static int dxgpmo_section_vma_setup(struct dxgpmo_backing *backing,
				    struct vm_area_struct *vma)
{
	dxgpmo_vm_flags_set(vma, VM_DONTEXPAND);
	return 0;
}

static vm_fault_t dxgpmo_section_fault(struct dxgpmo_backing *backing,
				       struct vm_fault *vmf,
				       unsigned long index)
{
	struct page *page = dxgpmo_section_page(backing, index);

	if (IS_ERR(page))
		return vmf_error(PTR_ERR(page));
	vmf->page = page;	/* the reference goes to the fault */
	return 0;
}

static struct dxgpmo_backing *
dxgpmo_section_alloc(const struct dxgpmo_alloc_request *req)
{
	struct dxgpmo_backing *backing;
	struct file *shmem;

	backing = dxgpmo_backing_new(0, req, &dxgpmo_section_backing_ops);
	if (!backing)
		return ERR_PTR(-ENOMEM);
	shmem = shmem_file_setup("dxgpmo-section",
				 (loff_t)req->nr_pages << PAGE_SHIFT, 0);
	if (IS_ERR(shmem)) {
		kvfree(backing);
		return ERR_CAST(shmem);
	}
	backing->shmem = shmem;
	backing->readonly = req->readonly;
	return backing;
}

static void dxgpmo_section_release(struct dxgpmo_backing *backing)
{
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
	.map_kernel = dxgpmo_ram_kmap,
	.unmap_kernel = dxgpmo_ram_kunmap,
	.kview_rw = dxgpmo_ram_kview_rw,
	.holds_ram = true,
};
