/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels dxgpmo builds for (Debian's 6.1 and
 * 6.12) lives here, probed by feature where the headers allow it.
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

/* 6.8 renamed PCI_IRQ_LEGACY; 6.12 no longer has the old name. */
#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX		PCI_IRQ_LEGACY
#endif

#endif /* _DXGPMO_COMPAT_H */
