/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands: one function an operation of the contract, which takes its
 * parameter block in kernel memory (struct dxgpmo_ucmd) and answers in it.
 * Both front ends reach them through ioctl.c's table: its ioctl for user
 * space, its kernel door for client.c's kernel drivers.  Each lives in the
 * file of its object and has no header of its own; every other function a
 * file shares is in that file's header (X.c: X.h; scripts/headers.sh).
 * Which file holds what, layer by layer: Documentation/driver-api/dxgpmo.rst,
 * "Layers".
 */
#ifndef _DXGPMO_INTERNAL_H
#define _DXGPMO_INTERNAL_H

struct dxgpmo_ucmd;

/* The commands, one file each (see above). */
int dxgpmo_cmd_stats(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_create_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_destroy_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_open_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_close_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_allocate_adl(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_free_adl(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_adapter_dma(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_map(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_unmap(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_kmap_rw(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_create_memory_basis(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_destroy_memory_basis(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_start_dirty_tracking(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_stop_dirty_tracking(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_query_dirty_bits(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_export_dmabuf(struct dxgpmo_ucmd *ucmd);
int dxgpmo_cmd_query_adapters(struct dxgpmo_ucmd *ucmd);
#ifdef DXGPMO_TEST
int dxgpmo_cmd_test(struct dxgpmo_ucmd *ucmd);
#else
/* The table's entry without a handler: -ENOTTY (ioctl.c, test.h). */
#define dxgpmo_cmd_test NULL
#endif

#endif /* _DXGPMO_INTERNAL_H */
