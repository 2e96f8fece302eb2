/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test providers for opp_set_rate(): a clock registered with the common
 * clock framework and a voltage regulator registered with the regulator
 * framework, both of which record every call they get, in one log, and
 * can be told to fail the next one. Real frameworks, fake hardware: the
 * library goes through clk_set_rate() and regulator_set_voltage_triplet()
 * exactly as on a board. A failure, once asked for, lasts until the test
 * clears it.
 *
 * Each call also checks the invariant opp_set_rate() must keep: the
 * supply never below what the clock's rate needs (provider->need_uv()).
 */
#ifndef _OPP_RATE_PROVIDERS_H
#define _OPP_RATE_PROVIDERS_H

#include <linux/clk.h>
#include <linux/clk-provider.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/regulator/consumer.h>
#include <linux/regulator/driver.h>
#include <linux/regulator/machine.h>
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
	struct regulator_desc desc;
	struct regulator_init_data init;
	struct regulator_consumer_supply supply_map;
	struct device *owner;	/* registered: the regulator's parent */
	struct regulator_dev *rdev;
	struct clk *clk;	/* the consumer's handles */
	struct regulator *supply;

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

/*
 * Register a clock at @rate and a regulator at @uv named after @consumer,
 * and get both for @consumer. Undo with provider_unregister().
 */
static inline int provider_register(struct provider *p, const char *name,
				    struct device *consumer, unsigned long rate,
				    int uv)
{
	struct clk_init_data clk_init = {
		.name = name,
		.ops = &provider_clk_ops,
	};
	struct regulator_config rcfg = { };
	int ret;

	spin_lock_init(&p->lock);
	p->rate = rate;
	p->uv = uv;
	/*
	 * Without a module link: KUnit runs a module's suites before the
	 * module has its sysfs directory to link to.
	 */
	p->owner = __root_device_register(name, NULL);
	if (IS_ERR(p->owner)) {
		pr_err("%s: root device: %ld\n", name, PTR_ERR(p->owner));
		return PTR_ERR(p->owner);
	}

	p->hw.init = &clk_init;
	ret = clk_hw_register(p->owner, &p->hw);
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

	p->supply_map.supply = "vdd";
	p->supply_map.dev_name = dev_name(consumer);
	/*
	 * Name, then the voltage range: positional, because the framework's
	 * field names are in the camel case checkpatch refuses in new code.
	 */
	p->init.constraints = (struct regulation_constraints){
		NULL, PROVIDER_UV_MIN, PROVIDER_UV_MAX,
	};
	p->init.constraints.valid_ops_mask = REGULATOR_CHANGE_VOLTAGE;
	if (p->switchable)
		p->init.constraints.valid_ops_mask |= REGULATOR_CHANGE_STATUS;
	p->init.constraints.ramp_delay = PROVIDER_RAMP;
	p->init.num_consumer_supplies = 1;
	p->init.consumer_supplies = &p->supply_map;
	p->desc.name = name;
	p->desc.type = REGULATOR_VOLTAGE;
	p->desc.owner = THIS_MODULE;
	p->desc.ops = p->switchable ? &provider_switch_ops :
				      &provider_regulator_ops;
	p->desc.continuous_voltage_range = true;
	rcfg.dev = p->owner;
	rcfg.init_data = &p->init;
	rcfg.driver_data = p;
	p->rdev = regulator_register(p->owner, &p->desc, &rcfg);
	if (IS_ERR(p->rdev)) {
		ret = PTR_ERR(p->rdev);
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
	return 0;

put_rdev:
	regulator_unregister(p->rdev);
put_clk:
	clk_put(p->clk);
put_hw:
	clk_hw_unregister(&p->hw);
put_owner:
	root_device_unregister(p->owner);
	return ret;
}

static inline void provider_unregister(struct provider *p)
{
	regulator_put(p->supply);
	regulator_unregister(p->rdev);
	clk_put(p->clk);
	clk_hw_unregister(&p->hw);
	root_device_unregister(p->owner);
}

#endif /* _OPP_RATE_PROVIDERS_H */
