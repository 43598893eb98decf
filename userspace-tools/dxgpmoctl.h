/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dxgpmoctl's files share, and nothing else: the command table's
 * types and the context a command runs in (dxgpmoctl.c, the dispatcher,
 * fills it), the argument parsing and output layer (dxgpmoctl_util.c),
 * and each family's table of commands, which the dispatcher lists.
 */
#ifndef DXGPMOCTL_H
#define DXGPMOCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json_print.h"
#include "libdxgpmo.h"

#define MAX_EXTRA	4
#define MAX_OPTS	12

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))

struct cmd_option {
	const char *name;
	char short_name;	/* 0: a long option only */
	const char *arg;	/* NULL: takes no argument */
	const char *help;
};

struct cmd_ctx;

struct command {
	const char *name;
	const struct cmd_option *opts;
	/* as the synopsis shows them, which also says how many it takes */
	const char *operands;
	unsigned long ioctl;	/* whose errno meanings apply; 0: none */
	bool sysfs_only;	/* needs no /dev/dxgpmo */
	const char *help;
	int (*run)(struct cmd_ctx *ctx);
};

struct cmd_ctx {
	const struct command *cmd;
	const char *name;		/* call name used in error records */
	const char *opt[MAX_OPTS];	/* by index in cmd->opts; "" for flags */
	int argc;			/* operands */
	char **argv;
	const char *bad;		/* the first argument that did not parse */
	uint64_t result;		/* value stored by "name=command" */
	bool has_result;
	/* more values, stored as name_<suffix> */
	struct {
		const char *suffix;
		uint64_t value;
	} extra[MAX_EXTRA];
	unsigned int nr_extra;
};

/* /dev/dxgpmo, opened by need_dev() before a command that uses it runs. */
extern int dev_fd;
/* Where a batch session is (NULL outside one), for its error records. */
extern const char *batch_source;
extern unsigned int batch_line;

void add_extra(struct cmd_ctx *ctx, const char *suffix, uint64_t value);
void set_result(struct cmd_ctx *ctx, uint64_t value);
/* -1 when the table is full or the name too long. */
int set_var(const char *name, uint64_t value);

void error_record(const char *call, int err, const char *fmt, ...)
	__printf(3, 4);
/* These return the exit status: 1 for a failed call, 2 for bad arguments. */
int report(struct cmd_ctx *ctx, int err);
int usage_error(struct cmd_ctx *ctx, const char *fmt, ...) __printf(2, 3);
int bad_argument(struct cmd_ctx *ctx);
int need_dev(struct cmd_ctx *ctx);

/* Each returns 0, or -1 with the argument kept in ctx->bad. */
int parse_u64(struct cmd_ctx *ctx, const char *s, uint64_t *out);
int parse_u32(struct cmd_ctx *ctx, const char *s, uint32_t *out);
int parse_field(struct cmd_ctx *ctx, const char *s, __u64 *field);
int parse_named(struct cmd_ctx *ctx, const char *s, uint32_t *out,
		int (*from_name)(const char *name, uint32_t *value));
int parse_adapter(struct cmd_ctx *ctx, const char *s, uint32_t *id);
const char *opt(const struct cmd_ctx *ctx, const char *name);

int one_id(struct cmd_ctx *ctx, int (*call)(int fd, uint32_t id),
	   const char *key, const char *fmt);
void print_size(const char *key, const char *fmt, uint64_t bytes);
void print_bytes_read(const uint8_t *buf, size_t len);
int check_expect(struct cmd_ctx *ctx, const uint8_t *buf, size_t len);

/*
 * Each family's commands, with their options, synopses and help, in the
 * order a session runs them and up to an empty entry; the dispatcher
 * lists the families.
 */
extern const struct command
	adapter_commands[],	/* dxgpmoctl_adapter.c */
	object_commands[],	/* dxgpmoctl_object.c */
	adl_commands[],		/* dxgpmoctl_adl.c */
	map_commands[],		/* dxgpmoctl_map.c */
	dirty_commands[],	/* dxgpmoctl_dirty.c */
	dmabuf_commands[],	/* dxgpmoctl_dmabuf.c */
	monitor_commands[];	/* dxgpmoctl_monitor.c */

#endif
