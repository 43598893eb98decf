// SPDX-License-Identifier: GPL-2.0
/*
 * Adapters: the devices ADLs are made for.
 *
 * Each kind of adapter is a file of its own that registers its devices
 * here with its struct dxgpmo_adapter_ops (adapter.h), and the core asks
 * the ops, never which kind it has.  An edu adapter (edu.c) is a bound
 * QEMU edu PCI device with a real DMA engine; behind an IOMMU its DMA
 * addresses are IOVAs in its own domain.  A generic PCI adapter
 * (generic_pci.c) is any PCI device an administrator hands the module,
 * used only for its place in the IOMMU: never driven.  A virtual adapter
 * (virtual.c) is a platform device without an IOMMU: the DMA API hands out
 * physical addresses, so logical pages equal physical pages.
 *
 * Adapter ids are global (all files see the same adapters, but for a
 * kernel client's own, which only its client sees) and not reused until
 * the 8-bit space wraps, nor while a view of the segment at the id's mmap
 * offset remains (dxgpmo_adapter_id_release()).
 *
 * Removal (unbind, hot-unplug) revokes everything that lets the device reach
 * memory before the device goes: ADLs are unmapped, BAR views stop working,
 * ADAPTER_DMA fails.  The adapter itself stays, flagged removed (calls that
 * name it get -ENODEV), until the last object or BAR view that refers to
 * it lets go; its segment stays while a view of the segment remains.
 */
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/iommu.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "adapter.h"
#include "adl.h"
#include "dxgpmo.h"
#include "fs.h"
#include "internal.h"
#include "segment.h"
#include "ucmd.h"

static DEFINE_XARRAY_ALLOC1(dxgpmo_adapters);
static u32 dxgpmo_next_adapter_id;
static DEFINE_MUTEX(dxgpmo_adapters_lock);

/*
 * The segment at the id's mmap offset is gone with its last view: only now
 * may another adapter get the id, or a collection of the new one's segment
 * would walk, clean and zap the old views' PTEs (and report their writes).
 */
static void dxgpmo_adapter_id_release(u32 id)
{
	mutex_lock(&dxgpmo_adapters_lock);
	xa_erase(&dxgpmo_adapters, id);
	mutex_unlock(&dxgpmo_adapters_lock);
}

static void dxgpmo_adapter_release(struct kref *kref)
{
	struct dxgpmo_adapter *adapter =
		container_of(kref, struct dxgpmo_adapter, kref);

	/*
	 * QUERY_ADAPTERS and the BAR lookup read adapters under the lock;
	 * the id stays reserved until the segment goes.
	 */
	mutex_lock(&dxgpmo_adapters_lock);
	xa_cmpxchg(&dxgpmo_adapters, adapter->id, adapter, XA_ZERO_ENTRY,
		   GFP_KERNEL);
	mutex_unlock(&dxgpmo_adapters_lock);
	WARN_ON(!list_empty(&adapter->adls));
	dxgpmo_segment_put(adapter->segment);
	if (adapter->bar_inode)
		iput(adapter->bar_inode);
	put_device(adapter->dev);
	if (adapter->ops->release)
		adapter->ops->release(adapter);
	kfree(adapter);
}

void dxgpmo_adapter_put(struct dxgpmo_adapter *adapter)
{
	kref_put(&adapter->kref, dxgpmo_adapter_release);
}

/*
 * Adapter id as file sees it: -ENOENT for an unknown id or another kernel
 * client's adapter, -ENODEV for an adapter that was removed.
 */
struct dxgpmo_adapter *dxgpmo_adapter_get(struct dxgpmo_file *file, u32 id)
{
	return dxgpmo_adapter_get_any_owner(file, id, false);
}

/*
 * With any_owner, also a kernel driver's adapter, which only the file of
 * its client otherwise sees (the caller decided that file may).
 */
struct dxgpmo_adapter *dxgpmo_adapter_get_any_owner(struct dxgpmo_file *file,
						    u32 id, bool any_owner)
{
	struct dxgpmo_adapter *adapter;

	if (!id)
		return ERR_PTR(-ENOENT);
	xa_lock(&dxgpmo_adapters);
	adapter = xa_load(&dxgpmo_adapters, id);
	if (!adapter ||
	    (adapter->owner && adapter->owner != file && !any_owner) ||
	    !kref_get_unless_zero(&adapter->kref))
		adapter = ERR_PTR(-ENOENT);
	xa_unlock(&dxgpmo_adapters);
	if (!IS_ERR(adapter) && READ_ONCE(adapter->removed)) {
		dxgpmo_adapter_put(adapter);
		adapter = ERR_PTR(-ENODEV);
	}
	return adapter;
}

/* The device is there, and stays until dxgpmo_adapter_end_access(). */
bool dxgpmo_adapter_begin_access(struct dxgpmo_adapter *adapter)
{
	down_read(&adapter->access_lock);
	if (!adapter->removed)
		return true;
	up_read(&adapter->access_lock);
	return false;
}

void dxgpmo_adapter_end_access(struct dxgpmo_adapter *adapter)
{
	up_read(&adapter->access_lock);
}

/*
 * The adapter owning [start, start + len) inside one of its memory BARs, with
 * a reference; NULL when no dxgpmo adapter has that range (IO_SPACE objects
 * may only describe the module's own devices).  *registers tells whether
 * the range covers registers the module drives, *prefetchable whether its
 * BAR may be write-combined.
 */
struct dxgpmo_adapter *dxgpmo_adapter_get_by_bar(u64 start, u64 len,
						 bool *registers,
						 bool *prefetchable)
{
	struct dxgpmo_adapter *adapter, *found = NULL;
	unsigned long index;

	mutex_lock(&dxgpmo_adapters_lock);
	xa_for_each(&dxgpmo_adapters, index, adapter) {
		/*
		 * Only the module's own devices, as their kind says: the BARs
		 * of a device bound to the generic driver are registers nobody
		 * here knows, and a write to them could start its DMA or worse.
		 */
		if (!adapter->ops->find_bar || adapter->owner ||
		    adapter->removed)
			continue;
		if (adapter->ops->find_bar(adapter, start, len, registers,
					   prefetchable) &&
		    kref_get_unless_zero(&adapter->kref)) {
			found = adapter;
			break;
		}
	}
	mutex_unlock(&dxgpmo_adapters_lock);
	return found;
}

/*
 * For the PCI kinds' ops->find_bar: whether [start, start + len) lies in
 * one of the device's memory BARs, and whether that BAR is prefetchable.
 */
bool dxgpmo_adapter_pci_bar(struct dxgpmo_adapter *adapter, u64 start,
			    u64 len, bool *prefetchable)
{
	struct pci_dev *pdev = to_pci_dev(adapter->dev);
	int bar;

	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
		struct resource *res = &pdev->resource[bar];

		if (!(res->flags & IORESOURCE_MEM) || !res->start)
			continue;
		if (start >= res->start && len && start + len - 1 >= start &&
		    start + len - 1 <= res->end) {
			*prefetchable = res->flags & IORESOURCE_PREFETCH;
			return true;
		}
	}
	return false;
}

static bool dxgpmo_dev_behind_iommu(struct device *dev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dev);

	return domain && iommu_is_dma_domain(domain);
}

/*
 * An unmap in a lazy (flush-queue) DMA domain clears the IOMMU's page
 * table at once and leaves the IOTLB to a flush up to 10 ms later (or
 * when the queue fills): until then the device may still reach the pages
 * through a cached translation, and the pages may be freed and reused as
 * soon as FREE_ADL returns and DESTROY follows.  An ADL's end cuts the
 * device off before the call returns, as on a strict domain, whose unmap
 * flushed the range itself.  The IOVA stays in the flush queue until its
 * own flush, so it cannot be handed out again before.
 */
void dxgpmo_adapter_flush_lazy_unmaps(struct dxgpmo_adapter *adapter)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(adapter->dev);

	if (domain && domain->type == IOMMU_DOMAIN_DMA_FQ)
		iommu_flush_iotlb_all(domain);
}

static int dxgpmo_dev_iommu_group(struct device *dev)
{
	struct iommu_group *group = iommu_group_get(dev);
	int id = -1;

	if (group) {
		id = iommu_group_id(group);
		iommu_group_put(group);
	}
	return id;
}

/*
 * A device of the kind ops becomes adapter <ops->name><index>; priv is
 * the kind's, given back to ops->release when the adapter goes (not on
 * failure: the caller still owns it then).
 */
struct dxgpmo_adapter *
dxgpmo_adapter_register(struct device *dev,
			const struct dxgpmo_adapter_ops *ops,
			unsigned int index, void *priv,
			struct dxgpmo_file *owner)
{
	struct dxgpmo_adapter *adapter;
	int ret;

	if (WARN_ON(!(ops->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE) !=
		    !ops->transfer || !ops->basis_ddi))
		return ERR_PTR(-EINVAL);
	adapter = kzalloc(sizeof(*adapter), GFP_KERNEL);
	if (!adapter)
		return ERR_PTR(-ENOMEM);
	kref_init(&adapter->kref);
	init_rwsem(&adapter->access_lock);
	mutex_init(&adapter->adls_lock);
	INIT_LIST_HEAD(&adapter->adls);
	adapter->dev = get_device(dev);
	adapter->ops = ops;
	adapter->priv = priv;
	adapter->owner = owner;
	adapter->caps = ops->caps;
	adapter->dma_mask = dma_get_mask(dev);
	adapter->iommu_group = dxgpmo_dev_iommu_group(dev);
	if (dxgpmo_dev_behind_iommu(dev))
		adapter->caps |= DXGPMO_ADAPTER_CAP_IOMMU;
	snprintf(adapter->name, sizeof(adapter->name), "%s%u", ops->name,
		 index);
	if (ops->find_bar) {
		adapter->bar_inode = dxgpmo_mapping_inode_new();
		if (IS_ERR(adapter->bar_inode)) {
			ret = PTR_ERR(adapter->bar_inode);
			adapter->bar_inode = NULL;
			goto err_free;
		}
	}

	/* Reserved until the segment exists: lookups see nothing before. */
	mutex_lock(&dxgpmo_adapters_lock);
	ret = xa_alloc_cyclic(&dxgpmo_adapters, &adapter->id, XA_ZERO_ENTRY,
			      XA_LIMIT(1, 255), &dxgpmo_next_adapter_id,
			      GFP_KERNEL);
	mutex_unlock(&dxgpmo_adapters_lock);
	if (ret < 0)
		goto err_free;
	adapter->segment = dxgpmo_segment_create(adapter->id,
						 dxgpmo_adapter_id_release);
	if (IS_ERR(adapter->segment)) {
		ret = PTR_ERR(adapter->segment);
		xa_erase(&dxgpmo_adapters, adapter->id);
		goto err_free;
	}
	xa_store(&dxgpmo_adapters, adapter->id, adapter, GFP_KERNEL);
	dev_info(dev, "dxgpmo adapter %u (%s)%s\n", adapter->id, adapter->name,
		 adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU ? ", behind an IOMMU" :
		 "");
	return adapter;

err_free:
	if (adapter->bar_inode)
		iput(adapter->bar_inode);
	put_device(adapter->dev);
	kfree(adapter);
	return ERR_PTR(ret);
}

/*
 * Move len bytes between buf (kernel memory) and device_address with the
 * adapter's engine (DXGPMO_ADAPTER_CAP_DMA_ENGINE).  The caller has checked
 * that the device may touch the range, and holds its access.
 */
int dxgpmo_adapter_transfer(struct dxgpmo_adapter *adapter, bool to_memory,
			    u64 device_address, void *buf, size_t len)
{
	lockdep_assert_held_read(&adapter->access_lock);
	return adapter->ops->transfer(adapter, to_memory, device_address, buf,
				      len);
}

/*
 * The device is leaving: the kind stops its own use of it (ops->revoke),
 * then wait for whoever is using it, then revoke what lets it reach
 * memory while it is still there to unmap it for.
 */
void dxgpmo_adapter_unregister(struct dxgpmo_adapter *adapter)
{
	if (adapter->ops->revoke)
		adapter->ops->revoke(adapter);
	down_write(&adapter->access_lock);
	mutex_lock(&dxgpmo_adapters_lock);
	WRITE_ONCE(adapter->removed, true);
	mutex_unlock(&dxgpmo_adapters_lock);
	dxgpmo_adl_revoke_adapter(adapter);
	up_write(&adapter->access_lock);
	/*
	 * Views of the BARs fault no more (removed is set); the PTEs they
	 * have go before the driver gives the BARs up.
	 */
	if (adapter->bar_inode)
		unmap_mapping_range(adapter->bar_inode->i_mapping, 0, 0, 1);
	dev_info(adapter->dev, "dxgpmo adapter %u removed\n", adapter->id);
	dxgpmo_adapter_put(adapter);
}

/* The PCI kinds' ops->fill_info: where the device is, what it is. */
void dxgpmo_adapter_pci_info(const struct dxgpmo_adapter *adapter,
			     struct dxgpmo_adapter_info *info)
{
	struct pci_dev *pdev = to_pci_dev(adapter->dev);

	info->pci_domain = pci_domain_nr(pdev->bus);
	info->pci_bus = pdev->bus->number;
	info->pci_devfn = pdev->devfn;
	info->pci_vendor = pdev->vendor;
	info->pci_device = pdev->device;
}

static void dxgpmo_adapter_fill_info(const struct dxgpmo_adapter *adapter,
				     struct dxgpmo_adapter_info *info)
{
	memset(info, 0, sizeof(*info));
	info->adapter_id = adapter->id;
	info->caps = adapter->caps;
	info->dma_mask = adapter->dma_mask;
	info->segment_size = adapter->segment->size;
	info->segment_mmap_offset = (u64)adapter->id << DXGPMO_SEGMENT_SHIFT;
	info->dirty_page_size = dxgpmo_dirty_page_size;
	info->segment_device_address = DXGPMO_SEGMENT_DEVICE_BASE;
	info->iommu_group = adapter->iommu_group;
	strscpy(info->name, adapter->name, sizeof(info->name));
	if (adapter->ops->fill_info)
		adapter->ops->fill_info(adapter, info);
}

/*
 * The entries are filled under the lock and copied after it: a caller whose
 * buffer faults slowly must not hold up probe, removal or module exit.
 */
int dxgpmo_cmd_query_adapters(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_query_adapters *cmd = ucmd->cmd;
	u8 __user *entries = u64_to_user_ptr(cmd->entries);
	struct dxgpmo_adapter_info *infos;
	struct dxgpmo_adapter *adapter;
	size_t copy_len;
	unsigned long index;
	u32 total = 0, i;
	int ret = 0;

	/* User memory only: no kernel client has this command. */
	if (WARN_ON_ONCE(ucmd->kbuffer) || cmd->flags)
		return -EINVAL;
	if (cmd->count && cmd->entry_size < offsetofend(typeof(*infos), name))
		return -EINVAL;
	/* Each entry's unknown tail is zeroed in one go: at most a page. */
	if (cmd->count && cmd->entry_size > DXGPMO_ADAPTER_INFO_MAX_SIZE)
		return -EINVAL;
	copy_len = min_t(size_t, cmd->entry_size, sizeof(*infos));
	/* Ids are 8 bits: never more adapters than that. */
	infos = kcalloc(256, sizeof(*infos), GFP_KERNEL_ACCOUNT);
	if (!infos)
		return -ENOMEM;

	mutex_lock(&dxgpmo_adapters_lock);
	xa_for_each(&dxgpmo_adapters, index, adapter) {
		if (adapter->removed || total >= 256 ||
		    (adapter->owner && adapter->owner != ucmd->file))
			continue;
		dxgpmo_adapter_fill_info(adapter, &infos[total++]);
	}
	mutex_unlock(&dxgpmo_adapters_lock);

	for (i = 0; i < total && i < cmd->count; i++) {
		u8 __user *dst = entries + (size_t)i * cmd->entry_size;

		if (copy_to_user(dst, &infos[i], copy_len) ||
		    clear_user(dst + copy_len, cmd->entry_size - copy_len)) {
			ret = -EFAULT;
			break;
		}
	}
	kfree(infos);
	if (ret)
		return ret;
	cmd->count = total;
	return dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
}
