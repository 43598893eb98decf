// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo: module init/exit, the drivers and devices it registers (edu PCI
 * adapters, generic PCI adapters, virtual adapters, the /dev/dxgpmo misc
 * device, the kernel clients' module notifier) and the lifetime of one open
 * file (one emulated kernel-mode driver instance).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include "arch.h"
#include "client.h"
#include "debugfs.h"
#include "edu.h"
#include "fs.h"
#include "generic_pci.h"
#include "ioctl.h"
#include "object.h"
#include "pool.h"
#include "privilege.h"
#include "quota.h"
#include "segment.h"
#include "virtual.h"
#include "window.h"

static int dxgpmo_fops_open(struct inode *inode, struct file *filp)
{
	struct dxgpmo_file *file;

	filp->f_mapping = dxgpmo_shared_mapping;
	file = dxgpmo_file_alloc(NULL);
	if (!file)
		return -ENOMEM;
	file->mapping = filp->f_mapping;
	dxgpmo_file_note_opener(file);
	filp->private_data = file;
	return 0;
}

static int dxgpmo_fops_release(struct inode *inode, struct file *filp)
{
	dxgpmo_file_destroy(filp->private_data);
	return 0;
}

static const struct file_operations dxgpmo_fops = {
	.owner = THIS_MODULE,
	.open = dxgpmo_fops_open,
	.release = dxgpmo_fops_release,
	.unlocked_ioctl = dxgpmo_fops_ioctl,
	.mmap = dxgpmo_fops_mmap,
	.get_unmapped_area = dxgpmo_segment_get_unmapped_area,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice dxgpmo_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "dxgpmo",
	.fops = &dxgpmo_fops,
	.mode = 0600,
};

static int __init dxgpmo_init(void)
{
	int ret;

	ret = dxgpmo_segment_check_params();
	if (ret)
		return ret;
	ret = dxgpmo_arch_init();
	if (ret)
		return ret;
	ret = dxgpmo_pool_init();
	if (ret)
		goto err_arch;
	ret = dxgpmo_fs_init();
	if (ret)
		goto err_pool;
	ret = dxgpmo_edu_init();
	if (ret)
		goto err_fs;
	ret = dxgpmo_generic_pci_init();
	if (ret)
		goto err_edu;
	ret = dxgpmo_virtual_adapters_init();
	if (ret)
		goto err_generic_pci;
	ret = dxgpmo_clients_init();
	if (ret)
		goto err_virtual;
	ret = misc_register(&dxgpmo_misc);
	if (ret)
		goto err_clients;
	dxgpmo_debugfs_init();
	return 0;

err_clients:
	dxgpmo_clients_exit();
err_virtual:
	dxgpmo_virtual_adapters_exit();
err_generic_pci:
	dxgpmo_generic_pci_exit();
err_edu:
	dxgpmo_edu_exit();
err_fs:
	dxgpmo_fs_exit();
err_pool:
	dxgpmo_pool_exit();
err_arch:
	dxgpmo_arch_exit();
	return ret;
}

static void __exit dxgpmo_exit(void)
{
	dxgpmo_debugfs_exit();
	misc_deregister(&dxgpmo_misc);
	dxgpmo_clients_exit();
	dxgpmo_virtual_adapters_exit();
	dxgpmo_generic_pci_exit();
	dxgpmo_edu_exit();
	dxgpmo_fs_exit();
	dxgpmo_window_exit();
	dxgpmo_quota_exit();
	dxgpmo_pool_exit();
	dxgpmo_arch_exit();
}

module_init(dxgpmo_init);
module_exit(dxgpmo_exit);

MODULE_DESCRIPTION("Windows display-driver physical memory objects on the Linux page allocator and DMA API");
MODULE_LICENSE("GPL");
MODULE_VERSION("0.1");
