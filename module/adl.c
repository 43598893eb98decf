// SPDX-License-Identifier: GPL-2.0
/*
 * Address descriptor lists: DxgkCbAllocateAdl / DxgkCbFreeAdl.
 *
 * An ADL maps a page range of a PMO for the AMO's adapter with
 * dma_map_sgtable() and reports the logical page numbers the adapter must
 * use: IOVAs behind an IOMMU (one run for the whole ADL, since the adapters
 * allow segments of any size), physical addresses otherwise.  The pages stay
 * allocated and mapped until FREE_ADL; FREE_ADL unmaps them, and the
 * device loses access before the call returns, in a lazy domain too
 * (dxgpmo_adapter_flush_lazy_unmaps()).
 *
 * Adapters without an IOMMU get dma-direct; when a page lies beyond the
 * adapter's DMA mask dma-direct would bounce it through swiotlb, and an ADL
 * that names a bounce buffer describes other memory than the object.  Such
 * ADLs are refused (-EOPNOTSUPP) instead.
 *
 * Every ADL is on its adapter's list.  When the adapter is removed, the
 * list is walked and every mapping revoked while the device is still there;
 * FREE_ADL later only releases what is left.  ADAPTER_DMA holds references
 * on the ADLs it relies on, so FREE_ADL of one in use waits for it.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "account.h"
#include "adapter.h"
#include "adl.h"
#include "backing.h"
#include "compat.h"
#include "dxgpmo.h"
#include "inject.h"
#include "internal.h"
#include "object.h"
#include "pmo.h"
#include "privilege.h"
#include "quota.h"
#include "stats.h"
#include "trace.h"
#include "ucmd.h"

VISIBLE_IF_KUNIT int dxgpmo_adl_check(const struct dxgpmo_allocate_adl *cmd)
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

static struct dxgpmo_backing *dxgpmo_adl_backing(struct dxgpmo_adl *adl)
{
	return adl->amo->pmo->backing;
}

/* The first and the last device address of a mapped ADL, for tracers. */
static void dxgpmo_adl_dma_span(const struct dxgpmo_dma_map *m, u64 *first,
				u64 *last)
{
	struct scatterlist *sg, *end = NULL;
	unsigned int i;

	*first = 0;
	*last = 0;
	for_each_sgtable_dma_sg(&m->sgt, sg, i) {
		if (!end)
			*first = sg_dma_address(sg);
		end = sg;
	}
	if (end)
		*last = sg_dma_address(end) + sg_dma_len(end) - 1;
}

static void dxgpmo_adl_trace_unmap(struct dxgpmo_adl *adl)
{
	u64 first, last;

	dxgpmo_adl_dma_span(&adl->dma, &first, &last);
	trace_dxgpmo_adl_dma_unmap(adl->file->id, adl->amo->adapter->id,
				   adl->obj.id, adl->dma.nr_pages,
				   adl->dma.sgt.nents, first, last);
}

/* Called with the adapter's adls_lock held. */
static void dxgpmo_adl_unmap_locked(struct dxgpmo_adl *adl)
{
	struct dxgpmo_backing *backing = dxgpmo_adl_backing(adl);

	lockdep_assert_held(&adl->amo->adapter->adls_lock);
	if (!adl->dma.mapped)
		return;
	if (trace_dxgpmo_adl_dma_unmap_enabled())
		dxgpmo_adl_trace_unmap(adl);
	backing->ops->dma_unmap(backing, &adl->dma);
	dxgpmo_adapter_flush_lazy_unmaps(adl->amo->adapter);
	dxgpmo_count(adl->file, DXGPMO_CNT_DMA_MAPPED_PAGES,
		     -(s64)adl->dma.nr_pages);
	dxgpmo_account_quota_uncharge(adl->file->account, DXGPMO_QUOTA_ADL_PAGES,
				      adl->dma.nr_pages);
}

static void dxgpmo_adl_destroy(struct dxgpmo_file *file,
			       struct dxgpmo_object *obj)
{
	struct dxgpmo_adl *adl = container_of(obj, struct dxgpmo_adl, obj);
	struct dxgpmo_adapter *adapter = adl->amo->adapter;

	mutex_lock(&adapter->adls_lock);
	list_del(&adl->adapter_node);
	dxgpmo_adl_unmap_locked(adl);
	mutex_unlock(&adapter->adls_lock);
	dxgpmo_backing_sgt_free(dxgpmo_adl_backing(adl), &adl->dma);
	dxgpmo_object_unhold(&adl->amo->obj);
}

/* Set before the ADL is published, so the AMO counts its live ADLs. */
static struct dxgpmo_object *dxgpmo_adl_parent(struct dxgpmo_object *obj)
{
	return &container_of(obj, struct dxgpmo_adl, obj)->amo->obj;
}

/* Its own pages; its PMO's caching and Context. */
static void dxgpmo_adl_describe(const struct dxgpmo_object *obj,
				struct dxgpmo_object_desc *desc)
{
	const struct dxgpmo_adl *adl = container_of(obj, struct dxgpmo_adl,
						    obj);

	desc->size = (u64)adl->dma.nr_pages << PAGE_SHIFT;
	desc->context = adl->amo->pmo->context;
	desc->cache_type = adl->amo->pmo->backing->cache_type;
}

static const struct dxgpmo_object_ops dxgpmo_adl_ops = {
	.destroy = dxgpmo_adl_destroy,
	.describe = dxgpmo_adl_describe,
	.parent_of = dxgpmo_adl_parent,
	.counter = DXGPMO_CNT_ADLS,
	.leak_is_adl = true,
};

/* Every mapping of the adapter goes while the device is still there. */
void dxgpmo_adl_revoke_adapter(struct dxgpmo_adapter *adapter)
{
	struct dxgpmo_adl *adl;

	/* No ADL is being made: dxgpmo_adl_map() holds it for reading. */
	lockdep_assert_held_write(&adapter->access_lock);
	mutex_lock(&adapter->adls_lock);
	list_for_each_entry(adl, &adapter->adls, adapter_node)
		dxgpmo_adl_unmap_locked(adl);
	mutex_unlock(&adapter->adls_lock);
}

/*
 * The logical page list of a mapped ADL of nr pages: every page of each
 * DMA segment of sgt in turn (segments start on a page, as the tables are
 * built).
 */
unsigned long dxgpmo_adl_fill(const struct sg_table *sgt, unsigned long nr,
			      u64 *logical)
{
	unsigned long i = 0;
	struct scatterlist *sg;
	unsigned int s;

	for_each_sgtable_dma_sg(sgt, sg, s) {
		u64 page = sg_dma_address(sg) >> PAGE_SHIFT;
		unsigned long n = PAGE_ALIGN(sg_dma_len(sg)) >> PAGE_SHIFT;

		if (WARN_ON_ONCE(n > nr - i))
			break;
		while (n--)
			logical[i++] = page++;
	}
	return i;
}

/* The pages mapped for the device, and the logical page list. */
static int dxgpmo_adl_map(struct dxgpmo_file *file, struct dxgpmo_adl *adl,
			  struct dxgpmo_adapter *adapter,
			  struct dxgpmo_backing *backing, u64 *logical)
{
	int ret;

	/* Removal, which unmaps every listed ADL, waits for this one. */
	lockdep_assert_held_read(&adapter->access_lock);
	/* For a SECTION, the ADL keeps the pages resident. */
	if (backing->ops->sgt) {
		ret = backing->ops->sgt(backing, &adl->dma, GFP_KERNEL_ACCOUNT);
		if (ret)
			return ret;
	}
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_sgt;
	adl->dma.cpu_only = adapter->caps & DXGPMO_ADAPTER_CAP_VIRTUAL;
	ret = backing->ops->dma_map(backing, &adl->dma,
				    adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU);
	if (ret)
		goto err_sgt;
	ret = -EIO;
	if (WARN_ON_ONCE(dxgpmo_adl_fill(&adl->dma.sgt, adl->dma.nr_pages,
					 logical) != adl->dma.nr_pages))
		goto err_unmap;
	return 0;

err_unmap:
	backing->ops->dma_unmap(backing, &adl->dma);
err_sgt:
	dxgpmo_backing_sgt_free(backing, &adl->dma);
	return ret;
}

/*
 * Map the range and fill the logical page list.  The ADL is not visible
 * yet: the caller finalizes it, or aborts and destroys it.
 */
struct dxgpmo_adl *dxgpmo_adl_create(struct dxgpmo_file *file,
				     struct dxgpmo_amo *amo,
				     const struct dxgpmo_allocate_adl *cmd,
				     u64 *logical)
{
	struct dxgpmo_adapter *adapter = amo->adapter;
	struct dxgpmo_backing *backing = amo->pmo->backing;
	unsigned long nr_pages = cmd->length >> PAGE_SHIFT;
	struct dxgpmo_adl *adl;
	int ret;

	adl = dxgpmo_object_alloc(file, struct dxgpmo_adl, DXGPMO_OBJ_ADL, &dxgpmo_adl_ops);
	if (IS_ERR(adl))
		return adl;
	adl->file = file;
	adl->dma.dev = adapter->dev;
	adl->dma.first = cmd->offset >> PAGE_SHIFT;
	/*
	 * An adapter's DMA address space (edu: 256 MiB) is everyone's: one
	 * user may not take it all.  Its share comes back when the mapping
	 * goes, at FREE_ADL or when the adapter is removed.  nr_pages stays
	 * 0 until the charge is taken, so that the one label gives back
	 * exactly what was charged.
	 */
	ret = dxgpmo_account_quota_charge(file->account, DXGPMO_QUOTA_ADL_PAGES,
					  nr_pages);
	if (ret)
		goto err_abort;
	adl->dma.nr_pages = nr_pages;

	/* Mapped and listed in one step against the adapter's removal. */
	ret = -ENODEV;
	if (!dxgpmo_adapter_begin_access(adapter))
		goto err_abort;
	ret = dxgpmo_adl_map(file, adl, adapter, backing, logical);
	if (ret) {
		dxgpmo_adapter_end_access(adapter);
		goto err_abort;
	}
	dxgpmo_object_hold(&amo->obj);
	adl->amo = amo;
	if (trace_dxgpmo_adl_dma_map_enabled()) {
		u64 first, last;

		dxgpmo_adl_dma_span(&adl->dma, &first, &last);
		trace_dxgpmo_adl_dma_map(file->id, adapter->id, adl->obj.id,
					 nr_pages, adl->dma.sgt.nents, first,
					 last);
	}
	dxgpmo_count(file, DXGPMO_CNT_DMA_MAPPED_PAGES, nr_pages);
	mutex_lock(&adapter->adls_lock);
	list_add_tail(&adl->adapter_node, &adapter->adls);
	mutex_unlock(&adapter->adls_lock);
	dxgpmo_adapter_end_access(adapter);
	return adl;

err_abort:
	dxgpmo_account_quota_uncharge(file->account, DXGPMO_QUOTA_ADL_PAGES,
				      adl->dma.nr_pages);
	dxgpmo_object_abort(file, &adl->obj);
	return ERR_PTR(ret);
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

/*
 * One run of logical pages is reported as one, from its first page; an ADL
 * that must be one run and is not fails.
 */
VISIBLE_IF_KUNIT int dxgpmo_adl_contiguity(struct dxgpmo_allocate_adl *cmd,
					   const u64 *logical,
					   unsigned long nr)
{
	if (dxgpmo_address_runs(logical, nr, 1) == 1) {
		cmd->adl_flags = DXGPMO_ADL_CONTIGUOUS;
		cmd->base_page = logical[0];
	} else if (cmd->flags & DXGPMO_ADL_REQUIRE_CONTIGUOUS) {
		return -ENOMEM;
	}
	return 0;
}

int dxgpmo_cmd_allocate_adl(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_allocate_adl *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	u64 *logical = NULL;
	struct dxgpmo_amo *amo;
	struct dxgpmo_adl *adl;
	unsigned long nr;
	int ret;

	ret = dxgpmo_adl_check(cmd);
	if (ret)
		return ret;
	nr = cmd->length >> PAGE_SHIFT;
	amo = dxgpmo_amo_get(file, cmd->amo_id);
	if (IS_ERR(amo))
		return PTR_ERR(amo);
	/* Before sizing anything by the length: it must fit the object. */
	ret = -EINVAL;
	if (cmd->offset + cmd->length >
	    (u64)amo->pmo->backing->nr_pages << PAGE_SHIFT)
		goto out_put;
	if (cmd->pages && cmd->pages_capacity < nr) {
		/* Tell the caller how much room it needs; nothing is made. */
		cmd->page_count = nr;
		ret = dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
		ret = ret ? ret : -ENOSPC;
		goto out_put;
	}
	ret = -EINVAL;
	if ((cmd->flags & DXGPMO_ADL_REQUIRE_CONTIGUOUS) &&
	    !amo->pmo->backing->ops->contiguous)
		goto out_put;
	/*
	 * A BAR is mapped only for its own adapter: a peer's mapping would
	 * outlive the BAR's owner, which revokes only its own ADLs.
	 */
	ret = -EOPNOTSUPP;
	if (amo->pmo->backing->io_adapter &&
	    amo->pmo->backing->io_adapter != amo->adapter)
		goto out_put;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto out_put;
	logical = kvmalloc_array(nr, sizeof(*logical), GFP_KERNEL_ACCOUNT);
	if (!logical)
		goto out_put;

	adl = dxgpmo_adl_create(file, amo, cmd, logical);
	if (IS_ERR(adl)) {
		ret = PTR_ERR(adl);
		goto out_put;
	}
	cmd->adl_id = adl->obj.id;
	cmd->page_count = nr;
	ret = dxgpmo_adl_contiguity(cmd, logical, nr);
	if (!dxgpmo_adapter_addresses_visible(amo->adapter, file)) {
		memset(logical, 0, nr * sizeof(*logical));
		cmd->base_page = 0;
		cmd->adl_flags |= DXGPMO_ADL_ADDRESSES_HIDDEN;
	}
	/* The caller must learn the ADL, or it is not made. */
	if (!ret && cmd->pages)
		ret = dxgpmo_ucmd_copy_to(ucmd, cmd->pages, logical,
					  nr * sizeof(*logical));
	if (ret)
		dxgpmo_object_abort_and_destroy(file, &adl->obj);
	else
		ret = dxgpmo_ucmd_respond_finalize(ucmd, sizeof(*cmd),
						   &adl->obj);
out_put:
	dxgpmo_object_put(&amo->obj);
	kvfree(logical);
	return ret;
}

int dxgpmo_cmd_free_adl(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_free_adl *cmd = ucmd->cmd;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	return dxgpmo_object_destroy(ucmd->file, cmd->adl_id, DXGPMO_OBJ_ADL);
}

static bool dxgpmo_adl_contains(struct dxgpmo_adl *adl, u64 addr, u64 len)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(&adl->dma.sgt, sg, i)
		if (addr >= sg_dma_address(sg) &&
		    addr + len <= sg_dma_address(sg) + sg_dma_len(sg))
			return true;
	return false;
}

void dxgpmo_adl_release_held(struct dxgpmo_adl **held, int nr)
{
	while (nr--)
		dxgpmo_object_put(&held[nr]->obj);
}

/*
 * Whether [addr, addr + len) lies in this file's live ADLs on the adapter
 * (ADLs the device may write, if it is to write);
 * if so the ADLs it touches are referenced in held[] (their number is
 * returned) so none is freed while the device uses it.  -EACCES if not.
 */
int dxgpmo_adl_hold_range(struct dxgpmo_file *file,
			  struct dxgpmo_adapter *adapter, u64 addr, u64 len,
			  bool write, struct dxgpmo_adl **held)
{
	struct dxgpmo_object *obj;
	struct dxgpmo_adl *adl;
	int nr = 0, i;

	mutex_lock(&adapter->adls_lock);
	while (len) {
		u64 piece = min_t(u64, len, PAGE_SIZE - (addr & ~PAGE_MASK));
		bool found = false;

		for (i = 0; i < nr && !found; i++)
			found = dxgpmo_adl_contains(held[i], addr, piece);
		list_for_each_entry(adl, &adapter->adls, adapter_node) {
			if (found)
				break;
			if (adl->file != file || !adl->dma.mapped ||
			    (write && adl->dma.dir == DMA_TO_DEVICE) ||
			    !dxgpmo_adl_contains(adl, addr, piece) ||
			    nr == DXGPMO_DMA_MAX_ADLS)
				continue;
			/* Only a finalized ADL, by the rules of lookups. */
			obj = dxgpmo_object_get(file, adl->obj.id,
						DXGPMO_OBJ_ADL);
			if (IS_ERR(obj))
				continue;
			if (obj != &adl->obj) {
				dxgpmo_object_put(obj);
				continue;
			}
			held[nr++] = adl;
			found = true;
		}
		if (!found) {
			mutex_unlock(&adapter->adls_lock);
			dxgpmo_adl_release_held(held, nr);
			return -EACCES;
		}
		addr += piece;
		len -= piece;
	}
	mutex_unlock(&adapter->adls_lock);
	return nr;
}
