// SPDX-License-Identifier: GPL-2.0-only
/*
 * OPP library: a read-only view of every table in debugfs, under
 * opp_library/ ("opp" belongs to the kernel's own OPP core): each OPP's
 * rate, voltage and availability, and which devices share each table.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>

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
	debugfs_create_file("sharers", 0444, opp_debugfs_dir, NULL,
			    &opp_sharers_fops);
}

void opp_debugfs_exit(void)
{
	debugfs_remove_recursive(opp_debugfs_dir);
}
