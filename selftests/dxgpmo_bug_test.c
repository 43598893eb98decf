// SPDX-License-Identifier: GPL-2.0
/*
 * The one intended crash, where Windows bugchecks: DESTROY_PMO while an ADL
 * exists, with adl_leak=bug, is a BUG() in the calling task.  This runs in
 * a VM boot of its own, because the oops taints the kernel.  The child that
 * commits the leak dies; the kernel log has the bugcheck line first
 * (DRIVER_LEFT_LOCKED_PAGES_IN_PROCESS, 0xCB, with the handle, the number
 * of live ADLs, the Context and the caller's tgid), then names this
 * module's pmo.c; the machine goes on: the parent opens the device again and finds every object
 * of the dead child released and the ADL counted as leaked.  The same from
 * one thread of a multi-threaded process: its file must still be released
 * when the process exits, and the module's reference with it.
 *
 * Needing no test command, the boot of the first kernel of each
 * architecture loads the default build, the module as make install and
 * DKMS build it (scripts/check.sh), and checks that it has none; the
 * other kernels' boots load their test build (DXGPMO_BUG_BUILD=test).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

/* The Context the leaking child gives its PMO, which the bugcheck names. */
#define LEAK_CONTEXT 0x1eaced0bcafe5ULL

/* The child tells the parent the PMO's id through it (bugcheck_in_child()). */
static int id_pipe[2] = { -1, -1 };

/*
 * In the child: a new file with a PMO on the first adapter and one live
 * ADL of it, ready to be leaked; its id goes to the parent.  Exits the
 * child (10-12) on failure.
 */
static int file_with_live_adl(struct dxgpmo_create_pmo *c)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	struct dxgpmo_allocate_adl adl = { .length = 4 * PAGE };
	uint32_t total;
	int fd = dxgpmo_open();

	if (fd < 0 || dxgpmo_query_adapters(fd, info, 64, &total) || !total)
		_exit(10);
	/* Write-back: the boot may refuse the other types (below). */
	*c = (struct dxgpmo_create_pmo){
		.length = 4 * PAGE, .adapter_id = info[0].adapter_id,
		.cache_type = DXGPMO_CACHE_CACHED, .context = LEAK_CONTEXT,
	};
	if (dxgpmo_create_pmo(fd, c))
		_exit(11);
	adl.amo_id = c->amo_id;
	if (dxgpmo_allocate_adl(fd, &adl))
		_exit(12);
	if (write(id_pipe[1], &c->pmo_id, sizeof(c->pmo_id)) !=
	    sizeof(c->pmo_id))
		_exit(15);
	return fd;
}

/*
 * The bugcheck line of pmo_id's leak, as Windows reports one: code 0xCB
 * and four parameters, the handle (a user's is the object's id), the live
 * ADLs (one), the Context and the caller (the child's tgid).
 */
static void expect_bugcheck_line(struct __test_metadata *_metadata,
				 const char *rec, uint32_t pmo_id, pid_t pid)
{
	const char *line = strstr(rec, "BUGCHECK ");
	unsigned long long p[4];
	unsigned int code;
	int n;

	ASSERT_NE(NULL, line);
	n = sscanf(line, "BUGCHECK 0x%x (0x%llx, 0x%llx, 0x%llx, 0x%llx)",
		   &code, &p[0], &p[1], &p[2], &p[3]);
	ASSERT_EQ(5, n) {
		TH_LOG("%s", line);
	}
	EXPECT_EQ(0xcb, code);
	EXPECT_EQ(pmo_id, p[0]);
	EXPECT_EQ(1, p[1]);
	EXPECT_EQ(LEAK_CONTEXT, p[2]);
	EXPECT_EQ((unsigned long long)pid, p[3]);
	EXPECT_NE(NULL, strstr(line, "DRIVER_LEFT_LOCKED_PAGES_IN_PROCESS"));
}

/*
 * Runs child() in a child process, inside the region of the kernel log
 * where an expected oops called name is (dxgpmo-expect): the child commits
 * the leak, and the kernel log must have the bugcheck line, then say BUG
 * in pmo.c.  The child's wait status.
 */
static int bugcheck_in_child(struct __test_metadata *_metadata,
			     const char *name, void (*child)(void))
{
	int kmsg, status, waited = 0, bugchecked = 0, bugged = 0;
	uint32_t pmo_id = 0;
	char rec[2048];
	pid_t pid;

	ASSERT_EQ(0, pipe(id_pipe));
	kmsg = kmsg_open_new();
	ASSERT_LE(0, kmsg);
	kmsg_write("dxgpmo-expect: begin %s\n", name);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		child();
	close(id_pipe[1]);
	EXPECT_EQ((ssize_t)sizeof(pmo_id),
		  read(id_pipe[0], &pmo_id, sizeof(pmo_id)));
	close(id_pipe[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	while (!bugged && kmsg_next_record(kmsg, rec, sizeof(rec), 3000,
					   &waited)) {
		if (!bugchecked && strstr(rec, "dxgpmo: BUGCHECK ")) {
			bugchecked = 1;
			expect_bugcheck_line(_metadata, rec, pmo_id, pid);
		}
		bugged = strstr(rec, "kernel BUG at") && strstr(rec, "pmo.c");
	}
	EXPECT_EQ(1, bugchecked);
	EXPECT_EQ(1, bugged);
	usleep(300000);	/* the rest of the oops */
	kmsg_write("dxgpmo-expect: end %s\n", name);
	close(kmsg);
	return status;
}

/*
 * The machine is usable: the device opens, the child's file is gone with
 * all it held, and one more ADL counts as leaked than before.
 */
static void expect_child_released(struct __test_metadata *_metadata,
				  const struct dxgpmo_stats *before)
{
	struct dxgpmo_stats after;
	int fd = dxgpmo_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &after));
	EXPECT_EQ(0, dxgpmo_counters_live(&after.global));
	EXPECT_EQ(before->global.leaked_adls + 1, after.global.leaked_adls);
	close(fd);
}

static void leak_in_process(void)
{
	struct dxgpmo_create_pmo c;
	int cfd = file_with_live_adl(&c);

	dxgpmo_destroy_pmo(cfd, c.pmo_id, c.amo_id);
	_exit(13);	/* not reached: the task dies in the BUG */
}

TEST(adl_leak_bugcheck)
{
	struct dxgpmo_stats before;
	int fd, status;

	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "bug"));
	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &before));

	status = bugcheck_in_child(_metadata, "adl-leak-bug", leak_in_process);
	EXPECT_TRUE(WIFSIGNALED(status)) {
		TH_LOG("child exited with %d instead of dying",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	close(fd);
	expect_child_released(_metadata, &before);
}

struct leak_args {
	int fd;
	struct dxgpmo_create_pmo c;
};

static void *leak_thread(void *arg)
{
	struct leak_args *l = arg;

	dxgpmo_destroy_pmo(l->fd, l->c.pmo_id, l->c.amo_id);
	return NULL;	/* not reached: the thread dies in the BUG */
}

static void leak_in_thread(void)
{
	struct leak_args l;
	pthread_t thread;

	l.fd = file_with_live_adl(&l.c);
	if (pthread_create(&thread, NULL, leak_thread, &l))
		_exit(14);
	pthread_join(thread, NULL);
	_exit(0);	/* the process ends; the file is not closed by hand */
}

static unsigned long module_refcnt(void)
{
	return read_sysfs_ulong("/sys/module/dxgpmo/refcnt");
}

/*
 * With more than one thread, the ioctl's file reference is a real one
 * (fdget() only borrows it in a single-threaded process); an oops that
 * keeps it would keep the file, its pages and the module forever.
 */
TEST(adl_leak_bugcheck_from_thread)
{
	struct dxgpmo_stats before;
	int fd, status, waited;
	unsigned long refs;

	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "bug"));
	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &before));
	close(fd);
	refs = module_refcnt();

	status = bugcheck_in_child(_metadata, "adl-leak-bug-thread",
				   leak_in_thread);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		TH_LOG("child status %#x", status);
	}

	/* The dead process's file is released, however long that takes. */
	for (waited = 0; waited < 50 && module_refcnt() != refs; waited++)
		usleep(100000);
	EXPECT_EQ(refs, module_refcnt());
	expect_child_released(_metadata, &before);
}

/* Whether the kernel bounces every DMA mapping: swiotlb=[N,]force */
static bool swiotlb_forced(void)
{
	char line[4096], *tok, *save;
	FILE *f = fopen("/proc/cmdline", "r");
	bool found = false;

	if (!f)
		return false;
	if (fgets(line, sizeof(line), f))
		for (tok = strtok_r(line, "\n ", &save); tok && !found;
		     tok = strtok_r(NULL, "\n ", &save))
			found = !strncmp(tok, "swiotlb=", 8) &&
				strstr(tok, "force");
	fclose(f);
	return found;
}

/*
 * A boot of its own is also where the kernel may bounce every DMA mapping
 * (make check boots arm64's with swiotlb=force).  arm64 cleans caches
 * through the DMA API, which would then clean the bounce buffer instead:
 * write-combined and non-cached RAM is refused up front there, and no
 * page is left behind.  x86 switches the linear map instead and gives it.
 */
TEST(uncached_ram_refused_where_caches_cannot_be_cleaned)
{
	static const uint32_t types[] = {
		DXGPMO_PMO_TYPE_MDL, DXGPMO_PMO_TYPE_CONTIGUOUS,
		DXGPMO_PMO_TYPE_SECTION,
	};
	struct dxgpmo_stats before, after;
	bool refuse = false;
	uint32_t cache;
	unsigned int i;
	int fd;

#ifdef __aarch64__
	refuse = swiotlb_forced();
#endif
	TH_LOG("swiotlb forced: %d, refused: %d", swiotlb_forced(), refuse);
	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &before));
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		for (cache = 0; cache <= DXGPMO_CACHE_WRITE_COMBINED; cache++) {
			struct dxgpmo_create_pmo c = {
				.type = types[i], .cache_type = cache,
				.length = 4 * PAGE,
				.page_protection = rw_protection(types[i]),
			};
			int want = refuse && cache != DXGPMO_CACHE_CACHED ?
				   -EOPNOTSUPP : 0;

			/* no uncached sections anywhere */
			if (types[i] == DXGPMO_PMO_TYPE_SECTION &&
			    cache == DXGPMO_CACHE_NON_CACHED)
				want = -EINVAL;
			EXPECT_EQ(want, dxgpmo_create_pmo(fd, &c)) {
				TH_LOG("type %u cache %u", types[i], cache);
			}
			if (!want)
				EXPECT_EQ(0, dxgpmo_destroy_pmo(fd, c.pmo_id, 0));
		}
	}
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &after));
	EXPECT_EQ(before.global.pages, after.global.pages);
	EXPECT_EQ(before.global.pmos, after.global.pmos);
	close(fd);
}

/*
 * The default build has no test code (module/test.h): DXGPMO_IOC_TEST
 * keeps its number but has no handler, so it is -ENOTTY before its
 * argument is read (a test build loaded without debug_ioctls=1 reads it
 * first: -EFAULT for NULL), and no debug_ioctls parameter can turn it on.
 */
TEST(default_build_has_no_test_command)
{
	struct dxgpmo_test_cmd t = {
		.size = sizeof(t), .op = DXGPMO_TEST_OP_FAIL_NTH, .fail_nth = 1,
	};
	const char *build = getenv("DXGPMO_BUG_BUILD");
	int fd;

	/*
	 * make check builds the default build for one kernel of each
	 * architecture; the other kernels' bug boots load the test build.
	 */
	if (build && !strcmp(build, "test"))
		SKIP(return, "this boot loads the test build; the default build's boots: %s",
		     getenv("DXGPMO_DEFAULT_BUILD_KERNELS") ?: "?");
	EXPECT_NE(0, access("/sys/module/dxgpmo/parameters/debug_ioctls",
			    F_OK)) {
		TH_LOG("a test build: this boot loads the default one");
	}
	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	EXPECT_EQ(-ENOTTY, dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, &t));
	EXPECT_EQ(-ENOTTY, dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, NULL));
	close(fd);
}

TEST_HARNESS_MAIN
