/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dxgpmo internals.  One file per concept (their layers:
 * Documentation/driver-api/dxgpmo.rst, "Layers"):
 *   main.c         module init/exit, driver registration, the misc device
 *   fs.c           the internal mount: the shared address_space, view files
 *   ioctl.c        the ioctl table and the size/flags rules every ioctl shares
 *   object.c       per-file objects: ids, references, teardown (object.h)
 *   backing.c      object memory, whatever the type (backing.h), and
 *   backing_chunks.c, backing_section.c, backing_io.c: one file per type
 *   adapter.c      adapters, QUERY_ADAPTERS (adapter.h)
 *   edu.c          the QEMU edu PCI adapter and its DMA engine
 *   generic_pci.c  any PCI device as an adapter without a DMA engine
 *   virtual.c      virtual adapters: platform devices without an IOMMU
 *   segment.c      adapters' local-memory segments: pages, mmap, device access
 *   pmo.c          physical and adapter memory objects
 *   adl.c          address descriptor lists, revocation, the leak rule
 *   adapter_dma.c  ADAPTER_DMA: who may make an adapter's engine touch what
 *   window.c       mmap(2) windows of objects, revoked at DESTROY
 *   mapping.c      MAP/UNMAP and KMAP_RW
 *   basis.c        memory bases and dirty-bit tracking
 *   dmabuf.c       dma-buf export of physical memory objects
 *   pool.c         write-combined and non-cached pages kept for reuse
 *   test.c, bench.c, arch_*_test.c  the test command, in test builds only
 *                  (test.h)
 */
#ifndef _DXGPMO_INTERNAL_H
#define _DXGPMO_INTERNAL_H

#include <linux/list.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "arch.h"
#include "compat.h"
#include "dxgpmo.h"
#include "object.h"
#include "backing.h"
#include "adapter.h"
#include "test.h"

struct dxgpmo_amo;

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

/* An ADL: a range of a PMO mapped for one adapter with the DMA API. */
struct dxgpmo_adl {
	struct dxgpmo_object obj;
	struct dxgpmo_file *file;
	struct dxgpmo_amo *amo;		/* referenced */
	struct list_head adapter_node;	/* under the adapter's adls_lock */
	struct dxgpmo_dma_map dma;	/* unmapped early if revoked */
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
	struct rb_node node;		/* in the file's windows until revoked */
};

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

struct dxgpmo_basis_range {
	u64 offset;
	u64 length;
	unsigned long first_bit;
};

/* A memory basis (DxgkDdiCreateMemoryBasis) and its dirty bitmap. */
struct dxgpmo_basis {
	struct dxgpmo_object obj;
	struct list_head segment_node;	/* under the segment's lock */
	struct dxgpmo_adapter *adapter;	/* referenced */
	unsigned int track_count;	/* outstanding STARTs */
	unsigned long nr_bits;
	unsigned long *bitmap;
	u32 nr_ranges;
	struct dxgpmo_basis_range ranges[];
};

static_assert(offsetof(struct dxgpmo_pmo, obj) == 0);
static_assert(offsetof(struct dxgpmo_amo, obj) == 0);
static_assert(offsetof(struct dxgpmo_adl, obj) == 0);
static_assert(offsetof(struct dxgpmo_cpu_map, obj) == 0);
static_assert(offsetof(struct dxgpmo_basis, obj) == 0);

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

static inline struct dxgpmo_cpu_map *dxgpmo_map_get(struct dxgpmo_file *file,
						    u32 id)
{
	return dxgpmo_container_of_err(dxgpmo_object_get(file, id, DXGPMO_OBJ_MAP),
				 struct dxgpmo_cpu_map, obj);
}

/* ioctl.c */
struct dxgpmo_ucmd {
	struct dxgpmo_file *file;
	struct file *filp;
	void __user *ubuffer;
	u32 user_size;
	void *cmd;
};

/* privilege.c */
void dxgpmo_file_note_opener(struct dxgpmo_file *file);
bool dxgpmo_may_see_physical(struct dxgpmo_file *file);
int dxgpmo_may_use_io_space(struct dxgpmo_file *file);
bool dxgpmo_may_use_raw_dma(struct dxgpmo_file *file);
int dxgpmo_may_use_window(struct dxgpmo_file *file, u64 low, u64 high,
			  u64 boundary);
bool dxgpmo_adapter_addresses_visible(struct dxgpmo_adapter *adapter,
				      struct dxgpmo_file *file);

long dxgpmo_fops_ioctl(struct file *filp, unsigned int cmd, unsigned long arg);
int dxgpmo_ucmd_respond(struct dxgpmo_ucmd *ucmd, size_t cmd_len);
int dxgpmo_ucmd_respond_finalize(struct dxgpmo_ucmd *ucmd, size_t cmd_len,
				 struct dxgpmo_object *obj);

/* The ioctl handlers, one file each (see above). */
int dxgpmo_ioctl_stats(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_create_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_destroy_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_open_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_close_pmo(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_allocate_adl(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_free_adl(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_adapter_dma(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_map(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_unmap(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_kmap_rw(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_create_memory_basis(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_destroy_memory_basis(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_start_dirty_tracking(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_stop_dirty_tracking(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_query_dirty_bits(struct dxgpmo_ucmd *ucmd);
int dxgpmo_ioctl_export_dmabuf(struct dxgpmo_ucmd *ucmd);

/* fs.c */
extern struct address_space *dxgpmo_shared_mapping;
int dxgpmo_fs_init(void);
void dxgpmo_fs_exit(void);
struct inode *dxgpmo_mapping_inode_new(void);
struct file *dxgpmo_mapping_file(struct address_space *mapping);
struct file *dxgpmo_detached_file(struct address_space *mapping);
struct file *dxgpmo_readonly_view_file(void);

/* window.c */
extern const struct vm_operations_struct dxgpmo_vm_ops;
void dxgpmo_window_exit(void);
struct dxgpmo_window *dxgpmo_window_create(struct dxgpmo_file *file,
					   struct dxgpmo_backing *backing);
void dxgpmo_window_revoke(struct dxgpmo_file *file,
			  struct dxgpmo_window *window);
int dxgpmo_fops_mmap(struct file *filp, struct vm_area_struct *vma);
int dxgpmo_window_detach_view(struct dxgpmo_window *window,
			      unsigned long address, unsigned long length,
			      unsigned long view_first, struct file *detached);

/* adl.c */
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

#endif /* _DXGPMO_INTERNAL_H */
