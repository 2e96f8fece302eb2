// SPDX-License-Identifier: GPL-2.0-only
/*
 * OPP library: what CPUs need of it. CPUs that one clock and one supply
 * drive together share one table (opp-shared), and a cpufreq driver
 * takes its frequency table from a CPU's OPPs.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "opp.h"
#include "opp_internal.h"

/**
 * opp_set_sharing_cpus() - make CPUs share one CPU's table
 * @cpu_dev:	the device of a CPU that has a table
 * @cpumask:	the CPUs that share it (@cpu_dev's own CPU may be in it)
 *
 * For CPUs that one clock and one supply drive together, as
 * ``opp-shared`` says in the device tree: each CPU of @cpumask finds
 * @cpu_dev's table from then on (the same OPPs, the same notifier chain,
 * at the cost of a search by any device). CPUs already sharing it are
 * left as they are. Each keeps it until opp_remove_table() on its device;
 * the table goes with the last of them.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @cpu_dev is NULL or an ERR_PTR or
 * @cpumask is NULL; -ENODEV if @cpu_dev has no table or a CPU of
 * @cpumask has no device; -EBUSY if a CPU of @cpumask has a table of its
 * own; -ENOMEM if memory ran out. On error no CPU was added.
 */
int opp_set_sharing_cpus(struct device *cpu_dev, const struct cpumask *cpumask)
{
	struct opp_table *table, *other;
	unsigned int cpu, added = 0;
	struct device *dev;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(cpu_dev, __func__))
		return -EINVAL;
	if (!cpumask) {
		dev_warn_ratelimited(cpu_dev, "%s: cpumask is NULL\n", __func__);
		return -EINVAL;
	}

	mutex_lock(&opp_lock);
	table = opp_table_locked(cpu_dev);
	if (!table) {
		ret = -ENODEV;
		goto unlock;
	}
	for_each_cpu(cpu, cpumask) {
		dev = get_cpu_device(cpu);
		other = dev ? opp_table_locked(dev) : NULL;
		if (!dev || (other && other != table)) {
			ret = dev ? -EBUSY : -ENODEV;
			goto unlock;
		}
	}
	for_each_cpu(cpu, cpumask) {
		dev = get_cpu_device(cpu);
		if (opp_table_locked(dev))
			continue;
		ret = opp_table_share(table, dev);
		if (ret)
			break;
		added++;
	}
	/* All or nothing: the CPUs added last are the last sharers. */
	while (ret && added--)
		opp_table_unshare(table, table->nr_sharers - 1);
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_set_sharing_cpus);

/**
 * opp_get_sharing_cpus() - the CPUs that share a CPU's table
 * @cpu_dev:	the device of a CPU that has a table
 * @cpumask:	filled with the CPUs whose devices find that table
 *
 * One cpufreq policy per table: these CPUs change frequency together.
 * A table no other CPU shares gives @cpu_dev's CPU alone.
 *
 * Context: any context but NMI; takes no lock but RCU. Against a
 * concurrent opp_set_sharing_cpus() or opp_remove_table(), @cpumask is the
 * set before or after, CPU by CPU.
 *
 * Return: 0 on success; -EINVAL if @cpu_dev is NULL or an ERR_PTR or
 * @cpumask is NULL; -ENODEV if @cpu_dev has no table.
 */
int opp_get_sharing_cpus(struct device *cpu_dev, struct cpumask *cpumask)
{
	struct opp_table *table;
	struct device *dev;
	unsigned int cpu;
	int ret = 0;

	if (opp_bad_dev(cpu_dev, __func__))
		return -EINVAL;
	if (!cpumask) {
		dev_warn_ratelimited(cpu_dev, "%s: cpumask is NULL\n", __func__);
		return -EINVAL;
	}

	cpumask_clear(cpumask);
	rcu_read_lock();
	table = opp_table_find(cpu_dev);
	if (!table) {
		ret = -ENODEV;
		goto unlock;
	}
	for_each_possible_cpu(cpu) {
		dev = get_cpu_device(cpu);
		if (dev && opp_table_find(dev) == table)
			cpumask_set_cpu(cpu, cpumask);
	}
unlock:
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(opp_get_sharing_cpus);

/**
 * opp_init_cpufreq_table() - build a cpufreq frequency table from a device
 * @dev:	the device (usually a CPU) whose table to convert
 * @table:	out: the new table; free it with opp_free_cpufreq_table()
 *
 * One entry per available OPP in increasing order: .frequency in kHz,
 * .driver_data the entry's index, .flags CPUFREQ_BOOST_FREQ for a turbo
 * OPP (0 otherwise); CPUFREQ_TABLE_END closes the table.
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
			ft[j].flags = arr->opp[i].turbo ? CPUFREQ_BOOST_FREQ : 0;
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
