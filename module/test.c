// SPDX-License-Identifier: GPL-2.0
/*
 * DXGPMO_IOC_TEST: debug-only introspection for the selftests, built only
 * into a test build (test.h) and enabled there by debug_ioctls=1 (like
 * iommufd's test command).  It reads the page tables, never the module's
 * own bookkeeping, so tests can prove that cache types really reached the
 * hardware's view: the user PTE, the kernel vmap PTE and the linear-map PTE
 * of an object's page.  It also arms the fault-injection countdowns
 * (inject.c).
 */
#include <linux/iommu.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "adapter.h"
#include "arch.h"
#include "arch_test.h"
#include "backing.h"
#include "bench.h"
#include "dxgpmo.h"
#include "dxgpmo_test.h"
#include "inject.h"
#include "internal.h"
#include "mapping.h"
#include "object.h"
#include "pmo.h"
#include "pool.h"
#include "privilege.h"
#include "test.h"
#include "ucmd.h"
#include "window.h"

bool dxgpmo_debug_ioctls;
module_param_named(debug_ioctls, dxgpmo_debug_ioctls, bool, 0444);
MODULE_PARM_DESC(debug_ioctls,
		 "Enable DXGPMO_IOC_TEST (test-only introspection), default off");

static int dxgpmo_read_pte(pte_t *pte, unsigned long addr, void *data)
{
	u64 *bits = data;

	if (!pte_present(*pte))
		return -EFAULT;
	*bits = dxgpmo_arch_pte_cache_bits(*pte);
	return 0;
}

/*
 * Cache bits of the user PTE mapping addr.  apply_to_page_range() walks
 * the caller's tables the same way on every kernel (follow_pte() became
 * follow_pfnmap_start() in 6.12); the tables exist since the page was
 * touched, and the mmap lock is held.
 */
static int dxgpmo_user_pte_bits(struct mm_struct *mm, unsigned long addr,
				u64 *bits)
{
	return apply_to_page_range(mm, addr & PAGE_MASK, PAGE_SIZE,
				   dxgpmo_read_pte, bits);
}

static int dxgpmo_test_memtype(struct dxgpmo_file *file,
			       struct dxgpmo_test_cmd *cmd)
{
	struct dxgpmo_backing *backing;
	struct vm_area_struct *vma;
	struct dxgpmo_cpu_map *map;
	struct dxgpmo_pmo *pmo;
	unsigned long addr, pfn;
	struct page *page;
	u64 bits = 0;
	int ret;

	switch (cmd->of) {
	case DXGPMO_TEST_MEMTYPE_OF_USER_VA:
		mmap_read_lock(current->mm);
		vma = vma_lookup(current->mm, cmd->address);
		if (!vma || vma->vm_ops != &dxgpmo_vm_ops)
			ret = -EINVAL;
		else
			ret = dxgpmo_user_pte_bits(current->mm, cmd->address,
						   &bits);
		mmap_read_unlock(current->mm);
		if (ret)
			return ret;
		break;
	case DXGPMO_TEST_MEMTYPE_OF_KMAP:
		map = dxgpmo_map_get(file, cmd->id);
		if (IS_ERR(map))
			return -EINVAL;
		if (map->access_mode != DXGPMO_ACCESS_KERNEL || map->mm ||
		    cmd->index >= map->kview.nr_pages) {
			ret = -EINVAL;
		} else {
			addr = (unsigned long)(map->kview.vaddr ?
					       map->kview.vaddr :
					       (void __force *)map->kview.io) +
			       cmd->index * PAGE_SIZE;
			pfn = vmalloc_to_pfn((void *)addr);
			ret = dxgpmo_arch_kernel_cache_bits(addr, pfn, &bits);
		}
		dxgpmo_object_put(&map->obj);
		if (ret)
			return ret;
		break;
	case DXGPMO_TEST_MEMTYPE_OF_LINEAR:
		pmo = dxgpmo_pmo_get(file, cmd->id);
		if (IS_ERR(pmo))
			return -EINVAL;
		backing = pmo->backing;
		if (!backing->ops->page || cmd->index >= backing->nr_pages) {
			ret = -EINVAL;
		} else {
			page = backing->ops->page(backing, cmd->index);
			ret = dxgpmo_arch_kernel_cache_bits((unsigned long)
					page_address(page), page_to_pfn(page),
					&bits);
		}
		dxgpmo_object_put(&pmo->obj);
		if (ret)
			return ret;
		break;
	default:
		return -EINVAL;
	}
	cmd->pte_bits = bits;
	cmd->memtype = dxgpmo_arch_memtype_of_bits(bits);
	cmd->pat_enabled = dxgpmo_arch_wc_distinct();
	cmd->linear_alias = dxgpmo_arch_switches_alias;
	return 0;
}

/*
 * Proof, from the IOMMU's own page tables, that an ADL's device addresses
 * are the object's pages in the adapter's domain, and are gone after
 * FREE_ADL.  Only while the device is bound to us: then nobody can change
 * or free its group's domain (our use of the default domain blocks a type
 * change and VFIO).  After an unbind, a test rebinds the device and asks
 * through an AMO on the new adapter, in the same domain.
 */
static int dxgpmo_test_iova(struct dxgpmo_file *file,
			    struct dxgpmo_test_cmd *cmd)
{
	struct dxgpmo_backing *backing;
	struct iommu_domain *domain;
	struct dxgpmo_amo *amo;
	phys_addr_t phys;
	int ret = -EINVAL;

	amo = dxgpmo_amo_get(file, cmd->id);
	if (IS_ERR(amo))
		return -EINVAL;
	backing = amo->pmo->backing;
	if (!backing->ops->page || cmd->index >= backing->nr_pages)
		goto out;
	ret = -ENODEV;
	if (!dxgpmo_adapter_begin_access(amo->adapter))
		goto out;
	domain = iommu_get_domain_for_dev(amo->adapter->dev);
	if (!domain || !iommu_is_dma_domain(domain)) {
		dxgpmo_adapter_end_access(amo->adapter);
		goto out;
	}
	phys = iommu_iova_to_phys(domain, cmd->address);
	if (!phys)
		cmd->iova_state = DXGPMO_TEST_IOVA_UNMAPPED;
	else if (PHYS_PFN(phys) ==
		 page_to_pfn(backing->ops->page(backing, cmd->index)))
		cmd->iova_state = DXGPMO_TEST_IOVA_MAPS_PAGE;
	else
		cmd->iova_state = DXGPMO_TEST_IOVA_MAPS_OTHER;
	dxgpmo_adapter_end_access(amo->adapter);
	ret = 0;
out:
	dxgpmo_object_put(&amo->obj);
	return ret;
}

static void dxgpmo_test_pool(struct dxgpmo_test_cmd *cmd)
{
	struct dxgpmo_pool_stats stats;

	dxgpmo_pool_read_stats(&stats);
	cmd->pool_pages = stats.pages;
	cmd->pool_hit_pages = stats.hit_pages;
	cmd->pool_miss_pages = stats.miss_pages;
	cmd->pool_shrunk_pages = stats.shrunk_pages;
}

/* The ops that read something of an object or time it, by op. */
static int (*const dxgpmo_test_readers[])(struct dxgpmo_file *file,
					  struct dxgpmo_test_cmd *cmd) = {
	[DXGPMO_TEST_OP_MEMTYPE] = dxgpmo_test_memtype,
	[DXGPMO_TEST_OP_BENCH_ADL] = dxgpmo_bench_adl,
	[DXGPMO_TEST_OP_BENCH_ADL_STEPS] = dxgpmo_bench_adl_steps,
	[DXGPMO_TEST_OP_CHUNKS] = dxgpmo_bench_chunks,
	[DXGPMO_TEST_OP_BENCH_ZERO] = dxgpmo_bench_zero,
	[DXGPMO_TEST_OP_IOVA] = dxgpmo_test_iova,
};

int dxgpmo_cmd_test(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_test_cmd *cmd = ucmd->cmd;
	int ret;

	if (!dxgpmo_debug_ioctls)
		return -ENOTTY;
	/* It reads page tables, physical frames included. */
	if (!dxgpmo_may_use_test_ioctl(ucmd->file))
		return -EPERM;
	if (cmd->flags || cmd->__reserved || cmd->linear_alias ||
	    cmd->__reserved2 || cmd->__reserved3 || cmd->__reserved4 ||
	    cmd->__reserved5)
		return -EINVAL;
	switch (cmd->op) {
	case DXGPMO_TEST_OP_MEMTYPE:
	case DXGPMO_TEST_OP_BENCH_ADL:
	case DXGPMO_TEST_OP_BENCH_ADL_STEPS:
	case DXGPMO_TEST_OP_CHUNKS:
	case DXGPMO_TEST_OP_BENCH_ZERO:
	case DXGPMO_TEST_OP_IOVA:
		ret = dxgpmo_test_readers[cmd->op](ucmd->file, cmd);
		break;
	case DXGPMO_TEST_OP_FAIL_NTH:
		if (cmd->fail_nth > INT_MAX)
			return -EINVAL;
		cmd->fail_nth = dxgpmo_inject_arm(ucmd->file, cmd->fail_nth);
		ret = 0;
		break;
	case DXGPMO_TEST_OP_POOL:
		dxgpmo_test_pool(cmd);
		ret = 0;
		break;
	case DXGPMO_TEST_OP_FAIL_ALIAS_SWITCH:
		if (cmd->fail_nth > INT_MAX)
			return -EINVAL;
		cmd->fail_nth = dxgpmo_inject_arm_alias_switch(cmd->fail_nth);
		ret = 0;
		break;
	default:
		return -EINVAL;
	}
	if (ret)
		return ret;
	return dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
}
