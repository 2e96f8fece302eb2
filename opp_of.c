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
 * unsigned long cannot hold, a voltage triplet out of order, a table node
 * of another binding), this parser says -EINVAL.
 *
 * One clock and one supply per device: ``opp-hz`` holds one rate and
 * ``opp-microvolt`` one value or one ``<target min max>`` triplet. Keys
 * other than ``opp-hz`` (``opp-level``, bandwidths) and ``required-opps``
 * are not read; ``opp-microwatt`` is checked as the kernel checks it, not
 * kept.
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

static int opp_of_cmp_rate(const void *a, const void *b)
{
	const struct opp *x = a, *y = b;

	return x->rate < y->rate ? -1 : x->rate > y->rate;
}

/*
 * Sort @pts by rate and collapse a rate given twice with one voltage; the
 * same rate with two voltages is -EEXIST, as the kernel's core answers a
 * duplicate that differs. Returns the number of points left.
 */
static int opp_of_sort(struct device *dev, struct device_node *np,
		       struct opp *pts, unsigned int n)
{
	unsigned int i, kept = 1;

	sort(pts, n, sizeof(*pts), opp_of_cmp_rate, NULL);
	for (i = 1; i < n; i++) {
		if (pts[i].rate != pts[kept - 1].rate) {
			pts[kept++] = pts[i];
		} else if (pts[i].u_volt != pts[kept - 1].u_volt) {
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
 * any fault is -EINVAL, two voltages for one rate included.
 */
static int opp_of_parse_v1(struct device *dev, struct device_node *np,
			   struct opp **pts_out)
{
	struct opp *pts;
	unsigned int i, n;
	u32 *cells;
	int ret;

	if (!of_find_property(np, "operating-points", NULL))
		return -ENODEV;
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
		pts[i].u_volt_min = pts[i].u_volt;
		pts[i].u_volt_max = pts[i].u_volt;
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
	/* opp-microvolt-<name>, opp-microamp-<name>: NULL without a name. */
	char *uv_name;
	char *ua_name;
	/* OPPs with opp-microvolt: -1 until the first OPP says, then 0 or 1. */
	int supplies;
	struct opp_table_facts facts;
};

static int opp_of_read_rate(struct opp_of_v2 *p, struct device_node *np,
			    struct opp *opp)
{
	struct property *prop = of_find_property(np, "opp-hz", NULL);
	u64 hz;
	int ret;

	if (!prop) {
		dev_warn_ratelimited(p->dev, "%pOF: no opp-hz\n", np);
		return -ENODEV;
	}
	/* One clock: one 64-bit rate (what follows it is not read). */
	if (prop->length / sizeof(u64) != 1) {
		dev_warn_ratelimited(p->dev, "%pOF: opp-hz holds %d bytes, not one rate\n",
				     np, prop->length);
		return -EINVAL;
	}
	ret = of_property_read_u64(np, "opp-hz", &hz);
	if (ret)
		return ret;
	if (!hz || hz > ULONG_MAX) {
		dev_warn_ratelimited(p->dev, "%pOF: opp-hz %llu is not a rate in Hz here\n",
				     np, hz);
		return -EINVAL;
	}
	opp->rate = hz;
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

/* @prop of @np: exactly @n cells (one per supply), or -EINVAL. */
static int opp_of_supply_cells(struct opp_of_v2 *p, struct device_node *np,
			       struct property *prop, int n)
{
	int cells = of_property_count_u32_elems(np, prop->name);

	if (cells < 0)
		return cells;
	if (cells != n) {
		dev_warn_ratelimited(p->dev, "%pOF: %s has %d cells for one supply\n",
				     np, prop->name, cells);
		return -EINVAL;
	}
	return 0;
}

static int opp_of_read_microvolt(struct opp_of_v2 *p, struct device_node *np,
				 struct property *prop, struct opp *opp)
{
	u32 uv[3];
	int n;

	n = of_property_count_u32_elems(np, prop->name);
	if (n < 0)
		return n;
	if (n != 1 && n != 3) {
		dev_warn_ratelimited(p->dev, "%pOF: %s has %d cells, not 1 or 3\n", np,
				     prop->name, n);
		return -EINVAL;
	}
	if (of_property_read_u32_array(np, prop->name, uv, n))
		return -EINVAL;
	opp->u_volt = uv[0];
	opp->u_volt_min = n == 3 ? uv[1] : uv[0];
	opp->u_volt_max = n == 3 ? uv[2] : uv[0];
	if (opp->u_volt_min > opp->u_volt || opp->u_volt > opp->u_volt_max) {
		dev_warn_ratelimited(p->dev, "%pOF: %s is not <target min max>\n", np,
				     prop->name);
		return -EINVAL;
	}
	return 0;
}

/*
 * The supply values of @np, by the rule of the kernel this runs on
 * (OPP_OF_SUPPLY_PROPS_DECOUPLED): the table's first OPP decides whether
 * the table has a supply, and an OPP of a table without one may carry no
 * supply value. opp-microwatt is checked as the kernel checks it, not
 * kept.
 */
static int opp_of_read_supply(struct opp_of_v2 *p, struct device_node *np,
			      struct opp *opp)
{
	struct property *uv = opp_of_named_prop(np, p->uv_name, "opp-microvolt");
	struct property *ua = opp_of_named_prop(np, p->ua_name, "opp-microamp");
	struct property *uw = of_find_property(np, "opp-microwatt", NULL);
	bool says = uv || (OPP_OF_SUPPLY_PROPS_DECOUPLED && (ua || uw));
	u32 ua_val;
	int ret;

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
	if (uv) {
		ret = opp_of_read_microvolt(p, np, uv, opp);
		if (ret)
			return ret;
	}
	if (ua) {
		ret = opp_of_supply_cells(p, np, ua, 1);
		if (ret)
			return ret;
		if (of_property_read_u32(np, ua->name, &ua_val))
			return -EINVAL;
		opp->u_amp = ua_val;
	}
	return uw ? opp_of_supply_cells(p, np, uw, 1) : 0;
}

/*
 * One OPP node into @opp: 1 if it belongs in the table, 0 if the hardware
 * does not support it, or an error.
 */
static int opp_of_read_opp(struct opp_of_v2 *p, struct device_node *np,
			   struct opp *opp)
{
	u32 ns;
	int ret;

	ret = opp_of_read_rate(p, np, opp);
	if (ret)
		return ret;
	if (!opp_of_supported(p, np))
		return 0;
	ret = opp_of_read_supply(p, np, opp);
	if (ret)
		return ret;
	opp->available = true;
	opp->turbo = of_property_read_bool(np, "turbo-mode");
	opp->suspend = of_property_read_bool(np, "opp-suspend");
	if (!of_property_read_u32(np, "clock-latency-ns", &ns) &&
	    ns > p->facts.clock_latency_ns)
		p->facts.clock_latency_ns = ns;
	return 1;
}

/* The v2 binding, or one built on it ("operating-points-v2-<soc>"). */
static bool opp_of_is_v2(struct device_node *tnp)
{
	struct property *prop;
	const char *c;

	of_property_for_each_string(tnp, "compatible", prop, c)
		if (str_has_prefix(c, "operating-points-v2"))
			return true;
	return false;
}

/* The v2 table node @tnp in @pts (allocated here), as opp_of_parse_v1(). */
static int opp_of_parse_v2(struct opp_of_v2 *p, struct device_node *tnp,
			   struct opp **pts_out)
{
	struct device_node *np;
	unsigned int n = 0;
	struct opp *pts;
	int ret;

	if (!opp_of_is_v2(tnp)) {
		dev_warn_ratelimited(p->dev, "%pOF: not an operating-points-v2 table\n",
				     tnp);
		return -EINVAL;
	}
	p->facts.shared = of_property_read_bool(tnp, "opp-shared");
	if (p->cfg && p->cfg->prop_name) {
		p->uv_name = kasprintf(GFP_KERNEL, "opp-microvolt-%s",
				       p->cfg->prop_name);
		p->ua_name = kasprintf(GFP_KERNEL, "opp-microamp-%s",
				       p->cfg->prop_name);
		if (!p->uv_name || !p->ua_name) {
			ret = -ENOMEM;
			goto names;
		}
	}

	pts = kcalloc(of_get_available_child_count(tnp), sizeof(*pts),
		      GFP_KERNEL);
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
	kfree(pts);
names:
	kfree(p->uv_name);
	kfree(p->ua_name);
	return ret;
}

/**
 * opp_of_add_table() - add the OPPs a device's node describes
 * @dev:	the device; its of_node carries the table
 *
 * With an ``operating-points-v2`` phandle in the node, reads the table
 * node it points at: each available ``opp-*`` child whose
 * ``opp-supported-hw`` suits the mask of opp_set_config() becomes an OPP,
 * with its ``opp-hz``, ``opp-microvolt`` (one value or ``<target min
 * max>``; ``opp-microvolt-<name>`` where opp_set_config() named one),
 * ``opp-microamp``, ``turbo-mode`` and ``opp-suspend``; which OPPs may
 * carry supply values follows the rule of the kernel's OPP core of the
 * running kernel (the table's first OPP decides; see compat.h); the table keeps
 * the largest ``clock-latency-ns`` and whether it is ``opp-shared``. A
 * device whose node points at an ``opp-shared`` table that another device
 * already read, and which has no table of its own, shares that table
 * (see opp_set_sharing_cpus()) and reads nothing.
 * Otherwise reads the node's ``operating-points`` property, a list of
 * ``<kHz microvolts>`` pairs in any order.
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
 * device tree node; -ENODEV if the node has neither property, or a v2 OPP
 * has no ``opp-hz``; -ENOENT if no v2 OPP is left for this hardware;
 * -EEXIST if one rate has two voltages in a v2 table, or an OPP conflicts
 * with the table; -EINVAL for any other fault (a v1 list empty, odd, with
 * a frequency of 0 or too large, or one rate with two voltages; a v2 node
 * of another binding, an ``opp-hz`` not one rate in range, an
 * ``opp-microvolt`` of other than 1 or 3 cells or out of order, an
 * ``opp-microamp`` or ``opp-microwatt`` of other than 1 cell, supply values
 * on an OPP of a table whose first OPP has none; before 6.2, as the
 * kernel's core then, an ``opp-microvolt`` missing from an OPP of a table
 * whose first OPP has one); the error of
 * the device-tree read for a property whose length is not whole cells;
 * -ENOMEM if memory ran out.
 */
int opp_of_add_table(struct device *dev)
{
	struct opp_of_v2 p = { .dev = dev, .supplies = -1 };
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
	if (tnp && opp_of_is_v2(tnp) && of_property_read_bool(tnp, "opp-shared")) {
		ret = opp_share_of_locked(dev, tnp);
		if (ret != -ENOENT)
			goto unlock;
	}
	p.cfg = opp_config_locked(dev);
	ret = tnp ? opp_of_parse_v2(&p, tnp, &pts) :
		opp_of_parse_v1(dev, np, &pts);
	if (ret > 0)
		ret = opp_add_points_locked(dev, pts, ret, &p.facts);
unlock:
	mutex_unlock(&opp_lock);
	of_node_put(tnp);
	kfree(pts);
	return ret;
}
EXPORT_SYMBOL_GPL(opp_of_add_table);
