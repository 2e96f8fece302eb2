// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the CPUs' unit of the library (opp_cpu.c): suites
 * opp_sharing and opp_cpufreq.
 *
 * opp_sharing: devices that share one table, from an ``opp-shared``
 * device-tree table (the nodes good-shared-a and -b of
 * selftest/opp_of_v2.dtso, read by this library and by the kernel's OPP
 * core side by side) and from opp_set_sharing_cpus() on the CPUs.
 *
 * opp_cpufreq: the cpufreq frequency table of a device's OPPs, also as a
 * notifier callback rebuilds it and as the table grows while it is
 * copied (its argument errors: opp_robust_test's bad-input matrix).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "opp_test_helpers.h"

/* ---- Devices sharing a table: suite opp_sharing ---- */

struct sharing_ctx {
	struct device *a, *b;		/* this library's two devices */
	struct device *ka, *kb;		/* the kernel's OPP core's two */
	struct device_node *np_a, *np_b;
	atomic_t released;
	/*
	 * Counts what the shared table's chain delivers, for the cases that
	 * register it. In the context, not on a case's stack: a block that a
	 * failed check leaves registered is still there when the exit's
	 * removals notify it.
	 */
	struct notifier_block nb;
	unsigned int events[OPP_EVENT_ADJUST_VOLTAGE + 1];
};

static int sharing_listen(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	struct sharing_ctx *ctx = container_of(nb, struct sharing_ctx, nb);

	if (event < ARRAY_SIZE(ctx->events))
		ctx->events[event]++;
	return NOTIFY_OK;
}

static int sharing_init(struct kunit *test)
{
	struct sharing_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	test->priv = ctx;
	ctx->nb.notifier_call = sharing_listen;
	ctx->np_a = opp_test_of_pair_node(test, "good-shared-a");
	ctx->np_b = opp_test_of_pair_node(test, "good-shared-b");
	ctx->a = opp_test_fixture_dev_new(test, "opp-sharing-a", &ctx->released);
	ctx->b = opp_test_fixture_dev_new(test, "opp-sharing-b", &ctx->released);
	ctx->ka = opp_test_fixture_dev_new(test, "opp-sharing-kernel-a", NULL);
	ctx->kb = opp_test_fixture_dev_new(test, "opp-sharing-kernel-b", NULL);
	ctx->a->of_node = ctx->np_a;
	ctx->ka->of_node = ctx->np_a;
	ctx->b->of_node = ctx->np_b;
	ctx->kb->of_node = ctx->np_b;
	return 0;
}

static void sharing_exit(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;
	struct device *devs[] = { ctx->a, ctx->b, ctx->ka, ctx->kb };
	unsigned int i;

	opp_remove_table(ctx->a);
	opp_remove_table(ctx->b);
	dev_pm_opp_of_remove_table(ctx->ka);
	dev_pm_opp_of_remove_table(ctx->kb);
	for (i = 0; i < ARRAY_SIZE(devs); i++) {
		devs[i]->of_node = NULL;
		put_device(devs[i]);
	}
	of_node_put(ctx->np_a);
	of_node_put(ctx->np_b);
	/* Every reference this library's tables took went with them. */
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->released), 2);
}

static unsigned int sharing_refs(struct device *dev)
{
	return kref_read(&dev->kobj.kref);
}

/* Both devices read their nodes; b joins the table a read. */
static void sharing_read_both(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->a), 0);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->b), 0);
}

/* The rate of @dev's OPP @n (counting from 0, available ones), or 0. */
static unsigned long sharing_rate(struct device *dev, unsigned int n)
{
	struct opp_info info;
	unsigned long f = 0;

	do {
		if (opp_lookup_ceil(dev, f, &info))
			return 0;
		f = info.rate + 1;
	} while (n--);
	return info.rate;
}

static void opp_sharing_of_one_table(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;
	struct opp_table *ha, *hb;
	struct dev_pm_opp *kopp;
	struct opp_info info;
	unsigned long f;
	int n;

	sharing_read_both(test);
	ha = opp_table_get(ctx->a);
	hb = opp_table_get(ctx->b);
	KUNIT_EXPECT_PTR_EQ(test, ha, hb);
	opp_table_put(ha);
	opp_table_put(hb);

	/* The kernel's core shares the table too: both agree on it. */
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_add_table(ctx->ka), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_add_table(ctx->kb), 0);
	n = opp_test_fixture_count(ctx->a);
	KUNIT_ASSERT_GE(test, n, 2);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_get_opp_count(ctx->kb), n);

	/* Disabled through one device, disabled for the other, in both. */
	f = sharing_rate(ctx->a, 1);
	KUNIT_ASSERT_NE(test, f, 0UL);
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->a, f), 0);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_disable(ctx->ka, f), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n - 1);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_get_opp_count(ctx->kb), n - 1);
	KUNIT_EXPECT_EQ(test, opp_lookup_exact(ctx->b, f, false, &info), 0);
	kopp = dev_pm_opp_find_freq_exact(ctx->kb, f, false);
	KUNIT_EXPECT_FALSE(test, IS_ERR(kopp));
	if (!IS_ERR(kopp))
		dev_pm_opp_put(kopp);
	/* One reference on b while it shares, as on a. */
	KUNIT_EXPECT_EQ(test, sharing_refs(ctx->b), 2U);
}

static void opp_sharing_changes_reach_all(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;
	struct opp_info info;
	unsigned long top;

	sharing_read_both(test);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->a, &ctx->nb), 0);
	/* One chain: registered through b, the block is already there. */
	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->b, &ctx->nb), -EEXIST);

	top = sharing_rate(ctx->a, opp_test_fixture_count(ctx->a) - 1);
	KUNIT_ASSERT_NE(test, top, 0UL);
	KUNIT_EXPECT_EQ(test, opp_add(ctx->b, top + HZ_PER_MHZ, 1300000), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->a, FIXTURE_EXACT,
						    top + HZ_PER_MHZ).volt, 1300000UL);
	KUNIT_EXPECT_EQ(test, opp_disable(ctx->b, top + HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->a, top + HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_lookup_exact(ctx->b, top + HZ_PER_MHZ, false,
					       &info), -ERANGE);
	KUNIT_EXPECT_EQ(test, ctx->events[OPP_EVENT_ADD], 1U);
	KUNIT_EXPECT_EQ(test, ctx->events[OPP_EVENT_DISABLE], 1U);
	KUNIT_EXPECT_EQ(test, ctx->events[OPP_EVENT_REMOVE], 1U);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->b, &ctx->nb), 0);
}

static void opp_sharing_sharer_leaves(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;
	unsigned int refs = sharing_refs(ctx->b);
	int n;

	sharing_read_both(test);
	n = opp_test_fixture_count(ctx->a);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->a, &ctx->nb), 0);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->b), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->b), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), n);
	KUNIT_EXPECT_EQ(test, ctx->events[OPP_EVENT_REMOVE], 0U);
	KUNIT_EXPECT_EQ(test, sharing_refs(ctx->b), refs);
	/* Read again, b joins again. */
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->b), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n);
	KUNIT_EXPECT_EQ(test, ctx->events[OPP_EVENT_ADD], 0U);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->b, &ctx->nb), 0);
}

/*
 * The table's own device leaves: b keeps the OPPs as they were (a
 * disabled one stays disabled), the notifier chain and the handles.
 */
static void opp_sharing_owner_leaves(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;
	unsigned int refs = sharing_refs(ctx->a);
	struct opp_info info;
	struct opp_table *h;
	unsigned long f, off;
	struct opp *opp;
	int n;

	sharing_read_both(test);
	n = opp_test_fixture_count(ctx->a);
	off = sharing_rate(ctx->a, 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->a, off), 0);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->a, &ctx->nb), 0);
	h = opp_table_get(ctx->a);
	KUNIT_ASSERT_FALSE(test, IS_ERR(h));

	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->a), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), -ENODEV);
	KUNIT_EXPECT_EQ(test, sharing_refs(ctx->a), refs);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n - 1);
	KUNIT_EXPECT_EQ(test, opp_lookup_exact(ctx->b, off, false, &info), 0);
	f = 0;
	rcu_read_lock();
	opp = opp_table_find_freq_ceil(h, &f);
	rcu_read_unlock();
	KUNIT_EXPECT_FALSE(test, IS_ERR(opp));
	KUNIT_EXPECT_EQ(test, f, sharing_rate(ctx->b, 0));
	KUNIT_EXPECT_EQ(test, ctx->events[OPP_EVENT_REMOVE], 0U);

	/* The chain came along: b's changes reach it. */
	KUNIT_EXPECT_EQ(test, opp_enable(ctx->b, off), 0);
	KUNIT_EXPECT_EQ(test, ctx->events[OPP_EVENT_ENABLE], 1U);
	/* The last device takes the table, with a REMOVE per OPP. */
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->b), 0);
	KUNIT_EXPECT_EQ(test, ctx->events[OPP_EVENT_REMOVE], (unsigned int)n);
	f = 0;
	rcu_read_lock();
	opp = opp_table_find_freq_ceil(h, &f);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(opp), -ENODEV);
	opp_table_put(h);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->b, &ctx->nb), -ENODEV);
}

/* A device with a table of its own merges the shared node into it. */
static void opp_sharing_own_table_stays(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;
	struct opp_table *ha, *hb;

	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->a), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->b, 50 * HZ_PER_MHZ, 800000), 0);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->b), 0);
	ha = opp_table_get(ctx->a);
	hb = opp_table_get(ctx->b);
	KUNIT_EXPECT_PTR_NE(test, ha, hb);
	opp_table_put(ha);
	opp_table_put(hb);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), opp_test_fixture_count(ctx->a) + 1);
}

/*
 * The CPUs: as many as have a device (none on User-Mode Linux, whose
 * answer is then -ENODEV).
 */
static void opp_sharing_cpus(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;
	struct cpumask *mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct cpumask *got = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	unsigned int cpu, ncpu = 0, last;
	struct device *cpu0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mask);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	for_each_possible_cpu(cpu) {
		if (!get_cpu_device(cpu))
			break;
		ncpu++;
	}
	cpu0 = get_cpu_device(0);
	if (!ncpu) {
		KUNIT_EXPECT_EQ(test, opp_add(ctx->a, 100 * HZ_PER_MHZ, 900000), 0);
		KUNIT_EXPECT_EQ(test, opp_set_sharing_cpus(ctx->a, cpumask_of(0)),
				-ENODEV);
		KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(ctx->a, got), 0);
		KUNIT_EXPECT_TRUE(test, cpumask_empty(got));
		return;
	}
	for (cpu = 0; cpu < ncpu; cpu++)
		KUNIT_ASSERT_EQ_MSG(test, opp_test_fixture_count(get_cpu_device(cpu)), -ENODEV,
				    "CPU %u has a table before the case", cpu);

	KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(cpu0, got), -ENODEV);
	KUNIT_ASSERT_EQ(test, opp_add(cpu0, 100 * HZ_PER_MHZ, 900000), 0);
	KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(cpu0, got), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(got, cpumask_of(0)));

	/* A CPU with a table of its own: refused, nobody joins. */
	last = ncpu - 1;
	if (last) {
		KUNIT_EXPECT_EQ(test, opp_add(get_cpu_device(last),
					      200 * HZ_PER_MHZ, 900000), 0);
		for (cpu = 0; cpu < ncpu; cpu++)
			cpumask_set_cpu(cpu, mask);
		KUNIT_EXPECT_EQ(test, opp_set_sharing_cpus(cpu0, mask), -EBUSY);
		KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(cpu0, got), 0);
		KUNIT_EXPECT_TRUE(test, cpumask_equal(got, cpumask_of(0)));
		KUNIT_EXPECT_EQ(test, opp_remove_table(get_cpu_device(last)), 0);
	}

	/* All of them, cpu0 included, then asked from the last one. */
	cpumask_clear(mask);
	for (cpu = 0; cpu < ncpu; cpu++)
		cpumask_set_cpu(cpu, mask);
	KUNIT_EXPECT_EQ(test, opp_set_sharing_cpus(cpu0, mask), 0);
	KUNIT_EXPECT_EQ(test, opp_set_sharing_cpus(cpu0, mask), 0);
	KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(get_cpu_device(last), got), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(got, mask));
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(get_cpu_device(last), FIXTURE_CEIL,
						    0).rate, 100 * HZ_PER_MHZ);

	/* Each CPU leaves in turn; the last takes the table. */
	for (cpu = 0; cpu < ncpu; cpu++) {
		KUNIT_EXPECT_EQ(test, opp_remove_table(get_cpu_device(cpu)), 0);
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(get_cpu_device(cpu)), -ENODEV);
		if (cpu < last) {
			KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(get_cpu_device(last),
								   got), 0);
			KUNIT_EXPECT_EQ(test, cpumask_weight(got), last - cpu);
		}
	}
	KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(cpu0, got), -ENODEV);
}

static void opp_sharing_bad_input(struct kunit *test)
{
	struct cpumask *got = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct sharing_ctx *ctx = test->priv;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, got);
	KUNIT_EXPECT_EQ(test, opp_set_sharing_cpus(NULL, cpumask_of(0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_sharing_cpus(ERR_PTR(-EIO), cpumask_of(0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, opp_set_sharing_cpus(ctx->a, cpumask_of(0)), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(NULL, got), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(ctx->a, got), -ENODEV);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(got));
	KUNIT_ASSERT_EQ(test, opp_add(ctx->a, 100 * HZ_PER_MHZ, 900000), 0);
	KUNIT_EXPECT_EQ(test, opp_set_sharing_cpus(ctx->a, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_get_sharing_cpus(ctx->a, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), 1);
}

/*
 * The allocations of the sharing paths failing in turn, through the
 * task's fail-nth (see selftest/opp_robust_test.c): each call either fails
 * with -ENOMEM and changes nothing either device sees, or, when the
 * allocation that failed was a debug facility's own that it recovers
 * from, does all it does without a failure.
 */
struct sharing_fault {
	int ret;
	bool hit;
};

static int sharing_add_extra(struct sharing_ctx *ctx)
{
	return opp_add(ctx->b, 7 * HZ_PER_MHZ, 700000);
}

static int sharing_owner_leaves(struct sharing_ctx *ctx)
{
	return opp_remove_table(ctx->a);
}

static int sharing_owner_joins(struct sharing_ctx *ctx)
{
	return opp_of_add_table(ctx->a);
}

static struct sharing_fault sharing_failing(struct sharing_ctx *ctx,
					    int (*call)(struct sharing_ctx *),
					    unsigned int nth)
{
	struct sharing_fault f;

	WRITE_ONCE(current->fail_nth, nth);
	f.ret = call(ctx);
	f.hit = !READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	return f;
}

static void opp_sharing_out_of_memory(struct kunit *test)
{
	struct sharing_ctx *ctx = test->priv;
	unsigned int nth, enomem = 0;
	struct sharing_fault f;
	int n;

	sharing_read_both(test);
	n = opp_test_fixture_count(ctx->a);

	/* An OPP added through the sharer: a new array and its copies. */
	for (nth = 1, f.hit = true; f.hit; nth++) {
		f = sharing_failing(ctx, sharing_add_extra, nth);
		if (f.ret == -ENOMEM) {
			enomem++;
			KUNIT_EXPECT_TRUE(test, f.hit);
			KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), n);
			KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n);
			continue;
		}
		KUNIT_EXPECT_EQ(test, f.ret, 0);
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), n + 1);
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n + 1);
		KUNIT_EXPECT_EQ(test, opp_remove(ctx->a, 7 * HZ_PER_MHZ), 0);
	}
	KUNIT_EXPECT_GE_MSG(test, enomem, 2U, "fail-nth never failed opp_add()");

	/* The table's own device leaving: b's promotion. */
	for (nth = 1, f.hit = true, enomem = 0; f.hit; nth++) {
		f = sharing_failing(ctx, sharing_owner_leaves, nth);
		if (f.ret == -ENOMEM) {
			enomem++;
			KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), n);
			KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n);
			continue;
		}
		KUNIT_EXPECT_EQ(test, f.ret, 0);
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), -ENODEV);
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n);
		if (f.hit)
			KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->a), 0);
	}
	KUNIT_EXPECT_GE_MSG(test, enomem, 1U,
			    "fail-nth never failed opp_remove_table()");

	/* Joining the table again: a slot, a copy, a larger sharer list. */
	for (nth = 1, f.hit = true, enomem = 0; f.hit; nth++) {
		f = sharing_failing(ctx, sharing_owner_joins, nth);
		if (f.ret == -ENOMEM) {
			enomem++;
			KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), -ENODEV);
			KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->b), n);
			continue;
		}
		KUNIT_EXPECT_EQ(test, f.ret, 0);
		KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->a), n);
		if (f.hit)
			KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->a), 0);
	}
	KUNIT_EXPECT_GE_MSG(test, enomem, 1U,
			    "fail-nth never failed opp_of_add_table()");
}

static struct kunit_case sharing_cases[] = {
	KUNIT_CASE(opp_sharing_of_one_table),
	KUNIT_CASE(opp_sharing_changes_reach_all),
	KUNIT_CASE(opp_sharing_sharer_leaves),
	KUNIT_CASE(opp_sharing_owner_leaves),
	KUNIT_CASE(opp_sharing_own_table_stays),
	KUNIT_CASE(opp_sharing_cpus),
	KUNIT_CASE(opp_sharing_bad_input),
	KUNIT_CASE(opp_sharing_out_of_memory),
	{}
};

static struct kunit_suite sharing_suite = {
	.name = "opp_sharing",
	.init = sharing_init,
	.exit = sharing_exit,
	.test_cases = sharing_cases,
};

/* ---- The cpufreq table: suite opp_cpufreq ---- */

static void opp_cpufreq_table(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct cpufreq_frequency_table *ft = NULL;
	static const unsigned int khz[] = { 125000, 250000, 550000, 600000 };
	unsigned int i;

	opp_test_fixture_add_cpu(test, ctx->dev);
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
static void opp_cpufreq_truncation(struct kunit *test)
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
struct cpufreq_khz {
	int ret;
	unsigned int n;
	unsigned int khz[8];
};

static void cpufreq_take_table(struct device *dev, struct cpufreq_khz *k)
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

static void cpufreq_expect_khz(struct kunit *test, const struct cpufreq_khz *k,
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
	struct cpufreq_khz got;
};

static int cpufreq_listen(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	struct cpufreq_listener *l = container_of(nb, struct cpufreq_listener, nb);

	l->calls++;
	cpufreq_take_table(l->dev, &l->got);
	return NOTIFY_OK;
}

/*
 * A notifier callback may rebuild its cpufreq table (it takes no lock),
 * and gets the table with the change that called it.
 */
static void opp_cpufreq_from_notifier(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct cpufreq_listener *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	l->nb.notifier_call = cpufreq_listen;
	l->dev = ctx->dev;
	opp_test_fixture_add_cpu(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 700 * HZ_PER_MHZ, 1300000), 0);
	KUNIT_ASSERT_EQ(test, l->calls, 1U);
	cpufreq_expect_khz(test, &l->got, cpu_khz_700, ARRAY_SIZE(cpu_khz_700));

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 125 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, l->calls, 2U);
	cpufreq_expect_khz(test, &l->got, cpu_khz_700 + 1,
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
	struct cpufreq_khz got;
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
	cpufreq_take_table(r->dev, &r->got);
	r->counting = false;
	complete(&r->caller_done);
	return 0;
}

static struct task_struct *cpufreq_thread_on(struct kunit *test,
					     int (*fn)(void *), void *data,
					     unsigned int cpu)
{
	struct task_struct *t = kthread_create(fn, data, "opp-cpufreq/%u", cpu);

	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpu);
	return t;
}

static void opp_cpufreq_table_grew(struct kunit *test)
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
	opp_test_fixture_add_cpu(test, ctx->dev);
	r->dev = ctx->dev;
	r->first_bytes = (ARRAY_SIZE(fixture_cpu_opps) + 1) *
			 sizeof(struct cpufreq_frequency_table);
	atomic_set(&r->armed, 1);
	init_completion(&r->go);
	init_completion(&r->added_done);
	init_completion(&r->caller_done);
	updater = cpufreq_thread_on(test, cpufreq_race_updater, r, cpu1);
	caller = cpufreq_thread_on(test, cpufreq_race_caller, r, cpu0);
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
	cpufreq_expect_khz(test, &r->got, cpu_khz_700, ARRAY_SIZE(cpu_khz_700));
}

/* Nothing available: no table to give (the argument errors: opp_robust_test). */
static void opp_cpufreq_table_errors(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct cpufreq_frequency_table *ft = NULL;

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 100 * HZ_PER_MHZ, 900000), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 100 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_init_cpufreq_table(ctx->dev, &ft), -ENODATA);
	KUNIT_EXPECT_NULL(test, ft);
}

static struct kunit_case opp_cpufreq_cases[] = {
	KUNIT_CASE(opp_cpufreq_table),
	KUNIT_CASE(opp_cpufreq_table_errors),
	KUNIT_CASE(opp_cpufreq_truncation),
	KUNIT_CASE(opp_cpufreq_from_notifier),
	KUNIT_CASE(opp_cpufreq_table_grew),
	{}
};

static struct kunit_suite opp_cpufreq_suite = {
	.name = "opp_cpufreq",
	.init = fixture_pair_init,
	.exit = opp_test_fixture_pair_exit,
	.test_cases = opp_cpufreq_cases,
};

kunit_test_suites(&sharing_suite, &opp_cpufreq_suite);

MODULE_DESCRIPTION("KUnit: CPUs sharing an OPP table, and the cpufreq table");
MODULE_LICENSE("GPL");
