// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl - drive /dev/dxgpmo from the command line or from a script.
 *
 * Objects live as long as the open file, so work that spans several calls
 * runs in one process: "dxgpmoctl -f script" or commands on stdin, one per
 * line, with "name=command ..." storing the command's result (an id) in
 * $name.  A line starting with '-' may fail without stopping the script.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libdxgpmo.h"

#define MAX_ARGS	32
#define MAX_VARS	128

static int json_output;
static int dev_fd = -1;

struct var {
	char name[32];
	uint64_t value;
};

static struct var vars[MAX_VARS];
static unsigned int nr_vars;

#define MAX_EXTRA 4

struct cmd_ctx {
	const char *name;	/* call name used in error lines */
	uint64_t result;	/* value stored by "name=command" */
	int has_result;
	/* more values, stored as name_<suffix> */
	struct {
		const char *suffix;
		uint64_t value;
	} extra[MAX_EXTRA];
	unsigned int nr_extra;
};

static void add_extra(struct cmd_ctx *ctx, const char *suffix, uint64_t value)
{
	if (ctx->nr_extra < MAX_EXTRA) {
		ctx->extra[ctx->nr_extra].suffix = suffix;
		ctx->extra[ctx->nr_extra++].value = value;
	}
}

struct command {
	const char *name;
	const char *usage;
	const char *help;
	int (*run)(struct cmd_ctx *ctx, int argc, char **argv);
};

static void set_var(const char *name, uint64_t value)
{
	unsigned int i;

	for (i = 0; i < nr_vars; i++) {
		if (!strcmp(vars[i].name, name)) {
			vars[i].value = value;
			return;
		}
	}
	if (nr_vars == MAX_VARS) {
		fprintf(stderr, "dxgpmoctl: too many variables\n");
		exit(2);
	}
	snprintf(vars[nr_vars].name, sizeof(vars[nr_vars].name), "%s", name);
	vars[nr_vars++].value = value;
}

static int get_var(const char *name, uint64_t *value)
{
	unsigned int i;

	for (i = 0; i < nr_vars; i++) {
		if (!strcmp(vars[i].name, name)) {
			*value = vars[i].value;
			return 0;
		}
	}
	return -1;
}

/* Report a failed call: one line, errno name and contract meaning. */
static int report(struct cmd_ctx *ctx, int err)
{
	const char *name = dxgpmo_errno_name(-err);

	if (json_output)
		printf("{\"call\":\"%s\",\"error\":\"%s\",\"errno\":%d}\n",
		       ctx->name, name ? name : "?", -err);
	fprintf(stderr, "%s: %s — %s\n", ctx->name, name ? name : "error",
		dxgpmo_error_meaning(ctx->name, -err));
	return 1;
}

static int need_dev(struct cmd_ctx *ctx)
{
	if (dev_fd >= 0)
		return 0;
	dev_fd = dxgpmo_open();
	if (dev_fd < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", ctx->name,
			DXGPMO_DEV_PATH, strerror(-dev_fd));
		return -1;
	}
	return 0;
}

/* Numbers with K/M/G suffixes and $variables. */
static int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (s[0] == '$')
		return get_var(s + 1, out);
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end == 'i' || *end == 'B')
		end++;
	if (*end == 'B')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > UINT32_MAX)
		return -1;
	*out = v;
	return 0;
}

/* uapi fields are __u64 (unsigned long long), not uint64_t (unsigned long). */
static int parse_field(const char *s, __u64 *field)
{
	uint64_t v;

	if (parse_u64(s, &v))
		return -1;
	*field = v;
	return 0;
}

/* An adapter by id or by name ("edu0", "virtual0"). */
static int parse_adapter(const char *s, uint32_t *id)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t total, i;

	if (!parse_u32(s, id))
		return 0;
	if (dxgpmo_query_adapters(dev_fd, info, DXGPMO_MAX_ADAPTERS, &total))
		return -1;
	for (i = 0; i < total && i < DXGPMO_MAX_ADAPTERS; i++) {
		if (!strcmp(info[i].name, s)) {
			*id = info[i].adapter_id;
			return 0;
		}
	}
	return -1;
}

static void print_size(uint64_t bytes)
{
	if (bytes >= (1 << 20) && !(bytes % (1 << 20)))
		printf("%" PRIu64 " MiB", bytes >> 20);
	else if (bytes >= 1024 && !(bytes % 1024))
		printf("%" PRIu64 " KiB", bytes >> 10);
	else
		printf("%" PRIu64 " B", bytes);
}

static int usage_error(struct cmd_ctx *ctx, const char *what)
{
	fprintf(stderr, "%s: %s (see 'dxgpmoctl %s --help')\n", ctx->name,
		what, ctx->name);
	return 2;
}

static int cmd_adapters(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t total, i;
	int ret;

	if (argc != 1)
		return usage_error(ctx, "no arguments expected");
	ret = dxgpmo_query_adapters(dev_fd, info, DXGPMO_MAX_ADAPTERS, &total);
	if (ret)
		return report(ctx, ret);
	if (total > DXGPMO_MAX_ADAPTERS)
		total = DXGPMO_MAX_ADAPTERS;
	if (json_output) {
		printf("[");
		for (i = 0; i < total; i++) {
			char pci[DXGPMO_PCI_NAME_MAX];

			printf("%s{\"id\":%u,\"name\":\"%s\",\"caps\":%u,"
			       "\"iommu\":%s,\"dma_engine\":%s,"
			       "\"virtual\":%s,\"dma_mask\":%" PRIu64 ","
			       "\"segment_size\":%" PRIu64 ","
			       "\"iommu_group\":%d",
			       i ? "," : "", info[i].adapter_id, info[i].name,
			       info[i].caps,
			       info[i].caps & DXGPMO_ADAPTER_CAP_IOMMU ? "true" : "false",
			       info[i].caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE ? "true" : "false",
			       info[i].caps & DXGPMO_ADAPTER_CAP_VIRTUAL ? "true" : "false",
			       (uint64_t)info[i].dma_mask,
			       (uint64_t)info[i].segment_size,
			       info[i].iommu_group);
			if (!(info[i].caps & DXGPMO_ADAPTER_CAP_VIRTUAL)) {
				dxgpmo_adapter_pci_name(&info[i], pci,
							sizeof(pci));
				printf(",\"pci\":\"%s\","
				       "\"vendor\":\"%04x\",\"device\":\"%04x\"",
				       pci, info[i].pci_vendor,
				       info[i].pci_device);
			}
			printf("}");
		}
		printf("]\n");
		return 0;
	}
	printf("%-3s %-10s %-13s %-9s %-5s %-6s %-7s %-18s %s\n", "ID", "NAME",
	       "PCI", "VEN:DEV", "GROUP", "IOMMU", "ENGINE", "DMA MASK",
	       "SEGMENT");
	for (i = 0; i < total; i++) {
		char pci[DXGPMO_PCI_NAME_MAX] = "-", ids[16] = "-", group[12] = "-";

		if (!(info[i].caps & DXGPMO_ADAPTER_CAP_VIRTUAL)) {
			dxgpmo_adapter_pci_name(&info[i], pci, sizeof(pci));
			snprintf(ids, sizeof(ids), "%04x:%04x",
				 info[i].pci_vendor, info[i].pci_device);
		}
		if (info[i].iommu_group >= 0)
			snprintf(group, sizeof(group), "%d",
				 info[i].iommu_group);
		printf("%-3u %-10s %-13s %-9s %-5s %-6s %-7s 0x%016" PRIx64 " ",
		       info[i].adapter_id, info[i].name, pci, ids, group,
		       info[i].caps & DXGPMO_ADAPTER_CAP_IOMMU ? "yes" : "no",
		       info[i].caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE ? "yes" : "no",
		       (uint64_t)info[i].dma_mask);
		print_size(info[i].segment_size);
		printf("\n");
	}
	return 0;
}

static int parse_type(const char *s, uint32_t *type)
{
	static const char *const names[] = {
		"mdl", "contiguous", "section", "io_space",
	};
	uint32_t i;

	for (i = 0; i < 4; i++) {
		if (!strcmp(s, names[i])) {
			*type = i;
			return 0;
		}
	}
	return parse_u32(s, type);
}

static int parse_cache(const char *s, uint32_t *cache)
{
	if (!strcmp(s, "uc") || !strcmp(s, "noncached"))
		*cache = DXGPMO_CACHE_NON_CACHED;
	else if (!strcmp(s, "cached") || !strcmp(s, "wb"))
		*cache = DXGPMO_CACHE_CACHED;
	else if (!strcmp(s, "wc"))
		*cache = DXGPMO_CACHE_WRITE_COMBINED;
	else
		return parse_u32(s, cache);
	return 0;
}

static int cmd_create(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "cache", required_argument, NULL, 'c' },
		{ "adapter", required_argument, NULL, 'a' },
		{ "low", required_argument, NULL, 'l' },
		{ "high", required_argument, NULL, 'H' },
		{ "skip", required_argument, NULL, 's' },
		{ "boundary", required_argument, NULL, 'b' },
		{ "context", required_argument, NULL, 'x' },
		{ "io-base", required_argument, NULL, 'i' },
		{ "protection", required_argument, NULL, 'p' },
		{ }
	};
	struct dxgpmo_create_pmo c = { .cache_type = DXGPMO_CACHE_CACHED };
	int opt, ret, bad = 0;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+t:c:a:", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			bad |= parse_type(optarg, &c.type);
			break;
		case 'c':
			bad |= parse_cache(optarg, &c.cache_type);
			break;
		case 'a':
			bad |= parse_adapter(optarg, &c.adapter_id);
			break;
		case 'l':
			bad |= parse_field(optarg, &c.low_address);
			break;
		case 'H':
			bad |= parse_field(optarg, &c.high_address);
			break;
		case 's':
			bad |= parse_field(optarg, &c.skip_bytes);
			break;
		case 'b':
			bad |= parse_field(optarg, &c.boundary);
			break;
		case 'x':
			bad |= parse_field(optarg, &c.context);
			break;
		case 'i':
			bad |= parse_field(optarg, &c.io_base);
			break;
		case 'p':
			if (!strcmp(optarg, "ro"))
				c.page_protection = DXGPMO_PAGE_READONLY;
			else if (!strcmp(optarg, "rw"))
				c.page_protection = DXGPMO_PAGE_READWRITE;
			else
				bad = 1;
			break;
		default:
			return usage_error(ctx, "unknown option");
		}
	}
	if (bad || optind != argc - 1 || parse_field(argv[optind], &c.length))
		return usage_error(ctx, "bad arguments");
	ret = dxgpmo_create_pmo(dev_fd, &c);
	if (ret)
		return report(ctx, ret);
	ctx->result = c.pmo_id;
	ctx->has_result = 1;
	if (c.amo_id)
		add_extra(ctx, "amo", c.amo_id);
	add_extra(ctx, "mmap", c.mmap_offset);
	if (json_output) {
		printf("{\"pmo\":%u,\"amo\":%u,\"mmap_offset\":%" PRIu64 "}\n",
		       c.pmo_id, c.amo_id, (uint64_t)c.mmap_offset);
		return 0;
	}
	printf("created pmo %u (%s, %s, ", c.pmo_id, dxgpmo_type_name(c.type),
	       dxgpmo_cache_name(c.cache_type));
	print_size(c.length);
	printf(")");
	if (c.amo_id)
		printf(", amo %u on adapter %u", c.amo_id, c.adapter_id);
	printf(", mmap offset 0x%" PRIx64 "\n", (uint64_t)c.mmap_offset);
	return 0;
}

static int cmd_open(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint32_t pmo, adapter, amo;
	int ret;

	if (argc != 3 || parse_u32(argv[1], &pmo) ||
	    parse_adapter(argv[2], &adapter))
		return usage_error(ctx, "bad arguments");
	ret = dxgpmo_open_pmo(dev_fd, pmo, adapter, &amo);
	if (ret)
		return report(ctx, ret);
	ctx->result = amo;
	ctx->has_result = 1;
	if (json_output)
		printf("{\"amo\":%u}\n", amo);
	else
		printf("opened pmo %u on adapter %u: amo %u\n", pmo, adapter,
		       amo);
	return 0;
}

static int cmd_close(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint32_t amo;
	int ret;

	if (argc != 2 || parse_u32(argv[1], &amo))
		return usage_error(ctx, "bad arguments");
	ret = dxgpmo_close_pmo(dev_fd, amo);
	if (ret)
		return report(ctx, ret);
	if (json_output)
		printf("{\"closed\":%u}\n", amo);
	else
		printf("closed amo %u\n", amo);
	return 0;
}

static int cmd_destroy(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint32_t pmo, amo = 0;
	int ret;

	if (argc < 2 || argc > 3 || parse_u32(argv[1], &pmo) ||
	    (argc == 3 && parse_u32(argv[2], &amo)))
		return usage_error(ctx, "bad arguments");
	ret = dxgpmo_destroy_pmo(dev_fd, pmo, amo);
	if (ret)
		return report(ctx, ret);
	if (json_output)
		printf("{\"destroyed\":%u}\n", pmo);
	else if (amo)
		printf("destroyed pmo %u (and closed amo %u)\n", pmo, amo);
	else
		printf("destroyed pmo %u\n", pmo);
	return 0;
}

static int cmd_stats(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const char *const names[] = {
		"pmos", "amos", "adls", "maps", "bases", "pages",
		"dma_mapped_pages", "leaked_objects", "leaked_adls",
		"segment_pages",
	};
	struct dxgpmo_stats st;
	const uint64_t *g = (const uint64_t *)&st.global;
	const uint64_t *f = (const uint64_t *)&st.file;
	unsigned int i;
	int ret;

	if (argc != 1)
		return usage_error(ctx, "no arguments expected");
	ret = dxgpmo_get_stats(dev_fd, &st);
	if (ret)
		return report(ctx, ret);
	if (json_output) {
		printf("{\"global\":{");
		for (i = 0; i < 10; i++)
			printf("%s\"%s\":%" PRIu64, i ? "," : "", names[i], g[i]);
		printf("},\"file\":{");
		for (i = 0; i < 10; i++)
			printf("%s\"%s\":%" PRIu64, i ? "," : "", names[i], f[i]);
		printf("}}\n");
		return 0;
	}
	printf("%-18s %12s %12s\n", "COUNTER", "GLOBAL", "THIS FILE");
	for (i = 0; i < 10; i++)
		printf("%-18s %12" PRIu64 " %12" PRIu64 "\n", names[i], g[i],
		       f[i]);
	return 0;
}

static int cmd_adl(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "offset", required_argument, NULL, 'o' },
		{ "require-contiguous", no_argument, NULL, 'r' },
		{ "prefer-contiguous", no_argument, NULL, 'p' },
		{ }
	};
	struct dxgpmo_allocate_adl a = { 0 };
	bool hidden;
	uint64_t *pages = NULL, i;
	int opt, ret, bad = 0;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+o:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			bad |= parse_field(optarg, &a.offset);
			break;
		case 'r':
			a.flags |= DXGPMO_ADL_REQUIRE_CONTIGUOUS;
			break;
		case 'p':
			a.flags |= DXGPMO_ADL_PREFER_CONTIGUOUS;
			break;
		default:
			return usage_error(ctx, "unknown option");
		}
	}
	if (bad || optind != argc - 2 || parse_u32(argv[optind], &a.amo_id) ||
	    parse_field(argv[optind + 1], &a.length))
		return usage_error(ctx, "bad arguments");
	if (a.length / 4096 <= (1 << 20)) {
		a.pages_capacity = a.length / 4096;
		pages = calloc(a.pages_capacity ? a.pages_capacity : 1,
			       sizeof(*pages));
		a.pages = (uintptr_t)pages;
	}
	ret = dxgpmo_allocate_adl(dev_fd, &a);
	if (ret) {
		free(pages);
		return report(ctx, ret);
	}
	hidden = a.adl_flags & DXGPMO_ADL_ADDRESSES_HIDDEN;
	ctx->result = a.adl_id;
	ctx->has_result = 1;
	add_extra(ctx, "addr", (pages ? pages[0] : a.base_page) * 4096);
	add_extra(ctx, "pages", a.page_count);
	if (json_output) {
		printf("{\"adl\":%u,\"page_count\":%llu,\"contiguous\":%s,"
		       "\"addresses_hidden\":%s,\"base_page\":%llu,\"pages\":[",
		       a.adl_id, (unsigned long long)a.page_count,
		       a.adl_flags & DXGPMO_ADL_CONTIGUOUS ? "true" : "false",
		       hidden ? "true" : "false",
		       (unsigned long long)a.base_page);
		for (i = 0; pages && i < a.page_count; i++)
			printf("%s%llu", i ? "," : "",
			       (unsigned long long)pages[i]);
		printf("]}\n");
	} else {
		printf("adl %u: %llu page(s), ", a.adl_id,
		       (unsigned long long)a.page_count);
		if (hidden) {
			printf("%sphysical page numbers hidden (CAP_SYS_ADMIN shows them)\n",
			       a.adl_flags & DXGPMO_ADL_CONTIGUOUS ?
			       "contiguous, " : "");
		} else if (a.adl_flags & DXGPMO_ADL_CONTIGUOUS) {
			printf("contiguous at logical page 0x%llx (device address 0x%llx)\n",
			       (unsigned long long)a.base_page,
			       (unsigned long long)a.base_page * 4096);
		} else {
			printf("pages:");
			for (i = 0; pages && i < a.page_count && i < 8; i++)
				printf(" 0x%llx", (unsigned long long)pages[i]);
			printf("%s\n", a.page_count > 8 ? " ..." : "");
		}
	}
	free(pages);
	return 0;
}

static int cmd_free_adl(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint32_t adl;
	int ret;

	if (argc != 2 || parse_u32(argv[1], &adl))
		return usage_error(ctx, "bad arguments");
	ret = dxgpmo_free_adl(dev_fd, adl);
	if (ret)
		return report(ctx, ret);
	if (json_output)
		printf("{\"freed\":%u}\n", adl);
	else
		printf("freed adl %u\n", adl);
	return 0;
}

static void hexdump(const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x%s", buf[i], (i % 16 == 15 || i + 1 == len) ? "\n" : " ");
}

/* dma [--raw] ADAPTER ADDR write TEXT | read LENGTH */
static int cmd_dma(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint32_t adapter, flags = 0;
	uint64_t addr, len;
	uint8_t *buf;
	int i = 1, ret;

	if (argc > 1 && !strcmp(argv[1], "--raw")) {
		flags |= DXGPMO_DMA_RAW;
		i++;
	}
	if (argc - i != 4 || parse_adapter(argv[i], &adapter) ||
	    parse_u64(argv[i + 1], &addr))
		return usage_error(ctx, "bad arguments");
	if (!strcmp(argv[i + 2], "write")) {
		flags |= DXGPMO_DMA_TO_MEMORY;
		len = strlen(argv[i + 3]);
		buf = (uint8_t *)strdup(argv[i + 3]);
	} else if (!strcmp(argv[i + 2], "read") &&
		   !parse_u64(argv[i + 3], &len) && len && len <= (1 << 20)) {
		buf = calloc(1, len);
	} else {
		return usage_error(ctx, "expected 'write TEXT' or 'read LENGTH'");
	}
	if (!buf)
		return report(ctx, -ENOMEM);
	ret = dxgpmo_adapter_dma(dev_fd, adapter, flags, addr, buf, len);
	if (ret) {
		free(buf);
		return report(ctx, ret);
	}
	if (json_output) {
		printf("{\"adapter\":%u,\"address\":%llu,\"length\":%llu,\"bytes\":\"",
		       adapter, (unsigned long long)addr,
		       (unsigned long long)len);
		for (uint64_t j = 0; j < len; j++)
			printf("%02x", buf[j]);
		printf("\"}\n");
	} else if (flags & DXGPMO_DMA_TO_MEMORY) {
		printf("adapter %u wrote %llu byte(s) to device address 0x%llx\n",
		       adapter, (unsigned long long)len,
		       (unsigned long long)addr);
	} else {
		printf("adapter %u read %llu byte(s) at device address 0x%llx:\n",
		       adapter, (unsigned long long)len,
		       (unsigned long long)addr);
		hexdump(buf, len);
		printf("  \"");
		for (uint64_t j = 0; j < len; j++)
			putchar(buf[j] >= 32 && buf[j] < 127 ? buf[j] : '.');
		printf("\"\n");
	}
	free(buf);
	return 0;
}

/* Views this process made with MAP, so scripts can name them by id. */
struct view {
	uint32_t map_id, pmo_id, mode;
	uint64_t address, length;
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

static int cmd_map(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct dxgpmo_map m = { .access_mode = DXGPMO_ACCESS_USER };
	int i = 1, ret;

	if (argc > 1 && !strcmp(argv[1], "--kernel")) {
		m.access_mode = DXGPMO_ACCESS_KERNEL;
		i++;
	}
	if (argc - i != 3 || parse_u32(argv[i], &m.pmo_id) ||
	    parse_field(argv[i + 1], &m.offset) ||
	    parse_field(argv[i + 2], &m.length))
		return usage_error(ctx, "bad arguments");
	ret = dxgpmo_map(dev_fd, &m);
	if (ret)
		return report(ctx, ret);
	if (nr_views < 64)
		views[nr_views++] = (struct view){ m.map_id, m.pmo_id,
			m.access_mode, m.address, m.length };
	ctx->result = m.map_id;
	ctx->has_result = 1;
	add_extra(ctx, "offset", m.offset);
	if (json_output) {
		printf("{\"map\":%u,\"address\":%llu,\"offset\":%llu,\"length\":%llu}\n",
		       m.map_id, (unsigned long long)m.address,
		       (unsigned long long)m.offset,
		       (unsigned long long)m.length);
		return 0;
	}
	printf("map %u: %s view at 0x%llx, ", m.map_id,
	       m.access_mode == DXGPMO_ACCESS_USER ? "user" : "kernel (token)",
	       (unsigned long long)m.address);
	print_size(m.length);
	printf(", wanted data at +0x%llx\n", (unsigned long long)m.offset);
	return 0;
}

static int cmd_unmap(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint32_t map_id;
	struct view *v;
	int ret;

	if (argc != 2 || parse_u32(argv[1], &map_id))
		return usage_error(ctx, "bad arguments");
	v = find_view(map_id);
	if (!v)
		return usage_error(ctx, "no view with that id in this session");
	ret = dxgpmo_unmap(dev_fd, v->pmo_id, v->address, v->length);
	*v = views[--nr_views];
	if (ret)
		return report(ctx, ret);
	if (json_output)
		printf("{\"unmapped\":%u}\n", map_id);
	else
		printf("unmapped map %u\n", map_id);
	return 0;
}

/* view-write MAP OFFSET TEXT | view-read MAP OFFSET LENGTH */
static int cmd_view_rw(struct cmd_ctx *ctx, int argc, char **argv)
{
	bool write = !strcmp(argv[0], "view-write");
	uint64_t offset, len;
	uint32_t map_id;
	uint8_t *buf;
	struct view *v;
	int ret = 0;

	if (argc != 4 || parse_u32(argv[1], &map_id) ||
	    parse_u64(argv[2], &offset))
		return usage_error(ctx, "bad arguments");
	v = find_view(map_id);
	if (!v)
		return usage_error(ctx, "no view with that id in this session");
	if (write) {
		len = strlen(argv[3]);
		buf = (uint8_t *)argv[3];
	} else if (parse_u64(argv[3], &len) || !len || len > 4096) {
		return usage_error(ctx, "LENGTH must be 1..4096");
	} else {
		buf = calloc(1, len);
		if (!buf)
			return report(ctx, -ENOMEM);
	}
	if (offset + len > v->length || offset + len < offset) {
		ret = report(ctx, -EINVAL);
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
	if (!ret && !json_output) {
		printf("%s %llu byte(s) at +0x%llx of map %u%s\n",
		       write ? "wrote" : "read", (unsigned long long)len,
		       (unsigned long long)offset, map_id, write ? "" : ":");
		if (!write) {
			hexdump(buf, len);
			printf("  \"");
			for (uint64_t j = 0; j < len; j++)
				putchar(buf[j] >= 32 && buf[j] < 127 ? buf[j] : '.');
			printf("\"\n");
		}
	}
	if (!write)
		free(buf);
	return ret;
}

/* basis ADAPTER OFFSET:LENGTH... */
static int cmd_basis(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct dxgpmo_memory_range r[64];
	uint32_t adapter, id, n = 0;
	int i, ret;

	if (argc < 3 || argc - 2 > 64 || parse_adapter(argv[1], &adapter))
		return usage_error(ctx, "bad arguments");
	for (i = 2; i < argc; i++) {
		char *colon = strchr(argv[i], ':');
		uint64_t off, len;

		if (!colon)
			return usage_error(ctx, "ranges are OFFSET:LENGTH");
		*colon = 0;
		if (parse_u64(argv[i], &off) || parse_u64(colon + 1, &len))
			return usage_error(ctx, "ranges are OFFSET:LENGTH");
		r[n].segment_offset = off;
		r[n++].length = len;
	}
	ret = dxgpmo_create_memory_basis(dev_fd, adapter, 1, r, n, &id);
	if (ret)
		return report(ctx, ret);
	ctx->result = id;
	ctx->has_result = 1;
	if (json_output)
		printf("{\"basis\":%u}\n", id);
	else
		printf("basis %u: %u range(s) of segment 1 of adapter %u\n", id,
		       n, adapter);
	return 0;
}

static int cmd_tracking(struct cmd_ctx *ctx, int argc, char **argv)
{
	bool start = !strcmp(argv[0], "start");
	uint32_t id;
	int ret;

	if (argc != 2 || parse_u32(argv[1], &id))
		return usage_error(ctx, "bad arguments");
	ret = start ? dxgpmo_start_dirty_tracking(dev_fd, id) :
		      dxgpmo_stop_dirty_tracking(dev_fd, id);
	if (ret)
		return report(ctx, ret);
	if (!json_output)
		printf("%s dirty tracking on basis %u\n",
		       start ? "started" : "stopped", id);
	return 0;
}

static int cmd_destroy_basis(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint32_t id;
	int ret;

	if (argc != 2 || parse_u32(argv[1], &id))
		return usage_error(ctx, "bad arguments");
	ret = dxgpmo_destroy_memory_basis(dev_fd, id);
	if (ret)
		return report(ctx, ret);
	if (!json_output)
		printf("destroyed basis %u\n", id);
	return 0;
}

/* query [--clear] BASIS PAGES [INDEX OFFSET LENGTH] */
static int cmd_query(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint64_t pages, index = 0, off = 0, len = 0, i;
	uint32_t id, flags = 0;
	uint8_t *buf;
	int a = 1, ret;

	if (argc > 1 && !strcmp(argv[1], "--clear")) {
		flags = DXGPMO_DIRTY_CLEAR_DATA;
		a++;
	}
	if ((argc - a != 2 && argc - a != 5) || parse_u32(argv[a], &id) ||
	    parse_u64(argv[a + 1], &pages) || !pages || pages > (1 << 24) ||
	    (argc - a == 5 && (parse_u64(argv[a + 2], &index) ||
			       parse_u64(argv[a + 3], &off) ||
			       parse_u64(argv[a + 4], &len))))
		return usage_error(ctx, "bad arguments");
	buf = calloc(1, (pages + 7) / 8);
	if (!buf)
		return report(ctx, -ENOMEM);
	ret = dxgpmo_query_dirty_bits(dev_fd, id, flags, index, off, len, buf,
				      (pages + 7) / 8);
	if (ret) {
		free(buf);
		return report(ctx, ret);
	}
	if (json_output)
		printf("{\"basis\":%u,\"bits\":\"", id);
	else
		printf("dirty bits of basis %u%s (page 0 first): ", id,
		       flags ? ", cleared" : "");
	for (i = 0; i < pages; i++)
		putchar(buf[i / 8] >> (i % 8) & 1 ? '1' : '0');
	printf(json_output ? "\"}\n" : "\n");
	free(buf);
	return 0;
}

/* segment-write ADAPTER OFFSET TEXT: a CPU write through mmap(2). */
static int cmd_segment_write(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t adapter, total, i;
	uint64_t off, len;
	uint8_t *seg;

	if (argc != 4 || parse_adapter(argv[1], &adapter) ||
	    parse_u64(argv[2], &off))
		return usage_error(ctx, "bad arguments");
	if (dxgpmo_query_adapters(dev_fd, info, DXGPMO_MAX_ADAPTERS, &total))
		return report(ctx, -errno);
	for (i = 0; i < total && info[i].adapter_id != adapter; i++)
		;
	if (i == total)
		return report(ctx, -ENOENT);
	len = strlen(argv[3]);
	if (off + len > info[i].segment_size)
		return report(ctx, -EINVAL);
	seg = mmap(NULL, info[i].segment_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED, dev_fd, info[i].segment_mmap_offset);
	if (seg == MAP_FAILED)
		return report(ctx, -errno);
	memcpy(seg + off, argv[3], len);
	munmap(seg, info[i].segment_size);
	if (!json_output)
		printf("CPU wrote %llu byte(s) at segment offset 0x%llx of adapter %u\n",
		       (unsigned long long)len, (unsigned long long)off, adapter);
	return 0;
}

/* A JSON string: the sysfs messages carry names that are not ours. */
static void print_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

static int report_pci(struct cmd_ctx *ctx, int err, const char *msg)
{
	const char *name = dxgpmo_errno_name(-err);

	if (json_output) {
		printf("{\"call\":\"%s\",\"error\":\"%s\",\"errno\":%d,"
		       "\"message\":", ctx->name, name ? name : "?", -err);
		print_json_string(msg);
		printf("}\n");
	}
	fprintf(stderr, "%s: %s — %s\n", ctx->name, name ? name : "error",
		msg);
	return 1;
}

/* The adapter a PCI device became, or 0. */
static uint32_t adapter_of_pci(const char *pci)
{
	struct dxgpmo_adapter_info info;

	if (dev_fd < 0)
		dev_fd = dxgpmo_open();
	if (dev_fd < 0 || !dxgpmo_adapter_at_pci(dev_fd, pci, &info))
		return 0;
	return info.adapter_id;
}

static int cmd_bind(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ }
	};
	char previous[64] = "", msg[256];
	uint32_t adapter;
	int opt, force = 0, ret;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (opt != 'f')
			return usage_error(ctx, "unknown option");
		force = 1;
	}
	if (optind != argc - 1)
		return usage_error(ctx, "expected one PCI address");
	ret = dxgpmo_pci_bind(argv[optind], force, previous,
			      sizeof(previous), msg, sizeof(msg));
	if (ret)
		return report_pci(ctx, ret, msg);
	adapter = adapter_of_pci(argv[optind]);
	if (adapter) {
		ctx->result = adapter;
		ctx->has_result = 1;
	}
	if (json_output) {
		printf("{\"pci\":");
		print_json_string(argv[optind]);
		printf(",\"driver\":\"" DXGPMO_PCI_DRIVER "\",\"previous\":");
		print_json_string(previous);
		printf(",\"adapter\":%u}\n", adapter);
	} else {
		int had_other = previous[0] &&
				strcmp(previous, DXGPMO_PCI_DRIVER);

		printf("%s%s%s%s; adapter %u\n", msg,
		       had_other ? " (was: " : "", had_other ? previous : "",
		       had_other ? ")" : "", adapter);
	}
	return 0;
}

static int cmd_unbind(struct cmd_ctx *ctx, int argc, char **argv)
{
	char now[64] = "", msg[256];
	int ret;

	if (argc != 2)
		return usage_error(ctx, "expected one PCI address");
	ret = dxgpmo_pci_unbind(argv[1], now, sizeof(now), msg, sizeof(msg));
	if (ret)
		return report_pci(ctx, ret, msg);
	if (json_output) {
		printf("{\"pci\":");
		print_json_string(argv[1]);
		printf(",\"driver\":");
		print_json_string(now);
		printf("}\n");
	} else {
		printf("%s\n", msg);
	}
	return 0;
}

static const struct command commands[] = {
	{ "adapters", "adapters", "List adapters (edu devices, devices bound to dxgpmo-pci, virtual\n"
	  "adapters) with their PCI address, vendor:device and IOMMU group.",
	  cmd_adapters },
	{ "create", "create [--type mdl|contiguous] [--cache uc|cached|wc] "
		    "[--adapter ID|NAME] [--low ADDR] [--high ADDR] [--skip N] "
		    "[--boundary N] [--context N] SIZE",
	  "Create a physical memory object (DxgkCbCreatePhysicalMemoryObject).\n"
	  "Result: the pmo id; with --adapter also NAME_amo.", cmd_create },
	{ "open", "open PMO ADAPTER",
	  "Open a PMO on an adapter (DxgkCbOpenPhysicalMemoryObject). Result: the amo id.",
	  cmd_open },
	{ "close", "close AMO",
	  "Close an adapter memory object (DxgkCbClosePhysicalMemoryObject).",
	  cmd_close },
	{ "destroy", "destroy PMO [AMO]",
	  "Destroy a PMO, closing AMO with it (DxgkCbDestroyPhysicalMemoryObject).",
	  cmd_destroy },
	{ "adl", "adl [--offset N] [--require-contiguous|--prefer-contiguous] AMO LENGTH",
	  "Allocate an ADL (DxgkCbAllocateAdl): map a page range of the AMO's object\n"
	  "for its adapter.  Result: the adl id; also NAME_addr (device address of\n"
	  "the first page) and NAME_pages.", cmd_adl },
	{ "free-adl", "free-adl ADL", "Free an ADL (DxgkCbFreeAdl).", cmd_free_adl },
	{ "dma", "dma [--raw] ADAPTER DEVICE_ADDRESS write TEXT | read LENGTH",
	  "Let the adapter's DMA engine write TEXT to, or read LENGTH bytes from,\n"
	  "a device address inside one of this file's ADLs (--raw: anywhere, to\n"
	  "provoke IOMMU faults; needs CAP_SYS_RAWIO).", cmd_dma },
	{ "map", "map [--kernel] PMO OFFSET LENGTH",
	  "Map a region of a PMO for the CPU (DxgkCbMapPhysicalMemory): a user\n"
	  "view in this process, or a kernel view (--kernel).  Result: the map id;\n"
	  "NAME_offset is where the wanted data lies in the view.", cmd_map },
	{ "unmap", "unmap MAP", "Unmap a view made by map (DxgkCbUnmapPhysicalMemory).",
	  cmd_unmap },
	{ "view-write", "view-write MAP OFFSET TEXT",
	  "Write TEXT into a view (user views directly, kernel views via KMAP_RW).",
	  cmd_view_rw },
	{ "view-read", "view-read MAP OFFSET LENGTH", "Read bytes from a view.",
	  cmd_view_rw },
	{ "basis", "basis ADAPTER OFFSET:LENGTH...",
	  "Create a memory basis on segment 1 (DxgkDdiCreateMemoryBasis).", cmd_basis },
	{ "destroy-basis", "destroy-basis BASIS",
	  "Destroy a memory basis (DxgkDdiDestroyMemoryBasis).", cmd_destroy_basis },
	{ "start", "start BASIS", "DxgkDdiStartDirtyTracking.", cmd_tracking },
	{ "stop", "stop BASIS", "DxgkDdiStopDirtyTracking.", cmd_tracking },
	{ "query", "query [--clear] BASIS PAGES [INDEX OFFSET LENGTH]",
	  "DxgkDdiQueryDirtyBitData: print PAGES bits of the basis (or of the\n"
	  "subrange), page 0 first; --clear reads and clears atomically.", cmd_query },
	{ "segment-write", "segment-write ADAPTER OFFSET TEXT",
	  "Write TEXT into the adapter's segment through a CPU mapping.",
	  cmd_segment_write },
	{ "stats", "stats", "Show the module's object and page counters.",
	  cmd_stats },
	{ "bind", "bind [--force] PCI_ADDRESS",
	  "Make a PCI device an adapter without a DMA engine: bind it to the\n"
	  "generic driver dxgpmo-pci through driver_override (needs root).  A\n"
	  "device another driver holds is taken only with --force.  Result: the\n"
	  "adapter id.", cmd_bind },
	{ "unbind", "unbind PCI_ADDRESS",
	  "Unbind a device from dxgpmo-pci (revoking its ADLs), clear its\n"
	  "driver_override and let its own driver, if any, take it back.",
	  cmd_unbind },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	unsigned int i;

	fprintf(out,
		"usage: dxgpmoctl [--json] COMMAND [ARGS...]\n"
		"       dxgpmoctl [--json] -f SCRIPT   (or commands on stdin)\n"
		"\nIn a script, 'name=COMMAND ...' stores the result in $name;\n"
		"a line starting with '-' may fail without stopping the script;\n"
		"'echo TEXT' prints TEXT; '#' starts a comment.\n\nCommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %s\n", commands[i].usage);
	fprintf(out, "\n'dxgpmoctl COMMAND --help' describes one command.\n");
}

/* The man page, generated from the same table as --help (one source). */
static void print_man(void)
{
	unsigned int i;
	const char *p;

	printf(".TH DXGPMOCTL 8 \"\" \"dxgpmo\" \"System Administration\"\n"
	       ".SH NAME\ndxgpmoctl \\- drive the dxgpmo physical memory object module\n"
	       ".SH SYNOPSIS\n.B dxgpmoctl\n[\\-\\-json] \\fICOMMAND\\fR [\\fIARGS\\fR...]\n.br\n"
	       ".B dxgpmoctl\n[\\-\\-json] \\-f \\fISCRIPT\\fR\n"
	       ".SH DESCRIPTION\n"
	       "dxgpmoctl makes the calls of the Windows display-driver memory contract\n"
	       "(physical memory objects, ADLs, CPU mappings, memory bases and dirty-bit\n"
	       "tracking) on /dev/dxgpmo.  Objects live as long as the open file, so work\n"
	       "spanning several calls runs in one process: a script given with \\-f (or\n"
	       "commands on standard input) holds one line per command.\n"
	       ".PP\nIn a script, \\fIname\\fR=\\fICOMMAND\\fR stores the command's result (an id)\n"
	       "in $\\fIname\\fR, and some commands store more values as $\\fIname\\fR_\\fIsuffix\\fR.\n"
	       "A line starting with \\- may fail without stopping the script; echo prints\n"
	       "text; # starts a comment.  Numbers take K, M and G suffixes.\n"
	       ".PP\nA failed call prints one line: the call, the errno name and what it means\n"
	       "in the contract, and dxgpmoctl exits non-zero.  \\-\\-json prints one JSON\n"
	       "object per call instead of tables.\n.SH COMMANDS\n");
	for (i = 0; i < NR_COMMANDS; i++) {
		printf(".TP\n.B %s\n", commands[i].usage);
		for (p = commands[i].help; *p; p++) {
			if (*p == '\\')
				fputs("\\\\", stdout);
			else if (*p == '-' )
				fputs("\\-", stdout);
			else
				putchar(*p);
		}
		putchar('\n');
	}
	printf(".SH FILES\n/dev/dxgpmo\n.SH SEE ALSO\n"
	       "Documentation/index.rst in the dxgpmo sources; uapi/dxgpmo.h.\n");
}

static int run_command(int argc, char **argv, const char *store)
{
	const struct command *cmd = find_command(argv[0]);
	struct cmd_ctx ctx = { .name = argv[0] };
	char name[64];
	int ret;

	if (!cmd) {
		fprintf(stderr, "dxgpmoctl: unknown command '%s'\n", argv[0]);
		return 2;
	}
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: dxgpmoctl %s\n\n%s\n", cmd->usage, cmd->help);
		return 0;
	}
	/* Binding works on sysfs; the device node may not exist yet. */
	if (cmd->run != cmd_bind && cmd->run != cmd_unbind && need_dev(&ctx))
		return 1;
	ret = cmd->run(&ctx, argc, argv);
	if (ret || !store)
		return ret;
	if (!ctx.has_result) {
		fprintf(stderr, "%s: has no result to store in $%s\n", argv[0],
			store);
		return 2;
	}
	set_var(store, ctx.result);
	for (unsigned int i = 0; i < ctx.nr_extra; i++) {
		snprintf(name, sizeof(name), "%s_%s", store,
			 ctx.extra[i].suffix);
		set_var(name, ctx.extra[i].value);
	}
	return 0;
}

static int run_script(FILE *in, const char *source)
{
	char line[1024];
	unsigned int lineno = 0;

	while (fgets(line, sizeof(line), in)) {
		char *argv[MAX_ARGS], *p = line, *store = NULL, *eq;
		int argc = 0, may_fail = 0, ret;

		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		if (!strncmp(p, "echo", 4) && (!p[4] || isspace((unsigned char)p[4]))) {
			printf("%s\n", p[4] ? p + 5 : "");
			fflush(stdout);
			continue;
		}
		if (*p == '-') {
			may_fail = 1;
			p++;
		}
		if (!json_output)
			printf("> %s%s\n", p, may_fail ? "   (may fail)" : "");
		eq = strchr(p, '=');
		if (eq && eq < p + strcspn(p, " \t")) {
			*eq = 0;
			store = p;
			p = eq + 1;
		}
		for (char *tok = strtok(p, " \t"); tok && argc < MAX_ARGS;
		     tok = strtok(NULL, " \t"))
			argv[argc++] = tok;
		if (!argc)
			continue;
		ret = run_command(argc, argv, store);
		fflush(stdout);
		if (ret && !may_fail) {
			fprintf(stderr, "dxgpmoctl: %s:%u: stopped\n", source,
				lineno);
			return ret;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *script = NULL;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json")) {
			json_output = 1;
		} else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
			script = argv[++i];
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--man")) {
			print_man();
			return 0;
		} else if (!strcmp(argv[i], "--commands")) {
			for (unsigned int c = 0; c < NR_COMMANDS; c++)
				printf("%s\n", commands[c].name);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (script) {
		FILE *f = strcmp(script, "-") ? fopen(script, "r") : stdin;
		int ret;

		if (!f) {
			fprintf(stderr, "dxgpmoctl: %s: %s\n", script,
				strerror(errno));
			return 2;
		}
		ret = run_script(f, script);
		if (f != stdin)
			fclose(f);
		return ret;
	}
	if (i == argc) {
		if (isatty(STDIN_FILENO)) {
			usage(stderr);
			return 2;
		}
		return run_script(stdin, "stdin");
	}
	return run_command(argc - i, argv + i, NULL);
}
