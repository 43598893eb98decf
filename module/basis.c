// SPDX-License-Identifier: GPL-2.0
/*
 * Memory bases and dirty-bit tracking: DxgkDdiCreateMemoryBasis,
 * DxgkDdiDestroyMemoryBasis, DxgkDdiStart/StopDirtyTracking and
 * DxgkDdiQueryDirtyBitData on the adapters' segments (segment.c).
 *
 * A basis is a list of disjoint ranges of one segment with one bit per
 * tracking page, the ranges' bits concatenated in basis order.  Tracking is
 * per basis, not per file: every write to a segment page, from any file's
 * mapping or from the adapter's engine, sets the bit in every tracked basis
 * that covers it, so overlapping bases each see their writes.  STARTs are
 * counted; the first one re-arms the pages and clears the bits.
 *
 * CPU writes reach the bits when someone collects them (a query, a START):
 * the PTEs that map the range are cleaned and what they said is merged into
 * every tracked basis, under the segment's collect_lock, so that a query of
 * one basis never sees a page already cleaned by another file's query
 * before that query has set its bits.  Device writes set the bits directly.
 * Faults take no lock at all, but where 2 MiB dirty pages are tracked by
 * write faults (segment_granule.c).
 */
#include <linux/bitmap.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "account.h"
#include "adapter.h"
#include "adl.h"
#include "basis.h"
#include "compat.h"
#include "dxgpmo.h"
#include "fs.h"
#include "internal.h"
#include "ucmd.h"
#include "object.h"
#include "quota.h"
#include "segment.h"
#include "segment_granule.h"
#include "stats.h"
#include "inject.h"

/*
 * Set the bits of range r in bitmap for [offset, offset + length) of the
 * segment: all of them, or with dirty, only those of the pages whose bits
 * are set in dirty (bit 0 the page at offset).  A sparse CPU write pattern
 * is many short runs, so the pages are taken in one pass over the set bits
 * rather than one call per run.  ps_shift: log2 of the dirty page size.
 */
VISIBLE_IF_KUNIT void dxgpmo_range_mark(const struct dxgpmo_basis_range *r,
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

/*
 * The bits of every tracked basis for [offset, offset + length) of the
 * segment, as dxgpmo_range_mark() sets them.  Called with the segment lock
 * held, which every writer of a basis bitmap holds.
 */
static void dxgpmo_segment_mark_locked(struct dxgpmo_segment *segment,
				       u64 offset, u64 length,
				       const unsigned long *dirty)
{
	unsigned int ps_shift = ilog2(dxgpmo_dirty_page_size);
	struct dxgpmo_basis *basis;
	u32 i;

	lockdep_assert_held(&segment->lock);
	list_for_each_entry(basis, &segment->bases, segment_node) {
		if (!basis->track_count)
			continue;
		for (i = 0; i < basis->nr_ranges; i++)
			dxgpmo_range_mark(&basis->ranges[i], basis->bitmap,
					  offset, length, dirty, ps_shift);
	}
}

void dxgpmo_basis_mark_dirty(struct dxgpmo_segment *segment, u64 offset,
			     u64 length)
{
	mutex_lock(&segment->lock);
	dxgpmo_segment_mark_locked(segment, offset, length, NULL);
	mutex_unlock(&segment->lock);
}

/*
 * Move the CPU writes to [offset, offset + length) of the segment from the
 * PTEs (and from pages whose PTEs are gone) into the bits of every tracked
 * basis.  The helper guarantees that a PTE dirty when it starts is recorded
 * and that one dirtied meanwhile is recorded or stays dirty, so no write is
 * ever lost, only possibly reported by the next collection too.  Offset and
 * length are page aligned.  The caller holds the segment's collect_lock.
 */
static int dxgpmo_segment_collect(struct dxgpmo_segment *segment, u64 offset,
				  u64 length)
{
	pgoff_t first = (segment->mmap_base + offset) >> PAGE_SHIFT;
	pgoff_t nr = length >> PAGE_SHIFT;
	pgoff_t start = 0, end = 0;	/* the helper's range of set bits */
	XA_STATE(xas, &segment->pages, offset >> PAGE_SHIFT);
	unsigned long *dirty;
	struct page *page;

	lockdep_assert_held(&segment->collect_lock);
	if (dxgpmo_segment_tracks_by_faults())
		return dxgpmo_granule_collect(segment, offset, length);
	dirty = bitmap_zalloc(nr, GFP_KERNEL);
	if (!dirty)
		return -ENOMEM;
	clean_record_shared_mapping_range(dxgpmo_shared_mapping, first, nr,
					  first, dirty, &start, &end);
	/*
	 * A dirty PTE zapped since (munmap, exit) left its bit on the page
	 * instead: the core marks the page dirty when it drops the PTE.
	 * Segment pages live as long as the adapter, so RCU is enough.
	 */
	rcu_read_lock();
	xas_for_each(&xas, page, (offset >> PAGE_SHIFT) + nr - 1) {
		if (xas_retry(&xas, page))
			continue;
		if (PageDirty(page) && TestClearPageDirty(page))
			__set_bit(xas.xa_index - (offset >> PAGE_SHIFT), dirty);
	}
	rcu_read_unlock();
	if (!bitmap_empty(dirty, nr)) {
		mutex_lock(&segment->lock);
		dxgpmo_segment_mark_locked(segment, offset,
					   (u64)nr << PAGE_SHIFT, dirty);
		mutex_unlock(&segment->lock);
	}
	bitmap_free(dirty);
	return 0;
}

#define DXGPMO_BASIS_MAX_RANGES	4096

/*
 * The ranges are whole dirty pages of ps bytes inside the segment's size,
 * disjoint; each gets its first bit, in basis order.
 */
VISIBLE_IF_KUNIT int dxgpmo_basis_check_ranges(struct dxgpmo_basis *basis,
					       u64 size, u64 ps)
{
	unsigned long bits = 0;
	u32 i, j;

	for (i = 0; i < basis->nr_ranges; i++) {
		struct dxgpmo_basis_range *r = &basis->ranges[i];

		if (!r->length || !IS_ALIGNED(r->offset, ps) ||
		    !IS_ALIGNED(r->length, ps))
			return -EINVAL;
		if (r->offset + r->length < r->offset ||
		    r->offset + r->length > size)
			return -ERANGE;
		for (j = 0; j < i; j++) {
			const struct dxgpmo_basis_range *o = &basis->ranges[j];

			if (r->offset < o->offset + o->length &&
			    o->offset < r->offset + r->length)
				return -EEXIST;
		}
		r->first_bit = bits;
		bits += r->length / ps;
	}
	basis->nr_bits = bits;
	return 0;
}

/* Tracking stops first; the handle is gone. */
static void dxgpmo_basis_destroy(struct dxgpmo_file *file,
				 struct dxgpmo_object *obj)
{
	struct dxgpmo_basis *basis = container_of(obj, struct dxgpmo_basis, obj);

	if (!basis->adapter)
		return;
	dxgpmo_account_quota_uncharge(file->account, DXGPMO_QUOTA_BASES, 1);
	mutex_lock(&basis->adapter->segment->lock);
	basis->track_count = 0;
	list_del(&basis->segment_node);
	mutex_unlock(&basis->adapter->segment->lock);
	bitmap_free(basis->bitmap);
	dxgpmo_adapter_put(basis->adapter);
}

static const struct dxgpmo_object_ops dxgpmo_basis_ops = {
	.destroy = dxgpmo_basis_destroy,
	.counter = DXGPMO_CNT_BASES,
};

static struct dxgpmo_basis *dxgpmo_basis_get(struct dxgpmo_file *file, u32 id)
{
	return dxgpmo_container_of_err(dxgpmo_object_get(file, id,
							 DXGPMO_OBJ_BASIS),
				       struct dxgpmo_basis, obj);
}

static int dxgpmo_basis_read_ranges(struct dxgpmo_ucmd *ucmd,
				    struct dxgpmo_basis *basis,
				    const struct dxgpmo_create_memory_basis *cmd)
{
	u32 i;

	for (i = 0; i < cmd->range_count; i++) {
		struct dxgpmo_memory_range r;
		int ret;

		ret = dxgpmo_ucmd_copy_from(ucmd, &r, cmd->ranges +
					    (u64)i * sizeof(r), sizeof(r));
		if (ret)
			return ret;
		basis->ranges[i].offset = r.segment_offset;
		basis->ranges[i].length = r.length;
	}
	return 0;
}

int dxgpmo_cmd_create_memory_basis(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_create_memory_basis *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_adapter *adapter;
	struct dxgpmo_object *obj;
	struct dxgpmo_basis *basis;
	int ret;

	if (cmd->flags || cmd->basis_id)
		return -EINVAL;
	if (!cmd->range_count)
		return -EINVAL;
	if (cmd->range_count > DXGPMO_BASIS_MAX_RANGES)
		return -E2BIG;
	adapter = dxgpmo_adapter_get(ucmd->file, cmd->adapter_id);
	if (IS_ERR(adapter))
		return PTR_ERR(adapter);
	ret = -EINVAL;
	if (cmd->segment_id != 1)
		goto err_adapter;

	obj = __dxgpmo_object_alloc(file, struct_size(basis, ranges,
						      cmd->range_count),
				    DXGPMO_OBJ_BASIS, &dxgpmo_basis_ops);
	if (IS_ERR(obj)) {
		ret = PTR_ERR(obj);
		goto err_adapter;
	}
	basis = container_of(obj, struct dxgpmo_basis, obj);
	basis->nr_ranges = cmd->range_count;
	ret = dxgpmo_basis_read_ranges(ucmd, basis, cmd);
	if (ret)
		goto err_abort;
	ret = dxgpmo_basis_check_ranges(basis, adapter->segment->size,
					dxgpmo_dirty_page_size);
	if (ret)
		goto err_abort;
	ret = dxgpmo_account_quota_charge(file->account, DXGPMO_QUOTA_BASES, 1);
	if (ret)
		goto err_abort;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_uncharge;
	basis->bitmap = bitmap_zalloc(basis->nr_bits, GFP_KERNEL_ACCOUNT);
	if (!basis->bitmap)
		goto err_uncharge;
	/* From here the destroy undoes it all, the charge too. */
	basis->adapter = adapter;
	mutex_lock(&adapter->segment->lock);
	list_add_tail(&basis->segment_node, &adapter->segment->bases);
	mutex_unlock(&adapter->segment->lock);

	cmd->basis_id = basis->obj.id;
	return dxgpmo_ucmd_respond_finalize(ucmd, sizeof(*cmd), &basis->obj);

err_uncharge:
	dxgpmo_account_quota_uncharge(file->account, DXGPMO_QUOTA_BASES, 1);
err_abort:
	dxgpmo_object_abort(file, &basis->obj);
err_adapter:
	dxgpmo_adapter_put(adapter);
	return ret;
}

/*
 * DxgkDdiDestroyMemoryBasis has no failing path for a correct caller; a
 * bad handle is a caller bug and gets -ENOENT, never a crash.
 */
int dxgpmo_cmd_destroy_memory_basis(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_destroy_memory_basis *cmd = ucmd->cmd;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	return dxgpmo_object_destroy(ucmd->file, cmd->basis_id,
				     DXGPMO_OBJ_BASIS);
}

/*
 * The segment bytes [*offset, *offset + *length) behind those of the bits
 * [first, first + count) of a basis that are range r's; false if none is.
 */
VISIBLE_IF_KUNIT bool dxgpmo_range_bytes(const struct dxgpmo_basis_range *r,
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
static int dxgpmo_basis_collect(struct dxgpmo_basis *basis,
				unsigned long first, unsigned long count)
{
	u64 offset, length;
	u32 i;
	int ret;

	for (i = 0; i < basis->nr_ranges; i++) {
		if (!dxgpmo_range_bytes(&basis->ranges[i], first, count,
					dxgpmo_dirty_page_size, &offset,
					&length))
			continue;
		ret = dxgpmo_segment_collect(basis->adapter->segment, offset,
					     length);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

int dxgpmo_cmd_start_dirty_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_dirty_tracking *cmd = ucmd->cmd;
	struct dxgpmo_segment *segment;
	struct dxgpmo_basis *basis;
	bool first;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	basis = dxgpmo_basis_get(ucmd->file, cmd->basis_id);
	if (IS_ERR(basis))
		return PTR_ERR(basis);
	segment = basis->adapter->segment;
	mutex_lock(&segment->collect_lock);
	mutex_lock(&segment->lock);
	first = !basis->track_count;
	mutex_unlock(&segment->lock);
	/*
	 * Clean every PTE so the next write is seen, then drop what writes
	 * before this START left in the bits: right after START they read 0.
	 * The count goes up only once that worked (a STOP meanwhile finds
	 * nothing to end).
	 */
	if (first)
		ret = dxgpmo_basis_collect(basis, 0, basis->nr_bits);
	mutex_lock(&segment->lock);
	if (!ret && basis->track_count == UINT_MAX)
		ret = -EOVERFLOW;
	if (!ret) {
		if (!basis->track_count)
			bitmap_zero(basis->bitmap, basis->nr_bits);
		basis->track_count++;
	}
	mutex_unlock(&segment->lock);
	mutex_unlock(&segment->collect_lock);
	dxgpmo_object_put(&basis->obj);
	return ret;
}

int dxgpmo_cmd_stop_dirty_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_dirty_tracking *cmd = ucmd->cmd;
	struct dxgpmo_segment *segment;
	struct dxgpmo_basis *basis;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	basis = dxgpmo_basis_get(ucmd->file, cmd->basis_id);
	if (IS_ERR(basis))
		return PTR_ERR(basis);
	segment = basis->adapter->segment;
	mutex_lock(&segment->lock);
	if (basis->track_count)
		basis->track_count--;
	else
		ret = -EINVAL;
	mutex_unlock(&segment->lock);
	dxgpmo_object_put(&basis->obj);
	return ret;
}

/*
 * The bits [first, first + count) asked for, of dirty pages of ps bytes;
 * the whole basis if no subrange.
 */
VISIBLE_IF_KUNIT int
dxgpmo_query_span(const struct dxgpmo_basis *basis,
		  const struct dxgpmo_query_dirty_bits *cmd, u64 ps,
		  unsigned long *first, unsigned long *count)
{
	const struct dxgpmo_basis_range *r;

	if (!cmd->subrange_length) {
		/* The whole basis; the other subrange fields must be 0. */
		if (cmd->subrange_index || cmd->subrange_offset)
			return -EINVAL;
		*first = 0;
		*count = basis->nr_bits;
		return 0;
	}
	if (cmd->subrange_index >= basis->nr_ranges)
		return -EINVAL;
	r = &basis->ranges[cmd->subrange_index];
	if (!IS_ALIGNED(cmd->subrange_offset, ps) ||
	    !IS_ALIGNED(cmd->subrange_length, ps) ||
	    cmd->subrange_offset >= r->length ||
	    cmd->subrange_length > r->length - cmd->subrange_offset)
		return -EINVAL;
	*first = r->first_bit + cmd->subrange_offset / ps;
	*count = cmd->subrange_length / ps;
	return 0;
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

static void dxgpmo_basis_restore_bits(struct dxgpmo_basis *basis,
				      unsigned long first, unsigned long count,
				      const u8 *bits)
{
	struct dxgpmo_segment *segment = basis->adapter->segment;

	mutex_lock(&segment->lock);
	dxgpmo_bits_from_bytes(basis->bitmap, first, count, bits);
	mutex_unlock(&segment->lock);
}

int dxgpmo_cmd_query_dirty_bits(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_query_dirty_bits *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	bool clear = cmd->flags & DXGPMO_DIRTY_CLEAR_DATA;
	unsigned long first, count, nbytes;
	struct dxgpmo_segment *segment;
	struct dxgpmo_basis *basis;
	u8 *out = NULL;
	int ret;

	if ((cmd->flags & ~DXGPMO_DIRTY_CLEAR_DATA) || cmd->__reserved)
		return -EINVAL;
	basis = dxgpmo_basis_get(file, cmd->basis_id);
	if (IS_ERR(basis))
		return PTR_ERR(basis);
	segment = basis->adapter->segment;
	ret = -EINVAL;
	if (!READ_ONCE(basis->track_count))
		goto out_put;
	ret = dxgpmo_query_span(basis, cmd, dxgpmo_dirty_page_size, &first,
				&count);
	if (ret)
		goto out_put;
	nbytes = DIV_ROUND_UP(count, BITS_PER_BYTE);
	if (cmd->buffer_size < nbytes) {
		/* Tell the caller how much room it needs; no bit is read. */
		cmd->buffer_size = nbytes;
		ret = dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
		ret = ret ? ret : -ENOSPC;
		goto out_put;
	}
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto out_put;
	out = kvzalloc(nbytes, GFP_KERNEL_ACCOUNT);
	if (!out)
		goto out_put;

	mutex_lock(&segment->collect_lock);
	ret = dxgpmo_basis_collect(basis, first, count);
	if (!ret) {
		mutex_lock(&segment->lock);
		dxgpmo_bits_to_bytes(basis->bitmap, first, count, out);
		if (clear)
			bitmap_clear(basis->bitmap, first, count);
		mutex_unlock(&segment->lock);
	}
	mutex_unlock(&segment->collect_lock);
	if (!ret) {
		ret = dxgpmo_ucmd_copy_to(ucmd, cmd->buffer, out, nbytes);
		/* The caller never saw them: they stay for the next query. */
		if (ret && clear)
			dxgpmo_basis_restore_bits(basis, first, count, out);
	}
out_put:
	dxgpmo_object_put(&basis->obj);
	kvfree(out);
	return ret;
}
