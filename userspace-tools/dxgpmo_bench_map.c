// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench scenario 3: CPU views of an object against anonymous
 * memory, and copies through kernel views of each cache type.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
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
	/*
	 * UNMAP leaves the address range reserved until the process unmaps
	 * it, as libdxgk does; left, each pair's range stayed reserved, and
	 * the window offsets with it, for the rest of the run.
	 */
	munmap((void *)(uintptr_t)m.address, m.length);
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

/* KMAP_RW of a whole kernel view (map: its map id) and this buffer. */
static uint8_t *kmap_buf;

static double kmap_read(size_t size, uint32_t map)
{
	double t = now();

	if (dxgpmo_kmap_rw(dev, map, 0, 0, kmap_buf, size))
		return -1;
	return now() - t;
}

static double kmap_write(size_t size, uint32_t map)
{
	double t = now();

	if (dxgpmo_kmap_rw(dev, map, DXGPMO_KMAP_WRITE, 0, kmap_buf, size))
		return -1;
	return now() - t;
}

/*
 * Up to 16 MiB: three kernel views of that size stay well inside
 * max_kmap_mb (256 by default, which make bench keeps), and a non-cached
 * copy of more is only more of the same.
 */
#define KMAP_MAX	(16UL << 20)

/*
 * KMAP_RW through a non-cached kernel view against the same copy through
 * a write-combined view and through a cached one of the same size.  An
 * uncached copy cannot be as fast as the others; one made of narrow
 * accesses is several times slower than it needs to be.  TCG models no
 * memory types: there the rows see how many accesses a copy makes, not
 * what an uncached one costs.
 */
static void kmap_rows(size_t size)
{
	static const uint32_t caches[] = {
		DXGPMO_CACHE_NON_CACHED, DXGPMO_CACHE_WRITE_COMBINED,
		DXGPMO_CACHE_CACHED,
	};
	static const struct {
		const char *what;
		double (*fn)(size_t size, uint32_t map);
	} ops[] = {
		{ "KMAP_RW read", kmap_read },
		{ "KMAP_RW write", kmap_write },
	};
	struct dxgpmo_create_pmo c[ARRAY_SIZE(caches)] = { 0 };
	struct dxgpmo_map m[ARRAY_SIZE(caches)] = { 0 };
	unsigned int i, o, made = 0, mapped = 0;
	char what[64], base[64];
	struct pair_result r;
	int ret;

	kmap_buf = malloc(size);
	if (!kmap_buf)
		return;
	memset(kmap_buf, 0x5a, size);
	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		c[i].length = size;
		c[i].cache_type = caches[i];
		ret = dxgpmo_create_pmo(dev, &c[i]);
		if (ret)
			goto fail;
		made++;
		m[i].pmo_id = c[i].pmo_id;
		m[i].access_mode = DXGPMO_ACCESS_KERNEL;
		m[i].length = size;
		ret = dxgpmo_map(dev, &m[i]);
		if (ret)
			goto fail;
		mapped++;
	}
	for (o = 0; o < ARRAY_SIZE(ops); o++) {
		snprintf(what, sizeof(what), "%s (non-cached)", ops[o].what);
		for (i = 1; i < ARRAY_SIZE(caches); i++) {
			if (paired(ops[o].fn, m[0].map_id, ops[o].fn,
				   m[i].map_id, size, pairs_for(size), &r))
				continue;
			snprintf(base, sizeof(base), "%s (%s)", ops[o].what,
				 dxgpmo_cache_name(caches[i]));
			report_pairs("map", what, size, base, &r, "");
		}
	}
	goto out;
fail:
	printf("# map: KMAP_RW rows skipped at %zu KiB: %s view: %s\n",
	       size >> 10, dxgpmo_cache_name(caches[i]), strerror(-ret));
out:
	for (i = 0; i < made; i++) {
		if (i < mapped)
			dxgpmo_unmap(dev, c[i].pmo_id, m[i].address,
				     m[i].length);
		dxgpmo_destroy_pmo(dev, c[i].pmo_id, 0);
	}
	free(kmap_buf);
	kmap_buf = NULL;
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
			report_pairs("map", "MAP user+touch+UNMAP+munmap", size,
				     "anon mmap+touch", &r, "");
		if (!paired(mmap_touch, 0, anon_touch, 0, size, n, &r))
			report_pairs("map", "mmap(2) window+touch", size,
				     "anon mmap+touch", &r, "");
		dxgpmo_destroy_pmo(dev, c.pmo_id, 0);
		if (size >= (64 << 10) && size <= KMAP_MAX)
			kmap_rows(size);
	}
}
