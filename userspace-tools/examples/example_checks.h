/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both examples print and count: one "ok:" or "FAIL:" line per
 * check, and the number of failures for the exit status.
 */
#ifndef DXGK_EXAMPLE_CHECKS_H
#define DXGK_EXAMPLE_CHECKS_H

#include <stdio.h>
#include <unistd.h>

#include "libdxgk.h"

static int failures;

/* ok itself, so that what depends on the check can be skipped. */
static int check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok:  " : "FAIL:", what);
	if (!ok)
		failures++;
	return ok;
}

/*
 * A call that must return STATUS_SUCCESS; its status by name.  No device
 * node is the module not loaded, and said as dxgpmoctl says it: the same
 * STATUS_NO_SUCH_DEVICE answers an adapter name that is not there.
 */
static int check_status(NTSTATUS status, const char *call)
{
	const char *name = DxgkLinuxNtStatusName(status);
	char what[128];

	snprintf(what, sizeof(what), "%s returns STATUS_SUCCESS (0x%08x %s)",
		 call, (unsigned int)status, name ? name : "?");
	check(status == STATUS_SUCCESS, what);
	if (status == STATUS_NO_SUCH_DEVICE && access("/dev/dxgpmo", F_OK))
		fprintf(stderr, "no /dev/dxgpmo: is the module loaded? (modprobe dxgpmo)\n");
	return status == STATUS_SUCCESS;
}

#endif
