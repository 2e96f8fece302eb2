// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test providers for the cpufreq sample's clusters on the emulated
 * vexpress-a9 board: what that board cannot program from software.
 *
 * A cluster is the set of CPUs whose device tree nodes point at one
 * operating-points-v2 table. Each cluster gets:
 *
 * - a voltage regulator, "opp-vdd-clusterN", the supply "cpu" of each of
 *   its CPUs (regulator_get_optional(cpu_dev, "cpu")): the board's own
 *   rails (arm,vexpress-volt) are read-only in QEMU;
 * - if its CPUs' nodes have no "clocks", a clock, "opp-clk-clusterN",
 *   found by those CPUs through a clkdev lookup (clk_get(cpu_dev, NULL)).
 *   The board has one programmable oscillator that nothing else in the
 *   guest uses (extsaxiclk, given to the first cluster by the harness),
 *   not one for each cluster.
 *
 * Besides, the board has no temperature sensor: a platform driver binds
 * the device tree node "opp,thermal-sensor-test" (the clusters' overlay,
 * samples/opp_cpufreq_clusters.dtso, has one, with #thermal-sensor-cells
 * = <1>) and registers, with the thermal framework, each of its channels
 * that a thermal zone of the device tree reads (devm_thermal_of_zone_
 * register()). The temperature is whatever the test last wrote.
 *
 * Real frameworks, simulated hardware: the selftests' providers
 * (opp_test_helpers.h), each of which keeps the value last set (read back
 * through clk_get_rate() and regulator_get_voltage(), so
 * /sys/kernel/debug/clk and /sys/class/regulator show it) and counts its
 * calls. debugfs opp_cluster_providers/clusterN/: "calls" (0400), and
 * "fail_voltage" (0600): a negative errno written there fails every later
 * voltage change with it, until 0 is written. The clock has no such knob:
 * the scenario fails a transition through its voltage.
 *
 * debugfs opp_cluster_providers/thermal/tempN (0600): channel N's
 * temperature in millicelsius (40000 at first). A write sets it and has
 * the thermal core evaluate the channel's zone before it returns, as a
 * sensor's alert interrupt would: the zones poll nothing, so the zone
 * moves only when the test says, and the cooling state it picks is set by
 * the time the write returns. Values outside the binding's range of trip
 * temperatures (-273000 to 200000) are refused with -EINVAL.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/thermal.h>
#include <linux/units.h>

#include "../compat.h"
#include "opp_test_helpers.h"

#define PROV_MAX_CLUSTERS	4
#define PROV_UV_MIN		700000
#define PROV_UV_MAX		1300000
#define PROV_UV_BOOT		1000000
#define PROV_HZ_MIN		(10 * HZ_PER_MHZ)
#define PROV_HZ_MAX		(2000 * HZ_PER_MHZ)
/* Below any table: the sample's first change starts from an unknown OPP. */
#define PROV_HZ_BOOT		(100 * HZ_PER_MHZ)

/* The sensor's channels; those no zone reads are left unregistered. */
#define PROV_SENSOR_CHANNELS	4
#define PROV_TEMP_MIN		(-273000)
#define PROV_TEMP_MAX		200000
/* Below every trip of the overlay: nothing throttles until a test heats. */
#define PROV_TEMP_BOOT		40000

struct prov_cluster {
	struct device_node *table;	/* the CPUs' operating-points-v2 node */
	char name[16];
	char vdd_name[24];
	char clk_name[24];
	const char *cpus[NR_CPUS + 1];	/* its CPUs' device names */
	unsigned int nr_cpus;
	bool has_clk;
	struct provider p;		/* its regulator and clock */
};

struct prov_sensor {
	struct thermal_zone_device *tz;	/* NULL: no zone reads the channel */
	int temp;			/* millicelsius */
};

struct prov_thermal {
	struct prov_sensor ch[PROV_SENSOR_CHANNELS];
	struct dentry *dir;
};

static struct device *prov_dev;
static struct prov_cluster *clusters;
static unsigned int nr_clusters;
static struct dentry *prov_debugfs;

static int calls_show(struct seq_file *s, void *unused)
{
	struct prov_cluster *c = s->private;
	unsigned long flags;

	spin_lock_irqsave(&c->p.lock, flags);
	seq_printf(s, "voltage %lu\nclock %lu\n", c->p.volt_calls, c->p.clk_calls);
	spin_unlock_irqrestore(&c->p.lock, flags);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(calls);

/* A fail file holds 0, or the negative errno the next changes fail with. */
static int prov_fail_get(int *fail, u64 *val)
{
	*val = (u64)(s64)READ_ONCE(*fail);
	return 0;
}

/* Anything but 0 or a negative errno is refused and changes nothing. */
static int prov_fail_set(struct prov_cluster *c, int *fail, u64 val)
{
	s64 err = (s64)val;
	unsigned long flags;

	if (err > 0 || err < -MAX_ERRNO)
		return -EINVAL;
	spin_lock_irqsave(&c->p.lock, flags);
	*fail = err;
	spin_unlock_irqrestore(&c->p.lock, flags);
	return 0;
}

static int prov_fail_voltage_get(void *data, u64 *val)
{
	return prov_fail_get(&((struct prov_cluster *)data)->p.fail_volt, val);
}

static int prov_fail_voltage_set(void *data, u64 val)
{
	struct prov_cluster *c = data;

	return prov_fail_set(c, &c->p.fail_volt, val);
}
DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(prov_fail_voltage_fops, prov_fail_voltage_get,
				prov_fail_voltage_set, "%lld\n");

static int prov_get_temp(struct thermal_zone_device *tz, int *temp)
{
	struct prov_sensor *ch = thermal_zone_device_priv(tz);

	*temp = READ_ONCE(ch->temp);
	return 0;
}

static const struct thermal_zone_device_ops prov_thermal_ops = {
	.get_temp = prov_get_temp,
};

static int prov_temp_get(void *data, u64 *val)
{
	struct prov_sensor *ch = data;

	*val = (u64)(s64)READ_ONCE(ch->temp);
	return 0;
}

static int prov_temp_set(void *data, u64 val)
{
	struct prov_sensor *ch = data;
	s64 temp = (s64)val;

	if (temp < PROV_TEMP_MIN || temp > PROV_TEMP_MAX)
		return -EINVAL;
	WRITE_ONCE(ch->temp, (int)temp);
	/* The zone moves now, not at a poll: see the header. */
	thermal_zone_device_update(ch->tz, THERMAL_EVENT_TEMP_SAMPLE);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(prov_temp_fops, prov_temp_get, prov_temp_set,
				"%lld\n");

static void prov_thermal_debugfs_remove(void *dir)
{
	debugfs_remove_recursive(dir);
}

/*
 * Each channel that a zone reads gets that zone. Everything is device
 * managed and undone in reverse order on unbind: the temperature files
 * first (their removal waits for a write in progress), then the zones.
 */
static int prov_thermal_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct prov_thermal *th;
	struct prov_sensor *ch;
	unsigned int i, n = 0;
	char name[16];

	th = devm_kzalloc(dev, sizeof(*th), GFP_KERNEL);
	if (!th)
		return -ENOMEM;
	for (i = 0; i < PROV_SENSOR_CHANNELS; i++) {
		ch = &th->ch[i];
		ch->temp = PROV_TEMP_BOOT;
		ch->tz = devm_thermal_of_zone_register(dev, i, ch,
						       &prov_thermal_ops);
		if (IS_ERR(ch->tz)) {
			int ret = PTR_ERR(ch->tz);

			ch->tz = NULL;
			/* -ENODEV: no zone reads this channel. */
			if (ret != -ENODEV)
				return dev_err_probe(dev, ret,
						     "channel %u's zone\n", i);
			continue;
		}
		n++;
	}
	if (!n)
		return dev_err_probe(dev, -ENODEV,
				     "no thermal zone reads this sensor\n");

	th->dir = debugfs_create_dir("thermal", prov_debugfs);
	for (i = 0; i < PROV_SENSOR_CHANNELS; i++) {
		if (!th->ch[i].tz)
			continue;
		snprintf(name, sizeof(name), "temp%u", i);
		debugfs_create_file_unsafe(name, 0600, th->dir, &th->ch[i],
					   &prov_temp_fops);
	}
	dev_info(dev, "%u channels, each read by a thermal zone\n", n);
	return devm_add_action_or_reset(dev, prov_thermal_debugfs_remove,
					th->dir);
}

static const struct of_device_id prov_thermal_of_match[] = {
	{ .compatible = "opp,thermal-sensor-test" },
	{ }
};
MODULE_DEVICE_TABLE(of, prov_thermal_of_match);

static struct platform_driver prov_thermal_driver = {
	.probe = prov_thermal_probe,
	.driver = {
		.name = "opp-thermal-sensor-test",
		.of_match_table = prov_thermal_of_match,
	},
};

/* The cluster of @table, added if it is new; NULL when there are too many. */
static struct prov_cluster *prov_cluster_of(struct device_node *table)
{
	struct prov_cluster *c;
	unsigned int i;

	for (i = 0; i < nr_clusters; i++)
		if (clusters[i].table == table)
			return &clusters[i];
	if (nr_clusters == PROV_MAX_CLUSTERS)
		return NULL;
	c = &clusters[nr_clusters];
	c->table = of_node_get(table);
	snprintf(c->name, sizeof(c->name), "cluster%u", nr_clusters);
	snprintf(c->vdd_name, sizeof(c->vdd_name), "opp-vdd-cluster%u",
		 nr_clusters);
	snprintf(c->clk_name, sizeof(c->clk_name), "opp-clk-cluster%u",
		 nr_clusters);
	opp_test_provider_init(&c->p, PROV_HZ_BOOT, PROV_UV_BOOT);
	c->p.rate_min = PROV_HZ_MIN;
	c->p.rate_max = PROV_HZ_MAX;
	nr_clusters++;
	return c;
}

/* Sort the CPUs into clusters by their table node; note who needs a clock. */
static int prov_find_clusters(void)
{
	struct device_node *np, *table;
	struct prov_cluster *c;
	struct device *dev;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		dev = get_cpu_device(cpu);
		np = dev ? of_node_get(dev->of_node) : NULL;
		if (!np)
			continue;
		table = of_parse_phandle(np, "operating-points-v2", 0);
		if (!table) {
			of_node_put(np);
			continue;
		}
		c = prov_cluster_of(table);
		of_node_put(table);
		if (!c) {
			of_node_put(np);
			pr_err("more than %d operating-points-v2 tables\n",
			       PROV_MAX_CLUSTERS);
			return -E2BIG;
		}
		c->cpus[c->nr_cpus++] = dev_name(dev);
		if (!of_find_property(np, "clocks", NULL))
			c->has_clk = true;
		of_node_put(np);
	}
	if (!nr_clusters) {
		pr_err("no CPU has an operating-points-v2 table\n");
		return -ENODEV;
	}
	return 0;
}

/* A cluster's regulator, the supply "cpu" of each of its CPUs. */
static int prov_register_regulator(struct prov_cluster *c)
{
	static const char * const cpu[] = { "cpu", NULL };

	return opp_test_provider_rail_register(&c->p, prov_dev, c->vdd_name, PROV_UV_MIN,
					       PROV_UV_MAX, cpu, c->cpus);
}

/* The clock, found by each of the cluster's CPUs under any name. */
static int prov_register_clock(struct prov_cluster *c)
{
	return opp_test_provider_clock_register(&c->p, prov_dev, c->clk_name, NULL,
						c->cpus);
}

static void prov_unregister(void)
{
	struct prov_cluster *c;
	unsigned int i;

	for (i = 0; i < nr_clusters; i++) {
		c = &clusters[i];
		opp_test_provider_clock_unregister(&c->p);
		opp_test_provider_rail_unregister(&c->p);
		of_node_put(c->table);
	}
	kfree(clusters);
	root_device_unregister(prov_dev);
}

static int __init opp_cluster_providers_init(void)
{
	struct prov_cluster *c;
	struct dentry *dir;
	unsigned int i;
	int ret;

	clusters = kcalloc(PROV_MAX_CLUSTERS, sizeof(*clusters), GFP_KERNEL);
	if (!clusters)
		return -ENOMEM;
	prov_dev = root_device_register(KBUILD_MODNAME);
	if (IS_ERR(prov_dev)) {
		kfree(clusters);
		return PTR_ERR(prov_dev);
	}
	ret = prov_find_clusters();
	for (i = 0; !ret && i < nr_clusters; i++) {
		c = &clusters[i];
		ret = prov_register_regulator(c);
		if (!ret && c->has_clk)
			ret = prov_register_clock(c);
	}
	if (ret) {
		pr_err("cannot register the providers: %d\n", ret);
		prov_unregister();
		return ret;
	}

	prov_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (i = 0; i < nr_clusters; i++) {
		c = &clusters[i];
		dir = debugfs_create_dir(c->name, prov_debugfs);
		debugfs_create_file("calls", 0400, dir, c, &calls_fops);
		debugfs_create_file_unsafe("fail_voltage", 0600, dir, c,
					   &prov_fail_voltage_fops);
		pr_info("%s: supply \"cpu\" of %u CPUs%s%s\n", c->vdd_name,
			c->nr_cpus,
			c->has_clk ? ", and their clock " : "",
			c->has_clk ? c->clk_name : "");
	}

	/* Binds now if the tree has the sensor: after prov_debugfs. */
	ret = platform_driver_register(&prov_thermal_driver);
	if (ret) {
		pr_err("cannot register the thermal sensor driver: %d\n", ret);
		debugfs_remove_recursive(prov_debugfs);
		prov_unregister();
	}
	return ret;
}
module_init(opp_cluster_providers_init);

static void __exit opp_cluster_providers_exit(void)
{
	platform_driver_unregister(&prov_thermal_driver);
	debugfs_remove_recursive(prov_debugfs);
	prov_unregister();
}
module_exit(opp_cluster_providers_exit);

MODULE_DESCRIPTION("Test clock, regulator and thermal sensor providers for the OPP cpufreq sample's clusters");
MODULE_LICENSE("GPL");
