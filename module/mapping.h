/* SPDX-License-Identifier: GPL-2.0 */
/* CPU mappings of objects made by MAP, user or kernel. */
#ifndef _DXGPMO_MAPPING_H
#define _DXGPMO_MAPPING_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "backing.h"
#include "object.h"

struct dxgpmo_pmo;
struct mm_struct;

/* A CPU mapping made by MAP. */
struct dxgpmo_cpu_map {
	struct dxgpmo_object obj;
	struct list_head pmo_node;	/* under the PMO's lock */
	struct dxgpmo_pmo *pmo;		/* referenced */
	u32 access_mode;
	u64 address;			/* user VA, or the kernel token */
	u64 length;
	u64 view_offset;		/* page-aligned offset in the object */
	struct mm_struct *mm;		/* user: the owner (mmgrab'd) */
	struct dxgpmo_kview kview;	/* kernel */
};

static_assert(offsetof(struct dxgpmo_cpu_map, obj) == 0);

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
void dxgpmo_map_view(u64 offset, u64 length, u64 *view_offset,
		     u64 *view_length);
#endif

static inline struct dxgpmo_cpu_map *dxgpmo_map_get(struct dxgpmo_file *file,
						    u32 id)
{
	return dxgpmo_container_of_err(dxgpmo_object_get(file, id, DXGPMO_OBJ_MAP),
				 struct dxgpmo_cpu_map, obj);
}

#endif /* _DXGPMO_MAPPING_H */
