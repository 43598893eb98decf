/* SPDX-License-Identifier: GPL-2.0 */
/* The module's files under debugfs: dxgpmo/stats, pool, objects. */
#ifndef _DXGPMO_DEBUGFS_H
#define _DXGPMO_DEBUGFS_H

void dxgpmo_debugfs_init(void);
void dxgpmo_debugfs_exit(void);

#endif /* _DXGPMO_DEBUGFS_H */
