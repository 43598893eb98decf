/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed wrappers around the dxgpmo ioctls, shared by dxgpmoctl, the
 * benchmarks and the selftests.  Every function returns 0 or a negative
 * errno and fills the struct's size field itself.
 */
#ifndef LIBDXGPMO_H
#define LIBDXGPMO_H

#include <stdint.h>
#include <stddef.h>

#include "dxgpmo.h"

#define DXGPMO_DEV_PATH "/dev/dxgpmo"
#define DXGPMO_MAX_ADAPTERS 64

/* Open /dev/dxgpmo; returns an fd or a negative errno. */
int dxgpmo_open(void);

/* Any dxgpmo ioctl through drmIoctl (restarts on EINTR); 0 or -errno. */
int dxgpmo_ioctl(int fd, unsigned long request, void *arg);

int dxgpmo_query_adapters(int fd, struct dxgpmo_adapter_info *info,
			  uint32_t capacity, uint32_t *total);
int dxgpmo_create_pmo(int fd, struct dxgpmo_create_pmo *args);
int dxgpmo_destroy_pmo(int fd, uint32_t pmo_id, uint32_t amo_id);
int dxgpmo_open_pmo(int fd, uint32_t pmo_id, uint32_t adapter_id,
		    uint32_t *amo_id);
int dxgpmo_close_pmo(int fd, uint32_t amo_id);
int dxgpmo_get_stats(int fd, struct dxgpmo_stats *stats);
/* args->size is filled in; on -ENOSPC args->page_count says what is needed. */
int dxgpmo_allocate_adl(int fd, struct dxgpmo_allocate_adl *args);
int dxgpmo_free_adl(int fd, uint32_t adl_id);
int dxgpmo_adapter_dma(int fd, uint32_t adapter_id, uint32_t flags,
		       uint64_t device_address, void *buf, uint64_t length);

/* args->size is filled in. */
int dxgpmo_map(int fd, struct dxgpmo_map *args);
int dxgpmo_unmap(int fd, uint32_t pmo_id, uint64_t address, uint64_t length);
int dxgpmo_kmap_rw(int fd, uint32_t map_id, uint32_t flags, uint64_t offset,
		   void *buf, uint64_t length);

int dxgpmo_create_memory_basis(int fd, uint32_t adapter_id,
			       uint32_t segment_id,
			       const struct dxgpmo_memory_range *ranges,
			       uint32_t count, uint32_t *basis_id);
int dxgpmo_destroy_memory_basis(int fd, uint32_t basis_id);
int dxgpmo_start_dirty_tracking(int fd, uint32_t basis_id);
int dxgpmo_stop_dirty_tracking(int fd, uint32_t basis_id);
int dxgpmo_query_dirty_bits(int fd, uint32_t basis_id, uint32_t flags,
			    uint64_t index, uint64_t offset, uint64_t length,
			    void *buffer, uint64_t buffer_size);
/* fd_flags: O_RDONLY or O_RDWR, and O_CLOEXEC. */
int dxgpmo_export_dmabuf(int fd, uint32_t pmo_id, uint32_t fd_flags,
			 int *dmabuf_fd);

/*
 * The first line of a file of sysfs or procfs, newline dropped, into buf
 * (libdxgpmo_pci.c).  0 or -errno.
 */
int dxgpmo_read_line(const char *path, char *buf, size_t len);

/*
 * The generic PCI driver (libdxgpmo_pci.c).  pci is "DDDD:BB:DD.F".  Each
 * returns 0 or -errno and writes into msg one sentence saying what
 * happened or why not.
 */
#define DXGPMO_PCI_DRIVER "dxgpmo-pci"
/* The driver bound to a PCI device ("" for none); -ENODEV: no device. */
int dxgpmo_pci_driver_of(const char *pci, char *driver, size_t len);
/*
 * Bind a device to dxgpmo-pci through driver_override; a device another
 * driver holds is taken only with force (else -EBUSY).  previous: the
 * driver it had.
 */
int dxgpmo_pci_bind(const char *pci, int force, char *previous,
		    size_t previous_len, char *msg, size_t len);
/* Unbind it from dxgpmo-pci and let its own driver, if any, take it. */
int dxgpmo_pci_unbind(const char *pci, char *now, size_t now_len, char *msg,
		      size_t len);
/* Devices in its IOMMU group, itself included (1 when it has none). */
int dxgpmo_pci_group_members(const char *pci);
/* Room for a PCI name: domains above 0xffff have more than 4 digits. */
#define DXGPMO_PCI_NAME_MAX 24
/* "dddd:bb:dd.f", an adapter's PCI device as sysfs names it. */
void dxgpmo_adapter_pci_name(const struct dxgpmo_adapter_info *a, char *buf,
			     size_t len);
/* The adapter at a PCI name, copied to *out; 1 when listed, else 0. */
int dxgpmo_adapter_at_pci(int fd, const char *pci,
			  struct dxgpmo_adapter_info *out);

/* Counters that must be zero when no object exists (not the leak totals). */
int dxgpmo_counters_live(const struct dxgpmo_counters *c);

/*
 * What an errno of an ioctl (DXGPMO_IOC_*; 0 for none in particular) means
 * in the contract; never NULL.
 */
const char *dxgpmo_error_meaning(unsigned long request, int err);

/* Object and cache types by name ("mdl", "wc"; "?" for unknown values). */
const char *dxgpmo_type_name(uint32_t type);
const char *dxgpmo_cache_name(uint32_t cache_type);
/* 0, or -EINVAL for a name that is none of them. */
int dxgpmo_type_from_name(const char *name, uint32_t *type);
int dxgpmo_cache_from_name(const char *name, uint32_t *cache_type);

#endif
