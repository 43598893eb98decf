/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adapters (the devices ADLs are made for): the core every kind of adapter
 * registers with, through its ops.  Adapters are global: every file sees the
 * same ones.
 */
#ifndef _DXGPMO_ADAPTER_H
#define _DXGPMO_ADAPTER_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/types.h>

struct device;
struct dxgpmo_adapter;
struct dxgpmo_adapter_info;
struct dxgpmo_dirty_range;
struct dxgpmo_file;
struct dxgpmo_query_dirty_bits;
struct dxgpmo_segment;

/*
 * Device addresses at and above this name an adapter's own segment (the
 * adapter's "local memory"), far above any DMA mask of system memory.
 */
#define DXGPMO_SEGMENT_DEVICE_BASE	(1ULL << 48)

/**
 * struct dxgpmo_basis_ddi - who answers an adapter's memory bases
 * @segment_caps: the dirty page size of segment @segment_id in
 *	*@page_size and its size in *@segment_size
 *	(DXGKQAITYPE_DIRTYBITTRACKINGSEGMENTCAPS); -EINVAL for a segment
 *	that does not exist or is not tracked, -ENODEV once the driver that
 *	answers has gone
 * @create: DxgkDdiCreateMemoryBasis: the tracker's handle for @nr_ranges
 *	@ranges of the segment, or an ERR_PTR().  The ranges are checked
 *	as Dxgkrnl promises them (whole dirty pages of the segment,
 *	disjoint), their first_bit numbered in basis order.
 * @destroy: DxgkDdiDestroyMemoryBasis; no failure is the caller's to
 *	handle (Windows treats one as catastrophic)
 * @start: DxgkDdiStartDirtyTracking: the bits of the basis read 0 after it
 * @stop: DxgkDdiStopDirtyTracking, of a basis started more often than
 *	stopped
 * @query: DxgkDdiQueryDirtyBitData into @bits (@nbytes, zeroed), for the
 *	span @cmd names (subrange_*, checked against the ranges) and with
 *	its %DXGPMO_DIRTY_CLEAR_DATA; only while the basis is started
 * @restore: optional: set again the bits @bits says a clearing @query took,
 *	which never reached the caller
 *
 * Called in process context; for a kernel driver's adapter, never after
 * its client's close began (client.c).  The module's own
 * tracking of the segments it emulates (segment_basis.c) is one
 * implementation, a kernel driver's DDIs (client.c) the other.
 */
struct dxgpmo_basis_ddi {
	int (*segment_caps)(struct dxgpmo_adapter *adapter, u32 segment_id,
			    u64 *page_size, u64 *segment_size);
	void *(*create)(struct dxgpmo_adapter *adapter, u32 segment_id,
			const struct dxgpmo_dirty_range *ranges, u32 nr_ranges);
	void (*destroy)(struct dxgpmo_adapter *adapter, void *basis);
	int (*start)(struct dxgpmo_adapter *adapter, void *basis);
	int (*stop)(struct dxgpmo_adapter *adapter, void *basis);
	int (*query)(struct dxgpmo_adapter *adapter, void *basis,
		     const struct dxgpmo_query_dirty_bits *cmd, u8 *bits,
		     size_t nbytes);
	void (*restore)(struct dxgpmo_adapter *adapter, void *basis,
			const struct dxgpmo_query_dirty_bits *cmd,
			const u8 *bits);
};

/**
 * struct dxgpmo_adapter_ops - what one kind of adapter does its own way
 * @name: prefix of the kind's adapter names ("edu" for edu0, edu1, ...)
 * @caps: the kind's %DXGPMO_ADAPTER_CAP_* bits;
 *	%DXGPMO_ADAPTER_CAP_IOMMU is the device's, added by the core, and
 *	%DXGPMO_ADAPTER_CAP_DMA_ENGINE goes with @transfer
 * @transfer: move @len bytes between @buf (kernel memory) and
 *	@device_address with the adapter's own engine (ADAPTER_DMA, segment
 *	DMA); called through dxgpmo_adapter_transfer()
 * @fill_info: the kind's fields of its QUERY_ADAPTERS entry (the PCI
 *	location: dxgpmo_adapter_pci_info()); the common ones are filled and
 *	the rest zeroed.  Called under the adapters' lock.
 * @find_bar: whether [@start, @start + @len) lies in a memory BAR that
 *	IO_SPACE objects may view, the BAR's being prefetchable in
 *	*@prefetchable and whether the range covers registers the module
 *	programs in *@registers.  NULL for a kind that never exposes its
 *	BARs (no &dxgpmo_adapter.bar_inode then).  Called under the
 *	adapters' lock, the adapter not removed.
 * @revoke: the device is leaving: stop the kind's own use of it.  Called
 *	first by dxgpmo_adapter_unregister(), before it waits for the users of
 *	the device and revokes their access.
 * @release: free the kind's data (&dxgpmo_adapter.priv) when the adapter's
 *	last reference goes, which may be long after the device did
 * @basis_ddi: the adapter's memory bases and dirty bits; the module's
 *	tracking of its segment, &dxgpmo_segment_basis_ddi, for every kind
 *	but a kernel driver's that brings its own
 *
 * One table a kind, filled in the kind's file (edu.c, generic_pci.c,
 * virtual.c); members the kind has no use for are NULL.  The core tells
 * the kinds apart by nothing else.
 */
struct dxgpmo_adapter_ops {
	const char *name;
	u32 caps;
	int (*transfer)(struct dxgpmo_adapter *adapter, bool to_memory,
			u64 device_address, void *buf, size_t len);
	void (*fill_info)(const struct dxgpmo_adapter *adapter,
			  struct dxgpmo_adapter_info *info);
	bool (*find_bar)(struct dxgpmo_adapter *adapter, u64 start, u64 len,
			 bool *registers, bool *prefetchable);
	void (*revoke)(struct dxgpmo_adapter *adapter);
	void (*release)(struct dxgpmo_adapter *adapter);
	const struct dxgpmo_basis_ddi *basis_ddi;
};

struct dxgpmo_adapter {
	struct kref kref;
	u32 id;
	u32 caps;
	u64 dma_mask;
	int iommu_group;		/* -1: none */
	char name[32];
	struct device *dev;
	/*
	 * A kernel client's adapter (client.c) is its own: other files do
	 * not see it, as they cannot see its device.  NULL: every file's.
	 */
	struct dxgpmo_file *owner;
	const struct dxgpmo_adapter_ops *ops;
	void *priv;			/* the kind's, freed by ops->release */
	/*
	 * Kinds that expose BARs (ops->find_bar): the inode whose mapping
	 * user views of the BARs (IO_SPACE objects) are linked into, zapped
	 * as one at removal.
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

struct dxgpmo_adapter *
dxgpmo_adapter_register(struct device *dev,
			const struct dxgpmo_adapter_ops *ops,
			unsigned int index, void *priv,
			struct dxgpmo_file *owner);
void dxgpmo_adapter_unregister(struct dxgpmo_adapter *adapter);
void dxgpmo_adapter_pci_info(const struct dxgpmo_adapter *adapter,
			     struct dxgpmo_adapter_info *info);
bool dxgpmo_adapter_pci_bar(struct dxgpmo_adapter *adapter, u64 start,
			    u64 len, bool *prefetchable);
int dxgpmo_adapter_transfer(struct dxgpmo_adapter *adapter, bool to_memory,
			    u64 device_address, void *buf, size_t len);
void dxgpmo_adapter_flush_lazy_unmaps(struct dxgpmo_adapter *adapter);
struct dxgpmo_adapter *dxgpmo_adapter_get(struct dxgpmo_file *file, u32 id);
struct dxgpmo_adapter *dxgpmo_adapter_get_any_owner(struct dxgpmo_file *file,
						    u32 id, bool any_owner);
void dxgpmo_adapter_put(struct dxgpmo_adapter *adapter);
struct dxgpmo_adapter *dxgpmo_adapter_get_by_bar(u64 start, u64 len,
						 bool *registers,
						 bool *prefetchable);
bool dxgpmo_adapter_begin_access(struct dxgpmo_adapter *adapter);
void dxgpmo_adapter_end_access(struct dxgpmo_adapter *adapter);

#endif /* _DXGPMO_ADAPTER_H */
