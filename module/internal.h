/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dxgpmo internals shared between the source files.  One file per concept:
 *   main.c     module init/exit, the misc device, file open/release
 *   ioctl.c    the ioctl table and the size/flags rules every ioctl shares
 *   object.c   per-file object table, ids, counters, fault injection hook
 *   adapter.c  edu PCI adapters, virtual adapters, QUERY_ADAPTERS
 *   pages.c    page allocation for an object (windows, orders, zeroing)
 *   pmo.c      physical and adapter memory objects (create/destroy/open/close)
 */
#ifndef _DXGPMO_INTERNAL_H
#define _DXGPMO_INTERNAL_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/mutex.h>
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
};

struct dxgpmo_amo {
	struct dxgpmo_object obj;
	struct dxgpmo_pmo *pmo;
	struct dxgpmo_adapter *adapter;
	unsigned int nr_adls;
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
struct dxgpmo_adapter *dxgpmo_adapter_get(u32 id);
void dxgpmo_adapter_put(struct dxgpmo_adapter *adapter);
int dxgpmo_ioctl_query_adapters(struct dxgpmo_ucmd *ucmd);

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
