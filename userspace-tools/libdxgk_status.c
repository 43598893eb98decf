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

/*
 * The table of Documentation/porting.rst, in its order; each status with
 * its name as written.
 */
#define ROW(err, status) { err, status, #status }
static const struct {
	int err;
	NTSTATUS status;
	const char *name;
} status_table[] = {
	ROW(0, STATUS_SUCCESS),
	ROW(EINVAL, STATUS_INVALID_PARAMETER),
	ROW(ENOMEM, STATUS_NO_MEMORY),
	ROW(ENOENT, STATUS_INVALID_HANDLE),
	ROW(EBUSY, STATUS_INVALID_DEVICE_STATE),
	ROW(EOPNOTSUPP, STATUS_NOT_SUPPORTED),
	ROW(EACCES, STATUS_ACCESS_DENIED),
	ROW(EPERM, STATUS_PRIVILEGE_NOT_HELD),
	ROW(ENOSPC, STATUS_BUFFER_TOO_SMALL),
	ROW(E2BIG, STATUS_INVALID_BUFFER_SIZE),
	ROW(EEXIST, STATUS_CONFLICTING_ADDRESSES),
	ROW(ERANGE, STATUS_INVALID_ADDRESS),
	ROW(EFAULT, STATUS_ACCESS_VIOLATION),
	ROW(ENODEV, STATUS_NO_SUCH_DEVICE),
	ROW(EOVERFLOW, STATUS_INTEGER_OVERFLOW),
	ROW(EINTR, STATUS_CANCELLED),
	ROW(EIO, STATUS_IO_DEVICE_ERROR),
	ROW(ENOTTY, STATUS_INVALID_DEVICE_REQUEST),
	ROW(EMFILE, STATUS_TOO_MANY_OPENED_FILES),
	ROW(EAGAIN, STATUS_INSUFFICIENT_RESOURCES),
	ROW(-1, STATUS_UNSUCCESSFUL),
};

#undef ROW

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
