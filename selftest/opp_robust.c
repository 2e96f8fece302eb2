// SPDX-License-Identifier: GPL-2.0-only
/*
 * Robustness of the OPP library: allocation failures, bad input, and the
 * device reference at the end of a device's life.
 *
 * opp_faults fails each allocation of each updater path in turn through
 * the task's fail-nth (CONFIG_FAULT_INJECTION; failslab must not spare
 * sleeping allocations: the guest writes N to failslab/ignore-gfp-wait).
 * For every n, the n-th allocation the call makes fails; the call must
 * then either return -ENOMEM and leave the table exactly as it was (rates,
 * voltages, availability, count, the device's reference count), or, when
 * the failed allocation was a debug facility's own that it recovers from
 * (kmemleak's metadata, the debug-objects pool), succeed with the same
 * result as a call without failure. The number of n that gave -ENOMEM must
 * equal the number of the library's allocation sites on that path:
 *
 *   opp_add, first OPP of a device   2: the OPP array (opp_array_alloc),
 *                                       the table (struct opp_table);
 *                                       the rhashtable insertion allocates
 *                                       only when the map must grow
 *                                       synchronously (over 100% load in
 *                                       the middle of a resize), which no
 *                                       test can force deterministically
 *   opp_add, into an existing table  1: the copied OPP array
 *   opp_add, identical OPP again     0
 *   opp_remove, not the last OPP     1: the copied OPP array
 *   opp_remove, the last OPP         0: frees the table
 *   opp_remove_table                 0
 *   opp_enable, opp_disable          0: a flag flipped in place
 *   opp_init_cpufreq_table           1: the cpufreq table
 *   opp_register_notifier, first     1: the blocking notifier head
 *   opp_register_notifier, second    0
 *   opp_of_add_table, no table yet   4: the cells, the points, the OPP
 *                                       array, the table
 *   opp_of_add_table, into a table   3: the cells, the points, the array
 *
 * Leaks: the kmemleak scan that the harness takes once every module is
 * unloaded covers every object these calls allocated; the device's
 * reference count, compared here, covers get_device().
 *
 * opp_badinput runs every export against every kind of bad or missing
 * input, and asserts the contract's error, that nothing changed (neither
 * the device's own state nor a bystander table) and that the call logged
 * at most one line. What it does not run: an updater called from atomic
 * context. Every updater starts with might_sleep(), so with
 * CONFIG_DEBUG_ATOMIC_SLEEP the call prints "BUG: sleeping function
 * called from invalid context"; the harness proves that this fails a run
 * with opp_canary's sleep_in_atomic=1 boot, never in a passing run.
 *
 * opp_release proves that a device registered with the driver core and
 * unregistered after (or before) its table was removed is released: the
 * library keeps no stale reference.
 */

/* pr_debug() is the log mark below: compiled in, kept from the console. */
#define DEBUG

#include <kunit/test.h>
#include <linux/cpufreq.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kmsg_dump.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/of.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "opp_fixture.h"

#define NRATES		6

/* The universe of the test devices: a rate's voltage is a function of it. */
static unsigned long robust_rate(unsigned int i)
{
	return (i + 1) * 100 * HZ_PER_MHZ;
}

static unsigned long robust_volt(unsigned long rate)
{
	return 800000 + rate / 10000;
}

struct robust_ctx {
	struct device *dev;		/* the device under test */
	struct device *bystander;	/* a populated table that must not move */
	atomic_t released;
};

static void robust_fill(struct kunit *test, struct device *dev, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, opp_add(dev, robust_rate(i),
					      robust_volt(robust_rate(i))), 0);
}

static int robust_init(struct kunit *test)
{
	struct robust_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	atomic_set(&ctx->released, 0);
	test->priv = ctx;
	ctx->dev = fixture_dev_new(test, "opp-robust-dut", &ctx->released);
	ctx->bystander = fixture_dev_new(test, "opp-robust-bystander",
					 &ctx->released);
	robust_fill(test, ctx->bystander, NRATES);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->bystander, robust_rate(2)), 0);
	return 0;
}

static void robust_exit(struct kunit *test)
{
	struct robust_ctx *ctx = test->priv;

	/* A node of ours would be of_node_put() by nobody, but be safe. */
	ctx->dev->of_node = NULL;
	opp_remove_table(ctx->dev);
	opp_remove_table(ctx->bystander);
	put_device(ctx->dev);
	put_device(ctx->bystander);
	/* Both released: the library kept no reference behind. */
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->released), 2);
}

/* What a caller can observe of a device's table, plus its refcount. */
struct robust_snap {
	int count;			/* opp_get_opp_count(), or its error */
	unsigned int refs;
	struct {
		bool present;
		bool available;
		unsigned long u_volt;
	} e[NRATES + 2];
};

/* The universe plus the extremes a test may add: 1 Hz and ULONG_MAX. */
static unsigned long robust_snap_rate(unsigned int i)
{
	if (i == NRATES)
		return 1;
	if (i == NRATES + 1)
		return ULONG_MAX;
	return robust_rate(i);
}

static void robust_snapshot(struct device *dev, struct robust_snap *s)
{
	struct opp *opp;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->refs = kref_read(&dev->kobj.kref);
	rcu_read_lock();
	s->count = opp_get_opp_count(dev);
	for (i = 0; i < ARRAY_SIZE(s->e); i++) {
		opp = opp_find_freq_exact(dev, robust_snap_rate(i), true);
		if (!IS_ERR(opp)) {
			s->e[i].present = true;
			s->e[i].available = true;
			s->e[i].u_volt = opp_get_voltage(opp);
			continue;
		}
		opp = opp_find_freq_exact(dev, robust_snap_rate(i), false);
		s->e[i].present = !IS_ERR(opp);
	}
	rcu_read_unlock();
}

static void robust_expect_snap(struct kunit *test,
			       const struct robust_snap *a,
			       const struct robust_snap *b, const char *what)
{
	unsigned int i;

	KUNIT_EXPECT_EQ_MSG(test, a->count, b->count, "%s: count", what);
	KUNIT_EXPECT_EQ_MSG(test, a->refs, b->refs, "%s: device refs", what);
	for (i = 0; i < ARRAY_SIZE(a->e); i++) {
		KUNIT_EXPECT_EQ_MSG(test, a->e[i].present, b->e[i].present,
				    "%s: rate %lu present", what,
				    robust_snap_rate(i));
		KUNIT_EXPECT_EQ_MSG(test, a->e[i].available, b->e[i].available,
				    "%s: rate %lu available", what,
				    robust_snap_rate(i));
		KUNIT_EXPECT_EQ_MSG(test, a->e[i].u_volt, b->e[i].u_volt,
				    "%s: rate %lu voltage", what,
				    robust_snap_rate(i));
	}
}

/* ---- opp_faults ---- */

struct robust_fault_path {
	const char *name;
	/* Bring ctx->dev to the state the call starts from. */
	void (*setup)(struct kunit *test, struct device *dev);
	int (*call)(struct device *dev);
	unsigned int sites;	/* allocation sites of the library's own */
};

static void robust_setup_empty(struct kunit *test, struct device *dev)
{
}

static void robust_setup_three(struct kunit *test, struct device *dev)
{
	robust_fill(test, dev, 3);
}

static void robust_setup_one(struct kunit *test, struct device *dev)
{
	robust_fill(test, dev, 1);
}

static int robust_call_add_first(struct device *dev)
{
	return opp_add(dev, robust_rate(0), robust_volt(robust_rate(0)));
}

static int robust_call_add_insert(struct device *dev)
{
	return opp_add(dev, robust_rate(4), robust_volt(robust_rate(4)));
}

static int robust_call_add_same(struct device *dev)
{
	return opp_add(dev, robust_rate(1), robust_volt(robust_rate(1)));
}

static int robust_call_remove_middle(struct device *dev)
{
	return opp_remove(dev, robust_rate(1));
}

static int robust_call_remove_last(struct device *dev)
{
	return opp_remove(dev, robust_rate(0));
}

static int robust_call_remove_table(struct device *dev)
{
	return opp_remove_table(dev);
}

static int robust_call_disable(struct device *dev)
{
	return opp_disable(dev, robust_rate(2));
}

static int robust_call_enable(struct device *dev)
{
	int ret = opp_disable(dev, robust_rate(2));

	return ret ? ret : opp_enable(dev, robust_rate(2));
}

/*
 * The cpufreq table is not part of the OPP table: on success it is checked
 * and freed here, and -ENOMEM must leave the out-pointer alone.
 */
static int robust_call_cpufreq(struct device *dev)
{
	struct cpufreq_frequency_table *ft = ERR_PTR(-EFAULT);
	int ret = opp_init_cpufreq_table(dev, &ft);

	if (ret)
		return ft == ERR_PTR(-EFAULT) ? ret : -EFAULT;
	if (ft[0].frequency != robust_rate(0) / HZ_PER_KHZ ||
	    ft[3].frequency != CPUFREQ_TABLE_END)
		ret = -EFAULT;
	opp_free_cpufreq_table(dev, &ft);
	return ret;
}

static int robust_nb_call(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	return NOTIFY_OK;
}

static struct notifier_block robust_nb = { .notifier_call = robust_nb_call };
static struct notifier_block robust_nb2 = { .notifier_call = robust_nb_call };

/* A failed registration must not leave @nb on the chain. */
static int robust_call_register(struct device *dev)
{
	int ret = opp_register_notifier(dev, &robust_nb);

	if (ret == -ENOMEM && opp_unregister_notifier(dev, &robust_nb) != -ENOENT)
		return -EFAULT;
	return ret;
}

static void robust_setup_three_nb(struct kunit *test, struct device *dev)
{
	robust_fill(test, dev, 3);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(dev, &robust_nb2), 0);
}

/* Rates 0, 4 and 5 of the universe, as <kHz uV> pairs. */
static void robust_setup_of(struct kunit *test, struct device *dev)
{
	static const unsigned int idx[] = { 5, 0, 4 };
	u32 cells[2 * ARRAY_SIZE(idx)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		cells[2 * i] = robust_rate(idx[i]) / HZ_PER_KHZ;
		cells[2 * i + 1] = robust_volt(robust_rate(idx[i]));
	}
	fixture_of_attach(test, dev, cells, ARRAY_SIZE(cells));
}

static void robust_setup_of_three(struct kunit *test, struct device *dev)
{
	robust_setup_of(test, dev);
	robust_fill(test, dev, 3);
}

static int robust_call_of(struct device *dev)
{
	return opp_of_add_table(dev);
}

static const struct robust_fault_path robust_fault_paths[] = {
	{ "add first", robust_setup_empty, robust_call_add_first, 2 },
	{ "add insert", robust_setup_three, robust_call_add_insert, 1 },
	{ "add identical", robust_setup_three, robust_call_add_same, 0 },
	{ "remove middle", robust_setup_three, robust_call_remove_middle, 1 },
	{ "remove last", robust_setup_one, robust_call_remove_last, 0 },
	{ "remove table", robust_setup_three, robust_call_remove_table, 0 },
	{ "disable", robust_setup_three, robust_call_disable, 0 },
	{ "enable", robust_setup_three, robust_call_enable, 0 },
	{ "cpufreq table", robust_setup_three, robust_call_cpufreq, 1 },
	{ "register notifier", robust_setup_three, robust_call_register, 1 },
	{ "register second notifier", robust_setup_three_nb, robust_call_register, 0 },
	{ "of table, first", robust_setup_of, robust_call_of, 4 },
	{ "of table, into a table", robust_setup_of_three, robust_call_of, 3 },
};

static void robust_fault_desc(const struct robust_fault_path *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(robust_fault, robust_fault_paths, robust_fault_desc);

/* The nth allocation of @call fails; returns its result, *@hit if it did. */
static int robust_call_failing(const struct robust_fault_path *p,
			       struct device *dev, unsigned int nth,
			       bool *hit)
{
	int ret;

	WRITE_ONCE(current->fail_nth, nth);
	ret = p->call(dev);
	*hit = !READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	return ret;
}

static void robust_test_fault_path(struct kunit *test)
{
	const struct robust_fault_path *p = test->param_value;
	struct robust_ctx *ctx = test->priv;
	struct robust_snap before, after, want;
	unsigned int nth, enomem = 0;
	bool hit = true;
	int ret;

	/* The result without any failure, for the recovered cases. */
	p->setup(test, ctx->dev);
	KUNIT_ASSERT_EQ(test, p->call(ctx->dev), 0);
	robust_snapshot(ctx->dev, &want);
	opp_remove_table(ctx->dev);

	for (nth = 1; hit && nth < 200; nth++) {
		p->setup(test, ctx->dev);
		robust_snapshot(ctx->dev, &before);
		ret = robust_call_failing(p, ctx->dev, nth, &hit);
		robust_snapshot(ctx->dev, &after);
		if (!hit) {
			/* Fewer than nth allocations: the call is covered. */
			KUNIT_EXPECT_EQ(test, ret, 0);
			robust_expect_snap(test, &after, &want, p->name);
		} else if (ret == -ENOMEM) {
			enomem++;
			robust_expect_snap(test, &after, &before, p->name);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s, allocation %u",
					    p->name, nth);
			robust_expect_snap(test, &after, &want, p->name);
		}
		opp_remove_table(ctx->dev);
	}
	KUNIT_EXPECT_FALSE_MSG(test, hit, "%s: still allocating at %u", p->name,
			       nth);
	kunit_info(test, "%s: %u allocations tried, %u gave -ENOMEM", p->name,
		   nth - 1, enomem);
	KUNIT_EXPECT_EQ_MSG(test, enomem, p->sites,
			    "%s: -ENOMEM count is not the number of sites",
			    p->name);
	/* The bystander never moved. */
	robust_snapshot(ctx->bystander, &after);
	KUNIT_EXPECT_EQ(test, after.count, NRATES - 1);
}

/*
 * Fault injection must be live, or every count above would be vacuous: a
 * plain kmalloc() made with fail-nth 1 must fail.
 */
static void robust_test_fault_injection_live(struct kunit *test)
{
	void *p;

	WRITE_ONCE(current->fail_nth, 1);
	p = kmalloc(32, GFP_KERNEL);
	WRITE_ONCE(current->fail_nth, 0);
	kfree(p);
	KUNIT_EXPECT_NULL_MSG(test, p,
			      "failslab spares GFP_KERNEL: write N to failslab/ignore-gfp-wait");
}

static struct kunit_case robust_fault_cases[] = {
	KUNIT_CASE(robust_test_fault_injection_live),
	KUNIT_CASE_PARAM(robust_test_fault_path, robust_fault_gen_params),
	{}
};

static struct kunit_suite robust_fault_suite = {
	.name = "opp_faults",
	.init = robust_init,
	.exit = robust_exit,
	.test_cases = robust_fault_cases,
};

/* ---- opp_badinput ---- */

/* New log records since the last call: one iterator for the whole suite. */
static struct kmsg_dump_iter robust_log_iter;

static char robust_log_line[256];
/* The cell's first two lines, for a report. */
static char robust_log_last[2][96];

/*
 * Consume everything logged so far. A record that does not end with a
 * newline (KUnit's "# Subtest:" line, say) stays open for a continuation
 * and unreadable until the next record: log one of our own, at debug
 * level so that only the ring buffer sees it, to close it.
 */
static void robust_log_sync(void)
{
	pr_debug("opp_robust: log mark\n");
	while (kmsg_dump_get_line(&robust_log_iter, false, NULL, 0, NULL))
		;
}

/*
 * A ratelimited message that was suppressed before shows up as a
 * "callbacks suppressed" record next to the next one that passes: that
 * record is the ratelimit's, not a second line of the call.
 */
static unsigned int robust_log_lines(void)
{
	unsigned int n = 0;
	size_t len;

	while (kmsg_dump_get_line(&robust_log_iter, false, robust_log_line,
				  sizeof(robust_log_line) - 1, &len)) {
		robust_log_line[len] = '\0';
		if (strstr(robust_log_line, "callbacks suppressed"))
			continue;
		if (n < ARRAY_SIZE(robust_log_last))
			strscpy(robust_log_last[n], robust_log_line,
				sizeof(robust_log_last[n]));
		n++;
	}
	return n;
}

enum robust_kind {
	K_NULL,
	K_ERR_EINVAL,
	K_ERR_MAX,	/* the last errno IS_ERR() accepts */
	K_NEVER,	/* never had a table */
	K_REMOVED,	/* its table was removed with opp_remove_table() */
	K_EMPTIED,	/* each of its OPPs was removed, one by one */
	K_NR,
};

static const char * const robust_kind_name[K_NR] = {
	"NULL", "ERR_PTR(-EINVAL)", "ERR_PTR(-MAX_ERRNO)", "never had a table",
	"table removed", "table emptied",
};

static struct device *robust_kind_dev(struct kunit *test,
				      struct robust_ctx *ctx,
				      enum robust_kind k)
{
	unsigned int i;

	switch (k) {
	case K_NULL:
		return NULL;
	case K_ERR_EINVAL:
		return ERR_PTR(-EINVAL);
	case K_ERR_MAX:
		return ERR_PTR(-MAX_ERRNO);
	case K_REMOVED:
		robust_fill(test, ctx->dev, 3);
		KUNIT_ASSERT_EQ(test, opp_remove_table(ctx->dev), 0);
		return ctx->dev;
	case K_EMPTIED:
		robust_fill(test, ctx->dev, 3);
		for (i = 0; i < 3; i++)
			KUNIT_ASSERT_EQ(test, opp_remove(ctx->dev, robust_rate(i)), 0);
		return ctx->dev;
	default:
		return ctx->dev;
	}
}

/*
 * One cell per export (and per NULL out-pointer variant): the call, made
 * on @dev, returns what the contract says for that kind of device.
 */
struct robust_cell {
	const char *name;
	int (*call)(struct device *dev);
	bool ignores_dev_kind;	/* -EINVAL whatever the device */
	bool always_ok;		/* no error to report: 0 whatever the device */
	bool pointers_only;	/* a valid call on a real device: not run there */
};

static int robust_ptr_ret(struct opp *opp)
{
	return IS_ERR(opp) ? PTR_ERR(opp) : 0;
}

static int robust_bi_enable(struct device *dev)
{
	return opp_enable(dev, robust_rate(0));
}

static int robust_bi_disable(struct device *dev)
{
	return opp_disable(dev, robust_rate(0));
}

static int robust_bi_remove(struct device *dev)
{
	return opp_remove(dev, robust_rate(0));
}

static int robust_bi_remove_table(struct device *dev)
{
	return opp_remove_table(dev);
}

static int robust_bi_add(struct device *dev)
{
	return opp_add(dev, robust_rate(0), robust_volt(robust_rate(0)));
}

static int robust_bi_add_zero(struct device *dev)
{
	return opp_add(dev, 0, robust_volt(0));
}

static int robust_bi_exact(struct device *dev, unsigned long f, bool avail)
{
	return robust_ptr_ret(fixture_find(dev, avail ? FIXTURE_EXACT :
					   FIXTURE_EXACT_OFF, f).opp);
}

static int robust_bi_exact_0(struct device *dev)
{
	return robust_bi_exact(dev, 0, true);
}

static int robust_bi_exact_max_disabled(struct device *dev)
{
	return robust_bi_exact(dev, ULONG_MAX, false);
}

/* ceil or floor from @f; *freq must be untouched on error. */
static int robust_bi_search(struct device *dev, bool ceil, unsigned long f)
{
	unsigned long freq = f;
	int ret;

	rcu_read_lock();
	ret = robust_ptr_ret(ceil ? opp_find_freq_ceil(dev, &freq) :
			 opp_find_freq_floor(dev, &freq));
	rcu_read_unlock();
	return ret || freq == f ? ret : -EFAULT;
}

static int robust_bi_ceil_0(struct device *dev)
{
	return robust_bi_search(dev, true, 0);
}

static int robust_bi_ceil_max(struct device *dev)
{
	return robust_bi_search(dev, true, ULONG_MAX);
}

static int robust_bi_floor_0(struct device *dev)
{
	return robust_bi_search(dev, false, 0);
}

static int robust_bi_floor_max(struct device *dev)
{
	return robust_bi_search(dev, false, ULONG_MAX);
}

/* Both searches that take a pointer, given none: one answer. */
static int robust_bi_search_null(struct device *dev)
{
	int ceil, floor;

	rcu_read_lock();
	ceil = robust_ptr_ret(opp_find_freq_ceil(dev, NULL));
	floor = robust_ptr_ret(opp_find_freq_floor(dev, NULL));
	rcu_read_unlock();
	return ceil == floor ? ceil : -EFAULT;
}

static int robust_bi_cpufreq(struct device *dev)
{
	struct cpufreq_frequency_table *ft = ERR_PTR(-EFAULT);
	int ret = opp_init_cpufreq_table(dev, &ft);

	if (!ret)
		opp_free_cpufreq_table(dev, &ft);
	else if (ft != ERR_PTR(-EFAULT))
		ret = -EFAULT;
	return ret;
}

static int robust_bi_cpufreq_null(struct device *dev)
{
	return opp_init_cpufreq_table(dev, NULL);
}

/* Freeing with any device, or nothing, is harmless and clears the pointer. */
static int robust_bi_free_cpufreq(struct device *dev)
{
	struct cpufreq_frequency_table *ft = NULL;

	opp_free_cpufreq_table(dev, &ft);
	opp_free_cpufreq_table(dev, NULL);
	ft = kcalloc(2, sizeof(*ft), GFP_KERNEL);
	if (!ft)
		return -ENOMEM;
	opp_free_cpufreq_table(dev, &ft);
	return ft ? -EFAULT : 0;
}

/* A lookup that fails must leave @info alone. */
static int robust_bi_lookup(struct device *dev, int kind, unsigned long f)
{
	struct opp_info info = { .rate = 7, .u_volt = 8, .available = true };
	int ret;

	if (kind == 0)
		ret = opp_lookup_ceil(dev, f, &info);
	else if (kind == 1)
		ret = opp_lookup_floor(dev, f, &info);
	else
		ret = opp_lookup_exact(dev, f, false, &info);
	if (ret && (info.rate != 7 || info.u_volt != 8 || !info.available))
		return -EFAULT;
	return ret;
}

static int robust_bi_lookup_ceil_0(struct device *dev)
{
	return robust_bi_lookup(dev, 0, 0);
}

static int robust_bi_lookup_floor_max(struct device *dev)
{
	return robust_bi_lookup(dev, 1, ULONG_MAX);
}

static int robust_bi_lookup_exact_max(struct device *dev)
{
	return robust_bi_lookup(dev, 2, ULONG_MAX);
}

static int robust_bi_lookup_null(struct device *dev)
{
	int a = opp_lookup_ceil(dev, 0, NULL);
	int b = opp_lookup_floor(dev, ULONG_MAX, NULL);
	int c = opp_lookup_exact(dev, robust_rate(0), true, NULL);

	return a == b && b == c ? a : -EFAULT;
}

static int robust_bi_register(struct device *dev)
{
	return opp_register_notifier(dev, &robust_nb);
}

static int robust_bi_register_null(struct device *dev)
{
	return opp_register_notifier(dev, NULL);
}

static int robust_bi_unregister(struct device *dev)
{
	return opp_unregister_notifier(dev, &robust_nb);
}

static int robust_bi_unregister_null(struct device *dev)
{
	return opp_unregister_notifier(dev, NULL);
}

/* Without a device tree node: -EINVAL, whatever the device's table. */
static int robust_bi_of_add(struct device *dev)
{
	return opp_of_add_table(dev);
}

static const struct robust_cell robust_cells[] = {
	{ "opp_enable", robust_bi_enable },
	{ "opp_disable", robust_bi_disable },
	{ "opp_remove", robust_bi_remove },
	{ "opp_remove_table", robust_bi_remove_table },
	{ "opp_add", robust_bi_add, false, false, true },
	{ "opp_add(0 Hz)", robust_bi_add_zero, true },
	{ "opp_find_freq_exact(0)", robust_bi_exact_0 },
	{ "opp_find_freq_exact(ULONG_MAX, false)", robust_bi_exact_max_disabled },
	{ "opp_find_freq_ceil(0)", robust_bi_ceil_0 },
	{ "opp_find_freq_ceil(ULONG_MAX)", robust_bi_ceil_max },
	{ "opp_find_freq_floor(0)", robust_bi_floor_0 },
	{ "opp_find_freq_floor(ULONG_MAX)", robust_bi_floor_max },
	{ "opp_find_freq_{ceil,floor}(NULL)", robust_bi_search_null, true },
	{ "opp_get_opp_count", fixture_count },
	{ "opp_init_cpufreq_table", robust_bi_cpufreq },
	{ "opp_init_cpufreq_table(NULL)", robust_bi_cpufreq_null, true },
	{ "opp_free_cpufreq_table", robust_bi_free_cpufreq, false, true },
	{ "opp_lookup_ceil(0)", robust_bi_lookup_ceil_0 },
	{ "opp_lookup_floor(ULONG_MAX)", robust_bi_lookup_floor_max },
	{ "opp_lookup_exact(ULONG_MAX, false)", robust_bi_lookup_exact_max },
	{ "opp_lookup_*(NULL info)", robust_bi_lookup_null, true },
	{ "opp_register_notifier", robust_bi_register },
	{ "opp_register_notifier(NULL)", robust_bi_register_null, true },
	{ "opp_unregister_notifier", robust_bi_unregister },
	{ "opp_unregister_notifier(NULL)", robust_bi_unregister_null, true },
	{ "opp_of_add_table(no node)", robust_bi_of_add, true },
};

/* The contract's answer for a device of kind @k. */
static int robust_expected(const struct robust_cell *c, enum robust_kind k)
{
	if (c->always_ok)
		return 0;
	if (c->ignores_dev_kind || k <= K_ERR_MAX)
		return -EINVAL;
	return -ENODEV;
}

static void robust_kind_gen_desc(const enum robust_kind *k, char *desc)
{
	strscpy(desc, robust_kind_name[*k], KUNIT_PARAM_DESC_SIZE);
}

static const enum robust_kind robust_kinds[] = {
	K_NULL, K_ERR_EINVAL, K_ERR_MAX, K_NEVER, K_REMOVED, K_EMPTIED,
};

KUNIT_ARRAY_PARAM(robust_kind, robust_kinds, robust_kind_gen_desc);

static void robust_test_bad_device(struct kunit *test)
{
	const enum robust_kind *k = test->param_value;
	struct robust_ctx *ctx = test->priv;
	struct robust_snap by0, by1, own0, own1;
	struct device *dev = robust_kind_dev(test, ctx, *k);
	unsigned int i, lines;
	int ret;

	robust_snapshot(ctx->bystander, &by0);
	robust_snapshot(ctx->dev, &own0);
	for (i = 0; i < ARRAY_SIZE(robust_cells); i++) {
		if (robust_cells[i].pointers_only && *k > K_ERR_MAX)
			continue;
		robust_log_sync();
		ret = robust_cells[i].call(dev);
		lines = robust_log_lines();
		KUNIT_EXPECT_EQ_MSG(test, ret, robust_expected(&robust_cells[i], *k),
				    "%s on %s", robust_cells[i].name,
				    robust_kind_name[*k]);
		KUNIT_EXPECT_LE_MSG(test, lines, 1U,
				    "%s on %s logged %u lines: '%s' '%s'",
				    robust_cells[i].name, robust_kind_name[*k], lines,
				    robust_log_last[0], robust_log_last[1]);
		robust_snapshot(ctx->bystander, &by1);
		robust_expect_snap(test, &by1, &by0, robust_cells[i].name);
		robust_snapshot(ctx->dev, &own1);
		robust_expect_snap(test, &own1, &own0, robust_cells[i].name);
	}
}

/*
 * A populated table asked for what it does not have: frequencies 0 and
 * ULONG_MAX, a missing frequency next to present ones (the edges of the
 * bisection), every bad argument of the matrix, and duplicate or
 * conflicting adds at both ends of the table.
 */
static void robust_test_populated_misses(struct kunit *test)
{
	struct robust_ctx *ctx = test->priv;
	struct device *dev = ctx->dev;
	struct robust_snap s0, s1;
	unsigned long miss[] = {
		0, 1, robust_rate(0) - 1, robust_rate(0) + 1, robust_rate(NRATES - 1) + 1,
		ULONG_MAX,
	};
	unsigned long f;
	unsigned int i;

	robust_fill(test, dev, NRATES);
	KUNIT_ASSERT_EQ(test, opp_disable(dev, robust_rate(3)), 0);
	robust_snapshot(dev, &s0);
	for (i = 0; i < ARRAY_SIZE(miss); i++) {
		robust_log_sync();
		KUNIT_EXPECT_EQ(test, opp_enable(dev, miss[i]), -ENODEV);
		KUNIT_EXPECT_EQ(test, opp_disable(dev, miss[i]), -ENODEV);
		KUNIT_EXPECT_EQ(test, opp_remove(dev, miss[i]), -ENODEV);
		KUNIT_EXPECT_EQ(test, robust_bi_exact(dev, miss[i], true), -ERANGE);
		KUNIT_EXPECT_EQ(test, robust_bi_exact(dev, miss[i], false), -ERANGE);
		KUNIT_EXPECT_LE(test, robust_log_lines(), 1U);
	}
	/* A bad argument is refused on a populated table too. */
	for (i = 0; i < ARRAY_SIZE(robust_cells); i++) {
		if (!robust_cells[i].ignores_dev_kind)
			continue;
		robust_log_sync();
		KUNIT_EXPECT_EQ_MSG(test, robust_cells[i].call(dev), -EINVAL,
				    "%s on a populated table",
				    robust_cells[i].name);
		KUNIT_EXPECT_LE(test, robust_log_lines(), 1U);
	}
	/* The edges: ceil of 0 is the lowest, floor of ULONG_MAX the top. */
	rcu_read_lock();
	f = 0;
	KUNIT_EXPECT_EQ(test, opp_get_freq(opp_find_freq_ceil(dev, &f)),
			robust_rate(0));
	f = ULONG_MAX;
	KUNIT_EXPECT_EQ(test, opp_get_freq(opp_find_freq_floor(dev, &f)),
			robust_rate(NRATES - 1));
	f = robust_rate(NRATES - 1) + 1;
	KUNIT_EXPECT_PTR_EQ(test, opp_find_freq_ceil(dev, &f), ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, f, robust_rate(NRATES - 1) + 1);
	f = robust_rate(0) - 1;
	KUNIT_EXPECT_PTR_EQ(test, opp_find_freq_floor(dev, &f), ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, f, robust_rate(0) - 1);
	rcu_read_unlock();

	/* Duplicates at the first, a middle and the last index. */
	KUNIT_EXPECT_EQ(test, opp_add(dev, robust_rate(0),
				      robust_volt(robust_rate(0))), 0);
	KUNIT_EXPECT_EQ(test, opp_add(dev, robust_rate(NRATES - 1),
				      robust_volt(robust_rate(NRATES - 1))), 0);
	KUNIT_EXPECT_EQ(test, opp_add(dev, robust_rate(0), 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, opp_add(dev, robust_rate(NRATES - 1), 1), -EEXIST);
	/* Conflicting and identical adds of a disabled OPP: both refused. */
	KUNIT_EXPECT_EQ(test, opp_add(dev, robust_rate(3), 1), -EEXIST);
	KUNIT_EXPECT_EQ(test, opp_add(dev, robust_rate(3),
				      robust_volt(robust_rate(3))), -EEXIST);
	robust_snapshot(dev, &s1);
	robust_expect_snap(test, &s1, &s0, "misses");
}

/* Accessors on what is not an available OPP; no table is touched. */
static void robust_test_accessors(struct kunit *test)
{
	struct robust_ctx *ctx = test->priv;
	struct opp *bad[] = {
		NULL, ERR_PTR(-EINVAL), ERR_PTR(-MAX_ERRNO), ERR_PTR(-1),
		ERR_PTR(-ERANGE), ERR_PTR(-ENODEV),
	};
	struct opp *opp;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ(test, opp_get_freq(bad[i]), 0UL);
		KUNIT_EXPECT_EQ(test, opp_get_voltage(bad[i]), 0UL);
	}

	/*
	 * Found while available, disabled while the reader still holds it:
	 * the accessors now report nothing, and memory stays valid.
	 */
	robust_fill(test, ctx->dev, 2);
	rcu_read_lock();
	opp = opp_find_freq_exact(ctx->dev, robust_rate(1), true);
	KUNIT_ASSERT_FALSE(test, IS_ERR(opp));
	KUNIT_EXPECT_EQ(test, opp_get_voltage(opp), robust_volt(robust_rate(1)));
	rcu_read_unlock();
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, robust_rate(1)), 0);
	rcu_read_lock();
	opp = opp_find_freq_exact(ctx->dev, robust_rate(1), false);
	KUNIT_ASSERT_FALSE(test, IS_ERR(opp));
	KUNIT_EXPECT_EQ(test, opp_get_freq(opp), 0UL);
	KUNIT_EXPECT_EQ(test, opp_get_voltage(opp), 0UL);
	rcu_read_unlock();
}

static int robust_badinput_suite_init(struct kunit_suite *suite)
{
	kmsg_dump_rewind(&robust_log_iter);
	robust_log_sync();
	return 0;
}

static struct kunit_case robust_badinput_cases[] = {
	KUNIT_CASE_PARAM(robust_test_bad_device, robust_kind_gen_params),
	KUNIT_CASE(robust_test_populated_misses),
	KUNIT_CASE(robust_test_accessors),
	{}
};

static struct kunit_suite robust_badinput_suite = {
	.name = "opp_badinput",
	.suite_init = robust_badinput_suite_init,
	.init = robust_init,
	.exit = robust_exit,
	.test_cases = robust_badinput_cases,
};

/* ---- opp_release ---- */

/*
 * A device that went through device_add() and device_del(): once both its
 * owner and the library have let go, whichever order, it is released.
 */
static void robust_test_release_after_remove(struct kunit *test)
{
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev = fixture_dev_new(test, "opp-robust-reg", &released);

	KUNIT_ASSERT_EQ(test, device_add(dev), 0);
	robust_fill(test, dev, 3);
	KUNIT_EXPECT_EQ(test, opp_remove_table(dev), 0);
	device_unregister(dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 1);
}

static void robust_test_release_before_remove(struct kunit *test)
{
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev = fixture_dev_new(test, "opp-robust-reg2", &released);

	KUNIT_ASSERT_EQ(test, device_add(dev), 0);
	robust_fill(test, dev, 3);
	device_unregister(dev);
	/* The library's reference keeps it: no new device can take its place. */
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 0);
	KUNIT_EXPECT_EQ(test, fixture_count(dev), 3);
	KUNIT_EXPECT_EQ(test, opp_remove(dev, robust_rate(0)), 0);
	KUNIT_EXPECT_EQ(test, opp_remove_table(dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 1);
}

static struct kunit_case robust_release_cases[] = {
	KUNIT_CASE(robust_test_release_after_remove),
	KUNIT_CASE(robust_test_release_before_remove),
	{}
};

static struct kunit_suite robust_release_suite = {
	.name = "opp_release",
	.test_cases = robust_release_cases,
};

kunit_test_suites(&robust_fault_suite, &robust_badinput_suite,
		  &robust_release_suite);

MODULE_DESCRIPTION("Robustness tests of the OPP library: faults, bad input");
MODULE_LICENSE("GPL");
