// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmo ioctl fuzzer: seeded random sequences over every ioctl and mmap
 * from several processes, some killed at random moments.  Random struct
 * sizes (short, long, huge), ids (valid, stale, of another type or file),
 * flags and reserved bits, offsets and lengths near overflow, user
 * pointers that are bad, and deliberate touches of views and windows that
 * may fault.  Pass: exactly the asked number of operations ran, no worker
 * died but of the fuzzer's own SIGKILL, every counter of live things is
 * back to zero once all processes are gone, and the kernel log shows
 * no warning or oops (checked here and by the host).
 *
 * DXGPMO_FUZZ_OPS=n: the number of operations (default 200000).
 * DXGPMO_FUZZ_SECONDS=n: a safety net, not a budget: a run that has not
 * done its operations n seconds after it started (default 300) is stopped
 * and fails, saying how many it did.
 * DXGPMO_FUZZ_DURATION=n: fuzz for n seconds instead of a number of
 * operations (make fuzz SECONDS=n); the safety net is then n + 60 s
 * unless DXGPMO_FUZZ_SECONDS says otherwise.
 * DXGPMO_FUZZ_SEED=n replays a run (the workers' operations; when the
 * random kills land depends on time).
 * DXGPMO_FUZZ_UNPRIVILEGED=1: the workers drop to nobody without
 * capabilities before they open the node (made 0666 for the run, as a udev
 * rule giving it to a group would), and every call that needs a capability
 * must fail with -EPERM: I/O-space objects, raw DMA, the test ioctl; ADLs
 * on adapters without an IOMMU must come back with their physical page
 * numbers hidden.
 *
 * Deliberate touches (touch()): a write to a user view of a read-only
 * object gets SIGSEGV, a read of an mmap(2) window whose object was
 * destroyed gets SIGBUS (the window is revoked), a read of an address
 * unmapped since gets SIGSEGV.  Workers catch these and count them; any
 * other death of a worker fails the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "dxgpmo_test.h"

/* The kernel's pseudo-keyword, as tools/include/linux/compiler-gcc.h has it. */
#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif

#define WORKERS		4
#define POOL		32
#define BUF_SIZE	8192
/* Operations of one worker in one round: a run has many rounds of exits. */
#define ROUND_OPS	5000
#define DEFAULT_OPS	200000
#define DEFAULT_SECONDS	300
/* The safety net's SIGKILL must end a worker within this. */
#define STUCK_SECONDS	30
/*
 * The harness's own timeout only backs up a parent that hangs itself: the
 * fuzzer's safety net (DXGPMO_FUZZ_SECONDS) is the limit that matters, and
 * the VM's timeout is below this anyway.
 */
#define HARNESS_SECONDS	(24 * 3600)

/* What one worker process did; in shared memory, so kills lose nothing. */
struct worker_stats {
	unsigned long ops;
	unsigned long touches;		/* deliberate touches */
	unsigned long segv_ro;		/* SEGV_ACCERR: read-only view written */
	unsigned long segv_unmapped;	/* SEGV_MAPERR: address unmapped since */
	unsigned long bus;		/* SIGBUS: revoked window */
	unsigned long fault_other;	/* caught, another si_code */
	unsigned long priv_checks;	/* unprivileged: calls that need a cap */
	unsigned long priv_violations;	/* ... and did not fail as they must */
};

struct shared {
	int stop;			/* duration mode: time is up */
	struct worker_stats w[WORKERS];
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: reproducible from the seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t pick(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* Sizes and offsets that matter: small, page-ish, near the edges, huge. */
static uint64_t rnd_len(void)
{
	static const uint64_t edge[] = {
		0, 1, 4095, 4096, 4097, 8192, 65536, 1 << 20, (2 << 20) + 4096,
		1ULL << 32, 1ULL << 40, UINT64_MAX, UINT64_MAX - 4095,
		UINT64_MAX / 2, (1ULL << 63) + 4096,
	};

	switch (pick(4)) {
	case 0:
		return edge[pick(ARRAY_SIZE(edge))];
	case 1:
		return pick(16) * PAGE;
	case 2:
		return pick(70000);
	default:
		return (pick(8) + 1) * PAGE;
	}
}

struct worker {
	int fd[2];
	uint32_t ids[POOL];		/* every id seen, of any type */
	uint32_t pmos[POOL], amos[POOL];
	uint64_t offsets[POOL];		/* mmap offsets of objects */
	struct { uint32_t pmo, user; uint64_t addr, len; } views[POOL];
	void *mmaps[POOL];
	size_t mmap_len[POOL];
	uint64_t stale[POOL];		/* addresses unmapped since */
	/*
	 * BUF_SIZE bytes followed by a PROT_NONE page: the kernel's writes
	 * past the end get -EFAULT instead of corrupting the worker.
	 */
	uint8_t *buf;
	struct worker_stats *st;
	uint32_t adapters[8];
	uint32_t adapter_caps[8];
	uint32_t nr_adapters;
	uint64_t seg_offset[8];
	bool unprivileged;
	bool debug_ioctls;
};

static void remember(uint32_t *pool, uint32_t id)
{
	if (id)
		pool[pick(POOL)] = id;
}

static uint32_t rnd_id(struct worker *w, const uint32_t *pool)
{
	switch (pick(6)) {
	case 0:
		return (uint32_t)rnd();
	case 1:
		return 0;
	case 2:
		return w->ids[pick(POOL)];
	default:
		return pool[pick(POOL)];
	}
}

static void *rnd_ptr(struct worker *w)
{
	switch (pick(16)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)0x1000;	/* unmapped */
	case 2:
		return (void *)(uintptr_t)0xffff800000001000ULL;
	default:
		return w->buf;
	}
}

static int rnd_fd(struct worker *w)
{
	return w->fd[pick(8) == 0];
}

static sigjmp_buf touch_env;
static volatile sig_atomic_t touching;
static volatile sig_atomic_t touch_code;

/*
 * SIGSEGV and SIGBUS: inside touch() the fault was asked for; anywhere else
 * it was not, and the worker dies of it (a failure for the parent).
 */
static void touch_fault(int sig, siginfo_t *si, void *uc)
{
	if (!touching) {
		signal(sig, SIG_DFL);	/* faults again, and kills */
		return;
	}
	touching = 0;
	touch_code = si->si_code;
	siglongjmp(touch_env, sig);
}

/* Reads or writes one byte that may fault on purpose: 0 or the signal. */
static int touch(struct worker *w, uint64_t addr, bool write)
{
	volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)addr;
	int sig;

	w->st->touches++;
	sig = sigsetjmp(touch_env, 1);
	if (!sig) {
		touching = 1;
		if (write)
			*p = 1;
		else
			(void)*p;
		touching = 0;
		return 0;
	}
	if (sig == SIGBUS)
		w->st->bus++;
	else if (touch_code == SEGV_ACCERR)
		w->st->segv_ro++;
	else if (touch_code == SEGV_MAPERR)
		w->st->segv_unmapped++;
	else
		w->st->fault_other++;
	return sig;
}

/* UNMAP of a remembered view; the address of a user view goes stale. */
static void unmap_view(struct worker *w, int fd, unsigned int i)
{
	if (!dxgpmo_unmap(fd, w->views[i].pmo, w->views[i].addr,
			  w->views[i].len) && w->views[i].user)
		w->stale[pick(POOL)] = w->views[i].addr;
	memset(&w->views[i], 0, sizeof(w->views[i]));
}

/* munmap(2) of a remembered window; its address goes stale. */
static void unmap_window(struct worker *w, unsigned int i)
{
	munmap(w->mmaps[i], w->mmap_len[i]);
	w->stale[pick(POOL)] = (uintptr_t)w->mmaps[i];
	w->mmaps[i] = NULL;
}

static void priv_violation(struct worker *w, const char *call, int ret,
			   int expected)
{
	w->st->priv_violations++;
	printf("# unprivileged %s: %d, expected %d\n", call, ret, expected);
}

/*
 * Calls that need a capability, made the way that would succeed with it:
 * without it, each must fail with -EPERM (the test ioctl: -ENOTTY when
 * the module has none), and an ADL on an adapter without an IOMMU must
 * hide its physical page numbers.
 */
static void fuzz_privileged(struct worker *w, int fd)
{
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_IO_SPACE, .length = PAGE,
		.cache_type = DXGPMO_CACHE_NON_CACHED,
	};
	struct dxgpmo_test_cmd t = {
		.size = sizeof(t), .op = DXGPMO_TEST_OP_FAIL_NTH,
	};
	unsigned int a = pick(w->nr_adapters);
	uint32_t caps = w->adapter_caps[a];
	uint64_t pages[2];
	int ret, want;

	w->st->priv_checks++;
	switch (pick(4)) {
	case 0:
		c.io_base = (rnd() >> pick(40)) & ~4095ULL;
		ret = dxgpmo_create_pmo(fd, &c);
		if (ret != -EPERM)
			priv_violation(w, "CREATE_PMO(IO_SPACE)", ret, -EPERM);
		break;
	case 1:
		want = !(caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE) ? -EOPNOTSUPP :
		       -EPERM;
		ret = dxgpmo_adapter_dma(fd, w->adapters[a],
					 DXGPMO_DMA_RAW | pick(2),
					 pick(64) * PAGE, w->buf, 16);
		if (ret != want)
			priv_violation(w, "ADAPTER_DMA(RAW)", ret, want);
		break;
	case 2:
		want = w->debug_ioctls ? -EPERM : -ENOTTY;
		ret = dxgpmo_ioctl(fd, DXGPMO_IOC_TEST, &t);
		if (ret != want)
			priv_violation(w, "TEST", ret, want);
		break;
	default: {
		struct dxgpmo_allocate_adl adl = {
			.length = 2 * PAGE, .pages = (uintptr_t)pages,
			.pages_capacity = 2,
		};

		c = (struct dxgpmo_create_pmo){
			.length = 2 * PAGE, .adapter_id = w->adapters[a],
		};
		if (dxgpmo_create_pmo(fd, &c))
			break;	/* out of memory: nothing to check */
		adl.amo_id = c.amo_id;
		pages[0] = ~0ULL;
		pages[1] = ~0ULL;
		if (!dxgpmo_allocate_adl(fd, &adl)) {
			bool hidden = adl.adl_flags &
				      DXGPMO_ADL_ADDRESSES_HIDDEN;

			if (hidden != !(caps & DXGPMO_ADAPTER_CAP_IOMMU) ||
			    (hidden && (pages[0] || pages[1] ||
					adl.base_page)))
				priv_violation(w, "ALLOCATE_ADL page numbers",
					       hidden, !hidden);
			dxgpmo_free_adl(fd, adl.adl_id);
		}
		dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id);
	}
	}
}

/* One random operation. */
static void fuzz_one(struct worker *w)
{
	int fd = rnd_fd(w);
	union {
		struct dxgpmo_create_pmo c;
		struct dxgpmo_destroy_pmo d;
		struct dxgpmo_open_pmo o;
		struct dxgpmo_close_pmo cl;
		struct dxgpmo_allocate_adl a;
		struct dxgpmo_free_adl f;
		struct dxgpmo_map m;
		struct dxgpmo_unmap u;
		struct dxgpmo_kmap_rw k;
		struct dxgpmo_adapter_dma dma;
		struct dxgpmo_create_memory_basis b;
		struct dxgpmo_destroy_memory_basis db;
		struct dxgpmo_dirty_tracking t;
		struct dxgpmo_query_dirty_bits q;
		struct dxgpmo_export_dmabuf x;
		struct dxgpmo_stats st;
		uint8_t raw[512];
	} a;
	struct dxgpmo_memory_range ranges[4];
	unsigned long cmd;
	unsigned int i;
	int ret;

	memset(&a, 0, sizeof(a));
	switch (pick(22)) {
	case 0: case 1: case 2:
		a.c.type = pick(10) ? pick(3) : (uint32_t)rnd();
		a.c.cache_type = pick(10) ? pick(3) : 7;
		a.c.length = pick(3) ? (pick(16) + 1) * PAGE + pick(2) :
				       rnd_len();
		a.c.adapter_id = pick(2) ? w->adapters[pick(w->nr_adapters)] :
					   0;
		a.c.page_protection = a.c.type == DXGPMO_PMO_TYPE_SECTION ?
				      (pick(2) ? 4 : 2) : 0;
		if (!pick(8))
			a.c.high_address = rnd();
		if (!pick(16))
			a.c.flags = 1U << pick(32);
		if (!pick(20))
			a.c.io_base = rnd() & ~4095ULL;
		if (!dxgpmo_create_pmo(fd, &a.c) && fd == w->fd[0]) {
			/* pmos[i] and amos[i] are a pair */
			i = pick(POOL);
			w->pmos[i] = a.c.pmo_id;
			w->amos[i] = a.c.amo_id;
			remember(w->ids, a.c.pmo_id);
			w->offsets[pick(POOL)] = a.c.mmap_offset;
		}
		break;
	case 3:
		/*
		 * DESTROY of an object with live ADLs is the ADL leak (-EBUSY
		 * in adl_leak=warn): free an object's ADLs first, except
		 * rarely; stale and wrong ids are fine.
		 */
		i = pick(POOL);
		if (pick(100) && w->pmos[i] && fd == w->fd[0]) {
			if (w->amos[i] &&
			    dxgpmo_close_pmo(fd, w->amos[i]) == -EBUSY)
				break;
			if (!dxgpmo_destroy_pmo(fd, w->pmos[i], 0)) {
				w->pmos[i] = 0;
				w->amos[i] = 0;
			}
		} else {
			dxgpmo_destroy_pmo(fd, rnd_id(w, w->pmos),
					   pick(2) ? rnd_id(w, w->amos) : 0);
		}
		break;
	case 4:
		i = pick(POOL);
		if (!dxgpmo_open_pmo(fd, pick(4) ? w->pmos[i] : rnd_id(w, w->pmos),
				     pick(6) ? w->adapters[pick(w->nr_adapters)] :
					       (uint32_t)rnd(), &a.o.amo_id)) {
			unsigned int j;

			for (j = 0; j < POOL; j++)
				if (w->pmos[j] == a.o.pmo_id)
					w->amos[j] = a.o.amo_id;
			remember(w->ids, a.o.amo_id);
		}
		break;
	case 5:
		dxgpmo_close_pmo(fd, rnd_id(w, w->amos));
		break;
	case 6: case 7:
		a.a.amo_id = rnd_id(w, w->amos);
		a.a.offset = pick(3) ? pick(4) * PAGE : rnd_len();
		a.a.length = pick(3) ? (pick(4) + 1) * PAGE : rnd_len();
		a.a.flags = pick(4) ? 0 : (uint32_t)pick(8);
		if (pick(2)) {
			a.a.pages = (uintptr_t)rnd_ptr(w);
			a.a.pages_capacity = pick(4) ? BUF_SIZE / 8 :
						       rnd_len();
		}
		if (!dxgpmo_allocate_adl(fd, &a.a)) {
			remember(w->ids, a.a.adl_id);
			if (pick(4))
				dxgpmo_free_adl(fd, a.a.adl_id);
		}
		break;
	case 8:
		dxgpmo_free_adl(fd, rnd_id(w, w->ids));
		break;
	case 9: {
		uint32_t pmo = rnd_id(w, w->pmos);

		a.m.pmo_id = pmo;
		a.m.access_mode = pick(5) ? pick(2) : (uint32_t)rnd();
		a.m.flags = pick(3) ? 0 : pick(4) ? DXGPMO_MAP_IN_PROCESS :
					       (uint32_t)rnd();
		a.m.offset = pick(3) ? pick(20000) : rnd_len();
		a.m.length = pick(3) ? pick(20000) + 1 : rnd_len();
		if (!dxgpmo_map(fd, &a.m)) {
			i = pick(POOL);
			if (w->views[i].addr)	/* forget, or unmap, the old */
				unmap_view(w, fd, i);
			w->views[i].pmo = pmo;
			/* a view in this process, either mode */
			w->views[i].user = a.m.access_mode ==
					   DXGPMO_ACCESS_USER || a.m.flags;
			w->views[i].addr = a.m.address;
			w->views[i].len = a.m.length;
			remember(w->ids, a.m.map_id);
			/* SIGSEGV if the object is read-only */
			if (w->views[i].user && pick(2))
				touch(w, a.m.address + pick(a.m.length), true);
		}
		break;
	}
	case 10:
		i = pick(POOL);
		if (pick(3))
			unmap_view(w, fd, i);
		else
			dxgpmo_unmap(fd, rnd_id(w, w->pmos), rnd(), rnd_len());
		break;
	case 11:
		dxgpmo_kmap_rw(fd, rnd_id(w, w->ids), pick(4) ? pick(2) : 0xff,
			       pick(3) ? pick(5000) : rnd_len(), rnd_ptr(w),
			       pick(3) ? pick(64) : rnd_len());
		break;
	case 12:
		for (i = 0; i < 4; i++) {
			ranges[i].segment_offset = pick(3) ? pick(64) * PAGE :
							     rnd_len();
			ranges[i].length = pick(3) ? (pick(8) + 1) * PAGE :
						     rnd_len();
		}
		if (!dxgpmo_create_memory_basis(fd,
						w->adapters[pick(w->nr_adapters)],
						pick(8) ? 1 : (uint32_t)rnd(),
						pick(8) ? ranges : rnd_ptr(w),
						pick(5), &a.b.basis_id))
			remember(w->ids, a.b.basis_id);
		break;
	case 13:
		switch (pick(4)) {
		case 0:
			dxgpmo_start_dirty_tracking(fd, rnd_id(w, w->ids));
			break;
		case 1:
			dxgpmo_stop_dirty_tracking(fd, rnd_id(w, w->ids));
			break;
		case 2:
			dxgpmo_destroy_memory_basis(fd, rnd_id(w, w->ids));
			break;
		default:
			dxgpmo_query_dirty_bits(fd, rnd_id(w, w->ids),
						pick(3), pick(3),
						pick(2) ? pick(4) * PAGE : rnd(),
						pick(2) ? pick(4) * PAGE : rnd(),
						rnd_ptr(w),
						pick(4) ? pick(64) : rnd_len());
		}
		break;
	case 14:
		a.x.size = sizeof(a.x);
		a.x.pmo_id = rnd_id(w, w->pmos);
		a.x.fd_flags = pick(3) ? O_CLOEXEC | (pick(2) ? O_RDWR : 0) :
					 (uint32_t)rnd();
		if (!dxgpmo_ioctl(fd, DXGPMO_IOC_EXPORT_DMABUF, &a.x)) {
			if (pick(2)) {
				void *p = mmap(NULL, PAGE, PROT_READ,
					       MAP_SHARED, a.x.fd, 0);

				if (p != MAP_FAILED)
					munmap(p, PAGE);
			}
			close(a.x.fd);
		}
		break;
	case 15:
		/* The engine is slow: mostly calls that fail before using it. */
		a.dma.size = sizeof(a.dma);
		a.dma.adapter_id = w->adapters[pick(w->nr_adapters)];
		a.dma.flags = pick(4) ? pick(2) : (uint32_t)rnd();
		a.dma.device_address = rnd();
		a.dma.length = pick(64) ? rnd_len() | (1ULL << 20) : 16;
		a.dma.buffer = (uintptr_t)rnd_ptr(w);
		dxgpmo_ioctl(fd, DXGPMO_IOC_ADAPTER_DMA, &a.dma);
		break;
	case 16: {
		/* mmap of random windows: objects', segments', garbage. */
		uint64_t off;
		size_t len = (pick(8) + 1) * PAGE;
		void *p;

		switch (pick(3)) {
		case 0:
			off = w->offsets[pick(POOL)] + pick(4) * PAGE;
			break;
		case 1:
			off = w->seg_offset[pick(w->nr_adapters)] +
			      pick(64) * PAGE;
			break;
		default:
			off = rnd() & ~4095ULL;
		}
		p = mmap(NULL, len, PROT_READ | (pick(2) ? PROT_WRITE : 0),
			 pick(8) ? MAP_SHARED : MAP_PRIVATE, fd, off);
		if (p != MAP_FAILED) {
			i = pick(POOL);
			if (w->mmaps[i])
				unmap_window(w, i);
			w->mmaps[i] = p;
			w->mmap_len[i] = len;
		}
		break;
	}
	case 17:
		i = pick(POOL);
		if (w->mmaps[i])
			unmap_window(w, i);
		break;
	case 18:
		/* Any command with a random size and random bytes. */
		for (i = 0; i < sizeof(a.raw); i++)
			a.raw[i] = pick(4) ? 0 : (uint8_t)rnd();
		switch (pick(4)) {
		case 0:
			*(uint32_t *)a.raw = pick(8);
			break;
		case 1:
			*(uint32_t *)a.raw = pick(sizeof(a.raw));
			break;
		case 2:
			*(uint32_t *)a.raw = (uint32_t)rnd();
			break;
		default:
			*(uint32_t *)a.raw = 4096 * 1024;
		}
		cmd = pick(8) ? _IO(DXGPMO_TYPE, pick(0x42)) : (unsigned long)rnd();
		if (cmd != DXGPMO_IOC_TEST)
			ioctl(fd, cmd, pick(16) ? (void *)a.raw : rnd_ptr(w));
		break;
	case 19:
		/*
		 * Touches that may fault, on purpose: a user view (written:
		 * SIGSEGV if the object is read-only), an mmap(2) window (read
		 * only, it may be registers: SIGBUS once the object is
		 * destroyed), an address unmapped since (read only, it may be
		 * in use again: SIGSEGV if not).
		 */
		i = pick(POOL);
		switch (pick(3)) {
		case 0:
			if (w->views[i].user)
				touch(w, w->views[i].addr +
					 pick(w->views[i].len), pick(2));
			break;
		case 1:
			if (w->mmaps[i])
				touch(w, (uintptr_t)w->mmaps[i] +
					 pick(w->mmap_len[i]), false);
			break;
		default:
			if (w->stale[i])
				touch(w, w->stale[i] + pick(PAGE), false);
		}
		break;
	case 20:
		if (w->unprivileged) {
			fuzz_privileged(w, fd);
			break;
		}
		fallthrough;
	default:
		a.st.size = sizeof(a.st);
		ret = dxgpmo_ioctl(fd, DXGPMO_IOC_STATS, &a.st);
		(void)ret;
	}
}

static int run_worker(uint64_t seed, unsigned long budget,
		      struct worker_stats *st, int *stop, bool unprivileged)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	struct sigaction sa = {
		.sa_sigaction = touch_fault,
		.sa_flags = SA_SIGINFO,
	};
	/* the worker process's one state, alive until it exits or is killed */
	static struct worker worker;
	struct worker *w = &worker;
	uint32_t i, total;

	rng_state = seed ? seed : 1;
	w->st = st;
	w->buf = mmap(NULL, BUF_SIZE + PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->buf == MAP_FAILED ||
	    mprotect(w->buf + BUF_SIZE, PAGE, PROT_NONE))
		return 1;
	w->debug_ioctls = debug_ioctls_enabled();
	w->unprivileged = unprivileged;
	if (unprivileged && drop_to_nobody())
		return 2;
	w->fd[0] = dxgpmo_open();
	w->fd[1] = dxgpmo_open();
	if (w->fd[0] < 0 || w->fd[1] < 0 ||
	    dxgpmo_query_adapters(w->fd[0], info, DXGPMO_MAX_ADAPTERS, &total))
		return 1;
	for (i = 0; i < total && i < 8; i++) {
		w->adapters[i] = info[i].adapter_id;
		w->adapter_caps[i] = info[i].caps;
		w->seg_offset[i] = info[i].segment_mmap_offset;
	}
	w->nr_adapters = i;
	if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL))
		return 1;
	while (st->ops < budget && !__atomic_load_n(stop, __ATOMIC_RELAXED)) {
		fuzz_one(w);
		st->ops++;
	}
	return 0;
}

static int log_is_clean(int kmsg, unsigned int *leaks)
{
	char rec[4096];
	int clean = 1;

	*leaks = 0;
	for (;;) {
		ssize_t n = read(kmsg, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		if (strstr(rec, "live ADL"))
			(*leaks)++;
		if (strstr(rec, "WARNING:") || strstr(rec, "BUG:") ||
		    strstr(rec, "Oops") || strstr(rec, "KASAN") ||
		    strstr(rec, "general protection") ||
		    strstr(rec, "kernel BUG")) {
			printf("# bad log line: %s", rec);
			clean = 0;
		}
	}
	return clean;
}

FIXTURE(fuzz) {
	int unused;
};

FIXTURE_SETUP(fuzz)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(fuzz)
{
}

/* One worker position over all rounds. */
struct slot {
	struct worker_stats st;
	unsigned long rounds;
	unsigned long exits;		/* exit(0): ran its budget, or stopped */
	unsigned long fuzz_kills;	/* SIGKILL of the random kill */
	unsigned long net_kills;	/* SIGKILL of the safety net */
	unsigned long fault_deaths;	/* SIGSEGV/SIGBUS outside touch() */
	unsigned long other_deaths;	/* any other end */
	unsigned long failed;		/* exit(1): could not start */
};

enum { NOT_KILLED, KILL_RANDOM, KILL_NET };

struct fuzz {
	uint64_t seed;
	unsigned long ops;		/* operations to run; 0 in duration mode */
	unsigned long duration;		/* seconds to fuzz; 0 in ops mode */
	unsigned long seconds;		/* the safety net */
	double deadline, stop_at;
	bool unprivileged;		/* DXGPMO_FUZZ_UNPRIVILEGED */
	struct shared *sh;
	struct slot slot[WORKERS];
	unsigned long total, rounds, stuck;
	bool timed_out, setup_failed;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *s = getenv(name);

	return s && *s ? strtoul(s, NULL, 0) : def;
}

static unsigned long long worker_seed(const struct fuzz *f, unsigned int i)
{
	return f->seed * 1000003 + f->rounds * WORKERS + i;
}

static void add_stats(struct worker_stats *sum, const struct worker_stats *st)
{
	sum->ops += st->ops;
	sum->touches += st->touches;
	sum->segv_ro += st->segv_ro;
	sum->segv_unmapped += st->segv_unmapped;
	sum->bus += st->bus;
	sum->fault_other += st->fault_other;
	sum->priv_checks += st->priv_checks;
	sum->priv_violations += st->priv_violations;
}

/* How worker i ended, and what it did before. */
static void reap(struct fuzz *f, unsigned int i, int status, int killed)
{
	struct slot *s = &f->slot[i];
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;

	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		s->exits++;
	} else if (WIFEXITED(status)) {
		s->failed++;
		f->setup_failed = true;
		printf("# worker seed %llu could not start (exit %d)\n",
		       worker_seed(f, i), WEXITSTATUS(status));
	} else if (sig == SIGKILL && killed == KILL_RANDOM) {
		s->fuzz_kills++;
	} else if (sig == SIGKILL && killed == KILL_NET) {
		s->net_kills++;
	} else if (sig == SIGSEGV || sig == SIGBUS) {
		s->fault_deaths++;
		printf("# worker seed %llu died of %s outside a deliberate touch\n",
		       worker_seed(f, i), strsignal(sig));
	} else {
		s->other_deaths++;
		printf("# worker seed %llu ended unexpectedly (wait status %#x)\n",
		       worker_seed(f, i), status);
	}
	s->rounds++;
	add_stats(&s->st, &f->sh->w[i]);
	f->total += f->sh->w[i].ops;
}

/*
 * One round: WORKERS processes, one of them killed at a random moment in
 * about half the rounds.  Returns once every worker is reaped; at the
 * safety net's deadline it kills them all, and gives up on those still
 * there STUCK_SECONDS later.
 */
static void run_round(struct fuzz *f)
{
	unsigned long remaining = f->ops - f->total, budget;
	int killed[WORKERS] = { NOT_KILLED };
	double kill_at = 0, net_at = 0, t;
	unsigned int i, live = 0;
	pid_t pid[WORKERS];
	int victim = -1, status;

	for (i = 0; i < WORKERS; i++) {
		budget = ROUND_OPS;
		if (!f->duration &&
		    remaining / WORKERS + (i < remaining % WORKERS) < budget)
			budget = remaining / WORKERS + (i < remaining % WORKERS);
		memset(&f->sh->w[i], 0, sizeof(f->sh->w[i]));
		pid[i] = fork();
		if (!pid[i])
			_exit(run_worker(worker_seed(f, i), budget,
					 &f->sh->w[i], &f->sh->stop,
					 f->unprivileged));
		if (pid[i] < 0) {
			printf("# fork: %s\n", strerror(errno));
			f->setup_failed = true;
			continue;
		}
		live++;
	}
	if (pick(2)) {
		victim = pick(WORKERS);
		kill_at = now() + pick(2000000) / 1e6;
	}
	while (live) {
		for (i = 0; i < WORKERS; i++) {
			if (pid[i] <= 0 ||
			    waitpid(pid[i], &status, WNOHANG) != pid[i])
				continue;
			reap(f, i, status, killed[i]);
			pid[i] = 0;
			live--;
		}
		if (!live)
			break;
		t = now();
		if (victim >= 0 && pid[victim] > 0 &&
		    killed[victim] == NOT_KILLED && t >= kill_at) {
			kill(pid[victim], SIGKILL);
			killed[victim] = KILL_RANDOM;
		}
		if (f->duration && t >= f->stop_at)
			__atomic_store_n(&f->sh->stop, 1, __ATOMIC_RELAXED);
		if (t >= f->deadline && !net_at) {
			f->timed_out = true;
			net_at = t;
			for (i = 0; i < WORKERS; i++) {
				if (pid[i] <= 0)
					continue;
				kill(pid[i], SIGKILL);
				killed[i] = KILL_NET;
			}
		}
		if (net_at && t >= net_at + STUCK_SECONDS) {
			for (i = 0; i < WORKERS; i++) {
				if (pid[i] <= 0)
					continue;
				printf("# worker pid %d (seed %llu) stuck: ",
				       pid[i], worker_seed(f, i));
				printf("still there %d s after SIGKILL\n",
				       STUCK_SECONDS);
				f->stuck++;
			}
			break;
		}
		usleep(10000);
	}
	f->rounds++;
}

static bool run_more(const struct fuzz *f)
{
	if (f->timed_out || f->setup_failed)
		return false;
	if (f->duration)
		return !f->sh->stop && now() < f->stop_at;
	return f->total < f->ops;
}

static void print_touches(const struct worker_stats *st)
{
	printf("%lu touches caught SIGSEGV %lu (read-only) + %lu (unmapped), ",
	       st->touches, st->segv_ro, st->segv_unmapped);
	printf("SIGBUS %lu (revoked), other %lu\n", st->bus, st->fault_other);
}

static void print_counts(const struct fuzz *f, double elapsed)
{
	struct slot all = { 0 };
	unsigned int i;

	for (i = 0; i < WORKERS; i++) {
		const struct slot *s = &f->slot[i];

		printf("# worker %u: %lu ops in %lu rounds, ",
		       i, s->st.ops, s->rounds);
		print_touches(&s->st);
		add_stats(&all.st, &s->st);
		all.exits += s->exits;
		all.fuzz_kills += s->fuzz_kills;
		all.net_kills += s->net_kills;
		all.fault_deaths += s->fault_deaths;
		all.other_deaths += s->other_deaths;
		all.failed += s->failed;
	}
	printf("# %lu operations in %.1f s: %.0f ops/s, %lu rounds of %d workers\n",
	       f->total, elapsed, elapsed > 0 ? f->total / elapsed : 0.0,
	       f->rounds, WORKERS);
	printf("# all workers: ");
	print_touches(&all.st);
	printf("# worker ends: %lu exits, %lu killed by the fuzzer (SIGKILL), ",
	       all.exits, all.fuzz_kills);
	printf("%lu by the safety net (SIGKILL); unexpected: ", all.net_kills);
	printf("%lu SIGSEGV/SIGBUS, %lu other, %lu could not start\n",
	       all.fault_deaths, all.other_deaths, all.failed);
	if (f->unprivileged)
		printf("# unprivileged: %lu calls that need a capability, %lu did not fail as they must\n",
		       all.st.priv_checks, all.st.priv_violations);
}

static unsigned long priv_counts(const struct fuzz *f, bool violations)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < WORKERS; i++)
		n += violations ? f->slot[i].st.priv_violations :
				  f->slot[i].st.priv_checks;
	return n;
}

static unsigned long unexpected_deaths(const struct fuzz *f)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < WORKERS; i++)
		n += f->slot[i].fault_deaths + f->slot[i].other_deaths;
	return n;
}

TEST_F_TIMEOUT(fuzz, random_sequences, HARNESS_SECONDS)
{
	const char *s = getenv("DXGPMO_FUZZ_SEED");
	struct fuzz f = {
		.seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL),
		.duration = env_ulong("DXGPMO_FUZZ_DURATION", 0),
	};
	struct dxgpmo_stats st;
	unsigned int leaks;
	double start, elapsed;
	struct stat node;
	int fd, kmsg;

	f.ops = f.duration ? 0 : env_ulong("DXGPMO_FUZZ_OPS", DEFAULT_OPS);
	f.seconds = env_ulong("DXGPMO_FUZZ_SECONDS",
			      f.duration ? f.duration + 60 : DEFAULT_SECONDS);
	ASSERT_LT(f.duration, f.seconds) {
		printf("# the safety net DXGPMO_FUZZ_SECONDS (%lu) must exceed ",
		       f.seconds);
		printf("DXGPMO_FUZZ_DURATION (%lu)\n", f.duration);
	}
	ASSERT_GT(HARNESS_SECONDS - STUCK_SECONDS - 60, f.seconds);
	f.sh = mmap(NULL, sizeof(*f.sh), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, f.sh);
	printf("# fuzz seed %llu (replay: DXGPMO_FUZZ_SEED=%llu)\n",
	       (unsigned long long)f.seed, (unsigned long long)f.seed);
	if (f.duration)
		printf("# fuzzing for %lu s (DXGPMO_FUZZ_DURATION), ", f.duration);
	else
		printf("# %lu operations (DXGPMO_FUZZ_OPS), ", f.ops);
	printf("safety net %lu s (DXGPMO_FUZZ_SECONDS)\n", f.seconds);
	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "warn"));
	f.unprivileged = env_ulong("DXGPMO_FUZZ_UNPRIVILEGED", 0);
	ASSERT_EQ(0, stat(DXGPMO_DEV_PATH, &node));
	if (f.unprivileged) {
		printf("# workers run as nobody without capabilities, node 0666\n");
		ASSERT_EQ(0, chmod(DXGPMO_DEV_PATH, 0666));
	}
	kmsg = kmsg_open_new();
	ASSERT_LE(0, kmsg);
	kmsg_write("dxgpmo-expect: begin fuzz\n");
	rng_state = f.seed ? f.seed : 1;

	start = now();
	f.deadline = start + f.seconds;
	f.stop_at = start + f.duration;
	while (run_more(&f))
		run_round(&f);
	elapsed = now() - start;

	kmsg_write("dxgpmo-expect: end fuzz\n");
	chmod(DXGPMO_DEV_PATH, node.st_mode & 07777);
	print_counts(&f, elapsed);
	EXPECT_FALSE(f.timed_out) {
		if (f.duration)
			printf("# FAIL: safety net: a %lu s run not over after %lu s",
			       f.duration, f.seconds);
		else
			printf("# FAIL: safety net: only %lu of %lu operations in %lu s",
			       f.total, f.ops, f.seconds);
		printf(" (DXGPMO_FUZZ_SECONDS=%lu): workers killed;", f.seconds);
		printf(" a hang, or a kernel too slow for this net\n");
	}
	EXPECT_EQ(0, f.stuck);
	EXPECT_FALSE(f.setup_failed);
	EXPECT_EQ(0, unexpected_deaths(&f)) {
		printf("# FAIL: workers died, not of the fuzzer's SIGKILL\n");
	}
	EXPECT_EQ(0, priv_counts(&f, true));
	if (f.unprivileged)
		EXPECT_LT(0, priv_counts(&f, false));
	EXPECT_TRUE(log_is_clean(kmsg, &leaks)) {
		printf("# seed %llu\n", (unsigned long long)f.seed);
	}
	printf("# %u ADL-leak messages (adl_leak=warn, rate-limited)\n", leaks);
	close(kmsg);
	fd = dxgpmo_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dxgpmo_get_stats(fd, &st));
	EXPECT_EQ(0, dxgpmo_counters_live(&st.global)) {
		printf("# leak after seed %llu\n", (unsigned long long)f.seed);
	}
	close(fd);
	/* Not a timed assertion: the safety net above is the only clock. */
	if (f.duration)
		EXPECT_LT(0, f.total);
	if (!f.duration)
		EXPECT_EQ(f.ops, f.total);
}

TEST_HARNESS_MAIN
