// SPDX-License-Identifier: GPL-2.0-only
/*
 * Concurrency torture of the OPP library's core (opp.c, with the CPUs'
 * sharing of opp_cpu.c): suite opp_torture.
 *
 * In the manner of rcutorture: readers on every CPU and in hard interrupts
 * search the tables while updaters add, enable, disable and remove OPPs
 * and whole tables, and every result is checked against a model of what
 * the tables must hold. KASAN catches the reads of freed memory that no
 * check can see.
 *
 * The model: each table has a shadow, the set of its device's possible
 * OPPs (its universe, torture_rate()) that are present and which of them
 * are available; a voltage is a function of its rate (torture_volt()), so
 * a value read from the wrong OPP or from recycled memory shows. The
 * updaters make each call that can change a table, and the matching
 * update of its shadow, under a mutex of the test per table, so the
 * shadow is exact: it predicts each call's return value, the next state
 * and the notifier events in their order, and after each call the table
 * as the API shows it (every rate, voltage and availability, the count)
 * must be the shadow. Only real changes count as changes.
 *
 * Readers search by rate, and a share of them by level and by bandwidth
 * (torture_lookup_level(), torture_lookup_bw()). Readers take no lock.
 * Each table counts its changes (odd while one is in flight) and keeps
 * its last states; a reader reads the count before and after its lookup,
 * and what it saw must be, OPP by OPP, what the table held at some point
 * in between. OPP by OPP, not table by table: a search reads the
 * availability flags one by one while they may flip in place, so a whole
 * result need not be one state, but each OPP it looked at must have been
 * as seen.
 *
 * Notifiers: an updater registers its notifier on a table under that
 * table's mutex, having published everything the callback reads; each
 * callback checks its event against the next one the shadow expects from
 * the call in flight, and each call checks that every listener got all of
 * them.
 *
 * Device 0 is "stable": three of its OPPs are pinned (never disabled or
 * removed) and its table is never removed. The other devices churn, whole
 * tables included. Where the kernel has CPU devices, one CPU without a
 * table shares device 0's (opp_set_sharing_cpus()): half of the lookups
 * and updates of device 0 go through that CPU's device instead, judged
 * against the same shadow, so readers by a sharer race every republish
 * of the table.
 *
 * The torture runs in the suite's init for @duration seconds (KUnit gives a
 * single case at most 300 s; a suite init has no such limit), and the cases
 * then judge and report what it measured: each reader's progress and
 * rate, the interrupt-context lookups, the updaters and the violations, as
 * "torture:" lines the harness summary picks up. Parameters:
 *
 *   duration=SEC  readers=N (default: one per online CPU)  updaters=N
 *   seed=N (default: a random one; the run prints it)  irq_period_us=N
 *   race_window_ms=N (a sleep right after each notifier registration)
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_test_helpers.h"

static unsigned int duration = 20;
module_param(duration, uint, 0444);
MODULE_PARM_DESC(duration, "seconds of torture (default 20)");

static int readers = -1;
module_param(readers, int, 0444);
MODULE_PARM_DESC(readers, "reader threads (default: one per online CPU)");

static unsigned int updaters = 2;
module_param(updaters, uint, 0444);
MODULE_PARM_DESC(updaters, "updater threads (default 2)");

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the pseudo-random choices (default 0: a random one)");

static unsigned int irq_period_us = 1000;
module_param(irq_period_us, uint, 0444);
MODULE_PARM_DESC(irq_period_us, "period of each CPU's lookup timer (default 1000)");

static unsigned int race_window_ms;
module_param(race_window_ms, uint, 0444);
MODULE_PARM_DESC(race_window_ms, "sleep right after registering a notifier (default 0)");

#define TORTURE_NDEVS	4
#define TORTURE_NPOINTS	16
#define TORTURE_ALL	GENMASK(TORTURE_NPOINTS - 1, 0)
#define TORTURE_STABLE	0	/* the device whose table is never removed */
#define TORTURE_MAX_READERS 64
/*
 * How long a reader holds an OPP it found, busy-waiting under RCU (udelay:
 * the generic ndelay() of x86 and UML refuses 20 us and more at link time).
 */
#define TORTURE_STRETCH_US 20
#define TORTURE_MAX_UPDATERS 16
/* Updater slots of the window case, after the torture's updaters. */
#define TORTURE_WINDOW_SLOTS 2
#define TORTURE_WINDOW_MS 30
/* States of a table a reader can still attribute what it saw to. */
#define TORTURE_HIST	64
/*
 * Lookups each reader thread and each timer must have judged. A reader
 * that shares its CPU with an updater gets a few percent of it (nice 19
 * against 0): some 100 lookups a second on the debug guest.
 */
#define TORTURE_MIN_READS	200
#define TORTURE_MIN_IRQ_READS	1000

/* Device 0's pinned OPPs: always present and available. */
static const unsigned int pinned[] = { 0, 7, TORTURE_NPOINTS - 1 };

/* Uneven steps, so that bisection meets odd gaps; unique across devices. */
static unsigned long torture_rate(unsigned int d, unsigned int k)
{
	return (d + 1) * 200 * HZ_PER_MHZ + k * 10 * HZ_PER_MHZ + k * k * 1000;
}

/* A rate's voltage: unique to that rate, so a mixed-up read shows. */
static unsigned long torture_volt(unsigned long rate)
{
	return rate / 1000 + 100000;
}

/* The index of @rate in device @d's universe, or -1. */
static int torture_index(unsigned int d, unsigned long rate)
{
	unsigned int k;

	for (k = 0; k < TORTURE_NPOINTS; k++)
		if (torture_rate(d, k) == rate)
			return k;
	return -1;
}

/* The OPPs of device @d's universe whose rate is in [@lo, @hi]. */
static u32 torture_span(unsigned int d, unsigned long lo, unsigned long hi)
{
	unsigned long rate;
	unsigned int k;
	u32 mask = 0;

	for (k = 0; k < TORTURE_NPOINTS; k++) {
		rate = torture_rate(d, k);
		if (rate >= lo && rate <= hi)
			mask |= BIT(k);
	}
	return mask;
}

static bool torture_is_pinned(unsigned int d, unsigned int k)
{
	unsigned int i;

	if (d != TORTURE_STABLE)
		return false;
	for (i = 0; i < ARRAY_SIZE(pinned); i++)
		if (pinned[i] == k)
			return true;
	return false;
}

enum torture_violation {
	V_BOUND,	/* ceil below or floor above the asked rate, exact off */
	V_FOREIGN,	/* a rate that is not in the device's universe */
	V_VOLT,		/* a voltage that is not the rate's */
	V_ACCESSOR,	/* an accessor disagreeing with the search */
	V_ERRNO,	/* an error the contract does not allow there */
	V_ORDER,	/* a ceil walk that did not strictly increase */
	V_COUNT,	/* a count no state of the window gives */
	V_MODEL,	/* a lookup result no state of the window gives */
	V_UNTOUCHED,	/* *freq or the copy changed by a failed lookup */
	V_UPDATER,	/* an updater's return value not the predicted one */
	V_TABLE,	/* a table that is not its shadow after a call */
	V_CPUFREQ,	/* a cpufreq table that is not the shadow's */
	V_NOTIFY,	/* a notification not the next expected one */
	V_NR,
};

static const char * const violation_name[V_NR] = {
	[V_BOUND] = "bound", [V_FOREIGN] = "foreign", [V_VOLT] = "volt",
	[V_ACCESSOR] = "accessor", [V_ERRNO] = "errno", [V_ORDER] = "order",
	[V_COUNT] = "count", [V_MODEL] = "model",
	[V_UNTOUCHED] = "untouched", [V_UPDATER] = "updater",
	[V_TABLE] = "table", [V_CPUFREQ] = "cpufreq", [V_NOTIFY] = "notify",
};

struct torture_reader {
	struct task_struct *task;
	struct hrtimer timer;
	struct rnd_state rnd;		/* the thread's */
	struct rnd_state irq_rnd;	/* the timer's */
	unsigned int cpu;
	u64 ops;	/* lookups checked against the model */
	u64 unknown;	/* lookups whose window outlived the history */
	u64 irq_ops;
	u64 irq_unknown;
	bool stopping;
};

/* An updater's notifier, registered on one table at a time. */
struct torture_nb {
	struct notifier_block nb;
	unsigned int id;	/* its bit in a table's listeners */
	unsigned int d;		/* its table: set before registering */
	unsigned int pos;	/* the next event it expects from the call */
	bool registered;	/* its updater has a registration to undo */
	atomic_long_t calls;
};

struct torture_updater {
	struct task_struct *task;
	struct rnd_state rnd;
	struct torture_nb tnb;
	u64 ops;
	u64 changes;	/* calls that changed a table */
};

/* A notification the call in flight must send. */
struct torture_event {
	unsigned long event;
	unsigned int k;
	bool available;
};

/*
 * A table's shadow. Bit k of @avail and @disabled stands for the OPP at
 * torture_rate(d, k); a table with neither bit set anywhere does not
 * exist. Everything but @seq, @hist and @owner is only touched under
 * @lock, by its holder or by the notifier callbacks the holder's library
 * call runs.
 */
struct torture_table {
	struct mutex lock;		/* a call and its shadow's update */
	struct task_struct *owner;	/* @lock's holder */
	u32 avail;			/* present and available */
	u32 disabled;			/* present and disabled */
	u32 listeners;			/* the updaters whose notifier it has */
	struct torture_event ev[TORTURE_NPOINTS];
	unsigned int nev;
	/*
	 * For the readers: twice the number of changes, plus one while a
	 * change is in flight; @hist[v % TORTURE_HIST] is the state after
	 * change v (torture_pack()), written before the change starts.
	 */
	unsigned long seq;
	u64 hist[TORTURE_HIST];
};

static struct {
	struct device *devs[TORTURE_NDEVS];
	/* A CPU's device that shares device 0's table, or NULL. */
	struct device *sharer;
	atomic_long_t sharer_reads;
	/* A handle on device 0's table, for the inline searches. */
	struct opp_table *handle;
	atomic_long_t inline_reads;
	/* Lookups by level or bandwidth (torture_lookup_level(), _bw()). */
	atomic_long_t key_reads;
	struct torture_table tables[TORTURE_NDEVS];
	atomic_t released;
	struct torture_reader *readers;
	unsigned int nreaders;
	struct torture_updater *updaters;
	unsigned int nupdaters;
	unsigned int nslots;	/* updaters and the window case's slots */
	atomic_long_t violations[V_NR];
	u64 elapsed_ms;
	int setup_err;
	bool final_ok;		/* the tables were their shadows after the run */
} tt;

static void torture_violation(enum torture_violation v, unsigned int d,
			      unsigned long asked, unsigned long got, long info)
{
	atomic_long_inc(&tt.violations[v]);
	pr_err_ratelimited("violation %s: dev %u asked %lu got %lu (%ld)\n",
			   violation_name[v], d, asked, got, info);
}

static long torture_total_violations(void)
{
	long sum = 0;
	int v;

	for (v = 0; v < V_NR; v++)
		sum += atomic_long_read(&tt.violations[v]);
	return sum;
}

static u64 torture_pack(u32 avail, u32 disabled)
{
	return avail | (u64)disabled << 32;
}

/* ---- Readers: what a lookup saw, against the states of its window ---- */

/* What a table may have held, OPP by OPP, at some point of a window. */
struct torture_seen {
	u32 avail;	/* present and available */
	u32 unavail;	/* absent or disabled */
	u32 disabled;	/* present and disabled */
	u32 undisabled;	/* absent or available */
	bool exists;	/* the table existed */
	bool gone;	/* it did not */
};

static unsigned long torture_read_begin(unsigned int d)
{
	/* Orders the count before the lookup's reads. */
	return smp_load_acquire(&tt.tables[d].seq);
}

/*
 * The states table @d was in from the count @s1 on: change s1 / 2 was
 * then complete, and the change in flight at the end may already show.
 * False if the window outlived the history.
 */
static bool torture_read_end(unsigned int d, unsigned long s1,
			     struct torture_seen *seen)
{
	const struct torture_table *t = &tt.tables[d];
	unsigned long lo = s1 >> 1, hi, w, s;
	u32 a, dis;
	u64 x;

	/* The lookup's reads before the count's. */
	smp_rmb();
	s = READ_ONCE(t->seq);
	hi = (s + 1) >> 1;
	if (hi - lo >= TORTURE_HIST - 1)
		return false;
	memset(seen, 0, sizeof(*seen));
	for (w = lo; w <= hi; w++) {
		x = READ_ONCE(t->hist[w % TORTURE_HIST]);
		a = lower_32_bits(x);
		dis = upper_32_bits(x);
		seen->avail |= a;
		seen->unavail |= ~a & TORTURE_ALL;
		seen->disabled |= dis;
		seen->undisabled |= ~dis & TORTURE_ALL;
		if (a | dis)
			seen->exists = true;
		else
			seen->gone = true;
	}
	/*
	 * The entry of change lo is rewritten for change lo + TORTURE_HIST,
	 * only once change lo + TORTURE_HIST - 1 is complete.
	 */
	smp_rmb();
	s = READ_ONCE(t->seq);
	return (s >> 1) + 1 < lo + TORTURE_HIST;
}

/* A lookup's outcome, judged once its window is known. */
struct torture_found {
	unsigned long q;	/* the rate asked */
	int err;		/* 0 or the error returned */
	unsigned long rate;	/* the rate found */
	unsigned long f;	/* opp_get_freq() */
	unsigned long v;	/* opp_get_voltage(), or the copied voltage */
};

/*
 * Every OPP the lookup looked at was, at some point of the window, as the
 * result says: the one found present with the availability asked for,
 * those it stepped over (or all, on -ERANGE) absent or not matching.
 * @copied: a copy-out lookup, whose voltage is the OPP's whatever its
 * availability; otherwise the accessors, which read the flag again.
 */
static void torture_judge(unsigned int d, enum fixture_how how,
			  const struct torture_found *fd,
			  const struct torture_seen *seen, bool copied)
{
	bool off = how == FIXTURE_EXACT_OFF, bound = true;
	u32 skipped = 0, bit;
	int k;

	if (fd->err == -ENODEV) {
		if (!seen->gone)
			torture_violation(V_MODEL, d, fd->q, 0, -ENODEV);
		return;
	}
	if (fd->err && fd->err != -ERANGE) {
		torture_violation(V_ERRNO, d, fd->q, 0, fd->err);
		return;
	}
	if (fd->err) {
		k = torture_index(d, fd->q);
		if (how == FIXTURE_CEIL)
			skipped = torture_span(d, fd->q, ULONG_MAX);
		else if (how == FIXTURE_FLOOR)
			skipped = torture_span(d, 0, fd->q);
		else if (k >= 0)
			skipped = BIT(k);
		if (!seen->exists ||
		    (skipped & ~(off ? seen->undisabled : seen->unavail)))
			torture_violation(V_MODEL, d, fd->q, 0, -ERANGE);
		return;
	}

	k = torture_index(d, fd->rate);
	if (k < 0) {
		torture_violation(V_FOREIGN, d, fd->q, fd->rate, how);
		return;
	}
	bit = BIT(k);
	if (how == FIXTURE_CEIL) {
		bound = fd->rate >= fd->q;
		if (fd->rate > fd->q)
			skipped = torture_span(d, fd->q, fd->rate - 1);
	} else if (how == FIXTURE_FLOOR) {
		bound = fd->rate <= fd->q;
		if (fd->rate < fd->q)
			skipped = torture_span(d, fd->rate + 1, fd->q);
	} else {
		bound = fd->rate == fd->q;
	}
	if (!bound)
		torture_violation(V_BOUND, d, fd->q, fd->rate, how);
	if (!seen->exists || (skipped & ~seen->unavail) ||
	    !(bit & (off ? seen->disabled : seen->avail)))
		torture_violation(V_MODEL, d, fd->q, fd->rate, how);
	if (copied) {
		if (fd->v != torture_volt(fd->rate))
			torture_violation(V_VOLT, d, fd->rate, fd->v, how);
		return;
	}
	/* 0 from a disabled OPP; the flag read is one the window had. */
	if (fd->f && fd->f != fd->rate)
		torture_violation(V_ACCESSOR, d, fd->rate, fd->f, how);
	if (fd->v && fd->v != torture_volt(fd->rate))
		torture_violation(V_VOLT, d, fd->rate, fd->v, how);
	if (!(bit & (fd->f ? seen->avail : seen->disabled)))
		torture_violation(V_MODEL, d, fd->rate, fd->f, 10 + how);
	if (!(bit & (fd->v ? seen->avail : seen->disabled)))
		torture_violation(V_MODEL, d, fd->rate, fd->v, 20 + how);
}

/* A query near device @d's rates, now and then an extreme one. */
static unsigned long torture_query(struct rnd_state *rnd, unsigned int d)
{
	u32 r = prandom_u32_state(rnd);
	unsigned int k = (r >> 8) % (TORTURE_NPOINTS + 1);
	long delta = (long)((r >> 16) % (12 * HZ_PER_MHZ / 1000)) * 1000 - 6 * HZ_PER_MHZ;

	switch (r & 31) {
	case 0:
		return 0;
	case 1:
		return ULONG_MAX;
	case 2:
	case 3:
	case 4:
	case 5:
		return torture_rate(d, k % TORTURE_NPOINTS);
	default:
		return torture_rate(d, 0) + k * 10 * HZ_PER_MHZ + delta;
	}
}

static unsigned long torture_query_how(struct rnd_state *rnd, unsigned int d,
				       enum fixture_how how)
{
	if (how >= FIXTURE_EXACT)
		return torture_rate(d, prandom_u32_state(rnd) % TORTURE_NPOINTS);
	return torture_query(rnd, d);
}

/* A search under rcu_read_lock(); @stretch widens the window. */
/* The device to ask for table @d's OPPs: @share picks device 0's sharer. */
static struct device *torture_dev(unsigned int d, bool share)
{
	return d == TORTURE_STABLE && share && tt.sharer ? tt.sharer : tt.devs[d];
}

static bool torture_search(struct rnd_state *rnd, unsigned int d,
			   struct device *dev, enum fixture_how how, bool stretch)
{
	struct torture_found fd = { .q = torture_query_how(rnd, d, how) };
	struct torture_seen seen;
	unsigned long f = fd.q, s;
	struct opp *opp;

	/* A third of device 0's searches: inline, through the handle. */
	bool inl = d == TORTURE_STABLE && tt.handle &&
		   !(prandom_u32_state(rnd) % 3);

	s = torture_read_begin(d);
	rcu_read_lock();
	if (inl && how == FIXTURE_CEIL)
		opp = opp_table_find_freq_ceil_fast(tt.handle, &f);
	else if (inl && how == FIXTURE_FLOOR)
		opp = opp_table_find_freq_floor_fast(tt.handle, &f);
	else if (inl)
		opp = opp_table_find_freq_exact_fast(tt.handle, fd.q,
						     how == FIXTURE_EXACT);
	else if (how == FIXTURE_CEIL)
		opp = opp_find_freq_ceil(dev, &f);
	else if (how == FIXTURE_FLOOR)
		opp = opp_find_freq_floor(dev, &f);
	else
		opp = opp_find_freq_exact(dev, fd.q, how == FIXTURE_EXACT);
	fd.err = PTR_ERR_OR_ZERO(opp);
	if (!fd.err) {
		fd.rate = how >= FIXTURE_EXACT ? fd.q : f;
		/*
		 * Give an updater time to replace and (wrongly) free the
		 * array; in an RCU read-side section, so a busy wait.
		 */
		if (stretch)
			udelay(TORTURE_STRETCH_US);
		fd.f = opp_get_freq(opp);
		fd.v = opp_get_voltage(opp);
	}
	rcu_read_unlock();
	if (!torture_read_end(d, s, &seen))
		return false;
	if (fd.err && f != fd.q)
		torture_violation(V_UNTOUCHED, d, fd.q, f, fd.err);
	torture_judge(d, how, &fd, &seen, false);
	if (inl)
		atomic_long_inc(&tt.inline_reads);
	return true;
}

/*
 * A copy-out lookup by level, from the lowest up (@how FIXTURE_CEIL) or
 * from the highest down. opp_add() gives every OPP of a table one level,
 * so these find what the rate lookups from 0 and from ULONG_MAX find, and
 * are judged as those: the searches by key race the same updates through
 * code of their own.
 */
static int torture_lookup_level(enum fixture_how how, struct device *dev,
				struct opp_info *info)
{
	if (how == FIXTURE_CEIL)
		return opp_lookup_level_ceil(dev, 0, info);
	return opp_lookup_level_floor(dev, U32_MAX, info);
}

/*
 * A copy-out lookup by path 0's bandwidth: opp_add() tables have no
 * interconnect path, so -EINVAL while the table is there (the kernel's
 * answer for a path the table lacks), -ENODEV once it may be gone, and
 * never a write to @info; what it races is the table's removal.
 */
static bool torture_lookup_bw(struct rnd_state *rnd, unsigned int d,
			      struct device *dev)
{
	struct opp_info info = { .rate = 1, .u_volt = 2 };
	bool ceil = prandom_u32_state(rnd) & 1;
	struct torture_seen seen;
	unsigned long s;
	int err;

	s = torture_read_begin(d);
	err = ceil ? opp_lookup_bw_ceil(dev, 0, 0, &info) :
		     opp_lookup_bw_floor(dev, U32_MAX, 0, &info);
	if (!torture_read_end(d, s, &seen))
		return false;
	if (info.rate != 1 || info.u_volt != 2)
		torture_violation(V_UNTOUCHED, d, 0, info.rate, err);
	if (err != -EINVAL && !(err == -ENODEV && seen.gone))
		torture_violation(V_ERRNO, d, 0, 0, err);
	atomic_long_inc(&tt.key_reads);
	return true;
}

/*
 * A copy-out lookup: the values, and the availability matched. An eighth
 * of the ceil and floor ones go by level instead, as many by bandwidth.
 */
static bool torture_lookup(struct rnd_state *rnd, unsigned int d,
			   struct device *dev, enum fixture_how how)
{
	struct torture_found fd = { .q = torture_query_how(rnd, d, how) };
	struct opp_info info = { .rate = 1, .u_volt = 2 };
	bool off = how == FIXTURE_EXACT_OFF;
	u32 r = how < FIXTURE_EXACT ? prandom_u32_state(rnd) % 8 : 2;
	struct torture_seen seen;
	unsigned long s;

	if (!r)
		return torture_lookup_bw(rnd, d, dev);
	if (r == 1)
		fd.q = how == FIXTURE_CEIL ? 0 : ULONG_MAX;
	s = torture_read_begin(d);
	if (r == 1)
		fd.err = torture_lookup_level(how, dev, &info);
	else if (how == FIXTURE_CEIL)
		fd.err = opp_lookup_ceil(dev, fd.q, &info);
	else if (how == FIXTURE_FLOOR)
		fd.err = opp_lookup_floor(dev, fd.q, &info);
	else
		fd.err = opp_lookup_exact(dev, fd.q, !off, &info);
	if (!torture_read_end(d, s, &seen))
		return false;
	if (fd.err && (info.rate != 1 || info.u_volt != 2))
		torture_violation(V_UNTOUCHED, d, fd.q, info.rate, fd.err);
	if (!fd.err && info.available == off)
		torture_violation(V_MODEL, d, fd.q, info.rate, 30 + how);
	fd.rate = info.rate;
	fd.v = info.u_volt;
	torture_judge(d, how, &fd, &seen, true);
	if (r == 1)
		atomic_long_inc(&tt.key_reads);
	return true;
}

/* The count of available OPPs: between the sure and the possible ones. */
static bool torture_count(unsigned int d, struct device *dev)
{
	struct torture_seen seen;
	unsigned long s;
	int count, lo, hi;

	s = torture_read_begin(d);
	rcu_read_lock();
	count = opp_get_opp_count(dev);
	rcu_read_unlock();
	if (!torture_read_end(d, s, &seen))
		return false;
	if (count == -ENODEV) {
		if (!seen.gone)
			torture_violation(V_COUNT, d, 0, 0, count);
		return true;
	}
	lo = hweight32(~seen.unavail & TORTURE_ALL);
	hi = hweight32(seen.avail);
	if (count < lo || count > hi || !seen.exists)
		torture_violation(V_COUNT, d, lo, count, hi);
	return true;
}

/* The documented walk: strictly increasing, each step a state's. */
static bool torture_walk(unsigned int d, struct device *dev)
{
	struct torture_found steps[TORTURE_NPOINTS + 1] = {};
	struct torture_seen seen;
	unsigned long f = 0, s;
	unsigned int n = 0, i;
	struct opp *opp;

	s = torture_read_begin(d);
	rcu_read_lock();
	for (;;) {
		steps[n].q = f;
		opp = opp_find_freq_ceil(dev, &f);
		steps[n].err = PTR_ERR_OR_ZERO(opp);
		if (IS_ERR(opp)) {
			n++;
			break;
		}
		steps[n].rate = f;
		steps[n].f = opp_get_freq(opp);
		steps[n].v = opp_get_voltage(opp);
		if (++n == ARRAY_SIZE(steps) || f == ULONG_MAX)
			break;
		f++;
	}
	rcu_read_unlock();
	if (!torture_read_end(d, s, &seen))
		return false;
	if (!steps[n - 1].err)
		torture_violation(V_COUNT, d, 0, n, 1);
	for (i = 0; i < n; i++) {
		if (i && !steps[i].err && steps[i].rate <= steps[i - 1].rate)
			torture_violation(V_ORDER, d, steps[i - 1].rate,
					  steps[i].rate, i);
		torture_judge(d, FIXTURE_CEIL, &steps[i], &seen, false);
	}
	return true;
}

/*
 * One lookup of any kind on any device; false if it could not be judged.
 * The walk, whose stack is larger, only from a thread.
 */
static bool torture_read_one(struct rnd_state *rnd, bool in_irq, bool stretch)
{
	u32 r = prandom_u32_state(rnd);
	unsigned int d = r % TORTURE_NDEVS;
	unsigned int kind = (r >> 4) % (in_irq ? 9 : 10);
	struct device *dev = torture_dev(d, r & BIT(31));
	bool judged;

	switch (kind) {
	case 0 ... 3:
		judged = torture_search(rnd, d, dev, kind, stretch);
		break;
	case 4 ... 7:
		judged = torture_lookup(rnd, d, dev, kind - 4);
		break;
	case 8:
		judged = torture_count(d, dev);
		break;
	default:
		judged = torture_walk(d, dev);
		break;
	}
	if (judged && dev == tt.sharer)
		atomic_long_inc(&tt.sharer_reads);
	return judged;
}

static enum hrtimer_restart torture_timer_fn(struct hrtimer *timer)
{
	struct torture_reader *rd = container_of(timer, struct torture_reader,
						 timer);
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (torture_read_one(&rd->irq_rnd, true, false))
			rd->irq_ops++;
		else
			rd->irq_unknown++;
	}
	if (READ_ONCE(rd->stopping))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(irq_period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int torture_reader_fn(void *arg)
{
	struct torture_reader *rd = arg;
	u64 n = 0;

	/* As rcutorture's readers: the updaters get a CPU when they want one. */
	set_user_nice(current, MAX_NICE);
	hrtimer_start(&rd->timer, ns_to_ktime(irq_period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!kthread_should_stop()) {
		if (torture_read_one(&rd->rnd, false, (n & 255) == 0))
			rd->ops++;
		else
			rd->unknown++;
		if ((++n & 63) == 0)
			cond_resched();
	}
	WRITE_ONCE(rd->stopping, true);
	hrtimer_cancel(&rd->timer);
	return 0;
}

/* ---- Updaters: each call predicted by the shadow, then checked ---- */

static void torture_lock(struct torture_table *t)
{
	mutex_lock(&t->lock);
	/* The callbacks check that they run in the holder's context. */
	WRITE_ONCE(t->owner, current);
}

static void torture_unlock(struct torture_table *t)
{
	WRITE_ONCE(t->owner, NULL);
	mutex_unlock(&t->lock);
}

/*
 * Open the next change of @t, to the state @next the shadow predicts:
 * first its history entry, then the odd count, then whatever the library
 * stores.
 */
static void torture_publish_begin(struct torture_table *t, u64 next)
{
	unsigned long v = (t->seq >> 1) + 1;

	/* The last change's even count before the entry reused here. */
	smp_wmb();
	WRITE_ONCE(t->hist[v % TORTURE_HIST], next);
	/* The entry before the odd count that points readers at it. */
	smp_wmb();
	WRITE_ONCE(t->seq, t->seq + 1);
	/* The odd count before whatever the library stores. */
	smp_wmb();
}

static void torture_publish_end(struct torture_table *t)
{
	/* What the library stored before the even count. */
	smp_store_release(&t->seq, t->seq + 1);
}

/*
 * Notified under the library's update mutex, by a change of the table
 * this notifier is on: only the holder of that table's lock makes one, so
 * the callback runs in its context and reads the shadow under its lock.
 * The event must be the next one the call in flight owes this listener,
 * and a lookup must already see the change.
 */
static int torture_notify(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	struct torture_nb *tnb = container_of(nb, struct torture_nb, nb);
	unsigned int d = READ_ONCE(tnb->d);
	struct torture_table *t = &tt.tables[d];
	struct opp_info *info = data, seen;
	const struct torture_event *want;
	unsigned long rate;
	bool ok;
	int ret;

	atomic_long_inc(&tnb->calls);
	/* Else: an event of another table, or to a listener it dropped. */
	if (READ_ONCE(t->owner) != current || !(t->listeners & BIT(tnb->id)) ||
	    !info) {
		torture_violation(V_NOTIFY, d, event, info ? info->rate : 0, -1);
		return NOTIFY_DONE;
	}
	if (tnb->pos >= t->nev) {
		torture_violation(V_NOTIFY, d, event, info->rate, -2);
		return NOTIFY_DONE;
	}
	want = &t->ev[tnb->pos++];
	rate = torture_rate(d, want->k);
	if (event != want->event || info->rate != rate ||
	    info->u_volt != torture_volt(rate) ||
	    info->available != want->available) {
		torture_violation(V_NOTIFY, d, rate, info->rate, event);
		return NOTIFY_DONE;
	}
	switch (event) {
	case OPP_EVENT_ADD:
	case OPP_EVENT_ENABLE:
		ret = opp_lookup_exact(tt.devs[d], rate, true, &seen);
		ok = !ret && seen.u_volt == info->u_volt;
		break;
	case OPP_EVENT_DISABLE:
		ret = opp_lookup_exact(tt.devs[d], rate, false, &seen);
		ok = !ret;
		break;
	default:
		ret = opp_lookup_exact(tt.devs[d], rate, true, &seen);
		ok = ret && opp_lookup_exact(tt.devs[d], rate, false, &seen);
		break;
	}
	if (!ok)
		torture_violation(V_NOTIFY, d, rate, event, ret);
	return NOTIFY_OK;
}

/*
 * Under @t's lock: the table as the API shows it is the shadow. In one RCU
 * section, the walk must find exactly the available OPPs, each with its
 * voltage, and an exact search of every other rate exactly the disabled
 * ones, whose voltage only a copy-out shows.
 */
static bool torture_table_matches(unsigned int d)
{
	struct torture_table *t = &tt.tables[d];
	bool exists = t->avail | t->disabled, ok = true;
	struct device *dev = tt.devs[d];
	u32 walked = 0, disabled = 0;
	unsigned long f = 0, rate;
	struct opp_info info;
	struct opp *opp;
	int count, k;

	rcu_read_lock();
	count = opp_get_opp_count(dev);
	while (!IS_ERR(opp = opp_find_freq_ceil(dev, &f))) {
		k = torture_index(d, f);
		if (k < 0 || (walked & BIT(k)) ||
		    opp_get_voltage(opp) != torture_volt(f)) {
			ok = false;
			break;
		}
		walked |= BIT(k);
		f++;
	}
	if (ok && PTR_ERR(opp) != (exists ? -ERANGE : -ENODEV))
		ok = false;
	for (k = 0; k < TORTURE_NPOINTS; k++)
		if (!(walked & BIT(k)) &&
		    !IS_ERR(opp_find_freq_exact(dev, torture_rate(d, k), false)))
			disabled |= BIT(k);
	rcu_read_unlock();
	if (!exists)
		return ok && count == -ENODEV && !walked && !disabled;
	if (!ok || walked != t->avail || disabled != t->disabled ||
	    count != (int)hweight32(t->avail))
		return false;
	for (k = 0; k < TORTURE_NPOINTS; k++) {
		if (!(disabled & BIT(k)))
			continue;
		rate = torture_rate(d, k);
		if (opp_lookup_exact(dev, rate, false, &info) ||
		    info.rate != rate || info.u_volt != torture_volt(rate))
			return false;
	}
	return true;
}

/*
 * After a violation: take the table as the API shows it, so that one
 * fault is reported once and not by every later check.
 */
static void torture_resync(unsigned int d)
{
	struct torture_table *t = &tt.tables[d];
	struct opp_info info;
	unsigned long rate;
	unsigned int k;

	t->avail = 0;
	t->disabled = 0;
	for (k = 0; k < TORTURE_NPOINTS; k++) {
		rate = torture_rate(d, k);
		if (!opp_lookup_exact(tt.devs[d], rate, true, &info))
			t->avail |= BIT(k);
		else if (!opp_lookup_exact(tt.devs[d], rate, false, &info))
			t->disabled |= BIT(k);
	}
	if (!(t->avail | t->disabled))
		t->listeners = 0;
	torture_publish_begin(t, torture_pack(t->avail, t->disabled));
	torture_publish_end(t);
}

static void torture_expect_event(struct torture_table *t, unsigned long event,
				 unsigned int k, bool available)
{
	t->ev[t->nev].event = event;
	t->ev[t->nev].k = k;
	t->ev[t->nev].available = available;
	t->nev++;
}

/*
 * The shadow's prediction of @op (opp_test_call()'s; OPP_TEST_ADD_CONFLICT
 * adds a present OPP with another voltage) on OPP @k: the return value,
 * the state after (@avail, @disabled) and the events, in @t->ev.
 */
static int torture_predict(struct torture_table *t, enum opp_test_op op,
			   unsigned int k, u32 *avail, u32 *disabled)
{
	u32 bit = BIT(k), present = t->avail | t->disabled;

	*avail = t->avail;
	*disabled = t->disabled;
	t->nev = 0;
	switch (op) {
	case OPP_TEST_ADD:
		if (*disabled & bit)
			return -EEXIST;
		/* A new table has no listener yet. */
		if (present && !(*avail & bit))
			torture_expect_event(t, OPP_EVENT_ADD, k, true);
		*avail |= bit;
		return 0;
	case OPP_TEST_ADD_CONFLICT:
		/* Only tried on a present OPP, whatever its availability. */
		return -EEXIST;
	case OPP_TEST_ENABLE:
		if (!(present & bit))
			return -ENODEV;
		if (*disabled & bit)
			torture_expect_event(t, OPP_EVENT_ENABLE, k, true);
		*disabled &= ~bit;
		*avail |= bit;
		return 0;
	case OPP_TEST_DISABLE:
		if (!(present & bit))
			return -ENODEV;
		if (*avail & bit)
			torture_expect_event(t, OPP_EVENT_DISABLE, k, false);
		*avail &= ~bit;
		*disabled |= bit;
		return 0;
	case OPP_TEST_REMOVE:
		if (!(present & bit))
			return -ENODEV;
		torture_expect_event(t, OPP_EVENT_REMOVE, k, *avail & bit);
		*avail &= ~bit;
		*disabled &= ~bit;
		return 0;
	case OPP_TEST_REMOVE_TABLE:
		if (!present)
			return -ENODEV;
		for (k = 0; k < TORTURE_NPOINTS; k++)
			if (present & BIT(k))
				torture_expect_event(t, OPP_EVENT_REMOVE, k,
						     *avail & BIT(k));
		*avail = 0;
		*disabled = 0;
		return 0;
	default:
		return -EINVAL;
	}
}

static int torture_call(unsigned int d, enum opp_test_op op, unsigned int k)
{
	unsigned long rate = torture_rate(d, k);
	const struct opp_test_call c = {
		.op = op,
		.rate = rate,
		.u_volt = torture_volt(rate),
	};
	/* Device 0's table is never removed: its sharer never leaves. */
	struct device *dev = torture_dev(d, op != OPP_TEST_REMOVE_TABLE && (k & 1));

	return opp_test_call(dev, &c);
}

/*
 * Under table @d's lock: @op on OPP @k as the shadow predicts it; then
 * the table must be the shadow. @changes counts the real changes.
 */
static void torture_change(unsigned int d, enum opp_test_op op, unsigned int k,
			   u64 *changes)
{
	struct torture_table *t = &tt.tables[d];
	u32 avail, disabled;
	unsigned int i;
	int want, ret;
	bool changed;

	lockdep_assert_held(&t->lock);
	want = torture_predict(t, op, k, &avail, &disabled);
	changed = avail != t->avail || disabled != t->disabled;
	for (i = 0; i < tt.nslots; i++)
		if (t->listeners & BIT(i))
			tt.updaters[i].tnb.pos = 0;
	if (changed)
		torture_publish_begin(t, torture_pack(avail, disabled));
	ret = torture_call(d, op, k);
	if (changed)
		torture_publish_end(t);
	if (ret != want) {
		torture_violation(V_UPDATER, d, torture_rate(d, k), op, ret);
		pr_err_ratelimited("dev %u op %d: %d, the model says %d\n",
				   d, op, ret, want);
	}
	for (i = 0; i < tt.nslots; i++)
		if ((t->listeners & BIT(i)) &&
		    tt.updaters[i].tnb.pos != t->nev)
			torture_violation(V_NOTIFY, d, t->nev,
					  tt.updaters[i].tnb.pos, -3);
	t->nev = 0;
	t->avail = avail;
	t->disabled = disabled;
	/* A removed table took its registrations with it. */
	if (!(avail | disabled))
		t->listeners = 0;
	if (!torture_table_matches(d)) {
		torture_violation(V_TABLE, d, torture_rate(d, k), op, ret);
		torture_resync(d);
	} else if (changed && ret == want) {
		(*changes)++;
	}
}

/*
 * Under table @d's lock: a cpufreq table is the shadow's available OPPs
 * (opp_test_call() compares them: -EFAULT if they differ).
 */
static void torture_check_cpufreq(unsigned int d)
{
	struct torture_table *t = &tt.tables[d];
	unsigned long rates[TORTURE_NPOINTS];
	struct opp_test_call c = { .op = OPP_TEST_CPUFREQ, .rates = rates };
	unsigned int k;
	int ret, want;

	lockdep_assert_held(&t->lock);
	want = !(t->avail | t->disabled) ? -ENODEV : !t->avail ? -ENODATA : 0;
	for (k = 0; k < TORTURE_NPOINTS; k++)
		if (t->avail & BIT(k))
			rates[c.nr_rates++] = torture_rate(d, k);
	ret = opp_test_call(tt.devs[d], &c);
	if (ret != want)
		torture_violation(V_CPUFREQ, d, want, c.nr_rates, ret);
}

/*
 * Register the updater's notifier on table @d, or unregister it from its
 * table. Everything the callback reads (its table, that table's
 * listeners, its cursor) is set under the table's lock before the
 * registration makes the callback reachable, and no change of the table
 * can run it before the lock is dropped. @window_ms: a sleep right after
 * registering, in which the other updaters go on (the window that
 * opp_torture_window() widens).
 */
static void torture_notifier_op(struct torture_updater *up, unsigned int d,
				unsigned int window_ms)
{
	struct torture_nb *tnb = &up->tnb;
	struct opp_test_call c = { .nb = &tnb->nb };
	struct torture_table *t;
	int ret, want;

	if (tnb->registered) {
		d = tnb->d;
		t = &tt.tables[d];
		torture_lock(t);
		/* A removed table ended the registration; a new one has none. */
		if (t->listeners & BIT(tnb->id))
			want = 0;
		else
			want = t->avail | t->disabled ? -ENOENT : -ENODEV;
		c.op = OPP_TEST_UNREGISTER;
		ret = opp_test_call(tt.devs[d], &c);
		t->listeners &= ~BIT(tnb->id);
		tnb->registered = false;
		torture_unlock(t);
		if (ret != want)
			torture_violation(V_UPDATER, d, want, 0, ret);
		return;
	}
	t = &tt.tables[d];
	torture_lock(t);
	WRITE_ONCE(tnb->d, d);
	tnb->pos = 0;
	t->listeners |= BIT(tnb->id);
	want = t->avail | t->disabled ? 0 : -ENODEV;
	c.op = OPP_TEST_REGISTER;
	ret = opp_test_call(tt.devs[d], &c);
	if (window_ms)
		msleep(window_ms);
	if (ret)
		t->listeners &= ~BIT(tnb->id);
	tnb->registered = !ret;
	torture_unlock(t);
	if (ret != want)
		torture_violation(V_UPDATER, d, want, 0, ret);
}

static void torture_fill(unsigned int d, u64 *changes)
{
	unsigned int k;

	for (k = 0; k < TORTURE_NPOINTS; k++)
		torture_change(d, OPP_TEST_ADD, k, changes);
}

static void torture_update_one(struct torture_updater *up)
{
	u32 r = prandom_u32_state(&up->rnd);
	unsigned int d = r % TORTURE_NDEVS;
	unsigned int k = (r >> 8) % TORTURE_NPOINTS;
	struct torture_table *t = &tt.tables[d];
	unsigned int choice = (r >> 16) % 64;
	static const enum opp_test_op single[] = {
		OPP_TEST_ADD, OPP_TEST_ENABLE, OPP_TEST_DISABLE, OPP_TEST_REMOVE,
	};
	enum opp_test_op op = single[r % 4];

	up->ops++;
	if (choice == 9 || choice == 10) {
		/* Registering scans every chain under the mutex: not too often. */
		torture_notifier_op(up, d, race_window_ms);
		return;
	}
	torture_lock(t);
	switch (choice) {
	case 0:
		if (d != TORTURE_STABLE) {
			torture_change(d, OPP_TEST_REMOVE_TABLE, 0, &up->changes);
			break;
		}
		fallthrough;
	case 1 ... 3:
		torture_fill(d, &up->changes);
		break;
	case 4 ... 6:
		torture_check_cpufreq(d);
		break;
	case 7 ... 8:
		/* Another voltage for a present OPP: refused. */
		if ((t->avail | t->disabled) & BIT(k))
			torture_change(d, OPP_TEST_ADD_CONFLICT, k, &up->changes);
		break;
	default:
		if (torture_is_pinned(d, k) &&
		    (op == OPP_TEST_DISABLE || op == OPP_TEST_REMOVE))
			break;
		torture_change(d, op, k, &up->changes);
		break;
	}
	torture_unlock(t);
}

static int torture_updater_fn(void *arg)
{
	struct torture_updater *up = arg;

	while (!kthread_should_stop()) {
		torture_update_one(up);
		cond_resched();
	}
	return 0;
}

static int torture_make_devs(void)
{
	unsigned int d;

	for (d = 0; d < TORTURE_NDEVS; d++) {
		tt.devs[d] = opp_test_fixture_dev_create(&tt.released, "opp-torture-%u", d);
		if (IS_ERR(tt.devs[d])) {
			int ret = PTR_ERR(tt.devs[d]);

			tt.devs[d] = NULL;
			return ret;
		}
	}
	return 0;
}

/*
 * Device 0's table gets a sharer: the last CPU whose device has no table.
 * None on a kernel without CPU devices (User-Mode Linux).
 */
static int torture_share_stable(void)
{
	struct device *dev;
	int cpu, ret;

	for (cpu = nr_cpu_ids - 1; cpu >= 0; cpu--) {
		dev = get_cpu_device(cpu);
		if (!dev || !cpu_possible(cpu))
			continue;
		ret = opp_set_sharing_cpus(tt.devs[TORTURE_STABLE],
					   cpumask_of(cpu));
		if (ret == -EBUSY)
			continue;
		if (!ret)
			tt.sharer = dev;
		return ret;
	}
	return 0;
}

/*
 * After the run, with nothing running: every table is its shadow, and
 * device 0's sharer still finds its table.
 */
static bool torture_final_check(void)
{
	struct opp_table *mine, *shared;
	unsigned int d;
	bool ok = true;

	for (d = 0; d < TORTURE_NDEVS; d++) {
		torture_lock(&tt.tables[d]);
		ok &= torture_table_matches(d);
		torture_unlock(&tt.tables[d]);
	}
	if (tt.sharer) {
		mine = opp_table_get(tt.devs[TORTURE_STABLE]);
		shared = opp_table_get(tt.sharer);
		ok &= !IS_ERR(mine) && mine == shared;
		opp_table_put(mine);
		opp_table_put(shared);
	}
	return ok;
}

static void torture_stop_all(void)
{
	unsigned int i;

	for (i = 0; i < tt.nupdaters; i++)
		if (tt.updaters[i].task)
			kthread_stop(tt.updaters[i].task);
	for (i = 0; i < tt.nreaders; i++)
		if (tt.readers[i].task)
			kthread_stop(tt.readers[i].task);
	for (i = 0; i < tt.nupdaters; i++)
		if (tt.updaters[i].tnb.registered)
			torture_notifier_op(&tt.updaters[i], 0, 0);
}

static int torture_start(void)
{
	unsigned int i, cpu = 0;
	struct task_struct *t;

	for (i = 0; i < tt.nreaders; i++) {
		struct torture_reader *rd = &tt.readers[i];

		cpu = i ? cpumask_next(cpu, cpu_online_mask) :
			  cpumask_first(cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		rd->cpu = cpu;
		prandom_seed_state(&rd->rnd, seed * 1000 + i);
		prandom_seed_state(&rd->irq_rnd, seed * 1000 + 500 + i);
		hrtimer_init(&rd->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		rd->timer.function = torture_timer_fn;
		t = kthread_create(torture_reader_fn, rd, "opp_torture_r%u", i);
		if (IS_ERR(t))
			return PTR_ERR(t);
		kthread_bind(t, cpu);
		rd->task = t;
	}
	for (i = 0; i < tt.nupdaters; i++) {
		struct torture_updater *up = &tt.updaters[i];

		prandom_seed_state(&up->rnd, seed * 1000 + 900 + i);
		t = kthread_create(torture_updater_fn, up, "opp_torture_u%u", i);
		if (IS_ERR(t))
			return PTR_ERR(t);
		up->task = t;
	}
	for (i = 0; i < tt.nreaders; i++)
		wake_up_process(tt.readers[i].task);
	for (i = 0; i < tt.nupdaters; i++)
		wake_up_process(tt.updaters[i].task);
	return 0;
}

static void torture_init_tables(void)
{
	unsigned int d, i;

	for (d = 0; d < TORTURE_NDEVS; d++)
		mutex_init(&tt.tables[d].lock);
	for (i = 0; i < tt.nslots; i++) {
		tt.updaters[i].tnb.id = i;
		tt.updaters[i].tnb.nb.notifier_call = torture_notify;
	}
}

static int torture_suite_init(struct kunit_suite *suite)
{
	unsigned int d;
	u64 changes = 0;
	ktime_t t0;
	int ret;

	memset(&tt, 0, sizeof(tt));
	atomic_set(&tt.released, 0);
	ret = opp_kunit_apply_params(THIS_MODULE);
	if (ret)
		goto out;
	/* A random seed unless one was given; printed, so a run replays. */
	if (!seed)
		seed = get_random_u32() ?: 1;
	tt.nreaders = readers > 0 ? readers : num_online_cpus();
	tt.nreaders = min(tt.nreaders, TORTURE_MAX_READERS);
	tt.nupdaters = min(updaters, TORTURE_MAX_UPDATERS);
	tt.nslots = tt.nupdaters + TORTURE_WINDOW_SLOTS;
	tt.readers = kcalloc(tt.nreaders, sizeof(*tt.readers), GFP_KERNEL);
	tt.updaters = kcalloc(tt.nslots, sizeof(*tt.updaters), GFP_KERNEL);
	if (!tt.readers || !tt.updaters) {
		ret = -ENOMEM;
		goto out;
	}
	torture_init_tables();
	ret = torture_make_devs();
	if (ret)
		goto out;
	for (d = 0; d < TORTURE_NDEVS; d++) {
		torture_lock(&tt.tables[d]);
		torture_fill(d, &changes);
		torture_unlock(&tt.tables[d]);
	}
	ret = torture_share_stable();
	if (ret)
		goto out;
	tt.handle = opp_table_get(tt.devs[TORTURE_STABLE]);
	if (IS_ERR(tt.handle)) {
		ret = PTR_ERR(tt.handle);
		tt.handle = NULL;
		goto out;
	}

	pr_info("%u s, %u readers, %u updaters, seed %lu, timer every %u us\n",
		duration, tt.nreaders, tt.nupdaters, seed, irq_period_us);
	t0 = ktime_get();
	ret = torture_start();
	if (!ret)
		msleep_interruptible(duration * 1000);
	torture_stop_all();
	tt.elapsed_ms = ktime_ms_delta(ktime_get(), t0);
	tt.final_ok = torture_final_check();
out:
	tt.setup_err = ret;
	/* The cases judge the run; an error here would hide its figures. */
	return 0;
}

static void torture_suite_exit(struct kunit_suite *suite)
{
	unsigned int d;

	if (tt.handle)
		opp_table_put(tt.handle);
	if (tt.sharer)
		opp_remove_table(tt.sharer);
	for (d = 0; d < TORTURE_NDEVS; d++) {
		if (!tt.devs[d])
			continue;
		opp_remove_table(tt.devs[d]);
		put_device(tt.devs[d]);
	}
	kfree(tt.readers);
	kfree(tt.updaters);
}

static u64 torture_per_s(u64 ops)
{
	return div64_u64(ops * 1000, max_t(u64, tt.elapsed_ms, 1));
}

static void opp_torture_setup(struct kunit *test)
{
	kunit_info(test, "torture: seed %lu", seed);
	KUNIT_EXPECT_EQ(test, tt.setup_err, 0);
	KUNIT_EXPECT_GE(test, tt.elapsed_ms, (u64)duration * 1000);
	kunit_info(test, "torture: %u s, %u readers, %u updaters",
		   duration, tt.nreaders, tt.nupdaters);
}

/*
 * Every reader thread, on its own CPU, judged at least TORTURE_MIN_READS
 * lookups against the model; those whose window outlived the history are
 * counted apart.
 */
static void opp_torture_readers(struct kunit *test)
{
	u64 total = 0, unknown = 0;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	for (i = 0; i < tt.nreaders; i++) {
		struct torture_reader *rd = &tt.readers[i];

		kunit_info(test, "torture: reader %u cpu %u ops %llu ops/s %llu unjudged %llu",
			   i, rd->cpu, rd->ops, torture_per_s(rd->ops),
			   rd->unknown);
		KUNIT_EXPECT_GE(test, rd->ops, (u64)TORTURE_MIN_READS);
		total += rd->ops;
		unknown += rd->unknown;
	}
	kunit_info(test, "torture: readers total ops %llu ops/s %llu unjudged %llu",
		   total, torture_per_s(total), unknown);
	if (tt.sharer) {
		kunit_info(test, "torture: sharer %s of device 0: %ld lookups judged",
			   dev_name(tt.sharer), atomic_long_read(&tt.sharer_reads));
		KUNIT_EXPECT_GE(test, atomic_long_read(&tt.sharer_reads),
				(long)TORTURE_MIN_READS);
	} else {
		kunit_info(test, "torture: no CPU device: device 0 has no sharer");
	}
	kunit_info(test, "torture: inline searches through device 0's handle: %ld judged",
		   atomic_long_read(&tt.inline_reads));
	KUNIT_EXPECT_GE(test, atomic_long_read(&tt.inline_reads),
			(long)TORTURE_MIN_READS);
	kunit_info(test, "torture: lookups by level or bandwidth: %ld judged",
		   atomic_long_read(&tt.key_reads));
	KUNIT_EXPECT_GE(test, atomic_long_read(&tt.key_reads),
			(long)TORTURE_MIN_READS);
}

/*
 * Every CPU's timer judged at least TORTURE_MIN_IRQ_READS lookups in hard
 * interrupt context.
 */
static void opp_torture_hardirq(struct kunit *test)
{
	u64 total = 0, unknown = 0;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	for (i = 0; i < tt.nreaders; i++) {
		KUNIT_EXPECT_GE(test, tt.readers[i].irq_ops,
				(u64)TORTURE_MIN_IRQ_READS);
		total += tt.readers[i].irq_ops;
		unknown += tt.readers[i].irq_unknown;
	}
	kunit_info(test, "torture: hardirq ops %llu ops/s %llu unjudged %llu on %u timers",
		   total, torture_per_s(total), unknown, tt.nreaders);
}

/* Every updater changed the tables, and the notifiers heard of it. */
static void opp_torture_updaters(struct kunit *test)
{
	u64 ops = 0, changes = 0;
	long calls = 0;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	for (i = 0; i < tt.nupdaters; i++) {
		KUNIT_EXPECT_GT(test, tt.updaters[i].changes, 0ULL);
		ops += tt.updaters[i].ops;
		changes += tt.updaters[i].changes;
		calls += atomic_long_read(&tt.updaters[i].tnb.calls);
	}
	kunit_info(test, "torture: updaters ops %llu ops/s %llu changes %llu notifications %ld",
		   ops, torture_per_s(ops), changes, calls);
	KUNIT_EXPECT_GT(test, calls, 0L);
}

#define TORTURE_WINDOW_DEV	1
#define TORTURE_WINDOW_OTHER	2

/* opp_torture_window()'s other updater: changes one table, again and again. */
static int torture_window_fn(void *arg)
{
	struct torture_table *t = &tt.tables[TORTURE_WINDOW_DEV];
	struct torture_updater *up = arg;
	unsigned int k = 0;

	while (!kthread_should_stop()) {
		torture_lock(t);
		torture_change(TORTURE_WINDOW_DEV, OPP_TEST_ADD, k, &up->changes);
		torture_change(TORTURE_WINDOW_DEV, OPP_TEST_DISABLE, k, &up->changes);
		torture_change(TORTURE_WINDOW_DEV, OPP_TEST_ENABLE, k, &up->changes);
		torture_unlock(t);
		up->ops++;
		k = (k + 1) % TORTURE_NPOINTS;
		usleep_range(200, 400);
	}
	return 0;
}

/*
 * A notifier that was on one table is registered on another while a
 * second updater keeps changing that one, and the registering updater
 * sleeps right after opp_register_notifier() (race_window_ms, or
 * TORTURE_WINDOW_MS). Were the callback's table index set only after the
 * registration returned, the callback could run in that window with the
 * previous table's index: every event must be one the new table's shadow
 * expects.
 */
static void opp_torture_window(struct kunit *test)
{
	struct torture_updater *reg = &tt.updaters[tt.nupdaters];
	struct torture_updater *chg = reg + 1;
	unsigned int window = race_window_ms ?: TORTURE_WINDOW_MS, i;
	long before = torture_total_violations();
	struct task_struct *task;
	u64 changes = 0;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	for (i = TORTURE_WINDOW_DEV; i <= TORTURE_WINDOW_OTHER; i++) {
		torture_lock(&tt.tables[i]);
		torture_fill(i, &changes);
		torture_unlock(&tt.tables[i]);
	}
	task = kthread_run(torture_window_fn, chg, "opp_torture_w");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	for (i = 0; i < 4; i++) {
		torture_notifier_op(reg, TORTURE_WINDOW_OTHER, 0);
		torture_notifier_op(reg, TORTURE_WINDOW_OTHER, 0);
		torture_notifier_op(reg, TORTURE_WINDOW_DEV, window);
		msleep(window);
		torture_notifier_op(reg, TORTURE_WINDOW_DEV, 0);
	}
	kthread_stop(task);
	kunit_info(test, "torture: window %u ms, notifications %ld, changes %llu",
		   window, atomic_long_read(&reg->tnb.calls), chg->changes);
	KUNIT_EXPECT_EQ(test, torture_total_violations(), before);
	KUNIT_EXPECT_GT(test, atomic_long_read(&reg->tnb.calls), 0L);
	KUNIT_EXPECT_FALSE(test, reg->tnb.registered);
}

static void opp_torture_violations(struct kunit *test)
{
	char buf[160];
	int v, len = 0;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	for (v = 0; v < V_NR; v++)
		if (atomic_long_read(&tt.violations[v]))
			len += scnprintf(buf + len, sizeof(buf) - len, " %s=%ld",
					 violation_name[v],
					 atomic_long_read(&tt.violations[v]));
	kunit_info(test, "torture: violations %ld%s",
		   torture_total_violations(), len ? buf : "");
	KUNIT_EXPECT_EQ(test, torture_total_violations(), 0L);
	KUNIT_EXPECT_TRUE_MSG(test, tt.final_ok,
			      "a table was not its shadow after the run");
}

/* Removing the tables drops the library's last reference on each device. */
static void opp_torture_release(struct kunit *test)
{
	unsigned int d;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	opp_table_put(tt.handle);
	tt.handle = NULL;
	for (d = 0; d < TORTURE_NDEVS; d++) {
		opp_remove_table(tt.devs[d]);
		put_device(tt.devs[d]);
		tt.devs[d] = NULL;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&tt.released), TORTURE_NDEVS);
}

static struct kunit_case torture_cases[] = {
	KUNIT_CASE(opp_torture_setup),
	KUNIT_CASE(opp_torture_readers),
	KUNIT_CASE(opp_torture_hardirq),
	KUNIT_CASE(opp_torture_updaters),
	KUNIT_CASE(opp_torture_window),
	KUNIT_CASE(opp_torture_violations),
	KUNIT_CASE(opp_torture_release),
	{}
};

static struct kunit_suite torture_suite = {
	.name = "opp_torture",
	.suite_init = torture_suite_init,
	.suite_exit = torture_suite_exit,
	.test_cases = torture_cases,
};

kunit_test_suite(torture_suite);

MODULE_DESCRIPTION("Concurrency torture of the OPP library");
MODULE_LICENSE("GPL");
