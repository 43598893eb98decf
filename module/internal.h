/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ioctl handlers, which ioctl.c's table names.  Each lives in the file
 * of its object and has no header of its own; every other function a file
 * shares is in that file's header (X.c: X.h; scripts/headers.sh).  Which
 * file holds what, layer by layer: Documentation/driver-api/dxgpmo.rst,
 * "Layers".
 */
#ifndef _DXGPMO_INTERNAL_H
#define _DXGPMO_INTERNAL_H

struct dxgpmo_ucmd;

/* The ioctl handlers, one file each (see above). */
int dxgpmo_ioctl_stats(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_create_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_destroy_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_open_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_close_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_allocate_adl(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_free_adl(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_adapter_dma(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_map(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_unmap(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_kmap_rw(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_create_memory_basis(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_destroy_memory_basis(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_start_dirty_tracking(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_stop_dirty_tracking(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_query_dirty_bits(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_export_dmabuf(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_query_adapters(struct dxgpmo_ucmd *ucmd);
#ifdef DXGPMO_TEST
int dxgpmo_ioctl_test(struct dxgpmo_ucmd *ucmd);
#else
/* The table's entry without a handler: -ENOTTY (ioctl.c, test.h). */
#define dxgpmo_ioctl_test NULL
#endif

#endif /* _DXGPMO_INTERNAL_H */
