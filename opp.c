// SPDX-License-Identifier: GPL-2.0-only
/*
 * Operating Performance Points (OPP) library.
 *
 * The 2.6.37 design (per-device tables read under RCU, written under a
 * mutex) with its defects fixed and its data laid out for speed:
 *
 * - The device -> OPPs map is a small open-addressed hash keyed by the
 *   device pointer, whose slots point straight at each table's current
 *   OPP array: a lookup costs one multiply and a probe or two, the same
 *   with one device or a thousand. The library holds a reference on every
 *   device it has a table for, so the address cannot be recycled into a
 *   new device while the table exists. Hot callers can skip the map with
 *   a table handle (opp_table_get()).
 * - A table is a sorted array of OPPs published with rcu_assign_pointer(),
 *   with its rates also in a padded array of their own, searched without
 *   data-dependent branches, and a word of availability bits. Adding or
 *   removing an OPP publishes a new copy and frees the old one after a
 *   grace period (kfree_rcu()); nobody waits for that grace period.
 * - Availability is a flag (and a bit) flipped in place (WRITE_ONCE/
 *   READ_ONCE): a reader sees an OPP either before or after the change,
 *   and enabling or disabling needs neither an allocation nor a grace
 *   period.
 *
 * Every table has at least one OPP: removing the last one removes the
 * table and drops the device reference.
 *
 * Notifier chains (allocated on the first registration, since most tables
 * never have one) are called under the update mutex, right after a change
 * is published: events reach every listener in update order and a table
 * cannot vanish under its own notification. Being called under a mutex,
 * the chain is a blocking one: an SRCU chain would buy nothing here, and
 * srcu_init_notifier_head() BUG()s where it fails to allocate.
 *
 * This file is the core: data; internals; updaters; notifiers; searches
 * and accessors; copy-out lookups; table handles; the core's start and
 * end. Kbuild says which file holds the rest, opp_internal.h what the
 * files share.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "opp.h"
#include "opp_internal.h"

/* ---- Data: OPPs, their arrays, tables, the device map ---- */

/*
 * A table's OPPs are published as a struct opp_array (opp_snapshot.h):
 * its header, its rates padded for the searches, and its OPPs, in one
 * allocation. @avail mirrors the availability of the first BITS_PER_LONG
 * OPPs: in a table of up to OPP_SPAN_MIN OPPs a ceil or floor search finds
 * the nearest available OPP with one bit scan instead of a loop over the
 * OPPs; opp_set_available() keeps the two in step, and opp_array_seal()
 * writes the rates before the array is published.
 *
 * The device map holds arrays, not tables (see struct opp_map): @dev is
 * the key a search by device compares, @table the table the array is the
 * current snapshot of; both are set before it is published, and never
 * change. Each device that shares a table has an array of its own, so
 * that a search by any of them costs the same: the table's own array
 * holds the OPPs, and every sharer's array is a copy of its header and
 * rates whose @opp points at them (opp_alias_alloc()).
 *
 * struct opp_table and struct opp_map, which the other files of the
 * library read too, are in opp_internal.h.
 */

#define OPP_MAP_MIN_BITS	6

/* What a removed table's slot holds: its key is its own address. */
static struct opp_array opp_tombstone = {
	.dev = (struct device *)&opp_tombstone,
};

/* The current map and its shift: see OPP_MAP_TAG. */
unsigned long opp_map_word;

static void opp_map_publish(struct opp_map *map)
{
	/* The map's slots, filled, before a search can find the map. */
	smp_store_release(&opp_map_word, (unsigned long)map | map->shift);
}

/* Serializes every update of every table, of the map and of the lists. */
DEFINE_MUTEX(opp_lock);

/* Every table in creation order, for debugfs and unload. */
LIST_HEAD(opp_table_list);

/*
 * What the core needs of the configuration above it (struct
 * opp_core_ops), set once before any caller can reach the core.
 */
static const struct opp_core_ops *opp_ops;

/* ---- Internals shared by readers and updaters ---- */

static unsigned int opp_lower_bound(const struct opp_array *arr,
				    unsigned long freq)
{
	return opp_bound(arr, freq, false);
}

/*
 * The slot at which @dev's probe sequence in @map starts: hash_ptr(), its
 * shift kept ready in the map, as its mask is: a probe costs few
 * instructions, and the instructions are what a search costs.
 */
static __always_inline unsigned int opp_map_hash(const struct opp_map *map,
						 const struct device *dev)
{
	return ((unsigned long)dev * GOLDEN_RATIO_PRIME) >> map->shift;
}

static struct opp_map *opp_map_locked(void)
{
	lockdep_assert_held(&opp_lock);
	return opp_map_of(opp_map_word);
}

static struct opp_array *opp_map_slot(struct opp_map *map, unsigned int i)
{
	return rcu_dereference_protected(map->slot[i], lockdep_is_held(&opp_lock));
}

static struct opp_map *opp_map_alloc(unsigned int bits)
{
	struct opp_map *map;

	/* Rounded up to a power of two: the kmalloc bucket it fell in anyway. */
	map = kzalloc(roundup_pow_of_two(struct_size(map, slot, 1U << bits)),
		      GFP_KERNEL);
	if (map && WARN_ON_ONCE((unsigned long)map & OPP_MAP_TAG)) {
		kfree(map);
		map = NULL;
	}
	if (map) {
		map->shift = BITS_PER_LONG - bits;
		map->mask = (1U << bits) - 1;
	}
	return map;
}

/* Put @arr at the first free or dead slot of its probe sequence. */
static void opp_map_place(struct opp_map *map, struct opp_array *arr)
{
	unsigned int mask = map->mask;
	unsigned int i = opp_map_hash(map, arr->dev);
	struct opp_array *t;

	for (;; i = (i + 1) & mask) {
		t = opp_map_slot(map, i);
		if (!t) {
			map->used++;
			break;
		}
		if (t == &opp_tombstone)
			break;
	}
	/* Publishing the slot orders the array's initialisation before it. */
	rcu_assign_pointer(map->slot[i], arr);
}

/* The index of the slot of @map that holds @arr, which is in it. */
static unsigned int opp_map_index(struct opp_map *map, struct opp_array *arr)
{
	unsigned int i = opp_map_hash(map, arr->dev);

	while (opp_map_slot(map, i) != arr)
		i = (i + 1) & map->mask;
	return i;
}

/* Make @arr the array of @table, for the map: before publishing it. */
static void opp_array_own(struct opp_array *arr, struct opp_table *table)
{
	arr->dev = table->dev;
	arr->table = table;
}

/*
 * Add @arr, whose device is not in the map, rebuilding the map if it is
 * due; @arr's device and table are set.
 */
static int opp_map_add(struct opp_array *arr)
{
	struct opp_map *map = opp_map_locked(), *fresh;
	unsigned int i, live = 0, slots = map->mask + 1;
	struct opp_array *t;

	if (2 * (map->used + 1) > slots) {
		for (i = 0; i < slots; i++) {
			t = opp_map_slot(map, i);
			live += t && t != &opp_tombstone;
		}
		/* A quarter full after the rebuild, this table included. */
		fresh = opp_map_alloc(max(OPP_MAP_MIN_BITS,
					  order_base_2(4 * (live + 1))));
		if (fresh) {
			for (i = 0; i < slots; i++) {
				t = opp_map_slot(map, i);
				if (t && t != &opp_tombstone)
					opp_map_place(fresh, t);
			}
			opp_map_publish(fresh);
			kfree_rcu(map, rcu);
			map = fresh;
		} else if (4 * (map->used + 1) > 3 * slots) {
			return -ENOMEM;
		}
	}
	opp_map_place(map, arr);
	return 0;
}

/* Put @arr, which is in the map, in its slot: a search sees one or the other. */
static void opp_map_replace(struct opp_array *old, struct opp_array *arr)
{
	struct opp_map *map = opp_map_locked();

	rcu_assign_pointer(map->slot[opp_map_index(map, old)], arr);
}

/* Take @arr out of the map: its slot becomes the tombstone. */
static void opp_map_remove(struct opp_array *arr)
{
	opp_map_replace(arr, &opp_tombstone);
}

/* Updater side: the array a device of a table finds. */
static struct opp_array *opp_sharer_array(struct device *dev)
{
	lockdep_assert_held(&opp_lock);
	return opp_map_find(dev);
}

/*
 * An array for @dev that shares the OPPs of @arr, sealed and not yet
 * published, of @table: a copy of the header and rates, pointing at the
 * same OPPs, whose availability it mirrors (opp_set_available()).
 */
static struct opp_array *opp_alias_alloc(const struct opp_array *arr,
					 struct opp_table *table,
					 struct device *dev)
{
	size_t size = struct_size(arr, rate, arr->span);
	struct opp_array *alias = kmalloc(size, GFP_KERNEL);

	if (alias) {
		memcpy(alias, arr, size);
		alias->dev = dev;
		alias->table = table;
	}
	return alias;
}

/*
 * Publish @arr, filled and sealed, as @table's OPPs: in the table (for
 * handles), in the slot of @table's device and in one of each sharer (for
 * searches by device). The sharers' arrays are allocated first, so that
 * the update happens whole or not at all (-ENOMEM); their old ones are
 * freed here, while the caller frees @table's old array with kfree_rcu()
 * once it no longer reads it. A reader by a sharer may find the old OPPs
 * for the few instructions between two slots.
 */
static int opp_table_publish(struct opp_table *table, struct opp_array *arr)
{
	struct opp_array **alias = NULL, *old;
	unsigned int i, n = table->nr_sharers;

	opp_array_own(arr, table);
	if (n) {
		alias = kcalloc(n, sizeof(*alias), GFP_KERNEL);
		for (i = 0; alias && i < n; i++) {
			alias[i] = opp_alias_alloc(arr, table, table->sharers[i]);
			if (!alias[i])
				break;
		}
		if (!alias || i < n) {
			while (alias && i--)
				kfree(alias[i]);
			kfree(alias);
			return -ENOMEM;
		}
	}
	/* @table's device's array: its OPPs, or a sharer's being promoted. */
	opp_map_replace(opp_sharer_array(table->dev), arr);
	rcu_assign_pointer(table->head.opps, arr);
	for (i = 0; i < n; i++) {
		old = opp_sharer_array(table->sharers[i]);
		opp_map_replace(old, alias[i]);
		kfree_rcu(old, rcu);
	}
	kfree(alias);
	return 0;
}

/* Take the sharer @k of @table out of it: its searches find nothing. */
void opp_table_unshare(struct opp_table *table, unsigned int k)
{
	struct device *dev = table->sharers[k];
	struct opp_array *alias = opp_sharer_array(dev);

	opp_map_remove(alias);
	kfree_rcu(alias, rcu);
	table->nr_sharers--;
	memmove(&table->sharers[k], &table->sharers[k + 1],
		(table->nr_sharers - k) * sizeof(*table->sharers));
	put_device(dev);
}

/*
 * Take @table and every sharer out of the map; the sharers' arrays and
 * references go now, the table's with opp_table_free().
 */
static void opp_table_unmap(struct opp_table *table)
{
	opp_map_remove(opp_array_locked(table));
	while (table->nr_sharers)
		opp_table_unshare(table, table->nr_sharers - 1);
	kfree(table->sharers);
	table->sharers = NULL;
}

/* An array for @count OPPs (at least one); fill ->opp, then seal it. */
static struct opp_array *opp_array_alloc(unsigned int count)
{
	unsigned int span = max_t(unsigned int, OPP_SPAN_MIN,
				  roundup_pow_of_two(count));
	struct opp_array *arr;

	/* The OPPs follow the rates: they must not need more alignment. */
	BUILD_BUG_ON(__alignof__(struct opp) > __alignof__(unsigned long));
	arr = kmalloc(size_add(struct_size(arr, rate, span),
			       array_size(count, sizeof(*arr->opp))), GFP_KERNEL);
	if (arr) {
		arr->count = count;
		arr->span = span;
		arr->opp = (struct opp *)&arr->rate[span];
	}
	return arr;
}

/*
 * Copy the filled array's rates and availability into what the searches
 * read; before publishing.
 */
static void opp_array_seal(struct opp_array *arr)
{
	unsigned int i;

	arr->avail = 0;
	for (i = 0; i < arr->count; i++) {
		arr->rate[i] = arr->opp[i].rate;
		if (i < BITS_PER_LONG && arr->opp[i].available)
			arr->avail |= BIT(i);
	}
	for (; i < arr->span; i++)
		arr->rate[i] = ULONG_MAX;
}

static void opp_set_avail_bit(struct opp_array *arr, unsigned int i,
			      bool available)
{
	if (i < BITS_PER_LONG)
		WRITE_ONCE(arr->avail, available ? arr->avail | BIT(i) :
				       arr->avail & ~BIT(i));
}

/*
 * Make OPP @i of @table's published OPPs available or not, in place: a
 * byte and a word are never torn, and the searches read the word while
 * the accessors read the byte. The sharers' arrays have a word each.
 * Under opp_lock.
 */
void opp_set_available(struct opp_table *table, unsigned int i,
		       bool available)
{
	struct opp_array *arr = opp_array_locked(table);
	unsigned int k;

	WRITE_ONCE(arr->opp[i].available, available);
	opp_set_avail_bit(arr, i, available);
	for (k = 0; k < table->nr_sharers; k++)
		opp_set_avail_bit(opp_sharer_array(table->sharers[k]), i,
				  available);
}

static void opp_table_release(struct kref *ref);

/*
 * An OPP's extra of @size, zeroed: the bandwidths, then the required-opps
 * entries, the supplies' values and the clocks' rates, each aligned for
 * its type, in one allocation; NULL if memory ran out.
 */
struct opp_extra *opp_extra_alloc(const struct opp_extra_size *size)
{
	size_t req = ALIGN(struct_size_t(struct opp_extra, bw,
					 2 * size->nr_paths),
			   __alignof__(struct opp_required));
	size_t supply = ALIGN(size_add(req, array_size(size->nr_required,
						       sizeof(struct opp_required))),
			      __alignof__(struct opp_supply));
	size_t rates = size_add(supply, array_size(size->nr_supplies,
						   sizeof(struct opp_supply)));
	struct opp_extra *x;

	x = kzalloc(size_add(rates, array_size(size->nr_clks,
					       sizeof(unsigned long))),
		    GFP_KERNEL);
	if (x) {
		x->nr_paths = size->nr_paths;
		x->nr_required = size->nr_required;
		x->nr_supplies = size->nr_supplies;
		x->nr_clks = size->nr_clks;
		x->req = (struct opp_required *)((char *)x + req);
		x->supply = (struct opp_supply *)((char *)x + supply);
		x->rates = (unsigned long *)((char *)x + rates);
	}
	return x;
}

/*
 * Release @extra (NULL is nothing): its nodes and the references its
 * resolved entries hold now, its memory after a grace period, since a
 * reader may still hold the OPP. Under opp_lock, or before it is
 * published.
 */
void opp_extra_free(struct opp_extra *extra)
{
	struct opp_table *t;
	unsigned int i;

	if (!extra)
		return;
	for (i = 0; i < extra->nr_required; i++) {
		of_node_put(extra->req[i].tnp);
		of_node_put(extra->req[i].np);
		t = rcu_dereference_protected(extra->req[i].table, true);
		if (t)
			kref_put(&t->ref, opp_table_release);
	}
	kfree_rcu(extra, rcu);
}

/* @opp's values, with the availability a search matched it by. */
static __always_inline void opp_info_fill(struct opp_info *info,
					  const struct opp *opp, bool available)
{
	info->rate = opp->rate;
	info->u_volt = opp->u_volt;
	info->u_volt_min = opp->u_volt_min;
	info->u_volt_max = opp->u_volt_max;
	info->u_amp = opp->u_amp;
	info->u_watt = opp->u_watt;
	info->level = READ_ONCE(opp->level);
	info->peak_kbps = opp_peak_bw(opp, 0);
	info->avg_kbps = opp_avg_bw(opp, 0);
	info->available = available;
	info->turbo = opp->turbo;
	info->suspend = opp->suspend;
}

static void opp_notify(struct opp_table *table, enum dev_pm_opp_event event,
		       const struct opp *opp)
{
	struct opp_info info;

	lockdep_assert_held(&opp_lock);
	opp_info_fill(&info, opp, opp->available);
	if (table->notifiers)
		blocking_notifier_call_chain(table->notifiers, event, &info);
}

static void opp_table_release(struct kref *ref)
{
	kfree_rcu(container_of(ref, struct opp_table, ref), rcu);
}

/*
 * End @table, already out of the map (opp_table_unmap()): its OPPs, its notifiers and its
 * device reference go now, its memory when the last handle on it is put.
 * Readers still inside keep valid memory.
 */
static void opp_table_free(struct opp_table *table)
{
	struct opp_array *arr = opp_array_locked(table);
	unsigned int i;

	for (i = 0; i < arr->count; i++)
		opp_extra_free(arr->opp[i].extra);
	/* Calls only happen under opp_lock: none is in flight. */
	of_node_put(table->np);
	table->np = NULL;
	kfree(table->notifiers);
	table->notifiers = NULL;
	/* Searches through a handle find nothing from now on. */
	RCU_INIT_POINTER(table->head.opps, NULL);
	kfree_rcu(arr, rcu);
	/*
	 * A reader compares table->dev but never dereferences it, and a new
	 * device at the same address can only appear after this put, when
	 * @table can no longer be found; so the put need not wait for readers.
	 */
	put_device(table->dev);
	kref_put(&table->ref, opp_table_release);
}

static void opp_table_remove(struct opp_table *table)
{
	struct opp_array *arr = opp_array_locked(table);
	unsigned int i;

	opp_table_unmap(table);
	list_del(&table->list_node);
	for (i = 0; i < arr->count; i++)
		opp_notify(table, OPP_EVENT_REMOVE, &arr->opp[i]);
	opp_table_free(table);
}

/* Make @dev, which has no table, a sharer of @table. */
int opp_table_share(struct opp_table *table, struct device *dev)
{
	struct opp_array *alias;
	struct device **sharers;
	int ret;

	lockdep_assert_held(&opp_lock);
	sharers = krealloc_array(table->sharers, table->nr_sharers + 1,
				 sizeof(*sharers), GFP_KERNEL);
	if (!sharers)
		return -ENOMEM;
	table->sharers = sharers;
	alias = opp_alias_alloc(opp_array_locked(table), table, dev);
	if (!alias)
		return -ENOMEM;
	ret = opp_map_add(alias);
	if (ret) {
		kfree(alias);
		return ret;
	}
	sharers[table->nr_sharers++] = get_device(dev);
	return 0;
}

/*
 * Take @dev out of @table, the table it finds. The last device takes the
 * table with it. When the table's own device goes, its first sharer takes
 * its place, with a copy of the OPPs of its own (the other sharers' arrays
 * point at the OPPs of the table's device).
 */
static int opp_table_detach(struct opp_table *table, struct device *dev)
{
	struct opp_array *old, *arr, *promoted;
	unsigned int k;
	int ret;

	if (!table->nr_sharers) {
		opp_table_remove(table);
		return 0;
	}
	if (dev != table->dev) {
		for (k = 0; table->sharers[k] != dev; k++)
			;
		opp_table_unshare(table, k);
		return 0;
	}

	old = opp_array_locked(table);
	arr = opp_array_alloc(old->count);
	if (!arr)
		return -ENOMEM;
	memcpy(arr->opp, old->opp, old->count * sizeof(*arr->opp));
	opp_array_seal(arr);
	promoted = opp_sharer_array(table->sharers[0]);
	/* Swap the two devices' roles, then drop @dev as a sharer. */
	swap(table->dev, table->sharers[0]);
	ret = opp_table_publish(table, arr);
	if (ret) {
		swap(table->dev, table->sharers[0]);
		kfree(arr);
		return ret;
	}
	kfree_rcu(promoted, rcu);
	opp_table_unshare(table, 0);
	return 0;
}

int opp_share_of_locked(struct device *dev, const struct device_node *np)
{
	struct opp_table *table;

	lockdep_assert_held(&opp_lock);
	if (opp_table_locked(dev))
		return -ENOENT;
	list_for_each_entry(table, &opp_table_list, list_node)
		if (table->shared && table->np == np)
			return opp_table_share(table, dev);
	return -ENOENT;
}

/*
 * At most one OPP of a table is the suspend OPP: of those marked, the
 * fastest, as the kernel's OPP core picks it.
 */
static void opp_keep_one_suspend(struct opp_array *arr)
{
	bool seen = false;
	unsigned int i;

	for (i = arr->count; i-- > 0; ) {
		if (seen)
			arr->opp[i].suspend = false;
		seen |= arr->opp[i].suspend;
	}
}

/*
 * The order of a table, the kernel's OPP core's: by each clock's rate in
 * turn, then by the peak bandwidth of each path in turn, then by level
 * (tables keyed by level or bandwidth have a rate of 0). Two OPPs that
 * compare equal are one OPP given twice.
 */
int opp_key_cmp(const struct opp *a, const struct opp *b)
{
	unsigned int i, paths, clks = max(opp_nr_clks(a), opp_nr_clks(b));
	unsigned long ra, rb;
	u32 x, y;

	/* Every clock's rate in turn, as the kernel's core compares them. */
	for (i = 0; i < clks; i++) {
		ra = opp_clk_rate(a, i);
		rb = opp_clk_rate(b, i);
		if (ra != rb)
			return ra < rb ? -1 : 1;
	}
	paths = max(a->extra ? a->extra->nr_paths : 0,
		    b->extra ? b->extra->nr_paths : 0);
	for (i = 0; i < paths; i++) {
		x = opp_peak_bw(a, i);
		y = opp_peak_bw(b, i);
		if (x != y)
			return x < y ? -1 : 1;
	}
	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	return 0;
}

/* The index of the first OPP of @arr whose key is not below @pt's. */
static unsigned int opp_key_bound(const struct opp_array *arr,
				  const struct opp *pt)
{
	unsigned int lo = 0, hi = arr->count, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (opp_key_cmp(&arr->opp[mid], pt) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Once @pts are merged into a table that had @old: the table owns the
 * extras of the points it took (those not already in @old), which the
 * caller must no longer free.
 */
static void opp_points_taken(struct opp *pts, unsigned int n,
			     const struct opp_array *old)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		j = old ? opp_key_bound(old, &pts[i]) : 0;
		if (!old || j == old->count || opp_key_cmp(&old->opp[j], &pts[i]))
			pts[i].extra = NULL;
	}
}

/*
 * Merge @n points, sorted by key (opp_key_cmp()) without repeats, into
 * @dev's table in one copy, so that readers see all of them or none. A
 * point already present with the same voltage and available is skipped;
 * one present otherwise is -EEXIST and nothing is added. @facts, if not
 * NULL, are those of the device-tree table the points come from; @cfg, if
 * not NULL, is @dev's configuration, whose supplies each new point is
 * checked against. On success the table owns the extras of the points it
 * added, and their ->extra in @pts is cleared; the caller frees those
 * left.
 */
int opp_add_points_locked(struct device *dev,
			  const struct opp_dev_config *cfg, struct opp *pts,
			  unsigned int n, const struct opp_table_facts *facts)
{
	struct opp_array *old = NULL, *arr;
	struct opp_table *table, *fresh;
	unsigned int i, j, k, fresh_n = 0, old_n = 0;
	int ret = 0;

	lockdep_assert_held(&opp_lock);
	table = opp_table_locked(dev);
	if (table) {
		old = opp_array_locked(table);
		old_n = old->count;
	}
	for (i = 0; i < n; i++) {
		j = old ? opp_key_bound(old, &pts[i]) : 0;
		if (j == old_n || opp_key_cmp(&old->opp[j], &pts[i])) {
			fresh_n++;
			opp_ops->check_supply(dev, cfg, &pts[i]);
			continue;
		}
		if (old->opp[j].u_volt != pts[i].u_volt ||
		    !old->opp[j].available)
			return -EEXIST;
	}
	if (!fresh_n)
		return 0;

	arr = opp_array_alloc(old_n + fresh_n);
	if (!arr)
		return -ENOMEM;
	for (i = 0, j = 0, k = 0; i < n || j < old_n; ) {
		if (j < old_n &&
		    (i == n || opp_key_cmp(&old->opp[j], &pts[i]) <= 0)) {
			if (i < n && !opp_key_cmp(&old->opp[j], &pts[i]))
				i++;	/* identical to the present one */
			arr->opp[k++] = old->opp[j++];
		} else {
			arr->opp[k++] = pts[i++];
		}
	}
	opp_keep_one_suspend(arr);
	opp_array_seal(arr);

	if (!table) {
		fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
		if (!fresh) {
			kfree(arr);
			return -ENOMEM;
		}
		fresh->dev = get_device(dev);
		RCU_INIT_POINTER(fresh->head.opps, arr);
		kref_init(&fresh->ref);
		if (facts) {
			fresh->clock_latency_ns = facts->clock_latency_ns;
			fresh->nr_paths = facts->nr_paths;
			fresh->np = of_node_get(facts->np);
			fresh->shared = facts->shared;
			fresh->genpd = facts->genpd;
		}
		opp_array_own(arr, fresh);
		ret = opp_map_add(arr);
		if (ret) {
			of_node_put(fresh->np);
			put_device(dev);
			kfree(arr);
			kfree(fresh);
			return ret;
		}
		list_add_tail(&fresh->list_node, &opp_table_list);
		opp_points_taken(pts, n, NULL);
		return 0;
	}

	ret = opp_table_publish(table, arr);
	if (ret) {
		kfree(arr);
		return ret;
	}
	opp_points_taken(pts, n, old);
	if (facts && facts->clock_latency_ns > table->clock_latency_ns)
		WRITE_ONCE(table->clock_latency_ns, facts->clock_latency_ns);
	if (facts && !table->nr_paths)
		WRITE_ONCE(table->nr_paths, facts->nr_paths);
	/* Both sorted: what @arr has and @old had not is new. */
	for (j = 0, k = 0; k < arr->count; k++) {
		if (j < old_n && !opp_key_cmp(&old->opp[j], &arr->opp[k]))
			j++;
		else
			opp_notify(table, OPP_EVENT_ADD, &arr->opp[k]);
	}
	kfree_rcu(old, rcu);
	return 0;
}

/* ---- Updaters: add, enable, disable, remove ---- */

/**
 * opp_add() - add an OPP to a device's table
 * @dev:	the device (one clock/voltage domain) the OPP belongs to
 * @freq:	frequency in Hz; must not be 0
 * @u_volt:	voltage in microvolts
 *
 * Creates @dev's table on first use (and takes a reference on @dev until
 * the table is removed) and inserts the OPP in frequency order. The new
 * OPP is available. Re-adding an OPP that is present with the same
 * voltage and available does nothing and succeeds, so that a driver that
 * probes again can register its table again.
 *
 * Notifies OPP_EVENT_ADD when an OPP was added.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock(). Concurrent readers see the
 * table either without or with the new OPP.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @freq is
 * 0; -EEXIST if @freq is already in the table with another voltage, or
 * disabled; -ENOMEM if memory ran out. On error the table is unchanged.
 */
int opp_add(struct device *dev, unsigned long freq, unsigned long u_volt)
{
	struct opp pt = {
		.rate = freq,
		.u_volt = u_volt,
		.u_volt_min = u_volt,
		.u_volt_max = u_volt,
		/* Level 0, not "none": the kernel's dev_pm_opp_add() gives 0. */
		.level = 0,
		.available = true,
	};
	int ret;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!freq) {
		/* The accessors return 0 for "no OPP": 0 Hz cannot be an OPP. */
		dev_warn_ratelimited(dev, "%s: frequency 0\n", __func__);
		return -EINVAL;
	}
	mutex_lock(&opp_lock);
	ret = opp_add_points_locked(dev, opp_ops->config_locked(dev), &pt, 1,
				    NULL);
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_add);

static int opp_set_availability(struct device *dev, unsigned long freq,
				bool available, const char *func)
{
	struct opp_table *table;
	struct opp_array *arr;
	unsigned int i;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, func))
		return -EINVAL;

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (!table) {
		ret = -ENODEV;
		goto unlock;
	}
	arr = opp_array_locked(table);
	i = opp_lower_bound(arr, freq);
	if (i == arr->count || arr->opp[i].rate != freq) {
		ret = -ENODEV;
		goto unlock;
	}
	if (arr->opp[i].available == available)
		goto unlock;
	/*
	 * In place: a byte is never torn, rate and voltage do not change,
	 * and so readers need no new copy and we need no grace period.
	 */
	opp_set_available(table, i, available);
	opp_notify(table, available ? OPP_EVENT_ENABLE : OPP_EVENT_DISABLE,
		   &arr->opp[i]);
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}

/**
 * opp_enable() - make an OPP available again
 * @dev:	the device whose table holds the OPP
 * @freq:	the OPP's exact frequency in Hz
 *
 * Searches see the OPP again. Enabling an available OPP succeeds and
 * changes nothing; otherwise OPP_EVENT_ENABLE is notified. Returns without
 * waiting for an RCU grace period.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no table or the table has no OPP at @freq.
 */
int opp_enable(struct device *dev, unsigned long freq)
{
	return opp_set_availability(dev, freq, true, __func__);
}
EXPORT_SYMBOL_GPL(opp_enable);

/**
 * opp_disable() - make an OPP unavailable without removing it
 * @dev:	the device whose table holds the OPP
 * @freq:	the OPP's exact frequency in Hz
 *
 * Typically used by thermal or power management code to forbid an OPP for
 * a while. The ceil and floor searches and the count skip it; only
 * opp_find_freq_exact() with @available false finds it. Disabling a
 * disabled OPP succeeds and changes nothing; otherwise OPP_EVENT_DISABLE is
 * notified. Returns without waiting for an RCU grace period.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no table or the table has no OPP at @freq.
 */
int opp_disable(struct device *dev, unsigned long freq)
{
	return opp_set_availability(dev, freq, false, __func__);
}
EXPORT_SYMBOL_GPL(opp_disable);

/**
 * opp_remove() - remove one OPP from a device's table
 * @dev:	the device whose table holds the OPP
 * @freq:	the OPP's exact frequency in Hz
 *
 * Notifies OPP_EVENT_REMOVE. Removing the last OPP removes the table (with
 * its notifier chain) and drops the library's reference on @dev. Readers
 * that found the OPP before it was removed may keep using it until their
 * rcu_read_unlock(); its memory is freed after a grace period, without
 * waiting for one here.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no table or the table has no OPP at @freq; -ENOMEM if memory
 * ran out (the table is then unchanged).
 */
int opp_remove(struct device *dev, unsigned long freq)
{
	struct opp_array *old, *arr;
	struct opp_table *table;
	unsigned int i, n;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (!table) {
		ret = -ENODEV;
		goto unlock;
	}
	old = opp_array_locked(table);
	n = old->count;
	i = opp_lower_bound(old, freq);
	if (i == n || old->opp[i].rate != freq) {
		ret = -ENODEV;
		goto unlock;
	}
	if (n == 1) {
		opp_table_remove(table);
		goto unlock;
	}

	arr = opp_array_alloc(n - 1);
	if (!arr) {
		ret = -ENOMEM;
		goto unlock;
	}
	memcpy(arr->opp, old->opp, i * sizeof(*arr->opp));
	memcpy(arr->opp + i, old->opp + i + 1, (n - i - 1) * sizeof(*arr->opp));
	opp_array_seal(arr);
	ret = opp_table_publish(table, arr);
	if (ret) {
		kfree(arr);
		goto unlock;
	}
	opp_notify(table, OPP_EVENT_REMOVE, &old->opp[i]);
	opp_extra_free(old->opp[i].extra);
	kfree_rcu(old, rcu);
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_remove);

/**
 * opp_remove_table() - remove a device's whole table
 * @dev:	the device whose table to remove
 *
 * Notifies OPP_EVENT_REMOVE for each OPP, then drops the table's notifier
 * chain and the library's reference on @dev. Readers inside the table keep
 * valid memory until their rcu_read_unlock(); it is freed after a grace
 * period, without waiting for one here.
 *
 * A table that other devices share (opp_set_sharing_cpus(), an
 * ``opp-shared`` device-tree table) stays theirs: only @dev leaves it,
 * finding no table from then on, and nothing is notified; the last device
 * to leave removes it as above.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if
 * @dev has no table.
 */
int opp_remove_table(struct device *dev)
{
	struct opp_table *table;
	int ret = 0;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	ret = table ? opp_table_detach(table, dev) : -ENODEV;
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_remove_table);

/* ---- Notifiers ---- */

/* The table whose chain holds @nb, or NULL. */
static struct opp_table *opp_notifier_owner(struct notifier_block *nb)
{
	struct notifier_block *p;
	struct opp_table *table;

	lockdep_assert_held(&opp_lock);
	list_for_each_entry(table, &opp_table_list, list_node) {
		if (!table->notifiers)
			continue;
		/* Chains only change under opp_lock, which we hold. */
		for (p = rcu_dereference_protected(table->notifiers->head, true); p;
		     p = rcu_dereference_protected(p->next, true))
			if (p == nb)
				return table;
	}
	return NULL;
}

/**
 * opp_register_notifier() - be told of every change to a device's table
 * @dev:	the device whose table to watch
 * @nb:		the notifier; its callback gets an &enum dev_pm_opp_event and a
 *		&struct opp_info of the OPP concerned, valid during the call
 *
 * The callback runs after the change is visible to searches, in update
 * order, under the library's update mutex: it may search the table (any
 * search, opp_lookup_*(), opp_init_cpufreq_table()) but must not call an
 * updater or (un)register a notifier, and should be quick (defer work to a
 * work item). The registration ends with the table: once the table is
 * removed (after the callback got OPP_EVENT_REMOVE for each of its OPPs)
 * @nb is no longer called, and opp_unregister_notifier() returns -ENODEV.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @nb is
 * NULL; -ENODEV if @dev has no table; -ENOMEM if memory ran out; -EEXIST
 * if @nb is already registered, for this device or another.
 */
int opp_register_notifier(struct device *dev, struct notifier_block *nb)
{
	struct blocking_notifier_head *head;
	struct opp_table *table;
	int ret;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!nb) {
		dev_warn_ratelimited(dev, "%s: notifier is NULL\n", __func__);
		return -EINVAL;
	}

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (!table) {
		ret = -ENODEV;
		goto unlock;
	}
	if (!table->notifiers) {
		head = kzalloc(sizeof(*head), GFP_KERNEL);
		if (!head) {
			ret = -ENOMEM;
			goto unlock;
		}
		BLOCKING_INIT_NOTIFIER_HEAD(head);
		table->notifiers = head;
	}
	/*
	 * The chain would WARN on a double registration, and a block on two
	 * chains would corrupt both: refuse both cleanly.
	 */
	ret = opp_notifier_owner(nb) ? -EEXIST :
		blocking_notifier_chain_register(table->notifiers, nb);
unlock:
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_register_notifier);

/**
 * opp_unregister_notifier() - stop being told of a device's table changes
 * @dev:	the device whose table was watched
 * @nb:		the notifier given to opp_register_notifier()
 *
 * When this returns, @nb's callback is not running and will not run again.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock() nor from a notifier callback.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @nb is
 * NULL; -ENODEV if @dev has no table (a removed table took its
 * registrations with it); -ENOENT if @nb is not registered for @dev.
 */
int opp_unregister_notifier(struct device *dev, struct notifier_block *nb)
{
	struct opp_table *table;
	int ret = -ENOENT;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	if (!nb) {
		dev_warn_ratelimited(dev, "%s: notifier is NULL\n", __func__);
		return -EINVAL;
	}

	mutex_lock(&opp_lock);
	table = opp_table_locked(dev);
	if (!table)
		ret = -ENODEV;
	else if (opp_notifier_owner(nb) == table)
		ret = blocking_notifier_chain_unregister(table->notifiers, nb);
	mutex_unlock(&opp_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_unregister_notifier);

/* ---- Searches and accessors (the caller holds rcu_read_lock()) ---- */

/*
 * Why a search found nothing to search: a NULL or ERR_PTR @dev (-EINVAL,
 * warned about as @func's) or no table (-ENODEV). Out of line, as is
 * opp_freq_fault(): the searches test the likely case only and call these
 * from one place, so that what they run on a hit is the probe and the
 * match alone, without even a stack frame.
 */
static noinline struct opp *opp_search_fault(struct device *dev,
					     const char *func)
{
	return ERR_PTR(opp_bad_dev(dev, func) ? -EINVAL : -ENODEV);
}

/* The same for a ceil or floor search, whose @freq may be NULL too. */
static noinline struct opp *opp_freq_fault(struct device *dev,
					   const unsigned long *freq,
					   const char *func)
{
	if (!freq) {
		pr_warn_ratelimited("%s: freq is NULL\n", func);
		return ERR_PTR(-EINVAL);
	}
	return opp_search_fault(dev, func);
}

/*
 * @dev's current OPPs, or NULL when it has none: no table, or a NULL or
 * ERR_PTR @dev, which the map never holds.
 */
static __always_inline struct opp_array *opp_dev_opps(struct device *dev)
{
	return opp_map_find(dev);
}

/* A ceil or floor search by rate, inlined into each export. */
static __always_inline struct opp *opp_freq_search(struct device *dev,
						   enum opp_match how,
						   unsigned long *freq,
						   const char *func)
{
	struct opp_array *arr = opp_dev_opps(dev);

	if (unlikely(!freq || !arr))
		return opp_freq_fault(dev, freq, func);
	return opp_match_freq(arr, how, freq);
}

/**
 * opp_find_freq_exact() - find the OPP at a frequency, by availability
 * @dev:	the device whose table to search
 * @freq:	the exact frequency in Hz
 * @available:	whether the OPP looked for is available or disabled
 *
 * The only search that can return a disabled OPP: a thermal or power
 * management user finds the OPP it is about to enable this way, with
 * @available false.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP whose rate is @freq and whose availability is
 * @available; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR;
 * ERR_PTR(-ENODEV) if @dev has no table; ERR_PTR(-ERANGE) if no OPP
 * matches.
 */
struct opp *opp_find_freq_exact(struct device *dev, unsigned long freq,
				bool available)
{
	struct opp_array *arr = opp_dev_opps(dev);

	if (unlikely(!arr))
		return opp_search_fault(dev, __func__);
	return opp_match_exact(arr, freq, available);
}
EXPORT_SYMBOL_GPL(opp_find_freq_exact);

/**
 * opp_find_freq_ceil() - find the lowest available OPP at or above a rate
 * @dev:	the device whose table to search
 * @freq:	in: the lowest acceptable frequency in Hz; out: the rate of
 *		the OPP found (untouched on error)
 *
 * Walking a table upwards: start with *@freq = 0 and add 1 to *@freq
 * after each OPP found.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR or
 * @freq is NULL; ERR_PTR(-ENODEV) if @dev has no table; ERR_PTR(-ERANGE)
 * if no available OPP has a rate >= *@freq.
 */
struct opp *opp_find_freq_ceil(struct device *dev, unsigned long *freq)
{
	return opp_freq_search(dev, OPP_MATCH_CEIL, freq, __func__);
}
EXPORT_SYMBOL_GPL(opp_find_freq_ceil);

/**
 * opp_find_freq_floor() - find the highest available OPP at or below a rate
 * @dev:	the device whose table to search
 * @freq:	in: the highest acceptable frequency in Hz; out: the rate of
 *		the OPP found (untouched on error)
 *
 * *@freq = ULONG_MAX finds the highest available OPP.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR or
 * @freq is NULL; ERR_PTR(-ENODEV) if @dev has no table; ERR_PTR(-ERANGE)
 * if no available OPP has a rate <= *@freq.
 */
struct opp *opp_find_freq_floor(struct device *dev, unsigned long *freq)
{
	return opp_freq_search(dev, OPP_MATCH_FLOOR, freq, __func__);
}
EXPORT_SYMBOL_GPL(opp_find_freq_floor);

/* What a level (@path < 0) or bandwidth search compares of @opp. */
static unsigned int opp_key_of(const struct opp *opp, int path)
{
	return path < 0 ? READ_ONCE(opp->level) : opp_peak_bw(opp, path);
}

/*
 * The index of the available OPP of @arr a level or bandwidth search
 * finds, or -1: the first whose key is @key (exact) or at least @key
 * (ceil), or the last before the first whose key is above @key (floor),
 * in the table's order, as the kernel's OPP core scans its list. In a
 * table keyed by level (bandwidth) that order is the levels' (the
 * bandwidths'); in one keyed by rate it is the rates', whatever the
 * other keys do. The key is the level for a @path below 0, else the
 * peak bandwidth of that path.
 */
static int opp_match_key(const struct opp_array *arr, enum opp_match how,
			 unsigned int key, int path)
{
	unsigned int i, k;
	int found = -1;

	for (i = 0; i < arr->count; i++) {
		if (!READ_ONCE(arr->opp[i].available))
			continue;
		k = opp_key_of(&arr->opp[i], path);
		switch (how) {
		case OPP_MATCH_EXACT:
			if (k == key)
				return i;
			break;
		case OPP_MATCH_CEIL:
			if (k >= key)
				return i;
			break;
		case OPP_MATCH_FLOOR:
			if (k > key)
				return found;
			found = i;
			break;
		}
	}
	return found;
}

/* A search whose in-out argument is NULL, or that found nothing to search. */
static noinline struct opp *opp_arg_fault(struct device *dev, bool no_arg,
					  const char *func)
{
	if (no_arg) {
		pr_warn_ratelimited("%s: argument is NULL\n", func);
		return ERR_PTR(-EINVAL);
	}
	return opp_search_fault(dev, func);
}

static struct opp *opp_level_search(struct device *dev, enum opp_match how,
				    unsigned int *level, const char *func)
{
	struct opp_array *arr = opp_dev_opps(dev);
	unsigned int found;
	int i;

	if (unlikely(!level || !arr))
		return opp_arg_fault(dev, !level, func);
	i = opp_match_key(arr, how, *level, -1);
	if (i < 0)
		return ERR_PTR(-ERANGE);
	found = READ_ONCE(arr->opp[i].level);
	/* Where an OPP without a level has U32_MAX, ceil may not match it. */
	if (how == OPP_MATCH_CEIL && OPP_LEVEL_NONE == U32_MAX &&
	    found == OPP_LEVEL_NONE)
		return ERR_PTR(-ENODEV);
	*level = found;
	return &arr->opp[i];
}

/**
 * opp_find_level_exact() - find the available OPP of a performance level
 * @dev:	the device whose table to search
 * @level:	the level (``opp-level``)
 *
 * The first available OPP, in the table's order, whose level is @level,
 * as the kernel's dev_pm_opp_find_level_exact() finds it. Disabled OPPs
 * are never found.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR;
 * ERR_PTR(-ENODEV) if @dev has no table; ERR_PTR(-ERANGE) if no available
 * OPP has that level.
 */
struct opp *opp_find_level_exact(struct device *dev, unsigned int level)
{
	return opp_level_search(dev, OPP_MATCH_EXACT, &level, __func__);
}
EXPORT_SYMBOL_GPL(opp_find_level_exact);

/**
 * opp_find_level_ceil() - find the first available OPP at or above a level
 * @dev:	the device whose table to search
 * @level:	in: the lowest acceptable level; out: the level of the OPP
 *		found (untouched on error)
 *
 * The first available OPP, in the table's order, whose level is at least
 * *@level, as the kernel's dev_pm_opp_find_level_ceil() finds it: in a
 * table keyed by level, the lowest such level. Where the running kernel
 * gives an OPP without ``opp-level`` the level U32_MAX (6.7 on, see
 * OPP_LEVEL_NONE), a match on such an OPP is no match: -ENODEV, as the
 * kernel answers.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR or
 * @level is NULL; ERR_PTR(-ENODEV) if @dev has no table, or (6.7 on) the
 * OPP matched has no level; ERR_PTR(-ERANGE) if no available OPP has a
 * level >= *@level.
 */
struct opp *opp_find_level_ceil(struct device *dev, unsigned int *level)
{
	return opp_level_search(dev, OPP_MATCH_CEIL, level, __func__);
}
EXPORT_SYMBOL_GPL(opp_find_level_ceil);

/**
 * opp_find_level_floor() - find the last available OPP at or below a level
 * @dev:	the device whose table to search
 * @level:	in: the highest acceptable level; out: the level of the OPP
 *		found (untouched on error)
 *
 * Scanning the available OPPs in the table's order, the last one before
 * the first whose level is above *@level, as the kernel's
 * dev_pm_opp_find_level_floor() finds it (6.12 has it, 6.1 not): in a
 * table keyed by level, the highest level at or below *@level. The
 * library has it on every kernel it builds for.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR or
 * @level is NULL; ERR_PTR(-ENODEV) if @dev has no table; ERR_PTR(-ERANGE)
 * if no available OPP comes before one above *@level.
 */
struct opp *opp_find_level_floor(struct device *dev, unsigned int *level)
{
	return opp_level_search(dev, OPP_MATCH_FLOOR, level, __func__);
}
EXPORT_SYMBOL_GPL(opp_find_level_floor);

static struct opp *opp_bw_search(struct device *dev, enum opp_match how,
				 unsigned int *bw, int index, const char *func)
{
	struct opp_array *arr = opp_dev_opps(dev);
	int i;

	if (unlikely(!bw || !arr))
		return opp_arg_fault(dev, !bw, func);
	/* As the kernel's: a path the table does not have is -EINVAL. */
	if (index < 0 || index >= READ_ONCE(arr->table->nr_paths))
		return ERR_PTR(-EINVAL);
	i = opp_match_key(arr, how, *bw, index);
	if (i < 0)
		return ERR_PTR(-ERANGE);
	*bw = opp_peak_bw(&arr->opp[i], index);
	return &arr->opp[i];
}

/**
 * opp_find_bw_ceil() - find the first available OPP at or above a bandwidth
 * @dev:	the device whose table to search
 * @bw:		in: the lowest acceptable peak bandwidth in kBps; out: the
 *		peak bandwidth of the OPP found (untouched on error)
 * @index:	which interconnect path's bandwidth to compare, from 0
 *
 * The first available OPP, in the table's order, whose peak bandwidth
 * on path @index (``opp-peak-kBps``) is at least *@bw, as the kernel's
 * dev_pm_opp_find_bw_ceil() finds it: in a table keyed by bandwidth, the
 * lowest such bandwidth.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR,
 * @bw is NULL, or the table has no path @index; ERR_PTR(-ENODEV) if @dev
 * has no table; ERR_PTR(-ERANGE) if no available OPP has a peak bandwidth
 * >= *@bw on that path.
 */
struct opp *opp_find_bw_ceil(struct device *dev, unsigned int *bw, int index)
{
	return opp_bw_search(dev, OPP_MATCH_CEIL, bw, index, __func__);
}
EXPORT_SYMBOL_GPL(opp_find_bw_ceil);

/**
 * opp_find_bw_floor() - find the last available OPP at or below a bandwidth
 * @dev:	the device whose table to search
 * @bw:		in: the highest acceptable peak bandwidth in kBps; out: the
 *		peak bandwidth of the OPP found (untouched on error)
 * @index:	which interconnect path's bandwidth to compare, from 0
 *
 * Scanning the available OPPs in the table's order, the last one before
 * the first whose peak bandwidth on path @index is above *@bw, as the
 * kernel's dev_pm_opp_find_bw_floor() finds it: in a table keyed by
 * bandwidth, the highest bandwidth at or below *@bw.
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR,
 * @bw is NULL, or the table has no path @index; ERR_PTR(-ENODEV) if @dev
 * has no table; ERR_PTR(-ERANGE) if no available OPP comes before one
 * above *@bw.
 */
struct opp *opp_find_bw_floor(struct device *dev, unsigned int *bw, int index)
{
	return opp_bw_search(dev, OPP_MATCH_FLOOR, bw, index, __func__);
}
EXPORT_SYMBOL_GPL(opp_find_bw_floor);

/*
 * Whether @opp is an OPP a search returned that is still available: the
 * accessors of a rate or a voltage answer nothing for any other.
 */
static bool opp_answers(const struct opp *opp)
{
	return !IS_ERR_OR_NULL(opp) && READ_ONCE(opp->available);
}

/**
 * opp_get_voltage() - the voltage of an OPP found by a search
 * @opp:	the OPP, as a search returned it
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the voltage in microvolts; 0 if @opp is NULL, an ERR_PTR or
 * disabled.
 */
unsigned long opp_get_voltage(struct opp *opp)
{
	return opp_answers(opp) ? opp->u_volt : 0;
}
EXPORT_SYMBOL_GPL(opp_get_voltage);

/**
 * opp_get_freq() - the frequency of an OPP found by a search
 * @opp:	the OPP, as a search returned it
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the frequency in Hz; 0 if @opp is NULL, an ERR_PTR or disabled.
 */
unsigned long opp_get_freq(struct opp *opp)
{
	return opp_answers(opp) ? opp->rate : 0;
}
EXPORT_SYMBOL_GPL(opp_get_freq);

/**
 * opp_get_voltage_min() - the lowest voltage an OPP accepts
 * @opp:	the OPP, as a search returned it
 *
 * The second cell of a ``<target min max>`` opp-microvolt; the target
 * voltage where the OPP has one value.
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the voltage in microvolts; 0 if @opp is NULL, an ERR_PTR or
 * disabled.
 */
unsigned long opp_get_voltage_min(struct opp *opp)
{
	return opp_answers(opp) ? opp->u_volt_min : 0;
}
EXPORT_SYMBOL_GPL(opp_get_voltage_min);

/**
 * opp_get_voltage_max() - the highest voltage an OPP accepts
 * @opp:	the OPP, as a search returned it
 *
 * The third cell of a ``<target min max>`` opp-microvolt; the target
 * voltage where the OPP has one value.
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the voltage in microvolts; 0 if @opp is NULL, an ERR_PTR or
 * disabled.
 */
unsigned long opp_get_voltage_max(struct opp *opp)
{
	return opp_answers(opp) ? opp->u_volt_max : 0;
}
EXPORT_SYMBOL_GPL(opp_get_voltage_max);

/**
 * opp_is_turbo() - whether an OPP is a boost (turbo-mode) OPP
 * @opp:	the OPP, as a search returned it
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: true if its device-tree node says ``turbo-mode``; false
 * otherwise, and if @opp is NULL or an ERR_PTR.
 */
bool opp_is_turbo(struct opp *opp)
{
	return !IS_ERR_OR_NULL(opp) && opp->turbo;
}
EXPORT_SYMBOL_GPL(opp_is_turbo);

/**
 * opp_get_power() - the power an OPP draws
 * @opp:	the OPP, as a search returned it
 *
 * Its ``opp-microwatt``, read where the running kernel's OPP core reads
 * it (see opp_of_add_table()). As the kernel's dev_pm_opp_get_power(),
 * it answers for a disabled OPP too: an energy model reads every OPP.
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the power in microwatts; 0 if the OPP has none, or @opp is
 * NULL or an ERR_PTR.
 */
unsigned long opp_get_power(struct opp *opp)
{
	return IS_ERR_OR_NULL(opp) ? 0 : opp->u_watt;
}
EXPORT_SYMBOL_GPL(opp_get_power);

/**
 * opp_get_level() - the performance level of an OPP
 * @opp:	the OPP, as a search returned it
 *
 * Its ``opp-level``, as the kernel's dev_pm_opp_get_level() gives it.
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the level (0 for an OPP of opp_add() or of a v1 table, as in
 * the kernel); OPP_LEVEL_NONE (U32_MAX from 6.7 on, 0 before, as the
 * running kernel answers) if a v2 OPP has none, if it is disabled, or if
 * @opp is NULL or an ERR_PTR.
 */
unsigned int opp_get_level(struct opp *opp)
{
	if (!opp_answers(opp))
		return OPP_LEVEL_NONE;
	/* From 6.8 on, a required OPP's level may arrive late (in place). */
	return READ_ONCE(opp->level);
}
EXPORT_SYMBOL_GPL(opp_get_level);

/**
 * opp_get_bw() - the bandwidth an OPP asks of an interconnect path
 * @opp:	the OPP, as a search returned it
 * @peak:	true: its ``opp-peak-kBps``; false: its ``opp-avg-kBps``
 * @index:	the path, from 0
 *
 * As the dev_pm_opp_get_bw() of later kernels, it answers for a disabled
 * OPP too.
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the bandwidth in kBps; 0 if the OPP gives none on that path
 * (an average left out included), or @opp is NULL or an ERR_PTR.
 */
unsigned long opp_get_bw(struct opp *opp, bool peak, int index)
{
	if (IS_ERR_OR_NULL(opp) || index < 0)
		return 0;
	return peak ? opp_peak_bw(opp, index) : opp_avg_bw(opp, index);
}
EXPORT_SYMBOL_GPL(opp_get_bw);

/**
 * opp_get_freq_indexed() - the rate an OPP gives one of the device's clocks
 * @opp:	the OPP, as a search returned it
 * @index:	the clock, in the order of opp_set_config()'s @clk_names
 *		(0 where the device has one clock)
 *
 * As the kernel's dev_pm_opp_get_freq_indexed(): one rate of the
 * ``opp-hz`` array of a device with several clocks; opp_get_freq() is
 * the first.
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the rate in Hz; 0 if @opp is NULL or an ERR_PTR or @index is
 * not one of its clocks.
 */
unsigned long opp_get_freq_indexed(struct opp *opp, unsigned int index)
{
	if (IS_ERR_OR_NULL(opp) || index >= opp_nr_clks(opp))
		return 0;
	return opp_clk_rate(opp, index);
}
EXPORT_SYMBOL_GPL(opp_get_freq_indexed);

/* Up to @count of @opp's supplies into @supplies; how many it has. */
static int opp_copy_supplies(const struct opp *opp,
			     struct opp_supply *supplies, unsigned int count)
{
	unsigned int i, n = opp_nr_supplies(opp);

	for (i = 0; i < min(n, count); i++)
		opp_supply_of(opp, i, &supplies[i]);
	return n;
}

/**
 * opp_get_supplies() - each supply's values at an OPP
 * @opp:	the OPP, as a search returned it
 * @supplies:	out: the first @count supplies' values
 * @count:	the room in @supplies
 *
 * As the kernel's dev_pm_opp_get_supplies(), with the room given: a
 * device with several supplies (opp_set_config()'s @regulator_names) has
 * one &struct opp_supply per supply, in the order of the names; any other
 * has one, which opp_get_voltage() and its siblings also read. Like
 * opp_get_power(), it answers for a disabled OPP too.
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the number of supplies the OPP has (those beyond @count are
 * not copied); -EINVAL if @opp is NULL or an ERR_PTR, or @supplies is
 * NULL with a @count.
 */
int opp_get_supplies(struct opp *opp, struct opp_supply *supplies,
		     unsigned int count)
{
	if (IS_ERR_OR_NULL(opp) || (!supplies && count))
		return -EINVAL;
	return opp_copy_supplies(opp, supplies, count);
}
EXPORT_SYMBOL_GPL(opp_get_supplies);

/*
 * Entry @index of @opp's required-opps, once every entry of the OPP is
 * resolved (the kernel answers nothing while any is pending); or NULL.
 */
static struct opp_required *opp_required_entry(struct opp *opp,
					       unsigned int index)
{
	struct opp_extra *x;
	unsigned int i;

	if (!opp_answers(opp))
		return NULL;
	x = opp->extra;
	if (!x || index >= x->nr_required)
		return NULL;
	for (i = 0; i < x->nr_required; i++)
		if (!rcu_dereference(x->req[i].table))
			return NULL;
	return &x->req[index];
}

/**
 * opp_get_required_level() - the level of an OPP's required OPP
 * @opp:	the OPP, as a search returned it
 * @index:	which entry of its ``required-opps``, from 0
 *
 * The ``opp-level`` of the OPP that entry @index of @opp's
 * ``required-opps`` names, in the table the library read from that OPP's
 * table node. What 6.12's dev_pm_opp_get_required_pstate() answers for a
 * power domain's table; 6.1's answers the domain's own translation, 0
 * without CONFIG_PM_GENERIC_DOMAINS, where this gives the level.
 *
 * Context: any context; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the level; 0 if @opp is NULL, an ERR_PTR or disabled, has no
 * entry @index, or any of its entries is still pending (the table it
 * points into was not read yet), as the kernel answers then.
 */
unsigned int opp_get_required_level(struct opp *opp, unsigned int index)
{
	struct opp_required *r = opp_required_entry(opp, index);

	return r ? READ_ONCE(r->level) : 0;
}
EXPORT_SYMBOL_GPL(opp_get_required_level);

/**
 * opp_get_required_table() - a handle on the table of a required OPP
 * @opp:	the OPP, as a search returned it
 * @index:	which entry of its ``required-opps``, from 0
 *
 * A handle, as opp_table_get() gives one, on the table the library read
 * from the table node that entry @index of @opp's ``required-opps``
 * points into: search it (by opp_get_required_level() for a power
 * domain's) to find the required OPP. Release it with opp_table_put().
 *
 * Context: any context but NMI; takes no lock. The caller holds the
 * rcu_read_lock() under which the search returned @opp.
 *
 * Return: the handle; ERR_PTR(-EINVAL) if @opp is NULL, an ERR_PTR or
 * disabled, or has no entry @index; ERR_PTR(-ENODEV) while an entry of
 * @opp is pending, or if that table was removed since.
 */
struct opp_table *opp_get_required_table(struct opp *opp, unsigned int index)
{
	struct opp_required *r;
	struct opp_table *t;

	if (!opp_answers(opp) || !opp->extra ||
	    index >= opp->extra->nr_required)
		return ERR_PTR(-EINVAL);
	r = opp_required_entry(opp, index);
	t = r ? rcu_dereference(r->table) : NULL;
	if (!t || !rcu_access_pointer(t->head.opps) ||
	    !kref_get_unless_zero(&t->ref))
		return ERR_PTR(-ENODEV);
	return t;
}
EXPORT_SYMBOL_GPL(opp_get_required_table);

/**
 * opp_get_opp_count() - the number of available OPPs of a device
 * @dev:	the device whose table to count
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock(); the count may be stale once it drops it.
 *
 * Return: the number of available OPPs (0 is valid: all are disabled);
 * -EINVAL if @dev is NULL or an ERR_PTR; -ENODEV if @dev has no table.
 */
int opp_get_opp_count(struct device *dev)
{
	struct opp_array *arr = opp_array_rcu(dev, __func__);
	unsigned int i;
	int count = 0;

	if (IS_ERR(arr))
		return PTR_ERR(arr);
	for (i = 0; i < arr->count; i++)
		count += READ_ONCE(arr->opp[i].available);
	return count;
}
EXPORT_SYMBOL_GPL(opp_get_opp_count);

/**
 * opp_get_suspend_opp_freq() - the rate a device should suspend at
 * @dev:	the device whose table to read
 *
 * The rate of the OPP its device-tree table marks ``opp-suspend`` (the
 * fastest, if several are), while that OPP is available: a disabled
 * suspend OPP gives 0, as the kernel's OPP core answers.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: the rate in Hz; 0 if @dev is NULL or an ERR_PTR, has no table,
 * its table has no suspend OPP or its suspend OPP is disabled.
 */
unsigned long opp_get_suspend_opp_freq(struct device *dev)
{
	struct opp_array *arr;
	unsigned long rate = 0;
	unsigned int i;

	rcu_read_lock();
	arr = opp_array_rcu(dev, __func__);
	for (i = 0; !IS_ERR(arr) && i < arr->count; i++)
		if (arr->opp[i].suspend && READ_ONCE(arr->opp[i].available))
			rate = arr->opp[i].rate;
	rcu_read_unlock();
	return rate;
}
EXPORT_SYMBOL_GPL(opp_get_suspend_opp_freq);

/**
 * opp_get_max_clock_latency() - the slowest clock change of a device
 * @dev:	the device whose table to read
 *
 * The largest ``clock-latency-ns`` of the OPPs its device-tree table
 * gave, kept even if those OPPs are removed since (the clock is the same).
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: the latency in nanoseconds; 0 if @dev is NULL or an ERR_PTR, has
 * no table, or no OPP of its table said.
 */
unsigned long opp_get_max_clock_latency(struct device *dev)
{
	struct opp_table *table;
	unsigned long ns = 0;

	rcu_read_lock();
	table = opp_table_find(dev);
	if (table && rcu_access_pointer(table->head.opps))
		ns = READ_ONCE(table->clock_latency_ns);
	else
		opp_bad_dev(dev, __func__);
	rcu_read_unlock();
	return ns;
}
EXPORT_SYMBOL_GPL(opp_get_max_clock_latency);

/*
 * The lowest minimum and the highest maximum voltage of @dev's OPPs,
 * disabled ones included; false if it has no table or no voltage.
 */
bool opp_voltage_span(struct device *dev, unsigned long *lo,
		      unsigned long *hi)
{
	struct opp_array *arr;
	unsigned int i;

	*lo = ULONG_MAX;
	*hi = 0;
	rcu_read_lock();
	arr = opp_array_rcu(dev, __func__);
	for (i = 0; !IS_ERR(arr) && i < arr->count; i++) {
		if (!arr->opp[i].u_volt)
			continue;
		*lo = min(*lo, arr->opp[i].u_volt_min);
		*hi = max(*hi, arr->opp[i].u_volt_max);
	}
	rcu_read_unlock();
	return *hi != 0;
}

/* ---- Copy-out lookups (any context, no rcu_read_lock() needed) ---- */

/*
 * The three copy-out lookups: search @dev's table as @how says under RCU
 * and copy the OPP found into @info. The availability copied is the one
 * the search matched: re-reading the flag could see a change made since,
 * and report an OPP no search returns.
 */
static __always_inline int opp_lookup(struct device *dev, enum opp_match how,
				      unsigned long freq, bool available,
				      struct opp_info *info, const char *func)
{
	struct opp_array *arr;
	int i, ret = 0;

	if (unlikely(!info))
		return -EINVAL;
	rcu_read_lock();
	arr = opp_dev_opps(dev);
	if (unlikely(!arr)) {
		ret = PTR_ERR(opp_search_fault(dev, func));
	} else {
		i = opp_match(arr, how, freq, available);
		if (likely(i >= 0))
			opp_info_fill(info, &arr->opp[i], available);
		else
			ret = -ERANGE;
	}
	rcu_read_unlock();
	return ret;
}

/**
 * opp_lookup_exact() - copy out the OPP at a frequency, by availability
 * @dev:	the device whose table to search
 * @freq:	the exact frequency in Hz
 * @available:	whether the OPP looked for is available or disabled
 * @info:	out: the OPP's values (untouched on error)
 *
 * opp_find_freq_exact() for callers that want values, not a pointer: no
 * rcu_read_lock() is needed and nothing can dangle.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @info is
 * NULL; -ENODEV if @dev has no table; -ERANGE if no OPP matches.
 */
int opp_lookup_exact(struct device *dev, unsigned long freq, bool available,
		     struct opp_info *info)
{
	return opp_lookup(dev, OPP_MATCH_EXACT, freq, available, info, __func__);
}
EXPORT_SYMBOL_GPL(opp_lookup_exact);

/**
 * opp_lookup_ceil() - copy out the lowest available OPP at or above a rate
 * @dev:	the device whose table to search
 * @freq:	the lowest acceptable frequency in Hz
 * @info:	out: the OPP's values (untouched on error)
 *
 * opp_find_freq_ceil() for callers that want values, not a pointer: no
 * rcu_read_lock() is needed and nothing can dangle.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @info is
 * NULL; -ENODEV if @dev has no table; -ERANGE if no available OPP has a
 * rate >= @freq.
 */
int opp_lookup_ceil(struct device *dev, unsigned long freq,
		    struct opp_info *info)
{
	return opp_lookup(dev, OPP_MATCH_CEIL, freq, true, info, __func__);
}
EXPORT_SYMBOL_GPL(opp_lookup_ceil);

/**
 * opp_lookup_floor() - copy out the highest available OPP at or below a rate
 * @dev:	the device whose table to search
 * @freq:	the highest acceptable frequency in Hz; ULONG_MAX for the top
 * @info:	out: the OPP's values (untouched on error)
 *
 * opp_find_freq_floor() for callers that want values, not a pointer: no
 * rcu_read_lock() is needed and nothing can dangle.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @info is
 * NULL; -ENODEV if @dev has no table; -ERANGE if no available OPP has a
 * rate <= @freq.
 */
int opp_lookup_floor(struct device *dev, unsigned long freq,
		     struct opp_info *info)
{
	return opp_lookup(dev, OPP_MATCH_FLOOR, freq, true, info, __func__);
}
EXPORT_SYMBOL_GPL(opp_lookup_floor);

/* The level lookups: a level search under RCU, its OPP copied out. */
static int opp_lookup_level(struct device *dev, enum opp_match how,
			    unsigned int level, struct opp_info *info,
			    const char *func)
{
	struct opp *opp;
	int ret = 0;

	if (unlikely(!info))
		return -EINVAL;
	rcu_read_lock();
	opp = opp_level_search(dev, how, &level, func);
	if (IS_ERR(opp))
		ret = PTR_ERR(opp);
	else
		opp_info_fill(info, opp, true);
	rcu_read_unlock();
	return ret;
}

/**
 * opp_lookup_level_exact() - copy out the available OPP of a level
 * @dev:	the device whose table to search
 * @level:	the level
 * @info:	out: the OPP's values (untouched on error)
 *
 * opp_find_level_exact() for callers that want values, not a pointer.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or @info is
 * NULL; -ENODEV if @dev has no table; -ERANGE if no available OPP has
 * that level.
 */
int opp_lookup_level_exact(struct device *dev, unsigned int level,
			   struct opp_info *info)
{
	return opp_lookup_level(dev, OPP_MATCH_EXACT, level, info, __func__);
}
EXPORT_SYMBOL_GPL(opp_lookup_level_exact);

/**
 * opp_lookup_level_ceil() - copy out the OPP opp_find_level_ceil() finds
 * @dev:	the device whose table to search
 * @level:	the lowest acceptable level
 * @info:	out: the OPP's values, its level in @info->level (untouched
 *		on error)
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; the errors of opp_find_level_ceil(), and -EINVAL
 * if @info is NULL.
 */
int opp_lookup_level_ceil(struct device *dev, unsigned int level,
			  struct opp_info *info)
{
	return opp_lookup_level(dev, OPP_MATCH_CEIL, level, info, __func__);
}
EXPORT_SYMBOL_GPL(opp_lookup_level_ceil);

/**
 * opp_lookup_level_floor() - copy out the OPP opp_find_level_floor() finds
 * @dev:	the device whose table to search
 * @level:	the highest acceptable level
 * @info:	out: the OPP's values, its level in @info->level (untouched
 *		on error)
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; the errors of opp_find_level_floor(), and -EINVAL
 * if @info is NULL.
 */
int opp_lookup_level_floor(struct device *dev, unsigned int level,
			   struct opp_info *info)
{
	return opp_lookup_level(dev, OPP_MATCH_FLOOR, level, info, __func__);
}
EXPORT_SYMBOL_GPL(opp_lookup_level_floor);

/* The bandwidth lookups: the search, and the path's values copied out. */
static int opp_lookup_bw(struct device *dev, enum opp_match how,
			 unsigned int bw, int index, struct opp_info *info,
			 const char *func)
{
	struct opp *opp;
	int ret = 0;

	if (unlikely(!info))
		return -EINVAL;
	rcu_read_lock();
	opp = opp_bw_search(dev, how, &bw, index, func);
	if (IS_ERR(opp)) {
		ret = PTR_ERR(opp);
	} else {
		opp_info_fill(info, opp, true);
		info->peak_kbps = opp_peak_bw(opp, index);
		info->avg_kbps = opp_avg_bw(opp, index);
	}
	rcu_read_unlock();
	return ret;
}

/**
 * opp_lookup_bw_ceil() - copy out the OPP opp_find_bw_ceil() finds
 * @dev:	the device whose table to search
 * @bw:		the lowest acceptable peak bandwidth in kBps
 * @index:	the interconnect path, from 0
 * @info:	out: the OPP's values, with path @index's bandwidths in
 *		@info->peak_kbps and @info->avg_kbps (untouched on error)
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; the errors of opp_find_bw_ceil(), and -EINVAL if
 * @info is NULL.
 */
int opp_lookup_bw_ceil(struct device *dev, unsigned int bw, int index,
		       struct opp_info *info)
{
	return opp_lookup_bw(dev, OPP_MATCH_CEIL, bw, index, info, __func__);
}
EXPORT_SYMBOL_GPL(opp_lookup_bw_ceil);

/**
 * opp_lookup_bw_floor() - copy out the OPP opp_find_bw_floor() finds
 * @dev:	the device whose table to search
 * @bw:		the highest acceptable peak bandwidth in kBps
 * @index:	the interconnect path, from 0
 * @info:	out: the OPP's values, with path @index's bandwidths in
 *		@info->peak_kbps and @info->avg_kbps (untouched on error)
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: 0 on success; the errors of opp_find_bw_floor(), and -EINVAL if
 * @info is NULL.
 */
int opp_lookup_bw_floor(struct device *dev, unsigned int bw, int index,
			struct opp_info *info)
{
	return opp_lookup_bw(dev, OPP_MATCH_FLOOR, bw, index, info, __func__);
}
EXPORT_SYMBOL_GPL(opp_lookup_bw_floor);

/*
 * Under RCU: the available OPP of @dev whose (first clock's) rate is
 * @freq, or an ERR_PTR, a fault warned about as @func's.
 */
static struct opp *opp_find_at(struct device *dev, unsigned long freq,
			       const char *func)
{
	struct opp_array *arr = opp_dev_opps(dev);

	if (unlikely(!arr))
		return opp_search_fault(dev, func);
	return opp_match_exact(arr, freq, true);
}

/**
 * opp_lookup_supplies() - copy out each supply's values at a rate
 * @dev:	the device whose table to search
 * @freq:	the exact frequency in Hz, as opp_lookup_ceil() gave it
 * @supplies:	out: the first @count supplies' values (untouched on error)
 * @count:	the room in @supplies
 *
 * opp_get_supplies() of the available OPP at @freq, for callers that
 * want values, not a pointer. Where several OPPs have that rate (a
 * device with several clocks, a table keyed by bandwidth), the first.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: the number of supplies the OPP has (those beyond @count are
 * not copied); -EINVAL if @dev is NULL or an ERR_PTR, or @supplies is
 * NULL with a @count; -ENODEV if @dev has no table; -ERANGE if no
 * available OPP has the rate @freq.
 */
int opp_lookup_supplies(struct device *dev, unsigned long freq,
			struct opp_supply *supplies, unsigned int count)
{
	struct opp *opp;
	int ret;

	if (unlikely(!supplies && count))
		return -EINVAL;
	rcu_read_lock();
	opp = opp_find_at(dev, freq, __func__);
	ret = IS_ERR(opp) ? PTR_ERR(opp) :
	      opp_copy_supplies(opp, supplies, count);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(opp_lookup_supplies);

/* Up to @count of @opp's clock rates into @rates; how many it has. */
static int opp_copy_rates(const struct opp *opp, unsigned long *rates,
			  unsigned int count)
{
	unsigned int i, n = opp_nr_clks(opp);

	for (i = 0; i < min(n, count); i++)
		rates[i] = opp_clk_rate(opp, i);
	return n;
}

/**
 * opp_lookup_rates() - copy out each clock's rate at a rate
 * @dev:	the device whose table to search
 * @freq:	the first clock's exact frequency in Hz
 * @rates:	out: the first @count clocks' rates in Hz (untouched on
 *		error)
 * @count:	the room in @rates
 *
 * opp_get_freq_indexed() for every clock of the available OPP whose
 * first clock runs at @freq, for callers that want values, not a
 * pointer. Where several OPPs have that rate, the first.
 *
 * Context: any context, hard interrupt included; takes no lock but RCU.
 *
 * Return: the number of clocks the OPP has rates for (those beyond
 * @count are not copied); -EINVAL if @dev is NULL or an ERR_PTR, or
 * @rates is NULL with a @count; -ENODEV if @dev has no table; -ERANGE if
 * no available OPP has the rate @freq.
 */
int opp_lookup_rates(struct device *dev, unsigned long freq,
		     unsigned long *rates, unsigned int count)
{
	struct opp *opp;
	int ret;

	if (unlikely(!rates && count))
		return -EINVAL;
	rcu_read_lock();
	opp = opp_find_at(dev, freq, __func__);
	ret = IS_ERR(opp) ? PTR_ERR(opp) : opp_copy_rates(opp, rates, count);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(opp_lookup_rates);

/* ---- Table handles: searches that skip the device map ---- */

/**
 * opp_table_get() - take a handle on a device's table
 * @dev:	the device whose table to take
 *
 * For a caller that searches the same device's OPPs often (a governor, a
 * thermal or scheduler hook): the opp_table_find_freq_*() searches take
 * the handle instead of the device and skip the device -> table map that
 * every device-based search probes. The handle is a counted reference on
 * the table; release it with opp_table_put().
 *
 * A handle follows the table it was taken on, not the device. Searches
 * through it see every OPP added, removed, enabled or disabled, as the
 * device-based ones do; once the table itself is removed (by
 * opp_remove_table(), or by opp_remove() of its last OPP) they fail with
 * -ENODEV, even after the device gets a new table: take a new handle then.
 * The handle holds no reference on the device.
 *
 * Context: any context but NMI; takes no lock but RCU.
 *
 * Return: the handle; ERR_PTR(-EINVAL) if @dev is NULL or an ERR_PTR;
 * ERR_PTR(-ENODEV) if @dev has no table.
 */
struct opp_table *opp_table_get(struct device *dev)
{
	struct opp_table *table;

	/* A handle is also its table's head: see opp_snapshot.h. */
	BUILD_BUG_ON(offsetof(struct opp_table, head) != 0);
	rcu_read_lock();
	table = opp_table_find(dev);
	/* The map's reference goes when the table is removed: it may be 0. */
	if (!table || !rcu_access_pointer(table->head.opps) ||
	    !kref_get_unless_zero(&table->ref))
		table = ERR_PTR(opp_bad_dev(dev, __func__) ? -EINVAL : -ENODEV);
	rcu_read_unlock();
	return table;
}
EXPORT_SYMBOL_GPL(opp_table_get);

/**
 * opp_table_put() - release a handle taken by opp_table_get()
 * @table:	the handle; NULL or an ERR_PTR is ignored
 *
 * The table's memory goes after the last handle on a removed table is
 * put, and after a grace period: a search still inside its
 * rcu_read_lock() section keeps valid memory.
 *
 * Context: any context but NMI; takes no lock.
 */
void opp_table_put(struct opp_table *table)
{
	if (!IS_ERR_OR_NULL(table))
		kref_put(&table->ref, opp_table_release);
}
EXPORT_SYMBOL_GPL(opp_table_put);

/**
 * opp_table_fault() - why a search through a handle found nothing to search
 * @head:	the handle, as opp_table_head() gives it
 * @no_freq:	whether the search's @freq pointer was NULL (ceil, floor)
 * @func:	the search's name, for the warning
 *
 * The one slow path of every search through a handle, the inline ones of
 * opp.h included: the searches test the likely case only and call this
 * from one place, so that what they run on a hit is the match alone,
 * without even a stack frame. It is told whether @freq was NULL rather
 * than given the pointer, so that an inline search's caller can keep its
 * frequency in a register: a pointer to it passed here would make the
 * compiler keep it in memory on the hit path too. Exported for the
 * inline searches; not for any other use. Its @head argument makes its
 * symbol version (with CONFIG_MODVERSIONS) cover the snapshot layout that
 * they read.
 *
 * Context: that of the search that calls it.
 *
 * Return: ERR_PTR(-EINVAL), with a ratelimited warning, if @no_freq or
 * @head is NULL or an ERR_PTR; otherwise ERR_PTR(-ENODEV): the table was
 * removed.
 */
noinline struct opp *opp_table_fault(const struct opp_table_head *head,
				     bool no_freq, const char *func)
{
	if (no_freq) {
		pr_warn_ratelimited("%s: freq is NULL\n", func);
		return ERR_PTR(-EINVAL);
	}
	if (opp_bad_table((const struct opp_table *)head)) {
		pr_warn_ratelimited("%s: invalid table %p\n", func, head);
		return ERR_PTR(-EINVAL);
	}
	return ERR_PTR(-ENODEV);
}
EXPORT_SYMBOL_GPL(opp_table_fault);

/**
 * opp_table_find_freq_exact() - opp_find_freq_exact() through a handle
 * @table:	the handle, from opp_table_get()
 * @freq:	the exact frequency in Hz
 * @available:	whether the OPP looked for is available or disabled
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP whose rate is @freq and whose availability is
 * @available; ERR_PTR(-EINVAL) if @table is NULL or an ERR_PTR;
 * ERR_PTR(-ENODEV) if the table was removed; ERR_PTR(-ERANGE) if no OPP
 * matches.
 */
struct opp *opp_table_find_freq_exact(struct opp_table *table,
				      unsigned long freq, bool available)
{
	return opp_table_find_freq_exact_fast(table, freq, available);
}
EXPORT_SYMBOL_GPL(opp_table_find_freq_exact);

/**
 * opp_table_find_freq_ceil() - opp_find_freq_ceil() through a handle
 * @table:	the handle, from opp_table_get()
 * @freq:	in: the lowest acceptable frequency in Hz; out: the rate of
 *		the OPP found (untouched on error)
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @table is NULL or an ERR_PTR
 * or @freq is NULL; ERR_PTR(-ENODEV) if the table was removed;
 * ERR_PTR(-ERANGE) if no available OPP has a rate >= *@freq.
 */
struct opp *opp_table_find_freq_ceil(struct opp_table *table,
				     unsigned long *freq)
{
	return opp_table_find_freq_ceil_fast(table, freq);
}
EXPORT_SYMBOL_GPL(opp_table_find_freq_ceil);

/**
 * opp_table_find_freq_floor() - opp_find_freq_floor() through a handle
 * @table:	the handle, from opp_table_get()
 * @freq:	in: the highest acceptable frequency in Hz; out: the rate of
 *		the OPP found (untouched on error)
 *
 * Context: any context, hard interrupt included; takes no lock. The caller
 * holds rcu_read_lock() and may use the returned OPP only until it drops
 * it.
 *
 * Return: the OPP found; ERR_PTR(-EINVAL) if @table is NULL or an ERR_PTR
 * or @freq is NULL; ERR_PTR(-ENODEV) if the table was removed;
 * ERR_PTR(-ERANGE) if no available OPP has a rate <= *@freq.
 */
struct opp *opp_table_find_freq_floor(struct opp_table *table,
				      unsigned long *freq)
{
	return opp_table_find_freq_floor_fast(table, freq);
}
EXPORT_SYMBOL_GPL(opp_table_find_freq_floor);

/* ---- The core's start and end (opp_module.c calls them) ---- */

int __init opp_core_init(const struct opp_core_ops *ops)
{
	struct opp_map *map = opp_map_alloc(OPP_MAP_MIN_BITS);

	if (!map)
		return -ENOMEM;
	opp_ops = ops;
	opp_map_publish(map);
	return 0;
}

void __exit opp_core_exit(void)
{
	struct opp_table *table, *tmp;

	/*
	 * Tables that users never removed. No user is left, so nobody reads
	 * them, and a notifier still registered would point into a module
	 * that is gone: free them silently.
	 */
	mutex_lock(&opp_lock);
	list_for_each_entry_safe(table, tmp, &opp_table_list, list_node) {
		list_del(&table->list_node);
		opp_table_unmap(table);
		opp_table_free(table);
	}
	kfree(opp_map_locked());
	WRITE_ONCE(opp_map_word, 0);
	mutex_unlock(&opp_lock);
	/* Let every callback queued by kfree_rcu() run before we go. */
	rcu_barrier();
}
