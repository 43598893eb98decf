// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl's argument parsing and output layer, shared by every command
 * family: numbers and $variables, adapters by id or name, the error record
 * every failure prints, and the printing of sizes and bytes read.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dxgpmoctl.h"

#define MAX_VARS	128

int dev_fd = -1;

/* Where a batch session is, for its error records. */
const char *batch_source;
unsigned int batch_line;

struct var {
	char name[32];
	uint64_t value;
};

static struct var vars[MAX_VARS];
static unsigned int nr_vars;

void add_extra(struct cmd_ctx *ctx, const char *suffix, uint64_t value)
{
	if (ctx->nr_extra < MAX_EXTRA) {
		ctx->extra[ctx->nr_extra].suffix = suffix;
		ctx->extra[ctx->nr_extra++].value = value;
	}
}

void set_result(struct cmd_ctx *ctx, uint64_t value)
{
	ctx->result = value;
	ctx->has_result = true;
}

int set_var(const char *name, uint64_t value)
{
	unsigned int i;

	for (i = 0; i < nr_vars; i++) {
		if (!strcmp(vars[i].name, name)) {
			vars[i].value = value;
			return 0;
		}
	}
	if (nr_vars == MAX_VARS || strlen(name) >= sizeof(vars[0].name))
		return -1;
	snprintf(vars[nr_vars].name, sizeof(vars[0].name), "%s", name);
	vars[nr_vars++].value = value;
	return 0;
}

int get_var(const char *name, size_t len, uint64_t *value)
{
	unsigned int i;

	for (i = 0; i < nr_vars; i++) {
		if (strlen(vars[i].name) == len &&
		    !strncmp(vars[i].name, name, len)) {
			*value = vars[i].value;
			return 0;
		}
	}
	return -1;
}

/*
 * An error record, the one path for every failure: "call: ENAME — what it
 * means" on stderr, or with --json one object on stderr, as iproute2
 * keeps its errors on stderr.  err is a negative errno; fmt NULL gives the
 * errno's meaning for the command's ioctl.
 */
void error_record(const char *call, int err, const char *fmt, ...)
{
	char msg[512];
	const char *name = strerrorname_np(-err);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	print_begin(stderr);
	open_json_object(NULL);
	print_string(PRINT_ANY, "call", "%s: ", call);
	print_string(PRINT_ANY, "error", "%s — ", name ? name : "E?");
	print_int(PRINT_JSON, "errno", NULL, -err);
	print_string(PRINT_ANY, "message", "%s\n", msg);
	if (batch_source) {
		print_string(PRINT_JSON, "batch", NULL, batch_source);
		print_uint(PRINT_JSON, "line", NULL, batch_line);
	}
	close_json_object();
	print_end();
}

/* A failed call: exit status 1. */
int report(struct cmd_ctx *ctx, int err)
{
	error_record(ctx->name, err, "%s",
		     dxgpmo_error_meaning(ctx->cmd ? ctx->cmd->ioctl : 0, -err));
	return 1;
}

/* Arguments the command cannot take: exit status 2. */
int usage_error(struct cmd_ctx *ctx, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->cmd)
		error_record(ctx->name, -EINVAL, "%s (see 'dxgpmoctl %s --help')",
			     msg, ctx->name);
	else
		error_record(ctx->name, -EINVAL, "%s (see 'dxgpmoctl --help')",
			     msg);
	return 2;
}

int bad_argument(struct cmd_ctx *ctx)
{
	if (ctx->bad)
		return usage_error(ctx, "bad argument '%s'", ctx->bad);
	return usage_error(ctx, "bad arguments");
}

/*
 * DXGPMO_DEVICE names another node, as a test that wants the answer to a
 * missing module does.
 */
static const char *dev_path(void)
{
	const char *path = getenv("DXGPMO_DEVICE");

	return path && *path ? path : DXGPMO_DEV_PATH;
}

int open_dev(void)
{
	int fd = open(dev_path(), O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/*
 * No node is the module not loaded, said as monitor says it of tracefs
 * and as libdxgk's examples say it of STATUS_NO_SUCH_DEVICE.
 */
void open_dev_error(const char *call, int err)
{
	if (err == -ENOENT || err == -ENXIO || err == -ENODEV)
		error_record(call, err,
			     "no %s: is the module loaded? (modprobe dxgpmo)",
			     dev_path());
	else
		error_record(call, err, "cannot open %s: %s", dev_path(),
			     strerror(-err));
}

int need_dev(struct cmd_ctx *ctx)
{
	if (dev_fd >= 0)
		return 0;
	dev_fd = open_dev();
	if (dev_fd < 0) {
		open_dev_error(ctx->name, dev_fd);
		return -1;
	}
	return 0;
}

/*
 * One term: a number with a K/M/G suffix ($variables were replaced by
 * their values when the batch line was read).
 */
static int parse_term(const char *s, size_t len, uint64_t *out)
{
	unsigned long long v;
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || !isdigit((unsigned char)s[0]))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		v <<= 10;
		end++;
		break;
	case 'M':
		v <<= 20;
		end++;
		break;
	case 'G':
		v <<= 30;
		end++;
		break;
	}
	if (*end == 'i' || *end == 'B')
		end++;
	if (*end == 'B')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

/* A sum of terms: "64K", "0x1000+100". */
int parse_u64(struct cmd_ctx *ctx, const char *s, uint64_t *out)
{
	uint64_t sum = 0, term;
	const char *p = s;
	size_t len;

	for (;;) {
		len = strcspn(p, "+");
		if (parse_term(p, len, &term) || sum + term < sum)
			break;
		sum += term;
		if (!p[len]) {
			*out = sum;
			return 0;
		}
		p += len + 1;
	}
	if (!ctx->bad)
		ctx->bad = s;
	return -1;
}

int parse_u32(struct cmd_ctx *ctx, const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(ctx, s, &v))
		return -1;
	if (v > UINT32_MAX) {
		if (!ctx->bad)
			ctx->bad = s;
		return -1;
	}
	*out = v;
	return 0;
}

/* uapi fields are __u64 (unsigned long long), not uint64_t (unsigned long). */
int parse_field(struct cmd_ctx *ctx, const char *s, __u64 *field)
{
	uint64_t v;

	if (parse_u64(ctx, s, &v))
		return -1;
	*field = v;
	return 0;
}

/* Either a name from a table or a number. */
int parse_named(struct cmd_ctx *ctx, const char *s, uint32_t *out,
		int (*from_name)(const char *name, uint32_t *value))
{
	if (!from_name(s, out))
		return 0;
	return parse_u32(ctx, s, out);
}

/* An adapter by id or by name ("edu0", "virtual0"). */
int parse_adapter(struct cmd_ctx *ctx, const char *s, uint32_t *id)
{
	struct dxgpmo_adapter_info info[DXGPMO_MAX_ADAPTERS];
	uint32_t total, i;
	const char *bad = ctx->bad;

	if (!parse_u32(ctx, s, id))
		return 0;
	ctx->bad = bad;
	if (!dxgpmo_query_adapters(dev_fd, info, DXGPMO_MAX_ADAPTERS, &total)) {
		for (i = 0; i < total && i < DXGPMO_MAX_ADAPTERS; i++) {
			if (!strcmp(info[i].name, s)) {
				*id = info[i].adapter_id;
				return 0;
			}
		}
	}
	if (!ctx->bad)
		ctx->bad = s;
	return -1;
}

/* The argument of an option of the command's table, NULL when not given. */
const char *opt(const struct cmd_ctx *ctx, const char *name)
{
	unsigned int i;

	for (i = 0; ctx->cmd->opts && ctx->cmd->opts[i].name; i++)
		if (!strcmp(ctx->cmd->opts[i].name, name))
			return ctx->opt[i];
	fprintf(stderr, "dxgpmoctl: %s has no option --%s\n", ctx->name, name);
	abort();
}

/* A command on one id whose output is one "verb"/"verb KIND ID" pair. */
int one_id(struct cmd_ctx *ctx, int (*call)(int fd, uint32_t id),
	   const char *key, const char *fmt)
{
	uint32_t id;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &id))
		return bad_argument(ctx);
	ret = call(dev_fd, id);
	if (ret)
		return report(ctx, ret);
	open_json_object(NULL);
	print_uint(PRINT_ANY, key, fmt, id);
	close_json_object();
	return 0;
}

/* A size in bytes: a number in JSON, "64 KiB" in the text. */
void print_size(const char *key, const char *fmt, uint64_t bytes)
{
	char text[32];

	if (bytes >= (1 << 20) && !(bytes % (1 << 20)))
		snprintf(text, sizeof(text), "%" PRIu64 " MiB", bytes >> 20);
	else if (bytes >= 1024 && !(bytes % 1024))
		snprintf(text, sizeof(text), "%" PRIu64 " KiB", bytes >> 10);
	else
		snprintf(text, sizeof(text), "%" PRIu64 " B", bytes);
	print_u64(PRINT_JSON, key, NULL, bytes);
	print_string(PRINT_FP, NULL, fmt, text);
}

/* Bytes read: hex in JSON; a hex dump and the printable text otherwise. */
void print_bytes_read(const uint8_t *buf, size_t len)
{
	size_t i;

	print_hex_bytes("bytes", buf, len);
	for (i = 0; i < len; i++)
		print_text("%02x%s", buf[i],
			   (i % 16 == 15 || i + 1 == len) ? "\n" : " ");
	print_text("  \"");
	for (i = 0; i < len; i++)
		print_text("%c", buf[i] >= 32 && buf[i] < 127 ? buf[i] : '.');
	print_text("\"\n");
}

/* --expect TEXT: the bytes read must be TEXT (checked after printing them). */
int check_expect(struct cmd_ctx *ctx, const uint8_t *buf, size_t len)
{
	const char *want = opt(ctx, "expect");

	print_end();
	if (!want || (strlen(want) == len && !memcmp(buf, want, len)))
		return 0;
	error_record(ctx->name, -EBADMSG, "read %zu byte(s) that are not '%s'",
		     len, want);
	return 1;
}
