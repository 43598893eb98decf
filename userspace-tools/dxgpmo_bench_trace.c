// SPDX-License-Identifier: GPL-2.0
/*
 * What the trace events cost when nobody traces: the create and ADL rows
 * with the module as built (events compiled in, disabled) against a build
 * of the same tree with them compiled out (DXGPMO_NOTRACE=y), loaded in
 * turn in the same boot, A B B A A B ... (which build goes first swaps
 * from pair to pair, so that a drift over the run or a cost of coming
 * second falls on both): the ratio of each pair, their median and their
 * spread.  A difference no wider than the spread is noise.
 * Within one load each row is the fastest of a few batches: another
 * process's burst on a shared host lengthens a batch, never shortens it.
 *
 * --trace-baseline MODULE names the compiled-out build, ./dxgpmo.ko is the
 * compiled-in one; each is loaded with TRACE_PARAMS, and the compiled-in
 * one is what stays loaded when the scenario ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dxgpmo_bench.h"

#define TRACE_PAIRS	5
#define TRACE_BATCHES	5
#define TRACE_ITERS	100
#define TRACE_SIZE	(64UL << 10)

/* The module loaded with each build: enough for the two rows. */
#define TRACE_PARAMS	"debug_ioctls=1"

const char *trace_baseline;
const char *trace_traced = "./dxgpmo.ko";

static int load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, TRACE_PARAMS, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

/* The module as path built it, in place of whichever is loaded. */
static int reload(const char *path)
{
	int ret;

	if (dev >= 0)
		close(dev);
	dev = -1;
	if (syscall(SYS_delete_module, "dxgpmo", O_NONBLOCK))
		return -errno;
	ret = load(path);
	if (ret)
		return ret;
	dev = dxgpmo_open();
	return dev < 0 ? dev : 0;
}

/* Seconds per CREATE+DESTROY of a cached 64 KiB object. */
static double time_create(void)
{
	struct dxgpmo_create_pmo c;
	double t0 = now();
	unsigned int i;

	for (i = 0; i < TRACE_ITERS; i++) {
		memset(&c, 0, sizeof(c));
		c.size = sizeof(c);
		c.type = DXGPMO_PMO_TYPE_MDL;
		c.cache_type = DXGPMO_CACHE_CACHED;
		c.length = TRACE_SIZE;
		if (dxgpmo_create_pmo(dev, &c) ||
		    dxgpmo_destroy_pmo(dev, c.pmo_id, 0))
			return -1;
	}
	return (now() - t0) / TRACE_ITERS;
}

/* Seconds per ALLOCATE+FREE_ADL of 64 KiB on the first adapter. */
static double time_adl(void)
{
	struct dxgpmo_adapter_info a;
	struct dxgpmo_create_pmo c = {
		.size = sizeof(c), .type = DXGPMO_PMO_TYPE_MDL,
		.cache_type = DXGPMO_CACHE_CACHED, .length = TRACE_SIZE,
	};
	double t0, t = -1;
	uint32_t n = 0;
	unsigned int i;

	if (dxgpmo_query_adapters(dev, &a, 1, &n) || !n)
		return -1;
	c.adapter_id = a.adapter_id;
	if (dxgpmo_create_pmo(dev, &c))
		return -1;
	t0 = now();
	for (i = 0; i < TRACE_ITERS; i++) {
		struct dxgpmo_allocate_adl adl = {
			.amo_id = c.amo_id, .length = TRACE_SIZE,
		};

		if (dxgpmo_allocate_adl(dev, &adl) ||
		    dxgpmo_free_adl(dev, adl.adl_id))
			goto out;
	}
	t = (now() - t0) / TRACE_ITERS;
out:
	dxgpmo_destroy_pmo(dev, c.pmo_id, c.amo_id);
	return t;
}

/* The fastest batch of each row, in turn, on the module loaded now. */
static int time_rows(double *create, double *adl)
{
	unsigned int i;

	*create = 1e9;
	*adl = 1e9;
	for (i = 0; i < TRACE_BATCHES; i++) {
		double c = time_create(), a = time_adl();

		if (c <= 0 || a <= 0)
			return -EIO;
		*create = c < *create ? c : *create;
		*adl = a < *adl ? a : *adl;
	}
	return 0;
}

/* The row: each build's median time, the pairs' median ratio and spread. */
static void trace_row(const char *what, double on[], double off[])
{
	const char *verdict;
	struct pair_result r;
	char extra[96];

	pair_stats(on, off, TRACE_PAIRS, &r);
	verdict = r.ratio - 1 <= r.spread ? "within noise" : "slower";
	snprintf(extra, sizeof(extra), ",\"pair_ratio\":%.3f,\"verdict\":\"%s\"",
		 r.ratio, verdict);
	report_pairs("trace", what, TRACE_SIZE, "events compiled out", &r,
		     extra);
	printf("# %s: pairs' median ratio %.3fx, spread +-%.3f: %s\n", what,
	       r.ratio, r.spread, verdict);
}

void scenario_trace(void)
{
	double create_on[TRACE_PAIRS], create_off[TRACE_PAIRS];
	double adl_on[TRACE_PAIRS], adl_off[TRACE_PAIRS];
	unsigned int i;
	int ret = 0;

	if (!trace_baseline) {
		printf("# trace skipped: no --trace-baseline (a DXGPMO_NOTRACE=y build)\n");
		return;
	}
	for (i = 0; i < TRACE_PAIRS && !ret; i++) {
		bool traced_first = i & 1;

		ret = reload(traced_first ? trace_traced : trace_baseline);
		if (!ret)
			ret = traced_first ?
			      time_rows(&create_on[i], &adl_on[i]) :
			      time_rows(&create_off[i], &adl_off[i]);
		if (!ret)
			ret = reload(traced_first ? trace_baseline :
				     trace_traced);
		if (!ret)
			ret = traced_first ?
			      time_rows(&create_off[i], &adl_off[i]) :
			      time_rows(&create_on[i], &adl_on[i]);
	}
	/* The compiled-in build stays loaded, as the scenario promises. */
	if (!ret && (TRACE_PAIRS & 1) == 0)
		ret = reload(trace_traced);
	if (ret) {
		printf("# trace failed: %s\n", strerror(-ret));
		return;
	}
	trace_row("create+destroy, events off", create_on, create_off);
	trace_row("ALLOCATE+FREE_ADL, events off", adl_on, adl_off);
}
