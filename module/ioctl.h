/* SPDX-License-Identifier: GPL-2.0 */
/* The ioctl table: /dev/dxgpmo's unlocked_ioctl. */
#ifndef _DXGPMO_IOCTL_H
#define _DXGPMO_IOCTL_H

struct file;

long dxgpmo_fops_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);

#endif /* _DXGPMO_IOCTL_H */
