// SPDX-License-Identifier: GPL-2.0
/*
 * The one intended crash (SPEC section 3): DESTROY_PMO while an ADL exists,
 * with adl_leak=bug, is a BUG() in the calling task.  This runs in a VM boot
 * of its own, because the oops taints the kernel.  The child that commits
 * the leak dies; the kernel log names this module's pmo.c; the machine goes
 * on: the parent opens the device again and finds every object of the dead
 * child released and the ADL counted as leaked.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

TEST(adl_leak_bugcheck)
{
	struct dxgpmo_stats before, after;
	int fd, kmsg, status;
	pid_t pid;

	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "bug"));
	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &before));

	kmsg = kmsg_open_new();
	ASSERT_LE(0, kmsg);
	kmsg_write("dxgpmo-expect: begin adl-leak-bug\n");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
		struct dxgpmo_create_pmo c = { .length = 4 * 4096 };
		struct dxgpmo_allocate_adl adl = { .length = 4 * 4096 };
		uint32_t total;
		int cfd = dxgpmo_open();

		if (cfd < 0 || dxgpmo_query_adapters(cfd, info, 64, &total) ||
		    !total)
			_exit(10);
		c.adapter_id = info[0].adapter_id;
		if (dxgpmo_create_pmo(cfd, &c))
			_exit(11);
		adl.amo_id = c.amo_id;
		if (dxgpmo_allocate_adl(cfd, &adl))
			_exit(12);
		dxgpmo_destroy_pmo(cfd, c.pmo_id, c.amo_id);
		_exit(13);	/* not reached: the task dies in the BUG */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status)) {
		TH_LOG("child exited with %d instead of dying",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	EXPECT_EQ(1, kmsg_wait_for(kmsg, 3000, "kernel BUG at", "pmo.c"));
	usleep(300000);	/* the rest of the oops */
	kmsg_write("dxgpmo-expect: end adl-leak-bug\n");
	close(kmsg);

	/* The machine is usable: the device opens, the child's file is gone. */
	close(fd);
	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &after));
	EXPECT_EQ(0, dxgpmo_counters_live(&after.global));
	EXPECT_EQ(before.global.leaked_adls + 1, after.global.leaked_adls);
	close(fd);
}

TEST_HARNESS_MAIN
