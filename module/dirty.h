/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dirty logs (dirty.c): what a memory basis records of its segment's
 * writes.  The basis owns its log; the segment lists the logs on it and
 * the writers of the segment (its PTE collection, its 2 MiB granules, the
 * engine's transfers) record into them, so the data flows down and
 * nothing below a basis knows what a basis is.
 */
#ifndef _DXGPMO_DIRTY_H
#define _DXGPMO_DIRTY_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

/* One range of a log: segment bytes, and the bit of its first page. */
struct dxgpmo_dirty_range {
	u64 offset;
	u64 length;
	unsigned long first_bit;
};

/*
 * One bit per dirty page of the ranges, the ranges' bits concatenated in
 * order.  The lock of the set it is on covers node, track_count and bitmap.
 */
struct dxgpmo_dirty_log {
	struct list_head node;
	unsigned int track_count;	/* outstanding STARTs */
	unsigned long nr_bits;
	unsigned long *bitmap;
	u32 nr_ranges;
	struct dxgpmo_dirty_range *ranges;
};

/* The logs on one segment, tracking it by dirty pages of 1 << page_shift. */
struct dxgpmo_dirty_set {
	/* The list, and each log's track_count and bitmap. */
	struct mutex lock;
	struct list_head logs;
	unsigned int page_shift;
};

void dxgpmo_dirty_set_init(struct dxgpmo_dirty_set *set,
			   unsigned int page_shift);
void dxgpmo_dirty_set_destroy(struct dxgpmo_dirty_set *set);
void dxgpmo_dirty_attach(struct dxgpmo_dirty_set *set,
			 struct dxgpmo_dirty_log *log);
void dxgpmo_dirty_detach(struct dxgpmo_dirty_set *set,
			 struct dxgpmo_dirty_log *log);
/*
 * Record writes to [offset, offset + length) of the segment in every
 * tracking log: all its pages, or with dirty, only those whose bits are set
 * in dirty (bit 0 the page at offset).
 */
void dxgpmo_dirty_record(struct dxgpmo_dirty_set *set, u64 offset,
			 u64 length, const unsigned long *dirty);

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
void dxgpmo_range_mark(const struct dxgpmo_dirty_range *r,
		       unsigned long *bitmap, u64 offset, u64 length,
		       const unsigned long *dirty, unsigned int ps_shift);
#endif

#endif /* _DXGPMO_DIRTY_H */
