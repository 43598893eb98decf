// SPDX-License-Identifier: GPL-2.0
/*
 * x86's readers of memory types for the test command (test builds only,
 * test.h): the PAT bits of PTEs, decoded against the kernel's own
 * encodings.
 */
#include <linux/mm.h>
#include <asm/memtype.h>
#include <asm/pgtable.h>

#include "arch_test.h"
#include "dxgpmo_test.h"

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

/* Without PAT, WC is UC-. */
bool dxgpmo_arch_wc_distinct(void)
{
	return pat_enabled();
}
