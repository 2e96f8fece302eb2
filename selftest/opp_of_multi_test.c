// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the device-tree reader (opp_of.c) and the configuration
 * (opp_config.c) of several supplies and clocks: suite opp_of_multi.
 *
 * Devices with several supplies and clocks, named through opp_set_config()
 * as a driver names them to the kernel's dev_pm_opp_set_config(). Each
 * table of selftest/opp_of_v2.dtso's multi-* nodes is read by this library
 * and by the kernel's OPP core, both configured alike, and compared OPP by
 * OPP: every clock's rate, every supply's voltages, current and power; the
 * malformed ones must get the kernel's error code and add nothing.
 *
 * The supplies and clocks are real: two regulators and two clocks,
 * registered with their frameworks for the suite and looked up by name
 * for both devices (regulator consumer map, clkdev).
 */

#include <kunit/test.h>
#include <linux/clk.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/rcupdate.h>
#include <linux/regulator/consumer.h>

#include "../compat.h"
#include "../opp.h"
#include "opp_test_helpers.h"

#define MULTI_OURS	"opp-of-multi-ours"
#define MULTI_KERNELS	"opp-of-multi-kernel"
/* Two supplies, two clocks. */
#define MULTI_MAX	2
#define MULTI_UV_MIN	500000

/* ---- The providers: two rails, two clocks (opp_test_helpers.h) ---- */

static const char * const multi_devs[] = { MULTI_OURS, MULTI_KERNELS, NULL };

/*
 * Provider i: a rail, got under its one supply name (NULL-terminated),
 * and a clock.
 */
static const struct {
	const char * const supply[2];
	int uv_max;
	const char *clock;
	unsigned long rate;
} multi_facts[MULTI_MAX] = {
	{ { "core" }, 1400000, "opp-multi-core", 100000000 },
	{ { "mem" }, 1200000, "opp-multi-bus", 50000000 },
};

static struct provider multi_providers[MULTI_MAX];
static struct device *multi_owner;

static void multi_suite_exit(struct kunit_suite *suite)
{
	int i;

	/* The configurations' puts leave device links to remove first. */
	device_link_wait_removal();
	for (i = 0; i < MULTI_MAX; i++) {
		opp_test_provider_rail_unregister(&multi_providers[i]);
		opp_test_provider_clock_unregister(&multi_providers[i]);
	}
	if (!IS_ERR_OR_NULL(multi_owner))
		root_device_unregister(multi_owner);
	multi_owner = NULL;
}

static const char * const multi_supply_names[] = { "core", "mem", NULL };
static const char * const multi_clk_names[] = { "core", "bus", NULL };

static int multi_suite_init(struct kunit_suite *suite)
{
	int i, ret;

	/* Without a module link: KUnit runs before the module's sysfs. */
	multi_owner = __root_device_register("opp-multi-providers", NULL);
	if (IS_ERR(multi_owner))
		return PTR_ERR(multi_owner);
	for (i = 0; i < MULTI_MAX; i++) {
		opp_test_provider_init(&multi_providers[i], multi_facts[i].rate,
				       MULTI_UV_MIN);
		ret = opp_test_provider_rail_register(&multi_providers[i], multi_owner,
						      multi_facts[i].supply[0],
						      MULTI_UV_MIN, multi_facts[i].uv_max,
						      multi_facts[i].supply, multi_devs);
		if (!ret)
			ret = opp_test_provider_clock_register(&multi_providers[i],
							       multi_owner,
							       multi_facts[i].clock,
							       multi_clk_names[i],
							       multi_devs);
		if (ret) {
			pr_err("opp_of_multi: provider %d: %d\n", i, ret);
			multi_suite_exit(suite);
			return ret;
		}
	}
	return 0;
}

/* ---- Each case: two devices, one node ---- */

struct multi_ctx {
	struct device *ours;
	struct device *kernels;
	struct device_node *np;
	int token;		/* the kernel's configuration, or -1 */
};

static int multi_init(struct kunit *test)
{
	struct multi_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	test->priv = ctx;
	ctx->token = -1;
	ctx->ours = opp_test_fixture_dev_new(test, MULTI_OURS, NULL);
	ctx->kernels = opp_test_fixture_dev_new(test, MULTI_KERNELS, NULL);
	return 0;
}

static void multi_kernel_unconfigure(struct multi_ctx *ctx)
{
	if (ctx->token >= 0)
		dev_pm_opp_clear_config(ctx->token);
	ctx->token = -1;
}

static void multi_exit(struct kunit *test)
{
	struct multi_ctx *ctx = test->priv;

	opp_test_of_pair_remove_tables(ctx->ours, ctx->kernels);
	multi_kernel_unconfigure(ctx);
	opp_test_of_pair_put(ctx->ours, ctx->kernels, ctx->np);
}

static void multi_attach(struct kunit *test, const char *name)
{
	struct multi_ctx *ctx = test->priv;

	ctx->np = opp_test_of_pair_attach(test, ctx->ours, ctx->kernels, name);
}

/*
 * Name @supplies supplies and @clks clocks (0: none) to both parsers, as a
 * driver would: opp_set_config() here, dev_pm_opp_set_config() there.
 */
static void multi_configure(struct kunit *test, unsigned int supplies,
			    unsigned int clks)
{
	struct multi_ctx *ctx = test->priv;
	const char *reg[MULTI_MAX + 1] = { }, *clk[MULTI_MAX + 1] = { };
	struct opp_config ours = { };
	struct dev_pm_opp_config kernels = { };
	unsigned int i;

	for (i = 0; i < supplies; i++)
		reg[i] = multi_supply_names[i];
	for (i = 0; i < clks; i++)
		clk[i] = multi_clk_names[i];
	if (supplies) {
		ours.regulator_names = reg;
		kernels.regulator_names = reg;
	}
	if (clks) {
		ours.clk_names = clk;
		kernels.clk_names = clk;
		if (clks > 1)
			kernels.config_clks = opp_test_of_multi_config_clks;
	}
	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->ours, &ours), 0);
	ctx->token = dev_pm_opp_set_config(ctx->kernels, &kernels);
	KUNIT_ASSERT_GE(test, ctx->token, 0);
}

/* ---- Tables both read alike ---- */

struct multi_good {
	const char *node;
	unsigned int supplies;
	unsigned int clks;
	int count;		/* available OPPs */
	int walked;		/* of them, one per first-clock rate */
};

static const struct multi_good multi_goods[] = {
	{ "multi-supplies", 2, 0, 3, 3 },
	{ "multi-targets", 2, 0, 2, 2 },
	/* Two OPPs at 300 MHz on the first clock: the walk finds one. */
	{ "multi-clocks", 0, 2, 3, 2 },
	{ "multi-both", 2, 2, 2, 2 },
	{ "multi-one", 1, 1, 2, 2 },
	/* Its 1.3 V OPP is added disabled. */
	{ "multi-beyond", 2, 0, 1, 1 },
};

KUNIT_ARRAY_PARAM_DESC(multi_good, multi_goods, node);

static void opp_of_multi_matches_kernel(struct kunit *test)
{
	const struct multi_good *g = test->param_value;
	struct multi_ctx *ctx = test->priv;
	struct of_multi_table *ours = opp_test_of_multi_tables(test);

	multi_attach(test, g->node);
	multi_configure(test, g->supplies, g->clks);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_add_table(ctx->kernels), 0);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	opp_test_of_multi_compare(test, ours, ctx->ours, ctx->kernels,
				  g->supplies, g->clks);
	KUNIT_EXPECT_EQ(test, ours->count, g->count);
	KUNIT_EXPECT_EQ(test, ours->walked, g->walked);
}

/* ---- Malformed for the names given ---- */

struct multi_bad {
	const char *node;
	unsigned int supplies;
	unsigned int clks;
	int err;		/* both parsers' answer */
};

static const struct multi_bad multi_bads[] = {
	/* One triplet, or three targets, for two supplies. */
	{ "multi-bad-uv-three", 2, 0, -EINVAL },
	{ "multi-bad-ua-one", 2, 0, -EINVAL },
	{ "multi-bad-uw-three", 2, 0, -EINVAL },
	{ "multi-bad-hz-one", 2, 2, -EINVAL },
	{ "multi-bad-hz-three", 2, 2, -EINVAL },
	/* Two rates with one clock: the plain rule. */
	{ "multi-clocks", 0, 0, -EINVAL },
	/* Two voltages without names: neither one nor a triplet. */
	{ "multi-targets", 0, 0, -EINVAL },
	/* A missing opp-microvolt: refused before 6.2 (see compat.h). */
	{ "multi-uv-missing", 2, 0,
	  OPP_OF_SUPPLY_PROPS_DECOUPLED ? 0 : -EINVAL },
};

static void multi_bad_desc(const struct multi_bad *b, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s/%u-supplies/%u-clocks",
		 b->node, b->supplies, b->clks);
}

KUNIT_ARRAY_PARAM(multi_bad, multi_bads, multi_bad_desc);

static void opp_of_multi_malformed(struct kunit *test)
{
	const struct multi_bad *b = test->param_value;
	struct multi_ctx *ctx = test->priv;
	struct of_multi_table *ours = opp_test_of_multi_tables(test);
	struct opp_info info;

	multi_attach(test, b->node);
	if (b->supplies || b->clks)
		multi_configure(test, b->supplies, b->clks);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_add_table(ctx->kernels), b->err);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->ours), b->err);
	if (!b->err) {
		/* Read as the kernel reads it (6.2 on): compare it. */
		opp_test_of_multi_compare(test, ours, ctx->ours, ctx->kernels,
					  b->supplies, b->clks);
		return;
	}
	KUNIT_EXPECT_EQ(test, opp_lookup_ceil(ctx->ours, 0, &info), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), -ENODEV);
}

/* ---- The copy-out lookups and the accessors' bounds ---- */

static void opp_of_multi_lookups(struct kunit *test)
{
	struct multi_ctx *ctx = test->priv;
	struct opp_supply s[MULTI_MAX + 1] = { };
	unsigned long rates[MULTI_MAX + 1] = { };
	struct opp *opp;

	multi_attach(test, "multi-both");
	multi_configure(test, 2, 2);
	KUNIT_EXPECT_EQ(test, opp_lookup_supplies(ctx->ours, 450000000, s, 2),
			-ENODEV);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);

	KUNIT_EXPECT_EQ(test, opp_lookup_supplies(ctx->ours, 450000000, s,
						  ARRAY_SIZE(s)), 2);
	KUNIT_EXPECT_EQ(test, s[0].u_volt, 900000);
	KUNIT_EXPECT_EQ(test, s[0].u_watt, 300000);
	KUNIT_EXPECT_EQ(test, s[1].u_volt, 1000000);
	KUNIT_EXPECT_EQ(test, s[1].u_volt_min, 1000000);
	KUNIT_EXPECT_EQ(test, s[1].u_watt, 90000);
	KUNIT_EXPECT_EQ(test, s[2].u_volt, 0);	/* beyond: untouched */
	/* Room for one: the count still says two, one is copied. */
	memset(s, 0, sizeof(s));
	KUNIT_EXPECT_EQ(test, opp_lookup_supplies(ctx->ours, 900000000, s, 1),
			2);
	KUNIT_EXPECT_EQ(test, s[0].u_volt, 1050000);
	KUNIT_EXPECT_EQ(test, s[1].u_volt, 0);
	KUNIT_EXPECT_EQ(test, opp_lookup_supplies(ctx->ours, 900000000, NULL,
						  0), 2);

	KUNIT_EXPECT_EQ(test, opp_lookup_rates(ctx->ours, 900000000, rates,
					       ARRAY_SIZE(rates)), 2);
	KUNIT_EXPECT_EQ(test, rates[0], 900000000);
	KUNIT_EXPECT_EQ(test, rates[1], 450000000);
	KUNIT_EXPECT_EQ(test, rates[2], 0);

	/* Bad input: an error, nothing written. */
	KUNIT_EXPECT_EQ(test, opp_lookup_supplies(ctx->ours, 900000000, NULL,
						  1), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_lookup_rates(ctx->ours, 900000000, NULL, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, opp_lookup_supplies(NULL, 900000000, s, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, opp_lookup_rates(ERR_PTR(-ENODEV), 900000000,
					       rates, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_lookup_supplies(ctx->ours, 450000001, s, 1),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, opp_lookup_rates(ctx->ours, 0, rates, 1),
			-ERANGE);

	rcu_read_lock();
	opp = opp_find_freq_exact(ctx->ours, 900000000, true);
	KUNIT_EXPECT_FALSE(test, IS_ERR(opp));
	KUNIT_EXPECT_EQ(test, opp_get_freq_indexed(opp, 1), 450000000);
	KUNIT_EXPECT_EQ(test, opp_get_freq_indexed(opp, 2), 0);
	KUNIT_EXPECT_EQ(test, opp_get_power(opp), 900000);
	KUNIT_EXPECT_EQ(test, opp_get_supplies(opp, NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_get_supplies(opp, NULL, 0), 2);
	KUNIT_EXPECT_EQ(test, opp_get_supplies(NULL, s, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_get_supplies(ERR_PTR(-ERANGE), s, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, opp_get_freq_indexed(NULL, 0), 0);
	rcu_read_unlock();
}

/* A table without names has one supply and one clock, its scalars. */
static void opp_of_multi_one_of_each(struct kunit *test)
{
	struct multi_ctx *ctx = test->priv;
	struct opp_supply s[MULTI_MAX] = { };
	unsigned long rates[MULTI_MAX] = { };

	KUNIT_ASSERT_EQ(test, opp_add(ctx->ours, 300000000, 950000), 0);
	KUNIT_EXPECT_EQ(test, opp_lookup_supplies(ctx->ours, 300000000, s,
						  MULTI_MAX), 1);
	KUNIT_EXPECT_EQ(test, s[0].u_volt, 950000);
	KUNIT_EXPECT_EQ(test, s[0].u_volt_min, 950000);
	KUNIT_EXPECT_EQ(test, s[0].u_volt_max, 950000);
	KUNIT_EXPECT_EQ(test, s[1].u_volt, 0);
	KUNIT_EXPECT_EQ(test, opp_lookup_rates(ctx->ours, 300000000, rates,
					       MULTI_MAX), 1);
	KUNIT_EXPECT_EQ(test, rates[0], 300000000);
	KUNIT_EXPECT_EQ(test, rates[1], 0);
}

/* ---- What opp_set_config() takes and what it refuses ---- */

static void opp_of_multi_config(struct kunit *test)
{
	struct multi_ctx *ctx = test->priv;
	struct regulator *reg;
	struct clk *clk;
	static const char * const none[] = { NULL };
	static const char * const unknown_supply[] = { "core", "nope", NULL };
	static const char * const unknown_clk[] = { "bus", "nope", NULL };
	struct opp_config empty_supplies = { .regulator_names = none };
	struct opp_config empty_clks = { .clk_names = none };
	struct opp_config no_supply = { .regulator_names = unknown_supply };
	struct opp_config no_clk = { .clk_names = unknown_clk };
	struct opp_config ok = {
		.regulator_names = multi_supply_names,
		.clk_names = multi_clk_names,
	};
	struct opp_config both_supplies, both_clks;

	reg = regulator_get_optional(ctx->ours, "core");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, reg);
	clk = clk_get(ctx->ours, "core");
	if (IS_ERR(clk)) {
		regulator_put(reg);
		KUNIT_FAIL(test, "no clock core: %ld", PTR_ERR(clk));
		return;
	}
	both_supplies = (struct opp_config){
		.supply = reg, .regulator_names = multi_supply_names,
	};
	both_clks = (struct opp_config){
		.clk = clk, .clk_names = multi_clk_names,
	};
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &empty_supplies),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &empty_clks), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &both_supplies),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &both_clks), -EINVAL);
	clk_put(clk);
	regulator_put(reg);
	/* A name the device lacks: the framework's error, nothing kept. */
	KUNIT_EXPECT_LT(test, opp_set_config(ctx->ours, &no_supply), 0);
	KUNIT_EXPECT_LT(test, opp_set_config(ctx->ours, &no_clk), 0);

	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &ok), 0);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->ours, &ok), -EBUSY);
	/*
	 * An OPP of opp_add() names clock 0 and supply 0 only: those are
	 * set, the others (no rate, no voltage) left alone.
	 */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->ours, 300000000, 950000), 0);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->ours, 300000000), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[0].rate), 300000000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[0].uv), 950000);
	opp_clear_config(ctx->ours);
	/* Cleared: every supply and clock was put (the suite's exit checks). */
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->ours, 300000000), -ENODEV);
}

/* One supply and one clock by name: opp_set_rate() drives those. */
static void opp_of_multi_named_set_rate(struct kunit *test)
{
	struct multi_ctx *ctx = test->priv;
	struct provider *core = &multi_providers[0];

	multi_attach(test, "multi-one");
	multi_configure(test, 1, 1);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->ours, 400000000), 0);
	/* The regulator core asks for the target first, up to the max. */
	KUNIT_EXPECT_EQ(test, READ_ONCE(core->rate), 700000000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(core->uv), 1000000);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->ours, 1), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(core->rate), 350000000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(core->uv), 900000);
}

/*
 * Two supplies and two clocks: opp_set_rate() sets every one of them to
 * the OPP's values, both ways (the order is the opp_genpd suite's to
 * check, with one log across the frameworks).
 */
static void opp_of_multi_several_set_rate(struct kunit *test)
{
	struct multi_ctx *ctx = test->priv;

	multi_attach(test, "multi-both");
	multi_configure(test, 2, 2);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->ours, 900000000), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[0].rate), 900000000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[1].rate), 450000000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[0].uv), 1050000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[1].uv), 1100000);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->ours, 1), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[0].rate), 450000000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[1].rate), 225000000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[0].uv), 900000);
	KUNIT_EXPECT_EQ(test, READ_ONCE(multi_providers[1].uv), 1000000);
}

/* ---- Allocation faults: each fails in turn, nothing is kept ---- */

/*
 * One fault sweep of @call: every n until the n-th allocation is no
 * longer reached; -ENOMEM (or the frameworks' error for a failure inside
 * them) must leave nothing, checked by @none. Returns how many n gave
 * -ENOMEM.
 */
static unsigned int multi_sweep(struct kunit *test,
				int (*call)(struct multi_ctx *ctx),
				void (*undo)(struct kunit *test,
					     struct multi_ctx *ctx),
				void (*none)(struct kunit *test,
					     struct multi_ctx *ctx,
					     unsigned int nth))
{
	struct multi_ctx *ctx = test->priv;
	unsigned int nth, enomem = 0;
	bool hit = true;
	int ret;

	for (nth = 1; hit && nth < 400; nth++) {
		WRITE_ONCE(current->fail_nth, nth);
		ret = call(ctx);
		hit = !READ_ONCE(current->fail_nth);
		WRITE_ONCE(current->fail_nth, 0);
		if (!ret) {
			undo(test, ctx);
			continue;
		}
		enomem += ret == -ENOMEM;
		none(test, ctx, nth);
	}
	KUNIT_EXPECT_FALSE_MSG(test, hit, "still allocating at %u", nth);
	return enomem;
}

static int multi_set_names(struct multi_ctx *ctx)
{
	struct opp_config cfg = {
		.regulator_names = multi_supply_names,
		.clk_names = multi_clk_names,
	};

	return opp_set_config(ctx->ours, &cfg);
}

static void multi_clear_names(struct kunit *test, struct multi_ctx *ctx)
{
	opp_clear_config(ctx->ours);
}

/* No configuration kept: a new one is taken, and cleared. */
static void multi_no_config(struct kunit *test, struct multi_ctx *ctx,
			    unsigned int nth)
{
	KUNIT_EXPECT_EQ_MSG(test, multi_set_names(ctx), 0, "allocation %u",
			    nth);
	opp_clear_config(ctx->ours);
}

/*
 * opp_set_config() with names: the library's three allocations (the
 * configuration, the supplies' and the clocks' arrays) at least, and the
 * frameworks' own; each failure puts what was got (the suite's exit
 * unregisters the providers, which warns of a consumer left).
 */
static void opp_of_multi_config_faults(struct kunit *test)
{
	unsigned int enomem = multi_sweep(test, multi_set_names,
					  multi_clear_names, multi_no_config);

	KUNIT_EXPECT_GE(test, enomem, 3U);
	kunit_info(test, "opp_set_config(): %u allocations gave -ENOMEM",
		   enomem);
}

static int multi_read(struct multi_ctx *ctx)
{
	return opp_of_add_table(ctx->ours);
}

static void multi_remove(struct kunit *test, struct multi_ctx *ctx)
{
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), 3);
	opp_remove_table(ctx->ours);
}

static void multi_no_table(struct kunit *test, struct multi_ctx *ctx,
			   unsigned int nth)
{
	KUNIT_EXPECT_EQ_MSG(test, opp_test_fixture_count(ctx->ours), -ENODEV,
			    "allocation %u", nth);
}

/*
 * Reading two supplies' values: the cells, the points, one extra per
 * OPP (3), the array and the table, seven sites, each failed in turn
 * (three sweeps at most: another allocation of the task may take a
 * fault first).
 */
static void opp_of_multi_parse_faults(struct kunit *test)
{
	unsigned int sweep, enomem = 0;

	multi_attach(test, "multi-supplies");
	multi_configure(test, 2, 0);
	for (sweep = 0; sweep < 3 && enomem != 7; sweep++)
		enomem = multi_sweep(test, multi_read, multi_remove,
				     multi_no_table);
	KUNIT_EXPECT_EQ(test, enomem, 7U);
}

/* ---- The debugfs view of a device's OPPs ---- */

#define MULTI_OPPS_VIEW	"/sys/kernel/debug/opp_library/opps"

struct multi_view {
	const char *dev;
	char line[4][200];	/* the table's line, then its OPPs' */
	int n;
};

static int multi_view_line(char *line, void *arg)
{
	struct multi_view *v = arg;
	size_t len = strlen(v->dev);

	if (strncmp(line, v->dev, len) || line[len] != ' ')
		return 0;
	if (v->n == ARRAY_SIZE(v->line))
		return -E2BIG;
	strscpy(v->line[v->n++], line + len + 1, sizeof(v->line[0]));
	return 0;
}

/* Every clock, supply and power of every OPP, as the parser read them. */
static void opp_of_multi_debugfs(struct kunit *test)
{
	struct multi_ctx *ctx = test->priv;
	struct multi_view *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);
	char want[200];

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, v);
	v->dev = MULTI_OURS;
	multi_attach(test, "multi-both");
	multi_configure(test, 2, 2);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_ASSERT_EQ(test, opp_test_fixture_debugfs_lines(MULTI_OPPS_VIEW,
							     multi_view_line, v), 0);
	KUNIT_ASSERT_EQ(test, v->n, 3);
	KUNIT_EXPECT_STREQ(test, v->line[0],
			   "table opps=2 latency_ns=0 paths=0 shared=no genpd=no node=/opp-of-v2/table-multi-both");
	/* The level of an OPP without one is the running kernel's "none". */
	snprintf(want, sizeof(want),
		 "opp hz=450000000,225000000 level=%u uV=900000/900000/900000,1000000/1000000/1000000 uA=0,0 uW=300000,90000 available=yes turbo=no suspend=no",
		 OPP_LEVEL_NONE);
	KUNIT_EXPECT_STREQ(test, v->line[1], want);
	snprintf(want, sizeof(want),
		 "opp hz=900000000,450000000 level=%u uV=1050000/1050000/1050000,1100000/1100000/1100000 uA=0,0 uW=700000,200000 available=yes turbo=no suspend=no",
		 OPP_LEVEL_NONE);
	KUNIT_EXPECT_STREQ(test, v->line[2], want);
}

static struct kunit_case multi_cases[] = {
	KUNIT_CASE_PARAM(opp_of_multi_matches_kernel, multi_good_gen_params),
	KUNIT_CASE_PARAM(opp_of_multi_malformed, multi_bad_gen_params),
	KUNIT_CASE(opp_of_multi_lookups),
	KUNIT_CASE(opp_of_multi_one_of_each),
	KUNIT_CASE(opp_of_multi_config),
	KUNIT_CASE(opp_of_multi_named_set_rate),
	KUNIT_CASE(opp_of_multi_several_set_rate),
	KUNIT_CASE(opp_of_multi_config_faults),
	KUNIT_CASE(opp_of_multi_parse_faults),
	KUNIT_CASE(opp_of_multi_debugfs),
	{}
};

static struct kunit_suite multi_suite = {
	.name = "opp_of_multi",
	.suite_init = multi_suite_init,
	.suite_exit = multi_suite_exit,
	.init = multi_init,
	.exit = multi_exit,
	.test_cases = multi_cases,
};

kunit_test_suite(multi_suite);

MODULE_DESCRIPTION("KUnit: several supplies and clocks against the kernel's OPP core");
MODULE_LICENSE("GPL");
