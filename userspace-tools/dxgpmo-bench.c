// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench: costs of dxgpmo calls as ratios against a baseline measured
 * in the same run (TCG times mean nothing on their own).  Prints a table and,
 * with --json, one JSON object per measurement.
 *
 * Scenarios: 1 create+destroy vs anonymous mmap(MAP_POPULATE), vs an
 * allocation from the dma-buf system heap and vs a udmabuf of a memfd,
 * with the buddy orders the objects got; 2 ALLOCATE_ADL + FREE_ADL vs a
 * per-page dma_map_page() loop and vs dma_map_sgtable() of a prebuilt
 * sg_table on the same device, all timed inside the module
 * (DXGPMO_IOC_TEST, so the module must be loaded with debug_ioctls=1;
 * without it scenario 2 and the orders are skipped, saying so); 3 user
 * MAP + touch vs anonymous mmap + touch; 4 tracked segment writes + query
 * vs untracked writes vs soft-dirty, every page and every 16th page; 5
 * create/destroy throughput with threads, and per-object cost up to
 * 100,000 live objects.  1 GiB sizes run when the machine has the memory
 * for them.  A kernel peer the running kernel lacks is skipped, saying why.
 *
 * Usage: dxgpmo-bench [--json FILE]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dma-heap.h>
#include <linux/udmabuf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "libdxgpmo.h"
#include "dxgpmo_test.h"

#define PAGE 4096UL

static FILE *json;
static int dev;
static size_t max_size = 256UL << 20;
static int have_test_cmd = 1;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One measurement: a table row, and a JSON line when asked (extra: more
 * JSON members, each starting with a comma). */
static void report_extra(const char *scenario, const char *what, size_t size,
			 double t, const char *base, double tb,
			 const char *extra)
{
	double ratio = tb > 0 && t >= 0 ? t / tb : 0;

	if (json)
		fprintf(json, "{\"scenario\":\"%s\",\"what\":\"%s\","
			"\"size\":%zu,\"seconds\":%.9f,\"baseline\":\"%s\","
			"\"baseline_seconds\":%.9f,\"ratio\":%.3f%s}\n",
			scenario, what, size, t, base, tb, ratio, extra);
	if (!strcmp(scenario, "scale"))	/* size is a count here */
		printf("%-10s %-30s %14zu %11.1f us %-24s %11.1f us %7.2fx\n",
		       scenario, what, size, t * 1e6, base, tb * 1e6, ratio);
	else
		printf("%-10s %-30s %10zu KiB %11.1f us %-24s %11.1f us %7.2fx\n",
		       scenario, what, size >> 10, t * 1e6, base, tb * 1e6,
		       ratio);
	fflush(stdout);
}

static void report(const char *scenario, const char *what, size_t size,
		   double t, const char *base, double tb)
{
	report_extra(scenario, what, size, t, base, tb, "");
}

static int test_cmd(struct dxgpmo_test_cmd *t)
{
	t->size = sizeof(*t);
	return dxgpmo_ioctl(dev, DXGPMO_IOC_TEST, t);
}

static void no_test_cmd(const char *what)
{
	if (have_test_cmd) {
		printf("# %s skipped: DXGPMO_IOC_TEST refused (load the module with debug_ioctls=1)\n",
		       what);
		have_test_cmd = 0;
	}
}

static unsigned int reps_for(size_t size)
{
	return size >= (64 << 20) ? 3 : size >= (1 << 20) ? 10 : 50;
}

static void touch(volatile uint8_t *p, size_t size)
{
	size_t i;

	for (i = 0; i < size; i += PAGE)
		p[i] = (uint8_t)i;
}

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

static double best(double (*fn)(size_t, uint32_t), size_t size,
		   uint32_t arg, unsigned int reps)
{
	double b = 1e9, t;
	unsigned int i;

	for (i = 0; i < reps; i++) {
		t = fn(size, arg);
		if (t >= 0 && t < b)
			b = t;
	}
	return b;
}

static double anon_populate2(size_t size, uint32_t unused)
{
	return anon_populate(size);
}

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
		fprintf(json, "{\"scenario\":\"create\",\"what\":\"allocation orders\","
			"\"size\":%zu,\"chunks\":%u%s}\n", size, chunks, js);
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

/* A peer that fails at one size (a limit of its own) says so once. */
static void report_peer(const char *what, size_t size, double t,
			const char *base, double tb, int *said)
{
	if (tb < 1e9) {
		report("create", what, size, t, base, tb);
	} else if (!*said) {
		printf("# create vs %s skipped from %zu KiB: %s\n", base,
		       size >> 10, strerror(peer_errno));
		*said = 1;
	}
}

static void scenario_create(void)
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
		double base = best(anon_populate2, size, 0, reps);
		double heap = heap_fd < 0 ? 1e9 : best(heap_alloc, size, 0, reps);
		double udma = udmabuf_fd < 0 ? 1e9 :
			      best(udmabuf_create, size, 0, reps);

		for (i = 0; i < sizeof(caches) / sizeof(caches[0]); i++) {
			double t = best(create_destroy, size, caches[i], reps);

			snprintf(what, sizeof(what), "create+destroy (%s)",
				 dxgpmo_cache_name(caches[i]));
			report("create", what, size, t, "anon mmap+populate",
			       base);
			if (heap_fd >= 0)
				report_peer(what, size, t,
					    "dma-heap system alloc", heap,
					    &heap_said);
			if (udmabuf_fd >= 0)
				report_peer(what, size, t, "memfd+udmabuf",
					    udma, &udmabuf_said);
		}
		if (!access("/proc/sys/vm/drop_caches", W_OK))
			report("create", "create+destroy (wc, cold pool)",
			       size, best(create_destroy_cold, size,
					  DXGPMO_CACHE_WRITE_COMBINED, reps),
			       "anon mmap+populate", base);
		report_orders(size);
	}
	if (heap_fd >= 0)
		close(heap_fd);
	if (udmabuf_fd >= 0)
		close(udmabuf_fd);
}

static uint32_t adl_amo;

static double adl_ioctls(size_t size, uint32_t unused)
{
	struct dxgpmo_allocate_adl a = { .amo_id = adl_amo, .length = size };
	double t = now();

	if (dxgpmo_allocate_adl(dev, &a))
		return -1;
	dxgpmo_free_adl(dev, a.adl_id);
	return now() - t;
}

/*
 * Scenario 2 on one adapter: the in-module ADL against the in-module
 * per-page loop (kernel time only), and the ioctl pair from user space
 * against the same loop.
 */
static void adl_on(const struct dxgpmo_adapter_info *a, size_t size)
{
	struct dxgpmo_create_pmo c = { .length = size,
				       .cache_type = DXGPMO_CACHE_CACHED };
	struct dxgpmo_test_cmd t = { .op = DXGPMO_TEST_OP_BENCH_ADL };
	uint64_t best_adl = 0, best_loop = 0, best_sgt = 0;
	char what[64], extra[128];
	double adl, loop, sgtable;
	unsigned int i;
	int ret;

	if (dxgpmo_create_pmo(dev, &c))
		return;
	if (dxgpmo_open_pmo(dev, c.pmo_id, a->adapter_id, &adl_amo))
		goto out;
	t.id = adl_amo;
	t.length = size;
	t.loops = 1;		/* warm caches and the IOVA allocator */
	ret = test_cmd(&t);
	t.loops = size >= (64 << 20) ? 1 : size >= (1 << 20) ? 3 : 20;
	/*
	 * The best of a few calls for each of the three, like the other
	 * scenarios' best of N: a preemption inside one loop is not the
	 * cost of the call.
	 */
	for (i = 0; !ret && i < (size >= (64 << 20) ? 2 : 5); i++) {
		ret = test_cmd(&t);
		best_adl = i && best_adl < t.adl_ns ? best_adl : t.adl_ns;
		best_loop = i && best_loop < t.page_loop_ns ? best_loop :
			    t.page_loop_ns;
		best_sgt = i && best_sgt < t.sgtable_ns ? best_sgt :
			   t.sgtable_ns;
	}
	if (ret == -ENOTTY || ret == -EINVAL) {
		no_test_cmd("scenario 2 (ADL)");
		goto out;
	}
	if (ret) {
		printf("%-10s %s %zu KiB: %s (%s)\n", "adl", a->name,
		       size >> 10, strerror(-ret),
		       "does not fit the adapter's DMA addressing");
		goto out;
	}
	adl = best_adl / 1e9 / t.loops;
	loop = best_loop / 1e9 / t.loops;
	sgtable = best_sgt / 1e9 / t.loops;
	snprintf(extra, sizeof(extra),
		 ",\"adapter\":\"%s\",\"adl_runs\":%u,\"page_loop_runs\":%u,"
		 "\"sgtable_runs\":%u",
		 a->name, t.adl_runs, t.page_loop_runs, t.sgtable_runs);
	snprintf(what, sizeof(what), "ADL in-module %s (%u run%s)", a->name,
		 t.adl_runs, t.adl_runs == 1 ? "" : "s");
	report_extra("adl", what, size, adl, "per-page dma_map_page", loop,
		     extra);
	report_extra("adl", what, size, adl, "dma_map_sgtable (floor)",
		     sgtable, extra);
	snprintf(what, sizeof(what), "ALLOCATE+FREE_ADL %s", a->name);
	report_extra("adl", what, size, best(adl_ioctls, size, 0, t.loops),
		     "per-page dma_map_page", loop, extra);
out:
	dxgpmo_destroy_pmo(dev, c.pmo_id, adl_amo);
	adl_amo = 0;
}

/* --adapter: the one adapter scenario 2 runs on (id or name), or NULL. */
static const char *only_adapter;

static int adapter_chosen(const struct dxgpmo_adapter_info *a, uint32_t i)
{
	char *end;
	unsigned long id;

	if (!only_adapter)
		/* One edu (IOMMU) and every other kind are enough. */
		return !i || strcmp(a->name, "edu1");
	id = strtoul(only_adapter, &end, 0);
	if (!*end && end != only_adapter)
		return a->adapter_id == id;
	return !strcmp(a->name, only_adapter);
}

static void scenario_adl(void)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t total, i, ran = 0;
	size_t size;

	if (dxgpmo_query_adapters(dev, info, DXGPMO_MAX_ADAPTERS, &total))
		return;
	for (i = 0; i < total && i < DXGPMO_MAX_ADAPTERS; i++) {
		if (!adapter_chosen(&info[i], i))
			continue;
		ran++;
		for (size = 4096; size <= max_size && have_test_cmd; size <<= 2)
			adl_on(&info[i], size);
	}
	if (only_adapter && !ran)
		fprintf(stderr, "dxgpmo-bench: no adapter %s (dxgpmoctl adapters lists them)\n",
			only_adapter);
}

static void scenario_map(void)
{
	size_t size;

	for (size = 4096; size <= max_size; size <<= 2) {
		struct dxgpmo_create_pmo c = { .length = size,
					       .cache_type = DXGPMO_CACHE_CACHED };
		double base = best(anon_touch, size, 0, reps_for(size));

		if (dxgpmo_create_pmo(dev, &c))
			continue;
		window_offset = c.mmap_offset;
		report("map", "MAP user+touch+UNMAP", size,
		       best(map_touch, size, c.pmo_id, reps_for(size)),
		       "anon mmap+touch", base);
		report("map", "mmap(2) window+touch", size,
		       best(mmap_touch, size, 0, reps_for(size)),
		       "anon mmap+touch", base);
		dxgpmo_destroy_pmo(dev, c.pmo_id, 0);
	}
}

static void touch_every(volatile uint8_t *p, size_t size, size_t stride)
{
	size_t i;

	for (i = 0; i < size; i += stride)
		p[i] = (uint8_t)i;
}

/*
 * Soft-dirty on anonymous memory: clear_refs 4, a write every stride
 * bytes, a pagemap scan of the range.  clear_refs walks the whole process:
 * the caller has nothing else big mapped (no segment) meanwhile.  With
 * transparent huge pages (Debian's default) a 2 MiB page is dirty as a
 * whole; small_pages asks for 4 KiB pages, dxgpmo's granularity.
 */
static double soft_dirty_of(size_t size, uint32_t stride, int small_pages)
{
	volatile uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t *pm = malloc(size / PAGE * 8);
	int cr = open("/proc/self/clear_refs", O_WRONLY);
	int pmfd = open("/proc/self/pagemap", O_RDONLY);
	double t = -1;
	size_t i, dirty = 0;

	if (p == MAP_FAILED || !pm || cr < 0 || pmfd < 0)
		goto out;
	if (small_pages)
		madvise((void *)p, size, MADV_NOHUGEPAGE);
	touch(p, size);
	t = now();
	if (write(cr, "4", 1) != 1)
		goto out;
	touch_every(p, size, stride);
	if (pread(pmfd, pm, size / PAGE * 8,
		  (uintptr_t)p / PAGE * 8) != (ssize_t)(size / PAGE * 8)) {
		t = -1;
		goto out;
	}
	for (i = 0; i < size / PAGE; i++)
		dirty += (pm[i] >> 55) & 1;
	t = now() - t;
	/* A huge page is soft-dirty as a whole: more is fine, less is not. */
	if (dirty < size / stride)
		fprintf(stderr, "soft-dirty: %zu of %zu pages\n", dirty,
			size / stride);
out:
	if (p != MAP_FAILED)
		munmap((void *)p, size);
	free(pm);
	if (cr >= 0)
		close(cr);
	if (pmfd >= 0)
		close(pmfd);
	return t;
}

static double soft_dirty(size_t size, uint32_t stride)
{
	return soft_dirty_of(size, stride, 0);
}

/* The same on 4 KiB pages: the granularity of dxgpmo's bits. */
static double soft_dirty_4k(size_t size, uint32_t stride)
{
	return soft_dirty_of(size, stride, 1);
}

/* The segment's first size bytes in this process, every page present. */
static uint8_t *segment_map(const struct dxgpmo_adapter_info *a, size_t size)
{
	uint8_t *seg = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			    dev, a->segment_mmap_offset);

	if (seg == MAP_FAILED)
		return NULL;
	touch(seg, size);
	return seg;
}

static uint8_t *dirty_seg;
static uint8_t *dirty_bits;

/*
 * One tracking period on basis @basis (of the segment's first size
 * bytes): START, a write every 16th page, QUERY with CLEAR_DATA of the
 * whole basis; then STOP, untimed.  START re-arms every page: it walks
 * them as a query does.
 */
static double tracked_sparse(size_t size, uint32_t basis)
{
	double t = now();

	if (dxgpmo_start_dirty_tracking(dev, basis))
		return -1;
	touch_every(dirty_seg, size, 16 * PAGE);
	if (dxgpmo_query_dirty_bits(dev, basis, DXGPMO_DIRTY_CLEAR_DATA, 0, 0,
				    0, dirty_bits, size / PAGE / 8 + 1)) {
		dxgpmo_stop_dirty_tracking(dev, basis);
		return -1;
	}
	t = now() - t;
	dxgpmo_stop_dirty_tracking(dev, basis);
	if ((dirty_bits[0] & 3) != 1)	/* page 0 written, page 1 not */
		fprintf(stderr, "dirty: first bits %#x, not 0x1\n",
			dirty_bits[0] & 3);
	return t;
}

/*
 * Every size up to the segment's (1 GiB with segment_mb=1024): writes to
 * every page with tracking on + a query, against the same writes
 * untracked and soft-dirty; then a whole tracking period with a write to
 * every 16th page, against soft-dirty doing the same.  The soft-dirty runs
 * have the segment unmapped: clear_refs would write-protect its PTEs too.
 */
static void scenario_dirty(void)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	struct dxgpmo_memory_range r = { 0 };
	uint32_t total, basis;
	size_t size;

	if (dxgpmo_query_adapters(dev, info, DXGPMO_MAX_ADAPTERS, &total) ||
	    !total)
		return;
	dirty_bits = calloc(1, info[0].segment_size / PAGE / 8 + 1);
	for (size = 64 * 1024; size <= info[0].segment_size && dirty_bits;
	     size <<= 2) {
		unsigned int reps = size >= (64 << 20) ? 3 : 10;
		double t0, tracked, untracked, sparse;

		r.length = size;
		dirty_seg = segment_map(&info[0], size);
		if (!dirty_seg)
			break;
		if (dxgpmo_create_memory_basis(dev, info[0].adapter_id, 1, &r,
					       1, &basis))
			break;
		dxgpmo_start_dirty_tracking(dev, basis);
		t0 = now();
		touch(dirty_seg, size);
		dxgpmo_query_dirty_bits(dev, basis, DXGPMO_DIRTY_CLEAR_DATA, 0,
					0, 0, dirty_bits, size / PAGE / 8 + 1);
		tracked = now() - t0;
		dxgpmo_stop_dirty_tracking(dev, basis);
		t0 = now();
		touch(dirty_seg, size);
		untracked = now() - t0;
		sparse = best(tracked_sparse, size, basis, reps);
		dxgpmo_destroy_memory_basis(dev, basis);
		munmap(dirty_seg, size);
		report("dirty", "tracked writes+query", size, tracked,
		       "untracked writes", untracked);
		report("dirty", "tracked writes+query", size, tracked,
		       "soft-dirty anon", soft_dirty(size, PAGE));
		report("dirty", "START+1/16 writes+query", size, sparse,
		       "soft-dirty anon 1/16", best(soft_dirty, size,
						    16 * PAGE, reps));
		report("dirty", "START+1/16 writes+query", size, sparse,
		       "soft-dirty 4K pages 1/16",
		       best(soft_dirty_4k, size, 16 * PAGE, reps));
	}
	free(dirty_bits);
}

struct thr {
	int fd;
	unsigned int n;
};

static void *create_loop(void *arg)
{
	struct thr *t = arg;
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		struct dxgpmo_create_pmo c = {
			.length = PAGE, .cache_type = DXGPMO_CACHE_CACHED,
		};

		if (!dxgpmo_create_pmo(t->fd, &c))
			dxgpmo_destroy_pmo(t->fd, c.pmo_id, 0);
	}
	return NULL;
}

/* n creations on fd, their ids appended at ids[*nr]: time per call, or -1. */
static double create_round(int fd, uint32_t *ids, unsigned int *nr,
			   unsigned int n)
{
	double t0 = now();
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct dxgpmo_create_pmo c = {
			.length = PAGE, .cache_type = DXGPMO_CACHE_CACHED,
		};

		if (dxgpmo_create_pmo(fd, &c))
			return -1;
		ids[(*nr)++] = c.pmo_id;
	}
	return (now() - t0) / n;
}

static double pair_round(int fd, unsigned int n)
{
	double t0 = now();

	create_loop(&(struct thr){ .fd = fd, .n = n });
	return (now() - t0) / n;
}

static double best_of(double best, double t)
{
	return t >= 0 && (best < 0 || t < best) ? t : best;
}

#define SCALE_MAX	100000
#define SCALE_BLOCK	10000
#define SCALE_ROUND	100	/* creations per timed round */
#define SCALE_PAIRS	50	/* create+destroy pairs per timed round */
#define SCALE_PAIR_ROUNDS 40

/*
 * Per-object cost with 10,000 to 100,000 live objects in one file: creating
 * the next 10,000 (the memory in use grows with them), and create+destroy
 * pairs at that count.  The baseline is the same calls on a second file
 * that keeps 10,000 live objects, timed in rounds alternating with the
 * measured ones: whatever the moment adds (the memory in use, the host's
 * other load) is in both, and the ratio is the cost at N live objects
 * relative to the cost at 10,000, as the target reads.  Every time is the
 * best of many short rounds: one long timing per count (the first version
 * of this scenario) caught host preemption as often as anything the
 * module did, and its baseline was the first, cold block.  The second file
 * is not empty: ids are cyclic, so in a file without objects every create
 * builds the id table's path down to a fresh id and every destroy tears
 * it down, which costs more than a create among 10,000 objects.
 */
static void scale_live_objects(void)
{
	uint32_t *ids = calloc(SCALE_MAX, sizeof(*ids));
	uint32_t *ref_ids = calloc(SCALE_BLOCK + SCALE_ROUND,
				   sizeof(*ref_ids));
	unsigned int live = 0, nref = 0, r;
	int ref = dxgpmo_open();
	char extra[64];

	while (ids && ref_ids && ref >= 0 && nref < SCALE_BLOCK)
		if (create_round(ref, ref_ids, &nref, SCALE_ROUND) < 0)
			goto out;
	while (ids && ref >= 0 && live < SCALE_MAX) {
		double t = -1, tref = -1, p = -1, pref = -1;
		unsigned int target = live + SCALE_BLOCK;

		for (r = 0; live < target; r++) {
			t = best_of(t, create_round(dev, ids, &live,
						    SCALE_ROUND));
			if (live % SCALE_ROUND)
				goto out;	/* a create failed */
			if (r % 2)
				continue;
			tref = best_of(tref, create_round(ref, ref_ids, &nref,
							  SCALE_ROUND));
			while (nref > SCALE_BLOCK)
				dxgpmo_destroy_pmo(ref, ref_ids[--nref], 0);
		}
		for (r = 0; r < SCALE_PAIR_ROUNDS; r++) {
			p = best_of(p, pair_round(dev, SCALE_PAIRS));
			pref = best_of(pref, pair_round(ref, SCALE_PAIRS));
		}
		snprintf(extra, sizeof(extra), ",\"baseline_live\":%u",
			 SCALE_BLOCK);
		report_extra("scale", "create with N live objects", live, t,
			     "same, 10,000 live", tref, extra);
		report_extra("scale", "create+destroy at N live", live, p,
			     "same, 10,000 live", pref, extra);
	}
out:
	while (live)
		dxgpmo_destroy_pmo(dev, ids[--live], 0);
	while (nref)
		dxgpmo_destroy_pmo(ref, ref_ids[--nref], 0);
	if (ref >= 0)
		close(ref);
	free(ref_ids);
	free(ids);
}

/*
 * Cached objects only: a non-cached or write-combined create also switches
 * the kernel's linear map (set_pages_array_*: the global cpa lock and a TLB
 * flush on every CPU), which is the create scenario's business and would
 * hide the module's own bookkeeping here.
 */
static void scenario_scale(void)
{
	unsigned int threads, i, n = 2000;
	double base = 0;

	for (threads = 1; threads <= 4; threads <<= 1) {
		int shared;

		for (shared = 1; shared >= 0; shared--) {
			pthread_t tid[4];
			struct thr t[4];
			double t0 = now(), el;

			for (i = 0; i < threads; i++) {
				t[i].fd = shared ? dev : dxgpmo_open();
				t[i].n = n;
				pthread_create(&tid[i], NULL, create_loop, &t[i]);
			}
			for (i = 0; i < threads; i++) {
				pthread_join(tid[i], NULL);
				if (!shared)
					close(t[i].fd);
			}
			el = (now() - t0) / (threads * n);
			if (!base)
				base = el;
			report("scale", shared ? "create/destroy, one file" :
				       "create/destroy, own files",
			       threads, el, "1 thread, one file", base);
		}
	}
	scale_live_objects();
}

/* 1 GiB objects when there is room for one plus its anonymous baseline. */
static void pick_max_size(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long kb;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lu kB", &kb) == 1 &&
		    kb >= 2600UL * 1024)
			max_size = 1UL << 30;
	if (f)
		fclose(f);
}

/* --only: one scenario by name, or NULL for all. */
static const char *only_scenario;

static int wanted(const char *scenario)
{
	return !only_scenario || !strcmp(only_scenario, scenario);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") && i + 1 < argc) {
			json = fopen(argv[++i], "w");
			if (!json) {
				perror(argv[i]);
				return 1;
			}
		} else if (!strcmp(argv[i], "--adapter") && i + 1 < argc) {
			only_adapter = argv[++i];
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only_scenario = argv[++i];
		} else {
			fprintf(stderr,
				"usage: dxgpmo-bench [--json FILE] [--adapter ID|NAME] [--only create|adl|map|dirty|scale]\n"
				"  --adapter: the ADL scenario on that adapter only (e.g. a device\n"
				"  bound with 'dxgpmoctl bind', for the costs of your IOMMU)\n");
			return 2;
		}
	}
	if (only_scenario && !wanted("create") && !wanted("adl") &&
	    !wanted("map") && !wanted("dirty") && !wanted("scale")) {
		fprintf(stderr, "dxgpmo-bench: no scenario %s\n", only_scenario);
		return 2;
	}
	dev = dxgpmo_open();
	if (dev < 0) {
		fprintf(stderr, "dxgpmo-bench: %s: %s\n", DXGPMO_DEV_PATH,
			strerror(-dev));
		return 1;
	}
	pick_max_size();
	printf("%-10s %-30s %14s %14s %-24s %14s %8s\n", "SCENARIO",
	       "MEASURED", "SIZE", "TIME", "BASELINE", "TIME", "RATIO");
	if (wanted("create"))
		scenario_create();
	if (wanted("adl"))
		scenario_adl();
	if (wanted("map"))
		scenario_map();
	if (wanted("dirty"))
		scenario_dirty();
	if (wanted("scale"))
		scenario_scale();
	if (json)
		fclose(json);
	return 0;
}
