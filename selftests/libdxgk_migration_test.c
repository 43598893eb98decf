// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests of DxgkLinuxRunLiveMigration on the real module: Dxgkrnl's
 * live-migration loop played against toy drivers' own DxgkDdi* memory
 * basis DDIs, whose "hardware" is a bitmap fed by the harness's write
 * callback.  A correct driver converges and agrees with the module's
 * tracking page for page, and the copy equals the segment; one that drops
 * some writes is reported (missed pages, bytes that differ); one that
 * reports every page is reported as extra bits and does not converge.
 * Linked against libdxgk.a only.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "libdxgk.h"

/* The toy driver: one adapter, one basis at a time. */
enum toy_bug { TOY_CORRECT, TOY_DROPS_WRITES, TOY_REPORTS_ALL };

struct toy_basis {
	UINT64 range_count;
	DXGK_MEMORYRANGE *ranges;
	UINT64 pages;
	BOOLEAN tracking;
	UCHAR *bits;		/* the dirty-tracking hardware's bitmap */
};

struct toy_adapter {
	enum toy_bug bug;
	UINT page_size;
	struct toy_basis *basis;
	UINT64 writes_seen, writes_dropped;
};

/* The driver's DDIs, as a Windows driver would write them. */
static HANDLE DxgkDdiCreateMemoryBasis(HANDLE hAdapter,
				       const DXGKARG_CREATEMEMORYBASIS *pArgs)
{
	struct toy_adapter *a = hAdapter;
	struct toy_basis *b;
	UINT64 i, bytes = 0;

	if (a->basis || !pArgs->RangeCount)
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->ranges = calloc(pArgs->RangeCount, sizeof(*b->ranges));
	if (!b->ranges) {
		free(b);
		return NULL;
	}
	b->range_count = pArgs->RangeCount;
	for (i = 0; i < pArgs->RangeCount; i++) {
		b->ranges[i] = pArgs->Ranges[i];
		bytes += pArgs->Ranges[i].SizeInBytes;
	}
	b->pages = bytes / a->page_size;
	b->bits = calloc(1, (b->pages + 7) / 8);
	if (!b->bits) {
		free(b->ranges);
		free(b);
		return NULL;
	}
	a->basis = b;
	return b;
}

static NTSTATUS DxgkDdiDestroyMemoryBasis(HANDLE hAdapter,
					  HANDLE hMemoryBasis)
{
	struct toy_adapter *a = hAdapter;
	struct toy_basis *b = hMemoryBasis;

	if (!b || b != a->basis)
		return STATUS_INVALID_HANDLE;
	a->basis = NULL;
	free(b->bits);
	free(b->ranges);
	free(b);
	return STATUS_SUCCESS;
}

static NTSTATUS DxgkDdiStartDirtyTracking(HANDLE hAdapter,
					  HANDLE hMemoryBasis)
{
	struct toy_adapter *a = hAdapter;
	struct toy_basis *b = hMemoryBasis;

	if (!b || b != a->basis)
		return STATUS_INVALID_HANDLE;
	b->tracking = 1;
	memset(b->bits, 0, (b->pages + 7) / 8);
	return STATUS_SUCCESS;
}

static NTSTATUS DxgkDdiStopDirtyTracking(HANDLE hAdapter, HANDLE hMemoryBasis)
{
	struct toy_adapter *a = hAdapter;
	struct toy_basis *b = hMemoryBasis;

	if (!b || b != a->basis)
		return STATUS_INVALID_HANDLE;
	b->tracking = 0;
	return STATUS_SUCCESS;
}

static NTSTATUS DxgkDdiQueryDirtyBitData(HANDLE hAdapter,
					 DXGKARG_QUERYDIRTYBITDATA *pArgs)
{
	struct toy_adapter *a = hAdapter;
	struct toy_basis *b = pArgs->MemoryBasis;
	SIZE_T size;

	if (!b || b != a->basis)
		return STATUS_INVALID_HANDLE;
	if (!b->tracking || pArgs->SubrangeSize)
		return STATUS_INVALID_PARAMETER;
	size = (b->pages + 7) / 8;
	if (pArgs->BufferSize < size)
		return STATUS_BUFFER_TOO_SMALL;
	if (a->bug == TOY_REPORTS_ALL)
		memset(b->bits, 0xff, size);
	memcpy(pArgs->Buffer, b->bits, size);
	if (pArgs->Flags & DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA)
		memset(b->bits, 0, size);
	return STATUS_SUCCESS;
}

/*
 * The hardware: a write of the segment sets the bit of every tracking
 * page of the basis it touches.  The broken one loses the writes to every
 * fourth page of the basis (index % 4 == 1).
 */
static void toy_notify_write(PVOID Context, UINT SegmentId,
			     UINT64 SegmentOffset, SIZE_T Size)
{
	struct toy_adapter *a = Context;
	struct toy_basis *b = a->basis;
	UINT64 i, first = 0, start, end, off;

	a->writes_seen++;
	if (!b || !b->tracking || !Size)
		return;
	for (i = 0; i < b->range_count; i++) {
		start = b->ranges[i].SegmentOffset;
		end = start + b->ranges[i].SizeInBytes;
		for (off = SegmentOffset / a->page_size * a->page_size;
		     off < SegmentOffset + Size; off += a->page_size) {
			UINT64 page;

			if (off < start || off >= end)
				continue;
			page = first + (off - start) / a->page_size;
			if (a->bug == TOY_DROPS_WRITES && page % 4 == 1) {
				a->writes_dropped++;
				continue;
			}
			b->bits[page / 8] |= 1 << (page % 8);
		}
		first += b->ranges[i].SizeInBytes / a->page_size;
	}
}

static const DXGK_LINUX_MEMORY_BASIS_DDIS toy_ddis = {
	.DxgkDdiCreateMemoryBasis = DxgkDdiCreateMemoryBasis,
	.DxgkDdiDestroyMemoryBasis = DxgkDdiDestroyMemoryBasis,
	.DxgkDdiStartDirtyTracking = DxgkDdiStartDirtyTracking,
	.DxgkDdiStopDirtyTracking = DxgkDdiStopDirtyTracking,
	.DxgkDdiQueryDirtyBitData = DxgkDdiQueryDirtyBitData,
};

#define RANGE_PAGES	16

FIXTURE(migration) {
	DXGK_LINUX_ADAPTER_INFO info;
	struct {
		DXGKARG_CREATEMEMORYBASIS b;
		DXGK_MEMORYRANGE more[1];
	} two;
	struct toy_adapter toy;
	DXGK_LINUX_MIGRATION params;
	DXGK_LINUX_MIGRATION_RESULT result;
};

/*
 * Two ranges of the virtual adapter's segment, apart: pages 0-15 of its
 * upper half and pages 32-47.  The workload writes 64 times in the first
 * pass, half as often each pass after, and 8 times before the blackout.
 */
FIXTURE_SETUP(migration)
{
	HANDLE hAdapter;
	UINT64 page, base;

	ASSERT_EQ(STATUS_SUCCESS,
		  DxgkLinuxOpenAdapter(NULL, DXGK_LINUX_ADAPTER_VIRTUAL,
				       &hAdapter));
	ASSERT_EQ(STATUS_SUCCESS,
		  DxgkLinuxQueryAdapterInfo(hAdapter, &self->info));
	page = self->info.SegmentCaps.PageSize;
	base = self->info.SegmentSize / 2 / page * page;
	if (base + 3 * RANGE_PAGES * page > self->info.SegmentSize)
		SKIP(return, "segment of %llu bytes too small",
		     (unsigned long long)self->info.SegmentSize);
	memset(&self->two, 0, sizeof(self->two));
	self->two.b.SegmentId = 1;
	self->two.b.RangeCount = 2;
	self->two.b.Ranges[0].SegmentOffset = base;
	self->two.b.Ranges[0].SizeInBytes = RANGE_PAGES * page;
	self->two.more[0].SegmentOffset = base + 2 * RANGE_PAGES * page;
	self->two.more[0].SizeInBytes = RANGE_PAGES * page;
	memset(&self->toy, 0, sizeof(self->toy));
	self->toy.page_size = (UINT)page;
	memset(&self->params, 0, sizeof(self->params));
	self->params.AdapterName = self->info.Name;
	self->params.pBasis = &self->two.b;
	self->params.SegmentCaps.PageSize = (UINT)page;
	self->params.pfnNotifyWrite = toy_notify_write;
	self->params.Context = &self->toy;
	self->params.FirstPassWrites = 64;
	self->params.BlackoutWrites = 8;
	self->params.MaxPasses = 12;
	self->params.Seed = 20261129;
}

FIXTURE_TEARDOWN(migration)
{
}

static void show(struct __test_metadata *_metadata,
		 const DXGK_LINUX_MIGRATION_RESULT *r, NTSTATUS status)
{
	UINT i;

	TH_LOG("%s: %u pass(es)%s, %llu write(s), blackout %llu page(s), missed %llu, extra %llu, %llu byte(s) differ",
	       DxgkLinuxNtStatusName(status) ?: "?", r->Passes,
	       r->Converged ? " converged" : "", (unsigned long long)r->Writes,
	       (unsigned long long)r->BlackoutPagesCopied,
	       (unsigned long long)r->MissedPages,
	       (unsigned long long)r->ExtraPages,
	       (unsigned long long)r->MismatchedBytes);
	for (i = 0; i < r->Passes && i < DXGK_LINUX_MIGRATION_MAX_PASSES; i++)
		TH_LOG("pass %u: %llu page(s) copied", i,
		       (unsigned long long)r->PagesCopied[i]);
}

/* A driver that reports every write: converges, agrees, copies exactly. */
TEST_F(migration, correct_driver_converges_and_matches)
{
	DXGK_LINUX_MIGRATION_RESULT *r = &self->result;
	NTSTATUS status;

	self->toy.bug = TOY_CORRECT;
	status = DxgkLinuxRunLiveMigration(&toy_ddis, &self->toy,
					   &self->params, r);
	show(_metadata, r, status);
	EXPECT_EQ(STATUS_SUCCESS, status);
	EXPECT_TRUE(r->Converged);
	EXPECT_LE(2, r->Passes);
	EXPECT_LT(0, r->PagesCopied[0]);
	EXPECT_EQ(0, r->PagesCopied[r->Passes - 1]);
	EXPECT_EQ(0, r->MissedPages);
	EXPECT_EQ(0, r->ExtraPages);
	EXPECT_EQ(0, r->MismatchedBytes);
	EXPECT_LT(0, r->BlackoutPagesCopied);
	/* 64 + 32 + ... + 1, then the blackout's 8, each told once */
	EXPECT_EQ(127 + 8, r->Writes);
	EXPECT_EQ(r->Writes, self->toy.writes_seen);
	/* the driver's basis was destroyed */
	EXPECT_EQ(NULL, self->toy.basis);
}

/* Loses the writes to a quarter of the pages: caught both ways. */
TEST_F(migration, broken_driver_reported)
{
	DXGK_LINUX_MIGRATION_RESULT *r = &self->result;
	NTSTATUS status;

	self->toy.bug = TOY_DROPS_WRITES;
	status = DxgkLinuxRunLiveMigration(&toy_ddis, &self->toy,
					   &self->params, r);
	show(_metadata, r, status);
	EXPECT_EQ(STATUS_UNSUCCESSFUL, status);
	EXPECT_LT(0, self->toy.writes_dropped);
	EXPECT_LT(0, r->MissedPages);
	EXPECT_LT(0, r->MismatchedBytes);
	EXPECT_EQ(0, r->ExtraPages);
	EXPECT_EQ(NULL, self->toy.basis);
}

/* Reports every page every time: extra bits, never converges, copy right. */
TEST_F(migration, extra_bits_reported)
{
	DXGK_LINUX_MIGRATION_RESULT *r = &self->result;
	NTSTATUS status;

	self->toy.bug = TOY_REPORTS_ALL;
	status = DxgkLinuxRunLiveMigration(&toy_ddis, &self->toy,
					   &self->params, r);
	show(_metadata, r, status);
	EXPECT_EQ(STATUS_SUCCESS, status);
	EXPECT_FALSE(r->Converged);
	EXPECT_EQ(self->params.MaxPasses, r->Passes);
	EXPECT_EQ(2 * RANGE_PAGES, r->PagesCopied[r->Passes - 1]);
	EXPECT_LT(0, r->ExtraPages);
	EXPECT_EQ(0, r->MissedPages);
	EXPECT_EQ(0, r->MismatchedBytes);
}

/* What the harness refuses before it calls the driver. */
TEST_F(migration, bad_parameters)
{
	DXGK_LINUX_MEMORY_BASIS_DDIS ddis = toy_ddis;
	DXGK_LINUX_MIGRATION_RESULT *r = &self->result;

	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  DxgkLinuxRunLiveMigration(NULL, &self->toy, &self->params,
					    r));
	ddis.DxgkDdiQueryDirtyBitData = NULL;
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  DxgkLinuxRunLiveMigration(&ddis, &self->toy, &self->params,
					    r));
	self->params.MaxPasses = DXGK_LINUX_MIGRATION_MAX_PASSES + 1;
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  DxgkLinuxRunLiveMigration(&toy_ddis, &self->toy,
					    &self->params, r));
	self->params.MaxPasses = 4;
	self->params.SegmentCaps.PageSize *= 2;
	EXPECT_EQ(STATUS_NOT_SUPPORTED,
		  DxgkLinuxRunLiveMigration(&toy_ddis, &self->toy,
					    &self->params, r));
	self->params.SegmentCaps.PageSize = 0;
	self->two.b.Ranges[0].SegmentOffset = self->info.SegmentSize;
	EXPECT_EQ(STATUS_INVALID_ADDRESS,
		  DxgkLinuxRunLiveMigration(&toy_ddis, &self->toy,
					    &self->params, r));
	EXPECT_EQ(0, self->toy.writes_seen);
	EXPECT_EQ(NULL, self->toy.basis);
}

TEST_HARNESS_MAIN
