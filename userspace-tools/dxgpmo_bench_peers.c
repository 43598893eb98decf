// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench scenario 2's user-space peers: what a Linux program that
 * wants "my memory mapped for my device" uses instead of an ADL.  VFIO
 * type1 maps a process's populated buffer into the IOMMU domain of a
 * device bound to vfio-pci (VFIO_IOMMU_MAP_DMA + UNMAP_DMA); iommufd does
 * the same through an IOAS where the kernel has CONFIG_IOMMUFD.
 *
 * The device is the first one vfio-pci drives (the bench boot binds the
 * second edu to it): behind the same IOMMU as the ADL's adapter.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <linux/vfio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dxgpmo_bench.h"

#define VFIO_DRIVER	"/sys/bus/pci/drivers/vfio-pci"
/* Above x86's MSI window and arm64 virt's, below every IOMMU's limit. */
#define PEER_IOVA	(1ULL << 32)

static int vfio_container = -1;
static int vfio_group = -1;
static void *peer_buf;
static size_t peer_buf_size;

/* The IOMMU group of the first device vfio-pci drives, or -1. */
static int vfio_group_of_bound_device(char *name, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	struct dirent *d;
	int group = -1;
	ssize_t n;
	DIR *dir;

	dir = opendir(VFIO_DRIVER);
	while (dir && group < 0 && (d = readdir(dir))) {
		if (!strchr(d->d_name, ':'))
			continue;
		snprintf(link, sizeof(link), VFIO_DRIVER "/%s/iommu_group",
			 d->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		group = atoi(strrchr(target, '/') + 1);
		snprintf(name, len, "%s", d->d_name);
	}
	if (dir)
		closedir(dir);
	return group;
}

/*
 * A type1 container holding the group; says once why not.  Returns 0
 * when the rows can run.
 */
static int vfio_open(void)
{
	struct vfio_group_status status = { .argsz = sizeof(status) };
	char path[64], device[NAME_MAX + 1];
	const char *why = NULL;
	int group;

	if (vfio_container >= 0)
		return 0;
	errno = 0;
	vfio_container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
	if (vfio_container < 0) {
		why = "no /dev/vfio/vfio (kernel without CONFIG_VFIO, or vfio not loaded)";
		goto fail;
	}
	group = vfio_group_of_bound_device(device, sizeof(device));
	if (group < 0) {
		why = "no device bound to vfio-pci (bind a spare one: driver_override)";
		errno = 0;
		goto fail;
	}
	snprintf(path, sizeof(path), "/dev/vfio/%d", group);
	vfio_group = open(path, O_RDWR | O_CLOEXEC);
	if (vfio_group < 0) {
		why = path;
		goto fail;
	}
	if (ioctl(vfio_group, VFIO_GROUP_GET_STATUS, &status)) {
		why = "VFIO_GROUP_GET_STATUS";
		goto fail;
	}
	if (!(status.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		why = "the device's IOMMU group is not viable (another device of it has a driver)";
		errno = 0;
		goto fail;
	}
	if (ioctl(vfio_container, VFIO_CHECK_EXTENSION, VFIO_TYPE1v2_IOMMU) != 1) {
		why = "no type1v2 IOMMU (vfio_iommu_type1 not loaded?)";
		goto fail;
	}
	if (ioctl(vfio_group, VFIO_GROUP_SET_CONTAINER, &vfio_container) ||
	    ioctl(vfio_container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU)) {
		why = "VFIO_SET_IOMMU type1v2 refused (vfio_iommu_type1 not loaded?)";
		goto fail;
	}
	printf("# adl peer: VFIO type1 on %s (IOMMU group %d)\n", device,
	       group);
	return 0;
fail:
	printf("# adl vs VFIO type1 skipped: %s%s%s\n", why, errno ? ": " : "",
	       errno ? strerror(errno) : "");
	if (vfio_group >= 0)
		close(vfio_group);
	if (vfio_container >= 0)
		close(vfio_container);
	vfio_group = -1;
	vfio_container = -2;	/* said */
	return -1;
}

static double vfio_map_unmap(size_t size, uint32_t unused)
{
	struct vfio_iommu_type1_dma_map map = {
		.argsz = sizeof(map),
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = (uintptr_t)peer_buf, .iova = PEER_IOVA, .size = size,
	};
	struct vfio_iommu_type1_dma_unmap unmap = {
		.argsz = sizeof(unmap), .iova = PEER_IOVA, .size = size,
	};
	double t = now();

	if (ioctl(vfio_container, VFIO_IOMMU_MAP_DMA, &map))
		return -1;
	if (ioctl(vfio_container, VFIO_IOMMU_UNMAP_DMA, &unmap)) {
		/* Left mapped, every later MAP would fail: stop here. */
		perror("dxgpmo-bench: VFIO_IOMMU_UNMAP_DMA");
		exit(1);
	}
	return now() - t;
}

/* A buffer of SIZE, every page present, as the peers want it. */
static int peer_buffer(size_t size)
{
	if (peer_buf && peer_buf_size == size)
		return 0;
	if (peer_buf)
		munmap(peer_buf, peer_buf_size);
	peer_buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (peer_buf == MAP_FAILED) {
		peer_buf = NULL;
		return -1;
	}
	peer_buf_size = size;
	return 0;
}

/* ALLOCATE+FREE_ADL (ioctls: one of each) against VFIO type1, in pairs. */
void adl_vs_vfio(const char *adapter, size_t size,
		 double (*ioctls)(size_t, uint32_t))
{
	static int said_size;
	struct pair_result r;
	char what[64];

	if (vfio_container == -2 || vfio_open())
		return;
	if (peer_buffer(size)) {
		printf("# adl vs VFIO type1 skipped at %zu KiB: populating the buffer: %s\n",
		       size >> 10, strerror(errno));
		return;
	}
	errno = 0;
	if (paired(ioctls, 0, vfio_map_unmap, 0, size, pairs_for(size), &r)) {
		if (!said_size)
			printf("# adl vs VFIO type1 skipped from %zu KiB: %s\n",
			       size >> 10, strerror(errno));
		said_size = 1;
		return;
	}
	snprintf(what, sizeof(what), "ALLOCATE+FREE_ADL %s", adapter);
	report_pairs("adl", what, size, "VFIO type1 MAP+UNMAP", &r, "");
}

/*
 * iommufd needs a kernel with CONFIG_IOMMUFD and a device attached
 * through vfio's device cdev; none of Debian's kernels this tool is
 * tested on has either, so there is nothing to measure it against yet.
 */
void adl_vs_iommufd(void)
{
	static int said;

	if (said++)
		return;
	if (access("/dev/iommu", F_OK))
		printf("# adl vs iommufd skipped: no /dev/iommu (kernel without CONFIG_IOMMUFD)\n");
	else
		printf("# adl vs iommufd skipped: the IOAS_MAP row is not written yet; no tested kernel has CONFIG_IOMMUFD to check it on\n");
}

void adl_peers_done(void)
{
	if (peer_buf)
		munmap(peer_buf, peer_buf_size);
	peer_buf = NULL;
	if (vfio_group >= 0)
		close(vfio_group);
	if (vfio_container >= 0)
		close(vfio_container);
	vfio_group = -1;
	vfio_container = -1;
}
