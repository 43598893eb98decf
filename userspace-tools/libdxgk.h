/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * libdxgk - the Windows display-driver memory calls (DxgkCb* physical
 * memory object callbacks by their Windows names, the memory-basis and
 * dirty-bit DDIs as Dxgkrnl's DxgkLinux* calls), carried out by dxgpmo
 * (/dev/dxgpmo).
 *
 * The structures (dxgk_types.h, shared with the kernel's <linux/dxgkrnl.h>)
 * carry the fields, types and enum values that Microsoft's DDI reference
 * documents, so driver code written against those calls compiles and runs
 * here.  Every call returns an NTSTATUS; calls that
 * return VOID on Windows also return one here, which Windows code is free
 * to ignore.  Handles are opaque: never dereference one.
 *
 * Sessions: a session is one open file of /dev/dxgpmo, which owns every
 * object made through it.  By default each process has one, opened on
 * first use.  A program that wants several (one per emulated adapter
 * instance, say) opens them with DxgkLinuxOpenSession() and selects one for
 * the calling thread with DxgkLinuxSetThreadSession().  Only calls that
 * make a handle from nothing (DxgkLinuxOpenAdapter, and Create without
 * hAdapter) use the current session; every other call uses the session of
 * the handle it is given.  A session belongs to the process that opened
 * it: after fork() the child gets its own default session (the library's
 * atfork handlers drop the parent's sessions and the thread session in
 * the child), and handles inherited from the parent are invalid there.
 *
 * Lifetime: a DXGK_LINUX_SESSION * is an encoded handle, not memory.  Each
 * call holds its session from the handle lookup to the end of its ioctl;
 * DxgkLinuxCloseSession() makes the session invalid for every thread at
 * once and its file is closed when the last call in flight returns.  Close
 * unmaps the session's CPU views (MAP views, segment maps) and frees its
 * ADLs.  EINTR is STATUS_CANCELLED and EAGAIN STATUS_INSUFFICIENT_RESOURCES,
 * neither retried.
 *
 * Only the C library is needed to use this header and dxgk_types.h, from
 * C11 or C++17.
 * Documentation/porting.rst maps every call to its dxgpmo ioctl.
 */
#ifndef LIBDXGK_H
#define LIBDXGK_H

#include <stddef.h>
#include <stdint.h>

#include "dxgk_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The callbacks Dxgkrnl hands a driver (DXGKRNL_INTERFACE). */
NTSTATUS DxgkCbCreatePhysicalMemoryObject(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *pArgs);
NTSTATUS DxgkCbDestroyPhysicalMemoryObject(const DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT *pArgs);
NTSTATUS DxgkCbOpenPhysicalMemoryObject(DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT *pArgs);
NTSTATUS DxgkCbClosePhysicalMemoryObject(const DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT *pArgs);
NTSTATUS DxgkCbAllocateAdl(DXGKARGCB_ALLOCATE_ADL *pArgs);
NTSTATUS DxgkCbFreeAdl(const DXGKARGCB_FREE_ADL *pArgs);
NTSTATUS DxgkCbMapPhysicalMemory(DXGKARGCB_MAP_PHYSICAL_MEMORY *pArgs);
NTSTATUS DxgkCbUnmapPhysicalMemory(const DXGKARGCB_UNMAP_PHYSICAL_MEMORY *pArgs);

/*
 * Memory bases and dirty-bit tracking, as Dxgkrnl calls them: on Windows
 * DxgkDdiCreateMemoryBasis and the four others are DDIs a driver
 * implements and Dxgkrnl calls; here dxgpmo implements them and the
 * program plays Dxgkrnl, so the library's calls carry a Dxgkrnl-side name
 * and never a driver's: a driver's own DxgkDdi* functions link next to
 * libdxgk.a and libdxgk.so, and stay the driver's.  Each takes the
 * arguments of the DDI of the same suffix.  Create returns the basis
 * handle, or NULL with the reason in DxgkLinuxGetLastStatus(), as Windows
 * gives it no status to return.
 */
HANDLE DxgkLinuxCreateMemoryBasis(HANDLE hAdapter,
				  const DXGKARG_CREATEMEMORYBASIS *pArgs);
NTSTATUS DxgkLinuxDestroyMemoryBasis(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS DxgkLinuxStartDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS DxgkLinuxStopDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS DxgkLinuxQueryDirtyBitData(HANDLE hAdapter,
				    DXGKARG_QUERYDIRTYBITDATA *pArgs);

/*
 * The DDIs' old names, for a program written against libdxgk 0.1 that
 * defines no DDI of its own: #define LIBDXGK_DDI_NAMES before this header
 * and they are the calls above, as inline functions of the program (no
 * macro, no symbol of the library).  A driver's port never defines it.
 */
#ifdef LIBDXGK_DDI_NAMES
static inline HANDLE
DxgkDdiCreateMemoryBasis(HANDLE hAdapter,
			 const DXGKARG_CREATEMEMORYBASIS *pArgs)
{
	return DxgkLinuxCreateMemoryBasis(hAdapter, pArgs);
}

static inline NTSTATUS DxgkDdiDestroyMemoryBasis(HANDLE hAdapter,
						 HANDLE hMemoryBasis)
{
	return DxgkLinuxDestroyMemoryBasis(hAdapter, hMemoryBasis);
}

static inline NTSTATUS DxgkDdiStartDirtyTracking(HANDLE hAdapter,
						 HANDLE hMemoryBasis)
{
	return DxgkLinuxStartDirtyTracking(hAdapter, hMemoryBasis);
}

static inline NTSTATUS DxgkDdiStopDirtyTracking(HANDLE hAdapter,
						HANDLE hMemoryBasis)
{
	return DxgkLinuxStopDirtyTracking(hAdapter, hMemoryBasis);
}

static inline NTSTATUS DxgkDdiQueryDirtyBitData(HANDLE hAdapter,
						DXGKARG_QUERYDIRTYBITDATA *pArgs)
{
	return DxgkLinuxQueryDirtyBitData(hAdapter, pArgs);
}
#endif /* LIBDXGK_DDI_NAMES */

/*
 * Dxgkrnl's live-migration loop, played against a driver's own
 * memory-basis DDIs (Documentation/porting.rst, "Testing a driver's
 * dirty-bit DDIs").  The driver's DDIs are a DXGK_LINUX_MEMORY_BASIS_DDIS
 * (dxgk_types.h), as its DRIVER_INITIALIZATION_DATA hands them to
 * Dxgkrnl, with the signatures of the calls above.
 */

/*
 * The driver's dirty-tracking hardware, emulated by the driver: told of
 * every write the workload makes into the segment, before the next query.
 */
typedef void DXGK_LINUX_MIGRATION_WRITE(PVOID Context, UINT SegmentId,
					UINT64 SegmentOffset, SIZE_T Size);

#define DXGK_LINUX_MIGRATION_MAX_PASSES	32

typedef struct _DXGK_LINUX_MIGRATION {
	const char *AdapterName;	/* NULL: the first virtual one */
	const DXGKARG_CREATEMEMORYBASIS *pBasis;	/* the ranges migrated */
	/* the driver's tracking page; 0: the module's, which it must equal */
	DXGK_DIRTY_BIT_TRACKING_SEGMENT_CAPS SegmentCaps;
	DXGK_LINUX_MIGRATION_WRITE *pfnNotifyWrite;
	PVOID Context;			/* pfnNotifyWrite's */
	UINT FirstPassWrites;		/* halved each brownout pass */
	UINT BlackoutWrites;		/* the last, after the brownout */
	UINT MaxPasses;			/* brownout passes, at most; 0: 16 */
	UINT Seed;			/* the workload's offsets and bytes */
} DXGK_LINUX_MIGRATION;

typedef struct _DXGK_LINUX_MIGRATION_RESULT {
	UINT Passes;			/* brownout passes run */
	BOOLEAN Converged;		/* the last one found no dirty page */
	UINT64 PagesCopied[DXGK_LINUX_MIGRATION_MAX_PASSES];
	UINT64 BlackoutPagesCopied;
	UINT64 Writes;			/* the workload's, all told */
	UINT64 MissedPages;	/* written, not reported: the driver's bug */
	UINT64 ExtraPages;	/* reported, not written: copied for nothing */
	UINT64 MismatchedBytes;	/* destination != segment after blackout */
} DXGK_LINUX_MIGRATION_RESULT;

/*
 * Opens the emulated segment (segment pBasis->SegmentId of the module's
 * adapter AdapterName, through DxgkLinuxMapSegment) and makes the same
 * basis with the driver's DDIs (on hDriverAdapter) and with the module's
 * own tracking; starts both, copies the ranges once, then runs brownout
 * passes: the workload writes the segment by the CPU, telling the
 * driver's hardware of each write, both are queried with CLEARDATA, the
 * driver's bits are compared with the module's, and the pages the driver
 * names are copied; until a pass finds none or MaxPasses.  Blackout: the
 * last writes, a last query and copy, and the copy compared with the
 * segment byte for byte.  Both bases are stopped and destroyed.
 * STATUS_SUCCESS: the driver reported every page written and the copy
 * equals the segment; STATUS_UNSUCCESSFUL: the loop ran but they did not
 * (pResult says how); STATUS_INVALID_HANDLE: the driver's Create gave
 * NULL; STATUS_NOT_SUPPORTED: SegmentCaps is not the module's; another
 * status: a call failed, the driver's or the module's, with pResult as
 * far as it got.
 */
NTSTATUS DxgkLinuxRunLiveMigration(const DXGK_LINUX_MEMORY_BASIS_DDIS *pDdis,
				   HANDLE hDriverAdapter,
				   const DXGK_LINUX_MIGRATION *pParams,
				   DXGK_LINUX_MIGRATION_RESULT *pResult);

/*
 * Not Windows: what the emulation adds.  Windows hands a driver its
 * adapter, its segment's CPU aperture and its engines; here they are
 * asked for by name.
 */
typedef struct _DXGK_LINUX_SESSION DXGK_LINUX_SESSION;

/* path NULL: /dev/dxgpmo.  The session is independent of the default. */
NTSTATUS DxgkLinuxOpenSession(const char *path, DXGK_LINUX_SESSION **ppSession);
/*
 * Destroys what the session still holds, as the process's exit would, and
 * unmaps its views and frees its ADLs; calls in flight in other threads
 * finish on the file, which closes after the last of them.
 */
NTSTATUS DxgkLinuxCloseSession(DXGK_LINUX_SESSION *pSession);
/* The calling thread's session from now on (NULL: the process default). */
void DxgkLinuxSetThreadSession(DXGK_LINUX_SESSION *pSession);

#define DXGK_LINUX_ADAPTER_IOMMU	0x1	/* ADL pages are IOVAs */
#define DXGK_LINUX_ADAPTER_DMA_ENGINE	0x2	/* DxgkLinuxAdapterDma works */
#define DXGK_LINUX_ADAPTER_VIRTUAL	0x4	/* no device: logical = physical */

typedef struct _DXGK_LINUX_ADAPTER_INFO {
	char Name[32];
	UINT Caps;				/* DXGK_LINUX_ADAPTER_* */
	PHYSICAL_ADDRESS HighestVisibleAddress;	/* the DMA mask */
	UINT64 SegmentSize;			/* segment 1, bytes */
	DXGK_DIRTY_BIT_TRACKING_SEGMENT_CAPS SegmentCaps;
} DXGK_LINUX_ADAPTER_INFO;

/*
 * An adapter of the current session by name ("edu0", "virtual0"), or the
 * first one with every bit of RequiredCaps when Name is NULL.  A kernel
 * driver's adapter (<linux/dxgkrnl.h>), which is not listed, by its
 * decimal id ("24") with RequiredCaps 0: its memory-basis calls reach the
 * driver's own DDIs, for a process with CAP_SYS_ADMIN.  Adapter handles
 * need no closing.
 */
NTSTATUS DxgkLinuxOpenAdapter(const char *Name, UINT RequiredCaps,
			      HANDLE *phAdapter);
NTSTATUS DxgkLinuxQueryAdapterInfo(HANDLE hAdapter,
				   DXGK_LINUX_ADAPTER_INFO *pInfo);
/* The CPU's view of a segment (the driver's BAR on Windows). */
NTSTATUS DxgkLinuxMapSegment(HANDLE hAdapter, UINT SegmentId,
			     PVOID *ppAddress, SIZE_T *pSize);
NTSTATUS DxgkLinuxUnmapSegment(PVOID pAddress, SIZE_T Size);
/*
 * The adapter's own engine moves Size bytes between Buffer and
 * DeviceAddress (an address of a live ADL): DeviceWrites says which way.
 */
NTSTATUS DxgkLinuxAdapterDma(HANDLE hAdapter, UINT64 DeviceAddress,
			     PVOID Buffer, SIZE_T Size, BOOLEAN DeviceWrites);
/* The same engine writing into segment SegmentId at SegmentOffset. */
NTSTATUS DxgkLinuxEngineWriteSegment(HANDLE hAdapter, UINT SegmentId,
				     UINT64 SegmentOffset, const void *Buffer,
				     SIZE_T Size);

/* The status of the calling thread's last call. */
NTSTATUS DxgkLinuxGetLastStatus(void);
/* The errno <-> NTSTATUS table. */
NTSTATUS DxgkLinuxNtStatusFromErrno(int Errno);
int DxgkLinuxErrnoFromNtStatus(NTSTATUS Status);
/* "STATUS_INVALID_PARAMETER", or NULL for a status not in the table. */
const char *DxgkLinuxNtStatusName(NTSTATUS Status);

#ifdef __cplusplus
}
#endif

#endif /* LIBDXGK_H */
