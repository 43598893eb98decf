// SPDX-License-Identifier: GPL-2.0
/*
 * The object table of a file, in the manner of iommufd: ids reserved at
 * alloc and filled in at finalize, so a half-made object is never found;
 * lookups take a reference under the xarray lock; destroying a handle
 * needs its users count to be exactly one.  Ids are allocated cyclically,
 * so a stale id of a destroyed object does not name a new object until the
 * 32-bit space wraps.
 *
 * Cyclic ids alone would make a file with few objects pay for an xarray
 * node on every create: its next id lies in a leaf no live object holds,
 * so each create allocates that leaf and each destroy frees it again,
 * through RCU (2-3 us of a 3 us ADL under TCG).  The file therefore keeps
 * one id reserved, the last of the leaf its newest id is in: the leaf
 * stays while creates and destroys move through it, and a new one is
 * made once per XA_CHUNK_SIZE ids.  That id is never handed out and a
 * lookup does not find it, as any reserved id.
 */
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "account.h"
#include "inject.h"
#include "leak.h"
#include "object.h"
#include "stats.h"
#include "ucmd.h"

/* How long DESTROY waits for calls in flight on the object, at most. */
#define DXGPMO_DESTROY_WAIT	(30 * HZ)

static atomic_t dxgpmo_last_file_id = ATOMIC_INIT(0);

/* client: the kernel client's module name; NULL for a user's open. */
struct dxgpmo_file *dxgpmo_file_alloc(const char *client)
{
	bool kernel_client = client;
	struct dxgpmo_file *file = kzalloc(sizeof(*file), GFP_KERNEL_ACCOUNT);

	if (!file)
		return NULL;
	file->id = atomic_inc_return(&dxgpmo_last_file_id);
	file->kernel_client = kernel_client;
	file->account = dxgpmo_account_new(kernel_client);
	if (!file->account) {
		kfree(file);
		return NULL;
	}
	xa_init_flags(&file->objects, XA_FLAGS_ALLOC1);
	file->windows = RB_ROOT;
	spin_lock_init(&file->windows_lock);
	dxgpmo_leak_file_add(file, client);
	return file;
}

/*
 * Keep the leaf of id, just handed out, for the ids after it (see the top
 * of this file).  Only forwards, unless the ids wrapped: a create whose
 * id came from an older leaf (another thread's create moved next_id on
 * while this one allocated) leaves the newer leaf kept.  Best effort:
 * without the reservation ids work as before.
 */
static void dxgpmo_object_keep_leaf_locked(struct dxgpmo_file *file, u32 id,
					   bool wrapped)
{
	u32 anchor = id | XA_CHUNK_MASK;

	lockdep_assert_held(&file->objects.xa_lock);
	if (anchor == id || anchor == file->id_anchor ||
	    (anchor < file->id_anchor && !wrapped))
		return;
	/*
	 * A NULL entry is stored as a reservation; -EBUSY if the id is
	 * taken.  The leaf exists (id was just stored in it): nothing is
	 * allocated, so nothing is charged or sleeps.
	 */
	if (__xa_insert(&file->objects, anchor, NULL,
			GFP_NOWAIT | __GFP_NOWARN | __GFP_ACCOUNT))
		return;
	if (file->id_anchor)
		__xa_erase(&file->objects, file->id_anchor);
	file->id_anchor = anchor;
}

struct dxgpmo_object *
__dxgpmo_object_alloc(struct dxgpmo_file *file, size_t size,
		      enum dxgpmo_obj_type type,
		      const struct dxgpmo_object_ops *ops)
{
	struct dxgpmo_object *obj;
	int ret;

	if (dxgpmo_should_fail(file))
		return ERR_PTR(-ENOMEM);
	obj = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!obj)
		return ERR_PTR(-ENOMEM);
	refcount_set(&obj->users, 1);
	refcount_set(&obj->shortterm_users, 1);
	obj->type = type;
	obj->ops = ops;
	/* Reserved: lookups see nothing at this id until finalize. */
	might_alloc(GFP_KERNEL_ACCOUNT);
	xa_lock(&file->objects);
	ret = __xa_alloc_cyclic(&file->objects, &obj->id, XA_ZERO_ENTRY,
				xa_limit_32b, &file->next_id,
				GFP_KERNEL_ACCOUNT);
	if (ret >= 0)
		dxgpmo_object_keep_leaf_locked(file, obj->id, ret == 1);
	xa_unlock(&file->objects);
	if (ret < 0) {
		kvfree(obj);
		return ERR_PTR(ret);
	}
	dxgpmo_leak_note_create(obj);
	return obj;
}

void dxgpmo_object_finalize(struct dxgpmo_file *file,
			    struct dxgpmo_object *obj)
{
	void *old;

	/*
	 * Counted before it is published: once visible, another thread may
	 * destroy and free it before we could look at it again.
	 */
	dxgpmo_count(file, obj->ops->counter, 1);
	xa_lock(&file->objects);
	old = __xa_cmpxchg(&file->objects, obj->id, XA_ZERO_ENTRY, obj,
			   GFP_KERNEL);
	/* A reserved entry reads back as NULL. */
	if (!WARN_ON(old) && obj->ops->parent_of)
		obj->ops->parent_of(obj)->nr_children++;
	xa_unlock(&file->objects);
}

/* Under the xarray lock: the handle goes, and the parent counts it gone. */
static void dxgpmo_object_unpublish_locked(struct dxgpmo_file *file,
					   struct dxgpmo_object *obj)
{
	lockdep_assert_held(&file->objects.xa_lock);
	__xa_erase(&file->objects, obj->id);
	if (obj->ops->parent_of)
		obj->ops->parent_of(obj)->nr_children--;
}

/* An object that never became visible: only its memory and id to undo. */
void dxgpmo_object_abort(struct dxgpmo_file *file, struct dxgpmo_object *obj)
{
	xa_erase(&file->objects, obj->id);
	dxgpmo_leak_forget(obj);
	kvfree(obj);
}

void dxgpmo_object_abort_and_destroy(struct dxgpmo_file *file,
				     struct dxgpmo_object *obj)
{
	if (obj->ops->abort)
		obj->ops->abort(file, obj);
	else
		obj->ops->destroy(file, obj);
	dxgpmo_object_abort(file, obj);
}

/*
 * Answer a call that made obj, and child if it made one with it, then make
 * them visible: a caller that cannot learn the ids never leaves an object
 * behind.  The parent goes public first, so that no visible child names
 * an object no lookup finds; a child is destroyed first, as it holds a
 * reference on its parent.
 */
int dxgpmo_ucmd_respond_finalize_pair(struct dxgpmo_ucmd *ucmd,
				      size_t cmd_len,
				      struct dxgpmo_object *obj,
				      struct dxgpmo_object *child)
{
	int ret = dxgpmo_ucmd_respond(ucmd, cmd_len);

	if (ret) {
		if (child)
			dxgpmo_object_abort_and_destroy(ucmd->file, child);
		dxgpmo_object_abort_and_destroy(ucmd->file, obj);
		return ret;
	}
	dxgpmo_object_finalize(ucmd->file, obj);
	if (child)
		dxgpmo_object_finalize(ucmd->file, child);
	return 0;
}

int dxgpmo_ucmd_respond_finalize(struct dxgpmo_ucmd *ucmd, size_t cmd_len,
				 struct dxgpmo_object *obj)
{
	return dxgpmo_ucmd_respond_finalize_pair(ucmd, cmd_len, obj, NULL);
}

/* A finalized object of that type, a call's reference taken; else NULL. */
static struct dxgpmo_object *dxgpmo_object_get_locked(struct dxgpmo_file *file,
						      u32 id,
						      enum dxgpmo_obj_type type)
{
	struct dxgpmo_object *obj;

	lockdep_assert_held(&file->objects.xa_lock);
	obj = id ? xa_load(&file->objects, id) : NULL;
	if (!obj || obj->type != type)
		return NULL;
	refcount_inc(&obj->users);
	refcount_inc(&obj->shortterm_users);
	return obj;
}

struct dxgpmo_object *dxgpmo_object_get(struct dxgpmo_file *file, u32 id,
					enum dxgpmo_obj_type type)
{
	struct dxgpmo_object *obj;

	xa_lock(&file->objects);
	obj = dxgpmo_object_get_locked(file, id, type);
	xa_unlock(&file->objects);
	return obj ?: ERR_PTR(-ENOENT);
}

static DECLARE_WAIT_QUEUE_HEAD(dxgpmo_destroy_wait);

/*
 * Nothing of the object is touched after the decrements: a DESTROY that
 * sees the calls gone frees it at once.
 */
void dxgpmo_object_put(struct dxgpmo_object *obj)
{
	refcount_dec(&obj->users);
	refcount_dec(&obj->shortterm_users);
	if (wq_has_sleeper(&dxgpmo_destroy_wait))
		wake_up_all(&dxgpmo_destroy_wait);
}

/* The id is gone and nobody else holds the object: tear it down. */
static void dxgpmo_object_free(struct dxgpmo_file *file,
			       struct dxgpmo_object *obj)
{
	obj->ops->destroy(file, obj);
	dxgpmo_count(file, obj->ops->counter, -1);
	dxgpmo_leak_forget(obj);
	kvfree(obj);
}

/*
 * Start destroying: one DESTROY at a time per object, holding a call's
 * reference of its own so the object stays while it waits.  Only the
 * destroyer frees the object, after taking it out of the table.
 */
static struct dxgpmo_object *dxgpmo_object_claim(struct dxgpmo_file *file,
						 u32 id,
						 enum dxgpmo_obj_type type)
{
	struct dxgpmo_object *obj;

	xa_lock(&file->objects);
	obj = dxgpmo_object_get_locked(file, id, type);
	if (obj && !obj->destroying) {
		obj->destroying = true;
		xa_unlock(&file->objects);
		return obj;
	}
	xa_unlock(&file->objects);
	if (!obj)
		return ERR_PTR(-ENOENT);
	dxgpmo_object_put(obj);
	return ERR_PTR(-EBUSY);
}

/*
 * Wait, until deadline, for the other calls in flight on a claimed object
 * (an ADAPTER_DMA may hold an ADL for seconds): its shortterm users are
 * then its own count and the claim's.  Waiting never makes a lookup fail.
 */
static int dxgpmo_object_settle(struct dxgpmo_object *obj,
				unsigned long deadline)
{
	refcount_t *calls = &obj->shortterm_users;
	long left = (long)(deadline - jiffies);

	if (left <= 0)
		return -EBUSY;
	left = wait_event_interruptible_timeout(dxgpmo_destroy_wait,
						refcount_read(calls) == 2,
						left);
	if (left > 0)
		return 0;
	return left < 0 ? -ERESTARTSYS : -EBUSY;
}

/*
 * Under the xarray lock, of an object found not idle: only calls in
 * flight stand in the way (one looked it up after the wait ended), no
 * child the caller does not take along.  Then the wait goes on.
 */
static bool dxgpmo_object_only_calls_locked(struct dxgpmo_object *obj,
					    unsigned int holds)
{
	/*
	 * Signed: a call half-way through its put has dropped users but not
	 * yet shortterm_users.
	 */
	return (int)refcount_read(&obj->users) -
	       (int)refcount_read(&obj->shortterm_users) <= (int)holds;
}

/*
 * Under the xarray lock: nothing holds the claimed object but its handle,
 * the claim and @holds children the caller is taking along.
 */
static bool dxgpmo_object_idle_locked(struct dxgpmo_file *file,
				      struct dxgpmo_object *obj,
				      unsigned int holds)
{
	lockdep_assert_held(&file->objects.xa_lock);
	return refcount_read(&obj->shortterm_users) == 2 &&
	       refcount_read(&obj->users) == 2 + holds;
}

/* The claim ends; the object stays as it was. */
static void dxgpmo_object_unclaim(struct dxgpmo_file *file,
				  struct dxgpmo_object *obj)
{
	xa_lock(&file->objects);
	obj->destroying = false;
	xa_unlock(&file->objects);
	dxgpmo_object_put(obj);
}

/* DESTROY / CLOSE / FREE of one handle: -EBUSY while it has children. */
int dxgpmo_object_destroy(struct dxgpmo_file *file, u32 id,
			  enum dxgpmo_obj_type type)
{
	unsigned long deadline = jiffies + DXGPMO_DESTROY_WAIT;
	struct dxgpmo_object *obj;
	int ret;

	obj = dxgpmo_object_claim(file, id, type);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	do {
		ret = dxgpmo_object_settle(obj, deadline);
		if (ret)
			break;
		xa_lock(&file->objects);
		if (dxgpmo_object_idle_locked(file, obj, 0))
			dxgpmo_object_unpublish_locked(file, obj);
		else if (dxgpmo_object_only_calls_locked(obj, 0))
			ret = -EAGAIN;
		else
			ret = -EBUSY;
		xa_unlock(&file->objects);
	} while (ret == -EAGAIN);
	if (ret) {
		dxgpmo_object_unclaim(file, obj);
		return ret;
	}
	dxgpmo_object_free(file, obj);
	return 0;
}

/*
 * A child and its parent in one step, or neither: the parent's users are
 * its handle, the claim and this child's hold.  When the pair is busy,
 * @busy_grandchildren says how many children of the child had a handle
 * at that instant, after every call in flight on the pair was over.
 */
int dxgpmo_object_destroy_pair(struct dxgpmo_file *file, u32 child_id,
			       enum dxgpmo_obj_type child_type, u32 parent_id,
			       enum dxgpmo_obj_type parent_type,
			       unsigned int *busy_grandchildren)
{
	unsigned long deadline = jiffies + DXGPMO_DESTROY_WAIT;
	struct dxgpmo_object *child, *parent;
	int ret;

	*busy_grandchildren = 0;
	parent = dxgpmo_object_claim(file, parent_id, parent_type);
	if (IS_ERR(parent))
		return PTR_ERR(parent);
	child = dxgpmo_object_claim(file, child_id, child_type);
	if (IS_ERR(child)) {
		dxgpmo_object_unclaim(file, parent);
		return PTR_ERR(child);
	}
	/* Set before the child was published: no need to wait to check it. */
	if (!child->ops->parent_of || child->ops->parent_of(child) != parent) {
		ret = -EINVAL;
		goto out_unclaim;
	}
	do {
		ret = dxgpmo_object_settle(child, deadline);
		if (!ret)
			ret = dxgpmo_object_settle(parent, deadline);
		if (ret)
			break;
		xa_lock(&file->objects);
		if (dxgpmo_object_idle_locked(file, child, 0) &&
		    dxgpmo_object_idle_locked(file, parent, 1)) {
			dxgpmo_object_unpublish_locked(file, child);
			dxgpmo_object_unpublish_locked(file, parent);
		} else if (dxgpmo_object_only_calls_locked(child, 0) &&
			   dxgpmo_object_only_calls_locked(parent, 1)) {
			ret = -EAGAIN;
		} else {
			*busy_grandchildren = child->nr_children;
			ret = -EBUSY;
		}
		xa_unlock(&file->objects);
	} while (ret == -EAGAIN);
out_unclaim:
	if (ret) {
		dxgpmo_object_unclaim(file, child);
		dxgpmo_object_unclaim(file, parent);
		return ret;
	}
	dxgpmo_object_free(file, child);
	dxgpmo_object_free(file, parent);
	return 0;
}

/*
 * Close: whatever the driver left behind is reported (leak.c), then
 * destroyed leaves first, as the references dictate (an object is taken
 * once only its handle holds it), and counted as leaked.  No call is in
 * flight any more.
 */
void dxgpmo_file_destroy(struct dxgpmo_file *file)
{
	struct dxgpmo_object *obj;
	unsigned long index;
	bool progress = true;

	dxgpmo_leak_file_del(file);
	dxgpmo_leak_report(file);
	/* No call is in flight: id_anchor is read without the lock. */
	if (file->id_anchor)
		xa_erase(&file->objects, file->id_anchor);
	while (!xa_empty(&file->objects) && progress) {
		progress = false;
		xa_for_each(&file->objects, index, obj) {
			/* Only children can hold it: no call is in flight. */
			if (refcount_read(&obj->users) != 1)
				continue;
			xa_lock(&file->objects);
			dxgpmo_object_unpublish_locked(file, obj);
			xa_unlock(&file->objects);
			dxgpmo_count_global(DXGPMO_CNT_LEAKED_OBJECTS, 1);
			if (obj->ops->leak_is_adl)
				dxgpmo_count_global(DXGPMO_CNT_LEAKED_ADLS, 1);
			dxgpmo_object_free(file, obj);
			progress = true;
		}
	}
	WARN(!xa_empty(&file->objects),
	     "dxgpmo: objects still referenced at close\n");
	xa_destroy(&file->objects);
	dxgpmo_account_put(file->account);
	kfree(file);
}
