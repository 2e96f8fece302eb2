/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the library's core (opp.c) and its device-tree parser (opp_of.c)
 * share. Not for callers: they see opp.h only.
 */
#ifndef _OPP_INTERNAL_H
#define _OPP_INTERNAL_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "opp.h"

struct device;
struct device_node;

/* What a device-tree table says about itself rather than about one OPP. */
struct opp_table_facts {
	unsigned long clock_latency_ns;
	bool shared;
	/* The table node, which devices that share the table point at. */
	struct device_node *np;
};

/*
 * What a driver told the library before its table was parsed
 * (opp_set_config()): kept per device, read by the parser under opp_lock.
 */
struct opp_dev_config {
	struct list_head node;
	struct kref ref;
	struct device *dev;
	u32 *supported_hw;
	unsigned int supported_hw_count;
	const char *prop_name;
	struct clk *clk;
	struct regulator *supply;
	/* Serializes opp_set_rate() for the device; guards @cur. */
	struct mutex rate_lock;
	/* The OPP opp_set_rate() last set; rate 0 until it set one. */
	struct opp_info cur;
};

/* Serializes every update of every table, of the map and of the lists. */
extern struct mutex opp_lock;

const struct opp_dev_config *opp_config_locked(struct device *dev);
struct opp_dev_config *opp_config_get(struct device *dev);
void opp_config_put(struct opp_dev_config *cfg);
int opp_add_points_locked(struct device *dev, struct opp *pts, unsigned int n,
			  const struct opp_table_facts *facts);
bool opp_bad_dev(struct device *dev, const char *func);
int opp_share_of_locked(struct device *dev, const struct device_node *np);
bool opp_voltage_span(struct device *dev, unsigned long *lo,
		      unsigned long *hi);

#endif /* _OPP_INTERNAL_H */
