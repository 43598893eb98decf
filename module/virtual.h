/* SPDX-License-Identifier: GPL-2.0 */
/* Virtual adapters: platform devices without an IOMMU or engine. */
#ifndef _DXGPMO_VIRTUAL_H
#define _DXGPMO_VIRTUAL_H

int dxgpmo_virtual_adapters_init(void);
void dxgpmo_virtual_adapters_exit(void);

#endif /* _DXGPMO_VIRTUAL_H */
