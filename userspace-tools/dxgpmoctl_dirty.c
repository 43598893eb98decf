// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl: memory bases, their dirty-bit tracking, and CPU writes to a
 * segment for the bits to show.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dxgpmoctl.h"

static const struct cmd_option query_opts[] = {
	{ "clear", 0, NULL, "clear the bits read, atomically" },
	{ }
};

/* basis ADAPTER OFFSET:LENGTH... */
static int cmd_basis(struct cmd_ctx *ctx)
{
	struct dxgpmo_memory_range r[64];
	uint32_t adapter, id, n = 0;
	int i, ret;

	if (ctx->argc - 1 > (int)ARRAY_SIZE(r))
		return usage_error(ctx, "at most %zu ranges", ARRAY_SIZE(r));
	if (parse_adapter(ctx, ctx->argv[0], &adapter))
		return bad_argument(ctx);
	for (i = 1; i < ctx->argc; i++) {
		char *colon = strchr(ctx->argv[i], ':');
		uint64_t off, len;

		if (!colon)
			return usage_error(ctx, "ranges are OFFSET:LENGTH");
		*colon = 0;
		if (parse_u64(ctx, ctx->argv[i], &off) ||
		    parse_u64(ctx, colon + 1, &len))
			return usage_error(ctx, "ranges are OFFSET:LENGTH");
		r[n].segment_offset = off;
		r[n++].length = len;
	}
	ret = dxgpmo_create_memory_basis(dev_fd, adapter, 1, r, n, &id);
	if (ret)
		return report(ctx, ret);
	set_result(ctx, id);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "basis", "basis %u: ", id);
	print_uint(PRINT_FP, NULL, "%u range(s) of segment 1", n);
	print_uint(PRINT_ANY, "adapter", " of adapter %u\n", adapter);
	open_json_array("ranges");
	for (i = 0; i < (int)n; i++) {
		open_json_object(NULL);
		print_u64(PRINT_JSON, "offset", NULL, r[i].segment_offset);
		print_u64(PRINT_JSON, "length", NULL, r[i].length);
		close_json_object();
	}
	close_json_array();
	close_json_object();
	return 0;
}

static int cmd_destroy_basis(struct cmd_ctx *ctx)
{
	return one_id(ctx, dxgpmo_destroy_memory_basis, "destroyed_basis",
		      "destroyed basis %u\n");
}

static int dirty_tracking(struct cmd_ctx *ctx, bool start)
{
	uint32_t id;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &id))
		return bad_argument(ctx);
	ret = start ? dxgpmo_start_dirty_tracking(dev_fd, id) :
		      dxgpmo_stop_dirty_tracking(dev_fd, id);
	if (ret)
		return report(ctx, ret);
	open_json_object(NULL);
	print_text("%s dirty tracking on ", start ? "started" : "stopped");
	print_uint(PRINT_ANY, "basis", "basis %u\n", id);
	print_bool(PRINT_JSON, "tracking", NULL, start);
	close_json_object();
	return 0;
}

static int cmd_start(struct cmd_ctx *ctx)
{
	return dirty_tracking(ctx, true);
}

static int cmd_stop(struct cmd_ctx *ctx)
{
	return dirty_tracking(ctx, false);
}

/* query [--clear] BASIS PAGES [INDEX OFFSET LENGTH] */
static int cmd_query(struct cmd_ctx *ctx)
{
	uint64_t pages, index = 0, off = 0, len = 0, i;
	uint32_t id, flags = 0;
	char **argv = ctx->argv;
	uint8_t *buf;
	char *bits;
	int ret;

	if (opt(ctx, "clear"))
		flags = DXGPMO_DIRTY_CLEAR_DATA;
	if (ctx->argc == 3 || ctx->argc == 4)
		return usage_error(ctx, "a subrange is INDEX OFFSET LENGTH");
	if (parse_u32(ctx, argv[0], &id) || parse_u64(ctx, argv[1], &pages) ||
	    (ctx->argc == 5 && (parse_u64(ctx, argv[2], &index) ||
				parse_u64(ctx, argv[3], &off) ||
				parse_u64(ctx, argv[4], &len))))
		return bad_argument(ctx);
	if (!pages || pages > (1 << 24))
		return usage_error(ctx, "PAGES must be 1..16M");
	buf = calloc(1, (pages + 7) / 8);
	bits = calloc(1, pages + 1);
	if (!buf || !bits) {
		free(buf);
		free(bits);
		return report(ctx, -ENOMEM);
	}
	ret = dxgpmo_query_dirty_bits(dev_fd, id, flags, index, off, len, buf,
				      (pages + 7) / 8);
	if (ret) {
		free(buf);
		free(bits);
		return report(ctx, ret);
	}
	for (i = 0; i < pages; i++)
		bits[i] = buf[i / 8] >> (i % 8) & 1 ? '1' : '0';
	open_json_object(NULL);
	print_uint(PRINT_ANY, "basis", "dirty bits of basis %u", id);
	print_bool(PRINT_JSON, "cleared", NULL, flags);
	if (flags)
		print_text(", cleared");
	print_string(PRINT_ANY, "bits", " (page 0 first): %s\n", bits);
	close_json_object();
	free(buf);
	free(bits);
	return 0;
}

static int adapter_by_id(uint32_t id, struct dxgpmo_adapter_info *out)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t total, i;
	int ret;

	ret = dxgpmo_query_adapters(dev_fd, info, DXGPMO_MAX_ADAPTERS, &total);
	if (ret)
		return ret;
	for (i = 0; i < total && i < DXGPMO_MAX_ADAPTERS; i++) {
		if (info[i].adapter_id == id) {
			*out = info[i];
			return 0;
		}
	}
	return -ENOENT;
}

/* segment-write ADAPTER OFFSET TEXT: a CPU write through mmap(2). */
static int cmd_segment_write(struct cmd_ctx *ctx)
{
	struct dxgpmo_adapter_info info;
	const char *text = ctx->argv[2];
	uint64_t off, len = strlen(text);
	uint32_t adapter;
	uint8_t *seg;
	int ret;

	if (parse_adapter(ctx, ctx->argv[0], &adapter) ||
	    parse_u64(ctx, ctx->argv[1], &off))
		return bad_argument(ctx);
	ret = adapter_by_id(adapter, &info);
	if (ret)
		return report(ctx, ret);
	if (off + len > info.segment_size || off + len < off) {
		error_record(ctx->name, -EINVAL,
			     "%" PRIu64 " byte(s) at 0x%" PRIx64
			     " do not fit in the %llu-byte segment",
			     len, off, info.segment_size);
		return 1;
	}
	seg = mmap(NULL, info.segment_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED, dev_fd, info.segment_mmap_offset);
	if (seg == MAP_FAILED)
		return report(ctx, -errno);
	memcpy(seg + off, text, len);
	munmap(seg, info.segment_size);
	open_json_object(NULL);
	print_u64(PRINT_ANY, "length", "CPU wrote %" PRIu64 " byte(s)", len);
	print_u64(PRINT_ANY, "offset", " at segment offset 0x%" PRIx64, off);
	print_uint(PRINT_ANY, "adapter", " of adapter %u\n", adapter);
	close_json_object();
	return 0;
}

const struct command dirty_commands[] = {
	{ "basis", NULL, "ADAPTER OFFSET:LENGTH...",
	  DXGPMO_IOC_CREATE_MEMORY_BASIS, false,
	  "Create a memory basis on segment 1 (DxgkDdiCreateMemoryBasis).",
	  cmd_basis },
	{ "start", NULL, "BASIS", DXGPMO_IOC_START_DIRTY_TRACKING, false,
	  "DxgkDdiStartDirtyTracking.", cmd_start },
	{ "segment-write", NULL, "ADAPTER OFFSET TEXT", 0, false,
	  "Write TEXT into the adapter's segment through a CPU mapping.",
	  cmd_segment_write },
	{ "query", query_opts, "BASIS PAGES [INDEX OFFSET LENGTH]",
	  DXGPMO_IOC_QUERY_DIRTY_BITS, false,
	  "DxgkDdiQueryDirtyBitData: print PAGES bits of the basis (or of the\n"
	  "subrange), page 0 first.", cmd_query },
	{ "stop", NULL, "BASIS", DXGPMO_IOC_STOP_DIRTY_TRACKING, false,
	  "DxgkDdiStopDirtyTracking.", cmd_stop },
	{ "destroy-basis", NULL, "BASIS", DXGPMO_IOC_DESTROY_MEMORY_BASIS,
	  false, "Destroy a memory basis (DxgkDdiDestroyMemoryBasis).",
	  cmd_destroy_basis },
	{ }
};
