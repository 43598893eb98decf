// SPDX-License-Identifier: GPL-2.0
/*
 * x86: two mappings of a page with different memory types are undefined
 * (PAT), and a PFN map of RAM gets the memory type recorded for the page,
 * that of its linear map.  So the linear-map alias of a non-cached or
 * write-combined page is switched to that type while the object has it
 * (as TTM does); the switch flushes the page from the caches itself.
 */
#include <linux/mm.h>
#include <asm/pgtable.h>
#include <asm/set_memory.h>

#include "arch.h"
#include "dxgpmo.h"

const bool dxgpmo_arch_switches_alias = true;

int dxgpmo_arch_init(void)
{
	return 0;
}

void dxgpmo_arch_exit(void)
{
}

int dxgpmo_arch_set_pages_cache(struct page **pages, unsigned long n,
				u32 cache_type)
{
	switch (cache_type) {
	case DXGPMO_CACHE_CACHED:
		return set_pages_array_wb(pages, n);
	case DXGPMO_CACHE_WRITE_COMBINED:
		return set_pages_array_wc(pages, n);
	default:
		return set_pages_array_uc(pages, n);
	}
}

int dxgpmo_arch_set_block_wb(struct page *page, unsigned long n)
{
	return set_pages_wb(page, n);
}

bool dxgpmo_arch_can_uncache_ram(void)
{
	return true;
}

/* UC-, what the DMA API's pgprot_dmacoherent() is on x86. */
pgprot_t dxgpmo_arch_pgprot_uncached(pgprot_t prot)
{
	return pgprot_noncached(prot);
}

/* The linear map carries the memory type: nothing to clean. */
int dxgpmo_arch_clean_pages(struct page **pages, unsigned long n)
{
	return 0;
}
