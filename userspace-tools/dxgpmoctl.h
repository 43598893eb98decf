/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What dxgpmoctl's files share, and nothing else: the command table's
 * types and the context a command runs in (dxgpmoctl.c, the dispatcher,
 * fills it), the argument parsing and output layer (dxgpmoctl_util.c),
 * and each object's table of verbs, which the dispatcher lists.
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

/* A verb of an object: "create" of "pmo". */
struct command {
	const char *name;	/* NULL: the object takes no verb (monitor) */
	const struct cmd_option *opts;
	/* as the synopsis shows them, which also says how many it takes */
	const char *operands;
	unsigned long ioctl;	/* whose errno meanings apply; 0: none */
	bool sysfs_only;	/* needs no /dev/dxgpmo */
	const char *help;
	int (*run)(struct cmd_ctx *ctx);	/* NULL ends a table */
};

/*
 * What "dxgpmoctl OBJECT VERB" acts on, as ip's link or address.  A flat
 * command of the old grammar that is now an object ("adl AMO LENGTH")
 * says what it became in was, shown when no verb fits.
 */
struct object {
	const char *name;
	const char *help;	/* one line */
	const struct command *verbs;
	const char *default_verb;	/* run by "dxgpmoctl OBJECT" alone */
	const char *was;
};

struct cmd_ctx {
	const struct object *obj;
	const struct command *cmd;
	const char *name;		/* call name used in error records */
	char call[48];			/* "pmo create", name points here */
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
/* -1 when no variable has the len bytes at name for its name. */
int get_var(const char *name, size_t len, uint64_t *value);

void error_record(const char *call, int err, const char *fmt, ...)
	__printf(3, 4);
/* These return the exit status: 1 for a failed call, 2 for bad arguments. */
int report(struct cmd_ctx *ctx, int err);
int usage_error(struct cmd_ctx *ctx, const char *fmt, ...) __printf(2, 3);
int bad_argument(struct cmd_ctx *ctx);
int need_dev(struct cmd_ctx *ctx);
/* The device (DXGPMO_DEVICE or /dev/dxgpmo) opened: an fd or -errno. */
int open_dev(void);
/* What to say when open_dev() fails with err. */
void open_dev_error(const char *call, int err);

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
int adapter_by_id(uint32_t id, struct dxgpmo_adapter_info *out);
void print_size(const char *key, const char *fmt, uint64_t bytes);
void print_bytes_read(const uint8_t *buf, size_t len);
int check_expect(struct cmd_ctx *ctx, const uint8_t *buf, size_t len);

/*
 * Each object's verbs, with their options, synopses and help, in the
 * order a session runs them and up to an entry without run; the
 * dispatcher lists the objects.  A one-letter abbreviation picks the
 * first verb of its letter, so that order is part of the grammar.
 */
extern const struct command
	pmo_verbs[], stats_verbs[],	/* dxgpmoctl_object.c */
	adl_verbs[], dma_verbs[],	/* dxgpmoctl_adl.c */
	view_verbs[],			/* dxgpmoctl_map.c */
	basis_verbs[], segment_verbs[],	/* dxgpmoctl_dirty.c */
	dmabuf_verbs[],			/* dxgpmoctl_dmabuf.c */
	adapter_verbs[],		/* dxgpmoctl_adapter.c */
	monitor_verbs[];		/* dxgpmoctl_monitor.c */

/* The completion script's functions (dxgpmoctl_completion.c). */
extern const char completion_body[];

#endif
