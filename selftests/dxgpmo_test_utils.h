/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the dxgpmo selftests, on top of libdxgpmo.  Include
 * after kselftest_harness.h.
 */
#ifndef DXGPMO_TEST_UTILS_H
#define DXGPMO_TEST_UTILS_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>

#include "libdxgpmo.h"
#include "dxgpmo_test.h"
#include "machine.h"

#ifndef offsetofend
#define offsetofend(TYPE, MEMBER) \
	(offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER))
#endif

#define EXPECT_ERRNO(expected_errno, cmd)          \
	({                                         \
		ASSERT_EQ(-1, cmd);                \
		EXPECT_EQ(expected_errno, errno);  \
	})

/*
 * The module's page size.  Fixed, not sysconf(): the test VMs are x86-64
 * and the ABI's page-multiple rules are stated in 4 KiB pages.
 */
#define PAGE 4096ULL

/*
 * Every ioctl, as X(name, struct, last): the struct it takes and the last
 * field of that struct's first version.  A struct shorter than
 * offsetofend(struct, last) is -EINVAL, a longer one than the module knows
 * is -E2BIG unless the bytes it does not know are zero.
 */
#define DXGPMO_IOCTL_TABLE(X)                                              \
	X(QUERY_ADAPTERS, dxgpmo_query_adapters, entries)                  \
	X(CREATE_PMO, dxgpmo_create_pmo, mmap_offset)                      \
	X(DESTROY_PMO, dxgpmo_destroy_pmo, amo_id)                         \
	X(OPEN_PMO, dxgpmo_open_pmo, __reserved)                           \
	X(CLOSE_PMO, dxgpmo_close_pmo, __reserved)                         \
	X(ALLOCATE_ADL, dxgpmo_allocate_adl, base_page)                    \
	X(FREE_ADL, dxgpmo_free_adl, __reserved)                           \
	X(MAP, dxgpmo_map, __reserved)                                     \
	X(UNMAP, dxgpmo_unmap, length)                                     \
	X(KMAP_RW, dxgpmo_kmap_rw, buffer)                                 \
	X(ADAPTER_DMA, dxgpmo_adapter_dma, buffer)                         \
	X(CREATE_MEMORY_BASIS, dxgpmo_create_memory_basis, ranges)         \
	X(DESTROY_MEMORY_BASIS, dxgpmo_destroy_memory_basis, __reserved)   \
	X(START_DIRTY_TRACKING, dxgpmo_dirty_tracking, __reserved)         \
	X(STOP_DIRTY_TRACKING, dxgpmo_dirty_tracking, __reserved)          \
	X(QUERY_DIRTY_BITS, dxgpmo_query_dirty_bits, buffer_size)          \
	X(EXPORT_DMABUF, dxgpmo_export_dmabuf, __reserved)                 \
	X(STATS, dxgpmo_stats, file)                                       \
	X(TEST, dxgpmo_test_cmd, fail_nth)

/* Room for any ioctl's struct and more, aligned like them. */
#define DXGPMO_CMD_BUF_WORDS 64

/*
 * The ioctl with arg copied into a struct longer than the caller's, the
 * extra bytes zero: the module must take it exactly as arg itself.  arg
 * starts with its size, as every ioctl's struct does.
 */
static inline int ioctl_zero_tail(int fd, unsigned long cmd, const void *arg)
{
	uint64_t buf[DXGPMO_CMD_BUF_WORDS] = { 0 };
	uint32_t size;

	memcpy(&size, arg, sizeof(size));
	if (size + 8 > sizeof(buf)) {
		errno = EOVERFLOW;
		return -1;
	}
	memcpy(buf, arg, size);
	size += 8;
	memcpy(buf, &size, sizeof(size));
	return ioctl(fd, cmd, buf);
}

static inline unsigned long read_sysfs_ulong(const char *path)
{
	char text[32];
	FILE *f = fopen(path, "r");
	char *end;
	unsigned long val;

	if (!f)
		return 0;
	if (!fgets(text, sizeof(text), f))
		text[0] = 0;
	fclose(f);
	/* decimal or 0x-prefixed hex, as sysfs prints either */
	val = strtoul(text, &end, 0);
	return end == text ? 0 : val;
}

/*
 * Whether the module was loaded with debug_ioctls=1 (a bool: Y or N); a
 * default build, without the test command, has no such parameter: no.
 */
static inline int debug_ioctls_enabled(void)
{
	char c = 'N';
	FILE *f = fopen("/sys/module/dxgpmo/parameters/debug_ioctls", "r");

	if (f) {
		if (fread(&c, 1, 1, f) != 1)
			c = 'N';
		fclose(f);
	}
	return c == 'Y';
}

#ifdef __USE_GNU	/* setresuid() and setresgid() are declared */
/*
 * Become nobody, with no supplementary groups and, since no id stays 0,
 * no capabilities left (the kernel clears them on setresuid()).  0 or -1.
 */
#define DXGPMO_NOBODY 65534
static inline int drop_to_nobody(void)
{
	if (setgroups(0, NULL) ||
	    setresgid(DXGPMO_NOBODY, DXGPMO_NOBODY, DXGPMO_NOBODY) ||
	    setresuid(DXGPMO_NOBODY, DXGPMO_NOBODY, DXGPMO_NOBODY))
		return -1;
	return 0;
}

/* Neither effective nor permitted capabilities left. */
static inline int no_effective_caps(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return 0;
	return !data[0].effective && !data[1].effective &&
	       !data[0].permitted && !data[1].permitted;
}

/*
 * A file of the node opened by nobody without capabilities, handed to this
 * (root) process over a unix socket; -1 on failure.
 */
static inline int open_as_nobody(void)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	struct stat st;
	int sv[2], fd = -1, status;
	pid_t pid;

	if (stat(DXGPMO_DEV_PATH, &st) || chmod(DXGPMO_DEV_PATH, 0666))
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		goto out;
	pid = fork();
	if (pid == 0) {
		int nfd;

		if (drop_to_nobody() || !no_effective_caps())
			_exit(1);
		nfd = dxgpmo_open();
		if (nfd < 0)
			_exit(2);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &nfd, sizeof(int));
		_exit(sendmsg(sv[1], &msg, 0) == 1 ? 0 : 3);
	}
	if (pid > 0 && recvmsg(sv[0], &msg, 0) == 1) {
		cm = CMSG_FIRSTHDR(&msg);
		if (cm && cm->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	close(sv[0]);
	close(sv[1]);
out:
	chmod(DXGPMO_DEV_PATH, st.st_mode & 07777);
	return fd;
}
#endif

/* BAR0 of an adapter's PCI device, from sysfs; 0 if none. */
static inline uint64_t edu_bar0(const struct dxgpmo_adapter_info *a)
{
	unsigned long long start = 0, end, flags;
	char pci[DXGPMO_PCI_NAME_MAX], path[128];
	FILE *f;

	dxgpmo_adapter_pci_name(a, pci, sizeof(pci));
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource", pci);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llx %llx %llx", &start, &end, &flags) != 3)
		start = 0;
	fclose(f);
	return start;
}

#define DEFAULT_SEGMENT_SIZE \
	((uint64_t)read_sysfs_ulong("/sys/module/dxgpmo/parameters/segment_mb") << 20)

#define PCI_DMA_BITS_PARAM "/sys/module/dxgpmo/parameters/pci_dma_bits"

/* The DMA mask the generic driver gives the devices it binds. */
static inline uint64_t pci_dma_mask(void)
{
	unsigned long bits = read_sysfs_ulong(PCI_DMA_BITS_PARAM);

	return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

/* A PCI device the module should have made an adapter, as sysfs says. */
struct expected_pci {
	unsigned int domain, bus, devfn;
	unsigned int vendor, device;
	int iommu_group;	/* -1: none */
	int behind_iommu;	/* its group's domain is a DMA-API domain */
	int generic;		/* bound to dxgpmo-pci, not an edu */
};

struct expected_adapters {
	unsigned int nr_edu;
	unsigned int nr_generic;
	unsigned int nr_virtual;
	unsigned int nr_pci;
	struct expected_pci pci[DXGPMO_MAX_ADAPTERS];
};

/*
 * What the module should find, read from sysfs without asking it: every
 * edu device (by PCI id) unless it was handed to the generic driver, and
 * every device bound to the generic driver.
 */
static inline int discover_expected_adapters(struct expected_adapters *exp)
{
	DIR *dir = opendir("/sys/bus/pci/devices");
	struct dirent *de;

	memset(exp, 0, sizeof(*exp));
	if (!dir)
		return -1;
	while ((de = readdir(dir)) && exp->nr_pci < DXGPMO_MAX_ADAPTERS) {
		unsigned int domain, bus, dev, fn;
		char path[512], link[512], type[32] = "", driver[64] = "";
		struct expected_pci e = { .iommu_group = -1 };
		ssize_t n;
		FILE *f;

		if (sscanf(de->d_name, "%x:%x:%x.%x", &domain, &bus, &dev,
			   &fn) != 4)
			continue;
		if (dxgpmo_pci_driver_of(de->d_name, driver, sizeof(driver)))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor",
			 de->d_name);
		e.vendor = read_sysfs_ulong(path);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device",
			 de->d_name);
		e.device = read_sysfs_ulong(path);
		e.generic = !strcmp(driver, DXGPMO_PCI_DRIVER);
		if (!e.generic && (e.vendor != 0x1234 || e.device != 0x11e8))
			continue;
		e.domain = domain;
		e.bus = bus;
		e.devfn = dev << 3 | fn;
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/iommu_group", de->d_name);
		/* arm64's PCI devices sit deeper, under the host bridge */
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = 0;
			e.iommu_group = atoi(strrchr(link, '/') + 1);
		}
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/iommu_group/type", de->d_name);
		type[0] = 0;
		f = fopen(path, "r");
		if (f) {
			if (!fgets(type, sizeof(type), f))
				type[0] = 0;
			fclose(f);
		}
		e.behind_iommu = !strcmp(type, "DMA\n") ||
				 !strcmp(type, "DMA-FQ\n");
		exp->pci[exp->nr_pci++] = e;
		if (e.generic)
			exp->nr_generic++;
		else
			exp->nr_edu++;
	}
	closedir(dir);
	exp->nr_virtual =
		read_sysfs_ulong("/sys/module/dxgpmo/parameters/virtual_adapters");
	return 0;
}

/*
 * The expected device at an adapter's PCI address whose identity (ids,
 * IOMMU group, IOMMU cap, driver kind) matches what the module says; NULL
 * when none does.
 */
static inline const struct expected_pci *
expected_pci_for(const struct expected_adapters *exp,
		 const struct dxgpmo_adapter_info *a)
{
	unsigned int i;

	for (i = 0; i < exp->nr_pci; i++) {
		const struct expected_pci *e = &exp->pci[i];

		if (e->domain != a->pci_domain || e->bus != a->pci_bus ||
		    e->devfn != a->pci_devfn)
			continue;
		if (e->vendor != a->pci_vendor || e->device != a->pci_device ||
		    e->iommu_group != a->iommu_group ||
		    e->behind_iommu != !!(a->caps & DXGPMO_ADAPTER_CAP_IOMMU) ||
		    e->generic == !!(a->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE))
			return NULL;
		return e;
	}
	return NULL;
}

/*
 * The adapters QUERY_ADAPTERS lists, and the kinds of adapter the tests
 * look for among them.
 */
struct adapters {
	struct dxgpmo_adapter_info all[DXGPMO_MAX_ADAPTERS];
	uint32_t nr;
	const struct dxgpmo_adapter_info *any;	/* the first listed */
	const struct dxgpmo_adapter_info *edu;	/* the first with an engine */
	const struct dxgpmo_adapter_info *virt;	/* the first virtual one */
	/* the adapters with an engine behind an IOMMU, in list order */
	const struct dxgpmo_adapter_info *iommu_edu[DXGPMO_MAX_ADAPTERS];
	unsigned int nr_iommu_edu;
};

/*
 * The first adapter that has every cap of want and none of unwanted, or
 * NULL.
 */
static inline const struct dxgpmo_adapter_info *
find_adapter(const struct adapters *ad, uint32_t want, uint32_t unwanted)
{
	uint32_t i;

	for (i = 0; i < ad->nr && i < DXGPMO_MAX_ADAPTERS; i++)
		if ((ad->all[i].caps & want) == want &&
		    !(ad->all[i].caps & unwanted))
			return &ad->all[i];
	return NULL;
}

/* 0, or the -errno of QUERY_ADAPTERS. */
static inline int load_adapters(int fd, struct adapters *ad)
{
	const uint32_t iommu_edu = DXGPMO_ADAPTER_CAP_DMA_ENGINE |
				   DXGPMO_ADAPTER_CAP_IOMMU;
	uint32_t i;
	int ret;

	memset(ad, 0, sizeof(*ad));
	ret = dxgpmo_query_adapters(fd, ad->all, DXGPMO_MAX_ADAPTERS, &ad->nr);
	if (ret)
		return ret;
	ad->any = ad->nr ? &ad->all[0] : NULL;
	ad->edu = find_adapter(ad, DXGPMO_ADAPTER_CAP_DMA_ENGINE, 0);
	ad->virt = find_adapter(ad, DXGPMO_ADAPTER_CAP_VIRTUAL, 0);
	for (i = 0; i < ad->nr && i < DXGPMO_MAX_ADAPTERS; i++)
		if ((ad->all[i].caps & iommu_edu) == iommu_edu)
			ad->iommu_edu[ad->nr_iommu_edu++] = &ad->all[i];
	return 0;
}

/* As EXPECT_*() do, these take the test's _metadata from its scope. */
#define expect_no_live_objects(fd)                                         \
	do {                                                               \
		struct dxgpmo_stats __st;                                  \
		ASSERT_EQ(0, dxgpmo_get_stats(fd, &__st));                 \
		EXPECT_EQ(0, dxgpmo_counters_live(&__st.file));            \
	} while (0)

/*
 * Leak check after every test: close the test's file, then on a fresh file
 * every global counter of live things must be zero again.  Newer harnesses
 * run the teardown again when an assertion fails inside it, so it closes
 * once and uses EXPECT only.
 */
#define teardown_dxgpmo(fd)                                                \
	do {                                                               \
		struct dxgpmo_stats __st = { 0 };                          \
		int __fd;                                                  \
		if ((fd) < 0)                                              \
			break;                                             \
		EXPECT_EQ(0, close(fd));                                   \
		(fd) = -1;                                                 \
		__fd = dxgpmo_open();                                      \
		EXPECT_LE(0, __fd);                                        \
		EXPECT_EQ(0, dxgpmo_get_stats(__fd, &__st));               \
		EXPECT_EQ(0, __st.global.pmos);                            \
		EXPECT_EQ(0, __st.global.amos);                            \
		EXPECT_EQ(0, __st.global.adls);                            \
		EXPECT_EQ(0, __st.global.maps);                            \
		EXPECT_EQ(0, __st.global.bases);                           \
		EXPECT_EQ(0, __st.global.pages);                           \
		EXPECT_EQ(0, __st.global.dma_mapped_pages);                \
		close(__fd);                                               \
	} while (0)

/*
 * A second file, for objects left alive in it, and in *before the global
 * counters (read through fd) before it has any.
 */
static inline int open_second_file(struct __test_metadata *_metadata, int fd,
				   struct dxgpmo_stats *before)
{
	int fd2 = dxgpmo_open();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, before));
	return fd2;
}

/*
 * Closes the second file with its objects alive; in *after the global
 * counters then, in which nothing lives any more.
 */
static inline void close_second_file(struct __test_metadata *_metadata,
				     int fd, int fd2,
				     struct dxgpmo_stats *after)
{
	EXPECT_EQ(0, close(fd2));
	ASSERT_EQ(0, dxgpmo_get_stats(fd, after));
	EXPECT_EQ(0, dxgpmo_counters_live(&after->global));
}

/*
 * FIXTURE(name) of a test on one open /dev/dxgpmo file (self->fd) and the
 * adapters it lists (self->ad), at least min_adapters of them; the
 * teardown is the leak check.
 */
#define FIXTURE_DXGPMO(fixture_name, min_adapters)                         \
	FIXTURE(fixture_name) {                                            \
		int fd;                                                    \
		struct adapters ad;                                        \
	};                                                                 \
	FIXTURE_SETUP(fixture_name)                                        \
	{                                                                  \
		self->fd = dxgpmo_open();                                  \
		ASSERT_LE(0, self->fd);                                    \
		ASSERT_EQ(0, load_adapters(self->fd, &self->ad));          \
		if (min_adapters)                                          \
			ASSERT_LE(min_adapters, self->ad.nr);              \
	}                                                                  \
	FIXTURE_TEARDOWN(fixture_name)                                     \
	{                                                                  \
		teardown_dxgpmo(self->fd);                                 \
	}

/*
 * Kernel log lines a test provokes on purpose (IOMMU faults, the ADL-leak
 * WARN or BUG) are bracketed by "dxgpmo-expect: begin/end" lines written to
 * /dev/kmsg; make check (scripts/lib/results.sh) ignores what lies between
 * them and fails on such lines anywhere else.  A test waits until the line
 * it expects is in the log before it writes the end marker.
 */
static inline void kmsg_write(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (write(fd, line, strlen(line)) < 0)
		perror("kmsg");
	close(fd);
}

/* A reader of log records written after this call. */
static inline int kmsg_open_new(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * The next log record into rec (NUL-terminated): 1, or 0 once the waits
 * for one, 10 ms each and added up in *waited_ms, reached timeout_ms.
 */
static inline int kmsg_next_record(int fd, char *rec, size_t len,
				   int timeout_ms, int *waited_ms)
{
	for (;;) {
		ssize_t n = read(fd, rec, len - 1);

		if (n > 0) {
			rec[n] = 0;
			return 1;
		}
		if (n < 0 && errno == EPIPE)	/* overwritten records */
			continue;
		if (*waited_ms >= timeout_ms)
			return 0;
		usleep(10000);
		*waited_ms += 10;
	}
}

/* 1 when a record containing all of needles appears within timeout_ms. */
static inline int kmsg_wait_for(int fd, int timeout_ms, const char *needle,
				const char *needle2)
{
	char rec[2048];
	int waited = 0;

	while (kmsg_next_record(fd, rec, sizeof(rec), timeout_ms, &waited))
		if (strstr(rec, needle) && (!needle2 || strstr(rec, needle2)))
			return 1;
	return 0;
}

/*
 * Read log records until none containing needle came for quiet_ms: the
 * rest of a burst of reports that one of them announced.
 */
static inline void kmsg_wait_quiet(int fd, const char *needle, int quiet_ms)
{
	char rec[2048];
	int waited = 0, records = 0;

	while (records++ < 10000 &&
	       kmsg_next_record(fd, rec, sizeof(rec), quiet_ms, &waited))
		if (strstr(rec, needle))
			waited = 0;
}

/*
 * Wait up to timeout_ms for an SMMUv3's report of a translation fault
 * (event 0x10) by stream sid (a PCI device's requester id) at address
 * addr.  6.x kernels print the event as its raw double words, one record
 * each after "event 0x10 received:": the stream id is the upper half of
 * the first, the input address the third.  Later ones decode it on one
 * line, with "sid: 0x.." and the address in hex.  Returns 1 when seen.
 */
static inline int kmsg_wait_smmu_fault(int fd, int timeout_ms,
				       unsigned int sid, uint64_t addr)
{
	char rec[2048], want_sid[32], want_addr[32];
	unsigned long long dw[4];
	int waited = 0, word = -1;

	snprintf(want_sid, sizeof(want_sid), "sid: %#x", sid);
	snprintf(want_addr, sizeof(want_addr), "%#llx",
		 (unsigned long long)addr);
	while (kmsg_next_record(fd, rec, sizeof(rec), timeout_ms, &waited)) {
		char *msg = strchr(rec, ';'), *hex;

		msg = msg ? msg + 1 : rec;
		if (!strstr(msg, "smmu"))
			continue;
		if (strstr(msg, want_sid) && strstr(msg, want_addr))
			return 1;
		if (strstr(msg, "event 0x10 received")) {
			word = 0;
			continue;
		}
		/* the tab before each word, as /dev/kmsg escapes it */
		hex = strstr(msg, "\\x090x");
		if (word < 0 || !hex || sscanf(hex + 4, "%llx", &dw[word]) != 1) {
			word = -1;
			continue;
		}
		if (++word < 4)
			continue;
		word = -1;
		if (dw[0] >> 32 == sid && dw[2] == addr)
			return 1;
	}
	return 0;
}

static inline int write_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

/* The value of "name value" line name of file path; -1 if there is none. */
static inline long long keyed_counter(const char *path, const char *name)
{
	FILE *f = fopen(path, "r");
	char key[64];
	long long val, found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2)
		if (!strcmp(key, name))
			found = val;
	fclose(f);
	return found;
}

/* A global counter of the module's debugfs stats; -1 if there is none. */
/*
 * The pool's cap in pages, from debugfs; -1 if unreadable, 0 where there
 * is no pool (arm64: the linear map stays write-back).
 */
static inline long pool_cap_pages(void)
{
	char line[128];
	long cap = -1;
	FILE *f = fopen("/sys/kernel/debug/dxgpmo/pool", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cap_pages %ld", &cap) == 1)
			break;
	fclose(f);
	return cap;
}

static inline long long debugfs_counter(const char *name)
{
	return keyed_counter("/sys/kernel/debug/dxgpmo/stats", name);
}

#define CGROUP_ROOT "/sys/fs/cgroup"

/* write_sysfs() with the write's own errno. */
static inline int write_file(const char *path, const char *val)
{
	int ret = write_sysfs(path, val);

	return ret == -EIO ? -errno : ret;
}

/*
 * Joins the memory cgroup dir (under CGROUP_ROOT, made if missing) with
 * memory.max = max; 0 or -errno.  The caller leaves it with leave_memcg().
 */
static inline int join_memcg(const char *dir, const char *max)
{
	char path[256], pid[32];
	int ret;

	if (access(CGROUP_ROOT "/cgroup.controllers", F_OK) &&
	    mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL))
		return -errno;
	ret = write_file(CGROUP_ROOT "/cgroup.subtree_control", "+memory");
	if (ret)
		return ret;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	ret = write_file(path, max);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_file(path, pid);
}

static inline void leave_memcg(const char *dir)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(CGROUP_ROOT "/cgroup.procs", pid);
	rmdir(dir);
}

/*
 * The module's own fault injection: from now on the nth should-fail point
 * hit through fd fails (0: off).  *left gets what remained of the previous
 * countdown, non-zero when its point was never reached.  0 or -errno
 * (-ENOTTY without debug_ioctls=1).
 */
static inline int test_countdown(int fd, uint32_t op, uint64_t nth,
				 uint64_t *left)
{
	struct dxgpmo_test_cmd t = {
		.size = sizeof(t), .op = op, .fail_nth = nth,
	};
	int ret = dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, &t);

	if (!ret && left)
		*left = t.fail_nth;
	return ret;
}

static inline int module_fail_nth(int fd, uint64_t nth, uint64_t *left)
{
	return test_countdown(fd, DXGPMO_TEST_OP_FAIL_NTH, nth, left);
}

/*
 * A fail-nth sweep in the style of iommufd's fail_nth test: arm the nth
 * failure, run something, disarm and learn whether the nth point was
 * reached, for n = 1, 2, ... until it is not.  The failure is either the
 * module's should-fail countdown of the file (FAIL_NTH_MODULE) or the
 * kernel's failslab / fail_page_alloc on the nth allocation of this thread,
 * through /proc/self/task/<tid>/fail-nth (FAIL_NTH_KERNEL, on a kernel
 * with CONFIG_FAULT_INJECTION): then every allocation inside the module and
 * the kernel code it calls.
 */
enum fail_nth_source {
	FAIL_NTH_MODULE,
	FAIL_NTH_KERNEL,
};

struct fail_nth {
	enum fail_nth_source source;
	int proc_fd;		/* FAIL_NTH_KERNEL: this thread's fail-nth */
};

/*
 * 0; -EOPNOTSUPP when the source is not there (a module without
 * debug_ioctls=1, a kernel without fault injection); or another -errno.
 * fd: a /dev/dxgpmo file, to ask the module.
 */
static inline int fail_nth_open(struct fail_nth *f,
				enum fail_nth_source source, int fd)
{
	/* Quiet and unconditional: only fail-nth decides what fails. */
	static const char *const knobs[] = {
		"/sys/kernel/debug/failslab/ignore-gfp-wait",
		"/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait",
		"/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem",
		"/sys/kernel/debug/failslab/verbose",
		"/sys/kernel/debug/fail_page_alloc/verbose",
	};
	char path[64];
	unsigned int i;
	int ret;

	f->source = source;
	f->proc_fd = -1;
	if (source == FAIL_NTH_MODULE) {
		ret = module_fail_nth(fd, 0, NULL);
		return ret == -ENOTTY ? -EOPNOTSUPP : ret;
	}
	snprintf(path, sizeof(path), "/proc/self/task/%ld/fail-nth",
		 (long)syscall(SYS_gettid));
	if (access(path, W_OK))
		return -EOPNOTSUPP;
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		write_sysfs(knobs[i], "0");
	/* Opened before arming: opening it would allocate, and fail. */
	f->proc_fd = open(path, O_RDWR | O_CLOEXEC);
	return f->proc_fd < 0 ? -errno : 0;
}

static inline void fail_nth_close(struct fail_nth *f)
{
	if (f->proc_fd >= 0)
		close(f->proc_fd);
	f->proc_fd = -1;
}

/* Make the nth point fail (of fd's calls, or of this thread): 0 or -errno. */
static inline int fail_nth_arm(struct fail_nth *f, int fd, unsigned int nth)
{
	char num[16];
	int n;

	if (f->source == FAIL_NTH_MODULE)
		return module_fail_nth(fd, nth, NULL);
	n = snprintf(num, sizeof(num), "%u", nth);
	return pwrite(f->proc_fd, num, n, 0) == n ? 0 : -errno;
}

/* Off again: 1 when the armed point was reached, 0 when not, or -errno. */
static inline int fail_nth_disarm(struct fail_nth *f, int fd)
{
	char left[16] = "";
	uint64_t rest;
	int ret;

	if (f->source == FAIL_NTH_MODULE) {
		ret = module_fail_nth(fd, 0, &rest);
		return ret ? ret : !rest;
	}
	ret = pread(f->proc_fd, left, sizeof(left) - 1, 0) > 0 ? 0 : -EIO;
	/* disarmed before anything else allocates */
	if (pwrite(f->proc_fd, "0", 1, 0) != 1)
		return -errno;
	return ret ? ret : atoi(left) <= 0;
}

/*
 * The first kernel log record read from fd (a kmsg_open_new() reader) that
 * make check would count as a bad line (BAD_LOG in scripts/lib/results.sh:
 * an IOMMU fault of VT-d, AMD-Vi or virtio-iommu among them), or that
 * reports busy inodes at unmount or a DMA-API complaint; its message is
 * copied to out.  Reads everything available.  Returns 1 when one was found.
 */
static inline int kmsg_find_bad(int fd, char *out, size_t len)
{
	static const char *const bad[] = {
		"BUG:", "BUG at", "WARNING:", "Oops", "KASAN",
		"general protection", "Call Trace:", "Busy inodes", "DMA-API",
	};
	char rec[2048];
	unsigned int i;
	int found = 0;

	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *msg;
		int hit;

		if (n < 0 && errno == EPIPE)	/* overwritten records */
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		/* an IOMMU fault: VT-d's, AMD-Vi's, virtio-iommu's, SMMUv3's */
		hit = (strstr(msg, "DMAR:") && strstr(msg, "ault")) ||
		      strstr(msg, "IO_PAGE_FAULT") ||
		      (strstr(msg, "virtio_iommu") &&
		       strstr(msg, "fault from EP")) ||
		      (strstr(msg, "smmu") && strstr(msg, "event"));
		for (i = 0; i < ARRAY_SIZE(bad) && !hit; i++)
			hit = !!strstr(msg, bad[i]);
		if (hit && !found && len) {
			size_t l = strcspn(msg, "\n");

			if (l >= len)
				l = len - 1;
			memcpy(out, msg, l);
			out[l] = 0;
			found = 1;
		}
	}
	return found;
}

/* The IOMMU in front of a PCI device, as far as the tests tell them apart. */
enum iommu_kind {
	IOMMU_NONE,	/* no IOMMU, or the device has no link to one */
	IOMMU_VTD,	/* Intel VT-d: "DMAR: ... fault addr" lines */
	IOMMU_AMD_VI,	/* AMD-Vi: "Event logged [IO_PAGE_FAULT ..." lines */
	IOMMU_VIRTIO,	/* virtio-iommu: "... fault from EP n at 0x..." lines */
	IOMMU_OTHER,
};

/*
 * Which IOMMU translates for the PCI device domain:bus:devfn, by the name
 * its drivers give the IOMMU in sysfs (the device's "iommu" link): dmarN,
 * ivhdN, or for virtio-iommu the PCI name of the virtio device, under its
 * virtioN directory.
 */
static inline enum iommu_kind pci_iommu_kind(unsigned int domain,
					     unsigned int bus,
					     unsigned int devfn)
{
	char path[96], target[256];
	const char *name;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%04x:%02x:%02x.%x/iommu",
		 domain, bus, devfn >> 3, devfn & 7);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return IOMMU_NONE;
	target[n] = 0;
	/* virtio-iommu's is named after its PCI device, under virtioN/. */
	if (strstr(target, "/virtio"))
		return IOMMU_VIRTIO;
	name = strrchr(target, '/');
	name = name ? name + 1 : target;
	if (!strncmp(name, "dmar", 4))
		return IOMMU_VTD;
	if (!strncmp(name, "ivhd", 4))
		return IOMMU_AMD_VI;
	if (!strncmp(name, "virtio", 6))
		return IOMMU_VIRTIO;
	return IOMMU_OTHER;
}

/*
 * The two pieces of the kernel log line that reports a DMA fault of the
 * device bus:devfn at addr, as its IOMMU's driver words it; both are in
 * the one record.  VT-d: "DMAR: [DMA Write NO_PASID] Request device
 * [00:04.0] fault addr 0x..." (the device "[0000:00:04.0]" on 7.x, so
 * matched from the bus on).  AMD-Vi: "Event logged [IO_PAGE_FAULT
 * device=0000:00:04.0 domain=... address=0x... flags=...]", or the same
 * after the device's own name when a driver has it.  virtio-iommu:
 * "virtio_iommu virtio0: page fault from EP 32 at 0x... []", the endpoint
 * being the PCI requester id.  0 when the kind has no known line.
 */
static inline int iommu_fault_needles(enum iommu_kind kind, unsigned int bus,
				      unsigned int devfn,
				      unsigned long long addr,
				      char *n1, char *n2, size_t len)
{
	switch (kind) {
	case IOMMU_VTD:
		snprintf(n1, len, "fault addr 0x%llx", addr);
		snprintf(n2, len, "%02x:%02x.%x] fault addr", bus, devfn >> 3,
			 devfn & 7);
		return 1;
	case IOMMU_AMD_VI:
		snprintf(n1, len, "address=0x%llx flags=", addr);
		snprintf(n2, len, "%02x:%02x.%x", bus, devfn >> 3, devfn & 7);
		return 1;
	case IOMMU_VIRTIO:
		snprintf(n1, len, "fault from EP %u at 0x%llx ",
			 bus << 8 | devfn, addr);
		snprintf(n2, len, "virtio_iommu");
		return 1;
	default:
		return 0;
	}
}

/*
 * In the test VM (DXGPMO_TEST_VM), whether the devices' DMA is translated:
 * always, except in the iommu=pt boot of the IOMMU matrix
 * (DXGPMO_IOMMU_MODE=pt, scripts/guest/iommu-job.sh), where every group
 * is an identity domain and adapters hand out physical addresses.
 */
static inline int test_vm_translates(void)
{
	const char *mode = getenv("DXGPMO_IOMMU_MODE");

	return !mode || strcmp(mode, "pt");
}

/* 1 when an ADL's page numbers are one run of consecutive pages. */
static inline int pages_are_one_run(const uint64_t *pages, uint64_t n)
{
	uint64_t i;

	for (i = 1; i < n; i++)
		if (pages[i] != pages[0] + i)
			return 0;
	return 1;
}

/* A DRM node of vgem, or -1 when vgem is not loaded. */
static inline int open_vgem(void)
{
	char path[32];
	int i;

	for (i = 0; i < 16; i++) {
		drmVersionPtr v;
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && !strcmp(v->name, "vgem")) {
			drmFreeVersion(v);
			return fd;
		}
		if (v)
			drmFreeVersion(v);
		close(fd);
	}
	return -1;
}

#define ADL_LEAK_PARAM "/sys/module/dxgpmo/parameters/adl_leak"

/*
 * The memory type (enum dxgpmo_test_memtype) of a view of RAM of cache
 * type cache.  x86: non-cached is UC-, write-combined WC (UC- where PAT is
 * off, !wc_distinct).  arm64: both are Normal Non-cacheable, which reads
 * as WC: a device type would fault on every unaligned access to memory.
 */
static inline uint32_t ram_view_memtype(uint32_t cache, bool wc_distinct)
{
	if (cache == DXGPMO_CACHE_CACHED)
		return DXGPMO_TEST_MEMTYPE_WB;
#ifdef __aarch64__
	return DXGPMO_TEST_MEMTYPE_WC;
#else
	if (cache == DXGPMO_CACHE_WRITE_COMBINED && wc_distinct)
		return DXGPMO_TEST_MEMTYPE_WC;
	return DXGPMO_TEST_MEMTYPE_UC_MINUS;
#endif
}

/* Of a view of registers (a BAR that is not prefetchable). */
#ifdef __aarch64__
#define IO_VIEW_MEMTYPE DXGPMO_TEST_MEMTYPE_DEVICE
#else
#define IO_VIEW_MEMTYPE DXGPMO_TEST_MEMTYPE_UC_MINUS
#endif

/* A dma-buf of the object, read-write and close-on-exec, in *out. */
static inline int export_rw(int fd, uint32_t pmo, int *out)
{
	return dxgpmo_export_dmabuf(fd, pmo, O_RDWR | O_CLOEXEC, out);
}

/* The page protection CREATE_PMO needs for type: read-write sections. */
static inline uint32_t rw_protection(uint32_t type)
{
	return type == DXGPMO_PMO_TYPE_SECTION ? DXGPMO_PAGE_READWRITE : 0;
}

/*
 * FIXTURE_VARIANT_ADD() of a fixture whose variant has the members type and
 * cache: the variant name, of PMO type type_ and cache type cache_ (the
 * uapi's names less DXGPMO_PMO_TYPE_ and DXGPMO_CACHE_), then the values of
 * the fixture's other members, if any.
 */
#define PMO_VARIANT_ADD(fixture_name, name, type_, cache_, ...)            \
	FIXTURE_VARIANT_ADD(fixture_name, name) {                          \
		.type = DXGPMO_PMO_TYPE_##type_,                           \
		.cache = DXGPMO_CACHE_##cache_, __VA_ARGS__                \
	}

#endif
