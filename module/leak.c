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
 * The list of open files has a mutex of its own, taken at open, close
 * and by the view: an object's create takes no lock of it.  The view
 * walks a file's objects under the file's xarray lock, which keeps every
 * published object from being freed (object.c frees an object only once
 * it took it out under that lock).
 */
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>

#include "dxgpmo.h"
#include "leak.h"
#include "object.h"

/* Frames kept of a create's stack: the command and the call that led to it. */
#define DXGPMO_LEAK_STACK_DEPTH	16

/* A close lists this many objects at most; the summary counts the rest. */
#define DXGPMO_LEAK_REPORT_MAX	64

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

static LIST_HEAD(dxgpmo_leak_files);
static DEFINE_MUTEX(dxgpmo_leak_files_lock);

/*
 * A close's report is one unit: ten files in five seconds, then a
 * count of those suppressed.  Within one, DXGPMO_LEAK_REPORT_MAX.
 */
static DEFINE_RATELIMIT_STATE(dxgpmo_leak_report_rs, 5 * HZ, 10);

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
 * The opener is noted once, at open: a process (in its context), or the
 * module of a kernel client (client), whichever task opened it.
 */
void dxgpmo_leak_file_add(struct dxgpmo_file *file, const char *client)
{
	if (client) {
		strscpy(file->opener, client, sizeof(file->opener));
	} else {
		file->opener_tgid = task_tgid_nr(current);
		strscpy(file->opener, current->comm, sizeof(file->opener));
	}
	mutex_lock(&dxgpmo_leak_files_lock);
	list_add_tail(&file->leak_node, &dxgpmo_leak_files);
	mutex_unlock(&dxgpmo_leak_files_lock);
}

void dxgpmo_leak_file_del(struct dxgpmo_file *file)
{
	mutex_lock(&dxgpmo_leak_files_lock);
	list_del(&file->leak_node);
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
	if (file->kernel_client)
		snprintf(buf, len, "%s", file->opener);
	else
		snprintf(buf, len, "%s[%d]", current->comm,
			 task_tgid_nr(current));
}

/* One object as the view and the report show it. */
static void dxgpmo_leak_format(const struct dxgpmo_file *file,
			       const struct dxgpmo_object *obj, char *buf,
			       size_t len)
{
	struct dxgpmo_object_desc desc = { .cache_type = -1 };
	const char *cache = "-";

	if (obj->ops->describe)
		obj->ops->describe(obj, &desc);
	/* -1 (none) is out of range too. */
	if ((unsigned int)desc.cache_type < ARRAY_SIZE(dxgpmo_leak_cache_names))
		cache = dxgpmo_leak_cache_names[desc.cache_type];
	snprintf(buf, len,
		 "handle 0x%llx %s size %llu cache %s context 0x%llx pid %d comm %s",
		 dxgpmo_object_handle(file, obj->id),
		 dxgpmo_leak_type_names[obj->type], desc.size, cache,
		 desc.context, obj->creator_tgid, obj->creator_comm);
}

/*
 * Close with leak_report=1: every object the file leaves, before any
 * goes.  No call is in flight any more, so nothing changes under it.
 */
void dxgpmo_leak_report(struct dxgpmo_file *file)
{
	char opener[DXGPMO_LEAK_NAME_LEN], line[192];
	unsigned long index, nr = 0, nr_adls = 0;
	struct dxgpmo_object *obj;

	if (!READ_ONCE(dxgpmo_leak_report_on) || xa_empty(&file->objects))
		return;
	if (!__ratelimit(&dxgpmo_leak_report_rs))
		return;
	dxgpmo_leak_opener(file, opener, sizeof(opener));
	xa_for_each(&file->objects, index, obj) {
		if (obj->type == DXGPMO_OBJ_ADL)
			nr_adls++;
		if (nr++ >= DXGPMO_LEAK_REPORT_MAX)
			continue;
		dxgpmo_leak_format(file, obj, line, sizeof(line));
		pr_warn("dxgpmo: file %u (%s) leaked %s\n", file->id, opener,
			line);
		if (obj->stack)
			stack_trace_print(obj->stack->entries, obj->stack->nr,
					  4);
	}
	if (!nr)
		return;
	pr_warn("dxgpmo: file %u (%s) closed with %lu object(s) alive, %lu of them ADL(s), %lu not listed: all destroyed\n",
		file->id, opener, nr, nr_adls,
		nr > DXGPMO_LEAK_REPORT_MAX ? nr - DXGPMO_LEAK_REPORT_MAX : 0);
}

static void dxgpmo_leak_show_file(struct seq_file *m,
				  struct dxgpmo_file *file)
{
	char line[192];
	struct dxgpmo_object *obj;
	unsigned long index;
	unsigned int i;

	if (file->kernel_client)
		seq_printf(m, "file %u client %s\n", file->id, file->opener);
	else
		seq_printf(m, "file %u pid %d comm %s\n", file->id,
			   file->opener_tgid, file->opener);
	xa_lock(&file->objects);
	xa_for_each(&file->objects, index, obj) {
		dxgpmo_leak_format(file, obj, line, sizeof(line));
		seq_printf(m, "  %s\n", line);
		for (i = 0; obj->stack && i < obj->stack->nr; i++)
			seq_printf(m, "    %pS\n",
				   (void *)obj->stack->entries[i]);
	}
	xa_unlock(&file->objects);
}

/* debugfs dxgpmo/objects: every open file and its live objects. */
int dxgpmo_leak_show(struct seq_file *m)
{
	struct dxgpmo_file *file;

	mutex_lock(&dxgpmo_leak_files_lock);
	list_for_each_entry(file, &dxgpmo_leak_files, leak_node)
		dxgpmo_leak_show_file(m, file);
	mutex_unlock(&dxgpmo_leak_files_lock);
	return 0;
}
