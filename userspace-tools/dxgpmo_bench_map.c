// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench scenario 3: CPU views of an object against anonymous
 * memory.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "dxgpmo_bench.h"

static double anon_touch(size_t size, uint32_t unused)
{
	double t = now();
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	touch(p, size);
	munmap(p, size);
	return now() - t;
}

static double map_touch(size_t size, uint32_t pmo)
{
	struct dxgpmo_map m = {
		.pmo_id = pmo, .access_mode = DXGPMO_ACCESS_USER,
		.length = size,
	};
	double t = now();

	if (dxgpmo_map(dev, &m))
		return -1;
	touch((void *)(uintptr_t)m.address, size);
	dxgpmo_unmap(dev, pmo, m.address, m.length);
	return now() - t;
}

static uint64_t window_offset;

static double mmap_touch(size_t size, uint32_t unused)
{
	double t = now();
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dev,
		       window_offset);

	if (p == MAP_FAILED)
		return -1;
	touch(p, size);
	munmap(p, size);
	return now() - t;
}

void scenario_map(void)
{
	struct pair_result r;
	size_t size;

	for (size = 4096; size <= max_size; size <<= 2) {
		struct dxgpmo_create_pmo c = { .length = size,
					       .cache_type = DXGPMO_CACHE_CACHED };
		unsigned int n = pairs_for(size);

		if (dxgpmo_create_pmo(dev, &c))
			continue;
		window_offset = c.mmap_offset;
		if (!paired(map_touch, c.pmo_id, anon_touch, 0, size, n, &r))
			report_pairs("map", "MAP user+touch+UNMAP", size,
				     "anon mmap+touch", &r, "");
		if (!paired(mmap_touch, 0, anon_touch, 0, size, n, &r))
			report_pairs("map", "mmap(2) window+touch", size,
				     "anon mmap+touch", &r, "");
		dxgpmo_destroy_pmo(dev, c.pmo_id, 0);
	}
}
