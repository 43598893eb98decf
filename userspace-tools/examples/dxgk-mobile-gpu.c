// SPDX-License-Identifier: GPL-2.0
/*
 * The memory setup of a WDDM driver for a mobile GPU, as public drivers of
 * that kind do it, written with the Windows names only: one physically
 * contiguous, uncached buffer below 4 GiB that the GPU reaches through a
 * contiguous ADL and the CPU through a kernel-mode map, then the teardown
 * in the driver's order (Unmap, FreeAdl, Destroy with both handles, no
 * Close).  Every output the driver relies on is checked.
 *
 * usage: dxgk-mobile-gpu [ADAPTER]   (default: the first adapter)
 *
 * Prints one line per check; exits 0 when all pass.
 */
#include <stdio.h>
#include <string.h>

#include "libdxgk.h"
#include "example_checks.h"

#define GPU_BUFFER_SIZE		(16 * PAGE_SIZE)
/* The GPU's window: the low 4 GiB, never across a 1 MiB line. */
#define GPU_LOWEST_ADDRESS	0x0ULL
#define GPU_HIGHEST_ADDRESS	0xFFFFFFFFULL
#define GPU_BOUNDARY		0x100000ULL

/*
 * Not Windows: what the GPU itself would do with the device address, done
 * by the adapter's DMA engine where it has one (edu).
 */
static void gpu_round_trip(HANDLE hAdapter, const DXGK_LINUX_ADAPTER_INFO *Info,
			   UINT64 DeviceAddress, UCHAR volatile *Cpu)
{
	UCHAR Seen[64], Sent[64];
	SIZE_T i;

	if (!(Info->Caps & DXGK_LINUX_ADAPTER_DMA_ENGINE)) {
		printf("note: the adapter has no DMA engine: no GPU access tried\n");
		return;
	}
	for (i = 0; i < sizeof(Seen); i++)
		Cpu[PAGE_SIZE + i] = (UCHAR)(0xA0 ^ i);
	memset(Seen, 0, sizeof(Seen));
	if (check_status(DxgkLinuxAdapterDma(hAdapter, DeviceAddress + PAGE_SIZE,
					     Seen, sizeof(Seen), 0),
			 "GPU read at BasePageNumber << PAGE_SHIFT")) {
		for (i = 0; i < sizeof(Seen) && Seen[i] == (UCHAR)(0xA0 ^ i); i++)
			;
		check(i == sizeof(Seen),
		      "the GPU reads what the CPU wrote through the map");
	}
	for (i = 0; i < sizeof(Sent); i++)
		Sent[i] = (UCHAR)(0x5C + i);
	if (check_status(DxgkLinuxAdapterDma(hAdapter,
					     DeviceAddress + 3 * PAGE_SIZE,
					     Sent, sizeof(Sent), 1),
			 "GPU write at BasePageNumber << PAGE_SHIFT")) {
		for (i = 0; i < sizeof(Sent) && Cpu[3 * PAGE_SIZE + i] == Sent[i];
		     i++)
			;
		check(i == sizeof(Sent),
		      "the CPU reads what the GPU wrote, through the map");
	}
}

int main(int argc, char **argv)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT Create;
	DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT Destroy;
	DXGKARGCB_ALLOCATE_ADL AllocateAdl;
	DXGKARGCB_FREE_ADL FreeAdl;
	DXGKARGCB_MAP_PHYSICAL_MEMORY Map;
	DXGKARGCB_UNMAP_PHYSICAL_MEMORY Unmap;
	DXGK_LINUX_ADAPTER_INFO Info;
	UINT64 DeviceAddress, LastByte;
	volatile UCHAR *Cpu;
	HANDLE hAdapter;
	DXGK_ADL *pAdl;

	if (argc > 2) {
		fprintf(stderr, "usage: %s [ADAPTER]\n", argv[0]);
		return 2;
	}
	if (!check_status(DxgkLinuxOpenAdapter(argc > 1 ? argv[1] : NULL, 0,
					       &hAdapter),
			  "the adapter"))
		return 1;
	/* Not knowing what the adapter is, is a failure, not "no engine". */
	if (!check_status(DxgkLinuxQueryAdapterInfo(hAdapter, &Info),
			  "DxgkLinuxQueryAdapterInfo"))
		return 1;

	memset(&Create, 0, sizeof(Create));
	Create.hAdapter = hAdapter;
	Create.Size = GPU_BUFFER_SIZE;
	Create.Type = DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY;
	/* The driver passes the Mm value; the numbers are the same. */
	Create.CacheType = (DXGK_MEMORY_CACHING_TYPE)MmNonCached;
	Create.ContiguousMemory.LowestAcceptableAddress.QuadPart =
		GPU_LOWEST_ADDRESS;
	Create.ContiguousMemory.HighestAcceptableAddress.QuadPart =
		GPU_HIGHEST_ADDRESS;
	Create.ContiguousMemory.BoundaryAddressMultiple.QuadPart = GPU_BOUNDARY;
	if (!check_status(DxgkCbCreatePhysicalMemoryObject(&Create),
			  "DxgkCbCreatePhysicalMemoryObject"))
		return 1;
	check(!!Create.hPhysicalMemoryObject,
	      "hPhysicalMemoryObject is not NULL");
	check(!!Create.hAdapterMemoryObject,
	      "hAdapterMemoryObject is not NULL");
	if (!Create.hPhysicalMemoryObject || !Create.hAdapterMemoryObject)
		return 1;

	memset(&AllocateAdl, 0, sizeof(AllocateAdl));
	AllocateAdl.hAdapterMemoryObject = Create.hAdapterMemoryObject;
	AllocateAdl.Offset = 0;
	AllocateAdl.Size = GPU_BUFFER_SIZE;
	AllocateAdl.Flags.RequireContiguous = 1;
	if (!check_status(DxgkCbAllocateAdl(&AllocateAdl), "DxgkCbAllocateAdl"))
		goto destroy;
	pAdl = AllocateAdl.pAdl;
	check(!!pAdl, "pAdl is not NULL");
	if (!pAdl)
		goto destroy;
	check(pAdl->Flags.Contiguous, "pAdl->Flags.Contiguous");
	check(pAdl->PageCount == GPU_BUFFER_SIZE / PAGE_SIZE,
	      "pAdl->PageCount == Size / PAGE_SIZE");
	DeviceAddress = (UINT64)pAdl->BasePageNumber << PAGE_SHIFT;
	LastByte = DeviceAddress + (UINT64)pAdl->PageCount * PAGE_SIZE - 1;
	printf("device address 0x%llx, %u pages\n",
	       (unsigned long long)DeviceAddress, pAdl->PageCount);
	/*
	 * The window and the boundary are of physical addresses.  Only where
	 * the device address is the physical one (no IOMMU: the virtual
	 * adapter) can the ADL show whether they were kept; an IOVA says
	 * nothing about them, only that the device can reach it.  Page
	 * numbers read 0 without CAP_SYS_ADMIN: the checks run as root.
	 */
	if (!(Info.Caps & DXGK_LINUX_ADAPTER_IOMMU)) {
		check(pAdl->BasePageNumber != 0,
		      "the base page number is shown (run as root)");
		check((LONGLONG)DeviceAddress >=
		      Create.ContiguousMemory.LowestAcceptableAddress.QuadPart &&
		      (LONGLONG)LastByte <=
		      Create.ContiguousMemory.HighestAcceptableAddress.QuadPart,
		      "the buffer is inside the GPU's physical window");
		check(DeviceAddress / GPU_BOUNDARY == LastByte / GPU_BOUNDARY,
		      "the buffer does not cross a BoundaryAddressMultiple line");
	} else {
		printf("note: IOMMU adapter: device addresses are IOVAs, which do not show the physical window\n");
	}
	check((UINT64)Info.HighestVisibleAddress.QuadPart >= LastByte,
	      "the device can address the whole buffer (DMA mask)");

	memset(&Map, 0, sizeof(Map));
	Map.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
	Map.AccessMode = DXGK_ACCESS_MODE_KERNEL_MODE;
	Map.Offset = 0;
	Map.Size = GPU_BUFFER_SIZE;
	if (check_status(DxgkCbMapPhysicalMemory(&Map),
			 "DxgkCbMapPhysicalMemory")) {
		check(Map.Offset <= Map.Size, "Offset <= Size after MAP");
		check(Map.Size >= GPU_BUFFER_SIZE,
		      "Size after MAP covers the buffer");
		if (check(!!Map.pMappedAddress, "pMappedAddress is not NULL")) {
			Cpu = (volatile UCHAR *)Map.pMappedAddress + Map.Offset;
			/* Uncached: the GPU sees these stores without a flush. */
			Cpu[0] = 0x11;
			Cpu[GPU_BUFFER_SIZE - 1] = 0x22;
			check(Cpu[0] == 0x11 &&
			      Cpu[GPU_BUFFER_SIZE - 1] == 0x22,
			      "the CPU reads back its writes at pMappedAddress + Offset");
			gpu_round_trip(hAdapter, &Info, DeviceAddress, Cpu);
		}

		memset(&Unmap, 0, sizeof(Unmap));
		Unmap.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
		Unmap.pBaseAddress = Map.pMappedAddress;
		Unmap.Size = Map.Size;
		check_status(DxgkCbUnmapPhysicalMemory(&Unmap),
			     "DxgkCbUnmapPhysicalMemory");
	}

	memset(&FreeAdl, 0, sizeof(FreeAdl));
	FreeAdl.hAdapterMemoryObject = Create.hAdapterMemoryObject;
	FreeAdl.pAdl = pAdl;
	if (!check_status(DxgkCbFreeAdl(&FreeAdl), "DxgkCbFreeAdl")) {
		/*
		 * Destroying with a live ADL bugchecks, on Windows and here:
		 * leave the object to the end of the process instead.
		 */
		printf("FAIL: %d check(s) failed\n", failures);
		return 1;
	}

destroy:
	memset(&Destroy, 0, sizeof(Destroy));
	Destroy.hPhysicalMemoryObject = Create.hPhysicalMemoryObject;
	Destroy.hAdapterMemoryObject = Create.hAdapterMemoryObject;
	check_status(DxgkCbDestroyPhysicalMemoryObject(&Destroy),
		     "DxgkCbDestroyPhysicalMemoryObject");
	/* Destroy closed the adapter memory object: it is gone now. */
	check(DxgkCbDestroyPhysicalMemoryObject(&Destroy) ==
	      STATUS_INVALID_HANDLE,
	      "a second Destroy gets STATUS_INVALID_HANDLE");

	printf("%s: %d check(s) failed\n", failures ? "FAIL" : "PASS",
	       failures);
	return failures ? 1 : 0;
}
