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

noinline unsigned long mainline_ceil(const struct bench_ctx *c,
				      unsigned long iters)
{
	struct device *dev = c->dev;
	const unsigned long *q = c->q;
	unsigned long i, sum = 0;

	for (i = 0; i < iters; i++) {
		unsigned long f = q[i & BENCH_QMASK];
		struct dev_pm_opp *opp;

		opp = dev_pm_opp_find_freq_ceil(dev, &f);
		if (!IS_ERR(opp)) {
			sum += f;
			dev_pm_opp_put(opp);
		}
	}
	return sum;
}

noinline unsigned long mainline_floor(const struct bench_ctx *c,
				       unsigned long iters)
{
	struct device *dev = c->dev;
	const unsigned long *q = c->q;
	unsigned long i, sum = 0;

	for (i = 0; i < iters; i++) {
		unsigned long f = q[i & BENCH_QMASK];
		struct dev_pm_opp *opp;

		opp = dev_pm_opp_find_freq_floor(dev, &f);
		if (!IS_ERR(opp)) {
			sum += f;
			dev_pm_opp_put(opp);
		}
	}
	return sum;
}

noinline unsigned long mainline_exact(const struct bench_ctx *c,
				       unsigned long iters)
{
	struct device *dev = c->dev;
	const unsigned long *q = c->q;
	unsigned long i, sum = 0;

	for (i = 0; i < iters; i++) {
		unsigned long f = q[i & BENCH_QMASK];
		struct dev_pm_opp *opp;

		opp = dev_pm_opp_find_freq_exact(dev, f, true);
		if (!IS_ERR(opp)) {
			sum += f;
			dev_pm_opp_put(opp);
		}
	}
	return sum;
}

noinline unsigned long mainline_toggle(const struct bench_ctx *c,
					unsigned long iters)
{
	unsigned long i, err = 0;

	for (i = 0; i < iters; i++) {
		err |= dev_pm_opp_disable(c->dev, c->freq);
		err |= dev_pm_opp_enable(c->dev, c->freq);
		cond_resched();
	}
	return err;
}

noinline unsigned long mainline_addrm(const struct bench_ctx *c,
				       unsigned long iters)
{
	unsigned long i, err = 0;

	for (i = 0; i < iters; i++) {
		err |= dev_pm_opp_add(c->dev, c->freq, 900000);
		/* void: a missing OPP would be reported by a warning */
		dev_pm_opp_remove(c->dev, c->freq);
		cond_resched();
	}
	return err;
}

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

/* One query: the rate found, or 0. */
unsigned long mainline_find(enum bench_op op, struct device *dev, unsigned long f)
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
