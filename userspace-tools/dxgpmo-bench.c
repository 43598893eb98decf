// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench: costs of dxgpmo calls as ratios against a baseline measured
 * in the same run (TCG times mean nothing on their own).  Prints a table and,
 * with --json, one JSON object per measurement.
 *
 * Scenarios: 1 create+destroy vs anonymous mmap(MAP_POPULATE), vs an
 * allocation from the dma-buf system heap, vs a udmabuf of a memfd and vs
 * zeroed pages of the same orders allocated in the module, with the buddy
 * orders the objects got; destroying a pooled non-cached object vs a
 * write-combined one and a cached one; 2 ALLOCATE_ADL + FREE_ADL vs a
 * per-page dma_map_page() loop and vs dma_map_sgtable() of a prebuilt
 * sg_table plus the page-number array on the same device, all timed
 * inside the module, and the ioctls vs VFIO type1 MAP+UNMAP_DMA on a
 * device bound to vfio-pci (DXGPMO_IOC_TEST, so the module must be a test
 * build, make module DXGPMO_TEST=y, loaded with debug_ioctls=1; without
 * it scenario 2 and the orders are skipped, saying so); 3 user MAP +
 * touch vs anonymous mmap + touch, and KMAP_RW reads and writes of a
 * non-cached kernel view vs a write-combined one and a cached one; 4
 * tracked segment writes + query vs untracked writes vs soft-dirty, every
 * page and every 16th page; 5 create/destroy throughput with threads, and
 * per-object cost up to 100,000 live objects; 6 (with --trace-baseline)
 * the create and ADL rows with the trace events compiled in and off vs
 * compiled out.  1 GiB sizes run when the machine has the memory for
 * them.  A kernel peer the running kernel lacks is skipped, saying why.
 *
 * Most rows are pairs (paired() in dxgpmo_bench.h): the subject and its
 * baseline timed one right after the other, 5 to 31 times; the row gives
 * each one's median time, the median of the pairs' ratios and their
 * spread.  On a host that other work loads, the fastest of N runs of one
 * and then of the other swung 2x between rows of the same size; a pair
 * shares its moment.  Rows without a spread are the best of a few runs.
 *
 * This file is the driver; each scenario family has a
 * dxgpmo_bench_<family>.c of its own, and dxgpmo_bench.h declares what
 * they share.
 *
 * Usage: dxgpmo-bench [--json FILE] [--adapter ID|NAME]
 *		      [--only create|adl|map|dirty|scale|trace]
 *		      [--trace-baseline MODULE]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxgpmo_bench.h"

FILE *json;
int dev;
size_t max_size = 256UL << 20;
size_t size_limit;
int have_test_cmd = 1;
const char *only_adapter;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of n values, which it sorts. */
static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The spread is half the interquartile range of the pairs' ratios (the
 * quartiles taken as the (n/4+1)-th smallest and largest ratio), not half
 * their range: one pair a burst on the host lengthened on one side would
 * make the range, and a row as noisy as its worst moment.  With 5 pairs it
 * is half the range of the middle three.
 */
void pair_stats(const double *a, const double *b, unsigned int n,
		struct pair_result *r)
{
	double ta[PAIRS_MAX], tb[PAIRS_MAX], ratio[PAIRS_MAX];
	unsigned int i;

	memset(r, 0, sizeof(*r));
	if (!n)
		return;
	if (n > PAIRS_MAX)
		n = PAIRS_MAX;
	for (i = 0; i < n; i++) {
		ta[i] = a[i];
		tb[i] = b[i];
		ratio[i] = a[i] / b[i];
	}
	r->pairs = n;
	r->t = median(ta, n);
	r->tb = median(tb, n);
	r->ratio = median(ratio, n);
	r->spread = (ratio[n - 1 - n / 4] - ratio[n / 4]) / 2;
}

/*
 * One measurement: a table row, and a JSON line when asked (extra: more
 * JSON members, each starting with a comma).  A spread below zero: the
 * row is not of pairs.
 */
static void row(const char *scenario, const char *what, size_t size,
		double t, const char *base, double tb, double ratio,
		double spread, unsigned int pairs, const char *extra)
{
	char sp[16] = "-";

	if (spread >= 0)
		snprintf(sp, sizeof(sp), "+-%.2f", spread);
	if (json && spread >= 0)
		fprintf(json,
			"{\"scenario\":\"%s\",\"what\":\"%s\",\"size\":%zu,\"seconds\":%.9f,\"baseline\":\"%s\",\"baseline_seconds\":%.9f,\"ratio\":%.3f,\"spread\":%.3f,\"pairs\":%u%s}\n",
			scenario, what, size, t, base, tb, ratio, spread,
			pairs, extra);
	else if (json)
		fprintf(json,
			"{\"scenario\":\"%s\",\"what\":\"%s\",\"size\":%zu,\"seconds\":%.9f,\"baseline\":\"%s\",\"baseline_seconds\":%.9f,\"ratio\":%.3f%s}\n",
			scenario, what, size, t, base, tb, ratio, extra);
	if (!strcmp(scenario, "scale"))	/* size is a count here */
		printf("%-10s %-30s %14zu %11.1f us %-24s %11.1f us %7.2fx %7s\n",
		       scenario, what, size, t * 1e6, base, tb * 1e6, ratio,
		       sp);
	else
		printf("%-10s %-30s %10zu KiB %11.1f us %-24s %11.1f us %7.2fx %7s\n",
		       scenario, what, size >> 10, t * 1e6, base, tb * 1e6,
		       ratio, sp);
	fflush(stdout);
}

void report_extra(const char *scenario, const char *what, size_t size,
		  double t, const char *base, double tb, const char *extra)
{
	row(scenario, what, size, t, base, tb, tb > 0 && t >= 0 ? t / tb : 0,
	    -1, 0, extra);
}

void report(const char *scenario, const char *what, size_t size, double t,
	    const char *base, double tb)
{
	report_extra(scenario, what, size, t, base, tb, "");
}

void report_pairs(const char *scenario, const char *what, size_t size,
		  const char *base, const struct pair_result *r,
		  const char *extra)
{
	row(scenario, what, size, r->t, base, r->tb, r->ratio, r->spread,
	    r->pairs, extra);
}

int test_cmd(struct dxgpmo_test_cmd *t)
{
	t->size = sizeof(*t);
	return dxgpmo_ioctl(dev, DXGPMO_IOC_TEST, t);
}

void no_test_cmd(const char *what)
{
	if (have_test_cmd) {
		printf("# %s skipped: DXGPMO_IOC_TEST refused (load a test build, make module DXGPMO_TEST=y, with debug_ioctls=1)\n",
		       what);
		have_test_cmd = 0;
	}
}

/* 1 GiB objects when there is room for one plus its anonymous baseline. */
static void pick_max_size(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long kb;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lu kB", &kb) == 1 &&
		    kb >= 2600UL * 1024)
			max_size = 1UL << 30;
	if (f)
		fclose(f);
	if (size_limit && max_size > size_limit)
		max_size = size_limit;
}

/* --max-size: a power of two from 4 KiB, with an optional K, M or G. */
static int parse_size(const char *arg, size_t *size)
{
	unsigned int shift = 0;
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg)
		return 0;
	switch (*end) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	}
	if (shift)
		end++;
	if (*end || v > (1ULL << 40) >> shift)
		return 0;
	v <<= shift;
	if (v < PAGE || (v & (v - 1)))
		return 0;
	*size = v;
	return 1;
}

/* --only: one scenario by name, or NULL for all. */
static const char *only_scenario;

static int wanted(const char *scenario)
{
	return !only_scenario || !strcmp(only_scenario, scenario);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json") && i + 1 < argc) {
			json = fopen(argv[++i], "w");
			if (!json) {
				perror(argv[i]);
				return 1;
			}
		} else if (!strcmp(argv[i], "--adapter") && i + 1 < argc) {
			only_adapter = argv[++i];
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only_scenario = argv[++i];
		} else if (!strcmp(argv[i], "--max-size") && i + 1 < argc &&
			   parse_size(argv[i + 1], &size_limit)) {
			i++;
		} else if (!strcmp(argv[i], "--trace-baseline") &&
			   i + 1 < argc) {
			trace_baseline = argv[++i];
		} else {
			fprintf(stderr,
				"usage: dxgpmo-bench [--json FILE] [--adapter ID|NAME] [--only create|adl|map|dirty|scale|trace]\n"
				"                    [--max-size SIZE[K|M|G]] [--trace-baseline MODULE]\n"
				"  --adapter: the ADL scenario on that adapter only (e.g. a device\n"
				"  bound with 'dxgpmoctl adapter bind', for the costs of your IOMMU)\n"
				"  --max-size: no size above SIZE, a power of two from 4K: a quick run\n"
				"  --trace-baseline: the module built with DXGPMO_NOTRACE=y; the trace\n"
				"  scenario reloads it and ./dxgpmo.ko in turn (it runs only with it)\n");
			return 2;
		}
	}
	if (only_scenario && !wanted("create") && !wanted("adl") &&
	    !wanted("map") && !wanted("dirty") && !wanted("scale") &&
	    !wanted("trace")) {
		fprintf(stderr, "dxgpmo-bench: no scenario %s\n", only_scenario);
		return 2;
	}
	dev = dxgpmo_open();
	if (dev < 0) {
		fprintf(stderr, "dxgpmo-bench: %s: %s\n", DXGPMO_DEV_PATH,
			strerror(-dev));
		return 1;
	}
	pick_max_size();
	printf("%-10s %-30s %14s %14s %-24s %14s %8s %7s\n", "SCENARIO",
	       "MEASURED", "SIZE", "TIME", "BASELINE", "TIME", "RATIO",
	       "SPREAD");
	if (wanted("create"))
		scenario_create();
	if (wanted("adl"))
		scenario_adl();
	if (wanted("map"))
		scenario_map();
	if (wanted("dirty"))
		scenario_dirty();
	if (wanted("scale"))
		scenario_scale();
	if (wanted("trace") && trace_baseline)
		scenario_trace();
	if (json)
		fclose(json);
	return 0;
}
