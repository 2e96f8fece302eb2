// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's unload path: tables that users never removed.
 *
 * Loading this module gives a device a table, with a disabled OPP and a
 * notifier registered, and checks them; unloading it unregisters the
 * device and leaves both behind on purpose. The library must then free
 * them when it is unloaded itself (opp_exit()): its table, array and
 * notifier chain, and its reference on the device, whose release frees
 * the device. The harness unloads this module, then the library, then
 * takes its kmemleak scans: whatever opp_exit() forgot is a leak there.
 *
 * What is left behind must not depend on this module's memory once it is
 * gone: the device is a root device (its release is the driver core's)
 * and the notifier block is device-managed memory, freed with the device,
 * after the library freed the chain that points to it. Its callback, here,
 * is never called again: nothing else knows the device.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/notifier.h>

#include "opp_fixture.h"

static struct device *leftover_dev;

static int leftover_listen(struct notifier_block *nb, unsigned long event,
			   void *data)
{
	return NOTIFY_OK;
}

static void leftover_table(struct kunit *test)
{
	struct notifier_block *nb;
	struct device *dev;

	/*
	 * No owner: 6.1 runs the suite before the module's sysfs directory
	 * exists, which the owner's "module" link would point to.
	 */
	dev = __root_device_register("opp-leftover", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	leftover_dev = dev;
	nb = devm_kzalloc(dev, sizeof(*nb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nb);
	nb->notifier_call = leftover_listen;
	KUNIT_ASSERT_EQ(test, opp_add(dev, 300 * HZ_PER_MHZ, 900000), 0);
	KUNIT_ASSERT_EQ(test, opp_add(dev, 600 * HZ_PER_MHZ, 1000000), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(dev, 300 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(dev, nb), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(dev), 1);
	KUNIT_EXPECT_EQ(test, fixture_find(dev, FIXTURE_FLOOR, ULONG_MAX).rate,
			600 * HZ_PER_MHZ);
}

static struct kunit_case leftover_cases[] = {
	KUNIT_CASE(leftover_table),
	{}
};

static struct kunit_suite leftover_suite = {
	.name = "opp_leftover",
	.test_cases = leftover_cases,
};

kunit_test_suite(leftover_suite);

static void __exit opp_leftover_exit(void)
{
	/* Gone from sysfs; the library's reference keeps it until opp_exit(). */
	if (!IS_ERR_OR_NULL(leftover_dev))
		root_device_unregister(leftover_dev);
}
module_exit(opp_leftover_exit);

MODULE_DESCRIPTION("Leaves an OPP table behind for the library's unload path");
MODULE_LICENSE("GPL");
