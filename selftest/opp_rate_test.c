// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's transitions (opp_rate.c): suite
 * opp_set_rate.
 *
 * opp_set_rate() programming a clock and a regulator registered with the
 * kernel's frameworks by the recording providers of opp_test_helpers.h.
 * The order of the calls going up and down, what is put back when a step
 * fails, the first call (the OPP is not known yet), rates out of the
 * table, two threads setting rates while a hard interrupt looks OPPs up,
 * and the supply never below what the clock needs at any moment (the
 * providers check it on every call).
 *
 * The device reads its table from /opp-of-v2/rate-consumer
 * (selftest/opp_of_v2.dtso, in the guest's device tree).
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/random.h>

#include "../opp.h"
#include "opp_test_helpers.h"

#define RATE_LO		200000000UL
#define RATE_MID	600000000UL
#define RATE_HI		1000000000UL

struct rate_ctx {
	struct device *dev;
	struct device_node *np;
	struct provider prov;
	bool registered;
};

/* The lowest voltage each rate of table-rate needs: its triplet's min. */
static unsigned long rate_need_uv(unsigned long rate)
{
	switch (rate) {
	case RATE_LO:
		return 850000;
	case RATE_MID:
		return 950000;
	case RATE_HI:
		return 1150000;
	}
	return 0;
}

static unsigned long rate_target_uv(unsigned long rate)
{
	return rate == RATE_LO ? 900000 : rate == RATE_MID ? 1000000 : 1200000;
}

/*
 * A device on table-rate, with providers at @rate and @uv (what a boot
 * loader left), and the library told of both; @table false leaves the
 * table out.
 */
static void rate_setup(struct kunit *test, unsigned long rate, int uv,
		       bool table)
{
	struct rate_ctx *ctx = test->priv;
	struct opp_config cfg = { };

	ctx->np = of_find_node_by_path("/opp-of-v2/rate-consumer");
	KUNIT_ASSERT_NOT_NULL_MSG(test, ctx->np,
				  "no /opp-of-v2/rate-consumer: boot with selftest/opp_of_v2.dtso applied");
	ctx->dev->of_node = ctx->np;
	KUNIT_ASSERT_EQ(test, opp_test_provider_register(&ctx->prov, "opp-rate-test",
							 ctx->dev, rate, uv), 0);
	ctx->registered = true;
	ctx->prov.need_uv = rate_need_uv;
	cfg.clk = ctx->prov.clk;
	cfg.supply = ctx->prov.supply;
	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &cfg), 0);
	if (table)
		KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
}

static int rate_init(struct kunit *test)
{
	struct rate_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	test->priv = ctx;
	/*
	 * Uncounted: the regulator framework links the consumer to the
	 * regulator, and that link's last reference goes from a work item
	 * after the case is over.
	 */
	ctx->dev = opp_test_fixture_dev_new(test, "opp-rate-dev", NULL);
	return 0;
}

static void rate_exit(struct kunit *test)
{
	struct rate_ctx *ctx = test->priv;

	opp_remove_table(ctx->dev);
	opp_clear_config(ctx->dev);
	if (ctx->registered)
		opp_test_provider_unregister(&ctx->prov);
	ctx->dev->of_node = NULL;
	of_node_put(ctx->np);
	put_device(ctx->dev);
}

/* What the providers hold now, read as the frameworks' consumers do. */
static void rate_expect_at(struct kunit *test, unsigned long rate, int uv)
{
	struct rate_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, clk_get_rate(ctx->prov.clk), rate);
	KUNIT_EXPECT_EQ(test, regulator_get_voltage(ctx->prov.supply), uv);
}

static void rate_expect_log(struct kunit *test, unsigned int from,
			    const struct provider_entry *want, unsigned int n)
{
	struct rate_ctx *ctx = test->priv;
	const struct provider_entry *got = &ctx->prov.log[from];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ctx->prov.n - from, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, got[i].what, want[i].what, "call %u", i);
		KUNIT_EXPECT_EQ_MSG(test, got[i].a, want[i].a, "call %u", i);
		KUNIT_EXPECT_EQ_MSG(test, got[i].b, want[i].b, "call %u", i);
	}
}

/* Up: the voltage (target to max of the triplet) before the clock. */
static void opp_set_rate_order(struct kunit *test)
{
	struct rate_ctx *ctx = test->priv;
	const struct provider_entry up[] = {
		{ PROVIDER_VOLT, 1200000, 1250000 }, { PROVIDER_CLK, RATE_HI },
	};
	const struct provider_entry down[] = {
		{ PROVIDER_CLK, RATE_LO }, { PROVIDER_VOLT, 900000, 950000 },
	};
	const struct provider_entry mid[] = {
		{ PROVIDER_VOLT, 1000000, 1050000 }, { PROVIDER_CLK, RATE_MID },
	};
	unsigned int n;

	rate_setup(test, RATE_LO, 900000, true);
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, RATE_HI), 0);
	rate_expect_log(test, 0, up, ARRAY_SIZE(up));
	rate_expect_at(test, RATE_HI, 1200000);

	n = ctx->prov.n;
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, RATE_LO), 0);
	rate_expect_log(test, n, down, ARRAY_SIZE(down));
	rate_expect_at(test, RATE_LO, 900000);

	/* A rate between OPPs: the next one up. */
	n = ctx->prov.n;
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, RATE_LO + 1), 0);
	rate_expect_log(test, n, mid, ARRAY_SIZE(mid));

	/* The OPP it is at: nothing to do. */
	n = ctx->prov.n;
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, RATE_MID), 0);
	KUNIT_EXPECT_EQ(test, ctx->prov.n, n);
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
}

/* A step that fails leaves clock and supply at the OPP the device was at. */
struct rate_fault {
	const char *name;
	unsigned long from, to;
	bool clk;		/* the clock fails, else the supply */
};

static const struct rate_fault rate_faults[] = {
	{ "up, supply fails", RATE_LO, RATE_HI, false },
	{ "up, clock fails", RATE_LO, RATE_HI, true },
	{ "down, clock fails", RATE_HI, RATE_LO, true },
	{ "down, supply fails", RATE_HI, RATE_LO, false },
};

KUNIT_ARRAY_PARAM_DESC(rate_fault, rate_faults, name);

static void opp_set_rate_fault(struct kunit *test)
{
	const struct rate_fault *f = test->param_value;
	struct rate_ctx *ctx = test->priv;
	unsigned long flags;

	rate_setup(test, RATE_LO, 900000, true);
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, f->from), 0);
	rate_expect_at(test, f->from, rate_target_uv(f->from));

	/* Until cleared: the regulator core retries a triplet at its min. */
	spin_lock_irqsave(&ctx->prov.lock, flags);
	if (f->clk)
		ctx->prov.fail_clk = -EIO;
	else
		ctx->prov.fail_volt = -EIO;
	spin_unlock_irqrestore(&ctx->prov.lock, flags);
	/* The clock framework answers its provider's failure with -EINVAL. */
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, f->to),
			f->clk ? -EINVAL : -EIO);
	spin_lock_irqsave(&ctx->prov.lock, flags);
	ctx->prov.fail_clk = 0;
	ctx->prov.fail_volt = 0;
	spin_unlock_irqrestore(&ctx->prov.lock, flags);
	rate_expect_at(test, f->from, rate_target_uv(f->from));

	/* And the library still knows where it is: the next call works. */
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, f->to), 0);
	rate_expect_at(test, f->to, rate_target_uv(f->to));
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
}

/*
 * The first call does not know the OPP: a clock left fast by the boot
 * loader is slowed before the voltage drops.
 */
static void opp_set_rate_first_call_from_above(struct kunit *test)
{
	struct rate_ctx *ctx = test->priv;
	const struct provider_entry want[] = {
		{ PROVIDER_CLK, RATE_LO }, { PROVIDER_VOLT, 900000, 950000 },
	};

	rate_setup(test, RATE_HI, 1200000, true);
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, RATE_LO), 0);
	rate_expect_log(test, 0, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
}

/* ... and a slow one gets its voltage first. */
static void opp_set_rate_first_call_from_below(struct kunit *test)
{
	struct rate_ctx *ctx = test->priv;
	const struct provider_entry want[] = {
		{ PROVIDER_VOLT, 1000000, 1050000 }, { PROVIDER_CLK, RATE_MID },
	};

	rate_setup(test, 100000000, 800000, true);
	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, RATE_MID), 0);
	rate_expect_log(test, 0, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
}

/* Rates out of the table, devices without what it needs: nothing moves. */
static void opp_set_rate_errors(struct kunit *test)
{
	struct rate_ctx *ctx = test->priv;
	struct opp_config supply_only = { };

	KUNIT_EXPECT_EQ(test, opp_set_rate(NULL, RATE_LO), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ERR_PTR(-EIO), RATE_LO), -EINVAL);
	/* No configuration. */
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, RATE_LO), -ENODEV);

	rate_setup(test, RATE_LO, 900000, false);
	/* A clock but no table. */
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, RATE_LO), -ENODEV);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, RATE_HI + 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, ctx->prov.n, 0U);
	/* Below the table: its lowest OPP. */
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, 1), 0);
	rate_expect_at(test, RATE_LO, 900000);

	/* A supply but no clock. */
	opp_remove_table(ctx->dev);
	opp_clear_config(ctx->dev);
	supply_only.supply = ctx->prov.supply;
	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &supply_only), 0);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, RATE_LO), -ENODEV);
}

/*
 * An OPP whose voltage the regulator cannot give is added disabled, and
 * opp_set_rate() never picks it.
 */
static void opp_set_rate_beyond_regulator(struct kunit *test)
{
	struct rate_ctx *ctx = test->priv;

	rate_setup(test, RATE_LO, 900000, true);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 1200000000, PROVIDER_UV_MAX + 100000),
			0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 3);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, 1200000000), -ERANGE);
	KUNIT_EXPECT_EQ(test, opp_set_rate(ctx->dev, RATE_HI), 0);
	rate_expect_at(test, RATE_HI, 1200000);
}

/* The clock's latency plus the supply's ramp across the table. */
static void opp_set_rate_transition_latency(struct kunit *test)
{
	struct rate_ctx *ctx = test->priv;
	/* 850000 to 1250000 uV at PROVIDER_RAMP uV/us. */
	unsigned long ramp_ns = (1250000 - 850000) / PROVIDER_RAMP * 1000;

	rate_setup(test, RATE_LO, 900000, true);
	KUNIT_EXPECT_EQ(test, opp_get_max_clock_latency(ctx->dev), 100000UL);
	KUNIT_EXPECT_EQ(test, opp_get_max_transition_latency(ctx->dev),
			100000UL + ramp_ns);
	KUNIT_EXPECT_EQ(test, opp_get_max_transition_latency(NULL), 0UL);
}

/* ---- Two setters and a hard interrupt's lookups at once ---- */

#define RATE_STORM_CALLS	150

struct rate_storm;

struct rate_setter {
	struct rate_storm *storm;
	struct completion done;
};

struct rate_storm {
	struct device *dev;
	struct rate_setter setter[2];
	struct hrtimer timer;
	atomic_t lookups;
	atomic_t bad_lookups;
	atomic_t errors;
	bool stop;
};

static enum hrtimer_restart rate_storm_tick(struct hrtimer *t)
{
	struct rate_storm *s = container_of(t, struct rate_storm, timer);
	struct opp_info info;

	/* Lookups never wait for the setters' mutex. */
	if (opp_lookup_ceil(s->dev, RATE_LO + 1, &info) ||
	    info.rate != RATE_MID || info.u_volt != 1000000)
		atomic_inc(&s->bad_lookups);
	atomic_inc(&s->lookups);
	if (READ_ONCE(s->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(200 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int rate_storm_setter(void *data)
{
	struct rate_setter *me = data;
	static const unsigned long rates[] = { RATE_LO, RATE_MID, RATE_HI };
	unsigned int i;

	for (i = 0; i < RATE_STORM_CALLS; i++)
		if (opp_set_rate(me->storm->dev, rates[get_random_u32() % 3]))
			atomic_inc(&me->storm->errors);
	complete(&me->done);
	return 0;
}

static void opp_set_rate_concurrent(struct kunit *test)
{
	struct rate_ctx *ctx = test->priv;
	struct task_struct *t[2];
	struct rate_storm *s;
	unsigned long rate;
	int i;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	rate_setup(test, RATE_LO, 900000, true);
	s->dev = ctx->dev;
	hrtimer_init(&s->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	s->timer.function = rate_storm_tick;
	hrtimer_start(&s->timer, ns_to_ktime(200 * NSEC_PER_USEC), HRTIMER_MODE_REL_HARD);

	for (i = 0; i < 2; i++) {
		s->setter[i].storm = s;
		init_completion(&s->setter[i].done);
		t[i] = kthread_run(rate_storm_setter, &s->setter[i],
				   "opp-rate-%d", i);
		if (IS_ERR(t[i]))
			complete(&s->setter[i].done);
		KUNIT_EXPECT_FALSE(test, IS_ERR(t[i]));
	}
	wait_for_completion(&s->setter[0].done);
	wait_for_completion(&s->setter[1].done);
	WRITE_ONCE(s->stop, true);
	hrtimer_cancel(&s->timer);

	KUNIT_EXPECT_EQ(test, atomic_read(&s->errors), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->bad_lookups), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&s->lookups), 0);
	KUNIT_EXPECT_EQ(test, ctx->prov.violations, 0U);
	KUNIT_EXPECT_GE(test, ctx->prov.calls, 2U);
	/* Wherever it ended, clock and supply agree on one OPP. */
	rate = clk_get_rate(ctx->prov.clk);
	KUNIT_EXPECT_EQ(test, regulator_get_voltage(ctx->prov.supply),
			(int)rate_target_uv(rate));
	KUNIT_EXPECT_NE(test, rate_need_uv(rate), 0UL);
}

/*
 * A v1 table whose node has a voltage-tolerance (5 %): each OPP's range
 * is the voltage widened by it, as the kernel's core reads the same node
 * (its side gets a supply of its own, so that it gives the range), and
 * opp_set_rate() asks the regulator for the widened range.
 */
static void opp_set_rate_v1_tolerance(struct kunit *test)
{
	static const u32 cells[] = { 200000, 900000, 1000000, 1200000 };
	static const char * const names[] = { "vdd", NULL };
	const struct provider_entry up[] = {
		{ PROVIDER_VOLT, 1200000, 1260000 }, { PROVIDER_CLK, RATE_HI },
	};
	struct dev_pm_opp_config kcfg = { .regulator_names = names };
	struct rate_ctx *ctx = test->priv;
	struct dev_pm_opp_supply theirs;
	struct provider *kernels;
	struct opp_supply ours;
	struct dev_pm_opp *opp;
	struct device *other;
	unsigned int i;
	int token;

	opp_test_fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	opp_test_fixture_of_add_u32(test, ctx->dev, "voltage-tolerance", 5);
	KUNIT_ASSERT_EQ(test, opp_test_provider_register(&ctx->prov, "opp-rate-test",
							 ctx->dev, RATE_LO, 900000), 0);
	ctx->registered = true;
	KUNIT_ASSERT_EQ(test, opp_set_config(ctx->dev, &(struct opp_config){
		.clk = ctx->prov.clk, .supply = ctx->prov.supply }), 0);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);

	kernels = kunit_kzalloc(test, sizeof(*kernels), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kernels);
	other = opp_test_fixture_dev_new(test, "opp-rate-kernel", NULL);
	other->of_node = ctx->dev->of_node;
	if (opp_test_provider_register(kernels, "opp-rate-kernel", other, RATE_LO,
				       900000)) {
		other->of_node = NULL;
		put_device(other);
		KUNIT_FAIL(test, "no provider for the kernel's side");
		return;
	}
	/* The kernel's core gets the supply itself. */
	regulator_put(kernels->supply);
	kernels->supply = NULL;
	token = dev_pm_opp_set_config(other, &kcfg);
	KUNIT_EXPECT_GE(test, token, 0);
	if (token >= 0)
		KUNIT_EXPECT_EQ(test, dev_pm_opp_of_add_table(other), 0);
	for (i = 0; token >= 0 && i < ARRAY_SIZE(cells); i += 2) {
		unsigned long rate = cells[i] * 1000UL, uv = cells[i + 1];

		if (opp_lookup_supplies(ctx->dev, rate, &ours, 1) != 1) {
			KUNIT_FAIL(test, "no supply of ours at %lu Hz", rate);
			continue;
		}
		KUNIT_EXPECT_EQ(test, ours.u_volt, uv);
		KUNIT_EXPECT_EQ(test, ours.u_volt_min, uv - uv * 5 / 100);
		KUNIT_EXPECT_EQ(test, ours.u_volt_max, uv + uv * 5 / 100);
		opp = dev_pm_opp_find_freq_exact(other, rate, true);
		if (IS_ERR(opp)) {
			KUNIT_FAIL(test, "the kernel has no OPP at %lu Hz", rate);
			continue;
		}
		KUNIT_EXPECT_EQ(test, dev_pm_opp_get_supplies(opp, &theirs), 0);
		dev_pm_opp_put(opp);
		KUNIT_EXPECT_EQ(test, ours.u_volt_min, theirs.u_volt_min);
		KUNIT_EXPECT_EQ(test, ours.u_volt_max, theirs.u_volt_max);
	}
	if (token >= 0) {
		dev_pm_opp_remove_table(other);
		dev_pm_opp_clear_config(token);
	}
	opp_test_provider_unregister(kernels);
	other->of_node = NULL;
	put_device(other);

	KUNIT_ASSERT_EQ(test, opp_set_rate(ctx->dev, RATE_HI), 0);
	rate_expect_log(test, 0, up, ARRAY_SIZE(up));
	rate_expect_at(test, RATE_HI, 1200000);
}

/* A tolerance that takes a range below 0 V: refused, nothing added. */
static void opp_set_rate_v1_tolerance_too_wide(struct kunit *test)
{
	static const u32 cells[] = { 200000, 900000 };
	struct rate_ctx *ctx = test->priv;

	opp_test_fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	opp_test_fixture_of_add_u32(test, ctx->dev, "voltage-tolerance", 101);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), -ENODEV);
}

static struct kunit_case rate_cases[] = {
	KUNIT_CASE(opp_set_rate_order),
	KUNIT_CASE_PARAM(opp_set_rate_fault, rate_fault_gen_params),
	KUNIT_CASE(opp_set_rate_first_call_from_above),
	KUNIT_CASE(opp_set_rate_first_call_from_below),
	KUNIT_CASE(opp_set_rate_errors),
	KUNIT_CASE(opp_set_rate_beyond_regulator),
	KUNIT_CASE(opp_set_rate_transition_latency),
	KUNIT_CASE(opp_set_rate_concurrent),
	KUNIT_CASE(opp_set_rate_v1_tolerance),
	KUNIT_CASE(opp_set_rate_v1_tolerance_too_wide),
	{}
};

static struct kunit_suite rate_suite = {
	.name = "opp_set_rate",
	.init = rate_init,
	.exit = rate_exit,
	.test_cases = rate_cases,
};

kunit_test_suite(rate_suite);

MODULE_DESCRIPTION("KUnit: opp_set_rate() through the clock and regulator frameworks");
MODULE_LICENSE("GPL");
