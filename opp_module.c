// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading and unloading opp.ko: the one file that starts and stops the
 * others, so that none of them calls up into a file above it (the order
 * is Kbuild's).
 */

#include <linux/init.h>
#include <linux/module.h>

#include "opp_internal.h"

static int __init opp_init(void)
{
	int ret = opp_core_init();

	if (ret)
		return ret;
	opp_debugfs_init();
	return 0;
}
module_init(opp_init);

/*
 * The debugfs view goes first: its files read the tables that the core's
 * end frees.
 */
static void __exit opp_exit(void)
{
	opp_debugfs_exit();
	opp_core_exit();
}
module_exit(opp_exit);

MODULE_DESCRIPTION("Operating Performance Points library");
MODULE_LICENSE("GPL");
