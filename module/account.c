// SPDX-License-Identifier: GPL-2.0
/*
 * A file's account: the pages of object memory made through it, charged
 * to the quotas of the user who opened it (quota.c) from allocation to
 * free, however long the pages outlive the file (account.h), and what else
 * the file holds that the caps count.
 */
#include <linux/bug.h>
#include <linux/cred.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#include "account.h"
#include "quota.h"

/*
 * User namespaces nest 33 deep below the initial one (create_user_ns()
 * refuses a parent of level 33), each with an owner, and the opener is
 * one more user.
 */
#define DXGPMO_ACCOUNT_MAX_QUOTAS	(33 + 1)

/*
 * The users an opener's charges go to: its own, then the owner of each
 * user namespace it is in, outwards, each once.  An id mapped into a
 * namespace is its owner's to hand out (subordinate ids), so however many
 * of them the opener switches between, their owner's caps hold for all.
 * Up to a namespace root made: the ids root maps into a container are the
 * administrator's assignment, each its own user, as they were before
 * namespaces were charged; charging them all to root would put every
 * container, and root's own processes, in one budget.
 */
static unsigned int dxgpmo_account_users(kuid_t *uids)
{
	const struct user_namespace *ns;
	unsigned int i, n = 0;

	uids[n++] = current_uid();
	for (ns = current_user_ns(); ns != &init_user_ns; ns = ns->parent) {
		if (uid_eq(ns->owner, GLOBAL_ROOT_UID))
			break;
		for (i = 0; i < n && !uid_eq(uids[i], ns->owner); i++)
			;
		if (i < n)
			continue;
		if (WARN_ON_ONCE(n == DXGPMO_ACCOUNT_MAX_QUOTAS))
			break;
		uids[n++] = ns->owner;
	}
	return n;
}

static void dxgpmo_account_free(struct dxgpmo_account *account)
{
	unsigned int i;

	for (i = 0; i < account->nr_quotas; i++)
		dxgpmo_quota_put(account->quotas[i]);
	kfree(account);
}

/*
 * The caller's (the caps are a user's, however many files it opens), or
 * a kernel client's own (quota.c).
 */
struct dxgpmo_account *dxgpmo_account_new(bool kernel_client)
{
	kuid_t uids[DXGPMO_ACCOUNT_MAX_QUOTAS];
	struct dxgpmo_account *account;
	unsigned int i, n;

	n = kernel_client ? 1 : dxgpmo_account_users(uids);
	account = kzalloc(struct_size(account, quotas, n), GFP_KERNEL_ACCOUNT);
	if (!account)
		return NULL;
	refcount_set(&account->users, 1);
	for (i = 0; i < n; i++) {
		account->quotas[i] = kernel_client ? dxgpmo_quota_new_own() :
						     dxgpmo_quota_get(uids[i]);
		if (!account->quotas[i]) {
			dxgpmo_account_free(account);
			return NULL;
		}
		account->nr_quotas++;
	}
	return account;
}

void dxgpmo_account_put(struct dxgpmo_account *account)
{
	if (refcount_dec_and_test(&account->users)) {
		WARN_ON(atomic64_read(&account->pages));
		dxgpmo_account_free(account);
	}
}

/* nr of kind charged to every quota of the account, or to none. */
int dxgpmo_account_quota_charge(struct dxgpmo_account *account,
				enum dxgpmo_quota_kind kind, unsigned long nr)
{
	unsigned int i;
	int ret;

	for (i = 0; i < account->nr_quotas; i++) {
		ret = dxgpmo_quota_charge(account->quotas[i], kind, nr);
		if (ret) {
			while (i--)
				dxgpmo_quota_uncharge(account->quotas[i], kind,
						      nr);
			return ret;
		}
	}
	return 0;
}

void dxgpmo_account_quota_uncharge(struct dxgpmo_account *account,
				   enum dxgpmo_quota_kind kind,
				   unsigned long nr)
{
	unsigned int i;

	for (i = 0; i < account->nr_quotas; i++)
		dxgpmo_quota_uncharge(account->quotas[i], kind, nr);
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

	ret = dxgpmo_account_quota_charge(account, DXGPMO_QUOTA_PINNED_PAGES,
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
	dxgpmo_account_quota_uncharge(account, DXGPMO_QUOTA_PINNED_PAGES, nr);
	dxgpmo_account_put(account);
}

/* Committed pages freed: the charge and its reference go. */
void dxgpmo_account_uncharge(struct dxgpmo_account *account,
			     unsigned long nr)
{
	atomic64_sub(nr, &account->pages);
	dxgpmo_account_cancel(account, nr);
}
