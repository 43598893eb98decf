/* SPDX-License-Identifier: GPL-2.0 */
/* Any PCI function bound through driver_override, as an adapter. */
#ifndef _DXGPMO_GENERIC_PCI_H
#define _DXGPMO_GENERIC_PCI_H

int dxgpmo_generic_pci_init(void);
void dxgpmo_generic_pci_exit(void);

#endif /* _DXGPMO_GENERIC_PCI_H */
