// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's core (opp.c), its searches and updates:
 * suites opp_search and opp_update.
 *
 * opp_search: the usage patterns of the 2.6.37 documentation, ordering
 * and availability. opp_update: enabling and disabling, the duplicate-add
 * rule, removal and the device reference. The error contract (bad
 * devices, missing tables, bad arguments) is opp_robust's bad-input
 * matrix.
 *
 * Every test gets two fresh devices (fixture_pair_init(): never
 * registered with the driver core, the library only needs their identity
 * and their reference count); the exit hook removes whatever table a test
 * left and drops the devices.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_fixture.h"

/* fixture_cpu_opps[]'s rates in order. */
static const unsigned long cpu_rates_sorted[] = {
	125 * HZ_PER_MHZ, 250 * HZ_PER_MHZ, 500 * HZ_PER_MHZ, 550 * HZ_PER_MHZ, 600 * HZ_PER_MHZ,
};

static unsigned long opp_test_volt_of(unsigned long freq)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fixture_cpu_opps); i++)
		if (fixture_cpu_opps[i].freq == freq)
			return fixture_cpu_opps[i].u_volt;
	return 0;
}

/* The documented walk: ceil from 0, one past each OPP found. */
static unsigned int opp_test_ceil_walk(struct device *dev, unsigned long *rates,
				       unsigned int max)
{
	unsigned long freq = 0;
	unsigned int n = 0;
	struct opp *opp;

	rcu_read_lock();
	while (n < max && !IS_ERR(opp = opp_find_freq_ceil(dev, &freq))) {
		rates[n++] = opp_get_freq(opp);
		freq++;
	}
	rcu_read_unlock();
	return n;
}

static void opp_test_ceil_walk_is_sorted(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long rates[8];
	unsigned int i, n;

	fixture_add_cpu(test, ctx->dev);
	n = opp_test_ceil_walk(ctx->dev, rates, ARRAY_SIZE(rates));
	KUNIT_ASSERT_EQ(test, n, ARRAY_SIZE(cpu_rates_sorted));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, rates[i], cpu_rates_sorted[i]);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 5);
}

static void opp_test_voltage_follows_frequency(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long freqs[8], volts[8], rates[8], freq = 0;
	unsigned int i, n = 0;
	struct opp *opp;

	fixture_add_cpu(test, ctx->dev);
	rcu_read_lock();
	while (n < ARRAY_SIZE(freqs) &&
	       !IS_ERR(opp = opp_find_freq_ceil(ctx->dev, &freq))) {
		freqs[n] = freq;
		rates[n] = opp_get_freq(opp);
		volts[n++] = opp_get_voltage(opp);
		freq++;
	}
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, n, 5U);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, rates[i], freqs[i]);
		KUNIT_EXPECT_EQ(test, volts[i], opp_test_volt_of(freqs[i]));
	}
}

static void opp_test_floor_from_ulong_max(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	fixture_add_cpu(test, ctx->dev);
	f = fixture_find(ctx->dev, FIXTURE_FLOOR, ULONG_MAX);
	KUNIT_EXPECT_FALSE(test, IS_ERR(f.opp));
	KUNIT_EXPECT_EQ(test, f.freq, 600 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, 1200000UL);
}

static void opp_test_ceil_floor_between_points(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	fixture_add_cpu(test, ctx->dev);
	f = fixture_find(ctx->dev, FIXTURE_CEIL, 300 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 500 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.freq, 500 * HZ_PER_MHZ);
	f = fixture_find(ctx->dev, FIXTURE_FLOOR, 300 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.freq, 250 * HZ_PER_MHZ);

	/* An exact hit is its own ceil and floor. */
	f = fixture_find(ctx->dev, FIXTURE_CEIL, 550 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 550 * HZ_PER_MHZ);
	f = fixture_find(ctx->dev, FIXTURE_FLOOR, 550 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 550 * HZ_PER_MHZ);
}

static void opp_test_search_out_of_range(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	fixture_add_cpu(test, ctx->dev);
	f = fixture_find(ctx->dev, FIXTURE_CEIL, 600 * HZ_PER_MHZ + 1);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, f.freq, 600 * HZ_PER_MHZ + 1);
	f = fixture_find(ctx->dev, FIXTURE_FLOOR, 125 * HZ_PER_MHZ - 1);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, f.freq, 125 * HZ_PER_MHZ - 1);
	f = fixture_find(ctx->dev, FIXTURE_FLOOR, 0);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	f = fixture_find(ctx->dev, FIXTURE_CEIL, ULONG_MAX);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	f = fixture_find(ctx->dev, FIXTURE_EXACT, 300 * HZ_PER_MHZ);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
}

static void opp_test_exact_by_availability(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	fixture_add_cpu(test, ctx->dev);
	f = fixture_find(ctx->dev, FIXTURE_EXACT, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, 1075000UL);
	f = fixture_find(ctx->dev, FIXTURE_EXACT_OFF, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 250 * HZ_PER_MHZ), 0);
	f = fixture_find(ctx->dev, FIXTURE_EXACT, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	f = fixture_find(ctx->dev, FIXTURE_EXACT_OFF, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(f.opp));
	/* The accessors report nothing for a disabled OPP. */
	KUNIT_EXPECT_EQ(test, f.rate, 0UL);
	KUNIT_EXPECT_EQ(test, f.volt, 0UL);
}

static void opp_test_ulong_max_frequency(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, ULONG_MAX, 1400000), 0);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_FLOOR,
					   ULONG_MAX).rate, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_CEIL,
					   600 * HZ_PER_MHZ + 1).rate, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_EXACT,
					   ULONG_MAX).volt, 1400000UL);
}

static void opp_test_disabled_is_skipped(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long rates[8];
	unsigned int n;

	fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 500 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 4);

	n = opp_test_ceil_walk(ctx->dev, rates, ARRAY_SIZE(rates));
	KUNIT_ASSERT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, rates[1], 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, rates[2], 550 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_CEIL,
					   500 * HZ_PER_MHZ).rate, 550 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_FLOOR,
					   500 * HZ_PER_MHZ).rate, 250 * HZ_PER_MHZ);

	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 500 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 5);
	n = opp_test_ceil_walk(ctx->dev, rates, ARRAY_SIZE(rates));
	KUNIT_EXPECT_EQ(test, n, 5U);
}

/* All disabled: count 0, every search fails, the table stays. */
static void opp_test_all_disabled(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned int i;

	fixture_add_cpu(test, ctx->dev);
	for (i = 0; i < ARRAY_SIZE(fixture_cpu_opps); i++)
		KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev,
						  fixture_cpu_opps[i].freq), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 0);
	KUNIT_EXPECT_PTR_EQ(test, fixture_find(ctx->dev, FIXTURE_CEIL, 0).opp,
			    ERR_PTR(-ERANGE));
	KUNIT_EXPECT_PTR_EQ(test, fixture_find(ctx->dev, FIXTURE_FLOOR,
					       ULONG_MAX).opp,
			    ERR_PTR(-ERANGE));
}

/*
 * The thermal flow of the 2.6.37 documentation: check the OPP is there and
 * available, disable it, and later find it among the disabled to enable it.
 */
static void opp_test_thermal_flow(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	fixture_add_cpu(test, ctx->dev);
	f = fixture_find(ctx->dev, FIXTURE_EXACT, 600 * HZ_PER_MHZ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f.opp));
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_FLOOR,
					   ULONG_MAX).rate, 550 * HZ_PER_MHZ);

	f = fixture_find(ctx->dev, FIXTURE_EXACT_OFF, 600 * HZ_PER_MHZ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f.opp));
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_FLOOR,
					   ULONG_MAX).rate, 600 * HZ_PER_MHZ);
}

static void opp_test_enable_disable_idempotent(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_enable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 5);
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 4);
	KUNIT_EXPECT_EQ(test, opp_enable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 5);
}

static void opp_test_duplicate_identical(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	fixture_add_cpu(test, ctx->dev);
	/* A re-probing driver registers the very same table again. */
	fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 5);
}

static void opp_test_duplicate_conflicting(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_add(ctx->dev, 250 * HZ_PER_MHZ, 1100000), -EEXIST);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 5);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_EXACT,
					   250 * HZ_PER_MHZ).volt, 1075000UL);

	/* Re-adding a disabled OPP must not silently enable it. */
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 250 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_add(ctx->dev, 250 * HZ_PER_MHZ, 1075000), -EEXIST);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 4);
	KUNIT_EXPECT_FALSE(test, IS_ERR(fixture_find(ctx->dev,
						     FIXTURE_EXACT_OFF,
						      250 * HZ_PER_MHZ).opp));
}

static void opp_test_devices_are_independent(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->other, 200 * HZ_PER_MHZ, 900000), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->other, 400 * HZ_PER_MHZ, 1000000), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->other, 400 * HZ_PER_MHZ), 0);

	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 5);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->other), 1);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->other, FIXTURE_FLOOR,
					   ULONG_MAX).rate, 200 * HZ_PER_MHZ);
	KUNIT_EXPECT_PTR_EQ(test, fixture_find(ctx->dev, FIXTURE_EXACT,
					       200 * HZ_PER_MHZ).opp,
			    ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->dev, 200 * HZ_PER_MHZ), -ENODEV);
}

static void opp_test_remove(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long rates[8];
	unsigned int i, n;

	fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, 550 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, 550 * HZ_PER_MHZ), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, 123), -ENODEV);
	n = opp_test_ceil_walk(ctx->dev, rates, ARRAY_SIZE(rates));
	KUNIT_ASSERT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, rates[3], 600 * HZ_PER_MHZ);

	/* Removing the last OPP removes the table. */
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, rates[i]), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), -ENODEV);

	/* And the device can get a new one. */
	KUNIT_EXPECT_EQ(test, opp_add(ctx->dev, 100 * HZ_PER_MHZ, 900000), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 1);
}

/* The library pins the device while it has a table for it, and no longer. */
static void opp_test_device_reference(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned int refs = kref_read(&ctx->dev->kobj.kref);
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev;

	fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs + 1);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs);

	/* Dropped by its owner first: released with the table, not before. */
	dev = fixture_dev_new(test, "opp-test-c", &released);
	KUNIT_ASSERT_EQ(test, opp_add(dev, 100 * HZ_PER_MHZ, 900000), 0);
	put_device(dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 0);
	KUNIT_EXPECT_EQ(test, opp_remove(dev, 100 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 1);
}

static struct kunit_case opp_search_cases[] = {
	KUNIT_CASE(opp_test_ceil_walk_is_sorted),
	KUNIT_CASE(opp_test_voltage_follows_frequency),
	KUNIT_CASE(opp_test_floor_from_ulong_max),
	KUNIT_CASE(opp_test_ceil_floor_between_points),
	KUNIT_CASE(opp_test_search_out_of_range),
	KUNIT_CASE(opp_test_exact_by_availability),
	KUNIT_CASE(opp_test_ulong_max_frequency),
	{}
};

static struct kunit_suite opp_search_suite = {
	.name = "opp_search",
	.init = fixture_pair_init,
	.exit = fixture_pair_exit,
	.test_cases = opp_search_cases,
};

static struct kunit_case opp_update_cases[] = {
	KUNIT_CASE(opp_test_disabled_is_skipped),
	KUNIT_CASE(opp_test_all_disabled),
	KUNIT_CASE(opp_test_thermal_flow),
	KUNIT_CASE(opp_test_enable_disable_idempotent),
	KUNIT_CASE(opp_test_duplicate_identical),
	KUNIT_CASE(opp_test_duplicate_conflicting),
	KUNIT_CASE(opp_test_devices_are_independent),
	KUNIT_CASE(opp_test_remove),
	KUNIT_CASE(opp_test_device_reference),
	{}
};

static struct kunit_suite opp_update_suite = {
	.name = "opp_update",
	.init = fixture_pair_init,
	.exit = fixture_pair_exit,
	.test_cases = opp_update_cases,
};

kunit_test_suites(&opp_search_suite, &opp_update_suite);

MODULE_DESCRIPTION("KUnit tests of the OPP library");
MODULE_LICENSE("GPL");
