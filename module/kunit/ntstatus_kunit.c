// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the kernel's NTSTATUS for an errno and back, from the table
 * libdxgk expands too (dxgk_types.h).  Every row goes both ways, a
 * command's negative errno maps as its positive one does, and what the
 * table lacks maps to STATUS_UNSUCCESSFUL one way and -EIO the other.
 */
#include <kunit/test.h>
#include <linux/errno.h>

#include "../ntstatus.h"
#include "kunit.h"

void dxgpmo_ntstatus_rows_test(struct kunit *test)
{
	static const struct {
		int err;
		NTSTATUS status;
	} rows[] = {
#define DXGPMO_ROW(errno_value, status) { errno_value, status },
		DXGK_STATUS_ERRNO_TABLE(DXGPMO_ROW)
#undef DXGPMO_ROW
	};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(rows), 20U);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		KUNIT_EXPECT_EQ_MSG(test,
				    dxgpmo_ntstatus_from_errno(-rows[i].err),
				    rows[i].status, "errno %d", rows[i].err);
		KUNIT_EXPECT_EQ_MSG(test,
				    dxgpmo_ntstatus_from_errno(rows[i].err),
				    rows[i].status, "errno %d", rows[i].err);
		KUNIT_EXPECT_EQ_MSG(test,
				    dxgpmo_errno_from_ntstatus(rows[i].status),
				    -rows[i].err, "status %#x", rows[i].status);
	}
}

void dxgpmo_ntstatus_values_test(struct kunit *test)
{
	/* The values Windows' ntstatus.h has, spot-checked. */
	KUNIT_EXPECT_EQ(test, dxgpmo_ntstatus_from_errno(-EINVAL),
			(NTSTATUS)0xC000000D);
	KUNIT_EXPECT_EQ(test, dxgpmo_ntstatus_from_errno(-ENOMEM),
			(NTSTATUS)0xC0000017);
	KUNIT_EXPECT_EQ(test, dxgpmo_ntstatus_from_errno(-EBUSY),
			(NTSTATUS)0xC0000184);
	KUNIT_EXPECT_TRUE(test, NT_ERROR(dxgpmo_ntstatus_from_errno(-EIO)));
	KUNIT_EXPECT_TRUE(test, NT_SUCCESS(dxgpmo_ntstatus_from_errno(0)));
}

void dxgpmo_ntstatus_unknown_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, dxgpmo_ntstatus_from_errno(-ENOTSUPP),
			STATUS_UNSUCCESSFUL);
	KUNIT_EXPECT_EQ(test, dxgpmo_ntstatus_from_errno(-ELOOP),
			STATUS_UNSUCCESSFUL);
	/* STATUS_UNSUCCESSFUL has no errno of its own. */
	KUNIT_EXPECT_EQ(test, dxgpmo_errno_from_ntstatus(STATUS_UNSUCCESSFUL),
			-EIO);
	KUNIT_EXPECT_EQ(test, dxgpmo_errno_from_ntstatus((NTSTATUS)0xC0000001),
			-EIO);
	/* Information is a success; a warning fails, as errors do. */
	KUNIT_EXPECT_EQ(test, dxgpmo_errno_from_ntstatus((NTSTATUS)0x40000000),
			0);
	KUNIT_EXPECT_EQ(test, dxgpmo_errno_from_ntstatus((NTSTATUS)0x80000005),
			-EIO);
}

