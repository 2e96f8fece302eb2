/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A device's table as this library and the kernel's OPP core each give
 * it, read through the searches both have, and their comparison field by
 * field: the opp_of_v2 suite's, shared with opp_of_corpus (which reads
 * every table of the kernel tree's boards the same way).
 *
 * Each walk reads at most OF_V2_MAX_OPPS OPPs; a caller whose tables may
 * have more checks of_v2_full().
 */
#ifndef _OPP_OF_COMPARE_H
#define _OPP_OF_COMPARE_H

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/pm_opp.h>
#include <linux/rcupdate.h>

#include "../compat.h"
#include "../opp.h"
#include "opp_fixture.h"

/*
 * The OPPs a table may have, and the paths the bandwidth walks try (the
 * tables' paths and one more): a suite may set either before it includes
 * this file.
 */
#ifndef OF_V2_MAX_OPPS
#define OF_V2_MAX_OPPS	8
#endif
#ifndef OF_V2_PATHS
#define OF_V2_PATHS	3
#endif

/*
 * A walk through a table by level or by the bandwidth of one path: what
 * each search found (its key, rate and voltage) and the error that ended
 * the walk.
 */
struct of_v2_walk {
	int n;
	unsigned int key[OF_V2_MAX_OPPS];
	unsigned long rate[OF_V2_MAX_OPPS];
	unsigned long u_volt[OF_V2_MAX_OPPS];
	/* Level walks: the exact search of each level found, by rate. */
	unsigned long exact_rate[OF_V2_MAX_OPPS];
	int end;
};

/* What both parsers must agree on: a table, OPP by OPP. */
struct of_v2_table {
	int count;
	struct opp_info opp[OF_V2_MAX_OPPS];
	unsigned long suspend_freq;
	unsigned long latency_ns;
	/* The number of available OPPs, those the rate walk skips included. */
	int total;
	struct of_v2_walk up;
	struct of_v2_walk down;
	/* By the peak bandwidth of each path tried, up and down. */
	struct of_v2_walk bw_up[OF_V2_PATHS];
	struct of_v2_walk bw_down[OF_V2_PATHS];
};

/* Record one step of a walk. */
static inline void of_v2_walk_add(struct of_v2_walk *w, unsigned int key,
				  unsigned long rate, unsigned long u_volt)
{
	w->key[w->n] = key;
	w->rate[w->n] = rate;
	w->u_volt[w->n] = u_volt;
	w->n++;
}

/*
 * One search of a walk, by level (@path < 0) or by the peak bandwidth of
 * @path, the OPP of *@key or the next one up (@up) or down; on success
 * *@key is the key the OPP found has, as the kernel's searches leave it,
 * and @info holds its rate and voltage at least.
 */
typedef int (*of_v2_search_fn)(struct device *dev, unsigned int *key,
			       int path, bool up, struct opp_info *info);

static inline int of_v2_search_ours(struct device *dev, unsigned int *key,
				    int path, bool up, struct opp_info *info)
{
	int ret;

	if (path < 0)
		ret = up ? opp_lookup_level_ceil(dev, *key, info) :
			   opp_lookup_level_floor(dev, *key, info);
	else
		ret = up ? opp_lookup_bw_ceil(dev, *key, path, info) :
			   opp_lookup_bw_floor(dev, *key, path, info);
	if (!ret)
		*key = path < 0 ? info->level : info->peak_kbps;
	return ret;
}

/*
 * 6.1's core has no floor search by level: its walk down ends at once,
 * and of_v2_expect_same() does not compare it.
 */
static inline struct dev_pm_opp *of_v2_find_level_floor(struct device *dev,
							unsigned int *level)
{
#if OPP_KERNEL_HAS_LEVEL_FLOOR
	return dev_pm_opp_find_level_floor(dev, level);
#else
	return ERR_PTR(-EOPNOTSUPP);
#endif
}

static inline int of_v2_search_kernels(struct device *dev, unsigned int *key,
				       int path, bool up, struct opp_info *info)
{
	struct dev_pm_opp *opp;

	if (path >= 0)
		opp = up ? dev_pm_opp_find_bw_ceil(dev, key, path) :
			   dev_pm_opp_find_bw_floor(dev, key, path);
	else if (up)
		opp = dev_pm_opp_find_level_ceil(dev, key);
	else
		opp = of_v2_find_level_floor(dev, key);
	if (IS_ERR(opp))
		return PTR_ERR(opp);
	info->rate = dev_pm_opp_get_freq(opp);
	info->u_volt = dev_pm_opp_get_voltage(opp);
	dev_pm_opp_put(opp);
	return 0;
}

/*
 * A walk of @dev's table with @search, up from 0 or down from U32_MAX,
 * each step one past the key the last one found: every key once, in
 * order, whichever side searches.
 */
static inline void of_v2_walk(struct device *dev, of_v2_search_fn search,
			      int path, bool up, struct of_v2_walk *w)
{
	unsigned int key = up ? 0 : U32_MAX;
	struct opp_info info;
	int ret;

	while (w->n < OF_V2_MAX_OPPS) {
		ret = search(dev, &key, path, up, &info);
		if (ret) {
			w->end = ret;
			break;
		}
		of_v2_walk_add(w, key, info.rate, info.u_volt);
		if (key == (up ? U32_MAX : 0))
			break;
		key = up ? key + 1 : key - 1;
	}
}

/* By level, then by the peak bandwidth of each path tried; up and down. */
static inline void of_v2_walks(struct device *dev, of_v2_search_fn search,
			       struct of_v2_table *t)
{
	int path;

	of_v2_walk(dev, search, -1, true, &t->up);
	of_v2_walk(dev, search, -1, false, &t->down);
	for (path = 0; path < OF_V2_PATHS; path++) {
		of_v2_walk(dev, search, path, true, &t->bw_up[path]);
		of_v2_walk(dev, search, path, false, &t->bw_down[path]);
	}
}

/* This library's table of @dev, walked upwards with the copy-out lookups. */
static inline void of_v2_read_ours(struct device *dev, struct of_v2_table *t)
{
	struct opp_info info;
	unsigned long f = 0;
	int i;

	memset(t, 0, sizeof(*t));
	while (t->count < OF_V2_MAX_OPPS &&
	       !opp_lookup_ceil(dev, f, &t->opp[t->count]))
		f = t->opp[t->count++].rate + 1;
	t->suspend_freq = opp_get_suspend_opp_freq(dev);
	t->latency_ns = opp_get_max_clock_latency(dev);
	t->total = fixture_count(dev);
	of_v2_walks(dev, of_v2_search_ours, t);
	for (i = 0; i < t->up.n; i++)
		if (!opp_lookup_level_exact(dev, t->up.key[i], &info))
			t->up.exact_rate[i] = info.rate;
}

/*
 * The kernel's OPP core's table of @dev, in the same form; its supply
 * values (target, min, max, current) only with @supplies: a v1 table has
 * no supply count in the kernel's core (its regulator_count stays -1), and
 * dev_pm_opp_get_supplies() would copy that many entries. Without, min
 * and max read 0 and the current is not asked.
 */
static inline void of_v2_read_kernels_supplies(struct kunit *test,
					       struct device *dev,
					       struct of_v2_table *t,
					       bool supplies)
{
	struct dev_pm_opp_supply supply;
	struct dev_pm_opp *opp;
	struct opp_info *o;
	unsigned long f = 0;
	int i;

	memset(t, 0, sizeof(*t));
	while (t->count < OF_V2_MAX_OPPS) {
		opp = dev_pm_opp_find_freq_ceil(dev, &f);
		if (IS_ERR(opp))
			break;
		o = &t->opp[t->count++];
		o->rate = f;
		o->u_volt = dev_pm_opp_get_voltage(opp);
		if (supplies) {
			memset(&supply, 0, sizeof(supply));
			KUNIT_EXPECT_EQ(test, dev_pm_opp_get_supplies(opp, &supply), 0);
			o->u_volt_min = supply.u_volt_min ?: o->u_volt;
			o->u_volt_max = supply.u_volt_max ?: o->u_volt;
			o->u_amp = supply.u_amp;
		}
		o->u_watt = dev_pm_opp_get_power(opp);
		o->level = dev_pm_opp_get_level(opp);
		o->available = true;
		o->turbo = dev_pm_opp_is_turbo(opp);
		dev_pm_opp_put(opp);
		f++;
	}
	t->suspend_freq = dev_pm_opp_get_suspend_opp_freq(dev);
	/*
	 * The kernel's OPP is a struct of its own; mark suspend alike (a
	 * suspend OPP without a rate is not told apart by its rate).
	 */
	for (f = 0; f < t->count; f++)
		t->opp[f].suspend = t->suspend_freq &&
				    t->opp[f].rate == t->suspend_freq;
	t->latency_ns = dev_pm_opp_get_max_clock_latency(dev);
	t->total = dev_pm_opp_get_opp_count(dev);
	of_v2_walks(dev, of_v2_search_kernels, t);
	for (i = 0; i < t->up.n; i++) {
		opp = dev_pm_opp_find_level_exact(dev, t->up.key[i]);
		if (IS_ERR(opp))
			continue;
		t->up.exact_rate[i] = dev_pm_opp_get_freq(opp);
		dev_pm_opp_put(opp);
	}
}

static inline void of_v2_read_kernels(struct kunit *test, struct device *dev,
				      struct of_v2_table *t)
{
	of_v2_read_kernels_supplies(test, dev, t, true);
}

static inline void of_v2_expect_walk(struct kunit *test, const char *way,
				     const struct of_v2_walk *a,
				     const struct of_v2_walk *k)
{
	int i;

	KUNIT_EXPECT_EQ_MSG(test, a->end, k->end, "walk %s", way);
	KUNIT_EXPECT_EQ_MSG(test, a->n, k->n, "walk %s", way);
	/* Not an assertion: a corpus goes on to its next table. */
	if (a->n != k->n)
		return;
	for (i = 0; i < a->n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, a->key[i], k->key[i],
				    "walk %s, step %d", way, i);
		KUNIT_EXPECT_EQ_MSG(test, a->rate[i], k->rate[i],
				    "walk %s, step %d", way, i);
		KUNIT_EXPECT_EQ_MSG(test, a->u_volt[i], k->u_volt[i],
				    "walk %s, step %d", way, i);
		KUNIT_EXPECT_EQ_MSG(test, a->exact_rate[i], k->exact_rate[i],
				    "walk %s, step %d", way, i);
	}
}

static inline void of_v2_expect_same(struct kunit *test, const struct of_v2_table *a,
				     const struct of_v2_table *k)
{
	int i;

	KUNIT_EXPECT_EQ(test, a->count, k->count);
	for (i = 0; i < min(a->count, k->count); i++) {
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].rate, k->opp[i].rate, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt, k->opp[i].u_volt,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt_min,
				    k->opp[i].u_volt_min, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt_max,
				    k->opp[i].u_volt_max, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_amp, k->opp[i].u_amp,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_watt, k->opp[i].u_watt,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].level, k->opp[i].level,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].available,
				    k->opp[i].available, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].turbo, k->opp[i].turbo,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].suspend, k->opp[i].suspend,
				    "OPP %d", i);
	}
	KUNIT_EXPECT_EQ(test, a->suspend_freq, k->suspend_freq);
	KUNIT_EXPECT_EQ(test, a->latency_ns, k->latency_ns);
	KUNIT_EXPECT_EQ(test, a->total, k->total);
	of_v2_expect_walk(test, "level up", &a->up, &k->up);
	if (OPP_KERNEL_HAS_LEVEL_FLOOR)
		of_v2_expect_walk(test, "level down", &a->down, &k->down);
	for (i = 0; i < OF_V2_PATHS; i++) {
		of_v2_expect_walk(test, "bw up", &a->bw_up[i], &k->bw_up[i]);
		of_v2_expect_walk(test, "bw down", &a->bw_down[i],
				  &k->bw_down[i]);
	}
}

/* Whether a walk of @t stopped at OF_V2_MAX_OPPS: it may have more. */
static inline bool of_v2_full(const struct of_v2_table *t)
{
	const struct of_v2_walk *w[] = { &t->up, &t->down };
	int i;

	if (t->count == OF_V2_MAX_OPPS)
		return true;
	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (w[i]->n == OF_V2_MAX_OPPS)
			return true;
	for (i = 0; i < OF_V2_PATHS; i++)
		if (t->bw_up[i].n == OF_V2_MAX_OPPS ||
		    t->bw_down[i].n == OF_V2_MAX_OPPS)
			return true;
	return false;
}

/* Ours and the kernel's, on the heap: two tables overflow a stack frame. */
static inline struct of_v2_table *of_v2_tables(struct kunit *test)
{
	struct of_v2_table *t = kunit_kcalloc(test, 2, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/* ---- Several supplies and clocks ---- */

/*
 * A table read by every clock's rate and every supply's values, for the
 * devices whose supplies and clocks are named (opp_of_multi, and the
 * corpus's tables of several): the rate walk is by the first clock's,
 * which both libraries search by. A suite may set the sizes before it
 * includes this file.
 */
#ifndef OF_MULTI_MAX_OPPS
#define OF_MULTI_MAX_OPPS	4
#endif
#ifndef OF_MULTI_MAX
#define OF_MULTI_MAX		2	/* supplies, clocks */
#endif

/* What both parsers must agree on, OPP by OPP. */
struct of_multi_opp {
	unsigned long rate[OF_MULTI_MAX];
	struct opp_supply supply[OF_MULTI_MAX];
	unsigned long power;
};

struct of_multi_table {
	int count;		/* the available OPPs */
	int walked;		/* those the walk by the first clock found */
	struct of_multi_opp opp[OF_MULTI_MAX_OPPS];
	unsigned long suspend_freq;
};

/*
 * The kernel's core takes several clocks only with a callback that sets
 * them (config_clks_t); the comparisons never set a rate, and would be
 * told so if one did.
 */
static inline int of_multi_config_clks(struct device *dev,
				       struct opp_table *opp_table,
				       struct dev_pm_opp *opp, void *data,
				       bool scaling_down)
{
	return -EOPNOTSUPP;
}

static inline struct of_multi_table *of_multi_tables(struct kunit *test)
{
	struct of_multi_table *t = kunit_kcalloc(test, 2, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	return t;
}

/* This library's table of @dev, walked up by the first clock's rate. */
static inline void of_multi_read_ours(struct kunit *test, struct device *dev,
				      unsigned int supplies, unsigned int clks,
				      struct of_multi_table *t)
{
	unsigned long f = 0;
	struct of_multi_opp *o;
	struct opp *opp;
	unsigned int i;

	rcu_read_lock();
	while (t->walked < OF_MULTI_MAX_OPPS) {
		opp = opp_find_freq_ceil(dev, &f);
		if (IS_ERR(opp))
			break;
		o = &t->opp[t->walked++];
		for (i = 0; i < clks; i++)
			o->rate[i] = opp_get_freq_indexed(opp, i);
		KUNIT_EXPECT_EQ(test, opp_get_freq_indexed(opp, clks), 0);
		KUNIT_EXPECT_EQ(test, opp_get_supplies(opp, o->supply, supplies),
				(int)supplies);
		o->power = opp_get_power(opp);
		f++;
	}
	rcu_read_unlock();
	t->count = fixture_count(dev);
	t->suspend_freq = opp_get_suspend_opp_freq(dev);
}

/*
 * The kernel's, in the same form (by index: one clock or several). Its
 * dev_pm_opp_get_supplies() copies every supply the table has: the
 * caller names at most OF_MULTI_MAX.
 */
static inline void of_multi_read_kernels(struct kunit *test,
					 struct device *dev,
					 unsigned int supplies,
					 unsigned int clks,
					 struct of_multi_table *t)
{
	struct dev_pm_opp_supply s[OF_MULTI_MAX];
	struct dev_pm_opp *opp;
	unsigned long f = 0;
	struct of_multi_opp *o;
	unsigned int i;

	while (t->walked < OF_MULTI_MAX_OPPS) {
		opp = dev_pm_opp_find_freq_ceil_indexed(dev, &f, 0);
		if (IS_ERR(opp))
			break;
		o = &t->opp[t->walked++];
		for (i = 0; i < clks; i++)
			o->rate[i] = dev_pm_opp_get_freq_indexed(opp, i);
		memset(s, 0, sizeof(s));
		KUNIT_EXPECT_EQ(test, dev_pm_opp_get_supplies(opp, s), 0);
		for (i = 0; i < supplies; i++) {
			o->supply[i].u_volt = s[i].u_volt;
			o->supply[i].u_volt_min = s[i].u_volt_min;
			o->supply[i].u_volt_max = s[i].u_volt_max;
			o->supply[i].u_amp = s[i].u_amp;
			o->supply[i].u_watt = s[i].u_watt;
		}
		o->power = dev_pm_opp_get_power(opp);
		dev_pm_opp_put(opp);
		f++;
	}
	t->count = dev_pm_opp_get_opp_count(dev);
	t->suspend_freq = dev_pm_opp_get_suspend_opp_freq(dev);
}

static inline void of_multi_expect_same(struct kunit *test,
					const struct of_multi_table *a,
					const struct of_multi_table *k,
					unsigned int supplies,
					unsigned int clks)
{
	const struct opp_supply *x, *y;
	unsigned int i, j;

	KUNIT_EXPECT_EQ(test, a->count, k->count);
	KUNIT_EXPECT_EQ(test, a->walked, k->walked);
	KUNIT_EXPECT_EQ(test, a->suspend_freq, k->suspend_freq);
	for (i = 0; i < min(a->walked, k->walked); i++) {
		for (j = 0; j < clks; j++)
			KUNIT_EXPECT_EQ_MSG(test, a->opp[i].rate[j],
					    k->opp[i].rate[j],
					    "OPP %u clock %u", i, j);
		for (j = 0; j < supplies; j++) {
			x = &a->opp[i].supply[j];
			y = &k->opp[i].supply[j];
			KUNIT_EXPECT_EQ_MSG(test, x->u_volt, y->u_volt,
					    "OPP %u supply %u", i, j);
			KUNIT_EXPECT_EQ_MSG(test, x->u_volt_min, y->u_volt_min,
					    "OPP %u supply %u", i, j);
			KUNIT_EXPECT_EQ_MSG(test, x->u_volt_max, y->u_volt_max,
					    "OPP %u supply %u", i, j);
			KUNIT_EXPECT_EQ_MSG(test, x->u_amp, y->u_amp,
					    "OPP %u supply %u", i, j);
			KUNIT_EXPECT_EQ_MSG(test, x->u_watt, y->u_watt,
					    "OPP %u supply %u", i, j);
		}
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].power, k->opp[i].power,
				    "OPP %u", i);
	}
}

/*
 * Read @ours's table with this library and @kernels's with the kernel's
 * core into @t (of_multi_tables(): this library's, then the kernel's),
 * and compare them, @supplies supplies and @clks clocks as a driver names
 * them: none (0, or a count's error) is the one of each a table without
 * names has, compared all the same.
 */
static inline void of_multi_compare(struct kunit *test,
				    struct of_multi_table *t,
				    struct device *ours, struct device *kernels,
				    int supplies, int clks)
{
	supplies = max(supplies, 1);
	clks = max(clks, 1);
	memset(t, 0, 2 * sizeof(*t));
	of_multi_read_ours(test, ours, supplies, clks, &t[0]);
	of_multi_read_kernels(test, kernels, supplies, clks, &t[1]);
	of_multi_expect_same(test, &t[0], &t[1], supplies, clks);
}

/* Whether the walk of @t stopped at OF_MULTI_MAX_OPPS: it may have more. */
static inline bool of_multi_full(const struct of_multi_table *t)
{
	return t->walked == OF_MULTI_MAX_OPPS;
}

#endif /* _OPP_OF_COMPARE_H */
