// SPDX-License-Identifier: GPL-2.0-only
/*
 * opp_bench: this OPP library against the kernel's own OPP core
 * (dev_pm_opp_*, drivers/opp), in one boot, on identical tables.
 *
 * Loading the module runs every measurement, then leaves the figures in
 * /sys/kernel/debug/opp_bench/results as CSV lines:
 *
 *   opp-bench,GROUP,OP,PARAM,OURS,MAINLINE,RATIO,UNIT
 *
 * RATIO is OURS / MAINLINE. A cost (ns, bytes) is better below 1, a rate
 * (lookups/s) above 1. Each timing is the median of @runs runs, each run
 * a loop long enough (@min_run_us) to dwarf the clock's resolution.
 * Lines "opp-bench-info,KEY,VALUE" describe the run and
 * "opp-bench-check,NAME,ok|failed,DETAIL" report that both libraries
 * returned the same OPPs for every query that was timed.
 *
 * Both libraries get the same tables on the same struct device: they do
 * not know of each other. Mainline's found OPPs are put back with
 * dev_pm_opp_put(), as its callers must; ours are used under
 * rcu_read_lock(), as ours must.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/bitops.h>
#include <linux/clkdev.h>
#include <linux/hash.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmstat.h>
#include <linux/wait.h>

#include "../opp.h"
#include "../selftest/opp_test_helpers.h"
#include "opp_bench.h"

static unsigned int runs = 9;
module_param(runs, uint, 0444);
MODULE_PARM_DESC(runs, "runs per figure; the median is reported (1-31)");

static unsigned int min_run_us = 20000;
module_param(min_run_us, uint, 0444);
MODULE_PARM_DESC(min_run_us, "shortest timed loop of a run, in us");

static unsigned int scale_ms = 300;
module_param(scale_ms, uint, 0444);
MODULE_PARM_DESC(scale_ms, "length of one read-scaling run, in ms");

static unsigned int max_opps = 1024;
module_param(max_opps, uint, 0444);
MODULE_PARM_DESC(max_opps, "largest table measured (8-1024; less for a quick run)");

static unsigned int max_devs = 1024;
module_param(max_devs, uint, 0444);
MODULE_PARM_DESC(max_devs, "most devices registered (4-1024)");

static bool best;
module_param(best, bool, 0444);
MODULE_PARM_DESC(best, "report the fastest run, not the median: on a loaded host, the run that others' work interrupted least");

static unsigned int writer_us = 200;
module_param(writer_us, uint, 0444);
MODULE_PARM_DESC(writer_us, "the scaling writer's sleep between toggles, in us");

#define BENCH_NDEV		1024
#define BENCH_FILLER_OPPS	4
#define BENCH_BASE_HZ		(100 * HZ_PER_MHZ)
#define BENCH_STEP_HZ		HZ_PER_MHZ
#define BENCH_MAX_ROWS		160

static const char * const op_names[NR_OPS] = {
	[OP_CEIL] = "ceil", [OP_FLOOR] = "floor", [OP_EXACT] = "exact",
	[OP_TOGGLE] = "disable+enable", [OP_ADDRM] = "add+remove",
};

static const unsigned int table_sizes[] = { 4, 8, 16, 64, 256, 1024 };

/* The OPPs of every table: the same rates and voltages for both. */
static unsigned long bench_rate(unsigned int i)
{
	return BENCH_BASE_HZ + i * BENCH_STEP_HZ;
}

static unsigned long bench_volt(unsigned int i)
{
	return 800000 + i * 100;
}

/* One query in our library: the rate found, or 0. */
static __always_inline unsigned long ours_find(enum bench_op op,
					       struct device *dev,
					       unsigned long f)
{
	struct opp *opp;

	rcu_read_lock();
	if (op == OP_CEIL)
		opp = opp_find_freq_ceil(dev, &f);
	else if (op == OP_FLOOR)
		opp = opp_find_freq_floor(dev, &f);
	else
		opp = opp_find_freq_exact(dev, f, true);
	rcu_read_unlock();
	return IS_ERR(opp) ? 0 : f;
}

static DEFINE_BENCH_LOOKUPS(ours, ours_find)

static const bench_fn lookup_fns[NR_IMPL] = {
	[OURS] = ours_lookups,
	[MAINLINE] = mainline_lookups,
};

/* The floor: a call that does nothing, opaque to the optimiser. */
static noinline unsigned long bench_empty(struct device *dev,
					  unsigned long *freq)
{
	barrier();
	return *freq;
}

static noinline unsigned long empty_rcu_call(const struct bench_ctx *c,
					     unsigned long iters)
{
	struct device *dev = c->dev;
	const unsigned long *q = c->q;
	unsigned long i, sum = 0;

	for (i = 0; i < iters; i++) {
		unsigned long f = q[i & BENCH_QMASK];

		rcu_read_lock();
		sum += bench_empty(dev, &f);
		rcu_read_unlock();
	}
	return sum;
}

static DEFINE_BENCH_UPDATES(ours, opp_disable, opp_enable, opp_add, opp_remove)

static const bench_fn update_fns[NR_IMPL] = {
	[OURS] = ours_updates,
	[MAINLINE] = mainline_updates,
};

/* The results, printed by the debugfs file. */
struct bench_row {
	const char *group;
	const char *op;
	char param[16];
	u64 val[NR_IMPL];	/* tenths of the unit */
	bool has[NR_IMPL];
	const char *unit;
};

static struct bench_row *rows;
static unsigned int nr_rows;
static unsigned int agree_bad, agree_total;
static const char *transition_bad;
static unsigned long bench_sink;
static struct dentry *bench_dir;

static __printf(4, 5)
struct bench_row *bench_row(const char *group, const char *op,
			    const char *unit, const char *fmt, ...)
{
	struct bench_row *r;
	va_list args;

	if (nr_rows == BENCH_MAX_ROWS)
		return NULL;
	r = &rows[nr_rows++];
	r->group = group;
	r->op = op;
	r->unit = unit;
	va_start(args, fmt);
	vsnprintf(r->param, sizeof(r->param), fmt, args);
	va_end(args);
	return r;
}

static void bench_set(struct bench_row *r, enum bench_impl impl, u64 tenths)
{
	if (!r)
		return;
	r->val[impl] = tenths;
	r->has[impl] = true;
}

static u64 bench_run(bench_fn fn, const struct bench_ctx *c,
		     unsigned long iters)
{
	u64 t0 = ktime_get_ns();

	bench_sink += fn(c, iters);
	return ktime_get_ns() - t0;
}

/*
 * Tenths of ns per iteration of @fn: the loop length is doubled until one
 * run takes min_run_us (which also warms the caches), then the median of
 * @runs runs of that length is taken.
 */
static u64 bench_time(bench_fn fn, const struct bench_ctx *c)
{
	u64 t[BENCH_MAX_RUNS];
	u64 min_ns = (u64)min_run_us * NSEC_PER_USEC;
	unsigned long iters = 16;
	unsigned int r;

	while (bench_run(fn, c, iters) < min_ns && iters < (1UL << 28)) {
		iters *= 2;
		cond_resched();
	}
	for (r = 0; r < runs; r++) {
		t[r] = bench_run(fn, c, iters);
		cond_resched();
	}
	return div64_u64((best ? bench_min(t, runs) : bench_median(t, runs)) *
			 10, iters);
}

/* Table setup and teardown, the same OPPs in both libraries. */
static int bench_add(enum bench_impl impl, struct device *dev,
		     unsigned int i)
{
	if (impl == OURS)
		return opp_add(dev, bench_rate(i), bench_volt(i));
	return mainline_add(dev, bench_rate(i), bench_volt(i));
}

static int bench_add_table(enum bench_impl impl, struct device *dev,
			   unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = bench_add(impl, dev, i);
		if (ret) {
			dev_err(dev, "%s add %u: %d\n",
				impl == OURS ? "ours" : "mainline", i, ret);
			return ret;
		}
	}
	return 0;
}

static void bench_remove_table(enum bench_impl impl, struct device *dev)
{
	if (impl == OURS)
		opp_remove_table(dev);
	else
		mainline_remove_table(dev);
}

static void bench_remove_both(struct device *dev)
{
	bench_remove_table(OURS, dev);
	bench_remove_table(MAINLINE, dev);
}

static int bench_add_both(struct device *dev, unsigned int n)
{
	int ret = bench_add_table(OURS, dev, n);

	if (!ret)
		ret = bench_add_table(MAINLINE, dev, n);
	if (ret)
		bench_remove_both(dev);
	return ret;
}

/*
 * Queries spread over an n-OPP table (i * 433 mod n walks the table in
 * strides): ceil asks half a step below an OPP, floor half a step above,
 * exact at it, so that each finds that OPP.
 */
static void bench_queries(unsigned long (*q)[BENCH_Q], unsigned int n)
{
	unsigned int j;

	for (j = 0; j < BENCH_Q; j++) {
		unsigned long r = bench_rate((j * 433) % n);

		q[OP_CEIL][j] = r - BENCH_STEP_HZ / 2;
		q[OP_FLOOR][j] = r + BENCH_STEP_HZ / 2;
		q[OP_EXACT][j] = r;
	}
}

/* One query in one library: the rate found, or 0. */
static unsigned long bench_find(enum bench_impl impl, enum bench_op op,
				struct device *dev, unsigned long f)
{
	if (impl == MAINLINE)
		return mainline_find(op, dev, f);
	return ours_find(op, dev, f);
}

/* Both libraries must answer every query the same, and find an OPP. */
static void bench_agree(struct device *dev, enum bench_op op,
			const unsigned long *q)
{
	unsigned int j;

	for (j = 0; j < BENCH_Q; j++) {
		unsigned long a = bench_find(OURS, op, dev, q[j]);
		unsigned long b = bench_find(MAINLINE, op, dev, q[j]);

		agree_total++;
		if (!a || a != b) {
			if (!agree_bad)
				dev_err(dev, "%s(%lu): ours %lu, mainline %lu\n",
					op_names[op], q[j], a, b);
			agree_bad++;
		}
	}
}

/*
 * Allocator bytes per OPP, the same way for both libraries: the size of
 * the allocation each OPP lives in, each allocation counted once, over
 * the OPPs (bench_alloc_bytes()). OPPs are found by address. Tenths of
 * bytes, or 0 on failure (or under KASAN).
 */
static u64 bench_opp_bytes(enum bench_impl impl, struct device *dev,
			   unsigned int n)
{
	unsigned long *p;
	size_t total;
	unsigned int i;

	/* ksize() of an inner pointer would trip KASAN's unpoisoning. */
	if (IS_ENABLED(CONFIG_KASAN))
		return 0;
	p = kcalloc(n, sizeof(*p), GFP_KERNEL);
	if (!p)
		return 0;
	for (i = 0; i < n; i++) {
		if (impl == OURS) {
			struct opp *opp;

			rcu_read_lock();
			opp = opp_find_freq_exact(dev, bench_rate(i), true);
			p[i] = IS_ERR(opp) ? 0 : (unsigned long)opp;
			rcu_read_unlock();
		} else {
			p[i] = mainline_opp_addr(dev, bench_rate(i));
		}
		if (!p[i]) {
			kfree(p);
			return 0;
		}
	}
	/* The tables do not change meanwhile: the addresses stay valid. */
	total = bench_alloc_bytes(p, n);
	kfree(p);
	return div_u64((u64)total * 10, n);
}

static struct device **devs;

static void bench_put_devs(void)
{
	unsigned int i;

	for (i = 0; i < BENCH_NDEV && devs[i]; i++)
		put_device(devs[i]);
	kfree(devs);
	devs = NULL;
}

/* Bare devices: all that dev_pm_opp_add() and opp_add() need. */
static int bench_get_devs(void)
{
	unsigned int i;

	devs = kcalloc(BENCH_NDEV, sizeof(*devs), GFP_KERNEL);
	if (!devs)
		return -ENOMEM;
	for (i = 0; i < BENCH_NDEV; i++) {
		struct device *dev = opp_test_fixture_dev_create(NULL, "opp-bench.%u", i);

		if (IS_ERR(dev)) {
			bench_put_devs();
			return PTR_ERR(dev);
		}
		devs[i] = dev;
	}
	return 0;
}

static void bench_set_both(struct bench_row *r, u64 ours, u64 mainline)
{
	bench_set(r, OURS, ours);
	bench_set(r, MAINLINE, mainline);
}

/*
 * Update latency on an n-OPP table: disable+enable of the OPP in the
 * middle, add+remove of a new OPP between two; each timed in both
 * libraries once each proved it works.
 */
static void bench_updates(struct device *dev, unsigned int n)
{
	struct bench_ctx c = { .dev = dev, .freq = bench_rate(n / 2) };
	struct bench_row *r;
	int impl;

	for (c.op = OP_TOGGLE; c.op <= OP_ADDRM; c.op++) {
		if (c.op == OP_ADDRM)
			c.freq += BENCH_STEP_HZ / 2;
		r = bench_row("update", op_names[c.op], "ns", "%u", n);
		if (update_fns[OURS](&c, 1) || update_fns[MAINLINE](&c, 1)) {
			dev_err(dev, "%s failed\n", op_names[c.op]);
			continue;
		}
		for (impl = 0; impl < NR_IMPL; impl++)
			bench_set(r, impl, bench_time(update_fns[impl], &c));
	}
}

/*
 * The lookups of one row group on @dev: for each, both libraries must
 * answer alike, then each is timed.
 */
static void bench_lookups(struct device *dev, unsigned long (*q)[BENCH_Q],
			  const char *group, const char *param)
{
	struct bench_ctx c = { .dev = dev };
	struct bench_row *r;
	int impl;

	for (c.op = 0; c.op < NR_LOOKUPS; c.op++) {
		c.q = q[c.op];
		bench_agree(dev, c.op, c.q);
		r = bench_row(group, op_names[c.op], "ns", "%s", param);
		for (impl = 0; impl < NR_IMPL; impl++)
			bench_set(r, impl, bench_time(lookup_fns[impl], &c));
	}
}

/* ns per lookup, 4 to 1024 OPPs; update latency at 8 and 1024. */
static int bench_tables(unsigned long (*q)[BENCH_Q])
{
	struct device *dev = devs[0];
	unsigned int s, n;
	char param[16];
	int ret;

	for (s = 0; s < ARRAY_SIZE(table_sizes); s++) {
		n = table_sizes[s];
		if (n > max_opps)
			break;
		pr_info("lookups in a table of %u OPPs\n", n);
		ret = bench_add_both(dev, n);
		if (ret)
			return ret;
		bench_queries(q, n);
		snprintf(param, sizeof(param), "%u", n);
		bench_lookups(dev, q, "lookup", param);
		bench_set_both(bench_row("memory", "opp-object", "bytes", "%u", n),
			       bench_opp_bytes(OURS, dev, n),
			       bench_opp_bytes(MAINLINE, dev, n));
		if (n == 8 || n == 1024)
			bench_updates(dev, n);
		bench_remove_both(dev);
		cond_resched();
	}
	return 0;
}

static DEFINE_BENCH_SET_RATES(ours, opp_set_rate)

static const bench_fn set_rate_fns[NR_IMPL] = {
	[OURS] = ours_set_rates,
	[MAINLINE] = mainline_set_rates,
};

/* Both providers at @rate and @uv, as the last call of each side asked. */
static bool bench_providers_at(struct provider *p, unsigned long rate,
			       int uv)
{
	int i;

	for (i = 0; i < NR_IMPL; i++)
		if (p[i].rate != rate || p[i].uv != uv)
			return false;
	return true;
}

/*
 * A whole transition, clock and supply, between two OPPs, so that every
 * call moves both: opp_set_rate() against dev_pm_opp_set_rate(), each on
 * a device of its own with a clock and a regulator of its own, registered
 * with the real frameworks by the tests' providers, whose hardware is a
 * few stores under a spinlock. Each side is configured as its drivers do
 * it: ours hands over the clock and the supply, mainline's core gets them
 * by name. Afterwards both must have left their hardware where they were
 * last asked to.
 */
static int bench_transitions(void)
{
	static const unsigned long rate[2] = { 200 * HZ_PER_MHZ,
					       100 * HZ_PER_MHZ };
	static const int uv[2] = { 1000000, 900000 };
	static const char * const names[NR_IMPL] = {
		[OURS] = "opp-bench-ours", [MAINLINE] = "opp-bench-mainline",
	};
	struct bench_ctx c[NR_IMPL] = { };
	struct clk_lookup *lookup;
	struct bench_row *r;
	struct provider *p;
	int impl, i, nr, token, ret;

	p = kcalloc(NR_IMPL, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (nr = 0; nr < NR_IMPL; nr++) {
		c[nr].dev = devs[nr];
		c[nr].priv = (void *)rate;
		ret = opp_test_provider_register(&p[nr], names[nr], devs[nr], rate[1],
						 uv[1]);
		if (ret)
			goto unregister;
	}
	/*
	 * Mainline's core gets the supply itself: a second handle of the
	 * device's would clash with the provider's in the regulator's debugfs.
	 */
	regulator_put(p[MAINLINE].supply);
	p[MAINLINE].supply = NULL;
	lookup = clkdev_hw_create(&p[MAINLINE].hw, NULL, "%s",
				  dev_name(devs[MAINLINE]));
	if (!lookup) {
		ret = -ENOMEM;
		goto unregister;
	}
	ret = opp_set_config(devs[OURS], &(struct opp_config){
		.clk = p[OURS].clk, .supply = p[OURS].supply });
	if (ret)
		goto drop;
	token = mainline_set_config(devs[MAINLINE]);
	if (token < 0) {
		ret = token;
		goto clear_ours;
	}
	for (i = 0; i < 2; i++) {
		ret = opp_add(devs[OURS], rate[i], uv[i]) ?:
		      mainline_add(devs[MAINLINE], rate[i], uv[i]);
		if (ret)
			goto remove;
	}

	r = bench_row("transition", "set_rate", "ns", "%s", "clk+supply");
	for (impl = 0; impl < NR_IMPL; impl++) {
		/* The first call enables the supply: not what is timed. */
		if (set_rate_fns[impl](&c[impl], 2)) {
			transition_bad = "a set_rate call failed";
			ret = -EIO;
			goto remove;
		}
		bench_set(r, impl, bench_time(set_rate_fns[impl], &c[impl]));
	}
	/* One call: at rate[0]; two: there and back, at rate[1]. */
	for (i = 0; i < 2; i++) {
		for (impl = 0; impl < NR_IMPL; impl++)
			if (set_rate_fns[impl](&c[impl], 1 + i))
				transition_bad = "a set_rate call failed";
		if (!bench_providers_at(p, rate[i], uv[i]))
			transition_bad = "a provider is not where it was set";
	}
	ret = 0;
remove:
	opp_remove_table(devs[OURS]);
	mainline_remove_table(devs[MAINLINE]);
	mainline_clear_config(token);
clear_ours:
	opp_clear_config(devs[OURS]);
drop:
	clkdev_drop(lookup);
unregister:
	while (nr-- > 0)
		opp_test_provider_unregister(&p[nr]);
	kfree(p);
	return ret;
}

/* The RCU floor and a grace period, for scale. */
static void bench_floor(unsigned long (*q)[BENCH_Q])
{
	struct bench_ctx c = { .dev = devs[0], .q = q[OP_CEIL] };
	u64 t[BENCH_MAX_RUNS];
	unsigned int r;

	bench_set(bench_row("floor", "rcu+call", "ns", "-"), OURS,
		  bench_time(empty_rcu_call, &c));
	for (r = 0; r < runs; r++) {
		u64 t0 = ktime_get_ns();

		synchronize_rcu();
		t[r] = ktime_get_ns() - t0;
	}
	bench_set(bench_row("update", "synchronize_rcu", "ns", "-"), OURS,
		  bench_median(t, runs) * 10);
}

/*
 * Where a lookup of ours spends its time: the same steps as opp.c, rebuilt
 * here so that each can be timed alone, in the same loop as the floor.
 * The device map with opp.c's rhashtable parameters (jhash2 of the
 * pointer, memcmp of the key) and with a pointer hash and compare; the
 * bisection and availability scan of a ceil search.
 */
struct bench_node {
	struct rhash_head node;
	struct device *dev;
};

struct bench_opp {
	unsigned long rate;
	unsigned long u_volt;
	bool available;
};

/*
 * Sized for all the devices up front: inserted in a burst, they would
 * outrun the deferred growth and get -EBUSY.
 */
static const struct rhashtable_params jhash_params = {
	.nelem_hint = BENCH_NDEV,
	.key_len = sizeof(struct device *),
	.key_offset = offsetof(struct bench_node, dev),
	.head_offset = offsetof(struct bench_node, node),
};

/*
 * A multiplicative hash of the pointer. rhashtable takes the bucket from
 * the low bits, which are the poorest of a product (the low bits of an
 * aligned pointer are zero, and stay zero): rotate the good high ones in.
 */
static u32 bench_ptr_hashfn(const void *data, u32 len, u32 seed)
{
	u32 h = (u32)(unsigned long)*(struct device * const *)data;

	return ror32(h * GOLDEN_RATIO_32, 16) ^ seed;
}

static int bench_ptr_cmpfn(struct rhashtable_compare_arg *arg,
			   const void *obj)
{
	const struct bench_node *n = obj;

	return n->dev != *(struct device * const *)arg->key;
}

static const struct rhashtable_params ptr_params = {
	.nelem_hint = BENCH_NDEV,
	.key_len = sizeof(struct device *),
	.key_offset = offsetof(struct bench_node, dev),
	.head_offset = offsetof(struct bench_node, node),
	.hashfn = bench_ptr_hashfn,
	.obj_cmpfn = bench_ptr_cmpfn,
};

static noinline void *bench_jhash_find(struct rhashtable *ht,
				       struct device *dev)
{
	return rhashtable_lookup(ht, &dev, jhash_params);
}

static noinline void *bench_ptr_find(struct rhashtable *ht,
				     struct device *dev)
{
	return rhashtable_lookup(ht, &dev, ptr_params);
}

/* The lowest available OPP at or above @freq, as a ceil search does. */
static noinline const struct bench_opp *
bench_bisect(const struct bench_opp *opp, unsigned int n, unsigned long freq)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (opp[mid].rate < freq)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n; lo++)
		if (READ_ONCE(opp[lo].available))
			return &opp[lo];
	return NULL;
}

/* The device map lookup with either hashing: @mulhash, or jhash2. */
static __always_inline void *bench_map_find(struct rhashtable *ht,
					    struct device *dev, bool mulhash)
{
	return mulhash ? bench_ptr_find(ht, dev) : bench_jhash_find(ht, dev);
}

/* c->priv: the map; c->n: 1 for the pointer hash, 0 for jhash2. */
static noinline unsigned long loop_map(const struct bench_ctx *c,
				       unsigned long iters)
{
	bool mulhash = c->n;
	unsigned long i, sum = 0;

	for (i = 0; i < iters; i++) {
		unsigned long f = c->q[i & BENCH_QMASK];

		rcu_read_lock();
		sum += f + (unsigned long)bench_map_find(c->priv, c->dev,
							 mulhash);
		rcu_read_unlock();
	}
	return sum;
}

static noinline unsigned long loop_bisect(const struct bench_ctx *c,
					  unsigned long iters)
{
	unsigned long i, sum = 0;

	for (i = 0; i < iters; i++) {
		unsigned long f = c->q[i & BENCH_QMASK];

		rcu_read_lock();
		sum += (unsigned long)bench_bisect(c->priv, c->n, f);
		rcu_read_unlock();
	}
	return sum;
}

/* One device map, 1 or max_devs devices, timed with both hashings. */
static int bench_map(struct bench_node *nodes, unsigned int nd,
		     const unsigned long *q)
{
	const struct rhashtable_params *params[] = { &jhash_params, &ptr_params };
	static const char * const names[] = { "rhashtable-jhash2",
					      "rhashtable-mulhash" };
	struct rhashtable ht;
	unsigned int k, d;
	int ret;

	for (k = 0; k < ARRAY_SIZE(params); k++) {
		struct bench_ctx c = {
			.dev = devs[0], .q = q, .priv = &ht, .n = k,
		};

		ret = rhashtable_init(&ht, params[k]);
		if (ret)
			return ret;
		for (d = 0; d < nd && !ret; d++) {
			nodes[d].dev = devs[d];
			ret = rhashtable_insert_fast(&ht, &nodes[d].node,
						     *params[k]);
		}
		if (!ret && !bench_map_find(&ht, devs[0], k))
			ret = -ENOENT;
		if (!ret)
			bench_set(bench_row("breakdown", names[k], "ns", "%u",
					    nd), OURS, bench_time(loop_map, &c));
		rhashtable_destroy(&ht);
		if (ret)
			return ret;
	}
	return 0;
}

static int bench_breakdown(unsigned long (*q)[BENCH_Q])
{
	static const unsigned int sizes[] = { 8, 1024 };
	struct bench_node *nodes;
	struct bench_opp *opp;
	unsigned int i, k;
	int ret;

	nodes = kcalloc(max_devs, sizeof(*nodes), GFP_KERNEL);
	opp = kcalloc(1024, sizeof(*opp), GFP_KERNEL);
	ret = nodes && opp ? 0 : -ENOMEM;
	if (!ret)
		ret = bench_map(nodes, 1, q[OP_CEIL]);
	if (!ret)
		ret = bench_map(nodes, max_devs, q[OP_CEIL]);
	for (k = 0; k < ARRAY_SIZE(sizes) && !ret; k++) {
		struct bench_ctx c = {
			.q = q[OP_CEIL], .priv = opp, .n = sizes[k],
		};

		for (i = 0; i < sizes[k]; i++)
			opp[i] = (struct bench_opp){
				.rate = bench_rate(i), .u_volt = bench_volt(i),
				.available = true,
			};
		bench_queries(q, sizes[k]);
		bench_set(bench_row("breakdown", "bisect-ceil", "ns", "%u",
				    sizes[k]), OURS, bench_time(loop_bisect, &c));
	}
	kfree(opp);
	kfree(nodes);
	return ret;
}

/*
 * Lookups on an 8-OPP table with 1, 64 and 1024 devices registered, the
 * one looked up registered first or last. The others have
 * BENCH_FILLER_OPPS OPPs: neither library's search depends on the size of
 * other tables.
 */
static int bench_devices(unsigned long (*q)[BENCH_Q])
{
	const unsigned int counts[] = { 1, min(64U, max_devs), max_devs };
	unsigned int k, d = 0;
	char param[16];
	int ret;

	bench_queries(q, 8);
	for (k = 0; k < ARRAY_SIZE(counts); k++) {
		unsigned int nd = counts[k], pos;

		if (k && nd <= counts[k - 1])
			continue;
		pr_info("lookups with %u devices\n", nd);
		for (; d < nd; d++) {
			bool probed = d == 0 || d == nd - 1;

			ret = bench_add_both(devs[d],
					     probed ? 8 : BENCH_FILLER_OPPS);
			if (ret)
				goto out;
			cond_resched();
		}
		for (pos = 0; pos < (nd == 1 ? 1 : 2); pos++) {
			struct device *dev = devs[pos ? nd - 1 : 0];

			if (nd == 1)
				strscpy(param, "1", sizeof(param));
			else
				snprintf(param, sizeof(param), "%u-%s", nd,
					 pos ? "last" : "first");
			bench_lookups(dev, q, "devices", param);
		}
	}
	ret = 0;
out:
	while (d--)
		bench_remove_both(devs[d]);
	return ret;
}

/*
 * Ceil lookups through a table handle (opp_table_get()), which skip the
 * device map, out of line and inline, beside mainline's device-based
 * ones, on 8 and 1024 OPPs. Every query of every search is first asked
 * through the handle, both ways, and of mainline, and the answers
 * compared, as for the device-based searches.
 */
#define DEFINE_BENCH_HANDLE_LOOP(search, find)				\
noinline unsigned long							\
handle_##search(const struct bench_ctx *c, unsigned long iters)		\
{									\
	struct opp_table *table = c->priv;				\
	const unsigned long *q = c->q;					\
	unsigned long i, sum = 0;					\
									\
	for (i = 0; i < iters; i++) {					\
		unsigned long f = q[i & BENCH_QMASK];			\
		struct opp *opp;					\
									\
		rcu_read_lock();					\
		opp = find(table, &f);					\
		if (!IS_ERR(opp))					\
			sum += f;					\
		rcu_read_unlock();					\
	}								\
	return sum;							\
}

/*
 * One loop around either search, defined once as the loops of
 * opp_bench.h are: handle_ceil() around the exported search, a direct
 * call; handle_ceil_fast() around the inline one of opp.h, compiled into
 * its loop (no call into the library).
 */
static DEFINE_BENCH_HANDLE_LOOP(ceil, opp_table_find_freq_ceil)
static DEFINE_BENCH_HANDLE_LOOP(ceil_fast, opp_table_find_freq_ceil_fast)

/* One query through a handle, inline (@fast) or not: the rate, or 0. */
static unsigned long handle_find(struct opp_table *table, enum bench_op op,
				 unsigned long f, bool fast)
{
	struct opp *opp;

	rcu_read_lock();
	if (op == OP_CEIL)
		opp = fast ? opp_table_find_freq_ceil_fast(table, &f) :
			     opp_table_find_freq_ceil(table, &f);
	else if (op == OP_FLOOR)
		opp = fast ? opp_table_find_freq_floor_fast(table, &f) :
			     opp_table_find_freq_floor(table, &f);
	else
		opp = fast ? opp_table_find_freq_exact_fast(table, f, true) :
			     opp_table_find_freq_exact(table, f, true);
	rcu_read_unlock();
	return IS_ERR(opp) ? 0 : f;
}

static void bench_handle_agree(struct opp_table *table, struct device *dev,
			       enum bench_op op, const unsigned long *q,
			       bool fast)
{
	unsigned long a, b;
	unsigned int j;

	for (j = 0; j < BENCH_Q; j++) {
		a = handle_find(table, op, q[j], fast);
		b = mainline_find(op, dev, q[j]);
		agree_total++;
		if (!a || a != b) {
			if (!agree_bad)
				dev_err(dev, "handle%s %s(%lu): ours %lu, mainline %lu\n",
					fast ? " inline" : "", op_names[op],
					q[j], a, b);
			agree_bad++;
		}
	}
}

static int bench_handles(unsigned long (*q)[BENCH_Q])
{
	static const unsigned int sizes[] = { 8, 1024 };
	struct device *dev = devs[0];
	struct opp_table *table;
	unsigned int k, n, op;
	int ret;

	for (k = 0; k < ARRAY_SIZE(sizes) && sizes[k] <= max_opps; k++) {
		struct bench_ctx c = { .dev = dev, .op = OP_CEIL };
		struct bench_row *r;

		n = sizes[k];
		pr_info("lookups through a handle, %u OPPs\n", n);
		ret = bench_add_both(dev, n);
		if (ret)
			return ret;
		table = opp_table_get(dev);
		if (IS_ERR(table)) {
			bench_remove_both(dev);
			return PTR_ERR(table);
		}
		bench_queries(q, n);
		for (op = 0; op < NR_LOOKUPS; op++) {
			bench_handle_agree(table, dev, op, q[op], false);
			bench_handle_agree(table, dev, op, q[op], true);
		}
		c.q = q[OP_CEIL];
		c.priv = table;
		r = bench_row("handle", "ceil", "ns", "%u", n);
		bench_set_both(r, bench_time(handle_ceil, &c),
			       bench_time(lookup_fns[MAINLINE], &c));
		r = bench_row("inline", "ceil", "ns", "%u", n);
		bench_set_both(r, bench_time(handle_ceil_fast, &c),
			       bench_time(lookup_fns[MAINLINE], &c));
		opp_table_put(table);
		bench_remove_both(dev);
	}
	return 0;
}

/* Read scaling: reader kthreads on separate CPUs, an optional writer. */
struct bench_scale {
	enum bench_impl impl;
	struct bench_ctx ctx;
	wait_queue_head_t wq;
	bool go;
	bool stop;
};

struct bench_thread {
	struct bench_scale *s;
	struct task_struct *task;
	unsigned long ops;
	u64 ns;
};

static int bench_reader(void *arg)
{
	struct bench_thread *t = arg;
	struct bench_scale *s = t->s;
	bench_fn fn = lookup_fns[s->impl];
	unsigned long ops = 0, sum = 0;
	u64 t0;

	wait_event(s->wq, READ_ONCE(s->go) || kthread_should_stop());
	t0 = ktime_get_ns();
	/* Only locals in the loop: no cache line shared with other readers. */
	while (!READ_ONCE(s->stop) && !kthread_should_stop()) {
		sum += fn(&s->ctx, 32);
		ops += 32;
		cond_resched();
	}
	t->ns = ktime_get_ns() - t0;
	t->ops = ops;
	WRITE_ONCE(bench_sink, bench_sink + (sum & 1));
	return 0;
}

static int bench_writer(void *arg)
{
	struct bench_thread *t = arg;
	struct bench_scale *s = t->s;
	struct device *dev = s->ctx.dev;
	unsigned long f = s->ctx.freq, ops = 0;
	u64 t0;

	wait_event(s->wq, READ_ONCE(s->go) || kthread_should_stop());
	t0 = ktime_get_ns();
	while (!READ_ONCE(s->stop) && !kthread_should_stop()) {
		if (s->impl == OURS)
			ops += !opp_disable(dev, f) + !opp_enable(dev, f);
		else
			ops += !mainline_set_available(dev, f, false) +
			       !mainline_set_available(dev, f, true);
		usleep_range(writer_us, writer_us + writer_us / 2);
	}
	t->ns = ktime_get_ns() - t0;
	t->ops = ops;
	return 0;
}

static struct task_struct *bench_spawn(int (*fn)(void *),
				       struct bench_thread *t, int cpu)
{
	struct task_struct *task;

	if (cpu >= 0)
		task = kthread_create_on_cpu(fn, t, cpu, "opp_bench/%u");
	else
		task = kthread_create(fn, t, "opp_bench_w");
	if (IS_ERR(task))
		return task;
	/* The thread may return before kthread_stop(): keep its task. */
	get_task_struct(task);
	wake_up_process(task);
	return task;
}

/*
 * Aggregate lookups/s of @nr readers, in tenths; *@wops: the writer's
 * toggles/s (0 without a writer). -errno if a thread could not start.
 */
static s64 bench_scale_once(enum bench_impl impl, struct device *dev,
			    const unsigned long *q, unsigned int nr,
			    bool writer, u64 *wops)
{
	struct bench_scale s = {
		.impl = impl,
		.ctx = { .dev = dev, .op = OP_CEIL, .q = q, .freq = bench_rate(3) },
	};
	struct bench_thread t[NR_CPUS + 1] = {};
	unsigned int i, cpu, n = 0;
	u64 rate = 0;
	int ret = 0;

	init_waitqueue_head(&s.wq);
	/* Readers on CPUs 1, 2, ..., then 0: away from the starter's CPU. */
	for (i = 0; i < nr; i++) {
		cpu = (i + 1) % num_online_cpus();
		t[n].s = &s;
		t[n].task = bench_spawn(bench_reader, &t[n], cpu);
		if (IS_ERR(t[n].task)) {
			ret = PTR_ERR(t[n].task);
			goto stop;
		}
		n++;
	}
	if (writer) {
		t[n].s = &s;
		t[n].task = bench_spawn(bench_writer, &t[n], -1);
		if (IS_ERR(t[n].task)) {
			ret = PTR_ERR(t[n].task);
			goto stop;
		}
		n++;
	}
	WRITE_ONCE(s.go, true);
	wake_up_all(&s.wq);
	msleep(scale_ms);
	WRITE_ONCE(s.stop, true);
stop:
	for (i = 0; i < n; i++) {
		kthread_stop(t[i].task);
		put_task_struct(t[i].task);
	}
	if (ret)
		return ret;
	*wops = 0;
	for (i = 0; i < n; i++) {
		u64 r = t[i].ns ? div64_u64((u64)t[i].ops * NSEC_PER_SEC * 10,
					    t[i].ns) : 0;

		if (writer && i == n - 1)
			*wops = r;
		else
			rate += r;
	}
	return rate;
}

static int bench_scaling(unsigned long (*q)[BENCH_Q])
{
	static const unsigned int readers[] = { 1, 2, 4 };
	struct device *dev = devs[0];
	unsigned int k, w, impl, r;
	u64 *v, *wv;
	int ret;

	pr_info("read scaling\n");
	/* On the heap: with the spawned threads' slots it overflows a frame. */
	v = kmalloc_array(2 * BENCH_MAX_RUNS, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	wv = v + BENCH_MAX_RUNS;
	ret = bench_add_both(dev, 8);
	if (ret)
		goto free;
	bench_queries(q, 8);
	for (w = 0; w < 2; w++) {
		for (k = 0; k < ARRAY_SIZE(readers); k++) {
			struct bench_row *row, *wrow = NULL;

			if (readers[k] > num_online_cpus())
				continue;
			row = bench_row("scaling", w ? "readers+writer" :
					"readers", "lookups/s", "%u",
					readers[k]);
			if (w)
				wrow = bench_row("scaling", "writer-toggles",
						 "toggles/s", "%u", readers[k]);
			for (impl = 0; impl < NR_IMPL; impl++) {
				for (r = 0; r < runs; r++) {
					s64 x = bench_scale_once(impl, dev,
								 q[OP_CEIL],
								 readers[k], w,
								 &wv[r]);

					if (x < 0) {
						ret = x;
						goto out;
					}
					v[r] = x;
				}
				bench_set(row, impl, bench_median(v, runs));
				if (wrow)
					bench_set(wrow, impl, bench_median(wv, runs));
			}
		}
	}
out:
	bench_remove_both(dev);
free:
	kfree(v);
	return ret;
}

/*
 * Slab memory in bytes, with the per-CPU deltas the global counter has
 * not folded in yet (they are worth hundreds of KB on 4 CPUs), as
 * zone_page_state_snapshot() does for zone counters.
 */
static s64 bench_slab(enum node_stat_item item)
{
	s64 pages = global_node_page_state_pages(item);
	int nid, cpu;

	for_each_online_node(nid)
		for_each_online_cpu(cpu)
			pages += per_cpu_ptr(NODE_DATA(nid)->per_cpu_nodestats,
					     cpu)->vm_node_stat_diff[item];
	return pages << PAGE_SHIFT;
}

/*
 * Let deferred frees finish: kfree_rcu() batches (drained every few
 * jiffies, then after a grace period) and call_rcu() ones (debugfs
 * dentries).
 */
static void bench_settle(void)
{
	int i;

	for (i = 0; i < 3; i++) {
		msleep(40);
		rcu_barrier();
	}
}

struct bench_mem {
	s64 unrecl;
	s64 recl;
};

/*
 * Slab growth for @nd devices with @n OPPs each in one library. The OPPs
 * go in round by round (the i-th OPP of every device, then a pause), so
 * that the copies our copy-on-write replaced are freed before the next
 * round allocates and their slots are reused, as on a system where
 * tables are registered over time; what is left of them still counts.
 */
static int bench_mem_delta(enum bench_impl impl, unsigned int nd,
			   unsigned int n, struct bench_mem *m)
{
	s64 u0, r0;
	unsigned int i, d;
	int ret = 0;

	bench_settle();
	u0 = bench_slab(NR_SLAB_UNRECLAIMABLE_B);
	r0 = bench_slab(NR_SLAB_RECLAIMABLE_B);
	for (i = 0; i < n && !ret; i++) {
		for (d = 0; d < nd && !ret; d++) {
			ret = bench_add(impl, devs[d], i);
			cond_resched();
		}
		bench_settle();
	}
	m->unrecl = bench_slab(NR_SLAB_UNRECLAIMABLE_B) - u0;
	m->recl = bench_slab(NR_SLAB_RECLAIMABLE_B) - r0;
	for (d = 0; d < nd; d++)
		bench_remove_table(impl, devs[d]);
	bench_settle();
	return ret;
}

/*
 * Per table: slab growth of max_devs (1024) one-OPP tables over their
 * number, less the per-OPP figure. Per OPP: growth of a quarter as many
 * (256) eight-OPP tables less as many one-OPP tables, over the OPPs beyond
 * the first of each table (1792). Unreclaimable slab holds both
 * libraries' structures; reclaimable slab holds mainline's debugfs
 * dentries and inodes, one directory per table and per OPP.
 */
static int bench_memory(void)
{
	struct bench_mem one[NR_IMPL], eight[NR_IMPL];
	unsigned int nd = max_devs, nd8 = max_devs / 4;
	struct bench_row *rt, *ro, *rd;
	unsigned int impl;
	int ret;

	pr_info("memory\n");
	for (impl = 0; impl < NR_IMPL; impl++) {
		ret = bench_mem_delta(impl, nd, 1, &one[impl]);
		if (!ret)
			ret = bench_mem_delta(impl, nd8, 8, &eight[impl]);
		if (ret)
			return ret;
	}
	ro = bench_row("memory", "slab-per-opp", "bytes", "8");
	rt = bench_row("memory", "slab-per-table", "bytes", "1");
	rd = bench_row("memory", "debugfs-per-opp", "bytes", "8");
	for (impl = 0; impl < NR_IMPL; impl++) {
		/* in tenths of a byte */
		s64 per_opp = div_s64((eight[impl].unrecl -
				       div_s64(one[impl].unrecl * nd8, nd)) * 10,
				      nd8 * 7);
		s64 per_table = div_s64(one[impl].unrecl * 10, nd) - per_opp;

		bench_set(ro, impl, max_t(s64, per_opp, 0));
		bench_set(rt, impl, max_t(s64, per_table, 0));
		bench_set(rd, impl, max_t(s64, div_s64(eight[impl].recl * 10,
						       nd8 * 8), 0));
	}
	return 0;
}

/*
 * The kernel tree's tables (opp_bench_corpus.c): the time to read them
 * all, in microseconds, and the bytes their OPPs are allocated in, per
 * OPP. A boot without the corpus (make bench TIER=uml: UML's tree has
 * none) has no such rows.
 */
static int bench_corpus_rows(void)
{
	struct bench_corpus c;
	struct bench_row *r;
	int ret;

	pr_info("the kernel tree's OPP tables\n");
	ret = bench_corpus(devs, BENCH_NDEV, runs, &c);
	if (ret == -ENOENT) {
		pr_info("no %s in the device tree: no corpus rows\n", "/opp-corpus");
		return 0;
	}
	if (ret)
		return ret;
	pr_info("corpus: %u of %u entries read by both; %u tables of %u OPPs walked by rate\n",
		c.tables, c.entries, c.walked, c.opps);
	r = bench_row("corpus", "of_add_table", "us", "%u", c.tables);
	bench_set_both(r, div_u64(c.read_ns[OURS], 100),
		       div_u64(c.read_ns[MAINLINE], 100));
	if (c.opps)
		bench_set_both(bench_row("memory", "corpus-opp-object", "bytes",
					 "%u", c.opps),
			       div_u64(c.bytes[OURS] * 10, c.opps),
			       div_u64(c.bytes[MAINLINE] * 10, c.opps));
	return 0;
}

static void print_tenths(struct seq_file *m, const struct bench_row *r,
			 enum bench_impl impl)
{
	u32 rem;
	u64 q;

	if (!r->has[impl])
		return;
	q = div_u64_rem(r->val[impl], 10, &rem);
	seq_printf(m, "%llu.%u", q, rem);
}

static int results_show(struct seq_file *m, void *v)
{
	unsigned int i;

	seq_printf(m, "opp-bench-info,cpus,%u\n", num_online_cpus());
	seq_printf(m, "opp-bench-info,hz,%u\n", HZ);
	seq_printf(m, "opp-bench-info,runs,%u\n", runs);
	seq_printf(m, "opp-bench-info,min_run_us,%u\n", min_run_us);
	seq_printf(m, "opp-bench-info,scale_ms,%u\n", scale_ms);
	seq_printf(m, "opp-bench-info,writer_us,%u\n", writer_us);
	seq_printf(m, "opp-bench-info,statistic,%s\n", best ? "fastest run" : "median");
	seq_printf(m, "opp-bench-info,sizeof_long,%zu\n", sizeof(long));
	seq_printf(m, "opp-bench-check,agree,%s,%u of %u queries differ\n",
		   agree_bad ? "failed" : "ok", agree_bad, agree_total);
	seq_printf(m, "opp-bench-check,transition,%s,%s\n",
		   transition_bad ? "failed" : "ok",
		   transition_bad ?: "both sides left their clock and supply where asked");
	for (i = 0; i < nr_rows; i++) {
		const struct bench_row *r = &rows[i];

		seq_printf(m, "opp-bench,%s,%s,%s,", r->group, r->op, r->param);
		print_tenths(m, r, OURS);
		seq_putc(m, ',');
		print_tenths(m, r, MAINLINE);
		seq_putc(m, ',');
		if (r->has[OURS] && r->has[MAINLINE] && r->val[MAINLINE]) {
			u64 ratio = div64_u64(r->val[OURS] * 1000,
					      r->val[MAINLINE]);
			u32 rem;

			ratio = div_u64_rem(ratio, 1000, &rem);
			seq_printf(m, "%llu.%03u", ratio, rem);
		}
		seq_printf(m, ",%s\n", r->unit);
	}
	seq_puts(m, "opp-bench-end\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(results);

static int __init opp_bench_init(void)
{
	unsigned long (*q)[BENCH_Q];
	u64 t0 = ktime_get_ns();
	int ret;

	if (!runs || runs > BENCH_MAX_RUNS || !min_run_us || !scale_ms ||
	    max_opps < 8 || max_devs < 4 || max_devs > BENCH_NDEV)
		return -EINVAL;
	rows = kcalloc(BENCH_MAX_ROWS, sizeof(*rows), GFP_KERNEL);
	q = kcalloc(NR_LOOKUPS, sizeof(*q), GFP_KERNEL);
	if (!rows || !q) {
		ret = -ENOMEM;
		goto out;
	}
	ret = bench_get_devs();
	if (ret)
		goto out;

	bench_floor(q);
	ret = bench_breakdown(q);
	if (!ret)
		ret = bench_tables(q);
	if (!ret)
		ret = bench_transitions();
	if (!ret)
		ret = bench_devices(q);
	if (!ret)
		ret = bench_handles(q);
	if (!ret)
		ret = bench_scaling(q);
	if (!ret)
		ret = bench_memory();
	if (!ret)
		ret = bench_corpus_rows();
	bench_put_devs();
	if (ret)
		goto out;

	bench_dir = debugfs_create_dir("opp_bench", NULL);
	debugfs_create_file("results", 0444, bench_dir, NULL, &results_fops);
	pr_info("done in %llu ms\n", div_u64(ktime_get_ns() - t0,
					     NSEC_PER_MSEC));
out:
	kfree(q);
	if (ret) {
		pr_err("failed: %d\n", ret);
		kfree(rows);
	}
	return ret;
}
module_init(opp_bench_init);

static void __exit opp_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	kfree(rows);
}
module_exit(opp_bench_exit);

MODULE_DESCRIPTION("OPP library against the kernel's OPP core: benchmarks");
MODULE_LICENSE("GPL");
