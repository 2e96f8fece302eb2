// SPDX-License-Identifier: GPL-2.0-only
/*
 * Operating Performance Points library: tables from the device tree.
 *
 * Two dialects, chosen as the kernel's OPP core chooses them: a device
 * whose node has an ``operating-points-v2`` phandle gets the table node it
 * points at (Documentation/devicetree/bindings/opp/opp-v2*.yaml in the
 * kernel tree); any other gets its ``operating-points`` property, the
 * 2010 list of ``<kHz microvolts>`` pairs.
 *
 * Either way a table is parsed whole before anything is added, under the
 * update mutex, and added in one copy: a reader sees all of its OPPs or
 * none, and a fault anywhere adds nothing. Where the kernel's core rejects
 * a v2 table, this parser rejects it with the same error code; where the
 * kernel accepts something no table can mean (a rate of 0, a rate an
 * unsigned long cannot hold, a voltage triplet out of order), this parser
 * says -EINVAL. The table node's ``compatible`` is not read, as the
 * kernel's core does not read it: vendor tables such as
 * ``allwinner,sun50i-h6-operating-points`` are tables like any other.
 *
 * One clock and one supply per device unless opp_set_config() named
 * several: ``opp-hz`` holds one rate per clock and ``opp-microvolt`` one
 * value or one ``<target min max>`` triplet per supply. An OPP's key is
 * its ``opp-hz``, its ``opp-level``, or both, as the kernel's core reads
 * them, or its ``opp-peak-kBps`` (with
 * ``opp-avg-kBps``), one value per interconnect path of the device;
 * ``opp-microwatt`` is kept where the kernel reads it; ``required-opps``
 * are resolved into the tables read from their nodes, now or when those
 * are read.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/err.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "compat.h"
#include "opp.h"
#include "opp_internal.h"

static int opp_of_cmp_key(const void *a, const void *b)
{
	return opp_key_cmp(a, b);
}

/* Free @n points and the extras they still own. */
static void opp_of_free_points(struct opp *pts, unsigned int n)
{
	unsigned int i;

	for (i = 0; pts && i < n; i++)
		opp_extra_free(pts[i].extra);
	kfree(pts);
}

/*
 * Sort @pts by key (rate, then bandwidth, then level: opp_key_cmp()) and
 * collapse a key given twice with one voltage; the same key with two
 * voltages is -EEXIST, as the kernel's core answers a duplicate that
 * differs. Returns the number of points left, first in @pts; each extra
 * stays owned by exactly one entry of the @n, for opp_of_free_points().
 */
static int opp_of_sort(struct device *dev, struct device_node *np,
		       struct opp *pts, unsigned int n)
{
	unsigned int i, kept = 1;

	sort(pts, n, sizeof(*pts), opp_of_cmp_key, NULL);
	for (i = 1; i < n; i++) {
		if (opp_key_cmp(&pts[i], &pts[kept - 1])) {
			if (i != kept) {
				pts[kept] = pts[i];
				pts[i].extra = NULL;
			}
			kept++;
		} else if (pts[i].u_volt == pts[kept - 1].u_volt) {
			opp_extra_free(pts[i].extra);
			pts[i].extra = NULL;
		} else {
			dev_warn_ratelimited(dev, "%pOF: two voltages for %lu Hz\n", np,
					     pts[i].rate);
			return -EEXIST;
		}
	}
	return kept;
}

/* ---- operating-points (v1) ---- */

/*
 * The v1 table of @np in @pts (allocated here); returns the number of
 * points or an error. The v1 rules are this library's own since 2.6.37:
 * any fault is -EINVAL, two voltages for one rate included. The node's
 * voltage-tolerance (a percentage) widens each voltage into a range as
 * the kernel's core computes it (unsigned long arithmetic); a tolerance
 * that takes the range below 0 V is refused as a triplet out of order
 * would be, where the kernel keeps a minimum that wrapped around.
 */
static int opp_of_parse_v1(struct device *dev, struct device_node *np,
			   struct opp **pts_out)
{
	unsigned long tol;
	struct opp *pts;
	unsigned int i, n;
	u32 *cells, pct = 0;
	int ret;

	if (!of_find_property(np, "operating-points", NULL))
		return -ENODEV;
	ret = of_property_read_u32(np, "voltage-tolerance", &pct);
	if (ret && ret != -EINVAL) {
		dev_warn_ratelimited(dev, "%pOF: malformed voltage-tolerance\n", np);
		return -EINVAL;
	}
	ret = of_property_count_u32_elems(np, "operating-points");
	if (ret <= 0 || ret % 2) {
		dev_warn_ratelimited(dev, "%pOF: malformed operating-points\n", np);
		return -EINVAL;
	}
	n = ret / 2;

	cells = kmalloc_array(n, 2 * sizeof(*cells), GFP_KERNEL);
	pts = kcalloc(n, sizeof(*pts), GFP_KERNEL);
	if (!cells || !pts) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = of_property_read_u32_array(np, "operating-points", cells, 2 * n);
	if (ret)
		goto fail;
	for (i = 0; i < n; i++) {
		if (!cells[2 * i] || cells[2 * i] > ULONG_MAX / 1000) {
			dev_warn_ratelimited(dev, "%pOF: bad frequency %u kHz\n", np,
					     cells[2 * i]);
			ret = -EINVAL;
			goto fail;
		}
		pts[i].rate = (unsigned long)cells[2 * i] * 1000;
		pts[i].u_volt = cells[2 * i + 1];
		tol = pts[i].u_volt * pct / 100;
		pts[i].u_volt_min = pts[i].u_volt - tol;
		pts[i].u_volt_max = pts[i].u_volt + tol;
		if (pts[i].u_volt_min > pts[i].u_volt ||
		    pts[i].u_volt > pts[i].u_volt_max) {
			dev_warn_ratelimited(dev, "%pOF: voltage-tolerance %u%% of %lu uV out of range\n",
					     np, pct, pts[i].u_volt);
			ret = -EINVAL;
			goto fail;
		}
		/* Level 0, as the kernel's v1 reader leaves it, not "none". */
		pts[i].level = 0;
		pts[i].available = true;
	}
	ret = opp_of_sort(dev, np, pts, n);
	if (ret == -EEXIST)
		ret = -EINVAL;
	if (ret < 0)
		goto fail;
	kfree(cells);
	*pts_out = pts;
	return ret;
fail:
	kfree(cells);
	kfree(pts);
	return ret;
}

/* ---- operating-points-v2 ---- */

struct opp_of_v2 {
	struct device *dev;
	const struct opp_dev_config *cfg;
	/*
	 * opp-microvolt-<name>, opp-microamp-<name>, opp-microwatt-<name>
	 * (one allocation, at @uv_name): NULL without a name.
	 */
	char *uv_name;
	char *ua_name;
	char *uw_name;
	/*
	 * The supplies each OPP has values for: the number named, else -1
	 * until the table's first OPP says, then 0 or 1.
	 */
	int supplies;
	/* The clocks each opp-hz has a rate for. */
	unsigned int clks;
	/*
	 * Room for the cells of one supply property: @one, or with several
	 * supplies named, an allocation of three per supply.
	 */
	u32 *cells;
	u32 one[3];
	/* The points allocated (one per available child). */
	unsigned int total;
	/*
	 * The required-opps of the table's first OPP: the table node each
	 * points into, and the library's table of it if one was read.
	 */
	unsigned int nr_required;
	struct opp_of_req {
		struct device_node *tnp;
		struct opp_table *table;
	} *req;
	struct opp_table_facts facts;
};

static int opp_of_read_rate(struct opp_of_v2 *p, struct device_node *np,
			    struct opp *opp)
{
	struct property *prop = of_find_property(np, "opp-hz", NULL);
	unsigned int i;
	u64 hz;
	int ret;

	if (!prop)
		return -ENODEV;
	/* One 64-bit rate per clock, whole ones counted as the kernel does. */
	if (prop->length / sizeof(u64) != p->clks) {
		dev_warn_ratelimited(p->dev, "%pOF: opp-hz holds %d bytes for %u clocks\n",
				     np, prop->length, p->clks);
		return -EINVAL;
	}
	for (i = 0; i < p->clks; i++) {
		ret = of_property_read_u64_index(np, "opp-hz", i, &hz);
		if (ret)
			return ret;
		/* The first clock's rate keys the OPP: 0 would be no rate. */
		if ((!i && !hz) || hz > ULONG_MAX) {
			dev_warn_ratelimited(p->dev, "%pOF: opp-hz %llu is not a rate in Hz here\n",
					     np, hz);
			return -EINVAL;
		}
		if (p->clks > 1)
			opp->extra->rates[i] = hz;
	}
	opp->rate = p->clks > 1 ? opp->extra->rates[0] : hz;
	return 0;
}

/*
 * @np's ``opp-peak-kBps`` (@peak) or ``opp-avg-kBps`` into @opp's extra:
 * -ENODEV if it has none; -EINVAL unless it has one value per path of
 * the device, as the kernel's core counts them (whole cells; a table
 * whose first OPP gave no peak bandwidth has no path).
 */
static int opp_of_read_bw(struct opp_of_v2 *p, struct device_node *np,
			  struct opp *opp, bool peak)
{
	const char *name = peak ? "opp-peak-kBps" : "opp-avg-kBps";
	struct property *prop = of_find_property(np, name, NULL);
	unsigned int n = p->facts.nr_paths;
	u32 none;
	int ret;

	if (!prop)
		return -ENODEV;
	if (prop->length / sizeof(u32) != n) {
		dev_warn_ratelimited(p->dev, "%pOF: %s has %d bytes for %u interconnect paths\n",
				     np, name, prop->length, n);
		return -EINVAL;
	}
	ret = of_property_read_u32_array(np, name, n ? opp->extra->bw +
					 (peak ? 0 : n) : &none, n);
	if (ret)
		dev_warn_ratelimited(p->dev, "%pOF: %s unreadable (%d)\n", np,
				     name, ret);
	return ret;
}

/*
 * The key of @np, as the kernel's core reads it: ``opp-hz`` if it has
 * one, ``opp-peak-kBps`` (and then ``opp-avg-kBps``) if it has one,
 * ``opp-level`` if it has one; at least one of them. A malformed
 * ``opp-hz`` or bandwidth is an error; an ``opp-level`` that is not a u32
 * is no level.
 */
static int opp_of_read_key(struct opp_of_v2 *p, struct device_node *np,
			   struct opp *opp)
{
	bool found = false;
	u32 level;
	int ret;

	ret = opp_of_read_rate(p, np, opp);
	if (!ret)
		found = true;
	else if (ret != -ENODEV)
		return ret;
	ret = opp_of_read_bw(p, np, opp, true);
	if (!ret) {
		found = true;
		ret = opp_of_read_bw(p, np, opp, false);
	}
	if (ret && ret != -ENODEV)
		return ret;
	opp->level = OPP_LEVEL_NONE;
	if (!of_property_read_u32(np, "opp-level", &level)) {
		opp->level = level;
		found = true;
	}
	if (!found) {
		dev_warn_ratelimited(p->dev, "%pOF: no opp-hz, opp-peak-kBps or opp-level\n",
				     np);
		return -ENODEV;
	}
	return 0;
}

/*
 * Whether @np's opp-supported-hw matches the driver's mask: with a mask,
 * some version (one u32 per level) must share a bit with it at every
 * level, and an OPP without the property or with a malformed one is not
 * supported; without a mask, only an OPP without the property is.
 */
static bool opp_of_supported(struct opp_of_v2 *p, struct device_node *np)
{
	const char *name = "opp-supported-hw";
	unsigned int levels, i, j;
	int count;
	u32 v;

	if (!p->cfg || !p->cfg->supported_hw)
		return !of_find_property(np, name, NULL);
	levels = p->cfg->supported_hw_count;
	count = of_property_count_u32_elems(np, name);
	if (count <= 0 || count % levels) {
		dev_dbg(p->dev, "%pOF: %s has %d cells for %u levels\n", np,
			name, count, levels);
		return false;
	}
	for (i = 0; i < count / levels; i++) {
		for (j = 0; j < levels; j++)
			if (of_property_read_u32_index(np, name, i * levels + j,
						       &v) ||
			    !(v & p->cfg->supported_hw[j]))
				break;
		if (j == levels)
			return true;
	}
	return false;
}

/* @np's property @named (@base-<name>) if there is one, else @base. */
static struct property *opp_of_named_prop(struct device_node *np,
					  const char *named, const char *base)
{
	struct property *prop = named ? of_find_property(np, named, NULL) : NULL;

	return prop ?: of_find_property(np, base, NULL);
}

/*
 * @prop's cells into p->cells: one per supply, or with @triplets one
 * ``<target min max>`` per supply. Returns the number read, or -EINVAL.
 */
static int opp_of_supply_cells(struct opp_of_v2 *p, struct device_node *np,
			       struct property *prop, bool triplets)
{
	int n = p->supplies;
	int cells = of_property_count_u32_elems(np, prop->name);

	if (cells < 0)
		return cells;
	if (cells != n && (!triplets || cells != 3 * n)) {
		dev_warn_ratelimited(p->dev, "%pOF: %s has %d cells for %d supplies\n",
				     np, prop->name, cells, n);
		return -EINVAL;
	}
	if (of_property_read_u32_array(np, prop->name, p->cells, cells))
		return -EINVAL;
	return cells;
}

/* @prop, an opp-microvolt, into each supply's voltages of @sv. */
static int opp_of_read_microvolt(struct opp_of_v2 *p, struct device_node *np,
				 struct property *prop, struct opp_supply *sv)
{
	int n = opp_of_supply_cells(p, np, prop, true);
	bool triplets = n != p->supplies;
	int i;

	if (n < 0)
		return n;
	for (i = 0; i < p->supplies; i++) {
		sv[i].u_volt = p->cells[triplets ? 3 * i : i];
		sv[i].u_volt_min = triplets ? p->cells[3 * i + 1] : sv[i].u_volt;
		sv[i].u_volt_max = triplets ? p->cells[3 * i + 2] : sv[i].u_volt;
		if (sv[i].u_volt_min > sv[i].u_volt ||
		    sv[i].u_volt > sv[i].u_volt_max) {
			dev_warn_ratelimited(p->dev, "%pOF: %s is not <target min max>\n",
					     np, prop->name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * @prop, an opp-microamp (@amp) or opp-microwatt, into each supply's
 * value of @sv.
 */
static int opp_of_supply_values(struct opp_of_v2 *p, struct device_node *np,
				struct property *prop, struct opp_supply *sv,
				bool amp)
{
	int n = opp_of_supply_cells(p, np, prop, false);
	int i;

	if (n < 0)
		return n;
	for (i = 0; i < p->supplies; i++) {
		if (amp)
			sv[i].u_amp = p->cells[i];
		else
			sv[i].u_watt = p->cells[i];
	}
	return 0;
}

/*
 * The supply values of @np, by the rule of the kernel this runs on
 * (OPP_OF_SUPPLY_PROPS_DECOUPLED): the table's first OPP decides whether
 * the table has a supply, and an OPP of a table without one may carry no
 * supply value. Since 6.2 ``opp-microwatt-<name>`` is read like the
 * other two; 6.1 reads the plain ``opp-microwatt`` only.
 */
static int opp_of_read_supply(struct opp_of_v2 *p, struct device_node *np,
			      struct opp *opp)
{
	struct property *uv = opp_of_named_prop(np, p->uv_name, "opp-microvolt");
	struct property *ua = opp_of_named_prop(np, p->ua_name, "opp-microamp");
	struct property *uw = opp_of_named_prop(np, OPP_OF_SUPPLY_PROPS_DECOUPLED ?
						p->uw_name : NULL,
						"opp-microwatt");
	bool says = uv || (OPP_OF_SUPPLY_PROPS_DECOUPLED && (ua || uw));
	struct opp_supply one = { }, *sv;
	int ret, i;

	if (p->supplies < 0)
		p->supplies = says;
	if (!p->supplies) {
		if (!says)
			return 0;
		dev_warn_ratelimited(p->dev, "%pOF: supply values, unlike the table's first OPP\n",
				     np);
		return -EINVAL;
	}
	if (!uv && !OPP_OF_SUPPLY_PROPS_DECOUPLED) {
		dev_warn_ratelimited(p->dev, "%pOF: opp-microvolt missing, unlike the table's first OPP\n",
				     np);
		return -EINVAL;
	}
	/* Several supplies: each one's values in the extra, the first's here. */
	sv = p->supplies > 1 ? opp->extra->supply : &one;
	ret = uv ? opp_of_read_microvolt(p, np, uv, sv) : 0;
	if (!ret && ua)
		ret = opp_of_supply_values(p, np, ua, sv, true);
	if (!ret && uw)
		ret = opp_of_supply_values(p, np, uw, sv, false);
	if (ret)
		return ret;
	opp->u_volt = sv[0].u_volt;
	opp->u_volt_min = sv[0].u_volt_min;
	opp->u_volt_max = sv[0].u_volt_max;
	opp->u_amp = sv[0].u_amp;
	/* An OPP's power is all its supplies', as the kernel's core sums it. */
	for (i = 0; i < p->supplies; i++)
		opp->u_watt += sv[i].u_watt;
	return 0;
}

/*
 * The index of the OPP of @table that the OPP node @np describes, or -1:
 * the one with its key (``opp-hz``, each path's ``opp-peak-kBps``,
 * ``opp-level``; what a node lacks reads as a table's OPP without it
 * does). A table holds one OPP per key, so the key names the node's OPP.
 */
static int opp_of_find_node(struct opp_table *table, struct device_node *np)
{
	struct opp_array *arr = opp_array_locked(table);
	u32 level = OPP_LEVEL_NONE, peak;
	unsigned int k, i;
	u64 hz = 0;

	of_property_read_u64(np, "opp-hz", &hz);
	of_property_read_u32(np, "opp-level", &level);
	for (k = 0; k < arr->count; k++) {
		if (arr->opp[k].rate != hz || arr->opp[k].level != level)
			continue;
		for (i = 0; i < table->nr_paths; i++) {
			peak = 0;
			of_property_read_u32_index(np, "opp-peak-kBps", i, &peak);
			if (opp_peak_bw(&arr->opp[k], i) != peak)
				break;
		}
		if (i == table->nr_paths)
			return k;
	}
	return -1;
}

/*
 * Resolve @r into @table, the library's table of its table node: the
 * required OPP's level, then the table (a reference) published. Returns
 * the required OPP's index in @table, or -ENODEV if the OPP has no such
 * entry or @table has no OPP of its node.
 */
static int opp_of_resolve(struct opp_required *r, struct opp_table *table)
{
	int k = r->np ? opp_of_find_node(table, r->np) : -1;

	if (k < 0)
		return -ENODEV;
	WRITE_ONCE(r->level, opp_array_locked(table)->opp[k].level);
	kref_get(&table->ref);
	rcu_assign_pointer(r->table, table);
	return k;
}

/*
 * Whether an OPP of a table of a power domain's device (@genpd) or not
 * takes, from 6.8 on, the level of its one required OPP, in @table: see
 * OPP_OF_REQUIRED_GENPD_LEVEL.
 */
static bool opp_of_inherits_level(bool genpd, unsigned int nr_required,
				  const struct opp_table *table)
{
	return OPP_OF_REQUIRED_GENPD_LEVEL && nr_required == 1 &&
	       table->genpd && !genpd;
}

/*
 * @np's required-opps into @opp's extra, as the kernel's core reads
 * them: an entry whose table was read is resolved now, and then the OPP
 * must name an OPP of that table (-ENODEV otherwise), is unavailable if
 * that OPP is, and may take its level (opp_of_inherits_level()); an
 * entry whose table was not read yet stays pending until it is
 * (opp_of_link_pending()).
 */
static int opp_of_read_required(struct opp_of_v2 *p, struct device_node *np,
				struct opp *opp)
{
	struct opp_required *r;
	struct opp_table *table;
	unsigned int i;
	int k;

	for (i = 0; i < p->nr_required; i++) {
		r = &opp->extra->req[i];
		r->tnp = of_node_get(p->req[i].tnp);
		r->np = of_parse_phandle(np, "required-opps", i);
		table = p->req[i].table;
		if (!table)
			continue;
		k = opp_of_resolve(r, table);
		if (k < 0) {
			dev_warn_ratelimited(p->dev, "%pOF: required-opps %u names no OPP of %pOF\n",
					     np, i, table->np);
			return k;
		}
		if (!opp_array_locked(table)->opp[k].available)
			opp->available = false;
		if (opp_of_inherits_level(p->facts.genpd, p->nr_required, table) &&
		    opp->level == OPP_LEVEL_NONE)
			opp->level = r->level;
	}
	return 0;
}

/*
 * One OPP node into @opp: 1 if it belongs in the table, 0 if the hardware
 * does not support it, or an error.
 */
static int opp_of_read_opp(struct opp_of_v2 *p, struct device_node *np,
			   struct opp *opp)
{
	struct opp_extra_size size = {
		.nr_paths = p->facts.nr_paths,
		.nr_required = p->nr_required,
		.nr_supplies = p->supplies > 1 ? p->supplies : 0,
		.nr_clks = p->clks > 1 ? p->clks : 0,
	};
	u32 ns;
	int ret;

	if (size.nr_paths || size.nr_required || size.nr_supplies ||
	    size.nr_clks) {
		opp->extra = opp_extra_alloc(&size);
		if (!opp->extra)
			return -ENOMEM;
	}
	ret = opp_of_read_key(p, np, opp);
	if (ret)
		return ret;
	if (!opp_of_supported(p, np))
		return 0;
	opp->available = true;
	ret = opp_of_read_required(p, np, opp);
	if (ret)
		return ret;
	ret = opp_of_read_supply(p, np, opp);
	if (ret)
		return ret;
	opp->turbo = of_property_read_bool(np, "turbo-mode");
	opp->suspend = of_property_read_bool(np, "opp-suspend");
	if (!of_property_read_u32(np, "clock-latency-ns", &ns) &&
	    ns > p->facts.clock_latency_ns)
		p->facts.clock_latency_ns = ns;
	return 1;
}

/* The v2 table node @tnp in @pts (allocated here), as opp_of_parse_v1(). */
static int opp_of_parse_v2(struct opp_of_v2 *p, struct device_node *tnp,
			   struct opp **pts_out)
{
	struct device_node *np;
	unsigned int n = 0;
	struct opp *pts;
	size_t len;
	int ret;

	p->facts.shared = of_property_read_bool(tnp, "opp-shared");
	p->cells = p->one;
	if (p->supplies > 1) {
		p->cells = kmalloc_array(3 * p->supplies, sizeof(*p->cells),
					 GFP_KERNEL);
		if (!p->cells)
			return -ENOMEM;
	}
	if (p->cfg && p->cfg->prop_name) {
		/* The three names in one allocation, each room for the longest. */
		len = sizeof("opp-microwatt-") + strlen(p->cfg->prop_name);
		p->uv_name = kmalloc_array(3, len, GFP_KERNEL);
		if (!p->uv_name) {
			ret = -ENOMEM;
			goto names;
		}
		p->ua_name = p->uv_name + len;
		p->uw_name = p->ua_name + len;
		snprintf(p->uv_name, len, "opp-microvolt-%s", p->cfg->prop_name);
		snprintf(p->ua_name, len, "opp-microamp-%s", p->cfg->prop_name);
		snprintf(p->uw_name, len, "opp-microwatt-%s", p->cfg->prop_name);
	}

	p->total = of_get_available_child_count(tnp);
	pts = kcalloc(p->total, sizeof(*pts), GFP_KERNEL);
	if (!pts) {
		ret = -ENOMEM;
		goto names;
	}
	for_each_available_child_of_node(tnp, np) {
		ret = opp_of_read_opp(p, np, &pts[n]);
		if (ret < 0) {
			of_node_put(np);
			goto fail;
		}
		if (!ret) {
			/* Not for this hardware: the slot is the next OPP's. */
			opp_extra_free(pts[n].extra);
			memset(&pts[n], 0, sizeof(pts[n]));
		}
		n += ret;
	}
	if (!n) {
		dev_warn_ratelimited(p->dev, "%pOF: no OPP this hardware supports\n", tnp);
		ret = -ENOENT;
		goto fail;
	}
	ret = opp_of_sort(p->dev, tnp, pts, n);
	if (ret < 0)
		goto fail;
	*pts_out = pts;
	goto names;
fail:
	opp_of_free_points(pts, p->total);
names:
	kfree(p->uv_name);
	if (p->cells != p->one)
		kfree(p->cells);
	return ret;
}

/* The library's table read from the table node @tnp, or NULL. */
static struct opp_table *opp_of_table_of_node(struct device_node *tnp)
{
	struct opp_table *table;

	lockdep_assert_held(&opp_lock);
	list_for_each_entry(table, &opp_table_list, list_node)
		if (tnp && table->np == tnp)
			return table;
	return NULL;
}

/*
 * The tables the OPPs of @tnp require, as the kernel's core finds them:
 * from the ``required-opps`` of the table's first available OPP, one
 * table node per entry, with the library's table of it where one was
 * read. An entry that points at nothing makes the table one without
 * required OPPs, as in the kernel.
 */
static int opp_of_required_tables(struct opp_of_v2 *p, struct device_node *tnp)
{
	struct device_node *first = of_get_next_available_child(tnp, NULL);
	struct device_node *rnp;
	int i, count, ret = 0;

	if (!first)
		return 0;
	count = of_count_phandle_with_args(first, "required-opps", NULL);
	if (count <= 0)
		goto out;
	p->req = kcalloc(count, sizeof(*p->req), GFP_KERNEL);
	if (!p->req) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < count; i++) {
		rnp = of_parse_phandle(first, "required-opps", i);
		if (!rnp) {
			dev_warn_ratelimited(p->dev, "%pOF: required-opps %d points at nothing: ignored\n",
					     first, i);
			while (i--)
				of_node_put(p->req[i].tnp);
			kfree(p->req);
			p->req = NULL;
			goto out;
		}
		p->req[i].tnp = of_get_parent(rnp);
		of_node_put(rnp);
		p->req[i].table = opp_of_table_of_node(p->req[i].tnp);
	}
	p->nr_required = count;
out:
	of_node_put(first);
	return ret;
}

static void opp_of_required_put(struct opp_of_v2 *p)
{
	unsigned int i;

	for (i = 0; p->req && i < p->nr_required; i++)
		of_node_put(p->req[i].tnp);
	kfree(p->req);
}

/*
 * @fresh was just read: resolve every pending required-opps entry of
 * every table that points into it, as the kernel's core links them once
 * the required table is parsed. An OPP whose required OPP is unavailable
 * becomes unavailable; one that takes its required OPP's level gets it
 * in place (from 6.8 on). An entry @fresh cannot resolve stays pending.
 */
static void opp_of_link_pending(struct opp_table *fresh)
{
	struct opp_array *arr, *req_arr;
	struct opp_required *r;
	struct opp_table *table;
	struct opp_extra *x;
	unsigned int k, i;
	int j;

	if (!fresh || !fresh->np)
		return;
	req_arr = opp_array_locked(fresh);
	list_for_each_entry(table, &opp_table_list, list_node) {
		arr = opp_array_locked(table);
		for (k = 0; k < arr->count; k++) {
			x = arr->opp[k].extra;
			for (i = 0; x && i < x->nr_required; i++) {
				r = &x->req[i];
				if (rcu_access_pointer(r->table) || r->tnp != fresh->np)
					continue;
				j = opp_of_resolve(r, fresh);
				if (j < 0) {
					dev_warn_ratelimited(table->dev, "required-opps %u names no OPP of %pOF: pending\n",
							     i, fresh->np);
					continue;
				}
				if (!req_arr->opp[j].available && arr->opp[k].available)
					opp_set_available(table, k, false);
				if (opp_of_inherits_level(table->genpd, x->nr_required, fresh) &&
				    arr->opp[k].level == OPP_LEVEL_NONE)
					WRITE_ONCE(arr->opp[k].level, r->level);
			}
		}
	}
}

/*
 * The number of interconnect paths whose bandwidth the OPPs of @tnp give
 * for @dev, as the kernel's core counts them: none unless the table's
 * first available OPP has a (non-empty) ``opp-peak-kBps``; then one per
 * pair of entries of the device node's ``interconnects``, and none if it
 * has none or an odd number of them (the kernel warns and goes on).
 * The library takes no interconnect path: setting a bandwidth is the
 * caller's business.
 */
static unsigned int opp_of_paths(struct device *dev, struct device_node *np,
				 struct device_node *tnp)
{
	struct device_node *first = of_get_next_available_child(tnp, NULL);
	struct property *prop;
	int count;

	if (!first)
		return 0;
	prop = of_find_property(first, "opp-peak-kBps", NULL);
	of_node_put(first);
	if (!prop || !prop->length)
		return 0;
	count = of_count_phandle_with_args(np, "interconnects",
					   "#interconnect-cells");
	if (count < 0)
		return 0;
	if (count % 2) {
		dev_warn_ratelimited(dev, "%pOF: %d interconnects entries, not pairs\n",
				     np, count);
		return 0;
	}
	return count / 2;
}

/**
 * opp_of_add_table() - add the OPPs a device's node describes
 * @dev:	the device; its of_node carries the table
 *
 * With an ``operating-points-v2`` phandle in the node, reads the table
 * node it points at, whatever its ``compatible`` says: each available
 * ``opp-*`` child whose ``opp-supported-hw`` suits the mask of
 * opp_set_config() becomes an OPP, with its ``opp-hz``,
 * ``opp-microvolt`` (one value or ``<target min max>`` per supply;
 * ``opp-microvolt-<name>`` where opp_set_config() named one),
 * ``opp-microamp``, ``opp-microwatt``, ``opp-level``, ``opp-peak-kBps``
 * and ``opp-avg-kBps`` (one value per interconnect path of the device; an
 * OPP needs ``opp-hz``, ``opp-peak-kBps`` or ``opp-level``),
 * ``required-opps`` (resolved into the library's tables of their nodes,
 * or pending until those are read; see Documentation/opp.rst),
 * ``turbo-mode`` and ``opp-suspend``; which OPPs may carry supply values
 * follows the rule of the kernel's OPP core of the running kernel (the
 * table's first OPP decides; see compat.h); the table keeps the largest
 * ``clock-latency-ns`` and whether it is ``opp-shared``. A device whose
 * node points at an ``opp-shared`` table that another device already
 * read, and which has no table of its own, shares that table (see
 * opp_set_sharing_cpus()) and reads nothing.
 * Otherwise reads the node's ``operating-points`` property, a list of
 * ``<kHz microvolts>`` pairs in any order, each voltage widened into a
 * range by the node's ``voltage-tolerance`` (a percentage, 0 if absent).
 *
 * The whole table is read first and added in one update: a concurrent
 * reader sees all of it or none, and any fault adds nothing. OPPs already
 * in the table follow the rule of opp_add(). Notifies OPP_EVENT_ADD for
 * each OPP added.
 *
 * Context: process context; may sleep. Takes the library's update mutex;
 * must not be called under rcu_read_lock().
 *
 * Return: 0 on success; -EINVAL if @dev is NULL or an ERR_PTR or has no
 * device tree node; -ENODEV if the node has neither property, a v2 OPP
 * has no ``opp-hz``, ``opp-peak-kBps`` or ``opp-level``, or one of its
 * ``required-opps`` into a table already read names no OPP of it;
 * -ENOENT if no v2 OPP is left for this hardware; -EEXIST if one key has
 * two voltages in a v2 table, or an OPP conflicts with the table; -EINVAL
 * for any other fault (a v1 list empty, odd, with a frequency of 0 or too
 * large, or one rate with two voltages, or a ``voltage-tolerance`` shorter
 * than a cell or wide enough to take a range below 0 V; an ``opp-hz`` not one rate per
 * clock (one, or as many as opp_set_config() named), its first 0 or any
 * out of range, an ``opp-microvolt`` of other than one value or one
 * triplet per supply (one, or as many as opp_set_config() named) or out
 * of order, an ``opp-microamp`` or ``opp-microwatt`` of other than one
 * value per supply, an
 * ``opp-peak-kBps`` or ``opp-avg-kBps`` of other than one value per path
 * (a table whose first OPP has no bandwidth has no path), supply values
 * on an OPP of a table whose first OPP has none; before 6.2, as the
 * kernel's core then, an ``opp-microvolt`` missing from an OPP of a table
 * whose first OPP has one); the error of the device-tree read for a
 * property whose length is not whole cells; -ENOMEM if memory ran out.
 */
int opp_of_add_table(struct device *dev)
{
	struct opp_of_v2 p = { .dev = dev, .supplies = -1, .clks = 1 };
	struct device_node *np, *tnp;
	struct opp *pts = NULL;
	u32 ns;
	int ret;

	might_sleep();
	if (opp_bad_dev(dev, __func__))
		return -EINVAL;
	np = dev->of_node;
	if (!np) {
		dev_warn_ratelimited(dev, "%s: no device tree node\n", __func__);
		return -EINVAL;
	}
	/* The device's own clock-latency, as the kernel's core reads it. */
	if (!of_property_read_u32(np, "clock-latency", &ns))
		p.facts.clock_latency_ns = ns;

	tnp = of_parse_phandle(np, "operating-points-v2", 0);
	p.facts.np = tnp;
	mutex_lock(&opp_lock);
	/*
	 * A shared table another device read already: @dev joins it, as
	 * read then (a device with a table of its own merges into that).
	 */
	if (tnp && of_property_read_bool(tnp, "opp-shared")) {
		ret = opp_share_of_locked(dev, tnp);
		if (ret != -ENOENT)
			goto unlock;
	}
	p.cfg = opp_config_locked(dev);
	if (p.cfg && p.cfg->nr_supplies)
		p.supplies = p.cfg->nr_supplies;
	if (p.cfg && p.cfg->nr_clks)
		p.clks = p.cfg->nr_clks;
	if (tnp) {
		p.facts.nr_paths = opp_of_paths(dev, np, tnp);
		p.facts.genpd = !!of_find_property(np, "#power-domain-cells", NULL);
		ret = opp_of_required_tables(&p, tnp);
		if (ret)
			goto unlock;
	}
	ret = tnp ? opp_of_parse_v2(&p, tnp, &pts) :
		opp_of_parse_v1(dev, np, &pts);
	if (ret > 0)
		ret = opp_add_points_locked(dev, p.cfg, pts, ret, &p.facts);
	if (!ret && tnp)
		opp_of_link_pending(opp_table_locked(dev));
unlock:
	mutex_unlock(&opp_lock);
	of_node_put(tnp);
	opp_of_free_points(pts, p.total);
	opp_of_required_put(&p);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_of_add_table);
