// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl adapter: the adapters, and PCI devices bound to dxgpmo-pci to
 * make more of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dxgpmoctl.h"

static const struct cmd_option bind_opts[] = {
	{ "force", 0, NULL, "take the device from the driver that holds it" },
	{ }
};

/*
 * list's row of an adapter, or show's lines of it: the same keys and
 * values in JSON, the text laid out as a table row or as one line each.
 */
static void print_adapter(const struct dxgpmo_adapter_info *a, bool lines)
{
	bool virtual = a->caps & DXGPMO_ADAPTER_CAP_VIRTUAL;
	char pci[DXGPMO_PCI_NAME_MAX], vendor[8], device[8];

	open_json_object(NULL);
	print_uint(PRINT_ANY, "id", lines ? "adapter %u" : "%-3u ",
		   a->adapter_id);
	print_string(PRINT_ANY, "name", lines ? " (%s)\n" : "%-10s ", a->name);
	print_uint(PRINT_JSON, "caps", NULL, a->caps);
	print_bool(PRINT_JSON, "virtual", NULL, virtual);
	if (virtual) {
		print_text(lines ? "  virtual: no PCI device\n" : "%-13s %-9s ",
			   "-", "-");
	} else {
		dxgpmo_adapter_pci_name(a, pci, sizeof(pci));
		snprintf(vendor, sizeof(vendor), "%04x", a->pci_vendor);
		snprintf(device, sizeof(device), "%04x", a->pci_device);
		print_string(PRINT_ANY, "pci", lines ? "  pci %s" : "%-13s ",
			     pci);
		print_string(PRINT_ANY, "vendor", lines ? ", %s:" : "%s:",
			     vendor);
		print_string(PRINT_ANY, "device", lines ? "%s\n" : "%-4s ",
			     device);
	}
	print_int(PRINT_JSON, "iommu_group", NULL, a->iommu_group);
	if (a->iommu_group >= 0)
		print_int(PRINT_FP, NULL, lines ? "  iommu group %d" : "%-5d ",
			  a->iommu_group);
	else
		print_text(lines ? "  no iommu group" : "%-5s ", "-");
	print_bool(PRINT_ANY, "iommu", lines ? ", behind an IOMMU: %s\n" :
		   "%-6s ", a->caps & DXGPMO_ADAPTER_CAP_IOMMU);
	print_bool(PRINT_ANY, "dma_engine", lines ? "  dma engine: %s" :
		   "%-7s ", a->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE);
	print_u64(PRINT_ANY, "dma_mask", lines ? ", dma mask 0x%016" PRIx64 "\n" :
		  "0x%016" PRIx64 " ", a->dma_mask);
	print_size("segment_size", lines ? "  segment %s" : "%s\n",
		   a->segment_size);
	if (lines) {
		print_uint(PRINT_ANY, "dirty_page_size",
			   ", dirty-tracking page %u bytes", a->dirty_page_size);
		print_u64(PRINT_ANY, "segment_mmap_offset",
			  ", mmap offset 0x%" PRIx64, a->segment_mmap_offset);
		print_u64(PRINT_ANY, "segment_device_address",
			  ", device address 0x%" PRIx64 "\n",
			  a->segment_device_address);
	}
	close_json_object();
}

int adapter_by_id(uint32_t id, struct dxgpmo_adapter_info *out)
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
		print_adapter(&info[i], false);
	close_json_array();
	return 0;
}

static int cmd_show(struct cmd_ctx *ctx)
{
	struct dxgpmo_adapter_info info;
	uint32_t id;
	int ret;

	if (parse_adapter(ctx, ctx->argv[0], &id))
		return bad_argument(ctx);
	ret = adapter_by_id(id, &info);
	if (ret)
		return report(ctx, ret);
	print_adapter(&info, true);
	return 0;
}

/* The adapter a PCI device became, or 0. */
static uint32_t adapter_of_pci(const char *pci)
{
	struct dxgpmo_adapter_info info;

	if (dev_fd < 0)
		dev_fd = open_dev();
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

const struct command adapter_verbs[] = {
	{ "list", NULL, NULL, DXGPMO_IOC_QUERY_ADAPTERS, false,
	  "List adapters (edu devices, devices bound to dxgpmo-pci, virtual\n"
	  "adapters) with their PCI address, vendor:device and IOMMU group.",
	  cmd_adapters },
	{ "show", NULL, "ADAPTER", DXGPMO_IOC_QUERY_ADAPTERS, false,
	  "Show one adapter (an id or a name): list's columns, and its segment's\n"
	  "dirty-tracking page, mmap offset and device address.", cmd_show },
	{ "bind", bind_opts, "PCI_ADDRESS", 0, true,
	  "Make a PCI device an adapter without a DMA engine: bind it to the\n"
	  "generic driver dxgpmo-pci through driver_override (needs root).  A\n"
	  "device another driver holds is taken only with --force.  Result: the\n"
	  "adapter id.", cmd_bind },
	{ "unbind", NULL, "PCI_ADDRESS", 0, true,
	  "Unbind a device from dxgpmo-pci (revoking its ADLs), clear its\n"
	  "driver_override and let its own driver, if any, take it back.",
	  cmd_unbind },
	{ }
};
