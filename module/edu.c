// SPDX-License-Identifier: GPL-2.0
/*
 * The QEMU edu device (1234:11e8) as a dxgpmo adapter, and its DMA engine.
 *
 * The device, its registers and one engine run are <linux/qemu_edu.h>.
 * There is no CPU access to edu's buffer, so a device write of user bytes
 * to memory is two runs: a staging buffer of ours (DMA-mapped for the
 * device) into the edu buffer, then the edu buffer to the target address;
 * a device read is the same in reverse, QEMU_EDU_CHUNK bytes at a time.
 */
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/qemu_edu.h>
#include <linux/slab.h>

#include "adapter.h"
#include "dxgpmo.h"
#include "edu.h"
#include "segment_basis.h"

/* The adapter's priv. */
struct dxgpmo_edu {
	void __iomem *regs;
	/*
	 * The BAR page holding them: only ever read through an IO_SPACE
	 * object, never written, never an ADL.
	 */
	struct resource reg_page;
	/* One transfer at a time; also fences against removal. */
	struct mutex engine_lock;
	bool dead;
	void *staging;
	dma_addr_t staging_dma;
};

static DEFINE_MUTEX(dxgpmo_edu_lock);
static unsigned int dxgpmo_nr_edu;

/*
 * Move len bytes between buf (kernel memory) and device_address with the
 * engine.  The caller has checked that the device may touch the range.
 */
static int dxgpmo_edu_transfer(struct dxgpmo_adapter *adapter, bool to_memory,
			       u64 device_address, void *buf, size_t len)
{
	struct dxgpmo_edu *edu = adapter->priv;
	size_t done = 0;
	int ret = 0;

	/* A whole call holds the engine for seconds: waiters can be killed. */
	if (mutex_lock_killable(&edu->engine_lock))
		return -EINTR;
	if (edu->dead) {
		ret = -ENODEV;
		goto out;
	}
	while (done < len) {
		u32 n = min_t(size_t, len - done, QEMU_EDU_CHUNK);
		u64 addr = device_address + done;

		if (to_memory)
			memcpy(edu->staging, buf + done, n);
		ret = qemu_edu_dma_bounce(edu->regs, edu->staging_dma, addr, n,
					  to_memory);
		if (!ret && !to_memory)
			memcpy(buf + done, edu->staging, n);
		if (ret == -ETIMEDOUT) {
			/*
			 * The engine may still finish this run later, into
			 * memory or addresses the caller is about to give
			 * back: it loses bus mastering and gets no more work,
			 * as after removal.
			 */
			pci_clear_master(to_pci_dev(adapter->dev));
			edu->dead = true;
			dev_err(adapter->dev,
				"DMA engine timed out; no more transfers until the device is bound again\n");
		}
		if (ret)
			break;
		done += n;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
	}
out:
	mutex_unlock(&edu->engine_lock);
	return ret;
}

/*
 * Its BARs may be viewed (IO_SPACE): the module drives the device and
 * knows which page holds the registers it programs.
 */
static bool dxgpmo_edu_find_bar(struct dxgpmo_adapter *adapter, u64 start,
				u64 len, bool *registers, bool *prefetchable)
{
	struct dxgpmo_edu *edu = adapter->priv;

	if (!dxgpmo_adapter_pci_bar(adapter, start, len, prefetchable))
		return false;
	*registers = start <= edu->reg_page.end &&
		     start + len - 1 >= edu->reg_page.start;
	return true;
}

/*
 * The engine's memory goes with the device: no transfer after this (one
 * in flight finishes first).  Then the core waits for every other user of
 * the device and revokes every ADL while the device is still bound.
 */
static void dxgpmo_edu_revoke(struct dxgpmo_adapter *adapter)
{
	struct dxgpmo_edu *edu = adapter->priv;

	mutex_lock(&edu->engine_lock);
	edu->dead = true;
	mutex_unlock(&edu->engine_lock);
}

static void dxgpmo_edu_release(struct dxgpmo_adapter *adapter)
{
	kfree(adapter->priv);
}

static const struct dxgpmo_adapter_ops dxgpmo_edu_ops = {
	.name = "edu",
	.caps = DXGPMO_ADAPTER_CAP_DMA_ENGINE,
	.transfer = dxgpmo_edu_transfer,
	.fill_info = dxgpmo_adapter_pci_info,
	.find_bar = dxgpmo_edu_find_bar,
	.revoke = dxgpmo_edu_revoke,
	.release = dxgpmo_edu_release,
	.basis_ddi = &dxgpmo_segment_basis_ddi,
};

static int dxgpmo_edu_probe(struct pci_dev *pdev,
			    const struct pci_device_id *id)
{
	/* The engine's registers: all in BAR0's first page. */
	struct resource regs = DEFINE_RES_MEM(pci_resource_start(pdev, 0),
					      PAGE_SIZE);
	struct dxgpmo_adapter *adapter;
	struct dxgpmo_edu *edu;
	int ret;

	ret = qemu_edu_pcim_enable(pdev);
	if (ret)
		return ret;
	/* Let one ADL become one DMA segment; the return type differs. */
	dma_set_max_seg_size(&pdev->dev, UINT_MAX);
	ret = pcim_iomap_regions(pdev, BIT(0), "dxgpmo-edu");
	if (ret)
		return ret;
	pci_set_master(pdev);

	/* Freed with the adapter: ADAPTER_DMA may still hold it at unbind. */
	edu = kzalloc(sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	mutex_init(&edu->engine_lock);
	edu->regs = pcim_iomap_table(pdev)[0];
	edu->reg_page = regs;
	edu->staging = dmam_alloc_coherent(&pdev->dev, QEMU_EDU_CHUNK,
					   &edu->staging_dma, GFP_KERNEL);
	if (!edu->staging) {
		kfree(edu);
		return -ENOMEM;
	}
	if ((readl(edu->regs + QEMU_EDU_REG_ID) & 0xff) != 0xed) {
		kfree(edu);
		return -ENODEV;
	}

	mutex_lock(&dxgpmo_edu_lock);
	adapter = dxgpmo_adapter_register(&pdev->dev, &dxgpmo_edu_ops,
					  dxgpmo_nr_edu, edu, NULL);
	if (!IS_ERR(adapter))
		dxgpmo_nr_edu++;
	mutex_unlock(&dxgpmo_edu_lock);
	if (IS_ERR(adapter)) {
		kfree(edu);
		return PTR_ERR(adapter);
	}
	pci_set_drvdata(pdev, adapter);
	return 0;
}

/* The adapter, and edu with it, may be freed in there (see revoke). */
static void dxgpmo_edu_remove(struct pci_dev *pdev)
{
	dxgpmo_adapter_unregister(pci_get_drvdata(pdev));
}

static const struct pci_device_id dxgpmo_edu_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_QEMU_EDU, PCI_DEVICE_ID_QEMU_EDU) },
	{ }
};
MODULE_DEVICE_TABLE(pci, dxgpmo_edu_ids);

static struct pci_driver dxgpmo_edu_driver = {
	.name = "dxgpmo-edu",
	.id_table = dxgpmo_edu_ids,
	.probe = dxgpmo_edu_probe,
	.remove = dxgpmo_edu_remove,
};

int dxgpmo_edu_init(void)
{
	return pci_register_driver(&dxgpmo_edu_driver);
}

void dxgpmo_edu_exit(void)
{
	pci_unregister_driver(&dxgpmo_edu_driver);
}
