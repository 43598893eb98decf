/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test ioctl's readers of memory types from page tables, one
 * arch_$(SRCARCH)_test.c each (test builds only, test.h).
 */
#ifndef _DXGPMO_ARCH_TEST_H
#define _DXGPMO_ARCH_TEST_H

#include <linux/mm_types.h>
#include <linux/types.h>

/* The memory-type bits of a user PTE. */
u64 dxgpmo_arch_pte_cache_bits(pte_t pte);
/* Those of the kernel mapping of addr, 4 KiB encoding, which maps pfn. */
int dxgpmo_arch_kernel_cache_bits(unsigned long addr, unsigned long pfn,
				  u64 *bits);
/* The DXGPMO_TEST_MEMTYPE_* of those bits. */
u32 dxgpmo_arch_memtype_of_bits(u64 bits);
/* Whether write-combining is a memory type of its own. */
bool dxgpmo_arch_wc_distinct(void);

#endif /* _DXGPMO_ARCH_TEST_H */
