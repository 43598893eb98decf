/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Leak hunting: who made each live object, the open files' objects as a
 * debugfs view, the report of what a file leaves behind at close, and the
 * names the messages give a caller and its handles.
 */
#ifndef _DXGPMO_LEAK_H
#define _DXGPMO_LEAK_H

#include <linux/compiler.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>

#include "object.h"

struct file;
struct inode;

/* A task's "comm[tgid]" or a kernel client's module name. */
#define DXGPMO_LEAK_NAME_LEN	(DXGPMO_OPENER_LEN + 16)

extern bool dxgpmo_leak_stacks;

int dxgpmo_leak_file_add(struct dxgpmo_file *file, const char *client);
void dxgpmo_leak_file_del(struct dxgpmo_file *file);
void dxgpmo_leak_save_stack(struct dxgpmo_object *obj);
void dxgpmo_leak_forget(struct dxgpmo_object *obj);
void dxgpmo_leak_report(struct dxgpmo_file *file);
int dxgpmo_leak_objects_open(struct inode *inode, struct file *filp);
void dxgpmo_leak_caller(const struct dxgpmo_file *file, char *buf,
			size_t len);
void dxgpmo_leak_context(const struct dxgpmo_file *file, u64 context,
			 char *buf, size_t len);
void dxgpmo_leak_copy_comm(char *buf, size_t len);

/* The names are copied TASK_COMM_LEN bytes at a time from current->comm. */
static_assert(sizeof_field(struct task_struct, comm) >= TASK_COMM_LEN);
static_assert(sizeof_field(struct dxgpmo_object, creator_comm) ==
	      TASK_COMM_LEN);

/*
 * Every create pays for the creator's name, a copy of 16 bytes: it is
 * made printable when it is shown, not on every create (a sixth of an
 * object's making under TCG was that).  The stack costs a branch unless
 * leak_stacks=1.
 */
static inline void dxgpmo_leak_note_create(struct dxgpmo_object *obj)
{
	obj->creator_tgid = task_tgid_nr(current);
	/* Another thread may rename the task meanwhile: a torn name will do. */
	data_race(memcpy(obj->creator_comm, current->comm,
			 sizeof(obj->creator_comm)));
	if (unlikely(READ_ONCE(dxgpmo_leak_stacks)))
		dxgpmo_leak_save_stack(obj);
}

#endif /* _DXGPMO_LEAK_H */
