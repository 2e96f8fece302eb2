// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's notifiers (opp.c): suite opp_notifier.
 * The events each update sends and when (after the change is visible, in
 * order, none for what changes nothing), registration and its errors,
 * the chain's end with its table, priorities and NOTIFY_STOP, and an
 * unregistration that waits for a running callback.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_test_helpers.h"

static void opp_notifier_events(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *l = opp_test_fixture_listener_new(test, ctx->dev);

	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 1000 * HZ_PER_MHZ,
				      opp_test_fixture_volt_of(1000 * HZ_PER_MHZ)), 0);
	/* No change, no event. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 1000 * HZ_PER_MHZ,
				      opp_test_fixture_volt_of(1000 * HZ_PER_MHZ)), 0);
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 200 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 600 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 200 * HZ_PER_MHZ), 0);
	/* Errors send nothing either. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 400 * HZ_PER_MHZ, 1), -EEXIST);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 300 * HZ_PER_MHZ), -ENODEV);

	KUNIT_ASSERT_EQ(test, l->n, 4U);
	opp_test_fixture_expect_event(test, l, 0, OPP_EVENT_ADD, 1000 * HZ_PER_MHZ, true);
	opp_test_fixture_expect_event(test, l, 1, OPP_EVENT_DISABLE, 600 * HZ_PER_MHZ, false);
	opp_test_fixture_expect_event(test, l, 2, OPP_EVENT_ENABLE, 600 * HZ_PER_MHZ, true);
	opp_test_fixture_expect_event(test, l, 3, OPP_EVENT_REMOVE, 200 * HZ_PER_MHZ, true);

	/* A removed table tells of each OPP and takes the registration. */
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_ASSERT_EQ(test, l->n, 8U);
	opp_test_fixture_expect_event(test, l, 4, OPP_EVENT_REMOVE, 400 * HZ_PER_MHZ, true);
	opp_test_fixture_expect_event(test, l, 7, OPP_EVENT_REMOVE, 1000 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &l->nb), -ENODEV);
	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, l->n, 8U);
}

static void opp_notifier_registration(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *a = opp_test_fixture_listener_new(test, ctx->dev);
	struct fixture_listener *b = opp_test_fixture_listener_new(test, ctx->dev);

	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->dev, &a->nb), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_register_notifier(NULL, &a->nb), -EINVAL);
	opp_test_fixture_add_four(test, ctx->dev);
	opp_test_fixture_add_four(test, ctx->other);
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
static void opp_notifier_last_opp(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *l = opp_test_fixture_listener_new(test, ctx->dev);

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 200 * HZ_PER_MHZ,
				      opp_test_fixture_volt_of(200 * HZ_PER_MHZ)), 0);
	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 400 * HZ_PER_MHZ,
				      opp_test_fixture_volt_of(400 * HZ_PER_MHZ)), 0);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 200 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 400 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 200 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, l->n, 3U);
	opp_test_fixture_expect_event(test, l, 0, OPP_EVENT_DISABLE, 200 * HZ_PER_MHZ, false);
	opp_test_fixture_expect_event(test, l, 1, OPP_EVENT_REMOVE, 400 * HZ_PER_MHZ, true);
	opp_test_fixture_expect_event(test, l, 2, OPP_EVENT_REMOVE, 200 * HZ_PER_MHZ, false);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->dev), -ENODEV);
	KUNIT_EXPECT_EQ(test, opp_unregister_notifier(ctx->dev, &l->nb), -ENODEV);
	/* A new table has a new chain: the old listener hears nothing. */
	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_EXPECT_EQ(test, l->n, 3U);
	KUNIT_EXPECT_EQ(test, opp_register_notifier(ctx->dev, &l->nb), 0);
}

/*
 * Listeners are called by priority, then in registration order, and a
 * NOTIFY_STOP ends the call for those after it; the update stands.
 */
static void opp_notifier_order_and_stop(struct kunit *test)
{
	struct fixture_pair *ctx = test->priv;
	struct fixture_listener *first = opp_test_fixture_listener_new(test, ctx->dev);
	struct fixture_listener *second = opp_test_fixture_listener_new(test, ctx->dev);
	struct fixture_listener *urgent = opp_test_fixture_listener_new(test, ctx->dev);
	/* The listeners stay registered until the exit hook: not on stack. */
	unsigned int *clock = kunit_kzalloc(test, sizeof(*clock), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, clock);
	first->clock = clock;
	second->clock = clock;
	urgent->clock = clock;
	urgent->nb.priority = 1;
	opp_test_fixture_add_four(test, ctx->dev);
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
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(ctx->dev, FIXTURE_EXACT,
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
static void opp_notifier_unregister_waits(struct kunit *test)
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
	opp_test_fixture_add_four(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev, &b->nb), 0);

	t = kthread_run(blocking_updater, b, "opp-nb-update");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&b->entered, 5 * HZ),
			0UL);
	t = kthread_run(blocking_unregister, b, "opp-nb-unreg");
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

static struct kunit_case opp_notifier_cases[] = {
	KUNIT_CASE(opp_notifier_events),
	KUNIT_CASE(opp_notifier_registration),
	KUNIT_CASE(opp_notifier_last_opp),
	KUNIT_CASE(opp_notifier_order_and_stop),
	KUNIT_CASE(opp_notifier_unregister_waits),
	{}
};

static struct kunit_suite opp_notifier_suite = {
	.name = "opp_notifier",
	.init = fixture_pair_init,
	.exit = opp_test_fixture_pair_exit,
	.test_cases = opp_notifier_cases,
};

kunit_test_suite(opp_notifier_suite);

MODULE_DESCRIPTION("KUnit: the OPP library's notifiers");
MODULE_LICENSE("GPL");
