// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench scenario 4: dirty-bit tracking of a segment against
 * untracked writes and the kernel's soft-dirty bits.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dxgpmo_bench.h"

static void touch_every(volatile uint8_t *p, size_t size, size_t stride)
{
	size_t i;

	for (i = 0; i < size; i += stride)
		p[i] = (uint8_t)i;
}

/* The soft-dirty bit of the page at p, from /proc/self/pagemap; -1 if unread. */
static int soft_dirty_bit(int pmfd, volatile uint8_t *p)
{
	uint64_t entry;

	if (pread(pmfd, &entry, sizeof(entry), (uintptr_t)p / PAGE * 8) !=
	    sizeof(entry))
		return -1;
	return (entry >> 55) & 1;
}

/*
 * Whether the kernel keeps soft-dirty bits: a page written after
 * clear_refs 4 has its bit, one not written since has not.  A kernel
 * without CONFIG_MEM_SOFT_DIRTY (arm64 has none) takes clear_refs 4 and
 * only walks the page tables: no write-protection, no fault, no bit.
 * Timed as a baseline, that walk would be a tracker that tracks nothing.
 */
static int soft_dirty_kept(void)
{
	volatile uint8_t *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int cr = open("/proc/self/clear_refs", O_WRONLY);
	int pmfd = open("/proc/self/pagemap", O_RDONLY);
	int kept = 0;

	if (p != MAP_FAILED && cr >= 0 && pmfd >= 0) {
		touch(p, 2 * PAGE);
		if (write(cr, "4", 1) == 1) {
			p[0] = 1;
			kept = soft_dirty_bit(pmfd, p) == 1 &&
			       soft_dirty_bit(pmfd, p + PAGE) == 0;
		}
	}
	if (p != MAP_FAILED)
		munmap((void *)p, 2 * PAGE);
	if (cr >= 0)
		close(cr);
	if (pmfd >= 0)
		close(pmfd);
	return kept;
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
	/*
	 * A huge page is soft-dirty as a whole: more is fine, less is not:
	 * the baseline did not do the work it stands for.
	 */
	if (dirty < size / stride) {
		fprintf(stderr, "soft-dirty: %zu of %zu pages\n", dirty,
			size / stride);
		t = -1;
	}
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
static uint32_t dirty_page_size;	/* the adapter's tracking page */
static struct dxgpmo_adapter_info dirty_adapter;	/* the first one */
/* The rows' names: with the tracking page in them when it is 2 MiB. */
static const char *tracked_what = "tracked writes+query";
static const char *period_what = "START+1/16 writes+query";
/* Whether soft-dirty, the peer, works on this kernel (soft_dirty_kept()). */
static int soft_dirty_peer;

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
				    0, dirty_bits,
				    size / dirty_page_size / 8 + 1)) {
		dxgpmo_stop_dirty_tracking(dev, basis);
		return -1;
	}
	t = now() - t;
	dxgpmo_stop_dirty_tracking(dev, basis);
	/* Page 0 is written; page 1 only if it holds a 16th page. */
	if ((dirty_bits[0] & 3) != (dirty_page_size >= 16 * PAGE ? 3 : 1))
		fprintf(stderr, "dirty: first bits %#x\n", dirty_bits[0] & 3);
	return t;
}

/*
 * The period as the pairs with soft-dirty time it: the segment mapped and
 * written whole first, then one untimed period, so that the timed one
 * finds the pages as a period that follows another does; the segment is
 * unmapped again before soft-dirty runs (clear_refs would write-protect
 * its PTEs too, and walk them).
 */
static double tracked_period(size_t size, uint32_t basis)
{
	double t = -1;

	dirty_seg = segment_map(&dirty_adapter, size);
	if (!dirty_seg)
		return -1;
	if (tracked_sparse(size, basis) >= 0)
		t = tracked_sparse(size, basis);
	munmap(dirty_seg, size);
	dirty_seg = NULL;
	return t;
}

/*
 * Against soft-dirty: the writes to every page + a query (tracked, timed
 * by the caller), then whole periods in pairs, on huge and on 4 KiB pages.
 */
static void soft_dirty_rows(size_t size, double tracked, uint32_t basis)
{
	double baseline = soft_dirty(size, PAGE);
	unsigned int n = pairs_for(size);
	struct pair_result p;

	if (baseline >= 0)
		report("dirty", tracked_what, size, tracked, "soft-dirty anon",
		       baseline);
	if (!paired(tracked_period, basis, soft_dirty, 16 * PAGE, size, n, &p))
		report_pairs("dirty", period_what, size, "soft-dirty anon 1/16",
			     &p, "");
	if (!paired(tracked_period, basis, soft_dirty_4k, 16 * PAGE, size, n,
		    &p))
		report_pairs("dirty", period_what, size,
			     "soft-dirty 4K pages 1/16", &p, "");
}

/*
 * Every size up to the segment's (1 GiB with segment_mb=1024): writes to
 * every page with tracking on + a query, against the same writes
 * untracked and soft-dirty; then a whole tracking period with a write to
 * every 16th page, against soft-dirty doing the same, in pairs.  The
 * soft-dirty runs have the segment unmapped: clear_refs would
 * write-protect its PTEs too.  The rows of a module tracking 2 MiB pages
 * (dirty_page_size=2097152, write faults on granules) say so and start at
 * 2 MiB.
 */
void scenario_dirty(void)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	struct dxgpmo_memory_range r = { 0 };
	uint32_t total, basis;
	size_t size;

	if (dxgpmo_query_adapters(dev, info, DXGPMO_MAX_ADAPTERS, &total) ||
	    !total)
		return;
	dirty_adapter = info[0];
	dirty_page_size = info[0].dirty_page_size;
	if (dirty_page_size == 2 << 20) {
		tracked_what = "tracked writes+query (2 MiB pages)";
		period_what = "START+1/16 writes+query (2 MiB pages)";
	}
	soft_dirty_peer = soft_dirty_kept();
	if (!soft_dirty_peer)
		printf("# dirty vs soft-dirty skipped: the kernel keeps no soft-dirty bits (kernel without CONFIG_MEM_SOFT_DIRTY; arm64 has none)\n");
	dirty_bits = calloc(1, info[0].segment_size / dirty_page_size / 8 + 1);
	for (size = 64 * 1024; size <= info[0].segment_size && dirty_bits &&
	     (!size_limit || size <= size_limit); size <<= 2) {
		double t0, tracked, untracked;

		if (size < dirty_page_size)
			continue;
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
					0, 0, dirty_bits,
					size / dirty_page_size / 8 + 1);
		tracked = now() - t0;
		dxgpmo_stop_dirty_tracking(dev, basis);
		t0 = now();
		touch(dirty_seg, size);
		untracked = now() - t0;
		munmap(dirty_seg, size);
		dirty_seg = NULL;
		report("dirty", tracked_what, size, tracked,
		       "untracked writes", untracked);
		if (soft_dirty_peer)
			soft_dirty_rows(size, tracked, basis);
		dxgpmo_destroy_memory_basis(dev, basis);
	}
	free(dirty_bits);
}
