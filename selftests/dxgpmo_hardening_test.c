// SPDX-License-Identifier: GPL-2.0
/*
 * Hardening kselftests: a fail-nth sweep over every should-fail point of
 * each scenario (the module's own countdown, DXGPMO_TEST_OP_FAIL_NTH, in
 * the style of iommufd's fail_nth test), the per-file caps (pinned memory,
 * charged until the pages are really freed; ADL and kernel-view space),
 * no kernel address in any ioctl output, the device node's mode, and
 * threads racing each other on one file.  Needs debug_ioctls=1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "dxgpmo_test.h"

/*
 * A scenario runs calls in order and stops at the first failure.  After
 * each successful call it states which objects the file must hold, so a
 * failure can be checked for half-made objects.
 */
struct expect {
	uint64_t pmos, amos, adls, maps, bases;
};

struct scenario {
	const char *name;
	int (*run)(int fd, const struct adapters *ad, struct expect *e);
};

#define STEP(_call, ...)                                                   \
	do {                                                               \
		int __r = (_call);                                         \
		if (__r)                                                   \
			return __r;                                        \
		*e = (struct expect){ __VA_ARGS__ };                       \
	} while (0)

static int sc_create_mdl(int fd, const struct adapters *ad, struct expect *e)
{
	struct dxgpmo_create_pmo c = {
		.length = (2 << 20) + 3 * PAGE,
		.cache_type = DXGPMO_CACHE_WRITE_COMBINED,
		.adapter_id = ad->any->adapter_id,
	};

	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1, .amos = 1);
	STEP(dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id), 0);
	return 0;
}

static int sc_create_contig(int fd, const struct adapters *ad,
			    struct expect *e)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_CONTIGUOUS, .length = 64 << 10,
		.cache_type = DXGPMO_CACHE_NON_CACHED,
	};

	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1);
	return 0;
}

static int sc_create_section(int fd, const struct adapters *ad,
			     struct expect *e)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_SECTION, .length = 16 * PAGE,
		.cache_type = DXGPMO_CACHE_CACHED,
		.page_protection = DXGPMO_PAGE_READWRITE,
	};

	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1);
	return 0;
}

static int sc_open_adl(int fd, const struct adapters *ad, struct expect *e)
{
	struct dxgpmo_create_pmo c = { .length = 8 * PAGE };
	struct dxgpmo_allocate_adl adl = { .length = 8 * PAGE };
	uint64_t pages[8];
	uint32_t amo;

	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1);
	STEP(dxgpmo_open_pmo(fd, c.pmo_id, ad->any->adapter_id, &amo),
	     .pmos = 1, .amos = 1);
	adl.amo_id = amo;
	adl.pages = (uintptr_t)pages;
	adl.pages_capacity = 8;
	STEP(dxgpmo_allocate_adl(fd, &adl), .pmos = 1, .amos = 1, .adls = 1);
	STEP(dxgpmo_free_adl(fd, adl.adl_id), .pmos = 1, .amos = 1);
	return 0;
}

static int sc_section_adl(int fd, const struct adapters *ad, struct expect *e)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_SECTION, .length = 4 * PAGE,
		.cache_type = DXGPMO_CACHE_WRITE_COMBINED,
		.page_protection = DXGPMO_PAGE_READWRITE,
		.adapter_id = ad->any->adapter_id,
	};
	struct dxgpmo_allocate_adl adl = { .length = 4 * PAGE };

	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1, .amos = 1);
	adl.amo_id = c.amo_id;
	STEP(dxgpmo_allocate_adl(fd, &adl), .pmos = 1, .amos = 1, .adls = 1);
	return 0;
}

static int sc_maps(int fd, const struct adapters *ad, struct expect *e)
{
	struct dxgpmo_create_pmo c = { .length = 3 * PAGE };
	struct dxgpmo_map u = { .access_mode = DXGPMO_ACCESS_USER,
				.length = 3 * PAGE };
	struct dxgpmo_map k = { .access_mode = DXGPMO_ACCESS_KERNEL,
				.offset = 10, .length = PAGE };

	int ret;

	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1);
	u.pmo_id = c.pmo_id;
	k.pmo_id = c.pmo_id;
	STEP(dxgpmo_map(fd, &u), .pmos = 1, .maps = 1);
	ret = dxgpmo_map(fd, &k);
	if (ret) {
		/* The view holds the file open: let go of it, as exit would. */
		munmap((void *)(uintptr_t)u.address, u.length);
		return ret;
	}
	*e = (struct expect){ .pmos = 1, .maps = 2 };
	ret = dxgpmo_unmap(fd, c.pmo_id, u.address, u.length);
	/*
	 * The view UNMAP detached holds nothing; one UNMAP failed to detach
	 * still holds the file, until exit or, here, munmap.
	 */
	munmap((void *)(uintptr_t)u.address, u.length);
	if (ret)
		return ret;
	*e = (struct expect){ .pmos = 1, .maps = 1 };
	return 0;
}

static int sc_basis(int fd, const struct adapters *ad, struct expect *e)
{
	struct dxgpmo_memory_range r[2] = {
		{ .segment_offset = 0, .length = 4 * PAGE },
		{ .segment_offset = 64 * PAGE, .length = 2 * PAGE },
	};
	uint8_t bits[1];
	uint32_t id;

	STEP(dxgpmo_create_memory_basis(fd, ad->any->adapter_id, 1, r, 2,
					&id), .bases = 1);
	STEP(dxgpmo_start_dirty_tracking(fd, id), .bases = 1);
	STEP(dxgpmo_query_dirty_bits(fd, id, DXGPMO_DIRTY_CLEAR_DATA, 0, 0, 0,
				     bits, 1), .bases = 1);
	return 0;
}

static int sc_export(int fd, const struct adapters *ad, struct expect *e)
{
	struct dxgpmo_create_pmo c = { .length = 2 * PAGE };
	struct dxgpmo_export_dmabuf x = { .size = sizeof(x),
					  .fd_flags = O_CLOEXEC };

	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1);
	x.pmo_id = c.pmo_id;
	STEP(dxgpmo_ioctl(fd, DXGPMO_IOC_EXPORT_DMABUF, &x), .pmos = 1);
	close(x.fd);
	return 0;
}

static int sc_adapter_dma(int fd, const struct adapters *ad,
			  struct expect *e)
{
	struct dxgpmo_create_pmo c = { .length = PAGE };
	struct dxgpmo_allocate_adl adl = { .length = PAGE };
	uint8_t buf[16];

	if (!ad->edu)
		return 0;	/* no engine: nothing to sweep */
	c.adapter_id = ad->edu->adapter_id;
	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1, .amos = 1);
	adl.amo_id = c.amo_id;
	STEP(dxgpmo_allocate_adl(fd, &adl), .pmos = 1, .amos = 1, .adls = 1);
	STEP(dxgpmo_adapter_dma(fd, ad->edu->adapter_id, 0,
				adl.base_page * PAGE, buf, sizeof(buf)),
	     .pmos = 1, .amos = 1, .adls = 1);
	STEP(dxgpmo_adapter_dma(fd, ad->edu->adapter_id, DXGPMO_DMA_TO_MEMORY,
				ad->edu->segment_device_address + 8 * PAGE,
				buf, sizeof(buf)),
	     .pmos = 1, .amos = 1, .adls = 1);
	return 0;
}

/*
 * I/O space: the object holds a reference on the adapter whose BAR it
 * names, taken before the backing exists; every failure after it must
 * give it back (kmemleak after rmmod in make check-debug sees one that
 * does not).  The page after the engine's registers, so it has an ADL.
 */
static int sc_io_space(int fd, const struct adapters *ad, struct expect *e)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_IO_SPACE, .length = PAGE,
		.cache_type = DXGPMO_CACHE_NON_CACHED,
	};
	struct dxgpmo_map m = {
		.access_mode = DXGPMO_ACCESS_KERNEL, .length = PAGE,
	};
	struct dxgpmo_allocate_adl adl = { .length = PAGE };
	uint32_t val = 0;

	if (!ad->edu)
		return 0;	/* no BAR of ours */
	c.io_base = edu_bar0(ad->edu) + PAGE;
	c.adapter_id = ad->edu->adapter_id;
	STEP(dxgpmo_create_pmo(fd, &c), .pmos = 1, .amos = 1);
	m.pmo_id = c.pmo_id;
	STEP(dxgpmo_map(fd, &m), .pmos = 1, .amos = 1, .maps = 1);
	STEP(dxgpmo_kmap_rw(fd, m.map_id, DXGPMO_KMAP_WRITE, 0, &val, 4),
	     .pmos = 1, .amos = 1, .maps = 1);
	adl.amo_id = c.amo_id;
	STEP(dxgpmo_allocate_adl(fd, &adl), .pmos = 1, .amos = 1, .maps = 1,
	     .adls = 1);
	STEP(dxgpmo_free_adl(fd, adl.adl_id), .pmos = 1, .amos = 1, .maps = 1);
	STEP(dxgpmo_unmap(fd, c.pmo_id, m.address, m.length), .pmos = 1,
	     .amos = 1);
	STEP(dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id), 0);
	return 0;
}

static const struct scenario scenarios[] = {
	{ "create_mdl_with_adapter", sc_create_mdl },
	{ "create_contiguous", sc_create_contig },
	{ "create_section", sc_create_section },
	{ "open_adl", sc_open_adl },
	{ "section_adl", sc_section_adl },
	{ "map_user_kernel", sc_maps },
	{ "basis_track_query", sc_basis },
	{ "export_dmabuf", sc_export },
	{ "adapter_dma", sc_adapter_dma },
	{ "io_space", sc_io_space },
};

FIXTURE_DXGPMO(hardening, 1)

/*
 * For every scenario: N = 1, 2, ... until the N-th point is never reached.
 * Closing the file must bring every counter back.  The module's own points
 * are each an -ENOMEM that leaves exactly the objects of the steps that
 * succeeded; a kernel allocation may fail in ways the module passes on as
 * they come, so there only the leak is checked.
 */
static void sweep_scenarios(struct __test_metadata *_metadata,
			    const struct adapters *ad, int self_fd,
			    enum fail_nth_source source)
{
	const int own = source == FAIL_NTH_MODULE;
	const char *what = own ? "should-fail points" :
				 "kernel allocation points";
	unsigned int i, total = 0;
	struct fail_nth fail;
	struct fail_nth *f = &fail;
	int ret = fail_nth_open(f, source, self_fd);

	if (ret == -EOPNOTSUPP && own)
		SKIP(return, "module loaded without debug_ioctls=1");
	if (ret == -EOPNOTSUPP)
		SKIP(return, "kernel without CONFIG_FAULT_INJECTION (make check-debug runs this)");
	ASSERT_EQ(0, ret);

	for (i = 0; i < ARRAY_SIZE(scenarios); i++) {
		unsigned int nth;

		for (nth = 1; nth < 400; nth++) {
			struct expect e = { 0 };
			struct dxgpmo_stats st;
			int fd = dxgpmo_open(), ret, reached;

			ASSERT_LE(0, fd);
			ASSERT_EQ(0, fail_nth_arm(f, fd, nth));
			ret = scenarios[i].run(fd, ad, &e);
			reached = fail_nth_disarm(f, fd);
			ASSERT_LE(0, reached);
			if (own && !reached) {
				/* Point nth never reached: swept them all. */
				EXPECT_EQ(0, ret) {
					TH_LOG("%s without injection: %d",
					       scenarios[i].name, ret);
				}
			} else if (own) {
				EXPECT_EQ(-ENOMEM, ret) {
					TH_LOG("%s, point %u: %d",
					       scenarios[i].name, nth, ret);
				}
				ASSERT_EQ(0, dxgpmo_get_stats(fd, &st));
				EXPECT_EQ(e.pmos, st.file.pmos);
				EXPECT_EQ(e.amos, st.file.amos);
				EXPECT_EQ(e.adls, st.file.adls);
				EXPECT_EQ(e.maps, st.file.maps);
				EXPECT_EQ(e.bases, st.file.bases) {
					TH_LOG("%s, point %u",
					       scenarios[i].name, nth);
				}
				/* What a failed call charged is back. */
				if (!e.pmos)
					EXPECT_EQ(0, st.file.pages);
				if (!e.adls)
					EXPECT_EQ(0, st.file.dma_mapped_pages) {
						TH_LOG("%s, point %u",
						       scenarios[i].name, nth);
					}
			}
			close(fd);
			ASSERT_EQ(0, dxgpmo_get_stats(self_fd, &st));
			ASSERT_EQ(0, dxgpmo_counters_live(&st.global)) {
				TH_LOG("%s, %s %u leaked", scenarios[i].name,
				       own ? "point" : "kernel point", nth);
			}
			if (!reached)
				break;
		}
		if (own)
			EXPECT_GT(400, nth);
		TH_LOG("%s: %u %s", scenarios[i].name, nth - 1, what);
		total += nth - 1;
	}
	TH_LOG("%u %s swept", total, what);
	if (own)
		EXPECT_LT(20, total);
	fail_nth_close(f);
}

TEST_F_TIMEOUT(hardening, fail_nth_sweep, 300)
{
	sweep_scenarios(_metadata, &self->ad, self->fd, FAIL_NTH_MODULE);
}

TEST_F_TIMEOUT(hardening, kernel_fail_nth_sweep, 600)
{
	sweep_scenarios(_metadata, &self->ad, self->fd, FAIL_NTH_KERNEL);
}

#define MAX_PINNED "/sys/module/dxgpmo/parameters/max_pinned_mb"

/*
 * One user may hold at most max_pinned_mb of object memory, however many
 * files it opens; another user has a budget of its own.
 */
TEST_F(hardening, pinned_cap)
{
	struct dxgpmo_create_pmo a = { .length = 1 << 20 };
	struct dxgpmo_create_pmo b = { .length = PAGE };
	char old[32] = "";
	int fd2, pfd = open(MAX_PINNED, O_RDONLY);

	ASSERT_LE(0, pfd);
	ASSERT_LT(0, read(pfd, old, sizeof(old) - 1));
	close(pfd);
	ASSERT_EQ(0, write_sysfs(MAX_PINNED, "1"));
	EXPECT_EQ(0, dxgpmo_create_pmo(self->fd, &a));
	EXPECT_EQ(-ENOMEM, dxgpmo_create_pmo(self->fd, &b));
	b.type = DXGPMO_PMO_TYPE_SECTION;
	b.cache_type = DXGPMO_CACHE_CACHED;
	b.page_protection = DXGPMO_PAGE_READWRITE;
	EXPECT_EQ(-ENOMEM, dxgpmo_create_pmo(self->fd, &b));
	/* Per user: another file of the same user shares the budget... */
	fd2 = dxgpmo_open();
	ASSERT_LE(0, fd2);
	b = (struct dxgpmo_create_pmo){ .length = PAGE };
	EXPECT_EQ(-ENOMEM, dxgpmo_create_pmo(fd2, &b));
	close(fd2);
	/* ... and a file another user opened has its own. */
	fd2 = open_as_nobody();
	ASSERT_LE(0, fd2);
	b = (struct dxgpmo_create_pmo){ .length = PAGE };
	EXPECT_EQ(0, dxgpmo_create_pmo(fd2, &b));
	close(fd2);
	/* Freed memory is given back to the budget. */
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, a.pmo_id, 0));
	b = (struct dxgpmo_create_pmo){ .length = PAGE };
	EXPECT_EQ(0, dxgpmo_create_pmo(self->fd, &b));
	ASSERT_EQ(0, write_sysfs(MAX_PINNED, old));
}

#define MAX_ADL "/sys/module/dxgpmo/parameters/max_adl_mb"
#define MAX_KMAP "/sys/module/dxgpmo/parameters/max_kmap_mb"
#define MAX_BASES "/sys/module/dxgpmo/parameters/max_bases"

/*
 * The caps of one user, each lowered for a test and put back in the
 * teardown, so that a failed assertion does not leave them low.
 */
static const char *const quota_params[] = {
	MAX_PINNED, MAX_ADL, MAX_KMAP, MAX_BASES,
};

#define NR_QUOTA_PARAMS	ARRAY_SIZE(quota_params)

FIXTURE(quota) {
	int fd;
	struct adapters ad;
	char old[NR_QUOTA_PARAMS][32];
};

FIXTURE_SETUP(quota)
{
	unsigned int i;

	for (i = 0; i < NR_QUOTA_PARAMS; i++) {
		int pfd = open(quota_params[i], O_RDONLY);

		self->old[i][0] = 0;
		if (pfd < 0)
			continue;
		if (read(pfd, self->old[i], sizeof(self->old[i]) - 1) <= 0)
			self->old[i][0] = 0;
		close(pfd);
	}
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, load_adapters(self->fd, &self->ad));
	ASSERT_NE(NULL, self->ad.any);
}

FIXTURE_TEARDOWN(quota)
{
	unsigned int i;

	for (i = 0; i < NR_QUOTA_PARAMS; i++)
		if (self->old[i][0])
			write_sysfs(quota_params[i], self->old[i]);
	teardown_dxgpmo(self->fd);
}

/* One page more than the 1 MiB cap leaves: -ENOMEM while pages are held. */
static int create_page(int fd)
{
	struct dxgpmo_create_pmo c = { .length = PAGE };
	int ret = dxgpmo_create_pmo(fd, &c);

	if (!ret)
		dxgpmo_destroy_pmo(fd, c.pmo_id, 0);
	return ret;
}

/*
 * A dma-buf keeps the pages after DESTROY, so they stay charged to the file
 * that made them until the last dma-buf reference goes, even after that
 * file is closed.
 */
/*
 * A cap lowered below what the file holds refuses more memory, not
 * objects that hold none: I/O space still works.
 */
TEST_F(quota, lowered_cap_still_allows_io_space)
{
	struct dxgpmo_create_pmo big = { .length = 2 << 20 };
	struct dxgpmo_create_pmo io = {
		.type = DXGPMO_PMO_TYPE_IO_SPACE, .length = PAGE,
		.cache_type = DXGPMO_CACHE_NON_CACHED,
	};

	if (!self->ad.edu)
		SKIP(return, "needs an edu adapter (its BAR0)");
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &big));
	ASSERT_EQ(0, write_sysfs(MAX_PINNED, "1"));
	io.io_base = edu_bar0(self->ad.edu) + PAGE;
	EXPECT_EQ(0, dxgpmo_create_pmo(self->fd, &io));
	if (io.pmo_id)
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, io.pmo_id, 0));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, big.pmo_id, 0));
}

/*
 * A user namespace that an unprivileged user made, with a range of ids
 * mapped into it (what newuidmap does with /etc/subuid): the ids its
 * processes switch between are that user's to hand out, so they share its
 * caps rather than each bringing a fresh set.
 */
#define NS_OWNER	4242
#define NS_BASE		200000

/* What a process of the namespace reports through a pipe. */
enum ns_report { NS_CREATED = 1, NS_REFUSED, NS_SKIP, NS_ERROR };

/*
 * As id in the namespace: open the node and create a 1 MiB object; report
 * whether it was made, then hold it until told to go (hold >= 0).
 */
static void ns_create_as(uid_t id, int report, int hold)
{
	struct dxgpmo_create_pmo c = { .length = 1 << 20 };
	char r = NS_ERROR;
	int fd, ret;

	if (setresgid(id, id, id) || setresuid(id, id, id))
		goto out;
	fd = dxgpmo_open();
	if (fd < 0)
		goto out;
	ret = dxgpmo_create_pmo(fd, &c);
	r = !ret ? NS_CREATED : ret == -ENOMEM ? NS_REFUSED : NS_ERROR;
out:
	if (write(report, &r, 1) != 1 || hold < 0)
		_exit(0);
	if (read(hold, &r, 1) < 0)
		_exit(1);
	_exit(0);
}

/*
 * The namespace's first process, made by owner: its ids 1 and 2 create in
 * turn.
 */
static void ns_owner_run(uid_t owner, int ready, int go, int report)
{
	int hold[2];
	char r;

	if (setgroups(0, NULL) || setresgid(owner, owner, owner) ||
	    setresuid(owner, owner, owner))
		_exit(1);
	r = unshare(CLONE_NEWUSER) ? NS_SKIP : NS_CREATED;
	if (write(ready, &r, 1) != 1 || r == NS_SKIP)
		_exit(0);
	/* Mapped: id 0 of the namespace, with its capabilities there. */
	if (read(go, &r, 1) != 1 || setresgid(0, 0, 0) || setresuid(0, 0, 0) ||
	    pipe(hold))
		_exit(1);
	if (!fork()) {
		close(hold[1]);
		ns_create_as(1, report, hold[0]);
	}
	close(hold[0]);
	/* The first one's report is read before the second one starts. */
	if (read(go, &r, 1) != 1)
		_exit(1);
	if (!fork())
		ns_create_as(2, report, -1);
	if (read(go, &r, 1) != 1)
		_exit(1);
	close(hold[1]);
	while (wait(NULL) > 0)
		;
	_exit(0);
}

static int write_id_map(pid_t pid, const char *which)
{
	char path[64], map[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, which);
	snprintf(map, sizeof(map), "0 %d 65536\n", NS_BASE);
	return write_sysfs(path, map);
}

/*
 * Ids 1 and 2 of a namespace owner made, each creating 1 MiB under a cap
 * of 1 MiB: what each got (NS_CREATED or NS_REFUSED), or false if no
 * namespace can be made here.
 */
static bool ns_two_ids(struct __test_metadata *_metadata, uid_t owner,
		       char *first, char *second)
{
	int ready[2], go[2], report[2], status;
	struct stat st;
	pid_t pid;
	char r;

	*first = *second = 0;
	ASSERT_EQ(0, write_sysfs(MAX_PINNED, "1"));
	ASSERT_EQ(0, stat(DXGPMO_DEV_PATH, &st));
	ASSERT_EQ(0, chmod(DXGPMO_DEV_PATH, 0666));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(report));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		ns_owner_run(owner, ready[1], go[0], report[1]);
	close(ready[1]);
	close(go[0]);
	close(report[1]);
	ASSERT_EQ(1, read(ready[0], &r, 1));
	if (r == NS_CREATED) {
		/* As newuidmap would, for the namespace's owner. */
		ASSERT_EQ(0, write_id_map(pid, "uid_map"));
		ASSERT_EQ(0, write_id_map(pid, "gid_map"));
		ASSERT_EQ(1, write(go[1], "g", 1));
		ASSERT_EQ(1, read(report[0], first, 1));
		ASSERT_EQ(1, write(go[1], "g", 1));
		ASSERT_EQ(1, read(report[0], second, 1));
		ASSERT_EQ(1, write(go[1], "g", 1));
	}
	close(go[1]);
	close(ready[0]);
	close(report[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	chmod(DXGPMO_DEV_PATH, st.st_mode & 07777);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	return r != NS_SKIP;
}

TEST_F(quota, user_namespace_ids_share_their_owner_caps)
{
	char first, second;

	if (!ns_two_ids(_metadata, NS_OWNER, &first, &second))
		SKIP(return, "no user namespace for an unprivileged user here");
	EXPECT_EQ(NS_CREATED, first);
	EXPECT_EQ(NS_REFUSED, second) {
		TH_LOG("a second id of the namespace got caps of its own");
	}
}

/*
 * The ids root maps into a namespace (a container's) are the
 * administrator's assignment: each a user with caps of its own, not all
 * of them root's.
 */
TEST_F(quota, root_made_namespace_ids_have_caps_of_their_own)
{
	char first, second;

	if (!ns_two_ids(_metadata, 0, &first, &second))
		SKIP(return, "no user namespace here");
	EXPECT_EQ(NS_CREATED, first);
	EXPECT_EQ(NS_CREATED, second);
}

TEST_F(quota, dmabuf_kept_across_destroy)
{
	struct dxgpmo_create_pmo c = { .length = 1 << 20 };
	struct dxgpmo_export_dmabuf x = { .size = sizeof(x),
					  .fd_flags = O_CLOEXEC | O_RDWR };
	struct dxgpmo_stats st;
	int fd2;

	ASSERT_EQ(0, write_sysfs(MAX_PINNED, "1"));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	x.pmo_id = c.pmo_id;
	ASSERT_EQ(0, dxgpmo_ioctl(self->fd, DXGPMO_IOC_EXPORT_DMABUF, &x));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(256, st.file.pages);
	EXPECT_EQ(-ENOMEM, create_page(self->fd));
	close(x.fd);
	EXPECT_EQ(0, create_page(self->fd));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, st.file.pages);

	/* The charge outlives its file: returned when the dma-buf goes. */
	fd2 = dxgpmo_open();
	ASSERT_LE(0, fd2);
	c = (struct dxgpmo_create_pmo){ .length = 1 << 20 };
	ASSERT_EQ(0, dxgpmo_create_pmo(fd2, &c));
	x = (struct dxgpmo_export_dmabuf){ .size = sizeof(x),
					   .pmo_id = c.pmo_id,
					   .fd_flags = O_CLOEXEC | O_RDWR };
	ASSERT_EQ(0, dxgpmo_ioctl(fd2, DXGPMO_IOC_EXPORT_DMABUF, &x));
	close(fd2);
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(256, st.global.pages);
	close(x.fd);
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, st.global.pages);
}

/*
 * With max_pinned at 1 MiB, a 1 MiB object c of the file that uses it all,
 * and its window mapped.
 */
static void *window_of_all(struct __test_metadata *_metadata, int fd,
			   struct dxgpmo_create_pmo *c)
{
	void *p;

	*c = (struct dxgpmo_create_pmo){ .length = 1 << 20 };
	ASSERT_EQ(0, write_sysfs(MAX_PINNED, "1"));
	ASSERT_EQ(0, dxgpmo_create_pmo(fd, c));
	p = mmap(NULL, c->length, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 c->mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	return p;
}

/* A VMA of the window keeps the pages (revoked, SIGBUS) after DESTROY. */
TEST_F(quota, window_kept_across_destroy)
{
	struct dxgpmo_create_pmo c;
	void *p = window_of_all(_metadata, self->fd, &c);

	memset(p, 0x5a, PAGE);
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(-ENOMEM, create_page(self->fd));
	munmap(p, c.length);
	EXPECT_EQ(0, create_page(self->fd));
}

/* A forked child's copy of the window keeps the pages charged as well. */
TEST_F(quota, fork_child_keeps_window)
{
	struct dxgpmo_create_pmo c;
	int go[2], ready[2], status;
	char byte = 0;
	pid_t child;
	void *p = window_of_all(_metadata, self->fd, &c);

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		/* Only the mapping: not the device file. */
		close(self->fd);
		close(go[1]);
		close(ready[0]);
		if (write(ready[1], &byte, 1) != 1 ||
		    read(go[0], &byte, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	munmap(p, c.length);
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(-ENOMEM, create_page(self->fd));
	close(go[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	close(ready[0]);
	EXPECT_EQ(0, create_page(self->fd));
}

/*
 * The adapters' DMA address space is shared: one user gets max_adl_mb,
 * however many files it opens.
 */
TEST_F(quota, adl_cap)
{
	struct dxgpmo_create_pmo c = {
		.length = 2 << 20, .adapter_id = self->ad.any->adapter_id,
	};
	struct dxgpmo_allocate_adl a = { .length = 1 << 20 };
	struct dxgpmo_allocate_adl b = { .length = PAGE, .offset = 1 << 20 };
	struct dxgpmo_create_pmo c2 = { .length = PAGE };
	int fd2;

	ASSERT_EQ(0, write_sysfs(MAX_ADL, "1"));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	a.amo_id = c.amo_id;
	b.amo_id = c.amo_id;
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &a));
	EXPECT_EQ(-ENOMEM, dxgpmo_allocate_adl(self->fd, &b));
	/* Per user: another file of the same user shares the budget... */
	fd2 = dxgpmo_open();
	ASSERT_LE(0, fd2);
	c2.adapter_id = self->ad.any->adapter_id;
	ASSERT_EQ(0, dxgpmo_create_pmo(fd2, &c2));
	b.amo_id = c2.amo_id;
	b.offset = 0;
	EXPECT_EQ(-ENOMEM, dxgpmo_allocate_adl(fd2, &b));
	close(fd2);
	/* ... and a file another user opened has its own. */
	fd2 = open_as_nobody();
	ASSERT_LE(0, fd2);
	c2 = (struct dxgpmo_create_pmo){ .length = PAGE,
					 .adapter_id = self->ad.any->adapter_id };
	ASSERT_EQ(0, dxgpmo_create_pmo(fd2, &c2));
	b = (struct dxgpmo_allocate_adl){ .amo_id = c2.amo_id, .length = PAGE };
	EXPECT_EQ(0, dxgpmo_allocate_adl(fd2, &b));
	close(fd2);
	/* Freed ADLs give their share back. */
	ASSERT_EQ(0, dxgpmo_free_adl(self->fd, a.adl_id));
	b = (struct dxgpmo_allocate_adl){ .amo_id = c.amo_id,
					  .length = 1 << 20 };
	EXPECT_EQ(0, dxgpmo_allocate_adl(self->fd, &b));
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, b.adl_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

/* Kernel views take vmalloc space: one file gets max_kmap_mb. */
TEST_F(quota, kernel_map_cap)
{
	struct dxgpmo_create_pmo c = { .length = 2 << 20 };
	struct dxgpmo_map a = { .access_mode = DXGPMO_ACCESS_KERNEL,
				.length = 1 << 20 };
	struct dxgpmo_map b = { .access_mode = DXGPMO_ACCESS_KERNEL,
				.length = 1 };
	struct dxgpmo_map u = { .access_mode = DXGPMO_ACCESS_USER,
				.length = 2 << 20 };

	ASSERT_EQ(0, write_sysfs(MAX_KMAP, "1"));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	a.pmo_id = c.pmo_id;
	b.pmo_id = c.pmo_id;
	u.pmo_id = c.pmo_id;
	/*
	 * A kernel view that failed to be made (point 2 of MAP: the vmap,
	 * after the object) gives its share back.
	 */
	if (module_fail_nth(self->fd, 2, NULL) == 0) {
		EXPECT_EQ(-ENOMEM, dxgpmo_map(self->fd, &a));
		ASSERT_EQ(0, module_fail_nth(self->fd, 0, NULL));
		a.map_id = 0;
		a.address = 0;
		a.length = 1 << 20;
	}
	ASSERT_EQ(0, dxgpmo_map(self->fd, &a));
	EXPECT_EQ(-ENOMEM, dxgpmo_map(self->fd, &b));
	/* User views take no kernel address space. */
	ASSERT_EQ(0, dxgpmo_map(self->fd, &u));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	munmap((void *)(uintptr_t)u.address, u.length);
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, a.address, a.length));
	b = (struct dxgpmo_map){ .access_mode = DXGPMO_ACCESS_KERNEL,
				 .pmo_id = c.pmo_id, .length = 1 << 20 };
	ASSERT_EQ(0, dxgpmo_map(self->fd, &b));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, b.address, b.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * A dma-buf any importer may vmap holds kernel view space for its whole
 * size from export to release, charged to the object's user: a failing
 * vmap would warn in the dma-buf core, so the export is what is refused.
 * A read-only section's dma-buf cannot be vmapped and holds none.
 */
TEST_F(quota, dmabuf_export_holds_kmap)
{
	struct dxgpmo_create_pmo c = { .length = 1 << 20 };
	struct dxgpmo_create_pmo ro = {
		.type = DXGPMO_PMO_TYPE_SECTION, .length = 1 << 20,
		.cache_type = DXGPMO_CACHE_CACHED,
		.page_protection = DXGPMO_PAGE_READONLY,
	};
	struct dxgpmo_map k = { .access_mode = DXGPMO_ACCESS_KERNEL,
				.length = PAGE };
	int fd1, fd2, fd3;

	ASSERT_EQ(0, write_sysfs(MAX_KMAP, "1"));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, export_rw(self->fd, c.pmo_id, &fd1));
	/* The first export took the whole MiB: a second, a kernel MAP... */
	EXPECT_EQ(-ENOMEM, export_rw(self->fd, c.pmo_id, &fd2));
	k.pmo_id = c.pmo_id;
	EXPECT_EQ(-ENOMEM, dxgpmo_map(self->fd, &k));
	/* ... but not a read-only section's export. */
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &ro));
	ASSERT_EQ(0, export_rw(self->fd, ro.pmo_id, &fd3));
	EXPECT_EQ(0, close(fd3));
	/* The charge outlives DESTROY, and goes with the dma-buf. */
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	c = (struct dxgpmo_create_pmo){ .length = PAGE };
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	EXPECT_EQ(-ENOMEM, export_rw(self->fd, c.pmo_id, &fd2));
	EXPECT_EQ(0, close(fd1));
	ASSERT_EQ(0, export_rw(self->fd, c.pmo_id, &fd2));
	EXPECT_EQ(0, close(fd2));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, ro.pmo_id, 0));
}

/* Memory bases: max_bases per user, however many files it opens. */
TEST_F(quota, bases_cap)
{
	struct dxgpmo_memory_range r = { .length = PAGE };
	uint32_t id[3];
	int fd2;

	ASSERT_EQ(0, write_sysfs(MAX_BASES, "2"));
	fd2 = dxgpmo_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, dxgpmo_create_memory_basis(self->fd,
						self->ad.any->adapter_id, 1,
						&r, 1, &id[0]));
	EXPECT_EQ(0, dxgpmo_create_memory_basis(fd2, self->ad.any->adapter_id,
						1, &r, 1, &id[1]));
	EXPECT_EQ(-ENOMEM, dxgpmo_create_memory_basis(fd2,
						      self->ad.any->adapter_id,
						      1, &r, 1, &id[2]));
	close(fd2);
	/* The closed file's basis went back to the budget. */
	EXPECT_EQ(0, dxgpmo_create_memory_basis(self->fd,
						self->ad.any->adapter_id, 1,
						&r, 1, &id[2]));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id[0]));
	EXPECT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, id[2]));
}

/*
 * 64-bit fields that look like kernel pointers (the kernel's half: from
 * 0xffff800000000000 on x86-64, from 0xfff0000000000000 on arm64 with
 * 52-bit addresses; all-ones is a mask, not a pointer).  Every 64-bit
 * field of the uapi structs is 8-byte aligned.
 */
#ifdef __aarch64__
#define KERNEL_HALF	0xfff0000000000000ULL
#else
#define KERNEL_HALF	0xffff800000000000ULL
#endif
static int looks_kernel(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v;

		memcpy(&v, p + i, 8);
		if (v >= KERNEL_HALF && v != UINT64_MAX) {
			printf("# offset %zu: 0x%llx\n", i,
			       (unsigned long long)v);
			return 1;
		}
	}
	return 0;
}

/* No ioctl output carries a kernel address. */
TEST_F(hardening, no_kernel_addresses)
{
	struct dxgpmo_create_pmo c = {
		.length = 3 * PAGE, .adapter_id = self->ad.any->adapter_id,
	};
	struct dxgpmo_allocate_adl adl = { .length = 3 * PAGE };
	struct dxgpmo_map u = { .access_mode = DXGPMO_ACCESS_USER,
				.length = PAGE };
	struct dxgpmo_map k = { .access_mode = DXGPMO_ACCESS_KERNEL,
				.length = PAGE };
	struct dxgpmo_export_dmabuf x = { .size = sizeof(x) };
	struct dxgpmo_stats st;
	uint64_t pages[3];
	uint32_t basis;
	struct dxgpmo_memory_range r = { .length = PAGE };

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	EXPECT_FALSE(looks_kernel(&c, sizeof(c)));
	adl.amo_id = c.amo_id;
	adl.pages = (uintptr_t)pages;
	adl.pages_capacity = 3;
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
	EXPECT_FALSE(looks_kernel(&adl, sizeof(adl)));
	EXPECT_FALSE(looks_kernel(pages, sizeof(pages)));
	u.pmo_id = c.pmo_id;
	k.pmo_id = c.pmo_id;
	ASSERT_EQ(0, dxgpmo_map(self->fd, &u));
	ASSERT_EQ(0, dxgpmo_map(self->fd, &k));
	EXPECT_FALSE(looks_kernel(&u, sizeof(u)));
	EXPECT_FALSE(looks_kernel(&k, sizeof(k)));
	x.pmo_id = c.pmo_id;
	ASSERT_EQ(0, dxgpmo_ioctl(self->fd, DXGPMO_IOC_EXPORT_DMABUF, &x));
	EXPECT_FALSE(looks_kernel(&x, sizeof(x)));
	close(x.fd);
	ASSERT_EQ(0, dxgpmo_create_memory_basis(self->fd,
						self->ad.any->adapter_id, 1,
						&r, 1, &basis));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_FALSE(looks_kernel(&st, sizeof(st)));
	EXPECT_FALSE(looks_kernel(self->ad.all, sizeof(self->ad.all)));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, k.address, k.length));
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
}

TEST(device_node_mode)
{
	struct stat s;

	ASSERT_EQ(0, stat(DXGPMO_DEV_PATH, &s));
	EXPECT_TRUE(S_ISCHR(s.st_mode));
	EXPECT_EQ(0600, s.st_mode & 0777);
}

/* Threads sharing one file race destroy against ADL, map, export, query. */
struct racer {
	int fd;
	uint32_t adapter;
	volatile int stop;
	/* The destroyer waits for an ADL or a view to go: the others back off. */
	volatile int releasing;
	volatile uint32_t last_pmo, last_amo;
	uint64_t addr;
	unsigned long ops[4];
};

#define RACE_MIN_CYCLES 30

static void race_back_off(struct racer *r)
{
	while (r->releasing && !r->stop)
		usleep(100);
}

static void *race_create_destroy(void *arg)
{
	struct racer *r = arg;

	while (!r->stop) {
		struct dxgpmo_create_pmo c = {
			.length = 4 * PAGE, .adapter_id = r->adapter,
		};

		if (dxgpmo_create_pmo(r->fd, &c))
			continue;
		r->last_pmo = c.pmo_id;
		r->last_amo = c.amo_id;
		usleep(50);
		/*
		 * CLOSE fails (-EBUSY) while the ADL thread holds an ADL, and
		 * DESTROY while the map thread holds a view: retry until they
		 * let go.  A DESTROY with a live ADL would be the ADL leak.
		 * The first attempt races them; the retries ask them to pause,
		 * or a fast ADL loop starves the close on a slow machine.
		 */
		while (dxgpmo_close_pmo(r->fd, c.amo_id) == -EBUSY) {
			r->releasing = 1;
			sched_yield();
		}
		while (dxgpmo_destroy_pmo(r->fd, c.pmo_id, 0) == -EBUSY) {
			r->releasing = 1;
			sched_yield();
		}
		r->releasing = 0;
		r->ops[0]++;
	}
	return NULL;
}

/* The others' operations on the last object made: the nth of each. */
static void race_adl(struct racer *r, unsigned long n)
{
	struct dxgpmo_allocate_adl a = {
		.amo_id = r->last_amo, .length = 4 * PAGE,
	};

	if (!dxgpmo_allocate_adl(r->fd, &a))
		dxgpmo_free_adl(r->fd, a.adl_id);
}

static void race_map(struct racer *r, unsigned long n)
{
	struct dxgpmo_map m = {
		.pmo_id = r->last_pmo, .length = 4 * PAGE,
		.access_mode = n & 1,
	};

	if (!dxgpmo_map(r->fd, &m)) {
		if (m.access_mode == DXGPMO_ACCESS_USER)
			((volatile uint8_t *)(uintptr_t)m.address)[0] = 1;
		dxgpmo_unmap(r->fd, m.pmo_id, m.address, m.length);
	}
}

static void race_export(struct racer *r, unsigned long n)
{
	struct dxgpmo_export_dmabuf x = {
		.size = sizeof(x), .pmo_id = r->last_pmo,
	};

	if (!dxgpmo_ioctl(r->fd, DXGPMO_IOC_EXPORT_DMABUF, &x)) {
		void *p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, x.fd, 0);

		if (p != MAP_FAILED)
			munmap(p, PAGE);
		close(x.fd);
	}
}

/* Racer i > 0 of ops[]: its operation until told to stop, counted. */
struct race_follower {
	struct racer *r;
	unsigned int i;
	void (*op)(struct racer *r, unsigned long n);
};

static void *race_follow(void *arg)
{
	const struct race_follower *f = arg;
	struct racer *r = f->r;

	while (!r->stop) {
		f->op(r, r->ops[f->i]);
		r->ops[f->i]++;
		race_back_off(r);
	}
	return NULL;
}

TEST_F_TIMEOUT(hardening, threads_race_one_file, 60)
{
	struct racer r = { .fd = self->fd };
	struct race_follower f[] = {
		{ &r, 1, race_adl },
		{ &r, 2, race_map },
		{ &r, 3, race_export },
	};
	pthread_t t[4];
	unsigned int i, elapsed_ms;

	r.adapter = self->ad.any->adapter_id;
	ASSERT_EQ(0, pthread_create(&t[0], NULL, race_create_destroy, &r));
	for (i = 1; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, race_follow,
					    &f[i - 1]));
	/*
	 * At least 3 s and RACE_MIN_CYCLES destroys, within 40 s: what this
	 * asks is that destroy is not starved, however slow the machine.
	 */
	for (elapsed_ms = 0; elapsed_ms < 40000; elapsed_ms += 100) {
		if (elapsed_ms >= 3000 && r.ops[0] >= RACE_MIN_CYCLES)
			break;
		usleep(100 * 1000);
	}
	r.stop = 1;
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_join(t[i], NULL));
	TH_LOG("create/destroy %lu, adl %lu, map %lu, export %lu", r.ops[0],
	       r.ops[1], r.ops[2], r.ops[3]);
	EXPECT_LE(RACE_MIN_CYCLES, r.ops[0]);
}

/* Closing the fd while another thread sits in a slow ioctl is safe. */
static void *slow_dma(void *arg)
{
	struct racer *r = arg;
	uint8_t buf[4096];

	/* Two 2 KiB chunks, ~400 ms in the edu engine. */
	dxgpmo_adapter_dma(r->fd, r->adapter, 0, r->addr, buf, sizeof(buf));
	return NULL;
}

TEST_F_TIMEOUT(hardening, close_during_ioctl, 30)
{
	struct dxgpmo_create_pmo c = { .length = PAGE };
	struct dxgpmo_allocate_adl a = { .length = PAGE };
	struct racer r;
	struct dxgpmo_stats st;
	pthread_t t;
	int fd2;

	if (!self->ad.edu)
		SKIP(return, "needs an adapter with a DMA engine");
	fd2 = dxgpmo_open();
	ASSERT_LE(0, fd2);
	c.adapter_id = self->ad.edu->adapter_id;
	ASSERT_EQ(0, dxgpmo_create_pmo(fd2, &c));
	a.amo_id = c.amo_id;
	ASSERT_EQ(0, dxgpmo_allocate_adl(fd2, &a));
	r = (struct racer){ .fd = fd2, .adapter = self->ad.edu->adapter_id,
			    .addr = a.base_page * PAGE };
	ASSERT_EQ(0, pthread_create(&t, NULL, slow_dma, &r));
	usleep(100000);
	EXPECT_EQ(0, close(fd2));	/* the ioctl holds the file */
	ASSERT_EQ(0, pthread_join(t, NULL));
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, dxgpmo_counters_live(&st.global));
}

TEST_HARNESS_MAIN
