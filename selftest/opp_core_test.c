// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the OPP library's exports: the usage patterns of the
 * 2.6.37 documentation, ordering, availability, the cpufreq table, the
 * duplicate-add rule, removal and the device reference. The error
 * contract (bad devices, missing tables, bad arguments) is opp_robust's
 * bad-input matrix.
 *
 * Every test gets two fresh devices (never registered with the driver
 * core: the library only needs their identity and their reference count);
 * the exit hook removes whatever table a test left and drops the devices.
 */

#include <kunit/test.h>
#include <linux/cpufreq.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

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

static void opp_test_cpufreq_table(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct cpufreq_frequency_table *ft = NULL;
	static const unsigned int khz[] = { 125000, 250000, 550000, 600000 };
	unsigned int i;

	fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 500 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_init_cpufreq_table(ctx->dev, &ft), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ft);
	for (i = 0; i < ARRAY_SIZE(khz); i++) {
		KUNIT_EXPECT_EQ(test, ft[i].frequency, khz[i]);
		KUNIT_EXPECT_EQ(test, ft[i].driver_data, i);
		KUNIT_EXPECT_EQ(test, ft[i].flags, 0U);
	}
	KUNIT_EXPECT_EQ(test, ft[i].frequency, CPUFREQ_TABLE_END);
	KUNIT_EXPECT_EQ(test, ft[i].flags, 0U);
	opp_free_cpufreq_table(ctx->dev, &ft);
	KUNIT_EXPECT_NULL(test, ft);
}

/* A rate that is not a whole kHz gives the kHz below it. */
static void opp_test_cpufreq_truncation(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct cpufreq_frequency_table *ft = NULL;

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 1000999, 900000), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 2000001, 950000), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 999, 850000), 0);
	KUNIT_ASSERT_EQ(test, opp_init_cpufreq_table(ctx->dev, &ft), 0);
	KUNIT_EXPECT_EQ(test, ft[0].frequency, 0U);
	KUNIT_EXPECT_EQ(test, ft[1].frequency, 1000U);
	KUNIT_EXPECT_EQ(test, ft[2].frequency, 2000U);
	KUNIT_EXPECT_EQ(test, ft[3].frequency, CPUFREQ_TABLE_END);
	opp_free_cpufreq_table(ctx->dev, &ft);
}

/* A cpufreq table as another thread or a callback got it, copied out. */
struct opp_test_khz {
	int ret;
	unsigned int n;
	unsigned int khz[8];
};

static void opp_test_take_table(struct device *dev, struct opp_test_khz *k)
{
	struct cpufreq_frequency_table *ft;

	k->ret = opp_init_cpufreq_table(dev, &ft);
	if (k->ret)
		return;
	for (k->n = 0; ft[k->n].frequency != CPUFREQ_TABLE_END &&
	     k->n < ARRAY_SIZE(k->khz); k->n++)
		k->khz[k->n] = ft[k->n].frequency;
	opp_free_cpufreq_table(dev, &ft);
}

/* The CPU domain's table once 700 MHz was added. */
static const unsigned int cpu_khz_700[] = {
	125000, 250000, 500000, 550000, 600000, 700000,
};

static void opp_test_expect_khz(struct kunit *test, const struct opp_test_khz *k,
				const unsigned int *khz, unsigned int n)
{
	unsigned int i;

	KUNIT_ASSERT_EQ(test, k->ret, 0);
	KUNIT_ASSERT_EQ(test, k->n, n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, k->khz[i], khz[i]);
}

struct cpufreq_listener {
	struct notifier_block nb;
	struct device *dev;
	unsigned int calls;
	struct opp_test_khz got;
};

static int cpufreq_listen(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	struct cpufreq_listener *l = container_of(nb, struct cpufreq_listener, nb);

	l->calls++;
	opp_test_take_table(l->dev, &l->got);
	return NOTIFY_OK;
}

/*
 * A notifier callback may rebuild its cpufreq table (it takes no lock),
 * and gets the table with the change that called it.
 */
static void opp_test_cpufreq_from_notifier(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct cpufreq_listener *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	l->nb.notifier_call = cpufreq_listen;
	l->dev = ctx->dev;
	fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 700 * HZ_PER_MHZ, 1300000), 0);
	KUNIT_ASSERT_EQ(test, l->calls, 1U);
	opp_test_expect_khz(test, &l->got, cpu_khz_700, ARRAY_SIZE(cpu_khz_700));

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, l->calls, 2U);
	opp_test_expect_khz(test, &l->got, cpu_khz_700 + 1,
			    ARRAY_SIZE(cpu_khz_700) - 1);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &l->nb), 0);
}

/*
 * The table grows between the sizing of the cpufreq table and its copy.
 * Deterministically: a probe on the kmalloc tracepoint holds the caller
 * (bound to one CPU) right after its first allocation until an updater
 * (bound to another) has added an OPP. The caller must then allocate
 * again, for one entry more, and return the grown table.
 */
struct cpufreq_race {
	struct device *dev;
	struct task_struct *caller;
	/*
	 * Set by the caller around opp_init_cpufreq_table() alone: its
	 * thread's own start and exit allocate too on some kernels (6.12).
	 */
	bool counting;
	size_t first_bytes;		/* the first allocation's request */
	atomic_t armed;
	atomic_t added;
	struct completion go, added_done, caller_done;
	unsigned int allocs;
	size_t bytes[4];
	bool held_too_long;
	int add_ret;
	struct opp_test_khz got;
};

static void cpufreq_race_probe(void *data, unsigned long call_site,
			       const void *ptr, size_t bytes_req,
			       size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	struct cpufreq_race *r = data;
	unsigned long deadline;

	if (current != r->caller || !r->counting)
		return;
	if (r->allocs < ARRAY_SIZE(r->bytes))
		r->bytes[r->allocs] = bytes_req;
	r->allocs++;
	if (bytes_req != r->first_bytes || !atomic_xchg(&r->armed, 0))
		return;
	complete(&r->go);
	/* Preemption is off in a probe: spin, bounded. */
	deadline = jiffies + 5 * HZ;
	while (!atomic_read(&r->added)) {
		if (time_after(jiffies, deadline)) {
			r->held_too_long = true;
			break;
		}
		cpu_relax();
	}
}

static int cpufreq_race_updater(void *data)
{
	struct cpufreq_race *r = data;

	if (wait_for_completion_timeout(&r->go, 10 * HZ))
		r->add_ret = opp_add(r->dev, 700 * HZ_PER_MHZ, 1300000);
	else
		r->add_ret = -ETIMEDOUT;
	atomic_set(&r->added, 1);
	complete(&r->added_done);
	return 0;
}

static int cpufreq_race_caller(void *data)
{
	struct cpufreq_race *r = data;

	r->counting = true;
	opp_test_take_table(r->dev, &r->got);
	r->counting = false;
	complete(&r->caller_done);
	return 0;
}

static struct task_struct *opp_test_thread_on(struct kunit *test,
					      int (*fn)(void *), void *data,
					      unsigned int cpu)
{
	struct task_struct *t = kthread_create(fn, data, "opp-test/%u", cpu);

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpu);
	return t;
}

static void opp_test_cpufreq_table_grew(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct cpufreq_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *caller, *updater;
	unsigned int cpu0, cpu1;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	/* User-Mode Linux (make quick) has one; the ARM guest has four. */
	if (num_online_cpus() < 2)
		kunit_skip(test, "the race needs two CPUs");
	cpu0 = cpumask_first(cpu_online_mask);
	cpu1 = cpumask_next(cpu0, cpu_online_mask);
	fixture_add_cpu(test, ctx->dev);
	r->dev = ctx->dev;
	r->first_bytes = (ARRAY_SIZE(fixture_cpu_opps) + 1) *
			 sizeof(struct cpufreq_frequency_table);
	atomic_set(&r->armed, 1);
	init_completion(&r->go);
	init_completion(&r->added_done);
	init_completion(&r->caller_done);
	updater = opp_test_thread_on(test, cpufreq_race_updater, r, cpu1);
	caller = opp_test_thread_on(test, cpufreq_race_caller, r, cpu0);
	r->caller = caller;
	if (register_trace_kmalloc(cpufreq_race_probe, r)) {
		/* Never woken: they end without running. */
		kthread_stop(caller);
		kthread_stop(updater);
		KUNIT_FAIL(test, "cannot probe the kmalloc tracepoint");
		return;
	}
	wake_up_process(updater);
	wake_up_process(caller);
	wait_for_completion(&r->caller_done);
	wait_for_completion(&r->added_done);
	unregister_trace_kmalloc(cpufreq_race_probe, r);
	tracepoint_synchronize_unregister();

	KUNIT_EXPECT_FALSE(test, r->held_too_long);
	KUNIT_EXPECT_EQ(test, r->add_ret, 0);
	/* Sized for 5 + the end, then again for 6 + the end. */
	KUNIT_ASSERT_EQ(test, r->allocs, 2U);
	KUNIT_EXPECT_EQ(test, r->bytes[0], r->first_bytes);
	KUNIT_EXPECT_EQ(test, r->bytes[1],
			r->first_bytes + sizeof(struct cpufreq_frequency_table));
	opp_test_expect_khz(test, &r->got, cpu_khz_700, ARRAY_SIZE(cpu_khz_700));
}

/* Nothing available: no table to give (the argument errors: opp_robust). */
static void opp_test_cpufreq_table_errors(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct cpufreq_frequency_table *ft = NULL;

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 100 * HZ_PER_MHZ, 900000), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 100 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_init_cpufreq_table(ctx->dev, &ft), -ENODATA);
	KUNIT_EXPECT_NULL(test, ft);
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

static struct kunit_case opp_cpufreq_cases[] = {
	KUNIT_CASE(opp_test_cpufreq_table),
	KUNIT_CASE(opp_test_cpufreq_table_errors),
	KUNIT_CASE(opp_test_cpufreq_truncation),
	KUNIT_CASE(opp_test_cpufreq_from_notifier),
	KUNIT_CASE(opp_test_cpufreq_table_grew),
	{}
};

static struct kunit_suite opp_cpufreq_suite = {
	.name = "opp_cpufreq",
	.init = fixture_pair_init,
	.exit = fixture_pair_exit,
	.test_cases = opp_cpufreq_cases,
};

kunit_test_suites(&opp_search_suite, &opp_update_suite,
		  &opp_cpufreq_suite);

MODULE_DESCRIPTION("KUnit tests of the OPP library");
MODULE_LICENSE("GPL");
