// SPDX-License-Identifier: GPL-2.0
/*
 * Who may do what.  /dev/dxgpmo may be opened by a group (packaging/), so
 * everything that reaches device registers or physical addresses needs the
 * capability the kernel asks for the same thing elsewhere: CAP_SYS_RAWIO
 * for I/O space (as /dev/mem), CAP_SYS_ADMIN for physical addresses (as
 * /proc/pid/pagemap) and for the test ioctl, which reads page tables.
 *
 * Both the file's opener and the caller must have it.  The opener, as
 * pagemap decides at open: a file a privileged process opened and handed
 * to an unprivileged one gives it nothing.  The caller, because a file an
 * unprivileged process opened and handed to a privileged one (to have it
 * make an object in that file) must give nothing either.  The opener's
 * rights are noted once at open without auditing, so that ordinary calls
 * of ordinary users leave no capability denials in the audit log.
 *
 * A kernel client (client.c) is kernel code, which can reach physical
 * addresses by itself: it may use any allocation window and see the
 * physical addresses of adapters without an IOMMU, whichever task it calls
 * from, and no check looks at that task.  IO_SPACE objects, which view
 * other devices' BARs, it may not have.
 */
#include <linux/capability.h>
#include <linux/log2.h>
#include <linux/security.h>

#include "adapter.h"
#include "backing.h"
#include "compat.h"
#include "dxgpmo.h"
#include "object.h"
#include "pool.h"
#include "privilege.h"

void dxgpmo_file_note_opener(struct dxgpmo_file *file)
{
	file->opener_sys_rawio = ns_capable_noaudit(&init_user_ns,
						    CAP_SYS_RAWIO);
	file->opener_sys_admin = ns_capable_noaudit(&init_user_ns,
						    CAP_SYS_ADMIN);
}

/* Physical addresses, as numbers or as an oracle. */
bool dxgpmo_may_see_physical(struct dxgpmo_file *file)
{
	if (file->kernel_client)
		return true;
	return file->opener_sys_admin &&
	       ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/*
 * IO_SPACE objects write device registers and, through an ADL, point a
 * device at a BAR: /dev/mem territory, refused under lockdown as user
 * access to PCI BARs is.
 */
int dxgpmo_may_use_io_space(struct dxgpmo_file *file)
{
	/*
	 * A driver maps its own BARs (pci_iomap()); another device's are not
	 * its to map, and a raw view would outlive that device's removal.
	 */
	if (file->kernel_client)
		return -EOPNOTSUPP;
	if (!file->opener_sys_rawio || !capable(CAP_SYS_RAWIO))
		return -EPERM;
	return security_locked_down(LOCKDOWN_PCI_ACCESS);
}

/* Any device address, bypassing the ADL check. */
bool dxgpmo_may_use_raw_dma(struct dxgpmo_file *file)
{
	if (file->kernel_client)
		return true;
	return file->opener_sys_rawio && capable(CAP_SYS_RAWIO);
}

/*
 * Memory bases on a kernel driver's adapter, which only its client sees
 * otherwise: a live migration is the host administrator's, as Dxgkrnl's
 * loop is the kernel's on Windows.  The driver's dirty bits say which of
 * its memory is written, nothing more.
 */
bool dxgpmo_may_track_any_adapter(struct dxgpmo_file *file)
{
	if (file->kernel_client)
		return false;
	return file->opener_sys_admin && capable(CAP_SYS_ADMIN);
}

#ifdef DXGPMO_TEST
bool dxgpmo_may_use_test_ioctl(struct dxgpmo_file *file)
{
	return file->opener_sys_admin && capable(CAP_SYS_ADMIN);
}
#endif

/*
 * An allocation window is an oracle for physical addresses: a one-page
 * object made in [X, X + 4095] is the page at X, and narrower and narrower
 * windows bisect where free pages are.  Without the right to see physical
 * addresses a window may only be what devices need: from 0 up to an
 * address limit of some number of bits (a DMA mask: 0xFFFFFF for ISA,
 * 0xFFFFFFFF for 32-bit devices), and a power-of-two boundary.
 */
VISIBLE_IF_KUNIT bool dxgpmo_window_is_device_like(u64 low, u64 high,
						   u64 boundary)
{
	return !(low || (high && high != U64_MAX && !is_power_of_2(high + 1)) ||
		 (boundary && !is_power_of_2(boundary)));
}

static int dxgpmo_may_use_window(struct dxgpmo_file *file, u64 low, u64 high,
				 u64 boundary)
{
	if (dxgpmo_may_see_physical(file))
		return 0;
	if (!dxgpmo_window_is_device_like(low, high, boundary))
		return -EPERM;
	return 0;
}

/*
 * Whether file may create an object of req: one decision, before any
 * lookup, so that a create reads validate, decide, look up, make.  It
 * also decides what only some callers' creates may do (search_window).
 */
int dxgpmo_may_create(struct dxgpmo_file *file,
		      struct dxgpmo_alloc_request *req)
{
	int ret;

	ret = dxgpmo_may_use_window(file, req->low, req->high, req->boundary);
	if (ret)
		return ret;
	if (req->type == DXGPMO_PMO_TYPE_IO_SPACE) {
		ret = dxgpmo_may_use_io_space(file);
		if (ret)
			return ret;
	}
	/* Pages found by migration are uncharged and ignore watermarks. */
	req->search_window = req->type == DXGPMO_PMO_TYPE_CONTIGUOUS &&
			     dxgpmo_may_see_physical(file) &&
			     !dxgpmo_caller_is_charged();
	return 0;
}

/* Device addresses of an adapter without an IOMMU are physical. */
bool dxgpmo_adapter_addresses_visible(struct dxgpmo_adapter *adapter,
				      struct dxgpmo_file *file)
{
	return (adapter->caps & DXGPMO_ADAPTER_CAP_IOMMU) ||
	       dxgpmo_may_see_physical(file);
}
