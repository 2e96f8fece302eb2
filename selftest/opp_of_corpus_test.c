// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the device-tree reader (opp_of.c) on the kernel tree's
 * tables: suite opp_of_corpus.
 *
 * Every OPP table of the kernel tree's own boards, read by this library
 * (opp_of_add_table()) and by the kernel's OPP core
 * (dev_pm_opp_of_add_table()) through two devices whose nodes point at the
 * same table, and compared: the return codes, then what both expose of
 * each table (opp_test_helpers.h: every OPP's rate, voltages, current,
 * power, level, availability, turbo and suspend flags, the searches by
 * rate, level and bandwidth of each path; the suspend frequency, the clock
 * latency), the levels of its required OPPs, and whether a second device
 * shares the table.
 *
 * The tables come from scripts/opp-corpus.py, which compiles every board
 * of the guest kernel's tree and keeps each distinct table and consumer
 * once; the harness applies its overlay to the guest's tree before boot
 * (scripts/common.sh, corpus_dtb), so the whole corpus is read from the
 * live tree that boot unflattened, without an overlay per table. Each
 * /opp-corpus/entry-N is a consumer: operating-points-v2 (or a v1
 * operating-points) and what the board's consumer node tells the parsers;
 * its opp-corpus,* properties say where it came from, which entries
 * provide the tables its required-opps point into (read first, as a board
 * probes its power domains before their consumers), how to configure both
 * sides alike (a supported-hw mask, a voltage name, the names of several
 * supplies or clocks), and which documented difference it shows, if any.
 *
 * A table of several supplies or clocks is read as its driver would have
 * both read it: the supplies and clocks named (opp-corpus,regulator-names
 * and opp-corpus,clock-names, from the board's consumer node) and got
 * from real providers (opp_test_helpers.h), then compared supply by
 * supply and clock by clock (the helpers' of_multi_*()).
 *
 * A table agrees when both sides answer alike and everything compares
 * equal. It differs deliberately when it shows one of the rules of
 * Documentation/opp.rst where this library answers otherwise than the
 * kernel on purpose (corpus_rules[]), with exactly the answers the rule
 * gives; a table that shows a rule and does not give those answers
 * differs. Any difference fails the suite. The last case prints the
 * counts on one line:
 *
 *   opp_of_corpus: T tables from B boards: A agree, D deliberate, N differ
 */

#include <kunit/test.h>
#include <linux/clk.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../compat.h"
#include "../opp.h"
#include "opp_test_helpers.h"

#define CORPUS_ROOT		"/opp-corpus"
/* Providers of providers (a power domain's parent domain): how deep. */
#define CORPUS_DEPTH		4
/* The providers read for one entry, all depths together. */
#define CORPUS_MAX_PAIRS	16
/* The required OPPs compared per OPP. */
#define CORPUS_MAX_REQUIRED	4
#define CORPUS_MAX_LEVELS	4
/* The distinct supply names of the whole corpus. */
#define CORPUS_MAX_NAMES	16
/*
 * The devices of a table of several supplies or clocks: the providers
 * map their supplies and clocks by device name.
 */
#define CORPUS_OURS		"opp-corpus-ours"
#define CORPUS_KERNELS		"opp-corpus-kernels"

/*
 * A documented difference (Documentation/opp.rst): the entries the
 * extractor tags with it, and the answers that make the difference
 * (this library's; the kernel's, unless the kernel is not asked, which
 * WARNs on the table: the guests panic on a warning).
 */
struct corpus_rule {
	const char *name;
	bool applies;		/* on this kernel, word size */
	bool ask_kernel;
	int ours;
	int kernels;
	int tables;
};

static struct corpus_rule corpus_rules[] = {
	/* opp-hz 0: no OPP at 0 Hz, the accessors' "none". */
	{ "rate-zero", true, true, -EINVAL, 0 },
	/* A rate an unsigned long cannot hold: the kernel truncates. */
	{ "rate-above-32bit", BITS_PER_LONG == 32, false, -EINVAL, 0 },
	/* <target min max> with the target outside [min, max]. */
	{ "triplet-order", true, true, -EINVAL, 0 },
	/* v1: this library's own rules since 2.6.37, any fault -EINVAL. */
	{ "v1-rate-zero", true, true, -EINVAL, 0 },
	{ "v1-rate-above-32bit", BITS_PER_LONG == 32, true, -EINVAL, 0 },
	{ "v1-two-voltages", true, true, -EINVAL, -EEXIST },
	{ "v1-empty", true, true, -EINVAL, 0 },
	/*
	 * An OPP with a level of its own whose one required OPP is a power
	 * domain's: the kernel (6.8 on) WARNs and keeps the OPP's level,
	 * this library keeps it without a word.
	 */
	{ "genpd-level-warn", OPP_OF_REQUIRED_GENPD_LEVEL, false, 0, 0 },
};

/* The suite's counts, kept across its cases. */
static struct {
	u32 tables;
	u32 boards;
	int agree;
	int deliberate;
	int differ;
	int v1;
	int v2;
	int required;
	int several;
	int shared;
	int refused;		/* both sides refused (agreeing) */
	s64 ns;			/* the time the comparisons took */
	/* Of which: the reads, this library's and the kernel's; the checks. */
	s64 ns_ours;
	s64 ns_kernels;
	s64 ns_checks;
} corpus;

/* One node read by both sides: this library's device, the kernel's. */
struct corpus_pair {
	struct device *ours;
	struct device *kernels;
	struct device_node *np;
	int token;		/* the kernel's configuration, or 0 */
	bool configured;	/* this library's */
	int ret_ours;
	int ret_kernels;
};

struct corpus_ctx {
	atomic_t released;
	struct of_v2_table *t;	/* [0] ours, [1] the kernel's */
	struct of_multi_table *multi;	/* likewise, of several */
	struct corpus_pair pair[CORPUS_MAX_PAIRS];
	int pairs;
};

static int corpus_init(struct kunit *test)
{
	struct corpus_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->t = opp_test_of_v2_tables(test);
	ctx->multi = opp_test_of_multi_tables(test);
	test->priv = ctx;
	return 0;
}

static struct device_node *corpus_root(struct kunit *test)
{
	struct device_node *root = of_find_node_by_path(CORPUS_ROOT);

	KUNIT_ASSERT_NOT_NULL_MSG(test, root,
				  "no %s in the live tree: boot with the corpus overlay applied (scripts/opp-corpus.py)",
				  CORPUS_ROOT);
	return root;
}

static struct corpus_rule *corpus_rule_of(struct device_node *np)
{
	const char *name;
	int i;

	if (of_property_read_string(np, "opp-corpus,rule", &name))
		return NULL;
	/* An unknown rule, or one not of this kernel, is no excuse. */
	for (i = 0; i < ARRAY_SIZE(corpus_rules); i++)
		if (!strcmp(corpus_rules[i].name, name))
			return corpus_rules[i].applies ? &corpus_rules[i] : NULL;
	return NULL;
}

/* A new pair of devices on @np: the next slot of @ctx. */
static struct corpus_pair *corpus_pair_new(struct kunit *test,
					   struct device_node *np)
{
	struct corpus_ctx *ctx = test->priv;
	struct corpus_pair *p;

	struct device *ours, *kernels;

	KUNIT_ASSERT_LT_MSG(test, ctx->pairs, CORPUS_MAX_PAIRS,
			    "%pOFn: too many providers", np);
	ours = opp_test_fixture_dev_create(&ctx->released, "%pOFn-ours", np);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ours);
	/*
	 * The kernel's device has no name: its OPP core then makes no
	 * debugfs directory for the table (debugfs refuses an empty name
	 * without a word), and none of the files it makes for each OPP,
	 * which took most of the time of its parse on the debug guest. A
	 * power domain's table is read on a genpd's (opp_genpd_dev_create()).
	 */
	if (of_property_present(np, "#power-domain-cells"))
		kernels = opp_genpd_dev_create("");
	else
		kernels = opp_test_fixture_dev_create(&ctx->released, "%s", "");
	if (IS_ERR(kernels))
		put_device(ours);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, kernels);
	p = &ctx->pair[ctx->pairs++];
	memset(p, 0, sizeof(*p));
	/* Nothing is read yet: nothing to remove. */
	p->ret_ours = -ENOEXEC;
	p->ret_kernels = -ENOEXEC;
	p->np = of_node_get(np);
	p->ours = ours;
	p->kernels = kernels;
	ours->of_node = np;
	kernels->of_node = np;
	return p;
}

/*
 * The names of @np's @prop into @names (NULL-terminated, room for @max
 * and the NULL): their number, 0 without the property.
 */
static int corpus_names(struct kunit *test, struct device_node *np,
			const char *prop, const char **names, int max)
{
	int n = of_property_count_strings(np, prop);

	if (n <= 0)
		return 0;
	KUNIT_ASSERT_LE_MSG(test, n, max, "%pOFn: %s: too many", np, prop);
	KUNIT_ASSERT_EQ(test, of_property_read_string_array(np, prop, names, n), n);
	names[n] = NULL;
	return n;
}

/*
 * Configure both devices of @p alike from the entry @np: the
 * supported-hw mask, the voltage name, and the supplies' and clocks'
 * names a driver of that table would give (the extractor picked them).
 * Before the tables exist, as both want it.
 */
static void corpus_configure(struct kunit *test, struct corpus_pair *p,
			     struct device_node *np)
{
	const char *supplies[OF_MULTI_MAX + 1], *clks[OF_MULTI_MAX + 1];
	u32 hw[CORPUS_MAX_LEVELS];
	struct dev_pm_opp_config kcfg = { };
	struct opp_config cfg = { };
	const char *name = NULL;
	int n;

	n = of_property_count_u32_elems(np, "opp-corpus,supported-hw");
	if (n > 0) {
		KUNIT_ASSERT_LE(test, n, CORPUS_MAX_LEVELS);
		KUNIT_ASSERT_EQ(test, of_property_read_u32_array(np, "opp-corpus,supported-hw",
								 hw, n), 0);
		cfg.supported_hw = hw;
		cfg.supported_hw_count = n;
	}
	of_property_read_string(np, "opp-corpus,prop-name", &name);
	cfg.prop_name = name;
	if (corpus_names(test, np, "opp-corpus,regulator-names", supplies,
			 OF_MULTI_MAX))
		cfg.regulator_names = supplies;
	n = corpus_names(test, np, "opp-corpus,clock-names", clks, OF_MULTI_MAX);
	if (n)
		cfg.clk_names = clks;
	if (!cfg.supported_hw && !cfg.prop_name && !cfg.regulator_names &&
	    !cfg.clk_names)
		return;
	KUNIT_ASSERT_EQ(test, opp_set_config(p->ours, &cfg), 0);
	p->configured = true;
	kcfg.supported_hw = cfg.supported_hw;
	kcfg.supported_hw_count = cfg.supported_hw_count;
	kcfg.prop_name = cfg.prop_name;
	kcfg.regulator_names = cfg.regulator_names;
	kcfg.clk_names = cfg.clk_names;
	if (n > 1)
		kcfg.config_clks = opp_test_of_multi_config_clks;
	p->token = dev_pm_opp_set_config(p->kernels, &kcfg);
	KUNIT_ASSERT_GT(test, p->token, 0);
}

/* Read @p's table on both sides (the kernel's unless @rule says not to). */
static void corpus_read(struct corpus_pair *p, const struct corpus_rule *rule)
{
	ktime_t t0 = ktime_get(), t1;

	if (!rule || rule->ask_kernel)
		p->ret_kernels = dev_pm_opp_of_add_table(p->kernels);
	t1 = ktime_get();
	p->ret_ours = opp_of_add_table(p->ours);
	corpus.ns_kernels += ktime_to_ns(ktime_sub(t1, t0));
	corpus.ns_ours += ktime_to_ns(ktime_sub(ktime_get(), t1));
}

/* The pair of @ctx on @np, if one was read already. */
static struct corpus_pair *corpus_pair_of(struct corpus_ctx *ctx,
					  struct device_node *np)
{
	int i;

	for (i = 0; i < ctx->pairs; i++)
		if (ctx->pair[i].np == np)
			return &ctx->pair[i];
	return NULL;
}

/*
 * The providers of the entry @np, read before it on both sides, theirs
 * first: the tables its required-opps point into.
 */
static void corpus_providers(struct kunit *test, struct device_node *np,
			     int depth)
{
	struct device_node *prov;
	struct corpus_pair *p;
	int i;

	KUNIT_ASSERT_LT_MSG(test, depth, CORPUS_DEPTH, "%pOFn: providers too deep", np);
	for (i = 0; (prov = of_parse_phandle(np, "opp-corpus,providers", i)); i++) {
		if (corpus_pair_of(test->priv, prov)) {
			/* Another provider's provider too: read once. */
			of_node_put(prov);
			continue;
		}
		corpus_providers(test, prov, depth + 1);
		p = corpus_pair_new(test, prov);
		of_node_put(prov);
		corpus_configure(test, p, p->np);
		corpus_read(p, corpus_rule_of(p->np));
	}
}

/*
 * Undo every pair of @ctx, consumers first: they hold their providers.
 * The devices go only once every table is gone: the kernel's core keeps
 * each device that shared a table on the table's list until the last
 * one leaves, and drops a power domain's vote on each of them then.
 */
static void corpus_pairs_put(struct corpus_ctx *ctx)
{
	struct corpus_pair *p;
	int i;

	for (i = ctx->pairs - 1; i >= 0; i--) {
		p = &ctx->pair[i];
		if (!p->ret_kernels)
			dev_pm_opp_of_remove_table(p->kernels);
		/* The kernel's core needs its configuration until its table goes. */
		if (p->token > 0)
			dev_pm_opp_clear_config(p->token);
		if (!p->ret_ours)
			opp_remove_table(p->ours);
		if (p->configured)
			opp_clear_config(p->ours);
	}
	/*
	 * A supply put leaves a device link whose release (a work item from
	 * 6.12's generation on) holds the consumer device: let it go first,
	 * or the device's last put comes after the case, and its release
	 * writes to @ctx, which the case's end has freed.
	 */
	device_link_wait_removal();
	while (ctx->pairs) {
		p = &ctx->pair[--ctx->pairs];
		p->ours->of_node = NULL;
		p->kernels->of_node = NULL;
		put_device(p->ours);
		if (of_property_present(p->np, "#power-domain-cells"))
			opp_genpd_dev_put(p->kernels);
		else
			put_device(p->kernels);
		of_node_put(p->np);
	}
}

static void corpus_exit(struct kunit *test)
{
	corpus_pairs_put(test->priv);
}

/*
 * Each available OPP's required OPPs, by rate, as both sides give their
 * levels: this library's opp_get_required_level() and the kernel's
 * dev_pm_opp_get_required_pstate(), which gives the level from 6.12's
 * generation on (OPP_KERNEL_REQUIRED_PSTATE_IS_LEVEL) and only for a
 * power domain's table; @genpd says which entries are. The kernel's side
 * is searched by the first clock's rate (the indexed search): its plain
 * search WARNs on a table of several clocks.
 */
static void corpus_expect_required(struct kunit *test, struct corpus_pair *p,
				   int count, const bool *genpd)
{
	unsigned int ours[CORPUS_MAX_REQUIRED], kernels;
	struct dev_pm_opp *kopp;
	unsigned long f = 0, fk;
	struct opp *opp;
	int i, n;

	for (n = 0; n < OF_V2_MAX_OPPS; n++, f++) {
		rcu_read_lock();
		opp = opp_find_freq_ceil(p->ours, &f);
		for (i = 0; i < count; i++)
			ours[i] = opp_get_required_level(opp, i);
		rcu_read_unlock();
		fk = f;
		kopp = dev_pm_opp_find_freq_ceil_indexed(p->kernels, &fk, 0);
		KUNIT_EXPECT_EQ_MSG(test, IS_ERR(opp), IS_ERR(kopp), "OPP %d", n);
		if (IS_ERR(opp) || IS_ERR(kopp)) {
			if (!IS_ERR(kopp))
				dev_pm_opp_put(kopp);
			return;
		}
		for (i = 0; i < count; i++) {
			if (!genpd[i])
				continue;
			kernels = dev_pm_opp_get_required_pstate(kopp, i);
			KUNIT_EXPECT_EQ_MSG(test, ours[i], kernels,
					    "OPP %d (%lu Hz), required %d", n, f, i);
		}
		dev_pm_opp_put(kopp);
	}
}

/*
 * Which required-opps entries of the table of @np point into a power
 * domain's table (its provider entry has #power-domain-cells): those
 * whose level the kernel gives. Returns their number, at most
 * CORPUS_MAX_REQUIRED.
 */
static int corpus_required_genpd(struct device_node *np, bool *genpd)
{
	struct device_node *tnp, *first, *req, *rtable, *prov, *ptable;
	int count, i, j;

	tnp = of_parse_phandle(np, "operating-points-v2", 0);
	first = tnp ? of_get_next_available_child(tnp, NULL) : NULL;
	of_node_put(tnp);
	count = first ? of_count_phandle_with_args(first, "required-opps", NULL) : 0;
	count = clamp(count, 0, CORPUS_MAX_REQUIRED);
	for (i = 0; i < count; i++) {
		genpd[i] = false;
		req = of_parse_phandle(first, "required-opps", i);
		rtable = req ? of_get_parent(req) : NULL;
		of_node_put(req);
		for (j = 0; rtable &&
		     (prov = of_parse_phandle(np, "opp-corpus,providers", j)); j++) {
			ptable = of_parse_phandle(prov, "operating-points-v2", 0);
			if (ptable == rtable &&
			    of_property_present(prov, "#power-domain-cells"))
				genpd[i] = true;
			of_node_put(ptable);
			of_node_put(prov);
		}
		of_node_put(rtable);
	}
	of_node_put(first);
	return count;
}

/*
 * For an opp-shared table: whether a second device on the same node
 * joins the first one's table on both sides alike, so that an OPP the
 * first disables is gone for the second too. (That a table without
 * opp-shared is a device's own is the opp_sharing suite's; reading each
 * such table twice here would double the suite's time.) With several
 * clocks only the counts: the kernel's core WARNs at an OPP disabled by
 * rate when the rate is not one clock's.
 */
static void corpus_expect_sharing(struct kunit *test, struct corpus_pair *p,
				  bool by_rate)
{
	struct device_node *tnp;
	struct corpus_pair *q;
	struct opp_info info;
	int before[2], after[2];
	bool shared;

	tnp = of_parse_phandle(p->np, "operating-points-v2", 0);
	shared = tnp && of_property_read_bool(tnp, "opp-shared");
	of_node_put(tnp);
	if (!shared)
		return;
	/*
	 * The second device takes the table's configuration: the kernel's
	 * core WARNs at a configuration for a table that has OPPs.
	 */
	q = corpus_pair_new(test, p->np);
	/*
	 * With a name, the kernel's core links it to the table's debugfs
	 * directory (none: see corpus_pair_new()), a link of its own that
	 * goes with it; without, the two devices' entries would be one
	 * error pointer, which the core then tries to move from one device
	 * to the other, and says it failed.
	 */
	KUNIT_ASSERT_EQ(test, dev_set_name(q->kernels, "opp-corpus-second"), 0);
	corpus_read(q, NULL);
	KUNIT_EXPECT_EQ(test, q->ret_ours, q->ret_kernels);
	if (q->ret_ours || q->ret_kernels)
		return;
	KUNIT_EXPECT_EQ(test, opp_lookup_ceil(p->ours, 0, &info), 0);
	before[0] = opp_test_fixture_count(q->ours);
	before[1] = dev_pm_opp_get_opp_count(q->kernels);
	KUNIT_EXPECT_EQ(test, before[0], before[1]);
	corpus.shared++;
	if (!by_rate)
		return;
	KUNIT_EXPECT_EQ(test, opp_disable(p->ours, info.rate), 0);
	KUNIT_EXPECT_EQ(test, dev_pm_opp_disable(p->kernels, info.rate), 0);
	after[0] = opp_test_fixture_count(q->ours);
	after[1] = dev_pm_opp_get_opp_count(q->kernels);
	KUNIT_EXPECT_EQ_MSG(test, after[0], after[1], "after disabling %lu Hz",
			    info.rate);
	KUNIT_EXPECT_TRUE(test, after[0] != before[0]);
}

/*
 * Compare both sides' tables of the consumer @p; the checks fail @test
 * on their own. A v1 table's voltage range (both widen it by the node's
 * voltage-tolerance) is not compared: the kernel gives it only through
 * dev_pm_opp_get_supplies(), unsafe on a v1 table without a named supply.
 * The opp_set_rate suite compares it, the kernel's side given a supply.
 */
static void corpus_expect_tables(struct kunit *test, struct corpus_pair *p,
				 bool v1)
{
	struct corpus_ctx *ctx = test->priv;
	struct of_v2_table *ours = ctx->t, *kernels = ctx->t + 1;
	bool genpd[CORPUS_MAX_REQUIRED];
	int i, count;

	opp_test_of_v2_read_ours(p->ours, ours);
	opp_test_of_v2_read_kernels_supplies(test, p->kernels, kernels, !v1);
	if (v1) {
		for (i = 0; i < ours->count; i++) {
			ours->opp[i].u_volt_min = 0;
			ours->opp[i].u_volt_max = 0;
		}
	}
	KUNIT_EXPECT_FALSE_MSG(test, opp_test_of_v2_full(ours),
			       "more than %d OPPs: raise OF_V2_MAX_OPPS",
			       OF_V2_MAX_OPPS);
	opp_test_of_v2_expect_same(test, ours, kernels);
	if (!v1 && OPP_KERNEL_REQUIRED_PSTATE_IS_LEVEL) {
		count = corpus_required_genpd(p->np, genpd);
		if (count)
			corpus_expect_required(test, p, count, genpd);
	}
	if (!v1)
		corpus_expect_sharing(test, p, true);
}

/*
 * Compare both sides' tables of the consumer @p of several supplies or
 * clocks, named as its entry names them (one of each without names):
 * every supply's values and every clock's rate of each OPP, its power,
 * the counts and the suspend frequency; the clock latency, the levels of
 * the required OPPs, and sharing.
 */
static void corpus_expect_several(struct kunit *test, struct corpus_pair *p)
{
	struct corpus_ctx *ctx = test->priv;
	int supplies = of_property_count_strings(p->np, "opp-corpus,regulator-names");
	int clks = of_property_count_strings(p->np, "opp-corpus,clock-names");
	bool genpd[CORPUS_MAX_REQUIRED];
	int count;

	opp_test_of_multi_compare(test, ctx->multi, p->ours, p->kernels, supplies, clks);
	KUNIT_EXPECT_FALSE_MSG(test, opp_test_of_multi_full(ctx->multi),
			       "more than %d OPPs: raise OF_MULTI_MAX_OPPS",
			       OF_MULTI_MAX_OPPS);
	KUNIT_EXPECT_EQ(test, opp_get_max_clock_latency(p->ours),
			dev_pm_opp_get_max_clock_latency(p->kernels));
	if (OPP_KERNEL_REQUIRED_PSTATE_IS_LEVEL) {
		count = corpus_required_genpd(p->np, genpd);
		if (count)
			corpus_expect_required(test, p, count, genpd);
	}
	corpus_expect_sharing(test, p, clks <= 1);
}

/* The kinds of entries, one case each. */
enum corpus_kind {
	CORPUS_V1,
	CORPUS_V2,		/* one supply and one clock, no required OPPs */
	CORPUS_REQUIRED,	/* with required-opps */
	CORPUS_SEVERAL,		/* several supplies or clocks */
};

static enum corpus_kind corpus_kind_of(struct device_node *np)
{
	if (!of_property_present(np, "operating-points-v2"))
		return CORPUS_V1;
	if (of_property_present(np, "opp-corpus,several"))
		return CORPUS_SEVERAL;
	if (of_property_present(np, "opp-corpus,providers"))
		return CORPUS_REQUIRED;
	return CORPUS_V2;
}

/*
 * Run the checks of @kind on @p and say whether any failed, leaving @test
 * failed if it was or they did: KUnit keeps no count of failed checks,
 * only the case's status.
 */
static bool corpus_checks_pass(struct kunit *test, struct corpus_pair *p,
			       enum corpus_kind kind)
{
	enum kunit_status before = READ_ONCE(test->status);
	bool pass;

	WRITE_ONCE(test->status, KUNIT_SUCCESS);
	if (kind == CORPUS_SEVERAL)
		corpus_expect_several(test, p);
	else
		corpus_expect_tables(test, p, kind == CORPUS_V1);
	pass = READ_ONCE(test->status) == KUNIT_SUCCESS;
	if (before != KUNIT_SUCCESS)
		WRITE_ONCE(test->status, before);
	return pass;
}

/* Where an entry came from, for the messages of a difference. */
static void corpus_report(struct kunit *test, struct device_node *np,
			  const char *what, struct corpus_pair *p)
{
	const char *board = "", *node = "", *rule = "";

	of_property_read_string(np, "opp-corpus,board", &board);
	of_property_read_string(np, "opp-corpus,node", &node);
	of_property_read_string(np, "opp-corpus,rule", &rule);
	kunit_err(test, "%pOFn (%s %s%s%s): %s: this library %d, the kernel's %d",
		  np, board, node, *rule ? ", rule " : "", rule, what,
		  p->ret_ours, p->ret_kernels);
}

/* One entry: read it on both sides and judge it. */
static void corpus_entry(struct kunit *test, struct device_node *np,
			 enum corpus_kind kind)
{
	struct corpus_rule *rule = corpus_rule_of(np);
	struct corpus_ctx *ctx = test->priv;
	struct corpus_pair *p;
	bool differs;

	if (kind != CORPUS_V1)
		corpus_providers(test, np, 0);
	p = corpus_pair_new(test, np);
	if (kind == CORPUS_SEVERAL) {
		/* The names the providers map their supplies and clocks to. */
		KUNIT_ASSERT_EQ(test, dev_set_name(p->ours, CORPUS_OURS), 0);
		KUNIT_ASSERT_EQ(test, dev_set_name(p->kernels, CORPUS_KERNELS), 0);
	}
	corpus_configure(test, p, np);
	corpus_read(p, rule);

	if (rule) {
		differs = p->ret_ours != rule->ours ||
			  (rule->ask_kernel && p->ret_kernels != rule->kernels);
		if (differs) {
			KUNIT_FAIL(test, "%pOFn: not the answers of rule %s",
				   np, rule->name);
			corpus_report(test, np, "differs", p);
		}
	} else if (p->ret_ours != p->ret_kernels) {
		differs = true;
		KUNIT_FAIL(test, "%pOFn: the return codes differ", np);
		corpus_report(test, np, "differs", p);
	} else if (!p->ret_ours) {
		ktime_t t0 = ktime_get();

		differs = !corpus_checks_pass(test, p, kind);
		corpus.ns_checks += ktime_to_ns(ktime_sub(ktime_get(), t0));
		if (differs)
			corpus_report(test, np, "the tables differ", p);
	} else {
		differs = false;
		corpus.refused++;
	}

	if (differs) {
		corpus.differ++;
	} else if (rule) {
		corpus.deliberate++;
		rule->tables++;
	} else {
		corpus.agree++;
	}
	corpus_pairs_put(ctx);
}

/* Every entry of @kind, in the order of the live tree. */
static void corpus_run(struct kunit *test, enum corpus_kind kind, int *count)
{
	struct device_node *root = corpus_root(test), *np;
	ktime_t start = ktime_get();

	for_each_child_of_node(root, np) {
		if (!of_node_name_prefix(np, "entry-") || corpus_kind_of(np) != kind)
			continue;
		corpus_entry(test, np, kind);
		(*count)++;
	}
	of_node_put(root);
	corpus.ns += ktime_to_ns(ktime_sub(ktime_get(), start));
}

/* The overlay is in the live tree, with its counts and its entries. */
static void opp_of_corpus_present(struct kunit *test)
{
	struct device_node *root = corpus_root(test), *np;
	u32 entries = 0;
	int i;

	memset(&corpus, 0, sizeof(corpus));
	for (i = 0; i < ARRAY_SIZE(corpus_rules); i++)
		corpus_rules[i].tables = 0;
	for (np = NULL; (np = of_get_next_child(root, np)); )
		if (of_node_name_prefix(np, "entry-"))
			entries++;
	KUNIT_EXPECT_EQ(test, of_property_read_u32(root, "opp-corpus,tables",
						   &corpus.tables), 0);
	KUNIT_EXPECT_EQ(test, of_property_read_u32(root, "opp-corpus,boards",
						   &corpus.boards), 0);
	of_node_put(root);
	KUNIT_EXPECT_EQ(test, entries, corpus.tables);
	/* The kernel tree's boards have hundreds of tables (opp-corpus.py). */
	KUNIT_EXPECT_GE(test, corpus.tables, 300U);
}

static void opp_of_corpus_v1(struct kunit *test)
{
	corpus_run(test, CORPUS_V1, &corpus.v1);
}

static void opp_of_corpus_v2(struct kunit *test)
{
	corpus_run(test, CORPUS_V2, &corpus.v2);
}

static void opp_of_corpus_required(struct kunit *test)
{
	corpus_run(test, CORPUS_REQUIRED, &corpus.required);
}

/*
 * Several supplies or clocks, named to both sides as the entry names
 * them; an entry whose board names fewer supplies than the table has
 * values for is refused by both alike.
 */
static void opp_of_corpus_several(struct kunit *test)
{
	corpus_run(test, CORPUS_SEVERAL, &corpus.several);
}

static void opp_of_corpus_summary(struct kunit *test)
{
	int i;

	kunit_log(KERN_INFO, test, KUNIT_SUBTEST_INDENT
		  "# opp_of_corpus: %d v1, %d v2, %d with required-opps, %d of several supplies or clocks; %d refused by both, %d shared",
		  corpus.v1, corpus.v2, corpus.required, corpus.several,
		  corpus.refused, corpus.shared);
	kunit_log(KERN_INFO, test, KUNIT_SUBTEST_INDENT
		  "# opp_of_corpus: %lld ms, of which reading %lld ms (the kernel's) and %lld ms (this library), comparing %lld ms",
		  div_s64(corpus.ns, NSEC_PER_MSEC),
		  div_s64(corpus.ns_kernels, NSEC_PER_MSEC),
		  div_s64(corpus.ns_ours, NSEC_PER_MSEC),
		  div_s64(corpus.ns_checks, NSEC_PER_MSEC));
	for (i = 0; i < ARRAY_SIZE(corpus_rules); i++)
		if (corpus_rules[i].tables)
			kunit_log(KERN_INFO, test, KUNIT_SUBTEST_INDENT
				  "# opp_of_corpus: rule %s: %d tables",
				  corpus_rules[i].name, corpus_rules[i].tables);
	KUNIT_EXPECT_EQ(test, corpus.agree + corpus.deliberate + corpus.differ,
			(int)corpus.tables);
	KUNIT_EXPECT_EQ(test, corpus.differ, 0);
	kunit_log(KERN_INFO, test, KUNIT_SUBTEST_INDENT
		  "# opp_of_corpus: %u tables from %u boards: %d agree, %d deliberate, %d differ",
		  corpus.tables, corpus.boards, corpus.agree, corpus.deliberate,
		  corpus.differ);
}

static struct kunit_case corpus_cases[] = {
	KUNIT_CASE(opp_of_corpus_present),
	KUNIT_CASE(opp_of_corpus_v1),
	KUNIT_CASE(opp_of_corpus_v2),
	KUNIT_CASE(opp_of_corpus_required),
	KUNIT_CASE(opp_of_corpus_several),
	KUNIT_CASE(opp_of_corpus_summary),
	{}
};

/*
 * What the tables' interconnects point at: a provider, or the kernel's
 * parser (which gets the paths) defers every table with bandwidths.
 */
static struct icc_stub corpus_icc;

/*
 * The supplies and clocks of the tables of several: one rail both
 * devices get under every supply name of the corpus, one clock both get
 * under any name.
 */
static const char *corpus_supplies[CORPUS_MAX_NAMES + 1];
static const char * const corpus_devs[] = { CORPUS_OURS, CORPUS_KERNELS, NULL };
static struct provider corpus_provider;
static struct device *corpus_owner;

/* Every supply name of the corpus's entries, once, into corpus_supplies. */
static int corpus_supply_names(void)
{
	struct device_node *root = of_find_node_by_path(CORPUS_ROOT), *np;
	struct property *prop;
	const char *name;
	int n = 0, i;

	memset(corpus_supplies, 0, sizeof(corpus_supplies));
	if (!root)
		return 0;	/* opp_of_corpus_present() says so */
	for_each_child_of_node(root, np) {
		of_property_for_each_string(np, "opp-corpus,regulator-names", prop, name) {
			for (i = 0; i < n && strcmp(corpus_supplies[i], name); i++)
				;
			if (i < n)
				continue;
			if (n == CORPUS_MAX_NAMES) {
				of_node_put(np);
				of_node_put(root);
				pr_err("opp_of_corpus: more than %d supply names\n",
				       CORPUS_MAX_NAMES);
				return -E2BIG;
			}
			corpus_supplies[n++] = name;
		}
	}
	of_node_put(root);
	return n;
}

static void corpus_suite_exit(struct kunit_suite *suite)
{
	/* The configurations' puts leave device links to remove first. */
	device_link_wait_removal();
	opp_test_provider_rail_unregister(&corpus_provider);
	opp_test_provider_clock_unregister(&corpus_provider);
	if (!IS_ERR_OR_NULL(corpus_owner))
		root_device_unregister(corpus_owner);
	corpus_owner = NULL;
	opp_test_icc_stub_unregister(&corpus_icc);
}

/* The providers of the tables of several supplies or clocks. */
static int corpus_named_register(void)
{
	int n, ret;

	/* Without a module link: KUnit runs before the module's sysfs. */
	corpus_owner = __root_device_register("opp-corpus-providers", NULL);
	if (IS_ERR(corpus_owner))
		return PTR_ERR(corpus_owner);
	n = corpus_supply_names();
	if (n < 0)
		return n;
	opp_test_provider_init(&corpus_provider, 100000000, 0);
	/* Any voltage a board's table holds is within the rail's range. */
	if (n) {
		ret = opp_test_provider_rail_register(&corpus_provider, corpus_owner,
						      "opp-corpus-rail", 0, 5000000,
						      corpus_supplies, corpus_devs);
		if (ret)
			return ret;
	}
	return opp_test_provider_clock_register(&corpus_provider, corpus_owner,
						"opp-corpus-clock", NULL, corpus_devs);
}

static int corpus_suite_init(struct kunit_suite *suite)
{
	int ret;

	ret = opp_test_icc_stub_register(&corpus_icc, "/opp-corpus/interconnect",
					 0x4f5200, 1, NULL);
	if (ret)
		return ret;
	ret = corpus_named_register();
	if (ret) {
		pr_err("opp_of_corpus: supply and clock providers: %d\n", ret);
		corpus_suite_exit(suite);
	}
	return ret;
}

static struct kunit_suite corpus_suite = {
	.suite_init = corpus_suite_init,
	.suite_exit = corpus_suite_exit,
	.name = "opp_of_corpus",
	.init = corpus_init,
	.exit = corpus_exit,
	.test_cases = corpus_cases,
};

kunit_test_suite(corpus_suite);

MODULE_DESCRIPTION("KUnit: the kernel tree's OPP tables, this library against the kernel's OPP core");
MODULE_LICENSE("GPL");
