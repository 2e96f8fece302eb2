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

/*
 * The level of an OPP that has none (no opp-level, nothing that gives it
 * one): since 6.7 the OPP core keeps U32_MAX (its OPP_LEVEL_UNSET), so
 * that 0 is a level like any other, and its level ceil search refuses a
 * match on an OPP without one (-ENODEV); before, 0 meant none and was
 * matched like any level. The library follows the kernel it runs on.
 */
#if KERNEL_VERSION(6, 7, 0) <= LINUX_VERSION_CODE
#define OPP_LEVEL_NONE	U32_MAX
#else
#define OPP_LEVEL_NONE	0U
#endif

/*
 * Since 6.8 (the rework of genpd's required-opps at the end of 2023) the
 * OPP core gives an OPP without a level of its own, in a table that is
 * not a power domain's and has a single ``required-opps`` into a power
 * domain's table, the level of the OPP it requires. 6.1 does not; 6.12
 * does.
 */
#define OPP_OF_REQUIRED_GENPD_LEVEL \
	(KERNEL_VERSION(6, 8, 0) <= LINUX_VERSION_CODE)

/*
 * What the kernel's own OPP core offers the opp_of_v2 suite to compare
 * against: dev_pm_opp_find_level_floor(), and a
 * dev_pm_opp_get_required_pstate() that gives the required OPP's level
 * (6.1 gives a power domain's translation of it, 0 without genpd). 6.12
 * has both, 6.1 neither; the release in between that brought them is not
 * pinned here, so only 6.12 on compares them.
 */
#define OPP_KERNEL_HAS_LEVEL_FLOOR \
	(KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE)
#define OPP_KERNEL_REQUIRED_PSTATE_IS_LEVEL \
	(KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE)

/*
 * 6.1's genpd asks a power domain's provider to turn an OPP of the
 * domain's table into a performance state (opp_to_performance_state);
 * 6.12's takes the OPP's level and has no such callback. The release in
 * between that dropped it is not pinned here.
 */
#define OPP_GENPD_HAS_OPP_TO_STATE \
	(KERNEL_VERSION(6, 12, 0) > LINUX_VERSION_CODE)

/*
 * An interconnect provider's xlate() takes the phandle's arguments as
 * const in 6.12, not in 6.1 (the release in between is not pinned here).
 */
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
#define OPP_ICC_SPEC_CONST const
#else
#define OPP_ICC_SPEC_CONST
#endif

/*
 * A thermal zone's private data (what its sensor registered it with):
 * thermal_zone_device_priv() since 6.4, which made the zone's structure
 * private to the thermal core; before, the zone's devdata field.
 */
#if KERNEL_VERSION(6, 4, 0) > LINUX_VERSION_CODE
#include <linux/thermal.h>

static inline void *thermal_zone_device_priv(struct thermal_zone_device *tz)
{
	return tz->devdata;
}
#endif

/*
 * The energy model's states. Since 6.9 a performance domain's table may
 * be replaced at run time (em_dev_update_perf_domain()): it is read under
 * rcu_read_lock() through em_perf_state_from_pd(), and each state has a
 * performance (capacity) field. Before, the table was fixed once
 * registered, at pd->table, without that field. opp_em_states(pd) gives
 * the states either way; the caller includes <linux/energy_model.h> and
 * holds rcu_read_lock() (which the older table does not need).
 */
#define OPP_EM_RUNTIME_TABLE \
	(KERNEL_VERSION(6, 9, 0) <= LINUX_VERSION_CODE)
#if OPP_EM_RUNTIME_TABLE
#define opp_em_states(pd)	em_perf_state_from_pd(pd)
#else
#define opp_em_states(pd)	((pd)->table)
#endif

#endif /* _OPP_COMPAT_H */
