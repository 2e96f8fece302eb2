// SPDX-License-Identifier: GPL-2.0-only
/*
 * opp_bench, mainline's side: the kernel's OPP core (drivers/opp), called
 * as its users must: every OPP a search returns is put back with
 * dev_pm_opp_put().
 */

#include <linux/err.h>
#include <linux/pm_opp.h>
#include <linux/sched.h>

#include "opp_bench.h"

/* One query: the rate found, or 0. */
static __always_inline unsigned long
mainline_find_one(enum bench_op op, struct device *dev, unsigned long f)
{
	struct dev_pm_opp *opp;

	if (op == OP_CEIL)
		opp = dev_pm_opp_find_freq_ceil(dev, &f);
	else if (op == OP_FLOOR)
		opp = dev_pm_opp_find_freq_floor(dev, &f);
	else
		opp = dev_pm_opp_find_freq_exact(dev, f, true);
	if (IS_ERR(opp))
		return 0;
	dev_pm_opp_put(opp);
	return f;
}

DEFINE_BENCH_LOOKUPS(mainline, mainline_find_one)

/*
 * dev_pm_opp_remove() returns nothing (a missing OPP is reported by a
 * warning): 0 for the update loop, which the compiler folds away.
 */
static __always_inline int mainline_remove_one(struct device *dev,
					       unsigned long f)
{
	dev_pm_opp_remove(dev, f);
	return 0;
}

DEFINE_BENCH_UPDATES(mainline, dev_pm_opp_disable, dev_pm_opp_enable,
		     dev_pm_opp_add, mainline_remove_one)

int mainline_add(struct device *dev, unsigned long freq, unsigned long u_volt)
{
	return dev_pm_opp_add(dev, freq, u_volt);
}

/*
 * dev_pm_opp_remove_table() removes only the OPPs parsed from DT; those
 * added with dev_pm_opp_add() go with dev_pm_opp_remove_all_dynamic(),
 * which frees the table with its last OPP.
 */
void mainline_remove_table(struct device *dev)
{
	dev_pm_opp_remove_all_dynamic(dev);
}

int mainline_set_available(struct device *dev, unsigned long freq, bool on)
{
	return on ? dev_pm_opp_enable(dev, freq) :
		    dev_pm_opp_disable(dev, freq);
}

unsigned long mainline_find(enum bench_op op, struct device *dev, unsigned long f)
{
	return mainline_find_one(op, dev, f);
}

/*
 * The address of the OPP at @freq, or 0; only an address to size its
 * allocation by: the table must not change while it is used.
 */
unsigned long mainline_opp_addr(struct device *dev, unsigned long freq)
{
	struct dev_pm_opp *opp = dev_pm_opp_find_freq_exact(dev, freq, true);

	if (IS_ERR(opp))
		return 0;
	dev_pm_opp_put(opp);
	return (unsigned long)opp;
}

DEFINE_BENCH_SET_RATES(mainline, dev_pm_opp_set_rate)

/*
 * The device's supply by name ("vdd", as the tests' regulator provider
 * names every supply it serves), as a driver names it; its clock the core
 * gets itself (clk_get(dev, NULL)). Returns the configuration's token,
 * or an error.
 */
int mainline_set_config(struct device *dev)
{
	static const char * const names[] = { "vdd", NULL };
	struct dev_pm_opp_config cfg = { .regulator_names = names };

	return dev_pm_opp_set_config(dev, &cfg);
}

void mainline_clear_config(int token)
{
	dev_pm_opp_clear_config(token);
}

int mainline_of_add_table(struct device *dev)
{
	return dev_pm_opp_of_add_table(dev);
}

void mainline_of_remove_table(struct device *dev)
{
	dev_pm_opp_of_remove_table(dev);
}

int mainline_opp_count(struct device *dev)
{
	return dev_pm_opp_get_opp_count(dev);
}

/* The address of the first OPP at or above *@freq, or 0; *@freq its rate. */
unsigned long mainline_find_ceil_addr(struct device *dev, unsigned long *freq)
{
	struct dev_pm_opp *opp = dev_pm_opp_find_freq_ceil(dev, freq);

	if (IS_ERR(opp))
		return 0;
	dev_pm_opp_put(opp);
	return (unsigned long)opp;
}
