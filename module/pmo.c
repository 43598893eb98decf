// SPDX-License-Identifier: GPL-2.0
/*
 * Physical memory objects (PMOs) and adapter memory objects (AMOs):
 * DxgkCbCreate/Destroy/Open/ClosePhysicalMemoryObject.
 *
 * A PMO is the memory; an AMO is that memory opened for one adapter, the
 * handle ADLs are made from.  A PMO has at most one AMO at a time.  DESTROY
 * may close the AMO in the same call (and then the AMO id is gone); DESTROY
 * of a PMO whose AMO is still open and not named is refused with -EBUSY
 * rather than leaving the AMO dangling.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "internal.h"

static int dxgpmo_check_create(const struct dxgpmo_create_pmo *cmd,
			       struct dxgpmo_alloc_request *req)
{
	u64 pages;

	if (cmd->flags || cmd->pmo_id || cmd->amo_id || cmd->mmap_offset)
		return -EINVAL;
	if (cmd->type > DXGPMO_PMO_TYPE_IO_SPACE ||
	    cmd->cache_type > DXGPMO_CACHE_WRITE_COMBINED)
		return -EINVAL;
	if (!cmd->length || cmd->length > U64_MAX - PAGE_SIZE + 1)
		return -EINVAL;
	/* Fields of the other union members must be zero. */
	if (cmd->type != DXGPMO_PMO_TYPE_SECTION && cmd->page_protection)
		return -EINVAL;
	if (cmd->type != DXGPMO_PMO_TYPE_IO_SPACE && cmd->io_base)
		return -EINVAL;
	if (cmd->type != DXGPMO_PMO_TYPE_MDL && cmd->skip_bytes)
		return -EINVAL;
	if (cmd->type != DXGPMO_PMO_TYPE_CONTIGUOUS && cmd->boundary)
		return -EINVAL;
	if (cmd->type != DXGPMO_PMO_TYPE_MDL &&
	    cmd->type != DXGPMO_PMO_TYPE_CONTIGUOUS &&
	    (cmd->low_address || cmd->high_address))
		return -EINVAL;

	pages = DIV_ROUND_UP_ULL(cmd->length, PAGE_SIZE);
	if (cmd->type == DXGPMO_PMO_TYPE_SECTION) {
		/* Caching comes only from cache_type; no uncached sections. */
		if (cmd->cache_type == DXGPMO_CACHE_NON_CACHED)
			return -EINVAL;
		if (cmd->page_protection != DXGPMO_PAGE_READONLY &&
		    cmd->page_protection != DXGPMO_PAGE_READWRITE)
			return -EINVAL;
		req->readonly = cmd->page_protection == DXGPMO_PAGE_READONLY;
	}
	if (cmd->type == DXGPMO_PMO_TYPE_IO_SPACE) {
		/* Registers are never mapped write-back. */
		if (cmd->cache_type == DXGPMO_CACHE_CACHED ||
		    !PAGE_ALIGNED(cmd->io_base))
			return -EINVAL;
		req->io_base = cmd->io_base;
	}
	req->nr_pages = pages;
	req->type = cmd->type;
	req->cache_type = cmd->cache_type;
	req->low = cmd->low_address;
	req->high = cmd->high_address ? cmd->high_address : U64_MAX;
	req->boundary = cmd->boundary;

	if (!PAGE_ALIGNED(cmd->skip_bytes) || !PAGE_ALIGNED(cmd->boundary))
		return -EINVAL;
	if (req->low > req->high ||
	    req->high - req->low < (pages << PAGE_SHIFT) - 1)
		return -EINVAL;
	if (req->boundary && req->boundary < pages << PAGE_SHIFT)
		return -EINVAL;
	/* More than the machine has can never succeed. */
	if (dxgpmo_ram_pages(cmd->type, pages) > totalram_pages())
		return -ENOMEM;
	return 0;
}

static struct dxgpmo_amo *dxgpmo_amo_create(struct dxgpmo_file *file,
					    struct dxgpmo_pmo *pmo,
					    struct dxgpmo_adapter *adapter)
{
	struct dxgpmo_amo *amo;
	int ret;

	lockdep_assert_held(&file->lock);
	if (dxgpmo_should_fail(file))
		return ERR_PTR(-ENOMEM);
	amo = kzalloc(sizeof(*amo), GFP_KERNEL_ACCOUNT);
	if (!amo)
		return ERR_PTR(-ENOMEM);
	ret = dxgpmo_object_insert(file, &amo->obj, DXGPMO_OBJ_AMO);
	if (ret) {
		kfree(amo);
		return ERR_PTR(ret);
	}
	amo->pmo = pmo;
	amo->adapter = adapter;
	pmo->amo = amo;
	dxgpmo_count(file, DXGPMO_CNT_AMOS, 1);
	return amo;
}

/* Drops the AMO's adapter reference; the caller has removed its id. */
static void dxgpmo_amo_free(struct dxgpmo_file *file, struct dxgpmo_amo *amo)
{
	amo->pmo->amo = NULL;
	dxgpmo_adapter_put(amo->adapter);
	kfree(amo);
	dxgpmo_count(file, DXGPMO_CNT_AMOS, -1);
}

/* Revokes direct mmaps of the window; the caller removed the id. */
static void dxgpmo_pmo_free(struct dxgpmo_file *file, struct dxgpmo_pmo *pmo)
{
	dxgpmo_count(file, DXGPMO_CNT_PMOS, -1);
	dxgpmo_count_file(file, DXGPMO_CNT_PAGES,
			  -(s64)dxgpmo_ram_pages(pmo->backing->type,
						   pmo->backing->nr_pages));
	dxgpmo_window_revoke(file, pmo->window);
	dxgpmo_backing_put(pmo->backing);
	kfree(pmo);
}

int dxgpmo_ioctl_create_pmo(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_create_pmo *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_adapter *adapter = NULL;
	struct dxgpmo_alloc_request req;
	struct dxgpmo_amo *amo = NULL;
	struct dxgpmo_pmo *pmo;
	unsigned long ram = 0;
	int ret;

	memset(&req, 0, sizeof(req));
	ret = dxgpmo_check_create(cmd, &req);
	if (ret)
		return ret;
	if (req.type == DXGPMO_PMO_TYPE_IO_SPACE) {
		req.io_adapter = dxgpmo_adapter_get_by_bar(req.io_base,
							   req.nr_pages << PAGE_SHIFT);
		if (!req.io_adapter)
			return -EPERM;
	}
	if (cmd->adapter_id) {
		adapter = dxgpmo_adapter_get(cmd->adapter_id);
		ret = -ENOENT;
		if (!adapter)
			goto err_adapter;
	}
	/* Charge the file's cap up front so concurrent creates respect it. */
	ram = dxgpmo_ram_pages(req.type, req.nr_pages);
	ret = -ENOMEM;
	if (atomic64_add_return(ram, &file->counters[DXGPMO_CNT_PAGES]) >
	    (s64)dxgpmo_max_pinned_mb << (20 - PAGE_SHIFT))
		goto err_reserved;

	if (dxgpmo_should_fail(file))
		goto err_reserved;
	pmo = kzalloc(sizeof(*pmo), GFP_KERNEL_ACCOUNT);
	if (!pmo)
		goto err_reserved;
	pmo->length = cmd->length;
	pmo->context = cmd->context;
	INIT_LIST_HEAD(&pmo->maps);
	/* The slow part, outside the file lock. */
	pmo->backing = dxgpmo_backing_alloc(file, &req);
	req.io_adapter = NULL;		/* the backing owns it now */
	if (IS_ERR(pmo->backing)) {
		ret = PTR_ERR(pmo->backing);
		goto err_pmo;
	}
	pmo->window = dxgpmo_window_create(file, pmo->backing);
	if (IS_ERR(pmo->window)) {
		ret = PTR_ERR(pmo->window);
		dxgpmo_backing_put(pmo->backing);
		goto err_pmo;
	}

	mutex_lock(&file->lock);
	ret = dxgpmo_object_insert(file, &pmo->obj, DXGPMO_OBJ_PMO);
	if (ret)
		goto err_unlock;
	dxgpmo_count(file, DXGPMO_CNT_PMOS, 1);
	if (adapter) {
		amo = dxgpmo_amo_create(file, pmo, adapter);
		if (IS_ERR(amo)) {
			ret = PTR_ERR(amo);
			dxgpmo_object_remove(file, &pmo->obj);
			mutex_unlock(&file->lock);
			dxgpmo_pmo_free(file, pmo);
			goto err_adapter;
		}
	}
	pmo->mmap_offset = (u64)pmo->window->pgoff << PAGE_SHIFT;
	cmd->pmo_id = pmo->obj.id;
	cmd->amo_id = amo ? amo->obj.id : 0;
	cmd->mmap_offset = pmo->mmap_offset;
	mutex_unlock(&file->lock);

	/*
	 * A caller that cannot learn the ids cannot free the object; it stays
	 * until the file is closed, which is safe.
	 */
	return dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));

err_unlock:
	mutex_unlock(&file->lock);
	dxgpmo_window_revoke(file, pmo->window);
	dxgpmo_backing_put(pmo->backing);
err_pmo:
	kfree(pmo);
err_reserved:
	dxgpmo_count_file(file, DXGPMO_CNT_PAGES, -(s64)ram);
err_adapter:
	if (adapter)
		dxgpmo_adapter_put(adapter);
	if (req.io_adapter)
		dxgpmo_adapter_put(req.io_adapter);
	return ret;
}

/*
 * Destroying a PMO that still has ADLs is the driver leaking locked pages;
 * Windows bugchecks.  With adl_leak=bug so do we, but only after the file
 * lock is dropped so the oops leaves the machine usable: the task dies, its
 * file is closed and releases everything.  With adl_leak=warn the call
 * fails and nothing changes.  Called with the file lock held.
 */
static int dxgpmo_pmo_adl_leak(struct dxgpmo_file *file,
			       struct dxgpmo_pmo *pmo)
{
	u32 id = pmo->obj.id;
	unsigned int nr = pmo->nr_adls;

	if (!READ_ONCE(dxgpmo_adl_leak_bug)) {
		WARN(1, "dxgpmo: DESTROY_PMO of object %u with %u live ADL(s): the driver leaks locked pages\n",
		     id, nr);
		return -EBUSY;
	}
	mutex_unlock(&file->lock);
	pr_emerg("dxgpmo: DESTROY_PMO of object %u with %u live ADL(s): the driver leaks locked pages (adl_leak=bug)\n",
		 id, nr);
	BUG();
}

int dxgpmo_ioctl_destroy_pmo(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_destroy_pmo *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_amo *amo = NULL;
	struct dxgpmo_pmo *pmo;
	int ret = 0;

	if (cmd->flags)
		return -EINVAL;

	mutex_lock(&file->lock);
	pmo = dxgpmo_pmo_find(file, cmd->pmo_id);
	if (!pmo) {
		ret = -ENOENT;
		goto out_unlock;
	}
	if (cmd->amo_id) {
		amo = dxgpmo_amo_find(file, cmd->amo_id);
		if (!amo) {
			ret = -ENOENT;
			goto out_unlock;
		}
		if (amo->pmo != pmo) {
			ret = -EINVAL;
			goto out_unlock;
		}
	} else if (pmo->amo) {
		ret = -EBUSY;
		goto out_unlock;
	}
	if (pmo->nr_adls) {
		ret = dxgpmo_pmo_adl_leak(file, pmo);
		goto out_unlock;
	}
	/* MAP views must be unmapped first (UNMAP names the object). */
	if (!list_empty(&pmo->maps)) {
		ret = -EBUSY;
		goto out_unlock;
	}

	if (amo) {
		dxgpmo_object_remove(file, &amo->obj);
		dxgpmo_amo_free(file, amo);
	}
	dxgpmo_object_remove(file, &pmo->obj);
	mutex_unlock(&file->lock);
	dxgpmo_pmo_free(file, pmo);
	return 0;

out_unlock:
	mutex_unlock(&file->lock);
	return ret;
}

int dxgpmo_ioctl_open_pmo(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_open_pmo *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_adapter *adapter;
	struct dxgpmo_amo *amo;
	struct dxgpmo_pmo *pmo;
	int ret;

	if (cmd->flags || cmd->amo_id || cmd->__reserved)
		return -EINVAL;
	adapter = dxgpmo_adapter_get(cmd->adapter_id);
	if (!adapter)
		return -ENOENT;

	mutex_lock(&file->lock);
	pmo = dxgpmo_pmo_find(file, cmd->pmo_id);
	if (!pmo) {
		ret = -ENOENT;
		goto err_unlock;
	}
	if (pmo->amo) {
		ret = -EBUSY;
		goto err_unlock;
	}
	amo = dxgpmo_amo_create(file, pmo, adapter);
	if (IS_ERR(amo)) {
		ret = PTR_ERR(amo);
		goto err_unlock;
	}
	cmd->amo_id = amo->obj.id;
	mutex_unlock(&file->lock);
	return dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));

err_unlock:
	mutex_unlock(&file->lock);
	dxgpmo_adapter_put(adapter);
	return ret;
}

int dxgpmo_ioctl_close_pmo(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_close_pmo *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_amo *amo;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	mutex_lock(&file->lock);
	amo = dxgpmo_amo_find(file, cmd->amo_id);
	if (!amo) {
		ret = -ENOENT;
	} else if (amo->nr_adls) {
		ret = -EBUSY;
	} else {
		dxgpmo_object_remove(file, &amo->obj);
		dxgpmo_amo_free(file, amo);
	}
	mutex_unlock(&file->lock);
	return ret;
}

/* File teardown: the object's id is already gone; dependents went first. */
void dxgpmo_object_release(struct dxgpmo_file *file, struct dxgpmo_object *obj)
{
	switch (obj->type) {
	case DXGPMO_OBJ_PMO:
		dxgpmo_pmo_free(file, container_of(obj, struct dxgpmo_pmo, obj));
		break;
	case DXGPMO_OBJ_AMO:
		dxgpmo_amo_free(file, container_of(obj, struct dxgpmo_amo, obj));
		break;
	case DXGPMO_OBJ_ADL:
		dxgpmo_adl_free(file, container_of(obj, struct dxgpmo_adl, obj));
		break;
	case DXGPMO_OBJ_MAP:
		dxgpmo_map_free(file, container_of(obj, struct dxgpmo_cpu_map, obj));
		break;
	case DXGPMO_OBJ_BASIS:
		dxgpmo_basis_free(file, container_of(obj, struct dxgpmo_basis, obj));
		break;
	default:
		WARN_ONCE(1, "dxgpmo: object type %d has no release\n",
			  obj->type);
	}
}
