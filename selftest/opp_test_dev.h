/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixtures shared by the KUnit suites.
 *
 * Devices: initialised but never registered with the driver core (the
 * library only needs their identity and reference count), with a release
 * hook that counts, so a test can see the last reference go.
 *
 * Searches: run under RCU with their outcome copied out, and checked after
 * the unlock, because a failing KUnit check allocates memory, which an RCU
 * reader must not.
 */
#ifndef _OPP_TEST_DEV_H
#define _OPP_TEST_DEV_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"

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

enum opp_test_how {
	OPP_TEST_CEIL,
	OPP_TEST_FLOOR,
	OPP_TEST_EXACT,		/* an available OPP */
	OPP_TEST_EXACT_OFF,	/* a disabled OPP */
};

struct opp_test_found {
	struct opp *opp;	/* only compared, never read: RCU is over */
	unsigned long freq;	/* *freq after a ceil or floor search */
	unsigned long rate;	/* opp_get_freq() */
	unsigned long volt;	/* opp_get_voltage() */
};

static inline struct opp_test_found opp_test_find(struct device *dev,
						  enum opp_test_how how,
						  unsigned long freq)
{
	struct opp_test_found f = { .freq = freq };

	rcu_read_lock();
	if (how == OPP_TEST_CEIL)
		f.opp = opp_find_freq_ceil(dev, &f.freq);
	else if (how == OPP_TEST_FLOOR)
		f.opp = opp_find_freq_floor(dev, &f.freq);
	else
		f.opp = opp_find_freq_exact(dev, freq, how == OPP_TEST_EXACT);
	f.rate = opp_get_freq(f.opp);
	f.volt = opp_get_voltage(f.opp);
	rcu_read_unlock();
	return f;
}

static inline int opp_test_count(struct device *dev)
{
	int count;

	rcu_read_lock();
	count = opp_get_opp_count(dev);
	rcu_read_unlock();
	return count;
}

#endif /* _OPP_TEST_DEV_H */
