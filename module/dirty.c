// SPDX-License-Identifier: GPL-2.0
/*
 * Dirty logs: the bitmaps memory bases (basis.c) hand down to the segment
 * they track, and the one way writes reach them.  A write to a segment
 * page, from any file's mapping or from the adapter's engine, sets the bit
 * in every tracking log that covers it, so overlapping bases each see
 * their writes.  As iommufd hands its drivers an iova_bitmap to record
 * into, the segment records here and never calls up into the basis.
 */
#include <linux/bitmap.h>
#include <linux/bug.h>
#include <linux/minmax.h>
#include <asm/page.h>

#include "compat.h"
#include "dirty.h"

void dxgpmo_dirty_set_init(struct dxgpmo_dirty_set *set,
			   unsigned int page_shift)
{
	mutex_init(&set->lock);
	INIT_LIST_HEAD(&set->logs);
	set->page_shift = page_shift;
}

/* Every basis on the segment held its adapter, hence the segment. */
void dxgpmo_dirty_set_destroy(struct dxgpmo_dirty_set *set)
{
	WARN_ON(!list_empty(&set->logs));
	mutex_destroy(&set->lock);
}

void dxgpmo_dirty_attach(struct dxgpmo_dirty_set *set,
			 struct dxgpmo_dirty_log *log)
{
	mutex_lock(&set->lock);
	list_add_tail(&log->node, &set->logs);
	mutex_unlock(&set->lock);
}

/* Tracking stops with it: no writer finds the log after this. */
void dxgpmo_dirty_detach(struct dxgpmo_dirty_set *set,
			 struct dxgpmo_dirty_log *log)
{
	mutex_lock(&set->lock);
	log->track_count = 0;
	list_del(&log->node);
	mutex_unlock(&set->lock);
}

/*
 * Set the bits of range r in bitmap for [offset, offset + length) of the
 * segment: all of them, or with dirty, only those of the pages whose bits
 * are set in dirty (bit 0 the page at offset).  A sparse CPU write pattern
 * is many short runs, so the pages are taken in one pass over the set bits
 * rather than one call per run.  ps_shift: log2 of the dirty page size.
 */
VISIBLE_IF_KUNIT void dxgpmo_range_mark(const struct dxgpmo_dirty_range *r,
					unsigned long *bitmap, u64 offset,
					u64 length, const unsigned long *dirty,
					unsigned int ps_shift)
{
	u64 from = max(offset, r->offset);
	u64 to = min(offset + length, r->offset + r->length);
	unsigned long b, e;
	u64 first, last;

	if (from >= to)
		return;
	if (!dirty) {
		first = (from - r->offset) >> ps_shift;
		last = (to - 1 - r->offset) >> ps_shift;
		bitmap_set(bitmap, r->first_bit + first, last - first + 1);
		return;
	}
	b = (from - offset) >> PAGE_SHIFT;
	e = (to - offset) >> PAGE_SHIFT;
	for_each_set_bit_from(b, dirty, e)
		__set_bit(r->first_bit +
			  ((offset + ((u64)b << PAGE_SHIFT) - r->offset) >>
			   ps_shift),
			  bitmap);
}

void dxgpmo_dirty_record(struct dxgpmo_dirty_set *set, u64 offset,
			 u64 length, const unsigned long *dirty)
{
	struct dxgpmo_dirty_log *log;
	u32 i;

	mutex_lock(&set->lock);
	list_for_each_entry(log, &set->logs, node) {
		if (!log->track_count)
			continue;
		for (i = 0; i < log->nr_ranges; i++)
			dxgpmo_range_mark(&log->ranges[i], log->bitmap, offset,
					  length, dirty, set->page_shift);
	}
	mutex_unlock(&set->lock);
}
