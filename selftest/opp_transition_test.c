// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's transitions (opp_rate.c): suites opp_genpd
 * and opp_icc.
 *
 * What opp_set_rate() and opp_set_level() move besides the clock and the
 * supply, through the kernel's real frameworks. This module registers a
 * generic power domain with performance states (its levels are a table of
 * the device tree, which genpd reads with the kernel's OPP core) and an
 * interconnect provider with two paths; both record every request into the
 * log of the suite's clock and regulator (selftest/opp_test_helpers.h),
 * so one log shows the order of every step of a transition, and both can
 * be told to fail their next request.
 *
 * The consumers are platform devices on the nodes trans-* of
 * selftest/opp_of_v2.dtso, attached to the power domain as a bus would
 * attach them (dev_pm_domain_attach()).
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/pm_opp.h>
#include <linux/pm_domain.h>
#include <linux/slab.h>

#include "opp_test_helpers.h"

#define TRANS_ROOT	"/opp-of-v2/"
/* Interconnect node ids are global: far from any a board would use. */
#define TRANS_ICC_ID	0x4f5000
#define TRANS_ICC_NODES	4
#define TRANS_LO	100000000UL
#define TRANS_MID	200000000UL
#define TRANS_HI	300000000UL
#define TRANS_LOG_LEN	256

/* Where the domain and the interconnect record: the running case's log. */
static struct provider *trans_log;

static void trans_record(enum provider_call what, unsigned int i,
			 unsigned long a, unsigned long b, int err)
{
	struct provider *p = READ_ONCE(trans_log);
	unsigned long flags;

	if (!p)
		return;
	spin_lock_irqsave(&p->lock, flags);
	opp_test_provider_record_at(p, what, i, a, b, err);
	spin_unlock_irqrestore(&p->lock, flags);
}

/* ---- The power domain ---- */

static struct {
	struct generic_pm_domain genpd;
	struct device_node *np;
	bool added;
	bool provider;
	int fail;		/* the next vote fails with it, once */
	unsigned int state;
} trans_pd;

static int trans_pd_set_state(struct generic_pm_domain *genpd,
			      unsigned int state)
{
	int ret = xchg(&trans_pd.fail, 0);

	trans_record(PROVIDER_PSTATE, 0, state, 0, ret);
	if (!ret)
		WRITE_ONCE(trans_pd.state, state);
	return ret;
}

#if OPP_GENPD_HAS_OPP_TO_STATE
/* 6.1's genpd asks its provider for an OPP's state: the OPP's level. */
static unsigned int trans_pd_opp_state(struct generic_pm_domain *genpd,
				       struct dev_pm_opp *opp)
{
	return dev_pm_opp_get_level(opp);
}
#endif

/*
 * 6.1's genpd puts the domain's device when the domain is removed but
 * gives it no release (6.12 gives one): the domain here is static, so
 * there is nothing to free, only the driver core's warning to spare.
 */
static void trans_pd_release(struct device *dev)
{
}

static int trans_pd_register(void)
{
	int ret;

	trans_pd.np = of_find_node_by_path(TRANS_ROOT "trans-power-domain");
	if (!trans_pd.np)
		return -ENOENT;
	trans_pd.genpd.name = "opp-trans-pd";
	trans_pd.genpd.set_performance_state = trans_pd_set_state;
#if OPP_GENPD_HAS_OPP_TO_STATE
	trans_pd.genpd.opp_to_performance_state = trans_pd_opp_state;
#endif
	ret = pm_genpd_init(&trans_pd.genpd, NULL, false);
	if (ret)
		return ret;
	if (!trans_pd.genpd.dev.release)
		trans_pd.genpd.dev.release = trans_pd_release;
	trans_pd.added = true;
	ret = of_genpd_add_provider_simple(trans_pd.np, &trans_pd.genpd);
	if (ret)
		return ret;
	trans_pd.provider = true;
	return 0;
}

static void trans_pd_unregister(void)
{
	if (trans_pd.provider)
		of_genpd_del_provider(trans_pd.np);
	if (trans_pd.added)
		WARN_ON(pm_genpd_remove(&trans_pd.genpd));
	of_node_put(trans_pd.np);
	memset(&trans_pd, 0, sizeof(trans_pd));
}

/* ---- The interconnect ---- */

static struct {
	struct icc_stub stub;
	int fail;		/* a request on path @fail_path fails, once */
	unsigned int fail_path;
} trans_icc;

/* Path n runs from node 2n to node 2n + 1: the source holds its request. */
static int trans_icc_set(struct icc_node *src, struct icc_node *dst)
{
	unsigned int path = (src->id - TRANS_ICC_ID) / 2;
	int ret = 0;

	if (path == READ_ONCE(trans_icc.fail_path))
		ret = xchg(&trans_icc.fail, 0);
	trans_record(PROVIDER_BW, path, src->peak_bw, src->avg_bw, ret);
	return ret;
}

static int trans_icc_register(void)
{
	return opp_test_icc_stub_register(&trans_icc.stub,
					  TRANS_ROOT "trans-interconnect", TRANS_ICC_ID,
					  TRANS_ICC_NODES, trans_icc_set);
}

static void trans_icc_unregister(void)
{
	opp_test_icc_stub_unregister(&trans_icc.stub);
	trans_icc.fail = 0;
}

static int trans_suite_init(struct kunit_suite *suite)
{
	int ret = trans_pd_register();

	if (!ret)
		ret = trans_icc_register();
	if (ret) {
		pr_err("%s: providers: %d (is selftest/opp_of_v2.dtso applied?)\n",
		       suite->name, ret);
		trans_icc_unregister();
		trans_pd_unregister();
	}
	return ret;
}

static void trans_suite_exit(struct kunit_suite *suite)
{
	trans_icc_unregister();
	trans_pd_unregister();
}

/* ---- The consumer ---- */

struct trans_ctx {
	struct platform_device *pdev;
	struct device *dev;
	struct provider prov;
	bool registered;
	bool attached;
	char log[TRANS_LOG_LEN];
};

/* The voltage each rate needs, as the trans-* tables give it. */
static unsigned long trans_need_uv(unsigned long rate)
{
	if (rate > TRANS_MID)
		return 1100000;
	if (rate > TRANS_LO)
		return 1000000;
	return 900000;
}

/*
 * A device on @node, attached to its power domain if it names one, with
 * the suite's clock and a switchable supply (at @rate and @uv), configured
 * and its table read.
 */
static void trans_setup(struct kunit *test, const char *node,
			unsigned long rate, int uv, bool clock)
{
	struct trans_ctx *ctx = test->priv;
	struct opp_config cfg = { };
	struct device_node *np;

	np = of_find_node_by_path(node);
	KUNIT_ASSERT_NOT_NULL_MSG(test, np, "no %s: boot with selftest/opp_of_v2.dtso applied",
				  node);
	ctx->pdev = platform_device_alloc("opp-trans-dev", PLATFORM_DEVID_NONE);
	if (!ctx->pdev)
		of_node_put(np);
	KUNIT_ASSERT_NOT_NULL(test, ctx->pdev);
	/* The platform device puts its node when it goes. */
	ctx->pdev->dev.of_node = np;
	KUNIT_ASSERT_EQ(test, platform_device_add(ctx->pdev), 0);
	ctx->dev = &ctx->pdev->dev;
	KUNIT_ASSERT_EQ(test, dev_pm_domain_attach(ctx->dev, true), 0);
	ctx->attached = !!ctx->dev->pm_domain;

	ctx->prov.switchable = true;
	KUNIT_ASSERT_EQ(test, opp_test_provider_register(&ctx->prov, "opp-trans",
							 ctx->dev, rate, uv), 0);
	ctx->registered = true;
	ctx->prov.need_uv = trans_need_uv;
	WRITE_ONCE(trans_log, &ctx->prov);
	cfg.clk = clock ? ctx->prov.clk : NULL;
	cfg.supply = ctx->prov.supply;
	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &cfg), 0);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
}

/*
 * The device of a case whose transitions start from an OPP: on @node with
 * the suite's clock and a supply at TRANS_LO and 0.9 V, then moved to
 * @rate.
 */
static struct trans_ctx *trans_from(struct kunit *test, const char *node,
				    unsigned long rate)
{
	struct trans_ctx *ctx = test->priv;

	trans_setup(test, node, TRANS_LO, 900000, true);
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, rate), 0);
	return ctx;
}

static int trans_init(struct kunit *test)
{
	struct trans_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	test->priv = ctx;
	return 0;
}

static void trans_exit(struct kunit *test)
{
	struct trans_ctx *ctx = test->priv;

	WRITE_ONCE(trans_pd.fail, 0);
	WRITE_ONCE(trans_icc.fail, 0);
	if (ctx->dev) {
		opp_remove_table(ctx->dev);
		opp_clear_config(ctx->dev);
	}
	WRITE_ONCE(trans_log, NULL);
	if (ctx->registered)
		opp_test_provider_unregister(&ctx->prov);
	if (ctx->attached)
		dev_pm_domain_detach(ctx->dev, true);
	if (ctx->pdev)
		platform_device_unregister(ctx->pdev);
}

/*
 * The log since entry @from, one word per request: D<state> for a vote,
 * B<path>:<peak>/<avg> for a bandwidth, V<uV> for a voltage, C<Hz> for a
 * rate, E and X for the supply switched on and off; "!" marks a refusal.
 */
static const char *trans_log_text(struct kunit *test, unsigned int from)
{
	struct trans_ctx *ctx = test->priv;
	const struct provider_entry *e;
	size_t len = 0, room = sizeof(ctx->log);
	unsigned int i;

	ctx->log[0] = '\0';
	KUNIT_ASSERT_LE(test, ctx->prov.n, (unsigned int)PROVIDER_LOG);
	for (i = from; i < ctx->prov.n && len < room; i++) {
		e = &ctx->prov.log[i];
		if (len)
			len += scnprintf(ctx->log + len, room - len, " ");
		switch (e->what) {
		case PROVIDER_PSTATE:
			len += scnprintf(ctx->log + len, room - len, "D%lu", e->a);
			break;
		case PROVIDER_BW:
			len += scnprintf(ctx->log + len, room - len, "B%u:%lu/%lu",
					 e->i, e->a, e->b);
			break;
		case PROVIDER_VOLT:
			len += scnprintf(ctx->log + len, room - len, "V%lu", e->a);
			break;
		case PROVIDER_CLK:
			len += scnprintf(ctx->log + len, room - len, "C%lu", e->a);
			break;
		case PROVIDER_ON:
			len += scnprintf(ctx->log + len, room - len, "E");
			break;
		case PROVIDER_OFF:
			len += scnprintf(ctx->log + len, room - len, "X");
			break;
		}
		if (e->err)
			len += scnprintf(ctx->log + len, room - len, "!");
	}
	return ctx->log;
}

/* Run @call and expect @ret and the log it leaves to read @want. */
#define TRANS_EXPECT(test, call, ret, want)				\
	do {								\
		struct kunit *__test = (test);				\
		struct trans_ctx *__ctx = __test->priv;			\
		unsigned int __from = __ctx->prov.n;			\
									\
		KUNIT_EXPECT_EQ(__test, (call), ret);			\
		KUNIT_EXPECT_STREQ(__test, trans_log_text(__test, __from),	\
				   want);				\
	} while (0)

/* ---- opp_genpd ---- */

/*
 * Up: the vote, the voltage, then the clock; the supply is enabled on the
 * first transition. Down: the reverse. The OPP the device is at: nothing.
 */
static void opp_genpd_order(struct kunit *test)
{
	struct trans_ctx *ctx = test->priv;

	trans_setup(test, TRANS_ROOT "trans-genpd", TRANS_LO, 900000, true);
	KUNIT_ASSERT_TRUE(test, ctx->attached);
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_HI), 0,
		     "D3 V1100000 E C300000000");
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_pd.state), 3U);
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_LO), 0,
		     "C100000000 V900000 D1");
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_pd.state), 1U);
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_LO - 1), 0, "");
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_MID), 0,
		     "D2 V1000000 C200000000");
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
}

/* A refusal at any step leaves the device where it was. */
static void opp_genpd_rollback(struct kunit *test)
{
	struct trans_ctx *ctx = trans_from(test, TRANS_ROOT "trans-genpd", TRANS_LO);

	/* The domain refuses going up: nothing else is touched. */
	WRITE_ONCE(trans_pd.fail, -EIO);
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_HI), -EIO, "D3!");
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_pd.state), 1U);

	/* The clock refuses going up: the voltage, then the vote, back. */
	ctx->prov.fail_clk = -EIO;
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_HI), -EINVAL,
		     "D3 V1100000 V900000 D1");
	ctx->prov.fail_clk = 0;
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_pd.state), 1U);

	/* The domain refuses going down, last: the supply and clock back. */
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, TRANS_HI), 0);
	WRITE_ONCE(trans_pd.fail, -EIO);
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_LO), -EIO,
		     "C100000000 V900000 D1! V1100000 C300000000");
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_pd.state), 3U);
	/* Where it was, so the same OPP again is nothing to do. */
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_HI), 0, "");
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
}

/* A table keyed by level: opp_set_level(), each OPP votes its level. */
static void opp_genpd_level(struct kunit *test)
{
	struct trans_ctx *ctx = test->priv;

	trans_setup(test, TRANS_ROOT "trans-levels", TRANS_LO, 900000, false);
	TRANS_EXPECT(test, opp_set_level(ctx->dev, 2), 0, "D2 V1000000 E");
	TRANS_EXPECT(test, opp_set_level(ctx->dev, 3), 0, "D3 V1100000");
	TRANS_EXPECT(test, opp_set_level(ctx->dev, 1), 0, "V900000 D1");
	TRANS_EXPECT(test, opp_set_level(ctx->dev, 4), -ERANGE, "");
	/* No clock: opp_set_rate() has nothing to key on. */
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_LO), -ENODEV, "");
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_pd.state), 1U);
}

/* The configuration's end drops the vote and switches the supply off. */
static void opp_genpd_dropped(struct kunit *test)
{
	struct trans_ctx *ctx = trans_from(test, TRANS_ROOT "trans-genpd", TRANS_HI);
	unsigned int from = ctx->prov.n;

	opp_clear_config(ctx->dev);
	KUNIT_EXPECT_STREQ(test, trans_log_text(test, from), "D0 X");
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_pd.state), 0U);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, TRANS_HI), -ENODEV);
}

/* Bad input: a clear error, nothing moved. */
static void opp_genpd_errors(struct kunit *test)
{
	struct trans_ctx *ctx = test->priv;
	struct device *bare = opp_test_fixture_dev_new(test, "opp-trans-bare", NULL);

	KUNIT_EXPECT_EQ(test, opp_set_level(NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_level(ERR_PTR(-EIO), 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_level(bare, 1), -ENODEV);
	put_device(bare);
	trans_setup(test, TRANS_ROOT "trans-genpd", TRANS_LO, 900000, true);
	/* Above the table: -ERANGE, and no vote was ever made. */
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_HI + 1), -ERANGE, "");
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_pd.state), 0U);
}

static struct kunit_case genpd_cases[] = {
	KUNIT_CASE(opp_genpd_order),
	KUNIT_CASE(opp_genpd_rollback),
	KUNIT_CASE(opp_genpd_level),
	KUNIT_CASE(opp_genpd_dropped),
	KUNIT_CASE(opp_genpd_errors),
	{}
};

static struct kunit_suite genpd_suite = {
	.name = "opp_genpd",
	.suite_init = trans_suite_init,
	.suite_exit = trans_suite_exit,
	.init = trans_init,
	.exit = trans_exit,
	.test_cases = genpd_cases,
};

/* ---- opp_icc ---- */

/* Up: both paths, then the voltage and the clock; down: the reverse. */
static void opp_icc_order(struct kunit *test)
{
	struct trans_ctx *ctx = test->priv;

	trans_setup(test, TRANS_ROOT "trans-icc", TRANS_LO, 900000, true);
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_HI), 0,
		     "B0:5000/2500 B1:6000/3000 V1100000 E C300000000");
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_LO), 0,
		     "C100000000 V900000 B0:1000/500 B1:2000/1000");
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_MID), 0,
		     "B0:3000/1500 B1:4000/2000 V1000000 C200000000");
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
}

/*
 * Path 1 refuses (the interconnect core puts its own request back): path
 * 0 is put back, nothing else touched. The clock refuses: the voltage and
 * both paths go back.
 */
static void opp_icc_rollback(struct kunit *test)
{
	struct trans_ctx *ctx = trans_from(test, TRANS_ROOT "trans-icc", TRANS_LO);

	WRITE_ONCE(trans_icc.fail_path, 1);
	WRITE_ONCE(trans_icc.fail, -EIO);
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_HI), -EIO,
		     "B0:5000/2500 B1:6000/3000! B1:2000/1000 B0:1000/500");

	ctx->prov.fail_clk = -EIO;
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_HI), -EINVAL,
		     "B0:5000/2500 B1:6000/3000 V1100000 V900000 B0:1000/500 B1:2000/1000");
	ctx->prov.fail_clk = 0;
	TRANS_EXPECT(test, opp_set_rate(ctx->dev, TRANS_LO), 0, "");
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
}

/* The paths are put with the configuration, the last first: 0 kBps. */
static void opp_icc_dropped(struct kunit *test)
{
	struct trans_ctx *ctx = trans_from(test, TRANS_ROOT "trans-icc", TRANS_HI);
	unsigned int from = ctx->prov.n;

	opp_clear_config(ctx->dev);
	KUNIT_EXPECT_STREQ(test, trans_log_text(test, from),
			   "B1:0/0 B0:0/0 X");
}

static atomic_t trans_probes;
static int trans_probe_ret;

/* A driver's probe that moves its device to its lowest OPP. */
static int trans_probe(struct platform_device *pdev)
{
	int ret = opp_set_rate(&pdev->dev, TRANS_LO);

	WRITE_ONCE(trans_probe_ret, ret);
	atomic_inc(&trans_probes);
	return ret;
}

static struct platform_driver trans_driver = {
	.probe = trans_probe,
	.driver = { .name = "opp-trans-dev" },
};

/*
 * Paths to a provider that is not there yet: opp_set_rate() says so
 * (-EPROBE_DEFER) and moves nothing, from a driver's probe, which the
 * driver core then defers. From a probe, because the interconnect core
 * records its deferral reason on the device, and the driver core frees
 * that only for a device it deferred.
 */
static void opp_icc_deferred(struct kunit *test)
{
	struct trans_ctx *ctx = test->priv;
	unsigned int from;

	trans_setup(test, TRANS_ROOT "trans-icc-deferred", TRANS_LO, 900000,
		    true);
	from = ctx->prov.n;
	atomic_set(&trans_probes, 0);
	/*
	 * Without an owner: KUnit runs a module's suites before the module
	 * has the sysfs directory a driver's link would go in.
	 */
	KUNIT_ASSERT_EQ(test, __platform_driver_register(&trans_driver, NULL),
			0);
	platform_driver_unregister(&trans_driver);
	KUNIT_EXPECT_GE(test, atomic_read(&trans_probes), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(trans_probe_ret), -EPROBE_DEFER);
	KUNIT_EXPECT_STREQ(test, trans_log_text(test, from), "");
	KUNIT_EXPECT_NULL(test, ctx->dev->driver);
}

static struct kunit_case icc_cases[] = {
	KUNIT_CASE(opp_icc_order),
	KUNIT_CASE(opp_icc_rollback),
	KUNIT_CASE(opp_icc_dropped),
	KUNIT_CASE(opp_icc_deferred),
	{}
};

static struct kunit_suite icc_suite = {
	.name = "opp_icc",
	.suite_init = trans_suite_init,
	.suite_exit = trans_suite_exit,
	.init = trans_init,
	.exit = trans_exit,
	.test_cases = icc_cases,
};

kunit_test_suites(&genpd_suite, &icc_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: OPP transitions through generic power domains and interconnect paths");
