// SPDX-License-Identifier: GPL-2.0
/*
 * What one user may hold, whatever number of files it opens.
 *
 * Pinned object memory, ADL address space, kernel views and memory bases
 * are charged to the user who opened the file (its real uid, as RLIMIT_*
 * and iommufd's locked_vm accounting use), not to the file: a cap per file
 * would be multiplied by every descriptor an opener can open.  A user
 * namespace would multiply it again, by every id mapped into it: so the
 * owner of each user namespace the opener is in is charged as well (the
 * account's chain, account.c), as the kernel's ucounts charge up the
 * namespaces.  The caps are module parameters in MiB (pages) or counts;
 * the administrator sets them, and they apply to root as to anyone.  Each
 * kernel client (client.c) has a quota of its own, under the same caps,
 * in no user's table: a driver acting for users neither starves root's
 * processes nor is starved by them.
 */
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>

#include "quota.h"
#include "trace.h"

/*
 * The caps, as the administrator sets them: pages in MiB, bases in
 * numbers.  The ADL cap is three quarters of edu's 256 MiB DMA window
 * (QEMU_EDU_DMA_BITS): one user cannot take all of it, yet can map a 64 MiB
 * object whole and twice more in overlapping parts, as drivers do.  Every
 * device write and every collection walks all bases of a segment: their
 * number is what one user can make everyone else pay for.
 */
static unsigned int dxgpmo_quota_caps[DXGPMO_NR_QUOTAS] = {
	[DXGPMO_QUOTA_PINNED_PAGES] = 2048,
	[DXGPMO_QUOTA_ADL_PAGES] = 192,
	[DXGPMO_QUOTA_KMAP_PAGES] = 256,
	[DXGPMO_QUOTA_BASES] = 256,
};

/* From a cap's unit to what is charged: MiB to pages, or as it is. */
static const u8 dxgpmo_quota_cap_shift[DXGPMO_NR_QUOTAS] = {
	[DXGPMO_QUOTA_PINNED_PAGES] = 20 - PAGE_SHIFT,
	[DXGPMO_QUOTA_ADL_PAGES] = 20 - PAGE_SHIFT,
	[DXGPMO_QUOTA_KMAP_PAGES] = 20 - PAGE_SHIFT,
	[DXGPMO_QUOTA_BASES] = 0,
};

module_param_named(max_pinned_mb, dxgpmo_quota_caps[DXGPMO_QUOTA_PINNED_PAGES],
		   uint, 0644);
module_param_named(max_adl_mb, dxgpmo_quota_caps[DXGPMO_QUOTA_ADL_PAGES],
		   uint, 0644);
module_param_named(max_kmap_mb, dxgpmo_quota_caps[DXGPMO_QUOTA_KMAP_PAGES],
		   uint, 0644);
module_param_named(max_bases, dxgpmo_quota_caps[DXGPMO_QUOTA_BASES],
		   uint, 0644);
MODULE_PARM_DESC(max_pinned_mb,
		 "Most MiB of object memory one user may hold until it is freed, default 2048");
MODULE_PARM_DESC(max_adl_mb,
		 "Most MiB one user may have mapped in live ADLs, default 192");
MODULE_PARM_DESC(max_kmap_mb,
		 "Most MiB of kernel views (kernel-mode maps, dma-buf vmaps) of one user's objects, default 256");
MODULE_PARM_DESC(max_bases,
		 "Most memory bases one user may have, default 256");

struct dxgpmo_quota {
	/* Accounts of files and of what outlives them (see account.h). */
	refcount_t users;
	u32 uid;
	bool in_table;		/* a user's, in dxgpmo_quotas */
	atomic64_t charged[DXGPMO_NR_QUOTAS];
};

/* uid -> struct dxgpmo_quota; an entry goes when its last user does. */
static DEFINE_XARRAY(dxgpmo_quotas);

/* The quota of user kuid, a reference taken; NULL: -ENOMEM. */
struct dxgpmo_quota *dxgpmo_quota_get(kuid_t kuid)
{
	u32 uid = from_kuid(&init_user_ns, kuid);
	struct dxgpmo_quota *quota, *old;

	xa_lock(&dxgpmo_quotas);
	quota = xa_load(&dxgpmo_quotas, uid);
	if (quota)
		refcount_inc(&quota->users);
	xa_unlock(&dxgpmo_quotas);
	if (quota)
		return quota;

	quota = kzalloc(sizeof(*quota), GFP_KERNEL);
	if (!quota)
		return NULL;
	refcount_set(&quota->users, 1);
	quota->uid = uid;
	quota->in_table = true;
	xa_lock(&dxgpmo_quotas);
	old = __xa_cmpxchg(&dxgpmo_quotas, uid, NULL, quota, GFP_KERNEL);
	/* Present under the lock: its count cannot be dropping to zero. */
	if (old && !xa_is_err(old))
		refcount_inc(&old->users);
	xa_unlock(&dxgpmo_quotas);
	if (old) {
		kfree(quota);
		return xa_is_err(old) ? NULL : old;
	}
	return quota;
}

/* A quota of its own, a kernel client's; NULL: -ENOMEM. */
struct dxgpmo_quota *dxgpmo_quota_new_own(void)
{
	struct dxgpmo_quota *quota;

	quota = kzalloc(sizeof(*quota), GFP_KERNEL);
	if (quota)
		refcount_set(&quota->users, 1);
	return quota;
}

static void dxgpmo_quota_free(struct dxgpmo_quota *quota)
{
	unsigned int i;

	for (i = 0; i < DXGPMO_NR_QUOTAS; i++)
		WARN_ON(atomic64_read(&quota->charged[i]));
	kfree(quota);
}

void dxgpmo_quota_put(struct dxgpmo_quota *quota)
{
	if (!quota->in_table) {
		if (refcount_dec_and_test(&quota->users))
			dxgpmo_quota_free(quota);
		return;
	}
	if (refcount_dec_not_one(&quota->users))
		return;
	/* The last reference goes under the lock lookups take it under. */
	xa_lock(&dxgpmo_quotas);
	if (!refcount_dec_and_test(&quota->users)) {
		xa_unlock(&dxgpmo_quotas);
		return;
	}
	__xa_erase(&dxgpmo_quotas, quota->uid);
	xa_unlock(&dxgpmo_quotas);
	dxgpmo_quota_free(quota);
}

static s64 dxgpmo_quota_max(enum dxgpmo_quota_kind kind)
{
	return (s64)READ_ONCE(dxgpmo_quota_caps[kind]) <<
	       dxgpmo_quota_cap_shift[kind];
}

/*
 * Reserve nr before making what holds them, so concurrent calls cannot
 * pass the cap together; -ENOMEM, as for any other lack of memory, when
 * they would not fit.  A cap lowered under what is charged only refuses
 * new charges.
 */
int dxgpmo_quota_charge(struct dxgpmo_quota *quota,
			enum dxgpmo_quota_kind kind, unsigned long nr)
{
	atomic64_t *charged = &quota->charged[kind];
	s64 max = dxgpmo_quota_max(kind);
	s64 old = atomic64_read(charged);

	/* Nothing to charge fits, even under a cap lowered below the use. */
	if (!nr)
		return 0;
	do {
		if (old + (s64)nr > max) {
			trace_dxgpmo_quota_refused(quota->uid, !quota->in_table,
						   kind, nr, old, max);
			return -ENOMEM;
		}
	} while (!atomic64_try_cmpxchg(charged, &old, old + nr));
	return 0;
}

void dxgpmo_quota_uncharge(struct dxgpmo_quota *quota,
			   enum dxgpmo_quota_kind kind, unsigned long nr)
{
	WARN_ON(atomic64_sub_return(nr, &quota->charged[kind]) < 0);
}

/* Every file and every object outliving one is gone by module exit. */
void dxgpmo_quota_exit(void)
{
	WARN_ON(!xa_empty(&dxgpmo_quotas));
	xa_destroy(&dxgpmo_quotas);
}
