// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl view: CPU views of objects, and reads and writes through them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dxgpmoctl.h"

static const struct cmd_option map_opts[] = {
	{ "kernel", 'k', NULL, "a kernel view instead of a user view" },
	{ }
};

static const struct cmd_option view_read_opts[] = {
	{ "expect", 0, "TEXT", "fail unless the bytes read are TEXT" },
	{ }
};

/* Views this process made with MAP, so scripts can name them by id. */
struct view {
	uint32_t map_id, pmo_id, mode;
	uint64_t address, length, offset;
};

static struct view views[64];
static unsigned int nr_views;

static struct view *find_view(uint32_t map_id)
{
	unsigned int i;

	for (i = 0; i < nr_views; i++)
		if (views[i].map_id == map_id)
			return &views[i];
	return NULL;
}

/* map's report and list's. */
static void print_view(const struct view *v)
{
	bool user = v->mode == DXGPMO_ACCESS_USER;

	open_json_object(NULL);
	print_uint(PRINT_ANY, "map", "map %u: ", v->map_id);
	print_uint(PRINT_ANY, "pmo", "pmo %u, ", v->pmo_id);
	print_string(PRINT_JSON, "mode", NULL, user ? "user" : "kernel");
	print_text("%s view", user ? "user" : "kernel (token)");
	print_u64(PRINT_ANY, "address", " at 0x%" PRIx64 ", ", v->address);
	print_size("length", "%s, ", v->length);
	print_u64(PRINT_ANY, "offset", "wanted data at +0x%" PRIx64 "\n",
		  v->offset);
	close_json_object();
}

static int cmd_map(struct cmd_ctx *ctx)
{
	struct dxgpmo_map m = { .access_mode = DXGPMO_ACCESS_USER };
	struct view v;
	int ret;

	if (opt(ctx, "kernel"))
		m.access_mode = DXGPMO_ACCESS_KERNEL;
	if (parse_u32(ctx, ctx->argv[0], &m.pmo_id) ||
	    parse_field(ctx, ctx->argv[1], &m.offset) ||
	    parse_field(ctx, ctx->argv[2], &m.length))
		return bad_argument(ctx);
	ret = dxgpmo_map(dev_fd, &m);
	if (ret)
		return report(ctx, ret);
	v = (struct view){ m.map_id, m.pmo_id, m.access_mode, m.address,
		m.length, m.offset };
	if (nr_views < ARRAY_SIZE(views))
		views[nr_views++] = v;
	set_result(ctx, m.map_id);
	add_extra(ctx, "offset", m.offset);
	print_view(&v);
	return 0;
}

static int cmd_unmap(struct cmd_ctx *ctx)
{
	uint32_t map_id;
	struct view *v;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &map_id))
		return bad_argument(ctx);
	v = find_view(map_id);
	if (!v)
		return usage_error(ctx, "no view with id %u in this session",
				   map_id);
	/*
	 * UNMAP leaves a user view's range reserved: the range goes back
	 * here, as libdxgk's Unmap gives it back, or a long batch would use
	 * up vm.max_map_count.
	 */
	ret = dxgpmo_unmap(dev_fd, v->pmo_id, v->address, v->length);
	if (!ret && v->mode == DXGPMO_ACCESS_USER)
		munmap((void *)(uintptr_t)v->address, v->length);
	*v = views[--nr_views];
	if (ret)
		return report(ctx, ret);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "unmapped", "unmapped map %u\n", map_id);
	close_json_object();
	return 0;
}

/* write MAP OFFSET TEXT | read [--expect TEXT] MAP OFFSET LENGTH */
static int view_access(struct cmd_ctx *ctx, bool write)
{
	uint64_t offset, len;
	uint32_t map_id;
	uint8_t *buf;
	struct view *v;
	int ret = 0;

	if (parse_u32(ctx, ctx->argv[0], &map_id) ||
	    parse_u64(ctx, ctx->argv[1], &offset))
		return bad_argument(ctx);
	v = find_view(map_id);
	if (!v)
		return usage_error(ctx, "no view with id %u in this session",
				   map_id);
	if (write) {
		len = strlen(ctx->argv[2]);
		buf = (uint8_t *)ctx->argv[2];
	} else {
		if (parse_u64(ctx, ctx->argv[2], &len) || !len || len > 4096)
			return usage_error(ctx, "LENGTH must be 1..4096");
		buf = calloc(1, len);
		if (!buf)
			return report(ctx, -ENOMEM);
	}
	if (offset + len > v->length || offset + len < offset) {
		error_record(ctx->name, -EINVAL,
			     "%" PRIu64 " byte(s) at +0x%" PRIx64
			     " do not fit in the %" PRIu64 "-byte view",
			     len, offset, v->length);
		ret = 1;
	} else if (v->mode == DXGPMO_ACCESS_USER) {
		if (write)
			memcpy((uint8_t *)(uintptr_t)v->address + offset, buf, len);
		else
			memcpy(buf, (uint8_t *)(uintptr_t)v->address + offset, len);
	} else {
		ret = dxgpmo_kmap_rw(dev_fd, map_id,
				     write ? DXGPMO_KMAP_WRITE : 0, offset, buf,
				     len);
		if (ret)
			ret = report(ctx, ret);
	}
	if (!ret) {
		open_json_object(NULL);
		print_uint(PRINT_ANY, "map", "map %u: ", map_id);
		print_u64(PRINT_ANY, "length", write ? "wrote %" PRIu64 " byte(s)" :
			  "read %" PRIu64 " byte(s)", len);
		print_u64(PRINT_ANY, "offset", write ? " at +0x%" PRIx64 "\n" :
			  " at +0x%" PRIx64 ":\n", offset);
		if (!write)
			print_bytes_read(buf, len);
		close_json_object();
		if (!write)
			ret = check_expect(ctx, buf, len);
	}
	if (!write)
		free(buf);
	return ret;
}

static int cmd_list(struct cmd_ctx *ctx)
{
	unsigned int i;

	open_json_array(NULL);
	for (i = 0; i < nr_views; i++)
		print_view(&views[i]);
	close_json_array();
	return 0;
}

static int cmd_view_write(struct cmd_ctx *ctx)
{
	return view_access(ctx, true);
}

static int cmd_view_read(struct cmd_ctx *ctx)
{
	return view_access(ctx, false);
}

const struct command view_verbs[] = {
	{ "map", map_opts, "PMO OFFSET LENGTH", DXGPMO_IOC_MAP, false,
	  "Map a region of a PMO for the CPU (DxgkCbMapPhysicalMemory): a user\n"
	  "view in this process, or a kernel view (--kernel).  Result: the map id;\n"
	  "NAME_offset is where the wanted data lies in the view.", cmd_map },
	{ "write", NULL, "MAP OFFSET TEXT", DXGPMO_IOC_KMAP_RW, false,
	  "Write TEXT into a view (user views directly, kernel views via KMAP_RW).",
	  cmd_view_write },
	{ "read", view_read_opts, "MAP OFFSET LENGTH",
	  DXGPMO_IOC_KMAP_RW, false, "Read bytes from a view.", cmd_view_read },
	{ "unmap", NULL, "MAP", DXGPMO_IOC_UNMAP, false,
	  "Unmap a view made by map (DxgkCbUnmapPhysicalMemory).", cmd_unmap },
	{ "list", NULL, NULL, 0, false,
	  "List the views this session mapped, as map reported them.", cmd_list },
	{ }
};
