// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's device-tree reader (opp_of.c): suites
 * opp_of and opp_of_v2. Several supplies and clocks are opp_of_multi's
 * (opp_of_multi_test.c), the kernel tree's own tables opp_of_corpus's
 * (opp_of_corpus_test.c).
 *
 * opp_of: operating-points (v1) tables, on detached nodes of the
 * fixture's (opp_test_fixture_of_attach()): a table read, merged into one that is
 * there, or refused whole when malformed, and a device's clock-latency
 * as the kernel's OPP core reads it.
 *
 * opp_of_v2: operating-points-v2 tables read by this library and by the
 * kernel's own OPP core from the same device-tree nodes, field by field,
 * and the malformed tables each answered with the kernel's error code
 * (or, where the kernel accepts what no table can mean, with -EINVAL)
 * and nothing added. The nodes are in the live tree: the harness applies
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
#include <linux/slab.h>

#include "../compat.h"
#include "../opp.h"
#include "opp_test_helpers.h"

/* ---- operating-points (v1): suite opp_of ---- */

static void opp_of_table(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	/* Unsorted, with one identical repeat. */
	static const u32 cells[] = {
		600000, 1100000, 200000, 900000, 400000, 1000000,
		200000, 900000,
	};
	struct opp_info info;

	opp_test_fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 3);
	KUNIT_ASSERT_EQ(test, opp_lookup_ceil(ctx->dev, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 200 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, info.u_volt, 900000UL);
	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, ULONG_MAX, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 600 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, info.u_volt, 1100000UL);
	/* Reading it again is the identical re-add of a re-probe. */
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 3);
	ctx->dev->of_node = NULL;
}

struct of_v1_bad {
	const char *name;
	u32 cells[6];
	unsigned int n;
	int err;
	unsigned int bytes;	/* the property's length, if not 4 * n */
};

static const struct of_v1_bad of_v1_bads[] = {
	{ "empty", {}, 0, -EINVAL },
	{ "odd", { 200000, 900000, 400000 }, 3, -EINVAL },
	{ "single cell", { 200000 }, 1, -EINVAL },
	{ "zero kHz", { 200000, 900000, 0, 950000 }, 4, -EINVAL },
	{ "two voltages", { 200000, 900000, 200000, 950000 }, 4, -EINVAL },
	{ "too fast", { 200000, 900000, 4294968, 1000000 }, 4, -EINVAL },
	{ "ragged length", { 200000, 900000, 400000 }, 3, -EINVAL, 10 },
};

KUNIT_ARRAY_PARAM_DESC(of_v1_bad, of_v1_bads, name);

/* A malformed property is refused whole: not even a table appears. */
static void opp_of_malformed(struct kunit *test)
{
	const struct of_v1_bad *c = test->param_value;
	struct fixture_pair *ctx = test->priv;
	int err = c->err;

	/* 4294968 kHz fits an unsigned long in Hz only on 64-bit. */
	if (c->cells[2] == 4294968 && BITS_PER_LONG == 64)
		err = 0;
	opp_test_fixture_of_attach(test, ctx->dev, c->cells, c->n);
	if (c->bytes)
		ctx->dev->of_node->properties->length = c->bytes;
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), err);
	if (!err)
		goto out;
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), -ENODEV);

	/* Nor does it touch a table that is there. */
	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), err);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 4);
out:
	ctx->dev->of_node = NULL;
}

static void opp_of_missing(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	static const u32 conflict[] = { 200000, 1, 1000000, 1200000 };

	opp_test_fixture_of_attach(test, ctx->dev, NULL, 0);
	ctx->dev->of_node->properties = NULL;
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), -ENODEV);

	/* A conflict with the table adds none, not even the new 1 GHz. */
	opp_test_fixture_add_four(test, ctx->dev);
	opp_test_fixture_of_attach(test, ctx->dev, conflict, ARRAY_SIZE(conflict));
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), -EEXIST);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 4);
	ctx->dev->of_node = NULL;
}

/*
 * Into a table that is there: the identical OPP counts once, the new ones
 * come in one update, each told as an ADD in rate order, and when the
 * first ADD is told every new OPP is already visible.
 */
static void opp_of_merge(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *l = opp_test_fixture_listener_new(test, ctx->dev);
	static const unsigned long fresh[] = {
		300 * HZ_PER_MHZ, 1000 * HZ_PER_MHZ,
	};
	u32 cells[] = {
		1000000, opp_test_fixture_volt_of(1000 * HZ_PER_MHZ),
		400000, opp_test_fixture_volt_of(400 * HZ_PER_MHZ),
		300000, opp_test_fixture_volt_of(300 * HZ_PER_MHZ),
	};
	struct fixture_found f;

	opp_test_fixture_add_four(test, ctx->dev);
	l->watch = fresh;
	l->nwatch = ARRAY_SIZE(fresh);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);
	opp_test_fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 6);
	KUNIT_ASSERT_EQ(test, l->n, 2U);
	opp_test_fixture_expect_event(test, l, 0, OPP_EVENT_ADD, 300 * HZ_PER_MHZ, true);
	opp_test_fixture_expect_event(test, l, 1, OPP_EVENT_ADD, 1000 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_TRUE_MSG(test, l->watched[0],
			      "the first ADD came before the whole update");
	f = opp_test_fixture_find(ctx->dev, FIXTURE_CEIL, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 300 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, opp_test_fixture_volt_of(300 * HZ_PER_MHZ));
	ctx->dev->of_node = NULL;
}

/*
 * The largest frequency in kHz whose rate in Hz an unsigned long holds on
 * 32-bit: 4294967 kHz is 4294967000 Hz (one more is "too fast" above).
 */
static void opp_of_largest_khz(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	static const u32 cells[] = { 4294967, 1000000 };
	struct opp_info info;

	opp_test_fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, ULONG_MAX, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 4294967000UL);
	KUNIT_EXPECT_EQ(test, info.u_volt, 1000000UL);
	ctx->dev->of_node = NULL;
}

/*
 * A v1 device's own clock-latency is its table's clock latency, as the
 * kernel's OPP core reads it: both read the same node. (The guests'
 * kernels have no OF_DYNAMIC, so the kernel's core may take and put the
 * detached node.)
 */
static void opp_of_clock_latency(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	static const u32 cells[] = { 400000, 1000000, 200000, 900000 };
	unsigned long ours, kernels = 0;
	int ret;

	opp_test_fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	opp_test_fixture_of_add_u32(test, ctx->dev, "clock-latency", 300000);
	ctx->other->of_node = ctx->dev->of_node;
	ret = dev_pm_opp_of_add_table(ctx->other);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret) {
		kernels = dev_pm_opp_get_max_clock_latency(ctx->other);
		dev_pm_opp_of_remove_table(ctx->other);
	}
	ctx->other->of_node = NULL;
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), 0);
	ours = opp_get_max_clock_latency(ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 2);
	KUNIT_EXPECT_EQ(test, kernels, 300000UL);
	KUNIT_EXPECT_EQ(test, ours, kernels);
	ctx->dev->of_node = NULL;
}

static struct kunit_case opp_of_cases[] = {
	KUNIT_CASE(opp_of_table),
	KUNIT_CASE_PARAM(opp_of_malformed, of_v1_bad_gen_params),
	KUNIT_CASE(opp_of_missing),
	KUNIT_CASE(opp_of_merge),
	KUNIT_CASE(opp_of_largest_khz),
	KUNIT_CASE(opp_of_clock_latency),
	{}
};

static struct kunit_suite opp_of_suite = {
	.name = "opp_of",
	.init = fixture_pair_init,
	.exit = opp_test_fixture_pair_exit,
	.test_cases = opp_of_cases,
};

/* ---- operating-points-v2: suite opp_of_v2 ---- */

struct of_v2_ctx {
	struct device *ours;
	struct device *kernels;
	struct device_node *np;
	atomic_t released;
	/* The required-opps cases' providers: [provider][ours, kernel's]. */
	struct device *pd[2][2];
};

/* The consumer node @name under /opp-of-v2, for both devices. */
static void of_v2_attach(struct kunit *test, const char *name)
{
	struct of_v2_ctx *ctx = test->priv;

	ctx->np = opp_test_of_pair_attach(test, ctx->ours, ctx->kernels, name);
}

/* One case, another table: this library's device reads the node @name. */
static void of_v2_reattach_ours(struct kunit *test, const char *name)
{
	struct of_v2_ctx *ctx = test->priv;

	of_node_put(ctx->np);
	ctx->ours->of_node = NULL;
	opp_remove_table(ctx->ours);
	of_v2_attach(test, name);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
}

static int of_v2_init(struct kunit *test)
{
	struct of_v2_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	test->priv = ctx;
	ctx->ours = opp_test_fixture_dev_new(test, "opp-of-v2-ours", &ctx->released);
	ctx->kernels = opp_test_fixture_dev_new(test, "opp-of-v2-kernel", &ctx->released);
	return 0;
}

/* The providers' tables, their nodes and devices. */
static void of_v2_providers_put(struct of_v2_ctx *ctx)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (!ctx->pd[i][0])
			continue;
		opp_remove_table(ctx->pd[i][0]);
		dev_pm_opp_of_remove_table(ctx->pd[i][1]);
		of_node_put(ctx->pd[i][0]->of_node);
		ctx->pd[i][0]->of_node = NULL;
		ctx->pd[i][1]->of_node = NULL;
		put_device(ctx->pd[i][0]);
		opp_genpd_dev_put(ctx->pd[i][1]);
		ctx->pd[i][0] = NULL;
	}
}

static void of_v2_exit(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;

	opp_test_of_pair_remove_tables(ctx->ours, ctx->kernels);
	opp_test_of_pair_put(ctx->ours, ctx->kernels, ctx->np);
	of_v2_providers_put(ctx);
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
	{ "good-vendor-compatible", 2 },
	{ "good-other-compatible", 1 },
	{ "good-no-compatible", 1 },
	{ "good-supported-hw", 2, of_v2_hw_mask, ARRAY_SIZE(of_v2_hw_mask) },
	{ "good-prop-name", 2, NULL, 0, "slow" },
	{ "good-shared-a", 2 },
	/* The rate walk finds one OPP per rate; the level walks all. */
	{ "good-level", 1 },
	{ "good-level-zero", 1 },
	{ "good-hz-level", 3 },
	{ "good-hz-some-level", 3 },
	{ "good-same-rate-levels", 2 },
	{ "good-level-and-hz", 2 },
	{ "good-microwatt", 2 },
	{ "good-bw", 1 },
	{ "good-bw-two-paths", 1 },
	{ "good-hz-bw", 3 },
	{ "good-avg-alone", 2 },
};

KUNIT_ARRAY_PARAM_DESC(of_v2_good, of_v2_goods, node);

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

static void opp_of_v2_matches_kernel(struct kunit *test)
{
	const struct of_v2_good *g = test->param_value;
	struct of_v2_ctx *ctx = test->priv;
	struct of_v2_table *ours = opp_test_of_v2_tables(test), *kernels = ours + 1;
	int tokens[2];

	of_v2_attach(test, g->node);
	of_v2_configure(test, g->hw, g->hw_count, g->prop_name, tokens);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_add_table(ctx->kernels), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), 0);
	opp_test_of_v2_read_ours(ctx->ours, ours);
	opp_test_of_v2_read_kernels(test, ctx->kernels, kernels);
	/* The kernel's core needs its configuration until its table goes. */
	dev_pm_opp_of_remove_table(ctx->kernels);
	of_v2_unconfigure(tokens);
	KUNIT_EXPECT_EQ(test, ours->count, g->count);
	opp_test_of_v2_expect_same(test, ours, kernels);
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
	{ "bad-named-uv-two-cells", -EINVAL, -EINVAL, NULL, 0, "slow" },
	/* An empty opp-level is no key, and the OPP has no other. */
	{ "bad-level-empty", -ENODEV, -ENODEV },
	{ "bad-level-two-voltages", -EEXIST, -EEXIST },
	/* One bandwidth value per interconnect path of the device. */
	{ "bad-bw-no-paths", -EINVAL, -EINVAL },
	{ "bad-bw-length", -EINVAL, -EINVAL },
	{ "bad-bw-short", -EINVAL, -EINVAL },
	{ "bad-avg-length", -EINVAL, -EINVAL },
	{ "bad-bw-odd-interconnects", -EINVAL, -EINVAL },
	{ "bad-bw-not-first", -EINVAL, -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(of_v2_bad, of_v2_bads, node);

static void opp_of_v2_malformed(struct kunit *test)
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
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), -ENODEV);
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

KUNIT_ARRAY_PARAM_DESC(of_v2_rule, of_v2_rules, node);

/*
 * Both parsers give the answer of the running kernel's rule, and where
 * that is to read the table, they read it alike.
 */
static void opp_of_v2_supply_rule(struct kunit *test)
{
	const struct of_v2_rule *r = test->param_value;
	struct of_v2_ctx *ctx = test->priv;
	int want = OPP_OF_SUPPLY_PROPS_DECOUPLED ? r->since_6_2 : r->before;
	struct of_v2_table *ours = opp_test_of_v2_tables(test), *kernels = ours + 1;
	int ret;

	of_v2_attach(test, r->node);
	ret = dev_pm_opp_of_add_table(ctx->kernels);
	KUNIT_EXPECT_EQ(test, ret, want);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), want);
	if (ret || want) {
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), -ENODEV);
		return;
	}
	opp_test_of_v2_read_ours(ctx->ours, ours);
	opp_test_of_v2_read_kernels(test, ctx->kernels, kernels);
	KUNIT_EXPECT_EQ(test, ours->count, 2);
	opp_test_of_v2_expect_same(test, ours, kernels);
}

/*
 * 5 GHz: a rate on 64-bit, where both parsers must agree on it; on 32-bit
 * this library refuses it (-EINVAL) and the kernel's core is not asked:
 * it WARNs and keeps the rate truncated.
 */
static void opp_of_v2_rate_above_32bit(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	struct of_v2_table *ours = opp_test_of_v2_tables(test), *kernels = ours + 1;

	of_v2_attach(test, "bad-hz-above-32bit");
	if (BITS_PER_LONG == 32) {
		KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), -EINVAL);
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), -ENODEV);
		return;
	}
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_add_table(ctx->kernels), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), 0);
	opp_test_of_v2_read_ours(ctx->ours, ours);
	opp_test_of_v2_read_kernels(test, ctx->kernels, kernels);
	KUNIT_EXPECT_EQ(test, ours->count, 1);
	KUNIT_EXPECT_EQ(test, (u64)ours->opp[0].rate, 5000000000ULL);
	opp_test_of_v2_expect_same(test, ours, kernels);
}

/* ---- What the parse leaves for callers ---- */

/* A malformed v2 table merged into an existing one changes nothing. */
static void opp_of_v2_fault_keeps_table(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	struct opp_info info;

	of_v2_attach(test, "bad-uv-then-none");
	KUNIT_ASSERT_EQ(test, opp_add(ctx->ours, 100000000, 900000), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), 1);
	KUNIT_EXPECT_EQ(test, opp_lookup_ceil(ctx->ours, 100000001, &info),
			-ERANGE);
}

/* A second parse of the same table adds nothing and succeeds. */
static void opp_of_v2_parse_twice(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;

	of_v2_attach(test, "good-basic");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), 4);
}

/* Turbo OPPs are boost entries of the cpufreq table; the rest are not. */
static void opp_of_v2_cpufreq_boost(struct kunit *test)
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
static void opp_of_v2_accessors(struct kunit *test)
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
	of_v2_reattach_ours(test, "good-basic");
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

/*
 * A disabled suspend OPP is no suspend OPP to either core: both say 0,
 * and the rate comes back with the OPP.
 */
static void opp_of_v2_suspend_disabled(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	struct of_v2_table *ours = opp_test_of_v2_tables(test), *kernels = ours + 1;

	of_v2_attach(test, "good-two-suspend");
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_add_table(ctx->kernels), 0);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_EXPECT_EQ(test, opp_get_suspend_opp_freq(ctx->ours), 800000000UL);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_disable(ctx->kernels, 800000000), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->ours, 800000000), 0);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_get_suspend_opp_freq(ctx->kernels), 0UL);
	KUNIT_EXPECT_EQ(test, opp_get_suspend_opp_freq(ctx->ours), 0UL);
	/* The other marked OPP does not stand in for it. */
	opp_test_of_v2_read_ours(ctx->ours, ours);
	opp_test_of_v2_read_kernels(test, ctx->kernels, kernels);
	opp_test_of_v2_expect_same(test, ours, kernels);

	KUNIT_ASSERT_EQ(test, dev_pm_opp_enable(ctx->kernels, 800000000), 0);
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->ours, 800000000), 0);
	KUNIT_EXPECT_EQ(test, opp_get_suspend_opp_freq(ctx->ours),
			dev_pm_opp_get_suspend_opp_freq(ctx->kernels));
	KUNIT_EXPECT_EQ(test, opp_get_suspend_opp_freq(ctx->ours), 800000000UL);
}

/*
 * The level searches on a table keyed by level: what each finds and how
 * it updates its argument (not on error), the bad arguments, and a
 * disabled OPP, which no level search finds.
 */
static void opp_of_v2_level_searches(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	unsigned int l_exact, l_ceil, l_floor, l_miss_up, l_miss_down;
	unsigned int l_none, l_off, l_after, l_err;
	struct opp *exact, *ceil, *floor, *miss_up, *miss_down, *none;
	struct opp *bad[3], *no_table;
	unsigned long power_null, rate;
	struct opp_info info;

	of_v2_attach(test, "good-level");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);

	rcu_read_lock();
	exact = opp_find_level_exact(ctx->ours, 64);
	l_exact = opp_get_level(exact);
	l_ceil = 17;
	ceil = opp_find_level_ceil(ctx->ours, &l_ceil);
	l_floor = 255;
	floor = opp_find_level_floor(ctx->ours, &l_floor);
	l_miss_up = 257;
	miss_up = opp_find_level_ceil(ctx->ours, &l_miss_up);
	l_miss_down = 15;
	miss_down = opp_find_level_floor(ctx->ours, &l_miss_down);
	none = opp_find_level_exact(ctx->ours, 65);
	bad[0] = opp_find_level_ceil(ctx->ours, NULL);
	bad[1] = opp_find_level_floor(ctx->ours, NULL);
	bad[2] = opp_find_level_exact(NULL, 64);
	no_table = opp_find_level_exact(ctx->kernels, 64);
	l_err = opp_get_level(ERR_PTR(-ERANGE));
	power_null = opp_get_power(NULL);
	rate = opp_get_freq(exact);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, bad[0], ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, bad[1], ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, bad[2], ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, no_table, ERR_PTR(-ENODEV));
	KUNIT_EXPECT_EQ(test, l_err, OPP_LEVEL_NONE);
	KUNIT_EXPECT_EQ(test, power_null, 0UL);
	KUNIT_EXPECT_EQ(test, rate, 0UL);

	KUNIT_EXPECT_EQ(test, l_exact, 64U);
	KUNIT_EXPECT_FALSE(test, IS_ERR(ceil));
	KUNIT_EXPECT_EQ(test, l_ceil, 64U);
	KUNIT_EXPECT_FALSE(test, IS_ERR(floor));
	KUNIT_EXPECT_EQ(test, l_floor, 128U);
	KUNIT_EXPECT_PTR_EQ(test, miss_up, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, l_miss_up, 257U);
	KUNIT_EXPECT_PTR_EQ(test, miss_down, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, l_miss_down, 15U);
	KUNIT_EXPECT_PTR_EQ(test, none, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, opp_lookup_level_ceil(ctx->ours, 0, NULL), -EINVAL);
	KUNIT_ASSERT_EQ(test, opp_lookup_level_floor(ctx->ours, U32_MAX, &info), 0);
	KUNIT_EXPECT_EQ(test, info.level, 256U);
	KUNIT_EXPECT_TRUE(test, info.turbo);
	KUNIT_EXPECT_EQ(test, opp_get_suspend_opp_freq(ctx->ours), 0UL);

	/* Rate 0 names the table's first OPP, level 16: disable it. */
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->ours, 0), 0);
	KUNIT_EXPECT_EQ(test, opp_lookup_level_exact(ctx->ours, 16, &info),
			-ERANGE);
	KUNIT_ASSERT_EQ(test, opp_lookup_level_ceil(ctx->ours, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.level, 64U);
	KUNIT_EXPECT_EQ(test, opp_lookup_level_floor(ctx->ours, 63, &info),
			-ERANGE);
	rcu_read_lock();
	l_off = opp_get_level(opp_find_freq_exact(ctx->ours, 0, false));
	/* The exact search by rate finds the disabled one, then the next. */
	l_after = opp_get_level(opp_find_freq_exact(ctx->ours, 0, true));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, l_off, OPP_LEVEL_NONE);
	KUNIT_EXPECT_EQ(test, l_after, 64U);

	/* A rate table whose OPPs have no level. */
	of_v2_reattach_ours(test, "good-microwatt");
	l_none = 0;
	rcu_read_lock();
	ceil = opp_find_level_ceil(ctx->ours, &l_none);
	rcu_read_unlock();
	/* 6.7 on: U32_MAX, no level, no match; before: 0, a match. */
	if (OPP_LEVEL_NONE == U32_MAX) {
		KUNIT_EXPECT_PTR_EQ(test, ceil, ERR_PTR(-ENODEV));
	} else {
		KUNIT_EXPECT_FALSE(test, IS_ERR(ceil));
		KUNIT_EXPECT_EQ(test, l_none, 0U);
	}
	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->ours, ULONG_MAX, &info), 0);
	KUNIT_EXPECT_EQ(test, info.u_watt, 180000UL);
	KUNIT_EXPECT_EQ(test, info.level, OPP_LEVEL_NONE);
}

/*
 * The bandwidth searches on a table of two paths: the path searched, the
 * argument updated on success only, the peak and average of each path
 * copied out, the path the table does not have; and an OPP removed from
 * a bandwidth table, whose bandwidths go with it.
 */
static void opp_of_v2_bw_searches(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	unsigned long peak1, avg0, bad_bw;
	unsigned int bw0 = 0, bw_miss = 1600001, bw_null_dev = 0;
	struct opp *ceil, *miss, *beyond, *negative, *null_bw, *no_table;
	struct opp_info info;

	of_v2_attach(test, "good-bw-two-paths");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	rcu_read_lock();
	ceil = opp_find_bw_ceil(ctx->ours, &bw0, 0);
	peak1 = opp_get_bw(ceil, true, 1);
	avg0 = opp_get_bw(ceil, false, 0);
	bad_bw = opp_get_bw(ERR_PTR(-ERANGE), true, 0) +
		 opp_get_bw(ceil, true, 2) + opp_get_bw(ceil, true, -1);
	miss = opp_find_bw_ceil(ctx->ours, &bw_miss, 0);
	beyond = opp_find_bw_floor(ctx->ours, &bw0, 2);
	negative = opp_find_bw_ceil(ctx->ours, &bw0, -1);
	null_bw = opp_find_bw_ceil(ctx->ours, NULL, 0);
	no_table = opp_find_bw_ceil(ctx->kernels, &bw_null_dev, 0);
	rcu_read_unlock();
	KUNIT_EXPECT_FALSE(test, IS_ERR(ceil));
	KUNIT_EXPECT_EQ(test, bw0, 200000U);
	KUNIT_EXPECT_EQ(test, peak1, 500000UL);
	KUNIT_EXPECT_EQ(test, avg0, 0UL);
	KUNIT_EXPECT_EQ(test, bad_bw, 0UL);
	KUNIT_EXPECT_PTR_EQ(test, miss, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, bw_miss, 1600001U);
	KUNIT_EXPECT_PTR_EQ(test, beyond, ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, negative, ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, null_bw, ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, no_table, ERR_PTR(-ENODEV));
	KUNIT_EXPECT_EQ(test, opp_lookup_bw_ceil(ctx->ours, 0, 0, NULL), -EINVAL);

	/* Sorted by path 0's peak, then path 1's: the last is 800000/300000. */
	KUNIT_ASSERT_EQ(test, opp_lookup_bw_floor(ctx->ours, U32_MAX, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.peak_kbps, 800000U);
	KUNIT_EXPECT_EQ(test, info.avg_kbps, 400000U);
	KUNIT_ASSERT_EQ(test, opp_lookup_bw_floor(ctx->ours, U32_MAX, 1, &info), 0);
	KUNIT_EXPECT_EQ(test, info.peak_kbps, 300000U);
	KUNIT_EXPECT_EQ(test, info.avg_kbps, 150000U);
	/* Path 1 in the table's order: 500000, 100000, 300000. */
	KUNIT_ASSERT_EQ(test, opp_lookup_bw_ceil(ctx->ours, 200000, 1, &info), 0);
	KUNIT_EXPECT_EQ(test, info.peak_kbps, 500000U);
	KUNIT_ASSERT_EQ(test, opp_lookup_bw_floor(ctx->ours, 499999, 1, &info),
			-ERANGE);
	/* A lookup by rate gives path 0's. */
	KUNIT_ASSERT_EQ(test, opp_lookup_ceil(ctx->ours, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.peak_kbps, 200000U);

	/* Rate 0 names the first OPP: remove it, its bandwidths go too. */
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->ours, 0), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), 2);
	KUNIT_ASSERT_EQ(test, opp_lookup_bw_ceil(ctx->ours, 0, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.peak_kbps, 800000U);
	KUNIT_ASSERT_EQ(test, opp_lookup_bw_ceil(ctx->ours, 0, 1, &info), 0);
	KUNIT_EXPECT_EQ(test, info.peak_kbps, 100000U);
}

/* ---- required-opps ---- */

/*
 * A consumer table whose OPPs require the OPPs of power domains'
 * tables, read by both parsers with the providers read before it or
 * after it (the kernel then links it late), a provider's level-16 OPP
 * disabled or not.
 */
struct of_v2_req {
	const char *node;
	bool late;		/* the providers are read after the consumer */
	bool disable_16;	/* before the consumer is read */
	int err;		/* both parsers' answer */
	int count;		/* the consumer's available OPPs */
	bool inherits;		/* one required OPP each: its level, 6.8 on */
	unsigned int level[3];	/* entry 0's level, available OPPs by rate */
};

static const struct of_v2_req of_v2_reqs[] = {
	{ "good-required", false, false, 0, 3, true, { 16, 32, 48 } },
	{ "good-required", true, false, 0, 3, true, { 16, 32, 48 } },
	{ "good-required", false, true, 0, 2, true, { 32, 48 } },
	{ "good-required-two", false, false, 0, 2, false, { 16, 32 } },
	{ "good-required-two", true, false, 0, 2, false, { 16, 32 } },
	{ "good-required-nothing", false, false, 0, 2, false, { 0, 0 } },
	{ "bad-required-missing", false, false, -ENODEV },
	{ "bad-required-no-opp", false, false, -ENODEV },
};

static void of_v2_req_desc(const struct of_v2_req *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s%s", r->node,
		 r->late ? ", providers late" : "",
		 r->disable_16 ? ", level 16 disabled" : "");
}

KUNIT_ARRAY_PARAM(of_v2_req, of_v2_reqs, of_v2_req_desc);

static void of_v2_providers_new(struct kunit *test)
{
	static const char * const names[] = {
		"required-provider", "required-provider-b",
	};
	struct of_v2_ctx *ctx = test->priv;
	struct device_node *root, *np;
	int i;

	root = of_find_node_by_path(OF_PAIR_ROOT);
	KUNIT_ASSERT_NOT_NULL(test, root);
	for (i = 0; i < 2; i++) {
		np = of_get_child_by_name(root, names[i]);
		if (!np)
			break;
		ctx->pd[i][0] = opp_test_fixture_dev_new(test, "opp-of-v2-pd-ours",
							 &ctx->released);
		ctx->pd[i][1] = opp_genpd_dev_create(i ? "opp-of-v2-pd-b" :
							 "opp-of-v2-pd-a");
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->pd[i][1]);
		ctx->pd[i][0]->of_node = np;
		ctx->pd[i][1]->of_node = np;
	}
	of_node_put(root);
	KUNIT_ASSERT_EQ_MSG(test, i, 2, "no %s", names[i % 2]);
}

static void of_v2_providers_read(struct kunit *test)
{
	struct of_v2_ctx *ctx = test->priv;
	int i;

	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, dev_pm_opp_of_add_table(ctx->pd[i][1]), 0);
		KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->pd[i][0]), 0);
	}
}

/* Entry 0's level of each available OPP, by rate: ours and the kernel's. */
static void of_v2_required_levels(struct of_v2_ctx *ctx, unsigned int *ours,
				  unsigned int *kernels, struct opp_table **pd)
{
	struct dev_pm_opp *kopp;
	unsigned long f = 0;
	struct opp *opp;
	int i;

	for (i = 0; i < 3; i++, f++) {
		rcu_read_lock();
		opp = opp_find_freq_ceil(ctx->ours, &f);
		ours[i] = opp_get_required_level(opp, 0);
		if (!i)
			*pd = opp_get_required_table(opp, 0);
		rcu_read_unlock();
		kopp = dev_pm_opp_find_freq_ceil(ctx->kernels, &f);
		if (IS_ERR(kopp)) {
			kernels[i] = 0;
			continue;
		}
		kernels[i] = dev_pm_opp_get_required_pstate(kopp, 0);
		dev_pm_opp_put(kopp);
	}
}

static void opp_of_v2_required(struct kunit *test)
{
	const struct of_v2_req *r = test->param_value;
	struct of_v2_ctx *ctx = test->priv;
	struct of_v2_table *ours = opp_test_of_v2_tables(test), *kernels = ours + 1;
	unsigned int lo[3], lk[3];
	struct opp_table *pd, *pd_own;
	int i, ret;

	of_v2_providers_new(test);
	if (!r->late)
		of_v2_providers_read(test);
	if (r->disable_16) {
		/* Rate 0 names a level table's first OPP: level 16. */
		KUNIT_ASSERT_EQ(test, dev_pm_opp_disable(ctx->pd[0][1], 0), 0);
		KUNIT_ASSERT_EQ(test, opp_disable(ctx->pd[0][0], 0), 0);
	}
	of_v2_attach(test, r->node);
	ret = dev_pm_opp_of_add_table(ctx->kernels);
	KUNIT_EXPECT_EQ(test, ret, r->err);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), r->err);
	if (r->err) {
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), -ENODEV);
		return;
	}
	if (r->late) {
		/* Pending: both answer 0, and the handle is not there yet. */
		of_v2_required_levels(ctx, lo, lk, &pd);
		for (i = 0; i < r->count; i++) {
			KUNIT_EXPECT_EQ_MSG(test, lo[i], 0U, "OPP %d", i);
			KUNIT_EXPECT_EQ_MSG(test, lk[i], 0U, "OPP %d", i);
		}
		KUNIT_EXPECT_PTR_EQ(test, pd, ERR_PTR(-ENODEV));
		of_v2_providers_read(test);
	}
	opp_test_of_v2_read_ours(ctx->ours, ours);
	opp_test_of_v2_read_kernels(test, ctx->kernels, kernels);
	KUNIT_EXPECT_EQ(test, ours->count, r->count);
	opp_test_of_v2_expect_same(test, ours, kernels);

	of_v2_required_levels(ctx, lo, lk, &pd);
	for (i = 0; i < r->count; i++) {
		KUNIT_EXPECT_EQ_MSG(test, lo[i], r->level[i], "OPP %d", i);
		if (OPP_KERNEL_REQUIRED_PSTATE_IS_LEVEL)
			KUNIT_EXPECT_EQ_MSG(test, lo[i], lk[i], "OPP %d", i);
		KUNIT_EXPECT_EQ_MSG(test, ours->opp[i].level,
				    r->inherits && OPP_OF_REQUIRED_GENPD_LEVEL ?
				    r->level[i] : OPP_LEVEL_NONE, "OPP %d", i);
	}
	/* The handle is the provider's table's. */
	if (r->level[0]) {
		pd_own = opp_table_get(ctx->pd[0][0]);
		KUNIT_EXPECT_PTR_EQ(test, pd, pd_own);
		opp_table_put(pd_own);
	} else {
		KUNIT_EXPECT_TRUE(test, IS_ERR(pd));
	}
	opp_table_put(pd);
	/* The consumers go first: the kernel's hold the providers'. */
	dev_pm_opp_of_remove_table(ctx->kernels);
	opp_remove_table(ctx->ours);
}

/* opp_set_config(): bad input changes nothing; one per device, before. */
static void opp_of_v2_config_errors(struct kunit *test)
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
	KUNIT_CASE_PARAM(opp_of_v2_matches_kernel, of_v2_good_gen_params),
	KUNIT_CASE_PARAM(opp_of_v2_malformed, of_v2_bad_gen_params),
	KUNIT_CASE_PARAM(opp_of_v2_supply_rule, of_v2_rule_gen_params),
	KUNIT_CASE(opp_of_v2_rate_above_32bit),
	KUNIT_CASE(opp_of_v2_fault_keeps_table),
	KUNIT_CASE(opp_of_v2_parse_twice),
	KUNIT_CASE(opp_of_v2_cpufreq_boost),
	KUNIT_CASE(opp_of_v2_accessors),
	KUNIT_CASE(opp_of_v2_suspend_disabled),
	KUNIT_CASE(opp_of_v2_level_searches),
	KUNIT_CASE(opp_of_v2_bw_searches),
	KUNIT_CASE_PARAM(opp_of_v2_required, of_v2_req_gen_params),
	KUNIT_CASE(opp_of_v2_config_errors),
	{}
};

/*
 * What the tables' interconnects point at: a provider, or the kernel's
 * parser (which gets the paths) defers every table with bandwidths.
 */
static struct icc_stub of_v2_icc;

static int of_v2_suite_init(struct kunit_suite *suite)
{
	return opp_test_icc_stub_register(&of_v2_icc,
					  "/opp-of-v2/interconnect-test",
					  0x4f5100, 4, NULL);
}

static void of_v2_suite_exit(struct kunit_suite *suite)
{
	opp_test_icc_stub_unregister(&of_v2_icc);
}

static struct kunit_suite of_v2_suite = {
	.suite_init = of_v2_suite_init,
	.suite_exit = of_v2_suite_exit,
	.name = "opp_of_v2",
	.init = of_v2_init,
	.exit = of_v2_exit,
	.test_cases = of_v2_cases,
};

kunit_test_suites(&opp_of_suite, &of_v2_suite);

MODULE_DESCRIPTION("KUnit: the OPP library's device-tree reader, v1 and v2");
MODULE_LICENSE("GPL");
