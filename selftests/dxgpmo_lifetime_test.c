// SPDX-License-Identifier: GPL-2.0
/*
 * Destructive lifetime kselftests, run last in a VM boot (issue 13):
 *
 * lifetime: the module is reloaded so that the test's open is the first,
 * through a device node on a scratch tmpfs; closing it must leave nothing
 * of that tmpfs in use, so the tmpfs can be unmounted (a container's /dev)
 * and the device keeps working.
 *
 * The steps after the reload run in a child process waited for with a
 * bound: a kernel oops with a lock held leaves that child stuck for good,
 * and the test must report it, not hang on it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

#define PAGE 4096ULL

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

FIXTURE(lifetime) {
	int kmsg;
};

FIXTURE_SETUP(lifetime)
{
	self->kmsg = kmsg_open_new();
}

FIXTURE_TEARDOWN(lifetime)
{
	if (self->kmsg >= 0)
		close(self->kmsg);
}

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

TEST_HARNESS_MAIN
