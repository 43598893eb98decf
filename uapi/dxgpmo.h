/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dxgpmo - the Windows display-driver memory contract (physical memory
 * objects, adapter memory objects, ADLs, CPU mappings, memory bases with
 * dirty-bit tracking) on the Linux page allocator and DMA API.
 *
 * Documentation/userspace-api/dxgpmo.rst renders the comments below and
 * maps each ioctl to the Windows call it stands for.
 */
#ifndef _UAPI_DXGPMO_H
#define _UAPI_DXGPMO_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define DXGPMO_TYPE 0xDC

/**
 * DOC: General ioctl format
 *
 * Every command is _IO(DXGPMO_TYPE, nr) on an open file of /dev/dxgpmo, and
 * its argument is a pointer to one struct that starts with "__u32 size;
 * __u32 flags;".  The caller sets @size to the sizeof() of the struct it was
 * built with.  The kernel reads @size and copies the struct with
 * copy_struct_from_user(), so that the structs can grow:
 *
 *  - a caller built against an older, shorter struct keeps working; the
 *    fields it does not know read as zero;
 *  - a caller built against a newer, longer struct works as long as every
 *    byte the kernel does not know is zero;
 *  - the reply is written back over min(@size, the kernel's size) bytes.
 *
 * A call that fails writes nothing back, with one exception: a buffer too
 * small (see "Buffers the caller sizes").  Unknown @flags bits, non-zero
 * reserved fields and non-zero output fields on input are refused.  Pointers
 * and 64-bit values are __aligned_u64 and no struct has implicit padding,
 * so 32-bit callers use the same layout.  Ids are per open file and never
 * 0; 0 means "none".  Constants named after a WDDM type have its values.
 *
 * The errnos mean the same in every ioctl:
 *
 *  - ENOTTY: the ioctl number is unknown (DXGPMO_IOC_TEST also in all but
 *    a test build loaded with debug_ioctls=1).
 *  - E2BIG: the struct is longer than the kernel knows and a byte in the
 *    part it does not know is non-zero, or it says it is longer than a
 *    page; or a count above a fixed limit (memory basis ranges, bytes of
 *    one ADAPTER_DMA).
 *  - EINVAL: the struct is shorter than the first version of the ioctl, or
 *    a field is wrong: an unknown flag, a non-zero reserved or output field,
 *    a bad size, alignment, range, allocation window, type or cache type,
 *    or a call that does not fit the object's state.
 *  - ENOENT: no object of that id and type in the calling file, or no
 *    adapter of that id.
 *  - ENODEV: the adapter was removed (unbind or hot-unplug).
 *  - EPERM: a capability the call needs is missing, in the caller or in the
 *    opener of the file; or the call reaches what nobody may reach through
 *    this module (registers it drives, BARs of a device it does not drive,
 *    another process's view).
 *  - EACCES: ADAPTER_DMA outside the caller's live ADLs on that adapter,
 *    a write to a read-only section or to registers the module drives, or
 *    a user-mode MAP of a writable object through a file opened read-only
 *    (mmap(2)'s rule for a shared writable mapping).
 *  - EBUSY: the object still has users: an open adapter memory object,
 *    ADLs, mappings, or another thread's call in flight on it.
 *  - ENOMEM: out of memory, an allocation window no memory satisfies, or a
 *    limit of the opener's user (module parameters max_pinned_mb,
 *    max_adl_mb, max_kmap_mb, max_bases) reached.
 *  - ENOSPC: a buffer the caller sized is too small.
 *  - EOPNOTSUPP: the object type or the adapter does not support the call;
 *    CREATE_PMO of non-cached or write-combined RAM on an arm64 kernel
 *    whose DMA mappings bounce (its caches cannot be cleaned).
 *  - ERANGE, EEXIST: CREATE_MEMORY_BASIS only: a range outside the segment,
 *    two ranges overlapping.
 *  - EOVERFLOW: START_DIRTY_TRACKING of a basis already started 2^32 - 1
 *    times.
 *  - ETIMEDOUT: the adapter's DMA engine did not complete a transfer.
 *  - EFAULT: a user pointer is not accessible.
 *  - EINTR: a fatal signal ended a large allocation, a DMA transfer or a
 *    KMAP_RW copy.
 */

/**
 * DOC: Buffers the caller sizes
 *
 * Three calls return an array into a buffer the caller provides and sizes:
 * QUERY_ADAPTERS (adapter entries), ALLOCATE_ADL (logical page numbers) and
 * QUERY_DIRTY_BITS (dirty bits).  One rule holds for the three: when the
 * buffer is too small, the caller always learns the size it needs, in the
 * field that gave the size, and nothing is written to the buffer beyond
 * what it holds.
 *
 *  - QUERY_ADAPTERS succeeds, writes the entries that fit and returns the
 *    number of adapters in &dxgpmo_query_adapters.count.  A count of 0
 *    only counts.
 *  - ALLOCATE_ADL fails with ENOSPC, makes no ADL, writes nothing to the
 *    page array, and returns the number of entries needed in
 *    &dxgpmo_allocate_adl.page_count.
 *  - QUERY_DIRTY_BITS fails with ENOSPC, writes nothing to the bit buffer,
 *    clears no bit, and returns the bytes needed in
 *    &dxgpmo_query_dirty_bits.buffer_size.  A buffer_size of 0 only asks
 *    for the size.
 *
 * These two ENOSPC replies are the only failed calls that write back.
 */

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

/**
 * DOC: Adapter capabilities
 *
 * What an adapter has (&dxgpmo_adapter_info.caps):
 *
 *  - %DXGPMO_ADAPTER_CAP_IOMMU: the adapter's DMA goes through an IOMMU DMA
 *    domain: ADL pages are IOVAs, separate for each adapter
 *  - %DXGPMO_ADAPTER_CAP_DMA_ENGINE: the adapter has a DMA engine:
 *    DXGPMO_IOC_ADAPTER_DMA works
 *  - %DXGPMO_ADAPTER_CAP_VIRTUAL: no hardware: logical pages equal physical
 *    pages
 *
 * A PCI adapter with neither DMA_ENGINE nor VIRTUAL is a device bound to
 * the generic PCI driver (dxgpmo-pci): ADLs only, the device never driven.
 */
#define DXGPMO_ADAPTER_CAP_IOMMU	(1U << 0)
#define DXGPMO_ADAPTER_CAP_DMA_ENGINE	(1U << 1)
#define DXGPMO_ADAPTER_CAP_VIRTUAL	(1U << 2)

/**
 * struct dxgpmo_adapter_info - one adapter, as listed by QUERY_ADAPTERS
 * @adapter_id: id naming the adapter in other ioctls (never 0)
 * @caps: bits of "Adapter capabilities"
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
 *
 * Entries grow at the end; a caller gives the size of the entry it knows
 * in &dxgpmo_query_adapters.entry_size.
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

/* The largest &dxgpmo_query_adapters.entry_size a caller may give. */
#define DXGPMO_ADAPTER_INFO_MAX_SIZE	4096

/**
 * struct dxgpmo_query_adapters - ioctl(DXGPMO_IOC_QUERY_ADAPTERS)
 * @size: sizeof(struct dxgpmo_query_adapters)
 * @flags: zero
 * @count: in: number of entries @entries has room for (0 to only count);
 *	out: number of adapters present.  Only min(in, out) are written.
 * @entry_size: in: size of one entry of @entries as the caller knows it;
 *	at least offsetofend(struct dxgpmo_adapter_info, name) unless @count
 *	is 0, and then at most %DXGPMO_ADAPTER_INFO_MAX_SIZE.  A larger entry than the
 *	module knows has its unknown tail zeroed.
 * @entries: user pointer to an array of struct dxgpmo_adapter_info
 *
 * List the adapters: every bound edu device, every device bound to the
 * generic PCI driver, and the virtual adapters.  Adapter ids are global
 * (the same in every file), 1 to 255, handed out in turn: the id of a
 * removed adapter comes back only after every id above it was handed out
 * once more.  An adapter that was removed is no longer listed.  A list
 * longer than the buffer follows "Buffers the caller sizes".
 */
struct dxgpmo_query_adapters {
	__u32 size;
	__u32 flags;
	__u32 count;
	__u32 entry_size;
	__aligned_u64 entries;
};

#define DXGPMO_IOC_QUERY_ADAPTERS _IO(DXGPMO_TYPE, DXGPMO_CMD_QUERY_ADAPTERS)

/**
 * DOC: Physical memory object types
 *
 * What memory a physical memory object is (DXGK_PHYSICAL_MEMORY_TYPE):
 *
 *  - %DXGPMO_PMO_TYPE_MDL: pages from the page allocator, in chunks, inside
 *    an allocation window
 *  - %DXGPMO_PMO_TYPE_CONTIGUOUS: one physically contiguous block (at most 4
 *    MiB), inside an allocation window and a boundary
 *  - %DXGPMO_PMO_TYPE_SECTION: a shmem file: pageable pages, allocated
 *    zeroed on first use
 *  - %DXGPMO_PMO_TYPE_IO_SPACE: a page-aligned range of a memory BAR of an
 *    adapter the module drives; nothing is allocated
 */
#define DXGPMO_PMO_TYPE_MDL		0
#define DXGPMO_PMO_TYPE_CONTIGUOUS	1
#define DXGPMO_PMO_TYPE_SECTION		2
#define DXGPMO_PMO_TYPE_IO_SPACE	3

/**
 * DOC: Cache types
 *
 * Memory type of every CPU mapping of an object (DXGK_MEMORY_CACHING_TYPE):
 *
 *  - %DXGPMO_CACHE_NON_CACHED: uncached; not for SECTION objects.  x86:
 *    UC-.  arm64: RAM is Normal Non-cacheable, the same type as
 *    write-combined (writes may be gathered: order them with barriers);
 *    registers are Device-nGnRE.
 *  - %DXGPMO_CACHE_CACHED: write-back; not for IO_SPACE objects
 *  - %DXGPMO_CACHE_WRITE_COMBINED: write-combined (x86: WC, UC- without
 *    PAT; arm64: Normal Non-cacheable)
 */
#define DXGPMO_CACHE_NON_CACHED		0
#define DXGPMO_CACHE_CACHED		1
#define DXGPMO_CACHE_WRITE_COMBINED	2

/**
 * DOC: Section page protection
 *
 * Protection of a SECTION object (the Windows PAGE_* values):
 *
 *  - %DXGPMO_PAGE_READONLY: no writable view of any kind, and devices only
 *    read it
 *  - %DXGPMO_PAGE_READWRITE: readable and writable
 */
#define DXGPMO_PAGE_READONLY		0x02
#define DXGPMO_PAGE_READWRITE		0x04

/**
 * struct dxgpmo_create_pmo - ioctl(DXGPMO_IOC_CREATE_PMO)
 * @size: sizeof(struct dxgpmo_create_pmo)
 * @flags: zero
 * @adapter_id: adapter to associate the object with, or 0 for none
 *	(hAdapter); with an adapter, @amo_id returns the adapter memory object
 * @type: "Physical memory object types"
 * @cache_type: "Cache types"; every CPU mapping of the object
 *	uses it
 * @page_protection: SECTION only: "Section page protection"; else 0
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
 * @mmap_offset: out: mmap(2) offset of the object's window on /dev/dxgpmo;
 *	unique among live windows, and given to a later object once this one
 *	is destroyed and its last mmap(2) view is gone.  An IO_SPACE window
 *	maps only for a caller with CAP_SYS_RAWIO.  Windows lie at 2^44 and
 *	above, past what a 32-bit process's mmap(2) can name (its offset is
 *	counted in pages in 32 bits): such a process maps with MAP instead
 *
 * Create a physical memory object (DxgkCbCreatePhysicalMemoryObject): all
 * of its memory at once, zeroed, or -ENOMEM and nothing.  The fields of
 * another type's variant must be 0.  @high_address is inclusive; an
 * allocation window that is not a DMA mask (@low_address not 0,
 * @high_address + 1 or @boundary not a power of two) needs CAP_SYS_ADMIN,
 * and IO_SPACE objects need CAP_SYS_RAWIO.  With @adapter_id the call also
 * opens the object for that adapter, as OPEN_PMO does.
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
 * struct dxgpmo_destroy_pmo - ioctl(DXGPMO_IOC_DESTROY_PMO)
 * @size: sizeof(struct dxgpmo_destroy_pmo)
 * @flags: zero
 * @pmo_id: object to destroy
 * @amo_id: its adapter memory object, closed at the same time, or 0.  When
 *	the object is associated with an adapter this must name that AMO
 *	(-EBUSY otherwise), and the AMO must not be closed again (-ENOENT).
 *
 * Destroy a physical memory object (DxgkCbDestroyPhysicalMemoryObject),
 * and with @amo_id its adapter memory object, in one step or not at all.
 * Live MAP views give -EBUSY; mmap(2) views of the object's window are
 * revoked (a later access gets SIGBUS).  ADLs still made from the object
 * are the driver leaking locked pages: the module parameter adl_leak says
 * whether the call gets -EBUSY with a kernel warning (warn, the default)
 * or the calling thread dies with an oops (bug).  The memory is freed when
 * the last mapping or dma-buf export of it is gone.
 */
struct dxgpmo_destroy_pmo {
	__u32 size;
	__u32 flags;
	__u32 pmo_id;
	__u32 amo_id;
};

#define DXGPMO_IOC_DESTROY_PMO _IO(DXGPMO_TYPE, DXGPMO_CMD_DESTROY_PMO)

/**
 * struct dxgpmo_open_pmo - ioctl(DXGPMO_IOC_OPEN_PMO)
 * @size: sizeof(struct dxgpmo_open_pmo)
 * @flags: zero
 * @pmo_id: object to associate
 * @adapter_id: adapter to associate it with
 * @amo_id: out: the adapter memory object
 * @__reserved: zero
 *
 * Open a physical memory object for an adapter
 * (DxgkCbOpenPhysicalMemoryObject): the adapter memory object (AMO) is
 * what ADLs are made from.  An object has at most one AMO at a time: a
 * second OPEN, on any adapter, is -EBUSY until the first is closed.
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
 * struct dxgpmo_close_pmo - ioctl(DXGPMO_IOC_CLOSE_PMO)
 * @size: sizeof(struct dxgpmo_close_pmo)
 * @flags: zero
 * @amo_id: adapter memory object to close
 * @__reserved: zero
 *
 * Close an adapter memory object (DxgkCbClosePhysicalMemoryObject); -EBUSY
 * while it still has ADLs.  The physical memory object stays and may be
 * opened again, on any adapter.
 */
struct dxgpmo_close_pmo {
	__u32 size;
	__u32 flags;
	__u32 amo_id;
	__u32 __reserved;
};

#define DXGPMO_IOC_CLOSE_PMO _IO(DXGPMO_TYPE, DXGPMO_CMD_CLOSE_PMO)

/**
 * DOC: ALLOCATE_ADL flags
 *
 * &dxgpmo_allocate_adl.flags (DXGK_ALLOCATEADL_FLAGS):
 *
 *  - %DXGPMO_ADL_REQUIRE_CONTIGUOUS: the logical pages must be one run, or
 *    the call fails with -ENOMEM; CONTIGUOUS and IO_SPACE objects only
 *  - %DXGPMO_ADL_PREFER_CONTIGUOUS: a hint; it changes nothing, since behind
 *    an IOMMU every ADL is one run anyway
 */
#define DXGPMO_ADL_REQUIRE_CONTIGUOUS	(1U << 0)
#define DXGPMO_ADL_PREFER_CONTIGUOUS	(1U << 1)

/**
 * DOC: ADL flags
 *
 * &dxgpmo_allocate_adl.adl_flags (DXGK_ADL_FLAGS):
 *
 *  - %DXGPMO_ADL_CONTIGUOUS: the logical pages are one run, starting at
 *    &dxgpmo_allocate_adl.base_page.  A fact, whatever flags were asked:
 *    &dxgpmo_allocate_adl.pages is filled all the same, so a caller that
 *    asked for neither contiguous flag reads the page list (libdxgk hands
 *    DXGK_ADL's contiguous form only to a driver that asked for it)
 *  - %DXGPMO_ADL_ADDRESSES_HIDDEN: the logical pages are physical and the
 *    caller or the file's opener lacks CAP_SYS_ADMIN: the page list and the
 *    base page read 0 (as /proc/pid/pagemap does); the ADL is made all the
 *    same
 */
#define DXGPMO_ADL_CONTIGUOUS		(1U << 0)
#define DXGPMO_ADL_ADDRESSES_HIDDEN	(1U << 1)

/**
 * struct dxgpmo_allocate_adl - ioctl(DXGPMO_IOC_ALLOCATE_ADL)
 * @size: sizeof(struct dxgpmo_allocate_adl)
 * @flags: bits of "ALLOCATE_ADL flags"
 * @amo_id: adapter memory object
 * @adl_id: out: the ADL
 * @offset: byte offset in the object, page aligned
 * @length: bytes, page aligned, non-zero
 * @pages: user pointer to a __u64 array receiving the logical page numbers,
 *	or 0 for no list (then @pages_capacity is 0 too)
 * @pages_capacity: entries @pages has room for
 * @page_count: out: length / page size; also when @pages_capacity is too
 *	small (see "Buffers the caller sizes")
 * @adl_flags: out: bits of "ADL flags"
 * @__reserved: zero
 * @base_page: out: first logical page number when contiguous, else 0
 *
 * Make an address descriptor list (DxgkCbAllocateAdl): map a page range of
 * the object for the adapter the AMO was opened on and return the page
 * numbers the adapter uses for it - IOVAs behind an IOMMU, physical page
 * numbers otherwise.  The pages stay mapped, and a SECTION object's pages
 * resident, until FREE_ADL, the file's release or the adapter's removal.
 * Several ADLs, also overlapping, may exist at once.
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
 * struct dxgpmo_free_adl - ioctl(DXGPMO_IOC_FREE_ADL)
 * @size: sizeof(struct dxgpmo_free_adl)
 * @flags: zero
 * @adl_id: ADL to free
 * @__reserved: zero
 *
 * Free an ADL (DxgkCbFreeAdl): its pages are unmapped for the adapter
 * before the call returns.  An ADAPTER_DMA of another thread using the ADL
 * is waited for (at most 30 s, then -EBUSY).
 */
struct dxgpmo_free_adl {
	__u32 size;
	__u32 flags;
	__u32 adl_id;
	__u32 __reserved;
};

#define DXGPMO_IOC_FREE_ADL _IO(DXGPMO_TYPE, DXGPMO_CMD_FREE_ADL)

/**
 * DOC: Access modes
 *
 * Who a view is for (DXGK_ACCESS_MODE):
 *
 *  - %DXGPMO_ACCESS_KERNEL: a kernel-mode view, read and written through
 *    DXGPMO_IOC_KMAP_RW; its address is an opaque token
 *  - %DXGPMO_ACCESS_USER: a shared mapping in the calling process; not for
 *    IO_SPACE objects, which Windows maps in kernel mode only
 */
#define DXGPMO_ACCESS_KERNEL	0
#define DXGPMO_ACCESS_USER	1

/**
 * DOC: MAP flags
 *
 * &dxgpmo_map.flags:
 *
 *  - %DXGPMO_MAP_IN_PROCESS: with %DXGPMO_ACCESS_KERNEL, the kernel-mode
 *    view is a shared mapping in the calling process instead of a kernel
 *    view behind a token.  For a program that plays the kernel-mode driver
 *    (libdxgk) and needs an address it can dereference, IO_SPACE objects
 *    included.  The view is made, owned and unmapped as a user view is;
 *    KMAP_RW does not take it.  An IO_SPACE view needs CAP_SYS_RAWIO, as
 *    the object does, maps the registers the module drives read-only, and
 *    faults SIGBUS once the adapter is removed.
 */
#define DXGPMO_MAP_IN_PROCESS	(1U << 0)

/**
 * struct dxgpmo_map - ioctl(DXGPMO_IOC_MAP)
 * @size: sizeof(struct dxgpmo_map)
 * @flags: "MAP flags"
 * @pmo_id: physical memory object
 * @access_mode: "Access modes"
 * @offset: in: offset of the wanted data in the object; out: offset of that
 *	data from @address
 * @length: in: bytes wanted; out: size of the whole view
 * @address: out: base of the view (user VA), or an opaque token (kernel
 *	view)
 * @map_id: out: id of the mapping
 * @__reserved: zero
 *
 * Map part of an object for the CPU (DxgkCbMapPhysicalMemory), with the
 * object's cache type.  The view runs from the page boundary below the
 * wanted data to the page boundary above it.  A user view is the same
 * mapping as mmap(2) of /dev/dxgpmo at &dxgpmo_create_pmo.mmap_offset; a
 * writable view of a read-only section is -EACCES.
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
 * struct dxgpmo_unmap - ioctl(DXGPMO_IOC_UNMAP)
 * @size: sizeof(struct dxgpmo_unmap)
 * @flags: zero
 * @pmo_id: physical memory object
 * @__reserved: zero
 * @address: base returned by MAP
 * @length: view size returned by MAP
 *
 * Undo a MAP (DxgkCbUnmapPhysicalMemory).  A user view is detached, not
 * unmapped: it maps nothing from then on (an access gets SIGBUS), and its
 * address range stays reserved until the process unmaps it with munmap(2).
 * A view another process made is -EPERM while that process lives; once
 * it has exited (or exec'd), its views went with its address space and
 * UNMAP only drops the record (so that the object can be destroyed).
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

/**
 * DOC: KMAP_RW flags
 *
 * &dxgpmo_kmap_rw.flags:
 *
 *  - %DXGPMO_KMAP_WRITE: copy from the user buffer into the view; without it
 *    the view is read into the buffer
 */
#define DXGPMO_KMAP_WRITE	(1U << 0)

/**
 * struct dxgpmo_kmap_rw - ioctl(DXGPMO_IOC_KMAP_RW)
 * @size: sizeof(struct dxgpmo_kmap_rw)
 * @flags: bits of "KMAP_RW flags"
 * @map_id: a kernel-mode mapping
 * @__reserved: zero
 * @offset: byte offset in the view
 * @length: bytes to copy
 * @buffer: user buffer
 *
 * Copy between a user buffer and a kernel-mode view, which user space
 * cannot address.  The range must lie inside the view; on an IO_SPACE view
 * the copy is made of 32-bit accesses, so @offset and @length are multiples
 * of 4.  A large copy is made in pieces of 1 MiB, between which the caller
 * may be rescheduled or, on a fatal signal, stopped (EINTR).  On an error
 * (EFAULT, EINTR) a first part of the range, of unspecified length, may
 * have been copied; a write never stores into the rest of the range
 * (nothing the caller did not give).  A non-cached view is copied in
 * 8-byte words, but for the bytes at the unaligned ends of a write.
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

/**
 * DOC: ADAPTER_DMA flags
 *
 * &dxgpmo_adapter_dma.flags:
 *
 *  - %DXGPMO_DMA_TO_MEMORY: the device writes memory from the user buffer;
 *    without it the device reads memory into the buffer
 *  - %DXGPMO_DMA_RAW: skip the check that the range lies in the caller's
 *    live ADLs, to provoke IOMMU faults; needs CAP_SYS_RAWIO and an adapter
 *    behind an IOMMU, and is refused for the segment
 */
#define DXGPMO_DMA_TO_MEMORY	(1U << 0)
#define DXGPMO_DMA_RAW		(1U << 1)

/**
 * struct dxgpmo_adapter_dma - ioctl(DXGPMO_IOC_ADAPTER_DMA)
 * @size: sizeof(struct dxgpmo_adapter_dma)
 * @flags: bits of "ADAPTER_DMA flags"
 * @adapter_id: adapter whose engine moves the bytes
 * @__reserved: zero
 * @device_address: logical address as the adapter sees it
 * @length: bytes, at most 64 KiB
 * @buffer: user buffer (source or destination)
 *
 * Have the adapter's own DMA engine read or write memory at a device
 * address, with a user buffer at the other end: the way to show that an
 * ADL really maps the object for that adapter.  The range lies in live
 * ADLs of the calling file on that adapter (else -EACCES), or in the
 * adapter's segment at &dxgpmo_adapter_info.segment_device_address.  Only
 * adapters with DXGPMO_ADAPTER_CAP_DMA_ENGINE have an engine.
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
 * struct dxgpmo_memory_range - one range of a memory basis (DXGK_MEMORYRANGE)
 * @segment_offset: byte offset in the segment, a multiple of the adapter's
 *	dirty_page_size
 * @length: bytes, non-zero, a multiple of the adapter's dirty_page_size
 */
struct dxgpmo_memory_range {
	__aligned_u64 segment_offset;
	__aligned_u64 length;
};

/**
 * struct dxgpmo_create_memory_basis - ioctl(DXGPMO_IOC_CREATE_MEMORY_BASIS)
 * @size: sizeof(struct dxgpmo_create_memory_basis)
 * @flags: zero
 * @adapter_id: adapter owning the segment
 * @segment_id: segment (1 on dxgpmo's own adapters; a kernel driver's
 *	adapter has the segments its driver registered)
 * @range_count: entries in @ranges, 1 to 4096
 * @basis_id: out: the memory basis
 * @ranges: user pointer to struct dxgpmo_memory_range[@range_count]
 *
 * Make a memory basis (DxgkDdiCreateMemoryBasis): a list of ranges of the
 * adapter's segment whose writes are tracked, one bit per tracking page.
 * Ranges must not overlap (-EEXIST) and must lie inside the segment
 * (-ERANGE); a segment the adapter does not track is -EINVAL.  A kernel
 * driver's adapter (<linux/dxgkrnl.h>) that registered its own
 * memory-basis DDIs may be named by an opener with CAP_SYS_ADMIN (who
 * plays Dxgkrnl's live-migration loop): this call and the tracking calls
 * on the basis then reach the driver's DDIs, and are -ENODEV once the
 * driver has stopped.
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
 * struct dxgpmo_destroy_memory_basis - ioctl(DXGPMO_IOC_DESTROY_MEMORY_BASIS)
 * @size: sizeof(struct dxgpmo_destroy_memory_basis)
 * @flags: zero
 * @basis_id: basis to destroy
 * @__reserved: zero
 *
 * Destroy a memory basis (DxgkDdiDestroyMemoryBasis); tracking stops
 * first.
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
 * struct dxgpmo_dirty_tracking - ioctl(DXGPMO_IOC_START_DIRTY_TRACKING) and
 *	ioctl(DXGPMO_IOC_STOP_DIRTY_TRACKING)
 * @size: sizeof(struct dxgpmo_dirty_tracking)
 * @flags: zero
 * @basis_id: memory basis
 * @__reserved: zero
 *
 * Start or stop tracking the writes to a basis (DxgkDdiStartDirtyTracking,
 * DxgkDdiStopDirtyTracking).  The calls are counted: tracking is on while
 * more STARTs than STOPs were made.  The first START clears the bits, so
 * the next write to any page is seen; a STOP with none outstanding is
 * -EINVAL.
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

/**
 * DOC: QUERY_DIRTY_BITS flags
 *
 * &dxgpmo_query_dirty_bits.flags:
 *
 *  - %DXGPMO_DIRTY_CLEAR_DATA: read and clear the bits in one atomic step
 *    (DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA)
 */
#define DXGPMO_DIRTY_CLEAR_DATA	(1U << 0)

/**
 * struct dxgpmo_query_dirty_bits - ioctl(DXGPMO_IOC_QUERY_DIRTY_BITS)
 * @size: sizeof(struct dxgpmo_query_dirty_bits)
 * @flags: bits of "QUERY_DIRTY_BITS flags"
 * @basis_id: tracked memory basis
 * @__reserved: zero
 * @subrange_index: range of the basis, when @subrange_length is not 0
 * @subrange_offset: byte offset in that range
 * @subrange_length: bytes, or 0 for the whole basis
 * @buffer: user pointer receiving one bit per tracking page, LSB first
 * @buffer_size: in: bytes at @buffer; out, when that is too small: the
 *	bytes the span needs (see "Buffers the caller sizes")
 *
 * Read which tracking pages of a tracked basis were written, by the CPU
 * through any mapping of the segment or by the adapter's engine, since
 * tracking started or the bits were last cleared (DxgkDdiQueryDirtyBitData).
 * Bit i % 8 of byte i / 8 is tracking page i of the span; the ranges follow
 * each other in basis order with no padding, and the unused bits of the
 * last byte are 0.  Exactly DIV_ROUND_UP(bits, 8) bytes are written.
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
 * struct dxgpmo_export_dmabuf - ioctl(DXGPMO_IOC_EXPORT_DMABUF)
 * @size: sizeof(struct dxgpmo_export_dmabuf)
 * @flags: zero
 * @pmo_id: object to export
 * @fd_flags: O_CLOEXEC and/or O_RDWR
 * @fd: out: the dma-buf file descriptor
 * @__reserved: zero
 *
 * Export an object's pages as a dma-buf, for any other driver to import.
 * The dma-buf holds the pages, not the object: DESTROY_PMO is allowed
 * while it lives.  IO_SPACE objects have no pages (-EOPNOTSUPP).
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
 *	touch, shared by all files, freed when the adapter and the last view
 *	of its segment are gone); global only
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
 * struct dxgpmo_stats - ioctl(DXGPMO_IOC_STATS)
 * @size: sizeof(struct dxgpmo_stats)
 * @flags: zero
 * @global: out: counters over the whole module (all files)
 * @file: out: counters of the calling file (leak counters stay 0 here)
 *
 * Read the object and page counters, of the module and of the calling
 * file.  The file's @pages is what counts against its max_pinned_mb.
 */
struct dxgpmo_stats {
	__u32 size;
	__u32 flags;
	struct dxgpmo_counters global;
	struct dxgpmo_counters file;
};

#define DXGPMO_IOC_STATS _IO(DXGPMO_TYPE, DXGPMO_CMD_STATS)

#endif /* _UAPI_DXGPMO_H */
