/* SPDX-License-Identifier: GPL-2.0 */
/* Memory bases (DxgkDdiCreateMemoryBasis) and dirty-bit tracking. */
#ifndef _DXGPMO_BASIS_H
#define _DXGPMO_BASIS_H

#include <linux/build_bug.h>
#include <linux/mutex.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "dirty.h"
#include "object.h"

struct dxgpmo_adapter;
struct dxgpmo_query_dirty_bits;

/*
 * A memory basis (DxgkDdiCreateMemoryBasis): its ranges of one adapter's
 * segment, as checked and numbered here, and the handle of the tracker
 * that answers for that adapter.
 */
struct dxgpmo_basis {
	struct dxgpmo_object obj;
	struct dxgpmo_adapter *adapter;	/* referenced */
	void *tracker;			/* the basis_ddi's; NULL until made */
	u64 page_size;			/* the segment's dirty page */
	unsigned long nr_bits;
	/*
	 * STARTs, STOPs and queries, one at a time: the STARTs not yet
	 * STOPped, and whether a clearing query's bits were lost to a
	 * tracker that cannot set them again.
	 */
	struct mutex tracking_lock;
	unsigned int started;
	bool bits_lost;
	bool charged;			/* to the user's max_bases */
	u32 nr_ranges;
	struct dxgpmo_dirty_range ranges[];
};

static_assert(offsetof(struct dxgpmo_basis, obj) == 0);

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
int dxgpmo_basis_check_ranges(struct dxgpmo_dirty_range *ranges,
			      u32 nr_ranges, u64 size, u64 ps,
			      unsigned long *nr_bits);
int dxgpmo_query_span(const struct dxgpmo_basis *basis,
		      const struct dxgpmo_query_dirty_bits *cmd, u64 ps,
		      unsigned long *count);
#endif

#endif /* _DXGPMO_BASIS_H */
