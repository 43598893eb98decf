// SPDX-License-Identifier: GPL-2.0
/*
 * CPU mappings: DxgkCbMapPhysicalMemory / DxgkCbUnmapPhysicalMemory and
 * KMAP_RW through kernel-mode maps.
 *
 * A user-mode MAP is vm_mmap() of the object's window (window.c) in the
 * calling process: the same path as a direct mmap(2).  UNMAP detaches that
 * view and leaves the address range reserved (see
 * dxgpmo_window_detach_view()).  A kernel-mode MAP
 * is a kernel view of the object (a vmap with the object's cache type, an
 * ioremap for IO_SPACE); a user caller gets a token, never the kernel
 * address, and reads and writes through it with KMAP_RW, while a kernel
 * client (client.c) gets the view's address.  With
 * MAP_IN_PROCESS a kernel-mode MAP is made as a user view is, for a
 * program that plays the kernel-mode driver; only what Windows allows in
 * kernel mode alone (IO_SPACE) tells the two apart.  A map holds a
 * reference on its PMO, so the PMO cannot be destroyed under it.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "account.h"
#include "backing.h"
#include "compat.h"
#include "dxgpmo.h"
#include "fs.h"
#include "inject.h"
#include "internal.h"
#include "mapping.h"
#include "object.h"
#include "pmo.h"
#include "quota.h"
#include "stats.h"
#include "ucmd.h"
#include "window.h"

/* Kernel-mode MAP returns a token, never the kernel address. */
#define DXGPMO_KMAP_TOKEN_BASE	(0xdc5ULL << 52)

static void dxgpmo_map_destroy(struct dxgpmo_file *file,
			       struct dxgpmo_object *obj)
{
	struct dxgpmo_cpu_map *map = container_of(obj, struct dxgpmo_cpu_map,
						  obj);
	struct dxgpmo_backing *backing = map->pmo->backing;

	spin_lock(&map->pmo->lock);
	list_del(&map->pmo_node);
	spin_unlock(&map->pmo->lock);
	if (map->kview.vaddr || map->kview.io) {
		backing->ops->unmap_kernel(backing, &map->kview);
		dxgpmo_count(file, DXGPMO_CNT_KMAP_PAGES,
			     -(s64)map->kview.nr_pages);
		dxgpmo_account_quota_uncharge(file->account,
					      DXGPMO_QUOTA_KMAP_PAGES,
					      map->kview.nr_pages);
	}
	if (map->mm)
		mmdrop(map->mm);
	dxgpmo_object_unhold(&map->pmo->obj);
}

/*
 * A view is whole pages: from the page holding offset to the one holding
 * the range's last byte.  The caller checked that the range lies in the
 * object, whose length leaves room to round its end up.
 */
VISIBLE_IF_KUNIT void dxgpmo_map_view(u64 offset, u64 length,
				      u64 *view_offset, u64 *view_length)
{
	u64 start = round_down(offset, PAGE_SIZE);

	*view_offset = start;
	*view_length = round_up(offset + length, PAGE_SIZE) - start;
}

/*
 * Kernel views take vmalloc (ioremap) space and an array of page pointers
 * each, however often the same pages are viewed: a user gets a share.
 */
static int dxgpmo_map_kernel(struct dxgpmo_file *file,
			     struct dxgpmo_cpu_map *map)
{
	struct dxgpmo_backing *backing = map->pmo->backing;
	unsigned long nr = map->kview.nr_pages;
	int ret;

	ret = dxgpmo_account_quota_charge(file->account,
					  DXGPMO_QUOTA_KMAP_PAGES, nr);
	if (ret)
		return ret;
	ret = -ENOMEM;
	if (!dxgpmo_should_fail(file))
		ret = backing->ops->map_kernel(backing, &map->kview);
	if (ret) {
		dxgpmo_account_quota_uncharge(file->account,
					      DXGPMO_QUOTA_KMAP_PAGES, nr);
		return ret;
	}
	dxgpmo_count(file, DXGPMO_CNT_KMAP_PAGES, nr);
	return 0;
}

/*
 * What a kernel-mode MAP answers: a token for user space, which must never
 * learn a kernel address, and the view itself for a kernel client.
 */
static u64 dxgpmo_map_kernel_address(struct dxgpmo_file *file,
				     struct dxgpmo_cpu_map *map)
{
	if (!file->kernel_client)
		return DXGPMO_KMAP_TOKEN_BASE + ((u64)map->obj.id << PAGE_SHIFT);
	/* Kernel clients have no IO_SPACE objects (privilege.c). */
	return (uintptr_t)map->kview.vaddr;
}

static int dxgpmo_map_user(struct dxgpmo_ucmd *ucmd,
			   struct dxgpmo_cpu_map *map)
{
	struct dxgpmo_pmo *pmo = map->pmo;
	unsigned long prot = PROT_READ |
			     (pmo->backing->readonly ? 0 : PROT_WRITE);
	unsigned long addr;

	if (dxgpmo_should_fail(ucmd->file))
		return -ENOMEM;
	addr = vm_mmap(ucmd->filp, 0, map->length, prot, MAP_SHARED,
		       ((u64)pmo->window->pgoff << PAGE_SHIFT) +
		       map->view_offset);
	if (IS_ERR_VALUE(addr))
		return (long)addr;
	map->address = addr;
	mmgrab(current->mm);
	map->mm = current->mm;
	return 0;
}

/*
 * MAP could not tell the caller about the view it made: detach it, or,
 * with no memory even for that, leave it attached (it keeps the device
 * file open until the process unmaps it, which is still sound).
 */
static void dxgpmo_map_user_undo(struct dxgpmo_pmo *pmo, u64 address,
				 u64 length, u64 view_offset)
{
	struct file *detached = dxgpmo_detached_file(pmo->window->mapping);

	if (!IS_ERR(detached))
		dxgpmo_window_detach_view(pmo->window, address, length,
					  view_offset >> PAGE_SHIFT, detached);
}

/* MAP could not answer: the user view the caller never learnt of goes too. */
static void dxgpmo_map_abort(struct dxgpmo_file *file,
			     struct dxgpmo_object *obj)
{
	struct dxgpmo_cpu_map *map = container_of(obj, struct dxgpmo_cpu_map,
						  obj);

	if (map->mm)
		dxgpmo_map_user_undo(map->pmo, map->address, map->length,
				     map->view_offset);
	dxgpmo_map_destroy(file, obj);
}

/* Its view's length; its PMO's caching and Context. */
static void dxgpmo_map_describe(const struct dxgpmo_object *obj,
				struct dxgpmo_object_desc *desc)
{
	const struct dxgpmo_cpu_map *map =
		container_of(obj, struct dxgpmo_cpu_map, obj);

	desc->size = map->length;
	desc->context = map->pmo->context;
	desc->cache_type = map->pmo->backing->cache_type;
}

static const struct dxgpmo_object_ops dxgpmo_map_ops = {
	.destroy = dxgpmo_map_destroy,
	.describe = dxgpmo_map_describe,
	.abort = dxgpmo_map_abort,
	.counter = DXGPMO_CNT_MAPS,
};

/*
 * A view of pmo as MAP asks, not yet visible: on the PMO's list and
 * holding it, or nothing at all.
 */
static struct dxgpmo_cpu_map *dxgpmo_map_alloc(struct dxgpmo_ucmd *ucmd,
					       struct dxgpmo_pmo *pmo,
					       bool in_process)
{
	const struct dxgpmo_map *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_cpu_map *map;
	u64 start;
	int ret;

	map = dxgpmo_object_alloc(file, struct dxgpmo_cpu_map, DXGPMO_OBJ_MAP,
				  &dxgpmo_map_ops);
	if (IS_ERR(map))
		return map;
	dxgpmo_map_view(cmd->offset, cmd->length, &start, &map->length);
	map->access_mode = cmd->access_mode;
	map->view_offset = start;
	map->kview.first = start >> PAGE_SHIFT;
	map->kview.nr_pages = map->length >> PAGE_SHIFT;
	map->pmo = pmo;
	if (in_process) {
		ret = dxgpmo_map_user(ucmd, map);
	} else {
		ret = dxgpmo_map_kernel(file, map);
		map->address = dxgpmo_map_kernel_address(file, map);
	}
	/* A view that failed holds nothing: neither an mm nor a kview. */
	if (ret) {
		dxgpmo_object_abort(file, &map->obj);
		return ERR_PTR(ret);
	}
	/* From here the map's own reference keeps the PMO. */
	dxgpmo_object_hold(&pmo->obj);
	spin_lock(&pmo->lock);
	list_add_tail(&map->pmo_node, &pmo->maps);
	spin_unlock(&pmo->lock);
	return map;
}

int dxgpmo_cmd_map(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_map *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_backing *backing;
	struct dxgpmo_cpu_map *map;
	struct dxgpmo_pmo *pmo;
	bool in_process;
	int ret;

	if ((cmd->flags & ~DXGPMO_MAP_IN_PROCESS) || cmd->__reserved ||
	    cmd->address || cmd->map_id)
		return -EINVAL;
	if (cmd->access_mode == DXGPMO_ACCESS_USER && !cmd->flags)
		in_process = true;
	else if (cmd->access_mode == DXGPMO_ACCESS_KERNEL)
		in_process = cmd->flags & DXGPMO_MAP_IN_PROCESS;
	else
		return -EINVAL;
	if (!cmd->length || cmd->offset + cmd->length < cmd->offset)
		return -EINVAL;

	pmo = dxgpmo_pmo_get(file, cmd->pmo_id);
	if (IS_ERR(pmo))
		return PTR_ERR(pmo);
	backing = pmo->backing;
	ret = -EINVAL;
	if (cmd->offset + cmd->length > pmo->length)
		goto out_put;
	if (in_process && !backing->ops->vma_setup)
		goto out_put;
	/*
	 * A kernel client has no process of its own to map into: its views
	 * for a process are the dma-buf's, mmap()ed from its own file.
	 */
	if (in_process && !ucmd->filp) {
		ret = -EOPNOTSUPP;
		goto out_put;
	}
	/* Windows maps I/O space in kernel mode only. */
	if (cmd->access_mode == DXGPMO_ACCESS_USER &&
	    backing->ops->kernel_mode_only)
		goto out_put;
	map = dxgpmo_map_alloc(ucmd, pmo, in_process);
	if (IS_ERR(map)) {
		ret = PTR_ERR(map);
		goto out_put;
	}
	cmd->map_id = map->obj.id;
	cmd->address = map->address;
	cmd->offset -= map->view_offset;
	cmd->length = map->length;
	ret = dxgpmo_ucmd_respond_finalize(ucmd, sizeof(*cmd), &map->obj);
out_put:
	dxgpmo_object_put(&pmo->obj);
	return ret;
}

int dxgpmo_cmd_unmap(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_unmap *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_cpu_map *map, *found = NULL;
	struct file *detached = NULL;
	u64 view_offset = 0;
	struct dxgpmo_pmo *pmo;
	bool user = false;
	u32 id = 0;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	pmo = dxgpmo_pmo_get(file, cmd->pmo_id);
	if (IS_ERR(pmo))
		return PTR_ERR(pmo);
	spin_lock(&pmo->lock);
	list_for_each_entry(map, &pmo->maps, pmo_node) {
		if (map->address == cmd->address) {
			found = map;
			break;
		}
	}
	if (!found || found->length != cmd->length) {
		ret = -EINVAL;
	} else if (found->mm && found->mm != current->mm &&
		   atomic_read(&found->mm->mm_users)) {
		/* A user view belongs to the process that made it. */
		ret = -EPERM;
	} else {
		id = found->obj.id;
		/*
		 * A process that has exited or exec'd took its views with
		 * the mm (whose mm_users never rises from 0): only the record
		 * is left, for anyone sharing the file to drop.
		 */
		user = found->mm && found->mm == current->mm;
		view_offset = found->view_offset;
	}
	spin_unlock(&pmo->lock);
	if (ret)
		goto out_put;

	/* What detaching needs is there before anything changes. */
	if (user) {
		detached = dxgpmo_detached_file(pmo->window->mapping);
		if (IS_ERR(detached)) {
			ret = PTR_ERR(detached);
			goto out_put;
		}
	}
	/* One UNMAP wins; the map is gone before its view is. */
	ret = dxgpmo_object_destroy(file, id, DXGPMO_OBJ_MAP);
	if (ret || !user) {
		if (user)
			fput(detached);
		goto out_put;
	}
	/* Already unmapped or replaced by the process: only forgotten. */
	ret = dxgpmo_window_detach_view(pmo->window, cmd->address, cmd->length,
					view_offset >> PAGE_SHIFT, detached);
out_put:
	dxgpmo_object_put(&pmo->obj);
	return ret;
}

/*
 * A kernel view can be as large as max_kmap_mb, and a non-cached one is
 * copied a word at a time at uncached speed: one copy of all of it would
 * hold the CPU for seconds where the kernel does not preempt, and could
 * not be killed.  Pieces of this size, with a reschedule point between
 * them and a way out for a dying caller, as read(2) of a large file has.
 * Each but the last ends on a word of the view, so that a non-cached
 * copy splits no word but at the request's own ends.
 */
#define DXGPMO_KMAP_RW_PIECE	SZ_1M

static int dxgpmo_kmap_rw_pieces(struct dxgpmo_backing *backing,
				 struct dxgpmo_kview *view, bool write,
				 u64 offset, u64 length, void __user *ubuf)
{
	u64 done, n;
	int ret;

	for (done = 0; done < length; done += n) {
		n = min_t(u64, length - done,
			  DXGPMO_KMAP_RW_PIECE - ((offset + done) & 7));
		ret = backing->ops->kview_rw(backing, view, write,
					     offset + done, n, ubuf + done);
		if (ret)
			return ret;
		if (done + n == length)
			break;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

int dxgpmo_cmd_kmap_rw(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_kmap_rw *cmd = ucmd->cmd;
	void __user *ubuf = u64_to_user_ptr(cmd->buffer);
	bool write = cmd->flags & DXGPMO_KMAP_WRITE;
	struct dxgpmo_backing *backing;
	struct dxgpmo_cpu_map *map;
	int ret;

	/* User memory only: no kernel client has this command. */
	if (WARN_ON_ONCE(ucmd->kbuffer) ||
	    (cmd->flags & ~DXGPMO_KMAP_WRITE) || cmd->__reserved)
		return -EINVAL;
	if (!cmd->length || cmd->offset + cmd->length < cmd->offset)
		return -EINVAL;
	map = dxgpmo_map_get(ucmd->file, cmd->map_id);
	if (IS_ERR(map))
		return PTR_ERR(map);
	backing = map->pmo->backing;
	/* Only a kernel view: one in a process is read and written there. */
	if (map->access_mode != DXGPMO_ACCESS_KERNEL || map->mm ||
	    cmd->offset + cmd->length > map->length)
		ret = -EINVAL;
	else if (write && backing->readonly)
		ret = -EACCES;
	else
		ret = dxgpmo_kmap_rw_pieces(backing, &map->kview, write,
					    cmd->offset, cmd->length, ubuf);
	dxgpmo_object_put(&map->obj);
	return ret;
}
