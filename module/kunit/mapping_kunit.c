// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: MAP's rounding (DxgkCbMapPhysicalMemory).  A view is whole pages,
 * from the page holding the offset asked for to the one holding the last
 * byte; the reply gives the view's length and the offset of the first byte
 * asked for inside it.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/mm.h>

#include "../mapping.h"
#include "kunit.h"

/* The largest object CREATE_PMO makes: its pages end at 2^64. */
#define LARGEST		(U64_MAX - PAGE_SIZE + 1)

static void dxgpmo_expect_view(struct kunit *test, u64 offset, u64 length,
			       u64 want_offset, u64 want_length)
{
	u64 view_offset = U64_MAX, view_length = U64_MAX;

	dxgpmo_map_view(offset, length, &view_offset, &view_length);
	KUNIT_EXPECT_EQ_MSG(test, view_offset, want_offset,
			    "offset %#llx length %#llx", offset, length);
	KUNIT_EXPECT_EQ_MSG(test, view_length, want_length,
			    "offset %#llx length %#llx", offset, length);
}

void dxgpmo_map_view_partial_test(struct kunit *test)
{
	const u64 ps = PAGE_SIZE;

	dxgpmo_expect_view(test, 0, 1, 0, ps);
	dxgpmo_expect_view(test, 0, ps - 1, 0, ps);
	dxgpmo_expect_view(test, ps - 1, 1, 0, ps);
	/* Two bytes on either side of a page boundary are two pages. */
	dxgpmo_expect_view(test, ps - 1, 2, 0, 2 * ps);
	dxgpmo_expect_view(test, ps + 5, 3 * ps, ps, 4 * ps);
	dxgpmo_expect_view(test, 3 * ps + 1, ps - 1, 3 * ps, ps);
}

void dxgpmo_map_view_whole_pages_test(struct kunit *test)
{
	const u64 ps = PAGE_SIZE;

	dxgpmo_expect_view(test, 0, ps, 0, ps);
	dxgpmo_expect_view(test, ps, ps, ps, ps);
	dxgpmo_expect_view(test, 2 * ps, 5 * ps, 2 * ps, 5 * ps);
	/* One byte more is one page more. */
	dxgpmo_expect_view(test, 2 * ps, 5 * ps + 1, 2 * ps, 6 * ps);
}

/* The largest object's last bytes: rounding up reaches 2^64 - PAGE_SIZE. */
void dxgpmo_map_view_top_test(struct kunit *test)
{
	const u64 ps = PAGE_SIZE;

	dxgpmo_expect_view(test, 0, LARGEST, 0, LARGEST);
	dxgpmo_expect_view(test, LARGEST - 1, 1, LARGEST - ps, ps);
	dxgpmo_expect_view(test, LARGEST - ps - 1, 2, LARGEST - 2 * ps,
			   2 * ps);
	dxgpmo_expect_view(test, 1, LARGEST - 1, 0, LARGEST);
}

/*
 * Whatever is asked for inside an object, the view covers it, starts on
 * a page within one page of it, and ends within one page past it.
 */
void dxgpmo_map_view_covers_test(struct kunit *test)
{
	static const u64 offsets[] = { 0, 1, PAGE_SIZE - 1, PAGE_SIZE,
				       PAGE_SIZE + 1, 63 * PAGE_SIZE + 17 };
	static const u64 lengths[] = { 1, 2, PAGE_SIZE - 1, PAGE_SIZE,
				       PAGE_SIZE + 1, 2 * PAGE_SIZE - 1,
				       1ULL << 32 };
	u64 view_offset, view_length;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(offsets); i++) {
		for (j = 0; j < ARRAY_SIZE(lengths); j++) {
			u64 offset = offsets[i], length = lengths[j];

			dxgpmo_map_view(offset, length, &view_offset,
					&view_length);
			KUNIT_EXPECT_TRUE(test,
					  PAGE_ALIGNED(view_offset) &&
					  PAGE_ALIGNED(view_length));
			KUNIT_EXPECT_LE(test, view_offset, offset);
			KUNIT_EXPECT_LT(test, offset - view_offset,
					(u64)PAGE_SIZE);
			KUNIT_EXPECT_GE(test, view_offset + view_length,
					offset + length);
			KUNIT_EXPECT_LT(test,
					view_offset + view_length -
					(offset + length), (u64)PAGE_SIZE);
		}
	}
}
