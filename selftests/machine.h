/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a selftest reads of the machine it runs on, with libc alone: shared
 * by the dxgpmo selftests (dxgpmo_test_utils.h) and libdxgk's, which link
 * nothing but the library.
 */
#ifndef DXGPMO_SELFTEST_MACHINE_H
#define DXGPMO_SELFTEST_MACHINE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * Where physical memory starts, from /proc/iomem (root only: others read
 * zeros): 0 on x86, 1 GiB on QEMU's arm64 virt machine, so windows that
 * x86 places in its low memory hold no RAM there.
 */
static inline uint64_t system_ram_start(void)
{
	unsigned long long start = 0, end;
	char line[256];
	FILE *f = fopen("/proc/iomem", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "System RAM") && line[0] != ' ' &&
		    sscanf(line, "%llx-%llx", &start, &end) == 2)
			break;
	fclose(f);
	return start;
}

#endif
