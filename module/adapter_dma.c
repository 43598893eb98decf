// SPDX-License-Identifier: GPL-2.0
/*
 * ADAPTER_DMA: make an adapter's own DMA engine read or write memory at a
 * device (logical) address, the way a GPU would use an ADL.
 *
 * A device address reaches memory only where this file holds a live ADL on
 * that adapter (-EACCES otherwise).  DXGPMO_DMA_RAW skips that check so tests
 * can provoke IOMMU faults; it needs CAP_SYS_RAWIO and an adapter behind an
 * IOMMU, because on a physically addressed adapter a raw address is any page
 * of the machine (-EPERM).  On such an adapter only a caller who may see
 * physical addresses (adapter.c) names any outside the segment.  The
 * transfer holds references on the ADLs it relies on (FREE_ADL of one of
 * them waits for it) and the adapter's access lock (removal waits for it);
 * no lock of the file, so the file's other threads go on while the engine
 * works.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>
#include <linux/uaccess.h>

#include "adapter.h"
#include "adapter_dma.h"
#include "adl.h"
#include "dirty.h"
#include "dxgpmo.h"
#include "inject.h"
#include "internal.h"
#include "object.h"
#include "privilege.h"
#include "segment.h"
#include "trace.h"
#include "ucmd.h"

/* Each 2 KiB takes two ~100 ms edu transfers: keep calls bounded. */
#define DXGPMO_DMA_MAX_LENGTH	(64 << 10)

/*
 * One piece of a segment page for one transfer, for the engine to read
 * (DMA_TO_DEVICE) or write (DMA_FROM_DEVICE).  Only the bytes moved are
 * mapped: if they were bounced, the copy-back of a whole page would
 * revert what the CPU and other transfers wrote to the rest of it
 * meanwhile.  Bounced they are not: without an IOMMU a page out of the
 * engine's reach is refused, as ADLs refuse theirs.  Segment pages are in
 * no ADL, and the segment's dma_lock keeps this the only mapping of them:
 * the DMA API's own syncs are right.
 */
static int dxgpmo_adapter_segment_dma_map(struct dxgpmo_adapter *adapter,
					  struct page *page,
					  unsigned int offset, size_t len,
					  enum dma_data_direction dir,
					  dma_addr_t *dma)
{
	bool direct = !(adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU);
	phys_addr_t phys = page_to_phys(page) + offset;

	/* A forced bounce slot is not picked within the device's mask. */
	if (direct && (phys + len - 1 > dma_get_mask(adapter->dev) ||
		       is_swiotlb_force_bounce(adapter->dev)))
		return -EOPNOTSUPP;
	*dma = dma_map_page(adapter->dev, page, offset, len, dir);
	if (dma_mapping_error(adapter->dev, *dma))
		return -ENOMEM;
	if (direct && *dma != phys) {
		dma_unmap_page_attrs(adapter->dev, *dma, len, dir,
				     DMA_ATTR_SKIP_CPU_SYNC);
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * The engine on the adapter's own segment (ADAPTER_DMA, a kernel client's
 * segment transfer): each piece of a page is mapped for the adapter for
 * the transfer and unmapped after it; device writes are recorded in the
 * dirty logs on the segment.
 */
static int __dxgpmo_adapter_segment_dma(struct dxgpmo_adapter *adapter,
					bool to_memory, u64 offset, void *buf,
					size_t len)
{
	enum dma_data_direction dir = to_memory ? DMA_FROM_DEVICE :
						  DMA_TO_DEVICE;
	struct dxgpmo_segment *segment = adapter->segment;
	size_t done = 0;
	int ret = 0;

	/* The device is still there to map for (dxgpmo_adapter_begin_access). */
	lockdep_assert_held_read(&adapter->access_lock);
	if (offset + len < offset || offset + len > segment->size)
		return -EINVAL;
	while (done < len) {
		u64 off = offset + done;
		size_t n = min_t(size_t, len - done,
				 PAGE_SIZE - (off & ~PAGE_MASK));
		struct page *page;
		dma_addr_t dma;

		page = dxgpmo_segment_page(segment, off >> PAGE_SHIFT);
		if (IS_ERR(page))
			return PTR_ERR(page);
		if (mutex_lock_killable(&segment->dma_lock))
			return -EINTR;
		ret = dxgpmo_adapter_segment_dma_map(adapter, page,
						     off & ~PAGE_MASK, n, dir,
						     &dma);
		if (ret) {
			mutex_unlock(&segment->dma_lock);
			return ret;
		}
		ret = dxgpmo_adapter_transfer(adapter, to_memory, dma,
					      buf + done, n);
		dma_unmap_page(adapter->dev, dma, n, dir);
		mutex_unlock(&segment->dma_lock);
		/*
		 * A transfer that failed or was interrupted may have written
		 * part of the piece: over-reporting is allowed, a lost write
		 * is not.
		 */
		if (to_memory)
			dxgpmo_dirty_record(&segment->dirty, off, n, NULL);
		if (ret)
			return ret;
		done += n;
	}
	return 0;
}

int dxgpmo_adapter_segment_dma(struct dxgpmo_adapter *adapter, bool to_memory,
			       u64 offset, void *buf, size_t len)
{
	int ret = __dxgpmo_adapter_segment_dma(adapter, to_memory, offset, buf,
					       len);

	trace_dxgpmo_segment_dma(adapter->id, to_memory, offset, len, ret);
	return ret;
}

/*
 * Device addresses from DXGPMO_SEGMENT_DEVICE_BASE name the adapter's own
 * local memory: any file may let the adapter touch its segment (it is the
 * adapter's, like VRAM), so there is no ADL check, and RAW means nothing.
 * Elsewhere the range must lie in this file's ADLs on the adapter, unless
 * RAW.  Which kind of address it is was checked by the caller.
 */
static int dxgpmo_adapter_dma_move(struct dxgpmo_file *file,
				   struct dxgpmo_adapter *adapter,
				   const struct dxgpmo_adapter_dma *cmd,
				   void *kbuf)
{
	bool to_memory = cmd->flags & DXGPMO_DMA_TO_MEMORY;
	struct dxgpmo_adl *held[DXGPMO_DMA_MAX_ADLS];
	int nr = 0, ret;

	if (!dxgpmo_adapter_begin_access(adapter))
		return -ENODEV;
	if (cmd->device_address >= DXGPMO_SEGMENT_DEVICE_BASE) {
		ret = dxgpmo_adapter_segment_dma(adapter, to_memory,
						 cmd->device_address -
						 DXGPMO_SEGMENT_DEVICE_BASE,
						 kbuf, cmd->length);
		goto out;
	}
	if (!(cmd->flags & DXGPMO_DMA_RAW)) {
		nr = dxgpmo_adl_hold_range(file, adapter, cmd->device_address,
					   cmd->length, to_memory, held);
		if (nr < 0) {
			ret = nr;
			goto out;
		}
	}
	ret = dxgpmo_adapter_transfer(adapter, to_memory, cmd->device_address,
				      kbuf, cmd->length);
	dxgpmo_adl_release_held(held, nr);
out:
	dxgpmo_adapter_end_access(adapter);
	return ret;
}

int dxgpmo_cmd_adapter_dma(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_adapter_dma *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	void __user *ubuf = u64_to_user_ptr(cmd->buffer);
	bool to_memory = cmd->flags & DXGPMO_DMA_TO_MEMORY;
	bool raw = cmd->flags & DXGPMO_DMA_RAW;
	struct dxgpmo_adapter *adapter;
	void *kbuf;
	int ret;

	/* User memory only: no kernel client has this command. */
	if (WARN_ON_ONCE(ucmd->kbuffer) ||
	    cmd->flags & ~(DXGPMO_DMA_TO_MEMORY | DXGPMO_DMA_RAW) ||
	    cmd->__reserved)
		return -EINVAL;
	if (!cmd->length ||
	    cmd->device_address + cmd->length < cmd->device_address)
		return -EINVAL;
	if (cmd->length > DXGPMO_DMA_MAX_LENGTH)
		return -E2BIG;
	adapter = dxgpmo_adapter_get(ucmd->file, cmd->adapter_id);
	if (IS_ERR(adapter))
		return PTR_ERR(adapter);
	ret = -EOPNOTSUPP;
	if (!(adapter->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE))
		goto out_put;
	if (cmd->device_address >= DXGPMO_SEGMENT_DEVICE_BASE) {
		ret = -EINVAL;
		if (raw)
			goto out_put;
	} else {
		/* The engine would truncate the address and hit another page. */
		ret = -EINVAL;
		if (cmd->device_address + cmd->length - 1 > adapter->dma_mask)
			goto out_put;
		ret = -EPERM;
		if (raw && (!(adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU) ||
			    !dxgpmo_may_use_raw_dma(file)))
			goto out_put;
		/*
		 * Whether a physical address lies in one's ADLs would tell,
		 * probe by probe, the physical addresses ALLOCATE_ADL hides.
		 */
		if (!dxgpmo_adapter_addresses_visible(adapter, file))
			goto out_put;
	}

	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto out_put;
	kbuf = kvzalloc(cmd->length, GFP_KERNEL_ACCOUNT);
	if (!kbuf)
		goto out_put;
	ret = -EFAULT;
	if (to_memory && copy_from_user(kbuf, ubuf, cmd->length))
		goto out_free;
	ret = dxgpmo_adapter_dma_move(file, adapter, cmd, kbuf);
	if (!ret && !to_memory && copy_to_user(ubuf, kbuf, cmd->length))
		ret = -EFAULT;
out_free:
	kvfree(kbuf);
out_put:
	dxgpmo_adapter_put(adapter);
	return ret;
}
