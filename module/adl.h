/* SPDX-License-Identifier: GPL-2.0 */
/* Address descriptor lists: ranges of objects mapped for an adapter. */
#ifndef _DXGPMO_ADL_H
#define _DXGPMO_ADL_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "backing.h"
#include "object.h"

struct dxgpmo_adapter;
struct dxgpmo_allocate_adl;
struct dxgpmo_amo;
struct dxgpmo_file;

/* An ADL: a range of a PMO mapped for one adapter with the DMA API. */
struct dxgpmo_adl {
	struct dxgpmo_object obj;
	struct dxgpmo_file *file;
	struct dxgpmo_amo *amo;		/* referenced */
	/*
	 * Under the adapter's adls_lock.  The in-module bench lists an
	 * entry of no file there while it holds the adapter's access.
	 */
	struct list_head adapter_node;
	struct dxgpmo_dma_map dma;	/* unmapped early if revoked */
};

static_assert(offsetof(struct dxgpmo_adl, obj) == 0);

struct dxgpmo_adl *dxgpmo_adl_create(struct dxgpmo_file *file,
				     struct dxgpmo_amo *amo,
				     const struct dxgpmo_allocate_adl *cmd,
				     u64 *logical);
u32 dxgpmo_address_runs(const u64 *addr, unsigned long nr, u64 step);
#define DXGPMO_DMA_MAX_ADLS	32
int dxgpmo_adl_hold_range(struct dxgpmo_file *file,
			  struct dxgpmo_adapter *adapter, u64 addr, u64 len,
			  bool write, struct dxgpmo_adl **held);
void dxgpmo_adl_release_held(struct dxgpmo_adl **held, int nr);
/* The adapter is going away. */
void dxgpmo_adl_revoke_adapter(struct dxgpmo_adapter *adapter);

struct sg_table;

/* A mapped table's device pages, nr of them, in logical[]; how many. */
unsigned long dxgpmo_adl_fill(const struct sg_table *sgt, unsigned long nr,
			      u64 *logical);

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
int dxgpmo_adl_check(const struct dxgpmo_allocate_adl *cmd);
int dxgpmo_adl_contiguity(struct dxgpmo_allocate_adl *cmd, const u64 *logical,
			  unsigned long nr);
#endif

#endif /* _DXGPMO_ADL_H */
