// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl adl and dma: ADLs, and the adapter DMA engine that reads and
 * writes through them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dxgpmoctl.h"

static const struct cmd_option adl_opts[] = {
	{ "offset", 'o', "N", "first byte of the range (page aligned)" },
	{ "require-contiguous", 0, NULL, "fail unless the device sees one range" },
	{ "prefer-contiguous", 0, NULL, "one device range when it can" },
	{ }
};

static const struct cmd_option dma_write_opts[] = {
	{ "raw", 0, NULL, "any device address (needs CAP_SYS_RAWIO)" },
	{ }
};

static const struct cmd_option dma_read_opts[] = {
	{ "raw", 0, NULL, "any device address (needs CAP_SYS_RAWIO)" },
	{ "expect", 0, "TEXT", "fail unless the bytes read are TEXT" },
	{ }
};

/*
 * The ADLs this session allocated, for show: what was asked and what the
 * module answered, pages and all.
 */
struct adl_record {
	struct dxgpmo_allocate_adl a;
	uint64_t *pages;	/* NULL: too many to keep */
};

static struct adl_record *adls;
static unsigned int nr_adls, max_adls;

static struct adl_record *find_adl(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < nr_adls; i++)
		if (adls[i].a.adl_id == id)
			return &adls[i];
	return NULL;
}

/*
 * allocate's report and show's.  Contiguous is said as libdxgk's DXGK_ADL
 * says it (dxgk_adl_of_reply()): only to a caller that asked for it with
 * --require- or --prefer-contiguous, since one that asked for neither
 * gets the page list, as a Windows driver that asked for neither reads
 * Pages[].  The module fills the list either way.
 */
static void print_adl(const struct dxgpmo_allocate_adl *a,
		      const uint64_t *pages)
{
	bool asked = a->flags & (DXGPMO_ADL_REQUIRE_CONTIGUOUS |
				 DXGPMO_ADL_PREFER_CONTIGUOUS);
	bool hidden = a->adl_flags & DXGPMO_ADL_ADDRESSES_HIDDEN;
	bool contiguous = asked && (a->adl_flags & DXGPMO_ADL_CONTIGUOUS);
	bool listed = !hidden && !contiguous;
	uint64_t i;

	open_json_object(NULL);
	print_uint(PRINT_ANY, "adl", "adl %u: ", a->adl_id);
	print_uint(PRINT_JSON, "amo", NULL, a->amo_id);
	print_u64(PRINT_ANY, "page_count", "%" PRIu64 " page(s), ",
		  a->page_count);
	print_string(PRINT_JSON, "asked",  NULL,
		     a->flags & DXGPMO_ADL_REQUIRE_CONTIGUOUS ? "require-contiguous" :
		     asked ? "prefer-contiguous" : "pages");
	print_bool(PRINT_JSON, "contiguous", NULL, contiguous);
	print_bool(PRINT_JSON, "addresses_hidden", NULL, hidden);
	print_u64(PRINT_JSON, "base_page", NULL, contiguous ? a->base_page : 0);
	if (hidden)
		print_text("%sphysical page numbers hidden (CAP_SYS_ADMIN shows them)\n",
			   contiguous ? "contiguous, " : "");
	else if (contiguous)
		print_text("contiguous at logical page 0x%llx (device address 0x%llx)\n",
			   a->base_page, a->base_page * 4096);
	else if (asked)
		print_text("not contiguous, pages:");
	else
		print_text("pages:");
	open_json_array("pages");
	for (i = 0; pages && i < a->page_count; i++)
		print_u64(listed && i < 8 ? PRINT_ANY : PRINT_JSON, NULL,
			  " 0x%" PRIx64, pages[i]);
	close_json_array();
	if (listed)
		print_text("%s\n", a->page_count > 8 ? " ..." : "");
	close_json_object();
}

static int cmd_allocate(struct cmd_ctx *ctx)
{
	struct dxgpmo_allocate_adl a = { 0 };
	const char *offset = opt(ctx, "offset");
	uint64_t *pages = NULL;
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
	set_result(ctx, a.adl_id);
	add_extra(ctx, "addr", (pages ? pages[0] : a.base_page) * 4096);
	add_extra(ctx, "pages", a.page_count);
	print_adl(&a, pages);
	if (nr_adls == max_adls) {
		struct adl_record *more;

		more = reallocarray(adls, 2 * max_adls + 8, sizeof(*adls));
		if (!more) {
			/* the ADL is made: only show will not know it */
			free(pages);
			return 0;
		}
		adls = more;
		max_adls = 2 * max_adls + 8;
	}
	adls[nr_adls++] = (struct adl_record){ a, pages };
	return 0;
}

static int cmd_free(struct cmd_ctx *ctx)
{
	struct adl_record *r;
	uint32_t id;
	int ret;

	ret = one_id(ctx, dxgpmo_free_adl, "freed", "freed adl %u\n");
	if (!ret && !parse_u32(ctx, ctx->argv[0], &id)) {
		r = find_adl(id);
		if (r) {
			free(r->pages);
			*r = adls[--nr_adls];
		}
	}
	return ret;
}

/* show [ADL]: one of this session's ADLs, or all of them. */
static int cmd_show(struct cmd_ctx *ctx)
{
	struct adl_record *r = NULL;
	unsigned int i;
	uint32_t id;

	if (ctx->argc) {
		if (parse_u32(ctx, ctx->argv[0], &id))
			return bad_argument(ctx);
		r = find_adl(id);
		if (!r)
			return usage_error(ctx, "no adl %u in this session", id);
	}
	open_json_array(NULL);
	for (i = 0; i < nr_adls; i++)
		if (!r || r == &adls[i])
			print_adl(&adls[i].a, adls[i].pages);
	close_json_array();
	return 0;
}

/*
 * dma write [--raw] ADAPTER ADDRESS TEXT
 * dma read [--raw] [--expect TEXT] ADAPTER ADDRESS LENGTH
 */
static int dma(struct cmd_ctx *ctx, bool write)
{
	uint32_t adapter, flags = opt(ctx, "raw") ? DXGPMO_DMA_RAW : 0;
	char **argv = ctx->argv;
	uint64_t addr, len;
	uint8_t *buf;
	int ret;

	if (parse_adapter(ctx, argv[0], &adapter) ||
	    parse_u64(ctx, argv[1], &addr))
		return bad_argument(ctx);
	if (write) {
		flags |= DXGPMO_DMA_TO_MEMORY;
		len = strlen(argv[2]);
		buf = (uint8_t *)strdup(argv[2]);
	} else if (!parse_u64(ctx, argv[2], &len) && len && len <= (1 << 20)) {
		buf = calloc(1, len);
	} else {
		return usage_error(ctx, "LENGTH must be 1..1M");
	}
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
	ret = write ? 0 : check_expect(ctx, buf, len);
	free(buf);
	return ret;
}

static int cmd_dma_write(struct cmd_ctx *ctx)
{
	return dma(ctx, true);
}

static int cmd_dma_read(struct cmd_ctx *ctx)
{
	return dma(ctx, false);
}

const struct command adl_verbs[] = {
	{ "allocate", adl_opts, "AMO LENGTH", DXGPMO_IOC_ALLOCATE_ADL, false,
	  "Allocate an ADL (DxgkCbAllocateAdl): map a page range of the AMO's object\n"
	  "for its adapter.  It is reported contiguous, with its first logical page,\n"
	  "only when --require-contiguous or --prefer-contiguous asked for that and\n"
	  "the pages are one run, as libdxgk hands a driver DXGK_ADL's contiguous\n"
	  "form; else as its page list.  Result: the adl id; also NAME_addr (device\n"
	  "address of the first page) and NAME_pages.", cmd_allocate },
	{ "free", NULL, "ADL", DXGPMO_IOC_FREE_ADL, false,
	  "Free an ADL (DxgkCbFreeAdl).", cmd_free },
	{ "show", NULL, "[ADL]", 0, false,
	  "Show an ADL this session allocated, or all of them, as allocate did.",
	  cmd_show },
	{ }
};

const struct command dma_verbs[] = {
	{ "write", dma_write_opts, "ADAPTER DEVICE_ADDRESS TEXT",
	  DXGPMO_IOC_ADAPTER_DMA, false,
	  "Let the adapter's DMA engine write TEXT to a device address inside one\n"
	  "of this file's ADLs (--raw: anywhere, to provoke IOMMU faults).",
	  cmd_dma_write },
	{ "read", dma_read_opts, "ADAPTER DEVICE_ADDRESS LENGTH",
	  DXGPMO_IOC_ADAPTER_DMA, false,
	  "Let the adapter's DMA engine read LENGTH bytes from a device address\n"
	  "inside one of this file's ADLs (--raw: anywhere).", cmd_dma_read },
	{ }
};
