/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection (inject.c), in the test build only (test.h); in the
 * default build the hooks are constant false, so the compiler drops their
 * error paths' triggers.
 */
#ifndef _DXGPMO_INJECT_H
#define _DXGPMO_INJECT_H

#include <linux/types.h>

struct dxgpmo_file;

#ifdef DXGPMO_TEST

/*
 * Every site that can fail for lack of a resource asks this first, so a
 * test can make the N-th such site of a file fail and check the error
 * path (DXGPMO_TEST_OP_FAIL_NTH).
 */
bool dxgpmo_should_fail(struct dxgpmo_file *file);
/*
 * Whether a switch away from write-back, already made, is to report
 * failure (DXGPMO_TEST_OP_FAIL_ALIAS_SWITCH).
 */
bool dxgpmo_test_alias_switch_fails(void);
/* Arm a countdown (N > 0) or disarm it (0); the previous setting back. */
u32 dxgpmo_inject_arm(struct dxgpmo_file *file, u32 nth);
u32 dxgpmo_inject_arm_alias_switch(u32 nth);

#else /* !DXGPMO_TEST */

static inline bool dxgpmo_should_fail(struct dxgpmo_file *file)
{
	return false;
}

static inline bool dxgpmo_test_alias_switch_fails(void)
{
	return false;
}

#endif /* DXGPMO_TEST */

#endif /* _DXGPMO_INJECT_H */
