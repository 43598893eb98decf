/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Putting a dma-buf on the screen of a KMS driver (cirrus in the test VM)
 * through libdrm, and asking the host to look at the screen: QEMU's own
 * screendump, taken by scripts/screen-agent.py, which the guest reaches
 * through its second serial port.  Shared by the scan-out selftest and the
 * demo.  Every function returns 0 or a negative errno.
 */
#ifndef DXGPMO_SCREEN_H
#define DXGPMO_SCREEN_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#define SCREEN_HOST_TTY "/dev/ttyS1"

struct screen {
	int fd;
	char driver[32];
	uint32_t crtc_id;
	uint32_t conn_id;
	drmModeModeInfo mode;
	uint32_t handle;	/* of the imported dma-buf */
	uint32_t fb_id;
};

/*
 * Open the first DRM device whose driver's name starts with prefix and
 * that has a connected output with a w x h mode.  -ENODEV: no such device
 * (no driver, or no display); -ENOENT: no such mode.
 */
static inline int screen_open(struct screen *s, const char *prefix,
			      unsigned int w, unsigned int h)
{
	int i, ret = -ENODEV;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	for (i = 0; i < 16 && s->fd < 0; i++) {
		drmModeResPtr res = NULL;
		drmVersionPtr v;
		char path[32];
		int fd, c, m;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (!v || strncmp(v->name, prefix, strlen(prefix)))
			goto next;
		snprintf(s->driver, sizeof(s->driver), "%s", v->name);
		res = drmModeGetResources(fd);
		for (c = 0; res && c < res->count_connectors && s->fd < 0; c++) {
			drmModeConnectorPtr conn =
				drmModeGetConnector(fd, res->connectors[c]);
			drmModeEncoderPtr enc;

			if (!conn)
				continue;
			if (conn->connection != DRM_MODE_CONNECTED ||
			    !conn->count_encoders) {
				drmModeFreeConnector(conn);
				continue;
			}
			ret = -ENOENT;
			for (m = 0; m < conn->count_modes; m++) {
				if (conn->modes[m].hdisplay != w ||
				    conn->modes[m].vdisplay != h)
					continue;
				enc = drmModeGetEncoder(fd, conn->encoders[0]);
				if (!enc)
					break;
				s->mode = conn->modes[m];
				s->conn_id = conn->connector_id;
				/* the encoder's first possible CRTC */
				s->crtc_id = res->crtcs[__builtin_ctz(enc->possible_crtcs)];
				drmModeFreeEncoder(enc);
				s->fd = fd;
				ret = 0;
				break;
			}
			drmModeFreeConnector(conn);
		}
next:
		if (res)
			drmModeFreeResources(res);
		if (v)
			drmFreeVersion(v);
		if (s->fd != fd)
			close(fd);
	}
	return ret;
}

/*
 * Import dmabuf_fd as an XRGB8888 framebuffer (pitch bytes a line) and
 * scan it out.  The caller keeps the dma-buf's fd; the driver holds its
 * own reference from the import on.
 */
static inline int screen_show(struct screen *s, int dmabuf_fd, uint32_t pitch)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { pitch }, offsets[4] = { 0 };
	int ret;

	ret = drmPrimeFDToHandle(s->fd, dmabuf_fd, &s->handle);
	if (ret)
		return -errno;
	handles[0] = s->handle;
	ret = drmModeAddFB2(s->fd, s->mode.hdisplay, s->mode.vdisplay,
			    DRM_FORMAT_XRGB8888, handles, pitches, offsets,
			    &s->fb_id, 0);
	if (ret)
		return -errno;
	ret = drmModeSetCrtc(s->fd, s->crtc_id, s->fb_id, 0, 0, &s->conn_id,
			     1, &s->mode);
	return ret ? -errno : 0;
}

/* Tell the driver that the CPU changed a rectangle of the framebuffer. */
static inline int screen_dirty(struct screen *s, unsigned int x,
			       unsigned int y, unsigned int w, unsigned int h)
{
	drmModeClip clip = {
		.x1 = x, .y1 = y, .x2 = x + w, .y2 = y + h,
	};

	return drmModeDirtyFB(s->fd, s->fb_id, &clip, 1) ? -errno : 0;
}

/* Off the screen (removing the framebuffer turns the CRTC off), closed. */
static inline void screen_close(struct screen *s)
{
	if (s->fd < 0)
		return;
	if (s->fb_id)
		drmModeRmFB(s->fd, s->fb_id);
	if (s->handle) {
		struct drm_gem_close c = { .handle = s->handle };

		drmIoctl(s->fd, DRM_IOCTL_GEM_CLOSE, &c);
	}
	close(s->fd);
	s->fd = -1;
}

/* ---- the host's eyes ---------------------------------------------------- */

/* Read one line (without its newline) within timeout_ms. */
static inline int host_read_line(int fd, char *buf, size_t len,
				 int timeout_ms)
{
	struct timespec start, now;
	size_t n = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int left, r;
		char c;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = timeout_ms - (int)((now.tv_sec - start.tv_sec) * 1000 +
					  (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&p, 1, left);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		r = read(fd, &c, 1);
		if (r < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (r <= 0)
			continue;
		if (c == '\n') {
			buf[n] = 0;
			return 0;
		}
		if (c != '\r' && n + 1 < len)
			buf[n++] = c;
	}
}

/*
 * Open the line to the host agent and greet it.  -ENODEV when no agent
 * answers (a VM without one, or real hardware).
 */
static inline int host_open(void)
{
	struct termios t;
	char line[64];
	int fd, ret;

	fd = open(SCREEN_HOST_TTY, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -ENODEV;
	if (tcgetattr(fd, &t)) {
		close(fd);
		return -ENODEV;
	}
	cfmakeraw(&t);
	cfsetspeed(&t, B115200);
	tcsetattr(fd, TCSANOW, &t);
	tcflush(fd, TCIOFLUSH);
	/* Whatever the port held before is no answer to this greeting. */
	if (write(fd, "hello\n", 6) != 6) {
		close(fd);
		return -ENODEV;
	}
	do {
		ret = host_read_line(fd, line, sizeof(line), 10000);
	} while (!ret && strcmp(line, "hello"));
	if (ret) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

/* Send a request line (without newline) and read the answer line. */
static inline int host_ask(int fd, const char *req, char *answer, size_t len)
{
	size_t n = strlen(req);

	if (write(fd, req, n) != (ssize_t)n || write(fd, "\n", 1) != 1)
		return -EIO;
	return host_read_line(fd, answer, len, 120000);
}

#endif
