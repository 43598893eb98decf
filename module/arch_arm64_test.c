// SPDX-License-Identifier: GPL-2.0
/*
 * arm64's readers of memory types for the test command (test builds
 * only, test.h): the MAIR attribute index of PTEs and block entries.
 */
#include <linux/mm.h>
#include <asm/pgtable.h>
#include <asm/sysreg.h>

#include "arch_test.h"
#include "dxgpmo_test.h"

/* The MAIR attribute index of the entry (MT_NORMAL, MT_NORMAL_NC, ...). */
u64 dxgpmo_arch_pte_cache_bits(pte_t pte)
{
	return pte_val(pte) & PTE_ATTRINDX_MASK;
}

/*
 * An entry that maps addr, offset bytes into the block (0 for a page) it
 * maps from first_pfn: its attribute index, and whether addr is pfn.
 */
static int dxgpmo_entry_maps(u64 val, unsigned long first_pfn,
			     unsigned long offset, unsigned long pfn,
			     u64 *bits)
{
	*bits = val & PTE_ATTRINDX_MASK;
	return first_pfn + (offset >> PAGE_SHIFT) == pfn ? 0 : -EFAULT;
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
	if (pud_leaf(READ_ONCE(*pud)))
		return dxgpmo_entry_maps(pud_val(READ_ONCE(*pud)),
					 pud_pfn(READ_ONCE(*pud)),
					 addr & ~PUD_MASK, pfn, bits);
	pmd = pmd_offset(pud, addr);
	if (pmd_none(READ_ONCE(*pmd)))
		return -EFAULT;
	if (pmd_leaf(READ_ONCE(*pmd)))
		return dxgpmo_entry_maps(pmd_val(READ_ONCE(*pmd)),
					 pmd_pfn(READ_ONCE(*pmd)),
					 addr & ~PMD_MASK, pfn, bits);
	pte = READ_ONCE(*pte_offset_kernel(pmd, addr));
	if (!pte_present(pte))
		return -EFAULT;
	return dxgpmo_entry_maps(pte_val(pte), pte_pfn(pte), 0, pfn, bits);
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
