// SPDX-License-Identifier: GPL-2.0-only
/*
 * Operating Performance Points (OPP) library.
 *
 * The 2.6.37 design (per-device tables read under RCU, written under a
 * mutex) with its defects fixed and its data laid out for speed:
 *
 * - The device -> table map is an rhashtable keyed by the device pointer,
 *   so a lookup costs the same with one device or a thousand. The library
 *   holds a reference on every device it has a table for, so the address
 *   cannot be recycled into a new device while the table exists.
 * - A table is a sorted array of OPPs published with rcu_assign_pointer()
 *   and searched by bisection. Adding or removing an OPP publishes a new
 *   copy and frees the old one after a grace period (kfree_rcu()); nobody
 *   waits for that grace period.
 * - Availability is a flag flipped in place (WRITE_ONCE/READ_ONCE): a
 *   reader sees an OPP either before or after the change, and enabling or
 *   disabling needs neither an allocation nor a grace period.
 *
 * Every table has at least one OPP: removing the last one removes the
 * table and drops the device reference.
 *
 * Notifier chains (allocated on the first registration, since most tables
 * never have one) are called under the update mutex, right after a change
 * is published: events reach every listener in update order and a table
 * cannot vanish under its own notification. Being called under a mutex,
 * the chain is a blocking one: an SRCU chain would buy nothing here, and
 * srcu_init_notifier_head() BUG()s where it fails to allocate.
 *
 * The file follows opp.h, one section each: data; internals; updaters;
 * notifiers; device tree; searches and accessors; copy-out lookups;
 * cpufreq glue; debugfs and module load/unload.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "opp.h"

/* ---- Data: OPPs, their arrays, tables, the device map ---- */

struct opp {
	unsigned long rate;
	unsigned long u_volt;
	bool available;
};

/* One immutable-length snapshot of a device's OPPs, sorted by rate. */
struct opp_array {
	struct rcu_head rcu;
	unsigned int count;
	struct opp opp[];
};

/* A device's table (2.6.37 called it struct device_opp). */
struct opp_table {
	struct rhash_head map_node;
	struct device *dev;
	struct opp_array __rcu *opps;
	struct list_head list_node;
	struct blocking_notifier_head *notifiers;
	struct rcu_head rcu;
};

/*
 * The key is a pointer: hash and compare it as one, not as bytes (every
 * lookup pays for this). Devices are at least cache-line aligned, so the
 * low bits of a multiplicative hash carry nothing; the bucket index is
 * taken from the low bits, hence the rotation.
 */
static u32 opp_table_hash(const void *key, u32 len, u32 seed)
{
	return ror32(hash_ptr(*(struct device * const *)key, 32), 16) ^ seed;
}

static int opp_table_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct opp_table *table = obj;

	return table->dev != *(struct device * const *)arg->key;
}

static const struct rhashtable_params opp_table_params = {
	.key_len = sizeof(struct device *),
	.key_offset = offsetof(struct opp_table, dev),
	.head_offset = offsetof(struct opp_table, map_node),
	.hashfn = opp_table_hash,
	.obj_cmpfn = opp_table_cmp,
	.automatic_shrinking = true,
};

static struct rhashtable opp_table_by_dev;

/* Serializes every update of every table, of the map and of opp_table_list. */
static DEFINE_MUTEX(opp_lock);

/* Every table in creation order, for debugfs and unload. */
static LIST_HEAD(opp_table_list);

static struct dentry *opp_debugfs_dir;

/* ---- Internals shared by readers and updaters ---- */

static bool opp_bad_dev(struct device *dev, const char *func)
{
	if (!IS_ERR_OR_NULL(dev))
		return false;
	pr_warn_ratelimited("%s: invalid device %p\n", func, dev);
	return true;
}

/* Index of the first OPP whose rate is >= @freq, or arr->count. */
static unsigned int opp_lower_bound(const struct opp_array *arr,
				    unsigned long freq)
{
	unsigned int lo = 0, hi = arr->count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (arr->opp[mid].rate < freq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the first OPP whose rate is > @freq, or arr->count. */
static unsigned int opp_upper_bound(const struct opp_array *arr,
				    unsigned long freq)
{
	unsigned int lo = 0, hi = arr->count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (arr->opp[mid].rate <= freq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Reader side: the current snapshot of @dev's table, or an ERR_PTR. */
static struct opp_array *opp_array_rcu(struct device *dev, const char *func)
{
	struct opp_table *table;

	if (opp_bad_dev(dev, func))
		return ERR_PTR(-EINVAL);
	table = rhashtable_lookup(&opp_table_by_dev, &dev, opp_table_params);
	if (!table)
		return ERR_PTR(-ENODEV);
	return rcu_dereference(table->opps);
}

/* Updater side: @dev's table, or NULL. */
static struct opp_table *opp_table_locked(struct device *dev)
{
	lockdep_assert_held(&opp_lock);
	/* The _fast variant holds RCU for the walk; opp_lock keeps @table. */
	return rhashtable_lookup_fast(&opp_table_by_dev, &dev, opp_table_params);
}

static struct opp_array *opp_array_locked(struct opp_table *table)
{
	return rcu_dereference_protected(table->opps, lockdep_is_held(&opp_lock));
}

static struct opp_array *opp_array_alloc(unsigned int count)
{
	struct opp_array *arr;

	arr = kmalloc(struct_size(arr, opp, count), GFP_KERNEL);
	if (arr)
		arr->count = count;
	return arr;
}

static void opp_notify(struct opp_table *table, enum dev_pm_opp_event event,
		       const struct opp *opp)
{
	struct opp_info info = {
		.rate = opp->rate,
		.u_volt = opp->u_volt,
		.available = opp->available,
	};

	lockdep_assert_held(&opp_lock);
	if (table->notifiers)
		blocking_notifier_call_chain(table->notifiers, event, &info);
}

/* Free @table, already unpublished; readers still inside keep valid memory. */
static void opp_table_free(struct opp_table *table)
{
	/* Calls only happen under opp_lock: none is in flight. */
	kfree(table->notifiers);
	/*
	 * A reader compares table->dev but never dereferences it, and a new
	 * device at the same address can only appear after this put, when
	 * @table can no longer be found; so the put need not wait for readers.
	 */
	put_device(table->dev);
	kfree_rcu(opp_array_locked(table), rcu);
	kfree_rcu(table, rcu);
}

static void opp_table_remove(struct opp_table *table)
{
	struct opp_array *arr = opp_array_locked(table);
	unsigned int i;

	rhashtable_remove_fast(&opp_table_by_dev, &table->map_node,
			       opp_table_params);
	list_del(&table->list_node);
	for (i = 0; i < arr->count; i++)
		opp_notify(table, OPP_EVENT_REMOVE, &arr->opp[i]);
	opp_table_free(table);
}

static int opp_cmp_rate(const void *a, const void *b)
{
	const struct opp *x = a, *y = b;

	return x->rate < y->rate ? -1 : x->rate > y->rate;
}

/*
 * Merge @n points, sorted by rate, into @dev's table in one copy, so that
 * readers see all of them or none. A point already present with the same
 * voltage and available is skipped; one present otherwise is -EEXIST and
 * nothing is added.
 */
static int opp_add_points(struct device *dev, const struct opp *pts,
			  unsigned int n)
{
	struct opp_array *old = NULL, *arr;
	struct opp_table *table, *fresh;
	unsigned int i, j, k, fresh_n = 0, old_n = 0;
	int ret = 0;

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (table) {
		old = opp_array_locked(table);
		old_n = old->count;
	}
	for (i = 0; i < n; i++) {
		j = old ? opp_lower_bound(old, pts[i].rate) : 0;
		if (j == old_n || old->opp[j].rate != pts[i].rate) {
			fresh_n++;
			continue;
		}
		if (old->opp[j].u_volt != pts[i].u_volt ||
		    !old->opp[j].available) {
			ret = -EEXIST;
			goto unlock;
		}
	}
	if (!fresh_n)
		goto unlock;

	arr = opp_array_alloc(old_n + fresh_n);
	if (!arr) {
		ret = -ENOMEM;
		goto unlock;
	}
	for (i = 0, j = 0, k = 0; i < n || j < old_n; ) {
		if (j < old_n && (i == n || old->opp[j].rate <= pts[i].rate)) {
			if (i < n && pts[i].rate == old->opp[j].rate)
				i++;	/* identical to the present one */
			arr->opp[k++] = old->opp[j++];
		} else {
			arr->opp[k++] = pts[i++];
		}
	}

	if (!table) {
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
		if (!fresh) {
			kfree(arr);
			ret = -ENOMEM;
			goto unlock;
		}
		fresh->dev = get_device(dev);
		RCU_INIT_POINTER(fresh->opps, arr);
		/* Publishing the hash entry orders the initialisation above. */
		ret = rhashtable_insert_fast(&opp_table_by_dev, &fresh->map_node,
					     opp_table_params);
		if (ret) {
			put_device(dev);
			kfree(arr);
			kfree(fresh);
			goto unlock;
		}
		list_add_tail(&fresh->list_node, &opp_table_list);
		goto unlock;
	}

	rcu_assign_pointer(table->opps, arr);
	/* Both sorted: what @arr has and @old had not is new. */
	for (j = 0, k = 0; k < arr->count; k++) {
		if (j < old_n && old->opp[j].rate == arr->opp[k].rate)
			j++;
		else
			opp_notify(table, OPP_EVENT_ADD, &arr->opp[k]);
	}
	kfree_rcu(old, rcu);
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}

/* ---- Updaters: add, enable, disable, remove ---- */

/**
 * opp_add() - add an OPP to a device's table
 * @dev:	the device (one clock/voltage domain) the OPP belongs to
 * @freq:	frequency in Hz; must not be 0
 * @u_volt:	voltage in microvolts
 *
 * Creates @dev's table on first use (and takes a reference on @dev until
 * the table is removed) and inserts the OPP in frequency order. The new
 * OPP is available. Re-adding an OPP that is present with the same
 * voltage and available does nothing and succeeds, so that a driver that
 * probes again can register its table again.
 *
 * Notifies OPP_EVENT_ADD when an OPP was added.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock(). Concurrent readers see the
 * table either without or with the new OPP.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @freq is
 * 0; -EEXIST if @freq is already in the table with another voltage, or
 * disabled; -ENOMEM if memory ran out. On error the table is unchanged.
 */
int opp_add(struct device *dev, unsigned long freq, unsigned long u_volt)
{
	struct opp pt = { .rate = freq, .u_volt = u_volt, .available = true };

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!freq) {
		/* The accessors return 0 for "no OPP": 0 Hz cannot be an OPP. */
		dev_warn_ratelimited(dev, "%s: frequency 0\n", __func__);
		return -EINVAL;
	}
	return opp_add_points(dev, &pt, 1);
}
EXPORT_SYMBOL_GPL(opp_add);

static int opp_set_availability(struct device *dev, unsigned long freq,
				bool available, const char *func)
{
	struct opp_table *table;
	struct opp_array *arr;
	unsigned int i;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, func))
		return -EINVAL;

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (!table) {
		ret = -ENODEV;
		goto unlock;
	}
	arr = opp_array_locked(table);
	i = opp_lower_bound(arr, freq);
	if (i == arr->count || arr->opp[i].rate != freq) {
		ret = -ENODEV;
		goto unlock;
	}
	if (arr->opp[i].available == available)
		goto unlock;
	/*
	 * In place: a byte is never torn, rate and voltage do not change,
	 * and so readers need no new copy and we need no grace period.
	 */
	WRITE_ONCE(arr->opp[i].available, available);
	opp_notify(table, available ? OPP_EVENT_ENABLE : OPP_EVENT_DISABLE,
		   &arr->opp[i]);
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}

/**
 * opp_enable() - make an OPP available again
 * @dev:	the device whose table holds the OPP
 * @freq:	the OPP's exact frequency in Hz
 *
 * Searches see the OPP again. Enabling an available OPP succeeds and
 * changes nothing; otherwise OPP_EVENT_ENABLE is notified. Returns without
 * waiting for an RCU grace period.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no table or the table has no OPP at @freq.
 */
int opp_enable(struct device *dev, unsigned long freq)
{
	return opp_set_availability(dev, freq, true, __func__);
}
EXPORT_SYMBOL_GPL(opp_enable);

/**
 * opp_disable() - make an OPP unavailable without removing it
 * @dev:	the device whose table holds the OPP
 * @freq:	the OPP's exact frequency in Hz
 *
 * Typically used by thermal or power management code to forbid an OPP for
 * a while. The ceil and floor searches and the count skip it; only
 * opp_find_freq_exact() with @available false finds it. Disabling a
 * disabled OPP succeeds and changes nothing; otherwise OPP_EVENT_DISABLE is
 * notified. Returns without waiting for an RCU grace period.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no table or the table has no OPP at @freq.
 */
int opp_disable(struct device *dev, unsigned long freq)
{
	return opp_set_availability(dev, freq, false, __func__);
}
EXPORT_SYMBOL_GPL(opp_disable);

/**
 * opp_remove() - remove one OPP from a device's table
 * @dev:	the device whose table holds the OPP
 * @freq:	the OPP's exact frequency in Hz
 *
 * Notifies OPP_EVENT_REMOVE. Removing the last OPP removes the table (with
 * its notifier chain) and drops the library's reference on @dev. Readers
 * that found the OPP before it was removed may keep using it until their
 * rcu_read_unlock(); its memory is freed after a grace period, without
 * waiting for one here.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no table or the table has no OPP at @freq; -ENOMEM if memory
 * ran out (the table is then unchanged).
 */
int opp_remove(struct device *dev, unsigned long freq)
{
	struct opp_array *old, *arr;
	struct opp_table *table;
	unsigned int i, n;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (!table) {
		ret = -ENODEV;
		goto unlock;
	}
	old = opp_array_locked(table);
	n = old->count;
	i = opp_lower_bound(old, freq);
	if (i == n || old->opp[i].rate != freq) {
		ret = -ENODEV;
		goto unlock;
	}
	if (n == 1) {
		opp_table_remove(table);
		goto unlock;
	}

	arr = opp_array_alloc(n - 1);
	if (!arr) {
		ret = -ENOMEM;
		goto unlock;
	}
	memcpy(arr->opp, old->opp, i * sizeof(*arr->opp));
	memcpy(arr->opp + i, old->opp + i + 1, (n - i - 1) * sizeof(*arr->opp));
	rcu_assign_pointer(table->opps, arr);
	opp_notify(table, OPP_EVENT_REMOVE, &old->opp[i]);
	kfree_rcu(old, rcu);
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_remove);

/**
 * opp_remove_table() - remove a device's whole table
 * @dev:	the device whose table to remove
 *
 * Notifies OPP_EVENT_REMOVE for each OPP, then drops the table's notifier
 * chain and the library's reference on @dev. Readers inside the table keep
 * valid memory until their rcu_read_unlock(); it is freed after a grace
 * period, without waiting for one here.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no table.
 */
int opp_remove_table(struct device *dev)
{
	struct opp_table *table;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (table)
		opp_table_remove(table);
	else
		ret = -ENODEV;
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_remove_table);

/* ---- Notifiers ---- */

/* The table whose chain holds @nb, or NULL. */
static struct opp_table *opp_notifier_owner(struct notifier_block *nb)
{
	struct notifier_block *p;
	struct opp_table *table;

	lockdep_assert_held(&opp_lock);
	list_for_each_entry(table, &opp_table_list, list_node) {
		if (!table->notifiers)
			continue;
		/* Chains only change under opp_lock, which we hold. */
		for (p = rcu_dereference_protected(table->notifiers->head, true); p;
		     p = rcu_dereference_protected(p->next, true))
			if (p == nb)
				return table;
	}
	return NULL;
}

/**
 * opp_register_notifier() - be told of every change to a device's table
 * @dev:	the device whose table to watch
 * @nb:		the notifier; its callback gets an &enum dev_pm_opp_event and a
 *		&struct opp_info of the OPP concerned, valid during the call
 *
 * The callback runs after the change is visible to searches, in update
 * order, under the library's update mutex: it may search the table (any
 * search, opp_lookup_*(), opp_init_cpufreq_table()) but must not call an
 * updater or (un)register a notifier, and should be quick (defer work to a
 * work item). The registration ends with the table: once the table is
 * removed (after the callback got OPP_EVENT_REMOVE for each of its OPPs)
 * @nb is no longer called, and opp_unregister_notifier() returns -ENODEV.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @nb is
 * NULL; -ENODEV if @dev has no table; -ENOMEM if memory ran out; -EEXIST
 * if @nb is already registered, for this device or another.
 */
int opp_register_notifier(struct device *dev, struct notifier_block *nb)
{
	struct blocking_notifier_head *head;
	struct opp_table *table;
	int ret;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!nb) {
		dev_warn_ratelimited(dev, "%s: notifier is NULL\n", __func__);
		return -EINVAL;
	}

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (!table) {
		ret = -ENODEV;
		goto unlock;
	}
	if (!table->notifiers) {
		head = kzalloc(sizeof(*head), GFP_KERNEL);
		if (!head) {
			ret = -ENOMEM;
			goto unlock;
		}
		BLOCKING_INIT_NOTIFIER_HEAD(head);
		table->notifiers = head;
	}
	/*
	 * The chain would WARN on a double registration, and a block on two
	 * chains would corrupt both: refuse both cleanly.
	 */
	ret = opp_notifier_owner(nb) ? -EEXIST :
		blocking_notifier_chain_register(table->notifiers, nb);
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_register_notifier);

/**
 * opp_unregister_notifier() - stop being told of a device's table changes
 * @dev:	the device whose table was watched
 * @nb:		the notifier given to opp_register_notifier()
 *
 * When this returns, @nb's callback is not running and will not run again.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock() nor from a notifier callback.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @nb is
 * NULL; -ENODEV if @dev has no table (a removed table took its
 * registrations with it); -ENOENT if @nb is not registered for @dev.
 */
int opp_unregister_notifier(struct device *dev, struct notifier_block *nb)
{
	struct opp_table *table;
	int ret = -ENOENT;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!nb) {
		dev_warn_ratelimited(dev, "%s: notifier is NULL\n", __func__);
		return -EINVAL;
	}

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (!table)
		ret = -ENODEV;
	else if (opp_notifier_owner(nb) == table)
		ret = blocking_notifier_chain_unregister(table->notifiers, nb);
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_unregister_notifier);

/* ---- Device tree ---- */

/**
 * opp_of_add_table() - add the OPPs a device's node describes
 * @dev:	the device; its of_node carries the table
 *
 * Reads the node's ``operating-points`` property, a list of
 * ``<kHz microvolts>`` cell pairs, and adds every OPP in one update: a
 * concurrent reader sees all of them or none. Pairs may come in any order;
 * a pair repeated identically counts once. Any fault in the property
 * rejects it whole and adds nothing. OPPs already in the table follow the
 * rule of opp_add(). Notifies OPP_EVENT_ADD for each OPP added.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or has no
 * device tree node, or the property is malformed (empty, an odd number of
 * cells, a frequency of 0 or too large for a rate in Hz, one frequency
 * with two voltages); -ENODEV if the node has no such property; -EEXIST if
 * an OPP conflicts with the table; -ENOMEM if memory ran out.
 */
int opp_of_add_table(struct device *dev)
{
	struct device_node *np;
	struct opp *pts;
	unsigned int i, n;
	u32 *cells;
	int ret;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	np = dev->of_node;
	if (!np) {
		dev_warn_ratelimited(dev, "%s: no device tree node\n", __func__);
		return -EINVAL;
	}
	if (!of_find_property(np, "operating-points", NULL))
		return -ENODEV;
	ret = of_property_count_u32_elems(np, "operating-points");
	if (ret <= 0 || ret % 2) {
		dev_warn_ratelimited(dev, "%pOF: malformed operating-points\n",
				     np);
		return -EINVAL;
	}
	n = ret / 2;

	cells = kmalloc_array(n, 2 * sizeof(*cells), GFP_KERNEL);
	pts = kmalloc_array(n, sizeof(*pts), GFP_KERNEL);
	if (!cells || !pts) {
		ret = -ENOMEM;
		goto out;
	}
	ret = of_property_read_u32_array(np, "operating-points", cells, 2 * n);
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		if (!cells[2 * i] || cells[2 * i] > ULONG_MAX / 1000) {
			dev_warn_ratelimited(dev, "%pOF: bad frequency %u kHz\n",
					     np, cells[2 * i]);
			ret = -EINVAL;
			goto out;
		}
		pts[i].rate = (unsigned long)cells[2 * i] * 1000;
		pts[i].u_volt = cells[2 * i + 1];
		pts[i].available = true;
	}
	sort(pts, n, sizeof(*pts), opp_cmp_rate, NULL);
	/* Collapse identical repeats; one rate with two voltages is a fault. */
	for (i = 1, ret = 1; i < n; i++) {
		if (pts[i].rate != pts[ret - 1].rate) {
			pts[ret++] = pts[i];
		} else if (pts[i].u_volt != pts[ret - 1].u_volt) {
			dev_warn_ratelimited(dev, "%pOF: two voltages for %lu Hz\n",
					     np, pts[i].rate);
			ret = -EINVAL;
			goto out;
		}
	}
	ret = opp_add_points(dev, pts, ret);
out:
	kfree(pts);
	kfree(cells);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_of_add_table);

/* ---- Searches and accessors (the caller holds rcu_read_lock()) ---- */

/**
 * opp_find_freq_exact() - find the OPP at a frequency, by availability
 * @dev:	the device whose table to search
 * @freq:	the exact frequency in Hz
 * @available:	whether the OPP looked for is available or disabled
 *
 * The only search that can return a disabled OPP: a thermal or power
 * management user finds the OPP it is about to enable this way, with
 * @available false.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP whose rate is @freq and whose availability is
 * @available; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR;
 * ERR_PTR(-ENODEV) if @dev has no table; ERR_PTR(-ERANGE) if no OPP
 * matches.
 */
struct opp *opp_find_freq_exact(struct device *dev, unsigned long freq,
				bool available)
{
	struct opp_array *arr = opp_array_rcu(dev, __func__);
	unsigned int i;

	if (IS_ERR(arr))
		return ERR_CAST(arr);
	i = opp_lower_bound(arr, freq);
	if (i < arr->count && arr->opp[i].rate == freq &&
	    READ_ONCE(arr->opp[i].available) == available)
		return &arr->opp[i];
	return ERR_PTR(-ERANGE);
}
EXPORT_SYMBOL_GPL(opp_find_freq_exact);

/**
 * opp_find_freq_ceil() - find the lowest available OPP at or above a rate
 * @dev:	the device whose table to search
 * @freq:	in: the lowest acceptable frequency in Hz; out: the rate of
 *		the OPP found (untouched on error)
 *
 * Walking a table upwards: start with *@freq = 0 and add 1 to *@freq
 * after each OPP found.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR or
 * @freq is NULL; ERR_PTR(-ENODEV) if @dev has no table; ERR_PTR(-ERANGE)
 * if no available OPP has a rate >= *@freq.
 */
struct opp *opp_find_freq_ceil(struct device *dev, unsigned long *freq)
{
	struct opp_array *arr;
	unsigned int i;

	if (unlikely(!freq)) {
		pr_warn_ratelimited("%s: freq is NULL\n", __func__);
		return ERR_PTR(-EINVAL);
	}
	arr = opp_array_rcu(dev, __func__);
	if (IS_ERR(arr))
		return ERR_CAST(arr);
	for (i = opp_lower_bound(arr, *freq); i < arr->count; i++) {
		if (READ_ONCE(arr->opp[i].available)) {
			*freq = arr->opp[i].rate;
			return &arr->opp[i];
		}
	}
	return ERR_PTR(-ERANGE);
}
EXPORT_SYMBOL_GPL(opp_find_freq_ceil);

/**
 * opp_find_freq_floor() - find the highest available OPP at or below a rate
 * @dev:	the device whose table to search
 * @freq:	in: the highest acceptable frequency in Hz; out: the rate of
 *		the OPP found (untouched on error)
 *
 * *@freq = ULONG_MAX finds the highest available OPP.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR or
 * @freq is NULL; ERR_PTR(-ENODEV) if @dev has no table; ERR_PTR(-ERANGE)
 * if no available OPP has a rate <= *@freq.
 */
struct opp *opp_find_freq_floor(struct device *dev, unsigned long *freq)
{
	struct opp_array *arr;
	unsigned int i;

	if (unlikely(!freq)) {
		pr_warn_ratelimited("%s: freq is NULL\n", __func__);
		return ERR_PTR(-EINVAL);
	}
	arr = opp_array_rcu(dev, __func__);
	if (IS_ERR(arr))
		return ERR_CAST(arr);
	for (i = opp_upper_bound(arr, *freq); i > 0; i--) {
		if (READ_ONCE(arr->opp[i - 1].available)) {
			*freq = arr->opp[i - 1].rate;
			return &arr->opp[i - 1];
		}
	}
	return ERR_PTR(-ERANGE);
}
EXPORT_SYMBOL_GPL(opp_find_freq_floor);

/**
 * opp_get_voltage() - the voltage of an OPP found by a search
 * @opp:	the OPP, as a search returned it
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the voltage in microvolts; 0 if @opp is NULL, an ERR_PTR or
 * disabled.
 */
unsigned long opp_get_voltage(struct opp *opp)
{
	if (IS_ERR_OR_NULL(opp) || !READ_ONCE(opp->available))
		return 0;
	return opp->u_volt;
}
EXPORT_SYMBOL_GPL(opp_get_voltage);

/**
 * opp_get_freq() - the frequency of an OPP found by a search
 * @opp:	the OPP, as a search returned it
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the frequency in Hz; 0 if @opp is NULL, an ERR_PTR or disabled.
 */
unsigned long opp_get_freq(struct opp *opp)
{
	if (IS_ERR_OR_NULL(opp) || !READ_ONCE(opp->available))
		return 0;
	return opp->rate;
}
EXPORT_SYMBOL_GPL(opp_get_freq);

/**
 * opp_get_opp_count() - the number of available OPPs of a device
 * @dev:	the device whose table to count
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock(); the count may be stale once it drops it.
 *
 * Return: the number of available OPPs (0 is valid: all are disabled);
 * -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if @dev has no table.
 */
int opp_get_opp_count(struct device *dev)
{
	struct opp_array *arr = opp_array_rcu(dev, __func__);
	unsigned int i;
	int count = 0;

	if (IS_ERR(arr))
		return PTR_ERR(arr);
	for (i = 0; i < arr->count; i++)
		count += READ_ONCE(arr->opp[i].available);
	return count;
}
EXPORT_SYMBOL_GPL(opp_get_opp_count);

/* ---- Copy-out lookups (any context, no rcu_read_lock() needed) ---- */

/*
 * Copy @opp out, or pass its error on; the caller holds rcu_read_lock().
 * The availability is the one the search matched: re-reading the flag
 * could see a change made since, and report an OPP no search returns.
 */
static int opp_copy_out(struct opp *opp, bool available,
			struct opp_info *info)
{
	if (IS_ERR(opp))
		return PTR_ERR(opp);
	info->rate = opp->rate;
	info->u_volt = opp->u_volt;
	info->available = available;
	return 0;
}

/**
 * opp_lookup_exact() - copy out the OPP at a frequency, by availability
 * @dev:	the device whose table to search
 * @freq:	the exact frequency in Hz
 * @available:	whether the OPP looked for is available or disabled
 * @info:	out: the OPP's values (untouched on error)
 *
 * opp_find_freq_exact() for callers that want values, not a pointer: no
 * rcu_read_lock() is needed and nothing can dangle.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @info is
 * NULL; -ENODEV if @dev has no table; -ERANGE if no OPP matches.
 */
int opp_lookup_exact(struct device *dev, unsigned long freq, bool available,
		     struct opp_info *info)
{
	int ret;

	if (unlikely(!info))
		return -EINVAL;
	rcu_read_lock();
	ret = opp_copy_out(opp_find_freq_exact(dev, freq, available), available,
			   info);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(opp_lookup_exact);

/**
 * opp_lookup_ceil() - copy out the lowest available OPP at or above a rate
 * @dev:	the device whose table to search
 * @freq:	the lowest acceptable frequency in Hz
 * @info:	out: the OPP's values (untouched on error)
 *
 * opp_find_freq_ceil() for callers that want values, not a pointer: no
 * rcu_read_lock() is needed and nothing can dangle.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @info is
 * NULL; -ENODEV if @dev has no table; -ERANGE if no available OPP has a
 * rate >= @freq.
 */
int opp_lookup_ceil(struct device *dev, unsigned long freq,
		    struct opp_info *info)
{
	int ret;

	if (unlikely(!info))
		return -EINVAL;
	rcu_read_lock();
	ret = opp_copy_out(opp_find_freq_ceil(dev, &freq), true, info);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(opp_lookup_ceil);

/**
 * opp_lookup_floor() - copy out the highest available OPP at or below a rate
 * @dev:	the device whose table to search
 * @freq:	the highest acceptable frequency in Hz; ULONG_MAX for the top
 * @info:	out: the OPP's values (untouched on error)
 *
 * opp_find_freq_floor() for callers that want values, not a pointer: no
 * rcu_read_lock() is needed and nothing can dangle.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @info is
 * NULL; -ENODEV if @dev has no table; -ERANGE if no available OPP has a
 * rate <= @freq.
 */
int opp_lookup_floor(struct device *dev, unsigned long freq,
		     struct opp_info *info)
{
	int ret;

	if (unlikely(!info))
		return -EINVAL;
	rcu_read_lock();
	ret = opp_copy_out(opp_find_freq_floor(dev, &freq), true, info);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(opp_lookup_floor);

/* ---- cpufreq glue ---- */

/**
 * opp_init_cpufreq_table() - build a cpufreq frequency table from a device
 * @dev:	the device (usually a CPU) whose table to convert
 * @table:	out: the new table; free it with opp_free_cpufreq_table()
 *
 * One entry per available OPP in increasing order: .frequency in kHz,
 * .driver_data the entry's index; CPUFREQ_TABLE_END closes the table.
 * The entries come from one snapshot of @dev's table, read under RCU.
 *
 * Context: process context; may sleep (allocates). Takes no lock, so a
 * notifier callback may call it; must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @table is
 * NULL; -ENODEV if @dev has no table; -ENODATA if no OPP is available;
 * -ENOMEM if memory ran out. *@table is set only on success.
 */
int opp_init_cpufreq_table(struct device *dev,
			   struct cpufreq_frequency_table **table)
{
	struct cpufreq_frequency_table *ft;
	struct opp_array *arr;
	unsigned int i, j, size;
	int ret;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!table) {
		dev_warn_ratelimited(dev, "%s: table is NULL\n", __func__);
		return -EINVAL;
	}

	rcu_read_lock();
	arr = opp_array_rcu(dev, __func__);
	ret = PTR_ERR_OR_ZERO(arr);
	size = ret ? 0 : arr->count;
	rcu_read_unlock();
	if (ret)
		return ret;
	/*
	 * Allocate outside RCU for as many OPPs as the table has, then copy
	 * the table as it is then; should it have grown meanwhile, again.
	 */
	for (;;) {
		ft = kmalloc_array(size + 1, sizeof(*ft), GFP_KERNEL);
		if (!ft)
			return -ENOMEM;
		rcu_read_lock();
		arr = opp_array_rcu(dev, __func__);
		ret = PTR_ERR_OR_ZERO(arr);
		if (!ret && arr->count > size) {
			size = arr->count;
			ret = -EAGAIN;
		}
		for (i = 0, j = 0; !ret && i < arr->count; i++) {
			if (!READ_ONCE(arr->opp[i].available))
				continue;
			ft[j].flags = 0;
			ft[j].driver_data = j;
			ft[j].frequency = arr->opp[i].rate / 1000;
			j++;
		}
		rcu_read_unlock();
		if (ret != -EAGAIN)
			break;
		kfree(ft);
	}
	if (!ret && !j)
		ret = -ENODATA;
	if (ret) {
		kfree(ft);
		return ret;
	}
	ft[j].flags = 0;
	ft[j].driver_data = j;
	ft[j].frequency = CPUFREQ_TABLE_END;
	*table = ft;
	return 0;
}
EXPORT_SYMBOL_GPL(opp_init_cpufreq_table);

/**
 * opp_free_cpufreq_table() - free a table made by opp_init_cpufreq_table()
 * @dev:	the device the table was made for
 * @table:	the table; set to NULL
 *
 * Context: any context but NMI; takes no lock.
 */
void opp_free_cpufreq_table(struct device *dev,
			    struct cpufreq_frequency_table **table)
{
	if (!table)
		return;
	kfree(*table);
	*table = NULL;
}
EXPORT_SYMBOL_GPL(opp_free_cpufreq_table);

/* ---- debugfs view, module load and unload ---- */

static int opp_tables_show(struct seq_file *s, void *unused)
{
	struct opp_table *table;
	struct opp_array *arr;
	unsigned int i;

	seq_printf(s, "%-24s %12s %10s %s\n", "device", "rate_hz", "u_volt",
		   "available");
	mutex_lock(&opp_lock);
	list_for_each_entry(table, &opp_table_list, list_node) {
		arr = opp_array_locked(table);
		for (i = 0; i < arr->count; i++)
			seq_printf(s, "%-24s %12lu %10lu %s\n", dev_name(table->dev),
				   arr->opp[i].rate, arr->opp[i].u_volt,
				   arr->opp[i].available ? "yes" : "no");
	}
	mutex_unlock(&opp_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(opp_tables);

static int __init opp_init(void)
{
	int ret = rhashtable_init(&opp_table_by_dev, &opp_table_params);

	if (ret)
		return ret;
	/* Not "opp": the kernel's own OPP core owns that directory. */
	opp_debugfs_dir = debugfs_create_dir("opp_library", NULL);
	debugfs_create_file("tables", 0444, opp_debugfs_dir, NULL,
			    &opp_tables_fops);
	return 0;
}
module_init(opp_init);

static void __exit opp_exit(void)
{
	struct opp_table *table, *tmp;

	debugfs_remove_recursive(opp_debugfs_dir);
	/*
	 * Tables that users never removed. No user is left, so nobody reads
	 * them, and a notifier still registered would point into a module
	 * that is gone: free them silently.
	 */
	mutex_lock(&opp_lock);
	list_for_each_entry_safe(table, tmp, &opp_table_list, list_node) {
		list_del(&table->list_node);
		opp_table_free(table);
	}
	mutex_unlock(&opp_lock);
	rhashtable_destroy(&opp_table_by_dev);
	/* Let every callback queued by kfree_rcu() run before we go. */
	rcu_barrier();
}
module_exit(opp_exit);

MODULE_DESCRIPTION("Operating Performance Points library");
MODULE_LICENSE("GPL");
