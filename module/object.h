/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The objects of one open file and how they live.
 *
 * Every handle a caller gets (PMO, AMO, ADL, CPU map, memory basis) is a
 * struct dxgpmo_object in the file's xarray.  users counts the handle
 * itself, every child that points at the object (ADL -> AMO -> PMO,
 * map -> PMO) and every call that is using it right now.  Creation is
 * alloc (the id is reserved, invisible), then either finalize (visible
 * to lookups) or abort.  DESTROY waits for the calls in flight on the
 * object (shortterm_users) and then takes the handle only if its users
 * count is exactly one: an object that still has children is -EBUSY, never
 * a use-after-free.  No lock of the file is held while an object is used:
 * the reference keeps it.
 */
#ifndef _DXGPMO_OBJECT_H
#define _DXGPMO_OBJECT_H

#include <linux/atomic.h>
#include <linux/container_of.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "dxgpmo.h"
#include "stats.h"

struct dxgpmo_account;
struct dxgpmo_leak_stack;
struct dxgpmo_ucmd;

/* Holds a module's name (MODULE_NAME_LEN on 64-bit) or a task's comm. */
#define DXGPMO_OPENER_LEN	56

/*
 * One open file of /dev/dxgpmo, or one kernel client (client.c): one
 * "driver instance".
 */
struct dxgpmo_file {
	struct xarray objects;		/* id -> struct dxgpmo_object */
	/*
	 * Names the file in debugfs, trace events and messages: unique
	 * among the files alive, not reused until 2^32 opens.
	 */
	u32 id;
	/*
	 * The caller's handle of object id is handle_base | id: 0 for the
	 * module's own ids, the interface's id << 32 for a DXGKRNL_INTERFACE
	 * (dxgkrnl.c), so that a message names the handle the driver holds.
	 */
	u64 handle_base;
	/*
	 * Who opened it, for the messages and views of leak.c: a process
	 * (its tgid and comm at open) or a kernel client (tgid 0, the
	 * name of its module).
	 */
	pid_t opener_tgid;
	char opener[DXGPMO_OPENER_LEN];
	/* On leak.c's list of open files, under its lock. */
	struct list_head leak_node;
	/*
	 * mmap pgoff -> struct dxgpmo_window.  Not a maple tree: windows come
	 * and go at the top of the offset space, and with a full last node
	 * (at some object counts) a maple tree split it on every create and
	 * merged it back on every destroy, 6x their usual cost.  An rbtree
	 * node lives in its window: nothing to allocate, no such counts.
	 */
	struct rb_root windows;
	spinlock_t windows_lock;	/* windows */
	struct address_space *mapping;	/* shared by all files, for zapping */
	struct dxgpmo_account *account;
	/* Under objects' xa_lock (object.c). */
	u32 next_id;
	u32 id_anchor;			/* reserved id; 0: none */
	/* Its pages are the account's; the rest cannot outlive the file. */
	atomic64_t counters[DXGPMO_NR_COUNTERS];
#ifdef DXGPMO_TEST
	/* Countdown to the should-fail point that fails; 0 = off (test.h). */
	atomic_t fail_nth;
#endif
	/* The opener's capabilities (privilege.c). */
	bool opener_sys_rawio;
	bool opener_sys_admin;
	/* A kernel driver's (client.c): trusted as kernel code is. */
	bool kernel_client;
};

/*
 * What the views and messages of leak.c say of one object, beside its
 * handle and type: the Context is its PMO's (the one a driver sets).
 */
struct dxgpmo_object_desc {
	u64 size;
	u64 context;
	int cache_type;			/* %DXGPMO_CACHE_*; -1: none */
};

enum dxgpmo_obj_type {
	DXGPMO_OBJ_PMO = 1,
	DXGPMO_OBJ_AMO,
	DXGPMO_OBJ_ADL,
	DXGPMO_OBJ_MAP,
	DXGPMO_OBJ_BASIS,
};

struct dxgpmo_object;

/**
 * struct dxgpmo_object_ops - what one type of object does its own way
 * @destroy: undoes whatever of the object was made and drops its
 *	references on parents; never frees the object itself.  Must cope
 *	with an object that was aborted half made.
 * @abort: optional; the undo of a complete object that was never
 *	published (its call failed to answer), where that differs from
 *	@destroy; it does @destroy's work too.  As iommufd's ops' abort.
 * @parent_of: the object a child holds (DESTROY of both at once checks it)
 * @counter: the counter of live objects of the type
 * @leak_is_adl: one left at close is also a leaked ADL
 * @describe: fills what leak.c shows of a published object; called with
 *	the file's xarray lock held or at close, so it only reads fields set
 *	before the object was published and its parents' (which it holds).
 *
 * An object is made by dxgpmo_object_alloc(), filled, then published by
 * dxgpmo_object_finalize() (usually through
 * dxgpmo_ucmd_respond_finalize()) or undone by
 * dxgpmo_object_abort_and_destroy().
 */
struct dxgpmo_object_ops {
	void (*destroy)(struct dxgpmo_file *file, struct dxgpmo_object *obj);
	void (*abort)(struct dxgpmo_file *file, struct dxgpmo_object *obj);
	struct dxgpmo_object *(*parent_of)(struct dxgpmo_object *obj);
	void (*describe)(const struct dxgpmo_object *obj,
			 struct dxgpmo_object_desc *desc);
	enum dxgpmo_counter counter;
	bool leak_is_adl;
};

struct dxgpmo_object {
	/* The handle, every child, every call in flight. */
	refcount_t users;
	/* The object itself and every call in flight: what DESTROY waits for. */
	refcount_t shortterm_users;
	u32 id;
	enum dxgpmo_obj_type type;
	bool destroying;		/* under the xarray lock */
	/*
	 * Children that have a handle, under the xarray lock: the instant
	 * a FREE takes a child's handle out, it stops counting here.
	 */
	unsigned int nr_children;
	const struct dxgpmo_object_ops *ops;
	/*
	 * Who made it, for leak.c: the file may be shared or inherited, so
	 * its opener need not be the creator.  The stack only with
	 * leak_stacks=1.
	 */
	pid_t creator_tgid;
	char creator_comm[TASK_COMM_LEN];
	struct dxgpmo_leak_stack *stack;
};

/* container_of() that passes an ERR_PTR() through. */
#define dxgpmo_container_of_err(ptr, type, member)			\
	({								\
		void *__ptr = (ptr);					\
		IS_ERR(__ptr) ? ERR_CAST(__ptr) :			\
				container_of(__ptr, type, member);	\
	})

struct dxgpmo_file *dxgpmo_file_alloc(const char *client);

/* The handle the caller knows the object by (handle_base above). */
static inline u64 dxgpmo_object_handle(const struct dxgpmo_file *file,
				       u32 id)
{
	return READ_ONCE(file->handle_base) | id;
}

void dxgpmo_file_destroy(struct dxgpmo_file *file);

struct dxgpmo_object *
__dxgpmo_object_alloc(struct dxgpmo_file *file, size_t size,
		      enum dxgpmo_obj_type type,
		      const struct dxgpmo_object_ops *ops);
/* The object header comes first: the table frees what it allocated. */
#define dxgpmo_object_alloc(file, type, obj_type, ops)			\
	dxgpmo_container_of_err(__dxgpmo_object_alloc(file, sizeof(type), \
						      obj_type, ops),	\
				type, obj)
void dxgpmo_object_finalize(struct dxgpmo_file *file,
			    struct dxgpmo_object *obj);
void dxgpmo_object_abort(struct dxgpmo_file *file, struct dxgpmo_object *obj);
void dxgpmo_object_abort_and_destroy(struct dxgpmo_file *file,
				     struct dxgpmo_object *obj);
int dxgpmo_ucmd_respond_finalize(struct dxgpmo_ucmd *ucmd, size_t cmd_len,
				 struct dxgpmo_object *obj);
int dxgpmo_ucmd_respond_finalize_pair(struct dxgpmo_ucmd *ucmd,
				      size_t cmd_len,
				      struct dxgpmo_object *obj,
				      struct dxgpmo_object *child);

struct dxgpmo_object *dxgpmo_object_get(struct dxgpmo_file *file, u32 id,
					enum dxgpmo_obj_type type);
void dxgpmo_object_put(struct dxgpmo_object *obj);

/*
 * A child's reference on its parent, taken while the child is made (the
 * caller holds a call's reference), dropped by the child's destroy.
 */
static inline void dxgpmo_object_hold(struct dxgpmo_object *obj)
{
	refcount_inc(&obj->users);
}

static inline void dxgpmo_object_unhold(struct dxgpmo_object *obj)
{
	refcount_dec(&obj->users);
}

int dxgpmo_object_destroy(struct dxgpmo_file *file, u32 id,
			  enum dxgpmo_obj_type type);
int dxgpmo_object_destroy_pair(struct dxgpmo_file *file, u32 child_id,
			       enum dxgpmo_obj_type child_type, u32 parent_id,
			       enum dxgpmo_obj_type parent_type,
			       unsigned int *busy_grandchildren);

#endif /* _DXGPMO_OBJECT_H */
