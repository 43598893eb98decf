/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QEMU's edu device (PCI 1234:11e8): the registers and the DMA run that
 * dxgpmo's edu adapter kind and the sample kernel client both program.
 *
 * edu has one 4 KiB buffer at device address QEMU_EDU_BUFFER_ADDR and
 * an engine that copies between that buffer and a RAM (bus) address,
 * through the IOMMU.  QEMU stops the whole VM when a run does not end
 * strictly before the end of the buffer, so a run is at most
 * QEMU_EDU_CHUNK bytes starting at QEMU_EDU_BUFFER_ADDR.  A run completes
 * about 100 ms of virtual time after the command.
 */
#ifndef _LINUX_QEMU_EDU_H
#define _LINUX_QEMU_EDU_H

#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/pci.h>
#include <linux/time64.h>
#include <linux/types.h>

#define PCI_VENDOR_ID_QEMU_EDU	0x1234
#define PCI_DEVICE_ID_QEMU_EDU	0x11e8

/* edu masks every RAM address it is given to 28 bits (QEMU's default). */
#define QEMU_EDU_DMA_BITS	28

#define QEMU_EDU_REG_ID		0x00
#define QEMU_EDU_REG_DMA_SRC	0x80
#define QEMU_EDU_REG_DMA_DST	0x88
#define QEMU_EDU_REG_DMA_COUNT	0x90
#define QEMU_EDU_REG_DMA_CMD	0x98
#define   QEMU_EDU_DMA_START	0x1
#define   QEMU_EDU_DMA_TO_RAM	0x2

#define QEMU_EDU_BUFFER_ADDR	0x40000
/* Half the buffer: ends well before its end (see above). */
#define QEMU_EDU_CHUNK		2048
/*
 * One still busy after this long is taken as hung (a loaded host delays
 * QEMU's timer, not by seconds).
 */
#define QEMU_EDU_TIMEOUT_US	(10 * USEC_PER_SEC)

/*
 * Copy len bytes from src to dst, one of them QEMU_EDU_BUFFER_ADDR, the
 * other a RAM address (to_ram says which way), and wait for the engine to
 * finish.  The caller serialises runs: edu has one engine.
 *
 * Context: process context; sleeps up to QEMU_EDU_TIMEOUT_US.
 */
static inline int qemu_edu_dma_run(void __iomem *regs, u64 src, u64 dst,
				   u32 len, bool to_ram)
{
	u32 cmd;

	writeq(src, regs + QEMU_EDU_REG_DMA_SRC);
	writeq(dst, regs + QEMU_EDU_REG_DMA_DST);
	writeq(len, regs + QEMU_EDU_REG_DMA_COUNT);
	writeq(QEMU_EDU_DMA_START | (to_ram ? QEMU_EDU_DMA_TO_RAM : 0),
	       regs + QEMU_EDU_REG_DMA_CMD);
	return readl_poll_timeout(regs + QEMU_EDU_REG_DMA_CMD, cmd,
				  !(cmd & QEMU_EDU_DMA_START), 1000,
				  QEMU_EDU_TIMEOUT_US);
}

/*
 * RAM to RAM through edu's buffer, two runs: len bytes (at most
 * QEMU_EDU_CHUNK) from staging to addr when to_ram, else from addr to
 * staging.  There is
 * no CPU access to the buffer, so a driver moves bytes of its own to or
 * from a device address through a staging buffer it has mapped for the
 * device.
 *
 * Context: as qemu_edu_dma_run(), twice.
 */
static inline int qemu_edu_dma_bounce(void __iomem *regs, u64 staging,
				      u64 addr, u32 len, bool to_ram)
{
	int ret;

	ret = qemu_edu_dma_run(regs, to_ram ? staging : addr,
			       QEMU_EDU_BUFFER_ADDR, len, false);
	if (ret)
		return ret;
	return qemu_edu_dma_run(regs, QEMU_EDU_BUFFER_ADDR,
				to_ram ? addr : staging, len, true);
}

/*
 * What every driver of edu does first in probe(): the device enabled
 * (managed: disabled when the driver lets go of it) and the DMA mask the
 * engine honours set.
 *
 * Context: probe().
 */
static inline int qemu_edu_pcim_enable(struct pci_dev *pdev)
{
	int ret = pcim_enable_device(pdev);

	if (ret)
		return ret;
	return dma_set_mask_and_coherent(&pdev->dev,
					 DMA_BIT_MASK(QEMU_EDU_DMA_BITS));
}

/*
 * A driver of its own edu: qemu_edu_pcim_enable(), the registers mapped
 * (managed) and the device let master the bus.  The registers, or an
 * IOMEM_ERR_PTR().
 *
 * Context: probe().
 */
static inline void __iomem *qemu_edu_pcim_map(struct pci_dev *pdev)
{
	void __iomem *regs;
	int ret;

	ret = qemu_edu_pcim_enable(pdev);
	if (ret)
		return IOMEM_ERR_PTR(ret);
	regs = pcim_iomap(pdev, 0, 0);
	if (!regs)
		return IOMEM_ERR_PTR(-ENOMEM);
	pci_set_master(pdev);
	return regs;
}

#endif /* _LINUX_QEMU_EDU_H */
