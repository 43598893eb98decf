/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dxgpmoctl monitor's reading of tracefs: one line of a trace_pipe into
 * an event, the filters of the command line, and the event printed
 * through json_print.h.  Apart from the command (dxgpmoctl_monitor.c),
 * which owns the tracefs instance, so that a unit test on the host
 * (selftests/trace_line_unit_test.c) feeds it canned lines.
 *
 * The module's events print "key=value ..." only (module/trace.h): a
 * value is a decimal integer, possibly negative, 0x and hex digits, or a
 * word without blanks.
 */
#ifndef TRACE_LINE_H
#define TRACE_LINE_H

#include <stdbool.h>
#include <stdint.h>

#define TRACE_MAX_FIELDS	32
/* The events' system in tracefs, and the prefix of each event's name. */
#define TRACE_SYSTEM_NAME	"dxgpmo"
#define TRACE_EVENT_PREFIX	"dxgpmo_"

enum trace_value_type {
	TRACE_WORD,
	TRACE_UINT,	/* decimal or 0x hex, in u */
	TRACE_INT,	/* negative decimal, in s */
};

struct trace_field {
	const char *key;
	const char *value;	/* as the trace printed it */
	enum trace_value_type type;
	uint64_t u;
	int64_t s;
};

enum trace_line_kind {
	TRACE_LINE_BAD,
	TRACE_LINE_EVENT,
	TRACE_LINE_LOST,	/* "CPU:N [LOST M EVENTS]": cpu, lost */
};

/* Its strings point into the line trace_parse_line() was given. */
struct trace_event {
	const char *comm;
	unsigned int tid;	/* the thread; the pid= field is its tgid */
	unsigned int cpu;
	const char *time;	/* seconds, as the trace printed them */
	const char *name;	/* without TRACE_EVENT_PREFIX */
	uint64_t lost;
	unsigned int nr_fields;
	struct trace_field fields[TRACE_MAX_FIELDS];
};

enum trace_filter_key {
	TRACE_FILTER_ADAPTER,
	TRACE_FILTER_PID,
	TRACE_FILTER_FILE,
	TRACE_FILTER_OBJECT,	/* obj=, pmo= or amo= */
	TRACE_FILTER_NR,
};

/* An event passes when it has every key set here with that value. */
struct trace_filter {
	bool set[TRACE_FILTER_NR];
	uint64_t value[TRACE_FILTER_NR];
};

/* Splits line (one line, its '\n' optional) in place. */
enum trace_line_kind trace_parse_line(char *line, struct trace_event *ev);
bool trace_filter_match(const struct trace_filter *filter,
			const struct trace_event *ev);
const struct trace_field *trace_field(const struct trace_event *ev,
				      const char *key);
/* One record: a line of text, or one JSON object. */
void trace_print_event(const struct trace_event *ev, enum trace_line_kind kind);

#endif
