// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's notifiers (opp.c): suites opp_notifier
 * and opp_of.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_fixture.h"

static void notifier_events(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *l = fixture_listener_new(test, ctx->dev);

	fixture_add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 1000 * HZ_PER_MHZ,
				      fixture_volt_of(1000 * HZ_PER_MHZ)), 0);
	/* No change, no event. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 1000 * HZ_PER_MHZ,
				      fixture_volt_of(1000 * HZ_PER_MHZ)), 0);
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 200 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 200 * HZ_PER_MHZ), 0);
	/* Errors send nothing either. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 400 * HZ_PER_MHZ, 1), -EEXIST);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 300 * HZ_PER_MHZ), -ENODEV);

	KUNIT_ASSERT_EQ(test, l->n, 4U);
	fixture_expect_event(test, l, 0, OPP_EVENT_ADD, 1000 * HZ_PER_MHZ, true);
	fixture_expect_event(test, l, 1, OPP_EVENT_DISABLE, 600 * HZ_PER_MHZ, false);
	fixture_expect_event(test, l, 2, OPP_EVENT_ENABLE, 600 * HZ_PER_MHZ, true);
	fixture_expect_event(test, l, 3, OPP_EVENT_REMOVE, 200 * HZ_PER_MHZ, true);

	/* A removed table tells of each OPP and takes the registration. */
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_ASSERT_EQ(test, l->n, 8U);
	fixture_expect_event(test, l, 4, OPP_EVENT_REMOVE, 400 * HZ_PER_MHZ, true);
	fixture_expect_event(test, l, 7, OPP_EVENT_REMOVE, 1000 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &l->nb), -ENODEV);
	fixture_add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, l->n, 8U);
}

static void notifier_registration(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *a = fixture_listener_new(test, ctx->dev);
	struct fixture_listener *b = fixture_listener_new(test, ctx->dev);

	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->dev, &a->nb), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_register_notifier(NULL, &a->nb), -EINVAL);
	fixture_add_four(test, ctx->dev);
	fixture_add_four(test, ctx->other);
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

/*
 * Removing the last OPP removes the table: its listener is told
 * OPP_EVENT_REMOVE (a disabled OPP's payload says so, with its voltage),
 * and the registration goes with the table.
 */
static void notifier_last_opp(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *l = fixture_listener_new(test, ctx->dev);

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 200 * HZ_PER_MHZ,
				      fixture_volt_of(200 * HZ_PER_MHZ)), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 400 * HZ_PER_MHZ,
				      fixture_volt_of(400 * HZ_PER_MHZ)), 0);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 200 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 200 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, l->n, 3U);
	fixture_expect_event(test, l, 0, OPP_EVENT_DISABLE, 200 * HZ_PER_MHZ, false);
	fixture_expect_event(test, l, 1, OPP_EVENT_REMOVE, 400 * HZ_PER_MHZ, true);
	fixture_expect_event(test, l, 2, OPP_EVENT_REMOVE, 200 * HZ_PER_MHZ, false);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &l->nb), -ENODEV);
	/* A new table has a new chain: the old listener hears nothing. */
	fixture_add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, l->n, 3U);
	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);
}

/*
 * Listeners are called by priority, then in registration order, and a
 * NOTIFY_STOP ends the call for those after it; the update stands.
 */
static void notifier_order_and_stop(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *first = fixture_listener_new(test, ctx->dev);
	struct fixture_listener *second = fixture_listener_new(test, ctx->dev);
	struct fixture_listener *urgent = fixture_listener_new(test, ctx->dev);
	/* The listeners stay registered until the exit hook: not on stack. */
	unsigned int *clock = kunit_kzalloc(test, sizeof(*clock), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, clock);
	first->clock = clock;
	second->clock = clock;
	urgent->clock = clock;
	urgent->nb.priority = 1;
	fixture_add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &first->nb), 0);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &second->nb), 0);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &urgent->nb), 0);

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, urgent->n, 1U);
	KUNIT_ASSERT_EQ(test, first->n, 1U);
	KUNIT_ASSERT_EQ(test, second->n, 1U);
	KUNIT_EXPECT_EQ(test, urgent->seq[0], 0U);
	KUNIT_EXPECT_EQ(test, first->seq[0], 1U);
	KUNIT_EXPECT_EQ(test, second->seq[0], 2U);

	first->ret = NOTIFY_STOP;
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_EQ(test, urgent->n, 2U);
	KUNIT_EXPECT_EQ(test, first->n, 2U);
	KUNIT_EXPECT_EQ(test, second->n, 1U);
	KUNIT_EXPECT_EQ(test, fixture_find(ctx->dev, FIXTURE_EXACT,
					   400 * HZ_PER_MHZ).rate,
			400 * HZ_PER_MHZ);
}

struct blocking_listener {
	struct notifier_block nb;
	struct completion entered;	/* the callback runs */
	struct completion release;	/* it may return */
	struct completion updated;	/* the update that called it returned */
	struct completion unregistered;
	struct device *dev;
	atomic_t unregister_returned;
	int update_ret, unregister_ret;
};

static int blocking_listen(struct notifier_block *nb, unsigned long event,
			   void *data)
{
	struct blocking_listener *b =
		container_of(nb, struct blocking_listener, nb);

	complete(&b->entered);
	wait_for_completion_timeout(&b->release, 10 * HZ);
	return NOTIFY_OK;
}

static int blocking_updater(void *data)
{
	struct blocking_listener *b = data;

	b->update_ret = opp_disable(b->dev, 400 * HZ_PER_MHZ);
	complete(&b->updated);
	return 0;
}

static int blocking_unregister(void *data)
{
	struct blocking_listener *b = data;

	b->unregister_ret = opp_unregister_notifier(b->dev, &b->nb);
	atomic_set(&b->unregister_returned, 1);
	complete(&b->unregistered);
	return 0;
}

/*
 * opp_unregister_notifier() does not return while the callback runs. A
 * correct library can never fail this; an early return is seen if it
 * comes within the 100 ms the callback is held.
 */
static void notifier_unregister_waits(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct blocking_listener *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	b->nb.notifier_call = blocking_listen;
	b->dev = ctx->dev;
	init_completion(&b->entered);
	init_completion(&b->release);
	init_completion(&b->updated);
	init_completion(&b->unregistered);
	fixture_add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &b->nb), 0);

	t = kthread_run(blocking_updater, b, "opp-ext-update");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&b->entered, 5 * HZ),
			0UL);
	t = kthread_run(blocking_unregister, b, "opp-ext-unreg");
	if (IS_ERR(t))
		complete(&b->release);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	msleep(100);
	KUNIT_EXPECT_FALSE(test, atomic_read(&b->unregister_returned));
	complete(&b->release);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&b->updated, 5 * HZ),
			0UL);
	KUNIT_ASSERT_NE(test,
			wait_for_completion_timeout(&b->unregistered, 5 * HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, b->update_ret, 0);
	KUNIT_EXPECT_EQ(test, b->unregister_ret, 0);
	/* Gone from the chain: the next update calls nothing. */
	reinit_completion(&b->entered);
	KUNIT_EXPECT_EQ(test, opp_enable(ctx->dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_EXPECT_FALSE(test, completion_done(&b->entered));
}

static void dt_table(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
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
	unsigned int bytes;	/* the property's length, if not 4 * n */
};

static const struct dt_case dt_bad[] = {
	{ "empty", {}, 0, -EINVAL },
	{ "odd", { 200000, 900000, 400000 }, 3, -EINVAL },
	{ "single cell", { 200000 }, 1, -EINVAL },
	{ "zero kHz", { 200000, 900000, 0, 950000 }, 4, -EINVAL },
	{ "two voltages", { 200000, 900000, 200000, 950000 }, 4, -EINVAL },
	{ "too fast", { 200000, 900000, 4294968, 1000000 }, 4, -EINVAL },
	{ "ragged length", { 200000, 900000, 400000 }, 3, -EINVAL, 10 },
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
	struct fixture_pair *ctx = test->priv;
	int err = c->err;

	/* 4294968 kHz fits an unsigned long in Hz only on 64-bit. */
	if (c->cells[2] == 4294968 && BITS_PER_LONG == 64)
		err = 0;
	fixture_of_attach(test, ctx->dev, c->cells, c->n);
	if (c->bytes)
		ctx->dev->of_node->properties->length = c->bytes;
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), err);
	if (!err)
		goto out;
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), -ENODEV);

	/* Nor does it touch a table that is there. */
	fixture_add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), err);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 4);
out:
	ctx->dev->of_node = NULL;
}

static void dt_missing(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	static const u32 conflict[] = { 200000, 1, 1000000, 1200000 };

	fixture_of_attach(test, ctx->dev, NULL, 0);
	ctx->dev->of_node->properties = NULL;
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), -ENODEV);

	/* A conflict with the table adds none, not even the new 1 GHz. */
	fixture_add_four(test, ctx->dev);
	fixture_of_attach(test, ctx->dev, conflict, ARRAY_SIZE(conflict));
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), -EEXIST);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 4);
	ctx->dev->of_node = NULL;
}

/*
 * Into a table that is there: the identical OPP counts once, the new ones
 * come in one update, each told as an ADD in rate order, and when the
 * first ADD is told every new OPP is already visible.
 */
static void dt_merge(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *l = fixture_listener_new(test, ctx->dev);
	static const unsigned long fresh[] = {
		300 * HZ_PER_MHZ, 1000 * HZ_PER_MHZ,
	};
	u32 cells[] = {
		1000000, fixture_volt_of(1000 * HZ_PER_MHZ),
		400000, fixture_volt_of(400 * HZ_PER_MHZ),
		300000, fixture_volt_of(300 * HZ_PER_MHZ),
	};
	struct fixture_found f;

	fixture_add_four(test, ctx->dev);
	l->watch = fresh;
	l->nwatch = ARRAY_SIZE(fresh);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);
	fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	KUNIT_EXPECT_EQ(test, opp_of_add_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 6);
	KUNIT_ASSERT_EQ(test, l->n, 2U);
	fixture_expect_event(test, l, 0, OPP_EVENT_ADD, 300 * HZ_PER_MHZ, true);
	fixture_expect_event(test, l, 1, OPP_EVENT_ADD, 1000 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_TRUE_MSG(test, l->watched[0],
			      "the first ADD came before the whole update");
	f = fixture_find(ctx->dev, FIXTURE_CEIL, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 300 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, fixture_volt_of(300 * HZ_PER_MHZ));
	ctx->dev->of_node = NULL;
}

/*
 * The largest frequency in kHz whose rate in Hz an unsigned long holds on
 * 32-bit: 4294967 kHz is 4294967000 Hz (one more is "too fast" above).
 */
static void dt_largest_khz(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	static const u32 cells[] = { 4294967, 1000000 };
	struct opp_info info;

	fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
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
static void dt_clock_latency(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	static const u32 cells[] = { 400000, 1000000, 200000, 900000 };
	unsigned long ours, kernels = 0;
	int ret;

	fixture_of_attach(test, ctx->dev, cells, ARRAY_SIZE(cells));
	fixture_of_add_u32(test, ctx->dev, "clock-latency", 300000);
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
	KUNIT_EXPECT_EQ(test, fixture_count(ctx->dev), 2);
	KUNIT_EXPECT_EQ(test, kernels, 300000UL);
	KUNIT_EXPECT_EQ(test, ours, kernels);
	ctx->dev->of_node = NULL;
}

static struct kunit_case opp_notifier_cases[] = {
	KUNIT_CASE(notifier_events),
	KUNIT_CASE(notifier_registration),
	KUNIT_CASE(notifier_last_opp),
	KUNIT_CASE(notifier_order_and_stop),
	KUNIT_CASE(notifier_unregister_waits),
	{}
};

static struct kunit_suite opp_notifier_suite = {
	.name = "opp_notifier",
	.init = fixture_pair_init,
	.exit = fixture_pair_exit,
	.test_cases = opp_notifier_cases,
};

static struct kunit_case opp_of_cases[] = {
	KUNIT_CASE(dt_table),
	KUNIT_CASE_PARAM(dt_malformed, dt_bad_gen_params),
	KUNIT_CASE(dt_missing),
	KUNIT_CASE(dt_merge),
	KUNIT_CASE(dt_largest_khz),
	KUNIT_CASE(dt_clock_latency),
	{}
};

static struct kunit_suite opp_of_suite = {
	.name = "opp_of",
	.init = fixture_pair_init,
	.exit = fixture_pair_exit,
	.test_cases = opp_of_cases,
};

kunit_test_suites(&opp_notifier_suite, &opp_of_suite);

MODULE_DESCRIPTION("KUnit tests of the OPP library's extensions");
MODULE_LICENSE("GPL");
