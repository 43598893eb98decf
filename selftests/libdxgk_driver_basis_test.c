// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk's memory-basis calls on a kernel driver's adapter, which
 * QUERY_ADAPTERS does not list, named by its id: they reach the driver's
 * own DDIs (the sample KMD's, samples/dxgkrnl-edu).  A write of the
 * driver's engine to page 1 of its VRAM between Start and the query must
 * be exactly bit 1; the query clears it.
 *
 * usage: libdxgk_driver_basis_test ADAPTER_ID VRAM_FILE
 * Prints "libdxgk: PASS|FAIL name" lines; exits 0 when all pass.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libdxgk.h"

int main(int argc, char **argv)
{
	DXGKARG_CREATEMEMORYBASIS Create = { 1, 1, { { 0, 16 * 4096 } } };
	DXGKARG_QUERYDIRTYBITDATA Query = { NULL };
	HANDLE hAdapter = NULL, hBasis;
	UCHAR Bits[2] = { 0 };
	int vram, ok;

	if (argc != 3) {
		fprintf(stderr, "usage: %s ADAPTER_ID VRAM_FILE\n", argv[0]);
		return 2;
	}
	ok = NT_SUCCESS(DxgkLinuxOpenAdapter(argv[1], 0, &hAdapter));
	printf("libdxgk: %s driver_adapter_by_id\n", ok ? "PASS" : "FAIL");
	hBasis = ok ? DxgkLinuxCreateMemoryBasis(hAdapter, &Create) : NULL;
	ok = hBasis &&
	     NT_SUCCESS(DxgkLinuxStartDirtyTracking(hAdapter, hBasis));
	printf("libdxgk: %s driver_basis_started\n", ok ? "PASS" : "FAIL");
	if (!ok)
		return 1;
	vram = open(argv[2], O_WRONLY);
	ok = vram >= 0 && pwrite(vram, "x", 1, 4096) == 1;
	printf("libdxgk: %s driver_engine_wrote\n", ok ? "PASS" : "FAIL");
	Query.MemoryBasis = hBasis;
	Query.Buffer = Bits;
	Query.BufferSize = sizeof(Bits);
	Query.Flags = DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA;
	ok = NT_SUCCESS(DxgkLinuxQueryDirtyBitData(hAdapter, &Query)) &&
	     Bits[0] == 1 << 1 && !Bits[1];
	printf("libdxgk: %s driver_bits_of_the_write (%02x %02x)\n",
	       ok ? "PASS" : "FAIL", Bits[0], Bits[1]);
	memset(Bits, 0, sizeof(Bits));
	ok = ok && NT_SUCCESS(DxgkLinuxQueryDirtyBitData(hAdapter, &Query)) &&
	     !Bits[0] && !Bits[1];
	printf("libdxgk: %s driver_bits_cleared\n", ok ? "PASS" : "FAIL");
	ok = NT_SUCCESS(DxgkLinuxStopDirtyTracking(hAdapter, hBasis)) &&
	     NT_SUCCESS(DxgkLinuxDestroyMemoryBasis(hAdapter, hBasis)) && ok;
	printf("libdxgk: %s driver_basis_destroyed\n", ok ? "PASS" : "FAIL");
	return !ok;
}
