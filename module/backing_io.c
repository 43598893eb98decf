// SPDX-License-Identifier: GPL-2.0
/*
 * IO_SPACE objects: a range of a memory BAR of one of the module's own
 * adapters.  Nothing is allocated and there are no pages, so no dma-bufs.
 * Kernel views are ioremaps accessed 32 bits at a time; views in a process
 * (the kernel-mode maps of a program playing the driver, MAP_IN_PROCESS)
 * are PFN maps of the BAR, never cached; an ADL maps the range for the
 * adapter as one resource (a peer-to-peer address).  All of them stop
 * working when the adapter is removed.  An object that covers registers
 * the module itself programs (edu's DMA engine) is read-only: its views
 * only read, and it has no ADLs, so nothing but the module ever starts
 * that engine.
 */
#include <linux/dma-mapping.h>
#include <linux/file.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "adapter.h"
#include "backing.h"
#include "backing_io.h"
#include "compat.h"
#include "dxgpmo.h"
#include "fs.h"

/*
 * The BAR of a dxgpmo adapter that holds [io_base, + nr_pages): no other
 * device's, whose removal nothing here would see.  The backing holds the
 * adapter, released by dxgpmo_io_release().
 */
static struct dxgpmo_backing *
dxgpmo_io_alloc(const struct dxgpmo_alloc_request *req)
{
	struct dxgpmo_backing *backing;
	struct dxgpmo_adapter *adapter;
	bool registers, prefetchable;

	adapter = dxgpmo_adapter_get_by_bar(req->io_base,
					    req->nr_pages << PAGE_SHIFT,
					    &registers, &prefetchable);
	if (!adapter)
		return ERR_PTR(-EPERM);
	backing = dxgpmo_backing_new(0, req, &dxgpmo_io_backing_ops);
	if (!backing) {
		dxgpmo_adapter_put(adapter);
		return ERR_PTR(-ENOMEM);
	}
	backing->io_base = req->io_base;
	backing->io_adapter = adapter;
	backing->readonly = registers;	/* the module's registers */
	/*
	 * Write-combining lets the CPU read speculatively and merge writes:
	 * only for a prefetchable BAR (as PCI's resourceN_wc files), never
	 * for registers; other WC objects are mapped uncached.
	 */
	backing->io_wc = req->cache_type == DXGPMO_CACHE_WRITE_COMBINED &&
			 prefetchable && !registers;
	return backing;
}

static void dxgpmo_io_release(struct dxgpmo_backing *backing)
{
	dxgpmo_adapter_put(backing->io_adapter);
}

/* One DMA segment naming the resource; no struct pages behind it. */
static int dxgpmo_io_dma_map(struct dxgpmo_backing *backing,
			     struct dxgpmo_dma_map *m, bool behind_iommu)
{
	size_t len = m->nr_pages << PAGE_SHIFT;
	dma_addr_t dma;

	/* A device never DMAs to or from the registers the module drives. */
	if (backing->readonly)
		return -EPERM;
	/*
	 * ALLOCATE_ADL holds the adapter's access (the ADL's adapter is the
	 * BAR's, see dxgpmo_cmd_allocate_adl) with its removal checked: the
	 * range is still the device's.
	 */
	lockdep_assert_held_read(&backing->io_adapter->access_lock);
	if (WARN_ON_ONCE(m->dev != backing->io_adapter->dev))
		return -EINVAL;
	dma = dma_map_resource(m->dev,
			       backing->io_base + (m->first << PAGE_SHIFT),
			       len, DMA_BIDIRECTIONAL, 0);
	if (dma_mapping_error(m->dev, dma))
		return -ENOMEM;
	dxgpmo_dma_map_single_entry(m);
	sg_dma_address(m->sgt.sgl) = dma;
	sg_dma_len(m->sgt.sgl) = len;
	m->mapped = true;
	return 0;
}

static void dxgpmo_io_dma_unmap(struct dxgpmo_backing *backing,
				struct dxgpmo_dma_map *m)
{
	dma_unmap_resource(m->dev, sg_dma_address(m->sgt.sgl),
			   m->nr_pages << PAGE_SHIFT, DMA_BIDIRECTIONAL, 0);
	m->mapped = false;
}

static int dxgpmo_io_kmap(struct dxgpmo_backing *backing,
			  struct dxgpmo_kview *view)
{
	phys_addr_t phys = backing->io_base + (view->first << PAGE_SHIFT);
	size_t len = view->nr_pages << PAGE_SHIFT;

	/*
	 * Once the BAR's device is gone the range may belong to a device
	 * enumerated since, whose driver's memtype this would clash with.
	 */
	if (!dxgpmo_adapter_begin_access(backing->io_adapter))
		return -ENODEV;
	if (backing->io_wc)
		view->io = ioremap_wc(phys, len);
	else
		view->io = ioremap(phys, len);
	dxgpmo_adapter_end_access(backing->io_adapter);
	return view->io ? 0 : -ENOMEM;
}

static void dxgpmo_io_kunmap(struct dxgpmo_backing *backing,
			     struct dxgpmo_kview *view)
{
	iounmap(view->io);
	view->io = NULL;
}

/*
 * Registers: 32-bit accesses only (edu ignores anything else), and only
 * while the adapter is there: a removed device's BAR decodes nothing, or
 * something else.  User memory is copied outside that section, so a slow
 * user page never holds up the adapter's removal.
 */
static int dxgpmo_io_kview_rw(struct dxgpmo_backing *backing,
			      struct dxgpmo_kview *view, bool write,
			      u64 offset, u64 length, void __user *ubuf)
{
	struct dxgpmo_adapter *adapter = backing->io_adapter;
	u32 *buf;
	u64 i;
	int ret = 0;

	if (!IS_ALIGNED(offset, 4) || !IS_ALIGNED(length, 4))
		return -EINVAL;
	buf = kvmalloc(length, GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;
	if (write && copy_from_user(buf, ubuf, length)) {
		ret = -EFAULT;
		goto out;
	}
	if (!dxgpmo_adapter_begin_access(adapter)) {
		ret = -ENODEV;
		goto out;
	}
	for (i = 0; i < length / 4; i++) {
		if (write)
			writel(buf[i], view->io + offset + i * 4);
		else
			buf[i] = readl(view->io + offset + i * 4);
	}
	dxgpmo_adapter_end_access(adapter);
	if (!write && copy_to_user(ubuf, buf, length))
		ret = -EFAULT;
out:
	kvfree(buf);
	return ret;
}

/*
 * Views of a BAR live in their adapter's mapping, not the device file's,
 * so that the adapter's removal zaps every one of them in one call without
 * touching RAM objects' PTEs (and the dirty bits in them).
 */
static struct address_space *
dxgpmo_io_view_mapping(struct dxgpmo_backing *backing)
{
	return backing->io_adapter->bar_inode->i_mapping;
}

static int dxgpmo_io_vma_setup(struct dxgpmo_backing *backing,
			       struct vm_area_struct *vma)
{
	pgprot_t prot = vm_get_page_prot(vma->vm_flags);
	struct file *file;

	/* The fault is what holds the device back; this saves a view. */
	if (READ_ONCE(backing->io_adapter->removed))
		return -ENODEV;
	file = dxgpmo_mapping_file(dxgpmo_io_view_mapping(backing));
	if (IS_ERR(file))
		return PTR_ERR(file);
	/* Not RAM: no get_user_pages(), no core dump, no access_process_vm(). */
	dxgpmo_vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND |
				 VM_DONTDUMP);
	/*
	 * Set here, not per fault: mprotect() keeps the memory type of the
	 * VMA's protection.  A BAR is never encrypted memory.  Registers get
	 * the type ioremap() gives them, as PCI's sysfs resource files do
	 * (arm64: Device-nGnRE; x86: UC-).
	 */
	vma->vm_page_prot = pgprot_decrypted(backing->io_wc ?
					     pgprot_writecombine(prot) :
					     pgprot_device(prot));
	vma_set_file(vma, file);
	fput(file);		/* the VMA holds its own reference */
	return 0;
}

/*
 * A page of the BAR, while the adapter is there: once it is removed the
 * range may decode nothing or belong to a device enumerated since, and
 * the removal zaps what was mapped before.
 */
static vm_fault_t dxgpmo_io_fault(struct dxgpmo_backing *backing,
				  struct vm_fault *vmf, unsigned long index)
{
	struct dxgpmo_adapter *adapter = backing->io_adapter;
	vm_fault_t ret;

	if (!dxgpmo_adapter_begin_access(adapter))
		return VM_FAULT_SIGBUS;
	ret = vmf_insert_pfn(vmf->vma, vmf->address,
			     PHYS_PFN(backing->io_base) + index);
	dxgpmo_adapter_end_access(adapter);
	return ret;
}

const struct dxgpmo_backing_ops dxgpmo_io_backing_ops = {
	.alloc = dxgpmo_io_alloc,
	.release = dxgpmo_io_release,
	.dma_map = dxgpmo_io_dma_map,
	.dma_unmap = dxgpmo_io_dma_unmap,
	.vma_setup = dxgpmo_io_vma_setup,
	.view_mapping = dxgpmo_io_view_mapping,
	.fault = dxgpmo_io_fault,
	.map_kernel = dxgpmo_io_kmap,
	.unmap_kernel = dxgpmo_io_kunmap,
	.kview_rw = dxgpmo_io_kview_rw,
	.contiguous = true,
	.kernel_mode_only = true,
	.raw_io = true,
};
