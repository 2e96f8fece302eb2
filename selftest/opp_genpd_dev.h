/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A device for the kernel's OPP core to read a power domain's table on.
 *
 * Before 6.12, the kernel's OPP core reads the table of a node with
 * #power-domain-cells as a genpd's, and asks the genpd to turn each OPP
 * into a performance state, taking the genpd from the device with
 * container_of(): the device it reads such a table for must be the one
 * embedded in a generic_pm_domain, or it reads past the allocation. So,
 * there, the device is that of a domain known to genpd (never registered
 * as a provider: nothing attaches to it), whose state for an OPP is the
 * OPP's level. On 6.12, and without genpd, a plain fixture device does.
 *
 * The tests that compare this library with the kernel's parser take the
 * kernel's side of a power domain's table from here.
 */
#ifndef _OPP_GENPD_DEV_H
#define _OPP_GENPD_DEV_H

#include <linux/device.h>
#include <linux/err.h>
#include <linux/pm_domain.h>
#include <linux/pm_opp.h>
#include <linux/slab.h>

#include "../compat.h"
#include "opp_fixture.h"

#if OPP_GENPD_HAS_OPP_TO_STATE && IS_ENABLED(CONFIG_PM_GENERIC_DOMAINS_OF)
struct opp_genpd_dev {
	struct generic_pm_domain genpd;
	char name[];
};

static inline unsigned int opp_genpd_dev_state(struct generic_pm_domain *genpd,
					       struct dev_pm_opp *opp)
{
	return dev_pm_opp_get_level(opp);
}

/* genpd drops its reference at removal and reads the domain after: freed then. */
static inline void opp_genpd_dev_release(struct device *dev)
{
}

/* A genpd's device named @name; drop it with opp_genpd_dev_put(). */
static inline struct device *opp_genpd_dev_create(const char *name)
{
	size_t size = strlen(name) + 1;
	struct opp_genpd_dev *pd;
	int ret;

	pd = kzalloc(struct_size(pd, name, size), GFP_KERNEL);
	if (!pd)
		return ERR_PTR(-ENOMEM);
	strscpy(pd->name, name, size);
	pd->genpd.name = pd->name;
	pd->genpd.opp_to_performance_state = opp_genpd_dev_state;
	ret = pm_genpd_init(&pd->genpd, NULL, false);
	if (ret) {
		kfree(pd);
		return ERR_PTR(ret);
	}
	pd->genpd.dev.release = opp_genpd_dev_release;
	return &pd->genpd.dev;
}

static inline void opp_genpd_dev_put(struct device *dev)
{
	struct opp_genpd_dev *pd = container_of(dev, struct opp_genpd_dev,
						genpd.dev);

	/* Refused only while a device or subdomain is attached: none is. */
	if (!WARN_ON(pm_genpd_remove(&pd->genpd)))
		kfree(pd);
}
#else
static inline struct device *opp_genpd_dev_create(const char *name)
{
	return fixture_dev_create(NULL, "%s", name);
}

static inline void opp_genpd_dev_put(struct device *dev)
{
	put_device(dev);
}
#endif

#endif /* _OPP_GENPD_DEV_H */
