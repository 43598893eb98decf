/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's trace events, system "dxgpmo": every command of the contract
 * as it returns (its parameter block, answers included, and its result;
 * not the read-only QUERY_ADAPTERS and STATS, nor the test command),
 * whichever door it came through, and what happens below the commands that
 * a driver engineer chases (the DMA mapping of an ADL and its teardown,
 * the page pool, linear-map switches, quota refusals, leaks).  What each
 * one shows and who may read it: Documentation/dev-tools/dxgpmo.rst,
 * "Trace events".
 *
 * Every event prints as space-separated key=value pairs (dxgpmoctl monitor
 * parses them): decimal numbers, 0x-prefixed hex, or a word.  A command's
 * event starts with who made the call: file (struct dxgpmo_file's id), pid
 * (the caller's thread group; for a kernel client, the thread it called
 * from), kernel (1: a kernel client's call), and ends with ret (0 or a
 * negative errno).  obj is the handle the call acts on or made.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dxgpmo

#if !defined(_DXGPMO_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _DXGPMO_TRACE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/types.h>

#include "dxgpmo.h"
#include "quota.h"

/* Only trace.c, which makes the events, reads the file's fields. */
struct dxgpmo_file;

#define dxgpmo_show_pmo_type(type)					\
	__print_symbolic(type,						\
			 { DXGPMO_PMO_TYPE_MDL, "mdl" },		\
			 { DXGPMO_PMO_TYPE_CONTIGUOUS, "contiguous" },	\
			 { DXGPMO_PMO_TYPE_SECTION, "section" },	\
			 { DXGPMO_PMO_TYPE_IO_SPACE, "io_space" })

#define dxgpmo_show_cache_type(cache)					\
	__print_symbolic(cache,						\
			 { DXGPMO_CACHE_NON_CACHED, "non_cached" },	\
			 { DXGPMO_CACHE_CACHED, "cached" },		\
			 { DXGPMO_CACHE_WRITE_COMBINED, "write_combined" })

#define dxgpmo_show_access(mode)					\
	__print_symbolic(mode,						\
			 { DXGPMO_ACCESS_KERNEL, "kernel" },		\
			 { DXGPMO_ACCESS_USER, "user" })

/* The caller of a command, first in each command's event. */
#define DXGPMO_TP_CALLER_FIELDS						\
	__field(u32, file)						\
	__field(pid_t, pid)						\
	__field(bool, kernel)
#define DXGPMO_TP_CALLER_ASSIGN(f)					\
	do {								\
		const struct dxgpmo_file *__caller = (f);		\
									\
		__entry->file = __caller->id;				\
		__entry->pid = current->tgid;				\
		__entry->kernel = __caller->kernel_client;		\
	} while (0)
#define DXGPMO_TP_CALLER_FMT "file=%u pid=%d kernel=%d "
#define DXGPMO_TP_CALLER_ARGS __entry->file, __entry->pid, __entry->kernel

TRACE_EVENT(dxgpmo_create_pmo,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_create_pmo *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, adapter)
		__field(u32, obj)
		__field(u32, amo)
		__field(u32, type)
		__field(u32, cache)
		__field(u64, length)
		__field(u64, context)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->adapter = cmd->adapter_id;
		__entry->obj = ret ? 0 : cmd->pmo_id;
		__entry->amo = ret ? 0 : cmd->amo_id;
		__entry->type = cmd->type;
		__entry->cache = cmd->cache_type;
		__entry->length = cmd->length;
		__entry->context = cmd->context;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "adapter=%u obj=%u amo=%u type=%s cache=%s length=%llu context=0x%llx ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->adapter, __entry->obj,
		  __entry->amo, dxgpmo_show_pmo_type(__entry->type),
		  dxgpmo_show_cache_type(__entry->cache), __entry->length,
		  __entry->context, __entry->ret)
);

TRACE_EVENT(dxgpmo_destroy_pmo,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_destroy_pmo *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, obj)
		__field(u32, amo)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->obj = cmd->pmo_id;
		__entry->amo = cmd->amo_id;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "obj=%u amo=%u ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->obj, __entry->amo,
		  __entry->ret)
);

TRACE_EVENT(dxgpmo_open_pmo,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_open_pmo *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, adapter)
		__field(u32, pmo)
		__field(u32, obj)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->adapter = cmd->adapter_id;
		__entry->pmo = cmd->pmo_id;
		__entry->obj = ret ? 0 : cmd->amo_id;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "adapter=%u pmo=%u obj=%u ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->adapter, __entry->pmo,
		  __entry->obj, __entry->ret)
);

/* The commands whose block is one handle: what they act on and how. */
DECLARE_EVENT_CLASS(dxgpmo_handle_call,
	TP_PROTO(const struct dxgpmo_file *f, u32 obj, int ret),
	TP_ARGS(f, obj, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, obj)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->obj = obj;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "obj=%u ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->obj, __entry->ret)
);

DEFINE_EVENT(dxgpmo_handle_call, dxgpmo_close_pmo,
	TP_PROTO(const struct dxgpmo_file *f, u32 obj, int ret),
	TP_ARGS(f, obj, ret));
DEFINE_EVENT(dxgpmo_handle_call, dxgpmo_free_adl,
	TP_PROTO(const struct dxgpmo_file *f, u32 obj, int ret),
	TP_ARGS(f, obj, ret));
DEFINE_EVENT(dxgpmo_handle_call, dxgpmo_destroy_memory_basis,
	TP_PROTO(const struct dxgpmo_file *f, u32 obj, int ret),
	TP_ARGS(f, obj, ret));
DEFINE_EVENT(dxgpmo_handle_call, dxgpmo_start_dirty_tracking,
	TP_PROTO(const struct dxgpmo_file *f, u32 obj, int ret),
	TP_ARGS(f, obj, ret));
DEFINE_EVENT(dxgpmo_handle_call, dxgpmo_stop_dirty_tracking,
	TP_PROTO(const struct dxgpmo_file *f, u32 obj, int ret),
	TP_ARGS(f, obj, ret));

TRACE_EVENT(dxgpmo_allocate_adl,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_allocate_adl *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, amo)
		__field(u32, obj)
		__field(u32, flags)
		__field(u32, adl_flags)
		__field(u64, offset)
		__field(u64, length)
		__field(u64, pages)
		__field(u64, base_page)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->amo = cmd->amo_id;
		__entry->obj = ret ? 0 : cmd->adl_id;
		__entry->flags = cmd->flags;
		__entry->adl_flags = ret ? 0 : cmd->adl_flags;
		__entry->offset = cmd->offset;
		__entry->length = cmd->length;
		__entry->pages = cmd->page_count;
		__entry->base_page = ret ? 0 : cmd->base_page;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "amo=%u obj=%u require_contiguous=%d offset=%llu length=%llu pages=%llu contiguous=%d hidden=%d base_page=0x%llx ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->amo, __entry->obj,
		  !!(__entry->flags & DXGPMO_ADL_REQUIRE_CONTIGUOUS),
		  __entry->offset, __entry->length, __entry->pages,
		  !!(__entry->adl_flags & DXGPMO_ADL_CONTIGUOUS),
		  !!(__entry->adl_flags & DXGPMO_ADL_ADDRESSES_HIDDEN),
		  __entry->base_page, __entry->ret)
);

TRACE_EVENT(dxgpmo_map,
	TP_PROTO(const struct dxgpmo_file *f, const struct dxgpmo_map *cmd,
		 int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, pmo)
		__field(u32, obj)
		__field(u32, access)
		__field(u32, flags)
		__field(u64, offset)
		__field(u64, length)
		__field(u64, address)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->pmo = cmd->pmo_id;
		__entry->obj = ret ? 0 : cmd->map_id;
		__entry->access = cmd->access_mode;
		__entry->flags = cmd->flags;
		__entry->offset = cmd->offset;
		__entry->length = cmd->length;
		/*
		 * A user opener's kernel-mode view has a token for an
		 * address; a kernel client's is a kernel address: not shown.
		 */
		__entry->address = ret || (f->kernel_client &&
					   cmd->access_mode != DXGPMO_ACCESS_USER) ?
				   0 : cmd->address;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "pmo=%u obj=%u access=%s in_process=%d offset=%llu length=%llu address=0x%llx ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->pmo, __entry->obj,
		  dxgpmo_show_access(__entry->access),
		  !!(__entry->flags & DXGPMO_MAP_IN_PROCESS), __entry->offset,
		  __entry->length, __entry->address, __entry->ret)
);

TRACE_EVENT(dxgpmo_unmap,
	TP_PROTO(const struct dxgpmo_file *f, const struct dxgpmo_unmap *cmd,
		 int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, obj)
		__field(u64, address)
		__field(u64, length)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->obj = cmd->pmo_id;
		/* As in dxgpmo_map: a kernel client's may be a kernel one. */
		__entry->address = f->kernel_client ? 0 : cmd->address;
		__entry->length = cmd->length;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "obj=%u address=0x%llx length=%llu ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->obj, __entry->address,
		  __entry->length, __entry->ret)
);

TRACE_EVENT(dxgpmo_kmap_rw,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_kmap_rw *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, obj)
		__field(u32, flags)
		__field(u64, offset)
		__field(u64, length)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->obj = cmd->map_id;
		__entry->flags = cmd->flags;
		__entry->offset = cmd->offset;
		__entry->length = cmd->length;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "obj=%u write=%d offset=%llu length=%llu ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->obj,
		  !!(__entry->flags & DXGPMO_KMAP_WRITE), __entry->offset,
		  __entry->length, __entry->ret)
);

TRACE_EVENT(dxgpmo_adapter_dma,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_adapter_dma *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, adapter)
		__field(u32, flags)
		__field(u64, device_address)
		__field(u64, length)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->adapter = cmd->adapter_id;
		__entry->flags = cmd->flags;
		__entry->device_address = cmd->device_address;
		__entry->length = cmd->length;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "adapter=%u to_memory=%d device_address=0x%llx length=%llu ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->adapter,
		  !!(__entry->flags & DXGPMO_DMA_TO_MEMORY),
		  __entry->device_address, __entry->length, __entry->ret)
);

TRACE_EVENT(dxgpmo_create_memory_basis,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_create_memory_basis *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, adapter)
		__field(u32, segment)
		__field(u32, ranges)
		__field(u32, obj)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->adapter = cmd->adapter_id;
		__entry->segment = cmd->segment_id;
		__entry->ranges = cmd->range_count;
		__entry->obj = ret ? 0 : cmd->basis_id;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "adapter=%u segment=%u ranges=%u obj=%u ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->adapter, __entry->segment,
		  __entry->ranges, __entry->obj, __entry->ret)
);

TRACE_EVENT(dxgpmo_query_dirty_bits,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_query_dirty_bits *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, obj)
		__field(u32, flags)
		__field(u64, subrange_index)
		__field(u64, subrange_offset)
		__field(u64, subrange_length)
		__field(u64, buffer_size)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->obj = cmd->basis_id;
		__entry->flags = cmd->flags;
		__entry->subrange_index = cmd->subrange_index;
		__entry->subrange_offset = cmd->subrange_offset;
		__entry->subrange_length = cmd->subrange_length;
		__entry->buffer_size = cmd->buffer_size;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "obj=%u clear_data=%d subrange_index=%llu subrange_offset=%llu subrange_length=%llu buffer_size=%llu ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->obj,
		  !!(__entry->flags & DXGPMO_DIRTY_CLEAR_DATA),
		  __entry->subrange_index, __entry->subrange_offset,
		  __entry->subrange_length, __entry->buffer_size,
		  __entry->ret)
);

/*
 * What a query reported, beside its command's event: the dirty pages of
 * its span, as the DDI (the module's, or a kernel driver's) gave them.
 */
TRACE_EVENT(dxgpmo_dirty_report,
	TP_PROTO(u32 file, u32 obj, unsigned long pages, unsigned long dirty,
		 bool clear_data),
	TP_ARGS(file, obj, pages, dirty, clear_data),
	TP_STRUCT__entry(
		__field(u32, file)
		__field(u32, obj)
		__field(unsigned long, pages)
		__field(unsigned long, dirty)
		__field(bool, clear_data)
	),
	TP_fast_assign(
		__entry->file = file;
		__entry->obj = obj;
		__entry->pages = pages;
		__entry->dirty = dirty;
		__entry->clear_data = clear_data;
	),
	TP_printk("file=%u obj=%u pages=%lu dirty=%lu clear_data=%d",
		  __entry->file, __entry->obj, __entry->pages, __entry->dirty,
		  __entry->clear_data)
);

TRACE_EVENT(dxgpmo_export_dmabuf,
	TP_PROTO(const struct dxgpmo_file *f,
		 const struct dxgpmo_export_dmabuf *cmd, int ret),
	TP_ARGS(f, cmd, ret),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, obj)
		__field(int, fd)
		__field(int, ret)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->obj = cmd->pmo_id;
		__entry->fd = ret ? -1 : cmd->fd;
		__entry->ret = ret;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "obj=%u fd=%d ret=%d",
		  DXGPMO_TP_CALLER_ARGS, __entry->obj, __entry->fd,
		  __entry->ret)
);

/*
 * Below the commands.  The device addresses an ADL maps (root reads them
 * here even where ALLOCATE_ADL hides them from its caller), as the IOMMU's
 * map and unmap events show theirs; unmap also comes from FREE_ADL's
 * destroy, the file's release and the adapter's removal.
 */
DECLARE_EVENT_CLASS(dxgpmo_adl_dma,
	TP_PROTO(u32 file, u32 adapter, u32 obj, unsigned long pages,
		 unsigned int segments, u64 first, u64 last),
	TP_ARGS(file, adapter, obj, pages, segments, first, last),
	TP_STRUCT__entry(
		__field(u32, file)
		__field(u32, adapter)
		__field(u32, obj)
		__field(unsigned long, pages)
		__field(unsigned int, segments)
		__field(u64, first)
		__field(u64, last)
	),
	TP_fast_assign(
		__entry->file = file;
		__entry->adapter = adapter;
		__entry->obj = obj;
		__entry->pages = pages;
		__entry->segments = segments;
		__entry->first = first;
		__entry->last = last;
	),
	TP_printk("file=%u adapter=%u obj=%u pages=%lu segments=%u first=0x%llx last=0x%llx",
		  __entry->file, __entry->adapter, __entry->obj,
		  __entry->pages, __entry->segments, __entry->first,
		  __entry->last)
);

DEFINE_EVENT(dxgpmo_adl_dma, dxgpmo_adl_dma_map,
	TP_PROTO(u32 file, u32 adapter, u32 obj, unsigned long pages,
		 unsigned int segments, u64 first, u64 last),
	TP_ARGS(file, adapter, obj, pages, segments, first, last));
DEFINE_EVENT(dxgpmo_adl_dma, dxgpmo_adl_dma_unmap,
	TP_PROTO(u32 file, u32 adapter, u32 obj, unsigned long pages,
		 unsigned int segments, u64 first, u64 last),
	TP_ARGS(file, adapter, obj, pages, segments, first, last));

/* The engine on an adapter's own segment (ADAPTER_DMA, kernel clients). */
TRACE_EVENT(dxgpmo_segment_dma,
	TP_PROTO(u32 adapter, bool to_memory, u64 offset, size_t length,
		 int ret),
	TP_ARGS(adapter, to_memory, offset, length, ret),
	TP_STRUCT__entry(
		__field(u32, adapter)
		__field(bool, to_memory)
		__field(u64, offset)
		__field(size_t, length)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->adapter = adapter;
		__entry->to_memory = to_memory;
		__entry->offset = offset;
		__entry->length = length;
		__entry->ret = ret;
	),
	TP_printk("adapter=%u to_memory=%d offset=%llu length=%zu ret=%d",
		  __entry->adapter, __entry->to_memory, __entry->offset,
		  __entry->length, __entry->ret)
);

/* A pool miss: fresh blocks for the caller, and extra ones for the pool. */
TRACE_EVENT(dxgpmo_pool_miss,
	TP_PROTO(u32 cache_type, unsigned int order, unsigned long wanted,
		 unsigned long got, unsigned long pooled),
	TP_ARGS(cache_type, order, wanted, got, pooled),
	TP_STRUCT__entry(
		__field(u32, cache)
		__field(unsigned int, order)
		__field(unsigned long, wanted)
		__field(unsigned long, got)
		__field(unsigned long, pooled)
	),
	TP_fast_assign(
		__entry->cache = cache_type;
		__entry->order = order;
		__entry->wanted = wanted;
		__entry->got = got;
		__entry->pooled = pooled;
	),
	TP_printk("cache=%s order=%u wanted=%lu got=%lu pooled=%lu",
		  dxgpmo_show_cache_type(__entry->cache), __entry->order,
		  __entry->wanted, __entry->got, __entry->pooled)
);

/* The linear map's alias of pages switched to a cache type (one flush). */
TRACE_EVENT(dxgpmo_linear_map,
	TP_PROTO(u32 cache_type, unsigned long pages, int ret),
	TP_ARGS(cache_type, pages, ret),
	TP_STRUCT__entry(
		__field(u32, cache)
		__field(unsigned long, pages)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->cache = cache_type;
		__entry->pages = pages;
		__entry->ret = ret;
	),
	TP_printk("cache=%s pages=%lu ret=%d",
		  dxgpmo_show_cache_type(__entry->cache), __entry->pages,
		  __entry->ret)
);

/* A charge the cap refused; uid 0 with own=1 is a kernel client's quota. */
TRACE_EVENT(dxgpmo_quota_refused,
	TP_PROTO(u32 uid, bool own, unsigned int kind, unsigned long wanted,
		 s64 charged, s64 max),
	TP_ARGS(uid, own, kind, wanted, charged, max),
	TP_STRUCT__entry(
		__field(u32, uid)
		__field(bool, own)
		__field(unsigned int, kind)
		__field(unsigned long, wanted)
		__field(s64, charged)
		__field(s64, max)
	),
	TP_fast_assign(
		__entry->uid = uid;
		__entry->own = own;
		__entry->kind = kind;
		__entry->wanted = wanted;
		__entry->charged = charged;
		__entry->max = max;
	),
	TP_printk("uid=%u own=%d kind=%s wanted=%lu charged=%lld max=%lld",
		  __entry->uid, __entry->own,
		  __print_symbolic(__entry->kind,
				   { DXGPMO_QUOTA_PINNED_PAGES, "pinned_pages" },
				   { DXGPMO_QUOTA_ADL_PAGES, "adl_pages" },
				   { DXGPMO_QUOTA_KMAP_PAGES, "kmap_pages" },
				   { DXGPMO_QUOTA_BASES, "bases" }),
		  __entry->wanted, __entry->charged, __entry->max)
);

/* DESTROY_PMO of an object whose AMO has live ADLs: the Windows bugcheck. */
TRACE_EVENT(dxgpmo_adl_leak,
	TP_PROTO(const struct dxgpmo_file *f, u32 pmo, u32 amo,
		 unsigned int adls, u64 context, bool bug),
	TP_ARGS(f, pmo, amo, adls, context, bug),
	TP_STRUCT__entry(
		DXGPMO_TP_CALLER_FIELDS
		__field(u32, obj)
		__field(u32, amo)
		__field(unsigned int, adls)
		__field(u64, context)
		__field(bool, bug)
	),
	TP_fast_assign(
		DXGPMO_TP_CALLER_ASSIGN(f);
		__entry->obj = pmo;
		__entry->amo = amo;
		__entry->adls = adls;
		__entry->context = context;
		__entry->bug = bug;
	),
	TP_printk(DXGPMO_TP_CALLER_FMT "obj=%u amo=%u adls=%u context=0x%llx action=%s",
		  DXGPMO_TP_CALLER_ARGS, __entry->obj, __entry->amo,
		  __entry->adls, __entry->context,
		  __entry->bug ? "bug" : "warn")
);

#endif /* _DXGPMO_TRACE_H */

/* Out of the kernel's tree: the event header is found beside this file. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
