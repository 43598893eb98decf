// SPDX-License-Identifier: GPL-2.0
/*
 * NTSTATUS in the kernel, for the Windows-named interface drivers port
 * their memory code to: the errno table of dxgk_types.h, expanded as
 * libdxgk expands it, so that a call answers the same status from either
 * world.
 */
#include <linux/errno.h>
#include <linux/kernel.h>

#include "dxgk_types.h"
#include "ntstatus.h"

struct dxgpmo_ntstatus_row {
	int err;
	NTSTATUS status;
};

static const struct dxgpmo_ntstatus_row dxgpmo_ntstatus_table[] = {
#define DXGPMO_NTSTATUS_ROW(errno_value, status) { errno_value, status },
	DXGK_STATUS_ERRNO_TABLE(DXGPMO_NTSTATUS_ROW)
#undef DXGPMO_NTSTATUS_ROW
};

/* Any other errno, the kernel's own ENOTSUPP too, is STATUS_UNSUCCESSFUL. */
NTSTATUS dxgpmo_ntstatus_from_errno(int err)
{
	unsigned int i;

	if (err < 0)
		err = -err;
	for (i = 0; i < ARRAY_SIZE(dxgpmo_ntstatus_table); i++)
		if (dxgpmo_ntstatus_table[i].err == err)
			return dxgpmo_ntstatus_table[i].status;
	return STATUS_UNSUCCESSFUL;
}

/*
 * A status a driver answers, as the negative errno the command returns:
 * 0 for a success or information, -EIO for a warning or an error the
 * table lacks.
 */
int dxgpmo_errno_from_ntstatus(NTSTATUS status)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dxgpmo_ntstatus_table); i++)
		if (dxgpmo_ntstatus_table[i].status == status)
			return -dxgpmo_ntstatus_table[i].err;
	return NT_SUCCESS(status) ? 0 : -EIO;
}
