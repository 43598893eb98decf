// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side checks of libdxgk that need no device: the NTSTATUS values
 * against the numbers Windows defines (written out here independently of
 * the header), the errno table both ways, and that bad handles come back
 * as STATUS_INVALID_HANDLE instead of a crash.  The x64 layout of every
 * structure is dxgk_types.h's own static assertions, which fail any
 * compile of it (header_c11 and header_cxx17 here, the kernel's too).
 *
 * The session, fork, ADL and view rules are checked against a fake
 * dxgpmo: sessions opened on /dev/null, and this program's own ioctl(),
 * which the static library's calls bind to, answers the dxgpmo requests.
 *
 * Prints "libdxgk: PASS|FAIL name" lines; exits 1 on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dxgpmo.h"
#include "libdxgk.h"
#include "libdxgk_report.h"

#define FAKE_DEV "/dev/null"
#define FAKE_OBJECT_SIZE (64ULL << 20)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void report(int ok, const char *name)
{
	report_prefixed(ok, "", name);
}

static void status_values(void)
{
	static const struct {
		NTSTATUS status;
		unsigned int windows;
	} v[] = {
		{ STATUS_SUCCESS, 0x00000000 },
		{ STATUS_INVALID_DEVICE_STATE, 0xC0000184 },
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

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		EXPECT((unsigned int)v[i].status == v[i].windows);
		EXPECT(DxgkLinuxNtStatusName(v[i].status));
	}
	EXPECT(NT_SUCCESS(STATUS_SUCCESS));
	EXPECT(!NT_SUCCESS(STATUS_INVALID_DEVICE_STATE));
	/* Every failure the table gives is an error, never a warning. */
	EXPECT(NT_ERROR(DxgkLinuxNtStatusFromErrno(EBUSY)));
	EXPECT(!NT_ERROR(STATUS_SUCCESS));
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
		{ EBUSY, STATUS_INVALID_DEVICE_STATE },
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

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		EXPECT(DxgkLinuxNtStatusFromErrno(t[i].err) == t[i].status);
		EXPECT(DxgkLinuxNtStatusFromErrno(-t[i].err) == t[i].status);
		EXPECT(DxgkLinuxErrnoFromNtStatus(t[i].status) == t[i].err);
	}
	/* Outside the table: the catch-alls, never success. */
	EXPECT(DxgkLinuxNtStatusFromErrno(EXDEV) == STATUS_UNSUCCESSFUL);
	EXPECT(DxgkLinuxErrnoFromNtStatus((NTSTATUS)0xC0000999) == EIO);
	EXPECT(DxgkLinuxErrnoFromNtStatus((NTSTATUS)0x00000103) == 0);
	EXPECT(!DxgkLinuxNtStatusName((NTSTATUS)0xC0000999));
	report(ok, "errno_ntstatus_table");
}

/* Offsets on x64 from the documented field types, natural alignment. */
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
	EXPECT(!m.pMappedAddress);
	memset(&a, 0, sizeof(a));
	a.hAdapterMemoryObject = (HANDLE)~(uintptr_t)0;
	a.Size = PAGE_SIZE;
	EXPECT(DxgkCbAllocateAdl(&a) == STATUS_INVALID_HANDLE);
	EXPECT(!a.pAdl);
	EXPECT(DxgkCbAllocateAdl(NULL) == STATUS_INVALID_PARAMETER);
	EXPECT(DxgkLinuxStartDirtyTracking(NULL, NULL) == STATUS_INVALID_HANDLE);
	EXPECT(!DxgkLinuxCreateMemoryBasis(NULL, NULL));
	EXPECT(DxgkLinuxGetLastStatus() == STATUS_INVALID_HANDLE);
	EXPECT(DxgkLinuxRunLiveMigration(NULL, NULL, NULL, NULL) ==
	       STATUS_INVALID_PARAMETER);
	EXPECT(DxgkLinuxGetLastStatus() == STATUS_INVALID_PARAMETER);
	report(ok, "bad_handles");
}

/* A driver's DDIs that no call without a device may reach. */
static int ddi_called;

static HANDLE never_create(HANDLE a, const DXGKARG_CREATEMEMORYBASIS *b)
{
	(void)a;
	(void)b;
	ddi_called = 1;
	return NULL;
}

static NTSTATUS never_call(HANDLE a, HANDLE b)
{
	(void)a;
	(void)b;
	ddi_called = 1;
	return STATUS_UNSUCCESSFUL;
}

static NTSTATUS never_query(HANDLE a, DXGKARG_QUERYDIRTYBITDATA *q)
{
	(void)a;
	(void)q;
	ddi_called = 1;
	return STATUS_UNSUCCESSFUL;
}

static void never_told(PVOID c, UINT s, UINT64 o, SIZE_T n)
{
	(void)c;
	(void)s;
	(void)o;
	(void)n;
	ddi_called = 1;
}

/* Without the module there is no device: said as such. */
static void no_device(void)
{
	DXGK_LINUX_SESSION *s = (DXGK_LINUX_SESSION *)1;
	DXGK_LINUX_MEMORY_BASIS_DDIS ddis = {
		.DxgkDdiCreateMemoryBasis = never_create,
		.DxgkDdiDestroyMemoryBasis = never_call,
		.DxgkDdiStartDirtyTracking = never_call,
		.DxgkDdiStopDirtyTracking = never_call,
		.DxgkDdiQueryDirtyBitData = never_query,
	};
	DXGKARG_CREATEMEMORYBASIS basis = { 1, 1, { { 0, PAGE_SIZE } } };
	DXGK_LINUX_MIGRATION params = {
		.pBasis = &basis, .pfnNotifyWrite = never_told,
	};
	DXGK_LINUX_MIGRATION_RESULT result;
	HANDLE h = (HANDLE)1;
	int ok = 1;

	if (access("/dev/dxgpmo", F_OK) == 0) {
		printf("libdxgk: SKIP %s: /dev/dxgpmo exists here\n", __func__);
		return;
	}
	EXPECT(DxgkLinuxOpenAdapter(NULL, 0, &h) == STATUS_NO_SUCH_DEVICE);
	EXPECT(!h);
	EXPECT(DxgkLinuxOpenSession(NULL, &s) == STATUS_NO_SUCH_DEVICE);
	EXPECT(!s);
	/* The harness opens its segment before it calls a driver's DDI. */
	EXPECT(DxgkLinuxRunLiveMigration(&ddis, NULL, &params, &result) ==
	       STATUS_NO_SUCH_DEVICE);
	EXPECT(!ddi_called);
	report(ok, "no_device");
}

/* The fake dxgpmo */

static int fake_next_err;		/* fail the next dxgpmo ioctl so */
static int fake_block;			/* QUERY_ADAPTERS waits for release */
static int fake_fd_was_open = -1;	/* its fd, checked after the wait */
static int fake_last_fd = -1;
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fake_cond = PTHREAD_COND_INITIALIZER;
static int fake_waiting, fake_released;
static uint32_t fake_ids;

int ioctl(int fd, unsigned long request, ...)
{
	struct dxgpmo_query_adapters *q;
	struct dxgpmo_adapter_info *info;
	struct dxgpmo_allocate_adl *a;
	struct dxgpmo_create_pmo *c;
	struct dxgpmo_map *m;
	__u64 i;
	va_list ap;
	void *arg;
	int err;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (_IOC_TYPE(request) != DXGPMO_TYPE)
		return syscall(SYS_ioctl, fd, request, arg);
	fake_last_fd = fd;
	if (fake_next_err) {
		err = fake_next_err;
		fake_next_err = 0;
		errno = err;
		return -1;
	}
	switch (request) {
	case DXGPMO_IOC_QUERY_ADAPTERS:
		if (fake_block) {
			struct stat before, after;

			fstat(fd, &before);
			pthread_mutex_lock(&fake_lock);
			fake_waiting = 1;
			pthread_cond_broadcast(&fake_cond);
			while (!fake_released)
				pthread_cond_wait(&fake_cond, &fake_lock);
			pthread_mutex_unlock(&fake_lock);
			/* Still the same file, not closed or reused. */
			fake_fd_was_open = !fstat(fd, &after) &&
					   after.st_rdev == before.st_rdev;
		}
		q = arg;
		info = (void *)(uintptr_t)q->entries;
		memset(info, 0, sizeof(*info));
		info->adapter_id = 7;
		info->caps = DXGPMO_ADAPTER_CAP_VIRTUAL;
		info->segment_size = 1 << 20;
		snprintf(info->name, sizeof(info->name), "fake0");
		q->count = 1;
		return 0;
	case DXGPMO_IOC_CREATE_PMO:
		c = arg;
		c->pmo_id = ++fake_ids;
		c->amo_id = c->adapter_id ? ++fake_ids : 0;
		return 0;
	case DXGPMO_IOC_ALLOCATE_ADL:
		a = arg;
		/* dxgpmo's order: the object's size, then the array's. */
		if (a->offset + a->length > FAKE_OBJECT_SIZE) {
			errno = EINVAL;
			return -1;
		}
		if (a->pages_capacity < a->length >> PAGE_SHIFT) {
			a->page_count = a->length >> PAGE_SHIFT;
			errno = ENOSPC;
			return -1;
		}
		a->adl_id = ++fake_ids;
		a->page_count = a->length >> PAGE_SHIFT;
		a->adl_flags = DXGPMO_ADL_CONTIGUOUS;
		a->base_page = 0x1234;
		/* As dxgpmo: the array is filled, contiguous or not. */
		for (i = 0; i < a->page_count && a->pages; i++)
			((__u64 *)(uintptr_t)a->pages)[i] = 0x1234 + i;
		return 0;
	case DXGPMO_IOC_MAP:
		m = arg;
		arg = mmap(NULL, m->length, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (arg == MAP_FAILED)
			return -1;
		m->address = (uintptr_t)arg;
		return 0;
	default:
		return 0;
	}
}

static HANDLE fake_adapter(DXGK_LINUX_SESSION *s)
{
	HANDLE h = NULL;

	DxgkLinuxSetThreadSession(s);
	DxgkLinuxOpenAdapter(NULL, 0, &h);
	DxgkLinuxSetThreadSession(NULL);
	return h;
}

static void *close_race_thread(void *arg)
{
	HANDLE h = NULL;

	DxgkLinuxSetThreadSession(arg);
	return (void *)(uintptr_t)DxgkLinuxOpenAdapter(NULL, 0, &h);
}

/*
 * Close while another thread's call is inside the ioctl: that call keeps
 * its file; a stale session pointer closes nothing; a thread session that
 * was closed is an invalid handle, not freed memory.
 */
static void session_lifetime(void)
{
	DXGK_LINUX_SESSION *s1, *s2;
	pthread_t t;
	void *ret;
	HANDLE h;
	int ok = 1;

	EXPECT(DxgkLinuxOpenSession(FAKE_DEV, &s1) == STATUS_SUCCESS);
	fake_block = 1;
	fake_released = 0;
	fake_waiting = 0;
	pthread_create(&t, NULL, close_race_thread, s1);
	pthread_mutex_lock(&fake_lock);
	while (!fake_waiting)
		pthread_cond_wait(&fake_cond, &fake_lock);
	pthread_mutex_unlock(&fake_lock);
	EXPECT(DxgkLinuxCloseSession(s1) == STATUS_SUCCESS);
	/* A new file must not take the in-flight call's fd number. */
	EXPECT(DxgkLinuxOpenSession("/dev/zero", &s2) == STATUS_SUCCESS);
	pthread_mutex_lock(&fake_lock);
	fake_released = 1;
	pthread_cond_broadcast(&fake_cond);
	pthread_mutex_unlock(&fake_lock);
	pthread_join(t, &ret);
	fake_block = 0;
	EXPECT(fake_fd_was_open == 1);
	EXPECT(fake_last_fd != -1);
	EXPECT((NTSTATUS)(uintptr_t)ret == STATUS_SUCCESS);
	/* s1 is gone: closing it again must not close s2. */
	EXPECT(DxgkLinuxCloseSession(s1) == STATUS_INVALID_HANDLE);
	h = fake_adapter(s2);
	EXPECT(h);
	DxgkLinuxSetThreadSession(s1);
	EXPECT(DxgkLinuxOpenAdapter(NULL, 0, &h) == STATUS_INVALID_HANDLE);
	DxgkLinuxSetThreadSession(NULL);
	EXPECT(DxgkLinuxCloseSession(s2) == STATUS_SUCCESS);
	report(ok, "session_close_while_in_use");
}

/* A handle stays stale however often its slot is reused. */
static void generation_wrap(void)
{
	DXGK_LINUX_ADAPTER_INFO info;
	DXGK_LINUX_SESSION *s;
	HANDLE h;
	int i, ok = 1;

	EXPECT(DxgkLinuxOpenSession(FAKE_DEV, &s) == STATUS_SUCCESS);
	h = fake_adapter(s);
	EXPECT(h);
	EXPECT(DxgkLinuxQueryAdapterInfo(h, &info) == STATUS_SUCCESS);
	DxgkLinuxCloseSession(s);
	for (i = 0; i < 1000; i++) {
		EXPECT(DxgkLinuxOpenSession(FAKE_DEV, &s) == STATUS_SUCCESS);
		if (DxgkLinuxQueryAdapterInfo(h, &info) != STATUS_INVALID_HANDLE) {
			printf("  stale handle valid again after %d opens\n",
			       i + 1);
			ok = 0;
			DxgkLinuxCloseSession(s);
			break;
		}
		DxgkLinuxCloseSession(s);
	}
	report(ok, "handle_generation_no_wrap");
}

static int hammer_stop;

static void *hammer_thread(void *arg)
{
	DXGK_LINUX_ADAPTER_INFO info;

	while (!__atomic_load_n(&hammer_stop, __ATOMIC_RELAXED))
		DxgkLinuxQueryAdapterInfo(arg, &info);
	return NULL;
}

/*
 * fork() while another thread is inside the library: the child neither
 * deadlocks nor inherits the parent's sessions (thread session included)
 * and makes its calls on a default session of its own.
 */
static void fork_child(void)
{
	DXGK_LINUX_SESSION *s;
	int i, status, fd, ok = 1;
	pthread_t t;
	HANDLE h;
	pid_t pid;

	EXPECT(DxgkLinuxOpenSession(FAKE_DEV, &s) == STATUS_SUCCESS);
	h = fake_adapter(s);
	fd = fake_last_fd;
	EXPECT(h);
	pthread_create(&t, NULL, hammer_thread, h);
	DxgkLinuxSetThreadSession(s);
	for (i = 0; i < 200 && ok; i++) {
		pid = fork();
		if (pid == 0) {
			DXGK_LINUX_ADAPTER_INFO info;
			HANDLE ch = NULL;
			NTSTATUS st;

			alarm(5);
			/* Before a new file could take its number. */
			if (fcntl(fd, F_GETFD) != -1)
				_exit(4);
			st = DxgkLinuxOpenAdapter(NULL, 0, &ch);
			/* Its own default session: on the host, no device. */
			if (access("/dev/dxgpmo", F_OK) != 0 &&
			    st != STATUS_NO_SUCH_DEVICE)
				_exit(2);
			if (st == STATUS_INVALID_HANDLE)
				_exit(2);
			if (DxgkLinuxQueryAdapterInfo(h, &info) !=
			    STATUS_INVALID_HANDLE)
				_exit(3);
			_exit(0);
		}
		EXPECT(pid > 0);
		if (pid < 0)
			break;
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("  child %d: %s %d\n", i,
			       WIFEXITED(status) ? "exit" : "signal",
			       WIFEXITED(status) ? WEXITSTATUS(status) :
			       WTERMSIG(status));
			ok = 0;
		}
	}
	__atomic_store_n(&hammer_stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	DxgkLinuxSetThreadSession(NULL);
	EXPECT(DxgkLinuxCloseSession(s) == STATUS_SUCCESS);
	report(ok, "fork_child_own_session");
}

/* A session on the fake device with a one-page object in it; 1 on success. */
static int fake_session_with_object(DXGK_LINUX_SESSION **s,
				    DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *c)
{
	/* Zeroed first: a caller whose setup failed reads no garbage. */
	memset(c, 0, sizeof(*c));
	if (DxgkLinuxOpenSession(FAKE_DEV, s) != STATUS_SUCCESS)
		return 0;
	c->hAdapter = fake_adapter(*s);
	c->Size = PAGE_SIZE;
	return DxgkCbCreatePhysicalMemoryObject(c) == STATUS_SUCCESS;
}

/* The arguments of a one-page view of the object, in mode 0 (kernel). */
static void one_page_view(const DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *c,
			  DXGKARGCB_MAP_PHYSICAL_MEMORY *m)
{
	memset(m, 0, sizeof(*m));
	m->hPhysicalMemoryObject = c->hPhysicalMemoryObject;
	m->Size = PAGE_SIZE;
}

/* ADLs: membership before any read; Close frees them and views. */
static void adls_and_views(void)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_MAP_PHYSICAL_MEMORY m;
	DXGKARGCB_ALLOCATE_ADL a, b;
	DXGKARGCB_FREE_ADL f;
	DXGK_LINUX_SESSION *s;
	unsigned char vec;
	char *page;
	int ok = 1;

	EXPECT(fake_session_with_object(&s, &c));
	memset(&a, 0, sizeof(a));
	a.hAdapterMemoryObject = c.hAdapterMemoryObject;
	a.Size = PAGE_SIZE;
	/* Contiguous pages, but the driver did not ask: a page array. */
	EXPECT(DxgkCbAllocateAdl(&a) == STATUS_SUCCESS);
	EXPECT(a.pAdl && !a.pAdl->Flags.Contiguous && a.pAdl->Pages &&
	       a.pAdl->Pages[0] == 0x1234);
	f.hAdapterMemoryObject = c.hAdapterMemoryObject;
	f.pAdl = a.pAdl;
	EXPECT(DxgkCbFreeAdl(&f) == STATUS_SUCCESS);
	a.Flags.PreferContiguous = 1;
	EXPECT(DxgkCbAllocateAdl(&a) == STATUS_SUCCESS);
	EXPECT(a.pAdl && a.pAdl->Flags.Contiguous &&
	       a.pAdl->BasePageNumber == 0x1234);
	f.pAdl = a.pAdl;
	EXPECT(DxgkCbFreeAdl(&f) == STATUS_SUCCESS);
	EXPECT(DxgkCbFreeAdl(&f) == STATUS_INVALID_PARAMETER);
	/* A DXGK_ADL the library never made, at the end of readable memory. */
	page = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(page + PAGE_SIZE, PAGE_SIZE, PROT_NONE);
	f.pAdl = (DXGK_ADL *)(page + PAGE_SIZE - sizeof(DXGK_ADL));
	EXPECT(DxgkCbFreeAdl(&f) == STATUS_INVALID_PARAMETER);
	munmap(page, 2 * PAGE_SIZE);
	EXPECT(DxgkCbAllocateAdl(&a) == STATUS_SUCCESS);
	/* Large ADLs: sized by the kernel's answer, not allocated first. */
	b = a;
	b.Size = 4096 * PAGE_SIZE;
	EXPECT(DxgkCbAllocateAdl(&b) == STATUS_SUCCESS);
	EXPECT(b.pAdl && b.pAdl->PageCount == 4096);
	b.Size = (SIZE_T)1 << 46;
	EXPECT(DxgkCbAllocateAdl(&b) == STATUS_INVALID_PARAMETER);
	one_page_view(&c, &m);
	EXPECT(DxgkCbMapPhysicalMemory(&m) == STATUS_SUCCESS);
	EXPECT(mincore(m.pMappedAddress, PAGE_SIZE, &vec) == 0);
	EXPECT(DxgkLinuxCloseSession(s) == STATUS_SUCCESS);
	/* The view is gone with its session, and so is the ADL. */
	EXPECT(mincore(m.pMappedAddress, PAGE_SIZE, &vec) == -1 &&
	       errno == ENOMEM);
	f.pAdl = a.pAdl;
	EXPECT(DxgkCbFreeAdl(&f) == STATUS_INVALID_PARAMETER);
	report(ok, "adl_registry_and_views_at_close");
}

/* EAGAIN and EINTR come back once, as statuses, not retried. */
static void no_retry(void)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_MAP_PHYSICAL_MEMORY m;
	DXGK_LINUX_SESSION *s;
	int ok = 1;

	EXPECT(fake_session_with_object(&s, &c));
	one_page_view(&c, &m);
	fake_next_err = EAGAIN;
	EXPECT(DxgkCbMapPhysicalMemory(&m) == STATUS_INSUFFICIENT_RESOURCES);
	EXPECT(!m.pMappedAddress);
	fake_next_err = EINTR;
	EXPECT(DxgkCbMapPhysicalMemory(&m) == STATUS_CANCELLED);
	fake_next_err = 0;
	EXPECT(DxgkLinuxCloseSession(s) == STATUS_SUCCESS);
	report(ok, "eagain_eintr_not_retried");
}

/* Windows code reads the halves of a LARGE_INTEGER directly. */
static void large_integer(void)
{
	LARGE_INTEGER li;
	int ok = 1;

	li.QuadPart = 0x123456789abcdef0LL;
	EXPECT(li.LowPart == 0x9abcdef0u && li.HighPart == 0x12345678);
	EXPECT(li.u.LowPart == li.LowPart && li.u.HighPart == li.HighPart);
	EXPECT(sizeof(li) == 8);
	report(ok, "large_integer_parts");
}

int main(void)
{
	/* Each line out before a crash could lose it. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	status_values();
	errno_table();
	flag_bits();
	bad_handles();
	no_device();
	session_lifetime();
	generation_wrap();
	fork_child();
	adls_and_views();
	no_retry();
	large_integer();
	return failed;
}
