/* SPDX-License-Identifier: GPL-2.0 */
/* An adapter's engine on its own segment (adapter_dma.c). */
#ifndef _DXGPMO_ADAPTER_DMA_H
#define _DXGPMO_ADAPTER_DMA_H

#include <linux/types.h>

struct dxgpmo_adapter;

int dxgpmo_adapter_segment_dma(struct dxgpmo_adapter *adapter, bool to_memory,
			       u64 offset, void *buf, size_t len);

#endif /* _DXGPMO_ADAPTER_DMA_H */
