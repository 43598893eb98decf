// SPDX-License-Identifier: GPL-2.0
/*
 * A trace_pipe line, as the kernel's trace_print_context() writes it:
 *
 *   COMM-TID [(TGID)] [CPU] [FLAGS] SECONDS: EVENT: key=value ...
 *
 * COMM is right-aligned in 16 columns and is whatever the task named
 * itself: blanks, dashes, brackets and colons included.  So the header is
 * found from its right end, the last " [CPU] " that the rest of the line
 * parses after: the fields that follow it are key=value words, which
 * cannot hold a " [N] " of their own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_print.h"
#include "trace_line.h"

#define DIGITS "0123456789"

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* SECONDS: the clock's digits, with a fraction for the usual clocks. */
static size_t timestamp_len(const char *p)
{
	size_t n = strspn(p, DIGITS);

	if (n && p[n] == '.' && strspn(p + n + 1, DIGITS))
		n += 1 + strspn(p + n + 1, DIGITS);
	return n;
}

/*
 * What follows "] " at p: [FLAGS] SECONDS: EVENT: and the fields.  The
 * offsets of the timestamp, the event and the fields, or false.
 */
static bool parse_after_cpu(const char *line, const char *p, size_t *time,
			    size_t *time_len, size_t *name, size_t *fields)
{
	const char *q;
	size_t n;

	p = skip_blanks(p);
	n = timestamp_len(p);
	if (!n || p[n] != ':') {
		/* the irq-info flags, "d..1." */
		p += strcspn(p, " ");
		p = skip_blanks(p);
		n = timestamp_len(p);
		if (!n || p[n] != ':')
			return false;
	}
	*time = p - line;
	*time_len = n;
	p += n + 1;
	if (*p != ' ')
		return false;
	p = skip_blanks(p);
	for (q = p; is_name_char(*q); q++)
		;
	if (q == p || *q != ':' || (q[1] && q[1] != ' '))
		return false;
	*name = p - line;
	p = skip_blanks(q + 1);
	*fields = p - line;
	/* every word a key=value with a key */
	while (*p) {
		n = strcspn(p, " ");
		q = memchr(p, '=', n);
		if (!q || q == p)
			return false;
		p = skip_blanks(p + n);
	}
	return true;
}

/*
 * Before " [CPU]" at end: COMM-TID and the tgid option's "(TGID)".  The
 * offset of the '-' that ends COMM, or 0 (COMM may be empty, the dash
 * may not be first).
 */
static size_t parse_before_cpu(const char *line, size_t end, unsigned int *tid)
{
	size_t i = end, digits;

	while (i && line[i - 1] == ' ')
		i--;
	if (i && line[i - 1] == ')') {
		while (i && line[i - 1] != '(')
			i--;
		if (!i)
			return 0;
		i--;
		while (i && line[i - 1] == ' ')
			i--;
	}
	digits = i;
	while (i && line[i - 1] >= '0' && line[i - 1] <= '9')
		i--;
	if (i == digits || !i || line[i - 1] != '-')
		return 0;
	*tid = strtoul(line + i, NULL, 10);
	return i - 1;
}

static void type_value(struct trace_field *f)
{
	const char *v = f->value;
	char *end;

	f->type = TRACE_WORD;
	if (!*v)
		return;
	errno = 0;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		if (!v[2] || strspn(v + 2, "0123456789abcdefABCDEF") !=
		    strlen(v + 2))
			return;
		f->u = strtoull(v + 2, &end, 16);
		if (!errno)
			f->type = TRACE_UINT;
	} else if (v[0] == '-') {
		if (strspn(v + 1, DIGITS) != strlen(v + 1) || !v[1])
			return;
		f->s = strtoll(v, &end, 10);
		if (!errno)
			f->type = TRACE_INT;
	} else if (strspn(v, DIGITS) == strlen(v)) {
		f->u = strtoull(v, &end, 10);
		if (!errno)
			f->type = TRACE_UINT;
	}
}

static enum trace_line_kind split_fields(char *p, struct trace_event *ev)
{
	struct trace_field *f;
	size_t n;

	while (*p) {
		if (ev->nr_fields == TRACE_MAX_FIELDS)
			return TRACE_LINE_BAD;
		f = &ev->fields[ev->nr_fields++];
		n = strcspn(p, " ");
		f->key = p;
		p += n;
		if (*p)
			*p++ = 0;
		while (*p == ' ')
			p++;
		f->value = strchr(f->key, '=');
		*(char *)f->value++ = 0;
		type_value(f);
	}
	return TRACE_LINE_EVENT;
}

enum trace_line_kind trace_parse_line(char *line, struct trace_event *ev)
{
	size_t len = strcspn(line, "\r\n"), i, n, time, time_len, name, fields;
	unsigned long long lost;
	unsigned int cpu, tid;
	size_t dash;
	char *comm;
	int end = 0;

	line[len] = 0;
	memset(ev, 0, sizeof(*ev));
	if (sscanf(line, "CPU:%u [LOST %llu EVENTS]%n", &cpu, &lost, &end) == 2 &&
	    end && !line[end]) {
		ev->cpu = cpu;
		ev->lost = lost;
		return TRACE_LINE_LOST;
	}
	for (i = len; i > 1; i--) {
		/* line[i - 1] the '[' of a candidate, digits after it */
		n = strspn(line + i, DIGITS);
		if (line[i - 1] != '[' || line[i - 2] != ' ' || !n ||
		    line[i + n] != ']' || line[i + n + 1] != ' ')
			continue;
		if (!parse_after_cpu(line, line + i + n + 1, &time, &time_len,
				     &name, &fields))
			continue;
		dash = parse_before_cpu(line, i - 2, &tid);
		if (dash)
			break;
	}
	if (i <= 1)
		return TRACE_LINE_BAD;
	cpu = strtoul(line + i, NULL, 10);
	comm = line;
	while (*comm == ' ' && comm < line + dash)
		comm++;
	line[dash] = 0;
	ev->comm = comm;
	ev->tid = tid;
	ev->cpu = cpu;
	line[time + time_len] = 0;
	ev->time = line + time;
	line[name + strcspn(line + name, ":")] = 0;
	ev->name = line + name;
	if (!strncmp(ev->name, TRACE_EVENT_PREFIX, strlen(TRACE_EVENT_PREFIX)))
		ev->name += strlen(TRACE_EVENT_PREFIX);
	return split_fields(line + fields, ev);
}

const struct trace_field *trace_field(const struct trace_event *ev,
				      const char *key)
{
	unsigned int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].key, key))
			return &ev->fields[i];
	return NULL;
}

static bool field_is(const struct trace_event *ev, const char *key,
		     uint64_t value)
{
	const struct trace_field *f = trace_field(ev, key);

	return f && f->type == TRACE_UINT && f->u == value;
}

bool trace_filter_match(const struct trace_filter *filter,
			const struct trace_event *ev)
{
	static const char *const keys[TRACE_FILTER_NR] = {
		[TRACE_FILTER_ADAPTER] = "adapter",
		[TRACE_FILTER_PID] = "pid",
		[TRACE_FILTER_FILE] = "file",
	};
	uint64_t object = filter->value[TRACE_FILTER_OBJECT];
	unsigned int k;

	for (k = 0; k < TRACE_FILTER_NR; k++)
		if (keys[k] && filter->set[k] &&
		    !field_is(ev, keys[k], filter->value[k]))
			return false;
	/* the object a call acts on, or the parent it names */
	return !filter->set[TRACE_FILTER_OBJECT] ||
	       field_is(ev, "obj", object) || field_is(ev, "pmo", object) ||
	       field_is(ev, "amo", object);
}

void trace_print_event(const struct trace_event *ev, enum trace_line_kind kind)
{
	const struct trace_field *f;
	unsigned int i;

	open_json_object(NULL);
	if (kind == TRACE_LINE_LOST) {
		print_string(PRINT_JSON, "event", NULL, "lost");
		print_uint(PRINT_JSON, "cpu", NULL, ev->cpu);
		print_u64(PRINT_ANY, "count",
			  "lost %" PRIu64 " event(s)", ev->lost);
		print_uint(PRINT_FP, NULL, " on cpu %u: the trace buffer was full\n",
			   ev->cpu);
		close_json_object();
		return;
	}
	print_number_text(PRINT_ANY, "time", "%s", ev->time);
	print_uint(PRINT_JSON, "cpu", NULL, ev->cpu);
	print_string(PRINT_JSON, "comm", NULL, ev->comm);
	print_uint(PRINT_JSON, "tid", NULL, ev->tid);
	print_string(PRINT_ANY, "event", " %s", ev->name);
	for (i = 0; i < ev->nr_fields; i++) {
		f = &ev->fields[i];
		print_text(" %s=%s", f->key, f->value);
		if (f->type == TRACE_UINT)
			print_u64(PRINT_JSON, f->key, NULL, f->u);
		else if (f->type == TRACE_INT)
			print_s64(PRINT_JSON, f->key, NULL, f->s);
		else
			print_string(PRINT_JSON, f->key, NULL, f->value);
	}
	print_text("\n");
	close_json_object();
}
