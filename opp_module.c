// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading and unloading opp.ko: the one file that starts and stops the
 * others and wires the core to the configuration above it, so that no
 * file calls up into a file above it (the order is Kbuild's).
 */

#include <linux/init.h>
#include <linux/module.h>

#include "opp_internal.h"

static const struct opp_core_ops opp_core_ops = {
	.config_locked = opp_config_locked,
	.check_supply = opp_check_supply,
};

static int __init opp_init(void)
{
	int ret = opp_core_init(&opp_core_ops);

	if (ret)
		return ret;
	opp_debugfs_init();
	return 0;
}
module_init(opp_init);

/*
 * The debugfs view goes first: its files read the tables. The
 * configurations that drivers never cleared go before the core's end,
 * whose rcu_barrier() is the last thing the module does.
 */
static void __exit opp_exit(void)
{
	opp_debugfs_exit();
	opp_config_exit();
	opp_core_exit();
}
module_exit(opp_exit);

MODULE_DESCRIPTION("Operating Performance Points library");
MODULE_LICENSE("GPL");
