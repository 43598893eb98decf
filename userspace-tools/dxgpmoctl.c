// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl - drive /dev/dxgpmo from the command line or from a script.
 *
 * Objects live as long as the open file, so work that spans several calls
 * runs in one process: "dxgpmoctl -batch FILE" or commands on stdin, one per
 * line, with "name=command ..." storing the command's result (an id) in
 * $name.  A line starting with '-' may fail without stopping the script.
 *
 * Every command prints through json_print.h, so the text and the --json
 * form come from the same calls; options, usage and the man page come from
 * the same tables.
 *
 * This file is the dispatcher, as ip/ip.c is iproute2's: the list of
 * command families, usage and man page, option parsing and batch mode.
 * Each family of commands has a dxgpmoctl_<family>.c of its own, with the
 * table of its commands (their options, synopses and help), so that one
 * family reads without the others; dxgpmoctl_util.c holds the parsing,
 * output and error records they all use, and dxgpmoctl.h declares what is
 * shared.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dxgpmoctl.h"

#define MAX_ARGS	65	/* 64 words and the NULL */

/* The families, in the order usage and the man page list them. */
static const struct command *const families[] = {
	adapter_commands, object_commands, adl_commands, map_commands,
	dirty_commands, dmabuf_commands, monitor_commands,
};

/* Each command of each family; f counts the families. */
#define for_each_command(c, f)					\
	for ((f) = 0; (f) < ARRAY_SIZE(families); (f)++)	\
		for ((c) = families[f]; (c)->name; (c)++)

static const struct cmd_option global_opts[] = {
	{ "json", 'j', NULL,
	  "JSON output: one object or array a command, one a line" },
	{ "batch", 'f', "FILE",
	  "run the commands in FILE, one a line ('-': standard input)" },
	{ "help", 'h', NULL, "this text" },
	{ "man", 0, NULL, "the man page (troff)" },
	{ "commands", 0, NULL, "the commands' names, one a line" },
	{ }
};

static const struct command *find_command(const char *name)
{
	const struct command *c;
	unsigned int f;

	for_each_command(c, f)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* "create [--type TYPE] ... SIZE", for the usage and the man page. */
static const char *synopsis(const struct command *c)
{
	static char buf[512];
	const struct cmd_option *o;
	size_t n;

	n = snprintf(buf, sizeof(buf), "%s", c->name);
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
	unsigned int f;

	fprintf(out,
		"usage: dxgpmoctl [OPTIONS] COMMAND [ARGS...]\n"
		"       dxgpmoctl [OPTIONS] -batch FILE   (or commands on stdin)\n"
		"\nOptions (also as -json, -batch):\n");
	print_option_list(out, global_opts);
	fprintf(out,
		"\nIn a batch, 'name=COMMAND ...' stores the result in $name;\n"
		"a line starting with '-' may fail without stopping the batch;\n"
		"'echo TEXT' prints TEXT; '#' starts a comment; \"...\" and '...'\n"
		"quote.  Numbers take K, M and G suffixes and add up with '+'.\n"
		"\nCommands:\n");
	for_each_command(c, f)
		fprintf(out, "  %s\n", synopsis(c));
	fprintf(out, "\n'dxgpmoctl COMMAND --help' describes one command.\n");
}

static void command_help(const struct command *c)
{
	printf("usage: dxgpmoctl %s\n\n%s\n", synopsis(c), c->help);
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
static void man_command(const struct command *c)
{
	printf(".TP\n.B ");
	man_puts(synopsis(c));
	printf("\n");
	man_puts(c->help);
	putchar('\n');
	if (!c->opts)
		return;
	printf(".RS\n");
	man_options(c->opts);
	printf(".RE\n");
}

/* The man page, generated from the tables --help prints (one source). */
static void print_man(void)
{
	const struct command *c;
	unsigned int f;

	printf(".TH DXGPMOCTL 8 \"\" \"dxgpmo\" \"System Administration\"\n"
	       ".SH NAME\ndxgpmoctl \\- drive the dxgpmo physical memory object module\n"
	       ".SH SYNOPSIS\n.B dxgpmoctl\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR...]\n.br\n"
	       ".B dxgpmoctl\n[\\fIOPTIONS\\fR] \\-batch \\fIFILE\\fR\n"
	       ".SH DESCRIPTION\n"
	       "dxgpmoctl makes the calls of the Windows display-driver memory contract\n"
	       "(physical memory objects, ADLs, CPU mappings, memory bases, dirty-bit\n"
	       "tracking, dma-buf export) on /dev/dxgpmo.  Objects live as long as the\n"
	       "open file, so work spanning several calls runs in one process: a batch\n"
	       "file (or commands on standard input) holds one command a line.\n"
	       ".PP\nIn a batch, \\fIname\\fR=\\fICOMMAND\\fR stores the command's result (an id)\n"
	       "in $\\fIname\\fR, and some commands store more values as $\\fIname\\fR_\\fIsuffix\\fR.\n"
	       "A line starting with \\- may fail without stopping the batch; echo prints\n"
	       "the rest of its line; # starts a comment.  Words are split at blanks;\n"
	       "\"double\" and 'single' quotes keep blanks in a word (\\e\" and \\e\\e escape\n"
	       "inside double quotes).  Numbers take K, M and G suffixes, and terms add up\n"
	       "with +, as in $l_addr+100.  Options may stand anywhere among a command's\n"
	       "arguments; \\-\\- ends them.\n"
	       ".PP\nOutput goes to standard output: text, or with \\-\\-json one JSON object or\n"
	       "array per command, one a line.  A failed call prints one error record on\n"
	       "standard error: the call, the errno name and what it means in the\n"
	       "contract, as text or with \\-\\-json as a JSON object with the keys call,\n"
	       "error, errno and message (and batch and line in a batch).  The exit status\n"
	       "is 1 for a failed call, 2 for arguments a command does not take.\n"
	       ".SH OPTIONS\n"
	       "Options come before the command; \\-json and \\-batch work too.\n");
	man_options(global_opts);
	printf(".SH COMMANDS\n");
	for_each_command(c, f)
		man_command(c);
	printf(".SH ENVIRONMENT\n.TP\n.B DXGPMO_DMABUF_FD\n"
	       "set for the COMMAND of export: the fd of the dma-buf.\n"
	       ".SH FILES\n/dev/dxgpmo\n.br\n"
	       "/sys/kernel/tracing/instances/dxgpmoctl\\-\\fIPID\\fR: monitor's tracefs instance\n"
	       ".SH SEE ALSO\n"
	       "Documentation/index.rst in the dxgpmo sources; uapi/dxgpmo.h.\n");
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
			command_help(ctx->cmd);
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

static int run_command(int argc, char **argv, const char *store)
{
	struct cmd_ctx ctx = { .name = argv[0] };
	char name[64];
	unsigned int i;
	int ret;

	ctx.cmd = find_command(argv[0]);
	if (!ctx.cmd)
		return usage_error(&ctx, "unknown command");
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

/* echo TEXT: the rest of the line, as it is. */
static void batch_echo(const char *text)
{
	print_begin(stdout);
	open_json_object(NULL);
	print_string(PRINT_ANY, "echo", "%s\n", text);
	close_json_object();
	print_end();
}

static int run_batch(FILE *in, const char *source)
{
	char *line = NULL, *argv[MAX_ARGS], *p, *store, *eq;
	size_t cap = 0;
	int argc, ret = 0;
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
		if (!strncmp(p, "echo", 4) && (!p[4] || isspace((unsigned char)p[4]))) {
			batch_echo(p[4] ? p + 5 : "");
			continue;
		}
		may_fail = *p == '-';
		p += may_fail;
		print_begin(stdout);
		print_text("> %s%s\n", p, may_fail ? "   (may fail)" : "");
		print_end();
		store = NULL;
		argc = makeargs(p, argv, MAX_ARGS);
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
		} else if (argc) {
			ret = run_command(argc, argv, store);
		}
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
				printf("%s\n", cmd->name);
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
