// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into make coverage's selftests only (the Makefile, DXGPMO_GCOV=y,
 * with -Wl,--wrap=_exit): the kselftest harness ends each test's child
 * with _exit(), which skips the exit handlers where gcov writes its
 * counters, so that nothing a test ran in its child was counted.  The
 * child writes them first.
 */
#include "gcov_exit.h"

void __wrap__exit(int status)
{
	__gcov_dump();
	__real__exit(status);
}
