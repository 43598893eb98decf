// SPDX-License-Identifier: GPL-2.0
/*
 * A file's account: the pages of object memory made through it, charged
 * to the quota of the user who opened it (quota.c) from allocation to
 * free, however long the pages outlive the file (account.h).
 */
#include <linux/bug.h>
#include <linux/slab.h>

#include "account.h"
#include "quota.h"

/*
 * The caller's: the caps are a user's, however many files it opens; a
 * kernel client's are root's (quota.c).
 */
struct dxgpmo_account *dxgpmo_account_new(bool kernel_client)
{
	struct dxgpmo_account *account;

	account = kzalloc(sizeof(*account), GFP_KERNEL_ACCOUNT);
	if (!account)
		return NULL;
	account->quota = kernel_client ? dxgpmo_quota_get(GLOBAL_ROOT_UID) :
					 dxgpmo_quota_get_current();
	if (!account->quota) {
		kfree(account);
		return NULL;
	}
	refcount_set(&account->users, 1);
	return account;
}

void dxgpmo_account_put(struct dxgpmo_account *account)
{
	if (refcount_dec_and_test(&account->users)) {
		WARN_ON(atomic64_read(&account->pages));
		dxgpmo_quota_put(account->quota);
		kfree(account);
	}
}

/*
 * nr pages about to be allocated: charged to the quota before, so that
 * concurrent creates respect the cap, with a reference on the account.
 * They count as the file's (STATS) only once they exist:
 * dxgpmo_account_commit() then, dxgpmo_account_cancel() if the allocation
 * failed.
 */
int dxgpmo_account_charge(struct dxgpmo_account *account, unsigned long nr)
{
	int ret;

	ret = dxgpmo_quota_charge(account->quota, DXGPMO_QUOTA_PINNED_PAGES,
				  nr);
	if (ret)
		return ret;
	refcount_inc(&account->users);
	return 0;
}

void dxgpmo_account_commit(struct dxgpmo_account *account, unsigned long nr)
{
	atomic64_add(nr, &account->pages);
}

void dxgpmo_account_cancel(struct dxgpmo_account *account, unsigned long nr)
{
	dxgpmo_quota_uncharge(account->quota, DXGPMO_QUOTA_PINNED_PAGES, nr);
	dxgpmo_account_put(account);
}

/* Committed pages freed: the charge and its reference go. */
void dxgpmo_account_uncharge(struct dxgpmo_account *account,
			     unsigned long nr)
{
	atomic64_sub(nr, &account->pages);
	dxgpmo_account_cancel(account, nr);
}
