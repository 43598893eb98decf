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
 * whose driver_override names it (or an ID root adds through new_id).  It
 * refuses what a spare device cannot be: bridges, the IOMMU itself,
 * untrusted (external) devices, and by default a device whose IOMMU group
 * it would share with devices other drivers run.
 */
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pci.h>

#include "adapter.h"
#include "compat.h"
#include "generic_pci.h"
#include "segment_basis.h"

/* The DMA mask every newly bound device gets, in bits. */
static unsigned int dxgpmo_pci_dma_bits = 64;

/* 24: the ISA floor; below it no PCI device addresses RAM. */
static int dxgpmo_pci_dma_bits_set(const char *val,
				   const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 24, 64);
}

static const struct kernel_param_ops dxgpmo_pci_dma_bits_ops = {
	.set = dxgpmo_pci_dma_bits_set,
	.get = param_get_uint,
};
module_param_cb(pci_dma_bits, &dxgpmo_pci_dma_bits_ops, &dxgpmo_pci_dma_bits,
		0644);
MODULE_PARM_DESC(pci_dma_bits,
		 "DMA mask in bits (24-64) set on devices bound to dxgpmo-pci; ADL addresses stay below it (default 64)");

/*
 * Devices sharing an IOMMU group share its domain: what an opener maps for
 * ours, a peer that another driver runs could reach, and ADLs would eat
 * the IOVA space the peer's driver allocates from.
 */
static bool dxgpmo_pci_shared_group;
module_param_named(pci_shared_group, dxgpmo_pci_shared_group, bool, 0644);
MODULE_PARM_DESC(pci_shared_group,
		 "Let dxgpmo-pci bind a device whose IOMMU group has other devices (default N)");

static DEFINE_MUTEX(dxgpmo_pci_lock);
static unsigned int dxgpmo_nr_pci;

/*
 * What the device had when we got it, put back when we let it go, as if
 * we had never bound: nothing else resets them (the PCI core sets them
 * once, at enumeration), and the next driver may rely on them (a 32-bit
 * mask taken for granted, 64 KiB segments).
 */
struct dxgpmo_generic_pci {
	struct dxgpmo_adapter *adapter;
	u64 dma_mask;
	u64 coherent_dma_mask;
	unsigned int max_seg_size;
};

static void dxgpmo_pci_restore_dma(struct pci_dev *pdev,
				   const struct dxgpmo_generic_pci *gen)
{
	if (dma_set_mask(&pdev->dev, gen->dma_mask))
		pci_warn(pdev, "dxgpmo-pci: could not restore the DMA mask\n");
	if (dma_set_coherent_mask(&pdev->dev, gen->coherent_dma_mask))
		pci_warn(pdev, "dxgpmo-pci: could not restore the coherent DMA mask\n");
	dma_set_max_seg_size(&pdev->dev, gen->max_seg_size);
}

static int dxgpmo_pci_count_device(struct device *dev, void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

static unsigned int dxgpmo_pci_group_size(struct pci_dev *pdev)
{
	struct iommu_group *group = iommu_group_get(&pdev->dev);
	unsigned int n = 0;

	if (!group)
		return 1;
	iommu_group_for_each_dev(group, &n, dxgpmo_pci_count_device);
	iommu_group_put(group);
	return n;
}

/* Why the device must not be ours, or NULL. */
static const char *dxgpmo_pci_refusal(struct pci_dev *pdev)
{
	/* A bridge's driver holds up everything behind it. */
	if (pdev->hdr_type != PCI_HEADER_TYPE_NORMAL ||
	    pdev->class >> 16 == PCI_BASE_CLASS_BRIDGE)
		return "a bridge (class 06xx)";
	/* The IOMMU's own function: clearing its bus mastering stops it. */
	if (pdev->class >> 8 == PCI_CLASS_SYSTEM_IOMMU)
		return "an IOMMU";
	/* Bus mastering off is a request; the IOMMU is the only barrier. */
	if (pdev->untrusted)
		return "an untrusted (external) device";
	/* At bind time: a device hot-added to the group later is not seen. */
	if (!dxgpmo_pci_shared_group && dxgpmo_pci_group_size(pdev) > 1)
		return "in an IOMMU group with other devices (pci_shared_group=1 allows it)";
	return NULL;
}

/* No engine, and BARs nobody here knows: never exposed. */
static const struct dxgpmo_adapter_ops dxgpmo_generic_pci_ops = {
	.name = "pci",
	.fill_info = dxgpmo_adapter_pci_info,
	.basis_ddi = &dxgpmo_segment_basis_ddi,
};

static int dxgpmo_generic_pci_probe(struct pci_dev *pdev,
				    const struct pci_device_id *id)
{
	unsigned int bits = READ_ONCE(dxgpmo_pci_dma_bits);
	struct dxgpmo_generic_pci *gen;
	const char *refusal;
	int ret;

	refusal = dxgpmo_pci_refusal(pdev);
	if (refusal) {
		pci_info(pdev, "dxgpmo-pci: not binding %s\n", refusal);
		return -ENODEV;
	}
	gen = devm_kzalloc(&pdev->dev, sizeof(*gen), GFP_KERNEL);
	if (!gen)
		return -ENOMEM;
	gen->dma_mask = dma_get_mask(&pdev->dev);
	gen->coherent_dma_mask = pdev->dev.coherent_dma_mask;
	gen->max_seg_size = dma_get_max_seg_size(&pdev->dev);
	/*
	 * The driver it had may have left it able to master the bus; ours
	 * never lets it, whatever the ADLs map for it.
	 */
	pci_clear_master(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(bits));
	if (ret) {
		pci_err(pdev, "dxgpmo-pci: no %u-bit DMA mask: %d\n", bits,
			ret);
		goto err_restore;
	}
	/* Let one ADL become one DMA segment; the return type differs. */
	dma_set_max_seg_size(&pdev->dev, UINT_MAX);

	mutex_lock(&dxgpmo_pci_lock);
	gen->adapter = dxgpmo_adapter_register(&pdev->dev,
					       &dxgpmo_generic_pci_ops,
					       dxgpmo_nr_pci, NULL, NULL);
	if (!IS_ERR(gen->adapter))
		dxgpmo_nr_pci++;
	mutex_unlock(&dxgpmo_pci_lock);
	if (IS_ERR(gen->adapter)) {
		ret = PTR_ERR(gen->adapter);
		goto err_restore;
	}
	pci_set_drvdata(pdev, gen);
	return 0;

err_restore:
	dxgpmo_pci_restore_dma(pdev, gen);
	return ret;
}

/* Revokes every ADL while the device is still bound to unmap them for. */
static void dxgpmo_generic_pci_remove(struct pci_dev *pdev)
{
	struct dxgpmo_generic_pci *gen = pci_get_drvdata(pdev);

	dxgpmo_adapter_unregister(gen->adapter);
	dxgpmo_pci_restore_dma(pdev, gen);
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
