// SPDX-License-Identifier: GPL-2.0
/*
 * The Linux glue of a Windows display driver's memory code
 * (kmd_memory.c), on QEMU's edu device: probe and remove, Dxgkrnl's
 * interface started for the device with the driver's memory-basis DDIs
 * (<linux/dxgkrnl.h>), the WDK services the memory code uses, the edu
 * engine, and debugfs.
 *
 * It binds only where driver_override names it (no ID table):
 *
 *   echo dxgkrnl_sample_edu > /sys/bus/pci/devices/$dev/driver_override
 *
 * debugfs dxgkrnl_sample_edu-<pci name>/ has "results" (one line per step
 * of the sequence probe ran: "PASS step" or "FAIL step: status"),
 * "adapter" (the adapter id user space names the device by, for the
 * memory-basis ioctls) and "vram" (the VRAM: a write is the engine's,
 * at most a page at a time, and the DDIs see it; a read is the CPU's).
 */
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <linux/dxgpmo.h>
#include <linux/qemu_edu.h>

#include "kmd.h"

#define KMD_RESULTS_SIZE	4096

/*
 * Where the interface stops: in remove() (as a driver does), from a
 * devres action registered after the start, or nowhere (a driver's bug,
 * which dxgpmo warns of and mends when the device is let go of).
 */
static char *stop = "remove";
module_param(stop, charp, 0444);
MODULE_PARM_DESC(stop, "where the interface stops: remove, devm or none");

struct kmd_edu {
	KMD_ADAPTER adapter;		/* the memory code's */
	struct pci_dev *pdev;
	void __iomem *regs;
	struct mutex lock;		/* KmdLock(), and the one engine */
	struct dentry *dir;
	size_t results_len;
	char results[KMD_RESULTS_SIZE];
};

static struct kmd_edu *kmd_edu_of(KMD_ADAPTER *adapter)
{
	return container_of(adapter, struct kmd_edu, adapter);
}

PVOID ExAllocatePool2(UINT64 Flags, SIZE_T NumberOfBytes, ULONG Tag)
{
	return kzalloc(NumberOfBytes, GFP_KERNEL);
}

void ExFreePool(PVOID P)
{
	kfree(P);
}

void RtlCopyMemory(PVOID Destination, const void *Source, SIZE_T Length)
{
	memcpy(Destination, Source, Length);
}

void RtlZeroMemory(PVOID Destination, SIZE_T Length)
{
	memset(Destination, 0, Length);
}

void KmdLock(KMD_ADAPTER *Adapter)
{
	mutex_lock(&kmd_edu_of(Adapter)->lock);
}

void KmdUnlock(KMD_ADAPTER *Adapter)
{
	mutex_unlock(&kmd_edu_of(Adapter)->lock);
}

/*
 * edu copies RAM to RAM through its buffer, half of it a run; the caller
 * holds KmdLock().
 */
NTSTATUS KmdEngineCopy(KMD_ADAPTER *Adapter, UINT64 Source, UINT64 Destination,
		       ULONG Length)
{
	struct kmd_edu *edu = kmd_edu_of(Adapter);
	ULONG done, run;

	for (done = 0; done < Length; done += run) {
		run = min_t(ULONG, Length - done, QEMU_EDU_CHUNK);
		if (qemu_edu_dma_bounce(edu->regs, Source + done,
					Destination + done, run, true))
			return STATUS_IO_DEVICE_ERROR;
	}
	return STATUS_SUCCESS;
}

void KmdReport(KMD_ADAPTER *Adapter, const char *Step, BOOLEAN Passed,
	       NTSTATUS Status)
{
	struct kmd_edu *edu = kmd_edu_of(Adapter);

	if (Passed)
		edu->results_len += scnprintf(edu->results + edu->results_len,
					      sizeof(edu->results) -
					      edu->results_len, "PASS %s\n",
					      Step);
	else
		edu->results_len += scnprintf(edu->results + edu->results_len,
					      sizeof(edu->results) -
					      edu->results_len,
					      "FAIL %s: status %#x\n", Step,
					      Status);
}

static ssize_t kmd_results_read(struct file *f, char __user *buf,
				size_t len, loff_t *pos)
{
	struct kmd_edu *edu = file_inode(f)->i_private;

	return simple_read_from_buffer(buf, len, pos, edu->results,
				       edu->results_len);
}

static const struct file_operations kmd_results_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = kmd_results_read,
};

static ssize_t kmd_vram_read(struct file *f, char __user *buf, size_t len,
			     loff_t *pos)
{
	struct kmd_edu *edu = file_inode(f)->i_private;
	const size_t size = KMD_VRAM_PAGES * KMD_PAGE_SIZE;
	void *bytes;
	ssize_t ret;

	if (*pos >= size)
		return 0;
	len = min_t(size_t, len, size - *pos);
	bytes = kvmalloc(len, GFP_KERNEL);
	if (!bytes)
		return -ENOMEM;
	ret = -EIO;
	if (NT_SUCCESS(KmdVramRead(&edu->adapter, *pos, bytes, len)))
		ret = len - copy_to_user(buf, bytes, len);
	if (ret > 0)
		*pos += ret;
	else if (!ret)
		ret = -EFAULT;
	kvfree(bytes);
	return ret;
}

/* The engine writes what user space wrote, a page at a time. */
static ssize_t kmd_vram_write(struct file *f, const char __user *buf,
			      size_t len, loff_t *pos)
{
	struct kmd_edu *edu = file_inode(f)->i_private;
	size_t done = 0, chunk;
	void *page;
	int ret = 0;

	page = kmalloc(KMD_PAGE_SIZE, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	while (done < len) {
		chunk = min_t(size_t, len - done,
			      KMD_PAGE_SIZE - (*pos + done) % KMD_PAGE_SIZE);
		if (copy_from_user(page, buf + done, chunk)) {
			ret = -EFAULT;
			break;
		}
		if (!NT_SUCCESS(KmdVramWrite(&edu->adapter, *pos + done, page,
					     chunk))) {
			ret = -EINVAL;
			break;
		}
		done += chunk;
	}
	kfree(page);
	*pos += done;
	return done ? done : ret;
}

static const struct file_operations kmd_vram_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = kmd_vram_read,
	.write = kmd_vram_write,
	.llseek = default_llseek,
};

static int kmd_adapter_show(struct seq_file *s, void *unused)
{
	struct kmd_edu *edu = s->private;

	seq_printf(s, "%u\n", dxgkrnl_adapter_id(&edu->adapter.DxgkInterface));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kmd_adapter);

static void kmd_devm_stop(void *data)
{
	struct kmd_edu *edu = data;

	KmdStopVram(&edu->adapter);
	dxgkrnl_stop_device(&edu->adapter.DxgkInterface);
}

static int kmd_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct dxgkrnl_start_info info = {
		.memory_basis_ddis = &KmdMemoryBasisDdis,
		.segments = KmdSegments,
		.nr_segments = ARRAY_SIZE(KmdSegments),
	};
	struct kmd_edu *edu;
	char name[64];
	int ret;

	/* The memory code's pages are Windows' 4 KiB, the ADLs' too. */
	BUILD_BUG_ON(KMD_PAGE_SIZE != PAGE_SIZE);
	edu = devm_kzalloc(&pdev->dev, sizeof(*edu), GFP_KERNEL);
	if (!edu)
		return -ENOMEM;
	edu->pdev = pdev;
	mutex_init(&edu->lock);
	edu->regs = qemu_edu_pcim_map(pdev);
	if (IS_ERR(edu->regs))
		return PTR_ERR(edu->regs);

	info.miniport_device_context = &edu->adapter;
	ret = dxgkrnl_start_device(&pdev->dev, &info,
				   &edu->adapter.DxgkInterface);
	if (ret)
		return ret;
	if (!strcmp(stop, "devm")) {
		ret = devm_add_action_or_reset(&pdev->dev, kmd_devm_stop, edu);
		if (ret)
			return ret;
	}
	pci_set_drvdata(pdev, edu);
	KmdRunSequence(&edu->adapter);
	if (!NT_SUCCESS(KmdStartVram(&edu->adapter))) {
		KmdStopVram(&edu->adapter);
		dxgkrnl_stop_device(&edu->adapter.DxgkInterface);
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "dxgkrnl_sample_edu-%s", pci_name(pdev));
	edu->dir = debugfs_create_dir(name, NULL);
	debugfs_create_file("results", 0400, edu->dir, edu, &kmd_results_fops);
	debugfs_create_file("adapter", 0400, edu->dir, edu, &kmd_adapter_fops);
	debugfs_create_file("vram", 0600, edu->dir, edu, &kmd_vram_fops);
	return 0;
}

static void kmd_remove(struct pci_dev *pdev)
{
	struct kmd_edu *edu = pci_get_drvdata(pdev);

	debugfs_remove(edu->dir);
	if (strcmp(stop, "remove"))
		return;
	KmdStopVram(&edu->adapter);
	dxgkrnl_stop_device(&edu->adapter.DxgkInterface);
}

static struct pci_driver kmd_driver = {
	.name = "dxgkrnl_sample_edu",
	/* No IDs: only devices whose driver_override names it. */
	.probe = kmd_probe,
	.remove = kmd_remove,
};

module_pci_driver(kmd_driver);

MODULE_DESCRIPTION("A Windows display driver's memory code on Dxgkrnl's interface, on QEMU's edu");
MODULE_LICENSE("GPL");
DXGPMO_IMPORT_NS();
