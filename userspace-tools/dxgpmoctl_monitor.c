// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl monitor: the module's trace events live, as ip monitor shows
 * netlink's.  A tracefs instance of its own (instances/dxgpmoctl-PID)
 * has its own ring buffer and its own enabled events, so neither the
 * global buffer nor another monitor loses or gains an event by it; its
 * trace_pipe is read, each line parsed and filtered (trace_line.c), and
 * printed as one record.  On SIGINT, SIGTERM or SIGHUP, or when standard
 * output goes away, the events are turned off, what was recorded until
 * then is printed, and the instance is removed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dxgpmoctl.h"
#include "trace_line.h"

#define MAX_EVENTS	64
#define PIPE_BUF_SIZE	65536

static const struct cmd_option monitor_opts[] = {
	{ "json", 'j', NULL, "one JSON object an event, one a line (as -j before the command)" },
	{ }
};

struct monitor {
	char tracefs[256];
	char instance[320];
	struct trace_filter filter;
	const char *events[MAX_EVENTS];	/* without the prefix; none: all */
	unsigned int nr_events;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/*
 * Where tracefs is: mounted (/proc/mounts), or at one of its usual
 * places, /sys/kernel/debug/tracing being mounted on first use.
 */
static int find_tracefs(char *path, size_t size)
{
	static const char *const places[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char dev[256], dir[256], type[64], probe[300];
	int err = -ENOENT;
	unsigned int i;
	FILE *mounts;

	mounts = fopen("/proc/mounts", "r");
	while (mounts && fscanf(mounts, "%255s %255s %63s %*[^\n]", dev, dir,
				type) == 3) {
		if (!strcmp(type, "tracefs")) {
			snprintf(path, size, "%s", dir);
			fclose(mounts);
			return 0;
		}
	}
	if (mounts)
		fclose(mounts);
	for (i = 0; i < ARRAY_SIZE(places); i++) {
		snprintf(probe, sizeof(probe), "%s/instances", places[i]);
		if (!access(probe, F_OK)) {
			snprintf(path, size, "%s", places[i]);
			return 0;
		}
		if (errno == EACCES || errno == EPERM)
			err = -errno;
	}
	return err;
}

/* path relative to the instance, or to tracefs when top is set */
static int write_file(const struct monitor *m, bool top, const char *path,
		      const char *text)
{
	char full[PATH_MAX * 2];
	ssize_t n;
	int fd;

	snprintf(full, sizeof(full), "%s/%s", top ? m->tracefs : m->instance,
		 path);
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? n : 0;
}

static int enable_events(const struct monitor *m, const char *on)
{
	char path[256];
	unsigned int i;
	int ret;

	if (!m->nr_events)
		return write_file(m, false, "events/" TRACE_SYSTEM_NAME "/enable",
				  on);
	for (i = 0; i < m->nr_events; i++) {
		snprintf(path, sizeof(path), "events/%s/%s%s/enable",
			 TRACE_SYSTEM_NAME, TRACE_EVENT_PREFIX, m->events[i]);
		ret = write_file(m, false, path, on);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The checks whose failure needs words of its own: tracefs is root's,
 * and without the module there is no events/dxgpmo.
 */
static int check_tracefs(struct cmd_ctx *ctx, struct monitor *m)
{
	char path[PATH_MAX + 64];
	struct stat st;
	unsigned int i;
	int ret;

	ret = find_tracefs(m->tracefs, sizeof(m->tracefs));
	if (ret == -EACCES || ret == -EPERM) {
		error_record(ctx->name, ret,
			     "tracefs is root's: run monitor as root");
		return 1;
	}
	if (ret) {
		error_record(ctx->name, ret,
			     "no tracefs: mount -t tracefs nodev /sys/kernel/tracing");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/events/%s", m->tracefs,
		 TRACE_SYSTEM_NAME);
	if (stat(path, &st)) {
		ret = -errno;
		if (ret == -EACCES || ret == -EPERM)
			error_record(ctx->name, ret, "%s: tracefs is root's: run monitor as root",
				     m->tracefs);
		else
			error_record(ctx->name, ret, "no %s: is the module loaded? (modprobe dxgpmo)",
				     path);
		return 1;
	}
	for (i = 0; i < m->nr_events; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s%s", m->tracefs,
			 TRACE_SYSTEM_NAME, TRACE_EVENT_PREFIX, m->events[i]);
		if (stat(path, &st))
			return usage_error(ctx, "no event %s%s (%s/events/%s lists them)",
					   TRACE_EVENT_PREFIX, m->events[i],
					   m->tracefs, TRACE_SYSTEM_NAME);
	}
	return 0;
}

static bool is_keyword(const char *s)
{
	return !strcmp(s, "adapter") || !strcmp(s, "pid") ||
	       !strcmp(s, "file") || !strcmp(s, "object") ||
	       !strcmp(s, "event");
}

/* [adapter ADAPTER] [pid PID] [file FILE] [object ID] [event NAME...] */
static int parse_selectors(struct cmd_ctx *ctx, struct monitor *m)
{
	static const char *const keys[TRACE_FILTER_NR] = {
		[TRACE_FILTER_ADAPTER] = "adapter",
		[TRACE_FILTER_PID] = "pid",
		[TRACE_FILTER_FILE] = "file",
		[TRACE_FILTER_OBJECT] = "object",
	};
	char **argv = ctx->argv;
	int argc = ctx->argc, i = 0;
	const char *name;
	uint32_t adapter = 0;
	unsigned int k;

	while (i < argc) {
		if (!strcmp(argv[i], "event")) {
			if (++i == argc || is_keyword(argv[i]))
				return usage_error(ctx, "event: which? (an event name)");
			for (; i < argc && !is_keyword(argv[i]); i++) {
				name = argv[i];
				if (!strncmp(name, TRACE_EVENT_PREFIX,
					     strlen(TRACE_EVENT_PREFIX)))
					name += strlen(TRACE_EVENT_PREFIX);
				if (!*name || strchr(name, '/') || *name == '.')
					return usage_error(ctx, "bad event name '%s'",
							   argv[i]);
				if (m->nr_events == MAX_EVENTS)
					return usage_error(ctx, "more than %d events",
							   MAX_EVENTS);
				m->events[m->nr_events++] = name;
			}
			continue;
		}
		for (k = 0; k < TRACE_FILTER_NR; k++)
			if (!strcmp(argv[i], keys[k]))
				break;
		if (k == TRACE_FILTER_NR)
			return usage_error(ctx, "unknown selector '%s'", argv[i]);
		if (i + 1 == argc)
			return usage_error(ctx, "%s: which? (a number)", keys[k]);
		if (m->filter.set[k])
			return usage_error(ctx, "%s given twice", keys[k]);
		m->filter.set[k] = true;
		/* a name needs /dev/dxgpmo, a number does not */
		if (k == TRACE_FILTER_ADAPTER &&
		    parse_u32(ctx, argv[i + 1], &adapter)) {
			ctx->bad = NULL;
			if (need_dev(ctx))
				return 1;
			if (parse_adapter(ctx, argv[i + 1], &adapter))
				return bad_argument(ctx);
		}
		if (k == TRACE_FILTER_ADAPTER)
			m->filter.value[k] = adapter;
		else if (parse_u64(ctx, argv[i + 1], &m->filter.value[k]))
			return bad_argument(ctx);
		i += 2;
	}
	return 0;
}

/*
 * The kernel names a task from a cache it fills as tasks are switched
 * out: a process's first events, often all of a short one's, come as
 * "<...>".  Its name now, while it still runs.
 */
static void fill_comm(struct trace_event *ev)
{
	static char comm[32];
	char path[48];
	FILE *f;

	if (strcmp(ev->comm, "<...>"))
		return;
	snprintf(path, sizeof(path), "/proc/%u/comm", ev->tid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(comm, sizeof(comm), f)) {
		comm[strcspn(comm, "\n")] = 0;
		ev->comm = comm;
	}
	fclose(f);
}

/* Each whole line of buf[0, *len) printed; a partial one kept. */
static int print_lines(struct monitor *m, char *buf, size_t *len)
{
	struct trace_event ev;
	enum trace_line_kind kind;
	char *line = buf, *nl;
	int ret = 0;

	while ((nl = memchr(line, '\n', buf + *len - line))) {
		*nl = 0;
		kind = trace_parse_line(line, &ev);
		if (kind == TRACE_LINE_BAD) {
			error_record("monitor", -EBADMSG,
				     "a trace line not of key=value fields: %s",
				     line);
		} else if (kind == TRACE_LINE_LOST ||
			   trace_filter_match(&m->filter, &ev)) {
			if (kind == TRACE_LINE_EVENT)
				fill_comm(&ev);
			print_begin(stdout);
			trace_print_event(&ev, kind);
			print_end();
			if (ferror(stdout))
				ret = -EPIPE;
		}
		line = nl + 1;
	}
	*len = buf + *len - line;
	memmove(buf, line, *len);
	if (*len == PIPE_BUF_SIZE - 1) {
		/* no line is this long: keep going with what follows */
		*len = 0;
	}
	return ret;
}

/*
 * Until a signal, or the end of standard output (-EPIPE); with drain,
 * until trace_pipe is empty.
 */
static int read_events(struct monitor *m, int pipe_fd, char *buf,
		       sigset_t *unblocked, bool drain)
{
	struct pollfd fds[2] = {
		{ .fd = pipe_fd, .events = POLLIN },
		/* no events asked: a pipe whose reader left gives POLLERR */
		{ .fd = STDOUT_FILENO, .events = 0 },
	};
	struct timespec second = { .tv_sec = 1 }, now = { };
	size_t len = 0;
	ssize_t n;
	int ret;

	for (;;) {
		n = read(pipe_fd, buf + len, PIPE_BUF_SIZE - 1 - len);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n > 0) {
			len += n;
			ret = print_lines(m, buf, &len);
			if (ret)
				return ret;
		}
		if (drain && n <= 0)
			return 0;
		if (drain)
			continue;
		/*
		 * The signals are let in only while waiting, so that one
		 * that comes between a check and the wait still ends it; and
		 * they are let in after each read, so that a steady stream of
		 * events does not keep them out.  The timeout is for a
		 * trace_pipe that missed a wakeup.
		 */
		if (ppoll(fds, 2, n > 0 ? &now : &second, unblocked) < 0 &&
		    errno != EINTR)
			return -errno;
		if (stop_signal)
			return 0;
		if (fds[1].revents & (POLLERR | POLLHUP))
			return -EPIPE;
	}
}

static int monitor_run(struct cmd_ctx *ctx, struct monitor *m)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, old;
	char path[PATH_MAX + 16], *buf;
	int pipe_fd, ret, err;
	unsigned int i;

	buf = malloc(PIPE_BUF_SIZE);
	if (!buf)
		return report(ctx, -ENOMEM);
	/* a reader gone is seen as EPIPE, and the instance still removed */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(signals); i++) {
		sigaddset(&block, signals[i]);
		sigaction(signals[i], &sa, NULL);
	}
	sigprocmask(SIG_BLOCK, &block, &old);
	stop_signal = 0;

	snprintf(m->instance, sizeof(m->instance), "%s/instances/dxgpmoctl-%d",
		 m->tracefs, getpid());
	if (mkdir(m->instance, 0700)) {
		err = -errno;
		error_record(ctx->name, err, "%s: %s%s", m->instance,
			     strerror(-err), err == -EEXIST ?
			     " (left by a monitor that was killed? rmdir it)" : "");
		ret = 1;
		goto out_signals;
	}
	err = enable_events(m, "1");
	if (err) {
		error_record(ctx->name, err, "%s: cannot enable the events: %s",
			     m->instance, strerror(-err));
		ret = 1;
		goto out_instance;
	}
	snprintf(path, sizeof(path), "%s/trace_pipe", m->instance);
	pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (pipe_fd < 0) {
		err = -errno;
		error_record(ctx->name, err, "%s: %s", path, strerror(-err));
		ret = 1;
		goto out_instance;
	}

	err = read_events(m, pipe_fd, buf, &old, false);
	/* what was recorded until now is shown, then no more */
	enable_events(m, "0");
	if (!err)
		err = read_events(m, pipe_fd, buf, &old, true);
	close(pipe_fd);
	ret = 0;
	if (err && err != -EPIPE) {
		error_record(ctx->name, err, "%s: %s", path, strerror(-err));
		ret = 1;
	}
	goto out_rmdir;
out_instance:
	enable_events(m, "0");
out_rmdir:
	if (rmdir(m->instance)) {
		err = -errno;
		error_record(ctx->name, err, "cannot remove %s: %s",
			     m->instance, strerror(-err));
		ret = 1;
	}
out_signals:
	sigprocmask(SIG_SETMASK, &old, NULL);
	sa.sa_handler = SIG_DFL;
	for (i = 0; i < ARRAY_SIZE(signals); i++)
		sigaction(signals[i], &sa, NULL);
	free(buf);
	return ret;
}

static int cmd_monitor(struct cmd_ctx *ctx)
{
	struct monitor m = { };
	int ret;

	if (opt(ctx, "json"))
		json_print_mode(true);
	ret = parse_selectors(ctx, &m);
	if (ret)
		return ret;
	ret = check_tracefs(ctx, &m);
	if (ret)
		return ret;
	/* records of its own, one an event, flushed each */
	print_end();
	return monitor_run(ctx, &m);
}

const struct command monitor_verbs[] = {
	{ NULL, monitor_opts,
	  "[adapter ADAPTER] [pid PID] [file FILE] [object ID] [event NAME...]",
	  0, true,
	  "Show the module's trace events (dxgpmo:dxgpmo_*) as they happen, one line\n"
	  "an event: the time in seconds, the event without its dxgpmo_ prefix and\n"
	  "its key=value fields (file: the open file's id, pid: the caller's process,\n"
	  "adapter, obj: the handle acted on, pmo and amo: its parent, ret: 0 or a\n"
	  "negative errno).  With -j, one JSON object a line: time, cpu, comm, tid,\n"
	  "event, and each field, integers as numbers.  Only the events of the\n"
	  "adapter, process (pid), open file or object (obj, pmo or amo) given are\n"
	  "shown, and with event only those named.  Runs in a tracefs instance of\n"
	  "its own (instances/dxgpmoctl-PID; root only), beside other tracers; ends\n"
	  "on SIGINT, SIGTERM or when its output is closed, showing the events\n"
	  "recorded until then, and removes the instance.  Examples:\n"
	  "  dxgpmoctl monitor pid 1234\n"
	  "  dxgpmoctl -j monitor object 3 | jq 'select(.ret < 0)'\n"
	  "  dxgpmoctl monitor event allocate_adl free_adl adl_leak",
	  cmd_monitor },
	{ }
};
