// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the dirty bitmaps of memory bases (DxgkDdiCreateMemoryBasis,
 * DxgkDdiQueryDirtyBitData).  A basis's ranges get their bits in basis
 * order; a write marks the bits of the dirty pages it touches; a query
 * names bits, which are collected as segment bytes, copied out a byte at a
 * time, bit 0 first, and set again if the caller never saw them.  Bits
 * straddle the bitmap's 64-bit words on purpose.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/overflow.h>

#include "../basis.h"
#include "../dirty.h"
#include "../segment_basis.h"
#include "dxgpmo.h"
#include "kunit.h"

#define PS	((u64)PAGE_SIZE)

static struct dxgpmo_basis *dxgpmo_test_basis(struct kunit *test,
					      u32 nr_ranges)
{
	struct dxgpmo_basis *basis;

	basis = kunit_kzalloc(test, struct_size(basis, ranges, nr_ranges),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, basis);
	basis->nr_ranges = nr_ranges;
	return basis;
}

static int dxgpmo_test_check_ranges(struct dxgpmo_basis *basis, u64 size,
				    u64 ps)
{
	return dxgpmo_basis_check_ranges(basis->ranges, basis->nr_ranges, size,
					 ps, &basis->nr_bits);
}

static unsigned long *dxgpmo_test_bitmap(struct kunit *test,
					 unsigned long nbits)
{
	unsigned long *bitmap;

	bitmap = kunit_kcalloc(test, BITS_TO_LONGS(nbits), sizeof(long),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, bitmap);
	return bitmap;
}

/* Exactly the bits [from, to) of bitmap are set, of nbits. */
static void dxgpmo_expect_bits(struct kunit *test, const unsigned long *bitmap,
			       unsigned long nbits, unsigned long from,
			       unsigned long to)
{
	KUNIT_EXPECT_EQ(test, bitmap_weight(bitmap, nbits), to - from);
	if (to > from) {
		KUNIT_EXPECT_EQ(test, find_first_bit(bitmap, nbits), from);
		KUNIT_EXPECT_EQ(test, find_last_bit(bitmap, nbits), to - 1);
	}
}

void dxgpmo_range_mark_all_test(struct kunit *test)
{
	/* 16 pages at 64 KiB, their bits from 60: bits 63 and 64 differ. */
	const struct dxgpmo_dirty_range r = {
		.offset = 16 * PS, .length = 16 * PS, .first_bit = 60,
	};
	unsigned long *bitmap = dxgpmo_test_bitmap(test, 128);

	dxgpmo_range_mark(&r, bitmap, r.offset + 3 * PS, 2 * PS, NULL,
			  PAGE_SHIFT);
	dxgpmo_expect_bits(test, bitmap, 128, 63, 65);

	/* Only what is inside the range, at either end. */
	bitmap_zero(bitmap, 128);
	dxgpmo_range_mark(&r, bitmap, r.offset - PS, 2 * PS, NULL, PAGE_SHIFT);
	dxgpmo_expect_bits(test, bitmap, 128, 60, 61);
	bitmap_zero(bitmap, 128);
	dxgpmo_range_mark(&r, bitmap, r.offset + 15 * PS, 4 * PS, NULL,
			  PAGE_SHIFT);
	dxgpmo_expect_bits(test, bitmap, 128, 75, 76);
	bitmap_zero(bitmap, 128);
	dxgpmo_range_mark(&r, bitmap, 0, r.offset, NULL, PAGE_SHIFT);
	dxgpmo_range_mark(&r, bitmap, r.offset + r.length, PS, NULL,
			  PAGE_SHIFT);
	dxgpmo_expect_bits(test, bitmap, 128, 0, 0);

	/* A byte dirties its page; one that ends a page, only that one. */
	dxgpmo_range_mark(&r, bitmap, r.offset + 5 * PS + 1, 1, NULL,
			  PAGE_SHIFT);
	dxgpmo_expect_bits(test, bitmap, 128, 65, 66);
	bitmap_zero(bitmap, 128);
	dxgpmo_range_mark(&r, bitmap, r.offset + 4 * PS - 1, 2, NULL,
			  PAGE_SHIFT);
	dxgpmo_expect_bits(test, bitmap, 128, 63, 65);

	/* Dirty pages of 4 system pages: one bit for pages 4 to 7. */
	bitmap_zero(bitmap, 128);
	dxgpmo_range_mark(&r, bitmap, r.offset + 5 * PS, 1, NULL,
			  PAGE_SHIFT + 2);
	dxgpmo_expect_bits(test, bitmap, 128, 61, 62);
	bitmap_zero(bitmap, 128);
	dxgpmo_range_mark(&r, bitmap, r.offset + 7 * PS, 2 * PS, NULL,
			  PAGE_SHIFT + 2);
	dxgpmo_expect_bits(test, bitmap, 128, 61, 63);
}

void dxgpmo_range_mark_dirty_test(struct kunit *test)
{
	const struct dxgpmo_dirty_range r = {
		.offset = 16 * PS, .length = 16 * PS, .first_bit = 60,
	};
	unsigned long *bitmap = dxgpmo_test_bitmap(test, 128);
	unsigned long *dirty = dxgpmo_test_bitmap(test, 128);

	/* Bit 0 of dirty is the page at the offset collected. */
	__set_bit(0, dirty);
	__set_bit(3, dirty);
	__set_bit(4, dirty);
	__set_bit(20, dirty);	/* past the range's end */
	dxgpmo_range_mark(&r, bitmap, r.offset, 64 * PS, dirty, PAGE_SHIFT);
	KUNIT_EXPECT_EQ(test, bitmap_weight(bitmap, 128), 3U);
	KUNIT_EXPECT_TRUE(test, test_bit(60, bitmap));
	KUNIT_EXPECT_TRUE(test, test_bit(63, bitmap));
	KUNIT_EXPECT_TRUE(test, test_bit(64, bitmap));

	/* Pages before the range are not its. */
	bitmap_zero(bitmap, 128);
	bitmap_zero(dirty, 128);
	__set_bit(0, dirty);
	__set_bit(1, dirty);
	__set_bit(2, dirty);
	dxgpmo_range_mark(&r, bitmap, r.offset - 2 * PS, 64 * PS, dirty,
			  PAGE_SHIFT);
	dxgpmo_expect_bits(test, bitmap, 128, 60, 61);

	/* Larger dirty pages: pages 0 and 3 share a bit, 4 has the next. */
	bitmap_zero(bitmap, 128);
	bitmap_zero(dirty, 128);
	__set_bit(0, dirty);
	__set_bit(3, dirty);
	__set_bit(4, dirty);
	dxgpmo_range_mark(&r, bitmap, r.offset, 16 * PS, dirty,
			  PAGE_SHIFT + 2);
	dxgpmo_expect_bits(test, bitmap, 128, 60, 62);
}

void dxgpmo_basis_check_ranges_test(struct kunit *test)
{
	struct dxgpmo_basis *basis = dxgpmo_test_basis(test, 3);
	const u64 size = 1024 * PS;

	basis->ranges[0] = (struct dxgpmo_dirty_range){ 512 * PS, 60 * PS };
	basis->ranges[1] = (struct dxgpmo_dirty_range){ 0, 8 * PS };
	/* Touching the first one is not overlapping it. */
	basis->ranges[2] = (struct dxgpmo_dirty_range){ 572 * PS, 452 * PS };
	KUNIT_ASSERT_EQ(test, dxgpmo_test_check_ranges(basis, size, PS), 0);
	KUNIT_EXPECT_EQ(test, basis->ranges[0].first_bit, 0UL);
	KUNIT_EXPECT_EQ(test, basis->ranges[1].first_bit, 60UL);
	KUNIT_EXPECT_EQ(test, basis->ranges[2].first_bit, 68UL);
	KUNIT_EXPECT_EQ(test, basis->nr_bits, 520UL);
	/* With dirty pages of 4 system pages. */
	KUNIT_ASSERT_EQ(test, dxgpmo_test_check_ranges(basis, size, 4 * PS),
			0);
	KUNIT_EXPECT_EQ(test, basis->ranges[2].first_bit, 17UL);
	KUNIT_EXPECT_EQ(test, basis->nr_bits, 130UL);

	/* Past the segment's end, or wrapping past 2^64. */
	basis->ranges[2].length = 453 * PS;
	KUNIT_EXPECT_EQ(test, dxgpmo_test_check_ranges(basis, size, PS),
			-ERANGE);
	basis->ranges[2].offset = U64_MAX - PS + 1;
	basis->ranges[2].length = PS;
	KUNIT_EXPECT_EQ(test, dxgpmo_test_check_ranges(basis, size, PS),
			-ERANGE);
	basis->ranges[2].offset = 2 * PS;
	basis->ranges[2].length = U64_MAX - PS + 1;
	KUNIT_EXPECT_EQ(test, dxgpmo_test_check_ranges(basis, size, PS),
			-ERANGE);
	/* One page shared with the first range. */
	basis->ranges[2].offset = 571 * PS;
	basis->ranges[2].length = PS;
	KUNIT_EXPECT_EQ(test, dxgpmo_test_check_ranges(basis, size, PS),
			-EEXIST);
	/* Whole dirty pages, at least one. */
	basis->ranges[2].offset = 600 * PS;
	basis->ranges[2].length = 0;
	KUNIT_EXPECT_EQ(test, dxgpmo_test_check_ranges(basis, size, PS),
			-EINVAL);
	basis->ranges[2].length = 4 * PS;
	KUNIT_EXPECT_EQ(test, dxgpmo_test_check_ranges(basis, size, 4 * PS),
			0);
	basis->ranges[2].offset = 601 * PS;
	KUNIT_EXPECT_EQ(test, dxgpmo_test_check_ranges(basis, size, 4 * PS),
			-EINVAL);
	basis->ranges[2].offset = 600 * PS;
	basis->ranges[2].length = 2 * PS;
	KUNIT_EXPECT_EQ(test, dxgpmo_test_check_ranges(basis, size, 4 * PS),
			-EINVAL);
}

void dxgpmo_range_bytes_test(struct kunit *test)
{
	/* 64 pages at 1 MiB, their bits from 64. */
	const struct dxgpmo_dirty_range r = {
		.offset = 256 * PS, .length = 64 * PS, .first_bit = 64,
	};
	u64 offset = 0, length = 0;

	KUNIT_EXPECT_FALSE(test, dxgpmo_range_bytes(&r, 0, 64, PS, &offset,
						    &length));
	KUNIT_EXPECT_FALSE(test, dxgpmo_range_bytes(&r, 128, 2, PS, &offset,
						    &length));
	KUNIT_EXPECT_TRUE(test, dxgpmo_range_bytes(&r, 60, 10, PS, &offset,
						   &length));
	KUNIT_EXPECT_EQ(test, offset, r.offset);
	KUNIT_EXPECT_EQ(test, length, 6 * PS);
	KUNIT_EXPECT_TRUE(test, dxgpmo_range_bytes(&r, 100, 100, PS, &offset,
						   &length));
	KUNIT_EXPECT_EQ(test, offset, r.offset + 36 * PS);
	KUNIT_EXPECT_EQ(test, length, 28 * PS);
	KUNIT_EXPECT_TRUE(test, dxgpmo_range_bytes(&r, 127, 1, PS, &offset,
						   &length));
	KUNIT_EXPECT_EQ(test, offset, r.offset + 63 * PS);
	KUNIT_EXPECT_EQ(test, length, PS);
	/* Dirty pages of 4 system pages: the range has 16 bits. */
	KUNIT_EXPECT_FALSE(test, dxgpmo_range_bytes(&r, 80, 1, 4 * PS,
						    &offset, &length));
	KUNIT_EXPECT_TRUE(test, dxgpmo_range_bytes(&r, 79, 1, 4 * PS, &offset,
						   &length));
	KUNIT_EXPECT_EQ(test, offset, r.offset + 60 * PS);
	KUNIT_EXPECT_EQ(test, length, 4 * PS);
}

void dxgpmo_query_span_test(struct kunit *test)
{
	struct dxgpmo_basis *basis = dxgpmo_test_basis(test, 2);
	struct dxgpmo_query_dirty_bits cmd;
	unsigned long count = 0;

	basis->ranges[0] = (struct dxgpmo_dirty_range){ 0, 63 * PS };
	basis->ranges[1] = (struct dxgpmo_dirty_range){ 128 * PS, 16 * PS };
	KUNIT_ASSERT_EQ(test, dxgpmo_test_check_ranges(basis, 256 * PS, PS),
			0);

	/* Ranges of 63 and 16 pages: 79 bits. */
	static const struct {
		u64 index, offset, length;
		int ret;
		unsigned long count;
	} spans[] = {
		/* No subrange: the whole basis; the other fields must be 0. */
		{ 0, 0, 0, 0, 79 },
		{ 1, 0, 0, -EINVAL },
		{ 0, PS, 0, -EINVAL },
		/* The second range's first pages, and its last one. */
		{ 1, 0, 2 * PS, 0, 2 },
		{ 1, 15 * PS, PS, 0, 1 },
		/* One page more, a subrange past the end, one that wraps. */
		{ 1, 15 * PS, 2 * PS, -EINVAL },
		{ 1, 16 * PS, PS, -EINVAL },
		{ 1, PS, U64_MAX - PS + 1, -EINVAL },
		/* Whole dirty pages, of a range that exists. */
		{ 1, PS / 2, PS, -EINVAL },
		{ 1, 0, PS + 1, -EINVAL },
		{ 2, 0, PS, -EINVAL },
		{ 1ULL << 32, 0, PS, -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(spans); i++) {
		memset(&cmd, 0, sizeof(cmd));
		cmd.subrange_index = spans[i].index;
		cmd.subrange_offset = spans[i].offset;
		cmd.subrange_length = spans[i].length;
		KUNIT_EXPECT_EQ_MSG(test, dxgpmo_query_span(basis, &cmd, PS,
							    &count),
				    spans[i].ret, "span %u", i);
		if (spans[i].ret)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, count, spans[i].count, "span %u", i);
	}
}

void dxgpmo_bits_bytes_test(struct kunit *test)
{
	unsigned long *bitmap = dxgpmo_test_bitmap(test, 192);
	static const unsigned long set[] = { 60, 62, 63, 64, 127, 128, 130 };
	u8 out[10];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(set); i++)
		__set_bit(set[i], bitmap);

	/* Bits [60, 130): bit 0 of out[0] is bit 60; 130 is not asked for. */
	memset(out, 0, sizeof(out));
	dxgpmo_bits_to_bytes(bitmap, 60, 70, out);
	KUNIT_EXPECT_EQ(test, out[0], (u8)(BIT(0) | BIT(2) | BIT(3) | BIT(4)));
	for (i = 1; i < 8; i++)
		KUNIT_EXPECT_EQ(test, out[i], 0);
	KUNIT_EXPECT_EQ(test, out[8], (u8)(BIT(3) | BIT(4)));
	KUNIT_EXPECT_EQ(test, out[9], 0);

	/* Set again where they were, and nothing else. */
	bitmap_zero(bitmap, 192);
	dxgpmo_bits_from_bytes(bitmap, 60, 70, out);
	KUNIT_EXPECT_EQ(test, bitmap_weight(bitmap, 192), 6U);
	for (i = 0; i < ARRAY_SIZE(set) - 1; i++)
		KUNIT_EXPECT_TRUE(test, test_bit(set[i], bitmap));

	/* Starting on a word: bit 64 is bit 0 of out[0]. */
	memset(out, 0, sizeof(out));
	dxgpmo_bits_to_bytes(bitmap, 64, 64, out);
	KUNIT_EXPECT_EQ(test, out[0], (u8)BIT(0));
	KUNIT_EXPECT_EQ(test, out[7], (u8)BIT(7));
	KUNIT_EXPECT_EQ(test, out[8], 0);

	/* No bits, no bytes. */
	memset(out, 0, sizeof(out));
	dxgpmo_bits_to_bytes(bitmap, 60, 0, out);
	KUNIT_EXPECT_EQ(test, out[0], 0);
	bitmap_zero(bitmap, 192);
	out[0] = 0xff;
	dxgpmo_bits_from_bytes(bitmap, 60, 0, out);
	KUNIT_EXPECT_EQ(test, bitmap_weight(bitmap, 192), 0U);
}
