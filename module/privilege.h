/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may do what: each check sits where the privilege is used, and all of
 * them are here.
 */
#ifndef _DXGPMO_PRIVILEGE_H
#define _DXGPMO_PRIVILEGE_H

#include <linux/types.h>

struct dxgpmo_adapter;
struct dxgpmo_alloc_request;
struct dxgpmo_file;

void dxgpmo_file_note_opener(struct dxgpmo_file *file);
bool dxgpmo_may_see_physical(struct dxgpmo_file *file);
int dxgpmo_may_use_io_space(struct dxgpmo_file *file);
bool dxgpmo_may_use_raw_dma(struct dxgpmo_file *file);
bool dxgpmo_may_track_any_adapter(struct dxgpmo_file *file);
int dxgpmo_may_create(struct dxgpmo_file *file,
		      struct dxgpmo_alloc_request *req);
bool dxgpmo_adapter_addresses_visible(struct dxgpmo_adapter *adapter,
				      struct dxgpmo_file *file);
#if IS_ENABLED(CONFIG_KUNIT)
bool dxgpmo_window_is_device_like(u64 low, u64 high, u64 boundary);
#endif
#ifdef DXGPMO_TEST
bool dxgpmo_may_use_test_ioctl(struct dxgpmo_file *file);
#endif

#endif /* _DXGPMO_PRIVILEGE_H */
