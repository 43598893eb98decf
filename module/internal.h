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
 *   mapping.c  CPU mappings: MAP/UNMAP, mmap of object windows, KMAP_RW
 *   test.c     the debug-only test command (page-table memory types)
 *   segment.c  adapters' local-memory segments: mmap, faults, device access
 *   basis.c    memory bases and dirty-bit tracking (WDDM 3.2 DDIs)
 *   dmabuf.c   dma-buf export of physical memory objects
 */
#ifndef _DXGPMO_INTERNAL_H
#define _DXGPMO_INTERNAL_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/maple_tree.h>
#include <linux/rwsem.h>
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
extern unsigned int dxgpmo_max_pinned_mb;

/*
 * mmap(2) offset space of /dev/dxgpmo: each adapter's segment window sits at
 * adapter_id << DXGPMO_SEGMENT_SHIFT; object windows are handed out above
 * DXGPMO_OBJECT_MMAP_BASE and never reused within a file.
 */
#define DXGPMO_SEGMENT_SHIFT		36
#define DXGPMO_OBJECT_MMAP_BASE		(1ULL << 44)

/*
 * Device addresses at and above this name an adapter's own segment (the
 * adapter's "local memory"), far above any DMA mask of system memory.
 */
#define DXGPMO_SEGMENT_DEVICE_BASE	(1ULL << 48)

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
	DXGPMO_CNT_SEGMENT_PAGES,
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
	struct dxgpmo_segment *segment;	/* local memory, segment id 1 */
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
	struct maple_tree windows;	/* mmap pgoff -> struct dxgpmo_window */
	struct address_space *mapping;	/* of the device file, for zapping */
	u32 next_id;
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
 * An adapter's emulated local-memory segment ("VRAM"): sparse pages
 * allocated on first touch, shared by every file.  The lock protects the
 * page table, the list of memory bases on the segment and their bitmaps.
 */
struct dxgpmo_segment {
	struct mutex lock;		/* pages, bases, their bitmaps */
	struct xarray pages;		/* page index -> struct page */
	u64 size;
	u64 mmap_base;			/* adapter_id << DXGPMO_SEGMENT_SHIFT */
	struct list_head bases;
};

struct dxgpmo_basis_range {
	u64 offset;
	u64 length;
	unsigned long first_bit;
};

/* A memory basis (DxgkDdiCreateMemoryBasis) and its dirty bitmap. */
struct dxgpmo_basis {
	struct dxgpmo_object obj;
	struct list_head segment_node;
	struct dxgpmo_adapter *adapter;
	unsigned int track_count;	/* outstanding STARTs */
	unsigned long nr_bits;
	unsigned long *bitmap;
	u32 nr_ranges;
	struct dxgpmo_basis_range ranges[];
};

/*
 * A run of physically contiguous pages: a compound high-order page, a single
 * page, or (CONTIGUOUS objects) split order-0 pages freed one by one.
 */
struct dxgpmo_chunk {
	struct page *page;
	unsigned long first;		/* index of its first page */
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
	u32 type;
	u32 cache_type;
	bool readonly;			/* SECTION with PAGE_READONLY */
	bool alias_changed;		/* linear map switched to cache_type */
	struct file *shmem;		/* SECTION */
	phys_addr_t io_base;		/* IO_SPACE */
	struct dxgpmo_adapter *io_adapter; /* IO_SPACE: whose BAR */
	unsigned int nr_chunks;		/* MDL, CONTIGUOUS */
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
	struct dxgpmo_window *window;
	struct list_head maps;
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
	struct sg_table sgt;		/* RAM objects */
	struct page **pinned;		/* SECTION pages held by the ADL */
	dma_addr_t resource_dma;	/* IO_SPACE: dma_map_resource() */
	unsigned long nr_pages;
};

/*
 * The mmap window of a PMO.  VMAs hold references; DESTROY revokes it (PTEs
 * zapped, later faults SIGBUS) so no mapping outlives the object's handle.
 */
struct dxgpmo_window {
	struct kref kref;
	struct rw_semaphore lock;	/* faults (read) vs revoke (write) */
	bool revoked;
	struct dxgpmo_backing *backing;
	struct address_space *mapping;
	unsigned long pgoff;		/* first page in the mmap space */
	unsigned long nr_pages;
};

/* A CPU mapping made by MAP. */
struct dxgpmo_cpu_map {
	struct dxgpmo_object obj;
	struct list_head pmo_node;
	struct dxgpmo_pmo *pmo;
	u32 access_mode;
	u64 address;			/* user VA, or the kernel token */
	u64 length;
	u64 view_offset;		/* page-aligned offset in the object */
	struct mm_struct *mm;		/* user: the owner (mmgrab'd) */
	void *vaddr;			/* kernel */
	void __iomem *io;		/* kernel, IO_SPACE */
	struct page **pinned;		/* kernel: pages of the vmap */
	unsigned long nr_pages;
};

/* ioctl.c */
struct dxgpmo_ucmd {
	struct dxgpmo_file *file;
	struct file *filp;
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

static inline struct dxgpmo_cpu_map *dxgpmo_map_find(struct dxgpmo_file *file,
						     u32 id)
{
	struct dxgpmo_object *obj = dxgpmo_object_find(file, id,
						       DXGPMO_OBJ_MAP);

	return obj ? container_of(obj, struct dxgpmo_cpu_map, obj) : NULL;
}

static inline struct dxgpmo_basis *dxgpmo_basis_find(struct dxgpmo_file *file,
						     u32 id)
{
	struct dxgpmo_object *obj = dxgpmo_object_find(file, id,
						       DXGPMO_OBJ_BASIS);

	return obj ? container_of(obj, struct dxgpmo_basis, obj) : NULL;
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

/* mapping.c */
extern const struct vm_operations_struct dxgpmo_vm_ops;
pgprot_t dxgpmo_cache_pgprot(u32 cache_type, pgprot_t prot);
int dxgpmo_vma_setup(struct vm_area_struct *vma,
		     struct dxgpmo_backing *backing);
void *dxgpmo_backing_vmap(struct dxgpmo_backing *backing, unsigned long first,
			  unsigned long nr, struct page ***pinned, gfp_t gfp);
void dxgpmo_backing_vunmap(struct dxgpmo_backing *backing, void *vaddr,
			   struct page **pinned, unsigned long nr);
vm_fault_t dxgpmo_backing_fault(struct dxgpmo_backing *backing,
				struct vm_fault *vmf, unsigned long index);
struct dxgpmo_window *dxgpmo_window_create(struct dxgpmo_file *file,
					   struct dxgpmo_backing *backing);
void dxgpmo_window_revoke(struct dxgpmo_file *file,
			  struct dxgpmo_window *window);
int dxgpmo_fops_mmap(struct file *filp, struct vm_area_struct *vma);
int dxgpmo_ioctl_map(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_unmap(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_kmap_rw(struct dxgpmo_ucmd *ucmd);
void dxgpmo_map_free(struct dxgpmo_file *file, struct dxgpmo_cpu_map *map);
int dxgpmo_ioctl_test(struct dxgpmo_ucmd *ucmd);
extern bool dxgpmo_debug_ioctls;

/* segment.c */
int dxgpmo_segment_create(struct dxgpmo_adapter *adapter);
void dxgpmo_segment_destroy(struct dxgpmo_adapter *adapter);
int dxgpmo_segment_mmap(struct file *filp, struct vm_area_struct *vma);
struct page *dxgpmo_segment_page(struct dxgpmo_segment *segment,
				 unsigned long index);
void dxgpmo_segment_mark_dirty(struct dxgpmo_segment *segment, u64 offset,
			       u64 length);
int dxgpmo_segment_collect(struct dxgpmo_segment *segment, u64 offset,
			   u64 length);
int dxgpmo_segment_dma(struct dxgpmo_adapter *adapter, bool to_memory,
		       u64 offset, void *buf, size_t len);
extern struct address_space *dxgpmo_shared_mapping;

/* basis.c */
int dxgpmo_ioctl_create_memory_basis(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_destroy_memory_basis(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_start_dirty_tracking(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_stop_dirty_tracking(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_query_dirty_bits(struct dxgpmo_ucmd *ucmd);
void dxgpmo_basis_free(struct dxgpmo_file *file, struct dxgpmo_basis *basis);

/* dmabuf.c */
int dxgpmo_ioctl_export_dmabuf(struct dxgpmo_ucmd *ucmd);

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
struct dxgpmo_adl *dxgpmo_adl_create(struct dxgpmo_file *file,
				     struct dxgpmo_amo *amo,
				     const struct dxgpmo_allocate_adl *cmd,
				     u64 *logical);
void dxgpmo_adl_free(struct dxgpmo_file *file, struct dxgpmo_adl *adl);
u32 dxgpmo_address_runs(const u64 *addr, unsigned long nr, u64 step);
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
	bool readonly;
	u64 io_base;
	struct dxgpmo_adapter *io_adapter;	/* reference passed in */
};

/* RAM an object of that type holds: IO_SPACE objects hold none. */
static inline unsigned long dxgpmo_ram_pages(u32 type, unsigned long nr_pages)
{
	return type == DXGPMO_PMO_TYPE_IO_SPACE ? 0 : nr_pages;
}

struct dxgpmo_backing *dxgpmo_backing_alloc(struct dxgpmo_file *file,
					    const struct dxgpmo_alloc_request *req);
void dxgpmo_backing_put(struct dxgpmo_backing *backing);
struct page *dxgpmo_backing_page(struct dxgpmo_backing *backing,
				 unsigned long index);
struct page *dxgpmo_section_page(struct dxgpmo_backing *backing,
				 unsigned long index);
int dxgpmo_backing_build_sgt(struct dxgpmo_backing *backing,
			     unsigned long first, unsigned long nr,
			     struct sg_table *sgt);
int dxgpmo_backing_sgt(struct dxgpmo_backing *backing, unsigned long first,
		       unsigned long nr, struct sg_table *sgt,
		       struct page ***pinned, gfp_t gfp);
void dxgpmo_backing_free_sgt(struct dxgpmo_backing *backing,
			     struct sg_table *sgt, struct page **pinned,
			     unsigned long nr);
int dxgpmo_backing_get_pages(struct dxgpmo_backing *backing,
			     unsigned long first, unsigned long nr,
			     struct page **pages);
void dxgpmo_backing_put_pages(struct dxgpmo_backing *backing,
			      struct page **pages, unsigned long nr);

/* adapter.c, for IO_SPACE */
struct dxgpmo_adapter *dxgpmo_adapter_get_by_bar(u64 start, u64 len);

/* pmo.c */
int dxgpmo_ioctl_create_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_destroy_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_open_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_close_pmo(struct dxgpmo_ucmd *ucmd);
void dxgpmo_object_release(struct dxgpmo_file *file, struct dxgpmo_object *obj);

/* bench.c, behind DXGPMO_IOC_TEST */
struct dxgpmo_test_cmd;
int dxgpmo_bench_adl(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd);
int dxgpmo_bench_chunks(struct dxgpmo_file *file, struct dxgpmo_test_cmd *cmd);

#endif /* _DXGPMO_INTERNAL_H */
