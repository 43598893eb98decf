// SPDX-License-Identifier: GPL-2.0
/*
 * Physical memory objects (PMOs) and adapter memory objects (AMOs):
 * DxgkCbCreate/Destroy/Open/ClosePhysicalMemoryObject.
 *
 * A PMO is the memory; an AMO is that memory opened for one adapter, the
 * handle ADLs are made from.  A PMO has at most one AMO at a time.  An AMO
 * holds a reference on its PMO and every ADL one on its AMO, so DESTROY of
 * a PMO whose AMO is open, or CLOSE of an AMO with ADLs, is -EBUSY from
 * the reference count.  DESTROY may close the AMO in the same call: both go,
 * or neither.  The one exception is the ADL-leak rule below.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/task_work.h>

#include "adapter.h"
#include "arch.h"
#include "backing.h"
#include "compat.h"
#include "dxgpmo.h"
#include "internal.h"
#include "leak.h"
#include "object.h"
#include "pmo.h"
#include "privilege.h"
#include "stats.h"
#include "trace.h"
#include "ucmd.h"
#include "window.h"

static bool dxgpmo_adl_leak_bug;

static int dxgpmo_adl_leak_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "bug"))
		WRITE_ONCE(dxgpmo_adl_leak_bug, true);
	else if (sysfs_streq(val, "warn"))
		WRITE_ONCE(dxgpmo_adl_leak_bug, false);
	else
		return -EINVAL;
	return 0;
}

static int dxgpmo_adl_leak_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n",
			  READ_ONCE(dxgpmo_adl_leak_bug) ? "bug" : "warn");
}

static const struct kernel_param_ops dxgpmo_adl_leak_ops = {
	.set = dxgpmo_adl_leak_set,
	.get = dxgpmo_adl_leak_get,
};
module_param_cb(adl_leak, &dxgpmo_adl_leak_ops, NULL, 0644);
MODULE_PARM_DESC(adl_leak,
		 "DESTROY_PMO with live ADLs: warn (default, -EBUSY and a rate-limited message) or bug (like the Windows bugcheck: BUG() in a user's thread, panic() in a kernel client's call)");

/* Whether [low, high] can hold nr_pages pages. */
VISIBLE_IF_KUNIT bool dxgpmo_window_holds(u64 low, u64 high, u64 nr_pages)
{
	return low <= high && high - low >= (nr_pages << PAGE_SHIFT) - 1;
}

/*
 * What CREATE_PMO's arguments allow on their own, as a request; what this
 * machine allows is checked after (dxgpmo_check_create()).
 */
VISIBLE_IF_KUNIT int
dxgpmo_create_request(const struct dxgpmo_create_pmo *cmd,
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
	if (!dxgpmo_window_holds(req->low, req->high, pages))
		return -EINVAL;
	if (req->boundary && req->boundary < pages << PAGE_SHIFT)
		return -EINVAL;
	return 0;
}

static int dxgpmo_check_create(const struct dxgpmo_create_pmo *cmd,
			       struct dxgpmo_alloc_request *req)
{
	int ret;

	ret = dxgpmo_create_request(cmd, req);
	if (ret)
		return ret;
	/* More than the machine has can never succeed. */
	if (dxgpmo_request_ram(req) > totalram_pages())
		return -ENOMEM;
	/* Refused before any page could be left behind switched. */
	if (req->type != DXGPMO_PMO_TYPE_IO_SPACE &&
	    req->cache_type != DXGPMO_CACHE_CACHED &&
	    !dxgpmo_arch_can_uncache_ram())
		return -EOPNOTSUPP;
	return 0;
}

/*
 * A device that sees physical addresses reaches only what its DMA mask
 * covers, and an ADL never bounces: memory created for it comes from
 * there, as a Windows driver asks with HighAddress.  Behind an IOMMU any
 * page is reachable.  Sections are pageable: their pages are the page
 * cache's to place, and an ADL beyond the mask is refused at that point.
 */
VISIBLE_IF_KUNIT int
dxgpmo_window_within_reach(struct dxgpmo_alloc_request *req,
			   const struct dxgpmo_adapter *adapter)
{
	if (adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU ||
	    (req->type != DXGPMO_PMO_TYPE_MDL &&
	     req->type != DXGPMO_PMO_TYPE_CONTIGUOUS))
		return 0;
	req->high = min(req->high, adapter->dma_mask);
	if (!dxgpmo_window_holds(req->low, req->high, req->nr_pages))
		return -ENOMEM;
	return 0;
}

static void dxgpmo_pmo_destroy(struct dxgpmo_file *file,
			       struct dxgpmo_object *obj)
{
	struct dxgpmo_pmo *pmo = container_of(obj, struct dxgpmo_pmo, obj);

	if (pmo->window)
		dxgpmo_window_revoke(file, pmo->window);
	if (pmo->backing)
		dxgpmo_backing_put(pmo->backing);
}

static void dxgpmo_pmo_describe_pmo(const struct dxgpmo_pmo *pmo,
				    struct dxgpmo_object_desc *desc)
{
	desc->size = pmo->length;
	desc->context = pmo->context;
	desc->cache_type = pmo->backing->cache_type;
}

static void dxgpmo_pmo_describe(const struct dxgpmo_object *obj,
				struct dxgpmo_object_desc *desc)
{
	dxgpmo_pmo_describe_pmo(container_of(obj, struct dxgpmo_pmo, obj),
				desc);
}

static const struct dxgpmo_object_ops dxgpmo_pmo_ops = {
	.destroy = dxgpmo_pmo_destroy,
	.describe = dxgpmo_pmo_describe,
	.counter = DXGPMO_CNT_PMOS,
};

static void dxgpmo_amo_destroy(struct dxgpmo_file *file,
			       struct dxgpmo_object *obj)
{
	struct dxgpmo_amo *amo = container_of(obj, struct dxgpmo_amo, obj);

	if (amo->pmo) {
		spin_lock(&amo->pmo->lock);
		amo->pmo->amo = NULL;
		spin_unlock(&amo->pmo->lock);
		dxgpmo_object_unhold(&amo->pmo->obj);
	}
	if (amo->adapter)
		dxgpmo_adapter_put(amo->adapter);
}

static struct dxgpmo_object *dxgpmo_amo_parent(struct dxgpmo_object *obj)
{
	return &container_of(obj, struct dxgpmo_amo, obj)->pmo->obj;
}

/* An AMO is its PMO opened for an adapter: the PMO's size and Context. */
static void dxgpmo_amo_describe(const struct dxgpmo_object *obj,
				struct dxgpmo_object_desc *desc)
{
	dxgpmo_pmo_describe_pmo(container_of(obj, struct dxgpmo_amo, obj)->pmo,
				desc);
}

static const struct dxgpmo_object_ops dxgpmo_amo_ops = {
	.destroy = dxgpmo_amo_destroy,
	.describe = dxgpmo_amo_describe,
	.parent_of = dxgpmo_amo_parent,
	.counter = DXGPMO_CNT_AMOS,
};

/*
 * A new AMO of pmo for adapter, not yet visible; takes the caller's adapter
 * reference.  The PMO's one association is claimed here.
 */
static struct dxgpmo_amo *dxgpmo_amo_alloc(struct dxgpmo_file *file,
					   struct dxgpmo_pmo *pmo,
					   struct dxgpmo_adapter *adapter)
{
	struct dxgpmo_amo *amo;

	amo = dxgpmo_object_alloc(file, struct dxgpmo_amo, DXGPMO_OBJ_AMO, &dxgpmo_amo_ops);
	if (IS_ERR(amo)) {
		dxgpmo_adapter_put(adapter);
		return amo;
	}
	amo->adapter = adapter;
	spin_lock(&pmo->lock);
	if (pmo->amo) {
		spin_unlock(&pmo->lock);
		dxgpmo_object_abort_and_destroy(file, &amo->obj);
		return ERR_PTR(-EBUSY);
	}
	pmo->amo = amo;
	spin_unlock(&pmo->lock);
	dxgpmo_object_hold(&pmo->obj);
	amo->pmo = pmo;
	return amo;
}

/*
 * A complete PMO, its memory allocated and its window made, not yet
 * visible.  The destroy undoes whatever part was made.
 */
static struct dxgpmo_pmo *dxgpmo_pmo_alloc(struct dxgpmo_file *file,
					   const struct dxgpmo_create_pmo *cmd,
					   const struct dxgpmo_alloc_request *req)
{
	struct dxgpmo_backing *backing;
	struct dxgpmo_window *window;
	struct dxgpmo_pmo *pmo;
	int ret;

	pmo = dxgpmo_object_alloc(file, struct dxgpmo_pmo, DXGPMO_OBJ_PMO,
				  &dxgpmo_pmo_ops);
	if (IS_ERR(pmo))
		return pmo;
	spin_lock_init(&pmo->lock);
	INIT_LIST_HEAD(&pmo->maps);
	pmo->length = cmd->length;
	pmo->context = cmd->context;
	backing = dxgpmo_backing_alloc(file, req);
	if (IS_ERR(backing)) {
		ret = PTR_ERR(backing);
		goto err_destroy;
	}
	pmo->backing = backing;
	window = dxgpmo_window_create(file, backing);
	if (IS_ERR(window)) {
		ret = PTR_ERR(window);
		goto err_destroy;
	}
	pmo->window = window;
	pmo->mmap_offset = (u64)window->pgoff << PAGE_SHIFT;
	return pmo;

err_destroy:
	dxgpmo_object_abort_and_destroy(file, &pmo->obj);
	return ERR_PTR(ret);
}

int dxgpmo_cmd_create_pmo(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_create_pmo *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_adapter *adapter = NULL;
	struct dxgpmo_alloc_request req;
	struct dxgpmo_amo *amo = NULL;
	struct dxgpmo_pmo *pmo;
	int ret;

	memset(&req, 0, sizeof(req));
	ret = dxgpmo_check_create(cmd, &req);
	if (ret)
		return ret;
	ret = dxgpmo_may_create(file, &req);
	if (ret)
		return ret;
	if (cmd->adapter_id) {
		adapter = dxgpmo_adapter_get(file, cmd->adapter_id);
		if (IS_ERR(adapter))
			return PTR_ERR(adapter);
		ret = dxgpmo_window_within_reach(&req, adapter);
		if (ret)
			goto err_adapter;
	}
	pmo = dxgpmo_pmo_alloc(file, cmd, &req);
	if (IS_ERR(pmo)) {
		ret = PTR_ERR(pmo);
		goto err_adapter;
	}
	if (adapter) {
		amo = dxgpmo_amo_alloc(file, pmo, adapter);
		if (IS_ERR(amo)) {
			dxgpmo_object_abort_and_destroy(file, &pmo->obj);
			return PTR_ERR(amo);
		}
	}
	cmd->pmo_id = pmo->obj.id;
	cmd->amo_id = amo ? amo->obj.id : 0;
	cmd->mmap_offset = pmo->mmap_offset;
	return dxgpmo_ucmd_respond_finalize_pair(ucmd, sizeof(*cmd), &pmo->obj,
						 amo ? &amo->obj : NULL);

err_adapter:
	if (adapter)
		dxgpmo_adapter_put(adapter);
	return ret;
}

/*
 * Destroying a PMO that still has ADLs is the driver leaking locked pages;
 * Windows bugchecks.  Here the call fails with -EBUSY and says so, rate
 * limited: any opener can get there, and a BUG() or WARN() a user can
 * provoke is not one a shared machine can afford.  adl_leak=bug, which
 * only the administrator can choose, is the test machine that wants the
 * bugcheck: not inside the ioctl, though.  In a process with more than
 * one thread the system call holds a real reference on the file (fdget()
 * only borrows it otherwise), which a task dying in the ioctl would never
 * drop, keeping the file, its pages and the module forever.  The BUG()
 * runs as task work on the way back to user space, after the system call
 * let go of the file, holding nothing: the thread dies, and the file is
 * released like any other when its process closes it or exits.
 */
struct dxgpmo_bugcheck {
	struct callback_head work;
	u64 handle;
	u64 nr_adls;
	u64 context;
	u64 caller;
	char name[DXGPMO_LEAK_NAME_LEN];
};

/*
 * Windows documents that this Destroy bugchecks, not with which code.
 * DRIVER_LEFT_LOCKED_PAGES_IN_PROCESS is its bugcheck for a driver that
 * leaves pages locked; its parameters here are this contract's
 * (Documentation/porting.rst): the object's handle, its live ADLs, its
 * Context and the calling process.
 */
#define DXGPMO_BUGCHECK_LEFT_LOCKED_PAGES	0xcb

static void dxgpmo_bugcheck_line(const struct dxgpmo_bugcheck *b)
{
	pr_emerg("dxgpmo: BUGCHECK 0x%08x (0x%016llx, 0x%016llx, 0x%016llx, 0x%016llx) DRIVER_LEFT_LOCKED_PAGES_IN_PROCESS: %s: DESTROY_PMO of handle 0x%llx (Context 0x%llx) with %llu live ADL(s) (adl_leak=bug)\n",
		 DXGPMO_BUGCHECK_LEFT_LOCKED_PAGES, b->handle, b->nr_adls,
		 b->context, b->caller, b->name, b->handle, b->context,
		 b->nr_adls);
}

static void dxgpmo_bugcheck_now(const struct dxgpmo_bugcheck *b)
{
	dxgpmo_bugcheck_line(b);
	BUG();
}

static void dxgpmo_bugcheck_work(struct callback_head *work)
{
	struct dxgpmo_bugcheck *bugcheck =
		container_of(work, struct dxgpmo_bugcheck, work);
	struct dxgpmo_bugcheck b = *bugcheck;

	/*
	 * Works queued before this one in the same batch would never run
	 * once the thread dies here (pending fputs, io_uring completions,
	 * memory-failure handling): go last.
	 */
	if (work->next) {
		task_work_add(current, work, TWA_NONE);
		return;
	}
	kfree(bugcheck);
	/*
	 * The module reference taken when this was queued goes now, or the
	 * dead thread would keep the module forever.  With preemption off
	 * the module's text outlives the BUG(): unloading waits for an RCU
	 * grace period before freeing it.
	 */
	preempt_disable();
	module_put(THIS_MODULE);
	dxgpmo_bugcheck_now(&b);
}

/*
 * The Context the driver gave the PMO, for the message: 0 if another
 * thread destroyed it since (its ADLs were freed meanwhile).
 */
static u64 dxgpmo_pmo_context_of(struct dxgpmo_file *file, u32 id)
{
	struct dxgpmo_pmo *pmo = dxgpmo_pmo_get(file, id);
	u64 context;

	if (IS_ERR(pmo))
		return 0;
	context = pmo->context;
	dxgpmo_object_put(&pmo->obj);
	return context;
}

static int dxgpmo_pmo_adl_leak(struct dxgpmo_file *file, u32 id,
			       unsigned int nr_adls)
{
	struct dxgpmo_bugcheck *bugcheck;
	char name[DXGPMO_LEAK_NAME_LEN];
	u64 context;

	if (!READ_ONCE(dxgpmo_adl_leak_bug)) {
		dxgpmo_leak_caller(file, name, sizeof(name));
		pr_warn_ratelimited("dxgpmo: file %u (%s): DESTROY_PMO of handle 0x%llx (Context 0x%llx) with %u live ADL(s): the driver leaks locked pages\n",
				    file->id, name,
				    dxgpmo_object_handle(file, id),
				    dxgpmo_pmo_context_of(file, id), nr_adls);
		return -EBUSY;
	}
	context = dxgpmo_pmo_context_of(file, id);
	/* Failing here would be the file leak again: a few bytes, no fail. */
	bugcheck = kmalloc(sizeof(*bugcheck), GFP_KERNEL | __GFP_NOFAIL);
	bugcheck->handle = dxgpmo_object_handle(file, id);
	bugcheck->nr_adls = nr_adls;
	bugcheck->context = context;
	bugcheck->caller = task_tgid_nr(current);
	dxgpmo_leak_caller(file, bugcheck->name, sizeof(bugcheck->name));
	/*
	 * A kernel driver's leak stops the machine, as the bugcheck does: a
	 * BUG() in its call would kill the calling task with the driver's
	 * locks (the device's, its own) held, and hang whoever waits for them.
	 */
	if (file->kernel_client) {
		dxgpmo_bugcheck_line(bugcheck);
		panic("dxgpmo: DESTROY_PMO of handle 0x%llx with %u live ADL(s): a kernel client leaks locked pages (adl_leak=bug)\n",
		      bugcheck->handle, nr_adls);
	}
	init_task_work(&bugcheck->work, dxgpmo_bugcheck_work);
	__module_get(THIS_MODULE);
	/* Fails only once the task ran exit_task_work(), not in an ioctl. */
	if (WARN_ON_ONCE(task_work_add(current, &bugcheck->work, TWA_RESUME))) {
		struct dxgpmo_bugcheck b = *bugcheck;

		module_put(THIS_MODULE);
		kfree(bugcheck);
		dxgpmo_bugcheck_now(&b);
	}
	/* Seen by tracers only: the thread dies before user space does. */
	return -EBUSY;
}

int dxgpmo_cmd_destroy_pmo(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_destroy_pmo *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	unsigned int nr_adls;
	int ret;

	if (cmd->flags)
		return -EINVAL;
	/* An open AMO not named stays, and DESTROY is -EBUSY. */
	if (!cmd->amo_id)
		return dxgpmo_object_destroy(file, cmd->pmo_id,
					     DXGPMO_OBJ_PMO);
	/*
	 * The ADLs are counted once the pair is claimed and no call is in
	 * flight on it: a FREE_ADL that took its handle out before then is
	 * no leak, whichever thread made it.
	 */
	ret = dxgpmo_object_destroy_pair(file, cmd->amo_id, DXGPMO_OBJ_AMO,
					 cmd->pmo_id, DXGPMO_OBJ_PMO, &nr_adls);
	if (ret != -EBUSY || !nr_adls)
		return ret;
	if (trace_dxgpmo_adl_leak_enabled()) {
		struct dxgpmo_pmo *pmo = dxgpmo_pmo_get(file, cmd->pmo_id);

		/* Held by its AMO, which the failed DESTROY left in place. */
		if (!IS_ERR(pmo)) {
			trace_dxgpmo_adl_leak(file, cmd->pmo_id, cmd->amo_id,
					      nr_adls, pmo->context,
					      READ_ONCE(dxgpmo_adl_leak_bug));
			dxgpmo_object_put(&pmo->obj);
		}
	}
	return dxgpmo_pmo_adl_leak(file, cmd->pmo_id, nr_adls);
}

int dxgpmo_cmd_open_pmo(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_open_pmo *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_adapter *adapter;
	struct dxgpmo_amo *amo;
	struct dxgpmo_pmo *pmo;

	if (cmd->flags || cmd->amo_id || cmd->__reserved)
		return -EINVAL;
	adapter = dxgpmo_adapter_get(file, cmd->adapter_id);
	if (IS_ERR(adapter))
		return PTR_ERR(adapter);
	pmo = dxgpmo_pmo_get(file, cmd->pmo_id);
	if (IS_ERR(pmo)) {
		dxgpmo_adapter_put(adapter);
		return PTR_ERR(pmo);
	}
	amo = dxgpmo_amo_alloc(file, pmo, adapter);
	dxgpmo_object_put(&pmo->obj);
	if (IS_ERR(amo))
		return PTR_ERR(amo);
	cmd->amo_id = amo->obj.id;
	return dxgpmo_ucmd_respond_finalize(ucmd, sizeof(*cmd), &amo->obj);
}

int dxgpmo_cmd_close_pmo(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_close_pmo *cmd = ucmd->cmd;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	return dxgpmo_object_destroy(ucmd->file, cmd->amo_id, DXGPMO_OBJ_AMO);
}
