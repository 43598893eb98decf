// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk: the errno <-> NTSTATUS table and the per-thread last status
 * every call leaves behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>

#include "libdxgk_internal.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static __thread NTSTATUS last_status;

/* The table of Documentation/porting.rst, in its order. */
static const struct {
	int err;
	NTSTATUS status;
	const char *name;
} status_table[] = {
	{ 0, STATUS_SUCCESS, "STATUS_SUCCESS" },
	{ EINVAL, STATUS_INVALID_PARAMETER, "STATUS_INVALID_PARAMETER" },
	{ ENOMEM, STATUS_NO_MEMORY, "STATUS_NO_MEMORY" },
	{ ENOENT, STATUS_INVALID_HANDLE, "STATUS_INVALID_HANDLE" },
	{ EBUSY, STATUS_INVALID_DEVICE_STATE, "STATUS_INVALID_DEVICE_STATE" },
	{ EOPNOTSUPP, STATUS_NOT_SUPPORTED, "STATUS_NOT_SUPPORTED" },
	{ EACCES, STATUS_ACCESS_DENIED, "STATUS_ACCESS_DENIED" },
	{ EPERM, STATUS_PRIVILEGE_NOT_HELD, "STATUS_PRIVILEGE_NOT_HELD" },
	{ ENOSPC, STATUS_BUFFER_TOO_SMALL, "STATUS_BUFFER_TOO_SMALL" },
	{ E2BIG, STATUS_INVALID_BUFFER_SIZE, "STATUS_INVALID_BUFFER_SIZE" },
	{ EEXIST, STATUS_CONFLICTING_ADDRESSES,
	  "STATUS_CONFLICTING_ADDRESSES" },
	{ ERANGE, STATUS_INVALID_ADDRESS, "STATUS_INVALID_ADDRESS" },
	{ EFAULT, STATUS_ACCESS_VIOLATION, "STATUS_ACCESS_VIOLATION" },
	{ ENODEV, STATUS_NO_SUCH_DEVICE, "STATUS_NO_SUCH_DEVICE" },
	{ EOVERFLOW, STATUS_INTEGER_OVERFLOW, "STATUS_INTEGER_OVERFLOW" },
	{ EINTR, STATUS_CANCELLED, "STATUS_CANCELLED" },
	{ EIO, STATUS_IO_DEVICE_ERROR, "STATUS_IO_DEVICE_ERROR" },
	{ ENOTTY, STATUS_INVALID_DEVICE_REQUEST,
	  "STATUS_INVALID_DEVICE_REQUEST" },
	{ EMFILE, STATUS_TOO_MANY_OPENED_FILES,
	  "STATUS_TOO_MANY_OPENED_FILES" },
	{ EAGAIN, STATUS_INSUFFICIENT_RESOURCES,
	  "STATUS_INSUFFICIENT_RESOURCES" },
	{ -1, STATUS_UNSUCCESSFUL, "STATUS_UNSUCCESSFUL" },
};

NTSTATUS DxgkLinuxNtStatusFromErrno(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	/* Two spellings of one errno on some architectures. */
	if (err == ENOTSUP)
		err = EOPNOTSUPP;
	if (err == ENFILE)
		err = EMFILE;
	for (i = 0; status_table[i].err != -1; i++)
		if (status_table[i].err == err)
			return status_table[i].status;
	return STATUS_UNSUCCESSFUL;
}

int DxgkLinuxErrnoFromNtStatus(NTSTATUS status)
{
	size_t i;

	for (i = 0; status_table[i].err != -1; i++)
		if (status_table[i].status == status)
			return status_table[i].err;
	return NT_SUCCESS(status) ? 0 : EIO;
}

const char *DxgkLinuxNtStatusName(NTSTATUS status)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(status_table); i++)
		if (status_table[i].status == status)
			return status_table[i].name;
	return NULL;
}

NTSTATUS DxgkLinuxGetLastStatus(void)
{
	return last_status;
}

NTSTATUS dxgk_done(NTSTATUS status)
{
	last_status = status;
	return status;
}

NTSTATUS dxgk_done_errno(int err)
{
	return dxgk_done(DxgkLinuxNtStatusFromErrno(err));
}
