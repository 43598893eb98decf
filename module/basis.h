/* SPDX-License-Identifier: GPL-2.0 */
/* Memory bases (DxgkDdiCreateMemoryBasis) and dirty-bit tracking. */
#ifndef _DXGPMO_BASIS_H
#define _DXGPMO_BASIS_H

#include <linux/types.h>

struct dxgpmo_segment;

/* The bits of every tracked basis on the segment. */
void dxgpmo_basis_mark_dirty(struct dxgpmo_segment *segment, u64 offset,
			     u64 length);

#endif /* _DXGPMO_BASIS_H */
