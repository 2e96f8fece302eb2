// SPDX-License-Identifier: GPL-2.0-only
/*
 * OPP library: a read-only view of every table in debugfs, under
 * opp_library/ ("opp" belongs to the kernel's own OPP core): each OPP's
 * rate, voltage and availability (tables), everything each OPP and table
 * holds (opps), and which devices share each table (sharers).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string_helpers.h>

#include "opp.h"
#include "opp_internal.h"

static struct dentry *opp_debugfs_dir;

static int opp_tables_show(struct seq_file *s, void *unused)
{
	struct opp_table *table;
	struct opp_array *arr;
	unsigned int i;

	seq_printf(s, "%-24s %12s %10s %s\n", "device", "rate_hz", "u_volt",
		   "available");
	mutex_lock(&opp_lock);
	list_for_each_entry(table, &opp_table_list, list_node) {
		arr = opp_array_locked(table);
		for (i = 0; i < arr->count; i++)
			seq_printf(s, "%-24s %12lu %10lu %s\n", dev_name(table->dev),
				   arr->opp[i].rate, arr->opp[i].u_volt,
				   arr->opp[i].available ? "yes" : "no");
	}
	mutex_unlock(&opp_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(opp_tables);

enum opp_debugfs_supply { OPP_DBG_UV, OPP_DBG_UA, OPP_DBG_UW };

static const char * const opp_debugfs_supply_key[] = {
	[OPP_DBG_UV] = "uV", [OPP_DBG_UA] = "uA", [OPP_DBG_UW] = "uW",
};

/* One value of @opp per supply (@what), comma-separated. */
static void opp_debugfs_supplies(struct seq_file *s, const struct opp *opp,
				 enum opp_debugfs_supply what)
{
	unsigned int i, n = opp_nr_supplies(opp);
	struct opp_supply v;

	seq_printf(s, " %s=", opp_debugfs_supply_key[what]);
	for (i = 0; i < n; i++) {
		opp_supply_of(opp, i, &v);
		if (i)
			seq_putc(s, ',');
		if (what == OPP_DBG_UV)
			seq_printf(s, "%lu/%lu/%lu", v.u_volt, v.u_volt_min,
				   v.u_volt_max);
		else
			seq_printf(s, "%lu", what == OPP_DBG_UA ? v.u_amp :
				   v.u_watt);
	}
}

/* One OPP of @table's device, every field on one line. */
static void opp_debugfs_opp(struct seq_file *s, const struct opp_table *table,
			    const struct opp *opp)
{
	const struct opp_extra *x = opp->extra;
	const struct opp_table *req;
	unsigned int i;

	seq_printf(s, "%s opp hz=%lu", dev_name(table->dev), opp->rate);
	for (i = 1; i < opp_nr_clks(opp); i++)
		seq_printf(s, ",%lu", opp_clk_rate(opp, i));
	seq_printf(s, " level=%u", opp->level);
	opp_debugfs_supplies(s, opp, OPP_DBG_UV);
	opp_debugfs_supplies(s, opp, OPP_DBG_UA);
	opp_debugfs_supplies(s, opp, OPP_DBG_UW);
	for (i = 0; x && i < x->nr_paths; i++)
		seq_printf(s, "%s%u/%u", i ? "," : " kBps=",
			   opp_peak_bw(opp, i), opp_avg_bw(opp, i));
	for (i = 0; x && i < x->nr_required; i++) {
		seq_puts(s, i ? "," : " required=");
		req = rcu_dereference_protected(x->req[i].table,
						lockdep_is_held(&opp_lock));
		if (req)
			seq_printf(s, "%u", x->req[i].level);
		else
			seq_puts(s, "pending");
	}
	seq_printf(s, " available=%s turbo=%s suspend=%s\n",
		   str_yes_no(opp->available), str_yes_no(opp->turbo),
		   str_yes_no(opp->suspend));
}

/*
 * Everything the library holds, per table: a line of the table's own
 * facts, then a line per OPP ("DEVICE opp key=value ..."); several
 * values of one key (a clock, a supply, a path, a required OPP each) are
 * comma-separated, in order.
 */
static int opp_opps_show(struct seq_file *s, void *unused)
{
	struct opp_table *table;
	struct opp_array *arr;
	unsigned int i;

	mutex_lock(&opp_lock);
	list_for_each_entry(table, &opp_table_list, list_node) {
		arr = opp_array_locked(table);
		seq_printf(s, "%s table opps=%u latency_ns=%lu paths=%u shared=%s genpd=%s node=%pOF\n",
			   dev_name(table->dev), arr->count,
			   READ_ONCE(table->clock_latency_ns), table->nr_paths,
			   str_yes_no(table->shared), str_yes_no(table->genpd),
			   table->np);
		for (i = 0; i < arr->count; i++)
			opp_debugfs_opp(s, table, &arr->opp[i]);
	}
	mutex_unlock(&opp_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(opp_opps);

/* Which devices share each table: the table's own device first. */
static int opp_sharers_show(struct seq_file *s, void *unused)
{
	struct opp_table *table;
	unsigned int i;

	mutex_lock(&opp_lock);
	list_for_each_entry(table, &opp_table_list, list_node) {
		if (!table->nr_sharers)
			continue;
		seq_puts(s, dev_name(table->dev));
		for (i = 0; i < table->nr_sharers; i++)
			seq_printf(s, " %s", dev_name(table->sharers[i]));
		seq_putc(s, '\n');
	}
	mutex_unlock(&opp_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(opp_sharers);

void opp_debugfs_init(void)
{
	opp_debugfs_dir = debugfs_create_dir("opp_library", NULL);
	debugfs_create_file("tables", 0444, opp_debugfs_dir, NULL,
			    &opp_tables_fops);
	debugfs_create_file("opps", 0444, opp_debugfs_dir, NULL,
			    &opp_opps_fops);
	debugfs_create_file("sharers", 0444, opp_debugfs_dir, NULL,
			    &opp_sharers_fops);
}

void opp_debugfs_exit(void)
{
	debugfs_remove_recursive(opp_debugfs_dir);
}
