// SPDX-License-Identifier: GPL-2.0-only
/*
 * A cpufreq driver built on the OPP library: the library's cpufreq-dt.
 *
 * The CPUs whose device tree nodes point at one `opp-shared`
 * operating-points-v2 table form a cluster: one clock, one voltage rail,
 * one table in the library (opp_of_add_table() on each joins the first
 * one's), one cpufreq policy over the CPUs that opp_get_sharing_cpus()
 * reports. A CPU node with only the old `operating-points` property says
 * nothing about sharing: then, as the kernel's cpufreq-dt assumes, every
 * CPU shares CPU0's table (opp_set_sharing_cpus()).
 *
 * Each cluster's first CPU holds the clock (clk_get(cpu_dev, NULL)) and
 * the supply "cpu" (optional), handed to the library with opp_set_config()
 * before its table is read; target_index() is opp_set_rate(), which
 * orders voltage and clock and puts the hardware back when a step fails;
 * get() reads the clock back. From the table: the cpufreq frequency table
 * (opp_init_cpufreq_table(), `turbo-mode` OPPs as boost frequencies, with
 * cpufreq's boost switch when a cluster has any), the frequency to suspend
 * at (`opp-suspend`), and cpuinfo.transition_latency (the clock latency
 * plus the supply's ramp, opp_get_max_transition_latency()).
 *
 * It is a cooling device (CPUFREQ_IS_COOLING_DEV): for each policy whose
 * CPU's device tree node has #cooling-cells, the cpufreq core registers
 * the kernel's cpufreq cooling device ("cpufreq-cpuN") when the policy is
 * made and unregisters it when the policy goes (the driver's unload), and
 * the thermal zones whose cooling maps name that CPU throttle the policy
 * through it: cooling state N is a maximum request at the table's N-th
 * frequency down from the top. The debugfs thermal trigger below is this
 * sample's own; both caps hold, the lower wins.
 *
 * When an OPP is disabled (say a thermal governor forbids the top one)
 * the policy follows: a freq_qos maximum request caps it at the highest
 * frequency still available, as the kernel's cpufreq cooling device caps
 * a cpufreq-dt; enabling the OPP again lifts the cap. The frequency table
 * itself stays as it was built, as cpufreq-dt's does: the core reads it
 * when the driver has no say (a governor picks from it under its own
 * lock, not the policy's; a CPU coming online and the boost switch
 * recompute cpuinfo's limits from its valid entries; the stats list its
 * frequencies once, when the policy is made), so an entry made invalid
 * at run time would outlive the cap there. target_index() still refuses
 * an OPP that the library no longer has available. The library's
 * notifier only schedules that work: notifier callbacks must not call
 * the library's updaters, and the policy must be updated in a context
 * that may take the policy's locks.
 *
 * On the emulated vexpress-a9 board the first cluster's clock is a real
 * one of the board (an oscillator of its daughterboard, programmed
 * through the kernel's vexpress-osc driver); the rails, and a second
 * cluster's clock, come from test providers (selftest/
 * opp_cluster_providers.c), because the board's rails are read-only and
 * it has no second free oscillator. The emulated CPUs run at the host's
 * pace whatever the clock says.
 *
 * debugfs (opp_cpufreq/policyN/, N the cluster's first CPU):
 *   thermal_cap_khz  (0600) a simulated thermal trigger: write one of the
 *                    table's frequencies in kHz; every OPP above it is
 *                    disabled in the library, every OPP at or below it is
 *                    enabled. Writing the highest frequency lifts the cap.
 *                    Anything else is refused with -EINVAL.
 *   state            (0400) the clock and the supply read back, and what
 *                    the driver did: transitions, suspends.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clk.h>
/* __clk_get_name(): the state file names the clock, as debugfs/clk does. */
#include <linux/clk-provider.h>
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/pm_qos.h>
#include <linux/regulator/consumer.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/units.h>
#include <linux/workqueue.h>

#include "../compat.h"
#include "../opp.h"

/* Longest write the thermal trigger reads: a kHz value and a newline. */
#define OPP_CPUFREQ_INPUT_MAX	16

struct opp_cpufreq_cluster {
	unsigned int cpu;		/* the first CPU: holds the config */
	struct device *dev;
	struct cpumask cpus;		/* every CPU on the table */
	struct clk *clk;
	struct regulator *supply;	/* NULL: the clock alone */

	/*
	 * The cpufreq table, as built at load: every OPP, lowest first. It
	 * never changes while the driver is registered (see the header).
	 */
	struct cpufreq_frequency_table *freq_table;
	unsigned int table_len;
	bool has_boost;
	unsigned int suspend_khz;

	/* The cap (kHz) that the work item last computed from the library. */
	unsigned int avail_max_khz;

	/* The policy's maximum request, live between ->init() and ->exit(). */
	struct mutex qos_lock;
	struct freq_qos_request max_req;
	bool max_req_active;

	/* What the driver did, for the state file. */
	spinlock_t state_lock;
	unsigned long transitions;
	unsigned long failures;
	unsigned long suspends;
	unsigned long suspended_at_khz;
	int suspended_at_uv;

	/*
	 * The thermal trigger's cap (kHz). trigger_lock also keeps the sync
	 * work out while the trigger changes several OPPs, so the policy
	 * moves once, to the final state, and never onto an OPP the batch is
	 * about to drop.
	 */
	struct mutex trigger_lock;
	unsigned int thermal_cap_khz;

	struct work_struct sync_work;
	struct notifier_block nb;
	bool nb_registered;
	struct dentry *dir;
};

/* Each CPU's cluster, set at load and cleared at unload. */
static DEFINE_PER_CPU(struct opp_cpufreq_cluster *, cpu_cluster);
static struct dentry *debug_dir;

/* The frequency (kHz) of the table's entry @i. */
static unsigned int opp_cpufreq_khz(struct opp_cpufreq_cluster *cl,
				    unsigned int i)
{
	return cl->freq_table[i].frequency;
}

/*
 * The highest of the table's frequencies whose OPP the library has
 * available: the cap. cpufreq cannot run a policy without a frequency, so
 * if no OPP is available at all, the policy is held at the lowest.
 */
static unsigned int opp_cpufreq_avail_max(struct opp_cpufreq_cluster *cl)
{
	struct opp_info info;
	unsigned int i;

	for (i = cl->table_len; i-- > 0;)
		if (!opp_lookup_exact(cl->dev,
				      opp_cpufreq_khz(cl, i) * HZ_PER_KHZ,
				      true, &info))
			return opp_cpufreq_khz(cl, i);
	dev_warn_ratelimited(cl->dev,
			     "no OPP is available: holding the CPUs at %u kHz\n",
			     opp_cpufreq_khz(cl, 0));
	return opp_cpufreq_khz(cl, 0);
}

/*
 * The policy's maximum request for a cap at @top: none (the default) when
 * every OPP is available. A request at the table's top would hide the
 * user's maximum from the QoS aggregate, and 6.1's boost switch moves only
 * that one: turning boost on or off would then change nothing that
 * cpufreq acts on.
 */
static s32 opp_cpufreq_qos_max(struct opp_cpufreq_cluster *cl,
			       unsigned int top)
{
	return top == opp_cpufreq_khz(cl, cl->table_len - 1) ?
	       FREQ_QOS_MAX_DEFAULT_VALUE : top;
}

/* Bring the policy in line with the library after an OPP event. */
static void opp_cpufreq_sync_fn(struct work_struct *work)
{
	struct opp_cpufreq_cluster *cl =
		container_of(work, struct opp_cpufreq_cluster, sync_work);
	struct cpufreq_policy *policy = cpufreq_cpu_get(cl->cpu);
	unsigned int top;

	/* No policy yet: ->init() will read the library itself. */
	if (!policy)
		return;

	mutex_lock(&cl->trigger_lock);
	top = opp_cpufreq_avail_max(cl);
	WRITE_ONCE(cl->avail_max_khz, top);

	mutex_lock(&cl->qos_lock);
	if (cl->max_req_active &&
	    freq_qos_update_request(&cl->max_req, opp_cpufreq_qos_max(cl, top)) < 0)
		dev_err(cl->dev, "cannot cap the policy at %u kHz\n", top);
	mutex_unlock(&cl->qos_lock);
	cpufreq_cpu_put(policy);

	/*
	 * The QoS request's notifier only schedules cpufreq's update of the
	 * policy; this runs it here, so that the policy has followed by the
	 * time the trigger's write returns.
	 */
	cpufreq_update_limits(cl->cpu);
	mutex_unlock(&cl->trigger_lock);
}

/*
 * The library calls this after the change is visible to its searches.
 * It may not call the library's updaters; it only schedules the work.
 */
static int opp_cpufreq_opp_event(struct notifier_block *nb,
				 unsigned long event, void *data)
{
	struct opp_cpufreq_cluster *cl =
		container_of(nb, struct opp_cpufreq_cluster, nb);
	const struct opp_info *info = data;
	static const char * const what[] = {
		[OPP_EVENT_ADD] = "added (reload the driver to use it)",
		[OPP_EVENT_ENABLE] = "enabled",
		[OPP_EVENT_DISABLE] = "disabled",
		[OPP_EVENT_REMOVE] = "removed",
	};

	if (event >= ARRAY_SIZE(what))
		return NOTIFY_DONE;
	dev_info(cl->dev, "OPP %lu kHz (%lu uV) %s\n",
		 info->rate / HZ_PER_KHZ, info->u_volt, what[event]);
	schedule_work(&cl->sync_work);
	return NOTIFY_OK;
}

static int opp_cpufreq_target_index(struct cpufreq_policy *policy,
				    unsigned int index)
{
	struct opp_cpufreq_cluster *cl = policy->driver_data;
	unsigned long hz = policy->freq_table[index].frequency * HZ_PER_KHZ;
	struct opp_info info;
	int ret;

	/*
	 * The OPP may have been disabled after cpufreq picked it and before
	 * the table caught up: refuse it, the limits update that follows
	 * picks another. opp_set_rate() would take the next one up.
	 */
	if (opp_lookup_exact(cl->dev, hz, true, &info))
		return -EBUSY;

	ret = opp_set_rate(cl->dev, hz);
	spin_lock(&cl->state_lock);
	if (ret)
		cl->failures++;
	else
		cl->transitions++;
	spin_unlock(&cl->state_lock);
	if (ret)
		dev_err_ratelimited(cl->dev, "cannot set %lu kHz: %d (left as it was)\n",
				    hz / HZ_PER_KHZ, ret);
	return ret;
}

/* What the clock runs at: read back, not remembered. */
static unsigned int opp_cpufreq_get(unsigned int cpu)
{
	struct opp_cpufreq_cluster *cl = cpu < nr_cpu_ids ?
					  per_cpu(cpu_cluster, cpu) : NULL;

	return cl ? clk_get_rate(cl->clk) / HZ_PER_KHZ : 0;
}

/* The suspend OPP (cpufreq's generic step), and what it left behind. */
static int opp_cpufreq_suspend(struct cpufreq_policy *policy)
{
	struct opp_cpufreq_cluster *cl = policy->driver_data;
	unsigned long khz;
	int ret, uv;

	ret = cpufreq_generic_suspend(policy);
	khz = clk_get_rate(cl->clk) / HZ_PER_KHZ;
	uv = cl->supply ? regulator_get_voltage(cl->supply) : 0;
	spin_lock(&cl->state_lock);
	cl->suspends++;
	cl->suspended_at_khz = khz;
	cl->suspended_at_uv = uv;
	spin_unlock(&cl->state_lock);
	dev_info(cl->dev, "suspend: at %lu kHz, %d uV (opp-suspend: %u kHz)\n",
		 khz, uv, cl->suspend_khz);
	return ret;
}

/*
 * cpufreq's own boost switch (cpufreq_boost_set_sw(), 6.1 and 6.12) sets
 * the policy's limits from the table, moves the user's maximum request to
 * the new top and leaves it to the QoS notifier to apply them. The
 * cooling device's request at state 0 is at the table's top, the boost
 * frequency: the first time boost goes on, the aggregate maximum stays
 * where it was, nothing is notified, and the policy would stay below the
 * boost frequency until its next update. The switch is the core's; then
 * the sync work updates the policy (not here: 6.12's per-policy boost
 * file calls this under the policy's lock).
 */
static int (*opp_cpufreq_core_set_boost)(struct cpufreq_policy *policy,
					 int state);

static int opp_cpufreq_set_boost(struct cpufreq_policy *policy, int state)
{
	struct opp_cpufreq_cluster *cl = policy->driver_data;
	int ret;

	ret = opp_cpufreq_core_set_boost(policy, state);
	if (!ret)
		schedule_work(&cl->sync_work);
	return ret;
}

static struct cpufreq_driver opp_cpufreq_driver;

/*
 * cpufreq_enable_boost_support() installs the core's switch in the
 * driver, whose callback is not exported otherwise: keep it, and put
 * the wrapper above in its place, right after, in the first ->init() of
 * a policy with boost OPPs: only a write of the boost file racing that
 * reaches the core's switch directly (and is applied at the next update).
 */
static void opp_cpufreq_wrap_boost(void)
{
	if (opp_cpufreq_driver.set_boost == opp_cpufreq_set_boost)
		return;
	opp_cpufreq_core_set_boost = opp_cpufreq_driver.set_boost;
	WRITE_ONCE(opp_cpufreq_driver.set_boost, opp_cpufreq_set_boost);
}

static int opp_cpufreq_init(struct cpufreq_policy *policy)
{
	struct opp_cpufreq_cluster *cl = per_cpu(cpu_cluster, policy->cpu);
	unsigned int top;
	int ret;

	/* A CPU of no cluster, say one whose table is not opp-shared. */
	if (!cl)
		return -ENODEV;
	cpumask_copy(policy->cpus, &cl->cpus);
	policy->driver_data = cl;
	policy->freq_table = cl->freq_table;
	policy->cpuinfo.transition_latency =
		opp_get_max_transition_latency(cl->dev);
	policy->suspend_freq = cl->suspend_khz;
	top = opp_cpufreq_avail_max(cl);
	WRITE_ONCE(cl->avail_max_khz, top);

	if (cl->has_boost) {
		ret = cpufreq_enable_boost_support();
		if (ret)
			return ret;
		opp_cpufreq_wrap_boost();
	}

	mutex_lock(&cl->qos_lock);
	ret = freq_qos_add_request(&policy->constraints, &cl->max_req,
				   FREQ_QOS_MAX, opp_cpufreq_qos_max(cl, top));
	cl->max_req_active = ret >= 0;
	mutex_unlock(&cl->qos_lock);
	if (ret < 0)
		return ret;

	/* dev_info because the policy starts here, once per load. */
	dev_info(cl->dev,
		 "policy for CPUs %*pbl: %u OPPs, %u-%u kHz%s, latency %u ns; the clock reads %u kHz\n",
		 cpumask_pr_args(policy->cpus), cl->table_len,
		 opp_cpufreq_khz(cl, 0),
		 opp_cpufreq_khz(cl, cl->table_len - 1),
		 cl->has_boost ? " (boost included)" : "",
		 policy->cpuinfo.transition_latency,
		 opp_cpufreq_get(policy->cpu));
	return 0;
}

/*
 * The cluster's energy model, as cpufreq-dt registers it with the kernel's
 * OPP core: cpufreq calls this once a new policy is ready, before its
 * governor starts and before it registers the policy as a cooling device,
 * whose power_allocator governor reads the model. The power comes from the
 * table's opp-microwatt (or the CPU node's dynamic-power-coefficient).
 */
static void opp_cpufreq_register_em(struct cpufreq_policy *policy)
{
	struct opp_cpufreq_cluster *cl = policy->driver_data;
	int ret = opp_of_register_em(cl->dev, policy->related_cpus);

	/*
	 * The model keeps a CPU's domain once registered: after a reload of
	 * the driver it is there already (-EEXIST), from the same table.
	 */
	if (ret && ret != -EEXIST)
		dev_warn(cl->dev, "no energy model for CPUs %*pbl: %d\n",
			 cpumask_pr_args(policy->related_cpus), ret);
}

static void opp_cpufreq_exit(struct cpufreq_policy *policy)
{
	struct opp_cpufreq_cluster *cl = policy->driver_data;

	mutex_lock(&cl->qos_lock);
	if (cl->max_req_active)
		freq_qos_remove_request(&cl->max_req);
	cl->max_req_active = false;
	mutex_unlock(&cl->qos_lock);
}

DEFINE_OPP_CPUFREQ_EXIT(opp_cpufreq_exit)

static struct freq_attr *opp_cpufreq_attr[] = {
	&cpufreq_freq_attr_scaling_available_freqs,
	&cpufreq_freq_attr_scaling_boost_freqs,
	NULL,
};

static struct cpufreq_driver opp_cpufreq_driver = {
	.name		= "opp-cpufreq",
	/*
	 * The emulated CPUs' speed never changes: keep udelay() as it is.
	 * A clock that runs at no OPP when the policy starts (a boot
	 * loader's rate; the test provider's 100 MHz) is moved to the next
	 * OPP up before the policy's stats are made, as cpufreq-dt does:
	 * 6.1's stats made at a frequency off their table index
	 * time_in_state[-1] on their next reset. The thermal framework
	 * throttles it through the cpufreq cooling device (see the header).
	 */
	.flags		= CPUFREQ_CONST_LOOPS | CPUFREQ_NEED_INITIAL_FREQ_CHECK |
			  CPUFREQ_IS_COOLING_DEV,
	.init		= opp_cpufreq_init,
	.exit		= opp_cpufreq_exit_cb,
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= opp_cpufreq_target_index,
	.get		= opp_cpufreq_get,
	.suspend	= opp_cpufreq_suspend,
	.register_em	= opp_cpufreq_register_em,
	.attr		= opp_cpufreq_attr,
};

/* The index of @khz in the table, or -EINVAL if it is not one of its. */
static int opp_cpufreq_table_index(struct opp_cpufreq_cluster *cl,
				   unsigned long khz)
{
	unsigned int i;

	for (i = 0; i < cl->table_len; i++)
		if (opp_cpufreq_khz(cl, i) == khz)
			return i;
	return -EINVAL;
}

/* Make exactly the OPPs at or below @cap available. */
static int opp_cpufreq_apply_cap(struct opp_cpufreq_cluster *cl,
				 unsigned int cap)
{
	unsigned int i;
	int ret = 0;

	/* Top down, so the top OPP goes first when the cap comes down. */
	for (i = cl->table_len; i-- > 0 && !ret;) {
		unsigned long hz = opp_cpufreq_khz(cl, i) * HZ_PER_KHZ;

		ret = opp_cpufreq_khz(cl, i) <= cap ?
		      opp_enable(cl->dev, hz) : opp_disable(cl->dev, hz);
	}
	return ret;
}

static ssize_t thermal_cap_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct opp_cpufreq_cluster *cl = file->private_data;
	char buf[OPP_CPUFREQ_INPUT_MAX + 1];
	unsigned long khz;
	int ret;

	/* One plain decimal number, an optional newline, nothing else. */
	if (!count || count > OPP_CPUFREQ_INPUT_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count || !isdigit(buf[0]))
		return -EINVAL;
	if (kstrtoul(buf, 10, &khz) || opp_cpufreq_table_index(cl, khz) < 0)
		return -EINVAL;

	mutex_lock(&cl->trigger_lock);
	ret = opp_cpufreq_apply_cap(cl, khz);
	if (ret) {
		/* Put back what the last accepted cap made available. */
		if (opp_cpufreq_apply_cap(cl, cl->thermal_cap_khz))
			dev_err(cl->dev, "thermal cap: cannot restore %u kHz\n",
				cl->thermal_cap_khz);
	} else {
		if (khz != cl->thermal_cap_khz)
			dev_info(cl->dev, "thermal cap: %u -> %lu kHz (simulated thermal event)\n",
				 cl->thermal_cap_khz, khz);
		cl->thermal_cap_khz = khz;
	}
	mutex_unlock(&cl->trigger_lock);
	/* Return once the policy has followed, so readers see the result. */
	flush_work(&cl->sync_work);
	return ret ? ret : count;
}

static ssize_t thermal_cap_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct opp_cpufreq_cluster *cl = file->private_data;
	char buf[24];
	int len;

	mutex_lock(&cl->trigger_lock);
	len = scnprintf(buf, sizeof(buf), "%u\n", cl->thermal_cap_khz);
	mutex_unlock(&cl->trigger_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations thermal_cap_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= thermal_cap_read,
	.write	= thermal_cap_write,
	.llseek	= default_llseek,
};

static int state_show(struct seq_file *s, void *unused)
{
	struct opp_cpufreq_cluster *cl = s->private;
	unsigned long n, failed, suspends, susp_khz;
	int uv, susp_uv;

	uv = cl->supply ? regulator_get_voltage(cl->supply) : 0;
	spin_lock(&cl->state_lock);
	n = cl->transitions;
	failed = cl->failures;
	suspends = cl->suspends;
	susp_khz = cl->suspended_at_khz;
	susp_uv = cl->suspended_at_uv;
	spin_unlock(&cl->state_lock);

	seq_printf(s, "cpus %*pbl\n", cpumask_pr_args(&cl->cpus));
	seq_printf(s, "clock %s\nclock_khz %lu\n", __clk_get_name(cl->clk),
		   clk_get_rate(cl->clk) / HZ_PER_KHZ);
	seq_printf(s, "supply_uv %d\n", uv);
	seq_printf(s, "transitions %lu\nfailed_transitions %lu\n", n, failed);
	seq_printf(s, "available_max_khz %u\n", READ_ONCE(cl->avail_max_khz));
	seq_printf(s, "suspend_khz %u\nsuspends %lu\nsuspended_at_khz %lu\nsuspended_at_uv %d\n",
		   cl->suspend_khz, suspends, susp_khz, susp_uv);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(state);

/* Every CPU leaves the cluster's table (the last one removes it). */
static void opp_cpufreq_cluster_free(struct opp_cpufreq_cluster *cl)
{
	unsigned int cpu;

	/*
	 * Pairs the energy model's registration, at unload rather than at a
	 * policy's exit, which CPU hotplug calls too. The model ignores it for
	 * CPUs in 6.1 and 6.12 (see opp_of_unregister_em()): the domain stays.
	 */
	opp_of_unregister_em(cl->dev);
	if (cl->nb_registered)
		opp_unregister_notifier(cl->dev, &cl->nb);
	cancel_work_sync(&cl->sync_work);
	if (cl->freq_table)
		opp_free_cpufreq_table(cl->dev, &cl->freq_table);
	for_each_cpu(cpu, &cl->cpus) {
		opp_remove_table(get_cpu_device(cpu));
		per_cpu(cpu_cluster, cpu) = NULL;
	}
	opp_clear_config(cl->dev);
	regulator_put(cl->supply);
	clk_put(cl->clk);
	kfree(cl);
}

/*
 * The table of @cl's first CPU: the clock and the supply first (the
 * library checks the OPPs' voltages against the supply as it reads them),
 * then the device tree; then the other CPUs that point at the same
 * opp-shared table join it.
 */
static int opp_cpufreq_cluster_table(struct opp_cpufreq_cluster *cl)
{
	struct opp_config config = { };
	struct device_node *np, *other;
	struct device *dev;
	unsigned int cpu;
	int ret;

	cl->clk = clk_get(cl->dev, NULL);
	if (IS_ERR(cl->clk)) {
		ret = PTR_ERR(cl->clk);
		cl->clk = NULL;
		dev_err(cl->dev, "no clock to program: %d\n", ret);
		return ret;
	}
	cl->supply = regulator_get_optional(cl->dev, "cpu");
	if (IS_ERR(cl->supply)) {
		ret = PTR_ERR(cl->supply);
		cl->supply = NULL;
		if (ret != -ENODEV) {
			dev_err(cl->dev, "cannot get the supply: %d\n", ret);
			return ret;
		}
		dev_info(cl->dev, "no \"cpu\" supply: the clock alone changes\n");
	}
	config.clk = cl->clk;
	config.supply = cl->supply;
	ret = opp_set_config(cl->dev, &config);
	if (ret)
		return ret;
	ret = opp_of_add_table(cl->dev);
	if (ret) {
		dev_err(cl->dev, "no usable OPP table in the device tree: %d\n",
			ret);
		return ret;
	}

	np = of_parse_phandle(cl->dev->of_node, "operating-points-v2", 0);
	if (!np)
		return opp_set_sharing_cpus(cl->dev, cpu_possible_mask);
	for_each_possible_cpu(cpu) {
		dev = get_cpu_device(cpu);
		if (cpu == cl->cpu || per_cpu(cpu_cluster, cpu) || !dev ||
		    !of_property_read_bool(np, "opp-shared"))
			continue;
		other = of_parse_phandle(dev->of_node, "operating-points-v2", 0);
		if (other == np)
			ret = opp_of_add_table(dev);
		of_node_put(other);
		if (ret)
			break;
	}
	of_node_put(np);
	return ret;
}

/* A cluster led by @cpu: its table, its cpufreq table, its debugfs. */
static int opp_cpufreq_cluster_add(unsigned int cpu)
{
	struct opp_cpufreq_cluster *cl;
	char name[16];
	unsigned int i, c;
	int ret;

	cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	if (!cl)
		return -ENOMEM;
	cl->cpu = cpu;
	cl->dev = get_cpu_device(cpu);
	mutex_init(&cl->qos_lock);
	mutex_init(&cl->trigger_lock);
	spin_lock_init(&cl->state_lock);
	INIT_WORK(&cl->sync_work, opp_cpufreq_sync_fn);
	cl->nb.notifier_call = opp_cpufreq_opp_event;
	if (!cl->dev) {
		kfree(cl);
		return -ENODEV;
	}

	ret = opp_cpufreq_cluster_table(cl);
	/* Whatever joined, even on error: cluster_free() takes it out. */
	if (opp_get_sharing_cpus(cl->dev, &cl->cpus))
		cpumask_copy(&cl->cpus, cpumask_of(cpu));
	for_each_cpu(c, &cl->cpus)
		per_cpu(cpu_cluster, c) = cl;
	if (ret)
		goto err;

	ret = opp_register_notifier(cl->dev, &cl->nb);
	if (ret)
		goto err;
	cl->nb_registered = true;

	ret = opp_init_cpufreq_table(cl->dev, &cl->freq_table);
	if (ret)
		goto err;
	for (cl->table_len = 0;
	     cl->freq_table[cl->table_len].frequency != CPUFREQ_TABLE_END;)
		cl->table_len++;
	for (i = 0; i < cl->table_len; i++)
		if (cl->freq_table[i].flags & CPUFREQ_BOOST_FREQ)
			cl->has_boost = true;
	cl->thermal_cap_khz = opp_cpufreq_khz(cl, cl->table_len - 1);
	cl->suspend_khz = opp_get_suspend_opp_freq(cl->dev) / HZ_PER_KHZ;

	snprintf(name, sizeof(name), "policy%u", cpu);
	cl->dir = debugfs_create_dir(name, debug_dir);
	debugfs_create_file("thermal_cap_khz", 0600, cl->dir, cl,
			    &thermal_cap_fops);
	debugfs_create_file("state", 0400, cl->dir, cl, &state_fops);
	return 0;

err:
	opp_cpufreq_cluster_free(cl);
	return ret;
}

static void opp_cpufreq_clusters_free(void)
{
	struct opp_cpufreq_cluster *cl;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		cl = per_cpu(cpu_cluster, cpu);
		if (cl && cl->cpu == cpu)
			opp_cpufreq_cluster_free(cl);
	}
}

static int __init opp_cpufreq_module_init(void)
{
	struct opp_cpufreq_cluster *cl;
	unsigned int cpu;
	int ret = 0;

	debug_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for_each_possible_cpu(cpu) {
		if (per_cpu(cpu_cluster, cpu))
			continue;
		ret = opp_cpufreq_cluster_add(cpu);
		if (ret)
			goto err;
	}

	ret = cpufreq_register_driver(&opp_cpufreq_driver);
	if (ret) {
		pr_err("cannot register the cpufreq driver: %d\n", ret);
		goto err;
	}
	/* An OPP event before a policy existed found nothing to update. */
	for_each_possible_cpu(cpu) {
		cl = per_cpu(cpu_cluster, cpu);
		if (cl && cl->cpu == cpu) {
			schedule_work(&cl->sync_work);
			flush_work(&cl->sync_work);
		}
	}
	return 0;

err:
	/* Waits for writers of the triggers still inside. */
	debugfs_remove_recursive(debug_dir);
	opp_cpufreq_clusters_free();
	return ret;
}
module_init(opp_cpufreq_module_init);

static void __exit opp_cpufreq_module_exit(void)
{
	debugfs_remove_recursive(debug_dir);
	cpufreq_unregister_driver(&opp_cpufreq_driver);
	opp_cpufreq_clusters_free();
}
module_exit(opp_cpufreq_module_exit);

MODULE_DESCRIPTION("cpufreq driver on the OPP library: clusters from operating-points-v2, rates through opp_set_rate()");
MODULE_LICENSE("GPL");
