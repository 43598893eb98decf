// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk: memory bases and the dirty-bit tracking DDIs on them.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libdxgk_internal.h"

/* The kernel's DXGPMO_BASIS_MAX_RANGES: more is E2BIG, so not allocated. */
#define MAX_BASIS_RANGES	4096

/*
 * The basis's session, which must also be the adapter's (one reference),
 * and the adapter the basis was made on: a DDI of one adapter never acts
 * on another adapter's basis.
 */
static uint32_t basis_of(HANDLE adapter, HANDLE basis,
			 struct _DXGK_LINUX_SESSION **s,
			 const struct basis_rec **rec)
{
	uint32_t id = dxgk_handle_id(basis, KIND_BASIS, s);
	uint32_t adapter_id;
	struct basis_rec *b;
	int same;

	if (!id)
		return 0;
	adapter_id = dxgk_handle_id_in(adapter, KIND_ADAPTER, *s);
	pthread_mutex_lock(&dxgk_sessions_lock);
	for (b = (*s)->bases; b && b->basis_id != id; b = b->next)
		;
	same = adapter_id && b && b->adapter_id == adapter_id;
	pthread_mutex_unlock(&dxgk_sessions_lock);
	if (!same) {
		dxgk_session_put(*s);
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

	pthread_mutex_lock(&dxgk_sessions_lock);
	for (pp = &s->bases; (b = *pp); pp = &b->next) {
		if (b == rec) {
			*pp = b->next;
			free(b);
			break;
		}
	}
	pthread_mutex_unlock(&dxgk_sessions_lock);
}

HANDLE DxgkLinuxCreateMemoryBasis(HANDLE hAdapter,
				  const DXGKARG_CREATEMEMORYBASIS *args)
{
	struct dxgpmo_create_memory_basis c = { .size = sizeof(c) };
	struct dxgpmo_memory_range *r;
	struct _DXGK_LINUX_SESSION *s;
	struct basis_rec *b;
	HANDLE h;
	UINT64 i;
	int err;

	c.adapter_id = dxgk_handle_id(hAdapter, KIND_ADAPTER, &s);
	if (!c.adapter_id) {
		dxgk_done(STATUS_INVALID_HANDLE);
		return NULL;
	}
	if (!args || !args->RangeCount) {
		dxgk_put_status(s, STATUS_INVALID_PARAMETER);
		return NULL;
	}
	/* What the kernel would refuse is not allocated first. */
	if (args->RangeCount > MAX_BASIS_RANGES) {
		dxgk_put_status(s, STATUS_INVALID_BUFFER_SIZE);
		return NULL;
	}
	/* Windows' range layout is dxgpmo's, but not by contract. */
	r = calloc(args->RangeCount, sizeof(*r));
	b = malloc(sizeof(*b));
	if (!r || !b) {
		free(r);
		free(b);
		dxgk_put_status(s, STATUS_NO_MEMORY);
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
		pthread_mutex_lock(&dxgk_sessions_lock);
		/* Closed meanwhile: the kernel destroyed it with the file. */
		if (s->dead) {
			free(b);
			err = ENOENT;
		} else {
			b->next = s->bases;
			s->bases = b;
		}
		pthread_mutex_unlock(&dxgk_sessions_lock);
	} else {
		free(b);
	}
	/* Made before the reference goes: s may be freed right after. */
	h = err ? NULL : dxgk_make_handle(KIND_BASIS, s, c.basis_id);
	dxgk_put_done(s, err);
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
		return dxgk_done(STATUS_INVALID_HANDLE);
	err = xioctl(s->fd, request, &u);
	if (!err && request == DXGPMO_IOC_DESTROY_MEMORY_BASIS)
		basis_forget(s, rec);
	return dxgk_put_done(s, err);
}

NTSTATUS DxgkLinuxDestroyMemoryBasis(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return basis_call(hAdapter, hMemoryBasis,
			  DXGPMO_IOC_DESTROY_MEMORY_BASIS,
			  sizeof(struct dxgpmo_destroy_memory_basis));
}

NTSTATUS DxgkLinuxStartDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return basis_call(hAdapter, hMemoryBasis,
			  DXGPMO_IOC_START_DIRTY_TRACKING,
			  sizeof(struct dxgpmo_dirty_tracking));
}

NTSTATUS DxgkLinuxStopDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	return basis_call(hAdapter, hMemoryBasis,
			  DXGPMO_IOC_STOP_DIRTY_TRACKING,
			  sizeof(struct dxgpmo_dirty_tracking));
}

NTSTATUS DxgkLinuxQueryDirtyBitData(HANDLE hAdapter,
				    DXGKARG_QUERYDIRTYBITDATA *args)
{
	struct dxgpmo_query_dirty_bits q = { .size = sizeof(q) };
	struct _DXGK_LINUX_SESSION *s;

	if (!args)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	q.basis_id = basis_of(hAdapter, args->MemoryBasis, &s, NULL);
	if (!q.basis_id)
		return dxgk_done(STATUS_INVALID_HANDLE);
	if (args->Flags & ~(UINT)DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA)
		return dxgk_put_status(s, STATUS_INVALID_PARAMETER);
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
	return dxgk_put_done(s, xioctl(s->fd, DXGPMO_IOC_QUERY_DIRTY_BITS, &q));
}
