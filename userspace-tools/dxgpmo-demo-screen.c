// SPDX-License-Identifier: GPL-2.0
/*
 * The picture at the end of make demo: a physical memory object drawn by
 * the CPU (through a MAP view) and by the edu engine (through an ADL), shown
 * by the cirrus display driver from the object's dma-buf; on it, the dirty
 * bits of a memory basis over a segment range that the CPU and the engine
 * wrote, one cell per page.  The host keeps QEMU's screendump of it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libdxgpmo.h"
#include "dxgpmo_screen.h"

#define PAGE 4096ULL
#define W 640
#define H 480
#define PITCH (W * 4)
#define SIZE ((uint64_t)PITCH * H)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* the engine's band: whole pages (8 lines are 5 pages) */
#define BAND_Y 128
#define BAND_H 40
#define BAND_PAGES (BAND_H * PITCH / PAGE)
/* the dirty grid: 64 pages of the segment, 16 x 4 cells */
#define GRID_PAGES 64
#define GRID_COLS 16
#define GRID_X 32
#define GRID_Y 248
#define CELL 36

#define RGB(r, g, b) ((uint32_t)(r) << 16 | (uint32_t)(g) << 8 | (uint32_t)(b))
#define CPU_COLOR RGB(255, 150, 20)
#define EDU_COLOR RGB(30, 220, 240)
#define BOTH_COLOR RGB(240, 60, 240)
#define INK RGB(255, 255, 255)

/* 5 x 7 glyphs, one byte a row, bit 4 leftmost */
static const struct {
	char c;
	uint8_t rows[7];
} font[] = {
	{ 'A', { 0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11 } },
	{ 'B', { 0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e } },
	{ 'C', { 0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e } },
	{ 'D', { 0x1e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1e } },
	{ 'E', { 0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f } },
	{ 'F', { 0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10 } },
	{ 'G', { 0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f } },
	{ 'H', { 0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11 } },
	{ 'I', { 0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e } },
	{ 'J', { 0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c } },
	{ 'K', { 0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11 } },
	{ 'L', { 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f } },
	{ 'M', { 0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11 } },
	{ 'N', { 0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11 } },
	{ 'O', { 0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e } },
	{ 'P', { 0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10 } },
	{ 'Q', { 0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d } },
	{ 'R', { 0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11 } },
	{ 'S', { 0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e } },
	{ 'T', { 0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04 } },
	{ 'U', { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e } },
	{ 'V', { 0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04 } },
	{ 'W', { 0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a } },
	{ 'X', { 0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11 } },
	{ 'Y', { 0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04 } },
	{ 'Z', { 0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f } },
	{ '0', { 0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e } },
	{ '1', { 0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e } },
	{ '2', { 0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f } },
	{ '3', { 0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e } },
	{ '4', { 0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02 } },
	{ '5', { 0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e } },
	{ '6', { 0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e } },
	{ '7', { 0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 } },
	{ '8', { 0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e } },
	{ '9', { 0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c } },
	{ ':', { 0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00 } },
	{ '-', { 0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00 } },
	{ '.', { 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c } },
	{ ',', { 0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08 } },
	{ '/', { 0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00 } },
	{ '(', { 0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02 } },
	{ ')', { 0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08 } },
	{ '+', { 0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00 } },
};

/* A dot of a glyph: scale by scale pixels, clipped to the screen. */
static void dot(uint32_t *fb, int x, int y, int scale, uint32_t color)
{
	int dx, dy;

	for (dy = 0; dy < scale; dy++)
		for (dx = 0; dx < scale; dx++) {
			int px = x + dx;
			int py = y + dy;

			if (px < W && py < H)
				fb[py * W + px] = color;
		}
}

static void text(uint32_t *fb, int x, int y, int scale, uint32_t color,
		 const char *s)
{
	for (; *s; s++, x += 6 * scale) {
		char c = toupper((unsigned char)*s);
		unsigned int g, r, b;

		for (g = 0; g < ARRAY_SIZE(font); g++)
			if (font[g].c == c)
				break;
		if (g == ARRAY_SIZE(font))
			continue;	/* a space, or what the font lacks */
		for (r = 0; r < 7; r++)
			for (b = 0; b < 5; b++)
				if (font[g].rows[r] & (0x10 >> b))
					dot(fb, x + b * scale, y + r * scale,
					    scale, color);
	}
}

static void rect(uint32_t *fb, int x, int y, int w, int h, uint32_t color)
{
	int i, j;

	for (j = y; j < y + h; j++)
		for (i = x; i < x + w; i++)
			fb[j * W + i] = color;
}

static void frame(uint32_t *fb, int x, int y, int w, int h, uint32_t color)
{
	rect(fb, x, y, w, 1, color);
	rect(fb, x, y + h - 1, w, 1, color);
	rect(fb, x, y, 1, h, color);
	rect(fb, x + w - 1, y, 1, h, color);
}

static int die(const char *what, int err)
{
	fprintf(stderr, "dxgpmo-demo-screen: %s: %s\n", what,
		strerror(err < 0 ? -err : err));
	return 1;
}

static void print_bits(const char *who, const uint8_t *bits)
{
	unsigned int i;

	printf("  dirty after the %s wrote (page 0 first): ", who);
	for (i = 0; i < GRID_PAGES; i++)
		putchar(bits[i / 8] >> (i % 8) & 1 ? '1' : '0');
	putchar('\n');
}

/* Pages each writer touches in the tracked range. */
static int cpu_writes(unsigned int p)
{
	return p < 8 || (p >= 32 && p < 40) || p == 43 || p == 17;
}

static int edu_writes(unsigned int p)
{
	return (p >= 24 && p < 32) || p == 43 || p >= 56 || p == 10;
}

/*
 * Track a basis over the first GRID_PAGES dirty pages of the engine's
 * segment; the CPU writes through mmap(2) of the segment, then the engine
 * through the segment's device addresses.  Returns the bits of each.
 */
static int track(int fd, const struct dxgpmo_adapter_info *a,
		 uint8_t *cpu_bits, uint8_t *edu_bits)
{
	struct dxgpmo_memory_range r = {
		.segment_offset = 0,
		.length = (uint64_t)GRID_PAGES * a->dirty_page_size,
	};
	uint32_t basis;
	uint8_t *seg;
	unsigned int p;
	int ret;

	if (r.length > a->segment_size)
		return -ENOSPC;
	seg = mmap(NULL, r.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   a->segment_mmap_offset);
	if (seg == MAP_FAILED)
		return -errno;
	ret = dxgpmo_create_memory_basis(fd, a->adapter_id, 1, &r, 1, &basis);
	if (ret)
		goto out_unmap;
	ret = dxgpmo_start_dirty_tracking(fd, basis);
	if (ret)
		goto out_basis;
	for (p = 0; p < GRID_PAGES; p++)
		if (cpu_writes(p))
			memcpy(seg + (uint64_t)p * a->dirty_page_size + 100,
			       "cpu", 3);
	ret = dxgpmo_query_dirty_bits(fd, basis, DXGPMO_DIRTY_CLEAR_DATA, 0,
				      0, 0, cpu_bits, GRID_PAGES / 8);
	for (p = 0; p < GRID_PAGES && !ret; p++)
		if (edu_writes(p))
			ret = dxgpmo_adapter_dma(fd, a->adapter_id,
						 DXGPMO_DMA_TO_MEMORY,
						 a->segment_device_address +
						 (uint64_t)p * a->dirty_page_size + 200,
						 "edu", 3);
	if (!ret)
		ret = dxgpmo_query_dirty_bits(fd, basis, 0, 0, 0, 0, edu_bits,
					      GRID_PAGES / 8);
	dxgpmo_stop_dirty_tracking(fd, basis);
out_basis:
	dxgpmo_destroy_memory_basis(fd, basis);
out_unmap:
	munmap(seg, r.length);
	return ret;
}

static void draw_grid(uint32_t *fb, const uint8_t *cpu, const uint8_t *edu)
{
	unsigned int p;

	text(fb, GRID_X, GRID_Y - 40, 2, INK, "dirty bits of a basis over");
	text(fb, GRID_X, GRID_Y - 20, 2, INK,
	     "edu0 segment pages 0-63, one cell a page");
	for (p = 0; p < GRID_PAGES; p++) {
		int x = GRID_X + (p % GRID_COLS) * CELL;
		int y = GRID_Y + (p / GRID_COLS) * CELL;
		int c = cpu[p / 8] >> (p % 8) & 1, e = edu[p / 8] >> (p % 8) & 1;

		rect(fb, x, y, CELL - 4, CELL - 4, RGB(20, 20, 40));
		if (c || e)
			rect(fb, x + 2, y + 2, CELL - 8, CELL - 8,
			     c && e ? BOTH_COLOR : c ? CPU_COLOR : EDU_COLOR);
		frame(fb, x, y, CELL - 4, CELL - 4, RGB(200, 200, 200));
	}
	p = GRID_Y + 4 * CELL + 8;
	rect(fb, GRID_X, p, 14, 14, CPU_COLOR);
	text(fb, GRID_X + 20, p, 2, INK, "cpu (mmap)");
	rect(fb, GRID_X + 180, p, 14, 14, EDU_COLOR);
	text(fb, GRID_X + 200, p, 2, INK, "edu engine (dma)");
	rect(fb, GRID_X + 420, p, 14, 14, BOTH_COLOR);
	text(fb, GRID_X + 440, p, 2, INK, "both");
}

int main(void)
{
	struct dxgpmo_adapter_info a[DXGPMO_MAX_ADAPTERS], *edu = NULL;
	uint8_t cpu_bits[GRID_PAGES / 8], edu_bits[GRID_PAGES / 8];
	uint64_t pages[BAND_PAGES];
	struct dxgpmo_create_pmo c = {
		.type = DXGPMO_PMO_TYPE_MDL,
		.cache_type = DXGPMO_CACHE_WRITE_COMBINED, .length = SIZE,
	};
	struct dxgpmo_allocate_adl adl;
	struct dxgpmo_export_dmabuf e = { .size = sizeof(e) };
	struct dxgpmo_map u;
	struct screen scr;
	uint32_t *band, *fb, n, i;
	char answer[256];
	int fd, host, ret, x, y;

	fd = dxgpmo_open();
	if (fd < 0)
		return die("open /dev/dxgpmo", fd);
	ret = dxgpmo_query_adapters(fd, a, DXGPMO_MAX_ADAPTERS, &n);
	if (ret)
		return die("QUERY_ADAPTERS", ret);
	for (i = 0; i < n && i < DXGPMO_MAX_ADAPTERS && !edu; i++)
		if (a[i].caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE)
			edu = &a[i];
	if (!edu)
		return die("an adapter with a DMA engine", ENODEV);
	ret = screen_open(&scr, "cirrus", W, H);
	if (ret)
		return die("a cirrus display with a 640x480 mode", ret);
	host = host_open();
	if (host < 0)
		return die("the host's screen agent on " SCREEN_HOST_TTY, host);

	c.adapter_id = edu->adapter_id;
	ret = dxgpmo_create_pmo(fd, &c);
	if (ret)
		return die("CREATE_PMO", ret);
	u = (struct dxgpmo_map){ .pmo_id = c.pmo_id,
				 .access_mode = DXGPMO_ACCESS_USER,
				 .length = SIZE };
	ret = dxgpmo_map(fd, &u);
	if (ret)
		return die("MAP", ret);
	printf("a %u KiB write-combined MDL object on %s, mapped at 0x%llx\n",
	       (unsigned int)(SIZE >> 10), edu->name,
	       (unsigned long long)u.address);

	/* Drawn in a private buffer: WC memory is written, never read. */
	fb = calloc(W * H, 4);
	band = malloc(BAND_H * PITCH);
	if (!fb || !band) {
		free(fb);
		free(band);
		return die("memory", ENOMEM);
	}
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			fb[y * W + x] = RGB(x * 160 / (W - 1), y * 110 / (H - 1),
					    90 + x * 120 / (W - 1));
	text(fb, 24, 20, 3, INK, "dxgpmo on cirrus");
	text(fb, 24, 56, 2, INK, "one physical memory object,");
	text(fb, 24, 76, 2, INK, "scanned out by the cirrus drm driver.");
	text(fb, 24, 100, 2, RGB(255, 240, 160),
	     "gradient and text: cpu through map");
	ret = track(fd, edu, cpu_bits, edu_bits);
	if (ret)
		return die("dirty tracking of the segment", ret);
	print_bits("cpu", cpu_bits);
	print_bits("edu engine", edu_bits);
	draw_grid(fb, cpu_bits, edu_bits);
	memcpy((void *)(uintptr_t)(u.address + u.offset), fb, SIZE);
	printf("the CPU drew the gradient, the text and the dirty grid through the view\n");

	/* The band comes from the engine: diagonal stripes and its label. */
	for (y = 0; y < BAND_H; y++)
		for (x = 0; x < W; x++)
			band[y * W + x] = ((x + y) / 12) & 1 ?
					  RGB(30, 200, 120) : RGB(20, 120, 220);
	text(band, 30, 13, 2, RGB(0, 0, 0),
	     "written by the edu engine through an adl");
	adl = (struct dxgpmo_allocate_adl){
		.amo_id = c.amo_id, .offset = BAND_Y * PITCH,
		.length = BAND_H * PITCH, .pages = (uintptr_t)pages,
		.pages_capacity = BAND_PAGES,
	};
	ret = dxgpmo_allocate_adl(fd, &adl);
	if (ret)
		return die("ALLOCATE_ADL", ret);
	for (i = 0; i < BAND_PAGES && !ret; i++)
		ret = dxgpmo_adapter_dma(fd, edu->adapter_id,
					 DXGPMO_DMA_TO_MEMORY, pages[i] * PAGE,
					 (uint8_t *)band + i * PAGE, PAGE);
	if (ret)
		return die("ADAPTER_DMA", ret);
	dxgpmo_free_adl(fd, adl.adl_id);
	printf("the %s engine wrote lines %d-%d through an ADL of %u pages\n",
	       edu->name, BAND_Y, BAND_Y + BAND_H - 1,
	       (unsigned int)BAND_PAGES);

	e.pmo_id = c.pmo_id;
	e.fd_flags = O_RDWR | O_CLOEXEC;
	ret = dxgpmo_ioctl(fd, DXGPMO_IOC_EXPORT_DMABUF, &e);
	if (ret)
		return die("EXPORT_DMABUF", ret);
	ret = screen_show(&scr, e.fd, PITCH);
	if (!ret)
		ret = screen_dirty(&scr, 0, 0, W, H);
	if (ret)
		return die("showing the dma-buf on cirrus", ret);
	printf("%s imported the dma-buf and scans it out at 640x480\n",
	       scr.driver);
	ret = host_ask(host, "save demo-screen", answer, sizeof(answer));
	if (ret || strcmp(answer, "saved demo-screen"))
		return die(ret ? "no answer from the host" : answer, EIO);
	printf("the host saved QEMU's screendump\n");

	screen_close(&scr);
	close(e.fd);
	dxgpmo_unmap(fd, c.pmo_id, u.address, u.length);
	dxgpmo_destroy_pmo(fd, c.pmo_id, c.amo_id);
	close(host);
	close(fd);
	free(fb);
	free(band);
	return 0;
}
