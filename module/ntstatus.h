/* SPDX-License-Identifier: GPL-2.0 */
/* NTSTATUS <-> errno for the kernel's Windows-named interface. */
#ifndef _DXGPMO_NTSTATUS_H
#define _DXGPMO_NTSTATUS_H

#include "dxgk_types.h"

NTSTATUS dxgpmo_ntstatus_from_errno(int err);
int dxgpmo_errno_from_ntstatus(NTSTATUS status);

#endif /* _DXGPMO_NTSTATUS_H */
