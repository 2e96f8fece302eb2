/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A voltage rail and a clock that devices get by name, as a board file's
 * devices get theirs: registered with the regulator and common clock
 * frameworks and found through the frameworks' own name maps (the
 * regulator consumer map, clkdev), so that a device whose node names no
 * supply or clock still gets them. Each keeps the last value it was set
 * to, for a test to read. The suites that compare this library's parser
 * with the kernel's name the same providers to both sides' devices.
 */
#ifndef _OPP_NAMED_PROVIDERS_H
#define _OPP_NAMED_PROVIDERS_H

#include <linux/clk-provider.h>
#include <linux/clkdev.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/slab.h>

/* The devices one provider is mapped to, at most. */
#define NAMED_MAX_DEVS	2

struct named_rail {
	struct regulator_desc desc;
	struct regulator_init_data init;
	struct regulator_consumer_supply *map;
	struct regulator_dev *rdev;
	int uv;
};

struct named_clock {
	struct clk_hw hw;
	struct clk_lookup *lookup[NAMED_MAX_DEVS];
	bool registered;
	unsigned long rate;
};

static inline int named_rail_set(struct regulator_dev *rdev, int min_uv,
				 int max_uv, unsigned int *selector)
{
	struct named_rail *r = rdev_get_drvdata(rdev);

	WRITE_ONCE(r->uv, min_uv);
	return 0;
}

static inline int named_rail_get(struct regulator_dev *rdev)
{
	struct named_rail *r = rdev_get_drvdata(rdev);

	return READ_ONCE(r->uv);
}

static const struct regulator_ops named_rail_ops = {
	.set_voltage = named_rail_set,
	.get_voltage = named_rail_get,
};

static inline unsigned int named_count(const char * const *names)
{
	unsigned int n = 0;

	while (names[n])
		n++;
	return n;
}

/*
 * Register @r as the regulator @name under @owner, any voltage of
 * [@uv_min, @uv_max] (it starts at @uv_min), got under each supply name
 * of @supplies by each device named in @devs (both NULL-terminated; the
 * strings must outlive the rail: the regulator core keeps the supply
 * names, not copies).
 */
static inline int named_rail_register(struct named_rail *r,
				      struct device *owner, const char *name,
				      int uv_min, int uv_max,
				      const char * const *supplies,
				      const char * const *devs)
{
	unsigned int ns = named_count(supplies), nd = named_count(devs), i;
	struct regulator_config rcfg = {
		.dev = owner,
		.init_data = &r->init,
		.driver_data = r,
	};

	memset(r, 0, sizeof(*r));
	if (!ns || !nd || nd > NAMED_MAX_DEVS)
		return -EINVAL;
	r->map = kcalloc(ns * nd, sizeof(*r->map), GFP_KERNEL);
	if (!r->map)
		return -ENOMEM;
	for (i = 0; i < ns * nd; i++) {
		r->map[i].supply = supplies[i / nd];
		r->map[i].dev_name = devs[i % nd];
	}
	r->uv = uv_min;
	/* Positional: the framework's field names are in camel case. */
	r->init.constraints = (struct regulation_constraints){
		NULL, uv_min, uv_max,
	};
	r->init.constraints.valid_ops_mask = REGULATOR_CHANGE_VOLTAGE;
	r->init.num_consumer_supplies = ns * nd;
	r->init.consumer_supplies = r->map;
	r->desc.name = name;
	r->desc.type = REGULATOR_VOLTAGE;
	r->desc.owner = THIS_MODULE;
	r->desc.ops = &named_rail_ops;
	r->desc.continuous_voltage_range = true;
	r->rdev = regulator_register(owner, &r->desc, &rcfg);
	if (IS_ERR(r->rdev)) {
		kfree(r->map);
		r->map = NULL;
		return PTR_ERR(r->rdev);
	}
	return 0;
}

/* Undo named_rail_register(); @r may be unregistered already, or zeroed. */
static inline void named_rail_unregister(struct named_rail *r)
{
	if (!IS_ERR_OR_NULL(r->rdev))
		regulator_unregister(r->rdev);
	r->rdev = NULL;
	kfree(r->map);
	r->map = NULL;
}

static inline unsigned long named_clk_recalc(struct clk_hw *hw,
					     unsigned long parent)
{
	return READ_ONCE(container_of(hw, struct named_clock, hw)->rate);
}

static inline long named_clk_round(struct clk_hw *hw, unsigned long rate,
				   unsigned long *parent)
{
	return rate;
}

static inline int named_clk_set(struct clk_hw *hw, unsigned long rate,
				unsigned long parent)
{
	WRITE_ONCE(container_of(hw, struct named_clock, hw)->rate, rate);
	return 0;
}

static const struct clk_ops named_clk_ops = {
	.recalc_rate = named_clk_recalc,
	.round_rate = named_clk_round,
	.set_rate = named_clk_set,
};

/* Undo named_clock_register(); @c may be unregistered already, or zeroed. */
static inline void named_clock_unregister(struct named_clock *c)
{
	int i;

	for (i = 0; i < NAMED_MAX_DEVS; i++) {
		if (c->lookup[i])
			clkdev_drop(c->lookup[i]);
		c->lookup[i] = NULL;
	}
	if (c->registered)
		clk_hw_unregister(&c->hw);
	c->registered = false;
}

/*
 * Register @c as the clock @name at @rate, got by each device named in
 * @devs (NULL-terminated) under the connection id @con_id, or under any
 * id with @con_id NULL (clkdev then matches on the device alone).
 */
static inline int named_clock_register(struct named_clock *c, const char *name,
				       unsigned long rate, const char *con_id,
				       const char * const *devs)
{
	struct clk_init_data init = { .name = name, .ops = &named_clk_ops };
	unsigned int nd = named_count(devs), i;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!nd || nd > NAMED_MAX_DEVS)
		return -EINVAL;
	c->rate = rate;
	c->hw.init = &init;
	ret = clk_hw_register(NULL, &c->hw);
	if (ret)
		return ret;
	c->registered = true;
	for (i = 0; i < nd; i++) {
		c->lookup[i] = clkdev_hw_create(&c->hw, con_id, "%s", devs[i]);
		if (!c->lookup[i]) {
			named_clock_unregister(c);
			return -ENOMEM;
		}
	}
	return 0;
}

#endif /* _OPP_NAMED_PROVIDERS_H */
