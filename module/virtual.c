// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual adapters: virtual_adapters platform devices without an IOMMU
 * ("dxgpmo-virtual"), so the DMA API hands out physical addresses and
 * logical pages equal physical pages.  No hardware: no DMA engine, no
 * BARs, no PCI location.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "adapter.h"
#include "dxgpmo.h"
#include "virtual.h"
#include "segment_basis.h"

static unsigned int dxgpmo_virtual_adapters = 1;
module_param_named(virtual_adapters, dxgpmo_virtual_adapters, uint, 0444);
MODULE_PARM_DESC(virtual_adapters,
		 "Adapters without hardware or IOMMU (logical == physical), default 1");

static struct platform_device **dxgpmo_virtual_pdevs;

/* No hardware: nothing of its own to do, nothing to report. */
static const struct dxgpmo_adapter_ops dxgpmo_virtual_ops = {
	.name = "virtual",
	.caps = DXGPMO_ADAPTER_CAP_VIRTUAL,
	.basis_ddi = &dxgpmo_segment_basis_ddi,
};

static int dxgpmo_virtual_add(unsigned int index)
{
	struct dxgpmo_adapter *adapter;
	struct platform_device *pdev;
	int ret;

	pdev = platform_device_register_simple("dxgpmo-virtual", index, NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		goto err_unregister;
	dma_set_max_seg_size(&pdev->dev, UINT_MAX);

	adapter = dxgpmo_adapter_register(&pdev->dev, &dxgpmo_virtual_ops,
					  index, NULL, NULL);
	if (IS_ERR(adapter)) {
		ret = PTR_ERR(adapter);
		goto err_unregister;
	}
	platform_set_drvdata(pdev, adapter);
	dxgpmo_virtual_pdevs[index] = pdev;
	return 0;

err_unregister:
	platform_device_unregister(pdev);
	return ret;
}

static void dxgpmo_virtual_remove_all(void)
{
	unsigned int i;

	for (i = 0; i < dxgpmo_virtual_adapters; i++) {
		struct platform_device *pdev = dxgpmo_virtual_pdevs[i];

		if (!pdev)
			continue;
		dxgpmo_adapter_unregister(platform_get_drvdata(pdev));
		platform_device_unregister(pdev);
	}
	kfree(dxgpmo_virtual_pdevs);
}

int dxgpmo_virtual_adapters_init(void)
{
	unsigned int i;
	int ret;

	if (dxgpmo_virtual_adapters > 16)
		return -EINVAL;
	dxgpmo_virtual_pdevs = kcalloc(dxgpmo_virtual_adapters,
				       sizeof(*dxgpmo_virtual_pdevs),
				       GFP_KERNEL);
	if (!dxgpmo_virtual_pdevs && dxgpmo_virtual_adapters)
		return -ENOMEM;
	for (i = 0; i < dxgpmo_virtual_adapters; i++) {
		ret = dxgpmo_virtual_add(i);
		if (ret) {
			dxgpmo_virtual_adapters_exit();
			return ret;
		}
	}
	return 0;
}

void dxgpmo_virtual_adapters_exit(void)
{
	dxgpmo_virtual_remove_all();
	dxgpmo_virtual_pdevs = NULL;
}
