/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test build, as iommufd's CONFIG_IOMMUFD_TEST: DXGPMO_TEST=y on the
 * kbuild make command line (module/Kbuild) defines DXGPMO_TEST and adds
 * test.c, inject.c, bench.c and arch_$(SRCARCH)_test.c: DXGPMO_IOC_TEST, enabled at
 * load time by debug_ioctls=1, with its fault injection and in-module
 * benchmarks.  make check, make bench and make demo build it
 * (scripts/vm-lib.sh).
 *
 * The default build (make module, make install, DKMS) has none of it: no
 * debug_ioctls parameter, DXGPMO_IOC_TEST keeps its number but has no
 * handler (so -ENOTTY, as an unknown number), and the fault-injection
 * hooks (inject.h) are constant false.
 */
#ifndef _DXGPMO_TEST_BUILD_H
#define _DXGPMO_TEST_BUILD_H

#include <linux/types.h>

#ifdef DXGPMO_TEST

/* The debug_ioctls parameter. */
extern bool dxgpmo_debug_ioctls;

#endif /* DXGPMO_TEST */

#endif /* _DXGPMO_TEST_BUILD_H */
