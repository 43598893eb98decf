/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KUnit cases of module/kunit/, each in the file of what it tests,
 * registered in one suite (suite.c).
 */
#ifndef _DXGPMO_KUNIT_H
#define _DXGPMO_KUNIT_H

struct kunit;

/* alloc_window_kunit.c */
void dxgpmo_window_holds_test(struct kunit *test);
void dxgpmo_create_length_test(struct kunit *test);
void dxgpmo_create_window_test(struct kunit *test);
void dxgpmo_create_boundary_test(struct kunit *test);
void dxgpmo_window_reach_test(struct kunit *test);
void dxgpmo_window_device_like_test(struct kunit *test);
void dxgpmo_phys_fits_test(struct kunit *test);

/* adl_kunit.c */
void dxgpmo_address_runs_test(struct kunit *test);
void dxgpmo_adl_check_test(struct kunit *test);
void dxgpmo_chunk_of_test(struct kunit *test);
void dxgpmo_adl_fill_test(struct kunit *test);
void dxgpmo_adl_contiguity_test(struct kunit *test);
void dxgpmo_adl_cache_maintenance_test(struct kunit *test);

/* mapping_kunit.c */
void dxgpmo_map_view_partial_test(struct kunit *test);
void dxgpmo_map_view_whole_pages_test(struct kunit *test);
void dxgpmo_map_view_top_test(struct kunit *test);
void dxgpmo_map_view_covers_test(struct kunit *test);

/* dirty_kunit.c */
void dxgpmo_range_mark_all_test(struct kunit *test);
void dxgpmo_range_mark_dirty_test(struct kunit *test);
void dxgpmo_basis_check_ranges_test(struct kunit *test);
void dxgpmo_range_bytes_test(struct kunit *test);
void dxgpmo_query_span_test(struct kunit *test);
void dxgpmo_bits_bytes_test(struct kunit *test);

/* dxgkrnl_kunit.c */
void dxgpmo_dxgkrnl_status_test(struct kunit *test);
void dxgpmo_dxgkrnl_handle_test(struct kunit *test);
void dxgpmo_dxgkrnl_args_test(struct kunit *test);

#endif /* _DXGPMO_KUNIT_H */
