// SPDX-License-Identifier: GPL-2.0-only
/*
 * Operating Performance Points library: the energy model of a table.
 *
 * The kernel's energy model (kernel/power/energy_model.c) holds, per
 * performance domain, the power drawn at each performance state; EAS and
 * the power_allocator thermal governor decide from it. A driver on the
 * kernel's OPP core fills it with dev_pm_opp_of_register_em(); this is
 * that call for the tables of this library, with the same sources of
 * power, the same count of states and the same errors, so that a
 * cpufreq driver ported from one core to the other registers the same
 * model.
 *
 * The energy model asks for the states one at a time, lowest first,
 * through a callback, while it holds its own mutex; the callback reads
 * this library's table with the copy-out lookups, which take no lock but
 * RCU. The model keeps a copy of what it was told: it never calls back
 * once registered, and a later change of the table does not reach it.
 */

#include <linux/device.h>
#include <linux/energy_model.h>
#include <linux/err.h>
#include <linux/math64.h>
#include <linux/of.h>
#include <linux/rcupdate.h>
#include <linux/units.h>

#include "opp.h"

/*
 * The power of the state at or above *@khz from the OPPs' own
 * ``opp-microwatt``; *@khz becomes that OPP's rate. An OPP without power
 * fails the state, and so the registration: a model with holes in it
 * would mislead its users.
 */
static int __maybe_unused opp_em_dt_power(struct device *dev,
					  unsigned long *uw,
					  unsigned long *khz)
{
	struct opp_info info;

	if (opp_lookup_ceil(dev, *khz * HZ_PER_KHZ, &info) || !info.u_watt)
		return -EINVAL;
	*khz = info.rate / HZ_PER_KHZ;
	*uw = info.u_watt;
	return 0;
}

/*
 * The power of the state at or above *@khz estimated from the node's
 * ``dynamic-power-coefficient`` C as C * V^2 * f: C is in uW/MHz/V^2, so
 * with V in mV and f in MHz the product is in uW once divided by 10^6.
 * The kernel truncates V to whole mV and f to whole MHz before it
 * multiplies; so does this, so that both models hold the same numbers.
 * The property is read again at each state because the model's callback
 * gets nothing but the device.
 */
static int __maybe_unused opp_em_estimated_power(struct device *dev,
						 unsigned long *uw,
						 unsigned long *khz)
{
	unsigned long mv, mhz;
	struct opp_info info;
	u32 coefficient;
	u64 power;

	if (of_property_read_u32(dev->of_node, "dynamic-power-coefficient",
				 &coefficient))
		return -EINVAL;
	if (opp_lookup_ceil(dev, *khz * HZ_PER_KHZ, &info))
		return -EINVAL;
	mv = info.u_volt / MILLI;
	if (!mv)
		return -EINVAL;
	mhz = info.rate / HZ_PER_MHZ;
	power = (u64)coefficient * mv * mv * mhz;
	*uw = div_u64(power, MILLI * MILLI);	/* mV^2 to V^2 */
	*khz = info.rate / HZ_PER_KHZ;
	return 0;
}

/**
 * opp_of_register_em() - register a device's OPPs with the energy model
 * @dev:	the device whose table to describe (a CPU, or any device)
 * @cpus:	the CPUs of the performance domain when @dev is a CPU (its
 *		cpufreq policy's related_cpus); NULL for any other device
 *
 * This library's dev_pm_opp_of_register_em(). Registers one performance
 * state per available OPP of @dev's table, each with its rate in kHz and
 * its power in microwatts. The power comes from the OPPs' own
 * ``opp-microwatt`` (summed over the supplies, as opp_get_power() gives
 * it) when the lowest available OPP has some; otherwise from the
 * ``dynamic-power-coefficient`` of @dev's device-tree node, estimated for
 * each OPP from its rate and its (first supply's) target voltage. The
 * model records the values at the time of the call: OPPs enabled,
 * disabled, added or removed later do not change it.
 *
 * Context: process context; may sleep (the energy model allocates and
 * takes its own mutex, under which it calls back into this library's
 * lock-free lookups). Must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR, has no
 * table or no available OPP, has no power information (no
 * ``opp-microwatt`` on its lowest available OPP, and no node or no
 * non-zero ``dynamic-power-coefficient`` in it), or if a state has none
 * (an OPP without ``opp-microwatt``, or without a voltage for the
 * coefficient), or a power of more than the model's 64 W, or if the kernel
 * has no energy model; -EEXIST if @dev, or one of @cpus, already has one;
 * -ENOMEM if memory ran out. The kernel's error codes for the same table,
 * case for case.
 */
int opp_of_register_em(struct device *dev, struct cpumask *cpus)
{
	struct em_data_callback cb = { };
	struct opp_info lowest;
	u32 coefficient;
	int count;

	if (IS_ERR_OR_NULL(dev))
		return -EINVAL;

	rcu_read_lock();
	count = opp_get_opp_count(dev);
	rcu_read_unlock();
	if (count <= 0)
		return -EINVAL;

	if (!opp_lookup_ceil(dev, 0, &lowest) && lowest.u_watt) {
		EM_SET_ACTIVE_POWER_CB(cb, opp_em_dt_power);
	} else {
		/*
		 * A coefficient of 0 is refused here rather than left to give
		 * a power of 0 at every state, which the model would refuse
		 * with a message per state less clear than this one.
		 */
		if (of_property_read_u32(dev->of_node,
					 "dynamic-power-coefficient",
					 &coefficient) || !coefficient) {
			dev_dbg(dev, "energy model: neither opp-microwatt nor dynamic-power-coefficient\n");
			return -EINVAL;
		}
		EM_SET_ACTIVE_POWER_CB(cb, opp_em_estimated_power);
	}

	/* The microwatts are real: both sources are in uW. */
	return em_dev_register_perf_domain(dev, count, &cb, cpus, true);
}
EXPORT_SYMBOL_GPL(opp_of_register_em);

/**
 * opp_of_unregister_em() - remove a device's energy model
 * @dev:	the device given to opp_of_register_em()
 *
 * This library's dev_pm_opp_of_unregister_em(): the model's
 * em_dev_unregister_perf_domain(), under this library's name, so that a
 * driver pairs its calls. Nothing is left of a device's model afterwards,
 * and it may register again. The energy model keeps a CPU's performance
 * domain for good (the scheduler may be reading it): for a CPU device
 * this does nothing, in the kernel's model as here, and a later
 * opp_of_register_em() on that CPU returns -EEXIST.
 *
 * Context: process context; may sleep (takes the energy model's mutex).
 */
void opp_of_unregister_em(struct device *dev)
{
	em_dev_unregister_perf_domain(dev);
}
EXPORT_SYMBOL_GPL(opp_of_unregister_em);
