/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dxgpmo's in-kernel API: the memory callbacks of a Windows display driver
 * (DxgkCbCreatePhysicalMemoryObject, DxgkCbAllocateAdl,
 * DxgkCbMapPhysicalMemory, the memory bases and dirty bits...) for a kernel
 * driver of a device, over the same commands /dev/dxgpmo's ioctls run.
 *
 * A driver opens a client for the device it drives; every handle it gets
 * (PMO, AMO, ADL, map, memory basis) is the client's, and goes when the
 * client is closed, or when the driver lets go of the device (devres, after
 * remove()), or when the module that opened it unloads.  Each call
 * takes the parameter block of the ioctl of the same name (uapi dxgpmo.h),
 * as each Windows callback takes its DXGKARGCB_* block, with the same
 * rules and errors; the kernel-doc of each function, in
 * module/client.c, says what differs.  Build against the installed
 * dxgpmo-dkms package, "include /usr/share/dxgpmo/dxgpmo.mk" in the
 * driver's Kbuild (its headers, and the Module.symvers DKMS built for the
 * kernel), or against the module's sources (-I<dxgpmo>/include,
 * KBUILD_EXTRA_SYMBOLS=<dxgpmo>/Module.symvers), and import the
 * namespace: DXGPMO_IMPORT_NS().
 *
 * Documentation/driver-api/dxgpmo-kernel-api.rst.
 */
#ifndef _LINUX_DXGPMO_H
#define _LINUX_DXGPMO_H

#include <linux/module.h>
#include <linux/types.h>

#include "../../uapi/dxgpmo.h"

struct device;
struct dma_buf;
struct dxgpmo_client;

/*
 * MODULE_IMPORT_NS() takes a token before 6.13 and a string literal since;
 * what both expand to is this.
 */
#define DXGPMO_IMPORT_NS()	MODULE_INFO(import_ns, "DXGPMO")

/**
 * struct dxgpmo_client_ops - what the client's device does for dxgpmo
 * @transfer: move @len bytes between @buf (kernel memory) and
 *	@device_address with the device's own engine, and return when the
 *	device is done; dxgpmo_client_segment_transfer() calls it with the address
 *	of segment memory mapped for the device.  Optional.
 * @dirty_page_size: the dirty-tracking page of the device's segment
 *	@segment_id (a power of two, at least PAGE_SIZE), its size in
 *	*@segment_size; 0 for a segment without tracking
 *	(DXGKQAITYPE_DIRTYBITTRACKINGSEGMENTCAPS)
 * @create_memory_basis: DxgkDdiCreateMemoryBasis: the driver's handle for
 *	@count @ranges of segment @segment_id (whole dirty pages inside it,
 *	disjoint, in no promised order) in *@basis, any value but NULL; 0 or
 *	a negative errno
 * @destroy_memory_basis: DxgkDdiDestroyMemoryBasis
 * @start_dirty_tracking: DxgkDdiStartDirtyTracking: the bits read 0 after
 *	it; STARTs and STOPs of a basis are counted by the caller
 * @stop_dirty_tracking: DxgkDdiStopDirtyTracking, of a started basis
 * @query_dirty_bits: DxgkDdiQueryDirtyBitData: one bit per dirty page of
 *	the span @query names (subrange_index, subrange_offset and
 *	subrange_length, or the whole basis), bit 0 of byte 0 first, into
 *	@bits (@size bytes, zeroed, enough for the span), read and cleared
 *	in one step with %DXGPMO_DIRTY_CLEAR_DATA in @query->flags
 *
 * The memory-basis members are all set or all NULL.  Set, the adapter's
 * memory bases are the driver's: the CREATE_MEMORY_BASIS and tracking
 * ioctls (of a CAP_SYS_ADMIN opener, who may name a client's adapter for
 * them) and the calls below reach them, checked first as Dxgkrnl checks
 * them; NULL, dxgpmo tracks the segment it gives the client.  They are
 * called in process context, never after dxgpmo_client_close() returned:
 * the bases the driver still has then are destroyed during the close.
 */
struct dxgpmo_client_ops {
	int (*transfer)(struct dxgpmo_client *client, bool to_memory,
			u64 device_address, void *buf, size_t len);
	u64 (*dirty_page_size)(struct dxgpmo_client *client, u32 segment_id,
			       u64 *segment_size);
	int (*create_memory_basis)(struct dxgpmo_client *client,
				   u32 segment_id,
				   const struct dxgpmo_memory_range *ranges,
				   u32 count, void **basis);
	void (*destroy_memory_basis)(struct dxgpmo_client *client, void *basis);
	int (*start_dirty_tracking)(struct dxgpmo_client *client, void *basis);
	int (*stop_dirty_tracking)(struct dxgpmo_client *client, void *basis);
	int (*query_dirty_bits)(struct dxgpmo_client *client, void *basis,
				const struct dxgpmo_query_dirty_bits *query,
				void *bits, size_t size);
};

struct dxgpmo_client *__dxgpmo_client_open(struct device *dev,
					   const struct dxgpmo_client_ops *ops,
					   void *priv, struct module *owner);
#define dxgpmo_client_open(dev, ops, priv) \
			   __dxgpmo_client_open(dev, ops, priv, THIS_MODULE)
void dxgpmo_client_close(struct dxgpmo_client *client);
void *dxgpmo_client_priv(struct dxgpmo_client *client);
u32 dxgpmo_client_adapter_id(struct dxgpmo_client *client);

int dxgpmo_client_create_pmo(struct dxgpmo_client *client,
			     struct dxgpmo_create_pmo *args);
int dxgpmo_client_destroy_pmo(struct dxgpmo_client *client,
			      struct dxgpmo_destroy_pmo *args);
int dxgpmo_client_open_pmo(struct dxgpmo_client *client,
			   struct dxgpmo_open_pmo *args);
int dxgpmo_client_close_pmo(struct dxgpmo_client *client,
			    struct dxgpmo_close_pmo *args);

int dxgpmo_client_allocate_adl(struct dxgpmo_client *client,
			       struct dxgpmo_allocate_adl *args, u64 *pages);
int dxgpmo_client_free_adl(struct dxgpmo_client *client,
			   struct dxgpmo_free_adl *args);

int dxgpmo_client_map(struct dxgpmo_client *client, struct dxgpmo_map *args);
int dxgpmo_client_unmap(struct dxgpmo_client *client,
			struct dxgpmo_unmap *args);

/* The byte args->offset asked for, in the view dxgpmo_client_map() made. */
static inline void *dxgpmo_map_pointer(const struct dxgpmo_map *args)
{
	return (void *)(uintptr_t)(args->address + args->offset);
}

int dxgpmo_client_create_memory_basis(struct dxgpmo_client *client,
				      struct dxgpmo_create_memory_basis *args,
				      const struct dxgpmo_memory_range *ranges);
int dxgpmo_client_destroy_memory_basis(struct dxgpmo_client *client,
				       struct dxgpmo_destroy_memory_basis *args);
int dxgpmo_client_start_dirty_tracking(struct dxgpmo_client *client,
				       struct dxgpmo_dirty_tracking *args);
int dxgpmo_client_stop_dirty_tracking(struct dxgpmo_client *client,
				      struct dxgpmo_dirty_tracking *args);
int dxgpmo_client_query_dirty_bits(struct dxgpmo_client *client,
				   struct dxgpmo_query_dirty_bits *args, void *bits);
int dxgpmo_client_segment_transfer(struct dxgpmo_client *client, bool to_memory,
				   u64 segment_offset, void *buf, size_t len);

struct dma_buf *dxgpmo_client_export_dmabuf(struct dxgpmo_client *client,
					    u32 pmo_id, bool read_only);

#endif /* _LINUX_DXGPMO_H */
