// SPDX-License-Identifier: GPL-2.0-only
/*
 * opp_bench, the corpus rows: the OPP tables of the kernel tree's own
 * boards (scripts/opp-corpus.py; the harness applies them under
 * /opp-corpus for bench boots too), read by each library in turn through
 * the same devices: the time to read all of them, and the slab they hold
 * per OPP once read.
 *
 * Only the entries that both libraries read on their own are taken: no
 * configuration (a supported-hw mask, a voltage name, supply or clock
 * names), no required OPPs (their providers would be read too), no power
 * domain or interconnect paths (the kernel's side would call into those
 * frameworks), no documented difference; and of those, the ones both
 * read without an error. The rows say how many that is.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/of.h>
#include <linux/slab.h>

#include "../opp.h"
#include "opp_bench.h"

#define CORPUS_ROOT	"/opp-corpus"

/* What makes an entry need more than its own node (see the header). */
static const char * const corpus_needs[] = {
	"opp-corpus,providers", "opp-corpus,supported-hw",
	"opp-corpus,prop-name", "opp-corpus,rule", "opp-corpus,several",
	"#power-domain-cells", "interconnects",
};

static bool corpus_alone(struct device_node *np)
{
	unsigned int i;

	if (!of_property_present(np, "operating-points-v2") &&
	    !of_property_present(np, "operating-points"))
		return false;
	for (i = 0; i < ARRAY_SIZE(corpus_needs); i++)
		if (of_property_present(np, corpus_needs[i]))
			return false;
	return true;
}

static int corpus_add(enum bench_impl impl, struct device *dev)
{
	return impl == OURS ? opp_of_add_table(dev) : mainline_of_add_table(dev);
}

static void corpus_remove(enum bench_impl impl, struct device *dev)
{
	if (impl == OURS)
		opp_remove_table(dev);
	else
		mainline_of_remove_table(dev);
}

/* Read every table of @devs[0..n) in @impl; the ns the reads took. */
static s64 corpus_read_all(enum bench_impl impl, struct device **devs,
			   unsigned int n)
{
	u64 ns = 0, t0;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		t0 = ktime_get_ns();
		ret = corpus_add(impl, devs[i]);
		ns += ktime_get_ns() - t0;
		if (ret) {
			pr_err("%pOF: read %d, which both read before\n",
			       devs[i]->of_node, ret);
			while (i--)
				corpus_remove(impl, devs[i]);
			return ret;
		}
	}
	return ns;
}

static void corpus_remove_all(enum bench_impl impl, struct device **devs,
			      unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		corpus_remove(impl, devs[i]);
}

/*
 * The first OPP of @dev's table at or above *@f in @impl (*@f its rate):
 * its address, and in *@extra that of our OPP's extras if it has one
 * (several supplies, bandwidth); 0 if there is none.
 */
static unsigned long corpus_ceil(enum bench_impl impl, struct device *dev,
				 unsigned long *f, unsigned long *extra)
{
	struct opp *opp;

	*extra = 0;
	if (impl == MAINLINE)
		return mainline_find_ceil_addr(dev, f);
	rcu_read_lock();
	opp = opp_find_freq_ceil(dev, f);
	rcu_read_unlock();
	if (IS_ERR(opp))
		return 0;
	*extra = (unsigned long)opp->extra;
	return (unsigned long)opp;
}

/*
 * The addresses of the allocations that hold the OPPs of @dev's table in
 * @impl, found by a walk up its rates, appended to @p (at most @max); the
 * number of OPPs found, or -ENOSPC. The table does not change meanwhile,
 * so the addresses stay valid after the search.
 */
static int corpus_opp_addrs(enum bench_impl impl, struct device *dev,
			    unsigned long *p, unsigned int max,
			    unsigned int *nr)
{
	unsigned long f, addr, extra;
	int n = 0;

	for (f = 0; (addr = corpus_ceil(impl, dev, &f, &extra)); f++, n++) {
		if (*nr + 2 > max)
			return -ENOSPC;
		p[(*nr)++] = addr;
		if (extra)
			p[(*nr)++] = extra;
	}
	return n;
}

/* One table's allocated bytes and OPPs, as each library holds it. */
struct corpus_table {
	size_t bytes[NR_IMPL];
	int opps[NR_IMPL];	/* -1: a walk by rate does not find them all */
};

/*
 * Fill @t[0..n) for @impl from the tables of @devs, as the opp-object
 * rows count bytes (bench_alloc_bytes()): a table whose OPPs a walk by
 * rate does not find, all of them (keyed by level alone), is marked.
 */
static int corpus_opp_bytes(enum bench_impl impl, struct device **devs,
			    unsigned int n, struct corpus_table *t)
{
	unsigned int i, nr, max = 1024;
	unsigned long *p;
	int found, count;

	p = kcalloc(max, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		nr = 0;
		count = impl == OURS ? opp_get_opp_count(devs[i]) :
			mainline_opp_count(devs[i]);
		found = corpus_opp_addrs(impl, devs[i], p, max, &nr);
		if (found < 0) {
			kfree(p);
			return found;
		}
		t[i].opps[impl] = found == count ? found : -1;
		t[i].bytes[impl] = bench_alloc_bytes(p, nr);
	}
	kfree(p);
	return 0;
}

/*
 * Give each entry that both libraries read on their own a device of
 * @devs, in the tree's order; the number given, or an error.
 */
static int corpus_pick(struct device **devs, unsigned int ndev,
		       struct bench_corpus *c)
{
	struct device_node *root, *np;
	unsigned int n = 0;
	int ours, mainline;

	root = of_find_node_by_path(CORPUS_ROOT);
	if (!root)
		return -ENOENT;
	for_each_child_of_node(root, np) {
		if (!of_node_name_prefix(np, "entry-"))
			continue;
		c->entries++;
		if (!corpus_alone(np))
			continue;
		if (n == ndev) {
			of_node_put(np);
			break;
		}
		devs[n]->of_node = of_node_get(np);
		ours = corpus_add(OURS, devs[n]);
		mainline = corpus_add(MAINLINE, devs[n]);
		if (!ours)
			corpus_remove(OURS, devs[n]);
		if (!mainline)
			corpus_remove(MAINLINE, devs[n]);
		if (ours || mainline) {
			of_node_put(devs[n]->of_node);
			devs[n]->of_node = NULL;
			continue;
		}
		n++;
	}
	of_node_put(root);
	return n;
}

/*
 * The corpus rows' figures in @c: the tables read runs times by each
 * library in turn (alternating, so that a slow stretch of the host falls
 * on both), then once more each to count the bytes their OPPs are
 * allocated in, over the tables whose OPPs both walk by rate (not under
 * KASAN, whose checks ksize() of an inner pointer trips). -ENOENT if the
 * guest's tree has no corpus, -ENODATA if no table of it was read by
 * both.
 */
int bench_corpus(struct device **devs, unsigned int ndev, unsigned int runs,
		 struct bench_corpus *c)
{
	u64 t[NR_IMPL][BENCH_MAX_RUNS];
	struct corpus_table *tab;
	enum bench_impl impl;
	unsigned int r, i;
	int n, ret = 0;
	s64 ns;

	memset(c, 0, sizeof(*c));
	n = corpus_pick(devs, ndev, c);
	if (n < 0)
		return n;
	if (!n)
		return -ENODATA;
	c->tables = n;
	tab = kcalloc(n, sizeof(*tab), GFP_KERNEL);
	if (!tab) {
		ret = -ENOMEM;
		goto out;
	}
	for (r = 0; r < runs && !ret; r++) {
		for (impl = 0; impl < NR_IMPL && !ret; impl++) {
			ns = corpus_read_all(impl, devs, n);
			if (ns < 0) {
				ret = ns;
				break;
			}
			t[impl][r] = ns;
			corpus_remove_all(impl, devs, n);
			cond_resched();
		}
	}
	for (impl = 0; impl < NR_IMPL && !ret; impl++) {
		c->read_ns[impl] = bench_median(t[impl], runs);
		if (IS_ENABLED(CONFIG_KASAN))
			continue;
		ns = corpus_read_all(impl, devs, n);
		if (ns < 0) {
			ret = ns;
			break;
		}
		ret = corpus_opp_bytes(impl, devs, n, tab);
		corpus_remove_all(impl, devs, n);
	}
	for (i = 0; i < n && !ret && !IS_ENABLED(CONFIG_KASAN); i++) {
		if (tab[i].opps[OURS] < 0 || tab[i].opps[MAINLINE] < 0)
			continue;
		if (tab[i].opps[OURS] != tab[i].opps[MAINLINE]) {
			pr_err("%pOF: this library holds %d OPPs, the kernel's %d\n",
			       devs[i]->of_node, tab[i].opps[OURS],
			       tab[i].opps[MAINLINE]);
			ret = -EPROTO;
			break;
		}
		c->walked++;
		c->opps += tab[i].opps[OURS];
		for (impl = 0; impl < NR_IMPL; impl++)
			c->bytes[impl] += tab[i].bytes[impl];
	}
	kfree(tab);
out:
	for (i = 0; i < n; i++) {
		of_node_put(devs[i]->of_node);
		devs[i]->of_node = NULL;
	}
	return ret;
}
