/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The Windows display-driver memory types: the DXGKARGCB_* blocks of the
 * physical memory object callbacks, DXGK_ADL, the memory-basis and
 * dirty-bit DDIs' arguments, the cache and object types, and the NTSTATUS
 * values with the errno each stands for.  Written once for both worlds:
 * libdxgk.h includes it in user space (with <stdint.h>), kernel code with
 * <linux/types.h>, so that a driver's memory code compiles the same in
 * either.  The fields, types and enum values are those Microsoft's DDI
 * reference documents, with the x64 layout, which arm64 shares: Linux's
 * LP64 differs from Windows' LLP64 only in long, which none of these
 * uses.
 */
#ifndef _DXGK_TYPES_H
#define _DXGK_TYPES_H

#ifdef __KERNEL__
#include <linux/stddef.h>
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

/*
 * The WDK's x64 layout, which arm64 Linux shares, checked wherever this
 * header compiles: in the kernel and in user space, C11 and C++11 on.
 */
#ifdef __cplusplus
#define DXGK_X64_LAYOUT(expr) static_assert(expr, #expr)
#else
#define DXGK_X64_LAYOUT(expr) _Static_assert(expr, #expr)
#endif
/* Handles and pointers are 64-bit: a 32-bit build fails, first here. */
DXGK_X64_LAYOUT(sizeof(void *) == 8);

/*
 * The flag unions name their bits without a struct member name, as Windows
 * code expects (Flags.Contiguous): standard C11, an extension in C++ that
 * GCC and Clang accept silently when told so.
 */
#ifndef DXGK_ANONYMOUS
#if defined(__cplusplus) && defined(__GNUC__)
#define DXGK_ANONYMOUS __extension__
#else
#define DXGK_ANONYMOUS
#endif
#endif

/*
 * Windows basic types, with their Windows widths (LP64 Linux has a 64-bit
 * long, Windows a 32-bit one).  Code that has them from elsewhere defines
 * DXGK_HAVE_WINDOWS_TYPES (or libdxgk's older LIBDXGK_HAVE_WINDOWS_TYPES)
 * first.
 */
#if defined(LIBDXGK_HAVE_WINDOWS_TYPES) && !defined(DXGK_HAVE_WINDOWS_TYPES)
#define DXGK_HAVE_WINDOWS_TYPES
#endif
#ifndef DXGK_HAVE_WINDOWS_TYPES
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
	DXGK_ANONYMOUS struct {
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

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

/* Only carried through: dxgpmo sections have no name to look up. */
typedef struct _OBJECT_ATTRIBUTES *POBJECT_ATTRIBUTES;
#endif

/* The kernel has its own (and its PAGE_READONLY is a page protection). */
#ifndef __KERNEL__
#ifndef PAGE_SHIFT
#define PAGE_SHIFT 12
#endif
#ifndef PAGE_SIZE
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#endif
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
 * (DXGK_STATUS_ERRNO_TABLE below is the whole table; the porting page
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

/*
 * errno <-> NTSTATUS, one row an errno, for libdxgk and kernel code
 * alike: X(errno, status) for each row, in the order of
 * Documentation/porting.rst's table.  Every other errno is
 * STATUS_UNSUCCESSFUL; a status not in the table is EIO.  Where it is
 * expanded, <errno.h> (<linux/errno.h>) gives the errnos.
 */
#define DXGK_STATUS_ERRNO_TABLE(X)				\
	X(0, STATUS_SUCCESS)					\
	X(EINVAL, STATUS_INVALID_PARAMETER)			\
	X(ENOMEM, STATUS_NO_MEMORY)				\
	X(ENOENT, STATUS_INVALID_HANDLE)			\
	X(EBUSY, STATUS_INVALID_DEVICE_STATE)			\
	X(EOPNOTSUPP, STATUS_NOT_SUPPORTED)			\
	X(EACCES, STATUS_ACCESS_DENIED)				\
	X(EPERM, STATUS_PRIVILEGE_NOT_HELD)			\
	X(ENOSPC, STATUS_BUFFER_TOO_SMALL)			\
	X(E2BIG, STATUS_INVALID_BUFFER_SIZE)			\
	X(EEXIST, STATUS_CONFLICTING_ADDRESSES)			\
	X(ERANGE, STATUS_INVALID_ADDRESS)			\
	X(EFAULT, STATUS_ACCESS_VIOLATION)			\
	X(ENODEV, STATUS_NO_SUCH_DEVICE)			\
	X(EOVERFLOW, STATUS_INTEGER_OVERFLOW)			\
	X(EINTR, STATUS_CANCELLED)				\
	X(EIO, STATUS_IO_DEVICE_ERROR)				\
	X(ENOTTY, STATUS_INVALID_DEVICE_REQUEST)		\
	X(EMFILE, STATUS_TOO_MANY_OPENED_FILES)			\
	X(EAGAIN, STATUS_INSUFFICIENT_RESOURCES)

/* The Mm cache types, which some drivers pass as CacheType. */
#ifndef DXGK_HAVE_WINDOWS_TYPES
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

/*
 * Section page protections (the Windows PAGE_* values).  Kernel code names
 * them DXGK_PAGE_*: the kernel's PAGE_READONLY and PAGE_READWRITE are page
 * table protections.
 */
#define DXGK_PAGE_READONLY	0x02
#define DXGK_PAGE_READWRITE	0x04
#ifndef __KERNEL__
#ifndef PAGE_READONLY
#define PAGE_READONLY	DXGK_PAGE_READONLY
#endif
#ifndef PAGE_READWRITE
#define PAGE_READWRITE	DXGK_PAGE_READWRITE
#endif
#endif

typedef UINT_PTR DXGK_PAGE_NUMBER;

typedef struct _DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT {
	HANDLE hAdapter;		/* in, optional */
	SIZE_T Size;			/* in */
	ULONG_PTR Context;		/* in, optional; never interpreted */
	DXGK_PHYSICAL_MEMORY_TYPE Type;	/* in: selects the union member */
	DXGK_MEMORY_CACHING_TYPE CacheType; /* in */

	DXGK_ANONYMOUS union {
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
DXGK_X64_LAYOUT(sizeof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT) == 80);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT, Type) == 24);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			 CacheType) == 28);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			 ContiguousMemory.BoundaryAddressMultiple) == 48);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			 Mdl.Flags) == 56);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			 Section.PageProtection) == 48);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			 hPhysicalMemoryObject) == 64);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			 hAdapterMemoryObject) == 72);

typedef struct _DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT {
	HANDLE hPhysicalMemoryObject;
	HANDLE hAdapterMemoryObject;	/* optional: closed as well */
} DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT;
DXGK_X64_LAYOUT(sizeof(DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT) == 16);

typedef struct _DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT {
	HANDLE hPhysicalMemoryObject;	/* in */
	HANDLE hAdapter;		/* in */
	HANDLE hAdapterMemoryObject;	/* out */
} DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT;
DXGK_X64_LAYOUT(sizeof(DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT) == 24);

typedef struct _DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT {
	HANDLE hAdapterMemoryObject;
} DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT;
DXGK_X64_LAYOUT(sizeof(DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT) == 8);

typedef struct _DXGKARGCB_MAP_PHYSICAL_MEMORY {
	HANDLE hPhysicalMemoryObject;	/* in */
	DXGK_ACCESS_MODE AccessMode;	/* in */
	SIZE_T Offset;	/* in: offset in the object; out: from pMappedAddress */
	SIZE_T Size;	/* in: bytes wanted; out: bytes mapped */
	PVOID pMappedAddress;		/* out: base of the view */
} DXGKARGCB_MAP_PHYSICAL_MEMORY;
DXGK_X64_LAYOUT(sizeof(DXGKARGCB_MAP_PHYSICAL_MEMORY) == 40);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_MAP_PHYSICAL_MEMORY, Offset) == 16);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_MAP_PHYSICAL_MEMORY, pMappedAddress) == 32);

typedef struct _DXGKARGCB_UNMAP_PHYSICAL_MEMORY {
	HANDLE hPhysicalMemoryObject;
	PVOID pBaseAddress;	/* pMappedAddress as MAP returned it */
	SIZE_T Size;		/* Size as MAP returned it */
} DXGKARGCB_UNMAP_PHYSICAL_MEMORY;
DXGK_X64_LAYOUT(sizeof(DXGKARGCB_UNMAP_PHYSICAL_MEMORY) == 24);

/* As Windows has it: a struct wrapping the union. */
typedef struct _DXGK_ADL_FLAGS {
	DXGK_ANONYMOUS union {
		DXGK_ANONYMOUS struct {
			UINT Contiguous : 1;
			UINT Reserved : 31;
		};
		UINT Value;
	};
} DXGK_ADL_FLAGS;
DXGK_X64_LAYOUT(sizeof(DXGK_ADL_FLAGS) == 4);

typedef struct _DXGK_ADL {
	UINT PageCount;
	DXGK_ADL_FLAGS Flags;

	DXGK_ANONYMOUS union {
		DXGK_PAGE_NUMBER BasePageNumber;	/* Flags.Contiguous */
		const DXGK_PAGE_NUMBER *Pages;		/* else: PageCount */
	};
} DXGK_ADL;
DXGK_X64_LAYOUT(sizeof(DXGK_ADL) == 16);
DXGK_X64_LAYOUT(offsetof(DXGK_ADL, BasePageNumber) == 8);
DXGK_X64_LAYOUT(offsetof(DXGK_ADL, Pages) == 8);

typedef union _DXGK_ALLOCATEADL_FLAGS {
	DXGK_ANONYMOUS struct {
		UINT RequireContiguous : 1;
		UINT PreferContiguous : 1;
		UINT Reserved : 30;
	};
	UINT Value;
} DXGK_ALLOCATEADL_FLAGS;
DXGK_X64_LAYOUT(sizeof(DXGK_ALLOCATEADL_FLAGS) == 4);

typedef struct _DXGKARGCB_ALLOCATE_ADL {
	HANDLE hAdapterMemoryObject;	/* in */
	SIZE_T Offset;			/* in: page multiple */
	SIZE_T Size;			/* in: page multiple */
	DXGK_ALLOCATEADL_FLAGS Flags;	/* in */
	DXGK_ADL *pAdl;			/* out: owned by the library */
} DXGKARGCB_ALLOCATE_ADL;
DXGK_X64_LAYOUT(sizeof(DXGKARGCB_ALLOCATE_ADL) == 40);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_ALLOCATE_ADL, Flags) == 24);
DXGK_X64_LAYOUT(offsetof(DXGKARGCB_ALLOCATE_ADL, pAdl) == 32);

typedef struct _DXGKARGCB_FREE_ADL {
	HANDLE hAdapterMemoryObject;	/* the one the ADL was made from */
	DXGK_ADL *pAdl;
} DXGKARGCB_FREE_ADL;
DXGK_X64_LAYOUT(sizeof(DXGKARGCB_FREE_ADL) == 16);

typedef struct _DXGK_MEMORYRANGE {
	UINT64 SegmentOffset;
	UINT64 SizeInBytes;
} DXGK_MEMORYRANGE;
DXGK_X64_LAYOUT(sizeof(DXGK_MEMORYRANGE) == 16);

/* Variable size: RangeCount entries follow, as on Windows. */
typedef struct _DXGKARG_CREATEMEMORYBASIS {
	UINT SegmentId;
	UINT64 RangeCount;
	DXGK_MEMORYRANGE Ranges[1];
} DXGKARG_CREATEMEMORYBASIS;
DXGK_X64_LAYOUT(sizeof(DXGKARG_CREATEMEMORYBASIS) == 32);
DXGK_X64_LAYOUT(offsetof(DXGKARG_CREATEMEMORYBASIS, Ranges) == 16);

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
DXGK_X64_LAYOUT(sizeof(DXGKARG_QUERYDIRTYBITDATA) == 56);
DXGK_X64_LAYOUT(offsetof(DXGKARG_QUERYDIRTYBITDATA, Flags) == 48);

typedef struct _DXGK_DIRTY_BIT_TRACKING_SEGMENT_CAPS {
	UINT PageSize;
} DXGK_DIRTY_BIT_TRACKING_SEGMENT_CAPS;

/*
 * Not Windows: the memory-basis DDIs a driver implements, as the
 * memory-basis members of DRIVER_INITIALIZATION_DATA (in its order) with
 * the Windows signatures.  hAdapter is the driver's own context for the
 * adapter (the MiniportDeviceContext of DxgkDdiAddDevice); Create returns
 * the driver's handle for the basis, NULL on failure.  The function types
 * are named DXGK_LINUX_DDI_* so as not to clash with the WDK's PDXGKDDI_*
 * in a driver that has them.  The kernel's <linux/dxgkrnl.h> registers
 * such a table for a device, libdxgk's DxgkLinuxRunLiveMigration() drives
 * one.
 */
typedef HANDLE DXGK_LINUX_DDI_CREATEMEMORYBASIS(HANDLE hAdapter,
						 const DXGKARG_CREATEMEMORYBASIS *pArgs);
typedef NTSTATUS DXGK_LINUX_DDI_DESTROYMEMORYBASIS(HANDLE hAdapter,
						   HANDLE hMemoryBasis);
typedef NTSTATUS DXGK_LINUX_DDI_STARTDIRTYTRACKING(HANDLE hAdapter,
						   HANDLE hMemoryBasis);
typedef NTSTATUS DXGK_LINUX_DDI_STOPDIRTYTRACKING(HANDLE hAdapter,
						  HANDLE hMemoryBasis);
typedef NTSTATUS DXGK_LINUX_DDI_QUERYDIRTYBITDATA(HANDLE hAdapter,
						  DXGKARG_QUERYDIRTYBITDATA *pArgs);

typedef struct _DXGK_LINUX_MEMORY_BASIS_DDIS {
	DXGK_LINUX_DDI_CREATEMEMORYBASIS *DxgkDdiCreateMemoryBasis;
	DXGK_LINUX_DDI_DESTROYMEMORYBASIS *DxgkDdiDestroyMemoryBasis;
	DXGK_LINUX_DDI_STARTDIRTYTRACKING *DxgkDdiStartDirtyTracking;
	DXGK_LINUX_DDI_STOPDIRTYTRACKING *DxgkDdiStopDirtyTracking;
	DXGK_LINUX_DDI_QUERYDIRTYBITDATA *DxgkDdiQueryDirtyBitData;
} DXGK_LINUX_MEMORY_BASIS_DDIS;

#undef DXGK_X64_LAYOUT

#endif /* _DXGK_TYPES_H */
