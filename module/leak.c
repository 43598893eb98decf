// SPDX-License-Identifier: GPL-2.0
/*
 * Leak hunting, as Driver Verifier does it for a Windows driver: every
 * live object names the process that made it (and, with leak_stacks=1,
 * the kernel stack it was made from, as kmemleak and page_owner record
 * one); debugfs lists the objects of every open file; with leak_report=1
 * a close reports each object the file leaves behind, as Verifier does
 * at a driver's unload.  Messages name a file by its id and its opener,
 * and an object by the handle its caller holds.
 *
 * The open files are in an xarray by their ids, with a mutex of its own
 * taken at open, close and by the view while it fills its buffer: an
 * object's create takes no lock of it.  The view is a record a file and a
 * record an object, each object shown under its file's xarray lock, which
 * keeps a published object from being freed (object.c frees an object
 * only once it took it out under that lock); between records no lock is
 * held, so a file of a million objects is read in pieces, and neither its
 * owner nor an open or close waits for the whole.
 */
#include <linux/ctype.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/xarray.h>

#include "dxgpmo.h"
#include "leak.h"
#include "object.h"

/* Frames kept of a create's stack: the command and the call that led to it. */
#define DXGPMO_LEAK_STACK_DEPTH	16

/*
 * A close lists this many objects at most, and prints the stacks of the
 * first few of them; the summary counts every object by type, and the
 * view lists them all while the file is open.
 */
#define DXGPMO_LEAK_REPORT_LIST		8
#define DXGPMO_LEAK_REPORT_STACKS	2

struct dxgpmo_leak_stack {
	unsigned int nr;
	unsigned long entries[DXGPMO_LEAK_STACK_DEPTH];
};

/*
 * A fixed array rather than the stack depot: the depot's users must call
 * stack_depot_init() early or from a context that may allocate large
 * tables, and a kernel built without CONFIG_STACKDEPOT has none.
 */
bool dxgpmo_leak_stacks;
module_param_named(leak_stacks, dxgpmo_leak_stacks, bool, 0644);
MODULE_PARM_DESC(leak_stacks,
		 "Record the kernel stack each object is created from, for debugfs dxgpmo/objects and leak_report (default 0)");

static bool dxgpmo_leak_report_on;
module_param_named(leak_report, dxgpmo_leak_report_on, bool, 0644);
MODULE_PARM_DESC(leak_report,
		 "Report every object a file leaves behind when it is closed, as Driver Verifier does at unload (default 0)");

/*
 * id -> open file.  Ids are cyclic: unique among the open files, and a
 * closed file's id comes back only after the others did.  They stay
 * below 2^31, so that the view's position (below) is a positive loff_t.
 */
static DEFINE_XARRAY_ALLOC1(dxgpmo_leak_files);
static u32 dxgpmo_leak_next_file_id;
static DEFINE_MUTEX(dxgpmo_leak_files_lock);

/*
 * A close's report is one unit: five files in five seconds, then a
 * count of those suppressed; within one, DXGPMO_LEAK_REPORT_LIST lines
 * and DXGPMO_LEAK_REPORT_STACKS stacks.  Only a close that leaked counts.
 */
static DEFINE_RATELIMIT_STATE(dxgpmo_leak_report_rs, 5 * HZ, 5);

static const char *const dxgpmo_leak_type_names[] = {
	[DXGPMO_OBJ_PMO] = "pmo",
	[DXGPMO_OBJ_AMO] = "amo",
	[DXGPMO_OBJ_ADL] = "adl",
	[DXGPMO_OBJ_MAP] = "map",
	[DXGPMO_OBJ_BASIS] = "basis",
};

static const char *const dxgpmo_leak_cache_names[] = {
	[DXGPMO_CACHE_NON_CACHED] = "non-cached",
	[DXGPMO_CACHE_CACHED] = "cached",
	[DXGPMO_CACHE_WRITE_COMBINED] = "write-combined",
};

/*
 * A task's name, as printable ASCII: a name may hold any byte
 * (PR_SET_NAME), a newline too, which would forge a line of the view or
 * the log.  name need not end in a NUL (a torn copy).  The rest of the
 * len bytes of buf are zeroed.
 */
static void dxgpmo_leak_printable(char *buf, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len && name[i]; i++)
		buf[i] = isascii(name[i]) && isprint(name[i]) ? name[i] : '?';
	memset(buf + i, 0, len - i);
}

/* The calling task's name, printable, in at most TASK_COMM_LEN bytes. */
void dxgpmo_leak_copy_comm(char *buf, size_t len)
{
	char comm[TASK_COMM_LEN];

	/* set_task_comm() may write it meanwhile: a torn name will do. */
	data_race(memcpy(comm, current->comm, sizeof(comm)));
	dxgpmo_leak_printable(buf, comm, min(len, sizeof(comm)));
}

/*
 * The file gets its id, and its opener is noted once, at open: a process
 * (in its context), or the module of a kernel client (client), whichever
 * task opened it.
 */
int dxgpmo_leak_file_add(struct dxgpmo_file *file, const char *client)
{
	int ret;

	if (client) {
		strscpy(file->opener, client, sizeof(file->opener));
	} else {
		file->opener_tgid = task_tgid_nr(current);
		dxgpmo_leak_copy_comm(file->opener, sizeof(file->opener));
	}
	mutex_lock(&dxgpmo_leak_files_lock);
	ret = xa_alloc_cyclic(&dxgpmo_leak_files, &file->id, file,
			      XA_LIMIT(1, INT_MAX), &dxgpmo_leak_next_file_id,
			      GFP_KERNEL);
	mutex_unlock(&dxgpmo_leak_files_lock);
	return ret < 0 ? ret : 0;
}

/* Once it returns, the view does not show the file, nor look at it. */
void dxgpmo_leak_file_del(struct dxgpmo_file *file)
{
	mutex_lock(&dxgpmo_leak_files_lock);
	xa_erase(&dxgpmo_leak_files, file->id);
	mutex_unlock(&dxgpmo_leak_files_lock);
}

void dxgpmo_leak_save_stack(struct dxgpmo_object *obj)
{
	struct dxgpmo_leak_stack *stack;

	/* Best effort: an object without its stack is still an object. */
	stack = kmalloc(sizeof(*stack), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!stack)
		return;
	/* Skips this function: the stack starts at the object's alloc. */
	stack->nr = stack_trace_save(stack->entries, ARRAY_SIZE(stack->entries),
				     1);
	obj->stack = stack;
}

void dxgpmo_leak_forget(struct dxgpmo_object *obj)
{
	kfree(obj->stack);
}

/* "comm[tgid]" of a file's opener, or its kernel client's module. */
static void dxgpmo_leak_opener(const struct dxgpmo_file *file, char *buf,
			       size_t len)
{
	if (file->kernel_client)
		snprintf(buf, len, "%s", file->opener);
	else
		snprintf(buf, len, "%s[%d]", file->opener, file->opener_tgid);
}

/*
 * Who is calling on file now: the calling process, or the kernel client
 * (whichever task its driver calls from).
 */
void dxgpmo_leak_caller(const struct dxgpmo_file *file, char *buf, size_t len)
{
	char comm[TASK_COMM_LEN];

	if (file->kernel_client) {
		snprintf(buf, len, "%s", file->opener);
		return;
	}
	dxgpmo_leak_copy_comm(comm, sizeof(comm));
	snprintf(buf, len, "%s[%d]", comm, task_tgid_nr(current));
}

/*
 * A Context as the kernel log may show it: a kernel driver's may be a
 * pointer (a ported driver's own structure), hashed as %p hashes one; a
 * process's is a number it chose.  The root-only view and trace events
 * show it as given.
 */
void dxgpmo_leak_context(const struct dxgpmo_file *file, u64 context,
			 char *buf, size_t len)
{
	if (file->kernel_client)
		snprintf(buf, len, "%p", (void *)(uintptr_t)context);
	else
		snprintf(buf, len, "0x%llx", context);
}

/* One object as the view (for_log false) and the report show it. */
static void dxgpmo_leak_format(const struct dxgpmo_file *file,
			       const struct dxgpmo_object *obj, bool for_log,
			       char *buf, size_t len)
{
	struct dxgpmo_object_desc desc = { .cache_type = -1 };
	char context[24], comm[TASK_COMM_LEN];
	const char *cache = "-";

	if (obj->ops->describe)
		obj->ops->describe(obj, &desc);
	/* -1 (none) is out of range too. */
	if ((unsigned int)desc.cache_type < ARRAY_SIZE(dxgpmo_leak_cache_names))
		cache = dxgpmo_leak_cache_names[desc.cache_type];
	if (for_log)
		dxgpmo_leak_context(file, desc.context, context,
				    sizeof(context));
	else
		snprintf(context, sizeof(context), "0x%llx", desc.context);
	dxgpmo_leak_printable(comm, obj->creator_comm, sizeof(comm));
	snprintf(buf, len,
		 "handle 0x%llx %s size %llu cache %s context %s pid %d comm %s",
		 dxgpmo_object_handle(file, obj->id),
		 dxgpmo_leak_type_names[obj->type], desc.size, cache, context,
		 obj->creator_tgid, comm);
}

/*
 * Close with leak_report=1: what the file leaves, before any of it goes.
 * No call is in flight any more, so nothing changes under it.
 */
void dxgpmo_leak_report(struct dxgpmo_file *file)
{
	unsigned long index, nr = 0, listed = 0, stacks = 0;
	char opener[DXGPMO_LEAK_NAME_LEN], line[192];
	unsigned long nr_of[DXGPMO_OBJ_BASIS + 1] = { 0 };
	struct dxgpmo_object *obj;

	if (!READ_ONCE(dxgpmo_leak_report_on))
		return;
	/* Reserved ids are skipped: a clean close counts nothing. */
	xa_for_each(&file->objects, index, obj) {
		nr++;
		nr_of[obj->type]++;
	}
	if (!nr || !__ratelimit(&dxgpmo_leak_report_rs))
		return;
	dxgpmo_leak_opener(file, opener, sizeof(opener));
	xa_for_each(&file->objects, index, obj) {
		if (listed++ == DXGPMO_LEAK_REPORT_LIST)
			break;
		dxgpmo_leak_format(file, obj, true, line, sizeof(line));
		pr_warn("dxgpmo: file %u (%s) leaked %s\n", file->id, opener,
			line);
		if (obj->stack && stacks++ < DXGPMO_LEAK_REPORT_STACKS)
			stack_trace_print(obj->stack->entries, obj->stack->nr,
					  4);
	}
	pr_warn("dxgpmo: file %u (%s) closed with %lu object(s) alive (%lu pmo, %lu amo, %lu adl, %lu map, %lu basis), %lu not listed: all destroyed\n",
		file->id, opener, nr, nr_of[DXGPMO_OBJ_PMO],
		nr_of[DXGPMO_OBJ_AMO], nr_of[DXGPMO_OBJ_ADL],
		nr_of[DXGPMO_OBJ_MAP], nr_of[DXGPMO_OBJ_BASIS],
		nr > DXGPMO_LEAK_REPORT_LIST ? nr - DXGPMO_LEAK_REPORT_LIST : 0);
}

/*
 * debugfs dxgpmo/objects: a record for each open file, then one for each
 * of its live objects.  A position is the file's id and the object's (0
 * for the file's own line), so that a read resumed after a file or an
 * object went finds the next one.
 */
struct dxgpmo_leak_iter {
	struct dxgpmo_file *file;	/* under dxgpmo_leak_files_lock */
	unsigned long oid;
};

#define DXGPMO_LEAK_POS(fid, oid)	(((loff_t)(fid) << 32) | (oid))

/* The record at *pos or the first after it, *pos moved to it; or NULL. */
static void *dxgpmo_leak_seek(struct dxgpmo_leak_iter *it, loff_t *pos)
{
	unsigned long want = (u64)*pos >> 32, fid = want;
	unsigned long oid = *pos & U32_MAX;
	struct dxgpmo_file *file;

	lockdep_assert_held(&dxgpmo_leak_files_lock);
	while ((file = xa_find(&dxgpmo_leak_files, &fid, INT_MAX,
			       XA_PRESENT))) {
		if (fid != want)
			oid = 0;
		/* Only the id is kept: the object is looked up again. */
		if (!oid || xa_find(&file->objects, &oid, U32_MAX, XA_PRESENT)) {
			it->file = file;
			it->oid = oid;
			*pos = DXGPMO_LEAK_POS(fid, oid);
			return it;
		}
		want = ++fid;
		oid = 0;
	}
	return NULL;
}

static void *dxgpmo_leak_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&dxgpmo_leak_files_lock);
	return dxgpmo_leak_seek(m->private, pos);
}

static void *dxgpmo_leak_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct dxgpmo_leak_iter *it = v;

	*pos = DXGPMO_LEAK_POS(it->file->id, it->oid) + 1;
	return dxgpmo_leak_seek(it, pos);
}

static void dxgpmo_leak_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&dxgpmo_leak_files_lock);
}

static int dxgpmo_leak_show(struct seq_file *m, void *v)
{
	struct dxgpmo_leak_iter *it = v;
	struct dxgpmo_file *file = it->file;
	struct dxgpmo_object *obj;
	char line[192];
	unsigned int i;

	if (!it->oid) {
		if (file->kernel_client)
			seq_printf(m, "file %u client %s\n", file->id,
				   file->opener);
		else
			seq_printf(m, "file %u pid %d comm %s\n", file->id,
				   file->opener_tgid, file->opener);
		return 0;
	}
	xa_lock(&file->objects);
	/* Destroyed since it was found: nothing to show. */
	obj = xa_load(&file->objects, it->oid);
	if (obj) {
		dxgpmo_leak_format(file, obj, false, line, sizeof(line));
		seq_printf(m, "  %s\n", line);
		for (i = 0; obj->stack && i < obj->stack->nr; i++)
			seq_printf(m, "    %pS\n",
				   (void *)obj->stack->entries[i]);
	}
	xa_unlock(&file->objects);
	return 0;
}

static const struct seq_operations dxgpmo_leak_objects_sops = {
	.start = dxgpmo_leak_start,
	.next = dxgpmo_leak_next,
	.stop = dxgpmo_leak_stop,
	.show = dxgpmo_leak_show,
};

int dxgpmo_leak_objects_open(struct inode *inode, struct file *filp)
{
	return seq_open_private(filp, &dxgpmo_leak_objects_sops,
				sizeof(struct dxgpmo_leak_iter));
}
