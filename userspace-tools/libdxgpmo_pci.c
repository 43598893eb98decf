// SPDX-License-Identifier: GPL-2.0
/*
 * Handing a PCI device to the generic driver dxgpmo-pci and back, with the
 * sysfs steps an administrator would type (driver_override, the old
 * driver's unbind, drivers_probe).  Each step's failure becomes one
 * sentence a user can act on.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

int dxgpmo_read_line(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* The first line of a sysfs file of the device, newline dropped. */
static int device_attr(const char *pci, const char *attr, char *buf,
		       size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/%s", pci, attr);
	return dxgpmo_read_line(path, buf, len);
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

/*
 * The kernel's name of a PCI address ("%04x:%02x:%02x.%x": domains above
 * 0xffff, as VMD makes, have more digits), or -EINVAL.
 */
static int canonical_pci_name(const char *in, char *out, size_t len)
{
	unsigned int domain, bus, dev, fn;
	int used = -1;

	if (strspn(in, "0123456789abcdefABCDEF:.") != strlen(in) ||
	    sscanf(in, "%x:%x:%x.%x%n", &domain, &bus, &dev, &fn, &used) != 4 ||
	    used != (int)strlen(in) || bus > 0xff || dev > 0x1f || fn > 7)
		return -EINVAL;
	snprintf(out, len, "%04x:%02x:%02x.%x", domain, bus, dev, fn);
	return 0;
}

/* Ask the PCI core to find the device a driver; 0 or -errno. */
static int reprobe(const char *pci)
{
	return sysfs_write(PCI_DRIVERS "_probe", pci);
}

static int set_override(const char *pci, const char *driver)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver_override", pci);
	return sysfs_write(path, driver[0] ? driver : "\n");
}

static int unbind_from(const char *pci, const char *driver)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PCI_DRIVERS "/%s/unbind", driver);
	return sysfs_write(path, pci);
}

static const char *why_not(int err)
{
	return err == -EACCES || err == -EPERM ?
	       "binding drivers needs root (the PCI core's sysfs files are root's)" :
	       strerror(-err);
}

int dxgpmo_pci_group_members(const char *pci)
{
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/iommu_group/devices",
		 pci);
	dir = opendir(path);
	if (!dir)
		return 1;
	while ((de = readdir(dir)))
		n += de->d_name[0] != '.';
	closedir(dir);
	return n;
}

void dxgpmo_adapter_pci_name(const struct dxgpmo_adapter_info *a, char *buf,
			     size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", a->pci_domain, a->pci_bus,
		 a->pci_devfn >> 3, a->pci_devfn & 7);
}

int dxgpmo_adapter_at_pci(int fd, const char *pci,
			  struct dxgpmo_adapter_info *out)
{
	struct dxgpmo_adapter_info a[DXGPMO_MAX_ADAPTERS];
	char name[DXGPMO_PCI_NAME_MAX];
	uint32_t nr = 0, i;

	if (dxgpmo_query_adapters(fd, a, DXGPMO_MAX_ADAPTERS, &nr))
		return 0;
	for (i = 0; i < nr && i < DXGPMO_MAX_ADAPTERS; i++) {
		if (a[i].caps & DXGPMO_ADAPTER_CAP_VIRTUAL)
			continue;
		dxgpmo_adapter_pci_name(&a[i], name, sizeof(name));
		if (!strcmp(name, pci)) {
			*out = a[i];
			return 1;
		}
	}
	return 0;
}

/*
 * What dxgpmo-pci refuses to bind, known before any driver is unbound (a
 * --force must not take a working device from its driver for nothing).
 * The kernel checks again, and also refuses untrusted devices.
 */
static const char *unsuitable(const char *pci)
{
	char class[32] = "", shared[8] = "N";
	unsigned long c;
	FILE *f;

	if (!device_attr(pci, "class", class, sizeof(class))) {
		c = strtoul(class, NULL, 0);
		if (c >> 16 == 0x06)
			return "a bridge";
		if (c >> 8 == 0x0806)
			return "an IOMMU";
	}
	f = fopen("/sys/module/dxgpmo/parameters/pci_shared_group", "r");
	if (f) {
		if (!fgets(shared, sizeof(shared), f))
			shared[0] = 'N';
		fclose(f);
	}
	if (shared[0] != 'Y' && dxgpmo_pci_group_members(pci) > 1)
		return "in an IOMMU group with other devices (pci_shared_group=1 allows it)";
	return NULL;
}

/*
 * The device, its driver and its driver_override; the checks every
 * command makes before touching anything.
 */
static int look_up(const char *in, char *pci, size_t pci_len, char *driver,
		   size_t driver_len, char *override, size_t override_len,
		   char *msg, size_t len)
{
	int err;

	/* Empty on every failure: callers may print them. */
	driver[0] = 0;
	override[0] = 0;
	if (canonical_pci_name(in, pci, pci_len))
		return say(msg, len, -EINVAL,
			   "'%s' is not a PCI address (DDDD:BB:DD.F, as lspci -D prints it)",
			   in);
	err = dxgpmo_pci_driver_of(pci, driver, driver_len);
	if (err == -ENODEV)
		return say(msg, len, err, "no PCI device %s", pci);
	if (err)
		return say(msg, len, err, "cannot read the driver of %s: %s",
			   pci, strerror(-err));
	if (device_attr(pci, "driver_override", override, override_len) ||
	    !strcmp(override, "(null)"))
		override[0] = 0;
	if (geteuid() != 0)
		return say(msg, len, -EPERM, "%s", why_not(-EPERM));
	return 0;
}

int dxgpmo_pci_bind(const char *in, int force, char *previous,
		    size_t previous_len, char *msg, size_t len)
{
	char pci[32], driver[64], override[64];
	const char *bad;
	struct stat st;
	int err;

	previous[0] = 0;
	err = look_up(in, pci, sizeof(pci), driver, sizeof(driver), override,
		      sizeof(override), msg, len);
	if (err)
		return err;
	snprintf(previous, previous_len, "%s", driver);
	if (!strcmp(driver, DXGPMO_PCI_DRIVER))
		return say(msg, len, 0, "%s is already bound to "
			   DXGPMO_PCI_DRIVER, pci);
	if (stat(PCI_DRIVERS "/" DXGPMO_PCI_DRIVER, &st))
		return say(msg, len, -ENOENT,
			   "driver " DXGPMO_PCI_DRIVER " is not registered: load the dxgpmo module first");
	bad = unsuitable(pci);
	if (bad)
		return say(msg, len, -EINVAL, "%s is %s: " DXGPMO_PCI_DRIVER
			   " does not take it", pci, bad);
	if (driver[0] && !force)
		return say(msg, len, -EBUSY,
			   "%s is in use by driver %s: pass --force to take it away from that driver",
			   pci, driver);
	if (override[0] && strcmp(override, DXGPMO_PCI_DRIVER) && !force)
		return say(msg, len, -EBUSY,
			   "%s's driver_override names %s: pass --force to replace it",
			   pci, override);
	err = set_override(pci, DXGPMO_PCI_DRIVER);
	if (err)
		return say(msg, len, err, "writing %s's driver_override: %s",
			   pci, why_not(err));
	if (driver[0]) {
		err = unbind_from(pci, driver);
		if (err) {
			set_override(pci, override);
			return say(msg, len, err, "unbinding %s from %s: %s",
				   pci, driver, why_not(err));
		}
	}
	/*
	 * A probe that refuses the device is no error of drivers_probe; one
	 * the core stops first is (-EBUSY: a group VFIO owns).  The link
	 * says what happened.
	 */
	err = reprobe(pci);
	if (!dxgpmo_pci_driver_of(pci, driver, sizeof(driver)) &&
	    !strcmp(driver, DXGPMO_PCI_DRIVER))
		return say(msg, len, 0, "%s bound to " DXGPMO_PCI_DRIVER, pci);
	/*
	 * Give the device back to whoever had it (a stale override of ours
	 * would block it); a device that had no driver stays without.
	 */
	set_override(pci, strcmp(override, DXGPMO_PCI_DRIVER) ? override : "");
	if (previous[0])
		reprobe(pci);
	if (err)
		return say(msg, len, err, "the PCI core did not bind %s: %s%s",
			   pci, strerror(-err), err == -EBUSY ?
			   " (is its IOMMU group owned by VFIO?)" : "");
	return say(msg, len, -EIO,
		   DXGPMO_PCI_DRIVER " refused %s (shared IOMMU group, untrusted device or DMA mask: the kernel log says which)",
		   pci);
}

int dxgpmo_pci_unbind(const char *in, char *now, size_t now_len, char *msg,
		      size_t len)
{
	char pci[32], driver[64], override[64];
	int err, stale;

	now[0] = 0;
	err = look_up(in, pci, sizeof(pci), driver, sizeof(driver), override,
		      sizeof(override), msg, len);
	if (err)
		return err;
	/* After rmmod or a refused probe the override stays, and blocks. */
	stale = !driver[0] && !strcmp(override, DXGPMO_PCI_DRIVER);
	if (strcmp(driver, DXGPMO_PCI_DRIVER) && !stale)
		return say(msg, len, -EINVAL, "%s is not bound to "
			   DXGPMO_PCI_DRIVER " (driver: %s)", pci,
			   driver[0] ? driver : "none");
	if (!stale) {
		err = unbind_from(pci, DXGPMO_PCI_DRIVER);
		if (err)
			return say(msg, len, err, "unbinding %s: %s", pci,
				   why_not(err));
	}
	err = set_override(pci, "");
	if (err)
		return say(msg, len, err, "clearing %s's driver_override: %s",
			   pci, why_not(err));
	/* Its own driver, if the system has one, takes it back. */
	reprobe(pci);
	if (dxgpmo_pci_driver_of(pci, now, now_len))
		now[0] = 0;
	return say(msg, len, 0, "%s %s " DXGPMO_PCI_DRIVER "; now %s%s", pci,
		   stale ? "no longer names" : "unbound from",
		   now[0] ? "bound to " : "without a driver", now);
}
