// SPDX-License-Identifier: GPL-2.0
/*
 * dxgpmoctl basis and segment: memory bases, their dirty-bit tracking,
 * and CPU reads and writes of a segment, whose writes the bits show.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dxgpmoctl.h"

static const struct cmd_option query_opts[] = {
	{ "clear", 0, NULL, "clear the bits read, atomically" },
	{ "pages", 0, "N", "N bits (a kernel driver's adapter: its page size is its own)" },
	{ }
};

/*
 * The bases this session made, with their ranges, so that a query reads
 * as many bits as the basis has: the module answers a short buffer with
 * the bytes it needs, not the bits.
 */
struct basis_record {
	uint32_t id, page_size;
	uint32_t nr_ranges;
	uint64_t *lengths;
};

static struct basis_record *bases;
static unsigned int nr_bases, max_bases;

static struct basis_record *find_basis(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < nr_bases; i++)
		if (bases[i].id == id)
			return &bases[i];
	return NULL;
}

static void keep_basis(uint32_t id, uint32_t adapter,
		       const struct dxgpmo_memory_range *r, uint32_t n)
{
	struct dxgpmo_adapter_info info;
	struct basis_record *more;
	uint64_t *lengths;
	uint32_t i;

	if (adapter_by_id(adapter, &info) || !info.dirty_page_size)
		return;
	if (nr_bases == max_bases) {
		more = reallocarray(bases, 2 * max_bases + 8, sizeof(*bases));
		if (!more)
			return;
		bases = more;
		max_bases = 2 * max_bases + 8;
	}
	lengths = calloc(n, sizeof(*lengths));
	if (!lengths)
		return;
	for (i = 0; i < n; i++)
		lengths[i] = r[i].length;
	bases[nr_bases++] = (struct basis_record){ id, info.dirty_page_size,
		n, lengths };
}

/* create ADAPTER OFFSET:LENGTH... */
static int cmd_basis(struct cmd_ctx *ctx)
{
	struct dxgpmo_memory_range r[64];
	uint32_t adapter, id, n = 0;
	int i, ret;

	if (ctx->argc - 1 > (int)ARRAY_SIZE(r))
		return usage_error(ctx, "at most %zu ranges", ARRAY_SIZE(r));
	if (parse_adapter(ctx, ctx->argv[0], &adapter))
		return bad_argument(ctx);
	for (i = 1; i < ctx->argc; i++) {
		char *colon = strchr(ctx->argv[i], ':');
		uint64_t off, len;

		if (!colon)
			return usage_error(ctx, "ranges are OFFSET:LENGTH");
		*colon = 0;
		if (parse_u64(ctx, ctx->argv[i], &off) ||
		    parse_u64(ctx, colon + 1, &len))
			return usage_error(ctx, "ranges are OFFSET:LENGTH");
		r[n].segment_offset = off;
		r[n++].length = len;
	}
	ret = dxgpmo_create_memory_basis(dev_fd, adapter, 1, r, n, &id);
	if (ret)
		return report(ctx, ret);
	keep_basis(id, adapter, r, n);
	set_result(ctx, id);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "basis", "basis %u: ", id);
	print_uint(PRINT_FP, NULL, "%u range(s) of segment 1", n);
	print_uint(PRINT_ANY, "adapter", " of adapter %u\n", adapter);
	open_json_array("ranges");
	for (i = 0; i < (int)n; i++) {
		open_json_object(NULL);
		print_u64(PRINT_JSON, "offset", NULL, r[i].segment_offset);
		print_u64(PRINT_JSON, "length", NULL, r[i].length);
		close_json_object();
	}
	close_json_array();
	close_json_object();
	return 0;
}

static int cmd_destroy_basis(struct cmd_ctx *ctx)
{
	struct basis_record *b;
	uint32_t id;
	int ret;

	ret = one_id(ctx, dxgpmo_destroy_memory_basis, "destroyed_basis",
		     "destroyed basis %u\n");
	if (!ret && !parse_u32(ctx, ctx->argv[0], &id)) {
		b = find_basis(id);
		if (b) {
			free(b->lengths);
			*b = bases[--nr_bases];
		}
	}
	return ret;
}

static int dirty_tracking(struct cmd_ctx *ctx, bool start)
{
	uint32_t id;
	int ret;

	if (parse_u32(ctx, ctx->argv[0], &id))
		return bad_argument(ctx);
	ret = start ? dxgpmo_start_dirty_tracking(dev_fd, id) :
		      dxgpmo_stop_dirty_tracking(dev_fd, id);
	if (ret)
		return report(ctx, ret);
	open_json_object(NULL);
	print_text("%s dirty tracking on ", start ? "started" : "stopped");
	print_uint(PRINT_ANY, "basis", "basis %u\n", id);
	print_bool(PRINT_JSON, "tracking", NULL, start);
	close_json_object();
	return 0;
}

static int cmd_start(struct cmd_ctx *ctx)
{
	return dirty_tracking(ctx, true);
}

static int cmd_stop(struct cmd_ctx *ctx)
{
	return dirty_tracking(ctx, false);
}

/*
 * How many bits a query of the basis reads: the tracking pages of the
 * subrange when length is not 0, else of every range.  0 when unknown.
 */
static uint64_t basis_bits(uint32_t id, uint64_t length)
{
	struct basis_record *b = find_basis(id);
	uint64_t bytes = 0;
	uint32_t i;

	if (!b)
		return 0;
	if (length)
		bytes = length;
	for (i = 0; !length && i < b->nr_ranges; i++)
		bytes += b->lengths[i];
	return (bytes + b->page_size - 1) / b->page_size;
}

/* query [--clear] BASIS [INDEX OFFSET LENGTH] */
static int cmd_query(struct cmd_ctx *ctx)
{
	uint64_t pages = 0, index = 0, off = 0, len = 0, i;
	const char *given = opt(ctx, "pages");
	uint32_t id, flags = 0;
	char **argv = ctx->argv;
	uint8_t *buf;
	char *bits;
	int ret;

	if (opt(ctx, "clear"))
		flags = DXGPMO_DIRTY_CLEAR_DATA;
	if (ctx->argc != 1 && ctx->argc != 4)
		return usage_error(ctx, "a subrange is INDEX OFFSET LENGTH");
	if (parse_u32(ctx, argv[0], &id) ||
	    (given && parse_u64(ctx, given, &pages)) ||
	    (ctx->argc == 4 && (parse_u64(ctx, argv[1], &index) ||
				parse_u64(ctx, argv[2], &off) ||
				parse_u64(ctx, argv[3], &len))))
		return bad_argument(ctx);
	if (!given)
		pages = basis_bits(id, len);
	if (!pages && !given) {
		/* no such basis, or one whose page size is its driver's */
		ret = dxgpmo_query_dirty_bits(dev_fd, id, flags, index, off,
					      len, NULL, 0);
		if (ret && ret != -ENOSPC)
			return report(ctx, ret);
		return usage_error(ctx, "basis %u: the tracking page size of a kernel driver's adapter is its own: give --pages",
				   id);
	}
	if (!pages || pages > (1 << 24))
		return usage_error(ctx, "--pages must be 1..16M");
	buf = calloc(1, (pages + 7) / 8);
	bits = calloc(1, pages + 1);
	if (!buf || !bits) {
		free(buf);
		free(bits);
		return report(ctx, -ENOMEM);
	}
	ret = dxgpmo_query_dirty_bits(dev_fd, id, flags, index, off, len, buf,
				      (pages + 7) / 8);
	if (ret) {
		free(buf);
		free(bits);
		return report(ctx, ret);
	}
	for (i = 0; i < pages; i++)
		bits[i] = buf[i / 8] >> (i % 8) & 1 ? '1' : '0';
	open_json_object(NULL);
	print_uint(PRINT_ANY, "basis", "dirty bits of basis %u", id);
	print_bool(PRINT_JSON, "cleared", NULL, flags);
	if (flags)
		print_text(", cleared");
	print_u64(PRINT_JSON, "pages", NULL, pages);
	print_string(PRINT_ANY, "bits", " (page 0 first): %s\n", bits);
	close_json_object();
	free(buf);
	free(bits);
	return 0;
}

/*
 * write ADAPTER OFFSET TEXT | read [--expect TEXT] ADAPTER OFFSET LENGTH:
 * the CPU's access through mmap(2) of the segment.
 */
static int segment_access(struct cmd_ctx *ctx, bool write)
{
	struct dxgpmo_adapter_info info;
	uint64_t off, len;
	uint32_t adapter;
	uint8_t *seg, *buf;
	int ret;

	if (parse_adapter(ctx, ctx->argv[0], &adapter) ||
	    parse_u64(ctx, ctx->argv[1], &off))
		return bad_argument(ctx);
	if (write)
		len = strlen(ctx->argv[2]);
	else if (parse_u64(ctx, ctx->argv[2], &len) || !len || len > (1 << 20))
		return usage_error(ctx, "LENGTH must be 1..1M");
	ret = adapter_by_id(adapter, &info);
	if (ret)
		return report(ctx, ret);
	if (off + len > info.segment_size || off + len < off) {
		error_record(ctx->name, -EINVAL,
			     "%" PRIu64 " byte(s) at 0x%" PRIx64
			     " do not fit in the %llu-byte segment",
			     len, off, info.segment_size);
		return 1;
	}
	buf = write ? (uint8_t *)ctx->argv[2] : malloc(len);
	if (!buf)
		return report(ctx, -ENOMEM);
	seg = mmap(NULL, info.segment_size, PROT_READ | (write ? PROT_WRITE : 0),
		   MAP_SHARED, dev_fd, info.segment_mmap_offset);
	if (seg == MAP_FAILED) {
		ret = report(ctx, -errno);
		if (!write)
			free(buf);
		return ret;
	}
	if (write)
		memcpy(seg + off, buf, len);
	else
		memcpy(buf, seg + off, len);
	munmap(seg, info.segment_size);
	open_json_object(NULL);
	print_bool(PRINT_JSON, "write", NULL, write);
	print_u64(PRINT_ANY, "length", write ? "CPU wrote %" PRIu64 " byte(s)" :
		  "CPU read %" PRIu64 " byte(s)", len);
	print_u64(PRINT_ANY, "offset", " at segment offset 0x%" PRIx64, off);
	print_uint(PRINT_ANY, "adapter", write ? " of adapter %u\n" :
		   " of adapter %u:\n", adapter);
	if (!write)
		print_bytes_read(buf, len);
	close_json_object();
	if (write)
		return 0;
	ret = check_expect(ctx, buf, len);
	free(buf);
	return ret;
}

static int cmd_segment_write(struct cmd_ctx *ctx)
{
	return segment_access(ctx, true);
}

static int cmd_segment_read(struct cmd_ctx *ctx)
{
	return segment_access(ctx, false);
}

const struct command basis_verbs[] = {
	{ "create", NULL, "ADAPTER OFFSET:LENGTH...",
	  DXGPMO_IOC_CREATE_MEMORY_BASIS, false,
	  "Create a memory basis on segment 1 (DxgkDdiCreateMemoryBasis).\n"
	  "Result: the basis id.", cmd_basis },
	{ "start", NULL, "BASIS", DXGPMO_IOC_START_DIRTY_TRACKING, false,
	  "DxgkDdiStartDirtyTracking.", cmd_start },
	{ "query", query_opts, "BASIS [INDEX OFFSET LENGTH]",
	  DXGPMO_IOC_QUERY_DIRTY_BITS, false,
	  "DxgkDdiQueryDirtyBitData: print the dirty bit of each tracking page of\n"
	  "the basis (or of the subrange: range INDEX, LENGTH bytes from OFFSET),\n"
	  "page 0 first, as many as its ranges have pages.", cmd_query },
	{ "stop", NULL, "BASIS", DXGPMO_IOC_STOP_DIRTY_TRACKING, false,
	  "DxgkDdiStopDirtyTracking.", cmd_stop },
	{ "destroy", NULL, "BASIS", DXGPMO_IOC_DESTROY_MEMORY_BASIS,
	  false, "Destroy a memory basis (DxgkDdiDestroyMemoryBasis).",
	  cmd_destroy_basis },
	{ }
};

static const struct cmd_option segment_read_opts[] = {
	{ "expect", 0, "TEXT", "fail unless the bytes read are TEXT" },
	{ }
};

const struct command segment_verbs[] = {
	{ "write", NULL, "ADAPTER OFFSET TEXT", 0, false,
	  "Write TEXT into the adapter's segment through a CPU mapping (the\n"
	  "writes dirty-bit tracking sees).", cmd_segment_write },
	{ "read", segment_read_opts, "ADAPTER OFFSET LENGTH", 0, false,
	  "Read LENGTH bytes of the adapter's segment through a CPU mapping.",
	  cmd_segment_read },
	{ }
};
