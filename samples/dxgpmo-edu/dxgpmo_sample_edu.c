// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel client of dxgpmo: a PCI driver of QEMU's edu device (1234:11e8)
 * that plays a WDDM driver's memory management through dxgpmo's in-kernel
 * API (include/linux/dxgpmo.h).
 *
 * It binds only where driver_override names it (it has no ID table), so
 * it takes the edu device an administrator hands it, not every one:
 *
 *   echo $dev > /sys/bus/pci/devices/$dev/driver/unbind
 *   echo dxgpmo_sample_edu > /sys/bus/pci/devices/$dev/driver_override
 *   echo $dev > /sys/bus/pci/drivers_probe
 *
 * At probe it replays the sequence (create a PMO with an AMO, allocate an
 * ADL, have the engine write and read the pages at the ADL's addresses,
 * map them for the CPU, unmap, free the ADL, destroy), a dirty-tracking
 * pass over its segment, a dma-buf export, and the faults a driver makes
 * (destroy with a live ADL, a double free, a user-mode map), and writes
 * one line per step to debugfs dxgpmo_sample_edu/<pci name>: "PASS step"
 * or "FAIL step: why".  With leave_open=1 its remove() leaves the client
 * open with objects in it, for dxgpmo to close when the driver lets go of
 * the device.
 */
#include <linux/debugfs.h>
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <linux/qemu_edu.h>

#include <linux/dxgpmo.h>

#define SAMPLE_PAGES		16
#define SAMPLE_RESULTS_SIZE	4096

static bool leave_open;
module_param(leave_open, bool, 0444);
MODULE_PARM_DESC(leave_open,
		 "remove() leaves the client open with live objects (for the unbind test)");

static bool devm_close;
module_param(devm_close, bool, 0444);
MODULE_PARM_DESC(devm_close,
		 "a devres action registered after the open closes the client, not remove()");

struct sample_edu {
	struct pci_dev *pdev;
	void __iomem *regs;
	struct mutex engine_lock;	/* one run at a time */
	void *staging;			/* what the engine copies through */
	dma_addr_t staging_dma;
	struct dxgpmo_client *client;
	struct dentry *results_file;
	size_t results_len;
	char results[SAMPLE_RESULTS_SIZE];
};

static struct dentry *sample_debugfs;

/* buf to device address addr (to_memory) or back, through edu's buffer. */
static int sample_edu_copy(struct sample_edu *edu, bool to_memory, u64 addr,
			   void *buf, size_t len)
{
	int ret;

	if (len > QEMU_EDU_CHUNK)
		return -EINVAL;
	mutex_lock(&edu->engine_lock);
	if (to_memory)
		memcpy(edu->staging, buf, len);
	ret = qemu_edu_dma_bounce(edu->regs, edu->staging_dma, addr, len,
				  to_memory);
	if (!ret && !to_memory)
		memcpy(buf, edu->staging, len);
	mutex_unlock(&edu->engine_lock);
	return ret;
}

/* dxgpmo's segment transfers run on the same engine. */
static int sample_edu_transfer(struct dxgpmo_client *client, bool to_memory,
			       u64 device_address, void *buf, size_t len)
{
	struct sample_edu *edu = dxgpmo_client_priv(client);
	size_t done;
	int ret = 0;

	for (done = 0; done < len && !ret; done += QEMU_EDU_CHUNK)
		ret = sample_edu_copy(edu, to_memory, device_address + done,
				      buf + done, min_t(size_t, len - done,
							QEMU_EDU_CHUNK));
	return ret;
}

static const struct dxgpmo_client_ops sample_edu_client_ops = {
	.transfer = sample_edu_transfer,
};

/* One line of the results: the step passed if ok, else why not. */
static __printf(4, 5) bool sample_report(struct sample_edu *edu,
					 const char *step, bool ok,
					 const char *fmt, ...)
{
	size_t room = sizeof(edu->results) - edu->results_len;
	char *end = edu->results + edu->results_len;
	va_list args;

	if (ok) {
		edu->results_len += scnprintf(end, room, "PASS %s\n", step);
		return true;
	}
	va_start(args, fmt);
	edu->results_len += scnprintf(end, room, "FAIL %s: %pV\n", step,
				      &(struct va_format){ fmt, &args });
	va_end(args);
	dev_err(&edu->pdev->dev, "%s failed\n", step);
	return false;
}

/*
 * The driver's sequence: a PMO opened for its adapter, an ADL, the engine
 * writing page 0 and reading page 1 at the ADL's addresses, the CPU's view
 * of the same pages, then everything given back in order.
 */
static void sample_sequence(struct sample_edu *edu)
{
	struct dxgpmo_client *client = edu->client;
	struct dxgpmo_create_pmo create = {
		.adapter_id = dxgpmo_client_adapter_id(client),
		.type = DXGPMO_PMO_TYPE_MDL,
		.cache_type = DXGPMO_CACHE_CACHED,
		.length = SAMPLE_PAGES * PAGE_SIZE,
	};
	struct dxgpmo_allocate_adl adl = { .length = SAMPLE_PAGES * PAGE_SIZE };
	struct dxgpmo_map map = {
		.access_mode = DXGPMO_ACCESS_KERNEL,
		.offset = 100,
		.length = SAMPLE_PAGES * PAGE_SIZE - 200,
	};
	struct dxgpmo_destroy_pmo destroy = {};
	struct dxgpmo_free_adl free_adl = {};
	struct dxgpmo_unmap unmap = {};
	u8 *pattern, *readback, *view;
	u64 *pages;
	int ret;

	pattern = kmalloc(QEMU_EDU_CHUNK, GFP_KERNEL);
	readback = kmalloc(QEMU_EDU_CHUNK, GFP_KERNEL);
	pages = kcalloc(SAMPLE_PAGES, sizeof(*pages), GFP_KERNEL);
	if (!sample_report(edu, "allocate", pattern && readback && pages,
			   "no memory"))
		goto out_free;
	memset(pattern, 0x5a, QEMU_EDU_CHUNK);

	ret = dxgpmo_client_create_pmo(client, &create);
	if (!sample_report(edu, "create_pmo_with_amo",
			   !ret && create.pmo_id && create.amo_id, "%d", ret))
		goto out_free;
	destroy.pmo_id = create.pmo_id;
	destroy.amo_id = create.amo_id;

	/* Too small an array: the size it needs, and the same block again. */
	adl.amo_id = create.amo_id;
	adl.pages_capacity = 2;
	ret = dxgpmo_client_allocate_adl(client, &adl, pages);
	sample_report(edu, "adl_array_too_small", ret == -ENOSPC &&
		      adl.page_count == SAMPLE_PAGES && !adl.pages,
		      "%d count %llu", ret, adl.page_count);
	/* Outputs go in as zero, as the ioctl's do. */
	adl.page_count = 0;
	adl.pages_capacity = SAMPLE_PAGES;
	ret = dxgpmo_client_allocate_adl(client, &adl, pages);
	if (!sample_report(edu, "allocate_adl_retried",
			   !ret && adl.page_count == SAMPLE_PAGES, "%d", ret))
		goto out_destroy;
	/* Not asked for contiguous: the page array is there, as on Windows. */
	sample_report(edu, "adl_page_array", pages[0] && pages[SAMPLE_PAGES - 1],
		      "page 0 %llx", pages[0]);

	/* The engine writes page 0 at the ADL's address for it. */
	ret = sample_edu_copy(edu, true, pages[0] << PAGE_SHIFT, pattern,
			      QEMU_EDU_CHUNK);
	sample_report(edu, "engine_writes_adl_page", !ret, "%d", ret);

	map.pmo_id = create.pmo_id;
	ret = dxgpmo_client_map(client, &map);
	if (!sample_report(edu, "map_kernel",
			   !ret && map.map_id && map.offset == 100 &&
			   map.length == SAMPLE_PAGES * PAGE_SIZE,
			   "%d offset %llu length %llu", ret, map.offset,
			   map.length))
		goto out_free_adl;
	view = dxgpmo_map_pointer(&map) - map.offset;
	sample_report(edu, "cpu_sees_engine_write",
		      !memcmp(view, pattern, QEMU_EDU_CHUNK), "%*ph", 8, view);

	/* The CPU writes page 1; the engine reads it at the ADL's address. */
	memset(view + PAGE_SIZE, 0xa5, QEMU_EDU_CHUNK);
	ret = sample_edu_copy(edu, false, pages[1] << PAGE_SHIFT, readback,
			      QEMU_EDU_CHUNK);
	sample_report(edu, "engine_sees_cpu_write",
		      !ret && !memchr_inv(readback, 0xa5, QEMU_EDU_CHUNK),
		      "%d %*ph", ret, 8, readback);

	unmap.pmo_id = create.pmo_id;
	unmap.address = map.address;
	unmap.length = map.length;
	ret = dxgpmo_client_unmap(client, &unmap);
	sample_report(edu, "unmap", !ret, "%d", ret);

	/* The driver's fault: destroying what an ADL still maps. */
	ret = dxgpmo_client_destroy_pmo(client, &destroy);
	sample_report(edu, "destroy_with_live_adl_refused", ret == -EBUSY,
		      "%d", ret);

out_free_adl:
	free_adl.adl_id = adl.adl_id;
	ret = dxgpmo_client_free_adl(client, &free_adl);
	sample_report(edu, "free_adl", !ret, "%d", ret);
	ret = dxgpmo_client_free_adl(client, &free_adl);
	sample_report(edu, "double_free_adl_refused", ret == -ENOENT, "%d",
		      ret);
out_destroy:
	ret = dxgpmo_client_destroy_pmo(client, &destroy);
	sample_report(edu, "destroy_pmo_and_amo", !ret, "%d", ret);
out_free:
	kfree(pages);
	kfree(readback);
	kfree(pattern);
}

/*
 * A memory basis over the first MiB of the adapter's segment: the engine
 * writes page 3 of it, and only page 3's bit comes back.
 */
static void sample_dirty_pass(struct sample_edu *edu)
{
	struct dxgpmo_client *client = edu->client;
	struct dxgpmo_memory_range range = { .length = SZ_1M };
	struct dxgpmo_create_memory_basis basis = {
		.adapter_id = dxgpmo_client_adapter_id(client),
		.segment_id = 1,
		.range_count = 1,
	};
	struct dxgpmo_query_dirty_bits query = {
		.flags = DXGPMO_DIRTY_CLEAR_DATA,
	};
	struct dxgpmo_destroy_memory_basis destroy = {};
	struct dxgpmo_dirty_tracking tracking = {};
	u8 bits[SZ_1M / PAGE_SIZE / BITS_PER_BYTE];
	u8 data[64];
	int ret, i;
	bool only_page_3 = true;

	/* A missing array of ranges fails as a user's bad pointer does. */
	ret = dxgpmo_client_create_memory_basis(client, &basis, NULL);
	sample_report(edu, "basis_missing_ranges",
		      ret == -EFAULT && !basis.basis_id, "%d, basis %u", ret,
		      basis.basis_id);

	ret = dxgpmo_client_create_memory_basis(client, &basis, &range);
	if (!sample_report(edu, "create_memory_basis", !ret, "%d", ret))
		return;
	tracking.basis_id = basis.basis_id;
	ret = dxgpmo_client_start_dirty_tracking(client, &tracking);
	if (!sample_report(edu, "start_dirty_tracking", !ret, "%d", ret))
		goto out_destroy;
	memset(data, 0x3c, sizeof(data));
	ret = dxgpmo_client_segment_transfer(client, true, 3 * PAGE_SIZE + 8,
					     data, sizeof(data));
	sample_report(edu, "engine_writes_segment", !ret, "%d", ret);

	query.basis_id = basis.basis_id;
	query.buffer_size = sizeof(bits);
	memset(bits, 0xff, sizeof(bits));
	ret = dxgpmo_client_query_dirty_bits(client, &query, bits);
	for (i = 0; i < sizeof(bits); i++)
		if (bits[i] != (i ? 0 : BIT(3)))
			only_page_3 = false;
	sample_report(edu, "dirty_bit_of_written_page", !ret && only_page_3,
		      "%d %*ph", ret, 4, bits);
	ret = dxgpmo_client_stop_dirty_tracking(client, &tracking);
	sample_report(edu, "stop_dirty_tracking", !ret, "%d", ret);
out_destroy:
	destroy.basis_id = basis.basis_id;
	ret = dxgpmo_client_destroy_memory_basis(client, &destroy);
	sample_report(edu, "destroy_memory_basis", !ret, "%d", ret);
}

/*
 * Another device's BARs are not a driver's to map: an IO_SPACE object of
 * the other edu's registers is refused.
 */
static void sample_io_space(struct sample_edu *edu)
{
	struct dxgpmo_create_pmo create = {
		.type = DXGPMO_PMO_TYPE_IO_SPACE,
		.cache_type = DXGPMO_CACHE_NON_CACHED,
		.length = PAGE_SIZE,
	};
	struct dxgpmo_destroy_pmo destroy = {};
	struct pci_dev *other = NULL;
	int ret;

	while ((other = pci_get_device(edu->pdev->vendor, edu->pdev->device,
				       other)))
		if (other != edu->pdev)
			break;
	if (!sample_report(edu, "other_edu_found", other, "none"))
		return;
	create.io_base = pci_resource_start(other, 0);
	pci_dev_put(other);
	ret = dxgpmo_client_create_pmo(edu->client, &create);
	sample_report(edu, "io_space_refused", ret == -EOPNOTSUPP, "%d", ret);
	if (!ret) {
		destroy.pmo_id = create.pmo_id;
		dxgpmo_client_destroy_pmo(edu->client, &destroy);
	}
}

/* The faults the API refuses, and a dma-buf of a PMO. */
static void sample_refusals(struct sample_edu *edu)
{
	struct dxgpmo_client *client = edu->client;
	struct dxgpmo_create_pmo create = {
		.type = DXGPMO_PMO_TYPE_MDL,
		.cache_type = DXGPMO_CACHE_WRITE_COMBINED,
		.length = 3 * PAGE_SIZE,
	};
	struct dxgpmo_map map = {
		.access_mode = DXGPMO_ACCESS_USER,
		.length = PAGE_SIZE,
	};
	struct dxgpmo_destroy_pmo destroy = {};
	struct dma_buf *dmabuf;
	int ret;

	ret = dxgpmo_client_create_pmo(client, &create);
	if (!sample_report(edu, "create_pmo_write_combined", !ret, "%d", ret))
		return;
	map.pmo_id = create.pmo_id;
	ret = dxgpmo_client_map(client, &map);
	sample_report(edu, "user_mode_map_refused", ret == -EOPNOTSUPP, "%d",
		      ret);
	dmabuf = dxgpmo_client_export_dmabuf(client, create.pmo_id, false);
	sample_report(edu, "export_dmabuf",
		      !IS_ERR(dmabuf) && dmabuf->size == 3 * PAGE_SIZE, "%d",
		      PTR_ERR_OR_ZERO(dmabuf));
	destroy.pmo_id = create.pmo_id;
	ret = dxgpmo_client_destroy_pmo(client, &destroy);
	sample_report(edu, "destroy_exported_pmo", !ret, "%d", ret);
	/* The pages live as long as the dma-buf. */
	if (!IS_ERR(dmabuf))
		dma_buf_put(dmabuf);
	ret = dxgpmo_client_destroy_pmo(client, &destroy);
	sample_report(edu, "double_destroy_refused", ret == -ENOENT, "%d",
		      ret);
}

/*
 * What remove() leaves with leave_open=1: a PMO, its AMO, a view and an
 * ADL, mapped for the device until dxgpmo closes the client.
 */
static void sample_leave_objects(struct sample_edu *edu)
{
	struct dxgpmo_create_pmo create = {
		.adapter_id = dxgpmo_client_adapter_id(edu->client),
		.type = DXGPMO_PMO_TYPE_MDL,
		.cache_type = DXGPMO_CACHE_CACHED,
		.length = 4 * PAGE_SIZE,
	};
	struct dxgpmo_map map = {
		.access_mode = DXGPMO_ACCESS_KERNEL,
		.length = 4 * PAGE_SIZE,
	};
	struct dxgpmo_allocate_adl adl = {
		.length = 4 * PAGE_SIZE,
		.pages_capacity = 4,
	};
	u64 pages[4];
	int ret;

	ret = dxgpmo_client_create_pmo(edu->client, &create);
	if (!sample_report(edu, "leave_objects", !ret, "create %d", ret))
		return;
	map.pmo_id = create.pmo_id;
	ret = dxgpmo_client_map(edu->client, &map);
	if (!sample_report(edu, "leave_objects", !ret, "map %d", ret))
		return;
	adl.amo_id = create.amo_id;
	ret = dxgpmo_client_allocate_adl(edu->client, &adl, pages);
	sample_report(edu, "leave_objects", !ret, "adl %d", ret);
}

static int sample_results_show(struct seq_file *m, void *data)
{
	struct sample_edu *edu = m->private;

	seq_puts(m, edu->results);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sample_results);

static void sample_edu_devm_close(void *data)
{
	dxgpmo_client_close(data);
}

static int sample_edu_probe(struct pci_dev *pdev,
			    const struct pci_device_id *id)
{
	struct sample_edu *edu;
	int ret;

	edu = devm_kzalloc(&pdev->dev, sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	edu->pdev = pdev;
	mutex_init(&edu->engine_lock);
	edu->regs = qemu_edu_pcim_map(pdev);
	if (IS_ERR(edu->regs))
		return PTR_ERR(edu->regs);
	edu->staging = dmam_alloc_coherent(&pdev->dev, QEMU_EDU_CHUNK,
					   &edu->staging_dma, GFP_KERNEL);
	if (!edu->staging)
		return -ENOMEM;

	edu->client = dxgpmo_client_open(&pdev->dev, &sample_edu_client_ops,
					 edu);
	if (IS_ERR(edu->client))
		return PTR_ERR(edu->client);
	/* Registered after the open, it runs before dxgpmo's own entry. */
	if (devm_close) {
		ret = devm_add_action_or_reset(&pdev->dev,
					       sample_edu_devm_close,
					       edu->client);
		if (ret)
			return ret;
	}
	pci_set_drvdata(pdev, edu);

	sample_sequence(edu);
	sample_dirty_pass(edu);
	sample_refusals(edu);
	sample_io_space(edu);
	if (leave_open)
		sample_leave_objects(edu);
	edu->results_file = debugfs_create_file(pci_name(pdev), 0400,
						sample_debugfs, edu,
						&sample_results_fops);
	dev_info(&pdev->dev, "dxgpmo client %u: sample run done\n",
		 dxgpmo_client_adapter_id(edu->client));
	return 0;
}

static void sample_edu_remove(struct pci_dev *pdev)
{
	struct sample_edu *edu = pci_get_drvdata(pdev);

	debugfs_remove(edu->results_file);
	if (!leave_open && !devm_close)
		dxgpmo_client_close(edu->client);
	/* Else dxgpmo closes it once this driver has let go of the device. */
}

static struct pci_driver sample_edu_driver = {
	.name = "dxgpmo_sample_edu",
	/* No IDs: only devices whose driver_override names it. */
	.probe = sample_edu_probe,
	.remove = sample_edu_remove,
};

static int __init sample_edu_init(void)
{
	int ret;

	sample_debugfs = debugfs_create_dir("dxgpmo_sample_edu", NULL);
	ret = pci_register_driver(&sample_edu_driver);
	if (ret)
		debugfs_remove(sample_debugfs);
	return ret;
}

static void __exit sample_edu_exit(void)
{
	pci_unregister_driver(&sample_edu_driver);
	debugfs_remove(sample_debugfs);
}

module_init(sample_edu_init);
module_exit(sample_edu_exit);

MODULE_DESCRIPTION("dxgpmo kernel-client sample: a WDDM driver's memory sequence on QEMU's edu");
MODULE_LICENSE("GPL");
DXGPMO_IMPORT_NS();
/* MODULE_IMPORT_NS(DMA_BUF) on 6.1-6.12, ("DMA_BUF") since: the same. */
MODULE_INFO(import_ns, "DMA_BUF");
