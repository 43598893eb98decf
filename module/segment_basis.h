/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's own dirty-bit tracking of the segments it emulates: the
 * memory-basis DDIs of every adapter but a kernel driver's that brings
 * its own.
 */
#ifndef _DXGPMO_SEGMENT_BASIS_H
#define _DXGPMO_SEGMENT_BASIS_H

#include <linux/types.h>

struct dxgpmo_basis_ddi;
struct dxgpmo_dirty_range;

extern const struct dxgpmo_basis_ddi dxgpmo_segment_basis_ddi;

/* For the KUnit suites (module/kunit/); static without KUnit. */
#if IS_ENABLED(CONFIG_KUNIT)
bool dxgpmo_range_bytes(const struct dxgpmo_dirty_range *r,
			unsigned long first, unsigned long count, u64 ps,
			u64 *offset, u64 *length);
void dxgpmo_bits_to_bytes(const unsigned long *bitmap, unsigned long first,
			  unsigned long count, u8 *out);
void dxgpmo_bits_from_bytes(unsigned long *bitmap, unsigned long first,
			    unsigned long count, const u8 *bytes);
#endif

#endif /* _DXGPMO_SEGMENT_BASIS_H */
