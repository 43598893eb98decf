/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory the CPU maps non-cached, read, written and zeroed in 8-byte
 * words.  The kernel's own copy and clear routines may be string
 * operations (x86 with ERMS or FSRM: rep movsb, rep stosb), which are
 * fast only on write-back and write-combined memory; on uncached memory
 * each one is a bus access per byte.
 */
#ifndef _DXGPMO_UNCACHED_H
#define _DXGPMO_UNCACHED_H

#include <linux/compiler_types.h>
#include <linux/mm_types.h>
#include <linux/types.h>

void dxgpmo_uc_zero_page(struct page *page);
/* KMAP_RW of a non-cached view: write copies from ubuf into uc. */
int dxgpmo_uc_copy_user(void *uc, void __user *ubuf, size_t length,
			bool write);

#endif /* _DXGPMO_UNCACHED_H */
