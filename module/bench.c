// SPDX-License-Identifier: GPL-2.0
/*
 * In-module timing for dxgpmo-bench, reached through DXGPMO_IOC_TEST (so
 * only with debug_ioctls=1), in the manner of kernel/dma/map_benchmark.c:
 * kernel-side costs measured without a syscall around each call, against
 * baselines run on the same device in the same call.
 */
#include <linux/dma-mapping.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "adapter.h"
#include "adl.h"
#include "arch.h"
#include "backing.h"
#include "backing_chunks.h"
#include "bench.h"
#include "dxgpmo.h"
#include "dxgpmo_test.h"
#include "object.h"
#include "pmo.h"

#define DXGPMO_BENCH_MAX_LOOPS	1000

/*
 * What a driver does without ADLs: every page mapped on its own, all
 * mapped before any is unmapped (the object is in use as a whole).
 */
static int dxgpmo_bench_page_loop(struct device *dev,
				  struct dxgpmo_backing *backing,
				  unsigned long nr, u64 *dma)
{
	unsigned long i;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		dma[i] = dma_map_page(dev, backing->ops->page(backing, i), 0,
				      PAGE_SIZE, DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, dma[i])) {
			ret = -ENOMEM;
			break;
		}
	}
	while (i--)
		dma_unmap_page(dev, dma[i], PAGE_SIZE, DMA_BIDIRECTIONAL);
	return ret;
}

static int dxgpmo_bench_adl_loops(struct dxgpmo_file *file,
				  struct dxgpmo_amo *amo,
				  struct dxgpmo_test_cmd *cmd, u64 *addr)
{
	struct dxgpmo_allocate_adl adl_cmd = {
		.amo_id = cmd->id, .length = cmd->length,
	};
	unsigned long nr = cmd->length >> PAGE_SHIFT;
	struct dxgpmo_adl *adl;
	u32 loop;
	u64 t0;
	int ret;

	t0 = ktime_get_ns();
	for (loop = 0; loop < cmd->loops; loop++) {
		adl = dxgpmo_adl_create(file, amo, &adl_cmd, addr);
		if (IS_ERR(adl))
			return PTR_ERR(adl);
		dxgpmo_object_abort_and_destroy(file, &adl->obj);
	}
	cmd->adl_ns = ktime_get_ns() - t0;
	cmd->adl_runs = dxgpmo_address_runs(addr, nr, 1);

	/*
	 * The device may be another driver's once it was unbound; a loop at
	 * a time, so an unbind waits for one loop, not for all of them.
	 */
	t0 = ktime_get_ns();
	for (loop = 0; loop < cmd->loops; loop++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		if (!dxgpmo_adapter_begin_access(amo->adapter))
			return -ENODEV;
		ret = dxgpmo_bench_page_loop(amo->adapter->dev,
					     amo->pmo->backing, nr, addr);
		dxgpmo_adapter_end_access(amo->adapter);
		if (ret)
			return ret;
		cond_resched();
	}
	cmd->page_loop_ns = ktime_get_ns() - t0;
	cmd->page_loop_runs = dxgpmo_address_runs(addr, nr, PAGE_SIZE);
	return 0;
}

/*
 * The floor of an ADL: what a driver that keeps an sg_table of the pages
 * pays to map and unmap it, and to write the page numbers an ADL hands
 * back (without them the floor would do less than an ADL does).  The
 * table is built once, from the pages one at a time (consecutive ones
 * merge into one entry, as the object's chunks do in an ADL), outside the
 * timed loop.
 */
static int dxgpmo_bench_sgtable_build(struct dxgpmo_amo *amo,
				      unsigned long nr, struct sg_table *sgt)
{
	struct dxgpmo_backing *backing = amo->pmo->backing;
	unsigned int max_segment;
	struct page **pages;
	unsigned long i;
	int ret;

	if (!dxgpmo_adapter_begin_access(amo->adapter))
		return -ENODEV;
	max_segment = dma_get_max_seg_size(amo->adapter->dev);
	dxgpmo_adapter_end_access(amo->adapter);
	pages = kvmalloc_array(nr, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		pages[i] = backing->ops->page(backing, i);
	ret = sg_alloc_table_from_pages_segment(sgt, pages, nr, 0,
						nr << PAGE_SHIFT, max_segment,
						GFP_KERNEL);
	kvfree(pages);
	return ret;
}

/* One dma_map_sgtable() + dma_unmap_sgtable(); addr: the pages' addresses. */
static int dxgpmo_bench_sgtable_once(struct dxgpmo_adapter *adapter,
				     struct sg_table *sgt, unsigned long nr,
				     u64 *addr)
{
	int ret;

	if (!dxgpmo_adapter_begin_access(adapter))
		return -ENODEV;
	ret = dma_map_sgtable(adapter->dev, sgt, DMA_BIDIRECTIONAL, 0);
	if (ret)
		goto out;
	/*
	 * The ADL's own fill, a segment at a time: the floor is mapping and
	 * listing the pages, and the ratio what an ADL adds to both.  Not
	 * every page listed: the floor did less than an ADL.
	 */
	if (WARN_ON_ONCE(dxgpmo_adl_fill(sgt, nr, addr) != nr))
		ret = -EIO;
	dma_unmap_sgtable(adapter->dev, sgt, DMA_BIDIRECTIONAL, 0);
out:
	dxgpmo_adapter_end_access(adapter);
	return ret;
}

static int dxgpmo_bench_sgtable_loops(struct dxgpmo_amo *amo,
				      struct dxgpmo_test_cmd *cmd, u64 *addr)
{
	unsigned long nr = cmd->length >> PAGE_SHIFT;
	struct sg_table sgt;
	u32 loop;
	u64 t0;
	int ret;

	ret = dxgpmo_bench_sgtable_build(amo, nr, &sgt);
	if (ret)
		return ret;
	t0 = ktime_get_ns();
	for (loop = 0; loop < cmd->loops; loop++) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		ret = dxgpmo_bench_sgtable_once(amo->adapter, &sgt, nr, addr);
		if (ret)
			break;
		cond_resched();
	}
	cmd->sgtable_ns = ktime_get_ns() - t0;
	cmd->sgtable_runs = dxgpmo_address_runs(addr, nr, 1);
	sg_free_table(&sgt);
	return ret;
}

int dxgpmo_bench_adl(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd)
{
	struct dxgpmo_amo *amo;
	u64 *addr = NULL;
	int ret = -EINVAL;

	if (!cmd->loops || cmd->loops > DXGPMO_BENCH_MAX_LOOPS ||
	    !cmd->length || !PAGE_ALIGNED(cmd->length))
		return -EINVAL;
	amo = dxgpmo_amo_get(file, cmd->id);
	if (IS_ERR(amo))
		return -EINVAL;
	if (!amo->pmo->backing->ops->page ||
	    cmd->length > (u64)amo->pmo->backing->nr_pages << PAGE_SHIFT)
		goto out;
	ret = -ENOMEM;
	addr = kvmalloc_array(cmd->length >> PAGE_SHIFT, sizeof(*addr),
			      GFP_KERNEL);
	if (addr)
		ret = dxgpmo_bench_adl_loops(file, amo, cmd, addr);
	if (addr && !ret)
		ret = dxgpmo_bench_sgtable_loops(amo, cmd, addr);
out:
	dxgpmo_object_put(&amo->obj);
	kvfree(addr);
	return ret;
}

int dxgpmo_bench_chunks(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd)
{
	struct dxgpmo_backing *backing;
	struct dxgpmo_pmo *pmo;
	unsigned int i, order;
	int ret = 0;

	pmo = dxgpmo_pmo_get(file, cmd->id);
	if (IS_ERR(pmo))
		return PTR_ERR(pmo);
	backing = pmo->backing;
	memset(cmd->chunks_of_order, 0, sizeof(cmd->chunks_of_order));
	for (i = 0; i < backing->nr_chunks; i++) {
		order = ilog2(backing->chunks[i].nr_pages);
		cmd->chunks_of_order[min_t(unsigned int, order,
			ARRAY_SIZE(cmd->chunks_of_order) - 1)]++;
	}
	dxgpmo_object_put(&pmo->obj);
	return ret;
}

/*
 * The floor of CREATE_PMO + DESTROY_PMO: the buddy allocator handing out
 * zeroed pages of the orders the object got, with create's flags, and
 * taking them back.  No object, no pool, no chunk table.  A write-combined
 * or non-cached object's pages where the linear alias stays write-back
 * (arm64) are also cleaned to the point of coherency once, as any
 * non-cacheable use of RAM there must be (dma_alloc_coherent()'s pages
 * are, by arch_dma_prep_coherent()).  A module's only way to do that is
 * the DMA API, through the arch helper that also makes pages write-back
 * again on x86 (here it only cleans and invalidates).
 */
static int dxgpmo_bench_zero_once(struct dxgpmo_backing *backing,
				  struct page **pages)
{
	bool prepare = !dxgpmo_arch_switches_alias &&
		       backing->cache_type != DXGPMO_CACHE_CACHED;
	unsigned long i;
	int ret = 0;

	for (i = 0; i < backing->nr_chunks; i++) {
		unsigned int order = order_base_2(backing->chunks[i].nr_pages);

		/* An object of many GiB is one pass: stay killable. */
		if (!(i % 256)) {
			cond_resched();
			if (fatal_signal_pending(current)) {
				ret = -EINTR;
				break;
			}
		}
		pages[i] = alloc_pages(order ? DXGPMO_GFP_HIGH_ORDER :
					       DXGPMO_GFP_LOW_ORDER, order);
		if (!pages[i]) {
			ret = -ENOMEM;
			break;
		}
		if (prepare) {
			ret = dxgpmo_arch_set_block_wb(pages[i], 1UL << order);
			if (ret) {
				i++;
				break;
			}
		}
	}
	while (i--)
		__free_pages(pages[i],
			     order_base_2(backing->chunks[i].nr_pages));
	return ret;
}

int dxgpmo_bench_zero(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd)
{
	struct dxgpmo_backing *backing;
	struct dxgpmo_pmo *pmo;
	struct page **pages;
	int ret = 0;
	u32 loop;
	u64 t0;

	if (!cmd->loops || cmd->loops > DXGPMO_BENCH_MAX_LOOPS)
		return -EINVAL;
	pmo = dxgpmo_pmo_get(file, cmd->id);
	if (IS_ERR(pmo))
		return PTR_ERR(pmo);
	backing = pmo->backing;
	/* MDL and CONTIGUOUS objects only: the others have no chunks. */
	ret = -EINVAL;
	if (!backing->nr_chunks)
		goto out;
	ret = -ENOMEM;
	pages = kvmalloc_array(backing->nr_chunks, sizeof(*pages),
			       GFP_KERNEL_ACCOUNT);
	if (!pages)
		goto out;
	ret = 0;
	t0 = ktime_get_ns();
	for (loop = 0; loop < cmd->loops && !ret; loop++)
		ret = dxgpmo_bench_zero_once(backing, pages);
	cmd->zero_ns = ktime_get_ns() - t0;
	kvfree(pages);
out:
	dxgpmo_object_put(&pmo->obj);
	return ret;
}
