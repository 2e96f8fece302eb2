// SPDX-License-Identifier: GPL-2.0-only
/*
 * Operating Performance Points library: moving a device to an OPP through
 * the kernel's frameworks: its power domain's performance state, its
 * interconnect bandwidth, its supplies and its clocks.
 *
 * The order is the kernel's OPP core's, and it keeps the hardware safe at
 * every step. Going up: the power domain first (the domain's voltage must
 * carry what the device is about to run), then the bandwidth (the memory
 * path must keep up before the device speeds up), then the supplies (the
 * rail must be high enough before the clock rises), and the clocks last.
 * Going down, the reverse: clocks first, then supplies, bandwidth and the
 * domain's vote, each lowered only once nothing needs it any more. Where
 * a step fails, the steps taken are undone in reverse order, so the device
 * is left at the OPP it was at.
 *
 * Calls for one device are serialized by a mutex of the device's
 * configuration, which holds what the transition needs (the OPP the device
 * is at, its interconnect paths); searches never take it, so lookups stay
 * lock-free while a transition is in flight.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clk.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/interconnect.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/overflow.h>
#include <linux/pm_domain.h>
#include <linux/rcupdate.h>
#include <linux/regulator/consumer.h>
#include <linux/slab.h>

#include "opp.h"
#include "opp_internal.h"

/*
 * Everything a transition programs for one OPP: each clock's rate, each
 * supply's voltages, each interconnect path's bandwidth, and the
 * performance state voted on the device's power domain (@vote: whether
 * there is one). Before the first transition, the configuration's point
 * holds what the hardware was found at.
 */
struct opp_point {
	unsigned long *rates;
	struct opp_supply *supplies;
	u32 *peak;
	u32 *avg;
	unsigned int pstate;
	bool vote;
};

/* One transition: the device, where it is, where it goes, which way. */
struct opp_move {
	struct device *dev;
	struct opp_dev_config *cfg;
	const struct opp_point *from;
	const struct opp_point *to;
	bool up;
	/* The first transition: it enables the supplies. */
	bool enable;
};

static unsigned int opp_rate_nr_clks(const struct opp_dev_config *cfg)
{
	return cfg->nr_clks ?: !!cfg->clk;
}

static struct clk *opp_rate_clk(const struct opp_dev_config *cfg,
				unsigned int i)
{
	return cfg->nr_clks ? cfg->clks[i] : cfg->clk;
}

static unsigned int opp_rate_nr_supplies(const struct opp_dev_config *cfg)
{
	return cfg->nr_supplies ?: !!cfg->supply;
}

static struct regulator *opp_rate_reg(const struct opp_dev_config *cfg,
				      unsigned int i)
{
	return cfg->nr_supplies ? cfg->supplies[i] : cfg->supply;
}

/* A point sized for @cfg's clocks, supplies and paths, in one allocation. */
static struct opp_point *opp_point_alloc(const struct opp_dev_config *cfg)
{
	size_t rates = array_size(opp_rate_nr_clks(cfg), sizeof(unsigned long));
	size_t supplies = array_size(opp_rate_nr_supplies(cfg),
				     sizeof(struct opp_supply));
	size_t bw = array_size(cfg->nr_paths, sizeof(u32));
	struct opp_point *p;
	void *mem;

	mem = kzalloc(size_add(size_add(sizeof(*p), rates),
			       size_add(supplies, size_mul(2, bw))),
		      GFP_KERNEL);
	if (!mem)
		return NULL;
	/* Widest members first: every array stays naturally aligned. */
	p = mem;
	p->rates = mem + sizeof(*p);
	p->supplies = (void *)p->rates + rates;
	p->peak = (void *)p->supplies + supplies;
	p->avg = p->peak + cfg->nr_paths;
	return p;
}

static bool opp_point_equal(const struct opp_dev_config *cfg,
			    const struct opp_point *a,
			    const struct opp_point *b)
{
	return a->vote == b->vote && a->pstate == b->pstate &&
	       !memcmp(a->rates, b->rates,
		       opp_rate_nr_clks(cfg) * sizeof(*a->rates)) &&
	       !memcmp(a->supplies, b->supplies,
		       opp_rate_nr_supplies(cfg) * sizeof(*a->supplies)) &&
	       !memcmp(a->peak, b->peak, 2 * cfg->nr_paths * sizeof(u32));
}

/*
 * Which way @to lies from @from, as the kernel's core orders OPPs: by the
 * clocks' rates, then the level, then path 0's peak bandwidth.
 */
static int opp_point_cmp(const struct opp_dev_config *cfg,
			 const struct opp_point *from,
			 const struct opp_point *to)
{
	unsigned int i;

	for (i = 0; i < opp_rate_nr_clks(cfg); i++)
		if (to->rates[i] != from->rates[i])
			return to->rates[i] > from->rates[i] ? 1 : -1;
	if (to->pstate != from->pstate)
		return to->pstate > from->pstate ? 1 : -1;
	if (cfg->nr_paths && to->peak[0] != from->peak[0])
		return to->peak[0] > from->peak[0] ? 1 : -1;
	return 0;
}

/* The level of a required OPP: its table's, or its node's if not read. */
static int opp_required_level(const struct opp_required *r, u32 *level)
{
	if (rcu_dereference(r->table)) {
		*level = READ_ONCE(r->level);
		return 0;
	}
	if (r->np && !of_property_read_u32(r->np, "opp-level", level))
		return 0;
	return -ENODEV;
}

/*
 * @opp's values into @p, under RCU. The power domain's vote (made only
 * for a device in one, @in_domain) is the level of the OPP's one required
 * OPP, or else the OPP's own level, as the kernel's core votes them from
 * 6.8 on; an OPP that requires several OPPs votes none of them (the
 * kernel votes those on per-domain devices the driver attaches: not
 * supported here, see Documentation/opp.rst).
 */
static int opp_point_fill(const struct opp_dev_config *cfg,
			  struct opp_point *p, const struct opp *opp,
			  bool in_domain)
{
	unsigned int i, nr_required;
	u32 level;
	int ret;

	for (i = 0; i < opp_rate_nr_clks(cfg); i++)
		p->rates[i] = opp_clk_rate(opp, i);
	for (i = 0; i < opp_rate_nr_supplies(cfg); i++) {
		if (i < opp_nr_supplies(opp))
			opp_supply_of(opp, i, &p->supplies[i]);
		else
			memset(&p->supplies[i], 0, sizeof(p->supplies[i]));
	}
	for (i = 0; i < cfg->nr_paths; i++) {
		p->peak[i] = opp_peak_bw(opp, i);
		p->avg[i] = opp_avg_bw(opp, i);
	}
	p->vote = false;
	p->pstate = 0;
	if (!in_domain)
		return 0;
	nr_required = opp->extra ? opp->extra->nr_required : 0;
	if (nr_required == 1) {
		ret = opp_required_level(&opp->extra->req[0], &level);
		if (ret)
			return ret;
		p->vote = true;
		p->pstate = level;
	} else if (!nr_required && opp->level != OPP_LEVEL_NONE) {
		p->vote = true;
		p->pstate = opp->level;
	}
	return 0;
}

/*
 * Where the hardware is before the first transition: each clock's rate,
 * each supply's voltage as a triplet of one value (0: unknown), no vote
 * and no bandwidth (none was made through this configuration).
 */
static void opp_point_read_back(const struct opp_dev_config *cfg,
				struct opp_point *p)
{
	struct opp_supply *s;
	unsigned int i;
	int uv;

	for (i = 0; i < opp_rate_nr_clks(cfg); i++)
		p->rates[i] = clk_get_rate(opp_rate_clk(cfg, i));
	for (i = 0; i < opp_rate_nr_supplies(cfg); i++) {
		s = &p->supplies[i];
		uv = regulator_get_voltage(opp_rate_reg(cfg, i));
		memset(s, 0, sizeof(*s));
		s->u_volt = uv > 0 ? uv : 0;
		s->u_volt_min = s->u_volt;
		s->u_volt_max = s->u_volt;
	}
}

/*
 * Each step below programs @m->to (@m->from when @undo), restores what it
 * changed itself when it fails part way, and returns the error.
 */

static int opp_step_domain(const struct opp_move *m, bool undo)
{
	const struct opp_point *to = undo ? m->from : m->to;
	const struct opp_point *from = undo ? m->to : m->from;
	unsigned int state = to->vote ? to->pstate : 0;
	int ret;

	if (!to->vote && !from->vote)
		return 0;
	if (to->vote == from->vote && to->pstate == from->pstate)
		return 0;
	ret = dev_pm_genpd_set_performance_state(m->dev, state);
	if (ret)
		dev_err(m->dev, "power domain refused performance state %u: %d\n",
			state, ret);
	return ret;
}

static int opp_step_bw(const struct opp_move *m, bool undo)
{
	const struct opp_point *to = undo ? m->from : m->to;
	const struct opp_point *from = undo ? m->to : m->from;
	struct icc_path **paths = m->cfg->paths;
	unsigned int i;
	int ret;

	for (i = 0; i < m->cfg->nr_paths; i++) {
		if (to->peak[i] == from->peak[i] && to->avg[i] == from->avg[i])
			continue;
		ret = icc_set_bw(paths[i], to->avg[i], to->peak[i]);
		if (ret) {
			dev_err(m->dev, "interconnect path %u refused %u/%u kBps: %d\n",
				i, to->avg[i], to->peak[i], ret);
			while (i--)
				if (icc_set_bw(paths[i], from->avg[i],
					       from->peak[i]))
					dev_err(m->dev, "could not put path %u back\n",
						i);
			return ret;
		}
	}
	return 0;
}

/* Supply @i at @p's voltages; nothing for a supply without one. */
static int opp_supply_set(const struct opp_move *m, const struct opp_point *p,
			  unsigned int i)
{
	const struct opp_supply *s = &p->supplies[i];

	if (!s->u_volt)
		return 0;
	return regulator_set_voltage_triplet(opp_rate_reg(m->cfg, i),
					     s->u_volt_min, s->u_volt,
					     s->u_volt_max);
}

/*
 * Rising, supply 0 first; falling, the last first. On the first
 * transition the supplies are enabled once their voltages are set, as
 * the kernel's core enables its supply: a rail that was on at boot must
 * not be switched on at a voltage nobody chose.
 */
static int opp_step_supplies(const struct opp_move *m, bool undo)
{
	const struct opp_point *to = undo ? m->from : m->to;
	const struct opp_point *from = undo ? m->to : m->from;
	unsigned int n = opp_rate_nr_supplies(m->cfg), k, i, e = 0;
	bool rising = m->up != undo;
	int ret = 0;

	if (m->enable && undo)
		for (i = 0; i < n; i++)
			regulator_disable(opp_rate_reg(m->cfg, i));
	for (k = 0; k < n; k++) {
		i = rising ? k : n - 1 - k;
		if (!memcmp(&to->supplies[i], &from->supplies[i],
			    sizeof(to->supplies[i])))
			continue;
		ret = opp_supply_set(m, to, i);
		if (ret) {
			dev_err(m->dev, "supply %u refused %lu uV: %d\n", i,
				to->supplies[i].u_volt, ret);
			goto restore;
		}
	}
	if (!m->enable || undo)
		return 0;
	for (e = 0; e < n; e++) {
		ret = regulator_enable(opp_rate_reg(m->cfg, e));
		if (ret) {
			dev_err(m->dev, "supply %u could not be enabled: %d\n",
				e, ret);
			break;
		}
	}
	if (!ret)
		return 0;
	while (e--)
		regulator_disable(opp_rate_reg(m->cfg, e));
restore:
	while (k--) {
		i = rising ? k : n - 1 - k;
		if (opp_supply_set(m, from, i))
			dev_err(m->dev, "could not put supply %u back at %lu uV\n",
				i, from->supplies[i].u_volt);
	}
	return ret;
}

/* Rising, clock 0 first; falling, the last first (as the kernel's). */
static int opp_step_clks(const struct opp_move *m, bool undo)
{
	const struct opp_point *to = undo ? m->from : m->to;
	const struct opp_point *from = undo ? m->to : m->from;
	unsigned int n = opp_rate_nr_clks(m->cfg), k, i;
	bool rising = m->up != undo;
	int ret;

	for (k = 0; k < n; k++) {
		i = rising ? k : n - 1 - k;
		/* A table keyed by level or bandwidth may give no rate. */
		if (!to->rates[i] || to->rates[i] == from->rates[i])
			continue;
		ret = clk_set_rate(opp_rate_clk(m->cfg, i), to->rates[i]);
		if (ret) {
			dev_err(m->dev, "clock %u refused %lu Hz: %d\n", i,
				to->rates[i], ret);
			goto restore;
		}
	}
	return 0;
restore:
	while (k--) {
		i = rising ? k : n - 1 - k;
		if (from->rates[i] &&
		    clk_set_rate(opp_rate_clk(m->cfg, i), from->rates[i]))
			dev_err(m->dev, "could not put clock %u back at %lu Hz\n",
				i, from->rates[i]);
	}
	return ret;
}

typedef int (*opp_step_fn)(const struct opp_move *m, bool undo);

/* The steps going up; going down runs them from the end. */
static const opp_step_fn opp_steps[] = {
	opp_step_domain,
	opp_step_bw,
	opp_step_supplies,
	opp_step_clks,
};

static int opp_move_run(const struct opp_move *m)
{
	unsigned int n = ARRAY_SIZE(opp_steps), k;
	int ret;

	for (k = 0; k < n; k++) {
		ret = opp_steps[m->up ? k : n - 1 - k](m, false);
		if (ret)
			break;
	}
	if (!ret)
		return 0;
	while (k--)
		if (opp_steps[m->up ? k : n - 1 - k](m, true))
			dev_err(m->dev, "an OPP step could not be undone\n");
	return ret;
}

/*
 * What the device's transitions kept, undone when its configuration goes
 * (opp_dev_config's @release).
 */
static void opp_rate_release(struct opp_dev_config *cfg)
{
	unsigned int i;

	if (cfg->cur && cfg->at_opp && cfg->cur->vote &&
	    dev_pm_genpd_set_performance_state(cfg->dev, 0))
		dev_warn(cfg->dev, "could not drop the power domain's vote\n");
	while (cfg->nr_paths)
		icc_put(cfg->paths[--cfg->nr_paths]);
	if (cfg->enabled)
		for (i = 0; i < opp_rate_nr_supplies(cfg); i++)
			regulator_disable(opp_rate_reg(cfg, i));
	kfree(cfg->paths);
	kfree(cfg->cur);
	kfree(cfg->next);
}

/*
 * What the first transition of @cfg's device needs: its table's
 * interconnect paths, got now (the table is read by then, and it says how
 * many), and the points. Under @cfg->rate_lock.
 */
static int opp_rate_prepare(struct device *dev, struct opp_dev_config *cfg)
{
	struct opp_table *table;
	struct icc_path *path;
	unsigned int n;
	int ret;

	lockdep_assert_held(&cfg->rate_lock);
	if (cfg->cur)
		return 0;
	cfg->release = opp_rate_release;
	rcu_read_lock();
	table = opp_table_find(dev);
	n = table ? table->nr_paths : 0;
	rcu_read_unlock();
	if (!table)
		return -ENODEV;
	if (n) {
		cfg->paths = kcalloc(n, sizeof(*cfg->paths), GFP_KERNEL);
		if (!cfg->paths)
			return -ENOMEM;
	}
	for (; cfg->nr_paths < n; cfg->nr_paths++) {
		path = of_icc_get_by_index(dev, cfg->nr_paths);
		if (IS_ERR(path)) {
			ret = PTR_ERR(path);
			/*
			 * Not dev_err_probe(): the caller may not be probing,
			 * and a deferral reason it records outlives the call.
			 */
			if (ret != -EPROBE_DEFER)
				dev_err(dev, "interconnect path %u: %d\n",
					cfg->nr_paths, ret);
			goto put;
		}
		cfg->paths[cfg->nr_paths] = path;
	}
	cfg->cur = opp_point_alloc(cfg);
	cfg->next = opp_point_alloc(cfg);
	if (cfg->cur && cfg->next) {
		opp_point_read_back(cfg, cfg->cur);
		return 0;
	}
	ret = -ENOMEM;
	kfree(cfg->cur);
	kfree(cfg->next);
	cfg->cur = NULL;
	cfg->next = NULL;
put:
	while (cfg->nr_paths)
		icc_put(cfg->paths[--cfg->nr_paths]);
	kfree(cfg->paths);
	cfg->paths = NULL;
	return ret;
}

enum opp_rate_key { OPP_KEY_FREQ, OPP_KEY_LEVEL };

/*
 * The device to the lowest available OPP at or above @key (a rate or a
 * level): looked up under RCU, copied out, then programmed.
 */
static int opp_rate_go(struct device *dev, struct opp_dev_config *cfg,
		       enum opp_rate_key how, unsigned long key)
{
	bool in_domain = !!READ_ONCE(dev->pm_domain);
	struct opp_move m = { .dev = dev, .cfg = cfg };
	unsigned int level = min_t(unsigned long, key, UINT_MAX);
	struct opp_point *swap;
	struct opp *opp;
	int ret;

	lockdep_assert_held(&cfg->rate_lock);
	ret = opp_rate_prepare(dev, cfg);
	if (ret)
		return ret;
	rcu_read_lock();
	if (how == OPP_KEY_LEVEL)
		opp = opp_find_level_ceil(dev, &level);
	else
		opp = opp_find_freq_ceil(dev, &key);
	ret = IS_ERR(opp) ? PTR_ERR(opp) :
	      opp_point_fill(cfg, cfg->next, opp, in_domain);
	rcu_read_unlock();
	if (ret)
		return ret;
	if (cfg->at_opp && opp_point_equal(cfg, cfg->cur, cfg->next))
		return 0;
	m.from = cfg->cur;
	m.to = cfg->next;
	m.up = opp_point_cmp(cfg, m.from, m.to) >= 0;
	m.enable = !cfg->enabled;
	ret = opp_move_run(&m);
	if (ret)
		return ret;
	swap = cfg->cur;
	cfg->cur = cfg->next;
	cfg->next = swap;
	cfg->at_opp = true;
	cfg->enabled = true;
	return 0;
}

/* @dev's configuration for a transition, counted, or an ERR_PTR. */
static struct opp_dev_config *opp_rate_config(struct device *dev,
					      bool need_clk)
{
	struct opp_dev_config *cfg = opp_config_get(dev);

	if (cfg && (!need_clk || opp_rate_nr_clks(cfg)))
		return cfg;
	if (cfg)
		opp_config_put(cfg);
	return ERR_PTR(-ENODEV);
}

/*
 * What opp_set_rate() and opp_set_level() share: @dev's configuration
 * (a search by rate needs its clock), its transitions serialized.
 */
static int opp_rate_set(struct device *dev, enum opp_rate_key how,
			unsigned long key, const char *func)
{
	struct opp_dev_config *cfg;
	int ret;

	might_sleep();
	if (opp_bad_dev(dev, func))
		return -EINVAL;
	cfg = opp_rate_config(dev, how == OPP_KEY_FREQ);
	if (IS_ERR(cfg))
		return PTR_ERR(cfg);
	mutex_lock(&cfg->rate_lock);
	ret = opp_rate_go(dev, cfg, how, key);
	mutex_unlock(&cfg->rate_lock);
	opp_config_put(cfg);
	return ret;
}

/**
 * opp_set_rate() - move a device to the OPP for a rate
 * @dev:	the device; opp_set_config() gave it its clocks (and supplies)
 * @freq:	the rate wanted, in Hz (of the first clock, where there are
 *		several)
 *
 * Picks the lowest available OPP at or above @freq and programs all it
 * names, in the kernel's OPP core's order: going up, the performance
 * state of the device's power domain (the level of the OPP's required
 * OPP, or its own level, for a device attached to a generic power
 * domain), the bandwidth of each interconnect path of its table (got
 * from the device tree on the first call), each supply's voltage (the
 * OPP's ``<target min max>``), then each clock's rate; going down, the
 * same in reverse. When a step fails, the steps taken are undone, so the
 * device stays at the OPP it was at, and the error is returned. The first
 * call reads the clocks' rates and the supplies' voltages to order the
 * steps from (so a supply is never left below what a clock runs at), and
 * enables the supplies once their voltages are set; they stay enabled,
 * the bandwidth and the vote stay made, until the configuration is
 * cleared. Moving to the OPP the device is at does nothing.
 *
 * Context: process context; may sleep (the frameworks do). Calls for one
 * device are serialized; searches and lookups of its table go on without
 * waiting, and see the table, not the OPP being set. Must not be called
 * under rcu_read_lock() nor from a notifier callback.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no clock from opp_set_config() or no table, or a required OPP
 * has no level; -ERANGE if no available OPP has a rate >= @freq;
 * -ENOMEM; otherwise the error of the framework that refused a step
 * (including the interconnect's for a path it cannot give yet,
 * -EPROBE_DEFER).
 */
int opp_set_rate(struct device *dev, unsigned long freq)
{
	return opp_rate_set(dev, OPP_KEY_FREQ, freq, __func__);
}
EXPORT_SYMBOL_GPL(opp_set_rate);

/**
 * opp_set_level() - move a device to the OPP for a performance level
 * @dev:	the device; opp_set_config() configured it
 * @level:	the level wanted (device tree ``opp-level``)
 *
 * opp_set_rate() for tables keyed by level: picks the lowest available
 * OPP whose level is at or above @level, as opp_find_level_ceil() does,
 * and programs all it names in the same order, with the same rollback. A
 * device without clocks has no clock step.
 *
 * Context: process context; may sleep, as opp_set_rate().
 *
 * Return: as opp_set_rate(), -ERANGE if no available OPP has a level >=
 * @level; -ENODEV if @dev has no configuration or no table.
 */
int opp_set_level(struct device *dev, unsigned int level)
{
	return opp_rate_set(dev, OPP_KEY_LEVEL, level, __func__);
}
EXPORT_SYMBOL_GPL(opp_set_level);

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
