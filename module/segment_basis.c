// SPDX-License-Identifier: GPL-2.0
/*
 * The module's own dirty-bit tracking of the segments it emulates: what
 * a GPU's tracking hardware and its driver's memory-basis DDIs do, for
 * the adapters whose segment is the module's (every kind but a kernel
 * driver's that registers DDIs of its own, client.c).  basis.c, playing
 * Dxgkrnl, calls it through &dxgpmo_adapter_ops.basis_ddi.
 *
 * A basis here is a dirty log (dirty.c) on the segment's dirty set: one
 * bit per tracking page of its ranges, the ranges' bits concatenated in
 * basis order.  Tracking is per basis, not per file: every write to a
 * segment page, from any file's mapping or from the adapter's engine,
 * sets the bit in every tracked log that covers it, so overlapping bases
 * each see their writes.  STARTs are counted; the first one re-arms the
 * pages and clears the bits.
 *
 * CPU writes reach the bits when someone collects them (a query, a START,
 * dxgpmo_segment_collect()): the PTEs that map the range are cleaned and
 * what they said is recorded in every tracked log, under the segment's
 * collect_lock, so that a query of one basis never sees a page already
 * cleaned by another file's query before that query has set its bits.
 * Device writes set the bits directly.  Faults take no lock at all, but
 * where 2 MiB dirty pages are tracked by write faults (segment_granule.c).
 */
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "adapter.h"
#include "compat.h"
#include "dirty.h"
#include "dxgpmo.h"
#include "segment.h"
#include "segment_basis.h"

struct dxgpmo_segment_basis {
	struct dxgpmo_dirty_log log;	/* on the segment's dirty set */
	struct dxgpmo_dirty_range ranges[];
};

/* Each adapter of the module has one segment, which tracking covers. */
static int dxgpmo_segment_basis_caps(struct dxgpmo_adapter *adapter,
				     u32 segment_id, u64 *page_size,
				     u64 *segment_size)
{
	if (segment_id != 1)
		return -EINVAL;
	*page_size = dxgpmo_dirty_page_size;
	*segment_size = adapter->segment->size;
	return 0;
}

static void *dxgpmo_segment_basis_create(struct dxgpmo_adapter *adapter,
					 u32 segment_id,
					 const struct dxgpmo_dirty_range *ranges,
					 u32 nr_ranges)
{
	struct dxgpmo_segment_basis *sb;
	const struct dxgpmo_dirty_range *last = &ranges[nr_ranges - 1];

	sb = kzalloc(struct_size(sb, ranges, nr_ranges), GFP_KERNEL_ACCOUNT);
	if (!sb)
		return ERR_PTR(-ENOMEM);
	memcpy(sb->ranges, ranges, flex_array_size(sb, ranges, nr_ranges));
	sb->log.nr_ranges = nr_ranges;
	sb->log.ranges = sb->ranges;
	sb->log.nr_bits = last->first_bit + last->length / dxgpmo_dirty_page_size;
	sb->log.bitmap = bitmap_zalloc(sb->log.nr_bits, GFP_KERNEL_ACCOUNT);
	if (!sb->log.bitmap) {
		kfree(sb);
		return ERR_PTR(-ENOMEM);
	}
	dxgpmo_dirty_attach(&adapter->segment->dirty, &sb->log);
	return sb;
}

static void dxgpmo_segment_basis_destroy(struct dxgpmo_adapter *adapter,
					 void *basis)
{
	struct dxgpmo_segment_basis *sb = basis;

	dxgpmo_dirty_detach(&adapter->segment->dirty, &sb->log);
	bitmap_free(sb->log.bitmap);
	kfree(sb);
}

/*
 * The segment bytes [*offset, *offset + *length) behind those of the bits
 * [first, first + count) of a basis that are range r's; false if none is.
 */
VISIBLE_IF_KUNIT bool dxgpmo_range_bytes(const struct dxgpmo_dirty_range *r,
					 unsigned long first,
					 unsigned long count, u64 ps,
					 u64 *offset, u64 *length)
{
	unsigned long end = first + count;
	unsigned long from = max(first, r->first_bit);
	unsigned long to = min_t(unsigned long, end,
				 r->first_bit + r->length / ps);

	if (from >= to)
		return false;
	*offset = r->offset + (from - r->first_bit) * ps;
	*length = (to - from) * ps;
	return true;
}

/*
 * Bring the CPU writes to the segment pages behind bits [first, first +
 * count) into the bitmaps (segment.c), one collection per range spanned.
 */
static int dxgpmo_segment_basis_collect(struct dxgpmo_adapter *adapter,
					struct dxgpmo_segment_basis *sb,
					unsigned long first,
					unsigned long count)
{
	u64 offset, length;
	u32 i;
	int ret;

	for (i = 0; i < sb->log.nr_ranges; i++) {
		if (!dxgpmo_range_bytes(&sb->ranges[i], first, count,
					dxgpmo_dirty_page_size, &offset,
					&length))
			continue;
		ret = dxgpmo_segment_collect(adapter->segment, offset, length);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

static int dxgpmo_segment_basis_start(struct dxgpmo_adapter *adapter,
				      void *basis)
{
	struct dxgpmo_segment *segment = adapter->segment;
	struct dxgpmo_segment_basis *sb = basis;
	bool first;
	int ret = 0;

	mutex_lock(&segment->collect_lock);
	mutex_lock(&segment->dirty.lock);
	first = !sb->log.track_count;
	mutex_unlock(&segment->dirty.lock);
	/*
	 * Clean every PTE so the next write is seen, then drop what writes
	 * before this START left in the bits: right after START they read 0.
	 * The count goes up only once that worked (a STOP meanwhile finds
	 * nothing to end).
	 */
	if (first)
		ret = dxgpmo_segment_basis_collect(adapter, sb, 0,
						   sb->log.nr_bits);
	mutex_lock(&segment->dirty.lock);
	if (!ret && sb->log.track_count == UINT_MAX)
		ret = -EOVERFLOW;
	if (!ret) {
		if (!sb->log.track_count)
			bitmap_zero(sb->log.bitmap, sb->log.nr_bits);
		sb->log.track_count++;
	}
	mutex_unlock(&segment->dirty.lock);
	mutex_unlock(&segment->collect_lock);
	return ret;
}

static int dxgpmo_segment_basis_stop(struct dxgpmo_adapter *adapter,
				     void *basis)
{
	struct dxgpmo_segment *segment = adapter->segment;
	struct dxgpmo_segment_basis *sb = basis;
	int ret = 0;

	mutex_lock(&segment->dirty.lock);
	if (sb->log.track_count)
		sb->log.track_count--;
	else
		ret = -EINVAL;
	mutex_unlock(&segment->dirty.lock);
	return ret;
}

/* The bits [*first, *first + *count) a checked query names. */
static void dxgpmo_segment_basis_span(const struct dxgpmo_segment_basis *sb,
				      const struct dxgpmo_query_dirty_bits *cmd,
				      unsigned long *first,
				      unsigned long *count)
{
	const u64 ps = dxgpmo_dirty_page_size;

	if (!cmd->subrange_length) {
		*first = 0;
		*count = sb->log.nr_bits;
		return;
	}
	*first = sb->ranges[cmd->subrange_index].first_bit +
		 cmd->subrange_offset / ps;
	*count = cmd->subrange_length / ps;
}

/*
 * Bits [first, first + count) of bitmap as the reply has them, bit 0 of
 * out[0] first, into out, which the caller zeroed.
 */
VISIBLE_IF_KUNIT void dxgpmo_bits_to_bytes(const unsigned long *bitmap,
					   unsigned long first,
					   unsigned long count, u8 *out)
{
	unsigned long i = first;

	/* The set bits only: a 1 GiB basis is 262,144 bits. */
	for_each_set_bit_from(i, bitmap, first + count)
		out[(i - first) / BITS_PER_BYTE] |=
			BIT((i - first) % BITS_PER_BYTE);
}

/* The set bits of bytes, as dxgpmo_bits_to_bytes() made them, set again. */
VISIBLE_IF_KUNIT void dxgpmo_bits_from_bytes(unsigned long *bitmap,
					     unsigned long first,
					     unsigned long count,
					     const u8 *bytes)
{
	unsigned long i;

	for (i = 0; i < count; i++)
		if (bytes[i / BITS_PER_BYTE] & BIT(i % BITS_PER_BYTE))
			set_bit(first + i, bitmap);
}

static int dxgpmo_segment_basis_query(struct dxgpmo_adapter *adapter,
				      void *basis,
				      const struct dxgpmo_query_dirty_bits *cmd,
				      u8 *bits, size_t nbytes)
{
	struct dxgpmo_segment *segment = adapter->segment;
	struct dxgpmo_segment_basis *sb = basis;
	unsigned long first, count;
	int ret;

	dxgpmo_segment_basis_span(sb, cmd, &first, &count);
	mutex_lock(&segment->collect_lock);
	ret = dxgpmo_segment_basis_collect(adapter, sb, first, count);
	if (!ret) {
		mutex_lock(&segment->dirty.lock);
		dxgpmo_bits_to_bytes(sb->log.bitmap, first, count, bits);
		if (cmd->flags & DXGPMO_DIRTY_CLEAR_DATA)
			bitmap_clear(sb->log.bitmap, first, count);
		mutex_unlock(&segment->dirty.lock);
	}
	mutex_unlock(&segment->collect_lock);
	return ret;
}

static void dxgpmo_segment_basis_restore(struct dxgpmo_adapter *adapter,
					 void *basis,
					 const struct dxgpmo_query_dirty_bits *cmd,
					 const u8 *bits)
{
	struct dxgpmo_segment *segment = adapter->segment;
	struct dxgpmo_segment_basis *sb = basis;
	unsigned long first, count;

	dxgpmo_segment_basis_span(sb, cmd, &first, &count);
	mutex_lock(&segment->dirty.lock);
	dxgpmo_bits_from_bytes(sb->log.bitmap, first, count, bits);
	mutex_unlock(&segment->dirty.lock);
}

const struct dxgpmo_basis_ddi dxgpmo_segment_basis_ddi = {
	.segment_caps = dxgpmo_segment_basis_caps,
	.create = dxgpmo_segment_basis_create,
	.destroy = dxgpmo_segment_basis_destroy,
	.start = dxgpmo_segment_basis_start,
	.stop = dxgpmo_segment_basis_stop,
	.query = dxgpmo_segment_basis_query,
	.restore = dxgpmo_segment_basis_restore,
};
