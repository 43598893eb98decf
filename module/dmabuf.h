/* SPDX-License-Identifier: GPL-2.0 */
/* Objects exported as dma-bufs, for other devices' drivers to import. */
#ifndef _DXGPMO_DMABUF_H
#define _DXGPMO_DMABUF_H

struct dma_buf;
struct dxgpmo_export_dmabuf;
struct dxgpmo_file;

struct dma_buf *dxgpmo_dmabuf_export(struct dxgpmo_file *file,
				     const struct dxgpmo_export_dmabuf *cmd);

#endif /* _DXGPMO_DMABUF_H */
