// SPDX-License-Identifier: GPL-2.0
/*
 * Per-file object table, counters and the should-fail hook.
 *
 * Objects of one file live in an xarray under ids allocated cyclically, so a
 * stale id of a destroyed object does not name a new object until the 32-bit
 * space wraps.  Closing the file tears down what the "driver" left behind, in
 * dependency order, and counts it as leaked.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

static atomic64_t dxgpmo_global_counters[DXGPMO_NR_COUNTERS];

void dxgpmo_count_global(enum dxgpmo_counter counter, s64 delta)
{
	atomic64_add(delta, &dxgpmo_global_counters[counter]);
}

void dxgpmo_count_file(struct dxgpmo_file *file, enum dxgpmo_counter counter,
		       s64 delta)
{
	atomic64_add(delta, &file->counters[counter]);
}

void dxgpmo_count(struct dxgpmo_file *file, enum dxgpmo_counter counter,
		  s64 delta)
{
	dxgpmo_count_file(file, counter, delta);
	dxgpmo_count_global(counter, delta);
}

u64 dxgpmo_global_counter(enum dxgpmo_counter counter)
{
	return atomic64_read(&dxgpmo_global_counters[counter]);
}

/*
 * Every site that can fail for lack of a resource asks this first, so a test
 * can make the N-th such site of a file fail and check the error path.
 */
bool dxgpmo_should_fail(struct dxgpmo_file *file)
{
	int nth = atomic_read(&file->fail_nth);

	while (nth > 0) {
		if (atomic_try_cmpxchg(&file->fail_nth, &nth, nth - 1))
			return nth == 1;
	}
	return false;
}

struct dxgpmo_file *dxgpmo_file_alloc(void)
{
	struct dxgpmo_file *file = kzalloc(sizeof(*file), GFP_KERNEL_ACCOUNT);

	if (!file)
		return NULL;
	mutex_init(&file->lock);
	xa_init_flags(&file->objects, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&file->adls);
	mt_init(&file->windows);
	return file;
}

int dxgpmo_object_insert(struct dxgpmo_file *file, struct dxgpmo_object *obj,
			 enum dxgpmo_obj_type type)
{
	int ret;

	lockdep_assert_held(&file->lock);
	if (dxgpmo_should_fail(file))
		return -ENOMEM;
	obj->type = type;
	ret = xa_alloc_cyclic(&file->objects, &obj->id, obj, xa_limit_32b,
			      &file->next_id, GFP_KERNEL_ACCOUNT);
	return ret < 0 ? ret : 0;
}

void dxgpmo_object_remove(struct dxgpmo_file *file, struct dxgpmo_object *obj)
{
	lockdep_assert_held(&file->lock);
	xa_erase(&file->objects, obj->id);
}

struct dxgpmo_object *dxgpmo_object_find(struct dxgpmo_file *file, u32 id,
					 enum dxgpmo_obj_type type)
{
	struct dxgpmo_object *obj;

	lockdep_assert_held(&file->lock);
	if (!id)
		return NULL;
	obj = xa_load(&file->objects, id);
	if (!obj || obj->type != type)
		return NULL;
	return obj;
}

/* Teardown order: what depends on an object goes before the object. */
static const enum dxgpmo_obj_type dxgpmo_teardown_order[] = {
	DXGPMO_OBJ_MAP,
	DXGPMO_OBJ_ADL,
	DXGPMO_OBJ_AMO,
	DXGPMO_OBJ_PMO,
	DXGPMO_OBJ_BASIS,
};

void dxgpmo_file_destroy(struct dxgpmo_file *file)
{
	struct dxgpmo_object *obj;
	unsigned long index;
	unsigned int i;

	mutex_lock(&file->lock);
	for (i = 0; i < ARRAY_SIZE(dxgpmo_teardown_order); i++) {
		xa_for_each(&file->objects, index, obj) {
			if (obj->type != dxgpmo_teardown_order[i])
				continue;
			dxgpmo_count_global(DXGPMO_CNT_LEAKED_OBJECTS, 1);
			if (obj->type == DXGPMO_OBJ_ADL)
				dxgpmo_count_global(DXGPMO_CNT_LEAKED_ADLS, 1);
			dxgpmo_object_remove(file, obj);
			dxgpmo_object_release(file, obj);
		}
	}
	mutex_unlock(&file->lock);
	WARN_ON(!xa_empty(&file->objects));
	xa_destroy(&file->objects);
	mtree_destroy(&file->windows);
	mutex_destroy(&file->lock);
	kfree(file);
}

static void dxgpmo_counters_fill(struct dxgpmo_counters *out,
				 u64 (*read)(void *ctx, enum dxgpmo_counter c),
				 void *ctx)
{
	out->pmos = read(ctx, DXGPMO_CNT_PMOS);
	out->amos = read(ctx, DXGPMO_CNT_AMOS);
	out->adls = read(ctx, DXGPMO_CNT_ADLS);
	out->maps = read(ctx, DXGPMO_CNT_MAPS);
	out->bases = read(ctx, DXGPMO_CNT_BASES);
	out->pages = read(ctx, DXGPMO_CNT_PAGES);
	out->dma_mapped_pages = read(ctx, DXGPMO_CNT_DMA_MAPPED_PAGES);
	out->leaked_objects = read(ctx, DXGPMO_CNT_LEAKED_OBJECTS);
	out->leaked_adls = read(ctx, DXGPMO_CNT_LEAKED_ADLS);
	out->segment_pages = read(ctx, DXGPMO_CNT_SEGMENT_PAGES);
}

static u64 dxgpmo_read_global(void *ctx, enum dxgpmo_counter c)
{
	return dxgpmo_global_counter(c);
}

static u64 dxgpmo_read_file(void *ctx, enum dxgpmo_counter c)
{
	struct dxgpmo_file *file = ctx;

	return atomic64_read(&file->counters[c]);
}

int dxgpmo_ioctl_stats(struct dxgpmo_ucmd *ucmd)
{
	struct dxgpmo_stats *cmd = ucmd->cmd;

	if (cmd->flags)
		return -EINVAL;
	memset(&cmd->global, 0, sizeof(cmd->global));
	memset(&cmd->file, 0, sizeof(cmd->file));
	dxgpmo_counters_fill(&cmd->global, dxgpmo_read_global, NULL);
	dxgpmo_counters_fill(&cmd->file, dxgpmo_read_file, ucmd->file);
	return dxgpmo_ucmd_respond(ucmd, sizeof(*cmd));
}

static struct dentry *dxgpmo_debugfs_dir;

static const char *const dxgpmo_counter_names[DXGPMO_NR_COUNTERS] = {
	[DXGPMO_CNT_PMOS] = "pmos",
	[DXGPMO_CNT_AMOS] = "amos",
	[DXGPMO_CNT_ADLS] = "adls",
	[DXGPMO_CNT_MAPS] = "maps",
	[DXGPMO_CNT_BASES] = "bases",
	[DXGPMO_CNT_PAGES] = "pages",
	[DXGPMO_CNT_DMA_MAPPED_PAGES] = "dma_mapped_pages",
	[DXGPMO_CNT_LEAKED_OBJECTS] = "leaked_objects",
	[DXGPMO_CNT_LEAKED_ADLS] = "leaked_adls",
	[DXGPMO_CNT_SEGMENT_PAGES] = "segment_pages",
};

static int dxgpmo_stats_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	for (i = 0; i < DXGPMO_NR_COUNTERS; i++)
		seq_printf(m, "%s %llu\n", dxgpmo_counter_names[i],
			   dxgpmo_global_counter(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dxgpmo_stats);

void dxgpmo_debugfs_init(void)
{
	dxgpmo_debugfs_dir = debugfs_create_dir("dxgpmo", NULL);
	debugfs_create_file("stats", 0400, dxgpmo_debugfs_dir, NULL,
			    &dxgpmo_stats_fops);
}

void dxgpmo_debugfs_exit(void)
{
	debugfs_remove_recursive(dxgpmo_debugfs_dir);
}
