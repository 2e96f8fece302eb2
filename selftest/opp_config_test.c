// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of a device's configuration (opp_config.c, opp_set_config()
 * and opp_clear_config()): suite opp_config.
 *
 * Each setting, asserted by what it changes: the hardware versions pick
 * the OPPs of a table (good-supported-hw of selftest/opp_of_v2.dtso),
 * the property name picks opp-microvolt-<name> and opp-microamp-<name>
 * (good-prop-name), the clock and supply are what opp_set_rate() drives
 * and what an OPP's voltage is checked against (an OPP the supply cannot
 * give is added disabled), and supplies and clocks named are got from
 * the device by name, through the test providers' lookups
 * (opp_test_helpers.h). The library keeps copies of what the
 * configuration points at. Bad input is refused with the documented
 * error and leaves nothing behind (the device takes a configuration
 * after, its reference count unchanged); a configuration holds its
 * device until it is cleared, and clearing twice does nothing.
 */
#include <kunit/test.h>
#include <linux/clk.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/regulator/consumer.h>
#include <linux/string.h>

#include "../opp.h"
#include "opp_test_helpers.h"

#define CFG_UV		900000

struct cfg_ctx {
	struct device *dev;	/* counted: no framework links to it */
	struct device *rate_dev;	/* got providers: links hold it */
	struct device_node *np;
	struct provider prov;
	bool prov_registered;
	struct device *owner;	/* of the providers got by name */
	const char *devs[2];	/* rate_dev's name, NULL-terminated */
	atomic_t released;
};

static int cfg_init(struct kunit *test)
{
	struct cfg_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	test->priv = ctx;
	ctx->dev = opp_test_fixture_dev_new(test, "opp-config-dev", &ctx->released);
	/*
	 * Uncounted: the regulator framework links a consumer to its
	 * regulator, and that link's last reference goes from a work item
	 * after the case is over.
	 */
	ctx->rate_dev = opp_test_fixture_dev_new(test, "opp-config-rate", NULL);
	ctx->devs[0] = dev_name(ctx->rate_dev);
	return 0;
}

static void cfg_exit(struct kunit *test)
{
	struct cfg_ctx *ctx = test->priv;

	opp_remove_table(ctx->dev);
	opp_clear_config(ctx->dev);
	opp_remove_table(ctx->rate_dev);
	opp_clear_config(ctx->rate_dev);
	/* The configurations' puts leave device links to remove first. */
	device_link_wait_removal();
	if (ctx->prov_registered)
		opp_test_provider_unregister(&ctx->prov);
	if (ctx->owner) {
		opp_test_provider_rail_unregister(&ctx->prov);
		opp_test_provider_clock_unregister(&ctx->prov);
		root_device_unregister(ctx->owner);
	}
	ctx->dev->of_node = NULL;
	of_node_put(ctx->np);
	put_device(ctx->dev);
	put_device(ctx->rate_dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->released), 1);
}

/* ctx->dev on the node /opp-of-v2/@name. */
static void cfg_node(struct kunit *test, const char *name)
{
	struct cfg_ctx *ctx = test->priv;

	ctx->np = opp_test_of_pair_node(test, name);
	ctx->dev->of_node = ctx->np;
}

static bool cfg_has(struct device *dev, unsigned long mhz)
{
	struct opp_info info;

	return !opp_lookup_exact(dev, mhz * HZ_PER_MHZ, true, &info);
}

/*
 * The hardware versions { 0x2, 0x1 } keep 100 MHz (its first version
 * matches) and 300 MHz (its second does), and drop 200 MHz (no version
 * matches), 400 MHz (no opp-supported-hw, with a mask set) and 500 MHz
 * (three cells for two levels). Without a mask, only 400 MHz is kept. The
 * library reads its own copy of the mask, not the caller's.
 */
static void opp_config_supported_hw(struct kunit *test)
{
	struct cfg_ctx *ctx = test->priv;
	u32 hw[] = { 0x2, 0x1 };
	struct opp_config cfg = {
		.supported_hw = hw,
		.supported_hw_count = ARRAY_SIZE(hw),
	};

	cfg_node(test, "good-supported-hw");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 1);
	KUNIT_EXPECT_TRUE(test, cfg_has(ctx->dev, 400));
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);

	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &cfg), 0);
	hw[0] = 0;
	hw[1] = 0;
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 2);
	KUNIT_EXPECT_TRUE(test, cfg_has(ctx->dev, 100));
	KUNIT_EXPECT_FALSE(test, cfg_has(ctx->dev, 200));
	KUNIT_EXPECT_TRUE(test, cfg_has(ctx->dev, 300));
	KUNIT_EXPECT_FALSE(test, cfg_has(ctx->dev, 400));
	KUNIT_EXPECT_FALSE(test, cfg_has(ctx->dev, 500));
}

/*
 * The name "slow" picks 100 MHz's opp-microvolt-slow triplet and
 * opp-microamp-slow; 200 MHz, which has no property of that name, keeps
 * its plain one; without the name, the plain ones. The library keeps a
 * copy of the name.
 */
static void opp_config_prop_name(struct kunit *test)
{
	struct cfg_ctx *ctx = test->priv;
	char name[] = "slow";
	struct opp_config cfg = { .prop_name = name };
	struct opp_info info;

	cfg_node(test, "good-prop-name");
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_ASSERT_EQ(test, opp_lookup_exact(ctx->dev, 100 * HZ_PER_MHZ, true,
					       &info), 0);
	KUNIT_EXPECT_EQ(test, info.u_volt, 900000UL);
	KUNIT_EXPECT_EQ(test, info.u_amp, 1000UL);
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);

	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &cfg), 0);
	strscpy(name, "fast", sizeof(name));
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_ASSERT_EQ(test, opp_lookup_exact(ctx->dev, 100 * HZ_PER_MHZ, true,
					       &info), 0);
	KUNIT_EXPECT_EQ(test, info.u_volt, 950000UL);
	KUNIT_EXPECT_EQ(test, info.u_volt_min, 925000UL);
	KUNIT_EXPECT_EQ(test, info.u_volt_max, 975000UL);
	KUNIT_EXPECT_EQ(test, info.u_amp, 2000UL);
	KUNIT_ASSERT_EQ(test, opp_lookup_exact(ctx->dev, 200 * HZ_PER_MHZ, true,
					       &info), 0);
	KUNIT_EXPECT_EQ(test, info.u_volt, 1000000UL);
}

/*
 * The clock and supply given: opp_set_rate() drives them (voltage up
 * first), an OPP the supply cannot give (above PROVIDER_UV_MAX) is added
 * disabled; once the configuration is cleared opp_set_rate() has nothing
 * to drive (-ENODEV), the table stays.
 */
static void opp_config_clk_supply(struct kunit *test)
{
	struct cfg_ctx *ctx = test->priv;
	struct device *dev = ctx->rate_dev;
	struct opp_config cfg = { };
	struct opp_info info;

	KUNIT_ASSERT_EQ(test, opp_test_provider_register(&ctx->prov, "opp-config-prov",
							 dev, 200 * HZ_PER_MHZ, CFG_UV), 0);
	ctx->prov_registered = true;
	cfg.clk = ctx->prov.clk;
	cfg.supply = ctx->prov.supply;
	KUNIT_ASSERT_EQ(test, opp_set_config(dev, &cfg), 0);
	KUNIT_ASSERT_EQ(test, opp_add(dev, 200 * HZ_PER_MHZ, CFG_UV), 0);
	KUNIT_ASSERT_EQ(test, opp_add(dev, 400 * HZ_PER_MHZ, 1000000), 0);
	KUNIT_ASSERT_EQ(test, opp_add(dev, 600 * HZ_PER_MHZ,
				      PROVIDER_UV_MAX + 100000), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(dev), 2);
	KUNIT_EXPECT_EQ(test, opp_lookup_exact(dev, 600 * HZ_PER_MHZ, false,
					       &info), 0);

	KUNIT_EXPECT_EQ(test, opp_set_rate(dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, ctx->prov.rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, ctx->prov.uv, 1000000);
	KUNIT_EXPECT_GE(test, ctx->prov.volt_calls, 1UL);
	KUNIT_EXPECT_GE(test, ctx->prov.clk_calls, 1UL);

	opp_clear_config(dev);
	KUNIT_EXPECT_EQ(test, opp_set_rate(dev, 200 * HZ_PER_MHZ), -ENODEV);
	KUNIT_EXPECT_EQ(test, ctx->prov.rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(dev), 2);
}

/*
 * A supply and a clock named: got from the device by name (the
 * regulator's consumer map, clkdev), and driven by opp_set_rate() as if
 * given. A name the device does not have is the framework's error, and
 * leaves nothing: the device takes a configuration after.
 */
static void opp_config_names(struct kunit *test)
{
	static const char * const vdd[] = { "vdd", NULL };
	static const char * const core[] = { "core", NULL };
	static const char * const none[] = { "opp-config-none", NULL };
	struct cfg_ctx *ctx = test->priv;
	struct device *dev = ctx->rate_dev;
	struct opp_config bad = { .regulator_names = none };
	struct opp_config cfg = { .regulator_names = vdd, .clk_names = core };

	ctx->owner = __root_device_register("opp-config-owner", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->owner);
	opp_test_provider_init(&ctx->prov, 200 * HZ_PER_MHZ, CFG_UV);
	KUNIT_ASSERT_EQ(test, opp_test_provider_rail_register(&ctx->prov, ctx->owner,
							      "opp-config-rail",
						     PROVIDER_UV_MIN,
						     PROVIDER_UV_MAX, vdd,
						     ctx->devs), 0);
	KUNIT_ASSERT_EQ(test, opp_test_provider_clock_register(&ctx->prov, ctx->owner,
							       "opp-config-clk", "core",
						      ctx->devs), 0);

	KUNIT_EXPECT_LT(test, opp_set_config(dev, &bad), 0);
	KUNIT_ASSERT_EQ(test, opp_set_config(dev, &cfg), 0);
	KUNIT_ASSERT_EQ(test, opp_add(dev, 200 * HZ_PER_MHZ, CFG_UV), 0);
	KUNIT_ASSERT_EQ(test, opp_add(dev, 400 * HZ_PER_MHZ, 1000000), 0);
	KUNIT_EXPECT_EQ(test, opp_set_rate(dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, ctx->prov.rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, ctx->prov.uv, 1000000);
	KUNIT_EXPECT_EQ(test, opp_set_config(dev, &cfg), -EBUSY);
}

/* A bad configuration, and why opp_set_config() must refuse it. */
struct cfg_bad {
	const char *what;
	struct opp_config cfg;
};

static const u32 cfg_hw[] = { 0x1 };
static const char * const cfg_vdd[] = { "vdd", NULL };
static const char * const cfg_empty[] = { NULL };

/*
 * Each -EINVAL of opp_set_config()'s kernel-doc: on a good device,
 * nothing kept, nothing referenced, nothing logged but one line; then a
 * second configuration (-EBUSY), and one once the device has a table
 * (-EBUSY); and a bad device. Each refusal leaves the device free for a
 * good configuration, and its reference count as it was.
 */
static void opp_config_bad_input(struct kunit *test)
{
	const struct cfg_bad bad[] = {
		{ "nothing set", { } },
		{ "supported_hw without a count", { .supported_hw = cfg_hw } },
		{ "a count without supported_hw", { .supported_hw_count = 1 } },
		{ "an empty prop_name", { .prop_name = "" } },
		{ "an ERR_PTR clk", { .clk = ERR_PTR(-ENOENT) } },
		{ "an ERR_PTR supply", { .supply = ERR_PTR(-ENODEV) } },
		{ "no regulator name", { .regulator_names = cfg_empty } },
		{ "no clock name", { .clk_names = cfg_empty } },
		/* Refused before the bogus handles below are looked at. */
		{ "regulator names and a supply", {
			.regulator_names = cfg_vdd,
			.supply = (struct regulator *)cfg_vdd,
		} },
		{ "clock names and a clock", {
			.clk_names = cfg_vdd, .clk = (struct clk *)cfg_vdd,
		} },
	};
	struct opp_config good = { .prop_name = "slow" };
	struct cfg_ctx *ctx = test->priv;
	unsigned int refs = kref_read(&ctx->dev->kobj.kref), i;

	KUNIT_EXPECT_EQ(test, opp_set_config(NULL, &good), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ERR_PTR(-ENODEV), &good), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->dev, NULL), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, opp_set_config(ctx->dev, &bad[i].cfg),
				    -EINVAL, "%s", bad[i].what);
		KUNIT_EXPECT_EQ_MSG(test, kref_read(&ctx->dev->kobj.kref), refs,
				    "%s", bad[i].what);
	}
	/* Nothing was kept: the device takes one, once. */
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->dev, &good), 0);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->dev, &good), -EBUSY);
	opp_clear_config(ctx->dev);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs);

	/* Set before the table exists, or not at all. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 100 * HZ_PER_MHZ, CFG_UV), 0);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->dev, &good), -EBUSY);
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs);
	KUNIT_EXPECT_EQ(test, opp_set_config(ctx->dev, &good), 0);
}

/*
 * A configuration holds its device until it is cleared, through the
 * owner's last put and the table's removal; clearing twice, or a device
 * without one, or a bad device, does nothing.
 */
static void opp_config_holds_device(struct kunit *test)
{
	struct cfg_ctx *ctx = test->priv;
	struct opp_config cfg = { .prop_name = "slow" };
	unsigned int refs = kref_read(&ctx->dev->kobj.kref);

	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &cfg), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs + 1);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 100 * HZ_PER_MHZ, CFG_UV), 0);
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs + 1);
	opp_clear_config(ctx->dev);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs);
	opp_clear_config(ctx->dev);
	opp_clear_config(NULL);
	opp_clear_config(ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs);

	/* The owner's put: the configuration keeps the device. */
	get_device(ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &cfg), 0);
	put_device(ctx->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->released), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs + 1);
	opp_clear_config(ctx->dev);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs);
}

static struct kunit_case cfg_cases[] = {
	KUNIT_CASE(opp_config_supported_hw),
	KUNIT_CASE(opp_config_prop_name),
	KUNIT_CASE(opp_config_clk_supply),
	KUNIT_CASE(opp_config_names),
	KUNIT_CASE(opp_config_bad_input),
	KUNIT_CASE(opp_config_holds_device),
	{}
};

static struct kunit_suite cfg_suite = {
	.name = "opp_config",
	.init = cfg_init,
	.exit = cfg_exit,
	.test_cases = cfg_cases,
};

kunit_test_suite(cfg_suite);

MODULE_DESCRIPTION("KUnit: the OPP library's device configuration");
MODULE_LICENSE("GPL");
