/* SPDX-License-Identifier: GPL-2.0 */
/* IO_SPACE objects: a range of a device's BAR. */
#ifndef _DXGPMO_BACKING_IO_H
#define _DXGPMO_BACKING_IO_H

struct dxgpmo_backing_ops;

extern const struct dxgpmo_backing_ops dxgpmo_io_backing_ops;

#endif /* _DXGPMO_BACKING_IO_H */
