// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl - drive /dev/dxgpmo from the command line or from a script.
 *
 * "dxgpmoctl OBJECT VERB ARGS", as iproute2's ip.  Objects live as long
 * as the open file, so work that spans several calls runs in one process:
 * "dxgpmoctl -batch FILE" or commands on stdin, one per line, with
 * "name=OBJECT VERB ..." storing the command's result (an id) in $name.
 * A line starting with '-' may fail without stopping the script.
 *
 * Every command prints through json_print.h, so the text and the --json
 * form come from the same calls; options, usage, the man page and the
 * bash completion script come from the same tables.
 *
 * This file is the dispatcher, as ip/ip.c is iproute2's: the list of
 * objects, abbreviations, usage, man page and completion script, option
 * parsing and batch mode.  Each object's verbs live in a
 * dxgpmoctl_<family>.c with the table of them (their options, synopses
 * and help), so that one family reads without the others;
 * dxgpmoctl_util.c holds the parsing, output and error records they all
 * use, and dxgpmoctl.h declares what is shared.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dxgpmoctl.h"

#define MAX_ARGS	65	/* 64 words and the NULL */

/*
 * The objects, in the order usage and the man page list them, which is
 * also the order a one-letter abbreviation picks from ("a" is adapter).
 */
static const struct object objects[] = {
	{ .name = "adapter", .verbs = adapter_verbs, .default_verb = "list",
	  .help = "the adapters, and PCI devices bound to dxgpmo-pci to make more" },
	{ .name = "pmo", .verbs = pmo_verbs, .default_verb = "show",
	  .help = "physical memory objects, and the AMOs that open them on adapters" },
	{ .name = "adl", .verbs = adl_verbs, .default_verb = "show",
	  .help = "address descriptor lists: an AMO's pages as its adapter addresses them",
	  .was = "'adl AMO LENGTH' is now 'adl allocate AMO LENGTH'" },
	{ .name = "view", .verbs = view_verbs, .default_verb = "list",
	  .help = "CPU views of a PMO, and reads and writes through them" },
	{ .name = "dma", .verbs = dma_verbs,
	  .help = "an adapter's DMA engine, reading and writing device addresses",
	  .was = "'dma ADAPTER ADDRESS write TEXT' is now 'dma write ADAPTER ADDRESS TEXT'" },
	{ .name = "basis", .verbs = basis_verbs,
	  .help = "memory bases of an adapter's segment, and their dirty-bit tracking",
	  .was = "'basis ADAPTER RANGE...' is now 'basis create ADAPTER RANGE...'" },
	{ .name = "segment", .verbs = segment_verbs,
	  .help = "an adapter's segment, read and written by the CPU" },
	{ .name = "dmabuf", .verbs = dmabuf_verbs, .help = "dma-bufs of PMOs" },
	{ .name = "stats", .verbs = stats_verbs, .default_verb = "show",
	  .help = "the module's counters of objects and pages" },
	{ .name = "monitor", .verbs = monitor_verbs,
	  .help = "the module's trace events as they happen (as ip monitor)" },
};

/*
 * The flat commands of the old grammar, refused with their new form
 * rather than kept as a second grammar.
 */
static const struct {
	const char *old, *now;
} renamed[] = {
	{ "adapters", "adapter list" }, { "bind", "adapter bind" },
	{ "unbind", "adapter unbind" }, { "create", "pmo create" },
	{ "open", "pmo open" }, { "close", "pmo close" },
	{ "destroy", "pmo destroy" }, { "free-adl", "adl free" },
	{ "map", "view map" }, { "unmap", "view unmap" },
	{ "view-write", "view write" }, { "view-read", "view read" },
	{ "start", "basis start" }, { "stop", "basis stop" },
	{ "query", "basis query" }, { "destroy-basis", "basis destroy" },
	{ "segment-write", "segment write" }, { "export", "dmabuf export" },
	{ "close-dmabuf", "dmabuf close" },
};

/* Each verb of each object; o counts the objects. */
#define for_each_command(c, o)					\
	for ((o) = 0; (o) < ARRAY_SIZE(objects); (o)++)		\
		for ((c) = objects[o].verbs; (c)->run; (c)++)

static const struct cmd_option global_opts[] = {
	{ "json", 'j', NULL,
	  "JSON output: one object or array a command, one a line" },
	{ "batch", 'f', "FILE",
	  "run the commands in FILE, one a line ('-': standard input)" },
	{ "help", 'h', NULL, "this text" },
	{ "man", 0, NULL, "the man page (troff)" },
	{ "commands", 0, NULL, "every OBJECT VERB, one a line" },
	{ "bash-completion", 0, NULL, "the bash completion script" },
	{ }
};

/*
 * What word stands for among the n names: itself, or the one name it
 * begins, or with a single letter the first name of that letter (as
 * "ip a" is address).  -1 for none; -2 for several, which are then
 * listed in cands.
 */
static int lookup(const char *word, const char *const *names, unsigned int n,
		  char *cands, size_t size)
{
	size_t len = strlen(word), at = 0;
	int found = -1, count = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(word, names[i]))
			return i;
	for (i = 0; i < n && len; i++) {
		if (strncmp(word, names[i], len))
			continue;
		if (found < 0)
			found = i;
		at += snprintf(cands + at, at < size ? size - at : 0, "%s%s",
			       count++ ? ", " : "", names[i]);
	}
	return count > 1 && len > 1 ? -2 : found;
}

static int find_object(const char *word, char *cands, size_t size)
{
	const char *names[ARRAY_SIZE(objects)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(objects); i++)
		names[i] = objects[i].name;
	return lookup(word, names, ARRAY_SIZE(objects), cands, size);
}

static int find_verb(const struct object *o, const char *word, char *cands,
		     size_t size)
{
	const char *names[32];
	unsigned int n;

	for (n = 0; n < ARRAY_SIZE(names) && o->verbs[n].run; n++)
		names[n] = o->verbs[n].name;
	return lookup(word, names, n, cands, size);
}

/* "pmo create [--type TYPE] ... SIZE", for the usage and the man page. */
static const char *synopsis(const struct object *obj, const struct command *c)
{
	static char buf[512];
	const struct cmd_option *o;
	size_t n;

	n = snprintf(buf, sizeof(buf), "%s%s%s", obj->name, c->name ? " " : "",
		     c->name ? c->name : "");
	for (o = c->opts; o && o->name && n < sizeof(buf); o++)
		n += snprintf(buf + n, sizeof(buf) - n, o->arg ? " [--%s %s]" :
			      " [--%s]", o->name, o->arg);
	if (c->operands && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, " %s", c->operands);
	return buf;
}

static void print_option_list(FILE *out, const struct cmd_option *o)
{
	char name[48];

	for (; o && o->name; o++) {
		snprintf(name, sizeof(name), "%c%c%s--%s%s%s",
			 o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ',
			 o->short_name ? ", " : "  ", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(out, "  %-30s %s\n", name, o->help);
	}
}

static void print_usage(FILE *out)
{
	const struct command *c;
	unsigned int o;

	fprintf(out,
		"usage: dxgpmoctl [OPTIONS] OBJECT VERB [ARGS...]\n"
		"       dxgpmoctl [OPTIONS] -batch FILE   (or commands on stdin)\n"
		"       dxgpmoctl help | OBJECT help | OBJECT VERB --help\n"
		"\nOptions (also as -json, -batch):\n");
	print_option_list(out, global_opts);
	fprintf(out, "\nObjects:\n");
	for (o = 0; o < ARRAY_SIZE(objects); o++)
		fprintf(out, "  %-8s %s\n", objects[o].name, objects[o].help);
	fprintf(out,
		"\nObjects and verbs may be abbreviated: a unique prefix, or one letter\n"
		"for the first of that letter above ('dxgpmoctl p c 4K' is pmo create).\n"
		"\nIn a batch, 'name=OBJECT VERB ...' stores the result in $name (some\n"
		"verbs more, as $name_suffix); $name is replaced on every line, echo's\n"
		"too, but inside '...'; a line starting with '-' may fail without\n"
		"stopping the batch; 'echo TEXT' prints TEXT; '#' starts a comment;\n"
		"\"...\" and '...' quote.  Numbers take K, M and G suffixes and add up\n"
		"with '+'.\n"
		"\nCommands:\n");
	for_each_command(c, o)
		fprintf(out, "  %s\n", synopsis(&objects[o], c));
}

/* dxgpmoctl OBJECT help: the object's verbs. */
static void object_help(const struct object *obj)
{
	const struct command *c;

	printf("usage: dxgpmoctl %s%s\n\n%c%s.\n\n", obj->name,
	       obj->verbs[0].name ? " VERB [ARGS...]" : " [ARGS...]",
	       toupper((unsigned char)obj->help[0]), obj->help + 1);
	for (c = obj->verbs; c->run; c++)
		printf("  %s\n", synopsis(obj, c));
	if (obj->verbs[0].name)
		printf("\n'dxgpmoctl %s VERB --help' describes one verb", obj->name);
	else
		printf("\n'dxgpmoctl %s --help' describes it", obj->name);
	if (obj->default_verb)
		printf("; 'dxgpmoctl %s' alone is '%s %s'", obj->name,
		       obj->name, obj->default_verb);
	printf(".\n");
}

static void command_help(const struct object *obj, const struct command *c)
{
	printf("usage: dxgpmoctl %s\n\n%s\n", synopsis(obj, c), c->help);
	if (c->opts) {
		printf("\nOptions:\n");
		print_option_list(stdout, c->opts);
	}
}

/* Text for troff: backslashes and minus signs escaped. */
static void man_puts(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void man_options(const struct cmd_option *o)
{
	for (; o && o->name; o++) {
		printf(".TP\n");
		if (o->short_name)
			printf("\\fB\\-%c\\fR, ", o->short_name);
		printf("\\fB");
		man_puts("--");
		man_puts(o->name);
		printf("\\fR");
		if (o->arg) {
			printf(" \\fI");
			man_puts(o->arg);
			printf("\\fR");
		}
		putchar('\n');
		man_puts(o->help);
		putchar('\n');
	}
}

/* A command's entry in the man page: what command_help() prints. */
static void man_command(const struct object *obj, const struct command *c)
{
	printf(".TP\n.B ");
	man_puts(synopsis(obj, c));
	printf("\n");
	man_puts(c->help);
	putchar('\n');
	if (!c->opts)
		return;
	printf(".RS\n");
	man_options(c->opts);
	printf(".RE\n");
}

/*
 * The man page's batch example, a session as scripts/demo.dxgpmo is; the
 * VM test runs it as the man page prints it.
 */
static const char example_batch[] =
	"# an object on edu0, written by edu0's DMA engine and read back\n"
	"p=pmo create --adapter edu0 64K\n"
	"l=adl allocate --prefer-contiguous $p_amo 64K\n"
	"echo adl $l: device address $l_addr\n"
	"dma write edu0 $l_addr hello\n"
	"dma read edu0 $l_addr 5 --expect hello\n"
	"adl free $l\n"
	"# dirty bits of edu0's segment\n"
	"s=basis create edu0 0:16K\n"
	"basis start $s\n"
	"segment write edu0 0x1000 x\n"
	"basis query --clear $s\n"
	"basis destroy $s\n"
	"-pmo destroy $p\n"
	"pmo destroy $p $p_amo\n";

static void man_examples(void)
{
	static const struct {
		const char *command, *text;
	} ex[] = {
		{ "dxgpmoctl adapter list",
		  "The adapters, with PCI address, IOMMU group and segment." },
		{ "dxgpmoctl -j a l",
		  "As JSON: one letter is the first object or verb of that letter." },
		{ "dxgpmoctl adapter bind 0000:03:00.0",
		  "Make a spare PCI device an adapter (pci0)." },
		{ "dxgpmoctl -j monitor object 3",
		  "Every call on handle 3 of any process, one JSON object a line." },
		{ "dxgpmoctl pmo help",
		  "The verbs of pmo." },
	};
	unsigned int i;

	printf(".SH EXAMPLES\n");
	for (i = 0; i < ARRAY_SIZE(ex); i++) {
		printf(".TP\n.B ");
		man_puts(ex[i].command);
		putchar('\n');
		man_puts(ex[i].text);
		putchar('\n');
	}
	printf(".PP\nObjects live as long as the open file, so a session spanning calls is\n"
	       "a batch, run with \\fBdxgpmoctl \\-f\\fR \\fIFILE\\fR:\n"
	       ".PP\n.RS\n.nf\n");
	man_puts(example_batch);
	printf(".fi\n.RE\n");
}

/* The man page, generated from the tables --help prints (one source). */
static void print_man(void)
{
	const struct command *c;
	unsigned int o;

	printf(".TH DXGPMOCTL 1 \"\" \"dxgpmo\" \"User Commands\"\n"
	       ".SH NAME\ndxgpmoctl \\- drive the dxgpmo physical memory object module\n"
	       ".SH SYNOPSIS\n.B dxgpmoctl\n[\\fIOPTIONS\\fR] \\fIOBJECT\\fR \\fIVERB\\fR [\\fIARGS\\fR...]\n.br\n"
	       ".B dxgpmoctl\n[\\fIOPTIONS\\fR] \\-batch \\fIFILE\\fR\n.br\n"
	       ".B dxgpmoctl\n\\fIOBJECT\\fR help\n"
	       ".SH DESCRIPTION\n"
	       "dxgpmoctl makes the calls of the Windows display-driver memory contract\n"
	       "(physical memory objects, ADLs, CPU mappings, memory bases, dirty-bit\n"
	       "tracking, dma-buf export) on /dev/dxgpmo, in the grammar of ip(8):\n"
	       "an object, then what to do with it.  \\fBdxgpmoctl\\fR \\fIOBJECT\\fR \\fBhelp\\fR\n"
	       "lists an object's verbs; an object alone runs its default verb, as\n"
	       "\\fBdxgpmoctl adapter\\fR lists the adapters.  Objects and verbs may be\n"
	       "abbreviated to a prefix only they have, or to one letter, which stands\n"
	       "for the first object or verb of that letter in the order below:\n"
	       "\\fBdxgpmoctl p c 4K\\fR is \\fBpmo create 4K\\fR.  A longer prefix that\n"
	       "several have is an error naming them.  The flat commands of earlier\n"
	       "versions (free\\-adl, close\\-dmabuf, ...) are refused with their new form.\n"
	       ".PP\nObjects live as long as the\n"
	       "open file, so work spanning several calls runs in one process: a batch\n"
	       "file (or commands on standard input) holds one command a line.\n"
	       ".PP\nIn a batch, \\fIname\\fR=\\fIOBJECT VERB\\fR stores the command's result (an id)\n"
	       "in $\\fIname\\fR, and some verbs store more values as $\\fIname\\fR_\\fIsuffix\\fR.\n"
	       "Every $\\fIname\\fR on a line is replaced by its value before the line\n"
	       "runs, in echo's text too, but not inside '...'; a name no command stored\n"
	       "is an error.  A line starting with \\- may fail without stopping the batch;\n"
	       "echo prints the rest of its line; # starts a comment.  Words are split at\n"
	       "blanks; \"double\" and 'single' quotes keep blanks in a word (\\e\" and \\e\\e\n"
	       "escape inside double quotes).  Numbers take K, M and G suffixes, and terms\n"
	       "add up with +, as in $l_addr+100.  Options may stand anywhere among a\n"
	       "command's arguments; \\-\\- ends them.\n"
	       ".PP\nOutput goes to standard output: text, or with \\-\\-json one JSON object or\n"
	       "array per command, one a line.  A failed call prints one error record on\n"
	       "standard error: the call, the errno name and what it means in the\n"
	       "contract, as text or with \\-\\-json as a JSON object with the keys call,\n"
	       "error, errno and message (and batch and line in a batch).  The exit status\n"
	       "is 1 for a failed call, 2 for arguments a command does not take.  Without\n"
	       "the device node the record says: no /dev/dxgpmo: is the module loaded?\n"
	       "(modprobe dxgpmo).\n"
	       ".SH OPTIONS\n"
	       "Options come before the object; \\-json and \\-batch work too.\n");
	man_options(global_opts);
	printf(".SH OBJECTS AND VERBS\n");
	for (o = 0; o < ARRAY_SIZE(objects); o++) {
		printf(".SS %s\n", objects[o].name);
		man_puts(objects[o].help);
		printf(".");
		if (objects[o].default_verb)
			printf("  Alone: %s %s.", objects[o].name,
			       objects[o].default_verb);
		putchar('\n');
		for (c = objects[o].verbs; c->run; c++)
			man_command(&objects[o], c);
	}
	man_examples();
	printf(".SH ENVIRONMENT\n.TP\n.B DXGPMO_DMABUF_FD\n"
	       "set for the COMMAND of dmabuf export: the fd of the dma-buf.\n"
	       ".TP\n.B DXGPMO_DEVICE\n"
	       "the device node to open instead of /dev/dxgpmo.\n"
	       ".SH FILES\n/dev/dxgpmo\n.br\n"
	       "/sys/kernel/tracing/instances/dxgpmoctl\\-\\fIPID\\fR: monitor's tracefs instance\n.br\n"
	       "/usr/share/bash\\-completion/completions/dxgpmoctl: completion of objects,\n"
	       "verbs, options and adapter names\n"
	       ".SH SEE ALSO\n"
	       ".BR dxgpmo\\-bench (1),\n"
	       ".BR modprobe (8);\n"
	       "the ioctls in <dxgpmo/dxgpmo.h> (package libdxgk\\-dev).\n");
}

/*
 * How many operands a synopsis takes, from its words: WORD takes one,
 * WORD... one or more, [...] may be left out, "--" is getopt's and takes
 * none, and the words after a '|' stand in the places of those before it
 * ("write TEXT | read LENGTH"), so they add none.  *max -1: any number.
 */
static void operand_range(const char *s, int *min, int *max)
{
	int depth = 0, alt = -1;	/* alt: the depth of the last '|' */
	size_t len;

	*min = *max = 0;
	while (s && *s) {
		len = strcspn(s, " []|");
		if (!len) {
			if (*s == '[')
				depth++;
			else if (*s == ']' && depth-- == alt)
				alt = -1;
			else if (*s == '|')
				alt = depth;
			s++;
			continue;
		}
		s += len;
		if (alt >= 0 || (len == 2 && !strncmp(s - 2, "--", 2)))
			continue;
		if (len > 3 && !strncmp(s - 3, "...", 3))
			*max = -1;
		else if (*max >= 0)
			(*max)++;
		if (!depth)
			(*min)++;
	}
}

/*
 * getopt_long over the command's option table: options anywhere among
 * the operands, "--" ends them.  1 when --help was printed, 2 on a usage
 * error, else 0 with ctx->opt, ctx->argc and ctx->argv filled.
 */
static int parse_options(struct cmd_ctx *ctx, int argc, char **argv)
{
	const struct cmd_option *opts = ctx->cmd->opts;
	struct option longopts[MAX_OPTS + 2];
	char shorts[2 * MAX_OPTS + 3] = ":h";
	unsigned int n = 0, s = 2, i;
	int c, min, max;

	for (; opts && opts[n].name; n++) {
		longopts[n] = (struct option){ opts[n].name,
			opts[n].arg ? required_argument : no_argument, NULL,
			opts[n].short_name ? opts[n].short_name : 256 + n };
		if (opts[n].short_name) {
			shorts[s++] = opts[n].short_name;
			if (opts[n].arg)
				shorts[s++] = ':';
		}
	}
	longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n + 1] = (struct option){ };
	shorts[s] = 0;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (c == 'h') {
			command_help(ctx->obj, ctx->cmd);
			return 1;
		}
		if (c == '?' && optopt)
			return usage_error(ctx, "unknown option '-%c'", optopt);
		if (c == '?')
			return usage_error(ctx, "unknown option '%s'",
					   argv[optind - 1]);
		if (c == ':')
			return usage_error(ctx, "option '%s' needs an argument",
					   argv[optind - 1]);
		for (i = 0; i < n; i++)
			if (c == (opts[i].short_name ? opts[i].short_name :
				  256 + (int)i))
				ctx->opt[i] = optarg ? optarg : "";
	}
	ctx->argc = argc - optind;
	ctx->argv = argv + optind;
	operand_range(ctx->cmd->operands, &min, &max);
	if (ctx->argc < min || (max >= 0 && ctx->argc > max)) {
		if (!ctx->cmd->operands)
			return usage_error(ctx, "no arguments expected");
		return usage_error(ctx, "expected %s", ctx->cmd->operands);
	}
	return 0;
}

static int hint_error(const char *call, const char *fmt, ...) __printf(2, 3);

/* A word that is no command: status 2, and where to look. */
static int hint_error(const char *call, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_record(call, -EINVAL, "%s", msg);
	return 2;
}

/* The object of argv[0], or NULL with the error printed. */
static const struct object *pick_object(const char *word)
{
	char cands[256];
	unsigned int i;
	int o;

	o = find_object(word, cands, sizeof(cands));
	if (o >= 0)
		return &objects[o];
	if (o == -2) {
		hint_error("dxgpmoctl", "'%s' is ambiguous: %s", word, cands);
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(renamed); i++) {
		if (!strcmp(word, renamed[i].old)) {
			hint_error("dxgpmoctl", "'%s' is now '%s'", word,
				   renamed[i].now);
			return NULL;
		}
	}
	hint_error(word, "unknown object (see 'dxgpmoctl help')");
	return NULL;
}

/*
 * "OBJECT [VERB] ARGS..." (or "help [OBJECT]"), store the name its result
 * goes in.  The verb's own words start at the verb, as getopt wants.
 */
static int run_command(int argc, char **argv, const char *store)
{
	struct cmd_ctx ctx = { };
	const char *verb = NULL;
	char name[64], cands[256], *alone[2] = { };
	unsigned int i;
	int ret, v = 0;

	if (!strcmp(argv[0], "help") && argc <= 2) {
		if (argc == 1) {
			print_usage(stdout);
			return 0;
		}
		argv++;
		argc = 0;
	}
	ctx.obj = pick_object(argv[0]);
	if (!ctx.obj)
		return 2;
	if (argc == 0 || (argc >= 2 && !strcmp(argv[1], "help"))) {
		object_help(ctx.obj);
		return 0;
	}
	if (ctx.obj->verbs[0].name) {
		verb = argc > 1 ? argv[1] : ctx.obj->default_verb;
		if (!verb)
			return hint_error(ctx.obj->name, "which verb? (see 'dxgpmoctl %s help')",
					  ctx.obj->name);
		v = find_verb(ctx.obj, verb, cands, sizeof(cands));
		if (v == -2)
			return hint_error(ctx.obj->name, "'%s' is ambiguous: %s",
					  verb, cands);
		if (v < 0)
			return hint_error(ctx.obj->name, "unknown verb '%s' (see 'dxgpmoctl %s help')%s%s",
					  verb, ctx.obj->name,
					  ctx.obj->was ? "; " : "",
					  ctx.obj->was ? ctx.obj->was : "");
		if (argc > 1) {
			argc--;
			argv++;
		} else {
			/* the default verb's words: just its name */
			alone[0] = (char *)verb;
			argv = alone;
		}
	}
	ctx.cmd = &ctx.obj->verbs[v];
	snprintf(ctx.call, sizeof(ctx.call), "%s%s%s", ctx.obj->name,
		 ctx.cmd->name ? " " : "", ctx.cmd->name ? ctx.cmd->name : "");
	ctx.name = ctx.call;
	ret = parse_options(&ctx, argc, argv);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (!ctx.cmd->sysfs_only && need_dev(&ctx))
		return 1;
	print_begin(stdout);
	ret = ctx.cmd->run(&ctx);
	print_end();
	if (ret || !store)
		return ret;
	if (!ctx.has_result)
		return usage_error(&ctx, "has no result to store in $%s", store);
	if (set_var(store, ctx.result))
		return usage_error(&ctx, "no room for $%s", store);
	for (i = 0; i < ctx.nr_extra; i++) {
		snprintf(name, sizeof(name), "%s_%s", store,
			 ctx.extra[i].suffix);
		if (set_var(name, ctx.extra[i].value))
			return usage_error(&ctx, "no room for $%s", name);
	}
	return 0;
}

/*
 * Split a batch line into words in place, as iproute2's -batch does:
 * blanks separate, "..." and '...' quote (\" and \\ escape inside "...").
 * The number of words, or -1 for an open quote or more than max - 1 words.
 * argv ends with a NULL, as execvp() needs for export's COMMAND.
 */
static int makeargs(char *line, char **argv, int max)
{
	char *r = line, *w = line, quote;
	int argc = 0;
	bool more;

	for (;;) {
		argv[argc] = NULL;
		while (*r == ' ' || *r == '\t')
			r++;
		if (!*r)
			return argc;
		if (argc == max - 1)
			return -1;
		argv[argc++] = w;
		while (*r && *r != ' ' && *r != '\t') {
			if (*r != '"' && *r != '\'') {
				*w++ = *r++;
				continue;
			}
			quote = *r++;
			while (*r && *r != quote) {
				if (quote == '"' && *r == '\\' &&
				    (r[1] == '"' || r[1] == '\\'))
					r++;
				*w++ = *r++;
			}
			if (!*r)
				return -1;
			r++;
		}
		more = *r;
		*w++ = 0;
		if (more)
			r++;
	}
}

/* echo TEXT: the rest of the line, its variables replaced. */
static void batch_echo(const char *text)
{
	print_begin(stdout);
	open_json_object(NULL);
	print_string(PRINT_ANY, "echo", "%s\n", text);
	close_json_object();
	print_end();
}

static bool name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * The line with every $name outside '...' replaced by its value, in
 * decimal, for every command and echo alike: the longest name there is
 * ("$l_addr+100" is l_addr's value and "+100").  A '$' before anything
 * but a name stays.  NULL when a name was never stored (*bad, *bad_len:
 * the name) or on ENOMEM; the result is the caller's to free.
 */
static char *substitute(const char *line, const char **bad, int *bad_len)
{
	size_t cap = strlen(line) + 1, n = 0, len, skip;
	char *out = malloc(cap), *grown, quote = 0, value[24];
	const char *p = line, *from;
	uint64_t v;

	if (!out)
		return NULL;
	while (*p) {
		from = p;
		len = 1;
		skip = 1;
		if (quote == '"' && *p == '\\' && p[1]) {
			len = 2;
			skip = 2;
		} else if (quote != '\'' && *p == '$' && name_start(p[1])) {
			while (name_char(p[skip]))
				skip++;
			if (get_var(p + 1, skip - 1, &v)) {
				*bad = p + 1;
				*bad_len = skip - 1;
				free(out);
				return NULL;
			}
			len = snprintf(value, sizeof(value), "%" PRIu64, v);
			from = value;
		} else if ((*p == '"' || *p == '\'') && (!quote || quote == *p)) {
			quote = quote ? 0 : *p;
		}
		if (n + len + 1 > cap) {
			cap = 2 * cap + len;
			grown = realloc(out, cap);
			if (!grown)
				break;
			out = grown;
		}
		memcpy(out + n, from, len);
		n += len;
		p += skip;
	}
	if (*p) {
		free(out);
		return NULL;
	}
	out[n] = 0;
	return out;
}

/* A name= of a batch line: what $name can be read back as. */
static bool valid_name(const char *s)
{
	if (!name_start(*s))
		return false;
	while (name_char(*s))
		s++;
	return !*s;
}

/* One line of a batch, after '-': 0, or the status that stops a batch. */
static int batch_line_run(const char *p, bool may_fail)
{
	char *argv[MAX_ARGS], *line, *store = NULL, *eq;
	const char *bad = NULL;
	int argc, ret, bad_len;

	line = substitute(p, &bad, &bad_len);
	if (!line && bad) {
		error_record("dxgpmoctl", -EINVAL,
			     "no variable $%.*s: no command stored it", bad_len,
			     bad);
		return 2;
	}
	if (!line) {
		error_record("dxgpmoctl", -ENOMEM, "a line of %zu bytes",
			     strlen(p));
		return 1;
	}
	if (!strncmp(line, "echo", 4) &&
	    (!line[4] || isspace((unsigned char)line[4]))) {
		batch_echo(line[4] ? line + 5 : "");
		free(line);
		return 0;
	}
	print_begin(stdout);
	print_text("> %s%s\n", p, may_fail ? "   (may fail)" : "");
	print_end();
	argc = makeargs(line, argv, MAX_ARGS);
	if (argc > 0) {
		eq = strchr(argv[0], '=');
		if (eq) {
			*eq = 0;
			store = argv[0];
			argv[0] = eq + 1;
		}
	}
	if (argc < 0) {
		error_record("dxgpmoctl", -EINVAL,
			     "an open quote or more than %d words",
			     MAX_ARGS - 1);
		ret = 2;
	} else if (store && !valid_name(store)) {
		error_record("dxgpmoctl", -EINVAL,
			     "'%s' is no name for a variable (letters, digits, _)",
			     store);
		ret = 2;
	} else if (store && !*argv[0]) {
		error_record("dxgpmoctl", -EINVAL, "%s=: which command?", store);
		ret = 2;
	} else {
		ret = argc ? run_command(argc, argv, store) : 0;
	}
	free(line);
	return ret;
}

static int run_batch(FILE *in, const char *source)
{
	char *line = NULL, *p;
	size_t cap = 0;
	int ret = 0;
	bool may_fail;

	batch_source = source;
	batch_line = 0;
	while (getline(&line, &cap, in) >= 0) {
		batch_line++;
		line[strcspn(line, "\r\n")] = 0;
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (!*p || *p == '#')
			continue;
		may_fail = *p == '-';
		ret = batch_line_run(p + may_fail, may_fail);
		if (ret && !may_fail)
			break;
		ret = 0;
	}
	if (ret) {
		print_begin(stderr);
		print_text("dxgpmoctl: %s:%u: stopped\n", source, batch_line);
		print_end();
	}
	free(line);
	batch_source = NULL;
	return ret;
}

static int run_batch_file(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int ret;

	if (!f) {
		error_record("dxgpmoctl", -errno, "%s: %s", path,
			     strerror(errno));
		return 2;
	}
	ret = run_batch(f, path);
	if (f != stdin)
		fclose(f);
	return ret;
}

/* The names the parser takes for TYPE or CACHE, as a word list. */
static void print_names(const char *(*name)(uint32_t value))
{
	const char *sep = "";
	uint32_t v;

	for (v = 0; v < 16; v++) {
		if (strcmp(name(v), "?")) {
			printf("%s%s", sep, name(v));
			sep = " ";
		}
	}
}

/*
 * The bash completion script, from the same tables as the usage: objects,
 * verbs, options, the words an option's argument may be, and each
 * verb's operands by their synopsis names, the adapters' names for
 * ADAPTER.  Prefixes resolve as the dispatcher resolves them.
 */
static void print_completion(void)
{
	const struct cmd_option *g;
	const struct command *c;
	unsigned int o;

	printf("# bash completion for dxgpmoctl(1), printed by dxgpmoctl --bash-completion\n"
	       "# from the command table its usage comes from: do not edit.\n"
	       "# shellcheck shell=bash\n\n");
	printf("_dxgpmoctl_objects='");
	for (o = 0; o < ARRAY_SIZE(objects); o++)
		printf("%s%s", o ? " " : "", objects[o].name);
	printf("'\n_dxgpmoctl_global='");
	for (g = global_opts; g->name; g++) {
		if (g->short_name)
			printf("-%c%s ", g->short_name, g->arg ? "=" : "");
		printf("--%s%s%s", g->name, g->arg ? "=" : "",
		       g[1].name ? " " : "");
	}
	printf("'\n_dxgpmoctl_types='");
	print_names(dxgpmo_type_name);
	printf("'\n_dxgpmoctl_caches='");
	print_names(dxgpmo_cache_name);
	printf("'\n\n# _dxgpmoctl_verbs OBJECT: its verbs, none for monitor\n"
	       "_dxgpmoctl_verbs() {\n\tcase $1 in\n");
	for (o = 0; o < ARRAY_SIZE(objects); o++) {
		printf("\t%s) echo '", objects[o].name);
		for (c = objects[o].verbs; c->run && c->name; c++)
			printf("%s%s", c == objects[o].verbs ? "" : " ", c->name);
		printf("' ;;\n");
	}
	printf("\tesac\n}\n\n"
	       "# _dxgpmoctl_syntax 'OBJECT VERB': its options (--name=ARG for one\n"
	       "# taking ARG), then ; and its operands\n"
	       "_dxgpmoctl_syntax() {\n\tcase $1 in\n");
	for_each_command(c, o) {
		const struct cmd_option *op;

		printf("\t'%s%s%s') echo '", objects[o].name,
		       c->name ? " " : "", c->name ? c->name : "");
		for (op = c->opts; op && op->name; op++) {
			const char *arg = op->arg;

			if (op->short_name)
				printf("-%c%s%s ", op->short_name,
				       arg ? "=" : "", arg ? arg : "");
			printf("--%s%s%s ", op->name, arg ? "=" : "",
			       arg ? arg : "");
		}
		printf("--help;%s' ;;\n", c->operands ? c->operands : "");
	}
	printf("\tesac\n}\n\n");
	fputs(completion_body, stdout);
}

int main(int argc, char **argv)
{
	struct option longopts[ARRAY_SIZE(global_opts)] = { };
	const char *batch = NULL, *name;
	const struct command *cmd;
	char shorts[16] = "+:";
	unsigned int i, s = 2;
	int c;

	for (i = 0; global_opts[i].name; i++) {
		const struct cmd_option *o = &global_opts[i];

		longopts[i] = (struct option){ o->name,
			o->arg ? required_argument : no_argument, NULL,
			o->short_name ? o->short_name : 256 + i };
		if (o->short_name) {
			shorts[s++] = o->short_name;
			if (o->arg)
				shorts[s++] = ':';
		}
	}
	/*
	 * One write per record: stderr is unbuffered, and a reader taking
	 * one read() of an error line must get all of it.
	 */
	setvbuf(stderr, NULL, _IOLBF, 0);
	opterr = 0;
	/* iproute2's single-dash long options (-json, -batch) too. */
	while ((c = getopt_long_only(argc, argv, shorts, longopts, NULL)) != -1) {
		name = c >= 256 ? global_opts[c - 256].name : "";
		if (c == 'j') {
			json_print_mode(true);
			continue;
		}
		if (c == 'f') {
			batch = optarg;
			continue;
		}
		if (c == 'h')
			print_usage(stdout);
		else if (!strcmp(name, "man"))
			print_man();
		else if (!strcmp(name, "commands"))
			for_each_command(cmd, i)
				printf("%s%s%s\n", objects[i].name,
				       cmd->name ? " " : "",
				       cmd->name ? cmd->name : "");
		else if (!strcmp(name, "bash-completion"))
			print_completion();
		else
			return usage_error(&(struct cmd_ctx){ .name = "dxgpmoctl" },
					   "%s '%s'", c == ':' ?
					   "an argument is missing after" :
					   "unknown option", argv[optind - 1]);
		return 0;
	}
	if (batch)
		return run_batch_file(batch);
	if (optind == argc) {
		if (isatty(STDIN_FILENO)) {
			print_usage(stderr);
			return 2;
		}
		return run_batch(stdin, "stdin");
	}
	return run_command(argc - optind, argv + optind, NULL);
}
