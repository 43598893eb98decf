// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk: the Windows-named calls on the dxgpmo ioctls (see libdxgk.h);
 * this file holds its sessions and its handles.
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
#include <sys/mman.h>
#include <unistd.h>

#include "libdxgk_internal.h"

_Static_assert(sizeof(void *) == 8, "handles encode 64 bits");

#define DXGK_DEV_PATH		"/dev/dxgpmo"
#define MAX_SESSIONS		256
/*
 * 16 bits of generation per slot: a slot whose generations are used up is
 * retired instead of wrapping, so a stale handle never becomes valid again.
 */
#define GEN_MAX			0xffffu

pthread_mutex_t dxgk_sessions_lock = PTHREAD_MUTEX_INITIALIZER;
static struct _DXGK_LINUX_SESSION *sessions[MAX_SESSIONS];
/* Open and closed-but-still-referenced sessions, for fork's child. */
static struct _DXGK_LINUX_SESSION *all_sessions;
static unsigned int generations[MAX_SESSIONS];
static uint64_t default_token;
static __thread uint64_t thread_token;

static uint64_t encode(enum handle_kind kind,
		       const struct _DXGK_LINUX_SESSION *s, uint32_t id)
{
	return (uint64_t)kind << 56 | (uint64_t)s->slot << 48 |
	       (uint64_t)s->generation << 32 | id;
}

HANDLE dxgk_make_handle(enum handle_kind kind,
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

void dxgk_session_put(struct _DXGK_LINUX_SESSION *s)
{
	pthread_mutex_lock(&dxgk_sessions_lock);
	if (!--s->refs)
		session_free_locked(s);
	pthread_mutex_unlock(&dxgk_sessions_lock);
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
	pthread_mutex_lock(&dxgk_sessions_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&dxgk_sessions_lock);
}

/*
 * The child has only the forking thread: no reference taken elsewhere can
 * ever be dropped, and every session is the parent's.  Its files, views
 * and ADLs go; the generations stay, so the parent's handles stay stale.
 */
static void atfork_child(void)
{
	struct _DXGK_LINUX_SESSION *s;

	pthread_mutex_init(&dxgk_sessions_lock, NULL);
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

/*
 * A new session holding one reference, the table's; NULL and *status on
 * failure.  The pointer, not the status, says which: a status made from
 * an errno is one the caller cannot prove a failure.
 */
static struct _DXGK_LINUX_SESSION *session_open(const char *path,
						NTSTATUS *status)
{
	struct _DXGK_LINUX_SESSION *s;
	unsigned int slot;
	int fd, err;

	/* ADL page numbers and every Size are in the 4 KiB pages WDDM has. */
	if (sysconf(_SC_PAGESIZE) != PAGE_SIZE) {
		*status = STATUS_NOT_SUPPORTED;
		return NULL;
	}
	fd = open(path ? path : DXGK_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		/* No device node: the module is not loaded. */
		*status = err == ENOENT || err == ENXIO ?
			  STATUS_NO_SUCH_DEVICE : DxgkLinuxNtStatusFromErrno(err);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		*status = STATUS_NO_MEMORY;
		return NULL;
	}
	pthread_mutex_lock(&dxgk_sessions_lock);
	for (slot = 0; slot < MAX_SESSIONS; slot++)
		if (!sessions[slot] && generations[slot] < GEN_MAX)
			break;
	if (slot == MAX_SESSIONS) {
		pthread_mutex_unlock(&dxgk_sessions_lock);
		close(fd);
		free(s);
		*status = STATUS_TOO_MANY_OPENED_FILES;
		return NULL;
	}
	s->fd = fd;
	s->slot = slot;
	s->generation = ++generations[slot];
	s->refs = 1;
	s->next_all = all_sessions;
	all_sessions = s;
	sessions[slot] = s;
	pthread_mutex_unlock(&dxgk_sessions_lock);
	*status = STATUS_SUCCESS;
	return s;
}

NTSTATUS DxgkLinuxOpenSession(const char *path, DXGK_LINUX_SESSION **out)
{
	struct _DXGK_LINUX_SESSION *s;
	NTSTATUS status;

	if (!out)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	*out = NULL;
	s = session_open(path, &status);
	if (s)
		*out = (DXGK_LINUX_SESSION *)dxgk_make_handle(KIND_SESSION,
							      s, 1);
	return dxgk_done(status);
}

NTSTATUS DxgkLinuxCloseSession(DXGK_LINUX_SESSION *session)
{
	uint64_t v = (uintptr_t)session;
	struct _DXGK_LINUX_SESSION *s;

	if (v >> 56 != KIND_SESSION || (uint32_t)v != 1)
		return dxgk_done(STATUS_INVALID_HANDLE);
	pthread_mutex_lock(&dxgk_sessions_lock);
	s = session_get_locked(v);
	if (!s) {
		pthread_mutex_unlock(&dxgk_sessions_lock);
		return dxgk_done(STATUS_INVALID_HANDLE);
	}
	s->refs--;
	session_close_locked(s);
	pthread_mutex_unlock(&dxgk_sessions_lock);
	if (thread_token == v)
		thread_token = 0;
	return dxgk_done(STATUS_SUCCESS);
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
NTSTATUS dxgk_current_session(struct _DXGK_LINUX_SESSION **out)
{
	struct _DXGK_LINUX_SESSION *s = NULL, *d;
	NTSTATUS status;

	pthread_mutex_lock(&dxgk_sessions_lock);
	if (thread_token) {
		s = thread_token >> 56 == KIND_SESSION ?
		    session_get_locked(thread_token) : NULL;
		pthread_mutex_unlock(&dxgk_sessions_lock);
		*out = s;
		return s ? STATUS_SUCCESS : STATUS_INVALID_HANDLE;
	}
	if (default_token)
		s = session_get_locked(default_token);
	pthread_mutex_unlock(&dxgk_sessions_lock);
	if (s) {
		*out = s;
		return STATUS_SUCCESS;
	}
	s = session_open(NULL, &status);
	if (!s)
		return status;
	pthread_mutex_lock(&dxgk_sessions_lock);
	d = default_token ? session_get_locked(default_token) : NULL;
	if (d) {
		/* Another thread won the race. */
		session_close_locked(s);
		s = d;
	} else {
		default_token = encode(KIND_SESSION, s, 1);
		s->refs++;
	}
	pthread_mutex_unlock(&dxgk_sessions_lock);
	*out = s;
	return STATUS_SUCCESS;
}

/*
 * The id of a handle of the given kind and its session, with a reference
 * the caller drops with dxgk_session_put(); or 0.
 */
uint32_t dxgk_handle_id(HANDLE h, enum handle_kind kind,
			struct _DXGK_LINUX_SESSION **out)
{
	uint64_t v = (uintptr_t)h;
	struct _DXGK_LINUX_SESSION *s;
	uint32_t id = (uint32_t)v;

	if (v >> 56 != (uint64_t)kind || !id)
		return 0;
	pthread_mutex_lock(&dxgk_sessions_lock);
	s = session_get_locked(v);
	pthread_mutex_unlock(&dxgk_sessions_lock);
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
uint32_t dxgk_handle_id_in(HANDLE h, enum handle_kind kind,
			   const struct _DXGK_LINUX_SESSION *s)
{
	struct _DXGK_LINUX_SESSION *hs;
	uint32_t id = dxgk_handle_id(h, kind, &hs);

	if (!id)
		return 0;
	dxgk_session_put(hs);
	return hs == s ? id : 0;
}

/* The status of a call, its session's reference dropped. */
NTSTATUS dxgk_put_status(struct _DXGK_LINUX_SESSION *s, NTSTATUS status)
{
	dxgk_session_put(s);
	return dxgk_done(status);
}

/* The status of a call's ioctl, its session's reference dropped. */
NTSTATUS dxgk_put_done(struct _DXGK_LINUX_SESSION *s, int err)
{
	return dxgk_put_status(s, DxgkLinuxNtStatusFromErrno(err));
}

/* Records a view for Close; one made after Close is undone at once. */
int dxgk_view_add(struct _DXGK_LINUX_SESSION *s, struct view *v,
		  void *address, size_t length)
{
	v->address = address;
	v->length = length;
	pthread_mutex_lock(&dxgk_sessions_lock);
	if (s->dead) {
		pthread_mutex_unlock(&dxgk_sessions_lock);
		munmap(address, length);
		free(v);
		return ENOENT;
	}
	v->next = s->views;
	s->views = v;
	pthread_mutex_unlock(&dxgk_sessions_lock);
	return 0;
}

/*
 * Forgets the view at address, of s or (s NULL) of any session, and
 * returns its length (0: no such view).  Whoever took it off the list
 * unmaps it: Unmap or the session's close, never both.
 */
size_t dxgk_view_remove(struct _DXGK_LINUX_SESSION *s, void *address)
{
	struct view **pp, *v;
	unsigned int i;
	size_t length;

	pthread_mutex_lock(&dxgk_sessions_lock);
	for (i = 0; i < MAX_SESSIONS; i++) {
		if (!sessions[i] || (s && sessions[i] != s))
			continue;
		for (pp = &sessions[i]->views; *pp; pp = &(*pp)->next) {
			if ((*pp)->address == address) {
				v = *pp;
				*pp = v->next;
				length = v->length;
				free(v);
				pthread_mutex_unlock(&dxgk_sessions_lock);
				return length;
			}
		}
	}
	pthread_mutex_unlock(&dxgk_sessions_lock);
	return 0;
}

/* The live ADL at adl (never read before it is found), unlinked. */
struct adl_box *dxgk_adl_take_locked(const DXGK_ADL *adl,
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
