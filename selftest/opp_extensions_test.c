// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of what the library has beyond 2.6.37: copy-out lookups
 * (also from hard interrupt context), removal while readers hold OPPs,
 * notifiers and the device tree reader. (The debugfs view is checked from
 * user space by the guest: a debugfs file cannot be read from the kernel.)
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_fixture.h"

struct extensions_ctx {
	struct device *dev;
	struct device *other;
	atomic_t released;
};

static int extensions_init(struct kunit *test)
{
	struct extensions_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	ctx->dev = fixture_dev_new(test, "opp-ext-a", &ctx->released);
	ctx->other = fixture_dev_new(test, "opp-ext-b", &ctx->released);
	test->priv = ctx;
	return 0;
}

static void extensions_exit(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;

	opp_remove_table(ctx->dev);
	opp_remove_table(ctx->other);
	put_device(ctx->dev);
	put_device(ctx->other);
}

/* 200, 400, 600, 800 MHz; the voltage is a function of the rate. */
static unsigned long volt_of(unsigned long rate)
{
	return 800000 + rate / 2000;
}

static void add_four(struct kunit *test, struct device *dev)
{
	unsigned long f;

	for (f = 200 * HZ_PER_MHZ; f <= 800 * HZ_PER_MHZ; f += 200 * HZ_PER_MHZ)
		KUNIT_ASSERT_EQ(test, opp_add(dev, f, volt_of(f)), 0);
}

static void lookup_values(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;
	struct opp_info info;

	add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_lookup_ceil(ctx->dev, 300 * HZ_PER_MHZ, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, info.u_volt, volt_of(400 * HZ_PER_MHZ));
	KUNIT_EXPECT_TRUE(test, info.available);

	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, ULONG_MAX, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 800 * HZ_PER_MHZ);
	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, 799 * HZ_PER_MHZ, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 600 * HZ_PER_MHZ);

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_lookup_exact(ctx->dev, 600 * HZ_PER_MHZ, false, &info),
			0);
	KUNIT_EXPECT_EQ(test, info.rate, 600 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, info.u_volt, volt_of(600 * HZ_PER_MHZ));
	KUNIT_EXPECT_FALSE(test, info.available);
	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, 799 * HZ_PER_MHZ, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 400 * HZ_PER_MHZ);
}

static void lookup_errors(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;
	struct opp_info info = { .rate = 42, .u_volt = 43 };

	add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_lookup_ceil(ctx->dev, 801 * HZ_PER_MHZ, &info),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, opp_lookup_floor(ctx->dev, 199 * HZ_PER_MHZ, &info),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, opp_lookup_exact(ctx->dev, 400 * HZ_PER_MHZ, false, &info),
			-ERANGE);
	/* Untouched on error. */
	KUNIT_EXPECT_EQ(test, info.rate, 42UL);
	KUNIT_EXPECT_EQ(test, info.u_volt, 43UL);
}

struct irq_lookups {
	struct hrtimer timer;
	struct completion done;
	struct device *dev;
	struct opp_info info;
	unsigned long found, freq;
	int ret, count;
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
	rcu_read_unlock();
	complete(&irq->done);
	return HRTIMER_NORESTART;
}

/* The lookups take no lock but RCU: they work in a hard interrupt. */
static void lookup_hardirq(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;
	struct irq_lookups *irq = kunit_kzalloc(test, sizeof(*irq), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, irq);
	add_four(test, ctx->dev);
	irq->dev = ctx->dev;
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
}

struct reader_thread {
	struct device *dev;
	atomic_t phase;		/* 1: holding the OPP; 2: it was removed */
	struct completion done;
	unsigned long rate, u_volt;
	bool found;
};

static int reader_thread_fn(void *data)
{
	struct reader_thread *r = data;
	unsigned long freq = 400 * HZ_PER_MHZ;
	struct opp *opp;

	rcu_read_lock();
	opp = opp_find_freq_exact(r->dev, freq, true);
	r->found = !IS_ERR(opp);
	atomic_set(&r->phase, 1);
	/* Spin, not sleep: this is a read-side critical section. */
	while (r->found && atomic_read(&r->phase) != 2)
		cpu_relax();
	if (r->found) {
		/* Freed memory here would be a KASAN report. */
		r->rate = opp_get_freq(opp);
		r->u_volt = opp_get_voltage(opp);
	}
	rcu_read_unlock();
	complete(&r->done);
	return 0;
}

/* An OPP found before its table was removed stays readable until unlock. */
static void remove_under_reader(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;
	struct reader_thread *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *task;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	add_four(test, ctx->dev);
	r->dev = ctx->dev;
	init_completion(&r->done);
	task = kthread_run(reader_thread_fn, r, "opp-ext-reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	while (atomic_read(&r->phase) != 1)
		usleep_range(100, 200);
	KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), 0);
	atomic_set(&r->phase, 2);
	wait_for_completion(&r->done);
	KUNIT_ASSERT_TRUE(test, r->found);
	KUNIT_EXPECT_EQ(test, r->rate, 400 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, r->u_volt, volt_of(400 * HZ_PER_MHZ));
	/* Let the grace period pass and the memory go while we still run. */
	synchronize_rcu();
}

#define OPP_EXT_MAX_EVENTS 16

struct listener {
	struct notifier_block nb;
	struct device *dev;
	unsigned int n;
	unsigned long event[OPP_EXT_MAX_EVENTS];
	struct opp_info info[OPP_EXT_MAX_EVENTS];
	bool visible[OPP_EXT_MAX_EVENTS];
};

/* Records each event and whether the change was visible when it came. */
static int listen(struct notifier_block *nb, unsigned long event,
		  void *data)
{
	struct listener *l = container_of(nb, struct listener, nb);
	const struct opp_info *info = data;
	struct opp_info now;
	bool visible;

	switch (event) {
	case OPP_EVENT_ADD:
	case OPP_EVENT_ENABLE:
		visible = !opp_lookup_exact(l->dev, info->rate, true, &now);
		break;
	case OPP_EVENT_DISABLE:
		visible = !opp_lookup_exact(l->dev, info->rate, false, &now);
		break;
	default:
		visible = opp_lookup_exact(l->dev, info->rate, true, &now) &&
			  opp_lookup_exact(l->dev, info->rate, false, &now);
	}
	if (l->n < OPP_EXT_MAX_EVENTS) {
		l->event[l->n] = event;
		l->info[l->n] = *info;
		l->visible[l->n] = visible;
	}
	l->n++;
	return NOTIFY_OK;
}

static void expect_event(struct kunit *test, struct listener *l,
			 unsigned int i, unsigned long event,
			 unsigned long rate, bool available)
{
	KUNIT_ASSERT_LT(test, i, l->n);
	KUNIT_EXPECT_EQ_MSG(test, l->event[i], event, "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].rate, rate, "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].u_volt, volt_of(rate),
			    "event %u", i);
	KUNIT_EXPECT_EQ_MSG(test, l->info[i].available, available, "event %u", i);
	KUNIT_EXPECT_TRUE_MSG(test, l->visible[i], "event %u came too early", i);
}

static void notifier_events(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;
	struct listener *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, l);
	l->nb.notifier_call = listen;
	l->dev = ctx->dev;
	add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 1000 * HZ_PER_MHZ,
				      volt_of(1000 * HZ_PER_MHZ)), 0);
	/* No change, no event. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 1000 * HZ_PER_MHZ,
				      volt_of(1000 * HZ_PER_MHZ)), 0);
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 200 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 200 * HZ_PER_MHZ), 0);
	/* Errors send nothing either. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 400 * HZ_PER_MHZ, 1), -EEXIST);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 300 * HZ_PER_MHZ), -ENODEV);

	KUNIT_ASSERT_EQ(test, l->n, 4U);
	expect_event(test, l, 0, OPP_EVENT_ADD, 1000 * HZ_PER_MHZ, true);
	expect_event(test, l, 1, OPP_EVENT_DISABLE, 600 * HZ_PER_MHZ, false);
	expect_event(test, l, 2, OPP_EVENT_ENABLE, 600 * HZ_PER_MHZ, true);
	expect_event(test, l, 3, OPP_EVENT_REMOVE, 200 * HZ_PER_MHZ, true);

	/* A removed table tells of each OPP and takes the registration. */
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_ASSERT_EQ(test, l->n, 8U);
	expect_event(test, l, 4, OPP_EVENT_REMOVE, 400 * HZ_PER_MHZ, true);
	expect_event(test, l, 7, OPP_EVENT_REMOVE, 1000 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &l->nb), -ENODEV);
	add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, l->n, 8U);
}

static void notifier_registration(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;
	struct listener *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct listener *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	a->nb.notifier_call = listen;
	b->nb.notifier_call = listen;
	a->dev = ctx->dev;
	b->dev = ctx->dev;

	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->dev, &a->nb), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_register_notifier(NULL, &a->nb), -EINVAL);
	add_four(test, ctx->dev);
	add_four(test, ctx->other);
	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->dev, NULL), -EINVAL);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &a->nb), 0);
	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->dev, &a->nb), -EEXIST);
	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->other, &a->nb), -EEXIST);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &b->nb), 0);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->other, &b->nb),
			-ENOENT);

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 800 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, a->n, 1U);
	KUNIT_EXPECT_EQ(test, b->n, 1U);
	/* Other devices' changes are not ours. */
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->other, 800 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, a->n, 1U);

	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &a->nb), 0);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &a->nb), -ENOENT);
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 800 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, a->n, 1U);
	KUNIT_EXPECT_EQ(test, b->n, 2U);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &b->nb), 0);
}

static void dt_table(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;
	/* Unsorted, with one identical repeat. */
	static const u32 cells[] = {
		600000, 1100000, 200000, 900000, 400000, 1000000,
		200000, 900000,
	};
	struct opp_info info;

	fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 3);
	KUNIT_ASSERT_EQ(test, opp_lookup_ceil(ctx->dev, 0, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 200 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, info.u_volt, 900000UL);
	KUNIT_ASSERT_EQ(test, opp_lookup_floor(ctx->dev, ULONG_MAX, &info), 0);
	KUNIT_EXPECT_EQ(test, info.rate, 600 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, info.u_volt, 1100000UL);
	/* Reading it again is the identical re-add of a re-probe. */
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 3);
	ctx->dev->of_node = NULL;
}

struct dt_case {
	const char *name;
	u32 cells[6];
	unsigned int n;
	int err;
};

static const struct dt_case dt_bad[] = {
	{ "empty", {}, 0, -EINVAL },
	{ "odd", { 200000, 900000, 400000 }, 3, -EINVAL },
	{ "single cell", { 200000 }, 1, -EINVAL },
	{ "zero kHz", { 200000, 900000, 0, 950000 }, 4, -EINVAL },
	{ "two voltages", { 200000, 900000, 200000, 950000 }, 4, -EINVAL },
	{ "too fast", { 200000, 900000, 4294968, 1000000 }, 4, -EINVAL },
};

static void dt_bad_desc(const struct dt_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dt_bad, dt_bad, dt_bad_desc);

/* A malformed property is refused whole: not even a table appears. */
static void dt_malformed(struct kunit *test)
{
	const struct dt_case *c = test->param_value;
	struct extensions_ctx *ctx = test->priv;
	int err = c->err;

	/* 4294968 kHz fits an unsigned long in Hz only on 64-bit. */
	if (c->cells[2] == 4294968 && BITS_PER_LONG == 64)
		err = 0;
	fixture_of_attach(test, ctx->dev, c->cells, c->n);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), err);
	if (!err)
		goto out;
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), -ENODEV);

	/* Nor does it touch a table that is there. */
	add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), err);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 4);
out:
	ctx->dev->of_node = NULL;
}

static void dt_missing(struct kunit *test)
{
	struct extensions_ctx *ctx = test->priv;
	static const u32 conflict[] = { 200000, 1, 1000000, 1200000 };

	fixture_of_attach(test, ctx->dev, NULL, 0);
	ctx->dev->of_node->properties = NULL;
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), -ENODEV);

	/* A conflict with the table adds none, not even the new 1 GHz. */
	add_four(test, ctx->dev);
	fixture_of_attach(test, ctx->dev, conflict, ARRAY_SIZE(conflict));
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), -EEXIST);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 4);
	ctx->dev->of_node = NULL;
}

static struct kunit_case opp_lookup_cases[] = {
	KUNIT_CASE(lookup_values),
	KUNIT_CASE(lookup_errors),
	KUNIT_CASE(lookup_hardirq),
	KUNIT_CASE(remove_under_reader),
	{}
};

static struct kunit_suite opp_lookup_suite = {
	.name = "opp_lookup",
	.init = extensions_init,
	.exit = extensions_exit,
	.test_cases = opp_lookup_cases,
};

static struct kunit_case opp_notifier_cases[] = {
	KUNIT_CASE(notifier_events),
	KUNIT_CASE(notifier_registration),
	{}
};

static struct kunit_suite opp_notifier_suite = {
	.name = "opp_notifier",
	.init = extensions_init,
	.exit = extensions_exit,
	.test_cases = opp_notifier_cases,
};

static struct kunit_case opp_of_cases[] = {
	KUNIT_CASE(dt_table),
	KUNIT_CASE_PARAM(dt_malformed, dt_bad_gen_params),
	KUNIT_CASE(dt_missing),
	{}
};

static struct kunit_suite opp_of_suite = {
	.name = "opp_of",
	.init = extensions_init,
	.exit = extensions_exit,
	.test_cases = opp_of_cases,
};

kunit_test_suites(&opp_lookup_suite, &opp_notifier_suite, &opp_of_suite);

MODULE_DESCRIPTION("KUnit tests of the OPP library's extensions");
MODULE_LICENSE("GPL");
