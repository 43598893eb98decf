/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel clients: the exported API is include/linux/dxgpmo.h; this is what
 * module init and exit call.
 */
#ifndef _DXGPMO_CLIENT_H
#define _DXGPMO_CLIENT_H

int dxgpmo_clients_init(void);
void dxgpmo_clients_exit(void);

#endif /* _DXGPMO_CLIENT_H */
