// SPDX-License-Identifier: GPL-2.0
/*
 * arm64: the linear map's attributes cannot change page by page (with
 * block mappings it cannot change at all, and the architecture asks for
 * break-before-make), so the kernel's own non-coherent DMA and DRM code
 * keep the cacheable linear alias of a non-cacheable buffer and only clean
 * it to the point of coherency before the buffer is used
 * (arch_dma_prep_coherent()).  dxgpmo does the same: a write-combined or
 * non-cached object's views get pgprot_writecombine()/pgprot_dmacoherent(),
 * its linear alias stays write-back, and its pages are cleaned and
 * invalidated when they become the object's; pages that live on after
 * the object's views (a section's) are again when the views end, pages
 * freed to the page allocator are not, as dma_free_coherent()'s are not.
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

#include "arch.h"
#include "dxgpmo.h"

const bool dxgpmo_arch_switches_alias;

static struct platform_device *dxgpmo_cache_pdev;

/*
 * Clean and invalidate n contiguous pages to the point of coherency.  The
 * pages may be mapped for an adapter at the same time (an ADL, a dma-buf
 * attachment): DMA-API debugging tracks cachelines across devices and
 * reports a second mapping that asks for cache maintenance as an error,
 * so the mapping itself asks for none and the syncs do the maintenance.
 */
static int dxgpmo_clean_inval_poc(struct page *page, unsigned long n)
{
	struct device *dev;
	size_t len = n << PAGE_SHIFT;
	dma_addr_t dma;

	if (!dxgpmo_cache_pdev)
		return -EOPNOTSUPP;
	dev = &dxgpmo_cache_pdev->dev;
	dma = dma_map_page_attrs(dev, page, 0, len, DMA_BIDIRECTIONAL,
				 DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dev, dma))
		return -EIO;
	/*
	 * A bounced mapping would maintain the bounce buffer, and its syncs
	 * copy it back over the pages: no sync then.
	 */
	if (dma == page_to_phys(page)) {
		dma_sync_single_for_device(dev, dma, len, DMA_BIDIRECTIONAL);
		dma_sync_single_for_cpu(dev, dma, len, DMA_BIDIRECTIONAL);
	}
	dma_unmap_page_attrs(dev, dma, len, DMA_BIDIRECTIONAL,
			     DMA_ATTR_SKIP_CPU_SYNC);
	return dma == page_to_phys(page) ? 0 : -EIO;
}

int dxgpmo_arch_init(void)
{
	struct platform_device_info info = {
		.name = "dxgpmo-cache",
		.id = PLATFORM_DEVID_NONE,
		.dma_mask = DMA_BIT_MASK(64),
	};
	struct platform_device *pdev;
	struct page *probe;
	int bounced;

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
	dxgpmo_cache_pdev = pdev;
	bounced = dxgpmo_clean_inval_poc(probe, 1);
	__free_page(probe);
	if (bounced) {
		dxgpmo_cache_pdev = NULL;
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
