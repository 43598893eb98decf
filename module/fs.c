// SPDX-License-Identifier: GPL-2.0
/*
 * The module's internal pseudo-filesystem: the address_space every file's
 * mmap(2) views live in, the inodes of the views kept apart from it (BAR
 * views, read-only segment views) and the files their VMAs hold.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pseudo_fs.h>

#include "fs.h"

/*
 * All files share one address_space, that of a private inode on an
 * internal mount, as DRM does (drm_fs_inode_new): segment windows are
 * shared between files, and re-arming dirty tracking zaps them in one place
 * whichever device node a file was opened through.  Borrowing the inode of
 * the node that was opened first would tie every later mapping to that
 * node's filesystem, which may be a container's /dev, long unmounted.
 */
#define DXGPMO_FS_MAGIC	0x64786770	/* "dxgp" */

static int dxgpmo_fs_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, DXGPMO_FS_MAGIC) ? 0 : -ENOMEM;
}

static struct file_system_type dxgpmo_fs_type = {
	.name = "dxgpmo",
	/* No owner: a mount held from load to unload must not pin us. */
	.init_fs_context = dxgpmo_fs_init_fs_context,
	.kill_sb = kill_anon_super,
};

static struct vfsmount *dxgpmo_fs_mnt;
struct address_space *dxgpmo_shared_mapping;
static struct inode *dxgpmo_mapping_inode;
/* Read-only segment views live apart from the shared mapping (segment.c). */
static struct inode *dxgpmo_readonly_inode;

int dxgpmo_fs_init(void)
{
	dxgpmo_fs_mnt = kern_mount(&dxgpmo_fs_type);
	if (IS_ERR(dxgpmo_fs_mnt))
		return PTR_ERR(dxgpmo_fs_mnt);
	dxgpmo_mapping_inode = alloc_anon_inode(dxgpmo_fs_mnt->mnt_sb);
	if (IS_ERR(dxgpmo_mapping_inode)) {
		kern_unmount(dxgpmo_fs_mnt);
		return PTR_ERR(dxgpmo_mapping_inode);
	}
	dxgpmo_readonly_inode = alloc_anon_inode(dxgpmo_fs_mnt->mnt_sb);
	if (IS_ERR(dxgpmo_readonly_inode)) {
		iput(dxgpmo_mapping_inode);
		kern_unmount(dxgpmo_fs_mnt);
		return PTR_ERR(dxgpmo_readonly_inode);
	}
	dxgpmo_shared_mapping = dxgpmo_mapping_inode->i_mapping;
	return 0;
}

void dxgpmo_fs_exit(void)
{
	iput(dxgpmo_readonly_inode);
	iput(dxgpmo_mapping_inode);
	kern_unmount(dxgpmo_fs_mnt);
}

static const struct file_operations dxgpmo_detached_fops = {
	.owner = THIS_MODULE,
	.llseek = noop_llseek,
};

/* A file of one of the internal inodes, for a VMA to hold. */
static struct file *dxgpmo_pseudo_file(struct inode *inode, const char *name,
				       int flags)
{
	struct file *file;

	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-ENOENT);
	ihold(inode);
	file = alloc_file_pseudo(inode, dxgpmo_fs_mnt, name, flags,
				 &dxgpmo_detached_fops);
	if (IS_ERR(file)) {
		iput(inode);
		module_put(THIS_MODULE);
	}
	return file;
}

/*
 * An address_space of its own (its inode's), for views that must be
 * zapped together apart from the shared one: an adapter's BAR views.
 * Released with iput().
 */
struct inode *dxgpmo_mapping_inode_new(void)
{
	return alloc_anon_inode(dxgpmo_fs_mnt->mnt_sb);
}

/*
 * A file for a VMA to hold whose mapping is not the device file's (a BAR
 * view: its adapter's).  A VMA is unlinked from the mapping of the file it
 * holds when it goes, so the file must be of the mapping it is linked
 * into.
 */
struct file *dxgpmo_mapping_file(struct address_space *mapping)
{
	return dxgpmo_pseudo_file(mapping->host, "dxgpmo-view", O_RDWR);
}

/*
 * A file for a view UNMAP detached to hold instead of the device file, so
 * that the reserved range keeps neither the driver instance nor its
 * objects alive, only the module.  Of the mapping the view is linked into.
 */
struct file *dxgpmo_detached_file(struct address_space *mapping)
{
	return dxgpmo_pseudo_file(mapping->host, "dxgpmo-detached", O_RDWR);
}

/* A file for a read-only segment view: a mapping of its own. */
struct file *dxgpmo_readonly_view_file(void)
{
	return dxgpmo_pseudo_file(dxgpmo_readonly_inode, "dxgpmo-readonly",
				  O_RDONLY);
}
