// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk.so only, never libdxgk.a: the memory-basis calls under the names
 * libdxgk 0.1 exported them by, the DDIs' own (DxgkDdiCreateMemoryBasis
 * ...), for programs linked against it then.  Each is the symbol version
 * LIBDXGK_0 of that name and not its default (name@LIBDXGK_0, one @): the
 * dynamic linker binds those programs' references to it, but no link
 * made now does, and a program's own DxgkDdi* functions are never taken
 * for these nor these for them.  libdxgk.h declares the calls under their
 * DxgkLinux* names only (LIBDXGK_DDI_NAMES gives the old ones as inline
 * functions of the program); Documentation/porting.rst says why.
 */
#include "libdxgk_internal.h"

/* Local to the .so (libdxgk.map's "local: *"); the versioned names are not. */
#define LIBDXGK_0_COMPAT(name) __attribute__((symver(#name "@LIBDXGK_0")))

LIBDXGK_0_COMPAT(DxgkDdiCreateMemoryBasis)
HANDLE dxgk_compat_create_memory_basis(HANDLE hAdapter,
				       const DXGKARG_CREATEMEMORYBASIS *pArgs);
HANDLE dxgk_compat_create_memory_basis(HANDLE hAdapter,
				       const DXGKARG_CREATEMEMORYBASIS *pArgs)
{
	return DxgkLinuxCreateMemoryBasis(hAdapter, pArgs);
}

LIBDXGK_0_COMPAT(DxgkDdiDestroyMemoryBasis)
NTSTATUS dxgk_compat_destroy_memory_basis(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS dxgk_compat_destroy_memory_basis(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return DxgkLinuxDestroyMemoryBasis(hAdapter, hMemoryBasis);
}

LIBDXGK_0_COMPAT(DxgkDdiStartDirtyTracking)
NTSTATUS dxgk_compat_start_dirty_tracking(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS dxgk_compat_start_dirty_tracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return DxgkLinuxStartDirtyTracking(hAdapter, hMemoryBasis);
}

LIBDXGK_0_COMPAT(DxgkDdiStopDirtyTracking)
NTSTATUS dxgk_compat_stop_dirty_tracking(HANDLE hAdapter, HANDLE hMemoryBasis);
NTSTATUS dxgk_compat_stop_dirty_tracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return DxgkLinuxStopDirtyTracking(hAdapter, hMemoryBasis);
}

LIBDXGK_0_COMPAT(DxgkDdiQueryDirtyBitData)
NTSTATUS dxgk_compat_query_dirty_bit_data(HANDLE hAdapter,
					  DXGKARG_QUERYDIRTYBITDATA *pArgs);
NTSTATUS dxgk_compat_query_dirty_bit_data(HANDLE hAdapter,
					  DXGKARG_QUERYDIRTYBITDATA *pArgs)
{
	return DxgkLinuxQueryDirtyBitData(hAdapter, pArgs);
}
