// SPDX-License-Identifier: GPL-2.0-only
/*
 * A cpufreq driver built on the OPP library: the consumer the library was
 * written for.
 *
 * The CPUs of the board share one clock and one voltage rail, so one
 * policy covers them all. The OPPs come from the `operating-points`
 * property of the CPU0 device tree node, through opp_of_add_table(); that
 * binding cannot say which CPUs share a clock, so, as the kernel's
 * cpufreq-dt assumes for it, every CPU shares CPU0's table
 * (opp_set_sharing_cpus()), and the policy spans the CPUs that share it
 * (opp_get_sharing_cpus()). The cpufreq frequency table is
 * opp_init_cpufreq_table()'s.
 *
 * When an OPP is disabled (say a thermal governor forbids the top one)
 * the policy follows: the entry is marked CPUFREQ_ENTRY_INVALID so that
 * scaling_available_frequencies no longer offers it and no governor can
 * pick it, and a freq_qos maximum request caps the policy at the highest
 * frequency still available. Enabling the OPP again undoes both. The
 * library's notifier only schedules that work: notifier callbacks must
 * not call the library's updaters, and the policy must be updated in a
 * context that may take the policy's locks.
 *
 * Honesty about the hardware: QEMU's vexpress-a9 model has no CPU clock
 * and no regulator that software can program, and its CPUs run at the
 * host's pace whatever is asked. This driver therefore only records the
 * OPP it would have programmed (frequency and voltage) and reports the
 * recorded frequency back to cpufreq; it never claims to change anything.
 * On a real board, target_index() is where the regulator and the clock
 * would be set, voltage first when going up and last when going down.
 *
 * debugfs (opp_cpufreq/):
 *   thermal_cap_khz  (0600) a simulated thermal trigger: write one of the
 *                    table's frequencies in kHz; every OPP above it is
 *                    disabled in the library, every OPP at or below it is
 *                    enabled. Writing the highest frequency lifts the cap.
 *                    Anything else is refused with -EINVAL.
 *   state            (0400) the OPP last recorded by target_index().
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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
#include <linux/pm_qos.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/units.h>
#include <linux/workqueue.h>

#include "../compat.h"
#include "../opp.h"

/* What the CPUs of a Cortex-A9 cluster need between two OPPs. */
#define OPP_CPUFREQ_LATENCY_NS	(300 * NSEC_PER_USEC)

/* Longest write the thermal trigger reads: a kHz value and a newline. */
#define OPP_CPUFREQ_INPUT_MAX	16

static struct device *cpu_dev;

/*
 * The cpufreq table, and each entry's frequency (kHz) kept aside because
 * a disabled entry's own .frequency reads CPUFREQ_ENTRY_INVALID. The
 * entries are rewritten under the policy's rwsem, which the cpufreq core
 * holds when it reads the table for sysfs and for the governors' limits.
 */
static struct cpufreq_frequency_table *freq_table;
static unsigned int *table_khz;
static unsigned int table_len;

/* The cap (kHz) that the work item last computed from the library. */
static unsigned int avail_max_khz;

/* The policy's maximum request, live between ->init() and ->exit(). */
static DEFINE_MUTEX(qos_lock);
static struct freq_qos_request max_req;
static bool max_req_active;

/* What target_index() would have programmed. */
static DEFINE_SPINLOCK(state_lock);
static unsigned int cur_khz;
static unsigned long cur_uv;
static unsigned long transitions;

/*
 * The thermal trigger's cap (kHz). trigger_lock also keeps the sync work
 * out while the trigger changes several OPPs, so the policy moves once,
 * to the final state, and never onto an OPP the batch is about to drop.
 */
static DEFINE_MUTEX(trigger_lock);
static unsigned int thermal_cap_khz;

static struct dentry *debug_dir;

static void opp_cpufreq_sync_fn(struct work_struct *work);
static DECLARE_WORK(sync_work, opp_cpufreq_sync_fn);

/*
 * Make the table say what the library says: an entry is valid if its OPP
 * is available. Returns the highest valid frequency. cpufreq cannot run a
 * policy without a frequency, so if the library has no OPP available at
 * all, the lowest entry stays valid and the policy is held there.
 * Caller holds the policy's rwsem for writing (or the policy does not
 * exist yet).
 */
static unsigned int opp_cpufreq_sync_table(void)
{
	struct opp_info info;
	unsigned int i, top = 0;

	for (i = 0; i < table_len; i++) {
		bool avail = !opp_lookup_exact(cpu_dev, table_khz[i] * HZ_PER_KHZ,
					       true, &info);

		freq_table[i].frequency = avail ? table_khz[i] :
						  CPUFREQ_ENTRY_INVALID;
		if (avail)
			top = table_khz[i];
	}
	if (!top) {
		pr_warn_ratelimited("no OPP is available: holding the CPUs at %u kHz\n",
				    table_khz[0]);
		freq_table[0].frequency = table_khz[0];
		top = table_khz[0];
	}
	return top;
}

/* Bring the policy in line with the library after an OPP event. */
static void opp_cpufreq_sync_fn(struct work_struct *work)
{
	struct cpufreq_policy *policy = cpufreq_cpu_get(0);
	unsigned int top;

	/* No policy yet: ->init() will read the library itself. */
	if (!policy)
		return;

	mutex_lock(&trigger_lock);
	down_write(&policy->rwsem);
	top = opp_cpufreq_sync_table();
	WRITE_ONCE(avail_max_khz, top);
	up_write(&policy->rwsem);

	mutex_lock(&qos_lock);
	if (max_req_active && freq_qos_update_request(&max_req, top) < 0)
		pr_err("cannot cap the policy at %u kHz\n", top);
	mutex_unlock(&qos_lock);
	cpufreq_cpu_put(policy);

	/*
	 * Also when the cap did not move: a governor may sit on an OPP in
	 * the middle that just went away. This re-runs its limits.
	 */
	cpufreq_update_limits(0);
	mutex_unlock(&trigger_lock);
}

/*
 * The library calls this after the change is visible to its searches.
 * It may not call the library's updaters; it only schedules the work.
 */
static int opp_cpufreq_opp_event(struct notifier_block *nb,
				 unsigned long event, void *data)
{
	const struct opp_info *info = data;
	static const char * const what[] = {
		[OPP_EVENT_ADD] = "added (reload the driver to use it)",
		[OPP_EVENT_ENABLE] = "enabled",
		[OPP_EVENT_DISABLE] = "disabled",
		[OPP_EVENT_REMOVE] = "removed",
	};

	if (event >= ARRAY_SIZE(what))
		return NOTIFY_DONE;
	dev_info(cpu_dev, "OPP %lu kHz (%lu uV) %s\n", info->rate / HZ_PER_KHZ,
		 info->u_volt, what[event]);
	schedule_work(&sync_work);
	return NOTIFY_OK;
}

static struct notifier_block opp_nb = {
	.notifier_call = opp_cpufreq_opp_event,
};

static int opp_cpufreq_target_index(struct cpufreq_policy *policy,
				    unsigned int index)
{
	unsigned int khz = policy->freq_table[index].frequency;
	struct opp_info info;
	unsigned int old;
	int ret;

	/*
	 * The OPP may have been disabled after cpufreq picked it and before
	 * the table caught up: refuse it, the limits update that follows
	 * picks another.
	 */
	ret = opp_lookup_exact(cpu_dev, khz * HZ_PER_KHZ, true, &info);
	if (ret)
		return -EBUSY;

	/* Here a real board would set the regulator and the clock. */
	spin_lock(&state_lock);
	old = cur_khz;
	cur_khz = khz;
	cur_uv = info.u_volt;
	transitions++;
	spin_unlock(&state_lock);

	dev_info_ratelimited(cpu_dev,
			     "OPP %u -> %u kHz at %lu uV (recorded only: the emulated board has no CPU clock or regulator to program)\n",
			     old, khz, info.u_volt);
	return 0;
}

static unsigned int opp_cpufreq_get(unsigned int cpu)
{
	unsigned int khz;

	spin_lock(&state_lock);
	khz = cur_khz;
	spin_unlock(&state_lock);
	return khz;
}

static int opp_cpufreq_init(struct cpufreq_policy *policy)
{
	unsigned int top;
	int ret;

	/* One policy for the CPUs that share a table: one clock. */
	ret = opp_get_sharing_cpus(get_cpu_device(policy->cpu), policy->cpus);
	if (ret)
		return ret;
	policy->freq_table = freq_table;
	policy->cpuinfo.transition_latency = OPP_CPUFREQ_LATENCY_NS;
	top = opp_cpufreq_sync_table();
	WRITE_ONCE(avail_max_khz, top);

	mutex_lock(&qos_lock);
	ret = freq_qos_add_request(&policy->constraints, &max_req,
				   FREQ_QOS_MAX, top);
	max_req_active = ret >= 0;
	mutex_unlock(&qos_lock);
	if (ret < 0)
		return ret;

	/* dev_info because the policy starts here, once per load. */
	dev_info(cpu_dev,
		 "policy for CPUs %*pbl: %u OPPs, %u-%u kHz; assumed to run at %u kHz (nothing to read back)\n",
		 cpumask_pr_args(policy->cpus), table_len, table_khz[0],
		 table_khz[table_len - 1], opp_cpufreq_get(0));
	return 0;
}

static void opp_cpufreq_exit(struct cpufreq_policy *policy)
{
	mutex_lock(&qos_lock);
	if (max_req_active)
		freq_qos_remove_request(&max_req);
	max_req_active = false;
	mutex_unlock(&qos_lock);
}

DEFINE_OPP_CPUFREQ_EXIT(opp_cpufreq_exit)

static struct cpufreq_driver opp_cpufreq_driver = {
	.name		= "opp-cpufreq",
	/* The emulated CPUs' speed never changes: keep udelay() as it is. */
	.flags		= CPUFREQ_CONST_LOOPS,
	.init		= opp_cpufreq_init,
	.exit		= opp_cpufreq_exit_cb,
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= opp_cpufreq_target_index,
	.get		= opp_cpufreq_get,
	.attr		= cpufreq_generic_attr,
};

/* The index of @khz in the table, or -EINVAL if it is not one of its. */
static int opp_cpufreq_table_index(unsigned long khz)
{
	unsigned int i;

	for (i = 0; i < table_len; i++)
		if (table_khz[i] == khz)
			return i;
	return -EINVAL;
}

/* Make exactly the OPPs at or below @cap available. */
static int opp_cpufreq_apply_cap(unsigned int cap)
{
	unsigned int i;
	int ret = 0;

	/* Top down, so the top OPP goes first when the cap comes down. */
	for (i = table_len; i-- > 0 && !ret;) {
		unsigned long hz = table_khz[i] * HZ_PER_KHZ;

		ret = table_khz[i] <= cap ? opp_enable(cpu_dev, hz) :
					    opp_disable(cpu_dev, hz);
	}
	return ret;
}

static ssize_t thermal_cap_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
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
	if (kstrtoul(buf, 10, &khz) || opp_cpufreq_table_index(khz) < 0)
		return -EINVAL;

	mutex_lock(&trigger_lock);
	ret = opp_cpufreq_apply_cap(khz);
	if (ret) {
		/* Put back what the last accepted cap made available. */
		if (opp_cpufreq_apply_cap(thermal_cap_khz))
			pr_err("thermal cap: cannot restore %u kHz\n",
			       thermal_cap_khz);
	} else {
		if (khz != thermal_cap_khz)
			pr_info("thermal cap: %u -> %lu kHz (simulated thermal event)\n",
				thermal_cap_khz, khz);
		thermal_cap_khz = khz;
	}
	mutex_unlock(&trigger_lock);
	/* Return once the policy has followed, so readers see the result. */
	flush_work(&sync_work);
	return ret ? ret : count;
}

static ssize_t thermal_cap_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[24];
	int len;

	mutex_lock(&trigger_lock);
	len = scnprintf(buf, sizeof(buf), "%u\n", thermal_cap_khz);
	mutex_unlock(&trigger_lock);
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
	unsigned long uv, n;
	unsigned int khz, top;

	spin_lock(&state_lock);
	khz = cur_khz;
	uv = cur_uv;
	n = transitions;
	spin_unlock(&state_lock);
	top = READ_ONCE(avail_max_khz);

	seq_printf(s, "recorded_khz %u\nrecorded_uv %lu\ntransitions %lu\navailable_max_khz %u\n",
		   khz, uv, n, top);
	seq_puts(s, "note: recorded only, the emulated board has no CPU clock or regulator\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(state);

/* Every CPU leaves the shared table; the last one removes it. */
static void opp_cpufreq_remove_tables(void)
{
	unsigned int cpu;

	struct device *dev;

	for_each_possible_cpu(cpu) {
		dev = get_cpu_device(cpu);
		if (dev)
			opp_remove_table(dev);
	}
}

static int __init opp_cpufreq_module_init(void)
{
	struct opp_info info;
	unsigned int i;
	int ret;

	cpu_dev = get_cpu_device(0);
	if (!cpu_dev)
		return -ENODEV;

	ret = opp_of_add_table(cpu_dev);
	if (ret) {
		dev_err(cpu_dev, "no usable operating-points in the device tree: %d\n",
			ret);
		return ret;
	}

	ret = opp_set_sharing_cpus(cpu_dev, cpu_possible_mask);
	if (ret)
		goto err_table;

	ret = opp_register_notifier(cpu_dev, &opp_nb);
	if (ret)
		goto err_table;

	ret = opp_init_cpufreq_table(cpu_dev, &freq_table);
	if (ret)
		goto err_notifier;
	for (table_len = 0; freq_table[table_len].frequency != CPUFREQ_TABLE_END;)
		table_len++;
	table_khz = kcalloc(table_len, sizeof(*table_khz), GFP_KERNEL);
	if (!table_khz) {
		ret = -ENOMEM;
		goto err_freq_table;
	}
	for (i = 0; i < table_len; i++)
		table_khz[i] = freq_table[i].frequency;
	thermal_cap_khz = table_khz[table_len - 1];

	/*
	 * Nothing to read the boot rate from: assume the boot firmware left
	 * the CPUs at the top OPP, as most do.
	 */
	if (opp_lookup_exact(cpu_dev, table_khz[table_len - 1] * HZ_PER_KHZ, true,
			     &info)) {
		ret = -ENODEV;
		goto err_khz;
	}
	cur_khz = table_khz[table_len - 1];
	cur_uv = info.u_volt;

	ret = cpufreq_register_driver(&opp_cpufreq_driver);
	if (ret) {
		dev_err(cpu_dev, "cannot register the cpufreq driver: %d\n", ret);
		goto err_khz;
	}
	/* An OPP event before the policy existed found nothing to update. */
	schedule_work(&sync_work);
	flush_work(&sync_work);

	debug_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("thermal_cap_khz", 0600, debug_dir, NULL,
			    &thermal_cap_fops);
	debugfs_create_file("state", 0400, debug_dir, NULL, &state_fops);

	pr_info("cpufreq driver for the emulated CPUs: frequencies are recorded, not programmed\n");
	return 0;

err_khz:
	kfree(table_khz);
err_freq_table:
	opp_free_cpufreq_table(cpu_dev, &freq_table);
err_notifier:
	opp_unregister_notifier(cpu_dev, &opp_nb);
	cancel_work_sync(&sync_work);
err_table:
	opp_cpufreq_remove_tables();
	return ret;
}
module_init(opp_cpufreq_module_init);

static void __exit opp_cpufreq_module_exit(void)
{
	/* Waits for writers of the trigger still inside. */
	debugfs_remove_recursive(debug_dir);
	opp_unregister_notifier(cpu_dev, &opp_nb);
	cancel_work_sync(&sync_work);
	cpufreq_unregister_driver(&opp_cpufreq_driver);
	kfree(table_khz);
	opp_free_cpufreq_table(cpu_dev, &freq_table);
	opp_cpufreq_remove_tables();
}
module_exit(opp_cpufreq_module_exit);

MODULE_DESCRIPTION("cpufreq driver on the OPP library, for emulated CPUs (records OPPs, programs nothing)");
MODULE_LICENSE("GPL");
