// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the core's table handles (opp.c, with opp.h's inline
 * searches): suite opp_table_handle.
 *
 * The table handles (opp_table_get(), opp_table_put(),
 * opp_table_find_freq_*() and their inline versions, the *_fast() ones of
 * opp.h) and the device -> table map under them: a handle answers as its
 * device does, follows its table's updates, outlives the table's removal
 * without finding anything, and holds no device reference; the inline
 * searches answer as the out-of-line ones, errors included, also from a
 * hard interrupt that lands while the table is republished; the map keeps
 * every device's table through its rebuilds and tombstones.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/kref.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_test_helpers.h"

/* Enough devices to rebuild the map several times (64 slots to start). */
#define HANDLE_NDEVS 300

struct handle_ctx {
	struct device *dev;
	atomic_t released;
};

static int handle_init(struct kunit *test)
{
	struct handle_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	ctx->dev = opp_test_fixture_dev_new(test, "opp-handle", &ctx->released);
	test->priv = ctx;
	return 0;
}

static void handle_exit(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;

	opp_remove_table(ctx->dev);
	put_device(ctx->dev);
}

static unsigned long handle_volt(unsigned long rate)
{
	return 700000 + rate / 4000;
}

/* 100, 200, ..., 800 MHz; 300 and 600 MHz disabled. */
static void handle_fill(struct kunit *test, struct device *dev)
{
	unsigned long f;

	for (f = 100 * HZ_PER_MHZ; f <= 800 * HZ_PER_MHZ; f += 100 * HZ_PER_MHZ)
		KUNIT_ASSERT_EQ(test, opp_add(dev, f, handle_volt(f)), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(dev, 300 * HZ_PER_MHZ), 0);
	KUNIT_ASSERT_EQ(test, opp_disable(dev, 600 * HZ_PER_MHZ), 0);
}

/* One search through @table, inline (@fast) or not, under the caller's RCU. */
static struct opp *handle_search(struct opp_table *table, enum fixture_how how,
				 unsigned long *freq, bool fast)
{
	if (how == FIXTURE_CEIL)
		return fast ? opp_table_find_freq_ceil_fast(table, freq) :
			      opp_table_find_freq_ceil(table, freq);
	if (how == FIXTURE_FLOOR)
		return fast ? opp_table_find_freq_floor_fast(table, freq) :
			      opp_table_find_freq_floor(table, freq);
	if (fast)
		return opp_table_find_freq_exact_fast(table, *freq,
						      how == FIXTURE_EXACT);
	return opp_table_find_freq_exact(table, *freq, how == FIXTURE_EXACT);
}

/*
 * A search through @table, inline (@fast) or not, its outcome copied out
 * of the RCU section.
 */
static struct fixture_found handle_find_as(struct opp_table *table,
					   enum fixture_how how,
					   unsigned long freq, bool fast)
{
	struct fixture_found f = { .freq = freq };

	rcu_read_lock();
	f.opp = handle_search(table, how, &f.freq, fast);
	f.rate = opp_get_freq(f.opp);
	f.volt = opp_get_voltage(f.opp);
	rcu_read_unlock();
	return f;
}

static struct fixture_found handle_find(struct opp_table *table,
					enum fixture_how how,
					unsigned long freq)
{
	return handle_find_as(table, how, freq, false);
}

static const enum fixture_how handle_hows[] = {
	FIXTURE_CEIL, FIXTURE_FLOOR, FIXTURE_EXACT, FIXTURE_EXACT_OFF,
};

/* Every search through @table, inline (@fast) or not, fails with @err. */
static void handle_expect_err_as(struct kunit *test, struct opp_table *table,
				 long err, bool fast)
{
	struct fixture_found f;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(handle_hows); i++) {
		f = handle_find_as(table, handle_hows[i], 200 * HZ_PER_MHZ, fast);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(f.opp), err,
				    "search %u%s", i, fast ? " inline" : "");
		KUNIT_EXPECT_EQ(test, f.freq, 200 * HZ_PER_MHZ);
	}
}

/* Every search through @table, both ways, fails with @err. */
static void handle_expect_err(struct kunit *test, struct opp_table *table,
			      long err)
{
	handle_expect_err_as(test, table, err, false);
	handle_expect_err_as(test, table, err, true);
}

static void opp_table_handle_get_errors(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	struct opp_table *table;
	unsigned long f = 100 * HZ_PER_MHZ;
	struct opp *opp;

	KUNIT_EXPECT_EQ(test, PTR_ERR(opp_table_get(NULL)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(opp_table_get(ERR_PTR(-ENOMEM))), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(opp_table_get(ctx->dev)), -ENODEV);
	handle_expect_err(test, NULL, -EINVAL);
	handle_expect_err(test, ERR_PTR(-ENODEV), -EINVAL);
	/* Putting what opp_table_get() returned on failure is harmless. */
	opp_table_put(NULL);
	opp_table_put(ERR_PTR(-ENODEV));

	handle_fill(test, ctx->dev);
	table = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(table));
	rcu_read_lock();
	opp = opp_table_find_freq_ceil(table, NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(opp), -EINVAL);
	rcu_read_lock();
	opp = opp_table_find_freq_floor(table, NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(opp), -EINVAL);
	rcu_read_lock();
	opp = opp_table_find_freq_ceil(table, &f);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(opp), 0);
	opp_table_put(table);
}

/* Every query, every kind of search: the handle answers as the device. */
static void opp_table_handle_matches_device(struct kunit *test)
{
	static const enum fixture_how hows[] = {
		FIXTURE_CEIL, FIXTURE_FLOOR, FIXTURE_EXACT, FIXTURE_EXACT_OFF,
	};
	struct handle_ctx *ctx = test->priv;
	struct fixture_found a, b;
	struct opp_table *table;
	unsigned long f;
	unsigned int i, found = 0;

	handle_fill(test, ctx->dev);
	table = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(table));
	for (f = 0; f <= 900 * HZ_PER_MHZ; f += 25 * HZ_PER_MHZ) {
		for (i = 0; i < ARRAY_SIZE(hows); i++) {
			a = opp_test_fixture_find(ctx->dev, hows[i], f);
			b = handle_find(table, hows[i], f);
			KUNIT_EXPECT_PTR_EQ_MSG(test, a.opp, b.opp,
						"search %u at %lu Hz", i, f);
			KUNIT_EXPECT_EQ(test, a.freq, b.freq);
			KUNIT_EXPECT_EQ(test, a.volt, b.volt);
			found += !IS_ERR(b.opp);
		}
	}
	/* Not vacuous: ceil 33, floor 33, exact 6 available + 2 disabled. */
	KUNIT_EXPECT_EQ(test, found, 33 + 33 + 6 + 2);
	/* A disabled OPP is found by exact only, with available false. */
	b = handle_find(table, FIXTURE_CEIL, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, b.freq, 400 * HZ_PER_MHZ);
	b = handle_find(table, FIXTURE_FLOOR, 650 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, b.freq, 500 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, b.volt, handle_volt(500 * HZ_PER_MHZ));
	opp_table_put(table);
}

/* Adding, disabling, enabling and removing OPPs show through a handle. */
static void opp_table_handle_sees_updates(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	struct fixture_found f;
	struct opp_table *table;

	handle_fill(test, ctx->dev);
	table = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(table));

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 950 * HZ_PER_MHZ, 1200000), 0);
	f = handle_find(table, FIXTURE_FLOOR, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, f.freq, 950 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, 1200000UL);

	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, 950 * HZ_PER_MHZ), 0);
	f = handle_find(table, FIXTURE_FLOOR, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, f.freq, 800 * HZ_PER_MHZ);
	f = handle_find(table, FIXTURE_EXACT_OFF, 950 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.rate, 0UL);	/* disabled: the accessors say 0 */
	KUNIT_EXPECT_FALSE(test, IS_ERR(f.opp));

	KUNIT_ASSERT_EQ(test, opp_enable(ctx->dev, 300 * HZ_PER_MHZ), 0);
	f = handle_find(table, FIXTURE_CEIL, 250 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.freq, 300 * HZ_PER_MHZ);

	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 100 * HZ_PER_MHZ), 0);
	f = handle_find(table, FIXTURE_CEIL, 0);
	KUNIT_EXPECT_EQ(test, f.freq, 200 * HZ_PER_MHZ);
	f = handle_find(table, FIXTURE_EXACT, 100 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f.opp), -ERANGE);
	opp_table_put(table);
}

/*
 * A handle outlives its table: after opp_remove_table() it finds nothing,
 * also once the device has a new table, and it holds no device reference.
 */
static void opp_table_handle_outlives_table(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	unsigned int refs = kref_read(&ctx->dev->kobj.kref);
	struct opp_table *old, *fresh;
	struct fixture_found f;

	handle_fill(test, ctx->dev);
	old = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(old));
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&ctx->dev->kobj.kref), refs);
	handle_expect_err(test, old, -ENODEV);
	KUNIT_EXPECT_EQ(test, PTR_ERR(opp_table_get(ctx->dev)), -ENODEV);

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 200 * HZ_PER_MHZ, 900000), 0);
	handle_expect_err(test, old, -ENODEV);
	fresh = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(fresh));
	KUNIT_EXPECT_PTR_NE(test, fresh, old);
	f = handle_find(fresh, FIXTURE_EXACT, 200 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, 900000UL);
	opp_table_put(old);
	/* The new table does not depend on the old handle. */
	f = handle_find(fresh, FIXTURE_CEIL, 0);
	KUNIT_EXPECT_EQ(test, f.freq, 200 * HZ_PER_MHZ);
	opp_table_put(fresh);
}

/* Removing the last OPP removes the table, for its handles too. */
static void opp_table_handle_last_opp_removed(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	struct opp_table *table;

	KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, 500 * HZ_PER_MHZ, 1000000), 0);
	table = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(table));
	KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, 500 * HZ_PER_MHZ), 0);
	handle_expect_err(test, table, -ENODEV);
	opp_table_put(table);
}

/* Two handles on one table: putting one leaves the other working. */
static void opp_table_handle_two_handles(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	struct opp_table *a, *b;
	struct fixture_found f;

	handle_fill(test, ctx->dev);
	a = opp_table_get(ctx->dev);
	b = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(a));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(b));
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	opp_table_put(a);
	f = handle_find(b, FIXTURE_CEIL, 0);
	KUNIT_EXPECT_EQ(test, f.freq, 100 * HZ_PER_MHZ);
	KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	handle_expect_err(test, b, -ENODEV);
	/* The last put frees the table (kmemleak checks the run). */
	opp_table_put(b);
}

/*
 * Taking, searching and putting with interrupts off: none of them may
 * sleep (CONFIG_DEBUG_ATOMIC_SLEEP reports it if one does).
 */
static void opp_table_handle_atomic_context(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	struct opp_table *table;
	unsigned long flags, f = 350 * HZ_PER_MHZ;
	struct opp *opp;

	handle_fill(test, ctx->dev);
	local_irq_save(flags);
	table = opp_table_get(ctx->dev);
	rcu_read_lock();
	opp = IS_ERR(table) ? ERR_CAST(table) :
		opp_table_find_freq_floor(table, &f);
	rcu_read_unlock();
	opp_table_put(table);
	local_irq_restore(flags);
	KUNIT_EXPECT_FALSE(test, IS_ERR(table));
	KUNIT_EXPECT_FALSE(test, IS_ERR(opp));
	KUNIT_EXPECT_EQ(test, f, 200 * HZ_PER_MHZ);
}

/* Device @i of the many has one OPP, at (i + 1) MHz. */
static void handle_expect_many(struct kunit *test, struct device **devs,
			       bool odd_present)
{
	struct fixture_found f;
	unsigned int i;

	for (i = 0; i < HANDLE_NDEVS; i++) {
		bool present = !(i & 1) || odd_present;

		f = opp_test_fixture_find(devs[i], FIXTURE_CEIL, 0);
		if (present)
			KUNIT_EXPECT_EQ_MSG(test, f.freq, (i + 1) * HZ_PER_MHZ,
					    "device %u", i);
		else
			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(f.opp),
					    -ENODEV, "device %u", i);
	}
}

/*
 * The map through its rebuilds: 300 tables (the map grows several times),
 * every other one removed (tombstones), then added again (tombstones
 * reused, rebuilds dropping the rest); each device finds its own table
 * every time, and a handle taken before all this still works.
 */
static void opp_table_handle_map_many_tables(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	struct opp_table *table;
	struct fixture_found f;
	struct device **devs;
	atomic_t released = ATOMIC_INIT(0);
	unsigned int i;

	devs = kunit_kcalloc(test, HANDLE_NDEVS, sizeof(*devs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, devs);
	handle_fill(test, ctx->dev);
	table = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(table));

	for (i = 0; i < HANDLE_NDEVS; i++) {
		devs[i] = opp_test_fixture_dev_new(test, "opp-handle-many", &released);
		KUNIT_ASSERT_EQ(test, opp_add(devs[i], (i + 1) * HZ_PER_MHZ, 900000), 0);
	}
	handle_expect_many(test, devs, true);
	for (i = 1; i < HANDLE_NDEVS; i += 2)
		KUNIT_ASSERT_EQ(test, opp_remove_table(devs[i]), 0);
	handle_expect_many(test, devs, false);
	for (i = 1; i < HANDLE_NDEVS; i += 2)
		KUNIT_ASSERT_EQ(test, opp_add(devs[i], (i + 1) * HZ_PER_MHZ, 900000), 0);
	handle_expect_many(test, devs, true);

	f = handle_find(table, FIXTURE_FLOOR, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, f.freq, 800 * HZ_PER_MHZ);
	opp_table_put(table);

	for (i = 0; i < HANDLE_NDEVS; i++) {
		KUNIT_EXPECT_EQ(test, opp_remove_table(devs[i]), 0);
		put_device(devs[i]);
	}
	/* The library dropped its reference on every device with its table. */
	KUNIT_EXPECT_EQ(test, atomic_read(&released), HANDLE_NDEVS);
}

/*
 * The inline searches' own answers: a NULL @freq (-EINVAL), no match
 * (-ERANGE, *freq untouched) and each kind of hit, disabled OPPs
 * included.
 */
static void opp_table_handle_fast_results(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	struct opp_table *table;
	struct fixture_found f;
	struct opp *ceil, *floor;

	handle_fill(test, ctx->dev);
	table = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(table));
	rcu_read_lock();
	ceil = opp_table_find_freq_ceil_fast(table, NULL);
	floor = opp_table_find_freq_floor_fast(table, NULL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, PTR_ERR(ceil), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(floor), -EINVAL);

	f = handle_find_as(table, FIXTURE_CEIL, 801 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f.opp), -ERANGE);
	KUNIT_EXPECT_EQ(test, f.freq, 801 * HZ_PER_MHZ);
	f = handle_find_as(table, FIXTURE_FLOOR, 99 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f.opp), -ERANGE);
	KUNIT_EXPECT_EQ(test, f.freq, 99 * HZ_PER_MHZ);
	f = handle_find_as(table, FIXTURE_EXACT, 250 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f.opp), -ERANGE);
	f = handle_find_as(table, FIXTURE_EXACT, 300 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f.opp), -ERANGE);
	f = handle_find_as(table, FIXTURE_EXACT_OFF, 200 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f.opp), -ERANGE);

	f = handle_find_as(table, FIXTURE_CEIL, 0, true);
	KUNIT_EXPECT_EQ(test, f.freq, 100 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, handle_volt(100 * HZ_PER_MHZ));
	f = handle_find_as(table, FIXTURE_CEIL, 250 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, f.freq, 400 * HZ_PER_MHZ);
	f = handle_find_as(table, FIXTURE_FLOOR, ULONG_MAX, true);
	KUNIT_EXPECT_EQ(test, f.freq, 800 * HZ_PER_MHZ);
	f = handle_find_as(table, FIXTURE_FLOOR, 650 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, f.freq, 500 * HZ_PER_MHZ);
	f = handle_find_as(table, FIXTURE_EXACT, 700 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_EQ(test, f.rate, 700 * HZ_PER_MHZ);
	KUNIT_EXPECT_EQ(test, f.volt, handle_volt(700 * HZ_PER_MHZ));
	/* A disabled OPP: found, and the accessors say 0. */
	f = handle_find_as(table, FIXTURE_EXACT_OFF, 600 * HZ_PER_MHZ, true);
	KUNIT_EXPECT_FALSE(test, IS_ERR(f.opp));
	KUNIT_EXPECT_EQ(test, f.rate, 0UL);
	opp_table_put(table);
}

/*
 * The inline searches answer every query as the out-of-line ones and as
 * the device does, in tables of each shape the match has: 8 OPPs (one
 * word of availability bits), 40 (bisected, bits) and 100 (bisected, more
 * OPPs than bits); every third OPP disabled.
 */
static void opp_table_handle_fast_matches(struct kunit *test)
{
	static const unsigned int sizes[] = { 8, 40, 100 };
	struct handle_ctx *ctx = test->priv;
	struct fixture_found a, b, d;
	struct opp_table *table;
	unsigned int k, i, n, found;
	unsigned long f, step = 10 * HZ_PER_MHZ;

	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		n = sizes[k];
		for (i = 1; i <= n; i++)
			KUNIT_ASSERT_EQ(test, opp_add(ctx->dev, i * step,
						      handle_volt(i * step)), 0);
		for (i = 3; i <= n; i += 3)
			KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, i * step), 0);
		table = opp_table_get(ctx->dev);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(table));
		found = 0;
		for (f = 0; f <= (n + 1) * step; f += step / 2) {
			for (i = 0; i < ARRAY_SIZE(handle_hows); i++) {
				a = handle_find_as(table, handle_hows[i], f, true);
				b = handle_find_as(table, handle_hows[i], f, false);
				d = opp_test_fixture_find(ctx->dev, handle_hows[i], f);
				KUNIT_EXPECT_PTR_EQ_MSG(test, a.opp, b.opp,
							"%u OPPs, search %u at %lu Hz",
							n, i, f);
				KUNIT_EXPECT_PTR_EQ(test, a.opp, d.opp);
				KUNIT_EXPECT_EQ(test, a.freq, b.freq);
				KUNIT_EXPECT_EQ(test, a.freq, d.freq);
				KUNIT_EXPECT_EQ(test, a.volt, b.volt);
				found += !IS_ERR(a.opp);
			}
		}
		/* Not vacuous: every OPP is found by exact, the rest by some. */
		KUNIT_EXPECT_GT_MSG(test, found, 3 * n, "%u OPPs", n);
		opp_table_put(table);
		KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
	}
}

/*
 * A reader in a hard interrupt (an hrtimer) that searches through a
 * handle, inline and out of line, while this thread republishes the table
 * (an OPP added and removed: a new array each time, the old one freed
 * after a grace period), toggles an OPP, and finally removes the table.
 * Both ways, in one interrupt, must see the same snapshot; each answer
 * must be one of a state the table had.
 */
struct handle_irq_reader {
	struct hrtimer timer;
	struct opp_table *table;
	bool removed;		/* set before opp_remove_table() */
	bool stopping;
	unsigned int reads, with_top, without_top, enodev, bad;
	unsigned long bad_ceil, bad_floor;
	long bad_err;
};

#define HANDLE_IRQ_PERIOD_NS	(20 * NSEC_PER_USEC)
#define HANDLE_TOP		(850 * HZ_PER_MHZ)

static void handle_irq_read(struct handle_irq_reader *rd)
{
	unsigned long c1 = 450 * HZ_PER_MHZ, c2 = c1, fl = ULONG_MAX;
	struct opp *a, *b, *top, *lo;
	bool ok;

	rcu_read_lock();
	a = opp_table_find_freq_ceil_fast(rd->table, &c1);
	b = opp_table_find_freq_ceil(rd->table, &c2);
	lo = opp_table_find_freq_floor_fast(rd->table, &fl);
	top = opp_table_find_freq_exact_fast(rd->table, HANDLE_TOP, true);
	rcu_read_unlock();

	rd->reads++;
	if (PTR_ERR_OR_ZERO(a) == -ENODEV) {
		/* Removal was published after the flag was set. */
		ok = READ_ONCE(rd->removed) && PTR_ERR_OR_ZERO(b) == -ENODEV &&
		     PTR_ERR_OR_ZERO(lo) == -ENODEV &&
		     PTR_ERR_OR_ZERO(top) == -ENODEV;
		rd->enodev++;
	} else {
		/* 500 MHz toggles, 600 stays disabled; 850 MHz comes and goes. */
		ok = !IS_ERR(a) && a == b && c1 == c2 &&
		     (c1 == 500 * HZ_PER_MHZ || c1 == 700 * HZ_PER_MHZ) &&
		     !IS_ERR(lo) && (fl == HANDLE_TOP) == !IS_ERR(top) &&
		     (fl == HANDLE_TOP || fl == 800 * HZ_PER_MHZ) &&
		     (!IS_ERR(top) || PTR_ERR(top) == -ERANGE);
		if (fl == HANDLE_TOP)
			rd->with_top++;
		else
			rd->without_top++;
	}
	if (!ok && !rd->bad++) {
		rd->bad_ceil = c1;
		rd->bad_floor = fl;
		rd->bad_err = PTR_ERR_OR_ZERO(a);
	}
}

static enum hrtimer_restart handle_irq_fn(struct hrtimer *timer)
{
	struct handle_irq_reader *rd = container_of(timer, struct handle_irq_reader,
						    timer);

	handle_irq_read(rd);
	if (READ_ONCE(rd->stopping))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(HANDLE_IRQ_PERIOD_NS));
	return HRTIMER_RESTART;
}

static void opp_table_handle_fast_republished(struct kunit *test)
{
	struct handle_ctx *ctx = test->priv;
	struct handle_irq_reader *rd;
	unsigned int i, enodev;

	rd = kunit_kzalloc(test, sizeof(*rd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rd);
	handle_fill(test, ctx->dev);
	rd->table = opp_table_get(ctx->dev);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(rd->table));

	/*
	 * The timer interrupts this thread on its own CPU, so that nothing
	 * changes the table during one interrupt: its searches must agree.
	 */
	migrate_disable();
	hrtimer_init(&rd->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	rd->timer.function = handle_irq_fn;
	hrtimer_start(&rd->timer, ns_to_ktime(HANDLE_IRQ_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	for (i = 0; i < 400; i++) {
		KUNIT_EXPECT_EQ(test, opp_add(ctx->dev, HANDLE_TOP, 1200000), 0);
		usleep_range(20, 60);
		KUNIT_EXPECT_EQ(test, opp_disable(ctx->dev, 500 * HZ_PER_MHZ), 0);
		usleep_range(20, 60);
		KUNIT_EXPECT_EQ(test, opp_enable(ctx->dev, 500 * HZ_PER_MHZ), 0);
		KUNIT_EXPECT_EQ(test, opp_remove(ctx->dev, HANDLE_TOP), 0);
		usleep_range(20, 60);
	}
	WRITE_ONCE(rd->removed, true);
	smp_wmb();	/* the flag before the removal: see handle_irq_read() */
	KUNIT_EXPECT_EQ(test, opp_remove_table(ctx->dev), 0);
	/* Let the reader see the removed table a few times. */
	for (i = 0; i < 100 && !READ_ONCE(rd->enodev); i++)
		usleep_range(100, 200);
	WRITE_ONCE(rd->stopping, true);
	hrtimer_cancel(&rd->timer);
	migrate_enable();
	enodev = rd->enodev;
	opp_table_put(rd->table);

	KUNIT_EXPECT_EQ_MSG(test, rd->bad, 0U,
			    "first bad read: ceil %lu, floor %lu, error %ld",
			    rd->bad_ceil, rd->bad_floor, rd->bad_err);
	/* Not vacuous: the reader saw the table with and without the top OPP. */
	KUNIT_EXPECT_GT(test, rd->with_top, 0U);
	KUNIT_EXPECT_GT(test, rd->without_top, 0U);
	KUNIT_EXPECT_GT(test, enodev, 0U);
	kunit_info(test, "%u reads from a hard interrupt: %u with the top OPP, %u without, %u after removal\n",
		   rd->reads, rd->with_top, rd->without_top, enodev);
}

static struct kunit_case handle_cases[] = {
	KUNIT_CASE(opp_table_handle_get_errors),
	KUNIT_CASE(opp_table_handle_matches_device),
	KUNIT_CASE(opp_table_handle_sees_updates),
	KUNIT_CASE(opp_table_handle_outlives_table),
	KUNIT_CASE(opp_table_handle_last_opp_removed),
	KUNIT_CASE(opp_table_handle_two_handles),
	KUNIT_CASE(opp_table_handle_atomic_context),
	KUNIT_CASE(opp_table_handle_map_many_tables),
	KUNIT_CASE(opp_table_handle_fast_results),
	KUNIT_CASE(opp_table_handle_fast_matches),
	KUNIT_CASE(opp_table_handle_fast_republished),
	{}
};

static struct kunit_suite handle_suite = {
	.name = "opp_table_handle",
	.init = handle_init,
	.exit = handle_exit,
	.test_cases = handle_cases,
};

kunit_test_suite(handle_suite);

MODULE_DESCRIPTION("KUnit tests of the OPP library's table handles and device map");
MODULE_LICENSE("GPL");
