/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory behind a physical memory object, whatever its type: one ops
 * table per type (backing_chunks.c for MDL and CONTIGUOUS, backing_section.c
 * for SECTION, backing_io.c for IO_SPACE), so that the code that maps,
 * exports and DMA-maps an object never asks which type it is.
 *
 * A backing is refcounted apart from the object's handle: mmap windows,
 * ADLs, kernel views and dma-bufs keep the pages after DESTROY.  So the
 * pages are charged to the file that made them for as long as the backing
 * lives, not as long as the handle (see struct dxgpmo_account).
 */
#ifndef _DXGPMO_BACKING_H
#define _DXGPMO_BACKING_H

#include <linux/dma-direction.h>
#include <linux/kref.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct device;
struct dxgpmo_account;
struct dxgpmo_adapter;
struct dxgpmo_backing;
struct dxgpmo_file;
struct vm_fault;
struct vm_area_struct;

/**
 * struct dxgpmo_alloc_request - the memory a create asks for
 * @nr_pages: whole pages
 * @type: %DXGPMO_PMO_TYPE_*, which selects the backing's ops
 * @cache_type: %DXGPMO_CACHE_*
 * @low: lowest physical address a page may have (MDL, CONTIGUOUS)
 * @high: highest, inclusive; %U64_MAX for anywhere
 * @boundary: CONTIGUOUS: a power of two the run may not cross; 0 for none
 * @search_window: CONTIGUOUS: may search [@low, @high] with migration
 *	(dxgpmo_may_create() decides)
 * @readonly: SECTION: PAGE_READONLY
 * @io_base: IO_SPACE: the physical address; backing_io.c finds the
 *	adapter whose BAR holds it
 *
 * Made by CREATE_PMO from its command (dxgpmo_create_request()), checked
 * against the caller's privileges and the adapter's reach, then handed to
 * dxgpmo_backing_alloc() and the type's @alloc.
 */
struct dxgpmo_alloc_request {
	unsigned long nr_pages;
	u32 type;
	u32 cache_type;
	u64 low;
	u64 high;
	u64 boundary;
	bool search_window;
	bool readonly;
	u64 io_base;
};

/* A kernel view of part of an object (MAP kernel mode, dma-buf vmap). */
struct dxgpmo_kview {
	void *vaddr;			/* RAM objects */
	void __iomem *io;		/* IO_SPACE */
	struct page **pinned;		/* the pages the vmap holds */
	unsigned long first;
	unsigned long nr_pages;
};

/* An object's pages [first, first + nr_pages) mapped for one device. */
struct dxgpmo_dma_map {
	struct device *dev;
	struct sg_table sgt;		/* its DMA side names device addresses */
	/*
	 * sgt's only entry when the pages are one physically contiguous run,
	 * as most ADLs are: such a table costs no allocation.
	 */
	struct scatterlist single;
	struct page **pinned;		/* pages held while it lives */
	unsigned long first;
	unsigned long nr_pages;
	enum dma_data_direction dir;	/* as mapped */
	/*
	 * Nothing but the CPU reads or writes the pages (a virtual adapter's
	 * mapping): there are no device caches to keep coherent with.
	 */
	bool cpu_only;
	bool mapped;
};

/*
 * One cache-maintenance step of an ADL's mapping: a sync of the whole
 * table for the device or for the CPU, in a direction.
 */
struct dxgpmo_dma_sync {
	bool for_cpu;
	enum dma_data_direction dir;
};

#define DXGPMO_DMA_SYNC_STEPS	2

/**
 * struct dxgpmo_backing_ops - what one type of memory does its own way
 * @alloc: the backing of @req, every page it needs (none for pageable
 *	types); called by dxgpmo_backing_alloc() after the charge
 * @release: frees what @alloc made; the last reference is gone
 * @page: the page at @index, for objects whose pages sit still; else NULL
 * @pin: pages [@first, @first + @nr), each referenced (kept resident)
 * @sgt: @m->sgt for @m's pages, pinning what must stay; NULL: no pages
 * @dma_map: map @m for @m->dev as an ADL: one sync for the device now, one
 *	for the CPU at unmap (ADLs may overlap, see adl.c); @behind_iommu
 *	false: the device sees physical addresses and nothing may be bounced
 * @dma_unmap: undoes @dma_map
 * @vma_setup: prepares a user VMA of the object (flags, file); NULL: the
 *	type has no user views
 * @view_mapping: optional; the mapping the object's user views are linked
 *	into, when it is not the device file's (see dxgpmo_window_create())
 * @fault: the PTE (or PMD) of page @index for a fault in a user view
 * @view_open: optional; a user VMA that may map the object came (mmap,
 *	fork, split, mremap), for types whose faults map pages that must be
 *	held while a view can reach them
 * @view_close: optional; such a VMA went (munmap, exit, UNMAP detaching it)
 * @map_kernel: a kernel view of @view's pages (MAP kernel mode, vmap)
 * @unmap_kernel: undoes @map_kernel
 * @kview_rw: copies between a kernel view and user memory (KMAP_RW)
 * @holds_ram: the type's pages count against memory caps
 * @kernel_mode_only: no %DXGPMO_ACCESS_USER map (IO_SPACE)
 * @raw_io: views reach registers: CAP_SYS_RAWIO
 * @contiguous: always one run of device addresses
 * @pageable: pages reclaim may drop once unheld
 *
 * One table a type (backing_chunks.c, backing_section.c, backing_io.c),
 * chosen by the request's type; backing.c holds what they share, as
 * iommufd's pages.c serves its access types.
 */
struct dxgpmo_backing_ops {
	struct dxgpmo_backing *(*alloc)(const struct dxgpmo_alloc_request *req);
	void (*release)(struct dxgpmo_backing *backing);
	struct page *(*page)(struct dxgpmo_backing *backing,
			     unsigned long index);
	int (*pin)(struct dxgpmo_backing *backing, unsigned long first,
		   unsigned long nr, struct page **pages);
	int (*sgt)(struct dxgpmo_backing *backing, struct dxgpmo_dma_map *m,
		   gfp_t gfp);
	int (*dma_map)(struct dxgpmo_backing *backing, struct dxgpmo_dma_map *m,
		       bool behind_iommu);
	void (*dma_unmap)(struct dxgpmo_backing *backing,
			  struct dxgpmo_dma_map *m);
	int (*vma_setup)(struct dxgpmo_backing *backing,
			 struct vm_area_struct *vma);
	struct address_space *(*view_mapping)(struct dxgpmo_backing *backing);
	vm_fault_t (*fault)(struct dxgpmo_backing *backing,
			    struct vm_fault *vmf, unsigned long index);
	void (*view_open)(struct dxgpmo_backing *backing);
	void (*view_close)(struct dxgpmo_backing *backing);
	int (*map_kernel)(struct dxgpmo_backing *backing,
			  struct dxgpmo_kview *view);
	void (*unmap_kernel)(struct dxgpmo_backing *backing,
			     struct dxgpmo_kview *view);
	int (*kview_rw)(struct dxgpmo_backing *backing,
			struct dxgpmo_kview *view, bool write, u64 offset,
			u64 length, void __user *ubuf);
	bool holds_ram;
	bool kernel_mode_only;
	bool raw_io;
	bool contiguous;
	bool pageable;
};

/*
 * A run of physically contiguous pages: a compound high-order page, a single
 * page, or (CONTIGUOUS objects) split order-0 pages freed one by one.
 */
struct dxgpmo_chunk {
	struct page *page;
	unsigned long first;		/* index of its first page */
	unsigned int nr_pages;
	bool compound;
};

struct dxgpmo_backing {
	struct kref kref;
	const struct dxgpmo_backing_ops *ops;
	unsigned long nr_pages;
	u32 type;
	u32 cache_type;
	bool readonly;			/* SECTION PAGE_READONLY, IO registers */
	bool alias_changed;		/* linear map switched to cache_type */
	bool pooled;			/* MDL: pages from and back to the pool */
	struct file *shmem;		/* SECTION */
	struct mutex views_lock;	/* SECTION: views, view_pages */
	unsigned long views;		/* SECTION: user VMAs of the object */
	struct xarray view_pages;	/* SECTION: index -> page views hold */
	phys_addr_t io_base;		/* IO_SPACE */
	bool io_wc;			/* IO_SPACE: views write-combined */
	struct dxgpmo_adapter *io_adapter; /* IO_SPACE: whose BAR */
	struct dxgpmo_account *account;	/* charged its RAM, referenced */
	unsigned int nr_chunks;		/* MDL, CONTIGUOUS */
	struct dxgpmo_chunk chunks[];
};

struct dxgpmo_backing *dxgpmo_backing_alloc(struct dxgpmo_file *file,
					    const struct dxgpmo_alloc_request *req);
unsigned long dxgpmo_request_ram(const struct dxgpmo_alloc_request *req);
void dxgpmo_backing_get(struct dxgpmo_backing *backing);
void dxgpmo_backing_put(struct dxgpmo_backing *backing);

/* RAM an object of that type holds: IO_SPACE objects hold none. */
static inline unsigned long dxgpmo_backing_ram(struct dxgpmo_backing *backing)
{
	return backing->ops->holds_ram ? backing->nr_pages : 0;
}

int dxgpmo_backing_vma_setup(struct dxgpmo_backing *backing,
			     struct vm_area_struct *vma);
vm_fault_t dxgpmo_backing_fault(struct dxgpmo_backing *backing,
				struct vm_fault *vmf, unsigned long index);
void dxgpmo_backing_view_open(struct dxgpmo_backing *backing);
void dxgpmo_backing_view_close(struct dxgpmo_backing *backing);
int dxgpmo_backing_sgt(struct dxgpmo_backing *backing,
		       struct dxgpmo_dma_map *m, gfp_t gfp);
void dxgpmo_dma_map_single_entry(struct dxgpmo_dma_map *m);
void dxgpmo_backing_sgt_free(struct dxgpmo_backing *backing,
			     struct dxgpmo_dma_map *m);

/* Shared by the types (backing.c). */
struct dxgpmo_backing *dxgpmo_backing_new(size_t nr_chunks,
					  const struct dxgpmo_alloc_request *req,
					  const struct dxgpmo_backing_ops *ops);
void dxgpmo_backing_unpin(struct dxgpmo_backing *backing,
			  struct page **pages, unsigned long nr);
int dxgpmo_ram_dma_map(struct dxgpmo_backing *backing,
		       struct dxgpmo_dma_map *m, bool behind_iommu);
void dxgpmo_ram_dma_unmap(struct dxgpmo_backing *backing,
			  struct dxgpmo_dma_map *m);
int dxgpmo_ram_kmap(struct dxgpmo_backing *backing, struct dxgpmo_kview *view);
void dxgpmo_ram_kunmap(struct dxgpmo_backing *backing,
		       struct dxgpmo_kview *view);
int dxgpmo_ram_kview_rw(struct dxgpmo_backing *backing,
			struct dxgpmo_kview *view, bool write, u64 offset,
			u64 length, void __user *ubuf);

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
unsigned int
dxgpmo_dma_map_syncs(const struct dxgpmo_dma_map *m, bool at_unmap,
		     struct dxgpmo_dma_sync steps[DXGPMO_DMA_SYNC_STEPS]);
#endif

#endif /* _DXGPMO_BACKING_H */
