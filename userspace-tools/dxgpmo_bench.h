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

void report_extra(const char *scenario, const char *what, size_t size,
		  double t, const char *base, double tb, const char *extra);
void report(const char *scenario, const char *what, size_t size, double t,
	    const char *base, double tb);
int test_cmd(struct dxgpmo_test_cmd *t);
/* Says once that what needs DXGPMO_IOC_TEST is skipped. */
void no_test_cmd(const char *what);

/* dxgpmo_bench_peers.c: scenario 2's user-space peers. */
void adl_vs_vfio(const char *adapter, size_t size, double t,
		 unsigned int reps);
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
