// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small consumer of the OPP library: registers the tables of a CPU and
 * a GPU domain the way board code does, then prints them and answers the
 * lookups a cpufreq or devfreq governor makes. The devices are root
 * devices of its own; the voltages are those of a typical 28 nm SoC.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/units.h>

#include "../opp.h"

struct opp_demo_point {
	unsigned long freq;
	unsigned long u_volt;
};

static const struct opp_demo_point cpu_points[] = {
	{  300 * HZ_PER_MHZ,  900000 }, {  600 * HZ_PER_MHZ,  950000 },
	{  800 * HZ_PER_MHZ, 1000000 }, { 1000 * HZ_PER_MHZ, 1100000 },
	{ 1200 * HZ_PER_MHZ, 1200000 },
};

static const struct opp_demo_point gpu_points[] = {
	{ 200 * HZ_PER_MHZ, 900000 }, { 400 * HZ_PER_MHZ, 950000 },
	{ 533 * HZ_PER_MHZ, 1000000 }, { 650 * HZ_PER_MHZ, 1100000 },
};

static struct device *cpu_dev, *gpu_dev;

static int opp_demo_register(struct device *dev,
			     const struct opp_demo_point *p, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = opp_add(dev, p[i].freq, p[i].u_volt);
		if (ret)
			return ret;
	}
	return 0;
}

static void opp_demo_print(struct device *dev)
{
	unsigned long freq = 0;
	struct opp *opp;

	rcu_read_lock();
	pr_info("%s: %d available OPPs\n", dev_name(dev),
		opp_get_opp_count(dev));
	while (!IS_ERR(opp = opp_find_freq_ceil(dev, &freq))) {
		pr_info("  %5lu MHz  %7lu uV\n", freq / HZ_PER_MHZ,
			opp_get_voltage(opp));
		freq++;
	}
	rcu_read_unlock();
}

/* What a governor asks: the OPP that serves a wanted rate, and the top. */
static void opp_demo_lookups(struct device *dev, unsigned long want)
{
	unsigned long ceil = want, floor = want, top = ULONG_MAX;
	struct opp *opp;

	rcu_read_lock();
	opp = opp_find_freq_ceil(dev, &ceil);
	if (!IS_ERR(opp))
		pr_info("%s: ceil(%lu MHz) = %lu MHz at %lu uV\n", dev_name(dev),
			want / HZ_PER_MHZ, ceil / HZ_PER_MHZ, opp_get_voltage(opp));
	opp = opp_find_freq_floor(dev, &floor);
	if (!IS_ERR(opp))
		pr_info("%s: floor(%lu MHz) = %lu MHz at %lu uV\n",
			dev_name(dev), want / HZ_PER_MHZ, floor / HZ_PER_MHZ,
			opp_get_voltage(opp));
	opp = opp_find_freq_floor(dev, &top);
	if (!IS_ERR(opp))
		pr_info("%s: highest = %lu MHz\n", dev_name(dev), top / HZ_PER_MHZ);
	rcu_read_unlock();
}

static void opp_demo_cpufreq_table(struct device *dev)
{
	struct cpufreq_frequency_table *ft, *pos;
	int ret = opp_init_cpufreq_table(dev, &ft);

	if (ret) {
		pr_err("%s: no cpufreq table: %d\n", dev_name(dev), ret);
		return;
	}
	cpufreq_for_each_entry(pos, ft)
		pr_info("%s: cpufreq[%u] = %u kHz\n", dev_name(dev),
			pos->driver_data, pos->frequency);
	opp_free_cpufreq_table(dev, &ft);
}

static int __init opp_demo_init(void)
{
	int ret;

	cpu_dev = root_device_register("opp-demo-cpu");
	if (IS_ERR(cpu_dev))
		return PTR_ERR(cpu_dev);
	gpu_dev = root_device_register("opp-demo-gpu");
	if (IS_ERR(gpu_dev)) {
		ret = PTR_ERR(gpu_dev);
		goto err_cpu;
	}
	ret = opp_demo_register(cpu_dev, cpu_points, ARRAY_SIZE(cpu_points));
	if (!ret)
		ret = opp_demo_register(gpu_dev, gpu_points,
					ARRAY_SIZE(gpu_points));
	if (ret)
		goto err_tables;

	opp_demo_print(cpu_dev);
	opp_demo_print(gpu_dev);
	opp_demo_lookups(cpu_dev, 700 * HZ_PER_MHZ);
	opp_demo_lookups(gpu_dev, 450 * HZ_PER_MHZ);
	opp_demo_cpufreq_table(cpu_dev);

	pr_info("thermal: too hot, disabling %lu MHz on %s\n",
		cpu_points[4].freq / HZ_PER_MHZ, dev_name(cpu_dev));
	ret = opp_disable(cpu_dev, cpu_points[4].freq);
	if (ret)
		goto err_tables;
	opp_demo_lookups(cpu_dev, 1200 * HZ_PER_MHZ);
	opp_demo_cpufreq_table(cpu_dev);
	pr_info("thermal: cooled down, enabling %lu MHz again\n",
		cpu_points[4].freq / HZ_PER_MHZ);
	ret = opp_enable(cpu_dev, cpu_points[4].freq);
	if (ret)
		goto err_tables;
	opp_demo_lookups(cpu_dev, 1200 * HZ_PER_MHZ);
	return 0;

err_tables:
	opp_remove_table(gpu_dev);
	opp_remove_table(cpu_dev);
	root_device_unregister(gpu_dev);
err_cpu:
	root_device_unregister(cpu_dev);
	return ret;
}
module_init(opp_demo_init);

static void __exit opp_demo_exit(void)
{
	opp_remove_table(gpu_dev);
	opp_remove_table(cpu_dev);
	root_device_unregister(gpu_dev);
	root_device_unregister(cpu_dev);
}
module_exit(opp_demo_exit);

MODULE_DESCRIPTION("OPP library demo: a CPU and a GPU domain");
MODULE_LICENSE("GPL");
