// SPDX-License-Identifier: GPL-2.0
/*
 * Memory bases and dirty-bit tracking: DxgkDdiCreateMemoryBasis,
 * DxgkDdiDestroyMemoryBasis, DxgkDdiStart/StopDirtyTracking and
 * DxgkDdiQueryDirtyBitData on the adapters' segments (segment.c).
 *
 * A basis is a list of disjoint ranges of one segment with one bit per
 * tracking page, the ranges' bits concatenated in basis order: a dirty log
 * (dirty.c) the basis owns and hands down to its segment.  Tracking is per
 * basis, not per file: every write to a segment page, from any file's
 * mapping or from the adapter's engine, sets the bit in every tracked log
 * that covers it, so overlapping bases each see their writes.  STARTs are
 * counted; the first one re-arms the pages and clears the bits.
 *
 * CPU writes reach the bits when someone collects them (a query, a START,
 * dxgpmo_segment_collect()): the PTEs that map the range are cleaned and
 * what they said is recorded in every tracked log, under the segment's
 * collect_lock, so that a query of
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
#include "basis.h"
#include "compat.h"
#include "dirty.h"
#include "dxgpmo.h"
#include "inject.h"
#include "internal.h"
#include "object.h"
#include "quota.h"
#include "segment.h"
#include "ucmd.h"

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

	for (i = 0; i < basis->log.nr_ranges; i++) {
		struct dxgpmo_dirty_range *r = &basis->ranges[i];

		if (!r->length || !IS_ALIGNED(r->offset, ps) ||
		    !IS_ALIGNED(r->length, ps))
			return -EINVAL;
		if (r->offset + r->length < r->offset ||
		    r->offset + r->length > size)
			return -ERANGE;
		for (j = 0; j < i; j++) {
			const struct dxgpmo_dirty_range *o = &basis->ranges[j];

			if (r->offset < o->offset + o->length &&
			    o->offset < r->offset + r->length)
				return -EEXIST;
		}
		r->first_bit = bits;
		bits += r->length / ps;
	}
	basis->log.nr_bits = bits;
	return 0;
}

/*
 * Tracking stops first; the handle is gone.  A basis aborted half made
 * holds what its create did so far: the adapter always, then the charge,
 * then the log on the segment.
 */
static void dxgpmo_basis_destroy(struct dxgpmo_file *file,
				 struct dxgpmo_object *obj)
{
	struct dxgpmo_basis *basis = container_of(obj, struct dxgpmo_basis, obj);

	if (basis->log.bitmap) {
		dxgpmo_dirty_detach(&basis->adapter->segment->dirty,
				    &basis->log);
		bitmap_free(basis->log.bitmap);
	}
	if (basis->charged)
		dxgpmo_account_quota_uncharge(file->account,
					      DXGPMO_QUOTA_BASES, 1);
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

	/* Each adapter has one segment, which tracking covers. */
	if (cmd->flags || cmd->basis_id || cmd->segment_id != 1)
		return -EINVAL;
	if (!cmd->range_count)
		return -EINVAL;
	if (cmd->range_count > DXGPMO_BASIS_MAX_RANGES)
		return -E2BIG;
	adapter = dxgpmo_adapter_get(ucmd->file, cmd->adapter_id);
	if (IS_ERR(adapter))
		return PTR_ERR(adapter);
	obj = __dxgpmo_object_alloc(file, struct_size(basis, ranges,
						      cmd->range_count),
				    DXGPMO_OBJ_BASIS, &dxgpmo_basis_ops);
	if (IS_ERR(obj)) {
		dxgpmo_adapter_put(adapter);
		return PTR_ERR(obj);
	}
	basis = container_of(obj, struct dxgpmo_basis, obj);
	basis->adapter = adapter;
	basis->log.nr_ranges = cmd->range_count;
	basis->log.ranges = basis->ranges;
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
	basis->charged = true;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_abort;
	basis->log.bitmap = bitmap_zalloc(basis->log.nr_bits, GFP_KERNEL_ACCOUNT);
	if (!basis->log.bitmap)
		goto err_abort;
	dxgpmo_dirty_attach(&adapter->segment->dirty, &basis->log);

	cmd->basis_id = basis->obj.id;
	return dxgpmo_ucmd_respond_finalize(ucmd, sizeof(*cmd), &basis->obj);

err_abort:
	dxgpmo_object_abort_and_destroy(file, &basis->obj);
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
static int dxgpmo_basis_collect(struct dxgpmo_basis *basis,
				unsigned long first, unsigned long count)
{
	u64 offset, length;
	u32 i;
	int ret;

	for (i = 0; i < basis->log.nr_ranges; i++) {
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

/* The basis a START or STOP names, a call's reference taken. */
static struct dxgpmo_basis *dxgpmo_basis_of_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_dirty_tracking *cmd = ucmd->cmd;

	if (cmd->flags || cmd->__reserved)
		return ERR_PTR(-EINVAL);
	return dxgpmo_basis_get(ucmd->file, cmd->basis_id);
}

int dxgpmo_cmd_start_dirty_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_basis *basis = dxgpmo_basis_of_tracking(ucmd);
	struct dxgpmo_segment *segment;
	bool first;
	int ret = 0;

	if (IS_ERR(basis))
		return PTR_ERR(basis);
	segment = basis->adapter->segment;
	mutex_lock(&segment->collect_lock);
	mutex_lock(&segment->dirty.lock);
	first = !basis->log.track_count;
	mutex_unlock(&segment->dirty.lock);
	/*
	 * Clean every PTE so the next write is seen, then drop what writes
	 * before this START left in the bits: right after START they read 0.
	 * The count goes up only once that worked (a STOP meanwhile finds
	 * nothing to end).
	 */
	if (first)
		ret = dxgpmo_basis_collect(basis, 0, basis->log.nr_bits);
	mutex_lock(&segment->dirty.lock);
	if (!ret && basis->log.track_count == UINT_MAX)
		ret = -EOVERFLOW;
	if (!ret) {
		if (!basis->log.track_count)
			bitmap_zero(basis->log.bitmap, basis->log.nr_bits);
		basis->log.track_count++;
	}
	mutex_unlock(&segment->dirty.lock);
	mutex_unlock(&segment->collect_lock);
	dxgpmo_object_put(&basis->obj);
	return ret;
}

int dxgpmo_cmd_stop_dirty_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_basis *basis = dxgpmo_basis_of_tracking(ucmd);
	struct dxgpmo_segment *segment;
	int ret = 0;

	if (IS_ERR(basis))
		return PTR_ERR(basis);
	segment = basis->adapter->segment;
	mutex_lock(&segment->dirty.lock);
	if (basis->log.track_count)
		basis->log.track_count--;
	else
		ret = -EINVAL;
	mutex_unlock(&segment->dirty.lock);
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
	const struct dxgpmo_dirty_range *r;

	if (!cmd->subrange_length) {
		/* The whole basis; the other subrange fields must be 0. */
		if (cmd->subrange_index || cmd->subrange_offset)
			return -EINVAL;
		*first = 0;
		*count = basis->log.nr_bits;
		return 0;
	}
	if (cmd->subrange_index >= basis->log.nr_ranges)
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

	mutex_lock(&segment->dirty.lock);
	dxgpmo_bits_from_bytes(basis->log.bitmap, first, count, bits);
	mutex_unlock(&segment->dirty.lock);
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
	if (!READ_ONCE(basis->log.track_count))
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
		mutex_lock(&segment->dirty.lock);
		dxgpmo_bits_to_bytes(basis->log.bitmap, first, count, out);
		if (clear)
			bitmap_clear(basis->log.bitmap, first, count);
		mutex_unlock(&segment->dirty.lock);
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
