// SPDX-License-Identifier: GPL-2.0-only
/*
 * OPP library: what a driver says of its device before the device's table
 * is read (opp_set_config()), kept per device until it clears it: the
 * hardware versions and property names the device-tree parser picks
 * OPPs and voltages by, the clocks and supplies (given, or got by name:
 * their number is what the parser reads per OPP), and the clock and
 * supply opp_set_rate() drives (an OPP beyond what a supply can give is
 * added disabled).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clk.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/regulator/consumer.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "opp.h"
#include "opp_internal.h"

/* Every device's opp_set_config(), under opp_lock. */
static LIST_HEAD(opp_config_list);

struct opp_dev_config *opp_config_locked(struct device *dev)
{
	struct opp_dev_config *cfg;

	lockdep_assert_held(&opp_lock);
	list_for_each_entry(cfg, &opp_config_list, node)
		if (cfg->dev == dev)
			return cfg;
	return NULL;
}

/* @dev's configuration, counted, or NULL; put it with opp_config_put(). */
struct opp_dev_config *opp_config_get(struct device *dev)
{
	struct opp_dev_config *cfg;

	mutex_lock(&opp_lock);
	cfg = opp_config_locked(dev);
	if (cfg)
		kref_get(&cfg->ref);
	mutex_unlock(&opp_lock);
	return cfg;
}

/* What @cfg holds of its own: copies, and the handles it got by name. */
static void opp_config_free(struct opp_dev_config *cfg)
{
	unsigned int i;

	for (i = cfg->nr_supplies; i--;)
		regulator_put(cfg->supplies[i]);
	for (i = cfg->nr_clks; i--;)
		clk_put(cfg->clks[i]);
	kfree(cfg->supplies);
	kfree(cfg->clks);
	kfree(cfg->supported_hw);
	kfree_const(cfg->prop_name);
	kfree(cfg);
}

static void opp_config_release(struct kref *ref)
{
	struct opp_dev_config *cfg = container_of(ref, struct opp_dev_config,
						  ref);

	/* The votes, the paths and the supplies' enable go with the device. */
	if (cfg->release)
		cfg->release(cfg);
	put_device(cfg->dev);
	opp_config_free(cfg);
}

/* The entries of the NULL-terminated @names (NULL: none). */
static unsigned int opp_config_count(const char * const *names)
{
	unsigned int n = 0;

	while (names && names[n])
		n++;
	return n;
}

/*
 * @dev's supplies by @names (@n of them), as the kernel's core gets them
 * (regulator_get_optional(): a supply the device does not have is an
 * error, not a dummy). Those got stay in @cfg, counted, on error too.
 */
static int opp_config_get_supplies(struct device *dev,
				   struct opp_dev_config *cfg,
				   const char * const *names, unsigned int n)
{
	struct regulator *reg;

	cfg->supplies = kcalloc(n, sizeof(*cfg->supplies), GFP_KERNEL);
	if (!cfg->supplies)
		return -ENOMEM;
	for (; cfg->nr_supplies < n; cfg->nr_supplies++) {
		reg = regulator_get_optional(dev, names[cfg->nr_supplies]);
		if (IS_ERR(reg)) {
			dev_warn_ratelimited(dev, "supply %s: %pe\n",
					     names[cfg->nr_supplies], reg);
			return PTR_ERR(reg);
		}
		cfg->supplies[cfg->nr_supplies] = reg;
	}
	if (n == 1)
		cfg->supply = cfg->supplies[0];
	return 0;
}

/* @dev's clocks by @names, as opp_config_get_supplies() its supplies. */
static int opp_config_get_clks(struct device *dev, struct opp_dev_config *cfg,
			       const char * const *names, unsigned int n)
{
	struct clk *clk;

	cfg->clks = kcalloc(n, sizeof(*cfg->clks), GFP_KERNEL);
	if (!cfg->clks)
		return -ENOMEM;
	for (; cfg->nr_clks < n; cfg->nr_clks++) {
		clk = clk_get(dev, names[cfg->nr_clks]);
		if (IS_ERR(clk)) {
			dev_warn_ratelimited(dev, "clock %s: %pe\n",
					     names[cfg->nr_clks], clk);
			return PTR_ERR(clk);
		}
		cfg->clks[cfg->nr_clks] = clk;
	}
	if (n == 1)
		cfg->clk = cfg->clks[0];
	return 0;
}

void opp_config_put(struct opp_dev_config *cfg)
{
	kref_put(&cfg->ref, opp_config_release);
}

/* Take @cfg off the list; it goes when its last user puts it. */
static void opp_config_drop(struct opp_dev_config *cfg)
{
	lockdep_assert_held(&opp_lock);
	list_del(&cfg->node);
	opp_config_put(cfg);
}

/**
 * opp_set_config() - say how a device's device-tree table is to be read
 * @dev:	the device whose table opp_of_add_table() will parse
 * @config:	what to read; the library keeps copies of what it points at
 *
 * Tells the parser of ``operating-points-v2`` tables what only the driver
 * knows: @config->supported_hw, one version mask per level of the SoC's
 * hierarchy, keeps the OPPs whose ``opp-supported-hw`` matches it (with a
 * mask set, an OPP without that property is dropped; without one, an OPP
 * with it is dropped, as in the kernel's OPP core); @config->prop_name
 * picks ``opp-microvolt-<name>`` and ``opp-microamp-<name>`` over the
 * plain properties where an OPP has them. @config->clk and
 * @config->supply are the device's clock and voltage regulator, which
 * opp_set_rate() programs; the caller keeps them (they must outlive the
 * configuration), and OPPs added while the supply is set whose voltage
 * range it cannot give are added disabled, with a warning each.
 *
 * @config->regulator_names and @config->clk_names name the device's
 * supplies and clocks instead, as the kernel's dev_pm_opp_set_config()
 * names them: the library gets each from @dev now (regulator_get_optional()
 * and clk_get()) and puts it when the configuration goes. Their number is
 * what the parser then reads per OPP: with N supplies, ``opp-microvolt``
 * holds N values or N ``<target min max>`` triplets and
 * ``opp-microamp`` and ``opp-microwatt`` N values; with N clocks,
 * ``opp-hz`` holds N rates. An OPP any supply cannot give is added
 * disabled. opp_set_rate() drives one clock and one supply: with one
 * name each, the one named; with more, it refuses (the kernel's core asks
 * the driver for a callback that programs several clocks; see
 * Documentation/opp.rst).
 *
 * Set it before the table exists; it lasts until opp_clear_config(), and
 * takes a reference on @dev until then.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR, @config is
 * NULL or sets nothing, @config->supported_hw and
 * @config->supported_hw_count disagree (one is 0 or NULL, the other not),
 * @config->prop_name is empty, @config->clk or @config->supply is an
 * ERR_PTR, a list of names is empty or comes with @config->supply
 * (@config->regulator_names) or @config->clk (@config->clk_names);
 * -EBUSY if @dev already has a configuration or a table; -ENOMEM if
 * memory ran out; the framework's error for a supply or clock @dev does
 * not have (-ENODEV, -ENOENT, -EPROBE_DEFER, ...). On error nothing
 * changes and nothing is kept.
 */
int opp_set_config(struct device *dev, const struct opp_config *config)
{
	unsigned int nr_supplies, nr_clks;
	struct opp_dev_config *cfg;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	nr_supplies = config ? opp_config_count(config->regulator_names) : 0;
	nr_clks = config ? opp_config_count(config->clk_names) : 0;
	if (!config || !!config->supported_hw != !!config->supported_hw_count ||
	    (config->prop_name && !*config->prop_name) ||
	    IS_ERR(config->clk) || IS_ERR(config->supply) ||
	    (config->regulator_names && (!nr_supplies || config->supply)) ||
	    (config->clk_names && (!nr_clks || config->clk)) ||
	    (!config->supported_hw && !config->prop_name && !config->clk &&
	     !config->supply && !nr_supplies && !nr_clks)) {
		dev_warn_ratelimited(dev, "%s: invalid configuration\n", __func__);
		return -EINVAL;
	}

	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	kref_init(&cfg->ref);
	mutex_init(&cfg->rate_lock);
	cfg->clk = config->clk;
	cfg->supply = config->supply;
	if (config->supported_hw) {
		cfg->supported_hw = kmemdup(config->supported_hw,
					    array_size(config->supported_hw_count,
						       sizeof(u32)),
					    GFP_KERNEL);
		cfg->supported_hw_count = config->supported_hw_count;
	}
	if (config->prop_name)
		cfg->prop_name = kstrdup_const(config->prop_name, GFP_KERNEL);
	if ((config->supported_hw && !cfg->supported_hw) ||
	    (config->prop_name && !cfg->prop_name)) {
		ret = -ENOMEM;
		goto free;
	}
	/*
	 * The frameworks' lookups sleep and lock: they run outside opp_lock,
	 * and not at all for a device that is taken already (checked again
	 * below, where it counts).
	 */
	mutex_lock(&opp_lock);
	if (opp_config_locked(dev) || opp_table_locked(dev))
		ret = -EBUSY;
	mutex_unlock(&opp_lock);
	if (!ret && nr_supplies)
		ret = opp_config_get_supplies(dev, cfg, config->regulator_names,
					      nr_supplies);
	if (!ret && nr_clks)
		ret = opp_config_get_clks(dev, cfg, config->clk_names, nr_clks);
	if (ret)
		goto free;

	mutex_lock(&opp_lock);
	if (opp_config_locked(dev) || opp_table_locked(dev)) {
		ret = -EBUSY;
	} else {
		cfg->dev = get_device(dev);
		list_add_tail(&cfg->node, &opp_config_list);
	}
	mutex_unlock(&opp_lock);
	if (!ret)
		return 0;
free:
	opp_config_free(cfg);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_set_config);

/**
 * opp_clear_config() - forget what opp_set_config() said about a device
 * @dev:	the device
 *
 * The table parsed meanwhile stays as it is; opp_set_rate() fails with
 * -ENODEV from now on (a call in flight finishes first, with the clock
 * and supply it started with). Clearing a device without a configuration
 * does nothing.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 */
void opp_clear_config(struct device *dev)
{
	struct opp_dev_config *cfg;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return;
	mutex_lock(&opp_lock);
	cfg = opp_config_locked(dev);
	if (cfg)
		opp_config_drop(cfg);
	mutex_unlock(&opp_lock);
}
EXPORT_SYMBOL_GPL(opp_clear_config);

static void opp_clear_config_action(void *dev)
{
	opp_clear_config(dev);
}

/**
 * devm_opp_set_config() - opp_set_config(), cleared when the driver goes
 * @dev:	the device, bound to the driver calling this
 * @config:	as for opp_set_config()
 *
 * Context: process context; may sleep, as opp_set_config().
 *
 * Return: as opp_set_config(); on error nothing is left registered.
 */
int devm_opp_set_config(struct device *dev, const struct opp_config *config)
{
	int ret = opp_set_config(dev, config);

	if (ret)
		return ret;
	return devm_add_action_or_reset(dev, opp_clear_config_action, dev);
}
EXPORT_SYMBOL_GPL(devm_opp_set_config);

/* Module unload: the configurations that drivers never cleared. */
void opp_config_exit(void)
{
	struct opp_dev_config *cfg, *tmp;

	mutex_lock(&opp_lock);
	list_for_each_entry_safe(cfg, tmp, &opp_config_list, node)
		opp_config_drop(cfg);
	mutex_unlock(&opp_lock);
}

/*
 * A new OPP whose voltage range the device's regulator cannot give is
 * added disabled, as the kernel's OPP core does: it must never be set.
 */
void opp_check_supply(struct device *dev, const struct opp_dev_config *cfg,
		      struct opp *pt)
{
	struct regulator *reg;
	struct opp_supply s;
	unsigned int i;

	if (!cfg || !pt->available)
		return;
	for (i = 0; i < max(cfg->nr_supplies, 1U); i++) {
		reg = cfg->nr_supplies ? cfg->supplies[i] : cfg->supply;
		if (!reg || i >= opp_nr_supplies(pt))
			return;
		opp_supply_of(pt, i, &s);
		/*
		 * A supply named is checked at any voltage, 0 included, as
		 * the kernel's core checks it; one given, only where the
		 * OPP has a voltage.
		 */
		if ((!s.u_volt && !cfg->nr_supplies) ||
		    regulator_is_supported_voltage(reg, s.u_volt_min,
						   s.u_volt_max))
			continue;
		dev_warn(dev, "OPP %lu Hz: supply %u: %lu-%lu uV is beyond its regulator: disabled\n",
			 pt->rate, i, s.u_volt_min, s.u_volt_max);
		pt->available = false;
		return;
	}
}
