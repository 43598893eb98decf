// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl dmabuf: dma-bufs of objects, kept for the session or handed
 * to a command.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dxgpmoctl.h"

#define MAX_DMABUFS	64

static const struct cmd_option export_opts[] = {
	{ "read-only", 'r', NULL, "a read-only dma-buf (default: read-write)" },
	{ "fd", 0, "N", "the COMMAND's fd number for it (default 3)" },
	{ }
};

/* dma-bufs this session exported and keeps open. */
static int dmabufs[MAX_DMABUFS];
static unsigned int nr_dmabufs;

/* The dma-buf as fd `target` of a child running argv; its exit status. */
static int run_with_dmabuf(struct cmd_ctx *ctx, int dmabuf, int target,
			   char **argv)
{
	char number[16];
	int status, ret;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(dmabuf);
		return ret;
	}
	if (!pid) {
		/* dup2() onto itself would leave close-on-exec set */
		if (dmabuf == target)
			ret = fcntl(target, F_SETFD, 0);
		else
			ret = dup2(dmabuf, target);
		if (ret < 0)
			_exit(127);
		snprintf(number, sizeof(number), "%d", target);
		setenv("DXGPMO_DMABUF_FD", number, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", ctx->name, argv[0],
			strerror(errno));
		_exit(127);
	}
	close(dmabuf);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

/* export [--read-only] [--fd N] PMO [-- COMMAND [ARG...]] */
static int cmd_export(struct cmd_ctx *ctx)
{
	bool read_only = opt(ctx, "read-only");
	const char *fd_arg = opt(ctx, "fd");
	uint32_t pmo, target = 3;
	int ret, dmabuf, status = 0;

	if (parse_u32(ctx, ctx->argv[0], &pmo) ||
	    (fd_arg && parse_u32(ctx, fd_arg, &target)) || target > 1023)
		return bad_argument(ctx);
	if (ctx->argc == 1 && fd_arg)
		return usage_error(ctx, "--fd places the dma-buf for a COMMAND");
	if (ctx->argc == 1 && nr_dmabufs == MAX_DMABUFS)
		return usage_error(ctx, "this session keeps %d dma-bufs already",
				   MAX_DMABUFS);
	ret = dxgpmo_export_dmabuf(dev_fd, pmo, O_CLOEXEC |
				   (read_only ? O_RDONLY : O_RDWR), &dmabuf);
	if (ret)
		return report(ctx, ret);
	if (ctx->argc == 1) {
		dmabufs[nr_dmabufs++] = dmabuf;
		set_result(ctx, dmabuf);
	} else {
		status = run_with_dmabuf(ctx, dmabuf, target, ctx->argv + 1);
		if (status < 0)
			return report(ctx, status);
	}
	open_json_object(NULL);
	print_uint(PRINT_ANY, "pmo", "pmo %u: ", pmo);
	print_string(PRINT_ANY, "access", "%s dma-buf",
		     read_only ? "read-only" : "read-write");
	if (ctx->argc == 1) {
		print_int(PRINT_ANY, "fd", " kept as fd %d\n", dmabuf);
		close_json_object();
		return 0;
	}
	print_int(PRINT_ANY, "fd", " as fd %d", target);
	print_string(PRINT_ANY, "command", " of '%s'", ctx->argv[1]);
	print_int(PRINT_ANY, "status", ", exit status %d\n", status);
	close_json_object();
	return status ? 1 : 0;
}

static int cmd_close_dmabuf(struct cmd_ctx *ctx)
{
	unsigned int i;
	uint32_t fd;

	if (parse_u32(ctx, ctx->argv[0], &fd))
		return bad_argument(ctx);
	for (i = 0; i < nr_dmabufs && dmabufs[i] != (int)fd; i++)
		;
	if (i == nr_dmabufs)
		return usage_error(ctx, "fd %u is no dma-buf this session exported",
				   fd);
	close(fd);
	dmabufs[i] = dmabufs[--nr_dmabufs];
	open_json_object(NULL);
	print_uint(PRINT_ANY, "closed_fd", "closed dma-buf fd %u\n", fd);
	close_json_object();
	return 0;
}

const struct command dmabuf_verbs[] = {
	{ "export", export_opts, "PMO [-- COMMAND [ARG...]]",
	  DXGPMO_IOC_EXPORT_DMABUF, false,
	  "Export a PMO as a dma-buf.  With COMMAND: run it with the dma-buf as\n"
	  "its fd 3 (or --fd N; DXGPMO_DMABUF_FD says which), close it here, and\n"
	  "fail when COMMAND does.  Without: keep it open for the rest of the\n"
	  "session (the pages live as long as it does).  Result: the fd.",
	  cmd_export },
	{ "close", NULL, "FD", 0, false,
	  "Close a dma-buf that export kept.", cmd_close_dmabuf },
	{ }
};
