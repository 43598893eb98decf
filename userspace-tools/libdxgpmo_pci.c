// SPDX-License-Identifier: GPL-2.0
/*
 * Handing a PCI device to the generic driver dxgpmo-pci and back, with the
 * sysfs steps an administrator would type (driver_override, the old
 * driver's unbind, drivers_probe).  Each step's failure becomes one
 * sentence a user can act on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdxgpmo.h"

#define PCI_DEVICES "/sys/bus/pci/devices"
#define PCI_DRIVERS "/sys/bus/pci/drivers"

static int say(char *msg, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (msg && len) {
		va_start(ap, fmt);
		vsnprintf(msg, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* 0 or -errno; a short write is an error too. */
static int sysfs_write(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

int dxgpmo_pci_driver_of(const char *pci, char *driver, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t n;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver", pci);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		if (errno != ENOENT)
			return -errno;
		snprintf(path, sizeof(path), PCI_DEVICES "/%s", pci);
		if (access(path, F_OK))
			return -ENODEV;
		driver[0] = 0;
		return 0;
	}
	target[n] = 0;
	slash = strrchr(target, '/');
	snprintf(driver, len, "%s", slash ? slash + 1 : target);
	return 0;
}

static int valid_pci_name(const char *pci)
{
	unsigned int domain, bus, dev, fn;
	char end;

	return strlen(pci) == 12 &&
	       sscanf(pci, "%4x:%2x:%2x.%1x%c", &domain, &bus, &dev, &fn,
		      &end) == 4 && dev < 32 && fn < 8;
}

/* Ask the PCI core to find the device a driver again. */
static int reprobe(const char *pci)
{
	return sysfs_write(PCI_DRIVERS "_probe", pci);
}

static int set_override(const char *pci, const char *driver)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver_override", pci);
	return sysfs_write(path, driver);
}

static int unbind_from(const char *pci, const char *driver)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCI_DRIVERS "/%s/unbind", driver);
	return sysfs_write(path, pci);
}

static int common_checks(const char *pci, char *driver, size_t driver_len,
			 char *msg, size_t len)
{
	struct stat st;
	int err;

	if (!valid_pci_name(pci))
		return say(msg, len, -EINVAL,
			   "'%s' is not a PCI address (DDDD:BB:DD.F, as lspci -D prints it)",
			   pci);
	err = dxgpmo_pci_driver_of(pci, driver, driver_len);
	if (err == -ENODEV)
		return say(msg, len, err, "no PCI device %s", pci);
	if (err)
		return say(msg, len, err, "cannot read the driver of %s: %s",
			   pci, strerror(-err));
	if (stat(PCI_DRIVERS "/" DXGPMO_PCI_DRIVER, &st))
		return say(msg, len, -ENOENT,
			   "driver " DXGPMO_PCI_DRIVER " is not registered: load the dxgpmo module first");
	if (geteuid() != 0)
		return say(msg, len, -EPERM,
			   "binding drivers needs root (the PCI core's sysfs files are root's)");
	return 0;
}

int dxgpmo_pci_bind(const char *pci, int force, char *previous,
		    size_t previous_len, char *msg, size_t len)
{
	char driver[64];
	int err;

	err = common_checks(pci, driver, sizeof(driver), msg, len);
	if (err)
		return err;
	snprintf(previous, previous_len, "%s", driver);
	if (!strcmp(driver, DXGPMO_PCI_DRIVER))
		return say(msg, len, 0, "%s is already bound to "
			   DXGPMO_PCI_DRIVER, pci);
	if (driver[0] && !force)
		return say(msg, len, -EBUSY,
			   "%s is in use by driver %s: pass --force to take it away from that driver",
			   pci, driver);
	err = set_override(pci, DXGPMO_PCI_DRIVER);
	if (err)
		return say(msg, len, err, "writing %s's driver_override: %s",
			   pci, strerror(-err));
	if (driver[0]) {
		err = unbind_from(pci, driver);
		if (err) {
			set_override(pci, "\n");
			return say(msg, len, err == -EBUSY ? err : -EBUSY,
				   "driver %s did not let %s go: %s", driver,
				   pci, strerror(-err));
		}
	}
	/* drivers_probe fails for a device no driver took; the link says. */
	reprobe(pci);
	err = dxgpmo_pci_driver_of(pci, driver, sizeof(driver));
	if (!err && !strcmp(driver, DXGPMO_PCI_DRIVER))
		return say(msg, len, 0, "%s bound to " DXGPMO_PCI_DRIVER, pci);
	/* Give the device back to whoever had it. */
	set_override(pci, "\n");
	reprobe(pci);
	return say(msg, len, -EIO,
		   DXGPMO_PCI_DRIVER " refused %s (bridge, DMA mask or IOMMU group in use: the kernel log says which)",
		   pci);
}

int dxgpmo_pci_unbind(const char *pci, char *now, size_t now_len, char *msg,
		      size_t len)
{
	char driver[64];
	int err;

	err = common_checks(pci, driver, sizeof(driver), msg, len);
	if (err)
		return err;
	if (strcmp(driver, DXGPMO_PCI_DRIVER))
		return say(msg, len, -EINVAL, "%s is not bound to "
			   DXGPMO_PCI_DRIVER " (driver: %s)", pci,
			   driver[0] ? driver : "none");
	err = unbind_from(pci, DXGPMO_PCI_DRIVER);
	if (err)
		return say(msg, len, err, "unbinding %s: %s", pci,
			   strerror(-err));
	err = set_override(pci, "\n");
	if (err)
		return say(msg, len, err, "clearing %s's driver_override: %s",
			   pci, strerror(-err));
	/* Its own driver, if the system has one, takes it back. */
	reprobe(pci);
	err = dxgpmo_pci_driver_of(pci, now, now_len);
	if (err)
		now[0] = 0;
	return say(msg, len, 0, "%s unbound from " DXGPMO_PCI_DRIVER
		   "; now %s%s", pci, now[0] ? "bound to " : "without a driver",
		   now);
}
