/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dxgpmo - the Windows display-driver memory contract (physical memory
 * objects, adapter memory objects, ADLs, CPU mappings, memory bases with
 * dirty-bit tracking) on the Linux page allocator and DMA API.
 *
 * Every ioctl takes one struct that starts with "__u32 size; __u32 flags;".
 * The kernel copies the struct with copy_struct_from_user(): a caller built
 * against an older (shorter) header still works, a newer (longer) one works
 * as long as the fields the kernel does not know are zero (else -E2BIG), and
 * a struct shorter than the first version of the ioctl gets -EINVAL.  Unknown
 * flag bits and non-zero reserved fields give -EINVAL.  Ids are per open file
 * of /dev/dxgpmo; 0 means "none".  Enum values equal the WDDM ones.
 *
 * See Documentation/dxgpmo.rst for the mapping to each Windows call.
 */
#ifndef _UAPI_DXGPMO_H
#define _UAPI_DXGPMO_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define DXGPMO_TYPE 0xDC

enum {
	DXGPMO_CMD_QUERY_ADAPTERS = 0x00,
	DXGPMO_CMD_CREATE_PMO,
	DXGPMO_CMD_DESTROY_PMO,
	DXGPMO_CMD_OPEN_PMO,
	DXGPMO_CMD_CLOSE_PMO,
	DXGPMO_CMD_ALLOCATE_ADL,
	DXGPMO_CMD_FREE_ADL,
	DXGPMO_CMD_MAP,
	DXGPMO_CMD_UNMAP,
	DXGPMO_CMD_KMAP_RW,
	DXGPMO_CMD_ADAPTER_DMA,
	DXGPMO_CMD_CREATE_MEMORY_BASIS,
	DXGPMO_CMD_DESTROY_MEMORY_BASIS,
	DXGPMO_CMD_START_DIRTY_TRACKING,
	DXGPMO_CMD_STOP_DIRTY_TRACKING,
	DXGPMO_CMD_QUERY_DIRTY_BITS,
	DXGPMO_CMD_EXPORT_DMABUF,
	DXGPMO_CMD_STATS,
};

/* Adapter capabilities (struct dxgpmo_adapter_info.caps) */
#define DXGPMO_ADAPTER_CAP_IOMMU	(1U << 0)
#define DXGPMO_ADAPTER_CAP_DMA_ENGINE	(1U << 1)
#define DXGPMO_ADAPTER_CAP_VIRTUAL	(1U << 2)

/**
 * struct dxgpmo_adapter_info - one adapter, as listed by QUERY_ADAPTERS
 * @adapter_id: id naming the adapter in other ioctls (never 0)
 * @caps: DXGPMO_ADAPTER_CAP_* bits: IOMMU = DMA goes through an IOMMU DMA
 *	domain, so ADL pages are IOVAs; DMA_ENGINE = ADAPTER_DMA works;
 *	VIRTUAL = no hardware, logical pages equal physical pages.  A PCI
 *	adapter with neither DMA_ENGINE nor VIRTUAL is a device bound to
 *	the generic driver (dxgpmo-pci): ADLs only, its device never driven
 * @dma_mask: the device's DMA mask (highest logical address it reaches)
 * @segment_size: bytes of the adapter's emulated local-memory segment (id 1)
 * @segment_mmap_offset: mmap(2) offset of that segment on /dev/dxgpmo
 * @pci_domain: PCI domain (0 for virtual adapters)
 * @pci_bus: PCI bus number (0 for virtual adapters)
 * @pci_devfn: PCI device/function (0 for virtual adapters)
 * @__reserved: zero
 * @dirty_page_size: dirty-tracking page size of the segment (power of two)
 * @__reserved2: zero
 * @name: NUL-terminated name, e.g. "edu0", "pci0" or "virtual0"
 * @segment_device_address: device address of segment offset 0 for
 *	ADAPTER_DMA (the adapter's local-memory aperture)
 * @iommu_group: number of the device's IOMMU group
 *	(/sys/kernel/iommu_groups/N), or -1 when it has none
 * @pci_vendor: PCI vendor id of the device (0 for virtual adapters; 0 for
 *	a PCI adapter means a module older than these three fields, which
 *	left them zero: @iommu_group is then unknown, not group 0)
 * @pci_device: PCI device id of the device (0 for virtual adapters)
 */
struct dxgpmo_adapter_info {
	__u32 adapter_id;
	__u32 caps;
	__aligned_u64 dma_mask;
	__aligned_u64 segment_size;
	__aligned_u64 segment_mmap_offset;
	__u32 pci_domain;
	__u8 pci_bus;
	__u8 pci_devfn;
	__u16 __reserved;
	__u32 dirty_page_size;
	__u32 __reserved2;
	char name[32];
	__aligned_u64 segment_device_address;
	__s32 iommu_group;
	__u16 pci_vendor;
	__u16 pci_device;
};

/**
 * struct dxgpmo_query_adapters - DXGPMO_IOC_QUERY_ADAPTERS
 * @size: sizeof(struct dxgpmo_query_adapters)
 * @flags: zero
 * @count: in: number of entries @entries has room for (0 to only count);
 *	out: number of adapters present.  Only min(in, out) are written.
 * @entry_size: in: size of one entry of @entries as the caller knows it;
 *	at least offsetofend(struct dxgpmo_adapter_info, name).  A larger
 *	entry has its unknown tail zeroed.
 * @entries: user pointer to an array of struct dxgpmo_adapter_info
 */
struct dxgpmo_query_adapters {
	__u32 size;
	__u32 flags;
	__u32 count;
	__u32 entry_size;
	__aligned_u64 entries;
};

#define DXGPMO_IOC_QUERY_ADAPTERS _IO(DXGPMO_TYPE, DXGPMO_CMD_QUERY_ADAPTERS)

/* DXGK_PHYSICAL_MEMORY_TYPE */
#define DXGPMO_PMO_TYPE_MDL		0
#define DXGPMO_PMO_TYPE_CONTIGUOUS	1
#define DXGPMO_PMO_TYPE_SECTION		2
#define DXGPMO_PMO_TYPE_IO_SPACE	3

/* DXGK_MEMORY_CACHING_TYPE */
#define DXGPMO_CACHE_NON_CACHED		0
#define DXGPMO_CACHE_CACHED		1
#define DXGPMO_CACHE_WRITE_COMBINED	2

/* SECTION page protection (the Windows PAGE_* values) */
#define DXGPMO_PAGE_READONLY		0x02
#define DXGPMO_PAGE_READWRITE		0x04

/**
 * struct dxgpmo_create_pmo - DXGPMO_IOC_CREATE_PMO (DxgkCbCreatePhysicalMemoryObject)
 * @size: sizeof(struct dxgpmo_create_pmo)
 * @flags: zero
 * @adapter_id: adapter to associate the object with, or 0 for none
 *	(hAdapter); with an adapter, @amo_id returns the adapter memory object
 * @type: DXGPMO_PMO_TYPE_*
 * @cache_type: DXGPMO_CACHE_*; every CPU mapping of the object uses it
 * @page_protection: SECTION only: DXGPMO_PAGE_READONLY or _READWRITE; else 0
 * @length: bytes (Size); rounded up to whole pages for the allocation
 * @context: opaque value kept for debugging, never interpreted (Context)
 * @low_address: MDL: LowAddress; CONTIGUOUS: LowestAcceptableAddress
 * @high_address: MDL: HighAddress; CONTIGUOUS: HighestAcceptableAddress;
 *	inclusive; 0 means no upper limit
 * @skip_bytes: MDL only: SkipBytes, a page multiple; else 0
 * @boundary: CONTIGUOUS only: BoundaryAddressMultiple, 0 = none; else 0
 * @io_base: IO_SPACE only: BaseAddress (page aligned); else 0
 * @pmo_id: out: the physical memory object (hPhysicalMemoryObject)
 * @amo_id: out: the adapter memory object when @adapter_id was given, else 0
 * @mmap_offset: out: mmap(2) offset of the object's window on /dev/dxgpmo
 */
struct dxgpmo_create_pmo {
	__u32 size;
	__u32 flags;
	__u32 adapter_id;
	__u32 type;
	__u32 cache_type;
	__u32 page_protection;
	__aligned_u64 length;
	__aligned_u64 context;
	__aligned_u64 low_address;
	__aligned_u64 high_address;
	__aligned_u64 skip_bytes;
	__aligned_u64 boundary;
	__aligned_u64 io_base;
	__u32 pmo_id;
	__u32 amo_id;
	__aligned_u64 mmap_offset;
};

#define DXGPMO_IOC_CREATE_PMO _IO(DXGPMO_TYPE, DXGPMO_CMD_CREATE_PMO)

/**
 * struct dxgpmo_destroy_pmo - DXGPMO_IOC_DESTROY_PMO (DxgkCbDestroyPhysicalMemoryObject)
 * @size: sizeof(struct dxgpmo_destroy_pmo)
 * @flags: zero
 * @pmo_id: object to destroy
 * @amo_id: its adapter memory object, closed at the same time, or 0.  When
 *	the object is associated with an adapter this must name that AMO
 *	(-EBUSY otherwise), and the AMO must not be closed again (-ENOENT).
 */
struct dxgpmo_destroy_pmo {
	__u32 size;
	__u32 flags;
	__u32 pmo_id;
	__u32 amo_id;
};

#define DXGPMO_IOC_DESTROY_PMO _IO(DXGPMO_TYPE, DXGPMO_CMD_DESTROY_PMO)

/**
 * struct dxgpmo_open_pmo - DXGPMO_IOC_OPEN_PMO (DxgkCbOpenPhysicalMemoryObject)
 * @size: sizeof(struct dxgpmo_open_pmo)
 * @flags: zero
 * @pmo_id: object to associate
 * @adapter_id: adapter to associate it with
 * @amo_id: out: the adapter memory object
 * @__reserved: zero
 */
struct dxgpmo_open_pmo {
	__u32 size;
	__u32 flags;
	__u32 pmo_id;
	__u32 adapter_id;
	__u32 amo_id;
	__u32 __reserved;
};

#define DXGPMO_IOC_OPEN_PMO _IO(DXGPMO_TYPE, DXGPMO_CMD_OPEN_PMO)

/**
 * struct dxgpmo_close_pmo - DXGPMO_IOC_CLOSE_PMO (DxgkCbClosePhysicalMemoryObject)
 * @size: sizeof(struct dxgpmo_close_pmo)
 * @flags: zero
 * @amo_id: adapter memory object to close
 * @__reserved: zero
 */
struct dxgpmo_close_pmo {
	__u32 size;
	__u32 flags;
	__u32 amo_id;
	__u32 __reserved;
};

#define DXGPMO_IOC_CLOSE_PMO _IO(DXGPMO_TYPE, DXGPMO_CMD_CLOSE_PMO)

/* ALLOCATE_ADL flags (DXGK_ALLOCATEADL_FLAGS) and adl_flags (DXGK_ADL_FLAGS) */
#define DXGPMO_ADL_REQUIRE_CONTIGUOUS	(1U << 0)
#define DXGPMO_ADL_PREFER_CONTIGUOUS	(1U << 1)
#define DXGPMO_ADL_CONTIGUOUS		(1U << 0)
#define DXGPMO_ADL_ADDRESSES_HIDDEN	(1U << 1)

/**
 * struct dxgpmo_allocate_adl - DXGPMO_IOC_ALLOCATE_ADL (DxgkCbAllocateAdl)
 * @size: sizeof(struct dxgpmo_allocate_adl)
 * @flags: DXGPMO_ADL_REQUIRE_CONTIGUOUS, DXGPMO_ADL_PREFER_CONTIGUOUS
 * @amo_id: adapter memory object
 * @adl_id: out: the ADL
 * @offset: byte offset in the object, page aligned
 * @length: bytes, page aligned, non-zero
 * @pages: user pointer to a __u64 array receiving the logical page numbers
 * @pages_capacity: entries @pages has room for
 * @page_count: out: length / page size
 * @adl_flags: out: DXGPMO_ADL_CONTIGUOUS when the logical range is one run;
 *	DXGPMO_ADL_ADDRESSES_HIDDEN when the page numbers are physical and the
 *	caller or the file's opener lacks CAP_SYS_ADMIN: @pages and @base_page
 *	then read 0 (as /proc/pid/pagemap does), the ADL is made all the same
 * @__reserved: zero
 * @base_page: out: first logical page number when contiguous
 */
struct dxgpmo_allocate_adl {
	__u32 size;
	__u32 flags;
	__u32 amo_id;
	__u32 adl_id;
	__aligned_u64 offset;
	__aligned_u64 length;
	__aligned_u64 pages;
	__aligned_u64 pages_capacity;
	__aligned_u64 page_count;
	__u32 adl_flags;
	__u32 __reserved;
	__aligned_u64 base_page;
};

#define DXGPMO_IOC_ALLOCATE_ADL _IO(DXGPMO_TYPE, DXGPMO_CMD_ALLOCATE_ADL)

/**
 * struct dxgpmo_free_adl - DXGPMO_IOC_FREE_ADL (DxgkCbFreeAdl)
 * @size: sizeof(struct dxgpmo_free_adl)
 * @flags: zero
 * @adl_id: ADL to free
 * @__reserved: zero
 */
struct dxgpmo_free_adl {
	__u32 size;
	__u32 flags;
	__u32 adl_id;
	__u32 __reserved;
};

#define DXGPMO_IOC_FREE_ADL _IO(DXGPMO_TYPE, DXGPMO_CMD_FREE_ADL)

/* DXGK_ACCESS_MODE */
#define DXGPMO_ACCESS_KERNEL	0
#define DXGPMO_ACCESS_USER	1

/**
 * struct dxgpmo_map - DXGPMO_IOC_MAP (DxgkCbMapPhysicalMemory)
 * @size: sizeof(struct dxgpmo_map)
 * @flags: zero
 * @pmo_id: physical memory object
 * @access_mode: DXGPMO_ACCESS_USER or DXGPMO_ACCESS_KERNEL
 * @offset: in: offset of the wanted data in the object; out: offset of that
 *	data from @address
 * @length: in: bytes wanted; out: size of the whole view
 * @address: out: base of the view (user VA), or an opaque token (kernel)
 * @map_id: out: id of the mapping
 * @__reserved: zero
 */
struct dxgpmo_map {
	__u32 size;
	__u32 flags;
	__u32 pmo_id;
	__u32 access_mode;
	__aligned_u64 offset;
	__aligned_u64 length;
	__aligned_u64 address;
	__u32 map_id;
	__u32 __reserved;
};

#define DXGPMO_IOC_MAP _IO(DXGPMO_TYPE, DXGPMO_CMD_MAP)

/**
 * struct dxgpmo_unmap - DXGPMO_IOC_UNMAP (DxgkCbUnmapPhysicalMemory)
 * @size: sizeof(struct dxgpmo_unmap)
 * @flags: zero
 * @pmo_id: physical memory object
 * @__reserved: zero
 * @address: base returned by MAP
 * @length: view size returned by MAP
 */
struct dxgpmo_unmap {
	__u32 size;
	__u32 flags;
	__u32 pmo_id;
	__u32 __reserved;
	__aligned_u64 address;
	__aligned_u64 length;
};

#define DXGPMO_IOC_UNMAP _IO(DXGPMO_TYPE, DXGPMO_CMD_UNMAP)

#define DXGPMO_KMAP_WRITE	(1U << 0)

/**
 * struct dxgpmo_kmap_rw - DXGPMO_IOC_KMAP_RW: copy through a kernel-mode map
 * @size: sizeof(struct dxgpmo_kmap_rw)
 * @flags: DXGPMO_KMAP_WRITE to write the view from @buffer, else read it
 * @map_id: a kernel-mode mapping
 * @__reserved: zero
 * @offset: byte offset in the view
 * @length: bytes to copy
 * @buffer: user buffer
 */
struct dxgpmo_kmap_rw {
	__u32 size;
	__u32 flags;
	__u32 map_id;
	__u32 __reserved;
	__aligned_u64 offset;
	__aligned_u64 length;
	__aligned_u64 buffer;
};

#define DXGPMO_IOC_KMAP_RW _IO(DXGPMO_TYPE, DXGPMO_CMD_KMAP_RW)

#define DXGPMO_DMA_TO_MEMORY	(1U << 0)
#define DXGPMO_DMA_RAW		(1U << 1)

/**
 * struct dxgpmo_adapter_dma - DXGPMO_IOC_ADAPTER_DMA: run the adapter's engine
 * @size: sizeof(struct dxgpmo_adapter_dma)
 * @flags: DXGPMO_DMA_TO_MEMORY (device writes memory; else device reads),
 *	DXGPMO_DMA_RAW (skip the live-ADL check; IOMMU adapters, CAP_SYS_RAWIO)
 * @adapter_id: adapter whose engine moves the bytes
 * @__reserved: zero
 * @device_address: logical address as the adapter sees it
 * @length: bytes
 * @buffer: user buffer (source or destination)
 */
struct dxgpmo_adapter_dma {
	__u32 size;
	__u32 flags;
	__u32 adapter_id;
	__u32 __reserved;
	__aligned_u64 device_address;
	__aligned_u64 length;
	__aligned_u64 buffer;
};

#define DXGPMO_IOC_ADAPTER_DMA _IO(DXGPMO_TYPE, DXGPMO_CMD_ADAPTER_DMA)

/**
 * struct dxgpmo_memory_range - DXGK_MEMORYRANGE
 * @segment_offset: byte offset in the segment
 * @length: bytes
 */
struct dxgpmo_memory_range {
	__aligned_u64 segment_offset;
	__aligned_u64 length;
};

/**
 * struct dxgpmo_create_memory_basis - DXGPMO_IOC_CREATE_MEMORY_BASIS
 * @size: sizeof(struct dxgpmo_create_memory_basis)
 * @flags: zero
 * @adapter_id: adapter owning the segment
 * @segment_id: segment (1)
 * @range_count: entries in @ranges
 * @basis_id: out: the memory basis
 * @ranges: user pointer to struct dxgpmo_memory_range[@range_count]
 */
struct dxgpmo_create_memory_basis {
	__u32 size;
	__u32 flags;
	__u32 adapter_id;
	__u32 segment_id;
	__u32 range_count;
	__u32 basis_id;
	__aligned_u64 ranges;
};

#define DXGPMO_IOC_CREATE_MEMORY_BASIS \
	_IO(DXGPMO_TYPE, DXGPMO_CMD_CREATE_MEMORY_BASIS)

/**
 * struct dxgpmo_destroy_memory_basis - DXGPMO_IOC_DESTROY_MEMORY_BASIS
 * @size: sizeof(struct dxgpmo_destroy_memory_basis)
 * @flags: zero
 * @basis_id: basis to destroy
 * @__reserved: zero
 */
struct dxgpmo_destroy_memory_basis {
	__u32 size;
	__u32 flags;
	__u32 basis_id;
	__u32 __reserved;
};

#define DXGPMO_IOC_DESTROY_MEMORY_BASIS \
	_IO(DXGPMO_TYPE, DXGPMO_CMD_DESTROY_MEMORY_BASIS)

/**
 * struct dxgpmo_dirty_tracking - DXGPMO_IOC_START/STOP_DIRTY_TRACKING
 * @size: sizeof(struct dxgpmo_dirty_tracking)
 * @flags: zero
 * @basis_id: memory basis
 * @__reserved: zero
 */
struct dxgpmo_dirty_tracking {
	__u32 size;
	__u32 flags;
	__u32 basis_id;
	__u32 __reserved;
};

#define DXGPMO_IOC_START_DIRTY_TRACKING \
	_IO(DXGPMO_TYPE, DXGPMO_CMD_START_DIRTY_TRACKING)
#define DXGPMO_IOC_STOP_DIRTY_TRACKING \
	_IO(DXGPMO_TYPE, DXGPMO_CMD_STOP_DIRTY_TRACKING)

#define DXGPMO_DIRTY_CLEAR_DATA	(1U << 0)

/**
 * struct dxgpmo_query_dirty_bits - DXGPMO_IOC_QUERY_DIRTY_BITS
 * @size: sizeof(struct dxgpmo_query_dirty_bits)
 * @flags: DXGPMO_DIRTY_CLEAR_DATA: read and clear in one atomic step
 * @basis_id: tracked memory basis
 * @__reserved: zero
 * @subrange_index: range of the basis, when @subrange_length is not 0
 * @subrange_offset: byte offset in that range
 * @subrange_length: bytes, or 0 for the whole basis
 * @buffer: user pointer receiving one bit per tracking page, LSB first
 * @buffer_size: bytes at @buffer
 */
struct dxgpmo_query_dirty_bits {
	__u32 size;
	__u32 flags;
	__u32 basis_id;
	__u32 __reserved;
	__aligned_u64 subrange_index;
	__aligned_u64 subrange_offset;
	__aligned_u64 subrange_length;
	__aligned_u64 buffer;
	__aligned_u64 buffer_size;
};

#define DXGPMO_IOC_QUERY_DIRTY_BITS \
	_IO(DXGPMO_TYPE, DXGPMO_CMD_QUERY_DIRTY_BITS)

/**
 * struct dxgpmo_export_dmabuf - DXGPMO_IOC_EXPORT_DMABUF
 * @size: sizeof(struct dxgpmo_export_dmabuf)
 * @flags: zero
 * @pmo_id: object to export
 * @fd_flags: O_CLOEXEC and/or O_RDWR
 * @fd: out: the dma-buf file descriptor
 * @__reserved: zero
 */
struct dxgpmo_export_dmabuf {
	__u32 size;
	__u32 flags;
	__u32 pmo_id;
	__u32 fd_flags;
	__s32 fd;
	__u32 __reserved;
};

#define DXGPMO_IOC_EXPORT_DMABUF _IO(DXGPMO_TYPE, DXGPMO_CMD_EXPORT_DMABUF)

/**
 * struct dxgpmo_counters - object and page counters
 * @pmos: live physical memory objects
 * @amos: live adapter memory objects
 * @adls: live ADLs
 * @maps: live CPU mappings (user and kernel)
 * @bases: live memory bases
 * @pages: pages held by objects (PAGE_SIZE units)
 * @dma_mapped_pages: pages currently mapped for a device by ADLs
 * @leaked_objects: objects the file still held when it was closed
 *	(cumulative)
 * @leaked_adls: ADLs freed at file close instead of by FREE_ADL (cumulative)
 * @segment_pages: pages backing the adapters' segments (allocated on first
 *	touch, shared by all files, freed when the adapter goes); global only
 * @__reserved: zero; room for more counters without changing the size
 */
struct dxgpmo_counters {
	__aligned_u64 pmos;
	__aligned_u64 amos;
	__aligned_u64 adls;
	__aligned_u64 maps;
	__aligned_u64 bases;
	__aligned_u64 pages;
	__aligned_u64 dma_mapped_pages;
	__aligned_u64 leaked_objects;
	__aligned_u64 leaked_adls;
	__aligned_u64 segment_pages;
	__aligned_u64 __reserved[6];
};

/**
 * struct dxgpmo_stats - DXGPMO_IOC_STATS
 * @size: sizeof(struct dxgpmo_stats)
 * @flags: zero
 * @global: out: counters over the whole module (all files)
 * @file: out: counters of the calling file (leak counters stay 0 here)
 */
struct dxgpmo_stats {
	__u32 size;
	__u32 flags;
	struct dxgpmo_counters global;
	struct dxgpmo_counters file;
};

#define DXGPMO_IOC_STATS _IO(DXGPMO_TYPE, DXGPMO_CMD_STATS)

#endif /* _UAPI_DXGPMO_H */
