// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for dma-buf export: another driver (vgem, found and driven
 * through libdrm) imports a physical memory object and both see the same
 * bytes; DMA_BUF_IOCTL_SYNC and mmap of the dma-buf itself; the export keeps
 * the pages after DESTROY_PMO, and every close order leaves the counters at
 * zero.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm.h>
#include <drm_mode.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

#define SIZE (4 * PAGE)

/*
 * A CPU view of an object imported into vgem.  DRM refuses dumb-map
 * offsets for imported objects (CPU access goes through the exporter), so
 * the view is made from the dma-buf vgem hands back for its handle: that it
 * is the very buffer we exported is checked by the caller.
 */
static void *vgem_map(int vgem, uint32_t handle, size_t size, int *fd)
{
	struct drm_mode_map_dumb m = { .handle = handle };
	void *p;

	/* What DRM does with imported objects; if it ever allows it, fine. */
	if (!drmIoctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &m)) {
		*fd = -1;
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vgem,
			 m.offset);
		return p == MAP_FAILED ? NULL : p;
	}
	if (drmPrimeHandleToFD(vgem, handle, DRM_CLOEXEC | DRM_RDWR, fd))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int same_file(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) && sa.st_ino == sb.st_ino &&
	       sa.st_dev == sb.st_dev;
}

static void gem_close(int vgem, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	drmIoctl(vgem, DRM_IOCTL_GEM_CLOSE, &c);
}

static uint64_t global_pages(int fd)
{
	struct dxgpmo_stats st;

	if (dxgpmo_get_stats(fd, &st))
		return UINT64_MAX;
	return st.global.pages;
}

FIXTURE(dmabuf) {
	int fd;
	int vgem;
};

FIXTURE_SETUP(dmabuf)
{
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	self->vgem = open_vgem();
}

FIXTURE_TEARDOWN(dmabuf)
{
	if (self->vgem >= 0)
		close(self->vgem);
	teardown_dxgpmo(self->fd);
}

FIXTURE_VARIANT(dmabuf) {
	uint32_t type;
	uint32_t cache;
};

PMO_VARIANT_ADD(dmabuf, mdl_wc, MDL, WRITE_COMBINED);
PMO_VARIANT_ADD(dmabuf, contiguous_cached, CONTIGUOUS, CACHED);
PMO_VARIANT_ADD(dmabuf, section_cached, SECTION, CACHED);

static int create(int fd, uint32_t type, uint32_t cache,
		  struct dxgpmo_create_pmo *c)
{
	*c = (struct dxgpmo_create_pmo){
		.type = type, .cache_type = cache, .length = SIZE,
		.page_protection = rw_protection(type),
	};
	return dxgpmo_create_pmo(fd, c);
}

/*
 * vgem imports the export; bytes cross in both directions, the CPU's
 * bracketed by DMA_BUF_IOCTL_SYNC while vgem's attachment is mapped (its
 * mapping is synced for the CPU and back).
 */
TEST_F(dmabuf, vgem_import_shares_bytes)
{
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START |
					      DMA_BUF_SYNC_RW };
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map u;
	volatile uint8_t *pmo_view, *vgem_view;
	uint32_t handle, again;
	int dfd, vfd;

	if (self->vgem < 0)
		SKIP(return, "no vgem device (load vgem)");
	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	ASSERT_EQ(0, export_rw(self->fd, c.pmo_id, &dfd));
	EXPECT_TRUE(fcntl(dfd, F_GETFD) & FD_CLOEXEC);
	/* The import attaches and maps the pages for vgem's device. */
	ASSERT_EQ(0, drmPrimeFDToHandle(self->vgem, dfd, &handle));
	ASSERT_EQ(0, drmPrimeFDToHandle(self->vgem, dfd, &again));
	EXPECT_EQ(handle, again);	/* vgem knows it is one object */
	vgem_view = vgem_map(self->vgem, handle, SIZE, &vfd);
	ASSERT_NE(NULL, vgem_view);
	if (vfd >= 0)
		EXPECT_TRUE(same_file(vfd, dfd));
	u = (struct dxgpmo_map){
		.pmo_id = c.pmo_id, .access_mode = DXGPMO_ACCESS_USER,
		.length = SIZE,
	};
	ASSERT_EQ(0, dxgpmo_map(self->fd, &u));
	pmo_view = (volatile uint8_t *)(uintptr_t)u.address;

	ASSERT_EQ(0, ioctl(dfd, DMA_BUF_IOCTL_SYNC, &sync));
	pmo_view[3 * PAGE + 11] = 0x3c;
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW;
	ASSERT_EQ(0, ioctl(dfd, DMA_BUF_IOCTL_SYNC, &sync));
	EXPECT_EQ(0x3c, vgem_view[3 * PAGE + 11]);
	vgem_view[PAGE + 5] = 0xc3;
	EXPECT_EQ(0xc3, pmo_view[PAGE + 5]);

	EXPECT_EQ(0, munmap((void *)vgem_view, SIZE));
	if (vfd >= 0)
		close(vfd);
	gem_close(self->vgem, handle);
	EXPECT_EQ(0, close(dfd));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/* mmap of the dma-buf itself, bracketed by DMA_BUF_IOCTL_SYNC. */
/*
 * Whether DRM's shmem helpers import a dma-buf without mapping it, as
 * vgem's PRIME import does on 7.x (drm_gem_shmem_prime_import_no_map():
 * the importer only attaches and maps on use, which vgem never does).
 */
static int shmem_import_maps_nothing(void)
{
	char line[256];
	int found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !!strstr(line, " drm_gem_shmem_prime_import_no_map");
	fclose(f);
	return found;
}

/*
 * A read-only section is never written by a device: an importer may map
 * it DMA_TO_DEVICE only.  DRM's PRIME import maps DMA_BIDIRECTIONAL, so
 * vgem's import is refused; the same export of a writable section imports.
 * Where vgem imports without mapping, no importer here asks for a device
 * mapping at all: the test skips.
 */
TEST(readonly_section_no_device_writes)
{
	int fd = dxgpmo_open(), vgem = open_vgem();
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_SECTION, .length = SIZE,
		.cache_type = DXGPMO_CACHE_CACHED,
		.page_protection = DXGPMO_PAGE_READONLY,
	};
	uint32_t handle;
	int dfd, ret;

	ASSERT_LE(0, fd);
	if (vgem < 0)
		SKIP(return, "no vgem device (load vgem)");
	ASSERT_EQ(0, dxgpmo_create_pmo(fd, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(fd, c.pmo_id, O_CLOEXEC, &dfd));
	ret = drmPrimeFDToHandle(vgem, dfd, &handle);
	if (!ret && shmem_import_maps_nothing()) {
		gem_close(vgem, handle);
		close(dfd);
		EXPECT_EQ(0, dxgpmo_destroy_pmo(fd, c.pmo_id, 0));
		close(vgem);
		teardown_dxgpmo(fd);
		SKIP(return, "vgem imports without mapping on this kernel (drm_gem_shmem_prime_import_no_map): nothing asks for a device mapping");
	}
	EXPECT_NE(0, ret) {
		gem_close(vgem, handle);
	}
	close(dfd);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(fd, c.pmo_id, 0));

	c.page_protection = DXGPMO_PAGE_READWRITE;
	c.pmo_id = 0;
	c.amo_id = 0;
	c.mmap_offset = 0;
	ASSERT_EQ(0, dxgpmo_create_pmo(fd, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(fd, c.pmo_id, O_CLOEXEC, &dfd));
	EXPECT_EQ(0, drmPrimeFDToHandle(vgem, dfd, &handle));
	gem_close(vgem, handle);
	close(dfd);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(fd, c.pmo_id, 0));
	close(vgem);
	teardown_dxgpmo(fd);
}

TEST_F(dmabuf, sync_and_mmap)
{
	struct dma_buf_sync sync = { .flags = DMA_BUF_SYNC_START |
					      DMA_BUF_SYNC_RW };
	struct dxgpmo_create_pmo c;
	struct dxgpmo_map k;
	uint8_t got = 0;
	uint8_t *p;
	int dfd;

	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(self->fd, c.pmo_id, O_RDWR, &dfd));
	EXPECT_FALSE(fcntl(dfd, F_GETFD) & FD_CLOEXEC);
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, ioctl(dfd, DMA_BUF_IOCTL_SYNC, &sync));
	p[2 * PAGE + 100] = 0x99;
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_RW;
	ASSERT_EQ(0, ioctl(dfd, DMA_BUF_IOCTL_SYNC, &sync));
	k = (struct dxgpmo_map){
		.pmo_id = c.pmo_id, .access_mode = DXGPMO_ACCESS_KERNEL,
		.offset = 2 * PAGE + 100, .length = 1,
	};
	ASSERT_EQ(0, dxgpmo_map(self->fd, &k));
	ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, k.map_id, 0, k.offset, &got, 1));
	EXPECT_EQ(0x99, got);
	/* Bad sync flags are the dma-buf core's business, and refused. */
	sync.flags = 0xff;
	EXPECT_ERRNO(EINVAL, ioctl(dfd, DMA_BUF_IOCTL_SYNC, &sync));
	/* Beyond the buffer and private maps fail. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, SIZE + PAGE, PROT_READ, MAP_SHARED,
				   dfd, 0));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));
	EXPECT_EQ(0, munmap(p, SIZE));
	EXPECT_EQ(0, close(dfd));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * DESTROY while exported is allowed: the pages stay (and stay counted)
 * until the last reference - fd, mmap or importer - is gone.
 */
TEST_F(dmabuf, close_orders)
{
	struct dxgpmo_create_pmo c;
	uint32_t handle;
	uint8_t *p;
	int dfd;

	/* destroy, then close the fd */
	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(self->fd, c.pmo_id, O_RDWR, &dfd));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(SIZE / PAGE, global_pages(self->fd));
	EXPECT_EQ(0, close(dfd));
	EXPECT_EQ(0, global_pages(self->fd));

	/* close the fd, then destroy */
	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(self->fd, c.pmo_id, O_RDWR, &dfd));
	EXPECT_EQ(0, close(dfd));
	EXPECT_EQ(SIZE / PAGE, global_pages(self->fd));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, global_pages(self->fd));

	/* an mmap of the dma-buf outlives fd and object */
	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(self->fd, c.pmo_id, O_RDWR, &dfd));
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, close(dfd));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	p[PAGE] = 1;
	EXPECT_EQ(1, ((volatile uint8_t *)p)[PAGE]);
	EXPECT_EQ(SIZE / PAGE, global_pages(self->fd));
	EXPECT_EQ(0, munmap(p, SIZE));
	EXPECT_EQ(0, global_pages(self->fd));

	/* the importer holds the pages last */
	if (self->vgem < 0)
		SKIP(return, "no vgem device (load vgem)");
	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(self->fd, c.pmo_id, O_RDWR, &dfd));
	ASSERT_EQ(0, drmPrimeFDToHandle(self->vgem, dfd, &handle));
	EXPECT_EQ(0, close(dfd));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(SIZE / PAGE, global_pages(self->fd));
	gem_close(self->vgem, handle);
	EXPECT_EQ(0, global_pages(self->fd));
}

/*
 * A mapping of the buffer split by munmap() and copied by fork() holds
 * the pages once a piece: they stay, shared, until the last piece of
 * either process is gone.
 */
TEST_F(dmabuf, mmap_split_and_forked)
{
	struct dxgpmo_create_pmo c;
	volatile uint8_t *p;
	int dfd, status;
	pid_t pid;

	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(self->fd, c.pmo_id, O_RDWR, &dfd));
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, close(dfd));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	/* two pieces: the first page, and the last two */
	ASSERT_EQ(0, munmap((void *)(p + PAGE), PAGE));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		p[0] = 0x21;
		p[3 * PAGE] = 0x43;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0x21, p[0]);
	EXPECT_EQ(0x43, p[3 * PAGE]);
	EXPECT_EQ(SIZE / PAGE, global_pages(self->fd));
	EXPECT_EQ(0, munmap((void *)p, PAGE));
	EXPECT_EQ(SIZE / PAGE, global_pages(self->fd));
	EXPECT_EQ(0, munmap((void *)(p + 2 * PAGE), 2 * PAGE));
	EXPECT_EQ(0, global_pages(self->fd));
}

TEST_F(dmabuf, bad_args)
{
	struct dxgpmo_create_pmo c;
	struct dxgpmo_export_dmabuf e;
	int dfd, other;

	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	EXPECT_EQ(-EINVAL, dxgpmo_export_dmabuf(self->fd, c.pmo_id,
						O_WRONLY, &dfd));
	EXPECT_EQ(-EINVAL, dxgpmo_export_dmabuf(self->fd, c.pmo_id,
						O_RDWR | O_NONBLOCK, &dfd));
	EXPECT_EQ(-EINVAL, dxgpmo_export_dmabuf(self->fd, c.pmo_id,
						O_RDWR | O_APPEND, &dfd));
	e = (struct dxgpmo_export_dmabuf){
		.size = sizeof(e), .pmo_id = c.pmo_id, .flags = 1,
	};
	EXPECT_EQ(-EINVAL, dxgpmo_ioctl(self->fd, DXGPMO_IOC_EXPORT_DMABUF,
					&e));
	e = (struct dxgpmo_export_dmabuf){
		.size = sizeof(e), .pmo_id = c.pmo_id, .fd = 3,
	};
	EXPECT_EQ(-EINVAL, dxgpmo_ioctl(self->fd, DXGPMO_IOC_EXPORT_DMABUF,
					&e));
	/* Another file's id, and a destroyed object. */
	other = dxgpmo_open();
	ASSERT_LE(0, other);
	EXPECT_EQ(-ENOENT, dxgpmo_export_dmabuf(other, c.pmo_id, O_RDWR, &dfd));
	close(other);
	EXPECT_EQ(-ENOENT, dxgpmo_export_dmabuf(self->fd, 0, O_RDWR, &dfd));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(-ENOENT, dxgpmo_export_dmabuf(self->fd, c.pmo_id,
						O_RDWR, &dfd));
	/* Read-only exports are fine. */
	ASSERT_EQ(0, create(self->fd, variant->type, variant->cache, &c));
	ASSERT_EQ(0, dxgpmo_export_dmabuf(self->fd, c.pmo_id, O_RDONLY, &dfd));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, dfd, 0));
	EXPECT_EQ(0, close(dfd));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

TEST_HARNESS_MAIN
