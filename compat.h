/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The differences between the kernels this tree builds against (6.1 and
 * 6.12), and nothing else. Each shim names the release that changed the
 * API; the code is written for the newest form.
 */
#ifndef _OPP_COMPAT_H
#define _OPP_COMPAT_H

#include <linux/version.h>

struct cpufreq_policy;

/*
 * cpufreq_driver.exit returns void since 6.11; before, it returned an int
 * that the core ignored. Write the exit callback fn() as a void function;
 * DEFINE_OPP_CPUFREQ_EXIT(fn) defines fn_cb(), of the type this kernel
 * wants, for the driver's .exit.
 */
#if KERNEL_VERSION(6, 11, 0) <= LINUX_VERSION_CODE
#define DEFINE_OPP_CPUFREQ_EXIT(fn)					\
	static void fn##_cb(struct cpufreq_policy *policy)		\
	{								\
		fn(policy);						\
	}
#else
#define DEFINE_OPP_CPUFREQ_EXIT(fn)					\
	static int fn##_cb(struct cpufreq_policy *policy)		\
	{								\
		fn(policy);						\
		return 0;						\
	}
#endif

/*
 * Since 6.2 the OPP core reads opp-microvolt, opp-microamp and
 * opp-microwatt each on its own: any of them on a table's first OPP gives
 * the table a supply, after which an OPP may leave any of them out. 6.1
 * decides on opp-microvolt alone, wants it on every OPP or on none, and
 * reads opp-microamp only beside it. opp_of.c follows the kernel it runs on.
 */
#define OPP_OF_SUPPLY_PROPS_DECOUPLED \
	(KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE)

#endif /* _OPP_COMPAT_H */
