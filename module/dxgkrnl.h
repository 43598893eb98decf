/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dxgkrnl's memory interface (include/linux/dxgkrnl.h): the exported API
 * is there; this is what the KUnit suite reaches.
 */
#ifndef _DXGPMO_DXGKRNL_H
#define _DXGPMO_DXGKRNL_H

#include <linux/types.h>

#include <linux/dxgkrnl.h>

struct dxgkrnl_iface;

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
NTSTATUS dxgkrnl_status(int err);
int dxgkrnl_errno(NTSTATUS status);
HANDLE dxgkrnl_make_handle(u32 iface_id, u32 object_id);
struct dxgkrnl_iface *dxgkrnl_iface_get(HANDLE handle, u32 *object_id);
void dxgkrnl_iface_put(struct dxgkrnl_iface *iface);
void dxgkrnl_fill_interface(DXGKRNL_INTERFACE *iface, u32 iface_id);
#endif

#endif /* _DXGPMO_DXGKRNL_H */
