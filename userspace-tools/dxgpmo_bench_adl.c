// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench scenario 2: ADLs against the DMA API's per-page and
 * scatterlist mappings, timed inside the module, and the ioctls against
 * the user-space peers (dxgpmo_bench_peers.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dxgpmo_bench.h"

static uint32_t adl_amo;

static double adl_ioctls(size_t size, uint32_t unused)
{
	struct dxgpmo_allocate_adl a = { .amo_id = adl_amo, .length = size };
	double t = now();

	if (dxgpmo_allocate_adl(dev, &a))
		return -1;
	dxgpmo_free_adl(dev, a.adl_id);
	return now() - t;
}

/* enum dxgpmo_test_adl_step's names, in rows and JSON. */
static const char *const adl_step_names[DXGPMO_TEST_ADL_STEPS] = {
	[DXGPMO_TEST_ADL_STEP_OBJECT] = "object",
	[DXGPMO_TEST_ADL_STEP_QUOTA] = "quota",
	[DXGPMO_TEST_ADL_STEP_ACCESS] = "access+list",
	[DXGPMO_TEST_ADL_STEP_SGT] = "sg_table",
	[DXGPMO_TEST_ADL_STEP_MAP] = "map+unmap",
	[DXGPMO_TEST_ADL_STEP_FLUSH] = "lazy flush",
	[DXGPMO_TEST_ADL_STEP_FILL] = "page array",
};

/* The steps of an in-module ADL, one call's worth per pair. */
struct adl_steps {
	double step[DXGPMO_TEST_ADL_STEPS][PAIRS_MAX];
	double published[PAIRS_MAX];
	int ret;
};

/* Pair i's steps, right after its ADL and floor (t). */
static void adl_steps_time(const struct dxgpmo_test_cmd *t, unsigned int i,
			   struct adl_steps *st)
{
	struct dxgpmo_test_cmd s = *t;
	unsigned int k;

	s.op = DXGPMO_TEST_OP_BENCH_ADL_STEPS;
	st->ret = st->ret ? st->ret : test_cmd(&s);
	if (st->ret)
		return;
	for (k = 0; k < DXGPMO_TEST_ADL_STEPS; k++)
		st->step[k][i] = s.adl_step_ns[k] / 1e9 / s.loops;
	st->published[i] = s.adl_published_ns / 1e9 / s.loops;
}

/*
 * Where the in-module ADL's time goes: each step against the floor of the
 * same pair, so a row's ratio is its share of the floor; and what
 * publishing adds (finalize, then FREE_ADL's lookup by id), against the
 * ADL without.  The steps are timed one at a time, warm: their sum can be
 * less than the whole.
 */
static void adl_steps_report(const struct dxgpmo_adapter_info *a,
			     size_t size, const struct adl_steps *st,
			     const double *adl, const double *floor,
			     unsigned int n)
{
	struct pair_result r;
	char what[64], extra[160];
	unsigned int k;

	if (st->ret) {
		printf("%-10s ADL steps %s %zu KiB: skipped: %s\n", "adl",
		       a->name, size >> 10, strerror(-st->ret));
		return;
	}
	for (k = 0; k < DXGPMO_TEST_ADL_STEPS; k++) {
		pair_stats(st->step[k], floor, n, &r);
		snprintf(what, sizeof(what), "ADL step %s %s",
			 adl_step_names[k], a->name);
		snprintf(extra, sizeof(extra),
			 ",\"adapter\":\"%s\",\"step\":\"%s\"", a->name,
			 adl_step_names[k]);
		report_pairs("adl", what, size, "sgtable+array (floor)", &r,
			     extra);
	}
	pair_stats(st->published, adl, n, &r);
	snprintf(what, sizeof(what), "ADL published %s", a->name);
	snprintf(extra, sizeof(extra), ",\"adapter\":\"%s\"", a->name);
	report_pairs("adl", what, size, "ADL in-module", &r, extra);
}

/*
 * Scenario 2 on one adapter: the in-module ADL against the in-module
 * per-page loop and the floor (kernel time only), and the ioctl pair from
 * user space against the same loop and against VFIO.
 */
static void adl_on(const struct dxgpmo_adapter_info *a, size_t size)
{
	struct dxgpmo_create_pmo c = { .length = size,
				       .cache_type = DXGPMO_CACHE_CACHED };
	struct dxgpmo_test_cmd t = { .op = DXGPMO_TEST_OP_BENCH_ADL };
	double adl[PAIRS_MAX], loop[PAIRS_MAX], sgtable[PAIRS_MAX];
	unsigned int i, n = pairs_for(size);
	struct pair_result vs_loop, vs_floor;
	char what[64], extra[128];
	double ioctls, best_loop = 0;
	struct adl_steps *steps = calloc(1, sizeof(*steps));
	int ret;

	if (!steps || dxgpmo_create_pmo(dev, &c)) {
		free(steps);
		return;
	}
	if (dxgpmo_open_pmo(dev, c.pmo_id, a->adapter_id, &adl_amo))
		goto out;
	t.id = adl_amo;
	t.length = size;
	t.loops = 1;		/* warm caches and the IOVA allocator */
	ret = test_cmd(&t);
	t.loops = in_module_loops(size);
	/*
	 * Each call times the ADL, then the loop, then the floor, one right
	 * after the other: a pair (a triple) whose order the module fixes.
	 */
	for (i = 0; !ret && i < n; i++) {
		ret = test_cmd(&t);
		adl[i] = t.adl_ns / 1e9 / t.loops;
		loop[i] = t.page_loop_ns / 1e9 / t.loops;
		sgtable[i] = t.sgtable_ns / 1e9 / t.loops;
		best_loop = i && best_loop < loop[i] ? best_loop : loop[i];
		if (!ret)
			adl_steps_time(&t, i, steps);
	}
	if (ret == -ENOTTY || ret == -EINVAL) {
		no_test_cmd("scenario 2 (ADL)");
		goto out;
	}
	if (ret) {
		printf("%-10s %s %zu KiB: %s (%s)\n", "adl", a->name,
		       size >> 10, strerror(-ret),
		       "does not fit the adapter's DMA addressing");
		goto out;
	}
	adl_steps_report(a, size, steps, adl, sgtable, n);
	pair_stats(adl, loop, n, &vs_loop);
	pair_stats(adl, sgtable, n, &vs_floor);
	snprintf(extra, sizeof(extra),
		 ",\"adapter\":\"%s\",\"adl_runs\":%u,\"page_loop_runs\":%u,\"sgtable_runs\":%u",
		 a->name, t.adl_runs, t.page_loop_runs, t.sgtable_runs);
	snprintf(what, sizeof(what), "ADL in-module %s (%u run%s)", a->name,
		 t.adl_runs, t.adl_runs == 1 ? "" : "s");
	report_pairs("adl", what, size, "per-page dma_map_page", &vs_loop,
		     extra);
	report_pairs("adl", what, size, "sgtable+array (floor)", &vs_floor,
		     extra);
	snprintf(what, sizeof(what), "ALLOCATE+FREE_ADL %s", a->name);
	/*
	 * From user space against the module's loop, which has no target:
	 * the best of a few of each, not pairs, which would time the
	 * module's ADL and floor again with every loop.
	 */
	ioctls = best(adl_ioctls, size, 0, t.loops);
	report_extra("adl", what, size, ioctls, "per-page dma_map_page",
		     best_loop, extra);
	/* The peer's device is behind the IOMMU: so must the adapter be. */
	if (a->caps & DXGPMO_ADAPTER_CAP_IOMMU)
		adl_vs_vfio(a->name, size, adl_ioctls);
out:
	dxgpmo_destroy_pmo(dev, c.pmo_id, adl_amo);
	adl_amo = 0;
	free(steps);
}

static int adapter_chosen(const struct dxgpmo_adapter_info *a, uint32_t i)
{
	char *end;
	unsigned long id;

	if (!only_adapter)
		/* One edu (IOMMU) and every other kind are enough. */
		return !i || strcmp(a->name, "edu1");
	id = strtoul(only_adapter, &end, 0);
	if (!*end && end != only_adapter)
		return a->adapter_id == id;
	return !strcmp(a->name, only_adapter);
}

void scenario_adl(void)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t total, i, ran = 0;
	size_t size;

	if (dxgpmo_query_adapters(dev, info, DXGPMO_MAX_ADAPTERS, &total))
		return;
	adl_vs_iommufd();
	for (i = 0; i < total && i < DXGPMO_MAX_ADAPTERS; i++) {
		if (!adapter_chosen(&info[i], i))
			continue;
		ran++;
		for (size = 4096; size <= max_size && have_test_cmd; size <<= 2)
			adl_on(&info[i], size);
	}
	adl_peers_done();
	if (only_adapter && !ran)
		fprintf(stderr, "dxgpmo-bench: no adapter %s (dxgpmoctl adapter list lists them)\n",
			only_adapter);
}
