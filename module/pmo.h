/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Physical memory objects and the adapter memory objects that tie one to
 * an adapter.
 */
#ifndef _DXGPMO_PMO_H
#define _DXGPMO_PMO_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "object.h"

struct dxgpmo_adapter;
struct dxgpmo_amo;
struct dxgpmo_backing;
struct dxgpmo_window;

struct dxgpmo_pmo {
	struct dxgpmo_object obj;
	struct dxgpmo_backing *backing;
	struct dxgpmo_window *window;
	u64 length;
	u64 context;
	u64 mmap_offset;
	spinlock_t lock;		/* amo, maps */
	struct dxgpmo_amo *amo;		/* the one adapter association */
	struct list_head maps;
};

struct dxgpmo_amo {
	struct dxgpmo_object obj;
	struct dxgpmo_pmo *pmo;		/* referenced */
	struct dxgpmo_adapter *adapter;	/* referenced */
};

static_assert(offsetof(struct dxgpmo_pmo, obj) == 0);
static_assert(offsetof(struct dxgpmo_amo, obj) == 0);

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
struct dxgpmo_alloc_request;
struct dxgpmo_create_pmo;

bool dxgpmo_window_holds(u64 low, u64 high, u64 nr_pages);
int dxgpmo_create_request(const struct dxgpmo_create_pmo *cmd,
			  struct dxgpmo_alloc_request *req);
int dxgpmo_window_within_reach(struct dxgpmo_alloc_request *req,
			       const struct dxgpmo_adapter *adapter);
#endif

static inline struct dxgpmo_pmo *dxgpmo_pmo_get(struct dxgpmo_file *file,
						u32 id)
{
	return dxgpmo_container_of_err(dxgpmo_object_get(file, id, DXGPMO_OBJ_PMO),
				 struct dxgpmo_pmo, obj);
}

static inline struct dxgpmo_amo *dxgpmo_amo_get(struct dxgpmo_file *file,
						u32 id)
{
	return dxgpmo_container_of_err(dxgpmo_object_get(file, id, DXGPMO_OBJ_AMO),
				 struct dxgpmo_amo, obj);
}

#endif /* _DXGPMO_PMO_H */
