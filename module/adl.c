// SPDX-License-Identifier: GPL-2.0
/*
 * Address descriptor lists: DxgkCbAllocateAdl / DxgkCbFreeAdl.
 *
 * An ADL maps a page range of a PMO for the AMO's adapter with
 * dma_map_sgtable() and reports the logical page numbers the adapter must
 * use: IOVAs behind an IOMMU (one run for the whole ADL, since the adapters
 * allow segments of any size), physical addresses otherwise.  The pages stay
 * allocated and mapped until FREE_ADL; FREE_ADL unmaps them, so with
 * iommu.strict=1 the device loses access before the call returns.
 *
 * Adapters without an IOMMU get dma-direct; when a page lies beyond the
 * adapter's DMA mask dma-direct would bounce it through swiotlb, and an ADL
 * that names a bounce buffer describes other memory than the object.  Such
 * ADLs are refused (-EOPNOTSUPP) instead.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

/* dma-direct must hand out the pages themselves, never bounce buffers. */
static int dxgpmo_adl_check_reachable(struct dxgpmo_adapter *adapter,
				      struct sg_table *sgt, bool mapped)
{
	struct scatterlist *sg;
	unsigned int i;

	if (adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU)
		return 0;
	if (!mapped) {
		for_each_sgtable_sg(sgt, sg, i)
			if (page_to_phys(sg_page(sg)) + sg->length - 1 >
			    adapter->dma_mask)
				return -EOPNOTSUPP;
		return 0;
	}
	for_each_sgtable_dma_sg(sgt, sg, i)
		if (sg_dma_address(sg) != page_to_phys(sg_page(sg)))
			return -EOPNOTSUPP;
	return 0;
}

static int dxgpmo_adl_check(const struct dxgpmo_allocate_adl *cmd)
{
	if (cmd->flags & ~(DXGPMO_ADL_REQUIRE_CONTIGUOUS |
			   DXGPMO_ADL_PREFER_CONTIGUOUS))
		return -EINVAL;
	if (cmd->adl_id || cmd->page_count || cmd->adl_flags ||
	    cmd->__reserved || cmd->base_page)
		return -EINVAL;
	if (!cmd->length || !PAGE_ALIGNED(cmd->offset) ||
	    !PAGE_ALIGNED(cmd->length) ||
	    cmd->offset + cmd->length < cmd->offset)
		return -EINVAL;
	if (!cmd->pages != !cmd->pages_capacity)
		return -EINVAL;
	return 0;
}

/*
 * Map the range and fill the logical page list.  Called with the file lock
 * held; the AMO and its PMO stay alive.
 */
/* IO_SPACE: the BAR range mapped for the device as one resource. */
static int dxgpmo_adl_map_resource(struct dxgpmo_adl *adl,
				   struct dxgpmo_adapter *adapter,
				   struct dxgpmo_backing *backing,
				   const struct dxgpmo_allocate_adl *cmd,
				   u64 *logical)
{
	unsigned long i;
	dma_addr_t dma;

	dma = dma_map_resource(adapter->dev, backing->io_base + cmd->offset,
			       cmd->length, DMA_BIDIRECTIONAL, 0);
	if (dma_mapping_error(adapter->dev, dma))
		return -ENOMEM;
	adl->resource_dma = dma;
	for (i = 0; i < cmd->length >> PAGE_SHIFT; i++)
		logical[i] = (dma >> PAGE_SHIFT) + i;
	return 0;
}

/* RAM objects: an sg_table of the pages, mapped with dma_map_sgtable(). */
static int dxgpmo_adl_map_pages(struct dxgpmo_file *file,
				struct dxgpmo_adl *adl,
				struct dxgpmo_adapter *adapter,
				struct dxgpmo_backing *backing,
				const struct dxgpmo_allocate_adl *cmd,
				u64 *logical)
{
	unsigned long first = cmd->offset >> PAGE_SHIFT;
	unsigned long nr = cmd->length >> PAGE_SHIFT, i = 0;
	struct sg_dma_page_iter iter;
	int ret;

	/* For a SECTION, the ADL keeps the pages resident. */
	ret = dxgpmo_backing_sgt(backing, first, nr, &adl->sgt, &adl->pinned,
				 GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
	ret = dxgpmo_adl_check_reachable(adapter, &adl->sgt, false);
	if (ret)
		goto err_sgt;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_sgt;
	/*
	 * ADLs of one object may overlap (the contract allows it), and the
	 * DMA API cannot do cache maintenance for overlapping mappings of a
	 * cacheline (DMA-API debugging says so).  The ADL takes ownership of
	 * the sync instead: once for the device here, once for the CPU when
	 * the ADL is freed.
	 */
	ret = dma_map_sgtable(adapter->dev, &adl->sgt, DMA_BIDIRECTIONAL,
			      DMA_ATTR_SKIP_CPU_SYNC);
	if (ret)
		goto err_sgt;
	dma_sync_sgtable_for_device(adapter->dev, &adl->sgt,
				    DMA_BIDIRECTIONAL);
	ret = dxgpmo_adl_check_reachable(adapter, &adl->sgt, true);
	if (ret)
		goto err_unmap;

	for_each_sgtable_dma_page(&adl->sgt, &iter, 0) {
		if (WARN_ON_ONCE(i >= nr))
			break;
		logical[i++] = sg_page_iter_dma_address(&iter) >> PAGE_SHIFT;
	}
	ret = -EIO;
	if (WARN_ON_ONCE(i != nr))
		goto err_unmap;
	return 0;

err_unmap:
	dma_unmap_sgtable(adapter->dev, &adl->sgt, DMA_BIDIRECTIONAL,
			  DMA_ATTR_SKIP_CPU_SYNC);
err_sgt:
	dxgpmo_backing_free_sgt(backing, &adl->sgt, adl->pinned, nr);
	adl->pinned = NULL;
	return ret;
}

static void dxgpmo_adl_unmap(struct dxgpmo_adl *adl,
			     struct dxgpmo_adapter *adapter)
{
	if (adl->backing->type == DXGPMO_PMO_TYPE_IO_SPACE) {
		dma_unmap_resource(adapter->dev, adl->resource_dma,
				   adl->nr_pages << PAGE_SHIFT,
				   DMA_BIDIRECTIONAL, 0);
		return;
	}
	dma_sync_sgtable_for_cpu(adapter->dev, &adl->sgt, DMA_BIDIRECTIONAL);
	dma_unmap_sgtable(adapter->dev, &adl->sgt, DMA_BIDIRECTIONAL,
			  DMA_ATTR_SKIP_CPU_SYNC);
	dxgpmo_backing_free_sgt(adl->backing, &adl->sgt, adl->pinned,
				adl->nr_pages);
}

/*
 * Map the range and fill the logical page list.  Called with the file lock
 * held; the AMO and its PMO stay alive.
 */
struct dxgpmo_adl *dxgpmo_adl_create(struct dxgpmo_file *file,
				     struct dxgpmo_amo *amo,
				     const struct dxgpmo_allocate_adl *cmd,
				     u64 *logical)
{
	struct dxgpmo_adapter *adapter = amo->adapter;
	struct dxgpmo_backing *backing = amo->pmo->backing;
	unsigned long nr = cmd->length >> PAGE_SHIFT;
	struct dxgpmo_adl *adl;
	int ret;

	if (dxgpmo_should_fail(file))
		return ERR_PTR(-ENOMEM);
	adl = kzalloc(sizeof(*adl), GFP_KERNEL_ACCOUNT);
	if (!adl)
		return ERR_PTR(-ENOMEM);
	adl->backing = backing;
	adl->nr_pages = nr;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_free;
	if (backing->type == DXGPMO_PMO_TYPE_IO_SPACE)
		ret = dxgpmo_adl_map_resource(adl, adapter, backing, cmd,
					      logical);
	else
		ret = dxgpmo_adl_map_pages(file, adl, adapter, backing, cmd,
					   logical);
	if (ret)
		goto err_free;

	ret = dxgpmo_object_insert(file, &adl->obj, DXGPMO_OBJ_ADL);
	if (ret)
		goto err_unmap;
	adl->amo = amo;
	kref_get(&backing->kref);
	amo->nr_adls++;
	amo->pmo->nr_adls++;
	list_add_tail(&adl->file_node, &file->adls);
	dxgpmo_count(file, DXGPMO_CNT_ADLS, 1);
	dxgpmo_count(file, DXGPMO_CNT_DMA_MAPPED_PAGES, nr);
	return adl;

err_unmap:
	dxgpmo_adl_unmap(adl, adapter);
err_free:
	kfree(adl);
	return ERR_PTR(ret);
}

void dxgpmo_adl_free(struct dxgpmo_file *file, struct dxgpmo_adl *adl)
{
	struct dxgpmo_amo *amo = adl->amo;

	list_del(&adl->file_node);
	dxgpmo_adl_unmap(adl, amo->adapter);
	amo->nr_adls--;
	amo->pmo->nr_adls--;
	dxgpmo_backing_put(adl->backing);
	dxgpmo_count(file, DXGPMO_CNT_ADLS, -1);
	dxgpmo_count(file, DXGPMO_CNT_DMA_MAPPED_PAGES, -(s64)adl->nr_pages);
	kfree(adl);
}

/* Runs of consecutive addresses, step apart, in addr[0..nr). */
u32 dxgpmo_address_runs(const u64 *addr, unsigned long nr, u64 step)
{
	unsigned long i;
	u32 runs = nr ? 1 : 0;

	for (i = 1; i < nr; i++)
		if (addr[i] != addr[i - 1] + step)
			runs++;
	return runs;
}

int dxgpmo_ioctl_allocate_adl(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_allocate_adl *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	unsigned long nr;
	struct dxgpmo_amo *amo;
	struct dxgpmo_adl *adl;
	u64 *logical;
	u32 type;
	int ret;

	ret = dxgpmo_adl_check(cmd);
	if (ret)
		return ret;
	nr = cmd->length >> PAGE_SHIFT;
	mutex_lock(&file->lock);
	amo = dxgpmo_amo_find(file, cmd->amo_id);
	logical = NULL;
	ret = -ENOENT;
	if (!amo)
		goto out_unlock;
	/* Before sizing anything by the length: it must fit the object. */
	ret = -EINVAL;
	if (cmd->offset + cmd->length >
	    (u64)amo->pmo->backing->nr_pages << PAGE_SHIFT)
		goto out_unlock;
	if (cmd->pages && cmd->pages_capacity < nr) {
		/* Tell the caller how much room it needs; nothing is made. */
		mutex_unlock(&file->lock);
		cmd->page_count = nr;
		ret = dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
		return ret ? ret : -ENOSPC;
	}
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto out_unlock;
	logical = kvmalloc_array(nr, sizeof(*logical), GFP_KERNEL_ACCOUNT);
	if (!logical)
		goto out_unlock;
	ret = -EINVAL;
	type = amo->pmo->backing->type;
	if ((cmd->flags & DXGPMO_ADL_REQUIRE_CONTIGUOUS) &&
	    type != DXGPMO_PMO_TYPE_CONTIGUOUS &&
	    type != DXGPMO_PMO_TYPE_IO_SPACE)
		goto out_unlock;
	ret = -ENODEV;
	if (amo->adapter->removed)
		goto out_unlock;

	adl = dxgpmo_adl_create(file, amo, cmd, logical);
	if (IS_ERR(adl)) {
		ret = PTR_ERR(adl);
		goto out_unlock;
	}
	cmd->adl_id = adl->obj.id;
	cmd->page_count = nr;
	if (dxgpmo_address_runs(logical, nr, 1) == 1) {
		cmd->adl_flags = DXGPMO_ADL_CONTIGUOUS;
		cmd->base_page = logical[0];
	} else if (cmd->flags & DXGPMO_ADL_REQUIRE_CONTIGUOUS) {
		dxgpmo_object_remove(file, &adl->obj);
		dxgpmo_adl_free(file, adl);
		ret = -ENOMEM;
		goto out_unlock;
	}
	mutex_unlock(&file->lock);

	ret = 0;
	if (cmd->pages && copy_to_user(u64_to_user_ptr(cmd->pages), logical,
				       nr * sizeof(*logical)))
		ret = -EFAULT;
	if (!ret)
		ret = dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
	if (ret) {
		/* The caller cannot learn the ADL: take it back. */
		mutex_lock(&file->lock);
		if (dxgpmo_adl_find(file, cmd->adl_id) == adl) {
			dxgpmo_object_remove(file, &adl->obj);
			dxgpmo_adl_free(file, adl);
		}
		mutex_unlock(&file->lock);
	}
	kvfree(logical);
	return ret;

out_unlock:
	mutex_unlock(&file->lock);
	kvfree(logical);
	return ret;
}

int dxgpmo_ioctl_free_adl(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_free_adl *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_adl *adl;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	mutex_lock(&file->lock);
	adl = dxgpmo_adl_find(file, cmd->adl_id);
	if (adl) {
		dxgpmo_object_remove(file, &adl->obj);
		dxgpmo_adl_free(file, adl);
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&file->lock);
	return ret;
}

/* Whether [addr, addr + len) lies in this file's live ADLs on the adapter. */
bool dxgpmo_adl_covers(struct dxgpmo_file *file,
		       struct dxgpmo_adapter *adapter, u64 addr, u64 len)
{
	struct scatterlist *sg;
	struct dxgpmo_adl *adl;
	unsigned int i;

	lockdep_assert_held(&file->lock);
	while (len) {
		u64 piece = min_t(u64, len, PAGE_SIZE - (addr & ~PAGE_MASK));
		bool found = false;

		list_for_each_entry(adl, &file->adls, file_node) {
			if (adl->amo->adapter != adapter)
				continue;
			if (adl->backing->type == DXGPMO_PMO_TYPE_IO_SPACE) {
				u64 start = adl->resource_dma;

				found = addr >= start && addr + piece <=
					start + (adl->nr_pages << PAGE_SHIFT);
				if (found)
					break;
				continue;
			}
			for_each_sgtable_dma_sg(&adl->sgt, sg, i) {
				u64 start = sg_dma_address(sg);

				if (addr >= start &&
				    addr + piece <= start + sg_dma_len(sg)) {
					found = true;
					break;
				}
			}
			if (found)
				break;
		}
		if (!found)
			return false;
		addr += piece;
		len -= piece;
	}
	return true;
}
