/* SPDX-License-Identifier: GPL-2.0 */
/* The QEMU edu PCI device as an adapter, with its DMA engine. */
#ifndef _DXGPMO_EDU_H
#define _DXGPMO_EDU_H

int dxgpmo_edu_init(void);
void dxgpmo_edu_exit(void);

#endif /* _DXGPMO_EDU_H */
