// SPDX-License-Identifier: GPL-2.0
/*
 * Memory bases and dirty-bit tracking, Dxgkrnl's side: the commands that
 * call DxgkDdiCreateMemoryBasis, DxgkDdiDestroyMemoryBasis,
 * DxgkDdiStart/StopDirtyTracking and DxgkDdiQueryDirtyBitData on an
 * adapter, through whichever tracker answers for it
 * (&dxgpmo_adapter_ops.basis_ddi: the module's own for the segments it
 * emulates, segment_basis.c, or a kernel driver's).
 *
 * What Dxgkrnl promises a driver is checked here, once for every
 * tracker: the ranges are whole dirty pages of the segment, disjoint; a
 * STOP matches a START; a query names a span inside a started basis, in
 * whole dirty pages, and brings a buffer with a bit for each.  A basis is
 * the file's object; the tracker's handle lives in it.
 */
#include <linux/bitops.h>
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
#include "privilege.h"
#include "quota.h"
#include "trace.h"
#include "ucmd.h"

#define DXGPMO_BASIS_MAX_RANGES	4096

/*
 * The ranges are whole dirty pages of ps bytes inside the segment's size,
 * disjoint; each gets its first bit, in basis order, and *nr_bits is
 * their total.
 */
VISIBLE_IF_KUNIT int
dxgpmo_basis_check_ranges(struct dxgpmo_dirty_range *ranges, u32 nr_ranges,
			  u64 size, u64 ps, unsigned long *nr_bits)
{
	unsigned long bits = 0;
	u32 i, j;

	for (i = 0; i < nr_ranges; i++) {
		struct dxgpmo_dirty_range *r = &ranges[i];

		if (!r->length || !IS_ALIGNED(r->offset, ps) ||
		    !IS_ALIGNED(r->length, ps))
			return -EINVAL;
		if (r->offset + r->length < r->offset ||
		    r->offset + r->length > size)
			return -ERANGE;
		for (j = 0; j < i; j++) {
			const struct dxgpmo_dirty_range *o = &ranges[j];

			if (r->offset < o->offset + o->length &&
			    o->offset < r->offset + r->length)
				return -EEXIST;
		}
		r->first_bit = bits;
		bits += r->length / ps;
	}
	*nr_bits = bits;
	return 0;
}

/*
 * The tracker lets its basis go first; the handle is gone.  A basis
 * aborted half made holds what its create did so far: the adapter always,
 * then the charge, then the tracker's basis.
 */
static void dxgpmo_basis_destroy(struct dxgpmo_file *file,
				 struct dxgpmo_object *obj)
{
	struct dxgpmo_basis *basis = container_of(obj, struct dxgpmo_basis, obj);
	struct dxgpmo_adapter *adapter = basis->adapter;

	if (basis->tracker)
		adapter->ops->basis_ddi->destroy(adapter, basis->tracker);
	if (basis->charged)
		dxgpmo_account_quota_uncharge(file->account,
					      DXGPMO_QUOTA_BASES, 1);
	dxgpmo_adapter_put(adapter);
}

/* The memory it tracks; a basis has no caching or Context of its own. */
static void dxgpmo_basis_describe(const struct dxgpmo_object *obj,
				  struct dxgpmo_object_desc *desc)
{
	const struct dxgpmo_basis *basis =
		container_of(obj, struct dxgpmo_basis, obj);

	desc->size = basis->nr_bits * basis->page_size;
}

static const struct dxgpmo_object_ops dxgpmo_basis_ops = {
	.destroy = dxgpmo_basis_destroy,
	.describe = dxgpmo_basis_describe,
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
	const struct dxgpmo_basis_ddi *ddi;
	struct dxgpmo_adapter *adapter;
	struct dxgpmo_object *obj;
	u64 page_size = 0, segment_size = 0;
	struct dxgpmo_basis *basis;
	void *tracker;
	int ret;

	if (cmd->flags || cmd->basis_id)
		return -EINVAL;
	if (!cmd->range_count)
		return -EINVAL;
	if (cmd->range_count > DXGPMO_BASIS_MAX_RANGES)
		return -E2BIG;
	adapter = dxgpmo_adapter_get_any_owner(file, cmd->adapter_id,
					       dxgpmo_may_track_any_adapter(file));
	if (IS_ERR(adapter))
		return PTR_ERR(adapter);
	ddi = adapter->ops->basis_ddi;
	/* A segment the adapter does not track is no segment to it. */
	ret = ddi->segment_caps(adapter, cmd->segment_id, &page_size,
				&segment_size);
	if (ret) {
		dxgpmo_adapter_put(adapter);
		return ret;
	}
	obj = __dxgpmo_object_alloc(file, struct_size(basis, ranges,
						      cmd->range_count),
				    DXGPMO_OBJ_BASIS, &dxgpmo_basis_ops);
	if (IS_ERR(obj)) {
		dxgpmo_adapter_put(adapter);
		return PTR_ERR(obj);
	}
	basis = container_of(obj, struct dxgpmo_basis, obj);
	basis->adapter = adapter;
	mutex_init(&basis->tracking_lock);
	basis->nr_ranges = cmd->range_count;
	basis->page_size = page_size;
	ret = dxgpmo_basis_read_ranges(ucmd, basis, cmd);
	if (ret)
		goto err_abort;
	ret = dxgpmo_basis_check_ranges(basis->ranges, basis->nr_ranges,
					segment_size, basis->page_size,
					&basis->nr_bits);
	if (ret)
		goto err_abort;
	ret = dxgpmo_account_quota_charge(file->account, DXGPMO_QUOTA_BASES, 1);
	if (ret)
		goto err_abort;
	basis->charged = true;
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto err_abort;
	tracker = ddi->create(adapter, cmd->segment_id, basis->ranges,
			      basis->nr_ranges);
	if (IS_ERR(tracker)) {
		ret = PTR_ERR(tracker);
		goto err_abort;
	}
	basis->tracker = tracker;

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

/* The basis a START or STOP names, a call's reference taken. */
static struct dxgpmo_basis *dxgpmo_basis_of_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_dirty_tracking *cmd = ucmd->cmd;

	if (cmd->flags || cmd->__reserved)
		return ERR_PTR(-EINVAL);
	return dxgpmo_basis_get(ucmd->file, cmd->basis_id);
}

/*
 * STARTs and STOPs are counted here, for the promises above; the tracker
 * counts its own, for what it must keep tracking.  Concurrent STARTs and
 * STOPs of one basis are serialised here, so that its count and the
 * tracker's agree.
 */
int dxgpmo_cmd_start_dirty_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_basis *basis = dxgpmo_basis_of_tracking(ucmd);
	struct dxgpmo_adapter *adapter;
	int ret;

	if (IS_ERR(basis))
		return PTR_ERR(basis);
	adapter = basis->adapter;
	mutex_lock(&basis->tracking_lock);
	ret = -EOVERFLOW;
	if (basis->started != UINT_MAX)
		ret = adapter->ops->basis_ddi->start(adapter, basis->tracker);
	if (!ret && !basis->started++)
		basis->bits_lost = false;
	mutex_unlock(&basis->tracking_lock);
	dxgpmo_object_put(&basis->obj);
	return ret;
}

int dxgpmo_cmd_stop_dirty_tracking(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_basis *basis = dxgpmo_basis_of_tracking(ucmd);
	struct dxgpmo_adapter *adapter;
	int ret = -EINVAL;

	if (IS_ERR(basis))
		return PTR_ERR(basis);
	adapter = basis->adapter;
	mutex_lock(&basis->tracking_lock);
	if (basis->started)
		ret = adapter->ops->basis_ddi->stop(adapter, basis->tracker);
	if (!ret)
		basis->started--;
	mutex_unlock(&basis->tracking_lock);
	dxgpmo_object_put(&basis->obj);
	return ret;
}

/*
 * The number of bits a query asks for, in dirty pages of ps: the whole
 * basis without a subrange, else a span inside one range.
 */
VISIBLE_IF_KUNIT int
dxgpmo_query_span(const struct dxgpmo_basis *basis,
		  const struct dxgpmo_query_dirty_bits *cmd, u64 ps,
		  unsigned long *count)
{
	const struct dxgpmo_dirty_range *r;

	if (!cmd->subrange_length) {
		/* The whole basis; the other subrange fields must be 0. */
		if (cmd->subrange_index || cmd->subrange_offset)
			return -EINVAL;
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
	*count = cmd->subrange_length / ps;
	return 0;
}

/*
 * The bits of a clearing query that never reached the caller are lost to
 * a tracker that cannot set them again (a driver's): its basis then
 * reports every page of the next queries dirty until a clearing query of
 * the whole basis has reached its caller.  More pages copied, none
 * missed.
 */
static void dxgpmo_basis_bits_lost(struct dxgpmo_basis *basis,
				   const struct dxgpmo_query_dirty_bits *cmd,
				   const u8 *out)
{
	const struct dxgpmo_basis_ddi *ddi = basis->adapter->ops->basis_ddi;

	if (!(cmd->flags & DXGPMO_DIRTY_CLEAR_DATA))
		return;
	if (ddi->restore)
		ddi->restore(basis->adapter, basis->tracker, cmd, out);
	else
		basis->bits_lost = true;
}

/* A copy of the bits a query reports: all of them after a loss. */
static void dxgpmo_basis_report_lost(struct dxgpmo_basis *basis, u8 *out,
				     unsigned long count)
{
	if (!basis->bits_lost)
		return;
	memset(out, 0xff, count / BITS_PER_BYTE);
	if (count % BITS_PER_BYTE)
		out[count / BITS_PER_BYTE] = GENMASK(count % BITS_PER_BYTE - 1,
						     0);
}

/*
 * Under the basis's tracking_lock from the check that it is started to
 * the reply, so that no STOP or START comes between: the tracker is
 * queried only while started, and bits given back are this period's.
 */
/* The dirty pages among the count bits of a query's answer, for tracers. */
static void dxgpmo_basis_trace_report(const struct dxgpmo_file *file,
				      const struct dxgpmo_query_dirty_bits *cmd,
				      const u8 *bits, unsigned long count)
{
	unsigned long i, dirty = 0;

	for (i = 0; i < count / BITS_PER_BYTE; i++)
		dirty += hweight8(bits[i]);
	/* A driver's DDI may have set bits past the span in its last byte. */
	if (count % BITS_PER_BYTE)
		dirty += hweight8(bits[i] & GENMASK(count % BITS_PER_BYTE - 1,
						    0));
	trace_dxgpmo_dirty_report(file->id, cmd->basis_id, count, dirty,
				  cmd->flags & DXGPMO_DIRTY_CLEAR_DATA);
}

int dxgpmo_cmd_query_dirty_bits(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_query_dirty_bits *cmd = ucmd->cmd;
	struct dxgpmo_file *file = ucmd->file;
	const struct dxgpmo_basis_ddi *ddi;
	unsigned long count, nbytes;
	struct dxgpmo_basis *basis;
	u8 *out = NULL;
	int ret;

	if ((cmd->flags & ~DXGPMO_DIRTY_CLEAR_DATA) || cmd->__reserved)
		return -EINVAL;
	basis = dxgpmo_basis_get(file, cmd->basis_id);
	if (IS_ERR(basis))
		return PTR_ERR(basis);
	ddi = basis->adapter->ops->basis_ddi;
	mutex_lock(&basis->tracking_lock);
	ret = -EINVAL;
	if (!basis->started)
		goto out_unlock;
	ret = dxgpmo_query_span(basis, cmd, basis->page_size, &count);
	if (ret)
		goto out_unlock;
	nbytes = DIV_ROUND_UP(count, BITS_PER_BYTE);
	if (cmd->buffer_size < nbytes) {
		/* Tell the caller how much room it needs; no bit is read. */
		cmd->buffer_size = nbytes;
		ret = dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
		ret = ret ? ret : -ENOSPC;
		goto out_unlock;
	}
	ret = -ENOMEM;
	if (dxgpmo_should_fail(file))
		goto out_unlock;
	out = kvzalloc(nbytes, GFP_KERNEL_ACCOUNT);
	if (!out)
		goto out_unlock;
	ret = ddi->query(basis->adapter, basis->tracker, cmd, out, nbytes);
	if (ret)
		goto out_unlock;
	dxgpmo_basis_report_lost(basis, out, count);
	if (trace_dxgpmo_dirty_report_enabled())
		dxgpmo_basis_trace_report(file, cmd, out, count);
	ret = dxgpmo_ucmd_copy_to(ucmd, cmd->buffer, out, nbytes);
	if (ret)
		dxgpmo_basis_bits_lost(basis, cmd, out);
	else if (!cmd->subrange_length &&
		 (cmd->flags & DXGPMO_DIRTY_CLEAR_DATA))
		basis->bits_lost = false;
out_unlock:
	mutex_unlock(&basis->tracking_lock);
	dxgpmo_object_put(&basis->obj);
	kvfree(out);
	return ret;
}
