/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * libdxgk - the Windows display-driver memory calls (DxgkCb* physical
 * memory object callbacks, DxgkDdi* memory-basis and dirty-bit DDIs) by
 * their Windows names, carried out by dxgpmo (/dev/dxgpmo).
 *
 * The structures carry the fields, types and enum values that Microsoft's
 * DDI reference documents, so driver code written against those calls
 * compiles and runs here.  Every call returns an NTSTATUS; calls that
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
 * Only the C library is needed to use this header, from C11 or C++17.
 * Documentation/porting.rst maps every call to its dxgpmo ioctl.
 */
#ifndef LIBDXGK_H
#define LIBDXGK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The flag unions name their bits without a struct member name, as Windows
 * code expects (Flags.Contiguous): standard C11, an extension in C++ that
 * GCC and Clang accept silently when told so.
 */
#if defined(__cplusplus) && defined(__GNUC__)
#define LIBDXGK_ANONYMOUS __extension__
#else
#define LIBDXGK_ANONYMOUS
#endif

/*
 * Windows basic types, with their Windows widths (LP64 Linux has a 64-bit
 * long, Windows a 32-bit one).  A program that has them from elsewhere
 * defines LIBDXGK_HAVE_WINDOWS_TYPES first.
 */
#ifndef LIBDXGK_HAVE_WINDOWS_TYPES
typedef int32_t NTSTATUS;
typedef void *HANDLE;
typedef void *PVOID;
typedef unsigned char UCHAR;
typedef unsigned char BOOLEAN;
typedef uint32_t UINT;
typedef uint32_t ULONG;
typedef int32_t LONG;
typedef int64_t LONGLONG;
typedef uint64_t UINT64;
typedef size_t SIZE_T;
typedef uintptr_t ULONG_PTR;
typedef uintptr_t UINT_PTR;
typedef uint32_t ACCESS_MASK;

typedef union _LARGE_INTEGER {
	LIBDXGK_ANONYMOUS struct {
		ULONG LowPart;
		LONG HighPart;
	};
	struct {
		ULONG LowPart;
		LONG HighPart;
	} u;
	LONGLONG QuadPart;
} LARGE_INTEGER;
typedef LARGE_INTEGER PHYSICAL_ADDRESS;

/* Only carried through: dxgpmo sections have no name to look up. */
typedef struct _OBJECT_ATTRIBUTES *POBJECT_ATTRIBUTES;
#endif

#ifndef PAGE_SHIFT
#define PAGE_SHIFT 12
#endif
#ifndef PAGE_SIZE
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#endif

#ifndef NT_SUCCESS
#define NT_SUCCESS(Status) (((NTSTATUS)(Status)) >= 0)
#endif
/* An error, not a warning or information: both top bits set. */
#ifndef NT_ERROR
#define NT_ERROR(Status) ((((ULONG)(Status)) >> 30) == 3)
#endif

/*
 * The NTSTATUS values the calls return, with the errno each stands for
 * (DxgkLinuxNtStatusFromErrno() has the whole table; the porting page
 * explains each row).  Each is guarded: Windows' ntstatus.h has them, with
 * these values.
 */
#ifndef STATUS_SUCCESS
#define STATUS_SUCCESS			((NTSTATUS)0x00000000L)
#endif
#ifndef STATUS_UNSUCCESSFUL
#define STATUS_UNSUCCESSFUL		((NTSTATUS)0xC0000001L) /* other */
#endif
#ifndef STATUS_ACCESS_VIOLATION
#define STATUS_ACCESS_VIOLATION		((NTSTATUS)0xC0000005L) /* EFAULT */
#endif
#ifndef STATUS_INVALID_HANDLE
#define STATUS_INVALID_HANDLE		((NTSTATUS)0xC0000008L) /* ENOENT */
#endif
#ifndef STATUS_INVALID_PARAMETER
#define STATUS_INVALID_PARAMETER	((NTSTATUS)0xC000000DL) /* EINVAL */
#endif
#ifndef STATUS_NO_SUCH_DEVICE
#define STATUS_NO_SUCH_DEVICE		((NTSTATUS)0xC000000EL) /* ENODEV */
#endif
#ifndef STATUS_INVALID_DEVICE_REQUEST
#define STATUS_INVALID_DEVICE_REQUEST	((NTSTATUS)0xC0000010L) /* ENOTTY */
#endif
#ifndef STATUS_NO_MEMORY
#define STATUS_NO_MEMORY		((NTSTATUS)0xC0000017L) /* ENOMEM */
#endif
#ifndef STATUS_CONFLICTING_ADDRESSES
#define STATUS_CONFLICTING_ADDRESSES	((NTSTATUS)0xC0000018L) /* EEXIST */
#endif
#ifndef STATUS_ACCESS_DENIED
#define STATUS_ACCESS_DENIED		((NTSTATUS)0xC0000022L) /* EACCES */
#endif
#ifndef STATUS_BUFFER_TOO_SMALL
#define STATUS_BUFFER_TOO_SMALL		((NTSTATUS)0xC0000023L) /* ENOSPC */
#endif
#ifndef STATUS_PRIVILEGE_NOT_HELD
#define STATUS_PRIVILEGE_NOT_HELD	((NTSTATUS)0xC0000061L) /* EPERM */
#endif
#ifndef STATUS_INTEGER_OVERFLOW
#define STATUS_INTEGER_OVERFLOW		((NTSTATUS)0xC0000095L) /* EOVERFLOW */
#endif
#ifndef STATUS_NOT_SUPPORTED
#define STATUS_NOT_SUPPORTED		((NTSTATUS)0xC00000BBL) /* EOPNOTSUPP */
#endif
#ifndef STATUS_TOO_MANY_OPENED_FILES
#define STATUS_TOO_MANY_OPENED_FILES	((NTSTATUS)0xC000011FL) /* EMFILE */
#endif
#ifndef STATUS_CANCELLED
#define STATUS_CANCELLED		((NTSTATUS)0xC0000120L) /* EINTR */
#endif
#ifndef STATUS_INVALID_DEVICE_STATE
#define STATUS_INVALID_DEVICE_STATE	((NTSTATUS)0xC0000184L) /* EBUSY */
#endif
#ifndef STATUS_IO_DEVICE_ERROR
#define STATUS_IO_DEVICE_ERROR		((NTSTATUS)0xC0000185L) /* EIO */
#endif
#ifndef STATUS_INVALID_BUFFER_SIZE
#define STATUS_INVALID_BUFFER_SIZE	((NTSTATUS)0xC0000206L) /* E2BIG */
#endif
#ifndef STATUS_INVALID_ADDRESS
#define STATUS_INVALID_ADDRESS		((NTSTATUS)0xC0000141L) /* ERANGE */
#endif
#ifndef STATUS_INSUFFICIENT_RESOURCES
#define STATUS_INSUFFICIENT_RESOURCES	((NTSTATUS)0xC000009AL) /* EAGAIN */
#endif

/* The Mm cache types, which some drivers pass as CacheType. */
#ifndef LIBDXGK_HAVE_WINDOWS_TYPES
typedef enum _MEMORY_CACHING_TYPE {
	MmNonCached = 0,
	MmCached = 1,
	MmWriteCombined = 2,
	MmHardwareCoherentCached,
	MmNonCachedUnordered,
	MmUSWCCached,
	MmMaximumCacheType,
	MmNotMapped = -1
} MEMORY_CACHING_TYPE;
#endif

typedef enum _DXGK_MEMORY_CACHING_TYPE {
	DXGK_MEMORY_CACHING_TYPE_NON_CACHED = 0,
	DXGK_MEMORY_CACHING_TYPE_CACHED = 1,
	DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED = 2
} DXGK_MEMORY_CACHING_TYPE;

typedef enum _DXGK_PHYSICAL_MEMORY_TYPE {
	DXGK_PHYSICAL_MEMORY_TYPE_MDL = 0,
	DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY = 1,
	DXGK_PHYSICAL_MEMORY_TYPE_SECTION = 2,
	DXGK_PHYSICAL_MEMORY_TYPE_IO_SPACE = 3
} DXGK_PHYSICAL_MEMORY_TYPE;

typedef enum _DXGK_ACCESS_MODE {
	DXGK_ACCESS_MODE_KERNEL_MODE = 0,
	DXGK_ACCESS_MODE_USER_MODE = 1
} DXGK_ACCESS_MODE;

/* Section page protections (the Windows PAGE_* values). */
#ifndef PAGE_READONLY
#define PAGE_READONLY	0x02
#endif
#ifndef PAGE_READWRITE
#define PAGE_READWRITE	0x04
#endif

typedef UINT_PTR DXGK_PAGE_NUMBER;

typedef struct _DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT {
	HANDLE hAdapter;		/* in, optional */
	SIZE_T Size;			/* in */
	ULONG_PTR Context;		/* in, optional; never interpreted */
	DXGK_PHYSICAL_MEMORY_TYPE Type;	/* in: selects the union member */
	DXGK_MEMORY_CACHING_TYPE CacheType; /* in */

	LIBDXGK_ANONYMOUS union {
		struct {
			PHYSICAL_ADDRESS LowAddress;
			PHYSICAL_ADDRESS HighAddress;
			PHYSICAL_ADDRESS SkipBytes;
			UINT Flags;	/* MM_ALLOCATE_* */
		} Mdl;
		struct {
			PHYSICAL_ADDRESS LowestAcceptableAddress;
			PHYSICAL_ADDRESS HighestAcceptableAddress;
			PHYSICAL_ADDRESS BoundaryAddressMultiple;
		} ContiguousMemory;
		struct {
			ACCESS_MASK DesiredAccess;
			POBJECT_ATTRIBUTES ObjectAttributes;
			ULONG PageProtection;
			ULONG AllocationAttributes;
		} Section;
		struct {
			PHYSICAL_ADDRESS BaseAddress;
		} IOSpace;
	};
	HANDLE hPhysicalMemoryObject;	/* out */
	HANDLE hAdapterMemoryObject;	/* out: NULL without hAdapter */
} DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT;

typedef struct _DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT {
	HANDLE hPhysicalMemoryObject;
	HANDLE hAdapterMemoryObject;	/* optional: closed as well */
} DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT;

typedef struct _DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT {
	HANDLE hPhysicalMemoryObject;	/* in */
	HANDLE hAdapter;		/* in */
	HANDLE hAdapterMemoryObject;	/* out */
} DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT;

typedef struct _DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT {
	HANDLE hAdapterMemoryObject;
} DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT;

typedef struct _DXGKARGCB_MAP_PHYSICAL_MEMORY {
	HANDLE hPhysicalMemoryObject;	/* in */
	DXGK_ACCESS_MODE AccessMode;	/* in */
	SIZE_T Offset;	/* in: offset in the object; out: from pMappedAddress */
	SIZE_T Size;	/* in: bytes wanted; out: bytes mapped */
	PVOID pMappedAddress;		/* out: base of the view */
} DXGKARGCB_MAP_PHYSICAL_MEMORY;

typedef struct _DXGKARGCB_UNMAP_PHYSICAL_MEMORY {
	HANDLE hPhysicalMemoryObject;
	PVOID pBaseAddress;	/* pMappedAddress as MAP returned it */
	SIZE_T Size;		/* Size as MAP returned it */
} DXGKARGCB_UNMAP_PHYSICAL_MEMORY;

/* As Windows has it: a struct wrapping the union. */
typedef struct _DXGK_ADL_FLAGS {
	LIBDXGK_ANONYMOUS union {
		LIBDXGK_ANONYMOUS struct {
			UINT Contiguous : 1;
			UINT Reserved : 31;
		};
		UINT Value;
	};
} DXGK_ADL_FLAGS;

typedef struct _DXGK_ADL {
	UINT PageCount;
	DXGK_ADL_FLAGS Flags;

	LIBDXGK_ANONYMOUS union {
		DXGK_PAGE_NUMBER BasePageNumber;	/* Flags.Contiguous */
		const DXGK_PAGE_NUMBER *Pages;		/* else: PageCount */
	};
} DXGK_ADL;

typedef union _DXGK_ALLOCATEADL_FLAGS {
	LIBDXGK_ANONYMOUS struct {
		UINT RequireContiguous : 1;
		UINT PreferContiguous : 1;
		UINT Reserved : 30;
	};
	UINT Value;
} DXGK_ALLOCATEADL_FLAGS;

typedef struct _DXGKARGCB_ALLOCATE_ADL {
	HANDLE hAdapterMemoryObject;	/* in */
	SIZE_T Offset;			/* in: page multiple */
	SIZE_T Size;			/* in: page multiple */
	DXGK_ALLOCATEADL_FLAGS Flags;	/* in */
	DXGK_ADL *pAdl;			/* out: owned by the library */
} DXGKARGCB_ALLOCATE_ADL;

typedef struct _DXGKARGCB_FREE_ADL {
	HANDLE hAdapterMemoryObject;	/* the one the ADL was made from */
	DXGK_ADL *pAdl;
} DXGKARGCB_FREE_ADL;

typedef struct _DXGK_MEMORYRANGE {
	UINT64 SegmentOffset;
	UINT64 SizeInBytes;
} DXGK_MEMORYRANGE;

/* Variable size: RangeCount entries follow, as on Windows. */
typedef struct _DXGKARG_CREATEMEMORYBASIS {
	UINT SegmentId;
	UINT64 RangeCount;
	DXGK_MEMORYRANGE Ranges[1];
} DXGKARG_CREATEMEMORYBASIS;

typedef enum _DXGKARG_QUERYDIRTYBITDATAFLAGS {
	DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA = 1
} DXGKARG_QUERYDIRTYBITDATAFLAGS;

typedef struct _DXGKARG_QUERYDIRTYBITDATA {
	HANDLE MemoryBasis;
	UINT64 SubrangeIndex;
	UINT64 SubrangeOffset;
	UINT64 SubrangeSize;	/* 0: the whole basis */
	PVOID Buffer;		/* one bit per page, LSB first */
	SIZE_T BufferSize;
	UINT Flags;		/* DXGKARG_QUERYDIRTYBITDATAFLAGS */
} DXGKARG_QUERYDIRTYBITDATA;

typedef struct _DXGK_DIRTY_BIT_TRACKING_SEGMENT_CAPS {
	UINT PageSize;
} DXGK_DIRTY_BIT_TRACKING_SEGMENT_CAPS;

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
 * The DDIs a driver implements and Dxgkrnl calls for dirty-bit tracking;
 * here dxgpmo implements them and the program plays Dxgkrnl.  Create
 * returns the basis handle, or NULL with the reason in
 * DxgkLinuxGetLastStatus(), as Windows gives it no status to return.
 */
HANDLE DxgkDdiCreateMemoryBasis(HANDLE hAdapter,
				const DXGKARG_CREATEMEMORYBASIS *pArgs);
NTSTATUS DxgkDdiDestroyMemoryBasis(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS DxgkDdiStartDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS DxgkDdiStopDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS DxgkDdiQueryDirtyBitData(HANDLE hAdapter,
				  DXGKARG_QUERYDIRTYBITDATA *pArgs);

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
 * first one with every bit of RequiredCaps when Name is NULL.  Adapter
 * handles need no closing.
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
