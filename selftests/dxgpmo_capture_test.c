// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests for capture: the V4L2 test driver vivid, with no dxgpmo code
 * in it, captures frames into physical memory objects imported as dma-bufs
 * (V4L2_MEMORY_DMABUF).  Each frame, read back through a MAP view of the
 * object, must equal the same frame captured into vivid's own buffers
 * (V4L2_MEMORY_MMAP).  vivid's picture is made the same every time: no
 * movement, no on-screen text (its clock and frame counter), the test
 * pattern, border and square fixed by controls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "dxgpmo_test_utils.h"

#define W 640
#define H 360
/* vivid starts streaming only with two buffers queued */
#define NBUF 2
#define FILL 0xa5

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret && errno == EINTR);
	return ret ? -errno : 0;
}

/*
 * The video capture node (single-planar API) of vivid instance inst, or
 * -1.  scripts/guest/check-job.sh loads vivid with two instances: 0 keeps
 * frames in vmalloc buffers, 1 in dma-contig buffers.
 */
static int open_vivid(unsigned int inst)
{
	char path[32], bus[32];
	int i;

	snprintf(bus, sizeof(bus), "platform:vivid-%03u", inst);
	for (i = 0; i < 64; i++) {
		struct v4l2_capability cap = { 0 };
		int fd;

		snprintf(path, sizeof(path), "/dev/video%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!xioctl(fd, VIDIOC_QUERYCAP, &cap) &&
		    !strcmp((char *)cap.driver, "vivid") &&
		    !strcmp((char *)cap.bus_info, bus) &&
		    (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE) &&
		    (cap.device_caps & V4L2_CAP_STREAMING))
			return fd;
		close(fd);
	}
	return -1;
}

/* The id of the control with that name, 0 if none. */
static uint32_t ctrl_id(int fd, const char *name)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };

	while (!xioctl(fd, VIDIOC_QUERYCTRL, &q)) {
		if (!strcmp((char *)q.name, name))
			return q.id;
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	return 0;
}

/* Set a menu control to the item with that name. */
static int set_menu(int fd, const char *ctrl, const char *item)
{
	struct v4l2_querymenu m = { .id = ctrl_id(fd, ctrl) };
	struct v4l2_control c = { .id = m.id };
	struct v4l2_queryctrl q = { .id = m.id };

	if (!m.id || xioctl(fd, VIDIOC_QUERYCTRL, &q))
		return -ENOENT;
	for (m.index = q.minimum; m.index <= (uint32_t)q.maximum; m.index++) {
		if (xioctl(fd, VIDIOC_QUERYMENU, &m) ||
		    strcmp((char *)m.name, item))
			continue;
		c.value = m.index;
		return xioctl(fd, VIDIOC_S_CTRL, &c);
	}
	return -ENOENT;
}

static int set_ctrl(int fd, const char *ctrl, int value)
{
	struct v4l2_control c = { .id = ctrl_id(fd, ctrl), .value = value };

	return c.id ? xioctl(fd, VIDIOC_S_CTRL, &c) : -ENOENT;
}

/*
 * A picture that is the same in every frame and differs from line to
 * line and from column to column, so a frame in the wrong place or a stale
 * one shows.  What sets the picture also names where it fails.
 */
static int freeze_picture(int fd, const char **what)
{
	int ret;

	*what = "OSD Text Mode = None (no clock or frame counter)";
	ret = set_menu(fd, "OSD Text Mode", "None");
	if (ret)
		return ret;
	*what = "Horizontal/Vertical Movement = No Movement";
	ret = set_menu(fd, "Horizontal Movement", "No Movement");
	if (!ret)
		ret = set_menu(fd, "Vertical Movement", "No Movement");
	if (ret)
		return ret;
	*what = "Test Pattern = 100% Color Squares";
	ret = set_menu(fd, "Test Pattern", "100% Color Squares");
	if (ret)
		return ret;
	*what = "Show Border, Show Square";
	ret = set_ctrl(fd, "Show Border", 1);
	if (!ret)
		ret = set_ctrl(fd, "Show Square", 1);
	return ret;
}

/* Next filled buffer's index, within 20 s (TCG is slow). */
static int dqbuf(int fd, uint32_t memory, struct v4l2_buffer *b)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ret;

	ret = poll(&p, 1, 20000);
	if (ret <= 0)
		return ret ? -errno : -ETIMEDOUT;
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = memory;
	ret = xioctl(fd, VIDIOC_DQBUF, b);
	if (!ret && (b->flags & V4L2_BUF_FLAG_ERROR))
		return -EIO;
	return ret;
}

static int stream(int fd, int on)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	return xioctl(fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type);
}

static int reqbufs(int fd, uint32_t memory, uint32_t count)
{
	struct v4l2_requestbuffers r = {
		.count = count, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = memory,
	};
	int ret = xioctl(fd, VIDIOC_REQBUFS, &r);

	return ret ? ret : (r.count == count || !count ? 0 : -ENOBUFS);
}

/* Queue dma-buf dfd, of size bytes, as buffer index. */
static int qbuf_dmabuf(int fd, uint32_t index, int dfd, size_t size)
{
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_DMABUF, .index = index,
		.m.fd = dfd, .length = size,
	};

	return xioctl(fd, VIDIOC_QBUF, &b);
}

/* W x H progressive YUYV frames; *f says what vivid made of them. */
static int set_format(int fd, struct v4l2_format *f)
{
	*f = (struct v4l2_format){ .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	f->fmt.pix.width = W;
	f->fmt.pix.height = H;
	f->fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	return xioctl(fd, VIDIOC_S_FMT, f);
}

/*
 * A fixture's files: dxgpmo in *fd, and in *vid the capture node of vivid
 * instance inst on input 0, a webcam (progressive frames, fixed sizes).
 * false, the test skipped, where vivid has no such instance.
 */
static bool open_capture(struct __test_metadata *_metadata, int *fd,
			 int *vid, unsigned int inst)
{
	uint32_t input = 0;

	*fd = dxgpmo_open();
	ASSERT_LE(0, *fd);
	*vid = open_vivid(inst);
	if (*vid < 0)
		SKIP(return false, "no vivid instance %u capture device (vivid n_devs=2 allocators=0,1, CONFIG_VIDEO_VIVID)",
		     inst);
	ASSERT_EQ(0, xioctl(*vid, VIDIOC_S_INPUT, &input));
	return true;
}

/* Closes what open_capture() opened; the leak check. */
static void close_capture(struct __test_metadata *_metadata, int *fd,
			  int vid)
{
	if (vid >= 0)
		close(vid);
	teardown_dxgpmo(*fd);
}

/* The size of an object that holds a frame of len bytes. */
static size_t object_size(size_t len)
{
	return (len + PAGE - 1) / PAGE * PAGE;
}

/* One frame into vivid's own buffers, copied to ref. */
static int capture_mmap(int fd, uint8_t *ref, size_t len)
{
	void *maps[NBUF] = { NULL };
	struct v4l2_buffer b;
	unsigned int i;
	int ret;

	ret = reqbufs(fd, V4L2_MEMORY_MMAP, NBUF);
	if (ret)
		return ret;
	for (i = 0; i < NBUF && !ret; i++) {
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		ret = xioctl(fd, VIDIOC_QUERYBUF, &b);
		if (ret)
			break;
		maps[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd,
			       b.m.offset);
		if (maps[i] == MAP_FAILED) {
			maps[i] = NULL;
			ret = -errno;
			break;
		}
		ret = xioctl(fd, VIDIOC_QBUF, &b);
	}
	if (!ret)
		ret = stream(fd, 1);
	if (!ret)
		ret = dqbuf(fd, V4L2_MEMORY_MMAP, &b);
	if (!ret && b.bytesused < len)
		ret = -EMSGSIZE;
	if (!ret)
		memcpy(ref, maps[b.index], len);
	stream(fd, 0);
	for (i = 0; i < NBUF; i++)
		if (maps[i])
			munmap(maps[i], len);
	reqbufs(fd, V4L2_MEMORY_MMAP, 0);
	return ret;
}

/* Where two frames first differ, for the log. */
static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len && a[i] == b[i]; i++)
		;
	return i;
}

FIXTURE(capture) {
	int fd;
	int vid;
	size_t sizeimage;
	uint32_t bytesperline;
	uint8_t *ref;
};

FIXTURE_VARIANT(capture) {
	uint32_t type;
	uint32_t cache;
	uint64_t high_address;
	unsigned int vivid;	/* instance: 0 vmalloc, 1 dma-contig */
	/*
	 * vivid's dma-contig buffers need the pages in one physical run:
	 * refused unless they happen to be
	 */
	int needs_one_run;
};

PMO_VARIANT_ADD(capture, mdl_cached, MDL, CACHED);
PMO_VARIANT_ADD(capture, mdl_wc, MDL, WRITE_COMBINED);
PMO_VARIANT_ADD(capture, section_cached, SECTION, CACHED);

/*
 * dma-contig: vivid maps the attachment for its own device (a platform
 * device with a 32-bit DMA mask and no IOMMU) and needs one DMA-contiguous
 * run.  A CONTIGUOUS object below 4 GiB is one.  An MDL object's pages are
 * allocated in chunks and are mostly not; an honest sg_table makes vb2
 * refuse it ("contiguous chunk is too small") unless the chunks happen to
 * be adjacent, which the test reads from an ADL on the virtual adapter.
 */
PMO_VARIANT_ADD(capture, contiguous_dma_contig, CONTIGUOUS, CACHED,
		.high_address = 0xffffffffULL, .vivid = 1);
PMO_VARIANT_ADD(capture, mdl_dma_contig, MDL, CACHED,
		.high_address = 0xffffffffULL, .vivid = 1, .needs_one_run = 1);

/*
 * Whether an object's pages are one physical run: on the virtual adapter
 * an ADL's logical pages are the physical pages.  1, 0, or -errno.
 */
static int one_physical_run(int fd, uint32_t pmo, uint64_t size)
{
	struct dxgpmo_allocate_adl adl;
	struct adapters ad;
	uint64_t *pages;
	uint32_t i, amo;
	int ret;

	ret = load_adapters(fd, &ad);
	if (ret || !ad.virt)
		return ret ? ret : -ENODEV;
	pages = calloc(size / PAGE, sizeof(*pages));
	if (!pages)
		return -ENOMEM;
	ret = dxgpmo_open_pmo(fd, pmo, ad.virt->adapter_id, &amo);
	if (ret)
		goto out;
	adl = (struct dxgpmo_allocate_adl){
		.amo_id = amo, .length = size, .pages = (uintptr_t)pages,
		.pages_capacity = size / PAGE,
	};
	ret = dxgpmo_allocate_adl(fd, &adl);
	if (!ret) {
		if (adl.adl_flags & DXGPMO_ADL_ADDRESSES_HIDDEN)
			ret = -EPERM;
		for (i = 1; !ret && i < size / PAGE; i++)
			if (pages[i] != pages[0] + i)
				break;
		if (!ret)
			ret = i == size / PAGE;
		dxgpmo_free_adl(fd, adl.adl_id);
	}
	dxgpmo_close_pmo(fd, amo);
out:
	free(pages);
	return ret;
}

FIXTURE_SETUP(capture)
{
	struct v4l2_format f;
	const char *what;
	int ret;

	self->ref = NULL;
	if (!open_capture(_metadata, &self->fd, &self->vid, variant->vivid))
		return;
	ret = freeze_picture(self->vid, &what);
	ASSERT_EQ(0, ret) {
		TH_LOG("vivid control %s: %s", what, strerror(-ret));
	}
	ASSERT_EQ(0, set_format(self->vid, &f));
	ASSERT_EQ(W, f.fmt.pix.width);
	ASSERT_EQ(H, f.fmt.pix.height);
	ASSERT_EQ(V4L2_PIX_FMT_YUYV, f.fmt.pix.pixelformat);
	self->sizeimage = f.fmt.pix.sizeimage;
	self->bytesperline = f.fmt.pix.bytesperline;
	ASSERT_LE(W * 2, self->bytesperline);
	self->ref = malloc(self->sizeimage);
	ASSERT_NE(NULL, self->ref);
}

FIXTURE_TEARDOWN(capture)
{
	free(self->ref);
	close_capture(_metadata, &self->fd, self->vid);
}

/*
 * vivid fills the objects (through the exporter's vmap, with vivid's
 * default vmalloc buffers) with exactly the frame it puts in its own
 * buffers; the CPU reads it through a MAP view, and through the dma-buf's
 * own mmap bracketed by DMA_BUF_IOCTL_SYNC.
 */
TEST_F_TIMEOUT(capture, frame_into_pmo, 180)
{
	size_t size = object_size(self->sizeimage);
	struct dxgpmo_create_pmo c[NBUF];
	struct dxgpmo_map u[NBUF];
	int dfd[NBUF];
	struct v4l2_buffer b;
	uint8_t *got;
	size_t at;
	unsigned int i, n;
	int ret, refused = 0, scattered[NBUF] = { 0 };

	/* The reference, and evidence that the picture is not blank. */
	ASSERT_EQ(0, capture_mmap(self->vid, self->ref, self->sizeimage));
	for (n = 0, at = 1; at < self->sizeimage; at++)
		n += self->ref[at] != self->ref[at - 1];
	ASSERT_LT(1000, n);

	for (i = 0; i < NBUF; i++) {
		c[i] = (struct dxgpmo_create_pmo){
			.type = variant->type, .cache_type = variant->cache,
			.length = size, .high_address = variant->high_address,
			.page_protection = rw_protection(variant->type),
		};
		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c[i]));
		u[i] = (struct dxgpmo_map){
			.pmo_id = c[i].pmo_id,
			.access_mode = DXGPMO_ACCESS_USER, .length = size,
		};
		ASSERT_EQ(0, dxgpmo_map(self->fd, &u[i]));
		/* Not a byte of the frame: what vivid did not write shows. */
		memset((void *)(uintptr_t)(u[i].address + u[i].offset), FILL,
		       size);
		ASSERT_EQ(0, export_rw(self->fd, c[i].pmo_id, &dfd[i]));
		if (!variant->needs_one_run)
			continue;
		ret = one_physical_run(self->fd, c[i].pmo_id, size);
		ASSERT_LE(0, ret);
		scattered[i] = !ret;
		refused |= scattered[i];
		TH_LOG("object %u: %s", i, scattered[i] ?
		       "scattered pages, vivid must refuse it" :
		       "pages in one run, vivid must take it");
	}

	ASSERT_EQ(0, reqbufs(self->vid, V4L2_MEMORY_DMABUF, NBUF));
	for (i = 0; i < NBUF; i++) {
		ret = qbuf_dmabuf(self->vid, i, dfd[i], size);
		if (scattered[i]) {
			EXPECT_NE(0, ret);
			continue;
		}
		ASSERT_EQ(0, ret) {
			TH_LOG("QBUF of the exported dma-buf: %s",
			       strerror(-ret));
		}
	}
	if (refused)
		goto out;
	ASSERT_EQ(0, stream(self->vid, 1));
	got = malloc(self->sizeimage);
	ASSERT_NE(NULL, got);
	/* Each object gets a frame, in the order they were queued. */
	for (n = 0; n < NBUF; n++) {
		volatile uint8_t *view;

		ASSERT_EQ(0, dqbuf(self->vid, V4L2_MEMORY_DMABUF, &b));
		ASSERT_LT(b.index, NBUF);
		EXPECT_EQ(self->sizeimage, b.bytesused);
		view = (volatile uint8_t *)(uintptr_t)(u[b.index].address +
						      u[b.index].offset);
		for (at = 0; at < self->sizeimage; at++)
			got[at] = view[at];
		at = first_diff(got, self->ref, self->sizeimage);
		EXPECT_EQ(self->sizeimage, at) {
			TH_LOG("buffer %u: the frame in the object differs from vivid's own at byte %zu (line %zu): %#x, expected %#x",
			       b.index, at, at / self->bytesperline,
			       got[at], self->ref[at]);
		}
		/* vivid writes nothing past the frame */
		EXPECT_EQ(FILL, view[size - 1]);
	}
	ASSERT_EQ(0, stream(self->vid, 0));

	/* The dma-buf's own CPU view, bracketed as its users must. */
	for (i = 0; i < NBUF; i++) {
		struct dma_buf_sync s = { .flags = DMA_BUF_SYNC_START |
						   DMA_BUF_SYNC_READ };
		uint8_t *p = mmap(NULL, size, PROT_READ, MAP_SHARED, dfd[i], 0);

		ASSERT_NE(MAP_FAILED, p);
		ASSERT_EQ(0, ioctl(dfd[i], DMA_BUF_IOCTL_SYNC, &s));
		EXPECT_EQ(0, memcmp(p, self->ref, self->sizeimage));
		s.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ;
		ASSERT_EQ(0, ioctl(dfd[i], DMA_BUF_IOCTL_SYNC, &s));
		EXPECT_EQ(0, munmap(p, size));
	}
	free(got);
out:
	ASSERT_EQ(0, reqbufs(self->vid, V4L2_MEMORY_DMABUF, 0));
	for (i = 0; i < NBUF; i++) {
		EXPECT_EQ(0, close(dfd[i]));
		EXPECT_EQ(0, dxgpmo_unmap(self->fd, c[i].pmo_id, u[i].address,
					  u[i].length));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c[i].pmo_id, 0));
	}
}

/*
 * A read-only section can be read by devices, never written.  vivid's
 * vmalloc instance writes frames through the exporter's vmap, which
 * dma-buf cannot make read-only; its dma-contig instance maps the import
 * for its own device to write.  Both must be refused when the buffer is
 * queued or streamed, and the kernel must log nothing bad (a write
 * through a read-only kernel mapping oopses in vivid's thread).
 */
FIXTURE(readonly_import) {
	int fd;
	int vid;
	int kmsg;
	size_t sizeimage;
};

FIXTURE_VARIANT(readonly_import) {
	unsigned int vivid;
};

FIXTURE_VARIANT_ADD(readonly_import, vmalloc) {
	.vivid = 0,
};

FIXTURE_VARIANT_ADD(readonly_import, dma_contig) {
	.vivid = 1,
};

FIXTURE_SETUP(readonly_import)
{
	struct v4l2_format f;

	self->kmsg = kmsg_open_new();
	if (!open_capture(_metadata, &self->fd, &self->vid, variant->vivid))
		return;
	ASSERT_EQ(0, set_format(self->vid, &f));
	self->sizeimage = f.fmt.pix.sizeimage;
}

FIXTURE_TEARDOWN(readonly_import)
{
	if (self->kmsg >= 0)
		close(self->kmsg);
	close_capture(_metadata, &self->fd, self->vid);
}

TEST_F_TIMEOUT(readonly_import, section_refused, 120)
{
	size_t size = object_size(self->sizeimage);
	struct dxgpmo_create_pmo c[NBUF];
	int dfd[NBUF], queued = 0, ret = 0;
	struct v4l2_buffer b;
	char bad[256];
	unsigned int i;

	for (i = 0; i < NBUF; i++) {
		c[i] = (struct dxgpmo_create_pmo){
			.type = DXGPMO_PMO_TYPE_SECTION,
			.cache_type = DXGPMO_CACHE_CACHED, .length = size,
			.page_protection = DXGPMO_PAGE_READONLY,
		};
		ASSERT_EQ(0, dxgpmo_create_pmo(self->fd, &c[i]));
		ASSERT_EQ(0, export_rw(self->fd, c[i].pmo_id, &dfd[i]));
	}
	ASSERT_EQ(0, reqbufs(self->vid, V4L2_MEMORY_DMABUF, NBUF));
	for (i = 0; i < NBUF; i++) {
		ret = qbuf_dmabuf(self->vid, i, dfd[i], size);
		if (ret)
			break;
		queued++;
	}
	if (queued == NBUF) {
		ret = stream(self->vid, 1);
		/* a refused buffer comes back marked as an error */
		if (!ret)
			ret = dqbuf(self->vid, V4L2_MEMORY_DMABUF, &b);
		stream(self->vid, 0);
	}
	EXPECT_NE(0, ret) {
		TH_LOG("vivid %u captured into a read-only section",
		       variant->vivid);
	}
	TH_LOG("vivid %u: %d of %d queued, then %s", variant->vivid, queued,
	       NBUF, strerror(-ret));
	EXPECT_EQ(0, kmsg_find_bad(self->kmsg, bad, sizeof(bad))) {
		TH_LOG("kernel log: %s", bad);
	}
	reqbufs(self->vid, V4L2_MEMORY_DMABUF, 0);
	for (i = 0; i < NBUF; i++) {
		EXPECT_EQ(0, close(dfd[i]));
		EXPECT_EQ(0, dxgpmo_destroy_pmo(self->fd, c[i].pmo_id, 0));
	}
}

TEST_HARNESS_MAIN
