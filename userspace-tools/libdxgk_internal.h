/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What libdxgk's files share, and nothing else: the session and the
 * records it keeps, the handle kinds, and the helpers each call uses.
 *
 * Every name here starts with dxgk_ and has hidden visibility: the shared
 * library exports only libdxgk.h's calls, and a program linked with the
 * static one keeps every other name for itself.
 */
#ifndef LIBDXGK_INTERNAL_H
#define LIBDXGK_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "dxgpmo.h"
#include "libdxgk.h"
#include "dxgk_dxgpmo.h"

#pragma GCC visibility push(hidden)

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

/* Guards the session table and every session's refs, dead and lists. */
extern pthread_mutex_t dxgk_sessions_lock;

/* libdxgk_status.c: each call's status, kept for DxgkLinuxGetLastStatus. */
NTSTATUS dxgk_done(NTSTATUS status);
NTSTATUS dxgk_done_errno(int err);

/*
 * No retry: EINTR is STATUS_CANCELLED as the porting page says, and an
 * EAGAIN (MAP under RLIMIT_MEMLOCK, say) does not go away by asking again.
 */
static inline int xioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg) ? errno : 0;
}

/* libdxgk_session.c */
HANDLE dxgk_make_handle(enum handle_kind kind,
			const struct _DXGK_LINUX_SESSION *s, uint32_t id);
void dxgk_session_put(struct _DXGK_LINUX_SESSION *s);
NTSTATUS dxgk_current_session(struct _DXGK_LINUX_SESSION **out);
uint32_t dxgk_handle_id(HANDLE h, enum handle_kind kind,
			struct _DXGK_LINUX_SESSION **out);
uint32_t dxgk_handle_id_in(HANDLE h, enum handle_kind kind,
			   const struct _DXGK_LINUX_SESSION *s);
NTSTATUS dxgk_put_status(struct _DXGK_LINUX_SESSION *s, NTSTATUS status);
NTSTATUS dxgk_put_done(struct _DXGK_LINUX_SESSION *s, int err);
int dxgk_view_add(struct _DXGK_LINUX_SESSION *s, struct view *v,
		  void *address, size_t length);
size_t dxgk_view_remove(struct _DXGK_LINUX_SESSION *s, void *address);
struct adl_box *dxgk_adl_take_locked(const DXGK_ADL *adl,
				     struct _DXGK_LINUX_SESSION **out);

#pragma GCC visibility pop

#endif
