// SPDX-License-Identifier: GPL-2.0
/*
 * Dxgkrnl's memory interface for a Windows display driver's code
 * (include/linux/dxgkrnl.h): DXGKRNL_INTERFACE's physical memory object
 * callbacks over the in-kernel API's commands, and the driver's
 * memory-basis DDIs as the client ops that basis.c reaches.  A thin
 * layer: each callback checks what the in-kernel API cannot (its
 * handles), fills the command's block from the Windows one, and turns
 * the errno into an NTSTATUS.
 *
 * Windows' callbacks carry no device: every handle here says which
 * interface it belongs to, in its upper 32 bits (the interface's id) over
 * the object's id in the client; DeviceHandle is the interface's id alone.
 * A Create without hAdapter has no handle at all: it belongs to the
 * interface the calling module started, if it started exactly one.
 *
 * A callback holds its interface (users) from its lookup to its return,
 * and no lock: it may sleep, take the mmap lock, be called from the
 * driver's DDIs.  The stop first has the driver's DDIs drained and its
 * bases given back (their destroys may use the callbacks), then takes the
 * interface out of the table and waits for the callbacks in flight, then
 * closes the client.  The interface's memory is the device's devres
 * entry's, freed when the driver lets go of the device.
 */
#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/dma-buf.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <linux/dxgkrnl.h>
#include <linux/dxgpmo.h>

#include "client.h"
#include "compat.h"
#include "dxgk_dxgpmo.h"
#include "dxgkrnl.h"

struct dxgkrnl_iface {
	u32 id;
	/* Callbacks in flight, plus one until the stop takes it out. */
	refcount_t users;
	wait_queue_head_t idle;
	/* The stop's, claimed once by dxgkrnl_stop_device() or devres. */
	atomic_t stop_claimed;
	struct dxgpmo_client *client;
	struct device *dev;
	struct module *owner;
	HANDLE miniport_device_context;
	DXGK_LINUX_MEMORY_BASIS_DDIS ddis;
	unsigned int nr_segments;
	DXGK_LINUX_SEGMENT segments[DXGKRNL_MAX_SEGMENTS];
	/*
	 * The ADLs handed out (struct dxgkrnl_adl) and the user-mode views
	 * made (struct dxgkrnl_user_view), freed at the stop.
	 */
	struct mutex adls_lock;
	struct list_head adls;
	struct list_head user_views;
};

/*
 * A user-mode map: a mapping of the object's dma-buf in a process, and
 * what the unmap recognises it by.  A view whose process has gone is
 * dropped at the next user-mode map, or at the stop.
 */
struct dxgkrnl_user_view {
	struct list_head node;
	struct mm_struct *mm;		/* grabbed */
	struct file *file;		/* the dma-buf's, referenced */
	unsigned long address;
	unsigned long length;
	u32 pmo_id;
};

/* A DXGK_ADL handed to the driver, with the pages it points to. */
struct dxgkrnl_adl {
	DXGK_ADL adl;
	struct list_head node;
	HANDLE amo;
	u32 adl_id;
	DXGK_PAGE_NUMBER pages[];
};

/* Interfaces by id; a lookup takes a user under the xarray's lock. */
static DEFINE_XARRAY_ALLOC(dxgkrnl_ifaces);
static u32 dxgkrnl_next_id;

static_assert(sizeof(DXGK_PAGE_NUMBER) == sizeof(u64),
	      "an ADL's pages are filled as the module's u64 page numbers");

/* DXGK_STATUS_ERRNO_TABLE: the errno each NTSTATUS stands for. */
struct dxgkrnl_status_row {
	int err;
	NTSTATUS status;
};

static const struct dxgkrnl_status_row dxgkrnl_statuses[] = {
#define DXGKRNL_STATUS_ROW(errno, status) { errno, status },
	DXGK_STATUS_ERRNO_TABLE(DXGKRNL_STATUS_ROW)
#undef DXGKRNL_STATUS_ROW
};

/* STATUS_UNSUCCESSFUL for an errno the table does not have. */
VISIBLE_IF_KUNIT NTSTATUS dxgkrnl_status(int err)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dxgkrnl_statuses); i++)
		if (dxgkrnl_statuses[i].err == -err)
			return dxgkrnl_statuses[i].status;
	return STATUS_UNSUCCESSFUL;
}

/* 0 for any success, -EIO for an error the table does not have. */
VISIBLE_IF_KUNIT int dxgkrnl_errno(NTSTATUS status)
{
	unsigned int i;

	if (NT_SUCCESS(status))
		return 0;
	for (i = 0; i < ARRAY_SIZE(dxgkrnl_statuses); i++)
		if (dxgkrnl_statuses[i].status == status)
			return -dxgkrnl_statuses[i].err;
	return -EIO;
}

VISIBLE_IF_KUNIT HANDLE dxgkrnl_make_handle(u32 iface_id, u32 object_id)
{
	return (HANDLE)(uintptr_t)((u64)iface_id << 32 | object_id);
}

/*
 * The interface a handle names, held, the object's id in *object_id (0
 * for DeviceHandle); NULL for a handle no running interface made.
 */
VISIBLE_IF_KUNIT struct dxgkrnl_iface *dxgkrnl_iface_get(HANDLE handle,
							 u32 *object_id)
{
	u64 value = (uintptr_t)handle;
	struct dxgkrnl_iface *iface;

	*object_id = lower_32_bits(value);
	xa_lock(&dxgkrnl_ifaces);
	iface = xa_load(&dxgkrnl_ifaces, upper_32_bits(value));
	if (iface && !refcount_inc_not_zero(&iface->users))
		iface = NULL;
	xa_unlock(&dxgkrnl_ifaces);
	return iface;
}

VISIBLE_IF_KUNIT void dxgkrnl_iface_put(struct dxgkrnl_iface *iface)
{
	if (refcount_dec_and_test(&iface->users))
		wake_up_all(&iface->idle);
}

/* An object's handle: its interface, held, and its id, never 0. */
static struct dxgkrnl_iface *dxgkrnl_object_get(HANDLE handle, u32 *object_id)
{
	struct dxgkrnl_iface *iface = dxgkrnl_iface_get(handle, object_id);

	if (iface && !*object_id) {
		dxgkrnl_iface_put(iface);
		return NULL;
	}
	return iface;
}

/* Whether handle is one of iface's, held already; its id in *object_id. */
static bool dxgkrnl_handle_in(HANDLE handle, const struct dxgkrnl_iface *iface,
			      u32 *object_id)
{
	u64 value = (uintptr_t)handle;

	*object_id = lower_32_bits(value);
	return upper_32_bits(value) == iface->id;
}

/* The one interface the module at addr started, held; for a Create. */
static struct dxgkrnl_iface *dxgkrnl_iface_of_caller(unsigned long addr)
{
	struct dxgkrnl_iface *iface, *found = NULL;
	unsigned long id;

	xa_lock(&dxgkrnl_ifaces);
	xa_for_each(&dxgkrnl_ifaces, id, iface) {
		if (!within_module(addr, iface->owner))
			continue;
		if (found) {
			found = NULL;
			break;
		}
		found = iface;
	}
	if (found && !refcount_inc_not_zero(&found->users))
		found = NULL;
	xa_unlock(&dxgkrnl_ifaces);
	return found;
}

static noinline NTSTATUS
DxgkCbCreatePhysicalMemoryObject(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *pArgs)
{
	unsigned long caller = (unsigned long)__builtin_return_address(0);
	struct dxgpmo_create_pmo c = { .size = sizeof(c) };
	struct dxgkrnl_iface *iface;
	u32 object_id;
	NTSTATUS status;

	if (!pArgs)
		return STATUS_INVALID_PARAMETER;
	pArgs->hPhysicalMemoryObject = NULL;
	pArgs->hAdapterMemoryObject = NULL;
	if (dxgk_to_create_pmo(pArgs, &c))
		return STATUS_INVALID_PARAMETER;
	if (pArgs->hAdapter) {
		iface = dxgkrnl_iface_get(pArgs->hAdapter, &object_id);
		if (!iface)
			return STATUS_INVALID_HANDLE;
		status = STATUS_INVALID_HANDLE;
		if (object_id)
			goto out;
		c.adapter_id = dxgpmo_client_adapter_id(iface->client);
	} else {
		iface = dxgkrnl_iface_of_caller(caller);
		if (!iface)
			return STATUS_INVALID_PARAMETER;
	}
	status = dxgkrnl_status(dxgpmo_client_create_pmo(iface->client, &c));
	if (!NT_SUCCESS(status))
		goto out;
	pArgs->hPhysicalMemoryObject = dxgkrnl_make_handle(iface->id, c.pmo_id);
	if (c.amo_id)
		pArgs->hAdapterMemoryObject = dxgkrnl_make_handle(iface->id,
								  c.amo_id);
out:
	dxgkrnl_iface_put(iface);
	return status;
}

static NTSTATUS
DxgkCbDestroyPhysicalMemoryObject(const DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT *pArgs)
{
	struct dxgpmo_destroy_pmo d = { .size = sizeof(d) };
	struct dxgkrnl_iface *iface;
	NTSTATUS status = STATUS_INVALID_HANDLE;

	if (!pArgs)
		return STATUS_INVALID_PARAMETER;
	iface = dxgkrnl_object_get(pArgs->hPhysicalMemoryObject, &d.pmo_id);
	if (!iface)
		return STATUS_INVALID_HANDLE;
	if (pArgs->hAdapterMemoryObject &&
	    (!dxgkrnl_handle_in(pArgs->hAdapterMemoryObject, iface, &d.amo_id) ||
	     !d.amo_id))
		goto out;
	status = dxgkrnl_status(dxgpmo_client_destroy_pmo(iface->client, &d));
out:
	dxgkrnl_iface_put(iface);
	return status;
}

static NTSTATUS
DxgkCbOpenPhysicalMemoryObject(DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT *pArgs)
{
	struct dxgpmo_open_pmo o = { .size = sizeof(o) };
	struct dxgkrnl_iface *iface;
	NTSTATUS status = STATUS_INVALID_HANDLE;
	u32 adapter_object;

	if (!pArgs)
		return STATUS_INVALID_PARAMETER;
	pArgs->hAdapterMemoryObject = NULL;
	iface = dxgkrnl_object_get(pArgs->hPhysicalMemoryObject, &o.pmo_id);
	if (!iface)
		return STATUS_INVALID_HANDLE;
	if (!dxgkrnl_handle_in(pArgs->hAdapter, iface, &adapter_object) ||
	    adapter_object)
		goto out;
	o.adapter_id = dxgpmo_client_adapter_id(iface->client);
	status = dxgkrnl_status(dxgpmo_client_open_pmo(iface->client, &o));
	if (NT_SUCCESS(status))
		pArgs->hAdapterMemoryObject = dxgkrnl_make_handle(iface->id,
								  o.amo_id);
out:
	dxgkrnl_iface_put(iface);
	return status;
}

static NTSTATUS
DxgkCbClosePhysicalMemoryObject(const DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT *pArgs)
{
	struct dxgpmo_close_pmo c = { .size = sizeof(c) };
	struct dxgkrnl_iface *iface;
	NTSTATUS status;

	if (!pArgs)
		return STATUS_INVALID_PARAMETER;
	iface = dxgkrnl_object_get(pArgs->hAdapterMemoryObject, &c.amo_id);
	if (!iface)
		return STATUS_INVALID_HANDLE;
	status = dxgkrnl_status(dxgpmo_client_close_pmo(iface->client, &c));
	dxgkrnl_iface_put(iface);
	return status;
}

static NTSTATUS DxgkCbAllocateAdl(DXGKARGCB_ALLOCATE_ADL *pArgs)
{
	struct dxgpmo_allocate_adl a = { .size = sizeof(a) };
	struct dxgkrnl_iface *iface;
	struct dxgkrnl_adl *box;
	NTSTATUS status;
	int flags;
	u64 nr;

	if (!pArgs)
		return STATUS_INVALID_PARAMETER;
	pArgs->pAdl = NULL;
	flags = dxgk_to_adl_flags(pArgs->Flags);
	if (flags < 0 || !pArgs->Size ||
	    !PAGE_ALIGNED(pArgs->Size | pArgs->Offset))
		return STATUS_INVALID_PARAMETER;
	nr = pArgs->Size >> PAGE_SHIFT;
	if (nr > U32_MAX)
		return STATUS_INVALID_PARAMETER;
	iface = dxgkrnl_object_get(pArgs->hAdapterMemoryObject, &a.amo_id);
	if (!iface)
		return STATUS_INVALID_HANDLE;
	status = STATUS_NO_MEMORY;
	box = kvzalloc(struct_size(box, pages, nr), GFP_KERNEL);
	if (!box)
		goto out;
	a.flags = flags;
	a.offset = pArgs->Offset;
	a.length = pArgs->Size;
	a.pages_capacity = nr;
	status = dxgkrnl_status(dxgpmo_client_allocate_adl(iface->client, &a,
							   (u64 *)box->pages));
	if (!NT_SUCCESS(status)) {
		kvfree(box);
		goto out;
	}
	dxgk_adl_of_reply(&box->adl, box->pages, pArgs->Flags, &a);
	box->amo = pArgs->hAdapterMemoryObject;
	box->adl_id = a.adl_id;
	mutex_lock(&iface->adls_lock);
	list_add(&box->node, &iface->adls);
	mutex_unlock(&iface->adls_lock);
	pArgs->pAdl = &box->adl;
out:
	dxgkrnl_iface_put(iface);
	return status;
}

/* The ADL box of pAdl if the interface handed it out, off its list. */
static struct dxgkrnl_adl *dxgkrnl_take_adl(struct dxgkrnl_iface *iface,
					    const DXGK_ADL *adl, HANDLE amo)
{
	struct dxgkrnl_adl *box;

	mutex_lock(&iface->adls_lock);
	list_for_each_entry(box, &iface->adls, node) {
		if (&box->adl != adl || box->amo != amo)
			continue;
		list_del(&box->node);
		mutex_unlock(&iface->adls_lock);
		return box;
	}
	mutex_unlock(&iface->adls_lock);
	return NULL;
}

static NTSTATUS DxgkCbFreeAdl(const DXGKARGCB_FREE_ADL *pArgs)
{
	struct dxgpmo_free_adl f = { .size = sizeof(f) };
	struct dxgkrnl_iface *iface;
	struct dxgkrnl_adl *box;
	NTSTATUS status;
	u32 amo_id;

	if (!pArgs || !pArgs->pAdl)
		return STATUS_INVALID_PARAMETER;
	iface = dxgkrnl_object_get(pArgs->hAdapterMemoryObject, &amo_id);
	if (!iface)
		return STATUS_INVALID_HANDLE;
	box = dxgkrnl_take_adl(iface, pArgs->pAdl, pArgs->hAdapterMemoryObject);
	status = STATUS_INVALID_PARAMETER;
	if (!box)
		goto out;
	f.adl_id = box->adl_id;
	status = dxgkrnl_status(dxgpmo_client_free_adl(iface->client, &f));
	/* An ADL the module dropped (its object destroyed) is gone too. */
	if (NT_SUCCESS(status) || status == STATUS_INVALID_HANDLE) {
		kvfree(box);
	} else {
		mutex_lock(&iface->adls_lock);
		list_add(&box->node, &iface->adls);
		mutex_unlock(&iface->adls_lock);
	}
out:
	dxgkrnl_iface_put(iface);
	return status;
}

static void dxgkrnl_free_user_view(struct dxgkrnl_user_view *view)
{
	fput(view->file);
	mmdrop(view->mm);
	kfree(view);
}

/* The views of processes that have gone, which no unmap can name. */
static void dxgkrnl_prune_user_views(struct dxgkrnl_iface *iface)
{
	struct dxgkrnl_user_view *view, *next;
	LIST_HEAD(gone);

	mutex_lock(&iface->adls_lock);
	list_for_each_entry_safe(view, next, &iface->user_views, node)
		if (!atomic_read(&view->mm->mm_users))
			list_move(&view->node, &gone);
	mutex_unlock(&iface->adls_lock);
	list_for_each_entry_safe(view, next, &gone, node)
		dxgkrnl_free_user_view(view);
}

/*
 * User mode maps into the calling process, as on Windows: the object's
 * dma-buf, mmap()ed there with the object's cache type, whole pages (a
 * read-only SECTION read-only).  The view keeps the object's pages until
 * it is unmapped, by DxgkCbUnmapPhysicalMemory from the same process or
 * by the process.
 */
static NTSTATUS dxgkrnl_map_user(struct dxgkrnl_iface *iface, u32 pmo_id,
				 DXGKARGCB_MAP_PHYSICAL_MEMORY *pArgs)
{
	u64 start = round_down(pArgs->Offset, PAGE_SIZE), end;
	struct dxgkrnl_user_view *view;
	struct dma_buf *dmabuf;
	unsigned long address;

	/* A kernel thread has no process to map into. */
	if (!current->mm || (current->flags & PF_KTHREAD))
		return STATUS_INVALID_PARAMETER;
	if (!pArgs->Size || check_add_overflow((u64)pArgs->Offset,
					       (u64)pArgs->Size, &end) ||
	    end > U64_MAX - PAGE_SIZE)
		return STATUS_INVALID_PARAMETER;
	end = PAGE_ALIGN(end);
	dxgkrnl_prune_user_views(iface);
	view = kzalloc(sizeof(*view), GFP_KERNEL);
	if (!view)
		return STATUS_NO_MEMORY;
	dmabuf = dxgpmo_client_export_dmabuf(iface->client, pmo_id, false);
	if (IS_ERR(dmabuf)) {
		kfree(view);
		return dxgkrnl_status(PTR_ERR(dmabuf));
	}
	address = vm_mmap(dmabuf->file, 0, end - start,
			  PROT_READ | PROT_WRITE, MAP_SHARED, start);
	if (address == (unsigned long)-EACCES)
		address = vm_mmap(dmabuf->file, 0, end - start, PROT_READ,
				  MAP_SHARED, start);
	if (IS_ERR_VALUE(address)) {
		dma_buf_put(dmabuf);
		kfree(view);
		return dxgkrnl_status((long)address);
	}
	/* The view's reference: what the unmap recognises its mapping by. */
	view->file = dmabuf->file;
	mmgrab(current->mm);
	view->mm = current->mm;
	view->address = address;
	view->length = end - start;
	view->pmo_id = pmo_id;
	mutex_lock(&iface->adls_lock);
	list_add(&view->node, &iface->user_views);
	mutex_unlock(&iface->adls_lock);
	pArgs->pMappedAddress = (PVOID)address;
	pArgs->Offset -= start;
	pArgs->Size = end - start;
	return STATUS_SUCCESS;
}

static NTSTATUS DxgkCbMapPhysicalMemory(DXGKARGCB_MAP_PHYSICAL_MEMORY *pArgs)
{
	struct dxgpmo_map m = { .size = sizeof(m) };
	struct dxgkrnl_iface *iface;
	NTSTATUS status;

	if (!pArgs)
		return STATUS_INVALID_PARAMETER;
	pArgs->pMappedAddress = NULL;
	if (pArgs->AccessMode != DXGK_ACCESS_MODE_KERNEL_MODE &&
	    pArgs->AccessMode != DXGK_ACCESS_MODE_USER_MODE)
		return STATUS_INVALID_PARAMETER;
	iface = dxgkrnl_object_get(pArgs->hPhysicalMemoryObject, &m.pmo_id);
	if (!iface)
		return STATUS_INVALID_HANDLE;
	if (pArgs->AccessMode == DXGK_ACCESS_MODE_USER_MODE) {
		status = dxgkrnl_map_user(iface, m.pmo_id, pArgs);
		goto out;
	}
	m.access_mode = DXGPMO_ACCESS_KERNEL;
	m.offset = pArgs->Offset;
	m.length = pArgs->Size;
	status = dxgkrnl_status(dxgpmo_client_map(iface->client, &m));
	if (!NT_SUCCESS(status))
		goto out;
	pArgs->pMappedAddress = (PVOID)(uintptr_t)m.address;
	pArgs->Offset = m.offset;
	pArgs->Size = m.length;
out:
	dxgkrnl_iface_put(iface);
	return status;
}

/* The calling process's user-mode view at address, off the list. */
static struct dxgkrnl_user_view *
dxgkrnl_take_user_view(struct dxgkrnl_iface *iface, u32 pmo_id,
		       unsigned long address)
{
	struct dxgkrnl_user_view *view;

	mutex_lock(&iface->adls_lock);
	list_for_each_entry(view, &iface->user_views, node) {
		if (view->mm != current->mm || view->address != address ||
		    view->pmo_id != pmo_id)
			continue;
		list_del(&view->node);
		mutex_unlock(&iface->adls_lock);
		return view;
	}
	mutex_unlock(&iface->adls_lock);
	return NULL;
}

/*
 * Unmapped if every page of it is still the view's mapping: a process
 * that unmapped some of it itself may have something else there now,
 * which is not the driver's to unmap.
 */
static NTSTATUS dxgkrnl_unmap_user(struct dxgkrnl_user_view *view)
{
	unsigned long address = view->address;
	unsigned long end = view->address + view->length;
	struct vm_area_struct *vma;
	bool ours = true;
	int err = 0;

	mmap_read_lock(view->mm);
	while (ours && address < end) {
		vma = find_vma(view->mm, address);
		ours = vma && vma->vm_start <= address &&
		       vma->vm_file == view->file;
		if (ours)
			address = vma->vm_end;
	}
	mmap_read_unlock(view->mm);
	if (ours)
		err = vm_munmap(view->address, view->length);
	dxgkrnl_free_user_view(view);
	return dxgkrnl_status(err);
}

static NTSTATUS
DxgkCbUnmapPhysicalMemory(const DXGKARGCB_UNMAP_PHYSICAL_MEMORY *pArgs)
{
	struct dxgpmo_unmap u = { .size = sizeof(u) };
	struct dxgkrnl_user_view *view;
	struct dxgkrnl_iface *iface;
	NTSTATUS status;

	if (!pArgs)
		return STATUS_INVALID_PARAMETER;
	iface = dxgkrnl_object_get(pArgs->hPhysicalMemoryObject, &u.pmo_id);
	if (!iface)
		return STATUS_INVALID_HANDLE;
	view = dxgkrnl_take_user_view(iface, u.pmo_id,
				      (uintptr_t)pArgs->pBaseAddress);
	if (view) {
		status = dxgkrnl_unmap_user(view);
	} else {
		u.address = (uintptr_t)pArgs->pBaseAddress;
		u.length = pArgs->Size;
		status = dxgkrnl_status(dxgpmo_client_unmap(iface->client,
							    &u));
	}
	dxgkrnl_iface_put(iface);
	return status;
}

/* The driver's memory-basis DDIs, as basis.c reaches them (client.c). */

static struct dxgkrnl_iface *dxgkrnl_iface_of_client(struct dxgpmo_client *c)
{
	return dxgpmo_client_priv(c);
}

static u64 dxgkrnl_dirty_page_size(struct dxgpmo_client *client,
				   u32 segment_id, u64 *segment_size)
{
	struct dxgkrnl_iface *iface = dxgkrnl_iface_of_client(client);
	unsigned int i;

	for (i = 0; i < iface->nr_segments; i++) {
		const DXGK_LINUX_SEGMENT *seg = &iface->segments[i];

		if (seg->SegmentId != segment_id)
			continue;
		*segment_size = seg->Size;
		return seg->DirtyBitTrackingCaps.PageSize;
	}
	return 0;
}

/* A driver's basis handle is any value but NULL, as Windows has it. */
static int dxgkrnl_create_memory_basis(struct dxgpmo_client *client,
				       u32 segment_id,
				       const struct dxgpmo_memory_range *ranges,
				       u32 count, void **basis)
{
	struct dxgkrnl_iface *iface = dxgkrnl_iface_of_client(client);
	DXGKARG_CREATEMEMORYBASIS *args;
	DXGK_MEMORYRANGE *to;
	u32 i;

	if (WARN_ON_ONCE(!count))
		return -EINVAL;
	/* Ranges[1] is declared, as Windows has it; count of them follow. */
	args = kvzalloc(size_add(offsetof(DXGKARG_CREATEMEMORYBASIS, Ranges),
				 size_mul(count, sizeof(*to))),
			GFP_KERNEL_ACCOUNT);
	if (!args)
		return -ENOMEM;
	args->SegmentId = segment_id;
	args->RangeCount = count;
	to = args->Ranges;
	for (i = 0; i < count; i++) {
		to[i].SegmentOffset = ranges[i].segment_offset;
		to[i].SizeInBytes = ranges[i].length;
	}
	*basis = iface->ddis.DxgkDdiCreateMemoryBasis(iface->miniport_device_context,
						      args);
	kvfree(args);
	return *basis ? 0 : -ENOMEM;
}

/* Windows treats a failed destroy as catastrophic: a driver bug. */
static void dxgkrnl_destroy_memory_basis(struct dxgpmo_client *client,
					 void *basis)
{
	struct dxgkrnl_iface *iface = dxgkrnl_iface_of_client(client);
	NTSTATUS status;

	status = iface->ddis.DxgkDdiDestroyMemoryBasis(iface->miniport_device_context,
						       basis);
	WARN_ONCE(!NT_SUCCESS(status),
		  "dxgkrnl: DxgkDdiDestroyMemoryBasis of %s returned %#x\n",
		  module_name(iface->owner), status);
}

static int dxgkrnl_start_dirty_tracking(struct dxgpmo_client *client,
					void *basis)
{
	struct dxgkrnl_iface *iface = dxgkrnl_iface_of_client(client);

	return dxgkrnl_errno(iface->ddis.DxgkDdiStartDirtyTracking(iface->miniport_device_context,
								    basis));
}

static int dxgkrnl_stop_dirty_tracking(struct dxgpmo_client *client,
				       void *basis)
{
	struct dxgkrnl_iface *iface = dxgkrnl_iface_of_client(client);

	return dxgkrnl_errno(iface->ddis.DxgkDdiStopDirtyTracking(iface->miniport_device_context,
								   basis));
}

static int dxgkrnl_query_dirty_bits(struct dxgpmo_client *client, void *basis,
				    const struct dxgpmo_query_dirty_bits *query,
				    void *bits, size_t size)
{
	struct dxgkrnl_iface *iface = dxgkrnl_iface_of_client(client);
	DXGKARG_QUERYDIRTYBITDATA args = {
		.MemoryBasis = basis,
		.SubrangeIndex = query->subrange_index,
		.SubrangeOffset = query->subrange_offset,
		.SubrangeSize = query->subrange_length,
		.Buffer = bits,
		.BufferSize = size,
		.Flags = query->flags & DXGPMO_DIRTY_CLEAR_DATA ?
			 DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA : 0,
	};
	int ret;

	ret = dxgkrnl_errno(iface->ddis.DxgkDdiQueryDirtyBitData(iface->miniport_device_context,
								 &args));
	/*
	 * The buffer holds the span (Dxgkrnl's promise, checked before):
	 * ENOSPC would send the caller after a size that fits already.
	 */
	return ret == -ENOSPC ? -EIO : ret;
}

static const struct dxgpmo_client_ops dxgkrnl_basis_client_ops = {
	.dirty_page_size = dxgkrnl_dirty_page_size,
	.create_memory_basis = dxgkrnl_create_memory_basis,
	.destroy_memory_basis = dxgkrnl_destroy_memory_basis,
	.start_dirty_tracking = dxgkrnl_start_dirty_tracking,
	.stop_dirty_tracking = dxgkrnl_stop_dirty_tracking,
	.query_dirty_bits = dxgkrnl_query_dirty_bits,
};

VISIBLE_IF_KUNIT void dxgkrnl_fill_interface(DXGKRNL_INTERFACE *iface,
					     u32 iface_id)
{
	*iface = (DXGKRNL_INTERFACE){
		.Size = sizeof(*iface),
		.Version = DXGKRNL_LINUX_INTERFACE_VERSION,
		.DeviceHandle = dxgkrnl_make_handle(iface_id, 0),
		.DxgkCbCreatePhysicalMemoryObject =
			DxgkCbCreatePhysicalMemoryObject,
		.DxgkCbDestroyPhysicalMemoryObject =
			DxgkCbDestroyPhysicalMemoryObject,
		.DxgkCbMapPhysicalMemory = DxgkCbMapPhysicalMemory,
		.DxgkCbUnmapPhysicalMemory = DxgkCbUnmapPhysicalMemory,
		.DxgkCbAllocateAdl = DxgkCbAllocateAdl,
		.DxgkCbFreeAdl = DxgkCbFreeAdl,
		.DxgkCbOpenPhysicalMemoryObject = DxgkCbOpenPhysicalMemoryObject,
		.DxgkCbClosePhysicalMemoryObject =
			DxgkCbClosePhysicalMemoryObject,
	};
}

/* Bits a basis of one segment may have: 2^31, a 256 MiB bitmap. */
#define DXGKRNL_MAX_SEGMENT_PAGES	(1ULL << 31)

static bool dxgkrnl_segment_id_seen(const DXGK_LINUX_SEGMENT *segments, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (segments[i].SegmentId == segments[n].SegmentId)
			return true;
	return false;
}

static bool dxgkrnl_start_info_valid(const struct dxgkrnl_start_info *info)
{
	const DXGK_LINUX_MEMORY_BASIS_DDIS *ddis = info->memory_basis_ddis;
	unsigned int i;

	if (!ddis)
		return !info->nr_segments;
	if (!ddis->DxgkDdiCreateMemoryBasis || !ddis->DxgkDdiDestroyMemoryBasis ||
	    !ddis->DxgkDdiStartDirtyTracking || !ddis->DxgkDdiStopDirtyTracking ||
	    !ddis->DxgkDdiQueryDirtyBitData ||
	    info->nr_segments > DXGKRNL_MAX_SEGMENTS ||
	    (info->nr_segments && !info->segments))
		return false;
	for (i = 0; i < info->nr_segments; i++) {
		const DXGK_LINUX_SEGMENT *seg = &info->segments[i];
		UINT ps = seg->DirtyBitTrackingCaps.PageSize;

		if (dxgkrnl_segment_id_seen(info->segments, i))
			return false;
		if (!ps)
			continue;
		/*
		 * Windows: a power of two of at least 4 KiB; whole pages of
		 * it, and few enough that a basis's bits fit one allocation.
		 */
		if (!is_power_of_2(ps) || ps < PAGE_SIZE || !seg->Size ||
		    seg->Size % ps || seg->Size / ps > DXGKRNL_MAX_SEGMENT_PAGES)
			return false;
	}
	return true;
}

/*
 * The stop, once: the driver's DDIs drained and its bases given back
 * (their destroys may use the callbacks), then the interface out of the
 * table and its callbacks in flight waited for, then the client closed.
 */
static void dxgkrnl_stop(struct dxgkrnl_iface *ifc)
{
	struct dxgkrnl_user_view *view, *next_view;
	struct dxgkrnl_adl *box, *next;

	dxgpmo_kernel_client_quiesce(ifc->client);
	xa_erase(&dxgkrnl_ifaces, ifc->id);
	if (!refcount_dec_and_test(&ifc->users))
		wait_event(ifc->idle, !refcount_read(&ifc->users));
	dxgpmo_client_close(ifc->client);
	list_for_each_entry_safe(box, next, &ifc->adls, node)
		kvfree(box);
	/* A process's view stays until it unmaps it: its own to end. */
	list_for_each_entry_safe(view, next_view, &ifc->user_views, node)
		dxgkrnl_free_user_view(view);
}

/*
 * The device's entry, released when the driver lets go of the device: it
 * frees the interface, after stopping it if the driver did not (its DDIs
 * are called for the bases it still has: its context must live until
 * then, as one devm_kzalloc()ed before the start does).
 */
static void dxgkrnl_release(void *data)
{
	struct dxgkrnl_iface *ifc = data;

	if (!atomic_xchg(&ifc->stop_claimed, 1)) {
		dev_warn(ifc->dev, "dxgkrnl: %s let go of the device without dxgkrnl_stop_device(): stopping it\n",
			 module_name(ifc->owner));
		dxgkrnl_stop(ifc);
	}
	kfree(ifc);
}

/**
 * __dxgkrnl_start_device() - Dxgkrnl's interface for a driver's device
 * @dev: the device, bound to the calling driver
 * @info: the driver's context and memory-basis DDIs
 * @iface: filled with the callbacks and DeviceHandle
 * @owner: the calling module (dxgkrnl_start_device() passes THIS_MODULE)
 *
 * Opens the device's dxgpmo client (dxgpmo_client_open()); the driver's
 * memory-basis DDIs, if any, answer for its adapter from now on, and may
 * be called before this returns.  An interface the driver does not stop
 * is stopped when the driver lets go of @dev (devres), with a warning.
 *
 * Context: process context; from probe() or later, while @dev is bound to
 * @owner's driver.
 * Return: 0, -EINVAL for DDIs given in part, a bad segment or a device
 * another module drives, or the errors of dxgpmo_client_open().
 */
int __dxgkrnl_start_device(struct device *dev,
			   const struct dxgkrnl_start_info *info,
			   DXGKRNL_INTERFACE *iface, struct module *owner)
{
	struct dxgpmo_client *client;
	struct dxgkrnl_iface *ifc;
	int ret;

	if (WARN_ON(!info || !iface || !dxgkrnl_start_info_valid(info)))
		return -EINVAL;
	/* The driver's module unloads only after it let go of the device. */
	if (WARN_ON(!dev->driver || dev->driver->owner != owner))
		return -EINVAL;
	ifc = kzalloc(sizeof(*ifc), GFP_KERNEL);
	if (!ifc)
		return -ENOMEM;
	refcount_set(&ifc->users, 1);
	init_waitqueue_head(&ifc->idle);
	ifc->dev = dev;
	ifc->owner = owner;
	ifc->miniport_device_context = info->miniport_device_context;
	mutex_init(&ifc->adls_lock);
	INIT_LIST_HEAD(&ifc->adls);
	INIT_LIST_HEAD(&ifc->user_views);
	if (info->memory_basis_ddis) {
		ifc->ddis = *info->memory_basis_ddis;
		ifc->nr_segments = info->nr_segments;
		memcpy(ifc->segments, info->segments,
		       info->nr_segments * sizeof(*info->segments));
	}
	/*
	 * Ids are not reused soon, so that a stale handle of a stopped
	 * interface does not name the next one.  Reserved until it runs.
	 */
	ret = xa_alloc_cyclic(&dxgkrnl_ifaces, &ifc->id, NULL,
			      XA_LIMIT(1, U16_MAX), &dxgkrnl_next_id,
			      GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	client = __dxgpmo_client_open(dev, info->memory_basis_ddis ?
				      &dxgkrnl_basis_client_ops : NULL,
				      ifc, owner);
	if (IS_ERR(client)) {
		ret = PTR_ERR(client);
		goto err_erase;
	}
	ifc->client = client;
	/* Messages and debugfs name its objects by the handles it gets. */
	dxgpmo_kernel_client_set_handle_base(client, (u64)ifc->id << 32);
	/* After the client's own entry: released before it. */
	ret = devm_add_action(dev, dxgkrnl_release, ifc);
	if (ret)
		goto err_close;
	xa_store(&dxgkrnl_ifaces, ifc->id, ifc, GFP_KERNEL);
	dxgkrnl_fill_interface(iface, ifc->id);
	return 0;

err_close:
	dxgpmo_client_close(client);
err_erase:
	xa_erase(&dxgkrnl_ifaces, ifc->id);
err_free:
	kfree(ifc);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(__dxgkrnl_start_device, DXGPMO_NS);

/**
 * dxgkrnl_stop_device() - the end of the interface
 * @iface: as dxgkrnl_start_device() filled it
 *
 * What the driver still holds is destroyed (counted as leaked, as at a
 * client's close), its memory bases by its own DxgkDdiDestroyMemoryBasis,
 * which may still use the callbacks; no DDI is called after, every handle
 * of the interface is invalid, and @iface is zeroed.  From remove() or a
 * devres action of the driver's.
 *
 * Context: process context, before the driver let go of the device; not
 * from a DDI or callback of the interface.
 */
void dxgkrnl_stop_device(DXGKRNL_INTERFACE *iface)
{
	struct dxgkrnl_iface *ifc;
	u32 object_id;

	ifc = dxgkrnl_iface_get(iface->DeviceHandle, &object_id);
	if (WARN_ON(!ifc))
		return;
	/* Its memory is the devres entry's, which a stop cannot release. */
	dxgkrnl_iface_put(ifc);
	if (!WARN_ON(object_id) && !atomic_xchg(&ifc->stop_claimed, 1))
		dxgkrnl_stop(ifc);
	memset(iface, 0, sizeof(*iface));
}
EXPORT_SYMBOL_NS_GPL(dxgkrnl_stop_device, DXGPMO_NS);

/* The adapter id user space names the device's adapter by (DeviceHandle). */
u32 dxgkrnl_adapter_id(const DXGKRNL_INTERFACE *iface)
{
	struct dxgkrnl_iface *ifc;
	u32 object_id, id = 0;

	ifc = dxgkrnl_iface_get(iface->DeviceHandle, &object_id);
	if (!ifc)
		return 0;
	if (!object_id)
		id = dxgpmo_client_adapter_id(ifc->client);
	dxgkrnl_iface_put(ifc);
	return id;
}
EXPORT_SYMBOL_NS_GPL(dxgkrnl_adapter_id, DXGPMO_NS);
