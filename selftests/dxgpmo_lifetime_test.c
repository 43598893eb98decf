// SPDX-License-Identifier: GPL-2.0
/*
 * Destructive lifetime kselftests, run last in a VM boot (they reload the
 * module and remove a device):
 *
 * lifetime: the module is reloaded so that the test's open is the first,
 * through a device node on a scratch tmpfs; closing it must leave nothing
 * of that tmpfs in use, so the tmpfs can be unmounted (a container's /dev)
 * and the device keeps working.
 *
 * hotremove: an edu device is removed (sysfs "remove") under an ADL, a
 * kernel view and a tracked memory basis; the ADL must be revoked at once,
 * later calls on the adapter fail with -ENODEV, everything can still be
 * freed without a kernel splat, and a rescan brings the device back as a
 * new adapter.
 *
 * The steps after the reload and after the removal run in a child process
 * waited for with a bound: a kernel oops with a file lock held leaves that
 * child stuck for good, and the test must report it, not hang on it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "steady.h"

#define STATS_PATH "/sys/kernel/debug/dxgpmo/stats"

/* Wait up to ms for child pid; 1 with *status when it ended. */
static int wait_child(pid_t pid, int *status, unsigned int ms)
{
	unsigned int i;

	for (i = 0; i <= ms / 10; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return 1;
		usleep(10000);
	}
	return 0;
}

static const char *module_path(void)
{
	const char *path = getenv("DXGPMO_MODULE");

	return path ? path : "./dxgpmo.ko";
}

/* Unload the module if loaded, load it again without parameters. */
static int reload_module(void)
{
	int fd = open(module_path(), O_RDONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_delete_module, "dxgpmo", O_NONBLOCK) &&
	    errno != ENOENT)
		ret = -errno;
	if (!ret && syscall(SYS_finit_module, fd, "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

/* A fixture that reads the kernel log written during its test. */
#define FIXTURE_KMSG(fixture_name)                                         \
	FIXTURE(fixture_name) {                                            \
		int kmsg;                                                  \
	};                                                                 \
	FIXTURE_SETUP(fixture_name)                                        \
	{                                                                  \
		self->kmsg = kmsg_open_new();                              \
	}                                                                  \
	FIXTURE_TEARDOWN(fixture_name)                                     \
	{                                                                  \
		if (self->kmsg >= 0)                                       \
			close(self->kmsg);                                 \
	}

FIXTURE_KMSG(lifetime)

/* Segment and object windows work: 0, or the step that failed. */
static int use_device(void)
{
	struct dxgpmo_adapter_info a[DXGPMO_MAX_ADAPTERS];
	struct dxgpmo_create_pmo c = { .length = 2 * PAGE };
	volatile uint8_t *p;
	uint32_t nr = 0;
	unsigned int i;
	int fd = dxgpmo_open();

	if (fd < 0)
		return 1;
	if (dxgpmo_query_adapters(fd, a, DXGPMO_MAX_ADAPTERS, &nr) || !nr)
		return 2;
	p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a[0].segment_mmap_offset);
	if (p == MAP_FAILED)
		return 3;
	for (i = 0; i < 4; i++)
		p[i * PAGE + 11] = 0xa0 + i;
	for (i = 0; i < 4; i++)
		if (p[i * PAGE + 11] != 0xa0 + i)
			return 4;
	munmap((void *)p, 4 * PAGE);
	if (dxgpmo_create_pmo(fd, &c))
		return 5;
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 c.mmap_offset);
	if (p == MAP_FAILED)
		return 6;
	if (p[PAGE + 3] != 0)
		return 7;
	p[PAGE + 3] = 0x5a;
	if (p[PAGE + 3] != 0x5a)
		return 7;
	munmap((void *)p, 2 * PAGE);
	if (dxgpmo_destroy_pmo(fd, c.pmo_id, 0))
		return 8;
	return close(fd) ? 9 : 0;
}

/*
 * The first open of the freshly loaded module goes through a node made by
 * mknod on a scratch tmpfs.  Once that file is closed and the node
 * unlinked, the tmpfs must have its inode back (its free-inode count says
 * so).  A module still holding it would make the unmount find a busy inode
 * ("VFS: Busy inodes after unmount", a BUG() with
 * CONFIG_BUG_ON_DATA_CORRUPTION, as on Debian's kernels, which leaves the
 * superblock locked: the next sync(2) hangs for good) and would go on using
 * the inode of a dead superblock.  So the tmpfs is only unmounted when the
 * inode came back (DXGPMO_UMOUNT_BUSY=1 unmounts it anyway, to show the
 * BUG); then segment and object windows must work and the log stay clean.
 */
TEST_F_TIMEOUT(lifetime, first_open_on_unmounted_tmpfs, 120)
{
	struct dxgpmo_adapter_info a[DXGPMO_MAX_ADAPTERS];
	char dir[] = "/tmp/dxgpmo-node-XXXXXX", node[64], line[512];
	struct statfs s0, s1, s2;
	struct stat dev;
	int fd, freed, status = 0, ended, unmounted = 0;
	uint32_t nr;
	pid_t pid;

	if (access(module_path(), R_OK))
		SKIP(return, "no module at %s (DXGPMO_MODULE)", module_path());
	ASSERT_EQ(0, reload_module());
	ASSERT_EQ(0, stat(DXGPMO_DEV_PATH, &dev));
	ASSERT_TRUE(S_ISCHR(dev.st_mode));
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, mount("tmpfs", dir, "tmpfs", 0,
			   "nr_inodes=64,size=64k,mode=0700"));
	ASSERT_EQ(0, statfs(dir, &s0));
	snprintf(node, sizeof(node), "%s/dxgpmo", dir);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600, dev.st_rdev));
	ASSERT_EQ(0, statfs(dir, &s1));
	ASSERT_EQ(s0.f_ffree - 1, s1.f_ffree);

	fd = open(node, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, dxgpmo_query_adapters(fd, a, DXGPMO_MAX_ADAPTERS, &nr));
	EXPECT_EQ(0, close(fd));
	ASSERT_EQ(0, unlink(node));
	ASSERT_EQ(0, statfs(dir, &s2));
	freed = s2.f_ffree == s0.f_ffree;
	EXPECT_TRUE(freed) {
		TH_LOG("the module still holds the inode of the node it was first opened through (tmpfs free inodes %llu before mknod, %llu after close and unlink)%s",
		       (unsigned long long)s0.f_ffree,
		       (unsigned long long)s2.f_ffree,
		       getenv("DXGPMO_UMOUNT_BUSY") ? "" :
		       "; not unmounting it (DXGPMO_UMOUNT_BUSY=1 does)");
	}
	if (freed || getenv("DXGPMO_UMOUNT_BUSY")) {
		EXPECT_EQ(0, umount2(dir, 0));
		unmounted = 1;
		rmdir(dir);
	}

	/* A crash with the mmap lock held must not hang the test. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(use_device());
	ended = wait_child(pid, &status, 60000);
	EXPECT_TRUE(ended) {
		TH_LOG("using the device after the unmount never finished (kernel oops?)");
	}
	if (ended) {
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WIFEXITED(status) ? WEXITSTATUS(status) : -1) {
			TH_LOG("segment/object window step %d failed%s",
			       WEXITSTATUS(status),
			       unmounted ? " after the unmount" : "");
		}
	}
	EXPECT_EQ(0, kmsg_find_bad(self->kmsg, line, sizeof(line))) {
		TH_LOG("kernel log: %s", line);
	}
}

/*
 * 1 when every counter of live things is 0 (leak totals and segment pages,
 * which live as long as an adapter, excluded); else the first other one.
 */
static int debugfs_live_zero(char *why, size_t len)
{
	char key[64];
	long long val;
	int zero = 1;
	FILE *f = fopen(STATS_PATH, "r");

	if (!f) {
		snprintf(why, len, "no %s", STATS_PATH);
		return 0;
	}
	while (zero && fscanf(f, "%63s %lld", key, &val) == 2) {
		if (!strncmp(key, "leaked_", 7) ||
		    !strncmp(key, "segment_", 8) || !val)
			continue;
		snprintf(why, len, "%s %lld", key, val);
		zero = 0;
	}
	fclose(f);
	return zero;
}

FIXTURE_KMSG(hotremove)

#define REMOVE_DMA_LEN 256

/* What the child saw; shared with the parent. */
struct removal {
	char step[48];			/* the step it is in, "done" at end */
	char setup_failed[48];
	int remove_ret;
	long long dma_mapped_after_remove;
	int dma_ret, adl_ret, basis_ret, open_ret;
	int query_ret, stop_ret, destroy_basis_ret;
	int unmap_ret, free_adl_ret, destroy_ret, close_ret;
	int io_created, io_map_ret, io_destroy_ret;
	/* A view of the registers in the process, made before the removal. */
	int io_view_made, io_view_sigbus, io_view_unmap_ret;
	int io_view_map_after_ret;
	uint32_t io_view_before, io_view_after;
	/*
	 * A view of the adapter's segment, made before the removal: it
	 * keeps the segment (not the adapter), whose pages go at its munmap.
	 */
	int seg_view_made;
	uint8_t seg_after;
	long long seg_pages_held, seg_pages_freed;
};

static sigjmp_buf removal_jmp;

static void removal_on_sigbus(int sig)
{
	siglongjmp(removal_jmp, 1);
}

#define STEP(r, name) snprintf((r)->step, sizeof((r)->step), "%s", name)
/* A step that must work before the removal: the run ends if it fails. */
#define SETUP_STEP(r, name, call)                                          \
	do {                                                               \
		STEP(r, name);                                             \
		if (call)                                                  \
			goto setup_failed;                                 \
	} while (0)

static void removal_run(struct removal *r, const struct dxgpmo_adapter_info *e,
			const char *pci)
{
	struct dxgpmo_create_pmo c = {
		.length = 4 * PAGE, .adapter_id = e->adapter_id,
		.high_address = (1ULL << 32) - 1,
	};
	struct dxgpmo_create_pmo c2 = { .length = PAGE };
	/* The engine's registers, as an IO_SPACE object (read-only). */
	struct dxgpmo_create_pmo io = {
		.type = DXGPMO_PMO_TYPE_IO_SPACE, .length = PAGE,
		.cache_type = DXGPMO_CACHE_NON_CACHED, .io_base = edu_bar0(e),
	};
	struct dxgpmo_map io_map = {
		.access_mode = DXGPMO_ACCESS_KERNEL, .length = PAGE,
	};
	struct dxgpmo_map io_view = {
		.access_mode = DXGPMO_ACCESS_KERNEL, .length = PAGE,
		.flags = DXGPMO_MAP_IN_PROCESS,
	};
	volatile uint32_t *regs = NULL;
	struct dxgpmo_allocate_adl adl = { .length = 4 * PAGE };
	struct dxgpmo_allocate_adl adl2 = { .length = PAGE };
	struct dxgpmo_memory_range range = { .length = 16 * PAGE };
	struct dxgpmo_map m = {
		.access_mode = DXGPMO_ACCESS_KERNEL, .length = 4 * PAGE,
	};
	uint8_t buf[REMOVE_DMA_LEN], bits[2];
	uint32_t basis = 0, amo2 = 0, basis2 = 0;
	volatile uint8_t *seg = MAP_FAILED;
	long long seg_pages = 0;
	char path[128];
	int fd;

	memset(buf, 0x3c, sizeof(buf));
	STEP(r, "open");
	fd = dxgpmo_open();
	if (fd < 0)
		goto setup_failed;
	SETUP_STEP(r, "create_pmo", dxgpmo_create_pmo(fd, &c));
	adl.amo_id = c.amo_id;
	SETUP_STEP(r, "allocate_adl", dxgpmo_allocate_adl(fd, &adl));
	SETUP_STEP(r, "adapter_dma",
		   dxgpmo_adapter_dma(fd, e->adapter_id, DXGPMO_DMA_TO_MEMORY,
				      adl.base_page * PAGE, buf, sizeof(buf)));
	m.pmo_id = c.pmo_id;
	SETUP_STEP(r, "map_kernel", dxgpmo_map(fd, &m));
	SETUP_STEP(r, "create_memory_basis",
		   dxgpmo_create_memory_basis(fd, e->adapter_id, 1, &range, 1,
					      &basis));
	SETUP_STEP(r, "start_dirty_tracking",
		   dxgpmo_start_dirty_tracking(fd, basis));
	/* Needs CAP_SYS_RAWIO (and no lockdown): optional. */
	STEP(r, "create io_space");
	r->io_created = io.io_base && !dxgpmo_create_pmo(fd, &io);
	if (r->io_created) {
		io_view.pmo_id = io.pmo_id;
		SETUP_STEP(r, "map io_space in process",
			   dxgpmo_map(fd, &io_view));
		regs = (volatile uint32_t *)(uintptr_t)io_view.address;
		r->io_view_before = regs[0];
		r->io_view_made = 1;
	}

	STEP(r, "map segment");
	seg_pages = debugfs_counter("segment_pages");
	seg = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   e->segment_mmap_offset);
	if (seg == MAP_FAILED)
		goto setup_failed;
	seg[0] = 0x5a;
	seg[PAGE] = 0xa5;
	r->seg_pages_held = debugfs_counter("segment_pages") - seg_pages;
	r->seg_view_made = 1;

	STEP(r, "remove");
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", pci);
	r->remove_ret = write_sysfs(path, "1");
	r->dma_mapped_after_remove = debugfs_counter("dma_mapped_pages");

	STEP(r, "adapter_dma after remove");
	r->dma_ret = dxgpmo_adapter_dma(fd, e->adapter_id,
					DXGPMO_DMA_TO_MEMORY,
					adl.base_page * PAGE, buf, sizeof(buf));
	STEP(r, "allocate_adl after remove");
	adl2.amo_id = c.amo_id;
	r->adl_ret = dxgpmo_allocate_adl(fd, &adl2);
	if (!r->adl_ret)
		dxgpmo_free_adl(fd, adl2.adl_id);
	STEP(r, "create_memory_basis after remove");
	r->basis_ret = dxgpmo_create_memory_basis(fd, e->adapter_id, 1, &range,
						  1, &basis2);
	if (!r->basis_ret)
		dxgpmo_destroy_memory_basis(fd, basis2);
	STEP(r, "open_pmo after remove");
	r->open_ret = -EIO;
	if (!dxgpmo_create_pmo(fd, &c2)) {
		r->open_ret = dxgpmo_open_pmo(fd, c2.pmo_id, e->adapter_id,
					      &amo2);
		if (!r->open_ret)
			dxgpmo_close_pmo(fd, amo2);
		dxgpmo_destroy_pmo(fd, c2.pmo_id, 0);
	}

	/* ...nor an old one: the view's PTEs went with the device. */
	STEP(r, "read io_space view after remove");
	if (regs) {
		signal(SIGBUS, removal_on_sigbus);
		if (sigsetjmp(removal_jmp, 1))
			r->io_view_sigbus = 1;
		else
			r->io_view_after = regs[0];
		signal(SIGBUS, SIG_DFL);
		r->io_view_unmap_ret = dxgpmo_unmap(fd, io.pmo_id,
						    io_view.address,
						    io_view.length);
	}

	/* The BAR may belong to something else by now: no new view of it. */
	STEP(r, "map io_space after remove");
	if (r->io_created) {
		io_map.pmo_id = io.pmo_id;
		r->io_map_ret = dxgpmo_map(fd, &io_map);
		if (!r->io_map_ret)
			dxgpmo_unmap(fd, io.pmo_id, io_map.address,
				     io_map.length);
		io_view.address = 0;
		io_view.map_id = 0;
		r->io_view_map_after_ret = dxgpmo_map(fd, &io_view);
		if (!r->io_view_map_after_ret)
			dxgpmo_unmap(fd, io.pmo_id, io_view.address,
				     io_view.length);
		r->io_destroy_ret = dxgpmo_destroy_pmo(fd, io.pmo_id, 0);
	}

	STEP(r, "query_dirty_bits");
	r->query_ret = dxgpmo_query_dirty_bits(fd, basis,
					       DXGPMO_DIRTY_CLEAR_DATA, 0, 0, 0,
					       bits, sizeof(bits));
	STEP(r, "stop_dirty_tracking");
	r->stop_ret = dxgpmo_stop_dirty_tracking(fd, basis);
	STEP(r, "destroy_memory_basis");
	r->destroy_basis_ret = dxgpmo_destroy_memory_basis(fd, basis);
	STEP(r, "unmap");
	r->unmap_ret = dxgpmo_unmap(fd, c.pmo_id, m.address, m.length);
	STEP(r, "free_adl");
	r->free_adl_ret = dxgpmo_free_adl(fd, adl.adl_id);
	/* With the ADL still there, DESTROY would be the ADL leak (BUG). */
	STEP(r, "destroy_pmo");
	r->destroy_ret = r->free_adl_ret ? -EBUSY :
			 dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id);
	STEP(r, "close");
	r->close_ret = close(fd) ? -errno : 0;
	/* The adapter is gone by now; its segment lives on in the view. */
	STEP(r, "segment view after remove");
	r->seg_after = seg[0];
	seg[1] = 1;
	munmap((void *)seg, 2 * PAGE);
	r->seg_pages_freed = seg_pages + r->seg_pages_held -
			     debugfs_counter("segment_pages");
	STEP(r, "done");
	return;

setup_failed:
	snprintf(r->setup_failed, sizeof(r->setup_failed), "%s", r->step);
	if (seg != MAP_FAILED)
		munmap((void *)seg, 2 * PAGE);
	if (fd >= 0)
		close(fd);
	STEP(r, "done");
}

/* The first adapter with a DMA engine, preferably behind an IOMMU. */
static int find_edu(int fd, struct dxgpmo_adapter_info *out)
{
	const struct dxgpmo_adapter_info *edu;
	struct adapters ad;

	if (load_adapters(fd, &ad))
		return 0;
	edu = ad.nr_iommu_edu ? ad.iommu_edu[0] : ad.edu;
	if (edu)
		*out = *edu;
	return !!edu;
}

/* 1 when an engine adapter at that PCI address is listed, in *out. */
static int engine_adapter_at(const char *pci, struct dxgpmo_adapter_info *out)
{
	int fd = dxgpmo_open(), found;

	if (fd < 0)
		return 0;
	found = dxgpmo_adapter_at_pci(fd, pci, out) &&
		(out->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE);
	close(fd);
	return found;
}

TEST_F_TIMEOUT(hotremove, remove_edu_with_live_objects, 180)
{
	struct dxgpmo_adapter_info e, back = { 0 };
	struct removal *r;
	char pci[32], why[128], line[512];
	int fd, status = 0, ended, rescan_ret, came_back = 0;
	unsigned int i;
	pid_t pid;

	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	if (!find_edu(fd, &e)) {
		close(fd);
		SKIP(return, "needs an edu adapter");
	}
	close(fd);
	dxgpmo_adapter_pci_name(&e, pci, sizeof(pci));
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	memset(r, 0, sizeof(*r));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		removal_run(r, &e, pci);
		_exit(0);
	}
	ended = wait_child(pid, &status, 60000);
	if (!ended)
		kill(pid, SIGKILL);	/* if it can still die; never waited */

	/* The device comes back whatever happened above. */
	rescan_ret = write_sysfs("/sys/bus/pci/rescan", "1");
	for (i = 0; i < 100 && !came_back; i++) {
		came_back = engine_adapter_at(pci, &back);
		if (!came_back)
			usleep(50000);
	}

	TH_LOG("%s (%s, adapter %u): child %s in step \"%s\"", pci, e.name,
	       e.adapter_id, ended ? "ended" : "STUCK", r->step);
	EXPECT_STREQ("", r->setup_failed);
	EXPECT_TRUE(ended) {
		TH_LOG("the child never returned from \"%s\" (kernel oops with its file lock held?)",
		       r->step);
	}
	if (ended)
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_EQ(0, r->remove_ret);
	/* The ADL was revoked when the device went. */
	EXPECT_EQ(0, r->dma_mapped_after_remove);
	/* Later calls on the adapter: no device. */
	EXPECT_EQ(-ENODEV, r->dma_ret);
	EXPECT_EQ(-ENODEV, r->adl_ret);
	EXPECT_EQ(-ENODEV, r->basis_ret);
	EXPECT_EQ(-ENODEV, r->open_ret);
	/*
	 * The segment view outlived the device: what was written before
	 * reads back, and the pages (those two at least) went at munmap.
	 */
	EXPECT_TRUE(r->seg_view_made && r->seg_after == 0x5a &&
		    r->seg_pages_freed >= 2) {
		TH_LOG("segment view made: %d, read 0x%x after the removal; %lld pages allocated by its writes, %lld freed at munmap",
		       r->seg_view_made, r->seg_after, r->seg_pages_held,
		       r->seg_pages_freed);
	}
	if (r->io_created) {
		EXPECT_EQ(-ENODEV, r->io_map_ret);
		EXPECT_EQ(-ENODEV, r->io_view_map_after_ret);
		EXPECT_EQ(1, r->io_view_made);
		EXPECT_EQ(0x010000ed, r->io_view_before);
		EXPECT_EQ(1, r->io_view_sigbus) {
			TH_LOG("a view of the removed BAR read 0x%x",
			       r->io_view_after);
		}
		EXPECT_EQ(0, r->io_view_unmap_ret);
	} else {
		TH_LOG("no IO_SPACE object of the registers: that check not run");
	}
	/* Everything can still be freed. */
	if (ended) {
		EXPECT_EQ(0, r->io_destroy_ret);
		EXPECT_EQ(0, r->stop_ret);
		EXPECT_EQ(0, r->destroy_basis_ret);
		EXPECT_EQ(0, r->unmap_ret);
		EXPECT_EQ(0, r->free_adl_ret);
		EXPECT_EQ(0, r->destroy_ret);
		EXPECT_EQ(0, r->close_ret);
	}
	EXPECT_TRUE(debugfs_live_zero(why, sizeof(why))) {
		TH_LOG("live counter after close: %s", why);
	}
	EXPECT_EQ(0, rescan_ret);
	EXPECT_TRUE(came_back) {
		TH_LOG("no adapter at %s after the rescan", pci);
	}
	if (came_back) {
		EXPECT_NE(e.adapter_id, back.adapter_id);
		TH_LOG("back as adapter %u (%s)", back.adapter_id, back.name);
	}
	EXPECT_EQ(0, kmsg_find_bad(self->kmsg, line, sizeof(line))) {
		TH_LOG("kernel log: %s", line);
	}
	munmap(r, sizeof(*r));
}

/*
 * Resource-steady pairs through the raw ioctls (see steady.h), as libdxgk's
 * steady.pairs does through the library.  A user view's range is the
 * caller's to munmap after UNMAP, as uapi/dxgpmo.h says.
 */
struct raw_steady {
	enum steady_pair pair;
	int fd;
	const struct dxgpmo_adapter_info *adapter;
};

/* The thread's own object: state[0] its PMO id, state[1] its AMO id. */
static long raw_setup(struct steady_thread *t)
{
	const struct raw_steady *r = t->arg;
	struct dxgpmo_create_pmo c = {
		.length = 2 * PAGE, .adapter_id = r->adapter->adapter_id,
	};
	int ret = dxgpmo_create_pmo(r->fd, &c);

	t->state[0] = c.pmo_id;
	t->state[1] = c.amo_id;
	return ret;
}

static void raw_teardown(struct steady_thread *t)
{
	const struct raw_steady *r = t->arg;

	dxgpmo_destroy_pmo(r->fd, t->state[0], t->state[1]);
}

static long raw_cycle(struct steady_thread *t, unsigned int i)
{
	const struct raw_steady *r = t->arg;
	uint32_t pmo = t->state[0], amo = t->state[1], basis;
	struct dxgpmo_allocate_adl a = { .amo_id = amo, .length = 2 * PAGE };
	struct dxgpmo_create_pmo c = {
		.length = PAGE, .adapter_id = r->adapter->adapter_id,
	};
	struct dxgpmo_memory_range range = {
		.segment_offset = t->slot * 4ULL * r->adapter->dirty_page_size,
		.length = 4ULL * r->adapter->dirty_page_size,
	};
	struct dxgpmo_map m = { .pmo_id = pmo, .length = 2 * PAGE };
	int ret, fd;

	switch (r->pair) {
	case STEADY_MAP_USER:
	case STEADY_MAP_KERNEL:
		m.access_mode = r->pair == STEADY_MAP_USER ? DXGPMO_ACCESS_USER :
							 DXGPMO_ACCESS_KERNEL;
		ret = dxgpmo_map(r->fd, &m);
		if (ret)
			return ret;
		ret = dxgpmo_unmap(r->fd, pmo, m.address, m.length);
		if (!ret && r->pair == STEADY_MAP_USER &&
		    munmap((void *)(uintptr_t)m.address, m.length))
			ret = -errno;
		return ret;
	case STEADY_ADL:
		ret = dxgpmo_allocate_adl(r->fd, &a);
		return ret ? ret : dxgpmo_free_adl(r->fd, a.adl_id);
	case STEADY_CREATE_WITH_AMO:
		ret = dxgpmo_create_pmo(r->fd, &c);
		return ret ? ret : dxgpmo_destroy_pmo(r->fd, c.pmo_id, c.amo_id);
	case STEADY_OPEN_CLOSE:
		fd = dxgpmo_open();
		if (fd < 0)
			return fd;
		return close(fd) ? -errno : 0;
	case STEADY_BASIS:
		ret = dxgpmo_create_memory_basis(r->fd, r->adapter->adapter_id,
						 1, &range, 1, &basis);
		if (ret)
			return ret;
		ret = dxgpmo_start_dirty_tracking(r->fd, basis);
		if (!ret)
			ret = dxgpmo_stop_dirty_tracking(r->fd, basis);
		if (ret) {
			dxgpmo_destroy_memory_basis(r->fd, basis);
			return ret;
		}
		return dxgpmo_destroy_memory_basis(r->fd, basis);
	}
	(void)i;
	return -EINVAL;
}

FIXTURE(raw_steady) {
	int fd;
	struct adapters ad;
};

STEADY_VARIANTS(raw_steady);

FIXTURE_SETUP(raw_steady)
{
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, load_adapters(self->fd, &self->ad));
	ASSERT_NE(NULL, self->ad.virt);
}

FIXTURE_TEARDOWN(raw_steady)
{
	teardown_dxgpmo(self->fd);
}

TEST_F_TIMEOUT(raw_steady, pairs, 600)
{
	struct raw_steady r = {
		.pair = variant->pair, .fd = self->fd,
		.adapter = self->ad.virt,
	};
	struct steady_thread proto = {
		.setup = raw_setup, .cycle = raw_cycle,
		.teardown = raw_teardown, .arg = &r,
	};

	steady_check(_metadata, &proto, variant->threads,
		     steady_cycles("DXGPMO_STEADY_CYCLES"));
}

TEST_HARNESS_MAIN
