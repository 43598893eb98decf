/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dxgkrnl's memory interface for a Windows display driver's code in a
 * Linux module: the physical memory object callbacks as a
 * DXGKRNL_INTERFACE of function pointers with the Windows signatures, and
 * the driver's memory-basis DDIs called by dxgpmo as Dxgkrnl calls them.
 * The types are uapi/dxgk_types.h's, the ones libdxgk gives user space.
 *
 * A driver's Linux glue (probe and remove) starts the interface for its
 * struct device and hands the table to the driver's memory code, which
 * then needs no Linux names:
 *
 *	DXGKRNL_INTERFACE DxgkInterface;
 *	struct dxgkrnl_start_info info = {
 *		.miniport_device_context = ctx,	// hAdapter of the DDIs
 *		.memory_basis_ddis = &ddis,	// or NULL
 *		.segments = segments, .nr_segments = n,
 *	};
 *	err = dxgkrnl_start_device(&pdev->dev, &info, &DxgkInterface);
 *	...
 *	DxgkInterface.DxgkCbCreatePhysicalMemoryObject(&args);
 *	...
 *	dxgkrnl_stop_device(&DxgkInterface);	// in remove()
 *
 * Every callback runs a command of dxgpmo's in-kernel API
 * (<linux/dxgpmo.h>) on the device's client, and returns its errno as an
 * NTSTATUS (DXGK_STATUS_ERRNO_TABLE).  Documentation/porting.rst, "Porting
 * a KMD's memory code", says what differs from Windows.
 */
#ifndef _LINUX_DXGKRNL_H
#define _LINUX_DXGKRNL_H

#include <linux/module.h>
#include <linux/types.h>

#include "../../uapi/dxgk_types.h"

struct device;

typedef NTSTATUS (*PDXGKCB_CREATEPHYSICALMEMORYOBJECT)
	(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *pArgs);
typedef NTSTATUS (*PDXGKCB_DESTROYPHYSICALMEMORYOBJECT)
	(const DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT *pArgs);
typedef NTSTATUS (*PDXGKCB_MAPPHYSICALMEMORY)
	(DXGKARGCB_MAP_PHYSICAL_MEMORY *pArgs);
typedef NTSTATUS (*PDXGKCB_UNMAPPHYSICALMEMORY)
	(const DXGKARGCB_UNMAP_PHYSICAL_MEMORY *pArgs);
typedef NTSTATUS (*PDXGKCB_ALLOCATEADL)(DXGKARGCB_ALLOCATE_ADL *pArgs);
typedef NTSTATUS (*PDXGKCB_FREEADL)(const DXGKARGCB_FREE_ADL *pArgs);
typedef NTSTATUS (*PDXGKCB_OPENPHYSICALMEMORYOBJECT)
	(DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT *pArgs);
typedef NTSTATUS (*PDXGKCB_CLOSEPHYSICALMEMORYOBJECT)
	(const DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT *pArgs);

/*
 * The memory members of Windows' DXGKRNL_INTERFACE, in its order.
 * DeviceHandle is the hAdapter the callbacks take.
 */
typedef struct _DXGKRNL_INTERFACE {
	ULONG Size;
	ULONG Version;
	HANDLE DeviceHandle;
	PDXGKCB_CREATEPHYSICALMEMORYOBJECT DxgkCbCreatePhysicalMemoryObject;
	PDXGKCB_DESTROYPHYSICALMEMORYOBJECT DxgkCbDestroyPhysicalMemoryObject;
	PDXGKCB_MAPPHYSICALMEMORY DxgkCbMapPhysicalMemory;
	PDXGKCB_UNMAPPHYSICALMEMORY DxgkCbUnmapPhysicalMemory;
	PDXGKCB_ALLOCATEADL DxgkCbAllocateAdl;
	PDXGKCB_FREEADL DxgkCbFreeAdl;
	PDXGKCB_OPENPHYSICALMEMORYOBJECT DxgkCbOpenPhysicalMemoryObject;
	PDXGKCB_CLOSEPHYSICALMEMORYOBJECT DxgkCbClosePhysicalMemoryObject;
} DXGKRNL_INTERFACE;

/* DXGKRNL_INTERFACE.Version: the interface of WDDM 3.2's memory calls. */
#define DXGKRNL_LINUX_INTERFACE_VERSION	0x5000

/*
 * Not Windows: a segment of the driver's, what Windows asks with
 * DXGKQAITYPE_QUERYSEGMENT and DXGKQAITYPE_DIRTYBITTRACKINGSEGMENTCAPS.
 * A PageSize of 0: not tracked.
 */
typedef struct _DXGK_LINUX_SEGMENT {
	UINT SegmentId;
	UINT64 Size;
	DXGK_DIRTY_BIT_TRACKING_SEGMENT_CAPS DirtyBitTrackingCaps;
} DXGK_LINUX_SEGMENT;

/**
 * struct dxgkrnl_start_info - what the glue tells dxgpmo of the device
 * @miniport_device_context: the driver's context for the device, the
 *	hAdapter its DDIs get
 * @memory_basis_ddis: the driver's memory-basis DDIs, or NULL: then dxgpmo
 *	tracks the segment it emulates for the device, as for its own
 *	adapters
 * @segments: with @memory_basis_ddis, the driver's segments (at most
 *	%DXGKRNL_MAX_SEGMENTS); copied
 * @nr_segments: how many
 */
struct dxgkrnl_start_info {
	HANDLE miniport_device_context;
	const DXGK_LINUX_MEMORY_BASIS_DDIS *memory_basis_ddis;
	const DXGK_LINUX_SEGMENT *segments;
	unsigned int nr_segments;
};

#define DXGKRNL_MAX_SEGMENTS	32

int __dxgkrnl_start_device(struct device *dev,
			   const struct dxgkrnl_start_info *info,
			   DXGKRNL_INTERFACE *iface, struct module *owner);
#define dxgkrnl_start_device(dev, info, iface) \
	__dxgkrnl_start_device(dev, info, iface, THIS_MODULE)
void dxgkrnl_stop_device(DXGKRNL_INTERFACE *iface);
u32 dxgkrnl_adapter_id(const DXGKRNL_INTERFACE *iface);

#endif /* _LINUX_DXGKRNL_H */
