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

#include "account.h"
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
#include "quota.h"

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

/*
 * @loops ADLs of the first @length bytes, each made and undone, as a kernel
 * client's are; or, published, made visible and freed by id, as
 * ALLOCATE_ADL and FREE_ADL do.  The time they took.
 */
static int dxgpmo_bench_adl_cycles(struct dxgpmo_file *file,
				   struct dxgpmo_amo *amo,
				   struct dxgpmo_test_cmd *cmd, u64 *addr,
				   bool published, u64 *ns)
{
	struct dxgpmo_allocate_adl adl_cmd = {
		.amo_id = cmd->id, .length = cmd->length,
	};
	struct dxgpmo_adl *adl;
	u32 loop, id;
	u64 t0;
	int ret;

	t0 = ktime_get_ns();
	for (loop = 0; loop < cmd->loops; loop++) {
		adl = dxgpmo_adl_create(file, amo, &adl_cmd, addr);
		if (IS_ERR(adl))
			return PTR_ERR(adl);
		if (!published) {
			dxgpmo_object_abort_and_destroy(file, &adl->obj);
			continue;
		}
		/* Once published, another thread of the file may free it. */
		id = adl->obj.id;
		dxgpmo_object_finalize(file, &adl->obj);
		ret = dxgpmo_object_destroy(file, id, DXGPMO_OBJ_ADL);
		if (ret)
			return ret;
	}
	*ns = ktime_get_ns() - t0;
	return 0;
}

static int dxgpmo_bench_adl_loops(struct dxgpmo_file *file,
				  struct dxgpmo_amo *amo,
				  struct dxgpmo_test_cmd *cmd, u64 *addr)
{
	unsigned long nr = cmd->length >> PAGE_SHIFT;
	u32 loop;
	u64 t0;
	int ret;

	ret = dxgpmo_bench_adl_cycles(file, amo, cmd, addr, false,
				      &cmd->adl_ns);
	if (ret)
		return ret;
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

/*
 * run on the AMO @id whose first @length bytes the ADL timings map, with
 * an array for the page numbers; the object must have pages (the per-page
 * loop and the floor list them).
 */
static int dxgpmo_bench_on_amo(struct dxgpmo_file *file,
			       struct dxgpmo_test_cmd *cmd,
			       int (*run)(struct dxgpmo_file *file,
					  struct dxgpmo_amo *amo,
					  struct dxgpmo_test_cmd *cmd,
					  u64 *addr))
{
	struct dxgpmo_amo *amo;
	u64 *addr;
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
		ret = run(file, amo, cmd, addr);
	kvfree(addr);
out:
	dxgpmo_object_put(&amo->obj);
	return ret;
}

static int dxgpmo_bench_adl_run(struct dxgpmo_file *file,
				struct dxgpmo_amo *amo,
				struct dxgpmo_test_cmd *cmd, u64 *addr)
{
	int ret = dxgpmo_bench_adl_loops(file, amo, cmd, addr);

	return ret ? ret : dxgpmo_bench_sgtable_loops(amo, cmd, addr);
}

int dxgpmo_bench_adl(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd)
{
	return dxgpmo_bench_on_amo(file, cmd, dxgpmo_bench_adl_run);
}

/*
 * Each step of an ADL on its own, @loops times (dxgpmo_adl_create() and
 * dxgpmo_adl_destroy() take them in this order): where the time of an
 * ADL goes, against what the floor does.  A step timed alone runs with
 * warm caches; the sum may be less than the whole.
 *
 * The object step's objects are never published: nothing of their ops
 * is called.
 */
static const struct dxgpmo_object_ops dxgpmo_bench_step_ops;

static_assert(DXGPMO_TEST_ADL_STEPS <=
	      sizeof_field(struct dxgpmo_test_cmd, adl_step_ns) / sizeof(u64));

static int dxgpmo_bench_step_object(struct dxgpmo_file *file, u32 loops)
{
	struct dxgpmo_adl *adl;
	u32 loop;

	for (loop = 0; loop < loops; loop++) {
		adl = dxgpmo_object_alloc(file, struct dxgpmo_adl,
					  DXGPMO_OBJ_ADL,
					  &dxgpmo_bench_step_ops);
		if (IS_ERR(adl))
			return PTR_ERR(adl);
		dxgpmo_object_abort(file, &adl->obj);
	}
	return 0;
}

static int dxgpmo_bench_step_quota(struct dxgpmo_file *file,
				   unsigned long nr, u32 loops)
{
	u32 loop;
	int ret;

	for (loop = 0; loop < loops; loop++) {
		ret = dxgpmo_account_quota_charge(file->account,
						  DXGPMO_QUOTA_ADL_PAGES, nr);
		if (ret)
			return ret;
		dxgpmo_account_quota_uncharge(file->account,
					      DXGPMO_QUOTA_ADL_PAGES, nr);
	}
	return 0;
}

/*
 * The listed entry is no ADL: it belongs to no file, so
 * dxgpmo_adl_hold_range() passes it by; dxgpmo_adl_revoke_adapter(),
 * which would unmap it (it has no AMO), holds the adapter's access for
 * writing, and so never runs while the entry is listed under a read.
 */
static int dxgpmo_bench_step_access(struct dxgpmo_adapter *adapter,
				    u32 loops)
{
	struct dxgpmo_adl *entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	u32 loop;
	int ret = 0;

	if (!entry)
		return -ENOMEM;
	for (loop = 0; loop < loops; loop++) {
		if (!dxgpmo_adapter_begin_access(adapter)) {
			ret = -ENODEV;
			break;
		}
		mutex_lock(&adapter->adls_lock);
		list_add_tail(&entry->adapter_node, &adapter->adls);
		mutex_unlock(&adapter->adls_lock);
		mutex_lock(&adapter->adls_lock);
		list_del(&entry->adapter_node);
		mutex_unlock(&adapter->adls_lock);
		dxgpmo_adapter_end_access(adapter);
	}
	kfree(entry);
	return ret;
}

static int dxgpmo_bench_step_sgt(struct dxgpmo_backing *backing,
				 unsigned long nr, u32 loops)
{
	struct dxgpmo_dma_map m = { .nr_pages = nr };
	u32 loop;
	int ret;

	for (loop = 0; loop < loops; loop++) {
		ret = dxgpmo_backing_sgt(backing, &m, GFP_KERNEL_ACCOUNT);
		if (ret)
			return ret;
		dxgpmo_backing_sgt_free(backing, &m);
	}
	return 0;
}

/*
 * One loop of MAP, FLUSH and FILL on the table m, built once, each timed
 * into step_ns: the fill lists a fresh mapping, the flush follows the
 * unmap as FREE_ADL's does.  The adapter is held for one loop at a time,
 * so that an unbind waits for one loop, not for all of them.
 */
static int dxgpmo_bench_step_dma_once(struct dxgpmo_amo *amo,
				      struct dxgpmo_dma_map *m, u64 *addr,
				      u64 *step_ns)
{
	struct dxgpmo_adapter *adapter = amo->adapter;
	struct dxgpmo_backing *backing = amo->pmo->backing;
	bool iommu = adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU;
	u64 t0, mapped, filled, unmapped;
	int ret = 0;

	if (!dxgpmo_adapter_begin_access(adapter))
		return -ENODEV;
	m->cpu_only = adapter->caps & DXGPMO_ADAPTER_CAP_VIRTUAL;
	t0 = ktime_get_ns();
	ret = backing->ops->dma_map(backing, m, iommu);
	if (ret)
		goto out;
	mapped = ktime_get_ns();
	if (WARN_ON_ONCE(dxgpmo_adl_fill(&m->sgt, m->nr_pages, addr) !=
			 m->nr_pages))
		ret = -EIO;
	filled = ktime_get_ns();
	step_ns[DXGPMO_TEST_ADL_STEP_FILL] += filled - mapped;
	backing->ops->dma_unmap(backing, m);
	unmapped = ktime_get_ns();
	step_ns[DXGPMO_TEST_ADL_STEP_MAP] += (mapped - t0) + (unmapped - filled);
	dxgpmo_adapter_flush_lazy_unmaps(adapter);
	step_ns[DXGPMO_TEST_ADL_STEP_FLUSH] += ktime_get_ns() - unmapped;
out:
	dxgpmo_adapter_end_access(adapter);
	return ret;
}

/*
 * MAP, FLUSH and FILL, loops times, on one sg_table.  The pages are
 * charged as an ADL's are: an adapter's DMA address space is everyone's.
 */
static int dxgpmo_bench_step_dma(struct dxgpmo_file *file,
				 struct dxgpmo_amo *amo, unsigned long nr,
				 u64 *addr, u32 loops, u64 *step_ns)
{
	struct dxgpmo_backing *backing = amo->pmo->backing;
	struct dxgpmo_dma_map m = {
		.dev = amo->adapter->dev,
		.nr_pages = nr,
	};
	u32 loop;
	int ret;

	ret = dxgpmo_account_quota_charge(file->account,
					  DXGPMO_QUOTA_ADL_PAGES, nr);
	if (ret)
		return ret;
	ret = dxgpmo_backing_sgt(backing, &m, GFP_KERNEL_ACCOUNT);
	if (ret)
		goto out;
	for (loop = 0; loop < loops && !ret; loop++) {
		if (fatal_signal_pending(current))
			ret = -EINTR;
		else
			ret = dxgpmo_bench_step_dma_once(amo, &m, addr,
							 step_ns);
		cond_resched();
	}
	dxgpmo_backing_sgt_free(backing, &m);
out:
	dxgpmo_account_quota_uncharge(file->account, DXGPMO_QUOTA_ADL_PAGES,
				      nr);
	return ret;
}

static int dxgpmo_bench_adl_steps_run(struct dxgpmo_file *file,
				      struct dxgpmo_amo *amo,
				      struct dxgpmo_test_cmd *cmd, u64 *addr)
{
	unsigned long nr = cmd->length >> PAGE_SHIFT;
	u64 *step_ns = cmd->adl_step_ns;
	u64 t0;
	int ret;

	memset(cmd->adl_step_ns, 0, sizeof(cmd->adl_step_ns));
	t0 = ktime_get_ns();
	ret = dxgpmo_bench_step_object(file, cmd->loops);
	step_ns[DXGPMO_TEST_ADL_STEP_OBJECT] = ktime_get_ns() - t0;
	if (ret)
		return ret;
	t0 = ktime_get_ns();
	ret = dxgpmo_bench_step_quota(file, nr, cmd->loops);
	step_ns[DXGPMO_TEST_ADL_STEP_QUOTA] = ktime_get_ns() - t0;
	if (ret)
		return ret;
	t0 = ktime_get_ns();
	ret = dxgpmo_bench_step_access(amo->adapter, cmd->loops);
	step_ns[DXGPMO_TEST_ADL_STEP_ACCESS] = ktime_get_ns() - t0;
	if (ret)
		return ret;
	t0 = ktime_get_ns();
	ret = dxgpmo_bench_step_sgt(amo->pmo->backing, nr, cmd->loops);
	step_ns[DXGPMO_TEST_ADL_STEP_SGT] = ktime_get_ns() - t0;
	if (ret)
		return ret;
	if (fatal_signal_pending(current))
		return -EINTR;
	cond_resched();

	ret = dxgpmo_bench_step_dma(file, amo, nr, addr, cmd->loops, step_ns);
	if (ret)
		return ret;
	cond_resched();

	return dxgpmo_bench_adl_cycles(file, amo, cmd, addr, true,
				       &cmd->adl_published_ns);
}

int dxgpmo_bench_adl_steps(struct dxgpmo_file *file,
			   struct dxgpmo_test_cmd *cmd)
{
	return dxgpmo_bench_on_amo(file, cmd, dxgpmo_bench_adl_steps_run);
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
