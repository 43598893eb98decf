// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk: adapters, their segment and their DMA engine (calls Windows
 * does not have, for a driver on dxgpmo to find and drive its adapter).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "libdxgk_internal.h"

#define MAX_ADAPTERS		64

static int query_adapters(struct _DXGK_LINUX_SESSION *s,
			  struct dxgpmo_adapter_info *info, uint32_t *total)
{
	struct dxgpmo_query_adapters q = {
		.size = sizeof(q),
		.count = MAX_ADAPTERS,
		.entry_size = sizeof(*info),
		.entries = (uintptr_t)info,
	};
	int err = xioctl(s->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q);

	*total = q.count < MAX_ADAPTERS ? q.count : MAX_ADAPTERS;
	return err;
}

static UINT caps_of(const struct dxgpmo_adapter_info *a)
{
	return (a->caps & DXGPMO_ADAPTER_CAP_IOMMU ?
		DXGK_LINUX_ADAPTER_IOMMU : 0) |
	       (a->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE ?
		DXGK_LINUX_ADAPTER_DMA_ENGINE : 0) |
	       (a->caps & DXGPMO_ADAPTER_CAP_VIRTUAL ?
		DXGK_LINUX_ADAPTER_VIRTUAL : 0);
}

/* A decimal adapter id, 1 to 255; 0 for any other name. */
static uint32_t adapter_id_of(const char *name)
{
	uint32_t id = 0;

	if (!*name)
		return 0;
	for (; *name; name++) {
		if (*name < '0' || *name > '9' || id > 255)
			return 0;
		id = id * 10 + (uint32_t)(*name - '0');
	}
	return id <= 255 ? id : 0;
}

NTSTATUS DxgkLinuxOpenAdapter(const char *name, UINT required, HANDLE *out)
{
	struct dxgpmo_adapter_info info[MAX_ADAPTERS];
	struct _DXGK_LINUX_SESSION *s;
	uint32_t total, i, id;
	NTSTATUS status;
	int err;

	if (!out)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	*out = NULL;
	status = dxgk_current_session(&s);
	if (!NT_SUCCESS(status))
		return dxgk_done(status);
	err = query_adapters(s, info, &total);
	if (err)
		return dxgk_put_done(s, err);
	for (i = 0; i < total; i++) {
		if (name && strncmp(name, info[i].name, sizeof(info[i].name)))
			continue;
		if ((caps_of(&info[i]) & required) != required)
			continue;
		*out = dxgk_make_handle(KIND_ADAPTER, s, info[i].adapter_id);
		return dxgk_put_done(s, 0);
	}
	/*
	 * A kernel driver's adapter is not listed: by its decimal id, for
	 * the calls that use it to check (no caps are known to require).
	 */
	id = name && !required ? adapter_id_of(name) : 0;
	if (id) {
		*out = dxgk_make_handle(KIND_ADAPTER, s, id);
		return dxgk_put_done(s, 0);
	}
	return dxgk_put_status(s, STATUS_NO_SUCH_DEVICE);
}

/* On success the caller holds a reference to *s. */
static NTSTATUS adapter_info(HANDLE adapter, struct _DXGK_LINUX_SESSION **s,
			     struct dxgpmo_adapter_info *out)
{
	struct dxgpmo_adapter_info info[MAX_ADAPTERS];
	uint32_t id = dxgk_handle_id(adapter, KIND_ADAPTER, s), total, i;
	int err;

	memset(out, 0, sizeof(*out));
	if (!id)
		return STATUS_INVALID_HANDLE;
	err = query_adapters(*s, info, &total);
	if (err) {
		dxgk_session_put(*s);
		return DxgkLinuxNtStatusFromErrno(err);
	}
	for (i = 0; i < total; i++) {
		if (info[i].adapter_id == id) {
			*out = info[i];
			return STATUS_SUCCESS;
		}
	}
	/* Unbound since the handle was made. */
	dxgk_session_put(*s);
	return STATUS_NO_SUCH_DEVICE;
}

NTSTATUS DxgkLinuxQueryAdapterInfo(HANDLE hAdapter,
				   DXGK_LINUX_ADAPTER_INFO *out)
{
	struct _DXGK_LINUX_SESSION *s;
	struct dxgpmo_adapter_info a;
	NTSTATUS status;

	if (!out)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	status = adapter_info(hAdapter, &s, &a);
	if (!NT_SUCCESS(status))
		return dxgk_done(status);
	dxgk_session_put(s);
	memset(out, 0, sizeof(*out));
	memcpy(out->Name, a.name, sizeof(out->Name));
	out->Name[sizeof(out->Name) - 1] = '\0';
	out->Caps = caps_of(&a);
	out->HighestVisibleAddress.QuadPart = (LONGLONG)a.dma_mask;
	out->SegmentSize = a.segment_size;
	out->SegmentCaps.PageSize = a.dirty_page_size;
	return dxgk_done(STATUS_SUCCESS);
}

NTSTATUS DxgkLinuxMapSegment(HANDLE hAdapter, UINT SegmentId, PVOID *out,
			     SIZE_T *size)
{
	struct _DXGK_LINUX_SESSION *s;
	struct dxgpmo_adapter_info a;
	NTSTATUS status;
	struct view *v;
	void *p;
	int err;

	if (!out || !size || SegmentId != 1)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	*out = NULL;
	status = adapter_info(hAdapter, &s, &a);
	if (!NT_SUCCESS(status))
		return dxgk_done(status);
	v = malloc(sizeof(*v));
	if (!v)
		return dxgk_put_status(s, STATUS_NO_MEMORY);
	p = mmap(NULL, a.segment_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 s->fd, a.segment_mmap_offset);
	if (p == MAP_FAILED) {
		err = errno;
		free(v);
		return dxgk_put_done(s, err);
	}
	err = dxgk_view_add(s, v, p, a.segment_size);
	if (!err) {
		*out = p;
		*size = a.segment_size;
	}
	return dxgk_put_done(s, err);
}

NTSTATUS DxgkLinuxUnmapSegment(PVOID address, SIZE_T size)
{
	/* Only a view still listed is this call's to unmap, not close's. */
	if (!dxgk_view_remove(NULL, address))
		return dxgk_done(STATUS_INVALID_PARAMETER);
	return dxgk_done_errno(munmap(address, size) ? errno : 0);
}

static NTSTATUS adapter_dma(struct _DXGK_LINUX_SESSION *s, uint32_t id,
			    uint64_t address, void *buf, uint64_t size,
			    int device_writes)
{
	struct dxgpmo_adapter_dma d = {
		.size = sizeof(d),
		.flags = device_writes ? DXGPMO_DMA_TO_MEMORY : 0,
		.adapter_id = id,
		.device_address = address,
		.length = size,
		.buffer = (uintptr_t)buf,
	};

	return dxgk_put_done(s, xioctl(s->fd, DXGPMO_IOC_ADAPTER_DMA, &d));
}

NTSTATUS DxgkLinuxAdapterDma(HANDLE hAdapter, UINT64 DeviceAddress,
			     PVOID Buffer, SIZE_T Size, BOOLEAN DeviceWrites)
{
	struct _DXGK_LINUX_SESSION *s;
	uint32_t id = dxgk_handle_id(hAdapter, KIND_ADAPTER, &s);

	if (!id)
		return dxgk_done(STATUS_INVALID_HANDLE);
	return adapter_dma(s, id, DeviceAddress, Buffer, Size, DeviceWrites);
}

NTSTATUS DxgkLinuxEngineWriteSegment(HANDLE hAdapter, UINT SegmentId,
				     UINT64 SegmentOffset, const void *Buffer,
				     SIZE_T Size)
{
	struct _DXGK_LINUX_SESSION *s;
	struct dxgpmo_adapter_info a;
	NTSTATUS status;

	if (SegmentId != 1)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	status = adapter_info(hAdapter, &s, &a);
	if (!NT_SUCCESS(status))
		return dxgk_done(status);
	/* Within the segment: the device address must not wrap past it. */
	if (SegmentOffset > a.segment_size ||
	    Size > a.segment_size - SegmentOffset)
		return dxgk_put_status(s, STATUS_INVALID_PARAMETER);
	/* The engine only reads the buffer when it writes the segment. */
	return adapter_dma(s, a.adapter_id,
			   a.segment_device_address + SegmentOffset,
			   (void *)Buffer, Size, 1);
}
