// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit suite of the module's pure logic: every case of module/kunit/
 * in one table, as the ioctl table lists every command, so that adding a
 * file of cases adds rows here rather than another copy of the
 * registration.  The cases run when a KUnit build of the module loads
 * (make check-debug); their results are in debugfs, kunit/dxgpmo_module/.
 */
#include <kunit/test.h>

#include "kunit.h"

static struct kunit_case dxgpmo_module_cases[] = {
	/* alloc_window_kunit.c: allocation windows and boundaries */
	KUNIT_CASE(dxgpmo_window_holds_test),
	KUNIT_CASE(dxgpmo_create_length_test),
	KUNIT_CASE(dxgpmo_create_window_test),
	KUNIT_CASE(dxgpmo_create_boundary_test),
	KUNIT_CASE(dxgpmo_window_reach_test),
	KUNIT_CASE(dxgpmo_window_device_like_test),
	KUNIT_CASE(dxgpmo_phys_fits_test),
	/* adl_kunit.c: address descriptor lists without a device */
	KUNIT_CASE(dxgpmo_address_runs_test),
	KUNIT_CASE(dxgpmo_adl_check_test),
	KUNIT_CASE(dxgpmo_chunk_of_test),
	KUNIT_CASE(dxgpmo_adl_fill_test),
	KUNIT_CASE(dxgpmo_adl_contiguity_test),
	KUNIT_CASE(dxgpmo_adl_cache_maintenance_test),
	/* mapping_kunit.c: MAP's rounding */
	KUNIT_CASE(dxgpmo_map_view_partial_test),
	KUNIT_CASE(dxgpmo_map_view_whole_pages_test),
	KUNIT_CASE(dxgpmo_map_view_top_test),
	KUNIT_CASE(dxgpmo_map_view_covers_test),
	/* dirty_kunit.c: the dirty bitmaps of memory bases */
	KUNIT_CASE(dxgpmo_range_mark_all_test),
	KUNIT_CASE(dxgpmo_range_mark_dirty_test),
	KUNIT_CASE(dxgpmo_basis_check_ranges_test),
	KUNIT_CASE(dxgpmo_range_bytes_test),
	KUNIT_CASE(dxgpmo_query_span_test),
	KUNIT_CASE(dxgpmo_bits_bytes_test),
	/* dxgkrnl_kunit.c: the Windows-named interface's own checks */
	KUNIT_CASE(dxgpmo_dxgkrnl_status_test),
	KUNIT_CASE(dxgpmo_dxgkrnl_handle_test),
	KUNIT_CASE(dxgpmo_dxgkrnl_args_test),
	{}
};

static struct kunit_suite dxgpmo_module_suite = {
	.name = "dxgpmo_module",
	.test_cases = dxgpmo_module_cases,
};

kunit_test_suites(&dxgpmo_module_suite);
