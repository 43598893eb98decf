// SPDX-License-Identifier: GPL-2.0
/*
 * libdxgk: Dxgkrnl's live-migration loop, played against a driver's own
 * memory-basis DDIs, with the module's tracking of the same writes as the
 * reference (DxgkLinuxRunLiveMigration in libdxgk.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "libdxgk_internal.h"

#define DEFAULT_PASSES	16
#define MAX_WRITE	256

/* The migration's state: the segment, the two bases, the copy. */
struct migration {
	const DXGK_LINUX_MEMORY_BASIS_DDIS *ddis;
	const DXGK_LINUX_MIGRATION *p;
	DXGK_LINUX_MIGRATION_RESULT *r;
	HANDLE driver_adapter, driver_basis;
	HANDLE adapter, basis;
	volatile UCHAR *segment;
	SIZE_T segment_size;
	SIZE_T page_size;
	UINT64 pages;		/* tracking pages of the basis, all ranges */
	SIZE_T bits_size;
	UCHAR *driver_bits, *module_bits;
	UCHAR *image;		/* the destination: the ranges, concatenated */
	uint64_t rng;
};

static uint64_t next_random(struct migration *m)
{
	/* xorshift64: the same workload for the same seed, any libc */
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng;
}

/* The segment offset of byte i of the basis (the ranges, concatenated). */
static UINT64 basis_to_segment(const struct migration *m, UINT64 i)
{
	const DXGKARG_CREATEMEMORYBASIS *b = m->p->pBasis;
	UINT64 k;

	for (k = 0; k < b->RangeCount; k++) {
		if (i < b->Ranges[k].SizeInBytes)
			return b->Ranges[k].SegmentOffset + i;
		i -= b->Ranges[k].SizeInBytes;
	}
	return 0;
}

/*
 * The running VM: n writes by the CPU, each inside one tracking page at
 * a random offset of the basis, each told to the driver's hardware.  Each
 * byte written differs from the one it replaces and from the last copy's,
 * whatever an earlier run (of the same seed) left in the segment: a page
 * written and not copied since always differs in the blackout's compare.
 */
static void workload(struct migration *m, UINT n)
{
	UINT64 page, offset, seg;
	SIZE_T size, max, i;
	UCHAR value, v;

	while (n--) {
		page = next_random(m) % m->pages;
		offset = next_random(m) % m->page_size;
		max = m->page_size - offset;
		size = 1 + next_random(m) % (max < MAX_WRITE ? max : MAX_WRITE);
		value = (UCHAR)next_random(m);
		seg = basis_to_segment(m, page * m->page_size + offset);
		for (i = 0; i < size; i++) {
			v = (UCHAR)(value + i);
			while (v == m->segment[seg + i] ||
			       v == m->image[page * m->page_size + offset + i])
				v++;
			m->segment[seg + i] = v;
		}
		m->p->pfnNotifyWrite(m->p->Context, m->p->pBasis->SegmentId,
				     seg, size);
		m->r->Writes++;
	}
}

static int test_bit(const UCHAR *bits, UINT64 i)
{
	return bits[i / 8] >> (i % 8) & 1;
}

/* Dxgkrnl's transfer: the tracking pages bits names, into the image. */
static UINT64 copy_pages(struct migration *m, const UCHAR *bits)
{
	UINT64 i, seg, n = 0;
	SIZE_T b;

	for (i = 0; i < m->pages; i++) {
		if (bits && !test_bit(bits, i))
			continue;
		seg = basis_to_segment(m, i * m->page_size);
		for (b = 0; b < m->page_size; b++)
			m->image[i * m->page_size + b] = m->segment[seg + b];
		n++;
	}
	return n;
}

/*
 * Both bitplanes, cleared as they are read: the driver's through its DDI,
 * the module's through the library's call; then what differs, counted.
 */
static NTSTATUS query_both(struct migration *m)
{
	DXGKARG_QUERYDIRTYBITDATA q;
	NTSTATUS status;
	UINT64 i;
	int d, k;

	memset(&q, 0, sizeof(q));
	q.BufferSize = m->bits_size;
	q.Flags = DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA;
	q.MemoryBasis = m->driver_basis;
	q.Buffer = m->driver_bits;
	memset(m->driver_bits, 0, m->bits_size);
	status = m->ddis->DxgkDdiQueryDirtyBitData(m->driver_adapter, &q);
	if (!NT_SUCCESS(status))
		return status;
	q.MemoryBasis = m->basis;
	q.Buffer = m->module_bits;
	memset(m->module_bits, 0, m->bits_size);
	status = DxgkLinuxQueryDirtyBitData(m->adapter, &q);
	if (!NT_SUCCESS(status))
		return status;
	for (i = 0; i < m->pages; i++) {
		d = test_bit(m->driver_bits, i);
		k = test_bit(m->module_bits, i);
		m->r->MissedPages += k && !d;
		m->r->ExtraPages += d && !k;
	}
	return STATUS_SUCCESS;
}

static int any_bit(const struct migration *m, const UCHAR *bits)
{
	UINT64 i;

	for (i = 0; i < m->pages; i++)
		if (test_bit(bits, i))
			return 1;
	return 0;
}

/* The loop itself, once both bases are tracking. */
static NTSTATUS migrate(struct migration *m)
{
	UINT passes = m->p->MaxPasses ? m->p->MaxPasses : DEFAULT_PASSES;
	UINT writes = m->p->FirstPassWrites;
	NTSTATUS status;
	UINT64 i, seg;
	SIZE_T b;

	copy_pages(m, NULL);
	while (m->r->Passes < passes) {
		workload(m, writes);
		writes /= 2;
		status = query_both(m);
		if (!NT_SUCCESS(status))
			return status;
		m->r->PagesCopied[m->r->Passes++] =
			copy_pages(m, m->driver_bits);
		if (!any_bit(m, m->driver_bits)) {
			m->r->Converged = 1;
			break;
		}
	}
	/* Blackout: the VM's last writes, then it is paused. */
	workload(m, m->p->BlackoutWrites);
	status = query_both(m);
	if (!NT_SUCCESS(status))
		return status;
	m->r->BlackoutPagesCopied = copy_pages(m, m->driver_bits);
	for (i = 0; i < m->pages; i++) {
		seg = basis_to_segment(m, i * m->page_size);
		for (b = 0; b < m->page_size; b++)
			m->r->MismatchedBytes +=
				m->image[i * m->page_size + b] !=
				m->segment[seg + b];
	}
	return m->r->MissedPages || m->r->MismatchedBytes ?
		STATUS_UNSUCCESSFUL : STATUS_SUCCESS;
}

/* The parameters, against the segment the adapter has. */
static NTSTATUS check_params(struct migration *m,
			     const DXGK_LINUX_ADAPTER_INFO *info)
{
	const DXGKARG_CREATEMEMORYBASIS *b = m->p->pBasis;
	UINT64 k, bytes = 0;

	if (m->p->SegmentCaps.PageSize &&
	    m->p->SegmentCaps.PageSize != info->SegmentCaps.PageSize)
		return STATUS_NOT_SUPPORTED;
	m->page_size = info->SegmentCaps.PageSize;
	if (!m->page_size || !b->RangeCount)
		return STATUS_INVALID_PARAMETER;
	for (k = 0; k < b->RangeCount; k++) {
		if (!b->Ranges[k].SizeInBytes ||
		    b->Ranges[k].SegmentOffset % m->page_size ||
		    b->Ranges[k].SizeInBytes % m->page_size)
			return STATUS_INVALID_PARAMETER;
		if (b->Ranges[k].SegmentOffset > m->segment_size ||
		    b->Ranges[k].SizeInBytes >
		    m->segment_size - b->Ranges[k].SegmentOffset)
			return STATUS_INVALID_ADDRESS;
		bytes += b->Ranges[k].SizeInBytes;
	}
	m->pages = bytes / m->page_size;
	m->bits_size = (m->pages + 7) / 8;
	return STATUS_SUCCESS;
}

/* Both bases made, started, migrated, stopped and destroyed. */
static NTSTATUS with_bases(struct migration *m)
{
	NTSTATUS status, s;

	m->driver_basis = m->ddis->DxgkDdiCreateMemoryBasis(m->driver_adapter,
							    m->p->pBasis);
	/* Windows gives the DDI no status to return. */
	if (!m->driver_basis)
		return STATUS_INVALID_HANDLE;
	m->basis = DxgkLinuxCreateMemoryBasis(m->adapter, m->p->pBasis);
	if (!m->basis) {
		status = DxgkLinuxGetLastStatus();
		goto destroy_driver;
	}
	status = m->ddis->DxgkDdiStartDirtyTracking(m->driver_adapter,
						    m->driver_basis);
	if (!NT_SUCCESS(status))
		goto destroy;
	status = DxgkLinuxStartDirtyTracking(m->adapter, m->basis);
	if (!NT_SUCCESS(status))
		goto stop_driver;
	status = migrate(m);
	s = DxgkLinuxStopDirtyTracking(m->adapter, m->basis);
	if (NT_SUCCESS(status))
		status = s;
stop_driver:
	s = m->ddis->DxgkDdiStopDirtyTracking(m->driver_adapter,
					      m->driver_basis);
	if (NT_SUCCESS(status))
		status = s;
destroy:
	s = DxgkLinuxDestroyMemoryBasis(m->adapter, m->basis);
	if (NT_SUCCESS(status))
		status = s;
destroy_driver:
	s = m->ddis->DxgkDdiDestroyMemoryBasis(m->driver_adapter,
					       m->driver_basis);
	if (NT_SUCCESS(status))
		status = s;
	return status;
}

NTSTATUS DxgkLinuxRunLiveMigration(const DXGK_LINUX_MEMORY_BASIS_DDIS *pDdis,
				   HANDLE hDriverAdapter,
				   const DXGK_LINUX_MIGRATION *pParams,
				   DXGK_LINUX_MIGRATION_RESULT *pResult)
{
	struct migration m = { .ddis = pDdis, .p = pParams, .r = pResult };
	DXGK_LINUX_ADAPTER_INFO info;
	NTSTATUS status;
	PVOID segment;

	if (!pDdis || !pParams || !pResult || !pParams->pBasis ||
	    !pParams->pfnNotifyWrite || !pDdis->DxgkDdiCreateMemoryBasis ||
	    !pDdis->DxgkDdiDestroyMemoryBasis ||
	    !pDdis->DxgkDdiStartDirtyTracking ||
	    !pDdis->DxgkDdiStopDirtyTracking ||
	    !pDdis->DxgkDdiQueryDirtyBitData ||
	    pParams->MaxPasses > DXGK_LINUX_MIGRATION_MAX_PASSES)
		return dxgk_done(STATUS_INVALID_PARAMETER);
	memset(pResult, 0, sizeof(*pResult));
	m.driver_adapter = hDriverAdapter;
	m.rng = pParams->Seed ? pParams->Seed : 0x9e3779b97f4a7c15ULL;
	status = DxgkLinuxOpenAdapter(pParams->AdapterName,
				      pParams->AdapterName ? 0 :
				      DXGK_LINUX_ADAPTER_VIRTUAL, &m.adapter);
	if (NT_SUCCESS(status))
		status = DxgkLinuxQueryAdapterInfo(m.adapter, &info);
	if (NT_SUCCESS(status))
		status = DxgkLinuxMapSegment(m.adapter,
					     pParams->pBasis->SegmentId,
					     &segment, &m.segment_size);
	if (!NT_SUCCESS(status))
		return dxgk_done(status);
	m.segment = segment;
	status = check_params(&m, &info);
	if (NT_SUCCESS(status)) {
		m.driver_bits = calloc(1, m.bits_size);
		m.module_bits = calloc(1, m.bits_size);
		m.image = malloc(m.pages * m.page_size);
		if (!m.driver_bits || !m.module_bits || !m.image)
			status = STATUS_NO_MEMORY;
	}
	if (NT_SUCCESS(status))
		status = with_bases(&m);
	free(m.driver_bits);
	free(m.module_bits);
	free(m.image);
	DxgkLinuxUnmapSegment(segment, m.segment_size);
	return dxgk_done(status);
}
