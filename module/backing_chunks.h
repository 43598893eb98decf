/* SPDX-License-Identifier: GPL-2.0 */
/* MDL and CONTIGUOUS objects: pages from the page allocator or the pool. */
#ifndef _DXGPMO_BACKING_CHUNKS_H
#define _DXGPMO_BACKING_CHUNKS_H

struct dxgpmo_backing_ops;

extern const struct dxgpmo_backing_ops dxgpmo_mdl_backing_ops;
extern const struct dxgpmo_backing_ops dxgpmo_contiguous_backing_ops;

#endif /* _DXGPMO_BACKING_CHUNKS_H */
