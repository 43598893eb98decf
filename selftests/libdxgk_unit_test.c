// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side checks of libdxgk that need no device: the NTSTATUS values
 * against the numbers Windows defines (written out here independently of
 * the header), the errno table both ways, the x64 layout of every
 * structure as the DDI reference's field types give it, and that bad
 * handles come back as STATUS_INVALID_HANDLE instead of a crash.
 *
 * Prints "libdxgk: PASS|FAIL name" lines; exits 1 on any failure.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libdxgk.h"

static int failed;

static void report(int ok, const char *name)
{
	printf("libdxgk: %s %s\n", ok ? "PASS" : "FAIL", name);
	failed |= !ok;
}

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		printf("  %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		ok = 0;							\
	}								\
} while (0)

static void status_values(void)
{
	static const struct {
		NTSTATUS status;
		unsigned int windows;
	} v[] = {
		{ STATUS_SUCCESS, 0x00000000 },
		{ STATUS_DEVICE_BUSY, 0x80000011 },
		{ STATUS_UNSUCCESSFUL, 0xC0000001 },
		{ STATUS_ACCESS_VIOLATION, 0xC0000005 },
		{ STATUS_INVALID_HANDLE, 0xC0000008 },
		{ STATUS_INVALID_PARAMETER, 0xC000000D },
		{ STATUS_NO_SUCH_DEVICE, 0xC000000E },
		{ STATUS_INVALID_DEVICE_REQUEST, 0xC0000010 },
		{ STATUS_NO_MEMORY, 0xC0000017 },
		{ STATUS_CONFLICTING_ADDRESSES, 0xC0000018 },
		{ STATUS_ACCESS_DENIED, 0xC0000022 },
		{ STATUS_BUFFER_TOO_SMALL, 0xC0000023 },
		{ STATUS_PRIVILEGE_NOT_HELD, 0xC0000061 },
		{ STATUS_INTEGER_OVERFLOW, 0xC0000095 },
		{ STATUS_NOT_SUPPORTED, 0xC00000BB },
		{ STATUS_TOO_MANY_OPENED_FILES, 0xC000011F },
		{ STATUS_CANCELLED, 0xC0000120 },
		{ STATUS_INVALID_ADDRESS, 0xC0000141 },
		{ STATUS_IO_DEVICE_ERROR, 0xC0000185 },
		{ STATUS_INVALID_BUFFER_SIZE, 0xC0000206 },
	};
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		EXPECT((unsigned int)v[i].status == v[i].windows);
		EXPECT(DxgkLinuxNtStatusName(v[i].status) != NULL);
	}
	EXPECT(NT_SUCCESS(STATUS_SUCCESS));
	EXPECT(!NT_SUCCESS(STATUS_DEVICE_BUSY));
	EXPECT(!NT_SUCCESS(STATUS_INVALID_PARAMETER));
	report(ok, "ntstatus_values");
}

static void errno_table(void)
{
	static const struct {
		int err;
		NTSTATUS status;
	} t[] = {
		{ 0, STATUS_SUCCESS },
		{ EINVAL, STATUS_INVALID_PARAMETER },
		{ ENOMEM, STATUS_NO_MEMORY },
		{ ENOENT, STATUS_INVALID_HANDLE },
		{ EBUSY, STATUS_DEVICE_BUSY },
		{ EOPNOTSUPP, STATUS_NOT_SUPPORTED },
		{ EACCES, STATUS_ACCESS_DENIED },
		{ EPERM, STATUS_PRIVILEGE_NOT_HELD },
		{ ENOSPC, STATUS_BUFFER_TOO_SMALL },
		{ E2BIG, STATUS_INVALID_BUFFER_SIZE },
		{ EEXIST, STATUS_CONFLICTING_ADDRESSES },
		{ ERANGE, STATUS_INVALID_ADDRESS },
		{ EFAULT, STATUS_ACCESS_VIOLATION },
		{ ENODEV, STATUS_NO_SUCH_DEVICE },
		{ EOVERFLOW, STATUS_INTEGER_OVERFLOW },
		{ EINTR, STATUS_CANCELLED },
		{ EIO, STATUS_IO_DEVICE_ERROR },
		{ ENOTTY, STATUS_INVALID_DEVICE_REQUEST },
		{ EMFILE, STATUS_TOO_MANY_OPENED_FILES },
	};
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		EXPECT(DxgkLinuxNtStatusFromErrno(t[i].err) == t[i].status);
		EXPECT(DxgkLinuxNtStatusFromErrno(-t[i].err) == t[i].status);
		EXPECT(DxgkLinuxErrnoFromNtStatus(t[i].status) == t[i].err);
	}
	/* Outside the table: the catch-alls, never success. */
	EXPECT(DxgkLinuxNtStatusFromErrno(EXDEV) == STATUS_UNSUCCESSFUL);
	EXPECT(DxgkLinuxErrnoFromNtStatus((NTSTATUS)0xC0000999) == EIO);
	EXPECT(DxgkLinuxErrnoFromNtStatus((NTSTATUS)0x00000103) == 0);
	EXPECT(DxgkLinuxNtStatusName((NTSTATUS)0xC0000999) == NULL);
	report(ok, "errno_ntstatus_table");
}

/* Offsets on x64 from the documented field types, natural alignment. */
static void layouts(void)
{
	int ok = 1;

	EXPECT(sizeof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT) == 80);
	EXPECT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT, Type) == 24);
	EXPECT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT, CacheType) == 28);
	EXPECT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			ContiguousMemory.BoundaryAddressMultiple) == 48);
	EXPECT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			Mdl.Flags) == 56);
	EXPECT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			Section.PageProtection) == 48);
	EXPECT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			hPhysicalMemoryObject) == 64);
	EXPECT(offsetof(DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT,
			hAdapterMemoryObject) == 72);
	EXPECT(sizeof(DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT) == 16);
	EXPECT(sizeof(DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT) == 24);
	EXPECT(sizeof(DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT) == 8);
	EXPECT(sizeof(DXGKARGCB_MAP_PHYSICAL_MEMORY) == 40);
	EXPECT(offsetof(DXGKARGCB_MAP_PHYSICAL_MEMORY, Offset) == 16);
	EXPECT(offsetof(DXGKARGCB_MAP_PHYSICAL_MEMORY, pMappedAddress) == 32);
	EXPECT(sizeof(DXGKARGCB_UNMAP_PHYSICAL_MEMORY) == 24);
	EXPECT(sizeof(DXGKARGCB_ALLOCATE_ADL) == 40);
	EXPECT(offsetof(DXGKARGCB_ALLOCATE_ADL, Flags) == 24);
	EXPECT(offsetof(DXGKARGCB_ALLOCATE_ADL, pAdl) == 32);
	EXPECT(sizeof(DXGKARGCB_FREE_ADL) == 16);
	EXPECT(sizeof(DXGK_ADL) == 16);
	EXPECT(offsetof(DXGK_ADL, BasePageNumber) == 8);
	EXPECT(offsetof(DXGK_ADL, Pages) == 8);
	EXPECT(sizeof(DXGK_ADL_FLAGS) == 4 && sizeof(DXGK_ALLOCATEADL_FLAGS) == 4);
	EXPECT(sizeof(DXGK_MEMORYRANGE) == 16);
	EXPECT(sizeof(DXGKARG_CREATEMEMORYBASIS) == 32);
	EXPECT(offsetof(DXGKARG_CREATEMEMORYBASIS, Ranges) == 16);
	EXPECT(sizeof(DXGKARG_QUERYDIRTYBITDATA) == 56);
	EXPECT(offsetof(DXGKARG_QUERYDIRTYBITDATA, Flags) == 48);
	report(ok, "struct_layouts");
}

/* Bits of the flag unions where Windows has them. */
static void flag_bits(void)
{
	DXGK_ALLOCATEADL_FLAGS a;
	DXGK_ADL_FLAGS f;
	int ok = 1;

	a.Value = 0;
	a.RequireContiguous = 1;
	EXPECT(a.Value == 0x1);
	a.Value = 0;
	a.PreferContiguous = 1;
	EXPECT(a.Value == 0x2);
	f.Value = 0;
	f.Contiguous = 1;
	EXPECT(f.Value == 0x1);
	EXPECT(DXGK_PHYSICAL_MEMORY_TYPE_IO_SPACE == 3);
	EXPECT(DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED == 2);
	EXPECT(DXGK_ACCESS_MODE_USER_MODE == 1);
	EXPECT(MmNotMapped == -1 && MmUSWCCached == 5);
	EXPECT(DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA == 1);
	report(ok, "flag_bits_and_enums");
}

/* Handles that were never made: a status, never a crash or a syscall. */
static void bad_handles(void)
{
	DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT d = { NULL, NULL };
	DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT c = { (HANDLE)0x1234 };
	DXGKARGCB_MAP_PHYSICAL_MEMORY m;
	DXGKARGCB_ALLOCATE_ADL a;
	int ok = 1;

	EXPECT(DxgkCbDestroyPhysicalMemoryObject(&d) == STATUS_INVALID_HANDLE);
	EXPECT(DxgkLinuxGetLastStatus() == STATUS_INVALID_HANDLE);
	EXPECT(DxgkCbClosePhysicalMemoryObject(&c) == STATUS_INVALID_HANDLE);
	memset(&m, 0, sizeof(m));
	m.hPhysicalMemoryObject = &m;
	m.Size = PAGE_SIZE;
	EXPECT(DxgkCbMapPhysicalMemory(&m) == STATUS_INVALID_HANDLE);
	EXPECT(m.pMappedAddress == NULL);
	memset(&a, 0, sizeof(a));
	a.hAdapterMemoryObject = (HANDLE)~(uintptr_t)0;
	a.Size = PAGE_SIZE;
	EXPECT(DxgkCbAllocateAdl(&a) == STATUS_INVALID_HANDLE);
	EXPECT(a.pAdl == NULL);
	EXPECT(DxgkCbAllocateAdl(NULL) == STATUS_INVALID_PARAMETER);
	EXPECT(DxgkDdiStartDirtyTracking(NULL, NULL) == STATUS_INVALID_HANDLE);
	EXPECT(DxgkDdiCreateMemoryBasis(NULL, NULL) == NULL);
	EXPECT(DxgkLinuxGetLastStatus() == STATUS_INVALID_HANDLE);
	report(ok, "bad_handles");
}

/* Without the module there is no device: said as such. */
static void no_device(void)
{
	DXGK_LINUX_SESSION *s = (DXGK_LINUX_SESSION *)1;
	HANDLE h = (HANDLE)1;
	int ok = 1;

	if (access("/dev/dxgpmo", F_OK) == 0) {
		printf("libdxgk: SKIP no_device: /dev/dxgpmo exists here\n");
		return;
	}
	EXPECT(DxgkLinuxOpenAdapter(NULL, 0, &h) == STATUS_NO_SUCH_DEVICE);
	EXPECT(h == NULL);
	EXPECT(DxgkLinuxOpenSession(NULL, &s) == STATUS_NO_SUCH_DEVICE);
	EXPECT(s == NULL);
	report(ok, "no_device");
}

int main(void)
{
	status_values();
	errno_table();
	layouts();
	flag_bits();
	bad_handles();
	no_device();
	return failed;
}
