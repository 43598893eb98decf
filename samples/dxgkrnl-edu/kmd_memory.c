// SPDX-License-Identifier: GPL-2.0
/*
 * The memory code of a Windows display driver, as it would be written
 * for Windows: Dxgkrnl's callbacks through DxgkInterface, the
 * memory-basis DDIs Dxgkrnl calls, and the WDK's types; no Linux name.
 * kmd_linux.c is the Linux glue around it.
 *
 * KmdRunSequence() is the sequence a WDDM driver's memory manager runs:
 * CONTIGUOUS and MDL objects, ADLs with and without PreferContiguous, the
 * engine copying through an ADL's pages, a kernel-mode map, FreeAdl, and
 * Destroy with its AMO.  The VRAM is an MDL object the engine writes
 * (KmdVramWrite); the dirty-bit DDIs track those writes as a GPU's
 * tracking hardware would, per basis, for Dxgkrnl's live-migration loop.
 */
#include "kmd.h"

#define KMD_TAG		0x20646d4b	/* 'Kmd ' */
#define KMD_SEQ_PAGES	4

struct _KMD_BASIS {
	KMD_BASIS *Next;
	UINT SegmentId;
	ULONG TrackCount;
	UINT64 RangeCount;
	DXGK_MEMORYRANGE *Ranges;
	UINT64 *FirstBit;	/* of each range */
	UINT64 BitCount;
	/*
	 * The bitplane, one bit a page, LSB first: memory of its own, as a
	 * GPU's tracking hardware writes it, made through Dxgkrnl's
	 * callbacks from within the DDI.
	 */
	HANDLE hBitplane;
	HANDLE hBitplaneAmo;
	SIZE_T BitplaneViewSize;
	UCHAR *Bits;
};

static UINT64 AdlAddress(const DXGK_ADL *Adl, UINT64 Page)
{
	DXGK_PAGE_NUMBER Number = Adl->Flags.Contiguous ?
		Adl->BasePageNumber + Page : Adl->Pages[Page];

	return (UINT64)Number * KMD_PAGE_SIZE;
}

static BOOLEAN Check(KMD_ADAPTER *Adapter, const char *Step, NTSTATUS Status,
		     BOOLEAN Expected)
{
	BOOLEAN Passed = NT_SUCCESS(Status) && Expected;

	KmdReport(Adapter, Step, Passed, Status);
	return Passed;
}

static void FillPattern(UCHAR *Bytes, SIZE_T Length, UCHAR Seed)
{
	SIZE_T i;

	for (i = 0; i < Length; i++)
		Bytes[i] = (UCHAR)(Seed + i * 7);
}

static BOOLEAN SameBytes(const UCHAR *A, const UCHAR *B, SIZE_T Length)
{
	SIZE_T i;

	for (i = 0; i < Length; i++)
		if (A[i] != B[i])
			return FALSE;
	return TRUE;
}

/* A CONTIGUOUS object with its AMO; the engine copies page 0 to page 1. */
static void RunContiguous(KMD_ADAPTER *Adapter)
{
	DXGKRNL_INTERFACE *Dxgk = &Adapter->DxgkInterface;
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT Create = { NULL };
	DXGKARGCB_ALLOCATE_ADL Prefer = { 0 }, Plain = { NULL };
	DXGKARGCB_MAP_PHYSICAL_MEMORY Map = { NULL };
	DXGKARGCB_UNMAP_PHYSICAL_MEMORY Unmap = { NULL };
	DXGKARGCB_FREE_ADL Free = { NULL };
	DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT Destroy = { NULL };
	NTSTATUS Status;
	UCHAR *View;
	UINT i;

	Create.hAdapter = Dxgk->DeviceHandle;
	Create.Size = KMD_SEQ_PAGES * KMD_PAGE_SIZE;
	Create.Context = 0xC0FFEE;
	Create.Type = DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY;
	Create.CacheType = DXGK_MEMORY_CACHING_TYPE_CACHED;
	Create.ContiguousMemory.HighestAcceptableAddress.QuadPart = -1;
	Status = Dxgk->DxgkCbCreatePhysicalMemoryObject(&Create);
	if (!Check(Adapter, "contiguous_create", Status,
		   Create.hPhysicalMemoryObject && Create.hAdapterMemoryObject))
		return;

	Prefer.hAdapterMemoryObject = Create.hAdapterMemoryObject;
	Prefer.Size = Create.Size;
	Prefer.Flags.PreferContiguous = 1;
	Status = Dxgk->DxgkCbAllocateAdl(&Prefer);
	Check(Adapter, "adl_prefer_contiguous", Status,
	      NT_SUCCESS(Status) && Prefer.pAdl->Flags.Contiguous &&
	      Prefer.pAdl->PageCount == KMD_SEQ_PAGES);

	Plain.hAdapterMemoryObject = Create.hAdapterMemoryObject;
	Plain.Size = Create.Size;
	Status = Dxgk->DxgkCbAllocateAdl(&Plain);
	Check(Adapter, "adl_page_array", Status,
	      NT_SUCCESS(Status) && !Plain.pAdl->Flags.Contiguous &&
	      Plain.pAdl->PageCount == KMD_SEQ_PAGES &&
	      Plain.pAdl->Pages[1] == Plain.pAdl->Pages[0] + 1);

	Map.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
	Map.AccessMode = DXGK_ACCESS_MODE_KERNEL_MODE;
	Map.Size = Create.Size;
	Status = Dxgk->DxgkCbMapPhysicalMemory(&Map);
	if (Check(Adapter, "map_kernel_mode", Status,
		  Map.pMappedAddress && Map.Size >= Create.Size) &&
	    NT_SUCCESS(Plain.pAdl ? STATUS_SUCCESS : STATUS_UNSUCCESSFUL)) {
		View = (UCHAR *)Map.pMappedAddress + Map.Offset;
		FillPattern(View, KMD_PAGE_SIZE, 0x5a);
		RtlZeroMemory(View + KMD_PAGE_SIZE, KMD_PAGE_SIZE);
		Status = KmdEngineCopy(Adapter, AdlAddress(Plain.pAdl, 0),
				       AdlAddress(Plain.pAdl, 1),
				       KMD_PAGE_SIZE);
		Check(Adapter, "engine_copies_through_adl", Status,
		      SameBytes(View, View + KMD_PAGE_SIZE, KMD_PAGE_SIZE));
		Unmap.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
		Unmap.pBaseAddress = Map.pMappedAddress;
		Unmap.Size = Map.Size;
		Status = Dxgk->DxgkCbUnmapPhysicalMemory(&Unmap);
		Check(Adapter, "unmap", Status, TRUE);
	}

	/* User mode: a view in the calling process (here, the loader's). */
	RtlZeroMemory(&Map, sizeof(Map));
	Map.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
	Map.AccessMode = DXGK_ACCESS_MODE_USER_MODE;
	Map.Offset = KMD_PAGE_SIZE + 16;
	Map.Size = 32;
	Status = Dxgk->DxgkCbMapPhysicalMemory(&Map);
	if (Check(Adapter, "map_user_mode", Status,
		  Map.pMappedAddress && Map.Offset == 16 &&
		  Map.Size == KMD_PAGE_SIZE)) {
		Unmap.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
		Unmap.pBaseAddress = Map.pMappedAddress;
		Unmap.Size = Map.Size;
		Status = Dxgk->DxgkCbUnmapPhysicalMemory(&Unmap);
		Check(Adapter, "unmap_user_mode", Status, TRUE);
	}

	for (i = 0; i < 2; i++) {
		DXGKARGCB_ALLOCATE_ADL *Made = i ? &Plain : &Prefer;

		if (!Made->pAdl)
			continue;
		Free.hAdapterMemoryObject = Create.hAdapterMemoryObject;
		Free.pAdl = Made->pAdl;
		Status = Dxgk->DxgkCbFreeAdl(&Free);
		Check(Adapter, i ? "free_adl_page_array" :
			      "free_adl_contiguous", Status, TRUE);
	}
	/* Freed once: the second time is no ADL of the AMO's. */
	Status = Dxgk->DxgkCbFreeAdl(&Free);
	Check(Adapter, "free_adl_twice_refused",
	      Status == STATUS_INVALID_PARAMETER ? STATUS_SUCCESS : Status,
	      TRUE);

	Destroy.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
	Destroy.hAdapterMemoryObject = Create.hAdapterMemoryObject;
	Status = Dxgk->DxgkCbDestroyPhysicalMemoryObject(&Destroy);
	Check(Adapter, "destroy_with_amo", Status, TRUE);
}

/* An MDL object made without an adapter, opened on it, closed. */
static void RunMdl(KMD_ADAPTER *Adapter)
{
	DXGKRNL_INTERFACE *Dxgk = &Adapter->DxgkInterface;
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT Create = { NULL };
	DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT Open = { NULL };
	DXGKARGCB_ALLOCATE_ADL Adl = { NULL };
	DXGKARGCB_FREE_ADL Free = { NULL };
	DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT Close = { NULL };
	DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT Destroy = { NULL };
	NTSTATUS Status;

	Create.Size = KMD_SEQ_PAGES * KMD_PAGE_SIZE;
	Create.Type = DXGK_PHYSICAL_MEMORY_TYPE_MDL;
	Create.CacheType = DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED;
	Create.Mdl.HighAddress.QuadPart = -1;
	Status = Dxgk->DxgkCbCreatePhysicalMemoryObject(&Create);
	if (!Check(Adapter, "mdl_create_without_adapter", Status,
		   Create.hPhysicalMemoryObject &&
		   !Create.hAdapterMemoryObject))
		return;

	Open.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
	Open.hAdapter = Dxgk->DeviceHandle;
	Status = Dxgk->DxgkCbOpenPhysicalMemoryObject(&Open);
	if (Check(Adapter, "mdl_open", Status, !!Open.hAdapterMemoryObject)) {
		Adl.hAdapterMemoryObject = Open.hAdapterMemoryObject;
		Adl.Size = Create.Size;
		Status = Dxgk->DxgkCbAllocateAdl(&Adl);
		Check(Adapter, "mdl_adl", Status,
		      NT_SUCCESS(Status) &&
		      Adl.pAdl->PageCount == KMD_SEQ_PAGES);
		/* Destroy with a live ADL: refused, the object stays. */
		Destroy.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
		Status = Dxgk->DxgkCbDestroyPhysicalMemoryObject(&Destroy);
		Check(Adapter, "destroy_with_live_adl_refused",
		      NT_SUCCESS(Status) ? STATUS_UNSUCCESSFUL : STATUS_SUCCESS,
		      TRUE);
		if (Adl.pAdl) {
			Free.hAdapterMemoryObject = Open.hAdapterMemoryObject;
			Free.pAdl = Adl.pAdl;
			Status = Dxgk->DxgkCbFreeAdl(&Free);
			Check(Adapter, "mdl_free_adl", Status, TRUE);
		}
		Close.hAdapterMemoryObject = Open.hAdapterMemoryObject;
		Status = Dxgk->DxgkCbClosePhysicalMemoryObject(&Close);
		Check(Adapter, "mdl_close", Status, TRUE);
	}
	Destroy.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
	Status = Dxgk->DxgkCbDestroyPhysicalMemoryObject(&Destroy);
	Check(Adapter, "mdl_destroy", Status, TRUE);
	/* Its handle is gone with it. */
	Status = Dxgk->DxgkCbDestroyPhysicalMemoryObject(&Destroy);
	Check(Adapter, "destroyed_handle_invalid",
	      Status == STATUS_INVALID_HANDLE ? STATUS_SUCCESS : Status, TRUE);
}

NTSTATUS KmdRunSequence(KMD_ADAPTER *Adapter)
{
	RunContiguous(Adapter);
	RunMdl(Adapter);
	return STATUS_SUCCESS;
}

/*
 * An object of that many pages, its AMO, a kernel view and, with ppAdl, a
 * page-array ADL.
 */
static NTSTATUS MakeMemory(KMD_ADAPTER *Adapter, UINT Pages, HANDLE *phPmo,
			   HANDLE *phAmo, PVOID *pView, SIZE_T *pViewSize,
			   DXGK_ADL **ppAdl)
{
	DXGKRNL_INTERFACE *Dxgk = &Adapter->DxgkInterface;
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT Create = { NULL };
	DXGKARGCB_MAP_PHYSICAL_MEMORY Map = { NULL };
	DXGKARGCB_ALLOCATE_ADL Adl = { NULL };
	NTSTATUS Status;

	Create.hAdapter = Dxgk->DeviceHandle;
	Create.Size = (SIZE_T)Pages * KMD_PAGE_SIZE;
	Create.Type = DXGK_PHYSICAL_MEMORY_TYPE_MDL;
	Create.CacheType = DXGK_MEMORY_CACHING_TYPE_CACHED;
	Create.Mdl.HighAddress.QuadPart = -1;
	Status = Dxgk->DxgkCbCreatePhysicalMemoryObject(&Create);
	if (!NT_SUCCESS(Status))
		return Status;
	*phPmo = Create.hPhysicalMemoryObject;
	*phAmo = Create.hAdapterMemoryObject;
	Map.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
	Map.AccessMode = DXGK_ACCESS_MODE_KERNEL_MODE;
	Map.Size = Create.Size;
	Status = Dxgk->DxgkCbMapPhysicalMemory(&Map);
	if (!NT_SUCCESS(Status))
		return Status;
	*pView = Map.pMappedAddress;
	*pViewSize = Map.Size;
	if (!ppAdl)
		return STATUS_SUCCESS;
	Adl.hAdapterMemoryObject = Create.hAdapterMemoryObject;
	Adl.Size = Create.Size;
	Status = Dxgk->DxgkCbAllocateAdl(&Adl);
	*ppAdl = Adl.pAdl;
	return Status;
}

static void FreeMemory(KMD_ADAPTER *Adapter, HANDLE hPmo, HANDLE hAmo,
		       PVOID View, SIZE_T ViewSize, DXGK_ADL *Adl)
{
	DXGKRNL_INTERFACE *Dxgk = &Adapter->DxgkInterface;
	DXGKARGCB_UNMAP_PHYSICAL_MEMORY Unmap = { hPmo, View, ViewSize };
	DXGKARGCB_FREE_ADL Free = { hAmo, Adl };
	DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT Destroy = { hPmo, hAmo };

	if (!hPmo)
		return;
	if (Adl)
		Dxgk->DxgkCbFreeAdl(&Free);
	if (View)
		Dxgk->DxgkCbUnmapPhysicalMemory(&Unmap);
	Dxgk->DxgkCbDestroyPhysicalMemoryObject(&Destroy);
}

NTSTATUS KmdStartVram(KMD_ADAPTER *Adapter)
{
	NTSTATUS Status;

	Status = MakeMemory(Adapter, KMD_VRAM_PAGES, &Adapter->hVram,
			    &Adapter->hVramAmo, &Adapter->VramView,
			    &Adapter->VramViewSize, &Adapter->pVramAdl);
	if (NT_SUCCESS(Status))
		Status = MakeMemory(Adapter, 1, &Adapter->hStaging,
				    &Adapter->hStagingAmo,
				    &Adapter->StagingView,
				    &Adapter->StagingViewSize,
				    &Adapter->pStagingAdl);
	Check(Adapter, "vram_ready", Status, TRUE);
	return Status;
}

void KmdStopVram(KMD_ADAPTER *Adapter)
{
	FreeMemory(Adapter, Adapter->hStaging, Adapter->hStagingAmo,
		   Adapter->StagingView, Adapter->StagingViewSize,
		   Adapter->pStagingAdl);
	FreeMemory(Adapter, Adapter->hVram, Adapter->hVramAmo,
		   Adapter->VramView, Adapter->VramViewSize,
		   Adapter->pVramAdl);
}

/* The tracking "hardware": a write of Page sets its bit in every basis. */
static void MarkDirty(KMD_ADAPTER *Adapter, UINT64 Offset)
{
	KMD_BASIS *Basis;
	UINT64 i, Bit;

	for (Basis = Adapter->Bases; Basis; Basis = Basis->Next) {
		if (!Basis->TrackCount)
			continue;
		for (i = 0; i < Basis->RangeCount; i++) {
			const DXGK_MEMORYRANGE *R = &Basis->Ranges[i];

			if (Offset < R->SegmentOffset ||
			    Offset >= R->SegmentOffset + R->SizeInBytes)
				continue;
			Bit = Basis->FirstBit[i] +
			      (Offset - R->SegmentOffset) / KMD_PAGE_SIZE;
			Basis->Bits[Bit / 8] |= (UCHAR)(1 << (Bit % 8));
		}
	}
}

/* The engine writes the VRAM, a page at most, from the staging page. */
NTSTATUS KmdVramWrite(KMD_ADAPTER *Adapter, SIZE_T Offset, const void *Data,
		      SIZE_T Length)
{
	UINT64 Page = Offset / KMD_PAGE_SIZE;
	NTSTATUS Status;

	if (!Adapter->pVramAdl || !Adapter->pStagingAdl || !Length ||
	    Offset % KMD_PAGE_SIZE + Length > KMD_PAGE_SIZE ||
	    Page >= KMD_VRAM_PAGES)
		return STATUS_INVALID_PARAMETER;
	KmdLock(Adapter);
	RtlCopyMemory(Adapter->StagingView, Data, Length);
	Status = KmdEngineCopy(Adapter, AdlAddress(Adapter->pStagingAdl, 0),
			       AdlAddress(Adapter->pVramAdl, Page) +
			       Offset % KMD_PAGE_SIZE, (ULONG)Length);
	if (NT_SUCCESS(Status))
		MarkDirty(Adapter, Page * KMD_PAGE_SIZE);
	KmdUnlock(Adapter);
	return Status;
}

NTSTATUS KmdVramRead(KMD_ADAPTER *Adapter, SIZE_T Offset, PVOID Data,
		     SIZE_T Length)
{
	if (!Adapter->VramView || Offset > KMD_VRAM_PAGES * KMD_PAGE_SIZE ||
	    Length > KMD_VRAM_PAGES * KMD_PAGE_SIZE - Offset)
		return STATUS_INVALID_PARAMETER;
	KmdLock(Adapter);
	RtlCopyMemory(Data, (UCHAR *)Adapter->VramView + Offset, Length);
	KmdUnlock(Adapter);
	return STATUS_SUCCESS;
}

/* The memory-basis DDIs. */

static void FreeBitplane(KMD_ADAPTER *Adapter, KMD_BASIS *Basis)
{
	FreeMemory(Adapter, Basis->hBitplane, Basis->hBitplaneAmo, Basis->Bits,
		   Basis->BitplaneViewSize, NULL);
	ExFreePool(Basis);
}

static NTSTATUS MakeBitplane(KMD_ADAPTER *Adapter, KMD_BASIS *Basis)
{
	UINT64 Pages = (Basis->BitCount + 8 * KMD_PAGE_SIZE - 1) /
		       (8 * KMD_PAGE_SIZE);
	PVOID View = NULL;
	NTSTATUS Status;

	Status = MakeMemory(Adapter, (UINT)Pages, &Basis->hBitplane,
			    &Basis->hBitplaneAmo, &View,
			    &Basis->BitplaneViewSize, NULL);
	Basis->Bits = View;
	return Status;
}

static HANDLE KmdDdiCreateMemoryBasis(const HANDLE hAdapter,
				      const DXGKARG_CREATEMEMORYBASIS *pArgs)
{
	const DXGK_MEMORYRANGE *Ranges = pArgs->Ranges;
	KMD_ADAPTER *Adapter = hAdapter;
	KMD_BASIS *Basis;
	UINT64 i, Bits = 0;
	SIZE_T Size;

	if (pArgs->SegmentId != KMD_VRAM_SEGMENT_ID)
		return NULL;
	Size = sizeof(*Basis) + pArgs->RangeCount *
	       (sizeof(DXGK_MEMORYRANGE) + sizeof(UINT64));
	Basis = ExAllocatePool2(POOL_FLAG_NON_PAGED, Size, KMD_TAG);
	if (!Basis)
		return NULL;
	Basis->SegmentId = pArgs->SegmentId;
	Basis->RangeCount = pArgs->RangeCount;
	Basis->Ranges = (DXGK_MEMORYRANGE *)(Basis + 1);
	Basis->FirstBit = (UINT64 *)(Basis->Ranges + pArgs->RangeCount);
	for (i = 0; i < pArgs->RangeCount; i++) {
		Basis->Ranges[i] = Ranges[i];
		Basis->FirstBit[i] = Bits;
		Bits += Ranges[i].SizeInBytes / KMD_PAGE_SIZE;
	}
	Basis->BitCount = Bits;
	if (!NT_SUCCESS(MakeBitplane(Adapter, Basis))) {
		FreeBitplane(Adapter, Basis);
		return NULL;
	}
	KmdLock(Adapter);
	Basis->Next = Adapter->Bases;
	Adapter->Bases = Basis;
	KmdUnlock(Adapter);
	return Basis;
}

static NTSTATUS KmdDdiDestroyMemoryBasis(const HANDLE hAdapter,
					 const HANDLE hMemoryBasis)
{
	KMD_ADAPTER *Adapter = hAdapter;
	KMD_BASIS **Link;

	KmdLock(Adapter);
	for (Link = &Adapter->Bases; *Link; Link = &(*Link)->Next) {
		if (*Link != hMemoryBasis)
			continue;
		*Link = (*Link)->Next;
		KmdUnlock(Adapter);
		FreeBitplane(Adapter, hMemoryBasis);
		return STATUS_SUCCESS;
	}
	KmdUnlock(Adapter);
	return STATUS_INVALID_HANDLE;
}

/*
 * Start and Stop are counted per basis: tracking runs while any Start
 * is outstanding, and the bitplane begins all zero at the first.
 */
static NTSTATUS Track(const HANDLE hAdapter, KMD_BASIS *Basis, BOOLEAN Start)
{
	KmdLock(hAdapter);
	if (!Start)
		Basis->TrackCount--;
	else if (!Basis->TrackCount++)
		RtlZeroMemory(Basis->Bits, (Basis->BitCount + 7) / 8);
	KmdUnlock(hAdapter);
	return STATUS_SUCCESS;
}

static NTSTATUS KmdDdiStartDirtyTracking(const HANDLE hAdapter,
					 const HANDLE hMemoryBasis)
{
	return Track(hAdapter, hMemoryBasis, TRUE);
}

static NTSTATUS KmdDdiStopDirtyTracking(const HANDLE hAdapter,
					const HANDLE hMemoryBasis)
{
	return Track(hAdapter, hMemoryBasis, FALSE);
}

static NTSTATUS KmdDdiQueryDirtyBitData(const HANDLE hAdapter,
					DXGKARG_QUERYDIRTYBITDATA *pArgs)
{
	KMD_BASIS *Basis = pArgs->MemoryBasis;
	UCHAR *Out = pArgs->Buffer;
	UINT64 First = 0, Count = Basis->BitCount, i, Bit;

	if (pArgs->SubrangeSize) {
		First = Basis->FirstBit[pArgs->SubrangeIndex] +
			pArgs->SubrangeOffset / KMD_PAGE_SIZE;
		Count = pArgs->SubrangeSize / KMD_PAGE_SIZE;
	}
	if (pArgs->BufferSize < (Count + 7) / 8)
		return STATUS_BUFFER_TOO_SMALL;
	KmdLock(hAdapter);
	for (i = 0; i < Count; i++) {
		Bit = First + i;
		if (!(Basis->Bits[Bit / 8] & (1 << (Bit % 8))))
			continue;
		Out[i / 8] |= (UCHAR)(1 << (i % 8));
		if (pArgs->Flags & DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA)
			Basis->Bits[Bit / 8] &= (UCHAR)~(1 << (Bit % 8));
	}
	KmdUnlock(hAdapter);
	return STATUS_SUCCESS;
}

const DXGK_LINUX_MEMORY_BASIS_DDIS KmdMemoryBasisDdis = {
	.DxgkDdiCreateMemoryBasis = KmdDdiCreateMemoryBasis,
	.DxgkDdiDestroyMemoryBasis = KmdDdiDestroyMemoryBasis,
	.DxgkDdiStartDirtyTracking = KmdDdiStartDirtyTracking,
	.DxgkDdiStopDirtyTracking = KmdDdiStopDirtyTracking,
	.DxgkDdiQueryDirtyBitData = KmdDdiQueryDirtyBitData,
};

const DXGK_LINUX_SEGMENT KmdSegments[1] = {
	{
		.SegmentId = KMD_VRAM_SEGMENT_ID,
		.Size = KMD_VRAM_PAGES * KMD_PAGE_SIZE,
		.DirtyBitTrackingCaps.PageSize = KMD_PAGE_SIZE,
	},
};
