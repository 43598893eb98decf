// SPDX-License-Identifier: GPL-2.0
/*
 * arm64: the linear map's attributes cannot change page by page (with
 * block mappings it cannot change at all, and the architecture asks for
 * break-before-make), so the kernel's own non-coherent DMA and DRM code
 * keep the cacheable linear alias of a non-cacheable buffer and only clean
 * and invalidate it to the point of coherency before the buffer is used
 * (arch_dma_prep_coherent()).  dxgpmo does the same: a write-combined or
 * non-cached object's views get pgprot_writecombine()/pgprot_dmacoherent(),
 * its linear alias stays write-back, and its pages are cleaned and
 * invalidated when they become the object's and again when they stop
 * being.
 *
 * No cache-maintenance routine to the point of coherency is exported to
 * modules (dcache_clean_inval_poc() is not; caches_clean_inval_pou() only
 * reaches the point of unification).  The DMA API does it for a
 * non-coherent device: mapping for DMA_BIDIRECTIONAL cleans, unmapping
 * invalidates.  The module registers one platform device that no driver
 * or firmware node configures, which dma-direct therefore treats as
 * non-coherent and never bounces through swiotlb with a 64-bit mask.
 */
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/vmalloc.h>
#include <asm/pgtable.h>
#include <asm/sysreg.h>

#include "arch.h"
#include "internal.h"
#include "dxgpmo_test.h"

const bool dxgpmo_arch_switches_alias;

static struct platform_device *dxgpmo_cache_pdev;

int dxgpmo_arch_init(void)
{
	struct platform_device_info info = {
		.name = "dxgpmo-cache",
		.id = PLATFORM_DEVID_NONE,
		.dma_mask = DMA_BIT_MASK(64),
	};
	struct platform_device *pdev;
	struct page *probe;
	dma_addr_t dma;

	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	/* A coherent device's DMA syncs would not touch the caches. */
	if (dev_is_dma_coherent(&pdev->dev)) {
		platform_device_unregister(pdev);
		pr_err("dxgpmo: no non-coherent device for cache maintenance\n");
		return -ENODEV;
	}
	/*
	 * A kernel that bounces the device's mappings (swiotlb=force, a
	 * realm, a restricted pool) would maintain the bounce buffer
	 * instead: the module works, but only with write-back RAM.  One
	 * mapping of a page says, whatever the reason.
	 */
	probe = alloc_page(GFP_KERNEL);
	if (!probe) {
		platform_device_unregister(pdev);
		return -ENOMEM;
	}
	dma = dma_map_page(&pdev->dev, probe, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
	if (!dma_mapping_error(&pdev->dev, dma)) {
		dma_unmap_page(&pdev->dev, dma, PAGE_SIZE, DMA_BIDIRECTIONAL);
		if (dma == page_to_phys(probe))
			dxgpmo_cache_pdev = pdev;
	}
	__free_page(probe);
	if (!dxgpmo_cache_pdev) {
		platform_device_unregister(pdev);
		pr_info("dxgpmo: DMA mappings bounce: no write-combined or non-cached objects\n");
	}
	return 0;
}

void dxgpmo_arch_exit(void)
{
	if (dxgpmo_cache_pdev)
		platform_device_unregister(dxgpmo_cache_pdev);
}

bool dxgpmo_arch_can_uncache_ram(void)
{
	return !!dxgpmo_cache_pdev;
}

/* Normal Non-cacheable, what the DMA API gives RAM it shares uncached. */
pgprot_t dxgpmo_arch_pgprot_uncached(pgprot_t prot)
{
	return pgprot_dmacoherent(prot);
}

/* Clean and invalidate n contiguous pages to the point of coherency. */
static int dxgpmo_clean_inval_poc(struct page *page, unsigned long n)
{
	struct device *dev;
	size_t len = n << PAGE_SHIFT;
	dma_addr_t dma;

	if (!dxgpmo_cache_pdev)
		return -EOPNOTSUPP;
	dev = &dxgpmo_cache_pdev->dev;
	dma = dma_map_page(dev, page, 0, len, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, dma))
		return -EIO;
	dma_unmap_page(dev, dma, len, DMA_BIDIRECTIONAL);
	/* A bounced mapping maintained the bounce buffer, not the pages. */
	return dma == page_to_phys(page) ? 0 : -EIO;
}

/*
 * To write-combined or non-cached: no dirty line of the linear alias may
 * later be written back over what the views store, and no stale line may
 * be what a later cacheable read finds.  Back to write-back: what the
 * views stored went around the caches, and a line the alias fetched
 * speculatively meanwhile is stale.  The same maintenance both ways.
 */
int dxgpmo_arch_set_pages_cache(struct page **pages, unsigned long n,
				u32 cache_type)
{
	unsigned long i, run;
	int ret;

	for (i = 0; i < n; i += run) {
		for (run = 1; i + run < n; run++)
			if (page_to_pfn(pages[i + run]) !=
			    page_to_pfn(pages[i]) + run)
				break;
		ret = dxgpmo_clean_inval_poc(pages[i], run);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

/*
 * Cleaning is idempotent: two holders of the same pages (a kernel view
 * and a section's user views) each clean them when they come and go, in
 * any order, and nothing writes through the alias while either holds
 * them, so no dirty line can be lost between.
 */
int dxgpmo_arch_clean_pages(struct page **pages, unsigned long n)
{
	return dxgpmo_arch_set_pages_cache(pages, n, DXGPMO_CACHE_CACHED);
}

int dxgpmo_arch_set_block_wb(struct page *page, unsigned long n)
{
	return dxgpmo_clean_inval_poc(page, n);
}

/* The MAIR attribute index of the entry (MT_NORMAL, MT_NORMAL_NC, ...). */
u64 dxgpmo_arch_pte_cache_bits(pte_t pte)
{
	return pte_val(pte) & PTE_ATTRINDX_MASK;
}

/*
 * init_mm is not exported: the walk starts from TTBR1_EL1, which holds
 * swapper_pg_dir (plus ASID and CnP) whenever the kernel runs, and is
 * believed only if it ends at the page the caller expects.
 */
int dxgpmo_arch_kernel_cache_bits(unsigned long addr, unsigned long pfn,
				  u64 *bits)
{
	u64 ttbr = read_sysreg(ttbr1_el1);
	phys_addr_t base = (ttbr & GENMASK_ULL(47, 6)) |
			   ((ttbr & GENMASK_ULL(5, 2)) << 46);
	unsigned long found;
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;
	pte_t pte;

	pgd = pgd_offset_pgd((pgd_t *)phys_to_virt(base), addr);
	if (pgd_none(READ_ONCE(*pgd)))
		return -EFAULT;
	p4d = p4d_offset(pgd, addr);
	if (p4d_none(READ_ONCE(*p4d)))
		return -EFAULT;
	pud = pud_offset(p4d, addr);
	if (pud_none(READ_ONCE(*pud)))
		return -EFAULT;
	if (pud_leaf(READ_ONCE(*pud))) {
		*bits = pud_val(READ_ONCE(*pud)) & PTE_ATTRINDX_MASK;
		found = pud_pfn(READ_ONCE(*pud)) +
			((addr & ~PUD_MASK) >> PAGE_SHIFT);
		goto check;
	}
	pmd = pmd_offset(pud, addr);
	if (pmd_none(READ_ONCE(*pmd)))
		return -EFAULT;
	if (pmd_leaf(READ_ONCE(*pmd))) {
		*bits = pmd_val(READ_ONCE(*pmd)) & PTE_ATTRINDX_MASK;
		found = pmd_pfn(READ_ONCE(*pmd)) +
			((addr & ~PMD_MASK) >> PAGE_SHIFT);
		goto check;
	}
	pte = READ_ONCE(*pte_offset_kernel(pmd, addr));
	if (!pte_present(pte))
		return -EFAULT;
	*bits = pte_val(pte) & PTE_ATTRINDX_MASK;
	found = pte_pfn(pte);
check:
	return found == pfn ? 0 : -EFAULT;
}

u32 dxgpmo_arch_memtype_of_bits(u64 bits)
{
	/* The linear map is MT_NORMAL_TAGGED: write-back, tagged with MTE. */
	if (bits == PTE_ATTRINDX(MT_NORMAL) ||
	    bits == PTE_ATTRINDX(MT_NORMAL_TAGGED))
		return DXGPMO_TEST_MEMTYPE_WB;
	/* pgprot_writecombine() and pgprot_dmacoherent() */
	if (bits == PTE_ATTRINDX(MT_NORMAL_NC))
		return DXGPMO_TEST_MEMTYPE_WC;
	/* pgprot_device() and ioremap(): nGnRE; pgprot_noncached(): nGnRnE */
	if (bits == (pgprot_val(pgprot_device(__pgprot(0))) &
		     PTE_ATTRINDX_MASK) ||
	    bits == (pgprot_val(pgprot_noncached(__pgprot(0))) &
		     PTE_ATTRINDX_MASK))
		return DXGPMO_TEST_MEMTYPE_DEVICE;
	return DXGPMO_TEST_MEMTYPE_OTHER;
}

bool dxgpmo_arch_wc_distinct(void)
{
	return true;
}
