// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's unload path (opp.c, opp_exit()): tables that users never
 * removed. Suite opp_leftover.
 *
 * Loading this module gives a device a table, with a disabled OPP and a
 * notifier chain (a notifier registered), and checks them; unloading it
 * unregisters the notifier and the device and leaves the table, with its
 * now empty chain, behind on purpose. The library must then free them
 * when it is unloaded itself (opp_exit()): the table, its array, its
 * chain head, and its reference on the device, whose release frees the
 * device. The harness unloads this module, then the library, then takes
 * its kmemleak scans: whatever opp_exit() forgot is a leak there.
 *
 * What is left behind must not point into memory that goes before the
 * library does: the device is a root device (its release is the driver
 * core's), and the notifier block leaves the chain before the device's
 * unregistration frees it (device-managed memory goes in device_del()):
 * the library walks every chain when a notifier registers, as the
 * cpufreq sample's does after this module is gone.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/notifier.h>

#include "opp_test_helpers.h"

static struct device *leftover_dev;
static struct notifier_block *leftover_nb;

static int leftover_listen(struct notifier_block *nb, unsigned long event,
			   void *data)
{
	return NOTIFY_OK;
}

static void opp_leftover_table(struct kunit *test)
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
	leftover_nb = nb;
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(dev), 1);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_find(dev, FIXTURE_FLOOR, ULONG_MAX).rate,
			600 * HZ_PER_MHZ);
}

static struct kunit_case leftover_cases[] = {
	KUNIT_CASE(opp_leftover_table),
	{}
};

static struct kunit_suite leftover_suite = {
	.name = "opp_leftover",
	.test_cases = leftover_cases,
};

kunit_test_suite(leftover_suite);

static void __exit opp_leftover_exit(void)
{
	if (IS_ERR_OR_NULL(leftover_dev))
		return;
	if (leftover_nb)
		WARN_ON(opp_unregister_notifier(leftover_dev, leftover_nb));
	/* Gone from sysfs; the library's reference keeps it until opp_exit(). */
	root_device_unregister(leftover_dev);
}
module_exit(opp_leftover_exit);

MODULE_DESCRIPTION("Leaves an OPP table behind for the library's unload path");
MODULE_LICENSE("GPL");
