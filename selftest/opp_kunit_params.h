/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Module parameters for KUnit suites on Linux 6.1.
 *
 * 6.1 runs a module's KUnit suites from the MODULE_STATE_COMING notifier,
 * which load_module() calls before it parses the module's parameters: a
 * suite would always see the defaults (later kernels run the suites once
 * the module is live). opp_kunit_apply_params() applies the insmod
 * arguments the way parse_args() does right after; call it first thing in
 * a suite's init or in a case.
 */
#ifndef _OPP_KUNIT_PARAMS_H
#define _OPP_KUNIT_PARAMS_H

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

static inline int opp_kunit_apply_params(struct module *mod)
{
	const struct kernel_param *kp;
	char *args, *next, *param, *val;
	unsigned int i;
	int ret = 0;

	if (!mod->args || !*mod->args)
		return 0;
	args = kstrdup(mod->args, GFP_KERNEL);
	if (!args)
		return -ENOMEM;
	next = skip_spaces(args);
	while (*next && !ret) {
		next = next_arg(next, &param, &val);
		kp = NULL;
		for (i = 0; i < mod->num_kp; i++)
			if (!strcmp(mod->kp[i].name, param))
				kp = &mod->kp[i];
		if (!kp) {
			pr_err("%s: unknown parameter '%s'\n", mod->name, param);
			ret = -EINVAL;
			break;
		}
		/* A bare "flag" means "flag=1", as parse_args() has it. */
		ret = kp->ops->set(val ? val : "1", kp);
	}
	kfree(args);
	return ret;
}

#endif /* _OPP_KUNIT_PARAMS_H */
