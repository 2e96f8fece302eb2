/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Operating Performance Points (OPP) library: the API for its callers.
 *
 * An OPP is a {frequency, voltage} pair at which a device (one clock and
 * voltage domain) may run, plus whether it may be used right now. The
 * library keeps one table per device, sorted by frequency. Lookups take
 * no lock but RCU and work in any context; updates sleep.
 *
 * See Documentation/opp.rst for the usage patterns.
 */
#ifndef _OPP_LIBRARY_H
#define _OPP_LIBRARY_H

#include <linux/cpufreq.h>	/* also the kernel's enum dev_pm_opp_event */
#include <linux/err.h>
#include <linux/types.h>

#include "compat.h"		/* OPP_LEVEL_NONE */
#include "opp_snapshot.h"	/* the layout the inline searches read */

struct clk;
struct cpumask;
struct device;
struct notifier_block;
struct regulator;

/*
 * struct opp: a pointer to one is only valid inside the rcu_read_lock()
 * section in which a search returned it, and only the accessors may read
 * it. Its layout is in opp_snapshot.h for the inline searches only.
 */

/**
 * struct opp_info - an OPP's values, copied out of its table
 * @rate:	frequency in Hz (of the first clock, where there are several)
 * @u_volt:	target voltage in microvolts (of the first supply, where
 *		there are several: opp_lookup_supplies() gives each)
 * @u_volt_min:	lowest acceptable voltage (@u_volt unless the device tree
 *		gave a <target min max> triplet)
 * @u_volt_max:	highest acceptable voltage (likewise)
 * @u_amp:	current drawn at this OPP in microamperes (0: not given;
 *		the first supply's)
 * @u_watt:	power drawn at this OPP in microwatts (device tree
 *		``opp-microwatt``, summed over the supplies; 0: not given)
 * @level:	the performance level (device tree ``opp-level``);
 *		OPP_LEVEL_NONE if a device-tree v2 OPP has none, 0 for an
 *		OPP of opp_add() or of a v1 table (as in the kernel)
 * @peak_kbps:	the peak bandwidth (``opp-peak-kBps``) of interconnect
 *		path 0, or of the path a bandwidth lookup searched (0: none)
 * @avg_kbps:	the average bandwidth (``opp-avg-kBps``) of the same path
 * @available:	whether searches may return it
 * @turbo:	a boost OPP (device tree ``turbo-mode``)
 * @suspend:	the OPP to suspend at (device tree ``opp-suspend``)
 */
struct opp_info {
	unsigned long rate;
	unsigned long u_volt;
	unsigned long u_volt_min;
	unsigned long u_volt_max;
	unsigned long u_amp;
	unsigned long u_watt;
	unsigned int level;
	unsigned int peak_kbps;
	unsigned int avg_kbps;
	bool available;
	bool turbo;
	bool suspend;
};

/**
 * struct opp_supply - one supply's values at an OPP
 * @u_volt:	target voltage in microvolts
 * @u_volt_min:	lowest acceptable voltage
 * @u_volt_max:	highest acceptable voltage
 * @u_amp:	current drawn from this supply in microamperes (0: not given)
 * @u_watt:	power drawn from this supply in microwatts (0: not given)
 *
 * The kernel's struct dev_pm_opp_supply, field for field: a device with
 * several supplies (opp_set_config()'s @regulator_names) has one per
 * supply, in the order of the names.
 */
struct opp_supply {
	unsigned long u_volt;
	unsigned long u_volt_min;
	unsigned long u_volt_max;
	unsigned long u_amp;
	unsigned long u_watt;
};

/**
 * struct opp_config - how a device's device-tree table is to be read
 * @supported_hw:	the hardware's version mask, one u32 per level of
 *			the versions hierarchy (``opp-supported-hw``)
 * @supported_hw_count:	the number of levels (0 with @supported_hw NULL)
 * @prop_name:		picks ``opp-microvolt-<name>`` and
 *			``opp-microamp-<name>`` where an OPP has them
 * @clk:		the device's clock, for opp_set_rate()
 * @supply:		the device's voltage regulator, for opp_set_rate()
 * @regulator_names:	the device's supplies by name, NULL-terminated: the
 *			library gets each from the device, and each OPP
 *			of the table then has one set of values per supply
 *			(not with @supply)
 * @clk_names:		the device's clocks by name, NULL-terminated: the
 *			library gets each, and each ``opp-hz`` then holds
 *			one rate per clock (not with @clk)
 *
 * Any may be left out (NULL), not all. See opp_set_config().
 */
struct opp_config {
	const u32 *supported_hw;
	unsigned int supported_hw_count;
	const char *prop_name;
	struct clk *clk;
	struct regulator *supply;
	const char * const *regulator_names;
	const char * const *clk_names;
};

/*
 * Notifier events: the kernel's own enum dev_pm_opp_event, whose names
 * (OPP_EVENT_ADD, OPP_EVENT_ENABLE, OPP_EVENT_DISABLE, OPP_EVENT_REMOVE)
 * any cpufreq user sees through <linux/cpufreq.h> anyway. A notifier is
 * called after the change is visible to searches, with a &struct opp_info
 * of the OPP concerned (valid during the call only); a removed table
 * sends OPP_EVENT_REMOVE for each of its OPPs.
 */

/* Updaters: may sleep; never call them under rcu_read_lock(). */
int opp_add(struct device *dev, unsigned long freq, unsigned long u_volt);
int opp_enable(struct device *dev, unsigned long freq);
int opp_disable(struct device *dev, unsigned long freq);
int opp_remove(struct device *dev, unsigned long freq);
int opp_remove_table(struct device *dev);
int opp_register_notifier(struct device *dev, struct notifier_block *nb);
int opp_unregister_notifier(struct device *dev, struct notifier_block *nb);
int opp_of_add_table(struct device *dev);
int opp_set_sharing_cpus(struct device *cpu_dev, const struct cpumask *cpumask);
int opp_set_config(struct device *dev, const struct opp_config *config);
int devm_opp_set_config(struct device *dev, const struct opp_config *config);
void opp_clear_config(struct device *dev);
int opp_set_rate(struct device *dev, unsigned long freq);
int opp_set_level(struct device *dev, unsigned int level);
unsigned long opp_get_max_transition_latency(struct device *dev);

/* Searches and accessors: the caller holds rcu_read_lock(). */
struct opp *opp_find_freq_exact(struct device *dev, unsigned long freq,
				bool available);
struct opp *opp_find_freq_ceil(struct device *dev, unsigned long *freq);
struct opp *opp_find_freq_floor(struct device *dev, unsigned long *freq);
unsigned long opp_get_voltage(struct opp *opp);
unsigned long opp_get_freq(struct opp *opp);
unsigned long opp_get_voltage_min(struct opp *opp);
unsigned long opp_get_voltage_max(struct opp *opp);
bool opp_is_turbo(struct opp *opp);
unsigned long opp_get_power(struct opp *opp);
unsigned long opp_get_freq_indexed(struct opp *opp, unsigned int index);
int opp_get_supplies(struct opp *opp, struct opp_supply *supplies,
		     unsigned int count);
unsigned int opp_get_level(struct opp *opp);
unsigned long opp_get_bw(struct opp *opp, bool peak, int index);
unsigned int opp_get_required_level(struct opp *opp, unsigned int index);
int opp_get_opp_count(struct device *dev);
struct opp *opp_find_level_exact(struct device *dev, unsigned int level);
struct opp *opp_find_level_ceil(struct device *dev, unsigned int *level);
struct opp *opp_find_level_floor(struct device *dev, unsigned int *level);
struct opp *opp_find_bw_ceil(struct device *dev, unsigned int *bw, int index);
struct opp *opp_find_bw_floor(struct device *dev, unsigned int *bw, int index);

/* A table's own facts: any context, no rcu_read_lock() needed. */
unsigned long opp_get_suspend_opp_freq(struct device *dev);
unsigned long opp_get_max_clock_latency(struct device *dev);
int opp_get_sharing_cpus(struct device *cpu_dev, struct cpumask *cpumask);

/* Copy-out lookups: any context, no rcu_read_lock() needed. */
int opp_lookup_exact(struct device *dev, unsigned long freq, bool available,
		     struct opp_info *info);
int opp_lookup_ceil(struct device *dev, unsigned long freq,
		    struct opp_info *info);
int opp_lookup_floor(struct device *dev, unsigned long freq,
		     struct opp_info *info);
int opp_lookup_level_exact(struct device *dev, unsigned int level,
			   struct opp_info *info);
int opp_lookup_level_ceil(struct device *dev, unsigned int level,
			  struct opp_info *info);
int opp_lookup_level_floor(struct device *dev, unsigned int level,
			   struct opp_info *info);
int opp_lookup_bw_ceil(struct device *dev, unsigned int bw, int index,
		       struct opp_info *info);
int opp_lookup_bw_floor(struct device *dev, unsigned int bw, int index,
			struct opp_info *info);
int opp_lookup_supplies(struct device *dev, unsigned long freq,
			struct opp_supply *supplies, unsigned int count);
int opp_lookup_rates(struct device *dev, unsigned long freq,
		     unsigned long *rates, unsigned int count);

/*
 * Table handles, for callers that search one device's table often: the
 * searches through a handle skip the device -> table map. A handle is
 * counted; once its table is removed, searches through it fail with
 * -ENODEV. Taking and putting: any context but NMI. Searching: as above,
 * under rcu_read_lock().
 */
struct opp_table;
struct opp_table *opp_table_get(struct device *dev);
void opp_table_put(struct opp_table *table);
struct opp_table *opp_get_required_table(struct opp *opp, unsigned int index);
struct opp *opp_table_find_freq_exact(struct opp_table *table,
				      unsigned long freq, bool available);
struct opp *opp_table_find_freq_ceil(struct opp_table *table,
				     unsigned long *freq);
struct opp *opp_table_find_freq_floor(struct opp_table *table,
				      unsigned long *freq);
struct opp *opp_table_fault(const struct opp_table_head *head, bool no_freq,
			    const char *func);

/*
 * The same searches, inline, for the hottest callers (a governor's or
 * scheduler hook's per-tick lookup): no call into the library, the rate
 * in a register rather than through memory. Same contract, same answers
 * and error codes as opp_table_find_freq_*(); the error paths are the
 * library's own, out of line.
 */

/**
 * opp_table_find_freq_exact_fast() - opp_table_find_freq_exact(), inline
 * @table:	the handle, from opp_table_get()
 * @freq:	the exact frequency in Hz
 * @available:	whether the OPP looked for is available or disabled
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP whose rate is @freq and whose availability is
 * @available; ERR_PTR(-EINVAL) if @table is NULL or an ERR_PTR;
 * ERR_PTR(-ENODEV) if the table was removed; ERR_PTR(-ERANGE) if no OPP
 * matches.
 */
static __always_inline struct opp *
opp_table_find_freq_exact_fast(struct opp_table *table, unsigned long freq,
			       bool available)
{
	struct opp_array *arr = opp_table_opps(table);

	if (unlikely(!arr))
		return opp_table_fault(opp_table_head(table), false, __func__);
	return opp_match_exact(arr, freq, available);
}

/**
 * opp_table_find_freq_ceil_fast() - opp_table_find_freq_ceil(), inline
 * @table:	the handle, from opp_table_get()
 * @freq:	in: the lowest acceptable frequency in Hz; out: the rate of
 *		the OPP found (untouched on error)
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @table is NULL or an ERR_PTR
 * or @freq is NULL; ERR_PTR(-ENODEV) if the table was removed;
 * ERR_PTR(-ERANGE) if no available OPP has a rate >= *@freq.
 */
static __always_inline struct opp *
opp_table_find_freq_ceil_fast(struct opp_table *table, unsigned long *freq)
{
	struct opp_array *arr = opp_table_opps(table);

	if (unlikely(!freq || !arr))
		return opp_table_fault(opp_table_head(table), !freq, __func__);
	return opp_match_freq(arr, OPP_MATCH_CEIL, freq);
}

/**
 * opp_table_find_freq_floor_fast() - opp_table_find_freq_floor(), inline
 * @table:	the handle, from opp_table_get()
 * @freq:	in: the highest acceptable frequency in Hz; out: the rate of
 *		the OPP found (untouched on error)
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @table is NULL or an ERR_PTR
 * or @freq is NULL; ERR_PTR(-ENODEV) if the table was removed;
 * ERR_PTR(-ERANGE) if no available OPP has a rate <= *@freq.
 */
static __always_inline struct opp *
opp_table_find_freq_floor_fast(struct opp_table *table, unsigned long *freq)
{
	struct opp_array *arr = opp_table_opps(table);

	if (unlikely(!freq || !arr))
		return opp_table_fault(opp_table_head(table), !freq, __func__);
	return opp_match_freq(arr, OPP_MATCH_FLOOR, freq);
}

/* The energy model: may sleep; never call them under rcu_read_lock(). */
int opp_of_register_em(struct device *dev, struct cpumask *cpus);
void opp_of_unregister_em(struct device *dev);

/* cpufreq glue: may sleep (allocates), takes no lock. */
int opp_init_cpufreq_table(struct device *dev,
			   struct cpufreq_frequency_table **table);
void opp_free_cpufreq_table(struct device *dev,
			    struct cpufreq_frequency_table **table);

#endif /* _OPP_LIBRARY_H */
