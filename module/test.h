/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test build, as iommufd's CONFIG_IOMMUFD_TEST: DXGPMO_TEST=y on the
 * kbuild make command line (module/Kbuild) defines DXGPMO_TEST and adds
 * test.c, bench.c and arch_$(SRCARCH)_test.c: DXGPMO_IOC_TEST, enabled at
 * load time by debug_ioctls=1, with its fault injection and in-module
 * benchmarks.  make check, make bench and make demo build it
 * (scripts/vm-lib.sh).
 *
 * The default build (make module, make install, DKMS) has none of it: no
 * debug_ioctls parameter, DXGPMO_IOC_TEST keeps its number but has no
 * handler (so -ENOTTY, as an unknown number), and the fault-injection
 * hooks are constant false, so the compiler drops their error paths'
 * triggers.
 */
#ifndef _DXGPMO_TEST_BUILD_H
#define _DXGPMO_TEST_BUILD_H

#include <linux/types.h>

struct dxgpmo_file;

#ifdef DXGPMO_TEST

/* The debug_ioctls parameter. */
extern bool dxgpmo_debug_ioctls;

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

#endif /* _DXGPMO_TEST_BUILD_H */
