/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One call of a command and the replies every command shares.  They are
 * inline here, below every file with a command, so that answering a call
 * never calls back up into the front end that dispatched it (iommufd keeps
 * iommufd_ucmd_respond() in its private header for the same reason).
 */
#ifndef _DXGPMO_UCMD_H
#define _DXGPMO_UCMD_H

#include <linux/compiler_types.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>

struct dxgpmo_file;
struct file;

/**
 * struct dxgpmo_ucmd - one call of a command (internal.h)
 * @file: the driver instance the call is made on
 * @filp: its open file; NULL for a kernel client
 * @ubuffer: the ioctl's parameter block in user memory
 * @kbuffer: a kernel client's own parameter block; set only by the ioctl
 *	table's kernel door (dxgpmo_ioctl_kernel()), for a kernel client's
 *	file, never from anything user space passes.  With it, the addresses
 *	of the arrays a command reads or fills are kernel addresses.
 * @user_size: the size the caller was built with (the block's size field)
 * @cmd: the parameter block, copied in, which the command answers in
 *
 * Where a call's block goes back to is the front end's business; the
 * command only calls dxgpmo_ucmd_respond() and the copy helpers.
 */
struct dxgpmo_ucmd {
	struct dxgpmo_file *file;
	struct file *filp;
	void __user *ubuffer;
	void *kbuffer;
	u32 user_size;
	void *cmd;
};

/* The parameter block back to the caller, as much as it was built with. */
static inline int dxgpmo_ucmd_respond(struct dxgpmo_ucmd *ucmd,
				      size_t cmd_len)
{
	size_t len = min_t(size_t, ucmd->user_size, cmd_len);

	if (ucmd->kbuffer) {
		memcpy(ucmd->kbuffer, ucmd->cmd, len);
		return 0;
	}
	return copy_to_user(ucmd->ubuffer, ucmd->cmd, len) ? -EFAULT : 0;
}

/* The arrays beyond a parameter block: see struct dxgpmo_ucmd. */
static inline int dxgpmo_ucmd_copy_to(struct dxgpmo_ucmd *ucmd, u64 dst,
				      const void *src, size_t len)
{
	if (ucmd->kbuffer) {
		/* A kernel caller's missing array fails as a user's would. */
		if (!dst && len)
			return -EFAULT;
		memcpy((void *)(uintptr_t)dst, src, len);
		return 0;
	}
	return copy_to_user(u64_to_user_ptr(dst), src, len) ? -EFAULT : 0;
}

static inline int dxgpmo_ucmd_copy_from(struct dxgpmo_ucmd *ucmd, void *dst,
					u64 src, size_t len)
{
	if (ucmd->kbuffer) {
		if (!src && len)
			return -EFAULT;
		memcpy(dst, (const void *)(uintptr_t)src, len);
		return 0;
	}
	return copy_from_user(dst, u64_to_user_ptr(src), len) ? -EFAULT : 0;
}

#endif /* _DXGPMO_UCMD_H */
