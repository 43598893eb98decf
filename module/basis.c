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
 */
#include <linux/bitmap.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

#define DXGPMO_BASIS_MAX_RANGES	4096

static int dxgpmo_basis_check_ranges(struct dxgpmo_basis *basis, u64 size)
{
	u64 ps = dxgpmo_dirty_page_size;
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

int dxgpmo_ioctl_create_memory_basis(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_create_memory_basis *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_memory_range __user *uranges =
		u64_to_user_ptr(cmd->ranges);
	struct dxgpmo_adapter *adapter;
	struct dxgpmo_basis *basis;
	u32 i;
	int ret;

	if (cmd->flags || cmd->basis_id)
		return -EINVAL;
	if (!cmd->range_count)
		return -EINVAL;
	if (cmd->range_count > DXGPMO_BASIS_MAX_RANGES)
		return -E2BIG;
	adapter = dxgpmo_adapter_get(cmd->adapter_id);
	if (!adapter)
		return -ENOENT;
	ret = -EINVAL;
	if (cmd->segment_id != 1)
		goto err_adapter;

	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_adapter;
	basis = kvzalloc(struct_size(basis, ranges, cmd->range_count),
			 GFP_KERNEL_ACCOUNT);
	if (!basis)
		goto err_adapter;
	basis->nr_ranges = cmd->range_count;
	for (i = 0; i < cmd->range_count; i++) {
		struct dxgpmo_memory_range r;

		ret = -EFAULT;
		if (copy_from_user(&r, &uranges[i], sizeof(r)))
			goto err_basis;
		basis->ranges[i].offset = r.segment_offset;
		basis->ranges[i].length = r.length;
	}
	ret = dxgpmo_basis_check_ranges(basis, adapter->segment->size);
	if (ret)
		goto err_basis;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_basis;
	basis->bitmap = bitmap_zalloc(basis->nr_bits, GFP_KERNEL_ACCOUNT);
	if (!basis->bitmap)
		goto err_basis;
	basis->adapter = adapter;

	mutex_lock(&file->lock);
	ret = dxgpmo_object_insert(file, &basis->obj, DXGPMO_OBJ_BASIS);
	if (ret) {
		mutex_unlock(&file->lock);
		goto err_bitmap;
	}
	mutex_lock(&adapter->segment->lock);
	list_add_tail(&basis->segment_node, &adapter->segment->bases);
	mutex_unlock(&adapter->segment->lock);
	dxgpmo_count(file, DXGPMO_CNT_BASES, 1);
	cmd->basis_id = basis->obj.id;
	mutex_unlock(&file->lock);
	return dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));

err_bitmap:
	bitmap_free(basis->bitmap);
err_basis:
	kvfree(basis);
err_adapter:
	dxgpmo_adapter_put(adapter);
	return ret;
}

/* Tracking stops first; the caller removed the id and holds the file lock. */
void dxgpmo_basis_free(struct dxgpmo_file *file, struct dxgpmo_basis *basis)
{
	struct dxgpmo_segment *segment = basis->adapter->segment;

	mutex_lock(&segment->lock);
	basis->track_count = 0;
	list_del(&basis->segment_node);
	mutex_unlock(&segment->lock);
	dxgpmo_adapter_put(basis->adapter);
	bitmap_free(basis->bitmap);
	kvfree(basis);
	dxgpmo_count(file, DXGPMO_CNT_BASES, -1);
}

/*
 * DxgkDdiDestroyMemoryBasis has no failing path for a correct caller; a
 * bad handle is a caller bug and gets -ENOENT, never a crash.
 */
int dxgpmo_ioctl_destroy_memory_basis(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_destroy_memory_basis *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_basis *basis;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	mutex_lock(&file->lock);
	basis = dxgpmo_basis_find(file, cmd->basis_id);
	if (basis) {
		dxgpmo_object_remove(file, &basis->obj);
		dxgpmo_basis_free(file, basis);
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&file->lock);
	return ret;
}

/*
 * Bring the CPU writes to the segment pages behind bits [first, first +
 * count) into the bitmaps (segment.c), one collection per range spanned.
 */
static int dxgpmo_basis_collect(struct dxgpmo_basis *basis,
				unsigned long first, unsigned long count)
{
	u64 ps = dxgpmo_dirty_page_size;
	unsigned long end = first + count;
	u32 i;
	int ret;

	for (i = 0; i < basis->nr_ranges; i++) {
		const struct dxgpmo_basis_range *r = &basis->ranges[i];
		unsigned long from = max(first, r->first_bit);
		unsigned long to = min_t(unsigned long, end,
					 r->first_bit + r->length / ps);

		if (from >= to)
			continue;
		ret = dxgpmo_segment_collect(basis->adapter->segment,
					     r->offset + (from - r->first_bit) * ps,
					     (to - from) * ps);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

int dxgpmo_ioctl_start_dirty_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_dirty_tracking *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_segment *segment;
	struct dxgpmo_basis *basis;
	bool first;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	mutex_lock(&file->lock);
	basis = dxgpmo_basis_find(file, cmd->basis_id);
	if (!basis) {
		mutex_unlock(&file->lock);
		return -ENOENT;
	}
	segment = basis->adapter->segment;
	mutex_lock(&segment->lock);
	first = !basis->track_count++;
	mutex_unlock(&segment->lock);
	/*
	 * Clean every PTE so the next write is seen, then drop what writes
	 * before this START left in the bits: right after START they read 0.
	 */
	if (first) {
		ret = dxgpmo_basis_collect(basis, 0, basis->nr_bits);
		mutex_lock(&segment->lock);
		if (ret)
			basis->track_count--;
		else
			bitmap_zero(basis->bitmap, basis->nr_bits);
		mutex_unlock(&segment->lock);
	}
	mutex_unlock(&file->lock);
	return ret;
}

int dxgpmo_ioctl_stop_dirty_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_dirty_tracking *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	struct dxgpmo_segment *segment;
	struct dxgpmo_basis *basis;
	int ret = 0;

	if (cmd->flags || cmd->__reserved)
		return -EINVAL;
	mutex_lock(&file->lock);
	basis = dxgpmo_basis_find(file, cmd->basis_id);
	if (!basis) {
		ret = -ENOENT;
		goto out;
	}
	segment = basis->adapter->segment;
	mutex_lock(&segment->lock);
	if (basis->track_count)
		basis->track_count--;
	else
		ret = -EINVAL;
	mutex_unlock(&segment->lock);
out:
	mutex_unlock(&file->lock);
	return ret;
}

int dxgpmo_ioctl_query_dirty_bits(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_query_dirty_bits *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	u64 ps = dxgpmo_dirty_page_size;
	bool clear = cmd->flags & DXGPMO_DIRTY_CLEAR_DATA;
	unsigned long first, count, i, nbytes;
	struct dxgpmo_segment *segment;
	struct dxgpmo_basis *basis;
	u8 *out = NULL;
	int ret;

	if ((cmd->flags & ~DXGPMO_DIRTY_CLEAR_DATA) || cmd->__reserved)
		return -EINVAL;
	mutex_lock(&file->lock);
	basis = dxgpmo_basis_find(file, cmd->basis_id);
	ret = -ENOENT;
	if (!basis)
		goto out_unlock;
	ret = -EINVAL;
	if (!basis->track_count)
		goto out_unlock;
	if (!cmd->subrange_length) {
		/* The whole basis; the other subrange fields must be 0. */
		if (cmd->subrange_index || cmd->subrange_offset)
			goto out_unlock;
		first = 0;
		count = basis->nr_bits;
	} else {
		const struct dxgpmo_basis_range *r;

		if (cmd->subrange_index >= basis->nr_ranges)
			goto out_unlock;
		r = &basis->ranges[cmd->subrange_index];
		if (!IS_ALIGNED(cmd->subrange_offset, ps) ||
		    !IS_ALIGNED(cmd->subrange_length, ps) ||
		    cmd->subrange_offset >= r->length ||
		    cmd->subrange_length > r->length - cmd->subrange_offset)
			goto out_unlock;
		first = r->first_bit + cmd->subrange_offset / ps;
		count = cmd->subrange_length / ps;
	}
	nbytes = DIV_ROUND_UP(count, BITS_PER_BYTE);
	ret = -ENOSPC;
	if (cmd->buffer_size < nbytes)
		goto out_unlock;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto out_unlock;
	out = kvzalloc(nbytes, GFP_KERNEL_ACCOUNT);
	if (!out)
		goto out_unlock;

	segment = basis->adapter->segment;
	ret = dxgpmo_basis_collect(basis, first, count);
	if (ret)
		goto out_unlock;
	mutex_lock(&segment->lock);
	for (i = 0; i < count; i++)
		if (test_bit(first + i, basis->bitmap))
			out[i / BITS_PER_BYTE] |= BIT(i % BITS_PER_BYTE);
	if (clear)
		bitmap_clear(basis->bitmap, first, count);
	mutex_unlock(&segment->lock);
	mutex_unlock(&file->lock);
	ret = copy_to_user(u64_to_user_ptr(cmd->buffer), out, nbytes) ?
	      -EFAULT : 0;
	kvfree(out);
	return ret;

out_unlock:
	mutex_unlock(&file->lock);
	kvfree(out);
	return ret;
}
