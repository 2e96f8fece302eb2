/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Devices for the KUnit suites: initialised but never registered with the
 * driver core (the library only needs their identity and reference count),
 * with a release hook that counts, so a test can see the last reference go.
 */
#ifndef _OPP_TEST_DEV_H
#define _OPP_TEST_DEV_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/slab.h>

struct opp_test_dev {
	struct device dev;
	atomic_t *released;
};

static inline void opp_test_dev_release(struct device *dev)
{
	struct opp_test_dev *td = container_of(dev, struct opp_test_dev, dev);

	atomic_inc(td->released);
	kfree(td);
}

/* Drop it with put_device(). */
static inline struct device *opp_test_dev_new(struct kunit *test,
					      const char *name,
					      atomic_t *released)
{
	struct opp_test_dev *td = kzalloc(sizeof(*td), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, td);
	device_initialize(&td->dev);
	td->dev.release = opp_test_dev_release;
	td->released = released;
	KUNIT_ASSERT_EQ(test, dev_set_name(&td->dev, "%s", name), 0);
	return &td->dev;
}

#endif /* _OPP_TEST_DEV_H */
