/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels dxgpmo builds for (6.1 to 7.x: Debian's
 * 6.1, 6.12 and trixie-backports' newest) lives here, probed by feature where
 * the headers allow it.
 */
#ifndef _DXGPMO_COMPAT_H
#define _DXGPMO_COMPAT_H

#include <linux/mmzone.h>
#include <linux/pci.h>

/* 6.8 renamed the largest buddy order; 6.1's MAX_ORDER is exclusive. */
#ifdef MAX_PAGE_ORDER
#define DXGPMO_MAX_ORDER	MAX_PAGE_ORDER
#else
#define DXGPMO_MAX_ORDER	(MAX_ORDER - 1)
#endif

/*
 * Dirty tracking walks PTEs with clean_record_shared_mapping_range(), which
 * exists only when something selects it (DRM_VMWGFX does; every Debian,
 * Ubuntu and Fedora x86 kernel has it).  Say so instead of failing to link.
 */
#ifndef CONFIG_MAPPING_DIRTY_HELPERS
#error "dxgpmo needs CONFIG_MAPPING_DIRTY_HELPERS (selected by DRM_VMWGFX)"
#endif

/* 6.16 replaced alloc_contig_range()'s migratetype with flags. */
#ifdef CONFIG_CONTIG_ALLOC
#ifdef DXGPMO_HAVE_ACR_FLAGS
#define dxgpmo_alloc_contig_range(start, end, gfp) \
	alloc_contig_range(start, end, ACR_FLAGS_NONE, gfp)
#else
#define dxgpmo_alloc_contig_range(start, end, gfp) \
	alloc_contig_range(start, end, MIGRATE_MOVABLE, gfp)
#endif
#endif

/*
 * What the KUnit suites (module/kunit/) test is static unless the kernel has
 * KUnit, as upstream does it; include/kunit/visibility.h came with 6.2.
 */
#ifdef DXGPMO_HAVE_KUNIT_VISIBILITY
#include <kunit/visibility.h>
#elif IS_ENABLED(CONFIG_KUNIT)
#define VISIBLE_IF_KUNIT
#else
#define VISIBLE_IF_KUNIT static
#endif

/* The IOMMU's own PCI function (AMD); newer pci_ids.h name it. */
#ifndef PCI_CLASS_SYSTEM_IOMMU
#define PCI_CLASS_SYSTEM_IOMMU	0x0806
#endif

/* 6.8 renamed PCI_IRQ_LEGACY; 6.12 no longer has the old name. */
#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX		PCI_IRQ_LEGACY
#endif

/*
 * Functions cannot be probed by the preprocessor: module/Kbuild greps the
 * kernel headers and defines DXGPMO_HAVE_* for what it finds.
 */
#include <linux/mm.h>

/* 6.3 made vma->vm_flags read-only behind vm_flags_set(). */
static inline void dxgpmo_vm_flags_set(struct vm_area_struct *vma,
				       vm_flags_t flags)
{
#ifdef DXGPMO_HAVE_VM_FLAGS_SET
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/*
 * 6.4's per-VMA locks: a VMA already in the tree is changed only after
 * readers that take its lock instead of mmap_lock are out.  Before 6.4
 * mmap_lock held for writing is all there is.
 */
static inline void dxgpmo_vma_start_write(struct vm_area_struct *vma)
{
#ifdef DXGPMO_HAVE_VMA_START_WRITE
	vma_start_write(vma);
#endif
}

static inline void dxgpmo_vm_flags_clear(struct vm_area_struct *vma,
					 vm_flags_t flags)
{
#ifdef DXGPMO_HAVE_VM_FLAGS_SET
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

/* 6.13 turned symbol namespaces from tokens into string literals. */
#ifdef DXGPMO_HAVE_STRING_NAMESPACES
#define DXGPMO_IMPORT_NS_DMA_BUF()	MODULE_IMPORT_NS("DMA_BUF")
#define DXGPMO_NS			"DXGPMO"
#else
#define DXGPMO_IMPORT_NS_DMA_BUF()	MODULE_IMPORT_NS(DMA_BUF)
#define DXGPMO_NS			DXGPMO
#endif

/*
 * 7.x has no nth_page() (a macro before): struct page pointer arithmetic is
 * only promised within a folio there, and a chunk may be larger.  Going
 * through the PFN is right on every kernel and memory model.
 */
#ifdef nth_page
#define dxgpmo_nth_page(page, n)	nth_page(page, n)
#else
#define dxgpmo_nth_page(page, n)	pfn_to_page(page_to_pfn(page) + (n))
#endif

/* 7.x passes shmem_file_setup() its flags as a vma_flags_t, not a long. */
#include <linux/shmem_fs.h>

static inline struct file *dxgpmo_shmem_file_setup(const char *name,
						   loff_t size)
{
#ifdef DXGPMO_HAVE_SHMEM_VMA_FLAGS
	return shmem_file_setup(name, size, EMPTY_VMA_FLAGS);
#else
	return shmem_file_setup(name, size, 0);
#endif
}

/*
 * 6.7 allocates shrinkers (shrinker_alloc(), shrinker_register(),
 * shrinker_free()); before, the caller embeds or allocates one and
 * register_shrinker() names it.  The helpers allocate on both.
 */
#include <linux/shrinker.h>
#include <linux/slab.h>

static inline struct shrinker *dxgpmo_shrinker_alloc(const char *name)
{
#ifdef DXGPMO_HAVE_SHRINKER_ALLOC
	return shrinker_alloc(0, "%s", name);
#else
	return kzalloc(sizeof(struct shrinker), GFP_KERNEL);
#endif
}

static inline int dxgpmo_shrinker_register(struct shrinker *shrinker,
					   const char *name)
{
#ifdef DXGPMO_HAVE_SHRINKER_ALLOC
	shrinker_register(shrinker);
	return 0;
#else
	return register_shrinker(shrinker, "%s", name);
#endif
}

/* Unregisters it if it was registered; NULL is ignored. */
static inline void dxgpmo_shrinker_free(struct shrinker *shrinker)
{
#ifdef DXGPMO_HAVE_SHRINKER_ALLOC
	shrinker_free(shrinker);
#else
	if (!shrinker)
		return;
	unregister_shrinker(shrinker);
	kfree(shrinker);
#endif
}

/* 7.x renamed zap_vma_ptes(), which zaps PTEs of a PFN mapping only. */
static inline void dxgpmo_zap_pfn_range(struct vm_area_struct *vma,
					unsigned long address,
					unsigned long size)
{
#ifdef DXGPMO_HAVE_ZAP_VMA_PTES
	zap_vma_ptes(vma, address, size);
#else
	zap_special_vma_range(vma, address, size);
#endif
}

/*
 * The address mmap(2) would pick without the file's get_unmapped_area:
 * 6.12 names the mm, 7.x takes the caller's, 6.1 calls the mm's method.
 */
#include <linux/sched/mm.h>

static inline unsigned long
dxgpmo_mm_get_unmapped_area(struct file *filp, unsigned long addr,
			    unsigned long len, unsigned long pgoff,
			    unsigned long flags)
{
#if defined(DXGPMO_HAVE_MM_GET_UNMAPPED_AREA_MM)
	return mm_get_unmapped_area(current->mm, filp, addr, len, pgoff, flags);
#elif defined(DXGPMO_HAVE_MM_GET_UNMAPPED_AREA)
	return mm_get_unmapped_area(filp, addr, len, pgoff, flags);
#else
	return current->mm->get_unmapped_area(filp, addr, len, pgoff, flags);
#endif
}

/*
 * PFNs mapped by a PMD (6.12 on x86): 7.x passes a PFN, 6.12 a pfn_t.  The
 * pages are RAM with a memmap, mapped as a PFN mapping: no PFN_DEV/PFN_MAP.
 */
#ifdef DXGPMO_GRANULES
#ifdef DXGPMO_HAVE_PFN_T_PMD
#include <linux/pfn_t.h>
#endif

static inline vm_fault_t dxgpmo_vmf_insert_pfn_pmd(struct vm_fault *vmf,
						   unsigned long pfn,
						   bool write)
{
#ifdef DXGPMO_HAVE_PFN_T_PMD
	return vmf_insert_pfn_pmd(vmf, __pfn_to_pfn_t(pfn, 0), write);
#else
	return vmf_insert_pfn_pmd(vmf, pfn, write);
#endif
}
#endif

#endif /* _DXGPMO_COMPAT_H */
