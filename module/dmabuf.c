// SPDX-License-Identifier: GPL-2.0
/*
 * dma-buf export of physical memory objects, so that other drivers (vgem
 * through libdrm's PRIME import, any importer) can use their pages.
 *
 * The dma-buf holds a reference on the object's pages, not on its handle:
 * DESTROY_PMO is allowed while an export lives and the pages stay (and stay
 * charged to the file that made them, even once it is closed) until the last
 * dma-buf reference goes.
 * Each importer gets its own sg_table mapped with the DMA API for its own
 * device; CPU mappings of the dma-buf use the object's cache type.
 */
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/highmem.h>
#include <linux/iosys-map.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "account.h"
#include "backing.h"
#include "compat.h"
#include "dmabuf.h"
#include "dxgpmo.h"
#include "inject.h"
#include "internal.h"
#include "object.h"
#include "pmo.h"
#include "quota.h"
#include "stats.h"
#include "ucmd.h"

DXGPMO_IMPORT_NS_DMA_BUF();

struct dxgpmo_export {
	struct dxgpmo_backing *backing;
	struct mutex lock;		/* attachments, vmap */
	struct list_head attachments;
	struct dxgpmo_kview vmap;
	unsigned int vmap_count;
	/* Kernel view space held for a vmap from export to release. */
	unsigned long kmap_charged;
};

struct dxgpmo_attachment {
	struct list_head node;
	struct dxgpmo_dma_map dma;	/* mapped by the importer's calls */
	enum dma_data_direction dir;	/* as mapped */
};

static int dxgpmo_dmabuf_attach(struct dma_buf *dmabuf,
				struct dma_buf_attachment *attach)
{
	struct dxgpmo_export *exp = dmabuf->priv;
	struct dxgpmo_attachment *a;
	int ret;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->dma.dev = attach->dev;
	a->dma.nr_pages = exp->backing->nr_pages;
	ret = dxgpmo_backing_sgt(exp->backing, &a->dma, GFP_KERNEL);
	if (ret) {
		kfree(a);
		return ret;
	}
	attach->priv = a;
	mutex_lock(&exp->lock);
	list_add(&a->node, &exp->attachments);
	mutex_unlock(&exp->lock);
	return 0;
}

static void dxgpmo_dmabuf_detach(struct dma_buf *dmabuf,
				 struct dma_buf_attachment *attach)
{
	struct dxgpmo_export *exp = dmabuf->priv;
	struct dxgpmo_attachment *a = attach->priv;

	mutex_lock(&exp->lock);
	list_del(&a->node);
	mutex_unlock(&exp->lock);
	dxgpmo_backing_sgt_free(exp->backing, &a->dma);
	kfree(a);
}

static struct sg_table *dxgpmo_dmabuf_map(struct dma_buf_attachment *attach,
					  enum dma_data_direction dir)
{
	struct dxgpmo_export *exp = attach->dmabuf->priv;
	struct dxgpmo_attachment *a = attach->priv;
	int ret;

	/* A read-only section is read by devices, never written. */
	if (exp->backing->readonly && dir != DMA_TO_DEVICE)
		return ERR_PTR(-EACCES);
	/* One table per attachment: a second map would overwrite it. */
	if (a->dma.mapped)
		return ERR_PTR(-EBUSY);
	/*
	 * ADLs of the same pages may be mapped too: the DMA API cannot do
	 * cache maintenance for overlapping mappings, so the export does.
	 */
	ret = dma_map_sgtable(attach->dev, &a->dma.sgt, dir,
			      DMA_ATTR_SKIP_CPU_SYNC);
	if (ret)
		return ERR_PTR(ret);
	dma_sync_sgtable_for_device(attach->dev, &a->dma.sgt, dir);
	mutex_lock(&exp->lock);
	a->dir = dir;
	a->dma.mapped = true;
	mutex_unlock(&exp->lock);
	return &a->dma.sgt;
}

static void dxgpmo_dmabuf_unmap(struct dma_buf_attachment *attach,
				struct sg_table *sgt,
				enum dma_data_direction dir)
{
	struct dxgpmo_export *exp = attach->dmabuf->priv;
	struct dxgpmo_attachment *a = attach->priv;

	mutex_lock(&exp->lock);
	a->dma.mapped = false;
	mutex_unlock(&exp->lock);
	/*
	 * Unlike an ADL's (dxgpmo_dma_map_syncs()), no clean first: an
	 * importer's mapping may be bounced (a device without an IOMMU and a
	 * narrow mask), where a sync for the device would copy the CPU's
	 * pages over what the device wrote into the bounce buffer.  CPU
	 * access to an attached buffer is bracketed by DMA_BUF_IOCTL_SYNC
	 * (begin/end_cpu_access), the dma-buf contract.
	 */
	dma_sync_sgtable_for_cpu(attach->dev, sgt, dir);
	dma_unmap_sgtable(attach->dev, sgt, dir, DMA_ATTR_SKIP_CPU_SYNC);
}

static void dxgpmo_export_free(struct dxgpmo_export *exp)
{
	dxgpmo_account_quota_uncharge(exp->backing->account,
				      DXGPMO_QUOTA_KMAP_PAGES,
				      exp->kmap_charged);
	dxgpmo_backing_put(exp->backing);
	mutex_destroy(&exp->lock);
	kfree(exp);
}

static void dxgpmo_dmabuf_release(struct dma_buf *dmabuf)
{
	dxgpmo_export_free(dmabuf->priv);
}

/*
 * The pages change hands, to the CPU (begin) or back to the devices (end):
 * the export's kernel view and every importer's mapping, in one step.
 */
static void dxgpmo_dmabuf_hand_over(struct dxgpmo_export *exp, bool to_cpu)
{
	size_t len = exp->backing->nr_pages << PAGE_SHIFT;
	struct dxgpmo_attachment *a;

	mutex_lock(&exp->lock);
	if (exp->vmap_count && to_cpu)
		invalidate_kernel_vmap_range(exp->vmap.vaddr, len);
	else if (exp->vmap_count)
		flush_kernel_vmap_range(exp->vmap.vaddr, len);
	list_for_each_entry(a, &exp->attachments, node) {
		if (!a->dma.mapped)
			continue;
		if (to_cpu)
			dma_sync_sgtable_for_cpu(a->dma.dev, &a->dma.sgt, a->dir);
		else
			dma_sync_sgtable_for_device(a->dma.dev, &a->dma.sgt,
						    a->dir);
	}
	mutex_unlock(&exp->lock);
}

static int dxgpmo_dmabuf_begin_cpu(struct dma_buf *dmabuf,
				   enum dma_data_direction dir)
{
	dxgpmo_dmabuf_hand_over(dmabuf->priv, true);
	return 0;
}

static int dxgpmo_dmabuf_end_cpu(struct dma_buf *dmabuf,
				 enum dma_data_direction dir)
{
	dxgpmo_dmabuf_hand_over(dmabuf->priv, false);
	return 0;
}

/* Each VMA is a user view of the object and holds its pages. */
static void dxgpmo_dmabuf_vm_open(struct vm_area_struct *vma)
{
	dxgpmo_backing_get(vma->vm_private_data);
	dxgpmo_backing_view_open(vma->vm_private_data);
}

static void dxgpmo_dmabuf_vm_close(struct vm_area_struct *vma)
{
	dxgpmo_backing_view_close(vma->vm_private_data);
	dxgpmo_backing_put(vma->vm_private_data);
}

static vm_fault_t dxgpmo_dmabuf_vm_fault(struct vm_fault *vmf)
{
	return dxgpmo_backing_fault(vmf->vma->vm_private_data, vmf,
				    vmf->pgoff);
}

static const struct vm_operations_struct dxgpmo_dmabuf_vm_ops = {
	.open = dxgpmo_dmabuf_vm_open,
	.close = dxgpmo_dmabuf_vm_close,
	.fault = dxgpmo_dmabuf_vm_fault,
};

/* The dma-buf core has checked that the VMA lies inside the buffer. */
static int dxgpmo_dmabuf_mmap(struct dma_buf *dmabuf,
			      struct vm_area_struct *vma)
{
	struct dxgpmo_export *exp = dmabuf->priv;
	struct dxgpmo_backing *backing = exp->backing;
	int ret;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	ret = dxgpmo_backing_vma_setup(backing, vma);
	if (ret)
		return ret;
	dxgpmo_backing_get(backing);
	dxgpmo_backing_view_open(backing);
	vma->vm_private_data = backing;
	vma->vm_ops = &dxgpmo_dmabuf_vm_ops;
	return 0;
}

static int dxgpmo_dmabuf_vmap(struct dma_buf *dmabuf, struct iosys_map *map)
{
	struct dxgpmo_export *exp = dmabuf->priv;
	struct dxgpmo_backing *backing = exp->backing;
	int ret;

	mutex_lock(&exp->lock);
	if (!exp->vmap_count) {
		exp->vmap.nr_pages = backing->nr_pages;
		ret = backing->ops->map_kernel(backing, &exp->vmap);
		if (ret) {
			mutex_unlock(&exp->lock);
			return ret;
		}
		dxgpmo_count_global(DXGPMO_CNT_KMAP_PAGES, backing->nr_pages);
	}
	exp->vmap_count++;
	iosys_map_set_vaddr(map, exp->vmap.vaddr);
	mutex_unlock(&exp->lock);
	return 0;
}

static void dxgpmo_dmabuf_vunmap(struct dma_buf *dmabuf,
				 struct iosys_map *map)
{
	struct dxgpmo_export *exp = dmabuf->priv;

	mutex_lock(&exp->lock);
	if (!--exp->vmap_count) {
		exp->backing->ops->unmap_kernel(exp->backing, &exp->vmap);
		dxgpmo_count_global(DXGPMO_CNT_KMAP_PAGES,
				    -(s64)exp->backing->nr_pages);
	}
	mutex_unlock(&exp->lock);
	iosys_map_clear(map);
}

#define DXGPMO_DMABUF_OPS(...)					\
	{							\
		.attach = dxgpmo_dmabuf_attach,			\
		.detach = dxgpmo_dmabuf_detach,			\
		.map_dma_buf = dxgpmo_dmabuf_map,		\
		.unmap_dma_buf = dxgpmo_dmabuf_unmap,		\
		.release = dxgpmo_dmabuf_release,		\
		.begin_cpu_access = dxgpmo_dmabuf_begin_cpu,	\
		.end_cpu_access = dxgpmo_dmabuf_end_cpu,	\
		.mmap = dxgpmo_dmabuf_mmap,			\
		__VA_ARGS__					\
	}

static const struct dma_buf_ops dxgpmo_dmabuf_ops =
	DXGPMO_DMABUF_OPS(.vmap = dxgpmo_dmabuf_vmap,
			  .vunmap = dxgpmo_dmabuf_vunmap);

/*
 * dma_buf_vmap() has no read-only form: importers write through what it
 * returns (a capture driver fills frames there), and a write into a
 * read-only kernel mapping is an oops.  Without .vmap the core refuses
 * quietly; a failing .vmap would warn.
 */
static const struct dma_buf_ops dxgpmo_dmabuf_readonly_ops =
	DXGPMO_DMABUF_OPS();

/*
 * The dma-buf of cmd->pmo_id, with the file flags cmd->fd_flags asks for;
 * the ioctl puts it in a descriptor, a kernel client takes it as it is.
 */
struct dma_buf *dxgpmo_dmabuf_export(struct dxgpmo_file *file,
				     const struct dxgpmo_export_dmabuf *cmd)
{
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);
	struct dxgpmo_export *exp;
	struct dma_buf *dmabuf;
	struct dxgpmo_pmo *pmo;
	int ret;

	if (cmd->flags || cmd->__reserved || cmd->fd ||
	    (cmd->fd_flags & ~(O_CLOEXEC | O_ACCMODE)) ||
	    (cmd->fd_flags & O_ACCMODE) == O_WRONLY ||
	    (cmd->fd_flags & O_ACCMODE) == O_ACCMODE)
		return ERR_PTR(-EINVAL);
	if (dxgpmo_should_fail(file))
		return ERR_PTR(-ENOMEM);
	exp = kzalloc(sizeof(*exp), GFP_KERNEL_ACCOUNT);
	if (!exp)
		return ERR_PTR(-ENOMEM);
	mutex_init(&exp->lock);
	INIT_LIST_HEAD(&exp->attachments);

	pmo = dxgpmo_pmo_get(file, cmd->pmo_id);
	if (IS_ERR(pmo)) {
		ret = PTR_ERR(pmo);
		goto err_free;
	}
	/* BAR ranges are not pages: no peer-to-peer dma-bufs. */
	ret = -EOPNOTSUPP;
	if (pmo->backing->ops->sgt) {
		exp->backing = pmo->backing;
		dxgpmo_backing_get(exp->backing);
		ret = 0;
	}
	dxgpmo_object_put(&pmo->obj);
	if (ret)
		goto err_free;

	if (exp->backing->readonly) {
		exp_info.ops = &dxgpmo_dmabuf_readonly_ops;
	} else {
		/*
		 * Any importer may vmap the whole buffer, each export its own
		 * vmap, and a failing .vmap warns in the dma-buf core: the
		 * kernel view space is charged here, to the object's user,
		 * as MAP's kernel views are.
		 */
		ret = dxgpmo_account_quota_charge(exp->backing->account,
						  DXGPMO_QUOTA_KMAP_PAGES,
						  exp->backing->nr_pages);
		if (ret)
			goto err_backing;
		exp->kmap_charged = exp->backing->nr_pages;
		exp_info.ops = &dxgpmo_dmabuf_ops;
	}
	exp_info.size = exp->backing->nr_pages << PAGE_SHIFT;
	exp_info.flags = cmd->fd_flags;
	exp_info.priv = exp;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_backing;
	dmabuf = dma_buf_export(&exp_info);
	if (IS_ERR(dmabuf)) {
		ret = PTR_ERR(dmabuf);
		goto err_backing;
	}
	return dmabuf;

err_free:
	mutex_destroy(&exp->lock);
	kfree(exp);
	return ERR_PTR(ret);
err_backing:
	dxgpmo_export_free(exp);
	return ERR_PTR(ret);
}

int dxgpmo_cmd_export_dmabuf(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_export_dmabuf *cmd = ucmd->cmd;
	struct dma_buf *dmabuf;
	int fd, ret;

	dmabuf = dxgpmo_dmabuf_export(ucmd->file, cmd);
	if (IS_ERR(dmabuf))
		return PTR_ERR(dmabuf);
	/* Nothing may fail after the fd is installed. */
	fd = get_unused_fd_flags(cmd->fd_flags & O_CLOEXEC);
	if (fd < 0) {
		dma_buf_put(dmabuf);	/* releases exp and the backing */
		return fd;
	}
	cmd->fd = fd;
	ret = dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
	if (ret) {
		put_unused_fd(fd);
		dma_buf_put(dmabuf);
		return ret;
	}
	fd_install(fd, dmabuf->file);
	return 0;
}
