// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs: the module's counters (stats.c), its page pool (pool.c) and
 * the live objects of every open file (leak.c), for root, as text a test
 * or an administrator reads.  Not an ABI; the STATS ioctl is.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "debugfs.h"
#include "dxgpmo.h"
#include "leak.h"
#include "pool.h"
#include "stats.h"

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
	[DXGPMO_CNT_KMAP_PAGES] = "kmap_pages",
	[DXGPMO_CNT_SECTION_VIEW_PAGES] = "section_view_pages",
	[DXGPMO_CNT_CLEANED_KVIEW_PAGES] = "cleaned_kview_pages",
	[DXGPMO_CNT_SEGMENT_PMD_MAPS] = "segment_pmd_maps",
};

static int dxgpmo_stats_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	for (i = 0; i < DXGPMO_NR_COUNTERS; i++)
		seq_printf(m, "%s %llu\n", dxgpmo_counter_names[i],
			   dxgpmo_stats_read_global(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dxgpmo_stats);

static int dxgpmo_pool_show(struct seq_file *m, void *unused)
{
	struct dxgpmo_pool_stats stats;

	dxgpmo_pool_read_stats(&stats);
	seq_printf(m, "pages %llu\nhit_pages %llu\nmiss_pages %llu\nshrunk_pages %llu\ncap_pages %lu\n",
		   stats.pages, stats.hit_pages, stats.miss_pages,
		   stats.shrunk_pages, stats.cap_pages);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dxgpmo_pool);

static int dxgpmo_objects_show(struct seq_file *m, void *unused)
{
	return dxgpmo_leak_show(m);
}
DEFINE_SHOW_ATTRIBUTE(dxgpmo_objects);

void dxgpmo_debugfs_init(void)
{
	dxgpmo_debugfs_dir = debugfs_create_dir("dxgpmo", NULL);
	debugfs_create_file("stats", 0400, dxgpmo_debugfs_dir, NULL,
			    &dxgpmo_stats_fops);
	debugfs_create_file("pool", 0400, dxgpmo_debugfs_dir, NULL,
			    &dxgpmo_pool_fops);
	debugfs_create_file("objects", 0400, dxgpmo_debugfs_dir, NULL,
			    &dxgpmo_objects_fops);
}

void dxgpmo_debugfs_exit(void)
{
	debugfs_remove_recursive(dxgpmo_debugfs_dir);
}
