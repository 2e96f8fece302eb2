/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An interconnect provider that only answers lookups, for the node that
 * a suite's device-tree tables point their ``interconnects`` at. The
 * kernel's OPP core gets a table's paths when it reads the table, and
 * with the interconnect framework built in, a path to a node that no
 * provider registered defers the whole table: the suites that compare
 * this library with the kernel's parser register one of these first, so
 * that the kernel reads those tables to the end, as on a board whose
 * interconnect driver has probed. Its nodes are linked in a chain, so
 * any node reaches any later one; requests are accepted (and shown to a
 * suite that asks to see them).
 */
#ifndef _OPP_ICC_STUB_H
#define _OPP_ICC_STUB_H

#include <linux/err.h>
#include <linux/interconnect-provider.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "../compat.h"

struct icc_stub {
	struct icc_provider provider;
	struct platform_device *pdev;
	struct icc_onecell_data *data;
	bool added;
	bool registered;
};

static inline int icc_stub_set(struct icc_node *src, struct icc_node *dst)
{
	return 0;
}

static inline int icc_stub_get_bw(struct icc_node *node, u32 *avg, u32 *peak)
{
	*avg = 0;
	*peak = 0;
	return 0;
}

/* Node args[0] of one cell, or the first node of a node of no cells. */
static inline struct icc_node *
icc_stub_xlate(OPP_ICC_SPEC_CONST struct of_phandle_args *spec, void *data)
{
	struct icc_onecell_data *d = data;
	unsigned int i = spec->args_count ? spec->args[0] : 0;

	return i < d->num_nodes ? d->nodes[i] : ERR_PTR(-EINVAL);
}

static inline void icc_stub_unregister(struct icc_stub *s)
{
	if (s->registered)
		icc_provider_deregister(&s->provider);
	if (s->data)
		icc_nodes_remove(&s->provider);
	kfree(s->data);
	if (s->added)
		platform_device_unregister(s->pdev);
	else if (s->pdev)
		platform_device_put(s->pdev);
	memset(s, 0, sizeof(*s));
}

/*
 * A provider for the node at @path, with @n nodes numbered from @first_id
 * (interconnect node ids are global: each stub needs a range of its own);
 * @set sees each request (NULL: icc_stub_set(), which ignores them).
 */
static inline int icc_stub_register(struct icc_stub *s, const char *path,
				    int first_id, unsigned int n,
				    int (*set)(struct icc_node *src,
					       struct icc_node *dst))
{
	struct icc_node *node;
	unsigned int i;
	int ret;

	/* Without the framework the kernel's parser asks for no path. */
	if (!IS_ENABLED(CONFIG_INTERCONNECT))
		return 0;
	s->pdev = platform_device_alloc("opp-icc-stub", PLATFORM_DEVID_AUTO);
	if (!s->pdev)
		return -ENOMEM;
	/* The platform device puts its node when it goes. */
	s->pdev->dev.of_node = of_find_node_by_path(path);
	if (!s->pdev->dev.of_node) {
		ret = -ENOENT;
		goto fail;
	}
	ret = platform_device_add(s->pdev);
	if (ret)
		goto fail;
	s->added = true;
	s->data = kzalloc(struct_size(s->data, nodes, n), GFP_KERNEL);
	ret = -ENOMEM;
	if (!s->data)
		goto fail;
	s->data->num_nodes = n;
	s->provider.dev = &s->pdev->dev;
	s->provider.set = set ?: icc_stub_set;
	s->provider.get_bw = icc_stub_get_bw;
	s->provider.aggregate = icc_std_aggregate;
	s->provider.xlate = icc_stub_xlate;
	s->provider.data = s->data;
	icc_provider_init(&s->provider);
	for (i = 0; i < n; i++) {
		node = icc_node_create(first_id + i);
		ret = PTR_ERR(node);
		if (IS_ERR(node))
			goto fail;
		node->name = "opp-icc-stub";
		icc_node_add(node, &s->provider);
		s->data->nodes[i] = node;
		ret = i ? icc_link_create(s->data->nodes[i - 1], first_id + i) : 0;
		if (ret)
			goto fail;
	}
	ret = icc_provider_register(&s->provider);
	if (ret)
		goto fail;
	s->registered = true;
	return 0;
fail:
	pr_err("%s: interconnect stub: %d\n", path, ret);
	icc_stub_unregister(s);
	return ret;
}

#endif /* _OPP_ICC_STUB_H */
