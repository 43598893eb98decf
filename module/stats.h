/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What STATS and debugfs report: live objects and pages, per file and for
 * the whole module, and what closes left behind.
 */
#ifndef _DXGPMO_STATS_H
#define _DXGPMO_STATS_H

#include <linux/types.h>

struct dxgpmo_file;

enum dxgpmo_counter {
	DXGPMO_CNT_PMOS,
	DXGPMO_CNT_AMOS,
	DXGPMO_CNT_ADLS,
	DXGPMO_CNT_MAPS,
	DXGPMO_CNT_BASES,
	DXGPMO_CNT_PAGES,
	DXGPMO_CNT_DMA_MAPPED_PAGES,
	DXGPMO_CNT_LEAKED_OBJECTS,
	DXGPMO_CNT_LEAKED_ADLS,
	DXGPMO_CNT_SEGMENT_PAGES,
	DXGPMO_CNT_KMAP_PAGES,
	DXGPMO_CNT_SECTION_VIEW_PAGES,	/* debugfs only */
	DXGPMO_CNT_CLEANED_KVIEW_PAGES,	/* debugfs only */
	DXGPMO_CNT_SEGMENT_PMD_MAPS,	/* debugfs only, ever made */
	DXGPMO_NR_COUNTERS,
};

void dxgpmo_count(struct dxgpmo_file *file, enum dxgpmo_counter counter,
		  s64 delta);
void dxgpmo_count_file(struct dxgpmo_file *file, enum dxgpmo_counter counter,
		       s64 delta);
void dxgpmo_count_global(enum dxgpmo_counter counter, s64 delta);
u64 dxgpmo_stats_read_global(enum dxgpmo_counter counter);

#endif /* _DXGPMO_STATS_H */
