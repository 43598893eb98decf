/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's internal mount: the address_space every view is linked
 * into, and the files views are made of.
 */
#ifndef _DXGPMO_FS_H
#define _DXGPMO_FS_H

struct address_space;
struct file;
struct inode;

extern struct address_space *dxgpmo_shared_mapping;
int dxgpmo_fs_init(void);
void dxgpmo_fs_exit(void);
struct inode *dxgpmo_mapping_inode_new(void);
struct file *dxgpmo_mapping_file(struct address_space *mapping);
struct file *dxgpmo_detached_file(struct address_space *mapping);
struct file *dxgpmo_readonly_view_file(void);

#endif /* _DXGPMO_FS_H */
