/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The layout of a table's snapshot, and the match that searches it.
 *
 * Public for one reason: the inline searches through a table handle
 * (opp_table_find_freq_*_fast() in opp.h) are compiled into their callers,
 * so that a hot caller's lookup costs no call into the library and no
 * trip of its arguments through memory. Those searches read what is
 * defined here; nothing else outside the library should. A caller still
 * reads an OPP only through the accessors (opp_get_voltage(), ...).
 *
 * This layout is therefore part of the module's ABI: a caller built
 * against one layout must not run against a library built with another.
 * The exported slow path of the inline searches, opp_table_fault(), takes
 * a struct opp_table_head, so that with CONFIG_MODVERSIONS its symbol
 * version covers every struct here and the module loader refuses a
 * mismatch; without it, build callers against the same tree as opp.ko,
 * as for any out-of-tree module's exports.
 */
#ifndef _OPP_SNAPSHOT_H
#define _OPP_SNAPSHOT_H

#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct device;
struct opp_extra;
struct opp_table;

/**
 * struct opp - one OPP as a table holds it
 * @rate:	frequency in Hz (the first clock's)
 * @u_volt:	target voltage in microvolts (the first supply's)
 * @u_volt_min:	lowest acceptable voltage (likewise)
 * @u_volt_max:	highest acceptable voltage (likewise)
 * @u_amp:	current drawn in microamperes (0: not given; likewise)
 * @u_watt:	power drawn in microwatts, all supplies together (0: not
 *		given)
 * @level:	the performance level (``opp-level``), or OPP_LEVEL_NONE
 * @extra:	what a device-tree OPP says beyond these (its bandwidth
 *		per interconnect path, its required OPPs, each supply's
 *		values and each clock's rate where there are several), or
 *		NULL; the library's own
 * @available:	whether ceil and floor searches may return it
 * @turbo:	a boost OPP
 * @suspend:	the OPP to suspend at
 *
 * Only @available (and @level, see below) changes once the OPP is
 * published (WRITE_ONCE under the library's update mutex, READ_ONCE in
 * searches); the rest is fixed for the life of the array that holds it.
 * Callers read it through the accessors only, under the rcu_read_lock()
 * of the search that found it. A table keyed by level or bandwidth has a
 * @rate of 0 in every OPP that has no ``opp-hz``; the OPPs are sorted by
 * each clock's rate, then by peak bandwidth, then by level, as the
 * kernel's OPP core sorts them. @extra belongs to
 * the OPP (its required-opps entries are resolved at most once, under the
 * update mutex, the rest never changes): it is freed after a grace period
 * when the OPP is removed. From 6.8 on @level may be set once, in place,
 * when a required OPP arrives late (WRITE_ONCE; searches READ_ONCE).
 */
struct opp {
	unsigned long rate;
	unsigned long u_volt;
	unsigned long u_volt_min;
	unsigned long u_volt_max;
	unsigned long u_amp;
	unsigned long u_watt;
	struct opp_extra *extra;
	u32 level;
	bool available;
	bool turbo;
	bool suspend;
};

/*
 * Up to this many OPPs, a search counts the rates below the target in
 * one pass of independent compares (no loop, no dependent loads); larger
 * tables are bisected.
 */
#define OPP_SPAN_MIN	8

/**
 * struct opp_array - one immutable-length snapshot of a table's OPPs
 * @dev:	the device whose map slot holds this array (the map's key)
 * @count:	the number of OPPs, at least one
 * @span:	the number of entries of @rate: a power of two, at least
 *		OPP_SPAN_MIN
 * @avail:	bit i set if OPP i is available, for the first
 *		BITS_PER_LONG OPPs (READ_ONCE; changed in place)
 * @opp:	the OPPs, sorted by rate: in the same allocation, after @rate,
 *		or a sharer's view of the table's own
 * @table:	the table this array is the current snapshot of
 * @rcu:	frees the array after a grace period once it is replaced
 * @rate:	the OPPs' rates again, padded with ULONG_MAX to @span
 *
 * The searches compare rates only, so the rates have an array of their
 * own: a search reads one or two cache lines of rates, however large each
 * OPP grows, and touches an OPP only once it has its index. The padding
 * lets it run a fixed number of steps without bounds checks. Everything
 * but @avail and the OPPs' availability is written before the array is
 * published (rcu_assign_pointer()) and never changes after.
 */
struct opp_array {
	struct device *dev;
	unsigned int count;
	unsigned int span;
	unsigned long avail;
	struct opp *opp;
	struct opp_table *table;
	struct rcu_head rcu;
	unsigned long rate[];
};

/**
 * struct opp_table_head - what a search through a handle reads of a table
 * @opps:	the table's current snapshot; NULL once the table is removed
 *
 * The first member of every struct opp_table: a handle points at it.
 */
struct opp_table_head {
	struct opp_array __rcu *opps;
};

/**
 * opp_table_head() - the public part of a table handle
 * @table:	a handle from opp_table_get(), or what it failed with
 *
 * Return: @table as its struct opp_table_head (the same address).
 */
static __always_inline const struct opp_table_head *
opp_table_head(const struct opp_table *table)
{
	return (const struct opp_table_head *)table;
}

/**
 * opp_bad_table() - whether a handle is NULL or an ERR_PTR
 * @table:	the handle
 *
 * In one compare: adding MAX_ERRNO wraps the error values around to
 * 0..MAX_ERRNO - 1, next to NULL's.
 *
 * Return: true for NULL or an ERR_PTR.
 */
static __always_inline bool opp_bad_table(const struct opp_table *table)
{
	return (unsigned long)table + MAX_ERRNO <= MAX_ERRNO;
}

/**
 * opp_below() - one compare of a search
 * @rate:	a rate of the table
 * @freq:	the target
 * @upper:	false: whether @rate < @freq; true: whether @rate <= @freq
 *
 * Return: 1 or 0, to be summed.
 */
static __always_inline unsigned int opp_below(unsigned long rate,
					      unsigned long freq, bool upper)
{
	return upper ? rate <= freq : rate < freq;
}

/**
 * opp_bound() - the number of rates of a snapshot below a target
 * @arr:	the snapshot
 * @freq:	the target
 * @upper:	false: the index of the first rate >= @freq; true: of the
 *		first rate > @freq
 *
 * Neither way has a data-dependent branch, so queries spread over the
 * table cost no mispredicted branch. A small table: one pass of
 * independent compares over its OPP_SPAN_MIN padded rates. A larger one:
 * halving steps over its power-of-two span, as many as the span alone
 * says, each choice a select. The padding (ULONG_MAX) is never below
 * @freq, and not above it only for @freq == ULONG_MAX: hence the clamp.
 *
 * Return: that index, at most @arr->count.
 */
static __always_inline unsigned int opp_bound(const struct opp_array *arr,
					      unsigned long freq, bool upper)
{
	const unsigned long *rate = arr->rate;
	unsigned int lo = 0, step;

	if (likely(arr->span == OPP_SPAN_MIN)) {
		/*
		 * Sorted: if rate[3] is below, so are rate[0..3], and the
		 * count is 4 and that of rate[4..7]; if not, none of
		 * rate[4..7] is. Five compares, four of them independent,
		 * written out: GCC keeps a loop, at twice the instructions.
		 */
		BUILD_BUG_ON(OPP_SPAN_MIN != 8);
		lo = opp_below(rate[3], freq, upper) * 4;
		rate += lo;
		lo += opp_below(rate[0], freq, upper) + opp_below(rate[1], freq, upper) +
		      opp_below(rate[2], freq, upper) + opp_below(rate[3], freq, upper);
	} else {
		for (step = arr->span / 2; step; step /= 2)
			if (opp_below(rate[lo + step - 1], freq, upper))
				lo += step;
		lo += opp_below(rate[lo], freq, upper);
	}
	return upper ? min(lo, arr->count) : lo;
}

/**
 * enum opp_match - what a search looks for
 * @OPP_MATCH_EXACT:	the OPP at the rate, of the availability asked
 * @OPP_MATCH_CEIL:	the lowest available OPP at or above the rate
 * @OPP_MATCH_FLOOR:	the highest available OPP at or below the rate
 */
enum opp_match { OPP_MATCH_EXACT, OPP_MATCH_CEIL, OPP_MATCH_FLOOR };

/**
 * opp_match() - the index of the OPP a search finds in a snapshot
 * @arr:	the snapshot
 * @how:	what to look for; a constant in every caller
 * @freq:	the rate
 * @available:	for OPP_MATCH_EXACT, the availability looked for (ceil and
 *		floor match available OPPs only)
 *
 * Inlined into each search, which tests the sign: the bit scan's own test
 * of an empty word decides it, and the table's count is not read again.
 *
 * Return: the index, or -1 if no OPP matches.
 */
static __always_inline int opp_match(const struct opp_array *arr,
				     enum opp_match how, unsigned long freq,
				     bool available)
{
	unsigned int i, n = arr->count;
	unsigned long avail;

	if (likely(arr->span == OPP_SPAN_MIN)) {
		/* One word holds every OPP's availability: scan it. */
		avail = READ_ONCE(arr->avail);
		switch (how) {
		case OPP_MATCH_EXACT:
			/* Several OPPs of a level table share a rate. */
			for (i = opp_bound(arr, freq, false);
			     i < n && arr->rate[i] == freq; i++)
				if (!!(avail & BIT(i)) == available)
					return i;
			return -1;
		case OPP_MATCH_CEIL:
			i = opp_bound(arr, freq, false);
			avail >>= i;
			return avail ? i + __ffs(avail) : -1;
		case OPP_MATCH_FLOOR:
			i = opp_bound(arr, freq, true);
			avail &= BIT(i) - 1;
			return avail ? __fls(avail) : -1;
		}
	}

	switch (how) {
	case OPP_MATCH_EXACT:
		for (i = opp_bound(arr, freq, false);
		     i < n && arr->rate[i] == freq; i++)
			if (READ_ONCE(arr->opp[i].available) == available)
				return i;
		break;
	case OPP_MATCH_CEIL:
		for (i = opp_bound(arr, freq, false); i < n; i++)
			if (READ_ONCE(arr->opp[i].available))
				return i;
		break;
	case OPP_MATCH_FLOOR:
		for (i = opp_bound(arr, freq, true); i > 0; i--)
			if (READ_ONCE(arr->opp[i - 1].available))
				return i - 1;
		break;
	}
	return -1;
}

/**
 * opp_match_freq() - a ceil or floor search in a snapshot
 * @arr:	the snapshot
 * @how:	OPP_MATCH_CEIL or OPP_MATCH_FLOOR
 * @freq:	in: the rate; out: the rate found (untouched on error)
 *
 * Return: the OPP found, or ERR_PTR(-ERANGE).
 */
static __always_inline struct opp *opp_match_freq(const struct opp_array *arr,
						  enum opp_match how,
						  unsigned long *freq)
{
	int i = opp_match(arr, how, *freq, true);

	if (unlikely(i < 0))
		return ERR_PTR(-ERANGE);
	*freq = arr->rate[i];
	return &arr->opp[i];
}

/**
 * opp_match_exact() - an exact search in a snapshot
 * @arr:	the snapshot
 * @freq:	the rate
 * @available:	the availability looked for
 *
 * Return: the OPP found, or ERR_PTR(-ERANGE).
 */
static __always_inline struct opp *opp_match_exact(const struct opp_array *arr,
						   unsigned long freq,
						   bool available)
{
	int i = opp_match(arr, OPP_MATCH_EXACT, freq, available);

	return likely(i >= 0) ? &arr->opp[i] : ERR_PTR(-ERANGE);
}

/**
 * opp_table_opps() - a handle's current snapshot
 * @table:	the handle
 *
 * The caller holds rcu_read_lock().
 *
 * Return: the snapshot; NULL if @table is NULL or an ERR_PTR or its table
 * was removed.
 */
static __always_inline struct opp_array *
opp_table_opps(const struct opp_table *table)
{
	if (unlikely(opp_bad_table(table)))
		return NULL;
	return rcu_dereference(opp_table_head(table)->opps);
}

#endif /* _OPP_SNAPSHOT_H */
