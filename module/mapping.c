// SPDX-License-Identifier: GPL-2.0
/*
 * CPU mappings: DxgkCbMapPhysicalMemory / DxgkCbUnmapPhysicalMemory, mmap(2)
 * of object windows, and KMAP_RW through kernel-mode maps.
 *
 * Every object has a window in the mmap offset space of /dev/dxgpmo.  Window
 * offsets are unique module-wide (never reused), so zapping a window in the
 * device's address_space touches that object's mappings only; the file's
 * maple tree maps offsets to windows, so a file can map only its own
 * objects.  A user-mode MAP is vm_mmap() of the window in the calling
 * process: the same path as a direct mmap(2).
 *
 * Cache types are real: user PTEs and kernel vmaps use the object's cache
 * type (pgprot_writecombine / pgprot_noncached), and pages.c switched the
 * linear-map alias of RAM objects to the same type.  MDL and CONTIGUOUS
 * windows are VM_PFNMAP (the pages are the object's, never the VMA's);
 * SECTION windows are page-backed so that reclaim can find their PTEs.
 */
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "internal.h"

/* Kernel-mode MAP returns a token, never the kernel address. */
#define DXGPMO_KMAP_TOKEN_BASE	(0xdc5ULL << 52)

static atomic64_t dxgpmo_next_pgoff =
	ATOMIC64_INIT(DXGPMO_OBJECT_MMAP_BASE >> PAGE_SHIFT);

static void dxgpmo_window_release(struct kref *kref)
{
	struct dxgpmo_window *window =
		container_of(kref, struct dxgpmo_window, kref);

	dxgpmo_backing_put(window->backing);
	kfree(window);
}

static void dxgpmo_window_put(struct dxgpmo_window *window)
{
	kref_put(&window->kref, dxgpmo_window_release);
}

struct dxgpmo_window *dxgpmo_window_create(struct dxgpmo_file *file,
					   struct dxgpmo_backing *backing)
{
	struct dxgpmo_window *window;
	int ret;

	if (dxgpmo_should_fail(file))
		return ERR_PTR(-ENOMEM);
	window = kzalloc(sizeof(*window), GFP_KERNEL_ACCOUNT);
	if (!window)
		return ERR_PTR(-ENOMEM);
	kref_init(&window->kref);
	init_rwsem(&window->lock);
	kref_get(&backing->kref);
	window->backing = backing;
	window->mapping = file->mapping;
	window->nr_pages = backing->nr_pages;
	window->pgoff = atomic64_fetch_add(backing->nr_pages, &dxgpmo_next_pgoff);
	ret = mtree_insert_range(&file->windows, window->pgoff,
				 window->pgoff + window->nr_pages - 1, window,
				 GFP_KERNEL_ACCOUNT);
	if (ret) {
		dxgpmo_window_put(window);
		return ERR_PTR(ret);
	}
	return window;
}

/*
 * The object is going away: no new mmap finds the window, existing PTEs are
 * zapped, and faults after this get SIGBUS.  Drops the object's reference.
 */
void dxgpmo_window_revoke(struct dxgpmo_file *file,
			  struct dxgpmo_window *window)
{
	mtree_erase(&file->windows, window->pgoff);
	down_write(&window->lock);
	window->revoked = true;
	unmap_mapping_range(window->mapping,
			    (loff_t)window->pgoff << PAGE_SHIFT,
			    (loff_t)window->nr_pages << PAGE_SHIFT, 1);
	up_write(&window->lock);
	dxgpmo_window_put(window);
}

static void dxgpmo_vm_open(struct vm_area_struct *vma)
{
	struct dxgpmo_window *window = vma->vm_private_data;

	kref_get(&window->kref);
}

static void dxgpmo_vm_close(struct vm_area_struct *vma)
{
	dxgpmo_window_put(vma->vm_private_data);
}

/*
 * Pages mapped by one fault of a RAM object's PFN map, as TTM prefaults
 * buffer objects: objects are mostly touched whole, and one fault costs
 * more than the PTEs it saves filling in.  64 KiB, aligned.
 */
#define DXGPMO_FAULT_AROUND_PAGES	16

static vm_fault_t dxgpmo_insert_page(struct dxgpmo_backing *backing,
				     struct vm_area_struct *vma,
				     unsigned long addr, unsigned long index)
{
	return vmf_insert_pfn_prot(vma, addr,
				   page_to_pfn(dxgpmo_backing_page(backing,
								   index)),
				   vma->vm_page_prot);
}

/* The faulting page is mapped: fill its aligned block around it. */
static void dxgpmo_fault_around(struct dxgpmo_backing *backing,
				struct vm_fault *vmf, unsigned long index)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long block = DXGPMO_FAULT_AROUND_PAGES << PAGE_SHIFT;
	unsigned long start = max(ALIGN_DOWN(vmf->address, block),
				  vma->vm_start);
	unsigned long end = min(ALIGN_DOWN(vmf->address, block) + block,
				vma->vm_end);
	unsigned long addr, i;

	for (addr = start; addr < end; addr += PAGE_SIZE) {
		if (addr == vmf->address)
			continue;
		/* The VMA starts inside the window: i never underflows. */
		i = index + ((long)(addr - vmf->address) >> PAGE_SHIFT);
		if (i >= backing->nr_pages)
			break;
		if (dxgpmo_insert_page(backing, vma, addr, i) !=
		    VM_FAULT_NOPAGE)
			break;
	}
}

/*
 * Map page index of the object at the faulting address: SECTION pages are
 * handed to the core (page-backed), RAM objects' pages inserted as PFNs
 * with the VMA's cache-type protection.
 */
vm_fault_t dxgpmo_backing_fault(struct dxgpmo_backing *backing,
				struct vm_fault *vmf, unsigned long index)
{
	struct page *page;
	vm_fault_t ret;

	if (index >= backing->nr_pages)
		return VM_FAULT_SIGBUS;
	if (backing->shmem) {
		page = dxgpmo_section_page(backing, index);
		if (IS_ERR(page))
			return vmf_error(PTR_ERR(page));
		vmf->page = page;	/* the reference goes to the fault */
		return 0;
	}
	ret = dxgpmo_insert_page(backing, vmf->vma, vmf->address, index);
	if (ret != VM_FAULT_NOPAGE)
		return ret;
	dxgpmo_fault_around(backing, vmf, index);
	return VM_FAULT_NOPAGE;
}

static vm_fault_t dxgpmo_vm_fault(struct vm_fault *vmf)
{
	struct dxgpmo_window *window = vmf->vma->vm_private_data;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	down_read(&window->lock);
	if (!window->revoked)
		ret = dxgpmo_backing_fault(window->backing, vmf,
					   vmf->pgoff - window->pgoff);
	up_read(&window->lock);
	return ret;
}

const struct vm_operations_struct dxgpmo_vm_ops = {
	.open = dxgpmo_vm_open,
	.close = dxgpmo_vm_close,
	.fault = dxgpmo_vm_fault,
};

pgprot_t dxgpmo_cache_pgprot(u32 cache_type, pgprot_t prot)
{
	switch (cache_type) {
	case DXGPMO_CACHE_WRITE_COMBINED:
		return pgprot_writecombine(prot);
	case DXGPMO_CACHE_NON_CACHED:
		return pgprot_noncached(prot);
	default:
		return prot;
	}
}

/*
 * Flags and protection of a VMA mapping a RAM object (a window or a
 * dma-buf): no writable view of a read-only section, PFN map for MDL and
 * CONTIGUOUS, page-backed for SECTION, the object's cache type.
 */
int dxgpmo_vma_setup(struct vm_area_struct *vma,
		     struct dxgpmo_backing *backing)
{
	if (backing->readonly) {
		if (vma->vm_flags & VM_WRITE)
			return -EACCES;
		dxgpmo_vm_flags_clear(vma, VM_MAYWRITE);
	}
	if (backing->shmem)
		dxgpmo_vm_flags_set(vma, VM_DONTEXPAND);
	else
		dxgpmo_vm_flags_set(vma, VM_PFNMAP | VM_DONTEXPAND |
				    VM_DONTDUMP);
	vma->vm_page_prot = dxgpmo_cache_pgprot(backing->cache_type,
						vm_get_page_prot(vma->vm_flags));
	return 0;
}

/*
 * mmap(2) of the device: only inside one of this file's object windows,
 * shared, never an IO_SPACE object, never writable for a read-only section.
 * Called with the mmap lock held: takes no file lock.
 */
int dxgpmo_fops_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct dxgpmo_file *file = filp->private_data;
	unsigned long last = vma->vm_pgoff + vma_pages(vma) - 1;
	struct dxgpmo_window *window;
	struct dxgpmo_backing *backing;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (last < vma->vm_pgoff)
		return -EINVAL;
	if (vma->vm_pgoff < DXGPMO_OBJECT_MMAP_BASE >> PAGE_SHIFT)
		return dxgpmo_segment_mmap(filp, vma);
	rcu_read_lock();
	window = mtree_load(&file->windows, vma->vm_pgoff);
	if (window && (last >= window->pgoff + window->nr_pages ||
		       !kref_get_unless_zero(&window->kref)))
		window = NULL;
	rcu_read_unlock();
	if (!window)
		return -EINVAL;

	backing = window->backing;
	ret = -EINVAL;
	if (backing->type != DXGPMO_PMO_TYPE_IO_SPACE)
		ret = dxgpmo_vma_setup(vma, backing);
	if (ret) {
		dxgpmo_window_put(window);
		return ret;
	}
	vma->vm_private_data = window;
	vma->vm_ops = &dxgpmo_vm_ops;
	return 0;
}

/*
 * A kernel vmap of pages [first, first + nr) of a RAM object with its cache
 * type.  The pages are held (SECTION pages stay resident) in *pinned until
 * dxgpmo_backing_vunmap().
 */
void *dxgpmo_backing_vmap(struct dxgpmo_backing *backing, unsigned long first,
			  unsigned long nr, struct page ***pinned, gfp_t gfp)
{
	struct page **pages;
	void *vaddr;
	int ret;

	pages = kvmalloc_array(nr, sizeof(*pages), gfp);
	if (!pages)
		return ERR_PTR(-ENOMEM);
	ret = dxgpmo_backing_get_pages(backing, first, nr, pages);
	if (ret) {
		kvfree(pages);
		return ERR_PTR(ret);
	}
	vaddr = vmap(pages, nr, VM_MAP,
		     dxgpmo_cache_pgprot(backing->cache_type, PAGE_KERNEL));
	if (!vaddr) {
		dxgpmo_backing_put_pages(backing, pages, nr);
		kvfree(pages);
		return ERR_PTR(-ENOMEM);
	}
	*pinned = pages;
	return vaddr;
}

void dxgpmo_backing_vunmap(struct dxgpmo_backing *backing, void *vaddr,
			   struct page **pinned, unsigned long nr)
{
	vunmap(vaddr);
	dxgpmo_backing_put_pages(backing, pinned, nr);
	kvfree(pinned);
}

/* Drop what a map holds besides its user VMA: kernel view, mm. */
static void dxgpmo_map_release(struct dxgpmo_cpu_map *map)
{
	if (map->vaddr)
		dxgpmo_backing_vunmap(map->pmo->backing, map->vaddr,
				      map->pinned, map->nr_pages);
	if (map->io)
		iounmap(map->io);
	if (map->mm)
		mmdrop(map->mm);
}

/* A kernel view: vmap of the pages, or ioremap of the BAR range. */
static int dxgpmo_map_kernel(struct dxgpmo_cpu_map *map)
{
	struct dxgpmo_backing *backing = map->pmo->backing;
	void *vaddr;

	if (backing->type == DXGPMO_PMO_TYPE_IO_SPACE) {
		phys_addr_t phys = backing->io_base + map->view_offset;

		if (backing->cache_type == DXGPMO_CACHE_WRITE_COMBINED)
			map->io = ioremap_wc(phys, map->length);
		else
			map->io = ioremap(phys, map->length);
		return map->io ? 0 : -ENOMEM;
	}
	vaddr = dxgpmo_backing_vmap(backing, map->view_offset >> PAGE_SHIFT,
				    map->nr_pages, &map->pinned,
				    GFP_KERNEL_ACCOUNT);
	if (IS_ERR(vaddr))
		return PTR_ERR(vaddr);
	map->vaddr = vaddr;
	return 0;
}

/* The VMA MAP made is still there, unchanged (the user may have unmapped). */
static bool dxgpmo_user_view_intact(struct dxgpmo_cpu_map *map)
{
	struct vm_area_struct *vma;
	bool intact;

	mmap_read_lock(current->mm);
	vma = vma_lookup(current->mm, map->address);
	intact = vma && vma->vm_ops == &dxgpmo_vm_ops &&
		 vma->vm_private_data == map->pmo->window &&
		 vma->vm_start == map->address &&
		 vma->vm_end == map->address + map->length &&
		 vma->vm_pgoff == map->pmo->window->pgoff +
				  (map->view_offset >> PAGE_SHIFT);
	mmap_read_unlock(current->mm);
	return intact;
}

/* Releases a map whose id is gone: the caller holds the file lock. */
void dxgpmo_map_free(struct dxgpmo_file *file, struct dxgpmo_cpu_map *map)
{
	list_del(&map->pmo_node);
	dxgpmo_map_release(map);
	dxgpmo_count(file, DXGPMO_CNT_MAPS, -1);
	kfree(map);
}

int dxgpmo_ioctl_map(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_map *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_cpu_map *map;
	struct dxgpmo_pmo *pmo;
	u64 start, end;
	int ret;

	if (cmd->flags || cmd->__reserved || cmd->address || cmd->map_id)
		return -EINVAL;
	if (cmd->access_mode != DXGPMO_ACCESS_USER &&
	    cmd->access_mode != DXGPMO_ACCESS_KERNEL)
		return -EINVAL;
	if (!cmd->length || cmd->offset + cmd->length < cmd->offset)
		return -EINVAL;

	mutex_lock(&file->lock);
	pmo = dxgpmo_pmo_find(file, cmd->pmo_id);
	ret = -ENOENT;
	if (!pmo)
		goto out_unlock;
	ret = -EINVAL;
	if (cmd->offset + cmd->length > pmo->length)
		goto out_unlock;
	if (cmd->access_mode == DXGPMO_ACCESS_USER &&
	    pmo->backing->type == DXGPMO_PMO_TYPE_IO_SPACE)
		goto out_unlock;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto out_unlock;
	map = kzalloc(sizeof(*map), GFP_KERNEL_ACCOUNT);
	if (!map)
		goto out_unlock;

	start = round_down(cmd->offset, PAGE_SIZE);
	end = round_up(cmd->offset + cmd->length, PAGE_SIZE);
	map->pmo = pmo;
	map->access_mode = cmd->access_mode;
	map->view_offset = start;
	map->length = end - start;
	map->nr_pages = map->length >> PAGE_SHIFT;
	INIT_LIST_HEAD(&map->pmo_node);

	if (cmd->access_mode == DXGPMO_ACCESS_USER) {
		unsigned long prot = PROT_READ |
			(pmo->backing->readonly ? 0 : PROT_WRITE);
		unsigned long addr;

		ret = -ENOMEM;
		if (dxgpmo_should_fail(file))
			goto err_free;
		addr = vm_mmap(ucmd->filp, 0, map->length, prot, MAP_SHARED,
			       ((u64)pmo->window->pgoff << PAGE_SHIFT) + start);
		if (IS_ERR_VALUE(addr)) {
			ret = (long)addr;
			goto err_free;
		}
		map->address = addr;
		mmgrab(current->mm);
		map->mm = current->mm;
	} else {
		ret = -ENOMEM;
		if (dxgpmo_should_fail(file))
			goto err_free;
		ret = dxgpmo_map_kernel(map);
		if (ret)
			goto err_free;
	}

	ret = dxgpmo_object_insert(file, &map->obj, DXGPMO_OBJ_MAP);
	if (ret)
		goto err_unmap;
	if (cmd->access_mode == DXGPMO_ACCESS_KERNEL)
		map->address = DXGPMO_KMAP_TOKEN_BASE +
			       ((u64)map->obj.id << PAGE_SHIFT);
	list_add_tail(&map->pmo_node, &pmo->maps);
	dxgpmo_count(file, DXGPMO_CNT_MAPS, 1);
	cmd->map_id = map->obj.id;
	cmd->address = map->address;
	cmd->offset -= start;
	cmd->length = map->length;
	mutex_unlock(&file->lock);
	return dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));

err_unmap:
	if (map->mm)
		vm_munmap(map->address, map->length);
	dxgpmo_map_release(map);
err_free:
	kfree(map);
out_unlock:
	mutex_unlock(&file->lock);
	return ret;
}

int dxgpmo_ioctl_unmap(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_unmap *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_cpu_map *map, *found = NULL;
	struct dxgpmo_pmo *pmo;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	mutex_lock(&file->lock);
	pmo = dxgpmo_pmo_find(file, cmd->pmo_id);
	if (!pmo) {
		ret = -ENOENT;
		goto out_unlock;
	}
	list_for_each_entry(map, &pmo->maps, pmo_node) {
		if (map->address == cmd->address) {
			found = map;
			break;
		}
	}
	if (!found || found->length != cmd->length) {
		ret = -EINVAL;
		goto out_unlock;
	}
	if (found->mm && found->mm != current->mm) {
		/* A user view belongs to the process that made it. */
		ret = -EPERM;
		goto out_unlock;
	}
	if (found->mm) {
		if (dxgpmo_user_view_intact(found))
			vm_munmap(found->address, found->length);
		else
			ret = -ENOENT;	/* already unmapped: forget it */
	}
	dxgpmo_object_remove(file, &found->obj);
	dxgpmo_map_free(file, found);
out_unlock:
	mutex_unlock(&file->lock);
	return ret;
}

static int dxgpmo_kmap_rw_io(struct dxgpmo_cpu_map *map, bool write, u64 offset,
			     u64 length, void __user *ubuf)
{
	u64 done;

	/* Registers: 32-bit accesses only (edu ignores anything else). */
	if (!IS_ALIGNED(offset, 4) || !IS_ALIGNED(length, 4))
		return -EINVAL;
	for (done = 0; done < length; done += 4) {
		u32 val;

		if (write) {
			if (get_user(val, (u32 __user *)(ubuf + done)))
				return -EFAULT;
			writel(val, map->io + offset + done);
		} else {
			val = readl(map->io + offset + done);
			if (put_user(val, (u32 __user *)(ubuf + done)))
				return -EFAULT;
		}
	}
	return 0;
}

int dxgpmo_ioctl_kmap_rw(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_kmap_rw *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	void __user *ubuf = u64_to_user_ptr(cmd->buffer);
	bool write = cmd->flags & DXGPMO_KMAP_WRITE;
	struct dxgpmo_cpu_map *map;
	int ret = 0;

	if ((cmd->flags & ~DXGPMO_KMAP_WRITE) || cmd->__reserved)
		return -EINVAL;
	if (!cmd->length || cmd->offset + cmd->length < cmd->offset)
		return -EINVAL;
	mutex_lock(&file->lock);
	map = dxgpmo_map_find(file, cmd->map_id);
	if (!map) {
		ret = -ENOENT;
		goto out_unlock;
	}
	if (map->access_mode != DXGPMO_ACCESS_KERNEL ||
	    cmd->offset + cmd->length > map->length) {
		ret = -EINVAL;
		goto out_unlock;
	}
	if (write && map->pmo->backing->readonly) {
		ret = -EACCES;
		goto out_unlock;
	}
	if (map->io)
		ret = dxgpmo_kmap_rw_io(map, write, cmd->offset, cmd->length,
					ubuf);
	else if (write)
		ret = copy_from_user(map->vaddr + cmd->offset, ubuf,
				     cmd->length) ? -EFAULT : 0;
	else
		ret = copy_to_user(ubuf, map->vaddr + cmd->offset,
				   cmd->length) ? -EFAULT : 0;
out_unlock:
	mutex_unlock(&file->lock);
	return ret;
}
