// SPDX-License-Identifier: GPL-2.0-only
/*
 * OPP library: what a driver says of its device before the device's table
 * is read (opp_set_config()), kept per device until it clears it: the
 * hardware versions and property names the device-tree parser picks
 * OPPs and voltages by, and the clock and supply opp_set_rate() drives
 * (an OPP beyond what the supply can give is added disabled).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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

static void opp_config_release(struct kref *ref)
{
	struct opp_dev_config *cfg = container_of(ref, struct opp_dev_config,
						  ref);

	put_device(cfg->dev);
	kfree(cfg->supported_hw);
	kfree_const(cfg->prop_name);
	kfree(cfg);
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
 * Set it before the table exists; it lasts until opp_clear_config(), and
 * takes a reference on @dev until then.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR, @config is
 * NULL or sets nothing, @config->supported_hw and
 * @config->supported_hw_count disagree (one is 0 or NULL, the other not),
 * @config->prop_name is empty, or @config->clk or @config->supply is an
 * ERR_PTR; -EBUSY if @dev already has a
 * configuration or a table; -ENOMEM if memory ran out. On error nothing
 * changes.
 */
int opp_set_config(struct device *dev, const struct opp_config *config)
{
	struct opp_dev_config *cfg;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!config || !!config->supported_hw != !!config->supported_hw_count ||
	    (config->prop_name && !*config->prop_name) ||
	    IS_ERR(config->clk) || IS_ERR(config->supply) ||
	    (!config->supported_hw && !config->prop_name && !config->clk &&
	     !config->supply)) {
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
	kfree(cfg->supported_hw);
	kfree_const(cfg->prop_name);
	kfree(cfg);
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

	lockdep_assert_held(&opp_lock);
	list_for_each_entry_safe(cfg, tmp, &opp_config_list, node)
		opp_config_drop(cfg);
}

/*
 * A new OPP whose voltage range the device's regulator cannot give is
 * added disabled, as the kernel's OPP core does: it must never be set.
 */
void opp_check_supply(struct device *dev, const struct opp_dev_config *cfg,
		      struct opp *pt)
{
	if (!cfg || !cfg->supply || !pt->u_volt || !pt->available ||
	    regulator_is_supported_voltage(cfg->supply, pt->u_volt_min,
					   pt->u_volt_max))
		return;
	dev_warn(dev, "OPP %lu Hz: %lu-%lu uV is beyond its regulator: disabled\n",
		 pt->rate, pt->u_volt_min, pt->u_volt_max);
	pt->available = false;
}
