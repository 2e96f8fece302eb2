// SPDX-License-Identifier: GPL-2.0-only
/*
 * Robustness of the OPP library, every unit's exports: allocation
 * failures, bad input, and the device reference at the end of a device's
 * life. Suites opp_faults, opp_badinput and opp_release.
 *
 * opp_faults fails each allocation of each updater path in turn through
 * the task's fail-nth (opp_test_fault_sweep(), the call made by
 * opp_test_call(); CONFIG_FAULT_INJECTION; failslab must not spare
 * sleeping allocations: the guest writes N to failslab/ignore-gfp-wait).
 * For every n, the n-th allocation the call makes fails; the call must
 * then either return -ENOMEM and leave everything a caller can observe
 * exactly as it was, or, when the failed allocation was a debug
 * facility's own that it recovers from (kmemleak's metadata, the
 * debug-objects pool), do what the call does without failure.
 *
 * What a caller can observe (struct robust_snap): every OPP of the
 * universe of rates the suite uses, with either availability, and its
 * voltage (disabled ones included); the count of available OPPs and of
 * all of them; the device's reference count; the events of a listener on
 * the table; and the table's lines in the debugfs view, which would show
 * an OPP at any other rate too. What the call must do comes from the
 * test's own model of the table (struct robust_model: a sorted array the
 * same calls update by the contract's rules), never from the library:
 * its return value, the table after it, and the events that take the
 * model from before to after, in rate order.
 *
 * The number of n that gave -ENOMEM must equal the number of the
 * library's allocation sites on that path:
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
 *   opp_of_add_table, v2 level table 3: the points, the array, the table
 *   opp_of_add_table, v2 prop_name   4: the property names
 *                                       (opp-micro{volt,amp,watt}-<name>,
 *                                       one allocation), the points, the
 *                                       array, the table
 *   opp_of_add_table, v2 bandwidths  3 + one per OPP: its extra (the
 *                                       bandwidth of each path)
 *   opp_of_add_table, required-opps  4 + one per OPP: the required
 *                                       tables, the points, the array,
 *                                       the table; each OPP's extra (its
 *                                       required-opps entries)
 *
 * Leaks: the kmemleak scan that the harness takes once every module is
 * unloaded covers every object these calls allocated; the device's
 * reference count, compared here, covers get_device().
 *
 * opp_badinput runs every export against every kind of bad or missing
 * input, and asserts the contract's error, that nothing changed (neither
 * the device's own state nor a bystander table, which must still match
 * its model and have told its listener nothing) and that the call logged
 * at most one line. What it does not run: an updater called from atomic
 * context. Every updater starts with might_sleep(), so with
 * CONFIG_DEBUG_ATOMIC_SLEEP the call prints "BUG: sleeping function
 * called from invalid context"; the harness proves that this fails a run
 * with opp_canary's sleep_in_atomic=1 boot, never in a passing run.
 *
 * opp_release proves that a device registered with the driver core and
 * unregistered after (or before) its table was removed is released: the
 * library keeps no stale reference; and that a configuration
 * (opp_set_config()) holds its device until it is cleared.
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

#include "opp_test_helpers.h"

#define NRATES		6

/*
 * The rates of the test devices; a rate's voltage is a function of it.
 * Their universe, every rate a case here adds or asks for (and each one's
 * upper neighbour), is what a snapshot probes.
 */
static unsigned long robust_rate(unsigned int i)
{
	return (i + 1) * 100 * HZ_PER_MHZ;
}

static unsigned long robust_volt(unsigned long rate)
{
	return 800000 + rate / 10000;
}

#define ROBUST_NUNIV	(2 * NRATES + 3)

static unsigned long robust_universe(unsigned int i)
{
	if (i == 0)
		return 1;
	if (i == 1)
		return robust_rate(0) - 1;
	if (i == ROBUST_NUNIV - 1)
		return ULONG_MAX;
	i -= 2;
	return robust_rate(i / 2) + i % 2;
}

struct robust_opp {
	unsigned long rate;
	unsigned long u_volt;
	bool available;
};

/*
 * The test's own model of a table: what the contract says the library
 * holds, kept sorted by the same calls, never read back from the library.
 * No OPP is no table.
 */
struct robust_model {
	unsigned int n;
	struct robust_opp opp[ROBUST_NUNIV];
};

static int robust_model_find(const struct robust_model *m, unsigned long rate)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->opp[i].rate == rate)
			return i;
	return -1;
}

/* opp_add()'s rule: new, identical (nothing to do), or a conflict. */
static int robust_model_check_add(const struct robust_model *m,
				  unsigned long rate, unsigned long u_volt)
{
	int i = robust_model_find(m, rate);

	if (i < 0)
		return 1;
	return m->opp[i].u_volt == u_volt && m->opp[i].available ? 0 : -EEXIST;
}

static void robust_model_insert(struct robust_model *m, unsigned long rate,
				unsigned long u_volt)
{
	unsigned int i = m->n;

	while (i && m->opp[i - 1].rate > rate) {
		m->opp[i] = m->opp[i - 1];
		i--;
	}
	m->opp[i] = (struct robust_opp){ rate, u_volt, true };
	m->n++;
}

static int robust_model_add(struct robust_model *m, unsigned long rate,
			    unsigned long u_volt)
{
	int ret = robust_model_check_add(m, rate, u_volt);

	if (ret > 0)
		robust_model_insert(m, rate, u_volt);
	return ret > 0 ? 0 : ret;
}

static int robust_model_remove(struct robust_model *m, unsigned long rate)
{
	int i = robust_model_find(m, rate);

	if (i < 0)
		return -ENODEV;
	m->n--;
	memmove(&m->opp[i], &m->opp[i + 1], (m->n - i) * sizeof(m->opp[0]));
	return 0;
}

static int robust_model_set(struct robust_model *m, unsigned long rate,
			    bool available)
{
	int i = robust_model_find(m, rate);

	if (i < 0)
		return -ENODEV;
	m->opp[i].available = available;
	return 0;
}

struct robust_event {
	unsigned long event;
	struct opp_info info;
};

#define ROBUST_MAX_EVENTS	16

/* A notifier that records what it is told. */
struct robust_listener {
	struct notifier_block nb;
	unsigned int n;
	struct robust_event ev[ROBUST_MAX_EVENTS];
};

static int robust_listen(struct notifier_block *nb, unsigned long event,
			 void *data)
{
	struct robust_listener *l = container_of(nb, struct robust_listener, nb);
	const struct opp_info *info = data;

	if (l->n < ROBUST_MAX_EVENTS)
		l->ev[l->n] = (struct robust_event){ event, *info };
	l->n++;
	return NOTIFY_OK;
}

/*
 * The events that take a table from @a to @b, in rate order (the order in
 * which the library walks its array): what a listener must be told.
 */
static unsigned int robust_model_events(const struct robust_model *a,
					const struct robust_model *b,
					struct robust_event *ev)
{
	unsigned int i = 0, j = 0, n = 0;
	const struct robust_opp *o;
	unsigned long event;

	while (i < a->n || j < b->n) {
		if (j == b->n || (i < a->n && a->opp[i].rate < b->opp[j].rate)) {
			o = &a->opp[i++];
			event = OPP_EVENT_REMOVE;
		} else if (i == a->n || b->opp[j].rate < a->opp[i].rate) {
			o = &b->opp[j++];
			event = OPP_EVENT_ADD;
		} else {
			o = &b->opp[j];
			event = o->available ? OPP_EVENT_ENABLE : OPP_EVENT_DISABLE;
			if (a->opp[i++].available == b->opp[j++].available)
				continue;
		}
		if (n < ROBUST_MAX_EVENTS)
			ev[n] = (struct robust_event){
				.event = event,
				.info = {
					.rate = o->rate,
					.u_volt = o->u_volt,
					.available = o->available,
				},
			};
		n++;
	}
	return n;
}

struct robust_ctx {
	struct device *dev;		/* the device under test */
	struct device *bystander;	/* a populated table that must not move */
	struct robust_model model;	/* what dev's table must hold */
	struct robust_model by_model;	/* and the bystander's */
	struct robust_listener listener;	/* on dev's table, if watching */
	bool watching;
	struct robust_listener by_listener;	/* on the bystander's */
	unsigned int refs;		/* dev's references without a table */
	atomic_t released;
};

/* The first @n rates into @dev's table. */
static void robust_fill(struct kunit *test, struct device *dev, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, opp_add(dev, robust_rate(i),
					      robust_volt(robust_rate(i))), 0);
}

/* The same, into a table and its model. */
static void robust_model_fill(struct kunit *test, struct device *dev,
			      struct robust_model *m, unsigned int n)
{
	unsigned int i;

	robust_fill(test, dev, n);
	for (i = 0; i < n; i++)
		robust_model_add(m, robust_rate(i), robust_volt(robust_rate(i)));
}

static int robust_init(struct kunit *test)
{
	struct robust_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	atomic_set(&ctx->released, 0);
	test->priv = ctx;
	ctx->dev = opp_test_fixture_dev_new(test, "opp-robust-dut", &ctx->released);
	ctx->refs = kref_read(&ctx->dev->kobj.kref);
	ctx->bystander = opp_test_fixture_dev_new(test, "opp-robust-bystander",
						  &ctx->released);
	robust_model_fill(test, ctx->bystander, &ctx->by_model, NRATES);
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->bystander, robust_rate(2)), 0);
	robust_model_set(&ctx->by_model, robust_rate(2), false);
	ctx->listener.nb.notifier_call = robust_listen;
	ctx->by_listener.nb.notifier_call = robust_listen;
	KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->bystander,
						    &ctx->by_listener.nb), 0);
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

/* The library's debugfs view (opp_test_fixture_debugfs_lines()). */
#define ROBUST_VIEW	"/sys/kernel/debug/opp_library/tables"
#define ROBUST_VIEW_MAX	(4 * ROBUST_NUNIV)

struct robust_view_ctx {
	struct device *dev;
	struct robust_opp *v;
	int n;
};

/* A line of the view: one of the device's OPPs into the context. */
static int robust_view_line(char *line, void *arg)
{
	struct robust_view_ctx *c = arg;
	char name[32], avail[4];
	struct robust_opp o;

	if (sscanf(line, "%31s %lu %lu %3s", name, &o.rate, &o.u_volt,
		   avail) != 4 || strcmp(name, dev_name(c->dev)))
		return 0;
	if (c->n == ROBUST_VIEW_MAX)
		return -E2BIG;
	o.available = !strcmp(avail, "yes");
	c->v[c->n++] = o;
	return 0;
}

/* @dev's lines of the view, parsed into @v; their number or -errno. */
static int robust_view(struct device *dev, struct robust_opp *v)
{
	struct robust_view_ctx c = { .dev = dev, .v = v };
	int ret = opp_test_fixture_debugfs_lines(ROBUST_VIEW, robust_view_line, &c);

	return ret ?: c.n;
}

/*
 * Everything a caller can observe of a device's table: each OPP of the
 * universe, found by opp_lookup_exact() (opp_find_freq_exact() copied
 * out) with either availability, so that a disabled OPP's voltage shows
 * too; the count of available OPPs; the device's reference count; the
 * events its listener got; and the table's lines in the debugfs view,
 * which would also show an OPP outside the universe.
 */
struct robust_snap {
	int count;		/* opp_get_opp_count(), or its error */
	unsigned int refs;
	unsigned int events;
	unsigned int n;		/* OPPs found, either availability */
	struct robust_opp opp[ROBUST_NUNIV];
	int nview;		/* lines in the view, or its error */
	struct robust_opp view[ROBUST_VIEW_MAX];
};

static void robust_snapshot(struct device *dev, struct robust_listener *l,
			    struct robust_snap *s)
{
	struct opp_info info;
	unsigned long rate;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->refs = kref_read(&dev->kobj.kref);
	s->events = l ? l->n : 0;
	s->count = opp_test_fixture_count(dev);
	for (i = 0; i < ROBUST_NUNIV; i++) {
		rate = robust_universe(i);
		if (opp_lookup_exact(dev, rate, true, &info) &&
		    opp_lookup_exact(dev, rate, false, &info))
			continue;
		s->opp[s->n++] = (struct robust_opp){
			info.rate, info.u_volt, info.available,
		};
	}
	s->nview = robust_view(dev, s->view);
}

static void robust_expect_opps(struct kunit *test, const char *what,
			       const char *whose, unsigned int n,
			       const struct robust_opp *a,
			       const struct robust_opp *b)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, a[i].rate, b[i].rate,
				    "%s: %s OPP %u rate", what, whose, i);
		KUNIT_EXPECT_EQ_MSG(test, a[i].u_volt, b[i].u_volt,
				    "%s: %s OPP %u voltage", what, whose, i);
		KUNIT_EXPECT_EQ_MSG(test, a[i].available, b[i].available,
				    "%s: %s OPP %u availability", what, whose, i);
	}
}

/* Nothing observable changed between @a and @b. */
static void robust_expect_snap(struct kunit *test,
			       const struct robust_snap *a,
			       const struct robust_snap *b, const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, a->count, b->count, "%s: count", what);
	KUNIT_EXPECT_EQ_MSG(test, a->refs, b->refs, "%s: device refs", what);
	KUNIT_EXPECT_EQ_MSG(test, a->events, b->events, "%s: events", what);
	KUNIT_EXPECT_EQ_MSG(test, a->n, b->n, "%s: OPPs", what);
	KUNIT_EXPECT_EQ_MSG(test, a->nview, b->nview, "%s: debugfs lines", what);
	robust_expect_opps(test, what, "found", min(a->n, b->n), a->opp, b->opp);
	if (a->nview > 0 && a->nview == b->nview)
		robust_expect_opps(test, what, "debugfs", a->nview, a->view,
				   b->view);
}

/* @s shows what @m holds, with @refs references on the device without it. */
static void robust_expect_model(struct kunit *test, const struct robust_snap *s,
				const struct robust_model *m, unsigned int refs,
				const char *what)
{
	unsigned int i;
	int avail = 0;

	for (i = 0; i < m->n; i++)
		avail += m->opp[i].available;
	KUNIT_EXPECT_EQ_MSG(test, s->count, m->n ? avail : -ENODEV,
			    "%s: count", what);
	KUNIT_EXPECT_EQ_MSG(test, s->refs, refs + !!m->n, "%s: device refs",
			    what);
	KUNIT_EXPECT_EQ_MSG(test, s->n, m->n, "%s: OPPs", what);
	KUNIT_EXPECT_EQ_MSG(test, s->nview, (int)m->n, "%s: debugfs lines",
			    what);
	robust_expect_opps(test, what, "found", min(s->n, m->n), s->opp, m->opp);
	if (s->nview == (int)m->n)
		robust_expect_opps(test, what, "debugfs", m->n, s->view, m->opp);
}

/* @l got exactly the events that take @a to @b, since it had @from. */
static void robust_expect_events(struct kunit *test,
				 const struct robust_listener *l,
				 unsigned int from, const struct robust_model *a,
				 const struct robust_model *b, const char *what)
{
	/* On the heap: KASAN's redzones push it past a frame on x86_64. */
	struct robust_event *want = kunit_kcalloc(test, ROBUST_MAX_EVENTS,
						  sizeof(*want), GFP_KERNEL);
	const struct robust_event *got = &l->ev[from];
	unsigned int i, n;

	KUNIT_ASSERT_NOT_NULL(test, want);
	n = robust_model_events(a, b, want);
	KUNIT_ASSERT_LE(test, from + n, (unsigned int)ROBUST_MAX_EVENTS);
	KUNIT_EXPECT_EQ_MSG(test, l->n - from, n, "%s: events", what);
	for (i = 0; i < min(n, l->n - from); i++) {
		KUNIT_EXPECT_EQ_MSG(test, got[i].event, want[i].event,
				    "%s: event %u", what, i);
		KUNIT_EXPECT_EQ_MSG(test, got[i].info.rate, want[i].info.rate,
				    "%s: event %u rate", what, i);
		KUNIT_EXPECT_EQ_MSG(test, got[i].info.u_volt,
				    want[i].info.u_volt,
				    "%s: event %u voltage", what, i);
		KUNIT_EXPECT_EQ_MSG(test, got[i].info.available,
				    want[i].info.available,
				    "%s: event %u availability", what, i);
	}
	kunit_kfree(test, want);
}

/* ---- opp_faults ---- */

/* The rates the device tree node of the fault paths lists, unsorted. */
static const unsigned int robust_of_idx[] = { 5, 0, 4 };

/*
 * A call that may fail an allocation (one of opp_test_call()'s), and the
 * state it starts from: the first @fill rates, @disabled (an index + 1,
 * or 0) disabled, a device tree node if @of, another notifier on the
 * table if @second_nb.
 */
struct robust_fault_path {
	const char *name;
	unsigned int fill;
	unsigned int disabled;
	bool of;
	bool second_nb;
	enum opp_test_op op;
	unsigned int idx;	/* the rate @op works on */
	unsigned int sites;	/* allocation sites of the library's own */
};

static int robust_nb_call(struct notifier_block *nb, unsigned long event,
			  void *data)
{
	return NOTIFY_OK;
}

static struct notifier_block robust_nb = { .notifier_call = robust_nb_call };
static struct notifier_block robust_nb2 = { .notifier_call = robust_nb_call };

static void robust_attach_of(struct kunit *test, struct device *dev)
{
	u32 cells[2 * ARRAY_SIZE(robust_of_idx)];
	unsigned long rate;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(robust_of_idx); i++) {
		rate = robust_rate(robust_of_idx[i]);
		cells[2 * i] = rate / HZ_PER_KHZ;
		cells[2 * i + 1] = robust_volt(rate);
	}
	opp_test_fixture_of_attach(test, dev, cells, ARRAY_SIZE(cells));
}

/*
 * The call, on the library: a cpufreq table must list @m's available
 * OPPs, and a failed registration leave no notifier behind.
 */
static int robust_call(const struct robust_fault_path *p, struct device *dev,
		       const struct robust_model *m)
{
	unsigned long rate = robust_rate(p->idx), rates[ROBUST_NUNIV];
	struct opp_test_call c = {
		.op = p->op,
		.rate = rate,
		.u_volt = robust_volt(rate),
		.nb = &robust_nb,
		.rates = rates,
	};
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->opp[i].available)
			rates[c.nr_rates++] = m->opp[i].rate;
	return opp_test_call(dev, &c);
}

/* The same call, on the model: what the contract says it returns. */
static int robust_model_call(const struct robust_fault_path *p,
			     struct robust_model *m)
{
	unsigned long rate = robust_rate(p->idx);
	unsigned int i;
	int ret;

	switch (p->op) {
	case OPP_TEST_ADD:
		return robust_model_add(m, rate, robust_volt(rate));
	case OPP_TEST_REMOVE:
		return robust_model_remove(m, rate);
	case OPP_TEST_REMOVE_TABLE:
		ret = m->n ? 0 : -ENODEV;
		m->n = 0;
		return ret;
	case OPP_TEST_ENABLE:
	case OPP_TEST_DISABLE:
		return robust_model_set(m, rate, p->op == OPP_TEST_ENABLE);
	case OPP_TEST_CPUFREQ:
	case OPP_TEST_REGISTER:
		return m->n ? 0 : -ENODEV;
	default:
		/* All or nothing: check every point before adding any. */
		for (i = 0; i < ARRAY_SIZE(robust_of_idx); i++) {
			rate = robust_rate(robust_of_idx[i]);
			ret = robust_model_check_add(m, rate, robust_volt(rate));
			if (ret < 0)
				return ret;
		}
		for (i = 0; i < ARRAY_SIZE(robust_of_idx); i++) {
			rate = robust_rate(robust_of_idx[i]);
			robust_model_add(m, rate, robust_volt(rate));
		}
		return 0;
	}
}

/*
 * Bring ctx->dev and its model to the path's starting state and, where
 * the table exists and the call is not the first registration (a
 * listener's own registration would take that allocation), watch it.
 */
static void robust_setup(struct kunit *test, struct robust_ctx *ctx,
			 const struct robust_fault_path *p)
{
	unsigned long rate;

	ctx->model.n = 0;
	if (p->of)
		robust_attach_of(test, ctx->dev);
	robust_model_fill(test, ctx->dev, &ctx->model, p->fill);
	if (p->disabled) {
		rate = robust_rate(p->disabled - 1);
		KUNIT_ASSERT_EQ(test, opp_disable(ctx->dev, rate), 0);
		robust_model_set(&ctx->model, rate, false);
	}
	if (p->second_nb)
		KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev,
							    &robust_nb2), 0);
	ctx->listener.n = 0;
	ctx->watching = p->fill && !(p->op == OPP_TEST_REGISTER && !p->second_nb);
	if (ctx->watching)
		KUNIT_ASSERT_EQ(test, opp_register_notifier(ctx->dev,
							    &ctx->listener.nb),
				0);
}

static const struct robust_fault_path robust_fault_paths[] = {
	{ "add first", .op = OPP_TEST_ADD, .sites = 2 },
	{ "add insert", 3, .op = OPP_TEST_ADD, .idx = 4, .sites = 1 },
	{ "add identical", 3, .op = OPP_TEST_ADD, .idx = 1 },
	{ "remove middle", 3, .op = OPP_TEST_REMOVE, .idx = 1, .sites = 1 },
	{ "remove last", 1, .op = OPP_TEST_REMOVE },
	{ "remove table", 3, 2, .op = OPP_TEST_REMOVE_TABLE },
	{ "disable", 3, .op = OPP_TEST_DISABLE, .idx = 2 },
	{ "enable", 3, 3, .op = OPP_TEST_ENABLE, .idx = 2 },
	{ "cpufreq table", 3, 2, .op = OPP_TEST_CPUFREQ, .sites = 1 },
	{ "register notifier", 3, .op = OPP_TEST_REGISTER, .sites = 1 },
	{ "register second notifier", 3, .second_nb = true, .op = OPP_TEST_REGISTER },
	{ "of table, first", .of = true, .op = OPP_TEST_OF_ADD_TABLE, .sites = 4 },
	{ "of table, into a table", 3, .of = true, .op = OPP_TEST_OF_ADD_TABLE, .sites = 3 },
};

static void robust_fault_desc(const struct robust_fault_path *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(robust_fault, robust_fault_paths, robust_fault_desc);

/* A fault path's sweep (opp_test_fault_sweep()): its state and its judge. */
struct robust_path_sweep {
	struct robust_ctx *ctx;
	const struct robust_fault_path *p;
	struct robust_snap *before;
	struct robust_snap *after;
	struct robust_model *want;	/* the model after the call */
	int want_ret;			/* and what the call returns */
};

/* The path's starting state, what the call must do from it, a snapshot. */
static void robust_path_setup(struct kunit *test, void *arg)
{
	struct robust_path_sweep *w = arg;
	struct robust_ctx *ctx = w->ctx;

	robust_setup(test, ctx, w->p);
	*w->want = ctx->model;
	w->want_ret = robust_model_call(w->p, w->want);
	robust_snapshot(ctx->dev, &ctx->listener, w->before);
	robust_expect_model(test, w->before, &ctx->model, ctx->refs, "setup");
}

static int robust_path_call(struct kunit *test, void *arg)
{
	struct robust_path_sweep *w = arg;

	return robust_call(w->p, w->ctx->dev, &w->ctx->model);
}

/*
 * -ENOMEM must leave everything as it was, nothing told; any other
 * outcome must be the model's, result and events included.
 */
static void robust_path_judge(struct kunit *test, void *arg, unsigned int nth,
			      int ret, bool failed)
{
	struct robust_path_sweep *w = arg;
	struct robust_ctx *ctx = w->ctx;

	robust_snapshot(ctx->dev, &ctx->listener, w->after);
	if (failed) {
		robust_expect_snap(test, w->after, w->before, w->p->name);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, w->want_ret, "%s, allocation %u",
			    w->p->name, nth);
	robust_expect_model(test, w->after, w->want, ctx->refs, w->p->name);
	if (ctx->watching)
		robust_expect_events(test, &ctx->listener, 0, &ctx->model,
				     w->want, w->p->name);
}

/* After each call: no node, no table. */
static void robust_undo(struct robust_ctx *ctx)
{
	ctx->dev->of_node = NULL;
	opp_remove_table(ctx->dev);
}

static void robust_path_teardown(struct kunit *test, void *arg)
{
	struct robust_path_sweep *w = arg;

	robust_undo(w->ctx);
}

/* Each allocation of the path's call failed in turn, the sites counted. */
static void opp_faults_path(struct kunit *test)
{
	const struct robust_fault_path *p = test->param_value;
	const struct opp_test_sweep sweep = {
		.name = p->name,
		.sites = p->sites,
		.setup = robust_path_setup,
		.call = robust_path_call,
		.judge = robust_path_judge,
		.teardown = robust_path_teardown,
	};
	struct robust_path_sweep w = { .ctx = test->priv, .p = p };

	w.before = kunit_kzalloc(test, sizeof(*w.before), GFP_KERNEL);
	w.after = kunit_kzalloc(test, sizeof(*w.after), GFP_KERNEL);
	w.want = kunit_kzalloc(test, sizeof(*w.want), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w.before);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w.after);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w.want);
	opp_test_fault_sweep(test, &sweep, &w);
	/* The bystander never moved, and was told nothing. */
	robust_snapshot(w.ctx->bystander, &w.ctx->by_listener, w.after);
	robust_expect_model(test, w.after, &w.ctx->by_model, w.ctx->refs,
			    "bystander");
	KUNIT_EXPECT_EQ(test, w.after->events, 0U);
}

/*
 * Fault injection must be live, or every count above would be vacuous: a
 * plain kmalloc() made with fail-nth 1 must fail.
 */
static void opp_faults_injection_live(struct kunit *test)
{
	KUNIT_EXPECT_TRUE_MSG(test, opp_test_fault_injection_live(),
			      "failslab spares GFP_KERNEL: write N to failslab/ignore-gfp-wait");
}

/*
 * operating-points-v2 tables of the opp_of_v2 overlay (selftest/
 * opp_of_v2.dtso) whose OPPs say more than a rate and a voltage: each
 * allocation of their parse failed in turn. The library's sites: the
 * points, one extra per OPP that gives a bandwidth, the OPP array, the
 * table.
 */
struct robust_of_v2_path {
	const char *node;
	int count;		/* available OPPs once read */
	unsigned int sites;
	const char *prop_name;	/* given to opp_set_config() first */
};

static const struct robust_of_v2_path robust_of_v2_paths[] = {
	/* The property names, the points, the array, the table. */
	{ "good-prop-name", 2, 4, "slow" },
	{ "good-level", 4, 3 },
	{ "good-bw", 3, 6 },
	{ "good-bw-two-paths", 3, 6 },
	/* Its providers' tables not read: the required tables, pending. */
	{ "good-required", 3, 7 },
};

static void robust_of_v2_desc(const struct robust_of_v2_path *p, char *desc)
{
	strscpy(desc, p->node, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(robust_of_v2, robust_of_v2_paths, robust_of_v2_desc);

/* A v2 node's sweep: the device, the node, the device's references. */
struct robust_v2_sweep {
	struct robust_ctx *ctx;
	const struct robust_of_v2_path *p;
	struct device_node *np;
	unsigned int refs;
};

static void robust_v2_setup(struct kunit *test, void *arg)
{
	struct robust_v2_sweep *w = arg;

	w->ctx->dev->of_node = w->np;
}

static int robust_v2_call(struct kunit *test, void *arg)
{
	struct robust_v2_sweep *w = arg;
	const struct opp_test_call c = { .op = OPP_TEST_OF_ADD_TABLE };

	return opp_test_call(w->ctx->dev, &c);
}

static void robust_v2_teardown(struct kunit *test, void *arg)
{
	struct robust_v2_sweep *w = arg;

	robust_undo(w->ctx);
}

/*
 * -ENOMEM must leave no table and the device's references as they were;
 * any other outcome is the whole table.
 */
static void robust_v2_judge(struct kunit *test, void *arg, unsigned int nth,
			    int ret, bool failed)
{
	struct robust_v2_sweep *w = arg;
	struct device *dev = w->ctx->dev;

	if (failed) {
		KUNIT_EXPECT_EQ_MSG(test, opp_test_fixture_count(dev), -ENODEV,
				    "%s, allocation %u", w->p->node, nth);
		KUNIT_EXPECT_EQ_MSG(test, kref_read(&dev->kobj.kref), w->refs,
				    "%s, allocation %u", w->p->node, nth);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s, allocation %u", w->p->node, nth);
	KUNIT_EXPECT_EQ_MSG(test, opp_test_fixture_count(dev), w->p->count,
			    "%s, allocation %u", w->p->node, nth);
}

/* As opp_faults_path(), on a v2 node of the overlay. */
static void opp_faults_of_v2(struct kunit *test)
{
	const struct robust_of_v2_path *p = test->param_value;
	const struct opp_test_sweep sweep = {
		.name = p->node,
		.sites = p->sites,
		.setup = robust_v2_setup,
		.call = robust_v2_call,
		.judge = robust_v2_judge,
		.teardown = robust_v2_teardown,
	};
	struct opp_config cfg = { .prop_name = p->prop_name };
	struct robust_v2_sweep w = { .ctx = test->priv, .p = p };
	struct robust_ctx *ctx = w.ctx;
	struct robust_snap *after;
	char path[64];

	after = kunit_kzalloc(test, sizeof(*after), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, after);
	snprintf(path, sizeof(path), "/opp-of-v2/%s", p->node);
	w.np = of_find_node_by_path(path);
	KUNIT_ASSERT_NOT_NULL_MSG(test, w.np, "no %s in the live tree", path);
	/* The configuration outlives each table: made once, cleared after. */
	if (p->prop_name)
		KUNIT_EXPECT_EQ(test, opp_set_config(ctx->dev, &cfg), 0);
	w.refs = kref_read(&ctx->dev->kobj.kref);
	opp_test_fault_sweep(test, &sweep, &w);
	opp_clear_config(ctx->dev);
	of_node_put(w.np);
	robust_snapshot(ctx->bystander, &ctx->by_listener, after);
	robust_expect_model(test, after, &ctx->by_model, ctx->refs, "bystander");
	KUNIT_EXPECT_EQ(test, after->events, 0U);
}

static struct kunit_case robust_fault_cases[] = {
	KUNIT_CASE(opp_faults_injection_live),
	KUNIT_CASE_PARAM(opp_faults_path, robust_fault_gen_params),
	KUNIT_CASE_PARAM(opp_faults_of_v2, robust_of_v2_gen_params),
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
	pr_debug("opp_robust_test: log mark\n");
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
	return robust_ptr_ret(opp_test_fixture_find(dev, avail ? FIXTURE_EXACT :
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

static int robust_bi_ceil_null(struct device *dev)
{
	int ret;

	rcu_read_lock();
	ret = robust_ptr_ret(opp_find_freq_ceil(dev, NULL));
	rcu_read_unlock();
	return ret;
}

static int robust_bi_floor_null(struct device *dev)
{
	int ret;

	rcu_read_lock();
	ret = robust_ptr_ret(opp_find_freq_floor(dev, NULL));
	rcu_read_unlock();
	return ret;
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

/* A level search from @l (ceil, floor, or exact); *level untouched on error. */
static int robust_bi_level(struct device *dev, enum fixture_how how,
			   unsigned int l)
{
	unsigned int level = l;
	int ret;

	rcu_read_lock();
	if (how == FIXTURE_CEIL)
		ret = robust_ptr_ret(opp_find_level_ceil(dev, &level));
	else if (how == FIXTURE_FLOOR)
		ret = robust_ptr_ret(opp_find_level_floor(dev, &level));
	else
		ret = robust_ptr_ret(opp_find_level_exact(dev, l));
	rcu_read_unlock();
	return ret || level == l ? ret : -EFAULT;
}

static int robust_bi_level_exact_0(struct device *dev)
{
	return robust_bi_level(dev, FIXTURE_EXACT, 0);
}

static int robust_bi_level_ceil_0(struct device *dev)
{
	return robust_bi_level(dev, FIXTURE_CEIL, 0);
}

static int robust_bi_level_floor_max(struct device *dev)
{
	return robust_bi_level(dev, FIXTURE_FLOOR, U32_MAX);
}

/* A bandwidth search of path 0 from @b; *bw untouched on error. */
static int robust_bi_bw(struct device *dev, bool ceil, unsigned int b)
{
	unsigned int bw = b;
	int ret;

	rcu_read_lock();
	ret = robust_ptr_ret(ceil ? opp_find_bw_ceil(dev, &bw, 0) :
			     opp_find_bw_floor(dev, &bw, 0));
	rcu_read_unlock();
	return ret || bw == b ? ret : -EFAULT;
}

static int robust_bi_bw_ceil_0(struct device *dev)
{
	return robust_bi_bw(dev, true, 0);
}

static int robust_bi_bw_floor_max(struct device *dev)
{
	return robust_bi_bw(dev, false, U32_MAX);
}

/* The level and bandwidth searches with a NULL in-out argument. */
static int robust_bi_key_null(struct device *dev, int which)
{
	struct opp *opp;

	rcu_read_lock();
	if (which == 0)
		opp = opp_find_level_ceil(dev, NULL);
	else if (which == 1)
		opp = opp_find_level_floor(dev, NULL);
	else if (which == 2)
		opp = opp_find_bw_ceil(dev, NULL, 0);
	else
		opp = opp_find_bw_floor(dev, NULL, 0);
	rcu_read_unlock();
	return robust_ptr_ret(opp);
}

static int robust_bi_level_ceil_null(struct device *dev)
{
	return robust_bi_key_null(dev, 0);
}

static int robust_bi_level_floor_null(struct device *dev)
{
	return robust_bi_key_null(dev, 1);
}

static int robust_bi_bw_ceil_null(struct device *dev)
{
	return robust_bi_key_null(dev, 2);
}

static int robust_bi_bw_floor_null(struct device *dev)
{
	return robust_bi_key_null(dev, 3);
}

/* A level or bandwidth lookup: @info untouched on error. */
static int robust_bi_lookup_key(struct device *dev, int which)
{
	struct opp_info info = { .rate = 1 };
	int ret;

	if (which == 0)
		ret = opp_lookup_level_exact(dev, 0, &info);
	else if (which == 1)
		ret = opp_lookup_level_ceil(dev, 0, &info);
	else if (which == 2)
		ret = opp_lookup_level_floor(dev, U32_MAX, &info);
	else if (which == 3)
		ret = opp_lookup_bw_ceil(dev, 0, 0, &info);
	else
		ret = opp_lookup_bw_floor(dev, U32_MAX, 0, &info);
	return ret && info.rate != 1 ? -EFAULT : ret;
}

static int robust_bi_lookup_level_exact(struct device *dev)
{
	return robust_bi_lookup_key(dev, 0);
}

static int robust_bi_lookup_level_ceil(struct device *dev)
{
	return robust_bi_lookup_key(dev, 1);
}

static int robust_bi_lookup_level_floor(struct device *dev)
{
	return robust_bi_lookup_key(dev, 2);
}

static int robust_bi_lookup_bw_ceil(struct device *dev)
{
	return robust_bi_lookup_key(dev, 3);
}

static int robust_bi_lookup_bw_floor(struct device *dev)
{
	return robust_bi_lookup_key(dev, 4);
}

/* NULL info: -EINVAL before anything is looked at, silently. */
static int robust_bi_lookup_keys_null(struct device *dev)
{
	int a = opp_lookup_level_exact(dev, 0, NULL);
	int b = opp_lookup_level_ceil(dev, 0, NULL);
	int c = opp_lookup_level_floor(dev, U32_MAX, NULL);
	int d = opp_lookup_bw_ceil(dev, 0, 0, NULL);
	int e = opp_lookup_bw_floor(dev, U32_MAX, 0, NULL);

	return a == b && b == c && c == d && d == e ? a : -EFAULT;
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
	{ "opp_find_freq_ceil(NULL)", robust_bi_ceil_null, true },
	{ "opp_find_freq_floor(NULL)", robust_bi_floor_null, true },
	{ "opp_get_opp_count", opp_test_fixture_count },
	{ "opp_init_cpufreq_table", robust_bi_cpufreq },
	{ "opp_init_cpufreq_table(NULL)", robust_bi_cpufreq_null, true },
	{ "opp_free_cpufreq_table", robust_bi_free_cpufreq, false, true },
	{ "opp_lookup_ceil(0)", robust_bi_lookup_ceil_0 },
	{ "opp_lookup_floor(ULONG_MAX)", robust_bi_lookup_floor_max },
	{ "opp_lookup_exact(ULONG_MAX, false)", robust_bi_lookup_exact_max },
	{ "opp_lookup_*(NULL info)", robust_bi_lookup_null, true },
	{ "opp_find_level_exact(0)", robust_bi_level_exact_0 },
	{ "opp_find_level_ceil(0)", robust_bi_level_ceil_0 },
	{ "opp_find_level_floor(U32_MAX)", robust_bi_level_floor_max },
	{ "opp_find_bw_ceil(0, 0)", robust_bi_bw_ceil_0 },
	{ "opp_find_bw_floor(U32_MAX, 0)", robust_bi_bw_floor_max },
	{ "opp_find_level_ceil(NULL)", robust_bi_level_ceil_null, true },
	{ "opp_find_level_floor(NULL)", robust_bi_level_floor_null, true },
	{ "opp_find_bw_ceil(NULL)", robust_bi_bw_ceil_null, true },
	{ "opp_find_bw_floor(NULL)", robust_bi_bw_floor_null, true },
	{ "opp_lookup_level_exact(0)", robust_bi_lookup_level_exact },
	{ "opp_lookup_level_ceil(0)", robust_bi_lookup_level_ceil },
	{ "opp_lookup_level_floor(U32_MAX)", robust_bi_lookup_level_floor },
	{ "opp_lookup_bw_ceil(0, 0)", robust_bi_lookup_bw_ceil },
	{ "opp_lookup_bw_floor(U32_MAX, 0)", robust_bi_lookup_bw_floor },
	{ "opp_lookup_{level,bw}_*(NULL info)", robust_bi_lookup_keys_null, true },
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

static void opp_badinput_bad_device(struct kunit *test)
{
	const enum robust_kind *k = test->param_value;
	struct robust_ctx *ctx = test->priv;
	struct device *dev = robust_kind_dev(test, ctx, *k);
	struct robust_snap *own0, *snap;
	unsigned int i, lines;
	int ret;

	own0 = kunit_kzalloc(test, sizeof(*own0), GFP_KERNEL);
	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, own0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, snap);
	robust_snapshot(ctx->dev, NULL, own0);
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
		robust_snapshot(ctx->bystander, &ctx->by_listener, snap);
		robust_expect_model(test, snap, &ctx->by_model, ctx->refs,
				    robust_cells[i].name);
		KUNIT_EXPECT_EQ(test, snap->events, 0U);
		robust_snapshot(ctx->dev, NULL, snap);
		robust_expect_snap(test, snap, own0, robust_cells[i].name);
	}
}

/*
 * A populated table asked for what it does not have: frequencies 0 and
 * ULONG_MAX, a missing frequency next to present ones (the edges of the
 * bisection), every bad argument of the matrix, and duplicate or
 * conflicting adds at both ends of the table.
 */
static void opp_badinput_populated_misses(struct kunit *test)
{
	struct robust_ctx *ctx = test->priv;
	struct device *dev = ctx->dev;
	struct robust_snap *snap;
	unsigned long miss[] = {
		0, 1, robust_rate(0) - 1, robust_rate(0) + 1, robust_rate(NRATES - 1) + 1,
		ULONG_MAX,
	};
	struct fixture_found f;
	unsigned int i;

	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, snap);
	robust_model_fill(test, dev, &ctx->model, NRATES);
	KUNIT_ASSERT_EQ(test, opp_disable(dev, robust_rate(3)), 0);
	robust_model_set(&ctx->model, robust_rate(3), false);
	KUNIT_ASSERT_EQ(test, opp_register_notifier(dev, &ctx->listener.nb), 0);
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
	f = opp_test_fixture_find(dev, FIXTURE_CEIL, 0);
	KUNIT_EXPECT_EQ(test, f.rate, robust_rate(0));
	f = opp_test_fixture_find(dev, FIXTURE_FLOOR, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, f.rate, robust_rate(NRATES - 1));
	f = opp_test_fixture_find(dev, FIXTURE_CEIL, robust_rate(NRATES - 1) + 1);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, f.freq, robust_rate(NRATES - 1) + 1);
	f = opp_test_fixture_find(dev, FIXTURE_FLOOR, robust_rate(0) - 1);
	KUNIT_EXPECT_PTR_EQ(test, f.opp, ERR_PTR(-ERANGE));
	KUNIT_EXPECT_EQ(test, f.freq, robust_rate(0) - 1);

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
	robust_snapshot(dev, &ctx->listener, snap);
	robust_expect_model(test, snap, &ctx->model, ctx->refs, "misses");
	KUNIT_EXPECT_EQ(test, snap->events, 0U);
}

/* Accessors on what is not an available OPP; no table is touched. */
static void opp_badinput_accessors(struct kunit *test)
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
		KUNIT_EXPECT_EQ(test, opp_get_power(bad[i]), 0UL);
		KUNIT_EXPECT_EQ(test, opp_get_level(bad[i]), OPP_LEVEL_NONE);
		KUNIT_EXPECT_EQ(test, opp_get_bw(bad[i], true, 0), 0UL);
		KUNIT_EXPECT_EQ(test, opp_get_required_level(bad[i], 0), 0U);
		KUNIT_EXPECT_PTR_EQ(test, opp_get_required_table(bad[i], 0),
				    ERR_PTR(-EINVAL));
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
	KUNIT_CASE_PARAM(opp_badinput_bad_device, robust_kind_gen_params),
	KUNIT_CASE(opp_badinput_populated_misses),
	KUNIT_CASE(opp_badinput_accessors),
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
static void opp_release_after_remove(struct kunit *test)
{
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev = opp_test_fixture_dev_new(test, "opp-robust-reg", &released);

	KUNIT_ASSERT_EQ(test, device_add(dev), 0);
	robust_fill(test, dev, 3);
	KUNIT_EXPECT_EQ(test, opp_remove_table(dev), 0);
	device_unregister(dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 1);
}

static void opp_release_before_remove(struct kunit *test)
{
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev = opp_test_fixture_dev_new(test, "opp-robust-reg2", &released);

	KUNIT_ASSERT_EQ(test, device_add(dev), 0);
	robust_fill(test, dev, 3);
	device_unregister(dev);
	/* The library's reference keeps it: no new device can take its place. */
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 0);
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(dev), 3);
	KUNIT_EXPECT_EQ(test, opp_remove(dev, robust_rate(0)), 0);
	KUNIT_EXPECT_EQ(test, opp_remove_table(dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 1);
}

/*
 * A configuration holds its device until opp_clear_config(): it keeps a
 * pointer to it, which must not outlive the device (nor match a new one
 * at its address). Neither the owner's last put nor the table's removal
 * releases it meanwhile.
 */
static void opp_release_after_clear_config(struct kunit *test)
{
	atomic_t released = ATOMIC_INIT(0);
	struct device *dev = opp_test_fixture_dev_new(test, "opp-robust-cfg", &released);
	struct opp_config cfg = { .prop_name = "slow" };

	KUNIT_ASSERT_EQ(test, opp_set_config(dev, &cfg), 0);
	robust_fill(test, dev, 3);
	put_device(dev);
	KUNIT_EXPECT_EQ(test, opp_remove_table(dev), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 0);
	opp_clear_config(dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&released), 1);
}

static struct kunit_case robust_release_cases[] = {
	KUNIT_CASE(opp_release_after_remove),
	KUNIT_CASE(opp_release_before_remove),
	KUNIT_CASE(opp_release_after_clear_config),
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
