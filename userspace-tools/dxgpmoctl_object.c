// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl: physical memory objects, their adapter memory objects, and
 * the module's counters of them.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dxgpmoctl.h"

static const struct cmd_option create_opts[] = {
	{ "type", 't', "TYPE", "mdl (default), contiguous, section or io_space" },
	{ "cache", 'c', "CACHE", "uc, cached (default) or wc" },
	{ "adapter", 'a', "ADAPTER", "open it on this adapter (id or name) too" },
	{ "low", 0, "ADDR", "lowest physical address of its pages" },
	{ "high", 0, "ADDR", "highest physical address of its pages" },
	{ "skip", 0, "N", "bytes between allowed address windows" },
	{ "boundary", 0, "N", "a contiguous object must not cross a multiple of N" },
	{ "context", 0, "N", "the driver's context value" },
	{ "io-base", 0, "ADDR", "io_space: the physical address of its range" },
	{ "protection", 0, "ro|rw", "section: read-only or read-write pages" },
	{ }
};

/*
 * The PMOs this session made, for show: the module has no call that
 * describes one, and ids are the open file's, so no other process's
 * objects could be shown anyway.
 */
struct pmo_record {
	uint32_t pmo, amo, adapter, type, cache;
	uint64_t length, mmap_offset;
};

static struct pmo_record *pmos;
static unsigned int nr_pmos, max_pmos;

static struct pmo_record *find_pmo(uint32_t pmo, uint32_t amo)
{
	unsigned int i;

	for (i = 0; i < nr_pmos; i++)
		if (pmo ? pmos[i].pmo == pmo : pmos[i].amo == amo)
			return &pmos[i];
	return NULL;
}

/* create's report and show's, one for each PMO. */
static void print_pmo(const struct pmo_record *r, bool created)
{
	open_json_object(NULL);
	print_uint(PRINT_ANY, "pmo", created ? "created pmo %u" : "pmo %u",
		   r->pmo);
	print_uint(PRINT_JSON, "amo", NULL, r->amo);
	print_string(PRINT_ANY, "type", " (%s", dxgpmo_type_name(r->type));
	print_string(PRINT_ANY, "cache", ", %s", dxgpmo_cache_name(r->cache));
	print_size("length", ", %s)", r->length);
	if (r->amo) {
		print_uint(PRINT_FP, NULL, ", amo %u", r->amo);
		print_uint(PRINT_ANY, "adapter", " on adapter %u", r->adapter);
	}
	print_u64(PRINT_ANY, "mmap_offset", ", mmap offset 0x%" PRIx64 "\n",
		  r->mmap_offset);
	close_json_object();
}

static int cmd_create(struct cmd_ctx *ctx)
{
	struct dxgpmo_create_pmo c = { .cache_type = DXGPMO_CACHE_CACHED };
	const char *type = opt(ctx, "type"), *cache = opt(ctx, "cache");
	const char *adapter = opt(ctx, "adapter");
	const char *protection = opt(ctx, "protection");
	struct pmo_record r;
	static const struct {
		const char *option;
		size_t offset;
	} fields[] = {
		{ "low", offsetof(struct dxgpmo_create_pmo, low_address) },
		{ "high", offsetof(struct dxgpmo_create_pmo, high_address) },
		{ "skip", offsetof(struct dxgpmo_create_pmo, skip_bytes) },
		{ "boundary", offsetof(struct dxgpmo_create_pmo, boundary) },
		{ "context", offsetof(struct dxgpmo_create_pmo, context) },
		{ "io-base", offsetof(struct dxgpmo_create_pmo, io_base) },
	};
	unsigned int i;
	int ret;

	if ((type && parse_named(ctx, type, &c.type, dxgpmo_type_from_name)) ||
	    (cache && parse_named(ctx, cache, &c.cache_type,
				  dxgpmo_cache_from_name)) ||
	    (adapter && parse_adapter(ctx, adapter, &c.adapter_id)) ||
	    parse_field(ctx, ctx->argv[0], &c.length))
		return bad_argument(ctx);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		const char *arg = opt(ctx, fields[i].option);

		if (arg && parse_field(ctx, arg, (__u64 *)((char *)&c +
							   fields[i].offset)))
			return bad_argument(ctx);
	}
	if (protection && !strcmp(protection, "ro"))
		c.page_protection = DXGPMO_PAGE_READONLY;
	else if (protection && !strcmp(protection, "rw"))
		c.page_protection = DXGPMO_PAGE_READWRITE;
	else if (protection)
		return usage_error(ctx, "--protection is ro or rw");
	ret = dxgpmo_create_pmo(dev_fd, &c);
	if (ret)
		return report(ctx, ret);
	set_result(ctx, c.pmo_id);
	if (c.amo_id)
		add_extra(ctx, "amo", c.amo_id);
	add_extra(ctx, "mmap", c.mmap_offset);
	r = (struct pmo_record){ c.pmo_id, c.amo_id, c.adapter_id, c.type,
		c.cache_type, c.length, c.mmap_offset };
	print_pmo(&r, true);
	if (nr_pmos == max_pmos) {
		struct pmo_record *more;

		/* the PMO is made: only show will not know it */
		more = reallocarray(pmos, 2 * max_pmos + 8, sizeof(*pmos));
		if (!more)
			return 0;
		pmos = more;
		max_pmos = 2 * max_pmos + 8;
	}
	pmos[nr_pmos++] = r;
	return 0;
}

static int cmd_open(struct cmd_ctx *ctx)
{
	uint32_t pmo, adapter, amo;
	struct pmo_record *r;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &pmo) ||
	    parse_adapter(ctx, ctx->argv[1], &adapter))
		return bad_argument(ctx);
	ret = dxgpmo_open_pmo(dev_fd, pmo, adapter, &amo);
	if (ret)
		return report(ctx, ret);
	r = find_pmo(pmo, 0);
	if (r) {
		r->amo = amo;
		r->adapter = adapter;
	}
	set_result(ctx, amo);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "pmo", "opened pmo %u", pmo);
	print_uint(PRINT_ANY, "adapter", " on adapter %u", adapter);
	print_uint(PRINT_ANY, "amo", ": amo %u\n", amo);
	close_json_object();
	return 0;
}

static int cmd_close(struct cmd_ctx *ctx)
{
	struct pmo_record *r;
	uint32_t amo;
	int ret;

	ret = one_id(ctx, dxgpmo_close_pmo, "closed", "closed amo %u\n");
	if (!ret && !parse_u32(ctx, ctx->argv[0], &amo)) {
		r = find_pmo(0, amo);
		if (r)
			r->amo = 0;
	}
	return ret;
}

static int cmd_destroy(struct cmd_ctx *ctx)
{
	struct pmo_record *r;
	uint32_t pmo, amo = 0;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &pmo) ||
	    (ctx->argc == 2 && parse_u32(ctx, ctx->argv[1], &amo)))
		return bad_argument(ctx);
	ret = dxgpmo_destroy_pmo(dev_fd, pmo, amo);
	if (ret)
		return report(ctx, ret);
	r = find_pmo(pmo, 0);
	if (r)
		*r = pmos[--nr_pmos];
	open_json_object(NULL);
	print_uint(PRINT_ANY, "destroyed", "destroyed pmo %u", pmo);
	if (amo)
		print_uint(PRINT_ANY, "closed", " (and closed amo %u)", amo);
	print_text("\n");
	close_json_object();
	return 0;
}

/* show [PMO]: one of this session's PMOs, or all of them. */
static int cmd_show(struct cmd_ctx *ctx)
{
	struct pmo_record *r = NULL;
	unsigned int i;
	uint32_t pmo;

	if (ctx->argc) {
		if (parse_u32(ctx, ctx->argv[0], &pmo))
			return bad_argument(ctx);
		r = find_pmo(pmo, 0);
		if (!r)
			return usage_error(ctx, "no pmo %u in this session", pmo);
	}
	open_json_array(NULL);
	for (i = 0; i < nr_pmos; i++)
		if (!r || r == &pmos[i])
			print_pmo(&pmos[i], false);
	close_json_array();
	return 0;
}

static int cmd_stats(struct cmd_ctx *ctx)
{
#define COUNTER(name) { #name, offsetof(struct dxgpmo_counters, name) }
	static const struct {
		const char *name;
		size_t offset;
	} counters[] = {
		COUNTER(pmos), COUNTER(amos), COUNTER(adls), COUNTER(maps),
		COUNTER(bases), COUNTER(pages), COUNTER(dma_mapped_pages),
		COUNTER(leaked_objects), COUNTER(leaked_adls),
		COUNTER(segment_pages),
	};
#undef COUNTER
	struct dxgpmo_stats st;
	unsigned int i;
	int ret;

	ret = dxgpmo_get_stats(dev_fd, &st);
	if (ret)
		return report(ctx, ret);
	open_json_object(NULL);
	print_text("%-18s %12s %12s\n", "COUNTER", "GLOBAL", "THIS FILE");
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		size_t at = counters[i].offset;

		open_json_object(counters[i].name);
		print_string(PRINT_FP, NULL, "%-18s", counters[i].name);
		print_u64(PRINT_ANY, "global", " %12" PRIu64,
			  *(const __u64 *)((const char *)&st.global + at));
		print_u64(PRINT_ANY, "file", " %12" PRIu64 "\n",
			  *(const __u64 *)((const char *)&st.file + at));
		close_json_object();
	}
	close_json_object();
	return 0;
}

const struct command pmo_verbs[] = {
	{ "create", create_opts, "SIZE", DXGPMO_IOC_CREATE_PMO, false,
	  "Create a physical memory object (DxgkCbCreatePhysicalMemoryObject).\n"
	  "Result: the pmo id; with --adapter also NAME_amo.", cmd_create },
	{ "open", NULL, "PMO ADAPTER", DXGPMO_IOC_OPEN_PMO, false,
	  "Open a PMO on an adapter (DxgkCbOpenPhysicalMemoryObject). Result: the amo id.",
	  cmd_open },
	{ "close", NULL, "AMO", DXGPMO_IOC_CLOSE_PMO, false,
	  "Close an adapter memory object (DxgkCbClosePhysicalMemoryObject).",
	  cmd_close },
	{ "destroy", NULL, "PMO [AMO]", DXGPMO_IOC_DESTROY_PMO, false,
	  "Destroy a PMO, closing AMO with it (DxgkCbDestroyPhysicalMemoryObject).",
	  cmd_destroy },
	{ "show", NULL, "[PMO]", 0, false,
	  "Show a PMO this session created, or all of them: type, cache, size,\n"
	  "its AMO and adapter, its mmap offset.", cmd_show },
	{ }
};

const struct command stats_verbs[] = {
	{ "show", NULL, NULL, DXGPMO_IOC_STATS, false,
	  "Show the module's object and page counters, global and of this file.",
	  cmd_stats },
	{ }
};
