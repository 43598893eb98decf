// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench scenario 1: create+destroy against anonymous memory and the
 * kernel's own allocators of DMA-able memory, and the buddy orders the
 * objects got.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dma-heap.h>
#include <linux/udmabuf.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dxgpmo_bench.h"

static double anon_populate(size_t size)
{
	double t = now();
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	munmap(p, size);
	return now() - t;
}

static double create_destroy(size_t size, uint32_t cache)
{
	struct dxgpmo_create_pmo c = { .length = size, .cache_type = cache };
	double t = now();

	if (dxgpmo_create_pmo(dev, &c))
		return -1;
	dxgpmo_destroy_pmo(dev, c.pmo_id, 0);
	return now() - t;
}

/*
 * The same with the module's pool of switched pages emptied first (by its
 * shrinker, through drop_caches, untimed): what the first write-combined
 * object of a size costs.
 */
static double create_destroy_cold(size_t size, uint32_t cache)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, "2", 1);
	close(fd);
	return n == 1 ? create_destroy(size, cache) : -1;
}

static double anon_populate2(size_t size, uint32_t unused)
{
	return anon_populate(size);
}

/* Buddy orders of one object's chunks, as "order:count" pairs. */
static void report_orders(size_t size)
{
	struct dxgpmo_create_pmo c = { .length = size,
				       .cache_type = DXGPMO_CACHE_CACHED };
	struct dxgpmo_test_cmd t = { .op = DXGPMO_TEST_OP_CHUNKS };
	char text[160] = "", js[200] = "";
	unsigned int o, chunks = 0;
	size_t n = 0, m = 0;

	if (!have_test_cmd || dxgpmo_create_pmo(dev, &c))
		return;
	t.id = c.pmo_id;
	if (test_cmd(&t)) {
		no_test_cmd("allocation orders");
		dxgpmo_destroy_pmo(dev, c.pmo_id, 0);
		return;
	}
	dxgpmo_destroy_pmo(dev, c.pmo_id, 0);
	m += snprintf(js + m, sizeof(js) - m, ",\"chunks_of_order\":{");
	for (o = 16; o-- > 0;) {
		if (!t.chunks_of_order[o])
			continue;
		chunks += t.chunks_of_order[o];
		n += snprintf(text + n, sizeof(text) - n, " order %u: %u", o,
			      t.chunks_of_order[o]);
		m += snprintf(js + m, sizeof(js) - m, "%s\"%u\":%u",
			      js[m - 1] == '{' ? "" : ",", o,
			      t.chunks_of_order[o]);
	}
	snprintf(js + m, sizeof(js) - m, "}");
	printf("%-10s %-30s %10zu KiB %u chunks:%s\n", "create",
	       "allocation orders", size >> 10, chunks, text);
	if (json)
		fprintf(json,
			"{\"scenario\":\"create\",\"what\":\"allocation orders\",\"size\":%zu,\"chunks\":%u%s}\n",
			size, chunks, js);
}

/*
 * The floor of create+destroy, timed in the module: zeroed pages of the
 * orders an object of this size and cache type got, allocated and freed,
 * with the cache maintenance a non-cacheable page needs where the linear
 * alias stays write-back (arm64); seconds per allocation and free.  The
 * object is made and destroyed around each call, untimed, rather than
 * kept for all the pairs: it takes its pages from the pool the subject's
 * destroy filled, so that at 1 GiB the subject, the object and the floor
 * never hold more than two objects' memory between them.
 */
static double zero_floor(size_t size, uint32_t cache)
{
	struct dxgpmo_create_pmo c = { .length = size, .cache_type = cache };
	struct dxgpmo_test_cmd t = { .op = DXGPMO_TEST_OP_BENCH_ZERO };
	int ret;

	if (dxgpmo_create_pmo(dev, &c))
		return -1;
	t.id = c.pmo_id;
	t.loops = in_module_loops(size);
	ret = test_cmd(&t);
	dxgpmo_destroy_pmo(dev, c.pmo_id, 0);
	if (ret == -ENOTTY || ret == -EINVAL)
		no_test_cmd("the zeroing floor");
	return ret ? -1 : t.zero_ns / 1e9 / t.loops;
}

/* The kernel's own allocators of DMA-able memory, where it has them. */
static int heap_fd = -1;
static int udmabuf_fd = -1;
static int peer_errno;	/* why the last peer call failed */

static double heap_alloc(size_t size, uint32_t unused)
{
	struct dma_heap_allocation_data a = {
		.len = size, .fd_flags = O_RDWR | O_CLOEXEC,
	};
	double t = now();

	if (ioctl(heap_fd, DMA_HEAP_IOCTL_ALLOC, &a)) {
		peer_errno = errno;
		return -1;
	}
	close(a.fd);
	return now() - t;
}

/* A memfd's pages as a dma-buf: the memfd, its size and seal, the buffer. */
static double udmabuf_create(size_t size, uint32_t unused)
{
	struct udmabuf_create u = {
		.flags = UDMABUF_FLAGS_CLOEXEC, .size = size,
	};
	double t = now();
	int memfd, buf;

	memfd = memfd_create("dxgpmo-bench", MFD_ALLOW_SEALING | MFD_CLOEXEC);
	if (memfd < 0)
		return -1;
	u.memfd = memfd;
	if (ftruncate(memfd, size) ||
	    fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		close(memfd);
		return -1;
	}
	buf = ioctl(udmabuf_fd, UDMABUF_CREATE, &u);
	if (buf < 0)
		peer_errno = errno;
	close(memfd);
	if (buf < 0)
		return -1;
	close(buf);
	return now() - t;
}

/*
 * Opens a kernel peer's device, or says once why its rows are missing: a
 * kernel without it (Debian's 6.1 builds neither peer) still runs the rest.
 */
static int open_peer(const char *path, const char *config)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		printf("# create vs %s skipped: %s (kernel without %s)\n", path,
		       strerror(errno), config);
	return fd;
}

/*
 * The subject against a peer, in pairs; a peer that fails at one size (a
 * limit of its own) says so once.
 */
static void report_peer(const char *what, size_t size, uint32_t cache,
			double (*peer)(size_t, uint32_t), const char *base,
			int *said)
{
	struct pair_result r;

	peer_errno = 0;
	if (!paired(create_destroy, cache, peer, 0, size, pairs_for(size),
		    &r)) {
		report_pairs("create", what, size, base, &r, "");
	} else if (!*said) {
		printf("# create vs %s skipped from %zu KiB: %s\n", base,
		       size >> 10, strerror(peer_errno ? peer_errno : errno));
		*said = 1;
	}
}

/*
 * DESTROY_PMO alone.  The object is made untimed, from the pool once a
 * destroy of the same size has filled it.
 */
static double destroy_only(size_t size, uint32_t cache)
{
	struct dxgpmo_create_pmo c = { .length = size, .cache_type = cache };
	double t;

	if (dxgpmo_create_pmo(dev, &c))
		return -1;
	t = now();
	if (dxgpmo_destroy_pmo(dev, c.pmo_id, 0))
		return -1;
	return now() - t;
}

/*
 * Destroying a non-cached object against a write-combined one and a
 * cached one of the same size.  On x86 the first two zero their pages
 * into the pool, through their own uncached and write-combined linear
 * alias: the non-cached zeroing is what the row is for.  On arm64 there
 * is no pool (pool.c: the alias stays write-back) and all three free to
 * the page allocator; the rows are printed all the same.  Under TCG,
 * which models no memory types, they see the accesses a zeroing makes,
 * not what uncached ones cost.  Up to 256 MiB: a 1 GiB object of each of
 * the two pooled types would pass the pool's cap (pool_max_mb=1536 in
 * make bench), and the rest would be switched back and freed instead of
 * pooled.
 */
static void destroy_rows(size_t size)
{
	static const uint32_t bases[] = {
		DXGPMO_CACHE_WRITE_COMBINED, DXGPMO_CACHE_CACHED,
	};
	struct pair_result r;
	char base[64];
	unsigned int i;

	if (size > (256 << 20))
		return;
	for (i = 0; i < ARRAY_SIZE(bases); i++) {
		if (paired(destroy_only, DXGPMO_CACHE_NON_CACHED, destroy_only,
			   bases[i], size, pairs_for(size), &r))
			continue;
		snprintf(base, sizeof(base), "destroy (%s%s)",
			 dxgpmo_cache_name(bases[i]),
			 bases[i] == DXGPMO_CACHE_CACHED ? "" : ", pooled");
		report_pairs("create", "destroy (non-cached, pooled)", size,
			     base, &r, "");
	}
}

void scenario_create(void)
{
	static const uint32_t caches[] = {
		DXGPMO_CACHE_CACHED, DXGPMO_CACHE_WRITE_COMBINED,
	};
	int heap_said = 0, udmabuf_said = 0;
	char what[64];
	size_t size;
	unsigned int i;

	heap_fd = open_peer("/dev/dma_heap/system", "CONFIG_DMABUF_HEAPS_SYSTEM");
	udmabuf_fd = open_peer("/dev/udmabuf", "CONFIG_UDMABUF");
	for (size = 4096; size <= max_size; size <<= 2) {
		unsigned int reps = reps_for(size);

		for (i = 0; i < ARRAY_SIZE(caches); i++) {
			struct pair_result r;

			snprintf(what, sizeof(what), "create+destroy (%s)",
				 dxgpmo_cache_name(caches[i]));
			if (!paired(create_destroy, caches[i], anon_populate2,
				    0, size, pairs_for(size), &r))
				report_pairs("create", what, size,
					     "anon mmap+populate", &r, "");
			if (heap_fd >= 0)
				report_peer(what, size, caches[i], heap_alloc,
					    "dma-heap system alloc",
					    &heap_said);
			if (udmabuf_fd >= 0)
				report_peer(what, size, caches[i],
					    udmabuf_create, "memfd+udmabuf",
					    &udmabuf_said);
			if (have_test_cmd &&
			    !paired(create_destroy, caches[i], zero_floor,
				    caches[i], size, pairs_for(size), &r))
				report_pairs("create", what, size,
					     "zeroed pages (floor)", &r, "");
		}
		if (!access("/proc/sys/vm/drop_caches", W_OK))
			report("create", "create+destroy (wc, cold pool)",
			       size, best(create_destroy_cold, size,
					  DXGPMO_CACHE_WRITE_COMBINED, reps),
			       "anon mmap+populate",
			       best(anon_populate2, size, 0, reps));
		destroy_rows(size);
		report_orders(size);
	}
	if (heap_fd >= 0)
		close(heap_fd);
	if (udmabuf_fd >= 0)
		close(udmabuf_fd);
}
