// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl - drive /dev/dxgpmo from the command line or from a script.
 *
 * Objects live as long as the open file, so work that spans several calls
 * runs in one process: "dxgpmoctl -batch FILE" or commands on stdin, one per
 * line, with "name=command ..." storing the command's result (an id) in
 * $name.  A line starting with '-' may fail without stopping the script.
 *
 * Every command prints through json_print.h, so the text and the --json
 * form come from the same calls; options, usage and the man page come from
 * the same tables.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libdxgpmo.h"
#include "json_print.h"

#define MAX_ARGS	65	/* 64 words and the NULL */
#define MAX_VARS	128
#define MAX_EXTRA	4
#define MAX_OPTS	12
#define MAX_DMABUFS	64

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int dev_fd = -1;

/* Where a batch session is, for its error records. */
static const char *batch_source;
static unsigned int batch_line;

struct var {
	char name[32];
	uint64_t value;
};

static struct var vars[MAX_VARS];
static unsigned int nr_vars;

struct cmd_option {
	const char *name;
	char short_name;	/* 0: a long option only */
	const char *arg;	/* NULL: takes no argument */
	const char *help;
};

struct cmd_ctx;

struct command {
	const char *name;
	const struct cmd_option *opts;
	const char *operands;	/* as the synopsis shows them */
	int min_operands, max_operands;	/* max -1: any number */
	unsigned long ioctl;	/* whose errno meanings apply; 0: none */
	bool sysfs_only;	/* needs no /dev/dxgpmo */
	const char *help;
	int (*run)(struct cmd_ctx *ctx);
};

struct cmd_ctx {
	const struct command *cmd;
	const char *name;		/* call name used in error records */
	const char *opt[MAX_OPTS];	/* by index in cmd->opts; "" for flags */
	int argc;			/* operands */
	char **argv;
	const char *bad;		/* the first argument that did not parse */
	uint64_t result;		/* value stored by "name=command" */
	bool has_result;
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

static void set_result(struct cmd_ctx *ctx, uint64_t value)
{
	ctx->result = value;
	ctx->has_result = true;
}

static int set_var(const char *name, uint64_t value)
{
	unsigned int i;

	for (i = 0; i < nr_vars; i++) {
		if (!strcmp(vars[i].name, name)) {
			vars[i].value = value;
			return 0;
		}
	}
	if (nr_vars == MAX_VARS || strlen(name) >= sizeof(vars[0].name))
		return -1;
	snprintf(vars[nr_vars].name, sizeof(vars[0].name), "%s", name);
	vars[nr_vars++].value = value;
	return 0;
}

static int get_var(const char *name, size_t len, uint64_t *value)
{
	unsigned int i;

	for (i = 0; i < nr_vars; i++) {
		if (strlen(vars[i].name) == len &&
		    !strncmp(vars[i].name, name, len)) {
			*value = vars[i].value;
			return 0;
		}
	}
	return -1;
}

/*
 * An error record, the one path for every failure: "call: ENAME — what it
 * means" on stderr, or with --json one object on stderr, as iproute2
 * keeps its errors on stderr.  err is a negative errno; fmt NULL gives the
 * errno's meaning for the command's ioctl.
 */
static void __attribute__((format(printf, 3, 4)))
error_record(const char *call, int err, const char *fmt, ...)
{
	char msg[512];
	const char *name = strerrorname_np(-err);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	print_begin(stderr);
	open_json_object(NULL);
	print_string(PRINT_ANY, "call", "%s: ", call);
	print_string(PRINT_ANY, "error", "%s — ", name ? name : "E?");
	print_int(PRINT_JSON, "errno", NULL, -err);
	print_string(PRINT_ANY, "message", "%s\n", msg);
	if (batch_source) {
		print_string(PRINT_JSON, "batch", NULL, batch_source);
		print_uint(PRINT_JSON, "line", NULL, batch_line);
	}
	close_json_object();
	print_end();
}

/* A failed call: exit status 1. */
static int report(struct cmd_ctx *ctx, int err)
{
	error_record(ctx->name, err, "%s",
		     dxgpmo_error_meaning(ctx->cmd ? ctx->cmd->ioctl : 0, -err));
	return 1;
}

/* Arguments the command cannot take: exit status 2. */
static int __attribute__((format(printf, 2, 3)))
usage_error(struct cmd_ctx *ctx, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->cmd)
		error_record(ctx->name, -EINVAL, "%s (see 'dxgpmoctl %s --help')",
			     msg, ctx->name);
	else
		error_record(ctx->name, -EINVAL, "%s (see 'dxgpmoctl --help')",
			     msg);
	return 2;
}

static int bad_argument(struct cmd_ctx *ctx)
{
	if (ctx->bad)
		return usage_error(ctx, "bad argument '%s'", ctx->bad);
	return usage_error(ctx, "bad arguments");
}

static int need_dev(struct cmd_ctx *ctx)
{
	if (dev_fd >= 0)
		return 0;
	dev_fd = dxgpmo_open();
	if (dev_fd < 0) {
		error_record(ctx->name, dev_fd, "cannot open %s: %s",
			     DXGPMO_DEV_PATH, strerror(-dev_fd));
		return -1;
	}
	return 0;
}

/* One term: a number with a K/M/G suffix, or a $variable. */
static int parse_term(const char *s, size_t len, uint64_t *out)
{
	unsigned long long v;
	char buf[64], *end;

	if (s[0] == '$')
		return get_var(s + 1, len - 1, out);
	if (!len || len >= sizeof(buf) || !isdigit((unsigned char)s[0]))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno)
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

/* A sum of terms: "64K", "$l_addr", "$l_addr+100". */
static int parse_u64(struct cmd_ctx *ctx, const char *s, uint64_t *out)
{
	uint64_t sum = 0, term;
	const char *p = s;
	size_t len;

	for (;;) {
		len = strcspn(p, "+");
		if (parse_term(p, len, &term) || sum + term < sum)
			break;
		sum += term;
		if (!p[len]) {
			*out = sum;
			return 0;
		}
		p += len + 1;
	}
	if (!ctx->bad)
		ctx->bad = s;
	return -1;
}

static int parse_u32(struct cmd_ctx *ctx, const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(ctx, s, &v))
		return -1;
	if (v > UINT32_MAX) {
		if (!ctx->bad)
			ctx->bad = s;
		return -1;
	}
	*out = v;
	return 0;
}

/* uapi fields are __u64 (unsigned long long), not uint64_t (unsigned long). */
static int parse_field(struct cmd_ctx *ctx, const char *s, __u64 *field)
{
	uint64_t v;

	if (parse_u64(ctx, s, &v))
		return -1;
	*field = v;
	return 0;
}

/* Either a name from a table or a number. */
static int parse_named(struct cmd_ctx *ctx, const char *s, uint32_t *out,
		       int (*from_name)(const char *name, uint32_t *value))
{
	if (!from_name(s, out))
		return 0;
	return parse_u32(ctx, s, out);
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

/* An adapter by id or by name ("edu0", "virtual0"). */
static int parse_adapter(struct cmd_ctx *ctx, const char *s, uint32_t *id)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t total, i;
	const char *bad = ctx->bad;

	if (!parse_u32(ctx, s, id))
		return 0;
	ctx->bad = bad;
	if (!dxgpmo_query_adapters(dev_fd, info, DXGPMO_MAX_ADAPTERS, &total)) {
		for (i = 0; i < total && i < DXGPMO_MAX_ADAPTERS; i++) {
			if (!strcmp(info[i].name, s)) {
				*id = info[i].adapter_id;
				return 0;
			}
		}
	}
	if (!ctx->bad)
		ctx->bad = s;
	return -1;
}

/* The argument of an option of the command's table, NULL when not given. */
static const char *opt(const struct cmd_ctx *ctx, const char *name)
{
	unsigned int i;

	for (i = 0; ctx->cmd->opts && ctx->cmd->opts[i].name; i++)
		if (!strcmp(ctx->cmd->opts[i].name, name))
			return ctx->opt[i];
	fprintf(stderr, "dxgpmoctl: %s has no option --%s\n", ctx->name, name);
	abort();
}

/* A size in bytes: a number in JSON, "64 KiB" in the text. */
static void print_size(const char *key, const char *fmt, uint64_t bytes)
{
	char text[32];

	if (bytes >= (1 << 20) && !(bytes % (1 << 20)))
		snprintf(text, sizeof(text), "%" PRIu64 " MiB", bytes >> 20);
	else if (bytes >= 1024 && !(bytes % 1024))
		snprintf(text, sizeof(text), "%" PRIu64 " KiB", bytes >> 10);
	else
		snprintf(text, sizeof(text), "%" PRIu64 " B", bytes);
	print_u64(PRINT_JSON, key, NULL, bytes);
	print_string(PRINT_FP, NULL, fmt, text);
}

/* Bytes read: hex in JSON; a hex dump and the printable text otherwise. */
static void print_bytes_read(const uint8_t *buf, size_t len)
{
	size_t i;

	print_hex_bytes("bytes", buf, len);
	for (i = 0; i < len; i++)
		print_text("%02x%s", buf[i],
			   (i % 16 == 15 || i + 1 == len) ? "\n" : " ");
	print_text("  \"");
	for (i = 0; i < len; i++)
		print_text("%c", buf[i] >= 32 && buf[i] < 127 ? buf[i] : '.');
	print_text("\"\n");
}

/* --expect TEXT: the bytes read must be TEXT (checked after printing them). */
static int check_expect(struct cmd_ctx *ctx, const uint8_t *buf, size_t len)
{
	const char *want = opt(ctx, "expect");

	print_end();
	if (!want || (strlen(want) == len && !memcmp(buf, want, len)))
		return 0;
	error_record(ctx->name, -EBADMSG, "read %zu byte(s) that are not '%s'",
		     len, want);
	return 1;
}

static void print_adapter(const struct dxgpmo_adapter_info *a)
{
	bool virtual = a->caps & DXGPMO_ADAPTER_CAP_VIRTUAL;
	char pci[DXGPMO_PCI_NAME_MAX], vendor[8], device[8];

	open_json_object(NULL);
	print_uint(PRINT_ANY, "id", "%-3u ", a->adapter_id);
	print_string(PRINT_ANY, "name", "%-10s ", a->name);
	print_uint(PRINT_JSON, "caps", NULL, a->caps);
	print_bool(PRINT_JSON, "virtual", NULL, virtual);
	if (virtual) {
		print_text("%-13s %-9s ", "-", "-");
	} else {
		dxgpmo_adapter_pci_name(a, pci, sizeof(pci));
		snprintf(vendor, sizeof(vendor), "%04x", a->pci_vendor);
		snprintf(device, sizeof(device), "%04x", a->pci_device);
		print_string(PRINT_ANY, "pci", "%-13s ", pci);
		print_string(PRINT_ANY, "vendor", "%s:", vendor);
		print_string(PRINT_ANY, "device", "%-4s ", device);
	}
	print_int(PRINT_JSON, "iommu_group", NULL, a->iommu_group);
	if (a->iommu_group >= 0)
		print_int(PRINT_FP, NULL, "%-5d ", a->iommu_group);
	else
		print_text("%-5s ", "-");
	print_bool(PRINT_ANY, "iommu", "%-6s ",
		   a->caps & DXGPMO_ADAPTER_CAP_IOMMU);
	print_bool(PRINT_ANY, "dma_engine", "%-7s ",
		   a->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE);
	print_u64(PRINT_ANY, "dma_mask", "0x%016" PRIx64 " ", a->dma_mask);
	print_size("segment_size", "%s\n", a->segment_size);
	close_json_object();
}

static int cmd_adapters(struct cmd_ctx *ctx)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t total, i;
	int ret;

	ret = dxgpmo_query_adapters(dev_fd, info, DXGPMO_MAX_ADAPTERS, &total);
	if (ret)
		return report(ctx, ret);
	if (total > DXGPMO_MAX_ADAPTERS)
		total = DXGPMO_MAX_ADAPTERS;
	open_json_array(NULL);
	print_text("%-3s %-10s %-13s %-9s %-5s %-6s %-7s %-18s %s\n", "ID",
		   "NAME", "PCI", "VEN:DEV", "GROUP", "IOMMU", "ENGINE",
		   "DMA MASK", "SEGMENT");
	for (i = 0; i < total; i++)
		print_adapter(&info[i]);
	close_json_array();
	return 0;
}

static int cmd_create(struct cmd_ctx *ctx)
{
	struct dxgpmo_create_pmo c = { .cache_type = DXGPMO_CACHE_CACHED };
	const char *type = opt(ctx, "type"), *cache = opt(ctx, "cache");
	const char *adapter = opt(ctx, "adapter");
	const char *protection = opt(ctx, "protection");
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
	open_json_object(NULL);
	print_uint(PRINT_ANY, "pmo", "created pmo %u", c.pmo_id);
	print_uint(PRINT_JSON, "amo", NULL, c.amo_id);
	print_string(PRINT_ANY, "type", " (%s", dxgpmo_type_name(c.type));
	print_string(PRINT_ANY, "cache", ", %s",
		     dxgpmo_cache_name(c.cache_type));
	print_size("length", ", %s)", c.length);
	if (c.amo_id) {
		print_uint(PRINT_FP, NULL, ", amo %u", c.amo_id);
		print_uint(PRINT_ANY, "adapter", " on adapter %u",
			   c.adapter_id);
	}
	print_u64(PRINT_ANY, "mmap_offset", ", mmap offset 0x%" PRIx64 "\n",
		  c.mmap_offset);
	close_json_object();
	return 0;
}

static int cmd_open(struct cmd_ctx *ctx)
{
	uint32_t pmo, adapter, amo;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &pmo) ||
	    parse_adapter(ctx, ctx->argv[1], &adapter))
		return bad_argument(ctx);
	ret = dxgpmo_open_pmo(dev_fd, pmo, adapter, &amo);
	if (ret)
		return report(ctx, ret);
	set_result(ctx, amo);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "pmo", "opened pmo %u", pmo);
	print_uint(PRINT_ANY, "adapter", " on adapter %u", adapter);
	print_uint(PRINT_ANY, "amo", ": amo %u\n", amo);
	close_json_object();
	return 0;
}

/* A command on one id whose output is one "verb"/"verb KIND ID" pair. */
static int one_id(struct cmd_ctx *ctx, int (*call)(int fd, uint32_t id),
		  const char *key, const char *fmt)
{
	uint32_t id;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &id))
		return bad_argument(ctx);
	ret = call(dev_fd, id);
	if (ret)
		return report(ctx, ret);
	open_json_object(NULL);
	print_uint(PRINT_ANY, key, fmt, id);
	close_json_object();
	return 0;
}

static int cmd_close(struct cmd_ctx *ctx)
{
	return one_id(ctx, dxgpmo_close_pmo, "closed", "closed amo %u\n");
}

static int cmd_free_adl(struct cmd_ctx *ctx)
{
	return one_id(ctx, dxgpmo_free_adl, "freed", "freed adl %u\n");
}

static int cmd_destroy_basis(struct cmd_ctx *ctx)
{
	return one_id(ctx, dxgpmo_destroy_memory_basis, "destroyed_basis",
		      "destroyed basis %u\n");
}

static int cmd_destroy(struct cmd_ctx *ctx)
{
	uint32_t pmo, amo = 0;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &pmo) ||
	    (ctx->argc == 2 && parse_u32(ctx, ctx->argv[1], &amo)))
		return bad_argument(ctx);
	ret = dxgpmo_destroy_pmo(dev_fd, pmo, amo);
	if (ret)
		return report(ctx, ret);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "destroyed", "destroyed pmo %u", pmo);
	if (amo)
		print_uint(PRINT_ANY, "closed", " (and closed amo %u)", amo);
	print_text("\n");
	close_json_object();
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

static int cmd_adl(struct cmd_ctx *ctx)
{
	struct dxgpmo_allocate_adl a = { 0 };
	const char *offset = opt(ctx, "offset");
	bool hidden, contiguous, listed;
	uint64_t *pages = NULL, i;
	int ret;

	if ((offset && parse_field(ctx, offset, &a.offset)) ||
	    parse_u32(ctx, ctx->argv[0], &a.amo_id) ||
	    parse_field(ctx, ctx->argv[1], &a.length))
		return bad_argument(ctx);
	if (opt(ctx, "require-contiguous"))
		a.flags |= DXGPMO_ADL_REQUIRE_CONTIGUOUS;
	if (opt(ctx, "prefer-contiguous"))
		a.flags |= DXGPMO_ADL_PREFER_CONTIGUOUS;
	if (a.length / 4096 <= (1 << 20)) {
		a.pages_capacity = a.length / 4096;
		pages = calloc(a.pages_capacity ? a.pages_capacity : 1,
			       sizeof(*pages));
		if (!pages)
			return report(ctx, -ENOMEM);
		a.pages = (uintptr_t)pages;
	}
	ret = dxgpmo_allocate_adl(dev_fd, &a);
	if (ret) {
		free(pages);
		return report(ctx, ret);
	}
	hidden = a.adl_flags & DXGPMO_ADL_ADDRESSES_HIDDEN;
	contiguous = a.adl_flags & DXGPMO_ADL_CONTIGUOUS;
	listed = !hidden && !contiguous;
	set_result(ctx, a.adl_id);
	add_extra(ctx, "addr", (pages ? pages[0] : a.base_page) * 4096);
	add_extra(ctx, "pages", a.page_count);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "adl", "adl %u: ", a.adl_id);
	print_u64(PRINT_ANY, "page_count", "%" PRIu64 " page(s), ",
		  a.page_count);
	print_bool(PRINT_JSON, "contiguous", NULL, contiguous);
	print_bool(PRINT_JSON, "addresses_hidden", NULL, hidden);
	print_u64(PRINT_JSON, "base_page", NULL, a.base_page);
	if (hidden)
		print_text("%sphysical page numbers hidden (CAP_SYS_ADMIN shows them)\n",
			   contiguous ? "contiguous, " : "");
	else if (contiguous)
		print_text("contiguous at logical page 0x%llx (device address 0x%llx)\n",
			   a.base_page, a.base_page * 4096);
	else
		print_text("pages:");
	open_json_array("pages");
	for (i = 0; pages && i < a.page_count; i++)
		print_u64(listed && i < 8 ? PRINT_ANY : PRINT_JSON, NULL,
			  " 0x%" PRIx64, pages[i]);
	close_json_array();
	if (listed)
		print_text("%s\n", a.page_count > 8 ? " ..." : "");
	close_json_object();
	free(pages);
	return 0;
}

/* dma [--raw] [--expect TEXT] ADAPTER ADDR write TEXT | read LENGTH */
static int cmd_dma(struct cmd_ctx *ctx)
{
	uint32_t adapter, flags = opt(ctx, "raw") ? DXGPMO_DMA_RAW : 0;
	char **argv = ctx->argv;
	bool write = !strcmp(argv[2], "write");
	uint64_t addr, len;
	uint8_t *buf;
	int ret;

	if (parse_adapter(ctx, argv[0], &adapter) ||
	    parse_u64(ctx, argv[1], &addr))
		return bad_argument(ctx);
	if (write) {
		flags |= DXGPMO_DMA_TO_MEMORY;
		len = strlen(argv[3]);
		buf = (uint8_t *)strdup(argv[3]);
	} else if (!strcmp(argv[2], "read") &&
		   !parse_u64(ctx, argv[3], &len) && len && len <= (1 << 20)) {
		buf = calloc(1, len);
	} else {
		return usage_error(ctx, "expected 'write TEXT' or 'read LENGTH'");
	}
	if (write && opt(ctx, "expect"))
		return usage_error(ctx, "--expect checks reads");
	if (!buf)
		return report(ctx, -ENOMEM);
	ret = dxgpmo_adapter_dma(dev_fd, adapter, flags, addr, buf, len);
	if (ret) {
		free(buf);
		return report(ctx, ret);
	}
	open_json_object(NULL);
	print_uint(PRINT_ANY, "adapter", "adapter %u", adapter);
	print_bool(PRINT_JSON, "write", NULL, write);
	print_u64(PRINT_ANY, "length", write ? " wrote %" PRIu64 " byte(s)" :
		  " read %" PRIu64 " byte(s)", len);
	print_u64(PRINT_ANY, "address", write ?
		  " to device address 0x%" PRIx64 "\n" :
		  " at device address 0x%" PRIx64 ":\n", addr);
	if (write)
		print_hex_bytes("bytes", buf, len);
	else
		print_bytes_read(buf, len);
	close_json_object();
	ret = check_expect(ctx, buf, len);
	free(buf);
	return ret;
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

static int cmd_map(struct cmd_ctx *ctx)
{
	struct dxgpmo_map m = { .access_mode = DXGPMO_ACCESS_USER };
	bool user;
	int ret;

	if (opt(ctx, "kernel"))
		m.access_mode = DXGPMO_ACCESS_KERNEL;
	user = m.access_mode == DXGPMO_ACCESS_USER;
	if (parse_u32(ctx, ctx->argv[0], &m.pmo_id) ||
	    parse_field(ctx, ctx->argv[1], &m.offset) ||
	    parse_field(ctx, ctx->argv[2], &m.length))
		return bad_argument(ctx);
	ret = dxgpmo_map(dev_fd, &m);
	if (ret)
		return report(ctx, ret);
	if (nr_views < ARRAY_SIZE(views))
		views[nr_views++] = (struct view){ m.map_id, m.pmo_id,
			m.access_mode, m.address, m.length };
	set_result(ctx, m.map_id);
	add_extra(ctx, "offset", m.offset);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "map", "map %u: ", m.map_id);
	print_string(PRINT_JSON, "mode", NULL, user ? "user" : "kernel");
	print_text("%s view", user ? "user" : "kernel (token)");
	print_u64(PRINT_ANY, "address", " at 0x%" PRIx64 ", ", m.address);
	print_size("length", "%s, ", m.length);
	print_u64(PRINT_ANY, "offset", "wanted data at +0x%" PRIx64 "\n",
		  m.offset);
	close_json_object();
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

/* view-write MAP OFFSET TEXT | view-read [--expect TEXT] MAP OFFSET LENGTH */
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
			     "%" PRIu64 " byte(s) at +0x%" PRIx64 " do not fit in the %" PRIu64 "-byte view",
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

static int cmd_view_write(struct cmd_ctx *ctx)
{
	return view_access(ctx, true);
}

static int cmd_view_read(struct cmd_ctx *ctx)
{
	return view_access(ctx, false);
}

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

static int tracking(struct cmd_ctx *ctx, bool start)
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
	return tracking(ctx, true);
}

static int cmd_stop(struct cmd_ctx *ctx)
{
	return tracking(ctx, false);
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
			     "%" PRIu64 " byte(s) at 0x%" PRIx64 " do not fit in the %llu-byte segment",
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

static int cmd_bind(struct cmd_ctx *ctx)
{
	char previous[64] = "", msg[256];
	const char *pci = ctx->argv[0];
	uint32_t adapter;
	bool had_other;
	int ret;

	ret = dxgpmo_pci_bind(pci, !!opt(ctx, "force"), previous,
			      sizeof(previous), msg, sizeof(msg));
	if (ret) {
		error_record(ctx->name, ret, "%s", msg);
		return 1;
	}
	adapter = adapter_of_pci(pci);
	if (adapter)
		set_result(ctx, adapter);
	had_other = previous[0] && strcmp(previous, DXGPMO_PCI_DRIVER);
	open_json_object(NULL);
	print_string(PRINT_ANY, "message", "%s", msg);
	print_string(PRINT_JSON, "pci", NULL, pci);
	print_string(PRINT_JSON, "driver", NULL, DXGPMO_PCI_DRIVER);
	print_string(had_other ? PRINT_ANY : PRINT_JSON, "previous",
		     " (was: %s)", previous);
	print_uint(PRINT_ANY, "adapter", "; adapter %u\n", adapter);
	close_json_object();
	return 0;
}

static int cmd_unbind(struct cmd_ctx *ctx)
{
	char now[64] = "", msg[256];
	int ret;

	ret = dxgpmo_pci_unbind(ctx->argv[0], now, sizeof(now), msg,
				sizeof(msg));
	if (ret) {
		error_record(ctx->name, ret, "%s", msg);
		return 1;
	}
	open_json_object(NULL);
	print_string(PRINT_ANY, "message", "%s\n", msg);
	print_string(PRINT_JSON, "pci", NULL, ctx->argv[0]);
	print_string(PRINT_JSON, "driver", NULL, now);
	close_json_object();
	return 0;
}

/* dma-bufs this session exported and keeps open. */
static int dmabufs[MAX_DMABUFS];
static unsigned int nr_dmabufs;

/* The dma-buf as fd `target` of a child running argv; its exit status. */
static int run_with_dmabuf(struct cmd_ctx *ctx, int dmabuf, int target,
			   char **argv)
{
	char number[16];
	int status, ret;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(dmabuf);
		return ret;
	}
	if (!pid) {
		/* dup2() onto itself would leave close-on-exec set */
		if (dmabuf == target)
			ret = fcntl(target, F_SETFD, 0);
		else
			ret = dup2(dmabuf, target);
		if (ret < 0)
			_exit(127);
		snprintf(number, sizeof(number), "%d", target);
		setenv("DXGPMO_DMABUF_FD", number, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", ctx->name, argv[0],
			strerror(errno));
		_exit(127);
	}
	close(dmabuf);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

/* export [--read-only] [--fd N] PMO [-- COMMAND [ARG...]] */
static int cmd_export(struct cmd_ctx *ctx)
{
	bool read_only = opt(ctx, "read-only");
	const char *fd_arg = opt(ctx, "fd");
	uint32_t pmo, target = 3;
	int ret, dmabuf, status = 0;

	if (parse_u32(ctx, ctx->argv[0], &pmo) ||
	    (fd_arg && parse_u32(ctx, fd_arg, &target)) || target > 1023)
		return bad_argument(ctx);
	if (ctx->argc == 1 && fd_arg)
		return usage_error(ctx, "--fd places the dma-buf for a COMMAND");
	if (ctx->argc == 1 && nr_dmabufs == MAX_DMABUFS)
		return usage_error(ctx, "this session keeps %d dma-bufs already",
				   MAX_DMABUFS);
	ret = dxgpmo_export_dmabuf(dev_fd, pmo, O_CLOEXEC |
				   (read_only ? O_RDONLY : O_RDWR), &dmabuf);
	if (ret)
		return report(ctx, ret);
	if (ctx->argc == 1) {
		dmabufs[nr_dmabufs++] = dmabuf;
		set_result(ctx, dmabuf);
	} else {
		status = run_with_dmabuf(ctx, dmabuf, target, ctx->argv + 1);
		if (status < 0)
			return report(ctx, status);
	}
	open_json_object(NULL);
	print_uint(PRINT_ANY, "pmo", "pmo %u: ", pmo);
	print_string(PRINT_ANY, "access", "%s dma-buf",
		     read_only ? "read-only" : "read-write");
	if (ctx->argc == 1) {
		print_int(PRINT_ANY, "fd", " kept as fd %d\n", dmabuf);
		close_json_object();
		return 0;
	}
	print_int(PRINT_ANY, "fd", " as fd %d", target);
	print_string(PRINT_ANY, "command", " of '%s'", ctx->argv[1]);
	print_int(PRINT_ANY, "status", ", exit status %d\n", status);
	close_json_object();
	return status ? 1 : 0;
}

static int cmd_close_dmabuf(struct cmd_ctx *ctx)
{
	unsigned int i;
	uint32_t fd;

	if (parse_u32(ctx, ctx->argv[0], &fd))
		return bad_argument(ctx);
	for (i = 0; i < nr_dmabufs && dmabufs[i] != (int)fd; i++)
		;
	if (i == nr_dmabufs)
		return usage_error(ctx, "fd %u is no dma-buf this session exported",
				   fd);
	close(fd);
	dmabufs[i] = dmabufs[--nr_dmabufs];
	open_json_object(NULL);
	print_uint(PRINT_ANY, "closed_fd", "closed dma-buf fd %u\n", fd);
	close_json_object();
	return 0;
}

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

static const struct cmd_option adl_opts[] = {
	{ "offset", 'o', "N", "first byte of the range (page aligned)" },
	{ "require-contiguous", 0, NULL, "fail unless the device sees one range" },
	{ "prefer-contiguous", 0, NULL, "one device range when it can" },
	{ }
};

static const struct cmd_option dma_opts[] = {
	{ "raw", 0, NULL, "any device address (needs CAP_SYS_RAWIO)" },
	{ "expect", 0, "TEXT", "fail unless the bytes read are TEXT" },
	{ }
};

static const struct cmd_option map_opts[] = {
	{ "kernel", 'k', NULL, "a kernel view instead of a user view" },
	{ }
};

static const struct cmd_option view_read_opts[] = {
	{ "expect", 0, "TEXT", "fail unless the bytes read are TEXT" },
	{ }
};

static const struct cmd_option query_opts[] = {
	{ "clear", 0, NULL, "clear the bits read, atomically" },
	{ }
};

static const struct cmd_option bind_opts[] = {
	{ "force", 0, NULL, "take the device from the driver that holds it" },
	{ }
};

static const struct cmd_option export_opts[] = {
	{ "read-only", 'r', NULL, "a read-only dma-buf (default: read-write)" },
	{ "fd", 0, "N", "the COMMAND's fd number for it (default 3)" },
	{ }
};

static const struct command commands[] = {
	{ "adapters", NULL, NULL, 0, 0, DXGPMO_IOC_QUERY_ADAPTERS, false,
	  "List adapters (edu devices, devices bound to dxgpmo-pci, virtual\n"
	  "adapters) with their PCI address, vendor:device and IOMMU group.",
	  cmd_adapters },
	{ "create", create_opts, "SIZE", 1, 1, DXGPMO_IOC_CREATE_PMO, false,
	  "Create a physical memory object (DxgkCbCreatePhysicalMemoryObject).\n"
	  "Result: the pmo id; with --adapter also NAME_amo.", cmd_create },
	{ "open", NULL, "PMO ADAPTER", 2, 2, DXGPMO_IOC_OPEN_PMO, false,
	  "Open a PMO on an adapter (DxgkCbOpenPhysicalMemoryObject). Result: the amo id.",
	  cmd_open },
	{ "close", NULL, "AMO", 1, 1, DXGPMO_IOC_CLOSE_PMO, false,
	  "Close an adapter memory object (DxgkCbClosePhysicalMemoryObject).",
	  cmd_close },
	{ "destroy", NULL, "PMO [AMO]", 1, 2, DXGPMO_IOC_DESTROY_PMO, false,
	  "Destroy a PMO, closing AMO with it (DxgkCbDestroyPhysicalMemoryObject).",
	  cmd_destroy },
	{ "adl", adl_opts, "AMO LENGTH", 2, 2, DXGPMO_IOC_ALLOCATE_ADL, false,
	  "Allocate an ADL (DxgkCbAllocateAdl): map a page range of the AMO's object\n"
	  "for its adapter.  Result: the adl id; also NAME_addr (device address of\n"
	  "the first page) and NAME_pages.", cmd_adl },
	{ "free-adl", NULL, "ADL", 1, 1, DXGPMO_IOC_FREE_ADL, false,
	  "Free an ADL (DxgkCbFreeAdl).", cmd_free_adl },
	{ "dma", dma_opts, "ADAPTER DEVICE_ADDRESS write TEXT | read LENGTH", 4, 4,
	  DXGPMO_IOC_ADAPTER_DMA, false,
	  "Let the adapter's DMA engine write TEXT to, or read LENGTH bytes from,\n"
	  "a device address inside one of this file's ADLs (--raw: anywhere, to\n"
	  "provoke IOMMU faults).", cmd_dma },
	{ "map", map_opts, "PMO OFFSET LENGTH", 3, 3, DXGPMO_IOC_MAP, false,
	  "Map a region of a PMO for the CPU (DxgkCbMapPhysicalMemory): a user\n"
	  "view in this process, or a kernel view (--kernel).  Result: the map id;\n"
	  "NAME_offset is where the wanted data lies in the view.", cmd_map },
	{ "unmap", NULL, "MAP", 1, 1, DXGPMO_IOC_UNMAP, false,
	  "Unmap a view made by map (DxgkCbUnmapPhysicalMemory).", cmd_unmap },
	{ "view-write", NULL, "MAP OFFSET TEXT", 3, 3, DXGPMO_IOC_KMAP_RW, false,
	  "Write TEXT into a view (user views directly, kernel views via KMAP_RW).",
	  cmd_view_write },
	{ "view-read", view_read_opts, "MAP OFFSET LENGTH", 3, 3,
	  DXGPMO_IOC_KMAP_RW, false, "Read bytes from a view.", cmd_view_read },
	{ "basis", NULL, "ADAPTER OFFSET:LENGTH...", 2, -1,
	  DXGPMO_IOC_CREATE_MEMORY_BASIS, false,
	  "Create a memory basis on segment 1 (DxgkDdiCreateMemoryBasis).",
	  cmd_basis },
	{ "destroy-basis", NULL, "BASIS", 1, 1, DXGPMO_IOC_DESTROY_MEMORY_BASIS,
	  false, "Destroy a memory basis (DxgkDdiDestroyMemoryBasis).",
	  cmd_destroy_basis },
	{ "start", NULL, "BASIS", 1, 1, DXGPMO_IOC_START_DIRTY_TRACKING, false,
	  "DxgkDdiStartDirtyTracking.", cmd_start },
	{ "stop", NULL, "BASIS", 1, 1, DXGPMO_IOC_STOP_DIRTY_TRACKING, false,
	  "DxgkDdiStopDirtyTracking.", cmd_stop },
	{ "query", query_opts, "BASIS PAGES [INDEX OFFSET LENGTH]", 2, 5,
	  DXGPMO_IOC_QUERY_DIRTY_BITS, false,
	  "DxgkDdiQueryDirtyBitData: print PAGES bits of the basis (or of the\n"
	  "subrange), page 0 first.", cmd_query },
	{ "segment-write", NULL, "ADAPTER OFFSET TEXT", 3, 3, 0, false,
	  "Write TEXT into the adapter's segment through a CPU mapping.",
	  cmd_segment_write },
	{ "stats", NULL, NULL, 0, 0, DXGPMO_IOC_STATS, false,
	  "Show the module's object and page counters.", cmd_stats },
	{ "export", export_opts, "PMO [-- COMMAND [ARG...]]", 1, -1,
	  DXGPMO_IOC_EXPORT_DMABUF, false,
	  "Export a PMO as a dma-buf.  With COMMAND: run it with the dma-buf as\n"
	  "its fd 3 (or --fd N; DXGPMO_DMABUF_FD says which), close it here, and\n"
	  "fail when COMMAND does.  Without: keep it open for the rest of the\n"
	  "session (the pages live as long as it does).  Result: the fd.",
	  cmd_export },
	{ "close-dmabuf", NULL, "FD", 1, 1, 0, false,
	  "Close a dma-buf that export kept.", cmd_close_dmabuf },
	{ "bind", bind_opts, "PCI_ADDRESS", 1, 1, 0, true,
	  "Make a PCI device an adapter without a DMA engine: bind it to the\n"
	  "generic driver dxgpmo-pci through driver_override (needs root).  A\n"
	  "device another driver holds is taken only with --force.  Result: the\n"
	  "adapter id.", cmd_bind },
	{ "unbind", NULL, "PCI_ADDRESS", 1, 1, 0, true,
	  "Unbind a device from dxgpmo-pci (revoking its ADLs), clear its\n"
	  "driver_override and let its own driver, if any, take it back.",
	  cmd_unbind },
};

static const struct cmd_option global_opts[] = {
	{ "json", 'j', NULL,
	  "JSON output: one object or array a command, one a line" },
	{ "batch", 'f', "FILE",
	  "run the commands in FILE, one a line ('-': standard input)" },
	{ "help", 'h', NULL, "this text" },
	{ "man", 0, NULL, "the man page (troff)" },
	{ "commands", 0, NULL, "the commands' names, one a line" },
	{ }
};

static const struct command *find_command(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* "create [--type TYPE] ... SIZE", for the usage and the man page. */
static const char *synopsis(const struct command *c)
{
	static char buf[512];
	const struct cmd_option *o;
	size_t n;

	n = snprintf(buf, sizeof(buf), "%s", c->name);
	for (o = c->opts; o && o->name && n < sizeof(buf); o++)
		n += snprintf(buf + n, sizeof(buf) - n, o->arg ? " [--%s %s]" :
			      " [--%s]", o->name, o->arg);
	if (c->operands && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, " %s", c->operands);
	return buf;
}

static void print_option_list(FILE *out, const struct cmd_option *o)
{
	char name[48];

	for (; o && o->name; o++) {
		snprintf(name, sizeof(name), "%c%c%s--%s%s%s",
			 o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ',
			 o->short_name ? ", " : "  ", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(out, "  %-30s %s\n", name, o->help);
	}
}

static void usage(FILE *out)
{
	unsigned int i;

	fprintf(out,
		"usage: dxgpmoctl [OPTIONS] COMMAND [ARGS...]\n"
		"       dxgpmoctl [OPTIONS] -batch FILE   (or commands on stdin)\n"
		"\nOptions (also as -json, -batch):\n");
	print_option_list(out, global_opts);
	fprintf(out,
		"\nIn a batch, 'name=COMMAND ...' stores the result in $name;\n"
		"a line starting with '-' may fail without stopping the batch;\n"
		"'echo TEXT' prints TEXT; '#' starts a comment; \"...\" and '...'\n"
		"quote.  Numbers take K, M and G suffixes and add up with '+'.\n"
		"\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %s\n", synopsis(&commands[i]));
	fprintf(out, "\n'dxgpmoctl COMMAND --help' describes one command.\n");
}

static void command_help(const struct command *c)
{
	printf("usage: dxgpmoctl %s\n\n%s\n", synopsis(c), c->help);
	if (c->opts) {
		printf("\nOptions:\n");
		print_option_list(stdout, c->opts);
	}
}

/* Text for troff: backslashes and minus signs escaped. */
static void man_puts(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void man_options(const struct cmd_option *o)
{
	for (; o && o->name; o++) {
		printf(".TP\n");
		if (o->short_name)
			printf("\\fB\\-%c\\fR, ", o->short_name);
		printf("\\fB");
		man_puts("--");
		man_puts(o->name);
		printf("\\fR");
		if (o->arg) {
			printf(" \\fI");
			man_puts(o->arg);
			printf("\\fR");
		}
		putchar('\n');
		man_puts(o->help);
		putchar('\n');
	}
}

/* The man page, generated from the tables --help prints (one source). */
static void print_man(void)
{
	unsigned int i;

	printf(".TH DXGPMOCTL 8 \"\" \"dxgpmo\" \"System Administration\"\n"
	       ".SH NAME\ndxgpmoctl \\- drive the dxgpmo physical memory object module\n"
	       ".SH SYNOPSIS\n.B dxgpmoctl\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR...]\n.br\n"
	       ".B dxgpmoctl\n[\\fIOPTIONS\\fR] \\-batch \\fIFILE\\fR\n"
	       ".SH DESCRIPTION\n"
	       "dxgpmoctl makes the calls of the Windows display-driver memory contract\n"
	       "(physical memory objects, ADLs, CPU mappings, memory bases, dirty-bit\n"
	       "tracking, dma-buf export) on /dev/dxgpmo.  Objects live as long as the\n"
	       "open file, so work spanning several calls runs in one process: a batch\n"
	       "file (or commands on standard input) holds one command a line.\n"
	       ".PP\nIn a batch, \\fIname\\fR=\\fICOMMAND\\fR stores the command's result (an id)\n"
	       "in $\\fIname\\fR, and some commands store more values as $\\fIname\\fR_\\fIsuffix\\fR.\n"
	       "A line starting with \\- may fail without stopping the batch; echo prints\n"
	       "the rest of its line; # starts a comment.  Words are split at blanks;\n"
	       "\"double\" and 'single' quotes keep blanks in a word (\\e\" and \\e\\e escape\n"
	       "inside double quotes).  Numbers take K, M and G suffixes, and terms add up\n"
	       "with +, as in $l_addr+100.  Options may stand anywhere among a command's\n"
	       "arguments; \\-\\- ends them.\n"
	       ".PP\nOutput goes to standard output: text, or with \\-\\-json one JSON object or\n"
	       "array per command, one a line.  A failed call prints one error record on\n"
	       "standard error: the call, the errno name and what it means in the\n"
	       "contract, as text or with \\-\\-json as a JSON object with the keys call,\n"
	       "error, errno and message (and batch and line in a batch).  The exit status\n"
	       "is 1 for a failed call, 2 for arguments a command does not take.\n"
	       ".SH OPTIONS\n"
	       "Options come before the command; \\-json and \\-batch work too.\n");
	man_options(global_opts);
	printf(".SH COMMANDS\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		printf(".TP\n.B ");
		man_puts(synopsis(&commands[i]));
		printf("\n");
		man_puts(commands[i].help);
		putchar('\n');
		if (commands[i].opts) {
			printf(".RS\n");
			man_options(commands[i].opts);
			printf(".RE\n");
		}
	}
	printf(".SH ENVIRONMENT\n.TP\n.B DXGPMO_DMABUF_FD\n"
	       "set for the COMMAND of export: the fd of the dma-buf.\n"
	       ".SH FILES\n/dev/dxgpmo\n.SH SEE ALSO\n"
	       "Documentation/index.rst in the dxgpmo sources; uapi/dxgpmo.h.\n");
}

/*
 * getopt_long over the command's option table: options anywhere among
 * the operands, "--" ends them.  1 when --help was printed, 2 on a usage
 * error, else 0 with ctx->opt, ctx->argc and ctx->argv filled.
 */
static int parse_options(struct cmd_ctx *ctx, int argc, char **argv)
{
	const struct cmd_option *opts = ctx->cmd->opts;
	struct option longopts[MAX_OPTS + 2];
	char shorts[2 * MAX_OPTS + 3] = ":h";
	unsigned int n = 0, s = 2, i;
	int c;

	for (; opts && opts[n].name; n++) {
		longopts[n] = (struct option){ opts[n].name,
			opts[n].arg ? required_argument : no_argument, NULL,
			opts[n].short_name ? opts[n].short_name : 256 + n };
		if (opts[n].short_name) {
			shorts[s++] = opts[n].short_name;
			if (opts[n].arg)
				shorts[s++] = ':';
		}
	}
	longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n + 1] = (struct option){ };
	shorts[s] = 0;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (c == 'h') {
			command_help(ctx->cmd);
			return 1;
		}
		if (c == '?' && optopt)
			return usage_error(ctx, "unknown option '-%c'", optopt);
		if (c == '?')
			return usage_error(ctx, "unknown option '%s'",
					   argv[optind - 1]);
		if (c == ':')
			return usage_error(ctx, "option '%s' needs an argument",
					   argv[optind - 1]);
		for (i = 0; i < n; i++)
			if (c == (opts[i].short_name ? opts[i].short_name :
				  256 + (int)i))
				ctx->opt[i] = optarg ? optarg : "";
	}
	ctx->argc = argc - optind;
	ctx->argv = argv + optind;
	if (ctx->argc < ctx->cmd->min_operands ||
	    (ctx->cmd->max_operands >= 0 &&
	     ctx->argc > ctx->cmd->max_operands)) {
		if (!ctx->cmd->operands)
			return usage_error(ctx, "no arguments expected");
		return usage_error(ctx, "expected %s", ctx->cmd->operands);
	}
	return 0;
}

static int run_command(int argc, char **argv, const char *store)
{
	struct cmd_ctx ctx = { .name = argv[0] };
	char name[64];
	unsigned int i;
	int ret;

	ctx.cmd = find_command(argv[0]);
	if (!ctx.cmd)
		return usage_error(&ctx, "unknown command");
	ret = parse_options(&ctx, argc, argv);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (!ctx.cmd->sysfs_only && need_dev(&ctx))
		return 1;
	print_begin(stdout);
	ret = ctx.cmd->run(&ctx);
	print_end();
	if (ret || !store)
		return ret;
	if (!ctx.has_result)
		return usage_error(&ctx, "has no result to store in $%s", store);
	if (set_var(store, ctx.result))
		return usage_error(&ctx, "no room for $%s", store);
	for (i = 0; i < ctx.nr_extra; i++) {
		snprintf(name, sizeof(name), "%s_%s", store,
			 ctx.extra[i].suffix);
		if (set_var(name, ctx.extra[i].value))
			return usage_error(&ctx, "no room for $%s", name);
	}
	return 0;
}

/*
 * Split a batch line into words in place, as iproute2's -batch does:
 * blanks separate, "..." and '...' quote (\" and \\ escape inside "...").
 * The number of words, or -1 for an open quote or more than max - 1 words.
 * argv ends with a NULL, as execvp() needs for export's COMMAND.
 */
static int makeargs(char *line, char **argv, int max)
{
	char *r = line, *w = line, quote;
	int argc = 0;
	bool more;

	for (;;) {
		argv[argc] = NULL;
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			return argc;
		if (argc == max - 1)
			return -1;
		argv[argc++] = w;
		while (*r && *r != ' ' && *r != '\t') {
			if (*r != '"' && *r != '\'') {
				*w++ = *r++;
				continue;
			}
			quote = *r++;
			while (*r && *r != quote) {
				if (quote == '"' && *r == '\\' &&
				    (r[1] == '"' || r[1] == '\\'))
					r++;
				*w++ = *r++;
			}
			if (!*r)
				return -1;
			r++;
		}
		more = *r;
		*w++ = 0;
		if (more)
			r++;
	}
}

/* echo TEXT: the rest of the line, as it is. */
static void batch_echo(const char *text)
{
	print_begin(stdout);
	open_json_object(NULL);
	print_string(PRINT_ANY, "echo", "%s\n", text);
	close_json_object();
	print_end();
}

static int run_batch(FILE *in, const char *source)
{
	char *line = NULL, *argv[MAX_ARGS], *p, *store, *eq;
	size_t cap = 0;
	int argc, ret = 0;
	bool may_fail;

	batch_source = source;
	batch_line = 0;
	while (getline(&line, &cap, in) >= 0) {
		batch_line++;
		line[strcspn(line, "\r\n")] = 0;
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (!*p || *p == '#')
			continue;
		if (!strncmp(p, "echo", 4) && (!p[4] || isspace((unsigned char)p[4]))) {
			batch_echo(p[4] ? p + 5 : "");
			continue;
		}
		may_fail = *p == '-';
		p += may_fail;
		print_begin(stdout);
		print_text("> %s%s\n", p, may_fail ? "   (may fail)" : "");
		print_end();
		store = NULL;
		argc = makeargs(p, argv, MAX_ARGS);
		if (argc > 0) {
			eq = strchr(argv[0], '=');
			if (eq) {
				*eq = 0;
				store = argv[0];
				argv[0] = eq + 1;
			}
		}
		if (argc < 0) {
			error_record("dxgpmoctl", -EINVAL,
				     "an open quote or more than %d words",
				     MAX_ARGS - 1);
			ret = 2;
		} else if (argc) {
			ret = run_command(argc, argv, store);
		}
		if (ret && !may_fail)
			break;
		ret = 0;
	}
	if (ret) {
		print_begin(stderr);
		print_text("dxgpmoctl: %s:%u: stopped\n", source, batch_line);
		print_end();
	}
	free(line);
	batch_source = NULL;
	return ret;
}

static int run_batch_file(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int ret;

	if (!f) {
		error_record("dxgpmoctl", -errno, "%s: %s", path,
			     strerror(errno));
		return 2;
	}
	ret = run_batch(f, path);
	if (f != stdin)
		fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	struct option longopts[ARRAY_SIZE(global_opts)] = { };
	const char *batch = NULL, *name;
	char shorts[16] = "+:";
	unsigned int i, s = 2;
	int c;

	for (i = 0; global_opts[i].name; i++) {
		const struct cmd_option *o = &global_opts[i];

		longopts[i] = (struct option){ o->name,
			o->arg ? required_argument : no_argument, NULL,
			o->short_name ? o->short_name : 256 + i };
		if (o->short_name) {
			shorts[s++] = o->short_name;
			if (o->arg)
				shorts[s++] = ':';
		}
	}
	/*
	 * One write per record: stderr is unbuffered, and a reader taking
	 * one read() of an error line must get all of it.
	 */
	setvbuf(stderr, NULL, _IOLBF, 0);
	opterr = 0;
	/* iproute2's single-dash long options (-json, -batch) too. */
	while ((c = getopt_long_only(argc, argv, shorts, longopts, NULL)) != -1) {
		name = c >= 256 ? global_opts[c - 256].name : "";
		if (c == 'j') {
			json_print_mode(true);
			continue;
		}
		if (c == 'f') {
			batch = optarg;
			continue;
		}
		if (c == 'h')
			usage(stdout);
		else if (!strcmp(name, "man"))
			print_man();
		else if (!strcmp(name, "commands"))
			for (i = 0; i < ARRAY_SIZE(commands); i++)
				printf("%s\n", commands[i].name);
		else
			return usage_error(&(struct cmd_ctx){ .name = "dxgpmoctl" },
					   "%s '%s'", c == ':' ?
					   "an argument is missing after" :
					   "unknown option", argv[optind - 1]);
		return 0;
	}
	if (batch)
		return run_batch_file(batch);
	if (optind == argc) {
		if (isatty(STDIN_FILENO)) {
			usage(stderr);
			return 2;
		}
		return run_batch(stdin, "stdin");
	}
	return run_command(argc - optind, argv + optind, NULL);
}
