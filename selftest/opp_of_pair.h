/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two devices on one consumer node of selftest/opp_of_v2.dtso, for the
 * suites that read a node with this library and with the kernel's OPP
 * core and compare (opp_of_v2, opp_of_multi, opp_em): "ours", whose table
 * this library reads, and "kernels", whose table the kernel's core reads.
 * The harness applies the overlay to the guest's tree before boot; a case
 * takes its node by name from under /opp-of-v2.
 *
 * The suite's init makes both devices and its exit takes the tables and
 * then the pair: of_pair_remove_tables(), what else the suite set up,
 * of_pair_put(). of_pair_node() alone serves any suite that takes a node
 * of the overlay (opp_sharing's devices each have their own).
 */
#ifndef _OPP_OF_PAIR_H
#define _OPP_OF_PAIR_H

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/of.h>
#include <linux/pm_opp.h>

#include "../opp.h"

#define OF_PAIR_ROOT	"/opp-of-v2"

/* The node /opp-of-v2/@name, with a reference the caller puts. */
static inline struct device_node *of_pair_node(struct kunit *test,
					       const char *name)
{
	struct device_node *root, *np;

	root = of_find_node_by_path(OF_PAIR_ROOT);
	KUNIT_ASSERT_NOT_NULL_MSG(test, root,
				  "no %s in the live tree: boot with selftest/opp_of_v2.dtso applied",
				  OF_PAIR_ROOT);
	np = of_get_child_by_name(root, name);
	of_node_put(root);
	KUNIT_ASSERT_NOT_NULL_MSG(test, np, "no %s/%s", OF_PAIR_ROOT, name);
	return np;
}

/*
 * Give both devices the node @name. The caller keeps its reference for
 * of_pair_put(): the devices do not hold one of their own.
 */
static inline struct device_node *of_pair_attach(struct kunit *test,
						 struct device *ours,
						 struct device *kernels,
						 const char *name)
{
	struct device_node *np = of_pair_node(test, name);

	ours->of_node = np;
	kernels->of_node = np;
	return np;
}

/*
 * Whatever tables a case left, and this library's configuration (none
 * set: nothing to clear). A configuration of the kernel's core stays for
 * the caller to clear after this: the core needs it until its table goes.
 */
static inline void of_pair_remove_tables(struct device *ours,
					 struct device *kernels)
{
	opp_remove_table(ours);
	opp_clear_config(ours);
	dev_pm_opp_of_remove_table(kernels);
}

/*
 * The node's reference, then the devices: neither may point at the node
 * once it is put, whoever still holds a device then.
 */
static inline void of_pair_put(struct device *ours, struct device *kernels,
			       struct device_node *np)
{
	ours->of_node = NULL;
	kernels->of_node = NULL;
	of_node_put(np);
	put_device(ours);
	put_device(kernels);
}

#endif /* _OPP_OF_PAIR_H */
