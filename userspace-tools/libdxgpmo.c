// SPDX-License-Identifier: GPL-2.0
/*
 * Typed wrappers around the dxgpmo ioctls (see libdxgpmo.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "libdxgpmo.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

int dxgpmo_open(void)
{
	int fd = open(DXGPMO_DEV_PATH, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int dxgpmo_ioctl(int fd, unsigned long request, void *arg)
{
	return drmIoctl(fd, request, arg) ? -errno : 0;
}

int dxgpmo_query_adapters(int fd, struct dxgpmo_adapter_info *info,
			  uint32_t capacity, uint32_t *total)
{
	struct dxgpmo_query_adapters q = {
		.size = sizeof(q),
		.count = capacity,
		.entry_size = sizeof(*info),
		.entries = (uintptr_t)info,
	};
	int ret = dxgpmo_ioctl(fd, DXGPMO_IOC_QUERY_ADAPTERS, &q);

	if (!ret && total)
		*total = q.count;
	return ret;
}

int dxgpmo_create_pmo(int fd, struct dxgpmo_create_pmo *args)
{
	args->size = sizeof(*args);
	return dxgpmo_ioctl(fd, DXGPMO_IOC_CREATE_PMO, args);
}

int dxgpmo_destroy_pmo(int fd, uint32_t pmo_id, uint32_t amo_id)
{
	struct dxgpmo_destroy_pmo d = {
		.size = sizeof(d), .pmo_id = pmo_id, .amo_id = amo_id,
	};

	return dxgpmo_ioctl(fd, DXGPMO_IOC_DESTROY_PMO, &d);
}

int dxgpmo_open_pmo(int fd, uint32_t pmo_id, uint32_t adapter_id,
		    uint32_t *amo_id)
{
	struct dxgpmo_open_pmo o = {
		.size = sizeof(o), .pmo_id = pmo_id, .adapter_id = adapter_id,
	};
	int ret = dxgpmo_ioctl(fd, DXGPMO_IOC_OPEN_PMO, &o);

	if (!ret && amo_id)
		*amo_id = o.amo_id;
	return ret;
}

int dxgpmo_close_pmo(int fd, uint32_t amo_id)
{
	struct dxgpmo_close_pmo c = { .size = sizeof(c), .amo_id = amo_id };

	return dxgpmo_ioctl(fd, DXGPMO_IOC_CLOSE_PMO, &c);
}

int dxgpmo_get_stats(int fd, struct dxgpmo_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	stats->size = sizeof(*stats);
	return dxgpmo_ioctl(fd, DXGPMO_IOC_STATS, stats);
}

int dxgpmo_allocate_adl(int fd, struct dxgpmo_allocate_adl *args)
{
	args->size = sizeof(*args);
	return dxgpmo_ioctl(fd, DXGPMO_IOC_ALLOCATE_ADL, args);
}

int dxgpmo_free_adl(int fd, uint32_t adl_id)
{
	struct dxgpmo_free_adl f = { .size = sizeof(f), .adl_id = adl_id };

	return dxgpmo_ioctl(fd, DXGPMO_IOC_FREE_ADL, &f);
}

int dxgpmo_adapter_dma(int fd, uint32_t adapter_id, uint32_t flags,
		       uint64_t device_address, void *buf, uint64_t length)
{
	struct dxgpmo_adapter_dma d = {
		.size = sizeof(d),
		.flags = flags,
		.adapter_id = adapter_id,
		.device_address = device_address,
		.length = length,
		.buffer = (uintptr_t)buf,
	};

	return dxgpmo_ioctl(fd, DXGPMO_IOC_ADAPTER_DMA, &d);
}

int dxgpmo_map(int fd, struct dxgpmo_map *args)
{
	args->size = sizeof(*args);
	return dxgpmo_ioctl(fd, DXGPMO_IOC_MAP, args);
}

int dxgpmo_unmap(int fd, uint32_t pmo_id, uint64_t address, uint64_t length)
{
	struct dxgpmo_unmap u = {
		.size = sizeof(u), .pmo_id = pmo_id, .address = address,
		.length = length,
	};

	return dxgpmo_ioctl(fd, DXGPMO_IOC_UNMAP, &u);
}

int dxgpmo_kmap_rw(int fd, uint32_t map_id, uint32_t flags, uint64_t offset,
		   void *buf, uint64_t length)
{
	struct dxgpmo_kmap_rw k = {
		.size = sizeof(k), .flags = flags, .map_id = map_id,
		.offset = offset, .length = length, .buffer = (uintptr_t)buf,
	};

	return dxgpmo_ioctl(fd, DXGPMO_IOC_KMAP_RW, &k);
}

int dxgpmo_create_memory_basis(int fd, uint32_t adapter_id,
			       uint32_t segment_id,
			       const struct dxgpmo_memory_range *ranges,
			       uint32_t count, uint32_t *basis_id)
{
	struct dxgpmo_create_memory_basis c = {
		.size = sizeof(c), .adapter_id = adapter_id,
		.segment_id = segment_id, .range_count = count,
		.ranges = (uintptr_t)ranges,
	};
	int ret = dxgpmo_ioctl(fd, DXGPMO_IOC_CREATE_MEMORY_BASIS, &c);

	if (!ret && basis_id)
		*basis_id = c.basis_id;
	return ret;
}

int dxgpmo_destroy_memory_basis(int fd, uint32_t basis_id)
{
	struct dxgpmo_destroy_memory_basis d = {
		.size = sizeof(d), .basis_id = basis_id,
	};

	return dxgpmo_ioctl(fd, DXGPMO_IOC_DESTROY_MEMORY_BASIS, &d);
}

int dxgpmo_start_dirty_tracking(int fd, uint32_t basis_id)
{
	struct dxgpmo_dirty_tracking t = { .size = sizeof(t), .basis_id = basis_id };

	return dxgpmo_ioctl(fd, DXGPMO_IOC_START_DIRTY_TRACKING, &t);
}

int dxgpmo_stop_dirty_tracking(int fd, uint32_t basis_id)
{
	struct dxgpmo_dirty_tracking t = { .size = sizeof(t), .basis_id = basis_id };

	return dxgpmo_ioctl(fd, DXGPMO_IOC_STOP_DIRTY_TRACKING, &t);
}

int dxgpmo_query_dirty_bits(int fd, uint32_t basis_id, uint32_t flags,
			    uint64_t index, uint64_t offset, uint64_t length,
			    void *buffer, uint64_t buffer_size)
{
	struct dxgpmo_query_dirty_bits q = {
		.size = sizeof(q), .flags = flags, .basis_id = basis_id,
		.subrange_index = index, .subrange_offset = offset,
		.subrange_length = length, .buffer = (uintptr_t)buffer,
		.buffer_size = buffer_size,
	};

	return dxgpmo_ioctl(fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q);
}

int dxgpmo_counters_live(const struct dxgpmo_counters *c)
{
	return c->pmos || c->amos || c->adls || c->maps || c->bases ||
	       c->pages || c->dma_mapped_pages;
}

int dxgpmo_export_dmabuf(int fd, uint32_t pmo_id, uint32_t fd_flags,
			 int *dmabuf_fd)
{
	struct dxgpmo_export_dmabuf e = {
		.size = sizeof(e), .pmo_id = pmo_id, .fd_flags = fd_flags,
	};
	int ret = dxgpmo_ioctl(fd, DXGPMO_IOC_EXPORT_DMABUF, &e);

	if (!ret)
		*dmabuf_fd = e.fd;
	return ret;
}

const char *dxgpmo_error_meaning(unsigned long request, int err)
{
	static const struct {
		unsigned long request;	/* 0: any call */
		int err;
		const char *meaning;
	} table[] = {
		{ DXGPMO_IOC_DESTROY_PMO, EINVAL, "the AMO named does not belong to this object" },
		{ DXGPMO_IOC_OPEN_PMO, EBUSY,
		  "the object is already associated with an adapter (close its AMO first)" },
		{ DXGPMO_IOC_CLOSE_PMO, EBUSY,
		  "an ADL still exists for this adapter memory object" },
		{ DXGPMO_IOC_DESTROY_PMO, EBUSY,
		  "its AMO is still open (name it), a MAP view still exists, or an ADL still exists (adl_leak=warn)"
		},
		{ DXGPMO_IOC_ALLOCATE_ADL, EINVAL,
		  "offset/length not page aligned or outside the object, bad flags, or REQUIRE_CONTIGUOUS on an MDL/SECTION object"
		},
		{ DXGPMO_IOC_ALLOCATE_ADL, ENOSPC,
		  "the pages buffer is too small (page_count says how many are needed)" },
		{ DXGPMO_IOC_ALLOCATE_ADL, EOPNOTSUPP,
		  "the adapter cannot reach these pages without bouncing" },
		{ DXGPMO_IOC_ADAPTER_DMA, EACCES,
		  "the device range is not inside a live ADL of this file on that adapter" },
		{ DXGPMO_IOC_ADAPTER_DMA, EPERM,
		  "raw DMA needs CAP_SYS_RAWIO and an adapter behind an IOMMU" },
		{ DXGPMO_IOC_ADAPTER_DMA, EOPNOTSUPP, "this adapter has no DMA engine" },
		{ DXGPMO_IOC_ADAPTER_DMA, ETIMEDOUT, "the adapter's DMA engine did not finish" },
		{ DXGPMO_IOC_CLOSE_PMO, ENOENT,
		  "no such adapter memory object (already closed, or closed by destroy)" },
		{ DXGPMO_IOC_CREATE_PMO, ENOMEM,
		  "no memory satisfies the size and address window" },
		{ DXGPMO_IOC_CREATE_PMO, EPERM,
		  "IO_SPACE ranges must lie inside a BAR of a dxgpmo adapter" },
		{ DXGPMO_IOC_MAP, EINVAL,
		  "bad range (length 0 or past the end), bad access mode, or a user map of an IO_SPACE object"
		},
		{ DXGPMO_IOC_UNMAP, EINVAL,
		  "no view of this object with that base and size (use MAP's outputs)" },
		{ DXGPMO_IOC_UNMAP, EPERM,
		  "a user view can only be unmapped by the process that mapped it" },
		{ DXGPMO_IOC_UNMAP, ENOENT,
		  "no such object, or the view was already unmapped by the process (the record is dropped)"
		},
		{ DXGPMO_IOC_CREATE_MEMORY_BASIS, EEXIST, "two ranges of the basis overlap" },
		{ DXGPMO_IOC_CREATE_MEMORY_BASIS, ERANGE, "a range lies outside the segment" },
		{ DXGPMO_IOC_CREATE_MEMORY_BASIS, EINVAL,
		  "zero ranges, a zero-length or misaligned range, or a bad segment id" },
		{ DXGPMO_IOC_QUERY_DIRTY_BITS, EINVAL,
		  "the basis is not tracked, or the subrange is not inside a range" },
		{ DXGPMO_IOC_QUERY_DIRTY_BITS, ENOSPC,
		  "the buffer is smaller than one bit per tracking page (buffer_size says how many bytes are needed)"
		},
		{ DXGPMO_IOC_STOP_DIRTY_TRACKING, EINVAL, "no START is outstanding on this basis" },
		{ DXGPMO_IOC_EXPORT_DMABUF, EOPNOTSUPP,
		  "IO_SPACE objects have no pages to export" },
		{ 0, ENOENT, "no such object, adapter or id of that type in this file" },
		{ 0, EINVAL, "invalid size, alignment, flags or reserved field" },
		{ 0, E2BIG, "the struct has non-zero bytes this module does not know" },
		{ 0, ENOMEM, "out of memory or beyond a limit" },
		{ 0, EBUSY, "the object is in use" },
		{ 0, EOPNOTSUPP, "not supported on this adapter or object" },
		{ 0, ENOTTY, "this module does not know the ioctl" },
		{ 0, ENODEV, "the adapter is gone" },
		{ 0, EFAULT, "a user pointer is not accessible" },
		{ 0, EACCES, "not allowed for this caller" },
		{ 0, EPERM, "not allowed for this caller" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i].err == err &&
		    (!table[i].request || table[i].request == request))
			return table[i].meaning;
	return strerror(err);
}

struct dxgpmo_name {
	const char *name;
	uint32_t value;
};

/* The first name of a value is its own; later ones are accepted aliases. */
static const struct dxgpmo_name type_names[] = {
	{ "mdl", DXGPMO_PMO_TYPE_MDL },
	{ "contiguous", DXGPMO_PMO_TYPE_CONTIGUOUS },
	{ "section", DXGPMO_PMO_TYPE_SECTION },
	{ "io_space", DXGPMO_PMO_TYPE_IO_SPACE },
};

static const struct dxgpmo_name cache_names[] = {
	{ "uc", DXGPMO_CACHE_NON_CACHED },
	{ "cached", DXGPMO_CACHE_CACHED },
	{ "wc", DXGPMO_CACHE_WRITE_COMBINED },
	{ "noncached", DXGPMO_CACHE_NON_CACHED },
	{ "wb", DXGPMO_CACHE_CACHED },
};

static const char *name_of(const struct dxgpmo_name *table, size_t n,
			   uint32_t value)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (table[i].value == value)
			return table[i].name;
	return "?";
}

static int value_of(const struct dxgpmo_name *table, size_t n,
		    const char *name, uint32_t *value)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(table[i].name, name)) {
			*value = table[i].value;
			return 0;
		}
	}
	return -EINVAL;
}

const char *dxgpmo_type_name(uint32_t type)
{
	return name_of(type_names, ARRAY_SIZE(type_names), type);
}

const char *dxgpmo_cache_name(uint32_t cache_type)
{
	return name_of(cache_names, ARRAY_SIZE(cache_names), cache_type);
}

int dxgpmo_type_from_name(const char *name, uint32_t *type)
{
	return value_of(type_names, ARRAY_SIZE(type_names), name, type);
}

int dxgpmo_cache_from_name(const char *name, uint32_t *cache_type)
{
	return value_of(cache_names, ARRAY_SIZE(cache_names), name, cache_type);
}
