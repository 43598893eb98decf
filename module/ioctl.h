/* SPDX-License-Identifier: GPL-2.0 */
/* The ioctl table and the replies every handler shares. */
#ifndef _DXGPMO_IOCTL_H
#define _DXGPMO_IOCTL_H

#include <linux/compiler_types.h>
#include <linux/types.h>

struct dxgpmo_file;
struct dxgpmo_object;
struct file;

/* One ioctl call: its argument, copied in, and where it goes back to. */
struct dxgpmo_ucmd {
	struct dxgpmo_file *file;
	struct file *filp;
	void __user *ubuffer;
	u32 user_size;
	void *cmd;
};

long dxgpmo_fops_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
int dxgpmo_ucmd_respond(struct dxgpmo_ucmd *ucmd, size_t cmd_len);
int dxgpmo_ucmd_respond_finalize(struct dxgpmo_ucmd *ucmd, size_t cmd_len,
				 struct dxgpmo_object *obj);
int dxgpmo_ucmd_respond_finalize_pair(struct dxgpmo_ucmd *ucmd,
				      size_t cmd_len,
				      struct dxgpmo_object *obj,
				      struct dxgpmo_object *child);

#endif /* _DXGPMO_IOCTL_H */
