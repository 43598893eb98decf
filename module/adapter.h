/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adapters (the devices ADLs are made for) and their local-memory segments.
 * Adapters are global: every file sees the same ones.
 */
#ifndef _DXGPMO_ADAPTER_H
#define _DXGPMO_ADAPTER_H

#include <linux/ioport.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct device;
struct file;
struct pci_dev;
struct vm_area_struct;
struct dxgpmo_edu;
struct dxgpmo_ucmd;

/*
 * mmap(2) offset space of /dev/dxgpmo: each adapter's segment window sits at
 * adapter_id << DXGPMO_SEGMENT_SHIFT; object windows are handed out above
 * DXGPMO_OBJECT_MMAP_BASE (window.c).
 */
#define DXGPMO_SEGMENT_SHIFT		36
#define DXGPMO_OBJECT_MMAP_BASE		(1ULL << 44)

/*
 * Device addresses at and above this name an adapter's own segment (the
 * adapter's "local memory"), far above any DMA mask of system memory.
 */
#define DXGPMO_SEGMENT_DEVICE_BASE	(1ULL << 48)

/*
 * An adapter's emulated local-memory segment ("VRAM"): sparse pages
 * allocated on first touch, shared by every file, freed with the adapter.
 */
struct dxgpmo_segment {
	struct xarray pages;		/* page index -> struct page */
	u64 size;
	u64 mmap_base;			/* adapter_id << DXGPMO_SEGMENT_SHIFT */
	/* The bases on the segment, their bitmaps and tracking counts. */
	struct mutex lock;
	struct list_head bases;
	/*
	 * One dirty collection at a time: cleaning PTEs and merging what
	 * they said into every basis is one step, or a concurrent query of
	 * another basis would see a page clean before its bit arrived.
	 */
	struct mutex collect_lock;
	/*
	 * One transfer's mapping at a time: the engine runs one anyway, and
	 * mappings of the same bytes waiting for it would pile up (DMA-API
	 * debugging warns beyond 7 of one cacheline).
	 */
	struct mutex dma_lock;
};

struct dxgpmo_adapter {
	struct kref kref;
	u32 id;
	u32 caps;
	u64 dma_mask;
	int iommu_group;		/* -1: none */
	char name[32];
	struct device *dev;
	struct pci_dev *pdev;		/* NULL for a virtual adapter */
	struct dxgpmo_edu *edu;		/* the DMA engine, or NULL */
	/*
	 * The BAR pages holding registers the module itself programs (edu's
	 * DMA engine); flags 0 when there are none.  Only ever read through
	 * an IO_SPACE object, never written, never an ADL.
	 */
	struct resource regs;
	/*
	 * PCI adapters: the inode whose mapping user views of the BARs
	 * (IO_SPACE objects) are linked into, zapped as one at removal.
	 */
	struct inode *bar_inode;
	/*
	 * Everything that makes the device touch memory or touches the
	 * device (ADL mappings, ADAPTER_DMA, BAR views) holds this for
	 * reading; removal takes it for writing, sets removed and revokes.
	 */
	struct rw_semaphore access_lock;
	bool removed;
	/* Every file's ADLs on the adapter, for revocation and DMA checks. */
	struct mutex adls_lock;
	struct list_head adls;
	struct dxgpmo_segment *segment;
};

/* adapter.c */
struct dxgpmo_adapter *dxgpmo_adapter_register(struct device *dev,
					       const char *prefix,
					       unsigned int index, u32 caps,
					       struct dxgpmo_edu *edu,
					       const struct resource *regs);
void dxgpmo_adapter_unregister(struct dxgpmo_adapter *adapter);
void dxgpmo_adapter_flush_lazy_unmaps(struct dxgpmo_adapter *adapter);
struct dxgpmo_adapter *dxgpmo_adapter_get(u32 id);
void dxgpmo_adapter_put(struct dxgpmo_adapter *adapter);
struct dxgpmo_adapter *dxgpmo_adapter_get_by_bar(u64 start, u64 len,
						 bool *registers,
						 bool *prefetchable);
bool dxgpmo_adapter_begin_access(struct dxgpmo_adapter *adapter);
void dxgpmo_adapter_end_access(struct dxgpmo_adapter *adapter);
int dxgpmo_ioctl_query_adapters(struct dxgpmo_ucmd *ucmd);

/* generic_pci.c */
int dxgpmo_generic_pci_init(void);
void dxgpmo_generic_pci_exit(void);

/* virtual.c */
int dxgpmo_virtual_adapters_init(void);
void dxgpmo_virtual_adapters_exit(void);

/* edu.c */
int dxgpmo_edu_init(void);
void dxgpmo_edu_exit(void);
int dxgpmo_edu_transfer(struct dxgpmo_edu *edu, bool to_memory,
			u64 device_address, void *buf, size_t len);

/* segment.c */
extern unsigned int dxgpmo_dirty_page_size;
int dxgpmo_segment_check_params(void);
struct dxgpmo_segment *dxgpmo_segment_create(u32 adapter_id);
void dxgpmo_segment_destroy(struct dxgpmo_segment *segment);
int dxgpmo_segment_mmap(struct file *filp, struct vm_area_struct *vma);
int dxgpmo_segment_dma(struct dxgpmo_adapter *adapter, bool to_memory,
		       u64 offset, void *buf, size_t len);

/* basis.c: the bits of every tracked basis on the segment */
void dxgpmo_basis_mark_dirty(struct dxgpmo_segment *segment, u64 offset,
			     u64 length);

/* adl.c: the adapter is going away */
void dxgpmo_adl_revoke_adapter(struct dxgpmo_adapter *adapter);

#endif /* _DXGPMO_ADAPTER_H */
