// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl: ADLs, and the adapter DMA engine that reads and writes
 * through them.
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

static const struct cmd_option dma_opts[] = {
	{ "raw", 0, NULL, "any device address (needs CAP_SYS_RAWIO)" },
	{ "expect", 0, "TEXT", "fail unless the bytes read are TEXT" },
	{ }
};

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

static int cmd_free_adl(struct cmd_ctx *ctx)
{
	return one_id(ctx, dxgpmo_free_adl, "freed", "freed adl %u\n");
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

const struct command adl_commands[] = {
	{ "adl", adl_opts, "AMO LENGTH", DXGPMO_IOC_ALLOCATE_ADL, false,
	  "Allocate an ADL (DxgkCbAllocateAdl): map a page range of the AMO's object\n"
	  "for its adapter.  Result: the adl id; also NAME_addr (device address of\n"
	  "the first page) and NAME_pages.", cmd_adl },
	{ "dma", dma_opts, "ADAPTER DEVICE_ADDRESS write TEXT | read LENGTH",
	  DXGPMO_IOC_ADAPTER_DMA, false,
	  "Let the adapter's DMA engine write TEXT to, or read LENGTH bytes from,\n"
	  "a device address inside one of this file's ADLs (--raw: anywhere, to\n"
	  "provoke IOMMU faults).", cmd_dma },
	{ "free-adl", NULL, "ADL", DXGPMO_IOC_FREE_ADL, false,
	  "Free an ADL (DxgkCbFreeAdl).", cmd_free_adl },
	{ }
};
