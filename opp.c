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
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include "opp.h"

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

/* A device's table; the name is the one the 2.6.37 library used. */
struct device_opp {
	struct rhash_head node;
	struct device *dev;
	struct opp_array __rcu *opps;
	struct rcu_head rcu;
};

static const struct rhashtable_params device_opp_params = {
	.key_len = sizeof(struct device *),
	.key_offset = offsetof(struct device_opp, dev),
	.head_offset = offsetof(struct device_opp, node),
	.automatic_shrinking = true,
};

static struct rhashtable device_opps;

/* Serializes every update of every table, and of the map itself. */
static DEFINE_MUTEX(opp_lock);

static bool opp_bad_dev(struct device *dev, const char *func)
{
	if (likely(!IS_ERR_OR_NULL(dev)))
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
static const struct opp_array *opp_array_rcu(struct device *dev,
					     const char *func)
{
	struct device_opp *dt;

	if (opp_bad_dev(dev, func))
		return ERR_PTR(-EINVAL);
	dt = rhashtable_lookup(&device_opps, &dev, device_opp_params);
	if (!dt)
		return ERR_PTR(-ENODEV);
	return rcu_dereference(dt->opps);
}

/* Updater side: @dev's table, or NULL. */
static struct device_opp *device_opp_locked(struct device *dev)
{
	lockdep_assert_held(&opp_lock);
	/* The _fast variant holds RCU for the walk; opp_lock keeps @dt. */
	return rhashtable_lookup_fast(&device_opps, &dev, device_opp_params);
}

static struct opp_array *opp_array_locked(struct device_opp *dt)
{
	return rcu_dereference_protected(dt->opps, lockdep_is_held(&opp_lock));
}

static struct opp_array *opp_array_alloc(unsigned int count)
{
	struct opp_array *arr;

	arr = kmalloc(struct_size(arr, opp, count), GFP_KERNEL);
	if (arr)
		arr->count = count;
	return arr;
}

/* Unpublish @dt; readers still inside it keep valid memory. */
static void device_opp_remove(struct device_opp *dt)
{
	struct opp_array *arr = opp_array_locked(dt);

	rhashtable_remove_fast(&device_opps, &dt->node, device_opp_params);
	/*
	 * A reader compares dt->dev but never dereferences it, and a new
	 * device at the same address can only appear after this put, when
	 * @dt can no longer be found; so the put need not wait for readers.
	 */
	put_device(dt->dev);
	kfree_rcu(arr, rcu);
	kfree_rcu(dt, rcu);
}

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
	struct opp_array *old = NULL, *arr;
	struct device_opp *dt, *fresh = NULL;
	unsigned int i = 0, n = 0;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!freq) {
		/* The accessors return 0 for "no OPP": 0 Hz cannot be an OPP. */
		dev_warn_ratelimited(dev, "%s: frequency 0\n", __func__);
		return -EINVAL;
	}

	mutex_lock(&opp_lock);
	dt = device_opp_locked(dev);
	if (dt) {
		old = opp_array_locked(dt);
		n = old->count;
		i = opp_lower_bound(old, freq);
		if (i < n && old->opp[i].rate == freq) {
			if (old->opp[i].u_volt != u_volt || !old->opp[i].available)
				ret = -EEXIST;
			goto unlock;
		}
	}

	arr = opp_array_alloc(n + 1);
	if (!arr) {
		ret = -ENOMEM;
		goto unlock;
	}
	if (old) {
		memcpy(arr->opp, old->opp, i * sizeof(*arr->opp));
		memcpy(arr->opp + i + 1, old->opp + i,
		       (n - i) * sizeof(*arr->opp));
	}
	arr->opp[i] = (struct opp){
		.rate = freq, .u_volt = u_volt, .available = true,
	};

	if (dt) {
		rcu_assign_pointer(dt->opps, arr);
		kfree_rcu(old, rcu);
		goto unlock;
	}

	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh) {
		kfree(arr);
		ret = -ENOMEM;
		goto unlock;
	}
	fresh->dev = get_device(dev);
	RCU_INIT_POINTER(fresh->opps, arr);
	/* Publishing the hash entry orders the initialisation above. */
	ret = rhashtable_insert_fast(&device_opps, &fresh->node,
				     device_opp_params);
	if (ret) {
		put_device(dev);
		kfree(arr);
		kfree(fresh);
	}
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_add);

static int opp_set_availability(struct device *dev, unsigned long freq,
				bool available, const char *func)
{
	struct device_opp *dt;
	struct opp_array *arr;
	unsigned int i;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, func))
		return -EINVAL;

	mutex_lock(&opp_lock);
	dt = device_opp_locked(dev);
	if (!dt) {
		ret = -ENODEV;
		goto unlock;
	}
	arr = opp_array_locked(dt);
	i = opp_lower_bound(arr, freq);
	if (i == arr->count || arr->opp[i].rate != freq) {
		ret = -ENODEV;
		goto unlock;
	}
	/*
	 * In place: a byte is never torn, rate and voltage do not change,
	 * and so readers need no new copy and we need no grace period.
	 */
	WRITE_ONCE(arr->opp[i].available, available);
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
 * changes nothing. Returns without waiting for an RCU grace period.
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
 * disabled OPP succeeds and changes nothing. Returns without waiting for
 * an RCU grace period.
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
 * Removing the last OPP removes the table and drops the library's
 * reference on @dev. Readers that found the OPP before it was removed may
 * keep using it until their rcu_read_unlock(); its memory is freed after
 * a grace period, without waiting for one here.
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
	struct device_opp *dt;
	unsigned int i, n;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;

	mutex_lock(&opp_lock);
	dt = device_opp_locked(dev);
	if (!dt) {
		ret = -ENODEV;
		goto unlock;
	}
	old = opp_array_locked(dt);
	n = old->count;
	i = opp_lower_bound(old, freq);
	if (i == n || old->opp[i].rate != freq) {
		ret = -ENODEV;
		goto unlock;
	}
	if (n == 1) {
		device_opp_remove(dt);
		goto unlock;
	}

	arr = opp_array_alloc(n - 1);
	if (!arr) {
		ret = -ENOMEM;
		goto unlock;
	}
	memcpy(arr->opp, old->opp, i * sizeof(*arr->opp));
	memcpy(arr->opp + i, old->opp + i + 1, (n - i - 1) * sizeof(*arr->opp));
	rcu_assign_pointer(dt->opps, arr);
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
 * Drops the library's reference on @dev. Readers inside the table keep
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
	struct device_opp *dt;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;

	mutex_lock(&opp_lock);
	dt = device_opp_locked(dev);
	if (dt)
		device_opp_remove(dt);
	else
		ret = -ENODEV;
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_remove_table);

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
	const struct opp_array *arr = opp_array_rcu(dev, __func__);
	unsigned int i;

	if (IS_ERR(arr))
		return ERR_CAST(arr);
	i = opp_lower_bound(arr, freq);
	if (i < arr->count && arr->opp[i].rate == freq &&
	    READ_ONCE(arr->opp[i].available) == available)
		return (struct opp *)&arr->opp[i];
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
	const struct opp_array *arr;
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
			return (struct opp *)&arr->opp[i];
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
	const struct opp_array *arr;
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
			return (struct opp *)&arr->opp[i - 1];
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
	const struct opp_array *arr = opp_array_rcu(dev, __func__);
	unsigned int i;
	int count = 0;

	if (IS_ERR(arr))
		return PTR_ERR(arr);
	for (i = 0; i < arr->count; i++)
		count += READ_ONCE(arr->opp[i].available);
	return count;
}
EXPORT_SYMBOL_GPL(opp_get_opp_count);

/**
 * opp_init_cpufreq_table() - build a cpufreq frequency table from a device
 * @dev:	the device (usually a CPU) whose table to convert
 * @table:	out: the new table; free it with opp_free_cpufreq_table()
 *
 * One entry per available OPP in increasing order: .frequency in kHz,
 * .driver_data the entry's index; CPUFREQ_TABLE_END closes the table.
 * The entries are one consistent snapshot of @dev's table.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @table is
 * NULL; -ENODEV if @dev has no table; -ENODATA if no OPP is available;
 * -ENOMEM if memory ran out. *@table is set only on success.
 */
int opp_init_cpufreq_table(struct device *dev,
			   struct cpufreq_frequency_table **table)
{
	struct cpufreq_frequency_table *ft;
	struct device_opp *dt;
	struct opp_array *arr;
	unsigned int i, j = 0;
	int ret = 0, count;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!table) {
		dev_warn_ratelimited(dev, "%s: table is NULL\n", __func__);
		return -EINVAL;
	}

	mutex_lock(&opp_lock);
	dt = device_opp_locked(dev);
	if (!dt) {
		ret = -ENODEV;
		goto unlock;
	}
	arr = opp_array_locked(dt);
	for (i = 0, count = 0; i < arr->count; i++)
		count += arr->opp[i].available;
	if (!count) {
		ret = -ENODATA;
		goto unlock;
	}
	ft = kcalloc(count + 1, sizeof(*ft), GFP_KERNEL);
	if (!ft) {
		ret = -ENOMEM;
		goto unlock;
	}
	for (i = 0; i < arr->count; i++) {
		if (!arr->opp[i].available)
			continue;
		ft[j].driver_data = j;
		ft[j].frequency = arr->opp[i].rate / 1000;
		j++;
	}
	ft[j].driver_data = j;
	ft[j].frequency = CPUFREQ_TABLE_END;
	*table = ft;
unlock:
	mutex_unlock(&opp_lock);
	return ret;
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

static void device_opp_destroy(void *ptr, void *arg)
{
	struct device_opp *dt = ptr;

	/* No reader is left: every user module is gone before this one. */
	put_device(dt->dev);
	kfree(rcu_dereference_raw(dt->opps));
	kfree(dt);
}

static int __init opp_init(void)
{
	return rhashtable_init(&device_opps, &device_opp_params);
}
module_init(opp_init);

static void __exit opp_exit(void)
{
	/* Tables that users never removed. */
	rhashtable_free_and_destroy(&device_opps, device_opp_destroy, NULL);
	rcu_barrier();
}
module_exit(opp_exit);

MODULE_DESCRIPTION("Operating Performance Points library");
MODULE_LICENSE("GPL");
