// SPDX-License-Identifier: GPL-2.0
/*
 * The trace events (module/trace.h), read back through tracefs: a scripted
 * sequence of calls, traced in a tracefs instance of the test's own that
 * records only this process, must leave each event exactly as often as the
 * sequence made it, with the fields the calls had.  A missing event, an
 * extra one or a wrong field fails.  Needs root (tracefs is root's).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

#define MAX_EVENTS 256
#define MAX_FIELDS 12

struct event {
	char name[64];
	char fields[512];	/* " k=v k=v ... " */
};

/* The tracefs mount, mounting it where nothing has. */
static const char *tracefs_dir(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[128];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/instances", dirs[i]);
		if (!access(path, F_OK))
			return dirs[i];
	}
	if (!mount("nodev", dirs[0], "tracefs", 0, NULL))
		return dirs[0];
	return NULL;
}

static int put(const char *dir, const char *file, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return write_file(path, val);
}

/* The test's tracefs instance and what was read back from it. */
struct trace_log {
	char inst[192];
	struct event ev[MAX_EVENTS];
	unsigned int nr;
};

FIXTURE(trace) {
	int fd;
	struct adapters ad;
	struct trace_log log;
};

FIXTURE_SETUP(trace)
{
	const char *tracefs = tracefs_dir();
	char path[256], filter[32];

	self->log.inst[0] = 0;
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, load_adapters(self->fd, &self->ad));
	if (!tracefs)
		SKIP(return, "no tracefs (the kernel has no event tracing)");
	snprintf(path, sizeof(path), "%s/events/dxgpmo", tracefs);
	ASSERT_EQ(0, access(path, F_OK)) {
		TH_LOG("%s: the module has no trace events", path);
	}
	snprintf(self->log.inst, sizeof(self->log.inst),
		 "%s/instances/dxgpmo-trace-test-%d", tracefs, getpid());
	ASSERT_EQ(0, mkdir(self->log.inst, 0700));
	/*
	 * Only this process's calls: the events of other work stay out.  A
	 * filter, not set_event_pid, which hooks sched_switch: patching the
	 * scheduler while the other vCPU runs it oopses a TCG guest.
	 */
	snprintf(filter, sizeof(filter), "common_pid == %d", getpid());
	ASSERT_EQ(0, put(self->log.inst, "events/dxgpmo/filter", filter));
	ASSERT_EQ(0, put(self->log.inst, "events/dxgpmo/enable", "1"));
}

FIXTURE_TEARDOWN(trace)
{
	if (self->log.inst[0]) {
		put(self->log.inst, "events/dxgpmo/enable", "0");
		EXPECT_EQ(0, rmdir(self->log.inst));
	}
	teardown_dxgpmo(self->fd);
}

/* The instance's buffer, parsed: each dxgpmo event line's name and fields. */
static unsigned int read_events(struct trace_log *self)
{
	char path[256], line[1024];
	FILE *f;

	put(self->inst, "tracing_on", "0");
	snprintf(path, sizeof(path), "%s/trace", self->inst);
	f = fopen(path, "r");
	if (!f)
		return 0;
	self->nr = 0;
	while (fgets(line, sizeof(line), f) && self->nr < MAX_EVENTS) {
		char *name = strstr(line, ": dxgpmo_"), *rest, *nl;
		struct event *e = &self->ev[self->nr];

		if (line[0] == '#' || !name)
			continue;
		name += 2;
		rest = strchr(name, ':');
		if (!rest)
			continue;
		*rest++ = 0;
		nl = strchr(rest, '\n');
		if (nl)
			*nl = 0;
		snprintf(e->name, sizeof(e->name), "%s", name);
		snprintf(e->fields, sizeof(e->fields), "%s ", rest);
		self->nr++;
	}
	fclose(f);
	return self->nr;
}

/* fields: "k=v" strings that must all be in the event, NULL-ended. */
static bool event_has(const struct event *e, const char *const *fields)
{
	char needle[128];

	for (; *fields; fields++) {
		snprintf(needle, sizeof(needle), " %s ", *fields);
		if (!strstr(e->fields, needle))
			return false;
	}
	return true;
}

static unsigned int count_named(struct trace_log *self, const char *name)
{
	unsigned int i, n = 0;

	for (i = 0; i < self->nr; i++)
		n += !strcmp(self->ev[i].name, name);
	return n;
}

struct expect {
	const char *name;
	char fields[MAX_FIELDS][48];
};

static void expect_add(struct expect *x, unsigned int *nr, const char *name,
		       const char *fmt, ...)
{
	struct expect *e = &x[(*nr)++];
	char buf[MAX_FIELDS * 48], *tok, *save;
	unsigned int i = 0;
	va_list ap;

	memset(e, 0, sizeof(*e));
	e->name = name;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (tok = strtok_r(buf, " ", &save); tok && i < MAX_FIELDS - 1;
	     tok = strtok_r(NULL, " ", &save))
		snprintf(e->fields[i++], sizeof(e->fields[0]), "%s", tok);
}

/*
 * Each expected event once, and no other event of its name than the ones
 * expected: an event the code stopped making, or makes twice, fails.
 */
static void check_events(struct __test_metadata *_metadata,
			 struct trace_log *self, const struct expect *x,
			 unsigned int nr)
{
	unsigned int i, j, k;

	ASSERT_LT(0, read_events(self));
	for (i = 0; i < nr; i++) {
		const char *fields[MAX_FIELDS + 1];
		unsigned int found = 0, expected_of_name = 0;

		for (k = 0; k < MAX_FIELDS && x[i].fields[k][0]; k++)
			fields[k] = x[i].fields[k];
		fields[k] = NULL;
		for (j = 0; j < self->nr; j++)
			found += !strcmp(self->ev[j].name, x[i].name) &&
				 event_has(&self->ev[j], fields);
		for (j = 0; j < nr; j++)
			expected_of_name += !strcmp(x[j].name, x[i].name);
		EXPECT_EQ(1, found) {
			TH_LOG("%s with %s %s %s %s: %u times", x[i].name,
			       fields[0], k > 1 ? fields[1] : "",
			       k > 2 ? fields[2] : "", k > 3 ? fields[3] : "",
			       found);
			for (j = 0; j < self->nr; j++)
				if (!strcmp(self->ev[j].name, x[i].name))
					TH_LOG("  seen: %s", self->ev[j].fields);
		}
		EXPECT_EQ(expected_of_name, count_named(self, x[i].name)) {
			TH_LOG("%s: %u events, %u expected", x[i].name,
			       count_named(self, x[i].name), expected_of_name);
		}
	}
}

static int create_on(int fd, uint32_t adapter, uint32_t type, uint32_t cache,
		     uint64_t length, uint64_t context,
		     struct dxgpmo_create_pmo *c)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->adapter_id = adapter;
	c->type = type;
	c->cache_type = cache;
	c->length = length;
	c->context = context;
	return dxgpmo_create_pmo(fd, c);
}

/*
 * Every command of the contract once (and one refused call), on the first
 * adapter with a DMA engine and a segment.
 */
TEST_F(trace, every_command)
{
	const struct dxgpmo_adapter_info *a = self->ad.edu;
	struct dxgpmo_memory_range r = { .length = 16 * PAGE };
	struct dxgpmo_allocate_adl adl = { 0 };
	struct dxgpmo_map kmap = { 0 }, umap = { 0 };
	struct dxgpmo_create_pmo c, plain;
	struct expect x[32];
	unsigned int nx = 0;
	uint32_t amo2, basis;
	char data[64] = "traced", bits[8];
	int pid = getpid(), dmabuf;
	uint64_t dev;

	if (!self->log.inst[0])
		return;
	if (!a)
		SKIP(return, "needs an adapter with a DMA engine");
	ASSERT_EQ(0, create_on(self->fd, a->adapter_id, DXGPMO_PMO_TYPE_MDL,
			       DXGPMO_CACHE_CACHED, 4 * PAGE, 0xc0ffee, &c));
	expect_add(x, &nx, "dxgpmo_create_pmo",
		   "pid=%d kernel=0 adapter=%u obj=%u amo=%u type=mdl cache=cached length=%llu context=0xc0ffee ret=0",
		   pid, a->adapter_id, c.pmo_id, c.amo_id, 4 * PAGE);

	adl.amo_id = c.amo_id;
	adl.length = 4 * PAGE;
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
	expect_add(x, &nx, "dxgpmo_allocate_adl",
		   "pid=%d amo=%u obj=%u offset=0 length=%llu pages=4 ret=0",
		   pid, c.amo_id, adl.adl_id, 4 * PAGE);
	expect_add(x, &nx, "dxgpmo_adl_dma_map",
		   "adapter=%u obj=%u pages=4", a->adapter_id, adl.adl_id);

	kmap.pmo_id = c.pmo_id;
	kmap.access_mode = DXGPMO_ACCESS_KERNEL;
	kmap.length = PAGE;
	ASSERT_EQ(0, dxgpmo_map(self->fd, &kmap));
	expect_add(x, &nx, "dxgpmo_map",
		   "pmo=%u obj=%u access=kernel length=%llu address=0x%llx ret=0",
		   c.pmo_id, kmap.map_id, PAGE,
		   (unsigned long long)kmap.address);
	ASSERT_EQ(0, dxgpmo_kmap_rw(self->fd, kmap.map_id, DXGPMO_KMAP_WRITE,
				    8, data, sizeof(data)));
	expect_add(x, &nx, "dxgpmo_kmap_rw",
		   "obj=%u write=1 offset=8 length=%zu ret=0", kmap.map_id,
		   sizeof(data));
	ASSERT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, kmap.address,
				  kmap.length));

	umap.pmo_id = c.pmo_id;
	umap.access_mode = DXGPMO_ACCESS_USER;
	umap.offset = PAGE;
	umap.length = PAGE;
	ASSERT_EQ(0, dxgpmo_map(self->fd, &umap));
	/* The answer's offset and length: the range's place in the view. */
	expect_add(x, &nx, "dxgpmo_map",
		   "pmo=%u obj=%u access=user offset=%llu length=%llu address=0x%llx ret=0",
		   c.pmo_id, umap.map_id, (unsigned long long)umap.offset,
		   (unsigned long long)umap.length,
		   (unsigned long long)umap.address);
	ASSERT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, umap.address,
				  umap.length));
	expect_add(x, &nx, "dxgpmo_unmap", "obj=%u address=0x%llx ret=0",
		   c.pmo_id, (unsigned long long)umap.address);
	/* The kernel-mode view's, by the token MAP gave for an address. */
	expect_add(x, &nx, "dxgpmo_unmap", "obj=%u address=0x%llx ret=0",
		   c.pmo_id, (unsigned long long)kmap.address);

	ASSERT_EQ(0, dxgpmo_export_dmabuf(self->fd, c.pmo_id, O_RDWR,
					  &dmabuf));
	expect_add(x, &nx, "dxgpmo_export_dmabuf", "obj=%u fd=%d ret=0",
		   c.pmo_id, dmabuf);
	EXPECT_EQ(0, close(dmabuf));

	ASSERT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	expect_add(x, &nx, "dxgpmo_free_adl", "obj=%u ret=0", adl.adl_id);
	expect_add(x, &nx, "dxgpmo_adl_dma_unmap", "adapter=%u obj=%u pages=4",
		   a->adapter_id, adl.adl_id);
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
	expect_add(x, &nx, "dxgpmo_destroy_pmo", "obj=%u amo=%u ret=0",
		   c.pmo_id, c.amo_id);
	/* A refused call is traced with its error. */
	EXPECT_EQ(-ENOENT, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	expect_add(x, &nx, "dxgpmo_destroy_pmo", "obj=%u amo=0 ret=%d",
		   c.pmo_id, -ENOENT);

	ASSERT_EQ(0, create_on(self->fd, 0, DXGPMO_PMO_TYPE_MDL,
			       DXGPMO_CACHE_CACHED, PAGE, 7, &plain));
	expect_add(x, &nx, "dxgpmo_create_pmo",
		   "adapter=0 obj=%u amo=0 context=0x7 ret=0", plain.pmo_id);
	ASSERT_EQ(0, dxgpmo_open_pmo(self->fd, plain.pmo_id, a->adapter_id,
				     &amo2));
	expect_add(x, &nx, "dxgpmo_open_pmo", "adapter=%u pmo=%u obj=%u ret=0",
		   a->adapter_id, plain.pmo_id, amo2);
	ASSERT_EQ(0, dxgpmo_close_pmo(self->fd, amo2));
	expect_add(x, &nx, "dxgpmo_close_pmo", "obj=%u ret=0", amo2);
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, plain.pmo_id, 0));
	expect_add(x, &nx, "dxgpmo_destroy_pmo", "obj=%u amo=0 ret=0",
		   plain.pmo_id);

	ASSERT_EQ(0, dxgpmo_create_memory_basis(self->fd, a->adapter_id, 1, &r,
						1, &basis));
	expect_add(x, &nx, "dxgpmo_create_memory_basis",
		   "adapter=%u segment=1 ranges=1 obj=%u ret=0", a->adapter_id,
		   basis);
	ASSERT_EQ(0, dxgpmo_start_dirty_tracking(self->fd, basis));
	expect_add(x, &nx, "dxgpmo_start_dirty_tracking", "obj=%u ret=0",
		   basis);
	dev = a->segment_device_address + 2 * PAGE;
	ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, a->adapter_id,
					DXGPMO_DMA_TO_MEMORY, dev, data,
					sizeof(data)));
	expect_add(x, &nx, "dxgpmo_adapter_dma",
		   "adapter=%u to_memory=1 device_address=0x%llx length=%zu ret=0",
		   a->adapter_id, (unsigned long long)dev, sizeof(data));
	expect_add(x, &nx, "dxgpmo_segment_dma",
		   "adapter=%u to_memory=1 offset=%llu length=%zu ret=0",
		   a->adapter_id, 2 * PAGE, sizeof(data));
	ASSERT_EQ(0, dxgpmo_query_dirty_bits(self->fd, basis,
					     DXGPMO_DIRTY_CLEAR_DATA, 0, 0, 0,
					     bits, sizeof(bits)));
	expect_add(x, &nx, "dxgpmo_query_dirty_bits",
		   "obj=%u clear_data=1 subrange_length=0 ret=0", basis);
	/* The engine's one write, in 16 pages of 4 KiB (the default). */
	expect_add(x, &nx, "dxgpmo_dirty_report",
		   "obj=%u pages=16 dirty=1 clear_data=1", basis);
	ASSERT_EQ(0, dxgpmo_stop_dirty_tracking(self->fd, basis));
	expect_add(x, &nx, "dxgpmo_stop_dirty_tracking", "obj=%u ret=0",
		   basis);
	ASSERT_EQ(0, dxgpmo_destroy_memory_basis(self->fd, basis));
	expect_add(x, &nx, "dxgpmo_destroy_memory_basis", "obj=%u ret=0",
		   basis);

	check_events(_metadata, &self->log, x, nx);
}

#define PINNED_PARAM "/sys/module/dxgpmo/parameters/max_pinned_mb"

/*
 * Below the commands: a quota refusal, and the ADL leak check (adl_leak
 * is warn, its default).
 */
TEST_F(trace, refusals_and_leaks)
{
	const struct dxgpmo_adapter_info *a = self->ad.any;
	struct dxgpmo_allocate_adl adl = { 0 };
	struct dxgpmo_create_pmo c;
	char cap[32];
	struct expect x[12];
	unsigned int nx = 0;

	if (!self->log.inst[0])
		return;
	ASSERT_NE(NULL, a);
	ASSERT_EQ(0, dxgpmo_read_line(PINNED_PARAM, cap, sizeof(cap)));
	ASSERT_EQ(0, write_sysfs(PINNED_PARAM, "0"));
	EXPECT_EQ(-ENOMEM, create_on(self->fd, 0, DXGPMO_PMO_TYPE_MDL,
				     DXGPMO_CACHE_CACHED, PAGE, 0, &c));
	ASSERT_EQ(0, write_sysfs(PINNED_PARAM, cap));
	expect_add(x, &nx, "dxgpmo_quota_refused",
		   "own=0 kind=pinned_pages wanted=1 max=0");
	expect_add(x, &nx, "dxgpmo_create_pmo", "obj=0 ret=%d", -ENOMEM);

	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "warn"));
	ASSERT_EQ(0, create_on(self->fd, a->adapter_id, DXGPMO_PMO_TYPE_MDL,
			       DXGPMO_CACHE_CACHED, PAGE, 0x1eaf, &c));
	adl.amo_id = c.amo_id;
	adl.length = PAGE;
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
	EXPECT_EQ(-EBUSY, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
	expect_add(x, &nx, "dxgpmo_create_pmo", "obj=%u context=0x1eaf ret=0",
		   c.pmo_id);
	expect_add(x, &nx, "dxgpmo_allocate_adl", "obj=%u ret=0", adl.adl_id);
	expect_add(x, &nx, "dxgpmo_adl_leak",
		   "obj=%u amo=%u adls=1 context=0x1eaf action=warn", c.pmo_id,
		   c.amo_id);
	expect_add(x, &nx, "dxgpmo_destroy_pmo", "obj=%u amo=%u ret=%d",
		   c.pmo_id, c.amo_id, -EBUSY);
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	expect_add(x, &nx, "dxgpmo_free_adl", "obj=%u ret=0", adl.adl_id);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
	expect_add(x, &nx, "dxgpmo_destroy_pmo", "obj=%u amo=%u ret=0",
		   c.pmo_id, c.amo_id);
	check_events(_metadata, &self->log, x, nx);
}

/*
 * A write-combined object's pages: a pool miss (the pool emptied first)
 * switches fresh pages in one call.  Without a pool (arm64, where the
 * linear map stays write-back) the object's own pages are cleaned in one
 * call, and nothing is switched back when it goes.
 */
TEST_F(trace, pool_and_linear_map)
{
	struct dxgpmo_create_pmo c;
	long cap = pool_cap_pages();
	struct expect x[8];
	unsigned int nx = 0;

	if (!self->log.inst[0])
		return;
	ASSERT_LE(0, cap);
	/* Emptying the pool switches its pages back: not part of the script. */
	ASSERT_EQ(0, put(self->log.inst, "tracing_on", "0"));
	ASSERT_EQ(0, write_file("/proc/sys/vm/drop_caches", "2"));
	ASSERT_EQ(0, put(self->log.inst, "tracing_on", "1"));
	ASSERT_EQ(0, create_on(self->fd, 0, DXGPMO_PMO_TYPE_MDL,
			       DXGPMO_CACHE_WRITE_COMBINED, 4 * PAGE, 0, &c));
	ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
	if (cap) {
		/* One batch: the caller's 4 pages, the rest for the pool. */
		expect_add(x, &nx, "dxgpmo_pool_miss",
			   "cache=write_combined order=0 wanted=4 got=4");
		expect_add(x, &nx, "dxgpmo_linear_map",
			   "cache=write_combined ret=0");
	} else {
		expect_add(x, &nx, "dxgpmo_linear_map",
			   "cache=write_combined pages=4 ret=0");
	}
	check_events(_metadata, &self->log, x, nx);
}

TEST_HARNESS_MAIN
