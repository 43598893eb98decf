/* SPDX-License-Identifier: GPL-2.0 */
/* SECTION objects: shmem pages, pageable until a view or an ADL holds them. */
#ifndef _DXGPMO_BACKING_SECTION_H
#define _DXGPMO_BACKING_SECTION_H

struct dxgpmo_backing_ops;

extern const struct dxgpmo_backing_ops dxgpmo_section_backing_ops;

#endif /* _DXGPMO_BACKING_SECTION_H */
