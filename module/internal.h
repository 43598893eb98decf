/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dxgpmo internals shared between the source files.  One file per concept:
 *   main.c     module init/exit, the misc device, file open/release
 *   ioctl.c    the ioctl table and the size/flags rules every ioctl shares
 *   object.c   per-file object table, ids, counters, fault injection hook
 *   adapter.c  edu PCI adapters, virtual adapters, QUERY_ADAPTERS
 *   pages.c    page allocation for an object (windows, orders, zeroing)
 *   pmo.c      physical and adapter memory objects (create/destroy/open/close)
 *   adl.c      address descriptor lists (ALLOCATE_ADL/FREE_ADL), the leak rule
 *   edu.c      the QEMU edu PCI adapter and its DMA engine
 *   adapter_dma.c  ADAPTER_DMA: who may make an adapter's engine touch what
 */
#ifndef _DXGPMO_INTERNAL_H
#define _DXGPMO_INTERNAL_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "compat.h"
#include "dxgpmo.h"

struct device;
struct page;
struct pci_dev;

/* Module parameters, see main.c */
extern unsigned int dxgpmo_virtual_adapters;
extern unsigned int dxgpmo_segment_mb;
extern unsigned int dxgpmo_dirty_page_size;
extern bool dxgpmo_adl_leak_bug;

/*
 * mmap(2) offset space of /dev/dxgpmo: each adapter's segment window sits at
 * adapter_id << DXGPMO_SEGMENT_SHIFT; object windows are handed out above
 * DXGPMO_OBJECT_MMAP_BASE and never reused within a file.
 */
#define DXGPMO_SEGMENT_SHIFT		36
#define DXGPMO_OBJECT_MMAP_BASE		(1ULL << 44)

enum dxgpmo_counter {
	DXGPMO_CNT_PMOS,
	DXGPMO_CNT_AMOS,
	DXGPMO_CNT_ADLS,
	DXGPMO_CNT_MAPS,
	DXGPMO_CNT_BASES,
	DXGPMO_CNT_PAGES,
	DXGPMO_CNT_DMA_MAPPED_PAGES,
	DXGPMO_CNT_LEAKED_OBJECTS,
	DXGPMO_CNT_LEAKED_ADLS,
	DXGPMO_NR_COUNTERS,
};

struct dxgpmo_adapter {
	struct kref kref;
	u32 id;
	u32 caps;
	u64 dma_mask;
	char name[32];
	struct device *dev;
	struct pci_dev *pdev;		/* NULL for a virtual adapter */
	struct dxgpmo_edu *edu;		/* the DMA engine, or NULL */
	bool removed;			/* unbound; ids stay until the last ref */
};

/* One open file of /dev/dxgpmo: one "driver instance". */
struct dxgpmo_file {
	/*
	 * Serialises every change to the object graph of this file; page
	 * allocation and freeing happen outside it.
	 */
	struct mutex lock;
	struct xarray objects;
	struct list_head adls;		/* for ADAPTER_DMA access checks */
	u32 next_id;
	u64 next_mmap_offset;
	atomic64_t counters[DXGPMO_NR_COUNTERS];
	/* Countdown to the should-fail point that fails; 0 = off. */
	atomic_t fail_nth;
};

enum dxgpmo_obj_type {
	DXGPMO_OBJ_PMO = 1,
	DXGPMO_OBJ_AMO,
	DXGPMO_OBJ_ADL,
	DXGPMO_OBJ_MAP,
	DXGPMO_OBJ_BASIS,
};

struct dxgpmo_object {
	u32 id;
	enum dxgpmo_obj_type type;
};

/*
 * A run of physically contiguous pages: a compound high-order page, a single
 * page, or (CONTIGUOUS objects) split order-0 pages freed one by one.
 */
struct dxgpmo_chunk {
	struct page *page;
	unsigned int nr_pages;
	bool compound;
};

/*
 * The pages of an object, refcounted so that mappings and exports can outlive
 * the handle.  Counted in the global page counter until the last put; the
 * owning file counts them while the handle exists.
 */
struct dxgpmo_backing {
	struct kref kref;
	unsigned long nr_pages;
	unsigned int nr_chunks;
	u32 type;
	u32 cache_type;
	struct dxgpmo_chunk chunks[];
};

struct dxgpmo_amo;

struct dxgpmo_pmo {
	struct dxgpmo_object obj;
	struct dxgpmo_backing *backing;
	u64 length;
	u64 context;
	u64 mmap_offset;
	struct dxgpmo_amo *amo;		/* the one adapter association */
	unsigned int nr_adls;
};

struct dxgpmo_amo {
	struct dxgpmo_object obj;
	struct dxgpmo_pmo *pmo;
	struct dxgpmo_adapter *adapter;
	unsigned int nr_adls;
};

/* An ADL: a range of a PMO mapped for one adapter with the DMA API. */
struct dxgpmo_adl {
	struct dxgpmo_object obj;
	struct list_head file_node;
	struct dxgpmo_amo *amo;
	struct dxgpmo_backing *backing;	/* pages stay while the ADL exists */
	struct sg_table sgt;
	unsigned long nr_pages;
};

/* ioctl.c */
struct dxgpmo_ucmd {
	struct dxgpmo_file *file;
	void __user *ubuffer;
	u32 user_size;
	void *cmd;
};

long dxgpmo_fops_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
int dxgpmo_ucmd_respond(struct dxgpmo_ucmd *ucmd, size_t cmd_len);

/* object.c */
struct dxgpmo_file *dxgpmo_file_alloc(void);
void dxgpmo_file_destroy(struct dxgpmo_file *file);
bool dxgpmo_should_fail(struct dxgpmo_file *file);
int dxgpmo_object_insert(struct dxgpmo_file *file, struct dxgpmo_object *obj,
			 enum dxgpmo_obj_type type);
void dxgpmo_object_remove(struct dxgpmo_file *file, struct dxgpmo_object *obj);
struct dxgpmo_object *dxgpmo_object_find(struct dxgpmo_file *file, u32 id,
					 enum dxgpmo_obj_type type);
void dxgpmo_count(struct dxgpmo_file *file, enum dxgpmo_counter counter,
		  s64 delta);
/* Typed lookups; NULL when the id is unknown or names another type. */
static inline struct dxgpmo_pmo *dxgpmo_pmo_find(struct dxgpmo_file *file,
						 u32 id)
{
	struct dxgpmo_object *obj = dxgpmo_object_find(file, id,
						       DXGPMO_OBJ_PMO);

	return obj ? container_of(obj, struct dxgpmo_pmo, obj) : NULL;
}

static inline struct dxgpmo_amo *dxgpmo_amo_find(struct dxgpmo_file *file,
						 u32 id)
{
	struct dxgpmo_object *obj = dxgpmo_object_find(file, id,
						       DXGPMO_OBJ_AMO);

	return obj ? container_of(obj, struct dxgpmo_amo, obj) : NULL;
}

static inline struct dxgpmo_adl *dxgpmo_adl_find(struct dxgpmo_file *file,
						 u32 id)
{
	struct dxgpmo_object *obj = dxgpmo_object_find(file, id,
						       DXGPMO_OBJ_ADL);

	return obj ? container_of(obj, struct dxgpmo_adl, obj) : NULL;
}

void dxgpmo_count_file(struct dxgpmo_file *file, enum dxgpmo_counter counter,
		       s64 delta);
void dxgpmo_count_global(enum dxgpmo_counter counter, s64 delta);
u64 dxgpmo_global_counter(enum dxgpmo_counter counter);
int dxgpmo_ioctl_stats(struct dxgpmo_ucmd *ucmd);
void dxgpmo_debugfs_init(void);
void dxgpmo_debugfs_exit(void);

/* adapter.c */
int dxgpmo_adapters_init(void);
void dxgpmo_adapters_exit(void);
struct dxgpmo_adapter *dxgpmo_adapter_register(struct device *dev,
					       const char *prefix,
					       unsigned int index, u32 caps,
					       struct dxgpmo_edu *edu);
void dxgpmo_adapter_unregister(struct dxgpmo_adapter *adapter);
struct dxgpmo_adapter *dxgpmo_adapter_get(u32 id);
void dxgpmo_adapter_put(struct dxgpmo_adapter *adapter);
int dxgpmo_ioctl_query_adapters(struct dxgpmo_ucmd *ucmd);

/* edu.c */
struct dxgpmo_edu;
int dxgpmo_edu_init(void);
void dxgpmo_edu_exit(void);
int dxgpmo_edu_transfer(struct dxgpmo_edu *edu, bool to_memory,
			u64 device_address, void *buf, size_t len);

/* adapter_dma.c */
int dxgpmo_ioctl_adapter_dma(struct dxgpmo_ucmd *ucmd);

/* adl.c */
int dxgpmo_ioctl_allocate_adl(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_free_adl(struct dxgpmo_ucmd *ucmd);
void dxgpmo_adl_free(struct dxgpmo_file *file, struct dxgpmo_adl *adl);
bool dxgpmo_adl_covers(struct dxgpmo_file *file,
		       struct dxgpmo_adapter *adapter, u64 addr, u64 len);

/* pages.c */
struct dxgpmo_alloc_request {
	unsigned long nr_pages;
	u32 type;
	u32 cache_type;
	u64 low;
	u64 high;
	u64 boundary;
};

struct dxgpmo_backing *dxgpmo_backing_alloc(struct dxgpmo_file *file,
					    const struct dxgpmo_alloc_request *req);
void dxgpmo_backing_put(struct dxgpmo_backing *backing);

/* pmo.c */
int dxgpmo_ioctl_create_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_destroy_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_open_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_close_pmo(struct dxgpmo_ucmd *ucmd);
void dxgpmo_object_release(struct dxgpmo_file *file, struct dxgpmo_object *obj);

#endif /* _DXGPMO_INTERNAL_H */
