// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite opp_of_v2: operating-points-v2 tables read by this library
 * and by the kernel's own OPP core from the same device-tree nodes, field
 * by field, and the malformed tables each answered with the kernel's
 * error code (or, where the kernel accepts what no table can mean, with
 * -EINVAL) and nothing added.
 *
 * The nodes are in the live tree: the harness applies
 * selftest/opp_of_v2.dtso to the guest's device tree before boot. Each
 * case gives a fresh device one of the consumer nodes under /opp-of-v2.
 */

#include <kunit/test.h>
#include <linux/cpufreq.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/rcupdate.h>

#include "../compat.h"
#include "../opp.h"
#include "opp_fixture.h"

#define OF_V2_ROOT	"/opp-of-v2"
#define OF_V2_MAX_OPPS	8

/* What both parsers must agree on: a table, OPP by OPP. */
struct of_v2_table {
	int count;
	struct opp_info opp[OF_V2_MAX_OPPS];
	unsigned long suspend_freq;
	unsigned long latency_ns;
};

struct of_v2_ctx {
	struct device *ours;
	struct device *kernels;
	struct device_node *np;
	atomic_t released;
};

/* The consumer node @name under /opp-of-v2, for both devices. */
static void of_v2_attach(struct kunit *test, const char *name)
{
	struct of_v2_ctx *ctx = test->priv;
	struct device_node *root;

	root = of_find_node_by_path(OF_V2_ROOT);
	KUNIT_ASSERT_NOT_NULL_MSG(test, root,
				  "no %s in the live tree: boot with selftest/opp_of_v2.dtso applied",
				  OF_V2_ROOT);
	ctx->np = of_get_child_by_name(root, name);
	of_node_put(root);
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->np, "no %s/%s", OF_V2_ROOT, name);
	ctx->ours->of_node = ctx->np;
	ctx->kernels->of_node = ctx->np;
}

static int of_v2_init(struct kunit *test)
{
	struct of_v2_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	test->priv = ctx;
	ctx->ours = fixture_dev_new(test, "opp-of-v2-ours", &ctx->released);
	ctx->kernels = fixture_dev_new(test, "opp-of-v2-kernel", &ctx->released);
	return 0;
}

static void of_v2_exit(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;

	opp_remove_table(ctx->ours);
	opp_clear_config(ctx->ours);
	dev_pm_opp_of_remove_table(ctx->kernels);
	ctx->ours->of_node = NULL;
	ctx->kernels->of_node = NULL;
	of_node_put(ctx->np);
	put_device(ctx->ours);
	put_device(ctx->kernels);
}

/* This library's table of @dev, walked upwards with the copy-out lookups. */
static void of_v2_read_ours(struct device *dev, struct of_v2_table *t)
{
	unsigned long f = 0;

	memset(t, 0, sizeof(*t));
	while (t->count < OF_V2_MAX_OPPS &&
	       !opp_lookup_ceil(dev, f, &t->opp[t->count]))
		f = t->opp[t->count++].rate + 1;
	t->suspend_freq = opp_get_suspend_opp_freq(dev);
	t->latency_ns = opp_get_max_clock_latency(dev);
}

/* The kernel's OPP core's table of @dev, in the same form. */
static void of_v2_read_kernels(struct kunit *test, struct device *dev,
			       struct of_v2_table *t)
{
	struct dev_pm_opp_supply supply;
	struct dev_pm_opp *opp;
	struct opp_info *o;
	unsigned long f = 0;

	memset(t, 0, sizeof(*t));
	while (t->count < OF_V2_MAX_OPPS) {
		opp = dev_pm_opp_find_freq_ceil(dev, &f);
		if (IS_ERR(opp))
			break;
		o = &t->opp[t->count++];
		memset(&supply, 0, sizeof(supply));
		KUNIT_EXPECT_EQ(test, dev_pm_opp_get_supplies(opp, &supply), 0);
		o->rate = f;
		o->u_volt = dev_pm_opp_get_voltage(opp);
		o->u_volt_min = supply.u_volt_min ?: o->u_volt;
		o->u_volt_max = supply.u_volt_max ?: o->u_volt;
		o->u_amp = supply.u_amp;
		o->available = true;
		o->turbo = dev_pm_opp_is_turbo(opp);
		dev_pm_opp_put(opp);
		f++;
	}
	t->suspend_freq = dev_pm_opp_get_suspend_opp_freq(dev);
	/* The kernel's OPP is a struct of its own; mark suspend alike. */
	for (f = 0; f < t->count; f++)
		t->opp[f].suspend = t->opp[f].rate == t->suspend_freq;
	t->latency_ns = dev_pm_opp_get_max_clock_latency(dev);
}

static void of_v2_expect_same(struct kunit *test, const struct of_v2_table *a,
			      const struct of_v2_table *k)
{
	int i;

	KUNIT_ASSERT_EQ(test, a->count, k->count);
	for (i = 0; i < a->count; i++) {
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].rate, k->opp[i].rate, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt, k->opp[i].u_volt,
				    "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt_min,
				    k->opp[i].u_volt_min, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_volt_max,
				    k->opp[i].u_volt_max, "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, a->opp[i].u_amp, k->opp[i].u_amp,
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
}

/* Ours and the kernel's, on the heap: two tables overflow a stack frame. */
static struct of_v2_table *of_v2_tables(struct kunit *test)
{
	struct of_v2_table *t = kunit_kcalloc(test, 2, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/* ---- Tables both parsers read alike ---- */

struct of_v2_good {
	const char *node;
	int count;			/* OPPs expected, as a floor for both */
	const u32 *hw;			/* opp_set_config() mask, if any */
	unsigned int hw_count;
	const char *prop_name;
};

static const u32 of_v2_hw_mask[] = { 0x2, 0x1 };

static const struct of_v2_good of_v2_goods[] = {
	{ "good-basic", 4 },
	{ "good-triplet", 2 },
	{ "good-two-suspend", 3 },
	{ "good-no-volt", 2 },
	{ "good-soc-compatible", 1 },
	{ "good-supported-hw", 2, of_v2_hw_mask, ARRAY_SIZE(of_v2_hw_mask) },
	{ "good-prop-name", 2, NULL, 0, "slow" },
	{ "good-shared-a", 2 },
};

static void of_v2_good_desc(const struct of_v2_good *g, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", g->node);
}

KUNIT_ARRAY_PARAM(of_v2_good, of_v2_goods, of_v2_good_desc);

/* Tell both parsers what a driver would (mask, voltage name). */
static void of_v2_configure(struct kunit *test, const u32 *hw,
			    unsigned int hw_count, const char *prop_name,
			    int *tokens)
{
	struct of_v2_ctx *ctx = test->priv;
	struct opp_config cfg = {
		.supported_hw = hw,
		.supported_hw_count = hw_count,
		.prop_name = prop_name,
	};

	tokens[0] = -1;
	tokens[1] = -1;
	if (!hw && !prop_name)
		return;
	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->ours, &cfg), 0);
	if (hw) {
		tokens[0] = dev_pm_opp_set_supported_hw(ctx->kernels, hw, hw_count);
		KUNIT_ASSERT_GE(test, tokens[0], 0);
	}
	if (prop_name) {
		tokens[1] = dev_pm_opp_set_prop_name(ctx->kernels, prop_name);
		KUNIT_ASSERT_GE(test, tokens[1], 0);
	}
}

static void of_v2_unconfigure(int *tokens)
{
	if (tokens[0] >= 0)
		dev_pm_opp_put_supported_hw(tokens[0]);
	if (tokens[1] >= 0)
		dev_pm_opp_put_prop_name(tokens[1]);
}

static void of_v2_test_matches_kernel(struct kunit *test)
{
	const struct of_v2_good *g = test->param_value;
	struct of_v2_ctx *ctx = test->priv;
	struct of_v2_table *ours = of_v2_tables(test), *kernels = ours + 1;
	int tokens[2];

	of_v2_attach(test, g->node);
	of_v2_configure(test, g->hw, g->hw_count, g->prop_name, tokens);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_add_table(ctx->kernels), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), 0);
	of_v2_read_ours(ctx->ours, ours);
	of_v2_read_kernels(test, ctx->kernels, kernels);
	/* The kernel's core needs its configuration until its table goes. */
	dev_pm_opp_of_remove_table(ctx->kernels);
	of_v2_unconfigure(tokens);
	KUNIT_EXPECT_EQ(test, ours->count, g->count);
	of_v2_expect_same(test, ours, kernels);
}

/* ---- The malformed matrix ---- */

/* The kernel's core accepts the table: no error code to match. */
#define OF_V2_KERNEL_ACCEPTS	1

struct of_v2_bad {
	const char *node;
	int err;		/* this library's answer */
	int kernel;		/* the kernel's: err, or OF_V2_KERNEL_ACCEPTS */
	const u32 *hw;
	unsigned int hw_count;
	const char *prop_name;
};

static const u32 of_v2_hw_none[] = { 0x4, 0x1 };

static const struct of_v2_bad of_v2_bads[] = {
	{ "bad-no-hz", -ENODEV, -ENODEV },
	{ "bad-hz-32bit", -EINVAL, -EINVAL },
	{ "bad-hz-two-rates", -EINVAL, -EINVAL },
	/* No OPP at 0 Hz: the accessors say 0 for "no OPP". */
	{ "bad-hz-zero", -EINVAL, OF_V2_KERNEL_ACCEPTS },
	{ "bad-uv-two-cells", -EINVAL, -EINVAL },
	{ "bad-uv-four-cells", -EINVAL, -EINVAL },
	{ "bad-uv-empty", -EINVAL, -EINVAL },
	{ "bad-uv-five-bytes", -EINVAL, -EINVAL },
	{ "bad-uv-min-above-target", -EINVAL, OF_V2_KERNEL_ACCEPTS },
	{ "bad-uv-max-below-target", -EINVAL, OF_V2_KERNEL_ACCEPTS },
	{ "bad-uv-then-none", -EINVAL, -EINVAL },
	{ "bad-ua-two-cells", -EINVAL, -EINVAL },
	{ "bad-uw-two-cells", -EINVAL, -EINVAL },
	{ "bad-two-voltages", -EEXIST, -EEXIST },
	{ "bad-hw-nothing-left", -ENOENT, -ENOENT, of_v2_hw_none,
	  ARRAY_SIZE(of_v2_hw_none) },
	{ "bad-hw-without-mask", -ENOENT, -ENOENT },
	{ "bad-all-disabled", -ENOENT, -ENOENT },
	{ "bad-no-children", -ENOENT, -ENOENT },
	/* A table of another binding (the kernel never looks). */
	{ "bad-compatible", -EINVAL, OF_V2_KERNEL_ACCEPTS },
	{ "bad-no-compatible", -EINVAL, OF_V2_KERNEL_ACCEPTS },
	{ "bad-named-uv-two-cells", -EINVAL, -EINVAL, NULL, 0, "slow" },
};

static void of_v2_bad_desc(const struct of_v2_bad *b, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", b->node);
}

KUNIT_ARRAY_PARAM(of_v2_bad, of_v2_bads, of_v2_bad_desc);

static void of_v2_test_malformed(struct kunit *test)
{
	const struct of_v2_bad *b = test->param_value;
	struct of_v2_ctx *ctx = test->priv;
	struct opp_info info;
	int tokens[2], ret;

	of_v2_attach(test, b->node);
	of_v2_configure(test, b->hw, b->hw_count, b->prop_name, tokens);
	ret = dev_pm_opp_of_add_table(ctx->kernels);
	if (b->kernel == OF_V2_KERNEL_ACCEPTS)
		KUNIT_EXPECT_EQ(test, ret, 0);
	else
		KUNIT_EXPECT_EQ(test, ret, b->kernel);
	if (!ret)
		dev_pm_opp_of_remove_table(ctx->kernels);
	of_v2_unconfigure(tokens);

	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), b->err);
	KUNIT_EXPECT_EQ(test, opp_lookup_ceil(ctx->ours, 0, &info), -ENODEV);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->ours), -ENODEV);
}

/* ---- Tables the kernel's rule for supplies reads by version ---- */

/* One table's answer under 6.1's rule and under that of 6.2 on (0: read). */
struct of_v2_rule {
	const char *node;
	int before;
	int since_6_2;
};

static const struct of_v2_rule of_v2_rules[] = {
	/* A voltage on the first OPP, none on the next. */
	{ "supply-none-then-uv", -EINVAL, 0 },
	/* Only a current on the first OPP, a voltage on the next. */
	{ "supply-uv-then-ua", -EINVAL, 0 },
	/* Only a power on the first OPP, a voltage on the next. */
	{ "supply-uv-then-uw", -EINVAL, 0 },
};

static void of_v2_rule_desc(const struct of_v2_rule *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", r->node);
}

KUNIT_ARRAY_PARAM(of_v2_rule, of_v2_rules, of_v2_rule_desc);

/*
 * Both parsers give the answer of the running kernel's rule, and where
 * that is to read the table, they read it alike.
 */
static void of_v2_test_supply_rule(struct kunit *test)
{
	const struct of_v2_rule *r = test->param_value;
	struct of_v2_ctx *ctx = test->priv;
	int want = OPP_OF_SUPPLY_PROPS_DECOUPLED ? r->since_6_2 : r->before;
	struct of_v2_table *ours = of_v2_tables(test), *kernels = ours + 1;
	int ret;

	of_v2_attach(test, r->node);
	ret = dev_pm_opp_of_add_table(ctx->kernels);
	KUNIT_EXPECT_EQ(test, ret, want);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), want);
	if (ret || want) {
		KUNIT_EXPECT_EQ(test, fixture_count(ctx->ours), -ENODEV);
		return;
	}
	of_v2_read_ours(ctx->ours, ours);
	of_v2_read_kernels(test, ctx->kernels, kernels);
	KUNIT_EXPECT_EQ(test, ours->count, 2);
	of_v2_expect_same(test, ours, kernels);
}

/*
 * 5 GHz: a rate on 64-bit, where both parsers must agree on it; on 32-bit
 * this library refuses it (-EINVAL) and the kernel's core is not asked:
 * it WARNs and keeps the rate truncated.
 */
static void of_v2_test_rate_above_32bit(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	struct of_v2_table *ours = of_v2_tables(test), *kernels = ours + 1;

	of_v2_attach(test, "bad-hz-above-32bit");
	if (BITS_PER_LONG == 32) {
		KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), -EINVAL);
		KUNIT_EXPECT_EQ(test, fixture_count(ctx->ours), -ENODEV);
		return;
	}
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_add_table(ctx->kernels), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), 0);
	of_v2_read_ours(ctx->ours, ours);
	of_v2_read_kernels(test, ctx->kernels, kernels);
	KUNIT_EXPECT_EQ(test, ours->count, 1);
	KUNIT_EXPECT_EQ(test, (u64)ours->opp[0].rate, 5000000000ULL);
	of_v2_expect_same(test, ours, kernels);
}

/* ---- What the parse leaves for callers ---- */

/* A malformed v2 table merged into an existing one changes nothing. */
static void of_v2_test_fault_keeps_table(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	struct opp_info info;

	of_v2_attach(test, "bad-uv-then-none");
	KUNIT_ASSERT_EQ(test, opp_add(ctx->ours, 100000000, 900000), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), -EINVAL);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->ours), 1);
	KUNIT_EXPECT_EQ(test, opp_lookup_ceil(ctx->ours, 100000001, &info),
			-ERANGE);
}

/* A second parse of the same table adds nothing and succeeds. */
static void of_v2_test_parse_twice(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;

	of_v2_attach(test, "good-basic");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->ours), 4);
}

/* Turbo OPPs are boost entries of the cpufreq table; the rest are not. */
static void of_v2_test_cpufreq_boost(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	struct cpufreq_frequency_table *ft = NULL;
	static const unsigned int khz[] = { 200000, 400000, 600000, 1000000 };
	unsigned int i;

	of_v2_attach(test, "good-basic");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_ASSERT_EQ(test, opp_init_cpufreq_table(ctx->ours, &ft), 0);
	for (i = 0; i < ARRAY_SIZE(khz); i++) {
		KUNIT_EXPECT_EQ(test, ft[i].frequency, khz[i]);
		KUNIT_EXPECT_EQ(test, ft[i].flags,
				khz[i] == 1000000 ? CPUFREQ_BOOST_FREQ : 0U);
	}
	KUNIT_EXPECT_EQ(test, ft[i].frequency, CPUFREQ_TABLE_END);
	opp_free_cpufreq_table(ctx->ours, &ft);
}

/* The accessors read what the table holds; a disabled OPP reads as 0. */
static void of_v2_test_accessors(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	unsigned long f = 400000000, vmin, vmax, vmin_off, vmax_off;
	bool turbo, turbo_top, turbo_err;
	struct opp *opp;

	of_v2_attach(test, "good-triplet");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	rcu_read_lock();
	opp = opp_find_freq_ceil(ctx->ours, &f);
	vmin = opp_get_voltage_min(opp);
	vmax = opp_get_voltage_max(opp);
	turbo = opp_is_turbo(opp);
	turbo_err = opp_is_turbo(ERR_PTR(-ERANGE));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, f, 500000000UL);
	KUNIT_EXPECT_EQ(test, vmin, 950000UL);
	KUNIT_EXPECT_EQ(test, vmax, 1050000UL);
	KUNIT_EXPECT_FALSE(test, turbo);
	KUNIT_EXPECT_FALSE(test, turbo_err);

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->ours, 500000000), 0);
	rcu_read_lock();
	opp = opp_find_freq_exact(ctx->ours, 500000000, false);
	vmin_off = opp_get_voltage_min(opp);
	vmax_off = opp_get_voltage_max(opp);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, vmin_off, 0UL);
	KUNIT_EXPECT_EQ(test, vmax_off, 0UL);

	/* The turbo OPP of another table. */
	of_node_put(ctx->np);
	ctx->ours->of_node = NULL;
	opp_remove_table(ctx->ours);
	of_v2_attach(test, "good-basic");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	f = 1000000000;
	rcu_read_lock();
	turbo_top = opp_is_turbo(opp_find_freq_exact(ctx->ours, f, true));
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE(test, turbo_top);

	/* A device without a table has neither suspend OPP nor latency. */
	KUNIT_EXPECT_EQ(test, opp_get_suspend_opp_freq(ctx->kernels), 0UL);
	KUNIT_EXPECT_EQ(test, opp_get_max_clock_latency(ctx->kernels), 0UL);
	KUNIT_EXPECT_EQ(test, opp_get_suspend_opp_freq(ctx->ours), 600000000UL);
	KUNIT_EXPECT_EQ(test, opp_get_max_clock_latency(ctx->ours), 500000UL);
}

/* opp_set_config(): bad input changes nothing; one per device, before. */
static void of_v2_test_config_errors(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	static const u32 hw[] = { 0x1 };
	struct opp_config none = { };
	struct opp_config no_count = { .supported_hw = hw };
	struct opp_config no_mask = { .supported_hw_count = 1 };
	struct opp_config empty_name = { .prop_name = "" };
	struct opp_config ok = { .supported_hw = hw, .supported_hw_count = 1 };

	KUNIT_EXPECT_EQ(test, opp_set_config(NULL, &ok), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ERR_PTR(-ENODEV), &ok), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &none), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &no_count), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &no_mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &empty_name), -EINVAL);

	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &ok), 0);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &ok), -EBUSY);
	opp_clear_config(ctx->ours);
	opp_clear_config(ctx->ours);	/* nothing left: nothing happens */
	opp_clear_config(NULL);

	/* After the table exists a mask could no longer filter it. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->ours, 100000000, 900000), 0);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &ok), -EBUSY);
}

static struct kunit_case of_v2_cases[] = {
	KUNIT_CASE_PARAM(of_v2_test_matches_kernel, of_v2_good_gen_params),
	KUNIT_CASE_PARAM(of_v2_test_malformed, of_v2_bad_gen_params),
	KUNIT_CASE_PARAM(of_v2_test_supply_rule, of_v2_rule_gen_params),
	KUNIT_CASE(of_v2_test_rate_above_32bit),
	KUNIT_CASE(of_v2_test_fault_keeps_table),
	KUNIT_CASE(of_v2_test_parse_twice),
	KUNIT_CASE(of_v2_test_cpufreq_boost),
	KUNIT_CASE(of_v2_test_accessors),
	KUNIT_CASE(of_v2_test_config_errors),
	{}
};

static struct kunit_suite of_v2_suite = {
	.name = "opp_of_v2",
	.init = of_v2_init,
	.exit = of_v2_exit,
	.test_cases = of_v2_cases,
};

kunit_test_suite(of_v2_suite);

MODULE_DESCRIPTION("KUnit: operating-points-v2 against the kernel's OPP core");
MODULE_LICENSE("GPL");
