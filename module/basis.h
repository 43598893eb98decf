/* SPDX-License-Identifier: GPL-2.0 */
/* Memory bases (DxgkDdiCreateMemoryBasis) and dirty-bit tracking. */
#ifndef _DXGPMO_BASIS_H
#define _DXGPMO_BASIS_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "object.h"

struct dxgpmo_adapter;
struct dxgpmo_query_dirty_bits;
struct dxgpmo_segment;

struct dxgpmo_basis_range {
	u64 offset;
	u64 length;
	unsigned long first_bit;
};

/* A memory basis (DxgkDdiCreateMemoryBasis) and its dirty bitmap. */
struct dxgpmo_basis {
	struct dxgpmo_object obj;
	struct list_head segment_node;	/* under the segment's lock */
	struct dxgpmo_adapter *adapter;	/* referenced */
	unsigned int track_count;	/* outstanding STARTs */
	unsigned long nr_bits;
	unsigned long *bitmap;
	u32 nr_ranges;
	struct dxgpmo_basis_range ranges[];
};

static_assert(offsetof(struct dxgpmo_basis, obj) == 0);

/* The bits of every tracked basis on the segment. */
void dxgpmo_basis_mark_dirty(struct dxgpmo_segment *segment, u64 offset,
			     u64 length);

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
void dxgpmo_range_mark(const struct dxgpmo_basis_range *r,
		       unsigned long *bitmap, u64 offset, u64 length,
		       const unsigned long *dirty, unsigned int ps_shift);
int dxgpmo_basis_check_ranges(struct dxgpmo_basis *basis, u64 size, u64 ps);
bool dxgpmo_range_bytes(const struct dxgpmo_basis_range *r,
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
