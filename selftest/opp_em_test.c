// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the library's energy model (opp_em.c): suite opp_em.
 *
 * The energy model of a table. Each em-* node of selftest/opp_of_v2.dtso
 * is read by this library on one device and by the kernel's OPP core on
 * another; opp_of_register_em() registers the first one's model and the
 * kernel's dev_pm_opp_of_register_em() the second's, both with the
 * kernel's energy model. The two models are read back state by state
 * (em_pd_get(): frequency, power, cost, flags, and the performance field
 * where the kernel has one) and must be equal, and each state's frequency
 * and power must be what the device tree gives, computed here from the
 * node's own properties: ``opp-microwatt``, or C * V^2 * f from
 * ``dynamic-power-coefficient``. What the kernel refuses must be refused
 * with its error code and leave no model; a model unregistered must leave
 * nothing (neither the device's domain nor its debugfs directory) and may
 * be registered again.
 *
 * The devices are not CPUs: CPUs' models cannot be unregistered. The
 * cpufreq sample registers its clusters' (samples/opp_cpufreq.c).
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/energy_model.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/math64.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/rcupdate.h>
#include <linux/units.h>

#include "../compat.h"
#include "../opp.h"
#include "opp_test_helpers.h"

#define EM_OURS		"opp-em-ours"
#define EM_KERNELS	"opp-em-kernel"
#define EM_DEBUGFS	"/sys/kernel/debug/energy_model/"
#define EM_MAX_STATES	8

struct em_ctx {
	struct device *ours;
	struct device *kernels;
	struct device_node *np;
};

static int em_init(struct kunit *test)
{
	struct em_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx);
	test->priv = ctx;
	ctx->ours = opp_test_fixture_dev_new(test, EM_OURS, NULL);
	ctx->kernels = opp_test_fixture_dev_new(test, EM_KERNELS, NULL);
	return 0;
}

static void em_exit(struct kunit *test)
{
	struct em_ctx *ctx = test->priv;

	/* Whatever a failed check left registered goes first. */
	em_dev_unregister_perf_domain(ctx->ours);
	em_dev_unregister_perf_domain(ctx->kernels);
	dev_pm_opp_remove_all_dynamic(ctx->kernels);
	opp_test_of_pair_remove_tables(ctx->ours, ctx->kernels);
	opp_test_of_pair_put(ctx->ours, ctx->kernels, ctx->np);
}

/* Give both devices the node @name and read its table into both cores. */
static void em_attach(struct kunit *test, const char *name)
{
	struct em_ctx *ctx = test->priv;

	ctx->np = opp_test_of_pair_attach(test, ctx->ours, ctx->kernels, name);
	KUNIT_ASSERT_EQ(test, opp_of_add_table(ctx->ours), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_add_table(ctx->kernels), 0);
}

/* ---- A registered model, read back ---- */

struct em_state {
	unsigned long frequency;
	unsigned long power;
	unsigned long cost;
	unsigned long flags;
	unsigned long performance;
};

struct em_model {
	bool present;
	int nr;
	unsigned long flags;
	struct em_state state[EM_MAX_STATES];
};

/* @dev's model as the energy model holds it (nothing: !present). */
static void em_read(struct kunit *test, struct device *dev, struct em_model *m)
{
	struct em_perf_domain *pd = em_pd_get(dev);
	struct em_perf_state *ps;
	int i;

	memset(m, 0, sizeof(*m));
	if (!pd)
		return;
	m->present = true;
	m->nr = pd->nr_perf_states;
	m->flags = pd->flags;
	KUNIT_ASSERT_LE(test, m->nr, EM_MAX_STATES);
	/* Copied out under RCU, checked after: a failing check allocates. */
	rcu_read_lock();
	ps = opp_em_states(pd);
	for (i = 0; i < m->nr; i++) {
		m->state[i].frequency = ps[i].frequency;
		m->state[i].power = ps[i].power;
		m->state[i].cost = ps[i].cost;
		m->state[i].flags = ps[i].flags;
#if OPP_EM_RUNTIME_TABLE
		m->state[i].performance = ps[i].performance;
#endif
	}
	rcu_read_unlock();
}

static struct em_model *em_models(struct kunit *test)
{
	struct em_model *m = kunit_kcalloc(test, 2, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, m);
	return m;
}

/* Both models alike, field for field. */
static void em_expect_same(struct kunit *test, const struct em_model *a,
			   const struct em_model *k)
{
	const struct em_state *x, *y;
	int i;

	KUNIT_ASSERT_TRUE(test, a->present);
	KUNIT_ASSERT_TRUE(test, k->present);
	KUNIT_EXPECT_EQ(test, a->nr, k->nr);
	KUNIT_EXPECT_EQ(test, a->flags, k->flags);
	for (i = 0; i < min(a->nr, k->nr); i++) {
		x = &a->state[i];
		y = &k->state[i];
		KUNIT_EXPECT_EQ_MSG(test, x->frequency, y->frequency,
				    "state %d", i);
		KUNIT_EXPECT_EQ_MSG(test, x->power, y->power, "state %d", i);
		KUNIT_EXPECT_EQ_MSG(test, x->cost, y->cost, "state %d", i);
		KUNIT_EXPECT_EQ_MSG(test, x->flags, y->flags, "state %d", i);
		KUNIT_EXPECT_EQ_MSG(test, x->performance, y->performance,
				    "state %d", i);
	}
}

/* ---- What the device tree says, read here ---- */

enum em_source {
	EM_FROM_MICROWATT,
	EM_FROM_COEFFICIENT,
};

struct em_point {
	u64 hz;
	u32 uv;		/* opp-microvolt's (first) target; 0: none */
	u32 uw;		/* opp-microwatt; 0: none */
};

/*
 * The OPPs of the table @consumer points at, by increasing rate, except
 * the one at @skip_hz (0: none). Returns how many.
 */
static int em_dt_points(struct kunit *test, struct device_node *consumer,
			u64 skip_hz, struct em_point *pts)
{
	struct device_node *table, *child;
	struct em_point p;
	int n = 0, i;

	table = of_parse_phandle(consumer, "operating-points-v2", 0);
	KUNIT_ASSERT_NOT_NULL(test, table);
	for_each_available_child_of_node(table, child) {
		p = (struct em_point){ };
		if (of_property_read_u64(child, "opp-hz", &p.hz) ||
		    p.hz == skip_hz)
			continue;
		of_property_read_u32(child, "opp-microvolt", &p.uv);
		of_property_read_u32(child, "opp-microwatt", &p.uw);
		if (n == EM_MAX_STATES) {
			of_node_put(child);
			break;
		}
		/* Insertion: a handful of OPPs. */
		for (i = n++; i > 0 && pts[i - 1].hz > p.hz; i--)
			pts[i] = pts[i - 1];
		pts[i] = p;
	}
	of_node_put(table);
	return n;
}

/*
 * The power of @p in uW: its opp-microwatt, or the coefficient's
 * estimate, dynamic-power-coefficient being uW/MHz/V^2, in whole mV and
 * whole MHz as the binding's users compute it.
 */
static unsigned long em_dt_power(const struct em_point *p,
				 enum em_source source, u32 coefficient)
{
	u64 mv = p->uv / 1000, mhz = div_u64(p->hz, 1000000);

	if (source == EM_FROM_MICROWATT)
		return p->uw;
	return div_u64(coefficient * mv * mv * mhz, 1000000);
}

/* Model @m against the device tree's @n points. */
static void em_expect_dt(struct kunit *test, const struct em_model *m,
			 const struct em_point *pts, int n,
			 enum em_source source, u32 coefficient)
{
	int i;

	KUNIT_ASSERT_TRUE(test, m->present);
	KUNIT_EXPECT_EQ(test, m->nr, n);
	KUNIT_EXPECT_TRUE(test, m->flags & EM_PERF_DOMAIN_MICROWATTS);
	for (i = 0; i < min(m->nr, n); i++) {
		KUNIT_EXPECT_EQ_MSG(test, m->state[i].frequency,
				    (unsigned long)div_u64(pts[i].hz, 1000),
				    "state %d", i);
		KUNIT_EXPECT_EQ_MSG(test, m->state[i].power,
				    em_dt_power(&pts[i], source, coefficient),
				    "state %d", i);
	}
}

/* ---- Tables both register alike ---- */

struct em_good {
	const char *node;
	enum em_source source;
	int states;
};

static const struct em_good em_goods[] = {
	{ "em-microwatt", EM_FROM_MICROWATT, 4 },
	{ "em-coefficient", EM_FROM_COEFFICIENT, 4 },
	{ "em-both", EM_FROM_MICROWATT, 4 },
	{ "em-late-microwatt", EM_FROM_COEFFICIENT, 2 },
};

KUNIT_ARRAY_PARAM_DESC(em_good, em_goods, node);

/*
 * Register both models of @ctx's node, read them back and check them
 * against each other and against the device tree's @n points.
 */
static void em_register_and_compare(struct kunit *test,
				    const struct em_point *pts, int n,
				    enum em_source source)
{
	struct em_ctx *ctx = test->priv;
	struct em_model *ours = em_models(test), *kernels = ours + 1;
	u32 coefficient = 0;

	if (source == EM_FROM_COEFFICIENT)
		KUNIT_ASSERT_EQ(test,
				of_property_read_u32(ctx->np,
						     "dynamic-power-coefficient",
						     &coefficient), 0);
	KUNIT_ASSERT_EQ(test, opp_of_register_em(ctx->ours, NULL), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_register_em(ctx->kernels, NULL), 0);
	em_read(test, ctx->ours, ours);
	em_read(test, ctx->kernels, kernels);
	em_expect_dt(test, ours, pts, n, source, coefficient);
	em_expect_same(test, ours, kernels);
	kunit_info(test, "%d states compared (%s)", min(ours->nr, kernels->nr),
		   source == EM_FROM_MICROWATT ? "opp-microwatt" :
		   "dynamic-power-coefficient");
}

static void opp_em_matches_kernel(struct kunit *test)
{
	const struct em_good *g = test->param_value;
	struct em_ctx *ctx = test->priv;
	struct em_point pts[EM_MAX_STATES];
	int n;

	em_attach(test, g->node);
	n = em_dt_points(test, ctx->np, 0, pts);
	KUNIT_ASSERT_EQ(test, n, g->states);
	em_register_and_compare(test, pts, n, g->source);
}

/*
 * A disabled OPP is no state: the model is made of the available OPPs
 * at the time of the call. Without 900 MHz, 600 MHz is no longer
 * inefficient where the model computes costs.
 */
static void opp_em_disabled_opp(struct kunit *test)
{
	struct em_ctx *ctx = test->priv;
	struct em_point pts[EM_MAX_STATES];
	int n;

	em_attach(test, "em-microwatt");
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->ours, 900000000), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_disable(ctx->kernels, 900000000), 0);
	n = em_dt_points(test, ctx->np, 900000000, pts);
	KUNIT_ASSERT_EQ(test, n, 3);
	em_register_and_compare(test, pts, n, EM_FROM_MICROWATT);
}

/* ---- What both refuse ---- */

/* Both calls give @err, and neither device has a model afterwards. */
static void em_expect_refused(struct kunit *test, int err)
{
	struct em_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, opp_of_register_em(ctx->ours, NULL), err);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_register_em(ctx->kernels, NULL),
			err);
	KUNIT_EXPECT_NULL(test, em_pd_get(ctx->ours));
	KUNIT_EXPECT_NULL(test, em_pd_get(ctx->kernels));
}

static void opp_em_bad_input(struct kunit *test)
{
	struct em_ctx *ctx = test->priv;

	KUNIT_EXPECT_EQ(test, opp_of_register_em(NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_register_em(NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, opp_of_register_em(ERR_PTR(-ENODEV), NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_register_em(ERR_PTR(-ENODEV), NULL),
			-EINVAL);
	/* Nothing to unregister: a no-op, whatever the device. */
	opp_of_unregister_em(NULL);
	opp_of_unregister_em(ERR_PTR(-ENODEV));
	opp_of_unregister_em(ctx->ours);

	/* No table. */
	em_expect_refused(test, -EINVAL);

	/* A table without a node: no power information. */
	KUNIT_ASSERT_EQ(test, opp_add(ctx->ours, 500000000, 900000), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_add(ctx->kernels, 500000000, 900000),
			0);
	em_expect_refused(test, -EINVAL);

	/* No available OPP: no state. */
	KUNIT_ASSERT_EQ(test, opp_disable(ctx->ours, 500000000), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_disable(ctx->kernels, 500000000), 0);
	em_expect_refused(test, -EINVAL);
}

static const char * const em_bads[] = {
	"em-no-power",		/* neither source */
	"em-zero-coefficient",	/* a coefficient of 0 */
	"em-no-volt",		/* a coefficient and no voltages */
	"em-partial",		/* a state without opp-microwatt */
	"em-over",		/* a state above 64 W */
};

static void em_bad_desc(const char * const *node, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", *node);
}

KUNIT_ARRAY_PARAM(em_bad, em_bads, em_bad_desc);

/* Tables both cores read, whose power the model cannot take. */
static void opp_em_no_power(struct kunit *test)
{
	const char * const *node = test->param_value;

	em_attach(test, *node);
	em_expect_refused(test, -EINVAL);
}

/* A second registration is refused, and the first model stays. */
static void opp_em_twice(struct kunit *test)
{
	struct em_ctx *ctx = test->priv;
	struct em_model *ours = em_models(test), *kernels = ours + 1;

	em_attach(test, "em-microwatt");
	KUNIT_ASSERT_EQ(test, opp_of_register_em(ctx->ours, NULL), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_register_em(ctx->kernels, NULL), 0);
	KUNIT_EXPECT_EQ(test, opp_of_register_em(ctx->ours, NULL), -EEXIST);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_of_register_em(ctx->kernels, NULL),
			-EEXIST);
	em_read(test, ctx->ours, ours);
	em_read(test, ctx->kernels, kernels);
	KUNIT_EXPECT_EQ(test, ours->nr, 4);
	em_expect_same(test, ours, kernels);
}

/* 0 if the energy model's debugfs has a directory for @dev, or -errno. */
static int em_debugfs_dir(struct device *dev)
{
	char path[64];
	struct file *f;

	snprintf(path, sizeof(path), EM_DEBUGFS "%s", dev_name(dev));
	f = filp_open(path, O_RDONLY | O_DIRECTORY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	filp_close(f, NULL);
	return 0;
}

/*
 * Unregistered, a model leaves neither the device's domain nor its
 * debugfs directory (kmemleak checks the memory at the end of the run),
 * and the device may register again, to the same model.
 */
static void opp_em_unregister(struct kunit *test)
{
	struct em_ctx *ctx = test->priv;
	struct em_model *first = em_models(test), *again = first + 1;
	struct em_model *kernels = em_models(test);

	em_attach(test, "em-coefficient");
	KUNIT_ASSERT_EQ(test, opp_of_register_em(ctx->ours, NULL), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_register_em(ctx->kernels, NULL), 0);
	em_read(test, ctx->ours, first);
	KUNIT_EXPECT_EQ(test, first->nr, 4);
	KUNIT_EXPECT_EQ(test, em_debugfs_dir(ctx->ours), 0);
	KUNIT_EXPECT_EQ(test, em_debugfs_dir(ctx->kernels), 0);

	opp_of_unregister_em(ctx->ours);
	dev_pm_opp_of_unregister_em(ctx->kernels);
	KUNIT_EXPECT_NULL(test, em_pd_get(ctx->ours));
	KUNIT_EXPECT_NULL(test, em_pd_get(ctx->kernels));
	KUNIT_EXPECT_EQ(test, em_debugfs_dir(ctx->ours), -ENOENT);
	KUNIT_EXPECT_EQ(test, em_debugfs_dir(ctx->kernels), -ENOENT);
	/* The table is the library's still: only the model went. */
	KUNIT_EXPECT_EQ(test, opp_test_fixture_count(ctx->ours), 4);

	KUNIT_ASSERT_EQ(test, opp_of_register_em(ctx->ours, NULL), 0);
	KUNIT_ASSERT_EQ(test, dev_pm_opp_of_register_em(ctx->kernels, NULL), 0);
	em_read(test, ctx->ours, again);
	em_read(test, ctx->kernels, kernels);
	em_expect_same(test, again, first);
	em_expect_same(test, again, kernels);
}

static struct kunit_case em_cases[] = {
	KUNIT_CASE_PARAM(opp_em_matches_kernel, em_good_gen_params),
	KUNIT_CASE(opp_em_disabled_opp),
	KUNIT_CASE(opp_em_bad_input),
	KUNIT_CASE_PARAM(opp_em_no_power, em_bad_gen_params),
	KUNIT_CASE(opp_em_twice),
	KUNIT_CASE(opp_em_unregister),
	{}
};

static struct kunit_suite em_suite = {
	.name = "opp_em",
	.init = em_init,
	.exit = em_exit,
	.test_cases = em_cases,
};

kunit_test_suite(em_suite);

MODULE_DESCRIPTION("KUnit: the energy model of a table against the kernel's dev_pm_opp_of_register_em()");
MODULE_LICENSE("GPL");
