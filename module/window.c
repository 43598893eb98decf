// SPDX-License-Identifier: GPL-2.0
/*
 * mmap(2) windows of objects.  Every object has a window in the mmap offset
 * space of /dev/dxgpmo; a window's offsets are unique module-wide for as
 * long as the window lives (until its object is destroyed and its last
 * view is gone) and any view UNMAP detached from it, so zapping a window
 * in the shared address_space touches that object's mappings only.  The
 * file's tree maps offsets to windows, so a file can map only its own
 * objects.  DESTROY revokes the window:
 * PTEs zapped, later faults SIGBUS, while the pages live on for whoever
 * else holds them (ADLs, dma-bufs).
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "adapter.h"
#include "backing.h"
#include "compat.h"
#include "inject.h"
#include "object.h"
#include "privilege.h"
#include "segment.h"
#include "window.h"

/*
 * The page offsets taken by live windows, and by the views UNMAP detached
 * from them.  A range is given back only when neither is left: then no
 * VMA lies at those offsets in the shared mapping, so a later window
 * there is reached only through its own VMAs, and zapping its range
 * walks only those.  A detached view keeps its range (it holds the
 * range's reference, not the window's): every view, detached or not, is
 * linked into the one address_space all windows share, and a window's
 * DESTROY zaps its range there under that mapping's lock.  Were the range
 * handed out again, every DESTROY at it, by any process, would walk each
 * detached view a process left behind (a process that never munmaps
 * them can leave tens of thousands: 100x the cost of a create + destroy,
 * and worse with threads, was measured).  Reuse keeps create/destroy
 * loops from using the offset space up, as DRM's offset manager does.
 * Each entry is its struct dxgpmo_window_offsets, for checking what is
 * erased; windows are found through their file's tree, never through
 * this one.
 *
 * A gap search and a store under one hold of a mutex of ours (the tree's
 * external lock): mtree_alloc_range() is not used because 6.1's corrupts
 * the tree (an oops in mas_spanning_rebalance seen on the third window).
 * Nodes are not charged to a memory cgroup: they belong to every user's
 * windows at once.
 */
static DEFINE_MUTEX(dxgpmo_window_offsets_lock);
static struct maple_tree dxgpmo_window_offsets =
	MTREE_INIT_EXT(dxgpmo_window_offsets,
		       MT_FLAGS_ALLOC_RANGE | MT_FLAGS_LOCK_EXTERN,
		       dxgpmo_window_offsets_lock);
/* Ranges an erase could not give back (it may need memory). */
static unsigned long dxgpmo_window_offsets_lost;

struct dxgpmo_window_offsets {
	struct kref kref;	/* the window, and each detached view */
	unsigned long pgoff;
	unsigned long nr_pages;
};

/*
 * Byte offsets of windows (mmap_offset, the loff_t of a zap) must fit a
 * signed 64-bit offset.
 */
#define DXGPMO_WINDOW_FIRST	(DXGPMO_OBJECT_MMAP_BASE >> PAGE_SHIFT)
#define DXGPMO_WINDOW_LAST	((MAX_LFS_FILESIZE >> PAGE_SHIFT) - 1)

static int dxgpmo_window_take_offsets(struct dxgpmo_window *window)
{
	MA_STATE(mas, &dxgpmo_window_offsets, 0, 0);
	unsigned long nr = window->nr_pages;
	struct dxgpmo_window_offsets *offsets;
	int ret;

	if (!nr || nr > DXGPMO_WINDOW_LAST - DXGPMO_WINDOW_FIRST + 1)
		return -ENOMEM;
	offsets = kzalloc(sizeof(*offsets), GFP_KERNEL_ACCOUNT);
	if (!offsets)
		return -ENOMEM;
	kref_init(&offsets->kref);
	offsets->nr_pages = nr;
	mutex_lock(&dxgpmo_window_offsets_lock);
	ret = mas_empty_area(&mas, DXGPMO_WINDOW_FIRST, DXGPMO_WINDOW_LAST,
			     nr);
	WARN_ON_ONCE(ret == -EINVAL);
	if (!ret) {
		offsets->pgoff = mas.index;
		mas_set_range(&mas, offsets->pgoff, offsets->pgoff + nr - 1);
		ret = mas_store_gfp(&mas, offsets, GFP_KERNEL);
	}
	mutex_unlock(&dxgpmo_window_offsets_lock);
	if (ret) {
		kfree(offsets);
		/* -EBUSY: the offset space is full, as many objects exist as fit. */
		return -ENOMEM;
	}
	window->offsets = offsets;
	window->pgoff = offsets->pgoff;
	return 0;
}

/*
 * The last holder is gone: the range goes back.  An erase that cannot
 * allocate leaves the range taken: offsets are lost, never handed out
 * twice, and their entry stays valid until the module's exit frees it.
 */
static void dxgpmo_window_offsets_release(struct kref *kref)
{
	struct dxgpmo_window_offsets *offsets =
		container_of(kref, struct dxgpmo_window_offsets, kref);
	MA_STATE(mas, &dxgpmo_window_offsets, offsets->pgoff, offsets->pgoff);
	void *entry;

	mutex_lock(&dxgpmo_window_offsets_lock);
	entry = mas_walk(&mas);
	if (!WARN_ON_ONCE(entry != offsets || mas.index != offsets->pgoff ||
			  mas.last != offsets->pgoff + offsets->nr_pages - 1)) {
		mas_set(&mas, offsets->pgoff);
		mas_erase(&mas);
		mas_set(&mas, offsets->pgoff);
		if (mas_walk(&mas)) {
			dxgpmo_window_offsets_lost++;
			pr_warn_once("dxgpmo: out of memory giving back an mmap offset range; it stays taken\n");
			offsets = NULL;
		}
	}
	mutex_unlock(&dxgpmo_window_offsets_lock);
	kfree(offsets);
}

static void dxgpmo_window_offsets_put(struct dxgpmo_window_offsets *offsets)
{
	kref_put(&offsets->kref, dxgpmo_window_offsets_release);
}

void dxgpmo_window_exit(void)
{
	MA_STATE(mas, &dxgpmo_window_offsets, 0, 0);
	unsigned long left = 0;
	void *entry;

	mutex_lock(&dxgpmo_window_offsets_lock);
	mas_for_each(&mas, entry, ULONG_MAX)
		left++;
	/* Lost ranges only, which nothing holds; else leak what is left. */
	if (!WARN_ON(left != dxgpmo_window_offsets_lost)) {
		mas_set(&mas, 0);
		mas_for_each(&mas, entry, ULONG_MAX)
			kfree(entry);
	}
	__mt_destroy(&dxgpmo_window_offsets);
	mutex_unlock(&dxgpmo_window_offsets_lock);
}

static void dxgpmo_window_release(struct kref *kref)
{
	struct dxgpmo_window *window =
		container_of(kref, struct dxgpmo_window, kref);

	dxgpmo_window_offsets_put(window->offsets);
	dxgpmo_backing_put(window->backing);
	kfree(window);
}

static void dxgpmo_window_put(struct dxgpmo_window *window)
{
	kref_put(&window->kref, dxgpmo_window_release);
}

static bool dxgpmo_window_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct dxgpmo_window, node)->pgoff <
	       rb_entry(b, struct dxgpmo_window, node)->pgoff;
}

/* Windows never overlap: the one holding the page is the only match. */
static int dxgpmo_window_cmp(const void *key, const struct rb_node *node)
{
	const struct dxgpmo_window *window =
		rb_entry(node, struct dxgpmo_window, node);
	unsigned long pgoff = *(const unsigned long *)key;

	if (pgoff < window->pgoff)
		return -1;
	return pgoff - window->pgoff >= window->nr_pages;
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
	window->nr_pages = backing->nr_pages;
	ret = dxgpmo_window_take_offsets(window);
	if (ret) {
		kfree(window);
		return ERR_PTR(ret);
	}
	kref_init(&window->kref);
	init_rwsem(&window->lock);
	dxgpmo_backing_get(backing);
	window->backing = backing;
	window->mapping = backing->ops->view_mapping ?
			  backing->ops->view_mapping(backing) : file->mapping;
	spin_lock(&file->windows_lock);
	rb_add(&window->node, &file->windows, dxgpmo_window_less);
	spin_unlock(&file->windows_lock);
	return window;
}

/*
 * The object is going away: no new mmap finds the window, existing PTEs are
 * zapped, and faults after this get SIGBUS.  Drops the object's reference.
 */
void dxgpmo_window_revoke(struct dxgpmo_file *file,
			  struct dxgpmo_window *window)
{
	spin_lock(&file->windows_lock);
	rb_erase(&window->node, &file->windows);
	spin_unlock(&file->windows_lock);
	down_write(&window->lock);
	window->revoked = true;
	unmap_mapping_range(window->mapping,
			    (loff_t)window->pgoff << PAGE_SHIFT,
			    (loff_t)window->nr_pages << PAGE_SHIFT, 1);
	up_write(&window->lock);
	dxgpmo_window_put(window);
}

/*
 * Every VMA attached to a window holds a reference on it and is one user
 * view of its object, until it is closed or detached.
 */
static void dxgpmo_window_view_put(struct dxgpmo_window *window)
{
	dxgpmo_backing_view_close(window->backing);
	dxgpmo_window_put(window);
}

static void dxgpmo_vm_open(struct vm_area_struct *vma)
{
	struct dxgpmo_window *window = vma->vm_private_data;

	kref_get(&window->kref);
	dxgpmo_backing_view_open(window->backing);
}

static void dxgpmo_vm_close(struct vm_area_struct *vma)
{
	dxgpmo_window_view_put(vma->vm_private_data);
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

/*
 * A VMA detached by UNMAP has no window: it maps nothing, ever.  It and
 * every copy and piece of it hold the window's offsets (see the top of
 * this file).
 */
static void dxgpmo_detached_vm_open(struct vm_area_struct *vma)
{
	struct dxgpmo_window_offsets *offsets = vma->vm_private_data;

	kref_get(&offsets->kref);
}

static void dxgpmo_detached_vm_close(struct vm_area_struct *vma)
{
	dxgpmo_window_offsets_put(vma->vm_private_data);
}

static vm_fault_t dxgpmo_detached_vm_fault(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct dxgpmo_detached_vm_ops = {
	.open = dxgpmo_detached_vm_open,
	.close = dxgpmo_detached_vm_close,
	.fault = dxgpmo_detached_vm_fault,
};

/*
 * UNMAP of a user view made by MAP: if the caller's VMA at address is still
 * exactly that view, its PTEs are zapped and it is detached from the
 * window (it maps nothing from now on, and holds only the window's
 * offsets), all under one hold of mmap_lock.  The address range itself stays reserved until the
 * process unmaps it: a module cannot check a VMA and unmap it under one
 * hold of the lock (do_munmap() is not exported), and checking, dropping
 * the lock and calling vm_munmap() would tear down whatever another thread
 * mapped there in between.  The VMA then holds a file of its own instead
 * of the device file (detached, from dxgpmo_detached_file() of the
 * window's mapping; consumed), so closing the device file still releases
 * the driver instance, and the window's offsets instead of the window, so
 * that no object's pages are kept.  -ENOENT when the view is not there
 * any more.
 */
int dxgpmo_window_detach_view(struct dxgpmo_window *window,
			      unsigned long address, unsigned long length,
			      unsigned long view_first, struct file *detached)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int ret = -ENOENT;

	mmap_write_lock(mm);
	vma = vma_lookup(mm, address);
	if (vma && vma->vm_ops == &dxgpmo_vm_ops &&
	    vma->vm_private_data == window && vma->vm_start == address &&
	    vma->vm_end == address + length &&
	    vma->vm_pgoff == window->pgoff + view_first) {
		dxgpmo_vma_start_write(vma);
		kref_get(&window->offsets->kref);
		vma->vm_private_data = window->offsets;
		vma->vm_ops = &dxgpmo_detached_vm_ops;
		vma_set_file(vma, detached);
		/*
		 * Faults of this VMA see no window from here (they run under
		 * mmap_lock or the VMA's own lock, both held here); what it
		 * mapped goes.  Only its own entries: a zap of the window's
		 * file range would take the other views' too, and walk every
		 * view still at those offsets, detached ones included.  Each
		 * backing makes its views PFN maps, the one kind the helper
		 * zaps (it passes over any other without a word).
		 */
		if (!WARN_ON_ONCE(!(vma->vm_flags & VM_PFNMAP)))
			dxgpmo_zap_pfn_range(vma, vma->vm_start, length);
		else
			unmap_mapping_range(window->mapping,
					    (loff_t)vma->vm_pgoff << PAGE_SHIFT,
					    length, 1);
		ret = 0;
	}
	mmap_write_unlock(mm);
	fput(detached);		/* the VMA took its own reference */
	if (!ret)
		dxgpmo_window_view_put(window);	/* the VMA's */
	return ret;
}

/*
 * A segment window, at adapter_id << DXGPMO_SEGMENT_SHIFT: any file that
 * sees the adapter may view its segment; the view holds the segment, not
 * the adapter.
 */
static int dxgpmo_window_mmap_segment(struct dxgpmo_file *file,
				      struct vm_area_struct *vma)
{
	u32 id = ((u64)vma->vm_pgoff << PAGE_SHIFT) >> DXGPMO_SEGMENT_SHIFT;
	struct dxgpmo_adapter *adapter;
	int ret;

	adapter = dxgpmo_adapter_get(file, id);
	if (IS_ERR(adapter))
		return -EINVAL;
	ret = dxgpmo_segment_mmap(adapter->segment, vma);
	dxgpmo_adapter_put(adapter);
	return ret;
}

/*
 * mmap(2) of the device: only inside one of this file's object windows,
 * shared, never writable for a read-only object; of I/O space only for
 * whom the object itself needs (CAP_SYS_RAWIO).  Called with the mmap lock
 * held: takes no file lock.
 */
int dxgpmo_fops_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct dxgpmo_file *file = filp->private_data;
	unsigned long last = vma->vm_pgoff + vma_pages(vma) - 1;
	struct dxgpmo_window *window;
	struct dxgpmo_backing *backing;
	struct rb_node *node;
	int ret;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (last < vma->vm_pgoff)
		return -EINVAL;
	if (vma->vm_pgoff < DXGPMO_OBJECT_MMAP_BASE >> PAGE_SHIFT)
		return dxgpmo_window_mmap_segment(file, vma);
	/*
	 * A window in the tree holds the object's reference, and revoke takes
	 * it out of the tree before dropping that: under the tree's lock the
	 * window cannot be freed between the lookup and the get.
	 */
	spin_lock(&file->windows_lock);
	node = rb_find(&vma->vm_pgoff, &file->windows, dxgpmo_window_cmp);
	window = node ? rb_entry(node, struct dxgpmo_window, node) : NULL;
	if (window && last < window->pgoff + window->nr_pages)
		kref_get(&window->kref);
	else
		window = NULL;
	spin_unlock(&file->windows_lock);
	if (!window)
		return -EINVAL;

	backing = window->backing;
	ret = backing->ops->raw_io ? dxgpmo_may_use_io_space(file) : 0;
	if (!ret)
		ret = dxgpmo_backing_vma_setup(backing, vma);
	if (ret) {
		dxgpmo_window_put(window);
		return ret;
	}
	dxgpmo_backing_view_open(backing);
	vma->vm_private_data = window;
	vma->vm_ops = &dxgpmo_vm_ops;
	return 0;
}

