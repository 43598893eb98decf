// SPDX-License-Identifier: GPL-2.0
/*
 * x86: two mappings of a page with different memory types are undefined
 * (PAT), and a PFN map of RAM gets the memory type recorded for the page,
 * that of its linear map.  So the linear-map alias of a non-cached or
 * write-combined page is switched to that type while the object has it
 * (as TTM does); the switch flushes the page from the caches itself.
 */
#include <linux/mm.h>
#include <asm/memtype.h>
#include <asm/pgtable.h>
#include <asm/set_memory.h>

#include "arch.h"
#include "internal.h"
#include "dxgpmo_test.h"

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

u64 dxgpmo_arch_pte_cache_bits(pte_t pte)
{
	return pte_flags(pte) & _PAGE_CACHE_MASK;
}

int dxgpmo_arch_kernel_cache_bits(unsigned long addr, unsigned long pfn,
				  u64 *bits)
{
	unsigned int level;
	pte_t *pte = lookup_address(addr, &level);
	pgprot_t prot;

	if (!pte || !pte_present(*pte))
		return -EFAULT;
	prot = __pgprot(pte_flags(*pte));
	if (level != PG_LEVEL_4K)
		prot = pgprot_large_2_4k(prot);
	*bits = pgprot_val(prot) & _PAGE_CACHE_MASK;
	return 0;
}

u32 dxgpmo_arch_memtype_of_bits(u64 bits)
{
	u64 wc = pgprot_val(pgprot_writecombine(__pgprot(0))) &
		 _PAGE_CACHE_MASK;
	u64 uc = pgprot_val(pgprot_noncached(__pgprot(0))) & _PAGE_CACHE_MASK;

	if (!bits)
		return DXGPMO_TEST_MEMTYPE_WB;
	/* Without PAT, pgprot_writecombine() is UC- too. */
	if (bits == uc)
		return DXGPMO_TEST_MEMTYPE_UC_MINUS;
	if (bits == wc)
		return DXGPMO_TEST_MEMTYPE_WC;
	return DXGPMO_TEST_MEMTYPE_OTHER;
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

/* Without PAT, WC is UC-. */
bool dxgpmo_arch_wc_distinct(void)
{
	return pat_enabled();
}
