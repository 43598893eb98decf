/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mmap(2) windows of objects in the device file's offset space.
 */
#ifndef _DXGPMO_WINDOW_H
#define _DXGPMO_WINDOW_H

#include <linux/kref.h>
#include <linux/mm_types.h>
#include <linux/rbtree.h>
#include <linux/rwsem.h>
#include <linux/types.h>

struct dxgpmo_backing;
struct dxgpmo_file;
struct dxgpmo_window_offsets;
struct file;
struct vm_area_struct;

/*
 * The mmap window of a PMO.  VMAs hold references; DESTROY revokes it (PTEs
 * zapped, later faults SIGBUS) so no mapping outlives the object's handle.
 */
struct dxgpmo_window {
	struct kref kref;
	struct rw_semaphore lock;	/* faults (read) vs revoke (write) */
	bool revoked;
	struct dxgpmo_backing *backing;
	struct address_space *mapping;
	unsigned long pgoff;		/* first page in the mmap space */
	unsigned long nr_pages;
	struct dxgpmo_window_offsets *offsets;	/* pgoff, nr_pages held */
	struct rb_node node;		/* in the file's windows until revoked */
};

extern const struct vm_operations_struct dxgpmo_vm_ops;
void dxgpmo_window_exit(void);
struct dxgpmo_window *dxgpmo_window_create(struct dxgpmo_file *file,
					   struct dxgpmo_backing *backing);
void dxgpmo_window_revoke(struct dxgpmo_file *file,
			  struct dxgpmo_window *window);
int dxgpmo_fops_mmap(struct file *filp, struct vm_area_struct *vma);
int dxgpmo_window_detach_view(struct dxgpmo_window *window,
			      unsigned long address, unsigned long length,
			      unsigned long view_first, struct file *detached);

#endif /* _DXGPMO_WINDOW_H */
