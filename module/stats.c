// SPDX-License-Identifier: GPL-2.0
/*
 * The counters STATS reports: a file's own, which die with it, and the
 * module's, which count every file's and what outlived them (leaked
 * objects, pages of dma-bufs and views still held).  Pages are the file's
 * account's (account.c): they stay charged after the file is gone.
 */
#include <linux/atomic.h>
#include <linux/string.h>

#include "account.h"
#include "dxgpmo.h"
#include "internal.h"
#include "object.h"
#include "stats.h"
#include "ucmd.h"

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

u64 dxgpmo_stats_read_global(enum dxgpmo_counter counter)
{
	return atomic64_read(&dxgpmo_global_counters[counter]);
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
	return dxgpmo_stats_read_global(c);
}

static u64 dxgpmo_read_file(void *ctx, enum dxgpmo_counter c)
{
	struct dxgpmo_file *file = ctx;

	if (c == DXGPMO_CNT_PAGES)
		return atomic64_read(&file->account->pages);
	return atomic64_read(&file->counters[c]);
}

int dxgpmo_cmd_stats(struct dxgpmo_ucmd *ucmd)
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
