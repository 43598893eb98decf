// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the Windows-named interface's own checks (dxgkrnl.c), before any
 * command runs: NTSTATUS from errno and back, handles that name no
 * interface, and the blocks a callback refuses as Windows does.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/mm.h>

#include "../dxgkrnl.h"
#include "kunit.h"

void dxgpmo_dxgkrnl_status_test(struct kunit *test)
{
	static const struct {
		int err;
		NTSTATUS status;
	} rows[] = {
#define DXGKRNL_ROW(errno, status) { errno, status },
		DXGK_STATUS_ERRNO_TABLE(DXGKRNL_ROW)
#undef DXGKRNL_ROW
	};
	unsigned int i;

	/* Every row both ways, and distinct statuses for distinct errnos. */
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		KUNIT_EXPECT_EQ_MSG(test, dxgkrnl_status(-rows[i].err),
				    rows[i].status, "errno %d", rows[i].err);
		KUNIT_EXPECT_EQ_MSG(test, dxgkrnl_errno(rows[i].status),
				    -rows[i].err, "status %#x", rows[i].status);
	}
	KUNIT_EXPECT_EQ(test, dxgkrnl_status(-ENOEXEC), STATUS_UNSUCCESSFUL);
	KUNIT_EXPECT_EQ(test, dxgkrnl_errno(STATUS_UNSUCCESSFUL), -EIO);
	KUNIT_EXPECT_EQ(test, dxgkrnl_errno((NTSTATUS)0xC00000E5), -EIO);
	/* Success and information values are success. */
	KUNIT_EXPECT_EQ(test, dxgkrnl_errno((NTSTATUS)0x00000103), 0);
	KUNIT_EXPECT_EQ(test, dxgkrnl_errno((NTSTATUS)0x40000000), 0);
}

void dxgpmo_dxgkrnl_handle_test(struct kunit *test)
{
	u32 object_id = 0;

	KUNIT_EXPECT_EQ(test, (u64)(uintptr_t)dxgkrnl_make_handle(5, 7),
			(5ULL << 32) | 7);
	/* No interface is started: every handle names none. */
	KUNIT_EXPECT_NULL(test, dxgkrnl_iface_get(dxgkrnl_make_handle(5, 7),
						  &object_id));
	KUNIT_EXPECT_EQ(test, object_id, 7U);
	KUNIT_EXPECT_NULL(test, dxgkrnl_iface_get(NULL, &object_id));
	KUNIT_EXPECT_EQ(test, object_id, 0U);
	KUNIT_EXPECT_NULL(test, dxgkrnl_iface_get((HANDLE)~0UL, &object_id));
}

void dxgpmo_dxgkrnl_args_test(struct kunit *test)
{
	HANDLE stale = dxgkrnl_make_handle(U16_MAX, 3);
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT create = {
		.hAdapter = dxgkrnl_make_handle(U16_MAX, 0),
		.Size = PAGE_SIZE,
		.Type = DXGK_PHYSICAL_MEMORY_TYPE_MDL,
		.CacheType = DXGK_MEMORY_CACHING_TYPE_CACHED,
		.hPhysicalMemoryObject = stale,
	};
	DXGKARGCB_ALLOCATE_ADL adl = {
		.hAdapterMemoryObject = stale, .Size = PAGE_SIZE,
	};
	DXGKARGCB_MAP_PHYSICAL_MEMORY map = {
		.hPhysicalMemoryObject = stale, .Size = PAGE_SIZE,
	};
	DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT destroy = { stale, NULL };
	DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT close = { stale };
	DXGKARGCB_FREE_ADL free_adl = { stale, NULL };
	DXGKRNL_INTERFACE iface;

	dxgkrnl_fill_interface(&iface, U16_MAX);
	KUNIT_EXPECT_EQ(test, iface.Size, (ULONG)sizeof(iface));

	/* A block the callback cannot read. */
	KUNIT_EXPECT_EQ(test, iface.DxgkCbCreatePhysicalMemoryObject(NULL),
			STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, iface.DxgkCbAllocateAdl(NULL),
			STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, iface.DxgkCbFreeAdl(&free_adl),
			STATUS_INVALID_PARAMETER);

	/* A handle no started interface made; outputs cleared first. */
	KUNIT_EXPECT_EQ(test, iface.DxgkCbCreatePhysicalMemoryObject(&create),
			STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_NULL(test, create.hPhysicalMemoryObject);
	KUNIT_EXPECT_EQ(test, iface.DxgkCbDestroyPhysicalMemoryObject(&destroy),
			STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, iface.DxgkCbClosePhysicalMemoryObject(&close),
			STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, iface.DxgkCbAllocateAdl(&adl),
			STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, iface.DxgkCbMapPhysicalMemory(&map),
			STATUS_INVALID_HANDLE);

	/* A Type without a union member, and Windows' own rules. */
	create.Type = DXGK_PHYSICAL_MEMORY_TYPE_IO_SPACE + 1;
	KUNIT_EXPECT_EQ(test, iface.DxgkCbCreatePhysicalMemoryObject(&create),
			STATUS_INVALID_PARAMETER);
	adl.Flags.Reserved = 1;
	KUNIT_EXPECT_EQ(test, iface.DxgkCbAllocateAdl(&adl),
			STATUS_INVALID_PARAMETER);
	adl.Flags.Value = 0;
	adl.Size = PAGE_SIZE + 1;
	KUNIT_EXPECT_EQ(test, iface.DxgkCbAllocateAdl(&adl),
			STATUS_INVALID_PARAMETER);
	adl.Size = 0;
	KUNIT_EXPECT_EQ(test, iface.DxgkCbAllocateAdl(&adl),
			STATUS_INVALID_PARAMETER);
	map.AccessMode = 2;
	KUNIT_EXPECT_EQ(test, iface.DxgkCbMapPhysicalMemory(&map),
			STATUS_INVALID_PARAMETER);
}
