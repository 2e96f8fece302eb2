// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's core (opp.c), its searches and updates:
 * suites opp_search, opp_update and opp_lookup.
 *
 * opp_search: the usage patterns of the 2.6.37 documentation, ordering
 * and availability. opp_update: enabling and disabling, the duplicate-add
 * rule, removal and the device reference. opp_lookup: the copy-out
 * lookups (also from hard interrupt context), and updates that return
 * while readers hold OPPs. The error contract (bad devices, missing
 * tables, bad arguments) is opp_robust_test's bad-input matrix; the debugfs
 * view is checked from user space by the guest, against a model by
 * opp_robust_test, and file by file by opp_debugfs_test.
 *
 * Every test gets two fresh devices (fixture_pair_init(): never
 * registered with the driver core, the library only needs their identity
 * and their reference count); the exit hook removes whatever table a test
 * left and drops the devices.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_test_helpers.h"

/* ---- Searches and updates: suites opp_search and opp_update ---- */

/* fixture_cpu_opps[]'s rates in order. */
static const unsigned long cpu_rates_sorted[] = {
	125 * HZ_PER_MHZ, 250 * HZ_PER_MHZ, 500 * HZ_PER_MHZ, 550 * HZ_PER_MHZ, 600 * HZ_PER_MHZ,
};

static unsigned long search_volt_of(unsigned long freq)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fixture_cpu_opps); i++)
		if (fixture_cpu_opps[i].freq == freq)
			return fixture_cpu_opps[i].u_volt;
	return 0;
}

/* The documented walk: ceil from 0, one past each OPP found. */
static unsigned int core_ceil_walk(struct device *dev, unsigned long *rates,
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

static void opp_search_ceil_walk_is_sorted(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long rates[8];
	unsigned int i, n;

	opp_test_fixture_add_cpu(test, ctx->dev);
	n = core_ceil_walk(ctx->dev, rates, ARRAY_SIZE(rates));
	KUNIT_ASSERT_EQ(test, n, ARRAY_SIZE(cpu_rates_sorted));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, rates[i], cpu_rates_sorted[i]);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 5);
}

static void opp_search_voltage_follows_frequency(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long freqs[8], volts[8], rates[8], freq = 0;
	unsigned int i, n = 0;
	struct opp *opp;

	opp_test_fixture_add_cpu(test, ctx->dev);
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
		KUNIT_EXPECT_EQ(test, volts[i], search_volt_of(freqs[i]));
	}
}

static void opp_search_floor_from_ulong_max(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	opp_test_fixture_add_cpu(test, ctx->dev);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR, ULONG_MAX);
	KUNIT_EXPECT_FALSE(test, IS_ERR(f.opp));
	KUNIT_EXPECT_EQ(test, f.freq, 600 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, 1200000UL);
}

static void opp_search_ceil_floor_between_points(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	opp_test_fixture_add_cpu(test, ctx->dev);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_CEIL, 300 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 500 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.freq, 500 * HZ_PER_MHZ);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR, 300 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.freq, 250 * HZ_PER_MHZ);

	/* An exact hit is its own ceil and floor. */
	f = opp_test_fixture_find(ctx->dev, FIXTURE_CEIL, 550 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 550 * HZ_PER_MHZ);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR, 550 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 550 * HZ_PER_MHZ);
}

static void opp_search_out_of_range(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	opp_test_fixture_add_cpu(test, ctx->dev);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_CEIL, 600 * HZ_PER_MHZ + 1);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, f.freq, 600 * HZ_PER_MHZ + 1);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR, 125 * HZ_PER_MHZ - 1);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, f.freq, 125 * HZ_PER_MHZ - 1);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR, 0);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	f = opp_test_fixture_find(ctx->dev, FIXTURE_CEIL, ULONG_MAX);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	f = opp_test_fixture_find(ctx->dev, FIXTURE_EXACT, 300 * HZ_PER_MHZ);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
}

static void opp_search_exact_by_availability(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	opp_test_fixture_add_cpu(test, ctx->dev);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_EXACT, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, 1075000UL);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_EXACT_OFF, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 250 * HZ_PER_MHZ), 0);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_EXACT, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	f = opp_test_fixture_find(ctx->dev, FIXTURE_EXACT_OFF, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(f.opp));
	/* The accessors report nothing for a disabled OPP. */
	KUNIT_EXPECT_EQ(test, f.rate, 0UL);
	KUNIT_EXPECT_EQ(test, f.volt, 0UL);
}

static void opp_search_ulong_max_frequency(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, ULONG_MAX, 1400000), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR,
						    ULONG_MAX).rate, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_CEIL,
						    600 * HZ_PER_MHZ + 1).rate, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_EXACT,
						    ULONG_MAX).volt, 1400000UL);
}

static void opp_update_disabled_is_skipped(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long rates[8];
	unsigned int n;

	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 500 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 4);

	n = core_ceil_walk(ctx->dev, rates, ARRAY_SIZE(rates));
	KUNIT_ASSERT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, rates[1], 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, rates[2], 550 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_CEIL,
						    500 * HZ_PER_MHZ).rate, 550 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR,
						    500 * HZ_PER_MHZ).rate, 250 * HZ_PER_MHZ);

	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 500 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 5);
	n = core_ceil_walk(ctx->dev, rates, ARRAY_SIZE(rates));
	KUNIT_EXPECT_EQ(test, n, 5U);
}

/* All disabled: count 0, every search fails, the table stays. */
static void opp_update_all_disabled(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned int i;

	opp_test_fixture_add_cpu(test, ctx->dev);
	for (i = 0; i < ARRAY_SIZE(fixture_cpu_opps); i++)
		KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev,
						  fixture_cpu_opps[i].freq), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 0);
	KUNIT_EXPECT_PTR_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_CEIL, 0).opp,
			    ERR_PTR(-ERANGE));
	KUNIT_EXPECT_PTR_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR,
							ULONG_MAX).opp,
			    ERR_PTR(-ERANGE));
}

/*
 * The thermal flow of the 2.6.37 documentation: check the OPP is there and
 * available, disable it, and later find it among the disabled to enable it.
 */
static void opp_update_thermal_flow(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_found f;

	opp_test_fixture_add_cpu(test, ctx->dev);
	f = opp_test_fixture_find(ctx->dev, FIXTURE_EXACT, 600 * HZ_PER_MHZ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f.opp));
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR,
						    ULONG_MAX).rate, 550 * HZ_PER_MHZ);

	f = opp_test_fixture_find(ctx->dev, FIXTURE_EXACT_OFF, 600 * HZ_PER_MHZ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f.opp));
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_FLOOR,
						    ULONG_MAX).rate, 600 * HZ_PER_MHZ);
}

static void opp_update_enable_disable_idempotent(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_enable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 5);
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 4);
	KUNIT_EXPECT_EQ(test, opp_enable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 5);
}

static void opp_update_duplicate_identical(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	opp_test_fixture_add_cpu(test, ctx->dev);
	/* A re-probing driver registers the very same table again. */
	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 5);
}

static void opp_update_duplicate_conflicting(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_add(ctx->dev, 250 * HZ_PER_MHZ, 1100000), -EEXIST);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 5);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_EXACT,
						    250 * HZ_PER_MHZ).volt, 1075000UL);

	/* Re-adding a disabled OPP must not silently enable it. */
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 250 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_add(ctx->dev, 250 * HZ_PER_MHZ, 1075000), -EEXIST);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 4);
	KUNIT_EXPECT_FALSE(test, IS_ERR(opp_test_fixture_find(ctx->dev,
							      FIXTURE_EXACT_OFF,
						      250 * HZ_PER_MHZ).opp));
}

static void opp_update_devices_are_independent(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;

	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->other, 200 * HZ_PER_MHZ, 900000), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->other, 400 * HZ_PER_MHZ, 1000000), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->other, 400 * HZ_PER_MHZ), 0);

	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 5);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->other), 1);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->other, FIXTURE_FLOOR,
						    ULONG_MAX).rate, 200 * HZ_PER_MHZ);
	KUNIT_EXPECT_PTR_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_EXACT,
							200 * HZ_PER_MHZ).opp,
			    ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->dev, 200 * HZ_PER_MHZ), -ENODEV);
}

static void opp_update_remove(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long rates[8];
	unsigned int i, n;

	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, 550 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, 550 * HZ_PER_MHZ), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, 123), -ENODEV);
	n = core_ceil_walk(ctx->dev, rates, ARRAY_SIZE(rates));
	KUNIT_ASSERT_EQ(test, n, 4U);
	KUNIT_EXPECT_EQ(test, rates[3], 600 * HZ_PER_MHZ);

	/* Removing the last OPP removes the table. */
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, rates[i]), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), -ENODEV);

	/* And the device can get a new one. */
	KUNIT_EXPECT_EQ(test, opp_add(ctx->dev, 100 * HZ_PER_MHZ, 900000), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), 1);
}

/* The library pins the device while it has a table for it, and no longer. */
static void opp_update_device_reference(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned int refs = kref_read(&ctx->dev->kobj.kref);
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev;

	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs + 1);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs);

	/* Dropped by its owner first: released with the table, not before. */
	dev = opp_test_fixture_dev_new(test, KBUILD_MODNAME "-c", &released);
	KUNIT_ASSERT_EQ(test, opp_add(dev, 100 * HZ_PER_MHZ, 900000), 0);
	put_device(dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 0);
	KUNIT_EXPECT_EQ(test, opp_remove(dev, 100 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 1);
}

/* ---- Copy-out lookups, updates under readers: suite opp_lookup ---- */

static void opp_lookup_values(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct opp_info info;

	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_lookup_ceil(ctx->dev, 300 * HZ_PER_MHZ, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, info.u_volt, opp_test_fixture_volt_of(400 * HZ_PER_MHZ));
	KUNIT_EXPECT_TRUE(test, info.available);

	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, ULONG_MAX, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 800 * HZ_PER_MHZ);
	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, 799 * HZ_PER_MHZ, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 600 * HZ_PER_MHZ);

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_lookup_exact(ctx->dev, 600 * HZ_PER_MHZ, false, &info),
			0);
	KUNIT_EXPECT_EQ(test, info.rate, 600 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, info.u_volt, opp_test_fixture_volt_of(600 * HZ_PER_MHZ));
	KUNIT_EXPECT_FALSE(test, info.available);
	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, 799 * HZ_PER_MHZ, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 400 * HZ_PER_MHZ);
}

static void opp_lookup_errors(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct opp_info info = { .rate = 42, .u_volt = 43 };

	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_lookup_ceil(ctx->dev, 801 * HZ_PER_MHZ, &info),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, opp_lookup_floor(ctx->dev, 199 * HZ_PER_MHZ, &info),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, opp_lookup_exact(ctx->dev, 400 * HZ_PER_MHZ, false, &info),
			-ERANGE);
	/* A disabled OPP is not found as an available one. */
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_lookup_exact(ctx->dev, 600 * HZ_PER_MHZ, true,
					       &info), -ERANGE);
	/* Untouched on error. */
	KUNIT_EXPECT_EQ(test, info.rate, 42UL);
	KUNIT_EXPECT_EQ(test, info.u_volt, 43UL);
}

struct irq_lookups {
	struct hrtimer timer;
	struct completion done;
	struct device *dev;
	struct cpufreq_frequency_table *ft;	/* freed in the interrupt */
	struct opp_info info, exact;
	unsigned long found, found_exact, freq;
	int ret, ret_exact, count;
	bool in_hardirq;
};

static enum hrtimer_restart irq_lookups_fn(struct hrtimer *timer)
{
	struct irq_lookups *irq = container_of(timer, struct irq_lookups, timer);

	irq->in_hardirq = in_hardirq();
	irq->ret = opp_lookup_ceil(irq->dev, 300 * HZ_PER_MHZ, &irq->info);
	rcu_read_lock();
	irq->freq = ULONG_MAX;
	irq->found = opp_get_freq(opp_find_freq_floor(irq->dev, &irq->freq));
	irq->count = opp_get_opp_count(irq->dev);
	irq->found_exact = opp_get_freq(opp_find_freq_exact(irq->dev,
							    600 * HZ_PER_MHZ,
							    true));
	rcu_read_unlock();
	irq->ret_exact = opp_lookup_exact(irq->dev, 400 * HZ_PER_MHZ, true,
					  &irq->exact);
	opp_free_cpufreq_table(irq->dev, &irq->ft);
	complete(&irq->done);
	return HRTIMER_NORESTART;
}

/*
 * The searches and lookups take no lock but RCU: they work in a hard
 * interrupt, and so does freeing a cpufreq table.
 */
static void opp_lookup_hardirq(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct irq_lookups *irq = kunit_kzalloc(test, sizeof(*irq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, irq);
	opp_test_fixture_add_four(test, ctx->dev);
	irq->dev = ctx->dev;
	KUNIT_ASSERT_EQ(test, opp_init_cpufreq_table(ctx->dev, &irq->ft), 0);
	init_completion(&irq->done);
	hrtimer_init(&irq->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	irq->timer.function = irq_lookups_fn;
	hrtimer_start(&irq->timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&irq->done, 5 * HZ),
			0UL);
	hrtimer_cancel(&irq->timer);
	KUNIT_EXPECT_TRUE(test, irq->in_hardirq);
	KUNIT_EXPECT_EQ(test, irq->ret, 0);
	KUNIT_EXPECT_EQ(test, irq->info.rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, irq->found, 800 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, irq->count, 4);
	KUNIT_EXPECT_EQ(test, irq->found_exact, 600 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, irq->ret_exact, 0);
	KUNIT_EXPECT_EQ(test, irq->exact.rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_NULL(test, irq->ft);
}

#define READER_STEPS	3

/*
 * A reader that finds the 400 MHz OPP and stays inside its read-side
 * critical section while the test makes its updates, one step at a time:
 * before step k it sets phase 2k + 1 and waits for 2k + 2, which the test
 * sets once its update returned. An update that waited for a grace period
 * would wait for this reader, which gives up after 5 s: timed_out.
 */
struct reader_thread {
	struct device *dev;
	unsigned int steps;
	atomic_t phase;
	struct completion done;
	bool found, timed_out;
	/* after each step, still inside: the held OPP and fresh searches */
	unsigned long rate[READER_STEPS], u_volt[READER_STEPS];
	bool on[READER_STEPS], off[READER_STEPS], added[READER_STEPS];
};

static int reader_thread_fn(void *data)
{
	struct reader_thread *r = data;
	unsigned long deadline;
	struct opp *opp;
	unsigned int k;

	rcu_read_lock();
	opp = opp_find_freq_exact(r->dev, 400 * HZ_PER_MHZ, true);
	r->found = !IS_ERR(opp);
	for (k = 0; r->found && k < r->steps; k++) {
		atomic_set(&r->phase, 2 * k + 1);
		deadline = jiffies + 5 * HZ;
		/* Spin, not sleep: this is a read-side critical section. */
		while (atomic_read(&r->phase) != 2 * k + 2) {
			if (time_after(jiffies, deadline)) {
				r->timed_out = true;
				goto out;
			}
			cpu_relax();
		}
		/* Freed memory here would be a KASAN report. */
		r->rate[k] = opp_get_freq(opp);
		r->u_volt[k] = opp_get_voltage(opp);
		r->on[k] = !IS_ERR(opp_find_freq_exact(r->dev, 400 * HZ_PER_MHZ,
						       true));
		r->off[k] = !IS_ERR(opp_find_freq_exact(r->dev, 400 * HZ_PER_MHZ,
							false));
		r->added[k] = !IS_ERR(opp_find_freq_exact(r->dev,
							  500 * HZ_PER_MHZ,
							  true));
	}
out:
	rcu_read_unlock();
	complete(&r->done);
	return 0;
}

static struct reader_thread *reader_start(struct kunit *test,
					  struct device *dev,
					  unsigned int steps)
{
	struct reader_thread *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *task;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	/*
	 * The reader spins inside rcu_read_lock() until the updater has
	 * returned: that takes a second CPU, or a reader the updater can
	 * preempt. User-Mode Linux (make quick) has neither; the ARM guest
	 * (make check, 4 CPUs) runs these cases.
	 */
	if (num_online_cpus() < 2 && !IS_ENABLED(CONFIG_PREEMPT_RCU))
		kunit_skip(test, "needs a second CPU or a preemptible RCU reader");
	r->dev = dev;
	r->steps = steps;
	init_completion(&r->done);
	task = kthread_run(reader_thread_fn, r, "opp-lookup-rdr");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	return r;
}

/* Wait until the reader is inside, before step @k. */
static void reader_wait(struct kunit *test, struct reader_thread *r,
			unsigned int k)
{
	unsigned long deadline = jiffies + 5 * HZ;

	while (atomic_read(&r->phase) != 2 * k + 1 &&
	       !completion_done(&r->done) && time_before(jiffies, deadline))
		usleep_range(100, 200);
	KUNIT_ASSERT_FALSE_MSG(test, r->timed_out,
			       "an update before step %u waited for the reader",
			       k);
	KUNIT_ASSERT_EQ_MSG(test, atomic_read(&r->phase), 2 * k + 1,
			    "the reader is not inside before step %u", k);
}

/* Step @k's update returned: the reader may look. */
static void reader_go(struct reader_thread *r, unsigned int k)
{
	atomic_set(&r->phase, 2 * k + 2);
}

static void reader_finish(struct kunit *test, struct reader_thread *r)
{
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&r->done, 10 * HZ),
			0UL);
	KUNIT_EXPECT_TRUE(test, r->found);
	KUNIT_EXPECT_FALSE_MSG(test, r->timed_out,
			       "an update waited for the reader");
}

/*
 * An OPP found before its table was removed stays readable until unlock,
 * and neither removal waits for the reader.
 */
static void opp_lookup_remove_under_reader(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct reader_thread *r;

	opp_test_fixture_add_four(test, ctx->dev);
	r = reader_start(test, ctx->dev, 1);
	reader_wait(test, r, 0);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), 0);
	reader_go(r, 0);
	reader_finish(test, r);
	KUNIT_EXPECT_EQ(test, r->rate[0], 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, r->u_volt[0], opp_test_fixture_volt_of(400 * HZ_PER_MHZ));
	KUNIT_EXPECT_FALSE(test, r->on[0]);
	KUNIT_EXPECT_FALSE(test, r->off[0]);
	/* Let the grace period pass and the memory go while we still run. */
	synchronize_rcu();
}

/*
 * The array opp_remove() replaces is freed after a grace period, not at
 * once: opp_lookup_remove_under_reader on one CPU. Under Tiny RCU (one
 * CPU, no preemption: User-Mode Linux) a callback queued by kfree_rcu()
 * runs only after a quiescent state, and each moves the grace-period
 * counter; none comes inside rcu_read_lock() from a task that does not
 * block. So while the counter has not moved since before the removal, the
 * old array must be live, and an OPP found in it before the removal is
 * read once more (freed memory would be a KASAN report). Where a grace
 * period passed in the removal (it sleeps on a mutex), it tries again.
 * Tree RCU gives no such proof from one task:
 * opp_lookup_remove_under_reader's second CPU is the test there.
 */
static void opp_lookup_remove_frees_after_grace_period(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	unsigned long cookie, rate = 0, u_volt = 0;
	bool live = false;
	struct opp *opp;
	int tries;

	if (!IS_ENABLED(CONFIG_TINY_RCU))
		kunit_skip(test,
			   "needs Tiny RCU (opp_lookup_remove_under_reader runs on Tree RCU)");
	opp_test_fixture_add_four(test, ctx->dev);
	for (tries = 0; tries < 10 && !live; tries++) {
		if (tries)
			KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 400 * HZ_PER_MHZ,
						      opp_test_fixture_volt_of(400 * HZ_PER_MHZ)),
					0);
		cookie = get_state_synchronize_rcu();
		rcu_read_lock();
		opp = opp_find_freq_exact(ctx->dev, 400 * HZ_PER_MHZ, true);
		rcu_read_unlock();
		KUNIT_ASSERT_FALSE(test, IS_ERR(opp));
		KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 400 * HZ_PER_MHZ), 0);
		rcu_read_lock();
		live = !poll_state_synchronize_rcu(cookie);
		if (live) {
			rate = opp_get_freq(opp);
			u_volt = opp_get_voltage(opp);
		}
		rcu_read_unlock();
	}
	KUNIT_ASSERT_TRUE_MSG(test, live,
			      "a grace period passed in each of %d removals",
			      tries);
	KUNIT_EXPECT_EQ(test, rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, u_volt, opp_test_fixture_volt_of(400 * HZ_PER_MHZ));
}

/*
 * opp_disable(), opp_enable() and opp_add() return while a reader is
 * inside the table, without a grace period, and the reader, still
 * inside, sees each change: availability flipped in place (through the
 * OPP it holds, too), the added OPP in the new copy.
 */
static void opp_lookup_update_under_reader(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct reader_thread *r;

	opp_test_fixture_add_four(test, ctx->dev);
	r = reader_start(test, ctx->dev, 3);
	reader_wait(test, r, 0);
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->dev, 400 * HZ_PER_MHZ), 0);
	reader_go(r, 0);
	reader_wait(test, r, 1);
	KUNIT_EXPECT_EQ(test, opp_enable(ctx->dev, 400 * HZ_PER_MHZ), 0);
	reader_go(r, 1);
	reader_wait(test, r, 2);
	KUNIT_EXPECT_EQ(test, opp_add(ctx->dev, 500 * HZ_PER_MHZ,
				      opp_test_fixture_volt_of(500 * HZ_PER_MHZ)), 0);
	reader_go(r, 2);
	reader_finish(test, r);
	/* Disabled: the held OPP reports nothing, only exact(false) finds it. */
	KUNIT_EXPECT_EQ(test, r->rate[0], 0UL);
	KUNIT_EXPECT_FALSE(test, r->on[0]);
	KUNIT_EXPECT_TRUE(test, r->off[0]);
	/* Enabled again. */
	KUNIT_EXPECT_EQ(test, r->rate[1], 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, r->u_volt[1], opp_test_fixture_volt_of(400 * HZ_PER_MHZ));
	KUNIT_EXPECT_TRUE(test, r->on[1]);
	KUNIT_EXPECT_FALSE(test, r->added[1]);
	/* Added: a new search sees it; the held OPP, in the old copy, stays. */
	KUNIT_EXPECT_TRUE(test, r->added[2]);
	KUNIT_EXPECT_EQ(test, r->rate[2], 400 * HZ_PER_MHZ);
}

static struct kunit_case opp_search_cases[] = {
	KUNIT_CASE(opp_search_ceil_walk_is_sorted),
	KUNIT_CASE(opp_search_voltage_follows_frequency),
	KUNIT_CASE(opp_search_floor_from_ulong_max),
	KUNIT_CASE(opp_search_ceil_floor_between_points),
	KUNIT_CASE(opp_search_out_of_range),
	KUNIT_CASE(opp_search_exact_by_availability),
	KUNIT_CASE(opp_search_ulong_max_frequency),
	{}
};

static struct kunit_suite opp_search_suite = {
	.name = "opp_search",
	.init = fixture_pair_init,
	.exit = opp_test_fixture_pair_exit,
	.test_cases = opp_search_cases,
};

static struct kunit_case opp_update_cases[] = {
	KUNIT_CASE(opp_update_disabled_is_skipped),
	KUNIT_CASE(opp_update_all_disabled),
	KUNIT_CASE(opp_update_thermal_flow),
	KUNIT_CASE(opp_update_enable_disable_idempotent),
	KUNIT_CASE(opp_update_duplicate_identical),
	KUNIT_CASE(opp_update_duplicate_conflicting),
	KUNIT_CASE(opp_update_devices_are_independent),
	KUNIT_CASE(opp_update_remove),
	KUNIT_CASE(opp_update_device_reference),
	{}
};

static struct kunit_suite opp_update_suite = {
	.name = "opp_update",
	.init = fixture_pair_init,
	.exit = opp_test_fixture_pair_exit,
	.test_cases = opp_update_cases,
};

static struct kunit_case opp_lookup_cases[] = {
	KUNIT_CASE(opp_lookup_values),
	KUNIT_CASE(opp_lookup_errors),
	KUNIT_CASE(opp_lookup_hardirq),
	KUNIT_CASE(opp_lookup_remove_under_reader),
	KUNIT_CASE(opp_lookup_update_under_reader),
	KUNIT_CASE(opp_lookup_remove_frees_after_grace_period),
	{}
};

static struct kunit_suite opp_lookup_suite = {
	.name = "opp_lookup",
	.init = fixture_pair_init,
	.exit = opp_test_fixture_pair_exit,
	.test_cases = opp_lookup_cases,
};

kunit_test_suites(&opp_search_suite, &opp_update_suite,
		  &opp_lookup_suite);

MODULE_DESCRIPTION("KUnit: the OPP library's searches, updates and lookups");
MODULE_LICENSE("GPL");
