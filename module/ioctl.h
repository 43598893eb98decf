/* SPDX-License-Identifier: GPL-2.0 */
/* The ioctl table: /dev/dxgpmo's unlocked_ioctl, and kernel clients' door. */
#ifndef _DXGPMO_IOCTL_H
#define _DXGPMO_IOCTL_H

#include <linux/types.h>

struct dxgpmo_file;
struct file;

long dxgpmo_fops_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
int dxgpmo_ioctl_kernel(struct dxgpmo_file *file, unsigned int ioctl_num,
			void *args, size_t size, const void *array);

#endif /* _DXGPMO_IOCTL_H */
