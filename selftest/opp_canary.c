// SPDX-License-Identifier: GPL-2.0-only
/*
 * The harness self-check: a KUnit suite that must make the verdict fail.
 * With warn=0 one case fails an expectation against the library; with
 * warn=1 it also raises a kernel warning, which panic_on_warn turns into a
 * crashed guest. Never loaded by a passing run.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_kunit_params.h"

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "also raise a kernel warning");

static bool sleep_in_atomic;
module_param(sleep_in_atomic, bool, 0444);
MODULE_PARM_DESC(sleep_in_atomic,
		 "also call an updater under rcu_read_lock(), which its might_sleep() reports");

static void opp_canary_release(struct device *dev)
{
	kfree(dev);
}

static void opp_canary_wrong_ceil(struct kunit *test)
{
	struct device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	unsigned long freq = 1;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	/* 6.1 runs the suite before it applies warn=1: apply it here. */
	KUNIT_ASSERT_EQ(test, opp_kunit_apply_params(THIS_MODULE), 0);
	device_initialize(dev);
	dev->release = opp_canary_release;
	KUNIT_ASSERT_EQ(test, opp_add(dev, 100000000, 900000), 0);
	rcu_read_lock();
	opp_find_freq_ceil(dev, &freq);
	rcu_read_unlock();
	/* Deliberately wrong: the ceil of 1 Hz is the 100 MHz OPP. */
	KUNIT_EXPECT_EQ(test, freq, 1UL);
	if (sleep_in_atomic) {
		/*
		 * The misuse every updater's might_sleep() exists for: with
		 * CONFIG_DEBUG_ATOMIC_SLEEP it prints "BUG: sleeping function
		 * called from invalid context", and the verdict must fail.
		 */
		rcu_read_lock();
		opp_disable(dev, 100000000);
		rcu_read_unlock();
	}
	opp_remove_table(dev);
	put_device(dev);
	WARN(warn, "opp_canary: deliberate warning for the harness self-check\n");
}

static void opp_canary_passes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, opp_get_freq(NULL), 0UL);
}

static struct kunit_case opp_canary_cases[] = {
	KUNIT_CASE(opp_canary_wrong_ceil),
	KUNIT_CASE(opp_canary_passes),
	{}
};

static struct kunit_suite opp_canary_suite = {
	.name = "opp_harness_canary",
	.test_cases = opp_canary_cases,
};

kunit_test_suite(opp_canary_suite);

MODULE_DESCRIPTION("OPP harness self-check: fails on purpose");
MODULE_LICENSE("GPL");
