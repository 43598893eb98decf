// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl table.  Every command is _IO(DXGPMO_TYPE, nr) and its struct
 * starts with "__u32 size; __u32 flags;": the size the caller was built with
 * travels in the struct, so old binaries keep working when structs grow
 * (the iommufd scheme).  A struct shorter than the first version of the
 * command is -EINVAL, unknown non-zero tail bytes are -E2BIG.  Handlers check
 * flags and reserved fields themselves.
 *
 * The same table is the kernel clients' door (client.c): a command runs
 * with a kernel caller's block as it runs with a copy of a user's.
 */
#include <linux/fs.h>
#include <linux/nospec.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>

#include "dxgpmo.h"
#include "dxgpmo_test.h"
#include "internal.h"
#include "ioctl.h"
#include "object.h"
#include "trace.h"
#include "ucmd.h"

union dxgpmo_ucmd_buffer {
	struct dxgpmo_query_adapters query_adapters;
	struct dxgpmo_create_pmo create_pmo;
	struct dxgpmo_destroy_pmo destroy_pmo;
	struct dxgpmo_open_pmo open_pmo;
	struct dxgpmo_close_pmo close_pmo;
	struct dxgpmo_allocate_adl allocate_adl;
	struct dxgpmo_free_adl free_adl;
	struct dxgpmo_adapter_dma adapter_dma;
	struct dxgpmo_map map;
	struct dxgpmo_unmap unmap;
	struct dxgpmo_kmap_rw kmap_rw;
	struct dxgpmo_test_cmd test;
	struct dxgpmo_create_memory_basis create_memory_basis;
	struct dxgpmo_destroy_memory_basis destroy_memory_basis;
	struct dxgpmo_dirty_tracking dirty_tracking;
	struct dxgpmo_query_dirty_bits query_dirty_bits;
	struct dxgpmo_export_dmabuf export_dmabuf;
	struct dxgpmo_stats stats;
};

struct dxgpmo_ioctl_op {
	unsigned int size;
	unsigned int min_size;
	unsigned int ioctl_num;
	/* The field a kernel caller's array goes in; 0: it passes none. */
	unsigned int array_offset;
	int (*execute)(struct dxgpmo_ucmd *ucmd);
};

/*
 * min_size is fixed when a command first ships (offsetofend of its last
 * field then) and must never grow, or old callers would break.
 */
#define __IOCTL_OP(_name, _fn, _struct, _last, _array_offset)             \
	[DXGPMO_CMD_##_name] = {                                           \
		.size = sizeof(_struct) +                                  \
			BUILD_BUG_ON_ZERO(sizeof(union dxgpmo_ucmd_buffer) < \
					  sizeof(_struct)),                \
		.min_size = offsetofend(_struct, _last),                   \
		.ioctl_num = DXGPMO_IOC_##_name,                           \
		.array_offset = _array_offset,                             \
		.execute = _fn,                                            \
	}
#define IOCTL_OP(_name, _fn, _struct, _last)                               \
	__IOCTL_OP(_name, _fn, _struct, _last, 0)
#define IOCTL_OP_ARRAY(_name, _fn, _struct, _last, _array)                 \
	__IOCTL_OP(_name, _fn, _struct, _last, offsetof(_struct, _array))

static const struct dxgpmo_ioctl_op dxgpmo_ioctl_ops[] = {
	IOCTL_OP(QUERY_ADAPTERS, dxgpmo_cmd_query_adapters,
		 struct dxgpmo_query_adapters, entries),
	IOCTL_OP(CREATE_PMO, dxgpmo_cmd_create_pmo,
		 struct dxgpmo_create_pmo, mmap_offset),
	IOCTL_OP(DESTROY_PMO, dxgpmo_cmd_destroy_pmo,
		 struct dxgpmo_destroy_pmo, amo_id),
	IOCTL_OP(OPEN_PMO, dxgpmo_cmd_open_pmo,
		 struct dxgpmo_open_pmo, __reserved),
	IOCTL_OP(CLOSE_PMO, dxgpmo_cmd_close_pmo,
		 struct dxgpmo_close_pmo, __reserved),
	IOCTL_OP_ARRAY(ALLOCATE_ADL, dxgpmo_cmd_allocate_adl,
		       struct dxgpmo_allocate_adl, base_page, pages),
	IOCTL_OP(FREE_ADL, dxgpmo_cmd_free_adl, struct dxgpmo_free_adl,
		 __reserved),
	IOCTL_OP(MAP, dxgpmo_cmd_map, struct dxgpmo_map, __reserved),
	IOCTL_OP(UNMAP, dxgpmo_cmd_unmap, struct dxgpmo_unmap, length),
	IOCTL_OP(KMAP_RW, dxgpmo_cmd_kmap_rw, struct dxgpmo_kmap_rw, buffer),
	IOCTL_OP(ADAPTER_DMA, dxgpmo_cmd_adapter_dma,
		 struct dxgpmo_adapter_dma, buffer),
	IOCTL_OP_ARRAY(CREATE_MEMORY_BASIS, dxgpmo_cmd_create_memory_basis,
		       struct dxgpmo_create_memory_basis, ranges, ranges),
	IOCTL_OP(DESTROY_MEMORY_BASIS, dxgpmo_cmd_destroy_memory_basis,
		 struct dxgpmo_destroy_memory_basis, __reserved),
	IOCTL_OP(START_DIRTY_TRACKING, dxgpmo_cmd_start_dirty_tracking,
		 struct dxgpmo_dirty_tracking, __reserved),
	IOCTL_OP(STOP_DIRTY_TRACKING, dxgpmo_cmd_stop_dirty_tracking,
		 struct dxgpmo_dirty_tracking, __reserved),
	IOCTL_OP_ARRAY(QUERY_DIRTY_BITS, dxgpmo_cmd_query_dirty_bits,
		       struct dxgpmo_query_dirty_bits, buffer_size, buffer),
	IOCTL_OP(EXPORT_DMABUF, dxgpmo_cmd_export_dmabuf,
		 struct dxgpmo_export_dmabuf, __reserved),
	IOCTL_OP(STATS, dxgpmo_cmd_stats,
		 struct dxgpmo_stats, file),
	/* Its number in every build, a handler in a test build (test.h). */
	IOCTL_OP(TEST, dxgpmo_cmd_test, struct dxgpmo_test_cmd, fail_nth),
};

/* The table's entry of ioctl number cmd, or NULL: either door asks it. */
static const struct dxgpmo_ioctl_op *dxgpmo_ioctl_op(unsigned int cmd)
{
	unsigned int nr = _IOC_NR(cmd);
	const struct dxgpmo_ioctl_op *op;

	if (_IOC_TYPE(cmd) != DXGPMO_TYPE || nr >= ARRAY_SIZE(dxgpmo_ioctl_ops))
		return NULL;
	op = &dxgpmo_ioctl_ops[array_index_nospec(nr,
						  ARRAY_SIZE(dxgpmo_ioctl_ops))];
	if (!op->execute || op->ioctl_num != cmd)
		return NULL;
	return op;
}

/*
 * Each command's event as it returns, whichever door it came through: its
 * block holds what was asked and what was answered.  A switch rather than
 * a member of the table: each event takes its own block type, and with
 * tracing off every case is a patched-out branch.
 */
static void dxgpmo_trace_cmd(const struct dxgpmo_ioctl_op *op,
			     const struct dxgpmo_file *file,
			     const union dxgpmo_ucmd_buffer *b, int ret)
{
	switch (op - dxgpmo_ioctl_ops) {
	case DXGPMO_CMD_CREATE_PMO:
		trace_dxgpmo_create_pmo(file, &b->create_pmo, ret);
		break;
	case DXGPMO_CMD_DESTROY_PMO:
		trace_dxgpmo_destroy_pmo(file, &b->destroy_pmo, ret);
		break;
	case DXGPMO_CMD_OPEN_PMO:
		trace_dxgpmo_open_pmo(file, &b->open_pmo, ret);
		break;
	case DXGPMO_CMD_CLOSE_PMO:
		trace_dxgpmo_close_pmo(file, b->close_pmo.amo_id, ret);
		break;
	case DXGPMO_CMD_ALLOCATE_ADL:
		trace_dxgpmo_allocate_adl(file, &b->allocate_adl, ret);
		break;
	case DXGPMO_CMD_FREE_ADL:
		trace_dxgpmo_free_adl(file, b->free_adl.adl_id, ret);
		break;
	case DXGPMO_CMD_MAP:
		trace_dxgpmo_map(file, &b->map, ret);
		break;
	case DXGPMO_CMD_UNMAP:
		trace_dxgpmo_unmap(file, &b->unmap, ret);
		break;
	case DXGPMO_CMD_KMAP_RW:
		trace_dxgpmo_kmap_rw(file, &b->kmap_rw, ret);
		break;
	case DXGPMO_CMD_ADAPTER_DMA:
		trace_dxgpmo_adapter_dma(file, &b->adapter_dma, ret);
		break;
	case DXGPMO_CMD_CREATE_MEMORY_BASIS:
		trace_dxgpmo_create_memory_basis(file, &b->create_memory_basis,
						 ret);
		break;
	case DXGPMO_CMD_DESTROY_MEMORY_BASIS:
		trace_dxgpmo_destroy_memory_basis(file,
						  b->destroy_memory_basis.basis_id,
						  ret);
		break;
	case DXGPMO_CMD_START_DIRTY_TRACKING:
		trace_dxgpmo_start_dirty_tracking(file,
						  b->dirty_tracking.basis_id,
						  ret);
		break;
	case DXGPMO_CMD_STOP_DIRTY_TRACKING:
		trace_dxgpmo_stop_dirty_tracking(file,
						 b->dirty_tracking.basis_id,
						 ret);
		break;
	case DXGPMO_CMD_QUERY_DIRTY_BITS:
		trace_dxgpmo_query_dirty_bits(file, &b->query_dirty_bits, ret);
		break;
	case DXGPMO_CMD_EXPORT_DMABUF:
		trace_dxgpmo_export_dmabuf(file, &b->export_dmabuf, ret);
		break;
	}
}

long dxgpmo_fops_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	const struct dxgpmo_ioctl_op *op;
	union dxgpmo_ucmd_buffer buf;
	struct dxgpmo_ucmd ucmd = {
		.file = filp->private_data,
		.filp = filp,
		.ubuffer = (void __user *)arg,
		.cmd = &buf,
	};
	int ret;

	op = dxgpmo_ioctl_op(cmd);
	if (!op)
		return -ENOTTY;

	ret = get_user(ucmd.user_size, (u32 __user *)ucmd.ubuffer);
	if (ret)
		return ret;
	if (ucmd.user_size < op->min_size)
		return -EINVAL;
	/*
	 * A tail past what the kernel knows must be zero, and checking that
	 * reads it: no struct will grow past a page (openat2 and clone3 cap
	 * theirs the same way), and a larger size would have the kernel scan
	 * up to 4 GiB of the caller's memory in one loop.
	 */
	if (ucmd.user_size > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(ucmd.cmd, op->size, ucmd.ubuffer,
				    ucmd.user_size);
	if (ret)
		return ret;
	ret = op->execute(&ucmd);
	dxgpmo_trace_cmd(op, ucmd.file, &buf, ret);
	return ret;
}

/*
 * Run one command with a kernel caller's parameter block: a copy goes in,
 * as the ioctl's copy of the user's does, with the caller's array (or
 * NULL) in the command's array field, and the answer comes back into the
 * caller's block when the command answers, as the ioctl's does (on
 * success, and with the size an array needs).  That field is 0 in the
 * caller's block, always: a kernel address is only ever one this function
 * put there, and a retry with a larger array passes the same block again.
 */
int dxgpmo_ioctl_kernel(struct dxgpmo_file *file, unsigned int ioctl_num,
			void *args, size_t size, const void *array)
{
	const struct dxgpmo_ioctl_op *op = dxgpmo_ioctl_op(ioctl_num);
	union dxgpmo_ucmd_buffer buf;
	struct dxgpmo_ucmd ucmd = {
		.file = file,
		.kbuffer = args,
		.cmd = &buf,
	};
	u64 *caller_ptr;
	int ret;

	might_sleep();
	/* The table says the size: a block of another type would overrun. */
	if (WARN_ON_ONCE(!op || size != op->size ||
			 (array && !op->array_offset) || !file->kernel_client))
		return -ENOTTY;
	caller_ptr = op->array_offset ? args + op->array_offset : NULL;
	if (caller_ptr && *caller_ptr)
		return -EINVAL;
	ucmd.user_size = op->size;
	memcpy(&buf, args, op->size);
	*(u32 *)ucmd.cmd = op->size;	/* each block's size field */
	if (caller_ptr)
		*(u64 *)(ucmd.cmd + op->array_offset) = (uintptr_t)array;
	ret = op->execute(&ucmd);
	dxgpmo_trace_cmd(op, file, &buf, ret);
	/* A command that answers an error (-ENOSPC with the size) too. */
	if (caller_ptr)
		*caller_ptr = 0;
	return ret;
}
