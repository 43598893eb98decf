/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ioctl handlers, which ioctl.c's table names.  Each lives in the file
 * of its object and has no header of its own; every other function a file
 * shares is in that file's header (X.c: X.h; scripts/headers.sh).
 * The files and their layers (Documentation/driver-api/dxgpmo.rst,
 * "Layers"):
 *   main.c         module init/exit, driver registration, the misc device
 *   fs.c           the internal mount: the shared address_space, view files
 *   ioctl.c        the ioctl table and the size/flags rules every ioctl shares
 *   object.c       per-file objects: ids, references, teardown
 *   stats.c        the counters STATS reports
 *   account.c      a file's pages, charged to its opener's quota (quota.c)
 *   debugfs.c      the counters and the pool under debugfs
 *   backing.c      object memory, whatever the type, and
 *   backing_chunks.c, backing_section.c, backing_io.c: one file per type
 *   pool.c         switched pages kept for reuse; the memory-type switch
 *   adapter.c      adapters and QUERY_ADAPTERS, over the kinds' ops:
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
 *   privilege.c    who may do what
 *   arch_x86.c, arch_arm64.c  what differs between the architectures
 *   test.c, bench.c, arch_*_test.c  the test command, in test builds only
 *                  (test.h)
 */
#ifndef _DXGPMO_INTERNAL_H
#define _DXGPMO_INTERNAL_H

struct dxgpmo_ucmd;

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
int dxgpmo_ioctl_query_adapters(struct dxgpmo_ucmd *ucmd);
#ifdef DXGPMO_TEST
int dxgpmo_ioctl_test(struct dxgpmo_ucmd *ucmd);
#else
/* The table's entry without a handler: -ENOTTY (test.h). */
#define dxgpmo_ioctl_test NULL
#endif

#endif /* _DXGPMO_INTERNAL_H */
