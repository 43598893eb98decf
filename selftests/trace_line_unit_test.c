// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl monitor's parsing of trace_pipe lines, its filters and its
 * two forms of output, on the host against lines written out here as the
 * kernel's trace_print_context() writes them (comm right-aligned in 16
 * columns, the irq-info flags, the tgid option), including the tasks'
 * names that break a naive reading: blanks, dashes, brackets, colons.
 *
 * Prints "host: PASS|FAIL monitor_NAME" lines (scripts/host-check.sh runs
 * it); exits 1 on any failure.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_print.h"
#include "trace_line.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int failed;

#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		printf("  %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		ok = 0;							\
	}								\
} while (0)

static void report(int ok, const char *name)
{
	printf("host: %s monitor_%s\n", ok ? "PASS" : "FAIL", name);
	failed |= !ok;
}

/* The line parsed from a copy that outlives the call (ev points into it). */
static enum trace_line_kind parse(const char *text, struct trace_event *ev)
{
	static char line[4][512];
	static unsigned int next;
	char *buf = line[next++ % 4];

	snprintf(buf, sizeof(line[0]), "%s", text);
	return trace_parse_line(buf, ev);
}

static bool field_u(const struct trace_event *ev, const char *key,
		    uint64_t value)
{
	const struct trace_field *f = trace_field(ev, key);

	return f && f->type == TRACE_UINT && f->u == value;
}

/* The record trace_print_event() prints, in the given mode. */
static const char *printed(const struct trace_event *ev,
			   enum trace_line_kind kind, bool json)
{
	static char *text;
	size_t size;
	FILE *f;

	free(text);
	text = NULL;
	f = open_memstream(&text, &size);
	if (!f)
		abort();
	json_print_mode(json);
	print_begin(f);
	trace_print_event(ev, kind);
	print_end();
	json_print_mode(false);
	fclose(f);
	return text;
}

static void usual_line(void)
{
	struct trace_event ev;
	int ok = 1;

	EXPECT(parse("       dxgpmoctl-1234    [001] d..1.   812.004211: dxgpmo_create_pmo: file=3 pid=1234 adapter=1 obj=5 type=mdl size=0x10000 ret=0\n",
		     &ev) == TRACE_LINE_EVENT);
	EXPECT(!strcmp(ev.comm, "dxgpmoctl"));
	EXPECT(ev.tid == 1234 && ev.cpu == 1);
	EXPECT(!strcmp(ev.time, "812.004211"));
	EXPECT(!strcmp(ev.name, "create_pmo"));
	EXPECT(ev.nr_fields == 7);
	EXPECT(field_u(&ev, "file", 3) && field_u(&ev, "pid", 1234) &&
	       field_u(&ev, "adapter", 1) && field_u(&ev, "obj", 5) &&
	       field_u(&ev, "size", 0x10000) && field_u(&ev, "ret", 0));
	EXPECT(trace_field(&ev, "type")->type == TRACE_WORD);
	EXPECT(!strcmp(trace_field(&ev, "type")->value, "mdl"));
	EXPECT(!strcmp(trace_field(&ev, "size")->value, "0x10000"));
	report(ok, "usual_line");
}

/*
 * A task names itself (prctl(PR_SET_NAME)) as it likes, up to 15 bytes:
 * its name must not be taken for the header's parts.
 */
static void odd_comms(void)
{
	static const struct {
		const char *line, *comm;
		unsigned int tid;
	} c[] = {
		{ "     my prog-x 2-77      [000] .....    12.000001: dxgpmo_map: file=1 pid=77 obj=2 ret=0",
		  "my prog-x 2", 77 },
		{ "        worker-1-55      [003] .....    12.000002: dxgpmo_map: file=1 pid=55 obj=2 ret=0",
		  "worker-1", 55 },
		{ "   a [3] 1.0: x:-9       [002] .N...    99.500000: dxgpmo_unmap: file=1 pid=9 obj=4 ret=0",
		  "a [3] 1.0: x:", 9 },
		{ "   -[7] -8 [1]-31337     [001] .....    99.600000: dxgpmo_unmap: file=1 pid=31337 obj=4 ret=0",
		  "-[7] -8 [1]", 31337 },
		{ "           <...>-4242    [000] .....    99.700000: dxgpmo_unmap: file=1 pid=4242 obj=4 ret=0",
		  "<...>", 4242 },
		{ "    x=1 y=2 [3]-6        [000] .....    99.800000: dxgpmo_unmap: file=1 pid=6 obj=4 ret=0",
		  "x=1 y=2 [3]", 6 },
	};
	struct trace_event ev;
	unsigned int i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		if (parse(c[i].line, &ev) != TRACE_LINE_EVENT) {
			printf("  not parsed: %s\n", c[i].line);
			ok = 0;
			continue;
		}
		if (strcmp(ev.comm, c[i].comm) || ev.tid != c[i].tid ||
		    !field_u(&ev, "pid", c[i].tid) ||
		    !field_u(&ev, "ret", 0)) {
			printf("  comm '%s' tid %u from: %s\n", ev.comm, ev.tid,
			       c[i].line);
			ok = 0;
		}
	}
	report(ok, "odd_comms");
}

/* Without the irq-info flags, with the tgid option, another clock. */
static void header_options(void)
{
	struct trace_event ev;
	int ok = 1;

	EXPECT(parse("              sh-5     [000]     7.500000: dxgpmo_free_adl: file=2 pid=5 obj=9 amo=3 ret=0",
		     &ev) == TRACE_LINE_EVENT);
	EXPECT(!strcmp(ev.comm, "sh") && ev.tid == 5 && field_u(&ev, "amo", 3));
	EXPECT(parse("     thread name-1301    (   1300) [001] ....   5.000000: dxgpmo_open_pmo: file=2 pid=1300 adapter=0 obj=4 pmo=1 ret=0",
		     &ev) == TRACE_LINE_EVENT);
	EXPECT(!strcmp(ev.comm, "thread name") && ev.tid == 1301 &&
	       field_u(&ev, "pid", 1300) && field_u(&ev, "pmo", 1));
	EXPECT(parse("           <...>-88      (-------) [002] ....   5.100000: dxgpmo_close_pmo: file=2 pid=88 obj=4 ret=0",
		     &ev) == TRACE_LINE_EVENT);
	EXPECT(ev.tid == 88 && ev.cpu == 2);
	/* the counter clock: no fraction */
	EXPECT(parse("              sh-5     [000] ..... 81234567: dxgpmo_pool_refill: pages=512 ret=0",
		     &ev) == TRACE_LINE_EVENT);
	EXPECT(!strcmp(ev.time, "81234567") && field_u(&ev, "pages", 512));
	/* an event of no fields */
	EXPECT(parse("              sh-5     [000] .....     8.000000: dxgpmo_linear_map: ",
		     &ev) == TRACE_LINE_EVENT);
	EXPECT(!strcmp(ev.name, "linear_map") && ev.nr_fields == 0);
	EXPECT(parse("kworker/u4:2-events_unbound-61 [001] d..2. 9.000000: dxgpmo_adl_leak: file=7 obj=3 adls=1 ret=-16",
		     &ev) == TRACE_LINE_EVENT);
	EXPECT(!strcmp(ev.comm, "kworker/u4:2-events_unbound") && ev.tid == 61);
	report(ok, "header_options");
}

static void value_types(void)
{
	const struct trace_field *f;
	struct trace_event ev;
	int ok = 1;

	EXPECT(parse("       dxgpmoctl-77      [001] .....   10.000000: dxgpmo_destroy_pmo: file=1 pid=77 obj=4242 ret=-2 va=0xffff888012345678 big=18446744073709551616 neg=-0x5 hex=0xg1 empty= ctx=-9223372036854775808",
		     &ev) == TRACE_LINE_EVENT);
	f = trace_field(&ev, "ret");
	EXPECT(f && f->type == TRACE_INT && f->s == -2);
	EXPECT(field_u(&ev, "va", 0xffff888012345678ULL));
	f = trace_field(&ev, "big");
	EXPECT(f && f->type == TRACE_WORD);
	f = trace_field(&ev, "neg");
	EXPECT(f && f->type == TRACE_WORD);
	f = trace_field(&ev, "hex");
	EXPECT(f && f->type == TRACE_WORD);
	f = trace_field(&ev, "empty");
	EXPECT(f && f->type == TRACE_WORD && !*f->value);
	f = trace_field(&ev, "ctx");
	EXPECT(f && f->type == TRACE_INT && f->s == INT64_MIN);
	report(ok, "value_types");
}

static void other_lines(void)
{
	struct trace_event ev;
	int ok = 1;

	EXPECT(parse("CPU:1 [LOST 1234 EVENTS]\n", &ev) == TRACE_LINE_LOST);
	EXPECT(ev.cpu == 1 && ev.lost == 1234);
	EXPECT(!strcmp(printed(&ev, TRACE_LINE_LOST, true),
		       "{\"event\":\"lost\",\"cpu\":1,\"count\":1234}\n"));
	EXPECT(!strcmp(printed(&ev, TRACE_LINE_LOST, false),
		       "lost 1234 event(s) on cpu 1: the trace buffer was full\n"));
	/* not the module's convention: not taken for an event */
	EXPECT(parse("", &ev) == TRACE_LINE_BAD);
	EXPECT(parse("garbage", &ev) == TRACE_LINE_BAD);
	EXPECT(parse("       dxgpmoctl-77      [001] .....   10.000000: dxgpmo_map: file=1 two words",
		     &ev) == TRACE_LINE_BAD);
	EXPECT(parse("       dxgpmoctl-77      [001] .....   10.000000: dxgpmo_map: =1",
		     &ev) == TRACE_LINE_BAD);
	EXPECT(parse("       dxgpmoctl-77      [001] .....   10.000000 dxgpmo_map: obj=1",
		     &ev) == TRACE_LINE_BAD);
	EXPECT(parse("       dxgpmoctl      [001] .....   10.000000: dxgpmo_map: obj=1",
		     &ev) == TRACE_LINE_BAD);
	report(ok, "lost_and_bad_lines");
}

static void filters(void)
{
	static const char *const lines[] = {
		/* 0 */ "  a-10 [000] ..... 1.000000: dxgpmo_create_pmo: file=1 pid=10 adapter=2 obj=1 ret=0",
		/* 1 */ "  a-10 [000] ..... 1.000001: dxgpmo_allocate_adl: file=1 pid=10 adapter=2 obj=3 amo=2 ret=0",
		/* 2 */ "  a-10 [000] ..... 1.000002: dxgpmo_open_pmo: file=1 pid=10 adapter=0x2 obj=2 pmo=1 ret=0",
		/* 3 */ "  b-20 [001] ..... 1.000003: dxgpmo_create_pmo: file=2 pid=20 obj=1 ret=0",
		/* 4 */ "  b-20 [001] ..... 1.000004: dxgpmo_destroy_pmo: file=2 pid=20 obj=2 ret=-2",
		/* 5 */ "  kworker-30 [001] ..... 1.000005: dxgpmo_pool_refill: pages=512",
	};
	static const struct {
		int key[2];
		uint64_t value[2];
		unsigned int want;	/* a bit a line that passes */
	} c[] = {
		{ { -1, -1 }, { }, 0x3f },
		{ { TRACE_FILTER_PID, -1 }, { 10 }, 0x07 },
		{ { TRACE_FILTER_PID, -1 }, { 20 }, 0x18 },
		{ { TRACE_FILTER_FILE, -1 }, { 2 }, 0x18 },
		/* obj=, pmo= or amo=; 0x2 is 2 */
		{ { TRACE_FILTER_OBJECT, -1 }, { 2 }, 0x16 },
		{ { TRACE_FILTER_OBJECT, -1 }, { 1 }, 0x0d },
		{ { TRACE_FILTER_ADAPTER, -1 }, { 2 }, 0x07 },
		/* every filter must pass */
		{ { TRACE_FILTER_OBJECT, TRACE_FILTER_PID }, { 2, 20 }, 0x10 },
		{ { TRACE_FILTER_OBJECT, TRACE_FILTER_FILE }, { 1, 1 }, 0x05 },
		{ { TRACE_FILTER_PID, -1 }, { 30 }, 0 },
	};
	struct trace_event ev[6];
	struct trace_filter f;
	unsigned int i, l, got;
	int ok = 1, k;

	for (l = 0; l < 6; l++)
		EXPECT(parse(lines[l], &ev[l]) == TRACE_LINE_EVENT);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		memset(&f, 0, sizeof(f));
		for (k = 0; k < 2; k++) {
			if (c[i].key[k] < 0)
				continue;
			f.set[c[i].key[k]] = true;
			f.value[c[i].key[k]] = c[i].value[k];
		}
		for (got = 0, l = 0; l < 6; l++) {
			/* parse() keeps 4 lines: parse each again */
			parse(lines[l], &ev[l]);
			got |= trace_filter_match(&f, &ev[l]) << l;
		}
		if (got != c[i].want) {
			printf("  filter %u: lines 0x%02x passed, not 0x%02x\n",
			       i, got, c[i].want);
			ok = 0;
		}
	}
	report(ok, "filters");
}

static void output(void)
{
	/* the text, the JSON, another system's event as JSON */
	static const char *const want[] = {
		"812.004211 destroy_pmo file=3 pid=77 obj=5 va=0x10 ret=-16 kind=\"q\"\n",
		"{\"time\":812.004211,\"cpu\":1,\"comm\":\"my prog \\\"x\\\"\",\"tid\":77,\"event\":\"destroy_pmo\",\"file\":3,\"pid\":77,\"obj\":5,\"va\":16,\"ret\":-16,\"kind\":\"\\\"q\\\"\"}\n",
		"{\"time\":1.5,\"cpu\":0,\"comm\":\"sh\",\"tid\":1,\"event\":\"other_event\",\"a\":1}\n",
	};
	struct trace_event ev;
	int ok = 1;

	parse("  my prog \"x\"-77 [001] d..1.   812.004211: dxgpmo_destroy_pmo: file=3 pid=77 obj=5 va=0x10 ret=-16 kind=\"q\"",
	      &ev);
	EXPECT(!strcmp(printed(&ev, TRACE_LINE_EVENT, false), want[0]));
	EXPECT(!strcmp(printed(&ev, TRACE_LINE_EVENT, true), want[1]));
	/* a name from another system keeps its whole name */
	parse("  sh-1 [000] ..... 1.5: other_event: a=1", &ev);
	EXPECT(!strcmp(printed(&ev, TRACE_LINE_EVENT, true), want[2]));
	report(ok, "output_text_and_json");
}

int main(void)
{
	usual_line();
	odd_comms();
	header_options();
	value_types();
	other_lines();
	filters();
	output();
	return failed;
}
