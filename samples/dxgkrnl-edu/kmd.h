/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Windows display driver's memory code on Linux: what kmd_memory.c (the
 * driver's code, Windows names only) and kmd_linux.c (the Linux glue:
 * probe, the edu engine, debugfs) share.  The services the glue gives the
 * memory code stand for what a KMD has from the WDK (ExAllocatePool2, a
 * fast mutex) or from its own hardware layer (the copy engine).
 */
#ifndef KMD_H
#define KMD_H

#include <linux/dxgkrnl.h>

/* The VRAM of the sample's "GPU": segment 1, tracked in 4 KiB pages. */
#define KMD_VRAM_SEGMENT_ID	1
#define KMD_VRAM_PAGES		64
#define KMD_PAGE_SIZE		4096

typedef struct _KMD_BASIS KMD_BASIS;

typedef struct _KMD_ADAPTER {
	DXGKRNL_INTERFACE DxgkInterface;
	/* The VRAM: an object, its CPU view and the engine's ADL. */
	HANDLE hVram;
	HANDLE hVramAmo;
	PVOID VramView;
	SIZE_T VramViewSize;
	DXGK_ADL *pVramAdl;
	/* What the engine copies from. */
	HANDLE hStaging;
	HANDLE hStagingAmo;
	PVOID StagingView;
	SIZE_T StagingViewSize;
	DXGK_ADL *pStagingAdl;
	/* The bases, under the glue's lock. */
	KMD_BASIS *Bases;
} KMD_ADAPTER;

/* The glue's services. */
#define POOL_FLAG_NON_PAGED	0x40ULL
PVOID ExAllocatePool2(UINT64 Flags, SIZE_T NumberOfBytes, ULONG Tag);
void ExFreePool(PVOID P);
void KmdLock(KMD_ADAPTER *Adapter);
void KmdUnlock(KMD_ADAPTER *Adapter);
/* The engine copies Length bytes between two device addresses. */
NTSTATUS KmdEngineCopy(KMD_ADAPTER *Adapter, UINT64 Source, UINT64 Destination,
		       ULONG Length);
/* One line of the step log: Passed, or failed with Why. */
void KmdReport(KMD_ADAPTER *Adapter, const char *Step, BOOLEAN Passed,
	       NTSTATUS Status);
void RtlCopyMemory(PVOID Destination, const void *Source, SIZE_T Length);
void RtlZeroMemory(PVOID Destination, SIZE_T Length);

/* The memory code. */
NTSTATUS KmdRunSequence(KMD_ADAPTER *Adapter);
NTSTATUS KmdStartVram(KMD_ADAPTER *Adapter);
void KmdStopVram(KMD_ADAPTER *Adapter);
NTSTATUS KmdVramWrite(KMD_ADAPTER *Adapter, SIZE_T Offset, const void *Data,
		      SIZE_T Length);
NTSTATUS KmdVramRead(KMD_ADAPTER *Adapter, SIZE_T Offset, PVOID Data,
		     SIZE_T Length);
extern const DXGK_LINUX_MEMORY_BASIS_DDIS KmdMemoryBasisDdis;
extern const DXGK_LINUX_SEGMENT KmdSegments[1];

#endif /* KMD_H */
