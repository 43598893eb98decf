// SPDX-License-Identifier: GPL-2.0
/*
 * Dxgkrnl's side of a live migration, written with the Windows structures
 * and Dxgkrnl's DxgkLinux* dirty-bit calls (a driver's DxgkDdi* are its
 * own: Documentation/porting.rst, "The memory-basis calls' names"): a
 * VF's framebuffer reserve in the adapter's local segment is one memory
 * basis; tracking starts, the whole reserve is copied once, then every
 * brownout pass reads and clears the dirty bits (CLEARDATA) and copies
 * only the pages they name, until a pass finds none.  In the blackout the
 * VM is paused: a query without CLEARDATA sizes the last transfer (and,
 * asked twice, gives the same answer), then the last pages move and the
 * copy must equal the reserve byte for byte.
 *
 * The VM's writes between passes come from the CPU and from the adapter's
 * DMA engine, with fewer pages each pass so that the migration converges.
 * Windows has no call for the engine or the CPU's view of the segment:
 * those come from the DxgkLinux* helpers, in vm_runs() only.  Each pass
 * checks that the bits name exactly the pages written since the last one.
 *
 * usage: dxgk-live-migration [ADAPTER]
 *	(default: the first adapter with a DMA engine)
 *
 * Prints one line per pass and per check; exits 0 when all pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdxgk.h"
#include "example_checks.h"

#define RESERVE_PAGES	64
#define MAX_PASSES	16
#define SEGMENT_ID	1

static int test_bit(const UCHAR *bits, unsigned int i)
{
	return bits[i / 8] >> (i % 8) & 1;
}

static unsigned int count_bits(const UCHAR *bits)
{
	unsigned int i, n = 0;

	for (i = 0; i < RESERVE_PAGES; i++)
		n += test_bit(bits, i);
	return n;
}

/*
 * Not Windows: the running VM.  In pass p it writes a shrinking set of
 * pages of the reserve, some by the CPU and some by the adapter's engine,
 * and records them in written[] (the bits the next query must show).
 */
static void vm_runs(HANDLE hAdapter, volatile UCHAR *Reserve,
		    UINT64 ReserveOffset, SIZE_T PageSize, unsigned int pass,
		    unsigned int cpu_pages, unsigned int engine_pages,
		    UCHAR *written)
{
	UCHAR Data[64];
	unsigned int k, page;
	char what[96];

	for (k = 0; k < cpu_pages; k++) {
		page = (pass * 7 + k * 5) % RESERVE_PAGES;
		Reserve[page * PageSize + pass] = (UCHAR)(pass << 4 | k);
		written[page / 8] |= 1 << (page % 8);
	}
	for (k = 0; k < engine_pages; k++) {
		page = (pass * 11 + 3 + k * 13) % RESERVE_PAGES;
		memset(Data, 0xE0 | pass, sizeof(Data));
		snprintf(what, sizeof(what), "pass %u: the engine writes page %u",
			 pass, page);
		if (check_status(DxgkLinuxEngineWriteSegment(hAdapter, SEGMENT_ID,
							     ReserveOffset + page * PageSize + 128,
							     Data, sizeof(Data)),
				 what))
			written[page / 8] |= 1 << (page % 8);
	}
}

/* Dxgkrnl's transfer: the pages the bits name, into the destination. */
static void copy_dirty(UCHAR *Image, const volatile UCHAR *Reserve,
		       SIZE_T PageSize, const UCHAR *bits)
{
	unsigned int i;
	SIZE_T b;

	for (i = 0; i < RESERVE_PAGES; i++)
		if (test_bit(bits, i))
			for (b = 0; b < PageSize; b++)
				Image[i * PageSize + b] = Reserve[i * PageSize + b];
}

int main(int argc, char **argv)
{
	/* Pages the VM writes by CPU and by engine in each brownout pass. */
	static const unsigned int cpu_load[] = { 24, 12, 6, 3, 1 };
	static const unsigned int engine_load[] = { 4, 2, 1, 1 };
	UCHAR Bits[RESERVE_PAGES / 8], Again[RESERVE_PAGES / 8];
	UCHAR Written[RESERVE_PAGES / 8];
	DXGKARG_QUERYDIRTYBITDATA Query;
	DXGKARG_CREATEMEMORYBASIS Basis;
	DXGK_LINUX_ADAPTER_INFO Info;
	HANDLE hAdapter, hMemoryBasis;
	unsigned int pass, dirty, cpu, engine;
	SIZE_T PageSize, SegmentSize, b;
	volatile UCHAR *Reserve;
	PVOID Segment;
	UCHAR *Image;
	char what[128];
	int converged = 0;

	if (argc > 2) {
		fprintf(stderr, "usage: %s [ADAPTER]\n", argv[0]);
		return 2;
	}
	if (!check_status(DxgkLinuxOpenAdapter(argc > 1 ? argv[1] : NULL,
					       DXGK_LINUX_ADAPTER_DMA_ENGINE,
					       &hAdapter),
			  "an adapter with a DMA engine") ||
	    !check_status(DxgkLinuxQueryAdapterInfo(hAdapter, &Info),
			  "its information"))
		return 1;
	PageSize = Info.SegmentCaps.PageSize;
	printf("adapter %s: segment %llu bytes, dirty-tracking page %zu bytes\n",
	       Info.Name, (unsigned long long)Info.SegmentSize, PageSize);
	/* The reserve: the segment's upper half, clear of the other tests. */
	if (Info.SegmentSize < 2ULL * RESERVE_PAGES * PageSize) {
		printf("FAIL: the segment is too small for %d pages\n",
		       RESERVE_PAGES);
		return 1;
	}
	if (!check_status(DxgkLinuxMapSegment(hAdapter, SEGMENT_ID, &Segment,
					      &SegmentSize),
			  "the segment's CPU view"))
		return 1;
	Image = malloc((SIZE_T)RESERVE_PAGES * PageSize);
	if (!Image) {
		DxgkLinuxUnmapSegment(Segment, SegmentSize);
		return 1;
	}

	memset(&Basis, 0, sizeof(Basis));
	Basis.SegmentId = SEGMENT_ID;
	Basis.RangeCount = 1;
	Basis.Ranges[0].SegmentOffset = Info.SegmentSize / 2;
	Basis.Ranges[0].SizeInBytes = (UINT64)RESERVE_PAGES * PageSize;
	Reserve = (volatile UCHAR *)Segment + Basis.Ranges[0].SegmentOffset;
	hMemoryBasis = DxgkLinuxCreateMemoryBasis(hAdapter, &Basis);
	check(!!hMemoryBasis, "DxgkLinuxCreateMemoryBasis gives a handle");
	if (!hMemoryBasis) {
		check_status(DxgkLinuxGetLastStatus(), "DxgkLinuxCreateMemoryBasis");
		DxgkLinuxUnmapSegment(Segment, SegmentSize);
		free(Image);
		return 1;
	}
	if (!check_status(DxgkLinuxStartDirtyTracking(hAdapter, hMemoryBasis),
			  "DxgkLinuxStartDirtyTracking"))
		goto destroy;

	/* Tracking is on: one full copy, then only what changes. */
	for (b = 0; b < (SIZE_T)RESERVE_PAGES * PageSize; b++)
		Image[b] = Reserve[b];
	printf("pass 0: full copy, %zu bytes\n",
	       (SIZE_T)RESERVE_PAGES * PageSize);

	for (pass = 1; pass <= MAX_PASSES && !converged; pass++) {
		memset(Written, 0, sizeof(Written));
		cpu = pass <= 5 ? cpu_load[pass - 1] : 0;
		engine = pass <= 4 ? engine_load[pass - 1] : 0;
		vm_runs(hAdapter, Reserve, Basis.Ranges[0].SegmentOffset,
			PageSize, pass, cpu, engine, Written);

		memset(Bits, 0xff, sizeof(Bits));
		memset(&Query, 0, sizeof(Query));
		Query.MemoryBasis = hMemoryBasis;
		Query.SubrangeSize = 0;
		Query.Buffer = Bits;
		Query.BufferSize = sizeof(Bits);
		Query.Flags = DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA;
		if (!check_status(DxgkLinuxQueryDirtyBitData(hAdapter, &Query),
				  "DxgkLinuxQueryDirtyBitData(CLEARDATA)"))
			break;
		dirty = count_bits(Bits);
		printf("pass %u: %u page(s) dirty, %zu bytes to copy\n", pass,
		       dirty, dirty * PageSize);
		snprintf(what, sizeof(what),
			 "pass %u: the bits name exactly the %u page(s) written",
			 pass, count_bits(Written));
		check(!memcmp(Bits, Written, sizeof(Bits)), what);
		copy_dirty(Image, Reserve, PageSize, Bits);
		converged = !dirty;
	}
	snprintf(what, sizeof(what), "converged after %u pass(es)", pass - 1);
	check(converged, what);

	/* Blackout: the VM's last writes before it was paused. */
	memset(Written, 0, sizeof(Written));
	vm_runs(hAdapter, Reserve, Basis.Ranges[0].SegmentOffset, PageSize,
		MAX_PASSES + 1, 2, 1, Written);
	memset(&Query, 0, sizeof(Query));
	Query.MemoryBasis = hMemoryBasis;
	Query.Buffer = Bits;
	Query.BufferSize = sizeof(Bits);
	Query.Flags = 0;
	if (check_status(DxgkLinuxQueryDirtyBitData(hAdapter, &Query),
			 "DxgkLinuxQueryDirtyBitData(size only)")) {
		dirty = count_bits(Bits);
		printf("blackout: %u page(s), %zu bytes to copy\n", dirty,
		       dirty * PageSize);
		check(!memcmp(Bits, Written, sizeof(Bits)),
		      "the size query names exactly the last pages written");
		Query.Buffer = Again;
		if (check_status(DxgkLinuxQueryDirtyBitData(hAdapter, &Query),
				 "DxgkLinuxQueryDirtyBitData(size only, again)"))
			check(!memcmp(Bits, Again, sizeof(Bits)),
			      "a query without CLEARDATA left the bits set");
		copy_dirty(Image, Reserve, PageSize, Bits);
	}
	for (b = 0; b < (SIZE_T)RESERVE_PAGES * PageSize &&
	     Image[b] == Reserve[b]; b++)
		;
	check(b == (SIZE_T)RESERVE_PAGES * PageSize,
	      "the migrated copy equals the reserve");

	check_status(DxgkLinuxStopDirtyTracking(hAdapter, hMemoryBasis),
		     "DxgkLinuxStopDirtyTracking");
	/* Untracked now: a query is refused. */
	check(DxgkLinuxQueryDirtyBitData(hAdapter, &Query) ==
	      STATUS_INVALID_PARAMETER,
	      "a query after the stop gets STATUS_INVALID_PARAMETER");
destroy:
	check_status(DxgkLinuxDestroyMemoryBasis(hAdapter, hMemoryBasis),
		     "DxgkLinuxDestroyMemoryBasis");
	DxgkLinuxUnmapSegment(Segment, SegmentSize);
	free(Image);
	printf("%s: %d check(s) failed\n", failures ? "FAIL" : "PASS",
	       failures);
	return failures ? 1 : 0;
}
