/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The object memory of one file, and the quota of the user who opened it
 * (quota.h), which max_pinned_mb caps.  Pages outlive the handle that made
 * them, and the file (dma-bufs, window VMAs and forked copies of those,
 * see backing.h), and stay charged until they are freed: so the charge is
 * a backing's, and every backing keeps the account it was charged to.
 */
#ifndef _DXGPMO_ACCOUNT_H
#define _DXGPMO_ACCOUNT_H

#include <linux/atomic.h>
#include <linux/refcount.h>
#include <linux/types.h>

#include "quota.h"

struct dxgpmo_account {
	refcount_t users;		/* the file and its backings */
	atomic64_t pages;
	/*
	 * The quotas every charge goes to, each referenced: the opener's
	 * user's, then the owner's of each user namespace the opener was
	 * in, out to the initial one, each user once (quota.c); a kernel
	 * client's own alone.
	 */
	unsigned int nr_quotas;
	struct dxgpmo_quota *quotas[];
};

struct dxgpmo_account *dxgpmo_account_new(bool kernel_client);
int dxgpmo_account_quota_charge(struct dxgpmo_account *account,
				enum dxgpmo_quota_kind kind, unsigned long nr);
void dxgpmo_account_quota_uncharge(struct dxgpmo_account *account,
				   enum dxgpmo_quota_kind kind,
				   unsigned long nr);
void dxgpmo_account_put(struct dxgpmo_account *account);
int dxgpmo_account_charge(struct dxgpmo_account *account, unsigned long nr);
void dxgpmo_account_commit(struct dxgpmo_account *account, unsigned long nr);
void dxgpmo_account_cancel(struct dxgpmo_account *account, unsigned long nr);
void dxgpmo_account_uncharge(struct dxgpmo_account *account,
			     unsigned long nr);

#endif /* _DXGPMO_ACCOUNT_H */
