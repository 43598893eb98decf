/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dxgpmo debug/test command.  Not a stable ABI: it exists for the
 * selftests (like iommufd's IOMMU_TEST_CMD).  Only a test build of the
 * module has it (DXGPMO_TEST=y on the kbuild command line, as make check
 * builds it), and only when loaded with debug_ioctls=1; else -ENOTTY.  The
 * default build (make install, DKMS) has neither the command nor the
 * parameter: its DXGPMO_IOC_TEST is -ENOTTY, as an unknown number.
 */
#ifndef _UAPI_DXGPMO_TEST_H
#define _UAPI_DXGPMO_TEST_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include "dxgpmo.h"

#define DXGPMO_CMD_TEST	0x3f
#define DXGPMO_IOC_TEST	_IO(DXGPMO_TYPE, DXGPMO_CMD_TEST)

enum dxgpmo_test_op {
	/* Memory type of the PTE that maps something, read from the tables. */
	DXGPMO_TEST_OP_MEMTYPE = 1,
	/*
	 * Make the @fail_nth-th should-fail point hit by this file from now
	 * on fail (0: off); returns in @fail_nth what was left of the previous
	 * countdown (non-zero: it was never reached).
	 */
	DXGPMO_TEST_OP_FAIL_NTH,
	/*
	 * In-module timing (dxgpmo-bench): @loops times ALLOCATE_ADL +
	 * FREE_ADL of the first @length bytes of AMO @id, then the same pages
	 * mapped and unmapped one 4 KiB page at a time with dma_map_page() on
	 * the same device, then dma_map_sgtable() + dma_unmap_sgtable() of
	 * an sg_table of the same pages built once beforehand, each time
	 * writing the page-number array an ADL returns (the floor of an
	 * ADL); times in ns, and how many runs of consecutive device
	 * addresses each produced.
	 */
	DXGPMO_TEST_OP_BENCH_ADL,
	/* How PMO @id's memory was allocated: chunks per buddy order. */
	DXGPMO_TEST_OP_CHUNKS,
	/*
	 * What device address @address translates to in the IOMMU domain of
	 * AMO @id's adapter, compared with page @index of the AMO's object:
	 * enum dxgpmo_test_iova in @iova_state.  -ENODEV when the device is
	 * in no DMA-API IOMMU domain.
	 */
	DXGPMO_TEST_OP_IOVA,
	/*
	 * The pool of write-combined and non-cached pages: pages in it now,
	 * and since the module was loaded the pages it handed out, those
	 * allocated and switched on a miss, and those the shrinker freed.
	 */
	DXGPMO_TEST_OP_POOL,
	/*
	 * Make the @fail_nth-th switch of a linear map away from write-back,
	 * module-wide, from now on report failure after it was made (0: off),
	 * as a CPA step that fails half way leaves it; returns in @fail_nth
	 * what was left of the previous countdown.
	 */
	DXGPMO_TEST_OP_FAIL_ALIAS_SWITCH,
	/*
	 * In-module timing (dxgpmo-bench): @loops times allocating zeroed
	 * pages of the buddy orders PMO @id's chunks have, with create's
	 * flags, then freeing them (the floor of CREATE_PMO + DESTROY_PMO);
	 * the time in @zero_ns.  -EINVAL for an object without chunks
	 * (neither MDL nor CONTIGUOUS).
	 */
	DXGPMO_TEST_OP_BENCH_ZERO,
	/*
	 * In-module timing (dxgpmo-bench): where an ADL's time goes.  Each
	 * step of ALLOCATE_ADL + FREE_ADL of the first @length bytes of AMO
	 * @id (enum dxgpmo_test_adl_step) repeated @loops times on its own,
	 * its time in @adl_step_ns; and in @adl_published_ns, @loops whole
	 * ADLs that are also published and then freed by id, as the ioctls
	 * do (BENCH_ADL's @adl_ns is the same without publishing).  As
	 * BENCH_ADL, -EINVAL for an object whose pages cannot be listed
	 * (a SECTION or an IO_SPACE).  Should another thread of the file
	 * hold a published ADL past DESTROY's wait, the call fails and that
	 * ADL stays until the file is closed.
	 */
	DXGPMO_TEST_OP_BENCH_ADL_STEPS,
};

/*
 * The steps of an ADL, in the order an ADL takes them.  The IOVA range is
 * allocated inside dma_map_sgtable(), which is one step: the DMA API has
 * no call that allocates one without mapping it.
 */
enum dxgpmo_test_adl_step {
	DXGPMO_TEST_ADL_STEP_OBJECT,	/* object and id made, then undone */
	DXGPMO_TEST_ADL_STEP_QUOTA,	/* the opener's ADL pages charged */
	DXGPMO_TEST_ADL_STEP_ACCESS,	/* adapter held, ADL listed on it */
	DXGPMO_TEST_ADL_STEP_SGT,	/* the sg_table built and freed */
	DXGPMO_TEST_ADL_STEP_MAP,	/* dma_map_sgtable(), syncs, unmap */
	DXGPMO_TEST_ADL_STEP_FLUSH,	/* a lazy domain's IOTLB flushed */
	DXGPMO_TEST_ADL_STEP_FILL,	/* the page-number array written */
	DXGPMO_TEST_ADL_STEPS
};

/* What DXGPMO_TEST_OP_IOVA found. */
enum dxgpmo_test_iova {
	DXGPMO_TEST_IOVA_UNMAPPED = 1,	/* no translation */
	DXGPMO_TEST_IOVA_MAPS_PAGE,	/* the object's page @index */
	DXGPMO_TEST_IOVA_MAPS_OTHER,	/* some other page */
};

/* What DXGPMO_TEST_OP_MEMTYPE looks at. */
enum dxgpmo_test_memtype_of {
	DXGPMO_TEST_MEMTYPE_OF_USER_VA = 1,	/* @address in the caller */
	DXGPMO_TEST_MEMTYPE_OF_KMAP,		/* kernel map @id, @index */
	DXGPMO_TEST_MEMTYPE_OF_LINEAR,		/* PMO @id page @index */
};

/*
 * Memory types, decoded from the PTE's PWT/PCD/PAT bits (x86) or its MAIR
 * attribute index (arm64: WB is MT_NORMAL or MT_NORMAL_TAGGED, WC is
 * MT_NORMAL_NC, what both pgprot_writecombine() and pgprot_dmacoherent()
 * give, DEVICE is MT_DEVICE_nGnRE or MT_DEVICE_nGnRnE; UC_MINUS is x86's
 * only).
 */
enum dxgpmo_test_memtype {
	DXGPMO_TEST_MEMTYPE_WB = 1,
	DXGPMO_TEST_MEMTYPE_WC,
	DXGPMO_TEST_MEMTYPE_UC_MINUS,
	DXGPMO_TEST_MEMTYPE_OTHER,
	DXGPMO_TEST_MEMTYPE_DEVICE,
};

/**
 * struct dxgpmo_test_cmd - DXGPMO_IOC_TEST
 * @size: sizeof(struct dxgpmo_test_cmd)
 * @flags: zero
 * @op: enum dxgpmo_test_op
 * @of: MEMTYPE: enum dxgpmo_test_memtype_of
 * @id: MEMTYPE: map id (KMAP) or PMO id (LINEAR); IOVA, BENCH_ADL,
 *	BENCH_ADL_STEPS: AMO id;
 *	CHUNKS, BENCH_ZERO: PMO id
 * @__reserved: zero
 * @address: MEMTYPE: user address (USER_VA); IOVA: the device address
 * @index: MEMTYPE: page index in the view (KMAP) or object (LINEAR); IOVA:
 *	page index in the AMO's object
 * @memtype: out: enum dxgpmo_test_memtype
 * @pat_enabled: out: 1 when WC is a memory type of its own (x86: PAT is
 *	on, else WC reads as UC-; arm64: always)
 * @pte_bits: out: the PTE's raw cache bits (4 KiB encoding; arm64: the
 *	attribute index field, AttrIndx << 2)
 * @linear_alias: MEMTYPE: in: zero; out: 1 when the linear map carries the
 *	object's memory type (x86), 0 when it stays write-back (arm64)
 * @__reserved2: zero
 * @fail_nth: FAIL_NTH, FAIL_ALIAS_SWITCH: in: the countdown; out: what was
 *	left of the old one
 * @length: BENCH_ADL, BENCH_ADL_STEPS: bytes from offset 0 of the AMO's
 *	object
 * @loops: BENCH_ADL, BENCH_ADL_STEPS, BENCH_ZERO: repetitions, 1 to 1000
 * @adl_runs: BENCH_ADL: out: runs of consecutive device addresses of the ADL
 * @page_loop_runs: BENCH_ADL: out: the same for the per-page mappings
 * @adl_ns: BENCH_ADL: out: time of @loops ADL allocate + free
 * @page_loop_ns: BENCH_ADL: out: time of @loops per-page map + unmap
 * @chunks_of_order: CHUNKS: out: physically contiguous chunks of 2^i pages
 * @iova_state: IOVA: out: enum dxgpmo_test_iova
 * @__reserved4: zero
 * @sgtable_ns: BENCH_ADL: out: time of @loops dma_map_sgtable() +
 *	dma_unmap_sgtable() of the same pages, with the page-number array
 * @sgtable_runs: BENCH_ADL: out: runs of consecutive device addresses of
 *	the sg_table's mapping
 * @__reserved5: zero
 * @pool_pages: POOL: out: pages pooled now
 * @pool_hit_pages: POOL: out: pages handed out from the pool
 * @pool_miss_pages: POOL: out: pages allocated and switched on a miss
 * @pool_shrunk_pages: POOL: out: pages switched back and freed
 * @zero_ns: BENCH_ZERO: out: time of @loops allocations and frees
 * @adl_step_ns: BENCH_ADL_STEPS: out: time of @loops of each step, by
 *	enum dxgpmo_test_adl_step; the slots past DXGPMO_TEST_ADL_STEPS zero
 * @adl_published_ns: BENCH_ADL_STEPS: out: time of @loops ADLs made,
 *	published, and freed by id
 */
struct dxgpmo_test_cmd {
	__u32 size;
	__u32 flags;
	__u32 op;
	__u32 of;
	__u32 id;
	__u32 __reserved;
	__aligned_u64 address;
	__aligned_u64 index;
	__u32 memtype;
	__u32 pat_enabled;
	__aligned_u64 pte_bits;
	__u32 linear_alias;
	__u32 __reserved2;
	__aligned_u64 fail_nth;
	__aligned_u64 length;
	__u32 loops;
	__u32 adl_runs;
	__u32 page_loop_runs;
	__u32 __reserved3;
	__aligned_u64 adl_ns;
	__aligned_u64 page_loop_ns;
	__u32 chunks_of_order[16];
	__u32 iova_state;
	__u32 __reserved4;
	__aligned_u64 sgtable_ns;
	__u32 sgtable_runs;
	__u32 __reserved5;
	__aligned_u64 pool_pages;
	__aligned_u64 pool_hit_pages;
	__aligned_u64 pool_miss_pages;
	__aligned_u64 pool_shrunk_pages;
	__aligned_u64 zero_ns;
	__aligned_u64 adl_step_ns[8];
	__aligned_u64 adl_published_ns;
};

#endif
