// SPDX-License-Identifier: GPL-2.0
/*
 * Any PCI device as an adapter without a DMA engine ("dxgpmo-pci").
 *
 * On a real machine there is no edu device, yet what matters most in the
 * contract, ADLs as addresses in an adapter's own IOMMU domain and revoked
 * by FREE_ADL, needs a real device behind the real IOMMU.  An administrator
 * hands the module a spare device through driver_override; the device is
 * used only for its place in the IOMMU: its BARs are never mapped or
 * exposed, and bus mastering is turned off, so the device cannot reach any
 * of the memory mapped for it while it is ours.
 *
 * The driver has no ID table: it never binds by surprise, only to a device
 * whose driver_override names it (or an ID root adds through new_id).
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pci.h>

#include "internal.h"

/* The DMA mask every newly bound device gets, in bits. */
static unsigned int dxgpmo_pci_dma_bits = 64;
module_param_named(pci_dma_bits, dxgpmo_pci_dma_bits, uint, 0644);
MODULE_PARM_DESC(pci_dma_bits,
		 "DMA mask in bits (24-64) set on devices bound to dxgpmo-pci; ADL addresses stay below it (default 64)");

static DEFINE_MUTEX(dxgpmo_pci_lock);
static unsigned int dxgpmo_nr_pci;

static int dxgpmo_generic_pci_probe(struct pci_dev *pdev,
				    const struct pci_device_id *id)
{
	unsigned int bits = READ_ONCE(dxgpmo_pci_dma_bits);
	struct dxgpmo_adapter *adapter;
	int ret;

	/* A bridge's driver holds up everything behind it. */
	if (pdev->hdr_type != PCI_HEADER_TYPE_NORMAL) {
		pci_info(pdev, "dxgpmo-pci: not binding a bridge\n");
		return -ENODEV;
	}
	if (bits < 24 || bits > 64) {
		pci_err(pdev, "dxgpmo-pci: pci_dma_bits=%u is not 24..64\n",
			bits);
		return -EINVAL;
	}
	/*
	 * The driver it had may have left it able to master the bus; ours
	 * never lets it, whatever the ADLs map for it.
	 */
	pci_clear_master(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(bits));
	if (ret) {
		pci_err(pdev, "dxgpmo-pci: no %u-bit DMA mask: %d\n", bits,
			ret);
		return ret;
	}
	/* Let one ADL become one DMA segment; the return type differs. */
	dma_set_max_seg_size(&pdev->dev, UINT_MAX);

	mutex_lock(&dxgpmo_pci_lock);
	adapter = dxgpmo_adapter_register(&pdev->dev, "pci", dxgpmo_nr_pci, 0,
					  NULL, NULL);
	if (!IS_ERR(adapter))
		dxgpmo_nr_pci++;
	mutex_unlock(&dxgpmo_pci_lock);
	if (IS_ERR(adapter))
		return PTR_ERR(adapter);
	pci_set_drvdata(pdev, adapter);
	return 0;
}

/* Revokes every ADL while the device is still bound to unmap them for. */
static void dxgpmo_generic_pci_remove(struct pci_dev *pdev)
{
	dxgpmo_adapter_unregister(pci_get_drvdata(pdev));
}

static struct pci_driver dxgpmo_generic_pci_driver = {
	.name = "dxgpmo-pci",
	.probe = dxgpmo_generic_pci_probe,
	.remove = dxgpmo_generic_pci_remove,
};

int dxgpmo_generic_pci_init(void)
{
	return pci_register_driver(&dxgpmo_generic_pci_driver);
}

void dxgpmo_generic_pci_exit(void)
{
	pci_unregister_driver(&dxgpmo_generic_pci_driver);
}
