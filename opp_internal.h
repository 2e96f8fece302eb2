/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the library's files share; callers see opp.h only. Kbuild lists the
 * files, each with what it holds, from the bottom layer up: a file calls
 * only the files listed before it (make lint checks it). Data declared
 * here (the update lock, the list of tables) is shared by all.
 */
#ifndef _OPP_INTERNAL_H
#define _OPP_INTERNAL_H

#include <linux/err.h>
#include <linux/hash.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "opp.h"

struct blocking_notifier_head;
struct device;
struct device_node;
struct icc_path;
struct opp_point;

/*
 * One ``required-opps`` entry of an OPP: the table node it points into
 * (@tnp, counted), the required OPP's node (@np, counted; NULL if the
 * OPP has no such entry), and, once resolved, the library's table of
 * @tnp (@table, which holds a reference on it) and the required OPP's
 * level. Resolved at most once, under opp_lock: @level is written before
 * @table is published; a reader that finds @table NULL sees an entry
 * still pending (its table not read yet).
 */
struct opp_required {
	struct device_node *tnp;
	struct device_node *np;
	struct opp_table __rcu *table;
	u32 level;
};

/*
 * What a device-tree OPP says beyond the scalars of struct opp, allocated
 * with the OPP by the parser, in one allocation: @bw holds the peak
 * bandwidth of each of @nr_paths interconnect paths, then the average of
 * each, in kBps; @supply holds each of @nr_supplies supplies' values and
 * @rates each of @nr_clks clocks' rate, where the device has more than one
 * (the first are also the OPP's scalars; with one, these are 0 and the
 * scalars are all there is); none of these ever changes. @req holds
 * @nr_required entries, each resolved once (struct opp_required).
 * Released with opp_extra_free() when its OPP goes.
 */
struct opp_extra {
	struct rcu_head rcu;
	unsigned int nr_paths;
	unsigned int nr_required;
	unsigned int nr_supplies;
	unsigned int nr_clks;
	struct opp_required *req;
	struct opp_supply *supply;
	unsigned long *rates;
	u32 bw[];
};

/* The sizes of an OPP's extra; opp_extra_alloc() lays them out. */
struct opp_extra_size {
	unsigned int nr_paths;
	unsigned int nr_required;
	unsigned int nr_supplies;
	unsigned int nr_clks;
};

static inline u32 opp_peak_bw(const struct opp *opp, unsigned int path)
{
	return opp->extra && path < opp->extra->nr_paths ?
	       opp->extra->bw[path] : 0;
}

static inline u32 opp_avg_bw(const struct opp *opp, unsigned int path)
{
	return opp->extra && path < opp->extra->nr_paths ?
	       opp->extra->bw[opp->extra->nr_paths + path] : 0;
}

/* The number of clocks whose rates @opp holds (1 where the device has one). */
static inline unsigned int opp_nr_clks(const struct opp *opp)
{
	return opp->extra && opp->extra->nr_clks ? opp->extra->nr_clks : 1;
}

/* The rate of clock @i of @opp, or 0 beyond its clocks. */
static inline unsigned long opp_clk_rate(const struct opp *opp,
					 unsigned int i)
{
	if (!i)
		return opp->rate;
	return i < opp_nr_clks(opp) ? opp->extra->rates[i] : 0;
}

/* The number of supplies whose values @opp holds (1 where there is one). */
static inline unsigned int opp_nr_supplies(const struct opp *opp)
{
	return opp->extra && opp->extra->nr_supplies ?
	       opp->extra->nr_supplies : 1;
}

/* Supply @i's values of @opp (@i below opp_nr_supplies()) into @s. */
static inline void opp_supply_of(const struct opp *opp, unsigned int i,
				 struct opp_supply *s)
{
	if (opp->extra && opp->extra->nr_supplies) {
		*s = opp->extra->supply[i];
		return;
	}
	s->u_volt = opp->u_volt;
	s->u_volt_min = opp->u_volt_min;
	s->u_volt_max = opp->u_volt_max;
	s->u_amp = opp->u_amp;
	s->u_watt = opp->u_watt;
}

/* What a device-tree table says about itself rather than about one OPP. */
struct opp_table_facts {
	unsigned long clock_latency_ns;
	/* Interconnect paths of the device, when its OPPs give bandwidths. */
	unsigned int nr_paths;
	bool shared;
	/* The device's node is a power domain (#power-domain-cells). */
	bool genpd;
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
	/* What opp_set_rate() drives: one clock, one supply, at most. */
	struct clk *clk;
	struct regulator *supply;
	/*
	 * The clocks and supplies got by name (@clk_names, @regulator_names),
	 * the library's to put; where there is one, it is also @clk or
	 * @supply.
	 */
	struct clk **clks;
	unsigned int nr_clks;
	struct regulator **supplies;
	unsigned int nr_supplies;
	/*
	 * Serializes the device's transitions (opp_rate.c) and guards what
	 * they keep: the interconnect paths got on the first one, what the
	 * device is at (@cur: what the hardware was found at until
	 * @at_opp), a point to fill for the next, and whether the supplies
	 * were enabled.
	 */
	struct mutex rate_lock;
	struct icc_path **paths;
	unsigned int nr_paths;
	struct opp_point *cur;
	struct opp_point *next;
	bool at_opp;
	bool enabled;
	/*
	 * What undoes the above when the configuration goes: set by the
	 * transition's file on the device's first transition, so that this
	 * file, below it, never calls up into it.
	 */
	void (*release)(struct opp_dev_config *cfg);
};

/* Serializes every update of every table, of the map and of the lists. */
extern struct mutex opp_lock;

/* Every table in creation order (opp_lock). */
extern struct list_head opp_table_list;

/* A NULL or ERR_PTR device: warned about (ratelimited) as @func's. */
static inline bool opp_bad_dev(struct device *dev, const char *func)
{
	if (!IS_ERR_OR_NULL(dev))
		return false;
	pr_warn_ratelimited("%s: invalid device %p\n", func, dev);
	return true;
}

/*
 * A device's table (2.6.37 called it struct device_opp). A search through
 * a handle reads @opps; one by device finds the OPPs in the map.
 */
struct opp_table {
	/*
	 * First, where the inline searches through a handle find it;
	 * ->opps is NULL once the table is removed: a handle on it then
	 * finds nothing.
	 */
	struct opp_table_head head;
	struct device *dev;
	/* One for the map while the table is in it, one per handle. */
	struct kref ref;
	struct list_head list_node;
	struct blocking_notifier_head *notifiers;
	/* The largest clock-latency-ns of its device-tree OPPs (READ_ONCE). */
	unsigned long clock_latency_ns;
	/* Its interconnect paths: the bandwidth values of each OPP. */
	unsigned int nr_paths;
	/* The device-tree table node it was read from (counted), if any. */
	struct device_node *np;
	/* Whether @np says opp-shared: devices that point at it join. */
	bool shared;
	/* Whether its device is a power domain (#power-domain-cells). */
	bool genpd;
	/*
	 * The other devices that share it (counted), each with an array of
	 * its own in the map; see opp_table_publish().
	 */
	struct device **sharers;
	unsigned int nr_sharers;
	struct rcu_head rcu;
};

/*
 * The device -> OPPs map: open addressing with linear probing over a
 * power-of-two array of pointers, indexed by a multiplicative hash of the
 * device pointer. A slot points at a table's current OPP array, which
 * carries its device as the key and its table for the updaters: a search
 * by device goes from the slot straight to the OPPs, with no stop at the
 * table. Whoever publishes a new array for a table publishes it in the
 * table and in its slot (opp_table_publish()). A SoC has a handful of
 * tables, so the array is small (64 slots to start) and a search finds its
 * device at the first probe nearly always, for the cost of a multiply and
 * two loads.
 *
 * Readers probe under RCU without a lock. A slot changes only from empty
 * to an array, from an array to its table's next one, from an array to
 * the tombstone (which keeps the probe going) and from the tombstone to an
 * array; each is one pointer, published with rcu_assign_pointer(), so a
 * reader sees each slot before or after a change, never half of one, and
 * an array's key and OPPs always belong together. Under opp_lock, a map
 * that would get more than half full (tombstones count) is rebuilt as a
 * new copy, published with RCU, without its tombstones; if that
 * allocation fails the insertion goes on in place up to three quarters
 * full. A map is therefore never full, and every probe ends.
 */
struct opp_map {
	struct rcu_head rcu;
	unsigned int shift;	/* BITS_PER_LONG - log2 of the number of slots */
	unsigned int mask;	/* the number of slots, less one */
	unsigned int used;	/* slots holding an array or the tombstone */
	struct opp_array __rcu *slot[];
};

/*
 * The current map's address, with its shift in the low bits: maps are
 * allocated aligned to OPP_MAP_TAG + 1 bytes (kmalloc() aligns a
 * power-of-two size to itself), so a search gets the map and its shift
 * with one load, and its probe waits for that load only. Read with
 * READ_ONCE() under RCU (the slot's address depends on the value read, as
 * rcu_dereference()'s would), written with smp_store_release() under
 * opp_lock, as rcu_assign_pointer() would.
 */
#define OPP_MAP_TAG	63UL
extern unsigned long opp_map_word;

static __always_inline struct opp_map *opp_map_of(unsigned long word)
{
	return (struct opp_map *)(word & ~OPP_MAP_TAG);
}

/*
 * @dev's current OPPs, or NULL; the caller holds RCU or opp_lock. A NULL
 * or ERR_PTR @dev is simply not found: the callers tell it apart on that
 * (rare) path, not on every search.
 */
static __always_inline struct opp_array *opp_map_find(struct device *dev)
{
	unsigned long word = READ_ONCE(opp_map_word);
	struct opp_map *map = opp_map_of(word);
	/* opp_map_hash(), with the shift from the word: x86 even masks it. */
	unsigned int i = ((unsigned long)dev * GOLDEN_RATIO_PRIME) >>
			 (word & OPP_MAP_TAG);
	struct opp_array *arr;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held() && !lockdep_is_held(&opp_lock),
			 "opp: device map read outside RCU and opp_lock");

	/* The first probe nearly always ends it: the mask is read after. */
	for (;; i = (i + 1) & map->mask) {
		arr = rcu_dereference_check(map->slot[i],
					    lockdep_is_held(&opp_lock));
		if (likely(!arr || arr->dev == dev))
			return arr;
	}
}

/* @dev's table, or NULL; the caller holds RCU or opp_lock. */
static __always_inline struct opp_table *opp_table_find(struct device *dev)
{
	struct opp_array *arr = opp_map_find(dev);

	return arr ? arr->table : NULL;
}

/*
 * Reader side: the current snapshot of @dev's table, or an ERR_PTR
 * (-EINVAL for a NULL or ERR_PTR @dev, warned about as @func's).
 */
static __always_inline struct opp_array *opp_array_rcu(struct device *dev,
						       const char *func)
{
	struct opp_array *arr = opp_map_find(dev);

	if (likely(arr))
		return arr;
	return ERR_PTR(opp_bad_dev(dev, func) ? -EINVAL : -ENODEV);
}

/* Updater side: @dev's table, or NULL. */
static inline struct opp_table *opp_table_locked(struct device *dev)
{
	lockdep_assert_held(&opp_lock);
	return opp_table_find(dev);
}

static inline struct opp_array *opp_array_locked(struct opp_table *table)
{
	return rcu_dereference_protected(table->head.opps,
					 lockdep_is_held(&opp_lock));
}

/*
 * What the core needs of the configuration above it, which it calls
 * through these rather than by name: opp_module.c gives them at load.
 * @config_locked: a device's configuration, or NULL (under opp_lock)
 * @check_supply: a new OPP disabled if that configuration's supplies
 *	cannot give its voltage
 */
struct opp_core_ops {
	struct opp_dev_config *(*config_locked)(struct device *dev);
	void (*check_supply)(struct device *dev,
			     const struct opp_dev_config *cfg, struct opp *pt);
};

/* opp.c, the core: calls none of the files above it. */
int opp_core_init(const struct opp_core_ops *ops);
void opp_core_exit(void);
int opp_key_cmp(const struct opp *a, const struct opp *b);
struct opp_extra *opp_extra_alloc(const struct opp_extra_size *size);
void opp_extra_free(struct opp_extra *extra);
void opp_set_available(struct opp_table *table, unsigned int i,
		       bool available);
int opp_add_points_locked(struct device *dev,
			  const struct opp_dev_config *cfg, struct opp *pts,
			  unsigned int n, const struct opp_table_facts *facts);
int opp_share_of_locked(struct device *dev, const struct device_node *np);
int opp_table_share(struct opp_table *table, struct device *dev);
void opp_table_unshare(struct opp_table *table, unsigned int k);
bool opp_voltage_span(struct device *dev, unsigned long *lo,
		      unsigned long *hi);

/* opp_config.c: calls the core. */
struct opp_dev_config *opp_config_locked(struct device *dev);
struct opp_dev_config *opp_config_get(struct device *dev);
void opp_config_put(struct opp_dev_config *cfg);
void opp_config_exit(void);
void opp_check_supply(struct device *dev, const struct opp_dev_config *cfg,
		      struct opp *pt);

/* opp_debugfs.c: reads the core's tables under opp_lock. */
void opp_debugfs_init(void);
void opp_debugfs_exit(void);

#endif /* _OPP_INTERNAL_H */
