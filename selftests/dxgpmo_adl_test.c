// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for ADLs and the adapters' DMA engines: logical page lists on
 * every adapter, address windows proven on the physically addressed
 * (virtual) adapter, data moved by the edu engines through the IOMMU,
 * separate IOMMU domains and revoked mappings proven by behaviour, the
 * ADAPTER_DMA access rules and the ADL-leak rule in its warn mode.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "dxgpmo_test.h"

#define BELOW_4G ((1ULL << 32) - 1)

static int is_iommu(const struct dxgpmo_adapter_info *a)
{
	return !!(a->caps & DXGPMO_ADAPTER_CAP_IOMMU);
}

/* Create a PMO, open it on the adapter; returns the AMO through *amo. */
static int pmo_on(int fd, uint32_t type, uint64_t length, uint32_t adapter,
		  uint32_t *pmo, uint32_t *amo)
{
	struct dxgpmo_create_pmo c = {
		.type = type,
		.length = length,
		.adapter_id = adapter,
		.high_address = BELOW_4G,
	};
	int ret = dxgpmo_create_pmo(fd, &c);

	*pmo = c.pmo_id;
	*amo = c.amo_id;
	return ret;
}

static int adl_make(int fd, uint32_t amo, uint64_t offset, uint64_t length,
		    uint32_t flags, uint64_t *pages,
		    struct dxgpmo_allocate_adl *out)
{
	*out = (struct dxgpmo_allocate_adl){
		.flags = flags,
		.amo_id = amo,
		.offset = offset,
		.length = length,
		.pages = (uintptr_t)pages,
		.pages_capacity = pages ? length / PAGE : 0,
	};
	return dxgpmo_allocate_adl(fd, out);
}

static uint64_t *pages_alloc(uint64_t length)
{
	return calloc(length / PAGE, sizeof(uint64_t));
}

FIXTURE_DXGPMO(adl, 0)

FIXTURE_DXGPMO(adl_sizes, 0)

FIXTURE_VARIANT(adl_sizes) {
	uint64_t length;
};

FIXTURE_VARIANT_ADD(adl_sizes, one_page) { .length = PAGE };
FIXTURE_VARIANT_ADD(adl_sizes, three_pages) { .length = 3 * PAGE };
FIXTURE_VARIANT_ADD(adl_sizes, seventeen_pages) { .length = 17 * PAGE };
FIXTURE_VARIANT_ADD(adl_sizes, one_mib_plus_page) {
	.length = (1 << 20) + PAGE
};

FIXTURE_VARIANT_ADD(adl_sizes, two_mib_plus_page) {
	.length = (2 << 20) + PAGE
};

FIXTURE_VARIANT_ADD(adl_sizes, four_mib) { .length = 4 << 20 };
FIXTURE_VARIANT_ADD(adl_sizes, sixty_four_mib) { .length = 64 << 20 };

/*
 * Whole-object ADLs of an MDL object on every adapter: exact page count, one
 * IOVA run behind an IOMMU, and on the physically addressed adapter every
 * page inside the object's address window.
 */
TEST_F(adl_sizes, mdl_every_adapter)
{
	uint64_t n = variant->length / PAGE;
	uint64_t *pages = pages_alloc(variant->length);
	unsigned int i;
	uint64_t j;

	ASSERT_NE(NULL, pages);
	for (i = 0; i < self->ad.nr; i++) {
		const struct dxgpmo_adapter_info *ad = &self->ad.all[i];
		struct dxgpmo_allocate_adl adl;
		struct dxgpmo_stats st;
		uint32_t pmo, amo;

		ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL,
				    variant->length, ad->adapter_id, &pmo,
				    &amo));
		memset(pages, 0xff, n * sizeof(*pages));
		ASSERT_EQ(0, adl_make(self->fd, amo, 0, variant->length,
				      DXGPMO_ADL_PREFER_CONTIGUOUS, pages,
				      &adl));
		EXPECT_NE(0, adl.adl_id);
		EXPECT_EQ(n, adl.page_count);
		EXPECT_EQ(pages_are_one_run(pages, n),
			  !!(adl.adl_flags & DXGPMO_ADL_CONTIGUOUS));
		if (adl.adl_flags & DXGPMO_ADL_CONTIGUOUS)
			EXPECT_EQ(pages[0], adl.base_page);
		for (j = 0; j < n; j++) {
			/* Every logical address is one the device can emit. */
			ASSERT_GE(ad->dma_mask >> 12, pages[j]);
			if (!is_iommu(ad))
				ASSERT_GE(BELOW_4G >> 12, pages[j]);
		}
		if (is_iommu(ad))
			EXPECT_TRUE(adl.adl_flags & DXGPMO_ADL_CONTIGUOUS);
		ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
		EXPECT_EQ(1, st.file.adls);
		EXPECT_EQ(n, st.file.dma_mapped_pages);
		EXPECT_EQ(n, st.global.dma_mapped_pages);

		ASSERT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
		EXPECT_EQ(-ENOENT, dxgpmo_free_adl(self->fd, adl.adl_id));
		ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
		EXPECT_EQ(0, st.file.adls);
		EXPECT_EQ(0, st.file.dma_mapped_pages);
		ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
	}
	free(pages);
}

/*
 * CONTIGUOUS objects inside [1 MiB, 4 GiB) not crossing the smallest
 * power-of-two boundary that can hold them: REQUIRE_CONTIGUOUS works on
 * every adapter and the physical run (virtual adapter) obeys the window and
 * the boundary.
 */
TEST_F(adl_sizes, contiguous_every_adapter)
{
	uint64_t n = variant->length / PAGE, boundary = 64 << 10;
	uint64_t *pages;
	unsigned int i;

	if (variant->length > (4 << 20))
		SKIP(return, "CONTIGUOUS objects are limited to 4 MiB");
	pages = pages_alloc(variant->length);
	ASSERT_NE(NULL, pages);
	while (boundary < variant->length)
		boundary <<= 1;
	for (i = 0; i < self->ad.nr; i++) {
		const struct dxgpmo_adapter_info *ad = &self->ad.all[i];
		struct dxgpmo_create_pmo c = {
			.type = DXGPMO_PMO_TYPE_CONTIGUOUS,
			.length = variant->length,
			.adapter_id = ad->adapter_id,
			.low_address = 1 << 20,
			.high_address = BELOW_4G,
			.boundary = boundary,
		};
		struct dxgpmo_allocate_adl adl;
		uint64_t first, last;

		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
		ASSERT_EQ(0, adl_make(self->fd, c.amo_id, 0, variant->length,
				      DXGPMO_ADL_REQUIRE_CONTIGUOUS, pages,
				      &adl));
		EXPECT_EQ(n, adl.page_count);
		EXPECT_EQ(DXGPMO_ADL_CONTIGUOUS, adl.adl_flags);
		EXPECT_EQ(pages[0], adl.base_page);
		EXPECT_TRUE(pages_are_one_run(pages, n));
		if (!is_iommu(ad)) {
			first = adl.base_page * PAGE;
			last = (adl.base_page + n) * PAGE - 1;
			EXPECT_LE(1ULL << 20, first);
			EXPECT_GE(BELOW_4G, last);
			EXPECT_EQ(first / boundary, last / boundary);
		}
		ASSERT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
		ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
	}
	free(pages);
}

/*
 * Sub-ranges at odd page offsets, overlapping ADLs alive together.  On the
 * physically addressed adapter a sub-range's pages are exactly the matching
 * slice of the whole-object ADL (logical == physical).
 */
TEST_F(adl_sizes, subranges_overlap)
{
	uint64_t n = variant->length / PAGE;
	uint64_t *whole, *part;
	unsigned int i;

	if (n < 3)
		SKIP(return, "needs at least three pages");
	whole = pages_alloc(variant->length);
	part = pages_alloc(variant->length);
	ASSERT_NE(NULL, whole);
	ASSERT_NE(NULL, part);
	for (i = 0; i < self->ad.nr; i++) {
		const struct dxgpmo_adapter_info *ad = &self->ad.all[i];
		uint64_t off = (n / 3) | 1, len = n - off - 1;
		struct dxgpmo_allocate_adl all, sub, sub2, last;
		struct dxgpmo_stats st;
		uint32_t pmo, amo;

		ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL,
				    variant->length, ad->adapter_id, &pmo,
				    &amo));
		ASSERT_EQ(0, adl_make(self->fd, amo, 0, n * PAGE, 0, whole,
				      &all));
		ASSERT_EQ(0, adl_make(self->fd, amo, off * PAGE, len * PAGE, 0,
				      part, &sub));
		EXPECT_EQ(len, sub.page_count);
		if (!is_iommu(ad)) {
			EXPECT_EQ(0, memcmp(part, whole + off,
					    len * sizeof(*part)));
		} else {
			EXPECT_TRUE(sub.adl_flags & DXGPMO_ADL_CONTIGUOUS);
		}
		/* The same range twice: both exist at once. */
		ASSERT_EQ(0, adl_make(self->fd, amo, off * PAGE, len * PAGE, 0,
				      NULL, &sub2));
		EXPECT_EQ(len, sub2.page_count);
		EXPECT_NE(sub.adl_id, sub2.adl_id);
		ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
		EXPECT_EQ(3, st.file.adls);
		EXPECT_EQ(n + 2 * len, st.file.dma_mapped_pages);
		/* The last page alone. */
		ASSERT_EQ(0, adl_make(self->fd, amo, (n - 1) * PAGE, PAGE, 0,
				      part, &last));
		EXPECT_EQ(1, last.page_count);
		EXPECT_EQ(DXGPMO_ADL_CONTIGUOUS, last.adl_flags);
		if (!is_iommu(ad))
			EXPECT_EQ(whole[n - 1], last.base_page);
		ASSERT_EQ(0, dxgpmo_free_adl(self->fd, last.adl_id));
		EXPECT_EQ(0, dxgpmo_free_adl(self->fd, sub2.adl_id));
		EXPECT_EQ(0, dxgpmo_free_adl(self->fd, all.adl_id));
		EXPECT_EQ(0, dxgpmo_free_adl(self->fd, sub.adl_id));
		ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
	}
	free(whole);
	free(part);
}

/*
 * On the physically addressed adapter, ADLs of one and two pages at every
 * page of the object (past 1024 pages: at every physical discontinuity of
 * the whole-object list, where one chunk of the object ends and the next
 * begins) name exactly the slice of the whole-object ADL: a range inside a
 * chunk, one ending at its last page, one starting at its first, and one
 * across two chunks.
 */
TEST_F(adl_sizes, short_ranges_match_whole)
{
	uint64_t n = variant->length / PAGE, j, len;
	struct dxgpmo_allocate_adl all, part;
	unsigned int checked = 0;
	uint64_t pages[2], *whole;
	uint32_t pmo, amo;

	if (!self->ad.virt)
		SKIP(return, "no physically addressed adapter");
	whole = pages_alloc(variant->length);
	ASSERT_NE(NULL, whole);
	ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, variant->length,
			    self->ad.virt->adapter_id, &pmo, &amo));
	ASSERT_EQ(0, adl_make(self->fd, amo, 0, n * PAGE, 0, whole, &all));
	for (j = 0; j < n; j++) {
		if (n > 1024 && j && j + 1 < n && whole[j + 1] == whole[j] + 1 &&
		    whole[j] == whole[j - 1] + 1)
			continue;
		for (len = 1; len <= 2 && j + len <= n; len++) {
			ASSERT_EQ(0, adl_make(self->fd, amo, j * PAGE,
					      len * PAGE, 0, pages, &part));
			EXPECT_EQ(len, part.page_count);
			EXPECT_EQ(0, memcmp(pages, whole + j,
					    len * sizeof(*pages))) {
				TH_LOG("pages %llu..%llu of %llu",
				       (unsigned long long)j,
				       (unsigned long long)(j + len - 1),
				       (unsigned long long)n);
			}
			EXPECT_EQ(pages_are_one_run(pages, len),
				  !!(part.adl_flags & DXGPMO_ADL_CONTIGUOUS));
			ASSERT_EQ(0, dxgpmo_free_adl(self->fd, part.adl_id));
			checked++;
		}
	}
	EXPECT_LE(n < 1024 ? 2 * n - 1 : 2, checked);
	ASSERT_EQ(0, dxgpmo_free_adl(self->fd, all.adl_id));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
	free(whole);
}

TEST_F(adl, bad_args)
{
	uint64_t pages[8];
	struct dxgpmo_allocate_adl adl;
	struct dxgpmo_stats st;
	uint32_t pmo, amo;

	ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, 4 * PAGE,
			    self->ad.all[0].adapter_id, &pmo, &amo));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 1, PAGE, 0, NULL, &adl));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 0, PAGE + 1, 0, NULL, &adl));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 0, 0, 0, NULL, &adl));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 0, 5 * PAGE, 0, NULL, &adl));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 4 * PAGE, PAGE, 0, NULL,
				    &adl));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, UINT64_MAX & ~4095ULL,
				    2 * PAGE, 0, NULL, &adl));
	/*
	 * Found by the fuzzer: a huge length must be refused as outside the
	 * object, not by allocating a page list for it first (which WARNed
	 * in kvmalloc).
	 */
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 0, 1ULL << 62, 0, NULL,
				    &adl));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 0, UINT64_MAX & ~4095ULL,
				    0, NULL, &adl));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 0, PAGE, 1U << 2, NULL,
				    &adl));
	EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 0, PAGE, 1U << 31, NULL,
				    &adl));
	EXPECT_EQ(-ENOENT, adl_make(self->fd, pmo, 0, PAGE, 0, NULL, &adl));
	EXPECT_EQ(-ENOENT, adl_make(self->fd, 0, 0, PAGE, 0, NULL, &adl));

	/* Non-zero reserved or output fields on input. */
	adl = (struct dxgpmo_allocate_adl){ .amo_id = amo, .length = PAGE,
					    .__reserved = 1 };
	EXPECT_EQ(-EINVAL, dxgpmo_allocate_adl(self->fd, &adl));
	adl = (struct dxgpmo_allocate_adl){ .amo_id = amo, .length = PAGE,
					    .base_page = 1 };
	EXPECT_EQ(-EINVAL, dxgpmo_allocate_adl(self->fd, &adl));
	/* A pages pointer without capacity, and capacity without pointer. */
	adl = (struct dxgpmo_allocate_adl){ .amo_id = amo, .length = PAGE,
					    .pages = (uintptr_t)pages };
	EXPECT_EQ(-EINVAL, dxgpmo_allocate_adl(self->fd, &adl));
	adl = (struct dxgpmo_allocate_adl){ .amo_id = amo, .length = PAGE,
					    .pages_capacity = 8 };
	EXPECT_EQ(-EINVAL, dxgpmo_allocate_adl(self->fd, &adl));

	/* Too little room: page_count says how much, nothing is made. */
	adl = (struct dxgpmo_allocate_adl){
		.amo_id = amo, .length = 4 * PAGE,
		.pages = (uintptr_t)pages, .pages_capacity = 3,
	};
	EXPECT_EQ(-ENOSPC, dxgpmo_allocate_adl(self->fd, &adl));
	EXPECT_EQ(4, adl.page_count);
	EXPECT_EQ(0, adl.adl_id);
	ASSERT_EQ(0, dxgpmo_get_stats(self->fd, &st));
	EXPECT_EQ(0, st.file.adls);
	EXPECT_EQ(0, st.file.dma_mapped_pages);

	/* FREE_ADL of ids that are not ADLs. */
	EXPECT_EQ(-ENOENT, dxgpmo_free_adl(self->fd, 0));
	EXPECT_EQ(-ENOENT, dxgpmo_free_adl(self->fd, amo));
	EXPECT_EQ(-ENOENT, dxgpmo_free_adl(self->fd, pmo));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
}

/* REQUIRE_CONTIGUOUS is for CONTIGUOUS and IO_SPACE objects only. */
/*
 * An adapter that sees physical addresses reaches only what its DMA mask
 * covers, and an ADL cannot bounce: memory created for it comes from
 * inside the mask (as a driver's HighAddress would ask), so its ADLs work
 * wherever free memory is.  Each type that allocates pages, 64 MiB of MDL
 * pages spread over the zones.
 */
TEST_F(adl, created_for_adapter_within_its_reach)
{
	static const struct {
		uint32_t type;
		uint64_t length;
	} t[] = {
		{ DXGPMO_PMO_TYPE_MDL, 64ULL << 20 },
		{ DXGPMO_PMO_TYPE_CONTIGUOUS, 1ULL << 20 },
	};
	const struct dxgpmo_adapter_info *a = NULL;
	struct dxgpmo_allocate_adl adl;
	struct dxgpmo_create_pmo c;
	uint64_t *pages, j, n;
	uint32_t i, pmo, amo;

	for (i = 0; i < self->ad.nr && !a; i++)
		if (!(self->ad.all[i].caps & DXGPMO_ADAPTER_CAP_IOMMU) &&
		    self->ad.all[i].dma_mask < 0xffffffffULL)
			a = &self->ad.all[i];
	if (!a)
		SKIP(return, "no adapter without IOMMU translation whose DMA mask is under 4 GiB (edu's 28-bit one is, with iommu=pt)");
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		n = t[i].length / PAGE;
		pages = calloc(n, sizeof(*pages));
		ASSERT_NE(NULL, pages);
		/* No allocation window: the whole of memory, as asked. */
		c = (struct dxgpmo_create_pmo){
			.type = t[i].type, .length = t[i].length,
			.adapter_id = a->adapter_id,
		};
		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
		pmo = c.pmo_id;
		amo = c.amo_id;
		ASSERT_EQ(0, adl_make(self->fd, amo, 0, t[i].length, 0, pages,
				      &adl)) {
			TH_LOG("%s: type %u", a->name, t[i].type);
		}
		for (j = 0; j < n; j++)
			if ((pages[j] + 1) * PAGE - 1 > a->dma_mask)
				break;
		EXPECT_EQ(n, j) {
			TH_LOG("%s: page %llu at 0x%llx, beyond mask 0x%llx",
			       a->name, (unsigned long long)j,
			       (unsigned long long)pages[j] * PAGE,
			       (unsigned long long)a->dma_mask);
		}
		EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
		free(pages);
	}
}

TEST_F(adl, require_contiguous_mdl_refused)
{
	unsigned int i;

	for (i = 0; i < self->ad.nr; i++) {
		struct dxgpmo_allocate_adl adl;
		uint32_t pmo, amo;

		/* One page is trivially contiguous, and still refused. */
		ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, PAGE,
				    self->ad.all[i].adapter_id, &pmo, &amo));
		EXPECT_EQ(-EINVAL, adl_make(self->fd, amo, 0, PAGE,
					    DXGPMO_ADL_REQUIRE_CONTIGUOUS,
					    NULL, &adl));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
	}
}

TEST_F(adl, close_amo_with_adl_busy)
{
	struct dxgpmo_allocate_adl adl;
	uint32_t pmo, amo;

	ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, PAGE,
			    self->ad.all[0].adapter_id, &pmo, &amo));
	ASSERT_EQ(0, adl_make(self->fd, amo, 0, PAGE, 0, NULL, &adl));
	EXPECT_EQ(-EBUSY, dxgpmo_close_pmo(self->fd, amo));
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	EXPECT_EQ(0, dxgpmo_close_pmo(self->fd, amo));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, 0));
}

/*
 * adl_leak=warn: DESTROY with a live ADL is -EBUSY, says which object, and
 * changes nothing.
 */
TEST_F(adl, adl_leak_warn)
{
	struct dxgpmo_allocate_adl adl, adl2;
	uint32_t pmo, amo;
	int kmsg, logged, i;
	char bad[256];

	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "warn"));
	ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, 2 * PAGE,
			    self->ad.all[0].adapter_id, &pmo, &amo));
	ASSERT_EQ(0, adl_make(self->fd, amo, 0, PAGE, 0, NULL, &adl));

	kmsg = kmsg_open_new();
	ASSERT_LE(0, kmsg);
	/* The message is rate-limited (5 s): another test may have used it up. */
	for (i = 0, logged = 0; i < 7 && !logged; i++) {
		EXPECT_EQ(-EBUSY, dxgpmo_destroy_pmo(self->fd, pmo, amo));
		logged = kmsg_wait_for(kmsg, 1000, "live ADL", "DESTROY_PMO");
	}
	EXPECT_EQ(1, logged);
	EXPECT_EQ(0, kmsg_find_bad(kmsg, bad, sizeof(bad))) {
		TH_LOG("kernel log: %s", bad);
	}
	close(kmsg);

	/* The object still works. */
	ASSERT_EQ(0, adl_make(self->fd, amo, PAGE, PAGE, 0, NULL, &adl2));
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl2.adl_id));
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
}

/* Closing the file with live ADLs unmaps them quietly and counts them. */
TEST_F(adl, close_file_frees_adls)
{
	struct dxgpmo_stats before, after;
	int fd2 = open_second_file(_metadata, self->fd, &before);
	unsigned int i;

	for (i = 0; i < self->ad.nr; i++) {
		struct dxgpmo_allocate_adl adl;
		uint32_t pmo, amo;

		ASSERT_EQ(0, pmo_on(fd2, DXGPMO_PMO_TYPE_MDL, 64 << 10,
				    self->ad.all[i].adapter_id, &pmo, &amo));
		ASSERT_EQ(0, adl_make(fd2, amo, 0, 64 << 10, 0, NULL, &adl));
		ASSERT_EQ(0, adl_make(fd2, amo, 0, PAGE, 0, NULL, &adl));
	}
	ASSERT_EQ(0, dxgpmo_get_stats(fd2, &after));
	EXPECT_EQ(2 * self->ad.nr, after.file.adls);
	close_second_file(_metadata, self->fd, fd2, &after);
	EXPECT_EQ(before.global.leaked_adls + 2 * self->ad.nr,
		  after.global.leaked_adls);
}

/* ---- the edu engines ---------------------------------------------------- */

static void pattern(uint8_t *buf, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed + i * 7 + (i >> 8));
}

#define DMA_LEN 256

#define NEED_TWO_EDU()                                                     \
	do {                                                               \
		if (self->ad.nr_iommu_edu < 2)                                    \
			SKIP(return, "needs two edu adapters behind an IOMMU"); \
	} while (0)

/*
 * Bytes written into a PMO by edu #1 through its ADL are read back by edu #2
 * through its own ADL after the PMO moved from one adapter to the other.
 */
TEST_F_TIMEOUT(adl, dma_roundtrip_two_adapters, 60)
{
	const struct dxgpmo_adapter_info *e1, *e2;
	uint8_t out[DMA_LEN], in[DMA_LEN];
	struct dxgpmo_allocate_adl adl;
	uint32_t pmo, amo;

	NEED_TWO_EDU();
	e1 = self->ad.iommu_edu[0];
	e2 = self->ad.iommu_edu[1];
	ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, 4 * PAGE,
			    e1->adapter_id, &pmo, &amo));
	ASSERT_EQ(0, adl_make(self->fd, amo, 0, 4 * PAGE, 0, NULL, &adl));
	ASSERT_EQ(DXGPMO_ADL_CONTIGUOUS, adl.adl_flags);

	/* Fresh memory is zero, as the device sees it. */
	memset(in, 0xee, sizeof(in));
	ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					(adl.base_page + 2) * PAGE + 100, in,
					DMA_LEN));
	for (unsigned int i = 0; i < DMA_LEN; i++)
		ASSERT_EQ(0, in[i]);

	pattern(out, sizeof(out), 0x31);
	ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, e1->adapter_id,
					DXGPMO_DMA_TO_MEMORY,
					(adl.base_page + 2) * PAGE + 100, out,
					DMA_LEN));
	ASSERT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	ASSERT_EQ(0, dxgpmo_close_pmo(self->fd, amo));

	ASSERT_EQ(0, dxgpmo_open_pmo(self->fd, pmo, e2->adapter_id, &amo));
	ASSERT_EQ(0, adl_make(self->fd, amo, 2 * PAGE, PAGE, 0, NULL, &adl));
	memset(in, 0, sizeof(in));
	ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, e2->adapter_id, 0,
					adl.base_page * PAGE + 100, in,
					DMA_LEN));
	EXPECT_EQ(0, memcmp(out, in, DMA_LEN));
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
}

/*
 * A read-only section is mapped for the device to read only: the adapter
 * may read it through an ADL, never write it (-EACCES), and its bytes stay.
 */
static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A child process that reads len bytes at addr into buf through the
 * adapter's engine, and exits with the call's errno: its pid, or -1.
 */
static pid_t dma_read_child(int fd, uint32_t adapter, uint64_t addr,
			    uint8_t *buf, uint64_t len)
{
	pid_t pid = fork();

	if (!pid)
		_exit(-dxgpmo_adapter_dma(fd, adapter, 0, addr, buf, len));
	return pid;
}

/*
 * A caller waiting for the engine while another's long transfer runs
 * (64 KiB: 32 chunks of two engine runs, seconds) can still be killed:
 * the wait is killable, and the process goes at once, not when the other
 * transfer is over.
 */
TEST_F_TIMEOUT(adl, engine_wait_is_killable, 90)
{
	const uint64_t len = 64 << 10;
	struct dxgpmo_allocate_adl adl;
	double killed, gone, started;
	uint8_t *buf = calloc(1, len);
	uint32_t pmo, amo, adapter;
	pid_t busy, waiter;
	int status;

	if (!self->ad.nr_iommu_edu) {
		free(buf);
		SKIP(return, "needs an edu adapter behind an IOMMU");
	}
	ASSERT_NE(NULL, buf);
	adapter = self->ad.iommu_edu[0]->adapter_id;
	ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, len, adapter, &pmo,
			    &amo));
	ASSERT_EQ(0, adl_make(self->fd, amo, 0, len, 0, NULL, &adl));
	busy = dma_read_child(self->fd, adapter, adl.base_page * PAGE, buf,
			      len);
	ASSERT_LE(0, busy);
	/* The long transfer has the engine; the next caller waits for it. */
	usleep(300000);
	started = mono_s();
	waiter = dma_read_child(self->fd, adapter, adl.base_page * PAGE, buf,
				PAGE);
	ASSERT_LE(0, waiter);
	usleep(300000);
	/* Still waiting for the engine, not done before the long one. */
	EXPECT_EQ(0, waitpid(waiter, &status, WNOHANG));
	killed = mono_s();
	kill(waiter, SIGKILL);
	ASSERT_EQ(waiter, waitpid(waiter, &status, 0));
	gone = mono_s();
	ASSERT_EQ(busy, waitpid(busy, &status, 0));
	TH_LOG("the waiter went %.2f s after SIGKILL; the long transfer took %.2f s more",
	       gone - killed, mono_s() - started);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	/* It must not wait for the rest of the long transfer (seconds). */
	EXPECT_GT(1.0, gone - killed);
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
	free(buf);
}

struct dma_loop {
	int fd;
	uint32_t adapter;
	uint64_t address;
	volatile int stop;
	unsigned int calls;
};

static void *dma_loop(void *arg)
{
	struct dma_loop *l = arg;
	uint8_t buf[64];

	while (!l->stop &&
	       !dxgpmo_adapter_dma(l->fd, l->adapter, 0, l->address, buf,
				   sizeof(buf)))
		l->calls++;
	return NULL;
}

/*
 * FREE_ADL waits for the calls using the ADL (up to 30 s), however many
 * come one after the other: a call that looks the ADL up just after one
 * ended is waited for too, not a reason for an early -EBUSY.
 */
TEST_F_TIMEOUT(adl, free_waits_through_back_to_back_calls, 90)
{
	struct dma_loop l = { .fd = self->fd };
	struct dxgpmo_allocate_adl adl;
	uint32_t pmo, amo;
	double started, took;
	pthread_t t;
	int ret;

	if (!self->ad.nr_iommu_edu)
		SKIP(return, "needs an edu adapter behind an IOMMU");
	l.adapter = self->ad.iommu_edu[0]->adapter_id;
	ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, PAGE, l.adapter,
			    &pmo, &amo));
	ASSERT_EQ(0, adl_make(self->fd, amo, 0, PAGE, 0, NULL, &adl));
	l.address = adl.base_page * PAGE;
	ASSERT_EQ(0, pthread_create(&t, NULL, dma_loop, &l));
	usleep(300000);
	started = mono_s();
	ret = dxgpmo_free_adl(self->fd, adl.adl_id);
	took = mono_s() - started;
	l.stop = 1;
	pthread_join(t, NULL);
	TH_LOG("FREE_ADL: %s after %.2f s, %u transfers meanwhile",
	       strerror(-ret), took, l.calls);
	/* Done, or refused only once the whole wait was used up. */
	if (ret) {
		EXPECT_EQ(-EBUSY, ret);
		EXPECT_LT(29.0, took);
		EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	}
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
}

TEST_F_TIMEOUT(adl, read_only_section_device_cannot_write, 60)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_SECTION, .length = PAGE,
		.cache_type = DXGPMO_CACHE_CACHED,
		.page_protection = DXGPMO_PAGE_READONLY,
	};
	uint8_t out[DMA_LEN], in[DMA_LEN];
	struct dxgpmo_allocate_adl adl;
	struct dxgpmo_map m = { .access_mode = DXGPMO_ACCESS_KERNEL,
				.length = DMA_LEN };

	if (!self->ad.nr_iommu_edu)
		SKIP(return, "needs an edu adapter");
	c.adapter_id = self->ad.iommu_edu[0]->adapter_id;
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, adl_make(self->fd, c.amo_id, 0, PAGE, 0, NULL, &adl));
	memset(in, 0xee, sizeof(in));
	EXPECT_EQ(0, dxgpmo_adapter_dma(self->fd, c.adapter_id, 0,
					adl.base_page * PAGE, in, DMA_LEN));
	pattern(out, sizeof(out), 0x5c);
	EXPECT_EQ(-EACCES, dxgpmo_adapter_dma(self->fd, c.adapter_id,
					      DXGPMO_DMA_TO_MEMORY,
					      adl.base_page * PAGE, out,
					      DMA_LEN));
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	m.pmo_id = c.pmo_id;
	ASSERT_EQ(0, dxgpmo_map(self->fd, &m));
	ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, m.map_id, 0, 0, in, DMA_LEN));
	memset(out, 0, sizeof(out));
	EXPECT_EQ(0, memcmp(in, out, DMA_LEN)) {
		TH_LOG("the device wrote into a read-only section");
	}
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, m.address, m.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

/* Read DMA_LEN bytes of page 0 of the PMO through a fresh ADL on adapter. */
static int read_back(int fd, uint32_t amo, uint32_t adapter, uint8_t *in)
{
	struct dxgpmo_allocate_adl adl;
	int ret = adl_make(fd, amo, 0, PAGE, 0, NULL, &adl);

	if (ret)
		return ret;
	ret = dxgpmo_adapter_dma(fd, adapter, 0, adl.base_page * PAGE, in,
				 DMA_LEN);
	dxgpmo_free_adl(fd, adl.adl_id);
	return ret;
}

#ifdef __aarch64__
/*
 * The SMMUv3 driver prints at most 10 events per 5 s (the default
 * ratelimit), and one raw write of DMA_LEN bytes faults once per word: a
 * second faulting write within 5 s of the first goes unreported.  The
 * tests run in processes of their own, so each waits the whole interval.
 */
static void smmu_ratelimit_wait(void)
{
	usleep(5500 * 1000);
}
#endif

/*
 * A raw device write of junk at addr through adapter a that the IOMMU must
 * refuse: the call succeeds (the engine does not know), and the fault for
 * that device and address shows up in the kernel log, as the IOMMU's
 * driver words it (iommu_fault_needles(); on arm64 the SMMUv3's event,
 * whose stream id is the requester id).  0 when it did, -1 when not;
 * the caller proves by the bytes that nothing landed.
 *
 * Two IOMMUs of the test VM differ.  virtio-iommu logs each refused 4-byte
 * access on its own line, at most 10 lines in 5 s (dev_err_ratelimited):
 * 256 bytes would use up the burst and hide the next test's fault, so its
 * junk is one access.  QEMU 7.2's AMD-Vi (amd-iommu) logs no event the
 * guest's driver reports, for any refused access: there, in the test VM
 * only, no line is 1, and the bytes alone prove the device cut off.
 */
static int raw_write_faults(struct __test_metadata *_metadata, int fd,
			    const struct dxgpmo_adapter_info *a, uint64_t addr,
			    uint8_t *junk)
{
	enum iommu_kind kind = pci_iommu_kind(a->pci_domain, a->pci_bus,
					      a->pci_devfn);
	size_t len = kind == IOMMU_VIRTIO ? 4 : DMA_LEN;
#ifndef __aarch64__
	char want1[96], want2[96];
#endif
	int kmsg, ret, seen;

#ifndef __aarch64__
	if (!iommu_fault_needles(kind, a->pci_bus, a->pci_devfn, addr, want1,
				 want2, sizeof(want1))) {
		TH_LOG("no known fault line for the IOMMU of %02x:%02x.%x",
		       a->pci_bus, a->pci_devfn >> 3, a->pci_devfn & 7);
		return -1;
	}
#endif
	kmsg = kmsg_open_new();
	if (kmsg < 0)
		return -1;
#ifdef __aarch64__
	smmu_ratelimit_wait();
#endif
	/* The marker must not itself match what we wait for. */
	kmsg_write("dxgpmo-expect: begin iommu-fault\n");
	ret = dxgpmo_adapter_dma(fd, a->adapter_id,
				 DXGPMO_DMA_TO_MEMORY | DXGPMO_DMA_RAW, addr,
				 junk, len);
#ifdef __aarch64__
	seen = !ret && kmsg_wait_smmu_fault(kmsg, 3000,
					    a->pci_bus << 8 | a->pci_devfn,
					    addr);
	/*
	 * Every refused access of the transfer is an event, printed by the
	 * SMMU's event thread after the first one was seen (7.x: two
	 * records each).
	 */
	if (seen)
		kmsg_wait_quiet(kmsg, "smmu", 500);
#else
	seen = !ret && kmsg_wait_for(kmsg, 3000, want1, want2);
#endif
	kmsg_write("dxgpmo-expect: end iommu-fault\n");
	close(kmsg);
	if (!ret && !seen && kind == IOMMU_AMD_VI && getenv("DXGPMO_TEST_VM")) {
		TH_LOG("AMD-Vi (QEMU's amd-iommu) logged no page fault event: the bytes prove the cut-off");
		return 1;
	}
	return seen ? 0 : -1;
}

/* A one-page object, its ADL, and what an engine wrote there. */
struct written_page {
	uint32_t pmo, amo;
	struct dxgpmo_allocate_adl adl;
	uint8_t out[DMA_LEN];
};

/*
 * A one-page MDL object on adapter e, with an ADL of it on e through which
 * e's engine has written the pattern of seed.
 */
static void write_one_page(struct __test_metadata *_metadata, int fd,
			   const struct dxgpmo_adapter_info *e, uint8_t seed,
			   struct written_page *w)
{
	ASSERT_EQ(0, pmo_on(fd, DXGPMO_PMO_TYPE_MDL, PAGE, e->adapter_id,
			    &w->pmo, &w->amo));
	ASSERT_EQ(0, adl_make(fd, w->amo, 0, PAGE, 0, NULL, &w->adl));
	pattern(w->out, DMA_LEN, seed);
	ASSERT_EQ(0, dxgpmo_adapter_dma(fd, e->adapter_id,
					DXGPMO_DMA_TO_MEMORY,
					w->adl.base_page * PAGE, w->out,
					DMA_LEN));
}

/*
 * Adapter a may not write the pattern of seed at addr: refused without RAW
 * (not an ADL of its own), and faulting in the IOMMU with it.
 */
static void expect_cut_off(struct __test_metadata *_metadata, int fd,
			   const struct dxgpmo_adapter_info *a, uint64_t addr,
			   uint8_t seed)
{
	uint8_t junk[DMA_LEN];

	pattern(junk, sizeof(junk), seed);
	EXPECT_EQ(-EACCES, dxgpmo_adapter_dma(fd, a->adapter_id,
					      DXGPMO_DMA_TO_MEMORY, addr, junk,
					      DMA_LEN));
	EXPECT_LE(0, raw_write_faults(_metadata, fd, a, addr, junk));
}

/*
 * Separate IOMMU domains, by behaviour: while the PMO is mapped for edu #1
 * only, a raw write by edu #2 at edu #1's logical address does not reach the
 * PMO, and the IOMMU reports a fault for edu #2 at that address.
 */
TEST_F_TIMEOUT(adl, dma_domains_separate, 60)
{
	const struct dxgpmo_adapter_info *e1, *e2;
	struct written_page w;
	uint8_t in[DMA_LEN];

	NEED_TWO_EDU();
	e1 = self->ad.iommu_edu[0];
	e2 = self->ad.iommu_edu[1];
	write_one_page(_metadata, self->fd, e1, 0x5a, &w);

	/* Without RAW, edu #2 may not touch another adapter's ADL. */
	expect_cut_off(_metadata, self->fd, e2, w.adl.base_page * PAGE, 0xa5);

	ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					w.adl.base_page * PAGE, in, DMA_LEN));
	EXPECT_EQ(0, memcmp(w.out, in, DMA_LEN));
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, w.adl.adl_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, w.pmo, w.amo));
}

/*
 * FREE_ADL revokes the device's access at once (iommu.strict=1): a raw
 * write at the freed logical address faults and leaves the PMO unchanged.
 * In a lazy domain (iommu.strict=0) this passes too, but only because
 * edu translates the address ~200 ms after the call, long after the flush
 * queue's flush; dma_in_flight_at_free tries the window itself.
 */
TEST_F_TIMEOUT(adl, dma_after_free_faults, 60)
{
	const struct dxgpmo_adapter_info *e1;
	struct written_page w;
	uint8_t in[DMA_LEN];

	if (self->ad.nr_iommu_edu < 1)
		SKIP(return, "needs an edu adapter behind an IOMMU");
	e1 = self->ad.iommu_edu[0];
	write_one_page(_metadata, self->fd, e1, 0x77, &w);
	ASSERT_EQ(0, dxgpmo_free_adl(self->fd, w.adl.adl_id));
	/* The freed address is no longer the caller's. */
	expect_cut_off(_metadata, self->fd, e1, w.adl.base_page * PAGE, 0x11);

	ASSERT_EQ(0, read_back(self->fd, w.amo, e1->adapter_id, in));
	EXPECT_EQ(0, memcmp(w.out, in, DMA_LEN));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, w.pmo, w.amo));
}

/* 1 when the adapter's IOMMU group defers IOTLB flushes (DMA-FQ, lazy). */
static int iommu_group_is_lazy(const struct dxgpmo_adapter_info *a)
{
	char path[96], type[32];

	snprintf(path, sizeof(path),
		 "/sys/bus/pci/devices/%04x:%02x:%02x.%x/iommu_group/type",
		 a->pci_domain, a->pci_bus, a->pci_devfn >> 3,
		 a->pci_devfn & 7);
	return !dxgpmo_read_line(path, type, sizeof(type)) &&
	       !strcmp(type, "DMA-FQ");
}

#define IN_FLIGHT_LEN 64
#define IN_FLIGHT_TRIES 12

struct in_flight {
	double end_ms;	/* when the raw write's call returned */
	int ret;
};

/*
 * A device write already on its way when FREE_ADL is called, in a lazy
 * (DMA-FQ) domain: the unmap clears the IOVA's page-table entry but leaves
 * the IOTLB's copy until the flush queue flushes it (10 ms later, more on
 * a busy guest), so a write the engine issues in between lands in the
 * object's pages although FREE_ADL has returned.  Those pages are the
 * caller's to free from then on: the device must be cut off before.
 *
 * An edu write is two runs of ~100 ms, the second (edu buffer to the
 * address) translated when it ends; a raw write (which holds no ADL, so
 * FREE_ADL does not wait for it) is started, then FREE_ADL called 0, 2, 4,
 * ... ms before that translation.  A write that lands although its call
 * returned more than 5 ms after FREE_ADL did (the engine is polled every
 * millisecond) went through the freed address.  Strict domains flush
 * before FREE_ADL returns (dma_after_free_faults); there is nothing to
 * sweep.  In the lazy one FREE_ADL flushes the IOTLB itself: no try may
 * land (before it did, 4 to 6 of 12 landed, up to 17.6 ms late).
 */
TEST_F_TIMEOUT(adl, dma_in_flight_at_free, 120)
{
	struct in_flight *w = mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint8_t a_bytes[IN_FLIGHT_LEN], b_bytes[IN_FLIGHT_LEN];
	uint8_t in[IN_FLIGHT_LEN];
	const struct dxgpmo_adapter_info *e;
	double took = 0, worst = 0;
	int try, landed = 0;

	ASSERT_NE(MAP_FAILED, w);
	if (!self->ad.nr_iommu_edu)
		SKIP(return, "needs an edu adapter behind an IOMMU");
	e = self->ad.iommu_edu[0];
	if (!iommu_group_is_lazy(e))
		SKIP(return, "strict IOMMU domain: FREE_ADL flushes the IOTLB before it returns (dma_after_free_faults)");
	pattern(a_bytes, sizeof(a_bytes), 0x3c);
	pattern(b_bytes, sizeof(b_bytes), 0xc3);
	kmsg_write("dxgpmo-expect: begin iommu-fault\n");
	/* Try -1 times a raw write on a live ADL: how long one takes. */
	for (try = -1; try < IN_FLIGHT_TRIES; try++) {
		struct dxgpmo_map m = { .access_mode = DXGPMO_ACCESS_KERNEL,
					.length = PAGE };
		struct dxgpmo_allocate_adl adl;
		double start, freed = 0;
		uint32_t pmo, amo;
		int status;
		pid_t pid;

		ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, PAGE,
				    e->adapter_id, &pmo, &amo));
		ASSERT_EQ(0, adl_make(self->fd, amo, 0, PAGE, 0, NULL, &adl));
		/* The device's IOTLB now holds the page's translation. */
		ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, e->adapter_id,
						DXGPMO_DMA_TO_MEMORY,
						adl.base_page * PAGE, a_bytes,
						sizeof(a_bytes)));
		start = mono_s() * 1000;
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			w->ret = dxgpmo_adapter_dma(self->fd, e->adapter_id,
						    DXGPMO_DMA_TO_MEMORY |
						    DXGPMO_DMA_RAW,
						    adl.base_page * PAGE,
						    b_bytes, sizeof(b_bytes));
			w->end_ms = mono_s() * 1000;
			_exit(0);
		}
		if (try >= 0) {
			double at = start + took - 2 * try;

			while (mono_s() * 1000 < at)
				usleep(200);
			ASSERT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
			freed = mono_s() * 1000;
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_EQ(0, w->ret);
		if (try < 0) {
			took = w->end_ms - start;
			ASSERT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
		}
		m.pmo_id = pmo;
		ASSERT_EQ(0, dxgpmo_map(self->fd, &m));
		ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, m.map_id, 0, 0, in,
					    sizeof(in)));
		EXPECT_EQ(0, dxgpmo_unmap(self->fd, pmo, m.address, m.length));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
		if (try < 0)
			continue;
		if (!memcmp(in, b_bytes, sizeof(in)) &&
		    w->end_ms - freed > 5) {
			landed++;
			if (w->end_ms - freed > worst)
				worst = w->end_ms - freed;
		}
	}
	/* Any fault line of the refused writes is in before the end. */
	usleep(300000);
	kmsg_write("dxgpmo-expect: end iommu-fault\n");
	TH_LOG("raw write %.0f ms; %d of %d writes landed after FREE_ADL returned (up to %.1f ms after)",
	       took, landed, IN_FLIGHT_TRIES, worst);
	munmap(w, sizeof(*w));
	EXPECT_EQ(0, landed) {
		TH_LOG("lazy IOMMU domain: device writes in flight landed up to %.1f ms after FREE_ADL returned (a stale IOTLB entry)",
		       worst);
	}
}

static int drop_cap_sys_rawio(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[CAP_TO_INDEX(CAP_SYS_RAWIO)].effective &=
		~CAP_TO_MASK(CAP_SYS_RAWIO);
	data[CAP_TO_INDEX(CAP_SYS_RAWIO)].permitted &=
		~CAP_TO_MASK(CAP_SYS_RAWIO);
	return syscall(SYS_capset, &hdr, data);
}

TEST_F_TIMEOUT(adl, dma_access_rules, 60)
{
	uint8_t buf[DMA_LEN];
	struct dxgpmo_allocate_adl adl;
	const struct dxgpmo_adapter_info *e1;
	uint32_t pmo, amo, other_adl;
	int other, status;
	pid_t pid;

	if (self->ad.nr_iommu_edu < 1)
		SKIP(return, "needs an edu adapter behind an IOMMU");
	e1 = self->ad.iommu_edu[0];
	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(0, pmo_on(self->fd, DXGPMO_PMO_TYPE_MDL, 2 * PAGE,
			    e1->adapter_id, &pmo, &amo));
	ASSERT_EQ(0, adl_make(self->fd, amo, 0, PAGE, 0, NULL, &adl));

	/* Inside the ADL works; crossing its end or outside it does not. */
	EXPECT_EQ(0, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					adl.base_page * PAGE + PAGE - 16, buf,
					16));
	EXPECT_EQ(-EACCES, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					      adl.base_page * PAGE + PAGE - 16,
					      buf, 32));
	EXPECT_EQ(-EACCES, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					      0x1000, buf, 16));
	/* Bad arguments. */
	EXPECT_EQ(-EINVAL, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					      adl.base_page * PAGE, buf, 0));
	EXPECT_EQ(-E2BIG, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					     adl.base_page * PAGE, buf,
					     1 << 20));
	EXPECT_EQ(-EINVAL, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 1U << 7,
					      adl.base_page * PAGE, buf, 16));
	EXPECT_EQ(-EINVAL, dxgpmo_adapter_dma(self->fd, e1->adapter_id,
					      DXGPMO_DMA_RAW,
					      e1->dma_mask + 1, buf, 16));
	EXPECT_EQ(-EINVAL, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					      UINT64_MAX - 8, buf, 16));
	EXPECT_EQ(-ENOENT, dxgpmo_adapter_dma(self->fd, 250, 0,
					      adl.base_page * PAGE, buf, 16));
	EXPECT_EQ(-EFAULT, dxgpmo_adapter_dma(self->fd, e1->adapter_id, 0,
					      adl.base_page * PAGE, NULL, 16));
	/* No engine on the virtual adapter, raw or not. */
	if (self->ad.virt) {
		EXPECT_EQ(-EOPNOTSUPP,
			  dxgpmo_adapter_dma(self->fd,
					     self->ad.virt->adapter_id,
					     DXGPMO_DMA_RAW, 0x100000, buf, 16));
		EXPECT_EQ(-EOPNOTSUPP,
			  dxgpmo_adapter_dma(self->fd,
					     self->ad.virt->adapter_id, 0,
					     0x100000, buf, 16));
	}

	/* Another file cannot use this file's ADL, neither id nor address. */
	other = dxgpmo_open();
	ASSERT_LE(0, other);
	EXPECT_EQ(-ENOENT, dxgpmo_free_adl(other, adl.adl_id));
	EXPECT_EQ(-EACCES, dxgpmo_adapter_dma(other, e1->adapter_id, 0,
					      adl.base_page * PAGE, buf, 16));
	other_adl = adl.adl_id;
	close(other);

	/* RAW without CAP_SYS_RAWIO is refused. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (drop_cap_sys_rawio())
			_exit(10);
		_exit(dxgpmo_adapter_dma(self->fd, e1->adapter_id,
					 DXGPMO_DMA_RAW, adl.base_page * PAGE,
					 buf, 16) == -EPERM ? 0 : 11);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, other_adl));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, pmo, amo));
}

static int bench_cmd(int fd, struct dxgpmo_test_cmd *t)
{
	t->size = sizeof(*t);
	return dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, t);
}

/* A timing command refuses 0 and 1001 loops; t is left at one loop. */
static void expect_loops_bounded(struct __test_metadata *_metadata, int fd,
				 struct dxgpmo_test_cmd *t)
{
	t->loops = 0;
	EXPECT_EQ(-EINVAL, bench_cmd(fd, t));
	t->loops = 1001;
	EXPECT_EQ(-EINVAL, bench_cmd(fd, t));
	t->loops = 1;
}

/*
 * The in-module timing commands of dxgpmo-bench: all their loops run and
 * leave no ADL behind, an ADL is one run of device addresses behind an
 * IOMMU, the chunk histogram accounts for every page, bad arguments are
 * refused.
 */
TEST_F(adl, timing_command)
{
	const uint64_t length = (2 << 20) + PAGE;
	struct dxgpmo_create_pmo c = {
		.length = length, .cache_type = DXGPMO_CACHE_CACHED,
	};
	struct dxgpmo_test_cmd t;
	uint64_t pages = 0, left;
	unsigned int i, o, nth;
	uint32_t amo;
	int ret;

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	memset(&t, 0, sizeof(t));
	t.op = DXGPMO_TEST_OP_CHUNKS;
	t.id = c.pmo_id;
	ASSERT_EQ(0, bench_cmd(self->fd, &t));
	for (o = 0; o < 16; o++)
		pages += (uint64_t)t.chunks_of_order[o] << o;
	EXPECT_EQ(length / PAGE, pages);
	t.id = 0xfffff;
	EXPECT_EQ(-ENOENT, bench_cmd(self->fd, &t));

	/* The zeroing floor of create: pages of the object's orders. */
	memset(&t, 0, sizeof(t));
	t.op = DXGPMO_TEST_OP_BENCH_ZERO;
	t.id = c.pmo_id;
	t.loops = 2;
	ASSERT_EQ(0, bench_cmd(self->fd, &t));
	EXPECT_LT(0, t.zero_ns);
	expect_loops_bounded(_metadata, self->fd, &t);
	t.id = 0xfffff;
	EXPECT_EQ(-ENOENT, bench_cmd(self->fd, &t));

	for (i = 0; i < self->ad.nr; i++) {
		const struct dxgpmo_adapter_info *a = &self->ad.all[i];

		ASSERT_EQ(0, dxgpmo_open_pmo(self->fd, c.pmo_id, a->adapter_id,
					     &amo));
		memset(&t, 0, sizeof(t));
		t.op = DXGPMO_TEST_OP_BENCH_ADL;
		t.id = amo;
		t.length = length;
		t.loops = 2;
		ret = bench_cmd(self->fd, &t);
		/*
		 * A physically addressed adapter with a narrow mask (edu
		 * under iommu=pt: 28 bits) cannot reach the object's pages:
		 * its ADLs are refused by design (adl.c), so is the timing.
		 */
		if (ret == -EOPNOTSUPP && !(a->caps & DXGPMO_ADAPTER_CAP_IOMMU) &&
		    a->dma_mask != UINT64_MAX) {
			TH_LOG("%s: no IOMMU, DMA mask %#llx: the object is out of its reach",
			       a->name, (unsigned long long)a->dma_mask);
			EXPECT_EQ(0, dxgpmo_close_pmo(self->fd, amo));
			continue;
		}
		ASSERT_EQ(0, ret);
		EXPECT_LT(0, t.adl_ns);
		EXPECT_LT(0, t.page_loop_ns);
		EXPECT_LE(1, t.adl_runs);
		EXPECT_LE(t.adl_runs, t.page_loop_runs);
		if (a->caps & DXGPMO_ADAPTER_CAP_IOMMU)
			EXPECT_EQ(1, t.adl_runs);
		/* The sg_table floor maps the same pages as the ADL. */
		EXPECT_LT(0, t.sgtable_ns);
		EXPECT_LE(1, t.sgtable_runs);
		EXPECT_LE(t.sgtable_runs, t.page_loop_runs);
		if (a->caps & DXGPMO_ADAPTER_CAP_IOMMU)
			EXPECT_EQ(1, t.sgtable_runs);
		/*
		 * Where the time goes, step by step: mapping and the
		 * published ADLs take time on every adapter (a step as
		 * short as a lazy flush's test may not tick the clock).
		 */
		t.op = DXGPMO_TEST_OP_BENCH_ADL_STEPS;
		ASSERT_EQ(0, bench_cmd(self->fd, &t));
		EXPECT_LT(0, t.adl_step_ns[DXGPMO_TEST_ADL_STEP_MAP]);
		EXPECT_LT(0, t.adl_step_ns[DXGPMO_TEST_ADL_STEP_SGT]);
		EXPECT_LT(0, t.adl_published_ns);
		/*
		 * Failing at each of its should-fail points in turn: it
		 * fails cleanly (the AMO still closes below, and the
		 * teardown finds no object, charge or mapping left).
		 */
		for (nth = 1; nth < 64; nth++) {
			ASSERT_EQ(0, module_fail_nth(self->fd, nth, NULL));
			ret = bench_cmd(self->fd, &t);
			ASSERT_EQ(0, module_fail_nth(self->fd, 0, &left));
			if (!left) {
				EXPECT_EQ(-ENOMEM, ret);
				continue;
			}
			EXPECT_EQ(0, ret);
			break;
		}
		EXPECT_LT(1, nth);
		EXPECT_GT(64, nth);
		expect_loops_bounded(_metadata, self->fd, &t);
		t.id = 0xfffff;
		EXPECT_EQ(-EINVAL, bench_cmd(self->fd, &t));
		t.id = amo;
		t.op = DXGPMO_TEST_OP_BENCH_ADL;
		/* Refused: each of these alone. */
		expect_loops_bounded(_metadata, self->fd, &t);
		t.length = length + PAGE;
		EXPECT_EQ(-EINVAL, bench_cmd(self->fd, &t));
		t.length = PAGE + 1;
		EXPECT_EQ(-EINVAL, bench_cmd(self->fd, &t));
		t.length = 0;
		EXPECT_EQ(-EINVAL, bench_cmd(self->fd, &t));
		t.length = PAGE;
		t.__reserved3 = 1;
		EXPECT_EQ(-EINVAL, bench_cmd(self->fd, &t));
		t.__reserved3 = 0;
		t.__reserved5 = 1;
		EXPECT_EQ(-EINVAL, bench_cmd(self->fd, &t));
		t.__reserved5 = 0;
		t.id = 0xfffff;
		EXPECT_EQ(-EINVAL, bench_cmd(self->fd, &t));
		/* No ADL was left behind: the AMO closes. */
		EXPECT_EQ(0, dxgpmo_close_pmo(self->fd, amo));
	}
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/* Free blocks of at least 2^order pages, from /proc/buddyinfo. */
static unsigned long free_blocks_from_order(unsigned int order)
{
	FILE *f = fopen("/proc/buddyinfo", "r");
	unsigned long total = 0, n;
	char line[512], *p;
	unsigned int o;
	int used;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "zone");
		used = -1;
		if (p)
			sscanf(p, "zone %*s%n", &used);
		if (used < 0)
			continue;
		p += used;
		for (o = 0; sscanf(p, "%lu%n", &n, &used) == 1; o++, p += used)
			if (o >= order)
				total += n;
	}
	fclose(f);
	return total;
}

/*
 * An MDL object of 1 MiB is one 1 MiB chunk, as the dma-buf system
 * heap's buffer is (its orders are 8, 4 and 0), not sixteen 64 KiB ones:
 * one allocation instead of sixteen, one scatterlist entry.  Cached
 * objects come from the page allocator, write-combined ones from the
 * pool where there is one: both keep the orders.
 */
TEST_F(adl, one_mib_object_is_one_chunk)
{
	static const uint32_t caches[] = {
		DXGPMO_CACHE_CACHED, DXGPMO_CACHE_WRITE_COMBINED,
	};
	struct dxgpmo_test_cmd t;
	unsigned int i, o;

	if (free_blocks_from_order(8) < 4)
		SKIP(return, "fewer than four free blocks of 1 MiB or more");
	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		struct dxgpmo_create_pmo c = {
			.length = 1 << 20, .cache_type = caches[i],
		};

		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
		memset(&t, 0, sizeof(t));
		t.op = DXGPMO_TEST_OP_CHUNKS;
		t.id = c.pmo_id;
		ASSERT_EQ(0, bench_cmd(self->fd, &t));
		for (o = 0; o < 16; o++) {
			EXPECT_EQ(o == 8, t.chunks_of_order[o])
				TH_LOG("cache type %u: %u chunks of order %u",
				       caches[i], t.chunks_of_order[o], o);
		}
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	}
}

TEST_HARNESS_MAIN
