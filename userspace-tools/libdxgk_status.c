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

/* dxgk_types.h's table, each status with its name as written. */
#define ROW(err, status) { err, status, #status },
static const struct {
	int err;
	NTSTATUS status;
	const char *name;
} status_table[] = {
	DXGK_STATUS_ERRNO_TABLE(ROW)
	{ -1, STATUS_UNSUCCESSFUL, "STATUS_UNSUCCESSFUL" },
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
