// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for scan-out: a display driver with no dxgpmo code in it
 * (cirrus, QEMU's cirrus-vga) imports a physical memory object's dma-buf and
 * puts it on the screen.  The picture is written by the CPU through a MAP
 * view and, for a band of rows, by the edu engine through an ADL.  What the
 * display shows is judged by the host, not by the guest: QEMU's own
 * screendump, compared pixel for pixel with the picture's definition by
 * scripts/screen-agent.py (reached over ttyS1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"
#include "dxgpmo_screen.h"

#define W 640
#define H 480
#define PITCH (W * 4)
#define SIZE ((PITCH * H + PAGE - 1) / PAGE * PAGE)
/*
 * The edu band: starts and ends on page boundaries (8 rows are 5 pages).
 * Each page takes the engine ~0.4 s (two 2 KiB chunks, each two ~100 ms
 * transfers), whatever the host: 8 rows, 5 pages that each hold other
 * pixels, show a misplaced or missing page as well as 40 rows did in 25.
 */
#define SY 200
#define SH 8
#define BAND_PAGES (SH * PITCH / PAGE)
/* What the CPU redraws after the picture is on the screen. */
#define RX 333
#define RY 77
#define RW 101
#define RH 59

/*
 * The picture; scripts/screen-agent.py has its own copy of this definition
 * and checks the screen against it.
 */
static uint32_t xrgb(unsigned int r, unsigned int g, unsigned int b)
{
	return (r & 255) << 16 | (g & 255) << 8 | (b & 255);
}

static uint32_t base_px(unsigned int x, unsigned int y, unsigned int seed)
{
	return xrgb(x * 255 / (W - 1), y * 255 / (H - 1),
		    ((x >> 4) ^ (y >> 4)) & 1 ? 255 - seed : seed);
}

static uint32_t band_px(unsigned int x, unsigned int y, unsigned int seed)
{
	return xrgb(x + seed, (y - SY) * 6, 255 - (x & 255));
}

static uint32_t rect_px(unsigned int x, unsigned int y)
{
	return xrgb(255, (x - RX) * 4, (y - RY) * 4);
}

/* Ask the host to compare the screen with the picture at a stage. */
static int host_check(int host, const char *name, unsigned int seed,
		      unsigned int stage, char *answer, size_t len)
{
	char req[256];

	snprintf(req, sizeof(req),
		 "check %s scanout %d %d %d %d %d %d %d %d %u %u", name, W, H,
		 SY, SH, RX, RY, RW, RH, seed, stage);
	if (host_ask(host, req, answer, len))
		snprintf(answer, len, "no answer from the host");
	return strncmp(answer, "pass ", 5) ? -1 : 0;
}

FIXTURE(scanout) {
	int fd;
	int host;
	struct screen scr;
	uint32_t edu;
};

FIXTURE_VARIANT(scanout) {
	uint32_t type;
	uint32_t cache;
	unsigned int seed;
	const char *tag;	/* names the host's screendumps */
};

PMO_VARIANT_ADD(scanout, mdl_wc, MDL, WRITE_COMBINED,
		.seed = 0x21, .tag = "mdl_wc");
PMO_VARIANT_ADD(scanout, mdl_cached, MDL, CACHED,
		.seed = 0x52, .tag = "mdl_cached");
PMO_VARIANT_ADD(scanout, section_cached, SECTION, CACHED,
		.seed = 0x94, .tag = "section_cached");

FIXTURE_SETUP(scanout)
{
	struct adapters ad;
	int ret;

	self->host = -1;
	self->scr.fd = -1;
	self->fd = dxgpmo_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, load_adapters(self->fd, &ad));
	self->edu = ad.edu ? ad.edu->adapter_id : 0;
	ret = screen_open(&self->scr, "cirrus", W, H);
	if (ret == -ENOENT)
		SKIP(return, "the cirrus display offers no %dx%d mode", W, H);
	if (ret)
		SKIP(return, "no cirrus DRM device (QEMU -device cirrus-vga and the cirrus driver, CONFIG_DRM_CIRRUS_QEMU)");
	self->host = host_open();
	if (self->host < 0)
		SKIP(return, "no host screen agent answers on " SCREEN_HOST_TTY " (scripts/vm-boot-screen.sh)");
	if (!self->edu)
		SKIP(return, "needs an edu adapter (its engine draws a band)");
}

FIXTURE_TEARDOWN(scanout)
{
	screen_close(&self->scr);
	if (self->host >= 0)
		close(self->host);
	teardown_dxgpmo(self->fd);
}

/*
 * The picture on the screen is the object's: every pixel, the CPU's and
 * the engine's.  The screen is the display's own memory (cirrus copies on
 * a mode set and on DirtyFB): a later CPU write through the view reaches it
 * with a DirtyFB of the rectangle, and not before.
 */
TEST_F_TIMEOUT(scanout, pmo_on_screen, 300)
{
	struct dxgpmo_create_pmo c = {
		.type = variant->type, .cache_type = variant->cache,
		.length = SIZE, .adapter_id = self->edu,
		.page_protection = rw_protection(variant->type),
	};
	struct dxgpmo_allocate_adl adl;
	uint64_t pages[BAND_PAGES];
	struct dxgpmo_map u;
	char name[64], answer[512];
	unsigned int x, y, i;
	volatile uint32_t *px;
	uint32_t *band;
	int dfd;

	ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c));
	u = (struct dxgpmo_map){
		.pmo_id = c.pmo_id, .access_mode = DXGPMO_ACCESS_USER,
		.length = SIZE,
	};
	ASSERT_EQ(0, dxgpmo_map(self->fd, &u));
	px = (volatile uint32_t *)(uintptr_t)(u.address + u.offset);
	/* The CPU draws everything but the band, which stays zero for now. */
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			if (y < SY || y >= SY + SH)
				px[y * W + x] = base_px(x, y, variant->seed);

	/*
	 * The engine writes the band through its ADL, a logical page at a
	 * time (the ADL need not be one run).
	 */
	ASSERT_EQ(0, (SY * PITCH) % PAGE);
	ASSERT_EQ(0, (SH * PITCH) % PAGE);
	adl = (struct dxgpmo_allocate_adl){
		.amo_id = c.amo_id, .offset = SY * PITCH, .length = SH * PITCH,
		.pages = (uintptr_t)pages, .pages_capacity = BAND_PAGES,
	};
	ASSERT_EQ(0, dxgpmo_allocate_adl(self->fd, &adl));
	band = malloc(SH * PITCH);
	ASSERT_NE(NULL, band);
	for (y = SY; y < SY + SH; y++)
		for (x = 0; x < W; x++)
			band[(y - SY) * W + x] = band_px(x, y, variant->seed);
	for (i = 0; i < BAND_PAGES; i++)
		ASSERT_EQ(0, dxgpmo_adapter_dma(self->fd, self->edu,
						DXGPMO_DMA_TO_MEMORY,
						pages[i] * PAGE,
						(uint8_t *)band + i * PAGE,
						PAGE));
	free(band);
	ASSERT_EQ(0, dxgpmo_free_adl(self->fd, adl.adl_id));

	ASSERT_EQ(0, export_rw(self->fd, c.pmo_id, &dfd));
	ASSERT_EQ(0, screen_show(&self->scr, dfd, PITCH)) {
		TH_LOG("%s: import and mode set: %s", self->scr.driver,
		       strerror(errno));
	}
	/* Some versions copy on the mode set only when told. */
	ASSERT_EQ(0, screen_dirty(&self->scr, 0, 0, W, H));
	snprintf(name, sizeof(name), "%s-drawn", variant->tag);
	EXPECT_EQ(0, host_check(self->host, name, variant->seed, 1, answer,
				sizeof(answer))) {
		TH_LOG("host: %s", answer);
	}

	for (y = RY; y < RY + RH; y++)
		for (x = RX; x < RX + RW; x++)
			px[y * W + x] = rect_px(x, y);
	snprintf(name, sizeof(name), "%s-before-dirtyfb", variant->tag);
	EXPECT_EQ(0, host_check(self->host, name, variant->seed, 1, answer,
				sizeof(answer))) {
		TH_LOG("host: %s", answer);
	}
	ASSERT_EQ(0, screen_dirty(&self->scr, RX, RY, RW, RH));
	snprintf(name, sizeof(name), "%s-after-dirtyfb", variant->tag);
	EXPECT_EQ(0, host_check(self->host, name, variant->seed, 2, answer,
				sizeof(answer))) {
		TH_LOG("host: %s", answer);
	}

	screen_close(&self->scr);
	EXPECT_EQ(0, close(dfd));
	EXPECT_EQ(0, dxgpmo_unmap(self->fd, c.pmo_id, u.address, u.length));
	EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c.pmo_id, c.amo_id));
}

TEST_HARNESS_MAIN
