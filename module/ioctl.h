/* SPDX-License-Identifier: GPL-2.0 */
/* The ioctl table and the replies every handler shares. */
#ifndef _DXGPMO_IOCTL_H
#define _DXGPMO_IOCTL_H

#include <linux/compiler_types.h>
#include <linux/types.h>

struct dxgpmo_file;
struct dxgpmo_object;
struct file;

/*
 * One call of a command (internal.h): its parameter block, copied in, and
 * where it goes back to: the ioctl's user buffer, or for a kernel client
 * (client.c) the caller's own block.  kbuffer is set by client.c alone,
 * never from anything user space passes; with it, the addresses of the
 * arrays a command reads or fills are kernel addresses.
 */
struct dxgpmo_ucmd {
	struct dxgpmo_file *file;
	struct file *filp;		/* NULL for a kernel client */
	void __user *ubuffer;
	void *kbuffer;
	u32 user_size;
	void *cmd;
};

long dxgpmo_fops_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
int dxgpmo_ucmd_respond(struct dxgpmo_ucmd *ucmd, size_t cmd_len);
int dxgpmo_ucmd_copy_to(struct dxgpmo_ucmd *ucmd, u64 dst, const void *src,
			size_t len);
int dxgpmo_ucmd_copy_from(struct dxgpmo_ucmd *ucmd, void *dst, u64 src,
			  size_t len);
int dxgpmo_ucmd_respond_finalize(struct dxgpmo_ucmd *ucmd, size_t cmd_len,
				 struct dxgpmo_object *obj);
int dxgpmo_ucmd_respond_finalize_pair(struct dxgpmo_ucmd *ucmd,
				      size_t cmd_len,
				      struct dxgpmo_object *obj,
				      struct dxgpmo_object *child);

#endif /* _DXGPMO_IOCTL_H */
