/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel clients: the exported API is include/linux/dxgpmo.h; this is what
 * module init and exit call, and the first step of a close, which
 * dxgkrnl.c takes apart from the rest.
 */
#ifndef _DXGPMO_CLIENT_H
#define _DXGPMO_CLIENT_H

#include <linux/types.h>

struct dxgpmo_client;

int dxgpmo_clients_init(void);
void dxgpmo_clients_exit(void);
void dxgpmo_kernel_client_quiesce(struct dxgpmo_client *client);
void dxgpmo_kernel_client_set_handle_base(struct dxgpmo_client *client, u64 base);

#endif /* _DXGPMO_CLIENT_H */
