// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk: the DxgkCb* callbacks on physical memory objects, their ADLs
 * and their CPU mappings.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "libdxgk_internal.h"

_Static_assert(sizeof(DXGK_PAGE_NUMBER) == sizeof(__u64),
	       "ADL pages are copied as the kernel's __u64 page numbers");
_Static_assert((int)MmNonCached == DXGK_MEMORY_CACHING_TYPE_NON_CACHED &&
	       (int)MmCached == DXGK_MEMORY_CACHING_TYPE_CACHED &&
	       (int)MmWriteCombined == DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED,
	       "drivers pass Mm cache types as CacheType");
_Static_assert(DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY ==
	       DXGPMO_PMO_TYPE_CONTIGUOUS &&
	       DXGK_ACCESS_MODE_USER_MODE ==
	       DXGPMO_ACCESS_USER &&
	       DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED ==
	       DXGPMO_CACHE_WRITE_COMBINED,
	       "dxgpmo keeps the WDDM enum values");
/* Page arrays larger than this wait for the kernel's check of the size. */
#define PROBE_PAGES		512

/* Physical memory objects */

NTSTATUS DxgkCbCreatePhysicalMemoryObject(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *args)
{
	struct dxgpmo_create_pmo c = { .size = sizeof(c) };
	struct _DXGK_LINUX_SESSION *s;
	NTSTATUS status;
	int err;

	if (!args)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	args->hPhysicalMemoryObject = NULL;
	args->hAdapterMemoryObject = NULL;
	if (dxgk_to_create_pmo(args, &c))
		return dxgk_done(STATUS_INVALID_PARAMETER);
	if (args->hAdapter) {
		c.adapter_id = dxgk_handle_id(args->hAdapter, KIND_ADAPTER, &s);
		if (!c.adapter_id)
			return dxgk_done(STATUS_INVALID_HANDLE);
	} else {
		status = dxgk_current_session(&s);
		if (!NT_SUCCESS(status))
			return dxgk_done(status);
	}
	err = xioctl(s->fd, DXGPMO_IOC_CREATE_PMO, &c);
	if (!err) {
		args->hPhysicalMemoryObject =
			dxgk_make_handle(KIND_PMO, s, c.pmo_id);
		args->hAdapterMemoryObject =
			dxgk_make_handle(KIND_AMO, s, c.amo_id);
	}
	return dxgk_put_done(s, err);
}

NTSTATUS DxgkCbDestroyPhysicalMemoryObject(const DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT *args)
{
	struct dxgpmo_destroy_pmo d = { .size = sizeof(d) };
	struct _DXGK_LINUX_SESSION *s;

	if (!args)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	d.pmo_id = dxgk_handle_id(args->hPhysicalMemoryObject, KIND_PMO, &s);
	if (!d.pmo_id)
		return dxgk_done(STATUS_INVALID_HANDLE);
	if (args->hAdapterMemoryObject) {
		d.amo_id = dxgk_handle_id_in(args->hAdapterMemoryObject,
					     KIND_AMO, s);
		if (!d.amo_id)
			return dxgk_put_status(s, STATUS_INVALID_HANDLE);
	}
	return dxgk_put_done(s, xioctl(s->fd, DXGPMO_IOC_DESTROY_PMO, &d));
}

NTSTATUS DxgkCbOpenPhysicalMemoryObject(DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT *args)
{
	struct dxgpmo_open_pmo o = { .size = sizeof(o) };
	struct _DXGK_LINUX_SESSION *s;
	int err;

	if (!args)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	args->hAdapterMemoryObject = NULL;
	o.pmo_id = dxgk_handle_id(args->hPhysicalMemoryObject, KIND_PMO, &s);
	if (!o.pmo_id)
		return dxgk_done(STATUS_INVALID_HANDLE);
	o.adapter_id = dxgk_handle_id_in(args->hAdapter, KIND_ADAPTER, s);
	if (!o.adapter_id)
		return dxgk_put_status(s, STATUS_INVALID_HANDLE);
	err = xioctl(s->fd, DXGPMO_IOC_OPEN_PMO, &o);
	if (!err)
		args->hAdapterMemoryObject =
			dxgk_make_handle(KIND_AMO, s, o.amo_id);
	return dxgk_put_done(s, err);
}

NTSTATUS DxgkCbClosePhysicalMemoryObject(const DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT *args)
{
	struct dxgpmo_close_pmo c = { .size = sizeof(c) };
	struct _DXGK_LINUX_SESSION *s;

	if (!args)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	c.amo_id = dxgk_handle_id(args->hAdapterMemoryObject, KIND_AMO, &s);
	if (!c.amo_id)
		return dxgk_done(STATUS_INVALID_HANDLE);
	return dxgk_put_done(s, xioctl(s->fd, DXGPMO_IOC_CLOSE_PMO, &c));
}

/* ADLs */

NTSTATUS DxgkCbAllocateAdl(DXGKARGCB_ALLOCATE_ADL *args)
{
	struct dxgpmo_allocate_adl a = { .size = sizeof(a) };
	struct dxgpmo_free_adl f = { .size = sizeof(f) };
	struct _DXGK_LINUX_SESSION *s;
	struct adl_box *box;
	int err, flags;
	size_t nr;

	if (!args)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	args->pAdl = NULL;
	a.amo_id = dxgk_handle_id(args->hAdapterMemoryObject, KIND_AMO, &s);
	if (!a.amo_id)
		return dxgk_done(STATUS_INVALID_HANDLE);
	flags = dxgk_to_adl_flags(args->Flags);
	if (flags < 0 || !args->Size ||
	    (args->Size | args->Offset) & (PAGE_SIZE - 1))
		return dxgk_put_status(s, STATUS_INVALID_PARAMETER);
	nr = args->Size >> PAGE_SHIFT;
	a.flags = flags;
	a.offset = args->Offset;
	a.length = args->Size;
	/*
	 * A large page array is allocated only once the kernel has checked
	 * Offset and Size against the object: with too small an array it
	 * checks them, then says ENOSPC and makes nothing.
	 */
	if (nr > PROBE_PAGES) {
		struct dxgpmo_allocate_adl probe = a;
		DXGK_PAGE_NUMBER one;

		probe.pages = (uintptr_t)&one;
		probe.pages_capacity = 1;
		err = xioctl(s->fd, DXGPMO_IOC_ALLOCATE_ADL, &probe);
		if (err != ENOSPC)
			return dxgk_put_done(s, err ? err : EIO);
	}
	if (nr > (SIZE_MAX - sizeof(*box)) / sizeof(box->pages[0]) ||
	    nr > UINT32_MAX)
		return dxgk_put_status(s, STATUS_NO_MEMORY);
	box = malloc(sizeof(*box) + nr * sizeof(box->pages[0]));
	if (!box)
		return dxgk_put_status(s, STATUS_NO_MEMORY);
	a.pages = (uintptr_t)box->pages;
	a.pages_capacity = nr;
	err = xioctl(s->fd, DXGPMO_IOC_ALLOCATE_ADL, &a);
	if (err) {
		free(box);
		return dxgk_put_done(s, err);
	}
	/*
	 * Physical page numbers are shown only to CAP_SYS_ADMIN.  An ADL
	 * whose numbers read 0 cannot program a device, so it is not handed
	 * out as if it could; one the kernel would not free is said so.
	 */
	if (a.adl_flags & DXGPMO_ADL_ADDRESSES_HIDDEN) {
		f.adl_id = a.adl_id;
		err = xioctl(s->fd, DXGPMO_IOC_FREE_ADL, &f);
		free(box);
		return err ? dxgk_put_done(s, err) :
			     dxgk_put_status(s, STATUS_PRIVILEGE_NOT_HELD);
	}
	memset(&box->adl, 0, sizeof(box->adl));
	dxgk_adl_of_reply(&box->adl, box->pages, args->Flags, &a);
	box->adl_id = a.adl_id;
	box->amo = args->hAdapterMemoryObject;
	pthread_mutex_lock(&dxgk_sessions_lock);
	if (s->dead) {
		/* Closed meanwhile: the kernel freed the ADL with the file. */
		pthread_mutex_unlock(&dxgk_sessions_lock);
		free(box);
		return dxgk_put_status(s, STATUS_INVALID_HANDLE);
	}
	box->next = s->adls;
	s->adls = box;
	pthread_mutex_unlock(&dxgk_sessions_lock);
	args->pAdl = &box->adl;
	return dxgk_put_done(s, 0);
}

NTSTATUS DxgkCbFreeAdl(const DXGKARGCB_FREE_ADL *args)
{
	struct dxgpmo_free_adl f = { .size = sizeof(f) };
	struct _DXGK_LINUX_SESSION *s;
	struct adl_box *box;
	int err;

	if (!args || !args->pAdl)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	pthread_mutex_lock(&dxgk_sessions_lock);
	box = dxgk_adl_take_locked(args->pAdl, &s);
	if (!box) {
		pthread_mutex_unlock(&dxgk_sessions_lock);
		return dxgk_done(STATUS_INVALID_PARAMETER);
	}
	if (box->amo != args->hAdapterMemoryObject) {
		box->next = s->adls;
		s->adls = box;
		pthread_mutex_unlock(&dxgk_sessions_lock);
		return dxgk_done(STATUS_INVALID_HANDLE);
	}
	s->refs++;
	pthread_mutex_unlock(&dxgk_sessions_lock);
	f.adl_id = box->adl_id;
	err = xioctl(s->fd, DXGPMO_IOC_FREE_ADL, &f);
	/* An ADL the kernel already dropped (its PMO destroyed) is gone too. */
	if (!err || err == ENOENT) {
		free(box);
	} else {
		pthread_mutex_lock(&dxgk_sessions_lock);
		if (s->dead) {
			free(box);
		} else {
			box->next = s->adls;
			s->adls = box;
		}
		pthread_mutex_unlock(&dxgk_sessions_lock);
	}
	return dxgk_put_done(s, err);
}

/* CPU mappings */

NTSTATUS DxgkCbMapPhysicalMemory(DXGKARGCB_MAP_PHYSICAL_MEMORY *args)
{
	struct dxgpmo_map m = { .size = sizeof(m) };
	struct _DXGK_LINUX_SESSION *s;
	struct view *v;
	int err;

	if (!args)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	args->pMappedAddress = NULL;
	m.pmo_id = dxgk_handle_id(args->hPhysicalMemoryObject, KIND_PMO, &s);
	if (!m.pmo_id)
		return dxgk_done(STATUS_INVALID_HANDLE);
	if (args->AccessMode != DXGK_ACCESS_MODE_KERNEL_MODE &&
	    args->AccessMode != DXGK_ACCESS_MODE_USER_MODE)
		return dxgk_put_status(s, STATUS_INVALID_PARAMETER);
	v = malloc(sizeof(*v));
	if (!v)
		return dxgk_put_status(s, STATUS_NO_MEMORY);
	/*
	 * The program is the kernel-mode driver, but a kernel address is of
	 * no use to it: both modes become a view in this process, with the
	 * object's cache type.  Kernel mode stays kernel mode, so that what
	 * Windows maps only there (IO_SPACE) maps, and only there.
	 */
	if (args->AccessMode == DXGK_ACCESS_MODE_KERNEL_MODE) {
		m.access_mode = DXGPMO_ACCESS_KERNEL;
		m.flags = DXGPMO_MAP_IN_PROCESS;
	} else {
		m.access_mode = DXGPMO_ACCESS_USER;
	}
	m.offset = args->Offset;
	m.length = args->Size;
	err = xioctl(s->fd, DXGPMO_IOC_MAP, &m);
	if (err) {
		free(v);
		return dxgk_put_done(s, err);
	}
	err = dxgk_view_add(s, v, (void *)(uintptr_t)m.address, m.length);
	if (!err) {
		args->pMappedAddress = (PVOID)(uintptr_t)m.address;
		args->Offset = m.offset;
		args->Size = m.length;
	}
	return dxgk_put_done(s, err);
}

NTSTATUS DxgkCbUnmapPhysicalMemory(const DXGKARGCB_UNMAP_PHYSICAL_MEMORY *args)
{
	struct dxgpmo_unmap u = { .size = sizeof(u) };
	struct _DXGK_LINUX_SESSION *s;
	int err;

	if (!args)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	u.pmo_id = dxgk_handle_id(args->hPhysicalMemoryObject, KIND_PMO, &s);
	if (!u.pmo_id)
		return dxgk_done(STATUS_INVALID_HANDLE);
	u.address = (uintptr_t)args->pBaseAddress;
	u.length = args->Size;
	err = xioctl(s->fd, DXGPMO_IOC_UNMAP, &u);
	/*
	 * The ioctl detached the view; its VMA still holds the range, so no
	 * other mapping can have been placed there (only a thread that
	 * unmapped this library's range itself could).  munmap() gives the
	 * range back, as Windows' Unmap does.
	 */
	if (!err) {
		size_t length = dxgk_view_remove(s, args->pBaseAddress);

		if (length)
			munmap(args->pBaseAddress, length);
	}
	return dxgk_put_done(s, err);
}
