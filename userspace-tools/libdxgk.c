// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk: the Windows-named calls on the dxgpmo ioctls (see libdxgk.h).
 *
 * Handles are never pointers to memory: each encodes its kind, the session
 * slot and that slot's generation, and the dxgpmo id.  A stale, foreign or
 * made-up handle therefore cannot make the library touch freed memory: it
 * fails the decode (STATUS_INVALID_HANDLE) or names an id the kernel does
 * not know in that file (ENOENT, the same status).  Only ADLs are real
 * memory, because Windows code reads DXGK_ADL fields directly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dxgpmo.h"
#include "libdxgk.h"

_Static_assert(sizeof(void *) == 8, "handles encode 64 bits");
_Static_assert(sizeof(DXGK_PAGE_NUMBER) == sizeof(__u64),
	       "ADL pages are copied as the kernel's __u64 page numbers");
_Static_assert((int)MmNonCached == DXGK_MEMORY_CACHING_TYPE_NON_CACHED &&
	       (int)MmCached == DXGK_MEMORY_CACHING_TYPE_CACHED &&
	       (int)MmWriteCombined == DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED,
	       "drivers pass Mm cache types as CacheType");
_Static_assert(DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY ==
	       DXGPMO_PMO_TYPE_CONTIGUOUS &&
	       DXGK_ACCESS_MODE_USER_MODE == DXGPMO_ACCESS_USER &&
	       DXGK_MEMORY_CACHING_TYPE_WRITE_COMBINED ==
	       DXGPMO_CACHE_WRITE_COMBINED,
	       "dxgpmo keeps the WDDM enum values");

#define DXGK_DEV_PATH		"/dev/dxgpmo"
#define MAX_SESSIONS		256
#define MAX_ADAPTERS		64
/* The kernel's DXGPMO_BASIS_MAX_RANGES: more is E2BIG, so not allocated. */
#define MAX_BASIS_RANGES	4096
/* Page arrays larger than this wait for the kernel's check of the size. */
#define PROBE_PAGES		512
/*
 * 16 bits of generation per slot: a slot whose generations are used up is
 * retired instead of wrapping, so a stale handle never becomes valid again.
 */
#define GEN_MAX			0xffffu

enum handle_kind {
	KIND_PMO = 0xd1,
	KIND_AMO,
	KIND_ADAPTER,
	KIND_BASIS,
	KIND_SESSION,
};

/* A CPU view a session made, unmapped when the session closes. */
struct view {
	struct view *next;
	void *address;
	size_t length;
};

/* A memory basis a session made, and the adapter it was made on. */
struct basis_rec {
	struct basis_rec *next;
	uint32_t basis_id;
	uint32_t adapter_id;
};

/* What AllocateAdl hands out: the DXGK_ADL first, then what frees it. */
struct adl_box {
	DXGK_ADL adl;
	struct adl_box *next;
	uint32_t adl_id;
	HANDLE amo;
	DXGK_PAGE_NUMBER pages[];
};

/*
 * Programs never see this memory: a DXGK_LINUX_SESSION * is an encoded
 * slot and generation like every other handle.  refs counts the table's
 * reference (until Close) and every call in flight; the file is closed
 * and the memory freed only when the last one is dropped, so a Close in
 * one thread never pulls the fd from under another thread's ioctl.
 */
struct _DXGK_LINUX_SESSION {
	int fd;
	unsigned int slot;
	unsigned int generation;
	unsigned int refs;
	int dead;
	struct view *views;
	struct adl_box *adls;
	struct basis_rec *bases;
	struct _DXGK_LINUX_SESSION *next_all;
};

static pthread_mutex_t sessions_lock = PTHREAD_MUTEX_INITIALIZER;
static struct _DXGK_LINUX_SESSION *sessions[MAX_SESSIONS];
/* Open and closed-but-still-referenced sessions, for fork's child. */
static struct _DXGK_LINUX_SESSION *all_sessions;
static unsigned int generations[MAX_SESSIONS];
static uint64_t default_token;
static __thread uint64_t thread_token;
static __thread NTSTATUS last_status;

/* The table of Documentation/porting.rst, in its order. */
static const struct {
	int err;
	NTSTATUS status;
	const char *name;
} status_table[] = {
	{ 0, STATUS_SUCCESS, "STATUS_SUCCESS" },
	{ EINVAL, STATUS_INVALID_PARAMETER, "STATUS_INVALID_PARAMETER" },
	{ ENOMEM, STATUS_NO_MEMORY, "STATUS_NO_MEMORY" },
	{ ENOENT, STATUS_INVALID_HANDLE, "STATUS_INVALID_HANDLE" },
	{ EBUSY, STATUS_INVALID_DEVICE_STATE, "STATUS_INVALID_DEVICE_STATE" },
	{ EOPNOTSUPP, STATUS_NOT_SUPPORTED, "STATUS_NOT_SUPPORTED" },
	{ EACCES, STATUS_ACCESS_DENIED, "STATUS_ACCESS_DENIED" },
	{ EPERM, STATUS_PRIVILEGE_NOT_HELD, "STATUS_PRIVILEGE_NOT_HELD" },
	{ ENOSPC, STATUS_BUFFER_TOO_SMALL, "STATUS_BUFFER_TOO_SMALL" },
	{ E2BIG, STATUS_INVALID_BUFFER_SIZE, "STATUS_INVALID_BUFFER_SIZE" },
	{ EEXIST, STATUS_CONFLICTING_ADDRESSES,
	  "STATUS_CONFLICTING_ADDRESSES" },
	{ ERANGE, STATUS_INVALID_ADDRESS, "STATUS_INVALID_ADDRESS" },
	{ EFAULT, STATUS_ACCESS_VIOLATION, "STATUS_ACCESS_VIOLATION" },
	{ ENODEV, STATUS_NO_SUCH_DEVICE, "STATUS_NO_SUCH_DEVICE" },
	{ EOVERFLOW, STATUS_INTEGER_OVERFLOW, "STATUS_INTEGER_OVERFLOW" },
	{ EINTR, STATUS_CANCELLED, "STATUS_CANCELLED" },
	{ EIO, STATUS_IO_DEVICE_ERROR, "STATUS_IO_DEVICE_ERROR" },
	{ ENOTTY, STATUS_INVALID_DEVICE_REQUEST,
	  "STATUS_INVALID_DEVICE_REQUEST" },
	{ EMFILE, STATUS_TOO_MANY_OPENED_FILES,
	  "STATUS_TOO_MANY_OPENED_FILES" },
	{ EAGAIN, STATUS_INSUFFICIENT_RESOURCES,
	  "STATUS_INSUFFICIENT_RESOURCES" },
	{ -1, STATUS_UNSUCCESSFUL, "STATUS_UNSUCCESSFUL" },
};

NTSTATUS DxgkLinuxNtStatusFromErrno(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	/* Two spellings of one errno on some architectures. */
	if (err == ENOTSUP)
		err = EOPNOTSUPP;
	if (err == ENFILE)
		err = EMFILE;
	for (i = 0; status_table[i].err != -1; i++)
		if (status_table[i].err == err)
			return status_table[i].status;
	return STATUS_UNSUCCESSFUL;
}

int DxgkLinuxErrnoFromNtStatus(NTSTATUS status)
{
	size_t i;

	for (i = 0; status_table[i].err != -1; i++)
		if (status_table[i].status == status)
			return status_table[i].err;
	return NT_SUCCESS(status) ? 0 : EIO;
}

const char *DxgkLinuxNtStatusName(NTSTATUS status)
{
	size_t i;

	for (i = 0; i < sizeof(status_table) / sizeof(status_table[0]); i++)
		if (status_table[i].status == status)
			return status_table[i].name;
	return NULL;
}

NTSTATUS DxgkLinuxGetLastStatus(void)
{
	return last_status;
}

static NTSTATUS done(NTSTATUS status)
{
	last_status = status;
	return status;
}

static NTSTATUS done_errno(int err)
{
	return done(DxgkLinuxNtStatusFromErrno(err));
}

/*
 * No retry: EINTR is STATUS_CANCELLED as the porting page says, and an
 * EAGAIN (MAP under RLIMIT_MEMLOCK, say) does not go away by asking again.
 */
static int xioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg) ? errno : 0;
}

/* Sessions and handles */

static uint64_t encode(enum handle_kind kind,
		       const struct _DXGK_LINUX_SESSION *s, uint32_t id)
{
	return (uint64_t)kind << 56 | (uint64_t)s->slot << 48 |
	       (uint64_t)s->generation << 32 | id;
}

static HANDLE make_handle(enum handle_kind kind,
			  const struct _DXGK_LINUX_SESSION *s, uint32_t id)
{
	if (!id)
		return NULL;
	return (HANDLE)(uintptr_t)encode(kind, s, id);
}

/* The open session a value encodes, with a reference taken; or NULL. */
static struct _DXGK_LINUX_SESSION *session_get_locked(uint64_t v)
{
	struct _DXGK_LINUX_SESSION *s = sessions[v >> 48 & 0xff];

	if (!s || s->dead || s->generation != (v >> 32 & 0xffff))
		return NULL;
	s->refs++;
	return s;
}

static void session_free_locked(struct _DXGK_LINUX_SESSION *s)
{
	struct _DXGK_LINUX_SESSION **pp;

	for (pp = &all_sessions; *pp; pp = &(*pp)->next_all) {
		if (*pp == s) {
			*pp = s->next_all;
			break;
		}
	}
	close(s->fd);
	free(s);
}

static void session_put(struct _DXGK_LINUX_SESSION *s)
{
	pthread_mutex_lock(&sessions_lock);
	if (!--s->refs)
		session_free_locked(s);
	pthread_mutex_unlock(&sessions_lock);
}

/* What only the session's owner frees: its views, ADLs and bases. */
static void session_drop_memory(struct _DXGK_LINUX_SESSION *s)
{
	struct basis_rec *b;
	struct adl_box *box;
	struct view *v;

	while ((v = s->views)) {
		s->views = v->next;
		munmap(v->address, v->length);
		free(v);
	}
	while ((box = s->adls)) {
		s->adls = box->next;
		free(box);
	}
	while ((b = s->bases)) {
		s->bases = b->next;
		free(b);
	}
}

/*
 * Ends the session for every caller now; the file goes with the last
 * reference.  Its slot takes a new generation at the next open, which
 * turns every handle of this session stale.
 */
static void session_close_locked(struct _DXGK_LINUX_SESSION *s)
{
	sessions[s->slot] = NULL;
	if (default_token == encode(KIND_SESSION, s, 1))
		default_token = 0;
	s->dead = 1;
	session_drop_memory(s);
	if (!--s->refs)
		session_free_locked(s);
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&sessions_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&sessions_lock);
}

/*
 * The child has only the forking thread: no reference taken elsewhere can
 * ever be dropped, and every session is the parent's.  Its files, views
 * and ADLs go; the generations stay, so the parent's handles stay stale.
 */
static void atfork_child(void)
{
	struct _DXGK_LINUX_SESSION *s;

	pthread_mutex_init(&sessions_lock, NULL);
	while ((s = all_sessions)) {
		all_sessions = s->next_all;
		session_drop_memory(s);
		if (sessions[s->slot] == s)
			sessions[s->slot] = NULL;
		close(s->fd);
		free(s);
	}
	default_token = 0;
	thread_token = 0;
}

__attribute__((constructor)) static void libdxgk_init(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

/* A new session holding one reference, the table's. */
static NTSTATUS session_open(const char *path,
			     struct _DXGK_LINUX_SESSION **out)
{
	struct _DXGK_LINUX_SESSION *s;
	unsigned int slot;
	int fd, err;

	/* ADL page numbers and every Size are in the 4 KiB pages WDDM has. */
	if (sysconf(_SC_PAGESIZE) != PAGE_SIZE)
		return STATUS_NOT_SUPPORTED;
	fd = open(path ? path : DXGK_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		/* No device node: the module is not loaded. */
		return err == ENOENT || err == ENXIO ? STATUS_NO_SUCH_DEVICE :
		       DxgkLinuxNtStatusFromErrno(err);
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		return STATUS_NO_MEMORY;
	}
	pthread_mutex_lock(&sessions_lock);
	for (slot = 0; slot < MAX_SESSIONS; slot++)
		if (!sessions[slot] && generations[slot] < GEN_MAX)
			break;
	if (slot == MAX_SESSIONS) {
		pthread_mutex_unlock(&sessions_lock);
		close(fd);
		free(s);
		return STATUS_TOO_MANY_OPENED_FILES;
	}
	s->fd = fd;
	s->slot = slot;
	s->generation = ++generations[slot];
	s->refs = 1;
	s->next_all = all_sessions;
	all_sessions = s;
	sessions[slot] = s;
	pthread_mutex_unlock(&sessions_lock);
	*out = s;
	return STATUS_SUCCESS;
}

NTSTATUS DxgkLinuxOpenSession(const char *path, DXGK_LINUX_SESSION **out)
{
	struct _DXGK_LINUX_SESSION *s;
	NTSTATUS status;

	if (!out)
		return done(STATUS_INVALID_PARAMETER);
	*out = NULL;
	status = session_open(path, &s);
	if (NT_SUCCESS(status))
		*out = (DXGK_LINUX_SESSION *)make_handle(KIND_SESSION, s, 1);
	return done(status);
}

NTSTATUS DxgkLinuxCloseSession(DXGK_LINUX_SESSION *session)
{
	uint64_t v = (uintptr_t)session;
	struct _DXGK_LINUX_SESSION *s;

	if (v >> 56 != KIND_SESSION || (uint32_t)v != 1)
		return done(STATUS_INVALID_HANDLE);
	pthread_mutex_lock(&sessions_lock);
	s = session_get_locked(v);
	if (!s) {
		pthread_mutex_unlock(&sessions_lock);
		return done(STATUS_INVALID_HANDLE);
	}
	s->refs--;
	session_close_locked(s);
	pthread_mutex_unlock(&sessions_lock);
	if (thread_token == v)
		thread_token = 0;
	return done(STATUS_SUCCESS);
}

void DxgkLinuxSetThreadSession(DXGK_LINUX_SESSION *s)
{
	/* Checked under the lock at each use: it may be closed meanwhile. */
	thread_token = (uintptr_t)s;
}

/*
 * The session that calls without a handle use, with a reference taken;
 * the default one is opened on first need.
 */
static NTSTATUS current_session(struct _DXGK_LINUX_SESSION **out)
{
	struct _DXGK_LINUX_SESSION *s = NULL, *d;
	NTSTATUS status;

	pthread_mutex_lock(&sessions_lock);
	if (thread_token) {
		s = thread_token >> 56 == KIND_SESSION ?
		    session_get_locked(thread_token) : NULL;
		pthread_mutex_unlock(&sessions_lock);
		*out = s;
		return s ? STATUS_SUCCESS : STATUS_INVALID_HANDLE;
	}
	if (default_token)
		s = session_get_locked(default_token);
	pthread_mutex_unlock(&sessions_lock);
	if (s) {
		*out = s;
		return STATUS_SUCCESS;
	}
	status = session_open(NULL, &s);
	if (!NT_SUCCESS(status))
		return status;
	pthread_mutex_lock(&sessions_lock);
	d = default_token ? session_get_locked(default_token) : NULL;
	if (d) {
		/* Another thread won the race. */
		session_close_locked(s);
		s = d;
	} else {
		default_token = encode(KIND_SESSION, s, 1);
		s->refs++;
	}
	pthread_mutex_unlock(&sessions_lock);
	*out = s;
	return STATUS_SUCCESS;
}

/*
 * The id of a handle of the given kind and its session, with a reference
 * the caller drops with session_put(); or 0.
 */
static uint32_t handle_id(HANDLE h, enum handle_kind kind,
			  struct _DXGK_LINUX_SESSION **out)
{
	uint64_t v = (uintptr_t)h;
	struct _DXGK_LINUX_SESSION *s;
	uint32_t id = (uint32_t)v;

	if (v >> 56 != (uint64_t)kind || !id)
		return 0;
	pthread_mutex_lock(&sessions_lock);
	s = session_get_locked(v);
	pthread_mutex_unlock(&sessions_lock);
	if (!s)
		return 0;
	*out = s;
	return id;
}

/*
 * The id of a call's second handle, which must be of the given kind and
 * of the session @s the first one named (its reference is the call's);
 * or 0.
 */
static uint32_t handle_id_in(HANDLE h, enum handle_kind kind,
			     const struct _DXGK_LINUX_SESSION *s)
{
	struct _DXGK_LINUX_SESSION *hs;
	uint32_t id = handle_id(h, kind, &hs);

	if (!id)
		return 0;
	session_put(hs);
	return hs == s ? id : 0;
}

/* The status of a call's ioctl, its session's reference dropped. */
static NTSTATUS put_done(struct _DXGK_LINUX_SESSION *s, int err)
{
	session_put(s);
	return done_errno(err);
}

/* Physical memory objects */

NTSTATUS DxgkCbCreatePhysicalMemoryObject(
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *args)
{
	struct dxgpmo_create_pmo c = { .size = sizeof(c) };
	struct _DXGK_LINUX_SESSION *s;
	NTSTATUS status;
	int err;

	if (!args)
		return done(STATUS_INVALID_PARAMETER);
	args->hPhysicalMemoryObject = NULL;
	args->hAdapterMemoryObject = NULL;
	switch (args->Type) {
	case DXGK_PHYSICAL_MEMORY_TYPE_MDL:
		/*
		 * Mdl.Flags is not passed on: dxgpmo always allocates every
		 * page, zeroed, which satisfies each MM_ALLOCATE_* flag.
		 */
		c.low_address = args->Mdl.LowAddress.QuadPart;
		c.high_address = args->Mdl.HighAddress.QuadPart;
		c.skip_bytes = args->Mdl.SkipBytes.QuadPart;
		break;
	case DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY:
		c.low_address =
			args->ContiguousMemory.LowestAcceptableAddress.QuadPart;
		c.high_address =
			args->ContiguousMemory.HighestAcceptableAddress.QuadPart;
		c.boundary =
			args->ContiguousMemory.BoundaryAddressMultiple.QuadPart;
		break;
	case DXGK_PHYSICAL_MEMORY_TYPE_SECTION:
		c.page_protection = args->Section.PageProtection;
		break;
	case DXGK_PHYSICAL_MEMORY_TYPE_IO_SPACE:
		c.io_base = args->IOSpace.BaseAddress.QuadPart;
		break;
	default:
		return done(STATUS_INVALID_PARAMETER);
	}
	if (args->hAdapter) {
		c.adapter_id = handle_id(args->hAdapter, KIND_ADAPTER, &s);
		if (!c.adapter_id)
			return done(STATUS_INVALID_HANDLE);
	} else {
		status = current_session(&s);
		if (!NT_SUCCESS(status))
			return done(status);
	}
	c.type = args->Type;
	c.cache_type = args->CacheType;
	c.length = args->Size;
	c.context = args->Context;
	err = xioctl(s->fd, DXGPMO_IOC_CREATE_PMO, &c);
	if (!err) {
		args->hPhysicalMemoryObject = make_handle(KIND_PMO, s, c.pmo_id);
		args->hAdapterMemoryObject = make_handle(KIND_AMO, s, c.amo_id);
	}
	return put_done(s, err);
}

NTSTATUS DxgkCbDestroyPhysicalMemoryObject(
	const DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT *args)
{
	struct dxgpmo_destroy_pmo d = { .size = sizeof(d) };
	struct _DXGK_LINUX_SESSION *s;

	if (!args)
		return done(STATUS_INVALID_PARAMETER);
	d.pmo_id = handle_id(args->hPhysicalMemoryObject, KIND_PMO, &s);
	if (!d.pmo_id)
		return done(STATUS_INVALID_HANDLE);
	if (args->hAdapterMemoryObject) {
		d.amo_id = handle_id_in(args->hAdapterMemoryObject, KIND_AMO,
					s);
		if (!d.amo_id) {
			session_put(s);
			return done(STATUS_INVALID_HANDLE);
		}
	}
	return put_done(s, xioctl(s->fd, DXGPMO_IOC_DESTROY_PMO, &d));
}

NTSTATUS DxgkCbOpenPhysicalMemoryObject(
	DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT *args)
{
	struct dxgpmo_open_pmo o = { .size = sizeof(o) };
	struct _DXGK_LINUX_SESSION *s;
	int err;

	if (!args)
		return done(STATUS_INVALID_PARAMETER);
	args->hAdapterMemoryObject = NULL;
	o.pmo_id = handle_id(args->hPhysicalMemoryObject, KIND_PMO, &s);
	if (!o.pmo_id)
		return done(STATUS_INVALID_HANDLE);
	o.adapter_id = handle_id_in(args->hAdapter, KIND_ADAPTER, s);
	if (!o.adapter_id) {
		session_put(s);
		return done(STATUS_INVALID_HANDLE);
	}
	err = xioctl(s->fd, DXGPMO_IOC_OPEN_PMO, &o);
	if (!err)
		args->hAdapterMemoryObject = make_handle(KIND_AMO, s, o.amo_id);
	return put_done(s, err);
}

NTSTATUS DxgkCbClosePhysicalMemoryObject(
	const DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT *args)
{
	struct dxgpmo_close_pmo c = { .size = sizeof(c) };
	struct _DXGK_LINUX_SESSION *s;

	if (!args)
		return done(STATUS_INVALID_PARAMETER);
	c.amo_id = handle_id(args->hAdapterMemoryObject, KIND_AMO, &s);
	if (!c.amo_id)
		return done(STATUS_INVALID_HANDLE);
	return put_done(s, xioctl(s->fd, DXGPMO_IOC_CLOSE_PMO, &c));
}

/* ADLs */

NTSTATUS DxgkCbAllocateAdl(DXGKARGCB_ALLOCATE_ADL *args)
{
	struct dxgpmo_allocate_adl a = { .size = sizeof(a) };
	struct dxgpmo_free_adl f = { .size = sizeof(f) };
	struct _DXGK_LINUX_SESSION *s;
	struct adl_box *box;
	size_t nr;
	int err;

	if (!args)
		return done(STATUS_INVALID_PARAMETER);
	args->pAdl = NULL;
	a.amo_id = handle_id(args->hAdapterMemoryObject, KIND_AMO, &s);
	if (!a.amo_id)
		return done(STATUS_INVALID_HANDLE);
	if (args->Flags.Reserved || !args->Size ||
	    (args->Size | args->Offset) & (PAGE_SIZE - 1)) {
		session_put(s);
		return done(STATUS_INVALID_PARAMETER);
	}
	nr = args->Size >> PAGE_SHIFT;
	if (args->Flags.RequireContiguous)
		a.flags |= DXGPMO_ADL_REQUIRE_CONTIGUOUS;
	if (args->Flags.PreferContiguous)
		a.flags |= DXGPMO_ADL_PREFER_CONTIGUOUS;
	a.offset = args->Offset;
	a.length = args->Size;
	/*
	 * A large page array is allocated only once the kernel has checked
	 * Offset and Size against the object: with too small an array it
	 * checks them, then says ENOSPC and makes nothing.
	 */
	if (nr > PROBE_PAGES) {
		struct dxgpmo_allocate_adl probe = a;
		DXGK_PAGE_NUMBER one;

		probe.pages = (uintptr_t)&one;
		probe.pages_capacity = 1;
		err = xioctl(s->fd, DXGPMO_IOC_ALLOCATE_ADL, &probe);
		if (err != ENOSPC) {
			session_put(s);
			return done_errno(err ? err : EIO);
		}
	}
	if (nr > (SIZE_MAX - sizeof(*box)) / sizeof(box->pages[0]) ||
	    nr > UINT32_MAX) {
		session_put(s);
		return done(STATUS_NO_MEMORY);
	}
	box = malloc(sizeof(*box) + nr * sizeof(box->pages[0]));
	if (!box) {
		session_put(s);
		return done(STATUS_NO_MEMORY);
	}
	a.pages = (uintptr_t)box->pages;
	a.pages_capacity = nr;
	err = xioctl(s->fd, DXGPMO_IOC_ALLOCATE_ADL, &a);
	if (err) {
		free(box);
		return put_done(s, err);
	}
	/*
	 * Physical page numbers are shown only to CAP_SYS_ADMIN.  An ADL
	 * whose numbers read 0 cannot program a device, so it is not handed
	 * out as if it could; one the kernel would not free is said so.
	 */
	if (a.adl_flags & DXGPMO_ADL_ADDRESSES_HIDDEN) {
		f.adl_id = a.adl_id;
		err = xioctl(s->fd, DXGPMO_IOC_FREE_ADL, &f);
		free(box);
		session_put(s);
		return err ? done_errno(err) : done(STATUS_PRIVILEGE_NOT_HELD);
	}
	/*
	 * The contiguous form only to a driver that asked for it: one that
	 * set neither flag reads Pages[] (Windows documents that drivers may
	 * not handle a contiguous ADL on every path), and the kernel fills
	 * the array either way.
	 */
	memset(&box->adl, 0, sizeof(box->adl));
	box->adl.PageCount = (UINT)a.page_count;
	box->adl.Flags.Contiguous = (a.adl_flags & DXGPMO_ADL_CONTIGUOUS) &&
		(args->Flags.RequireContiguous || args->Flags.PreferContiguous);
	if (box->adl.Flags.Contiguous)
		box->adl.BasePageNumber = a.base_page;
	else
		box->adl.Pages = box->pages;
	box->adl_id = a.adl_id;
	box->amo = args->hAdapterMemoryObject;
	pthread_mutex_lock(&sessions_lock);
	if (s->dead) {
		/* Closed meanwhile: the kernel freed the ADL with the file. */
		pthread_mutex_unlock(&sessions_lock);
		free(box);
		session_put(s);
		return done(STATUS_INVALID_HANDLE);
	}
	box->next = s->adls;
	s->adls = box;
	pthread_mutex_unlock(&sessions_lock);
	args->pAdl = &box->adl;
	return put_done(s, 0);
}

/* The live ADL at adl (never read before it is found), unlinked. */
static struct adl_box *adl_take_locked(const DXGK_ADL *adl,
				       struct _DXGK_LINUX_SESSION **out)
{
	struct _DXGK_LINUX_SESSION *s;
	struct adl_box **pp, *box;
	unsigned int i;

	for (i = 0; i < MAX_SESSIONS; i++) {
		s = sessions[i];
		if (!s)
			continue;
		for (pp = &s->adls; *pp; pp = &(*pp)->next) {
			if (&(*pp)->adl != adl)
				continue;
			box = *pp;
			*pp = box->next;
			*out = s;
			return box;
		}
	}
	return NULL;
}

NTSTATUS DxgkCbFreeAdl(const DXGKARGCB_FREE_ADL *args)
{
	struct dxgpmo_free_adl f = { .size = sizeof(f) };
	struct _DXGK_LINUX_SESSION *s;
	struct adl_box *box;
	int err;

	if (!args || !args->pAdl)
		return done(STATUS_INVALID_PARAMETER);
	pthread_mutex_lock(&sessions_lock);
	box = adl_take_locked(args->pAdl, &s);
	if (!box) {
		pthread_mutex_unlock(&sessions_lock);
		return done(STATUS_INVALID_PARAMETER);
	}
	if (box->amo != args->hAdapterMemoryObject) {
		box->next = s->adls;
		s->adls = box;
		pthread_mutex_unlock(&sessions_lock);
		return done(STATUS_INVALID_HANDLE);
	}
	s->refs++;
	pthread_mutex_unlock(&sessions_lock);
	f.adl_id = box->adl_id;
	err = xioctl(s->fd, DXGPMO_IOC_FREE_ADL, &f);
	/* An ADL the kernel already dropped (its PMO destroyed) is gone too. */
	if (!err || err == ENOENT) {
		free(box);
	} else {
		pthread_mutex_lock(&sessions_lock);
		if (s->dead) {
			free(box);
		} else {
			box->next = s->adls;
			s->adls = box;
		}
		pthread_mutex_unlock(&sessions_lock);
	}
	return put_done(s, err);
}

/* CPU mappings */

/* Records a view for Close; one made after Close is undone at once. */
static int view_add(struct _DXGK_LINUX_SESSION *s, struct view *v,
		    void *address, size_t length)
{
	v->address = address;
	v->length = length;
	pthread_mutex_lock(&sessions_lock);
	if (s->dead) {
		pthread_mutex_unlock(&sessions_lock);
		munmap(address, length);
		free(v);
		return ENOENT;
	}
	v->next = s->views;
	s->views = v;
	pthread_mutex_unlock(&sessions_lock);
	return 0;
}

/*
 * Forgets the view at address, of s or (s NULL) of any session, and
 * returns its length (0: no such view).  Whoever took it off the list
 * unmaps it: Unmap or the session's close, never both.
 */
static size_t view_remove(struct _DXGK_LINUX_SESSION *s, void *address)
{
	struct view **pp, *v;
	unsigned int i;
	size_t length;

	pthread_mutex_lock(&sessions_lock);
	for (i = 0; i < MAX_SESSIONS; i++) {
		if (!sessions[i] || (s && sessions[i] != s))
			continue;
		for (pp = &sessions[i]->views; *pp; pp = &(*pp)->next) {
			if ((*pp)->address == address) {
				v = *pp;
				*pp = v->next;
				length = v->length;
				free(v);
				pthread_mutex_unlock(&sessions_lock);
				return length;
			}
		}
	}
	pthread_mutex_unlock(&sessions_lock);
	return 0;
}

NTSTATUS DxgkCbMapPhysicalMemory(DXGKARGCB_MAP_PHYSICAL_MEMORY *args)
{
	struct dxgpmo_map m = { .size = sizeof(m) };
	struct _DXGK_LINUX_SESSION *s;
	struct view *v;
	int err;

	if (!args)
		return done(STATUS_INVALID_PARAMETER);
	args->pMappedAddress = NULL;
	m.pmo_id = handle_id(args->hPhysicalMemoryObject, KIND_PMO, &s);
	if (!m.pmo_id)
		return done(STATUS_INVALID_HANDLE);
	if (args->AccessMode != DXGK_ACCESS_MODE_KERNEL_MODE &&
	    args->AccessMode != DXGK_ACCESS_MODE_USER_MODE) {
		session_put(s);
		return done(STATUS_INVALID_PARAMETER);
	}
	v = malloc(sizeof(*v));
	if (!v) {
		session_put(s);
		return done(STATUS_NO_MEMORY);
	}
	/*
	 * The program is the kernel-mode driver, but a kernel address is of
	 * no use to it: both modes become a view in this process, with the
	 * object's cache type.  Kernel mode stays kernel mode, so that what
	 * Windows maps only there (IO_SPACE) maps, and only there.
	 */
	if (args->AccessMode == DXGK_ACCESS_MODE_KERNEL_MODE) {
		m.access_mode = DXGPMO_ACCESS_KERNEL;
		m.flags = DXGPMO_MAP_IN_PROCESS;
	} else {
		m.access_mode = DXGPMO_ACCESS_USER;
	}
	m.offset = args->Offset;
	m.length = args->Size;
	err = xioctl(s->fd, DXGPMO_IOC_MAP, &m);
	if (err) {
		free(v);
		return put_done(s, err);
	}
	err = view_add(s, v, (void *)(uintptr_t)m.address, m.length);
	if (!err) {
		args->pMappedAddress = (PVOID)(uintptr_t)m.address;
		args->Offset = m.offset;
		args->Size = m.length;
	}
	return put_done(s, err);
}

NTSTATUS DxgkCbUnmapPhysicalMemory(const DXGKARGCB_UNMAP_PHYSICAL_MEMORY *args)
{
	struct dxgpmo_unmap u = { .size = sizeof(u) };
	struct _DXGK_LINUX_SESSION *s;
	int err;

	if (!args)
		return done(STATUS_INVALID_PARAMETER);
	u.pmo_id = handle_id(args->hPhysicalMemoryObject, KIND_PMO, &s);
	if (!u.pmo_id)
		return done(STATUS_INVALID_HANDLE);
	u.address = (uintptr_t)args->pBaseAddress;
	u.length = args->Size;
	err = xioctl(s->fd, DXGPMO_IOC_UNMAP, &u);
	/*
	 * The ioctl detached the view; its VMA still holds the range, so no
	 * other mapping can have been placed there (only a thread that
	 * unmapped this library's range itself could).  munmap() gives the
	 * range back, as Windows' Unmap does.
	 */
	if (!err) {
		size_t length = view_remove(s, args->pBaseAddress);

		if (length)
			munmap(args->pBaseAddress, length);
	}
	return put_done(s, err);
}

/* Memory bases and dirty-bit tracking */

/*
 * The basis's session, which must also be the adapter's (one reference),
 * and the adapter the basis was made on: a DDI of one adapter never acts
 * on another adapter's basis.
 */
static uint32_t basis_of(HANDLE adapter, HANDLE basis,
			 struct _DXGK_LINUX_SESSION **s,
			 const struct basis_rec **rec)
{
	uint32_t id = handle_id(basis, KIND_BASIS, s);
	uint32_t adapter_id;
	struct basis_rec *b;
	int same;

	if (!id)
		return 0;
	adapter_id = handle_id_in(adapter, KIND_ADAPTER, *s);
	pthread_mutex_lock(&sessions_lock);
	for (b = (*s)->bases; b && b->basis_id != id; b = b->next)
		;
	same = adapter_id && b && b->adapter_id == adapter_id;
	pthread_mutex_unlock(&sessions_lock);
	if (!same) {
		session_put(*s);
		return 0;
	}
	if (rec)
		*rec = b;
	return id;
}

/*
 * Forgets a destroyed basis: the record basis_of() found, compared by
 * address only (another thread's destroy may have freed it already).
 */
static void basis_forget(struct _DXGK_LINUX_SESSION *s,
			 const struct basis_rec *rec)
{
	struct basis_rec **pp, *b;

	pthread_mutex_lock(&sessions_lock);
	for (pp = &s->bases; (b = *pp); pp = &b->next) {
		if (b == rec) {
			*pp = b->next;
			free(b);
			break;
		}
	}
	pthread_mutex_unlock(&sessions_lock);
}

HANDLE DxgkDdiCreateMemoryBasis(HANDLE hAdapter,
				const DXGKARG_CREATEMEMORYBASIS *args)
{
	struct dxgpmo_create_memory_basis c = { .size = sizeof(c) };
	struct dxgpmo_memory_range *r;
	struct _DXGK_LINUX_SESSION *s;
	struct basis_rec *b;
	HANDLE h;
	UINT64 i;
	int err;

	c.adapter_id = handle_id(hAdapter, KIND_ADAPTER, &s);
	if (!c.adapter_id) {
		done(STATUS_INVALID_HANDLE);
		return NULL;
	}
	if (!args || !args->RangeCount) {
		session_put(s);
		done(STATUS_INVALID_PARAMETER);
		return NULL;
	}
	/* What the kernel would refuse is not allocated first. */
	if (args->RangeCount > MAX_BASIS_RANGES) {
		session_put(s);
		done(STATUS_INVALID_BUFFER_SIZE);
		return NULL;
	}
	/* Windows' range layout is dxgpmo's, but not by contract. */
	r = calloc(args->RangeCount, sizeof(*r));
	b = malloc(sizeof(*b));
	if (!r || !b) {
		free(r);
		free(b);
		session_put(s);
		done(STATUS_NO_MEMORY);
		return NULL;
	}
	for (i = 0; i < args->RangeCount; i++) {
		r[i].segment_offset = args->Ranges[i].SegmentOffset;
		r[i].length = args->Ranges[i].SizeInBytes;
	}
	c.segment_id = args->SegmentId;
	c.range_count = (uint32_t)args->RangeCount;
	c.ranges = (uintptr_t)r;
	err = xioctl(s->fd, DXGPMO_IOC_CREATE_MEMORY_BASIS, &c);
	free(r);
	if (!err) {
		b->basis_id = c.basis_id;
		b->adapter_id = c.adapter_id;
		pthread_mutex_lock(&sessions_lock);
		/* Closed meanwhile: the kernel destroyed it with the file. */
		if (s->dead) {
			free(b);
			err = ENOENT;
		} else {
			b->next = s->bases;
			s->bases = b;
		}
		pthread_mutex_unlock(&sessions_lock);
	} else {
		free(b);
	}
	/* Made before the reference goes: s may be freed right after. */
	h = err ? NULL : make_handle(KIND_BASIS, s, c.basis_id);
	put_done(s, err);
	return h;
}

static NTSTATUS basis_call(HANDLE adapter, HANDLE basis, unsigned long request,
			   size_t size)
{
	union {
		struct dxgpmo_destroy_memory_basis d;
		struct dxgpmo_dirty_tracking t;
	} u;
	struct _DXGK_LINUX_SESSION *s;
	const struct basis_rec *rec;
	int err;

	_Static_assert(sizeof(u.d) == sizeof(u.t) &&
		       offsetof(struct dxgpmo_destroy_memory_basis, basis_id) ==
		       offsetof(struct dxgpmo_dirty_tracking, basis_id),
		       "one body for destroy, start and stop");
	memset(&u, 0, sizeof(u));
	u.t.size = size;
	u.t.basis_id = basis_of(adapter, basis, &s, &rec);
	if (!u.t.basis_id)
		return done(STATUS_INVALID_HANDLE);
	err = xioctl(s->fd, request, &u);
	if (!err && request == DXGPMO_IOC_DESTROY_MEMORY_BASIS)
		basis_forget(s, rec);
	return put_done(s, err);
}

NTSTATUS DxgkDdiDestroyMemoryBasis(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return basis_call(hAdapter, hMemoryBasis,
			  DXGPMO_IOC_DESTROY_MEMORY_BASIS,
			  sizeof(struct dxgpmo_destroy_memory_basis));
}

NTSTATUS DxgkDdiStartDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return basis_call(hAdapter, hMemoryBasis,
			  DXGPMO_IOC_START_DIRTY_TRACKING,
			  sizeof(struct dxgpmo_dirty_tracking));
}

NTSTATUS DxgkDdiStopDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return basis_call(hAdapter, hMemoryBasis,
			  DXGPMO_IOC_STOP_DIRTY_TRACKING,
			  sizeof(struct dxgpmo_dirty_tracking));
}

NTSTATUS DxgkDdiQueryDirtyBitData(HANDLE hAdapter,
				  DXGKARG_QUERYDIRTYBITDATA *args)
{
	struct dxgpmo_query_dirty_bits q = { .size = sizeof(q) };
	struct _DXGK_LINUX_SESSION *s;

	if (!args)
		return done(STATUS_INVALID_PARAMETER);
	q.basis_id = basis_of(hAdapter, args->MemoryBasis, &s, NULL);
	if (!q.basis_id)
		return done(STATUS_INVALID_HANDLE);
	if (args->Flags & ~(UINT)DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA) {
		session_put(s);
		return done(STATUS_INVALID_PARAMETER);
	}
	if (args->Flags & DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA)
		q.flags = DXGPMO_DIRTY_CLEAR_DATA;
	/* The subrange fields mean something only with a SubrangeSize. */
	if (args->SubrangeSize) {
		q.subrange_index = args->SubrangeIndex;
		q.subrange_offset = args->SubrangeOffset;
		q.subrange_length = args->SubrangeSize;
	}
	q.buffer = (uintptr_t)args->Buffer;
	q.buffer_size = args->BufferSize;
	return put_done(s, xioctl(s->fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q));
}

/* Adapters, segments and engines (not Windows) */

static int query_adapters(struct _DXGK_LINUX_SESSION *s,
			  struct dxgpmo_adapter_info *info, uint32_t *total)
{
	struct dxgpmo_query_adapters q = {
		.size = sizeof(q),
		.count = MAX_ADAPTERS,
		.entry_size = sizeof(*info),
		.entries = (uintptr_t)info,
	};
	int err = xioctl(s->fd, DXGPMO_IOC_QUERY_ADAPTERS, &q);

	*total = q.count < MAX_ADAPTERS ? q.count : MAX_ADAPTERS;
	return err;
}

static UINT caps_of(const struct dxgpmo_adapter_info *a)
{
	return (a->caps & DXGPMO_ADAPTER_CAP_IOMMU ?
		DXGK_LINUX_ADAPTER_IOMMU : 0) |
	       (a->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE ?
		DXGK_LINUX_ADAPTER_DMA_ENGINE : 0) |
	       (a->caps & DXGPMO_ADAPTER_CAP_VIRTUAL ?
		DXGK_LINUX_ADAPTER_VIRTUAL : 0);
}

NTSTATUS DxgkLinuxOpenAdapter(const char *name, UINT required, HANDLE *out)
{
	struct dxgpmo_adapter_info info[MAX_ADAPTERS];
	struct _DXGK_LINUX_SESSION *s;
	NTSTATUS status;
	uint32_t total, i;
	int err;

	if (!out)
		return done(STATUS_INVALID_PARAMETER);
	*out = NULL;
	status = current_session(&s);
	if (!NT_SUCCESS(status))
		return done(status);
	err = query_adapters(s, info, &total);
	if (err)
		return put_done(s, err);
	for (i = 0; i < total; i++) {
		if (name && strncmp(name, info[i].name, sizeof(info[i].name)))
			continue;
		if ((caps_of(&info[i]) & required) != required)
			continue;
		*out = make_handle(KIND_ADAPTER, s, info[i].adapter_id);
		return put_done(s, 0);
	}
	session_put(s);
	return done(STATUS_NO_SUCH_DEVICE);
}

/* On success the caller holds a reference to *s. */
static NTSTATUS adapter_info(HANDLE adapter, struct _DXGK_LINUX_SESSION **s,
			     struct dxgpmo_adapter_info *out)
{
	struct dxgpmo_adapter_info info[MAX_ADAPTERS];
	uint32_t id = handle_id(adapter, KIND_ADAPTER, s), total, i;
	int err;

	if (!id)
		return STATUS_INVALID_HANDLE;
	err = query_adapters(*s, info, &total);
	if (err) {
		session_put(*s);
		return DxgkLinuxNtStatusFromErrno(err);
	}
	for (i = 0; i < total; i++) {
		if (info[i].adapter_id == id) {
			*out = info[i];
			return STATUS_SUCCESS;
		}
	}
	/* Unbound since the handle was made. */
	session_put(*s);
	return STATUS_NO_SUCH_DEVICE;
}

NTSTATUS DxgkLinuxQueryAdapterInfo(HANDLE hAdapter,
				   DXGK_LINUX_ADAPTER_INFO *out)
{
	struct _DXGK_LINUX_SESSION *s;
	struct dxgpmo_adapter_info a;
	NTSTATUS status;

	if (!out)
		return done(STATUS_INVALID_PARAMETER);
	status = adapter_info(hAdapter, &s, &a);
	if (!NT_SUCCESS(status))
		return done(status);
	session_put(s);
	memset(out, 0, sizeof(*out));
	memcpy(out->Name, a.name, sizeof(out->Name));
	out->Name[sizeof(out->Name) - 1] = '\0';
	out->Caps = caps_of(&a);
	out->HighestVisibleAddress.QuadPart = (LONGLONG)a.dma_mask;
	out->SegmentSize = a.segment_size;
	out->SegmentCaps.PageSize = a.dirty_page_size;
	return done(STATUS_SUCCESS);
}

NTSTATUS DxgkLinuxMapSegment(HANDLE hAdapter, UINT SegmentId, PVOID *out,
			     SIZE_T *size)
{
	struct _DXGK_LINUX_SESSION *s;
	struct dxgpmo_adapter_info a;
	NTSTATUS status;
	struct view *v;
	void *p;
	int err;

	if (!out || !size || SegmentId != 1)
		return done(STATUS_INVALID_PARAMETER);
	*out = NULL;
	status = adapter_info(hAdapter, &s, &a);
	if (!NT_SUCCESS(status))
		return done(status);
	v = malloc(sizeof(*v));
	if (!v) {
		session_put(s);
		return done(STATUS_NO_MEMORY);
	}
	p = mmap(NULL, a.segment_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 s->fd, a.segment_mmap_offset);
	if (p == MAP_FAILED) {
		err = errno;
		free(v);
		return put_done(s, err);
	}
	err = view_add(s, v, p, a.segment_size);
	if (!err) {
		*out = p;
		*size = a.segment_size;
	}
	return put_done(s, err);
}

NTSTATUS DxgkLinuxUnmapSegment(PVOID address, SIZE_T size)
{
	/* Only a view still listed is this call's to unmap, not close's. */
	if (!view_remove(NULL, address))
		return done(STATUS_INVALID_PARAMETER);
	return done_errno(munmap(address, size) ? errno : 0);
}

static NTSTATUS adapter_dma(struct _DXGK_LINUX_SESSION *s, uint32_t id,
			    uint64_t address, void *buf, uint64_t size,
			    int device_writes)
{
	struct dxgpmo_adapter_dma d = {
		.size = sizeof(d),
		.flags = device_writes ? DXGPMO_DMA_TO_MEMORY : 0,
		.adapter_id = id,
		.device_address = address,
		.length = size,
		.buffer = (uintptr_t)buf,
	};

	return put_done(s, xioctl(s->fd, DXGPMO_IOC_ADAPTER_DMA, &d));
}

NTSTATUS DxgkLinuxAdapterDma(HANDLE hAdapter, UINT64 DeviceAddress,
			     PVOID Buffer, SIZE_T Size, BOOLEAN DeviceWrites)
{
	struct _DXGK_LINUX_SESSION *s;
	uint32_t id = handle_id(hAdapter, KIND_ADAPTER, &s);

	if (!id)
		return done(STATUS_INVALID_HANDLE);
	return adapter_dma(s, id, DeviceAddress, Buffer, Size, DeviceWrites);
}

NTSTATUS DxgkLinuxEngineWriteSegment(HANDLE hAdapter, UINT SegmentId,
				     UINT64 SegmentOffset, const void *Buffer,
				     SIZE_T Size)
{
	struct _DXGK_LINUX_SESSION *s;
	struct dxgpmo_adapter_info a;
	NTSTATUS status;

	if (SegmentId != 1)
		return done(STATUS_INVALID_PARAMETER);
	status = adapter_info(hAdapter, &s, &a);
	if (!NT_SUCCESS(status))
		return done(status);
	/* Within the segment: the device address must not wrap past it. */
	if (SegmentOffset > a.segment_size ||
	    Size > a.segment_size - SegmentOffset) {
		session_put(s);
		return done(STATUS_INVALID_PARAMETER);
	}
	/* The engine only reads the buffer when it writes the segment. */
	return adapter_dma(s, a.adapter_id,
			   a.segment_device_address + SegmentOffset,
			   (void *)Buffer, Size, 1);
}
