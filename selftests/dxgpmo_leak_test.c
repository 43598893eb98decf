// SPDX-License-Identifier: GPL-2.0
/*
 * Leak hunting (Documentation/admin-guide/dxgpmo.rst, "Leak hunting"): a
 * deliberately leaking process, which makes objects with known Context
 * values and an ADL and exits without freeing them, is listed with its
 * handles, Context values and creator in debugfs dxgpmo/objects while it
 * lives (with each object's stack when leak_stacks=1, without it
 * otherwise), and reported object by object, with a summary, when its
 * file closes with leak_report=1; with leak_report=0 its close says
 * nothing.  DESTROY_PMO with a live ADL names the caller's handle and the
 * Context.  Root only: debugfs and the module's parameters are root's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

#define LEAK_REPORT_PARAM "/sys/module/dxgpmo/parameters/leak_report"
#define LEAK_STACKS_PARAM "/sys/module/dxgpmo/parameters/leak_stacks"
#define OBJECTS_VIEW "/sys/kernel/debug/dxgpmo/objects"

/* The leaker's comm, set by prctl(): the view and the report name it. */
#define LEAKER_COMM "dxgpmo-leaker"
#define CONTEXT_A 0xc0ffee00000aULL
#define CONTEXT_B 0xc0ffee00000bULL

/* What the leaking child made, as it tells the parent. */
struct leaked {
	uint32_t pmo_a, amo_a, adl_a, pmo_b, map_b, basis;
};

/* A memory basis over the adapter's segment's first 2 MiB, if it has one. */
#define BASIS_SIZE (2ULL << 20)

struct leaker {
	pid_t pid;
	int to_child, from_child;
	struct leaked ids;
};

/*
 * The child: a file with PMO A (4 pages, CONTEXT_A) opened on the first
 * adapter with an ADL of one page, PMO B (2 pages, CONTEXT_B, no
 * adapter) with a kernel view of it, and, when the adapter's segment is
 * large enough, a memory basis over BASIS_SIZE of it; it tells the parent
 * their ids, waits for the word and exits without freeing or closing
 * anything.  Exits 10-16 on failure.
 */
static void leaker_child(int in, int out, uint32_t adapter, int with_basis)
{
	struct dxgpmo_memory_range range = { .length = BASIS_SIZE };
	struct dxgpmo_create_pmo a = {
		.length = 4 * PAGE, .adapter_id = adapter,
		.cache_type = DXGPMO_CACHE_CACHED, .context = CONTEXT_A,
	};
	struct dxgpmo_create_pmo b = {
		.length = 2 * PAGE, .cache_type = DXGPMO_CACHE_CACHED,
		.context = CONTEXT_B,
	};
	struct dxgpmo_allocate_adl adl = { .length = PAGE };
	struct dxgpmo_map view = {
		.access_mode = DXGPMO_ACCESS_KERNEL, .length = 2 * PAGE,
	};
	uint32_t basis = 0;
	struct leaked ids;
	char go;
	int fd;

	prctl(PR_SET_NAME, LEAKER_COMM);
	fd = dxgpmo_open();
	if (fd < 0)
		_exit(10);
	if (dxgpmo_create_pmo(fd, &a) || dxgpmo_create_pmo(fd, &b))
		_exit(11);
	adl.amo_id = a.amo_id;
	if (dxgpmo_allocate_adl(fd, &adl))
		_exit(12);
	view.pmo_id = b.pmo_id;
	if (dxgpmo_map(fd, &view))
		_exit(15);
	if (with_basis &&
	    dxgpmo_create_memory_basis(fd, adapter, 1, &range, 1, &basis))
		_exit(16);
	ids = (struct leaked){
		.pmo_a = a.pmo_id, .amo_a = a.amo_id, .adl_a = adl.adl_id,
		.pmo_b = b.pmo_id, .map_b = view.map_id, .basis = basis,
	};
	if (write(out, &ids, sizeof(ids)) != sizeof(ids))
		_exit(13);
	if (read(in, &go, 1) != 1)
		_exit(14);
	_exit(0);	/* the objects are left to the close */
}

static int leaker_start(struct leaker *l,
			const struct dxgpmo_adapter_info *adapter)
{
	int down[2], up[2];

	if (pipe(down) || pipe(up))
		return -1;
	l->pid = fork();
	if (l->pid < 0)
		return -1;
	if (!l->pid) {
		close(down[1]);
		close(up[0]);
		leaker_child(down[0], up[1], adapter->adapter_id,
			     adapter->segment_size >= BASIS_SIZE);
	}
	close(down[0]);
	close(up[1]);
	l->to_child = down[1];
	l->from_child = up[0];
	if (read(l->from_child, &l->ids, sizeof(l->ids)) != sizeof(l->ids))
		return -1;
	return 0;
}

/* Let the child exit; its exit status. */
static int leaker_finish(struct leaker *l)
{
	int status = -1;

	if (write(l->to_child, "x", 1) != 1)
		kill(l->pid, SIGKILL);
	waitpid(l->pid, &status, 0);
	close(l->to_child);
	close(l->from_child);
	return status;
}

/* The whole view, NUL-terminated, in a buffer the caller frees. */
static char *read_view(void)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	int fd = open(OBJECTS_VIEW, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 4096) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
	}
	buf[len] = 0;
	close(fd);
	return buf;
}

/*
 * The part of the view for the file the process pid opened (its header
 * line to the next header), copied; its id in *file_id.  NULL if none.
 */
static char *view_of(const char *view, pid_t pid, unsigned int *file_id)
{
	char header[64];
	const char *p = view, *end;
	unsigned int id;

	while (p && *p) {
		if (!strncmp(p, "file ", 5) && sscanf(p, "file %u ", &id) == 1) {
			snprintf(header, sizeof(header), "file %u pid %d comm ",
				 id, pid);
			if (!strncmp(p, header, strlen(header))) {
				end = strstr(p + 1, "\nfile ");
				*file_id = id;
				return strndup(p, end ? (size_t)(end - p + 1) :
						   strlen(p));
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The line of the view part that starts with "  handle 0x<id> <type> ". */
static const char *object_line(const char *part, uint32_t id,
			       const char *type)
{
	char want[64];

	snprintf(want, sizeof(want), "\n  handle 0x%x %s ", id, type);
	return strstr(part, want);
}

/*
 * Whether the object's line in the view says what it should, and whether
 * the stack lines under it (if want_stack) name the command that made it
 * (if !want_stack: that it has none).
 */
static int object_ok(struct __test_metadata *_metadata, const char *part,
		     uint32_t id, const char *type, unsigned long long size,
		     unsigned long long context, pid_t pid, int want_stack,
		     const char *command)
{
	const char *line = object_line(part, id, type), *next;
	char want[160];

	if (!line) {
		TH_LOG("no %s 0x%x in:\n%s", type, id, part);
		return 0;
	}
	line++;
	snprintf(want, sizeof(want),
		 "  handle 0x%x %s size %llu cache cached context 0x%llx pid %d comm %s\n",
		 id, type, size, context, pid, LEAKER_COMM);
	if (strncmp(line, want, strlen(want))) {
		TH_LOG("want: %sgot: %.*s", want,
		       (int)(strchrnul(line, '\n') - line + 1), line);
		return 0;
	}
	next = line + strlen(want);
	if (!want_stack)
		return strncmp(next, "    ", 4) != 0;
	/* The stack's lines, each indented by four, until the next object. */
	while (!strncmp(next, "    ", 4)) {
		const char *eol = strchrnul(next, '\n');

		if (memmem(next, eol - next, command, strlen(command)))
			return 1;
		next = *eol ? eol + 1 : eol;
	}
	TH_LOG("no %s in the stack of %s 0x%x:\n%s", command, type, id, part);
	return 0;
}

FIXTURE(leak) {
	int fd;
	struct adapters ad;
	int kmsg;
};

FIXTURE_SETUP(leak)
{
	/* Without debugfs, or as a user, there is nothing to read. */
	if (access("/sys/kernel/debug/dxgpmo/stats", R_OK))
		SKIP(return, "no dxgpmo debugfs (not mounted, or not root)");
	/* The module's debugfs without the view is the defect. */
	ASSERT_EQ(0, access(OBJECTS_VIEW, R_OK));
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, load_adapters(self->fd, &self->ad));
	if (!self->ad.any)
		SKIP(return, "no adapter to make an ADL on");
	self->kmsg = kmsg_open_new();
	ASSERT_LE(0, self->kmsg);
}

FIXTURE_TEARDOWN(leak)
{
	write_sysfs(LEAK_REPORT_PARAM, "0");
	write_sysfs(LEAK_STACKS_PARAM, "0");
	write_sysfs(ADL_LEAK_PARAM, "warn");
	if (self->kmsg >= 0)
		close(self->kmsg);
	if (self->fd >= 0)
		teardown_dxgpmo(self->fd);
}

/*
 * The child's objects, as the view lists them while it lives: its file by
 * pid and comm, each object with its handle, size, cache type, Context and
 * creator, and its stack when want_stacks.  The file's id in *file_id.
 */
static void expect_listed(struct __test_metadata *_metadata,
			  const struct leaker *l, int want_stacks,
			  unsigned int *file_id)
{
	char *view = read_view(), *part;

	ASSERT_NE(NULL, view);
	part = view_of(view, l->pid, file_id);
	EXPECT_NE(NULL, part) {
		TH_LOG("no file of pid %d in:\n%s", l->pid, view);
	}
	free(view);
	if (!part)
		return;
	EXPECT_TRUE(object_ok(_metadata, part, l->ids.pmo_a, "pmo", 4 * PAGE,
			      CONTEXT_A, l->pid, want_stacks,
			      "dxgpmo_cmd_create_pmo"));
	EXPECT_TRUE(object_ok(_metadata, part, l->ids.amo_a, "amo", 4 * PAGE,
			      CONTEXT_A, l->pid, want_stacks,
			      "dxgpmo_cmd_create_pmo"));
	EXPECT_TRUE(object_ok(_metadata, part, l->ids.adl_a, "adl", PAGE,
			      CONTEXT_A, l->pid, want_stacks,
			      "dxgpmo_cmd_allocate_adl"));
	EXPECT_TRUE(object_ok(_metadata, part, l->ids.pmo_b, "pmo", 2 * PAGE,
			      CONTEXT_B, l->pid, want_stacks,
			      "dxgpmo_cmd_create_pmo"));
	EXPECT_TRUE(object_ok(_metadata, part, l->ids.map_b, "map", 2 * PAGE,
			      CONTEXT_B, l->pid, want_stacks,
			      "dxgpmo_cmd_map"));
	if (l->ids.basis) {
		const char *line = object_line(part, l->ids.basis, "basis");
		char want[160];

		snprintf(want, sizeof(want),
			 "\n  handle 0x%x basis size %llu cache - context 0x0 pid %d comm %s\n",
			 l->ids.basis, BASIS_SIZE, l->pid, LEAKER_COMM);
		EXPECT_TRUE(line && !strncmp(line, want, strlen(want))) {
			TH_LOG("want: %sin:\n%s", want + 1, part);
		}
	}
	free(part);
}

/* The file is gone from the view once its process exited. */
static void expect_unlisted(struct __test_metadata *_metadata, pid_t pid)
{
	char *view = read_view(), *part;
	unsigned int id;

	ASSERT_NE(NULL, view);
	part = view_of(view, pid, &id);
	EXPECT_EQ(NULL, part);
	free(part);
	free(view);
}

/*
 * The records naming opener (a file's "dxgpmo: file N (...)"), one a line,
 * read until one has until or 2 s passed without one; in a buffer the
 * caller frees.
 */
static char *log_of(int kmsg, const char *opener, const char *until)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = calloc(1, cap), rec[2048];
	int waited = 0;

	while (buf && kmsg_next_record(kmsg, rec, sizeof(rec), 2000, &waited)) {
		const char *msg = strchr(rec, ';');

		msg = msg ? msg + 1 : rec;
		if (!strstr(msg, opener))
			continue;
		len += snprintf(buf + len, cap - len, "%s", msg);
		if (len >= cap - 1)
			break;
		if (strstr(msg, until))
			break;
	}
	return buf;
}

TEST_F(leak, leaking_process_listed_and_reported)
{
	char opener[64], want[256], *log;
	unsigned int file_id = 0;
	struct leaker l;

	ASSERT_EQ(0, write_sysfs(LEAK_REPORT_PARAM, "1"));
	ASSERT_EQ(0, write_sysfs(LEAK_STACKS_PARAM, "1"));
	ASSERT_EQ(0, leaker_start(&l, self->ad.any));
	expect_listed(_metadata, &l, 1, &file_id);
	EXPECT_EQ(0, leaker_finish(&l));
	expect_unlisted(_metadata, l.pid);

	/* One line an object, with its handle and Context; then a summary. */
	snprintf(opener, sizeof(opener), "dxgpmo: file %u (%s[%d])", file_id,
		 LEAKER_COMM, l.pid);
	log = log_of(self->kmsg, opener, "closed with");
	ASSERT_NE(NULL, log);
	snprintf(want, sizeof(want), "%s leaked handle 0x%x pmo size %llu cache cached context 0x%llx pid %d comm %s\n",
		 opener, l.ids.pmo_a, 4 * PAGE, CONTEXT_A, l.pid, LEAKER_COMM);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("no %sin:\n%s", want, log);
	snprintf(want, sizeof(want), "%s leaked handle 0x%x amo size %llu cache cached context 0x%llx",
		 opener, l.ids.amo_a, 4 * PAGE, CONTEXT_A);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("no %s in:\n%s", want, log);
	snprintf(want, sizeof(want), "%s leaked handle 0x%x adl size %llu cache cached context 0x%llx",
		 opener, l.ids.adl_a, PAGE, CONTEXT_A);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("no %s in:\n%s", want, log);
	snprintf(want, sizeof(want), "%s leaked handle 0x%x pmo size %llu cache cached context 0x%llx",
		 opener, l.ids.pmo_b, 2 * PAGE, CONTEXT_B);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("no %s in:\n%s", want, log);
	snprintf(want, sizeof(want), "%s leaked handle 0x%x map size %llu cache cached context 0x%llx",
		 opener, l.ids.map_b, 2 * PAGE, CONTEXT_B);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("no %s in:\n%s", want, log);
	if (l.ids.basis) {
		snprintf(want, sizeof(want), "%s leaked handle 0x%x basis size %llu cache - context ",
			 opener, l.ids.basis, BASIS_SIZE);
		EXPECT_NE(NULL, strstr(log, want)) {
			TH_LOG("no %s in:\n%s", want, log);
		}
	}
	snprintf(want, sizeof(want), "%s closed with %d object(s) alive (2 pmo, 1 amo, 1 adl, 1 map, %d basis), 0 not listed",
		 opener, 5 + !!l.ids.basis, !!l.ids.basis);
	EXPECT_NE(NULL, strstr(log, want)) TH_LOG("no %s in:\n%s", want, log);
	free(log);
}

/* Without leak_stacks no stack; without leak_report a close says nothing. */
TEST_F(leak, defaults_list_without_stacks_report_nothing)
{
	unsigned int file_id = 0;
	char opener[64], *log;
	struct leaker l;

	ASSERT_EQ(0, write_sysfs(LEAK_REPORT_PARAM, "0"));
	ASSERT_EQ(0, write_sysfs(LEAK_STACKS_PARAM, "0"));
	ASSERT_EQ(0, leaker_start(&l, self->ad.any));
	expect_listed(_metadata, &l, 0, &file_id);
	EXPECT_EQ(0, leaker_finish(&l));
	expect_unlisted(_metadata, l.pid);
	snprintf(opener, sizeof(opener), "dxgpmo: file %u (", file_id);
	log = log_of(self->kmsg, opener, "closed with");
	ASSERT_NE(NULL, log);
	EXPECT_STREQ("", log);
	free(log);
}

/*
 * adl_leak=warn: DESTROY_PMO with a live ADL names the handle the caller
 * holds and the Context it gave, not only the module's own id.
 */
TEST_F(leak, destroy_with_live_adl_names_handle_and_context)
{
	struct dxgpmo_create_pmo c = {
		.length = 2 * PAGE, .adapter_id = self->ad.any->adapter_id,
		.cache_type = DXGPMO_CACHE_CACHED, .context = CONTEXT_B,
	};
	struct dxgpmo_allocate_adl adl = { .length = PAGE };
	char want[160];
	int i, logged;

	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "warn"));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	adl.amo_id = c.amo_id;
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
	snprintf(want, sizeof(want), "DESTROY_PMO of handle 0x%x (Context 0x%llx) with 1 live ADL(s)",
		 c.pmo_id, CONTEXT_B);
	/* The message is rate-limited (5 s): another test may have used it up. */
	for (i = 0, logged = 0; i < 7 && !logged; i++) {
		EXPECT_EQ(-EBUSY, dxgpmo_destroy_pmo(self->fd, c.pmo_id,
						     c.amo_id));
		logged = kmsg_wait_for(self->kmsg, 1000, want, NULL);
	}
	EXPECT_EQ(1, logged) TH_LOG("no \"%s\"", want);
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

/*
 * The warning names the calling task: a name with a newline would forge
 * a line on the console and in syslog(2), so it is printed as the view
 * prints it.  (/dev/kmsg escapes a raw one as "\x0a": that is what this
 * test would see without.)
 */
TEST_F(leak, destroy_with_live_adl_names_caller_printable)
{
	struct dxgpmo_create_pmo c = {
		.length = 2 * PAGE, .adapter_id = self->ad.any->adapter_id,
		.cache_type = DXGPMO_CACHE_CACHED, .context = CONTEXT_B,
	};
	struct dxgpmo_allocate_adl adl = { .length = PAGE };
	char want[160], comm[16] = "";
	int i, logged;

	ASSERT_EQ(0, write_sysfs(ADL_LEAK_PARAM, "warn"));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	adl.amo_id = c.amo_id;
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
	snprintf(want, sizeof(want), "(a?handle?b[%d]): DESTROY_PMO of handle 0x%x",
		 getpid(), c.pmo_id);
	ASSERT_EQ(0, prctl(PR_GET_NAME, comm));
	ASSERT_EQ(0, prctl(PR_SET_NAME, "a\nhandle\001b"));
	/* The message is rate-limited (5 s): another test may have used it up. */
	for (i = 0, logged = 0; i < 7 && !logged; i++) {
		EXPECT_EQ(-EBUSY, dxgpmo_destroy_pmo(self->fd, c.pmo_id,
						     c.amo_id));
		logged = kmsg_wait_for(self->kmsg, 1000, want, NULL);
	}
	ASSERT_EQ(0, prctl(PR_SET_NAME, comm));
	EXPECT_EQ(1, logged) TH_LOG("no \"%s\"", want);
	EXPECT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

/*
 * A file of thousands of objects: the view is read in pieces (a record an
 * object, many buffers), and lists every one of them once, in order.
 */
TEST_F(leak, view_of_many_objects_lists_each_once)
{
	enum { NR = 3000 };
	unsigned int file_id, listed = 0, i;
	static uint32_t ids[NR];
	char *view, *part, *p;

	for (i = 0; i < NR; i++) {
		struct dxgpmo_create_pmo c = {
			.length = PAGE, .cache_type = DXGPMO_CACHE_CACHED,
			.context = i,
		};

		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
		ids[i] = c.pmo_id;
	}
	view = read_view();
	ASSERT_NE(NULL, view);
	part = view_of(view, getpid(), &file_id);
	ASSERT_NE(NULL, part);
	for (p = part; (p = strstr(p, "\n  handle ")); p++)
		listed++;
	EXPECT_EQ(NR, listed);
	for (i = 0; i < NR; i += 499) {
		uint32_t id = ids[i];

		EXPECT_NE(NULL, object_line(part, id, "pmo")) {
			TH_LOG("object %u not in the view", id);
		}
	}
	free(part);
	free(view);
	for (i = 0; i < NR; i++)
		ASSERT_EQ(0, dxgpmo_destroy_pmo(self->fd, ids[i], 0));
}

/*
 * A task may name itself with any byte: the creator's name is shown with
 * each unprintable byte as '?', so a newline cannot forge a line of the
 * view.
 */
TEST_F(leak, creator_name_shown_printable)
{
	struct dxgpmo_create_pmo c = {
		.length = PAGE, .cache_type = DXGPMO_CACHE_CACHED,
	};
	const char *want = " comm a?handle?b", *line, *eol;
	char comm[16] = "", *view, *part;
	unsigned int file_id;

	ASSERT_EQ(0, prctl(PR_GET_NAME, comm));
	ASSERT_EQ(0, prctl(PR_SET_NAME, "a\nhandle\001b"));
	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	ASSERT_EQ(0, prctl(PR_SET_NAME, comm));
	view = read_view();
	ASSERT_NE(NULL, view);
	part = view_of(view, getpid(), &file_id);
	ASSERT_NE(NULL, part);
	line = object_line(part, c.pmo_id, "pmo");
	ASSERT_NE(NULL, line);
	eol = strchr(line + 1, '\n');
	ASSERT_NE(NULL, eol);
	EXPECT_LE(strlen(want), (size_t)(eol - line));
	EXPECT_EQ(0, strncmp(eol - strlen(want), want, strlen(want))) {
		TH_LOG("%.*s", (int)(eol - line), line + 1);
	}
	/* Nothing of the name starts a line of its own. */
	EXPECT_EQ(NULL, strstr(part, "\nhandle"));
	free(part);
	free(view);
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, 0));
}

/*
 * Closes that leak nothing spend nothing of the report's rate limit: a
 * leak after a run of clean closes is still reported.
 */
TEST_F(leak, clean_closes_leave_the_report_its_budget)
{
	char opener[64], *log;
	struct leaker l;
	unsigned int i;

	ASSERT_EQ(0, write_sysfs(LEAK_REPORT_PARAM, "1"));
	for (i = 0; i < 20; i++) {
		struct dxgpmo_create_pmo c = {
			.length = PAGE, .cache_type = DXGPMO_CACHE_CACHED,
		};
		int fd = dxgpmo_open();

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, dxgpmo_create_pmo(fd, &c));
		ASSERT_EQ(0, dxgpmo_destroy_pmo(fd, c.pmo_id, 0));
		ASSERT_EQ(0, close(fd));
	}
	ASSERT_EQ(0, leaker_start(&l, self->ad.any));
	snprintf(opener, sizeof(opener), "(%s[%d])", LEAKER_COMM, l.pid);
	ASSERT_EQ(0, leaker_finish(&l));
	log = log_of(self->kmsg, opener, "closed with");
	ASSERT_NE(NULL, log);
	EXPECT_NE(NULL, strstr(log, l.ids.basis ? "closed with 6 object(s) alive" :
						  "closed with 5 object(s) alive")) {
		TH_LOG("no report of the leak after 20 clean closes:\n%s",
		       log);
	}
	free(log);
}

TEST_HARNESS_MAIN
