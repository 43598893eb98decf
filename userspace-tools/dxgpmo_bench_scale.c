// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo-bench scenario 5: create/destroy throughput with threads, and the
 * per-object cost with many live objects.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "dxgpmo_bench.h"

struct thr {
	int fd;
	unsigned int n;
};

static void *create_loop(void *arg)
{
	struct thr *t = arg;
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		struct dxgpmo_create_pmo c = {
			.length = PAGE, .cache_type = DXGPMO_CACHE_CACHED,
		};

		if (!dxgpmo_create_pmo(t->fd, &c))
			dxgpmo_destroy_pmo(t->fd, c.pmo_id, 0);
	}
	return NULL;
}

/* n creations on fd, their ids appended at ids[*nr]: time per call, or -1. */
static double create_round(int fd, uint32_t *ids, unsigned int *nr,
			   unsigned int n)
{
	double t0 = now();
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct dxgpmo_create_pmo c = {
			.length = PAGE, .cache_type = DXGPMO_CACHE_CACHED,
		};

		if (dxgpmo_create_pmo(fd, &c))
			return -1;
		ids[(*nr)++] = c.pmo_id;
	}
	return (now() - t0) / n;
}

static double pair_round(int fd, unsigned int n)
{
	double t0 = now();

	create_loop(&(struct thr){ .fd = fd, .n = n });
	return (now() - t0) / n;
}

static double best_of(double best, double t)
{
	return t >= 0 && (best < 0 || t < best) ? t : best;
}

#define SCALE_MAX	100000
#define SCALE_BLOCK	10000
#define SCALE_ROUND	100	/* creations per timed round */
#define SCALE_PAIRS	50	/* create+destroy pairs per timed round */
#define SCALE_PAIR_ROUNDS 40

/*
 * Per-object cost with 10,000 to 100,000 live objects in one file: creating
 * the next 10,000 (the memory in use grows with them), and create+destroy
 * pairs at that count.  The baseline is the same calls on a second file
 * that keeps 10,000 live objects, timed in rounds alternating with the
 * measured ones: whatever the moment adds (the memory in use, the host's
 * other load) is in both, and the ratio is the cost at N live objects
 * relative to the cost at 10,000, as the target reads.  Every time is the
 * best of many short rounds: one long timing per count (the first version
 * of this scenario) caught host preemption as often as anything the
 * module did, and its baseline was the first, cold block.  The second file
 * is not empty: ids are cyclic, so in a file without objects every create
 * builds the id table's path down to a fresh id and every destroy tears
 * it down, which costs more than a create among 10,000 objects.
 */
static void scale_live_objects(void)
{
	uint32_t *ids = calloc(SCALE_MAX, sizeof(*ids));
	uint32_t *ref_ids = calloc(SCALE_BLOCK + SCALE_ROUND,
				   sizeof(*ref_ids));
	unsigned int live = 0, nref = 0, r;
	int ref = dxgpmo_open();
	char extra[64];

	if (!ids || !ref_ids)
		goto out;
	while (ref >= 0 && nref < SCALE_BLOCK)
		if (create_round(ref, ref_ids, &nref, SCALE_ROUND) < 0)
			goto out;
	while (ref >= 0 && live < SCALE_MAX) {
		double t = -1, tref = -1, p = -1, pref = -1;
		unsigned int target = live + SCALE_BLOCK;

		for (r = 0; live < target; r++) {
			t = best_of(t, create_round(dev, ids, &live,
						    SCALE_ROUND));
			if (live % SCALE_ROUND)
				goto out;	/* a create failed */
			if (r % 2)
				continue;
			tref = best_of(tref, create_round(ref, ref_ids, &nref,
							  SCALE_ROUND));
			while (nref > SCALE_BLOCK)
				dxgpmo_destroy_pmo(ref, ref_ids[--nref], 0);
		}
		for (r = 0; r < SCALE_PAIR_ROUNDS; r++) {
			p = best_of(p, pair_round(dev, SCALE_PAIRS));
			pref = best_of(pref, pair_round(ref, SCALE_PAIRS));
		}
		snprintf(extra, sizeof(extra), ",\"baseline_live\":%d",
			 SCALE_BLOCK);
		report_extra("scale", "create with N live objects", live, t,
			     "same, 10,000 live", tref, extra);
		report_extra("scale", "create+destroy at N live", live, p,
			     "same, 10,000 live", pref, extra);
	}
out:
	while (live)
		dxgpmo_destroy_pmo(dev, ids[--live], 0);
	while (nref)
		dxgpmo_destroy_pmo(ref, ref_ids[--nref], 0);
	if (ref >= 0)
		close(ref);
	free(ref_ids);
	free(ids);
}

/*
 * Cached objects only: a non-cached or write-combined create also switches
 * the kernel's linear map (set_pages_array_*: the global cpa lock and a TLB
 * flush on every CPU), which is the create scenario's business and would
 * hide the module's own bookkeeping here.
 */
void scenario_scale(void)
{
	unsigned int threads, i, n = 2000;
	double base = 0;

	for (threads = 1; threads <= 4; threads <<= 1) {
		int shared;

		for (shared = 1; shared >= 0; shared--) {
			pthread_t tid[4];
			struct thr t[4];
			double t0 = now(), el;

			for (i = 0; i < threads; i++) {
				t[i].fd = shared ? dev : dxgpmo_open();
				t[i].n = n;
				pthread_create(&tid[i], NULL, create_loop, &t[i]);
			}
			for (i = 0; i < threads; i++) {
				pthread_join(tid[i], NULL);
				if (!shared)
					close(t[i].fd);
			}
			el = (now() - t0) / (threads * n);
			if (!base)
				base = el;
			report("scale", shared ? "create/destroy, one file" :
				       "create/destroy, own files",
			       threads, el, "1 thread, one file", base);
		}
	}
	scale_live_objects();
}
