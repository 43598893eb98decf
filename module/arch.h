/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the architectures dxgpmo builds for (x86_64,
 * arm64): how an object's memory type reaches the kernel's linear map.  One
 * arch_$(SRCARCH).c implements it (Kbuild); how the test ioctl reads a
 * memory type from a page-table entry is arch_test.h's.  Nothing else
 * includes an asm/ header that differs between them.
 * Documentation/driver-api/dxgpmo.rst, "Cache types on x86 and arm64",
 * says why each does what it does.
 */
#ifndef _DXGPMO_ARCH_H
#define _DXGPMO_ARCH_H

#include <linux/mm_types.h>
#include <linux/types.h>

/*
 * The contract's pages are 4 KiB (ADLs count them, views are made of
 * them), and this header has implementations for these two only.  Not in
 * Kbuild: its clean pass runs without the kernel's configuration.
 */
#if !defined(CONFIG_X86_64) && !defined(CONFIG_ARM64_4K_PAGES)
#error "dxgpmo builds for x86-64 and for arm64 with 4 KiB pages only"
#endif

/*
 * True when a non-cached or write-combined object's linear-map alias
 * takes the object's memory type (x86 PAT); false when the alias stays
 * write-back and the caches are cleaned instead (arm64), so that a pool
 * of switched pages saves nothing.
 */
extern const bool dxgpmo_arch_switches_alias;

int dxgpmo_arch_init(void);
void dxgpmo_arch_exit(void);

/*
 * Whether RAM may get another memory type than write-back: not where the
 * cache maintenance that takes cannot be done (arm64 with every DMA
 * mapping bounced).
 */
bool dxgpmo_arch_can_uncache_ram(void);

/* The protection of a non-cached view of RAM. */
pgprot_t dxgpmo_arch_pgprot_uncached(pgprot_t prot);

/*
 * Where the linear alias stays write-back (!dxgpmo_arch_switches_alias):
 * clean and invalidate n pages to the point of coherency; nonzero on
 * failure.  Elsewhere nothing to do.
 */
int dxgpmo_arch_clean_pages(struct page **pages, unsigned long n);

/*
 * Make pages ready for views of cache_type (a DXGPMO_CACHE_*), or, for
 * DXGPMO_CACHE_CACHED, ready to be write-back again; nonzero on failure,
 * after which part of them may have changed.
 */
int dxgpmo_arch_set_pages_cache(struct page **pages, unsigned long n,
				u32 cache_type);
/* The same back to write-back for n physically contiguous pages. */
int dxgpmo_arch_set_block_wb(struct page *page, unsigned long n);

#endif /* _DXGPMO_ARCH_H */
