// SPDX-License-Identifier: GPL-2.0-only
/*
 * Concurrency torture of the OPP library, in the manner of rcutorture:
 * readers on every CPU and in hard interrupts search the tables while
 * updaters add, enable, disable and remove OPPs and whole tables, and every
 * result is checked against invariants that a torn, stale-beyond-RCU or
 * freed OPP would break. KASAN catches the reads of freed memory that the
 * invariants cannot see.
 *
 * The tables are built so that a value can be checked on its own: every
 * rate belongs to exactly one device's universe (torture_rate()) and the
 * voltage is a function of the rate (torture_volt()), so a voltage read from
 * the wrong OPP or from recycled memory shows. Device 0 is "stable": three
 * of its OPPs are pinned (never disabled or removed) and its table is never
 * removed, which turns ceil/floor/count/exact on it into exact predictions.
 * The other devices churn, whole tables included.
 *
 * Lookups: the searches under rcu_read_lock(), the count, the documented
 * ceil walk and the copy-out lookups (opp_lookup_*), from threads and from
 * each CPU's hrtimer in hard interrupt context. Updates: add, enable,
 * disable, remove, whole-table removal and refill, conflicting adds,
 * cpufreq tables, and notifiers registered and unregistered at random,
 * whose callbacks check every payload against the table.
 *
 * The torture runs in the suite's init for @duration seconds (KUnit gives a
 * single case at most 300 s; a suite init has no such limit), and the cases
 * then judge and report what it measured: each reader's progress and
 * rate, the interrupt-context lookups, the updaters and the violations, as
 * "torture:" lines the harness summary picks up. Parameters:
 *
 *   duration=SEC  readers=N (default: one per online CPU)  updaters=N
 *   seed=N  irq_period_us=N
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/test.h>
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
#include <linux/notifier.h>
#include <linux/prandom.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_kunit_params.h"

static unsigned int duration = 20;
module_param(duration, uint, 0444);
MODULE_PARM_DESC(duration, "seconds of torture (default 20)");

static int readers = -1;
module_param(readers, int, 0444);
MODULE_PARM_DESC(readers, "reader threads (default: one per online CPU)");

static unsigned int updaters = 2;
module_param(updaters, uint, 0444);
MODULE_PARM_DESC(updaters, "updater threads (default 2)");

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the pseudo-random choices (default 1)");

static unsigned int irq_period_us = 1000;
module_param(irq_period_us, uint, 0444);
MODULE_PARM_DESC(irq_period_us, "period of each CPU's lookup timer (default 1000)");

#define MHZ		1000000UL
#define TORTURE_NDEVS	4
#define TORTURE_NPOINTS	16
#define TORTURE_STABLE	0	/* the device whose table is never removed */
#define TORTURE_MAX_READERS 64
/* How long a reader holds an OPP it found, busy-waiting under RCU. */
#define TORTURE_STRETCH_US 20
#define TORTURE_MAX_UPDATERS 16

/* Device 0's pinned OPPs: always present and available. */
static const unsigned int pinned[] = { 0, 7, TORTURE_NPOINTS - 1 };

/* Uneven steps, so that bisection meets odd gaps; unique across devices. */
static unsigned long torture_rate(unsigned int d, unsigned int k)
{
	return (d + 1) * 200 * MHZ + k * 10 * MHZ + k * k * 1000;
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
	V_COUNT,	/* a count out of range */
	V_PINNED,	/* a pinned OPP missed */
	V_UNTOUCHED,	/* *freq changed by a failed search */
	V_UPDATER,	/* an updater got a result the contract forbids */
	V_CPUFREQ,	/* a malformed cpufreq table */
	V_NOTIFY,	/* a notification with a wrong payload */
	V_NR,
};

static const char * const violation_name[V_NR] = {
	[V_BOUND] = "bound", [V_FOREIGN] = "foreign", [V_VOLT] = "volt",
	[V_ACCESSOR] = "accessor", [V_ERRNO] = "errno", [V_ORDER] = "order",
	[V_COUNT] = "count", [V_PINNED] = "pinned",
	[V_UNTOUCHED] = "untouched", [V_UPDATER] = "updater",
	[V_CPUFREQ] = "cpufreq", [V_NOTIFY] = "notify",
};

struct torture_dev {
	struct device dev;
	atomic_t *released;
};

struct torture_reader {
	struct task_struct *task;
	struct hrtimer timer;
	struct rnd_state rnd;		/* the thread's */
	struct rnd_state irq_rnd;	/* the timer's */
	unsigned int cpu;
	u64 ops;
	u64 irq_ops;
	bool stopping;
};

/* An updater's notifier, registered on one device at a time. */
struct torture_nb {
	struct notifier_block nb;
	unsigned int d;
	bool registered;
	atomic_long_t calls;
};

struct torture_updater {
	struct task_struct *task;
	struct rnd_state rnd;
	struct torture_nb tnb;
	u64 ops;
	u64 changes;	/* calls that changed a table */
};

static struct {
	struct device *devs[TORTURE_NDEVS];
	atomic_t released;
	struct torture_reader *readers;
	unsigned int nreaders;
	struct torture_updater *updaters;
	unsigned int nupdaters;
	atomic_long_t violations[V_NR];
	u64 elapsed_ms;
	int setup_err;
	bool final_ok;		/* the tables were consistent after the run */
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

/* The lowest pinned rate >= @q, or 0; the highest pinned rate <= @q, or 0. */
static unsigned long pinned_ceil(unsigned long q)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pinned); i++)
		if (torture_rate(TORTURE_STABLE, pinned[i]) >= q)
			return torture_rate(TORTURE_STABLE, pinned[i]);
	return 0;
}

static unsigned long pinned_floor(unsigned long q)
{
	unsigned int i;

	for (i = ARRAY_SIZE(pinned); i > 0; i--)
		if (torture_rate(TORTURE_STABLE, pinned[i - 1]) <= q)
			return torture_rate(TORTURE_STABLE, pinned[i - 1]);
	return 0;
}

/*
 * A found OPP, still under the caller's rcu_read_lock(): its rate is the
 * one the search reported and in the device's universe, and the accessors
 * read either 0 (disabled meanwhile) or that rate and its voltage.
 */
static void torture_check_opp(unsigned int d, struct opp *opp,
			      unsigned long rate, unsigned long asked,
			      bool stretch)
{
	unsigned long f, v;

	if (torture_index(d, rate) < 0)
		torture_violation(V_FOREIGN, d, asked, rate, 0);
	/*
	 * Give an updater time to replace and (wrongly) free the array; in an
	 * RCU read-side section, so a busy wait.
	 */
	if (stretch)
		udelay(TORTURE_STRETCH_US);
	f = opp_get_freq(opp);
	v = opp_get_voltage(opp);
	if (f && f != rate)
		torture_violation(V_ACCESSOR, d, rate, f, 0);
	if (v && v != torture_volt(rate))
		torture_violation(V_VOLT, d, rate, v, torture_volt(rate));
}

static void torture_check_err(unsigned int d, struct opp *opp,
			      unsigned long asked)
{
	long err = PTR_ERR(opp);

	if (err != -ERANGE && (err != -ENODEV || d == TORTURE_STABLE))
		torture_violation(V_ERRNO, d, asked, 0, err);
}

/* A query near device @d's rates, now and then an extreme one. */
static unsigned long torture_query(struct rnd_state *rnd, unsigned int d)
{
	u32 r = prandom_u32_state(rnd);
	unsigned int k = (r >> 8) % (TORTURE_NPOINTS + 1);
	long delta = (long)((r >> 16) % (12 * MHZ / 1000)) * 1000 - 6 * MHZ;

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
		return torture_rate(d, 0) + k * 10 * MHZ + delta;
	}
}

static void torture_ceil(struct rnd_state *rnd, unsigned int d, bool stretch)
{
	struct device *dev = tt.devs[d];
	unsigned long q = torture_query(rnd, d), f = q, want;
	struct opp *opp;

	rcu_read_lock();
	opp = opp_find_freq_ceil(dev, &f);
	if (IS_ERR(opp)) {
		torture_check_err(d, opp, q);
		if (f != q)
			torture_violation(V_UNTOUCHED, d, q, f, PTR_ERR(opp));
		if (d == TORTURE_STABLE && pinned_ceil(q))
			torture_violation(V_PINNED, d, q, 0, PTR_ERR(opp));
	} else {
		if (f < q)
			torture_violation(V_BOUND, d, q, f, 1);
		want = pinned_ceil(q);
		if (d == TORTURE_STABLE && want && f > want)
			torture_violation(V_PINNED, d, q, f, want);
		torture_check_opp(d, opp, f, q, stretch);
	}
	rcu_read_unlock();
}

static void torture_floor(struct rnd_state *rnd, unsigned int d, bool stretch)
{
	struct device *dev = tt.devs[d];
	unsigned long q = torture_query(rnd, d), f = q, want;
	struct opp *opp;

	rcu_read_lock();
	opp = opp_find_freq_floor(dev, &f);
	if (IS_ERR(opp)) {
		torture_check_err(d, opp, q);
		if (f != q)
			torture_violation(V_UNTOUCHED, d, q, f, PTR_ERR(opp));
		if (d == TORTURE_STABLE && pinned_floor(q))
			torture_violation(V_PINNED, d, q, 0, PTR_ERR(opp));
	} else {
		if (f > q)
			torture_violation(V_BOUND, d, q, f, -1);
		want = pinned_floor(q);
		if (d == TORTURE_STABLE && f < want)
			torture_violation(V_PINNED, d, q, f, want);
		torture_check_opp(d, opp, f, q, stretch);
	}
	rcu_read_unlock();
}

static void torture_exact(struct rnd_state *rnd, unsigned int d, bool stretch)
{
	u32 r = prandom_u32_state(rnd);
	unsigned int k = r % TORTURE_NPOINTS;
	unsigned long q = torture_rate(d, k);
	bool avail = r & 0x100;
	struct opp *opp;
	unsigned long f;

	rcu_read_lock();
	opp = opp_find_freq_exact(tt.devs[d], q, avail);
	if (IS_ERR(opp)) {
		torture_check_err(d, opp, q);
		if (torture_is_pinned(d, k) && avail)
			torture_violation(V_PINNED, d, q, 0, PTR_ERR(opp));
	} else if (torture_is_pinned(d, k) && !avail) {
		torture_violation(V_PINNED, d, q, 0, 1);
	} else {
		/* A disabled OPP reads as 0 until it is enabled again. */
		torture_check_opp(d, opp, q, q, stretch);
		f = opp_get_freq(opp);
		if (avail && torture_is_pinned(d, k) && f != q)
			torture_violation(V_PINNED, d, q, f, 2);
	}
	rcu_read_unlock();
}

/*
 * The copy-out lookups: the same bounds and pinned-OPP predictions as the
 * searches, a voltage that is the rate's, and @info untouched on error.
 */
static void torture_lookup(struct rnd_state *rnd, unsigned int d, int kind)
{
	unsigned long q = torture_query(rnd, d), want;
	struct opp_info info = { .rate = 1, .u_volt = 2 };
	struct device *dev = tt.devs[d];
	int k, ret;

	if (kind == 0)
		ret = opp_lookup_ceil(dev, q, &info);
	else if (kind == 1)
		ret = opp_lookup_floor(dev, q, &info);
	else
		ret = opp_lookup_exact(dev, q, true, &info);
	if (ret) {
		if (ret != -ERANGE && (ret != -ENODEV || d == TORTURE_STABLE))
			torture_violation(V_ERRNO, d, q, 0, ret);
		if (info.rate != 1 || info.u_volt != 2)
			torture_violation(V_UNTOUCHED, d, q, info.rate, ret);
		if (d != TORTURE_STABLE)
			return;
		k = torture_index(d, q);
		if ((kind == 0 && pinned_ceil(q)) ||
		    (kind == 1 && pinned_floor(q)) ||
		    (kind == 2 && k >= 0 && torture_is_pinned(d, k)))
			torture_violation(V_PINNED, d, q, 0, ret);
		return;
	}
	if (torture_index(d, info.rate) < 0)
		torture_violation(V_FOREIGN, d, q, info.rate, kind);
	if (info.u_volt != torture_volt(info.rate))
		torture_violation(V_VOLT, d, info.rate, info.u_volt, kind);
	if ((kind == 0 && info.rate < q) || (kind == 1 && info.rate > q) ||
	    (kind == 2 && info.rate != q))
		torture_violation(V_BOUND, d, q, info.rate, kind);
	if (d != TORTURE_STABLE)
		return;
	want = kind == 0 ? pinned_ceil(q) : pinned_floor(q);
	if ((kind == 0 && want && info.rate > want) ||
	    (kind == 1 && info.rate < want))
		torture_violation(V_PINNED, d, q, info.rate, want);
}

/* The documented walk: strictly increasing, pinned OPPs all met. */
static void torture_walk(unsigned int d)
{
	unsigned long f = 0, prev = 0;
	unsigned int n = 0, npinned = 0;
	struct opp *opp;
	int k;

	rcu_read_lock();
	while (!IS_ERR(opp = opp_find_freq_ceil(tt.devs[d], &f))) {
		if (n && f <= prev)
			torture_violation(V_ORDER, d, prev, f, n);
		k = torture_index(d, f);
		if (k >= 0 && torture_is_pinned(d, k))
			npinned++;
		torture_check_opp(d, opp, f, prev, false);
		if (++n > TORTURE_NPOINTS || f == ULONG_MAX) {
			torture_violation(V_COUNT, d, 0, n, 0);
			break;
		}
		prev = f++;
	}
	if (IS_ERR(opp))
		torture_check_err(d, opp, f);
	rcu_read_unlock();
	if (d == TORTURE_STABLE && npinned != ARRAY_SIZE(pinned))
		torture_violation(V_PINNED, d, 0, npinned, 3);
}

static void torture_count(unsigned int d)
{
	int count;

	rcu_read_lock();
	count = opp_get_opp_count(tt.devs[d]);
	rcu_read_unlock();
	if (count == -ENODEV && d != TORTURE_STABLE)
		return;
	if (count < (d == TORTURE_STABLE ? (int)ARRAY_SIZE(pinned) : 0) ||
	    count > TORTURE_NPOINTS)
		torture_violation(V_COUNT, d, 0, count, count);
}

/* One lookup of any kind on any device; @stretch widens the window. */
static void torture_read_one(struct rnd_state *rnd, bool in_irq, bool stretch)
{
	u32 r = prandom_u32_state(rnd);
	unsigned int d = r % TORTURE_NDEVS;

	switch ((r >> 4) % (in_irq ? 7 : 8)) {
	case 0:
		torture_ceil(rnd, d, stretch);
		break;
	case 1:
		torture_floor(rnd, d, stretch);
		break;
	case 2:
		torture_exact(rnd, d, stretch);
		break;
	case 3:
		torture_count(d);
		break;
	case 4:
	case 5:
	case 6:
		torture_lookup(rnd, d, ((r >> 4) % 8) - 4);
		break;
	default:
		torture_walk(d);
		break;
	}
}

static enum hrtimer_restart torture_timer_fn(struct hrtimer *timer)
{
	struct torture_reader *rd = container_of(timer, struct torture_reader,
						 timer);
	unsigned int i;

	for (i = 0; i < 4; i++)
		torture_read_one(&rd->irq_rnd, true, false);
	rd->irq_ops += i;
	if (READ_ONCE(rd->stopping))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(irq_period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int torture_reader_fn(void *arg)
{
	struct torture_reader *rd = arg;

	/* As rcutorture's readers: the updaters get a CPU when they want one. */
	set_user_nice(current, MAX_NICE);
	hrtimer_start(&rd->timer, ns_to_ktime(irq_period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!kthread_should_stop()) {
		torture_read_one(&rd->rnd, false, (rd->ops & 255) == 0);
		rd->ops++;
		if ((rd->ops & 63) == 0)
			cond_resched();
	}
	WRITE_ONCE(rd->stopping, true);
	hrtimer_cancel(&rd->timer);
	return 0;
}

/*
 * Called under the library's update mutex right after the change: the
 * payload must be an OPP of this device with its own voltage, and a lookup
 * must already see the change (and nothing else may have moved it since).
 */
static int torture_notify(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	struct torture_nb *tnb = container_of(nb, struct torture_nb, nb);
	struct device *dev = tt.devs[tnb->d];
	struct opp_info *info = data, seen;
	int ret;

	atomic_long_inc(&tnb->calls);
	if (!info) {
		torture_violation(V_NOTIFY, tnb->d, event, 0, -EINVAL);
		return NOTIFY_DONE;
	}
	if (torture_index(tnb->d, info->rate) < 0 ||
	    info->u_volt != torture_volt(info->rate)) {
		torture_violation(V_NOTIFY, tnb->d, info->rate, info->u_volt,
				  event);
		return NOTIFY_DONE;
	}
	switch (event) {
	case OPP_EVENT_ADD:
	case OPP_EVENT_ENABLE:
		ret = opp_lookup_exact(dev, info->rate, true, &seen);
		if (ret || !info->available || seen.u_volt != info->u_volt)
			torture_violation(V_NOTIFY, tnb->d, info->rate, event,
					  ret);
		break;
	case OPP_EVENT_DISABLE:
		ret = opp_lookup_exact(dev, info->rate, false, &seen);
		if (ret || info->available)
			torture_violation(V_NOTIFY, tnb->d, info->rate, event,
					  ret);
		break;
	case OPP_EVENT_REMOVE:
		ret = opp_lookup_exact(dev, info->rate, true, &seen);
		if (!ret || !opp_lookup_exact(dev, info->rate, false, &seen))
			torture_violation(V_NOTIFY, tnb->d, info->rate, event,
					  ret);
		break;
	default:
		torture_violation(V_NOTIFY, tnb->d, info->rate, event, 0);
	}
	return NOTIFY_OK;
}

/*
 * Register on a random device, or unregister. A removed table ends its
 * registrations: unregistering then says -ENODEV, or -ENOENT once the
 * device has a new table.
 */
static void torture_notifier_op(struct torture_updater *up, unsigned int d)
{
	struct torture_nb *tnb = &up->tnb;
	int ret;

	if (!tnb->registered) {
		ret = opp_register_notifier(tt.devs[d], &tnb->nb);
		tnb->d = d;
		tnb->registered = !ret;
		if (ret && (ret != -ENODEV || d == TORTURE_STABLE))
			torture_violation(V_UPDATER, d, 0, 0, ret);
		return;
	}
	ret = opp_unregister_notifier(tt.devs[tnb->d], &tnb->nb);
	tnb->registered = false;
	if (ret && (tnb->d == TORTURE_STABLE ||
		    (ret != -ENODEV && ret != -ENOENT)))
		torture_violation(V_UPDATER, tnb->d, 0, 0, ret);
}

static void torture_expect(int ret, int ok1, int ok2, unsigned int d,
			   unsigned long rate, u64 *changes)
{
	if (ret == 0)
		(*changes)++;
	if (ret != ok1 && ret != ok2)
		torture_violation(V_UPDATER, d, rate, 0, ret);
}

static void torture_check_cpufreq(unsigned int d)
{
	struct cpufreq_frequency_table *ft = NULL;
	unsigned int i;
	int ret;

	ret = opp_init_cpufreq_table(tt.devs[d], &ft);
	if (ret) {
		if (ret != -ENODATA && (ret != -ENODEV || d == TORTURE_STABLE))
			torture_violation(V_CPUFREQ, d, 0, 0, ret);
		return;
	}
	for (i = 0; ft[i].frequency != CPUFREQ_TABLE_END; i++) {
		if (i >= TORTURE_NPOINTS ||
		    torture_index(d, ft[i].frequency * 1000UL) < 0 ||
		    ft[i].driver_data != i ||
		    (i && ft[i].frequency <= ft[i - 1].frequency)) {
			torture_violation(V_CPUFREQ, d, i, ft[i].frequency, 1);
			break;
		}
	}
	opp_free_cpufreq_table(tt.devs[d], &ft);
}

static void torture_fill(unsigned int d, u64 *changes)
{
	unsigned int k;
	unsigned long rate;

	for (k = 0; k < TORTURE_NPOINTS; k++) {
		rate = torture_rate(d, k);
		torture_expect(opp_add(tt.devs[d], rate, torture_volt(rate)),
			       0, -EEXIST, d, rate, changes);
	}
}

static void torture_update_one(struct torture_updater *up)
{
	u32 r = prandom_u32_state(&up->rnd);
	unsigned int d = r % TORTURE_NDEVS;
	unsigned int k = (r >> 8) % TORTURE_NPOINTS;
	unsigned long rate = torture_rate(d, k);
	struct device *dev = tt.devs[d];

	switch ((r >> 16) % 64) {
	case 0:
		if (d != TORTURE_STABLE) {
			torture_expect(opp_remove_table(dev), 0, -ENODEV, d, 0,
				       &up->changes);
			break;
		}
		fallthrough;
	case 1 ... 3:
		torture_fill(d, &up->changes);
		break;
	case 4 ... 6:
		torture_check_cpufreq(d);
		break;
	case 9 ... 10:
		/* Registering scans every chain under the mutex: not too often. */
		torture_notifier_op(up, d);
		break;
	case 7 ... 8:
		/* A conflicting voltage for a present OPP: refused. */
		rate = torture_rate(TORTURE_STABLE, pinned[k % ARRAY_SIZE(pinned)]);
		torture_expect(opp_add(tt.devs[TORTURE_STABLE], rate,
				       torture_volt(rate) + 1),
			       -EEXIST, -EEXIST, TORTURE_STABLE, rate,
			       &up->changes);
		break;
	default:
		if (torture_is_pinned(d, k))
			break;
		switch (r % 4) {
		case 0:
			torture_expect(opp_add(dev, rate, torture_volt(rate)),
				       0, -EEXIST, d, rate, &up->changes);
			break;
		case 1:
			torture_expect(opp_enable(dev, rate), 0, -ENODEV, d,
				       rate, &up->changes);
			break;
		case 2:
			torture_expect(opp_disable(dev, rate), 0, -ENODEV, d,
				       rate, &up->changes);
			break;
		default:
			torture_expect(opp_remove(dev, rate), 0, -ENODEV, d,
				       rate, &up->changes);
			break;
		}
	}
	up->ops++;
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

static void torture_dev_release(struct device *dev)
{
	struct torture_dev *td = container_of(dev, struct torture_dev, dev);

	atomic_inc(td->released);
	kfree(td);
}

static int torture_make_devs(void)
{
	struct torture_dev *td;
	unsigned int d;
	int ret;

	for (d = 0; d < TORTURE_NDEVS; d++) {
		td = kzalloc(sizeof(*td), GFP_KERNEL);
		if (!td)
			return -ENOMEM;
		device_initialize(&td->dev);
		td->dev.release = torture_dev_release;
		td->released = &tt.released;
		tt.devs[d] = &td->dev;
		ret = dev_set_name(&td->dev, "opp-torture-%u", d);
		if (ret)
			return ret;
	}
	return 0;
}

/* After the run, with nothing running: every OPP present is well formed. */
static bool torture_final_check(void)
{
	unsigned int d, k;
	unsigned long rate;
	struct opp *opp;
	bool ok = true;

	rcu_read_lock();
	for (d = 0; d < TORTURE_NDEVS; d++) {
		for (k = 0; k < TORTURE_NPOINTS; k++) {
			rate = torture_rate(d, k);
			opp = opp_find_freq_exact(tt.devs[d], rate, true);
			if (IS_ERR(opp)) {
				if (torture_is_pinned(d, k))
					ok = false;
				continue;
			}
			if (opp_get_voltage(opp) != torture_volt(rate))
				ok = false;
		}
	}
	rcu_read_unlock();
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
			torture_notifier_op(&tt.updaters[i], 0);
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
		up->tnb.nb.notifier_call = torture_notify;
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
	tt.nreaders = readers > 0 ? readers : num_online_cpus();
	tt.nreaders = min(tt.nreaders, TORTURE_MAX_READERS);
	tt.nupdaters = min(updaters, TORTURE_MAX_UPDATERS);
	tt.readers = kcalloc(tt.nreaders, sizeof(*tt.readers), GFP_KERNEL);
	tt.updaters = kcalloc(max(tt.nupdaters, 1U), sizeof(*tt.updaters),
			      GFP_KERNEL);
	if (!tt.readers || !tt.updaters) {
		ret = -ENOMEM;
		goto out;
	}
	ret = torture_make_devs();
	if (ret)
		goto out;
	for (d = 0; d < TORTURE_NDEVS; d++)
		torture_fill(d, &changes);

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

static void torture_setup(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tt.setup_err, 0);
	KUNIT_EXPECT_GE(test, tt.elapsed_ms, (u64)duration * 1000);
	kunit_info(test, "torture: %u s, %u readers, %u updaters, seed %lu",
		   duration, tt.nreaders, tt.nupdaters, seed);
}

/* Every reader thread made progress, on its own CPU. */
static void torture_readers(struct kunit *test)
{
	u64 total = 0;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	for (i = 0; i < tt.nreaders; i++) {
		struct torture_reader *rd = &tt.readers[i];

		kunit_info(test, "torture: reader %u cpu %u ops %llu ops/s %llu",
			   i, rd->cpu, rd->ops, torture_per_s(rd->ops));
		KUNIT_EXPECT_GT(test, rd->ops, 0ULL);
		total += rd->ops;
	}
	kunit_info(test, "torture: readers total ops %llu ops/s %llu", total,
		   torture_per_s(total));
}

/* Every CPU's timer ran lookups in hard interrupt context. */
static void torture_hardirq(struct kunit *test)
{
	u64 total = 0;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	for (i = 0; i < tt.nreaders; i++) {
		KUNIT_EXPECT_GT(test, tt.readers[i].irq_ops, 0ULL);
		total += tt.readers[i].irq_ops;
	}
	kunit_info(test, "torture: hardirq ops %llu ops/s %llu on %u timers",
		   total, torture_per_s(total), tt.nreaders);
}

static void torture_updaters(struct kunit *test)
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

static void torture_violations(struct kunit *test)
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
			      "a table was inconsistent after the run");
}

/* Removing the tables drops the library's last reference on each device. */
static void torture_release(struct kunit *test)
{
	unsigned int d;

	KUNIT_ASSERT_EQ(test, tt.setup_err, 0);
	for (d = 0; d < TORTURE_NDEVS; d++) {
		opp_remove_table(tt.devs[d]);
		put_device(tt.devs[d]);
		tt.devs[d] = NULL;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&tt.released), TORTURE_NDEVS);
}

static struct kunit_case torture_cases[] = {
	KUNIT_CASE(torture_setup),
	KUNIT_CASE(torture_readers),
	KUNIT_CASE(torture_hardirq),
	KUNIT_CASE(torture_updaters),
	KUNIT_CASE(torture_violations),
	KUNIT_CASE(torture_release),
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
