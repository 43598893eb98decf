// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel clients: the memory callbacks for kernel drivers
 * (include/linux/dxgpmo.h), the second front end next to the ioctls.
 *
 * A client is a struct dxgpmo_file without a struct file, and an adapter
 * of its own for the device its driver drives.  Each call named after a
 * command runs the command the ioctl of the same name runs, through the
 * ioctl table's kernel door (ioctl.c), with the caller's parameter block
 * in place of the copy of the user's: the rules, the rounding and the
 * errors are the ioctls', and so are the locks.  What a kernel client may
 * do that an opener of /dev/dxgpmo may not is decided in privilege.c (any
 * window and physical address, as kernel code; no IO_SPACE), what it is
 * charged in quota.c (caps of its own).
 */

/**
 * DOC: Contexts
 *
 * Every function sleeps: process context, no spinlock, no atomic section,
 * not in the device's DMA fence signalling path; the two whose comments
 * name a context say when else they may not be called.  Calls on one
 * client may run concurrently, as ioctls on one file may.  Close comes
 * after the last call returned.  None may be called with the mmap lock of
 * any process held, nor from a shrinker or reclaim: creating objects
 * allocates with GFP_KERNEL.
 */
#include <linux/device.h>
#include <linux/dma-buf.h>
#include <linux/fcntl.h>
#include <linux/idr.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <linux/dxgpmo.h>

#include "adapter.h"
#include "adapter_dma.h"
#include "client.h"
#include "compat.h"
#include "dirty.h"
#include "dmabuf.h"
#include "dxgpmo.h"
#include "fs.h"
#include "ioctl.h"
#include "object.h"
#include "segment_basis.h"

struct dxgpmo_client {
	struct dxgpmo_file *file;
	struct dxgpmo_adapter *adapter;
	/* The adapter's, filled from the driver's ops at open. */
	struct dxgpmo_adapter_ops adapter_ops;
	const struct dxgpmo_client_ops *ops;
	/*
	 * The bases the driver's own DDIs made (dxgpmo_client_basis), until
	 * each is destroyed, or until the close hands them back to the
	 * driver, after which no DDI is called.
	 */
	struct mutex bases_lock;
	struct list_head bases;
	/* The DDI calls in flight, plus one until the close. */
	refcount_t ddi_users;
	wait_queue_head_t ddi_wait;
	struct lockdep_map ddi_map;
	atomic_t quiesced;
	void *priv;
	struct module *owner;
	struct list_head node;		/* dxgpmo_clients, while open */
	/*
	 * Closed, by whichever of dxgpmo_client_close(), the device's unbind
	 * (devres) and the owner's unload came first; under
	 * dxgpmo_clients_lock.  The others find it set and do nothing.
	 */
	bool closed;
	int index;			/* the adapter's name: client<index> */
};

/*
 * The devres entry on the client's device: the client, and a reference
 * on its adapter (which frees the client) until the entry goes, so that
 * an entry released after the client was closed still reads its flag.
 */
struct dxgpmo_client_devres {
	struct dxgpmo_client *client;
};

/* Every open client, for closing those of a module that unloads. */
static LIST_HEAD(dxgpmo_clients);
static DEFINE_MUTEX(dxgpmo_clients_lock);
static DEFINE_IDA(dxgpmo_client_ida);
/* The drain of the driver's DDIs, as lockdep sees it (client.c). */
static struct lock_class_key dxgpmo_client_ddi_key;

static int dxgpmo_client_transfer(struct dxgpmo_adapter *adapter,
				  bool to_memory, u64 device_address,
				  void *buf, size_t len)
{
	struct dxgpmo_client *client = adapter->priv;

	return client->ops->transfer(client, to_memory, device_address, buf,
				     len);
}

/* The client lives as long as its adapter: an engine call may be late. */
static void dxgpmo_client_adapter_release(struct dxgpmo_adapter *adapter)
{
	struct dxgpmo_client *client = adapter->priv;

	ida_free(&dxgpmo_client_ida, client->index);
	kfree(client);
}

/* A basis of the driver's own DDIs: its handle, while it has it. */
struct dxgpmo_client_basis {
	struct list_head node;		/* on the client's bases */
	void *driver_basis;		/* NULL: given back at the close */
};

/*
 * A call into the driver's DDIs counts itself in ddi_users, which holds
 * one more count from the open to the close: the close takes that one
 * away and waits for the calls in flight, and none starts after it.  Not
 * the device's access_lock: a DDI may call the driver's own callbacks,
 * which take it, and the driver's locks are its own to nest.
 */
static bool dxgpmo_client_ddi_enter(struct dxgpmo_client *client)
{
	if (!refcount_inc_not_zero(&client->ddi_users))
		return false;
	/* For lockdep, a read of what the drain takes for writing. */
	lock_map_acquire_read(&client->ddi_map);
	return true;
}

static void dxgpmo_client_ddi_exit(struct dxgpmo_client *client)
{
	lock_map_release(&client->ddi_map);
	if (refcount_dec_and_test(&client->ddi_users))
		wake_up_all(&client->ddi_wait);
}

static int dxgpmo_client_basis_caps(struct dxgpmo_adapter *adapter,
				    u32 segment_id, u64 *page_size,
				    u64 *segment_size)
{
	struct dxgpmo_client *client = adapter->priv;

	if (!dxgpmo_client_ddi_enter(client))
		return -ENODEV;
	*page_size = client->ops->dirty_page_size(client, segment_id,
						  segment_size);
	dxgpmo_client_ddi_exit(client);
	return *page_size ? 0 : -EINVAL;
}

static void *dxgpmo_client_basis_create(struct dxgpmo_adapter *adapter,
					u32 segment_id,
					const struct dxgpmo_dirty_range *ranges,
					u32 nr_ranges)
{
	struct dxgpmo_client *client = adapter->priv;
	struct dxgpmo_memory_range *driver_ranges;
	struct dxgpmo_client_basis *cb;
	int ret = -ENOMEM;
	u32 i;

	cb = kzalloc(sizeof(*cb), GFP_KERNEL_ACCOUNT);
	driver_ranges = kvmalloc_array(nr_ranges, sizeof(*driver_ranges),
				       GFP_KERNEL_ACCOUNT);
	if (!cb || !driver_ranges)
		goto out_free;
	for (i = 0; i < nr_ranges; i++) {
		driver_ranges[i].segment_offset = ranges[i].offset;
		driver_ranges[i].length = ranges[i].length;
	}
	ret = -ENODEV;
	if (!dxgpmo_client_ddi_enter(client))
		goto out_free;
	ret = client->ops->create_memory_basis(client, segment_id,
					       driver_ranges, nr_ranges,
					       &cb->driver_basis);
	if (!ret && WARN_ON(!cb->driver_basis))
		ret = -EINVAL;
	if (!ret) {
		mutex_lock(&client->bases_lock);
		list_add(&cb->node, &client->bases);
		mutex_unlock(&client->bases_lock);
	}
	dxgpmo_client_ddi_exit(client);
	if (ret)
		goto out_free;
	kvfree(driver_ranges);
	return cb;

out_free:
	kvfree(driver_ranges);
	kfree(cb);
	return ERR_PTR(ret);
}

static void dxgpmo_client_basis_destroy(struct dxgpmo_adapter *adapter,
					void *basis)
{
	struct dxgpmo_client *client = adapter->priv;
	struct dxgpmo_client_basis *cb = basis;

	/*
	 * Set, the close has not given it back yet, and will not before
	 * this is done: the driver is there to let go of its record.
	 */
	mutex_lock(&client->bases_lock);
	if (cb->driver_basis) {
		client->ops->destroy_memory_basis(client, cb->driver_basis);
		list_del(&cb->node);
	}
	mutex_unlock(&client->bases_lock);
	kfree(cb);
}

/* The driver's basis, a DDI call counted; NULL once the close began. */
static void *dxgpmo_client_basis_enter(struct dxgpmo_client *client,
				       struct dxgpmo_client_basis *cb)
{
	if (!dxgpmo_client_ddi_enter(client))
		return NULL;
	/* Given back only after the drain, which waits for this call. */
	if (cb->driver_basis)
		return cb->driver_basis;
	dxgpmo_client_ddi_exit(client);
	return NULL;
}

/* START or STOP: the driver's counts are its own. */
static int dxgpmo_client_basis_track(struct dxgpmo_adapter *adapter,
				     void *basis, bool start)
{
	struct dxgpmo_client *client = adapter->priv;
	void *driver_basis = dxgpmo_client_basis_enter(client, basis);
	int ret;

	if (!driver_basis)
		return -ENODEV;
	if (start)
		ret = client->ops->start_dirty_tracking(client, driver_basis);
	else
		ret = client->ops->stop_dirty_tracking(client, driver_basis);
	dxgpmo_client_ddi_exit(client);
	return ret;
}

static int dxgpmo_client_basis_start(struct dxgpmo_adapter *adapter,
				     void *basis)
{
	return dxgpmo_client_basis_track(adapter, basis, true);
}

static int dxgpmo_client_basis_stop(struct dxgpmo_adapter *adapter,
				    void *basis)
{
	return dxgpmo_client_basis_track(adapter, basis, false);
}

static int dxgpmo_client_basis_query(struct dxgpmo_adapter *adapter,
				     void *basis,
				     const struct dxgpmo_query_dirty_bits *cmd,
				     u8 *bits, size_t nbytes)
{
	struct dxgpmo_client *client = adapter->priv;
	void *driver_basis = dxgpmo_client_basis_enter(client, basis);
	int ret;

	if (!driver_basis)
		return -ENODEV;
	ret = client->ops->query_dirty_bits(client, driver_basis, cmd, bits,
					    nbytes);
	dxgpmo_client_ddi_exit(client);
	return ret;
}

static const struct dxgpmo_basis_ddi dxgpmo_client_basis_ddi = {
	.segment_caps = dxgpmo_client_basis_caps,
	.create = dxgpmo_client_basis_create,
	.destroy = dxgpmo_client_basis_destroy,
	.start = dxgpmo_client_basis_start,
	.stop = dxgpmo_client_basis_stop,
	.query = dxgpmo_client_basis_query,
};

/**
 * dxgpmo_kernel_client_quiesce() - the first step of a client's close
 * @client: the client
 *
 * No DDI of the driver's is called from here on but the destroys below,
 * made while the driver's callbacks still work (its bases may own
 * objects of the client's); their files' objects only free their records
 * later.  The close does it first; dxgkrnl.c does it before it stops its
 * interface's callbacks.  Once.
 */
void dxgpmo_kernel_client_quiesce(struct dxgpmo_client *client)
{
	struct dxgpmo_client_basis *cb, *next;

	if (atomic_xchg(&client->quiesced, 1))
		return;
	lock_map_acquire(&client->ddi_map);
	lock_map_release(&client->ddi_map);
	if (!refcount_dec_and_test(&client->ddi_users))
		wait_event(client->ddi_wait, !refcount_read(&client->ddi_users));
	mutex_lock(&client->bases_lock);
	list_for_each_entry_safe(cb, next, &client->bases, node) {
		client->ops->destroy_memory_basis(client, cb->driver_basis);
		cb->driver_basis = NULL;
		list_del_init(&cb->node);
	}
	mutex_unlock(&client->bases_lock);
}

/*
 * The bits dxgkrnl.c puts above an object's id in the handles it gives
 * its driver: the lower layers print a handle as the driver holds it.
 * Set before the driver can have made any object.
 */
void dxgpmo_kernel_client_set_handle_base(struct dxgpmo_client *client, u64 base)
{
	WRITE_ONCE(client->file->handle_base, base);
}

/* The driver's memory-basis DDIs are all there, or none is. */
static bool dxgpmo_client_has_bases(const struct dxgpmo_client_ops *ops)
{
	return ops && ops->dirty_page_size && ops->create_memory_basis &&
	       ops->destroy_memory_basis && ops->start_dirty_tracking &&
	       ops->stop_dirty_tracking && ops->query_dirty_bits;
}

static void dxgpmo_client_fill_adapter_ops(struct dxgpmo_client *client)
{
	const struct dxgpmo_client_ops *ops = client->ops;
	struct dxgpmo_adapter_ops *aops = &client->adapter_ops;

	aops->name = "client";
	/*
	 * No fill_info: QUERY_ADAPTERS lists an owned adapter only to its
	 * owner, and the owner here is the client's own file, which never
	 * asks (the command takes user memory only).
	 */
	aops->release = dxgpmo_client_adapter_release;
	if (ops && ops->transfer) {
		aops->caps = DXGPMO_ADAPTER_CAP_DMA_ENGINE;
		aops->transfer = dxgpmo_client_transfer;
	}
	aops->basis_ddi = dxgpmo_client_has_bases(ops) ?
			  &dxgpmo_client_basis_ddi : &dxgpmo_segment_basis_ddi;
}

/*
 * The driver's own DDIs go first: drained, its bases given back while its
 * objects are still there for them (dxgpmo_kernel_client_quiesce()).  Then
 * the adapter, as at a device's removal: no lookup finds it any more (its
 * owner's file is about to be freed, and a new file could get the same
 * address), and its ADLs are unmapped from the device.  Then what the
 * driver left is destroyed as a file's is at close, counted as leaked.
 * The adapter's last reference, which an AMO of the file may hold, frees
 * the client: nothing here touches it after that.
 */
static void dxgpmo_client_release(struct dxgpmo_client *client)
{
	struct dxgpmo_file *file = client->file;

	dxgpmo_kernel_client_quiesce(client);
	dxgpmo_adapter_unregister(client->adapter);
	dxgpmo_file_destroy(file);
}

/* Claims the close; false if another path has closed the client. */
static bool dxgpmo_client_claim_close(struct dxgpmo_client *client)
{
	bool claimed;

	mutex_lock(&dxgpmo_clients_lock);
	claimed = !client->closed;
	if (claimed) {
		client->closed = true;
		list_del(&client->node);
	}
	mutex_unlock(&dxgpmo_clients_lock);
	return claimed;
}

/*
 * The driver of the client's device let go of it with the client still
 * open (devres, after remove()): closed now, while the device still has
 * its IOMMU group, through which its ADLs are unmapped; a device that is
 * being removed loses it right after.  An entry the close did not remove
 * (it was already being released) finds the client closed.
 */
static void dxgpmo_client_devres_release(struct device *dev, void *res)
{
	struct dxgpmo_client_devres *dr = res;
	struct dxgpmo_client *client = dr->client;
	struct dxgpmo_adapter *adapter = client->adapter;

	if (dxgpmo_client_claim_close(client)) {
		dev_warn(dev, "dxgpmo: %s let go of the device with client %s open: closing it\n",
			 module_name(client->owner), adapter->name);
		dxgpmo_client_release(client);
	}
	dxgpmo_adapter_put(adapter);
}

static int dxgpmo_client_devres_match(struct device *dev, void *res,
				      void *data)
{
	struct dxgpmo_client_devres *dr = res;

	return dr->client == data;
}

/*
 * The client's devres entry, if it is still on its device's list: gone,
 * with the adapter reference it held.  An entry already taken off by the
 * device's unbind is released there.
 */
static void dxgpmo_client_drop_devres(struct dxgpmo_client *client)
{
	devres_release(client->adapter->dev, dxgpmo_client_devres_release,
		       dxgpmo_client_devres_match, client);
}

/**
 * __dxgpmo_client_open() - open a client for the device a driver drives
 * @dev: the device; its DMA mask is set, and it is bound to the caller's
 *	driver for as long as the client is open
 * @ops: what the device does for dxgpmo (its engine), or NULL
 * @priv: the driver's, returned by dxgpmo_client_priv()
 * @owner: the calling module (dxgpmo_client_open() passes THIS_MODULE)
 *
 * The client gets an adapter of its own for @dev, which only it sees:
 * its ADLs are @dev's DMA mappings (in @dev's IOMMU domain where it has
 * one), its segment is reached by @ops->transfer.  A client left open when
 * @dev's driver lets go of it (after remove()) is closed then, with a
 * warning; one still open when @owner unloads, then.
 *
 * Context: process context, may sleep; from probe() or later, while @dev
 * is bound to the caller's driver.
 * Return: the client, or an ERR_PTR(): -ENOMEM, -EBUSY (all 255 adapter
 * ids in use), -EINVAL (@dev has no driver).
 */
struct dxgpmo_client *__dxgpmo_client_open(struct device *dev,
					   const struct dxgpmo_client_ops *ops,
					   void *priv, struct module *owner)
{
	struct dxgpmo_client_devres *dr;
	struct dxgpmo_adapter *adapter;
	struct dxgpmo_client *client;
	int ret;

	might_sleep();
	/* Its unbind closes the client: a device without a driver has none. */
	if (WARN_ON(!dev->driver))
		return ERR_PTR(-EINVAL);
	if (ops && WARN_ON(ops->create_memory_basis &&
			   !dxgpmo_client_has_bases(ops)))
		return ERR_PTR(-EINVAL);
	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return ERR_PTR(-ENOMEM);
	client->ops = ops;
	client->priv = priv;
	client->owner = owner;
	mutex_init(&client->bases_lock);
	INIT_LIST_HEAD(&client->bases);
	refcount_set(&client->ddi_users, 1);
	init_waitqueue_head(&client->ddi_wait);
	lockdep_init_map(&client->ddi_map, "dxgpmo_client_ddi",
			 &dxgpmo_client_ddi_key, 0);
	dxgpmo_client_fill_adapter_ops(client);
	client->index = ida_alloc(&dxgpmo_client_ida, GFP_KERNEL);
	if (client->index < 0) {
		ret = client->index;
		goto err_free;
	}
	client->file = dxgpmo_file_alloc(module_name(owner));
	if (!client->file) {
		ret = -ENOMEM;
		goto err_ida;
	}
	client->file->mapping = dxgpmo_shared_mapping;
	adapter = dxgpmo_adapter_register(dev, &client->adapter_ops,
					  client->index, client, client->file);
	if (IS_ERR(adapter)) {
		ret = PTR_ERR(adapter);
		goto err_file;
	}
	/* From here the adapter frees the client (and its index). */
	client->adapter = adapter;
	dr = devres_alloc(dxgpmo_client_devres_release, sizeof(*dr),
			  GFP_KERNEL);
	if (!dr) {
		dxgpmo_client_release(client);
		return ERR_PTR(-ENOMEM);
	}
	dr->client = client;
	kref_get(&adapter->kref);
	mutex_lock(&dxgpmo_clients_lock);
	list_add_tail(&client->node, &dxgpmo_clients);
	mutex_unlock(&dxgpmo_clients_lock);
	devres_add(dev, dr);
	return client;

err_file:
	dxgpmo_file_destroy(client->file);
err_ida:
	ida_free(&dxgpmo_client_ida, client->index);
err_free:
	kfree(client);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_NS_GPL(__dxgpmo_client_open, DXGPMO_NS);

/**
 * dxgpmo_client_close() - close a client and everything it still holds
 * @client: the client, after its last call returned
 *
 * Objects left open are destroyed as at the close of /dev/dxgpmo and
 * counted as leaked (STATS); ADLs are unmapped from the device first.
 * dma-bufs exported from the client's objects keep their pages.
 *
 * Context: process context, may sleep; remove() at the latest.  Not from a
 * devres action registered before dxgpmo_client_open(): devres runs in
 * reverse order, so the client's own entry has closed and freed the
 * client by then.  One registered after it runs first, and may.
 */
void dxgpmo_client_close(struct dxgpmo_client *client)
{
	struct dxgpmo_adapter *adapter = client->adapter;
	bool claimed;

	/*
	 * Claimed before the entry goes, so that the entry's release finds
	 * the client closed and only drops its reference (no warning: this
	 * is the close it warns about the lack of).
	 */
	kref_get(&adapter->kref);
	claimed = dxgpmo_client_claim_close(client);
	dxgpmo_client_drop_devres(client);
	if (claimed)
		dxgpmo_client_release(client);
	dxgpmo_adapter_put(adapter);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_close, DXGPMO_NS);

/**
 * dxgpmo_client_priv() - the driver's pointer given at open
 * @client: the client
 *
 * Return: @priv of dxgpmo_client_open().
 */
void *dxgpmo_client_priv(struct dxgpmo_client *client)
{
	return client->priv;
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_priv, DXGPMO_NS);

/**
 * dxgpmo_client_adapter_id() - the id of the client's own adapter
 * @client: the client
 *
 * For the adapter_id of CREATE_PMO, OPEN_PMO and CREATE_MEMORY_BASIS; the
 * adapter's segment is the one dxgpmo_client_segment_transfer() reaches.
 *
 * Return: the adapter id.
 */
u32 dxgpmo_client_adapter_id(struct dxgpmo_client *client)
{
	return client->adapter->id;
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_adapter_id, DXGPMO_NS);

/**
 * dxgpmo_client_create_pmo() - DxgkCbCreatePhysicalMemoryObject
 * @client: the client
 * @args: CREATE_PMO's block; adapter_id may be the client's adapter (an
 *	AMO is opened with the PMO) or 0
 *
 * As CREATE_PMO, with every window and cache type open to the client
 * (privilege.c), but no IO_SPACE (-EOPNOTSUPP: a driver maps its own
 * BARs with pci_iomap()); the pages are charged to the client's own caps.
 * mmap_offset is of no use to a kernel client.
 *
 * Return: 0 with pmo_id (and amo_id) filled, or CREATE_PMO's errors.
 */
int dxgpmo_client_create_pmo(struct dxgpmo_client *client,
			     struct dxgpmo_create_pmo *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_CREATE_PMO, args,
				   sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_create_pmo, DXGPMO_NS);

/**
 * dxgpmo_client_destroy_pmo() - DxgkCbDestroyPhysicalMemoryObject
 * @client: the client
 * @args: DESTROY_PMO's block: the PMO, and its AMO, closed in the same
 *	call, or 0
 *
 * A PMO whose AMO still has ADLs is the driver leaking locked pages:
 * -EBUSY and a warning with adl_leak=warn (the default), panic() with
 * adl_leak=bug, as the Windows bugcheck stops the machine.
 *
 * Return: 0, or DESTROY_PMO's errors (-EBUSY while a map or an ADL holds it).
 */
int dxgpmo_client_destroy_pmo(struct dxgpmo_client *client,
			      struct dxgpmo_destroy_pmo *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_DESTROY_PMO, args,
				   sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_destroy_pmo, DXGPMO_NS);

/**
 * dxgpmo_client_open_pmo() - DxgkCbOpenPhysicalMemoryObject
 * @client: the client
 * @args: OPEN_PMO's block: the PMO and the adapter (usually
 *	dxgpmo_client_adapter_id()); amo_id, 0 on entry, is the new AMO
 *
 * Return: 0, or OPEN_PMO's errors (-EBUSY: the PMO has an AMO).
 */
int dxgpmo_client_open_pmo(struct dxgpmo_client *client,
			   struct dxgpmo_open_pmo *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_OPEN_PMO, args,
				   sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_open_pmo, DXGPMO_NS);

/**
 * dxgpmo_client_close_pmo() - DxgkCbClosePhysicalMemoryObject
 * @client: the client
 * @args: CLOSE_PMO's block: the AMO
 *
 * Return: 0, or CLOSE_PMO's errors (-EBUSY while it has ADLs).
 */
int dxgpmo_client_close_pmo(struct dxgpmo_client *client,
			    struct dxgpmo_close_pmo *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_CLOSE_PMO, args,
				   sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_close_pmo, DXGPMO_NS);

/**
 * dxgpmo_client_allocate_adl() - DxgkCbAllocateAdl
 * @client: the client
 * @args: ALLOCATE_ADL's block, its pages field 0
 * @pages: the page array, pages_capacity entries, or NULL
 *
 * As ALLOCATE_ADL: the device addresses of the range, for the AMO's
 * adapter, in @pages or as one contiguous run (adl_flags, base_page).
 *
 * Return: 0, or ALLOCATE_ADL's errors.
 */
int dxgpmo_client_allocate_adl(struct dxgpmo_client *client,
			       struct dxgpmo_allocate_adl *args, u64 *pages)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_ALLOCATE_ADL, args,
				   sizeof(*args), pages);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_allocate_adl, DXGPMO_NS);

/**
 * dxgpmo_client_free_adl() - DxgkCbFreeAdl
 * @client: the client
 * @args: FREE_ADL's block: the ADL
 *
 * The device is cut off before this returns, lazy IOMMU or not.
 *
 * Return: 0, or FREE_ADL's errors.
 */
int dxgpmo_client_free_adl(struct dxgpmo_client *client,
			   struct dxgpmo_free_adl *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_FREE_ADL, args,
				   sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_free_adl, DXGPMO_NS);

/**
 * dxgpmo_client_map() - DxgkCbMapPhysicalMemory in kernel mode
 * @client: the client
 * @args: MAP's block, access_mode %DXGPMO_ACCESS_KERNEL
 *
 * A kernel view of the pages the range covers, with the object's cache
 * type; a read-only SECTION's view is read-only (a write oopses).  On success
 * address is the view's first page and offset where the range starts in
 * it: dxgpmo_map_pointer().  User mode is -EOPNOTSUPP: a client has no
 * process of its own; a driver that maps an object for a process exports
 * it (dxgpmo_client_export_dmabuf()) and calls dma_buf_mmap() from its own
 * mmap().
 *
 * Return: 0, or MAP's errors.
 */
int dxgpmo_client_map(struct dxgpmo_client *client, struct dxgpmo_map *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_MAP, args,
				   sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_map, DXGPMO_NS);

/**
 * dxgpmo_client_unmap() - DxgkCbUnmapPhysicalMemory
 * @client: the client
 * @args: UNMAP's block: the PMO, and the view's address and length as
 *	dxgpmo_client_map() returned them
 *
 * Return: 0, or UNMAP's errors.
 */
int dxgpmo_client_unmap(struct dxgpmo_client *client, struct dxgpmo_unmap *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_UNMAP, args,
				   sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_unmap, DXGPMO_NS);

/**
 * dxgpmo_client_create_memory_basis() - DxgkDdiCreateMemoryBasis
 * @client: the client
 * @args: CREATE_MEMORY_BASIS's block, its ranges field 0
 * @ranges: range_count ranges of the adapter's segment
 *
 * Return: 0 with basis_id filled, or CREATE_MEMORY_BASIS's errors.
 */
int dxgpmo_client_create_memory_basis(struct dxgpmo_client *client,
				      struct dxgpmo_create_memory_basis *args,
				      const struct dxgpmo_memory_range *ranges)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_CREATE_MEMORY_BASIS,
				   args, sizeof(*args), ranges);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_create_memory_basis, DXGPMO_NS);

/**
 * dxgpmo_client_destroy_memory_basis() - DxgkDdiDestroyMemoryBasis
 * @client: the client
 * @args: DESTROY_MEMORY_BASIS's block: the basis
 *
 * Return: 0, or DESTROY_MEMORY_BASIS's errors.
 */
int dxgpmo_client_destroy_memory_basis(struct dxgpmo_client *client,
				       struct dxgpmo_destroy_memory_basis *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_DESTROY_MEMORY_BASIS,
				   args, sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_destroy_memory_basis, DXGPMO_NS);

/**
 * dxgpmo_client_start_dirty_tracking() - DxgkDdiStartDirtyTracking
 * @client: the client
 * @args: START_DIRTY_TRACKING's block: the basis
 *
 * Return: 0, or START_DIRTY_TRACKING's errors.
 */
int dxgpmo_client_start_dirty_tracking(struct dxgpmo_client *client,
				       struct dxgpmo_dirty_tracking *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_START_DIRTY_TRACKING,
				   args, sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_start_dirty_tracking, DXGPMO_NS);

/**
 * dxgpmo_client_stop_dirty_tracking() - DxgkDdiStopDirtyTracking
 * @client: the client
 * @args: STOP_DIRTY_TRACKING's block: the basis
 *
 * Return: 0, or STOP_DIRTY_TRACKING's errors.
 */
int dxgpmo_client_stop_dirty_tracking(struct dxgpmo_client *client,
				      struct dxgpmo_dirty_tracking *args)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_STOP_DIRTY_TRACKING,
				   args, sizeof(*args), NULL);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_stop_dirty_tracking, DXGPMO_NS);

/**
 * dxgpmo_client_query_dirty_bits() - DxgkDdiQueryDirtyBitData
 * @client: the client
 * @args: QUERY_DIRTY_BITS's block, its buffer field 0
 * @bits: buffer_size bytes for the bits
 *
 * As QUERY_DIRTY_BITS: one bit a dirty page of the basis (or of the
 * subrange asked for), bit 0 of @bits first, set if the page was written
 * since the bit was last cleared; with %DXGPMO_DIRTY_CLEAR_DATA in
 * args->flags, the bits read are cleared.  -ENOSPC with args->buffer_size
 * set to what is needed if it is too small.
 *
 * Return: 0, or QUERY_DIRTY_BITS's errors.
 */
int dxgpmo_client_query_dirty_bits(struct dxgpmo_client *client,
				   struct dxgpmo_query_dirty_bits *args, void *bits)
{
	return dxgpmo_ioctl_kernel(client->file, DXGPMO_IOC_QUERY_DIRTY_BITS,
				   args, sizeof(*args), bits);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_query_dirty_bits, DXGPMO_NS);

/**
 * dxgpmo_client_segment_transfer() - the device's engine on its segment
 * @client: a client opened with an ops->transfer
 * @to_memory: the engine writes @buf into the segment, else reads it
 * @segment_offset: where in the client adapter's segment
 * @buf: kernel memory
 * @len: bytes
 *
 * Each page of the range is mapped for the device, ops->transfer is called
 * with its device address, and the pages the device wrote are marked
 * dirty in every tracked basis, as ADAPTER_DMA into a segment does.
 *
 * Return: 0, -EOPNOTSUPP without ops->transfer, -EINVAL out of the
 * segment, -ENODEV after the client's adapter was removed, or what
 * ops->transfer returned.
 */
int dxgpmo_client_segment_transfer(struct dxgpmo_client *client, bool to_memory,
				   u64 segment_offset, void *buf, size_t len)
{
	struct dxgpmo_adapter *adapter = client->adapter;
	int ret;

	might_sleep();
	if (!(adapter->caps & DXGPMO_ADAPTER_CAP_DMA_ENGINE))
		return -EOPNOTSUPP;
	if (!dxgpmo_adapter_begin_access(adapter))
		return -ENODEV;
	ret = dxgpmo_adapter_segment_dma(adapter, to_memory, segment_offset, buf,
					 len);
	dxgpmo_adapter_end_access(adapter);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_segment_transfer, DXGPMO_NS);

/**
 * dxgpmo_client_export_dmabuf() - a PMO's pages as a dma-buf
 * @client: the client
 * @pmo_id: the PMO
 * @read_only: the dma-buf's file is opened read-only
 *
 * As EXPORT_DMABUF without the descriptor: the caller holds the only
 * reference and drops it with dma_buf_put() (or gives it to
 * dma_buf_fd()).  The pages live as long as the dma-buf does.
 *
 * Return: the dma-buf, or EXPORT_DMABUF's errors as an ERR_PTR().
 */
struct dma_buf *dxgpmo_client_export_dmabuf(struct dxgpmo_client *client,
					    u32 pmo_id, bool read_only)
{
	struct dxgpmo_export_dmabuf args = {
		.size = sizeof(args),
		.pmo_id = pmo_id,
		.fd_flags = read_only ? O_RDONLY : O_RDWR,
	};

	might_sleep();
	return dxgpmo_dmabuf_export(client->file, &args);
}
EXPORT_SYMBOL_NS_GPL(dxgpmo_client_export_dmabuf, DXGPMO_NS);

/* An open client of mod, with a reference on its adapter; or NULL. */
static struct dxgpmo_client *dxgpmo_client_of_module(struct module *mod)
{
	struct dxgpmo_client *client, *found = NULL;

	mutex_lock(&dxgpmo_clients_lock);
	list_for_each_entry(client, &dxgpmo_clients, node) {
		if (client->owner == mod) {
			found = client;
			kref_get(&client->adapter->kref);
			break;
		}
	}
	mutex_unlock(&dxgpmo_clients_lock);
	return found;
}

/*
 * A module going away with clients open would leave their objects, the
 * device mappings of their ADLs and their adapters behind forever: they
 * are closed now.  The module's exit has run, so no call is in flight, and
 * its driver let go of its devices (which closed their clients): what is
 * left is a client of a device the module did not drive, whose devres
 * entry must not outlive it.
 *
 * Each client is closed under its device's lock, which an unbind holds
 * while it releases the device's devres: an unbind in progress finishes
 * first (and closes the client itself), one that comes later finds the
 * entry gone, and the device keeps its IOMMU group meanwhile.  A closed
 * client leaves the list, so the loop ends.
 */
static int dxgpmo_client_module_notify(struct notifier_block *nb,
				       unsigned long action, void *data)
{
	struct dxgpmo_client *client;
	struct module *mod = data;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	while ((client = dxgpmo_client_of_module(mod))) {
		struct dxgpmo_adapter *adapter = client->adapter;
		struct device *dev = adapter->dev;

		device_lock(dev);
		if (dxgpmo_client_claim_close(client)) {
			pr_warn("dxgpmo: %s unloaded with client %s open: closing it\n",
				mod->name, adapter->name);
			dxgpmo_client_release(client);
		}
		/* This module's code must not be called by the device later. */
		dxgpmo_client_drop_devres(client);
		device_unlock(dev);
		dxgpmo_adapter_put(adapter);
	}
	return NOTIFY_OK;
}

static struct notifier_block dxgpmo_client_module_nb = {
	.notifier_call = dxgpmo_client_module_notify,
};

int dxgpmo_clients_init(void)
{
	return register_module_notifier(&dxgpmo_client_module_nb);
}

/*
 * No client is open: a client's module uses this module's symbols, so
 * this module cannot go before it, and its going closes its clients.
 */
void dxgpmo_clients_exit(void)
{
	unregister_module_notifier(&dxgpmo_client_module_nb);
}
