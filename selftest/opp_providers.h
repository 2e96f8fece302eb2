/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test providers of the selftests and the cpufreq sample: a clock
 * registered with the common clock framework and a voltage regulator
 * registered with the regulator framework, which record every call they
 * get, in one log, count them, and can be told to fail the next one. Real
 * frameworks, fake hardware: the library (and the kernel's OPP core, for
 * the suites that compare both) goes through clk_set_rate() and
 * regulator_set_voltage_triplet() exactly as on a board. A failure, once
 * asked for, lasts until the test clears it.
 *
 * Devices get them by name, as a board file's devices get theirs: the
 * regulator through the regulator core's consumer map (each supply name
 * for each device named), the clock through clkdev (a connection id, or
 * any, for each device named). provider_register() is the one-device
 * form, which also gets both handles for the device.
 *
 * Each call also checks the invariant opp_set_rate() must keep: the
 * supply never below what the clock's rate needs (provider->need_uv()).
 */
#ifndef _OPP_PROVIDERS_H
#define _OPP_PROVIDERS_H

#include <linux/clk.h>
#include <linux/clk-provider.h>
#include <linux/clkdev.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/regulator/consumer.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#define PROVIDER_LOG	32
#define PROVIDER_UV_MIN	500000
#define PROVIDER_UV_MAX	1400000
/* uV per us: regulator_set_voltage_time() answers from it. */
#define PROVIDER_RAMP	10000

/*
 * What a provider was asked; the power-domain votes (PROVIDER_PSTATE) and
 * interconnect requests (PROVIDER_BW) are recorded by the providers of
 * the suites that register them, into the same log.
 */
enum provider_call {
	PROVIDER_CLK,
	PROVIDER_VOLT,
	PROVIDER_ON,
	PROVIDER_OFF,
	PROVIDER_PSTATE,
	PROVIDER_BW,
};

struct provider_entry {
	enum provider_call what;
	unsigned long a;	/* the rate, lowest voltage, state or peak */
	unsigned long b;	/* 0, highest voltage asked, or average */
	unsigned int i;		/* the interconnect path */
	int err;		/* what the provider answered */
};

struct provider {
	struct clk_hw hw;
	struct clk_lookup **lookups;	/* clkdev's, one per device named */
	unsigned int nr_lookups;
	bool clk_registered;
	struct regulator_desc desc;
	struct regulator_init_data init;
	struct regulator_consumer_supply *map;	/* supply name x device */
	struct regulator_dev *rdev;
	struct device *owner;	/* provider_register()'s: their parent */
	struct clk *clk;	/* provider_register()'s consumer's handles */
	struct regulator *supply;
	const char *consumer[2];	/* and its name, NULL-terminated */
	unsigned long rate_min;	/* the clock rounds into it; 0, 0: any rate */
	unsigned long rate_max;

	spinlock_t lock;	/* guards everything below */
	unsigned long rate;
	int uv;
	int fail_clk;		/* clock changes fail with it (round_rate) */
	int fail_volt;		/* voltage changes fail with it */
	bool switchable;	/* the regulator can be enabled, and records it */
	bool on;
	unsigned int n;
	struct provider_entry log[PROVIDER_LOG];
	unsigned int calls;
	unsigned long clk_calls;
	unsigned long volt_calls;
	unsigned int violations;
	/* The lowest voltage a rate needs (the library's table says). */
	unsigned long (*need_uv)(unsigned long rate);
};

static inline void provider_record_at(struct provider *p,
				      enum provider_call what, unsigned int i,
				      unsigned long a, unsigned long b, int err)
{
	if (p->n < PROVIDER_LOG)
		p->log[p->n] = (struct provider_entry){ what, a, b, i, err };
	p->n++;
	p->calls++;
}

static inline void provider_record(struct provider *p, enum provider_call what,
				   unsigned long a, unsigned long b)
{
	provider_record_at(p, what, 0, a, b, 0);
}

/* Under p->lock: does the rail hold what the clock needs? */
static inline void provider_check(struct provider *p, unsigned long rate,
				  int uv)
{
	if (p->need_uv && uv < (int)p->need_uv(rate))
		p->violations++;
}

static inline unsigned long provider_recalc_rate(struct clk_hw *hw,
						 unsigned long parent)
{
	struct provider *p = container_of(hw, struct provider, hw);
	unsigned long flags, rate;

	spin_lock_irqsave(&p->lock, flags);
	rate = p->rate;
	spin_unlock_irqrestore(&p->lock, flags);
	return rate;
}

/*
 * The clock fails here, where clk_set_rate() hears of it: the framework
 * ignores what .set_rate returns. It then answers -EINVAL.
 */
static inline long provider_round_rate(struct clk_hw *hw, unsigned long rate,
				       unsigned long *parent)
{
	struct provider *p = container_of(hw, struct provider, hw);
	unsigned long flags;
	long ret;

	if (p->rate_max)
		rate = clamp(rate, p->rate_min, p->rate_max);
	spin_lock_irqsave(&p->lock, flags);
	ret = p->fail_clk ?: rate;
	spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}

static inline int provider_set_rate(struct clk_hw *hw, unsigned long rate,
				    unsigned long parent)
{
	struct provider *p = container_of(hw, struct provider, hw);
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	p->clk_calls++;
	provider_record(p, PROVIDER_CLK, rate, 0);
	provider_check(p, rate, p->uv);
	p->rate = rate;
	spin_unlock_irqrestore(&p->lock, flags);
	return 0;
}

static const struct clk_ops provider_clk_ops = {
	.recalc_rate = provider_recalc_rate,
	.round_rate = provider_round_rate,
	.set_rate = provider_set_rate,
};

static inline int provider_set_voltage(struct regulator_dev *rdev, int min_uv,
				       int max_uv, unsigned int *selector)
{
	struct provider *p = rdev_get_drvdata(rdev);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&p->lock, flags);
	p->volt_calls++;
	provider_record(p, PROVIDER_VOLT, min_uv, max_uv);
	ret = p->fail_volt;
	if (!ret) {
		provider_check(p, p->rate, min_uv);
		p->uv = min_uv;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	return ret;
}

static inline int provider_get_voltage(struct regulator_dev *rdev)
{
	struct provider *p = rdev_get_drvdata(rdev);
	unsigned long flags;
	int uv;

	spin_lock_irqsave(&p->lock, flags);
	uv = p->uv;
	spin_unlock_irqrestore(&p->lock, flags);
	return uv;
}

static const struct regulator_ops provider_regulator_ops = {
	.set_voltage = provider_set_voltage,
	.get_voltage = provider_get_voltage,
};

static inline int provider_switch(struct regulator_dev *rdev, bool on)
{
	struct provider *p = rdev_get_drvdata(rdev);
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);
	provider_record(p, on ? PROVIDER_ON : PROVIDER_OFF, 0, 0);
	p->on = on;
	spin_unlock_irqrestore(&p->lock, flags);
	return 0;
}

static inline int provider_enable(struct regulator_dev *rdev)
{
	return provider_switch(rdev, true);
}

static inline int provider_disable(struct regulator_dev *rdev)
{
	return provider_switch(rdev, false);
}

static inline int provider_is_enabled(struct regulator_dev *rdev)
{
	struct provider *p = rdev_get_drvdata(rdev);

	return READ_ONCE(p->on);
}

/* A regulator that can be switched: p->switchable before registering. */
static const struct regulator_ops provider_switch_ops = {
	.set_voltage = provider_set_voltage,
	.get_voltage = provider_get_voltage,
	.enable = provider_enable,
	.disable = provider_disable,
	.is_enabled = provider_is_enabled,
};

/* ---- Registration ---- */

/* Before anything is registered: the clock's rate and the rail's voltage. */
static inline void provider_init(struct provider *p, unsigned long rate,
				 int uv)
{
	spin_lock_init(&p->lock);
	p->rate = rate;
	p->uv = uv;
}

static inline unsigned int provider_count(const char * const *names)
{
	unsigned int n = 0;

	while (names[n])
		n++;
	return n;
}

/*
 * Register @p's regulator as @name under @owner, any voltage of [@uv_min,
 * @uv_max], got under each supply name of @supplies by each device named
 * in @devs (both NULL-terminated; the strings must outlive the regulator:
 * its core keeps the supply names, not copies).
 */
static inline int provider_rail_register(struct provider *p,
					 struct device *owner,
					 const char *name, int uv_min,
					 int uv_max,
					 const char * const *supplies,
					 const char * const *devs)
{
	unsigned int ns = provider_count(supplies), nd = provider_count(devs);
	struct regulator_config rcfg = {
		.dev = owner,
		.init_data = &p->init,
		.driver_data = p,
	};
	unsigned int i;

	if (!ns || !nd)
		return -EINVAL;
	p->map = kcalloc(ns * nd, sizeof(*p->map), GFP_KERNEL);
	if (!p->map)
		return -ENOMEM;
	for (i = 0; i < ns * nd; i++) {
		p->map[i].supply = supplies[i / nd];
		p->map[i].dev_name = devs[i % nd];
	}
	/*
	 * Name, then the voltage range: positional, because the framework's
	 * field names are in the camel case checkpatch refuses in new code.
	 */
	p->init.constraints = (struct regulation_constraints){
		NULL, uv_min, uv_max,
	};
	p->init.constraints.valid_ops_mask = REGULATOR_CHANGE_VOLTAGE;
	if (p->switchable)
		p->init.constraints.valid_ops_mask |= REGULATOR_CHANGE_STATUS;
	p->init.constraints.ramp_delay = PROVIDER_RAMP;
	p->init.num_consumer_supplies = ns * nd;
	p->init.consumer_supplies = p->map;
	p->desc.name = name;
	p->desc.type = REGULATOR_VOLTAGE;
	p->desc.owner = THIS_MODULE;
	p->desc.ops = p->switchable ? &provider_switch_ops :
				      &provider_regulator_ops;
	p->desc.continuous_voltage_range = true;
	p->rdev = regulator_register(owner, &p->desc, &rcfg);
	if (IS_ERR(p->rdev)) {
		kfree(p->map);
		p->map = NULL;
		return PTR_ERR(p->rdev);
	}
	return 0;
}

/* Undo provider_rail_register(), if it was done. */
static inline void provider_rail_unregister(struct provider *p)
{
	if (!IS_ERR_OR_NULL(p->rdev))
		regulator_unregister(p->rdev);
	p->rdev = NULL;
	kfree(p->map);
	p->map = NULL;
}

/* Undo provider_clock_register(), if it was done. */
static inline void provider_clock_unregister(struct provider *p)
{
	unsigned int i;

	for (i = 0; i < p->nr_lookups; i++)
		if (p->lookups[i])
			clkdev_drop(p->lookups[i]);
	kfree(p->lookups);
	p->lookups = NULL;
	p->nr_lookups = 0;
	if (p->clk_registered)
		clk_hw_unregister(&p->hw);
	p->clk_registered = false;
}

/*
 * Register @p's clock as @name under @owner, got by each device named in
 * @devs (NULL-terminated; none: by no name) under the connection id
 * @con_id, or under any id with @con_id NULL (clkdev then matches on the
 * device alone).
 */
static inline int provider_clock_register(struct provider *p,
					  struct device *owner,
					  const char *name, const char *con_id,
					  const char * const *devs)
{
	struct clk_init_data init = { .name = name, .ops = &provider_clk_ops };
	unsigned int nd = devs ? provider_count(devs) : 0, i;
	int ret;

	p->lookups = nd ? kcalloc(nd, sizeof(*p->lookups), GFP_KERNEL) : NULL;
	if (nd && !p->lookups)
		return -ENOMEM;
	p->nr_lookups = nd;
	p->hw.init = &init;
	ret = clk_hw_register(owner, &p->hw);
	if (ret) {
		provider_clock_unregister(p);
		return ret;
	}
	p->clk_registered = true;
	for (i = 0; i < nd; i++) {
		p->lookups[i] = clkdev_hw_create(&p->hw, con_id, "%s", devs[i]);
		if (!p->lookups[i]) {
			provider_clock_unregister(p);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Register a clock at @rate and a regulator at @uv named after @consumer,
 * the regulator as its supply "vdd", and get both for @consumer. Undo
 * with provider_unregister().
 */
static inline int provider_register(struct provider *p, const char *name,
				    struct device *consumer, unsigned long rate,
				    int uv)
{
	static const char * const vdd[] = { "vdd", NULL };
	int ret;

	provider_init(p, rate, uv);
	/*
	 * Without a module link: KUnit runs a module's suites before the
	 * module has its sysfs directory to link to.
	 */
	p->owner = __root_device_register(name, NULL);
	if (IS_ERR(p->owner)) {
		pr_err("%s: root device: %ld\n", name, PTR_ERR(p->owner));
		return PTR_ERR(p->owner);
	}
	ret = provider_clock_register(p, p->owner, name, NULL, NULL);
	if (ret) {
		pr_err("%s: clock: %d\n", name, ret);
		goto put_owner;
	}
	p->clk = clk_hw_get_clk(&p->hw, "opp");
	if (IS_ERR(p->clk)) {
		ret = PTR_ERR(p->clk);
		pr_err("%s: clock handle: %d\n", name, ret);
		goto put_hw;
	}
	p->consumer[0] = dev_name(consumer);
	ret = provider_rail_register(p, p->owner, name, PROVIDER_UV_MIN,
				     PROVIDER_UV_MAX, vdd, p->consumer);
	if (ret) {
		pr_err("%s: regulator: %d\n", name, ret);
		goto put_clk;
	}
	p->supply = regulator_get(consumer, "vdd");
	if (IS_ERR(p->supply)) {
		ret = PTR_ERR(p->supply);
		pr_err("%s: supply: %d\n", name, ret);
		goto put_rdev;
	}
	/* Not the framework's dummy: ours reads back the voltage it holds. */
	if (regulator_get_voltage(p->supply) != uv) {
		pr_err("%s: the supply got is not ours\n", name);
		regulator_put(p->supply);
		ret = -ENODEV;
		goto put_rdev;
	}
	/* Registration may have set the rail: the log starts now. */
	p->n = 0;
	p->calls = 0;
	p->clk_calls = 0;
	p->volt_calls = 0;
	return 0;

put_rdev:
	provider_rail_unregister(p);
put_clk:
	clk_put(p->clk);
put_hw:
	provider_clock_unregister(p);
put_owner:
	root_device_unregister(p->owner);
	return ret;
}

static inline void provider_unregister(struct provider *p)
{
	regulator_put(p->supply);
	provider_rail_unregister(p);
	clk_put(p->clk);
	provider_clock_unregister(p);
	root_device_unregister(p->owner);
}

#endif /* _OPP_PROVIDERS_H */
