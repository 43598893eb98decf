/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one user may hold, whatever number of files it opens: caps the
 * administrator sets, charged by the files' accounts (account.h) and by
 * what is capped in numbers rather than pages.
 */
#ifndef _DXGPMO_QUOTA_H
#define _DXGPMO_QUOTA_H

#include <linux/types.h>
#include <linux/uidgid.h>

enum dxgpmo_quota_kind {
	DXGPMO_QUOTA_PINNED_PAGES,
	DXGPMO_QUOTA_ADL_PAGES,
	DXGPMO_QUOTA_KMAP_PAGES,
	DXGPMO_QUOTA_BASES,
	DXGPMO_NR_QUOTAS,
};

struct dxgpmo_quota;

struct dxgpmo_quota *dxgpmo_quota_get(kuid_t kuid);
struct dxgpmo_quota *dxgpmo_quota_new_own(void);
void dxgpmo_quota_put(struct dxgpmo_quota *quota);
int dxgpmo_quota_charge(struct dxgpmo_quota *quota,
			enum dxgpmo_quota_kind kind, unsigned long nr);
void dxgpmo_quota_uncharge(struct dxgpmo_quota *quota,
			   enum dxgpmo_quota_kind kind, unsigned long nr);
void dxgpmo_quota_exit(void);

#endif /* _DXGPMO_QUOTA_H */
