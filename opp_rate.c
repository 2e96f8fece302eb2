// SPDX-License-Identifier: GPL-2.0-only
/*
 * Operating Performance Points library: setting a device's OPP through
 * the kernel's clock and regulator frameworks.
 *
 * The order is the one that keeps the hardware safe at every step: going
 * up, the voltage rises before the clock; going down, the clock slows
 * before the voltage drops. When a step fails, what was done is undone,
 * so the device is left at the OPP it was at. Calls for one device are
 * serialized by a mutex of that device's configuration; searches never
 * take it, so lookups stay lock-free while a rate change is in flight.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clk.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/regulator/consumer.h>

#include "opp.h"
#include "opp_internal.h"

/* The supply at @opp's triplet; nothing to do without a supply or voltage. */
static int opp_rate_supply(struct opp_dev_config *cfg,
			   const struct opp_info *opp)
{
	if (!cfg->supply || !opp->u_volt)
		return 0;
	return regulator_set_voltage_triplet(cfg->supply, opp->u_volt_min,
					     opp->u_volt, opp->u_volt_max);
}

/*
 * What the hardware is at before the first call: the clock's rate, and
 * the supply's voltage as a triplet of one value (0: none, or unknown).
 */
static void opp_rate_read_back(struct opp_dev_config *cfg,
			       struct opp_info *now)
{
	int uv = cfg->supply ? regulator_get_voltage(cfg->supply) : 0;

	now->rate = clk_get_rate(cfg->clk);
	now->u_volt = uv > 0 ? uv : 0;
	now->u_volt_min = now->u_volt;
	now->u_volt_max = now->u_volt;
}

static int opp_rate_change(struct device *dev, struct opp_dev_config *cfg,
			   const struct opp_info *to)
{
	struct opp_info from = cfg->cur;
	bool up;
	int ret;

	if (from.rate == to->rate && from.u_volt == to->u_volt &&
	    from.u_volt_min == to->u_volt_min &&
	    from.u_volt_max == to->u_volt_max)
		return 0;
	/*
	 * The first time, what the OPP was is unknown: read the hardware, so
	 * that the order never leaves the rail below what the clock runs at.
	 */
	if (!from.rate)
		opp_rate_read_back(cfg, &from);
	up = to->rate >= from.rate;

	if (up) {
		ret = opp_rate_supply(cfg, to);
		if (ret) {
			dev_err(dev, "OPP %lu Hz: supply refused %lu uV: %d\n",
				to->rate, to->u_volt, ret);
			return ret;
		}
	}
	ret = clk_set_rate(cfg->clk, to->rate);
	if (ret) {
		dev_err(dev, "OPP %lu Hz: clock refused: %d\n", to->rate, ret);
		if (up && from.u_volt && opp_rate_supply(cfg, &from))
			dev_err(dev, "could not put the supply back at %lu uV\n",
				from.u_volt);
		return ret;
	}
	if (!up) {
		ret = opp_rate_supply(cfg, to);
		if (ret) {
			dev_err(dev, "OPP %lu Hz: supply refused %lu uV: %d\n",
				to->rate, to->u_volt, ret);
			if (clk_set_rate(cfg->clk, from.rate))
				dev_err(dev, "could not put the clock back at %lu Hz\n",
					from.rate);
			return ret;
		}
	}
	cfg->cur = *to;
	return 0;
}

/**
 * opp_set_rate() - run a device at the OPP for a rate
 * @dev:	the device; opp_set_config() gave it a clock (and a supply)
 * @freq:	the rate wanted, in Hz
 *
 * Picks the lowest available OPP at or above @freq and programs it: the
 * supply's voltage (the OPP's ``<target min max>``) and the clock's rate,
 * the voltage first when the rate goes up and last when it goes down.
 * When a step fails, the steps taken are undone, so clock and supply stay
 * at the OPP the device was at, and the error is returned. On the first
 * call the library does not know that OPP: it reads the clock's rate and
 * orders the steps from it, so the supply is never left below what the
 * clock runs at. Setting the OPP the device is at does nothing.
 *
 * Context: process context; may sleep (the clock and regulator
 * frameworks do). Calls for one device are serialized; searches and
 * lookups of its table go on without waiting, and see the table, not
 * the rate being set. Must not be called under rcu_read_lock() nor from
 * a notifier callback.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR, or
 * opp_set_config() named several clocks or supplies (see
 * Documentation/opp.rst); -ENODEV if @dev has no clock from
 * opp_set_config() or no table; -ERANGE if no
 * available OPP has a rate >= @freq; otherwise the clock's or the
 * regulator's error.
 */
int opp_set_rate(struct device *dev, unsigned long freq)
{
	struct opp_dev_config *cfg;
	struct opp_info to;
	int ret;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	cfg = opp_config_get(dev);
	if (cfg && (cfg->nr_clks > 1 || cfg->nr_supplies > 1)) {
		ret = -EINVAL;
		goto put;
	}
	if (!cfg || !cfg->clk) {
		ret = -ENODEV;
		goto put;
	}
	mutex_lock(&cfg->rate_lock);
	ret = opp_lookup_ceil(dev, freq, &to);
	if (!ret)
		ret = opp_rate_change(dev, cfg, &to);
	mutex_unlock(&cfg->rate_lock);
put:
	if (cfg)
		opp_config_put(cfg);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_set_rate);

/**
 * opp_get_max_transition_latency() - the slowest OPP change of a device
 * @dev:	the device whose table and supply to read
 *
 * The table's largest ``clock-latency-ns`` plus the time its supply
 * (from opp_set_config()) takes to ramp across the table's voltages, from
 * the lowest minimum to the highest maximum: what a cpufreq driver gives
 * as ``cpuinfo.transition_latency``.
 *
 * Context: process context; may sleep (asks the regulator framework).
 *
 * Return: the latency in nanoseconds; 0 if @dev is NULL or an ERR_PTR or
 * has no table.
 */
unsigned long opp_get_max_transition_latency(struct device *dev)
{
	unsigned long ns = opp_get_max_clock_latency(dev);
	struct opp_dev_config *cfg;
	unsigned long lo, hi;
	int us;

	might_sleep();
	cfg = IS_ERR_OR_NULL(dev) ? NULL : opp_config_get(dev);
	if (!cfg)
		return ns;
	if (cfg->supply && opp_voltage_span(dev, &lo, &hi) && lo < hi) {
		us = regulator_set_voltage_time(cfg->supply, lo, hi);
		if (us > 0)
			ns += (unsigned long)us * NSEC_PER_USEC;
	}
	opp_config_put(cfg);
	return ns;
}
EXPORT_SYMBOL_GPL(opp_get_max_transition_latency);
