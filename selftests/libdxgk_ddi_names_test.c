// SPDX-License-Identifier: GPL-2.0
/*
 * A driver's own memory-basis DDIs next to libdxgk: this program defines
 * the five DxgkDdi* functions itself, as a Windows driver being ported
 * does, and is linked once with libdxgk.a (which must not define them:
 * "multiple definition") and once with libdxgk.so (which must not take
 * their place, nor be taken for them).  At run time the calls by those
 * names must reach this file's functions, and the library's own memory
 * basis calls, under their DxgkLinux* names, must still answer (no device
 * or handle is needed: a NULL adapter is STATUS_INVALID_HANDLE).
 *
 * scripts/libdxgk-check.sh builds and runs it both ways.  Prints
 * "libdxgk: PASS|FAIL name" lines; exits 1 on any failure.
 */
#include <stdio.h>
#include <string.h>

#include "libdxgk.h"
#include "libdxgk_report.h"

#ifndef LINKAGE
#define LINKAGE "unknown"
#endif

static unsigned int ddi_calls;

#define DDI_CREATE	0x01
#define DDI_DESTROY	0x02
#define DDI_START	0x04
#define DDI_STOP	0x08
#define DDI_QUERY	0x10

static int own_basis;

/* The driver's DDIs: each says it was called, and nothing else. */
HANDLE DxgkDdiCreateMemoryBasis(HANDLE hAdapter,
				const DXGKARG_CREATEMEMORYBASIS *pArgs)
{
	ddi_calls |= DDI_CREATE;
	return &own_basis;
}

NTSTATUS DxgkDdiDestroyMemoryBasis(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	ddi_calls |= DDI_DESTROY;
	return hMemoryBasis == &own_basis ? STATUS_SUCCESS :
		STATUS_INVALID_HANDLE;
}

NTSTATUS DxgkDdiStartDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	ddi_calls |= DDI_START;
	return STATUS_SUCCESS;
}

NTSTATUS DxgkDdiStopDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	ddi_calls |= DDI_STOP;
	return STATUS_SUCCESS;
}

NTSTATUS DxgkDdiQueryDirtyBitData(HANDLE hAdapter,
				  DXGKARG_QUERYDIRTYBITDATA *pArgs)
{
	ddi_calls |= DDI_QUERY;
	if (pArgs && pArgs->Buffer && pArgs->BufferSize)
		memset(pArgs->Buffer, 0xa5, pArgs->BufferSize);
	return STATUS_SUCCESS;
}

static void report(int ok, const char *name)
{
	report_prefixed(ok, "ddi_names_" LINKAGE "_", name);
}

int main(void)
{
	DXGKARG_CREATEMEMORYBASIS Basis;
	DXGKARG_QUERYDIRTYBITDATA Query;
	unsigned char Bits[4] = { 0 };
	HANDLE hBasis;
	int ok = 1;

	/* The names a driver owns reach the driver. */
	memset(&Basis, 0, sizeof(Basis));
	Basis.SegmentId = 1;
	Basis.RangeCount = 1;
	Basis.Ranges[0].SizeInBytes = PAGE_SIZE;
	hBasis = DxgkDdiCreateMemoryBasis(NULL, &Basis);
	EXPECT(hBasis == &own_basis);
	EXPECT(DxgkDdiStartDirtyTracking(NULL, hBasis) == STATUS_SUCCESS);
	memset(&Query, 0, sizeof(Query));
	Query.MemoryBasis = hBasis;
	Query.Buffer = Bits;
	Query.BufferSize = sizeof(Bits);
	EXPECT(DxgkDdiQueryDirtyBitData(NULL, &Query) == STATUS_SUCCESS);
	EXPECT(Bits[0] == 0xa5 && Bits[3] == 0xa5);
	EXPECT(DxgkDdiStopDirtyTracking(NULL, hBasis) == STATUS_SUCCESS);
	EXPECT(DxgkDdiDestroyMemoryBasis(NULL, hBasis) == STATUS_SUCCESS);
	EXPECT(ddi_calls == (DDI_CREATE | DDI_DESTROY | DDI_START | DDI_STOP |
			     DDI_QUERY));
	report(ok, "driver_ddis_are_the_drivers");

	/*
	 * The library's, under its own names: its checks answer (a NULL
	 * adapter or basis is no handle), and none of the driver's DDIs
	 * is called on the way.
	 */
	ok = 1;
	ddi_calls = 0;
	EXPECT(!DxgkLinuxCreateMemoryBasis(NULL, &Basis));
	EXPECT(DxgkLinuxGetLastStatus() == STATUS_INVALID_HANDLE);
	EXPECT(DxgkLinuxStartDirtyTracking(NULL, NULL) ==
	       STATUS_INVALID_HANDLE);
	EXPECT(DxgkLinuxStopDirtyTracking(NULL, NULL) ==
	       STATUS_INVALID_HANDLE);
	EXPECT(DxgkLinuxQueryDirtyBitData(NULL, &Query) ==
	       STATUS_INVALID_HANDLE);
	EXPECT(DxgkLinuxQueryDirtyBitData(NULL, NULL) ==
	       STATUS_INVALID_PARAMETER);
	EXPECT(DxgkLinuxDestroyMemoryBasis(NULL, NULL) ==
	       STATUS_INVALID_HANDLE);
	EXPECT(ddi_calls == 0);
	report(ok, "library_calls_are_the_librarys");
	return failed;
}
