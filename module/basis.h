/* SPDX-License-Identifier: GPL-2.0 */
/* Memory bases (DxgkDdiCreateMemoryBasis) and dirty-bit tracking. */
#ifndef _DXGPMO_BASIS_H
#define _DXGPMO_BASIS_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "dirty.h"
#include "object.h"

struct dxgpmo_adapter;
struct dxgpmo_query_dirty_bits;

/*
 * A memory basis (DxgkDdiCreateMemoryBasis): its ranges of one adapter's
 * segment and the dirty log it hands down to that segment.
 */
struct dxgpmo_basis {
	struct dxgpmo_object obj;
	struct dxgpmo_adapter *adapter;	/* referenced */
	struct dxgpmo_dirty_log log;	/* on the segment's dirty set */
	bool charged;			/* to the user's max_bases */
	struct dxgpmo_dirty_range ranges[];
};

static_assert(offsetof(struct dxgpmo_basis, obj) == 0);

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
int dxgpmo_basis_check_ranges(struct dxgpmo_basis *basis, u64 size, u64 ps);
bool dxgpmo_range_bytes(const struct dxgpmo_dirty_range *r,
			unsigned long first, unsigned long count, u64 ps,
			u64 *offset, u64 *length);
int dxgpmo_query_span(const struct dxgpmo_basis *basis,
		      const struct dxgpmo_query_dirty_bits *cmd, u64 ps,
		      unsigned long *first, unsigned long *count);
void dxgpmo_bits_to_bytes(const unsigned long *bitmap, unsigned long first,
			  unsigned long count, u8 *out);
void dxgpmo_bits_from_bytes(unsigned long *bitmap, unsigned long first,
			    unsigned long count, const u8 *bytes);
#endif

#endif /* _DXGPMO_BASIS_H */
