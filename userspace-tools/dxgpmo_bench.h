/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dxgpmo-bench's files share: the device, the output, the helpers
 * that time a call and report it as a ratio against its baseline, and
 * one entry point a scenario family (dxgpmo_bench_<family>.c).
 *
 * The timing helpers are inline: a call into another file inside a timed
 * region would add its own cost to what it times.
 */
#ifndef DXGPMO_BENCH_H
#define DXGPMO_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "libdxgpmo.h"
#include "dxgpmo_test.h"

#define PAGE 4096UL
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* dxgpmo-bench.c: the --json file or NULL, and /dev/dxgpmo. */
extern FILE *json;
extern int dev;
/* The largest object size, 1 GiB when the machine has the memory. */
extern size_t max_size;
/* --max-size: no size of any scenario above it; 0 for none. */
extern size_t size_limit;
/* Cleared once DXGPMO_IOC_TEST is refused (no test build, debug_ioctls=1). */
extern int have_test_cmd;
/* --adapter: the one adapter scenario 2 runs on (id or name), or NULL. */
extern const char *only_adapter;

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline unsigned int reps_for(size_t size)
{
	return size >= (64 << 20) ? 3 : size >= (1 << 20) ? 10 : 50;
}

/* Repetitions inside one call of an in-module timing command. */
static inline unsigned int in_module_loops(size_t size)
{
	return size >= (64 << 20) ? 1 : size >= (1 << 20) ? 3 : 20;
}

static inline void touch(volatile uint8_t *p, size_t size)
{
	size_t i;

	for (i = 0; i < size; i += PAGE)
		p[i] = (uint8_t)i;
}

static inline double best(double (*fn)(size_t, uint32_t), size_t size,
			  uint32_t arg, unsigned int reps)
{
	double b = 1e9, t;
	unsigned int i;

	for (i = 0; i < reps; i++) {
		t = fn(size, arg);
		if (t >= 0 && t < b)
			b = t;
	}
	return b;
}

/*
 * A subject against its baseline in pairs: the medians of each one's
 * times, the median of the pairs' ratios and their spread, half the
 * interquartile range of those ratios (pair_stats()).  A figure no
 * farther from a goal than its spread is within noise.
 */
struct pair_result {
	double t;		/* the subject's median time */
	double tb;		/* the baseline's */
	double ratio;		/* the median of the pairs' ratios */
	double spread;
	unsigned int pairs;
};

#define PAIRS_MAX	31

/*
 * Pairs per row: at least 5, the quartiles of fewer mean nothing; more
 * where a call is short and a burst on the host is a larger part of it.
 * A pair at 1 GiB takes seconds under TCG.
 */
static inline unsigned int pairs_for(size_t size)
{
	return size >= (64 << 20) ? 5 : size >= (1 << 20) ? 11 : PAIRS_MAX;
}

void pair_stats(const double *a, const double *b, unsigned int n,
		struct pair_result *r);

/*
 * The subject fa and its baseline fb timed one right after the other, n
 * times: a moment the host steals time lengthens one pair, not one side
 * of every ratio, as it does when all of one side runs before the other
 * (best()).  Which goes first swaps from pair to pair, so that a drift
 * over the run or a cost of coming second falls on both.  0, or -1 when
 * a call failed.
 */
static inline int paired(double (*fa)(size_t, uint32_t), uint32_t arg_a,
			 double (*fb)(size_t, uint32_t), uint32_t arg_b,
			 size_t size, unsigned int n, struct pair_result *r)
{
	double a[PAIRS_MAX], b[PAIRS_MAX];
	unsigned int i;

	if (n > PAIRS_MAX)
		n = PAIRS_MAX;
	for (i = 0; i < n; i++) {
		if (i & 1) {
			b[i] = fb(size, arg_b);
			a[i] = b[i] > 0 ? fa(size, arg_a) : -1;
		} else {
			a[i] = fa(size, arg_a);
			b[i] = a[i] >= 0 ? fb(size, arg_b) : -1;
		}
		if (a[i] < 0 || b[i] <= 0)
			return -1;
	}
	pair_stats(a, b, n, r);
	return 0;
}

void report_extra(const char *scenario, const char *what, size_t size,
		  double t, const char *base, double tb, const char *extra);
void report(const char *scenario, const char *what, size_t size, double t,
	    const char *base, double tb);
/* A row of pairs: its times are the medians, its ratio the pairs'. */
void report_pairs(const char *scenario, const char *what, size_t size,
		  const char *base, const struct pair_result *r,
		  const char *extra);
int test_cmd(struct dxgpmo_test_cmd *t);
/* Says once that what needs DXGPMO_IOC_TEST is skipped. */
void no_test_cmd(const char *what);

/* dxgpmo_bench_peers.c: scenario 2's user-space peers. */
void adl_vs_vfio(const char *adapter, size_t size,
		 double (*ioctls)(size_t size, uint32_t arg));
void adl_vs_iommufd(void);
void adl_peers_done(void);

void scenario_create(void);
void scenario_adl(void);
void scenario_map(void);
void scenario_dirty(void);
void scenario_scale(void);
/* dxgpmo_bench_trace.c: --trace-baseline, the events compiled out. */
extern const char *trace_baseline;
void scenario_trace(void);

#endif
